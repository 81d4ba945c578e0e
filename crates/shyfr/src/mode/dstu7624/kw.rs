//! DSTU 7624:2014 key wrap.
//!
//! The data is formatted first: when its length is not a whole number of blocks, its bit
//! length follows it (little-endian, in a field of half a block), then 0x80 0.. up to a
//! block ([`super::pad_partial`]); one zero block is appended. The `n` half-blocks of the
//! result go through `6 (n - 1)` rounds of `(B, b_1 .. b_{n-1})`:
//! `Y = E(B || b_1)`, `Y_hi ^= t` (the round number, little-endian),
//! then `B = Y_hi` and the `b` shift left by one with `Y_lo` at the end. The wrapped
//! value is one block longer than the formatted data.
//!
//! Unwrapping runs the rounds backwards, checks in constant time that the appended block
//! came back zero ([`Error::AuthenticationFailed`] otherwise, with the output zeroed), and
//! removes the formatting. Data that is itself a whole number of blocks and ends in a
//! valid-looking length field and padding cannot be told from formatted data: the format
//! of the standard has that ambiguity (key data, the intended use, is random).
//!
//! ```
//! use shyfr::kalyna::Kalyna256_256;
//! use shyfr::mode::dstu7624::kw::Kw;
//! let kw = Kw::new(Kalyna256_256::new(&[7; 32])).unwrap();
//! let key = [0x11u8; 40];
//! let mut wrapped = [0u8; 96];
//! let n = kw.wrap(&key, &mut wrapped).unwrap();
//! assert_eq!(n, Kw::<Kalyna256_256>::wrapped_len(40));
//! let mut out = [0u8; 96];
//! let m = kw.unwrap(&wrapped[..n], &mut out).unwrap();
//! assert_eq!(&out[..m], &key);
//! ```

use super::{pad_partial, Dstu7624Cipher};
use crate::block::MAX_BLOCK_LEN;
use crate::Error;

/// DSTU 7624 key wrap with one cipher (the key-encryption key).
pub struct Kw<C: Dstu7624Cipher> {
    cipher: C,
}

impl<C: Dstu7624Cipher> Kw<C> {
    /// Key wrap under `cipher`.
    pub fn new(cipher: C) -> Result<Self, Error> {
        crate::mode::check_cipher::<C>()?;
        Ok(Kw { cipher })
    }

    /// The formatted length of `len` bytes of data (without the appended zero block).
    fn formatted_len(len: usize) -> usize {
        let b = C::BLOCK_LEN;
        if len.is_multiple_of(b) {
            len
        } else {
            (len + b / 2).next_multiple_of(b)
        }
    }

    /// The wrapped length of `len` bytes of data.
    pub fn wrapped_len(len: usize) -> usize {
        Self::formatted_len(len) + C::BLOCK_LEN
    }

    /// Wraps `data` (at least one byte) into `out[..wrapped_len(data.len())]`; returns that
    /// length. [`Error::TooShort`] when `out` is shorter.
    pub fn wrap(&self, data: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        let (b, h) = (C::BLOCK_LEN, C::BLOCK_LEN / 2);
        if data.is_empty() {
            return Err(Error::TooShort {
                what: "key wrap data (at least one byte)",
            });
        }
        let total = Self::wrapped_len(data.len());
        let out = out.get_mut(..total).ok_or(Error::TooShort {
            what: "key wrap output buffer",
        })?;
        out.fill(0);
        out[..data.len()].copy_from_slice(data);
        if !data.len().is_multiple_of(b) {
            let bits = (data.len() as u128) * 8;
            let field = &mut out[data.len()..data.len() + h];
            for (i, x) in field.iter_mut().enumerate().take(16) {
                *x = (bits >> (8 * i)) as u8;
            }
            pad_partial(out, data.len() + h, b)?;
        }
        // `out` is now formatted data, then one zero block.
        let n = total / h;
        let mut blk = [0u8; MAX_BLOCK_LEN];
        for t in 1..=6 * (n - 1) {
            blk[..h].copy_from_slice(&out[..h]);
            blk[h..b].copy_from_slice(&out[h..b]);
            self.cipher.encrypt_blocks(&mut blk[..b])?;
            xor_round(&mut blk[h..b], t);
            // B = Y_hi; b_1..b_{n-1} shift left; b_{n-1} = Y_lo.
            out[..h].copy_from_slice(&blk[h..b]);
            out.copy_within(2 * h.., h);
            out[total - h..].copy_from_slice(&blk[..h]);
        }
        crate::wipe::wipe(&mut blk);
        Ok(total)
    }

