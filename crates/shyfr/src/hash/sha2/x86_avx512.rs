//! SHA-512 with AVX-512VL and BMI1/BMI2 (x86-64): the message schedule of one block in
//! `xmm` registers, two words a step, computed beside the scalar rounds of the same block,
//! for inputs of every length.
//!
//! `x86_avx2` computes the schedule of the *next* pair of blocks during the rounds of the
//! current pair, which hides it for long inputs but leaves the first pair's schedule, and
//! every lone block, unhidden (it hashes a lone block with the portable rounds). Here a
//! block's own schedule runs ahead of its rounds: its first sixteen words need no
//! schedule, and each group of sixteen rounds makes the next group's words, so the
//! vector work never stalls the rounds. AVX-512VL makes a step short: `σ0` and `σ1` are
//! two `vprorq`, a `vpsrlq` and one `vpternlogq` each (against seven and nine AVX2
//! instructions).
//!
//! The rounds (`round3_text`) are ordered as OpenSSL's AVX2/BMI2 rounds are: each round
//! leaves `Σ0(a)` for the next to add, which starts on its `e` side first. Same
//! instruction count as `x86_avx2`'s rounds, about 8% fewer cycles on Zen 4 (6.5 against
//! 7.1 a round, the rounds alone). The 80 rounds are unrolled: the statement then needs
//! no pointer but the table's (the constants are read relative to `rip`), which leaves
//! the two extra general registers the round order needs.
//!
//! **Speed** (AMD Zen 4, `rdtsc` ticks, best of 200-3000 calls, in one process with
//! RustCrypto `sha2` 0.11): 16 KiB 47,050 ticks against 51,490 before this round order
//! and step placement (when inputs of 32 blocks or more went to `x86_avx2`'s two-block
//! kernel), 1 KiB 3,340 against 3,720, 16 bytes 415 against 450. See BENCHMARKS.md for the comparison with
//! OpenSSL.
//!
//! Everything is additions, rotations, shifts and bitwise logic: constant time.

use core::arch::asm;
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::consts::K512;
use crate::cpu::x86::Avx512Bmi2;

/// SHA-512 compression of whole 128-byte blocks into `state`.
#[inline]
pub(super) fn compress(t: Avx512Bmi2, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    // SAFETY: `Avx512Bmi2` exists only when AVX2, AVX-512F, AVX-512VL, BMI1 and BMI2 are
    // enabled (see `get`).
    unsafe { blocks_avx512(state, blocks, t) }
}

/// The text of one round on renamed registers, in the order of OpenSSL's AVX2/BMI2
/// rounds (the order, not their code): `Σ0` of the round's `a` is left in `{x1}` and added
/// to the new `a` by the *next* round, after that round has started on its `e` side, and
/// `Ch(e, f, g) = (e & f) + (!e & g)` (`andn`) is added to `h` in two halves. `$h` becomes
/// the new `a` (less `Σ0`) and `$d` the new `e`; `$bc` holds `b ^ c` on entry and `$ab`
/// (a temporary until then) holds `a ^ b` on exit, so the two swap names every round;
/// `{x0}` and `{x4}` are temporaries. `W[t] + K[t]` is read from `{wk} + $go + $off`.
///
/// The same 22 arithmetic instructions (and 2 moves) as `x86_avx2`'s `round_text`; on
/// AMD Zen 4 a round takes about 6.5 cycles here against 7.1 (best of 200 runs of 128
/// blocks' rounds, `rdtsc`), since the instructions of the `e` side, the longer path,
/// reach the schedulers first.
#[rustfmt::skip]
macro_rules! round3_text {
    ($a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident $bc:ident $ab:ident
     $go:literal $off:literal) => {
        concat!(
            "add {", stringify!($h), "}, qword ptr [{wk} + ", stringify!($go), " + ", stringify!($off), "]\n",
            "mov {x4}, {", stringify!($f), "}\n",
            "and {x4}, {", stringify!($e), "}\n",
            "rorx {x0}, {", stringify!($e), "}, 41\n",
            "rorx {", stringify!($ab), "}, {", stringify!($e), "}, 18\n",
            "add {", stringify!($a), "}, {x1}\n",
            "add {", stringify!($h), "}, {x4}\n",
            "andn {x4}, {", stringify!($e), "}, {", stringify!($g), "}\n",
            "xor {x0}, {", stringify!($ab), "}\n",
            "rorx {x1}, {", stringify!($e), "}, 14\n",
            "add {", stringify!($h), "}, {x4}\n",
            "xor {x0}, {x1}\n",
            "mov {", stringify!($ab), "}, {", stringify!($a), "}\n",
            "rorx {x4}, {", stringify!($a), "}, 39\n",
            "add {", stringify!($h), "}, {x0}\n",
            "xor {", stringify!($ab), "}, {", stringify!($b), "}\n",
            "rorx {x1}, {", stringify!($a), "}, 34\n",
            "rorx {x0}, {", stringify!($a), "}, 28\n",
            "add {", stringify!($d), "}, {", stringify!($h), "}\n",
            "and {", stringify!($bc), "}, {", stringify!($ab), "}\n",
            "xor {x1}, {x4}\n",
            "xor {", stringify!($bc), "}, {", stringify!($b), "}\n",
            "xor {x1}, {x0}\n",
            "add {", stringify!($h), "}, {", stringify!($bc), "}\n",
        )
    };
}

