//! Modular exponentiation with AVX-512 IFMA: numbers in 52-bit digits, four digits a 256-bit
//! register, almost-Montgomery multiplication (results stay below `2n`, reduced once at
//! the end), and two moduli of the same size — the RSA CRT halves — interleaved in one
//! loop so that the serial part of one (the Montgomery quotient digit) overlaps the other's
//! multiply-adds.
//!
//! The technique is that of Gueron and Krasnov, "Accelerating big integer arithmetic using
//! Intel IFMA extensions" (ARITH 2016), as used by OpenSSL's and AWS-LC's `rsaz-avx512`:
//! `vpmadd52luq`/`vpmadd52huq` add the low and high 52 bits of 52x52-bit products to 64-bit
//! lanes, leaving room for the accumulation of many products without carry handling; the
//! accumulator moves down one digit per step of the digit-serial Montgomery loop, so the
//! high halves are added after the shift with the same operand registers. This code is our
//! own (Rust intrinsics, any size from 1024 to 6600 bits through a const-generic register
//! count, carry normalisation by a carry-lookahead on lane masks).
//!
//! Constant time: every loop count depends on the sizes only; the window table is read by
//! comparing every entry's index with the secret one under vector masks.

// Register arrays are indexed in step with each other; iterators would obscure that.
#![allow(clippy::needless_range_loop)]

use alloc::vec;
use alloc::vec::Vec;
use core::arch::x86_64::*;

use super::limbs;
use super::monty::window_at;
use super::{BoxedUint, Modulus};
use crate::cpu::x86::Ifma;

const MASK: u64 = (1 << 52) - 1;
/// Window width of the exponentiation (table of 32 entries).
const WIN: usize = 5;

/// Digits (and steps of the multiplication) for a modulus of `bits` bits: `4n < 2^(52 S)`.
fn steps(bits: usize) -> usize {
    (bits + 2).div_ceil(52)
}

/// A modulus prepared for IFMA exponentiation.
#[derive(Clone)]
pub(crate) struct Params {
    /// Registers of four digits per number.
    regs: usize,
    /// Digit-serial steps of a multiplication, `S`: the digits of `4n` (`R' = 2^(52 S)`).
    /// Fewer than the `4 regs` digits held when the size is not a multiple of 208 bits
    /// (30 of 32 for the 1536-bit halves of RSA-3072): the digits above `S` of every
    /// operand below `2n` are zero, so the steps for them would only multiply by zero.
    steps: usize,
    /// `n` in `4 regs` 52-bit digits.
    n: Vec<u64>,
    /// `-n^{-1} mod 2^52`.
    k0: u64,
    /// `R'^2 mod n` in digits, `R' = 2^(52 steps)`.
    rr: Vec<u64>,
    /// The modulus in 64-bit limbs (the final reduction).
    n_limbs: Vec<u64>,
    token: Ifma,
}

impl Drop for Params {
    /// The modulus may be a secret prime: its digits are wiped.
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.n[..]);
        zeroize::Zeroize::zeroize(&mut self.rr[..]);
        zeroize::Zeroize::zeroize(&mut self.n_limbs[..]);
        self.k0 = 0;
    }
}

impl core::fmt::Debug for Params {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "ifma::Params({} digits)", self.regs * 4)
    }
}

/// The register counts with a compiled kernel (4 digits each): 1000..16638-bit moduli.
const SUPPORTED: &[usize] = &[5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 64, 80];

/// Words of the lane masks in `normalize` (one bit a lane, 320 lanes = 80 registers).
const MASK_WORDS: usize = 5;

/// Smallest modulus (bits) for which the IFMA kernels are used.
pub(crate) const MIN_BITS: usize = 1000;

impl Params {
    /// Prepares `m` (of `bits` bits); `None` when the size has no IFMA kernel (the limb
    /// kernels are used then).
    pub(crate) fn new(m: &Modulus, bits: usize, token: Ifma) -> Option<Self> {
        if bits < MIN_BITS {
            return None;
        }
        // R' = 2^(52 S) > 4n for S = `steps(bits)` digits; the registers hold D >= S.
        let steps = steps(bits);
        let regs = *SUPPORTED.iter().find(|&&r| 4 * r >= steps)?;
        let d = regs * 4;
        let n_limbs = m.modulus().as_limbs().to_vec();
        let n = to_digits(&n_limbs, d);
        let k0 = limbs::neg_inv_u64(n_limbs[0]) & MASK;
        // R'^2 mod n = 2^(104 S) mod n
        let two = BoxedUint::from_u64(2, 1);
        let e = BoxedUint::from_u64(104 * steps as u64, 1);
        let rr = to_digits(m.pow_vartime(&two, &e).as_limbs(), d);
        Some(Params {
            regs,
            steps,
            n,
            k0,
            rr,
            n_limbs,
            token,
        })
    }

