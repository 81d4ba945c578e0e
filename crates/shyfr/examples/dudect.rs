//! A dudect-style statistical timing test (Reparaz, Balasch, Verbauwhede, "Dude, is my
//! code constant time?", DATE 2017) of the entry points whose result is a verdict on
//! secret data: tag comparison, AEAD open (AES-GCM, AES-CCM, Kalyna GCM), unpadding and
//! key unwrap. Not part of the blocking CI: timing on a shared machine is noisy, so a
//! large |t| is a reason to look, not a proof.
//!
//! For each target two classes of inputs are prepared in advance: class 0 is one fixed
//! input, class 1 fresh random inputs; the class of each measurement is drawn at random,
//! so drift and noise fall on both classes alike. Each call is timed with the time-stamp
//! counter (x86-64: `lfence; rdtsc` on both sides; elsewhere `Instant`), and Welch's
//! t-test compares the classes: on all measurements and on those under each of several
//! percentile thresholds (the crop removes the long tail of interrupts). The largest |t|
//! is reported; dudect's reading: under 4.5 no leak was detected, above 10 the timing
//! depends on the class.
//!
//! ```text
//! cargo run --release -p shyfr --example dudect [-- MEASUREMENTS [SECONDS [TARGET ...]]]
//! ```

use std::hint::black_box;

use shyfr::aead::ccm::AesCcm;
use shyfr::aead::dstu7624::gcm::Gcm as DstuGcm;
use shyfr::aead::gcm::AesGcm;
use shyfr::aes::Aes;
use shyfr::kalyna::Kalyna128_128;
use shyfr::mode::cbc::Cbc;
use shyfr::mode::dstu7624::kw::Kw as DstuKw;
use shyfr::mode::kw::{Kw, Kwp};
use shyfr::pad::{pkcs7_unpad, Padding};

/// A small generator (xorshift64*), seeded from the clock.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn fill(&mut self, b: &mut [u8]) {
        for x in b {
            *x = self.next() as u8;
        }
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut v = vec![0u8; n];
        self.fill(&mut v);
        v
    }
}

/// Cycles (x86-64) or nanoseconds (elsewhere), serialized around the measured call.
#[inline(always)]
fn now() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: `lfence` and `rdtsc` are SSE2 / base x86-64 instructions, present on every
        // x86-64 CPU; they read no memory.
        unsafe {
            core::arch::x86_64::_mm_lfence();
            let t = core::arch::x86_64::_rdtsc();
            core::arch::x86_64::_mm_lfence();
            t
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        use std::sync::OnceLock;
        static T0: OnceLock<std::time::Instant> = OnceLock::new();
        T0.get_or_init(std::time::Instant::now).elapsed().as_nanos() as u64
    }
}

/// Welford's running mean and variance, per class.
#[derive(Clone, Copy, Default)]
struct Stats {
    n: [f64; 2],
    mean: [f64; 2],
    m2: [f64; 2],
}

impl Stats {
    fn push(&mut self, class: usize, x: f64) {
        self.n[class] += 1.0;
        let d = x - self.mean[class];
        self.mean[class] += d / self.n[class];
        self.m2[class] += d * (x - self.mean[class]);
    }
    /// Welch's t statistic.
    fn t(&self) -> f64 {
        if self.n[0] < 2.0 || self.n[1] < 2.0 {
            return 0.0;
        }
        let v0 = self.m2[0] / (self.n[0] - 1.0);
        let v1 = self.m2[1] / (self.n[1] - 1.0);
        let se = (v0 / self.n[0] + v1 / self.n[1]).sqrt();
        if se == 0.0 {
            0.0
        } else {
            (self.mean[0] - self.mean[1]) / se
        }
    }
}

/// One target: `prepare(class, rng, slot)` writes an input of `len` bytes (untimed),
/// `run(slot)` is timed. The slots are 64-byte aligned in one buffer, so the two classes
/// differ in nothing but the bytes.
struct Target {
    name: &'static str,
    len: usize,
    prepare: Prepare,
    run: Run,
}

/// Writes the input of class `c` into a slot (untimed).
type Prepare = Box<dyn FnMut(usize, &mut Rng, &mut [u8])>;
/// The timed call on a slot.
type Run = Box<dyn FnMut(&mut [u8])>;

