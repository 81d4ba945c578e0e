//! SHA-2 (FIPS 180-4): SHA-224, SHA-256, SHA-384, SHA-512, SHA-512/224 and SHA-512/256.
//!
//! The compression function is chosen once, when a state is created, in priority order:
//!
//! | family | backend | needs | how |
//! |--------|---------|-------|-----|
//! | SHA-256, SHA-224 | `x86_shani` | SHA extensions (+ SSSE3, SSE4.1) | `sha256rnds2`, two rounds per instruction |
//! | SHA-256, SHA-224 | `aarch64_sha2` | ARMv8 SHA256 instructions | `SHA256H`/`H2`/`SU0`/`SU1`, four rounds per pair |
//! | SHA-256, SHA-224 | `soft` | nothing | portable |
//! | [`Sha256::digest_many`], [`Sha224::digest_many`] (family `sha256-many`) | `x86_avx512` | AVX-512 F/VL/BW | sixteen messages of one block count side by side, one in each 32-bit lane of the zmm registers (`vprord`, `vpternlogd`) |
//! | the same | `soft` | nothing | one message after another, on the backend above |
//! | `digest_many` of the SHA-512 family (family `sha512-many`) | `x86_avx512` | AVX-512 F/VL/BW | eight messages of one block count side by side, one in each 64-bit lane (`vprorq`, `vpternlogq`) |
//! | the same | `soft` | nothing | one message after another |
//! | SHA-512 and truncations | `aarch64_sha512` | ARMv8.2 SHA512 instructions | `SHA512H`/`H2`/`SU0`/`SU1`, two rounds per pair |
//! | SHA-512 and truncations | `x86_avx512` | AVX-512 F/VL/BW + AVX2 + BMI1 + BMI2 | `x86_avx2`'s kernel with a shorter schedule step (`vprorq`, `vpternlogq`) |
//! | SHA-512 and truncations | `x86_avx2` | AVX2 + BMI2 | a block's own message schedule in `xmm` beside its rounds (`rorx`) |
//! | SHA-512 and truncations | `soft` | nothing | portable |
//!
//! On the benchmark machine (AMD Zen 3, 16 KiB messages) SHA-256 runs at 2.03 cycles/byte
//! with `x86_shani` and 13.3 with `soft`; SHA-512 at 8.1 with `soft`. On AMD Zen 4,
//! SHA-512 with `x86_avx512`: 36.3 cycles/byte for 16-byte messages, 4.63 for 1 KiB, 3.96
//! for 16 KiB (`shyfr-bench --per-call`, 3.7 GHz assumed, 2026-11-26; OpenSSL 3.0 in the
//! same run 92, 5.57, 4.25: 1.07x at 16 KiB). With AVX-512 masked (`SHYFR_CPU=-avx512f`),
//! `x86_avx2`: 36.3, 4.81 and 4.05 (OpenSSL 92, 5.57, 4.24; aws-lc-rs 54 at 16 bytes),
//! where the kernel that computed the next pair's schedule measured 61, 6.1 and 4.50.
//! Both weave the schedule into the rounds (see `x86_avx2`), which took 16 KiB from 4.09
//! (`x86_avx512`) and 4.36 (`x86_avx2`) cycles/byte.
//!
//! SHA-2 uses only additions, rotations and bitwise logic, so every backend runs in time
//! that depends only on the length of the input.
//!
//! ```
//! use shyfr::hash::sha2::{Sha256, Sha512};
//! let d = Sha256::digest(b"abc");
//! assert_eq!(d[..4], [0xba, 0x78, 0x16, 0xbf]);
//!
//! let mut h = Sha512::new();
//! h.update(b"a");
//! h.update(b"bc");
//! assert_eq!(h.finalize(), Sha512::digest(b"abc"));
//! ```

mod consts;
pub(in crate::hash) mod md;
mod soft;

