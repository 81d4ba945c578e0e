//! DES on AVX2: the bitsliced core (`bitsliced.rs`) on four 64-bit lanes, 256 blocks per
//! pass, compiled with AVX2 enabled so that the lane loops become 256-bit instructions.
//! A rest shorter than a pass runs on the narrowest word that holds it, a very short one
//! block by block.
//!
//! One block at a time (the serial modes: CBC and CFB encryption, OFB, CMAC) each round
//! looks up its 32 output bits side by side, one per 64-bit lane of eight registers:
//! each lane computes one bit of `f(R, K)` (after P) as bit `v` of the 64-bit truth
//! table of the S-box output it takes, `v` being that S-box's six input bits. `v` comes
//! from `R` and the subkey by per-lane variable shifts (`vpsrlvq`); another (`vpsllvq`)
//! brings the table bit to the top of the lane, a constant shift to the top of byte
//! `7 - k` in register `k`, and one `vpmovmskb` of the eight registers ORed together gathers
//! all 32 bits in order. No memory index depends on data: constant time.

use core::arch::x86_64::*;

use super::soft::{feistel_one, one_by_one, pass, permute, truth_table, FP};
use super::tables::{IP, P};
use super::{bitsliced, Keys, BLOCK_LEN};
use crate::cpu::x86::Avx2;
use crate::inout::InOut;

/// Below this many blocks the one-block path beats a bitsliced pass.
const ONE_BELOW: usize = 12;

/// ECB on whole blocks.
pub(super) fn crypt(t: Avx2, keys: &Keys, decrypt: bool, mut io: InOut<'_>) {
    let k = &keys.sub[..keys.n];
    let n = io.len() / BLOCK_LEN;
    let mut i = 0;
    while n - i >= 256 {
        pass::<4>(&mut io, i, 256, |m| pass4(t, m, k, decrypt));
        i += 256;
    }
    let r = n - i;
    if r < ONE_BELOW {
        one_by_one(&mut io, i, |x| crypt_one(t, keys, x, decrypt));
    } else if r <= 64 {
        pass::<1>(&mut io, i, r, |m| pass1(t, m, k, decrypt));
    } else if r <= 128 {
        pass::<2>(&mut io, i, r, |m| pass2(t, m, k, decrypt));
    } else {
        pass::<4>(&mut io, i, r, |m| pass4(t, m, k, decrypt));
    }
}

macro_rules! pass_fn {
    ($name:ident, $kernel:ident, $n:literal) => {
        fn $name(_t: Avx2, m: &mut [[u64; $n]; 64], keys: &[[u64; 16]], decrypt: bool) {
            // SAFETY: the `Avx2` token proves AVX2.
            unsafe { $kernel(m, keys, decrypt) }
        }

        #[target_feature(enable = "avx2")]
        fn $kernel(m: &mut [[u64; $n]; 64], keys: &[[u64; 16]], decrypt: bool) {
            bitsliced::crypt(m, keys, decrypt);
        }
    };
}
pass_fn!(pass1, kernel1, 1);
pass_fn!(pass2, kernel2, 2);
pass_fn!(pass4, kernel4, 4);

/// Per-lane constants of the one-block kernel. Register `k`, lane `i` computes bit
/// `8 i + 7 - k` of `f` (bit 0 the least significant), which `vpmovmskb` reads from the top
/// bit of byte `7 - k` of lane `i`: the truth table of its S-box output bit, and the
/// shifts that bring its S-box's expansion chunk of `R` (duplicated to 64 bits) and subkey
/// chunk (48-bit subkey) to the bottom.
struct OneLanes {
    tt: [[u64; 4]; 8],
    rsh: [[u64; 4]; 8],
    ksh: [[u64; 4]; 8],
}

