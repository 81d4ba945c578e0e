//! DSTU 7624:2014 CCM.
//!
//! The MAC is a CBC-MAC (starting from zero) over:
//! 1. the header block: the first `b - Nb - 1` bytes of the IV, the plaintext length
//!    little-endian in `Nb` bytes, and a flags byte (bit 7: the plaintext is not empty;
//!    bits 4..6: the MAC length code, 2, 3, 4, 5, 6 for 8, 16, 32, 48, 64 bytes; bits 0..3:
//!    `Nb - 1`);
//! 2. the associated-data length, little-endian, at the start of a zero string that, with
//!    the associated data after it, fills whole blocks;
//! 3. the plaintext padded with 0x80 0.. ([`crate::mode::dstu7624::pad_partial`]).
//!
//! The first `q` bytes of the MAC, `H`, are appended to the plaintext and the whole is
//! encrypted with the DSTU gamma of the IV ([`crate::mode::dstu7624::ctr`]): the
//! ciphertext is as long as the plaintext and the tag returned is the encrypted `H`. Where
//! NIST CCM differs: the header layout (little-endian, the flags at the end), the
//! associated-data block, the padding, and the MAC encrypted by continuing the keystream.
//!
//! ```
//! use shyfr::aead::dstu7624::ccm::Ccm;
//! use shyfr::kalyna::Kalyna128_128;
//! let ccm = Ccm::new(Kalyna128_128::new(&[1; 16]), 16, 4).unwrap();
//! let iv = [2u8; 16];
//! let mut buf = *b"attack at dawn";
//! let tag = ccm.seal_in_place(&iv, b"hdr", &mut buf).unwrap();
//! ccm.open_in_place(&iv, b"hdr", &mut buf, tag.as_bytes()).unwrap();
//! assert_eq!(&buf, b"attack at dawn");
//! ```
#![forbid(unsafe_code)]

use crate::block::{InOutBuf, MAX_BLOCK_LEN};
use crate::mode::dstu7624::ctr::Ctr;
use crate::mode::dstu7624::{pad_partial, Dstu7624Cipher, Tag};
use crate::Error;

/// DSTU 7624 CCM with a fixed key, MAC length `q` and length-field size `Nb`.
pub struct Ccm<C: Dstu7624Cipher> {
    cipher: C,
    q: usize,
    nb: usize,
}

impl<C: Dstu7624Cipher + Sync> Ccm<C> {
    /// CCM with `q`-byte MACs (8, 16, 32, 48 or 64, at most the block) and an `nb`-byte
    /// plaintext length field (1 to 16, at most `b - 1`). The standard's `Nb` parameter,
    /// given as a maximum message length in bits `n_max`, is `nb = (n_max - 3) / 8 + 1`.
    pub fn new(cipher: C, q: usize, nb: usize) -> Result<Self, Error> {
        let b = C::BLOCK_LEN;
        if !matches!(b, 16 | 32 | 64) {
            return Err(Error::InvalidParameter {
                what: "dstu 7624 ccm needs a 128-, 256- or 512-bit block cipher",
            });
        }
        if !matches!(q, 8 | 16 | 32 | 48 | 64) || q > b {
            return Err(Error::InvalidTagLength { got: q });
        }
        if nb == 0 || nb > 16 || nb >= b {
            return Err(Error::InvalidParameter {
                what: "ccm length field (1 to 16 bytes, less than a block)",
            });
        }
        Ok(Ccm { cipher, q, nb })
    }

    /// The MAC length in bytes.
    pub fn tag_len(&self) -> usize {
        self.q
    }

