//! Carry-less multiplication on 128-bit registers with PCLMULQDQ (Intel SDM Vol. 2B,
//! PCLMULQDQ; SSSE3 PSHUFB for the byte reversal): Karatsuba products and the GCM-field
//! Montgomery reduction (see the parent module), shared by GHASH and the fused AES-GCM
//! engines.

use core::arch::x86_64::*;

#[inline(always)]
pub(crate) fn load(b: &[u8; 16]) -> __m128i {
    // SAFETY: `b` is 16 readable bytes; unaligned loads are allowed; SSE2 is baseline.
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

#[inline(always)]
pub(crate) fn store(b: &mut [u8; 16], x: __m128i) {
    // SAFETY: `b` is 16 writable bytes; SSE2 is baseline.
    unsafe { _mm_storeu_si128(b.as_mut_ptr().cast(), x) }
}

/// `tw(H)` of the GCM-order key `h`, as a register.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn twisted(h: &[u8; 16]) -> __m128i {
    let t = super::soft::twist(u128::from_be_bytes(*h));
    _mm_set_epi64x((t >> 64) as i64, t as i64)
}

/// Reverses the 16 bytes: GCM order to the reflected integer and back.
#[inline]
#[target_feature(enable = "ssse3")]
pub(crate) fn bswap(x: __m128i) -> __m128i {
    _mm_shuffle_epi8(
        x,
        _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
    )
}

/// The unreduced product terms of `a * h` (Karatsuba): low, high, and middle (with the low
/// and high terms still in it). `hk` holds `h.lo ^ h.hi` in its low half.
#[inline]
#[target_feature(enable = "pclmulqdq")]
pub(crate) fn mul3(a: __m128i, h: __m128i, hk: __m128i) -> (__m128i, __m128i, __m128i) {
    let lo = _mm_clmulepi64_si128::<0x00>(a, h);
    let hi = _mm_clmulepi64_si128::<0x11>(a, h);
    let ak = _mm_xor_si128(a, _mm_shuffle_epi32::<0x4e>(a));
    let mid = _mm_clmulepi64_si128::<0x00>(ak, hk);
    (lo, hi, mid)
}

/// Combines summed Karatsuba terms into the 256-bit product and reduces it (Montgomery, by
/// `y^128`, modulo `P*`): the result is the reflected field element.
#[inline]
#[target_feature(enable = "pclmulqdq")]
pub(crate) fn finish(lo: __m128i, hi: __m128i, mid: __m128i) -> __m128i {
    let mid = _mm_xor_si128(mid, _mm_xor_si128(lo, hi));
    let lo = _mm_xor_si128(lo, _mm_slli_si128::<8>(mid));
    let hi = _mm_xor_si128(hi, _mm_srli_si128::<8>(mid));
    let k = _mm_set_epi64x(0, 0xc200_0000_0000_0000_u64 as i64);
    // Fold the low 64 bits, then the next 64 (each: swap halves, add the product by K).
    let u = _mm_xor_si128(
        _mm_shuffle_epi32::<0x4e>(lo),
        _mm_clmulepi64_si128::<0x00>(lo, k),
    );
    let v = _mm_xor_si128(
        _mm_shuffle_epi32::<0x4e>(u),
        _mm_clmulepi64_si128::<0x00>(u, k),
    );
    _mm_xor_si128(hi, v)
}

/// `a * b` for twisted / reflected operands `a`, `b` (one full multiplication).
#[inline]
#[target_feature(enable = "pclmulqdq")]
pub(crate) fn mul(a: __m128i, b: __m128i) -> __m128i {
    let bk = _mm_xor_si128(b, _mm_shuffle_epi32::<0x4e>(b));
    let (lo, hi, mid) = mul3(a, b, bk);
    finish(lo, hi, mid)
}
