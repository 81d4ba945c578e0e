//! GHASH with the ARMv8 `PMULL`/`PMULL2` instructions (Arm ARM, FEAT_PMULL: 64 x 64-bit
//! polynomial multiply), eight blocks per reduction.
//!
//! The same arithmetic as `x86_pclmul` (`arith::clmul`): blocks byte-reversed into reflected
//! integers (`REV64` + `EXT`), three multiplications per block (Karatsuba), one Montgomery
//! reduction per eight blocks with two multiplications by `K`.

use core::arch::aarch64::*;

use crate::arith::clmul::aarch64_pmull::{bswap, finish, load, mul3, store, swap};
use crate::arith::clmul::soft::twist;
use crate::cpu::aarch64::Pmull;

/// Blocks per reduction.
const N: usize = 8;

/// `tw(H^1) .. tw(H^8)` (index `i` holds `H^(i+1)`) and the XOR of each one's halves.
#[derive(Clone)]
pub(crate) struct Key {
    pub(super) pow: [[u8; 16]; N],
    pub(super) kar: [[u8; 16]; N],
}

impl Drop for Key {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.pow);
        zeroize::Zeroize::zeroize(&mut self.kar);
    }
}

impl Key {
    pub(crate) fn new(h: &[u8; 16], t: Pmull) -> Key {
        let mut k = Key {
            pow: [[0; 16]; N],
            kar: [[0; 16]; N],
        };
        // SAFETY: the token proves NEON and PMULL.
        unsafe { powers(h, &mut k, t) };
        k
    }
}

#[target_feature(enable = "neon,aes")]
fn powers(h: &[u8; 16], k: &mut Key, _t: Pmull) {
    let t = twist(u128::from_be_bytes(*h));
    let h1 = vcombine_u64(vcreate_u64(t as u64), vcreate_u64((t >> 64) as u64));
    let h1k = veorq_u64(h1, swap(h1));
    let mut p = h1;
    for i in 0..N {
        if i > 0 {
            let (lo, hi, mid) = mul3(p, h1, h1k);
            p = finish(lo, hi, mid);
        }
        store(&mut k.pow[i], p);
        store(&mut k.kar[i], veorq_u64(p, swap(p)));
    }
}

/// `n <= N` blocks at `blocks` (the first XORed with `acc`) times `H^n..H^1`, reduced.
#[inline]
#[target_feature(enable = "neon,aes")]
fn group(key: &Key, acc: uint64x2_t, blocks: &[u8], n: usize) -> uint64x2_t {
    let z = vdupq_n_u64(0);
    let (mut lo, mut hi, mut mid) = (z, z, z);
    for (j, b) in blocks.chunks_exact(16).take(n).enumerate() {
        // SAFETY: `b` is 16 readable bytes.
        let x = bswap(unsafe { vreinterpretq_u64_u8(vld1q_u8(b.as_ptr())) });
        let x = if j == 0 { veorq_u64(x, acc) } else { x };
        let (l, h, m) = mul3(x, load(&key.pow[n - 1 - j]), load(&key.kar[n - 1 - j]));
        lo = veorq_u64(lo, l);
        hi = veorq_u64(hi, h);
        mid = veorq_u64(mid, m);
    }
    finish(lo, hi, mid)
}

#[target_feature(enable = "neon,aes")]
fn kernel(key: &Key, y: &mut [u8; 16], blocks: &[u8]) {
    let mut acc = bswap(load(y));
    let mut chunks = blocks.chunks_exact(16 * N);
    for c in &mut chunks {
        acc = group(key, acc, c, N);
    }
    let rest = chunks.remainder();
    if rest.len() >= 16 {
        acc = group(key, acc, rest, rest.len() / 16);
    }
    store(y, bswap(acc));
}

/// `y = (y ^ X) * H` for each whole block `X` of `blocks`.
pub(super) fn update(key: &Key, _t: Pmull, y: &mut [u8; 16], blocks: &[u8]) {
    // SAFETY: the token proves NEON and PMULL (Rust's `aes` target feature).
    unsafe { kernel(key, y, blocks) }
}
