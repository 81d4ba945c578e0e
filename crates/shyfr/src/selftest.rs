//! Known-answer self-tests of every algorithm on every backend (`shyfr selftest`).
//!
//! Each known answer is a published test vector (FIPS 197, SP 800-38A/B/C/E/F, IEEE 1619,
//! the GCM specification, FIPS 180-4 and 202 examples, SP 800-185, RFC 4231, 5869, 6070,
//! DSTU 7624:2014 Annex B, DSTU 7564:2014 examples, GOST 34.311-95 Annex A, NIST CAVP
//! TDES, Wycheproof RSA PKCS#1 v1.5 signature generation; the source is in each
//! test's name). [`run`] computes every one of them on every backend of its algorithm
//! family that this CPU can run (after `SHYFR_CPU`), through the public explicit-backend
//! constructors, so a backend whose one-time self-test against the portable code failed
//! shows up here as a failure rather than as a missing row. HMAC, HKDF and PBKDF2 have no
//! backend of their own: they run on the hash's default backend (row `default`).
//!
//! This complements the cached start-up check that [`crate::cpu`]'s backend declarations
//! run before a hardware backend is first used (its output on fixed input must equal the
//! portable code's): that one compares backends with each other, this one compares every
//! backend with the published answers.
//!
//! ```
//! let outcomes = shyfr::selftest::run();
//! assert!(outcomes.iter().all(|o| o.status != shyfr::selftest::Status::Failed));
//! ```

use alloc::vec;
use alloc::vec::Vec;

use crate::aead::aes_gcm::AesGcm;
use crate::aead::ccm::AesCcm;
use crate::aead::ghash::{self, Ghash};
use crate::arith::bigint::{self, BoxedUint, Modulus};
use crate::block::aes::{self, Aes};
use crate::block::des::{self, Des, Tdes};
use crate::block::gost28147::{self, Gost28147, Sbox};
use crate::block::kalyna::{self, Kalyna};
use crate::cpu::Feature;
use crate::hash::gost34311::Gost34311;
use crate::hash::kupyna::{self, Kupyna};
use crate::hash::sha1::{self, Sha1};
use crate::hash::sha2::{
    Sha224, Sha256, Sha256Backend, Sha256ManyBackend, Sha384, Sha512, Sha512Backend,
    Sha512ManyBackend,
};
use crate::hash::sha3::{self, Sha3_256, Shake128};
use crate::hash::XofReader;
use crate::kdf::hkdf::Hkdf;
use crate::kdf::pbkdf2::pbkdf2_hmac;
use crate::mac::hmac::Hmac;
use crate::mac::kmac::Kmac128;
use crate::mac::kupyna_kmac::KupynaKmac;
use crate::mode::cbc::Cbc;
use crate::mode::cmac::Cmac;
use crate::mode::ctr::Ctr;
use crate::mode::gost28147::{Gamma, Mac};
use crate::mode::kw::Kw;
use crate::mode::xts::Xts;
use crate::sig::rsa::RsaPublicKey;
use crate::Error;

/// What one known answer gave on one backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The backend computed the published answer.
    Passed,
    /// The backend computed something else, or refused to run although the CPU has its
    /// features (its start-up self-test failed).
    Failed,
    /// This CPU (after `SHYFR_CPU`) lacks the backend's features: nothing was run.
    NotOnThisCpu,
}

/// One known answer on one backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The known answer's number, `0..`[`count`]`()`.
    pub index: usize,
    /// What was computed, with the vector's source, e.g. `"AES-128 encrypt, FIPS 197 C.1"`.
    pub test: &'static str,
    /// The backend family, as in [`crate::registry::backends`] (`"hmac"`, `"hkdf"` and
    /// `"pbkdf2"` for the constructions without a backend of their own).
    pub family: &'static str,
    /// The backend's name (`"default"` for those constructions).
    pub backend: &'static str,
    /// The verdict.
    pub status: Status,
}

