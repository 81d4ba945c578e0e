//! Portable, constant-time carry-less multiplication and the GCM-field reduction.
//!
//! The carry-less product of two 64-bit words is built from ordinary integer
//! multiplications "with holes" (the idea of T. Pornin's BearSSL `ghash_ctmul64`): each
//! operand is split into four words that keep every fourth bit, so the sums that integer
//! multiplication forms in each bit column are bounded and the carries they produce land in
//! bit positions that are masked away. A column of a product of two such words sums at most
//! 16 one-bit terms; 16 would carry into the *next kept column* (four bits up), so the four
//! lowest bits of the first operand are taken out (at most 15 terms remain) and multiplied
//! separately, where each column has at most one term and nothing carries.
//!
//! Integer multiplication runs in data-independent time on the CPUs this code targets
//! (x86-64 `mul`, aarch64 `mul`/`umulh`; on 32-bit targets the 128-bit product is a library
//! routine of 32-bit multiplications with no data-dependent branch). There are no tables
//! and no secret-dependent branches.
#![forbid(unsafe_code)]

/// `P*` without its `y^128` term: what `y^128` is congruent to.
pub(crate) const POLY: u128 = 0xc200_0000_0000_0000_0000_0000_0000_0001;

/// `r * y mod P*`: a shift by one bit and, when a bit falls out, `P*` added (by mask).
#[inline]
pub(crate) fn twist(r: u128) -> u128 {
    let carry = (r >> 127).wrapping_neg();
    (r << 1) ^ (POLY & carry)
}

/// The carry-less product of two 64-bit words.
#[inline(always)]
pub(crate) fn clmul64(a: u64, b: u64) -> u128 {
    const M: u64 = 0x1111_1111_1111_1111;
    const M128: u128 = 0x1111_1111_1111_1111_1111_1111_1111_1111;
    let m = |x: u64, y: u64| (x as u128) * (y as u128);

    // Bits 4..63 of `a`: at most 15 per class, so no column reaches 16.
    let ah = a & !0xf;
    let (a0, a1, a2, a3) = (ah & M, ah & (M << 1), ah & (M << 2), ah & (M << 3));
    let (b0, b1, b2, b3) = (b & M, b & (M << 1), b & (M << 2), b & (M << 3));
    // Class k of the product collects a_i * b_j with i + j = k (mod 4).
    let z0 = m(a0, b0) ^ m(a1, b3) ^ m(a2, b2) ^ m(a3, b1);
    let z1 = m(a0, b1) ^ m(a1, b0) ^ m(a2, b3) ^ m(a3, b2);
    let z2 = m(a0, b2) ^ m(a1, b1) ^ m(a2, b0) ^ m(a3, b3);
    let z3 = m(a0, b3) ^ m(a1, b2) ^ m(a2, b1) ^ m(a3, b0);
    let mut r = (z0 & M128) | (z1 & (M128 << 1)) | (z2 & (M128 << 2)) | (z3 & (M128 << 3));

    // Bits 0..3 of `a` against one class of `b` at a time: exactly one of the four bits can
    // meet a given column, so each product is carry-free and is XORed in whole.
    let al = a & 0xf;
    r ^= m(al, b0) ^ m(al, b1) ^ m(al, b2) ^ m(al, b3);
    r
}

/// The unreduced 256-bit Karatsuba product `a * b` as (low, high) halves; `b_mid` is
/// `b.lo ^ b.hi`, precomputed with the key.
#[inline(always)]
pub(crate) fn mul128(a: u128, b_lo: u64, b_hi: u64, b_mid: u64) -> (u128, u128) {
    let a0 = a as u64;
    let a1 = (a >> 64) as u64;
    let lo = clmul64(a0, b_lo);
    let hi = clmul64(a1, b_hi);
    let mid = clmul64(a0 ^ a1, b_mid) ^ lo ^ hi;
    (lo ^ (mid << 64), hi ^ (mid >> 64))
}

/// Carry-less product of a 64-bit word with `K = y^63 + y^62 + y^57`.
#[inline(always)]
fn mul_k(t: u64) -> u128 {
    let t = t as u128;
    (t << 63) ^ (t << 62) ^ (t << 57)
}

/// Montgomery reduction: the 256-bit `hi:lo` times `y^-128` modulo `P*`, in two folds of 64
/// bits (`P* = 1 + K y^64 + y^128`).
#[inline(always)]
pub(crate) fn reduce(lo: u128, hi: u128) -> u128 {
    let t0 = lo as u64;
    let p = mul_k(t0);
    let t1 = ((lo >> 64) as u64) ^ (p as u64);
    let hi = hi ^ (p >> 64) ^ (t0 as u128);
    let p = mul_k(t1);
    hi ^ p ^ ((t1 as u128) << 64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Carry-less product bit by bit, the definition.
    fn clmul_ref(a: u64, b: u64) -> u128 {
        let mut r = 0u128;
        for i in 0..64 {
            if (a >> i) & 1 == 1 {
                r ^= (b as u128) << i;
            }
        }
        r
    }

    #[test]
    fn clmul64_matches_definition() {
        let edge = [
            0u64,
            1,
            0xf,
            0x10,
            u64::MAX,
            u64::MAX << 4,
            0x1111_1111_1111_1111,
            0x8888_8888_8888_8888,
            0xffff_ffff_ffff_fff0,
            1 << 63,
        ];
        for &a in &edge {
            for &b in &edge {
                assert_eq!(clmul64(a, b), clmul_ref(a, b), "{a:x} * {b:x}");
            }
        }
        // A simple xorshift stream for many more pairs.
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for _ in 0..20_000 {
            let (a, b) = (next(), next());
            assert_eq!(clmul64(a, b), clmul_ref(a, b), "{a:x} * {b:x}");
        }
    }
}
