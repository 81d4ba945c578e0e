//! Chunked encryption of long messages: Cobblestone, as specified at
//! [c2sp.org/chunked-encryption](https://c2sp.org/chunked-encryption), and the same
//! construction over DSTU 7624 Kalyna-GCM.
//!
//! A message of any length (up to 2^38 chunks, 4 PiB) is encrypted under a single-use key
//! and base nonce derived from an *input key*, a random 24-byte *salt* and an application
//! *context*, and cut into 16 KiB chunks, each sealed with the AEAD under the base nonce
//! XOR its index. The last chunk is always shorter than 16 KiB (possibly empty), which
//! marks the end of the message: dropping, reordering, duplicating or appending chunks, or
//! cutting the message short, makes decryption fail. A 32-byte key commitment in the
//! header is checked before any chunk is decrypted, so a wrong key or context is reported
//! as such ([`Error::CommitmentMismatch`]) and a ciphertext opens under one key only.
//!
//! ```text
//! ciphertext = salt (24) || commitment (32) || chunk 0 || chunk 1 || ... || final chunk
//! chunk k    = AEAD(key, nonce k, aad, 16384 bytes of message)  (16400)
//! final      = AEAD(key, nonce n, aad, 0..=16383 bytes)         (16..=16399)
//! nonce k    = base nonce XOR k
//! aad        = "" (AES-GCM, Cobblestone) or nonce k (Kalyna-GCM, shyfr's)
//! key || base nonce || commitment = HKDF-Expand-SHA-512(prk = input key,
//!     info = "c2sp.org/chunked-encryption@v1+" || AEAD name || 0x00 || salt || context)
//! ```
//!
//! `k` is XORed big-endian into the last 8 bytes of the base nonce. The input key must be
//! uniformly random (from a CSPRNG or a KDF such as Argon2 for passphrases).
//!
//! # Instantiations ([`Suite`])
//!
//! | suite | AEAD name (in the info string) | input key | nonce | tag | defined by |
//! |-------|-------------------------------|----------:|------:|----:|------------|
//! | [`Suite::Cobblestone128`] | `AEAD_AES_128_GCM` | 16 | 12 | 16 | C2SP (Cobblestone-128) |
//! | [`Suite::Cobblestone256`] | `AEAD_AES_256_GCM` | 32 | 12 | 16 | C2SP (Cobblestone-256) |
//! | [`Suite::Kalyna128_128Gcm`] | `DSTU7624_KALYNA_128_128_GCM` | 16 | 16 | 16 | shyfr |
//! | [`Suite::Kalyna128_256Gcm`] | `DSTU7624_KALYNA_128_256_GCM` | 32 | 16 | 16 | shyfr |
//! | [`Suite::Kalyna256_256Gcm`] | `DSTU7624_KALYNA_256_256_GCM` | 32 | 32 | 16 | shyfr |
//! | [`Suite::Kalyna256_512Gcm`] | `DSTU7624_KALYNA_256_512_GCM` | 64 | 32 | 16 | shyfr |
//! | [`Suite::Kalyna512_512Gcm`] | `DSTU7624_KALYNA_512_512_GCM` | 64 | 64 | 16 | shyfr |
//!
//! The two AES-GCM instantiations are the specification's (its Wycheproof vectors pass
//! byte for byte). The Kalyna ones are **shyfr's own**, not C2SP's: the same construction
//! (HKDF-Expand-SHA-512 with the info string above, 24-byte salt, 32-byte commitment,
//! 16 KiB chunks, the final chunk marking the end) with DSTU 7624:2014 GCM
//! ([`crate::aead::dstu7624::gcm`]) over Kalyna as the AEAD, for users bound to the
//! Ukrainian standards:
//!
//! * the AEAD key is the Kalyna key (16, 32 or 64 bytes: the input key has that length);
//! * the nonce is the standard's GCM IV, one cipher block (16, 32 or 64 bytes), so the
//!   derived base nonce is that long and the chunk index is XORed into its last 8 bytes;
//! * the associated data of chunk `k` is its nonce (one block), where Cobblestone's is
//!   empty. DSTU 7624 GCM's tag is `E(GHASH(A, C))`: unlike AES-GCM's it does not depend
//!   on the IV, which only starts the keystream. With an empty AAD, chunks of one message
//!   could be swapped, dropped or duplicated and still authenticate (decrypting to
//!   garbage); with the nonce hashed in front of the ciphertext, a chunk authenticates
//!   only at its own index. This costs one block of hashing per 16 KiB chunk;
//! * the tag is 16 bytes for every block size. DSTU 7624 GCM allows 8 bytes up to the
//!   block length; 16 keeps Cobblestone's chunk layout (16,400-byte encrypted chunks, the
//!   same lengths and offsets for every suite) and a forgery bound like AES-GCM's: the
//!   hash of a 16 KiB chunk is a polynomial of at most about 2^10 blocks, so a tag
//!   truncated to 128 bits is forged with probability about 2^-118 per attempt whatever
//!   the block size, as for AES-GCM.
//!
//! The keystream of a DSTU GCM chunk starts at `E(IV)`, a pseudorandom point rather than a
//! counter field beside the nonce as in AES-GCM, so two chunks' counter ranges overlap
//! only by chance: with 128-bit blocks about 2^-65 for a 1 TiB message and 2^-41 at the
//! 4 PiB limit; negligible with 256- and 512-bit blocks.
//!
//! # Interfaces
//!
//! * One-shot ([`Cobblestone::seal`] / [`Cobblestone::open`], with `alloc`).
//! * Streaming ([`Encryptor`], a [`std::io::Write`]; [`Decryptor`], a [`std::io::Read`];
//!   with `std`): the decryptor hands out a chunk's plaintext only once that chunk has
//!   been authenticated, and reports an error — and keeps reporting it — rather than a
//!   clean end of file for anything but the complete message. What it released before
//!   the error is a prefix of the message made of whole authenticated chunks.
//! * Random access ([`SeekingDecryptor`], [`std::io::Read`] + [`std::io::Seek`]): reads any
//!   range, decrypting the chunks it touches; the end of the message (and seeks relative to
//!   it) is trusted only after the final chunk has been authenticated.
//! * Batches of chunks ([`MessageKey::seal_chunks`], [`MessageKey::open_chunks`]): with the
//!   `parallel` feature they spread over the cores (rayon); the output is the same as on
//!   one thread, and a failed batch releases only the chunks before the first bad one.
//!
//! The streaming types use the batch calls, so they run on every core as well; the size
//! of a batch is set with `with_batch_chunks`. All of this is one code path for every
//! suite: the AEADs sit behind a small internal trait (the AEAD's name, key, nonce and tag
//! lengths, sealing and opening one chunk).
//!
//! # Example
//!
//! ```
//! # #[cfg(feature = "std")] {
//! use std::io::{Read, Write};
//! use shyfr::aead::chunked::{Cobblestone, Decryptor, Encryptor, Suite};
//!
//! let key = Cobblestone::new(Suite::Cobblestone256, &[0x42; 32]).unwrap();
//! let message = vec![7u8; 40_000];
//!
//! let mut enc = Encryptor::with_salt(&key, &[1; 24], b"my app v1", Vec::new()).unwrap();
//! enc.write_all(&message).unwrap();
//! let ciphertext = enc.finish().unwrap();
//! assert_eq!(ciphertext.len(), 56 + 40_000 + 3 * 16);
//!
//! let mut dec = Decryptor::new(&key, b"my app v1", &ciphertext[..]).unwrap();
//! let mut out = Vec::new();
//! dec.read_to_end(&mut out).unwrap();
//! assert_eq!(out, message);
//!
//! // A wrong context (or key) is refused before any chunk is touched.
//! assert!(Decryptor::new(&key, b"my app v2", &ciphertext[..]).is_err());
//! // A message cut short is an error, never a shorter message.
//! let mut dec = Decryptor::new(&key, b"my app v1", &ciphertext[..ciphertext.len() - 1]).unwrap();
//! assert!(dec.read_to_end(&mut Vec::new()).is_err());
//!
//! // Kalyna-GCM: the same interfaces and lengths.
//! let key = Cobblestone::new(Suite::Kalyna128_256Gcm, &[0x42; 32]).unwrap();
//! let ciphertext = key.seal_with_salt(&[1; 24], b"my app v1", &message).unwrap();
//! assert_eq!(ciphertext.len(), 56 + 40_000 + 3 * 16);
//! assert_eq!(key.open(b"my app v1", &ciphertext).unwrap(), message);
//! # }
//! ```
//!
//! # Raw mode
//!
//! The specification's raw mode (a key and base nonce from a higher-level protocol, no
//! salt or commitment) is `MessageKey::from_raw`, only with the `hazmat` feature: the
//! specification asks libraries not to expose it to applications.

