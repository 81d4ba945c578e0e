//! `shyfr enc` against the `openssl enc` binary (byte for byte, both directions), plus GCM
//! and XTS (which `openssl enc` lacks) against NIST vectors, and the error cases.
//!
//! Tests that need the `openssl` command fail when it is not installed.

use std::path::PathBuf;
use std::process::{Command, Stdio};

mod common;
use common::{field, h, rsp_records, run_with, shyfr, unhex, Rng, BIN};

/// The lengths every mode is tried with.
const LENGTHS: [usize; 10] = [0, 1, 15, 16, 17, 31, 32, 33, 1000, 65537];

/// The comparisons with `openssl enc` need the `openssl` command (Debian package
/// `openssl`; `libssl-dev` does not bring it): without it they fail, so that a test that
/// compared nothing cannot pass.
fn require_openssl() {
    let ok = Command::new("openssl")
        .arg("version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(
        ok,
        "no working `openssl` command: install it (apt-get install openssl) to compare with it"
    );
}

/// Compares `shyfr enc` with `openssl enc` for one mode at every key size and length.
fn against_openssl(mode: &str, seed: u64) {
    require_openssl();
    let mut rng = Rng(seed);
    let pads = mode == "ecb" || mode == "cbc";
    for bits in [128, 192, 256] {
        let cipher = format!("-aes-{bits}-{mode}");
        for &len in &LENGTHS {
            let key = h(&rng.bytes(bits / 8));
            let iv = h(&rng.bytes(16));
            let pt = rng.bytes(len);
            let mut variants = vec![false];
            if pads {
                variants.push(true);
            }
            for nopad in variants {
                let mut args = vec![cipher.as_str(), "-K", key.as_str()];
                if mode != "ecb" {
                    args.extend(["-iv", iv.as_str()]);
                }
                if nopad {
                    args.push("-nopad");
                }
                let what = format!("{cipher} nopad={nopad} len={len}");
                let whole = len % 16 == 0;
                let ours = shyfr(&[&["enc"], &args[..]].concat(), &pt);
                if nopad && !whole {
                    assert_eq!(ours.code, 1, "{what}: {}", ours.stderr);
                    assert!(ours.stderr.contains("whole"), "{what}: {}", ours.stderr);
                    continue;
                }
                let theirs = run_with("openssl", &[&["enc"], &args[..]].concat(), &pt);
                assert_eq!(theirs.code, 0, "openssl {what}: {}", theirs.stderr);
                assert_eq!(ours.code, 0, "{what}: {}", ours.stderr);
                assert!(ours.stdout == theirs.stdout, "{what}: ciphertexts differ");

                let mut dargs = args.clone();
                dargs.push("-d");
                let back = shyfr(&[&["enc"], &dargs[..]].concat(), &theirs.stdout);
                assert_eq!(back.code, 0, "{what} -d: {}", back.stderr);
                assert!(back.stdout == pt, "{what}: shyfr -d of openssl's output");
                let theirs_back =
                    run_with("openssl", &[&["enc"], &dargs[..]].concat(), &ours.stdout);
                assert_eq!(
                    theirs_back.code, 0,
                    "openssl {what} -d: {}",
                    theirs_back.stderr
                );
                assert!(
                    theirs_back.stdout == pt,
                    "{what}: openssl -d of shyfr's output"
                );
            }
        }
    }
}

#[test]
fn ecb_matches_openssl() {
    against_openssl("ecb", 1);
}

#[test]
fn cbc_matches_openssl() {
    against_openssl("cbc", 2);
}

#[test]
fn cfb_matches_openssl() {
    against_openssl("cfb", 3);
}

#[test]
fn cfb8_matches_openssl() {
    against_openssl("cfb8", 4);
}

#[test]
fn ofb_matches_openssl() {
    against_openssl("ofb", 5);
}

#[test]
fn ctr_matches_openssl() {
    against_openssl("ctr", 6);
}

