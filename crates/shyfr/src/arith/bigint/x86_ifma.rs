//! Modular exponentiation with AVX-512 IFMA: numbers in 52-bit digits, four digits a 256-bit
//! register, almost-Montgomery multiplication (results stay below `2n`, reduced once at
//! the end). Two moduli of the same size — the RSA CRT halves — share every 512-bit
//! register, one a 256-bit half ([`ammp`]: one instruction stream for both exponentiations,
//! squarings included; up to 10 registers a number with the digits dealt round the
//! registers, [`pair_word`]); a single exponentiation uses 256-bit registers ([`amm1`]).
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

/// The register counts with a compiled kernel (4 digits each): 500..16638-bit moduli.
const SUPPORTED: &[usize] = &[
    3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 64, 80,
];

/// Words of the lane masks in `normalize` (one bit a lane, 320 lanes = 80 registers).
const MASK_WORDS: usize = 5;

/// Smallest modulus (bits) for which the IFMA kernels are used.
pub(crate) const MIN_BITS: usize = 500;

/// `$body` for the register count `$regs`, with `$R` a constant equal to it: one instance
/// of the kernels per register count the parameters allow (`Params::regs`).
macro_rules! by_regs {
    ($regs:expr, $R:ident => $body:expr) => {
        by_regs!(@ $regs, $R, $body, 3 4 5 6 7 8 10 12 14 16 20 24 28 32 40 48 64 80)
    };
    (@ $regs:expr, $R:ident, $body:expr, $($r:literal)*) => {
        match $regs {
            $($r => {
                const $R: usize = $r;
                $body
            })*
            _ => unreachable!(),
        }
    };
}

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
        let _ = self.token;
        // SAFETY: `self.token` proves AVX-512F/VL, IFMA and BMI2.
        unsafe {
            by_regs!(self.regs, R => pow1::<{ R }>(&mut out, &bd, e.as_limbs(), &self.n, self.k0, &self.rr))
        };
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
        Some(Self::run_pair(p1, b1, p2, b2, |o, b, x| {
            let _ = p1.token;
            // SAFETY: `p1.token` proves AVX-512F/VL, IFMA and BMI2.
            unsafe {
                by_regs!(p1.regs, R => pow2::<{ R }>(o, b, [e1.as_limbs(), e2.as_limbs()], x))
            }
        }))
    }

    /// `(b1^e mod n1, b2^e mod n2)` for a **public** exponent, both in one loop, when the
    /// two moduli have the same digit count; else `None`.
    pub(crate) fn pow_pair_vartime(
        p1: &Params,
        b1: &BoxedUint,
        p2: &Params,
        b2: &BoxedUint,
        e: &BoxedUint,
    ) -> Option<(BoxedUint, BoxedUint)> {
        if p1.regs != p2.regs || p1.steps != p2.steps {
            return None;
        }
        Some(Self::run_pair(p1, b1, p2, b2, |o, b, x| {
            let _ = p1.token;
            // SAFETY: `p1.token` proves AVX-512F/VL, IFMA and BMI2.
            unsafe { by_regs!(p1.regs, R => pow2_vartime::<{ R }>(o, b, e, x)) }
        }))
    }

    /// The digits of `b1` and `b2` (for `p1`, `p2` of the same register count) through
    /// `kernel`, which writes the two results in digits; returns them as integers and wipes
    /// every digit buffer.
    fn run_pair(
        p1: &Params,
        b1: &BoxedUint,
        p2: &Params,
        b2: &BoxedUint,
        kernel: impl FnOnce([&mut [u64]; 2], [&[u64]; 2], &Pair<'_>),
    ) -> (BoxedUint, BoxedUint) {
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
        kernel([&mut o1, &mut o2], [&bd1, &bd2], &x);
        let r = (p1.finish(&o1), p2.finish(&o2));
        wipe(&mut [&mut bd1, &mut bd2, &mut o1, &mut o2]);
        r
    }

    /// `b^e mod n` for `b < n` and a **public** exponent (square-and-multiply that branches
    /// on the bits of `e`).
    pub(crate) fn pow_vartime(&self, b: &BoxedUint, e: &BoxedUint) -> BoxedUint {
        let d = self.regs * 4;
        let mut bd = to_digits(b.as_limbs(), d);
        let mut out = vec![0u64; d];
        let _ = self.token;
        // SAFETY: `self.token` proves AVX-512F/VL, IFMA and BMI2.
        unsafe {
            by_regs!(self.regs, R => pow1_vartime::<{ R }>(&mut out, &bd, e, &self.n, self.k0, &self.rr))
        };
        let r = self.finish(&out);
        wipe(&mut [&mut bd, &mut out]);
        r
    }

    /// `a b / R' mod n` for `a, b < n` (constant time): one almost-Montgomery product
    /// (`R'` is this backend's Montgomery radix; see [`Modulus::mont_form`]).
    pub(crate) fn mont_mul(&self, a: &BoxedUint, b: &BoxedUint) -> BoxedUint {
        let d = self.regs * 4;
        let mut ad = to_digits(a.as_limbs(), d);
        let mut bd = to_digits(b.as_limbs(), d);
        let mut out = vec![0u64; d];
        let _ = self.token;
        // SAFETY: `self.token` proves AVX-512F/VL, IFMA and BMI2.
        unsafe { by_regs!(self.regs, R => mont1::<{ R }>(&mut out, &ad, &bd, &self.n, self.k0)) };
        // The product is below 2n: one conditional subtraction.
        let r = self.finish(&out);
        wipe(&mut [&mut ad, &mut bd, &mut out]);
        r
    }

    /// `R'^2 mod n` in limbs.
    pub(crate) fn rr_limbs(&self) -> BoxedUint {
        BoxedUint::from_limbs(&from_digits(&self.rr, self.n_limbs.len()))
    }

    /// `a b mod n` for `a, b < n` (constant time): two almost-Montgomery products, by `b`
    /// and by `R'^2`.
    pub(crate) fn mul(&self, a: &BoxedUint, b: &BoxedUint) -> BoxedUint {
        let d = self.regs * 4;
        let mut ad = to_digits(a.as_limbs(), d);
        let mut bd = to_digits(b.as_limbs(), d);
        let mut out = vec![0u64; d];
        let _ = self.token;
        // SAFETY: `self.token` proves AVX-512F/VL, IFMA and BMI2.
        unsafe {
            by_regs!(self.regs, R => mul1::<{ R }>(&mut out, &ad, &bd, &self.n, self.k0, &self.rr))
        };
        let r = self.finish(&out);
        wipe(&mut [&mut ad, &mut bd, &mut out]);
        r
    }

    /// Digits of a value in `[0, 2n)` to the fully reduced residue in limbs.
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

/// `N` registers of four digits from `s` (as [`load8_n`]).
#[inline(always)]
fn load_n<const N: usize>(s: &[u64]) -> [__m256i; N] {
    // SAFETY: `__m256i` is plain data, for which all-zero bits are a value.
    let mut v: [__m256i; N] = unsafe { core::mem::zeroed() };
    for (j, x) in v.iter_mut().enumerate() {
        *x = load(s, j);
    }
    v
}

/// Stores four digits to `s[4 j..4 j + 4]`.
#[inline(always)]
fn store(s: &mut [u64], j: usize, v: __m256i) {
    let c: &mut [u64; 4] = (&mut s[4 * j..4 * j + 4]).try_into().expect("four digits");
    // SAFETY: `c` is 32 writable bytes; the unaligned store has no alignment requirement.
    unsafe { _mm256_storeu_si256(c.as_mut_ptr().cast(), v) }
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
        // A loop, not `array::from_fn` (see [`load8_n`]).
        let mut v = [z; N];
        for (j, x) in v.iter_mut().enumerate() {
            *x = _mm256_alignr_epi64::<1>(if j + 1 < N { n[j + 1] } else { z }, n[j]);
        }
        v
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

/// The modulus in registers: `n`, `n` shifted down one lane, and `k0`.
struct NRegs<const N: usize> {
    n: [__m256i; N],
    n1: [__m256i; N],
    k0v: __m256i,
    /// Steps of a multiplication (see `Params::steps`).
    steps: usize,
}

impl<const N: usize> NRegs<N> {
    #[inline(always)]
    fn new(n: &[u64], k0: u64) -> Self {
        let n_v: [__m256i; N] = load_n(n);
        NRegs {
            n1: shifted(&n_v),
            n: n_v,
            // SAFETY: as in `amm_step`.
            k0v: unsafe { _mm256_set1_epi64x(k0 as i64) },
            steps: steps(bit_len(n)),
        }
    }
}

/// `r = a b / R' mod n`, almost reduced (`< 2n` when `a, b < 2n`), normalised digits.
#[inline(never)]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma,bmi2")]
fn amm1<const N: usize>(r: &mut [u64], a: &[u64], b: &[u64], nr: &NRegs<N>) {
    let av: [__m256i; N] = load_n(a);
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

/// `r = a b / R' mod n` as [`amm1`], the modulus registers set up here, where the
/// features are enabled (built by the caller, they were set up with calls to the
/// intrinsics).
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma,bmi2")]
fn mont1<const N: usize>(r: &mut [u64], a: &[u64], b: &[u64], n: &[u64], k0: u64) {
    amm1(r, a, b, &NRegs::<N>::new(n, k0));
}

/// `out = b^e` (digits, in `[0, n]`), fixed 5-bit windows.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma,bmi2")]
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
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma,bmi2")]
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
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma,bmi2")]
fn mul1<const N: usize>(out: &mut [u64], a: &[u64], b: &[u64], n: &[u64], k0: u64, rr: &[u64]) {
    let nv = NRegs::<N>::new(n, k0);
    let mut t = vec![0u64; 4 * N];
    amm1(&mut t, a, b, &nv); // a b / R'
    amm1(out, &t, rr, &nv); // a b R' / R' = a b
    wipe(&mut [&mut t]);
}

// ---------------------------------------------------------------------------------------
// Both CRT halves in one 512-bit register.
//
// A pair of numbers `x` (half 0) and `y` (half 1) of `D` digits is stored digit-pair
// interleaved: lane pair `(x_d, y_d)` (even lanes `x`, odd lanes `y`); in order above 10
// registers (`[x_0, y_0, x_1, y_1, ...]`, register `j` holding digits `4 j .. 4 j + 3`),
// dealt round the registers up to 10 ([`pair_word`]). Every multiply-add then
// does both halves' work with one instruction (Zen 4 issues a 512-bit operation as one
// macro-op), the broadcast of `(x_i, y_i)` is one 128-bit broadcast load, the one-digit
// shift of the accumulator is a two-lane `valignq` across registers, and the quotient digits
// of both halves (lanes 0 and 1) are spread by one `vshufi64x2`.
// ---------------------------------------------------------------------------------------

/// Eight words from `s[8 j..8 j + 8]`.
#[inline(always)]
fn load8(s: &[u64], j: usize) -> __m512i {
    let c: &[u64; 8] = s[8 * j..8 * j + 8].try_into().expect("eight words");
    // SAFETY: `c` is 64 readable bytes; the unaligned load has no alignment requirement.
    unsafe { _mm512_loadu_si512(c.as_ptr().cast()) }
}

/// Stores eight words to `s[8 j..8 j + 8]`.
#[inline(always)]
fn store8(s: &mut [u64], j: usize, v: __m512i) {
    let c: &mut [u64; 8] = (&mut s[8 * j..8 * j + 8]).try_into().expect("eight words");
    // SAFETY: `c` is 64 writable bytes; the unaligned store has no alignment requirement.
    unsafe { _mm512_storeu_si512(c.as_mut_ptr().cast(), v) }
}

/// `N` registers of eight words from `s` (`s[8 j..8 j + 8]` in register `j`). A loop, not
/// `array::from_fn`: its closure is a function of its own, without the caller's target
/// features, in which the load need not be inlined (it was not, in some builds).
#[inline(always)]
fn load8_n<const N: usize>(s: &[u64]) -> [__m512i; N] {
    // SAFETY: `__m512i` is plain data, for which all-zero bits are a value.
    let mut v: [__m512i; N] = unsafe { core::mem::zeroed() };
    for (j, x) in v.iter_mut().enumerate() {
        *x = load8(s, j);
    }
    v
}

/// Register counts (at most) whose pairs are laid out dealt (see [`pair_word`]): their
/// kernel writes out `N` steps with the registers renamed, which makes the code grow with
/// the square of the size.
const DEALT_MAX_REGS: usize = 10;

/// The word of digit `d` of half `h` in a pair of `4 N`-digit numbers.
///
/// Up to [`DEALT_MAX_REGS`] registers the digits are dealt round the registers: register
/// `k` holds digits `k, k + N, k + 2 N, k + 3 N` (lane pair `m` digit `k + N m`), so that
/// the one-digit shift of the accumulator in every step of [`ammp`] is a renaming of the
/// registers and one `valignq` (register `k + 1` becomes register `k`; the lane pairs of
/// register 0 move down one), instead of a `valignq` for every register. Larger counts
/// keep digits `4 j .. 4 j + 3` in register `j`.
const fn pair_word<const N: usize>(d: usize, h: usize) -> usize {
    if N <= DEALT_MAX_REGS {
        8 * (d % N) + 2 * (d / N) + h
    } else {
        2 * d + h
    }
}

/// Two digit vectors (`4 N` digits each) to one pair in the layout of [`pair_word`].
fn interleave<const N: usize>(x: &[u64], y: &[u64]) -> Vec<u64> {
    let mut p = vec![0u64; 8 * N];
    for d in 0..4 * N {
        p[pair_word::<N>(d, 0)] = x[d];
        p[pair_word::<N>(d, 1)] = y[d];
    }
    p
}

/// One pair back to its two digit vectors.
fn deinterleave<const N: usize>(p: &[u64], x: &mut [u64], y: &mut [u64]) {
    for d in 0..4 * N {
        x[d] = p[pair_word::<N>(d, 0)];
        y[d] = p[pair_word::<N>(d, 1)];
    }
}

/// Both moduli in registers (interleaved): `n`, `n` shifted down one digit, `k0`.
struct PRegs<const N: usize> {
    n: [__m512i; N],
    n1: [__m512i; N],
    k0v: __m512i,
    /// Steps of a multiplication (the same for both moduli).
    steps: usize,
}

impl<const N: usize> PRegs<N> {
    #[inline(always)]
    fn new(n: &[u64], k0: [u64; 2], steps: usize) -> Self {
        // SAFETY: as in `amm_step`.
        unsafe {
            let nv: [__m512i; N] = load8_n(n);
            let z = _mm512_setzero_si512();
            // A loop, not `array::from_fn` (see [`load8_n`]).
            let mut n1 = [z; N];
            for (j, x) in n1.iter_mut().enumerate() {
                *x = if N <= DEALT_MAX_REGS {
                    // Digit `j + N m + 1`: register `j + 1`, or register 0 a lane pair up.
                    if j + 1 < N {
                        nv[j + 1]
                    } else {
                        _mm512_alignr_epi64::<2>(z, nv[0])
                    }
                } else {
                    _mm512_alignr_epi64::<2>(if j + 1 < N { nv[j + 1] } else { z }, nv[j])
                };
            }
            PRegs {
                n1,
                n: nv,
                k0v: _mm512_broadcast_i32x4(_mm_set_epi64x(k0[1] as i64, k0[0] as i64)),
                steps,
            }
        }
    }
}

/// Carries a paired accumulator into normalised 52-bit digits (each half below
/// `2^(52 D)`); [`normalize`] with the digit stride two lanes, in either layout of
/// [`pair_word`].
#[inline(always)]
fn normalize_pair<const N: usize>(acc: &mut [__m512i; N]) {
    // SAFETY: as in `amm_step`; the caller enables BMI2 (the `Ifma` token proves it).
    unsafe {
        let mask = _mm512_set1_epi64(MASK as i64);
        let z = _mm512_setzero_si512();
        let mut c = [z; N];
        for j in 0..N {
            c[j] = _mm512_srli_epi64::<52>(acc[j]);
            acc[j] = _mm512_and_si512(acc[j], mask);
        }
        // Each digit's carry goes one digit up: to the same lanes of the next register
        // (dealt), or two lanes up (in order).
        if N <= DEALT_MAX_REGS {
            acc[0] = _mm512_add_epi64(acc[0], _mm512_alignr_epi64::<6>(c[N - 1], z));
            for j in 1..N {
                acc[j] = _mm512_add_epi64(acc[j], c[j - 1]);
            }
        } else {
            acc[0] = _mm512_add_epi64(acc[0], _mm512_alignr_epi64::<6>(c[0], z));
            for j in 1..N {
                acc[j] = _mm512_add_epi64(acc[j], _mm512_alignr_epi64::<6>(c[j], c[j - 1]));
            }
        }
        // Carry-lookahead as in `normalize`, one bit a lane, bit `2 d + h` for digit `d`
        // of half `h`. A digit's carry goes two bits up; the bits of the other half are set
        // in the propagate word, so that a carry crosses them unchanged, and ignored
        // afterwards. Dealt registers scatter their mask bits to those positions with
        // `pdep` and gather them back with `pext` (the patterns depend on `N` only).
        let mut g = [0u64; 2 * MASK_WORDS];
        let mut p = [0u64; 2 * MASK_WORDS];
        for j in 0..N {
            let gj = _mm512_cmpgt_epu64_mask(acc[j], mask) as u64;
            let pj = _mm512_cmpeq_epu64_mask(acc[j], mask) as u64;
            if N <= DEALT_MAX_REGS {
                let (lo, hi, n_lo) = dealt_pattern::<N>(j);
                g[0] |= _pdep_u64(gj, lo);
                g[1] |= _pdep_u64(gj >> n_lo, hi);
                p[0] |= _pdep_u64(pj, lo);
                p[1] |= _pdep_u64(pj >> n_lo, hi);
            } else {
                let (w, b) = ((8 * j) / 64, (8 * j) % 64);
                g[w] |= gj << b;
                p[w] |= pj << b;
            }
        }
        let words = (8 * N).div_ceil(64);
        let mut x = [0u64; 2 * MASK_WORDS];
        for half in [0x5555_5555_5555_5555u64, 0xaaaa_aaaa_aaaa_aaaa] {
            let (mut shift_in, mut carry) = (0u64, 0u64);
            for w in 0..words {
                let gw = g[w] & half;
                let pw = (p[w] & half) | !half;
                let gs = (gw << 2) | shift_in;
                shift_in = gw >> 62;
                let (s1, c1) = gs.overflowing_add(pw);
                let (s2, c2) = s1.overflowing_add(carry);
                carry = (c1 | c2) as u64;
                x[w] |= (s2 ^ pw) & half;
            }
        }
        let one = _mm512_set1_epi64(1);
        for j in 0..N {
            let k = if N <= DEALT_MAX_REGS {
                let (lo, hi, n_lo) = dealt_pattern::<N>(j);
                (_pext_u64(x[0], lo) | (_pext_u64(x[1], hi) << n_lo)) as __mmask8
            } else {
                (x[(8 * j) / 64] >> ((8 * j) % 64)) as __mmask8
            };
            acc[j] = _mm512_and_si512(_mm512_mask_add_epi64(acc[j], k, acc[j], one), mask);
        }
    }
}

/// The bits `2 d + h` of the digits `d` of dealt register `j` (lane `2 m + h` is digit
/// `j + N m`) over two words: the pattern in the low word, in the high word, and the
/// number of lanes in the low word.
#[inline(always)]
const fn dealt_pattern<const N: usize>(j: usize) -> (u64, u64, u32) {
    let mut pat = 0u128;
    let mut m = 0;
    while m < 4 {
        pat |= 3u128 << (2 * (j + N * m));
        m += 1;
    }
    let lo = pat as u64;
    (lo, (pat >> 64) as u64, lo.count_ones())
}

/// Two almost-Montgomery multiplications, one a 256-bit half of every register:
/// `r = a b / R'` per half, on interleaved pairs (`2 D` words each).
#[inline(never)]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma,bmi2")]
fn ammp<const N: usize>(r: &mut [u64], a: &[u64], b: &[u64], nr: &PRegs<N>) {
    if N <= DEALT_MAX_REGS {
        return ammp_dealt(r, a, b, nr);
    }
    let z = _mm512_setzero_si512();
    let av: [__m512i; N] = load8_n(a);
    let mut acc = [z; N];
    let maskv = _mm512_set1_epi64(MASK as i64);
    let b = &b[..2 * nr.steps];
    let mut bp = z;
    for i in 0..nr.steps {
        let c: &[u64; 2] = b[2 * i..2 * i + 2].try_into().expect("one digit pair");
        // SAFETY: `c` is 16 readable bytes; the unaligned load has no alignment requirement.
        let bv = _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(c.as_ptr().cast()) });
        for j in 0..N {
            let p = _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(z, av[j], bv), av[j], bp);
            acc[j] = _mm512_add_epi64(acc[j], p);
        }
        let t = acc[0];
        // Quotient digits of both halves in lanes 0 and 1, spread to every lane pair.
        let q = _mm512_madd52lo_epu64(z, t, nr.k0v);
        let mv = _mm512_shuffle_i64x2::<0>(q, q);
        let carry = _mm512_maskz_srli_epi64::<52>(3, _mm512_add_epi64(t, maskv));
        for j in 0..N - 1 {
            acc[j] = _mm512_alignr_epi64::<2>(acc[j + 1], acc[j]);
        }
        acc[N - 1] = _mm512_alignr_epi64::<2>(z, acc[N - 1]);
        let h0 = _mm512_madd52hi_epu64(carry, nr.n[0], mv);
        acc[0] = _mm512_add_epi64(_mm512_madd52lo_epu64(acc[0], nr.n1[0], mv), h0);
        for j in 1..N {
            acc[j] =
                _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(acc[j], nr.n1[j], mv), nr.n[j], mv);
        }
        bp = bv;
    }
    for j in 0..N {
        acc[j] = _mm512_madd52hi_epu64(acc[j], av[j], bp);
    }
    normalize_pair(&mut acc);
    for (j, &v) in acc.iter().enumerate() {
        store8(r, j, v);
    }
}

