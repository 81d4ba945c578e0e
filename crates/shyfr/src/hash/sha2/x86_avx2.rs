//! SHA-512 with AVX2 and BMI2 (x86-64): the message schedule of one block in `xmm`
//! registers, two words a step, computed beside the scalar rounds (`rorx`) of the same
//! block, for inputs of every length.
//!
//! A block's first sixteen words need no schedule, and each group of sixteen rounds makes
//! the next group's words, so the vector work runs ahead of the rounds that read it and
//! never stalls them, for a lone block as for a long message. The vector `X[k]` holds
//! `W[2k], W[2k+1]`, so one schedule step makes two words:
//!
//! `X[k] = X[k-8] + σ0(X[k-8..k-7] >> 64) + (X[k-4..k-3] >> 64) + σ1(X[k-1])`
//!
//! and `X[k] + K[2k..2k+2]` goes to a table that the rounds read. Without AVX-512's
//! `vprorq` and `vpternlogq`, `σ0` is seven instructions (`ror 8` is the byte shuffle
//! `{rot8}`) and `σ1` nine; `σ0`, whose inputs are older, is computed for two steps at
//! once in a `ymm` register (five instructions fewer a pair of steps: on Zen 4 with
//! AVX-512 masked, 16 KiB 3% and 16 bytes 3% faster, 256 bytes 3% slower, in the same
//! runs).
//!
//! The schedule instructions are woven into the rounds (`weave_text`): one after every
//! three round instructions, a step's `lo` half in the first of its two rounds and its
//! `hi` half in the second. On AMD Zen 4 with AVX-512 masked that made this kernel 7%
//! faster at 16 KiB (49,450 `rdtsc` ticks against 46,050, best of 375 calls) and 3% to 6%
//! faster from 16 bytes to 1 KiB (`shyfr-bench --per-call`, against the steps placed
//! whole after their two rounds): when a step's fifteen vector instructions came in one
//! run, they took dispatch slots from the rounds in bursts.
//!
//! This file also holds the round text (`round_text`), the weave and the group texts
//! (`group_text`, `paired_group_text`) that `x86_avx512` uses with its own, shorter step
//! text: the two backends differ only in the step.
//!
//! The rounds (`round_text`) are ordered as OpenSSL's AVX2/BMI2 rounds are (the order,
//! not their code): each round leaves `Σ0(a)` for the next to add, which starts on its
//! `e` side first. The 80 rounds are unrolled: the statement then needs no pointer but
//! the table's (the constants are read relative to `rip`), which leaves the two extra
//! general registers the round order needs.
//!
//! This replaced a kernel (after Gueron and Krasnov, 2012) that computed the schedule of
//! the *next pair* of blocks, in `ymm`, during the rounds of the current pair: that hid
//! the schedule for long inputs but left the first pair's, and every lone block (hashed
//! with the portable rounds), unhidden. See the module docs of `sha2` for speeds.
//!
//! Everything is additions, rotations, shifts and bitwise logic: constant time.

use core::arch::asm;
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::consts::K512;
use crate::cpu::x86::Avx2Bmi2;

/// SHA-512 compression of whole 128-byte blocks into `state`.
#[inline]
pub(super) fn compress(t: Avx2Bmi2, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    // SAFETY: `Avx2Bmi2` exists only when AVX, AVX2 and BMI2 are enabled (see `get`).
    unsafe { blocks_avx2(state, blocks, t) }
}

