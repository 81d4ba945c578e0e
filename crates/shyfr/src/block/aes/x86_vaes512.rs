//! AES with VAES on 512-bit registers (four blocks per `vaesenc`) and AVX-512F.
//!
//! Thirty-two blocks (eight ZMM registers) are in flight; with 32 vector registers all
//! fifteen round keys stay in registers next to the data.

use core::arch::x86_64::*;

use super::x86_aesni::{by_rounds, ecb, ecb_tail, round, splat_keys, Keys, Lanes};
use super::Block;
use crate::cpu::x86::Vaes512;
use crate::inout::InOut;

impl Lanes for __m512i {
    const BLOCKS: usize = 4;
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the caller guarantees 64 readable bytes and AVX-512F.
        unsafe { _mm512_loadu_si512(p.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: the caller guarantees 64 writable bytes and AVX-512F.
        unsafe { _mm512_storeu_si512(p.cast(), self) }
    }
    #[inline(always)]
    unsafe fn splat(k: &Block) -> Self {
        // SAFETY: `k` is 16 readable bytes; AVX-512F per the trait contract.
        unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(k.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: AVX-512F per the trait contract.
        unsafe { _mm512_xor_si512(self, o) }
    }
    #[inline]
    #[target_feature(enable = "avx512f,vaes")]
    unsafe fn enc(self, k: Self) -> Self {
        round!("vaesenc {x}, {x}, {k}", zmm_reg, self, k)
    }
    #[inline]
    #[target_feature(enable = "avx512f,vaes")]
    unsafe fn enclast(self, k: Self) -> Self {
        round!("vaesenclast {x}, {x}, {k}", zmm_reg, self, k)
    }
    #[inline]
    #[target_feature(enable = "avx512f,vaes")]
    unsafe fn dec(self, k: Self) -> Self {
        round!("vaesdec {x}, {x}, {k}", zmm_reg, self, k)
    }
    #[inline]
    #[target_feature(enable = "avx512f,vaes")]
    unsafe fn declast(self, k: Self) -> Self {
        round!("vaesdeclast {x}, {x}, {k}", zmm_reg, self, k)
    }
}

#[target_feature(enable = "aes,avx,avx2,vaes,avx512f")]
fn kernel<const NR: usize, const DEC: bool>(keys: &Keys, mut io: InOut<'_>) {
    let n = io.len() / 16;
    // SAFETY: VAES and AVX-512F are enabled here; every call stays below block `n`.
    unsafe {
        let k = splat_keys::<__m512i, NR, DEC>(keys);
        let i = ecb::<__m512i, 8, NR, DEC>(&k, &mut io, 0, n);
        let i = ecb::<__m512i, 4, NR, DEC>(&k, &mut io, i, n);
        let i = ecb::<__m512i, 1, NR, DEC>(&k, &mut io, i, n);
        ecb_tail::<NR, DEC>(keys, &mut io, i);
    }
}

/// Encrypts the whole blocks of `io`.
pub(super) fn encrypt(keys: &Keys, _t: Vaes512, io: InOut<'_>) {
    // SAFETY: the token proves VAES and AVX-512F.
    unsafe { by_rounds!(keys, kernel, false, keys, io) }
}

/// Decrypts the whole blocks of `io`.
pub(super) fn decrypt(keys: &Keys, _t: Vaes512, io: InOut<'_>) {
    // SAFETY: the token proves VAES and AVX-512F.
    unsafe { by_rounds!(keys, kernel, true, keys, io) }
}