/// `$body` for `$j` = 0, 1, .. `$n - 1` (`$n` a constant up to 10), written out so that
/// register arrays are indexed by constants even where the body branches.
macro_rules! unroll10 {
    ($n:expr, $j:ident, $body:block) => {
        unroll10!(@ $n, $j, $body; 0 1 2 3 4 5 6 7 8 9)
    };
    (@ $n:expr, $j:ident, $body:block; $($k:literal)*) => {
        $(
            if $k < $n {
                let $j: usize = $k;
                $body
            }
        )*
    };
}

/// [`ammp`] on dealt pairs ([`pair_word`]): the steps written out `N` at a time, with
/// logical register `k` (digits `k + N m` of the running sum, relative to the step) in
/// physical register `(k + r) mod N` at step `g N + r`. The shift of a step moves only the
/// register of logical 0 (its lane pairs down one; it becomes logical `N - 1`).
#[inline(always)]
fn ammp_dealt<const N: usize>(r: &mut [u64], a: &[u64], b: &[u64], nr: &PRegs<N>) {
    // SAFETY: as in `amm_step`.
    unsafe {
        let z = _mm512_setzero_si512();
        let av: [__m512i; N] = load8_n(a);
        let mut acc = [z; N];
        let maskv = _mm512_set1_epi64(MASK as i64);
        let b = &b[..8 * N];
        let mut bp = z;
        let steps = nr.steps;
        for g in 0..steps.div_ceil(N) {
            unroll10!(N, rot, {
                if g * N + rot < steps {
                    // Digit `g N + rot` of `b`: register `rot`, lane pair `g`.
                    let w = 8 * rot + 2 * g;
                    let c: &[u64; 2] = b[w..w + 2].try_into().expect("one digit pair");
                    // SAFETY: `c` is 16 readable bytes; the unaligned load has no alignment
                    // requirement.
                    let bv = _mm512_broadcast_i32x4(_mm_loadu_si128(c.as_ptr().cast()));
                    unroll10!(N, k, {
                        let ph = (k + rot) % N;
                        let p =
                            _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(z, av[k], bv), av[k], bp);
                        acc[ph] = _mm512_add_epi64(acc[ph], p);
                    });
                    let t = acc[rot];
                    let q = _mm512_madd52lo_epu64(z, t, nr.k0v);
                    let mv = _mm512_shuffle_i64x2::<0>(q, q);
                    let carry = _mm512_maskz_srli_epi64::<52>(3, _mm512_add_epi64(t, maskv));
                    acc[rot] = _mm512_alignr_epi64::<2>(z, acc[rot]);
                    // Logical `k` is now physical `(k + rot + 1) mod N`.
                    let p0 = (rot + 1) % N;
                    let h0 = _mm512_madd52hi_epu64(carry, nr.n[0], mv);
                    acc[p0] = _mm512_add_epi64(_mm512_madd52lo_epu64(acc[p0], nr.n1[0], mv), h0);
                    unroll10!(N, k, {
                        if k > 0 {
                            let ph = (k + rot + 1) % N;
                            acc[ph] = _mm512_madd52hi_epu64(
                                _mm512_madd52lo_epu64(acc[ph], nr.n1[k], mv),
                                nr.n[k],
                                mv,
                            );
                        }
                    });
                    bp = bv;
                }
            });
        }
        // The high halves of `a b_{S-1}`, and the registers back in logical order (the
        // rotation `S mod N` is public: one of `N` written-out cases).
        let mut out = [z; N];
        let rot_end = steps % N;
        unroll10!(N, rot, {
            if rot == rot_end {
                unroll10!(N, k, {
                    out[k] = _mm512_madd52hi_epu64(acc[(k + rot) % N], av[k], bp);
                });
            }
        });
        normalize_pair(&mut out);
        for (j, &v) in out.iter().enumerate() {
            store8(r, j, v);
        }
    }
}

