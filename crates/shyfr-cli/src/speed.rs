//! `shyfr speed`: throughput and cycles per byte, in the spirit of `openssl speed`.
//!
//! For each algorithm and buffer size a key is set up once (untimed) and a buffer of that
//! size is processed in place over and over for about `--seconds`, split into `--trials`
//! trials (see [`crate::measure`]); the best trial is reported with the spread of all of
//! them. Cycles per byte is the core clock (see [`crate::clock`], or `--ghz`) divided by the
//! bytes per second; with `--threads N` it counts the cycles of all N cores.
//!
//! `--threads N` measures every cell a second time with N threads at once, each with its own
//! key and buffer (independent streams), and reports the aggregate throughput and the
//! speed-up over one thread. `--parallel N` instead measures one buffer per cell split
//! across N threads by the library's multi-core bulk paths (feature `parallel`: CTR, CBC
//! and CFB decryption from [`shyfr::mode::PARALLEL_MIN_LEN`] bytes on, one-shot GCM from
//! [`shyfr::aead::gcm::PARALLEL_MIN_LEN`]; the ECB rows time the block cipher's own
//! `encrypt_blocks` and the XTS rows one data unit, which are not split),
//! against the same buffer on one thread. Output is a set of tables, `--json` (one object; the first six
//! keys of each `results` entry are a stable contract) or `--csv` (a header row and one line
//! per result); `--plot FILE.svg|.png` also draws throughput against buffer size.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::algorithms::{self, Algorithm, Operation, Prepared};
use crate::cpu_report::{cpu_json, describe_override, CpuJson};
use crate::table::{Align, Table};
use crate::{clock, measure, plot};
use crate::{CliError, CpuOverride};

/// Trials per measurement by default; the best is reported.
pub const DEFAULT_TRIALS: u32 = 3;

/// The most trials accepted.
const MAX_TRIALS: u32 = 1000;

/// The most threads accepted.
const MAX_THREADS: usize = 1024;

/// Seconds per (algorithm, size) by default, so that the default run (3 algorithms x 6
/// sizes) takes about 30 s.
const DEFAULT_SECONDS: f64 = 30.0 / 18.0;

/// Buffer sizes measured by default.
const DEFAULT_SIZES: &[usize] = &[16, 64, 256, 1024, 8192, 16384];

/// The largest buffer accepted (1 GiB).
const MAX_SIZE: usize = 1 << 30;

/// Options of `shyfr speed`.
#[derive(Args, Debug)]
pub struct SpeedArgs {
    /// Algorithms to measure (`--list` shows them all)
    /// [default: aes-128-ecb aes-192-ecb aes-256-ecb]
    #[arg(value_name = "ALG")]
    algorithms: Vec<String>,

    /// List every algorithm with its operations and backends, and exit
    #[arg(long)]
    list: bool,

    /// Buffer sizes in bytes, comma-separated (for ECB, multiples of 16)
    /// [default: 16,64,256,1024,8192,16384]
    #[arg(long, value_name = "LIST", value_parser = parse_sizes, allow_negative_numbers = true)]
    sizes: Option<Sizes>,

    /// Seconds spent on each algorithm and size (and thread count), split into the trials
    /// [default: 1.67, so the default run takes about 30 s]
    #[arg(long, value_name = "S", value_parser = parse_seconds, allow_negative_numbers = true)]
    seconds: Option<f64>,

    /// Trials per cell: the best is reported, with the spread of all of them [default: 3]
    #[arg(long, value_name = "N", value_parser = parse_trials, allow_negative_numbers = true)]
    trials: Option<u32>,

    /// Also run N threads at once, each with its own key and buffer (independent streams),
    /// and show their aggregate throughput and the speed-up over one thread; `all` is one
    /// per available core
    #[arg(long, value_name = "N|all", value_parser = parse_threads, allow_negative_numbers = true)]
    threads: Option<usize>,

