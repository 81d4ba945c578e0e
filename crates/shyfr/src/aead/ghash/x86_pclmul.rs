//! GHASH with PCLMULQDQ on 128-bit registers (Intel SDM Vol. 2B, PCLMULQDQ; SSSE3 PSHUFB
//! for the byte reversal).
//!
//! Eight blocks per reduction: blocks `X_1..X_8` (the first one XORed with the state) are
//! multiplied by `H^8..H^1` with three carry-less multiplications each (Karatsuba, with the
//! XOR of each power's halves precomputed), the 256-bit products summed, and the sum
//! reduced once (two multiplications by `K`; see `arith::clmul`). Fewer than eight
//! trailing blocks use the powers `H^n..H^1` the same way.

use core::arch::x86_64::*;

use crate::arith::clmul::x86_pclmul::{bswap, finish, load, mul, mul3, store, twisted};
use crate::cpu::x86::Pclmul;

/// Blocks per reduction.
const N: usize = 8;

/// `tw(H^1) .. tw(H^8)` (index `i` holds `H^(i+1)`) as 128-bit little-endian integers, and
/// the XOR of each one's two 64-bit halves (in the low half) for Karatsuba.
#[derive(Clone)]
pub(crate) struct Key {
    pub(crate) pow: [[u8; 16]; N],
    pub(crate) kar: [[u8; 16]; N],
}

impl Drop for Key {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.pow);
        zeroize::Zeroize::zeroize(&mut self.kar);
    }
}

impl Key {
    /// All zero, to be filled by [`powers`].
    pub(super) const ZERO: Key = Key {
        pow: [[0; 16]; N],
        kar: [[0; 16]; N],
    };

    pub(crate) fn new(h: &[u8; 16], _t: Pclmul) -> Key {
        let mut k = Key::ZERO;
        // SAFETY: the token proves PCLMULQDQ and SSSE3.
        unsafe { powers(h, &mut k) };
        k
    }
}

/// Registers per reduction in the wide kernels.
pub(crate) const WIDE_REGS: usize = 8;

/// The key of the wide kernels (`x86_vpclmul`, `x86_vpclmul512`): eight registers of `B`
/// bytes, each holding powers of `H` (`pow`) and the XOR of each power's halves (`kar`), in
/// the lane order the kernel states, and the 128-bit key (`H^1..H^8`) for tails.
#[derive(Clone)]
pub(crate) struct WideKey<const B: usize> {
    pub(super) pow: [[u8; B]; WIDE_REGS],
    pub(super) kar: [[u8; B]; WIDE_REGS],
    pub(super) xmm: Key,
}

impl<const B: usize> Drop for WideKey<B> {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.pow);
        zeroize::Zeroize::zeroize(&mut self.kar);
    }
}

impl<const B: usize> WideKey<B> {
    /// All zero, to be filled by the kernel's set-up.
    pub(super) const ZERO: Self = WideKey {
        pow: [[0; B]; WIDE_REGS],
        kar: [[0; B]; WIDE_REGS],
        xmm: Key::ZERO,
    };

    /// The powers of `H` per register and their Karatsuba halves (for the fused AES-GCM
    /// engines, which use this layout).
    pub(super) fn powers(&self) -> (&[[u8; B]; WIDE_REGS], &[[u8; B]; WIDE_REGS]) {
        (&self.pow, &self.kar)
    }

    /// The 128-bit key (`H^1..H^8`) this key keeps for its tail.
    pub(super) fn xmm(&self) -> &Key {
        &self.xmm
    }
}

/// `h`'s powers; the products of twisted values are twisted (parent module). Also called
/// from the `x86_vpclmul` key set-up, whose features include these.
#[target_feature(enable = "pclmulqdq,ssse3")]
pub(super) fn powers(h: &[u8; 16], k: &mut Key) {
    let h1 = twisted(h);
    let mut p = h1;
    for i in 0..N {
        if i > 0 {
            p = mul(p, h1);
        }
        store(&mut k.pow[i], p);
        store(
            &mut k.kar[i],
            _mm_xor_si128(p, _mm_shuffle_epi32::<0x4e>(p)),
        );
    }
}

/// Absorbs the whole blocks of `blocks` into `acc` (reflected), 8 per reduction, then the
/// rest. Inlined into the `x86_vpclmul` kernel for its tail, where it is VEX-encoded.
///
/// # Safety
///
/// PCLMULQDQ and SSSE3 are enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn absorb(key: &Key, mut acc: __m128i, blocks: &[u8]) -> __m128i {
    // SAFETY: PCLMULQDQ and SSSE3 are enabled per the contract; every load reads 16 bytes
    // inside `blocks` (chunk bounds) or a 16-byte key array.
    unsafe {
        let mut chunks = blocks.chunks_exact(16 * N);
        for c in &mut chunks {
            let (mut lo, mut hi, mut mid) = (
                _mm_setzero_si128(),
                _mm_setzero_si128(),
                _mm_setzero_si128(),
            );
            for j in 0..N {
                let x = bswap(_mm_loadu_si128(c.as_ptr().add(16 * j).cast()));
                let x = if j == 0 { _mm_xor_si128(x, acc) } else { x };
                let (l, h, m) = mul3(x, load(&key.pow[N - 1 - j]), load(&key.kar[N - 1 - j]));
                lo = _mm_xor_si128(lo, l);
                hi = _mm_xor_si128(hi, h);
                mid = _mm_xor_si128(mid, m);
            }
            acc = finish(lo, hi, mid);
        }
        let rest = chunks.remainder();
        let n = rest.len() / 16;
        if n > 0 {
            let (mut lo, mut hi, mut mid) = (
                _mm_setzero_si128(),
                _mm_setzero_si128(),
                _mm_setzero_si128(),
            );
            for j in 0..n {
                let x = bswap(_mm_loadu_si128(rest.as_ptr().add(16 * j).cast()));
                let x = if j == 0 { _mm_xor_si128(x, acc) } else { x };
                let (l, h, m) = mul3(x, load(&key.pow[n - 1 - j]), load(&key.kar[n - 1 - j]));
                lo = _mm_xor_si128(lo, l);
                hi = _mm_xor_si128(hi, h);
                mid = _mm_xor_si128(mid, m);
            }
            acc = finish(lo, hi, mid);
        }
        acc
    }
}

#[target_feature(enable = "pclmulqdq,ssse3")]
fn kernel(key: &Key, y: &mut [u8; 16], blocks: &[u8]) {
    let acc = bswap(load(y));
    // SAFETY: this function enables PCLMULQDQ and SSSE3.
    let acc = unsafe { absorb(key, acc, blocks) };
    store(y, bswap(acc));
}

/// `y = (y ^ X) * H` for each whole block `X` of `blocks`.
pub(super) fn update(key: &Key, _t: Pclmul, y: &mut [u8; 16], blocks: &[u8]) {
    // SAFETY: the token proves PCLMULQDQ and SSSE3.
    unsafe { kernel(key, y, blocks) }
}
