//! AES with the ARMv8 Cryptographic Extension (Arm ARM, AESE/AESD/AESMC/AESIMC).
//!
//! AESE is AddRoundKey + SubBytes + ShiftRows and AESMC is MixColumns, so round `r` of
//! FIPS 197 is `AESMC(AESE(s, k[r]))` and the last round key is a plain XOR. Eight blocks
//! are kept in flight; cores fuse AESE+AESMC pairs, so the pairs are kept adjacent.

use core::arch::aarch64::*;

use super::{expand_key, Block};
use crate::cpu::aarch64::AesCe;
use crate::inout::InOut;

/// Round keys for encryption and for the equivalent inverse cipher (FIPS 197 5.3.5).
#[derive(Clone)]
pub(crate) struct Keys {
    enc: [Block; 15],
    dec: [Block; 15],
    rounds: usize,
}

impl Drop for Keys {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.enc);
        zeroize::Zeroize::zeroize(&mut self.dec);
    }
}

impl Keys {
    /// The encryption round keys (`rounds() + 1` of them used).
    pub(crate) fn enc_keys(&self) -> &[Block; 15] {
        &self.enc
    }

    /// The number of rounds: 10, 12 or 14.
    pub(crate) fn rounds(&self) -> usize {
        self.rounds
    }

    pub(super) fn new(key: &[u8], t: AesCe) -> Self {
        let mut k = Keys {
            enc: [[0; 16]; 15],
            dec: [[0; 16]; 15],
            rounds: 0,
        };
        // SAFETY: the token proves the AES instructions.
        unsafe { expand(key, &mut k, t) };
        k
    }
}

#[target_feature(enable = "aes")]
fn sub_word(w: u32) -> u32 {
    // With the word in all four columns ShiftRows moves nothing that differs, so AESE with
    // a zero round key is SubWord on every column.
    let x = vaeseq_u8(vreinterpretq_u8_u32(vdupq_n_u32(w)), vdupq_n_u8(0));
    vgetq_lane_u32::<0>(vreinterpretq_u32_u8(x))
}

#[target_feature(enable = "aes")]
fn expand(key: &[u8], k: &mut Keys, _t: AesCe) {
    let nr = expand_key(key, |w| sub_word(w), &mut k.enc);
    k.rounds = nr;
    k.dec[0] = k.enc[nr];
    k.dec[nr] = k.enc[0];
    for i in 1..nr {
        // SAFETY: `Block` is 16 readable/writable bytes.
        unsafe {
            let x = vld1q_u8(k.enc[nr - i].as_ptr());
            vst1q_u8(k.dec[i].as_mut_ptr(), vaesimcq_u8(x));
        }
    }
}

/// ECB on `W` blocks at a time from block `start` while whole groups of `W` remain below
/// `end`; returns the first block not processed.
#[inline]
#[target_feature(enable = "aes")]
fn ecb<const W: usize, const NR: usize, const DEC: bool>(
    k: &[uint8x16_t; 15],
    io: &mut InOut<'_>,
    start: usize,
    end: usize,
) -> usize {
    let src = io.src_ptr();
    let dst = io.dst_ptr();
    let mut i = start;
    while i + W <= end {
        // SAFETY: blocks `i..i + W` lie below `end <= io.len() / 16`.
        unsafe {
            let mut b: [uint8x16_t; W] = core::array::from_fn(|j| vld1q_u8(src.add((i + j) * 16)));
            for kr in &k[..NR - 1] {
                for x in b.iter_mut() {
                    *x = if DEC {
                        vaesimcq_u8(vaesdq_u8(*x, *kr))
                    } else {
                        vaesmcq_u8(vaeseq_u8(*x, *kr))
                    };
                }
            }
            for (j, x) in b.iter().enumerate() {
                let y = if DEC {
                    vaesdq_u8(*x, k[NR - 1])
                } else {
                    vaeseq_u8(*x, k[NR - 1])
                };
                vst1q_u8(dst.add((i + j) * 16), veorq_u8(y, k[NR]));
            }
        }
        i += W;
    }
    i
}

#[target_feature(enable = "aes")]
fn kernel<const NR: usize, const DEC: bool>(keys: &Keys, mut io: InOut<'_>) {
    let rk = if DEC { &keys.dec } else { &keys.enc };
    // SAFETY: each round key is 16 readable bytes.
    let k: [uint8x16_t; 15] = core::array::from_fn(|i| unsafe { vld1q_u8(rk[i].as_ptr()) });
    let n = io.len() / 16;
    let i = ecb::<8, NR, DEC>(&k, &mut io, 0, n);
    let i = ecb::<4, NR, DEC>(&k, &mut io, i, n);
    let i = ecb::<2, NR, DEC>(&k, &mut io, i, n);
    ecb::<1, NR, DEC>(&k, &mut io, i, n);
}

