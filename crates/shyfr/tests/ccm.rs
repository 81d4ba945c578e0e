//! CCM: NIST CCMVS files (DVPT, VADT, VNT, VPT, VTT), Wycheproof AES-CCM, cross-backend
//! property tests and bad input — every test under every AES backend the CPU offers.

mod common;

use std::collections::BTreeMap;

use common::{aes_backends, aes_key, passed, rsp_lines, testdata, RspLine, Toy8};
use proptest::prelude::*;
use shyfr::aead::ccm::{AesCcm, Ccm, MAX_NONCE_LEN, MIN_NONCE_LEN, TAG_LEN};
use shyfr::aes::{self, Aes};
use shyfr::Error;

fn h(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}

/// One CCMVS record with every parameter in force for it (file header lines, the bracketed
/// section, the `Key`/`Nonce` lines shared by several records, then its own fields).
struct Rec {
    line: usize,
    f: BTreeMap<String, String>,
}

impl Rec {
    fn get(&self, k: &str) -> &str {
        self.f
            .get(k)
            .unwrap_or_else(|| panic!("line {}: no {k}", self.line))
    }
    fn num(&self, k: &str) -> usize {
        self.get(k).parse().unwrap()
    }
    /// A hex field cut to `len` bytes: CCMVS writes empty strings as `00`.
    fn hex_len(&self, k: &str, len: usize) -> Vec<u8> {
        let v = h(self.get(k));
        assert!(v.len() >= len, "line {}: {k} shorter than {len}", self.line);
        v[..len].to_vec()
    }
}

/// Reads a CCMVS file. Records start at `Count = `; `KEY = value` lines outside a record,
/// and `[A = x, B = y]` sections, set parameters for the records that follow.
fn read_ccmvs(name: &str) -> Vec<Rec> {
    let mut ctx = BTreeMap::<String, String>::new();
    let mut out = Vec::new();
    let mut cur: Option<Rec> = None;
    for (line, item) in rsp_lines(&format!("aes-ccm/{name}")) {
        let (k, v) = match item {
            RspLine::Blank => {
                out.extend(cur.take());
                continue;
            }
            RspLine::Section(s) => {
                out.extend(cur.take());
                for item in s.split(',') {
                    let (k, v) = item.split_once('=').unwrap();
                    ctx.insert(k.trim().to_string(), v.trim().to_string());
                }
                continue;
            }
            RspLine::Field(k, v) => (k, v),
            RspLine::Other(l) => panic!("{name} line {line}: {l:?}"),
        };
        if k == "Count" {
            out.extend(cur.take());
            cur = Some(Rec {
                line,
                f: ctx.clone(),
            });
        }
        match cur.as_mut() {
            Some(r) => {
                r.f.insert(k, v);
            }
            None => {
                ctx.insert(k, v);
            }
        }
    }
    out.extend(cur);
    out
}

fn ccm(key: &[u8], b: aes::Backend, tag_len: usize) -> AesCcm {
    let c = AesCcm::with_backend(key, b)
        .unwrap()
        .with_tag_len(tag_len)
        .unwrap();
    assert_eq!(c.backend(), b);
    c
}

/// Encryption records (VADT, VNT, VPT, VTT): seal gives `CT` (ciphertext || tag), open
/// gives the payload back, a flipped tag bit is rejected with the buffer zeroed. Exactly
/// `count` records on each backend.
fn run_encrypt_file(name: &str, count: usize) {
    let recs = read_ccmvs(name);
    assert_eq!(recs.len(), count, "{name}: records");
    for b in aes_backends() {
        let mut n = 0;
        for r in &recs {
            let what = format!("{name} line {} backend {}", r.line, b.name());
            let (alen, plen, tlen) = (r.num("Alen"), r.num("Plen"), r.num("Tlen"));
            let key = h(r.get("Key"));
            let nonce = h(r.get("Nonce"));
            assert_eq!(nonce.len(), r.num("Nlen"), "{what}");
            let aad = r.hex_len("Adata", alen);
            let pt = r.hex_len("Payload", plen);
            let ct = r.hex_len("CT", plen + tlen);
            let c = ccm(&key, b, tlen);
            let mut buf = pt.clone();
            let tag = c.seal_in_place(&nonce, &aad, &mut buf).expect(&what);
            assert_eq!(buf, ct[..plen], "{what}: ciphertext");
            assert_eq!(tag.as_bytes(), &ct[plen..], "{what}: tag");
            let mut out = vec![0u8; plen];
            let tag2 = c.seal_to(&nonce, &aad, &pt, &mut out).expect(&what);
            assert_eq!((&out[..], tag2), (&ct[..plen], tag), "{what}: seal_to");

            c.open_in_place(&nonce, &aad, &mut buf, &tag).expect(&what);
            assert_eq!(buf, pt, "{what}: open");
            let mut back = vec![0u8; plen];
            c.open_to(&nonce, &aad, &ct[..plen], &tag, &mut back)
                .expect(&what);
            assert_eq!(back, pt, "{what}: open_to");

            let mut bad = tag;
            bad.as_mut_bytes()[r.line % tlen] ^= 1 << (r.line % 8);
            let mut buf = ct[..plen].to_vec();
            assert_eq!(
                c.open_in_place(&nonce, &aad, &mut buf, &bad),
                Err(Error::AuthenticationFailed),
                "{what}"
            );
            assert!(buf.iter().all(|&x| x == 0), "{what}: not zeroed");
            n += 1;
        }
        assert_eq!(n, count, "{name}: records run on {}", b.name());
        passed(b);
    }
}

