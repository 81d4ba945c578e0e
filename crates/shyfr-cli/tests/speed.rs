//! Tests of `shyfr speed`'s outputs and options: JSON schema, CSV, charts, threads, trials,
//! `--list`, and the usage errors. Every measurement is short (`--seconds 0.02`).

mod common;

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_shyfr");

/// Runs `shyfr ARGS` (without `SHYFR_CPU`): exit status, stdout, stderr.
fn shyfr(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .env_remove("SHYFR_CPU")
        .output()
        .expect("run shyfr");
    (
        out.status.code().expect("exited normally"),
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
    )
}

/// Runs and expects success; stdout.
fn ok(args: &[&str]) -> String {
    let (code, out, err) = shyfr(args);
    assert_eq!(code, 0, "{args:?}\nstdout:\n{out}\nstderr:\n{err}");
    out
}

/// Runs and expects exit status 2, nothing on stdout, and each of `mentions` on stderr.
fn usage_error(args: &[&str], mentions: &[&str]) {
    let (code, out, err) = shyfr(args);
    assert_eq!(code, 2, "{args:?}\nstdout:\n{out}\nstderr:\n{err}");
    assert!(out.is_empty(), "{args:?}: {out}");
    for m in mentions {
        assert!(err.contains(m), "{args:?}: {m:?} not in:\n{err}");
    }
    assert_eq!(err.lines().count(), 1, "{args:?}: not one line:\n{err}");
    assert!(err.starts_with("shyfr: speed: "), "{args:?}: {err}");
}

/// A fresh path in the temporary folder for this test.
fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shyfr-speed-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// Checks one result's six keys and their exact types, and the extras.
fn check_result(r: &Value, ghz_known: bool) {
    let o = r.as_object().expect("an object");
    for k in common::RESULT_KEYS {
        assert!(o.contains_key(k), "{k} missing in {r}");
    }
    assert!(
        r["algorithm"].is_string() && r["operation"].is_string(),
        "{r}"
    );
    assert!(r["backend"].is_string(), "{r}");
    assert!(r["size"].is_u64(), "{r}");
    assert!(r["bytes_per_second"].is_f64(), "{r}");
    assert!(r["bytes_per_second"].as_f64().unwrap() > 0.0, "{r}");
    if ghz_known {
        assert!(r["cycles_per_byte"].as_f64().unwrap() > 0.0, "{r}");
    } else {
        assert!(r["cycles_per_byte"].is_null(), "{r}");
    }
    // The extras.
    assert!(r["threads"].as_u64().unwrap() >= 1, "{r}");
    let trials = r["trial_bytes_per_second"].as_array().unwrap();
    let best = trials
        .iter()
        .map(|t| t.as_f64().unwrap())
        .fold(0.0, f64::max);
    assert_eq!(best, r["bytes_per_second"].as_f64().unwrap(), "{r}");
    let spread = r["spread"].as_f64().unwrap();
    assert!((0.0..1.0).contains(&spread), "{r}");
}

