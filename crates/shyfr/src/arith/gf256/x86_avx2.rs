//! GF(2^8) kernels with AVX2 (and GFNI where the CPU has it), for Kalyna and Kupyna
//! (`x86_avx2`), on registers that hold bytes of one row each (byte-sliced layouts).
//!
//! * [`sbox_grouped`] / [`sbox_bulk`]: a 256-entry S-box as sixteen 16-entry `vpshufb`
//!   tables (one per high nibble, indexed by the low nibble), telescoped so that the reads
//!   of a group of four XOR to the entry, and two blend levels (`vpblendvb`) on the high
//!   nibble's top bits: constant time, the tables live in registers; fewer operations on
//!   the `vpshufb`/`vpblendvb` ports than a 4-level blend tree over plain tables (the
//!   byte-sliced batches, Kupyna). [`sbox_split`]: the telescoped groups for
//!   registers whose bytes go through different S-boxes (the one-block kernels): several
//!   lane-split passes, each byte read by one pass only, XORed before three blends.
//! * [`mix`]: MixColumns as `out_r = A + 2 (B + 2 (C + 2 D))` (the sums of
//!   `x86_avx512.rs`); the doubling modulo x^8+x^4+x^3+x^2+1 is `gf2p8affineqb` with GFNI
//!   ([`xtime_gfni`]), otherwise `vpaddb` + a conditional XOR of 0x1d ([`xtime`]).
//!   [`mds_row`] / [`mds_row_gfni`]: one output from the eight rotations of a column (the
//!   one-block kernels); with GFNI the five products side by side, not chained.
//! * [`inv_mix`] / [`inv_mix_gfni`]: InvMixColumns, each product `MDS_INV[k] * x` by two
//!   `vpshufb` nibble tables (`c * x = T_lo[x & 15] ^ T_hi[x >> 4]`, GF(2)-linear), or by
//!   GFNI.

// Register arrays are indexed by row; index loops read best.
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use super::tables::{gf_mul, gfni_mul_matrix, MDS, MDS_INV, SBOX, SBOX_INV};

/// `NIB[s][h]`: bytes `16 h .. 16 h + 16` of S-box `s` (0..4 forward, 4..8 inverse), in
/// both 128-bit lanes.
#[repr(C, align(32))]
pub(crate) struct Nibbles([[[u8; 32]; 16]; 8]);

pub(crate) static NIB: Nibbles = {
    let mut t = [[[0u8; 32]; 16]; 8];
    let mut s = 0;
    while s < 8 {
        let tab = if s < 4 { &SBOX[s] } else { &SBOX_INV[s - 4] };
        let mut h = 0;
        while h < 16 {
            let mut l = 0;
            while l < 32 {
                t[s][h][l] = tab[16 * h + l % 16];
                l += 1;
            }
            h += 1;
        }
        s += 1;
    }
    Nibbles(t)
};

/// `NIB_T[s]`: the tables of `NIB[s]` telescoped in groups of four for [`sbox_grouped`]:
/// entry `h = 4 q + j` is `NIB[s][h] ^ NIB[s][h + 1]` for `j < 3` and `NIB[s][h]` for
/// `j = 3`, so the XOR of the entries `j' .. 4` of a group is `NIB[s][4 q + j']`.
pub(crate) static NIB_T: Nibbles = {
    let mut t = NIB.0;
    let mut s = 0;
    while s < 8 {
        let mut h = 0;
        while h < 16 {
            if h % 4 < 3 {
                let mut l = 0;
                while l < 32 {
                    t[s][h][l] = NIB.0[s][h][l] ^ NIB.0[s][h + 1][l];
                    l += 1;
                }
            }
            h += 1;
        }
        s += 1;
    }
    Nibbles(t)
};

/// `MUL[k]`: the products `MDS_INV[k] * l` and `MDS_INV[k] * (16 l)` for `l < 16` (low and
/// high nibble tables), in both lanes; for InvMixColumns without GFNI.
#[repr(C, align(32))]
pub(crate) struct MulTables([[[u8; 32]; 2]; 8]);

pub(crate) static MUL: MulTables = {
    let mut t = [[[0u8; 32]; 2]; 8];
    let mut k = 0;
    while k < 8 {
        let mut l = 0;
        while l < 32 {
            t[k][0][l] = gf_mul(MDS_INV[k], (l % 16) as u8);
            t[k][1][l] = gf_mul(MDS_INV[k], ((l % 16) * 16) as u8);
            l += 1;
        }
        k += 1;
    }
    MulTables(t)
};

