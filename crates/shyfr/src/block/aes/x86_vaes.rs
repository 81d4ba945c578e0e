//! AES with VAES on 256-bit registers (two blocks per `vaesenc`), AVX2 around it.
//!
//! Twenty-four blocks (twelve YMM registers) are in flight: two 256-bit AES units of
//! latency 4 need eight registers, and the extra four hide loads, XORs and stores
//! (measured on Zen 3, AES-128: 0.165 cycles/byte with twelve, 0.173 with eight, 0.25 with
//! sixteen, which spills). Round keys are broadcast once per call.

use core::arch::x86_64::*;

use super::x86_aesni::{by_rounds, ecb, ecb_tail, round, splat_keys, Keys, Lanes};
use super::Block;
use crate::cpu::x86::Vaes256;
use crate::inout::InOut;

impl Lanes for __m256i {
    const BLOCKS: usize = 2;
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the caller guarantees 32 readable bytes and AVX.
        unsafe { _mm256_loadu_si256(p.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: the caller guarantees 32 writable bytes and AVX.
        unsafe { _mm256_storeu_si256(p.cast(), self) }
    }
    #[inline(always)]
    unsafe fn splat(k: &Block) -> Self {
        // SAFETY: `k` is 16 readable bytes; AVX2 per the trait contract.
        unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(k.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_xor_si256(self, o) }
    }
    #[inline]
    #[target_feature(enable = "avx,vaes")]
    unsafe fn enc(self, k: Self) -> Self {
        round!("vaesenc {x}, {x}, {k}", ymm_reg, self, k)
    }
    #[inline]
    #[target_feature(enable = "avx,vaes")]
    unsafe fn enclast(self, k: Self) -> Self {
        round!("vaesenclast {x}, {x}, {k}", ymm_reg, self, k)
    }
    #[inline]
    #[target_feature(enable = "avx,vaes")]
    unsafe fn dec(self, k: Self) -> Self {
        round!("vaesdec {x}, {x}, {k}", ymm_reg, self, k)
    }
    #[inline]
    #[target_feature(enable = "avx,vaes")]
    unsafe fn declast(self, k: Self) -> Self {
        round!("vaesdeclast {x}, {x}, {k}", ymm_reg, self, k)
    }
}

#[target_feature(enable = "aes,avx,avx2,vaes")]
fn kernel<const NR: usize, const DEC: bool>(keys: &Keys, mut io: InOut<'_>) {
    let n = io.len() / 16;
    // SAFETY: VAES and AVX2 are enabled here; every call stays below block `n`.
    unsafe {
        let k = splat_keys::<__m256i, NR, DEC>(keys);
        let i = ecb::<__m256i, 12, NR, DEC>(&k, &mut io, 0, n);
        let i = ecb::<__m256i, 4, NR, DEC>(&k, &mut io, i, n);
        let i = ecb::<__m256i, 1, NR, DEC>(&k, &mut io, i, n);
        ecb_tail::<NR, DEC>(keys, &mut io, i);
    }
}

/// Encrypts the whole blocks of `io`.
pub(super) fn encrypt(keys: &Keys, _t: Vaes256, io: InOut<'_>) {
    // SAFETY: the token proves VAES, AVX and AVX2.
    unsafe { by_rounds!(keys, kernel, false, keys, io) }
}

/// Decrypts the whole blocks of `io`.
pub(super) fn decrypt(keys: &Keys, _t: Vaes256, io: InOut<'_>) {
    // SAFETY: the token proves VAES, AVX and AVX2.
    unsafe { by_rounds!(keys, kernel, true, keys, io) }
}
