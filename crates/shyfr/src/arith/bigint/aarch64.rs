//! Montgomery multiplication for aarch64: each limb step forms two 64x64-bit products,
//! `a_j b_i` and `n_j m` (`mul`/`umulh` pairs once compiled), whose carries run in two
//! independent chains, so the product with the modulus is folded into the same pass as
//! the product with the operand (finely integrated operand scanning; Koç, Acar and
//! Kaliski 1996) instead of a second pass over the limbs as in `soft.rs`.
//!
//! Constant time: the same instructions for every value (aarch64 `mul`, `umulh`, `adds`
//! and `adc` have data-independent timing).
#![forbid(unsafe_code)]

use super::MAX_LIMBS;

/// `r = a b 2^(-64 L) mod n` (`a < 2^(64 L)`, `b < n`), fully reduced.
pub(crate) fn mont_mul(r: &mut [u64], a: &[u64], b: &[u64], n: &[u64], n0: u64) {
    let l = n.len();
    assert!(l <= MAX_LIMBS && a.len() == l && b.len() == l && r.len() == l);
    let mut buf = [0u64; MAX_LIMBS + 1];
    let t = &mut buf[..l + 1];
    for &bi in b {
        let s = t[0] as u128 + (a[0] as u128) * (bi as u128);
        let m = (s as u64).wrapping_mul(n0);
        let u = (s as u64) as u128 + (n[0] as u128) * (m as u128);
        let mut c1 = (s >> 64) as u64;
        let mut c2 = (u >> 64) as u64;
        for j in 1..l {
            let s = t[j] as u128 + (a[j] as u128) * (bi as u128) + c1 as u128;
            c1 = (s >> 64) as u64;
            let u = (s as u64) as u128 + (n[j] as u128) * (m as u128) + c2 as u128;
            c2 = (u >> 64) as u64;
            t[j - 1] = u as u64;
        }
        let s = t[l] as u128 + c1 as u128 + c2 as u128;
        t[l - 1] = s as u64;
        t[l] = (s >> 64) as u64;
    }
    super::soft::final_sub(r, &t[..l], t[l], n);
    zeroize::Zeroize::zeroize(t);
}