/// A known answer: `run(backend name)` computes it on that backend of `family`.
struct Kat {
    test: &'static str,
    family: &'static str,
    expect: &'static str,
    run: fn(&str) -> Result<Vec<u8>, Error>,
}

fn unhex(s: &str) -> Vec<u8> {
    let d = |c: u8| match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => panic!("not hex"),
    };
    s.as_bytes()
        .chunks_exact(2)
        .map(|p| d(p[0]) << 4 | d(p[1]))
        .collect()
}

fn aes_on(name: &str, key: &[u8]) -> Result<Aes, Error> {
    Aes::with_backend(
        key,
        aes::Backend::from_name(name).ok_or(Error::BackendUnavailable)?,
    )
}

fn aes_b(name: &str) -> Result<aes::Backend, Error> {
    aes::Backend::from_name(name).ok_or(Error::BackendUnavailable)
}

/// The GCM engine called `name`: a fused engine from the first backend pair that has it,
/// or the generic one on the fastest backends.
fn gcm_engine(name: &str, key: &[u8]) -> Result<AesGcm, Error> {
    if name == "generic" {
        return AesGcm::with_backends_generic(key, aes::Backend::best(), ghash::Backend::best());
    }
    for &a in aes::Backend::ALL {
        for &g in ghash::Backend::ALL {
            if let Ok(e) = AesGcm::with_backends(key, a, g) {
                if e.engine() == name {
                    return Ok(e);
                }
            }
        }
    }
    Err(Error::BackendUnavailable)
}

/// FIPS 197 appendix C and SP 800-38A appendix F: key, plaintext.
const FIPS197_KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const FIPS197_PT: &str = "00112233445566778899aabbccddeeff";
const F_KEY: &str = "2b7e151628aed2a6abf7158809cf4f3c";
const F_PT: &str = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51\
                    30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";
/// The GCM specification, test case 4.
const GCM4_KEY: &str = "feffe9928665731c6d6a8f9467308308";
const GCM4_IV: &str = "cafebabefacedbaddecaf888";
const GCM4_PT: &str = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72\
                       1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39";
const GCM4_AAD: &str = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
/// GOST 28147-89 library vectors (UAPKI self-tests, cross-checked with BouncyCastle; see
/// `testdata/gost/`), with the `TEST` S-box.
const GOST_KEY: &str = "0100000002000000030000000400000005000000060000000700000008000000";

