//! SHA-1 with the ARMv8 Cryptographic Extension (Arm ARM, SHA1C, SHA1P, SHA1M, SHA1H,
//! SHA1SU0, SHA1SU1; Rust's `sha2` target feature covers them).
//!
//! `ABCD` is one vector (lane 0 = A) and `E` a scalar. Four rounds with
//! `wk = W[t..t+4] + K`: `SHA1C` (choose), `SHA1P` (parity) or `SHA1M` (majority) give the
//! new `ABCD`, and the next `E` is `SHA1H(A)` = `A` rotated by 30, taken before the rounds.
//! The schedule is `W[t..t+4] = SU1(SU0(W[t-16..], W[t-12..], W[t-8..]), W[t-4..])`.

use core::arch::aarch64::*;

use super::K;
use crate::cpu::aarch64::Sha2Ce;
use crate::hash::sha2::aarch64_sha2::load_be_words;

/// SHA-1 compression of whole 64-byte blocks into `state`.
#[inline]
pub(super) fn compress(t: Sha2Ce, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // SAFETY: the `Sha2Ce` token proves NEON and the SHA1/SHA256 instructions.
    unsafe { compress_ce(state, blocks, t) }
}

#[target_feature(enable = "neon,sha2")]
fn compress_ce(state: &mut [u32; 5], blocks: &[[u8; 64]], _t: Sha2Ce) {
    // SAFETY: `state` has at least 16 readable bytes.
    let mut abcd = unsafe { vld1q_u32(state.as_ptr()) };
    let mut e = state[4];
    for block in blocks {
        let (abcd_in, e_in) = (abcd, e);
        let mut w = load_be_words(block);
        for g in 0..20 {
            let wk = vaddq_u32(w[g % 4], vdupq_n_u32(K[g / 5]));
            if (3..19).contains(&g) {
                // Group g + 1 into the ring slot of group g - 3.
                w[(g + 1) % 4] = vsha1su1q_u32(
                    vsha1su0q_u32(w[(g + 1) % 4], w[(g + 2) % 4], w[(g + 3) % 4]),
                    w[g % 4],
                );
            }
            let e_next = vsha1h_u32(vgetq_lane_u32::<0>(abcd));
            abcd = match g / 5 {
                0 => vsha1cq_u32(abcd, e, wk),
                2 => vsha1mq_u32(abcd, e, wk),
                _ => vsha1pq_u32(abcd, e, wk),
            };
            e = e_next;
        }
        abcd = vaddq_u32(abcd, abcd_in);
        e = e.wrapping_add(e_in);
    }
    // SAFETY: `state` has at least 16 writable bytes.
    unsafe { vst1q_u32(state.as_mut_ptr(), abcd) };
    state[4] = e;
}
