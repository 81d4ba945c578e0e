//! `shyfr keygen rsa-BITS`, `shyfr sign` and `shyfr verify` end to end, as separate
//! processes, against the `openssl` command both ways (a missing `openssl` is a failure):
//! keys shyfr writes are read by OpenSSL and the other way round, PKCS#1 v1.5 signatures are
//! byte-identical to `openssl dgst -sign`, PSS signatures verify across the two; each on
//! every big-integer backend the machine has (a `--cpu` override per backend, confirmed by
//! `shyfr cpu --json`). Then the refusals: tampered files and signatures, wrong keys, bad key
//! files, keys too small for the hash, overwriting, the speed rows.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

mod common;

const BIN: &str = env!("CARGO_BIN_EXE_shyfr");

/// Runs `prog args` in `dir` (no SHYFR_CPU from the environment).
fn run(prog: &str, args: &[&str], dir: &Path) -> Output {
    Command::new(prog)
        .args(args)
        .current_dir(dir)
        .env_remove("SHYFR_CPU")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot start {prog} (install it: apt-get install {prog}): {e}"))
}

/// `shyfr [--cpu SPEC] args` in `dir`.
fn shyfr(spec: Option<&str>, args: &[&str], dir: &Path) -> Output {
    let mut all: Vec<&str> = Vec::new();
    if let Some(s) = spec {
        all.extend(["--cpu", s]);
    }
    all.extend(args);
    run(BIN, &all, dir)
}

