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
//! The file also holds the kernels of the `digest_many` functions (families `sha256-many`
//! and `sha512-many`): sixteen SHA-256 or eight SHA-512 messages of one block count side by
//! side, message `j` in lane `j` (32 or 64 bits) of every zmm register (state, schedule),
//! so one `vprord`/`vprorq` or `vpternlog` does a step of every message; each block of the
//! messages is loaded as rows and transposed (64 or 24 shuffles), the rounds are the plain
//! FIPS 180-4 ones with the three-input XORs, `Ch` and `Maj` as `vpternlog`. One kernel
//! (`blocks_many`) for both word sizes, the differences in the `Word` trait. No SHA
//! extensions: it wins on the number of messages, not on one message (BENCHMARKS.md).
//!
//! Everything is additions, rotations, shifts and bitwise logic: constant time.

use core::arch::asm;
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::x86_avx2::{
    blocks_fn, first_words, group_text, last_group_text, paired_group_text, round_text, weave_text,
    with_round, Table1, KTAB,
};
use crate::arith::lanes::x86_avx512::{transpose_lanes, transpose_q8};
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
// SHA-256 of sixteen messages, SHA-512 of eight, at once
// ---------------------------------------------------------------------------------------

/// Messages the SHA-256 multi-message kernel hashes side by side.
pub(super) const LANES256: usize = 16;
/// Messages the SHA-512 multi-message kernel hashes side by side.
pub(super) const LANES512: usize = 8;

// SAFETY (of every intrinsic in the `Word` impls and the round helpers below, which name
// this note): they are `#[inline(always)]` into `blocks_many`, their one caller, which
// enables AVX-512 F/VL/BW; none of them touches memory.

/// A SHA-2 word size in the lanes of zmm registers: the operations that differ between
/// SHA-256 (32-bit lanes, sixteen messages) and SHA-512 (64-bit lanes, eight). Every method
/// is inlined into `blocks_many`, where AVX-512 F/VL/BW are enabled.
trait Word {
    /// Messages side by side (lanes per register).
    const LANES: usize;
    /// Rounds per block.
    const ROUNDS: usize;
    /// Lane-wise addition.
    fn add(a: __m512i, b: __m512i) -> __m512i;
    /// `Σ0`, `Σ1`, `σ0`, `σ1` of FIPS 180-4 (4.4 to 4.7, 4.10 to 4.13).
    fn big0(x: __m512i) -> __m512i;
    fn big1(x: __m512i) -> __m512i;
    fn small0(x: __m512i) -> __m512i;
    fn small1(x: __m512i) -> __m512i;
    /// Round constant `t` in every lane.
    fn k(t: usize) -> __m512i;
    /// Big-endian words: the byte swap of each lane.
    fn swap() -> __m512i;
    /// `Self::LANES` registers of `Self::LANES` words transposed (lane `j` of output `t` is
    /// lane `t` of input `j`); `r.len() == Self::LANES`.
    fn transpose(r: &mut [__m512i]);
}

/// `a ^ b ^ c`.
#[inline(always)]
fn xor3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    // SAFETY: see the note above `Word`.
    unsafe { _mm512_ternarylogic_epi64::<0x96>(a, b, c) }
}

/// SHA-256's 32-bit words.
struct W32;
/// SHA-512's 64-bit words.
struct W64;

// SAFETY (for every `unsafe` block in the two impls below): see the note above `Word`.
impl Word for W32 {
    const LANES: usize = LANES256;
    const ROUNDS: usize = 64;
    #[inline(always)]
    fn add(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: see above the impl.
        unsafe { _mm512_add_epi32(a, b) }
    }
    #[inline(always)]
    fn big0(x: __m512i) -> __m512i {
        // SAFETY: see above the impl.
        unsafe {
            xor3(
                _mm512_ror_epi32::<2>(x),
                _mm512_ror_epi32::<13>(x),
                _mm512_ror_epi32::<22>(x),
            )
        }
    }
    #[inline(always)]
    fn big1(x: __m512i) -> __m512i {
        // SAFETY: see above the impl.
        unsafe {
            xor3(
                _mm512_ror_epi32::<6>(x),
                _mm512_ror_epi32::<11>(x),
                _mm512_ror_epi32::<25>(x),
            )
        }
    }
    #[inline(always)]
    fn small0(x: __m512i) -> __m512i {
        // SAFETY: see above the impl.
        unsafe {
            xor3(
                _mm512_ror_epi32::<7>(x),
                _mm512_ror_epi32::<18>(x),
                _mm512_srli_epi32::<3>(x),
            )
        }
    }
    #[inline(always)]
    fn small1(x: __m512i) -> __m512i {
        // SAFETY: see above the impl.
        unsafe {
            xor3(
                _mm512_ror_epi32::<17>(x),
                _mm512_ror_epi32::<19>(x),
                _mm512_srli_epi32::<10>(x),
            )
        }
    }
    #[inline(always)]
    fn k(t: usize) -> __m512i {
        // SAFETY: see above the impl.
        unsafe { _mm512_set1_epi32(super::consts::K256[t] as i32) }
    }
    #[inline(always)]
    fn swap() -> __m512i {
        // SAFETY: see above the impl.
        unsafe {
            _mm512_broadcast_i32x4(_mm_set_epi8(
                12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3,
            ))
        }
    }
    /// 32-bit and 64-bit interleaves, then the lanes (`lanes::transpose_lanes`).
    #[inline(always)]
    fn transpose(r: &mut [__m512i]) {
        // SAFETY: see above the impl.
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
            for m in 0..4 {
                let c = transpose_lanes(b[m], b[4 + m], b[8 + m], b[12 + m]);
                for (l, v) in c.into_iter().enumerate() {
                    r[4 * l + m] = v;
                }
            }
        }
    }
}

