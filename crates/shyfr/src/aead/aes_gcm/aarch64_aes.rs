//! AES-GCM's bulk pass in one loop with the ARMv8 Cryptographic Extension (AESE/AESMC
//! and PMULL/PMULL2): counter mode on eight blocks in flight while the GHASH of the
//! previous eight ciphertext blocks (when encrypting) or of the same eight (when
//! decrypting, the input) is computed between the AES rounds — one Karatsuba product
//! (three PMULL) after each of the first eight rounds, with the powers `H^8..H^1` of the
//! `aarch64_pmull` GHASH backend, and one reduction per group (as in `arith::clmul`, by
//! `K = 0xc2 << 56`).
//!
//! The kernel knows nothing of GCM's framing: it takes counter, GHASH state (GCM byte
//! order) and whole groups; `aead::gcm` does the rest.

use core::arch::aarch64::*;

use crate::arith::clmul::aarch64_pmull::{finish, pmull_hi, pmull_lo, swap};
use crate::block::aes::aarch64_aes::Keys;
use crate::block::aes::Block;
use crate::cpu::aarch64::{AesCe, Pmull};
use crate::inout::InOut;

/// Blocks per group (and per GHASH reduction).
pub(crate) const GROUP_BLOCKS: usize = 8;

/// The GHASH powers in the `aarch64_pmull` layout: `pow[i]` = `tw(H^(i+1))`, `kar[i]`
/// the XOR of its halves (low 64 bits).
pub(crate) type Powers = [[u8; 16]; GROUP_BLOCKS];

/// Reverses the 16 bytes: GCM order to the reflected integer and back.
#[inline]
#[target_feature(enable = "neon,aes")]
fn bswap(x: uint8x16_t) -> uint64x2_t {
    let r = vreinterpretq_u64_u8(vrev64q_u8(x));
    vextq_u64::<1>(r, r)
}

/// Adds the Karatsuba terms of block `j` of the group at `p` (XORed with `extra`) times
/// `H^(8-j)` to `t`.
///
/// # Safety
///
/// PMULL is enabled; `p` is readable for 16 bytes at `16 * j`.
#[inline]
#[target_feature(enable = "neon,aes")]
unsafe fn product(
    pow: &Powers,
    kar: &Powers,
    p: *const u8,
    j: usize,
    t: &mut [uint64x2_t; 3],
    extra: uint64x2_t,
) {
    // SAFETY: per the contract; `pow[i]`, `kar[i]` are 16 bytes.
    unsafe {
        let i = GROUP_BLOCKS - 1 - j;
        let x = veorq_u64(bswap(vld1q_u8(p.add(16 * j))), extra);
        let h = vreinterpretq_u64_u8(vld1q_u8(pow[i].as_ptr()));
        let hk = vreinterpretq_u64_u8(vld1q_u8(kar[i].as_ptr()));
        t[0] = veorq_u64(t[0], pmull_lo(x, h));
        t[1] = veorq_u64(t[1], pmull_hi(x, h));
        t[2] = veorq_u64(t[2], pmull_lo(veorq_u64(x, swap(x)), hk));
    }
}

/// Combines the summed Karatsuba terms and reduces: the new (reflected) GHASH state.
#[inline]
#[target_feature(enable = "neon,aes")]
fn reduce(t: &[uint64x2_t; 3]) -> uint64x2_t {
    finish(t[0], t[1], t[2])
}

/// The GHASH of one group at `p` on top of `acc`, alone (the last group when encrypting).
///
/// # Safety
///
/// As [`product`], for 16 * [`GROUP_BLOCKS`] bytes at `p`.
#[inline]
#[target_feature(enable = "neon,aes")]
unsafe fn hash_group(pow: &Powers, kar: &Powers, p: *const u8, acc: uint64x2_t) -> uint64x2_t {
    // SAFETY: per the contract.
    unsafe {
        let z = vdupq_n_u64(0);
        let mut t = [z; 3];
        product(pow, kar, p, 0, &mut t, acc);
        for j in 1..GROUP_BLOCKS {
            product(pow, kar, p, j, &mut t, z);
        }
        reduce(&t)
    }
}