const ONE: OneLanes = {
    let mut l = OneLanes {
        tt: [[0; 4]; 8],
        rsh: [[0; 4]; 8],
        ksh: [[0; 4]; 8],
    };
    let mut k = 0;
    while k < 8 {
        let mut i = 0;
        while i < 4 {
            let (s, tt) = f_bit(8 * i + 7 - k);
            l.tt[k][i] = tt;
            l.rsh[k][i] = e_shift(s);
            l.ksh[k][i] = (42 - 6 * s) as u64;
            i += 1;
        }
        k += 1;
    }
    l
};

/// Bit `q` of `f(R, K)` (bit 0 the least significant): the S-box it comes out of, and
/// the 64-bit truth table of that output bit, whose bit `v` is the output for the six
/// S-box input bits `v` (the first input bit the most significant). Shared by the
/// one-block kernels.
pub(super) const fn f_bit(q: usize) -> (usize, u64) {
    // f bit q (LSB 0) is DES bit 32 - q = S-box output bit P[31 - q].
    let t = P[31 - q] as usize - 1;
    (t / 4, truth_table(t / 4, t % 4))
}

/// The right shift (or rotation) of `R` duplicated to 64 bits that brings S-box `s`'s six
/// expansion bits (E: DES bits `4 s` .. `4 s + 5` of `R`, cyclically) to the bottom, the
/// first of them the most significant.
pub(super) const fn e_shift(s: usize) -> u64 {
    ((59 - 4 * s) % 32) as u64
}

/// One block (big-endian word) through DES or EDE with the one-block kernel.
fn crypt_one(_t: Avx2, keys: &Keys, x: u64, decrypt: bool) -> u64 {
    // SAFETY: the `Avx2` token proves AVX2.
    unsafe { crypt_one_k(keys, x, decrypt) }
}

/// `f(R, K)` for one block: see the module docs.
#[inline]
#[target_feature(enable = "avx2")]
fn f1(r: u32, sub: u64, c: &[[__m256i; 8]; 3]) -> u32 {
    let [tt, rsh, ksh] = c;
    let low6 = _mm256_set1_epi64x(63);
    // R in every 32-bit half: each 64-bit lane is R duplicated.
    let rb = _mm256_set1_epi32(r as i32);
    let kb = _mm256_set1_epi64x(sub as i64);
    let bit = |k: usize| {
        let v = _mm256_xor_si256(_mm256_srlv_epi64(rb, rsh[k]), _mm256_srlv_epi64(kb, ksh[k]));
        // 63 - v: the shift that brings bit v of the table to bit 63.
        let top = _mm256_sllv_epi64(tt[k], _mm256_andnot_si256(v, low6));
        // To the top bit of byte 7 - k, nothing else.
        _mm256_and_si256(
            _mm256_srlv_epi64(top, _mm256_set1_epi64x(8 * k as i64)),
            _mm256_set1_epi64x(1 << (63 - 8 * k)),
        )
    };
    let b: [__m256i; 8] = core::array::from_fn(bit);
    let x = _mm256_or_si256(
        _mm256_or_si256(_mm256_or_si256(b[0], b[1]), _mm256_or_si256(b[2], b[3])),
        _mm256_or_si256(_mm256_or_si256(b[4], b[5]), _mm256_or_si256(b[6], b[7])),
    );
    _mm256_movemask_epi8(x) as u32
}

/// # Safety
/// AVX2 must be available.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn crypt_one_k(keys: &Keys, x: u64, decrypt: bool) -> u64 {
    let ld = |a: &[[u64; 4]; 8]| -> [__m256i; 8] {
        core::array::from_fn(|k| {
            // SAFETY: 32 readable bytes.
            unsafe { _mm256_loadu_si256(a[k].as_ptr().cast()) }
        })
    };
    let c = [ld(&ONE.tt), ld(&ONE.rsh), ld(&ONE.ksh)];
    let y = feistel_one(keys, permute(x, &IP), decrypt, |r, _, sub| f1(r, sub, &c));
    permute(y, &FP)
}