fn run<const DEC: bool>(keys: &Keys, _t: AesCe, io: InOut<'_>) {
    // SAFETY: the `AesCe` token proves the AES instructions.
    unsafe {
        match keys.rounds {
            10 => kernel::<10, DEC>(keys, io),
            12 => kernel::<12, DEC>(keys, io),
            _ => kernel::<14, DEC>(keys, io),
        }
    }
}

/// Encrypts the whole blocks of `io`.
pub(super) fn encrypt(keys: &Keys, t: AesCe, io: InOut<'_>) {
    run::<false>(keys, t, io)
}

/// Decrypts the whole blocks of `io`.
pub(super) fn decrypt(keys: &Keys, t: AesCe, io: InOut<'_>) {
    run::<true>(keys, t, io)
}

// ---- Fused mode kernels ----

use super::Serial;

/// The round keys of one direction as registers.
#[inline]
#[target_feature(enable = "aes")]
fn load_keys<const DEC: bool>(keys: &Keys) -> [uint8x16_t; 15] {
    let rk = if DEC { &keys.dec } else { &keys.enc };
    // SAFETY: each round key is 16 readable bytes.
    core::array::from_fn(|i| unsafe { vld1q_u8(rk[i].as_ptr()) })
}

/// The encryption rounds on `x` but the final AddRoundKey (`x ^ k[NR]` completes them).
#[inline]
#[target_feature(enable = "aes")]
fn enc_rounds<const NR: usize>(k: &[uint8x16_t; 15], x: uint8x16_t, k0: uint8x16_t) -> uint8x16_t {
    let mut s = vaesmcq_u8(vaeseq_u8(x, k0));
    for kr in &k[1..NR - 1] {
        s = vaesmcq_u8(vaeseq_u8(s, *kr));
    }
    vaeseq_u8(s, k[NR - 1])
}

/// CTR on `W` blocks at a time from block `start` while whole groups remain below `end`.
/// `base`: the counter block with its last word little-endian (`rev32`).
#[inline]
#[target_feature(enable = "aes")]
fn ctr<const W: usize, const NR: usize>(
    k: &[uint8x16_t; 15],
    io: &mut InOut<'_>,
    base: uint32x4_t,
    start: usize,
    end: usize,
) -> usize {
    let src = io.src_ptr();
    let dst = io.dst_ptr();
    let mut i = start;
    while i + W <= end {
        // SAFETY: blocks `i..i + W` lie below `end <= io.len() / 16`.
        unsafe {
            let mut b: [uint8x16_t; W] = core::array::from_fn(|j| {
                let inc = vsetq_lane_u32::<3>((i + j) as u32, vdupq_n_u32(0));
                vrev32q_u8(vreinterpretq_u8_u32(vaddq_u32(base, inc)))
            });
            for kr in &k[..NR - 1] {
                for x in b.iter_mut() {
                    *x = vaesmcq_u8(vaeseq_u8(*x, *kr));
                }
            }
            for (j, x) in b.iter().enumerate() {
                let y = veorq_u8(vaeseq_u8(*x, k[NR - 1]), k[NR]);
                let off = (i + j) * 16;
                vst1q_u8(dst.add(off), veorq_u8(y, vld1q_u8(src.add(off))));
            }
        }
        i += W;
    }
    i
}

#[target_feature(enable = "aes")]
fn ctr_kernel<const NR: usize>(keys: &Keys, c: &Block, mut io: InOut<'_>) {
    let k = load_keys::<false>(keys);
    // SAFETY: `c` is 16 readable bytes.
    let base = unsafe { vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(c.as_ptr()))) };
    let n = io.len() / 16;
    let i = ctr::<8, NR>(&k, &mut io, base, 0, n);
    let i = ctr::<4, NR>(&k, &mut io, base, i, n);
    let i = ctr::<2, NR>(&k, &mut io, base, i, n);
    ctr::<1, NR>(&k, &mut io, base, i, n);
}