    /// Also process each buffer with the library's multi-core bulk path on a pool of N
    /// threads (CTR, CBC/CFB decryption from 1 MiB; GCM from 512 KiB; e.g.
    /// `--sizes 16777216`) and show the speed-up over one thread; `all` is one per core
    #[arg(long, value_name = "N|all", value_parser = parse_threads, allow_negative_numbers = true, conflicts_with = "threads")]
    parallel: Option<usize>,

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
    #[arg(long, conflicts_with = "csv")]
    json: bool,

    /// Print CSV instead of tables: a header row, then one line per result
    #[arg(long)]
    csv: bool,

    /// Also draw throughput against buffer size into FILE (.svg or .png)
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
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

fn parse_trials(s: &str) -> Result<u32, String> {
    match s.trim().parse::<u32>() {
        Ok(n) if (1..=MAX_TRIALS).contains(&n) => Ok(n),
        _ => Err(format!(
            "the number of trials must be a whole number from 1 to {MAX_TRIALS}"
        )),
    }
}

/// The number of threads `all` stands for: the available parallelism (1 if unknown).
fn all_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn parse_threads(s: &str) -> Result<usize, String> {
    let s = s.trim();
    if s.eq_ignore_ascii_case("all") {
        return Ok(all_threads());
    }
    match s.parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "the number of threads must be a whole number from 1 to {MAX_THREADS}, or `all` \
             (one per available core, here {})",
            all_threads()
        )),
    }
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
    /// 1, or the N of `--threads N` (then the throughputs are aggregates).
    threads: usize,
    /// Bytes per second of each trial.
    trials: Vec<f64>,
}

impl Cell {
    /// The best trial, in bytes per second.
    fn best(&self) -> f64 {
        self.trials.iter().copied().fold(0.0, f64::max)
    }

    /// The slowest trial, in bytes per second.
    fn worst(&self) -> f64 {
        self.trials.iter().copied().fold(f64::INFINITY, f64::min)
    }

    /// (best - worst) / best: 0 when all trials agree.
    fn spread(&self) -> f64 {
        let best = self.best();
        if best > 0.0 {
            (best - self.worst()) / best
        } else {
            0.0
        }
    }
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
    /// The best trial (with threads: all threads together).
    bytes_per_second: f64,
    /// Core cycles per byte (with threads: the cycles of all the threads' cores).
    cycles_per_byte: Option<f64>,
    /// Threads that ran at once (1 unless `--threads`).
    threads: usize,
    /// Bytes per second of every trial, in the order they ran.
    trial_bytes_per_second: &'a [f64],
    /// (best - slowest) / best over the trials.
    spread: f64,
    /// On rows with more than one thread: bytes per second over that of one thread.
    #[serde(skip_serializing_if = "Option::is_none")]
    speedup: Option<f64>,
    /// On rows of the chosen backend with `--compare`: its bytes per second divided by the
    /// compared backend's (at the same thread count).
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
    threads: usize,
    /// True with `--parallel`: the rows with `threads` > 1 split one buffer across the
    /// threads; false: they ran that many independent streams.
    parallel: bool,
    cpu: CpuJson,
    results: Vec<JsonResult<'a>>,
}