    /// `b^e mod n` for `b < n` (constant time).
    pub(crate) fn pow(&self, b: &BoxedUint, e: &BoxedUint) -> BoxedUint {
        let d = self.regs * 4;
        let mut bd = to_digits(b.as_limbs(), d);
        let mut out = vec![0u64; d];
        macro_rules! go {
            ($($r:literal)*) => {
                match self.regs {
                    $(
                        // SAFETY: `self.token` proves AVX-512F/VL and IFMA.
                        $r => unsafe { pow1::<$r>(&mut out, &bd, e.as_limbs(), &self.n, self.k0, &self.rr) },
                    )*
                    _ => unreachable!(),
                }
            };
        }
        let _ = self.token;
        go!(5 6 7 8 10 12 14 16 20 24 28 32 40 48 64 80);
        let r = self.finish(&out);
        wipe(&mut [&mut bd, &mut out]);
        r
    }

    /// `(b1^e1 mod n1, b2^e2 mod n2)` with both exponentiations in one loop, when the two
    /// moduli have the same digit count and the exponents the same width; else `None`.
    pub(crate) fn pow_pair(
        p1: &Params,
        b1: &BoxedUint,
        e1: &BoxedUint,
        p2: &Params,
        b2: &BoxedUint,
        e2: &BoxedUint,
    ) -> Option<(BoxedUint, BoxedUint)> {
        if p1.regs != p2.regs || p1.steps != p2.steps || e1.nlimbs() != e2.nlimbs() {
            return None;
        }
        let d = p1.regs * 4;
        let mut bd1 = to_digits(b1.as_limbs(), d);
        let mut bd2 = to_digits(b2.as_limbs(), d);
        let mut o1 = vec![0u64; d];
        let mut o2 = vec![0u64; d];
        let x = Pair {
            n: [&p1.n, &p2.n],
            k0: [p1.k0, p2.k0],
            rr: [&p1.rr, &p2.rr],
        };
        macro_rules! go {
            ($($r:literal)*) => {
                match p1.regs {
                    $(
                        // SAFETY: `p1.token` proves AVX-512F/VL and IFMA.
                        $r => unsafe { pow2::<$r>([&mut o1, &mut o2], [&bd1, &bd2], [e1.as_limbs(), e2.as_limbs()], &x) },
                    )*
                    _ => unreachable!(),
                }
            };
        }
        let _ = p1.token;
        go!(5 6 7 8 10 12 14 16 20 24 28 32 40 48 64 80);
        let r = (p1.finish(&o1), p2.finish(&o2));
        wipe(&mut [&mut bd1, &mut bd2, &mut o1, &mut o2]);
        Some(r)
    }

    /// `b^e mod n` for `b < n` and a **public** exponent (square-and-multiply that branches
    /// on the bits of `e`).
    pub(crate) fn pow_vartime(&self, b: &BoxedUint, e: &BoxedUint) -> BoxedUint {
        let d = self.regs * 4;
        let mut bd = to_digits(b.as_limbs(), d);
        let mut out = vec![0u64; d];
        macro_rules! go {
            ($($r:literal)*) => {
                match self.regs {
                    $(
                        // SAFETY: `self.token` proves AVX-512F/VL and IFMA.
                        $r => unsafe { pow1_vartime::<$r>(&mut out, &bd, e, &self.n, self.k0, &self.rr) },
                    )*
                    _ => unreachable!(),
                }
            };
        }
        let _ = self.token;
        go!(5 6 7 8 10 12 14 16 20 24 28 32 40 48 64 80);
        let r = self.finish(&out);
        wipe(&mut [&mut bd, &mut out]);
        r
    }

