//! [`Modulus`]: Montgomery arithmetic modulo an odd integer, with the backend chosen when
//! the modulus is set up.
#![deny(unsafe_code)]

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use super::limbs::{self, LIMB_BITS};
use super::{soft, Backend, BoxedUint, MAX_LIMBS};
use crate::Error;

#[cfg(target_arch = "x86_64")]
use super::{x86_adx, x86_ifma};
#[cfg(target_arch = "x86_64")]
use crate::cpu::x86 as arch_cpu;

/// The Montgomery multiplication kernel of a backend, with the token that proves its CPU
/// features.
#[derive(Clone, Copy, Debug)]
enum Kernel {
    #[cfg(target_arch = "x86_64")]
    Ifma(arch_cpu::Ifma),
    #[cfg(target_arch = "x86_64")]
    Adx(arch_cpu::Adx),
    #[cfg(target_arch = "aarch64")]
    Aarch64,
    Soft,
}

/// An odd modulus `n > 1` set up for Montgomery arithmetic (`R = 2^(64 L)` for `L` limbs).
///
/// The modulus itself is treated as secret where it is one (RSA primes): nothing here
/// branches on its value after set-up, and set-up itself only on its bit length.
#[derive(Clone)]
pub struct Modulus {
    n: BoxedUint,
    n0: u64,
    /// `R^2 mod n`.
    rr: BoxedUint,
    /// `R mod n` (1 in Montgomery form).
    one: BoxedUint,
    bits: usize,
    kernel: Kernel,
    #[cfg(target_arch = "x86_64")]
    ifma: Option<x86_ifma::Params>,
}

impl fmt::Debug for Modulus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Modulus")
            .field("bits", &self.bits)
            .field("backend", &self.backend())
            .finish_non_exhaustive()
    }
}

impl Modulus {
    /// Sets up `n` (odd, at least 3, at most [`MAX_LIMBS`] limbs) with the fastest
    /// available backend.
    pub fn new(n: &BoxedUint) -> Result<Self, Error> {
        Self::with_backend(n, Backend::best())
    }

    /// Sets up `n` with an explicit backend; an error if it is not available here.
    pub fn with_backend(n: &BoxedUint, backend: Backend) -> Result<Self, Error> {
        if !backend.self_test() {
            return Err(Error::BackendUnavailable);
        }
        Self::with_backend_untested(n, backend)
    }

    pub(super) fn with_backend_untested(n: &BoxedUint, backend: Backend) -> Result<Self, Error> {
        let bits = n.bits_vartime();
        if !n.is_odd() || bits < 2 {
            return Err(Error::InvalidParameter {
                what: "modulus must be odd and at least 3",
            });
        }
        let l = bits.div_ceil(LIMB_BITS);
        if l > MAX_LIMBS {
            return Err(Error::TooLong { what: "modulus" });
        }
        let kernel = match backend {
            #[cfg(target_arch = "x86_64")]
            Backend::X86Ifma => {
                Kernel::Ifma(arch_cpu::Ifma::get().ok_or(Error::BackendUnavailable)?)
            }
            #[cfg(target_arch = "x86_64")]
            Backend::X86Adx => Kernel::Adx(arch_cpu::Adx::get().ok_or(Error::BackendUnavailable)?),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64 => Kernel::Aarch64,
            Backend::Soft => Kernel::Soft,
            #[allow(unreachable_patterns)]
            _ => return Err(Error::BackendUnavailable),
        };
        let n = n.resize_unchecked(l);
        let n0 = limbs::neg_inv_u64(n.limbs[0]);
        // R^2 mod n by 2 * 64 * L modular doublings of 1.
        let mut rr = BoxedUint::from_u64(1, l);
        for _ in 0..2 * LIMB_BITS * l {
            let c = limbs::shl1(&mut rr.limbs);
            let t = rr.clone();
            soft::final_sub(&mut rr.limbs, &t.limbs, c, &n.limbs);
        }
        let mut m = Modulus {
            one: BoxedUint::zero(l),
            n,
            n0,
            rr,
            bits,
            kernel,
            #[cfg(target_arch = "x86_64")]
            ifma: None,
        };
        let mut one = BoxedUint::zero(l);
        m.mont_mul_limbs(
            &mut one.limbs,
            &m.rr.limbs,
            &BoxedUint::from_u64(1, l).limbs,
        );
        m.one = one;
        #[cfg(target_arch = "x86_64")]
        if let Kernel::Ifma(t) = kernel {
            m.ifma = x86_ifma::Params::new(&m, bits, t);
        }
        Ok(m)
    }

