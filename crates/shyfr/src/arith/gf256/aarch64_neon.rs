//! GF(2^8) kernels with NEON, for Kalyna and Kupyna (`aarch64_neon`), on registers that
//! hold bytes of one row each (byte-sliced layouts).
//!
//! * [`sbox`]: the 256-entry S-box as four 64-byte tables, `TBL` on the first and `TBX` on
//!   the others with the index XORed by 0x40, 0x80, 0xc0 (an index outside 0..64 leaves the
//!   byte alone): register-only lookups, constant time.
//! * [`mix`]: MixColumns as `out_r = A + 2 (B + 2 (C + 2 D))` (the sums of
//!   `x86_avx512.rs`), the doubling by shift, arithmetic shift of the top bit and a masked
//!   XOR of 0x1d ([`xtime`]).
//! * [`inv_mix`]: InvMixColumns, every product `MDS_INV[k] * x` by two 16-entry nibble
//!   tables (`TBL`).

#![allow(clippy::needless_range_loop)]

use core::arch::aarch64::*;

use super::tables::{gf_mul, MDS_INV, SBOX, SBOX_INV};

/// The eight S-boxes (forward, then inverse).
pub(crate) static TABLES: [[u8; 256]; 8] = [
    SBOX[0],
    SBOX[1],
    SBOX[2],
    SBOX[3],
    SBOX_INV[0],
    SBOX_INV[1],
    SBOX_INV[2],
    SBOX_INV[3],
];

/// `MUL[k]`: `MDS_INV[k] * l` and `MDS_INV[k] * (16 l)` for `l < 16`.
pub(crate) static MUL: [[[u8; 16]; 2]; 8] = {
    let mut t = [[[0u8; 16]; 2]; 8];
    let mut k = 0;
    while k < 8 {
        let mut l = 0;
        while l < 16 {
            t[k][0][l] = gf_mul(MDS_INV[k], l as u8);
            t[k][1][l] = gf_mul(MDS_INV[k], (l * 16) as u8);
            l += 1;
        }
        k += 1;
    }
    t
};

#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn ld16(p: &[u8; 16]) -> uint8x16_t {
    // SAFETY: `p` is 16 readable bytes.
    unsafe { vld1q_u8(p.as_ptr()) }
}

#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn ld64(p: &[u8]) -> uint8x16x4_t {
    assert!(p.len() >= 64);
    // SAFETY: `p` has at least 64 readable bytes (checked above).
    unsafe { vld1q_u8_x4(p.as_ptr()) }
}

/// S-box `s` (0..4 forward, 4..8 inverse) on 16 bytes.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn sbox(x: uint8x16_t, s: usize) -> uint8x16_t {
    let t = &TABLES[s];
    let r = vqtbl4q_u8(ld64(&t[..64]), x);
    let r = vqtbx4q_u8(r, ld64(&t[64..128]), veorq_u8(x, vdupq_n_u8(0x40)));
    let r = vqtbx4q_u8(r, ld64(&t[128..192]), veorq_u8(x, vdupq_n_u8(0x80)));
    vqtbx4q_u8(r, ld64(&t[192..]), veorq_u8(x, vdupq_n_u8(0xc0)))
}

/// `2 x` modulo x^8+x^4+x^3+x^2+1.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn xtime(x: uint8x16_t) -> uint8x16_t {
    let top = vreinterpretq_u8_s8(vshrq_n_s8::<7>(vreinterpretq_s8_u8(x)));
    veorq_u8(vshlq_n_u8::<1>(x), vandq_u8(top, vdupq_n_u8(0x1d)))
}

/// MixColumns of one byte-sliced column (register `i` holds row `i`, after SubBytes),
/// XORed with `k`: output rows `0..N`.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn mix<const N: usize>(y: &[uint8x16_t; 8], k: &[uint8x16_t; N]) -> [uint8x16_t; N] {
    let p: [uint8x16_t; 8] = core::array::from_fn(|i| veorq_u8(y[i], y[(i + 1) % 8]));
    core::array::from_fn(|r| {
        let a = veorq_u8(
            veorq_u8(p[r], p[(r + 2) % 8]),
            veorq_u8(y[(r + 6) % 8], k[r]),
        );
        let b = p[(r + 5) % 8];
        let c = veorq_u8(veorq_u8(y[(r + 2) % 8], b), y[(r + 7) % 8]);
        let t = veorq_u8(c, xtime(y[(r + 4) % 8]));
        let t = veorq_u8(b, xtime(t));
        veorq_u8(a, xtime(t))
    })
}

/// InvMixColumns of one column by nibble tables.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn inv_mix(x: &[uint8x16_t; 8]) -> [uint8x16_t; 8] {
    let f = vdupq_n_u8(0x0f);
    let lo: [uint8x16_t; 8] = core::array::from_fn(|i| vandq_u8(x[i], f));
    let hi: [uint8x16_t; 8] = core::array::from_fn(|i| vshrq_n_u8::<4>(x[i]));
    core::array::from_fn(|r| {
        let mut acc = vdupq_n_u8(0);
        for k in 0..8 {
            let j = (r + k) % 8;
            let a = vqtbl1q_u8(ld16(&MUL[k][0]), lo[j]);
            let b = vqtbl1q_u8(ld16(&MUL[k][1]), hi[j]);
            acc = veorq_u8(acc, veorq_u8(a, b));
        }
        acc
    })
}
