//! AES-GCM in one loop with VAES and VPCLMULQDQ on 256-bit registers: counter mode on
//! sixteen blocks (eight YMM registers) while the GHASH of the previous sixteen ciphertext
//! blocks (when encrypting) or of the same sixteen (when decrypting, the input) is
//! computed between the AES rounds, with the powers `H^16..H^1` of the `x86_vpclmul`
//! GHASH backend and one reduction per group (Karatsuba, three VPCLMULQDQ per register;
//! the products and the reduction are `arith::clmul::x86_vpclmul`'s). What is left after
//! the sixteen-block groups runs in groups of eight and two blocks (a group of `2 G`
//! blocks takes the last `G` powers, `H^(2G)..H^1`): when decrypting with the same loop;
//! when encrypting each small group is hashed from its registers right after its rounds.
//!
//! Two entry points: [`ctr_ghash`], the bulk pass of `aead::gcm`'s message state machine
//! (counter, GHASH state and whole blocks; at most one block left to the caller), and
//! [`seal_open`], a whole message with a 12-byte nonce in one pass (`E(J0)`, the AAD, the
//! groups, the last block and a partial one in one register through a stack buffer, the
//! length block), with no return to the state machine.

use core::arch::x86_64::*;

use crate::aead::ghash::x86_pclmul::{absorb, Key as XmmKey};
use crate::arith::clmul::x86_vpclmul::{karatsuba, reduce, rev_mask};
use crate::block::aes::x86::{by_rounds, each_round, splat_keys, Keys, Lanes};
use crate::block::aes::Block;
use crate::cpu::x86::{Pclmul, Vaes256, Vpclmul256};
use crate::inout::InOut;

/// YMM registers per full group (16 blocks, one GHASH reduction).
const W: usize = 8;

/// The GHASH powers in the `x86_vpclmul` layout: register `j` of a group is multiplied
/// lane by lane by `pow[j]` = `(tw(H^(16-2j)), tw(H^(15-2j)))`; `kar[j]` holds the XOR
/// of each lane's halves.
pub(crate) type Powers = [[u8; 32]; W];

/// Adds the Karatsuba terms of register `j` of a `G`-register group at `p` (XORed with
/// `extra`) times its powers to `t`: a group of `G` registers (`2 G` blocks) takes the last
/// `G` entries of the table, `H^(2G)..H^1`.
///
/// # Safety
///
/// AVX2 and VPCLMULQDQ are enabled; `p` is readable for 32 bytes at `32 * j`.
#[inline(always)]
unsafe fn product<const G: usize>(
    pow: &Powers,
    kar: &Powers,
    p: *const u8,
    j: usize,
    t: &mut [__m256i; 3],
    extra: __m256i,
) {
    // SAFETY: per the contract; `pow[i]`, `kar[i]` are 32 bytes.
    unsafe {
        let i = W - G + j;
        let x = _mm256_loadu_si256(p.add(32 * j).cast());
        let h = _mm256_loadu_si256(pow[i].as_ptr().cast());
        let hk = _mm256_loadu_si256(kar[i].as_ptr().cast());
        let x = _mm256_xor_si256(_mm256_shuffle_epi8(x, rev_mask()), extra);
        karatsuba(t, x, h, hk);
    }
}

/// As [`product`], for the block pair `x` (GCM byte order) held in a register.
///
/// # Safety
///
/// AVX2 and VPCLMULQDQ are enabled.
#[inline(always)]
unsafe fn product_reg<const G: usize>(
    pow: &Powers,
    kar: &Powers,
    x: __m256i,
    j: usize,
    t: &mut [__m256i; 3],
    extra: __m256i,
) {
    // SAFETY: per the contract; `pow[i]`, `kar[i]` are 32 bytes.
    unsafe {
        let i = W - G + j;
        let h = _mm256_loadu_si256(pow[i].as_ptr().cast());
        let hk = _mm256_loadu_si256(kar[i].as_ptr().cast());
        let x = _mm256_xor_si256(_mm256_shuffle_epi8(x, rev_mask()), extra);
        karatsuba(t, x, h, hk);
    }
}