    /// The backend this modulus uses.
    pub fn backend(&self) -> Backend {
        match self.kernel {
            #[cfg(target_arch = "x86_64")]
            Kernel::Ifma(_) => Backend::X86Ifma,
            #[cfg(target_arch = "x86_64")]
            Kernel::Adx(_) => Backend::X86Adx,
            #[cfg(target_arch = "aarch64")]
            Kernel::Aarch64 => Backend::Aarch64,
            Kernel::Soft => Backend::Soft,
        }
    }

    /// The modulus.
    pub fn modulus(&self) -> &BoxedUint {
        &self.n
    }

    /// Bit length of the modulus.
    pub fn bits(&self) -> usize {
        self.bits
    }

    /// Limbs of every value modulo `n`.
    pub fn nlimbs(&self) -> usize {
        self.n.limbs.len()
    }

    /// `r = a b R^{-1} mod n` for `a < R`, `b < n` (limb slices of the modulus's width).
    #[inline]
    pub(crate) fn mont_mul_limbs(&self, r: &mut [u64], a: &[u64], b: &[u64]) {
        match self.kernel {
            #[cfg(target_arch = "x86_64")]
            Kernel::Ifma(t) => x86_adx::mont_mul(r, a, b, &self.n.limbs, self.n0, t.adx()),
            #[cfg(target_arch = "x86_64")]
            Kernel::Adx(t) => x86_adx::mont_mul(r, a, b, &self.n.limbs, self.n0, t),
            #[cfg(target_arch = "aarch64")]
            Kernel::Aarch64 => super::aarch64::mont_mul(r, a, b, &self.n.limbs, self.n0),
            Kernel::Soft => soft::mont_mul(r, a, b, &self.n.limbs, self.n0),
        }
    }

    /// `r = a^2 R^{-1} mod n` for `a < n`: the value of `mont_mul(r, a, a)`; `x86_adx` has a
    /// dedicated squaring, the other backends multiply.
    #[inline]
    fn mont_sqr(&self, r: &mut [u64], a: &[u64]) {
        #[cfg(target_arch = "x86_64")]
        if let Kernel::Adx(t) = self.kernel {
            return x86_adx::mont_sqr(r, a, &self.n.limbs, self.n0, t);
        }
        self.mont_mul_limbs(r, a, a)
    }

    fn mont_mul_new(&self, a: &[u64], b: &[u64]) -> BoxedUint {
        let mut r = BoxedUint::zero(self.nlimbs());
        self.mont_mul_limbs(&mut r.limbs, a, b);
        r
    }

    /// `a` (`< R`) into Montgomery form `a R mod n`.
    fn to_mont(&self, a: &[u64]) -> BoxedUint {
        self.mont_mul_new(a, &self.rr.limbs)
    }

    /// Montgomery form back to the plain residue.
    fn out_of_mont(&self, a: &[u64]) -> BoxedUint {
        let one = BoxedUint::from_u64(1, self.nlimbs());
        self.mont_mul_new(a, &one.limbs)
    }

