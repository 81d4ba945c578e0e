//! Keccak-f\[1600\] with AVX-512 (F and VL; x86-64), one round formula for two shapes:
//!
//! * **one state**: each of the 25 lanes in its own `xmm` register (AVX-512 has 32), for
//!   [`permute`] and [`absorb`];
//! * **eight states** side by side: element `s` of `zmm` register `i` is lane `i` of state
//!   `s`, for [`permute_x8`] and [`sponge_x8`] (the `*_many` functions).
//!
//! Either way every step of the permutation is the scalar formula with a 64-bit lane
//! replaced by a vector register ([`Lanes`]), and pi is a renaming. A round is about 95
//! vector instructions: `D` (5 `vprolq` and 5 `vpxorq`), theta applied and rho (25 `vpxorq`
//! and 24 `vprolq`), chi (25 `vpternlogq`, each `a ^ (!b & c)`), iota (1), and the next
//! round's column parities (20 `vpxorq`, which LLVM folds partly into `vpternlogq`).
//!
//! Against the scalar `x86_bmi` kernel (130 ALU instructions a round), the vector side of
//! AMD Zen 4 issues four logic operations a cycle (and rotations on two pipes) and keeps
//! the whole state in registers, with no spills. Measured on Zen 4 (scratch loop, best of
//! 300, SHA3-256 rate, 16 KiB): 5.2 cycles/byte against 6.7 for `x86_bmi`. The order of the
//! source matters to LLVM's schedule: computing all 25 rotated lanes of a round before any
//! chi measured 5.2, chi plane by plane as the lanes are ready 5.6, chi column by column
//! 5.5, and the theta-apply as one `vpternlogq` per lane (no `D` values) 6.5.
//!
//! Every instruction has data-independent timing and there is no table look-up indexed by
//! data: constant time.

use core::arch::x86_64::*;

use super::consts::{RC, RHO};
use crate::arith::lanes::x86_avx512::transpose_q8;
use crate::cpu::x86::Avx512;

/// `vpternlogq` truth table of `a ^ (!b & c)` (chi).
const CHI: i32 = 0xd2;

/// A register of independent 64-bit Keccak lanes.
///
/// # Safety
///
/// Every method executes AVX-512 F and VL instructions: call them only where the CPU has
/// both (in this file: from the `#[target_feature(enable = "avx512f,avx512vl")]` kernels,
/// reached through an [`Avx512`] token).
trait Lanes: Copy {
    /// Every element equal to `v`.
    unsafe fn splat(v: u64) -> Self;
    /// `self ^ o`.
    unsafe fn xor(self, o: Self) -> Self;
    /// `self ^ (!b & c)`.
    unsafe fn chi(self, b: Self, c: Self) -> Self;
    /// Each element rotated left by `R` bits.
    unsafe fn rol<const R: i32>(self) -> Self;
}