/// CBC (`DEC`) or CFB (`!DEC`) decryption of `W` blocks at a time; `iv` is the ciphertext
/// block before `start` and becomes the last one processed.
#[inline]
#[target_feature(enable = "aes")]
fn chain_group<const W: usize, const NR: usize, const DEC: bool>(
    k: &[uint8x16_t; 15],
    io: &mut InOut<'_>,
    iv: &mut uint8x16_t,
    start: usize,
    end: usize,
) -> usize {
    let src = io.src_ptr();
    let dst = io.dst_ptr();
    let mut i = start;
    while i + W <= end {
        // SAFETY: blocks `i..i + W` lie below `end`; all loads precede the stores.
        unsafe {
            let c: [uint8x16_t; W] = core::array::from_fn(|j| vld1q_u8(src.add((i + j) * 16)));
            let prev: [uint8x16_t; W] =
                core::array::from_fn(|j| if j == 0 { *iv } else { c[j - 1] });
            let mut b: [uint8x16_t; W] = if DEC { c } else { prev };
            for kr in &k[..NR - 1] {
                for x in b.iter_mut() {
                    *x = if DEC {
                        vaesimcq_u8(vaesdq_u8(*x, *kr))
                    } else {
                        vaesmcq_u8(vaeseq_u8(*x, *kr))
                    };
                }
            }
            for (j, x) in b.iter().enumerate() {
                let y = if DEC {
                    veorq_u8(veorq_u8(vaesdq_u8(*x, k[NR - 1]), k[NR]), prev[j])
                } else {
                    veorq_u8(veorq_u8(vaeseq_u8(*x, k[NR - 1]), k[NR]), c[j])
                };
                vst1q_u8(dst.add((i + j) * 16), y);
            }
            *iv = c[W - 1];
        }
        i += W;
    }
    i
}

#[target_feature(enable = "aes")]
fn chain_kernel<const NR: usize, const DEC: bool>(keys: &Keys, iv: &mut Block, mut io: InOut<'_>) {
    let k = load_keys::<DEC>(keys);
    // SAFETY: `iv` is 16 readable bytes.
    let mut v = unsafe { vld1q_u8(iv.as_ptr()) };
    let n = io.len() / 16;
    let i = chain_group::<8, NR, DEC>(&k, &mut io, &mut v, 0, n);
    let i = chain_group::<4, NR, DEC>(&k, &mut io, &mut v, i, n);
    let i = chain_group::<2, NR, DEC>(&k, &mut io, &mut v, i, n);
    chain_group::<1, NR, DEC>(&k, &mut io, &mut v, i, n);
    // SAFETY: `iv` is 16 writable bytes.
    unsafe { vst1q_u8(iv.as_mut_ptr(), v) };
}

/// XTS on `W` blocks at a time; `tweak` is the tweak of block `start` and becomes that of
/// the first block not processed.
#[inline]
#[target_feature(enable = "aes")]
fn xts_group<const W: usize, const NR: usize, const DEC: bool>(
    k: &[uint8x16_t; 15],
    io: &mut InOut<'_>,
    tweak: &mut Block,
    start: usize,
    end: usize,
) -> usize {
    let src = io.src_ptr();
    let dst = io.dst_ptr();
    let mut i = start;
    while i + W <= end {
        let mut tws = [[0u8; 16]; W];
        for t in tws.iter_mut() {
            *t = *tweak;
            crate::mode::generic::xts_mul_x(tweak);
        }
        // SAFETY: blocks `i..i + W` lie below `end`; all loads precede the stores.
        unsafe {
            let tw: [uint8x16_t; W] = core::array::from_fn(|j| vld1q_u8(tws[j].as_ptr()));
            let mut b: [uint8x16_t; W] =
                core::array::from_fn(|j| veorq_u8(vld1q_u8(src.add((i + j) * 16)), tw[j]));
            for kr in &k[..NR - 1] {
                for x in b.iter_mut() {
                    *x = if DEC {
                        vaesimcq_u8(vaesdq_u8(*x, *kr))
                    } else {
                        vaesmcq_u8(vaeseq_u8(*x, *kr))
                    };
                }
            }
            for (j, x) in b.iter().enumerate() {
                let y = if DEC {
                    vaesdq_u8(*x, k[NR - 1])
                } else {
                    vaeseq_u8(*x, k[NR - 1])
                };
                vst1q_u8(dst.add((i + j) * 16), veorq_u8(veorq_u8(y, k[NR]), tw[j]));
            }
        }
        zeroize::Zeroize::zeroize(&mut tws);
        i += W;
    }
    i
}