    /// `x mod n` for `x` of any width, in constant time (Horner's rule on `L`-limb chunks,
    /// two Montgomery multiplications a chunk).
    pub fn reduce(&self, x: &BoxedUint) -> BoxedUint {
        let l = self.nlimbs();
        // Fast paths on widths (public): x narrower than n is already reduced; x of n's
        // width is below 2n when n fills its top limb, so one conditional subtraction.
        if x.limbs.len() < l {
            return self.fit(x);
        }
        if x.limbs.len() == l && self.bits == l * LIMB_BITS {
            let mut r = BoxedUint::zero(l);
            soft::final_sub(&mut r.limbs, &x.limbs, 0, &self.n.limbs);
            return r;
        }
        let chunks = x.limbs.len().div_ceil(l).max(1);
        let mut chunk = BoxedUint::zero(l);
        if self.bits == l * LIMB_BITS {
            // n fills its top limb: every chunk is below R < 2n, reduced by one conditional
            // subtraction, and Horner's rule takes one Montgomery multiplication a chunk,
            // acc R = mont(acc, R^2) (one instead of five for a residue of twice n's width,
            // the RSA CRT's reductions modulo p and q).
            let mut acc = BoxedUint::zero(l);
            for c in (0..chunks).rev() {
                let lo = c * l;
                let hi = (lo + l).min(x.limbs.len());
                chunk.limbs.fill(0);
                chunk.limbs[..hi - lo].copy_from_slice(&x.limbs[lo..hi]);
                let mut cr = BoxedUint::zero(l);
                soft::final_sub(&mut cr.limbs, &chunk.limbs, 0, &self.n.limbs);
                acc = if c == chunks - 1 {
                    cr
                } else {
                    let shifted = self.mont_mul_new(&acc.limbs, &self.rr.limbs);
                    self.add_raw(&shifted, &cr)
                };
            }
            return acc;
        }
        let mut acc = BoxedUint::zero(l);
        for c in (0..chunks).rev() {
            let lo = c * l;
            let hi = (lo + l).min(x.limbs.len());
            chunk.limbs.fill(0);
            chunk.limbs[..hi - lo].copy_from_slice(&x.limbs[lo..hi]);
            let shifted = self.mont_mul_new(&acc.limbs, &self.rr.limbs);
            let cm = self.to_mont(&chunk.limbs);
            acc = self.add_raw(&shifted, &cm);
        }
        self.out_of_mont(&acc.limbs)
    }

    /// `(a + b) mod n` for `a, b < n` (same width).
    fn add_raw(&self, a: &BoxedUint, b: &BoxedUint) -> BoxedUint {
        let mut s = a.clone();
        let c = limbs::add_assign(&mut s.limbs, &b.limbs);
        let mut r = BoxedUint::zero(self.nlimbs());
        soft::final_sub(&mut r.limbs, &s.limbs, c, &self.n.limbs);
        r
    }

    /// `(a + b) mod n` for residues `a, b < n`.
    pub fn add(&self, a: &BoxedUint, b: &BoxedUint) -> BoxedUint {
        self.add_raw(&self.fit(a), &self.fit(b))
    }

    /// `(a - b) mod n` for residues `a, b < n`.
    pub fn sub(&self, a: &BoxedUint, b: &BoxedUint) -> BoxedUint {
        let mut r = self.fit(a);
        let b = self.fit(b);
        let borrow = limbs::sub_assign(&mut r.limbs, &b.limbs);
        limbs::cond_add(&mut r.limbs, &self.n.limbs, limbs::mask_from_bit(borrow));
        r
    }

    /// A residue widened or narrowed to the modulus's width (the caller guarantees it is
    /// below `n`; extra limbs must be zero).
    fn fit(&self, a: &BoxedUint) -> BoxedUint {
        let mut r = BoxedUint::zero(self.nlimbs());
        let k = a.limbs.len().min(self.nlimbs());
        r.limbs[..k].copy_from_slice(&a.limbs[..k]);
        r
    }