/// The text of one round on renamed registers, in the order of OpenSSL's AVX2/BMI2
/// rounds: `Σ0` of the round's `a` is left in `{x1}` and added to the new `a` by the
/// *next* round, after that round has started on its `e` side, and
/// `Ch(e, f, g) = ((f ^ g) & e) ^ g`. `$h` becomes the new `a` (less `Σ0`) and `$d` the
/// new `e`; `$bc` holds `b ^ c` on entry and `$ab` (a temporary until then) holds `a ^ b`
/// on exit, so the two swap names every round; `{x0}` and `{x4}` are temporaries.
/// `W[t] + K[t]` is read from `{wk} + $go + $off`.
///
/// 22 arithmetic instructions and 2 moves, base x86-64 and BMI2 (`rorx`). (`Ch` as
/// `(e & f) + (!e & g)`, with BMI1's `andn` and one addition more but one `xor` fewer,
/// ran at the same speed on AMD Zen 4 with `x86_avx512`; each further instruction costs
/// about 3.5%: adding `Ch` and `Σ1` to `d` and `h` separately, which shortens the path
/// from `e` to the new `e` by a cycle at the price of two additions, was 7% slower.)
///
/// Zen 4 runs rotations (`rorx`, `ror`) on two of its four integer ALUs (measured: two a
/// cycle, against four for `xor`, `andn` or a two-register `lea`), so a round's six
/// rotations hold those two for three cycles. Measured on 2026-11-26 with `x86_avx512`
/// (16 KiB, `rdtsc` ticks, before the weave; this order 46,566): 80 random orders
/// of the same instructions that keep their dependences, 46,644 to 57,720; about 90 moves
/// of one instruction from this order, none faster (most the same to the tick, some up to
/// 7.5% slower); `Σ0` added to the new `a` in its own round, 2.7% slower; two `nop`s a
/// round, 2.2% slower (dispatch slots count, so the two moves do too).
#[rustfmt::skip]
macro_rules! round_text {
    ($a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident $bc:ident $ab:ident
     $go:literal $off:literal $(, $v:expr)* $(,)?) => {
        weave_text!([
            concat!("add {", stringify!($h), "}, qword ptr [{wk} + ", stringify!($go), " + ", stringify!($off), "]\n"),
            concat!("mov {x4}, {", stringify!($f), "}\n"),
            concat!("xor {x4}, {", stringify!($g), "}\n"),
            concat!("rorx {x0}, {", stringify!($e), "}, 41\n"),
            concat!("rorx {", stringify!($ab), "}, {", stringify!($e), "}, 18\n"),
            concat!("and {x4}, {", stringify!($e), "}\n"),
            concat!("add {", stringify!($a), "}, {x1}\n"),
            concat!("xor {x4}, {", stringify!($g), "}\n"),
            concat!("xor {x0}, {", stringify!($ab), "}\n"),
            concat!("rorx {x1}, {", stringify!($e), "}, 14\n"),
            concat!("add {", stringify!($h), "}, {x4}\n"),
            concat!("xor {x0}, {x1}\n"),
            concat!("mov {", stringify!($ab), "}, {", stringify!($a), "}\n"),
            concat!("rorx {x4}, {", stringify!($a), "}, 39\n"),
            concat!("add {", stringify!($h), "}, {x0}\n"),
            concat!("xor {", stringify!($ab), "}, {", stringify!($b), "}\n"),
            concat!("rorx {x1}, {", stringify!($a), "}, 34\n"),
            concat!("rorx {x0}, {", stringify!($a), "}, 28\n"),
            concat!("add {", stringify!($d), "}, {", stringify!($h), "}\n"),
            concat!("and {", stringify!($bc), "}, {", stringify!($ab), "}\n"),
            concat!("xor {x1}, {x4}\n"),
            concat!("xor {", stringify!($bc), "}, {", stringify!($b), "}\n"),
            concat!("xor {x1}, {x0}\n"),
            concat!("add {", stringify!($h), "}, {", stringify!($bc), "}\n"),
        ] [$($v,)*])
    };
}
pub(super) use round_text;

/// Three round instructions, then one schedule instruction, until one list runs out; then
/// the rest of the other. (A round is 24 instructions: eight places for schedule
/// instructions; `x86_avx2`'s longer halves put the rest after the round.)
#[rustfmt::skip]
macro_rules! weave_text {
    ([$r0:expr, $r1:expr, $r2:expr, $($r:expr,)*] [$v:expr, $($w:expr,)*]) => {
        concat!($r0, $r1, $r2, $v, weave_text!([$($r,)*] [$($w,)*]))
    };
    ([$($r:expr,)*] [$($w:expr,)*]) => { concat!($($r,)* $($w,)*) };
}
pub(super) use weave_text;

