//! Portable, constant-time DES: the bitsliced core on 64-bit words (64 blocks per pass)
//! for bulk data, and a one-block path for the serial modes and short inputs.
//!
//! The one-block path keeps each S-box output bit as a 64-bit truth table (bit `v` is
//! the output for input `v`) and reads it with a rotation by the data-dependent amount
//! `v`, pre-rotated so that the bit lands where the permutation P puts it: a rotation, an
//! AND and an OR per output bit, no table in memory indexed by data and no branch. Like
//! the shift in GOST's portable backend, a rotation by a variable amount takes the same
//! time for every amount on CPUs with a barrel shifter (all x86-64 and aarch64 cores).
#![forbid(unsafe_code)]

use super::bitsliced;
use super::tables::{IP, P, SBOX};
use super::{Keys, BLOCK_LEN};
use crate::inout::InOut;

/// `TT[s][o]`: output bit `o` (most significant first) of S-box `s` as a truth table,
/// rotated left by its destination after P (bit 31 = DES bit 1 of `f`).
const TT: [[u64; 4]; 8] = {
    // Where S-box output bit q (0-based, DES bit q + 1) lands in f.
    let mut dest = [0u32; 32];
    let mut j = 0;
    while j < 32 {
        dest[P[j] as usize - 1] = 31 - j as u32;
        j += 1;
    }
    let mut t = [[0u64; 4]; 8];
    let mut s = 0;
    while s < 8 {
        let mut o = 0;
        while o < 4 {
            t[s][o] = truth_table(s, o).rotate_left(dest[4 * s + o]);
            o += 1;
        }
        s += 1;
    }
    t
};

/// The 64-bit truth table of output bit `o` (0 the most significant) of S-box `s`: bit
/// `v` is that bit for the six S-box input bits `v` (the first input bit the most
/// significant; the row from the first and last bits, the column from the middle four).
pub(super) const fn truth_table(s: usize, o: usize) -> u64 {
    let mut tt = 0u64;
    let mut v = 0;
    while v < 64 {
        let row = ((v >> 4) & 2) | (v & 1);
        let col = (v >> 1) & 15;
        if (SBOX[s][row * 16 + col] >> (3 - o)) & 1 == 1 {
            tt |= 1 << v;
        }
        v += 1;
    }
    tt
}

/// `DEST[s][o]`: the mask of the bit of `f` that output bit `o` of S-box `s` goes to.
const DEST: [[u64; 4]; 8] = {
    let mut d = [[0u64; 4]; 8];
    let mut j = 0;
    while j < 32 {
        let q = P[j] as usize - 1;
        d[q / 4][q % 4] = 1 << (31 - j);
        j += 1;
    }
    d
};

/// The round function `f(R, K)` of one block; `k6` are the eight 6-bit subkey chunks.
/// The 32 single-bit terms are ORed as a balanced tree (a running OR would chain 32
/// dependent instructions per round).
#[inline(always)]
fn f(r: u32, k6: &[u8; 8]) -> u32 {
    let r64 = r as u64 | (r as u64) << 32;
    let t: [u64; 8] = core::array::from_fn(|s| {
        // E: chunk s is bits 4s .. 4s + 5 of R (1-based, cyclic), first bit most
        // significant.
        let v = (((r64 >> ((59 - 4 * s) % 32)) & 63) ^ k6[s] as u64) as u32;
        let b = |o: usize| TT[s][o].rotate_right(v) & DEST[s][o];
        (b(0) | b(1)) | (b(2) | b(3))
    });
    (((t[0] | t[1]) | (t[2] | t[3])) | ((t[4] | t[5]) | (t[6] | t[7]))) as u32
}

/// Applies a 64-entry bit permutation `perm` (output bit `i + 1` = input bit
/// `perm[i]`) to `x` (bit 1 the most significant).
#[inline(always)]
pub(super) fn permute(x: u64, perm: &[u8; 64]) -> u64 {
    let mut y = 0u64;
    for (i, &p) in perm.iter().enumerate() {
        y |= ((x >> (64 - p as u32)) & 1) << (63 - i);
    }
    y
}