#[test]
fn json_schema_with_trials() {
    let out = ok(&[
        "speed",
        "--json",
        "--seconds",
        "0.02",
        "--trials",
        "4",
        "--ghz",
        "3",
        "--sizes",
        "16,48",
        "aes-128-gcm",
        "sha256",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["trials"], 4);
    assert_eq!(v["threads"], 1);
    let rs = v["results"].as_array().unwrap();
    assert_eq!(rs.len(), 4);
    for r in rs {
        check_result(r, true);
        assert_eq!(r["trial_bytes_per_second"].as_array().unwrap().len(), 4);
        assert_eq!(r["threads"], 1);
        assert!(r["speedup"].is_null());
    }
}

#[test]
fn csv_and_json_have_the_same_columns() {
    // The README says CSV and JSON hold the same: the same columns, in the same order,
    // and the same values.
    let args = |fmt: &'static str| {
        vec![
            "speed",
            fmt,
            "--seconds",
            "0.02",
            "--trials",
            "2",
            "--ghz",
            "3",
            "--sizes",
            "16",
            "--threads",
            "2",
            "sha256",
        ]
    };
    let text = ok(&args("--json"));
    let v: Value = serde_json::from_str(&text).unwrap();
    let csv = ok(&args("--csv"));
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let rs = v["results"].as_array().unwrap();
    assert_eq!(rs.len(), csv.lines().count() - 1);
    // The same keys in the same order (serde_json's map here sorts them: look at the text).
    let first = &text[text.find("\"results\"").unwrap()..];
    let first = &first[..first.find('}').unwrap()];
    let at: Vec<usize> = header
        .iter()
        .map(|k| {
            first
                .find(&format!("\"{k}\":"))
                .unwrap_or_else(|| panic!("{k}: {first}"))
        })
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "order differs: {first}");
    let mut sorted = header.clone();
    sorted.sort_unstable();
    for r in rs {
        let keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, sorted, "{r}");
        assert_eq!(r["trials"], 2);
        assert_eq!(r["trial_bytes_per_second"].as_array().unwrap().len(), 2);
    }
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), header.len(), "{line}");
        let trials = f[header
            .iter()
            .position(|h| *h == "trial_bytes_per_second")
            .unwrap()];
        assert_eq!(trials.split(';').count(), 2, "{line}");
    }
}

#[test]
fn csv_has_header_and_one_line_per_result() {
    let out = ok(&[
        "speed",
        "--csv",
        "--seconds",
        "0.02",
        "--sizes",
        "16,64",
        "--compare",
        "portable",
        "aes-128-ecb",
    ]);
    let mut lines = out.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[..6], common::RESULT_KEYS);
    for k in ["threads", "spread", "speedup", "ratio", "compared_to"] {
        assert!(header.contains(&k), "{k} not in {header:?}");
    }
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 4, "{out}");
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    for r in &rows {
        assert_eq!(r.len(), header.len(), "{r:?}");
        assert_eq!(r[0], "aes-128-ecb");
        assert_eq!(r[1], "encrypt");
        assert!(["16", "64"].contains(&r[3]), "{r:?}");
        assert!(r[4].parse::<f64>().unwrap() > 0.0, "{r:?}");
        // No --ghz: an estimate on x86-64 and aarch64, else empty.
        assert!(
            r[5].is_empty() || r[5].parse::<f64>().unwrap() > 0.0,
            "{r:?}"
        );
        assert_eq!(r[col("threads")], "1");
    }
    // Rows of the chosen backend carry the ratio against soft.
    assert!(
        rows.iter()
            .any(|r| r[col("compared_to")] == "soft"
                && r[col("ratio")].parse::<f64>().unwrap() > 0.0),
        "{out}"
    );
}

