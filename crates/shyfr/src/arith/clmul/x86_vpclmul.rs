//! Carry-less multiplication on 256-bit registers with VPCLMULQDQ (two 128-bit lanes,
//! AVX2 around it): the Karatsuba terms of two blocks at a time, and the fold of the two
//! lanes into one reduction (the 128-bit code of `x86_pclmul`). Shared by GHASH and the
//! fused AES-GCM engine.

use core::arch::x86_64::*;

use super::x86_pclmul::finish;

/// PSHUFB mask reversing the 16 bytes of each lane (GCM order to the reflected integer).
#[inline]
#[target_feature(enable = "avx,avx2")]
pub(crate) fn rev_mask() -> __m256i {
    _mm256_broadcastsi128_si256(_mm_set_epi8(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    ))
}

/// Adds the Karatsuba terms of `x * h` (lane by lane) to `t` = (low, high, middle);
/// `hk` holds each lane's `h.lo ^ h.hi` in its low half.
#[inline]
#[target_feature(enable = "avx,avx2,vpclmulqdq")]
pub(crate) fn karatsuba(t: &mut [__m256i; 3], x: __m256i, h: __m256i, hk: __m256i) {
    t[0] = _mm256_xor_si256(t[0], _mm256_clmulepi64_epi128::<0x00>(x, h));
    t[1] = _mm256_xor_si256(t[1], _mm256_clmulepi64_epi128::<0x11>(x, h));
    let xk = _mm256_xor_si256(x, _mm256_shuffle_epi32::<0x4e>(x));
    t[2] = _mm256_xor_si256(t[2], _mm256_clmulepi64_epi128::<0x00>(xk, hk));
}

/// Folds the two 128-bit lanes of `v` into one.
#[inline]
#[target_feature(enable = "avx,avx2")]
pub(crate) fn fold(v: __m256i) -> __m128i {
    _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v))
}

/// Folds summed two-lane Karatsuba terms and reduces them: the reflected field element.
#[inline]
#[target_feature(enable = "avx,avx2,pclmulqdq")]
pub(crate) fn reduce(t: &[__m256i; 3]) -> __m128i {
    finish(fold(t[0]), fold(t[1]), fold(t[2]))
}
