//! Kalyna with NEON, byte-sliced: 16 blocks at a time, one q register per byte position of
//! the state (`st[c][r]` holds byte `r` of column `c` of the 16 blocks).
//!
//! * SubBytes: the 256-entry S-box as four 64-byte tables, `TBL` on the first and `TBX` on
//!   the others with the index XORed by 0x40, 0x80, 0xc0 (an index outside 0..64 leaves the
//!   byte alone): register-only lookups, constant time.
//! * ShiftRows: register renaming.
//! * MixColumns: `out_r = A + 2 (B + 2 (C + 2 D))` (the sums of `x86_avx512.rs`), the
//!   doubling by shift, arithmetic shift of the top bit and a masked XOR of 0x1d.
//! * InvMixColumns: every product `MDS_INV[k] * x` by two 16-entry nibble tables (`TBL`).
//! * Transposition: the columns of the blocks are gathered into `cols[c][j]`; two `TBL`
//!   lookups over 128 bytes give each row register, and the way back is the same.
//!
//! Fewer than 16 blocks run as a whole batch (the lanes past the data are zero).

#![allow(clippy::needless_range_loop)]

use core::arch::aarch64::*;

use super::soft::shift;
use super::{RoundKeys, MAX_ROUNDS};
use crate::arith::gf256::aarch64_neon::{inv_mix, ld16, ld64, mix, sbox};
use crate::cpu::aarch64::Neon;
use crate::inout::InOut;

/// Blocks per batch.
const BATCH: usize = 16;

/// The XOR round keys as bytes: `k[t][8 * c + r]`.
#[derive(Clone)]
pub(super) struct Keys {
    k: [[u8; 64]; MAX_ROUNDS + 1],
}

impl Drop for Keys {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(self.k.as_flattened_mut());
    }
}

impl Keys {
    pub(super) fn new(rk: &RoundKeys) -> Keys {
        let mut k = [[0u8; 64]; MAX_ROUNDS + 1];
        for t in 0..=rk.nr {
            for (i, v) in k[t].iter_mut().enumerate().take(8 * rk.nb) {
                *v = (rk.rk[t][i / 8] >> (8 * (i % 8))) as u8;
            }
        }
        Keys { k }
    }
}

/// `ROWS[r]`: byte `j` is `8 j + r` (for `TBL` over 128 bytes of 16 words: row `r`).
static ROWS: [[u8; 16]; 8] = {
    let mut t = [[0u8; 16]; 8];
    let mut r = 0;
    while r < 8 {
        let mut j = 0;
        while j < 16 {
            t[r][j] = (8 * j + r) as u8;
            j += 1;
        }
        r += 1;
    }
    t
};

/// `WORDS[q]`: byte `8 i + r` is `16 r + 2 q + i` (from 8 row registers, words `2q, 2q+1`).
static WORDS: [[u8; 16]; 8] = {
    let mut t = [[0u8; 16]; 8];
    let mut q = 0;
    while q < 8 {
        let mut p = 0;
        while p < 16 {
            let (i, r) = (p / 8, p % 8);
            t[q][p] = (16 * r + 2 * q + i) as u8;
            p += 1;
        }
        q += 1;
    }
    t
};

