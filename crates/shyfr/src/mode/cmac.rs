//! CMAC (NIST SP 800-38B; RFC 4493 for AES), streaming.
//!
//! Subkeys: `L = E(0)`, `K1 = L * x`, `K2 = K1 * x` in GF(2^b), with the reduction
//! constants of SP 800-38B 5.3 for 64- and 128-bit blocks (`0x1b`, `0x87`) and, for the
//! 256- and 512-bit blocks of Kalyna, the lexicographically first minimal-weight
//! irreducible polynomials by the same rule (`x^256 + x^10 + x^5 + x^2 + 1`: `0x425`;
//! `x^512 + x^8 + x^5 + x^2 + 1`: `0x125`). Other block lengths are
//! [`Error::InvalidParameter`].
//!
//! Tags may be truncated (SP 800-38B 6.2) to no fewer than [`MIN_TAG_LEN`] bytes (or the
//! whole block when it is shorter); [`Cmac::verify`] compares in constant time.
//!
//! ```
//! use shyfr::mode::cmac::Cmac;
//! use shyfr::Aes128;
//! let key = [0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09,
//!            0xcf, 0x4f, 0x3c];
//! let tag = Cmac::new(Aes128::new(&key)).unwrap().finalize();
//! // SP 800-38B D.1, example 1 (empty message).
//! assert_eq!(tag.as_bytes()[..4], [0xbb, 0x1d, 0x69, 0x29]);
//! let mut mac = Cmac::new(Aes128::new(&key)).unwrap();
//! mac.update(b"");
//! assert!(mac.verify(tag.as_bytes()).is_ok());
//! ```

use super::{check_cipher, BlockModes, Buf};
use crate::block::{xor_in, MAX_BLOCK_LEN};
use crate::Error;

/// The shortest truncated tag [`Cmac::verify`] accepts, in bytes (SP 800-38B appendix A
/// recommends at least 64 bits).
pub const MIN_TAG_LEN: usize = 8;

/// A CMAC tag: one block, of which [`as_bytes`](Tag::as_bytes) is the used part.
#[derive(Clone)]
pub struct Tag {
    bytes: Buf,
    len: usize,
}

impl Tag {
    /// The tag bytes (one block).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// Compares with `other` (possibly truncated) in constant time.
    pub fn verify(&self, other: &[u8]) -> Result<(), Error> {
        let min = MIN_TAG_LEN.min(self.len);
        if other.len() < min || other.len() > self.len {
            return Err(Error::InvalidTagLength { got: other.len() });
        }
        if crate::ct::ct_eq(&self.bytes[..other.len()], other) {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }
}

impl AsRef<[u8]> for Tag {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl core::fmt::Debug for Tag {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Tag(")?;
        for b in self.as_bytes() {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}

impl Drop for Tag {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.bytes[..self.len]);
    }
}

/// The reduction constant of `x^b` for a block of `b` bytes, as big-endian low bytes.
fn rb(block: usize) -> Result<u16, Error> {
    Ok(match block {
        8 => 0x1b,
        16 => 0x87,
        32 => 0x425,
        64 => 0x125,
        _ => {
            return Err(Error::InvalidParameter {
                what: "cmac block length (8, 16, 32 or 64 bytes)",
            })
        }
    })
}

/// `v * x` in GF(2^(8 * v.len())), big-endian, branch-free.
fn dbl(v: &mut [u8], rb: u16) {
    let msb = v[0] >> 7;
    for i in 0..v.len() - 1 {
        v[i] = (v[i] << 1) | (v[i + 1] >> 7);
    }
    let n = v.len();
    v[n - 1] <<= 1;
    let mask = msb.wrapping_neg();
    v[n - 1] ^= (rb as u8) & mask;
    v[n - 2] ^= ((rb >> 8) as u8) & mask;
}

/// Streaming CMAC of one message.
pub struct Cmac<C: BlockModes> {
    cipher: C,
    k1: Buf,
    k2: Buf,
    state: Buf,
    /// The last block seen (not yet absorbed: it may be the final one).
    buf: Buf,
    buf_len: usize,
}

impl<C: BlockModes> Cmac<C> {
    /// Tag length in bytes: one block.
    pub const TAG_LEN: usize = C::BLOCK_LEN;