mod aead;

#[cfg(feature = "parallel")]
mod parallel;
#[cfg(feature = "std")]
mod seek;
#[cfg(feature = "std")]
mod stream;

#[cfg(feature = "std")]
pub use seek::SeekingDecryptor;
#[cfg(feature = "std")]
pub use stream::{Decryptor, Encryptor};

use zeroize::Zeroize;

use crate::aead::aes_gcm::AesGcm;
use crate::aead::ghash;
use crate::block::aes;
use crate::hash::sha2::Sha512;
use crate::kalyna;
use crate::mac::hmac::Hmac;
use crate::Error;
use aead::{params, Aead, Backends};

/// Message bytes per chunk (every chunk but the final one, which is shorter).
pub const CHUNK_LEN: usize = 16384;
/// The AEAD tag added to every chunk, in bytes.
pub const TAG_LEN: usize = 16;
/// Length of a full encrypted chunk: [`CHUNK_LEN`] + [`TAG_LEN`].
pub const ENCRYPTED_CHUNK_LEN: usize = CHUNK_LEN + TAG_LEN;
/// Length of the random salt that starts a ciphertext.
pub const SALT_LEN: usize = 24;
/// Length of the key commitment that follows the salt.
pub const COMMITMENT_LEN: usize = 32;
/// Length of the header (salt and commitment) before the first chunk.
pub const HEADER_LEN: usize = SALT_LEN + COMMITMENT_LEN;
/// The most chunks a message may have: 2^38 (the final one included), 4 PiB of message.
pub const MAX_CHUNKS: u64 = 1 << 38;

/// The longest AEAD nonce of any instantiation (Kalyna-512's one-block IV).
const MAX_NONCE_LEN: usize = 64;
/// The longest input key of any instantiation (Kalyna's 512-bit keys).
const MAX_KEY_LEN: usize = 64;

/// The HKDF-Expand info prefix (the specification's version string).
const INFO_PREFIX: &[u8] = b"c2sp.org/chunked-encryption@v1+";

