//! Kalyna with AVX-512 VBMI and GFNI, byte-sliced: 64 blocks at a time, one zmm register
//! per byte position of the state (`st[8 * c + r]` holds byte `r` of column `c` of all 64
//! blocks, block `j` in byte lane `j`).
//!
//! * SubBytes: each register goes through one S-box (row `r` uses pi_{r mod 4}), two
//!   `vpermi2b` on the four 64-byte quarters of the table (held in registers) and a blend on
//!   bit 7 of the input (`vpmovb2m`): constant time, no memory index.
//! * ShiftRows: register renaming (the S-box of output column `c` reads column
//!   `c - shift(r)`).
//! * MixColumns: `out_r = A + 2 B + 4 C + 8 D` with `A = y_r + y_{r+1} + y_{r+2} + y_{r+3}
//!   + y_{r+6}`, `B = y_{r+5} + y_{r+6}`, `C = y_{r+2} + y_{r+5} + y_{r+6} + y_{r+7}`,
//!   `D = y_{r+4}` (the row 01 01 05 01 08 06 07 04 split by bits), the multiplications by
//!   2, 4, 8 modulo x^8+x^4+x^3+x^2+1 being GF(2)-linear maps done by `gf2p8affineqb`; three
//!   per output byte, the XORs by `vpternlogd`, with the round key folded into the last.
//! * InvMixColumns: eight `gf2p8affineqb` per output byte, one per coefficient of the
//!   inverse row.
//! * The modular first and last key additions are done on the 64-bit columns before the
//!   transposition into byte slices and after the one back (`vpaddq` / `vpsubq`).
//!
//! The transposition: the columns of the 64 blocks are gathered into `cols[c][j]`, each
//! column's 64 words are loaded into 8 registers, the 8 bytes of every word are transposed
//! with one `vpermb` per register, and an 8x8 transpose of 64-bit elements (three rounds of
//! `vpermt2q`) gives the eight row registers. Fewer than 64 blocks run as a whole batch
//! (the lanes past the data carry stale values whose results are not stored).
//!
//! The one-block-at-a-time modes (CBC and CFB encryption, OFB, CBC-MAC) run the natural
//! layout on one register per block instead, bound by the latency of a round: for 128- and
//! 256-bit blocks all `NR` rounds are one `asm!` statement per block (`round_text!`: eight
//! zero-masked `vpermi2b`, one OR after the last, the five MixColumns products by
//! `gf2p8affineqb` first, then one byte permute per term with ShiftRows folded in, and two
//! levels of `vpternlogd`), about 25.5 core cycles a round for 128-bit blocks in a `rdtsc`
//! loop of the round alone. CBC encryption, Zen 4, 16 KiB, cycles per byte at 3.7 GHz on a
//! loaded machine (Crypto++ 8.7 in the same run): 128/128 17.2 (14.1), 128/256 26.8
//! (21.8), 256/256 14.4 (15.9), 256/512 18.4 (19.7), 512/512 11.5-12.9 (17.7). 512-bit
//! blocks run the same round text on `zmm` registers (`chain512`: 37 cycles a round
//! against 51 for the intrinsics kernel it replaced, CBC 14.2-14.5 -> 10.6-10.9 cycles/byte
//! on a Sapphire Rapids-class Xeon, Crypto++ 14.1-14.7; on Zen 4 CBC 12.6-13.7 -> 11.5-11.7,
//! Crypto++ 17.4-17.6). On that Intel core the round's floor is
//! the S-box: `vpermi2b` occupies the one shuffle port for two cycles (so eight of them
//! take 16 cycles whatever the block width) and returns after five (seven zero-masked).

// Register arrays are indexed by (column, group) in both orders; index loops read best.
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use super::soft::shift;
use super::Chained as Chain;
use super::{RoundKeys, MAX_ROUNDS};
use crate::arith::gf256::x86_avx512::{
    inv_mix, mix, nat_inv_mix, nat_mix, nat_sbox, rot_idx, sbox, table, M4, M5, M6, M7, M8, POS,
};
use crate::arith::lanes::x86_avx512::transpose_q8;
use crate::cpu::x86::Avx512VbmiGfni;
use crate::inout::InOut;

/// Blocks per batch.
pub(super) const BATCH: usize = 64;

/// The XOR round keys as bytes repeated four times (`k[t][8 * c + r]`), the form a 32-bit
/// broadcast load wants.
#[derive(Clone)]
///
/// For the natural layout (`nat`), every round key repeated over 64 bytes.
pub(super) struct Keys {
    k: [[u32; 64]; MAX_ROUNDS + 1],
    nat: [[u64; 8]; MAX_ROUNDS + 1],
}

impl Drop for Keys {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(self.k.as_flattened_mut());
        zeroize::Zeroize::zeroize(self.nat.as_flattened_mut());
    }
}

impl Keys {
    pub(super) fn new(rk: &RoundKeys) -> Keys {
        let mut k = [[0u32; 64]; MAX_ROUNDS + 1];
        let mut nat = [[0u64; 8]; MAX_ROUNDS + 1];
        for t in 0..=rk.nr {
            for (i, v) in k[t].iter_mut().enumerate().take(8 * rk.nb) {
                let byte = (rk.rk[t][i / 8] >> (8 * (i % 8))) as u8;
                *v = u32::from(byte) * 0x0101_0101;
            }
            for (q, w) in nat[t].iter_mut().enumerate() {
                *w = rk.rk[t][q % rk.nb];
            }
        }
        Keys { k, nat }
    }
}

/// `vpermb` index of the 8x8 byte transpose inside every 64-byte register: output byte
/// `8 r + q` is input byte `8 q + r`.
static BYTE_T: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = ((i % 8) * 8 + i / 8) as u8;
        i += 1;
    }
    t
};

/// The round key `t` byte of position `i`, in every byte lane.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn key(keys: &Keys, t: usize, i: usize) -> __m512i {
    _mm512_set1_epi32(keys.k[t][i] as i32)
}

/// A `vpermt2q` index from eight entries (0..8 the first operand, 8..16 the second).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn idx(i: [i64; 8]) -> __m512i {
    _mm512_set_epi64(i[7], i[6], i[5], i[4], i[3], i[2], i[1], i[0])
}

