//! `shyfr speed`: throughput and cycles per byte, in the spirit of `openssl speed`.
//!
//! For each algorithm and buffer size a key is set up once (untimed) and a buffer of that
//! size is processed in place over and over for about `--seconds`, split into `--trials`
//! trials (see [`measure`]); the best trial is reported with the spread of all of
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
//! //! against the same buffer on one thread. Output is a set of tables, `--json` (one object; the first six
//! keys of each `results` entry are a stable contract) or `--csv` (a header row and one line
//! per result, the same columns as the JSON entries); `--plot FILE.svg|.png` also draws
//! throughput against buffer size.
//!
//! The RSA rows (`rsa2048` ...) are timed per operation instead, like `openssl speed
//! rsa2048`: signatures and verifications per second and milliseconds per operation, with
//! keys made once per run, not timed; `--keygen` times key generation over `--keys N` keys
//! ([`pk`]). They take `--seconds`, `--trials`, `--backend`, `--compare`, `--ghz` and
//! `--json` (the `signatures` and `keygen` arrays), not the options about buffers.
//!
//! Files: this module holds the options, their checks and the order of the measurements;
//! [`measure`] the timing loops, [`setup`] how each algorithm is run, [`results`] the
//! tables, JSON, CSV and chart series, [`plot`] the chart; the clock estimate is
//! [`crate::clock`] (also used by the peers benchmark in `bench/`).

use std::path::{Path, PathBuf};

use clap::Args;

use crate::algorithms::{self, Algorithm};
use crate::output::Output;
use crate::report::{self, CliError};
use crate::table::{Align, Table};
use crate::{clock, CpuOverride};
use results::{Cell, GhzSource, Report, Role, Subject};
use setup::{Operation, Prepared};

mod measure;
mod pk;
pub mod plot;
mod results;
pub mod setup;

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

/// The most buffer memory a run may ask for: size times threads (4 GiB).
const MAX_TOTAL: u64 = 4 << 30;

/// The shortest time per trial accepted (1 ms): below it a trial is a few calls and the
/// clock's own resolution dominates.
const MIN_TRIAL_SECONDS: f64 = 0.001;

/// The longest time per cell accepted (one day).
const MAX_SECONDS: f64 = 86_400.0;

/// Keys made per algorithm with `--keygen` by default.
const DEFAULT_KEYS: u32 = 10;

/// The most keys accepted with `--keys`.
const MAX_KEYS: u32 = 1000;

/// The clock frequencies accepted with `--ghz`.
const GHZ_RANGE: std::ops::RangeInclusive<f64> = 0.01..=100.0;

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

    /// Buffer sizes in bytes, comma-separated, each checked against each algorithm's rules
    /// (`--list` shows them; e.g. AES-ECB takes multiples of 16) [default:
    /// 16,64,256,1024,8192,16384, those each algorithm takes]
    #[arg(long, value_name = "LIST", value_parser = parse_sizes, allow_negative_numbers = true)]
    sizes: Option<Sizes>,

    /// Seconds spent on each algorithm and size (and thread count), split into the trials,
    /// 0.001 to 86400, at least 0.001 per trial [default: 1.67, so the default run takes
    /// about 30 s]
    #[arg(long, value_name = "S", value_parser = parse_seconds, allow_negative_numbers = true)]
    seconds: Option<f64>,

    /// Trials per cell: the best is reported, with the spread of all of them [default: 3]
    #[arg(long, value_name = "N", value_parser = parse_trials, allow_negative_numbers = true)]
    trials: Option<u32>,

    /// Also run N threads at once (1 to 1024), each with its own key and buffer (independent
    /// streams), all timed on one clock, and show their aggregate throughput and the
    /// speed-up over one thread; `all` is one per available core (more than that warns)
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

    /// Time RSA key generation (rsaBITS rows) instead of signing and verifying: --keys keys
    /// of each size, with their mean and spread [default algorithm: rsa2048]
    #[arg(long)]
    keygen: bool,

    /// Keys made per algorithm with --keygen, 1 to 1000 [default: 10]
    #[arg(long, value_name = "N", requires = "keygen", value_parser = parse_keys, allow_negative_numbers = true)]
    keys: Option<u32>,
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

/// A number in `range`, or a message naming `what` and the range.
fn parse_in(s: &str, what: &str, range: std::ops::RangeInclusive<f64>) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(format!(
            "{what} must be a number from {} to {}",
            range.start(),
            range.end()
        )),
    }
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    parse_in(s, "the time in seconds", MIN_TRIAL_SECONDS..=MAX_SECONDS)
}