/// As [`hash_group`], for a group held in registers.
///
/// # Safety
///
/// AVX2 and VPCLMULQDQ are enabled.
#[inline(always)]
unsafe fn hash_regs<const G: usize>(
    pow: &Powers,
    kar: &Powers,
    x: &[__m256i; G],
    acc: __m128i,
) -> __m128i {
    // SAFETY: per the contract.
    unsafe {
        let z = _mm256_setzero_si256();
        let mut t = [z; 3];
        for (j, &xj) in x.iter().enumerate().skip(1) {
            product_reg::<G>(pow, kar, xj, j, &mut t, z);
        }
        product_reg::<G>(pow, kar, x[0], 0, &mut t, _mm256_zextsi128_si256(acc));
        reduce(&t)
    }
}

/// CTR on the `G`-register group starting at block `blk` of `src` into `dst`, nothing
/// hashed; returns the group's output (sealing with a small group, `G` < 8: the caller
/// hashes it from registers at once; measured faster than hashing it between the next
/// group's rounds, read back from memory or kept in registers: 192 B AES-256 1.6x).
///
/// # Safety
///
/// As [`group`].
#[inline(always)]
unsafe fn ctr_regs<const NR: usize, const G: usize>(
    k: &[__m256i; 15],
    cs: __m256i,
    blk: usize,
    src: *const u8,
    dst: *mut u8,
) -> [__m256i; G] {
    // SAFETY: per the contract.
    unsafe {
        let base = <__m256i as Lanes>::ctr_at(&cs, blk as u32);
        let mut b: [__m256i; G] = [k[0]; G];
        for (j, x) in b.iter_mut().enumerate() {
            *x = <__m256i as Lanes>::ctr_blocks(&base, (2 * j) as u32).xor(k[0]);
        }
        for kr in &k[1..NR] {
            for x in b.iter_mut() {
                *x = x.enc(*kr);
            }
        }
        for (j, x) in b.iter_mut().enumerate() {
            let o = 16 * blk + 32 * j;
            *x = x.enclast(k[NR].xor(<__m256i as Lanes>::load(src.add(o))));
            x.store(dst.add(o));
        }
        b
    }
}

/// The GHASH of one `G`-register group at `p` on top of `acc`, alone (the last group of
/// a run when encrypting).
///
/// # Safety
///
/// As [`product`], for 32 * `G` bytes at `p`.
#[inline(always)]
unsafe fn hash_group<const G: usize>(
    pow: &Powers,
    kar: &Powers,
    p: *const u8,
    acc: __m128i,
) -> __m128i {
    // SAFETY: per the contract.
    unsafe {
        let z = _mm256_setzero_si256();
        let mut t = [z; 3];
        for j in 1..G {
            product::<G>(pow, kar, p, j, &mut t, z);
        }
        product::<G>(pow, kar, p, 0, &mut t, _mm256_zextsi128_si256(acc));
        reduce(&t)
    }
}

/// The counter blocks `blk` and `blk + 1` of the call: the byte-reversed state `cs`
/// (lanes `c`, `c + 1`) advanced by `blk`, swapped back to GCM byte order.
///
/// # Safety
///
/// AVX2 is enabled.
#[inline(always)]
unsafe fn counters(cs: __m256i, blk: usize) -> __m256i {
    // SAFETY: per the contract.
    unsafe { <__m256i as Lanes>::ctr_blocks(&cs, blk as u32) }
}