/// The `NB` registers of 64-bit words of one group of 8 blocks (block-major, as in memory)
/// to column-major: `out[c]` holds column `c` of the 8 blocks. Its own inverse for NB = 8;
/// [`ungather`] undoes it for NB = 2 and 4.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn gather<const NB: usize>(v: &mut [__m512i; NB]) {
    match NB {
        2 => {
            let (a, b) = (v[0], v[1]);
            v[0] = _mm512_permutex2var_epi64(a, idx([0, 2, 4, 6, 8, 10, 12, 14]), b);
            v[1] = _mm512_permutex2var_epi64(a, idx([1, 3, 5, 7, 9, 11, 13, 15]), b);
        }
        4 => {
            let (e, o) = (
                idx([0, 4, 8, 12, 1, 5, 9, 13]),
                idx([2, 6, 10, 14, 3, 7, 11, 15]),
            );
            let (u0, u1) = (
                _mm512_permutex2var_epi64(v[0], e, v[1]),
                _mm512_permutex2var_epi64(v[0], o, v[1]),
            );
            let (w0, w1) = (
                _mm512_permutex2var_epi64(v[2], e, v[3]),
                _mm512_permutex2var_epi64(v[2], o, v[3]),
            );
            let (lo, hi) = (
                idx([0, 1, 2, 3, 8, 9, 10, 11]),
                idx([4, 5, 6, 7, 12, 13, 14, 15]),
            );
            v[0] = _mm512_permutex2var_epi64(u0, lo, w0);
            v[1] = _mm512_permutex2var_epi64(u0, hi, w0);
            v[2] = _mm512_permutex2var_epi64(u1, lo, w1);
            v[3] = _mm512_permutex2var_epi64(u1, hi, w1);
        }
        _ => {
            let mut w = [_mm512_setzero_si512(); 8];
            w.copy_from_slice(&v[..8]);
            transpose_q8(&mut w);
            v[..8].copy_from_slice(&w);
        }
    }
}

/// The inverse of [`gather`].
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn ungather<const NB: usize>(v: &mut [__m512i; NB]) {
    match NB {
        2 => {
            let (a, b) = (v[0], v[1]);
            v[0] = _mm512_permutex2var_epi64(a, idx([0, 8, 1, 9, 2, 10, 3, 11]), b);
            v[1] = _mm512_permutex2var_epi64(a, idx([4, 12, 5, 13, 6, 14, 7, 15]), b);
        }
        4 => {
            let (lo, hi) = (
                idx([0, 1, 2, 3, 8, 9, 10, 11]),
                idx([4, 5, 6, 7, 12, 13, 14, 15]),
            );
            let (u0, w0) = (
                _mm512_permutex2var_epi64(v[0], lo, v[1]),
                _mm512_permutex2var_epi64(v[0], hi, v[1]),
            );
            let (u1, w1) = (
                _mm512_permutex2var_epi64(v[2], lo, v[3]),
                _mm512_permutex2var_epi64(v[2], hi, v[3]),
            );
            let (e, o) = (
                idx([0, 4, 8, 12, 1, 5, 9, 13]),
                idx([2, 6, 10, 14, 3, 7, 11, 15]),
            );
            v[0] = _mm512_permutex2var_epi64(u0, e, u1);
            v[1] = _mm512_permutex2var_epi64(u0, o, u1);
            v[2] = _mm512_permutex2var_epi64(w0, e, w1);
            v[3] = _mm512_permutex2var_epi64(w0, o, w1);
        }
        _ => gather::<NB>(v),
    }
}

/// Mask of the valid 64-bit words of register `m` of a batch holding `words` words.
#[inline(always)]
fn word_mask(m: usize, words: usize) -> __mmask8 {
    let valid = words.saturating_sub(8 * m).min(8);
    ((1u16 << valid) - 1) as __mmask8
}

/// Byte slices from column registers (`cols[c][g]`: column `c` of blocks `8g .. 8g + 8`),
/// adding (`DEC` false) or subtracting the round key `k` per column first.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn cols_to_rows<const NB: usize, const DEC: bool>(
    cols: &[[__m512i; 8]; NB],
    k: &[u64; 8],
) -> [[__m512i; 8]; NB] {
    // SAFETY: BYTE_T is 64 readable bytes.
    let bt = unsafe { _mm512_loadu_si512(BYTE_T.as_ptr().cast()) };
    core::array::from_fn(|c| {
        let kc = _mm512_set1_epi64(k[c] as i64);
        let mut v: [__m512i; 8] = core::array::from_fn(|g| {
            let w = if DEC {
                _mm512_sub_epi64(cols[c][g], kc)
            } else {
                _mm512_add_epi64(cols[c][g], kc)
            };
            _mm512_permutexvar_epi8(bt, w)
        });
        transpose_q8(&mut v);
        v
    })
}

/// Column registers from byte slices (the inverse of [`cols_to_rows`]), adding or
/// subtracting the round key `k` per column last.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn rows_to_cols<const NB: usize, const DEC: bool>(
    st: &[[__m512i; 8]; NB],
    k: &[u64; 8],
) -> [[__m512i; 8]; NB] {
    // SAFETY: BYTE_T is 64 readable bytes.
    let bt = unsafe { _mm512_loadu_si512(BYTE_T.as_ptr().cast()) };
    core::array::from_fn(|c| {
        let mut v = st[c];
        transpose_q8(&mut v);
        let kc = _mm512_set1_epi64(k[c] as i64);
        core::array::from_fn(|g| {
            let w = _mm512_permutexvar_epi8(bt, v[g]);
            if DEC {
                _mm512_sub_epi64(w, kc)
            } else {
                _mm512_add_epi64(w, kc)
            }
        })
    })
}

/// Loads `n <= 64` blocks from `src` as column registers.
///
/// # Safety
/// `src` is readable for `n * 8 * NB` bytes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
unsafe fn load_cols<const NB: usize>(src: *const u8, n: usize) -> [[__m512i; 8]; NB] {
    let mut cols = [[_mm512_setzero_si512(); 8]; NB];
    for g in 0..8 {
        let mut v: [__m512i; NB] = core::array::from_fn(|i| {
            let m = g * NB + i;
            // SAFETY: the mask keeps the load inside the `n * NB` words the caller
            // guarantees; masked-off words are not accessed.
            unsafe { _mm512_maskz_loadu_epi64(word_mask(m, n * NB), src.add(64 * m).cast::<i64>()) }
        });
        gather::<NB>(&mut v);
        for c in 0..NB {
            cols[c][g] = v[c];
        }
    }
    cols
}

