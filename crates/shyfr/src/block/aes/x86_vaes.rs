//! AES with VAES on 256-bit registers (two blocks per `vaesenc`), AVX2 around it.
//!
//! Twenty-four blocks (twelve YMM registers) are in flight: two 256-bit AES units of
//! latency 4 need eight registers, and the extra four hide loads, XORs and stores
//! (measured on Zen 3, AES-128: 0.165 cycles/byte with twelve, 0.173 with eight, 0.25 with
//! sixteen, which spills). Round keys are broadcast once per call.

use core::arch::x86_64::*;

use super::x86::{
    by_regs, by_rounds, ecb, ecb_last, mul_x, mul_x_pow_any, mul_x_pow_body, mul_x_pow_bytes,
    round, Keys, Lanes, RoundKey,
};
use super::Block;
use crate::cpu::x86::{Vaes256, Vpclmul256};
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
    unsafe fn key(k: &RoundKey) -> Self {
        // SAFETY: 32 readable bytes aligned to 64; AVX per the trait contract.
        unsafe { _mm256_load_si256(k.0.as_ptr().cast()) }
    }
    #[inline(always)]
    unsafe fn load_part(p: *const u8, blocks: usize) -> Self {
        // SAFETY: the caller guarantees `blocks` readable blocks; AVX.
        unsafe {
            if blocks >= 2 {
                Self::load(p)
            } else {
                _mm256_zextsi128_si256(_mm_loadu_si128(p.cast()))
            }
        }
    }
    #[inline(always)]
    unsafe fn store_part(self, p: *mut u8, blocks: usize) {
        // SAFETY: the caller guarantees `blocks` writable blocks; AVX.
        unsafe {
            if blocks >= 2 {
                self.store(p)
            } else {
                _mm_storeu_si128(p.cast(), _mm256_castsi256_si128(self))
            }
        }
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

    /// The counter block byte-reversed (its last word little-endian in dword 0), in both
    /// lanes, lane 1 one further on.
    type Ctr = __m256i;
    #[inline(always)]
    unsafe fn ctr_init(c: &Block) -> __m256i {
        // SAFETY: `c` is 16 readable bytes; AVX2 per the trait contract.
        unsafe {
            let x = _mm256_broadcastsi128_si256(_mm_loadu_si128(c.as_ptr().cast()));
            _mm256_add_epi32(
                _mm256_shuffle_epi8(x, reverse_mask()),
                _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0),
            )
        }
    }
    #[inline(always)]
    unsafe fn ctr_at(c: &__m256i, off: u32) -> __m256i {
        // SAFETY: AVX2 per the trait contract.
        unsafe {
            _mm256_add_epi32(
                *c,
                _mm256_set_epi32(0, 0, 0, off as i32, 0, 0, 0, off as i32),
            )
        }
    }
    #[inline(always)]
    unsafe fn ctr_blocks(c: &__m256i, off: u32) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_shuffle_epi8(Self::ctr_at(c, off), reverse_mask()) }
    }
    #[inline(always)]
    unsafe fn add_low_byte(self, n: u32) -> Self {
        let b = (n << 24) as i32;
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_add_epi32(self, _mm256_set_epi32(b, 0, 0, 0, b, 0, 0, 0)) }
    }

    #[inline(always)]
    unsafe fn mul_x_pow(self, s: u32) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe {
            mul_x_pow_any!(
                self,
                s,
                _mm256_bslli_epi128,
                _mm256_bsrli_epi128,
                _mm256_slli_epi64,
                _mm256_xor_si256,
                mul_x_pow_body!(
                    self,
                    s,
                    _mm256_sll_epi64,
                    _mm256_srl_epi64,
                    |x| _mm256_shuffle_epi32::<0x4e>(x),
                    _mm256_and_si256,
                    _mm256_xor_si256,
                    _mm256_set_epi64x(0, -1, 0, -1)
                )
            )
        }
    }
    #[inline(always)]
    unsafe fn from_tweaks(t: &mut u128) -> Self {
        let a = *t;
        let b = mul_x(a);
        *t = mul_x(b);
        // SAFETY: AVX per the trait contract.
        unsafe { _mm256_set_epi64x((b >> 64) as i64, b as i64, (a >> 64) as i64, a as i64) }
    }
    #[inline(always)]
    unsafe fn first_lane(self) -> __m128i {
        // SAFETY: AVX per the trait contract.
        unsafe { _mm256_castsi256_si128(self) }
    }
    #[inline(always)]
    unsafe fn shift_in(self, carry: __m128i) -> Self {
        // SAFETY: AVX2 per the trait contract.
        unsafe { _mm256_permute2x128_si256::<0x20>(_mm256_castsi128_si256(carry), self) }
    }
}