fn ok(o: Output, what: &str) -> Vec<u8> {
    assert!(
        o.status.success(),
        "{what}: status {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    o.stdout
}

fn openssl(args: &[&str], dir: &Path) -> Vec<u8> {
    ok(run("openssl", args, dir), &format!("openssl {args:?}"))
}

/// (status code, standard output, standard error).
fn code(o: &Output) -> (i32, String, String) {
    (
        o.status.code().expect("exited normally"),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn scratch(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("shyfr-rsa-{tag}-"))
        .tempdir()
        .unwrap()
}

/// A message of `n` bytes that is not all one value.
fn message(dir: &Path, name: &str, n: usize) {
    let data: Vec<u8> = (0..n as u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    std::fs::write(dir.join(name), data).unwrap();
}

#[test]
fn shyfr_keys_and_signatures_interoperate_with_openssl_on_every_backend() {
    let d = scratch("interop");
    let dir = d.path();
    message(dir, "msg", 100_003);
    message(dir, "empty", 0);
    let backends = common::backend_specs("rsa");
    assert!(backends.iter().any(|(n, _)| n == "soft"), "no soft backend");
    // One key of shyfr's (read by OpenSSL) and one of OpenSSL's (read by shyfr).
    ok(
        shyfr(
            None,
            &["keygen", "rsa-2048", "-o", "k.pem", "--pub", "p.pem"],
            dir,
        ),
        "keygen",
    );
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(dir.join("k.pem")).unwrap().permissions(),
    );
    assert_eq!(mode & 0o777, 0o600, "private key file mode");
    let text = openssl(&["pkey", "-in", "k.pem", "-noout", "-text"], dir);
    assert!(
        String::from_utf8_lossy(&text).contains("2048 bit"),
        "openssl reads the key"
    );
    let pub_ossl = openssl(&["pkey", "-in", "k.pem", "-pubout"], dir);
    assert_eq!(pub_ossl, std::fs::read(dir.join("p.pem")).unwrap());
    openssl(
        &[
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:1536",
            "-out",
            "ok.pem",
        ],
        dir,
    );
    openssl(&["pkey", "-in", "ok.pem", "-pubout", "-out", "op.pem"], dir);
    openssl(
        &[
            "rsa",
            "-in",
            "ok.pem",
            "-traditional",
            "-outform",
            "DER",
            "-out",
            "ok1.der",
        ],
        dir,
    );

    let mut checked = 0;
    for (backend, spec) in &backends {
        for (key, public, hash, file) in [
            ("k.pem", "p.pem", "sha256", "msg"),
            ("k.pem", "p.pem", "sha3-384", "empty"),
            ("ok.pem", "op.pem", "sha512", "msg"),
            ("ok1.der", "op.pem", "sha1", "msg"),
        ] {
            let what = format!("{backend} {key} {hash} {file}");
            // PKCS#1 v1.5: deterministic, so byte-identical to OpenSSL's.
            let sig = ok(
                shyfr(Some(spec), &["sign", "-k", key, "--hash", hash, file], dir),
                &what,
            );
            std::fs::write(dir.join("s.sig"), &sig).unwrap();
            let dash_hash = format!("-{hash}");
            let mut a = vec!["dgst", &dash_hash, "-sign", key];
            if key.ends_with(".der") {
                a.extend(["-keyform", "DER"]);
            }
            a.push(file);
            let theirs = openssl(&a, dir);
            assert_eq!(sig, theirs, "{what}: PKCS#1 v1.5 signature");
            let v = ok(
                shyfr(
                    Some(spec),
                    &["verify", "-p", public, "-s", "s.sig", "--hash", hash, file],
                    dir,
                ),
                &what,
            );
            assert_eq!(v, b"Verified OK\n", "{what}");
            // PSS both ways: shyfr's verified by OpenSSL, OpenSSL's (maximal salt) by shyfr.
            ok(
                shyfr(
                    Some(spec),
                    &[
                        "sign", "-k", key, "--hash", hash, "--pss", "-o", "pss.sig", file,
                    ],
                    dir,
                ),
                &what,
            );
            openssl(
                &[
                    "dgst",
                    &format!("-{hash}"),
                    "-sigopt",
                    "rsa_padding_mode:pss",
                    "-sigopt",
                    "rsa_pss_saltlen:digest",
                    "-verify",
                    public,
                    "-signature",
                    "pss.sig",
                    file,
                ],
                dir,
            );
            openssl(
                &[
                    "dgst",
                    &format!("-{hash}"),
                    "-sigopt",
                    "rsa_padding_mode:pss",
                    "-sigopt",
                    "rsa_pss_saltlen:max",
                    "-sign",
                    "ok.pem",
                    "-out",
                    "opss.sig",
                    file,
                ],
                dir,
            );
            for salt in [&["--saltlen", "auto"][..], &["--saltlen", "max"], &[]] {
                let mut args = vec![
                    "verify", "-p", "op.pem", "-s", "opss.sig", "--hash", hash, "--pss",
                ];
                args.extend(salt);
                args.push(file);
                let o = shyfr(Some(spec), &args, dir);
                assert_eq!(code(&o).0, 0, "{what} {salt:?}: {}", code(&o).2);
            }
            // A salt length that is not the signature's is a verification failure.
            let o = shyfr(
                Some(spec),
                &[
                    "verify",
                    "-p",
                    "op.pem",
                    "-s",
                    "opss.sig",
                    "--hash",
                    hash,
                    "--pss",
                    "--saltlen",
                    "digest",
                    file,
                ],
                dir,
            );
            assert_eq!(code(&o).0, 1, "{what}: wrong salt length accepted");
            checked += 1;
        }
    }
    assert_eq!(checked, 4 * backends.len());
}

#[test]
fn changes_are_verification_failures() {
    let d = scratch("tamper");
    let dir = d.path();
    message(dir, "msg", 5000);
    ok(
        shyfr(
            None,
            &["keygen", "rsa-1024", "-o", "k.pem", "--pub", "p.pem"],
            dir,
        ),
        "keygen",
    );
    ok(
        shyfr(
            None,
            &["keygen", "rsa-1024", "--pub", "other.pem", "-o", "o.pem"],
            dir,
        ),
        "keygen",
    );
    for pss in [false, true] {
        let p: &[&str] = if pss { &["--pss"] } else { &[] };
        let sign = [&["sign", "-k", "k.pem", "-o", "s.sig"][..], p, &["msg"]].concat();
        ok(shyfr(None, &sign, dir), "sign");
        let verify = |public: &str, file: &str| {
            let a = [&["verify", "-p", public, "-s", "s.sig"][..], p, &[file]].concat();
            code(&shyfr(None, &a, dir))
        };
        assert_eq!(verify("p.pem", "msg").0, 0);
        // The private key is taken for verification too.
        assert_eq!(verify("k.pem", "msg").0, 0);
        let wrong = verify("other.pem", "msg");
        assert_eq!((wrong.0, wrong.1.as_str()), (1, "Verification failure\n"));
        assert!(
            wrong.2.starts_with("shyfr: verify: msg: ") && wrong.2.contains("does not match"),
            "{}",
            wrong.2
        );
        let sig = std::fs::read(dir.join("s.sig")).unwrap();
        let msg = std::fs::read(dir.join("msg")).unwrap();
        for i in [0, 1, 2499, 4999] {
            let mut m = msg.clone();
            m[i] ^= 0x10;
            std::fs::write(dir.join("m2"), &m).unwrap();
            let r = verify("p.pem", "m2");
            assert_eq!(
                (r.0, r.1.as_str()),
                (1, "Verification failure\n"),
                "byte {i}"
            );
        }
        for i in [0, 64, 127] {
            let mut s = sig.clone();
            s[i] ^= 1;
            std::fs::write(dir.join("s.sig"), &s).unwrap();
            let r = verify("p.pem", "msg");
            assert_eq!(r.0, 1, "signature byte {i}");
        }
        // Another hash than the signer's.
        std::fs::write(dir.join("s.sig"), &sig).unwrap();
        let a = [
            &["verify", "-p", "p.pem", "-s", "s.sig", "--hash", "sha384"][..],
            p,
            &["msg"],
        ]
        .concat();
        assert_eq!(code(&shyfr(None, &a, dir)).0, 1);
        // A signature of the wrong length is an error with a message, not a crash.
        std::fs::write(dir.join("s.sig"), &sig[1..]).unwrap();
        let r = verify("p.pem", "msg");
        assert_eq!(r.0, 1);
        assert!(r.2.contains("shyfr: verify"), "{}", r.2);
    }
}

#[test]
fn bad_keys_and_arguments_are_clear_errors() {
    let d = scratch("bad");
    let dir = d.path();
    message(dir, "msg", 100);
    std::fs::write(dir.join("empty.pem"), b"").unwrap();
    std::fs::write(
        dir.join("junk.pem"),
        b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    )
    .unwrap();
    ok(
        shyfr(
            None,
            &["keygen", "rsa-512", "-o", "small.pem", "--pub", "sp.pem"],
            dir,
        ),
        "keygen",
    );
    let cases: &[(&[&str], i32, &str)] = &[
        (&["keygen", "rsa-100"], 2, "512 to 16384"),
        (&["keygen", "rsa-16385"], 2, "512 to 16384"),
        (&["keygen", "dsa-1024"], 2, ""),
        (&["sign", "-k", "missing.pem", "msg"], 1, "missing.pem"),
        (&["sign", "-k", "empty.pem", "msg"], 1, "empty"),
        (&["sign", "-k", "junk.pem", "msg"], 1, "junk.pem"),
        (&["sign", "-k", "msg", "msg"], 1, "not an RSA key"),
        // A public key cannot sign.
        (&["sign", "-k", "sp.pem", "msg"], 1, "private"),
        // SHA-512's DigestInfo does not fit a 512-bit modulus.
        (
            &["sign", "-k", "small.pem", "--hash", "sha512", "msg"],
            1,
            "too small",
        ),
        (
            &[
                "sign",
                "-k",
                "small.pem",
                "--pss",
                "--hash",
                "sha512",
                "msg",
            ],
            1,
            "too small",
        ),
        (&["sign", "-k", "small.pem", "--hash", "md5", "msg"], 2, ""),
        (
            &["sign", "-k", "small.pem", "--saltlen", "3", "msg"],
            2,
            "--pss",
        ),
        (
            &["sign", "-k", "small.pem", "-o", "small.pem", "msg"],
            2,
            "key file",
        ),
        (&["verify", "-p", "sp.pem", "msg"], 2, "--signature"),
        (
            &["verify", "-p", "sp.pem", "-s", "missing.sig", "msg"],
            1,
            "missing.sig",
        ),
        (&["verify", "-p", "sp.pem", "-s", "msg", "missing"], 1, ""),
    ];
    for (args, want, needle) in cases {
        let (c, _, err) = code(&shyfr(None, args, dir));
        assert_eq!(c, *want, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // The key file was not replaced by `-o small.pem`, nor is a key replaced without -f.
    assert!(std::fs::read_to_string(dir.join("small.pem"))
        .unwrap()
        .starts_with("-----BEGIN PRIVATE KEY-----"));
    let before = std::fs::read(dir.join("small.pem")).unwrap();
    let (c, _, err) = code(&shyfr(None, &["keygen", "rsa-512", "-o", "small.pem"], dir));
    assert_eq!(c, 1, "{err}");
    assert_eq!(std::fs::read(dir.join("small.pem")).unwrap(), before);
    ok(
        shyfr(None, &["keygen", "rsa-512", "-o", "small.pem", "-f"], dir),
        "keygen -f",
    );
    assert_ne!(std::fs::read(dir.join("small.pem")).unwrap(), before);
}

#[test]
fn speed_rows_sign_and_verify() {
    let d = scratch("speed");
    let dir = d.path();
    let out = ok(
        shyfr(
            None,
            &["speed", "rsa1024", "--seconds", "0.05", "--json"],
            dir,
        ),
        "speed rsa1024",
    );
    let v: Value = serde_json::from_slice(&out).unwrap();
    let text = v.to_string();
    assert!(text.contains("rsa1024"), "{text}");
}
