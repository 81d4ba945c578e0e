//! AES-GCM's bulk pass in one loop with VAES and VPCLMULQDQ on 512-bit registers (AVX-512):
//! counter mode on thirty-two blocks (eight ZMM registers, four blocks each) while the
//! GHASH of the previous thirty-two ciphertext blocks (when encrypting) or of the same
//! thirty-two (when decrypting, the input) is computed between the AES rounds, with the
//! powers `H^32..H^1` of the `x86_vpclmul512` GHASH backend and one reduction per group
//! (Karatsuba, three VPCLMULQDQ per register; the products and the reduction are
//! `arith::clmul::x86_vpclmul512`'s).
//!
//! Counters are kept byte-reversed (the counter word little-endian in dword 0 of each
//! lane), advanced by one vector add per register and byte-swapped back with `vpshufb`.
//! The kernel knows nothing of GCM's framing: it takes counter, GHASH state (GCM byte
//! order) and whole groups; `aead::gcm` does the rest.

use core::arch::x86_64::*;

use crate::arith::clmul::x86_vpclmul512::{karatsuba, reduce, rev_mask};
use crate::block::aes::x86::{by_rounds, splat_keys, Keys, Lanes};
use crate::block::aes::Block;
use crate::cpu::x86::{Vaes512, Vpclmul512};
use crate::inout::InOut;

/// ZMM registers per group (the schedule in [`group`] is written for eight).
const W: usize = 8;
/// Blocks per group (and per GHASH reduction).
pub(crate) const GROUP_BLOCKS: usize = 4 * W;

/// The GHASH powers in the `x86_vpclmul512` layout: register `j` of a group is multiplied
/// lane by lane by `pow[j]` = `(tw(H^(32-4j)), .., tw(H^(29-4j)))`; `kar[j]` holds the XOR
/// of each lane's halves.
pub(crate) type Powers = [[u8; 64]; W];

/// Adds the Karatsuba terms of register `j` of the group at `p` (XORed with `extra`) times
/// `pow[j]` to `t`.
///
/// # Safety
///
/// AVX-512F/BW and VPCLMULQDQ are enabled; `p` is readable for 64 bytes at `64 * j`.
#[inline(always)]
unsafe fn product(
    pow: &Powers,
    kar: &Powers,
    p: *const u8,
    j: usize,
    t: &mut [__m512i; 3],
    extra: __m512i,
) {
    // SAFETY: per the contract; `pow[j]`, `kar[j]` are 64 bytes.
    unsafe {
        let x = _mm512_loadu_si512(p.add(64 * j).cast());
        let h = _mm512_loadu_si512(pow[j].as_ptr().cast());
        let hk = _mm512_loadu_si512(kar[j].as_ptr().cast());
        let x = _mm512_xor_si512(_mm512_shuffle_epi8(x, rev_mask()), extra);
        karatsuba(t, x, h, hk);
    }
}

/// The GHASH of one group at `p` on top of `acc`, alone (the last group when encrypting).
///
/// # Safety
///
/// As [`product`], for 64 * `W` bytes at `p`.
#[inline(always)]
unsafe fn hash_group(pow: &Powers, kar: &Powers, p: *const u8, acc: __m128i) -> __m128i {
    // SAFETY: per the contract.
    unsafe {
        let z = _mm512_setzero_si512();
        let mut t = [z; 3];
        for j in 1..W {
            product(pow, kar, p, j, &mut t, z);
        }
        product(pow, kar, p, 0, &mut t, _mm512_zextsi128_si512(acc));
        reduce(&t)
    }
}

/// The counter blocks of register `j` of group `g`: the byte-reversed state `cs` (lanes
/// `c .. c + 3`) advanced by `4 (W g + j)`, swapped back to GCM byte order.
///
/// # Safety
///
/// AVX-512F/BW are enabled.
#[inline(always)]
unsafe fn counters(cs: __m512i, g: usize, j: usize) -> __m512i {
    // SAFETY: per the contract.
    unsafe {
        let off = (GROUP_BLOCKS * g + 4 * j) as i32;
        let c = _mm512_add_epi32(cs, _mm512_set4_epi32(0, 0, 0, off));
        _mm512_shuffle_epi8(c, rev_mask())
    }
}

