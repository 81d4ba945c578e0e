//! GF(2^8) kernels with AVX-512 VBMI and GFNI, for Kalyna and Kupyna (`x86_avx512`).
//!
//! * [`sbox`]: one S-box on the 64 bytes of a register (byte-sliced layouts, where a
//!   register holds bytes of one row): two `vpermi2b` on the four 64-byte quarters of the
//!   table, held in registers ([`table`]), and a blend on bit 7 of the input.
//! * [`nat_sbox`]: the four S-boxes on a register in the natural layout (byte `8 q + r` is
//!   row `r` of the 64-bit column `q`): every table looked up, the right one chosen per
//!   byte by blends on constant row masks and on the top bit.
//! * [`mix`] / [`inv_mix`]: MixColumns and its inverse on a byte-sliced column (eight
//!   registers, one per row); the products by 2, 4, 8 (and by the inverse row's
//!   coefficients) are GF(2)-linear maps, one `gf2p8affineqb` each ([`gf`]).
//! * [`nat_mix`] / [`nat_inv_mix`]: the same on 64-bit columns in the natural layout,
//!   the byte rotations of a column by `vpshufb` ([`rot_idx`]) and `vprorq`.
//!
//! Everything is constant time: permutes of tables held in registers, blends, XORs and
//! affine maps; no memory index or branch depends on data.

// Register arrays are indexed by row; index loops read best.
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use super::tables::{gfni_mul_matrix, MDS_INV, SBOX, SBOX_INV};

/// The eight S-box tables (pi_0..pi_3, then their inverses), aligned for 64-byte loads.
#[repr(C, align(64))]
pub(crate) struct Tables([[u8; 256]; 8]);

pub(crate) static TABLES: Tables = Tables([
    SBOX[0],
    SBOX[1],
    SBOX[2],
    SBOX[3],
    SBOX_INV[0],
    SBOX_INV[1],
    SBOX_INV[2],
    SBOX_INV[3],
]);

pub(crate) const M2: u64 = gfni_mul_matrix(2);
pub(crate) const M4: u64 = gfni_mul_matrix(4);
pub(crate) const M8: u64 = gfni_mul_matrix(8);
pub(crate) const M5: u64 = gfni_mul_matrix(5);
pub(crate) const M6: u64 = gfni_mul_matrix(6);
pub(crate) const M7: u64 = gfni_mul_matrix(7);
pub(crate) const MINV: [u64; 8] = {
    let mut m = [0u64; 8];
    let mut i = 0;
    while i < 8 {
        m[i] = gfni_mul_matrix(MDS_INV[i]);
        i += 1;
    }
    m
};

/// The four quarters of S-box `i` (0..4 forward, 4..8 inverse).
#[inline(always)]
pub(crate) fn table(i: usize) -> [__m512i; 4] {
    let p = TABLES.0[i].as_ptr();
    // SAFETY: `p` points at 256 readable bytes (a static table), read as four unaligned
    // 64-byte loads; AVX-512F is enabled by the callers' target features.
    unsafe { core::array::from_fn(|q| _mm512_loadu_si512(p.add(64 * q).cast())) }
}

/// One S-box on 64 bytes: the low half of the table for inputs below 0x80, the high half
/// otherwise, chosen per byte by a blend on the input's top bit.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
pub(crate) fn sbox(x: __m512i, t: &[__m512i; 4]) -> __m512i {
    let lo = _mm512_permutex2var_epi8(t[0], x, t[1]);
    let hi = _mm512_permutex2var_epi8(t[2], x, t[3]);
    _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), lo, hi)
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
pub(crate) fn gf(x: __m512i, m: u64) -> __m512i {
    _mm512_gf2p8affine_epi64_epi8::<0>(x, _mm512_set1_epi64(m as i64))
}

/// `a ^ b ^ c` in one instruction (the carry-less code's, which needs only AVX-512F).
pub(crate) use crate::arith::clmul::x86_vpclmul512::xor3;

/// MixColumns of one byte-sliced column `y` (register `i` holds row `i`, after SubBytes),
/// XORed with `k`: output rows `0..N` (all eight for a whole column; the first four when
/// the caller knows the other four from them, as Kupyna's row-pair layout does).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
pub(crate) fn mix<const N: usize>(y: &[__m512i; 8], k: [__m512i; N]) -> [__m512i; N] {
    let p: [__m512i; 8] = core::array::from_fn(|i| _mm512_xor_si512(y[i], y[(i + 1) % 8]));
    core::array::from_fn(|r| {
        let a = xor3(p[r], p[(r + 2) % 8], y[(r + 6) % 8]);
        let b = p[(r + 5) % 8];
        let c = xor3(y[(r + 2) % 8], b, y[(r + 7) % 8]);
        let t = xor3(a, gf(b, M2), gf(c, M4));
        xor3(t, gf(y[(r + 4) % 8], M8), k[r])
    })
}