#[target_feature(enable = "aes")]
fn xts_kernel<const NR: usize, const DEC: bool>(keys: &Keys, tweak: &mut Block, mut io: InOut<'_>) {
    let k = load_keys::<DEC>(keys);
    let n = io.len() / 16;
    let i = xts_group::<8, NR, DEC>(&k, &mut io, tweak, 0, n);
    let i = xts_group::<4, NR, DEC>(&k, &mut io, tweak, i, n);
    let i = xts_group::<2, NR, DEC>(&k, &mut io, tweak, i, n);
    xts_group::<1, NR, DEC>(&k, &mut io, tweak, i, n);
}

/// A serial mode, one block at a time; the chain is `NR` AESE (+ `NR - 1` AESMC) per
/// block: what the next block's input adds to this block's output is folded into the
/// key of the next block's first AESE (`AESE(t, a ^ b) = AESE(t ^ a, b)`).
///
/// # Safety
///
/// `src` readable, `dst` writable (unless `Mac`) for `16 * n` bytes.
#[target_feature(enable = "aes")]
unsafe fn serial_kernel<const NR: usize>(
    keys: &Keys,
    mode: Serial,
    iv: &mut Block,
    src: *const u8,
    dst: *mut u8,
    n: usize,
) {
    if n == 0 {
        return;
    }
    let k = load_keys::<false>(keys);
    // SAFETY: pointers stay within `16 * n` bytes; `iv` is 16 bytes.
    unsafe {
        let load = |i: usize| vld1q_u8(src.add(16 * i));
        let zero = vdupq_n_u8(0);
        let v = vld1q_u8(iv.as_ptr());
        let mut x = match mode {
            Serial::CbcEnc | Serial::Mac => veorq_u8(v, load(0)),
            Serial::CfbEnc | Serial::Ofb => v,
        };
        let mut key0 = k[0];
        let mut last = v;
        let kk = veorq_u8(k[NR], k[0]);
        for i in 0..n {
            let t = enc_rounds::<NR>(&k, x, key0);
            let fb = veorq_u8(t, k[NR]);
            let p = if matches!(mode, Serial::CfbEnc | Serial::Ofb) {
                load(i)
            } else {
                zero
            };
            match mode {
                Serial::CbcEnc => vst1q_u8(dst.add(16 * i), fb),
                Serial::CfbEnc | Serial::Ofb => vst1q_u8(dst.add(16 * i), veorq_u8(fb, p)),
                Serial::Mac => {}
            }
            last = if mode == Serial::CfbEnc {
                veorq_u8(fb, p)
            } else {
                fb
            };
            if i + 1 < n {
                let m = match mode {
                    Serial::CbcEnc | Serial::Mac => load(i + 1),
                    Serial::CfbEnc => p,
                    Serial::Ofb => zero,
                };
                x = t;
                key0 = veorq_u8(kk, m);
            }
        }
        vst1q_u8(iv.as_mut_ptr(), last);
    }
}

macro_rules! by_rounds_arm {
    ($keys:expr, $f:ident [$($c:tt)*] ($($arg:expr),*)) => {
        match $keys.rounds {
            10 => $f::<10 $($c)*>($($arg),*),
            12 => $f::<12 $($c)*>($($arg),*),
            _ => $f::<14 $($c)*>($($arg),*),
        }
    };
}

/// CTR over the whole blocks of `io` from counter block `c` (last word not wrapping).
pub(super) fn ctr32(keys: &Keys, _t: AesCe, c: &Block, io: InOut<'_>) {
    // SAFETY: the `AesCe` token proves the AES instructions.
    unsafe { by_rounds_arm!(keys, ctr_kernel[](keys, c, io)) }
}

/// CBC (`cbc`) or CFB (`!cbc`) decryption of the whole blocks of `io`.
pub(super) fn chain_dec(keys: &Keys, _t: AesCe, iv: &mut Block, io: InOut<'_>, cbc: bool) {
    // SAFETY: the `AesCe` token proves the AES instructions.
    unsafe {
        if cbc {
            by_rounds_arm!(keys, chain_kernel[, true](keys, iv, io))
        } else {
            by_rounds_arm!(keys, chain_kernel[, false](keys, iv, io))
        }
    }
}

/// XTS over the whole blocks of `io` with the encrypted tweak `tweak`.
pub(super) fn xts(keys: &Keys, _t: AesCe, tweak: &mut Block, io: InOut<'_>, dec: bool) {
    // SAFETY: the `AesCe` token proves the AES instructions.
    unsafe {
        if dec {
            by_rounds_arm!(keys, xts_kernel[, true](keys, tweak, io))
        } else {
            by_rounds_arm!(keys, xts_kernel[, false](keys, tweak, io))
        }
    }
}

