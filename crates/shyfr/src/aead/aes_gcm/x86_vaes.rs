//! AES-GCM's bulk pass in one loop with VAES and VPCLMULQDQ on 256-bit registers: counter
//! mode on sixteen blocks (eight YMM registers) while the GHASH of the previous sixteen
//! ciphertext blocks (when encrypting) or of the same sixteen (when decrypting, the input)
//! is computed between the AES rounds, with the powers `H^16..H^1` of the
//! `x86_vpclmul` GHASH backend and one reduction per group (Karatsuba, three VPCLMULQDQ
//! per register; the products and the reduction are `arith::clmul::x86_vpclmul`'s).
//!
//! The kernel knows nothing of GCM's framing: it takes counter, GHASH state (GCM byte
//! order) and whole groups; `aead::gcm` does the rest.

use core::arch::x86_64::*;

use crate::arith::clmul::x86_vpclmul::{karatsuba, reduce, rev_mask};
use crate::block::aes::x86::{by_rounds, splat_keys, Keys, Lanes};
use crate::block::aes::Block;
use crate::cpu::x86::{Vaes256, Vpclmul256};
use crate::inout::InOut;

/// YMM registers per group.
const W: usize = 8;
/// Blocks per group (and per GHASH reduction).
pub(crate) const GROUP_BLOCKS: usize = 2 * W;

/// The GHASH powers in the `x86_vpclmul` layout: register `j` of a group is multiplied
/// lane by lane by `pow[j]` = `(tw(H^(16-2j)), tw(H^(15-2j)))`; `kar[j]` holds the XOR
/// of each lane's halves.
pub(crate) type Powers = [[u8; 32]; W];

/// Adds the Karatsuba terms of register `j` of the group at `p` (XORed with `extra`)
/// times `pow[j]` to `t`.
///
/// # Safety
///
/// AVX2 and VPCLMULQDQ are enabled; `p` is readable for 32 bytes at `32 * j`.
#[inline(always)]
unsafe fn product(
    pow: &Powers,
    kar: &Powers,
    p: *const u8,
    j: usize,
    t: &mut [__m256i; 3],
    extra: __m256i,
) {
    // SAFETY: per the contract; `pow[j]`, `kar[j]` are 32 bytes.
    unsafe {
        let x = _mm256_loadu_si256(p.add(32 * j).cast());
        let h = _mm256_loadu_si256(pow[j].as_ptr().cast());
        let hk = _mm256_loadu_si256(kar[j].as_ptr().cast());
        let x = _mm256_xor_si256(_mm256_shuffle_epi8(x, rev_mask()), extra);
        karatsuba(t, x, h, hk);
    }
}

/// The GHASH of one group at `p` on top of `acc`, alone (the last group when encrypting).
///
/// # Safety
///
/// As [`product`], for 32 * `W` bytes at `p`.
#[inline(always)]
unsafe fn hash_group(pow: &Powers, kar: &Powers, p: *const u8, acc: __m128i) -> __m128i {
    // SAFETY: per the contract.
    unsafe {
        let z = _mm256_setzero_si256();
        let mut t = [z; 3];
        for j in 1..W {
            product(pow, kar, p, j, &mut t, z);
        }
        product(
            pow,
            kar,
            p,
            0,
            &mut t,
            _mm256_set_m128i(_mm_setzero_si128(), acc),
        );
        reduce(&t)
    }
}