/// OpenSSL wraps the 128-bit CTR counter from all ones to zero; so does shyfr, also when
/// the wrap falls inside a chunk or a block.
#[test]
fn ctr_counter_wraps_like_openssl() {
    require_openssl();
    let mut rng = Rng(12);
    let key = h(&rng.bytes(16));
    let pt = rng.bytes(200_000);
    for iv in [
        "ffffffffffffffffffffffffffffffff",
        "fffffffffffffffffffffffffffffff0",
        "ffffffffffffffffffffffffffff0000",
        "00000000ffffffffffffffffffffffff",
    ] {
        for len in [1, 17, 33, 4097, 200_000] {
            let args = ["-aes-128-ctr", "-K", key.as_str(), "-iv", iv];
            let ours = shyfr(&[&["enc"], &args[..]].concat(), &pt[..len]);
            let theirs = run_with("openssl", &[&["enc"], &args[..]].concat(), &pt[..len]);
            assert_eq!(ours.code, 0, "{iv} {len}: {}", ours.stderr);
            assert!(ours.stdout == theirs.stdout, "{iv} {len}");
        }
    }
}

/// The portable backend gives the same bytes as openssl too.
#[test]
fn portable_backend_matches_openssl() {
    require_openssl();
    let mut rng = Rng(7);
    let (key, iv, pt) = (h(&rng.bytes(32)), h(&rng.bytes(16)), rng.bytes(1000));
    for mode in ["cbc", "ctr", "cfb"] {
        let cipher = format!("-aes-256-{mode}");
        let args = [cipher.as_str(), "-K", &key, "-iv", &iv];
        let ours = shyfr(&[&["--cpu", "portable", "enc"], &args[..]].concat(), &pt);
        let theirs = run_with("openssl", &[&["enc"], &args[..]].concat(), &pt);
        assert_eq!(ours.code, 0, "{}", ours.stderr);
        assert!(ours.stdout == theirs.stdout, "{mode}");
    }
}

/// A fresh scratch directory for file tests.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("shyfr-enc-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

