//! Hash functions: SHA-1, SHA-2, SHA-3 / SHAKE / cSHAKE, GOST 34.311-95, Kupyna (DSTU 7564).
//!
//! Every fixed-length hash implements [`Hash`]; HMAC, HKDF and PBKDF2 are generic over it.
//! Extendable-output functions implement [`Xof`].

/// A `Debug` impl for a hash type with an inherent `backend()`: the type's name and the
/// backend, nothing of the state.
macro_rules! debug_with_backend {
    ($name:ident) => {
        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("backend", &self.backend())
                    .finish_non_exhaustive()
            }
        }
    };
}

/// `Default` (by the inherent `new`) and [`debug_with_backend!`] for a hash type.
macro_rules! default_and_debug {
    ($name:ident) => {
        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        debug_with_backend!($name);
    };
}

pub(crate) use debug_with_backend;

pub mod gost34311;
pub mod kupyna;
pub mod sha1;
pub mod sha2;
pub mod sha3;

use crate::Error;

/// The self-test of a hardware compression function (see [`crate::cpu::backends`]): `hw`
/// compresses 41 fixed blocks from `iv` in calls of 1, 2, 3 and 35 blocks (every path of
/// every kernel: one block, pairs, an odd block, long inputs); the result must equal the
/// portable `sw`'s. `hw` returns `false` if its backend cannot run here.
pub(crate) fn self_test_blocks<const B: usize, S: Copy + PartialEq>(
    iv: S,
    hw: impl Fn(&mut S, &[[u8; B]]) -> bool,
    sw: fn(&mut S, &[[u8; B]]),
) -> bool {
    let mut blocks = [[0u8; B]; 41];
    for (i, b) in blocks.as_flattened_mut().iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(151) ^ (i >> 5) as u8;
    }
    let (mut a, mut b) = (iv, iv);
    let ran = hw(&mut a, &blocks[..1])
        && hw(&mut a, &blocks[1..3])
        && hw(&mut a, &blocks[3..6])
        && hw(&mut a, &blocks[6..]);
    sw(&mut b, &blocks);
    ran && a == b
}

/// A hash function with streaming input: `new`, any number of `update`s, `finalize`.
///
/// States are `Clone`, so a common prefix can be hashed once and forked.
pub trait Hash: Clone {
    /// Name in `shyfr hash` and `shyfr speed`, e.g. `"sha256"`.
    const NAME: &'static str;
    /// Digest length in bytes.
    const OUTPUT_LEN: usize;
    /// Input block length in bytes (HMAC's `B`).
    const BLOCK_LEN: usize;
    /// The digest, `[u8; OUTPUT_LEN]`.
    type Output: AsRef<[u8]> + AsMut<[u8]> + Copy + core::fmt::Debug + PartialEq + Eq;

    /// A fresh state, on the fastest backend available.
    fn new() -> Self;
    /// Absorbs `data`.
    fn update(&mut self, data: &[u8]);
    /// Finishes and returns the digest.
    fn finalize(self) -> Self::Output;

    /// Returns to the fresh state (keeping the backend).
    fn reset(&mut self);

    /// One-shot digest of `data`.
    fn digest(data: &[u8]) -> Self::Output {
        let mut h = Self::new();
        h.update(data);
        h.finalize()
    }

    /// The digest of what `self` has absorbed followed by `data`, leaving `self` as it
    /// is: the same as `{ let mut h = self.clone(); h.update(data); h.finalize() }`
    /// (HMAC finishes its two keyed states this way), which some hashes do without
    /// copying the whole state.
    fn digest_continued(&self, data: &[u8]) -> Self::Output {
        let mut h = self.clone();
        h.update(data);
        h.finalize()
    }
}

/// An extendable-output function (SHAKE, cSHAKE, KMACXOF): absorb, then squeeze any length.
pub trait Xof: Clone {
    /// The squeezing side, returned by [`finalize_xof`](Self::finalize_xof).
    type Reader: XofReader;
    /// Absorbs `data`.
    fn update(&mut self, data: &[u8]);
    /// Ends absorbing; output is then read from the reader.
    fn finalize_xof(self) -> Self::Reader;
}

/// Reads the output of an [`Xof`]; successive reads continue the same output stream.
pub trait XofReader {
    /// Fills `out` with the next `out.len()` bytes of output.
    fn read(&mut self, out: &mut [u8]);
}

/// The checks of the `digest_many` functions (SHA-3 and SHA-256 families): `outputs` outputs for the messages, which all
/// have one length.
pub(crate) fn check_many(messages: &[&[u8]], outputs: usize) -> Result<(), Error> {
    if outputs != messages.len() {
        return Err(Error::LengthMismatch {
            input: messages.len(),
            output: outputs,
        });
    }
    if let Some(first) = messages.first() {
        if messages.iter().any(|m| m.len() != first.len()) {
            return Err(Error::InvalidParameter {
                what: "messages of different lengths",
            });
        }
    }
    Ok(())
}
