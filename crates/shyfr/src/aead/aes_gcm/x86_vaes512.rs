//! AES-GCM's bulk pass in one loop with VAES and VPCLMULQDQ on 512-bit registers (AVX-512):
//! counter mode on thirty-two blocks (eight ZMM registers, four blocks each) while the
//! GHASH of the previous thirty-two ciphertext blocks (when encrypting) or of the same
//! thirty-two (when decrypting, the input) is computed between the AES rounds, with the
//! powers `H^32..H^1` of the `x86_vpclmul512` GHASH backend and one reduction per group
//! (schoolbook, four VPCLMULQDQ per register summed by three-input XORs, one pair of
//! registers after every even AES round, the reduction lane by lane before the lanes are
//! folded; the products and the reduction are `arith::clmul::x86_vpclmul512`'s). On
//! Intel's 512-bit units AES runs on one port and carry-less multiplies and shuffles on
//! another, so every other instruction competes with one of them: Karatsuba's
//! pre-additions and shuffles cost more than its saved multiply (measured on a Xeon).
//!
//! Counters are kept byte-reversed (the counter word little-endian in dword 0 of each
//! lane), advanced by one vector add per register and byte-swapped back with `vpshufb`.
//! The kernel knows nothing of GCM's framing: it takes counter, GHASH state (GCM byte
//! order) and whole groups; `aead::gcm` does the rest.

use core::arch::x86_64::*;

use crate::aead::ghash::x86_pclmul::{absorb, Key as XmmKey};
use crate::arith::clmul::x86_vpclmul512::{reduce_lanes, rev_mask, schoolbook, schoolbook2};
use crate::block::aes::x86::{by_rounds, each_round, splat_keys, Keys, Lanes};
use crate::block::aes::Block;
use crate::cpu::x86::{Vaes512, Vpclmul512};
use crate::inout::InOut;

/// ZMM registers per full group (32 blocks, one GHASH reduction).
const W: usize = 8;

/// The GHASH powers in the `x86_vpclmul512` layout: register `j` of a group is multiplied
/// lane by lane by `pow[j]` = `(tw(H^(32-4j)), .., tw(H^(29-4j)))`.
pub(crate) type Powers = [[u8; 64]; W];

/// Register `j` of a `G`-register group at `p`, byte-reflected, and its power: a group of
/// `G` registers (`4 G` blocks) takes the last `G` entries of the table, `H^(4G)..H^1`.
///
/// # Safety
///
/// AVX-512F/BW are enabled; `p` is readable for 64 bytes at `64 * j`.
#[inline(always)]
unsafe fn operand<const G: usize>(pow: &Powers, p: *const u8, j: usize) -> (__m512i, __m512i) {
    // SAFETY: per the contract; `pow[i]` is 64 bytes.
    unsafe {
        let x = _mm512_loadu_si512(p.add(64 * j).cast());
        let h = _mm512_loadu_si512(pow[W - G + j].as_ptr().cast());
        (_mm512_shuffle_epi8(x, rev_mask()), h)
    }
}

/// The first register of the `s`-th pair a `G`-register group hashes: pairs `(2, 3)`,
/// `(4, 5)`, .. first and `(0, 1)` (register 0 takes the previous state) last; with `G`
/// odd the last register is alone.
#[inline(always)]
const fn pair<const G: usize>(s: usize) -> usize {
    if s + 1 < G.div_ceil(2) {
        2 * (s + 1)
    } else {
        0
    }
}

/// Adds the schoolbook terms of the `s`-th pair of the `G`-register group at `p` times
/// their powers to `t`, with `acc` XORed into register 0.
///
/// # Safety
///
/// AVX-512F/BW and VPCLMULQDQ are enabled; `p` is readable for 64 * `G` bytes.
#[inline(always)]
unsafe fn product<const G: usize>(
    pow: &Powers,
    p: *const u8,
    s: usize,
    t: &mut [__m512i; 3],
    acc: __m128i,
) {
    // SAFETY: per the contract; both registers lie in the group.
    unsafe {
        let j = pair::<G>(s);
        let (mut x, h) = operand::<G>(pow, p, j);
        if j == 0 {
            x = _mm512_xor_si512(x, _mm512_zextsi128_si512(acc));
        }
        if j + 1 < G {
            let (y, g) = operand::<G>(pow, p, j + 1);
            schoolbook2(t, x, h, y, g);
        } else {
            schoolbook(t, x, h);
        }
    }
}

