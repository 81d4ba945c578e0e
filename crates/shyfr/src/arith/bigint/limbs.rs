//! Constant-time primitives on little-endian slices of 64-bit limbs.
//!
//! Every function here runs in time that depends only on the slice lengths: carries are
//! propagated through every limb, choices are made with masks (all ones or zero) that pass
//! through [`crate::ct::barrier_u64`] so the optimiser cannot turn them back into branches.
#![forbid(unsafe_code)]

use crate::ct::barrier_u64;

/// Bits in a [`Limb`].
pub(crate) const LIMB_BITS: usize = 64;

/// `a + b + carry`, returning (sum, carry out); `carry` is 0 or 1.
#[inline(always)]
pub(crate) fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + b as u128 + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// `a - b - borrow`, returning (difference, borrow out); `borrow` is 0 or 1.
#[inline(always)]
pub(crate) fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    let t = (a as u128).wrapping_sub(b as u128 + borrow as u128);
    (t as u64, ((t >> 64) as u64) & 1)
}

/// `acc + a * b + carry`, returning (low, high). Never overflows 128 bits.
#[inline(always)]
pub(crate) fn mac(acc: u64, a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = acc as u128 + (a as u128) * (b as u128) + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// All ones when `bit` (0 or 1) is 1, else zero.
#[inline(always)]
pub(crate) fn mask_from_bit(bit: u64) -> u64 {
    barrier_u64(bit & 1).wrapping_neg()
}

/// All ones when `x == 0`.
#[inline(always)]
pub(crate) fn mask_is_zero(x: u64) -> u64 {
    !crate::ct::mask_nonzero_u64(x)
}

/// All ones when `a == b` (single limbs).
#[inline(always)]
pub(crate) fn mask_eq(a: u64, b: u64) -> u64 {
    mask_is_zero(a ^ b)
}

/// All ones when `a < b` (single limbs).
#[inline(always)]
pub(crate) fn mask_lt(a: u64, b: u64) -> u64 {
    mask_from_bit(sbb(a, b, 0).1)
}

/// `a += b` over `a.len()` limbs (`b` no longer than `a`, missing limbs read as zero);
/// returns the carry out of the top limb.
pub(crate) fn add_assign(a: &mut [u64], b: &[u64]) -> u64 {
    debug_assert!(b.len() <= a.len());
    let mut c = 0;
    for (i, x) in a.iter_mut().enumerate() {
        let y = if i < b.len() { b[i] } else { 0 };
        (*x, c) = adc(*x, y, c);
    }
    c
}

/// `a -= b` over `a.len()` limbs (`b` no longer than `a`); returns the borrow (0 or 1).
pub(crate) fn sub_assign(a: &mut [u64], b: &[u64]) -> u64 {
    debug_assert!(b.len() <= a.len());
    let mut c = 0;
    for (i, x) in a.iter_mut().enumerate() {
        let y = if i < b.len() { b[i] } else { 0 };
        (*x, c) = sbb(*x, y, c);
    }
    c
}

/// `a += b & mask` (equal lengths); returns the carry (0 when the mask is zero).
pub(crate) fn cond_add(a: &mut [u64], b: &[u64], mask: u64) -> u64 {
    debug_assert_eq!(a.len(), b.len());
    let m = barrier_u64(mask);
    let mut c = 0;
    for (x, &y) in a.iter_mut().zip(b) {
        (*x, c) = adc(*x, y & m, c);
    }
    c
}

/// `a -= b & mask` (equal lengths); returns the borrow (0 when the mask is zero).
pub(crate) fn cond_sub(a: &mut [u64], b: &[u64], mask: u64) -> u64 {
    debug_assert_eq!(a.len(), b.len());
    let m = barrier_u64(mask);
    let mut c = 0;
    for (x, &y) in a.iter_mut().zip(b) {
        (*x, c) = sbb(*x, y & m, c);
    }
    c
}

/// All ones when `a < b` as numbers (equal lengths).
pub(crate) fn lt(a: &[u64], b: &[u64]) -> u64 {
    debug_assert_eq!(a.len(), b.len());
    let mut c = 0;
    for (&x, &y) in a.iter().zip(b) {
        c = sbb(x, y, c).1;
    }
    mask_from_bit(c)
}

/// All ones when `a == b` (equal lengths).
pub(crate) fn eq(a: &[u64], b: &[u64]) -> u64 {
    debug_assert_eq!(a.len(), b.len());
    let mut acc = 0;
    for (&x, &y) in a.iter().zip(b) {
        acc |= x ^ y;
    }
    mask_is_zero(acc)
}

/// All ones when every limb of `a` is zero.
pub(crate) fn is_zero(a: &[u64]) -> u64 {
    let mut acc = 0;
    for &x in a {
        acc |= x;
    }
    mask_is_zero(acc)
}

/// `dst = src` where `mask` is all ones; `dst` unchanged where it is zero.
pub(crate) fn select_assign(dst: &mut [u64], src: &[u64], mask: u64) {
    debug_assert_eq!(dst.len(), src.len());
    let m = barrier_u64(mask);
    for (d, &s) in dst.iter_mut().zip(src) {
        *d ^= (*d ^ s) & m;
    }
}

/// Swaps `a` and `b` where `mask` is all ones.
pub(crate) fn cswap(a: &mut [u64], b: &mut [u64], mask: u64) {
    debug_assert_eq!(a.len(), b.len());
    let m = barrier_u64(mask);
    for (x, y) in a.iter_mut().zip(b.iter_mut()) {
        let t = (*x ^ *y) & m;
        *x ^= t;
        *y ^= t;
    }
}

/// `a >>= 1`, shifting `top` (0 or 1) into the top bit.
pub(crate) fn shr1(a: &mut [u64], top: u64) {
    let mut carry = top & 1;
    for x in a.iter_mut().rev() {
        let out = *x & 1;
        *x = (*x >> 1) | (carry << 63);
        carry = out;
    }
}

/// `a <<= 1`; returns the bit shifted out of the top.
pub(crate) fn shl1(a: &mut [u64]) -> u64 {
    let mut carry = 0;
    for x in a.iter_mut() {
        let out = *x >> 63;
        *x = (*x << 1) | carry;
        carry = out;
    }
    carry
}

/// `r = a * b` (schoolbook); `r.len() == a.len() + b.len()`.
pub(crate) fn mul_wide(r: &mut [u64], a: &[u64], b: &[u64]) {
    debug_assert_eq!(r.len(), a.len() + b.len());
    r.fill(0);
    for (i, &bi) in b.iter().enumerate() {
        let mut c = 0;
        for (j, &aj) in a.iter().enumerate() {
            (r[i + j], c) = mac(r[i + j], aj, bi, c);
        }
        r[i + a.len()] = c;
    }
}

/// `-n^{-1} mod 2^64` for odd `n0` (Newton's iteration: each step doubles the correct
/// low bits, 1 -> 2 -> ... -> 64; an odd number is its own inverse modulo 8).
pub(crate) fn neg_inv_u64(n0: u64) -> u64 {
    let mut x = n0; // correct to 3 bits
    for _ in 0..5 {
        x = x.wrapping_mul(2u64.wrapping_sub(n0.wrapping_mul(x)));
    }
    x.wrapping_neg()
}

/// `a mod m` for a public `m` below `2^32`, in constant time (no division instruction:
/// Barrett steps on 32-bit halves with `mu = floor((2^64 - 1) / m)`).
pub(crate) fn rem_u32(a: &[u64], m: u32) -> u32 {
    let m = m as u64;
    let mu = u64::MAX / m;
    let mut r: u64 = 0;
    for &limb in a.iter().rev() {
        for half in [limb >> 32, limb & 0xffff_ffff] {
            // v < m * 2^32 <= 2^64
            let v = (r << 32) | half;
            let q = ((v as u128 * mu as u128) >> 64) as u64;
            let mut t = v.wrapping_sub(q.wrapping_mul(m));
            // q is at most 2 below the true quotient.
            for _ in 0..2 {
                let ge = !mask_lt(t, m);
                t = t.wrapping_sub(m & ge);
            }
            r = t;
        }
    }
    r as u32
}

/// `a / d` for a public odd `d`, when `d` is known to divide `a` exactly (Jebelean's exact
/// division: multiply by `d^{-1} mod 2^64`, limb by limb from the bottom). Constant time.
pub(crate) fn div_exact_small(a: &mut [u64], d: u64) {
    debug_assert!(d & 1 == 1);
    let inv = neg_inv_u64(d).wrapping_neg();
    let mut borrow = 0u64;
    for x in a.iter_mut() {
        let (s, b1) = sbb(*x, borrow, 0);
        let q = s.wrapping_mul(inv);
        *x = q;
        borrow = (((q as u128) * (d as u128)) >> 64) as u64 + b1;
    }
}

/// `x^{-1} mod m` for `x < m` and odd `m < 2^63`, or 0 when `gcd(x, m) != 1`; constant time in `x`
/// (Möller's binary algorithm, a fixed `2 * 64` steps).
pub(crate) fn inv_mod_u64(x: u64, m: u64) -> u64 {
    debug_assert!(m & 1 == 1 && m < 1 << 63);
    debug_assert!(x < m);
    let (mut a, mut b, mut u, mut v) = (x, m, 1u64, 0u64);
    for _ in 0..128 {
        let odd = mask_from_bit(a);
        let swap = odd & mask_lt(a, b);
        let t = (a ^ b) & swap;
        a ^= t;
        b ^= t;
        let t = (u ^ v) & swap;
        u ^= t;
        v ^= t;
        a = a.wrapping_sub(b & odd);
        let (d, br) = sbb(u, v & odd, 0);
        u = d.wrapping_add(m & mask_from_bit(br));
        u = (u + (m & mask_from_bit(u))) >> 1;
        a >>= 1;
    }
    v & mask_eq(b, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_helpers() {
        for n0 in [1u64, 3, 5, 0xffff_ffff_ffff_ffff, 0x1234_5678_9abc_def1] {
            assert_eq!(n0.wrapping_mul(neg_inv_u64(n0)), u64::MAX);
        }
        let a = [0x1234_5678_9abc_def0u64, 0xfeed_face_cafe_beef, 7];
        for m in [3u32, 17, 65537, 0xffff_fffb, 2] {
            let want = {
                let mut r: u128 = 0;
                for &l in a.iter().rev() {
                    r = ((r << 64) | l as u128) % m as u128;
                }
                r as u32
            };
            assert_eq!(rem_u32(&a, m), want, "m = {m}");
        }
        for m in [3u64, 65537, 1_000_003, (1 << 61) - 1] {
            for x in [1u64, 2, 12345, m - 1] {
                let x = x % m;
                if x == 0 {
                    continue;
                }
                let i = inv_mod_u64(x, m);
                assert_eq!((x as u128 * i as u128) % m as u128, 1, "{x} mod {m}");
            }
        }
        assert_eq!(inv_mod_u64(6, 9), 0);
        let mut v = [0u64; 3];
        v[0] = 65537 * 1234567;
        div_exact_small(&mut v, 65537);
        assert_eq!(v, [1234567, 0, 0]);
        // (2^128 + 1) * 3 / 3
        let mut w = [3u64, 0, 3];
        div_exact_small(&mut w, 3);
        assert_eq!(w, [1, 0, 1]);
    }
}