/// CTR on the `G`-register group starting at block `blk` of `src` into `dst`, hashing the
/// `G`-register group at `hp` (when `HASH`) into `acc` between the rounds.
///
/// # Safety
///
/// VAES, AVX2 and VPCLMULQDQ are enabled; the group lies inside `src` and `dst`, the
/// group at `hp` is readable (when `HASH`); the counter's last word does not wrap in the
/// group; `NR > G`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn group<const NR: usize, const G: usize, const HASH: bool>(
    k: &[__m256i; 15],
    cs: __m256i,
    pow: &Powers,
    kar: &Powers,
    blk: usize,
    src: *const u8,
    dst: *mut u8,
    hp: *const u8,
    acc: &mut __m128i,
) {
    // SAFETY: per the contract.
    unsafe {
        // One run-time add for the group, constant offsets per register.
        let base = <__m256i as Lanes>::ctr_at(&cs, blk as u32);
        let mut b: [__m256i; G] = [k[0]; G];
        for (j, x) in b.iter_mut().enumerate() {
            *x = <__m256i as Lanes>::ctr_blocks(&base, (2 * j) as u32).xor(k[0]);
        }
        let z = _mm256_setzero_si256();
        let mut t = [z; 3];
        each_round!(NR, |r| {
            for x in b.iter_mut() {
                *x = x.enc(k[r]);
            }
            // Registers 1..G first, register 0 (which takes the previous state) last.
            if HASH {
                if r < G {
                    product::<G>(pow, kar, hp, r, &mut t, z);
                } else if r == G {
                    let extra = _mm256_zextsi128_si256(*acc);
                    product::<G>(pow, kar, hp, 0, &mut t, extra);
                }
            }
        });
        if HASH {
            *acc = reduce(&t);
        }
        // `enclast(x, k) ^ m = enclast(x, k ^ m)`: the input is folded into the last round
        // key, off the AES chain.
        for (j, x) in b.iter().enumerate() {
            let o = 16 * blk + 32 * j;
            let last = k[NR].xor(<__m256i as Lanes>::load(src.add(o)));
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
    k: &[__m256i; 15],
    cs: __m256i,
    pow: &Powers,
    kar: &Powers,
    mut blk: usize,
    n: usize,
    src: *const u8,
    dst: *mut u8,
    acc: &mut __m128i,
) -> usize {
    let gb = 2 * G;
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
                group::<NR, G, true>(k, cs, pow, kar, blk, src, dst, hp, acc);
                blk += gb;
            }
        } else if G < W {
            // Each small group's ciphertext is hashed from registers right after it.
            while blk + gb <= n {
                let out = ctr_regs::<NR, G>(k, cs, blk, src, dst);
                *acc = hash_regs::<G>(pow, kar, &out, *acc);
                blk += gb;
            }
        } else {
            // Each group's ciphertext is hashed while the next group is encrypted.
            group::<NR, G, false>(k, cs, pow, kar, blk, src, dst, src, acc);
            blk += gb;
            while blk + gb <= n {
                let hp = dst.add(16 * (blk - gb)) as *const u8;
                group::<NR, G, true>(k, cs, pow, kar, blk, src, dst, hp, acc);
                blk += gb;
            }
            *acc = hash_group::<G>(pow, kar, dst.add(16 * (blk - gb)), *acc);
        }
    }
    blk
}

/// Groups of 16, 8 and 2 blocks from block 0 below block `n`; returns the blocks done.
///
/// # Safety
///
/// As [`run`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn runs<const NR: usize, const DEC: bool>(
    k: &[__m256i; 15],
    cs: __m256i,
    pow: &Powers,
    kar: &Powers,
    n: usize,
    src: *const u8,
    dst: *mut u8,
    acc: &mut __m128i,
) -> usize {
    // SAFETY: per the contract.
    unsafe {
        let blk = run::<NR, W, DEC>(k, cs, pow, kar, 0, n, src, dst, acc);
        let blk = run::<NR, 4, DEC>(k, cs, pow, kar, blk, n, src, dst, acc);
        run::<NR, 1, DEC>(k, cs, pow, kar, blk, n, src, dst, acc)
    }
}