pub(crate) const M2: u64 = gfni_mul_matrix(2);
/// The GFNI matrices of the MDS row's coefficients.
pub(crate) const MMDS: [u64; 8] = {
    let mut m = [0u64; 8];
    let mut i = 0;
    while i < 8 {
        m[i] = gfni_mul_matrix(MDS[i]);
        i += 1;
    }
    m
};
pub(crate) const MINV: [u64; 8] = {
    let mut m = [0u64; 8];
    let mut i = 0;
    while i < 8 {
        m[i] = gfni_mul_matrix(MDS_INV[i]);
        i += 1;
    }
    m
};

#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn load32(p: &[u8; 32]) -> __m256i {
    // SAFETY: `p` is 32 readable bytes.
    unsafe { _mm256_loadu_si256(p.as_ptr().cast()) }
}

/// One S-box (`s`: 0..4 forward, 4..8 inverse) on 32 bytes, by [`sbox_grouped`].
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn sbox_bulk(x: __m256i, s: usize) -> __m256i {
    sbox_grouped(x, &NIB_T.0[s])
}

/// A 256-entry byte lookup on 32 bytes from sixteen 16-entry `vpshufb` tables (entries
/// `16 h .. 16 h + 16` of the S-box, per 128-bit lane, so each lane may hold its own
/// table), with fewer operations on the ports that `vpshufb` and `vpblendvb` share (two a
/// cycle on Zen 4, against four for the logic and add operations) than a 4-level blend
/// tree on the high nibble: from the telescoped tables `t` ([`NIB_T`]), in each group
/// `h = 4 q .. 4 q + 4` (same bits 6 and 7 of `x`) table `j` is read with an index whose
/// bit 7 (the `vpshufb` zero) is clear exactly where bits 4, 5 of `x` are at most `j`, so
/// the XOR of the group's four reads is the entry of table `4 q + (bits 4, 5)`; only the
/// last two levels are blends: 16 `vpshufb` + 3 `vpblendvb` instead of 16 + 15 (and 3
/// shifts), for 3 more adds and XORs in all. For throughput (several independent
/// registers); its dependency chains are longer than the blend tree's.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn sbox_grouped(x: __m256i, t: &[[u8; 32]; 16]) -> __m256i {
    // e = x & 0x3f = 16 m + (low nibble), m = bits 4, 5. e + 0x70 - 16 j keeps the low
    // nibble and is below 0x80 exactly where m <= j (between 0x40 and 0xaf: no wrap);
    // for j = 3 that is e itself (bits 4..6 are not read).
    let e = _mm256_and_si256(x, _mm256_set1_epi8(0x3f));
    let idx = [
        _mm256_add_epi8(e, _mm256_set1_epi8(0x70)),
        _mm256_add_epi8(e, _mm256_set1_epi8(0x60)),
        _mm256_add_epi8(e, _mm256_set1_epi8(0x50)),
        e,
    ];
    let mut g = [_mm256_setzero_si256(); 4];
    for q in 0..4 {
        let p: [__m256i; 4] =
            core::array::from_fn(|j| _mm256_shuffle_epi8(load32(&t[4 * q + j]), idx[j]));
        g[q] = _mm256_xor_si256(_mm256_xor_si256(p[0], p[1]), _mm256_xor_si256(p[2], p[3]));
    }
    // Bit 6 of x moved to bit 7 for `vpblendvb`; bit 7 is x itself.
    let b6 = _mm256_slli_epi16::<1>(x);
    let m0 = _mm256_blendv_epi8(g[0], g[1], b6);
    let m1 = _mm256_blendv_epi8(g[2], g[3], b6);
    _mm256_blendv_epi8(m0, m1, x)
}

/// Telescopes sixteen nibble tables as [`NIB_T`] does (`t[4 q + j] ^= t[4 q + j + 1]`
/// for `j < 3`), for [`sbox_split`].
pub(crate) const fn telescope(t: [[u8; 32]; 16]) -> [[u8; 32]; 16] {
    let mut out = t;
    let mut h = 0;
    while h < 16 {
        if h % 4 < 3 {
            let mut l = 0;
            while l < 32 {
                out[h][l] = t[h][l] ^ t[h + 1][l];
                l += 1;
            }
        }
        h += 1;
    }
    out
}

/// The index offsets of [`sbox_split`] for `P` passes: `own[p][i]` says whether byte `i`
/// is looked up by pass `p` (each byte by exactly one pass). Entry `[p][j][i]` is
/// `0x70 - 16 j` (the offset of [`sbox_grouped`]) where byte `i` is pass `p`'s, else
/// 0x80, which puts bit 7 (the `vpshufb` zero) in every index of the byte.
pub(crate) const fn split_offsets<const P: usize>(own: [[bool; 32]; P]) -> [[[u8; 32]; 4]; P] {
    let mut c = [[[0x80u8; 32]; 4]; P];
    let mut p = 0;
    while p < P {
        let mut j = 0;
        while j < 4 {
            let mut i = 0;
            while i < 32 {
                if own[p][i] {
                    c[p][j][i] = (0x70 - 16 * j) as u8;
                }
                i += 1;
            }
            j += 1;
        }
        p += 1;
    }
    c
}