/// Schedule instructions `$v`: woven into the round `$round` (the arguments of
/// `round_text`) if one is given, else on their own.
#[rustfmt::skip]
macro_rules! with_round {
    ((), $($v:expr),* $(,)?) => { concat!($($v),*) };
    (($($round:tt)+), $($v:expr),* $(,)?) => { round_text!($($round)+, $($v),*) };
}
pub(super) use with_round;

/// Sixteen rounds (group `$go / 128`) with the eight schedule steps that make the next
/// group's words, one whole step (`$step!(lo, ..)` then `$step!(hi, ..)`) after every two
/// rounds. `$step` is the backend's step text: step `j` (0..8) of group `$go / 128` makes
/// `X[k]`, `k = 8 + 8 g + j`, from the ring operands `$x8 = X[k-8]` (which becomes
/// `X[k]`), `$x7 = X[k-7]`, `$x4 = X[k-4]`, `$x3 = X[k-3]`, `$x1 = X[k-1]` and
/// `$x6 = X[k-6]`, and stores
/// `X[k] + K[2k..2k+2]` at `{wk} + 128 + $go + 16 j`. Each step is woven into its two
/// rounds: its `lo` half into the first (`$step!(lo, .., ; round)` hands the round to
/// `round_text`), its `hi` half into the second. (On Zen 4 with `x86_avx512`, 16 KiB in
/// `rdtsc` ticks, in the lab harness of 2026-11-26: woven 44,750-44,850; the whole step
/// after its two rounds (`paired_group_text`) 46,566; the same with the step before its
/// two rounds 46,670; woven one vector instruction after every two round instructions
/// 45,916; each step cut in two, three, four or eight pieces spread over its rounds
/// 46,748, 46,410, 46,826, 45,890; no step at all (wrong digests, for timing) 44,720, so
/// woven the schedule costs nothing measurable. Earlier, with the whole step after its
/// rounds: 47,050 so, 49,190 with half a step after every round, 47,350 with the step
/// between the two rounds, 48,860 with two steps after every four rounds.)
#[rustfmt::skip]
macro_rules! group_text {
    ($step:ident, $go:literal) => {
        concat!(
            $step!(lo, $go 0, y0 y1 y4 y5 y7 y2; a b c d e f g h bc t0 $go 0),
            $step!(hi, $go 0, y0 y1 y4 y5 y7 y2; h a b c d e f g t0 bc $go 8),
            $step!(lo, $go 1, y1 y2 y5 y6 y0 y3; g h a b c d e f bc t0 $go 16),
            $step!(hi, $go 1, y1 y2 y5 y6 y0 y3; f g h a b c d e t0 bc $go 24),
            $step!(lo, $go 2, y2 y3 y6 y7 y1 y4; e f g h a b c d bc t0 $go 32),
            $step!(hi, $go 2, y2 y3 y6 y7 y1 y4; d e f g h a b c t0 bc $go 40),
            $step!(lo, $go 3, y3 y4 y7 y0 y2 y5; c d e f g h a b bc t0 $go 48),
            $step!(hi, $go 3, y3 y4 y7 y0 y2 y5; b c d e f g h a t0 bc $go 56),
            $step!(lo, $go 4, y4 y5 y0 y1 y3 y6; a b c d e f g h bc t0 $go 64),
            $step!(hi, $go 4, y4 y5 y0 y1 y3 y6; h a b c d e f g t0 bc $go 72),
            $step!(lo, $go 5, y5 y6 y1 y2 y4 y7; g h a b c d e f bc t0 $go 80),
            $step!(hi, $go 5, y5 y6 y1 y2 y4 y7; f g h a b c d e t0 bc $go 88),
            $step!(lo, $go 6, y6 y7 y2 y3 y5 y0; e f g h a b c d bc t0 $go 96),
            $step!(hi, $go 6, y6 y7 y2 y3 y5 y0; d e f g h a b c t0 bc $go 104),
            $step!(lo, $go 7, y7 y0 y3 y4 y6 y1; c d e f g h a b bc t0 $go 112),
            $step!(hi, $go 7, y7 y0 y3 y4 y6 y1; b c d e f g h a t0 bc $go 120),
        )
    };
}
pub(super) use group_text;

