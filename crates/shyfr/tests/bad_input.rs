//! The bad-input matrix: for every algorithm, wrong key, IV/nonce and tag lengths, empty
//! and maximal inputs, invalid padding and truncated ciphertexts each return the right
//! error variant, never panic, and leave no plaintext in the output buffer (zeroed, or
//! untouched when the input was refused before any processing). AES-based rows run under
//! every AES backend, Kalyna, GOST and DES rows under each of theirs. (The invalid
//! Wycheproof vectors are checked file by file, with their exact error, in `gcm.rs`,
//! `ccm.rs`, `modes_wycheproof.rs`, `hmac_kdf.rs` and `kmac.rs`.)

mod common;

use std::mem::discriminant;

use common::{aes_backends, backends};
use shyfr::aead::aes_gcm::AesGcm;
use shyfr::aead::ccm::AesCcm;
use shyfr::aead::dstu7624::{ccm::Ccm as DCcm, gcm::Gcm as DGcm};
use shyfr::aes::Aes;
use shyfr::des::{self, Des, Tdes};
use shyfr::gost28147::{self, Gost28147, Sbox};
use shyfr::hash::sha2::{Sha256, Sha512};
use shyfr::kalyna::{self, Kalyna, Kalyna128_128, Kalyna256_512};
use shyfr::kdf::hkdf::Hkdf;
use shyfr::kdf::pbkdf2::pbkdf2_hmac;
use shyfr::mac::hmac::Hmac;
use shyfr::mac::kmac::{Kmac128, Kmac256};
use shyfr::mode::cbc::Cbc;
use shyfr::mode::cfb::CfbEncryptor;
use shyfr::mode::cmac::Cmac;
use shyfr::mode::ctr::Ctr;
use shyfr::mode::dstu7624::{ctr::Ctr as DCtr, kw::Kw as DKw, xts::Xts as DXts};
use shyfr::mode::ecb::Ecb;
use shyfr::mode::gost28147::{Gamma, Mac as GostMac};
use shyfr::mode::kw::{Kw, Kwp};
use shyfr::mode::ofb::Ofb;
use shyfr::mode::xts::Xts;
use shyfr::pad::{iso7816_unpad, pkcs7_unpad, Padding};
use shyfr::Error;

/// `r` is an error of the same variant as `want` (the `what` strings are descriptions).
#[track_caller]
fn is_err_like<T: std::fmt::Debug>(r: Result<T, Error>, want: Error, what: &str) {
    match r {
        Err(e) => assert_eq!(
            discriminant(&e),
            discriminant(&want),
            "{what}: {e:?}, want {want:?}"
        ),
        Ok(v) => panic!("{what}: accepted ({v:?}), want {want:?}"),
    }
}

#[track_caller]
fn zeroed(buf: &[u8], what: &str) {
    assert!(buf.iter().all(|&b| b == 0), "{what}: output not zeroed");
}

fn pattern(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(41).wrapping_add(seed))
        .collect()
}

// ---------------------------------------------------------------------------------------
// Key lengths