/// A whole message in one pass (see [`seal_open`]).
#[target_feature(enable = "aes,avx,avx2,vaes,pclmulqdq,vpclmulqdq,ssse3")]
#[allow(clippy::too_many_arguments)]
fn one_pass_kernel<const NR: usize, const DEC: bool>(
    keys: &Keys,
    pow: &Powers,
    kar: &Powers,
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
        let k = splat_keys::<__m256i, NR, false>(keys);
        let r128 = _mm256_castsi256_si128(rev_mask());
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
        // The bulk, from counter 2: groups of 16, 8 and 2 blocks.
        c[15] = 2;
        let cs = <__m256i as Lanes>::ctr_init(&c);
        let blk = runs::<NR, DEC>(&k, cs, pow, kar, n, p, p, &mut acc);
        // The tail: up to one whole block and a partial one, in one register.
        let rest = len - 16 * blk;
        if rest > 0 {
            let mut t = [0u8; 32];
            t[..rest].copy_from_slice(&buf[16 * blk..]);
            if DEC {
                acc = absorb(xk, acc, &t[..rest.div_ceil(16) * 16]);
            }
            let mut x = counters(cs, blk).xor(k[0]);
            for kr in &k[1..NR] {
                x = x.enc(*kr);
            }
            let ks = x.enclast(k[NR]);
            let m = <__m256i as Lanes>::load(t.as_ptr());
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
/// one pass: `E(J0)`, the AAD, the bulk in groups of 16, 8 and 2 blocks, the tail in one
/// register and the length block. `buf` is within GCM's plaintext limit. The caller
/// compares the tag and zeroes the output on a mismatch.
#[allow(clippy::too_many_arguments)]
pub(crate) fn seal_open(
    keys: &Keys,
    _t: Vaes256,
    _c: Vpclmul256,
    pow: &Powers,
    kar: &Powers,
    _x: Pclmul,
    xk: &XmmKey,
    decrypt: bool,
    nonce: &[u8; 12],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    let mut tag = [0u8; 16];
    // SAFETY: the `Vaes256` token proves AES, AVX, AVX2 and VAES; the `Vpclmul256` token
    // PCLMULQDQ and VPCLMULQDQ; the `Pclmul` token PCLMULQDQ and SSSE3.
    unsafe {
        if decrypt {
            by_rounds!(
                keys,
                one_pass_kernel,
                true,
                keys,
                pow,
                kar,
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
                kar,
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

#[target_feature(enable = "aes,avx,avx2,vaes,pclmulqdq,vpclmulqdq")]
fn kernel<const NR: usize, const DEC: bool>(
    keys: &Keys,
    pow: &Powers,
    kar: &Powers,
    c: &Block,
    y: &mut Block,
    mut io: InOut<'_>,
) -> usize {
    let n = io.len() / 16;
    if n < 2 {
        return 0;
    }
    let src = io.src_ptr();
    let dst = io.dst_ptr();
    // SAFETY: the features are enabled here; every run stays below block `n`, inside
    // `io`; the caller guarantees the counter's last word does not wrap.
    unsafe {
        let k = splat_keys::<__m256i, NR, false>(keys);
        let cs = <__m256i as Lanes>::ctr_init(c);
        let r128 = _mm256_castsi256_si128(rev_mask());
        let mut acc = _mm_shuffle_epi8(_mm_loadu_si128(y.as_ptr().cast()), r128);
        let blk = runs::<NR, DEC>(&k, cs, pow, kar, n, src, dst, &mut acc);
        _mm_storeu_si128(y.as_mut_ptr().cast(), _mm_shuffle_epi8(acc, r128));
        blk
    }
}

/// GCM's bulk pass over the whole blocks of `io` in groups of 16, 8 and 2 (a last odd
/// block is the caller's): CTR from counter block `c` (whose last word must not wrap
/// inside `io`) and GHASH of the ciphertext into `y` (GCM byte order). Returns the bytes
/// done.
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
) -> usize {
    // SAFETY: the `Vaes256` token proves AES, AVX, AVX2 and VAES; the `Vpclmul256` token
    // PCLMULQDQ and VPCLMULQDQ.
    let blocks = unsafe {
        if decrypt {
            by_rounds!(keys, kernel, true, keys, pow, kar, c, y, io)
        } else {
            by_rounds!(keys, kernel, false, keys, pow, kar, c, y, io)
        }
    };
    16 * blocks
}
