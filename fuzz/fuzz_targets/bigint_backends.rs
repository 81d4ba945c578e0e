//! Every big-integer (Montgomery) backend against the portable one, on odd moduli of 1
//! to 24 limbs (up to 1536 bits, past the 1024-bit threshold of the IFMA exponentiation):
//! reduction, modular multiplication, constant-time and variable-time exponentiation,
//! the paired exponentiation of RSA's CRT, and inversion. The two exponentiations must
//! agree with each other, and every backend with `soft`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shyfr::arith::bigint::{Backend, BoxedUint, Modulus};
use shyfr_fuzz::Input;

type Out = Vec<Option<BoxedUint>>;

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    let nlimbs = 1 + inp.below(24);
    let mut nb = inp.bytes(8 * nlimbs);
    // Odd, and at least 3 (the top limb's top bit set half the time, to reach both the
    // full-width and the short moduli).
    *nb.last_mut().unwrap() |= 1;
    if inp.bool() {
        nb[0] |= 0x80;
    }
    let n = BoxedUint::from_be_bytes(&nb);
    let alen = 8 * (1 + inp.below(2 * nlimbs));
    let a = BoxedUint::from_be_bytes(&inp.bytes(alen));
    let b = BoxedUint::from_be_bytes(&inp.bytes(8 * nlimbs));
    let e = BoxedUint::from_be_bytes(&inp.data(8 * nlimbs.min(5)));
    let m2b = {
        let mut v = inp.bytes(8 * nlimbs);
        *v.last_mut().unwrap() |= 1;
        v[0] |= 0x80;
        v
    };
    let n2 = BoxedUint::from_be_bytes(&m2b);
    let run = |be: Backend| -> Option<Out> {
        let m = Modulus::with_backend(&n, be).ok()?;
        let m2 = Modulus::with_backend(&n2, be).expect("odd, top bit set");
        let p = m.pow(&a, &e);
        assert!(
            p.ct_eq(&m.pow_vartime(&a, &e)),
            "pow != pow_vartime on {}",
            be.name()
        );
        let (x, y) = m.pow_pair(&a, &e, &m2, &b, &e);
        Some(vec![
            Some(m.reduce(&a)),
            Some(m.mul(&m.reduce(&a), &m.reduce(&b))),
            Some(p),
            Some(x),
            Some(y),
            m.inv(&a),
        ])
    };
    let soft = run(Backend::Soft);
    for &be in Backend::ALL.iter().filter(|b| b.is_available()) {
        let got = run(be);
        match (&got, &soft) {
            (None, None) => {}
            (Some(g), Some(s)) => {
                for (i, (x, y)) in g.iter().zip(s).enumerate() {
                    let same = match (x, y) {
                        (Some(x), Some(y)) => x.as_limbs() == y.as_limbs(),
                        (None, None) => true,
                        _ => false,
                    };
                    assert!(same, "bigint {} result {i}", be.name());
                }
            }
            _ => panic!("bigint {}: set-up differs from soft", be.name()),
        }
    }
});
