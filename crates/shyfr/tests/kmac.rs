//! KMAC128/256 and KMACXOF128/256 (NIST SP 800-185): the NIST sample values, Wycheproof
//! (every valid tag verifies, every invalid one is rejected), the construction rebuilt from
//! cSHAKE, streaming, backends against the portable one, and bad parameters — every test
//! under every Keccak backend the CPU offers.

mod common;

use common::{cut_pieces, note_exercised, testdata};
use proptest::prelude::*;
use shyfr::hash::sha3::{Backend, CShake128, CShake256};
use shyfr::hash::{Xof, XofReader};
use shyfr::mac::kmac::{Kmac128, Kmac256, MIN_TAG_LEN};
use shyfr::Error;

/// Every Keccak backend this CPU can run now.
fn backends() -> Vec<Backend> {
    // Fails if a backend the CPU supports is missing (a failed self-test).
    common::backends()
}

/// KMAC (`xof = false`, `L = 8 * out_len`) or KMACXOF of `data` on backend `b`.
fn kmac(
    bits: usize,
    xof: bool,
    b: Backend,
    key: &[u8],
    s: &[u8],
    data: &[u8],
    out_len: usize,
) -> Vec<u8> {
    let mut out = vec![0u8; out_len];
    match (bits, xof) {
        (128, false) => {
            let mut m = Kmac128::with_backend(key, s, b).unwrap();
            m.update(data);
            m.finalize_into(&mut out).unwrap();
        }
        (128, true) => {
            let mut m = Kmac128::with_backend(key, s, b).unwrap();
            m.update(data);
            m.finalize_xof().read(&mut out);
        }
        (256, false) => {
            let mut m = Kmac256::with_backend(key, s, b).unwrap();
            m.update(data);
            m.finalize_into(&mut out).unwrap();
        }
        (256, true) => {
            let mut m = Kmac256::with_backend(key, s, b).unwrap();
            m.update(data);
            m.finalize_xof().read(&mut out);
        }
        _ => unreachable!(),
    }
    out
}

/// NIST "KMAC_samples.pdf" and "KMACXOF_samples.pdf" (SP 800-185 example values,
/// csrc.nist.gov/projects/cryptographic-standards-and-guidelines/example-values), samples
/// #1 to #6 of each: key 40 41 .. 5F, data 00 01 02 03 or 00 .. C7 (200 bytes), S empty or
/// "My Tagged Application", L = 256 bits (128) or 512 bits (256).
#[test]
fn nist_samples() {
    let key: Vec<u8> = (0x40u8..0x60).collect();
    let short: Vec<u8> = (0u8..4).collect();
    let long: Vec<u8> = (0u8..200).collect();
    let tagged: &[u8] = b"My Tagged Application";
    /// (name, strength, XOF, S, data, expected output)
    type Sample<'a> = (&'a str, usize, bool, &'a [u8], &'a [u8], &'a str);
    #[rustfmt::skip]
    let samples: [Sample; 12] = [
        ("KMAC #1", 128, false, b"", &short,
         "e5780b0d3ea6f7d3a429c5706aa43a00fadbd7d49628839e3187243f456ee14e"),
        ("KMAC #2", 128, false, tagged, &short,
         "3b1fba963cd8b0b59e8c1a6d71888b7143651af8ba0a7070c0979e2811324aa5"),
        ("KMAC #3", 128, false, tagged, &long,
         "1f5b4e6cca02209e0dcb5ca635b89a15e271ecc760071dfd805faa38f9729230"),
        ("KMAC #4", 256, false, tagged, &short,
         "20c570c31346f703c9ac36c61c03cb64c3970d0cfc787e9b79599d273a68d2f7\
          f69d4cc3de9d104a351689f27cf6f5951f0103f33f4f24871024d9c27773a8dd"),
        ("KMAC #5", 256, false, b"", &long,
         "75358cf39e41494e949707927cee0af20a3ff553904c86b08f21cc414bcfd691\
          589d27cf5e15369cbbff8b9a4c2eb17800855d0235ff635da82533ec6b759b69"),
        ("KMAC #6", 256, false, tagged, &long,
         "b58618f71f92e1d56c1b8c55ddd7cd188b97b4ca4d99831eb2699a837da2e4d9\
          70fbacfde50033aea585f1a2708510c32d07880801bd182898fe476876fc8965"),
        ("KMACXOF #1", 128, true, b"", &short,
         "cd83740bbd92ccc8cf032b1481a0f4460e7ca9dd12b08a0c4031178bacd6ec35"),
        ("KMACXOF #2", 128, true, tagged, &short,
         "31a44527b4ed9f5c6101d11de6d26f0620aa5c341def41299657fe9df1a3b16c"),
        ("KMACXOF #3", 128, true, tagged, &long,
         "47026c7cd793084aa0283c253ef658490c0db61438b8326fe9bddf281b83ae0f"),
        ("KMACXOF #4", 256, true, tagged, &short,
         "1755133f1534752aad0748f2c706fb5c784512cab835cd15676b16c0c6647fa9\
          6faa7af634a0bf8ff6df39374fa00fad9a39e322a7c92065a64eb1fb0801eb2b"),
        ("KMACXOF #5", 256, true, b"", &long,
         "ff7b171f1e8a2b24683eed37830ee797538ba8dc563f6da1e667391a75edc02c\
          a633079f81ce12a25f45615ec89972031d18337331d24ceb8f8ca8e6a19fd98b"),
        ("KMACXOF #6", 256, true, tagged, &long,
         "d5be731c954ed7732846bb59dbe3a8e30f83e77a4bff4459f2f1c2b4ecebb8ce\
          67ba01c62e8ab8578d2d499bd1bb276768781190020a306a97de281dcc30305d"),
    ];
    for b in backends() {
        for (name, bits, xof, s, data, want) in samples {
            let want = hex::decode(want).unwrap();
            let got = kmac(bits, xof, b, &key, s, data, want.len());
            assert_eq!(got, want, "{name} backend {}", b.name());
            if !xof {
                let r = if bits == 128 {
                    let mut m = Kmac128::with_backend(&key, s, b).unwrap();
                    m.update(data);
                    m.verify(&want)
                } else {
                    let mut m = Kmac256::with_backend(&key, s, b).unwrap();
                    m.update(data);
                    m.verify(&want)
                };
                assert_eq!(r, Ok(()), "{name} verify");
            }
        }
        // Noted only once the NIST samples have passed on this backend.
        note_exercised("keccak", b.name());
    }
}