/// CTR on group `g` of `src` into `dst`, hashing the group at `hp` (if any) into `acc`
/// between the rounds.
///
/// # Safety
///
/// VAES, AVX2 and VPCLMULQDQ are enabled; group `g` lies inside `src` and `dst`, the
/// group at `hp` is readable; the counter's last word does not wrap in the group.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn group<const NR: usize>(
    k: &[__m256i; 15],
    cs: &__m256i,
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
        let base = <__m256i as Lanes>::ctr_at(cs, (g * GROUP_BLOCKS) as u32);
        let mut b: [__m256i; W] = [k[0]; W];
        for (j, x) in b.iter_mut().enumerate() {
            *x = <__m256i as Lanes>::ctr_blocks(&base, (2 * j) as u32).xor(k[0]);
        }
        let z = _mm256_setzero_si256();
        let mut t = [z; 3];
        for (r, kr) in k.iter().enumerate().take(NR).skip(1) {
            for x in b.iter_mut() {
                *x = x.enc(*kr);
            }
            // Registers 1..W first, register 0 (which takes the previous state) last.
            if r < W {
                product(pow, kar, hp, r, &mut t, z);
            } else if r == W {
                let extra = _mm256_set_m128i(_mm_setzero_si128(), *acc);
                product(pow, kar, hp, 0, &mut t, extra);
            }
        }
        *acc = reduce(&t);
        let off = g * GROUP_BLOCKS * 16;
        for (j, x) in b.iter().enumerate() {
            let o = off + 32 * j;
            // The input folded into the last round key, off the AES chain.
            x.enclast(k[NR].xor(<__m256i as Lanes>::load(src.add(o))))
                .store(dst.add(o));
        }
    }
}

#[target_feature(enable = "aes,avx,avx2,vaes,pclmulqdq,vpclmulqdq")]
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
        let k = splat_keys::<__m256i, NR, false>(keys);
        let cs = <__m256i as Lanes>::ctr_init(c);
        let r128 = _mm256_castsi256_si128(rev_mask());
        let mut acc = _mm_shuffle_epi8(_mm_loadu_si128(y.as_ptr().cast()), r128);
        if DEC {
            // The input of each group is hashed while it is decrypted (read before the
            // group's stores, so in place works).
            for g in 0..groups {
                group::<NR>(&k, &cs, pow, kar, g, src, dst, src.add(g * gb), &mut acc);
            }
        } else {
            // Each group's ciphertext is hashed while the next group is encrypted.
            first_group::<NR>(&k, &cs, src, dst);
            for g in 1..groups {
                let hp = dst.add((g - 1) * gb) as *const u8;
                group::<NR>(&k, &cs, pow, kar, g, src, dst, hp, &mut acc);
            }
            acc = hash_group(pow, kar, dst.add((groups - 1) * gb), acc);
        }
        _mm_storeu_si128(y.as_mut_ptr().cast(), _mm_shuffle_epi8(acc, r128));
    }
}

/// CTR on group 0 with nothing to hash.
///
/// # Safety
///
/// As [`group`].
#[inline(always)]
unsafe fn first_group<const NR: usize>(
    k: &[__m256i; 15],
    cs: &__m256i,
    src: *const u8,
    dst: *mut u8,
) {
    // SAFETY: per the contract.
    unsafe {
        let mut b: [__m256i; W] = [k[0]; W];
        for (j, x) in b.iter_mut().enumerate() {
            *x = <__m256i as Lanes>::ctr_blocks(cs, (2 * j) as u32).xor(k[0]);
        }
        for kr in &k[1..NR] {
            for x in b.iter_mut() {
                *x = x.enc(*kr);
            }
        }
        for (j, x) in b.iter().enumerate() {
            let o = 32 * j;
            // The input folded into the last round key, off the AES chain.
            x.enclast(k[NR].xor(<__m256i as Lanes>::load(src.add(o))))
                .store(dst.add(o));
        }
    }
}

/// GCM's bulk pass over the whole groups of [`GROUP_BLOCKS`] blocks of `io` (the rest is
/// left to the caller): CTR from counter block `c` (whose last word must not wrap inside
/// `io`) and GHASH of the ciphertext into `y` (GCM byte order).
#[allow(clippy::too_many_arguments)]
pub(crate) fn ctr_ghash(
    keys: &Keys,
    _t: Vaes256,
    _c: Vpclmul256,
    pow: &Powers,
    kar: &Powers,
    decrypt: bool,
    c: &Block,
    y: &mut Block,
    io: InOut<'_>,
) {
    // SAFETY: the `Vaes256` token proves AES, AVX, AVX2 and VAES; the `Vpclmul256` token
    // PCLMULQDQ and VPCLMULQDQ.
    unsafe {
        if decrypt {
            by_rounds!(keys, kernel, true, keys, pow, kar, c, y, io)
        } else {
            by_rounds!(keys, kernel, false, keys, pow, kar, c, y, io)
        }
    }
}
