//! Kupyna with AVX2 (and GFNI for the MixColumns products where the CPU has it), in the
//! row-pair layout: one ymm register per S-box, holding rows `s` and `s + 4` (which both
//! go through pi_s) of the two permutations of a compression.
//!
//! * 512-bit state: register `s` holds, in its low 128-bit lane, rows `s` and `s + 4` of
//!   `T⊕(h ^ m)` (8 bytes each, one per column) and in its high lane the same rows of
//!   `T+(m)`. Four registers.
//! * 1024-bit state: per permutation, register `s` holds row `s` (16 columns) in its low
//!   lane and row `s + 4` in its high lane. Eight registers.
//!
//! A round: the round constants (XOR into row 0 of `T⊕`, folded into the previous
//! MixColumns; for `T+` a byte-wise addition whose carries run up the rows of each column,
//! rows 0..3 first, then the carry out of row 3 into rows 4..7), SubBytes (one S-box per
//! register: sixteen `vpshufb` reads of telescoped nibble tables and three `vpblendvb`,
//! [`sbox_bulk`]; the four or eight independent registers of a round hide its longer
//! dependency chains), ShiftBytes (one
//! `vpshufb` per register: the rows rotate inside their halves or lanes) and MixColumns:
//! with `Y_j` = register `j` for `j < 4` and register `j - 4` with its two rows swapped,
//! the output register `s` is `sum_k MDS[k] * Y_{s+k}` ([`mix`], four outputs).
//!
//! The chaining value stays in this layout across the blocks of a call; the message
//! blocks are transposed in (8x8 byte transposes of 64-bit words) and the chaining value
//! out at the end. Everything is constant time: register lookups, compares and adds; no
//! memory index or branch depends on data.

// Register arrays are indexed by S-box; index loops read best.
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use super::{plus_byte, soft::shift, transpose8, xor_const};
use crate::arith::gf256::x86_avx2::{mix, sbox_bulk, xtime, xtime_gfni};
use crate::cpu::x86::{Avx2, Avx2Gfni};

/// Constants of the 512-bit state by round `v` and register `s`: `[0]` the `T+` bytes
/// (high lane: row `s`, then row `s + 4`; low lane zero), `[1]` the same XOR 0x80 (for
/// the unsigned compare), `[2]` the `T⊕` constant (register 0 only: row 0 of the low
/// lane).
static K8: [[[[u8; 32]; 4]; 3]; 10] = {
    let mut t = [[[[0u8; 32]; 4]; 3]; 10];
    let mut v = 0;
    while v < 10 {
        let mut s = 0;
        while s < 4 {
            let mut c = 0;
            while c < 8 {
                let lo = plus_byte(v, s, c, 8);
                let hi = plus_byte(v, s + 4, c, 8);
                t[v][0][s][16 + c] = lo;
                t[v][0][s][24 + c] = hi;
                let mut i = 0;
                while i < 32 {
                    t[v][1][s][i] = t[v][0][s][i] ^ 0x80;
                    i += 1;
                }
                if s == 0 {
                    t[v][2][0][c] = xor_const(c, v) as u8;
                }
                c += 1;
            }
            s += 1;
        }
        v += 1;
    }
    t
};

/// The same for the 1024-bit state (`T+` registers: low lane row `s`, high lane row
/// `s + 4`; the `T⊕` constant in row 0, the low lane of register 0).
static K16: [[[[u8; 32]; 4]; 3]; 14] = {
    let mut t = [[[[0u8; 32]; 4]; 3]; 14];
    let mut v = 0;
    while v < 14 {
        let mut s = 0;
        while s < 4 {
            let mut c = 0;
            while c < 16 {
                t[v][0][s][c] = plus_byte(v, s, c, 16);
                t[v][0][s][16 + c] = plus_byte(v, s + 4, c, 16);
                t[v][1][s][c] = t[v][0][s][c] ^ 0x80;
                t[v][1][s][16 + c] = t[v][0][s][16 + c] ^ 0x80;
                if s == 0 {
                    t[v][2][0][c] = xor_const(c, v) as u8;
                }
                c += 1;
            }
            s += 1;
        }
        v += 1;
    }
    t
};