    /// `a b mod n` for any `a`, `b` (reduced first).
    pub fn mul(&self, a: &BoxedUint, b: &BoxedUint) -> BoxedUint {
        let a = self.reduce(a);
        let b = self.reduce(b);
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return p.mul(&a, &b);
        }
        let am = self.to_mont(&a.limbs);
        self.mont_mul_new(&am.limbs, &b.limbs)
    }

    /// `a` (a residue `< n`) in the Montgomery form of this modulus's backend, `a R mod n`
    /// for the backend's radix `R` (`2^(64 L)` on the limb kernels, `2^(52 S)` on
    /// `x86_ifma`): the operand of [`mont_mul`](Self::mont_mul), which then multiplies
    /// with one Montgomery product instead of the two of [`mul`](Self::mul).
    pub fn mont_form(&self, a: &BoxedUint) -> BoxedUint {
        let a = self.fit(a);
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return p.mont_mul(&a, &p.rr_limbs());
        }
        self.to_mont(&a.limbs)
    }

    /// `a b R^{-1} mod n` for residues `a, b < n` (constant time), with the radix of
    /// [`mont_form`](Self::mont_form): `a b mod n` when one operand is in Montgomery form,
    /// the Montgomery form of `a b` when both are.
    pub fn mont_mul(&self, a: &BoxedUint, b: &BoxedUint) -> BoxedUint {
        let (a, b) = (self.fit(a), self.fit(b));
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return p.mont_mul(&a, &b);
        }
        self.mont_mul_new(&a.limbs, &b.limbs)
    }

    /// `base^exp mod n` in constant time: the run time depends on the widths of `base`,
    /// `exp` and `n` only (every exponent bit up to `exp`'s width is processed, the table
    /// of powers is read entirely for each window).
    pub fn pow(&self, base: &BoxedUint, exp: &BoxedUint) -> BoxedUint {
        let b = self.reduce(base);
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return p.pow(&b, exp);
        }
        self.pow_limbs(&b, exp)
    }

    /// The generic fixed-window exponentiation on the limb kernel (`b < n`).
    fn pow_limbs(&self, b: &BoxedUint, exp: &BoxedUint) -> BoxedUint {
        let l = self.nlimbs();
        let ebits = exp.limbs.len() * LIMB_BITS;
        let w = window_bits(ebits);
        let size = 1usize << w;
        let mut table = vec![0u64; size * l];
        table[..l].copy_from_slice(&self.one.limbs);
        let bm = self.to_mont(&b.limbs);
        table[l..2 * l].copy_from_slice(&bm.limbs);
        for i in 2..size {
            let (done, rest) = table.split_at_mut(i * l);
            self.mont_mul_limbs(&mut rest[..l], &done[(i - 1) * l..i * l], &bm.limbs);
        }
        let mut acc = BoxedUint::zero(l);
        let mut tmp = BoxedUint::zero(l);
        let mut entry = BoxedUint::zero(l);
        let windows = ebits.div_ceil(w);
        for win in (0..windows).rev() {
            let idx = window_at(&exp.limbs, win * w, w);
            self.lookup(&table, l, idx, &mut entry.limbs);
            if win == windows - 1 {
                acc.limbs.copy_from_slice(&entry.limbs);
                continue;
            }
            for _ in 0..w {
                self.mont_sqr(&mut tmp.limbs, &acc.limbs);
                core::mem::swap(&mut acc, &mut tmp);
            }
            self.mont_mul_limbs(&mut tmp.limbs, &acc.limbs, &entry.limbs);
            core::mem::swap(&mut acc, &mut tmp);
        }
        zeroize::Zeroize::zeroize(&mut table[..]);
        self.out_of_mont(&acc.limbs)
    }

    /// [`ct_lookup`]; on the `x86_adx` kernel on 256-bit registers where AVX2 is there
    /// (every ADX processor so far has it).
    #[inline]
    fn lookup(&self, table: &[u64], l: usize, idx: usize, out: &mut [u64]) {
        #[cfg(target_arch = "x86_64")]
        if let (Kernel::Adx(_), Some(t)) = (self.kernel, arch_cpu::Avx2::get()) {
            if l.is_multiple_of(4) {
                return x86_adx::ct_lookup(table, l, idx, out, t);
            }
        }
        ct_lookup(table, l, idx, out)
    }

    /// `(b1^e1 mod self, b2^e2 mod other)`, both in constant time; on the `x86_ifma`
    /// backend two moduli of the same digit count run interleaved in one loop (the RSA
    /// CRT halves).
    pub fn pow_pair(
        &self,
        b1: &BoxedUint,
        e1: &BoxedUint,
        other: &Modulus,
        b2: &BoxedUint,
        e2: &BoxedUint,
    ) -> (BoxedUint, BoxedUint) {
        #[cfg(target_arch = "x86_64")]
        if let (Some(p1), Some(p2)) = (&self.ifma, &other.ifma) {
            if let Some(r) =
                x86_ifma::Params::pow_pair(p1, &self.reduce(b1), e1, p2, &other.reduce(b2), e2)
            {
                return r;
            }
        }
        (self.pow(b1, e1), other.pow(b2, e2))
    }

    /// `(b1^e mod self, b2^e mod other)` for a **public** exponent `e` (square-and-multiply
    /// that branches on its bits; the bases may be secret); on the `x86_ifma` backend two
    /// moduli of the same digit count run interleaved in one loop (the check of an RSA
    /// CRT result modulo both primes).
    pub fn pow_pair_vartime(
        &self,
        b1: &BoxedUint,
        other: &Modulus,
        b2: &BoxedUint,
        e: &BoxedUint,
    ) -> (BoxedUint, BoxedUint) {
        #[cfg(target_arch = "x86_64")]
        if let (Some(p1), Some(p2)) = (&self.ifma, &other.ifma) {
            if let Some(r) =
                x86_ifma::Params::pow_pair_vartime(p1, &self.reduce(b1), p2, &other.reduce(b2), e)
            {
                return r;
            }
        }
        (self.pow_vartime(b1, e), other.pow_vartime(b2, e))
    }

    /// `base^exp mod n` for a **public** exponent: square-and-multiply that branches on
    /// the exponent's bits (the base may be secret; its arithmetic is constant time).
    pub fn pow_vartime(&self, base: &BoxedUint, exp: &BoxedUint) -> BoxedUint {
        let b = self.reduce(base);
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return p.pow_vartime(&b, exp);
        }
        let bm = self.to_mont(&b.limbs);
        let ebits = exp.bits_vartime();
        if ebits == 0 {
            return BoxedUint::from_u64(1, self.nlimbs());
        }
        let mut acc = bm.clone();
        let mut tmp = BoxedUint::zero(self.nlimbs());
        for i in (0..ebits - 1).rev() {
            self.mont_sqr(&mut tmp.limbs, &acc.limbs);
            core::mem::swap(&mut acc, &mut tmp);
            if exp.bit(i) == 1 {
                if i == 0 {
                    // The last multiplication (odd exponents, RSA's) by the plain base
                    // leaves Montgomery form on the way: (x R) b R^-1 = x b, one
                    // multiplication less than by `bm` and back (3 % of an RSA-4096
                    // verification).
                    self.mont_mul_limbs(&mut tmp.limbs, &acc.limbs, &b.limbs);
                    return tmp;
                }
                self.mont_mul_limbs(&mut tmp.limbs, &acc.limbs, &bm.limbs);
                core::mem::swap(&mut acc, &mut tmp);
            }
        }
        self.out_of_mont(&acc.limbs)
    }

    /// `a^{-1} mod n` for a **prime** `n` (Fermat: `a^(n-2)`), in constant time; zero when
    /// `a` is a multiple of `n`.
    pub fn inv_prime(&self, a: &BoxedUint) -> BoxedUint {
        let (e, _) = self.n.sub(&BoxedUint::from_u64(2, 1));
        self.pow(a, &e)
    }

    /// `a^{-1} mod n` for any odd `n`, in constant time (Möller's binary algorithm: a fixed
    /// `2 * 64 L` steps of shifts, subtractions and swaps under masks); `None` when
    /// `gcd(a, n) != 1` (that outcome is the only thing the timing of the caller may show).
    pub fn inv(&self, a: &BoxedUint) -> Option<BoxedUint> {
        let l = self.nlimbs();
        let mut a = self.reduce(a);
        let mut b = self.n.clone();
        let mut u = BoxedUint::from_u64(1, l);
        let mut v = BoxedUint::zero(l);
        // u / 2 mod n uses (n + 1) / 2.
        let mut half = self.n.clone();
        limbs::shr1(&mut half.limbs, 0);
        limbs::add_assign(&mut half.limbs, &[1]);
        for _ in 0..2 * LIMB_BITS * l {
            let odd = limbs::mask_from_bit(a.limbs[0]);
            let swap = odd & limbs::lt(&a.limbs, &b.limbs);
            limbs::cswap(&mut a.limbs, &mut b.limbs, swap);
            limbs::cswap(&mut u.limbs, &mut v.limbs, swap);
            limbs::cond_sub(&mut a.limbs, &b.limbs, odd);
            let br = limbs::cond_sub(&mut u.limbs, &v.limbs, odd);
            limbs::cond_add(&mut u.limbs, &self.n.limbs, limbs::mask_from_bit(br));
            limbs::shr1(&mut a.limbs, 0);
            let uodd = limbs::mask_from_bit(u.limbs[0]);
            limbs::shr1(&mut u.limbs, 0);
            limbs::cond_add(&mut u.limbs, &half.limbs, uodd);
        }
        let one = BoxedUint::from_u64(1, l);
        if limbs::eq(&b.limbs, &one.limbs) != 0 {
            Some(v)
        } else {
            None
        }
    }
}

