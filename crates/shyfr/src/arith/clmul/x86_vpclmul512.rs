//! Carry-less multiplication on 512-bit registers with VPCLMULQDQ and AVX-512 (four 128-bit
//! lanes): the Karatsuba terms of four blocks at a time, and the fold of the four lanes
//! into one reduction (the 128-bit code of `x86_pclmul`). Shared by GHASH and the fused
//! AES-GCM engine on zmm registers.

use core::arch::x86_64::*;

use super::x86_pclmul::finish;

/// PSHUFB mask reversing the 16 bytes of each lane (GCM order to the reflected integer).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) fn rev_mask() -> __m512i {
    _mm512_broadcast_i32x4(_mm_set_epi8(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    ))
}

/// Adds the Karatsuba terms of `x * h` (lane by lane) to `t` = (low, high, middle);
/// `hk` holds each lane's `h.lo ^ h.hi` in its low half.
#[inline]
#[target_feature(enable = "avx512f,vpclmulqdq")]
pub(crate) fn karatsuba(t: &mut [__m512i; 3], x: __m512i, h: __m512i, hk: __m512i) {
    t[0] = _mm512_xor_si512(t[0], _mm512_clmulepi64_epi128::<0x00>(x, h));
    t[1] = _mm512_xor_si512(t[1], _mm512_clmulepi64_epi128::<0x11>(x, h));
    let xk = _mm512_xor_si512(x, _mm512_shuffle_epi32::<_MM_PERM_BADC>(x));
    t[2] = _mm512_xor_si512(t[2], _mm512_clmulepi64_epi128::<0x00>(xk, hk));
}

/// Folds the four 128-bit lanes of `v` into one.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn fold(v: __m512i) -> __m128i {
    let a = _mm512_castsi512_si256(v);
    let b = _mm512_extracti64x4_epi64::<1>(v);
    let s = _mm256_xor_si256(a, b);
    _mm_xor_si128(_mm256_castsi256_si128(s), _mm256_extracti128_si256::<1>(s))
}

/// Folds summed four-lane Karatsuba terms and reduces them: the reflected field element.
#[inline]
#[target_feature(enable = "avx512f,pclmulqdq")]
pub(crate) fn reduce(t: &[__m512i; 3]) -> __m128i {
    finish(fold(t[0]), fold(t[1]), fold(t[2]))
}
