//! SHA-512 with AVX-512VL and BMI2 (x86-64): the message schedule of one block in `xmm`
//! registers, two words a step, computed beside the scalar rounds of the same block; long
//! inputs go to the two-block kernel of [`x86_avx2`](super::x86_avx2).
//!
//! `x86_avx2` computes the schedule of the *next* pair of blocks during the rounds of the
//! current pair, which hides it for long inputs but leaves the first pair's schedule, and
//! every lone block, unhidden (it hashes a lone block with the portable rounds). Here a
//! block's own schedule runs ahead of its rounds: its first sixteen words need no
//! schedule, and each group of sixteen rounds makes the next group's words, so the
//! vector work never stalls the rounds. AVX-512VL makes a step short: `σ0` and `σ1` are
//! two `vprorq`, a `vpsrlq` and one `vpternlogq` each (against seven and nine AVX2
//! instructions). The rounds are `x86_avx2`'s `round_text`.
//!
//! **Speed** (AMD Zen 4, best of 200 alternating trials in one process, cycles at an
//! estimated 3.67 GHz): 16-byte message 41.4 cycles/byte against 64 for `x86_avx2`
//! (660 against 1030 cycles), 128 bytes 9.8 against 15.3, 256 bytes 7.1 against 10.8,
//! 1 KiB 5.2 against 6.1 (OpenSSL 3.0: 90, 15.5, 9.8, 5.5). From [`LONG`] blocks the
//! two-block kernel of `x86_avx2` is faster (16 KiB: 4.45 against 4.54 for this kernel
//! block by block), so those go there. Both kernels' rounds run at about 7.1 cycles a
//! round on Zen 4 whatever the schedule costs (with the schedule taken out, the same
//! speed), so AVX-512 cannot make long messages faster here.
//!
//! Everything is additions, rotations, shifts and bitwise logic: constant time.

use core::arch::asm;
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::consts::K512;
use super::x86_avx2::round_text;
use crate::cpu::x86::{Avx2Bmi2, Avx512Bmi2};

/// Inputs of this many blocks or more go to `x86_avx2`'s two-block kernel (at 32 blocks
/// both run at 4.7 cycles/byte on Zen 4).
pub(super) const LONG: usize = 32;

/// SHA-512 compression of whole 128-byte blocks into `state`. `t2` is `x86_avx2`'s proof,
/// which `t` implies.
#[inline]
pub(super) fn compress(t: Avx512Bmi2, t2: Avx2Bmi2, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    if blocks.len() >= LONG {
        super::x86_avx2::compress(t2, state, blocks);
    } else {
        for block in blocks {
            // SAFETY: `Avx512Bmi2` exists only when AVX2, AVX-512F, AVX-512VL and BMI2 are
            // enabled (see `get`).
            unsafe { one_block_avx512(state, block, t) }
        }
    }
}

