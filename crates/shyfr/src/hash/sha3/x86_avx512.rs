//! Keccak-f\[1600\] with AVX-512 (F and VL; x86-64): the 25 lanes in five `zmm` registers
//! of five lanes each, `vpternlogq` for theta's parities and for chi, `vprolvq` for rho,
//! `vpermq` and masked blends for pi.
//!
//! # Layouts
//!
//! Theta needs the five lanes of each column at one position in five registers (its
//! parities are then two `vpternlogq`); chi needs the lanes of each row either at one
//! position in registers `x, x+1, x+2` or in one register. Pi maps the lane at `(x, y)`
//! to `(y, 2x + 3y)`, so no one layout serves every round; the layout changes within a
//! pair of rounds and comes back after it (the idea of alternating layouts between even
//! and odd rounds is described in the notes of A. Polyakov's CRYPTOGAMS `keccak1600-avx512`
//! module; this code is written from the derivation below). Writing `R[j][p]` for
//! position `p` of register `j`, and all coordinates modulo 5:
//!
//! * **rows**, where a pair starts and ends: `R[y][x] = A[x, y]` (the byte order of the
//!   state, so loading and absorbing are masked loads). Pi sends every lane of register
//!   `y` to column `y`, so one `vpermq` a register (`R[y][p]` takes position `3p + y`)
//!   makes
//! * **columns**: `R[x][y] = A[x, y]`, where chi is three registers to one
//!   `vpternlogq`. The even round's output is in this layout. Theta cannot use it (a
//!   column is in one register), so
//! * **diagonals**: `R[j][p] = A[p, p - j]`, made from the columns by four masked blends a
//!   register (position `p` of the blend taken from register `p + j`) and one `vpermq`.
//!   Columns are aligned again, and after pi register `j` holds row `2j`, lane `x` at
//!   position `x + j`: three `vpermq` of that register give chi's three operands already
//!   at positions `x`, so the odd round's chi writes the rows layout.
//!
//! A pair of rounds is 83 instructions: 37 `vpternlogq` / `vpxorq`, 20 blends, 25
//! `vpermq`, 10 `vprolvq` and 2 `vprolq`. Positions 5 to 7 of each register hold
//! whatever the permutations put there; no lane of the state ever reads them.
//!
//! Every instruction has data-independent timing and there is no table look-up indexed by
//! data: constant time.

use core::arch::x86_64::*;

use super::consts::{RC, RHO};
use crate::cpu::x86::Avx512;

/// `vpternlogq` truth table of `a ^ b ^ c`.
const XOR3: i32 = 0x96;
/// `vpternlogq` truth table of `a ^ (!b & c)` (chi).
const CHI: i32 = 0xd2;

/// Index vectors and rotation counts, each a row of eight 64-bit words.
#[repr(C, align(64))]
struct Tables {
    /// `ROT[c][p] = (p + c) % 5` for positions 0..5 (5, 6, 7 stay in place).
    rot: [[u64; 8]; 5],
    /// Pi from the rows layout to the columns layout: `PI[y][p] = (3p + y) % 5`.
    pi: [[u64; 8]; 5],
    /// Rho in the rows layout: `RHO_ROWS[y][x] = RHO[x + 5y]`.
    rho_rows: [[u64; 8]; 5],
    /// Rho in the diagonals layout: `RHO_DIAG[j][p] = RHO[p + 5(p - j)]`.
    rho_diag: [[u64; 8]; 5],
}

static TABLES: Tables = {
    let mut t = Tables {
        rot: [[0; 8]; 5],
        pi: [[0; 8]; 5],
        rho_rows: [[0; 8]; 5],
        rho_diag: [[0; 8]; 5],
    };
    let mut r = 0;
    while r < 5 {
        let mut p = 0;
        while p < 8 {
            if p < 5 {
                t.rot[r][p] = ((p + r) % 5) as u64;
                t.pi[r][p] = ((3 * p + r) % 5) as u64;
                t.rho_rows[r][p] = RHO[p + 5 * r] as u64;
                t.rho_diag[r][p] = RHO[p + 5 * ((p + 5 - r) % 5)] as u64;
            } else {
                t.rot[r][p] = p as u64;
                t.pi[r][p] = p as u64;
            }
            p += 1;
        }
        r += 1;
    }
    t
};