impl Word for W64 {
    const LANES: usize = LANES512;
    const ROUNDS: usize = 80;
    #[inline(always)]
    fn add(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: see above the impl.
        unsafe { _mm512_add_epi64(a, b) }
    }
    #[inline(always)]
    fn big0(x: __m512i) -> __m512i {
        // SAFETY: see above the impl.
        unsafe {
            xor3(
                _mm512_ror_epi64::<28>(x),
                _mm512_ror_epi64::<34>(x),
                _mm512_ror_epi64::<39>(x),
            )
        }
    }
    #[inline(always)]
    fn big1(x: __m512i) -> __m512i {
        // SAFETY: see above the impl.
        unsafe {
            xor3(
                _mm512_ror_epi64::<14>(x),
                _mm512_ror_epi64::<18>(x),
                _mm512_ror_epi64::<41>(x),
            )
        }
    }
    #[inline(always)]
    fn small0(x: __m512i) -> __m512i {
        // SAFETY: see above the impl.
        unsafe {
            xor3(
                _mm512_ror_epi64::<1>(x),
                _mm512_ror_epi64::<8>(x),
                _mm512_srli_epi64::<7>(x),
            )
        }
    }
    #[inline(always)]
    fn small1(x: __m512i) -> __m512i {
        // SAFETY: see above the impl.
        unsafe {
            xor3(
                _mm512_ror_epi64::<19>(x),
                _mm512_ror_epi64::<61>(x),
                _mm512_srli_epi64::<6>(x),
            )
        }
    }
    #[inline(always)]
    fn k(t: usize) -> __m512i {
        // SAFETY: see above the impl.
        unsafe { _mm512_set1_epi64(super::consts::K512[t] as i64) }
    }
    #[inline(always)]
    fn swap() -> __m512i {
        // SAFETY: see above the impl.
        unsafe {
            _mm512_broadcast_i32x4(_mm_set_epi8(
                8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
            ))
        }
    }
    /// The shared 8 x 8 transpose of 64-bit words (`lanes::transpose_q8`).
    #[inline(always)]
    fn transpose(r: &mut [__m512i]) {
        let mut v: [__m512i; 8] = core::array::from_fn(|i| r[i]);
        // SAFETY: see above the impl.
        unsafe { transpose_q8(&mut v) };
        r.copy_from_slice(&v);
    }
}

/// One round on every lane: `d += T1`, `h = T1 + T2`, the caller rotating the names; `kw`
/// is `K[t] + W[t]`.
#[inline(always)]
#[allow(clippy::many_single_char_names, clippy::too_many_arguments)]
fn round<W: Word>(
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
    // SAFETY: see the note above `Word`.
    let (ch, maj) = unsafe {
        (
            _mm512_ternarylogic_epi64::<0xca>(e, f, g),
            _mm512_ternarylogic_epi64::<0xe8>(a, b, c),
        )
    };
    let t1 = W::add(W::add(*h, kw), W::add(W::big1(e), ch));
    *d = W::add(*d, t1);
    *h = W::add(t1, W::add(W::big0(a), maj));
}

/// Sixteen rounds from round `base` on the schedule ring `w` (`w[i]` = `W[base + i]`), the
/// state `s` = (a, .., h) ending where it began (the names rotate twice).
#[inline(always)]
fn rounds16<W: Word>(s: &mut [__m512i; 8], w: &[__m512i; 16], base: usize) {
    let k = |i: usize| W::add(w[i], W::k(base + i));
    macro_rules! r8 {
        ($o:expr) => {{
            let [a, b, c, d, e, f, g, h] = s;
            round::<W>(*a, *b, *c, d, *e, *f, *g, h, k($o));
            round::<W>(*h, *a, *b, c, *d, *e, *f, g, k($o + 1));
            round::<W>(*g, *h, *a, b, *c, *d, *e, f, k($o + 2));
            round::<W>(*f, *g, *h, a, *b, *c, *d, e, k($o + 3));
            round::<W>(*e, *f, *g, h, *a, *b, *c, d, k($o + 4));
            round::<W>(*d, *e, *f, g, *h, *a, *b, c, k($o + 5));
            round::<W>(*c, *d, *e, f, *g, *h, *a, b, k($o + 6));
            round::<W>(*b, *c, *d, e, *f, *g, *h, a, k($o + 7));
        }};
    }
    r8!(0);
    r8!(8);
}