/// An instantiation: the AEAD (and with it the input key length); the hash is SHA-512.
/// See the [module documentation](self) for the parameters of each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Suite {
    /// Cobblestone-128 (C2SP): AES-128-GCM (`AEAD_AES_128_GCM`), 16-byte input key.
    Cobblestone128,
    /// Cobblestone-256 (C2SP): AES-256-GCM (`AEAD_AES_256_GCM`), 32-byte input key.
    Cobblestone256,
    /// shyfr's: DSTU 7624 GCM over Kalyna-128/128 (`DSTU7624_KALYNA_128_128_GCM`), 16-byte
    /// input key, 16-byte nonces.
    Kalyna128_128Gcm,
    /// shyfr's: DSTU 7624 GCM over Kalyna-128/256 (`DSTU7624_KALYNA_128_256_GCM`), 32-byte
    /// input key, 16-byte nonces.
    Kalyna128_256Gcm,
    /// shyfr's: DSTU 7624 GCM over Kalyna-256/256 (`DSTU7624_KALYNA_256_256_GCM`), 32-byte
    /// input key, 32-byte nonces.
    Kalyna256_256Gcm,
    /// shyfr's: DSTU 7624 GCM over Kalyna-256/512 (`DSTU7624_KALYNA_256_512_GCM`), 64-byte
    /// input key, 32-byte nonces.
    Kalyna256_512Gcm,
    /// shyfr's: DSTU 7624 GCM over Kalyna-512/512 (`DSTU7624_KALYNA_512_512_GCM`), 64-byte
    /// input key, 64-byte nonces.
    Kalyna512_512Gcm,
}

impl Suite {
    /// Every instantiation.
    pub const ALL: &'static [Suite] = &[
        Suite::Cobblestone128,
        Suite::Cobblestone256,
        Suite::Kalyna128_128Gcm,
        Suite::Kalyna128_256Gcm,
        Suite::Kalyna256_256Gcm,
        Suite::Kalyna256_512Gcm,
        Suite::Kalyna512_512Gcm,
    ];

    /// The instantiations c2sp.org/chunked-encryption defines (AES-GCM).
    pub const COBBLESTONE: &'static [Suite] = &[Suite::Cobblestone128, Suite::Cobblestone256];

    /// shyfr's instantiations over DSTU 7624 Kalyna-GCM.
    pub const KALYNA: &'static [Suite] = &[
        Suite::Kalyna128_128Gcm,
        Suite::Kalyna128_256Gcm,
        Suite::Kalyna256_256Gcm,
        Suite::Kalyna256_512Gcm,
        Suite::Kalyna512_512Gcm,
    ];

    /// The AEAD's name as bound into the key derivation: the IANA AEAD registry's for
    /// AES-GCM, shyfr's `DSTU7624_KALYNA_<block bits>_<key bits>_GCM` for Kalyna.
    pub const fn aead_name(self) -> &'static str {
        params(self).name
    }

    /// The input key (and AEAD key) length in bytes.
    pub const fn key_len(self) -> usize {
        params(self).key_len
    }

    /// The AEAD nonce (and derived base nonce) length in bytes: 12 for AES-GCM, the block
    /// length for Kalyna-GCM.
    pub const fn nonce_len(self) -> usize {
        params(self).nonce_len
    }

    /// Whether c2sp.org/chunked-encryption defines this instantiation (the AES-GCM ones).
    pub const fn is_c2sp(self) -> bool {
        matches!(self, Suite::Cobblestone128 | Suite::Cobblestone256)
    }

    /// The Kalyna block length in bits (128, 256 or 512) of a Kalyna suite.
    pub const fn kalyna_block_bits(self) -> Option<usize> {
        match self {
            Suite::Cobblestone128 | Suite::Cobblestone256 => None,
            s => Some(8 * s.nonce_len()),
        }
    }

    /// The short name: `"cobblestone-128"`, `"cobblestone-256"`, `"kalyna-128-128-gcm"`,
    /// `"kalyna-128-256-gcm"`, `"kalyna-256-256-gcm"`, `"kalyna-256-512-gcm"` or
    /// `"kalyna-512-512-gcm"`.
    pub const fn name(self) -> &'static str {
        match self {
            Suite::Cobblestone128 => "cobblestone-128",
            Suite::Cobblestone256 => "cobblestone-256",
            Suite::Kalyna128_128Gcm => "kalyna-128-128-gcm",
            Suite::Kalyna128_256Gcm => "kalyna-128-256-gcm",
            Suite::Kalyna256_256Gcm => "kalyna-256-256-gcm",
            Suite::Kalyna256_512Gcm => "kalyna-256-512-gcm",
            Suite::Kalyna512_512Gcm => "kalyna-512-512-gcm",
        }
    }
}

/// A Cobblestone input key: derives the per-message keys for encryption and checks the
/// commitment of a ciphertext's header for decryption. The key is wiped on drop.
#[derive(Clone)]
pub struct Cobblestone {
    suite: Suite,
    key: [u8; MAX_KEY_LEN],
    backends: Backends,
}

impl core::fmt::Debug for Cobblestone {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Cobblestone")
            .field("suite", &self.suite)
            .finish_non_exhaustive()
    }
}

impl Drop for Cobblestone {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.key);
    }
}

impl Cobblestone {
    /// An input key for `suite`: [`Error::InvalidKeyLength`] unless it is
    /// [`Suite::key_len`] bytes long. It must be uniformly random (a CSPRNG's or a KDF's
    /// output).
    pub fn new(suite: Suite, input_key: &[u8]) -> Result<Self, Error> {
        Self::with(suite, input_key, Backends::Best)
    }

    /// As [`new`](Self::new), with the message keys on explicit AES and GHASH backends (and
    /// their fused AES-GCM engine, if they have one); for tests and benchmarks.
    /// [`Error::BackendUnavailable`] if either is not available here,
    /// [`Error::InvalidParameter`] for a Kalyna suite.
    pub fn with_backends(
        suite: Suite,
        input_key: &[u8],
        aes_backend: aes::Backend,
        ghash_backend: ghash::Backend,
    ) -> Result<Self, Error> {
        Self::with(
            suite,
            input_key,
            Backends::Fused(aes_backend, ghash_backend),
        )
    }