/// `out = table[idx]` per half over interleaved entries of `2 d` words, every entry read
/// under a mask (`idx[0]` for the even lanes, `idx[1]` for the odd).
#[inline(always)]
fn lookup_pair<const N: usize>(out: &mut [u64], table: &[u64], idx: [usize; 2]) {
    out.fill(0);
    lookup_pair_part::<N>(out, table, idx, 0);
}

/// The entries `first..first + table.len() / (8 N)` of [`lookup_pair`]'s scan, merged into
/// `out` (zero before the first part): the scan can be cut into parts placed between
/// the products of a window, whose multiply-adds leave the load ports idle.
#[inline(always)]
fn lookup_pair_part<const N: usize>(out: &mut [u64], table: &[u64], idx: [usize; 2], first: usize) {
    // SAFETY: as in `amm_step`.
    unsafe {
        let want = _mm512_broadcast_i32x4(_mm_set_epi64x(idx[1] as i64, idx[0] as i64));
        let mut acc: [__m512i; N] = load8_n(out);
        for (e, entry) in table.chunks_exact(8 * N).enumerate() {
            let m = _mm512_cmpeq_epi64_mask(_mm512_set1_epi64((first + e) as i64), want);
            for (j, a) in acc.iter_mut().enumerate() {
                *a = _mm512_mask_mov_epi64(*a, m, load8(entry, j));
            }
        }
        for (j, &v) in acc.iter().enumerate() {
            store8(out, j, v);
        }
    }
}