/// The text of schedule step `j` (0..8) of group `$go / 128` of one block, in two halves:
/// `X[k]` (`W[2k]`, `W[2k+1]` in one `xmm` register, `k = 8 + 8 g + j`) from the ring,
/// as in `x86_avx2`'s `step_text`, and `X[k] + K[2k..2k+2]` stored at `{wk} + 128 + $go +
/// 16 j`, the constants read from the static table `{k}` at the same offset.
#[rustfmt::skip]
macro_rules! step3_text {
    (lo, $go:literal $j:literal, $x8:ident $x7:ident $x4:ident $x3:ident $x1:ident) => {
        concat!(
            "vpalignr {v0}, {", stringify!($x7), "}, {", stringify!($x8), "}, 8\n",
            "vpalignr {v1}, {", stringify!($x3), "}, {", stringify!($x4), "}, 8\n",
            "vpaddq {", stringify!($x8), "}, {", stringify!($x8), "}, {v1}\n",
            "vprorq {v1}, {v0}, 1\n",
            "vprorq {v2}, {v0}, 8\n",
            "vpsrlq {v0}, {v0}, 7\n",
            "vpternlogq {v1}, {v2}, {v0}, 0x96\n",
            "vpaddq {", stringify!($x8), "}, {", stringify!($x8), "}, {v1}\n",
        )
    };
    (hi, $go:literal $j:literal, $x8:ident $x7:ident $x4:ident $x3:ident $x1:ident) => {
        concat!(
            "vprorq {v1}, {", stringify!($x1), "}, 19\n",
            "vprorq {v2}, {", stringify!($x1), "}, 61\n",
            "vpsrlq {v0}, {", stringify!($x1), "}, 6\n",
            "vpternlogq {v1}, {v2}, {v0}, 0x96\n",
            "vpaddq {", stringify!($x8), "}, {", stringify!($x8), "}, {v1}\n",
            "vpaddq {v1}, {", stringify!($x8), "}, xmmword ptr [rip + {k} + 128 + ", stringify!($go), " + 16 * ", stringify!($j), "]\n",
            "vmovdqu xmmword ptr [{wk} + 128 + ", stringify!($go), " + 16 * ", stringify!($j), "], {v1}\n",
        )
    };
}

/// Sixteen rounds (group `$go / 128`) with the eight schedule steps that make the next
/// group's words, one whole step after every two rounds. (On Zen 4 a 16 KiB message took
/// 47,050 `rdtsc` ticks so, 49,190 with half a step after every round as `x86_avx2`
/// spreads them, 47,350 with the step between the two rounds, 48,860 with two steps after
/// every four rounds.)
#[rustfmt::skip]
macro_rules! group3_text {
    ($go:literal) => {
        concat!(
            round3_text!(a b c d e f g h bc t0 $go 0),
            round3_text!(h a b c d e f g t0 bc $go 8),
            step3_text!(lo, $go 0, y0 y1 y4 y5 y7),
            step3_text!(hi, $go 0, y0 y1 y4 y5 y7),
            round3_text!(g h a b c d e f bc t0 $go 16),
            round3_text!(f g h a b c d e t0 bc $go 24),
            step3_text!(lo, $go 1, y1 y2 y5 y6 y0),
            step3_text!(hi, $go 1, y1 y2 y5 y6 y0),
            round3_text!(e f g h a b c d bc t0 $go 32),
            round3_text!(d e f g h a b c t0 bc $go 40),
            step3_text!(lo, $go 2, y2 y3 y6 y7 y1),
            step3_text!(hi, $go 2, y2 y3 y6 y7 y1),
            round3_text!(c d e f g h a b bc t0 $go 48),
            round3_text!(b c d e f g h a t0 bc $go 56),
            step3_text!(lo, $go 3, y3 y4 y7 y0 y2),
            step3_text!(hi, $go 3, y3 y4 y7 y0 y2),
            round3_text!(a b c d e f g h bc t0 $go 64),
            round3_text!(h a b c d e f g t0 bc $go 72),
            step3_text!(lo, $go 4, y4 y5 y0 y1 y3),
            step3_text!(hi, $go 4, y4 y5 y0 y1 y3),
            round3_text!(g h a b c d e f bc t0 $go 80),
            round3_text!(f g h a b c d e t0 bc $go 88),
            step3_text!(lo, $go 5, y5 y6 y1 y2 y4),
            step3_text!(hi, $go 5, y5 y6 y1 y2 y4),
            round3_text!(e f g h a b c d bc t0 $go 96),
            round3_text!(d e f g h a b c t0 bc $go 104),
            step3_text!(lo, $go 6, y6 y7 y2 y3 y5),
            step3_text!(hi, $go 6, y6 y7 y2 y3 y5),
            round3_text!(c d e f g h a b bc t0 $go 112),
            round3_text!(b c d e f g h a t0 bc $go 120),
            step3_text!(lo, $go 7, y7 y0 y3 y4 y6),
            step3_text!(hi, $go 7, y7 y0 y3 y4 y6),
        )
    };
}