#[test]
fn in_and_out_files() {
    let d = scratch("files");
    let mut rng = Rng(8);
    let pt = rng.bytes(200_000);
    let (key, iv) = (h(&rng.bytes(16)), h(&rng.bytes(16)));
    let (p, c, b) = (d.join("p"), d.join("c"), d.join("b"));
    std::fs::write(&p, &pt).unwrap();
    let (ps, cs, bs) = (
        p.to_str().unwrap(),
        c.to_str().unwrap(),
        b.to_str().unwrap(),
    );
    // `enc [-d] -aes-128-cbc -K key -iv iv -in FROM -out TO`
    let cbc = |dir: &str, from: &str, to: &str| {
        let mut args = vec![
            "enc",
            "-aes-128-cbc",
            "-K",
            &key,
            "-iv",
            &iv,
            "-in",
            from,
            "-out",
            to,
        ];
        if !dir.is_empty() {
            args.insert(1, dir);
        }
        shyfr(&args, b"")
    };
    let e = cbc("", ps, cs);
    assert_eq!(e.code, 0, "{}", e.stderr);
    assert!(e.stdout.is_empty());
    assert_eq!(std::fs::metadata(&c).unwrap().len(), 200_000 + 16);
    let d_ = cbc("-d", cs, bs);
    assert_eq!(d_.code, 0, "{}", d_.stderr);
    assert!(std::fs::read(&b).unwrap() == pt);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn gcm_round_trip() {
    let mut rng = Rng(9);
    for bits in [128, 192, 256] {
        let cipher = format!("-aes-{bits}-gcm");
        for &len in &LENGTHS {
            let key = h(&rng.bytes(bits / 8));
            let iv = h(&rng.bytes(12));
            let aad = h(&rng.bytes(len % 40));
            let pt = rng.bytes(len);
            let args = [cipher.as_str(), "-K", &key, "-iv", &iv, "-aad", &aad];
            let e = shyfr(&[&["enc"], &args[..]].concat(), &pt);
            assert_eq!(e.code, 0, "{}", e.stderr);
            assert_eq!(e.stdout.len(), len + 16, "{cipher} {len}: tag appended");
            let d = shyfr(&[&["enc", "-d"], &args[..]].concat(), &e.stdout);
            assert_eq!(d.code, 0, "{cipher} {len}: {}", d.stderr);
            assert!(d.stdout == pt, "{cipher} {len}");
        }
    }
}

/// NIST "The Galois/Counter Mode of Operation (GCM)" (McGrew, Viega), test cases 3 and 4.
#[test]
fn gcm_nist_spec_vectors() {
    let key = "feffe9928665731c6d6a8f9467308308";
    let iv = "cafebabefacedbaddecaf888";
    let pt = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72\
              1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255";
    let ct = "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e\
              21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985";
    // Test case 3: no AAD.
    let tag3 = "4d5c2af327cd64a62cf35abd2ba6fab4";
    let e = shyfr(&["enc", "-aes-128-gcm", "-K", key, "-iv", iv], &unhex(pt));
    assert_eq!(e.code, 0, "{}", e.stderr);
    assert_eq!(h(&e.stdout), format!("{ct}{tag3}"));
    // Test case 4: 60 bytes with AAD.
    let aad = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
    let tag4 = "5bc94fbc3221a5db94fae95ae7121a47";
    let args = ["-aes-128-gcm", "-K", key, "-iv", iv, "-aad", aad];
    let e = shyfr(&[&["enc"], &args[..]].concat(), &unhex(&pt[..120]));
    assert_eq!(e.code, 0, "{}", e.stderr);
    assert_eq!(h(&e.stdout), format!("{}{tag4}", &ct[..120]));
    let d = shyfr(
        &[&["enc", "-d"], &args[..]].concat(),
        &unhex(&format!("{}{tag4}", &ct[..120])),
    );
    assert_eq!(d.code, 0, "{}", d.stderr);
    assert_eq!(h(&d.stdout), &pt[..120]);
}

/// A tampered tag, ciphertext or AAD, or a wrong nonce: exit 1, and the output file is left
/// exactly as it was (not emptied, nothing written, no temporary file left behind).
#[test]
fn gcm_rejects_tampering_and_writes_nothing() {
    let dir = scratch("gcm");
    let mut rng = Rng(10);
    let key = h(&rng.bytes(32));
    let iv = h(&rng.bytes(12));
    let aad = h(&rng.bytes(20));
    let pt = rng.bytes(5000);
    let args = ["-aes-256-gcm", "-K", &key, "-iv", &iv, "-aad", &aad];
    let sealed = shyfr(&[&["enc"], &args[..]].concat(), &pt).stdout;
    let n = sealed.len();
    let out = dir.join("out");
    let outs = out.to_str().unwrap();
    let mut other_aad = unhex(&aad);
    other_aad[3] ^= 1;
    let other_aad = h(&other_aad);
    let mut other_iv = unhex(&iv);
    other_iv[0] ^= 0x80;
    let other_iv = h(&other_iv);
    let mut cases: Vec<(&str, Vec<u8>, Vec<&str>)> = Vec::new();
    let mut t = sealed.clone();
    t[n - 1] ^= 1;
    cases.push(("tag", t, args.to_vec()));
    let mut t = sealed.clone();
    t[100] ^= 0x40;
    cases.push(("ciphertext", t, args.to_vec()));
    cases.push((
        "aad",
        sealed.clone(),
        vec!["-aes-256-gcm", "-K", &key, "-iv", &iv, "-aad", &other_aad],
    ));
    cases.push((
        "no aad",
        sealed.clone(),
        vec!["-aes-256-gcm", "-K", &key, "-iv", &iv],
    ));
    cases.push((
        "nonce",
        sealed.clone(),
        vec!["-aes-256-gcm", "-K", &key, "-iv", &other_iv, "-aad", &aad],
    ));
    cases.push(("truncated", sealed[..n - 1].to_vec(), args.to_vec()));
    cases.push(("shorter than a tag", sealed[..15].to_vec(), args.to_vec()));
    for (what, input, a) in cases {
        // To a file: left as it was.
        let before = b"a file from an earlier run";
        std::fs::write(&out, before).unwrap();
        let r = shyfr(&[&["enc", "-d", "-out", outs], &a[..]].concat(), &input);
        assert_eq!(r.code, 1, "{what}: {}", r.stderr);
        assert!(
            r.stderr.contains("bad decrypt") || r.stderr.contains("tag"),
            "{what}: {}",
            r.stderr
        );
        assert_eq!(
            std::fs::read(&out).unwrap(),
            before,
            "{what}: output touched"
        );
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "{what}: a temporary file was left"
        );
        // To standard output: nothing.
        let r = shyfr(&[&["enc", "-d"], &a[..]].concat(), &input);
        assert_eq!(r.code, 1, "{what}");
        assert!(r.stdout.is_empty(), "{what}: plaintext on stdout");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn testdata(rel: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// NIST CAVP XTSGenAES128/256 (tweak as a hex string) through the command: the first 20
/// byte-unit records of each section, `ENCRYPT` and `DECRYPT`.
#[test]
fn xts_cavp_vectors() {
    const PER_SECTION: usize = 20;
    for (file, cipher) in [
        ("XTSGenAES128.rsp", "-aes-128-xts"),
        ("XTSGenAES256.rsp", "-aes-256-xts"),
    ] {
        let text = testdata(&format!("aes-modes/XTS/tweak-128hexstr/{file}"));
        let mut checked = std::collections::BTreeMap::<String, usize>::new();
        for (section, rec) in rsp_records(&text) {
            let bits: usize = field(&rec, "DataUnitLen").parse().unwrap();
            let n = checked.entry(section.clone()).or_default();
            if !bits.is_multiple_of(8) || *n >= PER_SECTION {
                continue;
            }
            *n += 1;
            let (key, tweak) = (field(&rec, "Key"), field(&rec, "i"));
            let (pt, ct) = (unhex(field(&rec, "PT")), unhex(field(&rec, "CT")));
            let what = format!("{file} {section} COUNT {}", field(&rec, "COUNT"));
            let (dir, input, want): (&[&str], _, _) = if section == "ENCRYPT" {
                (&[], &pt, &ct)
            } else {
                (&["-d"], &ct, &pt)
            };
            let args = [&["enc", cipher, "-K", key, "-iv", tweak], dir].concat();
            let r = shyfr(&args, input);
            assert_eq!(r.code, 0, "{what}: {}", r.stderr);
            assert!(&r.stdout == want, "{what}");
        }
        let want: std::collections::BTreeMap<String, usize> = [
            ("DECRYPT".to_string(), PER_SECTION),
            ("ENCRYPT".to_string(), PER_SECTION),
        ]
        .into();
        assert_eq!(checked, want, "{file}: records per section");
    }
}

#[test]
fn xts_round_trip_and_limits() {
    let mut rng = Rng(11);
    let key = h(&rng.bytes(64));
    let tweak = h(&rng.bytes(16));
    for len in [16, 17, 31, 512, 4096, 65537] {
        let pt = rng.bytes(len);
        let args = ["-aes-256-xts", "-K", &key, "-iv", &tweak];
        let e = shyfr(&[&["enc"], &args[..]].concat(), &pt);
        assert_eq!(e.code, 0, "{}", e.stderr);
        assert_eq!(e.stdout.len(), len);
        let d = shyfr(&[&["enc", "-d"], &args[..]].concat(), &e.stdout);
        assert!(d.stdout == pt, "{len}");
    }
    let r = shyfr(
        &["enc", "-aes-256-xts", "-K", &key, "-iv", &tweak],
        &[0; 15],
    );
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("at least 16"), "{}", r.stderr);
    let same = "11".repeat(32);
    let dir = scratch("xts");
    let out = dir.join("out");
    let outs = out.to_str().unwrap();
    let r = shyfr(
        &[
            "enc",
            "-aes-128-xts",
            "-K",
            &same,
            "-iv",
            &tweak,
            "-out",
            outs,
        ],
        &[0; 32],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("must differ"), "{}", r.stderr);
    assert!(!out.exists(), "a usage error creates no output file");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Decrypting with padding a message whose last plaintext byte is 0 is a bad decrypt.
#[test]
fn bad_padding_is_exit_1() {
    let key = "00112233445566778899aabbccddeeff";
    let iv = "0f0e0d0c0b0a09080706050403020100";
    for (cipher, ivargs) in [("-aes-128-cbc", vec!["-iv", iv]), ("-aes-128-ecb", vec![])] {
        let base = [&[cipher, "-K", key], &ivargs[..]].concat();
        let ct = shyfr(&[&["enc", "-nopad"], &base[..]].concat(), &[0u8; 32]);
        assert_eq!(ct.code, 0, "{}", ct.stderr);
        let r = shyfr(&[&["enc", "-d"], &base[..]].concat(), &ct.stdout);
        assert_eq!(r.code, 1, "{cipher}");
        assert!(r.stderr.contains("bad decrypt"), "{cipher}: {}", r.stderr);
        // Not whole blocks, and empty, with padding: also a bad decrypt.
        for input in [&ct.stdout[..20], &[][..]] {
            let r = shyfr(&[&["enc", "-d"], &base[..]].concat(), input);
            assert_eq!(r.code, 1, "{cipher} {} bytes", input.len());
        }
    }
}

#[test]
fn usage_errors_exit_2() {
    let k16 = "00".repeat(16);
    let k32 = "00".repeat(32);
    let iv = "00".repeat(16);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["-aes-512-cbc", "-K", &k16, "-iv", &iv], "-list"),
        (vec!["-des-cbc", "-K", &k16, "-iv", &iv], "unknown cipher"),
        (vec!["-blowfish", "-K", &k16, "-iv", &iv], "unknown option"),
        (vec!["-K", &k16, "-iv", &iv], "no cipher"),
        (vec!["-aes-128-cbc", "-iv", &iv], "-K"),
        (vec!["-aes-128-cbc", "-K", "abc", "-iv", &iv], "odd"),
        (
            vec!["-aes-128-cbc", "-K", "0011", "-iv", &iv],
            "expected exactly 32",
        ),
        (
            vec!["-aes-128-cbc", "-K", &k32, "-iv", &iv],
            "expected exactly 32",
        ),
        (
            vec!["-aes-256-cbc", "-K", &k16, "-iv", &iv],
            "expected exactly 64",
        ),
        (vec!["-aes-128-cbc", "-K", "zz", "-iv", &iv], "hex"),
        (vec!["-aes-128-cbc", "-K", &k16], "-iv"),
        (
            vec!["-aes-128-cbc", "-K", &k16, "-iv", "0011"],
            "expected exactly 32",
        ),
        (
            vec!["-aes-128-xts", "-K", &k16, "-iv", &iv],
            "expected exactly 64",
        ),
        (
            vec!["-aes-128-cbc", "-K", &k16, "-iv", &iv, "-aad", "00"],
            "-aad",
        ),
        (
            vec!["-aes-128-cbc", "-K", &k16, "-iv", &iv, "-bogus"],
            "unknown option",
        ),
        (vec!["-aes-128-cbc", "-K"], "needs a value"),
        (vec!["-aes-128-cbc", "-k", "password"], "-K"),
    ];
    for (args, needle) in cases {
        let r = shyfr(&[&["enc"], &args[..]].concat(), b"data");
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains(needle),
            "{args:?}: {:?} lacks {needle:?}",
            r.stderr
        );
        assert!(r.stdout.is_empty(), "{args:?}");
        // One short line in the one style.
        let err = &r.stderr;
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("shyfr: enc: "), "{args:?}: {err}");
        assert!(err.len() < 200, "{args:?}: {} characters: {err}", err.len());
    }
}

