//! AES-GCM's bulk pass in one loop with AES-NI and PCLMULQDQ on 128-bit registers (for
//! CPUs without VAES / VPCLMULQDQ): counter mode on eight blocks in flight while the GHASH
//! of the previous eight ciphertext blocks (when encrypting) or of the same eight (when
//! decrypting, the input) is computed between the AES rounds — one Karatsuba product
//! (three PCLMULQDQ) after each of the first eight rounds, with the powers `H^8..H^1` of
//! the `x86_pclmul` GHASH backend, and one reduction per group (as in `aead/ghash`, by
//! `K = 0xc2 << 56`). The AES rounds are the `asm!` statements of `x86_aesni` (legacy SSE
//! encoding, like the PCLMULQDQ and PSHUFB intrinsics here: no AVX is assumed).
//!
//! The kernel knows nothing of GCM's framing: it takes counter, GHASH state (GCM byte
//! order) and whole groups; `aead::gcm` does the rest.

use core::arch::x86_64::*;

use crate::arith::clmul::x86_pclmul::{finish, mul3};
use crate::block::aes::x86::{by_rounds, splat_keys, Keys, Lanes};
use crate::block::aes::Block;
use crate::cpu::x86::{AesNi, Pclmul};
use crate::inout::InOut;

/// Blocks per group (and per GHASH reduction).
pub(crate) const GROUP_BLOCKS: usize = 8;

/// The GHASH powers in the `x86_pclmul` layout: `pow[i]` = `tw(H^(i+1))`, `kar[i]` the
/// XOR of its halves (low 64 bits).
pub(crate) type Powers = [[u8; 16]; GROUP_BLOCKS];

/// PSHUFB mask reversing the 16 bytes (GCM order to the reflected integer and back).
#[inline(always)]
unsafe fn rev_mask() -> __m128i {
    // SAFETY: SSE2 only.
    unsafe { _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) }
}

/// PSHUFB mask reversing the last four bytes only (the counter word of a counter block).
#[inline(always)]
unsafe fn ctr_mask() -> __m128i {
    // SAFETY: SSE2 only.
    unsafe { _mm_set_epi8(12, 13, 14, 15, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0) }
}

/// Adds the Karatsuba terms of block `j` of the group at `p` (XORed with `extra`) times
/// `H^(8-j)` to `t`.
///
/// # Safety
///
/// PCLMULQDQ and SSSE3 are enabled; `p` is readable for 16 bytes at `16 * j`.
#[inline(always)]
unsafe fn product(
    pow: &Powers,
    kar: &Powers,
    p: *const u8,
    j: usize,
    t: &mut [__m128i; 3],
    extra: __m128i,
) {
    // SAFETY: per the contract; `pow[i]`, `kar[i]` are 16 bytes.
    unsafe {
        let i = GROUP_BLOCKS - 1 - j;
        let x = _mm_loadu_si128(p.add(16 * j).cast());
        let h = _mm_loadu_si128(pow[i].as_ptr().cast());
        let hk = _mm_loadu_si128(kar[i].as_ptr().cast());
        let x = _mm_xor_si128(_mm_shuffle_epi8(x, rev_mask()), extra);
        let (lo, hi, mid) = mul3(x, h, hk);
        t[0] = _mm_xor_si128(t[0], lo);
        t[1] = _mm_xor_si128(t[1], hi);
        t[2] = _mm_xor_si128(t[2], mid);
    }
}

/// Combines the summed Karatsuba terms and reduces: the new (reflected) GHASH state.
///
/// # Safety
///
/// PCLMULQDQ is enabled.
#[inline(always)]
unsafe fn reduce(t: &[__m128i; 3]) -> __m128i {
    // SAFETY: features per the contract.
    unsafe { finish(t[0], t[1], t[2]) }
}

/// The GHASH of one group at `p` on top of `acc`, alone (the last group when encrypting).
///
/// # Safety
///
/// As [`product`], for 16 * [`GROUP_BLOCKS`] bytes at `p`.
#[inline(always)]
unsafe fn hash_group(pow: &Powers, kar: &Powers, p: *const u8, acc: __m128i) -> __m128i {
    // SAFETY: per the contract.
    unsafe {
        let z = _mm_setzero_si128();
        let mut t = [z; 3];
        product(pow, kar, p, 0, &mut t, acc);
        for j in 1..GROUP_BLOCKS {
            product(pow, kar, p, j, &mut t, z);
        }
        reduce(&t)
    }
}

/// One AES round on the eight blocks.
///
/// # Safety
///
/// AES-NI is enabled.
#[inline(always)]
unsafe fn round(b: &mut [__m128i; GROUP_BLOCKS], k: __m128i) {
    for x in b.iter_mut() {
        // SAFETY: per the contract.
        *x = unsafe { x.enc(k) };
    }
}

