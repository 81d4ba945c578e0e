//! Modular exponentiation with AVX-512 IFMA: numbers in 52-bit digits, four digits a 256-bit
//! register, almost-Montgomery multiplication (results stay below `2n`, reduced once at
//! the end). Two moduli of the same size — the RSA CRT halves — share every 512-bit
//! register, one a 256-bit half ([`ammp`], [`ammp_sqr`]: one instruction stream for both
//! exponentiations, squarings with the symmetric products formed once); a single
//! exponentiation uses 256-bit registers ([`amm1`]).
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

/// `$body` for the register count `$regs`, with `$R` a constant equal to it: one instance
/// of the kernels per register count the parameters allow (`Params::regs`).
macro_rules! by_regs {
    ($regs:expr, $R:ident => $body:expr) => {
        by_regs!(@ $regs, $R, $body, 5 6 7 8 10 12 14 16 20 24 28 32 40 48 64 80)
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
        // SAFETY: `self.token` proves AVX-512F/VL and IFMA.
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
            // SAFETY: `p1.token` proves AVX-512F/VL and IFMA.
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
            // SAFETY: `p1.token` proves AVX-512F/VL and IFMA.
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
        // SAFETY: `self.token` proves AVX-512F/VL and IFMA.
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
        // SAFETY: `self.token` proves AVX-512F/VL and IFMA.
        unsafe {
            by_regs!(self.regs, R => amm1::<{ R }>(&mut out, &ad, &bd, &NRegs::<{ R }>::new(&self.n, self.k0)))
        };
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
        // SAFETY: `self.token` proves AVX-512F/VL and IFMA.
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
        let n_v: [__m256i; N] = core::array::from_fn(|j| load(n, j));
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

// ---------------------------------------------------------------------------------------
// Both CRT halves in one 512-bit register.
//
// A pair of numbers `x` (half 0) and `y` (half 1) of `D` digits is stored digit-pair
// interleaved: `[x_0, y_0, x_1, y_1, ...]`, `2 D` words, so that register `j` holds digits
// `4 j .. 4 j + 3` of both numbers (even lanes `x`, odd lanes `y`). Every multiply-add then
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

/// Two digit vectors to one interleaved pair.
fn interleave(x: &[u64], y: &[u64]) -> Vec<u64> {
    x.iter().zip(y).flat_map(|(&u, &v)| [u, v]).collect()
}

/// One interleaved pair back to its two digit vectors.
fn deinterleave(p: &[u64], x: &mut [u64], y: &mut [u64]) {
    for (k, c) in p.chunks_exact(2).enumerate() {
        x[k] = c[0];
        y[k] = c[1];
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
            let nv: [__m512i; N] = core::array::from_fn(|j| load8(n, j));
            let z = _mm512_setzero_si512();
            PRegs {
                n1: core::array::from_fn(|j| {
                    _mm512_alignr_epi64::<2>(if j + 1 < N { nv[j + 1] } else { z }, nv[j])
                }),
                n: nv,
                k0v: _mm512_broadcast_i32x4(_mm_set_epi64x(k0[1] as i64, k0[0] as i64)),
                steps,
            }
        }
    }
}

/// Carries a paired accumulator into normalised 52-bit digits (each half below
/// `2^(52 D)`); [`normalize`] with the digit stride two lanes.
#[inline(always)]
fn normalize_pair<const N: usize>(acc: &mut [__m512i; N]) {
    // SAFETY: as in `amm_step`.
    unsafe {
        let mask = _mm512_set1_epi64(MASK as i64);
        let z = _mm512_setzero_si512();
        let mut c = [z; N];
        for j in 0..N {
            c[j] = _mm512_srli_epi64::<52>(acc[j]);
            acc[j] = _mm512_and_si512(acc[j], mask);
        }
        // Each digit's carry goes one digit (two lanes) up.
        acc[0] = _mm512_add_epi64(acc[0], _mm512_alignr_epi64::<6>(c[0], z));
        for j in 1..N {
            acc[j] = _mm512_add_epi64(acc[j], _mm512_alignr_epi64::<6>(c[j], c[j - 1]));
        }
        // Carry-lookahead as in `normalize`, one bit a lane, eight lanes a register. A
        // digit's carry goes two bits up; the bits of the other half are set in the
        // propagate word, so that a carry crosses them unchanged, and ignored afterwards.
        let mut g = [0u64; 2 * MASK_WORDS];
        let mut p = [0u64; 2 * MASK_WORDS];
        for j in 0..N {
            let (w, b) = ((8 * j) / 64, (8 * j) % 64);
            g[w] |= (_mm512_cmpgt_epu64_mask(acc[j], mask) as u64) << b;
            p[w] |= (_mm512_cmpeq_epu64_mask(acc[j], mask) as u64) << b;
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
            let k = (x[(8 * j) / 64] >> ((8 * j) % 64)) as __mmask8;
            acc[j] = _mm512_and_si512(_mm512_mask_add_epi64(acc[j], k, acc[j], one), mask);
        }
    }
}

/// Two almost-Montgomery multiplications, one a 256-bit half of every register:
/// `r = a b / R'` per half, on interleaved pairs (`2 D` words each).
#[inline(never)]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn ammp<const N: usize>(r: &mut [u64], a: &[u64], b: &[u64], nr: &PRegs<N>) {
    let z = _mm512_setzero_si512();
    let av: [__m512i; N] = core::array::from_fn(|j| load8(a, j));
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

/// Steps `4 B .. 4 B + 3` (those below `nr.steps`) of [`ammp_sqr`], and the high halves
/// after the last step.
///
/// Positions as in [`amm_step`]: at step `i`, lane pair `k` of the registers is digit
/// `i + k`. Of the products `a_k a_i` (low halves) and `a_k a_{i-1}` (high halves) only
/// those with `k` above the digit of `b` are formed, doubled, and the square of that digit
/// is added from `dlo` / `dhi` (the low / high halves of `a_k^2` in lane pair `k`). Every
/// digit of the sum is complete, as with the full product, by the step that consumes it,
/// so the result equals [`ammp`]`(a, a)` exactly. The register of the digit is the
/// constant `B`: the registers below it are left out at compile time (about 40% of the
/// products of `a` at 5 registers), and no step branches.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn sqr_block<const N: usize, const B: usize>(
    acc: &mut [__m512i; N],
    av: &[__m512i; N],
    dlo: &[__m512i; N],
    dhi: &[__m512i; N],
    nr: &PRegs<N>,
    b: &[u64],
    bp: &mut __m512i,
) {
    // SAFETY: as in `amm_step`.
    unsafe {
        let z = _mm512_setzero_si512();
        let maskv = _mm512_set1_epi64(MASK as i64);
        unroll10!(4, r, {
            let i = 4 * B + r;
            if i < nr.steps {
                let c: &[u64; 2] = b[2 * i..2 * i + 2].try_into().expect("one digit pair");
                // SAFETY: `c` is 16 readable bytes; the unaligned load has no alignment
                // requirement.
                let bv = _mm512_broadcast_i32x4(_mm_loadu_si128(c.as_ptr().cast()));
                // Digit `i` is lane pair `r` of register `B`; digit `i - 1` is lane pair
                // `r - 1` of register `B`, or lane pair 3 of register `B - 1` (r = 0).
                let above_l = (0xffu32 << (2 * r + 2)) as __mmask8;
                let at_l = (3u32 << (2 * r)) as __mmask8;
                let (jh, rh) = if r > 0 {
                    (B, r - 1)
                } else {
                    (B.wrapping_sub(1), 3)
                };
                let above_h = (0xffu32 << (2 * rh + 2)) as __mmask8;
                let at_h = (3u32 << (2 * rh)) as __mmask8;
                unroll10!(N, j, {
                    if j >= B {
                        let mut p = if j == B {
                            _mm512_maskz_madd52lo_epu64(above_l, z, av[j], bv)
                        } else {
                            _mm512_madd52lo_epu64(z, av[j], bv)
                        };
                        if i > 0 {
                            p = if j == jh {
                                _mm512_mask_madd52hi_epu64(p, above_h, av[j], *bp)
                            } else {
                                _mm512_madd52hi_epu64(p, av[j], *bp)
                            };
                        }
                        let mut t = _mm512_add_epi64(acc[j], _mm512_add_epi64(p, p));
                        if j == B {
                            t = _mm512_mask_add_epi64(t, at_l, t, dlo[j]);
                        }
                        if i > 0 && j == jh {
                            t = _mm512_mask_add_epi64(t, at_h, t, dhi[j]);
                        }
                        acc[j] = t;
                    } else if i > 0 && j == jh {
                        // r = 0: only the square of digit i - 1 (its register has no digit
                        // above it).
                        acc[j] = _mm512_mask_add_epi64(acc[j], at_h, acc[j], dhi[j]);
                    }
                });
                let t = acc[0];
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
                    acc[j] = _mm512_madd52hi_epu64(
                        _mm512_madd52lo_epu64(acc[j], nr.n1[j], mv),
                        nr.n[j],
                        mv,
                    );
                }
                *bp = bv;
                if i + 1 == nr.steps {
                    // After the last step: the high halves of `a_k a_i` (lane pair `k`
                    // is now digit `i + 1 + k`), as in a step.
                    unroll10!(N, j, {
                        if j >= B {
                            let p = if j == B {
                                _mm512_maskz_madd52hi_epu64(above_l, z, av[j], bv)
                            } else {
                                _mm512_madd52hi_epu64(z, av[j], bv)
                            };
                            let mut t = _mm512_add_epi64(acc[j], _mm512_add_epi64(p, p));
                            if j == B {
                                t = _mm512_mask_add_epi64(t, at_l, t, dhi[j]);
                            }
                            acc[j] = t;
                        }
                    });
                }
            }
        });
    }
}