/// Wycheproof `kmac{128,256}_no_customization_test.json`: every valid tag is produced and
/// verifies; every invalid one (modified tags) is rejected by `verify` and differs from the
/// computed tag.
fn run_wycheproof(bits: usize) {
    let path = testdata(&format!("wycheproof/kmac{bits}_no_customization_test.json"));
    let text = std::fs::read_to_string(&path).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    for b in backends() {
        let mut seen = (0, 0);
        for group in doc["testGroups"].as_array().unwrap() {
            let tag_bits = group["tagSize"].as_u64().unwrap() as usize;
            for t in group["tests"].as_array().unwrap() {
                let id = t["tcId"].as_u64().unwrap();
                let key = hex::decode(t["key"].as_str().unwrap()).unwrap();
                let msg = hex::decode(t["msg"].as_str().unwrap()).unwrap();
                let tag = hex::decode(t["tag"].as_str().unwrap()).unwrap();
                assert_eq!(tag.len() * 8, tag_bits, "tcId {id}");
                let result = t["result"].as_str().unwrap();
                let what = format!("KMAC{bits} tcId {id} ({result}) backend {}", b.name());
                let computed = kmac(bits, false, b, &key, b"", &msg, tag.len());
                let verified = if bits == 128 {
                    let mut m = Kmac128::with_backend(&key, b"", b).unwrap();
                    m.update(&msg);
                    m.verify(&tag)
                } else {
                    let mut m = Kmac256::with_backend(&key, b"", b).unwrap();
                    m.update(&msg);
                    m.verify(&tag)
                };
                match result {
                    "valid" => {
                        assert_eq!(computed, tag, "{what}");
                        assert_eq!(verified, Ok(()), "{what}");
                        seen.0 += 1;
                    }
                    "invalid" => {
                        assert_ne!(computed, tag, "{what}");
                        assert_eq!(verified, Err(Error::AuthenticationFailed), "{what}");
                        seen.1 += 1;
                    }
                    r => panic!("{what}: unexpected result {r}"),
                }
            }
        }
        let n = doc["numberOfTests"].as_u64().unwrap() as usize;
        assert_eq!(seen.0 + seen.1, n, "backend {}", b.name());
        assert!(seen.0 > 0 && seen.1 > 0);
        note_exercised("keccak", b.name());
    }
}

#[test]
fn wycheproof_kmac128() {
    run_wycheproof(128);
}

#[test]
fn wycheproof_kmac256() {
    run_wycheproof(256);
}

