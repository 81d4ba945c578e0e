//! SHA-512 with the ARMv8.2 SHA512 instructions (Arm ARM, SHA512H, SHA512H2, SHA512SU0,
//! SHA512SU1; FEAT_SHA512, which Rust's `sha3` target feature covers).
//!
//! The state is four vectors `ab = [a, b]`, `cd`, `ef`, `gh` (lane 0 first). Two rounds
//! with `kw = [K[t] + W[t], K[t+1] + W[t+1]]`:
//!
//! * `SHA512H(gh + [kw1, kw0], [f, g], [d, e])` gives `T = [T1(t+1), T1(t)]`, the first
//!   summands of both rounds (it computes the intermediate `e` itself);
//! * the new `ef` is `cd + T`, and `SHA512H2(T, cd, ab)` gives the new `ab`;
//! * the new `cd` is the old `ab`, the new `gh` the old `ef`.
//!
//! The schedule is `W[t..t+2] = SU1(SU0(W[t-16..], W[t-14..]), W[t-2..], W[t-7..t-5])`.

use core::arch::aarch64::*;

use super::consts::K512;
use crate::cpu::aarch64::Sha512Ce;

/// SHA-512 compression of whole 128-byte blocks into `state`.
#[inline]
pub(super) fn compress(t: Sha512Ce, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    // SAFETY: the `Sha512Ce` token proves NEON and the SHA512 instructions.
    unsafe { compress_ce(state, blocks, t) }
}

#[target_feature(enable = "neon,sha3")]
fn compress_ce(state: &mut [u64; 8], blocks: &[[u8; 128]], _t: Sha512Ce) {
    let s = state.as_ptr();
    // SAFETY: `state` is 64 readable bytes.
    let (mut ab, mut cd, mut ef, mut gh) = unsafe {
        (
            vld1q_u64(s),
            vld1q_u64(s.add(2)),
            vld1q_u64(s.add(4)),
            vld1q_u64(s.add(6)),
        )
    };
    for block in blocks {
        let saved = (ab, cd, ef, gh);
        let p = block.as_ptr();
        let mut w = [vdupq_n_u64(0); 8];
        for (i, wi) in w.iter_mut().enumerate() {
            // SAFETY: `p + 16 i .. p + 16 i + 16` lies in the 128-byte block (i < 8).
            *wi = vreinterpretq_u64_u8(vrev64q_u8(unsafe { vld1q_u8(p.add(16 * i)) }));
        }
        for r in 0..40 {
            // SAFETY: `K512[2 r .. 2 r + 2]` is in bounds (r < 40).
            let k = unsafe { vld1q_u64(K512.as_ptr().add(2 * r)) };
            let kw = vaddq_u64(w[r % 8], k);
            if (7..39).contains(&r) {
                // Pair r + 1 into the ring slot of pair r - 7.
                w[(r + 1) % 8] = vsha512su1q_u64(
                    vsha512su0q_u64(w[(r + 1) % 8], w[(r + 2) % 8]),
                    w[r % 8],
                    vextq_u64::<1>(w[(r + 5) % 8], w[(r + 6) % 8]),
                );
            }
            let t = vaddq_u64(gh, vextq_u64::<1>(kw, kw));
            let t = vsha512hq_u64(t, vextq_u64::<1>(ef, gh), vextq_u64::<1>(cd, ef));
            let new_ef = vaddq_u64(cd, t);
            let new_ab = vsha512h2q_u64(t, cd, ab);
            gh = ef;
            ef = new_ef;
            cd = ab;
            ab = new_ab;
        }
        ab = vaddq_u64(ab, saved.0);
        cd = vaddq_u64(cd, saved.1);
        ef = vaddq_u64(ef, saved.2);
        gh = vaddq_u64(gh, saved.3);
    }
    let s = state.as_mut_ptr();
    // SAFETY: `state` is 64 writable bytes.
    unsafe {
        vst1q_u64(s, ab);
        vst1q_u64(s.add(2), cd);
        vst1q_u64(s.add(4), ef);
        vst1q_u64(s.add(6), gh);
    }
}
