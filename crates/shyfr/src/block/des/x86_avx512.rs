//! DES on AVX-512: the bitsliced core (`bitsliced.rs`) on eight 64-bit lanes, 512 blocks
//! per pass, compiled with AVX-512 enabled so that the lane loops become 512-bit
//! instructions and the three-input functions `vpternlogq`. A rest shorter than a pass
//! runs on the narrowest word that holds it (up to 64 blocks: the portable 64-bit pass),
//! a very short one block by block.
//!
//! One block at a time (the serial modes: CBC and CFB encryption, OFB, CMAC), where the
//! CPU has VBMI and BITALG, each round's 32 output bits of `f` are 32 bit look-ups
//! (`vpshufbitqmb`) side by side: lane `j` of register `i` holds the 64-bit truth table of
//! bit `8 j + i` of `f` (after P), and byte `i` of that lane the six input bits of the
//! S-box it belongs to, which one `vpmultishiftqb` cuts out of `R` (duplicated to 64 bits
//! in each lane) and one XOR keys; the eight look-ups, each kept to its own byte by a
//! write mask, OR together into `f` in a mask register. The tables and the look-ups stay
//! in registers: constant time. Without VBMI or BITALG, the AVX2 backend's one-block
//! kernel (a variant of it with AVX-512's variable rotation `vprorvq` measured only 1.5 %
//! faster).

use core::arch::x86_64::*;

use super::soft::{self, feistel_one, one_by_one, pass, FP};
use super::tables::IP;
use super::x86_avx2::{e_shift, f_bit};
use super::{bitsliced, x86_avx2, Keys, BLOCK_LEN};
use crate::cpu::x86::{Avx512, Avx512VbmiBitalg};
use crate::inout::InOut;

/// Below this many blocks the one-block path beats a bitsliced pass: with the AVX2
/// one-block kernel, and with the BITALG one.
const ONE_BELOW: usize = 12;
const ONE_BELOW_BITALG: usize = 18;

/// ECB on whole blocks.
pub(super) fn crypt(t: Avx512, keys: &Keys, decrypt: bool, mut io: InOut<'_>) {
    let k = &keys.sub[..keys.n];
    let n = io.len() / BLOCK_LEN;
    let mut i = 0;
    while n - i >= 512 {
        pass::<8>(&mut io, i, 512, |m| pass8(t, m, k, decrypt));
        i += 512;
    }
    let r = n - i;
    let bitalg = Avx512VbmiBitalg::get();
    if r < bitalg.map_or(ONE_BELOW, |_| ONE_BELOW_BITALG) {
        match bitalg {
            Some(b) => one_by_one(&mut io, i, |x| crypt_one(b, keys, x, decrypt)),
            // SAFETY: the `Avx512` token's features include AVX2.
            None => one_by_one(&mut io, i, |x| unsafe {
                x86_avx2::crypt_one_k(keys, x, decrypt)
            }),
        }
    } else if r <= 64 {
        // 512-bit code gains nothing on one lane; the portable pass is faster there.
        pass::<1>(&mut io, i, r, |m| soft::pass1(m, k, decrypt));
    } else if r <= 128 {
        pass::<2>(&mut io, i, r, |m| pass2(t, m, k, decrypt));
    } else if r <= 256 {
        pass::<4>(&mut io, i, r, |m| pass4(t, m, k, decrypt));
    } else {
        pass::<8>(&mut io, i, r, |m| pass8(t, m, k, decrypt));
    }
}

macro_rules! pass_fn {
    ($name:ident, $kernel:ident, $n:literal) => {
        fn $name(_t: Avx512, m: &mut [[u64; $n]; 64], keys: &[[u64; 16]], decrypt: bool) {
            // SAFETY: the `Avx512` token proves AVX-512 F/VL/BW.
            unsafe { $kernel(m, keys, decrypt) }
        }

        #[target_feature(enable = "avx512f,avx512vl,avx512bw")]
        fn $kernel(m: &mut [[u64; $n]; 64], keys: &[[u64; 16]], decrypt: bool) {
            bitsliced::crypt(m, keys, decrypt);
        }
    };
}
pass_fn!(pass2, kernel2, 2);
pass_fn!(pass4, kernel4, 4);
pass_fn!(pass8, kernel8, 8);