/// SP 800-185 4.3 rebuilt from cSHAKE (itself checked against NIST's samples in
/// `tests/sha3.rs`): `cSHAKE(bytepad(encode_string(K), rate) || X || right_encode(L), L,
/// "KMAC", S)`, with `L = 0` for KMACXOF.
fn kmac_from_cshake(
    bits: usize,
    key: &[u8],
    s: &[u8],
    data: &[u8],
    l_bits: usize,
    out_len: usize,
) -> Vec<u8> {
    fn enc(x: usize) -> Vec<u8> {
        let be = (x as u64).to_be_bytes();
        let skip = be.iter().take_while(|&&b| b == 0).count().min(7);
        be[skip..].to_vec()
    }
    let rate = if bits == 128 { 168 } else { 136 };
    let mut new_x = vec![1u8, rate as u8];
    let kl = enc(key.len() * 8);
    new_x.push(kl.len() as u8);
    new_x.extend_from_slice(&kl);
    new_x.extend_from_slice(key);
    while !new_x.len().is_multiple_of(rate) {
        new_x.push(0);
    }
    new_x.extend_from_slice(data);
    let l = enc(l_bits);
    new_x.extend_from_slice(&l);
    new_x.push(l.len() as u8);
    let mut out = vec![0u8; out_len];
    if bits == 128 {
        let mut c = CShake128::new(b"KMAC", s);
        c.update(&new_x);
        c.finalize_xof().read(&mut out);
    } else {
        let mut c = CShake256::new(b"KMAC", s);
        c.update(&new_x);
        c.finalize_xof().read(&mut out);
    }
    out
}

#[test]
fn construction_matches_cshake() {
    // Keys that fill less than, exactly, and more than one rate block with their encoding.
    for b in backends() {
        for bits in [128, 256] {
            let rate = if bits == 128 { 168 } else { 136 };
            for key_len in [32, rate - 4, rate - 3, rate, 2 * rate + 7] {
                let key: Vec<u8> = (0..key_len).map(|i| (i * 5 + 1) as u8).collect();
                for s in [&b""[..], b"S", &[0x5a; 200][..]] {
                    let data = b"some data to authenticate";
                    for out_len in [4, 32, 64, 200] {
                        let want = kmac_from_cshake(bits, &key, s, data, out_len * 8, out_len);
                        assert_eq!(kmac(bits, false, b, &key, s, data, out_len), want);
                    }
                    let want = kmac_from_cshake(bits, &key, s, data, 0, 333);
                    assert_eq!(kmac(bits, true, b, &key, s, data, 333), want);
                }
            }
        }
    }
}

/// The output length is encoded: KMAC with L = 32 bytes is not a prefix of KMAC with 64,
/// and KMAC differs from KMACXOF at the same length.
#[test]
fn length_is_part_of_the_input() {
    let key = [7u8; 32];
    for b in backends() {
        for bits in [128, 256] {
            let t32 = kmac(bits, false, b, &key, b"", b"m", 32);
            let t64 = kmac(bits, false, b, &key, b"", b"m", 64);
            let x32 = kmac(bits, true, b, &key, b"", b"m", 32);
            let x64 = kmac(bits, true, b, &key, b"", b"m", 64);
            assert_ne!(t32[..], t64[..32]);
            assert_ne!(t32, x32);
            assert_eq!(x32[..], x64[..32], "KMACXOF output is a stream");
        }
    }
}

#[test]
fn bad_parameters_are_errors() {
    let key = [1u8; 64];
    // Keys shorter than the security strength.
    for n in [0, 1, 15] {
        assert_eq!(
            Kmac128::new(&key[..n], b"").map(|_| ()),
            Err(Error::InvalidKeyLength { got: n })
        );
    }
    for n in [0, 16, 31] {
        assert_eq!(
            Kmac256::new(&key[..n], b"").map(|_| ()),
            Err(Error::InvalidKeyLength { got: n })
        );
    }
    assert_eq!(Kmac128::MIN_KEY_LEN, 16);
    assert_eq!(Kmac256::MIN_KEY_LEN, 32);
    assert!(Kmac128::new(&key[..16], b"").is_ok());
    assert!(Kmac256::new(&key[..32], b"").is_ok());
    // Tags shorter than 32 bits, produced or checked.
    for n in 0..MIN_TAG_LEN {
        let mut out = vec![0u8; n];
        let m = Kmac128::new(&key, b"").unwrap();
        assert_eq!(
            m.clone().finalize_into(&mut out),
            Err(Error::InvalidTagLength { got: n })
        );
        assert_eq!(m.verify(&out), Err(Error::InvalidTagLength { got: n }));
        let m = Kmac256::new(&key, b"").unwrap();
        assert_eq!(
            m.clone().finalize_into(&mut out),
            Err(Error::InvalidTagLength { got: n })
        );
        assert_eq!(m.verify(&out), Err(Error::InvalidTagLength { got: n }));
    }
    // Unavailable backends.
    for b in [
        Backend::Aarch64Sha3,
        Backend::X86Bmi,
        Backend::X86Avx512,
        Backend::Soft,
    ] {
        if !b.is_available() {
            assert_eq!(
                Kmac128::with_backend(&key, b"", b).map(|_| ()),
                Err(Error::BackendUnavailable)
            );
            assert_eq!(
                Kmac256::with_backend(&key, b"", b).map(|_| ()),
                Err(Error::BackendUnavailable)
            );
        }
    }
}