/// CTR on group `g` of `src` into `dst` (counter blocks from `cs`, the first counter
/// block with its last word little-endian), hashing the group at `hp` into `acc` between the
/// rounds when `HASH`.
///
/// # Safety
///
/// AES-NI, PCLMULQDQ and SSSE3 are enabled; group `g` lies inside `src` and `dst`, the
/// group at `hp` is readable (when `HASH`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn group<const NR: usize, const HASH: bool>(
    k: &[__m128i; 15],
    cs: &__m128i,
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
        // Counter blocks: the last word added to in little-endian order (modulo 2^32,
        // as GCM's counter counts), then swapped back.
        let base = _mm_add_epi32(*cs, _mm_set_epi32((g * GROUP_BLOCKS) as i32, 0, 0, 0));
        let swap = ctr_mask();
        let mut b: [__m128i; GROUP_BLOCKS] = [k[0]; GROUP_BLOCKS];
        for (j, x) in b.iter_mut().enumerate() {
            let c = _mm_add_epi32(base, _mm_set_epi32(j as i32, 0, 0, 0));
            *x = _mm_shuffle_epi8(c, swap).xor(k[0]);
        }
        let z = _mm_setzero_si128();
        let mut t = [z; 3];
        // Written out round by round: as a loop, LLVM keeps it rolled and spills the
        // eight AES states around each product. Blocks 1..8 first, block 0 (which takes
        // the previous group's state, the end of a dependency chain) last.
        macro_rules! round_and_product {
            ($($r:literal),*) => {$(
                round(&mut b, k[$r]);
                if HASH {
                    product(pow, kar, hp, $r, &mut t, z);
                }
            )*};
        }
        round_and_product!(1, 2, 3, 4, 5, 6, 7);
        round(&mut b, k[8]);
        if HASH {
            product(pow, kar, hp, 0, &mut t, *acc);
        }
        for kr in &k[9..NR] {
            round(&mut b, *kr);
        }
        if HASH {
            *acc = reduce(&t);
        }
        let off = g * GROUP_BLOCKS * 16;
        for (j, x) in b.iter().enumerate() {
            let o = off + 16 * j;
            // The input folded into the last round key, off the AES chain.
            x.enclast(k[NR].xor(<__m128i as Lanes>::load(src.add(o))))
                .store(dst.add(o));
        }
    }
}

#[target_feature(enable = "aes,pclmulqdq,ssse3")]
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
    // `io`.
    unsafe {
        let k = splat_keys::<__m128i, NR, false>(keys);
        // The counter block with its last word byte-swapped (little-endian).
        let cs = _mm_shuffle_epi8(_mm_loadu_si128(c.as_ptr().cast()), ctr_mask());
        let mut acc = _mm_shuffle_epi8(_mm_loadu_si128(y.as_ptr().cast()), rev_mask());
        if DEC {
            // The input of each group is hashed while it is decrypted (read before the
            // group's stores, so in place works).
            for g in 0..groups {
                group::<NR, true>(&k, &cs, pow, kar, g, src, dst, src.add(g * gb), &mut acc);
            }
        } else {
            // Each group's ciphertext is hashed while the next group is encrypted.
            group::<NR, false>(&k, &cs, pow, kar, 0, src, dst, src, &mut acc);
            for g in 1..groups {
                let hp = dst.add((g - 1) * gb) as *const u8;
                group::<NR, true>(&k, &cs, pow, kar, g, src, dst, hp, &mut acc);
            }
            acc = hash_group(pow, kar, dst.add((groups - 1) * gb), acc);
        }
        _mm_storeu_si128(y.as_mut_ptr().cast(), _mm_shuffle_epi8(acc, rev_mask()));
    }
}

/// GCM's bulk pass over the whole groups of [`GROUP_BLOCKS`] blocks of `io` (the rest is
/// left to the caller): CTR from counter block `c` (the last word counting modulo 2^32)
/// and GHASH of the ciphertext into `y` (GCM byte order).
#[allow(clippy::too_many_arguments)]
pub(crate) fn ctr_ghash(
    keys: &Keys,
    _t: AesNi,
    _c: Pclmul,
    pow: &Powers,
    kar: &Powers,
    decrypt: bool,
    c: &Block,
    y: &mut Block,
    io: InOut<'_>,
) {
    // SAFETY: the `AesNi` token proves AES-NI; the `Pclmul` token PCLMULQDQ and SSSE3.
    unsafe {
        if decrypt {
            by_rounds!(keys, kernel, true, keys, pow, kar, c, y, io)
        } else {
            by_rounds!(keys, kernel, false, keys, pow, kar, c, y, io)
        }
    }
}
