//! `shyfr hash` and `shyfr mac` against the system's coreutils (`sha256sum` and friends).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shyfr(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shyfr"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run shyfr")
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
    let mut child = Command::new(env!("CARGO_BIN_EXE_shyfr"))
        .args(["hash", "sha256"])
        .current_dir(&dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"abc").unwrap();
    let out = child.wait_with_output().unwrap();
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

    // coreutils accepts our list too
    if let Some(c) = tool("sha256sum", &["--check", "SUMS"], &dir) {
        assert!(c.status.success());
    }

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
