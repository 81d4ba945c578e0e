//! `shyfr cpu`: the CPU features found, those enabled after the override, and every
//! algorithm's backends with whether each is available and which one is selected.

use clap::Args;
use serde::Serialize;
use shyfr::cpu::{self, Feature, Features};

use crate::algorithms::why_unavailable;
use crate::table::{Align, Table};
use crate::{CliError, CpuOverride};

/// The help after `shyfr cpu --help`: the JSON report, a stable contract.
pub const JSON_HELP: &str = "\
JSON (--json): one object, a stable contract (keys are only ever added):
  arch       the architecture this build is for, e.g. \"x86_64\"
  detected   the CPU features found, e.g. [\"aes\", \"avx2\", ...]
  enabled    the features shyfr may use after the override
  override   null, or {\"source\": \"--cpu\" or \"SHYFR_CPU\", \"spec\": \"...\"}
  backends   an array with one object per backend of every algorithm, in the order of
             the library's registry (within an algorithm, fastest first):
               algorithm  the algorithm family, e.g. \"aes\", \"ghash\", \"sha256\", \"keccak\"
               backend    the backend's name, e.g. \"x86_vaes\", \"soft\"
               needs      the CPU features it needs (an array of names; empty for soft)
               available  true if it can run here (the CPU has, and the override
                          allows, every feature it needs, and its self-test passed)
               selected   true for the backend keys set up now use (one per algorithm)
Example: shyfr cpu --json | jq -r '.backends[] | select(.available) | \"\\(.algorithm) \\(.backend)\"'";

/// Options of `shyfr cpu`.
#[derive(Args, Debug)]
pub struct CpuArgs {
    /// Print one JSON object instead of the table (its keys are listed below, with
    /// `--help`).
    #[arg(long)]
    json: bool,
}

/// The override part of the JSON report.
#[derive(Serialize, Debug)]
pub struct OverrideJson {
    /// `"--cpu"` or `"SHYFR_CPU"`.
    pub source: &'static str,
    /// The specification as given.
    pub spec: String,
}

/// The CPU part of the JSON reports of `shyfr cpu` and `shyfr speed`.
#[derive(Serialize, Debug)]
pub struct CpuJson {
    /// The architecture this build is for.
    pub arch: &'static str,
    /// The features detected.
    pub detected: Vec<&'static str>,
    /// The features enabled after the override.
    pub enabled: Vec<&'static str>,
    /// The override in effect, or `null`.
    #[serde(rename = "override")]
    pub override_: Option<OverrideJson>,
}

/// One backend in the JSON report of `shyfr cpu`.
#[derive(Serialize, Debug)]
struct BackendJson {
    algorithm: &'static str,
    backend: &'static str,
    needs: Vec<&'static str>,
    available: bool,
    selected: bool,
}

/// The JSON report of `shyfr cpu`.
#[derive(Serialize, Debug)]
struct CpuReportJson {
    #[serde(flatten)]
    cpu: CpuJson,
    backends: Vec<BackendJson>,
}

fn names(f: Features) -> Vec<&'static str> {
    f.iter().map(Feature::name).collect()
}

/// The CPU state now: features detected and enabled, and the override.
pub fn cpu_json(ov: Option<&CpuOverride>) -> CpuJson {
    CpuJson {
        arch: std::env::consts::ARCH,
        detected: names(cpu::detected()),
        enabled: names(cpu::enabled()),
        override_: ov.map(|o| OverrideJson {
            source: o.source,
            spec: o.spec.clone(),
        }),
    }
}

/// A one-line description of the override (`none` when there is none).
pub fn describe_override(ov: Option<&CpuOverride>) -> String {
    match ov {
        None => "none".to_string(),
        Some(o) if o.source == "SHYFR_CPU" => format!("SHYFR_CPU={:?}", o.spec),
        Some(o) => format!("{} {:?}", o.source, o.spec),
    }
}

/// The features `spec` asks to enable (`+NAME` or `NAME`) that the CPU lacks: the
/// override cannot enable them, so they have no effect.
fn unmet_requests(spec: &str) -> Vec<&'static str> {
    let detected = cpu::detected();
    let mut out = Vec::new();
    for item in spec.split(',').map(str::trim) {
        if item.starts_with('-') {
            continue;
        }
        let name = item.strip_prefix('+').unwrap_or(item).trim();
        if let Some(f) = Feature::from_name(name) {
            if !detected.has(f) && !out.contains(&f.name()) {
                out.push(f.name());
            }
        }
    }
    out
}

/// Runs `shyfr cpu`.
pub fn run(args: &CpuArgs, ov: Option<&CpuOverride>) -> Result<String, CliError> {
    if args.json {
        let report = CpuReportJson {
            cpu: cpu_json(ov),
            backends: shyfr::registry::backends()
                .map(|b| BackendJson {
                    algorithm: b.algorithm,
                    backend: b.backend,
                    needs: b.needs.iter().map(|f| f.name()).collect(),
                    available: b.available,
                    selected: b.selected,
                })
                .collect(),
        };
        let mut s = serde_json::to_string_pretty(&report)
            .map_err(|e| CliError::Failure(format!("cannot write JSON: {e}")))?;
        s.push('\n');
        return Ok(s);
    }

    let detected = cpu::detected();
    let enabled = cpu::enabled();
    let absent: Vec<&str> = Feature::this_arch()
        .filter(|f| !detected.has(*f))
        .map(Feature::name)
        .collect();
    let disabled: Vec<&str> = detected
        .iter()
        .filter(|f| !enabled.has(*f))
        .map(Feature::name)
        .collect();
    let list = |v: &[&str]| {
        if v.is_empty() {
            "(none)".to_string()
        } else {
            v.join(" ")
        }
    };

    let mut out = String::new();
    out.push_str(&format!("arch:      {}\n", std::env::consts::ARCH));
    out.push_str(&format!("detected:  {detected}\n"));
    out.push_str(&format!("absent:    {}\n", list(&absent)));
    out.push_str(&format!("override:  {}\n", describe_override(ov)));
    if let Some(o) = ov {
        out.push_str(&format!("disabled:  {}\n", list(&disabled)));
        let unmet = unmet_requests(&o.spec);
        if !unmet.is_empty() {
            out.push_str(&format!(
                "ignored:   {} (requested, but not on this CPU)\n",
                unmet.join(" ")
            ));
        }
    }
    out.push_str(&format!("enabled:   {enabled}\n"));
    out.push('\n');

    let mut t = Table::new([
        ("algorithm", Align::Left),
        ("backend", Align::Left),
        ("needs", Align::Left),
        ("available", Align::Left),
        ("selected", Align::Left),
        ("note", Align::Left),
    ]);
    for b in shyfr::registry::backends() {
        let needs: Vec<&str> = b.needs.iter().map(|f| f.name()).collect();
        t.row(vec![
            b.algorithm.to_string(),
            b.backend.to_string(),
            if needs.is_empty() {
                "-".to_string()
            } else {
                needs.join(" ")
            },
            if b.available { "yes" } else { "no" }.to_string(),
            if b.selected { "*" } else { "" }.to_string(),
            if b.available {
                String::new()
            } else {
                why_unavailable(b.needs)
            },
        ]);
    }
    out.push_str(&t.render());
    out.push_str("\n* = used by keys set up now (the fastest available backend)\n");
    Ok(out)
}
