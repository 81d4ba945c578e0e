//! Kupyna with NEON in the row layout: one q register per row of the state, so that every
//! register goes through one S-box (row `r` through pi_{r mod 4}).
//!
//! * 512-bit state: register `r` holds row `r` of `T⊕(h ^ m)` (8 bytes, one per column)
//!   in its low half and row `r` of `T+(m)` in its high half. Eight registers.
//! * 1024-bit state: per permutation, register `r` holds row `r` (16 columns). Sixteen
//!   registers.
//!
//! A round: the round constants (XOR into row 0 of `T⊕`, folded into the previous
//! MixColumns; for `T+` byte-wise additions whose carries run up the rows, `vcgtq_u8`
//! finding the wrapped bytes), SubBytes ([`sbox`]: `TBL`/`TBX` over the four quarters of
//! the table), ShiftBytes (one `TBL` per register: the rows rotate inside their halves or
//! registers) and MixColumns on the eight rows ([`mix`]).
//!
//! The chaining value stays in this layout across the blocks of a call; the message
//! blocks are transposed in (8x8 byte transposes of 64-bit words) and the chaining value
//! out at the end. Everything is constant time: register lookups, compares and adds; no
//! memory index or branch depends on data.

// Register arrays are indexed by row; index loops read best.
#![allow(clippy::needless_range_loop)]

use core::arch::aarch64::*;

use super::{plus_byte, soft::shift, transpose8, xor_const};
use crate::arith::gf256::aarch64_neon::{ld16, mix, sbox};
use crate::cpu::aarch64::Neon;

/// Constants of the 512-bit state by round `v` and row `r`: `[0]` the `T+` bytes (high
/// half), `[1]` the `T⊕` constant (row 0, low half).
static K8: [[[[u8; 16]; 8]; 2]; 10] = {
    let mut t = [[[[0u8; 16]; 8]; 2]; 10];
    let mut v = 0;
    while v < 10 {
        let mut r = 0;
        while r < 8 {
            let mut c = 0;
            while c < 8 {
                t[v][0][r][8 + c] = plus_byte(v, r, c, 8);
                if r == 0 {
                    t[v][1][0][c] = xor_const(c, v) as u8;
                }
                c += 1;
            }
            r += 1;
        }
        v += 1;
    }
    t
};

/// The same for the 1024-bit state (16 bytes per row).
static K16: [[[[u8; 16]; 8]; 2]; 14] = {
    let mut t = [[[[0u8; 16]; 8]; 2]; 14];
    let mut v = 0;
    while v < 14 {
        let mut r = 0;
        while r < 8 {
            let mut c = 0;
            while c < 16 {
                t[v][0][r][c] = plus_byte(v, r, c, 16);
                if r == 0 {
                    t[v][1][0][c] = xor_const(c, v) as u8;
                }
                c += 1;
            }
            r += 1;
        }
        v += 1;
    }
    t
};

/// ShiftBytes as `TBL` indices per row: `[0]` the 512-bit state (each half rotates
/// inside itself), `[1]` the 1024-bit state.
static SHIFT: [[[u8; 16]; 8]; 2] = {
    let mut t = [[[0u8; 16]; 8]; 2];
    let mut r = 0;
    while r < 8 {
        let mut p = 0;
        while p < 16 {
            let (h, c) = (p / 8, p % 8);
            t[0][r][p] = (8 * h + (c + 8 - shift(r, 8)) % 8) as u8;
            t[1][r][p] = ((p + 16 - shift(r, 16)) % 16) as u8;
            p += 1;
        }
        r += 1;
    }
    t
};

/// Adds the `T+` constant `k` (zero outside `T+`'s bytes) byte-wise with the carries
/// running up the rows.
#[inline]
#[target_feature(enable = "neon")]
fn add_plus(x: &mut [uint8x16_t; 8], k: &[[u8; 16]; 8]) {
    let ff = vdupq_n_u8(0xff);
    let mut c = vdupq_n_u8(0);
    for r in 0..8 {
        let kr = ld16(&k[r]);
        let t = vaddq_u8(x[r], kr);
        let wrapped = vcgtq_u8(kr, t);
        let p = vandq_u8(c, vceqq_u8(t, ff));
        // `c` is 0xff where a carry comes in: subtracting it adds one.
        x[r] = vsubq_u8(t, c);
        c = vorrq_u8(wrapped, p);
    }
}

/// One round on the eight rows `x`: the `T+` constant (if `plus`), SubBytes, ShiftBytes
/// (`sh`: 0 for the 512-bit state, 1 for the 1024-bit one) and MixColumns with `kx` (the
/// next round's `T⊕` constant, or zeros) XORed in.
#[inline]
#[target_feature(enable = "neon")]
fn round(x: &mut [uint8x16_t; 8], plus: Option<&[[u8; 16]; 8]>, sh: usize, kx: &[[u8; 16]; 8]) {
    if let Some(k) = plus {
        add_plus(x, k);
    }
    let mut y = [vdupq_n_u8(0); 8];
    for r in 0..8 {
        y[r] = vqtbl1q_u8(sbox(x[r], r % 4), ld16(&SHIFT[sh][r]));
    }
    let mut k = [vdupq_n_u8(0); 8];
    for r in 0..8 {
        k[r] = ld16(&kx[r]);
    }
    *x = mix::<8>(&y, &k);
}

const ZERO: [[u8; 16]; 8] = [[0; 16]; 8];

