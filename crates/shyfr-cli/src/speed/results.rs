//! What `shyfr speed` prints: the tables, the JSON object, the CSV lines and the chart's
//! series, from the measured cells. The JSON `results` entries and the CSV lines have the
//! same columns in the same order ([`COLUMNS`]); the first six are a stable contract.

use serde::Serialize;

use super::pk::{JsonKeygen, JsonSignature, PkReport};
use super::setup::{Operation, Prepared};
use super::{all_threads, plot};
use crate::algorithms::Algorithm;
use crate::cpu_report::{cpu_json, describe_override, CpuJson};
use crate::report::CliError;
use crate::table::{Align, Table};
use crate::CpuOverride;

/// The columns of a result, in order: the keys of each JSON `results` entry and the CSV
/// header. In CSV, `trial_bytes_per_second` is the trials separated by `;`, and a column
/// without a value (`null` in JSON) is empty.
pub const COLUMNS: [&str; 14] = [
    "algorithm",
    "operation",
    "backend",
    "size",
    "bytes_per_second",
    "cycles_per_byte",
    "threads",
    "trials",
    "min_bytes_per_second",
    "spread",
    "speedup",
    "ratio",
    "compared_to",
    "trial_bytes_per_second",
];

/// Whether a row is the backend under test or the one it is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    Chosen,
    Compared,
}

/// One algorithm with its keys set up.
pub(super) struct Subject {
    pub alg: &'static Algorithm,
    /// What is measured: decryption with `--decrypt`, else the row's own operation.
    pub op: Operation,
    pub chosen: Prepared,
    pub compared: Option<Prepared>,
}

/// One measured cell.
pub(super) struct Cell {
    pub subject: usize,
    pub role: Role,
    pub size: usize,
    /// 1, or the N of `--threads N` (then the throughputs are aggregates).
    pub threads: usize,
    /// Bytes per second of each trial.
    pub trials: Vec<f64>,
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
pub(super) enum GhzSource {
    /// `--ghz`.
    Given,
    /// [`crate::clock::estimate_hz`].
    Estimated,
    /// Neither: no cycles per byte.
    Unknown,
}

/// One entry of `results` in the JSON output: the [`COLUMNS`], in that order, every key
/// always present (`null` where a column has no value). The first six are a stable
/// contract.
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
    /// Threads that ran at once (1 unless `--threads` or `--parallel`).
    threads: usize,
    /// The number of trials.
    trials: usize,
    /// The slowest trial.
    min_bytes_per_second: f64,
    /// (best - slowest) / best over the trials.
    spread: f64,
    /// On rows with more than one thread: bytes per second over that of one thread.
    speedup: Option<f64>,
    /// On rows of the chosen backend with `--compare`: its bytes per second divided by the
    /// compared backend's (at the same thread count).
    ratio: Option<f64>,
    /// On rows of the chosen backend with `--compare`: the compared backend.
    compared_to: Option<&'a str>,
    /// Bytes per second of every trial, in the order they ran.
    trial_bytes_per_second: &'a [f64],
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
    /// The RSA rows: one entry per operation (sign, verify) and backend.
    signatures: Vec<JsonSignature<'a>>,
    /// `--keygen`: one entry per RSA row and backend.
    keygen: Vec<JsonKeygen<'a>>,
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

/// The measurements, ready to print.
pub(super) struct Report<'a> {
    /// The RSA rows (timed per operation).
    pub pk: &'a PkReport,
    pub subjects: &'a [Subject],
    pub cells: &'a [Cell],
    pub sizes: &'a [usize],
    pub ghz: Option<f64>,
    pub ghz_source: GhzSource,
    pub seconds: f64,
    pub trials: u32,
    /// The N of `--threads N` or `--parallel N` (1 without them).
    pub threads: usize,
    /// `--parallel`: the N-thread cells split one buffer (not N independent streams).
    pub split: bool,
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

    pub fn json(&self, ov: Option<&CpuOverride>) -> Result<String, CliError> {
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
                    trials: c.trials.len(),
                    min_bytes_per_second: c.worst(),
                    spread: c.spread(),
                    speedup: self.speedup(c),
                    ratio: compared_to.and_then(|_| self.ratio(c.subject, c.size, c.threads)),
                    compared_to,
                    trial_bytes_per_second: &c.trials,
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
            signatures: self.pk.json_signatures(self.ghz),
            keygen: self.pk.json_keygen(),
        };
        let mut s = serde_json::to_string_pretty(&report)
            .map_err(|e| CliError::Failure(format!("cannot write JSON: {e}")))?;
        s.push('\n');
        Ok(s)
    }

    /// A header row ([`COLUMNS`]) and one line per result, the same values as the JSON.
    pub fn csv(&self) -> String {
        fn opt(v: Option<f64>) -> String {
            v.map_or(String::new(), |v| v.to_string())
        }
        let mut out = COLUMNS.join(",");
        out.push('\n');
        for c in self.cells {
            let compared_to = self.compared_to(c);
            let trials: Vec<String> = c.trials.iter().map(f64::to_string).collect();
            let fields: [String; COLUMNS.len()] = [
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
                trials.join(";"),
            ];
            out.push_str(&fields.join(","));
            out.push('\n');
        }
        out
    }

    /// The chart's title.
    pub fn plot_title(&self) -> String {
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
    pub fn series(&self) -> Vec<plot::Series> {
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

    pub fn text(&self, ov: Option<&CpuOverride>) -> String {
        let trials = self.trials;
        let mut out = String::new();
        if self.subjects.is_empty() {
            out.push_str("shyfr speed: RSA, timed per operation\n");
        } else {
            out.push_str(&format!(
                "shyfr speed: best of {trials} trial{} of {:.3} s for each size; key set-up \
                 not timed\n",
                if trials == 1 { "" } else { "s" },
                self.seconds / f64::from(trials)
            ));
        }
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
        if self.subjects.is_empty() {
            out.push_str(&self.pk.text(self.ghz, trials, self.seconds));
            return out;
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
                "\nspeed-up with {n} threads over one thread (ideal: {ideal}.00x{on})\n",
                ideal = n.min(all_threads()),
                on = if n > all_threads() {
                    format!(", {n} threads on {} cores", all_threads())
                } else {
                    String::new()
                }
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
        out.push_str(&self.pk.text(self.ghz, trials, self.seconds));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn cycles_per_byte_format() {
        assert_eq!(fmt_cpb(None), "-");
        assert_eq!(fmt_cpb(Some(0.6281)), "0.628");
        assert_eq!(fmt_cpb(Some(12.345)), "12.35");
        assert_eq!(fmt_cpb(Some(123.45)), "123.5");
    }
}
