//! `shyfr speed` for the RSA rows (`rsa512` ... `rsa16384`): signatures and verifications
//! per second, like `openssl speed rsa2048`, and, with `--keygen`, the time to make a key.
//!
//! Signing and verifying: one key per row and backend is made when the run starts (not
//! timed; with `--compare` the same key is loaded on the other backend too, and the two
//! must give the same signature). What is timed is what `openssl speed` times: a
//! signature of a fixed 32-byte digest, here RSASSA-PKCS1-v1_5 with SHA-256's
//! `DigestInfo` (the private operation by CRT with blinding and the check of its result,
//! drawing the blinding factor from the operating system), and the verification of that
//! signature (e = 65537). The loops are [`super::measure`]'s over a one-byte buffer, so
//! its "bytes" per second are operations per second; best of the trials, with their
//! spread.
//!
//! Key generation (`--keygen`, `--keys N`): N keys of each size in turn, each timed alone
//! (the primes are random, so one key's time says little): the mean, the sample standard
//! deviation, the fastest and the slowest. With `--compare`, the keys alternate between
//! the two backends.

use std::hint::black_box;
use std::time::Instant;

use serde::Serialize;
use shyfr::arith::bigint::Backend;
use shyfr::hash::sha2::Sha256;
use shyfr::rand::OsRng;
use shyfr::sig::rsa::{RsaPrivateKey, DEFAULT_EXPONENT};

use super::measure;
use super::results::Role;
use super::setup::{Operation, Runner};
use crate::algorithms::Algorithm;
use crate::report::CliError;
use crate::table::{Align, Table};

/// The digest every timed signature signs.
fn bench_digest() -> [u8; 32] {
    Sha256::digest(b"shyfr speed: the message of every timed RSA signature")
}

/// The backend called `name` (the library's choice for `None`).
fn backend(alg: &Algorithm, name: Option<&str>) -> Result<Backend, String> {
    super::setup::pick_backend(alg, name, Backend::best(), Backend::from_name)
}

/// A new key of `alg`'s size on `backend` (random primes from the operating system).
pub fn generate(alg: &Algorithm, backend: Backend) -> Result<RsaPrivateKey, String> {
    let bits = alg.rsa_bits.unwrap_or(0);
    RsaPrivateKey::generate_with_backend(bits, DEFAULT_EXPONENT, backend, &mut OsRng)
        .map_err(|e| format!("{}: cannot make a key on {}: {e}", alg.name, backend.name()))
}

/// The signature every timed verification checks.
fn reference_signature(key: &RsaPrivateKey) -> Result<Vec<u8>, String> {
    key.sign_pkcs1v15_prehashed::<Sha256, _>(&mut OsRng, &bench_digest())
        .map_err(|e| format!("cannot sign with a {}-bit key: {e}", key.bits()))
}

/// A [`Runner`] that signs (`Operation::Sign`) or verifies (`Operation::Verify`) with
/// `key`; the buffer is not used. Checks once, untimed, that the operation succeeds.
pub fn runner(key: &RsaPrivateKey, op: Operation) -> Result<Runner, String> {
    let digest = bench_digest();
    let sig = reference_signature(key)?;
    match op {
        Operation::Sign => {
            let key = key.clone();
            Ok(Box::new(move |_: &mut [u8], reps: u64| {
                for _ in 0..reps {
                    let s =
                        key.sign_pkcs1v15_prehashed::<Sha256, _>(&mut OsRng, black_box(&digest));
                    black_box(s.ok());
                }
            }))
        }
        Operation::Verify => {
            let public = key.public_key().clone();
            public
                .verify_pkcs1v15_prehashed::<Sha256>(&digest, &sig)
                .map_err(|e| format!("a {}-bit signature does not verify: {e}", key.bits()))?;
            Ok(Box::new(move |_: &mut [u8], reps: u64| {
                for _ in 0..reps {
                    let r = public.verify_pkcs1v15_prehashed::<Sha256>(black_box(&digest), &sig);
                    black_box(r.is_ok());
                }
            }))
        }
        other => Err(format!("RSA rows cannot {}", other.name())),
    }
}

/// A key of one RSA row on one backend.
pub(super) struct PkKey {
    pub backend: &'static str,
    key: RsaPrivateKey,
}

/// One RSA row with its key(s).
pub(super) struct PkSubject {
    pub alg: &'static Algorithm,
    pub chosen: PkKey,
    pub compared: Option<PkKey>,
}

