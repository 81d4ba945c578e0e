//! Every subcommand, run as a separate process with hostile arguments: huge, negative,
//! empty and malformed numbers, bytes that are not UTF-8, files that are folders or
//! missing, an output that is the input, `/dev/full`; and with standard input closed,
//! standard output closed, or standard output a pipe whose reader has gone.
//!
//! The argument sets are built from a valid, quick command line per subcommand: each value
//! in turn replaced by each hostile value, each argument left out, a hostile argument
//! added; the descriptor cases take turns across the sets. A set fails the test when the
//! command dies by a signal, exits 101 or 134 (a panic or an abort), prints "panicked",
//! runs for more than a minute, exits with anything but 0, 1 or 2, or fails without saying
//! why in the one error style (`shyfr: CONTEXT: message` lines only, no "os error").
//! The number of sets run is printed (`cargo test --test hostile -- --nocapture`).

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The binary under test: this build's, or `SHYFR_HOSTILE_BIN` (to check that the test
/// catches the failures of another build, e.g. an older one).
fn bin() -> String {
    std::env::var("SHYFR_HOSTILE_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_shyfr").to_string())
}

/// How standard input and output are set up.
#[derive(Clone, Copy, Debug)]
enum Stdio3 {
    /// stdin /dev/null, stdout and stderr captured.
    Normal,
    /// stdin closed (`<&-`).
    ClosedIn,
    /// stdout closed (`>&-`).
    ClosedOut,
    /// stdout a pipe whose reading end is closed before the command writes.
    BrokenPipe,
}

const MODES: [Stdio3; 4] = [
    Stdio3::Normal,
    Stdio3::ClosedIn,
    Stdio3::ClosedOut,
    Stdio3::BrokenPipe,
];

/// What happened.
struct Outcome {
    code: Option<i32>,
    stderr: String,
    timed_out: bool,
}

fn run(args: &[OsString], dir: &Path, mode: Stdio3) -> Outcome {
    let mut cmd = match mode {
        Stdio3::ClosedIn | Stdio3::ClosedOut => {
            let redirect = if matches!(mode, Stdio3::ClosedIn) {
                "<&-"
            } else {
                ">&-"
            };
            let mut c = Command::new("sh");
            c.arg("-c")
                .arg(format!("exec \"$0\" \"$@\" {redirect}"))
                .arg(bin())
                .args(args);
            c
        }
        _ => {
            let mut c = Command::new(bin());
            c.args(args);
            c
        }
    };
    cmd.current_dir(dir)
        .env_remove("SHYFR_CPU")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn");
    let stdout = child.stdout.take().expect("stdout");
    // Drain (or, for a broken pipe, drop) stdout and drain stderr on threads so that a
    // large output cannot block the child.
    let out_reader = match mode {
        Stdio3::BrokenPipe => {
            drop(stdout);
            None
        }
        _ => Some(std::thread::spawn(move || {
            let mut s = stdout;
            let mut sink = Vec::new();
            let _ = std::io::Read::read_to_end(&mut s, &mut sink);
        })),
    };
    let mut stderr = child.stderr.take().expect("stderr");
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut v);
        v
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > Duration::from_secs(60) {
            timed_out = true;
            let _ = child.kill();
            break child.wait().expect("wait");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    if let Some(r) = out_reader {
        let _ = r.join();
    }
    let stderr = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned();
    Outcome {
        code: status.code(),
        stderr,
        timed_out,
    }
}

/// A hostile value for an option or a positional argument.
fn hostile_values() -> Vec<OsString> {
    let mut v: Vec<OsString> = [
        "",
        " ",
        "0",
        "-0",
        "-1",
        "-1e9",
        "1",
        "1024",
        "8",
        "70000",
        "33554432",
        "1e-9",
        "1e308",
        "-1e308",
        "nan",
        "inf",
        "0x10",
        "18446744073709551615",
        "18446744073709551616",
        "340282366920938463463374607431768211456",
        "99999999999999999999999999999999999999999999999999",
        "100000000000",
        "1073741825",
        "16,,16",
        ",",
        "all",
        "-",
        "--",
        "=",
        "\n",
        "\t",
        "zz",
        "é€",
        // file system objects (see `scratch`)
        "dir",
        "missing",
        "missing/deeper/x.svg",
        "f",
        "f.svg",
        "dir.svg",
        "/dev/null",
    ]
    .iter()
    .map(OsString::from)
    .collect();
    v.push(OsStr::from_bytes(b"\xff\xfe").to_os_string());
    v.push(OsStr::from_bytes(b"bad\xffname").to_os_string());
    v.push(OsString::from("x".repeat(5000)));
    v
}