/// `group_text` with each step after its two rounds instead of woven into them: two rounds,
/// then the step's `lo` and `hi` halves (the layout before the weave; `x86_avx512` keeps
/// it for calls of fewer than 32 blocks, see there).
#[rustfmt::skip]
macro_rules! paired_group_text {
    ($step:ident, $go:literal) => {
        concat!(
            round_text!(a b c d e f g h bc t0 $go 0),
            round_text!(h a b c d e f g t0 bc $go 8),
            $step!(lo, $go 0, y0 y1 y4 y5 y7 y2;),
            $step!(hi, $go 0, y0 y1 y4 y5 y7 y2;),
            round_text!(g h a b c d e f bc t0 $go 16),
            round_text!(f g h a b c d e t0 bc $go 24),
            $step!(lo, $go 1, y1 y2 y5 y6 y0 y3;),
            $step!(hi, $go 1, y1 y2 y5 y6 y0 y3;),
            round_text!(e f g h a b c d bc t0 $go 32),
            round_text!(d e f g h a b c t0 bc $go 40),
            $step!(lo, $go 2, y2 y3 y6 y7 y1 y4;),
            $step!(hi, $go 2, y2 y3 y6 y7 y1 y4;),
            round_text!(c d e f g h a b bc t0 $go 48),
            round_text!(b c d e f g h a t0 bc $go 56),
            $step!(lo, $go 3, y3 y4 y7 y0 y2 y5;),
            $step!(hi, $go 3, y3 y4 y7 y0 y2 y5;),
            round_text!(a b c d e f g h bc t0 $go 64),
            round_text!(h a b c d e f g t0 bc $go 72),
            $step!(lo, $go 4, y4 y5 y0 y1 y3 y6;),
            $step!(hi, $go 4, y4 y5 y0 y1 y3 y6;),
            round_text!(g h a b c d e f bc t0 $go 80),
            round_text!(f g h a b c d e t0 bc $go 88),
            $step!(lo, $go 5, y5 y6 y1 y2 y4 y7;),
            $step!(hi, $go 5, y5 y6 y1 y2 y4 y7;),
            round_text!(e f g h a b c d bc t0 $go 96),
            round_text!(d e f g h a b c t0 bc $go 104),
            $step!(lo, $go 6, y6 y7 y2 y3 y5 y0;),
            $step!(hi, $go 6, y6 y7 y2 y3 y5 y0;),
            round_text!(c d e f g h a b bc t0 $go 112),
            round_text!(b c d e f g h a t0 bc $go 120),
            $step!(lo, $go 7, y7 y0 y3 y4 y6 y1;),
            $step!(hi, $go 7, y7 y0 y3 y4 y6 y1;),
        )
    };
}
pub(super) use paired_group_text;

/// The last sixteen rounds (group 4), which make no schedule.
#[rustfmt::skip]
macro_rules! last_group_text {
    () => {
        concat!(
            round_text!(a b c d e f g h bc t0 512 0),
            round_text!(h a b c d e f g t0 bc 512 8),
            round_text!(g h a b c d e f bc t0 512 16),
            round_text!(f g h a b c d e t0 bc 512 24),
            round_text!(e f g h a b c d bc t0 512 32),
            round_text!(d e f g h a b c t0 bc 512 40),
            round_text!(c d e f g h a b bc t0 512 48),
            round_text!(b c d e f g h a t0 bc 512 56),
            round_text!(a b c d e f g h bc t0 512 64),
            round_text!(h a b c d e f g t0 bc 512 72),
            round_text!(g h a b c d e f bc t0 512 80),
            round_text!(f g h a b c d e t0 bc 512 88),
            round_text!(e f g h a b c d bc t0 512 96),
            round_text!(d e f g h a b c t0 bc 512 104),
            round_text!(c d e f g h a b bc t0 512 112),
            round_text!(b c d e f g h a t0 bc 512 120),
        )
    };
}
pub(super) use last_group_text;