#[cfg(target_arch = "aarch64")]
pub(in crate::hash) mod aarch64_sha2;
#[cfg(target_arch = "aarch64")]
mod aarch64_sha512;
#[cfg(target_arch = "x86_64")]
mod x86_avx2;
#[cfg(target_arch = "x86_64")]
mod x86_avx512;
#[cfg(target_arch = "x86_64")]
mod x86_shani;

use self::consts::*;
use self::md::BlockBuffer;
use super::Hash;
use crate::Error;

#[cfg(target_arch = "aarch64")]
use crate::cpu::aarch64 as arch_cpu;
#[cfg(target_arch = "x86_64")]
use crate::cpu::x86 as arch_cpu;

// ---------------------------------------------------------------------------------------
// Backends
// ---------------------------------------------------------------------------------------

crate::cpu::backends! {
    /// The implementations of the SHA-256 compression function (SHA-224 and SHA-256),
    /// fastest first.
    pub enum Sha256Backend("sha256"), tokens Kernel256 {
        /// The x86 SHA extensions (`sha256rnds2`, `sha256msg1`, `sha256msg2`).
        X86ShaNi = "x86_shani" ["x86_64"] arch_cpu::ShaNi,
        /// The ARMv8 SHA256 instructions (aarch64).
        Aarch64Sha2 = "aarch64_sha2" ["aarch64"] arch_cpu::Sha2Ce,
        /// Portable code.
        Soft = "soft",
    }
    self_test = self_test256;
}

crate::cpu::backends! {
    /// The implementations of the SHA-512 compression function (SHA-384, SHA-512,
    /// SHA-512/224, SHA-512/256), fastest first.
    pub enum Sha512Backend("sha512"), tokens Kernel512 {
        /// The ARMv8.2 SHA512 instructions (aarch64).
        Aarch64Sha512 = "aarch64_sha512" ["aarch64"] arch_cpu::Sha512Ce,
        /// One block at a time, its message schedule in xmm registers with AVX-512VL
        /// (`vprorq`, `vpternlogq`) beside the rounds (`rorx`, `andn`) (x86-64).
        X86Avx512 = "x86_avx512" ["x86_64"] arch_cpu::Avx512Bmi2,
        /// Portable rounds (with `rorx`) and the message schedule of two blocks at a time
        /// in AVX2 registers (x86-64).
        X86Avx2 = "x86_avx2" ["x86_64"] arch_cpu::Avx2Bmi2,
        /// Portable code.
        Soft = "soft",
    }
    self_test = self_test512;
}

crate::cpu::backends! {
    /// The implementations of [`Sha256::digest_many`] and [`Sha224::digest_many`] (many
    /// messages at once), fastest first.
    pub enum Sha256ManyBackend("sha256-many"), tokens Many256 {
        /// Sixteen messages side by side, one in each 32-bit lane of the zmm registers
        /// (AVX-512 F/VL/BW; `vprord`, `vpternlogd`) (x86-64).
        X86Avx512 = "x86_avx512" ["x86_64"] arch_cpu::Avx512,
        /// One message after another, each on the SHA-256 backend [`Sha256::new`] picks.
        Soft = "soft",
    }
    self_test = self_test_many256;
}

crate::cpu::backends! {
    /// The implementations of [`Sha512::digest_many`] and the other SHA-512-family
    /// `digest_many` functions (many messages at once), fastest first.
    pub enum Sha512ManyBackend("sha512-many"), tokens Many512 {
        /// Eight messages side by side, one in each 64-bit lane of the zmm registers
        /// (AVX-512 F/VL/BW; `vprorq`, `vpternlogq`) (x86-64).
        X86Avx512 = "x86_avx512" ["x86_64"] arch_cpu::Avx512,
        /// One message after another, each on the SHA-512 backend [`Sha512::new`] picks.
        Soft = "soft",
    }
    self_test = self_test_many512;
}

impl Kernel256 {
    #[inline]
    fn compress(self, state: &mut [u32; 8], blocks: &[[u8; 64]]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel256::X86ShaNi(t) => x86_shani::compress(t, state, blocks),
            #[cfg(target_arch = "aarch64")]
            Kernel256::Aarch64Sha2(t) => aarch64_sha2::compress(t, state, blocks),
            Kernel256::Soft => soft::compress256(state, blocks),
        }
    }
}