/// InvMixColumns of one column.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
pub(crate) fn inv_mix(x: &[__m512i; 8]) -> [__m512i; 8] {
    core::array::from_fn(|r| {
        let t = |k: usize| gf(x[(r + k) % 8], MINV[k]);
        let a = xor3(t(0), t(1), t(2));
        let b = xor3(t(3), t(4), t(5));
        xor3(a, b, _mm512_xor_si512(t(6), t(7)))
    })
}

/// Byte lanes using S-box `s` (row `r` with `r % 4 == s`).
pub(crate) const POS: [u64; 4] = [
    0x1111_1111_1111_1111,
    0x2222_2222_2222_2222,
    0x4444_4444_4444_4444,
    0x8888_8888_8888_8888,
];

/// The four S-boxes on a register in the natural layout: every table looked up in full
/// (eight `vpermi2b` in parallel), the right one per byte chosen by blends on constant row
/// masks and on the input's top bit. No mask arithmetic sits on the critical path.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
pub(crate) fn nat_sbox(x: __m512i, t: &[[__m512i; 4]; 4]) -> __m512i {
    let top = _mm512_movepi8_mask(x);
    let look = |s: usize, h: usize| _mm512_permutex2var_epi8(t[s][2 * h], x, t[s][2 * h + 1]);
    let pick = |h: usize| {
        let a = _mm512_mask_blend_epi8(POS[1], look(0, h), look(1, h));
        let b = _mm512_mask_blend_epi8(POS[3], look(2, h), look(3, h));
        _mm512_mask_blend_epi8(POS[2] | POS[3], a, b)
    };
    _mm512_mask_blend_epi8(top, pick(0), pick(1))
}

/// `vpshufb` indices rotating the bytes of every 64-bit word: `ROT[k]` byte `r` takes
/// byte `(r + k) mod 8` of its word.
pub(crate) static ROT: [[u8; 64]; 8] = {
    let mut t = [[0u8; 64]; 8];
    let mut k = 0;
    while k < 8 {
        let mut p = 0;
        while p < 64 {
            t[k][p] = ((p % 16) / 8 * 8 + (p % 8 + k) % 8) as u8;
            p += 1;
        }
        k += 1;
    }
    t
};

/// The rotation indices 1..8 in registers.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
pub(crate) fn rot_idx() -> [__m512i; 8] {
    // SAFETY: each ROT row is 64 readable bytes.
    core::array::from_fn(|k| unsafe { _mm512_loadu_si512(ROT[k].as_ptr().cast()) })
}

/// MixColumns in the natural layout: `sum_k MDS[k] * rot_k(x)`, regrouped as
/// `rot0 x + rot1 x + rot2 (x + 4x) + rot3 x + rot4 8x + rot5 (2x + 4x) + rot6 (x + 2x + 4x)
/// + rot7 4x`; the rotations (`vpshufb`) go first, since the multiplications
/// (`gf2p8affineqb`) commute with them, then `k` is XORed in.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
pub(crate) fn nat_mix(x: __m512i, k: __m512i, ri: &[__m512i; 8]) -> __m512i {
    // Half of the rotations on the shift unit, half on the shuffle unit.
    let r = |i: usize| match i {
        2 => _mm512_ror_epi64::<16>(x),
        4 => _mm512_ror_epi64::<32>(x),
        6 => _mm512_ror_epi64::<48>(x),
        _ => _mm512_shuffle_epi8(x, ri[i]),
    };
    let (r2, r5, r6, r7) = (r(2), r(5), r(6), r(7));
    let a = xor3(x, r(1), r2);
    let b = xor3(r(3), r6, k);
    let c = xor3(
        gf(r(4), M8),
        gf(_mm512_xor_si512(r5, r6), M2),
        gf(xor3(r2, r5, r6), M4),
    );
    // Four products, not three (`4 (r2 + r5 + r6) + 4 r7` as one): the extra product is
    // off the critical path, the extra XOR before a product would be on it (Kalyna's
    // one-block chains are latency-bound).
    xor3(a, b, _mm512_xor_si512(c, gf(r7, M4)))
}

/// InvMixColumns in the natural layout: `sum_k MDS_INV[k] * rot_k(x)`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
pub(crate) fn nat_inv_mix(x: __m512i, ri: &[__m512i; 8]) -> __m512i {
    let t = |k: usize| gf(_mm512_shuffle_epi8(x, ri[k]), MINV[k]);
    let a = xor3(t(0), t(1), t(2));
    let b = xor3(t(3), t(4), t(5));
    xor3(a, b, _mm512_xor_si512(t(6), t(7)))
}
