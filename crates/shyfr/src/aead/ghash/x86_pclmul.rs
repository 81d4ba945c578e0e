//! GHASH with PCLMULQDQ on 128-bit registers (Intel SDM Vol. 2B, PCLMULQDQ; SSSE3 PSHUFB
//! for the byte reversal).
//!
//! Eight blocks per reduction: blocks `X_1..X_8` (the first one XORed with the state) are
//! multiplied by `H^8..H^1` with three carry-less multiplications each (Karatsuba, with the
//! XOR of each power's halves precomputed), the 256-bit products summed, and the sum
//! reduced once (two multiplications by `K`; see the parent module). Fewer than eight
//! trailing blocks use the powers `H^n..H^1` the same way.

use core::arch::x86_64::*;

use super::soft;
use crate::cpu::x86::Pclmul;

/// Blocks per reduction.
const N: usize = 8;

/// `tw(H^1) .. tw(H^8)` (index `i` holds `H^(i+1)`) as 128-bit little-endian integers, and
/// the XOR of each one's two 64-bit halves (in the low half) for Karatsuba.
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

#[inline(always)]
pub(super) fn load(b: &[u8; 16]) -> __m128i {
    // SAFETY: `b` is 16 readable bytes; unaligned loads are allowed; SSE2 is baseline.
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

#[inline(always)]
pub(super) fn store(b: &mut [u8; 16], x: __m128i) {
    // SAFETY: `b` is 16 writable bytes; SSE2 is baseline.
    unsafe { _mm_storeu_si128(b.as_mut_ptr().cast(), x) }
}

/// `tw(H)` of the GCM-order key `h`, as a register.
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn twisted(h: &[u8; 16]) -> __m128i {
    let t = soft::twist(u128::from_be_bytes(*h));
    _mm_set_epi64x((t >> 64) as i64, t as i64)
}

/// Reverses the 16 bytes: GCM order to the reflected integer and back.
#[inline]
#[target_feature(enable = "ssse3")]
pub(super) fn bswap(x: __m128i) -> __m128i {
    _mm_shuffle_epi8(
        x,
        _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
    )
}

/// The unreduced product terms of `a * h` (Karatsuba): low, high, and middle (with the low
/// and high terms still in it). `hk` holds `h.lo ^ h.hi` in its low half.
#[inline]
#[target_feature(enable = "pclmulqdq")]
pub(super) fn mul3(a: __m128i, h: __m128i, hk: __m128i) -> (__m128i, __m128i, __m128i) {
    let lo = _mm_clmulepi64_si128::<0x00>(a, h);
    let hi = _mm_clmulepi64_si128::<0x11>(a, h);
    let ak = _mm_xor_si128(a, _mm_shuffle_epi32::<0x4e>(a));
    let mid = _mm_clmulepi64_si128::<0x00>(ak, hk);
    (lo, hi, mid)
}

/// Combines summed Karatsuba terms into the 256-bit product and reduces it (Montgomery, by
/// `y^128`, modulo `P*`): the result is the reflected field element.
#[inline]
#[target_feature(enable = "pclmulqdq")]
pub(super) fn finish(lo: __m128i, hi: __m128i, mid: __m128i) -> __m128i {
    let mid = _mm_xor_si128(mid, _mm_xor_si128(lo, hi));
    let lo = _mm_xor_si128(lo, _mm_slli_si128::<8>(mid));
    let hi = _mm_xor_si128(hi, _mm_srli_si128::<8>(mid));
    let k = _mm_set_epi64x(0, 0xc200_0000_0000_0000_u64 as i64);
    // Fold the low 64 bits, then the next 64 (each: swap halves, add the product by K).
    let u = _mm_xor_si128(
        _mm_shuffle_epi32::<0x4e>(lo),
        _mm_clmulepi64_si128::<0x00>(lo, k),
    );
    let v = _mm_xor_si128(
        _mm_shuffle_epi32::<0x4e>(u),
        _mm_clmulepi64_si128::<0x00>(u, k),
    );
    _mm_xor_si128(hi, v)
}

/// `a * b` for twisted / reflected operands `a`, `b` (one full multiplication).
#[inline]
#[target_feature(enable = "pclmulqdq")]
pub(super) fn mul(a: __m128i, b: __m128i) -> __m128i {
    let bk = _mm_xor_si128(b, _mm_shuffle_epi32::<0x4e>(b));
    let (lo, hi, mid) = mul3(a, b, bk);
    finish(lo, hi, mid)
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
pub(super) unsafe fn absorb(key: &Key, mut acc: __m128i, blocks: &[u8]) -> __m128i {
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