/// Stores the first `n <= 64` blocks of column registers to `dst`, XORed with the
/// same blocks of `xor_src` when it is given (the keystream modes).
///
/// # Safety
/// `dst` is writable, and `xor_src` (if any) readable, for `n * 8 * NB` bytes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
unsafe fn store_cols<const NB: usize>(
    cols: &[[__m512i; 8]; NB],
    dst: *mut u8,
    xor_src: Option<*const u8>,
    n: usize,
) {
    for g in 0..8 {
        let mut v: [__m512i; NB] = core::array::from_fn(|c| cols[c][g]);
        ungather::<NB>(&mut v);
        for (i, w) in v.iter().enumerate() {
            let m = g * NB + i;
            let mask = word_mask(m, n * NB);
            let w = match xor_src {
                // SAFETY: the mask keeps the load inside the caller's region.
                Some(s) => _mm512_xor_si512(*w, unsafe {
                    _mm512_maskz_loadu_epi64(mask, s.add(64 * m).cast::<i64>())
                }),
                None => *w,
            };
            // SAFETY: the mask keeps the store inside the `n * NB` words the caller
            // guarantees.
            unsafe { _mm512_mask_storeu_epi64(dst.add(64 * m).cast::<i64>(), mask, w) };
        }
    }
}

/// The keyed rounds between the first and the last (modular) key addition, on byte
/// slices: encryption rounds 1..=nr (the last without its XOR key), or decryption rounds.
/// `SITE` only tells the call sites apart: each gets its own instance, which the compiler
/// then inlines (one shared instance would be called, with the state in memory).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn rounds<const NB: usize, const DEC: bool, const SITE: u8>(
    nr: usize,
    keys: &Keys,
    st: &mut [[__m512i; 8]; NB],
) {
    if DEC {
        let t: [[__m512i; 4]; 4] = core::array::from_fn(|i| table(4 + i));
        for round in (0..nr).rev() {
            let mut z: [[__m512i; 8]; NB] = core::array::from_fn(|c| inv_mix(&st[c]));
            core::hint::black_box(&mut z);
            for (c, col) in st.iter_mut().enumerate() {
                for (r, v) in col.iter_mut().enumerate() {
                    let y = sbox(z[(c + shift(r, NB)) % NB][r], &t[r % 4]);
                    *v = if round > 0 {
                        _mm512_xor_si512(y, key(keys, round, 8 * c + r))
                    } else {
                        y
                    };
                }
            }
        }
    } else {
        let t: [[__m512i; 4]; 4] = core::array::from_fn(table);
        for round in 1..=nr {
            *st = core::array::from_fn(|c| {
                let y: [__m512i; 8] =
                    core::array::from_fn(|r| sbox(st[(c + NB - shift(r, NB)) % NB][r], &t[r % 4]));
                let k: [__m512i; 8] = core::array::from_fn(|r| {
                    if round < nr {
                        key(keys, round, 8 * c + r)
                    } else {
                        _mm512_setzero_si512()
                    }
                });
                mix(&y, k)
            });
        }
    }
}

/// The cipher on `n <= 64` blocks from `src` to `dst` (which may be equal).
///
/// # Safety
/// `src` is readable and `dst` writable for `n` blocks.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
unsafe fn batch<const NB: usize, const DEC: bool>(
    rk: &RoundKeys,
    keys: &Keys,
    src: *const u8,
    dst: *mut u8,
    n: usize,
) {
    let nr = rk.nr;
    let (first, last) = if DEC { (nr, 0) } else { (0, nr) };
    // SAFETY: forwarded from the caller.
    let cols = unsafe { load_cols::<NB>(src, n) };
    let mut st = cols_to_rows::<NB, DEC>(&cols, &rk.rk[first]);
    rounds::<NB, DEC, 0>(nr, keys, &mut st);
    let cols = rows_to_cols::<NB, DEC>(&st, &rk.rk[last]);
    // SAFETY: forwarded from the caller.
    unsafe { store_cols::<NB>(&cols, dst, None, n) };
}

// ---- The natural layout, for a few blocks: a register holds 64 bytes of consecutive
// blocks as in memory (byte 8q + r is row r of 64-bit column q). Latency matters here
// (one block of a serial mode), throughput in the byte-sliced batches.

/// `vpermb` indices of ShiftRows (`[0]`) and its inverse (`[1]`) for 2, 4 and 8 columns.
static SHIFT_IDX: [[[u8; 64]; 2]; 3] = {
    let mut t = [[[0u8; 64]; 2]; 3];
    let mut v = 0;
    while v < 3 {
        let nb = 2 << v;
        let mut p = 0;
        while p < 64 {
            let (q, r) = (p / 8, p % 8);
            let (blk, c) = (q / nb, q % nb);
            let sh = r * nb / 8;
            // Output (c, r) comes from column c - sh; the inverse takes it from c + sh.
            t[v][0][p] = (8 * (blk * nb + (c + nb - sh) % nb) + r) as u8;
            t[v][1][p] = (8 * (blk * nb + (c + sh) % nb) + r) as u8;
            p += 1;
        }
        v += 1;
    }
    t
};

