//! GHASH with VPCLMULQDQ on 256-bit registers (AVX2 around it), two blocks per register.
//!
//! Sixteen blocks per reduction, in eight YMM registers: register `j` holds blocks `2j` and
//! `2j + 1` and is multiplied lane by lane by `(H^(16-2j), H^(15-2j))` (Karatsuba, three
//! VPCLMULQDQ per register). The three sums are folded from two lanes to one and reduced
//! once with the 128-bit code of `x86_pclmul`, which also takes a tail of fewer than
//! sixteen blocks; inlined here, it is VEX-encoded like the rest of the kernel.

use core::arch::x86_64::*;

use super::x86_pclmul::{self, absorb};
use crate::arith::clmul::x86_pclmul::{bswap, load, mul, store, twisted};
use crate::arith::clmul::x86_vpclmul::{karatsuba, reduce, rev_mask};
use crate::cpu::x86::Vpclmul256;

/// YMM registers (block pairs) per reduction.
const W: usize = x86_pclmul::WIDE_REGS;

/// `pow[j]` = `(tw(H^(16-2j)), tw(H^(15-2j)))` as two 128-bit lanes, `kar[j]` the XOR of
/// each lane's halves; `xmm` holds `H^1..H^8` for the tail.
pub(crate) type Key = x86_pclmul::WideKey<32>;

impl Key {
    pub(crate) fn new(h: &[u8; 16], t: Vpclmul256) -> Key {
        let mut k = Key::ZERO;
        // SAFETY: the token proves VPCLMULQDQ, PCLMULQDQ, SSSE3, AVX and AVX2.
        unsafe { powers(h, &mut k, t) };
        k
    }
}

#[target_feature(enable = "pclmulqdq,ssse3,avx,avx2,vpclmulqdq")]
fn powers(h: &[u8; 16], k: &mut Key, _t: Vpclmul256) {
    x86_pclmul::powers(h, &mut k.xmm);
    let h1 = twisted(h);
    let mut p = [h1; 2 * W];
    for i in 1..2 * W {
        p[i] = mul(p[i - 1], h1);
    }
    for j in 0..W {
        // Lane 0: H^(16-2j) = p[15-2j]; lane 1: H^(15-2j) = p[14-2j].
        let v = _mm256_set_m128i(p[2 * W - 2 - 2 * j], p[2 * W - 1 - 2 * j]);
        let vk = _mm256_xor_si256(v, _mm256_shuffle_epi32::<0x4e>(v));
        // SAFETY: each destination is 32 writable bytes.
        unsafe {
            _mm256_storeu_si256(k.pow[j].as_mut_ptr().cast(), v);
            _mm256_storeu_si256(k.kar[j].as_mut_ptr().cast(), vk);
        }
    }
}

/// Adds the Karatsuba terms of block pair `j` of `c` (XORed with `extra`) times
/// `pow[j]` to `t` = (low, high, middle).
#[inline]
#[target_feature(enable = "avx,avx2,vpclmulqdq")]
fn product(key: &Key, c: &[u8], j: usize, t: &mut [__m256i; 3], extra: __m256i) {
    assert!(c.len() >= 32 * (j + 1) && j < W);
    // SAFETY: bounds checked above; `pow[j]`, `kar[j]` are 32 bytes.
    let (x, h, hk) = unsafe {
        (
            _mm256_loadu_si256(c.as_ptr().add(32 * j).cast()),
            _mm256_loadu_si256(key.pow[j].as_ptr().cast()),
            _mm256_loadu_si256(key.kar[j].as_ptr().cast()),
        )
    };
    let x = _mm256_xor_si256(_mm256_shuffle_epi8(x, rev_mask()), extra);
    karatsuba(t, x, h, hk);
}

#[target_feature(enable = "pclmulqdq,ssse3,avx,avx2,vpclmulqdq")]
fn kernel(key: &Key, y: &mut [u8; 16], blocks: &[u8]) {
    let mut acc = bswap(load(y));
    let mut chunks = blocks.chunks_exact(32 * W);
    for c in &mut chunks {
        let z = _mm256_setzero_si256();
        let mut t = [z; 3];
        // Register 0 (the one that takes the previous state) last: the other seven do not
        // wait for the previous reduction, so they issue while it completes.
        for j in 1..W {
            product(key, c, j, &mut t, z);
        }
        product(
            key,
            c,
            0,
            &mut t,
            _mm256_set_m128i(_mm_setzero_si128(), acc),
        );
        acc = reduce(&t);
    }
    // SAFETY: PCLMULQDQ and SSSE3 are enabled here.
    acc = unsafe { absorb(&key.xmm, acc, chunks.remainder()) };
    store(y, bswap(acc));
}

/// `y = (y ^ X) * H` for each whole block `X` of `blocks`.
pub(super) fn update(key: &Key, _t: Vpclmul256, y: &mut [u8; 16], blocks: &[u8]) {
    // SAFETY: the token proves VPCLMULQDQ, PCLMULQDQ, SSSE3, AVX and AVX2.
    unsafe { kernel(key, y, blocks) }
}
