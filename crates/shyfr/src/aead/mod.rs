//! Authenticated encryption: GCM / GMAC (with GHASH backends) and CCM.
//!
//! | construction | types | standard |
//! |--------------|-------|----------|
//! | GCM, GMAC | [`aes_gcm::AesGcm`], [`aes_gcm::Aes128Gcm`], [`aes_gcm::Aes256Gcm`] (also under `gcm::`), generic [`gcm::Gcm`] | NIST SP 800-38D |
//! | CCM | [`ccm::AesCcm`], generic [`ccm::Ccm`] | NIST SP 800-38C |
//! | chunked streaming AEAD | [`chunked::Cobblestone`], [`chunked::Encryptor`], [`chunked::Decryptor`], [`chunked::SeekingDecryptor`] | c2sp.org/chunked-encryption (Cobblestone), and the same construction over DSTU 7624 Kalyna-GCM |
//! | GHASH | [`ghash::Ghash`] (backends `x86_vpclmul`, `x86_pclmul`, `aarch64_pmull`, `soft`) | SP 800-38D 6.4 |
//!
//! Every AEAD has the same verbs:
//!
//! * `seal_in_place(nonce, aad, buf) -> Result<Tag>` encrypts `buf` in place and returns the
//!   tag; `seal_to(nonce, aad, plaintext, ciphertext)` writes to a second buffer.
//! * `open_in_place(nonce, aad, buf, tag) -> Result<()>` checks the tag in constant time
//!   ([`crate::ct::ct_eq`]) and either leaves the plaintext in `buf` or returns an error and
//!   leaves `buf` **all zero**, so no unauthenticated plaintext ever remains where the caller
//!   can read it. `open_to` does the same with a second buffer (the output is zeroed on
//!   error).
//!
//! Errors say what was wrong with the shape of the input (a key, nonce or tag length, a
//! message that is too long) or [`Error::AuthenticationFailed`](crate::Error), and never
//! anything about secret values.
//!
//! ```
//! use shyfr::aead::gcm::Aes128Gcm;
//! let gcm = Aes128Gcm::new(&[0x42; 16]);
//! let nonce = [7u8; 12];
//! let mut buf = *b"attack at dawn";
//! let tag = gcm.seal_in_place(&nonce, b"header", &mut buf).unwrap();
//! assert_ne!(&buf, b"attack at dawn");
//! gcm.open_in_place(&nonce, b"header", &mut buf, &tag).unwrap();
//! assert_eq!(&buf, b"attack at dawn");
//!
//! // A wrong tag is rejected and the buffer is zeroed.
//! let mut bad = tag;
//! bad.as_mut_bytes()[0] ^= 1;
//! gcm.seal_in_place(&nonce, b"header", &mut buf).unwrap();
//! assert!(gcm.open_in_place(&nonce, b"header", &mut buf, &bad).is_err());
//! assert_eq!(buf, [0u8; 14]);
//! ```

/// The four AEAD verbs with the same signatures on every AEAD type (GCM, CCM): each
/// builds a [`Msg`] and hands it to the type's own `seal_msg(&self, Msg) -> Result<Tag>`
/// and `open_msg(&self, Msg, tag) -> Result<()>`. `$seal_doc` and `$open_doc` are the
/// first paragraphs of the in-place verbs' documentation (the standard, the errors).
macro_rules! aead_verbs {
    (seal: $seal_doc:literal, open: $open_doc:literal) => {
        #[doc = $seal_doc]
        pub fn seal_in_place(
            &self,
            nonce: &[u8],
            aad: &[u8],
            buf: &mut [u8],
        ) -> Result<$crate::aead::Tag, $crate::Error> {
            let (src, dst) = (None, buf);
            self.seal_msg($crate::aead::Msg {
                nonce,
                aad,
                src,
                dst,
            })
        }

        /// Encrypts `plaintext` into `ciphertext` (same length) and returns the tag.
        pub fn seal_to(
            &self,
            nonce: &[u8],
            aad: &[u8],
            plaintext: &[u8],
            ciphertext: &mut [u8],
        ) -> Result<$crate::aead::Tag, $crate::Error> {
            let (src, dst) = (Some(plaintext), ciphertext);
            self.seal_msg($crate::aead::Msg {
                nonce,
                aad,
                src,
                dst,
            })
        }

        #[doc = $open_doc]
        pub fn open_in_place(
            &self,
            nonce: &[u8],
            aad: &[u8],
            buf: &mut [u8],
            tag: &[u8],
        ) -> Result<(), $crate::Error> {
            let (src, dst) = (None, buf);
            self.open_msg(
                $crate::aead::Msg {
                    nonce,
                    aad,
                    src,
                    dst,
                },
                tag,
            )
        }

        /// Verifies `tag` and decrypts `ciphertext` into `plaintext` (same length). On any
        /// error `plaintext` is left all zero.
        pub fn open_to(
            &self,
            nonce: &[u8],
            aad: &[u8],
            ciphertext: &[u8],
            tag: &[u8],
            plaintext: &mut [u8],
        ) -> Result<(), $crate::Error> {
            let (src, dst) = (Some(ciphertext), plaintext);
            self.open_msg(
                $crate::aead::Msg {
                    nonce,
                    aad,
                    src,
                    dst,
                },
                tag,
            )
        }
    };
}

