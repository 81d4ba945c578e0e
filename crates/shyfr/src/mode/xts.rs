//! XTS (IEEE Std 1619-2018, NIST SP 800-38E) with ciphertext stealing, for 128-bit block
//! ciphers, and the same construction for 256- and 512-bit blocks in the tweak fields of
//! [`BlockModes::xts_encrypt_blocks`] (the block lengths of DSTU 7624 Kalyna).
//!
//! An XTS key is two cipher keys: `K1` enciphers the data, `K2` the tweak. Each data unit
//! (a disk sector) has a one-block tweak `i` (16 bytes for AES), usually its number as a
//! little-endian integer ([`Xts::encrypt_sector`]); block `j` of the unit is enciphered as
//! `E_K1(P ^ T_j) ^ T_j` with `T_j = E_K2(i) * x^j` in GF(2^128) (GF(2^256), GF(2^512)).
//!
//! A data unit is at least one block (shorter is [`Error::TooShort`]) and at most 2^20
//! blocks (IEEE 1619 5.1; longer is [`Error::TooLong`]); a length that is not a whole
//! number of blocks uses ciphertext stealing. [`Xts::encrypt_sectors`] handles many equal
//! data units with consecutive numbers and, with the `parallel` feature, splits large
//! buffers across threads.
//!
//! ```
//! use shyfr::mode::xts::Xts;
//! use shyfr::Aes128;
//! let key: [u8; 32] = core::array::from_fn(|i| i as u8);
//! let xts = Xts::<Aes128>::from_key(&key).unwrap();
//! let mut sector = [0x55u8; 520];
//! xts.encrypt_sector(7, &mut sector).unwrap();
//! xts.decrypt_sector(7, &mut sector).unwrap();
//! assert_eq!(sector, [0x55; 520]);
//! ```

use super::generic::{xts_mul_x, xts_poly};
use super::{pieces, run_pieces, BlockModes};
use crate::block::aes::{Aes, Aes128, Aes256};
use crate::block::{check_iv, InOutBuf, MAX_BLOCK_LEN};
use crate::wipe::wipe;
use crate::Error;

/// Tweak length in bytes of XTS-AES (one block; wider ciphers take one of their blocks).
pub const TWEAK_LEN: usize = 16;
/// Key length of XTS-AES-128 (two AES-128 keys).
pub const AES128_KEY_LEN: usize = 32;
/// Key length of XTS-AES-256 (two AES-256 keys).
pub const AES256_KEY_LEN: usize = 64;
/// The longest data unit IEEE 1619 allows for 128-bit blocks, in bytes (2^20 blocks).
pub const MAX_UNIT_LEN: usize = 16 << 20;

/// XTS with a data cipher (`K1`) and a tweak cipher (`K2`).
#[derive(Clone, Debug)]
pub struct Xts<C> {
    data: C,
    tweak: C,
}

fn check_unit(len: usize, block: usize) -> Result<(), Error> {
    if len < block {
        return Err(Error::TooShort {
            what: "xts data unit (one block at least)",
        });
    }
    if len > block << 20 {
        return Err(Error::TooLong {
            what: "xts data unit (2^20 blocks at most)",
        });
    }
    Ok(())
}

/// One block of tweak or data, of which the first `C::BLOCK_LEN` bytes are used.
type Blk = [u8; MAX_BLOCK_LEN];

impl<C: BlockModes + Sync> Xts<C> {
    /// XTS from the two keyed ciphers; [`Error::InvalidParameter`] unless they have
    /// 128-, 256- or 512-bit blocks.
    pub fn new(data_cipher: C, tweak_cipher: C) -> Result<Self, Error> {
        xts_poly(C::BLOCK_LEN)?;
        Ok(Xts {
            data: data_cipher,
            tweak: tweak_cipher,
        })
    }

    /// `E_K2(tweak)`; [`Error::InvalidNonceLength`] unless `tweak` is one block.
    fn first_tweak(&self, tweak: &[u8]) -> Result<Blk, Error> {
        let b = C::BLOCK_LEN;
        check_iv(tweak.len(), b)?;
        let mut t = [0u8; MAX_BLOCK_LEN];
        t[..b].copy_from_slice(tweak);
        self.tweak.encrypt_blocks(&mut t[..b])?;
        Ok(t)
    }

