//! AES with VAES on 512-bit registers (four blocks per `vaesenc`) and AVX-512F.
//!
//! Thirty-two blocks (eight ZMM registers) are in flight; with 32 vector registers all
//! fifteen round keys stay in registers next to the data.

use core::arch::x86_64::*;

use super::x86::{
    by_regs, by_rounds, ecb, ecb_last, mul_x, mul_x_pow_body, round, Keys, Lanes, RoundKey,
};
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
    unsafe fn key(k: &RoundKey) -> Self {
        // SAFETY: 64 readable bytes aligned to 64; AVX-512F per the trait contract.
        unsafe { _mm512_load_si512(k.0.as_ptr().cast()) }
    }
    #[inline(always)]
    unsafe fn load_part(p: *const u8, blocks: usize) -> Self {
        // SAFETY: the masked-off qwords are neither read nor fault; AVX-512F.
        unsafe { _mm512_maskz_loadu_epi64(qword_mask(blocks), p.cast()) }
    }
    #[inline(always)]
    unsafe fn store_part(self, p: *mut u8, blocks: usize) {
        // SAFETY: the masked-off qwords are not written; AVX-512F.
        unsafe { _mm512_mask_storeu_epi64(p.cast(), qword_mask(blocks), self) }
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

    /// The counter block byte-reversed (its last word little-endian in dword 0), in all
    /// four lanes, lane `j` `j` further on.
    type Ctr = __m512i;
    #[inline(always)]
    unsafe fn ctr_init(c: &Block) -> __m512i {
        // SAFETY: `c` is 16 readable bytes; AVX-512F (and AVX2) per the trait contract.
        unsafe {
            let r = _mm_shuffle_epi8(_mm_loadu_si128(c.as_ptr().cast()), reverse_mask128());
            _mm512_add_epi32(
                _mm512_broadcast_i32x4(r),
                _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0),
            )
        }
    }
    #[inline(always)]
    unsafe fn ctr_at(c: &__m512i, off: u32) -> __m512i {
        // SAFETY: AVX-512F per the trait contract.
        unsafe { _mm512_add_epi32(*c, _mm512_set4_epi32(0, 0, 0, off as i32)) }
    }
    #[inline(always)]
    unsafe fn ctr_blocks(c: &__m512i, off: u32) -> Self {
        // The token has no AVX-512BW (`vpshufb` on zmm): reverse the two 256-bit halves
        // with AVX2.
        // SAFETY: AVX-512F and AVX2 per the trait contract.
        unsafe {
            let x = Self::ctr_at(c, off);
            let m = _mm256_broadcastsi128_si256(reverse_mask128());
            let lo = _mm256_shuffle_epi8(_mm512_castsi512_si256(x), m);
            let hi = _mm256_shuffle_epi8(_mm512_extracti64x4_epi64::<1>(x), m);
            _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
        }
    }
    #[inline(always)]
    unsafe fn add_low_byte(self, n: u32) -> Self {
        // SAFETY: AVX-512F per the trait contract.
        unsafe { _mm512_add_epi32(self, _mm512_set4_epi32((n << 24) as i32, 0, 0, 0)) }
    }

    #[inline(always)]
    unsafe fn from_tweaks(t: &mut u128) -> Self {
        let a = *t;
        let b = mul_x(a);
        let c = mul_x(b);
        let d = mul_x(c);
        *t = mul_x(d);
        let h = |v: u128| (v >> 64) as i64;
        // SAFETY: AVX-512F per the trait contract.
        unsafe {
            _mm512_set_epi64(
                h(d),
                d as i64,
                h(c),
                c as i64,
                h(b),
                b as i64,
                h(a),
                a as i64,
            )
        }
    }
    #[inline(always)]
    unsafe fn mul_x_pow(self, s: u32) -> Self {
        // No whole-byte form: `vpslldq` on zmm needs AVX-512BW, which the token lacks.
        // SAFETY: AVX-512F per the trait contract.
        unsafe {
            mul_x_pow_body!(
                self,
                s,
                _mm512_sll_epi64,
                _mm512_srl_epi64,
                |x| _mm512_shuffle_epi32::<_MM_PERM_BADC>(x),
                _mm512_and_si512,
                _mm512_xor_si512,
                _mm512_set_epi64(0, -1, 0, -1, 0, -1, 0, -1)
            )
        }
    }
    #[inline(always)]
    unsafe fn first_lane(self) -> __m128i {
        // SAFETY: AVX-512F per the trait contract.
        unsafe { _mm512_castsi512_si128(self) }
    }
    #[inline(always)]
    unsafe fn shift_in(self, carry: __m128i) -> Self {
        // [carry, self lanes 0..2]: the top two qwords of `carry` everywhere, then self.
        // SAFETY: AVX-512F per the trait contract.
        unsafe { _mm512_alignr_epi64::<6>(self, _mm512_broadcast_i32x4(carry)) }
    }
}

/// The qwords of the first `blocks` blocks (`1..=4`) of a zmm register.
#[inline(always)]
fn qword_mask(blocks: usize) -> __mmask8 {
    (0xffu32 >> (8 - 2 * blocks)) as __mmask8
}

/// `pshufb` mask reversing the bytes of a block.
#[inline(always)]
unsafe fn reverse_mask128() -> __m128i {
    // SAFETY: SSE2 (the mask is data).
    unsafe { _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) }
}