static KATS: &[Kat] = &[
    Kat {
        test: "AES-128 encrypt, FIPS 197 C.1",
        family: "aes",
        expect: "69c4e0d86a7b0430d8cdb78070b4c55a",
        run: |b| {
            let mut x = unhex(FIPS197_PT);
            aes_on(b, &unhex(FIPS197_KEY)[..16])?.encrypt_blocks(&mut x)?;
            Ok(x)
        },
    },
    Kat {
        test: "AES-128 decrypt, FIPS 197 C.1",
        family: "aes",
        expect: FIPS197_PT,
        run: |b| {
            let mut x = unhex("69c4e0d86a7b0430d8cdb78070b4c55a");
            aes_on(b, &unhex(FIPS197_KEY)[..16])?.decrypt_blocks(&mut x)?;
            Ok(x)
        },
    },
    Kat {
        test: "AES-256 encrypt, FIPS 197 C.3",
        family: "aes",
        expect: "8ea2b7ca516745bfeafc49904b496089",
        run: |b| {
            let mut x = unhex(FIPS197_PT);
            aes_on(b, &unhex(FIPS197_KEY))?.encrypt_blocks(&mut x)?;
            Ok(x)
        },
    },
    Kat {
        test: "AES-128-CBC encrypt, SP 800-38A F.2.1",
        family: "aes",
        expect: "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2\
                 73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7",
        run: |b| {
            let mut x = unhex(F_PT);
            let iv = unhex("000102030405060708090a0b0c0d0e0f");
            Cbc::new(aes_on(b, &unhex(F_KEY))?).encrypt(&iv, &mut x)?;
            Ok(x)
        },
    },
    Kat {
        test: "AES-128-CTR, SP 800-38A F.5.1",
        family: "aes",
        expect: "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff\
                 5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee",
        run: |b| {
            let mut x = unhex(F_PT);
            let iv = unhex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
            Ctr::new(aes_on(b, &unhex(F_KEY))?, &iv)?.apply_keystream(&mut x)?;
            Ok(x)
        },
    },
    Kat {
        test: "AES-128-CMAC, SP 800-38B D.1 example 2",
        family: "aes",
        expect: "070a16b46b4d4144f79bdd9dd04a287c",
        run: |b| {
            let t = Cmac::mac(aes_on(b, &unhex(F_KEY))?, &unhex(&F_PT[..32]))?;
            Ok(t.as_bytes().to_vec())
        },
    },
    Kat {
        test: "XTS-AES-128, IEEE 1619 vector 2",
        family: "aes",
        expect: "c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0",
        run: |b| {
            let x = Xts::new(aes_on(b, &[0x11; 16])?, aes_on(b, &[0x22; 16])?)?;
            let mut d = vec![0x44u8; 32];
            x.encrypt_sector(0x33_3333_3333, &mut d)?;
            Ok(d)
        },
    },
    Kat {
        test: "AES-128-KW, RFC 3394 4.1",
        family: "aes",
        expect: "1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5",
        run: |b| {
            let mut out = vec![0u8; 24];
            let n = Kw::new(aes_on(b, &unhex(FIPS197_KEY)[..16])?)?
                .wrap(&unhex(FIPS197_PT), &mut out)?;
            out.truncate(n);
            Ok(out)
        },
    },
    Kat {
        test: "AES-128-CCM, SP 800-38C C.1",
        family: "aes",
        expect: "7162015b4dac255d",
        run: |b| {
            let c = AesCcm::with_backend(&unhex("404142434445464748494a4b4c4d4e4f"), aes_b(b)?)?
                .with_tag_len(4)?;
            let mut x = unhex("20212223");
            let t =
                c.seal_in_place(&unhex("10111213141516"), &unhex("0001020304050607"), &mut x)?;
            x.extend_from_slice(t.as_bytes());
            Ok(x)
        },
    },
    Kat {
        test: "GHASH, GCM specification test case 2",
        family: "ghash",
        expect: "f38cbb1ad69223dcc3457ae5b6b0f885",
        run: |b| {
            let backend = ghash::Backend::from_name(b).ok_or(Error::BackendUnavailable)?;
            let h: [u8; 16] = unhex("66e94bd4ef8a2c3b884cfa59ca342b2e")
                .try_into()
                .map_err(|_| Error::InvalidKeyLength { got: 0 })?;
            let mut g = Ghash::with_backend(&h, backend)?;
            g.update_blocks(&unhex(
                "0388dace60b6a392f328c2b971b2fe7800000000000000000000000000000080",
            ))?;
            Ok(g.finalize().to_vec())
        },
    },
    Kat {
        test: "AES-128-GCM seal, GCM specification test case 4",
        family: "aes-gcm",
        expect: "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e\
                 21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091\
                 5bc94fbc3221a5db94fae95ae7121a47",
        run: |b| {
            let g = gcm_engine(b, &unhex(GCM4_KEY))?;
            let mut x = unhex(GCM4_PT);
            let t = g.seal_in_place(&unhex(GCM4_IV), &unhex(GCM4_AAD), &mut x)?;
            x.extend_from_slice(t.as_bytes());
            Ok(x)
        },
    },
    Kat {
        test: "SHA-1 \"abc\", FIPS 180-4 example",
        family: "sha1",
        expect: "a9993e364706816aba3e25717850c26c9cd0d89d",
        run: |b| {
            let mut h =
                Sha1::with_backend(sha1::Backend::from_name(b).ok_or(Error::BackendUnavailable)?)?;
            h.update(b"abc");
            Ok(h.finalize().to_vec())
        },
    },
    Kat {
        test: "SHA-1 two blocks, FIPS 180-4 example",
        family: "sha1",
        expect: "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
        run: |b| {
            let mut h =
                Sha1::with_backend(sha1::Backend::from_name(b).ok_or(Error::BackendUnavailable)?)?;
            h.update(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq");
            Ok(h.finalize().to_vec())
        },
    },
    Kat {
        test: "SHA-224 \"abc\", FIPS 180-4 example",
        family: "sha256",
        expect: "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
        run: |b| {
            let mut h = Sha224::with_backend(
                Sha256Backend::from_name(b).ok_or(Error::BackendUnavailable)?,
            )?;
            h.update(b"abc");
            Ok(h.finalize().to_vec())
        },
    },
    Kat {
        test: "SHA-256 \"abc\", FIPS 180-4 example",
        family: "sha256",
        expect: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        run: |b| {
            let mut h = Sha256::with_backend(
                Sha256Backend::from_name(b).ok_or(Error::BackendUnavailable)?,
            )?;
            h.update(b"abc");
            Ok(h.finalize().to_vec())
        },
    },
    Kat {
        test: "SHA-256 \"abc\" sixteen times at once (digest_many), FIPS 180-4 example",
        family: "sha256-many",
        expect: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        run: |b| {
            let backend = Sha256ManyBackend::from_name(b).ok_or(Error::BackendUnavailable)?;
            let mut out = [[0u8; 32]; 16];
            Sha256::digest_many_with_backend(backend, &[&b"abc"[..]; 16], &mut out)?;
            Ok(out[15].to_vec())
        },
    },
    Kat {
        test: "SHA-512 \"abc\" eight times at once (digest_many), FIPS 180-4 example",
        family: "sha512-many",
        expect: "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
                 2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
        run: |b| {
            let backend = Sha512ManyBackend::from_name(b).ok_or(Error::BackendUnavailable)?;
            let mut out = [[0u8; 64]; 8];
            Sha512::digest_many_with_backend(backend, &[&b"abc"[..]; 8], &mut out)?;
            Ok(out[7].to_vec())
        },
    },
    Kat {
        test: "SHA-384 \"abc\", FIPS 180-4 example",
        family: "sha512",
        expect: "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed\
                 8086072ba1e7cc2358baeca134c825a7",
        run: |b| {
            let mut h = Sha384::with_backend(
                Sha512Backend::from_name(b).ok_or(Error::BackendUnavailable)?,
            )?;
            h.update(b"abc");
            Ok(h.finalize().to_vec())
        },
    },
    Kat {
        test: "SHA-512 \"abc\", FIPS 180-4 example",
        family: "sha512",
        expect: "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
                 2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
        run: |b| {
            let mut h = Sha512::with_backend(
                Sha512Backend::from_name(b).ok_or(Error::BackendUnavailable)?,
            )?;
            h.update(b"abc");
            Ok(h.finalize().to_vec())
        },
    },
    Kat {
        test: "SHA3-256 \"abc\", FIPS 202 example",
        family: "keccak",
        expect: "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
        run: |b| {
            let mut h = Sha3_256::with_backend(
                sha3::Backend::from_name(b).ok_or(Error::BackendUnavailable)?,
            )?;
            h.update(b"abc");
            Ok(h.finalize().to_vec())
        },
    },
    Kat {
        test: "SHAKE128 empty, 32 bytes, FIPS 202 example",
        family: "keccak",
        expect: "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26",
        run: |b| {
            let h = Shake128::with_backend(
                sha3::Backend::from_name(b).ok_or(Error::BackendUnavailable)?,
            )?;
            let mut out = vec![0u8; 32];
            h.finalize_xof().read(&mut out);
            Ok(out)
        },
    },
    Kat {
        test: "KMAC128, SP 800-185 sample 1",
        family: "keccak",
        expect: "e5780b0d3ea6f7d3a429c5706aa43a00fadbd7d49628839e3187243f456ee14e",
        run: |b| {
            let key: Vec<u8> = (0x40u8..0x60).collect();
            let backend = sha3::Backend::from_name(b).ok_or(Error::BackendUnavailable)?;
            let mut m = Kmac128::with_backend(&key, b"", backend)?;
            m.update(&[0, 1, 2, 3]);
            let mut out = vec![0u8; 32];
            m.finalize_into(&mut out)?;
            Ok(out)
        },
    },
    Kat {
        test: "HMAC-SHA-256, RFC 4231 test case 2",
        family: "hmac",
        expect: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
        run: |_| Ok(Hmac::<Sha256>::mac(b"Jefe", b"what do ya want for nothing?").to_vec()),
    },
    Kat {
        test: "HKDF-SHA-256, RFC 5869 A.1",
        family: "hkdf",
        expect: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf\
                 34007208d5b887185865",
        run: |_| {
            let mut okm = vec![0u8; 42];
            Hkdf::<Sha256>::derive(
                &unhex("000102030405060708090a0b0c"),
                &[0x0b; 22],
                &unhex("f0f1f2f3f4f5f6f7f8f9"),
                &mut okm,
            )?;
            Ok(okm)
        },
    },
    Kat {
        test: "PBKDF2-HMAC-SHA-1, 2 iterations, RFC 6070",
        family: "pbkdf2",
        expect: "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957",
        run: |_| {
            let mut dk = vec![0u8; 20];
            pbkdf2_hmac::<Sha1>(b"password", b"salt", 2, &mut dk)?;
            Ok(dk)
        },
    },
    Kat {
        test: "GOST 28147-89 ECB, TEST S-box (UAPKI self-test)",
        family: "gost28147",
        expect: "863e78dd2d60d13ce38f0f691f68f7feb99bb76c3073142d",
        run: |b| {
            let g = gost_on(
                b,
                &unhex("348724a4c1a67667153dde5933884250e3248c657d413b8c1c9ca09a56d968cf"),
            )?;
            let mut x = unhex("34c01533e37d1c56e9431604f57e37a18f90eb0333a33362");
            g.encrypt_blocks(&mut x)?;
            Ok(x)
        },
    },
    Kat {
        test: "GOST 28147-89 gamma, TEST S-box (UAPKI self-test)",
        family: "gost28147",
        expect: "da21005efbea34aa48d17ebf1c4f52a18eca42d3ff4b46f4",
        run: |b| {
            let g = gost_on(b, &unhex(GOST_KEY))?;
            let mut x = unhex("0102030405060708090a0b0c0d0e0f101112131415161718");
            Gamma::new(&g, &unhex("0300000003000000"))?.apply_keystream(&mut x);
            Ok(x)
        },
    },
    Kat {
        test: "GOST 28147-89 MAC, TEST S-box (UAPKI self-test)",
        family: "gost28147",
        expect: "7e4a9667",
        run: |b| {
            let g = gost_on(b, &unhex(GOST_KEY))?;
            let data = unhex("d1ce841aa50de523b0ab76646f0d1ee8ae02aa0c4e8eafb3");
            Ok(Mac::mac(&g, &data).to_vec())
        },
    },
    Kat {
        test: "GOST 34.311-95, Annex A.3.1",
        family: "gost34311",
        expect: "b1c466d37519b82e8319819ff32595e047a28cb6f83eff1c6916a815a637fffa",
        run: |b| {
            let backend = gost28147::Backend::from_name(b).ok_or(Error::BackendUnavailable)?;
            let mut h = Gost34311::with_backend(&Sbox::TEST, &[0; 32], backend)?;
            h.update(b"This is message, length=32 bytes");
            Ok(h.finalize().to_vec())
        },
    },
    Kat {
        test: "DES encrypt, NIST CAVP TECBvarkey COUNT 0",
        family: "des",
        expect: "95a8d72813daa94d",
        run: |b| {
            let backend = des::Backend::from_name(b).ok_or(Error::BackendUnavailable)?;
            let mut x = vec![0u8; 8];
            Des::with_backend(&unhex("8001010101010101"), backend)?.encrypt_blocks(&mut x)?;
            Ok(x)
        },
    },
    Kat {
        test: "TDES (three keys) encrypt, NIST CAVP TECBMMT3 COUNT 1",
        family: "des",
        expect: "4d0dc182d6e481ac4a3dc6ab6976ccae",
        run: |b| {
            let backend = des::Backend::from_name(b).ok_or(Error::BackendUnavailable)?;
            let key = unhex("49e692290d2a5e46bace79b9648a4c5d491004c262dc9d49");
            let mut x = unhex("6b1540781b01ce1997adae102dbf3c5b");
            Tdes::with_backend(&key, backend)?.encrypt_blocks(&mut x)?;
            Ok(x)
        },
    },
    Kat {
        test: "Kalyna-128/128 encrypt, DSTU 7624:2014 Annex B",
        family: "kalyna",
        expect: "81bf1c7d779bac20e1c9ea39b4d2ad06",
        run: |b| kalyna_ecb(b, 128, 16, "101112131415161718191a1b1c1d1e1f"),
    },
    Kat {
        test: "Kalyna-256/512 encrypt, DSTU 7624:2014 Annex B",
        family: "kalyna",
        expect: "606990e9e6b7b67a4bd6d893d72268b78e02c83c3cd7e102fd2e74a8fdfe5dd9",
        run: |b| {
            kalyna_ecb(
                b,
                256,
                64,
                "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f",
            )
        },
    },
    Kat {
        test: "Kalyna-512/512 encrypt, DSTU 7624:2014 Annex B",
        family: "kalyna",
        expect: "4a26e31b811c356aa61dd6ca0596231a67ba8354aa47f3a13e1deec320eb56b8\
                 95d0f417175bab662fd6f134bb15c86ccb906a26856efeb7c5bc6472940dd9d9",
        run: |b| {
            kalyna_ecb(
                b,
                512,
                64,
                "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f\
                 606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f",
            )
        },
    },
    Kat {
        test: "Kupyna-256, DSTU 7564:2014 example (512-bit message)",
        family: "kupyna",
        expect: "08f4ee6f1be6903b324c4e27990cb24ef69dd58dbe84813ee0a52f6631239875",
        run: |b| kupyna_digest(b, 256, 64),
    },
    Kat {
        test: "Kupyna-512, DSTU 7564:2014 example (1024-bit message)",
        family: "kupyna",
        expect: "76ed1ac28b1d0143013ffa87213b4090b356441263c13e03fa060a8cada32b97\
                 9635657f256b15d5fca4a174de029f0b1b4387c878fcc1c00e8705d783fd7ffe",
        run: |b| kupyna_digest(b, 512, 128),
    },
    Kat {
        test: "Kupyna KMAC-256, DSTU 7564:2014 KMAC example",
        family: "kupyna",
        expect: "b60594d56fa79ba210314c72c2495087ccd0a99fc04acfe2a39ef669925d98ee",
        run: |b| {
            let backend = kupyna::Backend::from_name(b).ok_or(Error::BackendUnavailable)?;
            let key: Vec<u8> = (0..32u8).rev().collect();
            let mut m = KupynaKmac::with_backend(&key, backend)?;
            m.update(&(0..31u8).collect::<Vec<u8>>());
            Ok(m.finalize().to_vec())
        },
    },
    Kat {
        test: "RSA-1024 private exponentiation (EM^d mod n), Wycheproof \
               rsa_pkcs1_1024_sig_gen_test tcId 1",
        family: "bigint",
        expect: RSA1024_SIG,
        run: |b| {
            let backend = bigint::Backend::from_name(b).ok_or(Error::BackendUnavailable)?;
            let n = BoxedUint::from_be_bytes(&unhex(RSA1024_N));
            let d = BoxedUint::from_be_bytes(&unhex(RSA1024_D));
            let m = Modulus::with_backend(&n, backend)?;
            m.pow(&BoxedUint::from_be_bytes(&unhex(RSA1024_EM)), &d)
                .to_be_bytes(128)
        },
    },
    Kat {
        test: "RSA-1024 public operation (sig^e mod n), Wycheproof \
               rsa_pkcs1_1024_sig_gen_test tcId 1",
        family: "rsa",
        expect: RSA1024_EM,
        run: |b| {
            let backend = bigint::Backend::from_name(b).ok_or(Error::BackendUnavailable)?;
            let k = RsaPublicKey::with_backend(&unhex(RSA1024_N), &[1, 0, 1], backend)?;
            k.raw_public(&unhex(RSA1024_SIG))
        },
    },
];

/// The private key of Wycheproof `rsa_pkcs1_1024_sig_gen_test.json` (version 0.8r12),
/// first group: modulus and private exponent.
const RSA1024_N: &str = "d0941e63a980fa92fb25ed4c7b3307f827023034ae7f1a7491f0699ca7607285\
                         e62ad8e994bac21b8b6e305e334f4874067d28e304230dca7f0e85f7ce595770\
                         b6e054c9f844ba86c0696eeba0769d8d4a347e8fe85c724ac1c44994af18a39e\
                         719f721f1bc50c46a39e6c075fcd1649f01f22608ce7dc6955502258336987d9";
const RSA1024_D: &str = "5ff4a47e690ea338573e3d8b3fea5c32378ff4296855a51017cba86a9f3de9b1\
                         dc0fbe36c76b9bbd1c4a170a5f448c2a8489b3f3ac858be4aacb3daaa14dccc1\
                         83622eedd3ae6f0427a2a298b51b97818a5430f13705f42d8b25476f939c935e\
                         389e30d9ade5d0180920135f5aef0c5fecd15f00b83b51dab8ba930d88826801";

/// Its signature of the empty message (tcId 1, SHA-1).
const RSA1024_SIG: &str = "03e64d148e05201b021fb5d3d72ab6abd4294be6c1673277ba5822ad2fe7ce4b\
                           b29ac547b2fdf09c2894ea0e31e76f1b3e1937db91c389467e9a8ac7be0a4f67\
                           4456f01c5b4fa4277a26028b49b16e25689827d0a4b9f1c25a63350dc15131da\
                           908a05c7cfa8c08a67ac9efe3b0cd04aba7db12064cbc36729eaaec540c4bc12";
/// EMSA-PKCS1-v1_5 (RFC 8017 9.2) of the empty message with SHA-1, 128 bytes: what that
/// signature opens to.
const RSA1024_EM: &str = "0001ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff\
                          ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff\
                          ffffffffffffffffffffffffffffffffffffffffffffffffffffffff00302130\
                          0906052b0e03021a05000414da39a3ee5e6b4b0d3255bfef95601890afd80709";

/// Kupyna with `bits`-bit output of the message `00 01 02 ..` of `len` bytes.
fn kupyna_digest(name: &str, bits: usize, len: u8) -> Result<Vec<u8>, Error> {
    let b = kupyna::Backend::from_name(name).ok_or(Error::BackendUnavailable)?;
    let mut h = Kupyna::with_backend(bits, b)?;
    h.update(&(0..len).collect::<Vec<u8>>());
    let mut out = vec![0u8; bits / 8];
    h.finalize_into(&mut out)?;
    Ok(out)
}

fn gost_on(name: &str, key: &[u8]) -> Result<Gost28147, Error> {
    let b = gost28147::Backend::from_name(name).ok_or(Error::BackendUnavailable)?;
    Gost28147::with_backend(key, &Sbox::TEST, b)
}

/// Kalyna ECB of `pt` under the key `00 01 02 ..` of `key_len` bytes.
fn kalyna_ecb(name: &str, block_bits: usize, key_len: usize, pt: &str) -> Result<Vec<u8>, Error> {
    let b = kalyna::Backend::from_name(name).ok_or(Error::BackendUnavailable)?;
    let key: Vec<u8> = (0..key_len as u8).collect();
    let mut x = unhex(&pt.replace(' ', ""));
    Kalyna::with_backend(block_bits, &key, b)?.encrypt_blocks(&mut x)?;
    Ok(x)
}

/// The number of known answers (each runs on every backend of its family).
pub fn count() -> usize {
    KATS.len()
}

/// One backend row of a family: its name and the features it needs.
fn rows(family: &'static str) -> Vec<(&'static str, &'static [Feature])> {
    let v: Vec<_> = crate::registry::backends()
        .filter(|r| r.algorithm == family)
        .map(|r| (r.backend, r.needs))
        .collect();
    if v.is_empty() {
        vec![("default", &[][..])]
    } else {
        v
    }
}

fn run_with(corrupt: Option<usize>, f: &mut dyn FnMut(Outcome)) {
    let enabled = crate::cpu::enabled();
    for (index, kat) in KATS.iter().enumerate() {
        let mut expect = unhex(&kat.expect.replace(' ', ""));
        if corrupt == Some(index) {
            expect[0] ^= 1;
        }
        for (backend, needs) in rows(kat.family) {
            let status = if !enabled.has_all(needs) {
                Status::NotOnThisCpu
            } else {
                match (kat.run)(backend) {
                    Ok(got) if got == expect => Status::Passed,
                    _ => Status::Failed,
                }
            };
            f(Outcome {
                index,
                test: kat.test,
                family: kat.family,
                backend,
                status,
            });
        }
    }
}

/// Runs every known answer on every backend of its family, in order, and hands each
/// outcome to `f` as it is known.
pub fn run_each(mut f: impl FnMut(Outcome)) {
    run_with(None, &mut f);
}

/// Runs every known answer on every backend of its family; see [`run_each`].
pub fn run() -> Vec<Outcome> {
    let mut v = Vec::new();
    run_each(|o| v.push(o));
    v
}

/// [`run_each`] with the expected answer of known answer `index` corrupted (one bit
/// flipped): every backend that runs it must then report [`Status::Failed`]. This is how
/// the tests (and `shyfr selftest --corrupt N`) show that the comparison can fail.
#[cfg(any(test, feature = "hazmat"))]
pub fn run_each_corrupting(index: usize, mut f: impl FnMut(Outcome)) {
    run_with(Some(index), &mut f);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_answer_passes_where_the_cpu_allows() {
        let mut ran = 0;
        run_each(|o| {
            assert_ne!(o.status, Status::Failed, "{o:?}");
            ran += (o.status == Status::Passed) as usize;
        });
        // Every known answer ran at least on the portable backend.
        assert!(ran >= count());
    }

    #[test]
    fn each_corrupted_answer_is_caught_on_every_backend() {
        for i in 0..count() {
            let mut failed = 0;
            run_each_corrupting(i, |o| match o.status {
                Status::Failed => {
                    assert_eq!(o.index, i, "{o:?}");
                    failed += 1;
                }
                Status::Passed => assert_ne!(o.index, i, "{o:?}: corruption missed"),
                Status::NotOnThisCpu => {}
            });
            assert!(failed >= 1, "known answer {i}: nothing failed");
        }
    }

    #[test]
    fn every_registry_family_has_a_known_answer() {
        for r in crate::registry::backends() {
            assert!(
                KATS.iter().any(|k| k.family == r.algorithm),
                "no known answer for {}",
                r.algorithm
            );
        }
    }
}
