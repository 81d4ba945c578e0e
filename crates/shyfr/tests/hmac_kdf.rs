//! HMAC, HKDF and PBKDF2 over every hash: RFC 4231 and Wycheproof vectors (valid ones
//! must pass, invalid ones must be rejected with the right error), streaming, and bad
//! input. The Wycheproof files run under every backend of the hash: HMAC sets up its hash
//! states with `H::new`, so each backend is chosen by cutting the CPU features down to
//! the ones it needs (`common::with_features`).

mod common;

use common::{backends, passed, with_features, wy_hex, wycheproof_tests, Family};
use shyfr::hash::sha1::{self, Sha1};
use shyfr::hash::sha2::{
    Sha224, Sha256, Sha256Backend, Sha384, Sha512, Sha512Backend, Sha512_224, Sha512_256,
};
use shyfr::hash::sha3::{self, Sha3_224, Sha3_256, Sha3_384, Sha3_512};
use shyfr::hash::Hash;
use shyfr::kdf::hkdf::Hkdf;
use shyfr::kdf::pbkdf2::pbkdf2_hmac;
use shyfr::mac::hmac::Hmac;
use shyfr::Error;

/// A hash with its backend family.
trait OnBackend: Hash {
    type B: Family;
    fn backend_of(&self) -> Self::B;
}

macro_rules! on_backend {
    ($($h:ty => $b:ty),* $(,)?) => {$(
        impl OnBackend for $h {
            type B = $b;
            fn backend_of(&self) -> $b {
                self.backend()
            }
        }
    )*};
}

on_backend! {
    Sha1 => sha1::Backend,
    Sha224 => Sha256Backend,
    Sha256 => Sha256Backend,
    Sha384 => Sha512Backend,
    Sha512 => Sha512Backend,
    Sha512_224 => Sha512Backend,
    Sha512_256 => Sha512Backend,
    Sha3_224 => sha3::Backend,
    Sha3_256 => sha3::Backend,
    Sha3_384 => sha3::Backend,
    Sha3_512 => sha3::Backend,
}

/// Runs `check` under every backend of `H` this CPU offers (each noted as exercised once
/// `check` passed on it).
fn every_backend<H: OnBackend>(check: impl Fn()) {
    for b in backends::<H::B>() {
        with_features(b.needs(), || {
            assert_eq!(H::new().backend_of(), b, "{} not selected", b.name());
            check();
        });
        passed(b);
    }
}

/// One Wycheproof HMAC file: exactly `valid` valid and `invalid` invalid tests; an invalid
/// one (a modified or wrongly truncated tag) is rejected with `AuthenticationFailed`.
fn check_hmac_file<H: Hash>(file: &str, valid_count: usize, invalid_count: usize) {
    let (mut valid, mut invalid) = (0, 0);
    for (g, t) in wycheproof_tests(file) {
        let tag_len = g["tagSize"].as_u64().unwrap() as usize / 8;
        let key = wy_hex(&t, "key");
        let msg = wy_hex(&t, "msg");
        let tag = wy_hex(&t, "tag");
        let id = t["tcId"].as_u64().unwrap();
        let full = Hmac::<H>::mac(&key, &msg);
        let computed_matches = full.as_ref()[..tag_len] == tag[..];
        let mut m = Hmac::<H>::new(&key);
        let (a, b) = msg.split_at(msg.len() / 3);
        m.update(a);
        m.update(b);
        let verdict = if tag_len == H::OUTPUT_LEN {
            m.verify(&tag)
        } else {
            m.verify_truncated(&tag)
        };
        match t["result"].as_str().unwrap() {
            "valid" => {
                assert!(computed_matches, "{file} tcId {id}: tag differs");
                assert_eq!(
                    verdict,
                    Ok(()),
                    "{file} tcId {id}: verify rejected a valid tag"
                );
                valid += 1;
            }
            "invalid" => {
                assert!(!computed_matches, "{file} tcId {id}: invalid tag computed");
                assert_eq!(
                    verdict,
                    Err(Error::AuthenticationFailed),
                    "{file} tcId {id}"
                );
                invalid += 1;
            }
            r => panic!("{file} tcId {id}: unexpected result {r}"),
        }
    }
    assert_eq!(
        (valid, invalid),
        (valid_count, invalid_count),
        "{file}: valid, invalid"
    );
}