/// ShiftBytes as `vpshufb` indices per register: `[0..4]` for the 512-bit state (each
/// 8-byte row rotates inside its half of a lane), `[4..8]` for the 1024-bit state (each
/// 16-byte row rotates inside its lane).
static SHIFT: [[u8; 32]; 8] = {
    let mut t = [[0u8; 32]; 8];
    let mut s = 0;
    while s < 4 {
        let mut p = 0;
        while p < 32 {
            let q = p % 16;
            let (h, c) = (q / 8, q % 8);
            t[s][p] = (8 * h + (c + 8 - shift(s + 4 * h, 8)) % 8) as u8;
            let row = s + 4 * (p / 16);
            t[4 + s][p] = ((q + 16 - shift(row, 16)) % 16) as u8;
            p += 1;
        }
        s += 1;
    }
    t
};

#[inline(always)]
fn ld(p: &[u8; 32]) -> __m256i {
    // SAFETY: `p` is 32 readable bytes; the callers enable AVX2.
    unsafe { _mm256_loadu_si256(p.as_ptr().cast()) }
}

/// Adds the `T+` constant (`k`, and `kx` = `k ^ 0x80`) to the registers byte-wise with
/// carries up each column: rows 0..3 (`lower` halves or lanes) in a first pass, whose
/// carry out of row 3 `up` moves to row 4's positions, then a second pass that takes it
/// through rows 4..7.
#[inline(always)]
fn add_plus<const WIDE: bool>(r: &mut [__m256i; 4], k: &[[u8; 32]; 4], kx: &[[u8; 32]; 4]) {
    // SAFETY: (every intrinsic below) the callers enable AVX2.
    unsafe {
        let ff = _mm256_set1_epi8(-1);
        let sign = _mm256_set1_epi8(-128);
        let mut c = _mm256_setzero_si256();
        for s in 0..4 {
            let t = _mm256_add_epi8(r[s], ld(&k[s]));
            // Unsigned t < k: the addition wrapped.
            let g = _mm256_cmpgt_epi8(ld(&kx[s]), _mm256_xor_si256(t, sign));
            let p = _mm256_and_si256(c, _mm256_cmpeq_epi8(t, ff));
            r[s] = _mm256_sub_epi8(t, c);
            c = _mm256_or_si256(g, p);
        }
        // Row 3's carries to row 4: the other half of the lane (512-bit state) or the
        // other lane (1024-bit state).
        let mut c = if WIDE {
            _mm256_permute2x128_si256::<0x08>(c, c)
        } else {
            _mm256_slli_si256::<8>(c)
        };
        for s in 0..4 {
            let p = _mm256_and_si256(c, _mm256_cmpeq_epi8(r[s], ff));
            r[s] = _mm256_sub_epi8(r[s], c);
            c = p;
        }
    }
}

/// SubBytes and ShiftBytes on the four registers of a set (`sh`: the first of its four
/// ShiftBytes indices).
#[inline(always)]
fn sub_shift(r: &mut [__m256i; 4], sh: usize) {
    for s in 0..4 {
        // SAFETY: the callers enable AVX2.
        r[s] = unsafe { _mm256_shuffle_epi8(sbox_bulk(r[s], s), ld(&SHIFT[sh + s])) };
    }
}

/// MixColumns on a set of four registers, `k` XORed into the outputs (the two rows of a
/// register are swapped across lanes for the 1024-bit state, inside lanes otherwise).
#[inline(always)]
fn mix_set<const WIDE: bool>(
    r: &[__m256i; 4],
    k: &[__m256i; 4],
    dbl: impl Fn(__m256i) -> __m256i,
) -> [__m256i; 4] {
    let mut y = [r[0]; 8];
    for j in 0..4 {
        y[j] = r[j];
        // SAFETY: the callers enable AVX2.
        y[j + 4] = unsafe {
            if WIDE {
                _mm256_permute4x64_epi64::<0x4e>(r[j])
            } else {
                _mm256_shuffle_epi32::<0x4e>(r[j])
            }
        };
    }
    mix::<4>(&y, k, dbl)
}

/// The `T⊕` constant of round `v` (register 0 only) as the `k` of MixColumns.
#[inline(always)]
fn xor_k(table: &[[u8; 32]; 4]) -> [__m256i; 4] {
    // SAFETY: the callers enable AVX2.
    let z = unsafe { _mm256_setzero_si256() };
    [ld(&table[0]), z, z, z]
}

