//! `shyfr hash` and `shyfr mac` against the system's coreutils (`sha256sum` and friends).
//!
//! The coreutils comparisons need `sha256sum` and `sha512sum` (GNU coreutils, any Linux
//! CI image): they fail, not skip, when the tools are missing, so that a test that did not
//! compare anything cannot pass.

mod common;

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn shyfr(args: &[&str], dir: &Path) -> Output {
    common::spawn_output(common::BIN, args, Some(dir), b"")
}

fn tool(name: &str, args: &[&str], dir: &Path) -> Option<Output> {
    Command::new(name).args(args).current_dir(dir).output().ok()
}

/// A scratch directory with files of awkward sizes (empty, around block boundaries, a
/// few MiB so several 1 MiB reads are needed).
fn scratch(tag: &str) -> (PathBuf, Vec<String>) {
    let dir = std::env::temp_dir().join(format!("shyfr-hash-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut names = Vec::new();
    for (i, len) in [0usize, 1, 55, 56, 64, 111, 112, 128, 1000, 3 << 20 | 17]
        .iter()
        .enumerate()
    {
        let name = format!("f{i}.bin");
        let data: Vec<u8> = (0..*len).map(|j| (j * 31 + i) as u8).collect();
        std::fs::write(dir.join(&name), data).unwrap();
        names.push(name);
    }
    (dir, names)
}

#[test]
fn output_is_byte_identical_to_coreutils() {
    let (dir, names) = scratch("coreutils");
    let files: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut compared = 0;
    for (alg, sum) in [
        ("sha1", "sha1sum"),
        ("sha224", "sha224sum"),
        ("sha256", "sha256sum"),
        ("sha384", "sha384sum"),
        ("sha512", "sha512sum"),
    ] {
        let Some(want) = tool(sum, &files, &dir) else {
            continue;
        };
        assert!(want.status.success());
        let mut args = vec!["hash", alg];
        args.extend(&files);
        let got = shyfr(&args, &dir);
        assert!(
            got.status.success(),
            "{alg}: {}",
            String::from_utf8_lossy(&got.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&got.stdout),
            String::from_utf8_lossy(&want.stdout),
            "{alg} differs from {sum}"
        );
        compared += 1;
    }
    assert_eq!(compared, 5, "coreutils sha*sum not found");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn stdin_is_dash() {
    let dir = std::env::temp_dir();
    let out = run_os(
        common::BIN,
        &[OsStr::new("hash"), OsStr::new("sha256")],
        &dir,
        b"abc",
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  -\n"
    );
}

#[test]
fn check_catches_a_changed_file_and_a_missing_one() {
    let (dir, names) = scratch("check");
    let mut args = vec!["hash", "sha256"];
    args.extend(names.iter().map(String::as_str));
    let listing = shyfr(&args, &dir);
    assert!(listing.status.success());
    std::fs::write(dir.join("SUMS"), &listing.stdout).unwrap();

    let ok = shyfr(&["hash", "sha256", "--check", "SUMS"], &dir);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let text = String::from_utf8_lossy(&ok.stdout);
    assert_eq!(
        text.lines().filter(|l| l.ends_with(": OK")).count(),
        names.len()
    );

    // coreutils accepts our list too (a missing sha256sum is a failure, as above).
    let c = tool("sha256sum", &["--check", "SUMS"], &dir).expect("sha256sum (coreutils)");
    assert!(c.status.success());

    std::fs::write(dir.join(&names[3]), b"changed").unwrap();
    std::fs::remove_file(dir.join(&names[5])).unwrap();
    let bad = shyfr(&["hash", "sha256", "--check", "SUMS"], &dir);
    assert_eq!(bad.status.code(), Some(1));
    let text = String::from_utf8_lossy(&bad.stdout);
    assert!(text.contains(&format!("{}: FAILED\n", names[3])), "{text}");
    assert!(
        text.contains(&format!("{}: FAILED open or read", names[5])),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}: OK", names[0])),
        "went on after failures: {text}"
    );
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("did NOT match"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn missing_file_is_reported_and_the_rest_hashed() {
    let (dir, names) = scratch("missing");
    let out = shyfr(&["hash", "sha512", "nope.bin", &names[1]], &dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nope.bin: No such file"));
    assert!(String::from_utf8_lossy(&out.stdout).contains(&names[1]));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_names_and_lengths_are_usage_errors() {
    let dir = std::env::temp_dir();
    let out = shyfr(&["hash", "md5"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("sha256"));
    assert_eq!(
        shyfr(&["hash", "sha256", "--length", "8"], &dir)
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        shyfr(&["hash", "shake128", "--length", "0"], &dir)
            .status
            .code(),
        Some(2)
    );
    let out = shyfr(&["mac", "hmac-md5", "--key-hex", "00"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("hmac-sha256"));
    assert_eq!(
        shyfr(&["mac", "hmac-sha256", "--key-hex", "zz"], &dir)
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn mac_matches_rfc4231_and_openssl() {
    let dir = std::env::temp_dir().join(format!("shyfr-mac-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("msg"), b"what do ya want for nothing?").unwrap();
    let out = shyfr(
        &["mac", "hmac-sha256", "--key-hex", "4a656665", "msg"],
        &dir,
    );
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843  msg\n"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `prog args` (any bytes) in `dir` with `input` on standard input.
fn run_os(prog: &str, args: &[&OsStr], dir: &Path, input: &[u8]) -> Output {
    common::spawn_output(prog, args, Some(dir), input)
}

/// File names that need care: a backslash, a newline, a carriage return, bytes that are
/// not UTF-8, leading and inner spaces, a leading dash, a tab, `*`, `)`, `(`, `=`, `#`.
fn awkward_names() -> Vec<OsString> {
    [
        &b"back\\slash"[..],
        b"new\nline",
        b"cr\rname",
        b"\xff\xfe not utf-8",
        b" leading space",
        b"-dash",
        b"tab\tname",
        b"star*",
        b"paren) = x",
        b"(open",
        b"#hash",
        b"both\\and\nnewline",
        b"plain.txt",
    ]
    .iter()
    .map(|b| OsStr::from_bytes(b).to_os_string())
    .collect()
}

/// A directory holding one file per awkward name (different contents each).
fn awkward_dir() -> (tempfile::TempDir, Vec<OsString>) {
    let dir = tempfile::tempdir().unwrap();
    let names = awkward_names();
    for (i, n) in names.iter().enumerate() {
        let data: Vec<u8> = (0..i * 37 + 3).map(|j| (j * 7 + i) as u8).collect();
        std::fs::write(dir.path().join(n), data).unwrap();
    }
    (dir, names)
}

/// `tool args -- names` as the tool's arguments.
fn with_names<'a>(opts: &'a [&'a str], names: &'a [OsString]) -> Vec<&'a OsStr> {
    let mut v: Vec<&OsStr> = opts.iter().map(OsStr::new).collect();
    v.push(OsStr::new("--"));
    v.extend(names.iter().map(OsString::as_os_str));
    v
}

fn shyfr_hash(alg: &str, opts: &[&str], names: &[OsString], dir: &Path) -> Output {
    let mut o = vec!["hash", alg];
    o.extend(opts);
    run_os(
        env!("CARGO_BIN_EXE_shyfr"),
        &with_names(&o, names),
        dir,
        b"",
    )
}

fn check_ok(o: &Output, what: &str) {
    assert!(
        o.status.success(),
        "{what}: exit {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn awkward_names_match_coreutils_both_ways() {
    let (dir, names) = awkward_dir();
    let d = dir.path();
    let mut compared = 0;
    for (alg, tool) in [("sha256", "sha256sum"), ("sha512", "sha512sum")] {
        for opts in [&[][..], &["--tag"], &["-z"], &["-b"], &["--tag", "-z"]] {
            let theirs = run_os(tool, &with_names(opts, &names), d, b"");
            check_ok(&theirs, tool);
            let ours = shyfr_hash(alg, opts, &names, d);
            check_ok(&ours, "shyfr hash");
            assert!(
                ours.stdout == theirs.stdout,
                "{alg} {opts:?} differs:\nours:\n{}\ntheirs:\n{}",
                String::from_utf8_lossy(&ours.stdout),
                String::from_utf8_lossy(&theirs.stdout)
            );
            compared += 1;
            if opts.contains(&"-z") {
                continue; // GNU cannot check -z lists (`--zero` is refused with --check)
            }
            // Our list checked by the tool, theirs by us, with the same report.
            std::fs::write(d.join("OURS"), &ours.stdout).unwrap();
            std::fs::write(d.join("THEIRS"), &theirs.stdout).unwrap();
            let a = run_os(tool, &[OsStr::new("-c"), OsStr::new("OURS")], d, b"");
            check_ok(&a, &format!("{tool} -c on our {opts:?} list"));
            let b = run_os(
                env!("CARGO_BIN_EXE_shyfr"),
                &[
                    OsStr::new("hash"),
                    OsStr::new(alg),
                    OsStr::new("-c"),
                    OsStr::new("THEIRS"),
                ],
                d,
                b"",
            );
            check_ok(&b, &format!("shyfr -c on {tool}'s {opts:?} list"));
            assert!(
                a.stdout == b.stdout,
                "-c reports differ:\n{}\n{}",
                String::from_utf8_lossy(&a.stdout),
                String::from_utf8_lossy(&b.stdout)
            );
            let oks = b.stdout.windows(4).filter(|w| w == b": OK").count();
            assert_eq!(oks, names.len(), "{tool} {opts:?}");
            compared += 1;
        }
        std::fs::remove_file(d.join("OURS")).ok();
        std::fs::remove_file(d.join("THEIRS")).ok();
    }
    assert_eq!(compared, 16);
}

/// `shyfr hash -c` and `sha256sum -c` on the same lists, with each option, give the same
/// standard output and exit status, and warn alike.
#[test]
fn check_options_match_coreutils() {
    let (dir, names) = awkward_dir();
    let d = dir.path();
    let list = run_os("sha256sum", &with_names(&[], &names), d, b"");
    check_ok(&list, "sha256sum");
    let tagged = run_os("sha256sum", &with_names(&["--tag"], &names), d, b"");
    // A changed file, a removed one, an improperly formatted line and a comment.
    std::fs::write(d.join(&names[2]), b"changed").unwrap();
    std::fs::remove_file(d.join(&names[4])).unwrap();
    let mut bad = list.stdout.clone();
    bad.extend_from_slice(b"not a checksum line\n# a comment\n\n");
    std::fs::write(d.join("BAD"), &bad).unwrap();
    std::fs::write(d.join("TAGGED"), &tagged.stdout).unwrap();
    // Only lines for files that exist and match, and one for a missing file.
    let good: Vec<u8> = list
        .stdout
        .split_inclusive(|&b| b == b'\n')
        .filter(|l| {
            let s = String::from_utf8_lossy(l);
            !s.contains("cr\\r")
                && !s.contains(" leading space")
                && !s.contains("new\\nline")
                && !s.contains("both")
        })
        .flatten()
        .copied()
        .collect();
    let mut with_missing = good.clone();
    with_missing.extend_from_slice(format!("{}  missing-file\n", "0".repeat(64)).as_bytes());
    std::fs::write(d.join("GOOD"), &good).unwrap();
    std::fs::write(d.join("MISSING"), &with_missing).unwrap();
    let only_missing = format!("{}  missing-file\n", "0".repeat(64));
    std::fs::write(d.join("ONLY_MISSING"), only_missing).unwrap();
    std::fs::write(d.join("GARBAGE"), b"garbage\n").unwrap();

    let mut cases = 0;
    for opts in [
        &[][..],
        &["--quiet"],
        &["--status"],
        &["--strict"],
        &["--warn"],
        &["--ignore-missing"],
        &["--strict", "--status"],
        &["--ignore-missing", "--quiet"],
    ] {
        for lists in [
            &["BAD"][..],
            &["TAGGED"],
            &["GOOD"],
            &["MISSING"],
            &["ONLY_MISSING"],
            &["GARBAGE"],
            &["GOOD", "TAGGED", "MISSING"],
            &["GOOD", "no-such-list", "GOOD"],
        ] {
            let mut a: Vec<&OsStr> = vec![OsStr::new("-c")];
            a.extend(opts.iter().map(OsStr::new));
            a.extend(lists.iter().map(OsStr::new));
            let theirs = run_os("sha256sum", &a, d, b"");
            let mut b: Vec<&OsStr> = vec![OsStr::new("hash"), OsStr::new("sha256")];
            b.extend(a.iter().copied());
            let ours = run_os(env!("CARGO_BIN_EXE_shyfr"), &b, d, b"");
            let what = format!("-c {opts:?} {lists:?}");
            assert_eq!(ours.status.code(), theirs.status.code(), "{what}");
            assert!(
                ours.stdout == theirs.stdout,
                "{what}: stdout differs:\nours:\n{}\ntheirs:\n{}",
                String::from_utf8_lossy(&ours.stdout),
                String::from_utf8_lossy(&theirs.stdout)
            );
            // The same messages, in our style: 'shyfr: hash: ...' for 'sha256sum: ...'.
            let norm = |e: &[u8], prefix: &str| -> Vec<String> {
                String::from_utf8_lossy(e)
                    .lines()
                    .map(|l| l.strip_prefix(prefix).unwrap_or(l).replace('\'', ""))
                    .collect()
            };
            assert_eq!(
                norm(&ours.stderr, "shyfr: hash: "),
                norm(&theirs.stderr, "sha256sum: "),
                "{what}: stderr differs"
            );
            cases += 1;
        }
    }
    assert_eq!(cases, 64);
}

#[test]
fn check_reads_standard_input_and_names_dash() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("f"), b"abc").unwrap();
    let list = format!(
        "{}  f\n",
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    let o = run_os(
        env!("CARGO_BIN_EXE_shyfr"),
        &[OsStr::new("hash"), OsStr::new("sha256"), OsStr::new("-c")],
        d,
        list.as_bytes(),
    );
    check_ok(&o, "-c from stdin");
    assert_eq!(o.stdout, b"f: OK\n");
    // A line naming `-` checks standard input.
    let list = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  -\n";
    std::fs::write(d.join("L"), list).unwrap();
    let o = run_os(
        env!("CARGO_BIN_EXE_shyfr"),
        &[
            OsStr::new("hash"),
            OsStr::new("sha256"),
            OsStr::new("-c"),
            OsStr::new("L"),
        ],
        d,
        b"abc",
    );
    check_ok(&o, "- in a list");
    assert_eq!(o.stdout, b"-: OK\n");
}

/// `sh -c 'exec BIN ARGS <&-'` (or `>&-`): the command started with a closed descriptor.
fn with_closed(fd: &str, args: &[&str], dir: &Path) -> Output {
    let script = format!("exec \"$0\" \"$@\" {fd}&-");
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_shyfr"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn closed_descriptors_are_errors_like_coreutils() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("f"), b"abc").unwrap();
    // Closed stdin: sha256sum says "-: Bad file descriptor" and exits 1.
    let o = with_closed("<", &["hash", "sha256"], d);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err, "shyfr: hash: -: Bad file descriptor\n");
    // Redirected from /dev/null it is an empty input, as for sha256sum.
    let o = Command::new(env!("CARGO_BIN_EXE_shyfr"))
        .args(["hash", "sha256"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    check_ok(&o, "stdin /dev/null");
    assert!(o.stdout.starts_with(b"e3b0c442"));
    // Closed stdout: "write error: Bad file descriptor", exit 1.
    for args in [
        &["hash", "sha256", "f"][..],
        &["hash", "sha256", "-c", "nope"],
        &["mac", "hmac-sha256", "--key-hex", "00", "f"],
        &["cpu"],
        &["speed", "--list"],
        &[
            "enc",
            "-aes-128-ctr",
            "-K",
            "000102030405060708090a0b0c0d0e0f",
            "-iv",
            "000102030405060708090a0b0c0d0e0f",
            "-in",
            "f",
        ],
    ] {
        let o = with_closed(">", args, d);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {o:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("Bad file descriptor") || err.contains("nope"),
            "{args:?}: {err}"
        );
        assert!(err.starts_with("shyfr: "), "{args:?}: {err}");
    }
    // With --status and nothing to print, a closed stdout is no error (as for GNU).
    std::fs::write(
        d.join("L"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  f\n",
    )
    .unwrap();
    let o = with_closed(">", &["hash", "sha256", "--status", "-c", "L"], d);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
}

#[test]
fn broken_pipe_is_exit_1_with_a_message() {
    // The reader goes away before shyfr writes: EPIPE, not a silent success or a signal.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut child = Command::new(env!("CARGO_BIN_EXE_shyfr"))
        .args(["hash", "shake256", "--length", "10000000", "-"])
        .current_dir(d)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err, "shyfr: hash: write error: Broken pipe\n");
}

#[test]
fn non_utf8_names_are_hashed_not_refused() {
    let (dir, names) = awkward_dir();
    let bad = &names[3];
    assert!(bad.to_str().is_none());
    let o = shyfr_hash("sha256", &[], std::slice::from_ref(bad), dir.path());
    check_ok(&o, "non-UTF-8 name");
    assert!(o.stdout.ends_with(b"  \xff\xfe not utf-8\n"), "{o:?}");
}

#[test]
fn directories_and_missing_files_are_reported_and_the_rest_hashed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("sub")).unwrap();
    std::fs::write(d.join("f"), b"abc").unwrap();
    let o = run_os(
        env!("CARGO_BIN_EXE_shyfr"),
        &[
            OsStr::new("hash"),
            OsStr::new("sha256"),
            OsStr::new("sub"),
            OsStr::new("nope"),
            OsStr::new("f"),
        ],
        d,
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "shyfr: hash: sub: Is a directory\nshyfr: hash: nope: No such file or directory\n"
    );
    assert!(o.stdout.ends_with(b"  f\n"));
}

#[test]
fn huge_lengths_are_refused_and_long_ones_streamed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("f"), b"abc").unwrap();
    let key32 = "00".repeat(32);
    for args in [
        &["hash", "shake256", "--length", "18446744073709551615", "f"][..],
        &["hash", "shake256", "--length", "100000000000", "f"],
        &["hash", "shake128", "--length", "1073741825", "f"],
        &[
            "mac",
            "kmac128",
            "--key-hex",
            &key32,
            "--length",
            "18446744073709551615",
            "f",
        ],
        &[
            "mac",
            "kmac256",
            "--key-hex",
            &key32,
            "--length",
            "1048577",
            "f",
        ],
        &["hash", "shake256", "--length", "18446744073709551616", "f"],
        &["hash", "shake256", "--length", "-1", "f"],
    ] {
        let o = shyfr(args, d);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("--length"), "{args:?}: {err}");
    }
    // 20 MB of SHAKE output: streamed, and equal to a prefix of a longer output.
    let o = shyfr(&["hash", "shake256", "--length", "20000000", "f"], d);
    check_ok(&o, "20 MB of shake256");
    assert_eq!(o.stdout.len(), 40_000_000 + 4);
    let short = shyfr(&["hash", "shake256", "--length", "64", "f"], d);
    assert_eq!(&o.stdout[..128], &short.stdout[..128]);
    // 300 MB of output with 150 MB of address space: only possible when streamed.
    let o = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 150000 && \"$0\" hash shake128 --length 300000000 f | wc -c")
        .arg(env!("CARGO_BIN_EXE_shyfr"))
        .current_dir(d)
        .output()
        .unwrap();
    check_ok(&o, "300 MB of shake128 in 150 MB");
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        "600000004",
        "{o:?}"
    );
    // SHAKE256("abc"), the first 32 bytes (FIPS 202 example values).
    assert!(short
        .stdout
        .starts_with(b"483366601360a8771c6863080cc4114d"));
}

#[test]
fn kmac_key_length_says_the_minimum_and_why() {
    let dir = std::env::temp_dir();
    let o = shyfr(
        &["mac", "kmac256", "--key-hex", &"00".repeat(16), "-"],
        &dir,
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    for m in ["16 bytes", "at least 32", "security strength", "SP 800-185"] {
        assert!(err.contains(m), "{m:?} not in {err}");
    }
    let help = String::from_utf8_lossy(&shyfr(&["mac", "--help"], &dir).stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for m in ["KMAC128 at least 16", "KMAC256 at least 32"] {
        assert!(help.contains(m), "{m:?} not in --help:\n{help}");
    }
}