/// A progress bar on standard error, drawn only when it is a terminal.
fn progress_bar(total: u64) -> ProgressBar {
    let pb = if std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    pb.set_style(
        ProgressStyle::with_template("{bar:30.cyan/blue} {pos}/{len} {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb
}

/// The `--list` output: every algorithm with its operations, sizes and backends.
fn list() -> String {
    let mut t = Table::new([
        ("algorithm", Align::Left),
        ("operations", Align::Left),
        ("sizes", Align::Left),
        (
            "backends (* = chosen by default, - = not available here)",
            Align::Left,
        ),
    ]);
    for a in algorithms::ALGORITHMS {
        let ops: Vec<&str> = a.operations.iter().map(|o| o.name()).collect();
        let backends: Vec<String> = a
            .backends()
            .iter()
            .map(|b| {
                let mark = if b.selected {
                    "*"
                } else if !b.available {
                    "-"
                } else {
                    ""
                };
                format!("{}{mark}", b.backend)
            })
            .collect();
        let sizes = if a.block_len > 1 {
            format!("multiples of {}", a.block_len)
        } else {
            "any".to_string()
        };
        t.row(vec![
            a.name.to_string(),
            ops.join(","),
            sizes,
            backends.join(" "),
        ]);
    }
    let mut out = t.render();
    out.push_str(
        "\n`portable` names each algorithm's backend that needs no CPU feature (for --backend \
         and --compare).\n",
    );
    out
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

/// A spread as a percentage for the tables.
fn fmt_spread(spread: f64) -> String {
    format!("±{:.1}%", spread * 100.0)
}

/// Checks `--plot FILE` before anything is measured: a known extension and a folder that
/// exists.
fn check_plot_path(path: &Path) -> Result<(), CliError> {
    plot::format_of(path).map_err(|e| CliError::Usage(format!("--plot: {e}")))?;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir {
        if !dir.is_dir() {
            return Err(CliError::Usage(format!(
                "--plot: the folder '{}' does not exist",
                dir.display()
            )));
        }
    }
    Ok(())
}

/// Runs `shyfr speed`; returns what to print on standard output.
pub fn run(args: &SpeedArgs, ov: Option<&CpuOverride>) -> Result<String, CliError> {
    if args.list {
        return Ok(list());
    }
    let algs = select_algorithms(&args.algorithms)?;
    let sizes: Vec<usize> = args
        .sizes
        .as_ref()
        .map(|s| s.0.clone())
        .unwrap_or_else(|| DEFAULT_SIZES.to_vec());
    let seconds = args.seconds.unwrap_or(DEFAULT_SECONDS);
    let trials = args.trials.unwrap_or(DEFAULT_TRIALS);
    let split = args.parallel.is_some();
    let threads = args.threads.or(args.parallel).unwrap_or(1);
    if let Some(p) = &args.plot {
        check_plot_path(p)?;
    }
    let mut subjects = prepare(
        &algs,
        &sizes,
        args.decrypt,
        args.backend.as_deref(),
        args.compare.as_deref(),
    )?;

    let thread_counts: &[usize] = if threads > 1 { &[1, threads] } else { &[1] };
    let roles = if args.compare.is_some() { 2 } else { 1 };
    let total = subjects.len() * sizes.len() * roles * thread_counts.len();
    let pb = progress_bar(total as u64);

    let (ghz, ghz_source) = match args.ghz {
        Some(g) => (Some(g), GhzSource::Given),
        None => {
            pb.set_message("estimating the core clock...");
            match clock::estimate_hz() {
                Some(hz) => (Some(hz / 1e9), GhzSource::Estimated),
                None => (None, GhzSource::Unknown),
            }
        }
    };

    let mut cells = Vec::with_capacity(total);
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
                for &n in thread_counts {
                    pb.set_message(format!(
                        "{} {} {} {size} bytes{}",
                        subject.alg.name,
                        subject.op.name(),
                        p.backend,
                        if n > 1 {
                            format!(", {n} threads{}", if split { " (one buffer)" } else { "" })
                        } else {
                            String::new()
                        }
                    ));
                    let measured = if split {
                        measure::split(&mut p.run, size, seconds, trials, n)
                            .map_err(CliError::Runtime)?
                    } else if n == 1 {
                        measure::single(&mut p.run, size, seconds, trials)
                    } else {
                        measure::threaded(
                            subject.alg,
                            subject.op,
                            p.backend,
                            size,
                            seconds,
                            trials,
                            n,
                        )
                        .map_err(CliError::Runtime)?
                    };
                    pb.inc(1);
                    cells.push(Cell {
                        subject: i,
                        role,
                        size,
                        threads: n,
                        trials: measured,
                    });
                }
            }
        }
    }
    pb.finish_and_clear();

    let report = Report {
        subjects: &subjects,
        cells: &cells,
        sizes: &sizes,
        ghz,
        ghz_source,
        seconds,
        trials,
        threads,
        split,
    };
    let mut out = if args.json {
        report.json(ov)?
    } else if args.csv {
        report.csv()
    } else {
        report.text(ov)
    };
    if let Some(path) = &args.plot {
        plot::draw(path, &report.plot_title(), &report.series()).map_err(CliError::Runtime)?;
        if !args.json && !args.csv {
            out.push_str(&format!("\nchart written to {}\n", path.display()));
        }
    }
    Ok(out)
}

