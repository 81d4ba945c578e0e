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
//! (`blocks_many`) for both word sizes, the differences in the `Word` trait. It takes the
//! messages themselves and the initial value: the padded tail rows are masked loads of each
//! message's last bytes with the `0x80` merged in and the length field set after the
//! transpose, the initial value a broadcast, the digests byte-swapped and transposed in
//! registers and stored (no tail buffer to fill and wipe). No SHA extensions: it wins on
//! the number of messages, not on one message (BENCHMARKS.md).
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
// enables AVX-512 F/VL/BW; none of them touches memory but `length_field`'s two loads of
// its own arrays.

/// A SHA-2 word size in the lanes of zmm registers: the operations that differ between
/// SHA-256 (32-bit lanes, sixteen messages) and SHA-512 (64-bit lanes, eight). Every method
/// is inlined into `blocks_many`, where AVX-512 F/VL/BW are enabled.
trait Word {
    /// Messages side by side (lanes per register).
    const LANES: usize;
    /// Rounds per block.
    const ROUNDS: usize;
    /// The word (`u32` or `u64`).
    type Elem: Copy;
    /// `x` in every lane.
    fn splat(x: Self::Elem) -> __m512i;
    /// The padding's length field of each message of `msgs` (one per lane), as the last
    /// two words of a block: (high word, low word) of the length in bits, modulo 2^64
    /// (SHA-256) or 2^128 (SHA-512).
    fn length_field(msgs: &[&[u8]]) -> (__m512i, __m512i);
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
    type Elem = u32;
    #[inline(always)]
    fn splat(x: u32) -> __m512i {
        // SAFETY: see above the impl.
        unsafe { _mm512_set1_epi32(x as i32) }
    }
    #[inline(always)]
    fn length_field(msgs: &[&[u8]]) -> (__m512i, __m512i) {
        let bits = |j: usize| (msgs[j].len() as u64).wrapping_mul(8);
        let hi: [u32; 16] = core::array::from_fn(|j| (bits(j) >> 32) as u32);
        let lo: [u32; 16] = core::array::from_fn(|j| bits(j) as u32);
        // SAFETY: see above the impl; each load reads one array of 64 bytes.
        unsafe {
            (
                _mm512_loadu_si512(hi.as_ptr().cast()),
                _mm512_loadu_si512(lo.as_ptr().cast()),
            )
        }
    }
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
    type Elem = u64;
    #[inline(always)]
    fn splat(x: u64) -> __m512i {
        // SAFETY: see above the impl.
        unsafe { _mm512_set1_epi64(x as i64) }
    }
    #[inline(always)]
    fn length_field(msgs: &[&[u8]]) -> (__m512i, __m512i) {
        // The bit length's high 64 bits are the byte length's top three bits.
        let hi: [u64; 8] = core::array::from_fn(|j| (msgs[j].len() as u64) >> 61);
        let lo: [u64; 8] = core::array::from_fn(|j| (msgs[j].len() as u64).wrapping_mul(8));
        // SAFETY: see above the impl; each load reads one array of 64 bytes.
        unsafe {
            (
                _mm512_loadu_si512(hi.as_ptr().cast()),
                _mm512_loadu_si512(lo.as_ptr().cast()),
            )
        }
    }
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
    // Written out with constant indices: as a loop, LLVM kept the ring on the stack (a
    // store and a reload on every step's chain).
    macro_rules! steps {
        ($($i:literal)*) => {$(
            let s = W::add(W::small0(w[($i + 1) % 16]), W::small1(w[($i + 14) % 16]));
            w[$i] = W::add(W::add(w[$i], w[($i + 9) % 16]), s);
        )*};
    }
    steps!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
}

/// The input of a multi-message kernel: one message per lane (`msgs`, `W::LANES` of them),
/// each of `whole` blocks and `tail` (one or two) more with its padding, which the kernel
/// builds in registers.
pub(super) struct Lanes<'a> {
    pub(super) msgs: &'a [&'a [u8]],
    pub(super) whole: usize,
    pub(super) tail: usize,
}

