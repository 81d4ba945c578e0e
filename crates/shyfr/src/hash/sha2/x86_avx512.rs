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
//! The file also holds the SHA-256 kernel of `Sha256::digest_many` (family `sha256-many`):
//! sixteen messages of one length side by side, message `j` in 32-bit lane `j` of every
//! zmm register (state, schedule), so one `vprord` or `vpternlogd` does a step of sixteen
//! messages; each block of the sixteen is loaded as sixteen rows and transposed (64
//! shuffles), the rounds are the plain FIPS 180-4 ones with the three-input XORs, `Ch`
//! and `Maj` as `vpternlogd`. No SHA extensions: it wins on the number of messages, not
//! on one message (BENCHMARKS.md).
//!
//! Everything is additions, rotations, shifts and bitwise logic: constant time.

use core::arch::asm;
use core::arch::x86_64::*;
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

// ---------------------------------------------------------------------------------------
// SHA-256 of sixteen messages at once
// ---------------------------------------------------------------------------------------

/// Messages the SHA-256 multi-message kernel hashes side by side.
pub(super) const LANES256: usize = 16;

/// Transposes sixteen rows of sixteen 32-bit words: word `t` of row `j` goes to word `j` of
/// row `t` (32-bit and 64-bit interleaves, then two rounds of 128-bit lane shuffles).
#[inline(always)]
fn transpose16(r: [__m512i; 16]) -> [__m512i; 16] {
    // SAFETY: the intrinsics need AVX-512F, enabled in `x16_blocks`, the one caller, into
    // which this is inlined; none touches memory.
    unsafe {
        let a: [__m512i; 16] = core::array::from_fn(|i| {
            let (x, y) = (r[i & !1], r[i | 1]);
            if i % 2 == 0 {
                _mm512_unpacklo_epi32(x, y)
            } else {
                _mm512_unpackhi_epi32(x, y)
            }
        });
        // b[4k + m]: in each 128-bit lane L, word 4L + m of rows 4k .. 4k + 3.
        let b: [__m512i; 16] = core::array::from_fn(|i| {
            let (k, m) = (i / 4, i % 4);
            let (x, y) = (a[4 * k + m / 2], a[4 * k + 2 + m / 2]);
            if m % 2 == 0 {
                _mm512_unpacklo_epi64(x, y)
            } else {
                _mm512_unpackhi_epi64(x, y)
            }
        });
        let mut c = [_mm512_setzero_si512(); 16];
        for m in 0..4 {
            let e0 = _mm512_shuffle_i32x4::<0x44>(b[m], b[4 + m]);
            let e1 = _mm512_shuffle_i32x4::<0xee>(b[m], b[4 + m]);
            let e2 = _mm512_shuffle_i32x4::<0x44>(b[8 + m], b[12 + m]);
            let e3 = _mm512_shuffle_i32x4::<0xee>(b[8 + m], b[12 + m]);
            c[m] = _mm512_shuffle_i32x4::<0x88>(e0, e2);
            c[4 + m] = _mm512_shuffle_i32x4::<0xdd>(e0, e2);
            c[8 + m] = _mm512_shuffle_i32x4::<0x88>(e1, e3);
            c[12 + m] = _mm512_shuffle_i32x4::<0xdd>(e1, e3);
        }
        c
    }
}

/// One SHA-256 round on sixteen lanes: `d += T1`, `h = T1 + T2`, the caller rotating the
/// names; `kw` is `K[t] + W[t]`.
#[inline(always)]
#[allow(clippy::many_single_char_names, clippy::too_many_arguments)]
fn round16(
    a: __m512i,
    b: __m512i,
    c: __m512i,
    d: &mut __m512i,
    e: __m512i,
    f: __m512i,
    g: __m512i,
    h: &mut __m512i,
    kw: __m512i,
) {
    // SAFETY: as in `transpose16`.
    unsafe {
        let s1 = _mm512_ternarylogic_epi32::<0x96>(
            _mm512_ror_epi32::<6>(e),
            _mm512_ror_epi32::<11>(e),
            _mm512_ror_epi32::<25>(e),
        );
        let ch = _mm512_ternarylogic_epi32::<0xca>(e, f, g);
        let t1 = _mm512_add_epi32(_mm512_add_epi32(*h, kw), _mm512_add_epi32(s1, ch));
        let s0 = _mm512_ternarylogic_epi32::<0x96>(
            _mm512_ror_epi32::<2>(a),
            _mm512_ror_epi32::<13>(a),
            _mm512_ror_epi32::<22>(a),
        );
        let maj = _mm512_ternarylogic_epi32::<0xe8>(a, b, c);
        *d = _mm512_add_epi32(*d, t1);
        *h = _mm512_add_epi32(t1, _mm512_add_epi32(s0, maj));
    }
}