    /// `a b mod n` for `a, b < n` (constant time): two almost-Montgomery products, by `b`
    /// and by `R'^2`.
    pub(crate) fn mul(&self, a: &BoxedUint, b: &BoxedUint) -> BoxedUint {
        let d = self.regs * 4;
        let mut ad = to_digits(a.as_limbs(), d);
        let mut bd = to_digits(b.as_limbs(), d);
        let mut out = vec![0u64; d];
        macro_rules! go {
            ($($r:literal)*) => {
                match self.regs {
                    $(
                        // SAFETY: `self.token` proves AVX-512F/VL and IFMA.
                        $r => unsafe { mul1::<$r>(&mut out, &ad, &bd, &self.n, self.k0, &self.rr) },
                    )*
                    _ => unreachable!(),
                }
            };
        }
        let _ = self.token;
        go!(5 6 7 8 10 12 14 16 20 24 28 32 40 48 64 80);
        let r = self.finish(&out);
        wipe(&mut [&mut ad, &mut bd, &mut out]);
        r
    }

    /// Digits of a value in `[0, n]` to the fully reduced residue in limbs.
    fn finish(&self, digits: &[u64]) -> BoxedUint {
        let l = self.n_limbs.len();
        let mut v = from_digits(digits, l + 1);
        let hi = v.pop().unwrap_or(0);
        let t = v.clone();
        super::soft::final_sub(&mut v, &t, hi, &self.n_limbs);
        let r = BoxedUint::from_limbs(&v);
        zeroize::Zeroize::zeroize(&mut v[..]);
        r
    }
}

struct Pair<'a> {
    n: [&'a [u64]; 2],
    k0: [u64; 2],
    rr: [&'a [u64]; 2],
}

/// Zeroes digit buffers that held secrets.
fn wipe(bufs: &mut [&mut Vec<u64>]) {
    for b in bufs.iter_mut() {
        zeroize::Zeroize::zeroize(&mut b[..]);
    }
}

/// 64-bit limbs to `d` 52-bit digits (the value must fit).
fn to_digits(x: &[u64], d: usize) -> Vec<u64> {
    let mut out = vec![0u64; d];
    for (j, o) in out.iter_mut().enumerate() {
        let bit = 52 * j;
        let (l, s) = (bit / 64, bit % 64);
        let lo = x.get(l).copied().unwrap_or(0) >> s;
        let hi = if s > 12 {
            x.get(l + 1).copied().unwrap_or(0) << (64 - s)
        } else {
            0
        };
        *o = (lo | hi) & MASK;
    }
    out
}

/// Normalised 52-bit digits to `l` 64-bit limbs (bits past `64 l` dropped).
fn from_digits(d: &[u64], l: usize) -> Vec<u64> {
    let mut out = vec![0u64; l];
    for (j, &v) in d.iter().enumerate() {
        let bit = 52 * j;
        let (k, s) = (bit / 64, bit % 64);
        if k < l {
            out[k] |= v << s;
        }
        if s > 12 && k + 1 < l {
            out[k + 1] |= v >> (64 - s);
        }
    }
    out
}

/// Four digits from `s[4 j..4 j + 4]`.
#[inline(always)]
fn load(s: &[u64], j: usize) -> __m256i {
    let c: &[u64; 4] = s[4 * j..4 * j + 4].try_into().expect("four digits");
    // SAFETY: `c` is 32 readable bytes; the unaligned load has no alignment requirement.
    unsafe { _mm256_loadu_si256(c.as_ptr().cast()) }
}

/// Stores four digits to `s[4 j..4 j + 4]`.
#[inline(always)]
fn store(s: &mut [u64], j: usize, v: __m256i) {
    let c: &mut [u64; 4] = (&mut s[4 * j..4 * j + 4]).try_into().expect("four digits");
    // SAFETY: `c` is 32 writable bytes; the unaligned store has no alignment requirement.
    unsafe { _mm256_storeu_si256(c.as_mut_ptr().cast(), v) }
}

/// [`amm_step`] with the quotient digit and the carry computed in scalar registers and the
/// products of `a` chained on the accumulator: one multiply-add and one add a register
/// fewer a step at the price of a longer chain, which the other multiplication hides; for
/// two interleaved multiplications ([`amm2`]) this form was faster on Zen 4 (170 against
/// 186 ns at 20 digits, standalone timing), and 162 ns with `b_i` broadcast from memory
/// and `b_{i-1}` kept in a register (`bv`, `bp`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn amm_step_scalar<const N: usize>(
    acc: &mut [__m256i; N],
    a: &[__m256i; N],
    n: &[__m256i; N],
    n1: &[__m256i; N],
    bv: __m256i,
    bp: __m256i,
    k0: u64,
    n0: u64,
) {
    // SAFETY: as in `amm_step`.
    unsafe {
        let z = _mm256_setzero_si256();
        let p = _mm256_madd52hi_epu64(_mm256_madd52lo_epu64(z, a[0], bv), a[0], bp);
        acc[0] = _mm256_add_epi64(acc[0], p);
        for j in 1..N {
            acc[j] = _mm256_madd52hi_epu64(_mm256_madd52lo_epu64(acc[j], a[j], bv), a[j], bp);
        }
        let t0 = _mm_cvtsi128_si64(_mm256_castsi256_si128(acc[0])) as u64;
        let m = t0.wrapping_mul(k0);
        let carry = (t0.wrapping_add(n0.wrapping_mul(m) & MASK)) >> 52;
        let mv = _mm256_set1_epi64x(m as i64);
        for j in 0..N - 1 {
            acc[j] = _mm256_alignr_epi64::<1>(acc[j + 1], acc[j]);
        }
        acc[N - 1] = _mm256_alignr_epi64::<1>(z, acc[N - 1]);
        let h0 = _mm256_madd52hi_epu64(
            _mm256_zextsi128_si256(_mm_cvtsi64_si128(carry as i64)),
            n[0],
            mv,
        );
        acc[0] = _mm256_add_epi64(_mm256_madd52lo_epu64(acc[0], n1[0], mv), h0);
        for j in 1..N {
            acc[j] = _mm256_madd52hi_epu64(_mm256_madd52lo_epu64(acc[j], n1[j], mv), n[j], mv);
        }
    }
}