#[test]
fn wrong_key_lengths_for_every_cipher_and_backend() {
    let mut rows = 0;
    for len in 0..=130usize {
        let key = pattern(len, 1);
        let bad = Error::InvalidKeyLength { got: len };
        let aes_ok = matches!(len, 16 | 24 | 32);
        for b in aes_backends() {
            match Aes::with_backend(&key, b) {
                Ok(_) => assert!(aes_ok, "aes {len}"),
                Err(e) => assert_eq!(e, bad, "aes {len} {b:?}"),
            }
            match AesCcm::with_backend(&key, b) {
                Ok(_) => assert!(aes_ok),
                Err(e) => assert_eq!(e, bad, "ccm {len}"),
            }
            match Xts::<Aes>::from_key_slice(&key, b) {
                // Two AES keys of one size (AES-192 pairs too, beyond IEEE 1619).
                Ok(_) => assert!(matches!(len, 32 | 48 | 64), "xts {len}"),
                Err(e) => assert_eq!(e, bad, "xts {len}"),
            }
            rows += 3;
        }
        match AesGcm::new_from_slice(&key) {
            Ok(_) => assert!(aes_ok),
            Err(e) => assert_eq!(e, bad, "gcm {len}"),
        }
        for b in backends::<kalyna::Backend>() {
            for bits in [128usize, 256, 512] {
                let ok = len == bits / 8 || (len == bits / 4 && bits < 512);
                match Kalyna::with_backend(bits, &key, b) {
                    Ok(_) => assert!(ok, "kalyna-{bits} {len}"),
                    Err(e) => assert_eq!(e, bad, "kalyna-{bits} {len} {b:?}"),
                }
                rows += 1;
            }
        }
        for b in backends::<gost28147::Backend>() {
            match Gost28147::with_backend(&key, &Sbox::DKE1, b) {
                Ok(_) => assert_eq!(len, 32),
                Err(e) => assert_eq!(e, bad, "gost {len}"),
            }
            rows += 1;
        }
        for b in backends::<des::Backend>() {
            match Des::with_backend(&key, b) {
                Ok(_) => assert_eq!(len, 8),
                Err(e) => assert_eq!(e, bad, "des {len}"),
            }
            match Tdes::with_backend(&key, b) {
                Ok(_) => assert!(len == 16 || len == 24, "tdes {len}"),
                Err(e) => assert_eq!(e, bad, "tdes {len}"),
            }
            rows += 2;
        }
        // Typed constructors from slices.
        assert_eq!(Kalyna128_128::new_from_slice(&key).is_ok(), len == 16);
        assert_eq!(Kalyna256_512::new_from_slice(&key).is_ok(), len == 64);
        assert_eq!(
            Gost28147::new_from_slice(&key, &Sbox::TEST).is_ok(),
            len == 32
        );
        assert_eq!(Des::new_from_slice(&key).is_ok(), len == 8);
        // KMAC: keys shorter than the security strength are refused; HMAC takes any key.
        match Kmac128::new(&key, b"") {
            Ok(_) => assert!(len >= Kmac128::MIN_KEY_LEN),
            Err(e) => assert_eq!(e, bad, "kmac128 {len}"),
        }
        match Kmac256::new(&key, b"") {
            Ok(_) => assert!(len >= Kmac256::MIN_KEY_LEN),
            Err(e) => assert_eq!(e, bad, "kmac256 {len}"),
        }
    }
    // Kalyna's block size is a parameter too.
    for bits in [0usize, 64, 127, 129, 192, 384, 1024] {
        is_err_like(
            Kalyna::new(bits, &[0u8; 32]),
            Error::InvalidParameter { what: "" },
            &format!("kalyna-{bits}"),
        );
    }
    // S-boxes: packed (64) or expanded (128) bytes, each row a permutation.
    for len in [0usize, 1, 63, 65, 127, 129] {
        assert!(Sbox::from_bytes(&vec![0u8; len]).is_err(), "sbox {len}");
    }
    assert!(rows > 1000, "{rows}");
}

// ---------------------------------------------------------------------------------------
// IV, nonce and tweak lengths

