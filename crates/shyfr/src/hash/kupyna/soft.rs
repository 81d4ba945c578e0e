//! Portable, constant-time Kupyna: bitsliced.
//!
//! The two permutations of a compression, `T⊕(h ^ m)` and `T+(m)`, run together: their
//! `c` columns (64-bit words, `c` = 8 or 16) are lanes `0..c` and `c..2c` of 64-bit words,
//! and transposing those words as a 64x64 bit matrix gives 64 bit planes
//! `plane[8 * row + bit]` (as in the portable Kalyna backend). On the planes:
//!
//! * the round constants: the XOR one of `T⊕` flips the row-0 planes on the lanes of the
//!   columns whose constant byte has that bit; the additive one of `T+` (modulo 2^64 per
//!   column) is a ripple-carry adder over the 64 planes, the carry a lane mask;
//! * SubBytes: Boolean circuits (`arith/gf256/soft_circuits.rs`, row `r` through
//!   pi_{r mod 4}), one per pair of rows `r`, `r + 4`: the states use at most 32 of the 64
//!   lanes, so row `r + 4` is moved above them and shares row `r`'s circuit (four
//!   circuits a round instead of eight; hashing 1.45x faster than with one per row);
//! * ShiftBytes: row `r`'s planes rotate their lanes within each state's `c` lanes;
//! * MixColumns: the XOR network of the MDS step over the 64 planes.
//!
//! The constants are public; nothing branches on or indexes memory by data.
#![forbid(unsafe_code)]

use zeroize::Zeroize;

use super::{rounds, PLUS_BASE};
use crate::arith::gf256::soft::{sub_bytes_paired, transpose64};
use crate::arith::gf256::soft_circuits as sc;

type Planes = [[u64; 8]; 8];

/// Row `r`'s ShiftBytes offset in columns: `r`, except 11 for row 7 of the 1024-bit state.
pub(super) const fn shift(r: usize, cols: usize) -> usize {
    if cols == 16 && r == 7 {
        11
    } else {
        r
    }
}

/// Rotates the lanes of every `w`-lane group of `x` (groups starting at lanes 0 and `w`)
/// by `s` lanes up: lane `g + (c + s) mod w` takes lane `g + c`.
#[inline(always)]
fn rot_groups(x: u64, s: usize, w: usize) -> u64 {
    if s == 0 {
        return x;
    }
    let group = (1u64 << w) - 1;
    let low = (1u64 << s) - 1;
    let keep = (group & !low) * (1 | 1 << w);
    let wrap = low * (1 | 1 << w);
    ((x << s) & keep) | ((x >> (w - s)) & wrap)
}

/// The permutations on `2 * cols` lanes of planes: `T⊕` on lanes `0..cols`, and `T+` on
/// lanes `cols..2 * cols` (constants added there too when `plus` is set).
fn permute(p: &mut Planes, cols: usize, plus: bool) {
    if cols == 8 {
        permute_cols::<8>(p, plus)
    } else {
        permute_cols::<16>(p, plus)
    }
}

/// [`permute`] for `COLS` columns: the shift and rotation counts are constants (a `u64`
/// shifted or rotated by a count in `cl` costs several micro-operations, by an immediate
/// one).
#[inline(always)]
fn permute_cols<const COLS: usize>(p: &mut Planes, plus: bool) {
    let cols = COLS;
    let nr = rounds(cols);
    let lanes_plus = if plus {
        ((1u64 << cols) - 1) << cols
    } else {
        0
    };
    for v in 0..nr {
        // T⊕: row 0 of column j ^= (j << 4) ^ v.
        for (b, plane) in p[0].iter_mut().enumerate() {
            let mut m = 0u64;
            for j in 0..cols {
                m |= ((((j << 4) ^ v) >> b) as u64 & 1) << j;
            }
            *plane ^= m;
        }
        // T+: column j += PLUS_BASE ^ (((cols - 1 - j) << 4 ^ v) << 56), modulo 2^64. Bits
        // 0..56 of the constant are the same in every column; its top byte differs.
        if plus {
            let mut carry = 0u64;
            for (i, plane) in p.as_flattened_mut().iter_mut().enumerate() {
                let k = if i < 56 {
                    ((PLUS_BASE >> i) & 1).wrapping_neg() & lanes_plus
                } else {
                    let mut k = 0u64;
                    for j in 0..cols {
                        k |= (((((cols - 1 - j) << 4) ^ v) >> (i - 56)) as u64 & 1) << (cols + j);
                    }
                    k
                };
                let x = *plane;
                *plane = x ^ k ^ carry;
                carry = (x & k) | (carry & (x ^ k));
            }
        }
        // Rows `r` and `r + 4` share a circuit: the states use 2 * cols <= 32 of the 64
        // lanes, row `r + 4` goes above them.
        sub_bytes_paired::<u64, false>(
            p,
            (1u64 << (2 * cols)) - 1,
            2 * cols as u32,
            [0; 8],
            [0; 8],
        );
        for (r, row) in p.iter_mut().enumerate() {
            let s = shift(r, cols);
            for plane in row.iter_mut() {
                *plane = rot_groups(*plane, s, cols);
            }
        }
        *p = sc::mds(p);
    }
}

fn to_planes(words: &mut [u64; 64], p: &mut Planes) {
    transpose64(words);
    for (q, w) in p.as_flattened_mut().iter_mut().zip(words.iter()) {
        *q = *w;
    }
}

fn from_planes(p: &Planes, words: &mut [u64; 64]) {
    for (w, q) in words.iter_mut().zip(p.as_flattened()) {
        *w = *q;
    }
    transpose64(words);
}

/// Compresses the whole blocks of `blocks` (each `8 * cols` bytes) into `h`:
/// `h = T⊕(h ^ m) ^ T+(m) ^ h`.
pub(super) fn compress(h: &mut [u64; 16], cols: usize, blocks: &[u8]) {
    let mut words = [0u64; 64];
    let mut p: Planes = [[0; 8]; 8];
    for block in blocks.chunks_exact(8 * cols) {
        for (j, c) in block.chunks_exact(8).enumerate() {
            let m = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            words[j] = h[j] ^ m;
            words[cols + j] = m;
        }
        to_planes(&mut words, &mut p);
        permute(&mut p, cols, true);
        from_planes(&p, &mut words);
        for j in 0..cols {
            h[j] ^= words[j] ^ words[cols + j];
        }
    }
    words.zeroize();
    p.as_flattened_mut().zeroize();
}

/// The output transformation before truncation: `h = T⊕(h) ^ h`.
pub(super) fn finish(h: &mut [u64; 16], cols: usize) {
    let mut words = [0u64; 64];
    let mut p: Planes = [[0; 8]; 8];
    words[..cols].copy_from_slice(&h[..cols]);
    to_planes(&mut words, &mut p);
    permute(&mut p, cols, false);
    from_planes(&p, &mut words);
    for j in 0..cols {
        h[j] ^= words[j];
    }
    words.zeroize();
    p.as_flattened_mut().zeroize();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_rotation() {
        for w in [8usize, 16] {
            for s in 0..w {
                for lane in 0..2 * w {
                    let x = 1u64 << lane;
                    let (g, c) = (lane / w * w, lane % w);
                    assert_eq!(
                        rot_groups(x, s, w),
                        1 << (g + (c + s) % w),
                        "{w} {s} {lane}"
                    );
                }
            }
        }
    }
}
