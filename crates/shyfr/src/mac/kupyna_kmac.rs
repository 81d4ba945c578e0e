//! The keyed message authentication code of DSTU 7564:2014 (Kupyna "KMAC"), for 256-,
//! 384- and 512-bit tags: `MAC(K, M) = H(pad(K) || pad(M) || ~K)`, where `H` is Kupyna
//! with the tag's length, `pad(X)` appends to `X` one 1 bit, zeros and the length of `X`
//! in bits as a 96-bit little-endian number up to a whole number of `H`'s blocks (the
//! hash's own padding), and `~K` is the key with every bit inverted. The key is as long as
//! the tag (32, 48 or 64 bytes), as in the standard and in UAPKI's implementation.
//!
//! Not NIST SP 800-185 KMAC (that one is [`crate::mac::kmac`]). It runs on the Kupyna
//! backend chosen when the key is set up ([`crate::hash::kupyna::Backend`]).
//!
//! ```
//! use shyfr::mac::kupyna_kmac::KupynaKmac;
//! let key = [7u8; 32];
//! let mut mac = KupynaKmac::new(&key).unwrap();
//! mac.update(b"message");
//! let tag = mac.clone().finalize();
//! assert_eq!(tag.len(), 32);
//! assert!(mac.verify(&tag).is_ok());
//! assert!(KupynaKmac::new(&key[..20]).is_err()); // the key is as long as the tag
//! ```

use crate::ct::ct_eq;
use crate::hash::kupyna::{Backend, Kupyna};
use crate::Error;

/// Keyed Kupyna (DSTU 7564:2014 KMAC) with a 32-, 48- or 64-byte key and a tag of the
/// same length.
///
/// The keyed state is computed once in [`new`](Self::new); cloning forks it. The key
/// material is overwritten on drop.
#[derive(Clone)]
pub struct KupynaKmac {
    hash: Kupyna,
    /// `~K`, absorbed after the padded message.
    inv_key: [u8; 64],
    key_len: usize,
    /// Message bytes absorbed, modulo 2^128.
    msg_len: u128,
}

impl core::fmt::Debug for KupynaKmac {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("KupynaKmac")
            .field("tag_bits", &(8 * self.key_len))
            .field("backend", &self.hash.backend())
            .finish_non_exhaustive()
    }
}

impl Drop for KupynaKmac {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.inv_key);
    }
}

/// Absorbs the padding of a `len`-byte input: 0x80, zeros and the 96-bit bit length, up
/// to a whole number of `block`-byte blocks.
fn absorb_pad(h: &mut Kupyna, len: u128, block: usize) {
    let mut pad = [0u8; 256];
    let used = (len % block as u128) as usize;
    let mut n = block - used;
    if n < 13 {
        n += block;
    }
    pad[0] = 0x80;
    pad[n - 12..n].copy_from_slice(&len.wrapping_mul(8).to_le_bytes()[..12]);
    h.update(&pad[..n]);
}

impl KupynaKmac {
    /// Sets up a key of 32, 48 or 64 bytes (for 256-, 384- and 512-bit tags) on the
    /// fastest backend; [`Error::InvalidKeyLength`] for another length.
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        Self::with_backend(key, Backend::best())
    }

    /// [`new`](Self::new) on an explicit backend (for tests and benchmarks);
    /// [`Error::BackendUnavailable`] if it cannot run here.
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<Self, Error> {
        if !matches!(key.len(), 32 | 48 | 64) {
            return Err(Error::InvalidKeyLength { got: key.len() });
        }
        let mut hash = Kupyna::with_backend(8 * key.len(), backend)?;
        let block = hash.block_len();
        hash.update(key);
        absorb_pad(&mut hash, key.len() as u128, block);
        let mut inv_key = [0u8; 64];
        for (i, k) in inv_key.iter_mut().zip(key) {
            *i = !k;
        }
        Ok(KupynaKmac {
            hash,
            inv_key,
            key_len: key.len(),
            msg_len: 0,
        })
    }

    /// Tag length in bytes (the key's length).
    pub fn tag_len(&self) -> usize {
        self.key_len
    }

    /// The backend the key runs on.
    pub fn backend(&self) -> Backend {
        self.hash.backend()
    }

    /// Absorbs message data.
    pub fn update(&mut self, data: &[u8]) {
        self.hash.update(data);
        self.msg_len = self.msg_len.wrapping_add(data.len() as u128);
    }

    /// Finishes and writes the tag to `out`, which must be [`tag_len`](Self::tag_len)
    /// bytes ([`Error::InvalidTagLength`] otherwise).
    pub fn finalize_into(mut self, out: &mut [u8]) -> Result<(), Error> {
        if out.len() != self.key_len {
            return Err(Error::InvalidTagLength { got: out.len() });
        }
        let block = self.hash.block_len();
        absorb_pad(&mut self.hash, self.msg_len, block);
        self.hash.update(&self.inv_key[..self.key_len]);
        self.hash.clone().finalize_into(out)
    }

    /// Finishes and returns the tag ([`tag_len`](Self::tag_len) bytes of the 64).
    pub fn finalize(self) -> TagBytes {
        let mut t = TagBytes {
            bytes: [0; 64],
            len: self.key_len,
        };
        let n = t.len;
        self.finalize_into(&mut t.bytes[..n])
            .expect("the tag length is the key length");
        t
    }

    /// Finishes and compares the tag with `tag` (full length) in constant time:
    /// [`Error::InvalidTagLength`] for a tag of another length,
    /// [`Error::AuthenticationFailed`] if it differs.
    pub fn verify(self, tag: &[u8]) -> Result<(), Error> {
        if tag.len() != self.key_len {
            return Err(Error::InvalidTagLength { got: tag.len() });
        }
        let t = self.finalize();
        if ct_eq(t.as_ref(), tag) {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }

    /// One-shot tag of `data` under `key`.
    pub fn mac(key: &[u8], data: &[u8]) -> Result<TagBytes, Error> {
        let mut m = Self::new(key)?;
        m.update(data);
        Ok(m.finalize())
    }
}

/// A KMAC tag of 32, 48 or 64 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TagBytes {
    bytes: [u8; 64],
    len: usize,
}

impl TagBytes {
    /// The tag's length in bytes.
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.len
    }
}

impl AsRef<[u8]> for TagBytes {
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl core::ops::Deref for TagBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}