/// One step `i` of the digit-serial almost-Montgomery loop for one modulus.
///
/// Positions: before the step, lane `j` of the accumulator is digit `i + j` of the running
/// sum. The step adds `lo(a_j b_i) + hi(a_j b_{i-1})`, takes the quotient digit
/// `m = t_0 k0 mod 2^52` and the carry of the vanishing digit, shifts the accumulator down
/// one lane, and adds `lo(n_{j+1} m) + hi(n_j m)` (with `n1` = `n` shifted down one lane)
/// and the carry.
///
/// The dependency chain from one step to the next is kept short (this is what limits a
/// single multiplication, [`amm1`]: 123 -> 113 ns at 20 digits on Zen 4 against the
/// earlier form that chained every multiply-add on the accumulator): the products of `a`
/// are formed from zero and added with one add a register; the quotient digit is formed
/// and broadcast in vector registers; the carry is taken from `t_0` alone, since
/// `t_0 + lo(n_0 m)` is `t_0` rounded up to a multiple of `2^52`: it is
/// `(t_0 + 2^52 - 1) >> 52` and does not wait for `m`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn amm_step<const N: usize>(
    acc: &mut [__m256i; N],
    a: &[__m256i; N],
    n: &[__m256i; N],
    n1: &[__m256i; N],
    bi: u64,
    bprev: u64,
    k0v: __m256i,
    maskv: __m256i,
) {
    // SAFETY: (the whole function) only called from the `#[target_feature]` kernels below,
    // which run on a CPU with AVX-512F/VL and IFMA (their callers hold the `Ifma` token).
    unsafe {
        let z = _mm256_setzero_si256();
        let bv = _mm256_set1_epi64x(bi as i64);
        let bp = _mm256_set1_epi64x(bprev as i64);
        for j in 0..N {
            let p = _mm256_madd52hi_epu64(_mm256_madd52lo_epu64(z, a[j], bv), a[j], bp);
            acc[j] = _mm256_add_epi64(acc[j], p);
        }
        let t = acc[0];
        // m = t_0 k0 mod 2^52 in every lane (vpmadd52luq reads only the low 52 bits).
        let mv = _mm256_broadcastq_epi64(_mm256_castsi256_si128(_mm256_madd52lo_epu64(z, t, k0v)));
        // Carry of the vanishing digit, lane 0 only.
        let carry = _mm256_maskz_srli_epi64::<52>(1, _mm256_add_epi64(t, maskv));
        for j in 0..N - 1 {
            acc[j] = _mm256_alignr_epi64::<1>(acc[j + 1], acc[j]);
        }
        acc[N - 1] = _mm256_alignr_epi64::<1>(z, acc[N - 1]);
        let l0 = _mm256_madd52lo_epu64(carry, n1[0], mv);
        let h0 = _mm256_madd52hi_epu64(z, n[0], mv);
        acc[0] = _mm256_add_epi64(_mm256_add_epi64(acc[0], l0), h0);
        for j in 1..N {
            acc[j] = _mm256_madd52hi_epu64(_mm256_madd52lo_epu64(acc[j], n1[j], mv), n[j], mv);
        }
    }
}