/// Decryption-verification records (DVPT): `Result = Pass` opens to `Payload`, `Fail` is
/// rejected with the output zeroed. Each file has 240 records, 80 of them `Pass`.
fn run_dvpt_file(name: &str, count: usize) {
    let recs = read_ccmvs(name);
    assert_eq!(recs.len(), count, "{name}: records");
    for b in aes_backends() {
        let mut seen = BTreeMap::<bool, usize>::new();
        for r in &recs {
            let what = format!("{name} line {} backend {}", r.line, b.name());
            let (alen, plen, tlen) = (r.num("Alen"), r.num("Plen"), r.num("Tlen"));
            let key = h(r.get("Key"));
            let nonce = h(r.get("Nonce"));
            let aad = r.hex_len("Adata", alen);
            let ct = r.hex_len("CT", plen + tlen);
            let c = ccm(&key, b, tlen);
            let mut buf = ct[..plen].to_vec();
            let res = c.open_in_place(&nonce, &aad, &mut buf, &ct[plen..]);
            let mut out = vec![0x5au8; plen];
            let res_to = c.open_to(&nonce, &aad, &ct[..plen], &ct[plen..], &mut out);
            let pass = r.get("Result").starts_with("Pass");
            *seen.entry(pass).or_default() += 1;
            if pass {
                let pt = r.hex_len("Payload", plen);
                assert_eq!((res, res_to), (Ok(()), Ok(())), "{what}");
                assert_eq!(buf, pt, "{what}");
                assert_eq!(out, pt, "{what}: open_to");
            } else {
                assert_eq!(res, Err(Error::AuthenticationFailed), "{what}");
                assert_eq!(res_to, Err(Error::AuthenticationFailed), "{what}");
                assert!(buf.iter().all(|&x| x == 0), "{what}: not zeroed");
                assert!(out.iter().all(|&x| x == 0), "{what}: output not zeroed");
            }
        }
        assert_eq!(
            (seen[&true], seen[&false]),
            (count / 3, count - count / 3),
            "{name}: pass, fail on {}",
            b.name()
        );
        passed(b);
    }
}