impl PkSubject {
    fn key(&self, role: Role) -> Option<&PkKey> {
        match role {
            Role::Chosen => Some(&self.chosen),
            Role::Compared => self.compared.as_ref(),
        }
    }
}

/// Makes the keys (untimed): one per row on `chosen` (the library's choice for `None`),
/// loaded on `compared` too; the two backends must give the same signature.
pub(super) fn prepare(
    algs: &[&'static Algorithm],
    chosen: Option<&str>,
    compared: Option<&str>,
    pb: &indicatif::ProgressBar,
) -> Result<Vec<PkSubject>, CliError> {
    let fail = CliError::Failure;
    let mut out = Vec::new();
    for &alg in algs {
        pb.set_message(format!("{}: making a key (not timed)", alg.name));
        let b = backend(alg, chosen).map_err(fail)?;
        let key = generate(alg, b).map_err(fail)?;
        let compared = match compared {
            None => None,
            Some(name) => {
                let other = backend(alg, Some(name)).map_err(fail)?;
                let der = key
                    .to_pkcs1_der()
                    .map_err(|e| fail(format!("{}: {e}", alg.name)))?;
                let k = RsaPrivateKey::from_pkcs1_der_with_backend(&der, other)
                    .map_err(|e| fail(format!("{}: on {}: {e}", alg.name, other.name())))?;
                let (a, b) = (
                    reference_signature(&key).map_err(fail)?,
                    reference_signature(&k).map_err(fail)?,
                );
                if a != b {
                    return Err(fail(format!(
                        "{}: backends {} and {} give different signatures; not comparing",
                        alg.name,
                        key.backend().name(),
                        other.name()
                    )));
                }
                Some(PkKey {
                    backend: k.backend().name(),
                    key: k,
                })
            }
        };
        out.push(PkSubject {
            alg,
            chosen: PkKey {
                backend: key.backend().name(),
                key,
            },
            compared,
        });
    }
    Ok(out)
}

/// Signing or verifying on one backend: operations per second of each trial.
pub(super) struct PkCell {
    pub subject: usize,
    pub role: Role,
    pub op: Operation,
    pub trials: Vec<f64>,
}

impl PkCell {
    fn best(&self) -> f64 {
        self.trials.iter().copied().fold(0.0, f64::max)
    }
    fn worst(&self) -> f64 {
        self.trials.iter().copied().fold(f64::INFINITY, f64::min)
    }
    fn spread(&self) -> f64 {
        let b = self.best();
        if b > 0.0 {
            (b - self.worst()) / b
        } else {
            0.0
        }
    }
}

/// The number of cells [`measure_all`] measures (for the progress bar).
pub(super) fn cell_count(subjects: &[PkSubject]) -> usize {
    subjects
        .iter()
        .map(|s| 2 * (1 + usize::from(s.compared.is_some())))
        .sum()
}

/// Times signing and verifying of every subject on its backend(s).
pub(super) fn measure_all(
    subjects: &[PkSubject],
    seconds: f64,
    trials: u32,
    pb: &indicatif::ProgressBar,
) -> Result<Vec<PkCell>, CliError> {
    let mut cells = Vec::new();
    for (i, s) in subjects.iter().enumerate() {
        for op in [Operation::Sign, Operation::Verify] {
            for role in [Role::Chosen, Role::Compared] {
                let Some(k) = s.key(role) else { continue };
                pb.set_message(format!("{} {} {}", s.alg.name, op.name(), k.backend));
                let mut run = runner(&k.key, op).map_err(CliError::Failure)?;
                let t = measure::single(&mut run, 1, seconds, trials).map_err(CliError::Failure)?;
                pb.inc(1);
                cells.push(PkCell {
                    subject: i,
                    role,
                    op,
                    trials: t,
                });
            }
        }
    }
    Ok(cells)
}

/// Key generation times of one row on one backend.
pub(super) struct KeygenCell {
    pub alg: &'static Algorithm,
    pub backend: &'static str,
    pub role: Role,
    /// Seconds per key, in the order they were made.
    pub seconds: Vec<f64>,
}

impl KeygenCell {
    fn mean(&self) -> f64 {
        self.seconds.iter().sum::<f64>() / self.seconds.len().max(1) as f64
    }
    /// The sample standard deviation (0 for one key).
    fn stddev(&self) -> f64 {
        let n = self.seconds.len();
        if n < 2 {
            return 0.0;
        }
        let m = self.mean();
        let ss: f64 = self.seconds.iter().map(|t| (t - m) * (t - m)).sum();
        (ss / (n - 1) as f64).sqrt()
    }
    fn min(&self) -> f64 {
        self.seconds.iter().copied().fold(f64::INFINITY, f64::min)
    }
    fn max(&self) -> f64 {
        self.seconds.iter().copied().fold(0.0, f64::max)
    }
}

/// Makes `keys` keys of each row, timing each; with `compared`, alternating between the
/// two backends.
pub(super) fn keygen(
    algs: &[&'static Algorithm],
    chosen: Option<&str>,
    compared: Option<&str>,
    keys: u32,
    pb: &indicatif::ProgressBar,
) -> Result<Vec<KeygenCell>, CliError> {
    let fail = CliError::Failure;
    let mut cells = Vec::new();
    for &alg in algs {
        let mut mine = vec![(Role::Chosen, backend(alg, chosen).map_err(fail)?)];
        if compared.is_some() {
            mine.push((Role::Compared, backend(alg, compared).map_err(fail)?));
        }
        let mut times = vec![Vec::new(); mine.len()];
        for n in 0..keys {
            for (j, &(_, b)) in mine.iter().enumerate() {
                pb.set_message(format!(
                    "{} key {} of {keys} on {}",
                    alg.name,
                    n + 1,
                    b.name()
                ));
                let start = Instant::now();
                let key = generate(alg, b).map_err(fail)?;
                times[j].push(start.elapsed().as_secs_f64());
                black_box(key);
                pb.inc(1);
            }
        }
        for ((role, b), seconds) in mine.into_iter().zip(times) {
            cells.push(KeygenCell {
                alg,
                backend: b.name(),
                role,
                seconds,
            });
        }
    }
    Ok(cells)
}

/// Everything measured for the RSA rows.
#[derive(Default)]
pub(super) struct PkReport {
    pub subjects: Vec<PkSubject>,
    pub cells: Vec<PkCell>,
    pub keygen: Vec<KeygenCell>,
}

/// One entry of `signatures` in the JSON output: one operation of one row on one backend.
#[derive(Serialize, Debug)]
pub(super) struct JsonSignature<'a> {
    algorithm: &'a str,
    /// `sign` or `verify`.
    operation: &'a str,
    backend: &'a str,
    /// The modulus in bits.
    bits: usize,
    /// The best trial.
    operations_per_second: f64,
    /// Milliseconds per operation in the best trial.
    ms_per_operation: f64,
    /// Core cycles per operation in the best trial.
    cycles_per_operation: Option<f64>,
    trials: usize,
    min_operations_per_second: f64,
    /// (best - slowest) / best.
    spread: f64,
    /// On rows of the chosen backend with `--compare`: its operations per second over the
    /// compared backend's.
    ratio: Option<f64>,
    compared_to: Option<&'a str>,
    trial_operations_per_second: &'a [f64],
}

/// One entry of `keygen` in the JSON output.
#[derive(Serialize, Debug)]
pub(super) struct JsonKeygen<'a> {
    algorithm: &'a str,
    operation: &'a str,
    backend: &'a str,
    bits: usize,
    keys: usize,
    mean_seconds: f64,
    /// The sample standard deviation of the times.
    stddev_seconds: f64,
    min_seconds: f64,
    max_seconds: f64,
    /// On rows of the chosen backend with `--compare`: the compared backend's mean over
    /// this one's (above 1: this one is faster).
    ratio: Option<f64>,
    compared_to: Option<&'a str>,
    /// Every key's time, in the order they were made.
    key_seconds: &'a [f64],
}

