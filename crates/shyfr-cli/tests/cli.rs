//! Tests of the `shyfr` command, run as a separate process.
//!
//! Every command runs with `SHYFR_CPU` removed from its environment unless the test sets
//! it, so the results do not depend on the environment the tests run in. Tests whose names
//! start with `soft_` run the portable (`soft`) AES backend.

mod common;

use std::process::{Command, Output};

use serde_json::Value;
use shyfr::cpu::{self, Feature};

const BIN: &str = env!("CARGO_BIN_EXE_shyfr");

/// `shyfr ARGS` with `SHYFR_CPU` removed.
fn shyfr(args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.args(args).env_remove("SHYFR_CPU");
    c
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(mut c: Command) -> Run {
    let Output {
        status,
        stdout,
        stderr,
    } = c.output().expect("run shyfr");
    let code = status.code().expect("exited normally");
    // 127: the process could not be started at all (shyfr itself exits 0, 1 or 2).
    assert!(
        !(code == 127 && stdout.is_empty() && stderr.is_empty()),
        "could not execute {BIN}; these tests run the binary, so they need a native build \
         (a cross-compiled one runs only where binfmt_misc hands it to an emulator)"
    );
    Run {
        code,
        stdout: String::from_utf8(stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(stderr).expect("UTF-8 stderr"),
    }
}

/// Runs and expects success.
fn ok(c: Command) -> Run {
    let r = run(c);
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    r
}

/// Runs and expects exit status 2, nothing on stdout, and a message naming every one of
/// `mentions` on stderr.
fn usage_error(c: Command, mentions: &[&str]) -> String {
    let dbg = format!("{c:?}");
    let r = run(c);
    assert_eq!(
        r.code, 2,
        "{dbg}\nstdout:\n{}\nstderr:\n{}",
        r.stdout, r.stderr
    );
    assert!(r.stdout.is_empty(), "{dbg}: stdout:\n{}", r.stdout);
    for m in mentions {
        assert!(r.stderr.contains(m), "{dbg}: {m:?} not in:\n{}", r.stderr);
    }
    one_error_line(&dbg, &r.stderr);
    r.stderr
}

/// The one error style: a single line `shyfr: CONTEXT: message`, no OS error number.
fn one_error_line(dbg: &str, stderr: &str) {
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{dbg}: not one line:\n{stderr}");
    let l = lines[0];
    let mut parts = l.splitn(3, ": ");
    assert_eq!(parts.next(), Some("shyfr"), "{dbg}: {l}");
    let context = parts.next().unwrap_or("");
    assert!(
        !context.is_empty() && !context.contains(' '),
        "{dbg}: no context in {l}"
    );
    assert!(parts.next().is_some_and(|m| !m.is_empty()), "{dbg}: {l}");
    assert!(!l.contains("os error"), "{dbg}: {l}");
}

/// `shyfr speed --json --seconds SECONDS --sizes SIZES REST...`, which must succeed.
fn speed_json(seconds: &str, sizes: &str, rest: &[&str]) -> Value {
    let head = ["speed", "--json", "--seconds", seconds, "--sizes", sizes];
    json(&ok(shyfr(&[&head[..], rest].concat())))
}

fn json(r: &Run) -> Value {
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout))
}

/// The AES backends as `shyfr cpu --json` reports them: (name, available, selected).
fn aes_backends(c: Command) -> Vec<(String, bool, bool)> {
    let v = json(&ok(c));
    v["backends"]
        .as_array()
        .expect("backends")
        .iter()
        .filter(|b| b["algorithm"] == "aes")
        .map(|b| {
            (
                b["backend"].as_str().unwrap().to_string(),
                b["available"].as_bool().unwrap(),
                b["selected"].as_bool().unwrap(),
            )
        })
        .collect()
}

fn selected(backends: &[(String, bool, bool)]) -> String {
    let sel: Vec<_> = backends.iter().filter(|b| b.2).collect();
    assert_eq!(sel.len(), 1, "{backends:?}");
    sel[0].0.clone()
}

/// The available hardware (not `soft`) AES backends, fastest first.
fn hardware_backends() -> Vec<String> {
    aes_backends(shyfr(&["cpu", "--json"]))
        .into_iter()
        .filter(|b| b.1 && b.0 != "soft")
        .map(|b| b.0)
        .collect()
}