macro_rules! hmac_files {
    ($($h:ty => $file:literal, $valid:literal, $invalid:literal;)*) => {
        $( every_backend::<$h>(|| check_hmac_file::<$h>($file, $valid, $invalid)); )*
    };
}

#[test]
fn wycheproof_hmac() {
    hmac_files! {
        Sha1 => "hmac_sha1_test.json", 66, 104;
        Sha224 => "hmac_sha224_test.json", 66, 106;
        Sha256 => "hmac_sha256_test.json", 66, 108;
        Sha384 => "hmac_sha384_test.json", 66, 108;
        Sha512 => "hmac_sha512_test.json", 66, 108;
        Sha512_224 => "hmac_sha512_224_test.json", 66, 107;
        Sha512_256 => "hmac_sha512_256_test.json", 66, 109;
        Sha3_224 => "hmac_sha3_224_test.json", 66, 106;
        Sha3_256 => "hmac_sha3_256_test.json", 66, 108;
        Sha3_384 => "hmac_sha3_384_test.json", 66, 108;
        Sha3_512 => "hmac_sha3_512_test.json", 66, 108;
    }
}

/// RFC 4231, test cases 1, 2 and 6 (key longer than the block), HMAC-SHA-256 and -512.
#[test]
fn rfc4231() {
    let cases: [(Vec<u8>, &[u8], &str, &str); 3] = [
        (
            vec![0x0b; 20],
            b"Hi There",
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
            "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde\
             daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854",
        ),
        (
            b"Jefe".to_vec(),
            b"what do ya want for nothing?",
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554\
             9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
        ),
        (
            vec![0xaa; 131],
            b"Test Using Larger Than Block-Size Key - Hash Key First",
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
            "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352\
             6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598",
        ),
    ];
    for (key, data, t256, t512) in cases {
        assert_eq!(hex::encode(Hmac::<Sha256>::mac(&key, data)), t256);
        assert_eq!(
            hex::encode(Hmac::<Sha512>::mac(&key, data)),
            t512.replace(' ', "")
        );
    }
}

/// One Wycheproof HKDF file: `valid` outputs derived exactly, 3 sizes over 255 hash
/// lengths refused with `TooLong`.
fn check_hkdf_file<H: Hash>(file: &str, valid_count: usize) {
    let (mut valid, mut invalid) = (0, 0);
    for (_g, t) in wycheproof_tests(file) {
        let id = t["tcId"].as_u64().unwrap();
        let size = t["size"].as_u64().unwrap() as usize;
        let mut okm = vec![0u8; size];
        let r = Hkdf::<H>::derive(
            &wy_hex(&t, "salt"),
            &wy_hex(&t, "ikm"),
            &wy_hex(&t, "info"),
            &mut okm,
        );
        match t["result"].as_str().unwrap() {
            "valid" => {
                assert_eq!(r, Ok(()), "{file} tcId {id}");
                assert_eq!(okm, wy_hex(&t, "okm"), "{file} tcId {id}");
                valid += 1;
            }
            _ => {
                assert!(
                    matches!(r, Err(Error::TooLong { .. })),
                    "{file} tcId {id}: {r:?}"
                );
                invalid += 1;
            }
        }
    }
    assert_eq!((valid, invalid), (valid_count, 3), "{file}: valid, invalid");
}

#[test]
fn wycheproof_hkdf() {
    every_backend::<Sha1>(|| check_hkdf_file::<Sha1>("hkdf_sha1_test.json", 84));
    every_backend::<Sha256>(|| check_hkdf_file::<Sha256>("hkdf_sha256_test.json", 83));
    every_backend::<Sha384>(|| check_hkdf_file::<Sha384>("hkdf_sha384_test.json", 80));
    every_backend::<Sha512>(|| check_hkdf_file::<Sha512>("hkdf_sha512_test.json", 80));
}

