//! Property test of the argument parser: arbitrary command lines for every subcommand go
//! through clap (or `enc`'s own parser) and the checks each command makes before running,
//! and never panic. Each line is built from the subcommand's own option names and
//! algorithm names mixed with hostile values: huge, negative and malformed numbers, empty
//! strings, control characters, arbitrary text and bytes that are not UTF-8.

use std::ffi::OsString;

use proptest::prelude::*;

use crate::{check, parse_args, Parsed};

/// Option names and other words each subcommand knows.
fn words(sub: &str) -> Vec<&'static str> {
    let mut w: Vec<&'static str> = match sub {
        "cpu" => vec!["--json"],
        "speed" => vec![
            "--list",
            "--sizes",
            "--seconds",
            "--trials",
            "--threads",
            "--parallel",
            "--compare",
            "--backend",
            "--decrypt",
            "--ghz",
            "--json",
            "--csv",
            "--plot",
            "portable",
            "all",
            "x.svg",
            "/nonexistent/x.png",
            "16,64",
            "8",
        ],
        "hash" => vec![
            "-c",
            "--check",
            "-b",
            "-t",
            "--tag",
            "-z",
            "--zero",
            "--length",
            "--sbox",
            "test",
            "--ignore-missing",
            "--quiet",
            "--status",
            "--strict",
            "-w",
            "-",
            "--",
        ],
        "mac" => vec![
            "--key-hex",
            "--customization",
            "--length",
            "--sbox",
            "dke1",
            "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
            "00",
            "-",
        ],
        "encrypt" | "decrypt" | "keygen" => vec![
            "-k",
            "--key-file",
            "-o",
            "--output",
            "-f",
            "--force",
            "--cipher",
            "aes-128-gcm",
            "kalyna-256-256-gcm",
            "--passphrase-fd",
            "--threads",
            "--stats",
            "--no-progress",
            "--argon2-memory",
            "--argon2-passes",
            "--argon2-lanes",
            "--pub",
            "rsa-512",
            "rsa-16385",
            "rsa",
            "-",
        ],
        "sign" | "verify" => vec![
            "-k",
            "--key",
            "-p",
            "--pub",
            "-s",
            "--signature",
            "--hash",
            "sha384",
            "kupyna-256",
            "--pss",
            "--saltlen",
            "digest",
            "max",
            "auto",
            "-o",
            "-",
        ],
        _ => vec![
            "-e",
            "-d",
            "-nopad",
            "-a",
            "-base64",
            "-A",
            "-K",
            "-iv",
            "-aad",
            "-in",
            "-out",
            "-list",
            "-help",
            "--cpu",
            "-k",
            "-pass",
            "-aes-512-cbc",
            "-aes-128-cfb128",
            "-sbox",
            "-segment",
            "-kalyna-512-256-cbc",
            "-gost28147-mac",
            "000102030405060708090a0b0c0d0e0f",
            "000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f",
            "000102030405060708090a0b",
        ],
    };
    w.extend([
        "--help",
        "-h",
        "--version",
        "--cpu",
        "--cpu=portable",
        "portable",
        "native",
        "-aes,-vaes",
        "+nope",
    ]);
    w
}

/// Values that have broken command lines before.
const HOSTILE: &[&str] = &[
    "",
    " ",
    "0",
    "-1",
    "-0",
    "1",
    "16",
    "1e-9",
    "1e300",
    "-1e300",
    "nan",
    "inf",
    "-inf",
    "0.001",
    "0x10",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "100000000000",
    "1073741825",
    "4294967296",
    "9223372036854775807",
    "1,2,,3",
    ",",
    "16,",
    "all",
    "ALL",
    "=",
    "--",
    "-",
    "\n",
    "\u{0}",
    "\u{7f}",
    "é",
    "zz",
    "0g",
];

/// One argument: a known word, an algorithm name (or a mangled one), a hostile value,
/// arbitrary text, or bytes that are not UTF-8.
fn arg(sub: &'static str) -> impl Strategy<Value = OsString> {
    let names: Vec<String> = crate::algorithms::ALGORITHMS
        .iter()
        .flat_map(|a| [a.name.to_string(), format!("-{}", a.name)])
        .collect();
    prop_oneof![
        4 => proptest::sample::select(words(sub)).prop_map(OsString::from),
        2 => proptest::sample::select(names).prop_map(OsString::from),
        3 => proptest::sample::select(HOSTILE).prop_map(OsString::from),
        1 => ".{0,24}".prop_map(OsString::from),
        1 => proptest::collection::vec(any::<u8>(), 0..12).prop_map(|b| crate::report::os_from_bytes(&b)),
    ]
}