/// Register counts (at most) with a dedicated squaring: [`sqr_block`] is written out for
/// every block, which makes the code grow with the square of the size.
const SQR_MAX_REGS: usize = 10;

/// [`ammp`] with `b = a`: `r = a^2 / R'` per half, with the symmetric products formed once
/// (`N` at most [`SQR_MAX_REGS`]).
#[inline(never)]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn ammp_sqr<const N: usize>(r: &mut [u64], a: &[u64], nr: &PRegs<N>) {
    if N > SQR_MAX_REGS {
        return ammp(r, a, a, nr);
    }
    let z = _mm512_setzero_si512();
    let av: [__m512i; N] = core::array::from_fn(|j| load8(a, j));
    let dlo: [__m512i; N] = core::array::from_fn(|j| _mm512_madd52lo_epu64(z, av[j], av[j]));
    let dhi: [__m512i; N] = core::array::from_fn(|j| _mm512_madd52hi_epu64(z, av[j], av[j]));
    let mut acc = [z; N];
    let b = &a[..2 * nr.steps];
    let mut bp = z;
    macro_rules! blocks {
        ($($k:literal)*) => {
            $(
                if $k < N {
                    sqr_block::<N, $k>(&mut acc, &av, &dlo, &dhi, nr, b, &mut bp);
                }
            )*
        };
    }
    blocks!(0 1 2 3 4 5 6 7 8 9);
    normalize_pair(&mut acc);
    for (j, &v) in acc.iter().enumerate() {
        store8(r, j, v);
    }
}