/// The text of schedule step `j` of group `$go / 128` (see `group_text`) with AVX2, in
/// two halves: `lo` adds `(X[k-4..k-3] >> 64)` and `σ0(X[k-8..k-7] >> 64)` to `X[k-8]`,
/// with `σ0 = ror 1 ^ ror 8 ^ shr 7` (`ror 8` is the byte shuffle `{rot8}`); `hi` adds
/// `σ1(X[k-1])`, `σ1 = ror 19 ^ ror 61 ^ shr 6`, and stores `X[k] + K`, the constants
/// read from the static table `{k}` at the offset of the store. The `lo` half of an even
/// step computes `σ0` for itself and the next step in one `ymm` register, from
/// `[X[k-8], X[k-7]]` and `[X[k-7], X[k-6]]` (`vpalignr` shifts within each 128-bit
/// lane), and leaves the next step's in `{v3}`, which the odd step's `lo` adds.
#[rustfmt::skip]
macro_rules! step_avx2_text {
    (lo, $go:tt $j:tt, $x8:ident $x7:ident $x4:ident $x3:ident $x1:ident $x6:ident; $($round:tt)*) => {
        step_avx2_text!(@lo $j, $x8 $x7 $x4 $x3 $x6; $($round)*)
    };
    (@lo 0, $($r:ident)*; $($round:tt)*) => { step_avx2_text!(@even $($r)*; $($round)*) };
    (@lo 2, $($r:ident)*; $($round:tt)*) => { step_avx2_text!(@even $($r)*; $($round)*) };
    (@lo 4, $($r:ident)*; $($round:tt)*) => { step_avx2_text!(@even $($r)*; $($round)*) };
    (@lo 6, $($r:ident)*; $($round:tt)*) => { step_avx2_text!(@even $($r)*; $($round)*) };
    (@lo $j:tt, $($r:ident)*; $($round:tt)*) => { step_avx2_text!(@odd $($r)*; $($round)*) };
    (@even $x8:ident $x7:ident $x4:ident $x3:ident $x6:ident; $($round:tt)*) => {
        with_round!(($($round)*),
            concat!("vinserti128 {v0:y}, {", stringify!($x8), ":y}, {", stringify!($x7), "}, 1\n"),
            concat!("vinserti128 {v1:y}, {", stringify!($x7), ":y}, {", stringify!($x6), "}, 1\n"),
            concat!("vpalignr {v0:y}, {v1:y}, {v0:y}, 8\n"),
            concat!("vpsrlq {v1:y}, {v0:y}, 1\n"),
            concat!("vpsllq {v2:y}, {v0:y}, 63\n"),
            concat!("vpxor {v1:y}, {v1:y}, {v2:y}\n"),
            concat!("vpsrlq {v2:y}, {v0:y}, 7\n"),
            concat!("vpxor {v1:y}, {v1:y}, {v2:y}\n"),
            concat!("vpshufb {v0:y}, {v0:y}, {rot8:y}\n"),
            concat!("vpxor {v1:y}, {v1:y}, {v0:y}\n"),
            concat!("vextracti128 {v3}, {v1:y}, 1\n"),
            concat!("vpalignr {v0}, {", stringify!($x3), "}, {", stringify!($x4), "}, 8\n"),
            concat!("vpaddq {", stringify!($x8), "}, {", stringify!($x8), "}, {v0}\n"),
            concat!("vpaddq {", stringify!($x8), "}, {", stringify!($x8), "}, {v1}\n"),
        )
    };
    (@odd $x8:ident $x7:ident $x4:ident $x3:ident $x6:ident; $($round:tt)*) => {
        with_round!(($($round)*),
            concat!("vpalignr {v0}, {", stringify!($x3), "}, {", stringify!($x4), "}, 8\n"),
            concat!("vpaddq {", stringify!($x8), "}, {", stringify!($x8), "}, {v0}\n"),
            concat!("vpaddq {", stringify!($x8), "}, {", stringify!($x8), "}, {v3}\n"),
        )
    };
    (hi, $go:literal $j:literal, $x8:ident $x7:ident $x4:ident $x3:ident $x1:ident $x6:ident; $($round:tt)*) => {
        with_round!(($($round)*),
            concat!("vpsrlq {v1}, {", stringify!($x1), "}, 6\n"),
            concat!("vpsllq {v2}, {", stringify!($x1), "}, 3\n"),
            concat!("vpxor {v1}, {v1}, {v2}\n"),
            concat!("vpsrlq {v0}, {", stringify!($x1), "}, 19\n"),
            concat!("vpxor {v1}, {v1}, {v0}\n"),
            concat!("vpsllq {v2}, {v2}, 42\n"),
            concat!("vpxor {v1}, {v1}, {v2}\n"),
            concat!("vpsrlq {v0}, {v0}, 42\n"),
            concat!("vpxor {v1}, {v1}, {v0}\n"),
            concat!("vpaddq {", stringify!($x8), "}, {", stringify!($x8), "}, {v1}\n"),
            concat!("vpaddq {v1}, {", stringify!($x8), "}, xmmword ptr [rip + {k} + 128 + ", stringify!($go), " + 16 * ", stringify!($j), "]\n"),
            concat!("vmovdqu xmmword ptr [{wk} + 128 + ", stringify!($go), " + 16 * ", stringify!($j), "], {v1}\n"),
        )
    };
}