/// The constants in registers (LLVM keeps what fits).
#[derive(Clone, Copy)]
struct Consts {
    rot: [__m512i; 5],
    pi: [__m512i; 5],
    rho_rows: [__m512i; 5],
    rho_diag: [__m512i; 5],
}

#[target_feature(enable = "avx512f")]
#[inline]
fn consts() -> Consts {
    let load = |row: &[u64; 8]| {
        // SAFETY: `row` is 64 readable bytes; unaligned loads are allowed.
        unsafe { _mm512_loadu_si512(row.as_ptr().cast()) }
    };
    Consts {
        rot: TABLES.rot.each_ref().map(load),
        pi: TABLES.pi.each_ref().map(load),
        rho_rows: TABLES.rho_rows.each_ref().map(load),
        rho_diag: TABLES.rho_diag.each_ref().map(load),
    }
}

/// Theta on five registers whose column `x` is at position `x` in each: returns the
/// registers with `D[x] = C[x-1] ^ rotl(C[x+1], 1)` added.
#[target_feature(enable = "avx512f")]
#[inline]
fn theta(r: [__m512i; 5], k: &Consts) -> [__m512i; 5] {
    let c = _mm512_ternarylogic_epi64(r[0], r[1], r[2], XOR3);
    let c = _mm512_ternarylogic_epi64(c, r[3], r[4], XOR3);
    // C[x-1] at position x, and rotl(C[x+1], 1) at position x.
    let cm = _mm512_permutexvar_epi64(k.rot[4], c);
    let cp = _mm512_permutexvar_epi64(k.rot[1], _mm512_rol_epi64(c, 1));
    r.map(|v| _mm512_ternarylogic_epi64(v, cm, cp, XOR3))
}

/// `v` with position `p` taking position `(p + c) % 5` (no instruction when that is `p`).
#[target_feature(enable = "avx512f")]
#[inline]
fn rotate(v: __m512i, c: usize, k: &Consts) -> __m512i {
    if c.is_multiple_of(5) {
        v
    } else {
        _mm512_permutexvar_epi64(k.rot[c % 5], v)
    }
}

/// `v` with `rc` added to position 0 (iota).
#[target_feature(enable = "avx512f")]
#[inline]
fn iota(v: __m512i, rc: u64) -> __m512i {
    _mm512_mask_xor_epi64(v, 1, v, _mm512_set1_epi64(rc as i64))
}

/// Two rounds, `rc0` and `rc1`, from the rows layout to the rows layout.
#[target_feature(enable = "avx512f")]
#[inline]
fn round_pair(s: [__m512i; 5], k: &Consts, rc0: u64, rc1: u64) -> [__m512i; 5] {
    // Even round. Theta and rho in rows; pi to columns.
    let t = theta(s, k);
    let q: [__m512i; 5] = core::array::from_fn(|y| {
        _mm512_permutexvar_epi64(k.pi[y], _mm512_rolv_epi64(t[y], k.rho_rows[y]))
    });
    // Chi across registers, iota on register 0 (column 0, position 0: lane (0, 0)).
    let mut n: [__m512i; 5] = core::array::from_fn(|x| {
        _mm512_ternarylogic_epi64(q[x], q[(x + 1) % 5], q[(x + 2) % 5], CHI)
    });
    n[0] = iota(n[0], rc0);

    // Columns to diagonals: position p of register j from register p + j (a blend of
    // five registers as a tree of four), then rotated by -j.
    let d: [__m512i; 5] = core::array::from_fn(|j| {
        let a = _mm512_mask_blend_epi64(0b0_0010, n[j], n[(j + 1) % 5]);
        let b = _mm512_mask_blend_epi64(0b0_1000, n[(j + 2) % 5], n[(j + 3) % 5]);
        let ab = _mm512_mask_blend_epi64(0b0_1100, a, b);
        let g = _mm512_mask_blend_epi64(0b1_0000, ab, n[(j + 4) % 5]);
        rotate(g, 5 - j, k)
    });

    // Odd round. Theta and rho in diagonals; register j then holds row 2j with lane x at
    // position x + j, and chi's operands come from three rotations of it.
    let t = theta(d, k);
    let mut out = [_mm512_setzero_si512(); 5];
    for (j, &v) in t.iter().enumerate() {
        let b = _mm512_rolv_epi64(v, k.rho_diag[j]);
        let b0 = rotate(b, j, k);
        let b1 = rotate(b, j + 1, k);
        let b2 = rotate(b, j + 2, k);
        out[(2 * j) % 5] = _mm512_ternarylogic_epi64(b0, b1, b2, CHI);
    }
    out[0] = iota(out[0], rc1);
    out
}