/// CTR on group `g` of `src` into `dst`, hashing the group at `hp` (when `HASH`) into
/// `acc` between the rounds.
///
/// # Safety
///
/// VAES, AVX-512F/BW and VPCLMULQDQ are enabled; group `g` lies inside `src` and `dst`,
/// the group at `hp` is readable (when `HASH`); the counter's last word does not wrap in
/// the group.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn group<const NR: usize, const HASH: bool>(
    k: &[__m512i; 15],
    cs: __m512i,
    low: u32,
    pow: &Powers,
    kar: &Powers,
    g: usize,
    src: *const u8,
    dst: *mut u8,
    hp: *const u8,
    acc: &mut __m128i,
) {
    // SAFETY: per the contract.
    unsafe {
        let mut b: [__m512i; W] = [k[0]; W];
        // While the counter's last byte does not carry inside the group (7 groups in 8),
        // each register's counters are the group's first four plus `4 j` in that byte,
        // added in GCM byte order: one swap per group instead of one per register.
        let first = low.wrapping_add((GROUP_BLOCKS * g) as u32);
        if first & 0xff <= (256 - GROUP_BLOCKS) as u32 {
            let base = counters(cs, g, 0);
            for (j, x) in b.iter_mut().enumerate() {
                let step = _mm512_set4_epi32(((4 * j) << 24) as i32, 0, 0, 0);
                *x = _mm512_add_epi32(base, step).xor(k[0]);
            }
        } else {
            for (j, x) in b.iter_mut().enumerate() {
                *x = counters(cs, g, j).xor(k[0]);
            }
        }
        let z = _mm512_setzero_si512();
        let mut t = [z; 3];
        for (r, kr) in k.iter().enumerate().take(NR).skip(1) {
            for x in b.iter_mut() {
                *x = x.enc(*kr);
            }
            // Registers 1..W first, register 0 (which takes the previous state) last.
            if HASH {
                if r < W {
                    product(pow, kar, hp, r, &mut t, z);
                } else if r == W {
                    product(pow, kar, hp, 0, &mut t, _mm512_zextsi128_si512(*acc));
                }
            }
        }
        // The reduction after the rounds (inside the loop, after round W + 1, measured 4 %
        // slower on Zen 4).
        if HASH {
            *acc = reduce(&t);
        }
        // `enclast(x, k) ^ m = enclast(x, k ^ m)`: the input is folded into the last round
        // key, off the AES chain.
        let off = g * GROUP_BLOCKS * 16;
        for (j, x) in b.iter().enumerate() {
            let o = off + 64 * j;
            let last = k[NR].xor(<__m512i as Lanes>::load(src.add(o)));
            x.enclast(last).store(dst.add(o));
        }
    }
}

#[target_feature(enable = "aes,avx,avx2,vaes,avx512f,avx512bw,avx512vl,pclmulqdq,vpclmulqdq,ssse3")]
fn kernel<const NR: usize, const DEC: bool>(
    keys: &Keys,
    pow: &Powers,
    kar: &Powers,
    c: &Block,
    y: &mut Block,
    mut io: InOut<'_>,
) {
    let groups = io.len() / (16 * GROUP_BLOCKS);
    if groups == 0 {
        return;
    }
    let src = io.src_ptr();
    let dst = io.dst_ptr();
    let gb = 16 * GROUP_BLOCKS;
    // SAFETY: the features are enabled here; every group index is below `groups`, inside
    // `io`; the caller guarantees the counter's last word does not wrap.
    unsafe {
        let k = splat_keys::<__m512i, NR, false>(keys);
        let rev = rev_mask();
        let c128 = _mm_loadu_si128(c.as_ptr().cast());
        let low = u32::from_be_bytes([c[12], c[13], c[14], c[15]]);
        let cs = _mm512_add_epi32(
            _mm512_shuffle_epi8(_mm512_broadcast_i32x4(c128), rev),
            _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0),
        );
        let r128 = _mm512_castsi512_si128(rev);
        let mut acc = _mm_shuffle_epi8(_mm_loadu_si128(y.as_ptr().cast()), r128);
        if DEC {
            // The input of each group is hashed while it is decrypted (read before the
            // group's stores, so in place works).
            for g in 0..groups {
                group::<NR, true>(
                    &k,
                    cs,
                    low,
                    pow,
                    kar,
                    g,
                    src,
                    dst,
                    src.add(g * gb),
                    &mut acc,
                );
            }
        } else {
            // Each group's ciphertext is hashed while the next group is encrypted.
            group::<NR, false>(&k, cs, low, pow, kar, 0, src, dst, src, &mut acc);
            for g in 1..groups {
                let hp = dst.add((g - 1) * gb) as *const u8;
                group::<NR, true>(&k, cs, low, pow, kar, g, src, dst, hp, &mut acc);
            }
            acc = hash_group(pow, kar, dst.add((groups - 1) * gb), acc);
        }
        _mm_storeu_si128(y.as_mut_ptr().cast(), _mm_shuffle_epi8(acc, r128));
    }
}

/// GCM's bulk pass over the whole groups of [`GROUP_BLOCKS`] blocks of `io` (the rest is
/// left to the caller): CTR from counter block `c` (whose last word must not wrap inside
/// `io`) and GHASH of the ciphertext into `y` (GCM byte order).
#[allow(clippy::too_many_arguments)]
pub(crate) fn ctr_ghash(
    keys: &Keys,
    _t: Vaes512,
    _c: Vpclmul512,
    pow: &Powers,
    kar: &Powers,
    decrypt: bool,
    c: &Block,
    y: &mut Block,
    io: InOut<'_>,
) {
    // SAFETY: the `Vaes512` token proves AES, AVX, AVX2, VAES and AVX-512F; the
    // `Vpclmul512` token SSSE3, PCLMULQDQ, VPCLMULQDQ and AVX-512F/BW/VL.
    unsafe {
        if decrypt {
            by_rounds!(keys, kernel, true, keys, pow, kar, c, y, io)
        } else {
            by_rounds!(keys, kernel, false, keys, pow, kar, c, y, io)
        }
    }
}