impl Lanes for __m128i {
    #[inline]
    #[target_feature(enable = "avx512f,avx512vl")]
    unsafe fn splat(v: u64) -> Self {
        _mm_cvtsi64_si128(v as i64)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512vl")]
    unsafe fn xor(self, o: Self) -> Self {
        _mm_xor_si128(self, o)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512vl")]
    unsafe fn chi(self, b: Self, c: Self) -> Self {
        _mm_ternarylogic_epi64(self, b, c, CHI)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512vl")]
    unsafe fn rol<const R: i32>(self) -> Self {
        _mm_rol_epi64::<R>(self)
    }
}

impl Lanes for __m512i {
    #[inline]
    #[target_feature(enable = "avx512f,avx512vl")]
    unsafe fn splat(v: u64) -> Self {
        _mm512_set1_epi64(v as i64)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512vl")]
    unsafe fn xor(self, o: Self) -> Self {
        _mm512_xor_si512(self, o)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512vl")]
    unsafe fn chi(self, b: Self, c: Self) -> Self {
        _mm512_ternarylogic_epi64(self, b, c, CHI)
    }
    #[inline]
    #[target_feature(enable = "avx512f,avx512vl")]
    unsafe fn rol<const R: i32>(self) -> Self {
        _mm512_rol_epi64::<R>(self)
    }
}

/// The column parities `C[x]` of theta.
///
/// # Safety
///
/// The CPU has AVX-512 F and VL ([`Lanes`]).
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
unsafe fn parities<V: Lanes>(a: &[V; 25]) -> [V; 5] {
    // SAFETY: the caller's contract.
    core::array::from_fn(|x| unsafe {
        a[x].xor(a[x + 5])
            .xor(a[x + 10].xor(a[x + 15]))
            .xor(a[x + 20])
    })
}

/// One round (theta, rho, pi, chi, iota) on `a`, whose column parities are `c`; leaves the
/// new state in `a` and its parities in `c`.
///
/// # Safety
///
/// The CPU has AVX-512 F and VL ([`Lanes`]).
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
unsafe fn round<V: Lanes>(a: &mut [V; 25], c: &mut [V; 5], rc: u64) {
    // SAFETY: the caller's contract, for every `Lanes` call below.
    unsafe {
        let d: [V; 5] = core::array::from_fn(|x| c[(x + 4) % 5].xor(c[(x + 1) % 5].rol::<1>()));
        // Lane `k` with theta applied, rotated by rho.
        macro_rules! b {
            ($k:literal) => {
                a[$k].xor(d[$k % 5]).rol::<{ RHO[$k] as i32 }>()
            };
        }
        // Pi: `b[y][x]` is lane `(x + 3y, x)` of `a` (index `(x + 3y) % 5 + 5x`), which pi
        // moves to `(x, y)`.
        let b: [[V; 5]; 5] = [
            [a[0].xor(d[0]), b!(6), b!(12), b!(18), b!(24)],
            [b!(3), b!(9), b!(10), b!(16), b!(22)],
            [b!(1), b!(7), b!(13), b!(19), b!(20)],
            [b!(4), b!(5), b!(11), b!(17), b!(23)],
            [b!(2), b!(8), b!(14), b!(15), b!(21)],
        ];
        for (y, row) in b.iter().enumerate() {
            for x in 0..5 {
                a[5 * y + x] = row[x].chi(row[(x + 1) % 5], row[(x + 2) % 5]);
            }
        }
        a[0] = a[0].xor(V::splat(rc));
        *c = parities(a);
    }
}

/// The 24 rounds.
///
/// # Safety
///
/// The CPU has AVX-512 F and VL ([`Lanes`]).
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
unsafe fn rounds<V: Lanes>(a: &mut [V; 25]) {
    // SAFETY: the caller's contract.
    unsafe {
        let mut c = parities(a);
        for &rc in &RC {
            round(a, &mut c, rc);
        }
    }
}

// ---------------------------------------------------------------------------------------
// One state
// ---------------------------------------------------------------------------------------

#[target_feature(enable = "avx512f,avx512vl")]
fn permute_kernel(lanes: &mut [u64; 25]) {
    let mut a: [__m128i; 25] = core::array::from_fn(|i| _mm_cvtsi64_si128(lanes[i] as i64));
    // SAFETY: this function is compiled with AVX-512 F and VL, which its callers proved.
    unsafe { rounds(&mut a) };
    for (lane, v) in lanes.iter_mut().zip(a) {
        *lane = _mm_cvtsi128_si64(v) as u64;
    }
}

#[target_feature(enable = "avx512f,avx512vl")]
fn absorb_kernel(lanes: &mut [u64; 25], blocks: &[u8], rate: usize) {
    let n = rate / 8;
    let mut a: [__m128i; 25] = core::array::from_fn(|i| _mm_cvtsi64_si128(lanes[i] as i64));
    for block in blocks.chunks_exact(rate) {
        for (i, v) in a.iter_mut().enumerate().take(n) {
            let mut w = [0u8; 8];
            w.copy_from_slice(&block[8 * i..8 * i + 8]);
            *v = _mm_xor_si128(*v, _mm_cvtsi64_si128(u64::from_le_bytes(w) as i64));
        }
        // SAFETY: this function is compiled with AVX-512 F and VL, which its callers proved.
        unsafe { rounds(&mut a) };
    }
    for (lane, v) in lanes.iter_mut().zip(a) {
        *lane = _mm_cvtsi128_si64(v) as u64;
    }
}

// ---------------------------------------------------------------------------------------
// Eight states at a time
// ---------------------------------------------------------------------------------------

/// Eight states side by side: element `s` of `v[i]` is lane `i` of state `s`.
type X8 = [__m512i; 25];

/// Converts eight states from `[u64; 25]` arrays to the side-by-side form.
#[target_feature(enable = "avx512f")]
#[inline]
fn load_x8(states: &[[u64; 25]; 8]) -> X8 {
    let mut a = [_mm512_setzero_si512(); 25];
    for g in 0..4 {
        let n = (25 - 8 * g).min(8);
        let mask = ((1u32 << n) - 1) as __mmask8;
        // SAFETY: lanes `8g .. 8g + n` of each state exist (`8g + n <= 25`); the masked
        // load reads only those.
        let rows: [__m512i; 8] = core::array::from_fn(|s| unsafe {
            _mm512_maskz_loadu_epi64(mask, states[s].as_ptr().add(8 * g).cast())
        });
        let mut cols = rows;
        transpose_q8(&mut cols);
        a[8 * g..8 * g + n].copy_from_slice(&cols[..n]);
    }
    a
}

/// Converts eight states back to `[u64; 25]` arrays.
#[target_feature(enable = "avx512f")]
#[inline]
fn store_x8(states: &mut [[u64; 25]; 8], a: &X8) {
    for g in 0..4 {
        let n = (25 - 8 * g).min(8);
        let mask = ((1u32 << n) - 1) as __mmask8;
        let cols: [__m512i; 8] = core::array::from_fn(|j| {
            if j < n {
                a[8 * g + j]
            } else {
                _mm512_setzero_si512()
            }
        });
        let mut rows = cols;
        transpose_q8(&mut rows);
        for (s, row) in rows.into_iter().enumerate() {
            // SAFETY: the masked store writes only lanes `8g .. 8g + n` of state `s`.
            unsafe {
                _mm512_mask_storeu_epi64(states[s].as_mut_ptr().add(8 * g).cast(), mask, row)
            };
        }
    }
}

#[target_feature(enable = "avx512f,avx512vl")]
fn permute_x8_kernel(states: &mut [[u64; 25]; 8]) {
    let mut a = load_x8(states);
    // SAFETY: this function is compiled with AVX-512 F and VL, which its callers proved.
    unsafe { rounds(&mut a) };
    store_x8(states, &a);
}

/// XORs into `a` the block at byte `at` of each of `msgs`, `rate` bytes: a whole block, or
/// with `pad = Some(domain)` the message's last bytes from `at` (fewer than `rate`) with the
/// suffix `domain` after them and `pad10*1`'s last bit at byte `rate - 1` (FIPS 202, B.2).
///
/// # Safety
///
/// AVX-512 F, VL and BW are enabled; without `pad`, every message has `rate` bytes at
/// `at`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512bw")]
unsafe fn xor_block_x8(a: &mut X8, msgs: &[&[u8]; 8], at: usize, rate: usize, pad: Option<u8>) {
    let n = rate / 8;
    for g in 0..n.div_ceil(8) {
        let have = (n - 8 * g).min(8);
        let off = at + 64 * g;
        let rows: [__m512i; 8] = core::array::from_fn(|s| {
            let m = msgs[s];
            // SAFETY: without `pad` the caller's contract: lanes `8g .. 8g + have` (below
            // `n`) of the block are inside the message, and the masked load reads only
            // those. With it, the byte mask keeps only the message's bytes from `off` on
            // (the pointer formed with `wrapping_add`; a masked-off byte is not accessed).
            unsafe {
                match pad {
                    None => _mm512_maskz_loadu_epi64(
                        ((1u32 << have) - 1) as __mmask8,
                        m.as_ptr().add(off).cast(),
                    ),
                    Some(domain) => {
                        let left = m.len().saturating_sub(off);
                        let keep = if left >= 64 { !0 } else { (1u64 << left) - 1 };
                        let v = _mm512_maskz_loadu_epi8(keep, m.as_ptr().wrapping_add(off).cast());
                        // The suffix right after the message, the last bit at the rate's end
                        // (the same byte when the message fills all but one).
                        let at_byte = |i: usize| {
                            if i >= off && i - off < 64 {
                                1u64 << (i - off)
                            } else {
                                0
                            }
                        };
                        let d =
                            _mm512_maskz_mov_epi8(at_byte(m.len()), _mm512_set1_epi8(domain as i8));
                        let e = _mm512_maskz_mov_epi8(
                            at_byte(at + rate - 1),
                            _mm512_set1_epi8(0x80u8 as i8),
                        );
                        _mm512_ternarylogic_epi64::<0x96>(v, d, e)
                    }
                }
            }
        });
        let mut cols = rows;
        transpose_q8(&mut cols);
        for (j, &c) in cols.iter().enumerate().take(have) {
            a[8 * g + j] = _mm512_xor_si512(a[8 * g + j], c);
        }
    }
}

/// The sponge of each of `msgs` from the zero state: its `whole` blocks, then its padded
/// last block, each absorbed and permuted; the eight states left in `states`.
///
/// # Safety
///
/// AVX-512 F, VL and BW are enabled; each message has `whole * rate` bytes or more.
#[target_feature(enable = "avx512f,avx512vl,avx512bw")]
unsafe fn sponge_x8_kernel(
    states: &mut [[u64; 25]; 8],
    msgs: &[&[u8]; 8],
    whole: usize,
    rate: usize,
    domain: u8,
) {
    let mut a = [_mm512_setzero_si512(); 25];
    // SAFETY: the features are enabled here; block `b < whole` is inside every message
    // (the caller's contract).
    unsafe {
        for b in 0..whole {
            xor_block_x8(&mut a, msgs, b * rate, rate, None);
            rounds(&mut a);
        }
        xor_block_x8(&mut a, msgs, whole * rate, rate, Some(domain));
        rounds(&mut a);
    }
    store_x8(states, &a);
}

/// Keccak-f\[1600\] on each of eight states.
pub(super) fn permute_x8(states: &mut [[u64; 25]; 8], _t: Avx512) {
    // SAFETY: the `Avx512` token proves AVX-512F and AVX-512VL are available.
    unsafe { permute_x8_kernel(states) }
}

/// The sponge (rate `rate` bytes, at most 168; suffix `domain`) of each of `msgs`, whose
/// lengths have one count of whole blocks, absorbed and padded, up to the permutation
/// after its last block: `states[s]` is message `s`'s state, ready to squeeze.
///
/// # Panics
///
/// If the messages' lengths differ in their count of whole blocks, or `rate` is not a
/// multiple of 8 between 8 and 168.
pub(super) fn sponge_x8(
    states: &mut [[u64; 25]; 8],
    msgs: &[&[u8]; 8],
    rate: usize,
    domain: u8,
    _t: Avx512,
) {
    assert!(rate.is_multiple_of(8) && (8..=168).contains(&rate));
    let whole = msgs[0].len() / rate;
    assert!(msgs.iter().all(|m| m.len() / rate == whole));
    // SAFETY: the `Avx512` token proves AVX-512 F, VL and BW are available; every message
    // has `whole` blocks (checked above).
    unsafe { sponge_x8_kernel(states, msgs, whole, rate, domain) }
}

/// Keccak-f\[1600\] on `lanes`.
pub(super) fn permute(lanes: &mut [u64; 25], _t: Avx512) {
    // SAFETY: the `Avx512` token proves AVX-512F and AVX-512VL are available.
    unsafe { permute_kernel(lanes) }
}

/// XORs each `rate`-byte block of `blocks` into the state and permutes.
pub(super) fn absorb(lanes: &mut [u64; 25], blocks: &[u8], rate: usize, _t: Avx512) {
    // SAFETY: the `Avx512` token proves AVX-512F and AVX-512VL are available.
    unsafe { absorb_kernel(lanes, blocks, rate) }
}