impl Kernel256 {
    /// Pads and compresses the message's last `tail.len() < 64` bytes; `bits` is its
    /// length in bits.
    #[inline]
    fn finish(self, state: &mut [u32; 8], tail: &[u8], bits: u64) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel256::X86ShaNi(t) => x86_shani::finish(t, state, tail, bits),
            _ => md::finish_tail::<64>(tail, &bits.to_be_bytes(), |b| self.compress(state, b)),
        }
    }
}

impl Kernel512 {
    /// Pads and compresses the message's last `tail.len() < 128` bytes; `bits` is its
    /// length in bits.
    #[inline]
    fn finish(self, state: &mut [u64; 8], tail: &[u8], bits: u128) {
        md::finish_tail::<128>(tail, &bits.to_be_bytes(), |b| self.compress(state, b));
    }

    #[inline]
    fn compress(self, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel512::X86Avx512(t) => x86_avx512::compress(t, state, blocks),
            #[cfg(target_arch = "x86_64")]
            Kernel512::X86Avx2(t) => x86_avx2::compress(t, state, blocks),
            #[cfg(target_arch = "aarch64")]
            Kernel512::Aarch64Sha512(t) => aarch64_sha512::compress(t, state, blocks),
            Kernel512::Soft => soft::compress512(state, blocks),
        }
    }
}

/// The known-answer self-test of a SHA-256 hardware backend (see [`super::self_test_blocks`]).
fn self_test256(b: Sha256Backend) -> bool {
    super::self_test_blocks::<64, _>(
        IV256,
        |st, blocks| Kernel256::new(b).map(|e| e.compress(st, blocks)).is_some(),
        soft::compress256,
    )
}

/// The known-answer self-test of a multi-message backend: seventeen messages of 119 bytes
/// (for SHA-256 a whole block and a padded one; for SHA-512 one block whose length field
/// spills into a second) and sixteen empty ones must give the one-by-one digests of `one`,
/// through `run(messages, put)`.
fn self_test_many<const N: usize>(
    run: impl Fn(&[&[u8]], &mut dyn FnMut(usize, [u8; N])),
    one: fn(&[u8]) -> [u8; N],
) -> bool {
    let mut data = [0u8; 17 * 119];
    for (i, x) in data.iter_mut().enumerate() {
        *x = (i as u8).wrapping_mul(29) ^ (i >> 7) as u8;
    }
    let msgs: [&[u8]; 17] = core::array::from_fn(|i| &data[119 * i..119 * (i + 1)]);
    let mut ok = true;
    run(&msgs, &mut |i, d| ok &= d == one(msgs[i]));
    run(&[&[][..]; 16], &mut |_, d| ok &= d == one(&[]));
    ok
}

/// The self-test of a multi-message SHA-256 backend (see [`self_test_many`]).
fn self_test_many256(b: Sha256ManyBackend) -> bool {
    Many256::new(b).is_some_and(|k| self_test_many(|m, put| k.run(&IV256, m, put), Sha256::digest))
}

/// The self-test of a multi-message SHA-512 backend (see [`self_test_many`]).
fn self_test_many512(b: Sha512ManyBackend) -> bool {
    Many512::new(b).is_some_and(|k| self_test_many(|m, put| k.run(&IV512, m, put), Sha512::digest))
}

/// The known-answer self-test of a SHA-512 hardware backend.
fn self_test512(b: Sha512Backend) -> bool {
    super::self_test_blocks::<128, _>(
        IV512,
        |st, blocks| Kernel512::new(b).map(|e| e.compress(st, blocks)).is_some(),
        soft::compress512,
    )
}

