//! Timing of the exponentiation kernels per backend (not a correctness test):
//! `cargo test --release -p shyfr --test bigint_speed -- --ignored --nocapture`.

/// Nanoseconds this thread has run on a CPU (Linux `schedstat`), so that the figures do
/// not count the time other processes of a loaded machine hold the cores.
struct Instant(u64);

impl Instant {
    fn now() -> Self {
        let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
        Instant(s.split_whitespace().next().unwrap().parse().unwrap())
    }
    fn elapsed(&self) -> std::time::Duration {
        std::time::Duration::from_nanos(Self::now().0 - self.0)
    }
}

use shyfr::arith::bigint::{Backend, BoxedUint, Modulus};

fn val(bits: usize, seed: u64) -> BoxedUint {
    let l = bits.div_ceil(64);
    let mut s = seed;
    let v: Vec<u64> = (0..l)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s ^ (s >> 31)
        })
        .collect();
    let mut v = v;
    v[0] |= 1;
    v[l - 1] |= 1 << 63;
    BoxedUint::from_limbs(&v)
}

/// Microseconds of CPU time per call, over at least 300 ms of CPU time; best of 3.
fn per_op(mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        let mut n = 0u64;
        while t.elapsed().as_millis() < 300 {
            for _ in 0..10 {
                f();
            }
            n += 10;
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e6 / n as f64);
    }
    best
}

#[test]
#[ignore]
fn pow_timings() {
    for bits in [1024usize, 1536, 2048] {
        let n1 = val(bits, 1);
        let n2 = val(bits, 2);
        let b = val(bits - 8, 3);
        let e = val(bits, 4);
        let e65537 = BoxedUint::from_u64(65537, 1);
        for &be in Backend::ALL.iter().filter(|b| b.is_available()) {
            let m1 = Modulus::with_backend(&n1, be).unwrap();
            let m2 = Modulus::with_backend(&n2, be).unwrap();
            let pair = per_op(|| {
                std::hint::black_box(m1.pow_pair(&b, &e, &m2, &b, &e));
            });
            let single = per_op(|| {
                std::hint::black_box(m1.pow(&b, &e));
            });
            let pubop = per_op(|| {
                std::hint::black_box(m1.pow_vartime(&b, &e65537));
            });
            let mul = per_op(|| {
                std::hint::black_box(m1.mul(&b, &b));
            });
            println!(
                "{bits:5} {:9}: pow_pair {pair:8.1} µs, pow {single:8.1} µs, pow_vartime(65537) {pubop:6.1} µs, mul {mul:5.2} µs",
                be.name()
            );
        }
    }
}
