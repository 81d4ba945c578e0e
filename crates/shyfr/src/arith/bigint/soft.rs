//! Portable Montgomery multiplication on 64-bit limbs (coarsely integrated operand
//! scanning, CIOS: Koç, Acar and Kaliski, "Analyzing and comparing Montgomery
//! multiplication algorithms", IEEE Micro 16(3), 1996).
#![forbid(unsafe_code)]

use super::limbs::{adc, mac, sbb};
use super::MAX_LIMBS;

/// `r = a * b * 2^(-64 L) mod n` for `L = n.len()`, `a < 2^(64 L)`, `b < n`; the result is
/// fully reduced (`< n`). `n0` is `-n^{-1} mod 2^64`. Constant time.
pub(crate) fn mont_mul(r: &mut [u64], a: &[u64], b: &[u64], n: &[u64], n0: u64) {
    let l = n.len();
    debug_assert!(l <= MAX_LIMBS && a.len() == l && b.len() == l && r.len() == l);
    let mut t = [0u64; MAX_LIMBS + 2];
    let t = &mut t[..l + 2];
    for &bi in b {
        let mut c = 0;
        for j in 0..l {
            (t[j], c) = mac(t[j], a[j], bi, c);
        }
        let (s, c2) = adc(t[l], c, 0);
        t[l] = s;
        t[l + 1] = c2;
        let m = t[0].wrapping_mul(n0);
        let (_, mut c) = mac(t[0], m, n[0], 0);
        for j in 1..l {
            (t[j - 1], c) = mac(t[j], m, n[j], c);
        }
        let (s, c2) = adc(t[l], c, 0);
        t[l - 1] = s;
        t[l] = t[l + 1] + c2;
    }
    final_sub(r, &t[..l], t[l], n);
    zeroize::Zeroize::zeroize(t);
}

/// `r = t - n` when `hi * 2^(64 L) + t >= n`, else `r = t` (`t < 2n`). Constant time.
pub(crate) fn final_sub(r: &mut [u64], t: &[u64], hi: u64, n: &[u64]) {
    let mut borrow = 0;
    for j in 0..n.len() {
        (r[j], borrow) = sbb(t[j], n[j], borrow);
    }
    // keep t when the subtraction went below zero: borrow > hi
    let (_, under) = sbb(hi, borrow, 0);
    let keep = super::limbs::mask_from_bit(under);
    super::limbs::select_assign(r, t, keep);
}