/// After the last step: the high halves of `a b_{D-1}` (`bv`: `b_{D-1}` in every lane).
#[inline(always)]
fn amm_tail<const N: usize>(acc: &mut [__m256i; N], a: &[__m256i; N], bv: __m256i) {
    // SAFETY: as in `amm_step`.
    unsafe {
        for j in 0..N {
            acc[j] = _mm256_madd52hi_epu64(acc[j], a[j], bv);
        }
    }
}

/// `n` shifted down one lane (lane `j` holds `n_{j+1}`).
#[inline(always)]
fn shifted<const N: usize>(n: &[__m256i; N]) -> [__m256i; N] {
    // SAFETY: as in `amm_step`.
    unsafe {
        let z = _mm256_setzero_si256();
        core::array::from_fn(|j| {
            _mm256_alignr_epi64::<1>(if j + 1 < N { n[j + 1] } else { z }, n[j])
        })
    }
}

/// Carries the accumulator into normalised 52-bit digits (the value is below `2^(52 D)`).
#[inline(always)]
fn normalize<const N: usize>(acc: &mut [__m256i; N]) {
    // SAFETY: as in `amm_step`.
    unsafe {
        let mask = _mm256_set1_epi64x(MASK as i64);
        let mut c = [_mm256_setzero_si256(); N];
        for j in 0..N {
            c[j] = _mm256_srli_epi64::<52>(acc[j]);
            acc[j] = _mm256_and_si256(acc[j], mask);
        }
        // Each lane's carry goes one lane up.
        acc[0] = _mm256_add_epi64(
            acc[0],
            _mm256_alignr_epi64::<3>(c[0], _mm256_setzero_si256()),
        );
        for j in 1..N {
            acc[j] = _mm256_add_epi64(acc[j], _mm256_alignr_epi64::<3>(c[j], c[j - 1]));
        }
        // Lanes now hold at most 2^52 + 2^12: a carry of at most one, which ripples
        // through lanes equal to 2^52 - 1. Carry-lookahead on lane bit masks (one bit a
        // lane, up to 320 lanes in five words): generate G (lane > 2^52 - 1), propagate P
        // (lane = 2^52 - 1); the lanes that receive a carry are ((G << 1) + P) ^ P.
        let mut g = [0u64; MASK_WORDS];
        let mut p = [0u64; MASK_WORDS];
        for j in 0..N {
            let (w, b) = ((4 * j) / 64, (4 * j) % 64);
            g[w] |= (_mm256_cmpgt_epu64_mask(acc[j], mask) as u64) << b;
            p[w] |= (_mm256_cmpeq_epu64_mask(acc[j], mask) as u64) << b;
        }
        let mut x = [0u64; MASK_WORDS];
        let (mut shift_in, mut carry) = (0u64, 0u64);
        for w in 0..MASK_WORDS {
            let gs = (g[w] << 1) | shift_in;
            shift_in = g[w] >> 63;
            let (s1, c1) = gs.overflowing_add(p[w]);
            let (s2, c2) = s1.overflowing_add(carry);
            carry = (c1 | c2) as u64;
            x[w] = s2 ^ p[w];
        }
        let one = _mm256_set1_epi64x(1);
        for j in 0..N {
            let k = ((x[(4 * j) / 64] >> ((4 * j) % 64)) & 0xf) as __mmask8;
            acc[j] = _mm256_and_si256(_mm256_mask_add_epi64(acc[j], k, acc[j], one), mask);
        }
    }
}

/// Bit length of a number in normalised digits; its time depends on the length only (of
/// a modulus: public, the key size).
fn bit_len(x: &[u64]) -> usize {
    x.iter()
        .rposition(|&v| v != 0)
        .map_or(0, |h| 52 * h + 64 - x[h].leading_zeros() as usize)
}

