//! Portable, constant-time GHASH: the carry-less multiply and the reduction of
//! `arith::clmul::soft` (integer multiplications with holes; no table, no secret-dependent
//! branch), one block at a time.
//!
//! The field arithmetic (reflected operands, twisted key, Montgomery reduction by `y^128`)
//! is described in `arith::clmul`; a 128 x 128-bit product takes three 64 x 64-bit
//! products (Karatsuba).
#![forbid(unsafe_code)]

use crate::arith::clmul::soft::{mul128, reduce, twist};

/// The twisted hash key `tw(H) = R_H * y mod P*`, with the XOR of its halves for Karatsuba.
#[derive(Clone)]
pub(crate) struct Key {
    lo: u64,
    hi: u64,
    mid: u64,
}

impl Drop for Key {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.lo);
        zeroize::Zeroize::zeroize(&mut self.hi);
        zeroize::Zeroize::zeroize(&mut self.mid);
    }
}

impl Key {
    pub(super) fn new(h: &[u8; 16]) -> Key {
        let t = twist(u128::from_be_bytes(*h));
        Key {
            lo: t as u64,
            hi: (t >> 64) as u64,
            mid: (t as u64) ^ ((t >> 64) as u64),
        }
    }

    /// `y = (y ^ X) * H` for each whole block `X` of `blocks`.
    pub(super) fn update(&self, y: &mut [u8; 16], blocks: &[u8]) {
        let mut acc = u128::from_be_bytes(*y);
        for blk in blocks.chunks_exact(16) {
            let mut b = [0u8; 16];
            b.copy_from_slice(blk);
            let a = acc ^ u128::from_be_bytes(b);
            let (lo, hi) = mul128(a, self.lo, self.hi, self.mid);
            acc = reduce(lo, hi);
        }
        *y = acc.to_be_bytes();
    }
}