#[test]
fn help_lists_ciphers_and_strictness() {
    let r = shyfr(&["enc", "-help"], b"");
    assert_eq!(r.code, 0);
    let text = String::from_utf8(r.stdout).unwrap();
    for s in [
        "-aes-256-cbc",
        "-aes-128-cfb8",
        "-aes-256-gcm",
        "-aes-256-xts",
        "NOT padded",
    ] {
        assert!(text.contains(s), "help lacks {s}");
    }
}

/// `-out` naming the `-in` file (or a hard link to it) is refused before anything is
/// written: the file keeps its contents (it used to be left empty, with exit status 0).
#[test]
fn output_over_its_own_input_is_refused() {
    let d = scratch("same");
    let x = d.join("x");
    let link = d.join("link");
    std::fs::write(&x, b"precious").unwrap();
    std::fs::hard_link(&x, &link).unwrap();
    let k = "000102030405060708090a0b0c0d0e0f";
    let xs = x.to_str().unwrap();
    for out in [xs, link.to_str().unwrap()] {
        for cipher in ["-aes-128-cbc", "-aes-128-gcm", "-aes-128-ctr"] {
            let iv = if cipher.ends_with("gcm") { &k[..24] } else { k };
            let r = shyfr(
                &["enc", cipher, "-K", k, "-iv", iv, "-in", xs, "-out", out],
                b"",
            );
            assert_eq!(r.code, 2, "{cipher} -out {out}: {}", r.stderr);
            assert!(r.stderr.contains("same file"), "{}", r.stderr);
            assert_eq!(std::fs::read(&x).unwrap(), b"precious");
        }
    }
    assert_eq!(
        std::fs::read_dir(&d).unwrap().count(),
        2,
        "no temporary file left"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// Any failure leaves an existing `-out` file as it was: a bad padding found at the end of
/// a streamed CBC decryption, an XTS input too short, unreadable input; a success replaces
/// it whole.
#[test]
fn failures_leave_the_output_file_as_it_was() {
    let d = scratch("atomic");
    let out = d.join("out");
    let outs = out.to_str().unwrap();
    let key = "00112233445566778899aabbccddeeff";
    let iv = "0f0e0d0c0b0a09080706050403020100";
    // 200 KB whose last block does not unpad: the earlier blocks stream out first.
    let ct = shyfr(
        &["enc", "-aes-128-cbc", "-nopad", "-K", key, "-iv", iv],
        &vec![0u8; 200_000],
    );
    assert_eq!(ct.code, 0);
    let before = b"an earlier result";
    let xts_key = format!("{}{}", "01".repeat(16), "02".repeat(16));
    let cases: Vec<(Vec<&str>, Vec<u8>)> = vec![
        (
            vec!["-d", "-aes-128-cbc", "-K", key, "-iv", iv],
            ct.stdout.clone(),
        ),
        (vec!["-aes-128-xts", "-K", &xts_key, "-iv", iv], vec![0; 15]),
        (
            vec![
                "-aes-128-cbc",
                "-K",
                key,
                "-iv",
                iv,
                "-in",
                "/nonexistent/in",
            ],
            vec![],
        ),
        (
            vec!["-d", "-a", "-aes-128-cbc", "-K", key, "-iv", iv],
            b"not base64!".to_vec(),
        ),
    ];
    for (args, input) in cases {
        std::fs::write(&out, before).unwrap();
        let r = shyfr(&[&["enc", "-out", outs], &args[..]].concat(), &input);
        assert_ne!(r.code, 0, "{args:?}");
        assert_eq!(
            std::fs::read(&out).unwrap(),
            before,
            "{args:?}: {}",
            r.stderr
        );
        assert_eq!(
            std::fs::read_dir(&d).unwrap().count(),
            1,
            "{args:?}: temp left"
        );
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
        assert!(r.stderr.starts_with("shyfr: enc: "), "{}", r.stderr);
        assert!(!r.stderr.contains("os error"), "{}", r.stderr);
    }
    let r = shyfr(
        &["enc", "-aes-128-ctr", "-K", key, "-iv", iv, "-out", outs],
        b"new",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(std::fs::read(&out).unwrap().len(), 3);
    // A destination that is not a regular file is written in place; a folder is refused.
    let r = shyfr(
        &[
            "enc",
            "-aes-128-ctr",
            "-K",
            key,
            "-iv",
            iv,
            "-out",
            "/dev/null",
        ],
        b"x",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let ds = d.to_str().unwrap();
    let r = shyfr(
        &["enc", "-aes-128-ctr", "-K", key, "-iv", iv, "-out", ds],
        b"x",
    );
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("Is a directory"), "{}", r.stderr);
    let r = shyfr(
        &["enc", "-aes-128-ctr", "-K", key, "-iv", iv, "-in", ds],
        b"",
    );
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("Is a directory"), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&d);
}

/// `-a` / `-base64` (and `-A`) write what `openssl enc -a` writes and read what it writes,
/// in both directions.
#[test]
fn base64_matches_openssl() {
    require_openssl();
    let mut rng = Rng(77);
    let mut compared = 0;
    for &len in &[0usize, 1, 2, 3, 47, 48, 49, 95, 96, 1000, 70_000] {
        let key = h(&rng.bytes(16));
        let iv = h(&rng.bytes(16));
        let pt = rng.bytes(len);
        for flags in [&["-a"][..], &["-base64"], &["-a", "-A"]] {
            let args = [&["enc", "-aes-128-cbc", "-K", &key, "-iv", &iv], flags].concat();
            let ours = shyfr(&args, &pt);
            assert_eq!(ours.code, 0, "{}", ours.stderr);
            let theirs = run_with("openssl", &args, &pt);
            assert_eq!(theirs.code, 0);
            assert!(
                ours.stdout == theirs.stdout,
                "{len} {flags:?}: base64 differs"
            );
            let mut dargs = args.clone();
            dargs.push("-d");
            let back = shyfr(&dargs, &theirs.stdout);
            assert_eq!(back.code, 0, "{len} {flags:?}: {}", back.stderr);
            assert!(back.stdout == pt, "{len} {flags:?}");
            compared += 1;
        }
    }
    assert_eq!(compared, 33);
    // Decoding takes any line length and refuses what is not base64.
    let k = "000102030405060708090a0b0c0d0e0f";
    let one_line = shyfr(
        &["enc", "-aes-128-ctr", "-K", k, "-iv", k, "-a", "-A"],
        &[7; 300],
    );
    let back = shyfr(
        &["enc", "-d", "-aes-128-ctr", "-K", k, "-iv", k, "-a"],
        &one_line.stdout,
    );
    assert_eq!(back.stdout, vec![7; 300]);
    let bad = shyfr(
        &["enc", "-d", "-aes-128-ctr", "-K", k, "-iv", k, "-a"],
        b"ab!d\n",
    );
    assert_eq!(bad.code, 1);
    assert!(bad.stderr.contains("not base64"), "{}", bad.stderr);
    let r = shyfr(&["enc", "-aes-128-ctr", "-K", k, "-iv", k, "-A"], b"");
    assert_eq!(r.code, 2, "-A without -a");
}

/// `-list` names every cipher, one per line, and each one works.
#[test]
fn list_names_the_ciphers() {
    let r = shyfr(&["enc", "-list"], b"");
    assert_eq!(r.code, 0);
    let text = String::from_utf8(r.stdout).unwrap();
    let ciphers: Vec<&str> = text.lines().collect();
    // AES: 23; Kalyna: 5 variants x 5 modes; GOST 28147-89: 3; triple DES: 2.
    assert_eq!(ciphers.len(), 23 + 25 + 3 + 2, "{text}");
    for c in ciphers {
        let bits: Vec<usize> = c.split('-').filter_map(|p| p.parse().ok()).collect();
        let (klen, block) = if c.starts_with("-kalyna") {
            (bits[1] / 8, bits[0] / 8)
        } else if c.starts_with("-gost28147") {
            (32, 8)
        } else if c.starts_with("-des-ede3") {
            (24, 8)
        } else {
            (bits[0] / 8, 16)
        };
        let klen = if c.ends_with("xts") { 2 * klen } else { klen };
        let key: String = (0..klen).map(|i| format!("{:02x}", i + 1)).collect();
        let iv = if c.ends_with("gcm") {
            "00".repeat(12)
        } else {
            "00".repeat(block)
        };
        let mut args = vec!["enc", c, "-K", &key];
        if !c.ends_with("ecb") {
            args.extend(["-iv", &iv]);
        }
        let r = shyfr(&args, &[1u8; 32]);
        assert_eq!(r.code, 0, "{c}: {}", r.stderr);
    }
}

/// A closed standard input is "Bad file descriptor", not an empty message.
#[test]
fn closed_stdin_is_an_error() {
    let k = "000102030405060708090a0b0c0d0e0f";
    let o = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" <&-")
        .arg(BIN)
        .args(["enc", "-aes-128-cbc", "-K", k, "-iv", k])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "shyfr: enc: cannot read standard input: Bad file descriptor\n"
    );
}
