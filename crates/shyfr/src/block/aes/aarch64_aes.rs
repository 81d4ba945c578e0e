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
pub(super) struct Keys {
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
