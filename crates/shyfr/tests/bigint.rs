//! Differential tests of the big-integer arithmetic against `num-bigint`, under every
//! available backend, on random operands of many widths.

mod common;

use num_bigint::BigUint;
use num_traits::{One, Zero};
use shyfr::arith::bigint::{prime, BoxedUint, Modulus};
use shyfr::rand::TryRng;

use common::{bigint_backends as backends, TestRng};

fn to_big(x: &BoxedUint) -> BigUint {
    let mut bytes = Vec::new();
    for l in x.as_limbs() {
        bytes.extend_from_slice(&l.to_le_bytes());
    }
    BigUint::from_bytes_le(&bytes)
}

fn from_big(x: &BigUint, limbs: usize) -> BoxedUint {
    let mut v = x.to_u64_digits();
    assert!(v.len() <= limbs);
    v.resize(limbs, 0);
    BoxedUint::from_limbs(&v)
}

fn rand_bits(rng: &mut TestRng, bits: usize) -> BigUint {
    let limbs = bits.div_ceil(64);
    let v: Vec<u64> = (0..limbs).map(|_| rng.try_next_u64().unwrap()).collect();
    let x = from_big(&BigUint::from_slice(&[]), limbs);
    let _ = x;
    let mut b = BigUint::zero();
    for (i, l) in v.iter().enumerate() {
        b |= BigUint::from(*l) << (64 * i);
    }
    b & ((BigUint::one() << bits) - 1u32)
}

fn rand_modulus(rng: &mut TestRng, bits: usize) -> BigUint {
    let mut n = rand_bits(rng, bits);
    n |= BigUint::one() << (bits - 1);
    n |= BigUint::one();
    n
}

const WIDTHS: &[usize] = &[
    2, 3, 63, 64, 65, 127, 128, 129, 255, 256, 384, 511, 512, 521, 576, 768, 800, 1000, 1023, 1024,
    1025, 1536, 1600, 2048, 2056, 3072, 4096, 8192,
];

#[test]
fn arithmetic_matches_num_bigint() {
    let mut rng = TestRng(1);
    let mut cases = 0;
    for b in backends() {
        for &bits in WIDTHS {
            let reps = if bits >= 3072 { 1 } else { 3 };
            let reps = if bits >= 8192 { 1 } else { reps };
            for _ in 0..reps {
                let n = rand_modulus(&mut rng, bits);
                if n < BigUint::from(3u32) {
                    continue;
                }
                let l = bits.div_ceil(64);
                let m = Modulus::with_backend(&from_big(&n, l), b).unwrap();
                assert_eq!(m.backend(), b);
                let a = rand_bits(&mut rng, bits + 70);
                let c = rand_bits(&mut rng, bits) % &n;
                let d = rand_bits(&mut rng, bits) % &n;
                let e = rand_bits(&mut rng, bits);
                let ab = from_big(&a, (bits + 70).div_ceil(64));
                let cb = from_big(&c, l);
                let db = from_big(&d, l);
                let eb = from_big(&e, l);
                assert_eq!(to_big(&m.reduce(&ab)), &a % &n, "reduce {bits} {b:?}");
                assert_eq!(to_big(&m.mul(&ab, &cb)), (&a * &c) % &n, "mul {bits} {b:?}");
                // Montgomery form: one operand in form gives the plain product, both in
                // form the form of the product (the RSA blinding pair's squaring).
                let (cf, df) = (m.mont_form(&cb), m.mont_form(&db));
                assert_eq!(
                    to_big(&m.mont_mul(&cf, &db)),
                    (&c * &d) % &n,
                    "mont {bits} {b:?}"
                );
                assert_eq!(
                    to_big(&m.mont_mul(&cb, &df)),
                    (&c * &d) % &n,
                    "mont {bits} {b:?}"
                );
                let cdf = m.mont_mul(&cf, &df);
                assert_eq!(
                    to_big(&m.mont_mul(&cdf, &BoxedUint::from_u64(1, 1))),
                    (&c * &d) % &n,
                    "mont form {bits} {b:?}"
                );
                assert_eq!(to_big(&m.add(&cb, &db)), (&c + &d) % &n, "add {bits}");
                assert_eq!(to_big(&m.sub(&cb, &db)), (&c + &n - &d) % &n, "sub {bits}");
                assert_eq!(
                    to_big(&m.pow(&ab, &eb)),
                    a.modpow(&e, &n),
                    "pow {bits} {b:?}"
                );
                let e65537 = BoxedUint::from_u64(65537, 1);
                assert_eq!(
                    to_big(&m.pow_vartime(&cb, &e65537)),
                    c.modpow(&BigUint::from(65537u32), &n),
                    "pow_vartime {bits} {b:?}"
                );
                let ev = from_big(&e, l);
                assert_eq!(to_big(&m.pow_vartime(&cb, &ev)), c.modpow(&e, &n));
                // Paired exponentiation with a second modulus of the same width.
                let n2 = rand_modulus(&mut rng, bits);
                if n2 >= BigUint::from(3u32) {
                    let m2 = Modulus::with_backend(&from_big(&n2, l), b).unwrap();
                    let (x, y) = m.pow_pair(&cb, &eb, &m2, &db, &eb);
                    assert_eq!(to_big(&x), c.modpow(&e, &n), "pair x {bits} {b:?}");
                    assert_eq!(to_big(&y), d.modpow(&e, &n2), "pair y {bits} {b:?}");
                    // The same with a public exponent (65537 and a random full-width one).
                    for (pe, pb) in [(&e65537, BigUint::from(65537u32)), (&ev, e.clone())] {
                        let (x, y) = m.pow_pair_vartime(&cb, &m2, &db, pe);
                        assert_eq!(to_big(&x), c.modpow(&pb, &n), "pair vt x {bits} {b:?}");
                        assert_eq!(to_big(&y), d.modpow(&pb, &n2), "pair vt y {bits} {b:?}");
                    }
                }
                // Inverse modulo an odd modulus.
                let inv = m.inv(&cb);
                let g = num_integer::Integer::gcd(&c, &n);
                match inv {
                    Some(i) => {
                        assert!(g.is_one());
                        assert_eq!((to_big(&i) * &c) % &n, BigUint::one() % &n);
                    }
                    None => assert!(!g.is_one() || n.is_one()),
                }
                cases += 1;
            }
        }
        common::note_exercised("bigint", b.name());
    }
    assert_eq!(cases, backends().len() * (WIDTHS.len() * 3 - 6));
}

