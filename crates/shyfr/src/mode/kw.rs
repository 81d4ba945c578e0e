//! Key wrap: KW (RFC 3394, NIST SP 800-38F 6.2) and KWP, key wrap with padding (RFC 5649,
//! SP 800-38F 6.3), for 128-bit block ciphers.
//!
//! * KW wraps key data of a whole number of 8-byte semiblocks, at least two (16 bytes),
//!   into 8 bytes more.
//! * KWP wraps 1 to 2^32 - 1 bytes into the next multiple of 8, plus 8.
//!
//! Unwrapping checks the integrity value in constant time and returns
//! [`Error::AuthenticationFailed`] for every kind of mismatch (IV, length indicator,
//! padding); the output buffer is zeroed then. Input lengths the scheme can never produce
//! are reported as such ([`Error::NotWholeBlocks`], [`Error::TooShort`]); lengths are not
//! secret.
//!
//! ```
//! use shyfr::mode::kw::{Kw, Kwp};
//! use shyfr::Aes256;
//! let kek = Aes256::new(&[7; 32]);
//! let key = [0x11u8; 16];
//! let mut wrapped = [0u8; 24];
//! Kw::new(&kek).unwrap().wrap(&key, &mut wrapped).unwrap();
//! let mut out = [0u8; 16];
//! let n = Kw::new(&kek).unwrap().unwrap(&wrapped, &mut out).unwrap();
//! assert_eq!(&out[..n], &key);
//! let mut w2 = [0u8; 16];
//! assert_eq!(Kwp::new(&kek).unwrap().wrap(&[1, 2, 3], &mut w2).unwrap(), 16);
//! ```

use crate::block::BlockCipher;
use crate::Error;

/// Semiblock length in bytes.
pub const SEMIBLOCK: usize = 8;
/// The default integrity value of KW (RFC 3394 2.2.3.1).
pub const KW_IV: [u8; 8] = [0xa6; 8];
/// The first half of the KWP alternative initial value (RFC 5649 3).
pub const KWP_AIV_PREFIX: [u8; 4] = [0xa6, 0x59, 0x59, 0xa6];
/// Largest KWP input, in bytes (the 32-bit message length indicator).
pub const KWP_MAX_LEN: usize = u32::MAX as usize;

fn check_cipher<C: BlockCipher>() -> Result<(), Error> {
    if C::BLOCK_LEN != 16 {
        return Err(Error::InvalidParameter {
            what: "key wrap needs a 128-bit block cipher",
        });
    }
    Ok(())
}

fn out_short() -> Error {
    Error::TooShort {
        what: "key wrap output buffer",
    }
}

/// The wrapping function W (SP 800-38F algorithm 1, index form of RFC 3394 2.2.1):
/// `a` is the initial value, `r` the semiblocks (at least two), all replaced by the result.
fn w<C: BlockCipher>(c: &C, a: &mut [u8; 8], r: &mut [u8]) -> Result<(), Error> {
    let n = (r.len() / 8) as u64;
    let mut b = [0u8; 16];
    for j in 0..6u64 {
        for (i, ri) in r.chunks_exact_mut(8).enumerate() {
            b[..8].copy_from_slice(a);
            b[8..].copy_from_slice(ri);
            c.encrypt_blocks(&mut b)?;
            let t = n * j + i as u64 + 1;
            for (x, y) in a.iter_mut().zip(b[..8].iter().zip(t.to_be_bytes())) {
                *x = y.0 ^ y.1;
            }
            ri.copy_from_slice(&b[8..]);
        }
    }
    crate::wipe::wipe(&mut b);
    Ok(())
}