/// The GHASH of one `G`-register group at `p` on top of `acc`, alone (the last group of
/// a run when encrypting).
///
/// # Safety
///
/// As [`product`].
#[inline(always)]
unsafe fn hash_group<const G: usize>(pow: &Powers, p: *const u8, acc: __m128i) -> __m128i {
    // SAFETY: per the contract.
    unsafe {
        let z = _mm512_setzero_si512();
        let mut t = [z; 3];
        for s in 0..G.div_ceil(2) {
            product::<G>(pow, p, s, &mut t, acc);
        }
        reduce_lanes(&t)
    }
}

/// The counter blocks `blk .. blk + 3` of the call: the byte-reversed state `cs` (lanes
/// `c .. c + 3`) advanced by `blk`, swapped back to GCM byte order.
///
/// # Safety
///
/// AVX-512F/BW are enabled.
#[inline(always)]
unsafe fn counters(cs: __m512i, blk: usize) -> __m512i {
    // SAFETY: per the contract.
    unsafe {
        let c = _mm512_add_epi32(cs, _mm512_set4_epi32(0, 0, 0, blk as i32));
        _mm512_shuffle_epi8(c, rev_mask())
    }
}

/// CTR on the `G`-register group starting at block `blk` of `src` into `dst`, hashing the
/// `G`-register group at `hp` (when `HASH`) into `acc` between the rounds.
///
/// # Safety
///
/// VAES, AVX-512F/BW and VPCLMULQDQ are enabled; the group lies inside `src` and `dst`,
/// the group at `hp` is readable (when `HASH`); the counter's last word does not wrap in
/// the group; `NR > G`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn group<const NR: usize, const G: usize, const HASH: bool>(
    k: &[__m512i; 15],
    cs: __m512i,
    low: u32,
    pow: &Powers,
    blk: usize,
    src: *const u8,
    dst: *mut u8,
    hp: *const u8,
    acc: &mut __m128i,
) {
    // SAFETY: per the contract.
    unsafe {
        let mut b: [__m512i; G] = [k[0]; G];
        // While the counter's last byte does not carry inside the group (7 groups in 8),
        // each register's counters are the group's first four plus `4 j` in that byte,
        // added in GCM byte order: one swap per group instead of one per register.
        let first = low.wrapping_add(blk as u32);
        if first & 0xff <= (256 - 4 * G) as u32 {
            let base = counters(cs, blk);
            for (j, x) in b.iter_mut().enumerate() {
                let step = _mm512_set4_epi32(((4 * j) << 24) as i32, 0, 0, 0);
                *x = _mm512_add_epi32(base, step).xor(k[0]);
            }
        } else {
            for (j, x) in b.iter_mut().enumerate() {
                *x = counters(cs, blk + 4 * j).xor(k[0]);
            }
        }
        let z = _mm512_setzero_si512();
        let mut t = [z; 3];
        // One pair of registers hashed after every even round (after the odd ones measured
        // 1-5 % slower on an Intel Xeon).
        each_round!(NR, |r| {
            for x in b.iter_mut() {
                *x = x.enc(k[r]);
            }
            let s = r.saturating_sub(2) / 2;
            if HASH && r.is_multiple_of(2) && s < G.div_ceil(2) {
                product::<G>(pow, hp, s, &mut t, *acc);
            }
        });
        // The reduction after the rounds.
        if HASH {
            *acc = reduce_lanes(&t);
        }
        // `enclast(x, k) ^ m = enclast(x, k ^ m)`: the input is folded into the last round
        // key, off the AES chain.
        for (j, x) in b.iter().enumerate() {
            let o = 16 * blk + 64 * j;
            let last = k[NR].xor(<__m512i as Lanes>::load(src.add(o)));
            x.enclast(last).store(dst.add(o));
        }
    }
}

/// Runs groups of `G` registers from block `blk` while whole ones remain below block `n`,
/// hashing every group's ciphertext into `acc`; returns the first block not done.
///
/// # Safety
///
/// As [`group`], for blocks `blk..n` of `src` and `dst`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn run<const NR: usize, const G: usize, const DEC: bool>(
    k: &[__m512i; 15],
    cs: __m512i,
    low: u32,
    pow: &Powers,
    mut blk: usize,
    n: usize,
    src: *const u8,
    dst: *mut u8,
    acc: &mut __m128i,
) -> usize {
    let gb = 4 * G;
    if blk + gb > n {
        return blk;
    }
    // SAFETY: per the contract; every group lies below block `n`.
    unsafe {
        if DEC {
            // The input of each group is hashed while it is decrypted (read before the
            // group's stores, so in place works).
            while blk + gb <= n {
                let hp = src.add(16 * blk);
                group::<NR, G, true>(k, cs, low, pow, blk, src, dst, hp, acc);
                blk += gb;
            }
        } else {
            // Each group's ciphertext is hashed while the next group is encrypted.
            group::<NR, G, false>(k, cs, low, pow, blk, src, dst, src, acc);
            blk += gb;
            while blk + gb <= n {
                let hp = dst.add(16 * (blk - gb)) as *const u8;
                group::<NR, G, true>(k, cs, low, pow, blk, src, dst, hp, acc);
                blk += gb;
            }
            *acc = hash_group::<G>(pow, dst.add(16 * (blk - gb)), *acc);
        }
    }
    blk
}