/// Several 256-entry lookups on the bytes of one register, each byte by one of them, at
/// the cost of one [`sbox_grouped`] lookup per pass but three `vpblendvb` in all (for the
/// one-block kernels, where the bytes of a register go through different S-boxes). Pass
/// `p` reads the telescoped tables `t[p]` ([`telescope`]; per 128-bit lane, so each lane
/// may hold its own S-box) with the indices `(x & 0x3f) + c[p][j]` ([`split_offsets`]):
/// bytes that are not the pass's read zeros, so the passes' reads of a group are XORed
/// together before the two blend levels, which depend on `x` only.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn sbox_split<const P: usize>(
    x: __m256i,
    t: &[[[u8; 32]; 16]; P],
    c: &[[[u8; 32]; 4]; P],
) -> __m256i {
    let e = _mm256_and_si256(x, _mm256_set1_epi8(0x3f));
    let mut idx = [[_mm256_setzero_si256(); 4]; P];
    for p in 0..P {
        for j in 0..4 {
            idx[p][j] = _mm256_add_epi8(e, load32(&c[p][j]));
        }
    }
    let mut g = [_mm256_setzero_si256(); 4];
    for q in 0..4 {
        // A balanced XOR tree over the pass-by-table reads of group q.
        let mut r = [_mm256_setzero_si256(); 4];
        for j in 0..4 {
            r[j] = _mm256_shuffle_epi8(load32(&t[0][4 * q + j]), idx[0][j]);
            for p in 1..P {
                r[j] = _mm256_xor_si256(
                    r[j],
                    _mm256_shuffle_epi8(load32(&t[p][4 * q + j]), idx[p][j]),
                );
            }
        }
        g[q] = _mm256_xor_si256(_mm256_xor_si256(r[0], r[1]), _mm256_xor_si256(r[2], r[3]));
    }
    let b6 = _mm256_slli_epi16::<1>(x);
    let m0 = _mm256_blendv_epi8(g[0], g[1], b6);
    let m1 = _mm256_blendv_epi8(g[2], g[3], b6);
    _mm256_blendv_epi8(m0, m1, x)
}

/// `2 x` modulo x^8+x^4+x^3+x^2+1, without GFNI.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn xtime(x: __m256i) -> __m256i {
    // The top bit spread over the byte by a signed compare, not `vpblendvb` (one port on
    // many cores, and the S-boxes already keep it busy).
    let top = _mm256_cmpgt_epi8(_mm256_setzero_si256(), x);
    _mm256_xor_si256(
        _mm256_add_epi8(x, x),
        _mm256_and_si256(top, _mm256_set1_epi8(0x1d)),
    )
}

/// `2 x` with GFNI.
#[inline]
#[target_feature(enable = "avx2,gfni")]
pub(crate) fn xtime_gfni(x: __m256i) -> __m256i {
    _mm256_gf2p8affine_epi64_epi8::<0>(x, _mm256_set1_epi64x(M2 as i64))
}

/// MixColumns of one byte-sliced column (register `i` holds row `i`, after SubBytes) XORed
/// with `k`, with the doubling `dbl` ([`xtime`] or [`xtime_gfni`]): output rows `0..N`.
#[inline(always)]
pub(crate) fn mix<const N: usize>(
    y: &[__m256i; 8],
    k: &[__m256i; N],
    dbl: impl Fn(__m256i) -> __m256i,
) -> [__m256i; N] {
    // Loops, not `core::array::from_fn`: its closures would be separate functions without
    // the callers' target features, and the intrinsics in them calls.
    // SAFETY: (every intrinsic below) the callers enable AVX2.
    unsafe {
        let mut p = [_mm256_setzero_si256(); 8];
        for i in 0..8 {
            p[i] = _mm256_xor_si256(y[i], y[(i + 1) % 8]);
        }
        let mut out = [_mm256_setzero_si256(); N];
        // The rows written out, not a loop: a loop over the rows (LLVM leaves it rolled
        // when the doubling is the four-instruction `xtime`) indexes `y` and `p` by a
        // variable, which puts them in memory.
        macro_rules! rows {
            ($($r:literal)*) => {$(
                if $r < N {
                    let r: usize = $r;
                    let a = _mm256_xor_si256(
                        _mm256_xor_si256(p[r], p[(r + 2) % 8]),
                        _mm256_xor_si256(y[(r + 6) % 8], k[r]),
                    );
                    let b = p[(r + 5) % 8];
                    let c =
                        _mm256_xor_si256(_mm256_xor_si256(y[(r + 2) % 8], b), y[(r + 7) % 8]);
                    let d = y[(r + 4) % 8];
                    let t = _mm256_xor_si256(c, dbl(d));
                    let t = _mm256_xor_si256(b, dbl(t));
                    out[r] = _mm256_xor_si256(a, dbl(t));
                }
            )*};
        }
        rows!(0 1 2 3 4 5 6 7);
        out
    }
}

