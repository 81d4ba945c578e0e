//! The one error type of the library.
//!
//! An [`Error`] says what was wrong with the *shape* of the input (a length, a backend that
//! is not available) and never anything about secret values.

use core::fmt;

/// What went wrong. Never carries key material or data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// The key has a length the algorithm does not accept.
    InvalidKeyLength {
        /// Length that was given, in bytes.
        got: usize,
    },
    /// A multi-block call was given data that is not a whole number of blocks.
    NotWholeBlocks {
        /// Length that was given, in bytes.
        len: usize,
        /// The block length of the cipher, in bytes.
        block: usize,
    },
    /// Buffer-to-buffer call with input and output of different lengths.
    LengthMismatch {
        /// Input length in bytes.
        input: usize,
        /// Output length in bytes.
        output: usize,
    },
    /// An explicit backend was asked for that this CPU (or the `SHYFR_CPU` override) does
    /// not allow.
    BackendUnavailable,
    /// An IV, nonce or tweak has a length the mode does not accept.
    InvalidNonceLength {
        /// Length that was given, in bytes.
        got: usize,
    },
    /// A tag length the algorithm does not accept (or that the caller did not allow).
    InvalidTagLength {
        /// Length that was given, in bytes.
        got: usize,
    },
    /// A parameter outside what the standard allows; `what` names it (never a secret).
    InvalidParameter {
        /// Which parameter, e.g. `"pbkdf2 iterations"`.
        what: &'static str,
    },
    /// Input (or requested output) longer than the algorithm allows.
    TooLong {
        /// Which length, e.g. `"hkdf output"`.
        what: &'static str,
    },
    /// Input shorter than the algorithm needs.
    TooShort {
        /// Which length, e.g. `"xts data unit"`.
        what: &'static str,
    },
    /// Tag, MAC or key-wrap integrity check failed. Says nothing about why.
    AuthenticationFailed,
    /// Padding check failed. One error for every bad padding.
    BadPadding,
    /// A chunked ciphertext ([`crate::aead::chunked`]) ends where it cannot: its header is
    /// incomplete, its final (short) chunk is missing, or that chunk is shorter than a tag.
    Truncated,
    /// The key commitment in a chunked ciphertext's header does not match the key and
    /// context: the wrong key (or passphrase), the wrong context, or a modified header.
    /// Checked before any chunk is decrypted.
    CommitmentMismatch,
    /// Chunk number `chunk` (from 0) of a chunked ciphertext failed authentication: it was
    /// modified, moved, cut short or followed by extra data. The chunks before it were
    /// authentic; nothing from this chunk on is released.
    ChunkAuthenticationFailed {
        /// The chunk's index; its ciphertext starts at byte `56 + chunk * 16400` of the
        /// chunked ciphertext.
        chunk: u64,
    },
    /// A signature did not verify (wrong length, out of range, or not matching the
    /// message). One error for every reason.
    InvalidSignature,
    /// Decryption failed (ciphertext out of range, bad padding, label mismatch). One error
    /// for every reason, produced after the same work in every case.
    DecryptionFailed,
    /// A key that is malformed or that the library does not accept; `what` says which
    /// property (never a secret value).
    InvalidKey {
        /// Which property, e.g. `"modulus is even"`.
        what: &'static str,
    },
    /// An internal consistency check of a private-key operation failed (a fault, or an
    /// inconsistent key); nothing was released.
    ComputationFault,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::InvalidKeyLength { got } => write!(f, "invalid key length: {got} bytes"),
            Error::NotWholeBlocks { len, block } => {
                write!(
                    f,
                    "data length {len} is not a multiple of the {block}-byte block"
                )
            }
            Error::LengthMismatch { input, output } => write!(
                f,
                "input ({input} bytes) and output ({output} bytes) differ in length"
            ),
            Error::BackendUnavailable => {
                write!(
                    f,
                    "backend not available on this CPU or disabled by SHYFR_CPU"
                )
            }
            Error::InvalidNonceLength { got } => {
                write!(f, "invalid IV/nonce/tweak length: {got} bytes")
            }
            Error::InvalidTagLength { got } => write!(f, "invalid tag length: {got} bytes"),
            Error::InvalidParameter { what } => write!(f, "invalid parameter: {what}"),
            Error::TooLong { what } => write!(f, "too long: {what}"),
            Error::TooShort { what } => write!(f, "too short: {what}"),
            Error::AuthenticationFailed => write!(f, "authentication failed"),
            Error::BadPadding => write!(f, "bad padding"),
            Error::Truncated => write!(f, "ciphertext truncated"),
            Error::CommitmentMismatch => {
                write!(f, "key commitment mismatch: wrong key or context")
            }
            Error::ChunkAuthenticationFailed { chunk } => {
                write!(f, "chunk {chunk} failed authentication")
            }
            Error::InvalidSignature => write!(f, "invalid signature"),
            Error::DecryptionFailed => write!(f, "decryption failed"),
            Error::InvalidKey { what } => write!(f, "invalid key: {what}"),
            Error::ComputationFault => {
                write!(f, "private-key operation failed its consistency check")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