    /// One data unit with the encrypted tweak `t`.
    fn unit(&self, mut t: Blk, data: InOutBuf<'_>, dec: bool) -> Result<(), Error> {
        let b = C::BLOCK_LEN;
        let len = data.len();
        check_unit(len, b)?;
        let r = len % b;
        let xts = |tw: &mut [u8], d: InOutBuf<'_>| {
            if dec {
                self.data.xts_decrypt_blocks(tw, d)
            } else {
                self.data.xts_encrypt_blocks(tw, d)
            }
        };
        if r == 0 {
            let res = xts(&mut t[..b], data);
            wipe(&mut t[..b]);
            return res;
        }
        // Ciphertext stealing (IEEE 1619 5.3.2 / 5.4.2): all whole blocks but the last go
        // through the bulk call, then the last whole block and the partial one.
        let m = len / b; // whole blocks, >= 1
        let (head, mut last) = data.split_at((m - 1) * b);
        xts(&mut t[..b], head)?;
        // `t` is now T_{m-1}; the partial block uses T_m.
        let mut t2 = t;
        xts_mul_x(&mut t2[..b]);
        let (t_first, t_second) = if dec { (t2, t) } else { (t, t2) };
        let mut cc = [0u8; MAX_BLOCK_LEN];
        cc[..b].copy_from_slice(&last.input()[..b]);
        let mut tt = t_first;
        xts(&mut tt[..b], InOutBuf::in_place(&mut cc[..b]))?;
        // cc: the full block's result. Its first r bytes become the final partial block;
        // the partial input fills the front of the block enciphered second.
        let mut pp = cc;
        pp[..r].copy_from_slice(&last.input()[b..b + r]);
        let mut tt = t_second;
        xts(&mut tt[..b], InOutBuf::in_place(&mut pp[..b]))?;
        last.write_at(b, &cc[..r]);
        last.write_at(0, &pp[..b]);
        for x in [&mut cc, &mut pp, &mut tt, &mut t, &mut t2] {
            wipe(&mut x[..b]);
        }
        Ok(())
    }

    fn one_unit(&self, tweak: &[u8], data: InOutBuf<'_>, dec: bool) -> Result<(), Error> {
        let b = C::BLOCK_LEN;
        check_unit(data.len(), b)?;
        if data.len().is_multiple_of(b) {
            // No stealing: one call, the tweak enciphered inside it.
            return self.data.xts_unit_blocks(&self.tweak, tweak, data, dec);
        }
        let t = self.first_tweak(tweak)?;
        self.unit(t, data, dec)
    }

    /// Encrypts one data unit in place with a one-block tweak (16 bytes for AES).
    pub fn encrypt(&self, tweak: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        self.one_unit(tweak, InOutBuf::in_place(buf), false)
    }

    /// Encrypts one data unit from `input` to `output` (same length).
    pub fn encrypt_to(&self, tweak: &[u8], input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.one_unit(tweak, InOutBuf::new(input, output)?, false)
    }

    /// Decrypts one data unit in place.
    pub fn decrypt(&self, tweak: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        self.one_unit(tweak, InOutBuf::in_place(buf), true)
    }

    /// Decrypts one data unit from `input` to `output` (same length).
    pub fn decrypt_to(&self, tweak: &[u8], input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.one_unit(tweak, InOutBuf::new(input, output)?, true)
    }

    /// Encrypts data unit number `sector` (tweak: the number, little-endian, padded with
    /// zeros to a block) in place.
    pub fn encrypt_sector(&self, sector: u128, buf: &mut [u8]) -> Result<(), Error> {
        self.encrypt(&sector_tweak(sector)[..C::BLOCK_LEN], buf)
    }

    /// Decrypts data unit number `sector` in place.
    pub fn decrypt_sector(&self, sector: u128, buf: &mut [u8]) -> Result<(), Error> {
        self.decrypt(&sector_tweak(sector)[..C::BLOCK_LEN], buf)
    }

    fn sectors(
        &self,
        first: u128,
        unit_len: usize,
        data: InOutBuf<'_>,
        dec: bool,
    ) -> Result<(), Error> {
        check_unit(unit_len, C::BLOCK_LEN)?;
        if !data.len().is_multiple_of(unit_len) {
            return Err(Error::NotWholeBlocks {
                len: data.len(),
                block: unit_len,
            });
        }
        let units = (data.len() / unit_len) as u128;
        if units > 0 && first.checked_add(units - 1).is_none() {
            return Err(Error::TooLong {
                what: "xts sector numbers",
            });
        }
        let n = pieces(data.len());
        run_pieces(data, unit_len, n, &|k, mut p: InOutBuf<'_>| {
            // Tweaks of up to 32 units at a time, enciphered in one bulk call.
            let count = p.len() / unit_len;
            let mut done = 0;
            let b = C::BLOCK_LEN;
            let per = 512 / b; // tweaks per bulk call
            let mut tw = [0u8; 512];
            while done < count {
                let g = (count - done).min(per);
                for (j, t) in tw[..g * b].chunks_exact_mut(b).enumerate() {
                    t.copy_from_slice(&sector_tweak(first + (k + done + j) as u128)[..b]);
                }
                self.tweak.encrypt_blocks(&mut tw[..g * b])?;
                for (j, t) in tw[..g * b].chunks_exact(b).enumerate() {
                    let off = (done + j) * unit_len;
                    let (_, rest) = p.reborrow().split_at(off);
                    let (u, _) = rest.split_at(unit_len);
                    let mut one = [0u8; MAX_BLOCK_LEN];
                    one[..b].copy_from_slice(t);
                    self.unit(one, u, dec)?;
                }
                done += g;
            }
            wipe(&mut tw);
            Ok(())
        })
    }

    /// Encrypts consecutive data units of `unit_len` bytes in place, numbered from
    /// `first_sector`; `buf` must be a whole number of units.
    pub fn encrypt_sectors(
        &self,
        first_sector: u128,
        unit_len: usize,
        buf: &mut [u8],
    ) -> Result<(), Error> {
        self.sectors(first_sector, unit_len, InOutBuf::in_place(buf), false)
    }

    /// Decrypts consecutive data units of `unit_len` bytes in place.
    pub fn decrypt_sectors(
        &self,
        first_sector: u128,
        unit_len: usize,
        buf: &mut [u8],
    ) -> Result<(), Error> {
        self.sectors(first_sector, unit_len, InOutBuf::in_place(buf), true)
    }

    /// [`encrypt_sectors`](Self::encrypt_sectors) from `input` to `output`.
    pub fn encrypt_sectors_to(
        &self,
        first_sector: u128,
        unit_len: usize,
        input: &[u8],
        output: &mut [u8],
    ) -> Result<(), Error> {
        self.sectors(first_sector, unit_len, InOutBuf::new(input, output)?, false)
    }

    /// [`decrypt_sectors`](Self::decrypt_sectors) from `input` to `output`.
    pub fn decrypt_sectors_to(
        &self,
        first_sector: u128,
        unit_len: usize,
        input: &[u8],
        output: &mut [u8],
    ) -> Result<(), Error> {
        self.sectors(first_sector, unit_len, InOutBuf::new(input, output)?, true)
    }
}