/// Two exponentiations of the same shape, both halves in every register.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma,bmi2")]
fn pow2<const N: usize>(out: [&mut [u64]; 2], b: [&[u64]; 2], e: [&[u64]; 2], x: &Pair<'_>) {
    let d2 = 8 * N;
    let mut np = interleave::<N>(x.n[0], x.n[1]);
    let st = steps(bit_len(x.n[0]));
    debug_assert_eq!(st, steps(bit_len(x.n[1])));
    let nr = PRegs::<N>::new(&np, x.k0, st);
    let size = 1 << WIN;
    // Cutting the table scan into parts between the squarings measured 3 % faster
    // for RSA-2048 (N = 5) on Zen 4 and 1-2 % slower for N = 8 and 10, whose longer
    // products already hide a whole scan placed before them.
    let split_lookup = N <= 6;
    let mut table = vec![0u64; size * d2];
    let mut one = vec![0u64; d2];
    one[0] = 1;
    one[1] = 1;
    let mut rr = interleave::<N>(x.rr[0], x.rr[1]);
    let mut bp = interleave::<N>(b[0], b[1]);
    {
        let (t0, rest) = table.split_at_mut(d2);
        ammp(t0, &one, &rr, &nr); // R' mod n
        ammp(&mut rest[..d2], &bp, &rr, &nr); // b R' mod n
    }
    for i in 2..size {
        let (done, rest) = table.split_at_mut(i * d2);
        ammp(
            &mut rest[..d2],
            &done[(i - 1) * d2..i * d2],
            &done[d2..2 * d2],
            &nr,
        );
    }
    let ebits = e[0].len() * 64;
    let windows = ebits.div_ceil(WIN);
    let mut acc = vec![0u64; d2];
    let mut tmp = vec![0u64; d2];
    let mut entry = vec![0u64; d2];
    for win in (0..windows).rev() {
        let idx = [
            window_at(e[0], win * WIN, WIN),
            window_at(e[1], win * WIN, WIN),
        ];
        if win == windows - 1 {
            lookup_pair::<N>(&mut acc, &table, idx);
            continue;
        }
        // With `split_lookup` the window's entry is read in WIN parts, one after each
        // squaring (which does not need it), so that the loads overlap the
        // multiply-adds; otherwise whole, before the squarings.
        if split_lookup {
            entry.fill(0);
        } else {
            lookup_pair::<N>(&mut entry, &table, idx);
        }
        for s in 0..WIN {
            ammp(&mut tmp, &acc, &acc, &nr);
            core::mem::swap(&mut acc, &mut tmp);
            if split_lookup {
                let (lo, hi) = (s * size / WIN, (s + 1) * size / WIN);
                lookup_pair_part::<N>(&mut entry, &table[lo * d2..hi * d2], idx, lo);
            }
        }
        ammp(&mut tmp, &acc, &entry, &nr);
        core::mem::swap(&mut acc, &mut tmp);
    }
    ammp(&mut tmp, &acc, &one, &nr);
    let [o0, o1] = out;
    deinterleave::<N>(&tmp, o0, o1);
    wipe(&mut [
        &mut table, &mut acc, &mut entry, &mut tmp, &mut np, &mut rr, &mut bp,
    ]);
}

