//! The AEADs the chunks are sealed with, behind one small trait: [`ChunkAead`] says what
//! the chunking needs of an AEAD (its name for the key derivation, key, nonce and tag
//! lengths, and sealing or opening one chunk under its nonce); AES-GCM (Cobblestone's
//! instantiations) and DSTU 7624 Kalyna-GCM (shyfr's) implement it, and [`Aead`] holds
//! the one a message key was made for. Everything else in `chunked` — the key
//! derivation, the nonces, the chunk layout, batches, streams, random access — is written
//! once, against this.
//!
//! The one difference the trait hides is the associated data. An AES-GCM tag depends on
//! the nonce (it is masked with `E(J0)`), so Cobblestone's empty AAD already ties a chunk
//! to its index. A DSTU 7624 GCM tag does not: it is `E(GHASH(A, C))`, and the IV only
//! starts the keystream. Sealed with an empty AAD, Kalyna-GCM chunks could be swapped,
//! dropped or duplicated within a message and still authenticate (decrypting to garbage);
//! so the Kalyna instantiations take the chunk's nonce as the associated data, which puts
//! the index under the tag.
#![forbid(unsafe_code)]

use crate::aead::aes_gcm::AesGcm;
use crate::aead::dstu7624::gcm::Gcm;
use crate::aead::ghash;
use crate::block::aes;
use crate::kalyna::{
    self, Kalyna128_128, Kalyna128_256, Kalyna256_256, Kalyna256_512, Kalyna512_512,
};
use crate::Error;

use super::{Suite, TAG_LEN};

/// What the chunking needs of an AEAD. Every implementation produces [`TAG_LEN`]-byte
/// tags, so every instantiation shares one chunk layout.
pub(super) trait ChunkAead: Sync {
    /// The AEAD's name, bound into the key derivation's info string.
    const NAME: &'static str;
    /// Key length in bytes (also the input key's).
    const KEY_LEN: usize;
    /// Nonce length in bytes (also the base nonce's).
    const NONCE_LEN: usize;
    /// Tag length in bytes.
    const TAG_LEN: usize;

    /// Sets up `key` (of [`KEY_LEN`](Self::KEY_LEN) bytes) on `backends`.
    fn new(key: &[u8], backends: Backends) -> Result<Self, Error>
    where
        Self: Sized;

    /// Encrypts `plaintext` into `ciphertext` (same length) under `nonce` and writes the
    /// tag to `tag`; the tag must depend on `nonce` (AES-GCM: empty associated data;
    /// Kalyna-GCM: `nonce` as the associated data, see the module docs).
    ///
    /// Buffer to buffer rather than in place: every caller (batches, streams, random
    /// access) holds the plaintext and the ciphertext in different buffers, and both AEADs
    /// have a fused buffer-to-buffer pass, where an in-place call would first copy each
    /// chunk.
    fn seal(
        &self,
        nonce: &[u8],
        plaintext: &[u8],
        ciphertext: &mut [u8],
        tag: &mut [u8],
    ) -> Result<(), Error>;

    /// Checks `tag` over `ciphertext` under `nonce` (with the associated data of
    /// [`seal`](Self::seal)), then decrypts into `plaintext` (same length); on failure
    /// `plaintext` is all zero and the error is [`Error::AuthenticationFailed`].
    fn open(
        &self,
        nonce: &[u8],
        ciphertext: &[u8],
        tag: &[u8],
        plaintext: &mut [u8],
    ) -> Result<(), Error>;

    /// The implementation the bulk pass runs (for `--stats` and benchmarks).
    fn engine(&self) -> &'static str;
}

/// How a key's AEAD is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Backends {
    /// The fastest available.
    Best,
    /// These AES and GHASH backends, with their fused engine if they have one (AES-GCM).
    Fused(aes::Backend, ghash::Backend),
    /// These AES and GHASH backends, never fused (AES-GCM).
    Generic(aes::Backend, ghash::Backend),
    /// This Kalyna backend (Kalyna-GCM).
    Kalyna(kalyna::Backend),
}

fn wrong_backends() -> Error {
    Error::InvalidParameter {
        what:
            "chunked backends (AES and GHASH backends for AES-GCM, a Kalyna backend for Kalyna-GCM)",
    }
}

/// AES-GCM with a `K`-byte key: Cobblestone-128 and Cobblestone-256.
pub(super) struct AesGcmChunks<const K: usize>(AesGcm);

