//! RSA through the public API: key generation at every size, signatures with every hash,
//! encryption, key formats, bad input, and interoperability with the `openssl` command
//! (skipped with a message when it is not installed).

mod common;

use std::path::PathBuf;
use std::process::Command;

use shyfr::arith::bigint::Backend;
use shyfr::hash::sha1::Sha1;
use shyfr::hash::sha2::{Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};
use shyfr::hash::sha3::{Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256};
use shyfr::rand::OsRng;
use shyfr::sig::rsa::{RsaHash, RsaPrivateKey, RsaPublicKey, SaltLen};
use shyfr::Error;

use common::{bigint_backends as backends, TestRng};

/// Signs and verifies with both schemes and hash `H`, and checks a changed message fails.
fn sign_verify<H: RsaHash>(key: &RsaPrivateKey, rng: &mut TestRng) {
    let public = key.public_key();
    let msg = b"shyfr rsa round trip";
    if key.size() >= H::DIGEST_INFO_PREFIX.len() + H::OUTPUT_LEN + 11 {
        let sig = key.sign_pkcs1v15::<H, _>(rng, msg).unwrap();
        assert_eq!(sig.len(), key.size());
        public.verify_pkcs1v15::<H>(msg, &sig).unwrap();
        assert_eq!(
            public.verify_pkcs1v15::<H>(b"other", &sig),
            Err(Error::InvalidSignature)
        );
    }
    if key.bits() > 8 * (2 * H::OUTPUT_LEN + 2) {
        let sig = key.sign_pss::<H, _>(rng, msg).unwrap();
        public.verify_pss::<H>(msg, &sig).unwrap();
        public
            .verify_pss_with::<H, H>(msg, &sig, SaltLen::Auto)
            .unwrap();
        assert!(public.verify_pss::<H>(b"other", &sig).is_err());
        assert!(public
            .verify_pss_with::<H, H>(msg, &sig, SaltLen::Exact(H::OUTPUT_LEN + 1))
            .is_err());
    }
}

fn round_trip(bits: usize, backend: Backend, rng: &mut TestRng) {
    let key = RsaPrivateKey::generate_with_backend(bits, 65537, backend, rng).unwrap();
    assert_eq!(key.bits(), bits, "{bits}-bit key has {} bits", key.bits());
    assert_eq!(key.backend(), backend);
    let public = key.public_key();
    sign_verify::<Sha256>(&key, rng);
    sign_verify::<Sha1>(&key, rng);
    // OAEP and PKCS#1 v1.5 encryption.
    let msg = b"attack at dawn";
    if key.size() >= 2 * 32 + 2 + msg.len() {
        let ct = public
            .encrypt_oaep::<Sha256, _>(rng, msg, b"label")
            .unwrap();
        assert_eq!(
            key.decrypt_oaep::<Sha256, _>(rng, &ct, b"label").unwrap(),
            msg
        );
        assert_eq!(
            key.decrypt_oaep::<Sha256, _>(rng, &ct, b"other label"),
            Err(Error::DecryptionFailed)
        );
    } else {
        // 512 bits: OAEP with SHA-256 leaves no room (k - 2 hLen - 2 < 0); SHA-1 does.
        assert!(public.encrypt_oaep::<Sha256, _>(rng, msg, b"").is_err());
        let ct = public.encrypt_oaep::<Sha1, _>(rng, msg, b"label").unwrap();
        assert_eq!(
            key.decrypt_oaep::<Sha1, _>(rng, &ct, b"label").unwrap(),
            msg
        );
    }
    let ct = public.encrypt_pkcs1v15(rng, msg).unwrap();
    assert_eq!(key.decrypt_pkcs1v15(rng, &ct).unwrap(), msg);
    assert_eq!(key.decrypt_pkcs1v15_explicit(rng, &ct).unwrap(), msg);
    // Formats.
    let again = RsaPrivateKey::from_pkcs8_pem(&key.to_pkcs8_pem().unwrap()).unwrap();
    assert_eq!(again.public_key(), public);
    let again = RsaPrivateKey::from_pkcs1_der(&key.to_pkcs1_der().unwrap()).unwrap();
    assert_eq!(again.public_key(), public);
    let p = RsaPublicKey::from_public_key_der(&public.to_public_key_der().unwrap()).unwrap();
    assert_eq!(&p, public);
    let p = RsaPublicKey::from_pem(&public.to_pkcs1_pem().unwrap()).unwrap();
    assert_eq!(&p, public);
}