#[test]
fn threads_report_aggregate_and_speedup() {
    let out = ok(&[
        "speed",
        "--json",
        "--seconds",
        "0.02",
        "--trials",
        "2",
        "--threads",
        "2",
        "--sizes",
        "64",
        "aes-256-ecb",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["threads"], 2);
    let rs = v["results"].as_array().unwrap();
    assert_eq!(rs.len(), 2, "{out}");
    for r in rs {
        check_result(r, !v["ghz"].is_null());
    }
    let one = rs.iter().find(|r| r["threads"] == 1).unwrap();
    let two = rs.iter().find(|r| r["threads"] == 2).unwrap();
    let speedup = two["speedup"].as_f64().unwrap();
    let expect =
        two["bytes_per_second"].as_f64().unwrap() / one["bytes_per_second"].as_f64().unwrap();
    assert!((speedup / expect - 1.0).abs() < 1e-9, "{out}");

    // The table has the N-thread throughput and the speed-up, and the spread.
    let text = ok(&[
        "speed",
        "--seconds",
        "0.02",
        "--threads",
        "2",
        "--sizes",
        "16",
        "sha256",
    ]);
    for s in [
        "with 2 threads",
        "speed-up with 2 threads",
        "independent streams",
        "±",
    ] {
        assert!(text.contains(s), "{s:?} not in:\n{text}");
    }
}

/// Many more threads than cores: the threads take turns, so all of them over one clock
/// cannot go much faster than the cores together, and a warning says so. (Adding up each
/// thread's own rate once reported a 373x speed-up on 2 cores.)
#[test]
fn more_threads_than_cores_share_one_clock_and_warn() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = (16 * cores).min(1024);
    let n = threads.to_string();
    // One 16-byte SHA-256 row on N threads, one short trial.
    let threads_run = |seconds: &str, threads: &str| {
        shyfr(&[
            "speed",
            "--json",
            "--seconds",
            seconds,
            "--trials",
            "1",
            "--ghz",
            "3",
            "--sizes",
            "16",
            "--threads",
            threads,
            "sha256",
        ])
    };
    let (code, out, err) = threads_run("0.05", &n);
    assert_eq!(code, 0, "{err}");
    assert!(err.starts_with("shyfr: speed: warning: "), "{err}");
    assert!(err.contains(&format!("{n} threads on {cores}")), "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let many = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["threads"].as_u64() == Some(threads as u64))
        .unwrap()
        .clone();
    let speedup = many["speedup"].as_f64().unwrap();
    assert!(
        speedup < (2 * cores) as f64,
        "{speedup}x with {n} threads on {cores} cores"
    );
    // As many threads as cores: no warning.
    let c = cores.to_string();
    let (code, _, err) = threads_run("0.01", &c);
    assert_eq!(code, 0);
    assert!(err.is_empty(), "{err}");
}

#[test]
fn parallel_splits_one_buffer() {
    // 1 MiB: the smallest buffer the library splits.
    let out = ok(&[
        "speed",
        "--json",
        "--seconds",
        "0.05",
        "--trials",
        "1",
        "--parallel",
        "2",
        "--sizes",
        "1048576",
        "aes-128-ctr",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["threads"], 2);
    assert_eq!(v["parallel"], true);
    let rs = v["results"].as_array().unwrap();
    assert_eq!(rs.len(), 2, "{out}");
    assert!(rs
        .iter()
        .any(|r| r["threads"] == 2 && r["speedup"].is_f64()));
    let text = ok(&[
        "speed",
        "--seconds",
        "0.02",
        "--trials",
        "1",
        "--parallel",
        "2",
        "--sizes",
        "16",
        "aes-128-ecb",
    ]);
    assert!(text.contains("one buffer split"), "{text}");
    // Independent streams and one split buffer are two different questions.
    usage_error(
        &["speed", "--threads", "2", "--parallel", "2", "aes-128-ecb"],
        &["--parallel"],
    );
}

#[test]
fn threads_all_runs() {
    let out = ok(&[
        "speed",
        "--csv",
        "--seconds",
        "0.02",
        "--trials",
        "1",
        "--threads",
        "all",
        "--sizes",
        "16",
        "sha1",
    ]);
    assert!(out.lines().count() >= 2, "{out}");
}

#[test]
fn plot_writes_svg_with_every_series() {
    let path = temp_path("chart.svg");
    let p = path.to_str().unwrap();
    let text = ok(&[
        "speed",
        "--seconds",
        "0.02",
        "--trials",
        "1",
        "--sizes",
        "16,256",
        "--compare",
        "portable",
        "--plot",
        p,
        "aes-128-ecb",
        "sha512",
    ]);
    assert!(text.contains(p), "{text}");
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..100.min(svg.len())]);
    assert!(svg.trim_end().ends_with("</svg>"));
    // Well-formed enough: every opened element is closed.
    let opened = svg.matches("<text").count();
    assert_eq!(opened, svg.matches("</text>").count());
    for s in [
        "aes-128-ecb",
        "sha512",
        "soft",
        "MB/s",
        "buffer size",
        "shyfr speed",
    ] {
        assert!(svg.contains(s), "{s:?} not in the SVG");
    }
}

