//! HMAC (RFC 2104, FIPS 198-1) over any [`Hash`].
//!
//! ```
//! use shyfr::hash::sha2::Sha256;
//! use shyfr::mac::hmac::Hmac;
//! let mut mac = Hmac::<Sha256>::new(b"key");
//! mac.update(b"The quick brown fox jumps over the lazy dog");
//! let tag = mac.finalize();
//! assert!(Hmac::<Sha256>::verify_mac(b"key", b"The quick brown fox jumps over the lazy dog", tag.as_ref()).is_ok());
//! ```

use crate::ct::ct_eq;
use crate::hash::Hash;
use crate::Error;

/// The largest hash block length HMAC supports (SHAKE128's rate; SHA3-224's is 144).
const MAX_BLOCK: usize = 168;

/// The shortest tag [`Hmac::verify_truncated`] accepts: 4 bytes (SP 800-107 rev. 1,
/// 5.3.3, allows truncation to no fewer than 32 bits).
pub const MIN_TRUNCATED_TAG_LEN: usize = 4;

/// HMAC with hash `H`: `H((K ^ opad) || H((K ^ ipad) || m))`.
///
/// The keyed states are computed once in [`new`](Self::new); cloning an `Hmac` forks the
/// computation, which is how [`crate::kdf::pbkdf2`] avoids re-keying every iteration. The
/// key-dependent states are overwritten when the value is dropped.
#[derive(Clone)]
pub struct Hmac<H: Hash> {
    inner: H,
    outer: H,
}

impl<H: Hash> Hmac<H> {
    /// Sets up the key (any length; keys longer than the hash block are hashed first).
    pub fn new(key: &[u8]) -> Self {
        assert!(H::BLOCK_LEN <= MAX_BLOCK, "hash block too large for HMAC");
        let mut block = [0u8; MAX_BLOCK];
        if key.len() > H::BLOCK_LEN {
            let d = H::digest(key);
            block[..H::OUTPUT_LEN].copy_from_slice(d.as_ref());
        } else {
            block[..key.len()].copy_from_slice(key);
        }
        let block = &mut block[..H::BLOCK_LEN];
        let mut inner = H::new();
        let mut outer = H::new();
        for b in block.iter_mut() {
            *b ^= 0x36;
        }
        inner.update(block);
        for b in block.iter_mut() {
            *b ^= 0x36 ^ 0x5c;
        }
        outer.update(block);
        zeroize::Zeroize::zeroize(block);
        Hmac { inner, outer }
    }

    /// Absorbs message data.
    #[inline]
    pub fn update(&mut self, data: &[u8]) {
        self.inner.update(data);
    }

    /// Finishes and returns the tag.
    #[inline]
    pub fn finalize(self) -> H::Output {
        // The two states finish without being consumed (`digest_continued`: a copy of
        // the state, or only of its chaining value where the hash can); `drop` then
        // overwrites them.
        let ih = self.inner.digest_continued(&[]);
        self.outer.digest_continued(ih.as_ref())
    }

    /// Finishes and compares with `tag` (full length) in constant time.
    pub fn verify(self, tag: &[u8]) -> Result<(), Error> {
        if tag.len() != H::OUTPUT_LEN {
            return Err(Error::InvalidTagLength { got: tag.len() });
        }
        self.verify_truncated(tag)
    }

    /// Finishes and compares the first `tag.len()` bytes of the tag with `tag` in constant
    /// time; `tag` must be [`MIN_TRUNCATED_TAG_LEN`]..=`H::OUTPUT_LEN` bytes.
    pub fn verify_truncated(self, tag: &[u8]) -> Result<(), Error> {
        if tag.len() < MIN_TRUNCATED_TAG_LEN || tag.len() > H::OUTPUT_LEN {
            return Err(Error::InvalidTagLength { got: tag.len() });
        }
        let t = self.finalize();
        if ct_eq(&t.as_ref()[..tag.len()], tag) {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }

    /// One-shot HMAC of `data` under `key`.
    pub fn mac(key: &[u8], data: &[u8]) -> H::Output {
        let mut m = Self::new(key);
        m.update(data);
        m.finalize()
    }

    /// One-shot verification of a full-length `tag`.
    pub fn verify_mac(key: &[u8], data: &[u8], tag: &[u8]) -> Result<(), Error> {
        let mut m = Self::new(key);
        m.update(data);
        m.verify(tag)
    }
}

impl<H: Hash> Drop for Hmac<H> {
    #[inline]
    fn drop(&mut self) {
        // The states are key-equivalent: return them to the hash's initial state (`reset`
        // keeps the backend, so there is no look-up as in `H::new`). `black_box` takes
        // their addresses as escaping to code the compiler cannot see, so the overwriting
        // stores must be made and cannot be removed as dead. (Writing the states again with
        // volatile stores, as `H::new()` values or byte by byte, cost 40 to 80 timer ticks
        // per message: reading back what was just stored in pieces of another size stalls
        // store forwarding; HMAC-SHA-256 of 16 bytes is about 330.)
        self.inner.reset();
        self.outer.reset();
        core::hint::black_box(&mut self.inner);
        core::hint::black_box(&mut self.outer);
    }
}