/// Sixteen rounds from round `base` on the schedule ring `w` (`w[i]` = `W[base + i]`), the
/// state `s` = (a, .., h) ending where it began (the names rotate twice).
#[inline(always)]
fn rounds16(s: &mut [__m512i; 8], w: &[__m512i; 16], base: usize) {
    // SAFETY: as in `transpose16`.
    let k = |i: usize| unsafe {
        _mm512_add_epi32(
            w[i],
            _mm512_set1_epi32(super::consts::K256[base + i] as i32),
        )
    };
    macro_rules! r8 {
        ($o:expr) => {{
            let [a, b, c, d, e, f, g, h] = s;
            round16(*a, *b, *c, d, *e, *f, *g, h, k($o));
            round16(*h, *a, *b, c, *d, *e, *f, g, k($o + 1));
            round16(*g, *h, *a, b, *c, *d, *e, f, k($o + 2));
            round16(*f, *g, *h, a, *b, *c, *d, e, k($o + 3));
            round16(*e, *f, *g, h, *a, *b, *c, d, k($o + 4));
            round16(*d, *e, *f, g, *h, *a, *b, c, k($o + 5));
            round16(*c, *d, *e, f, *g, *h, *a, b, k($o + 6));
            round16(*b, *c, *d, e, *f, *g, *h, a, k($o + 7));
        }};
    }
    r8!(0);
    r8!(8);
}

/// The next sixteen words of the schedule, in place: `w[i]` becomes `W[t + 16]` for `w[i]`
/// = `W[t]`.
#[inline(always)]
fn schedule16(w: &mut [__m512i; 16]) {
    // SAFETY: as in `transpose16`.
    unsafe {
        for i in 0..16 {
            let x15 = w[(i + 1) % 16];
            let x2 = w[(i + 14) % 16];
            let s0 = _mm512_ternarylogic_epi32::<0x96>(
                _mm512_ror_epi32::<7>(x15),
                _mm512_ror_epi32::<18>(x15),
                _mm512_srli_epi32::<3>(x15),
            );
            let s1 = _mm512_ternarylogic_epi32::<0x96>(
                _mm512_ror_epi32::<17>(x2),
                _mm512_ror_epi32::<19>(x2),
                _mm512_srli_epi32::<10>(x2),
            );
            w[i] = _mm512_add_epi32(
                _mm512_add_epi32(w[i], w[(i + 9) % 16]),
                _mm512_add_epi32(s0, s1),
            );
        }
    }
}

/// SHA-256 compression of `n` blocks of each of sixteen messages side by side, lane `j`
/// holding message `j`: `block(b, j)` is block `b` of message `j`, `state[j]` its chaining
/// value.
///
/// # Safety
///
/// AVX-512F is enabled.
#[target_feature(enable = "avx,avx2,avx512f,avx512vl,avx512bw")]
unsafe fn x16_blocks<'a>(
    state: &mut [[u32; 8]; LANES256],
    n: usize,
    block: impl Fn(usize, usize) -> &'a [u8; 64],
) {
    // SAFETY: the features are enabled here; every load reads a whole 64-byte block.
    unsafe {
        // Big-endian words: a byte swap in each 32-bit element.
        let swap = _mm512_broadcast_i32x4(_mm_set_epi8(
            12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3,
        ));
        let rows: [__m512i; 16] = core::array::from_fn(|j| {
            _mm512_zextsi256_si512(_mm256_loadu_si256(state[j].as_ptr().cast()))
        });
        let st = transpose16(rows);
        let mut s: [__m512i; 8] = core::array::from_fn(|i| st[i]);
        for b in 0..n {
            let rows: [__m512i; 16] = core::array::from_fn(|j| {
                _mm512_shuffle_epi8(_mm512_loadu_si512(block(b, j).as_ptr().cast()), swap)
            });
            let mut w = transpose16(rows);
            let start = s;
            rounds16(&mut s, &w, 0);
            for base in [16, 32, 48] {
                schedule16(&mut w);
                rounds16(&mut s, &w, base);
            }
            for (x, y) in s.iter_mut().zip(start) {
                *x = _mm512_add_epi32(*x, y);
            }
        }
        let z = _mm512_setzero_si512();
        let cols: [__m512i; 16] = core::array::from_fn(|i| if i < 8 { s[i] } else { z });
        let out = transpose16(cols);
        for (j, o) in state.iter_mut().enumerate() {
            let mut row = [0u32; 16];
            _mm512_storeu_si512(row.as_mut_ptr().cast(), out[j]);
            o.copy_from_slice(&row[..8]);
        }
    }
}

/// SHA-256 compression of `n` blocks of sixteen messages side by side (see
/// `x16_blocks`).
#[inline]
pub(super) fn compress256_x16<'a>(
    _t: crate::cpu::x86::Avx512,
    state: &mut [[u32; 8]; LANES256],
    n: usize,
    block: impl Fn(usize, usize) -> &'a [u8; 64],
) {
    // SAFETY: the `Avx512` token exists only when AVX, AVX2 and AVX-512 F/VL/BW are enabled.
    unsafe { x16_blocks(state, n, block) }
}