/// The 512-bit state's permutations on the four registers (`T+` in the high lanes when
/// `PLUS`; without it the high lanes are left to the caller to ignore).
#[inline(always)]
fn perm8<const PLUS: bool>(r: &mut [__m256i; 4], dbl: impl Fn(__m256i) -> __m256i + Copy) {
    // SAFETY: (every intrinsic below) the callers enable AVX2.
    unsafe {
        r[0] = _mm256_xor_si256(r[0], ld(&K8[0][2][0]));
        for v in 0..10 {
            if PLUS {
                add_plus::<false>(r, &K8[v][0], &K8[v][1]);
            }
            sub_shift(r, 0);
            let k = if v + 1 < 10 {
                xor_k(&K8[v + 1][2])
            } else {
                [_mm256_setzero_si256(); 4]
            };
            *r = mix_set::<false>(r, &k, dbl);
        }
    }
}

/// The 1024-bit state's `T⊕` on `a` and, when `PLUS`, `T+` on `b`.
#[inline(always)]
fn perm16<const PLUS: bool>(
    a: &mut [__m256i; 4],
    b: &mut [__m256i; 4],
    dbl: impl Fn(__m256i) -> __m256i + Copy,
) {
    // SAFETY: (every intrinsic below) the callers enable AVX2.
    unsafe {
        a[0] = _mm256_xor_si256(a[0], ld(&K16[0][2][0]));
        for v in 0..14 {
            sub_shift(a, 4);
            if PLUS {
                add_plus::<true>(b, &K16[v][0], &K16[v][1]);
                sub_shift(b, 4);
            }
            let k = if v + 1 < 14 {
                xor_k(&K16[v + 1][2])
            } else {
                [_mm256_setzero_si256(); 4]
            };
            *a = mix_set::<true>(a, &k, dbl);
            if PLUS {
                *b = mix_set::<true>(b, &[_mm256_setzero_si256(); 4], dbl);
            }
        }
    }
}

/// Rows of a 512-bit state (`rows[r]`: byte `c` is column `c`) from its columns, and back.
fn rows8(cols: &[u64]) -> [u64; 8] {
    let mut x: [u64; 8] = core::array::from_fn(|c| cols[c]);
    transpose8(&mut x);
    x
}

/// Rows of a 1024-bit state as (columns 0..8, columns 8..16) words.
fn rows16(cols: &[u64]) -> [[u64; 2]; 8] {
    let (lo, hi) = (rows8(&cols[..8]), rows8(&cols[8..16]));
    core::array::from_fn(|r| [lo[r], hi[r]])
}

#[inline(always)]
fn pair(lo: u64, hi: u64) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_set_epi64x(hi as i64, lo as i64) }
}

#[inline(always)]
fn words(x: __m128i) -> [u64; 2] {
    let mut w = [0u64; 2];
    // SAFETY: `w` is 16 writable bytes; SSE2 is part of x86-64.
    unsafe { _mm_storeu_si128(w.as_mut_ptr().cast(), x) };
    w
}

/// The 512-bit state: `h` (columns) compressed with `blocks`, or (`blocks` empty and
/// `fin`) put through the output transformation.
#[inline(always)]
fn run8(h: &mut [u64; 16], blocks: &[u8], fin: bool, dbl: impl Fn(__m256i) -> __m256i + Copy) {
    // SAFETY: (every intrinsic below) the callers enable AVX2.
    unsafe {
        let hr = rows8(&h[..8]);
        let mut hp = [_mm_setzero_si128(); 4];
        for s in 0..4 {
            hp[s] = pair(hr[s], hr[s + 4]);
        }
        for block in blocks.chunks_exact(64) {
            let mut m = [0u64; 8];
            for (w, c) in m.iter_mut().zip(block.chunks_exact(8)) {
                *w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            }
            transpose8(&mut m);
            let mut r = [_mm256_setzero_si256(); 4];
            for s in 0..4 {
                let mp = pair(m[s], m[s + 4]);
                r[s] = _mm256_set_m128i(mp, _mm_xor_si128(hp[s], mp));
            }
            perm8::<true>(&mut r, dbl);
            for s in 0..4 {
                let x = _mm_xor_si128(
                    _mm256_castsi256_si128(r[s]),
                    _mm256_extracti128_si256::<1>(r[s]),
                );
                hp[s] = _mm_xor_si128(hp[s], x);
            }
            zeroize::Zeroize::zeroize(&mut m);
        }
        if fin {
            let mut r = [_mm256_setzero_si256(); 4];
            for s in 0..4 {
                r[s] = _mm256_zextsi128_si256(hp[s]);
            }
            perm8::<false>(&mut r, dbl);
            for s in 0..4 {
                hp[s] = _mm_xor_si128(hp[s], _mm256_castsi256_si128(r[s]));
            }
        }
        let mut rows = [0u64; 8];
        for s in 0..4 {
            let [lo, hi] = words(hp[s]);
            rows[s] = lo;
            rows[s + 4] = hi;
        }
        transpose8(&mut rows);
        h[..8].copy_from_slice(&rows);
        zeroize::Zeroize::zeroize(&mut rows);
    }
}

