//! `shyfr selftest`: every known answer of [`shyfr::selftest`] on every backend of its
//! algorithm that this CPU can run (after `--cpu` / `SHYFR_CPU`); exit status 1 if any
//! backend computed a wrong answer.

use clap::Args;
use serde::Serialize;
use shyfr::selftest::{Outcome, Status};

use crate::table::{Align, Table};
use crate::CliError;

/// Options of `shyfr selftest`.
#[derive(Args, Debug)]
pub struct SelftestArgs {
    /// Print one JSON object instead of the table: `{"passed": N, "failed": N,
    /// "not_on_this_cpu": N, "results": [{"index", "test", "algorithm", "backend",
    /// "status"}]}`, `status` being "passed", "failed" or "not on this CPU".
    #[arg(long)]
    json: bool,

    /// Corrupt the expected answer of known answer N (one bit), to see the check fail
    /// (for testing the self-test itself).
    #[arg(long, value_name = "N", hide = true)]
    corrupt: Option<usize>,
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Passed => "passed",
        Status::Failed => "failed",
        Status::NotOnThisCpu => "not on this CPU",
    }
}

#[derive(Serialize)]
struct ResultJson {
    index: usize,
    test: &'static str,
    algorithm: &'static str,
    backend: &'static str,
    status: &'static str,
}

#[derive(Serialize)]
struct ReportJson {
    passed: usize,
    failed: usize,
    not_on_this_cpu: usize,
    results: Vec<ResultJson>,
}

/// Checks the options without running anything.
pub fn check(args: &SelftestArgs) -> Result<(), CliError> {
    match args.corrupt {
        Some(n) if n >= shyfr::selftest::count() => Err(CliError::Usage(format!(
            "--corrupt {n}: there are {} known answers (0 to {})",
            shyfr::selftest::count(),
            shyfr::selftest::count() - 1
        ))),
        _ => Ok(()),
    }
}

/// Runs `shyfr selftest`.
pub fn run(args: &SelftestArgs) -> Result<(), CliError> {
    check(args)?;
    let mut outcomes: Vec<Outcome> = Vec::new();
    match args.corrupt {
        Some(n) => shyfr::selftest::run_each_corrupting(n, |o| outcomes.push(o)),
        None => shyfr::selftest::run_each(|o| outcomes.push(o)),
    }
    let count = |s: Status| outcomes.iter().filter(|o| o.status == s).count();
    let (passed, failed, absent) = (
        count(Status::Passed),
        count(Status::Failed),
        count(Status::NotOnThisCpu),
    );
    let text = if args.json {
        let report = ReportJson {
            passed,
            failed,
            not_on_this_cpu: absent,
            results: outcomes
                .iter()
                .map(|o| ResultJson {
                    index: o.index,
                    test: o.test,
                    algorithm: o.family,
                    backend: o.backend,
                    status: status_name(o.status),
                })
                .collect(),
        };
        let mut s = serde_json::to_string_pretty(&report)
            .map_err(|e| CliError::Failure(format!("cannot write JSON: {e}")))?;
        s.push('\n');
        s
    } else {
        let mut t = Table::new([
            ("#", Align::Right),
            ("test", Align::Left),
            ("algorithm", Align::Left),
            ("backend", Align::Left),
            ("result", Align::Left),
        ]);
        for o in &outcomes {
            t.row(vec![
                o.index.to_string(),
                o.test.to_string(),
                o.family.to_string(),
                o.backend.to_string(),
                status_name(o.status).to_string(),
            ]);
        }
        format!(
            "{}\n{} known answers: {passed} runs passed, {failed} failed, {absent} not on \
             this CPU\n",
            t.render(),
            shyfr::selftest::count()
        )
    };
    crate::stdio::emit(&text)?;
    if failed > 0 {
        let names: Vec<String> = outcomes
            .iter()
            .filter(|o| o.status == Status::Failed)
            .map(|o| format!("{} on {}", o.test, o.backend))
            .collect();
        return Err(CliError::Failure(format!(
            "{failed} known-answer run(s) failed: {}",
            names.join("; ")
        )));
    }
    Ok(())
}