#[test]
fn edge_values() {
    for b in backends() {
        // 512, 768, 1536 and 3072: sizes where the IFMA kernels take fewer steps than the
        // digits they hold (10 of 12, 15 of 16, 30 of 32, 60 of 64).
        for bits in [64usize, 512, 768, 1024, 1536, 2048, 3072] {
            let l = bits.div_ceil(64);
            let n = (BigUint::one() << bits) - 1u32; // all ones: the largest odd modulus
            let m = Modulus::with_backend(&from_big(&n, l), b).unwrap();
            let nm1 = &n - 1u32;
            let x = from_big(&nm1, l);
            assert_eq!(to_big(&m.mul(&x, &x)), BigUint::one());
            assert_eq!(
                to_big(&m.pow(&x, &from_big(&BigUint::from(2u32), l))),
                BigUint::one()
            );
            assert!(m.pow(&BoxedUint::zero(l), &x).is_zero());
            assert_eq!(to_big(&m.pow(&x, &BoxedUint::zero(l))), BigUint::one());
            assert_eq!(
                to_big(&m.pow_vartime(&x, &BoxedUint::zero(1))),
                BigUint::one()
            );
            assert!(m.inv(&BoxedUint::zero(l)).is_none());
        }
    }
    // Bad moduli.
    assert!(Modulus::new(&BoxedUint::from_u64(10, 1)).is_err());
    assert!(Modulus::new(&BoxedUint::from_u64(1, 1)).is_err());
    assert!(Modulus::new(&BoxedUint::zero(3)).is_err());
    let mut big = BoxedUint::zero(257);
    let mut v = vec![0u64; 257];
    v[256] = 1;
    v[0] = 1;
    big = BoxedUint::from_limbs(&v).resize(257).unwrap_or(big);
    assert!(Modulus::new(&big).is_err());
}

#[test]
fn inv_prime_and_bytes() {
    let p = (BigUint::one() << 521u32) - 1u32; // a Mersenne prime
    let l = 9;
    let mut rng = TestRng(5);
    for b in backends() {
        let m = Modulus::with_backend(&from_big(&p, l), b).unwrap();
        for _ in 0..4 {
            let a = rand_bits(&mut rng, 520);
            let i = m.inv_prime(&from_big(&a, l));
            assert_eq!((to_big(&i) * &a) % &p, BigUint::one());
        }
    }
    let bytes: Vec<u8> = (1..=37u8).collect();
    let x = BoxedUint::from_be_bytes(&bytes);
    assert_eq!(to_big(&x), BigUint::from_bytes_be(&bytes));
    assert_eq!(x.to_be_bytes(37).unwrap(), bytes);
    assert_eq!(x.to_be_bytes(40).unwrap()[3..], bytes[..]);
    assert!(x.to_be_bytes(36).is_err());
    assert_eq!(x.bits(), x.bits_vartime());
    assert_eq!(x.bits(), 8 * 37 - 7);
}