/// The 24 rounds on the rows layout.
#[target_feature(enable = "avx512f")]
#[inline]
fn rounds(mut s: [__m512i; 5], k: &Consts) -> [__m512i; 5] {
    for rc in RC.chunks_exact(2) {
        s = round_pair(s, k, rc[0], rc[1]);
    }
    s
}

/// Mask of the five lanes of a row.
const ROW: __mmask8 = 0b1_1111;

#[target_feature(enable = "avx512f")]
#[inline]
fn load_state(lanes: &[u64; 25]) -> [__m512i; 5] {
    // SAFETY: row `y` is lanes `5y .. 5y + 5` of the 25; the masked load reads only those.
    core::array::from_fn(|y| unsafe {
        _mm512_maskz_loadu_epi64(ROW, lanes.as_ptr().add(5 * y).cast())
    })
}

#[target_feature(enable = "avx512f")]
#[inline]
fn store_state(lanes: &mut [u64; 25], s: [__m512i; 5]) {
    for (y, v) in s.into_iter().enumerate() {
        // SAFETY: the masked store writes only lanes `5y .. 5y + 5` of the 25.
        unsafe { _mm512_mask_storeu_epi64(lanes.as_mut_ptr().add(5 * y).cast(), ROW, v) };
    }
}

#[target_feature(enable = "avx512f,avx512vl")]
fn permute_kernel(lanes: &mut [u64; 25]) {
    let k = consts();
    let s = rounds(load_state(lanes), &k);
    store_state(lanes, s);
}

#[target_feature(enable = "avx512f,avx512vl")]
fn absorb_kernel(lanes: &mut [u64; 25], blocks: &[u8], rate: usize) {
    let k = consts();
    let n = rate / 8;
    // The lanes of each row that a block covers.
    let mask: [__mmask8; 5] = core::array::from_fn(|y| {
        let have = n.saturating_sub(5 * y).min(5);
        ((1u32 << have) - 1) as __mmask8
    });
    let mut s = load_state(lanes);
    for block in blocks.chunks_exact(rate) {
        for (y, v) in s.iter_mut().enumerate() {
            // SAFETY: `mask[y]` selects lanes `5y ..` below `n`, so the load reads bytes
            // `40y ..` below `rate` of the block, which has `rate` bytes; masked-off lanes
            // are not read.
            let m = unsafe { _mm512_maskz_loadu_epi64(mask[y], block.as_ptr().add(40 * y).cast()) };
            *v = _mm512_xor_si512(*v, m);
        }
        s = rounds(s, &k);
    }
    store_state(lanes, s);
}

// ---------------------------------------------------------------------------------------
// Eight states at a time
// ---------------------------------------------------------------------------------------

/// Eight states side by side: element `s` of `v[i]` is lane `i` of state `s`. Every step of
/// the permutation is then the scalar formula with 64-bit lanes replaced by vectors, and
/// pi is a renaming.
type X8 = [__m512i; 25];