impl<const K: usize> ChunkAead for AesGcmChunks<K> {
    const NAME: &'static str = match K {
        16 => "AEAD_AES_128_GCM",
        _ => "AEAD_AES_256_GCM",
    };
    const KEY_LEN: usize = K;
    const NONCE_LEN: usize = 12;
    const TAG_LEN: usize = 16;

    fn new(key: &[u8], backends: Backends) -> Result<Self, Error> {
        if key.len() != K {
            return Err(Error::InvalidKeyLength { got: key.len() });
        }
        let g = match backends {
            Backends::Best => AesGcm::new_from_slice(key)?,
            Backends::Fused(a, g) => AesGcm::with_backends(key, a, g)?,
            Backends::Generic(a, g) => AesGcm::with_backends_generic(key, a, g)?,
            Backends::Kalyna(_) => return Err(wrong_backends()),
        };
        Ok(AesGcmChunks(g))
    }

    fn seal(
        &self,
        nonce: &[u8],
        plaintext: &[u8],
        ciphertext: &mut [u8],
        tag: &mut [u8],
    ) -> Result<(), Error> {
        let t = self.0.seal_to(nonce, &[], plaintext, ciphertext)?;
        tag.copy_from_slice(t.as_bytes());
        Ok(())
    }

    fn open(
        &self,
        nonce: &[u8],
        ciphertext: &[u8],
        tag: &[u8],
        plaintext: &mut [u8],
    ) -> Result<(), Error> {
        self.0.open_to(nonce, &[], ciphertext, tag, plaintext)
    }

    fn engine(&self) -> &'static str {
        self.0.engine()
    }
}

/// DSTU 7624 GCM over a Kalyna variant, with [`TAG_LEN`]-byte tags, one-block nonces (the
/// standard's IV) and the nonce as the associated data (the standard's tag does not
/// depend on the IV; see the module docs).
pub(super) struct KalynaGcmChunks<C: crate::mode::dstu7624::Dstu7624Cipher>(
    Gcm<C>,
    kalyna::Backend,
);

/// The Kalyna-GCM instantiations: the AEAD name, the cipher type.
macro_rules! kalyna_chunks {
    ($($name:literal => $t:ident),* $(,)?) => {$(
        impl ChunkAead for KalynaGcmChunks<$t> {
            const NAME: &'static str = $name;
            const KEY_LEN: usize = $t::KEY_LEN;
            const NONCE_LEN: usize = $t::BLOCK_LEN;
            const TAG_LEN: usize = 16;

            fn new(key: &[u8], backends: Backends) -> Result<Self, Error> {
                let cipher = match backends {
                    Backends::Best => $t::new_from_slice(key)?,
                    Backends::Kalyna(b) => {
                        let k: &[u8; $t::KEY_LEN] = key
                            .try_into()
                            .map_err(|_| Error::InvalidKeyLength { got: key.len() })?;
                        $t::with_backend(k, b)?
                    }
                    Backends::Fused(..) | Backends::Generic(..) => return Err(wrong_backends()),
                };
                let backend = cipher.backend();
                Ok(KalynaGcmChunks(Gcm::new(cipher, TAG_LEN)?, backend))
            }

            fn seal(
                &self,
                nonce: &[u8],
                plaintext: &[u8],
                ciphertext: &mut [u8],
                tag: &mut [u8],
            ) -> Result<(), Error> {
                let t = self.0.seal_to(nonce, nonce, plaintext, ciphertext)?;
                tag.copy_from_slice(t.as_bytes());
                Ok(())
            }

            fn open(
                &self,
                nonce: &[u8],
                ciphertext: &[u8],
                tag: &[u8],
                plaintext: &mut [u8],
            ) -> Result<(), Error> {
                self.0.open_to(nonce, nonce, ciphertext, plaintext, tag)
            }

            fn engine(&self) -> &'static str {
                self.1.name()
            }
        }
    )*};
}

kalyna_chunks! {
    "DSTU7624_KALYNA_128_128_GCM" => Kalyna128_128,
    "DSTU7624_KALYNA_128_256_GCM" => Kalyna128_256,
    "DSTU7624_KALYNA_256_256_GCM" => Kalyna256_256,
    "DSTU7624_KALYNA_256_512_GCM" => Kalyna256_512,
    "DSTU7624_KALYNA_512_512_GCM" => Kalyna512_512,
}