/// The round constants as a static, for the schedule steps to address relative to `rip`.
#[repr(C, align(64))]
pub(super) struct KTable(pub(super) [u64; 80]);
pub(super) static KTAB: KTable = KTable(K512);

/// The work buffer of one block: `W[t] + K[t]` for the 80 rounds.
#[repr(C, align(64))]
pub(super) struct Table1(pub(super) [u64; 80]);

/// The first sixteen words of `block` (byte-swapped) in eight `xmm` vectors, and with
/// their constants in the first 128 bytes of `table`.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn first_words(block: &[u8; 128], table: &mut MaybeUninit<Table1>) -> [__m128i; 8] {
    let wk = table.as_mut_ptr().cast::<u8>();
    let bswap = _mm_set_epi64x(0x0809_0a0b_0c0d_0e0f, 0x0001_0203_0405_0607);
    core::array::from_fn(|k| {
        // SAFETY: bytes `16k .. 16k + 16` (k < 8) of the block, and words `2k, 2k + 1` of
        // `K512`, are readable; the table has room for words `2k, 2k + 1`; unaligned
        // accesses are allowed.
        unsafe {
            let x = _mm_shuffle_epi8(_mm_loadu_si128(block.as_ptr().add(16 * k).cast()), bswap);
            let kk = _mm_loadu_si128(K512.as_ptr().add(2 * k).cast());
            _mm_storeu_si128(wk.add(16 * k).cast(), _mm_add_epi64(x, kk));
            x
        }
    })
}