/// One round on eight states: theta (10 + 5 + 25 instructions: parities, `rotl(C, 1)`,
/// `A ^ C[x-1] ^ rotl(C[x+1], 1)` in one `vpternlogq`), rho (24 `vprolq`), pi (renaming),
/// chi (25 `vpternlogq`), iota (one `vpxorq`).
#[target_feature(enable = "avx512f")]
#[inline]
fn round_x8(a: &mut X8, rc: u64) {
    let c: [__m512i; 5] = core::array::from_fn(|x| {
        let t = _mm512_ternarylogic_epi64(a[x], a[x + 5], a[x + 10], XOR3);
        _mm512_ternarylogic_epi64(t, a[x + 15], a[x + 20], XOR3)
    });
    let r: [__m512i; 5] = core::array::from_fn(|x| _mm512_rol_epi64(c[(x + 1) % 5], 1));
    let mut b = [_mm512_setzero_si512(); 25];
    for y in 0..5 {
        for x in 0..5 {
            let i = x + 5 * y;
            let t = _mm512_ternarylogic_epi64(a[i], c[(x + 4) % 5], r[x], XOR3);
            // A constant rotation: LLVM emits `vprolq` with an immediate.
            let t = _mm512_rolv_epi64(t, _mm512_set1_epi64(i64::from(RHO[i])));
            b[y + 5 * ((2 * x + 3 * y) % 5)] = t;
        }
    }
    for y in 0..5 {
        for x in 0..5 {
            a[x + 5 * y] = _mm512_ternarylogic_epi64(
                b[x + 5 * y],
                b[(x + 1) % 5 + 5 * y],
                b[(x + 2) % 5 + 5 * y],
                CHI,
            );
        }
    }
    a[0] = _mm512_xor_si512(a[0], _mm512_set1_epi64(rc as i64));
}

#[target_feature(enable = "avx512f")]
#[inline]
fn rounds_x8(a: &mut X8) {
    for &rc in &RC {
        round_x8(a, rc);
    }
}

/// Transposes an 8 x 8 matrix of 64-bit words: element `j` of `out[i]` is element `i` of
/// `m[j]`.
#[target_feature(enable = "avx512f")]
#[inline]
fn transpose8(m: [__m512i; 8]) -> [__m512i; 8] {
    // Pairs: t[2k] = [m2k[0], m2k+1[0], m2k[2], m2k+1[2], ..], t[2k+1] the odd elements.
    let t: [__m512i; 8] = core::array::from_fn(|i| {
        let (a, b) = (m[i & !1], m[i | 1]);
        if i % 2 == 0 {
            _mm512_unpacklo_epi64(a, b)
        } else {
            _mm512_unpackhi_epi64(a, b)
        }
    });
    // Quads: elements e, e + 4 of rows 4h .. 4h + 4 (h = 0, 1), for e = 0, 1, 2, 3.
    let lo = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
    let hi = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    let u: [__m512i; 8] = core::array::from_fn(|i| {
        let (h, e) = (i / 4, i % 4);
        // t[4h + (e & 1)] pairs with t[4h + 2 + (e & 1)]; `lo` takes their elements
        // {0, 1, 4, 5}, `hi` {2, 3, 6, 7}.
        let (a, b) = (t[4 * h + (e & 1)], t[4 * h + 2 + (e & 1)]);
        _mm512_permutex2var_epi64(a, if e < 2 { lo } else { hi }, b)
    });
    // Octets: u[e] (rows 0..4) with u[4 + e] (rows 4..8): elements e and e + 4.
    let first = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0);
    let second = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
    core::array::from_fn(|i| {
        let e = i % 4;
        _mm512_permutex2var_epi64(u[e], if i < 4 { first } else { second }, u[4 + e])
    })
}

/// Converts eight states from `[u64; 25]` arrays to the side-by-side form.
#[target_feature(enable = "avx512f")]
#[inline]
fn load_x8(states: &[[u64; 25]; 8]) -> X8 {
    let mut a = [_mm512_setzero_si512(); 25];
    for g in 0..4 {
        let n = (25 - 8 * g).min(8);
        let mask = ((1u32 << n) - 1) as __mmask8;
        // SAFETY: lanes `8g .. 8g + n` of each state exist (`8g + n <= 25`); the masked
        // load reads only those.
        let rows: [__m512i; 8] = core::array::from_fn(|s| unsafe {
            _mm512_maskz_loadu_epi64(mask, states[s].as_ptr().add(8 * g).cast())
        });
        let cols = transpose8(rows);
        a[8 * g..8 * g + n].copy_from_slice(&cols[..n]);
    }
    a
}

