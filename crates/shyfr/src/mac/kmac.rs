//! KMAC128 and KMAC256, and their XOF forms KMACXOF128 / KMACXOF256 (NIST SP 800-185,
//! section 4), on the Keccak backends of [`hash::sha3`](crate::hash::sha3).
//!
//! KMAC is cSHAKE with function name `"KMAC"`, the key absorbed as a full block
//! (`bytepad(encode_string(K), rate)`), the message, then `right_encode(L)`. The requested
//! output length `L` is part of the input, so a 32-byte KMAC tag is not a prefix of a
//! 64-byte one, and KMAC differs from KMACXOF (which encodes `L = 0`) at every length.
//!
//! Limits (errors, never panics):
//!
//! * the key must be at least as long as the security strength (16 bytes for KMAC128, 32
//!   for KMAC256), as SP 800-185 8.4.1 asks of KMAC keys;
//! * a tag (output of [`finalize_into`](Kmac128::finalize_into), or checked by
//!   [`verify`](Kmac128::verify)) must be at least 4 bytes: SP 800-185 8.4.2 says `L` shall
//!   not be below 32 bits, and should be 64 or more.
//!
//! The keyed state is zeroed when dropped (the finishing calls work on a copy so that the
//! MAC's own storage is zeroed as it is consumed), and [`verify`](Kmac128::verify)
//! compares in constant time.
//!
//! ```
//! use shyfr::mac::kmac::Kmac256;
//!
//! let key = [0x42u8; 32];
//! let mut mac = Kmac256::new(&key, b"my app").unwrap();
//! mac.update(b"message");
//! let mut tag = [0u8; 32];
//! mac.clone().finalize_into(&mut tag).unwrap();
//! assert!(mac.verify(&tag).is_ok());
//! assert!(Kmac256::new(&key[..16], b"").is_err());
//! ```

use crate::ct::ct_eq;
use crate::hash::sha3::{kmac_sponge, right_encode, Backend, KeccakKernel, ShakeReader};
use crate::hash::XofReader;
use crate::Error;

/// The shortest tag accepted, in bytes (SP 800-185 8.4.2: `L >= 32` bits).
pub const MIN_TAG_LEN: usize = 4;

macro_rules! kmac {
    ($(#[$m:meta])* $name:ident, $label:expr, $rate:expr, $min_key:expr) => {
        $(#[$m])*
        #[derive(Clone)]
        pub struct $name {
            sponge: crate::hash::sha3::KeccakSpongeState,
            /// The state right after the key block, for [`reset`](Self::reset).
            start: crate::hash::sha3::KeccakSpongeState,
        }

        impl $name {
            /// Name in `shyfr speed`.
            pub const NAME: &'static str = $label;
            /// The shortest key accepted, in bytes: the security strength.
            pub const MIN_KEY_LEN: usize = $min_key;

            /// Keys the MAC with `key` and customization string `customization` (which may
            /// be empty), on the fastest backend available.
            ///
            /// [`Error::InvalidKeyLength`] if the key is shorter than
            /// [`MIN_KEY_LEN`](Self::MIN_KEY_LEN).
            pub fn new(key: &[u8], customization: &[u8]) -> Result<Self, Error> {
                Self::with_backend(key, customization, Backend::best())
            }

            /// [`new`](Self::new) with an explicit Keccak backend (for tests and
            /// benchmarks); also an error if the backend is not available here.
            pub fn with_backend(
                key: &[u8],
                customization: &[u8],
                backend: Backend,
            ) -> Result<Self, Error> {
                if key.len() < $min_key {
                    return Err(Error::InvalidKeyLength { got: key.len() });
                }
                let kernel = KeccakKernel::checked(backend)?;
                let start = kmac_sponge(kernel, $rate, key, customization);
                Ok($name {
                    sponge: start.clone(),
                    start,
                })
            }

            /// The backend this MAC uses.
            pub fn backend(&self) -> Backend {
                self.sponge.kernel().backend()
            }

            /// Absorbs message data.
            #[inline]
            pub fn update(&mut self, data: &[u8]) {
                self.sponge.absorb(data);
            }

            /// Returns to the state right after keying (same key, customization, backend).
            pub fn reset(&mut self) {
                self.sponge = self.start.clone();
            }

            /// KMAC with output length `L = 8 * out.len()` bits: fills `out` with the tag.
            ///
            /// [`Error::InvalidTagLength`] if `out` is shorter than [`MIN_TAG_LEN`].
            pub fn finalize_into(mut self, out: &mut [u8]) -> Result<(), Error> {
                if out.len() < MIN_TAG_LEN {
                    return Err(Error::InvalidTagLength { got: out.len() });
                }
                let (enc, n) = right_encode(out.len() as u128 * 8);
                self.sponge.absorb(&enc[..n]);
                ShakeReader::from_sponge(self.sponge.clone()).read(out);
                Ok(())
            }

            /// Checks `tag` as a KMAC tag of length `tag.len()` over the data absorbed, in
            /// constant time. [`Error::AuthenticationFailed`] if it does not match,
            /// [`Error::InvalidTagLength`] if it is shorter than [`MIN_TAG_LEN`].
            pub fn verify(mut self, tag: &[u8]) -> Result<(), Error> {
                if tag.len() < MIN_TAG_LEN {
                    return Err(Error::InvalidTagLength { got: tag.len() });
                }
                let (enc, n) = right_encode(tag.len() as u128 * 8);
                self.sponge.absorb(&enc[..n]);
                let mut reader = ShakeReader::from_sponge(self.sponge.clone());
                // Recompute in pieces so that any tag length works without an allocator;
                // `&` (not `&&`) keeps every piece compared.
                let mut equal = true;
                let mut buf = [0u8; 64];
                for piece in tag.chunks(buf.len()) {
                    let mine = &mut buf[..piece.len()];
                    reader.read(mine);
                    equal &= ct_eq(mine, piece);
                }
                zeroize::Zeroize::zeroize(&mut buf);
                if equal {
                    Ok(())
                } else {
                    Err(Error::AuthenticationFailed)
                }
            }

            /// KMACXOF (the output length is not encoded, `L = 0`): ends absorbing and
            /// returns the output stream.
            pub fn finalize_xof(mut self) -> ShakeReader {
                let (enc, n) = right_encode(0);
                self.sponge.absorb(&enc[..n]);
                ShakeReader::from_sponge(self.sponge.clone())
            }
        }

        crate::hash::sha3::xof_impls!($name);
    };
}

kmac!(
    /// KMAC128 / KMACXOF128 (SP 800-185, 4): cSHAKE128-based MAC, 128-bit security.
    Kmac128, "kmac128", 168, 16
);
kmac!(
    /// KMAC256 / KMACXOF256 (SP 800-185, 4): cSHAKE256-based MAC, 256-bit security.
    Kmac256, "kmac256", 136, 32
);