macro_rules! ccmvs {
    ($($test:ident => $f:ident($file:expr, $count:expr),)*) => {
        $( #[test] fn $test() { $f($file, $count); } )*
    };
}

ccmvs! {
    dvpt128 => run_dvpt_file("DVPT128.rsp", 240),
    dvpt192 => run_dvpt_file("DVPT192.rsp", 240),
    dvpt256 => run_dvpt_file("DVPT256.rsp", 240),
    vadt128 => run_encrypt_file("VADT128.rsp", 330),
    vadt192 => run_encrypt_file("VADT192.rsp", 330),
    vadt256 => run_encrypt_file("VADT256.rsp", 330),
    vnt128 => run_encrypt_file("VNT128.rsp", 70),
    vnt192 => run_encrypt_file("VNT192.rsp", 70),
    vnt256 => run_encrypt_file("VNT256.rsp", 70),
    vpt128 => run_encrypt_file("VPT128.rsp", 250),
    vpt192 => run_encrypt_file("VPT192.rsp", 250),
    vpt256 => run_encrypt_file("VPT256.rsp", 250),
    vtt128 => run_encrypt_file("VTT128.rsp", 70),
    vtt192 => run_encrypt_file("VTT192.rsp", 70),
    vtt256 => run_encrypt_file("VTT256.rsp", 70),
}

/// Long messages, every tag length and AAD around the 2-byte / 6-byte length encoding
/// boundary, computed by OpenSSL (`testdata/aes-ccm/openssl-long.txt`).
#[test]
fn openssl_long_messages() {
    let recs = read_ccmvs("openssl-long.txt");
    assert_eq!(recs.len(), 12);
    for b in aes_backends() {
        for r in &recs {
            let what = format!("openssl-long.txt line {} backend {}", r.line, b.name());
            let pt: Vec<u8> = (0..r.num("PTlen"))
                .map(|i| ((31 * i + 7) % 251) as u8)
                .collect();
            let aad: Vec<u8> = (0..r.num("AADlen"))
                .map(|i| ((17 * i + 3) % 253) as u8)
                .collect();
            let (key, nonce, ct, tag) = (
                h(r.get("Key")),
                h(r.get("Nonce")),
                h(r.get("CT")),
                h(r.get("Tag")),
            );
            let c = ccm(&key, b, r.num("Tlen"));
            let mut buf = pt.clone();
            let t = c.seal_in_place(&nonce, &aad, &mut buf).unwrap();
            assert!(buf == ct, "{what}: ciphertext");
            assert_eq!(t.as_bytes(), &tag[..], "{what}: tag");
            c.open_in_place(&nonce, &aad, &mut buf, &tag).unwrap();
            assert!(buf == pt, "{what}: open");
        }
    }
}

/// Wycheproof AES-CCM: valid vectors seal and open; invalid ones are rejected — a bad tag
/// or ciphertext with `AuthenticationFailed` and the buffer zeroed, a nonce or tag length
/// outside the standard already when the key or the call is set up.
#[test]
fn wycheproof_aes_ccm() {
    let path = testdata("wycheproof/aes_ccm_test.json");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let f = |t: &serde_json::Value, k: &str| h(t[k].as_str().unwrap());
    for b in aes_backends() {
        let mut counts = BTreeMap::<&str, usize>::new();
        for g in doc["testGroups"].as_array().unwrap() {
            let tag_len = g["tagSize"].as_u64().unwrap() as usize / 8;
            let iv_len = g["ivSize"].as_u64().unwrap() as usize / 8;
            for t in g["tests"].as_array().unwrap() {
                let what = format!("tcId {} ({}) backend {}", t["tcId"], t["comment"], b.name());
                let (key, iv, aad, msg, ct, tag) = (
                    f(t, "key"),
                    f(t, "iv"),
                    f(t, "aad"),
                    f(t, "msg"),
                    f(t, "ct"),
                    f(t, "tag"),
                );
                let result = t["result"].as_str().unwrap();
                let tag_ok = [4, 6, 8, 10, 12, 14, 16].contains(&tag_len);
                let iv_ok = (7..=13).contains(&iv_len);
                *counts
                    .entry(if result == "valid" {
                        "valid"
                    } else {
                        "invalid"
                    })
                    .or_default() += 1;
                if !tag_ok {
                    assert_eq!(result, "invalid", "{what}");
                    assert_eq!(
                        AesCcm::with_backend(&key, b)
                            .unwrap()
                            .with_tag_len(tag_len)
                            .unwrap_err(),
                        Error::InvalidTagLength { got: tag_len },
                        "{what}"
                    );
                    // A key with a legal tag length rejects the odd-length tag too.
                    let c = ccm(&key, b, 16);
                    let mut buf = ct.clone();
                    assert!(
                        c.open_in_place(&iv, &aad, &mut buf, &tag).is_err(),
                        "{what}"
                    );
                    assert!(buf.iter().all(|&x| x == 0), "{what}: not zeroed");
                    continue;
                }
                let c = ccm(&key, b, tag_len);
                let mut buf = ct.clone();
                let opened = c.open_in_place(&iv, &aad, &mut buf, &tag);
                match result {
                    "valid" => {
                        assert_eq!(opened, Ok(()), "{what}");
                        assert_eq!(buf, msg, "{what}");
                        let mut m = msg.clone();
                        let t2 = c.seal_in_place(&iv, &aad, &mut m).expect(&what);
                        assert_eq!((m, t2.as_bytes()), (ct, &tag[..]), "{what}: seal");
                    }
                    "invalid" => {
                        assert!(opened.is_err(), "{what}: accepted");
                        assert!(buf.iter().all(|&x| x == 0), "{what}: not zeroed");
                        if iv_ok {
                            assert_eq!(opened, Err(Error::AuthenticationFailed), "{what}");
                        } else {
                            assert_eq!(opened, Err(Error::InvalidNonceLength { got: iv_len }));
                            let mut m = msg.clone();
                            assert_eq!(
                                c.seal_in_place(&iv, &aad, &mut m),
                                Err(Error::InvalidNonceLength { got: iv_len }),
                                "{what}"
                            );
                            assert_eq!(m, msg, "{what}: seal wrote on error");
                        }
                    }
                    r => panic!("{what}: unexpected result {r}"),
                }
            }
        }
        assert_eq!(
            (counts["valid"], counts["invalid"]),
            (405, 147),
            "{}: {counts:?}",
            b.name()
        );
        passed(b);
    }
}

fn pattern(n: usize, seed: u8) -> Vec<u8> {
    common::data_with(n, seed, 37)
}

/// Every message length up to 3 x 32 + 1 blocks, each also with an odd byte tail, every
/// AAD encoding boundary, nonces of 7 to 13 bytes, against the portable backend.
#[test]
fn lengths_and_backends_agree() {
    let key = pattern(16, 3);
    let soft = ccm(&key, aes::Backend::Soft, 16);
    let lens: Vec<usize> = (0..=97)
        .flat_map(|b| [16 * b, 16 * b + 1 + b % 15])
        .chain([1000])
        .collect();
    for b in aes_backends() {
        let c = ccm(&key, b, 16);
        for &n in &lens {
            let pt = pattern(n, n as u8);
            let nonce = pattern(7 + n % 7, 1);
            let aad = pattern(n % 40, 2);
            let (mut x, mut y) = (pt.clone(), pt.clone());
            let tx = c.seal_in_place(&nonce, &aad, &mut x).unwrap();
            let ty = soft.seal_in_place(&nonce, &aad, &mut y).unwrap();
            assert_eq!((&x, tx), (&y, ty), "{b:?} {n}");
            c.open_in_place(&nonce, &aad, &mut x, &tx).unwrap();
            assert_eq!(x, pt);
        }
        // AAD lengths around the block size and the 2-byte / 6-byte encoding boundary.
        for alen in [1usize, 13, 14, 15, 16, 30, 31, 0xfeff, 0xff00, 0xff01] {
            let aad = pattern(alen, 9);
            let (mut x, mut y) = (pattern(20, 1), pattern(20, 1));
            let tx = c.seal_in_place(&[1u8; 12], &aad, &mut x).unwrap();
            let ty = soft.seal_in_place(&[1u8; 12], &aad, &mut y).unwrap();
            assert_eq!((&x, tx), (&y, ty), "{b:?} aad {alen}");
            c.open_in_place(&[1u8; 12], &aad, &mut x, &tx).unwrap();
            let mut aad2 = aad.clone();
            aad2[alen - 1] ^= 1;
            assert!(c.open_in_place(&[1u8; 12], &aad2, &mut y, &ty).is_err());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random keys, nonces, tag lengths and data: every backend equals soft, in place
    /// equals buffer to buffer, and open inverts seal.
    #[test]
    fn backends_equal_soft(
        key in aes_key(),
        nonce in prop::collection::vec(any::<u8>(), MIN_NONCE_LEN..=MAX_NONCE_LEN),
        tag_len in prop::sample::select(vec![4usize, 6, 8, 10, 12, 14, 16]),
        aad in prop::collection::vec(any::<u8>(), 0..60),
        pt in prop::collection::vec(any::<u8>(), 0..600),
    ) {
        let soft = ccm(&key, aes::Backend::Soft, tag_len);
        let mut expect = pt.clone();
        let tag = soft.seal_in_place(&nonce, &aad, &mut expect).unwrap();
        prop_assert_eq!(tag.len(), tag_len);
        for b in aes_backends() {
            let c = ccm(&key, b, tag_len);
            let mut out = vec![0u8; pt.len()];
            let t = c.seal_to(&nonce, &aad, &pt, &mut out).unwrap();
            prop_assert_eq!(&out, &expect, "{:?}", b);
            prop_assert_eq!(t, tag);
            let mut back = expect.clone();
            c.open_in_place(&nonce, &aad, &mut back, &tag).unwrap();
            prop_assert_eq!(&back, &pt);
        }
    }
}

#[test]
fn parameters_and_bad_input() {
    assert_eq!((MIN_NONCE_LEN, MAX_NONCE_LEN, TAG_LEN), (7, 13, 16));
    for len in [0usize, 1, 15, 17, 33] {
        assert_eq!(
            AesCcm::new_from_slice(&vec![0u8; len]).unwrap_err(),
            Error::InvalidKeyLength { got: len }
        );
    }
    let k = AesCcm::new_from_slice(&[0u8; 24]).unwrap();
    assert_eq!(
        (k.key_len(), k.tag_len(), k.backend()),
        (24, 16, aes::Backend::best())
    );
    for t in 0..=20usize {
        let ok = t >= 4 && t % 2 == 0 && t <= 16;
        assert_eq!(k.clone().with_tag_len(t).is_ok(), ok, "{t}");
    }
    for b in aes_backends() {
        let c = ccm(&[7u8; 16], b, 8);
        for n in [0usize, 1, 6, 14, 16, 32] {
            let mut buf = pattern(10, 0);
            assert_eq!(
                c.seal_in_place(&vec![0u8; n], b"", &mut buf),
                Err(Error::InvalidNonceLength { got: n })
            );
            assert_eq!(buf, pattern(10, 0), "nothing written");
            assert_eq!(
                c.open_in_place(&vec![0u8; n], b"", &mut buf, &[0u8; 8]),
                Err(Error::InvalidNonceLength { got: n })
            );
            assert_eq!(buf, vec![0u8; 10], "zeroed");
        }
        // A 13-byte nonce leaves a 2-byte length field: 65 535 bytes at most.
        let mut big = vec![0u8; 0x1_0000];
        assert!(matches!(
            c.seal_in_place(&[0u8; 13], b"", &mut big),
            Err(Error::TooLong { .. })
        ));
        assert!(big.iter().all(|&x| x == 0));
        let tag = c
            .seal_in_place(&[0u8; 13], b"", &mut big[..0xffff])
            .unwrap();
        c.open_in_place(&[0u8; 13], b"", &mut big[..0xffff], &tag)
            .unwrap();
        assert!(big.iter().all(|&x| x == 0));
        assert!(c.seal_in_place(&[0u8; 12], b"", &mut big).is_ok());

        // Tag of the wrong length for the key; lengths that differ buffer to buffer.
        let mut buf = pattern(10, 0);
        let tag = c.seal_in_place(&[1u8; 12], b"a", &mut buf).unwrap();
        for tl in [0usize, 4, 7, 9, 16] {
            let mut x = buf.clone();
            let t: Vec<u8> = tag.iter().copied().chain([0u8; 8]).take(tl).collect();
            assert_eq!(
                c.open_in_place(&[1u8; 12], b"a", &mut x, &t),
                Err(Error::InvalidTagLength { got: tl })
            );
            assert_eq!(x, vec![0u8; 10]);
        }
        let mut out = vec![3u8; 11];
        assert_eq!(
            c.seal_to(&[1u8; 12], b"a", &buf, &mut out),
            Err(Error::LengthMismatch {
                input: 10,
                output: 11
            })
        );
        assert_eq!(out, vec![3u8; 11]);
        assert!(c.open_to(&[1u8; 12], b"a", &buf, &tag, &mut out).is_err());
        assert_eq!(out, vec![0u8; 11]);
        // Every flipped ciphertext bit is caught.
        for bit in 0..80 {
            let mut x = buf.clone();
            x[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(
                c.open_in_place(&[1u8; 12], b"a", &mut x, &tag),
                Err(Error::AuthenticationFailed)
            );
        }
    }
}

#[test]
fn generic_ccm() {
    assert!(matches!(
        Ccm::new(Toy8),
        Err(Error::InvalidParameter { .. })
    ));
    let key = [5u8; 32];
    let g = Ccm::new(Aes::new_from_slice(&key).unwrap()).unwrap();
    let a = AesCcm::new_from_slice(&key).unwrap();
    let (mut x, mut y) = (pattern(50, 1), pattern(50, 1));
    let tx = g.seal_in_place(&[0u8; 11], b"h", &mut x).unwrap();
    let ty = a.seal_in_place(&[0u8; 11], b"h", &mut y).unwrap();
    assert_eq!((x, tx), (y, ty));
    assert_eq!(g.tag_len(), 16);
}