/// Constants of the one-block kernel: register `i`, lane `j` (bytes `8 j .. 8 j + 8`)
/// computes bit `q = 8 j + i` of `f` in byte `i` of the lane, which is bit `q` of the
/// look-ups' mask.
#[repr(C, align(32))]
struct BitLanes {
    /// Lane `j` of register `i`: the truth table of bit `8 j + i` of `f` ([`f_bit`]).
    tt: [[u64; 4]; 8],
    /// Byte `8 j + i`: where bit `8 j + i`'s S-box input sits in `R` duplicated to 64 bits
    /// (the `vpmultishiftqb` control; bytes of the same S-box repeat it).
    ctrl: [u8; 32],
    /// Byte `8 j + i`: that S-box's index, which picks its key chunk out of the eight.
    ksel: [u8; 32],
    /// Byte `p`: the bit of the input that bit `p` of IP's output is (bit 0 the least
    /// significant), for one `vpshufbitqmb` over the input in every lane.
    ip: [u8; 64],
    /// The same for FP.
    fp: [u8; 64],
}

const BIT: BitLanes = {
    let mut b = BitLanes {
        tt: [[0; 4]; 8],
        ctrl: [0; 32],
        ksel: [0; 32],
        ip: [0; 64],
        fp: [0; 64],
    };
    // Bit `i + 1` of the output (from the top) is bit `IP[i]` of the input (as `permute`).
    let mut i = 0;
    while i < 64 {
        b.ip[63 - i] = 64 - IP[i];
        b.fp[63 - i] = 64 - FP[i];
        i += 1;
    }
    let mut q = 0;
    while q < 32 {
        let (s, tt) = f_bit(q);
        b.tt[q % 8][q / 8] = tt;
        b.ctrl[q] = e_shift(s) as u8;
        b.ksel[q] = s as u8;
        q += 1;
    }
    b
};

/// One block (big-endian word) through DES or EDE with the VBMI + BITALG kernel.
fn crypt_one(_t: Avx512VbmiBitalg, keys: &Keys, x: u64, decrypt: bool) -> u64 {
    // SAFETY: the token proves AVX-512 F/VL/BW, VBMI and BITALG (and AVX2).
    unsafe { crypt_one_k(keys, x, decrypt) }
}

/// # Safety
/// AVX-512 F/VL/BW, VBMI and BITALG must be available.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512vbmi,avx512bitalg")]
unsafe fn crypt_one_k(keys: &Keys, x: u64, decrypt: bool) -> u64 {
    let ld = |p: *const u64| {
        // SAFETY: `p` points to 32 readable bytes of `BIT`.
        unsafe { _mm256_load_si256(p.cast()) }
    };
    let tt: [__m256i; 8] = core::array::from_fn(|i| ld(BIT.tt[i].as_ptr()));
    let ctrl = ld(BIT.ctrl.as_ptr().cast());
    let ksel = ld(BIT.ksel.as_ptr().cast());
    // SAFETY: 64 readable bytes each.
    let (ip, fp) = unsafe {
        (
            _mm512_loadu_si512(BIT.ip.as_ptr().cast()),
            _mm512_loadu_si512(BIT.fp.as_ptr().cast()),
        )
    };
    // A fixed bit permutation of the block: 64 bit look-ups in the block itself.
    let permute =
        |x: u64, idx: __m512i| _mm512_bitshuffle_epi64_mask(_mm512_set1_epi64(x as i64), idx);
    let y = feistel_one(keys, permute(x, ip), decrypt, |r, k6, _| {
        f_bitalg(r, k6, &tt, ctrl, ksel)
    });
    permute(y, fp)
}

/// `f(R, K)` for one block, the subkey as eight 6-bit chunks `k6`: see the module docs.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512vbmi,avx512bitalg")]
fn f_bitalg(r: u32, k6: &[u8; 8], tt: &[__m256i; 8], ctrl: __m256i, ksel: __m256i) -> u32 {
    // Each lane's byte `i` keyed with its S-box's chunk (off the chain: the key only).
    let key = _mm256_permutexvar_epi8(ksel, _mm256_set1_epi64x(u64::from_le_bytes(*k6) as i64));
    // R in both halves of every lane; bytes hold the S-box inputs in their low six bits.
    let idx = _mm256_xor_si256(
        _mm256_multishift_epi64_epi8(ctrl, _mm256_set1_epi32(r as i32)),
        key,
    );
    // Register `i` keeps byte `i` of every lane (its write mask): bit `8 j + i` of `f`.
    let m = |i: u32, t: __m256i| _mm256_mask_bitshuffle_epi64_mask(0x0101_0101 << i, t, idx);
    let f0 = m(0, tt[0]) | m(1, tt[1]);
    let f1 = m(2, tt[2]) | m(3, tt[3]);
    let f2 = m(4, tt[4]) | m(5, tt[5]);
    let f3 = m(6, tt[6]) | m(7, tt[7]);
    (f0 | f1) | (f2 | f3)
}