/// The unwrapping function W^-1 (SP 800-38F algorithm 2).
fn w_inv<C: BlockCipher>(c: &C, a: &mut [u8; 8], r: &mut [u8]) -> Result<(), Error> {
    let n = (r.len() / 8) as u64;
    let mut b = [0u8; 16];
    for j in (0..6u64).rev() {
        for (i, ri) in r.chunks_exact_mut(8).enumerate().rev() {
            let t = n * j + i as u64 + 1;
            for (x, (y, z)) in b[..8].iter_mut().zip(a.iter().zip(t.to_be_bytes())) {
                *x = y ^ z;
            }
            b[8..].copy_from_slice(ri);
            c.decrypt_blocks(&mut b)?;
            a.copy_from_slice(&b[..8]);
            ri.copy_from_slice(&b[8..]);
        }
    }
    crate::wipe::wipe(&mut b);
    Ok(())
}

/// KW (RFC 3394) with a fixed key-encryption key.
#[derive(Clone, Debug)]
pub struct Kw<C> {
    cipher: C,
}

impl<C: BlockCipher> Kw<C> {
    /// Wraps a keyed 128-bit block cipher.
    pub fn new(cipher: C) -> Result<Self, Error> {
        check_cipher::<C>()?;
        Ok(Kw { cipher })
    }

    /// Length of the wrapping of `key_len` bytes.
    pub const fn wrapped_len(key_len: usize) -> usize {
        key_len + SEMIBLOCK
    }

    /// Wraps `key` (a multiple of 8 bytes, at least 16) into the first `key.len() + 8`
    /// bytes of `out`; returns that length.
    pub fn wrap(&self, key: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        if !key.len().is_multiple_of(SEMIBLOCK) {
            return Err(Error::NotWholeBlocks {
                len: key.len(),
                block: SEMIBLOCK,
            });
        }
        if key.len() < 2 * SEMIBLOCK {
            return Err(Error::TooShort {
                what: "kw key data (16 bytes at least)",
            });
        }
        let total = key.len() + SEMIBLOCK;
        if out.len() < total {
            return Err(out_short());
        }
        let mut a = KW_IV;
        out[8..total].copy_from_slice(key);
        w(&self.cipher, &mut a, &mut out[8..total])?;
        out[..8].copy_from_slice(&a);
        Ok(total)
    }

    /// Unwraps `wrapped` (a multiple of 8 bytes, at least 24) into the first
    /// `wrapped.len() - 8` bytes of `out`; returns that length.
    /// [`Error::AuthenticationFailed`] (with `out` zeroed) if the integrity check fails.
    pub fn unwrap(&self, wrapped: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        let n = unwrapped_len(wrapped, 3, "kw wrapped key (24 bytes at least)", out.len())?;
        let mut a = [0u8; 8];
        a.copy_from_slice(&wrapped[..8]);
        out[..n].copy_from_slice(&wrapped[8..]);
        w_inv(&self.cipher, &mut a, &mut out[..n])?;
        if !crate::ct::ct_eq(&a, &KW_IV) {
            crate::wipe::wipe(&mut out[..n]);
            return Err(Error::AuthenticationFailed);
        }
        Ok(n)
    }
}

/// The length of what `wrapped` unwraps to (`wrapped.len() - 8`), after checking that
/// `wrapped` is whole semiblocks, at least `min` of them (else `TooShort` saying `what`),
/// and that `out_len` bytes of room hold the result.
fn unwrapped_len(
    wrapped: &[u8],
    min: usize,
    what: &'static str,
    out_len: usize,
) -> Result<usize, Error> {
    if !wrapped.len().is_multiple_of(SEMIBLOCK) {
        return Err(Error::NotWholeBlocks {
            len: wrapped.len(),
            block: SEMIBLOCK,
        });
    }
    if wrapped.len() < min * SEMIBLOCK {
        return Err(Error::TooShort { what });
    }
    let n = wrapped.len() - SEMIBLOCK;
    if out_len < n {
        return Err(out_short());
    }
    Ok(n)
}

/// KWP (RFC 5649) with a fixed key-encryption key.
#[derive(Clone, Debug)]
pub struct Kwp<C> {
    cipher: C,
}

impl<C: BlockCipher> Kwp<C> {
    /// Wraps a keyed 128-bit block cipher.
    pub fn new(cipher: C) -> Result<Self, Error> {
        check_cipher::<C>()?;
        Ok(Kwp { cipher })
    }