/// `vpshufb` mask reversing the bytes of each 128-bit lane.
#[inline(always)]
unsafe fn reverse_mask() -> __m256i {
    // SAFETY: AVX per the caller's contract.
    unsafe {
        _mm256_set_epi8(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
            11, 12, 13, 14, 15,
        )
    }
}

/// ECB: groups of 24 blocks, then the rest (fewer than 24) in one pass of up to twelve
/// registers, the last one half filled when the count is odd. The round keys come straight
/// from the schedule.
#[target_feature(enable = "aes,avx,avx2,vaes")]
fn kernel<const NR: usize, const DEC: bool>(keys: &Keys, mut io: InOut<'_>) {
    let n = io.len() / 16;
    let k = keys.sched::<DEC>();
    // SAFETY: VAES and AVX2 are enabled here; every call stays below block `n`, and
    // `by_regs!` picks the register count that holds blocks `i..n`.
    unsafe {
        let i = ecb::<__m256i, 12, NR, DEC>(k, &mut io, 0, n);
        by_regs!(
            n - i,
            2,
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
            ecb_last,
            [__m256i, NR, DEC],
            (k, &mut io, i, n)
        );
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

// ---- Fused mode kernels (the loops are in `x86_modes`) ----

use super::x86_modes as modes;

/// Registers per CTR group.
const CTR_W: usize = 12;
/// Registers per XTS group (24 blocks, tweak step `x^24`: one carry-less multiply per
/// register). Zen 3, AES-128, 16 KiB: 0.237 cycles/byte, against 0.240 with eight. The
/// tweak updates, not the AES rounds, are what XTS adds to ECB's 0.16: without them the
/// loop runs at 0.175; each `vpclmulqdq` costs about 1.5 cycles of the AES pipes, and the
/// shift-only update (nine instructions per register) is slower still (0.295), and so
/// is handing some registers' tweaks to the integer units (64-bit shifts one group ahead,
/// read back as loads: 0.249 with one register of twelve, 0.30 with four).
const XTS_W: usize = 12;

#[target_feature(enable = "aes,avx,avx2,vaes")]
fn ctr_kernel<const NR: usize, const D: bool>(keys: &Keys, c: &Block, mut io: InOut<'_>) {
    let n = io.len() / 16;
    let low = u32::from_be_bytes([c[12], c[13], c[14], c[15]]);
    let k = &keys.enc;
    // SAFETY: VAES and AVX2 are enabled here; every call stays below block `n`, and the
    // caller guarantees the counter's last word does not wrap.
    unsafe {
        let cs = <__m256i as Lanes>::ctr_init(c);
        let i = modes::ctr::<__m256i, CTR_W, NR>(k, &mut io, &cs, low, 0, n);
        by_regs!(
            n - i,
            2,
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
            modes::ctr_last,
            [__m256i, NR],
            (k, &mut io, &cs, i, n)
        );
    }
}

#[target_feature(enable = "aes,avx,avx2,vaes")]
fn chain_kernel<const NR: usize, const DEC: bool>(keys: &Keys, iv: &mut Block, mut io: InOut<'_>) {
    let n = io.len() / 16;
    let k = keys.sched::<DEC>();
    // SAFETY: VAES and AVX2 are enabled here; every call stays below block `n`.
    unsafe {
        let mut v = _mm_loadu_si128(iv.as_ptr().cast());
        let i = modes::chain_dec::<__m256i, 8, NR, DEC>(k, &mut io, &mut v, 0, n);
        by_regs!(
            n - i,
            2,
            [1, 2, 3, 4, 5, 6, 7, 8],
            modes::chain_last,
            [__m256i, NR, DEC],
            (k, &mut io, &mut v, i, n)
        );
        _mm_storeu_si128(iv.as_mut_ptr().cast(), v);
    }
}

#[target_feature(enable = "aes,avx,avx2,vaes")]
fn xts_kernel<const NR: usize, const DEC: bool>(keys: &Keys, tweak: &mut Block, mut io: InOut<'_>) {
    let n = io.len() / 16;
    let k = keys.sched::<DEC>();
    // SAFETY: VAES and AVX2 are enabled here; every call stays below block `n`.
    unsafe {
        let i = modes::xts::<__m256i, XTS_W, NR, DEC>(k, &mut io, tweak, 0, n, |tw| {
            modes::advance_mul(tw, 2 * XTS_W as u32)
        });
        by_regs!(
            n - i,
            2,
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
            modes::xts_last,
            [__m256i, NR, DEC],
            (k, &mut io, tweak, i, n)
        );
    }
}

#[target_feature(enable = "aes,avx,avx2,vaes,vpclmulqdq")]
fn xts_kernel_clmul<const NR: usize, const DEC: bool>(
    keys: &Keys,
    tweak: &mut Block,
    mut io: InOut<'_>,
) {
    let n = io.len() / 16;
    let k = keys.sched::<DEC>();
    // SAFETY: VAES, AVX2 and VPCLMULQDQ are enabled here; every call stays below block `n`.
    unsafe {
        let i = modes::xts::<__m256i, XTS_W, NR, DEC>(k, &mut io, tweak, 0, n, |tw| {
            for t in tw.iter_mut() {
                *t = mul_x_bytes_clmul::<{ 2 * XTS_W as i32 / 8 }>(*t);
            }
        });
        by_regs!(
            n - i,
            2,
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
            modes::xts_last,
            [__m256i, NR, DEC],
            (k, &mut io, tweak, i, n)
        );
    }
}

/// Both lanes times `x^(8 * BYTES)` (`BYTES` in `1..=7`; `x^24` is the `XTS_W = 12` group
/// step) with one carry-less multiply for the reduction: the `8 * BYTES` bits shifted out
/// of the top times 0x87 (below 2^64, so one 64-bit product holds it).
#[inline]
#[target_feature(enable = "avx2,vpclmulqdq")]
fn mul_x_bytes_clmul<const BYTES: i32>(v: __m256i) -> __m256i {
    const { assert!(BYTES >= 1 && BYTES <= 7) };
    const _: () = assert!((2 * XTS_W).is_multiple_of(8));
    let h = match BYTES {
        1 => _mm256_bsrli_epi128::<15>(v),
        2 => _mm256_bsrli_epi128::<14>(v),
        3 => _mm256_bsrli_epi128::<13>(v),
        4 => _mm256_bsrli_epi128::<12>(v),
        5 => _mm256_bsrli_epi128::<11>(v),
        6 => _mm256_bsrli_epi128::<10>(v),
        _ => _mm256_bsrli_epi128::<9>(v),
    };
    let r = _mm256_clmulepi64_epi128::<0x00>(h, _mm256_set_epi64x(0, 0x87, 0, 0x87));
    _mm256_xor_si256(_mm256_bslli_epi128::<BYTES>(v), r)
}

/// CTR over the whole blocks of `io` from counter block `c` (last word not wrapping).
pub(super) fn ctr32(keys: &Keys, _t: Vaes256, c: &Block, io: InOut<'_>) {
    // SAFETY: the token proves VAES, AVX and AVX2.
    unsafe { by_rounds!(keys, ctr_kernel, false, keys, c, io) }
}

/// CBC (`cbc`) or CFB (`!cbc`) decryption of the whole blocks of `io`.
pub(super) fn chain_dec(keys: &Keys, _t: Vaes256, iv: &mut Block, io: InOut<'_>, cbc: bool) {
    // SAFETY: the token proves VAES, AVX and AVX2.
    unsafe {
        if cbc {
            by_rounds!(keys, chain_kernel, true, keys, iv, io)
        } else {
            by_rounds!(keys, chain_kernel, false, keys, iv, io)
        }
    }
}

/// XTS over the whole blocks of `io` with the encrypted tweak `tweak`; with `clmul`, the
/// tweaks advance with carry-less multiplication (0.24 instead of 0.30 cycles/byte for
/// AES-128 on Zen 3).
pub(super) fn xts(
    keys: &Keys,
    _t: Vaes256,
    clmul: Option<Vpclmul256>,
    tweak: &mut Block,
    io: InOut<'_>,
    dec: bool,
) {
    // SAFETY: the `Vaes256` token proves VAES, AVX and AVX2; the `Vpclmul256` token, when
    // present, VPCLMULQDQ.
    unsafe {
        match (clmul, dec) {
            (Some(_), true) => by_rounds!(keys, xts_kernel_clmul, true, keys, tweak, io),
            (Some(_), false) => by_rounds!(keys, xts_kernel_clmul, false, keys, tweak, io),
            (None, true) => by_rounds!(keys, xts_kernel, true, keys, tweak, io),
            (None, false) => by_rounds!(keys, xts_kernel, false, keys, tweak, io),
        }
    }
}
