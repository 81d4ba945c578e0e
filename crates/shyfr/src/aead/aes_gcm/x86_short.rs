//! AES-GCM for short messages on x86 (AES-NI and PCLMULQDQ on 128-bit registers), for
//! every x86 engine: one function from the 12-byte nonce to the tag, with no per-block
//! dispatch. `E(J0)` and the counter blocks go through the rounds side by side (up to
//! eight at a time, the round keys read from the schedule); the AAD, the ciphertext and
//! the length block are hashed with the GHASH key's 128-bit powers `H^1..H^8`, eight
//! blocks per reduction. A message of up to [`MAX_LEN`] bytes takes this path.
//!
//! Opening hashes the ciphertext and compares the tag (in constant time) before the
//! plaintext is written; on a mismatch the output is zeroed.

use core::arch::x86_64::*;

use crate::aead::ghash::x86_pclmul::{absorb, Key as GhashKey};
use crate::arith::clmul::x86_pclmul::bswap;
use crate::block::aes::x86::{by_count, by_rounds, rounds_short, Keys};
use crate::cpu::x86::{AesNi, Pclmul};

/// The longest message (bytes) of the short path: sixteen blocks.
pub(crate) const MAX_LEN: usize = 256;

/// Keystream for the `N` counter blocks `c .. c + N - 1` (the counter in the last word,
/// big-endian, not wrapping), into `ks`.
#[inline(always)]
unsafe fn keystream_n<const NR: usize, const N: usize>(
    keys: &Keys,
    nonce: &[u8; 12],
    c: u32,
    ks: &mut [u8],
) {
    // SAFETY: AES-NI per the caller; `ks` holds `N` blocks.
    unsafe {
        let mut blk = [0u8; 16];
        blk[..12].copy_from_slice(nonce);
        let b: [__m128i; N] = core::array::from_fn(|j| {
            blk[12..].copy_from_slice(&c.wrapping_add(j as u32).to_be_bytes());
            _mm_loadu_si128(blk.as_ptr().cast())
        });
        for (j, x) in rounds_short::<NR, false, N>(keys, b).iter().enumerate() {
            _mm_storeu_si128(ks.as_mut_ptr().add(16 * j).cast(), *x);
        }
    }
}

/// GHASH of `aad` and `ct` (each zero-padded to whole blocks) and the length block.
#[inline(always)]
unsafe fn ghash(key: &GhashKey, aad: &[u8], ct: &[u8]) -> __m128i {
    // SAFETY: PCLMULQDQ and SSSE3 per the caller.
    unsafe {
        let mut acc = _mm_setzero_si128();
        for part in [aad, ct] {
            let whole = part.len() - part.len() % 16;
            acc = absorb(key, acc, &part[..whole]);
            if whole < part.len() {
                let mut last = [0u8; 16];
                last[..part.len() - whole].copy_from_slice(&part[whole..]);
                acc = absorb(key, acc, &last);
            }
        }
        let mut len = [0u8; 16];
        len[..8].copy_from_slice(&((aad.len() as u64) * 8).to_be_bytes());
        len[8..].copy_from_slice(&((ct.len() as u64) * 8).to_be_bytes());
        absorb(key, acc, &len)
    }
}

#[target_feature(enable = "aes,pclmulqdq,ssse3")]
fn kernel<const NR: usize, const DEC: bool>(
    keys: &Keys,
    gk: &GhashKey,
    nonce: &[u8; 12],
    aad: &[u8],
    buf: &mut [u8],
    tag: &mut [u8; 16],
) {
    let n = buf.len().div_ceil(16);
    // Keystream: block 0 is E(J0) (counter 1), then the data's counters from 2.
    let mut ks = [0u8; 16 * (MAX_LEN / 16 + 1)];
    let total = n + 1;
    let mut done = 0;
    // SAFETY: AES-NI, PCLMULQDQ and SSSE3 are enabled here; `ks` holds `total` blocks.
    unsafe {
        while done < total {
            let m = (total - done).min(8);
            let out = &mut ks[16 * done..16 * (done + m)];
            by_count!(m, keystream_n::<NR>(keys, nonce, 1 + done as u32, out));
            done += m;
        }
        let (ej0, stream) = ks.split_at(16);
        let mut y = if DEC {
            ghash(gk, aad, buf)
        } else {
            _mm_setzero_si128()
        };
        for (b, k) in buf.iter_mut().zip(stream) {
            *b ^= k;
        }
        if !DEC {
            y = ghash(gk, aad, buf);
        }
        let t = _mm_xor_si128(bswap(y), _mm_loadu_si128(ej0.as_ptr().cast()));
        _mm_storeu_si128(tag.as_mut_ptr().cast(), t);
    }
    crate::wipe::wipe(&mut ks[..16 * total]);
}

/// Encrypts (`decrypt` false) or decrypts `buf` in place under the 12-byte `nonce` and
/// returns the full tag, computed over the ciphertext (the input when decrypting). `buf`
/// is at most [`MAX_LEN`] bytes. The caller compares the tag and zeroes the output on a
/// mismatch.
#[allow(clippy::too_many_arguments)]
pub(crate) fn seal_open(
    keys: &Keys,
    _t: AesNi,
    gk: &GhashKey,
    _c: Pclmul,
    decrypt: bool,
    nonce: &[u8; 12],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    debug_assert!(buf.len() <= MAX_LEN);
    let mut tag = [0u8; 16];
    // SAFETY: the `AesNi` token proves AES-NI; the `Pclmul` token PCLMULQDQ and SSSE3.
    unsafe {
        if decrypt {
            by_rounds!(keys, kernel, true, keys, gk, nonce, aad, buf, &mut tag)
        } else {
            by_rounds!(keys, kernel, false, keys, gk, nonce, aad, buf, &mut tag)
        }
    }
    tag
}