/// The modulus in registers: `n`, `n` shifted down one lane, `n_0` and `k0`.
struct NRegs<const N: usize> {
    n: [__m256i; N],
    n1: [__m256i; N],
    k0v: __m256i,
    k0: u64,
    n0: u64,
    /// Steps of a multiplication (see `Params::steps`).
    steps: usize,
}

impl<const N: usize> NRegs<N> {
    #[inline(always)]
    fn new(n: &[u64], k0: u64) -> Self {
        let n_v: [__m256i; N] = core::array::from_fn(|j| load(n, j));
        NRegs {
            n1: shifted(&n_v),
            n: n_v,
            // SAFETY: as in `amm_step`.
            k0v: unsafe { _mm256_set1_epi64x(k0 as i64) },
            k0,
            n0: n[0],
            steps: steps(bit_len(n)),
        }
    }
}

/// `r = a b / R' mod n`, almost reduced (`< 2n` when `a, b < 2n`), normalised digits.
#[inline(never)]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn amm1<const N: usize>(r: &mut [u64], a: &[u64], b: &[u64], nr: &NRegs<N>) {
    let av: [__m256i; N] = core::array::from_fn(|j| load(a, j));
    let mut acc = [_mm256_setzero_si256(); N];
    let maskv = _mm256_set1_epi64x(MASK as i64);
    let mut prev = 0;
    for &bi in &b[..nr.steps] {
        amm_step(&mut acc, &av, &nr.n, &nr.n1, bi, prev, nr.k0v, maskv);
        prev = bi;
    }
    amm_tail(&mut acc, &av, _mm256_set1_epi64x(prev as i64));
    normalize(&mut acc);
    for (j, &v) in acc.iter().enumerate() {
        store(r, j, v);
    }
}

/// Two independent almost-Montgomery multiplications, interleaved step by step.
#[inline(never)]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn amm2<const N: usize>(r: [&mut [u64]; 2], a: [&[u64]; 2], b: [&[u64]; 2], nr: [&NRegs<N>; 2]) {
    let a0: [__m256i; N] = core::array::from_fn(|j| load(a[0], j));
    let a1: [__m256i; N] = core::array::from_fn(|j| load(a[1], j));
    let z = _mm256_setzero_si256();
    let mut acc0 = [z; N];
    let mut acc1 = [z; N];
    // b_i broadcast from memory (a load, no shuffle), b_{i-1} kept from the step before.
    let steps = nr[0].steps;
    debug_assert_eq!(steps, nr[1].steps);
    let (b0, b1) = (&b[0][..steps], &b[1][..steps]);
    let (mut p0, mut p1) = (z, z);
    for i in 0..steps {
        let (c0, c1): (&[u64; 1], &[u64; 1]) = (
            b0[i..i + 1].try_into().expect("one digit"),
            b1[i..i + 1].try_into().expect("one digit"),
        );
        // SAFETY: `c0`, `c1` are 8 readable bytes each (the loads read 8 bytes).
        let (v0, v1) = unsafe {
            (
                _mm256_broadcastq_epi64(_mm_loadl_epi64(c0.as_ptr().cast())),
                _mm256_broadcastq_epi64(_mm_loadl_epi64(c1.as_ptr().cast())),
            )
        };
        amm_step_scalar(
            &mut acc0, &a0, &nr[0].n, &nr[0].n1, v0, p0, nr[0].k0, nr[0].n0,
        );
        amm_step_scalar(
            &mut acc1, &a1, &nr[1].n, &nr[1].n1, v1, p1, nr[1].k0, nr[1].n0,
        );
        (p0, p1) = (v0, v1);
    }
    amm_tail(&mut acc0, &a0, p0);
    amm_tail(&mut acc1, &a1, p1);
    normalize(&mut acc0);
    normalize(&mut acc1);
    let [r0, r1] = r;
    for j in 0..N {
        store(r0, j, acc0[j]);
        store(r1, j, acc1[j]);
    }
}

/// `out = table[idx]` over `entries` of `d` digits, every entry read under a mask.
#[inline(always)]
fn lookup<const N: usize>(out: &mut [u64], table: &[u64], idx: usize) {
    // SAFETY: as in `amm_step`.
    unsafe {
        let want = _mm256_set1_epi64x(idx as i64);
        let mut acc = [_mm256_setzero_si256(); N];
        for (e, entry) in table.chunks_exact(4 * N).enumerate() {
            let m = _mm256_cmpeq_epi64(_mm256_set1_epi64x(e as i64), want);
            for (j, a) in acc.iter_mut().enumerate() {
                *a = _mm256_or_si256(*a, _mm256_and_si256(load(entry, j), m));
            }
        }
        for (j, &v) in acc.iter().enumerate() {
            store(out, j, v);
        }
    }
}