/// The text of schedule step `j` (0..8) of one block, in two halves: `X[k]` (`W[2k]`,
/// `W[2k+1]` in one `xmm` register) from the ring, as in `x86_avx2`'s `step_text`, and
/// `X[k] + K[2k..2k+2]` stored 128 bytes past `{wk}` plus `16 j`, the constants read from
/// `{kp}` plus `16 j`.
#[rustfmt::skip]
macro_rules! step1_text {
    (lo, $j:literal, $x8:ident $x7:ident $x4:ident $x3:ident $x1:ident) => {
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
    (hi, $j:literal, $x8:ident $x7:ident $x4:ident $x3:ident $x1:ident) => {
        concat!(
            "vprorq {v1}, {", stringify!($x1), "}, 19\n",
            "vprorq {v2}, {", stringify!($x1), "}, 61\n",
            "vpsrlq {v0}, {", stringify!($x1), "}, 6\n",
            "vpternlogq {v1}, {v2}, {v0}, 0x96\n",
            "vpaddq {", stringify!($x8), "}, {", stringify!($x8), "}, {v1}\n",
            "vpaddq {v1}, {", stringify!($x8), "}, xmmword ptr [{kp} + 16 * ", stringify!($j), "]\n",
            "vmovdqu xmmword ptr [{wk} + 128 + 16 * ", stringify!($j), "], {v1}\n",
        )
    };
}

/// The work buffer of one block: `W[t] + K[t]` for the 80 rounds.
#[repr(C, align(64))]
struct Table1([u64; 80]);

/// One block with the message schedule in `xmm` registers, two words a step, beside the
/// rounds: the block's first sixteen words (with their constants) go to a table before
/// the rounds; then each group of sixteen rounds runs the eight steps that make the next
/// group's words (one step per two rounds, split in halves as `x86_avx2`'s pair kernel does), so the vector work
/// overlaps the scalar rounds and nothing waits for it.
#[target_feature(enable = "avx2,bmi2,avx512f,avx512vl")]
fn one_block_avx512(state: &mut [u64; 8], block: &[u8; 128], _t: Avx512Bmi2) {
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
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    // Where the steps of the first group find their constants, and where the loop ends.
    let kp = K512.as_ptr().wrapping_add(16);
    let kend = K512.as_ptr().wrapping_add(80);
    // SAFETY: `{wk}` points to the 640-byte table: rounds read `[wk + 0 .. wk + 128)` of
    // each group (wk advancing by 128 bytes, four times), steps write the next group's
    // 128 bytes (`wk + 128 ..`), all inside the table, and the first 128 bytes were written
    // above. `{kp}` points into `K512` (words 16 .. 80 are read, 16 bytes a step). The
    // statement pushes 8 bytes on the stack (no `nostack`) and pops them before it ends.
    // The instructions are base x86-64, BMI2, AVX2 and AVX-512F/VL, enabled here.
    unsafe {
        asm!(
            "push {kend}",
            "mov {bc}, {b}",
            "xor {bc}, {c}",
            ".p2align 6",
            "2:",
            round_text!(a b c d e f g h bc t0 0),
            step1_text!(lo, 0, y0 y1 y4 y5 y7),
            round_text!(h a b c d e f g t0 bc 8),
            step1_text!(hi, 0, y0 y1 y4 y5 y7),
            round_text!(g h a b c d e f bc t0 16),
            step1_text!(lo, 1, y1 y2 y5 y6 y0),
            round_text!(f g h a b c d e t0 bc 24),
            step1_text!(hi, 1, y1 y2 y5 y6 y0),
            round_text!(e f g h a b c d bc t0 32),
            step1_text!(lo, 2, y2 y3 y6 y7 y1),
            round_text!(d e f g h a b c t0 bc 40),
            step1_text!(hi, 2, y2 y3 y6 y7 y1),
            round_text!(c d e f g h a b bc t0 48),
            step1_text!(lo, 3, y3 y4 y7 y0 y2),
            round_text!(b c d e f g h a t0 bc 56),
            step1_text!(hi, 3, y3 y4 y7 y0 y2),
            round_text!(a b c d e f g h bc t0 64),
            step1_text!(lo, 4, y4 y5 y0 y1 y3),
            round_text!(h a b c d e f g t0 bc 72),
            step1_text!(hi, 4, y4 y5 y0 y1 y3),
            round_text!(g h a b c d e f bc t0 80),
            step1_text!(lo, 5, y5 y6 y1 y2 y4),
            round_text!(f g h a b c d e t0 bc 88),
            step1_text!(hi, 5, y5 y6 y1 y2 y4),
            round_text!(e f g h a b c d bc t0 96),
            step1_text!(lo, 6, y6 y7 y2 y3 y5),
            round_text!(d e f g h a b c t0 bc 104),
            step1_text!(hi, 6, y6 y7 y2 y3 y5),
            round_text!(c d e f g h a b bc t0 112),
            step1_text!(lo, 7, y7 y0 y3 y4 y6),
            round_text!(b c d e f g h a t0 bc 120),
            step1_text!(hi, 7, y7 y0 y3 y4 y6),
            "add {wk}, 128",
            "add {kp}, 128",
            "cmp {kp}, qword ptr [rsp]",
            "jne 2b",
            round_text!(a b c d e f g h bc t0 0),
            round_text!(h a b c d e f g t0 bc 8),
            round_text!(g h a b c d e f bc t0 16),
            round_text!(f g h a b c d e t0 bc 24),
            round_text!(e f g h a b c d bc t0 32),
            round_text!(d e f g h a b c t0 bc 40),
            round_text!(c d e f g h a b bc t0 48),
            round_text!(b c d e f g h a t0 bc 56),
            round_text!(a b c d e f g h bc t0 64),
            round_text!(h a b c d e f g t0 bc 72),
            round_text!(g h a b c d e f bc t0 80),
            round_text!(f g h a b c d e t0 bc 88),
            round_text!(e f g h a b c d bc t0 96),
            round_text!(d e f g h a b c t0 bc 104),
            round_text!(c d e f g h a b bc t0 112),
            round_text!(b c d e f g h a t0 bc 120),
            "add rsp, 8",
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
            t1 = out(reg) _,
            wk = inout(reg) wk => _,
            kp = inout(reg) kp => _,
            kend = in(reg) kend,
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
        );
    }
    for (s, x) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(x);
    }
}