fn argv(sub: &'static str) -> impl Strategy<Value = Vec<OsString>> {
    (
        proptest::option::of(proptest::sample::select(HOSTILE)),
        proptest::collection::vec(arg(sub), 0..10),
    )
        .prop_map(move |(cpu, rest)| {
            let mut v = vec![OsString::from("shyfr")];
            if let Some(c) = cpu {
                v.push("--cpu".into());
                v.push(c.into());
            }
            v.push(sub.into());
            v.extend(rest);
            v
        })
}

/// Parses and checks; the result does not matter, only that there is one.
fn parse_and_check(argv: Vec<OsString>) -> bool {
    match parse_args(argv) {
        Ok(Parsed::Run(cli)) => check(&cli).is_ok(),
        Ok(Parsed::Print(text)) => !text.is_empty(),
        Err(e) => {
            assert!(
                matches!(e, crate::CliError::Usage(ref m) if !m.is_empty()),
                "a parse error is a usage error with a message: {e:?}"
            );
            false
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn cpu_never_panics(a in argv("cpu")) { parse_and_check(a); }

    #[test]
    fn speed_never_panics(a in argv("speed")) { parse_and_check(a); }

    #[test]
    fn hash_never_panics(a in argv("hash")) { parse_and_check(a); }

    #[test]
    fn mac_never_panics(a in argv("mac")) { parse_and_check(a); }

    #[test]
    fn enc_never_panics(a in argv("enc")) { parse_and_check(a); }

    #[test]
    fn encrypt_never_panics(a in argv("encrypt")) { parse_and_check(a); }

    #[test]
    fn decrypt_never_panics(a in argv("decrypt")) { parse_and_check(a); }

    #[test]
    fn keygen_never_panics(a in argv("keygen")) { parse_and_check(a); }

    #[test]
    fn sign_never_panics(a in argv("sign")) { parse_and_check(a); }

    #[test]
    fn verify_never_panics(a in argv("verify")) { parse_and_check(a); }

    #[test]
    fn top_level_never_panics(rest in proptest::collection::vec(arg("cpu"), 0..6)) {
        let mut v = vec![OsString::from("shyfr")];
        v.extend(rest);
        parse_and_check(v);
    }
}

#[test]
fn known_lines_parse_and_check() {
    // The property test would pass on a parser that refuses everything: these must pass.
    let ok = |s: &str| {
        let v: Vec<OsString> = s.split(' ').map(OsString::from).collect();
        assert!(parse_and_check(v), "{s}");
    };
    ok("shyfr cpu --json");
    ok("shyfr speed sha256 --sizes 16 --seconds 0.01 --trials 1");
    ok("shyfr hash shake256 --length 1000000");
    ok("shyfr hash sha256 -c --strict --ignore-missing a b");
    ok("shyfr mac kmac128 --key-hex 00112233445566778899aabbccddeeff --length 4");
    ok("shyfr enc -aes-128-cbc -K 000102030405060708090a0b0c0d0e0f -iv 000102030405060708090a0b0c0d0e0f -a");
    ok("shyfr encrypt -k k.key --cipher kalyna-128-256-gcm --threads 2 in -o out");
    ok("shyfr decrypt -k k.key in -o out --stats");
    ok("shyfr keygen rsa-2048 -o k.pem --pub p.pem");
    ok("shyfr sign -k k.pem --hash sha384 --pss --saltlen max -o s.sig f");
    ok("shyfr verify -p p.pem -s s.sig --pss --saltlen auto f");
    let bad = |s: &str| {
        let v: Vec<OsString> = s.split(' ').map(OsString::from).collect();
        assert!(!parse_and_check(v), "{s}");
    };
    bad("shyfr speed aes-128-kw --sizes 8");
    bad("shyfr speed --seconds 1e-9");
    bad("shyfr hash shake256 --length 18446744073709551615");
    bad("shyfr mac kmac256 --key-hex 00112233445566778899aabbccddeeff");
    bad("shyfr mac kmac128 --key-hex 00112233445566778899aabbccddeeff --length 18446744073709551615");
    bad("shyfr enc -aes-128-cbc -K 00 -iv 00");
    bad("shyfr encrypt --threads 0 in");
    bad("shyfr verify -p p.pem f");
    bad("shyfr sign f");
}