    /// As [`with_backends`](Self::with_backends) but never with a fused engine (see
    /// [`AesGcm::with_backends_generic`]).
    pub fn with_backends_generic(
        suite: Suite,
        input_key: &[u8],
        aes_backend: aes::Backend,
        ghash_backend: ghash::Backend,
    ) -> Result<Self, Error> {
        Self::with(
            suite,
            input_key,
            Backends::Generic(aes_backend, ghash_backend),
        )
    }

    /// As [`new`](Self::new) for a Kalyna suite, with the message keys on an explicit
    /// Kalyna backend (the DSTU GCM hash takes the carry-less multiplier the CPU has); for
    /// tests and benchmarks. [`Error::BackendUnavailable`] if it is not available here,
    /// [`Error::InvalidParameter`] for an AES suite.
    pub fn with_kalyna_backend(
        suite: Suite,
        input_key: &[u8],
        backend: kalyna::Backend,
    ) -> Result<Self, Error> {
        Self::with(suite, input_key, Backends::Kalyna(backend))
    }

    fn with(suite: Suite, input_key: &[u8], backends: Backends) -> Result<Self, Error> {
        if input_key.len() != suite.key_len() {
            return Err(Error::InvalidKeyLength {
                got: input_key.len(),
            });
        }
        // Refuse unavailable or mismatched backends now rather than at the first message.
        Aead::new(suite, &[0u8; MAX_KEY_LEN][..suite.key_len()], backends)?;
        let mut key = [0u8; MAX_KEY_LEN];
        key[..input_key.len()].copy_from_slice(input_key);
        Ok(Cobblestone {
            suite,
            key,
            backends,
        })
    }

    /// The instantiation.
    pub fn suite(&self) -> Suite {
        self.suite
    }

    /// HKDF-Expand with SHA-512: `key || base nonce || commitment` for `salt` and
    /// `context`. The info string is fed to HMAC in pieces (so any context length works
    /// without allocating); `tests::derivation_equals_hkdf` checks it against
    /// [`crate::kdf::hkdf::Hkdf`].
    fn derive(
        &self,
        salt: &[u8; SALT_LEN],
        context: &[u8],
    ) -> Result<(MessageKey, [u8; COMMITMENT_LEN]), Error> {
        let kl = self.suite.key_len();
        let nl = self.suite.nonce_len();
        let need = kl + nl + COMMITMENT_LEN;
        // At most 64 + 64 + 32 = 160 bytes: three SHA-512 blocks of output.
        let mut okm = [0u8; 3 * 64];
        let prk = Hmac::<Sha512>::new(&self.key[..kl]);
        let mut prev: Option<[u8; 64]> = None;
        for (i, out) in okm.chunks_mut(64).enumerate().take(need.div_ceil(64)) {
            let mut m = prk.clone();
            if let Some(p) = &prev {
                m.update(p);
            }
            m.update(INFO_PREFIX);
            m.update(self.suite.aead_name().as_bytes());
            m.update(&[0]);
            m.update(salt);
            m.update(context);
            m.update(&[(i + 1) as u8]);
            let t = m.finalize();
            out.copy_from_slice(&t);
            if let Some(mut p) = prev.replace(t) {
                p.zeroize();
            }
        }
        if let Some(mut p) = prev {
            p.zeroize();
        }
        let r = (|| {
            let mk = MessageKey::with(self.suite, &okm[..kl], &okm[kl..kl + nl], self.backends)?;
            let mut commitment = [0u8; COMMITMENT_LEN];
            commitment.copy_from_slice(&okm[kl + nl..need]);
            Ok((mk, commitment))
        })();
        crate::wipe::wipe(&mut okm);
        r
    }

    /// Starts a message: the header (`salt || commitment`, to be written before the
    /// chunks) and the message key that seals the chunks.
    ///
    /// `salt` must never repeat for this input key; draw it at random (as
    /// [`Encryptor::new`] and [`seal`](Self::seal) do) unless a protocol guarantees
    /// uniqueness another way.
    pub fn seal_header(
        &self,
        salt: &[u8; SALT_LEN],
        context: &[u8],
    ) -> Result<([u8; HEADER_LEN], MessageKey), Error> {
        let (mk, commitment) = self.derive(salt, context)?;
        let mut header = [0u8; HEADER_LEN];
        header[..SALT_LEN].copy_from_slice(salt);
        header[SALT_LEN..].copy_from_slice(&commitment);
        Ok((header, mk))
    }

    /// Reads a message's header: the message key, once the commitment (compared in
    /// constant time) matches this key and `context`; [`Error::CommitmentMismatch`]
    /// otherwise.
    pub fn open_header(
        &self,
        header: &[u8; HEADER_LEN],
        context: &[u8],
    ) -> Result<MessageKey, Error> {
        let mut salt = [0u8; SALT_LEN];
        salt.copy_from_slice(&header[..SALT_LEN]);
        let (mk, mut commitment) = self.derive(&salt, context)?;
        let ok = crate::ct::ct_eq(&commitment, &header[SALT_LEN..]);
        commitment.zeroize();
        if ok {
            Ok(mk)
        } else {
            Err(Error::CommitmentMismatch)
        }
    }

    /// Encrypts `plaintext` under a random salt from the operating system; the whole
    /// ciphertext (header and chunks), [`sealed_len`] bytes.
    #[cfg(all(feature = "alloc", feature = "getrandom"))]
    pub fn seal(&self, context: &[u8], plaintext: &[u8]) -> Result<alloc::vec::Vec<u8>, Error> {
        self.seal_with_salt(&random_salt()?, context, plaintext)
    }