/// ECB: groups of 64 blocks on long inputs, of 32, then the rest (fewer than 32) in one pass of up to eight
/// registers, the last one masked. The round keys come straight from the schedule.
#[target_feature(enable = "aes,avx,avx2,vaes,avx512f")]
fn kernel<const NR: usize, const DEC: bool>(keys: &Keys, mut io: InOut<'_>) {
    let n = io.len() / 16;
    let k = keys.sched::<DEC>();
    // SAFETY: VAES and AVX-512F are enabled here; every call stays below block `n`, and
    // `by_regs!` picks the register count that holds blocks `i..n`.
    unsafe {
        // From 128 blocks on, 64 in flight (sixteen registers): 2 % faster at 4 and
        // 16 KiB on Zen 4; on shorter inputs it was slower (8 % at 1 KiB).
        let i = if n >= 128 {
            ecb::<__m512i, 16, NR, DEC>(k, &mut io, 0, n)
        } else {
            0
        };
        let i = ecb::<__m512i, 8, NR, DEC>(k, &mut io, i, n);
        by_regs!(
            n - i,
            4,
            [1, 2, 3, 4, 5, 6, 7, 8],
            ecb_last,
            [__m512i, NR, DEC],
            (k, &mut io, i, n)
        );
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

// ---- Fused mode kernels (the loops are in `x86_modes`, shared with the tested ymm
// backend; this file only picks the register type and group sizes) ----

use super::x86_modes as modes;

#[target_feature(enable = "aes,avx,avx2,vaes,avx512f")]
fn ctr_kernel<const NR: usize, const D: bool>(keys: &Keys, c: &Block, mut io: InOut<'_>) {
    let n = io.len() / 16;
    let low = u32::from_be_bytes([c[12], c[13], c[14], c[15]]);
    let k = &keys.enc;
    // SAFETY: VAES and AVX-512F are enabled here; every call stays below block `n`, and
    // the caller guarantees the counter's last word does not wrap.
    unsafe {
        let cs = <__m512i as Lanes>::ctr_init(c);
        let i = modes::ctr::<__m512i, 8, NR>(k, &mut io, &cs, low, 0, n);
        by_regs!(
            n - i,
            4,
            [1, 2, 3, 4, 5, 6, 7, 8],
            modes::ctr_last,
            [__m512i, NR],
            (k, &mut io, &cs, i, n)
        );
    }
}

#[target_feature(enable = "aes,avx,avx2,vaes,avx512f")]
fn chain_kernel<const NR: usize, const DEC: bool>(keys: &Keys, iv: &mut Block, mut io: InOut<'_>) {
    let n = io.len() / 16;
    let k = keys.sched::<DEC>();
    // SAFETY: VAES and AVX-512F are enabled here; every call stays below block `n`.
    unsafe {
        let mut v = _mm_loadu_si128(iv.as_ptr().cast());
        let i = modes::chain_dec::<__m512i, 8, NR, DEC>(k, &mut io, &mut v, 0, n);
        by_regs!(
            n - i,
            4,
            [1, 2, 3, 4, 5, 6, 7, 8],
            modes::chain_last,
            [__m512i, NR, DEC],
            (k, &mut io, &mut v, i, n)
        );
        _mm_storeu_si128(iv.as_mut_ptr().cast(), v);
    }
}

#[target_feature(enable = "aes,avx,avx2,vaes,avx512f")]
fn xts_kernel<const NR: usize, const DEC: bool>(keys: &Keys, tweak: &mut Block, mut io: InOut<'_>) {
    let n = io.len() / 16;
    let k = keys.sched::<DEC>();
    // SAFETY: VAES and AVX-512F are enabled here; every call stays below block `n`.
    unsafe {
        let i = modes::xts::<__m512i, 8, NR, DEC>(k, &mut io, tweak, 0, n, |tw| {
            modes::advance_mul(tw, 32)
        });
        by_regs!(
            n - i,
            4,
            [1, 2, 3, 4, 5, 6, 7, 8],
            modes::xts_last,
            [__m512i, NR, DEC],
            (k, &mut io, tweak, i, n)
        );
    }
}

/// CTR over the whole blocks of `io` from counter block `c` (last word not wrapping).
pub(super) fn ctr32(keys: &Keys, _t: Vaes512, c: &Block, io: InOut<'_>) {
    // SAFETY: the token proves VAES and AVX-512F.
    unsafe { by_rounds!(keys, ctr_kernel, false, keys, c, io) }
}

/// CBC (`cbc`) or CFB (`!cbc`) decryption of the whole blocks of `io`.
pub(super) fn chain_dec(keys: &Keys, _t: Vaes512, iv: &mut Block, io: InOut<'_>, cbc: bool) {
    // SAFETY: the token proves VAES and AVX-512F.
    unsafe {
        if cbc {
            by_rounds!(keys, chain_kernel, true, keys, iv, io)
        } else {
            by_rounds!(keys, chain_kernel, false, keys, iv, io)
        }
    }
}

/// XTS over the whole blocks of `io` with the encrypted tweak `tweak`.
pub(super) fn xts(keys: &Keys, _t: Vaes512, tweak: &mut Block, io: InOut<'_>, dec: bool) {
    // SAFETY: the token proves VAES and AVX-512F.
    unsafe {
        if dec {
            by_rounds!(keys, xts_kernel, true, keys, tweak, io)
        } else {
            by_rounds!(keys, xts_kernel, false, keys, tweak, io)
        }
    }
}