/// Values only for output paths (`/dev/full` reads as endless zeros, so not an input).
fn output_only() -> Vec<OsString> {
    vec![OsString::from("/dev/full")]
}

/// The scratch folder: a file `f`, a folder `dir` (and `dir.svg`), a file whose name is
/// not UTF-8, a checksum list `SUMS`.
fn scratch() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    std::fs::write(
        d.join("f"),
        b"some data to hash and encrypt, 48 bytes long..!",
    )
    .unwrap();
    std::fs::create_dir(d.join("dir")).unwrap();
    std::fs::create_dir(d.join("dir.svg")).unwrap();
    std::fs::write(d.join(OsStr::from_bytes(b"bad\xffname")), b"x").unwrap();
    let sums = Command::new(env!("CARGO_BIN_EXE_shyfr"))
        .args(["hash", "sha256", "f"])
        .current_dir(d)
        .output()
        .unwrap();
    std::fs::write(d.join("SUMS"), sums.stdout).unwrap();
    // An RSA key pair and a signature of `f` for `sign` and `verify`.
    let rsa = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_shyfr"))
            .args(args)
            .current_dir(d)
            .output()
            .unwrap();
        assert!(o.status.success(), "{args:?}");
    };
    rsa(&["keygen", "rsa-512", "-o", "k.pem", "--pub", "p.pem"]);
    rsa(&["sign", "-k", "k.pem", "-o", "s.sig", "f"]);
    t
}

/// One base command line and which of its arguments are values to replace (and whether
/// the value is an output path).
struct Base {
    args: Vec<&'static str>,
    /// Indices of values to replace, with "is an output path".
    slots: Vec<(usize, bool)>,
}