/// The byte-reversed counter state of counter block `c` (lanes `c .. c + 3`).
///
/// # Safety
///
/// AVX-512F/BW are enabled.
#[inline(always)]
unsafe fn counter_state(c: &Block) -> __m512i {
    // SAFETY: per the contract; `c` is 16 readable bytes.
    unsafe {
        let c128 = _mm_loadu_si128(c.as_ptr().cast());
        _mm512_add_epi32(
            _mm512_shuffle_epi8(_mm512_broadcast_i32x4(c128), rev_mask()),
            _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0),
        )
    }
}

/// A whole message in one pass (see [`seal_open`]).
#[target_feature(enable = "aes,avx,avx2,vaes,avx512f,avx512bw,avx512vl,pclmulqdq,vpclmulqdq,ssse3")]
#[allow(clippy::too_many_arguments)]
fn one_pass_kernel<const NR: usize, const DEC: bool>(
    keys: &Keys,
    pow: &Powers,
    xk: &XmmKey,
    nonce: &[u8; 12],
    aad: &[u8],
    buf: &mut [u8],
    tag: &mut [u8; 16],
) {
    let mut c = [0u8; 16];
    c[..12].copy_from_slice(nonce);
    c[15] = 1; // J0
    let len = buf.len();
    let n = len / 16;
    let p = buf.as_mut_ptr();
    // SAFETY: the features are enabled here; every run stays below block `n` of `buf`;
    // with a 12-byte nonce the counter starts at 2 and a message within GCM's limit never
    // wraps it.
    unsafe {
        let k = splat_keys::<__m512i, NR, false>(keys);
        let r128 = _mm512_castsi512_si128(rev_mask());
        // E(J0), on its own: its latency hides behind the AAD and the bulk.
        let mut ej0 = _mm_xor_si128(_mm_loadu_si128(c.as_ptr().cast()), keys.enc_xmm(0));
        for r in 1..NR {
            ej0 = _mm_aesenc_si128(ej0, keys.enc_xmm(r));
        }
        let ej0 = _mm_aesenclast_si128(ej0, keys.enc_xmm(NR));
        // The AAD, zero-padded.
        let whole = aad.len() - aad.len() % 16;
        let mut acc = absorb(xk, _mm_setzero_si128(), &aad[..whole]);
        if whole < aad.len() {
            let mut last = [0u8; 16];
            last[..aad.len() - whole].copy_from_slice(&aad[whole..]);
            acc = absorb(xk, acc, &last);
        }
        // The bulk, from counter 2: groups of 32, 16 and 4 blocks.
        c[15] = 2;
        let low = 2u32;
        let cs = counter_state(&c);
        let blk = run::<NR, W, DEC>(&k, cs, low, pow, 0, n, p, p, &mut acc);
        let blk = run::<NR, 4, DEC>(&k, cs, low, pow, blk, n, p, p, &mut acc);
        let blk = run::<NR, 1, DEC>(&k, cs, low, pow, blk, n, p, p, &mut acc);
        // The tail: up to three whole blocks and a partial one, in one register.
        let rest = len - 16 * blk;
        if rest > 0 {
            let mut t = [0u8; 64];
            t[..rest].copy_from_slice(&buf[16 * blk..]);
            if DEC {
                acc = absorb(xk, acc, &t[..rest.div_ceil(16) * 16]);
            }
            let x = counters(cs, blk).xor(k[0]);
            let mut x = x;
            for kr in &k[1..NR] {
                x = x.enc(*kr);
            }
            let ks = x.enclast(k[NR]);
            let m = <__m512i as Lanes>::load(t.as_ptr());
            m.xor(ks).store(t.as_mut_ptr());
            t[rest..].fill(0);
            buf[16 * blk..].copy_from_slice(&t[..rest]);
            if !DEC {
                acc = absorb(xk, acc, &t[..rest.div_ceil(16) * 16]);
            }
            crate::wipe::wipe(&mut t);
        }
        let mut lens = [0u8; 16];
        lens[..8].copy_from_slice(&((aad.len() as u64) * 8).to_be_bytes());
        lens[8..].copy_from_slice(&((len as u64) * 8).to_be_bytes());
        acc = absorb(xk, acc, &lens);
        let t = _mm_xor_si128(_mm_shuffle_epi8(acc, r128), ej0);
        _mm_storeu_si128(tag.as_mut_ptr().cast(), t);
    }
}