    /// Unwraps `wrapped` into `out`, returning the data length. [`Error::NotWholeBlocks`]
    /// or [`Error::TooShort`] for lengths wrapping never produces,
    /// [`Error::AuthenticationFailed`] (and `out` zeroed) when the integrity check fails.
    pub fn unwrap(&self, wrapped: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        let (b, h) = (C::BLOCK_LEN, C::BLOCK_LEN / 2);
        let total = wrapped.len();
        crate::block::check_whole_blocks(total, b)?;
        if total < 2 * b {
            return Err(Error::TooShort {
                what: "wrapped key (at least two blocks)",
            });
        }
        let formatted = total - b;
        let out = match out.get_mut(..total) {
            Some(o) => o,
            None => {
                return Err(Error::TooShort {
                    what: "key wrap output buffer (the wrapped length)",
                })
            }
        };
        out.copy_from_slice(wrapped);
        let n = total / h;
        let mut blk = [0u8; MAX_BLOCK_LEN];
        for t in (1..=6 * (n - 1)).rev() {
            // Y_lo = b_{n-1}, Y_hi = B ^ t; b shifts right with D(Y)_hi as b_1, B = D(Y)_lo.
            blk[..h].copy_from_slice(&out[total - h..]);
            blk[h..b].copy_from_slice(&out[..h]);
            xor_round(&mut blk[h..b], t);
            self.cipher.decrypt_blocks(&mut blk[..b])?;
            out.copy_within(h..total - h, 2 * h);
            out[..h].copy_from_slice(&blk[..h]);
            out[h..b].copy_from_slice(&blk[h..b]);
        }
        crate::wipe::wipe(&mut blk);
        let zero = out[formatted..].iter().fold(0u8, |a, x| a | x);
        if zero != 0 {
            out.fill(0);
            return Err(Error::AuthenticationFailed);
        }
        let len = unformat(&out[..formatted], b);
        out[len..].fill(0);
        Ok(len)
    }
}

/// XORs the round number `t` into `x`, little-endian.
fn xor_round(x: &mut [u8], t: usize) {
    for (i, b) in x.iter_mut().enumerate().take(core::mem::size_of::<usize>()) {
        *b ^= (t >> (8 * i)) as u8;
    }
}

/// The little-endian bit length in `field`, if it is a whole number of bytes.
fn field_bytes(field: &[u8]) -> Option<usize> {
    let mut bits = 0u128;
    for (i, &x) in field.iter().enumerate() {
        if i < 16 {
            bits |= (x as u128) << (8 * i);
        } else if x != 0 {
            return None;
        }
    }
    if !bits.is_multiple_of(8) {
        return None;
    }
    usize::try_from(bits / 8).ok()
}

/// The data length of formatted data `f` (a whole number of `b`-byte blocks): data, its
/// length field and 0x80 0.. padding (when the field does not end a block); data and its
/// length field (when it does); or unformatted data (a whole number of blocks).
fn unformat(f: &[u8], b: usize) -> usize {
    let h = b / 2;
    let len = f.len();
    // Field then padding: the last non-zero byte is the 0x80 after the field.
    if let Some(p) = f.iter().rposition(|&x| x != 0) {
        if f[p] == 0x80 && p >= h && !p.is_multiple_of(b) {
            let start = p - h;
            if field_bytes(&f[start..p]) == Some(start) && !start.is_multiple_of(b) {
                return start;
            }
        }
    }
    // Field ending the data.
    let start = len - h;
    if field_bytes(&f[start..]) == Some(start) {
        return start;
    }
    len
}