/// The next sixteen words of the schedule, in place: `w[i]` becomes `W[t + 16]` for `w[i]`
/// = `W[t]`.
#[inline(always)]
fn schedule16<W: Word>(w: &mut [__m512i; 16]) {
    for i in 0..16 {
        let s = W::add(W::small0(w[(i + 1) % 16]), W::small1(w[(i + 14) % 16]));
        w[i] = W::add(W::add(w[i], w[(i + 9) % 16]), s);
    }
}

/// The input of a multi-message kernel: for each lane `j`, the message's `whole` blocks
/// (`blocks[j]`) then its `tail` padded blocks (`tails[j]`, one or two).
pub(super) struct Lanes<'a, const B: usize> {
    pub(super) blocks: &'a [&'a [[u8; B]]],
    pub(super) whole: usize,
    pub(super) tails: &'a [[[u8; B]; 2]],
    pub(super) tail: usize,
}

/// Compression of the blocks of `W::LANES` messages side by side (`input`), lane `j`
/// holding message `j`, `state[j]` its chaining value (eight words).
///
/// # Safety
///
/// AVX, AVX2 and AVX-512 F/VL/BW are enabled.
#[target_feature(enable = "avx,avx2,avx512f,avx512vl,avx512bw")]
unsafe fn blocks_many<W: Word, S: Copy, const B: usize>(state: &mut [S], input: &Lanes<'_, B>) {
    let n = input.whole + input.tail;
    let block = |b: usize, j: usize| {
        if b < input.whole {
            &input.blocks[j][b]
        } else {
            &input.tails[j][b - input.whole]
        }
    };
    let l = W::LANES;
    // The bytes of a message's block in one register (64), and registers per block.
    let per = B / 64;
    let sz = core::mem::size_of::<S>();
    // SAFETY: the features are enabled here; each load reads inside a block (B bytes) or,
    // masked, a chaining value (`sz` = 32 or 64 bytes); each masked store writes one.
    unsafe {
        let swap = W::swap();
        let z = _mm512_setzero_si512();
        let mut rows = [z; 16];
        // The chaining value's `sz / 4` dwords (a masked load and store read and write no
        // further).
        let mask: __mmask16 = ((1u32 << (sz / 4)) - 1) as __mmask16;
        for (j, st) in state.iter().enumerate() {
            rows[j] = _mm512_maskz_loadu_epi32(mask, (st as *const S).cast());
        }
        W::transpose(&mut rows[..l]);
        let mut s: [__m512i; 8] = core::array::from_fn(|i| rows[i]);
        for b in 0..n {
            let mut w = [z; 16];
            for half in 0..per {
                let mut r = [z; 16];
                for (j, x) in r[..l].iter_mut().enumerate() {
                    let p = block(b, j).as_ptr().add(64 * half);
                    *x = _mm512_shuffle_epi8(_mm512_loadu_si512(p.cast()), swap);
                }
                W::transpose(&mut r[..l]);
                w[l * half..l * (half + 1)].copy_from_slice(&r[..l]);
            }
            let start = s;
            rounds16::<W>(&mut s, &w, 0);
            for base in (16..W::ROUNDS).step_by(16) {
                schedule16::<W>(&mut w);
                rounds16::<W>(&mut s, &w, base);
            }
            for (x, y) in s.iter_mut().zip(start) {
                *x = W::add(*x, y);
            }
        }
        let mut cols = [z; 16];
        cols[..8].copy_from_slice(&s);
        W::transpose(&mut cols[..l]);
        for (j, st) in state.iter_mut().enumerate() {
            _mm512_mask_storeu_epi32((st as *mut S).cast(), mask, cols[j]);
        }
    }
}

/// SHA-256 compression of sixteen messages side by side (see [`Lanes`]).
#[inline]
pub(super) fn compress256_x16(
    _t: crate::cpu::x86::Avx512,
    state: &mut [[u32; 8]; LANES256],
    input: &Lanes<'_, 64>,
) {
    // SAFETY: the `Avx512` token exists only when AVX, AVX2 and AVX-512 F/VL/BW are enabled.
    unsafe { blocks_many::<W32, [u32; 8], 64>(state, input) }
}

/// SHA-512 compression of eight messages side by side (see [`Lanes`]).
#[inline]
pub(super) fn compress512_x8(
    _t: crate::cpu::x86::Avx512,
    state: &mut [[u64; 8]; LANES512],
    input: &Lanes<'_, 128>,
) {
    // SAFETY: the `Avx512` token exists only when AVX, AVX2 and AVX-512 F/VL/BW are enabled.
    unsafe { blocks_many::<W64, [u64; 8], 128>(state, input) }
}