/// Converts eight states back to `[u64; 25]` arrays.
#[target_feature(enable = "avx512f")]
#[inline]
fn store_x8(states: &mut [[u64; 25]; 8], a: &X8) {
    for g in 0..4 {
        let n = (25 - 8 * g).min(8);
        let mask = ((1u32 << n) - 1) as __mmask8;
        let cols: [__m512i; 8] = core::array::from_fn(|j| {
            if j < n {
                a[8 * g + j]
            } else {
                _mm512_setzero_si512()
            }
        });
        let rows = transpose8(cols);
        for (s, row) in rows.into_iter().enumerate() {
            // SAFETY: the masked store writes only lanes `8g .. 8g + n` of state `s`.
            unsafe {
                _mm512_mask_storeu_epi64(states[s].as_mut_ptr().add(8 * g).cast(), mask, row)
            };
        }
    }
}

#[target_feature(enable = "avx512f,avx512vl")]
fn permute_x8_kernel(states: &mut [[u64; 25]; 8]) {
    let mut a = load_x8(states);
    rounds_x8(&mut a);
    store_x8(states, &a);
}

#[target_feature(enable = "avx512f,avx512vl")]
fn absorb_x8_kernel(states: &mut [[u64; 25]; 8], blocks: [&[u8]; 8], rate: usize) {
    let n = rate / 8;
    let count = blocks[0].len() / rate;
    let mut a = load_x8(states);
    for b in 0..count {
        for g in 0..n.div_ceil(8) {
            let have = (n - 8 * g).min(8);
            let mask = ((1u32 << have) - 1) as __mmask8;
            // SAFETY: every `blocks[s]` has `count` blocks of `rate` bytes (checked by the
            // caller); the masked load reads lanes `8g .. 8g + have` (below `n`) of block
            // `b`, inside it.
            let rows: [__m512i; 8] = core::array::from_fn(|s| unsafe {
                _mm512_maskz_loadu_epi64(mask, blocks[s].as_ptr().add(b * rate + 64 * g).cast())
            });
            let cols = transpose8(rows);
            for (j, &c) in cols.iter().enumerate().take(have) {
                a[8 * g + j] = _mm512_xor_si512(a[8 * g + j], c);
            }
        }
        rounds_x8(&mut a);
    }
    store_x8(states, &a);
}

/// Keccak-f\[1600\] on each of eight states.
pub(super) fn permute_x8(states: &mut [[u64; 25]; 8], _t: Avx512) {
    // SAFETY: the `Avx512` token proves AVX-512F and AVX-512VL are available.
    unsafe { permute_x8_kernel(states) }
}

/// For each `s`, XORs each `rate`-byte block of `blocks[s]` into `states[s]` and permutes;
/// every `blocks[s]` has the same length, a whole number of blocks.
pub(super) fn absorb_x8(states: &mut [[u64; 25]; 8], blocks: [&[u8]; 8], rate: usize, _t: Avx512) {
    let len = blocks[0].len();
    assert!(len.is_multiple_of(rate) && blocks.iter().all(|b| b.len() == len));
    // SAFETY: the `Avx512` token proves AVX-512F and AVX-512VL are available; the lengths
    // were checked above.
    unsafe { absorb_x8_kernel(states, blocks, rate) }
}

/// Keccak-f\[1600\] on `lanes`.
pub(super) fn permute(lanes: &mut [u64; 25], _t: Avx512) {
    // SAFETY: the `Avx512` token proves AVX-512F and AVX-512VL are available.
    unsafe { permute_kernel(lanes) }
}

/// XORs each `rate`-byte block of `blocks` into the state and permutes.
pub(super) fn absorb(lanes: &mut [u64; 25], blocks: &[u8], rate: usize, _t: Avx512) {
    // SAFETY: the `Avx512` token proves AVX-512F and AVX-512VL are available.
    unsafe { absorb_kernel(lanes, blocks, rate) }
}
