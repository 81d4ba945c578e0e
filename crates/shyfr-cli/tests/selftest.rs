//! `shyfr selftest`: every known answer passes on every backend this CPU runs, under the
//! override too, and a corrupted expected answer (`--corrupt N`, one at a time for every
//! N) is caught on every backend that runs it, with exit status 1.

use std::process::Command;

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_shyfr");

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn shyfr(args: &[&str], cpu: Option<&str>) -> Run {
    let mut c = Command::new(BIN);
    c.args(args).env_remove("SHYFR_CPU");
    if let Some(spec) = cpu {
        c.env("SHYFR_CPU", spec);
    }
    let o = c.output().expect("run shyfr");
    Run {
        code: o.status.code().expect("exited"),
        stdout: String::from_utf8(o.stdout).expect("UTF-8"),
        stderr: String::from_utf8(o.stderr).expect("UTF-8"),
    }
}

fn report(args: &[&str], cpu: Option<&str>) -> (Run, Value) {
    let r = shyfr(&[&["selftest", "--json"], args].concat(), cpu);
    let v = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout));
    (r, v)
}

fn results(v: &Value) -> &Vec<Value> {
    v["results"].as_array().expect("results")
}

#[test]
fn every_known_answer_passes_on_every_backend_here() {
    let n = shyfr::selftest::count();
    for cpu in [None, Some("portable"), Some("-avx512f")] {
        let (r, v) = report(&[], cpu);
        assert_eq!(r.code, 0, "{cpu:?}: {}", r.stderr);
        assert_eq!(v["failed"], 0, "{cpu:?}");
        // Every known answer on every registry row of its family (or `default`).
        let rows = results(&v);
        assert_eq!(
            rows.len() as u64,
            v["passed"].as_u64().unwrap() + v["not_on_this_cpu"].as_u64().unwrap()
        );
        for i in 0..n {
            let mine: Vec<_> = rows.iter().filter(|x| x["index"] == i).collect();
            assert!(
                mine.iter().any(|x| x["backend"] == "soft"
                    || x["backend"] == "default"
                    || x["backend"] == "generic"),
                "known answer {i}: no portable run ({cpu:?})"
            );
            assert!(mine.iter().any(|x| x["status"] == "passed"), "{i} {cpu:?}");
        }
        // Every backend `shyfr cpu` calls available ran the known answers of its family.
        let cpu_json = shyfr(&["cpu", "--json"], cpu);
        let c: Value = serde_json::from_str(&cpu_json.stdout).unwrap();
        for b in c["backends"].as_array().unwrap() {
            let ran = rows.iter().any(|x| {
                x["algorithm"] == b["algorithm"]
                    && x["backend"] == b["backend"]
                    && x["status"] == "passed"
            });
            assert_eq!(ran, b["available"] == true, "{b} ({cpu:?})");
        }
    }
}

#[test]
fn the_table_says_how_many_ran() {
    let r = shyfr(&["selftest"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains(&format!("{} known answers: ", shyfr::selftest::count())),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains(" 0 failed"), "{}", r.stdout);
}

#[test]
fn every_corrupted_answer_is_caught() {
    for i in 0..shyfr::selftest::count() {
        let (r, v) = report(&["--corrupt", &i.to_string()], None);
        assert_eq!(r.code, 1, "--corrupt {i}: {}", r.stderr);
        assert!(
            r.stderr.contains("known-answer run(s) failed"),
            "{}",
            r.stderr
        );
        let rows = results(&v);
        let failed: Vec<_> = rows.iter().filter(|x| x["status"] == "failed").collect();
        assert!(!failed.is_empty(), "--corrupt {i}");
        assert!(failed.iter().all(|x| x["index"] == i), "--corrupt {i}");
        // Every backend that ran known answer i failed it.
        assert!(
            !rows
                .iter()
                .any(|x| x["index"] == i && x["status"] == "passed"),
            "--corrupt {i}: a backend missed it"
        );
        assert_eq!(v["failed"].as_u64().unwrap() as usize, failed.len());
    }
}

#[test]
fn bad_options_are_usage_errors() {
    let n = shyfr::selftest::count().to_string();
    for args in [
        &["selftest", "--corrupt", &n][..],
        &["selftest", "--corrupt", "-1"],
        &["selftest", "--corrupt", "99999999999999999999999"],
        &["selftest", "--corrupt", "x"],
        &["selftest", "extra"],
        &["selftest", "--nope"],
    ] {
        let r = shyfr(args, None);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}");
        assert!(r.stderr.starts_with("shyfr: "), "{args:?}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{args:?}: {}", r.stderr);
    }
    let help = shyfr(&["--help"], None);
    assert!(
        help.stdout
            .lines()
            .any(|l| l.trim_start().starts_with("selftest")),
        "{}",
        help.stdout
    );
}