    /// Length of the wrapping of `key_len` bytes: `key_len` rounded up to a multiple of 8,
    /// plus 8.
    pub const fn wrapped_len(key_len: usize) -> usize {
        key_len.div_ceil(SEMIBLOCK) * SEMIBLOCK + SEMIBLOCK
    }

    /// Wraps `key` (1 to 2^32 - 1 bytes) into the first [`wrapped_len`](Self::wrapped_len)
    /// bytes of `out`; returns that length.
    pub fn wrap(&self, key: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        if key.is_empty() {
            return Err(Error::TooShort {
                what: "kwp key data (1 byte at least)",
            });
        }
        if key.len() > KWP_MAX_LEN {
            return Err(Error::TooLong {
                what: "kwp key data (2^32 - 1 bytes at most)",
            });
        }
        let total = Self::wrapped_len(key.len());
        if out.len() < total {
            return Err(out_short());
        }
        let mut a = [0u8; 8];
        a[..4].copy_from_slice(&KWP_AIV_PREFIX);
        a[4..].copy_from_slice(&(key.len() as u32).to_be_bytes());
        out[8..8 + key.len()].copy_from_slice(key);
        out[8 + key.len()..total].fill(0);
        if total == 16 {
            // One semiblock of key data: a single block encryption (RFC 5649 4.1).
            out[..8].copy_from_slice(&a);
            self.cipher.encrypt_blocks(&mut out[..16])?;
        } else {
            w(&self.cipher, &mut a, &mut out[8..total])?;
            out[..8].copy_from_slice(&a);
        }
        Ok(total)
    }

    /// Unwraps `wrapped` (a multiple of 8 bytes, at least 16) into `out`, which needs
    /// `wrapped.len() - 8` bytes of room; returns the key length.
    /// [`Error::AuthenticationFailed`] (with `out` zeroed) if the integrity value, the
    /// length indicator or the zero padding is wrong.
    pub fn unwrap(&self, wrapped: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        let n = unwrapped_len(wrapped, 2, "kwp wrapped key (16 bytes at least)", out.len())?;
        let mut a = [0u8; 8];
        if n == 8 {
            let mut b = [0u8; 16];
            b.copy_from_slice(wrapped);
            self.cipher.decrypt_blocks(&mut b)?;
            a.copy_from_slice(&b[..8]);
            out[..8].copy_from_slice(&b[8..]);
            crate::wipe::wipe(&mut b);
        } else {
            a.copy_from_slice(&wrapped[..8]);
            out[..n].copy_from_slice(&wrapped[8..]);
            w_inv(&self.cipher, &mut a, &mut out[..n])?;
        }
        // Constant-time checks: prefix, 8(n/8 - 1) < mli <= n, zero padding.
        let mli = u32::from_be_bytes([a[4], a[5], a[6], a[7]]) as u64;
        let n64 = n as u64;
        let mut bad = !crate::ct::ct_eq(&a[..4], &KWP_AIV_PREFIX) as u64;
        // mli > n - 8  <=>  n - 8 - mli underflows; mli <= n  <=>  n - mli does not.
        bad |= 1 ^ ((n64 - 8).wrapping_sub(mli) >> 63);
        bad |= n64.wrapping_sub(mli) >> 63;
        // Padding bytes: positions mli..n of the output must be zero.
        let mut pad_acc = 0u64;
        for (i, &byte) in out[n - 8..n].iter().enumerate() {
            let pos = n64 - 8 + i as u64;
            // in_pad: pos >= mli, i.e. pos - mli does not underflow.
            let in_pad = ((pos.wrapping_sub(mli) >> 63) ^ 1).wrapping_neg();
            pad_acc |= in_pad & byte as u64;
        }
        bad |= crate::ct::mask_nonzero_u64(pad_acc) & 1;
        if crate::ct::barrier_u64(bad) != 0 {
            crate::wipe::wipe(&mut out[..n]);
            return Err(Error::AuthenticationFailed);
        }
        Ok(mli as usize)
    }
}