/// A serial mode over `n` blocks at `src`, written to `dst` (unless [`Serial::Mac`]).
///
/// # Safety
///
/// `src` is readable and `dst` writable (they may be equal) for `16 * n` bytes.
pub(super) unsafe fn serial(
    keys: &Keys,
    _t: AesCe,
    mode: Serial,
    iv: &mut Block,
    src: *const u8,
    dst: *mut u8,
    n: usize,
) {
    // SAFETY: the token proves the AES instructions; the caller vouches for the pointers.
    unsafe { by_rounds_arm!(keys, serial_kernel[](keys, mode, iv, src, dst, n)) }
}

/// The keystream block `E(counter i)` of CCM's counter mode (`base`: the counter block
/// with its last word little-endian).
#[inline]
#[target_feature(enable = "aes")]
fn ccm_keystream<const NR: usize>(k: &[uint8x16_t; 15], base: uint32x4_t, i: usize) -> uint8x16_t {
    let inc = vsetq_lane_u32::<3>(i as u32, vdupq_n_u32(0));
    let x = vrev32q_u8(vreinterpretq_u8_u32(vaddq_u32(base, inc)));
    veorq_u8(enc_rounds::<NR>(k, x, k[0]), k[NR])
}

/// CCM's bulk pass: counter mode and the CBC-MAC of the plaintext (the input when
/// `!DEC`, the output when `DEC`) in one loop. The MAC chain is `NR` AESE per block with
/// the next plaintext block folded into its first round key (as in [`serial_kernel`]);
/// the counter blocks, which depend only on their index, run in its latency shadow
/// (when decrypting, block `i + 1`'s keystream is computed in iteration `i`).
///
/// # Safety
///
/// `src` readable and `dst` writable for `16 * n` bytes; the last word of `c` does not
/// wrap within `n` blocks.
#[target_feature(enable = "aes")]
unsafe fn ccm_kernel<const NR: usize, const DEC: bool>(
    keys: &Keys,
    mac: &mut Block,
    c: &Block,
    src: *const u8,
    dst: *mut u8,
    n: usize,
) {
    if n == 0 {
        return;
    }
    let k = load_keys::<false>(keys);
    // SAFETY: pointers stay within `16 * n` bytes; `mac` and `c` are 16 bytes.
    unsafe {
        let base = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(c.as_ptr())));
        let load = |i: usize| vld1q_u8(src.add(16 * i));
        let store = |i: usize, v: uint8x16_t| vst1q_u8(dst.add(16 * i), v);
        let mut p = load(0);
        if DEC {
            p = veorq_u8(p, ccm_keystream::<NR>(&k, base, 0));
            store(0, p);
        }
        let mut x = veorq_u8(vld1q_u8(mac.as_ptr()), p);
        let mut key0 = k[0];
        let kk = veorq_u8(k[NR], k[0]);
        for i in 0..n {
            if !DEC {
                store(i, veorq_u8(p, ccm_keystream::<NR>(&k, base, i)));
            }
            let t = enc_rounds::<NR>(&k, x, key0);
            if i + 1 < n {
                p = load(i + 1);
                if DEC {
                    p = veorq_u8(p, ccm_keystream::<NR>(&k, base, i + 1));
                    store(i + 1, p);
                }
                x = t;
                key0 = veorq_u8(kk, p);
            } else {
                vst1q_u8(mac.as_mut_ptr(), veorq_u8(t, k[NR]));
            }
        }
    }
}

/// CCM's bulk pass over `n` blocks at `src`, written to `dst`; `dec`: the input is the
/// ciphertext.
///
/// # Safety
///
/// `src` is readable and `dst` writable (they may be equal) for `16 * n` bytes, and the
/// last word of `c` does not wrap within `n` blocks.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn ccm(
    keys: &Keys,
    _t: AesCe,
    mac: &mut Block,
    c: &Block,
    src: *const u8,
    dst: *mut u8,
    n: usize,
    dec: bool,
) {
    // SAFETY: the token proves the AES instructions; the caller vouches for the pointers.
    unsafe {
        if dec {
            by_rounds_arm!(keys, ccm_kernel[, true](keys, mac, c, src, dst, n))
        } else {
            by_rounds_arm!(keys, ccm_kernel[, false](keys, mac, c, src, dst, n))
        }
    }
}
