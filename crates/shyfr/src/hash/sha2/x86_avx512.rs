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
//! **Speed** (AMD Zen 4, `rdtsc` ticks, best of 200-3000 calls, in one process with
//! RustCrypto `sha2` 0.11): 16 KiB 47,050 ticks against 51,490 before this round order
//! and step placement (when inputs of 32 blocks or more went to `x86_avx2`'s two-block
//! kernel of then), 1 KiB 3,340 against 3,720, 16 bytes 415 against 450. See
//! BENCHMARKS.md for the comparison with OpenSSL.
//!
//! Everything is additions, rotations, shifts and bitwise logic: constant time.

use core::arch::asm;
use core::mem::MaybeUninit;

use super::x86_avx2::{first_words, group_text, last_group_text, round_text, Table1, KTAB};
use crate::cpu::x86::Avx512Bmi2;

/// SHA-512 compression of whole 128-byte blocks into `state`.
#[inline]
pub(super) fn compress(t: Avx512Bmi2, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    // SAFETY: `Avx512Bmi2` exists only when AVX2, AVX-512F, AVX-512VL, BMI1 and BMI2 are
    // enabled (see `get`).
    unsafe { blocks_avx512(state, blocks, t) }
}

/// The text of schedule step `j` of group `$go / 128` (see `x86_avx2`'s `group_text`)
/// with AVX-512VL, in two halves: `lo` adds `(X[k-4..k-3] >> 64)` and
/// `σ0(X[k-8..k-7] >> 64)` to `X[k-8]`, `hi` adds `σ1(X[k-1])` and stores `X[k] + K`, the
/// constants read from the static table `{k}` at the offset of the store.
#[rustfmt::skip]
macro_rules! step_avx512_text {
    (lo, $go:literal $j:literal, $x8:ident $x7:ident $x4:ident $x3:ident $x1:ident $x6:ident) => {
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
    (hi, $go:literal $j:literal, $x8:ident $x7:ident $x4:ident $x3:ident $x1:ident $x6:ident) => {
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
        let mut table = MaybeUninit::<Table1>::uninit();
        let y = first_words(block, &mut table);
        let wk = table.as_mut_ptr().cast::<u8>();
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
                group_text!(step_avx512_text, 0),
                group_text!(step_avx512_text, 128),
                group_text!(step_avx512_text, 256),
                group_text!(step_avx512_text, 384),
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
                options(nostack),
            );
        }
        for (s, x) in st.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *s = s.wrapping_add(x);
        }
    }
    *state = st;
}