    /// CMAC with a keyed cipher (derives the subkeys).
    pub fn new(cipher: C) -> Result<Self, Error> {
        check_cipher::<C>()?;
        let b = C::BLOCK_LEN;
        let rb = rb(b)?;
        let mut k1: Buf = [0; MAX_BLOCK_LEN];
        cipher.encrypt_blocks(&mut k1[..b])?;
        dbl(&mut k1[..b], rb);
        let mut k2 = k1;
        dbl(&mut k2[..b], rb);
        Ok(Cmac {
            cipher,
            k1,
            k2,
            state: [0; MAX_BLOCK_LEN],
            buf: [0; MAX_BLOCK_LEN],
            buf_len: 0,
        })
    }

    /// One-shot: the tag of `msg`.
    pub fn mac(cipher: C, msg: &[u8]) -> Result<Tag, Error> {
        let mut m = Cmac::new(cipher)?;
        m.update(msg);
        Ok(m.finalize())
    }

    /// Absorbs more of the message.
    pub fn update(&mut self, mut data: &[u8]) {
        let b = C::BLOCK_LEN;
        if data.is_empty() {
            return;
        }
        // Fill the held block; absorb it only if more data follows.
        if self.buf_len < b {
            let n = (b - self.buf_len).min(data.len());
            self.buf[self.buf_len..self.buf_len + n].copy_from_slice(&data[..n]);
            self.buf_len += n;
            data = &data[n..];
            if data.is_empty() {
                return;
            }
        }
        self.absorb_held();
        // Everything but the last (possibly whole) block goes straight through.
        let keep = match data.len() % b {
            0 => b,
            r => r,
        };
        let bulk = data.len() - keep;
        self.cipher
            .cbc_mac_blocks(&mut self.state[..b], &data[..bulk])
            .expect("whole blocks and a one-block state");
        self.buf[..keep].copy_from_slice(&data[bulk..]);
        self.buf_len = keep;
    }

    fn absorb_held(&mut self) {
        let b = C::BLOCK_LEN;
        self.cipher
            .cbc_mac_blocks(&mut self.state[..b], &self.buf[..b])
            .expect("one block and a one-block state");
        self.buf_len = 0;
    }

    /// The tag of everything absorbed.
    pub fn finalize(mut self) -> Tag {
        let b = C::BLOCK_LEN;
        let mut last = self.buf;
        if self.buf_len == b {
            xor_in(&mut last[..b], &self.k1[..b]);
        } else {
            last[self.buf_len] = 0x80;
            last[self.buf_len + 1..b].fill(0);
            xor_in(&mut last[..b], &self.k2[..b]);
        }
        self.cipher
            .cbc_mac_blocks(&mut self.state[..b], &last[..b])
            .expect("one block and a one-block state");
        crate::wipe::wipe(&mut last[..b]);
        Tag {
            bytes: self.state,
            len: b,
        }
    }

    /// Compares the tag of everything absorbed with `tag` (full or truncated to at least
    /// [`MIN_TAG_LEN`] bytes) in constant time: [`Error::AuthenticationFailed`] on a
    /// mismatch, [`Error::InvalidTagLength`] for a length outside the allowed range.
    pub fn verify(self, tag: &[u8]) -> Result<(), Error> {
        self.finalize().verify(tag)
    }
}

impl<C: BlockModes> Drop for Cmac<C> {
    fn drop(&mut self) {
        let b = C::BLOCK_LEN;
        crate::wipe::wipe(&mut self.k1[..b]);
        crate::wipe::wipe(&mut self.k2[..b]);
        crate::wipe::wipe(&mut self.state[..b]);
        crate::wipe::wipe(&mut self.buf[..b]);
    }
}