/// The `prepare` of a target whose class 0 is the fixed input `fixed` and class 1 random
/// bytes.
fn fixed_vs_random(fixed: Vec<u8>) -> Prepare {
    Box::new(move |c, r, slot| {
        if c == 0 {
            slot.copy_from_slice(&fixed)
        } else {
            r.fill(slot)
        }
    })
}

/// The measurements of one target, `n` of them or as many as `seconds` allow: the largest
/// |t| over the crops, the mean time of each class, and the number of measurements.
fn measure(t: &mut Target, n: usize, seconds: f64, rng: &mut Rng) -> (f64, [f64; 2], usize) {
    let start = std::time::Instant::now();
    const BATCH: usize = 10_000;
    const CROPS: usize = 10;
    let stride = t.len.div_ceil(64) * 64;
    // One extra line so the slots can start on a 64-byte boundary.
    let mut buf = vec![0u8; stride * BATCH + 64];
    let off = buf.as_ptr().align_offset(64);
    let mut classes = Vec::with_capacity(BATCH);
    let mut times = vec![0u64; BATCH];
    // Thresholds from a first batch: dudect's percentiles 1 - 0.5^(10 (k + 1) / CROPS).
    let mut thresholds: Vec<u64> = Vec::new();
    let mut stats = vec![Stats::default(); CROPS + 1];
    let mut done = 0;
    while done < n && (done == 0 || start.elapsed().as_secs_f64() < seconds) {
        classes.clear();
        for i in 0..BATCH {
            let c = (rng.next() & 1) as usize;
            classes.push(c);
            let at = off + i * stride;
            (t.prepare)(c, rng, &mut buf[at..at + t.len]);
        }
        for (i, time) in times.iter_mut().enumerate() {
            let at = off + i * stride;
            let inp = &mut buf[at..at + t.len];
            let t0 = now();
            (t.run)(black_box(inp));
            let t1 = now();
            *time = t1.wrapping_sub(t0);
        }
        if thresholds.is_empty() {
            let mut s = times.clone();
            s.sort_unstable();
            thresholds = (0..CROPS)
                .map(|k| {
                    let p = 1.0 - 0.5f64.powf(10.0 * (k + 1) as f64 / CROPS as f64);
                    s[((p * BATCH as f64) as usize).min(BATCH - 1)]
                })
                .collect();
            continue; // the first batch only sets the thresholds (and warms up)
        }
        for i in 0..BATCH {
            let x = times[i] as f64;
            stats[CROPS].push(classes[i], x);
            for (k, &th) in thresholds.iter().enumerate() {
                if times[i] < th {
                    stats[k].push(classes[i], x);
                }
            }
        }
        done += BATCH;
    }
    let max_t = stats.iter().map(|s| s.t().abs()).fold(0.0, f64::max);
    (max_t, stats[CROPS].mean, done)
}

/// An early-exit comparison: the leaky control, which must show a large |t|.
fn leaky_eq(a: &[u8], b: &[u8]) -> bool {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return false;
        }
    }
    a.len() == b.len()
}

