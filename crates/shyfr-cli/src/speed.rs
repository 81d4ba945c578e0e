//! `shyfr speed`: throughput and cycles per byte, in the spirit of `openssl speed`.
//!
//! For each algorithm and buffer size a key is set up once (untimed) and a buffer of that
//! size is processed in place over and over for about `--seconds`, split into
//! [`TRIALS`] trials; the best trial is reported. The clock is read once per batch of calls,
//! the batch grown beforehand until it takes a small fraction of a trial, so reading the
//! clock costs nothing measurable even for 16-byte buffers. Cycles per byte is the core
//! clock (see [`crate::clock`], or `--ghz`) divided by the bytes per second.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use clap::Args;
use serde::Serialize;

use crate::algorithms::{self, Algorithm, Operation, Prepared, Runner};
use crate::clock;
use crate::cpu_report::{cpu_json, describe_override, CpuJson};
use crate::table::{Align, Table};
use crate::{CliError, CpuOverride};

/// Trials per measurement; the best is reported.
pub const TRIALS: u32 = 3;

/// Seconds per (algorithm, size) by default, so that the default run (3 algorithms x 6
/// sizes) takes about 30 s.
const DEFAULT_SECONDS: f64 = 30.0 / 18.0;

/// The clock is read at most about this many times per trial.
const BATCHES_PER_TRIAL: u32 = 64;

/// Buffer sizes measured by default.
const DEFAULT_SIZES: &[usize] = &[16, 64, 256, 1024, 8192, 16384];

/// The largest buffer accepted (1 GiB).
const MAX_SIZE: usize = 1 << 30;

/// Options of `shyfr speed`.
#[derive(Args, Debug)]
pub struct SpeedArgs {
    /// Algorithms to measure [default: aes-128-ecb aes-192-ecb aes-256-ecb]
    #[arg(value_name = "ALG")]
    algorithms: Vec<String>,

    /// Buffer sizes in bytes, comma-separated (for ECB, multiples of 16)
    /// [default: 16,64,256,1024,8192,16384]
    #[arg(long, value_name = "LIST", value_parser = parse_sizes, allow_negative_numbers = true)]
    sizes: Option<Sizes>,

    /// Seconds spent on each algorithm and size, split into 3 trials (the best is shown)
    /// [default: 1.67, so the default run takes about 30 s]
    #[arg(long, value_name = "S", value_parser = parse_seconds, allow_negative_numbers = true)]
    seconds: Option<f64>,

    /// Also measure each cell with this backend (`portable` for the portable code) and show
    /// the ratio (chosen / compared)
    #[arg(long, value_name = "portable|BACKEND")]
    compare: Option<String>,

    /// Measure with this backend instead of the one the library would select
    #[arg(long, value_name = "NAME")]
    backend: Option<String>,

    /// Measure decryption instead of encryption
    #[arg(long)]
    decrypt: bool,

    /// Core clock in GHz for cycles per byte, instead of the estimate
    #[arg(long, value_name = "F", value_parser = parse_ghz, allow_negative_numbers = true)]
    ghz: Option<f64>,

    /// Print one JSON object instead of tables
    #[arg(long)]
    json: bool,
}

/// A parsed `--sizes` list.
#[derive(Clone, Debug)]
struct Sizes(Vec<usize>);

fn parse_sizes(s: &str) -> Result<Sizes, String> {
    if s.trim().is_empty() {
        return Err("the list is empty; give sizes in bytes such as 16,1024".into());
    }
    let mut sizes = Vec::new();
    for item in s.split(',') {
        let item = item.trim();
        let n: usize = item.parse().map_err(|_| {
            if item.is_empty() {
                "empty item in the list; give sizes in bytes such as 16,1024".to_string()
            } else {
                format!("'{item}' is not a size in bytes (a whole number such as 1024)")
            }
        })?;
        if n == 0 {
            return Err("sizes must be at least 1 byte".into());
        }
        if n > MAX_SIZE {
            return Err(format!(
                "size {n} is larger than the limit of {MAX_SIZE} bytes"
            ));
        }
        if !sizes.contains(&n) {
            sizes.push(n);
        }
    }
    Ok(Sizes(sizes))
}

fn parse_positive(s: &str, what: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("{what} must be a number greater than 0")),
    }
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    parse_positive(s, "the time in seconds")
}

