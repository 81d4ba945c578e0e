//! Keccak-f\[1600\] with the ARMv8.2 SHA-3 instructions (FEAT_SHA3; Arm ARM, "EOR3", "RAX1",
//! "XAR", "BCAX"), one lane per NEON register (lane 0 of each `uint64x2_t`).
//!
//! | step  | instruction | computes |
//! |-------|-------------|----------|
//! | theta | `EOR3` x2   | `C[x]`, the XOR of a column, five lanes in two instructions |
//! | theta | `RAX1`      | `D[x] = C[x-1] ^ rotl(C[x+1], 1)` |
//! | rho   | `XAR`       | `rotr(A ^ D, 64 - r)`: theta's XOR and rho's rotation at once |
//! | chi   | `BCAX`      | `B[x] ^ (B[x+2] & !B[x+1])` |
//!
//! The 25 state lanes stay in registers across all rounds and all blocks of one call; the
//! instructions have data-independent timing, so the kernel is constant time.

use core::arch::aarch64::*;

use super::consts::{RC, RHO};
use crate::cpu::aarch64::Sha3Ce;

type State = [uint64x2_t; 25];

/// `rotl(a ^ d, RHO[k])` with `XAR` (which rotates right).
macro_rules! xar {
    ($a:expr, $d:expr, $k:literal) => {
        vxarq_u64::<{ ((64 - RHO[$k]) % 64) as i32 }>($a, $d)
    };
}

#[inline]
#[target_feature(enable = "neon,sha3")]
fn round(a: State, rc: u64) -> State {
    let c0 = veor3q_u64(veor3q_u64(a[0], a[5], a[10]), a[15], a[20]);
    let c1 = veor3q_u64(veor3q_u64(a[1], a[6], a[11]), a[16], a[21]);
    let c2 = veor3q_u64(veor3q_u64(a[2], a[7], a[12]), a[17], a[22]);
    let c3 = veor3q_u64(veor3q_u64(a[3], a[8], a[13]), a[18], a[23]);
    let c4 = veor3q_u64(veor3q_u64(a[4], a[9], a[14]), a[19], a[24]);
    let d0 = vrax1q_u64(c4, c1);
    let d1 = vrax1q_u64(c0, c2);
    let d2 = vrax1q_u64(c1, c3);
    let d3 = vrax1q_u64(c2, c4);
    let d4 = vrax1q_u64(c3, c0);

    // B[x, y] = rotl(A[(x + 3 y) % 5, x] ^ D, r): rho and pi, plane by plane.
    let b = [
        // y = 0
        veorq_u64(a[0], d0),
        xar!(a[6], d1, 6),
        xar!(a[12], d2, 12),
        xar!(a[18], d3, 18),
        xar!(a[24], d4, 24),
        // y = 1
        xar!(a[3], d3, 3),
        xar!(a[9], d4, 9),
        xar!(a[10], d0, 10),
        xar!(a[16], d1, 16),
        xar!(a[22], d2, 22),
        // y = 2
        xar!(a[1], d1, 1),
        xar!(a[7], d2, 7),
        xar!(a[13], d3, 13),
        xar!(a[19], d4, 19),
        xar!(a[20], d0, 20),
        // y = 3
        xar!(a[4], d4, 4),
        xar!(a[5], d0, 5),
        xar!(a[11], d1, 11),
        xar!(a[17], d2, 17),
        xar!(a[23], d3, 23),
        // y = 4
        xar!(a[2], d2, 2),
        xar!(a[8], d3, 8),
        xar!(a[14], d4, 14),
        xar!(a[15], d0, 15),
        xar!(a[21], d1, 21),
    ];

    // chi: A[x, y] = B[x, y] ^ (!B[x+1, y] & B[x+2, y]) = BCAX(B[x], B[x+2], B[x+1]).
    let mut out = b;
    for y in 0..5 {
        for x in 0..5 {
            out[5 * y + x] =
                vbcaxq_u64(b[5 * y + x], b[5 * y + (x + 2) % 5], b[5 * y + (x + 1) % 5]);
        }
    }
    // iota
    out[0] = veorq_u64(out[0], vdupq_n_u64(rc));
    out
}

#[inline]
#[target_feature(enable = "neon,sha3")]
fn rounds(mut a: State) -> State {
    for rc in RC.chunks_exact(2) {
        a = round(a, rc[0]);
        a = round(a, rc[1]);
    }
    a
}

#[inline]
#[target_feature(enable = "neon,sha3")]
fn load(lanes: &[u64; 25]) -> State {
    core::array::from_fn(|i| vdupq_n_u64(lanes[i]))
}

#[inline]
#[target_feature(enable = "neon,sha3")]
fn store(a: &State, lanes: &mut [u64; 25]) {
    for (l, v) in lanes.iter_mut().zip(a.iter()) {
        *l = vgetq_lane_u64::<0>(*v);
    }
}

#[target_feature(enable = "neon,sha3")]
fn permute_kernel(lanes: &mut [u64; 25]) {
    let a = rounds(load(lanes));
    store(&a, lanes);
}

#[target_feature(enable = "neon,sha3")]
fn absorb_kernel(lanes: &mut [u64; 25], blocks: &[u8], rate: usize) {
    let n = rate / 8;
    let mut a = load(lanes);
    for block in blocks.chunks_exact(rate) {
        // The rate is at most 21 lanes (SHAKE128); the bound is public.
        for i in 0..21 {
            if i < n {
                let mut w = [0u8; 8];
                w.copy_from_slice(&block[8 * i..8 * i + 8]);
                a[i] = veorq_u64(a[i], vdupq_n_u64(u64::from_le_bytes(w)));
            }
        }
        a = rounds(a);
    }
    store(&a, lanes);
}

/// Keccak-f\[1600\] on `lanes`.
pub(super) fn permute(lanes: &mut [u64; 25], _t: Sha3Ce) {
    // SAFETY: the `Sha3Ce` token proves NEON and the SHA-3 instructions are available.
    unsafe { permute_kernel(lanes) }
}

/// XORs each `rate`-byte block of `blocks` into the state and permutes.
pub(super) fn absorb(lanes: &mut [u64; 25], blocks: &[u8], rate: usize, _t: Sha3Ce) {
    debug_assert!(rate <= 168);
    // SAFETY: the `Sha3Ce` token proves NEON and the SHA-3 instructions are available.
    unsafe { absorb_kernel(lanes, blocks, rate) }
}
