//! The bitsliced lane type of the portable Kalyna backend on x86-64: two 64-lane words in
//! one SSE2 register ([`X2`]), so that every gate of the S-box and MDS circuits
//! (`soft_circuits.rs`) covers 128 lanes in one instruction.
//!
//! SSE2 is part of the x86-64 baseline (every x86-64 CPU has it, and the compiler enables it
//! for every x86-64 target), so this needs no run-time detection and no token: the module is
//! compiled only where `target_feature = "sse2"` holds at compile time, which is what makes
//! each intrinsic call below sound. The operations are bitwise AND / XOR / AND-NOT and
//! per-word shifts by a public count: no branch and no memory index depends on the data.

use core::arch::x86_64::*;
use core::ops::{BitAnd, BitXor, Not};

use super::soft::{Lane, Mask};

/// Two words of 64 lanes in one SSE2 register (word 0 in the low half).
#[derive(Clone, Copy)]
pub(crate) struct X2(__m128i);

/// Runs SSE2 intrinsics that touch no memory.
macro_rules! sse2 {
    ($e:expr) => {{
        // SAFETY: the intrinsics in `$e` need SSE2 only, which this module's `cfg`
        // (`target_feature = "sse2"`, the x86-64 baseline) proves at compile time; none of
        // them reads or writes memory.
        unsafe { $e }
    }};
}

impl Default for X2 {
    #[inline(always)]
    fn default() -> Self {
        X2(sse2!(_mm_setzero_si128()))
    }
}

impl zeroize::DefaultIsZeroes for X2 {}

impl BitAnd for X2 {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, o: Self) -> Self {
        X2(sse2!(_mm_and_si128(self.0, o.0)))
    }
}

impl BitXor for X2 {
    type Output = Self;
    #[inline(always)]
    fn bitxor(self, o: Self) -> Self {
        X2(sse2!(_mm_xor_si128(self.0, o.0)))
    }
}

impl Not for X2 {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        X2(sse2!(_mm_xor_si128(self.0, _mm_set1_epi64x(-1))))
    }
}

impl Lane for X2 {
    const WORDS: usize = 2;
    #[inline(always)]
    fn andn(self, o: Self) -> Self {
        X2(sse2!(_mm_andnot_si128(self.0, o.0)))
    }
    /// By a multiple of 16 one or two word shuffles (ShiftRows of 128- and 256-bit blocks
    /// rotates by 16, 32 and 48 only), otherwise two shifts and an OR. `n` is a public
    /// count (a block layout's offset), so the choice does not depend on the data.
    #[inline(always)]
    fn rotl(self, n: u32) -> Self {
        let n = n & 63;
        // Each 64-bit word is four 16-bit words; `_MM_SHUFFLE`-style immediates pick, for
        // every destination word, the source word it comes from.
        X2(sse2!(match n {
            0 => self.0,
            // Destination words 0..3 from source words 3, 0, 1, 2.
            16 => _mm_shufflehi_epi16::<0x93>(_mm_shufflelo_epi16::<0x93>(self.0)),
            // The two 32-bit halves of each word swapped.
            32 => _mm_shuffle_epi32::<0xb1>(self.0),
            // Destination words 0..3 from source words 1, 2, 3, 0.
            48 => _mm_shufflehi_epi16::<0x39>(_mm_shufflelo_epi16::<0x39>(self.0)),
            _ => {
                let l = _mm_cvtsi32_si128(n as i32);
                let r = _mm_cvtsi32_si128((64 - n) as i32);
                _mm_or_si128(_mm_sll_epi64(self.0, l), _mm_srl_epi64(self.0, r))
            }
        }))
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        X2(sse2!(_mm_sll_epi64(self.0, _mm_cvtsi32_si128(n as i32))))
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        X2(sse2!(_mm_srl_epi64(self.0, _mm_cvtsi32_si128(n as i32))))
    }
    #[inline(always)]
    fn from_words(w: impl Fn(usize) -> u64) -> Self {
        let (lo, hi) = (w(0), w(1));
        X2(sse2!(_mm_set_epi64x(hi as i64, lo as i64)))
    }
    #[inline(always)]
    fn splat(w: u64) -> Self {
        X2(sse2!(_mm_set1_epi64x(w as i64)))
    }
    #[inline(always)]
    fn mask(m: &Mask) -> Self {
        // SAFETY: `Mask` is 16 bytes aligned to 16 (`repr(C, align(16))`), so the aligned
        // load reads exactly `m`; SSE2 is proven by this module's `cfg`.
        X2(unsafe { _mm_load_si128((m as *const Mask).cast::<__m128i>()) })
    }
    #[inline(always)]
    fn word(&self, i: usize) -> u64 {
        sse2!({
            let v = if i == 0 {
                self.0
            } else {
                _mm_unpackhi_epi64(self.0, self.0)
            };
            _mm_cvtsi128_si64(v) as u64
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every operation of [`X2`] equals the same operation on two plain words.
    #[test]
    fn lane_ops_match_two_words() {
        let mut x = 0x0123_4567_89ab_cdefu64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let both = |v: X2| [v.word(0), v.word(1)];
        for _ in 0..50 {
            let (a, b, c, d) = (next(), next(), next(), next());
            let p = X2::from_words(|i| [a, b][i]);
            let q = X2::from_words(|i| [c, d][i]);
            assert_eq!(both(p), [a, b]);
            assert_eq!(both(p & q), [a & c, b & d]);
            assert_eq!(both(p ^ q), [a ^ c, b ^ d]);
            assert_eq!(both(!p), [!a, !b]);
            assert_eq!(both(p.andn(q)), [!a & c, !b & d]);
            assert_eq!(both(X2::splat(c)), [c, c]);
            assert_eq!(both(X2::mask(&Mask::new(d))), [d, d]);
            for n in [0, 1, 7, 8, 16, 24, 32, 40, 48, 56, 63, 64] {
                if n < 64 {
                    assert_eq!(both(p.shl(n)), [a << n, b << n]);
                    assert_eq!(both(p.shr(n)), [a >> n, b >> n]);
                }
                assert_eq!(
                    both(p.rotl(n)),
                    [a.rotate_left(n), b.rotate_left(n)],
                    "n = {n}"
                );
            }
        }
    }
}
