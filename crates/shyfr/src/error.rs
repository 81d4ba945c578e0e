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
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
