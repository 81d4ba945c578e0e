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

use super::soft::Lane;

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
    #[inline(always)]
    fn rotl(self, n: u32) -> Self {
        let n = n & 63;
        // A shift by 64 (n = 0) gives zero, so the OR is then `self` again.
        X2(sse2!({
            let l = _mm_cvtsi32_si128(n as i32);
            let r = _mm_cvtsi32_si128((64 - n) as i32);
            _mm_or_si128(_mm_sll_epi64(self.0, l), _mm_srl_epi64(self.0, r))
        }))
    }
    #[inline(always)]
    fn splat(w: u64) -> Self {
        X2(sse2!(_mm_set1_epi64x(w as i64)))
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
    #[inline(always)]
    fn set_word(&mut self, i: usize, w: u64) {
        let (lo, hi) = if i == 0 {
            (w, self.word(1))
        } else {
            (self.word(0), w)
        };
        self.0 = sse2!(_mm_set_epi64x(hi as i64, lo as i64));
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
            let mut p = X2::splat(0);
            p.set_word(0, a);
            p.set_word(1, b);
            let mut q = X2::default();
            q.set_word(1, d);
            q.set_word(0, c);
            assert_eq!(both(p), [a, b]);
            assert_eq!(both(p & q), [a & c, b & d]);
            assert_eq!(both(p ^ q), [a ^ c, b ^ d]);
            assert_eq!(both(!p), [!a, !b]);
            assert_eq!(both(p.andn(q)), [!a & c, !b & d]);
            assert_eq!(both(X2::splat(c)), [c, c]);
            for n in [0, 1, 7, 8, 32, 63, 64] {
                assert_eq!(
                    both(p.rotl(n)),
                    [a.rotate_left(n), b.rotate_left(n)],
                    "n = {n}"
                );
            }
        }
    }
}
