//! Every Wycheproof RSA file (testdata/rsa/wycheproof/, verbatim from C2SP Wycheproof
//! `testvectors_v1/` at dac1dd4729fd1f8dd9e1e9f3dce51d783da6c166) and `primality_test.json`,
//! under every available big-integer backend: every `valid` test passes, every `invalid`
//! one is rejected, `acceptable` ones are counted by outcome, and the counts are exact.

mod common;

use std::collections::BTreeMap;

use serde_json::Value;
use shyfr::arith::bigint::{prime, Backend, BoxedUint};
use shyfr::hash::sha1::Sha1;
use shyfr::hash::sha2::{Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};
use shyfr::hash::sha3::{Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256};
use shyfr::sig::rsa::{RsaPrivateKey, RsaPublicKey, SaltLen};

use common::{bigint_backends as backends, TestRng};

fn files(prefix: &str) -> Vec<String> {
    let dir = common::testdata("rsa/wycheproof");
    let mut v: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with(prefix) && n.ends_with(".json"))
        .collect();
    v.sort();
    v
}

fn load(name: &str) -> Value {
    let p = common::testdata(&format!("rsa/wycheproof/{name}"));
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn hx(v: &Value) -> Vec<u8> {
    hex::decode(v.as_str().unwrap()).unwrap()
}

/// Runs `$body` with `$h` bound to the hash type named by `$name` (Wycheproof spelling).
macro_rules! with_hash {
    ($name:expr, $h:ident => $body:expr) => {
        match $name {
            "SHA-1" => {
                type $h = Sha1;
                $body
            }
            "SHA-224" => {
                type $h = Sha224;
                $body
            }
            "SHA-256" => {
                type $h = Sha256;
                $body
            }
            "SHA-384" => {
                type $h = Sha384;
                $body
            }
            "SHA-512" => {
                type $h = Sha512;
                $body
            }
            "SHA-512/224" => {
                type $h = Sha512_224;
                $body
            }
            "SHA-512/256" => {
                type $h = Sha512_256;
                $body
            }
            "SHA3-224" => {
                type $h = Sha3_224;
                $body
            }
            "SHA3-256" => {
                type $h = Sha3_256;
                $body
            }
            "SHA3-384" => {
                type $h = Sha3_384;
                $body
            }
            "SHA3-512" => {
                type $h = Sha3_512;
                $body
            }
            other => panic!("unknown hash {other}"),
        }
    };
}

/// Outcome counts of one file under one backend.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
struct Counts {
    valid: usize,
    invalid: usize,
    acceptable_ok: usize,
    acceptable_rejected: usize,
}

impl Counts {
    /// Records a test's outcome; panics if a valid test failed or an invalid one passed.
    fn record(&mut self, file: &str, t: &Value, ok: bool) {
        let id = &t["tcId"];
        match t["result"].as_str().unwrap() {
            "valid" => {
                assert!(ok, "{file} tcId {id} ({}): valid test failed", t["comment"]);
                self.valid += 1;
            }
            "invalid" => {
                assert!(
                    !ok,
                    "{file} tcId {id} ({}): invalid test passed",
                    t["comment"]
                );
                self.invalid += 1;
            }
            "acceptable" => {
                if ok {
                    self.acceptable_ok += 1
                } else {
                    self.acceptable_rejected += 1
                }
            }
            r => panic!("unknown result {r}"),
        }
    }
    fn total(&self) -> usize {
        self.valid + self.invalid + self.acceptable_ok + self.acceptable_rejected
    }
}

/// Checks every file's count equals its `numberOfTests` and the same counts under every
/// backend; returns the sum over files (one backend).
fn check_counts(family: &str, per: &BTreeMap<(String, &'static str), Counts>) -> Counts {
    let mut sum = Counts::default();
    let bs = backends();
    for ((file, backend), c) in per {
        let want = load(file)["numberOfTests"].as_u64().unwrap() as usize;
        assert_eq!(
            c.total(),
            want,
            "{file} under {backend}: ran {} of {want}",
            c.total()
        );
        let first = per[&(file.clone(), bs[0].name())];
        assert_eq!(*c, first, "{file}: {backend} differs from {}", bs[0].name());
        if *backend == bs[0].name() {
            sum.valid += c.valid;
            sum.invalid += c.invalid;
            sum.acceptable_ok += c.acceptable_ok;
            sum.acceptable_rejected += c.acceptable_rejected;
        }
    }
    eprintln!(
        "{family}: {sum:?} per backend, backends {:?}",
        bs.iter().map(|b| b.name()).collect::<Vec<_>>()
    );
    sum
}

fn public_key(g: &Value, b: Backend) -> RsaPublicKey {
    let der = hx(&g["publicKeyDer"]);
    match RsaPublicKey::from_public_key_der_with_backend(&der, b) {
        Ok(k) => k,
        Err(_) => {
            // `_params` files: id-RSASSA-PSS keys are also given as bare (n, e).
            let pk = &g["publicKey"];
            RsaPublicKey::with_backend(&hx(&pk["modulus"]), &hx(&pk["publicExponent"]), b).unwrap()
        }
    }
}

#[test]
fn pkcs1v15_signature_verify() {
    let mut per = BTreeMap::new();
    for b in backends() {
        for file in files("rsa_signature_") {
            let v = load(&file);
            let mut c = Counts::default();
            for g in v["testGroups"].as_array().unwrap() {
                let key = public_key(g, b);
                assert_eq!(key.backend(), b);
                with_hash!(g["sha"].as_str().unwrap(), H => {
                    for t in g["tests"].as_array().unwrap() {
                        let ok = key.verify_pkcs1v15::<H>(&hx(&t["msg"]), &hx(&t["sig"])).is_ok();
                        c.record(&file, t, ok);
                    }
                });
            }
            per.insert((file, b.name()), c);
        }
        common::note_exercised("rsa", b.name());
    }
    let sum = check_counts("rsa_signature_*", &per);
    // 24 files; the one `acceptable` per file is a DigestInfo without NULL parameters,
    // which shyfr rejects (it compares the whole encoding).
    assert_eq!(
        sum,
        Counts {
            valid: 173,
            invalid: 6005,
            acceptable_ok: 0,
            acceptable_rejected: 24
        }
    );
}

#[test]
fn pkcs1v15_signature_generate() {
    let mut per = BTreeMap::new();
    for b in backends() {
        for file in files("rsa_pkcs1_")
            .into_iter()
            .filter(|f| f.contains("sig_gen"))
        {
            let v = load(&file);
            let mut c = Counts::default();
            let mut rng = TestRng(3);
            for g in v["testGroups"].as_array().unwrap() {
                let key = RsaPrivateKey::from_pkcs8_der_with_backend(&hx(&g["privateKeyPkcs8"]), b)
                    .unwrap();
                let public = RsaPublicKey::from_public_key_der(&hx(&g["keyDer"])).unwrap();
                assert_eq!(key.public_key(), &public);
                with_hash!(g["sha"].as_str().unwrap(), H => {
                    for t in g["tests"].as_array().unwrap() {
                        let msg = hx(&t["msg"]);
                        let ok = match key.sign_pkcs1v15::<H, _>(&mut rng, &msg) {
                            Ok(sig) => {
                                assert!(public.verify_pkcs1v15::<H>(&msg, &sig).is_ok());
                                sig == hx(&t["sig"])
                            }
                            Err(_) => false,
                        };
                        c.record(&file, t, ok);
                    }
                });
            }
            per.insert((file, b.name()), c);
        }
    }
    let sum = check_counts("rsa_pkcs1_*_sig_gen", &per);
    // `acceptable`: small moduli (1024, 1536 bits), SHA-1, e = 3; shyfr signs them all.
    assert_eq!(
        sum,
        Counts {
            valid: 80,
            invalid: 0,
            acceptable_ok: 78,
            acceptable_rejected: 0
        }
    );
}

#[test]
fn pkcs1v15_decrypt() {
    let mut per = BTreeMap::new();
    let mut implicit_checked = 0;
    for b in backends() {
        for file in files("rsa_pkcs1_")
            .into_iter()
            .filter(|f| !f.contains("sig_gen"))
        {
            let v = load(&file);
            let mut c = Counts::default();
            let mut rng = TestRng(4);
            for g in v["testGroups"].as_array().unwrap() {
                let key = RsaPrivateKey::from_pkcs8_der_with_backend(&hx(&g["privateKeyPkcs8"]), b)
                    .unwrap();
                for t in g["tests"].as_array().unwrap() {
                    let ct = hx(&t["ct"]);
                    let got = key.decrypt_pkcs1v15_explicit(&mut rng, &ct);
                    let ok = matches!(&got, Ok(m) if *m == hx(&t["msg"]));
                    c.record(&file, t, ok);
                    // Implicit rejection: the same message when valid; otherwise a
                    // message that is deterministic in (key, ciphertext).
                    match key.decrypt_pkcs1v15(&mut rng, &ct) {
                        Ok(m) => {
                            if ok {
                                assert_eq!(m, hx(&t["msg"]));
                            } else {
                                assert_eq!(m, key.decrypt_pkcs1v15(&mut rng, &ct).unwrap());
                                assert!(m.len() <= key.size() - 11);
                            }
                            implicit_checked += 1;
                        }
                        Err(e) => assert!(!ok && ct.len() != key.size() || got.is_err(), "{e:?}"),
                    }
                }
            }
            per.insert((file, b.name()), c);
        }
    }
    assert!(implicit_checked > 0);
    let sum = check_counts("rsa_pkcs1_*", &per);
    assert_eq!(
        sum,
        Counts {
            valid: 124,
            invalid: 77,
            acceptable_ok: 0,
            acceptable_rejected: 0
        }
    );
}

#[test]
fn pss_verify() {
    let mut per = BTreeMap::new();
    for b in backends() {
        for file in files("rsa_pss_") {
            let v = load(&file);
            let mut c = Counts::default();
            for g in v["testGroups"].as_array().unwrap() {
                let key = public_key(g, b);
                let salt = SaltLen::Exact(g["sLen"].as_u64().unwrap() as usize);
                let sha = g["sha"].as_str().unwrap();
                if sha.starts_with("SHAKE") {
                    // RFC 8702: the XOF is the hash and the mask generator.
                    assert_eq!(g["mgf"].as_str().unwrap(), sha);
                    for t in g["tests"].as_array().unwrap() {
                        let (msg, sig) = (hx(&t["msg"]), hx(&t["sig"]));
                        let ok = match sha {
                            "SHAKE128" => key.verify_pss_shake::<Shake128>(&msg, &sig, salt),
                            "SHAKE256" => key.verify_pss_shake::<Shake256>(&msg, &sig, salt),
                            other => panic!("unknown XOF {other}"),
                        }
                        .is_ok();
                        c.record(&file, t, ok);
                    }
                    continue;
                }
                assert_eq!(g["mgf"], "MGF1");
                with_hash!(sha, H => {
                    with_hash!(g["mgfSha"].as_str().unwrap(), M => {
                        for t in g["tests"].as_array().unwrap() {
                            let ok = key
                                .verify_pss_with::<H, M>(&hx(&t["msg"]), &hx(&t["sig"]), salt)
                                .is_ok();
                            c.record(&file, t, ok);
                        }
                    })
                });
            }
            per.insert((file, b.name()), c);
        }
    }
    let sum = check_counts("rsa_pss_*", &per);
    // 29 files, the seven SHAKE files (780 tests) included.
    assert_eq!(
        sum,
        Counts {
            valid: 1856 + 552,
            invalid: 861 + 228,
            acceptable_ok: 0,
            acceptable_rejected: 0
        }
    );
}

#[test]
fn oaep_decrypt() {
    let mut per = BTreeMap::new();
    let mut three_primes_skipped = 0;
    for b in backends() {
        for file in files("rsa_oaep_")
            .into_iter()
            .chain(files("rsa_three_primes_"))
        {
            let v = load(&file);
            if file.starts_with("rsa_three_primes_") {
                // Multi-prime keys are not supported: they must be refused, and counted.
                for g in v["testGroups"].as_array().unwrap() {
                    assert!(RsaPrivateKey::from_pkcs8_der(&hx(&g["privateKeyPkcs8"])).is_err());
                }
                if b == backends()[0] {
                    three_primes_skipped += v["numberOfTests"].as_u64().unwrap() as usize;
                }
                continue;
            }
            let mut c = Counts::default();
            let mut rng = TestRng(5);
            for g in v["testGroups"].as_array().unwrap() {
                let key = RsaPrivateKey::from_pkcs8_der_with_backend(&hx(&g["privateKeyPkcs8"]), b)
                    .unwrap();
                with_hash!(g["sha"].as_str().unwrap(), H => {
                    with_hash!(g["mgfSha"].as_str().unwrap(), M => {
                        for t in g["tests"].as_array().unwrap() {
                            let got = key.decrypt_oaep_with::<H, M, _>(&mut rng, &hx(&t["ct"]), &hx(&t["label"]));
                            let ok = matches!(&got, Ok(m) if *m == hx(&t["msg"]));
                            c.record(&file, t, ok);
                            if ok {
                                // Round trip through our encryption.
                                let ct = key.public_key().encrypt_oaep_with::<H, M, _>(&mut rng, &hx(&t["msg"]), &hx(&t["label"])).unwrap();
                                assert_eq!(key.decrypt_oaep_with::<H, M, _>(&mut rng, &ct, &hx(&t["label"])).unwrap(), hx(&t["msg"]));
                            }
                        }
                    })
                });
            }
            per.insert((file, b.name()), c);
        }
    }
    let sum = check_counts("rsa_oaep_*", &per);
    eprintln!(
        "rsa_three_primes_*: {three_primes_skipped} tests skipped (multi-prime keys refused)"
    );
    assert_eq!(three_primes_skipped, 36 + 38 + 36);
    // `acceptable`: three ciphertexts that are small integers (constructed with a label);
    // they decrypt correctly.
    assert_eq!(
        sum,
        Counts {
            valid: 706,
            invalid: 389,
            acceptable_ok: 3,
            acceptable_rejected: 0
        }
    );
}

#[test]
fn primality() {
    let v = load("primality_test.json");
    let mut c = Counts::default();
    let mut rng = TestRng(6);
    for g in v["testGroups"].as_array().unwrap() {
        for t in g["tests"].as_array().unwrap() {
            let bytes = hx(&t["value"]);
            // Two's complement, big-endian: negative values are not primes here.
            let negative = bytes.first().is_some_and(|&b| b & 0x80 != 0);
            let ok = !negative
                && prime::is_probable_prime_vartime(&BoxedUint::from_be_bytes(&bytes), &mut rng);
            c.record("primality_test.json", t, ok);
        }
    }
    assert_eq!(c.total(), v["numberOfTests"].as_u64().unwrap() as usize);
    // `acceptable`: negatives of primes, which shyfr (unsigned) rejects.
    assert_eq!(
        c,
        Counts {
            valid: 66,
            invalid: 243,
            acceptable_ok: 0,
            acceptable_rejected: 8
        }
    );
}
