//! SHA-512 with AVX-512VL and BMI2 (x86-64): the message schedule of one block in `xmm`
//! registers, two words a step, computed beside the scalar rounds of the same block, for
//! inputs of every length.
//!
//! The kernel is `x86_avx2`'s (its round text `round_text`, its group text `group_text`
//! and the table it fills) with a shorter schedule step: with AVX-512VL, `σ0` and `σ1`
//! are two `vprorq`, a `vpsrlq` and one `vpternlogq` each (against seven and nine AVX2
//! instructions). A block's first sixteen words need no schedule, and each group of
//! sixteen rounds makes the next group's words, so the vector work never stalls the
//! rounds.
//!
//! Two kernels from one text: `blocks_avx512` with the schedule steps woven into the
//! rounds (`group_text`) for calls of 32 blocks or more, `blocks_avx512_paired` with each
//! step after its two rounds (`paired_group_text`) for shorter calls. In the lab harness
//! (one call timed with `rdtsc`, or batches of calls) the woven kernel was faster at every
//! length, 1 block 338 ticks against 364, 16 KiB 44,750 against 46,566; but in
//! `shyfr-bench` (2026-11-26, AMD Zen 4, best of 300 batches of 16 calls, A/B in one
//! run) the woven kernel alone took 16 bytes and 64 bytes 4-5% faster, 256 bytes 4%,
//! 512 bytes 7%, 1 KiB 2% slower, 2 KiB even, 16 KiB 3-4% faster; the woven kernel for
//! one-block calls too (as the padding block of a 256-byte message) made 256 bytes 12%
//! slower. The cause of the loss on calls of 2 to 16 blocks is not found (not the
//! alignment of the statement: `.p2align 6` changed nothing); with the split, 16 bytes to
//! 2 KiB are as before and 16 KiB 3% faster: 3.96 cycles/byte against OpenSSL's 4.25
//! (1.07x, `--per-call`), 927 MB/s against 860 MB/s (1.08x) streamed. (`x86_avx2`, whose
//! woven kernel had no such loss, uses it for every length.)
//!
//! Also tried on 2026-11-26 and lost: `σ0` of two steps in one `ymm` register, as
//! `x86_avx2` does (two instructions fewer a pair of steps), 0.7% slower at 16 KiB
//! before the weave; `.p2align 6` before the statement, no change.
//!
//! **Speed before** (AMD Zen 4, `rdtsc` ticks, best of 200-3000 calls, in one process with
//! RustCrypto `sha2` 0.11): 16 KiB 47,050 ticks against 51,490 before this round order
//! and step placement (when inputs of 32 blocks or more went to `x86_avx2`'s two-block
//! kernel of then), 1 KiB 3,340 against 3,720, 16 bytes 415 against 450. See
//! BENCHMARKS.md for the comparison with OpenSSL.
//!
//! Everything is additions, rotations, shifts and bitwise logic: constant time.

use core::arch::asm;
use core::mem::MaybeUninit;

use super::x86_avx2::{
    blocks_fn, first_words, group_text, last_group_text, paired_group_text, round_text, weave_text,
    with_round, Table1, KTAB,
};
use crate::cpu::x86::Avx512Bmi2;

/// The fewest blocks for which `compress` uses the woven kernel (`blocks_avx512`); shorter
/// calls use `blocks_avx512_paired` (see the module docs).
const WOVEN_MIN_BLOCKS: usize = 32;

/// SHA-512 compression of whole 128-byte blocks into `state`.
#[inline]
pub(super) fn compress(t: Avx512Bmi2, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    // SAFETY: `Avx512Bmi2` exists only when AVX2, AVX-512F, AVX-512VL, BMI1 and BMI2 are
    // enabled (see `get`).
    unsafe {
        if blocks.len() >= WOVEN_MIN_BLOCKS {
            blocks_avx512(state, blocks, t)
        } else {
            blocks_avx512_paired(state, blocks, t)
        }
    }
}

/// The text of schedule step `j` of group `$go / 128` (see `x86_avx2`'s `group_text`)
/// with AVX-512VL, in two halves: `lo` adds `(X[k-4..k-3] >> 64)` and
/// `σ0(X[k-8..k-7] >> 64)` to `X[k-8]`, `hi` adds `σ1(X[k-1])` and stores `X[k] + K`, the
/// constants read from the static table `{k}` at the offset of the store.
#[rustfmt::skip]
macro_rules! step_avx512_text {
    (lo, $go:literal $j:literal, $x8:ident $x7:ident $x4:ident $x3:ident $x1:ident $x6:ident; $($round:tt)*) => {
        with_round!(($($round)*),
            concat!("vpalignr {v0}, {", stringify!($x7), "}, {", stringify!($x8), "}, 8\n"),
            concat!("vpalignr {v1}, {", stringify!($x3), "}, {", stringify!($x4), "}, 8\n"),
            concat!("vpaddq {", stringify!($x8), "}, {", stringify!($x8), "}, {v1}\n"),
            concat!("vprorq {v1}, {v0}, 1\n"),
            concat!("vprorq {v2}, {v0}, 8\n"),
            concat!("vpsrlq {v0}, {v0}, 7\n"),
            concat!("vpternlogq {v1}, {v2}, {v0}, 0x96\n"),
            concat!("vpaddq {", stringify!($x8), "}, {", stringify!($x8), "}, {v1}\n"),
        )
    };
    (hi, $go:literal $j:literal, $x8:ident $x7:ident $x4:ident $x3:ident $x1:ident $x6:ident; $($round:tt)*) => {
        with_round!(($($round)*),
            concat!("vprorq {v1}, {", stringify!($x1), "}, 19\n"),
            concat!("vprorq {v2}, {", stringify!($x1), "}, 61\n"),
            concat!("vpsrlq {v0}, {", stringify!($x1), "}, 6\n"),
            concat!("vpternlogq {v1}, {v2}, {v0}, 0x96\n"),
            concat!("vpaddq {", stringify!($x8), "}, {", stringify!($x8), "}, {v1}\n"),
            concat!("vpaddq {v1}, {", stringify!($x8), "}, xmmword ptr [rip + {k} + 128 + ", stringify!($go), " + 16 * ", stringify!($j), "]\n"),
            concat!("vmovdqu xmmword ptr [{wk} + 128 + ", stringify!($go), " + 16 * ", stringify!($j), "], {v1}\n"),
        )
    };
}

blocks_fn!(
    /// Each block with the message schedule in `xmm` registers, two words a step, beside the
    /// rounds: the block's first sixteen words (with their constants) go to a table before
    /// the rounds; then each group of sixteen rounds runs the eight steps that make the next
    /// group's words (each step woven into two rounds, see `group_text`), so the vector
    /// work overlaps the scalar rounds and nothing waits for it. The 80 rounds are unrolled (so the
    /// constants and the table are addressed by fixed offsets and the statement needs no
    /// pointer or counter besides `{wk}`).
    blocks_avx512,
    Avx512Bmi2,
    "avx2,bmi1,bmi2,avx512f,avx512vl",
    group_text,
    step_avx512_text,
    [],
    []
);
blocks_fn!(
    /// `blocks_avx512` with each schedule step after its two rounds (`paired_group_text`).
    blocks_avx512_paired,
    Avx512Bmi2,
    "avx2,bmi1,bmi2,avx512f,avx512vl",
    paired_group_text,
    step_avx512_text,
    [],
    []
);