    /// Encrypts `plaintext` under `salt`, which must never repeat for this key (see
    /// [`seal_header`](Self::seal_header)); deterministic, for tests and protocols that
    /// choose their salts.
    #[cfg(feature = "alloc")]
    pub fn seal_with_salt(
        &self,
        salt: &[u8; SALT_LEN],
        context: &[u8],
        plaintext: &[u8],
    ) -> Result<alloc::vec::Vec<u8>, Error> {
        let total = sealed_len(plaintext.len() as u64)?;
        let total = usize::try_from(total).map_err(|_| Error::TooLong {
            what: "chunked message (larger than the address space)",
        })?;
        let (header, mk) = self.seal_header(salt, context)?;
        let mut out = alloc::vec![0u8; total];
        out[..HEADER_LEN].copy_from_slice(&header);
        mk.seal_chunks(0, plaintext, true, &mut out[HEADER_LEN..])?;
        Ok(out)
    }

    /// Decrypts a whole ciphertext: the message, or an error and nothing.
    ///
    /// Errors: [`Error::Truncated`] (header or final chunk missing or cut),
    /// [`Error::CommitmentMismatch`] (wrong key or context),
    /// [`Error::ChunkAuthenticationFailed`] (a chunk modified, moved or followed by extra
    /// data).
    #[cfg(feature = "alloc")]
    pub fn open(&self, context: &[u8], ciphertext: &[u8]) -> Result<alloc::vec::Vec<u8>, Error> {
        let header: &[u8; HEADER_LEN] = ciphertext
            .get(..HEADER_LEN)
            .and_then(|h| h.try_into().ok())
            .ok_or(Error::Truncated)?;
        let mk = self.open_header(header, context)?;
        let body = &ciphertext[HEADER_LEN..];
        let mut out = alloc::vec![0u8; opened_len(body.len() as u64)? as usize];
        if let Err(e) = mk.open_chunks(0, body, true, &mut out) {
            crate::wipe::wipe(&mut out);
            return Err(e);
        }
        Ok(out)
    }
}

/// A random salt from the operating system's generator.
#[cfg(feature = "getrandom")]
pub(crate) fn random_salt() -> Result<[u8; SALT_LEN], Error> {
    let mut salt = [0u8; SALT_LEN];
    getrandom::fill(&mut salt).map_err(|_| Error::InvalidParameter {
        what: "operating system random generator (unavailable)",
    })?;
    Ok(salt)
}

/// The length of the whole ciphertext (header included) of a message of `len` bytes;
/// [`Error::TooLong`] beyond [`MAX_CHUNKS`] chunks.
pub fn sealed_len(len: u64) -> Result<u64, Error> {
    let chunks = len / CHUNK_LEN as u64 + 1;
    if chunks > MAX_CHUNKS {
        return Err(too_many_chunks());
    }
    Ok(HEADER_LEN as u64 + len + chunks * TAG_LEN as u64)
}

/// The message length a chunk sequence (the ciphertext without its header) of `len`
/// bytes would decrypt to; [`Error::Truncated`] for a length no message encrypts to (the
/// final chunk missing or shorter than its tag).
pub fn opened_len(len: u64) -> Result<u64, Error> {
    let full = len / ENCRYPTED_CHUNK_LEN as u64;
    let rest = len % ENCRYPTED_CHUNK_LEN as u64;
    if rest < TAG_LEN as u64 {
        return Err(Error::Truncated);
    }
    if full + 1 > MAX_CHUNKS {
        return Err(too_many_chunks());
    }
    Ok(full * CHUNK_LEN as u64 + rest - TAG_LEN as u64)
}

fn too_many_chunks() -> Error {
    Error::TooLong {
        what: "chunked message (at most 2^38 chunks)",
    }
}

/// The key and base nonce of one message: seals and opens its chunks by index.
///
/// Chunk `k` is sealed with the suite's AEAD under `base nonce XOR k` (`k` big-endian over
/// the nonce's last 8 bytes), with an empty AAD for AES-GCM and that nonce as the AAD for
/// Kalyna-GCM (see the [module documentation](self)). A chunk is *final* when it holds fewer than
/// [`CHUNK_LEN`] bytes; the caller is responsible for sealing exactly one final chunk,
/// last (the streaming types and the one-shot calls do).
pub struct MessageKey {
    suite: Suite,
    aead: Aead,
    base_nonce: [u8; MAX_NONCE_LEN],
}

impl core::fmt::Debug for MessageKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MessageKey")
            .field("suite", &self.suite)
            .field("engine", &self.engine())
            .finish_non_exhaustive()
    }
}

impl Drop for MessageKey {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.base_nonce);
    }
}

impl MessageKey {
    /// The message key of `suite` from its AEAD key and base nonce.
    fn with(
        suite: Suite,
        key: &[u8],
        base_nonce: &[u8],
        backends: Backends,
    ) -> Result<Self, Error> {
        if key.len() != suite.key_len() {
            return Err(Error::InvalidKeyLength { got: key.len() });
        }
        if base_nonce.len() != suite.nonce_len() {
            return Err(Error::InvalidNonceLength {
                got: base_nonce.len(),
            });
        }
        let mut n = [0u8; MAX_NONCE_LEN];
        n[..base_nonce.len()].copy_from_slice(base_nonce);
        Ok(MessageKey {
            suite,
            aead: Aead::new(suite, key, backends)?,
            base_nonce: n,
        })
    }