/// The 1024-bit state, as [`run8`].
#[inline(always)]
fn run16(h: &mut [u64; 16], blocks: &[u8], fin: bool, dbl: impl Fn(__m256i) -> __m256i + Copy) {
    // SAFETY: (every intrinsic below) the callers enable AVX2.
    unsafe {
        let hr = rows16(&h[..]);
        let mut hp = [_mm256_setzero_si256(); 4];
        for s in 0..4 {
            hp[s] = _mm256_set_m128i(pair(hr[s + 4][0], hr[s + 4][1]), pair(hr[s][0], hr[s][1]));
        }
        for block in blocks.chunks_exact(128) {
            let mut m = [0u64; 16];
            for (w, c) in m.iter_mut().zip(block.chunks_exact(8)) {
                *w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            }
            let mr = rows16(&m);
            let mut b = [_mm256_setzero_si256(); 4];
            let mut a = [_mm256_setzero_si256(); 4];
            for s in 0..4 {
                b[s] = _mm256_set_m128i(pair(mr[s + 4][0], mr[s + 4][1]), pair(mr[s][0], mr[s][1]));
                a[s] = _mm256_xor_si256(hp[s], b[s]);
            }
            perm16::<true>(&mut a, &mut b, dbl);
            for s in 0..4 {
                hp[s] = _mm256_xor_si256(hp[s], _mm256_xor_si256(a[s], b[s]));
            }
            zeroize::Zeroize::zeroize(&mut m);
        }
        if fin {
            let mut a = hp;
            let mut none = hp;
            perm16::<false>(&mut a, &mut none, dbl);
            for s in 0..4 {
                hp[s] = _mm256_xor_si256(hp[s], a[s]);
            }
        }
        let mut lo = [0u64; 8];
        let mut hi = [0u64; 8];
        for s in 0..4 {
            let [a0, a1] = words(_mm256_castsi256_si128(hp[s]));
            let [b0, b1] = words(_mm256_extracti128_si256::<1>(hp[s]));
            (lo[s], hi[s], lo[s + 4], hi[s + 4]) = (a0, a1, b0, b1);
        }
        transpose8(&mut lo);
        transpose8(&mut hi);
        h[..8].copy_from_slice(&lo);
        h[8..].copy_from_slice(&hi);
        zeroize::Zeroize::zeroize(&mut lo);
        zeroize::Zeroize::zeroize(&mut hi);
    }
}

#[target_feature(enable = "avx2")]
fn run(h: &mut [u64; 16], cols: usize, blocks: &[u8], fin: bool) {
    if cols == 8 {
        run8(h, blocks, fin, |x| xtime(x))
    } else {
        run16(h, blocks, fin, |x| xtime(x))
    }
}

#[target_feature(enable = "avx2,gfni")]
fn run_gfni(h: &mut [u64; 16], cols: usize, blocks: &[u8], fin: bool) {
    if cols == 8 {
        run8(h, blocks, fin, |x| xtime_gfni(x))
    } else {
        run16(h, blocks, fin, |x| xtime_gfni(x))
    }
}

fn dispatch(t: Avx2, h: &mut [u64; 16], cols: usize, blocks: &[u8], fin: bool) {
    let _ = t;
    if Avx2Gfni::get().is_some() {
        // SAFETY: the token just obtained proves AVX2 and GFNI.
        unsafe { run_gfni(h, cols, blocks, fin) }
    } else {
        // SAFETY: `t` proves AVX2.
        unsafe { run(h, cols, blocks, fin) }
    }
}

/// Compresses the whole blocks of `blocks` (`8 * cols` bytes each) into `h`.
pub(super) fn compress(t: Avx2, h: &mut [u64; 16], cols: usize, blocks: &[u8]) {
    dispatch(t, h, cols, blocks, false)
}

/// `h = T⊕(h) ^ h` (the output transformation before truncation).
pub(super) fn finish(t: Avx2, h: &mut [u64; 16], cols: usize) {
    dispatch(t, h, cols, &[], true)
}