fn parse_ghz(s: &str) -> Result<f64, String> {
    parse_positive(s, "the clock in GHz")
}

/// Whether a row is the backend under test or the one it is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Chosen,
    Compared,
}

/// One algorithm with its keys set up.
struct Subject {
    alg: &'static Algorithm,
    /// What is measured: decryption with `--decrypt`, else the row's own operation.
    op: Operation,
    chosen: Prepared,
    compared: Option<Prepared>,
}

/// One measured cell.
struct Cell {
    subject: usize,
    role: Role,
    size: usize,
    bytes_per_second: f64,
}

/// Where the clock frequency came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum GhzSource {
    /// `--ghz`.
    Given,
    /// [`clock::estimate_hz`].
    Estimated,
    /// Neither: no cycles per byte.
    Unknown,
}

/// One entry of `results` in the JSON output. The first six keys are a stable contract.
#[derive(Serialize, Debug)]
struct JsonResult<'a> {
    algorithm: &'a str,
    operation: &'a str,
    backend: &'a str,
    size: usize,
    bytes_per_second: f64,
    cycles_per_byte: Option<f64>,
    /// On rows of the chosen backend with `--compare`: its bytes per second divided by the
    /// compared backend's.
    #[serde(skip_serializing_if = "Option::is_none")]
    ratio: Option<f64>,
    /// On rows of the chosen backend with `--compare`: the compared backend.
    #[serde(skip_serializing_if = "Option::is_none")]
    compared_to: Option<&'a str>,
}

/// The JSON output.
#[derive(Serialize, Debug)]
struct JsonReport<'a> {
    ghz: Option<f64>,
    ghz_source: GhzSource,
    seconds: f64,
    trials: u32,
    cpu: CpuJson,
    results: Vec<JsonResult<'a>>,
}

/// Progress on standard error, shown only when it is a terminal.
struct Progress {
    on: bool,
}

impl Progress {
    fn new() -> Self {
        Progress {
            on: std::io::stderr().is_terminal(),
        }
    }

    fn show(&self, msg: &str) {
        if self.on {
            let mut e = std::io::stderr().lock();
            let _ = write!(e, "\r\x1b[2K{msg}");
            let _ = e.flush();
        }
    }

    fn clear(&self) {
        if self.on {
            let mut e = std::io::stderr().lock();
            let _ = write!(e, "\r\x1b[2K");
            let _ = e.flush();
        }
    }
}

/// Measures `run` over a buffer of `size` bytes for about `seconds`; the best of
/// [`TRIALS`] trials, in bytes per second.
fn measure(run: &mut Runner, size: usize, seconds: f64) -> f64 {
    let mut buf: Vec<u8> = (0..size).map(|i| i as u8).collect();
    let trial = Duration::from_secs_f64(seconds / f64::from(TRIALS));
    let batch_target = trial / BATCHES_PER_TRIAL;

    // Grow the batch until one takes `batch_target` (this doubles as the warm-up).
    const MAX_BATCH: u64 = 1 << 40;
    let mut batch: u64 = 1;
    loop {
        let start = Instant::now();
        run(&mut buf, batch);
        let took = start.elapsed();
        if took >= batch_target || batch >= MAX_BATCH {
            break;
        }
        let factor = if took.is_zero() {
            8.0
        } else {
            (batch_target.as_secs_f64() / took.as_secs_f64()).clamp(1.5, 8.0)
        };
        batch = ((batch as f64 * factor).ceil() as u64).min(MAX_BATCH);
    }

    let mut best = 0.0f64;
    for _ in 0..TRIALS {
        let start = Instant::now();
        let mut reps: u64 = 0;
        let took = loop {
            run(&mut buf, batch);
            reps += batch;
            let took = start.elapsed();
            if took >= trial {
                break took;
            }
        };
        best = best.max(reps as f64 * size as f64 / took.as_secs_f64());
    }
    best
}

/// The algorithms named on the command line (the default set if none), without repeats.
fn select_algorithms(names: &[String]) -> Result<Vec<&'static Algorithm>, CliError> {
    let mut algs: Vec<&'static Algorithm> = Vec::new();
    let requested: Vec<&str> = if names.is_empty() {
        algorithms::DEFAULT.to_vec()
    } else {
        names.iter().map(String::as_str).collect()
    };
    for name in requested {
        let alg = algorithms::find(name).ok_or_else(|| {
            CliError::Usage(format!(
                "unknown algorithm '{name}'; valid algorithms: {}",
                algorithms::names()
            ))
        })?;
        if !algs.iter().any(|a| a.name == alg.name) {
            algs.push(alg);
        }
    }
    Ok(algs)
}