/// The inverse of [`IP`].
pub(super) const FP: [u8; 64] = {
    let mut fp = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        fp[IP[i] as usize - 1] = i as u8 + 1;
        i += 1;
    }
    fp
};

/// One block (big-endian 64-bit word) through DES or EDE triple DES.
#[inline]
pub(super) fn crypt_one(keys: &Keys, x: u64, decrypt: bool) -> u64 {
    let y = feistel_one(keys, permute(x, &IP), decrypt, |r, k6, _| f(r, k6));
    permute(y, &FP)
}

/// The stages of DES or EDE triple DES, sixteen rounds each, on one block `y` after IP
/// (returns the word that FP takes), with the round function `f(R, subkey chunks,
/// subkey)` of a one-block kernel (the subkey both as eight 6-bit chunks and as a 48-bit
/// word; each kernel reads the form it needs). Every one-block kernel runs this.
#[inline(always)]
pub(super) fn feistel_one(
    keys: &Keys,
    y: u64,
    decrypt: bool,
    mut f: impl FnMut(u32, &[u8; 8], u64) -> u32,
) -> u64 {
    let (mut l, mut r) = ((y >> 32) as u32, y as u32);
    let n = keys.n;
    for stage in 0..n {
        let (s, dec) = if decrypt {
            (n - 1 - stage, stage % 2 == 0)
        } else {
            (stage, stage % 2 == 1)
        };
        for i in 0..16 {
            let j = if dec { 15 - i } else { i };
            let t = l ^ f(r, &keys.k6[s][j], keys.sub[s][j]);
            l = r;
            r = t;
        }
        // The pre-output is R16 || L16, the next stage's L0 || R0 (FP and IP cancel).
        core::mem::swap(&mut l, &mut r);
    }
    (l as u64) << 32 | r as u64
}

/// One bitsliced pass over blocks `start..start + count` of `io` (`count <= 64 N`):
/// loads them as big-endian words into a batch (block `start + 64 lane + b` in row `b`,
/// lane `lane`; the rest zero), runs `batch` on it and stores the result.
#[inline(always)]
pub(super) fn pass<const N: usize>(
    io: &mut InOut<'_>,
    start: usize,
    count: usize,
    batch: impl FnOnce(&mut [[u64; N]; 64]),
) {
    debug_assert!(count <= 64 * N);
    let mut m = [[0u64; N]; 64];
    for q in 0..count {
        m[q % 64][q / 64] = u64::from_be_bytes(io.read::<8>(8 * (start + q)));
    }
    batch(&mut m);
    for q in 0..count {
        io.write(8 * (start + q), &m[q % 64][q / 64].to_be_bytes());
    }
    zeroize::Zeroize::zeroize(m.as_flattened_mut());
}

/// Blocks `start..` of `io` one at a time through `one` (big-endian words).
pub(super) fn one_by_one(io: &mut InOut<'_>, start: usize, mut one: impl FnMut(u64) -> u64) {
    for i in start..io.len() / BLOCK_LEN {
        let x = u64::from_be_bytes(io.read::<8>(8 * i));
        io.write(8 * i, &one(x).to_be_bytes());
    }
}

/// Below this many blocks the one-block path is faster than a 64-block bitsliced pass.
const ONE_BELOW: usize = 16;

/// The bitsliced core on one 64-bit lane (64 blocks).
pub(super) fn pass1(m: &mut [[u64; 1]; 64], keys: &[[u64; 16]], decrypt: bool) {
    let mut w: [u64; 64] = core::array::from_fn(|b| m[b][0]);
    bitsliced::crypt(&mut w, keys, decrypt);
    for (row, x) in m.iter_mut().zip(w) {
        row[0] = x;
    }
    zeroize::Zeroize::zeroize(&mut w);
}

/// ECB on whole blocks.
pub(super) fn crypt(keys: &Keys, decrypt: bool, mut io: InOut<'_>) {
    let k = &keys.sub[..keys.n];
    let n = io.len() / BLOCK_LEN;
    let mut i = 0;
    while n - i >= ONE_BELOW {
        let c = (n - i).min(64);
        pass::<1>(&mut io, i, c, |m| pass1(m, k, decrypt));
        i += c;
    }
    one_by_one(&mut io, i, |x| crypt_one(keys, x, decrypt));
}