fn parse_ghz(s: &str) -> Result<f64, String> {
    parse_in(s, "the clock in GHz", GHZ_RANGE)
}

fn parse_trials(s: &str) -> Result<u32, String> {
    match s.trim().parse::<u32>() {
        Ok(n) if (1..=MAX_TRIALS).contains(&n) => Ok(n),
        _ => Err(format!(
            "the number of trials must be a whole number from 1 to {MAX_TRIALS}"
        )),
    }
}

fn parse_keys(s: &str) -> Result<u32, String> {
    match s.trim().parse::<u32>() {
        Ok(n) if (1..=MAX_KEYS).contains(&n) => Ok(n),
        _ => Err(format!(
            "the number of keys must be a whole number from 1 to {MAX_KEYS}"
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
        let sizes = if algorithms::is_rsa(a) {
            "-".to_string()
        } else {
            a.sizes.describe()
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
         and --compare).\n\
         sizes are of the buffer processed per call; for hkdf-sha256 it is the input key \
         material (32 bytes are derived from it), for pbkdf2-sha256 the length of the derived \
         key (one iteration).\n\
         Without --sizes each algorithm is measured at the default sizes it takes.\n\
         kalyna-B-K-MODE is Kalyna (DSTU 7624:2014) with B-bit blocks and K-bit keys; \
         cfb uses full-block segments, cmac, gmac, gcm and ccm whole-block tags. The \
         GOST 28147-89 and GOST 34.311-95 rows use the S-box DKE No. 1.\n\
         rsaN is RSA with an N-bit modulus, timed per operation (sign/s, verify/s: \
         PKCS#1 v1.5 over a SHA-256 digest, one key made per run, not timed); with \
         --keygen, key generation (mean and spread over --keys keys).\n",
    );
    out
}

/// The algorithms named on the command line (the default set if none, that of `--keygen`
/// with it), without repeats.
fn select_algorithms(names: &[String], keygen: bool) -> Result<Vec<&'static Algorithm>, CliError> {
    let mut algs: Vec<&'static Algorithm> = Vec::new();
    let requested: Vec<&str> = if names.is_empty() && keygen {
        algorithms::DEFAULT_KEYGEN.to_vec()
    } else if names.is_empty() {
        algorithms::DEFAULT_SPEED.to_vec()
    } else {
        names.iter().map(String::as_str).collect()
    };
    for name in requested {
        let alg = algorithms::find(name).ok_or_else(|| {
            CliError::Usage(format!(
                "unknown algorithm '{name}' (`shyfr speed --list` names them all)"
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
    decrypt: bool,
    backend: Option<&str>,
    compare: Option<&str>,
) -> Result<Vec<Subject>, CliError> {
    // Every check first, so no key is set up for a command line that is refused.
    let mut plan = Vec::new();
    for &alg in algs {
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
        let mut chosen = alg.prepare(chosen, op).map_err(CliError::Failure)?;
        let mut compared = compared
            .map(|b| alg.prepare(Some(b), op))
            .transpose()
            .map_err(CliError::Failure)?;
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
    let len =
        (alg.sizes.min.max(alg.sizes.multiple * 37) / alg.sizes.multiple) * alg.sizes.multiple;
    let input: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
    let (mut x, mut y) = (input.clone(), input);
    (a.run)(&mut x, 2);
    (b.run)(&mut y, 2);
    if x == y {
        Ok(())
    } else {
        Err(CliError::Failure(format!(
            "{}: backends {} and {} give different results; not comparing",
            alg.name, a.backend, b.backend
        )))
    }
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
                report::shown(dir.as_os_str())
            )));
        }
    }
    if path.is_dir() {
        return Err(CliError::Usage(format!(
            "--plot: '{}' is a folder",
            report::shown(path.as_os_str())
        )));
    }
    Ok(())
}

/// A checked command line: everything `run` needs, nothing measured yet.
struct Plan {
    /// The algorithms measured over buffers.
    algs: Vec<&'static Algorithm>,
    /// The RSA rows, measured per operation (or their key generation).
    pk: Vec<&'static Algorithm>,
    sizes: Vec<usize>,
    seconds: f64,
    trials: u32,
    /// 1, or the N of `--threads N` / `--parallel N`.
    threads: usize,
    /// `--parallel`: the N-thread cells split one buffer.
    split: bool,
}

/// Checks the options that clap cannot check alone (the algorithms, sizes against each
/// algorithm's rules, the time per trial, the memory for N threads, `--plot`); usage
/// errors for anything wrong. Nothing is set up or measured.
fn plan(args: &SpeedArgs) -> Result<Plan, CliError> {
    let (pk, algs): (Vec<&'static Algorithm>, Vec<&'static Algorithm>) =
        select_algorithms(&args.algorithms, args.keygen)?
            .into_iter()
            .partition(|a| algorithms::is_rsa(a));
    if args.keygen {
        if let Some(a) = algs.first() {
            return Err(CliError::Usage(format!(
                "--keygen times RSA key generation; {} is not an RSA row (rsa512 ... \
                 rsa16384; `shyfr speed --list`)",
                a.name
            )));
        }
    }
    if let Some(a) = pk.first() {
        let buffer_options = [
            ("--sizes", args.sizes.is_some()),
            ("--threads", args.threads.is_some()),
            ("--parallel", args.parallel.is_some()),
            ("--decrypt", args.decrypt),
            ("--csv", args.csv),
            ("--plot", args.plot.is_some()),
        ];
        if let Some((flag, _)) = buffer_options.iter().find(|(_, given)| *given) {
            return Err(CliError::Usage(format!(
                "{flag} does not apply to {}: the RSA rows are timed per operation (sign/s, \
                 verify/s); measure them in a run of their own",
                a.name
            )));
        }
    }
    // Sizes given are checked against every algorithm; of the default ones, each algorithm
    // measures those it takes (e.g. Kalyna-512 ECB from 64 bytes on), the others show "-".
    let sizes: Vec<usize> = match &args.sizes {
        Some(s) => {
            for alg in &algs {
                for &size in &s.0 {
                    alg.sizes
                        .check(size, alg.name)
                        .map_err(|e| CliError::Usage(format!("--sizes: {e}")))?;
                }
            }
            s.0.clone()
        }
        None if algs.is_empty() => Vec::new(),
        None => {
            for alg in &algs {
                if !DEFAULT_SIZES
                    .iter()
                    .any(|&n| alg.sizes.check(n, alg.name).is_ok())
                {
                    return Err(CliError::Usage(format!(
                        "{} takes none of the default sizes ({}); give --sizes",
                        alg.name,
                        alg.sizes.describe()
                    )));
                }
            }
            DEFAULT_SIZES
                .iter()
                .copied()
                .filter(|&n| algs.iter().any(|a| a.sizes.check(n, a.name).is_ok()))
                .collect()
        }
    };
    let seconds = args.seconds.unwrap_or(DEFAULT_SECONDS);
    let trials = args.trials.unwrap_or(DEFAULT_TRIALS);
    if seconds / f64::from(trials) < MIN_TRIAL_SECONDS {
        return Err(CliError::Usage(format!(
            "--seconds {seconds} split into {trials} trials leaves {:.6} s per trial; each \
             trial needs at least {MIN_TRIAL_SECONDS} s (give more --seconds or fewer --trials)",
            seconds / f64::from(trials)
        )));
    }
    let split = args.parallel.is_some();
    let threads = args.threads.or(args.parallel).unwrap_or(1);
    let streams = if split { 1 } else { threads };
    if let Some(&largest) = sizes.iter().max() {
        let total = largest as u64 * streams as u64;
        if total > MAX_TOTAL {
            return Err(CliError::Usage(format!(
                "--sizes {largest} with {streams} threads needs {total} bytes of buffers; the \
                 limit is {MAX_TOTAL}"
            )));
        }
    }
    if let Some(p) = &args.plot {
        check_plot_path(p)?;
    }
    Ok(Plan {
        algs,
        pk,
        sizes,
        seconds,
        trials,
        threads,
        split,
    })
}

/// Checks `shyfr speed`'s command line without measuring (for the parser's property test).
#[cfg(test)]
pub fn check(args: &SpeedArgs) -> Result<(), CliError> {
    if args.list {
        return Ok(());
    }
    plan(args).map(drop)
}

/// Runs `shyfr speed`; returns what to print on standard output.
pub fn run(args: &SpeedArgs, ov: Option<&CpuOverride>) -> Result<String, CliError> {
    if args.list {
        return Ok(list());
    }
    let Plan {
        algs,
        pk: pk_algs,
        sizes,
        seconds,
        trials,
        threads,
        split,
    } = plan(args)?;
    // Every backend name is checked before anything is set up.
    for alg in &pk_algs {
        for (flag, b) in [("--backend", &args.backend), ("--compare", &args.compare)] {
            if let Some(b) = b {
                alg.resolve_backend(b)
                    .map_err(|e| CliError::Usage(format!("{flag}: {e}")))?;
            }
        }
    }
    let resolved = |b: &Option<String>, alg: &Algorithm| -> Option<&'static str> {
        b.as_deref().and_then(|b| alg.resolve_backend(b).ok())
    };
    let mut subjects = prepare(
        &algs,
        args.decrypt,
        args.backend.as_deref(),
        args.compare.as_deref(),
    )?;
    let cores = all_threads();
    if threads > cores {
        report::warn(&format!(
            "{threads} threads on {cores} available core{}: the threads take turns, so the \
             {threads}-thread figures show the cores' total, not {threads} times one thread",
            if cores == 1 { "" } else { "s" }
        ));
    }

    let thread_counts: &[usize] = if threads > 1 { &[1, threads] } else { &[1] };
    let roles = if args.compare.is_some() { 2 } else { 1 };
    let takes = |alg: &Algorithm, size: usize| alg.sizes.check(size, alg.name).is_ok();
    let cells_per_size: usize = subjects
        .iter()
        .map(|s| sizes.iter().filter(|&&n| takes(s.alg, n)).count())
        .sum();
    let total = cells_per_size * roles * thread_counts.len();
    let pb = crate::progress::bar(total as u64, crate::progress::Unit::Steps);
    let keys = args.keys.unwrap_or(DEFAULT_KEYS);
    let pk_chosen = pk_algs.first().and_then(|a| resolved(&args.backend, a));
    let pk_compared = pk_algs.first().and_then(|a| resolved(&args.compare, a));
    let mut pk_report = pk::PkReport::default();
    if args.keygen {
        pb.inc_length(pk_algs.len() as u64 * u64::from(keys) * roles as u64);
    } else {
        pk_report.subjects = pk::prepare(&pk_algs, pk_chosen, pk_compared, &pb)?;
        pb.inc_length(pk::cell_count(&pk_report.subjects) as u64);
    }

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
        for &size in sizes.iter().filter(|&&n| takes(subject.alg, n)) {
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
                            .map_err(CliError::Failure)?
                    } else if n == 1 {
                        measure::single(&mut p.run, size, seconds, trials)
                            .map_err(CliError::Failure)?
                    } else {
                        let batch = measure::calibrate_for(&mut p.run, size, seconds, trials)
                            .map_err(CliError::Failure)?;
                        measure::threaded(
                            subject.alg,
                            subject.op,
                            p.backend,
                            size,
                            seconds,
                            trials,
                            n,
                            batch,
                        )
                        .map_err(CliError::Failure)?
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
    if args.keygen {
        pk_report.keygen = pk::keygen(&pk_algs, pk_chosen, pk_compared, keys, &pb)?;
    } else {
        pk_report.cells = pk::measure_all(&pk_report.subjects, seconds, trials, &pb)?;
    }
    pb.finish_and_clear();

    let report = Report {
        pk: &pk_report,
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
        let suffix = path
            .extension()
            .map(|e| format!(".{}", e.to_string_lossy()))
            .unwrap_or_default();
        let chart = Output::create(Some(path), &suffix)?;
        let tmp = chart.path().unwrap_or(path).to_path_buf();
        plot::draw(&tmp, &report.plot_title(), &report.series()).map_err(|e| {
            CliError::Failure(format!(
                "cannot write the chart to '{}': {e}",
                report::shown(path.as_os_str())
            ))
        })?;
        chart.commit()?;
        if !args.json && !args.csv {
            out.push_str(&format!("\nchart written to {}\n", path.display()));
        }
    }
    Ok(out)
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
        assert_eq!(parse_seconds("0.001"), Ok(0.001));
        for bad in [
            "0", "-1", "nan", "inf", "x", "", "1e-9", "0.0009", "1e300", "86401",
        ] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_ghz("3.5"), Ok(3.5));
        for bad in ["0", "1e308", "nan", "-3"] {
            assert!(parse_ghz(bad).is_err(), "{bad}");
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
    fn list_names_every_algorithm() {
        let l = list();
        for a in algorithms::ALGORITHMS {
            assert!(l.lines().any(|line| line.starts_with(a.name)), "{}", a.name);
        }
    }
}