/// Fewest messages of one block count (a batch) for which the multi-message kernel runs
/// where the one-message backend has hardware SHA-256 instructions: sixteen lanes take
/// about the time of eight or nine messages one by one there (BENCHMARKS.md); fewer go one
/// by one. Without them, two.
#[cfg(target_arch = "x86_64")]
const MANY_MIN_SHA: usize = 9;
/// The same for the SHA-512 family (eight lanes; no x86 SHA-512 instructions).
#[cfg(target_arch = "x86_64")]
const MANY_MIN_512: usize = 3;

/// The multi-message kernel's part of a `digest_many` call: the messages in batches of
/// `L` with one block count ([`super::batches`]); a batch of at least `min` messages runs
/// side by side (`kernel`, which pads each message in its registers and writes each
/// digest's `D` bytes), each digest handed to `put` with the message's index; each
/// message of a smaller batch is handed to `put` with `None`, for the caller to hash
/// alone. `B` is the block length; the padding's big-endian length field is `B / 8` bytes
/// (8 or 16).
#[cfg(target_arch = "x86_64")]
fn lane_groups<const L: usize, const B: usize, const D: usize>(
    messages: &[&[u8]],
    min: usize,
    mut kernel: impl FnMut(&x86_avx512::Lanes<'_>, &mut [[u8; D]; L]),
    mut put: impl FnMut(usize, Option<&[u8; D]>),
) {
    // Whole blocks, then one padded tail block, or two when the length field does not fit
    // after the last bytes: the key is the pair of counts.
    let field = B / 8;
    let tail_of = |len: usize| if len % B < B - field { 1 } else { 2 };
    let mut out = [[0u8; D]; L];
    let run = |batch: &[usize]| {
        let n = batch.len();
        if n < min.max(1) {
            batch.iter().for_each(|&i| put(i, None));
            return;
        }
        // Lanes past the last message repeat it; their results are dropped.
        let group: [&[u8]; L] = core::array::from_fn(|j| messages[batch[j.min(n - 1)]]);
        let len = group[0].len();
        let lanes = x86_avx512::Lanes {
            msgs: &group,
            whole: len / B,
            tail: tail_of(len),
        };
        kernel(&lanes, &mut out);
        for (&i, d) in batch.iter().zip(&out) {
            put(i, Some(d));
        }
    };
    super::batches::<L>(messages, |len| 2 * (len / B) + tail_of(len), run);
    crate::wipe::wipe(out.as_flattened_mut());
}

impl Many256 {
    /// Hashes `messages` from `iv`, handing each message's digest (all 32 bytes of the
    /// chaining value) to `put` with its index.
    fn run(self, iv: &[u32; 8], messages: &[&[u8]], mut put: impl FnMut(usize, [u8; 32])) {
        let one = |m: &[u8]| Core256::oneshot(iv, Kernel256::best(), m);
        #[cfg(target_arch = "x86_64")]
        if let Many256::X86Avx512(t) = self {
            let min = if matches!(Kernel256::best(), Kernel256::Soft) {
                2
            } else {
                MANY_MIN_SHA
            };
            lane_groups::<16, 64, 32>(
                messages,
                min,
                |input, out| x86_avx512::compress256_x16(t, iv, input, out),
                |i, d| put(i, d.map_or_else(|| one(messages[i]), |d| *d)),
            );
            return;
        }
        for (i, m) in messages.iter().enumerate() {
            put(i, one(m));
        }
    }
}

impl Many512 {
    /// As [`Many256::run`], for the SHA-512 family (all 64 bytes of the chaining value).
    fn run(self, iv: &[u64; 8], messages: &[&[u8]], mut put: impl FnMut(usize, [u8; 64])) {
        let one = |m: &[u8]| Core512::oneshot(iv, Kernel512::best(), m);
        #[cfg(target_arch = "x86_64")]
        if let Many512::X86Avx512(t) = self {
            lane_groups::<8, 128, 64>(
                messages,
                MANY_MIN_512,
                |input, out| x86_avx512::compress512_x8(t, iv, input, out),
                |i, d| put(i, d.map_or_else(|| one(messages[i]), |d| *d)),
            );
            return;
        }
        for (i, m) in messages.iter().enumerate() {
            put(i, one(m));
        }
    }
}

// ---------------------------------------------------------------------------------------
// The two cores
// ---------------------------------------------------------------------------------------

/// A SHA-2 state type: chaining value of eight `$word`s, partial block of `$block` bytes,
/// length in bytes as `$len` (kept modulo its range, as the length field of the padding
/// needs: FIPS 180-4 allows less than 2^64 bits for SHA-256, 2^128 for SHA-512), and the
/// compression function.
macro_rules! sha2_core {
    ($(#[$doc:meta])* $Core:ident, $word:ty, $len:ty, $block:literal, $Kernel:ty) => {
        $(#[$doc])*
        #[derive(Clone)]
        struct $Core {
            state: [$word; 8],
            len: $len,
            buf: BlockBuffer<$block>,
            kernel: $Kernel,
        }

        impl $Core {
            fn new(iv: &[$word; 8], kernel: $Kernel) -> Self {
                $Core {
                    state: *iv,
                    len: 0,
                    buf: BlockBuffer::new(),
                    kernel,
                }
            }

            #[inline(always)]
            fn update(&mut self, data: &[u8]) {
                self.len = self.len.wrapping_add(data.len() as $len);
                let (state, kernel) = (&mut self.state, self.kernel);
                self.buf
                    .update(data, |blocks| kernel.compress(state, blocks));
            }

            /// Pads, compresses and returns the chaining value as bytes.
            #[inline(always)]
            fn finish(&mut self) -> [u8; 8 * size_of::<$word>()] {
                let bits = self.len.wrapping_mul(8);
                self.kernel
                    .finish(&mut self.state, self.buf.pending(), bits);
                self.buf.clear();
                Self::output(&self.state)
            }

            /// The digest of `data` in one call: its whole blocks straight from `data`,
            /// the last one or two formed by the kernel.
            #[inline(always)]
            fn oneshot(iv: &[$word; 8], kernel: $Kernel, data: &[u8]) -> [u8; 8 * size_of::<$word>()] {
                let mut state = *iv;
                let (blocks, tail) = data.as_chunks::<$block>();
                if !blocks.is_empty() {
                    kernel.compress(&mut state, blocks);
                }
                kernel.finish(&mut state, tail, (data.len() as $len).wrapping_mul(8));
                let out = Self::output(&state);
                zeroize::Zeroize::zeroize(&mut state);
                out
            }

            /// The digest of the absorbed input followed by `data`, `self` unchanged,
            /// without copying the state value: when nothing is buffered, `data`'s whole
            /// blocks from its slice and its tail by the kernel; when `data` is empty, the
            /// buffered bytes by the kernel. `None` otherwise.
            #[inline(always)]
            fn continued(&self, data: &[u8]) -> Option<[u8; 8 * size_of::<$word>()]> {
                let pending = self.buf.pending();
                let tail = if pending.is_empty() {
                    data
                } else if data.is_empty() {
                    pending
                } else {
                    return None;
                };
                let mut state = self.state;
                let (blocks, tail) = tail.as_chunks::<$block>();
                if !blocks.is_empty() {
                    self.kernel.compress(&mut state, blocks);
                }
                let len = self.len.wrapping_add(data.len() as $len);
                self.kernel.finish(&mut state, tail, len.wrapping_mul(8));
                let out = Self::output(&state);
                zeroize::Zeroize::zeroize(&mut state);
                Some(out)
            }

            /// The chaining value as big-endian bytes.
            #[inline(always)]
            fn output(state: &[$word; 8]) -> [u8; 8 * size_of::<$word>()] {
                let mut out = [0u8; 8 * size_of::<$word>()];
                for (o, s) in out
                    .as_chunks_mut::<{ size_of::<$word>() }>()
                    .0
                    .iter_mut()
                    .zip(state)
                {
                    *o = s.to_be_bytes();
                }
                out
            }

            fn reset(&mut self, iv: &[$word; 8]) {
                self.state = *iv;
                self.len = 0;
                self.buf.clear();
            }

            fn wipe(&mut self, iv: &[$word; 8]) {
                zeroize::Zeroize::zeroize(&mut self.state);
                zeroize::Zeroize::zeroize(&mut self.len);
                self.buf.wipe();
                self.reset(iv);
            }
        }
    };
}

sha2_core!(
    /// SHA-256 state.
    Core256, u32, u64, 64, Kernel256
);
sha2_core!(
    /// SHA-512 state.
    Core512, u64, u128, 128, Kernel512
);

// ---------------------------------------------------------------------------------------
// The six hash types
// ---------------------------------------------------------------------------------------

macro_rules! sha2_type {
    (
        $(#[$m:meta])*
        $name:ident, $core:ident, $backend:ident, $kernel:ident, $iv:ident,
        $out_len:expr, $block_len:expr, $alg:expr, $example:expr
    ) => {
        $(#[$m])*
        ///
        /// Streaming: [`new`](Self::new), any number of [`update`](Self::update)s (any split
        /// of the input gives the same digest), [`finalize`](Self::finalize). `Clone` forks
        /// a state, [`reset`](Self::reset) restarts it on the same backend, and
        /// [`zeroize`](zeroize::Zeroize::zeroize) overwrites it (leaving a fresh state).
        /// No method allocates.
        ///
        /// ```
        #[doc = concat!("use shyfr::hash::sha2::", stringify!($name), ";")]
        #[doc = concat!("let d = ", stringify!($name), "::digest(b\"abc\");")]
        #[doc = concat!("assert_eq!(d.len(), ", stringify!($out_len), ");")]
        #[doc = concat!("assert_eq!(d[..4], ", $example, ");")]
        /// ```
        #[derive(Clone)]
        pub struct $name {
            core: $core,
        }

        impl $name {
            /// Digest length in bytes.
            pub const OUTPUT_LEN: usize = $out_len;
            /// Input block length in bytes.
            pub const BLOCK_LEN: usize = $block_len;

            /// A fresh state on the fastest backend available.
            #[inline]
            pub fn new() -> Self {
                $name {
                    core: $core::new(&$iv, $kernel::best()),
                }
            }

            /// A fresh state on an explicit backend (for tests and benchmarks);
            /// [`Error::BackendUnavailable`] if this CPU (or `SHYFR_CPU`) does not allow it.
            pub fn with_backend(backend: $backend) -> Result<Self, Error> {
                let kernel = $kernel::checked(backend)?;
                Ok($name {
                    core: $core::new(&$iv, kernel),
                })
            }

            /// The backend this state uses.
            pub fn backend(&self) -> $backend {
                self.core.kernel.backend()
            }

            /// Absorbs `data`.
            #[inline]
            pub fn update(&mut self, data: &[u8]) {
                self.core.update(data);
            }

            /// Finishes and returns the digest.
            #[inline]
            pub fn finalize(mut self) -> [u8; $out_len] {
                let full = self.core.finish();
                let mut out = [0u8; $out_len];
                out.copy_from_slice(&full[..$out_len]);
                out
            }

            /// Returns to the fresh state, keeping the backend.
            #[inline]
            pub fn reset(&mut self) {
                self.core.reset(&$iv);
            }

            /// One-shot digest of `data`.
            #[inline]
            pub fn digest(data: &[u8]) -> [u8; $out_len] {
                let full = $core::oneshot(&$iv, $kernel::best(), data);
                let mut out = [0u8; $out_len];
                out.copy_from_slice(&full[..$out_len]);
                out
            }
        }

        default_and_debug!($name);

        impl Hash for $name {
            const NAME: &'static str = $alg;
            const OUTPUT_LEN: usize = $out_len;
            const BLOCK_LEN: usize = $block_len;
            type Output = [u8; $out_len];

            // `#[inline]` on each: the state is a value of about 120 (SHA-256) or 220
            // bytes, and an out-of-line `finalize` copies it whole into its own frame
            // right after the caller's `update` wrote parts of it.
            #[inline]
            fn new() -> Self {
                $name::new()
            }
            #[inline]
            fn update(&mut self, data: &[u8]) {
                $name::update(self, data)
            }
            #[inline]
            fn finalize(self) -> Self::Output {
                $name::finalize(self)
            }
            #[inline]
            fn reset(&mut self) {
                $name::reset(self)
            }
            #[inline]
            fn digest(data: &[u8]) -> Self::Output {
                $name::digest(data)
            }
            #[inline]
            fn digest_continued(&self, data: &[u8]) -> Self::Output {
                match self.core.continued(data) {
                    Some(full) => {
                        let mut out = [0u8; $out_len];
                        out.copy_from_slice(&full[..$out_len]);
                        out
                    }
                    None => {
                        let mut h = self.clone();
                        h.update(data);
                        h.finalize()
                    }
                }
            }
        }

        impl zeroize::Zeroize for $name {
            /// Overwrites the chaining value, the buffered input and the length, then
            /// leaves a fresh state (on the same backend).
            fn zeroize(&mut self) {
                self.core.wipe(&$iv);
            }
        }
    };
}

/// `digest_many` and `digest_many_with_backend` for a SHA-2 type.
macro_rules! sha2_many {
    ($name:ident, $iv:ident, $out_len:expr, $Many:ident, $ManyBackend:ident, $lanes:literal) => {
        impl $name {
            /// The digest of each of `messages` (of any lengths) into `digests` (one per
            /// message). With the `x86_avx512` backend of
            #[doc = concat!("[`", stringify!($ManyBackend), "`] ", $lanes, " messages of one block count")]
            /// (for instance of one length) are hashed at a time, one in each lane of the
            /// vector registers (faster per message than one by one, even where the CPU has
            /// SHA extensions: BENCHMARKS.md); the messages are gathered by block count
            /// whatever their order, a few counts at a time. Otherwise, and for the few
            /// messages of a count left over, one by one.
            ///
            /// [`Error::LengthMismatch`] if `digests` is not as long as `messages`.
            ///
            /// ```
            #[doc = concat!("use shyfr::hash::sha2::", stringify!($name), ";")]
            /// let msgs: Vec<Vec<u8>> = (0..40u8).map(|i| vec![i; 100]).collect();
            /// let refs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
            #[doc = concat!("let mut out = vec![[0u8; ", stringify!($out_len), "]; refs.len()];")]
            #[doc = concat!(stringify!($name), "::digest_many(&refs, &mut out)?;")]
            #[doc = concat!("assert_eq!(out[7], ", stringify!($name), "::digest(&msgs[7]));")]
            /// # Ok::<(), shyfr::Error>(())
            /// ```
            pub fn digest_many(
                messages: &[&[u8]],
                digests: &mut [[u8; $out_len]],
            ) -> Result<(), Error> {
                Self::many($Many::best(), messages, digests)
            }

            /// [`digest_many`](Self::digest_many) on an explicit backend (for tests and
            /// benchmarks); [`Error::BackendUnavailable`] if it is not available here.
            pub fn digest_many_with_backend(
                backend: $ManyBackend,
                messages: &[&[u8]],
                digests: &mut [[u8; $out_len]],
            ) -> Result<(), Error> {
                Self::many($Many::checked(backend)?, messages, digests)
            }

            fn many(
                kernel: $Many,
                messages: &[&[u8]],
                digests: &mut [[u8; $out_len]],
            ) -> Result<(), Error> {
                super::check_many(messages, digests.len())?;
                kernel.run(&$iv, messages, |i, d| {
                    digests[i].copy_from_slice(&d[..$out_len]);
                });
                Ok(())
            }
        }
    };
}

sha2_type!(
    /// SHA-224 (FIPS 180-4, 6.3): SHA-256 with its own initial value, truncated to 28 bytes.
    Sha224, Core256, Sha256Backend, Kernel256, IV224, 28, 64, "sha224", "[0x23, 0x09, 0x7d, 0x22]"
);
sha2_type!(
    /// SHA-256 (FIPS 180-4, 6.2).
    Sha256, Core256, Sha256Backend, Kernel256, IV256, 32, 64, "sha256", "[0xba, 0x78, 0x16, 0xbf]"
);
sha2_type!(
    /// SHA-384 (FIPS 180-4, 6.5): SHA-512 with its own initial value, truncated to 48 bytes.
    Sha384, Core512, Sha512Backend, Kernel512, IV384, 48, 128, "sha384", "[0xcb, 0x00, 0x75, 0x3f]"
);
sha2_type!(
    /// SHA-512 (FIPS 180-4, 6.4).
    Sha512, Core512, Sha512Backend, Kernel512, IV512, 64, 128, "sha512", "[0xdd, 0xaf, 0x35, 0xa1]"
);
sha2_type!(
    /// SHA-512/224 (FIPS 180-4, 6.7): SHA-512 with its own initial value, truncated to 28
    /// bytes.
    Sha512_224, Core512, Sha512Backend, Kernel512, IV512_224, 28, 128, "sha512-224",
    "[0x46, 0x34, 0x27, 0x0f]"
);
sha2_type!(
    /// SHA-512/256 (FIPS 180-4, 6.7): SHA-512 with its own initial value, truncated to 32
    /// bytes.
    Sha512_256, Core512, Sha512Backend, Kernel512, IV512_256, 32, 128, "sha512-256",
    "[0x53, 0x04, 0x8e, 0x26]"
);

sha2_many!(Sha224, IV224, 28, Many256, Sha256ManyBackend, "sixteen");
sha2_many!(Sha256, IV256, 32, Many256, Sha256ManyBackend, "sixteen");
sha2_many!(Sha384, IV384, 48, Many512, Sha512ManyBackend, "eight");
sha2_many!(Sha512, IV512, 64, Many512, Sha512ManyBackend, "eight");
sha2_many!(
    Sha512_224,
    IV512_224,
    28,
    Many512,
    Sha512ManyBackend,
    "eight"
);
sha2_many!(
    Sha512_256,
    IV512_256,
    32,
    Many512,
    Sha512ManyBackend,
    "eight"
);

#[cfg(test)]
mod tests {
    use super::*;

    /// FIPS 180-4, 5.3.6: the SHA-512/t initial value is SHA-512 of the string
    /// `"SHA-512/t"`, computed from the SHA-512 IV with every word XORed with
    /// `a5a5a5a5a5a5a5a5`.
    fn sha512_t_iv(name: &[u8]) -> [u64; 8] {
        let mut iv = IV512;
        for w in &mut iv {
            *w ^= 0xa5a5_a5a5_a5a5_a5a5;
        }
        let mut core = Core512::new(&iv, Kernel512::Soft);
        core.update(name);
        let out = core.finish();
        let mut words = [0u64; 8];
        for (w, c) in words.iter_mut().zip(out.as_chunks::<8>().0) {
            *w = u64::from_be_bytes(*c);
        }
        words
    }

    #[test]
    fn sha512_t_initial_values() {
        assert_eq!(sha512_t_iv(b"SHA-512/224"), IV512_224);
        assert_eq!(sha512_t_iv(b"SHA-512/256"), IV512_256);
    }

    #[test]
    fn self_tests_pass() {
        for &b in Sha512Backend::ALL {
            if b.cpu_allows() {
                assert!(b.self_test(), "{b:?} failed its self-test");
                assert!(b.is_available());
            }
        }
    }

    #[test]
    fn sha224_iv_is_low_half_of_sha384_iv() {
        // FIPS 180-4, 5.3.2 and 5.3.4: both are the fractional parts of the square roots
        // of the 9th to 16th primes, SHA-224 taking bits 33..64 of each.
        for (a, b) in IV224.iter().zip(IV384) {
            assert_eq!(*a, b as u32);
        }
    }
}