/// `out = b^e` (digits, in `[0, n]`), fixed 5-bit windows.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn pow1<const N: usize>(out: &mut [u64], b: &[u64], e: &[u64], n: &[u64], k0: u64, rr: &[u64]) {
    let d = 4 * N;
    let nv = NRegs::<N>::new(n, k0);
    let size = 1 << WIN;
    let mut table = vec![0u64; size * d];
    let mut one = vec![0u64; d];
    one[0] = 1;
    {
        let (t0, rest) = table.split_at_mut(d);
        amm1(t0, &one, rr, &nv); // R' mod n
        amm1(&mut rest[..d], b, rr, &nv); // b R' mod n
    }
    for i in 2..size {
        let (done, rest) = table.split_at_mut(i * d);
        amm1(
            &mut rest[..d],
            &done[(i - 1) * d..i * d],
            &done[d..2 * d],
            &nv,
        );
    }
    let ebits = e.len() * 64;
    let windows = ebits.div_ceil(WIN);
    let mut acc = vec![0u64; d];
    let mut tmp = vec![0u64; d];
    let mut entry = vec![0u64; d];
    for win in (0..windows).rev() {
        lookup::<N>(&mut entry, &table, window_at(e, win * WIN, WIN));
        if win == windows - 1 {
            acc.copy_from_slice(&entry);
            continue;
        }
        for _ in 0..WIN {
            amm1(&mut tmp, &acc, &acc, &nv);
            core::mem::swap(&mut acc, &mut tmp);
        }
        amm1(&mut tmp, &acc, &entry, &nv);
        core::mem::swap(&mut acc, &mut tmp);
    }
    amm1(out, &acc, &one, &nv);
    wipe(&mut [&mut table, &mut acc, &mut entry, &mut tmp]);
}

/// `out = b^e` (digits, in `[0, n]`) for a public exponent.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn pow1_vartime<const N: usize>(
    out: &mut [u64],
    b: &[u64],
    e: &BoxedUint,
    n: &[u64],
    k0: u64,
    rr: &[u64],
) {
    let d = 4 * N;
    let nv = NRegs::<N>::new(n, k0);
    let mut one = vec![0u64; d];
    one[0] = 1;
    let mut bm = vec![0u64; d];
    amm1(&mut bm, b, rr, &nv);
    let bits = e.bits_vartime();
    if bits == 0 {
        amm1(out, &one, rr, &nv);
        amm1(&mut bm, out, &one, &nv);
        out.copy_from_slice(&bm);
        return;
    }
    let mut acc = bm.clone();
    let mut tmp = vec![0u64; d];
    for i in (0..bits - 1).rev() {
        amm1(&mut tmp, &acc, &acc, &nv);
        core::mem::swap(&mut acc, &mut tmp);
        if e.bit(i) == 1 {
            amm1(&mut tmp, &acc, &bm, &nv);
            core::mem::swap(&mut acc, &mut tmp);
        }
    }
    amm1(out, &acc, &one, &nv);
    wipe(&mut [&mut acc, &mut tmp, &mut bm]);
}

/// `out = a b mod n` (digits, in `[0, n]`).
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn mul1<const N: usize>(out: &mut [u64], a: &[u64], b: &[u64], n: &[u64], k0: u64, rr: &[u64]) {
    let nv = NRegs::<N>::new(n, k0);
    let mut t = vec![0u64; 4 * N];
    amm1(&mut t, a, b, &nv); // a b / R'
    amm1(out, &t, rr, &nv); // a b R' / R' = a b
    wipe(&mut [&mut t]);
}