/// Window width for an exponent of `bits` bits (public).
fn window_bits(bits: usize) -> usize {
    match bits {
        0..=64 => 2,
        65..=256 => 4,
        _ => 5,
    }
}

/// Bits `[pos, pos + w)` of `e` (positions past the end read as zero); `pos`, `w` public.
pub(super) fn window_at(e: &[u64], pos: usize, w: usize) -> usize {
    let l = pos / 64;
    let s = pos % 64;
    let lo = e.get(l).copied().unwrap_or(0) >> s;
    let hi = if s + w > 64 {
        e.get(l + 1).copied().unwrap_or(0) << (64 - s)
    } else {
        0
    };
    ((lo | hi) & ((1u64 << w) - 1)) as usize
}

/// Most entries of a window table ([`window_bits`] is at most 5).
const MAX_ENTRIES: usize = 32;

/// `out = table[idx]` (entries of `l` limbs), reading every entry under a mask.
///
/// The masks are formed once (one per entry, through the optimisation barriers of
/// `mask_eq`); then eight limbs at a time are gathered from every entry into an
/// accumulator the compiler keeps in registers, so `out` is written once instead of once
/// an entry (this halved the time of the look-up, 7 % of an RSA-2048 signature on
/// `x86_adx`).
pub(super) fn ct_lookup(table: &[u64], l: usize, idx: usize, out: &mut [u64]) {
    let entries = table.len() / l;
    assert!(entries <= MAX_ENTRIES && out.len() == l && table.len() == entries * l);
    let mut masks = [0u64; MAX_ENTRIES];
    for (i, m) in masks[..entries].iter_mut().enumerate() {
        *m = limbs::mask_eq(i as u64, idx as u64);
    }
    const W: usize = 8;
    let mut acc = [0u64; W];
    let full = l / W * W;
    for start in (0..full).step_by(W) {
        acc = [0u64; W];
        for (e, &m) in masks[..entries].iter().enumerate() {
            let entry: &[u64; W] = table[e * l + start..e * l + start + W]
                .try_into()
                .expect("eight limbs");
            for (a, &t) in acc.iter_mut().zip(entry) {
                *a |= t & m;
            }
        }
        out[start..start + W].copy_from_slice(&acc);
    }
    for j in full..l {
        let mut a = 0u64;
        for (e, &m) in masks[..entries].iter().enumerate() {
            a |= table[e * l + j] & m;
        }
        out[j] = a;
    }
    zeroize::Zeroize::zeroize(&mut acc[..]);
    // The masks tell the (secret) window.
    zeroize::Zeroize::zeroize(&mut masks[..]);
}