/// The hash of `W::LANES` messages side by side (`input`), lane `j` holding message `j`,
/// from `iv` in every lane: `out[j]` the big-endian chaining value of message `j` (`D` =
/// eight words of bytes).
///
/// A padded tail row is a masked load of the message's bytes left from that row (none
/// past the message's end is read: a masked-off byte is not accessed), the `0x80` byte
/// merged in at the message's end, and the length field set after the transpose (its
/// bytes are zero there by the choice of `tail`).
///
/// # Safety
///
/// AVX, AVX2 and AVX-512 F/VL/BW are enabled; `input.msgs.len() == W::LANES ==
/// out.len()`; every message is `input.whole * B` bytes or more and its padding fits
/// `input.tail` blocks after them.
#[target_feature(enable = "avx,avx2,avx512f,avx512vl,avx512bw")]
unsafe fn blocks_many<W: Word, const B: usize, const D: usize>(
    iv: &[W::Elem; 8],
    input: &Lanes<'_>,
    out: &mut [[u8; D]],
) {
    let n = input.whole + input.tail;
    let l = W::LANES;
    // The bytes of a message's block in one register (64), and registers per block.
    let per = B / 64;
    // SAFETY: the features are enabled here; a whole-block load reads 64 bytes inside the
    // message's first `whole` blocks; a tail load only the bytes its mask keeps, inside
    // the message (the pointer formed with `wrapping_add`, never dereferenced past it);
    // each masked store writes `D` bytes of one `out` row.
    unsafe {
        let swap = W::swap();
        let z = _mm512_setzero_si512();
        let pad = _mm512_set1_epi8(0x80u8 as i8);
        let mut s: [__m512i; 8] = core::array::from_fn(|i| W::splat(iv[i]));
        for b in 0..n {
            let mut w = [z; 16];
            for half in 0..per {
                let at = B * b + 64 * half;
                let mut r = [z; 16];
                for (x, m) in r.iter_mut().zip(&input.msgs[..l]) {
                    let row = if b < input.whole {
                        _mm512_loadu_si512(m.as_ptr().add(at).cast())
                    } else {
                        // Bytes of the message from `at` on, and the 0x80 right after them
                        // when it falls in this row.
                        let left = m.len().saturating_sub(at);
                        let keep = if left >= 64 { !0 } else { (1u64 << left) - 1 };
                        let end = if m.len() >= at && left < 64 {
                            1u64 << left
                        } else {
                            0
                        };
                        let v = _mm512_maskz_loadu_epi8(keep, m.as_ptr().wrapping_add(at).cast());
                        _mm512_mask_mov_epi8(v, end, pad)
                    };
                    *x = _mm512_shuffle_epi8(row, swap);
                }
                W::transpose(&mut r[..l]);
                w[l * half..l * (half + 1)].copy_from_slice(&r[..l]);
            }
            if b + 1 == n {
                (w[14], w[15]) = W::length_field(input.msgs);
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
        for (c, x) in cols.iter_mut().zip(s) {
            *c = _mm512_shuffle_epi8(x, swap);
        }
        W::transpose(&mut cols[..l]);
        // The row's first `D` bytes (a masked store writes no further).
        let mask: __mmask16 = ((1u32 << (D / 4)) - 1) as __mmask16;
        for (o, c) in out.iter_mut().zip(cols) {
            _mm512_mask_storeu_epi32(o.as_mut_ptr().cast(), mask, c);
        }
    }
}

/// SHA-256 of sixteen messages side by side from `iv` (see [`Lanes`]): `out[j]` the 32
/// bytes of message `j`'s final chaining value.
///
/// # Panics
///
/// If `input` holds other than sixteen messages, or one shorter than its `whole` blocks
/// or too long for its `tail`.
#[inline]
pub(super) fn compress256_x16(
    _t: crate::cpu::x86::Avx512,
    iv: &[u32; 8],
    input: &Lanes<'_>,
    out: &mut [[u8; 32]; LANES256],
) {
    check_lanes::<64>(input, LANES256);
    // SAFETY: the `Avx512` token exists only when AVX, AVX2 and AVX-512 F/VL/BW are
    // enabled; `input` was checked.
    unsafe { blocks_many::<W32, 64, 32>(iv, input, out) }
}

/// SHA-512 of eight messages side by side from `iv` (see [`Lanes`]): `out[j]` the 64
/// bytes of message `j`'s final chaining value.
///
/// # Panics
///
/// As [`compress256_x16`], for eight messages.
#[inline]
pub(super) fn compress512_x8(
    _t: crate::cpu::x86::Avx512,
    iv: &[u64; 8],
    input: &Lanes<'_>,
    out: &mut [[u8; 64]; LANES512],
) {
    check_lanes::<128>(input, LANES512);
    // SAFETY: the `Avx512` token exists only when AVX, AVX2 and AVX-512 F/VL/BW are
    // enabled; `input` was checked.
    unsafe { blocks_many::<W64, 128, 64>(iv, input, out) }
}

/// The contract of `blocks_many` on its input, for block length `B`: `lanes` messages,
/// each of `whole` blocks or more (the loads of whole blocks stay inside); and (a wrong
/// digest otherwise, not a wrong access) each message's rest, its `0x80` byte and its
/// length field (`B / 8` bytes) filling the last of `tail` blocks.
fn check_lanes<const B: usize>(input: &Lanes<'_>, lanes: usize) {
    assert_eq!(input.msgs.len(), lanes);
    for m in input.msgs {
        assert!(m.len() >= B * input.whole);
        let padded = m.len() - B * input.whole + 1 + B / 8;
        debug_assert!(padded <= B * input.tail && padded > B * (input.tail - 1));
    }
}
