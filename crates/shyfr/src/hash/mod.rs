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

/// The check of the `*_many` functions (SHA-2 and SHA-3 families): one output for each
/// message (the messages may differ in length).
pub(crate) fn check_many(messages: &[&[u8]], outputs: usize) -> Result<(), Error> {
    if outputs != messages.len() {
        return Err(Error::LengthMismatch {
            input: messages.len(),
            output: outputs,
        });
    }
    Ok(())
}

/// Batches open at once in [`batches`] (a table of 16 x (L + 2) words on the stack).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const OPEN_BATCHES: usize = 16;

/// Hands the indices of `messages` to `run` in batches of 1 to `L` messages with one `key`
/// (a message's block count for a multi-message kernel, from its length), each index
/// exactly once: up to [`OPEN_BATCHES`] keys are gathered at a time, a batch goes when it
/// is full, or when a message of a new key needs its place (the fullest goes), and the
/// rest at the end. Messages of one length, or of few block counts, so fill whole batches
/// whatever their order; each batch's indices are in ascending order. (The multi-message
/// kernels are x86-64 ones; elsewhere only the unit test calls it.)
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) fn batches<const L: usize>(
    messages: &[&[u8]],
    key: impl Fn(usize) -> usize,
    mut run: impl FnMut(&[usize]),
) {
    // Messages of one length (the common case): batches in order, no table.
    if let Some(first) = messages.first() {
        if messages.iter().all(|m| m.len() == first.len()) {
            let mut idx = [0usize; L];
            for start in (0..messages.len()).step_by(L) {
                let n = (messages.len() - start).min(L);
                for (j, x) in idx[..n].iter_mut().enumerate() {
                    *x = start + j;
                }
                run(&idx[..n]);
            }
            return;
        }
    }
    // (key, indices, count) of each open batch; count 0 is a free place.
    let mut open = [(0usize, [0usize; L], 0usize); OPEN_BATCHES];
    for (i, m) in messages.iter().enumerate() {
        let k = key(m.len());
        let at = match open.iter().position(|b| b.2 > 0 && b.0 == k) {
            Some(at) => at,
            None => {
                let at = match open.iter().position(|b| b.2 == 0) {
                    Some(free) => free,
                    None => {
                        let (full, _) = open
                            .iter()
                            .enumerate()
                            .max_by_key(|(_, b)| b.2)
                            .unwrap_or((0, &open[0]));
                        run(&open[full].1[..open[full].2]);
                        full
                    }
                };
                open[at] = (k, [0; L], 0);
                at
            }
        };
        let b = &mut open[at];
        b.1[b.2] = i;
        b.2 += 1;
        if b.2 == L {
            run(&b.1[..L]);
            b.2 = 0;
        }
    }
    for b in &open {
        if b.2 > 0 {
            run(&b.1[..b.2]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::batches;

    #[test]
    fn batches_hand_every_index_once_with_one_key() {
        // Lengths 0..40 in a scrambled order.
        let lens: [usize; 97] = core::array::from_fn(|i| (i * 37) % 41);
        let data = [0u8; 64];
        let msgs: [&[u8]; 97] = core::array::from_fn(|i| &data[..lens[i]]);
        // 21 keys (more than are open at once), then four: then every batch but the last
        // of each key is full.
        for (div, most_short) in [(2, 97), (11, 4)] {
            let mut seen = [0u32; 97];
            let mut short = 0;
            batches::<5>(
                &msgs,
                |n| n / div,
                |b| {
                    assert!(!b.is_empty() && b.len() <= 5);
                    assert!(b.windows(2).all(|w| w[0] < w[1]));
                    assert!(b.iter().all(|&i| lens[i] / div == lens[b[0]] / div));
                    for &i in b {
                        seen[i] += 1;
                    }
                    short += usize::from(b.len() < 5);
                },
            );
            assert!(seen.iter().all(|&n| n == 1));
            assert!(short <= most_short, "{short} short batches");
        }
        // One key: full batches in order, then the rest.
        let mut got = [0usize; 97];
        let mut at = 0;
        batches::<8>(
            &msgs,
            |_| 0,
            |b| {
                assert!(b.len() == 8 || at == 96);
                for &i in b {
                    got[at] = i;
                    at += 1;
                }
            },
        );
        assert!(got.iter().enumerate().all(|(k, &i)| k == i));
    }
}