/// The parameters of an instantiation's AEAD (see [`ChunkAead`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Params {
    pub(super) name: &'static str,
    pub(super) key_len: usize,
    pub(super) nonce_len: usize,
    pub(super) tag_len: usize,
}

impl Params {
    const fn of<A: ChunkAead>() -> Params {
        Params {
            name: A::NAME,
            key_len: A::KEY_LEN,
            nonce_len: A::NONCE_LEN,
            tag_len: A::TAG_LEN,
        }
    }
}

/// The instantiations: each [`Suite`] with its [`ChunkAead`]. Gives [`Aead`] (the AEAD of
/// one message key, dispatching to the trait) and [`params`].
macro_rules! instantiations {
    ($($suite:ident => $t:ty),* $(,)?) => {
        /// The AEAD of one message key.
        #[allow(clippy::large_enum_variant)]
        pub(super) enum Aead {
            $(
                #[doc = concat!("[`Suite::", stringify!($suite), "`].")]
                $suite($t),
            )*
        }

        /// The AEAD parameters of `suite`.
        pub(super) const fn params(suite: Suite) -> Params {
            match suite {
                $(Suite::$suite => Params::of::<$t>(),)*
            }
        }

        impl Aead {
            /// `suite`'s AEAD under `key` on `backends`.
            pub(super) fn new(suite: Suite, key: &[u8], backends: Backends) -> Result<Aead, Error> {
                Ok(match suite {
                    $(Suite::$suite => Aead::$suite(<$t>::new(key, backends)?),)*
                })
            }

            /// [`ChunkAead::seal`].
            pub(super) fn seal(
                &self,
                nonce: &[u8],
                plaintext: &[u8],
                ciphertext: &mut [u8],
                tag: &mut [u8],
            ) -> Result<(), Error> {
                match self {
                    $(Aead::$suite(a) => a.seal(nonce, plaintext, ciphertext, tag),)*
                }
            }

            /// [`ChunkAead::open`].
            pub(super) fn open(
                &self,
                nonce: &[u8],
                ciphertext: &[u8],
                tag: &[u8],
                plaintext: &mut [u8],
            ) -> Result<(), Error> {
                match self {
                    $(Aead::$suite(a) => a.open(nonce, ciphertext, tag, plaintext),)*
                }
            }

            /// [`ChunkAead::engine`].
            pub(super) fn engine(&self) -> &'static str {
                match self {
                    $(Aead::$suite(a) => a.engine(),)*
                }
            }

            /// The AES-GCM key, for the AES instantiations.
            pub(super) fn aes_gcm(&self) -> Option<&AesGcm> {
                match self {
                    Aead::Cobblestone128(a) => Some(&a.0),
                    Aead::Cobblestone256(a) => Some(&a.0),
                    _ => None,
                }
            }

            /// The Kalyna backend, for the Kalyna instantiations.
            pub(super) fn kalyna_backend(&self) -> Option<kalyna::Backend> {
                match self {
                    Aead::Kalyna128_128Gcm(a) => Some(a.1),
                    Aead::Kalyna128_256Gcm(a) => Some(a.1),
                    Aead::Kalyna256_256Gcm(a) => Some(a.1),
                    Aead::Kalyna256_512Gcm(a) => Some(a.1),
                    Aead::Kalyna512_512Gcm(a) => Some(a.1),
                    _ => None,
                }
            }
        }
    };
}

instantiations! {
    Cobblestone128 => AesGcmChunks<16>,
    Cobblestone256 => AesGcmChunks<32>,
    Kalyna128_128Gcm => KalynaGcmChunks<Kalyna128_128>,
    Kalyna128_256Gcm => KalynaGcmChunks<Kalyna128_256>,
    Kalyna256_256Gcm => KalynaGcmChunks<Kalyna256_256>,
    Kalyna256_512Gcm => KalynaGcmChunks<Kalyna256_512>,
    Kalyna512_512Gcm => KalynaGcmChunks<Kalyna512_512>,
}

/// Every instantiation's tag is the layout's.
const _: () = {
    let mut i = 0;
    while i < Suite::ALL.len() {
        assert!(params(Suite::ALL[i]).tag_len == TAG_LEN);
        assert!(params(Suite::ALL[i]).nonce_len >= 8);
        assert!(params(Suite::ALL[i]).nonce_len <= super::MAX_NONCE_LEN);
        assert!(params(Suite::ALL[i]).key_len <= super::MAX_KEY_LEN);
        i += 1;
    }
};