/// The `results` of `shyfr speed --json`, checked against the contract.
fn results(v: &Value) -> Vec<Value> {
    let rs = v["results"].as_array().expect("results").clone();
    for r in &rs {
        for k in common::RESULT_KEYS {
            assert!(r.get(k).is_some(), "{k} missing in {r}");
        }
        let bps = r["bytes_per_second"].as_f64().expect("a number");
        assert!(bps > 0.0 && bps.is_finite(), "{r}");
        match &r["cycles_per_byte"] {
            Value::Null => assert!(v["ghz"].is_null()),
            c => assert!(c.as_f64().unwrap() > 0.0, "{r}"),
        }
    }
    rs
}

#[test]
fn cpu_lists_every_backend_and_marks_one() {
    let r = ok(shyfr(&["cpu"]));
    let rows: Vec<Vec<&str>> = r
        .stdout
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.first() == Some(&"aes"))
        .collect();
    for b in shyfr::aes::Backend::ALL {
        assert!(
            rows.iter().any(|w| w.get(1) == Some(&b.name())),
            "{} not listed:\n{}",
            b.name(),
            r.stdout
        );
    }
    let marked: Vec<_> = rows.iter().filter(|w| w.contains(&"*")).collect();
    assert_eq!(marked.len(), 1, "{}", r.stdout);
    // The marked one is available.
    assert!(marked[0].contains(&"yes"), "{}", r.stdout);
    for f in cpu::detected().iter() {
        assert!(r.stdout.contains(f.name()), "{} missing", f.name());
    }
    assert!(r.stdout.contains("override:  none"), "{}", r.stdout);
}