#[test]
fn primes() {
    let mut rng = TestRng(9);
    // Known primes and composites.
    let m127 = (BigUint::one() << 127u32) - 1u32;
    assert!(prime::is_probable_prime_vartime(
        &from_big(&m127, 2),
        &mut rng
    ));
    let m128 = (BigUint::one() << 128u32) - 1u32;
    assert!(!prime::is_probable_prime_vartime(
        &from_big(&m128, 2),
        &mut rng
    ));
    // Carmichael numbers and a strong pseudoprime to bases 2..=37 (Arnault-style value
    // from OEIS A014233: 3825123056546413051 is a strong pseudoprime to bases 2..23).
    for c in [561u64, 41041, 825265, 3825123056546413051] {
        assert!(
            !prime::is_probable_prime_vartime(&BoxedUint::from_u64(c, 1), &mut rng),
            "{c}"
        );
    }
    for p in [2u64, 3, 65537, 4294967291, 18446744073709551557] {
        assert!(
            prime::is_probable_prime_vartime(&BoxedUint::from_u64(p, 1), &mut rng),
            "{p}"
        );
    }
    for bits in [64usize, 256, 512] {
        let p = prime::generate_rsa_prime(bits, 65537, &mut rng).unwrap();
        let pb = to_big(&p);
        assert_eq!(pb.bits() as usize, bits);
        assert!(pb.bit(bits as u64 - 2));
        assert!(BigUint::from(2u32).modpow(&(&pb - 1u32), &pb).is_one());
        assert!(!((&pb - 1u32) % 65537u32).is_zero());
        assert!(prime::is_probable_prime_vartime(&p, &mut rng));
    }
    assert_eq!(prime::rsa_mr_rounds(1024), 5);
    assert_eq!(prime::rsa_mr_rounds(1536), 4);
    assert_eq!(prime::rsa_mr_rounds(2048), 4);
}

/// Moduli up to 16384 bits (every IFMA register count up to 80), with short exponents to
/// keep the portable reference fast.
#[test]
fn large_moduli() {
    let mut rng = TestRng(21);
    for b in backends() {
        for bits in [6000usize, 8192, 10000, 12000, 16384] {
            let l = bits.div_ceil(64);
            let n = rand_modulus(&mut rng, bits);
            let m = Modulus::with_backend(&from_big(&n, l), b).unwrap();
            let a = rand_bits(&mut rng, bits) % &n;
            let c = rand_bits(&mut rng, bits) % &n;
            let e = rand_bits(&mut rng, 200);
            let (ab, cb) = (from_big(&a, l), from_big(&c, l));
            assert_eq!(to_big(&m.mul(&ab, &cb)), (&a * &c) % &n, "mul {bits} {b:?}");
            assert_eq!(
                to_big(&m.pow(&ab, &from_big(&e, 4))),
                a.modpow(&e, &n),
                "pow {bits} {b:?}"
            );
            let f4 = BoxedUint::from_u64(65537, 1);
            assert_eq!(
                to_big(&m.pow_vartime(&ab, &f4)),
                a.modpow(&BigUint::from(65537u32), &n),
                "pow_vartime {bits} {b:?}"
            );
        }
    }
}

/// Carry stress at widths of 1 to 256 limbs: moduli `2^(64 L) - 1` (all ones),
/// `2^(64 L - 1) + 1` and all ones but the lowest limb `1` (`2^64 - 3` for one limb), with
/// operands `n - 1`,
/// `2^(64 L) - 1` and integers of twice the width of all ones (reduced through the
/// Montgomery kernel with operands of all ones), checked against `num-bigint`.
#[test]
fn carry_stress_every_width() {
    // Every width to 40 limbs, then the edges of the wide kernels' blocks and the RSA
    // sizes to 16384 bits (every width to 256 took minutes under qemu in CI).
    let widths: Vec<usize> = (1..=40)
        .chain([48, 63, 64, 65, 96, 127, 128, 129, 192, 255, 256])
        .collect();
    let mut cases = 0;
    for b in backends() {
        for &l in &widths {
            let bits = 64 * l;
            let ones = (BigUint::one() << bits) - 1u32;
            // all ones but the lowest limb 1 (for one limb, 2^64 - 3)
            let low_one = if l > 1 {
                &ones - (BigUint::from(u64::MAX) - 1u32)
            } else {
                &ones - 2u32
            };
            let moduli = [ones.clone(), (BigUint::one() << (bits - 1)) + 1u32, low_one];
            for n in &moduli {
                let m = Modulus::with_backend(&from_big(n, l), b).unwrap();
                let nm1 = n - 1u32;
                let x = from_big(&nm1, l);
                let y = from_big(&ones, l);
                let wide = (BigUint::one() << (2 * bits)) - 1u32;
                assert_eq!(to_big(&m.mul(&x, &x)), (&nm1 * &nm1) % n, "{l} {b:?}");
                assert_eq!(to_big(&m.mul(&y, &x)), (&ones * &nm1) % n, "{l} {b:?}");
                assert_eq!(to_big(&m.mul(&y, &y)), (&ones * &ones) % n, "{l} {b:?}");
                assert_eq!(to_big(&m.reduce(&from_big(&wide, 2 * l))), &wide % n);
                let e = BigUint::from(0x1fu32);
                assert_eq!(
                    to_big(&m.pow(&x, &from_big(&e, 1))),
                    nm1.modpow(&e, n),
                    "pow {l} {b:?}"
                );
                assert_eq!(
                    to_big(&m.pow(&y, &from_big(&e, 1))),
                    ones.modpow(&e, n),
                    "pow {l} {b:?}"
                );
                cases += 1;
            }
        }
    }
    assert_eq!(cases, backends().len() * widths.len() * 3);
}
