//! Multiplication in GF(2^128), GF(2^256) and GF(2^512) with the polynomials of DSTU
//! 7624:2014 (`x^128 + x^7 + x^2 + x + 1`, `x^256 + x^10 + x^5 + x^2 + 1`,
//! `x^512 + x^8 + x^5 + x^2 + 1`), on little-endian 64-bit words (byte `i` of a block is
//! bits `8 i .. 8 i + 8`, least significant first: no bit reflection, unlike NIST GHASH).
//!
//! Portable and constant time: the 64x64-bit carry-less products are integer
//! multiplications of the operands split into five interleaved bit classes, so that the
//! carries of at most 13 terms per bit land in the gaps between the class's bits and are
//! masked off; the product is reduced by shifts of the high half.
#![forbid(unsafe_code)]

/// Bits `k, k + 5, k + 10, ...` of a 64-bit word, for `k < 5`.
const CLASS: [u64; 5] = {
    let mut m = [0u64; 5];
    let mut i = 0;
    while i < 64 {
        m[i % 5] |= 1 << i;
        i += 1;
    }
    m
};

/// The same classes over 128 bits.
const CLASS128: [u128; 5] = {
    let mut m = [0u128; 5];
    let mut i = 0;
    while i < 128 {
        m[i % 5] |= 1 << i;
        i += 1;
    }
    m
};

/// The 128-bit carry-less product of `x` and `y`.
#[inline]
pub(crate) fn clmul64(x: u64, y: u64) -> u128 {
    let xs: [u64; 5] = core::array::from_fn(|i| x & CLASS[i]);
    let ys: [u64; 5] = core::array::from_fn(|i| y & CLASS[i]);
    let mut r = 0u128;
    for k in 0..5 {
        // Class k of the product: the products of classes i and j with i + j = k (mod 5).
        let mut z = 0u128;
        for i in 0..5 {
            z ^= (xs[i] as u128).wrapping_mul(ys[(k + 5 - i) % 5] as u128);
        }
        r |= z & CLASS128[k];
    }
    r
}

/// The exponents of the low terms of the field polynomial for `W` 64-bit words.
const fn low_terms(w: usize) -> [u32; 4] {
    match w {
        2 => [0, 1, 2, 7],
        4 => [0, 2, 5, 10],
        _ => [0, 2, 5, 8],
    }
}

/// `a * b` in GF(2^(64 W)), `W` in {2, 4, 8}.
pub(crate) fn mul<const W: usize>(a: &[u64; W], b: &[u64; W]) -> [u64; W] {
    let mut acc = [0u64; 16];
    for i in 0..W {
        for j in 0..W {
            let p = clmul64(a[i], b[j]);
            acc[i + j] ^= p as u64;
            acc[i + j + 1] ^= (p >> 64) as u64;
        }
    }
    reduce::<W>(&acc)
}

/// Reduces a product of `2 W` words modulo the field polynomial.
pub(crate) fn reduce<const W: usize>(acc: &[u64; 16]) -> [u64; W] {
    let terms = low_terms(W);
    let mut r: [u64; W] = core::array::from_fn(|i| acc[i]);
    // hi * x^n = hi * g(x): shifts of hi, spilling at most 10 bits into word W.
    let mut spill = 0u64;
    for &e in &terms {
        for i in 0..W {
            let hi = acc[W + i];
            if e == 0 {
                r[i] ^= hi;
            } else {
                r[i] ^= hi << e;
                if i + 1 < W {
                    r[i + 1] ^= hi >> (64 - e);
                } else {
                    spill ^= hi >> (64 - e);
                }
            }
        }
    }
    // The spilled bits (degree n .. n + 9) once more: below 2^20, no spill.
    for &e in &terms {
        r[0] ^= spill << e;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::{vec, vec::Vec};

    /// Bit-serial reference: `a * b` over byte strings, least significant bit first.
    fn slow(a: &[u8], b: &[u8]) -> Vec<u8> {
        let n = a.len() * 8;
        let terms = low_terms(a.len() / 8);
        let mut r = vec![0u8; a.len()];
        let mut x = a.to_vec();
        for bit in 0..n {
            if (b[bit / 8] >> (bit % 8)) & 1 == 1 {
                for (ri, xi) in r.iter_mut().zip(&x) {
                    *ri ^= xi;
                }
            }
            // x *= x (shift left one bit, reduce).
            let top = x[x.len() - 1] >> 7;
            let mut c = 0u8;
            for v in x.iter_mut() {
                let nc = *v >> 7;
                *v = (*v << 1) | c;
                c = nc;
            }
            if top == 1 {
                for &e in &terms {
                    x[(e / 8) as usize] ^= 1 << (e % 8);
                }
            }
        }
        r
    }

    fn words<const W: usize>(b: &[u8]) -> [u64; W] {
        core::array::from_fn(|i| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap()))
    }

    #[test]
    fn clmul_matches_schoolbook() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let x = s;
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let y = s;
            let mut want = 0u128;
            for i in 0..64 {
                if (y >> i) & 1 == 1 {
                    want ^= (x as u128) << i;
                }
            }
            assert_eq!(clmul64(x, y), want);
        }
        assert_eq!(clmul64(u64::MAX, u64::MAX), {
            let mut w = 0u128;
            for i in 0..64 {
                w ^= (u64::MAX as u128) << i;
            }
            w
        });
    }

    fn check<const W: usize>() {
        let mut s = 7u64;
        for _ in 0..200 {
            let mut a = vec![0u8; 8 * W];
            let mut b = vec![0u8; 8 * W];
            for v in a.iter_mut().chain(b.iter_mut()) {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *v = (s >> 56) as u8;
            }
            let got = mul::<W>(&words(&a), &words(&b));
            let want: [u64; W] = words(&slow(&a, &b));
            assert_eq!(got, want);
        }
        // All-ones operands exercise every spill.
        let ones = vec![0xffu8; 8 * W];
        assert_eq!(
            mul::<W>(&words(&ones), &words(&ones)),
            words::<W>(&slow(&ones, &ones))
        );
    }

    #[test]
    fn field_multiplication_matches_bit_serial() {
        check::<2>();
        check::<4>();
        check::<8>();
    }
}