/// The cipher on `R` registers (`n` blocks) in the natural layout, from `src` to `dst`.
///
/// # Safety
/// `src` is readable and `dst` writable for `n` blocks, `n * NB <= 8 * R`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
unsafe fn natural<const NB: usize, const DEC: bool, const R: usize>(
    rk: &RoundKeys,
    keys: &Keys,
    src: *const u8,
    dst: *mut u8,
    n: usize,
) {
    let nr = rk.nr;
    let words = n * NB;
    let key = |t: usize| {
        // SAFETY: `keys.nat[t]` is 64 readable bytes.
        unsafe { _mm512_loadu_si512(keys.nat[t].as_ptr().cast()) }
    };
    let sr = {
        let v = NB.trailing_zeros() as usize - 1;
        // SAFETY: 64 readable bytes of a static table.
        unsafe { _mm512_loadu_si512(SHIFT_IDX[v][DEC as usize].as_ptr().cast()) }
    };
    let t: [[__m512i; 4]; 4] = core::array::from_fn(|i| table(4 * DEC as usize + i));
    let ri = rot_idx();
    // ShiftRows stays inside 128-bit lanes for 128-bit blocks: `vpshufb` is faster there.
    let shift_rows = |x: __m512i| {
        if NB == 2 {
            _mm512_shuffle_epi8(x, sr)
        } else {
            _mm512_permutexvar_epi8(sr, x)
        }
    };
    let mut v: [__m512i; R] = core::array::from_fn(|i| {
        // SAFETY: the mask keeps the load inside the `n * NB` words the caller guarantees.
        unsafe { _mm512_maskz_loadu_epi64(word_mask(i, words), src.add(64 * i).cast::<i64>()) }
    });
    if DEC {
        let k = key(nr);
        for x in v.iter_mut() {
            *x = _mm512_sub_epi64(*x, k);
        }
        for round in (0..nr).rev() {
            let k = if round > 0 {
                key(round)
            } else {
                _mm512_setzero_si512()
            };
            for x in v.iter_mut() {
                let y = nat_sbox(shift_rows(nat_inv_mix(*x, &ri)), &t);
                *x = _mm512_xor_si512(y, k);
            }
        }
        let k = key(0);
        for x in v.iter_mut() {
            *x = _mm512_sub_epi64(*x, k);
        }
    } else {
        let k = key(0);
        for x in v.iter_mut() {
            *x = _mm512_add_epi64(*x, k);
        }
        for round in 1..=nr {
            let k = if round < nr {
                key(round)
            } else {
                _mm512_setzero_si512()
            };
            for x in v.iter_mut() {
                *x = nat_mix(shift_rows(nat_sbox(*x, &t)), k, &ri);
            }
        }
        let k = key(nr);
        for x in v.iter_mut() {
            *x = _mm512_add_epi64(*x, k);
        }
    }
    for (i, x) in v.iter().enumerate() {
        // SAFETY: the mask keeps the store inside the `n * NB` words the caller guarantees.
        unsafe { _mm512_mask_storeu_epi64(dst.add(64 * i).cast::<i64>(), word_mask(i, words), *x) };
    }
}

/// Byte-permutation indices of ShiftRows followed by the byte rotation `k` of every
/// column, for an `L`-byte block (`L / 8` columns): entry `[k][8 c + r]` takes row
/// `(r + k) mod 8` of the column ShiftRows brings to column `c` (`vpshufb` indices for
/// 128-bit blocks, `vpermb` for wider ones).
const fn sr_rot<const L: usize>() -> [[u8; L]; 8] {
    let nb = L / 8;
    let mut t = [[0u8; L]; 8];
    let mut k = 0;
    while k < 8 {
        let mut p = 0;
        while p < L {
            let (c, r) = (p / 8, p % 8);
            let rr = (r + k) % 8;
            t[k][p] = (8 * ((c + nb - shift(rr, nb)) % nb) + rr) as u8;
            p += 1;
        }
        k += 1;
    }
    t
}

/// [`sr_rot`] for 128-bit blocks.
static SR_ROT128: [[u8; 16]; 8] = sr_rot::<16>();

/// [`sr_rot`] for 256-bit blocks.
static SR_ROT256: [[u8; 32]; 8] = sr_rot::<32>();

/// [`sr_rot`] for 512-bit blocks.
static SR_ROT512: [[u8; 64]; 8] = sr_rot::<64>();

/// A zero block: the key operand of the last round of [`chain256`] and [`chain512`]
/// (aligned, so that the load never splits a cache line).
#[repr(C, align(64))]
struct Zero([u8; 64]);

static ZERO: Zero = Zero([0; 64]);

/// The multiplication matrices of the MixColumns coefficients 5, 8, 6, 7, 4 (in the order
/// [`chain128`]'s rounds read them).
static MIX_MAT: [u64; 5] = [M5, M8, M6, M7, M4];