/// The tweak of data unit `sector`: the number little-endian, zero-padded to 64 bytes.
fn sector_tweak(sector: u128) -> Blk {
    let mut t = [0u8; MAX_BLOCK_LEN];
    t[..16].copy_from_slice(&sector.to_le_bytes());
    t
}

/// Splits an XTS key into its halves; [`Error::InvalidParameter`] if they are equal
/// (SP 800-38E / FIPS 140-3 IG C.I: `K1` must differ from `K2`).
fn halves(key: &[u8]) -> Result<(&[u8], &[u8]), Error> {
    let (k1, k2) = key.split_at(key.len() / 2);
    if crate::ct::ct_eq(k1, k2) {
        return Err(Error::InvalidParameter {
            what: "xts key halves are equal",
        });
    }
    Ok((k1, k2))
}

impl Xts<Aes128> {
    /// XTS-AES-128 from a 32-byte key `K1 || K2` (halves must differ).
    pub fn from_key(key: &[u8; AES128_KEY_LEN]) -> Result<Self, Error> {
        let (k1, k2) = halves(key)?;
        Xts::new(Aes128::new_from_slice(k1)?, Aes128::new_from_slice(k2)?)
    }
}

impl Xts<Aes256> {
    /// XTS-AES-256 from a 64-byte key `K1 || K2` (halves must differ).
    pub fn from_key(key: &[u8; AES256_KEY_LEN]) -> Result<Self, Error> {
        let (k1, k2) = halves(key)?;
        Xts::new(Aes256::new_from_slice(k1)?, Aes256::new_from_slice(k2)?)
    }
}

impl Xts<Aes> {
    /// XTS-AES from a 32-, 48- or 64-byte key `K1 || K2` (halves must differ), with the
    /// given AES backend for both halves.
    pub fn from_key_slice(key: &[u8], backend: crate::aes::Backend) -> Result<Self, Error> {
        if !matches!(key.len(), 32 | 48 | 64) {
            return Err(Error::InvalidKeyLength { got: key.len() });
        }
        let (k1, k2) = halves(key)?;
        Xts::new(
            Aes::with_backend(k1, backend)?,
            Aes::with_backend(k2, backend)?,
        )
    }
}