/// CTR on group `g` of `src` into `dst` (counter blocks from `base`, the first counter
/// block with its last word little-endian), hashing the group at `hp` into `acc` between
/// the rounds when `HASH`.
///
/// # Safety
///
/// AES and PMULL are enabled; group `g` lies inside `src` and `dst`, the group at `hp`
/// is readable (when `HASH`).
#[inline]
#[target_feature(enable = "neon,aes")]
#[allow(clippy::too_many_arguments)]
unsafe fn group<const NR: usize, const HASH: bool>(
    k: &[uint8x16_t; 15],
    base: uint32x4_t,
    pow: &Powers,
    kar: &Powers,
    g: usize,
    src: *const u8,
    dst: *mut u8,
    hp: *const u8,
    acc: &mut uint64x2_t,
) {
    // SAFETY: per the contract.
    unsafe {
        let first = (g * GROUP_BLOCKS) as u32;
        // The last word counts modulo 2^32 (lane-wise addition), as GCM's counter does.
        let mut b: [uint8x16_t; GROUP_BLOCKS] = core::array::from_fn(|j| {
            let inc = vsetq_lane_u32::<3>(first.wrapping_add(j as u32), vdupq_n_u32(0));
            vrev32q_u8(vreinterpretq_u8_u32(vaddq_u32(base, inc)))
        });
        let z = vdupq_n_u64(0);
        let mut t = [z; 3];
        for (r, kr) in k.iter().enumerate().take(NR - 1) {
            // AESE and AESMC adjacent, so cores that fuse the pair do.
            for x in b.iter_mut() {
                *x = vaesmcq_u8(vaeseq_u8(*x, *kr));
            }
            // Block 0 (which takes the previous state) first, then 1..8: rounds 0..7,
            // there are at least nine.
            if HASH && r < GROUP_BLOCKS {
                let extra = if r == 0 { *acc } else { z };
                product(pow, kar, hp, r, &mut t, extra);
            }
        }
        if HASH {
            *acc = reduce(&t);
        }
        let off = g * GROUP_BLOCKS * 16;
        for (j, x) in b.iter().enumerate() {
            let o = off + 16 * j;
            let y = veorq_u8(vaeseq_u8(*x, k[NR - 1]), k[NR]);
            vst1q_u8(dst.add(o), veorq_u8(y, vld1q_u8(src.add(o))));
        }
    }
}

#[target_feature(enable = "neon,aes")]
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
    let rk = keys.enc_keys();
    // SAFETY: the features are enabled here; each round key is 16 readable bytes; every
    // group index is below `groups`, inside `io`; `c` and `y` are 16 bytes.
    unsafe {
        let k: [uint8x16_t; 15] = core::array::from_fn(|i| vld1q_u8(rk[i].as_ptr()));
        let base = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(c.as_ptr())));
        let mut acc = bswap(vld1q_u8(y.as_ptr()));
        if DEC {
            // The input of each group is hashed while it is decrypted (read before the
            // group's stores, so in place works).
            for g in 0..groups {
                group::<NR, true>(&k, base, pow, kar, g, src, dst, src.add(g * gb), &mut acc);
            }
        } else {
            // Each group's ciphertext is hashed while the next group is encrypted.
            group::<NR, false>(&k, base, pow, kar, 0, src, dst, src, &mut acc);
            for g in 1..groups {
                let hp = dst.add((g - 1) * gb) as *const u8;
                group::<NR, true>(&k, base, pow, kar, g, src, dst, hp, &mut acc);
            }
            acc = hash_group(pow, kar, dst.add((groups - 1) * gb), acc);
        }
        let out = vreinterpretq_u8_u64(bswap(vreinterpretq_u8_u64(acc)));
        vst1q_u8(y.as_mut_ptr(), out);
    }
}

/// GCM's bulk pass over the whole groups of [`GROUP_BLOCKS`] blocks of `io` (the rest is
/// left to the caller): CTR from counter block `c` (the last word counting modulo 2^32)
/// and GHASH of the ciphertext into `y` (GCM byte order).
#[allow(clippy::too_many_arguments)]
pub(crate) fn ctr_ghash(
    keys: &Keys,
    _t: AesCe,
    _c: Pmull,
    pow: &Powers,
    kar: &Powers,
    decrypt: bool,
    c: &Block,
    y: &mut Block,
    io: InOut<'_>,
) {
    // SAFETY: the `AesCe` token proves NEON and AES; the `Pmull` token PMULL (Rust's
    // `aes` feature).
    unsafe {
        match (keys.rounds(), decrypt) {
            (10, false) => kernel::<10, false>(keys, pow, kar, c, y, io),
            (10, true) => kernel::<10, true>(keys, pow, kar, c, y, io),
            (12, false) => kernel::<12, false>(keys, pow, kar, c, y, io),
            (12, true) => kernel::<12, true>(keys, pow, kar, c, y, io),
            (_, false) => kernel::<14, false>(keys, pow, kar, c, y, io),
            (_, true) => kernel::<14, true>(keys, pow, kar, c, y, io),
        }
    }
}