/// One round of [`chain128`] as assembly text, the state in `xmm0` (the index of the last
/// lookup, so its `zmm0` is overwritten), the S-box quarters `pi_s` low / high in
/// `zmm(16 + 4 s) .. zmm(19 + 4 s)`, the row masks of pi_0..pi_3 in `k1`..`k4`; `$key` is
/// the third operand of the last XOR of MixColumns.
///
/// SubBytes: `k5` = the top bits; six lookups of pi_0..pi_2 zero-masked to their rows
/// (any half), ORed per half and blended on `k5`; the two lookups of pi_3 last, zero-masked
/// to its rows and their half (`k6`, `k7`, ready by then), so one OR follows the last
/// lookup. MixColumns: the five products of the state by its coefficients other than 1
/// (5, 8, 6, 7, 4: [`MIX_MAT`]) first, one `gf2p8affineqb` each, then ShiftRows and the
/// column rotation of each of the eight terms as one `vpshufb` ([`SR_ROT128`]; a product
/// commutes with a byte permutation), the nine terms (the key the ninth) summed by four
/// `vpternlogd`, two levels. The order of the text matters on Zen 4 (oldest ready op
/// first): the products before the plain permutes measured 28 cycles a round, the
/// permutes first 34 (`rdtsc` loop of the round alone).
///
/// The `v` form is the same round for a block in `ymm0` or `zmm0` (`$r` the register
/// prefix, `$b` the broadcast of a matrix to every 64-bit lane): each term's permutation
/// is a `vpermb` with its indices in `$r8..$r15` ([`SR_ROT256`], [`SR_ROT512`]), since
/// ShiftRows crosses 128-bit lanes there.
macro_rules! round_text {
    (x, $key:literal) => {
        concat!(
            "vpmovb2m k5, xmm0\n",
            "vmovdqa64 zmm1, zmm0\n",
            "vpermi2b zmm1{{k1}}{{z}}, zmm16, zmm17\n",
            "vmovdqa64 zmm2, zmm0\n",
            "vpermi2b zmm2{{k2}}{{z}}, zmm20, zmm21\n",
            "vmovdqa64 zmm3, zmm0\n",
            "vpermi2b zmm3{{k3}}{{z}}, zmm24, zmm25\n",
            "vmovdqa64 zmm4, zmm0\n",
            "vpermi2b zmm4{{k1}}{{z}}, zmm18, zmm19\n",
            "vmovdqa64 zmm5, zmm0\n",
            "vpermi2b zmm5{{k2}}{{z}}, zmm22, zmm23\n",
            "vmovdqa64 zmm6, zmm0\n",
            "vpermi2b zmm6{{k3}}{{z}}, zmm26, zmm27\n",
            "kandnq k6, k5, k4\n",
            "kandq k7, k5, k4\n",
            "vmovdqa64 zmm7, zmm0\n",
            "vpermi2b zmm7{{k6}}{{z}}, zmm28, zmm29\n",
            "vpermi2b zmm0{{k7}}{{z}}, zmm30, zmm31\n",
            "vpternlogd xmm1, xmm2, xmm3, 0xfe\n",
            "vpternlogd xmm4, xmm5, xmm6, 0xfe\n",
            "vpblendmb xmm1{{k5}}, xmm1, xmm4\n",
            "vpternlogd xmm0, xmm1, xmm7, 0xfe\n",
            "vgf2p8affineqb xmm7, xmm0, qword ptr [{mm} + 32]{{1to2}}, 0\n",
            "vgf2p8affineqb xmm4, xmm0, qword ptr [{mm} + 8]{{1to2}}, 0\n",
            "vgf2p8affineqb xmm5, xmm0, qword ptr [{mm} + 16]{{1to2}}, 0\n",
            "vpshufb xmm1, xmm0, xmmword ptr [{pi}]\n",
            "vpshufb xmm3, xmm0, xmmword ptr [{pi} + 48]\n",
            "vgf2p8affineqb xmm2, xmm0, qword ptr [{mm}]{{1to2}}, 0\n",
            "vgf2p8affineqb xmm6, xmm0, qword ptr [{mm} + 24]{{1to2}}, 0\n",
            "vpshufb xmm7, xmm7, xmmword ptr [{pi} + 112]\n",
            "vpshufb xmm6, xmm6, xmmword ptr [{pi} + 96]\n",
            "vpshufb xmm4, xmm4, xmmword ptr [{pi} + 64]\n",
            "vpternlogd xmm6, xmm7, ",
            $key,
            ", 0x96\n",
            "vpshufb xmm5, xmm5, xmmword ptr [{pi} + 80]\n",
            "vpshufb xmm0, xmm0, xmmword ptr [{pi} + 16]\n",
            "vpshufb xmm2, xmm2, xmmword ptr [{pi} + 32]\n",
            "vpternlogd xmm2, xmm4, xmm5, 0x96\n",
            "vpternlogd xmm0, xmm1, xmm3, 0x96\n",
            "vpternlogd xmm0, xmm2, xmm6, 0x96\n",
        )
    };
    (v $r:literal $b:literal, $key:literal) => {
        concat!(
            "vpmovb2m k5, ",
            $r,
            "0\n",
            "vmovdqa64 zmm1, zmm0\n",
            "vpermi2b zmm1{{k1}}{{z}}, zmm16, zmm17\n",
            "vmovdqa64 zmm2, zmm0\n",
            "vpermi2b zmm2{{k2}}{{z}}, zmm20, zmm21\n",
            "vmovdqa64 zmm3, zmm0\n",
            "vpermi2b zmm3{{k3}}{{z}}, zmm24, zmm25\n",
            "vmovdqa64 zmm4, zmm0\n",
            "vpermi2b zmm4{{k1}}{{z}}, zmm18, zmm19\n",
            "vmovdqa64 zmm5, zmm0\n",
            "vpermi2b zmm5{{k2}}{{z}}, zmm22, zmm23\n",
            "vmovdqa64 zmm6, zmm0\n",
            "vpermi2b zmm6{{k3}}{{z}}, zmm26, zmm27\n",
            "kandnq k6, k5, k4\n",
            "kandq k7, k5, k4\n",
            "vmovdqa64 zmm7, zmm0\n",
            "vpermi2b zmm7{{k6}}{{z}}, zmm28, zmm29\n",
            "vpermi2b zmm0{{k7}}{{z}}, zmm30, zmm31\n",
            "vpternlogd ",
            $r,
            "1, ",
            $r,
            "2, ",
            $r,
            "3, 0xfe\n",
            "vpternlogd ",
            $r,
            "4, ",
            $r,
            "5, ",
            $r,
            "6, 0xfe\n",
            "vpblendmb ",
            $r,
            "1{{k5}}, ",
            $r,
            "1, ",
            $r,
            "4\n",
            "vpternlogd ",
            $r,
            "0, ",
            $r,
            "1, ",
            $r,
            "7, 0xfe\n",
            "vgf2p8affineqb ",
            $r,
            "7, ",
            $r,
            "0, qword ptr [{mm} + 32]{{",
            $b,
            "}}, 0\n",
            "vgf2p8affineqb ",
            $r,
            "4, ",
            $r,
            "0, qword ptr [{mm} + 8]{{",
            $b,
            "}}, 0\n",
            "vgf2p8affineqb ",
            $r,
            "5, ",
            $r,
            "0, qword ptr [{mm} + 16]{{",
            $b,
            "}}, 0\n",
            "vpermb ",
            $r,
            "1, ",
            $r,
            "8, ",
            $r,
            "0\n",
            "vpermb ",
            $r,
            "3, ",
            $r,
            "11, ",
            $r,
            "0\n",
            "vgf2p8affineqb ",
            $r,
            "2, ",
            $r,
            "0, qword ptr [{mm}]{{",
            $b,
            "}}, 0\n",
            "vgf2p8affineqb ",
            $r,
            "6, ",
            $r,
            "0, qword ptr [{mm} + 24]{{",
            $b,
            "}}, 0\n",
            "vpermb ",
            $r,
            "7, ",
            $r,
            "15, ",
            $r,
            "7\n",
            "vpermb ",
            $r,
            "6, ",
            $r,
            "14, ",
            $r,
            "6\n",
            "vpermb ",
            $r,
            "4, ",
            $r,
            "12, ",
            $r,
            "4\n",
            "vpternlogd ",
            $r,
            "6, ",
            $r,
            "7, ",
            $key,
            ", 0x96\n",
            "vpermb ",
            $r,
            "5, ",
            $r,
            "13, ",
            $r,
            "5\n",
            "vpermb ",
            $r,
            "0, ",
            $r,
            "9, ",
            $r,
            "0\n",
            "vpermb ",
            $r,
            "2, ",
            $r,
            "10, ",
            $r,
            "2\n",
            "vpternlogd ",
            $r,
            "2, ",
            $r,
            "4, ",
            $r,
            "5, 0x96\n",
            "vpternlogd ",
            $r,
            "0, ",
            $r,
            "1, ",
            $r,
            "3, 0x96\n",
            "vpternlogd ",
            $r,
            "0, ",
            $r,
            "2, ",
            $r,
            "6, 0x96\n",
        )
    };
}