/// Two exponentiations by the same **public** exponent, both halves in every register
/// (square-and-multiply that branches on the bits of `e`).
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma,bmi2")]
fn pow2_vartime<const N: usize>(out: [&mut [u64]; 2], b: [&[u64]; 2], e: &BoxedUint, x: &Pair<'_>) {
    let d2 = 8 * N;
    let mut np = interleave::<N>(x.n[0], x.n[1]);
    let st = steps(bit_len(x.n[0]));
    debug_assert_eq!(st, steps(bit_len(x.n[1])));
    let nr = PRegs::<N>::new(&np, x.k0, st);
    let mut one = vec![0u64; d2];
    one[0] = 1;
    one[1] = 1;
    let mut rr = interleave::<N>(x.rr[0], x.rr[1]);
    let mut bp = interleave::<N>(b[0], b[1]);
    let mut acc = vec![0u64; d2];
    let mut bm = vec![0u64; d2];
    let mut tmp = vec![0u64; d2];
    let bits = e.bits_vartime();
    if bits == 0 {
        ammp(&mut acc, &one, &rr, &nr); // R' mod n: 1
    } else {
        ammp(&mut bm, &bp, &rr, &nr); // b R' mod n
        acc.copy_from_slice(&bm);
    }
    for i in (0..bits.saturating_sub(1)).rev() {
        ammp(&mut tmp, &acc, &acc, &nr);
        core::mem::swap(&mut acc, &mut tmp);
        if e.bit(i) == 1 {
            ammp(&mut tmp, &acc, &bm, &nr);
            core::mem::swap(&mut acc, &mut tmp);
        }
    }
    ammp(&mut tmp, &acc, &one, &nr);
    let [o0, o1] = out;
    deinterleave::<N>(&tmp, o0, o1);
    wipe(&mut [&mut acc, &mut bm, &mut tmp, &mut np, &mut rr, &mut bp]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cpu_ns() -> u64 {
        use std::sync::OnceLock;
        static T0: OnceLock<std::time::Instant> = OnceLock::new();
        T0.get_or_init(std::time::Instant::now).elapsed().as_nanos() as u64
    }

    /// xorshift64* for test operands.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        /// `d` digits of a number of at most `bits` bits.
        fn digits(&mut self, d: usize, bits: usize) -> Vec<u64> {
            (0..d)
                .map(|k| {
                    let v = self.next() & MASK;
                    match bits.saturating_sub(52 * k) {
                        0 => 0,
                        b if b >= 52 => v,
                        b => v & ((1 << b) - 1),
                    }
                })
                .collect()
        }
    }

    /// `x + y` in normalised digits (the sum must fit).
    fn add_d(x: &[u64], y: &[u64]) -> Vec<u64> {
        let mut c = 0;
        x.iter()
            .zip(y)
            .map(|(&u, &v)| {
                let s = u + v + c;
                c = s >> 52;
                s & MASK
            })
            .collect()
    }

    /// `x - 1` in normalised digits (`x > 0`).
    fn dec_d(x: &[u64]) -> Vec<u64> {
        let mut out = x.to_vec();
        for v in out.iter_mut() {
            if *v > 0 {
                *v -= 1;
                break;
            }
            *v = MASK;
        }
        out
    }

    /// A random odd modulus of exactly `bits` bits in `d` digits, and its `k0`.
    fn modulus(rng: &mut Rng, d: usize, bits: usize) -> (Vec<u64>, u64) {
        let mut n = rng.digits(d, bits);
        n[0] |= 1;
        let top = bits - 1;
        n[top / 52] |= 1 << (top % 52);
        let k0 = limbs::neg_inv_u64(n[0]) & MASK;
        (n, k0)
    }

    /// Runs `f::<N>` for every compiled register count.
    macro_rules! each_n {
        ($f:ident) => {
            for_each_n!($f; 3 4 5 6 7 8 10 12 14 16 20 24 28 32 40 48 64 80)
        };
    }
    macro_rules! for_each_n {
        ($f:ident; $($r:literal)*) => {
            $( $f::<$r>(); )*
        };
    }

    /// [`normalize_pair`] on a pair in its layout, through memory.
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma,bmi2")]
    fn normalize_words<const N: usize>(w: &mut [u64]) {
        let mut acc: [__m512i; N] = load8_n(w);
        normalize_pair(&mut acc);
        for (j, &v) in acc.iter().enumerate() {
            store8(w, j, v);
        }
    }

    /// The carry normalisation equals a scalar carry ripple, on lanes of up to 60 bits
    /// with a chain of digits `2^52 - 1` above a generated carry in each half (so the
    /// carry-lookahead ripples, across its 64-bit words where the pair has more than 32
    /// digits), for every register count and both pair layouts.
    fn normalize_eq_scalar<const N: usize>() {
        let d = 4 * N;
        let mut rng = Rng(0x5eed ^ N as u64);
        for case in 0..64 {
            let mut x = [vec![0u64; d], vec![0u64; d]];
            let mut want = [vec![0u64; d], vec![0u64; d]];
            for h in 0..2 {
                for v in x[h][..d - 1].iter_mut() {
                    *v = rng.next() >> 4;
                }
                // Lane g0 gets a carry from below and is 2^52 - 1: it generates one,
                // which lanes g0 + 1 .. g1 (2^52 - 1, no carry of their own) propagate.
                let g0 = (case * 7 + 13 * h) % (d - 2);
                let g1 = g0 + 1 + (rng.next() as usize) % (d - 2 - g0);
                if g0 > 0 {
                    x[h][g0 - 1] = 1 << 52;
                    x[h][g0] = MASK;
                } else {
                    x[h][g0] = MASK + 1;
                }
                for v in x[h][g0 + 1..g1].iter_mut() {
                    *v = MASK;
                }
                x[h][d - 1] = 0;
                let mut carry = 0u64;
                for i in 0..d {
                    let t = x[h][i] + carry;
                    want[h][i] = t & MASK;
                    carry = t >> 52;
                }
                assert_eq!(carry, 0);
                // The ripple happened: the chain is all zero.
                assert!(want[h][g0..g1].iter().all(|&v| v == 0));
            }
            let mut w = interleave::<N>(&x[0], &x[1]);
            // SAFETY: the caller checked the IFMA token (which includes BMI2).
            unsafe { normalize_words::<N>(&mut w) };
            assert_eq!(w, interleave::<N>(&want[0], &want[1]), "N={N} case {case}");
        }
    }

    #[test]
    fn normalize_pair_matches_scalar() {
        if Ifma::get().is_none() {
            return;
        }
        each_n!(normalize_eq_scalar);
    }

    /// The paired kernel equals two single multiplications, on random and edge operands
    /// (0, 1, n - 1, n, 2n - 1), for every register count and for step counts `4 N` and
    /// `4 N - 1`.
    fn paired_eq_single<const N: usize>() {
        let d = 4 * N;
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ N as u64);
        let mut checked = 0;
        for bits in [208 * N - 2, 208 * N - 60] {
            let (n0, k00) = modulus(&mut rng, d, bits);
            let (n1, k01) = modulus(&mut rng, d, bits);
            let st = steps(bits);
            let (nr0, nr1) = (NRegs::<N>::new(&n0, k00), NRegs::<N>::new(&n1, k01));
            assert_eq!((nr0.steps, nr1.steps), (st, st));
            let np = interleave::<N>(&n0, &n1);
            let pr = PRegs::<N>::new(&np, [k00, k01], st);
            let edges = |n: &[u64]| {
                let mut one = vec![0u64; d];
                one[0] = 1;
                let two_n = add_d(n, n);
                vec![vec![0u64; d], one, dec_d(n), n.to_vec(), dec_d(&two_n)]
            };
            let (mut ops0, mut ops1) = (edges(&n0), edges(&n1));
            for _ in 0..6 {
                ops0.push(rng.digits(d, bits + 1));
                ops1.push(rng.digits(d, bits + 1));
            }
            ops0.push(n0.iter().map(|_| 0).collect());
            ops1.push(dec_d(&add_d(&n1, &n1)));
            for (i, (a0, a1)) in ops0.iter().zip(&ops1).enumerate() {
                for (b0, b1) in ops0.iter().zip(ops1.iter().rev().skip(i % 3)) {
                    let (mut r0, mut r1) = (vec![0u64; d], vec![0u64; d]);
                    let mut rp = vec![0u64; 2 * d];
                    // SAFETY: the caller checked the IFMA token.
                    unsafe {
                        amm1(&mut r0, a0, b0, &nr0);
                        amm1(&mut r1, a1, b1, &nr1);
                        ammp(
                            &mut rp,
                            &interleave::<N>(a0, a1),
                            &interleave::<N>(b0, b1),
                            &pr,
                        );
                    }
                    assert_eq!(rp, interleave::<N>(&r0, &r1), "N={N} bits={bits}");
                    let ap = interleave::<N>(a0, a1);
                    let (mut s0, mut s1) = (vec![0u64; d], vec![0u64; d]);
                    let mut sp = vec![0u64; 2 * d];
                    checked += 1;
                    // SAFETY: the caller checked the IFMA token.
                    unsafe {
                        amm1(&mut s0, a0, a0, &nr0);
                        amm1(&mut s1, a1, a1, &nr1);
                        ammp(&mut sp, &ap, &ap, &pr);
                    }
                    assert_eq!(sp, interleave::<N>(&s0, &s1), "square N={N} bits={bits}");
                }
            }
        }
        assert!(checked > 100);
    }

    #[test]
    fn ammp_matches_amm1() {
        if Ifma::get().is_none() {
            return;
        }
        each_n!(paired_eq_single);
    }

    /// Two random moduli of `4 N` digits for the paired tests, with their `k0` and the
    /// `rr` values the kernels take (one of them arbitrary: the tests compare kernels).
    struct TwoModuli {
        d: usize,
        bits: usize,
        n: [Vec<u64>; 2],
        k0: [u64; 2],
        rr: [Vec<u64>; 2],
    }

    impl TwoModuli {
        fn new<const N: usize>(rng: &mut Rng) -> TwoModuli {
            let d = 4 * N;
            let bits = 208 * N - 2;
            let (n0, k00) = modulus(rng, d, bits);
            let (n1, k01) = modulus(rng, d, bits);
            let rr0 = dec_d(&n0);
            let rr1 = rng.digits(d, bits - 1);
            TwoModuli {
                d,
                bits,
                n: [n0, n1],
                k0: [k00, k01],
                rr: [rr0, rr1],
            }
        }

        fn pair(&self) -> Pair<'_> {
            Pair {
                n: [&self.n[0], &self.n[1]],
                k0: self.k0,
                rr: [&self.rr[0], &self.rr[1]],
            }
        }
    }

    /// The paired exponentiation equals two single ones (random exponents, windows differing
    /// between the halves, an all-zero and an all-ones exponent).
    fn pow_paired_eq_single<const N: usize>() {
        let mut rng = Rng(0x1234_5678 ^ N as u64);
        let m = TwoModuli::new::<N>(&mut rng);
        let (d, bits, x) = (m.d, m.bits, m.pair());
        let ([n0, n1], [k00, k01], [rr0, rr1]) = (&m.n, m.k0, &m.rr);
        // Exponents of four limbs (52 windows): the test runs unoptimised too.
        let el = 4;
        let exps: [(Vec<u64>, Vec<u64>); 2] = [
            (
                (0..el).map(|_| rng.next()).collect(),
                (0..el).map(|_| rng.next()).collect(),
            ),
            (vec![0; el], vec![u64::MAX; el]),
        ];
        for (e0, e1) in &exps {
            let b0 = rng.digits(d, bits - 1);
            let b1 = dec_d(n1);
            let (mut r0, mut r1) = (vec![0u64; d], vec![0u64; d]);
            let (mut p0, mut p1) = (vec![0u64; d], vec![0u64; d]);
            // SAFETY: the caller checked the IFMA token.
            unsafe {
                pow1::<N>(&mut r0, &b0, e0, n0, k00, rr0);
                pow1::<N>(&mut r1, &b1, e1, n1, k01, rr1);
                pow2::<N>([&mut p0, &mut p1], [&b0, &b1], [e0, e1], &x);
            }
            assert_eq!((p0, p1), (r0, r1), "N={N}");
        }
    }

    /// The paired public-exponent exponentiation equals two single ones (65537, a random
    /// four-limb exponent, 1 and 0).
    fn pow_vartime_paired_eq_single<const N: usize>() {
        let mut rng = Rng(0x5eed ^ N as u64);
        let m = TwoModuli::new::<N>(&mut rng);
        let (d, bits, x) = (m.d, m.bits, m.pair());
        let ([n0, n1], [k00, k01], [rr0, rr1]) = (&m.n, m.k0, &m.rr);
        let exps = [
            BoxedUint::from_u64(65537, 1),
            BoxedUint::from_limbs(&[rng.next(), rng.next(), rng.next(), rng.next()]),
            BoxedUint::from_u64(1, 1),
            BoxedUint::zero(1),
        ];
        let mut checked = 0;
        for e in &exps {
            let b0 = rng.digits(d, bits - 1);
            let b1 = dec_d(n1);
            let (mut r0, mut r1) = (vec![0u64; d], vec![0u64; d]);
            let (mut p0, mut p1) = (vec![0u64; d], vec![0u64; d]);
            // SAFETY: the caller checked the IFMA token.
            unsafe {
                pow1_vartime::<N>(&mut r0, &b0, e, n0, k00, rr0);
                pow1_vartime::<N>(&mut r1, &b1, e, n1, k01, rr1);
                pow2_vartime::<N>([&mut p0, &mut p1], [&b0, &b1], e, &x);
            }
            assert_eq!((p0, p1), (r0, r1), "N={N}");
            checked += 1;
        }
        assert_eq!(checked, 4);
    }

    #[test]
    fn pow2_vartime_matches_pow1_vartime() {
        if Ifma::get().is_none() {
            return;
        }
        each_n!(pow_vartime_paired_eq_single);
    }

    #[test]
    fn pow2_matches_pow1() {
        if Ifma::get().is_none() {
            return;
        }
        each_n!(pow_paired_eq_single);
    }

    /// `cargo test --release -p shyfr --lib amm_speed -- --ignored --nocapture`: two single
    /// multiplications against one paired multiplication and one paired squaring, with
    /// inputs that are the previous outputs (as in the exponentiation).
    #[test]
    #[ignore]
    fn amm_speed() {
        if Ifma::get().is_none() {
            return;
        }
        fn run<const N: usize>() {
            let d = 4 * N;
            let mut rng = Rng(7);
            let (n, k0) = modulus(&mut rng, d, 208 * N - 2);
            let nr = NRegs::<N>::new(&n, k0);
            let pr = PRegs::<N>::new(&interleave::<N>(&n, &n), [k0, k0], nr.steps);
            let a = rng.digits(d, 208 * N - 3);
            let (mut x0, mut x1, mut t0, mut t1) = (a.clone(), a.clone(), a.clone(), a.clone());
            let mut xp = interleave::<N>(&a, &a);
            let mut tp = xp.clone();
            let (mut one, mut pair) = (f64::MAX, f64::MAX);
            let reps = 2000;
            for _ in 0..50 {
                // SAFETY: the token was checked by the caller.
                unsafe {
                    let t = cpu_ns();
                    for _ in 0..reps {
                        amm1::<N>(&mut t0, &x0, &x0, &nr);
                        amm1::<N>(&mut t1, &x1, &x1, &nr);
                        core::mem::swap(&mut t0, &mut x0);
                        core::mem::swap(&mut t1, &mut x1);
                    }
                    one = one.min((cpu_ns() - t) as f64 / reps as f64);
                    let t = cpu_ns();
                    for _ in 0..reps {
                        ammp::<N>(&mut tp, &xp, &xp, &pr);
                        core::mem::swap(&mut tp, &mut xp);
                    }
                    pair = pair.min((cpu_ns() - t) as f64 / reps as f64);
                }
            }
            std::println!("N={N}: 2 x amm1 {one:.1} ns, ammp {pair:.1} ns (best of 50)");
        }
        run::<5>();
        run::<8>();
        run::<10>();
    }
}