/// One MixColumns output `k + sum MDS[i] q[i]` from the eight rotations `q[i]` (row `r`
/// of `q[i]` is row `r + i` of the column) with the doubling `dbl`: the grouping of
/// [`mix`], `A + 2 (B + 2 (C + 2 D))`, three doublings in a chain.
#[inline(always)]
pub(crate) fn mds_row(q: &[__m256i; 8], k: __m256i, dbl: impl Fn(__m256i) -> __m256i) -> __m256i {
    // SAFETY: (every intrinsic below) the callers enable AVX2.
    unsafe {
        let x3 = |a, b, c| _mm256_xor_si256(_mm256_xor_si256(a, b), c);
        let aa = x3(
            x3(q[0], q[1], q[2]),
            x3(q[3], q[6], k),
            _mm256_setzero_si256(),
        );
        let bb = _mm256_xor_si256(q[5], q[6]);
        let cc = x3(x3(q[2], q[5], q[6]), q[7], _mm256_setzero_si256());
        let t = _mm256_xor_si256(cc, dbl(q[4]));
        let t = _mm256_xor_si256(bb, dbl(t));
        _mm256_xor_si256(aa, dbl(t))
    }
}

/// [`mds_row`] with GFNI: the five products (coefficients 5, 8, 6, 7, 4) side by side, one
/// `gf2p8affineqb` each, so the chain from `q` to the output is one product and the XORs.
#[inline]
#[target_feature(enable = "avx2,gfni")]
pub(crate) fn mds_row_gfni(q: &[__m256i; 8], k: __m256i) -> __m256i {
    let m = |i: usize| _mm256_gf2p8affine_epi64_epi8::<0>(q[i], _mm256_set1_epi64x(MMDS[i] as i64));
    // The coefficient-1 terms (and the key) first: they are ready before the products.
    let ones = _mm256_xor_si256(_mm256_xor_si256(q[0], q[1]), _mm256_xor_si256(q[3], k));
    let a = _mm256_xor_si256(m(2), m(4));
    let b = _mm256_xor_si256(m(5), m(6));
    _mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(m(7), ones))
}

/// InvMixColumns of one column by nibble tables.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn inv_mix(x: &[__m256i; 8]) -> [__m256i; 8] {
    let f = _mm256_set1_epi8(0x0f);
    let mut lo = [_mm256_setzero_si256(); 8];
    let mut hi = [_mm256_setzero_si256(); 8];
    for i in 0..8 {
        lo[i] = _mm256_and_si256(x[i], f);
        hi[i] = _mm256_and_si256(_mm256_srli_epi16::<4>(x[i]), f);
    }
    // Rows and products written out, not loops (as in `mix`): LLVM left the loops rolled,
    // with `lo` and `hi` indexed by a variable, in memory.
    macro_rules! prod {
        ($r:expr, $k:literal) => {{
            let j = ($r + $k) % 8;
            _mm256_xor_si256(
                _mm256_shuffle_epi8(load32(&MUL.0[$k][0]), lo[j]),
                _mm256_shuffle_epi8(load32(&MUL.0[$k][1]), hi[j]),
            )
        }};
    }
    let mut out = [_mm256_setzero_si256(); 8];
    macro_rules! rows {
        ($($r:literal)*) => {$(
            let a = _mm256_xor_si256(prod!($r, 0), prod!($r, 1));
            let b = _mm256_xor_si256(prod!($r, 2), prod!($r, 3));
            let c = _mm256_xor_si256(prod!($r, 4), prod!($r, 5));
            let d = _mm256_xor_si256(prod!($r, 6), prod!($r, 7));
            out[$r] = _mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(c, d));
        )*};
    }
    rows!(0 1 2 3 4 5 6 7);
    out
}

/// InvMixColumns of one column with GFNI.
#[inline]
#[target_feature(enable = "avx2,gfni")]
pub(crate) fn inv_mix_gfni(x: &[__m256i; 8]) -> [__m256i; 8] {
    core::array::from_fn(|r| {
        let t = |k: usize| {
            _mm256_gf2p8affine_epi64_epi8::<0>(x[(r + k) % 8], _mm256_set1_epi64x(MINV[k] as i64))
        };
        let a = _mm256_xor_si256(_mm256_xor_si256(t(0), t(1)), _mm256_xor_si256(t(2), t(3)));
        let b = _mm256_xor_si256(_mm256_xor_si256(t(4), t(5)), _mm256_xor_si256(t(6), t(7)));
        _mm256_xor_si256(a, b)
    })
}