/// The `NR` rounds of one block as one `asm!` statement, for `chain128` (`$kind` `[x]`),
/// `chain256` (`[v "ymm" "1to4"]`) and `chain512` (`[v "zmm" "1to8"]`): `$add` the
/// modular key addition (first and last), `$key` the XOR key of the looped rounds and
/// `$last` the last round's (zero); the round keys read at `$rk` (64 bytes apart), `$mm`
/// the MixColumns matrices, the S-box tables `$t` in `zmm16..zmm31`, the row masks in
/// `k1..k4`, `zmm1..zmm7` and `k5..k7` scratch; `$extra` the kernel's own operands, among
/// them the state (`xmm0`, `ymm0` or `zmm0`, in and out). Expands to the statement, for
/// the caller's `unsafe` block.
macro_rules! chain_asm {
    ([$($kind:tt)*], $add:literal, $key:literal, $last:literal, $rk:expr, $nr:expr, $mm:expr,
     $t:expr, [$($extra:tt)*]) => {
        core::arch::asm!(
            $add,
            "add {rk}, 64",
            ".p2align 5",
            "2:",
            round_text!($($kind)*, $key),
            "add {rk}, 64",
            "dec {i}",
            "jnz 2b",
            round_text!($($kind)*, $last),
            $add,
            rk = inout(reg) $rk => _,
            i = inout(reg) $nr - 1 => _,
            mm = in(reg) $mm,
            $($extra)*
            in("zmm16") $t[0][0],
            in("zmm17") $t[0][1],
            in("zmm18") $t[0][2],
            in("zmm19") $t[0][3],
            in("zmm20") $t[1][0],
            in("zmm21") $t[1][1],
            in("zmm22") $t[1][2],
            in("zmm23") $t[1][3],
            in("zmm24") $t[2][0],
            in("zmm25") $t[2][1],
            in("zmm26") $t[2][2],
            in("zmm27") $t[2][3],
            in("zmm28") $t[3][0],
            in("zmm29") $t[3][1],
            in("zmm30") $t[3][2],
            in("zmm31") $t[3][3],
            in("k1") POS[0],
            in("k2") POS[1],
            in("k3") POS[2],
            in("k4") POS[3],
            out("zmm1") _,
            out("zmm2") _,
            out("zmm3") _,
            out("zmm4") _,
            out("zmm5") _,
            out("zmm6") _,
            out("zmm7") _,
            out("k5") _,
            out("k6") _,
            out("k7") _,
            options(nostack, readonly),
        )
    };
}

/// The chained kernel for 128-bit blocks: the `NR` rounds of one block in one assembly
/// statement (`round_text!`), the tables in `zmm16..zmm31` and the row masks in
/// `k1..k4` for the whole call, the round keys read from `keys.nat` by the last XOR of
/// each round (loads off the critical path).
///
/// # Safety
/// As for the other chained kernels.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
unsafe fn chain128<const NR: usize>(
    keys: &Keys,
    mode: Chain,
    iv: &mut [u8],
    src: *const u8,
    dst: *mut u8,
    n: usize,
) {
    const BL: usize = 16;
    let t: [[__m512i; 4]; 4] = core::array::from_fn(table);
    let rk = keys.nat.as_ptr().cast::<u8>();
    let pi = SR_ROT128.as_ptr().cast::<u8>();
    let mm = MIX_MAT.as_ptr().cast::<u8>();
    let encrypt = |x: __m128i| {
        let out: __m128i;
        // SAFETY: the instructions are AVX-512 F/BW/VL, VBMI and GFNI (enabled here) and
        // base x86-64; they read `keys.nat[0..=NR]` (64 bytes each; the first 16 used),
        // `SR_ROT128` (128 bytes) and `MIX_MAT` (40 bytes), write no memory and use no
        // stack; `zmm1..zmm7` and `k5..k7` are declared clobbered; `xmm8` is zero (the last
        // round's key).
        unsafe {
            chain_asm!(
                [x],
                "vpaddq xmm0, xmm0, xmmword ptr [{rk}]",
                "xmmword ptr [{rk}]",
                "xmm8",
                rk,
                NR,
                mm,
                t,
                [
                    inout("xmm0") x => out,
                    pi = in(reg) pi,
                    in("xmm8") _mm_setzero_si128(),
                ]
            );
        }
        out
    };
    chain_blocks!(
        mode,
        iv,
        src,
        dst,
        n,
        BL,
        _mm_loadu_si128,
        _mm_storeu_si128,
        _mm_xor_si128,
        encrypt
    );
}