/// The backend self-test: fixed operands, every operation, compared with `soft`.
pub(super) fn self_test_agrees(backend: Backend) -> bool {
    let mut ok = true;
    for bits in [521usize, 1024, 1536, 2048] {
        let l = bits.div_ceil(64);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ bits as u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed ^ (seed >> 29)
        };
        let mut gen = |top: usize| {
            let k = top.div_ceil(64);
            let mut v: Vec<u64> = (0..k).map(|_| next()).collect();
            let extra = k * 64 - top;
            if extra > 0 {
                v[k - 1] &= u64::MAX >> extra;
            }
            BoxedUint { limbs: v }
        };
        let mut n = gen(bits);
        n.limbs[0] |= 1;
        n.limbs[l - 1] |= 1 << ((bits - 1) % 64);
        let mut n2 = gen(bits);
        n2.limbs[0] |= 1;
        n2.limbs[l - 1] |= 1 << ((bits - 1) % 64);
        let a = gen(bits - 1);
        let b = gen(bits + 13);
        let e = gen(bits);
        let (hw, sw, hw2, sw2) = match (
            Modulus::with_backend_untested(&n, backend),
            Modulus::with_backend_untested(&n, Backend::Soft),
            Modulus::with_backend_untested(&n2, backend),
            Modulus::with_backend_untested(&n2, Backend::Soft),
        ) {
            (Ok(a), Ok(b), Ok(c), Ok(d)) => (a, b, c, d),
            _ => return false,
        };
        ok &= hw.mul(&a, &b) == sw.mul(&a, &b);
        ok &= hw.reduce(&b) == sw.reduce(&b);
        ok &= hw.pow(&a, &e) == sw.pow(&a, &e);
        ok &= hw.pow_vartime(&a, &BoxedUint::from_u64(65537, 1))
            == sw.pow_vartime(&a, &BoxedUint::from_u64(65537, 1));
        let (x, y) = hw.pow_pair(&a, &e, &hw2, &b, &e);
        ok &= x == sw.pow(&a, &e) && y == sw2.pow(&b, &e);
        let f4 = BoxedUint::from_u64(65537, 1);
        let (x, y) = hw.pow_pair_vartime(&a, &hw2, &b, &f4);
        ok &= x == sw.pow_vartime(&a, &f4) && y == sw2.pow_vartime(&b, &f4);
    }
    ok
}

