//! Multiplication in the DSTU 7624 fields GF(2^128/256/512) with PCLMULQDQ: the `W x W`
//! carry-less 64-bit products summed per output word in XMM registers, then the same
//! reduction as the portable code ([`super::field::reduce`]). [`mul_sum`] sums several
//! products before the one reduction (the hash of several blocks with powers of `H`).

use core::arch::x86_64::*;

use crate::cpu::x86::Pclmul;

/// `a * b` in GF(2^(64 W)), `W` in {2, 4, 8}.
pub(crate) fn mul<const W: usize>(t: Pclmul, a: &[u64; W], b: &[u64; W]) -> [u64; W] {
    mul_sum::<W>(t, core::slice::from_ref(a), core::slice::from_ref(b))
}

/// `sum_i xs[i] * hs[i]` in GF(2^(64 W)) (`xs` and `hs` of the same length).
pub(crate) fn mul_sum<const W: usize>(t: Pclmul, xs: &[[u64; W]], hs: &[[u64; W]]) -> [u64; W] {
    let _ = t;
    assert_eq!(xs.len(), hs.len());
    // SAFETY: the token proves PCLMULQDQ (and SSSE3, with the SSE2 baseline).
    let acc = unsafe { product_sum::<W>(xs, hs) };
    super::field::reduce::<W>(&acc)
}

/// The hash of `group` (`n` blocks of `W` words, little-endian bytes) into `y`:
/// `y = (y + X_1) H^n + X_2 H^(n-1) + ... + X_n H`, with `powers[i] = H^(i+1)`, one
/// reduction for the whole group.
pub(crate) fn hash_group<const W: usize>(
    t: Pclmul,
    y: &mut [u64; 8],
    group: &[u8],
    powers: &[[u64; 8]],
) {
    let _ = t;
    let n = group.len() / (8 * W);
    assert!(n <= GROUP_MAX && n <= powers.len() && group.len() == n * 8 * W);
    // Block b (with y added to the first) times H^(n - b).
    let mut xs = [[0u64; W]; GROUP_MAX];
    let mut hs = [[0u64; W]; GROUP_MAX];
    for (b, blk) in group.chunks_exact(8 * W).enumerate() {
        for i in 0..W {
            let x = u64::from_le_bytes(blk[8 * i..8 * i + 8].try_into().expect("8 bytes"));
            xs[b][i] = if b == 0 { x ^ y[i] } else { x };
            hs[b][i] = powers[n - 1 - b][i];
        }
    }
    // SAFETY: the token proves PCLMULQDQ (and SSSE3, with the SSE2 baseline).
    let acc = unsafe { product_sum::<W>(&xs[..n], &hs[..n]) };
    zeroize::Zeroize::zeroize(xs.as_flattened_mut());
    let r = super::field::reduce::<W>(&acc);
    y[..W].copy_from_slice(&r);
}

/// The most blocks [`hash_group`] takes at once.
pub(crate) const GROUP_MAX: usize = 8;

/// The `2 W`-word carry-less sum of products.
#[target_feature(enable = "pclmulqdq,sse2,ssse3")]
fn product_sum<const W: usize>(xs: &[[u64; W]], hs: &[[u64; W]]) -> [u64; 16] {
    // `p[k]`: the sum of the 128-bit products `a_i b_j` with `i + j = k`.
    let mut p = [_mm_setzero_si128(); 16];
    for (a, b) in xs.iter().zip(hs) {
        let bs: [__m128i; W] = core::array::from_fn(|j| _mm_set_epi64x(0, b[j] as i64));
        for i in 0..W {
            let ai = _mm_set_epi64x(0, a[i] as i64);
            for j in 0..W {
                p[i + j] = _mm_xor_si128(p[i + j], _mm_clmulepi64_si128::<0x00>(ai, bs[j]));
            }
        }
    }
    let mut out = [0u64; 16];
    for k in 0..2 * W - 1 {
        let lo = _mm_cvtsi128_si64(p[k]) as u64;
        let hi = _mm_cvtsi128_si64(_mm_unpackhi_epi64(p[k], p[k])) as u64;
        out[k] ^= lo;
        out[k + 1] ^= hi;
    }
    out
}
