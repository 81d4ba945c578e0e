//! Carry-less multiplication with the ARMv8 `PMULL`/`PMULL2` instructions (Arm ARM,
//! FEAT_PMULL: 64 x 64-bit polynomial multiply): Karatsuba products and the GCM-field
//! Montgomery reduction (see the parent module), shared by GHASH and the fused AES-GCM
//! engine. Blocks are byte-reversed into reflected integers with `REV64` + `EXT`.

use core::arch::aarch64::*;

#[inline(always)]
pub(crate) fn load(b: &[u8; 16]) -> uint64x2_t {
    // SAFETY: `b` is 16 readable bytes; NEON is part of the aarch64 baseline.
    unsafe { vreinterpretq_u64_u8(vld1q_u8(b.as_ptr())) }
}

#[inline(always)]
pub(crate) fn store(b: &mut [u8; 16], x: uint64x2_t) {
    // SAFETY: `b` is 16 writable bytes; NEON is part of the aarch64 baseline.
    unsafe { vst1q_u8(b.as_mut_ptr(), vreinterpretq_u8_u64(x)) }
}

/// Reverses the 16 bytes: GCM order to the reflected integer and back.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn bswap(x: uint64x2_t) -> uint64x2_t {
    let r = vreinterpretq_u64_u8(vrev64q_u8(vreinterpretq_u8_u64(x)));
    vextq_u64::<1>(r, r)
}

/// Swaps the two 64-bit halves.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn swap(x: uint64x2_t) -> uint64x2_t {
    vextq_u64::<1>(x, x)
}

/// Low half times low half (`PMULL`).
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn pmull_lo(a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
    vreinterpretq_u64_p128(vmull_p64(vgetq_lane_u64::<0>(a), vgetq_lane_u64::<0>(b)))
}

/// High half times high half (`PMULL2`).
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn pmull_hi(a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
    vreinterpretq_u64_p128(vmull_high_p64(
        vreinterpretq_p64_u64(a),
        vreinterpretq_p64_u64(b),
    ))
}

/// The unreduced Karatsuba terms of `a * h`; `hk` holds `h.lo ^ h.hi` in its low half.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn mul3(
    a: uint64x2_t,
    h: uint64x2_t,
    hk: uint64x2_t,
) -> (uint64x2_t, uint64x2_t, uint64x2_t) {
    let lo = pmull_lo(a, h);
    let hi = pmull_hi(a, h);
    let mid = pmull_lo(veorq_u64(a, swap(a)), hk);
    (lo, hi, mid)
}

/// The 256-bit product from summed terms, reduced (Montgomery by `y^128` modulo `P*`).
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn finish(lo: uint64x2_t, hi: uint64x2_t, mid: uint64x2_t) -> uint64x2_t {
    let z = vdupq_n_u64(0);
    let mid = veorq_u64(mid, veorq_u64(lo, hi));
    let lo = veorq_u64(lo, vextq_u64::<1>(z, mid));
    let hi = veorq_u64(hi, vextq_u64::<1>(mid, z));
    let k = vsetq_lane_u64::<0>(0xc200_0000_0000_0000, z);
    let u = veorq_u64(swap(lo), pmull_lo(lo, k));
    let v = veorq_u64(swap(u), pmull_lo(u, k));
    veorq_u64(hi, v)
}
