//! Prime generation and probable-prime testing: trial division by the first 2048 odd
//! primes (a sieve over a run of candidates), then Miller–Rabin with random bases and the
//! round counts of FIPS 186-5, Table B.1.
//!
//! Timing: each candidate's Miller–Rabin exponentiations are constant time; what a
//! candidate's rejection costs (which small prime divides it, which round fails) depends
//! on that candidate, which is then discarded. For the candidate that is accepted the
//! timing shows the number of trailing zero bits of `p - 1` (the squarings after `a^d`),
//! as in other libraries.
#![forbid(unsafe_code)]

use alloc::vec::Vec;
use rand_core::CryptoRng;

use super::limbs;
use super::{BoxedUint, Modulus};
use crate::Error;

/// Number of odd primes used for trial division.
const SMALL_PRIMES: usize = 2048;

/// The odd primes 3, 5, 7, ... (the first [`SMALL_PRIMES`]), computed at compile time.
static PRIMES: [u16; SMALL_PRIMES] = small_primes();

const fn small_primes() -> [u16; SMALL_PRIMES] {
    let mut out = [0u16; SMALL_PRIMES];
    let mut count = 0;
    let mut c: u32 = 3;
    while count < SMALL_PRIMES {
        let mut d = 3;
        let mut prime = true;
        while d * d <= c {
            if c.is_multiple_of(d) {
                prime = false;
                break;
            }
            d += 2;
        }
        if prime {
            out[count] = c as u16;
            count += 1;
        }
        c += 2;
    }
    out
}

/// Miller–Rabin rounds for a prime factor of `bits` bits of an RSA modulus: FIPS 186-5,
/// Table B.1 (error probability 2^-112 for 1024-bit, 2^-128 for 1536-bit and 2^-144 for
/// 2048-bit primes: 5, 4, 4 rounds); below 1024 bits (keys under 2048 bits, outside FIPS
/// 186-5) we use 7 rounds for 512-bit primes (FIPS 186-4, Table C.3) and 10 below that.
pub fn rsa_mr_rounds(bits: usize) -> usize {
    match bits {
        0..=511 => 10,
        512..=1023 => 7,
        1024..=1535 => 5,
        _ => 4,
    }
}

/// Rounds for testing a number of unknown origin (possibly chosen by an adversary): 64
/// random bases bound the error by 4^-64 = 2^-128 for every composite.
pub const ADVERSARIAL_MR_ROUNDS: usize = 64;

/// Whether `n` is probably prime (a number of unknown origin: trial division, then
/// [`ADVERSARIAL_MR_ROUNDS`] Miller–Rabin rounds with bases from `rng`). Variable time:
/// for public values.
pub fn is_probable_prime_vartime<R: CryptoRng + ?Sized>(n: &BoxedUint, rng: &mut R) -> bool {
    let bits = n.bits_vartime();
    if bits <= 1 {
        return false;
    }
    if bits <= 16 {
        let v = n.limbs[0] as u32;
        if v == 2 {
            return true;
        }
        if v.is_multiple_of(2) {
            return false;
        }
        let mut d = 3;
        while d * d <= v {
            if v.is_multiple_of(d) {
                return false;
            }
            d += 2;
        }
        return true;
    }
    if !n.is_odd() {
        return false;
    }
    for &p in PRIMES.iter() {
        if n.rem_u32(p as u32) == 0 {
            return false;
        }
    }
    match Modulus::new(n) {
        Ok(m) => miller_rabin(&m, ADVERSARIAL_MR_ROUNDS, rng),
        Err(_) => false,
    }
}

/// `rounds` Miller–Rabin rounds modulo `m` (odd, > 3) with uniform bases in `[2, m-2]`.
pub(crate) fn miller_rabin<R: CryptoRng + ?Sized>(m: &Modulus, rounds: usize, rng: &mut R) -> bool {
    let n = m.modulus();
    let l = m.nlimbs();
    let bits = m.bits();
    let one = BoxedUint::from_u64(1, l);
    let (nm1, _) = n.sub(&one);
    // n - 1 = 2^s d
    let mut s = 0;
    while nm1.bit(s) == 0 {
        s += 1;
    }
    let d = nm1.shr_vartime(s);
    let mut pass = true;
    for _ in 0..rounds {
        let a = random_in_range(n, bits, rng);
        let mut y = m.pow(&a, &d);
        let mut ok = y.ct_eq(&one) | y.ct_eq(&nm1);
        for _ in 1..s {
            y = m.mul(&y, &y);
            ok |= y.ct_eq(&nm1);
        }
        pass &= ok;
        if !pass {
            return false;
        }
    }
    pass
}