#[test]
fn plot_writes_png() {
    let path = temp_path("chart.png");
    ok(&[
        "speed",
        "--json",
        "--seconds",
        "0.02",
        "--trials",
        "1",
        "--sizes",
        "16,32",
        "--plot",
        path.to_str().unwrap(),
        "sha256",
    ]);
    let png = std::fs::read(&path).unwrap();
    assert!(png.len() > 1000, "{}", png.len());
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn list_names_every_algorithm_with_operations_and_backends() {
    let out = ok(&["speed", "--list"]);
    let rows: Vec<Vec<&str>> = out
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    // One table: every name `hash`, `mac` and `enc` accept is a row of `speed --list`.
    let valid = |args: &[&str]| -> Vec<String> {
        let (code, _, err) = shyfr(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        let list = err
            .split("valid: ")
            .nth(1)
            .unwrap_or_else(|| panic!("{err}"));
        list.trim().split(", ").map(String::from).collect()
    };
    let mut names = valid(&["hash", "no-such-alg"]);
    // SHA-1, SHA-2, SHA-3, SHAKE: 13; gost34311; Kupyna-256/384/512.
    assert_eq!(names.len(), 13 + 1 + 3, "{names:?}");
    let macs = valid(&["mac", "no-such-alg", "--key-hex", "00"]);
    // HMAC-SHA*, KMAC: 13; Kalyna CMAC and GMAC of 5 variants, gost28147-mac,
    // hmac-gost34311; Kupyna's KMAC-256/384/512 and hmac-kupyna-256.
    assert_eq!(macs.len(), 13 + 10 + 2 + 4, "{macs:?}");
    names.extend(macs);
    let ciphers = ok(&["enc", "-list"]);
    let ciphers: Vec<String> = ciphers
        .lines()
        .map(|l| l.strip_prefix('-').unwrap().to_string())
        .collect();
    // AES 23, Kalyna 25, GOST 28147-89 3, triple DES 2.
    assert_eq!(ciphers.len(), 23 + 25 + 3 + 2, "{ciphers:?}");
    names.extend(ciphers);
    for name in &names {
        let row = rows
            .iter()
            .find(|r| r.first() == Some(&name.as_str()))
            .unwrap_or_else(|| panic!("{name} not listed:\n{out}"));
        assert!(
            ["encrypt,decrypt", "encrypt", "hash", "mac", "derive"].contains(&row[1]),
            "{row:?}"
        );
        assert!(row.iter().any(|w| w.contains("soft")), "{row:?}");
        assert_eq!(
            row.iter().filter(|w| w.ends_with('*')).count(),
            1,
            "{row:?}"
        );
    }
    // Key wrap says what it takes, and what "size" means for the KDFs is said.
    let kw = out.lines().find(|l| l.starts_with("aes-128-kw ")).unwrap();
    assert!(kw.contains("multiples of 8, at least 16"), "{kw}");
    assert!(
        out.contains("hkdf-sha256 it is the input key material"),
        "{out}"
    );
    assert!(rows.len() > 60, "{out}");
}

#[test]
fn bad_options_are_usage_errors() {
    usage_error(
        &["speed", "--seconds", "0.02", "aes-999-ecb"],
        &["unknown algorithm 'aes-999-ecb'", "--list"],
    );
    for bad in ["0", "-1", "x", "1.5", ""] {
        usage_error(&["speed", "--threads", bad], &["--threads", "all"]);
    }
    for bad in ["0", "-1", "x", "2.5", "100000"] {
        usage_error(&["speed", "--trials", bad], &["--trials", "whole number"]);
    }
    for bad in ["16,x", "0", "16,,32"] {
        usage_error(&["speed", "--sizes", bad], &["--sizes"]);
    }
    usage_error(
        &["speed", "--sizes", "20", "aes-128-ecb"],
        &["multiple of 16 bytes"],
    );
    usage_error(
        &["speed", "--plot", "chart.jpg"],
        &["--plot", ".svg", ".png"],
    );
    usage_error(
        &["speed", "--plot", "/no/such/folder/chart.svg"],
        &["--plot", "does not exist"],
    );
    usage_error(&["speed", "--json", "--csv"], &["--csv"]);
}
