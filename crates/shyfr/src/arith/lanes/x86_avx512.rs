//! Lane transposes with AVX-512 F: [`transpose_lanes`] (four registers of four 128-bit
//! lanes, two rounds of `vshufi64x2`) and [`transpose_q8`] (eight registers of eight 64-bit
//! words: one round of `vpunpck{l,h}qdq`, then two [`transpose_lanes`]); 24 shuffles, all
//! with immediate controls, so no index register is held.

// Register arrays are indexed by position; index loops read best.
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

/// The four 128-bit lanes of `x`, `y`, `z`, `w` transposed: lane `L` of output `i` is lane
/// `i` of input `L`.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn transpose_lanes(x: __m512i, y: __m512i, z: __m512i, w: __m512i) -> [__m512i; 4] {
    let e0 = _mm512_shuffle_i64x2::<0x44>(x, y);
    let e1 = _mm512_shuffle_i64x2::<0xee>(x, y);
    let e2 = _mm512_shuffle_i64x2::<0x44>(z, w);
    let e3 = _mm512_shuffle_i64x2::<0xee>(z, w);
    [
        _mm512_shuffle_i64x2::<0x88>(e0, e2),
        _mm512_shuffle_i64x2::<0xdd>(e0, e2),
        _mm512_shuffle_i64x2::<0x88>(e1, e3),
        _mm512_shuffle_i64x2::<0xdd>(e1, e3),
    ]
}

/// The 8 x 8 matrix of 64-bit words in `v` transposed in place: element `j` of `v[i]`
/// becomes element `i` of `v[j]`.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn transpose_q8(v: &mut [__m512i; 8]) {
    // a[2k + m]: in each 128-bit lane L, word 2L + m of rows 2k and 2k + 1.
    let mut a = [_mm512_setzero_si512(); 8];
    for k in 0..4 {
        a[2 * k] = _mm512_unpacklo_epi64(v[2 * k], v[2 * k + 1]);
        a[2 * k + 1] = _mm512_unpackhi_epi64(v[2 * k], v[2 * k + 1]);
    }
    // Lane l of a[2L + m] (words 2l + m of rows 2L, 2L + 1) goes to lane L of row 2l + m.
    for m in 0..2 {
        let c = transpose_lanes(a[m], a[2 + m], a[4 + m], a[6 + m]);
        for l in 0..4 {
            v[2 * l + m] = c[l];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transposes_transpose() {
        if crate::cpu::x86::Avx512::get().is_none() {
            return;
        }
        let m: [[u64; 8]; 8] =
            core::array::from_fn(|i| core::array::from_fn(|j| (10 * i + j) as u64));
        // SAFETY: AVX-512 F is present (checked above); the loads and stores are of 64
        // bytes inside `m` and `out`.
        unsafe {
            let mut v: [__m512i; 8] =
                core::array::from_fn(|i| _mm512_loadu_si512(m[i].as_ptr().cast()));
            transpose_q8(&mut v);
            let mut out = [[0u64; 8]; 8];
            for i in 0..8 {
                _mm512_storeu_si512(out[i].as_mut_ptr().cast(), v[i]);
            }
            for i in 0..8 {
                for j in 0..8 {
                    assert_eq!(out[i][j], m[j][i]);
                }
            }
            let r: [__m512i; 4] =
                core::array::from_fn(|i| _mm512_loadu_si512(m[i].as_ptr().cast()));
            let t = transpose_lanes(r[0], r[1], r[2], r[3]);
            for i in 0..4 {
                _mm512_storeu_si512(out[i].as_mut_ptr().cast(), t[i]);
            }
            for i in 0..4 {
                for l in 0..4 {
                    assert_eq!(out[i][2 * l..2 * l + 2], m[l][2 * i..2 * i + 2]);
                }
            }
        }
    }
}