    /// The unencrypted MAC `H` of `aad` and `plain`.
    fn mac(&self, iv: &[u8], aad: &[u8], plain: &[u8]) -> Result<[u8; MAX_BLOCK_LEN], Error> {
        let (b, nb) = (C::BLOCK_LEN, self.nb);
        crate::block::check_iv(iv.len(), b)?;
        if nb < 16 && (plain.len() as u128) >> (8 * nb) != 0 {
            return Err(Error::TooLong {
                what: "ccm plaintext (for the length field)",
            });
        }
        let mut state = [0u8; MAX_BLOCK_LEN];
        let mut blk = [0u8; MAX_BLOCK_LEN];
        // Header block.
        let pre = b - nb - 1;
        blk[..pre].copy_from_slice(&iv[..pre]);
        let len = (plain.len() as u128).to_le_bytes();
        blk[pre..pre + nb].copy_from_slice(&len[..nb]);
        let code = match self.q {
            8 => 2,
            16 => 3,
            32 => 4,
            48 => 5,
            _ => 6,
        };
        blk[b - 1] = (u8::from(!plain.is_empty()) << 7) | (code << 4) | (nb as u8 - 1);
        self.cbc_mac(&mut state, &blk[..b])?;
        // The associated-data length, then the associated data, filling whole blocks.
        let lead = b - aad.len() % b;
        let alen = (aad.len() as u64).to_le_bytes();
        if lead < 8 && (aad.len() as u64) >> (8 * lead) != 0 {
            return Err(Error::TooLong {
                what: "ccm associated data (for its length field)",
            });
        }
        blk[..b].fill(0);
        let n = lead.min(8);
        blk[..n].copy_from_slice(&alen[..n]);
        let first = (b - lead).min(aad.len());
        blk[lead..lead + first].copy_from_slice(&aad[..first]);
        self.cbc_mac(&mut state, &blk[..b])?;
        self.cbc_mac(&mut state, &aad[first..])?;
        // The plaintext, padded.
        let whole = plain.len() / b * b;
        self.cbc_mac(&mut state, &plain[..whole])?;
        let r = plain.len() - whole;
        if r > 0 {
            blk[..r].copy_from_slice(&plain[whole..]);
            pad_partial(&mut blk[..b], r, b)?;
            self.cbc_mac(&mut state, &blk[..b])?;
        }
        crate::wipe::wipe(&mut blk);
        Ok(state)
    }

    fn cbc_mac(&self, state: &mut [u8; MAX_BLOCK_LEN], data: &[u8]) -> Result<(), Error> {
        self.cipher.cbc_mac_blocks(&mut state[..C::BLOCK_LEN], data)
    }

    /// Encrypts `data` and then `mac[..q]` with one gamma stream of `iv`.
    fn gamma(&self, iv: &[u8], data: InOutBuf<'_>, mac: &mut [u8]) -> Result<(), Error> {
        let mut ctr = Ctr::new(&self.cipher, iv)?;
        ctr.apply_inout(data)?;
        ctr.apply_keystream(mac)
    }

    /// Encrypts `buf` in place under `iv` (one block); returns the encrypted MAC (the `q`
    /// bytes the standard appends to the ciphertext).
    pub fn seal_in_place(&self, iv: &[u8], aad: &[u8], buf: &mut [u8]) -> Result<Tag, Error> {
        let mut mac = self.mac(iv, aad, buf)?;
        self.gamma(iv, InOutBuf::in_place(buf), &mut mac[..self.q])?;
        let tag = Tag::new(&mac, self.q);
        crate::wipe::wipe(&mut mac);
        Ok(tag)
    }

    /// Encrypts `plaintext` into `ciphertext` (same length); returns the encrypted MAC.
    pub fn seal_to(
        &self,
        iv: &[u8],
        aad: &[u8],
        plaintext: &[u8],
        ciphertext: &mut [u8],
    ) -> Result<Tag, Error> {
        let io = InOutBuf::new(plaintext, ciphertext)?;
        let mut mac = self.mac(iv, aad, plaintext)?;
        self.gamma(iv, io, &mut mac[..self.q])?;
        let tag = Tag::new(&mac, self.q);
        crate::wipe::wipe(&mut mac);
        Ok(tag)
    }

    /// Decrypts `buf` in place and checks the encrypted MAC `tag` in constant time; on
    /// failure `buf` is zeroed and [`Error::AuthenticationFailed`] returned.
    pub fn open_in_place(
        &self,
        iv: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        let r = self.open_inner(iv, aad, InOutBuf::in_place(buf), tag);
        if r.is_err() {
            crate::wipe::wipe(buf);
        }
        r
    }

    /// Decrypts `ciphertext` into `plaintext` (same length) and checks `tag`; on failure
    /// `plaintext` is zeroed.
    pub fn open_to(
        &self,
        iv: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        plaintext: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        let r =
            InOutBuf::new(ciphertext, plaintext).and_then(|io| self.open_inner(iv, aad, io, tag));
        if r.is_err() {
            crate::wipe::wipe(plaintext);
        }
        r
    }

    fn open_inner(&self, iv: &[u8], aad: &[u8], io: InOutBuf<'_>, tag: &[u8]) -> Result<(), Error> {
        if tag.len() != self.q {
            return Err(Error::InvalidTagLength { got: tag.len() });
        }
        crate::block::check_iv(iv.len(), C::BLOCK_LEN)?;
        let mut got = [0u8; MAX_BLOCK_LEN];
        got[..self.q].copy_from_slice(tag);
        let out = io.into_copied_output();
        self.gamma(iv, InOutBuf::in_place(out), &mut got[..self.q])?;
        let mut want = self.mac(iv, aad, out)?;
        let ok = crate::ct::ct_eq(&want[..self.q], &got[..self.q]);
        crate::wipe::wipe(&mut want);
        crate::wipe::wipe(&mut got);
        if ok {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }
}