    /// Raw mode (the specification's appendix): a message key from a key and base nonce
    /// that a higher-level protocol derived. Both must be uniformly random and used for
    /// one message only. [`Error::InvalidKeyLength`] for a key of other than
    /// [`Suite::key_len`] bytes, [`Error::InvalidNonceLength`] for a base nonce of other
    /// than [`Suite::nonce_len`] bytes.
    #[cfg(feature = "hazmat")]
    pub fn from_raw(suite: Suite, key: &[u8], base_nonce: &[u8]) -> Result<Self, Error> {
        Self::with(suite, key, base_nonce, Backends::Best)
    }

    /// The instantiation.
    pub fn suite(&self) -> Suite {
        self.suite
    }

    /// What runs the chunks: the AES-GCM engine (see [`AesGcm::engine`]) or the Kalyna
    /// backend's name.
    pub fn engine(&self) -> &'static str {
        self.aead.engine()
    }

    /// The AES-GCM key (for its backends and engine), for the AES suites.
    pub fn aes_gcm(&self) -> Option<&AesGcm> {
        self.aead.aes_gcm()
    }

    /// The Kalyna backend, for the Kalyna suites.
    pub fn kalyna_backend(&self) -> Option<kalyna::Backend> {
        self.aead.kalyna_backend()
    }

    /// The nonce of chunk `index` (its first [`Suite::nonce_len`] bytes);
    /// [`Error::TooLong`] from index 2^38 on.
    fn nonce(&self, index: u64) -> Result<[u8; MAX_NONCE_LEN], Error> {
        if index >= MAX_CHUNKS {
            return Err(too_many_chunks());
        }
        let nl = self.suite.nonce_len();
        let mut n = self.base_nonce;
        for (b, k) in n[nl - 8..nl].iter_mut().zip(index.to_be_bytes()) {
            *b ^= k;
        }
        Ok(n)
    }

    /// Seals chunk `index`: `out` (`plaintext.len() + TAG_LEN` bytes) receives the
    /// ciphertext and then the tag. `plaintext` is at most [`CHUNK_LEN`] bytes; shorter
    /// means this is the final chunk.
    pub fn seal_chunk(&self, index: u64, plaintext: &[u8], out: &mut [u8]) -> Result<(), Error> {
        if plaintext.len() > CHUNK_LEN {
            return Err(Error::TooLong {
                what: "chunk (at most 16384 bytes)",
            });
        }
        if out.len() != plaintext.len() + TAG_LEN {
            return Err(Error::LengthMismatch {
                input: plaintext.len() + TAG_LEN,
                output: out.len(),
            });
        }
        let mut nonce = self.nonce(index)?;
        let (ct, tag) = out.split_at_mut(plaintext.len());
        let r = self
            .aead
            .seal(&nonce[..self.suite.nonce_len()], plaintext, ct, tag);
        crate::wipe::wipe(&mut nonce);
        r
    }

    /// Opens chunk `index`: `ciphertext` is the chunk with its tag (16 to
    /// [`ENCRYPTED_CHUNK_LEN`] bytes), `out` receives `ciphertext.len() - TAG_LEN` bytes of
    /// plaintext once the tag verifies, and is left all zero otherwise
    /// ([`Error::ChunkAuthenticationFailed`]). [`Error::Truncated`] for a chunk shorter
    /// than a tag.
    pub fn open_chunk(&self, index: u64, ciphertext: &[u8], out: &mut [u8]) -> Result<(), Error> {
        if ciphertext.len() < TAG_LEN {
            out.iter_mut().for_each(|b| *b = 0);
            return Err(Error::Truncated);
        }
        if ciphertext.len() > ENCRYPTED_CHUNK_LEN {
            return Err(Error::TooLong {
                what: "encrypted chunk (at most 16400 bytes)",
            });
        }
        let (ct, tag) = ciphertext.split_at(ciphertext.len() - TAG_LEN);
        if out.len() != ct.len() {
            return Err(Error::LengthMismatch {
                input: ct.len(),
                output: out.len(),
            });
        }
        let mut nonce = self.nonce(index)?;
        let r = self
            .aead
            .open(&nonce[..self.suite.nonce_len()], ct, tag, out)
            .map_err(|e| match e {
                Error::AuthenticationFailed => Error::ChunkAuthenticationFailed { chunk: index },
                e => e,
            });
        crate::wipe::wipe(&mut nonce);
        r
    }

    /// Seals consecutive chunks from number `first`: `plaintext` is cut into
    /// [`CHUNK_LEN`]-byte chunks; with `last`, whatever follows the whole chunks (possibly
    /// nothing) is sealed as the final chunk, and without it `plaintext` must be whole
    /// chunks. `out` is [`sealed_chunks_len`]`(plaintext.len(), last)` bytes.
    ///
    /// With the `parallel` feature, batches of several chunks are spread over rayon's
    /// threads (of the pool the call runs in); the output is the same.
    pub fn seal_chunks(
        &self,
        first: u64,
        plaintext: &[u8],
        last: bool,
        out: &mut [u8],
    ) -> Result<(), Error> {
        let layout = Layout::of_plaintext(first, plaintext.len(), last)?;
        if out.len() != layout.ct_len {
            return Err(Error::LengthMismatch {
                input: layout.ct_len,
                output: out.len(),
            });
        }
        #[cfg(feature = "parallel")]
        if parallel::worth_it(layout.chunks) {
            return parallel::seal(self, first, plaintext, last, out);
        }
        for i in 0..layout.chunks as usize {
            let (c, p) = (layout.ct_range(i), layout.pt_range(i));
            self.seal_chunk(first + i as u64, &plaintext[p], &mut out[c])?;
        }
        Ok(())
    }

    /// Opens consecutive chunks from number `first` (the inverse of
    /// [`seal_chunks`](Self::seal_chunks)): `ciphertext` is whole encrypted chunks, and
    /// with `last` a final chunk of 16 to 16399 bytes after them. `out` is
    /// [`opened_chunks_len`]`(ciphertext.len(), last)` bytes.
    ///
    /// On [`Error::ChunkAuthenticationFailed`]` { chunk }`, the plaintext of the chunks
    /// before `chunk` is in `out` (authentic) and everything from `chunk` on is zero.
    /// Shape errors ([`Error::Truncated`], [`Error::LengthMismatch`], too many chunks) are
    /// found before anything is decrypted.
    pub fn open_chunks(
        &self,
        first: u64,
        ciphertext: &[u8],
        last: bool,
        out: &mut [u8],
    ) -> Result<(), Error> {
        let layout = Layout::of_ciphertext(first, ciphertext.len(), last)?;
        if out.len() != layout.pt_len {
            return Err(Error::LengthMismatch {
                input: layout.pt_len,
                output: out.len(),
            });
        }
        #[cfg(feature = "parallel")]
        if parallel::worth_it(layout.chunks) {
            return parallel::open(self, first, ciphertext, last, out);
        }
        for i in 0..layout.chunks as usize {
            let (c, p) = (layout.ct_range(i), layout.pt_range(i));
            if let Err(e) = self.open_chunk(first + i as u64, &ciphertext[c], &mut out[p.clone()]) {
                out[p.start..].iter_mut().for_each(|b| *b = 0);
                return Err(e);
            }
        }
        Ok(())
    }
}

