//! GHASH with VPCLMULQDQ on 512-bit registers (AVX-512), four blocks per register.
//!
//! Thirty-two blocks per reduction, in eight ZMM registers: register `j` holds blocks
//! `4j .. 4j + 3` and is multiplied lane by lane by `(H^(32-4j), .., H^(29-4j))`
//! (Karatsuba, three VPCLMULQDQ per register). The three sums are folded from four lanes to
//! one and reduced once (`arith::clmul::x86_vpclmul512`); a tail of fewer than thirty-two
//! blocks takes the 128-bit code of `x86_pclmul`. The fused AES-GCM engine on zmm registers
//! (`aead::aes_gcm::x86_vaes512`) uses these powers in this layout.

use core::arch::x86_64::*;

use super::x86_pclmul::{self, absorb};
use crate::arith::clmul::x86_pclmul::{bswap, load, mul, store, twisted};
use crate::arith::clmul::x86_vpclmul512::{karatsuba, reduce, rev_mask};
use crate::cpu::x86::Vpclmul512;

/// ZMM registers (groups of four blocks) per reduction.
pub(crate) const W: usize = x86_pclmul::WIDE_REGS;

/// `pow[j]` = `(tw(H^(32-4j)), .., tw(H^(29-4j)))` as four 128-bit lanes, `kar[j]` the XOR
/// of each lane's halves; `xmm` holds `H^1..H^8` for the tail.
pub(crate) type Key = x86_pclmul::WideKey<64>;

impl Key {
    pub(crate) fn new(h: &[u8; 16], t: Vpclmul512) -> Key {
        let mut k = Key::ZERO;
        // SAFETY: the token proves VPCLMULQDQ, PCLMULQDQ, SSSE3, AVX2 and AVX-512F/BW/VL.
        unsafe { powers(h, &mut k, t) };
        k
    }
}

#[target_feature(enable = "pclmulqdq,ssse3,avx,avx2,avx512f,avx512bw,avx512vl,vpclmulqdq")]
fn powers(h: &[u8; 16], k: &mut Key, _t: Vpclmul512) {
    x86_pclmul::powers(h, &mut k.xmm);
    let h1 = twisted(h);
    let mut p = [h1; 4 * W];
    for i in 1..4 * W {
        p[i] = mul(p[i - 1], h1);
    }
    for j in 0..W {
        // Lane l: H^(32-4j-l) = p[31-4j-l].
        let top = 4 * W - 1 - 4 * j;
        let lo = _mm256_set_m128i(p[top - 1], p[top]);
        let hi = _mm256_set_m128i(p[top - 3], p[top - 2]);
        let v = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi);
        let vk = _mm512_xor_si512(v, _mm512_shuffle_epi32::<_MM_PERM_BADC>(v));
        // SAFETY: each destination is 64 writable bytes.
        unsafe {
            _mm512_storeu_si512(k.pow[j].as_mut_ptr().cast(), v);
            _mm512_storeu_si512(k.kar[j].as_mut_ptr().cast(), vk);
        }
    }
}

/// Adds the Karatsuba terms of register `j` of `c` (XORed with `extra`) times `pow[j]`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,vpclmulqdq")]
fn product(key: &Key, c: &[u8], j: usize, t: &mut [__m512i; 3], extra: __m512i) {
    assert!(c.len() >= 64 * (j + 1) && j < W);
    // SAFETY: bounds checked above; `pow[j]`, `kar[j]` are 64 bytes.
    let (x, h, hk) = unsafe {
        (
            _mm512_loadu_si512(c.as_ptr().add(64 * j).cast()),
            _mm512_loadu_si512(key.pow[j].as_ptr().cast()),
            _mm512_loadu_si512(key.kar[j].as_ptr().cast()),
        )
    };
    let x = _mm512_xor_si512(_mm512_shuffle_epi8(x, rev_mask()), extra);
    karatsuba(t, x, h, hk);
}

#[target_feature(enable = "pclmulqdq,ssse3,avx,avx2,avx512f,avx512bw,avx512vl,vpclmulqdq")]
fn kernel(key: &Key, y: &mut [u8; 16], blocks: &[u8]) {
    let mut acc = bswap(load(y));
    let mut chunks = blocks.chunks_exact(64 * W);
    for c in &mut chunks {
        let z = _mm512_setzero_si512();
        let mut t = [z; 3];
        // Register 0 (the one that takes the previous state) last: the others do not wait
        // for the previous reduction.
        for j in 1..W {
            product(key, c, j, &mut t, z);
        }
        product(key, c, 0, &mut t, _mm512_zextsi128_si512(acc));
        acc = reduce(&t);
    }
    // SAFETY: PCLMULQDQ and SSSE3 are enabled here.
    acc = unsafe { absorb(&key.xmm, acc, chunks.remainder()) };
    store(y, bswap(acc));
}

/// `y = (y ^ X) * H` for each whole block `X` of `blocks`.
pub(super) fn update(key: &Key, _t: Vpclmul512, y: &mut [u8; 16], blocks: &[u8]) {
    // SAFETY: the token proves VPCLMULQDQ, PCLMULQDQ, SSSE3, AVX2 and AVX-512F/BW/VL.
    unsafe { kernel(key, y, blocks) }
}