/// The measurements, ready to print.
struct Report<'a> {
    subjects: &'a [Subject],
    cells: &'a [Cell],
    sizes: &'a [usize],
    ghz: Option<f64>,
    ghz_source: GhzSource,
    seconds: f64,
    trials: u32,
    /// The N of `--threads N` or `--parallel N` (1 without them).
    threads: usize,
    /// `--parallel`: the N-thread cells split one buffer (not N independent streams).
    split: bool,
}

impl Report<'_> {
    /// Core cycles per byte: the clock of all `threads` cores over the bytes per second.
    fn cpb(&self, bytes_per_second: f64, threads: usize) -> Option<f64> {
        self.ghz
            .map(|g| g * 1e9 * threads as f64 / bytes_per_second)
    }

    fn cell(&self, subject: usize, role: Role, size: usize, threads: usize) -> Option<&Cell> {
        self.cells.iter().find(|c| {
            c.subject == subject && c.role == role && c.size == size && c.threads == threads
        })
    }

    fn find(&self, subject: usize, role: Role, size: usize, threads: usize) -> Option<f64> {
        self.cell(subject, role, size, threads).map(Cell::best)
    }

    fn ratio(&self, subject: usize, size: usize, threads: usize) -> Option<f64> {
        Some(
            self.find(subject, Role::Chosen, size, threads)?
                / self.find(subject, Role::Compared, size, threads)?,
        )
    }

    fn speedup(&self, c: &Cell) -> Option<f64> {
        (c.threads > 1)
            .then(|| self.find(c.subject, c.role, c.size, 1))
            .flatten()
            .map(|one| c.best() / one)
    }

    fn backend(&self, subject: usize, role: Role) -> &str {
        let s = &self.subjects[subject];
        match role {
            Role::Chosen => s.chosen.backend,
            Role::Compared => s.compared.as_ref().map_or("?", |p| p.backend),
        }
    }

    /// The compared backend, on cells of the chosen one when there is one.
    fn compared_to(&self, c: &Cell) -> Option<&str> {
        (c.role == Role::Chosen)
            .then(|| self.subjects[c.subject].compared.as_ref())
            .flatten()
            .map(|p| p.backend)
    }

    fn json(&self, ov: Option<&CpuOverride>) -> Result<String, CliError> {
        let results = self
            .cells
            .iter()
            .map(|c| {
                let compared_to = self.compared_to(c);
                JsonResult {
                    algorithm: self.subjects[c.subject].alg.name,
                    operation: self.subjects[c.subject].op.name(),
                    backend: self.backend(c.subject, c.role),
                    size: c.size,
                    bytes_per_second: c.best(),
                    cycles_per_byte: self.cpb(c.best(), c.threads),
                    threads: c.threads,
                    trial_bytes_per_second: &c.trials,
                    spread: c.spread(),
                    speedup: self.speedup(c),
                    ratio: compared_to.and_then(|_| self.ratio(c.subject, c.size, c.threads)),
                    compared_to,
                }
            })
            .collect();
        let report = JsonReport {
            ghz: self.ghz,
            ghz_source: self.ghz_source,
            seconds: self.seconds,
            trials: self.trials,
            threads: self.threads,
            parallel: self.split,
            cpu: cpu_json(ov),
            results,
        };
        let mut s = serde_json::to_string_pretty(&report)
            .map_err(|e| CliError::Runtime(format!("cannot write JSON: {e}")))?;
        s.push('\n');
        Ok(s)
    }

    /// A header row and one line per result: the six stable keys, then the extras.
    fn csv(&self) -> String {
        fn opt(v: Option<f64>) -> String {
            v.map_or(String::new(), |v| v.to_string())
        }
        let mut out = String::from(
            "algorithm,operation,backend,size,bytes_per_second,cycles_per_byte,threads,\
             trials,min_bytes_per_second,spread,speedup,ratio,compared_to\n",
        );
        for c in self.cells {
            let compared_to = self.compared_to(c);
            let fields = [
                self.subjects[c.subject].alg.name.to_string(),
                self.subjects[c.subject].op.name().to_string(),
                self.backend(c.subject, c.role).to_string(),
                c.size.to_string(),
                c.best().to_string(),
                opt(self.cpb(c.best(), c.threads)),
                c.threads.to_string(),
                c.trials.len().to_string(),
                c.worst().to_string(),
                c.spread().to_string(),
                opt(self.speedup(c)),
                opt(compared_to.and_then(|_| self.ratio(c.subject, c.size, c.threads))),
                compared_to.unwrap_or("").to_string(),
            ];
            out.push_str(&fields.join(","));
            out.push('\n');
        }
        out
    }

    /// The chart's title.
    fn plot_title(&self) -> String {
        let mut t = format!(
            "shyfr speed: throughput by buffer size, best of {}",
            self.trials
        );
        t.push_str(if self.trials == 1 {
            " trial"
        } else {
            " trials"
        });
        if self.threads > 1 && self.split {
            t.push_str(&format!("; x{} threads = one buffer split", self.threads));
        } else if self.threads > 1 {
            t.push_str(&format!("; {} threads = aggregate", self.threads));
        }
        t
    }

    /// One line per algorithm, backend and thread count.
    fn series(&self) -> Vec<plot::Series> {
        let mut series: Vec<plot::Series> = Vec::new();
        let mut keys: Vec<(usize, Role, usize)> = Vec::new();
        let mut groups: Vec<(usize, Role)> = Vec::new();
        for c in self.cells {
            let key = (c.subject, c.role, c.threads);
            let i = match keys.iter().position(|k| *k == key) {
                Some(i) => i,
                None => {
                    let s = &self.subjects[c.subject];
                    let mut label = format!(
                        "{} {} {}",
                        s.alg.name,
                        s.op.name(),
                        self.backend(c.subject, c.role)
                    );
                    if c.threads > 1 {
                        label.push_str(&format!(" x{} threads", c.threads));
                    }
                    let group = groups
                        .iter()
                        .position(|g| *g == (c.subject, c.role))
                        .unwrap_or_else(|| {
                            groups.push((c.subject, c.role));
                            groups.len() - 1
                        });
                    keys.push(key);
                    series.push(plot::Series {
                        label,
                        points: Vec::new(),
                        group,
                        dashed: c.threads > 1,
                    });
                    keys.len() - 1
                }
            };
            series[i].points.push((c.size, c.best()));
        }
        for s in &mut series {
            s.points.sort_by_key(|p| p.0);
        }
        series
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

    /// A throughput cell: the best trial in MB/s and, with several trials, their spread.
    fn mbps_cell(&self, subject: usize, role: Role, size: usize, threads: usize) -> String {
        match self.cell(subject, role, size, threads) {
            None => "-".into(),
            Some(c) if self.trials > 1 => {
                format!("{} {}", fmt_mbps(c.best()), fmt_spread(c.spread()))
            }
            Some(c) => fmt_mbps(c.best()),
        }
    }

    fn text(&self, ov: Option<&CpuOverride>) -> String {
        let trials = self.trials;
        let mut out = String::new();
        out.push_str(&format!(
            "shyfr speed: best of {trials} trial{} of {:.3} s for each size; key set-up not \
             timed\n",
            if trials == 1 { "" } else { "s" },
            self.seconds / f64::from(trials)
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
        if self.threads > 1 && self.split {
            out.push_str(&format!(
                "threads: 1, then one buffer split across {n} by the library's multi-core \
                 path (from {min} bytes, GCM from {gcm}; {avail} cores available)\n",
                n = self.threads,
                min = shyfr::mode::PARALLEL_MIN_LEN,
                gcm = shyfr::aead::gcm::PARALLEL_MIN_LEN,
                avail = all_threads()
            ));
        } else if self.threads > 1 {
            out.push_str(&format!(
                "threads: 1, then {n} at once, each with its own key and buffer (independent \
                 streams; {avail} cores available)\n",
                n = self.threads,
                avail = all_threads()
            ));
        }
        let spread_note = if trials > 1 {
            format!("; ±: spread of the {trials} trials, (best - slowest) / best")
        } else {
            String::new()
        };

        out.push_str(&format!(
            "\nthroughput in MB/s (1 MB = 10^6 bytes), higher is better{spread_note}\n"
        ));
        out.push_str(&self.table(|i, role, size| self.mbps_cell(i, role, size, 1), false));

        match self.ghz {
            Some(g) => out.push_str(&format!(
                "\ncycles per byte at {g:.2} GHz, lower is better\n"
            )),
            None => out.push_str("\ncycles per byte (core clock unknown)\n"),
        }
        out.push_str(&self.table(
            |i, role, size| fmt_cpb(self.find(i, role, size, 1).and_then(|b| self.cpb(b, 1))),
            false,
        ));

        let n = self.threads;
        if n > 1 {
            let together = if self.split {
                "one buffer split"
            } else {
                "all streams together"
            };
            out.push_str(&format!(
                "\nthroughput with {n} threads in MB/s, {together}{spread_note}\n"
            ));
            out.push_str(&self.table(|i, role, size| self.mbps_cell(i, role, size, n), false));
            out.push_str(&format!(
                "\nspeed-up with {n} threads over one thread (ideal: {n}.00x)\n"
            ));
            out.push_str(&self.table(
                |i, role, size| {
                    self.cell(i, role, size, n)
                        .and_then(|c| self.speedup(c))
                        .map_or("-".into(), |s| format!("{s:.2}x"))
                },
                false,
            ));
        }

        if self.subjects.iter().any(|s| s.compared.is_some()) {
            for t in if n > 1 { vec![1, n] } else { vec![1] } {
                let with = if t > 1 {
                    format!(", {t} threads")
                } else {
                    String::new()
                };
                out.push_str(&format!(
                    "\nratio of throughputs, chosen / compared backend{with}\n"
                ));
                out.push_str(&self.table(
                    |i, _, size| {
                        self.ratio(i, size, t)
                            .map_or("-".into(), |r| format!("{r:.2}x"))
                    },
                    true,
                ));
            }
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
    fn trials_and_threads_parse() {
        assert_eq!(parse_trials("5"), Ok(5));
        for bad in ["0", "-1", "1.5", "x", "", "1001"] {
            assert!(parse_trials(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_threads("4"), Ok(4));
        assert_eq!(parse_threads("ALL"), Ok(all_threads()));
        for bad in ["0", "-2", "2.5", "many", "", "1025"] {
            assert!(parse_threads(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn spread_of_trials() {
        let c = Cell {
            subject: 0,
            role: Role::Chosen,
            size: 16,
            threads: 1,
            trials: vec![90.0, 100.0, 95.0],
        };
        assert_eq!(c.best(), 100.0);
        assert_eq!(c.worst(), 90.0);
        assert!((c.spread() - 0.1).abs() < 1e-12);
        assert_eq!(fmt_spread(c.spread()), "±10.0%");
    }

    #[test]
    fn list_names_every_algorithm() {
        let l = list();
        for a in algorithms::ALGORITHMS {
            assert!(l.lines().any(|line| line.starts_with(a.name)), "{}", a.name);
        }
    }

    #[test]
    fn cycles_per_byte_format() {
        assert_eq!(fmt_cpb(None), "-");
        assert_eq!(fmt_cpb(Some(0.6281)), "0.628");
        assert_eq!(fmt_cpb(Some(12.345)), "12.35");
        assert_eq!(fmt_cpb(Some(123.45)), "123.5");
    }
}
