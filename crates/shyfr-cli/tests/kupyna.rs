//! `shyfr hash`, `shyfr mac` and `shyfr speed` with Kupyna (DSTU 7564:2014): the names
//! `kupyna-256/384/512`, `kupyna-kmac-256/384/512` and `hmac-kupyna-256` give the
//! standard's examples (testdata/kupyna) and the library's values, bad keys are usage
//! errors, and every speed row runs on every backend the CPU has.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

fn shyfr(args: &[&str], dir: &Path) -> Output {
    common::spawn_output(common::BIN, args, Some(dir), b"")
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shyfr-kupyna-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn vectors(file: &str) -> Vec<serde_json::Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/kupyna")
        .join(file);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["vectors"].as_array().unwrap().clone()
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn hash_gives_the_standard_examples() {
    let dir = scratch("hash");
    let mut n = 0;
    for v in vectors("kupyna.json") {
        let (bits, out_bits) = (
            v["message_bits"].as_u64().unwrap(),
            v["hash_bits"].as_u64().unwrap(),
        );
        if bits % 8 != 0 || ![256, 384, 512].contains(&out_bits) {
            continue; // the command hashes whole bytes with the named lengths
        }
        let msg = hex::decode(v["message"].as_str().unwrap()).unwrap();
        std::fs::write(dir.join("m"), &msg).unwrap();
        let name = format!("kupyna-{out_bits}");
        let want = v["digest"].as_str().unwrap().to_lowercase();
        assert_eq!(
            stdout(&shyfr(&["hash", &name, "m"], &dir)),
            format!("{want}  m\n")
        );
        n += 1;
    }
    assert_eq!(n, 26);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn mac_gives_the_standard_examples() {
    let dir = scratch("mac");
    for v in vectors("kupyna_kmac.json") {
        std::fs::write(
            dir.join("m"),
            hex::decode(v["message"].as_str().unwrap()).unwrap(),
        )
        .unwrap();
        let name = format!("kupyna-kmac-{}", v["mac_bits"]);
        let key = v["key"].as_str().unwrap();
        let want = v["mac"].as_str().unwrap().to_lowercase();
        assert_eq!(
            stdout(&shyfr(&["mac", &name, "--key-hex", key, "m"], &dir)),
            format!("{want}  m\n")
        );
    }
    // HMAC over Kupyna-256 as the library computes it.
    std::fs::write(dir.join("m"), b"message").unwrap();
    let tag = shyfr::mac::hmac::Hmac::<shyfr::hash::kupyna::Kupyna256>::mac(b"Jefe", b"message");
    assert_eq!(
        stdout(&shyfr(
            &["mac", "hmac-kupyna-256", "--key-hex", "4a656665", "m"],
            &dir
        )),
        format!("{}  m\n", hex::encode(tag))
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn kmac_key_length_is_a_usage_error() {
    let dir = std::env::temp_dir();
    for (name, bad) in [
        ("kupyna-kmac-256", 16usize),
        ("kupyna-kmac-384", 32),
        ("kupyna-kmac-512", 65),
    ] {
        let o = shyfr(&["mac", name, "--key-hex", &"00".repeat(bad), "-"], &dir);
        assert_eq!(o.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!("{bad} bytes")) && err.contains("exactly"),
            "{err}"
        );
    }
    let o = shyfr(
        &[
            "mac",
            "kupyna-kmac-256",
            "--key-hex",
            &"00".repeat(32),
            "--customization",
            "x",
            "-",
        ],
        &dir,
    );
    assert_eq!(o.status.code(), Some(2));
    let o = shyfr(&["hash", "kupyna-kmac-256", "-"], &dir);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn speed_rows_run_on_every_backend() {
    let dir = std::env::temp_dir();
    let backends: Vec<&str> = shyfr::hash::kupyna::Backend::ALL
        .iter()
        .filter(|b| b.is_available())
        .map(|b| b.name())
        .collect();
    for alg in [
        "kupyna-256",
        "kupyna-384",
        "kupyna-512",
        "kupyna-kmac-256",
        "kupyna-kmac-384",
        "kupyna-kmac-512",
    ] {
        for b in &backends {
            let o = shyfr(
                &[
                    "speed",
                    alg,
                    "--backend",
                    b,
                    "--sizes",
                    "64,1024",
                    "--seconds",
                    "0.01",
                    "--json",
                ],
                &dir,
            );
            let out = stdout(&o);
            assert!(out.contains(alg) && out.contains(b), "{alg} {b}: {out}");
        }
    }
    let o = shyfr(
        &[
            "speed",
            "hmac-kupyna-256",
            "--sizes",
            "64",
            "--seconds",
            "0.01",
        ],
        &dir,
    );
    stdout(&o);
}