/// The cipher on one batch of columns (`cols[c][j]`: column `c` of block `j`), in place.
#[target_feature(enable = "neon")]
fn batch<const NB: usize, const DEC: bool>(
    rk: &RoundKeys,
    keys: &Keys,
    cols: &mut [[u64; BATCH]; 8],
) {
    let nr = rk.nr;
    let (first, last) = if DEC { (nr, 0) } else { (0, nr) };
    let mut st: [[uint8x16_t; 8]; NB] = core::array::from_fn(|c| {
        let mut words = [0u8; 128];
        for (j, w) in cols[c].iter().enumerate() {
            let v = if DEC {
                w.wrapping_sub(rk.rk[first][c])
            } else {
                w.wrapping_add(rk.rk[first][c])
            };
            words[8 * j..8 * j + 8].copy_from_slice(&v.to_le_bytes());
        }
        let (lo, hi) = (ld64(&words[..64]), ld64(&words[64..]));
        let out = core::array::from_fn(|r| {
            let idx = ld16(&ROWS[r]);
            let a = vqtbl4q_u8(lo, idx);
            vqtbx4q_u8(a, hi, vsubq_u8(idx, vdupq_n_u8(64)))
        });
        zeroize::Zeroize::zeroize(&mut words);
        out
    });
    if DEC {
        for round in (0..nr).rev() {
            let z: [[uint8x16_t; 8]; NB] = core::array::from_fn(|c| inv_mix(&st[c]));
            for c in 0..NB {
                for r in 0..8 {
                    let y = sbox(z[(c + shift(r, NB)) % NB][r], 4 + r % 4);
                    st[c][r] = if round > 0 {
                        veorq_u8(y, vdupq_n_u8(keys.k[round][8 * c + r]))
                    } else {
                        y
                    };
                }
            }
        }
    } else {
        for round in 1..=nr {
            st = core::array::from_fn(|c| {
                let y: [uint8x16_t; 8] =
                    core::array::from_fn(|r| sbox(st[(c + NB - shift(r, NB)) % NB][r], r % 4));
                let k: [uint8x16_t; 8] = core::array::from_fn(|r| {
                    vdupq_n_u8(if round < nr {
                        keys.k[round][8 * c + r]
                    } else {
                        0
                    })
                });
                mix(&y, &k)
            });
        }
    }
    for c in 0..NB {
        let rows = &st[c];
        let lo = uint8x16x4_t(rows[0], rows[1], rows[2], rows[3]);
        let hi = uint8x16x4_t(rows[4], rows[5], rows[6], rows[7]);
        let mut words = [0u8; 128];
        for q in 0..8 {
            let idx = ld16(&WORDS[q]);
            let a = vqtbl4q_u8(lo, idx);
            let v = vqtbx4q_u8(a, hi, vsubq_u8(idx, vdupq_n_u8(64)));
            // SAFETY: bytes 16q..16q+16 of `words` are writable.
            unsafe { vst1q_u8(words[16 * q..].as_mut_ptr(), v) };
        }
        for (j, w) in cols[c].iter_mut().enumerate() {
            let v = u64::from_le_bytes(words[8 * j..8 * j + 8].try_into().expect("8 bytes"));
            *w = if DEC {
                v.wrapping_sub(rk.rk[last][c])
            } else {
                v.wrapping_add(rk.rk[last][c])
            };
        }
        zeroize::Zeroize::zeroize(&mut words);
    }
}

/// Encrypts (`DEC` false) or decrypts every whole block of `io`.
fn crypt<const DEC: bool>(rk: &RoundKeys, keys: &Keys, t: Neon, mut io: InOut<'_>) {
    let _ = t;
    let nb = rk.nb;
    let bl = 8 * nb;
    let blocks = io.len() / bl;
    let mut cols = [[0u64; BATCH]; 8];
    let mut j0 = 0;
    while j0 < blocks {
        let n = BATCH.min(blocks - j0);
        for j in 0..BATCH {
            for (c, col) in cols.iter_mut().enumerate().take(nb) {
                col[j] = if j < n {
                    u64::from_le_bytes(io.read::<8>((j0 + j) * bl + 8 * c))
                } else {
                    0
                };
            }
        }
        // SAFETY: the token proves NEON.
        unsafe {
            match nb {
                2 => batch::<2, DEC>(rk, keys, &mut cols),
                4 => batch::<4, DEC>(rk, keys, &mut cols),
                _ => batch::<8, DEC>(rk, keys, &mut cols),
            }
        }
        for j in 0..n {
            for (c, col) in cols.iter().enumerate().take(nb) {
                io.write::<8>((j0 + j) * bl + 8 * c, &col[j].to_le_bytes());
            }
        }
        j0 += n;
    }
    zeroize::Zeroize::zeroize(cols.as_flattened_mut());
}

/// Encrypts every whole block of `io`.
pub(super) fn encrypt(rk: &RoundKeys, keys: &Keys, t: Neon, io: InOut<'_>) {
    crypt::<false>(rk, keys, t, io)
}

/// Decrypts every whole block of `io`.
pub(super) fn decrypt(rk: &RoundKeys, keys: &Keys, t: Neon, io: InOut<'_>) {
    crypt::<true>(rk, keys, t, io)
}