/// One Wycheproof PBKDF2 file: exactly `count` tests, all valid.
fn check_pbkdf2_file<H: Hash>(file: &str, count: usize) {
    let tests = wycheproof_tests(file);
    assert_eq!(tests.len(), count, "{file}");
    for (_g, t) in tests {
        let id = t["tcId"].as_u64().unwrap();
        let iterations = t["iterationCount"].as_u64().unwrap() as u32;
        let mut dk = vec![0u8; t["dkLen"].as_u64().unwrap() as usize];
        let r = pbkdf2_hmac::<H>(
            &wy_hex(&t, "password"),
            &wy_hex(&t, "salt"),
            iterations,
            &mut dk,
        );
        assert_eq!(t["result"].as_str(), Some("valid"), "{file} tcId {id}");
        assert_eq!(r, Ok(()), "{file} tcId {id}");
        assert_eq!(dk, wy_hex(&t, "dk"), "{file} tcId {id}");
    }
}

#[test]
fn wycheproof_pbkdf2() {
    every_backend::<Sha1>(|| check_pbkdf2_file::<Sha1>("pbkdf2_hmacsha1_test.json", 64));
    every_backend::<Sha224>(|| check_pbkdf2_file::<Sha224>("pbkdf2_hmacsha224_test.json", 58));
    every_backend::<Sha256>(|| check_pbkdf2_file::<Sha256>("pbkdf2_hmacsha256_test.json", 60));
    every_backend::<Sha384>(|| check_pbkdf2_file::<Sha384>("pbkdf2_hmacsha384_test.json", 58));
    every_backend::<Sha512>(|| check_pbkdf2_file::<Sha512>("pbkdf2_hmacsha512_test.json", 58));
}

#[test]
fn bad_parameters_are_errors() {
    let mut out = [0u8; 32];
    assert!(matches!(
        pbkdf2_hmac::<Sha256>(b"pw", b"salt", 0, &mut out),
        Err(Error::InvalidParameter { .. })
    ));
    assert!(matches!(
        pbkdf2_hmac::<Sha256>(b"pw", b"salt", 1, &mut []),
        Err(Error::InvalidParameter { .. })
    ));
    let mut big = vec![0u8; 255 * 32 + 1];
    assert!(matches!(
        Hkdf::<Sha256>::derive(b"", b"ikm", b"", &mut big),
        Err(Error::TooLong { .. })
    ));
    let mut max = vec![0u8; 255 * 32];
    assert_eq!(Hkdf::<Sha256>::derive(b"", b"ikm", b"", &mut max), Ok(()));
    let tag = Hmac::<Sha256>::mac(b"k", b"m");
    assert_eq!(
        Hmac::<Sha256>::verify_mac(b"k", b"m", &tag.as_ref()[..31]),
        Err(Error::InvalidTagLength { got: 31 })
    );
    let mut m = Hmac::<Sha256>::new(b"k");
    m.update(b"m");
    assert_eq!(
        m.verify_truncated(&tag.as_ref()[..3]),
        Err(Error::InvalidTagLength { got: 3 })
    );
    let mut bad = tag;
    bad.as_mut()[0] ^= 1;
    assert_eq!(
        Hmac::<Sha256>::verify_mac(b"k", b"m", bad.as_ref()),
        Err(Error::AuthenticationFailed)
    );
}

#[test]
fn hmac_streaming_equals_one_shot() {
    let key = b"a key that is shorter than the block";
    let data: Vec<u8> = (0..1000u32).map(|i| (i * 13) as u8).collect();
    let expect = Hmac::<Sha512>::mac(key, &data);
    for split in [0usize, 1, 63, 64, 127, 128, 129, 500, 999, 1000] {
        let mut m = Hmac::<Sha512>::new(key);
        m.update(&data[..split]);
        let fork = m.clone();
        m.update(&data[split..]);
        assert_eq!(m.finalize(), expect, "split {split}");
        let mut f = fork;
        f.update(&data[split..]);
        assert_eq!(f.finalize(), expect, "clone at {split}");
    }
}