/// Sets up the keys, checking the backends; usage errors for unknown or unavailable ones.
fn prepare(
    algs: &[&'static Algorithm],
    sizes: &[usize],
    decrypt: bool,
    backend: Option<&str>,
    compare: Option<&str>,
) -> Result<Vec<Subject>, CliError> {
    // Every check first, so no key is set up for a command line that is refused.
    let mut plan = Vec::new();
    for &alg in algs {
        if let Some(&bad) = sizes.iter().find(|&&s| s % alg.block_len != 0) {
            let below = bad / alg.block_len * alg.block_len;
            let above = below + alg.block_len;
            let hint = if below == 0 {
                format!("{above}")
            } else {
                format!("{below} or {above}")
            };
            return Err(CliError::Usage(format!(
                "size {bad} is not a multiple of the {}-byte block of {} (it processes whole \
                 blocks); use e.g. {hint}",
                alg.block_len, alg.name
            )));
        }
        let op = if decrypt {
            Operation::Decrypt
        } else {
            alg.operations[0]
        };
        if !alg.operations.contains(&op) {
            return Err(CliError::Usage(format!(
                "{} does not support {}",
                alg.name,
                op.name()
            )));
        }
        let chosen = backend
            .map(|b| alg.resolve_backend(b))
            .transpose()
            .map_err(|e| CliError::Usage(format!("--backend: {e}")))?;
        let compared = compare
            .map(|b| alg.resolve_backend(b))
            .transpose()
            .map_err(|e| CliError::Usage(format!("--compare: {e}")))?;
        plan.push((alg, op, chosen, compared));
    }

    let mut subjects = Vec::new();
    for (alg, op, chosen, compared) in plan {
        let mut chosen = alg.prepare(chosen, op).map_err(CliError::Runtime)?;
        let mut compared = compared
            .map(|b| alg.prepare(Some(b), op))
            .transpose()
            .map_err(CliError::Runtime)?;
        if let Some(other) = compared.as_mut() {
            cross_check(alg, &mut chosen, other)?;
        }
        subjects.push(Subject {
            alg,
            op,
            chosen,
            compared,
        });
    }
    Ok(subjects)
}

/// Fails if two backends of one algorithm give different results (a comparison of speeds
/// is meaningless then).
fn cross_check(alg: &Algorithm, a: &mut Prepared, b: &mut Prepared) -> Result<(), CliError> {
    let input: Vec<u8> = (0..alg.block_len * 37).map(|i| (i * 7 + 3) as u8).collect();
    let (mut x, mut y) = (input.clone(), input);
    (a.run)(&mut x, 2);
    (b.run)(&mut y, 2);
    if x == y {
        Ok(())
    } else {
        Err(CliError::Runtime(format!(
            "{}: backends {} and {} give different results; not comparing",
            alg.name, a.backend, b.backend
        )))
    }
}

fn fmt_mbps(bps: f64) -> String {
    format!("{:.2}", bps / 1e6)
}

fn fmt_cpb(cpb: Option<f64>) -> String {
    match cpb {
        None => "-".to_string(),
        Some(v) if v < 10.0 => format!("{v:.3}"),
        Some(v) if v < 100.0 => format!("{v:.2}"),
        Some(v) => format!("{v:.1}"),
    }
}

/// Runs `shyfr speed`; returns what to print on standard output.
pub fn run(args: &SpeedArgs, ov: Option<&CpuOverride>) -> Result<String, CliError> {
    let algs = select_algorithms(&args.algorithms)?;
    let sizes: Vec<usize> = args
        .sizes
        .as_ref()
        .map(|s| s.0.clone())
        .unwrap_or_else(|| DEFAULT_SIZES.to_vec());
    let seconds = args.seconds.unwrap_or(DEFAULT_SECONDS);
    let mut subjects = prepare(
        &algs,
        &sizes,
        args.decrypt,
        args.backend.as_deref(),
        args.compare.as_deref(),
    )?;

    let progress = Progress::new();
    let (ghz, ghz_source) = match args.ghz {
        Some(g) => (Some(g), GhzSource::Given),
        None => {
            progress.show("estimating the core clock...");
            match clock::estimate_hz() {
                Some(hz) => (Some(hz / 1e9), GhzSource::Estimated),
                None => (None, GhzSource::Unknown),
            }
        }
    };

    let per_subject = sizes.len() * if args.compare.is_some() { 2 } else { 1 };
    let total = subjects.len() * per_subject;
    let mut cells = Vec::with_capacity(total);
    let mut done = 0;
    for (i, subject) in subjects.iter_mut().enumerate() {
        for &size in &sizes {
            let roles = [
                Some(Role::Chosen),
                subject.compared.as_ref().map(|_| Role::Compared),
            ];
            for role in roles.into_iter().flatten() {
                let p = match role {
                    Role::Chosen => &mut subject.chosen,
                    Role::Compared => subject.compared.as_mut().expect("role exists"),
                };
                done += 1;
                progress.show(&format!(
                    "[{done}/{total}] {} {} {} {size} bytes...",
                    subject.alg.name,
                    subject.op.name(),
                    p.backend
                ));
                let bytes_per_second = measure(&mut p.run, size, seconds);
                cells.push(Cell {
                    subject: i,
                    role,
                    size,
                    bytes_per_second,
                });
            }
        }
    }
    progress.clear();

    let report = Report {
        subjects: &subjects,
        cells: &cells,
        sizes: &sizes,
        ghz,
        ghz_source,
        seconds,
    };
    if args.json {
        report.json(ov)
    } else {
        Ok(report.text(ov))
    }
}

/// The measurements, ready to print.
struct Report<'a> {
    subjects: &'a [Subject],
    cells: &'a [Cell],
    sizes: &'a [usize],
    ghz: Option<f64>,
    ghz_source: GhzSource,
    seconds: f64,
}