pub mod aes_gcm;
pub mod ccm;
pub mod chunked;
pub mod dstu7624;
pub mod gcm;
pub mod ghash;

use core::fmt;

/// The longest tag any AEAD here produces, in bytes.
pub const MAX_TAG_LEN: usize = 16;

/// An authentication tag: 4 to 16 bytes, as configured on the key that made it.
///
/// Tags are not secret, but comparing them is: `==` on two tags is constant time (and an
/// AEAD's `open` compares in constant time whatever the caller does).
#[derive(Clone, Copy)]
pub struct Tag {
    bytes: [u8; MAX_TAG_LEN],
    len: u8,
}

impl Tag {
    /// A tag of `len <= 16` bytes taken from the front of `full`.
    pub(crate) fn truncated(full: &[u8; MAX_TAG_LEN], len: usize) -> Tag {
        debug_assert!((1..=MAX_TAG_LEN).contains(&len));
        let mut bytes = [0u8; MAX_TAG_LEN];
        bytes[..len].copy_from_slice(&full[..len]);
        Tag {
            bytes,
            len: len as u8,
        }
    }

    /// A tag from its bytes (for example one received with a message); an error unless it
    /// is 1 to 16 bytes long. Whether the length suits a key is checked by `open`.
    pub fn from_slice(tag: &[u8]) -> Result<Tag, crate::Error> {
        if tag.is_empty() || tag.len() > MAX_TAG_LEN {
            return Err(crate::Error::InvalidTagLength { got: tag.len() });
        }
        let mut bytes = [0u8; MAX_TAG_LEN];
        bytes[..tag.len()].copy_from_slice(tag);
        Ok(Tag {
            bytes,
            len: tag.len() as u8,
        })
    }

    /// The tag's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    /// The tag's bytes, writable (for tests that tamper with a tag).
    pub fn as_mut_bytes(&mut self) -> &mut [u8] {
        &mut self.bytes[..self.len as usize]
    }
}

impl AsRef<[u8]> for Tag {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl core::ops::Deref for Tag {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl PartialEq for Tag {
    /// Constant time in the contents (the lengths are public).
    fn eq(&self, other: &Tag) -> bool {
        crate::ct::ct_eq(self.as_bytes(), other.as_bytes())
    }
}

impl Eq for Tag {}

impl fmt::Debug for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Tag(")?;
        for b in self.as_bytes() {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}

/// One AEAD message as the verbs hand it on: the nonce, the associated data, and the data,
/// `dst` written from `src` when given (same length), else in place.
pub(crate) struct Msg<'a> {
    pub(crate) nonce: &'a [u8],
    pub(crate) aad: &'a [u8],
    pub(crate) src: Option<&'a [u8]>,
    pub(crate) dst: &'a mut [u8],
}

/// [`Error::LengthMismatch`] when an input `src` is given and its length is not `dst`'s.
fn check_same_len(src: Option<&[u8]>, dst: &[u8]) -> Result<(), crate::Error> {
    match src {
        Some(s) if s.len() != dst.len() => Err(crate::Error::LengthMismatch {
            input: s.len(),
            output: dst.len(),
        }),
        _ => Ok(()),
    }
}

/// `dst ^= ks` over the length of `dst` (`ks` at least as long).
#[inline]
fn xor_in_place(dst: &mut [u8], ks: &[u8]) {
    for (d, k) in dst.iter_mut().zip(ks) {
        *d ^= *k;
    }
}

/// `dst = src ^ ks` over the length of `dst` (all three the same length).
#[inline]
fn xor_to(dst: &mut [u8], src: &[u8], ks: &[u8]) {
    for ((d, s), k) in dst.iter_mut().zip(src).zip(ks) {
        *d = *s ^ *k;
    }
}