/// The permutation(s) on the rows `x` of one set: the `T⊕` constants from `kt[v][1]`,
/// the `T+` ones from `kt[v][0]` when `plus`.
#[inline]
#[target_feature(enable = "neon")]
fn permute(x: &mut [uint8x16_t; 8], kt: &[[[[u8; 16]; 8]; 2]], plus: bool, sh: usize) {
    x[0] = veorq_u8(x[0], ld16(&kt[0][1][0]));
    let nr = kt.len();
    for v in 0..nr {
        let kx = if v + 1 < nr { &kt[v + 1][1] } else { &ZERO };
        round(x, if plus { Some(&kt[v][0]) } else { None }, sh, kx);
    }
}

/// `T⊕` on the rows `a` and `T+` on the rows `b` of the 1024-bit state, round by round.
#[inline]
#[target_feature(enable = "neon")]
fn permute2(a: &mut [uint8x16_t; 8], b: &mut [uint8x16_t; 8]) {
    a[0] = veorq_u8(a[0], ld16(&K16[0][1][0]));
    for v in 0..14 {
        let kx = if v + 1 < 14 { &K16[v + 1][1] } else { &ZERO };
        round(a, None, 1, kx);
        round(b, Some(&K16[v][0]), 1, &ZERO);
    }
}

#[inline]
#[target_feature(enable = "neon")]
fn q(lo: u64, hi: u64) -> uint8x16_t {
    vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(lo), vcreate_u64(hi)))
}

#[inline]
#[target_feature(enable = "neon")]
fn halves(x: uint8x16_t) -> [u64; 2] {
    let w = vreinterpretq_u64_u8(x);
    [vgetq_lane_u64::<0>(w), vgetq_lane_u64::<1>(w)]
}

/// Eight little-endian words from 64 bytes, transposed to rows.
fn rows_of(bytes: &[u8]) -> [u64; 8] {
    let mut m = [0u64; 8];
    for (w, c) in m.iter_mut().zip(bytes.chunks_exact(8)) {
        *w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
    }
    transpose8(&mut m);
    m
}

/// The 512-bit state: `h` compressed with `blocks`, then (if `fin`) the output
/// transformation.
#[target_feature(enable = "neon")]
fn run8(h: &mut [u64; 16], blocks: &[u8], fin: bool) {
    let mut hr: [u64; 8] = core::array::from_fn(|c| h[c]);
    transpose8(&mut hr);
    for block in blocks.chunks_exact(64) {
        let mut m = rows_of(block);
        let mut x = [vdupq_n_u8(0); 8];
        for r in 0..8 {
            x[r] = q(hr[r] ^ m[r], m[r]);
        }
        permute(&mut x, &K8, true, 0);
        for r in 0..8 {
            let [a, b] = halves(x[r]);
            hr[r] ^= a ^ b;
        }
        zeroize::Zeroize::zeroize(&mut m);
    }
    if fin {
        let mut x = [vdupq_n_u8(0); 8];
        for r in 0..8 {
            x[r] = q(hr[r], 0);
        }
        permute(&mut x, &K8, false, 0);
        for r in 0..8 {
            hr[r] ^= halves(x[r])[0];
        }
    }
    transpose8(&mut hr);
    h[..8].copy_from_slice(&hr);
    zeroize::Zeroize::zeroize(&mut hr);
}

/// The 1024-bit state, as [`run8`].
#[target_feature(enable = "neon")]
fn run16(h: &mut [u64; 16], blocks: &[u8], fin: bool) {
    let mut lo: [u64; 8] = core::array::from_fn(|c| h[c]);
    let mut hi: [u64; 8] = core::array::from_fn(|c| h[8 + c]);
    transpose8(&mut lo);
    transpose8(&mut hi);
    let mut hv = [vdupq_n_u8(0); 8];
    for r in 0..8 {
        hv[r] = q(lo[r], hi[r]);
    }
    for block in blocks.chunks_exact(128) {
        let (mut ml, mut mh) = (rows_of(&block[..64]), rows_of(&block[64..]));
        let mut b = [vdupq_n_u8(0); 8];
        let mut a = [vdupq_n_u8(0); 8];
        for r in 0..8 {
            b[r] = q(ml[r], mh[r]);
            a[r] = veorq_u8(hv[r], b[r]);
        }
        permute2(&mut a, &mut b);
        for r in 0..8 {
            hv[r] = veorq_u8(hv[r], veorq_u8(a[r], b[r]));
        }
        zeroize::Zeroize::zeroize(&mut ml);
        zeroize::Zeroize::zeroize(&mut mh);
    }
    if fin {
        let mut a = hv;
        permute(&mut a, &K16, false, 1);
        for r in 0..8 {
            hv[r] = veorq_u8(hv[r], a[r]);
        }
    }
    for r in 0..8 {
        [lo[r], hi[r]] = halves(hv[r]);
    }
    transpose8(&mut lo);
    transpose8(&mut hi);
    h[..8].copy_from_slice(&lo);
    h[8..].copy_from_slice(&hi);
    zeroize::Zeroize::zeroize(&mut lo);
    zeroize::Zeroize::zeroize(&mut hi);
}

/// Compresses the whole blocks of `blocks` (`8 * cols` bytes each) into `h`.
pub(super) fn compress(t: Neon, h: &mut [u64; 16], cols: usize, blocks: &[u8]) {
    let _ = t;
    // SAFETY: the token proves NEON.
    unsafe {
        if cols == 8 {
            run8(h, blocks, false)
        } else {
            run16(h, blocks, false)
        }
    }
}

/// `h = T⊕(h) ^ h` (the output transformation before truncation).
pub(super) fn finish(t: Neon, h: &mut [u64; 16], cols: usize) {
    let _ = t;
    // SAFETY: the token proves NEON.
    unsafe {
        if cols == 8 {
            run8(h, &[], true)
        } else {
            run16(h, &[], true)
        }
    }
}