/// A uniform integer in `[2, n - 2]` (rejection sampling on `bits`-bit draws).
fn random_in_range<R: CryptoRng + ?Sized>(n: &BoxedUint, bits: usize, rng: &mut R) -> BoxedUint {
    let l = n.nlimbs();
    let (hi, _) = n.sub(&BoxedUint::from_u64(1, 1));
    let two = BoxedUint::from_u64(2, l);
    loop {
        let a = random_bits(bits, l, rng);
        if !a.ct_lt(&two) && a.ct_lt(&hi) {
            return a;
        }
    }
}

/// A uniform `bits`-bit string in `l` limbs.
pub(crate) fn random_bits<R: CryptoRng + ?Sized>(bits: usize, l: usize, rng: &mut R) -> BoxedUint {
    let mut a = BoxedUint::zero(l);
    for x in a.limbs.iter_mut() {
        *x = rng.next_u64();
    }
    for i in 0..l {
        let lo = i * 64;
        if lo >= bits {
            a.limbs[i] = 0;
        } else if bits - lo < 64 {
            a.limbs[i] &= (1u64 << (bits - lo)) - 1;
        }
    }
    a
}

/// A random prime `p` of exactly `bits` bits with its top two bits set (so that the
/// product of two such primes has exactly `2 * bits` bits), `gcd(p - 1, e) = 1`, passing
/// [`rsa_mr_rounds`] Miller–Rabin rounds. `e` must be odd and below `2^32`.
pub fn generate_rsa_prime<R: CryptoRng + ?Sized>(
    bits: usize,
    e: u32,
    rng: &mut R,
) -> Result<BoxedUint, Error> {
    if bits < 16 || e < 3 || e.is_multiple_of(2) {
        return Err(Error::InvalidParameter {
            what: "prime size or public exponent",
        });
    }
    let l = bits.div_ceil(64);
    let rounds = rsa_mr_rounds(bits);
    let mut residues: Vec<u32> = alloc::vec![0; SMALL_PRIMES];
    // Sieve a run of this many odd candidates before drawing a new start.
    const RUN: u32 = 1 << 14;
    loop {
        let mut x = random_bits(bits, l, rng);
        let top = bits - 1;
        x.limbs[top / 64] |= 1 << (top % 64);
        x.limbs[(top - 1) / 64] |= 1 << ((top - 1) % 64);
        x.limbs[0] |= 1;
        for (r, &p) in residues.iter_mut().zip(PRIMES.iter()) {
            *r = x.rem_u32(p as u32);
        }
        let mut delta: u32 = 0;
        while delta < RUN {
            let divisible = residues
                .iter()
                .zip(PRIMES.iter())
                .any(|(&r, &p)| (r + delta).is_multiple_of(p as u32));
            if !divisible {
                if let Some(p) = try_candidate(&x, delta, bits, e, rounds, rng) {
                    return Ok(p);
                }
            }
            delta += 2;
        }
    }
}

fn try_candidate<R: CryptoRng + ?Sized>(
    x: &BoxedUint,
    delta: u32,
    bits: usize,
    e: u32,
    rounds: usize,
    rng: &mut R,
) -> Option<BoxedUint> {
    let mut c = x.clone();
    if limbs::add_assign(&mut c.limbs, &[delta as u64]) != 0 || c.bits() != bits {
        return None;
    }
    // gcd(c - 1, e) == 1: (c - 1) mod e must be invertible modulo e.
    let mut cm1 = c.clone();
    limbs::sub_assign(&mut cm1.limbs, &[1]);
    let r = cm1.rem_u32(e);
    if limbs::inv_mod_u64(r as u64, e as u64) == 0 {
        return None;
    }
    let m = Modulus::new(&c).ok()?;
    if miller_rabin(&m, rounds, rng) {
        Some(c)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_primes_table() {
        assert_eq!(PRIMES[0], 3);
        assert_eq!(PRIMES[1], 5);
        assert_eq!(PRIMES[SMALL_PRIMES - 1], 17881);
    }
}