/// `out = table[idx]` per half over interleaved entries of `2 d` words, every entry read
/// under a mask (`idx[0]` for the even lanes, `idx[1]` for the odd).
#[inline(always)]
fn lookup_pair<const N: usize>(out: &mut [u64], table: &[u64], idx: [usize; 2]) {
    // SAFETY: as in `amm_step`.
    unsafe {
        let want = _mm512_broadcast_i32x4(_mm_set_epi64x(idx[1] as i64, idx[0] as i64));
        let mut acc = [_mm512_setzero_si512(); N];
        for (e, entry) in table.chunks_exact(8 * N).enumerate() {
            let m = _mm512_cmpeq_epi64_mask(_mm512_set1_epi64(e as i64), want);
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
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn pow2<const N: usize>(out: [&mut [u64]; 2], b: [&[u64]; 2], e: [&[u64]; 2], x: &Pair<'_>) {
    let d2 = 8 * N;
    let mut np = interleave(x.n[0], x.n[1]);
    let st = steps(bit_len(x.n[0]));
    debug_assert_eq!(st, steps(bit_len(x.n[1])));
    let nr = PRegs::<N>::new(&np, x.k0, st);
    let size = 1 << WIN;
    let mut table = vec![0u64; size * d2];
    let mut one = vec![0u64; d2];
    one[0] = 1;
    one[1] = 1;
    let mut rr = interleave(x.rr[0], x.rr[1]);
    let mut bp = interleave(b[0], b[1]);
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
        lookup_pair::<N>(&mut entry, &table, idx);
        if win == windows - 1 {
            acc.copy_from_slice(&entry);
            continue;
        }
        for _ in 0..WIN {
            ammp_sqr(&mut tmp, &acc, &nr);
            core::mem::swap(&mut acc, &mut tmp);
        }
        ammp(&mut tmp, &acc, &entry, &nr);
        core::mem::swap(&mut acc, &mut tmp);
    }
    ammp(&mut tmp, &acc, &one, &nr);
    let [o0, o1] = out;
    deinterleave(&tmp, o0, o1);
    wipe(&mut [
        &mut table, &mut acc, &mut entry, &mut tmp, &mut np, &mut rr, &mut bp,
    ]);
}

/// Two exponentiations by the same **public** exponent, both halves in every register
/// (square-and-multiply that branches on the bits of `e`).
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn pow2_vartime<const N: usize>(out: [&mut [u64]; 2], b: [&[u64]; 2], e: &BoxedUint, x: &Pair<'_>) {
    let d2 = 8 * N;
    let mut np = interleave(x.n[0], x.n[1]);
    let st = steps(bit_len(x.n[0]));
    debug_assert_eq!(st, steps(bit_len(x.n[1])));
    let nr = PRegs::<N>::new(&np, x.k0, st);
    let mut one = vec![0u64; d2];
    one[0] = 1;
    one[1] = 1;
    let mut rr = interleave(x.rr[0], x.rr[1]);
    let mut bp = interleave(b[0], b[1]);
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
        ammp_sqr(&mut tmp, &acc, &nr);
        core::mem::swap(&mut acc, &mut tmp);
        if e.bit(i) == 1 {
            ammp(&mut tmp, &acc, &bm, &nr);
            core::mem::swap(&mut acc, &mut tmp);
        }
    }
    ammp(&mut tmp, &acc, &one, &nr);
    let [o0, o1] = out;
    deinterleave(&tmp, o0, o1);
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
            for_each_n!($f; 5 6 7 8 10 12 14 16 20 24 28 32 40 48 64 80)
        };
    }
    macro_rules! for_each_n {
        ($f:ident; $($r:literal)*) => {
            $( $f::<$r>(); )*
        };
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
            let np = interleave(&n0, &n1);
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
                        ammp(&mut rp, &interleave(a0, a1), &interleave(b0, b1), &pr);
                    }
                    assert_eq!(rp, interleave(&r0, &r1), "N={N} bits={bits}");
                    let ap = interleave(a0, a1);
                    let (mut s0, mut s1) = (vec![0u64; d], vec![0u64; d]);
                    let mut sp = vec![0u64; 2 * d];
                    checked += 1;
                    if N > SQR_MAX_REGS {
                        continue;
                    }
                    // SAFETY: the caller checked the IFMA token.
                    unsafe {
                        amm1(&mut s0, a0, a0, &nr0);
                        amm1(&mut s1, a1, a1, &nr1);
                        ammp_sqr(&mut sp, &ap, &pr);
                    }
                    assert_eq!(sp, interleave(&s0, &s1), "square N={N} bits={bits}");
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
            let pr = PRegs::<N>::new(&interleave(&n, &n), [k0, k0], nr.steps);
            let a = rng.digits(d, 208 * N - 3);
            let (mut x0, mut x1, mut t0, mut t1) = (a.clone(), a.clone(), a.clone(), a.clone());
            let mut xp = interleave(&a, &a);
            let mut tp = xp.clone();
            let (mut one, mut pair, mut sqr) = (f64::MAX, f64::MAX, f64::MAX);
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
                    let t = cpu_ns();
                    for _ in 0..reps {
                        ammp_sqr::<N>(&mut tp, &xp, &pr);
                        core::mem::swap(&mut tp, &mut xp);
                    }
                    sqr = sqr.min((cpu_ns() - t) as f64 / reps as f64);
                }
            }
            std::println!(
                "N={N}: 2 x amm1 {one:.1} ns, ammp {pair:.1} ns, ammp_sqr {sqr:.1} ns (best of 50)"
            );
        }
        run::<5>();
        run::<8>();
        run::<10>();
    }
}