/// The ciphertext length of [`MessageKey::seal_chunks`] for `len` bytes of plaintext
/// (without the header).
pub const fn sealed_chunks_len(len: usize, last: bool) -> usize {
    len + (len / CHUNK_LEN + last as usize) * TAG_LEN
}

/// The plaintext length of [`MessageKey::open_chunks`] for `len` bytes of ciphertext, or
/// `None` for a length that cannot be (see there).
pub const fn opened_chunks_len(len: usize, last: bool) -> Option<usize> {
    let full = len / ENCRYPTED_CHUNK_LEN;
    let rest = len % ENCRYPTED_CHUNK_LEN;
    if !last {
        if rest != 0 {
            return None;
        }
        return Some(full * CHUNK_LEN);
    }
    if rest < TAG_LEN {
        return None;
    }
    Some(full * CHUNK_LEN + rest - TAG_LEN)
}

/// The shape of a batch of chunks.
struct Layout {
    chunks: u64,
    ct_len: usize,
    pt_len: usize,
}

impl Layout {
    /// Where chunk `i` of the batch lies in the ciphertext.
    fn ct_range(&self, i: usize) -> core::ops::Range<usize> {
        let start = i * ENCRYPTED_CHUNK_LEN;
        start..self.ct_len.min(start + ENCRYPTED_CHUNK_LEN)
    }

    /// Where chunk `i` of the batch lies in the plaintext.
    fn pt_range(&self, i: usize) -> core::ops::Range<usize> {
        let start = i * CHUNK_LEN;
        start..self.pt_len.min(start + CHUNK_LEN)
    }

    fn check_count(first: u64, chunks: u64) -> Result<(), Error> {
        match first.checked_add(chunks) {
            Some(end) if end <= MAX_CHUNKS => Ok(()),
            _ => Err(too_many_chunks()),
        }
    }

    fn of_plaintext(first: u64, len: usize, last: bool) -> Result<Layout, Error> {
        if !last && !len.is_multiple_of(CHUNK_LEN) {
            return Err(Error::InvalidParameter {
                what: "chunked plaintext (whole chunks unless it ends the message)",
            });
        }
        let chunks = (len / CHUNK_LEN + last as usize) as u64;
        Self::check_count(first, chunks)?;
        Ok(Layout {
            chunks,
            ct_len: sealed_chunks_len(len, last),
            pt_len: len,
        })
    }

