//! DSTU 7624:2014 XTS, with ciphertext stealing, for every Kalyna block length.
//!
//! One key: `T_0 = E(IV)`, `T_i = T_{i-1} * x` in GF(2^b) — little-endian bit order, the
//! standard's polynomials `x^128 + x^7 + x^2 + x + 1`, `x^256 + x^10 + x^5 + x^2 + 1`,
//! `x^512 + x^8 + x^5 + x^2 + 1` — and block `i` (from 1) is `E(P_i ^ T_i) ^ T_i`. An
//! unaligned last block steals the tail of the ciphertext before it, as IEEE 1619 does.
//! Data shorter than a block is [`Error::TooShort`]. Where IEEE 1619 XTS differs: one key
//! instead of two, the first tweak already multiplied, and block lengths beyond 128 bits.
//!
//! ```
//! use shyfr::kalyna::Kalyna512_512;
//! use shyfr::mode::dstu7624::xts::Xts;
//! let x = Xts::new(Kalyna512_512::new(&[6; 64])).unwrap();
//! let mut sector = [9u8; 100];
//! x.encrypt(&[1; 64], &mut sector).unwrap();
//! x.decrypt(&[1; 64], &mut sector).unwrap();
//! assert_eq!(sector, [9u8; 100]);
//! ```

use super::Dstu7624Cipher;
use crate::block::{xor_in, InOutBuf, MAX_BLOCK_LEN};
use crate::mode::{load_iv, Buf};
use crate::Error;

/// `t * x` in GF(2^b) for `b` = 8 `t.len()` (16, 32 or 64 bytes), little-endian, with the
/// standard's reduction polynomial; branch-free, on 64-bit words.
pub(crate) fn mul_x(t: &mut [u8]) {
    let n = t.len() / 8;
    let mut w = [0u64; 8];
    for (x, c) in w.iter_mut().zip(t.chunks_exact(8)) {
        *x = u64::from_le_bytes(c.try_into().expect("8 bytes"));
    }
    let top = w[n - 1] >> 63;
    for i in (1..n).rev() {
        w[i] = (w[i] << 1) | (w[i - 1] >> 63);
    }
    // The low terms of the polynomial: x^7+x^2+x+1, x^10+x^5+x^2+1, x^8+x^5+x^2+1.
    let low: u64 = match n {
        2 => 0x87,
        4 => 0x425,
        _ => 0x125,
    };
    w[0] = (w[0] << 1) ^ (low & top.wrapping_neg());
    for (c, x) in t.chunks_exact_mut(8).zip(&w) {
        c.copy_from_slice(&x.to_le_bytes());
    }
}

/// Blocks of tweaks prepared per cipher call.
const CHUNK: usize = 4096;

/// DSTU 7624 XTS with one cipher.
pub struct Xts<C: Dstu7624Cipher> {
    cipher: C,
}

impl<C: Dstu7624Cipher> Xts<C> {
    /// XTS on `cipher` (a 128-, 256- or 512-bit block cipher).
    pub fn new(cipher: C) -> Result<Self, Error> {
        if !matches!(C::BLOCK_LEN, 16 | 32 | 64) {
            return Err(Error::InvalidParameter {
                what: "dstu 7624 xts needs a 128-, 256- or 512-bit block cipher",
            });
        }
        Ok(Xts { cipher })
    }

    /// Whole blocks with consecutive tweaks: `tweak` is `T_{i-1}` on entry and the tweak of
    /// the last block on return.
    fn blocks(&self, tweak: &mut Buf, mut data: InOutBuf<'_>, dec: bool) -> Result<(), Error> {
        let b = C::BLOCK_LEN;
        let (mut buf, mut tw) = ([0u8; CHUNK], [0u8; CHUNK]);
        let chunk = CHUNK / b * b;
        let mut off = 0;
        while off < data.len() {
            let n = chunk.min(data.len() - off);
            for t in tw[..n].chunks_exact_mut(b) {
                mul_x(&mut tweak[..b]);
                t.copy_from_slice(&tweak[..b]);
            }
            buf[..n].copy_from_slice(&data.input()[off..off + n]);
            xor_in(&mut buf[..n], &tw[..n]);
            if dec {
                self.cipher.decrypt_blocks(&mut buf[..n])?;
            } else {
                self.cipher.encrypt_blocks(&mut buf[..n])?;
            }
            xor_in(&mut buf[..n], &tw[..n]);
            data.write_at(off, &buf[..n]);
            off += n;
        }
        crate::wipe::wipe(&mut buf);
        crate::wipe::wipe(&mut tw);
        Ok(())
    }

    fn run(&self, iv: &[u8], mut data: InOutBuf<'_>, dec: bool) -> Result<(), Error> {
        let b = C::BLOCK_LEN;
        let mut tweak = load_iv::<C>(iv)?;
        let len = data.len();
        if len < b {
            return Err(Error::TooShort {
                what: "xts data unit (at least one block)",
            });
        }
        self.cipher.encrypt_blocks(&mut tweak[..b])?;
        let r = len % b;
        // With stealing, the last whole block and the tail are done apart.
        let bulk = if r == 0 { len } else { len - r - b };
        let (head, mut last) = data.reborrow().split_at(bulk);
        self.blocks(&mut tweak, head, dec)?;
        if r != 0 {
            // The whole block before the tail (`m-1`) and the tail (`m`).
            let mut t1 = tweak;
            mul_x(&mut t1[..b]);
            let mut t2 = t1;
            mul_x(&mut t2[..b]);
            let (first_t, second_t) = if dec { (&t2, &t1) } else { (&t1, &t2) };
            let mut x: Buf = [0; MAX_BLOCK_LEN];
            x[..b].copy_from_slice(&last.input()[..b]);
            one(&self.cipher, &mut x[..b], &first_t[..b], dec)?;
            // x: the block whose head becomes the short last block; its tail fills the
            // short input block, which then takes the other tweak.
            let mut y: Buf = [0; MAX_BLOCK_LEN];
            y[..r].copy_from_slice(&last.input()[b..b + r]);
            y[r..b].copy_from_slice(&x[r..b]);
            one(&self.cipher, &mut y[..b], &second_t[..b], dec)?;
            last.write_at(0, &y[..b]);
            last.write_at(b, &x[..r]);
            crate::wipe::wipe(&mut x);
            crate::wipe::wipe(&mut y);
        }
        Ok(())
    }

    /// Encrypts one data unit in place under `iv` (one block).
    pub fn encrypt(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        self.run(iv, InOutBuf::in_place(buf), false)
    }

    /// Decrypts one data unit in place under `iv` (one block).
    pub fn decrypt(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        self.run(iv, InOutBuf::in_place(buf), true)
    }

    /// Encrypts `input` into `output` (same length).
    pub fn encrypt_to(&self, iv: &[u8], input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.run(iv, InOutBuf::new(input, output)?, false)
    }

    /// Decrypts `input` into `output` (same length).
    pub fn decrypt_to(&self, iv: &[u8], input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.run(iv, InOutBuf::new(input, output)?, true)
    }
}

/// `x = E(x ^ t) ^ t` (or with `D`).
fn one<C: Dstu7624Cipher>(c: &C, x: &mut [u8], t: &[u8], dec: bool) -> Result<(), Error> {
    xor_in(x, t);
    if dec {
        c.decrypt_blocks(x)?;
    } else {
        c.encrypt_blocks(x)?;
    }
    xor_in(x, t);
    Ok(())
}