/// A kernel `$name` over whole blocks (`$tok` its CPU token, `$features` the target
/// features it enables): each block's first sixteen words (with their constants) go to a
/// table, then one `asm!` statement runs the four groups `$group!($step, ..)` and the last
/// group (`last_group_text`). `$pre` are statements run once per call and `$extra` the
/// further operands of the statement (the step text's own registers). The chaining value
/// stays in registers from block to block. The 80 rounds are unrolled, so the constants and
/// the table are addressed by fixed offsets and the statement needs no pointer or counter
/// besides `{wk}`.
macro_rules! blocks_fn {
    ($(#[$doc:meta])* $name:ident, $tok:ty, $features:literal, $group:ident, $step:ident,
     [$($pre:tt)*], [$($extra:tt)*]) => {
        $(#[$doc])*
        #[target_feature(enable = $features)]
        fn $name(state: &mut [u64; 8], blocks: &[[u8; 128]], _t: $tok) {
            $($pre)*
            let mut st = *state;
            for block in blocks {
                let mut table = MaybeUninit::<Table1>::uninit();
                let y = first_words(block, &mut table);
                let wk = table.as_mut_ptr().cast::<u8>();
                let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = st;
                // SAFETY: `{wk}` points to the 640-byte table: group `g` (0..5) of rounds
                // reads bytes `128 g .. 128 g + 128`, its steps (groups 0..4) write
                // `128 (g + 1) ..` of the next group, all inside the table, and the first 128
                // bytes were written above. `{k}` is the 640-byte `KTAB`, of which bytes
                // 128 .. 640 are read, 16 at a time. The statement uses no stack. The
                // instructions are base x86-64 and those of the target features enabled
                // here.
                unsafe {
                    asm!(
                        "mov {bc}, {b}",
                        "xor {bc}, {c}",
                        "xor {x1:e}, {x1:e}",
                        $group!($step, 0),
                        $group!($step, 128),
                        $group!($step, 256),
                        $group!($step, 384),
                        last_group_text!(),
                        "add {a}, {x1}",
                        a = inout(reg) a,
                        b = inout(reg) b,
                        c = inout(reg) c,
                        d = inout(reg) d,
                        e = inout(reg) e,
                        f = inout(reg) f,
                        g = inout(reg) g,
                        h = inout(reg) h,
                        bc = out(reg) _,
                        t0 = out(reg) _,
                        x0 = out(reg) _,
                        x1 = out(reg) _,
                        x4 = out(reg) _,
                        wk = in(reg) wk,
                        k = sym KTAB,
                        y0 = inout(xmm_reg) y[0] => _,
                        y1 = inout(xmm_reg) y[1] => _,
                        y2 = inout(xmm_reg) y[2] => _,
                        y3 = inout(xmm_reg) y[3] => _,
                        y4 = inout(xmm_reg) y[4] => _,
                        y5 = inout(xmm_reg) y[5] => _,
                        y6 = inout(xmm_reg) y[6] => _,
                        y7 = inout(xmm_reg) y[7] => _,
                        v0 = out(xmm_reg) _,
                        v1 = out(xmm_reg) _,
                        v2 = out(xmm_reg) _,
                        $($extra)*
                        options(nostack),
                    );
                }
                for (s, x) in st.iter_mut().zip([a, b, c, d, e, f, g, h]) {
                    *s = s.wrapping_add(x);
                }
            }
            *state = st;
        }
    };
}
pub(super) use blocks_fn;

blocks_fn!(
    /// Each block with the message schedule in `xmm` registers, two words a step, beside
    /// the rounds: the block's first sixteen words (with their constants) go to a table
    /// before the rounds; then each group of sixteen rounds runs the eight steps that make
    /// the next group's words (each step woven into two rounds, see `group_text`), so the
    /// vector work overlaps the scalar rounds and nothing waits for it.
    blocks_avx2,
    Avx2Bmi2,
    "avx2,bmi2",
    group_text,
    step_avx2_text,
    [
        // Rotates each 64-bit word right by 8 bits.
        let rot8 = _mm256_set_epi64x(
            0x080f_0e0d_0c0b_0a09,
            0x0007_0605_0403_0201,
            0x080f_0e0d_0c0b_0a09,
            0x0007_0605_0403_0201,
        );
    ],
    [rot8 = in(ymm_reg) rot8, v3 = out(xmm_reg) _,]
);