#[test]
fn wrong_iv_and_nonce_lengths() {
    for b in aes_backends() {
        let aes = Aes::with_backend(&[7u8; 16], b).unwrap();
        for len in (0..=40usize).filter(|&l| l != 16) {
            let iv = pattern(len, 2);
            let bad = Error::InvalidNonceLength { got: len };
            let mut buf = pattern(32, 3);
            let orig = buf.clone();
            assert_eq!(Cbc::new(&aes).encrypt(&iv, &mut buf), Err(bad), "cbc {len}");
            assert_eq!(Cbc::new(&aes).decrypt(&iv, &mut buf), Err(bad));
            assert_eq!(
                Cbc::new(&aes)
                    .decrypt_padded(&iv, &mut buf, Padding::Pkcs7)
                    .map(|_| ()),
                Err(bad)
            );
            assert_eq!(Ctr::new(&aes, &iv).map(|_| ()), Err(bad), "ctr {len}");
            assert_eq!(Ofb::new(&aes, &iv).map(|_| ()), Err(bad), "ofb {len}");
            assert_eq!(
                CfbEncryptor::new(&aes, &iv).map(|_| ()),
                Err(bad),
                "cfb {len}"
            );
            assert_eq!(buf, orig, "{len}: data touched on a refused IV");
            let x = Xts::new(aes.clone(), Aes::with_backend(&[8u8; 16], b).unwrap()).unwrap();
            is_err_like(x.encrypt(&iv, &mut buf), bad, &format!("xts tweak {len}"));
            assert_eq!(buf, orig);
        }
        // GCM: any nonce but the empty one; CCM: 7 to 13 bytes.
        let gcm =
            AesGcm::with_backends(&[1u8; 16], b, shyfr::aead::ghash::Backend::best()).unwrap();
        let mut buf = pattern(40, 4);
        let orig = buf.clone();
        let bad = Error::InvalidNonceLength { got: 0 };
        assert_eq!(gcm.seal_in_place(&[], b"", &mut buf).map(|_| ()), Err(bad));
        assert_eq!(buf, orig, "gcm seal wrote on error");
        assert_eq!(gcm.open_in_place(&[], b"", &mut buf, &[0u8; 16]), Err(bad));
        zeroed(&buf, "gcm open with an empty nonce");
        assert!(gcm.encryptor(&[]).is_err() && gcm.decryptor(&[]).is_err());
        assert_eq!(gcm.gmac(&[], b"x").map(|_| ()), Err(bad));
        let ccm = AesCcm::with_backend(&[1u8; 16], b).unwrap();
        for len in (0..=20usize).filter(|l| !(7..=13).contains(l)) {
            let bad = Error::InvalidNonceLength { got: len };
            let mut buf = pattern(40, 4);
            let orig = buf.clone();
            assert_eq!(
                ccm.seal_in_place(&pattern(len, 1), b"", &mut buf)
                    .map(|_| ()),
                Err(bad)
            );
            assert_eq!(buf, orig);
            assert_eq!(
                ccm.open_in_place(&pattern(len, 1), b"", &mut buf, &[0u8; 16]),
                Err(bad)
            );
            zeroed(&buf, "ccm open with a bad nonce");
        }
    }
    // DSTU 7624 over Kalyna: IVs of one block.
    for b in backends::<kalyna::Backend>() {
        let k = Kalyna256_512::with_backend(&[3u8; 64], b).unwrap();
        for len in (0..=70usize).filter(|&l| l != 32) {
            let iv = pattern(len, 5);
            let bad = Error::InvalidNonceLength { got: len };
            assert_eq!(DCtr::new(&k, &iv).map(|_| ()), Err(bad), "dstu ctr {len}");
            let g = DGcm::new(&k, 32).unwrap();
            let mut buf = pattern(64, 6);
            let orig = buf.clone();
            is_err_like(
                g.seal_in_place(&iv, b"", &mut buf),
                bad,
                &format!("dstu gcm {len}"),
            );
            assert_eq!(buf, orig, "dstu gcm seal wrote on a bad iv");
            let c = DCcm::new(&k, 32, 8).unwrap();
            is_err_like(
                c.seal_in_place(&iv, b"", &mut buf),
                bad,
                &format!("dstu ccm {len}"),
            );
            assert_eq!(buf, orig);
            is_err_like(
                DXts::new(&k).unwrap().encrypt(&iv, &mut buf),
                bad,
                "dstu xts",
            );
            assert_eq!(buf, orig);
        }
    }
    // GOST 28147-89 gamma: an 8-byte synchro message.
    for b in backends::<gost28147::Backend>() {
        let g = Gost28147::with_backend(&[9u8; 32], &Sbox::DKE1, b).unwrap();
        for len in (0..=20usize).filter(|&l| l != 8) {
            assert_eq!(
                Gamma::new(&g, &pattern(len, 1)).map(|_| ()),
                Err(Error::InvalidNonceLength { got: len })
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// Tag lengths

#[test]
fn wrong_tag_lengths() {
    for b in aes_backends() {
        let key = [5u8; 16];
        let g = AesGcm::with_backends(&key, b, shyfr::aead::ghash::Backend::best()).unwrap();
        for len in 0..=20usize {
            let ok = (12..=16).contains(&len);
            match g.clone().with_tag_len(len) {
                Ok(_) => assert!(ok, "gcm tag {len}"),
                Err(e) => assert_eq!(e, Error::InvalidTagLength { got: len }),
            }
            match g.clone().with_short_tag_len(len) {
                Ok(_) => assert!(ok || len == 4 || len == 8, "gcm short tag {len}"),
                Err(e) => assert_eq!(e, Error::InvalidTagLength { got: len }),
            }
            // Opening with a tag of another length than the key's: refused, wiped.
            let mut buf = pattern(50, 1);
            let tag = g.seal_in_place(&[1u8; 12], b"a", &mut buf).unwrap();
            if len != 16 {
                let t = &tag
                    .as_bytes()
                    .iter()
                    .copied()
                    .cycle()
                    .take(len)
                    .collect::<Vec<_>>();
                assert_eq!(
                    g.open_in_place(&[1u8; 12], b"a", &mut buf, t),
                    Err(Error::InvalidTagLength { got: len })
                );
                zeroed(&buf, "gcm open with a short tag");
            }
            let c = AesCcm::with_backend(&key, b).unwrap();
            let ok = [4, 6, 8, 10, 12, 14, 16].contains(&len);
            match c.clone().with_tag_len(len) {
                Ok(_) => assert!(ok, "ccm tag {len}"),
                Err(e) => assert_eq!(e, Error::InvalidTagLength { got: len }),
            }
            if len != 16 {
                let mut buf = pattern(50, 1);
                c.seal_in_place(&[1u8; 12], b"a", &mut buf).unwrap();
                assert_eq!(
                    c.open_in_place(&[1u8; 12], b"a", &mut buf, &pattern(len, 3)),
                    Err(Error::InvalidTagLength { got: len })
                );
                zeroed(&buf, "ccm open with a short tag");
            }
            // CMAC verification takes 8 to 16 bytes (shorter is refused).
            let aes = Aes::with_backend(&key, b).unwrap();
            let mut m = Cmac::new(&aes).unwrap();
            m.update(b"msg");
            let full = Cmac::mac(&aes, b"msg").unwrap();
            let t: Vec<u8> = full.as_bytes().iter().copied().cycle().take(len).collect();
            match m.verify(&t) {
                Ok(()) => assert!((8..=16).contains(&len), "cmac tag {len}"),
                Err(e) => assert_eq!(e, Error::InvalidTagLength { got: len }, "cmac {len}"),
            }
        }
    }
    // HMAC: full length for `verify`, 4 to the full length for `verify_truncated`.
    for len in 0..=70usize {
        let full = Hmac::<Sha512>::mac(b"k", b"m");
        let t: Vec<u8> = full.as_ref().iter().copied().cycle().take(len).collect();
        let mut h = Hmac::<Sha512>::new(b"k");
        h.update(b"m");
        match h.clone().verify(&t) {
            Ok(()) => assert_eq!(len, 64),
            Err(e) => assert_eq!(e, Error::InvalidTagLength { got: len }, "hmac {len}"),
        }
        match h.verify_truncated(&t) {
            Ok(()) => assert!((4..=64).contains(&len), "hmac truncated {len}"),
            Err(e) => assert_eq!(e, Error::InvalidTagLength { got: len }, "hmac trunc {len}"),
        }
    }
    // KMAC: outputs under 4 bytes are refused (SP 800-185 8.4.2 recommends 32 bits at
    // least); the DSTU MACs take 8 bytes up to the block; the GOST MAC 4 bytes at most.
    for len in 0..4usize {
        let mut out = vec![0u8; len];
        assert_eq!(
            Kmac256::new(&[7u8; 32], b"")
                .unwrap()
                .finalize_into(&mut out),
            Err(Error::InvalidTagLength { got: len })
        );
    }
    for b in backends::<kalyna::Backend>() {
        let k = Kalyna128_128::with_backend(&[1u8; 16], b).unwrap();
        // 8 bytes up to the block.
        for q in [0usize, 1, 7, 17, 32, 64] {
            is_err_like(
                DGcm::new(&k, q).map(|_| ()),
                Error::InvalidTagLength { got: q },
                "dstu gcm q",
            );
        }
        let g = DGcm::new(&k, 16).unwrap();
        let mut buf = pattern(40, 2);
        let iv = [3u8; 16];
        let tag = g.seal_in_place(&iv, b"", &mut buf).unwrap();
        for len in [0usize, 8, 15, 17] {
            let mut b2 = buf.clone();
            let t: Vec<u8> = tag.as_bytes().iter().copied().cycle().take(len).collect();
            assert_eq!(
                g.open_in_place(&iv, b"", &mut b2, &t),
                Err(Error::InvalidTagLength { got: len })
            );
            zeroed(&b2, "dstu gcm open with a wrong tag length");
        }
    }
    for b in backends::<gost28147::Backend>() {
        let g = Gost28147::with_backend(&[1u8; 32], &Sbox::DKE1, b).unwrap();
        let t = GostMac::mac(&g, b"data");
        for len in 0..=9usize {
            let mut m = GostMac::new(&g);
            m.update(b"data");
            let tt: Vec<u8> = t.iter().copied().cycle().take(len).collect();
            match m.verify(&tt) {
                Ok(()) => assert!((1..=4).contains(&len), "gost mac {len}"),
                Err(e) => assert_eq!(
                    discriminant(&e),
                    discriminant(&Error::InvalidTagLength { got: 0 }),
                    "gost mac {len}: {e:?}"
                ),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Empty and maximal inputs

#[test]
fn empty_inputs() {
    for b in aes_backends() {
        let aes = Aes::with_backend(&[2u8; 16], b).unwrap();
        let iv = [0u8; 16];
        let mut e: [u8; 0] = [];
        // Zero blocks are whole blocks.
        assert_eq!(aes.encrypt_blocks(&mut e), Ok(()));
        assert_eq!(Ecb::new(&aes).decrypt(&mut e), Ok(()));
        assert_eq!(Cbc::new(&aes).decrypt(&iv, &mut e), Ok(()));
        assert_eq!(Ctr::new(&aes, &iv).unwrap().apply_keystream(&mut e), Ok(()));
        // But an empty padded message is no message.
        assert_eq!(
            Cbc::new(&aes)
                .decrypt_padded(&iv, &mut e, Padding::Pkcs7)
                .map(|_| ()),
            Err(Error::BadPadding)
        );
        assert_eq!(pkcs7_unpad(&[], 16).map(|_| ()), Err(Error::BadPadding));
        assert_eq!(iso7816_unpad(&[], 16).map(|_| ()), Err(Error::BadPadding));
        // XTS needs a block; key wrap needs two semiblocks (KWP one byte).
        let x = Xts::new(aes.clone(), Aes::with_backend(&[3u8; 16], b).unwrap()).unwrap();
        for n in 0..16 {
            let mut d = vec![1u8; n];
            is_err_like(x.encrypt(&iv, &mut d), Error::TooShort { what: "" }, "xts");
            assert_eq!(d, vec![1u8; n]);
        }
        let mut out = [0u8; 64];
        is_err_like(
            Kw::new(&aes).unwrap().wrap(&[], &mut out),
            Error::TooShort { what: "" },
            "kw wrap",
        );
        is_err_like(
            Kw::new(&aes).unwrap().wrap(&[0u8; 8], &mut out),
            Error::TooShort { what: "" },
            "kw wrap 8",
        );
        is_err_like(
            Kwp::new(&aes).unwrap().wrap(&[], &mut out),
            Error::TooShort { what: "" },
            "kwp wrap",
        );
        is_err_like(
            Kw::new(&aes).unwrap().unwrap(&[], &mut out),
            Error::TooShort { what: "" },
            "kw unwrap",
        );
        is_err_like(
            Kwp::new(&aes).unwrap().unwrap(&[], &mut out),
            Error::TooShort { what: "" },
            "kwp unwrap",
        );
        // Empty AEAD messages seal and open; a bad tag on one is refused.
        let g = AesGcm::with_backends(&[2u8; 16], b, shyfr::aead::ghash::Backend::best()).unwrap();
        let t = g.seal_in_place(&[1u8; 12], b"", &mut e).unwrap();
        assert_eq!(
            g.open_in_place(&[1u8; 12], b"", &mut e, t.as_bytes()),
            Ok(())
        );
        let mut bad = t.as_bytes().to_vec();
        bad[0] ^= 1;
        assert_eq!(
            g.open_in_place(&[1u8; 12], b"", &mut e, &bad),
            Err(Error::AuthenticationFailed)
        );
        let c = AesCcm::with_backend(&[2u8; 16], b).unwrap();
        let t = c.seal_in_place(&[1u8; 12], b"", &mut e).unwrap();
        assert_eq!(
            c.open_in_place(&[1u8; 12], b"", &mut e, t.as_bytes()),
            Ok(())
        );
        // MACs of nothing.
        assert!(Cmac::mac(&aes, &[]).is_ok());
    }
    for b in backends::<kalyna::Backend>() {
        let k = Kalyna128_128::with_backend(&[1u8; 16], b).unwrap();
        let mut out = [0u8; 64];
        is_err_like(
            DKw::new(&k).unwrap().wrap(&[], &mut out),
            Error::TooShort { what: "" },
            "dstu kw wrap",
        );
        is_err_like(
            DKw::new(&k).unwrap().unwrap(&[], &mut out),
            Error::TooShort { what: "" },
            "dstu kw unwrap",
        );
    }
    // KDFs: no output, zero iterations.
    assert!(matches!(
        pbkdf2_hmac::<Sha256>(b"pw", b"salt", 0, &mut [0u8; 16]),
        Err(Error::InvalidParameter { .. })
    ));
    assert!(matches!(
        pbkdf2_hmac::<Sha256>(b"pw", b"salt", 1, &mut []),
        Err(Error::InvalidParameter { .. })
    ));
    assert_eq!(Hkdf::<Sha256>::derive(b"", b"", b"", &mut []), Ok(()));
}

#[test]
fn maximal_inputs() {
    // HKDF: 255 hash lengths, not one byte more.
    let mut okm = vec![0u8; 255 * 64];
    assert_eq!(Hkdf::<Sha512>::derive(b"s", b"k", b"i", &mut okm), Ok(()));
    let mut okm = vec![0u8; 255 * 64 + 1];
    is_err_like(
        Hkdf::<Sha512>::derive(b"s", b"k", b"i", &mut okm),
        Error::TooLong { what: "" },
        "hkdf",
    );
    zeroed(&okm, "hkdf output on error");
    for b in aes_backends() {
        let aes = Aes::with_backend(&[4u8; 16], b).unwrap();
        // CCM with a 13-byte nonce has a 2-byte length field: 65535 bytes at most.
        let c = AesCcm::with_backend(&[4u8; 16], b).unwrap();
        let mut m = vec![1u8; 65535];
        assert!(c.seal_in_place(&[2u8; 13], b"", &mut m).is_ok());
        let mut m = vec![1u8; 65536];
        is_err_like(
            c.seal_in_place(&[2u8; 13], b"", &mut m),
            Error::TooLong { what: "" },
            "ccm 2^16",
        );
        assert!(m.iter().all(|&x| x == 1), "ccm wrote on a refused message");
        // CTR with a one-byte counter: 256 blocks, then the counter would repeat.
        let mut ctr = Ctr::with_counter_len(&aes, &[0u8; 16], 1).unwrap();
        let mut d = vec![0u8; 256 * 16];
        assert_eq!(ctr.apply_keystream(&mut d), Ok(()));
        let mut one = [0u8; 1];
        assert!(
            ctr.apply_keystream(&mut one).is_err(),
            "ctr counter wrapped"
        );
        let mut ctr = Ctr::with_counter_len(&aes, &[0u8; 16], 1).unwrap();
        assert!(ctr.seek(256 * 16 + 1).is_err());
        // DSTU CCM with a one-byte length field: 255 bytes.
        for kb in backends::<kalyna::Backend>() {
            let k = Kalyna128_128::with_backend(&[1u8; 16], kb).unwrap();
            let c = DCcm::new(&k, 16, 1).unwrap();
            let mut m = vec![0u8; 255];
            assert!(
                c.seal_in_place(&[1u8; 16], b"", &mut m).is_ok(),
                "dstu ccm 255"
            );
            let mut m = vec![0u8; 256];
            assert!(
                c.seal_in_place(&[1u8; 16], b"", &mut m).is_err(),
                "dstu ccm 256"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// Invalid padding and truncated ciphertexts

#[test]
fn invalid_padding_is_one_error_and_wiped() {
    for b in aes_backends() {
        let aes = Aes::with_backend(&[6u8; 16], b).unwrap();
        let cbc = Cbc::new(&aes);
        let iv = [1u8; 16];
        let mut n = 0;
        // Every last byte, with the bytes before it right or wrong.
        for last in 0..=255u8 {
            for consistent in [true, false] {
                let mut pt = pattern(48, last);
                let p = last as usize;
                if (1..=16).contains(&p) && consistent {
                    pt[48 - p..].fill(last);
                } else if (2..=16).contains(&p) {
                    pt[48 - p..].fill(last);
                    pt[48 - p] ^= 0x80;
                }
                pt[47] = last;
                let valid = (1..=16).contains(&p) && (consistent || p == 1);
                let mut ct = pt.clone();
                cbc.encrypt(&iv, &mut ct).unwrap();
                let mut buf = ct.clone();
                let r = cbc
                    .decrypt_padded(&iv, &mut buf, Padding::Pkcs7)
                    .map(|m| m.len());
                let mut out = vec![0xa5u8; 48];
                let r2 = cbc.decrypt_padded_to(&iv, &ct, &mut out, Padding::Pkcs7);
                if valid {
                    assert_eq!(r, Ok(48 - p), "pad {last}");
                    assert_eq!(r2, Ok(48 - p));
                } else {
                    assert_eq!(r, Err(Error::BadPadding), "pad {last} {consistent}");
                    assert_eq!(r2, Err(Error::BadPadding));
                    zeroed(&buf, "cbc decrypt_padded");
                    zeroed(&out, "cbc decrypt_padded_to");
                    let mut ebuf = pt.clone();
                    Ecb::new(&aes).encrypt(&mut ebuf).unwrap();
                    assert_eq!(
                        Ecb::new(&aes)
                            .decrypt_padded(&mut ebuf, Padding::Pkcs7)
                            .map(|_| ()),
                        Err(Error::BadPadding)
                    );
                    zeroed(&ebuf, "ecb decrypt_padded");
                    n += 1;
                }
            }
        }
        assert_eq!(n, 2 * 256 - 16 - 1, "invalid paddings tried");
        // ISO 7816-4: no 0x80 marker, or something after it.
        for bad in [vec![0u8; 16], {
            let mut v = vec![0u8; 16];
            v[3] = 0x80;
            v[9] = 1;
            v
        }] {
            let mut ct = bad.clone();
            cbc.encrypt(&iv, &mut ct).unwrap();
            assert_eq!(
                cbc.decrypt_padded(&iv, &mut ct, Padding::Iso7816)
                    .map(|_| ()),
                Err(Error::BadPadding)
            );
            zeroed(&ct, "iso 7816 unpad");
        }
    }
}

#[test]
fn truncated_ciphertexts() {
    for b in aes_backends() {
        let key = [8u8; 16];
        let aes = Aes::with_backend(&key, b).unwrap();
        let iv = [2u8; 16];
        let msg = pattern(100, 9);
        // CBC with PKCS#7: a ciphertext cut short of a block is not whole blocks.
        let mut ct = msg.clone();
        ct.resize(112, 0);
        let c = Cbc::new(&aes)
            .encrypt_padded(&iv, &mut ct, 100, Padding::Pkcs7)
            .unwrap()
            .to_vec();
        for cut in [1usize, 15, 17] {
            let mut t = c[..c.len() - cut].to_vec();
            let orig = t.clone();
            is_err_like(
                Cbc::new(&aes).decrypt_padded(&iv, &mut t, Padding::Pkcs7),
                Error::NotWholeBlocks { len: 0, block: 0 },
                "cbc cut",
            );
            assert_eq!(t, orig, "refused before decrypting");
        }
        // GCM and CCM: a cut ciphertext fails authentication and is wiped.
        let g = AesGcm::with_backends(&key, b, shyfr::aead::ghash::Backend::best()).unwrap();
        let mut ct = msg.clone();
        let t = g.seal_in_place(&[3u8; 12], b"aad", &mut ct).unwrap();
        for cut in [1usize, 16, 99] {
            let mut x = ct[..ct.len() - cut].to_vec();
            assert_eq!(
                g.open_in_place(&[3u8; 12], b"aad", &mut x, t.as_bytes()),
                Err(Error::AuthenticationFailed)
            );
            zeroed(&x, "gcm cut");
            let mut out = vec![0xa5u8; x.len()];
            assert_eq!(
                g.open_to(
                    &[3u8; 12],
                    b"aad",
                    &ct[..ct.len() - cut],
                    t.as_bytes(),
                    &mut out
                ),
                Err(Error::AuthenticationFailed)
            );
            zeroed(&out, "gcm open_to cut");
        }
        let cc = AesCcm::with_backend(&key, b).unwrap();
        let mut ct = msg.clone();
        let t = cc.seal_in_place(&[3u8; 12], b"aad", &mut ct).unwrap();
        for cut in [1usize, 16, 99] {
            let mut x = ct[..ct.len() - cut].to_vec();
            assert_eq!(
                cc.open_in_place(&[3u8; 12], b"aad", &mut x, t.as_bytes()),
                Err(Error::AuthenticationFailed)
            );
            zeroed(&x, "ccm cut");
        }
        // Key wrap: a cut wrapping is the wrong length or fails its check; wiped.
        let mut w = vec![0u8; 48];
        let n = Kw::new(&aes).unwrap().wrap(&msg[..32], &mut w).unwrap();
        for cut in 1..=16usize {
            let mut out = vec![0xa5u8; 48];
            let r = Kw::new(&aes).unwrap().unwrap(&w[..n - cut], &mut out);
            let want = if cut % 8 != 0 {
                Error::NotWholeBlocks {
                    len: n - cut,
                    block: 8,
                }
            } else if n - cut < 24 {
                Error::TooShort {
                    what: "kw wrapped key (24 bytes at least)",
                }
            } else {
                Error::AuthenticationFailed
            };
            assert_eq!(r, Err(want), "kw cut {cut}");
            assert!(
                out.iter().all(|&x| x == 0 || x == 0xa5),
                "kw cut {cut}: data left"
            );
        }
    }
    // DSTU GCM over Kalyna: a cut ciphertext fails and is wiped.
    for b in backends::<kalyna::Backend>() {
        let k = Kalyna256_512::with_backend(&[5u8; 64], b).unwrap();
        let g = DGcm::new(&k, 32).unwrap();
        let iv = [4u8; 32];
        let mut ct = pattern(100, 1);
        let t = g.seal_in_place(&iv, b"", &mut ct).unwrap();
        for cut in [1usize, 32, 99] {
            let mut x = ct[..ct.len() - cut].to_vec();
            assert_eq!(
                g.open_in_place(&iv, b"", &mut x, t.as_bytes()),
                Err(Error::AuthenticationFailed)
            );
            zeroed(&x, "dstu gcm cut");
        }
        let mut w = vec![0u8; 200];
        let n = DKw::new(&k).unwrap().wrap(&pattern(40, 2), &mut w).unwrap();
        for cut in [1usize, 8, 32, n - 1] {
            let mut out = vec![0xa5u8; 200];
            assert!(
                DKw::new(&k)
                    .unwrap()
                    .unwrap(&w[..n - cut], &mut out)
                    .is_err(),
                "dstu kw cut {cut}"
            );
            assert!(
                out.iter().all(|&x| x == 0 || x == 0xa5),
                "dstu kw cut {cut}: data left"
            );
        }
    }
    // DES / TDES and GOST: partial blocks are errors, data untouched.
    for b in backends::<des::Backend>() {
        let d = Tdes::with_backend(&[1u8; 24], b).unwrap();
        for len in [1usize, 7, 9, 15] {
            let mut buf = vec![3u8; len];
            assert_eq!(
                d.encrypt_blocks(&mut buf),
                Err(Error::NotWholeBlocks { len, block: 8 })
            );
            assert_eq!(buf, vec![3u8; len]);
        }
    }
    for b in backends::<gost28147::Backend>() {
        let g = Gost28147::with_backend(&[1u8; 32], &Sbox::TEST, b).unwrap();
        for len in [1usize, 7, 9, 15] {
            let mut buf = vec![3u8; len];
            assert_eq!(
                g.decrypt_blocks(&mut buf),
                Err(Error::NotWholeBlocks { len, block: 8 })
            );
            assert_eq!(buf, vec![3u8; len]);
        }
    }
}

/// Unavailable backends are errors (every family), never a panic.
#[test]
fn unavailable_backends_are_errors() {
    fn check<B: common::Family>(make: impl Fn(B) -> Result<(), Error>) {
        for &b in B::all() {
            if !b.is_available() {
                assert_eq!(make(b), Err(Error::BackendUnavailable), "{b:?}");
            }
        }
    }
    check::<shyfr::aes::Backend>(|b| Aes::with_backend(&[0; 16], b).map(|_| ()));
    check::<kalyna::Backend>(|b| Kalyna::with_backend(128, &[0; 16], b).map(|_| ()));
    check::<gost28147::Backend>(|b| Gost28147::with_backend(&[0; 32], &Sbox::DKE1, b).map(|_| ()));
    check::<des::Backend>(|b| Des::with_backend(&[0; 8], b).map(|_| ()));
}

/// Kupyna (every backend): output lengths that are not 8 to 512 bits in steps of 8, more
/// than 7 final bits, a wrong output buffer; its KMAC: every key length but 32, 48 and 64
/// bytes (0 to 130), and tags of the wrong length or with one bit wrong.
#[test]
fn kupyna_and_its_kmac() {
    use shyfr::hash::kupyna::{self, Kupyna};
    use shyfr::mac::kupyna_kmac::KupynaKmac;
    let mut runs = 0;
    let avail: Vec<_> = kupyna::Backend::ALL
        .iter()
        .filter(|b| b.is_available())
        .collect();
    for &&b in &avail {
        for bits in 0..=520usize {
            let r = Kupyna::with_backend(bits, b);
            if (8..=512).contains(&bits) && bits % 8 == 0 {
                let h = r.expect("valid length");
                let mut out = vec![0u8; bits / 8];
                is_err_like(
                    h.clone().finalize_bits_into(0, 8, &mut out),
                    Error::InvalidParameter { what: "" },
                    "final bits 8",
                );
                let mut long = vec![0u8; bits / 8 + 1];
                is_err_like(
                    h.clone().finalize_into(&mut long),
                    Error::InvalidParameter { what: "" },
                    "output buffer",
                );
                zeroed(&long, "kupyna rejected output");
            } else {
                is_err_like(r, Error::InvalidParameter { what: "" }, "kupyna bits");
            }
            runs += 1;
        }
        for klen in 0..=130usize {
            let key = pattern(klen, 3);
            let r = KupynaKmac::with_backend(&key, b);
            if matches!(klen, 32 | 48 | 64) {
                let mut m = r.expect("valid key");
                m.update(b"message");
                let tag = m.clone().finalize();
                assert!(m.clone().verify(&tag).is_ok());
                for bad in [
                    &tag[..klen - 1],
                    &[&tag[..], &[0u8][..]].concat()[..],
                    &[][..],
                ] {
                    is_err_like(
                        m.clone().verify(bad),
                        Error::InvalidTagLength { got: 0 },
                        "kmac tag length",
                    );
                }
                let mut flipped = tag.to_vec();
                flipped[klen - 1] ^= 0x80;
                is_err_like(
                    m.verify(&flipped),
                    Error::AuthenticationFailed,
                    "kmac tag bit",
                );
            } else {
                is_err_like(r, Error::InvalidKeyLength { got: klen }, "kmac key");
            }
            runs += 1;
        }
    }
    assert!(avail.contains(&&kupyna::Backend::Soft));
    assert_eq!(runs, avail.len() * (521 + 131));
}