#[test]
fn verify_rejects_every_single_bit_flip_and_truncation() {
    let key = [9u8; 32];
    for b in backends() {
        let mut m = Kmac256::with_backend(&key, b"ctx", b).unwrap();
        m.update(b"payload");
        // A tag longer than verify's internal 64-byte pieces.
        let mut tag = vec![0u8; 150];
        m.clone().finalize_into(&mut tag).unwrap();
        assert_eq!(m.clone().verify(&tag), Ok(()));
        for i in [0, 1, 63, 64, 65, 128, 149] {
            for bit in [0, 7] {
                let mut bad = tag.clone();
                bad[i] ^= 1 << bit;
                assert_eq!(m.clone().verify(&bad), Err(Error::AuthenticationFailed));
            }
        }
        // A prefix of a longer tag is a different KMAC (L is encoded).
        assert_eq!(
            m.clone().verify(&tag[..32]),
            Err(Error::AuthenticationFailed)
        );
        assert_eq!(m.verify(&[]), Err(Error::InvalidTagLength { got: 0 }));
    }
}

#[test]
fn reset_clone_and_debug() {
    let key = [3u8; 40];
    for b in backends() {
        let mut m = Kmac128::with_backend(&key, b"S", b).unwrap();
        assert_eq!(m.backend(), b);
        m.update(b"junk");
        m.reset();
        m.update(b"data");
        let fork = m.clone();
        let mut t1 = [0u8; 32];
        m.finalize_into(&mut t1).unwrap();
        assert_eq!(t1.to_vec(), kmac(128, false, b, &key, b"S", b"data", 32));
        let mut t2 = [0u8; 32];
        fork.finalize_into(&mut t2).unwrap();
        assert_eq!(t1, t2);
        let d = format!("{:?}", Kmac256::with_backend(&key, b"", b).unwrap());
        assert!(d.contains("backend") && !d.contains("3, 3"), "{d}");
    }
    assert_eq!((Kmac128::NAME, Kmac256::NAME), ("kmac128", "kmac256"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Streaming in random pieces equals one-shot; KMACXOF read in random chunks equals one
    /// read; every backend equals the portable one.
    #[test]
    fn streaming_chunks_and_backends(
        key in proptest::collection::vec(any::<u8>(), 32..80),
        s in proptest::collection::vec(any::<u8>(), 0..40),
        msg in proptest::collection::vec(any::<u8>(), 0..600),
        cuts in proptest::collection::vec(0usize..200, 0..8),
        chunks in proptest::collection::vec(0usize..300, 1..6),
        tag_len in 4usize..100,
    ) {
        let total: usize = chunks.iter().sum();
        for b in backends() {
            for bits in [128, 256] {
                let want = kmac(bits, false, Backend::Soft, &key, &s, &msg, tag_len);
                let want_x = kmac(bits, true, Backend::Soft, &key, &s, &msg, total);
                let pieces = cut_pieces(&msg, &cuts);
                let mut tag = vec![0u8; tag_len];
                let mut xof_out = Vec::new();
                if bits == 128 {
                    let mut m = Kmac128::with_backend(&key, &s, b).unwrap();
                    for p in &pieces { m.update(p); }
                    m.clone().finalize_into(&mut tag).unwrap();
                    prop_assert_eq!(m.clone().verify(&want), Ok(()));
                    let mut r = m.finalize_xof();
                    for &c in &chunks { let mut buf = vec![0u8; c]; r.read(&mut buf); xof_out.extend(buf); }
                } else {
                    let mut m = Kmac256::with_backend(&key, &s, b).unwrap();
                    for p in &pieces { m.update(p); }
                    m.clone().finalize_into(&mut tag).unwrap();
                    prop_assert_eq!(m.clone().verify(&want), Ok(()));
                    let mut r = Xof::finalize_xof(m);
                    for &c in &chunks { let mut buf = vec![0u8; c]; r.read(&mut buf); xof_out.extend(buf); }
                }
                prop_assert_eq!(tag, want, "KMAC{} {}", bits, b.name());
                prop_assert_eq!(xof_out, want_x, "KMACXOF{} {}", bits, b.name());
            }
        }
    }
}