#[test]
fn round_trips_every_size_to_4096() {
    let mut rng = TestRng(11);
    for bits in [512usize, 1024, 1536, 2048, 3072, 4096] {
        round_trip(bits, Backend::best(), &mut rng);
    }
    for b in backends() {
        round_trip(1024, b, &mut rng);
        round_trip(2048, b, &mut rng);
        common::note_exercised("rsa", b.name());
    }
    // Odd sizes.
    for bits in [1000usize, 1025, 2056] {
        round_trip(bits, Backend::best(), &mut rng);
    }
}

/// The large sizes Cipher+ lists (7168, 8192, 15360, 16384 bits): minutes of key
/// generation, so release mode only:
/// `cargo test --release -p shyfr --test rsa -- --ignored --nocapture`.
#[test]
#[ignore]
fn round_trips_large_sizes_release_only() {
    let mut rng = TestRng(12);
    for bits in [7168usize, 8192, 15360, 16384] {
        let t = std::time::Instant::now();
        round_trip(bits, Backend::best(), &mut rng);
        eprintln!(
            "{bits}: key generation and round trips in {:.1} s",
            t.elapsed().as_secs_f64()
        );
    }
}

#[test]
fn every_hash() {
    let mut rng = TestRng(13);
    let key = RsaPrivateKey::generate(2048, &mut rng).unwrap();
    sign_verify::<Sha1>(&key, &mut rng);
    sign_verify::<Sha224>(&key, &mut rng);
    sign_verify::<Sha256>(&key, &mut rng);
    sign_verify::<Sha384>(&key, &mut rng);
    sign_verify::<Sha512>(&key, &mut rng);
    sign_verify::<Sha512_224>(&key, &mut rng);
    sign_verify::<Sha512_256>(&key, &mut rng);
    sign_verify::<Sha3_224>(&key, &mut rng);
    sign_verify::<Sha3_256>(&key, &mut rng);
    sign_verify::<Sha3_384>(&key, &mut rng);
    sign_verify::<Sha3_512>(&key, &mut rng);
    // PSS with SHAKE (RFC 8702).
    let sig = key.sign_pss_shake::<Shake128, _>(&mut rng, b"m").unwrap();
    key.public_key()
        .verify_pss_shake::<Shake128>(b"m", &sig, SaltLen::Exact(32))
        .unwrap();
    assert!(key
        .public_key()
        .verify_pss_shake::<Shake256>(b"m", &sig, SaltLen::Auto)
        .is_err());
    let sig = key.sign_pss_shake::<Shake256, _>(&mut rng, b"m").unwrap();
    key.public_key()
        .verify_pss_shake::<Shake256>(b"m", &sig, SaltLen::Exact(64))
        .unwrap();
    assert!(key
        .public_key()
        .verify_pss_shake::<Shake256>(b"n", &sig, SaltLen::Auto)
        .is_err());
    // OAEP with a different MGF1 hash.
    let ct = key
        .public_key()
        .encrypt_oaep_with::<Sha512, Sha1, _>(&mut rng, b"x", b"")
        .unwrap();
    assert_eq!(
        key.decrypt_oaep_with::<Sha512, Sha1, _>(&mut rng, &ct, b"")
            .unwrap(),
        b"x"
    );
    assert!(key.decrypt_oaep::<Sha512, _>(&mut rng, &ct, b"").is_err());
    // Signatures are the same under every backend (PKCS#1 v1.5 is deterministic).
    let der = key.to_pkcs8_der().unwrap();
    let sig = key.sign_pkcs1v15::<Sha256, _>(&mut rng, b"m").unwrap();
    for b in backends() {
        let k = RsaPrivateKey::from_pkcs8_der_with_backend(&der, b).unwrap();
        assert_eq!(
            k.sign_pkcs1v15::<Sha256, _>(&mut rng, b"m").unwrap(),
            sig,
            "{b:?}"
        );
    }
}