fn targets(rng: &mut Rng) -> Vec<Target> {
    let mut v = Vec::new();

    // Controls: the same input in both classes (|t| must stay small: the harness adds no
    // difference of its own), and an early-exit comparison (|t| must be large: the harness
    // sees a leak of a few cycles).
    {
        let expect = rng.bytes(16);
        let f = rng.bytes(16);
        v.push(Target {
            name: "control: ct_eq, the same input in both classes (expect |t| < 4.5)",
            len: 16,
            prepare: Box::new(move |_, _, slot| slot.copy_from_slice(&f)),
            run: Box::new(move |x| {
                black_box(shyfr::ct::ct_eq(black_box(&expect), x));
            }),
        });
    }
    {
        let expect = rng.bytes(16);
        let mut near = expect.clone();
        near[15] ^= 1;
        v.push(Target {
            name: "control: early-exit compare, last byte wrong vs random (expect |t| > 10)",
            len: 16,
            prepare: fixed_vs_random(near),
            run: Box::new(move |x| {
                black_box(leaky_eq(black_box(&expect), x));
            }),
        });
    }

    // Tag comparison: a fixed tag that matches the expected one in all but its last byte,
    // against random tags (which differ in the first byte): an early exit shows here.
    let tag = rng.bytes(16);
    {
        let expect = tag.clone();
        let mut near = tag.clone();
        near[15] ^= 1;
        v.push(Target {
            name: "ct::ct_eq (16-byte tag: last byte wrong vs random)",
            len: 16,
            prepare: fixed_vs_random(near),
            run: Box::new(move |x| {
                black_box(shyfr::ct::ct_eq(black_box(&expect), x));
            }),
        });
    }

    // AEAD open, 64-byte messages: a fixed forgery (ciphertext and tag) against random
    // ones. Every input is rejected; the time must not depend on the bytes.
    let key = rng.bytes(32);
    let nonce = [7u8; 12];
    let fixed = rng.bytes(64 + 16);
    {
        let g = AesGcm::new_from_slice(&key[..16]).unwrap();
        let f = fixed.clone();
        v.push(Target {
            name: "AES-128-GCM open_in_place (64 B, forged: fixed vs random)",
            len: 80,
            prepare: fixed_vs_random(f),
            run: Box::new(move |x| {
                let (ct, tag) = x.split_at_mut(64);
                black_box(g.open_in_place(&nonce, b"", ct, tag)).ok();
            }),
        });
    }
    {
        let g = AesCcm::new_from_slice(&key[..16]).unwrap();
        let f = fixed.clone();
        v.push(Target {
            name: "AES-128-CCM open_in_place (64 B, forged: fixed vs random)",
            len: 80,
            prepare: fixed_vs_random(f),
            run: Box::new(move |x| {
                let (ct, tag) = x.split_at_mut(64);
                black_box(g.open_in_place(&nonce[..12], b"", ct, tag)).ok();
            }),
        });
    }
    {
        let k = Kalyna128_128::new(&key[..16].try_into().unwrap());
        let g = DstuGcm::new(k, 16).unwrap();
        let f = fixed.clone();
        let iv = [9u8; 16];
        v.push(Target {
            name: "Kalyna-128 GCM open_in_place (64 B, forged: fixed vs random)",
            len: 80,
            prepare: fixed_vs_random(f),
            run: Box::new(move |x| {
                let (ct, tag) = x.split_at_mut(64);
                black_box(g.open_in_place(&iv, b"", ct, tag)).ok();
            }),
        });
    }

    // Unpadding, the verdict the same in both classes (it is the function's public
    // result): valid paddings, a fixed one (one byte) against random lengths 1 to 16 with
    // random message bytes; and invalid ones, a fixed one against random ones.
    {
        let mut f = rng.bytes(64);
        f[63] = 1;
        v.push(Target {
            name: "pad::pkcs7_unpad (64 B, valid: fixed 1-byte pad vs random pad length)",
            len: 64,
            prepare: Box::new(move |c, r, slot| {
                if c == 0 {
                    slot.copy_from_slice(&f);
                } else {
                    r.fill(slot);
                    let n = (r.next() % 16 + 1) as usize;
                    slot[64 - n..].fill(n as u8);
                }
            }),
            run: Box::new(move |x| {
                black_box(pkcs7_unpad(x, 16)).expect("valid");
            }),
        });
    }
    {
        let invalid = |r: &mut Rng, slot: &mut [u8]| loop {
            r.fill(slot);
            if pkcs7_unpad(slot, 16).is_err() {
                break;
            }
        };
        let mut f = vec![0u8; 64];
        invalid(rng, &mut f);
        v.push(Target {
            name: "pad::pkcs7_unpad (64 B, invalid: fixed vs random)",
            len: 64,
            prepare: Box::new(move |c, r, slot| {
                if c == 0 {
                    slot.copy_from_slice(&f);
                } else {
                    invalid(r, slot);
                }
            }),
            run: Box::new(move |x| {
                black_box(pkcs7_unpad(x, 16)).expect_err("invalid");
            }),
        });
    }
    {
        let cbc = Cbc::new(Aes::new_from_slice(&key[..16]).unwrap());
        let f = rng.bytes(64);
        let iv = [3u8; 16];
        v.push(Target {
            name: "Cbc::decrypt_padded PKCS#7 (64 B: fixed vs random ciphertext)",
            len: 64,
            prepare: fixed_vs_random(f),
            run: Box::new(move |x| {
                black_box(cbc.decrypt_padded(&iv, x, Padding::Pkcs7)).ok();
            }),
        });
    }

    // Key unwrap: a fixed wrong 40-byte wrapping against random ones (all rejected).
    {
        let kw = Kw::new(Aes::new_from_slice(&key[..16]).unwrap()).unwrap();
        let f = rng.bytes(40);
        let mut out = [0u8; 40];
        v.push(Target {
            name: "AES-KW unwrap (40 B, forged: fixed vs random)",
            len: 40,
            prepare: fixed_vs_random(f),
            run: Box::new(move |x| {
                black_box(kw.unwrap(x, &mut out)).ok();
            }),
        });
    }
    {
        let kwp = Kwp::new(Aes::new_from_slice(&key[..16]).unwrap()).unwrap();
        let f = rng.bytes(40);
        let mut out = [0u8; 40];
        v.push(Target {
            name: "AES-KWP unwrap (40 B, forged: fixed vs random)",
            len: 40,
            prepare: fixed_vs_random(f),
            run: Box::new(move |x| {
                black_box(kwp.unwrap(x, &mut out)).ok();
            }),
        });
    }
    {
        let k = Kalyna128_128::new(&key[..16].try_into().unwrap());
        let kw = DstuKw::new(k).unwrap();
        let f = rng.bytes(64);
        let mut out = [0u8; 64];
        v.push(Target {
            name: "Kalyna-128 DSTU KW unwrap (64 B, forged: fixed vs random)",
            len: 64,
            prepare: fixed_vs_random(f),
            run: Box::new(move |x| {
                black_box(kw.unwrap(x, &mut out)).ok();
            }),
        });
    }
    v
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args
        .first()
        .map(|s| s.parse().expect("MEASUREMENTS: a number"))
        .unwrap_or(1_000_000);
    // At most this many seconds per target (the portable Kalyna key unwrap takes half a
    // millisecond a call).
    let seconds: f64 = args
        .get(1)
        .map(|s| s.parse().expect("SECONDS: a number"))
        .unwrap_or(60.0);
    let only: Vec<&str> = args.iter().skip(2).map(String::as_str).collect();
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
        | 1;
    let mut rng = Rng(seed);
    println!(
        "dudect: up to {n} measurements or {seconds} s per target (plus a first batch for \
         the thresholds), unit: {}",
        if cfg!(target_arch = "x86_64") {
            "TSC ticks"
        } else {
            "ns"
        }
    );
    println!(
        "{:>8}  {:>8}  {:>10}  {:>10}  target",
        "max |t|", "n", "mean 0", "mean 1"
    );
    let mut worst: f64 = 0.0;
    let mut controls = Vec::new();
    for mut t in targets(&mut rng) {
        if !only.is_empty() && !only.iter().any(|o| t.name.contains(o)) {
            continue;
        }
        let (tmax, mean, done) = measure(&mut t, n, seconds, &mut rng);
        if t.name.starts_with("control:") {
            controls.push((t.name, tmax));
        } else {
            worst = worst.max(tmax);
        }
        println!(
            "{tmax:>8.2}  {done:>8}  {:>10.1}  {:>10.1}  {}",
            mean[0], mean[1], t.name
        );
    }
    for (name, tmax) in controls {
        let ok = if name.contains("early-exit") {
            tmax > 10.0
        } else {
            tmax < 4.5
        };
        if !ok {
            println!("WARNING: {name} gave |t| = {tmax:.2}: the measurement is not to be trusted");
        }
    }
    println!(
        "largest |t| of the library's entry points = {worst:.2} ({})",
        if worst < 4.5 {
            "under 4.5: no leak detected"
        } else if worst < 10.0 {
            "4.5 to 10: inconclusive, rerun with more measurements"
        } else {
            "over 10: the timing depends on the input class"
        }
    );
}