/// The round constants as a static, for the schedule steps to address relative to `rip`.
#[repr(C, align(64))]
struct KTable([u64; 80]);
static KTAB: KTable = KTable(K512);

/// The work buffer of one block: `W[t] + K[t]` for the 80 rounds.
#[repr(C, align(64))]
struct Table1([u64; 80]);

/// Each block with the message schedule in `xmm` registers, two words a step, beside the
/// rounds: the block's first sixteen words (with their constants) go to a table before
/// the rounds; then each group of sixteen rounds runs the eight steps that make the next
/// group's words (one step after every two rounds), so the vector work overlaps
/// the scalar rounds and nothing waits for it. The 80 rounds are unrolled (so the
/// constants and the table are addressed by fixed offsets and the statement needs no
/// pointer or counter besides `{wk}`).
#[target_feature(enable = "avx2,bmi1,bmi2,avx512f,avx512vl")]
fn blocks_avx512(state: &mut [u64; 8], blocks: &[[u8; 128]], _t: Avx512Bmi2) {
    // The chaining value stays in registers from block to block.
    let mut st = *state;
    for block in blocks {
        let bswap = _mm_set_epi64x(0x0809_0a0b_0c0d_0e0f, 0x0001_0203_0405_0607);
        let mut table = MaybeUninit::<Table1>::uninit();
        let wk = table.as_mut_ptr().cast::<u8>();
        let y: [__m128i; 8] = core::array::from_fn(|k| {
            // SAFETY: bytes `16k .. 16k + 16` (k < 8) of the block, and words `2k, 2k + 1` of
            // `K512`, are readable; `table` has room for words `2k, 2k + 1`; unaligned
            // accesses are allowed.
            unsafe {
                let x = _mm_shuffle_epi8(_mm_loadu_si128(block.as_ptr().add(16 * k).cast()), bswap);
                let kk = _mm_loadu_si128(K512.as_ptr().add(2 * k).cast());
                _mm_storeu_si128(wk.add(16 * k).cast(), _mm_add_epi64(x, kk));
                x
            }
        });
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = st;
        // SAFETY: `{wk}` points to the 640-byte table: group `g` (0..5) of rounds reads bytes
        // `128 g .. 128 g + 128`, its steps (groups 0..4) write `128 (g + 1) ..` of the next
        // group, all inside the table, and the first 128 bytes were written above. `{k}` is the
        // 640-byte `KTAB`, of which bytes 128 .. 640 are read, 16 at a time. The statement
        // uses no stack. The instructions are base x86-64, BMI1, BMI2, AVX2 and AVX-512F/VL,
        // enabled here.
        unsafe {
            asm!(
                "mov {bc}, {b}",
                "xor {bc}, {c}",
                "xor {x1:e}, {x1:e}",
                group3_text!(0),
                group3_text!(128),
                group3_text!(256),
                group3_text!(384),
                round3_text!(a b c d e f g h bc t0 512 0),
                round3_text!(h a b c d e f g t0 bc 512 8),
                round3_text!(g h a b c d e f bc t0 512 16),
                round3_text!(f g h a b c d e t0 bc 512 24),
                round3_text!(e f g h a b c d bc t0 512 32),
                round3_text!(d e f g h a b c t0 bc 512 40),
                round3_text!(c d e f g h a b bc t0 512 48),
                round3_text!(b c d e f g h a t0 bc 512 56),
                round3_text!(a b c d e f g h bc t0 512 64),
                round3_text!(h a b c d e f g t0 bc 512 72),
                round3_text!(g h a b c d e f bc t0 512 80),
                round3_text!(f g h a b c d e t0 bc 512 88),
                round3_text!(e f g h a b c d bc t0 512 96),
                round3_text!(d e f g h a b c t0 bc 512 104),
                round3_text!(c d e f g h a b bc t0 512 112),
                round3_text!(b c d e f g h a t0 bc 512 120),
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
                options(nostack),
            );
        }
        for (s, x) in st.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *s = s.wrapping_add(x);
        }
    }
    *state = st;
}