fn fmt_ms(seconds: f64) -> String {
    let ms = seconds * 1e3;
    if ms < 1.0 {
        format!("{ms:.4}")
    } else if ms < 100.0 {
        format!("{ms:.3}")
    } else {
        format!("{ms:.1}")
    }
}

fn fmt_rate(r: f64) -> String {
    if r < 100.0 {
        format!("{r:.2}")
    } else {
        format!("{r:.1}")
    }
}

impl PkReport {
    fn cell(&self, subject: usize, role: Role, op: Operation) -> Option<&PkCell> {
        self.cells
            .iter()
            .find(|c| c.subject == subject && c.role == role && c.op == op)
    }

    fn ratio(&self, subject: usize, op: Operation) -> Option<f64> {
        Some(
            self.cell(subject, Role::Chosen, op)?.best()
                / self.cell(subject, Role::Compared, op)?.best(),
        )
    }

    fn keygen_compared(&self, c: &KeygenCell) -> Option<&KeygenCell> {
        (c.role == Role::Chosen)
            .then(|| {
                self.keygen
                    .iter()
                    .find(|o| o.role == Role::Compared && std::ptr::eq(o.alg, c.alg))
            })
            .flatten()
    }

    /// The `signatures` entries.
    pub fn json_signatures(&self, ghz: Option<f64>) -> Vec<JsonSignature<'_>> {
        self.cells
            .iter()
            .map(|c| {
                let s = &self.subjects[c.subject];
                let compared_to = (c.role == Role::Chosen)
                    .then(|| s.compared.as_ref().map(|k| k.backend))
                    .flatten();
                let best = c.best();
                JsonSignature {
                    algorithm: s.alg.name,
                    operation: c.op.name(),
                    backend: s.key(c.role).map_or("?", |k| k.backend),
                    bits: s.alg.rsa_bits.unwrap_or(0),
                    operations_per_second: best,
                    ms_per_operation: 1e3 / best,
                    cycles_per_operation: ghz.map(|g| g * 1e9 / best),
                    trials: c.trials.len(),
                    min_operations_per_second: c.worst(),
                    spread: c.spread(),
                    ratio: compared_to.and_then(|_| self.ratio(c.subject, c.op)),
                    compared_to,
                    trial_operations_per_second: &c.trials,
                }
            })
            .collect()
    }

    /// The `keygen` entries.
    pub fn json_keygen(&self) -> Vec<JsonKeygen<'_>> {
        self.keygen
            .iter()
            .map(|c| {
                let other = self.keygen_compared(c);
                JsonKeygen {
                    algorithm: c.alg.name,
                    operation: "keygen",
                    backend: c.backend,
                    bits: c.alg.rsa_bits.unwrap_or(0),
                    keys: c.seconds.len(),
                    mean_seconds: c.mean(),
                    stddev_seconds: c.stddev(),
                    min_seconds: c.min(),
                    max_seconds: c.max(),
                    ratio: other.map(|o| o.mean() / c.mean()),
                    compared_to: other.map(|o| o.backend),
                    key_seconds: &c.seconds,
                }
            })
            .collect()
    }

    /// The tables: signatures (like `openssl speed rsa2048`), then key generation.
    pub fn text(&self, ghz: Option<f64>, trials: u32, seconds: f64) -> String {
        let mut out = String::new();
        if !self.subjects.is_empty() {
            out.push_str(&format!(
                "\nRSA: RSASSA-PKCS1-v1_5 signatures of a SHA-256 digest (blinded CRT, result \
                 checked) and their verification (e = 65537); one key per size, made before \
                 timing; best of {trials} trial{} of {:.3} s{}\n",
                if trials == 1 { "" } else { "s" },
                seconds / f64::from(trials),
                if trials > 1 {
                    "; ±: spread of the trials, (best - slowest) / best"
                } else {
                    ""
                }
            ));
            let mut cols = vec![
                ("algorithm", Align::Left),
                ("backend", Align::Left),
                ("sign ms", Align::Right),
                ("verify ms", Align::Right),
                ("sign/s", Align::Right),
                ("verify/s", Align::Right),
            ];
            if ghz.is_some() {
                cols.push(("sign kcycles", Align::Right));
                cols.push(("verify kcycles", Align::Right));
            }
            let mut t = Table::new(cols);
            for (i, s) in self.subjects.iter().enumerate() {
                for role in [Role::Chosen, Role::Compared] {
                    let Some(k) = s.key(role) else { continue };
                    let get = |op| self.cell(i, role, op);
                    let (Some(sc), Some(vc)) = (get(Operation::Sign), get(Operation::Verify))
                    else {
                        continue;
                    };
                    let rate = |c: &PkCell| {
                        if trials > 1 {
                            format!("{} ±{:.1}%", fmt_rate(c.best()), c.spread() * 100.0)
                        } else {
                            fmt_rate(c.best())
                        }
                    };
                    let mut row = vec![
                        s.alg.name.to_string(),
                        k.backend.to_string(),
                        fmt_ms(1.0 / sc.best()),
                        fmt_ms(1.0 / vc.best()),
                        rate(sc),
                        rate(vc),
                    ];
                    if let Some(g) = ghz {
                        row.push(format!("{:.1}", g * 1e6 / sc.best()));
                        row.push(format!("{:.1}", g * 1e6 / vc.best()));
                    }
                    t.row(row);
                }
            }
            out.push_str(&t.render());
            if self.subjects.iter().any(|s| s.compared.is_some()) {
                out.push_str("\nratio of operations per second, chosen / compared backend\n");
                let mut t = Table::new([
                    ("algorithm", Align::Left),
                    ("backend", Align::Left),
                    ("sign", Align::Right),
                    ("verify", Align::Right),
                ]);
                for (i, s) in self.subjects.iter().enumerate() {
                    let Some(c) = &s.compared else { continue };
                    let r = |op| {
                        self.ratio(i, op)
                            .map_or("-".to_string(), |r| format!("{r:.2}x"))
                    };
                    t.row(vec![
                        s.alg.name.to_string(),
                        format!("{} / {}", s.chosen.backend, c.backend),
                        r(Operation::Sign),
                        r(Operation::Verify),
                    ]);
                }
                out.push_str(&t.render());
            }
        }
        if !self.keygen.is_empty() {
            let n = self.keygen[0].seconds.len();
            out.push_str(&format!(
                "\nRSA key generation (e = 65537, two primes, FIPS 186-5 Miller-Rabin rounds): \
                 {n} key{} per size and backend, each timed alone; ±: sample standard \
                 deviation\n",
                if n == 1 { "" } else { "s" }
            ));
            let mut t = Table::new([
                ("algorithm", Align::Left),
                ("backend", Align::Left),
                ("keys", Align::Right),
                ("mean ms", Align::Right),
                ("± ms", Align::Right),
                ("±", Align::Right),
                ("min ms", Align::Right),
                ("max ms", Align::Right),
                ("keys/s", Align::Right),
            ]);
            for c in &self.keygen {
                let m = c.mean();
                t.row(vec![
                    c.alg.name.to_string(),
                    c.backend.to_string(),
                    c.seconds.len().to_string(),
                    fmt_ms(m),
                    fmt_ms(c.stddev()),
                    format!("{:.0}%", 100.0 * c.stddev() / m.max(f64::MIN_POSITIVE)),
                    fmt_ms(c.min()),
                    fmt_ms(c.max()),
                    fmt_rate(1.0 / m.max(f64::MIN_POSITIVE)),
                ]);
            }
            out.push_str(&t.render());
            let ratios: Vec<String> = self
                .keygen
                .iter()
                .filter_map(|c| {
                    self.keygen_compared(c).map(|o| {
                        format!(
                            "{} {} / {}: {:.2}x",
                            c.alg.name,
                            c.backend,
                            o.backend,
                            o.mean() / c.mean()
                        )
                    })
                })
                .collect();
            if !ratios.is_empty() {
                out.push_str(&format!(
                    "\nspeed-up of the mean, chosen over compared backend: {}\n",
                    ratios.join("; ")
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms;

    #[test]
    fn runners_sign_and_verify_on_every_backend() {
        let alg = algorithms::find("rsa1024").unwrap();
        let mut ran = 0;
        for b in Backend::ALL.iter().filter(|b| b.is_available()) {
            let key = generate(alg, *b).unwrap();
            assert_eq!(key.bits(), 1024);
            assert_eq!(key.backend(), *b);
            for op in [Operation::Sign, Operation::Verify] {
                let mut r = runner(&key, op).unwrap();
                r(&mut [0u8; 1], 2);
                ran += 1;
            }
            assert!(runner(&key, Operation::Hash).is_err());
        }
        assert!(ran >= 2);
    }

    #[test]
    fn keygen_statistics() {
        let alg = algorithms::find("rsa512").unwrap();
        let c = KeygenCell {
            alg,
            backend: "soft",
            role: Role::Chosen,
            seconds: vec![1.0, 2.0, 3.0, 6.0],
        };
        assert_eq!(c.mean(), 3.0);
        // sum of squares 4 + 1 + 0 + 9 = 14, over 3.
        assert!((c.stddev() - (14.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!((c.min(), c.max()), (1.0, 6.0));
        let one = KeygenCell {
            seconds: vec![0.5],
            ..c
        };
        assert_eq!(one.stddev(), 0.0);
    }
}