/// Encrypts (`decrypt` false) or decrypts `buf` in place under the 12-byte `nonce` and
/// returns the full tag over the AAD and the ciphertext (the input when decrypting), in
/// one pass: `E(J0)`, the AAD, the bulk in groups of 32, 16 and 4 blocks, the tail in one
/// register and the length block, with no return to the message state machine. `buf` is
/// within GCM's plaintext limit. The caller compares the tag and zeroes the output on a
/// mismatch.
#[allow(clippy::too_many_arguments)]
pub(crate) fn seal_open(
    keys: &Keys,
    _t: Vaes512,
    _c: Vpclmul512,
    pow: &Powers,
    xk: &XmmKey,
    decrypt: bool,
    nonce: &[u8; 12],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    let mut tag = [0u8; 16];
    // SAFETY: the `Vaes512` token proves AES, AVX, AVX2, VAES and AVX-512F; the
    // `Vpclmul512` token SSSE3, PCLMULQDQ, VPCLMULQDQ and AVX-512F/BW/VL.
    unsafe {
        if decrypt {
            by_rounds!(
                keys,
                one_pass_kernel,
                true,
                keys,
                pow,
                xk,
                nonce,
                aad,
                buf,
                &mut tag
            )
        } else {
            by_rounds!(
                keys,
                one_pass_kernel,
                false,
                keys,
                pow,
                xk,
                nonce,
                aad,
                buf,
                &mut tag
            )
        }
    }
    tag
}

#[target_feature(enable = "aes,avx,avx2,vaes,avx512f,avx512bw,avx512vl,pclmulqdq,vpclmulqdq,ssse3")]
fn kernel<const NR: usize, const DEC: bool>(
    keys: &Keys,
    pow: &Powers,
    c: &Block,
    y: &mut Block,
    mut io: InOut<'_>,
) -> usize {
    let n = io.len() / 16;
    if n < 4 {
        return 0;
    }
    let src = io.src_ptr();
    let dst = io.dst_ptr();
    // SAFETY: the features are enabled here; every run stays below block `n`, inside
    // `io`; the caller guarantees the counter's last word does not wrap.
    unsafe {
        let k = splat_keys::<__m512i, NR, false>(keys);
        let low = u32::from_be_bytes([c[12], c[13], c[14], c[15]]);
        let cs = counter_state(c);
        let r128 = _mm512_castsi512_si128(rev_mask());
        let mut acc = _mm_shuffle_epi8(_mm_loadu_si128(y.as_ptr().cast()), r128);
        // Thirty-two blocks per group, then sixteen and four for the tail.
        let blk = run::<NR, W, DEC>(&k, cs, low, pow, 0, n, src, dst, &mut acc);
        let blk = run::<NR, 4, DEC>(&k, cs, low, pow, blk, n, src, dst, &mut acc);
        let blk = run::<NR, 1, DEC>(&k, cs, low, pow, blk, n, src, dst, &mut acc);
        _mm_storeu_si128(y.as_mut_ptr().cast(), _mm_shuffle_epi8(acc, r128));
        blk
    }
}

/// GCM's bulk pass over the whole blocks of `io` in groups of 32, 16 and 4 (fewer than four
/// left over are the caller's): CTR from counter block `c` (whose last word must not wrap
/// inside `io`) and GHASH of the ciphertext into `y` (GCM byte order). Returns the bytes
/// done.
#[allow(clippy::too_many_arguments)]
pub(crate) fn ctr_ghash(
    keys: &Keys,
    _t: Vaes512,
    _c: Vpclmul512,
    pow: &Powers,
    decrypt: bool,
    c: &Block,
    y: &mut Block,
    io: InOut<'_>,
) -> usize {
    // SAFETY: the `Vaes512` token proves AES, AVX, AVX2, VAES and AVX-512F; the
    // `Vpclmul512` token SSSE3, PCLMULQDQ, VPCLMULQDQ and AVX-512F/BW/VL.
    let blocks = unsafe {
        if decrypt {
            by_rounds!(keys, kernel, true, keys, pow, c, y, io)
        } else {
            by_rounds!(keys, kernel, false, keys, pow, c, y, io)
        }
    };
    16 * blocks
}