    fn of_ciphertext(first: u64, len: usize, last: bool) -> Result<Layout, Error> {
        let pt_len = match opened_chunks_len(len, last) {
            Some(n) => n,
            None if last => return Err(Error::Truncated),
            None => {
                return Err(Error::InvalidParameter {
                    what: "chunked ciphertext (whole chunks unless it ends the message)",
                })
            }
        };
        let chunks = len.div_ceil(ENCRYPTED_CHUNK_LEN) as u64;
        Self::check_count(first, chunks)?;
        Ok(Layout {
            chunks,
            ct_len: len,
            pt_len,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::sha2::Sha512;
    use crate::kdf::hkdf::Hkdf;
    use std::vec::Vec;

    /// A 100-byte message sealed under `nonce` by `suite`'s AEAD set up directly (not
    /// through `chunked`): ciphertext and tag. Kalyna-GCM's associated data is the nonce.
    fn reference_seal(suite: Suite, key: &[u8], nonce: &[u8]) -> Vec<u8> {
        use crate::aead::dstu7624::gcm::Gcm;
        use crate::kalyna::*;
        let mut buf: Vec<u8> = (0..100u8).collect();
        macro_rules! kalyna {
            ($t:ty) => {
                Gcm::new(<$t>::new_from_slice(key).unwrap(), 16)
                    .unwrap()
                    .seal_in_place(nonce, nonce, &mut buf)
                    .unwrap()
                    .as_bytes()
                    .to_vec()
            };
        }
        let tag = match suite {
            Suite::Cobblestone128 | Suite::Cobblestone256 => {
                let g = AesGcm::new_from_slice(key).unwrap();
                g.seal_in_place(nonce, b"", &mut buf).unwrap().to_vec()
            }
            Suite::Kalyna128_128Gcm => kalyna!(Kalyna128_128),
            Suite::Kalyna128_256Gcm => kalyna!(Kalyna128_256),
            Suite::Kalyna256_256Gcm => kalyna!(Kalyna256_256),
            Suite::Kalyna256_512Gcm => kalyna!(Kalyna256_512),
            Suite::Kalyna512_512Gcm => kalyna!(Kalyna512_512),
        };
        buf.extend_from_slice(&tag);
        buf
    }

    #[test]
    fn derivation_equals_hkdf() {
        for &suite in Suite::ALL {
            let key = Cobblestone::new(suite, &[9u8; 64][..suite.key_len()]).unwrap();
            let (kl, nl) = (suite.key_len(), suite.nonce_len());
            for ctx_len in [0usize, 1, 100, 300] {
                let ctx: Vec<u8> = (0..ctx_len).map(|i| i as u8).collect();
                let salt = [3u8; SALT_LEN];
                let mut info = Vec::new();
                info.extend_from_slice(INFO_PREFIX);
                info.extend_from_slice(suite.aead_name().as_bytes());
                info.push(0);
                info.extend_from_slice(&salt);
                info.extend_from_slice(&ctx);
                let mut okm = [0u8; 160];
                let okm = &mut okm[..kl + nl + COMMITMENT_LEN];
                Hkdf::<Sha512>::from_prk(&key.key[..kl])
                    .expand(&info, okm)
                    .unwrap();
                let (header, mk) = key.seal_header(&salt, &ctx).unwrap();
                assert_eq!(&header[SALT_LEN..], &okm[kl + nl..]);
                assert_eq!(mk.base_nonce[..nl], okm[kl..kl + nl]);
                assert!(mk.base_nonce[nl..].iter().all(|&b| b == 0));
                // Chunk 0's nonce is the base nonce itself.
                let msg: Vec<u8> = (0..100u8).collect();
                let mut ct = [0u8; 116];
                mk.seal_chunk(0, &msg, &mut ct).unwrap();
                assert_eq!(
                    ct[..],
                    reference_seal(suite, &okm[..kl], &okm[kl..kl + nl])[..],
                    "{suite:?}"
                );
            }
        }
    }

    #[test]
    fn suite_parameters() {
        let want = [
            (Suite::Cobblestone128, "AEAD_AES_128_GCM", 16, 12),
            (Suite::Cobblestone256, "AEAD_AES_256_GCM", 32, 12),
            (
                Suite::Kalyna128_128Gcm,
                "DSTU7624_KALYNA_128_128_GCM",
                16,
                16,
            ),
            (
                Suite::Kalyna128_256Gcm,
                "DSTU7624_KALYNA_128_256_GCM",
                32,
                16,
            ),
            (
                Suite::Kalyna256_256Gcm,
                "DSTU7624_KALYNA_256_256_GCM",
                32,
                32,
            ),
            (
                Suite::Kalyna256_512Gcm,
                "DSTU7624_KALYNA_256_512_GCM",
                64,
                32,
            ),
            (
                Suite::Kalyna512_512Gcm,
                "DSTU7624_KALYNA_512_512_GCM",
                64,
                64,
            ),
        ];
        assert_eq!(Suite::ALL.len(), want.len());
        for (&s, (w, name, kl, nl)) in Suite::ALL.iter().zip(want) {
            assert_eq!(s, w);
            assert_eq!((s.aead_name(), s.key_len(), s.nonce_len()), (name, kl, nl));
            assert_eq!(params(s).tag_len, TAG_LEN);
            assert_eq!(s.is_c2sp(), Suite::COBBLESTONE.contains(&s));
            assert_eq!(s.is_c2sp(), !Suite::KALYNA.contains(&s));
            assert_eq!(s.kalyna_block_bits().is_some(), !s.is_c2sp());
        }
    }

    #[test]
    fn layout_ranges() {
        // (plaintext length, last) -> chunks; the final chunk may be empty.
        for (len, last, chunks) in [
            (0usize, true, 1u64),
            (1, true, 1),
            (CHUNK_LEN, true, 2),
            (CHUNK_LEN, false, 1),
            (2 * CHUNK_LEN - 1, true, 2),
            (2 * CHUNK_LEN, true, 3),
        ] {
            let l = Layout::of_plaintext(0, len, last).unwrap();
            assert_eq!(l.chunks, chunks, "{len} {last}");
            let m = Layout::of_ciphertext(0, l.ct_len, last).unwrap();
            assert_eq!((m.chunks, m.pt_len), (chunks, len), "{len} {last}");
            let n = chunks as usize;
            assert_eq!(l.pt_range(n - 1).end, len);
            assert_eq!(l.ct_range(n - 1).end, l.ct_len);
            assert_eq!(l.ct_range(n - 1).len(), l.pt_range(n - 1).len() + TAG_LEN);
        }
    }

    #[test]
    fn nonce_xors_the_index_big_endian() {
        for &suite in Suite::ALL {
            let key = Cobblestone::new(suite, &[1; 64][..suite.key_len()]).unwrap();
            let (_, mk) = key.seal_header(&[0; SALT_LEN], b"").unwrap();
            let nl = suite.nonce_len();
            let b = mk.base_nonce;
            let n = mk.nonce(0x01_0203_0405).unwrap();
            let mut want = b;
            for (i, x) in [1u8, 2, 3, 4, 5].iter().enumerate() {
                want[nl - 5 + i] ^= x;
            }
            assert_eq!(n, want, "{suite:?}");
            assert!(mk.nonce(MAX_CHUNKS - 1).is_ok());
            assert!(matches!(mk.nonce(MAX_CHUNKS), Err(Error::TooLong { .. })));
        }
    }
}
