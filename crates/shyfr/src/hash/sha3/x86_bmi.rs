//! Keccak-f\[1600\] on x86-64 with BMI1 and BMI2: `andn` computes chi's `!b & c` in one
//! instruction (so the lane-complementing transform of the portable code is not needed),
//! and `rorx` rotates for rho and theta without touching the flags or its source.
//!
//! All 25 lanes are local variables (LLVM keeps about two thirds of them in registers and
//! spills the rest); the column parities theta needs are accumulated while chi produces the
//! lanes of the previous round, so a round reads each lane once, and two rounds are unrolled
//! so that pi is a renaming of variables. [`absorb`] XORs the input into the lanes and keeps
//! them in locals across all the blocks of one call.
//!
//! A round is 130 ALU instructions (theta 20 XOR for the parities, 5 `rorx` + 5 XOR for `D`,
//! 25 XOR to apply it; rho 24 `rorx`; chi 25 `andn` + 25 XOR; iota 1 XOR). Zen 3 issues at
//! most four ALU instructions a cycle, and rotations on only two of its ALUs, so the floor
//! is 32.5 cycles a round, 5.7 cycles/byte for SHA3-256; this code measures about 38 cycles
//! a round (6.7 cycles/byte), because every round starts with the five `D` values, which
//! depend on every lane of the previous round, and the pipeline drains there. Measured and
//! rejected on Zen 3: chi column by column (so `D` becomes ready piecewise; LLVM spills far
//! more, 9.3 cycles/byte), four rounds or one round per loop iteration (6.8, 7.4), `rol 1`
//! of theta as `add` + `adc` to unload the two rotating ALUs (6.9), and
//! hand-written assembly with the state in memory (7.3 to 7.7: the store-to-load latency of
//! the lanes written last lands on the same critical path).
//!
//! The instructions have data-independent timing and there is no table look-up, so the
//! kernel is constant time.

use super::consts::{RC, RHO};
use crate::cpu::x86::Bmi;

/// One round (theta, rho, pi, chi, iota) on `a`, whose column parities are `c`; leaves the
/// new state in `a` and its column parities in `c`.
#[inline(always)]
fn round(a: &mut [u64; 25], c: &mut [u64; 5], rc: u64) {
    let s = *a;
    let d0 = c[4] ^ c[1].rotate_left(1);
    let d1 = c[0] ^ c[2].rotate_left(1);
    let d2 = c[1] ^ c[3].rotate_left(1);
    let d3 = c[2] ^ c[4].rotate_left(1);
    let d4 = c[3] ^ c[0].rotate_left(1);

    // One plane of chi on B, stored at `a[o..o + 5]`, folding the outputs into `c`.
    macro_rules! plane {
        ($o:expr, $b0:expr, $b1:expr, $b2:expr, $b3:expr, $b4:expr, $first:expr) => {{
            let (b0, b1, b2, b3, b4) = ($b0, $b1, $b2, $b3, $b4);
            let e0 = b0 ^ (!b1 & b2);
            let e1 = b1 ^ (!b2 & b3);
            let e2 = b2 ^ (!b3 & b4);
            let e3 = b3 ^ (!b4 & b0);
            let e4 = b4 ^ (!b0 & b1);
            a[$o] = e0;
            a[$o + 1] = e1;
            a[$o + 2] = e2;
            a[$o + 3] = e3;
            a[$o + 4] = e4;
            if $first {
                *c = [e0, e1, e2, e3, e4];
            } else {
                c[0] ^= e0;
                c[1] ^= e1;
                c[2] ^= e2;
                c[3] ^= e3;
                c[4] ^= e4;
            }
        }};
    }
    macro_rules! b {
        ($k:literal, $d:ident) => {
            (s[$k] ^ $d).rotate_left(RHO[$k])
        };
    }

    plane!(
        0,
        s[0] ^ d0,
        b!(6, d1),
        b!(12, d2),
        b!(18, d3),
        b!(24, d4),
        true
    );
    a[0] ^= rc;
    c[0] ^= rc;
    plane!(
        5,
        b!(3, d3),
        b!(9, d4),
        b!(10, d0),
        b!(16, d1),
        b!(22, d2),
        false
    );
    plane!(
        10,
        b!(1, d1),
        b!(7, d2),
        b!(13, d3),
        b!(19, d4),
        b!(20, d0),
        false
    );
    plane!(
        15,
        b!(4, d4),
        b!(5, d0),
        b!(11, d1),
        b!(17, d2),
        b!(23, d3),
        false
    );
    plane!(
        20,
        b!(2, d2),
        b!(8, d3),
        b!(14, d4),
        b!(15, d0),
        b!(21, d1),
        false
    );
}

/// The column parities `C[x]` of theta.
#[inline(always)]
fn parities(a: &[u64; 25]) -> [u64; 5] {
    core::array::from_fn(|x| a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20])
}

/// The 24 rounds, two per loop iteration.
#[inline(always)]
fn rounds(a: &mut [u64; 25]) {
    let mut c = parities(a);
    for rc in RC.chunks_exact(2) {
        round(a, &mut c, rc[0]);
        round(a, &mut c, rc[1]);
    }
}

#[target_feature(enable = "bmi1,bmi2")]
fn permute_kernel(lanes: &mut [u64; 25]) {
    let mut a = *lanes;
    rounds(&mut a);
    *lanes = a;
}

/// Absorbs whole blocks of `N` lanes (`rate = 8 N`).
#[inline(always)]
fn absorb_n<const N: usize>(lanes: &mut [u64; 25], blocks: &[u8]) {
    let mut a = *lanes;
    for block in blocks.chunks_exact(8 * N) {
        for (i, lane) in a.iter_mut().enumerate().take(N) {
            let mut w = [0u8; 8];
            w.copy_from_slice(&block[8 * i..8 * i + 8]);
            *lane ^= u64::from_le_bytes(w);
        }
        rounds(&mut a);
    }
    *lanes = a;
}

#[target_feature(enable = "bmi1,bmi2")]
fn absorb_kernel(lanes: &mut [u64; 25], blocks: &[u8], rate: usize) {
    match rate {
        72 => absorb_n::<9>(lanes, blocks),
        104 => absorb_n::<13>(lanes, blocks),
        136 => absorb_n::<17>(lanes, blocks),
        144 => absorb_n::<18>(lanes, blocks),
        168 => absorb_n::<21>(lanes, blocks),
        _ => {
            // Rates of no standard function (any multiple of 8 below 200).
            let n = rate / 8;
            let mut a = *lanes;
            for block in blocks.chunks_exact(rate) {
                for (lane, bytes) in a.iter_mut().zip(block.chunks_exact(8)).take(n) {
                    let mut w = [0u8; 8];
                    w.copy_from_slice(bytes);
                    *lane ^= u64::from_le_bytes(w);
                }
                rounds(&mut a);
            }
            *lanes = a;
        }
    }
}

/// Keccak-f\[1600\] on `lanes`.
pub(super) fn permute(lanes: &mut [u64; 25], _t: Bmi) {
    // SAFETY: the `Bmi` token proves BMI1 and BMI2 are available.
    unsafe { permute_kernel(lanes) }
}

/// XORs each `rate`-byte block of `blocks` into the state and permutes.
pub(super) fn absorb(lanes: &mut [u64; 25], blocks: &[u8], rate: usize, _t: Bmi) {
    // SAFETY: the `Bmi` token proves BMI1 and BMI2 are available.
    unsafe { absorb_kernel(lanes, blocks, rate) }
}