fn bases() -> Vec<Base> {
    let k = "000102030405060708090a0b0c0d0e0f";
    let k32 = "000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f";
    let k24 = "000102030405060708090a0b0c0d0e0f0001020304050607";
    let k64 = "000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f\
               000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f";
    let b = |args: Vec<&'static str>, slots: Vec<(usize, bool)>| Base { args, slots };
    vec![
        b(vec!["cpu"], vec![]),
        b(vec!["cpu", "--json"], vec![]),
        b(vec!["--cpu", "portable", "cpu"], vec![(1, false)]),
        b(
            vec![
                "speed", "sha256", "--sizes", "16", "--seconds", "0.002", "--trials", "1",
                "--ghz", "3",
            ],
            vec![(1, false), (3, false), (5, false), (7, false), (9, false)],
        ),
        b(
            vec![
                "speed", "aes-128-kw", "--sizes", "16", "--seconds", "0.002", "--trials",
                "1", "--ghz", "3", "--threads", "2",
            ],
            vec![(3, false), (11, false)],
        ),
        b(
            vec![
                "speed", "aes-128-ctr", "--sizes", "64", "--seconds", "0.002", "--trials",
                "1", "--ghz", "3", "--parallel", "2", "--compare", "portable",
            ],
            vec![(3, false), (11, false), (13, false)],
        ),
        b(
            vec![
                "speed", "aes-128-gcm", "--sizes", "16", "--seconds", "0.002", "--trials",
                "1", "--ghz", "3", "--backend", "soft", "--json",
            ],
            vec![(11, false)],
        ),
        b(
            vec![
                "speed", "sha1", "--sizes", "16", "--seconds", "0.002", "--trials", "1",
                "--ghz", "3", "--plot", "chart.svg",
            ],
            vec![(11, true)],
        ),
        b(
            vec![
                "speed", "aes-128-ccm", "--sizes", "16", "--seconds", "0.002", "--trials",
                "1", "--ghz", "3", "--decrypt",
            ],
            vec![(3, false)],
        ),
        b(
            vec![
                "speed", "aes-256-xts", "--sizes", "16", "--seconds", "0.002", "--trials",
                "1", "--ghz", "3",
            ],
            vec![(3, false)],
        ),
        b(vec!["speed", "--list"], vec![]),
        b(vec!["hash", "sha256", "f"], vec![(1, false), (2, false)]),
        b(
            vec!["hash", "shake256", "--length", "32", "f"],
            vec![(3, false), (4, false)],
        ),
        b(vec!["hash", "sha256", "--tag", "-z", "f"], vec![(4, false)]),
        b(
            vec!["hash", "sha256", "-c", "--strict", "--ignore-missing", "SUMS"],
            vec![(5, false)],
        ),
        b(vec!["hash", "sha256", "-c", "SUMS", "SUMS"], vec![(4, false)]),
        b(
            vec!["mac", "hmac-sha256", "--key-hex", "00ff", "f"],
            vec![(1, false), (3, false), (4, false)],
        ),
        b(
            vec![
                "mac", "kmac256", "--key-hex", k32, "--length", "40", "--customization",
                "app", "f",
            ],
            vec![(3, false), (5, false), (7, false), (8, false)],
        ),
        b(
            vec!["enc", "-aes-128-cbc", "-K", k, "-iv", k, "-in", "f", "-out", "out"],
            vec![(1, false), (3, false), (5, false), (7, false), (9, true)],
        ),
        b(
            vec![
                "enc", "-aes-128-gcm", "-K", k, "-iv", "000102030405060708090a0b", "-aad",
                "00", "-in", "f", "-out", "out",
            ],
            vec![(5, false), (7, false), (9, false), (11, true)],
        ),
        b(
            vec!["enc", "-d", "-a", "-aes-128-ctr", "-K", k, "-iv", k, "-in", "f"],
            vec![(9, false)],
        ),
        b(
            vec![
                "enc", "-kalyna-256-512-cfb", "-K", k64, "-iv", k32, "-segment", "7", "-in",
                "f", "-out", "out",
            ],
            vec![(1, false), (3, false), (5, false), (7, false), (11, true)],
        ),
        b(
            vec![
                "enc", "-d", "-gost28147-ecb", "-K", k32, "-sbox", "test", "-nopad", "-in", "f",
            ],
            vec![(2, false), (4, false), (6, false), (9, false)],
        ),
        b(
            vec!["enc", "-des-ede3-cbc", "-K", k24, "-iv", "0001020304050607", "-a", "-in", "f"],
            vec![(3, false), (5, false), (8, false)],
        ),
        b(
            vec![
                "mac", "kalyna-512-512-gmac", "--key-hex", k64, "--length", "16", "f",
            ],
            vec![(1, false), (3, false), (5, false)],
        ),
        b(
            vec![
                "mac", "gost28147-mac", "--key-hex", k32, "--sbox", "test", "--length", "2", "f",
            ],
            vec![(3, false), (5, false), (7, false)],
        ),
        b(
            vec!["hash", "gost34311", "--sbox", "dke1", "f"],
            vec![(3, false), (4, false)],
        ),
        b(
            vec![
                "speed", "kalyna-128-128-ccm", "gost28147-cfb", "des-ede3-cbc", "--sizes", "64",
                "--seconds", "0.002", "--trials", "1", "--ghz", "3", "--decrypt", "--compare",
                "portable",
            ],
            // Not the sizes: 32 MiB through portable Kalyna-CCM and TDES-CBC is only slow.
            vec![(1, false), (14, false)],
        ),
        b(
            vec!["keygen", "rsa-512", "-o", "k2.pem", "--pub", "p2.pem"],
            vec![(1, false), (3, true), (5, true)],
        ),
        b(
            vec!["sign", "-k", "k.pem", "--hash", "sha256", "--pss", "--saltlen", "8", "-o", "s2.sig", "f"],
            vec![(2, false), (4, false), (7, false), (9, true), (10, false)],
        ),
        b(
            vec!["verify", "-p", "p.pem", "-s", "s.sig", "--hash", "sha256", "f"],
            vec![(2, false), (4, false), (6, false), (7, false)],
        ),
        b(
            vec!["verify", "-p", "p.pem", "-s", "s.sig", "--pss", "--saltlen", "auto", "f"],
            vec![(7, false)],
        ),
        b(
            vec!["speed", "rsa512", "--seconds", "0.002", "--trials", "1"],
            vec![(1, false), (3, false), (5, false)],
        ),
        b(
            vec!["speed", "--keygen", "rsa512", "--keys", "2"],
            vec![(2, false), (4, false)],
        ),
        b(
            vec!["mac", "kupyna-kmac-256", "--key-hex", k32, "f"],
            vec![(1, false), (3, false), (4, false)],
        ),
        b(vec!["hash", "kupyna-512", "f"], vec![(1, false), (2, false)]),
        b(
            vec!["enc", "-aes-256-xts", "-K", "0102030405060708090a0b0c0d0e0f100102030405060708090a0b0c0d0e0f10000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f", "-iv", k, "-in", "f"],
            vec![(3, false), (5, false), (7, false)],
        ),
    ]
}