#[cfg(test)]
mod speed {
    use super::*;

    fn cpu_ns() -> u64 {
        use std::sync::OnceLock;
        static T0: OnceLock<std::time::Instant> = OnceLock::new();
        T0.get_or_init(std::time::Instant::now).elapsed().as_nanos() as u64
    }

    /// `cargo test --release -p shyfr --lib mont_mul_speed -- --ignored --nocapture`
    /// (best of many short wall-clock windows: on a loaded machine the best window is the
    /// one that ran uninterrupted).
    #[test]
    #[ignore]
    fn mont_mul_speed() {
        for bits in [1024usize, 2048] {
            let l = bits / 64;
            let mut n: Vec<u64> = (0..l as u64)
                .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
                .collect();
            n[l - 1] |= 1 << 63;
            let n = BoxedUint { limbs: n };
            let a: Vec<u64> = (0..l as u64)
                .map(|i| i.wrapping_mul(0x1234_5678_9abc_def1))
                .collect();
            let mut a = BoxedUint { limbs: a };
            a.limbs[l - 1] >>= 2;
            for &b in Backend::ALL.iter().filter(|b| b.is_available()) {
                let m = Modulus::with_backend(&n, b).unwrap();
                let mut r = vec![0u64; l];
                let reps = 1000;
                let mut ns = f64::MAX;
                for _ in 0..50 {
                    let t = cpu_ns();
                    for _ in 0..reps {
                        m.mont_mul_limbs(&mut r, &a.limbs, &a.limbs);
                        core::hint::black_box(&mut r);
                    }
                    ns = ns.min((cpu_ns() - t) as f64 / reps as f64);
                }
                std::println!(
                    "{bits} {:8}: mont_mul {ns:.0} ns ({:.2} ns per limb product)",
                    b.name(),
                    ns / (2 * l * l) as f64
                );
            }
        }
    }
}