/// The chained kernels for 256- and 512-bit blocks (`ymm` or `zmm`: the `v` form of
/// `round_text!`), one body stamped twice: the `NR` rounds of one block in one assembly
/// statement, the tables in `zmm16..zmm31` and the row masks in `k1..k4` for the whole
/// call, the permutation indices ([`SR_ROT256`], [`SR_ROT512`]) in registers 8 to 15, the
/// round keys read from `keys.nat` by the last XOR of each round (loads off the critical
/// path).
macro_rules! chain_wide {
    ($(#[$m:meta])* $name:ident, $bl:literal, $t:ty, $load:path, $store:path, $xor:path,
     $sr:ident, $kind:tt, $add:literal, $key:literal, $last:literal, $state:tt,
     [$($p:tt $i:tt),+]) => {
        $(#[$m])*
        ///
        /// # Safety
        /// As for the other chained kernels.
        #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
        unsafe fn $name<const NR: usize>(
            keys: &Keys,
            mode: Chain,
            iv: &mut [u8],
            src: *const u8,
            dst: *mut u8,
            n: usize,
        ) {
            const BL: usize = $bl;
            let t: [[__m512i; 4]; 4] = core::array::from_fn(table);
            let rk = keys.nat.as_ptr().cast::<u8>();
            // SAFETY: `BL` readable bytes of a static table each.
            let pi: [$t; 8] = core::array::from_fn(|k| unsafe { $load($sr[k].as_ptr().cast()) });
            let mm = MIX_MAT.as_ptr().cast::<u8>();
            let encrypt = |x: $t| {
                let out: $t;
                // SAFETY: the instructions are AVX-512 F/BW/VL, VBMI and GFNI (enabled
                // here) and base x86-64; they read `keys.nat[0..=NR]` (64 bytes each; the
                // first `BL` used), `MIX_MAT` (40 bytes) and `ZERO` (`BL` of its 64 bytes),
                // write no memory and use no stack; `zmm1..zmm7` and `k5..k7` are declared
                // clobbered; registers 8 to 15 hold the permutation indices.
                unsafe {
                    chain_asm!(
                        $kind,
                        $add,
                        $key,
                        $last,
                        rk,
                        NR,
                        mm,
                        t,
                        [
                            inout($state) x => out,
                            z = in(reg) ZERO.0.as_ptr(),
                            $(in($p) pi[$i],)+
                        ]
                    );
                }
                out
            };
            chain_blocks!(mode, iv, src, dst, n, BL, $load, $store, $xor, encrypt);
        }
    };
}

chain_wide!(
    /// The chained kernel for 256-bit blocks.
    chain256,
    32,
    __m256i,
    _mm256_loadu_si256,
    _mm256_storeu_si256,
    _mm256_xor_si256,
    SR_ROT256,
    [v "ymm" "1to4"],
    "vpaddq ymm0, ymm0, ymmword ptr [{rk}]",
    "ymmword ptr [{rk}]",
    "ymmword ptr [{z}]",
    "ymm0",
    ["ymm8" 0, "ymm9" 1, "ymm10" 2, "ymm11" 3, "ymm12" 4, "ymm13" 5, "ymm14" 6, "ymm15" 7]
);

chain_wide!(
    /// The chained kernel for 512-bit blocks, the rounds of [`chain256`] on `zmm`
    /// registers. It replaced an intrinsics kernel (the S-box as `nat_sbox`'s blend tree,
    /// the column rotations by `vprorq`): 37 cycles a round against 51 on a Sapphire
    /// Rapids-class Xeon (`rdtsc` loop of the round alone), and on AMD Zen 4 CBC, CMAC and
    /// OFB 1.10-1.12x faster at 16 KiB (`shyfr speed kalyna-512-512-cbc`, three
    /// alternations).
    chain512,
    64,
    __m512i,
    _mm512_loadu_si512,
    _mm512_storeu_si512,
    _mm512_xor_si512,
    SR_ROT512,
    [v "zmm" "1to8"],
    "vpaddq zmm0, zmm0, zmmword ptr [{rk}]",
    "zmmword ptr [{rk}]",
    "zmmword ptr [{z}]",
    "zmm0",
    ["zmm8" 0, "zmm9" 1, "zmm10" 2, "zmm11" 3, "zmm12" 4, "zmm13" 5, "zmm14" 6, "zmm15" 7]
);

/// The chained kernel for the key's block length and round count: `iv` one block, `n`
/// blocks at `src` (and `dst`).
///
/// # Safety
/// As for [`chain128`]; the caller holds the [`Avx512VbmiGfni`] token.
unsafe fn chain(
    rk: &RoundKeys,
    keys: &Keys,
    mode: Chain,
    iv: &mut [u8],
    src: *const u8,
    dst: *mut u8,
    n: usize,
) {
    // SAFETY: forwarded from the caller.
    unsafe {
        match (rk.nb, rk.nr) {
            (2, 10) => chain128::<10>(keys, mode, iv, src, dst, n),
            (2, _) => chain128::<14>(keys, mode, iv, src, dst, n),
            (4, 14) => chain256::<14>(keys, mode, iv, src, dst, n),
            (4, _) => chain256::<18>(keys, mode, iv, src, dst, n),
            _ => chain512::<18>(keys, mode, iv, src, dst, n),
        }
    }
}

/// [`chain`] for the key's block length: `iv` one block, `io` whole blocks (checked by
/// the caller). For [`Chain::Mac`] nothing is written.
pub(super) fn chained(
    rk: &RoundKeys,
    keys: &Keys,
    t: Avx512VbmiGfni,
    mode: Chain,
    iv: &mut [u8],
    mut io: InOut<'_>,
) {
    let _ = t;
    assert_eq!(iv.len(), 8 * rk.nb);
    let n = io.len() / (8 * rk.nb);
    let (src, dst) = (io.src_ptr(), io.dst_ptr());
    // SAFETY: the token proves AVX-512 F/BW/VL, VBMI and GFNI; `iv` is one block, `io`
    // holds n blocks.
    unsafe { chain(rk, keys, mode, iv, src, dst, n) }
}

/// CBC-MAC absorption of the whole blocks of `data` into `state` (one block).
pub(super) fn mac(rk: &RoundKeys, keys: &Keys, t: Avx512VbmiGfni, state: &mut [u8], data: &[u8]) {
    let _ = t;
    assert_eq!(state.len(), 8 * rk.nb);
    let n = data.len() / (8 * rk.nb);
    let src = data.as_ptr();
    // SAFETY: the token proves the features; `state` is one block, `data` holds n blocks;
    // in MAC mode the kernel never writes through `dst`.
    unsafe { chain(rk, keys, Chain::Mac, state, src, src.cast_mut(), n) }
}

/// Blocks up to which a call runs in the natural layout (groups of four registers) rather
/// than as a padded 64-block batch: measured crossovers on Zen 4.
const fn natural_max(nb: usize) -> usize {
    if nb == 8 {
        32
    } else {
        24
    }
}

/// The cipher on `n` blocks, `n <= BATCH`, choosing the layout.
///
/// # Safety
/// `src` is readable and `dst` writable for `n` blocks.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
unsafe fn some<const NB: usize, const DEC: bool>(
    rk: &RoundKeys,
    keys: &Keys,
    src: *const u8,
    dst: *mut u8,
    n: usize,
) {
    if n > natural_max(NB) {
        // SAFETY: forwarded from the caller.
        return unsafe { batch::<NB, DEC>(rk, keys, src, dst, n) };
    }
    // Four registers hold 32 / NB blocks.
    let per = 32 / NB;
    let mut j = 0;
    while j < n {
        let m = per.min(n - j);
        // SAFETY: blocks j..j+m are inside the caller's regions; `m * NB` words fit the
        // registers of each instance.
        unsafe {
            let (s, d) = (src.add(8 * NB * j), dst.add(8 * NB * j));
            if m * NB <= 8 {
                natural::<NB, DEC, 1>(rk, keys, s, d, m)
            } else if m * NB <= 16 {
                natural::<NB, DEC, 2>(rk, keys, s, d, m)
            } else {
                natural::<NB, DEC, 4>(rk, keys, s, d, m)
            }
        }
        j += m;
    }
}

/// Encrypts (`DEC` false) or decrypts every whole block of `io`.
fn crypt<const DEC: bool>(rk: &RoundKeys, keys: &Keys, t: Avx512VbmiGfni, mut io: InOut<'_>) {
    let _ = t;
    let bl = 8 * rk.nb;
    let blocks = io.len() / bl;
    let (src, dst) = (io.src_ptr(), io.dst_ptr());
    let mut j = 0;
    while j < blocks {
        let n = BATCH.min(blocks - j);
        // SAFETY: the token proves AVX-512 F/BW/VL, VBMI and GFNI; blocks j..j+n lie inside
        // `io`, readable at `src` and writable at `dst`.
        unsafe {
            let (s, d) = (src.add(j * bl), dst.add(j * bl));
            match rk.nb {
                2 => some::<2, DEC>(rk, keys, s, d, n),
                4 => some::<4, DEC>(rk, keys, s, d, n),
                _ => some::<8, DEC>(rk, keys, s, d, n),
            }
        }
        j += n;
    }
}

/// The gamma (CTR) on `n <= 64` blocks: block `j` is XORed with `E(ctr + base + j + 1)`,
/// the counters built in registers as columns (a 64-bit add, its carry taken through the
/// higher columns by mask arithmetic).
///
/// # Safety
/// `src` is readable and `dst` writable for `n` blocks.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
unsafe fn gamma_batch<const NB: usize>(
    rk: &RoundKeys,
    keys: &Keys,
    ctr: &[u64; 8],
    base: u64,
    src: *const u8,
    dst: *mut u8,
    n: usize,
) {
    let one = _mm512_set1_epi64(1);
    let lanes = _mm512_set_epi64(8, 7, 6, 5, 4, 3, 2, 1);
    let mut cols = [[_mm512_setzero_si512(); 8]; NB];
    for g in 0..8 {
        let d = _mm512_add_epi64(_mm512_set1_epi64((base + 8 * g as u64) as i64), lanes);
        let w0 = _mm512_set1_epi64(ctr[0] as i64);
        let r0 = _mm512_add_epi64(w0, d);
        let mut carry = _mm512_cmplt_epu64_mask(r0, w0);
        cols[0][g] = r0;
        for c in 1..NB {
            let w = _mm512_set1_epi64(ctr[c] as i64);
            let r = _mm512_mask_add_epi64(w, carry, w, one);
            carry = _mm512_mask_cmpeq_epu64_mask(carry, r, _mm512_setzero_si512());
            cols[c][g] = r;
        }
    }
    let mut st = cols_to_rows::<NB, false>(&cols, &rk.rk[0]);
    rounds::<NB, false, 1>(rk.nr, keys, &mut st);
    let cols = rows_to_cols::<NB, false>(&st, &rk.rk[rk.nr]);
    // SAFETY: forwarded from the caller.
    unsafe { store_cols::<NB>(&cols, dst, Some(src), n) };
}

/// The DSTU 7624 gamma on the leading whole batches of `io`, as long as more than a
/// natural-layout call's worth of blocks remains: block `j` is XORed with
/// `E(ctr + j + 1)` (`ctr` little-endian words, not updated). Returns the blocks done;
/// the caller does the rest.
pub(super) fn gamma(
    rk: &RoundKeys,
    keys: &Keys,
    t: Avx512VbmiGfni,
    ctr: &[u64; 8],
    mut io: InOut<'_>,
) -> usize {
    let _ = t;
    let nb = rk.nb;
    let bl = 8 * nb;
    let blocks = io.len() / bl;
    let (src, dst) = (io.src_ptr(), io.dst_ptr());
    let mut j = 0;
    while blocks - j > natural_max(nb) {
        let n = BATCH.min(blocks - j);
        // SAFETY: the token proves AVX-512 F/BW/VL, VBMI and GFNI; blocks j..j+n lie
        // inside `io`, readable at `src` and writable at `dst`.
        unsafe {
            let (s, d) = (src.add(j * bl), dst.add(j * bl));
            match nb {
                2 => gamma_batch::<2>(rk, keys, ctr, j as u64, s, d, n),
                4 => gamma_batch::<4>(rk, keys, ctr, j as u64, s, d, n),
                _ => gamma_batch::<8>(rk, keys, ctr, j as u64, s, d, n),
            }
        }
        j += n;
    }
    j
}

/// Encrypts every whole block of `io`.
pub(super) fn encrypt(rk: &RoundKeys, keys: &Keys, t: Avx512VbmiGfni, io: InOut<'_>) {
    crypt::<false>(rk, keys, t, io)
}

/// Decrypts every whole block of `io`.
pub(super) fn decrypt(rk: &RoundKeys, keys: &Keys, t: Avx512VbmiGfni, io: InOut<'_>) {
    crypt::<true>(rk, keys, t, io)
}