#[test]
fn bad_input() {
    let mut rng = TestRng(14);
    let key = RsaPrivateKey::generate(1024, &mut rng).unwrap();
    let public = key.public_key();
    let k = key.size();
    let n = public.n_bytes();
    let e = public.e_bytes();
    // Moduli and exponents.
    let mut even = n.clone();
    *even.last_mut().unwrap() &= 0xfe;
    assert_eq!(
        RsaPublicKey::new(&even, &e).unwrap_err(),
        Error::InvalidKey {
            what: "modulus is even"
        }
    );
    assert_eq!(
        RsaPublicKey::new(&n[..60], &e).unwrap_err(),
        Error::InvalidKey {
            what: "modulus too small"
        }
    );
    let mut huge = vec![0xffu8; 16384 / 8 + 1];
    *huge.last_mut().unwrap() = 0xfb;
    assert_eq!(
        RsaPublicKey::new(&huge, &e).unwrap_err(),
        Error::InvalidKey {
            what: "modulus too large"
        }
    );
    for bad_e in [&[1u8][..], &[2], &[0], &[0x01, 0x00, 0x00], &n[..]] {
        assert!(
            matches!(RsaPublicKey::new(&n, bad_e), Err(Error::InvalidKey { .. })),
            "{bad_e:?}"
        );
    }
    // Signatures of the wrong length or not below n.
    let sig = key.sign_pkcs1v15::<Sha256, _>(&mut rng, b"m").unwrap();
    assert_eq!(
        public.verify_pkcs1v15::<Sha256>(b"m", &sig[1..]),
        Err(Error::InvalidSignature)
    );
    let mut long = vec![0u8];
    long.extend_from_slice(&sig);
    assert_eq!(
        public.verify_pkcs1v15::<Sha256>(b"m", &long),
        Err(Error::InvalidSignature)
    );
    assert_eq!(
        public.verify_pkcs1v15::<Sha256>(b"m", &n),
        Err(Error::InvalidSignature)
    );
    assert_eq!(
        public.verify_pss::<Sha256>(b"m", &n),
        Err(Error::InvalidSignature)
    );
    assert_eq!(
        public.verify_pss::<Sha256>(b"m", &[]),
        Err(Error::InvalidSignature)
    );
    // Ciphertexts out of range or of the wrong length.
    assert_eq!(
        key.decrypt_oaep::<Sha256, _>(&mut rng, &n, b""),
        Err(Error::DecryptionFailed)
    );
    assert_eq!(
        key.decrypt_oaep::<Sha256, _>(&mut rng, &sig[1..], b""),
        Err(Error::DecryptionFailed)
    );
    assert_eq!(
        key.decrypt_pkcs1v15(&mut rng, &n),
        Err(Error::DecryptionFailed)
    );
    assert_eq!(
        key.decrypt_pkcs1v15_explicit(&mut rng, &[0u8; 3]),
        Err(Error::DecryptionFailed)
    );
    // A valid OAEP ciphertext for another label, and a random "ciphertext".
    let ct = public
        .encrypt_oaep::<Sha256, _>(&mut rng, b"m", b"a")
        .unwrap();
    assert_eq!(
        key.decrypt_oaep::<Sha256, _>(&mut rng, &ct, b"b"),
        Err(Error::DecryptionFailed)
    );
    let mut junk = vec![0x11u8; k];
    junk[0] = 0;
    assert_eq!(
        key.decrypt_oaep::<Sha256, _>(&mut rng, &junk, b""),
        Err(Error::DecryptionFailed)
    );
    assert_eq!(
        key.decrypt_pkcs1v15_explicit(&mut rng, &junk),
        Err(Error::DecryptionFailed)
    );
    // Implicit rejection: a message, the same each time.
    let m1 = key.decrypt_pkcs1v15(&mut rng, &junk).unwrap();
    assert_eq!(m1, key.decrypt_pkcs1v15(&mut rng, &junk).unwrap());
    // Messages too long.
    assert!(matches!(
        public.encrypt_oaep::<Sha256, _>(&mut rng, &vec![0; k - 65], b""),
        Err(Error::TooLong { .. })
    ));
    assert!(public
        .encrypt_oaep::<Sha256, _>(&mut rng, &vec![0; k - 66], b"")
        .is_ok());
    assert!(matches!(
        public.encrypt_pkcs1v15(&mut rng, &vec![0; k - 10]),
        Err(Error::TooLong { .. })
    ));
    assert!(matches!(
        key.sign_pss_with::<Sha512, Sha512, _>(&mut rng, b"m", k),
        Err(Error::TooLong { .. })
    ));
    assert!(matches!(
        key.sign_pkcs1v15_prehashed::<Sha256, _>(&mut rng, &[0; 31]),
        Err(Error::InvalidParameter { .. })
    ));
    // Raw operations.
    assert!(key.raw_private(&mut rng, &n).is_err());
    assert!(public.raw_public(&n[1..]).is_err());
    // Malformed and truncated DER and PEM, never a panic.
    let der = key.to_pkcs8_der().unwrap();
    for cut in [0usize, 1, 2, 10, 100, der.len() / 2, der.len() - 1] {
        assert!(
            matches!(
                RsaPrivateKey::from_pkcs8_der(&der[..cut]),
                Err(Error::InvalidKey { .. })
            ),
            "cut {cut}"
        );
    }
    let mut flipped = der.to_vec();
    flipped[40] ^= 0x01;
    assert!(RsaPrivateKey::from_pkcs8_der(&flipped).is_err());
    let spki = public.to_public_key_der().unwrap();
    for cut in [0usize, 5, spki.len() - 1] {
        assert!(RsaPublicKey::from_public_key_der(&spki[..cut]).is_err());
    }
    assert!(RsaPrivateKey::from_pkcs8_pem(
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
    )
    .is_err());
    assert!(RsaPrivateKey::from_pem("not pem").is_err());
    let pem = key.to_pkcs8_pem().unwrap();
    assert!(RsaPrivateKey::from_pkcs8_pem(&pem[..pem.len() / 2]).is_err());
    assert!(RsaPrivateKey::from_pkcs1_pem(&pem).is_err()); // wrong label
    assert!(RsaPublicKey::from_public_key_der(&der).is_err());
    // Wrong components.
    let pkcs1 = key.to_pkcs1_der().unwrap();
    let mut bad = pkcs1.to_vec();
    let last = bad.len() - 1;
    bad[last] ^= 1; // the CRT coefficient
    assert!(matches!(
        RsaPrivateKey::from_pkcs1_der(&bad),
        Err(Error::InvalidKey { .. })
    ));
    // Key sizes and exponents for generation.
    assert!(RsaPrivateKey::generate(511, &mut rng).is_err());
    assert!(RsaPrivateKey::generate(16385, &mut rng).is_err());
    assert!(RsaPrivateKey::generate_with_exponent(1024, 4, &mut rng).is_err());
    assert!(RsaPrivateKey::generate_with_exponent(1024, 1, &mut rng).is_err());
    // Errors print one line.
    for e in [
        Error::InvalidSignature,
        Error::DecryptionFailed,
        Error::ComputationFault,
        Error::InvalidKey { what: "x" },
    ] {
        assert!(!e.to_string().contains('\n'));
    }
}

