//! Streaming GCM: [`GcmEncryptor`] (also streaming GMAC) and [`GcmDecryptor`].

use zeroize::Zeroize;

use super::state::State;
use super::Core;
#[allow(unused_imports)] // for the documentation links
use super::{MAX_AAD_LEN, MAX_PLAINTEXT_LEN};
use crate::aead::Tag;
use crate::Error;

/// Streaming GCM encryption (and streaming GMAC): AAD first, then data, in pieces of any
/// length; [`finalize`](Self::finalize) returns the tag.
///
/// ```
/// use shyfr::aead::gcm::Aes256Gcm;
/// let gcm = Aes256Gcm::new(&[9u8; 32]);
/// let nonce = [1u8; 12];
/// let mut e = gcm.encryptor(&nonce).unwrap();
/// e.update_aad(b"head").unwrap();
/// e.update_aad(b"er").unwrap();
/// let mut part1 = *b"hello, ";
/// let mut part2 = *b"world";
/// e.encrypt(&mut part1).unwrap();
/// e.encrypt(&mut part2).unwrap();
/// let tag = e.finalize();
///
/// let mut whole = *b"hello, world";
/// assert_eq!(gcm.seal_in_place(&nonce, b"header", &mut whole).unwrap(), tag);
/// assert_eq!(&whole[..7], &part1);
/// ```
pub struct GcmEncryptor<'a> {
    pub(crate) core: &'a dyn Core,
    pub(crate) st: State,
}

impl core::fmt::Debug for GcmEncryptor<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GcmEncryptor").finish_non_exhaustive()
    }
}

impl GcmEncryptor<'_> {
    /// Absorbs more AAD. An error once data has been encrypted, or past [`MAX_AAD_LEN`].
    pub fn update_aad(&mut self, aad: &[u8]) -> Result<(), Error> {
        self.st.aad(self.core, aad)
    }

    /// Encrypts the next piece of plaintext in place. [`Error::TooLong`] (and nothing
    /// done) if the message would pass [`MAX_PLAINTEXT_LEN`].
    pub fn encrypt(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        self.st.data(self.core, false, None, buf)
    }

    /// Encrypts the next piece from `plaintext` into `ciphertext` (same length).
    pub fn encrypt_to(&mut self, plaintext: &[u8], ciphertext: &mut [u8]) -> Result<(), Error> {
        self.st.data(self.core, false, Some(plaintext), ciphertext)
    }

    /// Ends the message and returns its tag.
    pub fn finalize(mut self) -> Tag {
        self.st.tag(self.core)
    }
}

/// Streaming GCM decryption. **The plaintext it writes is not authenticated** until
/// [`finalize`](Self::finalize) returns `Ok`.
///
/// GCM can only check the tag after the whole ciphertext has been read, so a streaming
/// decryptor has to release plaintext before it knows whether the message is genuine. An
/// attacker can change ciphertext bits and the matching plaintext bits change with them.
/// Use this only where the output is held back (for example written to a temporary file)
/// until `finalize` succeeds, and discarded otherwise; prefer
/// [`open_in_place`](crate::aead::aes_gcm::AesGcm::open_in_place), which never releases unauthenticated
/// plaintext, or a chunked construction with one tag per chunk. The methods that release
/// plaintext are named `decrypt_unverified` to keep this visible at the call site.
///
/// ```
/// use shyfr::aead::gcm::Aes128Gcm;
/// let gcm = Aes128Gcm::new(&[3u8; 16]);
/// let nonce = [5u8; 12];
/// let mut buf = *b"streamed message";
/// let tag = gcm.seal_in_place(&nonce, b"", &mut buf).unwrap();
///
/// let mut d = gcm.decryptor(&nonce).unwrap();
/// let (a, b) = buf.split_at_mut(5);
/// d.decrypt_unverified(a).unwrap();
/// d.decrypt_unverified(b).unwrap();
/// d.finalize(&tag).unwrap(); // only now is `buf` trustworthy
/// assert_eq!(&buf, b"streamed message");
/// ```
pub struct GcmDecryptor<'a> {
    pub(crate) core: &'a dyn Core,
    pub(crate) st: State,
}

impl core::fmt::Debug for GcmDecryptor<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GcmDecryptor").finish_non_exhaustive()
    }
}

impl GcmDecryptor<'_> {
    /// Absorbs more AAD. An error once data has been decrypted, or past [`MAX_AAD_LEN`].
    pub fn update_aad(&mut self, aad: &[u8]) -> Result<(), Error> {
        self.st.aad(self.core, aad)
    }

    /// Decrypts the next piece of ciphertext in place. The result is **unauthenticated**
    /// until [`finalize`](Self::finalize) succeeds.
    pub fn decrypt_unverified(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        self.st.data(self.core, true, None, buf)
    }

    /// Decrypts the next piece from `ciphertext` into `plaintext` (same length). The result
    /// is **unauthenticated** until [`finalize`](Self::finalize) succeeds.
    pub fn decrypt_unverified_to(
        &mut self,
        ciphertext: &[u8],
        plaintext: &mut [u8],
    ) -> Result<(), Error> {
        self.st.data(self.core, true, Some(ciphertext), plaintext)
    }

    /// Checks the tag (in constant time). On `Err`, everything this decryptor produced
    /// must be discarded.
    pub fn finalize(mut self, tag: &[u8]) -> Result<(), Error> {
        if tag.len() != self.st.tag_len {
            return Err(Error::InvalidTagLength { got: tag.len() });
        }
        let mut full = self.st.finish(self.core);
        let ok = crate::ct::ct_eq(&full[..self.st.tag_len], tag);
        full.zeroize();
        if ok {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }
}