/// Two exponentiations of the same shape in one loop.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn pow2<const N: usize>(out: [&mut [u64]; 2], b: [&[u64]; 2], e: [&[u64]; 2], x: &Pair<'_>) {
    let d = 4 * N;
    let nv0 = NRegs::<N>::new(x.n[0], x.k0[0]);
    let nv1 = NRegs::<N>::new(x.n[1], x.k0[1]);
    let nv = [&nv0, &nv1];
    let size = 1 << WIN;
    let mut t0 = vec![0u64; size * d];
    let mut t1 = vec![0u64; size * d];
    let mut one = vec![0u64; d];
    one[0] = 1;
    {
        let (a0, r0) = t0.split_at_mut(d);
        let (a1, r1) = t1.split_at_mut(d);
        amm2([a0, a1], [&one, &one], [x.rr[0], x.rr[1]], nv);
        amm2(
            [&mut r0[..d], &mut r1[..d]],
            [b[0], b[1]],
            [x.rr[0], x.rr[1]],
            nv,
        );
    }
    for i in 2..size {
        let (d0, r0) = t0.split_at_mut(i * d);
        let (d1, r1) = t1.split_at_mut(i * d);
        amm2(
            [&mut r0[..d], &mut r1[..d]],
            [&d0[(i - 1) * d..i * d], &d1[(i - 1) * d..i * d]],
            [&d0[d..2 * d], &d1[d..2 * d]],
            nv,
        );
    }
    let ebits = e[0].len() * 64;
    let windows = ebits.div_ceil(WIN);
    let mut acc = [vec![0u64; d], vec![0u64; d]];
    let mut tmp = [vec![0u64; d], vec![0u64; d]];
    let mut ent = [vec![0u64; d], vec![0u64; d]];
    for win in (0..windows).rev() {
        lookup::<N>(&mut ent[0], &t0, window_at(e[0], win * WIN, WIN));
        lookup::<N>(&mut ent[1], &t1, window_at(e[1], win * WIN, WIN));
        if win == windows - 1 {
            acc[0].copy_from_slice(&ent[0]);
            acc[1].copy_from_slice(&ent[1]);
            continue;
        }
        for _ in 0..WIN {
            let [x0, x1] = &mut tmp;
            amm2([x0, x1], [&acc[0], &acc[1]], [&acc[0], &acc[1]], nv);
            core::mem::swap(&mut acc, &mut tmp);
        }
        let [x0, x1] = &mut tmp;
        amm2([x0, x1], [&acc[0], &acc[1]], [&ent[0], &ent[1]], nv);
        core::mem::swap(&mut acc, &mut tmp);
    }
    let [o0, o1] = out;
    amm2([o0, o1], [&acc[0], &acc[1]], [&one, &one], nv);
    let [a0, a1] = &mut acc;
    let [e0, e1] = &mut ent;
    let [x0, x1] = &mut tmp;
    wipe(&mut [&mut t0, &mut t1, a0, a1, e0, e1, x0, x1]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cpu_ns() -> u64 {
        use std::sync::OnceLock;
        static T0: OnceLock<std::time::Instant> = OnceLock::new();
        T0.get_or_init(std::time::Instant::now).elapsed().as_nanos() as u64
    }

    /// `cargo test --release -p shyfr --lib amm_speed -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn amm_speed() {
        if Ifma::get().is_none() {
            return;
        }
        const N: usize = 5;
        let d = 4 * N;
        let mut n: Vec<u64> = (0..d as u64)
            .map(|i| (i * 0x9e37_79b9_7f4a_7c15) & MASK)
            .collect();
        n[0] |= 1;
        n[d - 1] &= MASK >> 20;
        let k0 = limbs::neg_inv_u64(n[0]) & MASK;
        let a: Vec<u64> = (0..d as u64)
            .map(|i| (i * 0x1234_5678_9abc_def1) & MASK >> 22)
            .collect();
        let mut r = vec![0u64; d];
        let mut r2 = vec![0u64; d];
        // SAFETY: the token was checked above.
        unsafe {
            let nr = NRegs::<N>::new(&n, k0);
            let (mut one, mut two) = (f64::MAX, f64::MAX);
            for _ in 0..100 {
                let t = cpu_ns();
                let reps = 2000;
                for _ in 0..reps {
                    amm1::<N>(&mut r, &a, &a, &nr);
                }
                one = one.min((cpu_ns() - t) as f64 / reps as f64);
                let t = cpu_ns();
                for _ in 0..reps {
                    amm2::<N>([&mut r, &mut r2], [&a, &a], [&a, &a], [&nr, &nr]);
                }
                two = two.min((cpu_ns() - t) as f64 / reps as f64);
            }
            std::println!("N={N}: amm1 {one:.1} ns, amm2 {two:.1} ns (best of 100 windows)");
        }
    }
}