#[test]
fn cpu_json_agrees_with_library() {
    let v = json(&ok(shyfr(&["cpu", "--json"])));
    let detected: Vec<&str> = v["detected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    let lib: Vec<&str> = cpu::detected().iter().map(Feature::name).collect();
    assert_eq!(detected, lib);
    assert_eq!(v["enabled"], v["detected"]);
    assert!(v["override"].is_null());
    let backends = aes_backends(shyfr(&["cpu", "--json"]));
    let names: Vec<&str> = backends.iter().map(|b| b.0.as_str()).collect();
    let all: Vec<&str> = shyfr::aes::Backend::ALL.iter().map(|b| b.name()).collect();
    assert_eq!(names, all);
    // The selected backend is the first available one.
    let first = backends.iter().find(|b| b.1).unwrap();
    assert_eq!(selected(&backends), first.0);
}

/// `shyfr cpu --json`'s `backends`: one object per row of `shyfr::registry::backends()`, in
/// its order, with exactly the keys algorithm, backend, needs, available, selected (a
/// stable contract that CI reads), under every override; documented in `--help`.
#[test]
fn cpu_json_backends_are_the_registry() {
    for args in [
        &["cpu", "--json"][..],
        &["--cpu", "portable", "cpu", "--json"],
        &["--cpu", "-aes", "cpu", "--json"],
    ] {
        let v = json(&ok(shyfr(args)));
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        for k in ["arch", "detected", "enabled", "override", "backends"] {
            assert!(keys.contains(&k), "{k} not in {keys:?}");
        }
        let rows = v["backends"].as_array().unwrap();
        // The command applied the same override in its process; here, the library's
        // registry without it gives the rows (availability may differ, names may not).
        let lib: Vec<shyfr::cpu::BackendStatus> = shyfr::registry::backends().collect();
        assert_eq!(rows.len(), lib.len(), "{args:?}");
        let mut selected = std::collections::BTreeMap::new();
        for (r, l) in rows.iter().zip(&lib) {
            let mut keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
            keys.sort_unstable();
            assert_eq!(
                keys,
                ["algorithm", "available", "backend", "needs", "selected"]
            );
            assert_eq!(r["algorithm"], l.algorithm);
            assert_eq!(r["backend"], l.backend);
            let needs: Vec<&str> = r["needs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_str().unwrap())
                .collect();
            let lib_needs: Vec<&str> = l.needs.iter().map(|f| f.name()).collect();
            assert_eq!(needs, lib_needs);
            assert!(r["available"].is_boolean() && r["selected"].is_boolean());
            if r["selected"] == true {
                assert_eq!(r["available"], true, "{r}");
                *selected.entry(l.algorithm).or_insert(0) += 1;
            }
            if args.contains(&"portable") {
                assert_eq!(r["available"], needs.is_empty(), "{r}");
            }
        }
        // One selected backend per algorithm.
        let families: std::collections::BTreeSet<&str> = lib.iter().map(|l| l.algorithm).collect();
        assert_eq!(selected.len(), families.len(), "{args:?}");
        assert!(selected.values().all(|&n| n == 1), "{selected:?}");
    }
    let help = ok(shyfr(&["cpu", "--help"])).stdout;
    for k in [
        "backends",
        "algorithm",
        "needs",
        "available",
        "selected",
        "stable",
    ] {
        assert!(help.contains(k), "{k:?} not in cpu --help:\n{help}");
    }
}

/// The help and the crate description name every command.
#[test]
fn help_names_every_command() {
    let help = ok(shyfr(&["--help"])).stdout;
    for c in ["cpu", "speed", "hash", "mac", "enc"] {
        assert!(
            help.lines().any(|l| l.trim_start().starts_with(c)),
            "{c} not in --help:\n{help}"
        );
    }
    assert!(!help.contains("The shyfr command: cpu, speed\n"), "{help}");
    assert!(!env!("CARGO_PKG_DESCRIPTION").ends_with("cpu, speed"));
    // Help and version go to stdout with status 0, also for subcommands.
    for args in [
        &["speed", "--help"][..],
        &["hash", "-h"],
        &["--version"],
        &["help", "mac"],
    ] {
        let r = ok(shyfr(args));
        assert!(!r.stdout.is_empty() && r.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn cpu_override_by_flag_and_env_changes_selection() {
    let d = cpu::detected();
    if !(d.has(Feature::Vaes) && d.has(Feature::Aes)) || cfg!(not(target_arch = "x86_64")) {
        eprintln!("skipped: this CPU has no VAES");
        return;
    }
    let default = selected(&aes_backends(shyfr(&["cpu", "--json"])));
    assert!(
        default == "x86_vaes" || default == "x86_vaes512",
        "{default}"
    );

    let masked = [
        shyfr(&["--cpu", "-vaes,-avx512f", "cpu", "--json"]),
        shyfr(&["cpu", "--json", "--cpu=-vaes,-avx512f"]),
        shyfr(&["cpu", "--cpu", "-vaes", "--json"]),
        {
            let mut c = shyfr(&["cpu", "--json"]);
            c.env("SHYFR_CPU", "-vaes,-avx512f");
            c
        },
    ];
    for c in masked {
        let dbg = format!("{c:?}");
        let b = aes_backends(c);
        assert_eq!(selected(&b), "x86_aesni", "{dbg}");
        assert!(!b.iter().any(|x| x.0 == "x86_vaes" && x.1), "{dbg}");
    }

    // The table says so too, and names the override.
    let r = ok(shyfr(&["--cpu", "-vaes,-avx512f", "cpu"]));
    let sel = r
        .stdout
        .lines()
        .find(|l| l.starts_with("aes") && l.split_whitespace().any(|w| w == "*"))
        .unwrap();
    assert!(sel.contains("x86_aesni"), "{}", r.stdout);
    assert!(
        r.stdout.contains("--cpu \"-vaes,-avx512f\""),
        "{}",
        r.stdout
    );

    let mut c = shyfr(&["cpu"]);
    c.env("SHYFR_CPU", "-vaes");
    let r = ok(c);
    assert!(r.stdout.contains("SHYFR_CPU=\"-vaes\""), "{}", r.stdout);

    // --cpu replaces SHYFR_CPU.
    let mut c = shyfr(&["--cpu", "native", "cpu", "--json"]);
    c.env("SHYFR_CPU", "-vaes");
    assert_eq!(selected(&aes_backends(c)), default);
}

/// `shyfr ARGS` on an x86-64 CPU without AVX-512F: this one if it lacks it, else the
/// binary under `qemu-x86_64 -cpu Nehalem` (CI installs `qemu-user`; on an AVX-512 machine
/// without qemu the test fails rather than check nothing).
fn shyfr_without_avx512(args: &[&str]) -> Command {
    if !cpu::detected().has(Feature::Avx512f) {
        return shyfr(args);
    }
    let mut c = Command::new("qemu-x86_64");
    c.args(["-cpu", "Nehalem", BIN])
        .args(args)
        .env_remove("SHYFR_CPU");
    c
}

#[test]
#[cfg(target_arch = "x86_64")]
fn env_cannot_enable_a_missing_feature() {
    // The emulated CPU really lacks AVX-512F.
    let r = ok(shyfr_without_avx512(&["cpu", "--json"]));
    assert!(
        !json(&r)["detected"]
            .as_array()
            .expect("detected")
            .iter()
            .any(|f| f == "avx512f"),
        "{}",
        r.stdout
    );
    for spec in [
        "+avx512f",
        "avx512f",
        "portable,+avx512f,+vaes,+aes,+avx,+avx2",
    ] {
        let mut c = shyfr_without_avx512(&["cpu", "--json"]);
        c.env("SHYFR_CPU", spec);
        let r = ok(c);
        let v = json(&r);
        assert!(
            !v["enabled"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f == "avx512f"),
            "{spec}: {}",
            r.stdout
        );
        let b = aes_backends({
            let mut c = shyfr_without_avx512(&["cpu", "--json"]);
            c.env("SHYFR_CPU", spec);
            c
        });
        let v512 = b.iter().find(|x| x.0 == "x86_vaes512").unwrap();
        assert!(!v512.1 && !v512.2, "{spec}: {b:?}");
    }
    let mut c = shyfr_without_avx512(&["cpu"]);
    c.env("SHYFR_CPU", "+avx512f");
    let r = ok(c);
    assert!(r.stdout.contains("ignored:   avx512f"), "{}", r.stdout);
}

#[test]
fn portable_override_selects_soft() {
    for c in [shyfr(&["--cpu", "portable", "cpu", "--json"]), {
        let mut c = shyfr(&["cpu", "--json"]);
        c.env("SHYFR_CPU", "portable");
        c
    }] {
        let b = aes_backends(c);
        assert_eq!(selected(&b), "soft");
        assert!(b.iter().all(|x| x.1 == (x.0 == "soft")), "{b:?}");
    }
}

#[test]
fn speed_json_contract() {
    let r = ok(shyfr(&[
        "speed",
        "--json",
        "--seconds",
        "0.05",
        "--sizes",
        "16,1024",
        "aes-128-ecb",
    ]));
    let v = json(&r);
    let rs = results(&v);
    assert_eq!(rs.len(), 2, "{}", r.stdout);
    let default = selected(&aes_backends(shyfr(&["cpu", "--json"])));
    for (r, size) in rs.iter().zip([16, 1024]) {
        assert_eq!(r["algorithm"], "aes-128-ecb");
        assert_eq!(r["operation"], "encrypt");
        assert_eq!(r["size"], size);
        assert_eq!(r["backend"], default.as_str());
        assert!(r["ratio"].is_null());
    }
    if cfg!(target_arch = "x86_64") {
        assert!(v["ghz"].as_f64().unwrap() > 0.1, "{}", r.stdout);
    }
}

#[test]
fn speed_table_and_quiet_stderr() {
    let r = ok(shyfr(&[
        "speed",
        "--seconds",
        "0.03",
        "--sizes",
        "16,64",
        "--ghz",
        "3",
        "aes-256-ecb",
    ]));
    let default = selected(&aes_backends(shyfr(&["cpu", "--json"])));
    for s in [
        "16 bytes",
        "64 bytes",
        "aes-256-ecb",
        "encrypt",
        "MB/s",
        "10^6 bytes",
        "3.00 GHz",
        "cycles per byte",
        default.as_str(),
    ] {
        assert!(r.stdout.contains(s), "{s:?} not in:\n{}", r.stdout);
    }
    // Not a terminal: no progress.
    assert!(r.stderr.is_empty(), "{}", r.stderr);
}

#[test]
fn speed_decrypt_with_given_clock() {
    let v = speed_json("0.03", "32", &["--decrypt", "--ghz", "2.5", "AES-192-ECB"]);
    assert_eq!(v["ghz"], 2.5);
    let rs = results(&v);
    assert_eq!(rs.len(), 1);
    assert_eq!(rs[0]["algorithm"], "aes-192-ecb");
    assert_eq!(rs[0]["operation"], "decrypt");
    let bps = rs[0]["bytes_per_second"].as_f64().unwrap();
    let cpb = rs[0]["cycles_per_byte"].as_f64().unwrap();
    assert!((cpb * bps / 2.5e9 - 1.0).abs() < 1e-9, "{cpb} {bps}");
}

#[test]
fn speed_default_algorithms() {
    let v = speed_json("0.02", "16", &[]);
    let algs: Vec<_> = results(&v)
        .iter()
        .map(|r| r["algorithm"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(algs, ["aes-128-ecb", "aes-192-ecb", "aes-256-ecb"]);
}

#[test]
fn speed_backend_and_compare_hardware() {
    let hw = hardware_backends();
    let (Some(first), Some(last)) = (hw.first(), hw.last()) else {
        eprintln!("skipped: no hardware AES backend");
        return;
    };
    let v = speed_json(
        "0.03",
        "16,256",
        &["--backend", first, "--compare", last, "aes-128-ecb"],
    );
    let rs = results(&v);
    assert_eq!(rs.len(), 4);
    let chosen: Vec<_> = rs.iter().filter(|r| !r["ratio"].is_null()).collect();
    assert_eq!(chosen.len(), 2);
    for c in &chosen {
        assert_eq!(c["backend"], first.as_str());
        assert_eq!(c["compared_to"], last.as_str());
        let other = rs
            .iter()
            .find(|r| r["ratio"].is_null() && r["size"] == c["size"])
            .unwrap();
        assert_eq!(other["backend"], last.as_str());
        let ratio =
            c["bytes_per_second"].as_f64().unwrap() / other["bytes_per_second"].as_f64().unwrap();
        assert!((c["ratio"].as_f64().unwrap() / ratio - 1.0).abs() < 1e-9);
    }

    // The table shows the ratio too.
    let r = ok(shyfr(&[
        "speed",
        "--seconds",
        "0.02",
        "--sizes",
        "16",
        "--ghz",
        "3",
        "--compare",
        last,
        "aes-128-ecb",
    ]));
    assert!(r.stdout.contains("ratio"), "{}", r.stdout);
    assert!(r.stdout.contains(&format!("/ {last}")), "{}", r.stdout);
}

#[test]
fn unknown_algorithm_is_a_usage_error() {
    usage_error(
        shyfr(&["speed", "--seconds", "0.02", "aes-128-nope"]),
        &["aes-128-nope", "--list"],
    );
}

#[test]
fn bad_sizes_are_usage_errors() {
    for bad in ["16,abc", "0", "", "16,,32", "-16", "1.5"] {
        usage_error(
            shyfr(&["speed", "--sizes", bad, "aes-128-ecb"]),
            &["--sizes"],
        );
    }
    usage_error(
        shyfr(&["speed", "--sizes", "16,100", "aes-128-ecb"]),
        &["100", "multiple of 16 bytes", "aes-128-ecb", "96 or 112"],
    );
    // Each algorithm's own rules, at parse time: KW wraps at least two 8-byte
    // semiblocks, XTS at most 2^20 blocks.
    usage_error(
        shyfr(&["speed", "aes-128-kw", "--sizes", "8", "--seconds", "0.01"]),
        &["--sizes", "8", "aes-128-kw", "at least 16", "16"],
    );
    usage_error(
        shyfr(&["speed", "aes-256-kw", "--sizes", "20"]),
        &["multiple of 8", "16 or 24"],
    );
    usage_error(
        shyfr(&["speed", "aes-128-xts", "--sizes", "33554432"]),
        &["too large", "16777216"],
    );
}

#[test]
fn bad_numbers_are_usage_errors() {
    for bad in ["0", "-1", "abc", "nan", "1e-9", "0.0009", "1e300", "inf"] {
        usage_error(
            shyfr(&["speed", "--seconds", bad]),
            &["--seconds", "from 0.001"],
        );
        usage_error(shyfr(&["speed", "--ghz", bad]), &["--ghz", "from 0.01"]);
    }
    // Each trial needs at least a millisecond too.
    usage_error(
        shyfr(&["speed", "--seconds", "0.01", "--trials", "1000"]),
        &["--seconds", "--trials", "per trial"],
    );
}

#[test]
fn malformed_cpu_flag_is_a_usage_error() {
    for args in [
        &["--cpu", "-bogus", "cpu"][..],
        &["speed", "--cpu", "vaes;aes", "--seconds", "0.02"],
        &["cpu", "--cpu=+frobnicate"],
    ] {
        usage_error(shyfr(args), &["--cpu", "portable", "native", "vaes", "aes"]);
    }
}

#[test]
fn malformed_env_is_a_usage_error() {
    for args in [&["cpu"][..], &["speed", "--seconds", "0.02"]] {
        let mut c = shyfr(args);
        c.env("SHYFR_CPU", "frobnicate");
        usage_error(c, &["SHYFR_CPU", "frobnicate", "portable", "aes"]);
    }
}

#[test]
fn cpu_flag_replaces_a_malformed_env() {
    // `--cpu` replaces SHYFR_CPU, as its help says: a malformed SHYFR_CPU is not read.
    for args in [
        &["--cpu", "native", "cpu", "--json"][..],
        &["cpu", "--json", "--cpu", "portable"],
    ] {
        let mut c = shyfr(args);
        c.env("SHYFR_CPU", "frobnicate");
        let v = json(&ok(c));
        assert_eq!(v["override"]["source"], "--cpu", "{v}");
    }
    let mut c = shyfr(&["--cpu", "portable", "cpu", "--json"]);
    c.env("SHYFR_CPU", "frobnicate");
    let v = json(&ok(c));
    assert_eq!(v["enabled"].as_array().unwrap().len(), 0, "{v}");
}

#[test]
fn unknown_backends_are_usage_errors() {
    let all: Vec<&str> = shyfr::aes::Backend::ALL.iter().map(|b| b.name()).collect();
    let mut mentions = vec!["nope", "portable"];
    mentions.extend(&all);
    for opt in ["--compare", "--backend"] {
        let mut m = mentions.clone();
        m.push(opt);
        usage_error(shyfr(&["speed", opt, "nope", "--seconds", "0.02"]), &m);
    }
}

#[test]
fn unavailable_backends_are_usage_errors() {
    // x86-64 and aarch64 both have a hardware AES backend in `ALL`.
    let hw = shyfr::aes::Backend::ALL
        .iter()
        .find(|b| !b.needs().is_empty())
        .expect("a hardware AES backend in this build");
    for opt in ["--compare", "--backend"] {
        usage_error(
            shyfr(&[
                "--cpu",
                "portable",
                "speed",
                opt,
                hw.name(),
                "--seconds",
                "0.02",
            ]),
            &[opt, hw.name(), "not available"],
        );
    }
}

#[test]
fn unknown_subcommand_or_option_is_a_usage_error() {
    usage_error(shyfr(&["frobnicate"]), &["frobnicate"]);
    usage_error(shyfr(&["speed", "--frobnicate"]), &["--frobnicate"]);
    usage_error(
        shyfr(&[]),
        &["a command is required", "speed", "shyfr --help"],
    );
}

// ---- These run the portable `soft` backend. ----

#[test]
fn soft_speed_compare_portable() {
    let v = speed_json(
        "0.03",
        "16,256",
        &["--compare", "portable", "aes-128-ecb", "aes-256-ecb"],
    );
    let rs = results(&v);
    assert_eq!(rs.len(), 8);
    let soft: Vec<_> = rs.iter().filter(|r| r["backend"] == "soft").collect();
    assert!(soft.len() >= 4);
    for r in rs.iter().filter(|r| !r["ratio"].is_null()) {
        assert_eq!(r["compared_to"], "soft");
        assert!(r["ratio"].as_f64().unwrap() > 0.0);
    }
}

#[test]
fn soft_speed_under_portable_override() {
    let by_flag = shyfr(&[
        "--cpu",
        "portable",
        "speed",
        "--json",
        "--seconds",
        "0.02",
        "--sizes",
        "16,64",
    ]);
    let mut by_env = shyfr(&[
        "speed",
        "--json",
        "--decrypt",
        "--seconds",
        "0.02",
        "--sizes",
        "16",
    ]);
    by_env.env("SHYFR_CPU", "portable");
    let forced = shyfr(&[
        "speed",
        "--json",
        "--backend",
        "portable",
        "--seconds",
        "0.02",
        "--sizes",
        "32",
        "aes-192-ecb",
    ]);
    for c in [by_flag, by_env, forced] {
        let v = json(&ok(c));
        for r in results(&v) {
            assert_eq!(r["backend"], "soft", "{r}");
        }
    }
}