impl Report<'_> {
    fn cpb(&self, bytes_per_second: f64) -> Option<f64> {
        self.ghz.map(|g| g * 1e9 / bytes_per_second)
    }

    fn find(&self, subject: usize, role: Role, size: usize) -> Option<f64> {
        self.cells
            .iter()
            .find(|c| c.subject == subject && c.role == role && c.size == size)
            .map(|c| c.bytes_per_second)
    }

    fn ratio(&self, subject: usize, size: usize) -> Option<f64> {
        Some(self.find(subject, Role::Chosen, size)? / self.find(subject, Role::Compared, size)?)
    }

    fn backend(&self, subject: usize, role: Role) -> &str {
        let s = &self.subjects[subject];
        match role {
            Role::Chosen => s.chosen.backend,
            Role::Compared => s.compared.as_ref().map_or("?", |p| p.backend),
        }
    }

    fn json(&self, ov: Option<&CpuOverride>) -> Result<String, CliError> {
        let results = self
            .cells
            .iter()
            .map(|c| {
                let compared = (c.role == Role::Chosen)
                    .then(|| self.subjects[c.subject].compared.as_ref())
                    .flatten();
                JsonResult {
                    algorithm: self.subjects[c.subject].alg.name,
                    operation: self.subjects[c.subject].op.name(),
                    backend: self.backend(c.subject, c.role),
                    size: c.size,
                    bytes_per_second: c.bytes_per_second,
                    cycles_per_byte: self.cpb(c.bytes_per_second),
                    ratio: compared.and_then(|_| self.ratio(c.subject, c.size)),
                    compared_to: compared.map(|p| p.backend),
                }
            })
            .collect();
        let report = JsonReport {
            ghz: self.ghz,
            ghz_source: self.ghz_source,
            seconds: self.seconds,
            trials: TRIALS,
            cpu: cpu_json(ov),
            results,
        };
        let mut s = serde_json::to_string_pretty(&report)
            .map_err(|e| CliError::Runtime(format!("cannot write JSON: {e}")))?;
        s.push('\n');
        Ok(s)
    }

    /// A table with one row per (algorithm, backend) and one column per size.
    fn table(&self, cell: impl Fn(usize, Role, usize) -> String, ratio_rows: bool) -> String {
        let mut columns = vec![
            ("algorithm".to_string(), Align::Left),
            ("operation".to_string(), Align::Left),
            ("backend".to_string(), Align::Left),
        ];
        columns.extend(
            self.sizes
                .iter()
                .map(|s| (format!("{s} bytes"), Align::Right)),
        );
        let mut t = Table::new(columns);
        for (i, s) in self.subjects.iter().enumerate() {
            let roles: &[Role] = match (&s.compared, ratio_rows) {
                (_, true) => &[Role::Chosen],
                (Some(_), false) => &[Role::Chosen, Role::Compared],
                (None, false) => &[Role::Chosen],
            };
            for &role in roles {
                let backend = if ratio_rows {
                    format!(
                        "{} / {}",
                        self.backend(i, Role::Chosen),
                        self.backend(i, Role::Compared)
                    )
                } else {
                    self.backend(i, role).to_string()
                };
                let mut row = vec![s.alg.name.to_string(), s.op.name().to_string(), backend];
                row.extend(self.sizes.iter().map(|&size| cell(i, role, size)));
                t.row(row);
            }
        }
        t.render()
    }

    fn text(&self, ov: Option<&CpuOverride>) -> String {
        let mut out = String::new();
        out.push_str(&format!(
            "shyfr speed: best of {TRIALS} trials of {:.3} s for each size; key set-up not \
             timed\n",
            self.seconds / f64::from(TRIALS)
        ));
        out.push_str(&match (self.ghz, self.ghz_source) {
            (Some(g), GhzSource::Estimated) => format!(
                "core clock: {g:.2} GHz (estimated from a chain of dependent additions; \
                 --ghz overrides)\n"
            ),
            (Some(g), _) => format!("core clock: {g:.2} GHz (given with --ghz)\n"),
            (None, _) => {
                "core clock: unknown on this architecture (give --ghz for cycles per byte)\n"
                    .to_string()
            }
        });
        out.push_str(&format!("cpu override: {}\n", describe_override(ov)));

        out.push_str("\nthroughput in MB/s (1 MB = 10^6 bytes), higher is better\n");
        out.push_str(&self.table(
            |i, role, size| self.find(i, role, size).map_or("-".into(), fmt_mbps),
            false,
        ));

        match self.ghz {
            Some(g) => out.push_str(&format!(
                "\ncycles per byte at {g:.2} GHz, lower is better\n"
            )),
            None => out.push_str("\ncycles per byte (core clock unknown)\n"),
        }
        out.push_str(&self.table(
            |i, role, size| fmt_cpb(self.find(i, role, size).and_then(|b| self.cpb(b))),
            false,
        ));

        if self.subjects.iter().any(|s| s.compared.is_some()) {
            out.push_str("\nratio of throughputs, chosen / compared backend\n");
            out.push_str(&self.table(
                |i, _, size| {
                    self.ratio(i, size)
                        .map_or("-".into(), |r| format!("{r:.2}x"))
                },
                true,
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_sizes("16, 64,16").unwrap().0, vec![16, 64]);
        assert!(parse_sizes("").is_err());
        assert!(parse_sizes("16,,32").is_err());
        assert!(parse_sizes("0").is_err());
        assert!(parse_sizes("-16").is_err());
        assert!(parse_sizes("1k").is_err());
        assert!(parse_sizes(&format!("{}", MAX_SIZE + 1)).is_err());
    }

    #[test]
    fn positive_numbers() {
        assert_eq!(parse_seconds("0.5"), Ok(0.5));
        for bad in ["0", "-1", "nan", "inf", "x", ""] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn measure_counts_bytes() {
        let counter = std::rc::Rc::new(std::cell::Cell::new(0u64));
        let c2 = counter.clone();
        let mut run: Runner = Box::new(move |buf: &mut [u8], reps: u64| {
            for _ in 0..reps {
                buf[0] = buf[0].wrapping_add(1);
            }
            c2.set(c2.get() + reps);
        });
        let bps = measure(&mut run, 64, 0.03);
        assert!(bps > 0.0 && bps.is_finite());
        assert!(counter.get() > u64::from(TRIALS));
    }

    #[test]
    fn cycles_per_byte_format() {
        assert_eq!(fmt_cpb(None), "-");
        assert_eq!(fmt_cpb(Some(0.6281)), "0.628");
        assert_eq!(fmt_cpb(Some(12.345)), "12.35");
        assert_eq!(fmt_cpb(Some(123.45)), "123.5");
    }
}
