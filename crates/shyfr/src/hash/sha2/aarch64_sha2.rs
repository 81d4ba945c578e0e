//! SHA-256 with the ARMv8 Cryptographic Extension (Arm ARM, SHA256H, SHA256H2, SHA256SU0,
//! SHA256SU1).
//!
//! The state is two vectors, `ABCD` and `EFGH` (lane 0 first). For four rounds with
//! `wk = W[t..t+4] + K[t..t+4]`, `SHA256H` gives the new `ABCD` and `SHA256H2` the new
//! `EFGH`, both from the old pair. The schedule is `W[t..t+4] =
//! SU1(SU0(W[t-16..], W[t-12..]), W[t-8..], W[t-4..])`.

use core::arch::aarch64::*;

use super::consts::K256;
use crate::cpu::aarch64::Sha2Ce;

/// A 64-byte block as sixteen big-endian 32-bit words, four per vector (SHA-1 and
/// SHA-256 message blocks).
#[inline]
#[target_feature(enable = "neon")]
pub(in crate::hash) fn load_be_words(block: &[u8; 64]) -> [uint32x4_t; 4] {
    let p = block.as_ptr();
    // SAFETY: `block` is 64 readable bytes.
    unsafe {
        [
            vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p))),
            vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p.add(16)))),
            vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p.add(32)))),
            vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p.add(48)))),
        ]
    }
}

/// SHA-256 compression of whole 64-byte blocks into `state`.
#[inline]
pub(super) fn compress(t: Sha2Ce, state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    // SAFETY: the `Sha2Ce` token proves NEON and the SHA256 instructions.
    unsafe { compress_ce(state, blocks, t) }
}

#[target_feature(enable = "neon,sha2")]
fn compress_ce(state: &mut [u32; 8], blocks: &[[u8; 64]], _t: Sha2Ce) {
    // SAFETY: `state` is 32 readable bytes.
    let (mut abcd, mut efgh) =
        unsafe { (vld1q_u32(state.as_ptr()), vld1q_u32(state.as_ptr().add(4))) };
    for block in blocks {
        let (abcd_in, efgh_in) = (abcd, efgh);
        let mut w = load_be_words(block);
        for g in 0..16 {
            // SAFETY: `K256[4 g .. 4 g + 4]` is in bounds (g < 16).
            let k = unsafe { vld1q_u32(K256.as_ptr().add(4 * g)) };
            let wk = vaddq_u32(w[g % 4], k);
            if (3..15).contains(&g) {
                // Group g + 1 into the ring slot of group g - 3.
                w[(g + 1) % 4] = vsha256su1q_u32(
                    vsha256su0q_u32(w[(g + 1) % 4], w[(g + 2) % 4]),
                    w[(g + 3) % 4],
                    w[g % 4],
                );
            }
            let abcd_prev = abcd;
            abcd = vsha256hq_u32(abcd, efgh, wk);
            efgh = vsha256h2q_u32(efgh, abcd_prev, wk);
        }
        abcd = vaddq_u32(abcd, abcd_in);
        efgh = vaddq_u32(efgh, efgh_in);
    }
    // SAFETY: `state` is 32 writable bytes.
    unsafe {
        vst1q_u32(state.as_mut_ptr(), abcd);
        vst1q_u32(state.as_mut_ptr().add(4), efgh);
    }
}