#[test]
fn os_rng_generates() {
    let key = RsaPrivateKey::generate(1024, &mut OsRng).unwrap();
    let sig = key.sign_pss::<Sha256, _>(&mut OsRng, b"m").unwrap();
    key.public_key().verify_pss::<Sha256>(b"m", &sig).unwrap();
}

fn openssl() -> Option<PathBuf> {
    let ok = Command::new("openssl")
        .arg("version")
        .output()
        .map(|o| o.status.success());
    if matches!(ok, Ok(true)) {
        Some(PathBuf::from("openssl"))
    } else {
        eprintln!("openssl not found: skipping the interoperability test");
        None
    }
}

fn run(args: &[&str]) -> std::process::Output {
    let out = Command::new("openssl").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "openssl {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn openssl_interop() {
    if openssl().is_none() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("shyfr-rsa-interop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let mut rng = TestRng(15);
    let msg = b"interoperability between shyfr and OpenSSL";
    std::fs::write(path("msg"), msg).unwrap();

    // 1. A key from `openssl genpkey` loads; signatures and ciphertexts cross both ways.
    run(&[
        "genpkey",
        "-algorithm",
        "RSA",
        "-pkeyopt",
        "rsa_keygen_bits:2048",
        "-out",
        &path("ossl.pem"),
    ]);
    run(&[
        "pkey",
        "-in",
        &path("ossl.pem"),
        "-pubout",
        "-out",
        &path("ossl.pub"),
    ]);
    let key =
        RsaPrivateKey::from_pkcs8_pem(&std::fs::read_to_string(path("ossl.pem")).unwrap()).unwrap();
    let public =
        RsaPublicKey::from_public_key_pem(&std::fs::read_to_string(path("ossl.pub")).unwrap())
            .unwrap();
    assert_eq!(key.public_key(), &public);
    // OpenSSL signs (PKCS#1 v1.5 and PSS), shyfr verifies.
    run(&[
        "dgst",
        "-sha256",
        "-sign",
        &path("ossl.pem"),
        "-out",
        &path("sig1"),
        &path("msg"),
    ]);
    public
        .verify_pkcs1v15::<Sha256>(msg, &std::fs::read(path("sig1")).unwrap())
        .unwrap();
    run(&[
        "dgst",
        "-sha384",
        "-sigopt",
        "rsa_padding_mode:pss",
        "-sigopt",
        "rsa_pss_saltlen:48",
        "-sign",
        &path("ossl.pem"),
        "-out",
        &path("sig2"),
        &path("msg"),
    ]);
    public
        .verify_pss::<Sha384>(msg, &std::fs::read(path("sig2")).unwrap())
        .unwrap();
    // shyfr signs, OpenSSL verifies.
    std::fs::write(
        path("sig3"),
        key.sign_pkcs1v15::<Sha512, _>(&mut rng, msg).unwrap(),
    )
    .unwrap();
    run(&[
        "dgst",
        "-sha512",
        "-verify",
        &path("ossl.pub"),
        "-signature",
        &path("sig3"),
        &path("msg"),
    ]);
    std::fs::write(
        path("sig4"),
        key.sign_pss::<Sha256, _>(&mut rng, msg).unwrap(),
    )
    .unwrap();
    run(&[
        "dgst",
        "-sha256",
        "-sigopt",
        "rsa_padding_mode:pss",
        "-sigopt",
        "rsa_pss_saltlen:32",
        "-verify",
        &path("ossl.pub"),
        "-signature",
        &path("sig4"),
        &path("msg"),
    ]);
    // OpenSSL encrypts (OAEP SHA-256, PKCS#1 v1.5), shyfr decrypts; and back.
    run(&[
        "pkeyutl",
        "-encrypt",
        "-pubin",
        "-inkey",
        &path("ossl.pub"),
        "-pkeyopt",
        "rsa_padding_mode:oaep",
        "-pkeyopt",
        "rsa_oaep_md:sha256",
        "-pkeyopt",
        "rsa_mgf1_md:sha256",
        "-in",
        &path("msg"),
        "-out",
        &path("ct1"),
    ]);
    assert_eq!(
        key.decrypt_oaep::<Sha256, _>(&mut rng, &std::fs::read(path("ct1")).unwrap(), b"")
            .unwrap(),
        msg
    );
    run(&[
        "pkeyutl",
        "-encrypt",
        "-pubin",
        "-inkey",
        &path("ossl.pub"),
        "-pkeyopt",
        "rsa_padding_mode:pkcs1",
        "-in",
        &path("msg"),
        "-out",
        &path("ct2"),
    ]);
    assert_eq!(
        key.decrypt_pkcs1v15(&mut rng, &std::fs::read(path("ct2")).unwrap())
            .unwrap(),
        msg
    );
    std::fs::write(
        path("ct3"),
        public
            .encrypt_oaep::<Sha256, _>(&mut rng, msg, b"")
            .unwrap(),
    )
    .unwrap();
    let out = run(&[
        "pkeyutl",
        "-decrypt",
        "-inkey",
        &path("ossl.pem"),
        "-pkeyopt",
        "rsa_padding_mode:oaep",
        "-pkeyopt",
        "rsa_oaep_md:sha256",
        "-pkeyopt",
        "rsa_mgf1_md:sha256",
        "-in",
        &path("ct3"),
    ]);
    assert_eq!(out.stdout, msg);

    // 2. A key made by shyfr loads in OpenSSL (PKCS#8 and PKCS#1), passes its check, and
    //    signs for shyfr.
    let mine = RsaPrivateKey::generate(3072, &mut rng).unwrap();
    std::fs::write(path("mine.pem"), mine.to_pkcs8_pem().unwrap().as_bytes()).unwrap();
    std::fs::write(path("mine1.pem"), mine.to_pkcs1_pem().unwrap().as_bytes()).unwrap();
    std::fs::write(
        path("mine.pub"),
        mine.public_key().to_public_key_pem().unwrap(),
    )
    .unwrap();
    run(&["pkey", "-in", &path("mine.pem"), "-check", "-noout"]);
    run(&["rsa", "-in", &path("mine1.pem"), "-check", "-noout"]);
    let out = run(&[
        "pkey",
        "-pubin",
        "-in",
        &path("mine.pub"),
        "-outform",
        "DER",
    ]);
    assert_eq!(out.stdout, mine.public_key().to_public_key_der().unwrap());
    run(&[
        "dgst",
        "-sha256",
        "-sign",
        &path("mine.pem"),
        "-out",
        &path("sig5"),
        &path("msg"),
    ]);
    mine.public_key()
        .verify_pkcs1v15::<Sha256>(msg, &std::fs::read(path("sig5")).unwrap())
        .unwrap();
    std::fs::write(
        path("sig6"),
        mine.sign_pkcs1v15::<Sha256, _>(&mut rng, msg).unwrap(),
    )
    .unwrap();
    run(&[
        "pkeyutl",
        "-verify",
        "-pubin",
        "-inkey",
        &path("mine.pub"),
        "-rawin",
        "-digest",
        "sha256",
        "-in",
        &path("msg"),
        "-sigfile",
        &path("sig6"),
    ]);
    let _ = std::fs::remove_dir_all(&dir);
}