#[test]
fn hostile_arguments_never_crash() {
    let t = scratch();
    let dir = t.path();
    let values = hostile_values();
    let mut sets: Vec<Vec<OsString>> = Vec::new();
    for base in bases() {
        let orig: Vec<OsString> = base.args.iter().map(OsString::from).collect();
        sets.push(orig.clone());
        // Each value replaced by each hostile value.
        for &(i, is_out) in &base.slots {
            let mut vals = values.clone();
            if is_out {
                vals.extend(output_only());
            }
            for v in vals {
                // A valid long measuring time is not hostile, only slow.
                let secs = v.to_str().and_then(|s| s.parse::<f64>().ok());
                if i > 0 && orig[i - 1] == "--seconds" && secs.is_some_and(|s| s > 0.05) {
                    continue;
                }
                let mut a = orig.clone();
                a[i] = v;
                sets.push(a);
            }
        }
        // Each argument left out (an option then lacks its value, or takes the next).
        for i in 0..orig.len() {
            let mut a = orig.clone();
            a.remove(i);
            sets.push(a);
        }
        // A hostile argument added at the end and after the subcommand.
        for v in &values {
            let mut a = orig.clone();
            a.push(v.clone());
            sets.push(a);
            let mut a = orig.clone();
            a.insert(1.min(a.len()), v.clone());
            sets.push(a);
        }
    }
    // Top level: hostile words where the subcommand goes, and --cpu values.
    for v in &values {
        sets.push(vec![v.clone()]);
        sets.push(vec!["--cpu".into(), v.clone(), "cpu".into()]);
    }
    sets.push(vec![]);

    let mut failures = Vec::new();
    for (n, args) in sets.iter().enumerate() {
        // Output files from earlier sets must not pile up into a different test.
        let _ = std::fs::remove_file(dir.join("out"));
        let mode = MODES[n % MODES.len()];
        let o = run(args, dir, mode);
        let why = if o.timed_out {
            Some("ran for more than a minute".to_string())
        } else {
            match o.code {
                None => Some("killed by a signal".to_string()),
                Some(c @ (101 | 134)) => Some(format!("exit status {c} (a panic or an abort)")),
                Some(c) if !(0..=2).contains(&c) => Some(format!("exit status {c}")),
                _ if o.stderr.contains("panicked") => Some("panicked".to_string()),
                _ if o.stderr.contains("os error") => Some("\"os error\" in a message".into()),
                Some(c) if c != 0 && o.stderr.trim().is_empty() => {
                    Some(format!("exit status {c} without a message"))
                }
                _ if o.stderr.lines().any(|l| !l.starts_with("shyfr: ")) => {
                    Some("a message not in the one error style".to_string())
                }
                _ => None,
            }
        };
        if let Some(why) = why {
            failures.push(format!("{why}: {args:?} with {mode:?}\n{}", o.stderr));
        }
    }
    println!(
        "hostile-input test: {} argument sets ({} base command lines), {} failures",
        sets.len(),
        bases().len(),
        failures.len()
    );
    for f in failures.iter().take(40) {
        println!("{}", f.lines().next().unwrap_or(""));
    }
    assert!(sets.len() > 1000, "{}", sets.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
