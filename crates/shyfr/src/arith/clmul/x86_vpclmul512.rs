//! Carry-less multiplication on 512-bit registers with VPCLMULQDQ and AVX-512 (four 128-bit
//! lanes): the Karatsuba terms of four blocks at a time and the fold of the four lanes
//! into one reduction (the 128-bit code of `x86_pclmul`), for GHASH; the schoolbook terms
//! and a lane-wise reduction, for the fused AES-GCM engine on zmm registers (fewer
//! instructions besides the multiplies, which is what counts where the multiplies have a
//! port of their own).

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

/// `a ^ b ^ c` in one instruction.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn xor3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi64::<0x96>(a, b, c)
}

/// The four schoolbook products of `x * h` lane by lane: low, high and the two middle ones.
#[inline]
#[target_feature(enable = "avx512f,vpclmulqdq")]
fn terms(x: __m512i, h: __m512i) -> [__m512i; 4] {
    [
        _mm512_clmulepi64_epi128::<0x00>(x, h),
        _mm512_clmulepi64_epi128::<0x11>(x, h),
        _mm512_clmulepi64_epi128::<0x01>(x, h),
        _mm512_clmulepi64_epi128::<0x10>(x, h),
    ]
}

/// Adds the schoolbook terms of `x * h` and `y * g` (lane by lane) to `t` = (low, high,
/// true middle): four multiplies a register and no Karatsuba pre-additions, the sums in
/// three-input XORs. Where carry-less multiplies and shuffles share one port and AES
/// another (Intel's 512-bit units), this takes fewer uops than [`karatsuba`].
#[inline]
#[target_feature(enable = "avx512f,vpclmulqdq")]
pub(crate) fn schoolbook2(t: &mut [__m512i; 3], x: __m512i, h: __m512i, y: __m512i, g: __m512i) {
    let (a, b) = (terms(x, h), terms(y, g));
    t[0] = xor3(t[0], a[0], b[0]);
    t[1] = xor3(t[1], a[1], b[1]);
    t[2] = xor3(t[2], a[2], a[3]);
    t[2] = xor3(t[2], b[2], b[3]);
}

/// [`schoolbook2`] for one register.
#[inline]
#[target_feature(enable = "avx512f,vpclmulqdq")]
pub(crate) fn schoolbook(t: &mut [__m512i; 3], x: __m512i, h: __m512i) {
    let a = terms(x, h);
    t[0] = _mm512_xor_si512(t[0], a[0]);
    t[1] = _mm512_xor_si512(t[1], a[1]);
    t[2] = xor3(t[2], a[2], a[3]);
}

/// Reduces summed schoolbook terms (low, high, true middle) lane by lane, then folds the
/// four lanes: the reflected field element. The same Montgomery reduction as
/// `x86_pclmul::finish`, with the middle folded in by the two steps rather than shifted
/// into the halves first (six instructions a register, no byte shifts).
#[inline]
#[target_feature(enable = "avx512f,vpclmulqdq")]
pub(crate) fn reduce_lanes(t: &[__m512i; 3]) -> __m128i {
    let k = _mm512_broadcast_i32x4(_mm_set_epi64x(0, 0xc200_0000_0000_0000_u64 as i64));
    let lo = t[0];
    let mid = xor3(
        t[2],
        _mm512_shuffle_epi32::<_MM_PERM_BADC>(lo),
        _mm512_clmulepi64_epi128::<0x00>(lo, k),
    );
    let hi = xor3(
        t[1],
        _mm512_shuffle_epi32::<_MM_PERM_BADC>(mid),
        _mm512_clmulepi64_epi128::<0x00>(mid, k),
    );
    fold(hi)
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
