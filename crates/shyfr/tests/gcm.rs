//! GCM, GMAC and GHASH: NIST GCMVS files, Wycheproof AES-GCM and AES-GMAC, cross-backend
//! property tests, streaming, limits and bad input — every test under every AES backend and
//! every GHASH backend the CPU offers.

mod common;

use std::collections::BTreeMap;

use common::{
    aes_backends, aes_key, backends, note_exercised, passed, rsp_lines, testdata, RspLine, Toy8,
};
use proptest::prelude::*;
use shyfr::aead::gcm::{Aes128Gcm, Aes192Gcm, Aes256Gcm, AesGcm, Gcm, NONCE_LEN, TAG_LEN};
use shyfr::aead::ghash::{self, Ghash};
use shyfr::aead::Tag;
use shyfr::aes::{self, Aes};
use shyfr::Error;

fn h(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}

/// Every GHASH backend this CPU can run now (see `common::backends`).
fn ghash_backends() -> Vec<ghash::Backend> {
    backends()
}

/// Every (AES, GHASH) backend pair, each with the generic engine and, where the pair
/// has one, the fused AES-and-GHASH engine (`true`).
fn pairs() -> Vec<(aes::Backend, ghash::Backend, bool)> {
    let g = ghash_backends();
    let mut v = Vec::new();
    for a in aes_backends() {
        for &gb in &g {
            v.push((a, gb, false));
            let engine = AesGcm::with_backends(&[0; 16], a, gb).unwrap().engine();
            if engine != "generic" {
                v.push((a, gb, true));
            }
        }
    }
    v
}

/// Notes the backends of pair `p` (and its AES-GCM engine) as exercised: called after the
/// pair's vectors passed.
fn pair_passed(p: (aes::Backend, ghash::Backend, bool)) {
    passed(p.0);
    passed(p.1);
    note_exercised("aes-gcm", gcm(&[0; 16], p, 16).engine());
}

fn gcm(key: &[u8], p: (aes::Backend, ghash::Backend, bool), tag_len: usize) -> AesGcm {
    let g = if p.2 {
        AesGcm::with_backends(key, p.0, p.1).unwrap()
    } else {
        AesGcm::with_backends_generic(key, p.0, p.1).unwrap()
    };
    assert_eq!((g.aes_backend(), g.ghash_backend()), (p.0, p.1));
    assert_eq!(g.engine() != "generic", p.2);
    if tag_len >= 12 {
        g.with_tag_len(tag_len).unwrap()
    } else {
        g.with_short_tag_len(tag_len).unwrap()
    }
}

// ---------------------------------------------------------------------------------------
// NIST GCMVS

/// One record of a GCMVS file: its fields, and whether it is marked `FAIL`.
struct Rec {
    line: usize,
    f: BTreeMap<String, String>,
    fail: bool,
}

impl Rec {
    fn hex(&self, k: &str) -> Vec<u8> {
        let v = self
            .f
            .get(k)
            .unwrap_or_else(|| panic!("line {}: no {k}", self.line));
        hex::decode(v).unwrap_or_else(|e| panic!("line {}: bad hex in {k}: {e}", self.line))
    }
}

/// Reads a GCMVS `.rsp` file: blank-line separated records of `KEY = value` lines, where a
/// bare `FAIL` line marks a record whose tag must be rejected. Section headers (`[Keylen =
/// 128]` ...) are implied by the data and skipped.
fn read_gcmvs(name: &str) -> Vec<Rec> {
    let mut out = Vec::new();
    let mut cur: Option<Rec> = None;
    for (line, item) in rsp_lines(&format!("aes-gcm/{name}")) {
        if matches!(item, RspLine::Blank | RspLine::Section(_)) {
            out.extend(cur.take());
            continue;
        }
        let rec = cur.get_or_insert_with(|| Rec {
            line,
            f: BTreeMap::new(),
            fail: false,
        });
        match item {
            RspLine::Field(k, v) => {
                rec.f.insert(k, v);
            }
            RspLine::Other(l) if l == "FAIL" => rec.fail = true,
            other => panic!("{name} line {line}: cannot parse {other:?}"),
        }
    }
    out.extend(cur);
    out.retain(|r| r.f.contains_key("Count"));
    out
}

/// Every record of a GCMVS encryption file (7875 each) under every backend pair.
fn run_encrypt_file(name: &str) {
    let recs = read_gcmvs(name);
    assert_eq!(recs.len(), 7875, "{name}: records");
    for p in pairs() {
        let mut n = 0;
        for r in &recs {
            let what = format!("{name} line {} backends {p:?}", r.line);
            let (key, iv, pt, aad, ct, tag) = (
                r.hex("Key"),
                r.hex("IV"),
                r.hex("PT"),
                r.hex("AAD"),
                r.hex("CT"),
                r.hex("Tag"),
            );
            let g = gcm(&key, p, tag.len());
            let mut buf = pt.clone();
            let t = g.seal_in_place(&iv, &aad, &mut buf).expect(&what);
            assert_eq!(buf, ct, "{what}: ciphertext");
            assert_eq!(t.as_bytes(), &tag[..], "{what}: tag");

            let mut out = vec![0u8; pt.len()];
            let t2 = g.seal_to(&iv, &aad, &pt, &mut out).expect(&what);
            assert_eq!((out.as_slice(), t2), (&ct[..], t), "{what}: seal_to");

            // A truncated tag is the front of the full one.
            let full = gcm(&key, p, 16).seal_in_place(&iv, &aad, &mut pt.clone());
            assert_eq!(&full.unwrap()[..tag.len()], &tag[..], "{what}: truncation");

            g.open_in_place(&iv, &aad, &mut buf, &tag).expect(&what);
            assert_eq!(buf, pt, "{what}: open");

            // Any flipped tag bit is rejected and the buffer zeroed.
            let mut bad = tag.clone();
            bad[r.line % tag.len()] ^= 1 << (r.line % 8);
            let mut buf = ct.clone();
            assert_eq!(
                g.open_in_place(&iv, &aad, &mut buf, &bad),
                Err(Error::AuthenticationFailed),
                "{what}: bad tag"
            );
            assert!(buf.iter().all(|&b| b == 0), "{what}: not zeroed");
            n += 1;
        }
        assert_eq!(n, 7875, "{name}: records run on {p:?}");
        pair_passed(p);
    }
}

/// Every record of a GCMVS decryption file (7875, `fails` of them marked FAIL) under
/// every backend pair.
fn run_decrypt_file(name: &str, fails: usize) {
    let recs = read_gcmvs(name);
    assert_eq!(recs.len(), 7875, "{name}: records");
    assert_eq!(
        recs.iter().filter(|r| r.fail).count(),
        fails,
        "{name}: FAIL records"
    );
    for p in pairs() {
        let (mut ok, mut rejected) = (0, 0);
        for r in &recs {
            let what = format!("{name} line {} backends {p:?}", r.line);
            let (key, iv, aad, ct, tag) = (
                r.hex("Key"),
                r.hex("IV"),
                r.hex("AAD"),
                r.hex("CT"),
                r.hex("Tag"),
            );
            let g = gcm(&key, p, tag.len());
            let mut buf = ct.clone();
            let res = g.open_in_place(&iv, &aad, &mut buf, &tag);
            let mut out = vec![0xa5u8; ct.len()];
            let res_to = g.open_to(&iv, &aad, &ct, &tag, &mut out);
            if r.fail {
                assert_eq!(res, Err(Error::AuthenticationFailed), "{what}");
                assert_eq!(res_to, Err(Error::AuthenticationFailed), "{what}");
                assert!(buf.iter().all(|&b| b == 0), "{what}: not zeroed");
                assert!(out.iter().all(|&b| b == 0), "{what}: output not zeroed");
                rejected += 1;
            } else {
                let pt = r.hex("PT");
                assert_eq!(res, Ok(()), "{what}");
                assert_eq!(res_to, Ok(()), "{what}");
                assert_eq!(buf, pt, "{what}");
                assert_eq!(out, pt, "{what}: open_to");
                ok += 1;
            }
        }
        assert_eq!((ok, rejected), (7875 - fails, fails), "{name} on {p:?}");
        pair_passed(p);
    }
}

#[test]
fn gcmvs_encrypt_128() {
    run_encrypt_file("gcmEncryptExtIV128.rsp");
}
#[test]
fn gcmvs_encrypt_192() {
    run_encrypt_file("gcmEncryptExtIV192.rsp");
}
#[test]
fn gcmvs_encrypt_256() {
    run_encrypt_file("gcmEncryptExtIV256.rsp");
}
#[test]
fn gcmvs_decrypt_128() {
    run_decrypt_file("gcmDecrypt128.rsp", 4011);
}
#[test]
fn gcmvs_decrypt_192() {
    run_decrypt_file("gcmDecrypt192.rsp", 3978);
}
#[test]
fn gcmvs_decrypt_256() {
    run_decrypt_file("gcmDecrypt256.rsp", 3919);
}

/// The patterns of `testdata/aes-gcm/openssl-long.txt` (see its header).
fn long_pt(n: usize) -> Vec<u8> {
    (0..n).map(|i| ((31 * i + 7) % 251) as u8).collect()
}
fn long_aad(n: usize) -> Vec<u8> {
    (0..n).map(|i| ((17 * i + 3) % 253) as u8).collect()
}

/// Long messages and AAD computed by OpenSSL: the bulk CTR + GHASH path and the wide GHASH
/// kernels against an independent implementation; also streamed in uneven pieces.
#[test]
fn openssl_long_messages() {
    let recs = read_gcmvs("openssl-long.txt");
    assert_eq!(recs.len(), 22);
    for p in pairs() {
        for r in &recs {
            let what = format!("openssl-long.txt line {} backends {p:?}", r.line);
            let (key, iv, ct, tag) = (r.hex("Key"), r.hex("IV"), r.hex("CT"), r.hex("Tag"));
            let pt = long_pt(r.f["PTlen"].parse().unwrap());
            let aad = long_aad(r.f["AADlen"].parse().unwrap());
            let g = gcm(&key, p, 16);
            let mut buf = pt.clone();
            let t = g.seal_in_place(&iv, &aad, &mut buf).unwrap();
            assert!(buf == ct, "{what}: ciphertext");
            assert_eq!(t.as_bytes(), &tag[..], "{what}: tag");
            g.open_in_place(&iv, &aad, &mut buf, &tag).unwrap();
            assert!(buf == pt, "{what}: open");

            let mut e = g.encryptor(&iv).unwrap();
            for piece in aad.chunks(1000) {
                e.update_aad(piece).unwrap();
            }
            let mut buf = pt.clone();
            for piece in buf.chunks_mut(333) {
                e.encrypt(piece).unwrap();
            }
            assert!(buf == ct, "{what}: streamed ciphertext");
            assert_eq!(e.finalize().as_bytes(), &tag[..], "{what}: streamed tag");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Wycheproof

fn wycheproof(name: &str) -> serde_json::Value {
    let path = testdata(&format!("wycheproof/{name}"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn field(t: &serde_json::Value, k: &str) -> Vec<u8> {
    h(t[k].as_str().unwrap_or_else(|| panic!("no {k} in {t}")))
}

#[test]
fn wycheproof_aes_gcm() {
    let doc = wycheproof("aes_gcm_test.json");
    for p in pairs() {
        let mut counts = BTreeMap::<String, usize>::new();
        for g in doc["testGroups"].as_array().unwrap() {
            let tag_len = g["tagSize"].as_u64().unwrap() as usize / 8;
            for t in g["tests"].as_array().unwrap() {
                let id = t["tcId"].as_u64().unwrap();
                let what = format!("tcId {id} ({}) backends {p:?}", t["comment"]);
                let (key, iv, aad, msg, ct, tag) = (
                    field(t, "key"),
                    field(t, "iv"),
                    field(t, "aad"),
                    field(t, "msg"),
                    field(t, "ct"),
                    field(t, "tag"),
                );
                let result = t["result"].as_str().unwrap();
                *counts.entry(result.to_string()).or_default() += 1;
                let g = gcm(&key, p, tag_len);
                let mut buf = ct.clone();
                let opened = g.open_in_place(&iv, &aad, &mut buf, &tag);
                match result {
                    "valid" => {
                        assert_eq!(opened, Ok(()), "{what}");
                        assert_eq!(buf, msg, "{what}: plaintext");
                        let mut buf = msg.clone();
                        let t2 = g.seal_in_place(&iv, &aad, &mut buf).expect(&what);
                        assert_eq!(buf, ct, "{what}: ciphertext");
                        assert_eq!(t2.as_bytes(), &tag[..], "{what}: tag");
                    }
                    "invalid" => {
                        assert!(opened.is_err(), "{what}: accepted");
                        assert!(buf.iter().all(|&b| b == 0), "{what}: not zeroed");
                        if iv.is_empty() {
                            assert_eq!(opened, Err(Error::InvalidNonceLength { got: 0 }));
                            let mut m = msg.clone();
                            assert_eq!(
                                g.seal_in_place(&iv, &aad, &mut m),
                                Err(Error::InvalidNonceLength { got: 0 }),
                                "{what}"
                            );
                            assert_eq!(m, msg, "{what}: seal wrote on error");
                        } else {
                            assert_eq!(opened, Err(Error::AuthenticationFailed), "{what}");
                        }
                    }
                    r => panic!("{what}: unexpected result {r}"),
                }
            }
        }
        assert_eq!(
            (counts["valid"], counts["invalid"]),
            (229, 87),
            "{p:?}: {counts:?}"
        );
        pair_passed(p);
    }
}

#[test]
fn wycheproof_aes_gmac() {
    let doc = wycheproof("aes_gmac_test.json");
    for p in pairs() {
        let mut n = [0usize; 2];
        for g in doc["testGroups"].as_array().unwrap() {
            let tag_len = g["tagSize"].as_u64().unwrap() as usize / 8;
            for t in g["tests"].as_array().unwrap() {
                let id = t["tcId"].as_u64().unwrap();
                let what = format!("tcId {id} ({}) backends {p:?}", t["comment"]);
                let (key, iv, msg, tag) = (
                    field(t, "key"),
                    field(t, "iv"),
                    field(t, "msg"),
                    field(t, "tag"),
                );
                let g = gcm(&key, p, tag_len);
                let verified = g.gmac_verify(&iv, &msg, &tag);
                match t["result"].as_str().unwrap() {
                    "valid" => {
                        assert_eq!(verified, Ok(()), "{what}");
                        assert_eq!(g.gmac(&iv, &msg).unwrap().as_bytes(), &tag[..], "{what}");
                        // Streaming GMAC, in two pieces.
                        let mut e = g.encryptor(&iv).unwrap();
                        let cut = msg.len() / 3;
                        e.update_aad(&msg[..cut]).unwrap();
                        e.update_aad(&msg[cut..]).unwrap();
                        assert_eq!(e.finalize().as_bytes(), &tag[..], "{what}: streamed");
                        n[0] += 1;
                    }
                    "invalid" => {
                        // Every invalid GMAC vector is a modified tag.
                        assert_eq!(verified, Err(Error::AuthenticationFailed), "{what}");
                        n[1] += 1;
                    }
                    r => panic!("{what}: unexpected result {r}"),
                }
            }
        }
        assert_eq!(n, [90, 324], "{p:?}: valid, invalid");
        pair_passed(p);
    }
}

// ---------------------------------------------------------------------------------------
// Backends against each other, streaming, aliasing

/// Deterministic filler so failures are reproducible.
fn pattern(n: usize, seed: u8) -> Vec<u8> {
    common::data_with(n, seed, 29)
}

/// GHASH's widest backend takes 16 blocks per reduction: every block count from 0 to
/// 3 x 16 + 1 in one call against one block per call on `soft`.
#[test]
fn ghash_wide_paths_equal_soft_one_block() {
    let key: [u8; 16] = pattern(16, 7).try_into().unwrap();
    for b in ghash_backends() {
        for n in 0..=3 * 16 + 1 {
            let data = pattern(16 * n, n as u8);
            let mut soft = Ghash::with_backend(&key, ghash::Backend::Soft).unwrap();
            for blk in data.chunks(16) {
                soft.update_blocks(blk).unwrap();
            }
            let mut g = Ghash::with_backend(&key, b).unwrap();
            assert_eq!(g.backend(), b);
            g.update_blocks(&data).unwrap();
            assert_eq!(g.state(), soft.state(), "{b:?} {n} blocks");
        }
    }
}

/// The largest batch in the GCM bulk path is 48 blocks (the generic engine; the fused
/// one works in groups of 16): all message lengths up to 3 x 48 + 1 blocks, each also
/// with an odd byte tail, one-shot against 16 bytes per call, for every pair and engine.
#[test]
fn gcm_wide_paths_equal_block_by_block() {
    let key = pattern(16, 1);
    let nonce = pattern(12, 2);
    let lens: Vec<usize> = (0..=3 * 48 + 1)
        .flat_map(|b| [16 * b, 16 * b + 1 + 2 * (b % 8)])
        .chain([1000, 1537, 2321])
        .collect();
    let reference = gcm(&key, (aes::Backend::Soft, ghash::Backend::Soft, false), 16);
    for p in pairs() {
        let g = gcm(&key, p, 16);
        for &n in &lens {
            let pt = pattern(n, n as u8);
            let mut one = pt.clone();
            let t1 = g.seal_in_place(&nonce, b"aad", &mut one).unwrap();
            let mut e = reference.encryptor(&nonce).unwrap();
            e.update_aad(b"aad").unwrap();
            let mut blocks = pt.clone();
            for c in blocks.chunks_mut(16) {
                e.encrypt(c).unwrap();
            }
            let t2 = e.finalize();
            assert_eq!(one, blocks, "{p:?} {n} bytes");
            assert_eq!(t1, t2, "{p:?} {n} bytes: tag");
            g.open_in_place(&nonce, b"aad", &mut one, &t1).unwrap();
            assert_eq!(one, pt, "{p:?} {n} bytes: open");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every GHASH backend equals `soft` on random keys and data, in random pieces.
    #[test]
    fn ghash_backends_equal_soft(
        key in any::<[u8; 16]>(),
        data in prop::collection::vec(any::<u8>(), 0..1200),
        cuts in prop::collection::vec(0usize..1200, 0..4),
    ) {
        let mut soft = Ghash::with_backend(&key, ghash::Backend::Soft).unwrap();
        soft.update_padded(&data);
        let expect = soft.finalize();
        for b in ghash_backends() {
            let mut g = Ghash::with_backend(&key, b).unwrap();
            g.update_padded(&data);
            prop_assert_eq!(g.finalize(), expect, "{:?}", b);
            // Whole-block pieces give the same as one call.
            let whole = &data[..data.len() / 16 * 16];
            let mut pts: Vec<usize> = cuts.iter().map(|c| c.min(&whole.len()) / 16 * 16).collect();
            pts.push(0);
            pts.push(whole.len());
            pts.sort();
            let mut g = Ghash::with_backend(&key, b).unwrap();
            for w in pts.windows(2) {
                g.update_blocks(&whole[w[0]..w[1]]).unwrap();
            }
            let mut one = Ghash::with_backend(&key, ghash::Backend::Soft).unwrap();
            one.update_blocks(whole).unwrap();
            prop_assert_eq!(g.finalize(), one.finalize(), "{:?} pieces", b);
        }
    }

    /// Streaming (AAD and data in random pieces) equals one-shot, both directions; in place
    /// equals buffer to buffer; every backend pair equals soft/soft.
    #[test]
    fn streaming_and_aliasing_equal_one_shot(
        key in aes_key(),
        nonce in prop::collection::vec(any::<u8>(), 1..20),
        aad in prop::collection::vec(any::<u8>(), 0..70),
        pt in prop::collection::vec(any::<u8>(), 0..700),
        cuts in prop::collection::vec(0usize..700, 0..6),
        aad_cut in 0usize..70,
    ) {
        let reference = gcm(&key, (aes::Backend::Soft, ghash::Backend::Soft, false), 16);
        let mut expect = pt.clone();
        let expect_tag = reference.seal_in_place(&nonce, &aad, &mut expect).unwrap();
        let mut pts: Vec<usize> = cuts.iter().map(|&c| c.min(pt.len())).collect();
        pts.push(0);
        pts.push(pt.len());
        pts.sort();
        let ac = aad_cut.min(aad.len());
        for p in pairs() {
            let g = gcm(&key, p, 16);
            let mut out = vec![0u8; pt.len()];
            let t = g.seal_to(&nonce, &aad, &pt, &mut out).unwrap();
            prop_assert_eq!(&out, &expect, "{:?} seal_to", p);
            prop_assert_eq!(t, expect_tag, "{:?} seal_to tag", p);

            let mut e = g.encryptor(&nonce).unwrap();
            e.update_aad(&aad[..ac]).unwrap();
            e.update_aad(&aad[ac..]).unwrap();
            let mut inplace = pt.clone();
            let mut to = vec![0u8; pt.len()];
            for w in pts.windows(2) {
                if w[0] % 2 == 0 {
                    e.encrypt(&mut inplace[w[0]..w[1]]).unwrap();
                    to[w[0]..w[1]].copy_from_slice(&inplace[w[0]..w[1]]);
                } else {
                    e.encrypt_to(&pt[w[0]..w[1]], &mut to[w[0]..w[1]]).unwrap();
                }
            }
            prop_assert_eq!(e.finalize(), expect_tag, "{:?} streamed tag", p);
            prop_assert_eq!(&to, &expect, "{:?} streamed ciphertext", p);

            let mut d = g.decryptor(&nonce).unwrap();
            d.update_aad(&aad[..ac]).unwrap();
            d.update_aad(&aad[ac..]).unwrap();
            let mut back = expect.clone();
            let mut back_to = vec![0u8; pt.len()];
            for w in pts.windows(2) {
                if w[0] % 2 == 1 {
                    d.decrypt_unverified(&mut back[w[0]..w[1]]).unwrap();
                    back_to[w[0]..w[1]].copy_from_slice(&back[w[0]..w[1]]);
                } else {
                    d.decrypt_unverified_to(&expect[w[0]..w[1]], &mut back_to[w[0]..w[1]]).unwrap();
                }
            }
            prop_assert_eq!(d.finalize(&expect_tag), Ok(()));
            prop_assert_eq!(&back_to, &pt, "{:?} streamed plaintext", p);

            let mut d = g.decryptor(&nonce).unwrap();
            d.update_aad(&aad).unwrap();
            let mut junk = expect.clone();
            d.decrypt_unverified(&mut junk).unwrap();
            let mut bad = expect_tag;
            bad.as_mut_bytes()[0] ^= 0x80;
            prop_assert_eq!(d.finalize(&bad), Err(Error::AuthenticationFailed));

            let mut back = vec![0u8; pt.len()];
            g.open_to(&nonce, &aad, &expect, &expect_tag, &mut back).unwrap();
            prop_assert_eq!(&back, &pt, "{:?} open_to", p);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Types, parameters and bad input

#[test]
fn typed_keys_and_constants() {
    assert_eq!((NONCE_LEN, TAG_LEN), (12, 16));
    assert_eq!(Aes128Gcm::KEY_LEN, 16);
    assert_eq!(Aes192Gcm::KEY_LEN, 24);
    assert_eq!(Aes256Gcm::KEY_LEN, 32);
    assert_eq!(Aes128Gcm::NONCE_LEN, 12);
    assert_eq!(Aes256Gcm::TAG_LEN, 16);
    // The typed keys pick the best backends and agree with AesGcm and Gcm<Aes>.
    let nonce = [9u8; 12];
    let k32 = pattern(32, 3);
    let a = Aes256Gcm::new(&k32.clone().try_into().unwrap());
    assert_eq!(a.aes_backend(), aes::Backend::best());
    assert_eq!(a.ghash_backend(), ghash::Backend::best());
    let b = AesGcm::new_from_slice(&k32).unwrap();
    let c = Gcm::new(Aes::new_from_slice(&k32).unwrap()).unwrap();
    let (mut x, mut y, mut z) = (pattern(40, 1), pattern(40, 1), pattern(40, 1));
    let tx = a.seal_in_place(&nonce, b"a", &mut x).unwrap();
    let ty = b.seal_in_place(&nonce, b"a", &mut y).unwrap();
    let tz = c.seal_in_place(&nonce, b"a", &mut z).unwrap();
    assert_eq!((&x, tx), (&y, ty));
    assert_eq!((&x, tx), (&z, tz));
    let k16: [u8; 16] = pattern(16, 4).try_into().unwrap();
    let k24: [u8; 24] = pattern(24, 5).try_into().unwrap();
    let _ = Aes128Gcm::new(&k16)
        .seal_in_place(&nonce, b"", &mut x)
        .unwrap();
    let _ = Aes192Gcm::new(&k24)
        .seal_in_place(&nonce, b"", &mut x)
        .unwrap();
    assert_eq!(AesGcm::new_from_slice(&k24).unwrap().key_len(), 24);
}

#[test]
fn wrong_key_lengths_are_errors() {
    for len in [0usize, 1, 15, 17, 23, 25, 31, 33, 64] {
        let key = vec![0u8; len];
        assert_eq!(
            AesGcm::new_from_slice(&key).unwrap_err(),
            Error::InvalidKeyLength { got: len }
        );
    }
    assert!(Aes128Gcm::new_from_slice(&[0u8; 32]).is_err());
    assert!(Aes192Gcm::new_from_slice(&[0u8; 16]).is_err());
    assert!(Aes256Gcm::new_from_slice(&[0u8; 16]).is_err());
    assert!(Aes256Gcm::new_from_slice(&[0u8; 32]).is_ok());
}

#[test]
fn unavailable_backends_are_errors() {
    for &b in ghash::Backend::ALL {
        assert_eq!(ghash::Backend::from_name(b.name()), Some(b));
        if !b.is_available() {
            assert_eq!(
                Ghash::with_backend(&[0; 16], b).unwrap_err(),
                Error::BackendUnavailable
            );
            assert_eq!(
                AesGcm::with_backends(&[0; 16], aes::Backend::Soft, b).unwrap_err(),
                Error::BackendUnavailable
            );
        }
    }
    assert_eq!(Ghash::new(&[0; 16]).backend(), ghash::Backend::best());
    assert!(ghash::Backend::best().is_available());
}

#[test]
fn bad_nonces_tags_and_lengths_are_errors() {
    for p in pairs() {
        let g = gcm(&[1u8; 16], p, 16);
        // Empty nonce: an error for every verb; nothing written by seal.
        let mut buf = pattern(20, 0);
        assert_eq!(
            g.seal_in_place(&[], b"", &mut buf),
            Err(Error::InvalidNonceLength { got: 0 })
        );
        assert_eq!(buf, pattern(20, 0));
        assert!(g.encryptor(&[]).is_err());
        assert!(g.decryptor(&[]).is_err());
        assert!(g.gmac(&[], b"x").is_err());
        assert_eq!(
            g.open_in_place(&[], b"", &mut buf, &[0u8; 16]),
            Err(Error::InvalidNonceLength { got: 0 })
        );
        assert_eq!(buf, vec![0u8; 20], "zeroed on every open error");

        // Tags of the wrong length for the key are rejected (and the buffer zeroed).
        let nonce = [3u8; 12];
        let mut buf = pattern(20, 0);
        let tag = g.seal_in_place(&nonce, b"", &mut buf).unwrap();
        for bad_len in [0usize, 1, 4, 8, 12, 15, 17] {
            let mut c = buf.clone();
            let t: Vec<u8> = tag.iter().copied().chain([0u8; 8]).take(bad_len).collect();
            assert_eq!(
                g.open_in_place(&nonce, b"", &mut c, &t),
                Err(Error::InvalidTagLength { got: bad_len })
            );
            assert_eq!(c, vec![0u8; 20]);
        }
        // Flipping any bit of ciphertext, AAD, nonce or tag is rejected.
        let mut aad = b"aad".to_vec();
        let tag = g.seal_in_place(&nonce, &aad, &mut buf).unwrap();
        for bit in 0..8 * buf.len() {
            let mut c = buf.clone();
            c[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(
                g.open_in_place(&nonce, &aad, &mut c, &tag),
                Err(Error::AuthenticationFailed)
            );
            assert!(c.iter().all(|&b| b == 0));
        }
        aad[1] ^= 4;
        assert!(g
            .open_in_place(&nonce, &aad, &mut buf.clone(), &tag)
            .is_err());
        aad[1] ^= 4;
        assert!(g
            .open_in_place(&[3u8; 13], &aad, &mut buf.clone(), &tag)
            .is_err());
        let mut t = tag;
        t.as_mut_bytes()[15] ^= 0x40;
        assert!(g.open_in_place(&nonce, &aad, &mut buf.clone(), &t).is_err());
        g.open_in_place(&nonce, &aad, &mut buf, &tag).unwrap();

        // Buffer-to-buffer with different lengths.
        let mut out = vec![7u8; 21];
        assert_eq!(
            g.seal_to(&nonce, b"", &buf, &mut out),
            Err(Error::LengthMismatch {
                input: 20,
                output: 21
            })
        );
        assert_eq!(out, vec![7u8; 21], "seal_to wrote on error");
        assert!(g.open_to(&nonce, b"", &buf, &tag, &mut out).is_err());
        assert_eq!(out, vec![0u8; 21], "open_to output zeroed on error");

        // AAD after data in a stream.
        let mut e = g.encryptor(&nonce).unwrap();
        e.encrypt(&mut [0u8; 3]).unwrap();
        assert!(matches!(
            e.update_aad(b"late"),
            Err(Error::InvalidParameter { .. })
        ));
        let mut d = g.decryptor(&nonce).unwrap();
        d.decrypt_unverified(&mut [0u8; 3]).unwrap();
        assert!(d.update_aad(b"late").is_err());
        let d = g.decryptor(&nonce).unwrap();
        assert_eq!(
            d.finalize(&[0u8; 5]),
            Err(Error::InvalidTagLength { got: 5 })
        );
    }
}

#[test]
fn tag_length_policy() {
    let g = || AesGcm::new_from_slice(&[0u8; 16]).unwrap();
    for len in 0..=20usize {
        let normal = (12..=16).contains(&len);
        let short = normal || len == 4 || len == 8;
        assert_eq!(g().with_tag_len(len).is_ok(), normal, "{len}");
        assert_eq!(g().with_short_tag_len(len).is_ok(), short, "{len}");
        if !short {
            assert_eq!(
                g().with_short_tag_len(len).unwrap_err(),
                Error::InvalidTagLength { got: len }
            );
        }
    }
    let g8 = g().with_short_tag_len(8).unwrap();
    assert_eq!(g8.tag_len(), 8);
    let mut buf = [1u8; 5];
    let t = g8.seal_in_place(&[0; 12], b"", &mut buf).unwrap();
    assert_eq!(t.len(), 8);
    assert!(g8.open_in_place(&[0; 12], b"", &mut buf, &t).is_ok());
    assert!(Aes128Gcm::new(&[0; 16]).with_tag_len(4).is_err());
    assert!(Aes128Gcm::new(&[0; 16]).with_short_tag_len(4).is_ok());
    // The Tag type.
    assert!(Tag::from_slice(&[]).is_err());
    assert!(Tag::from_slice(&[0u8; 17]).is_err());
    let t = Tag::from_slice(&[1, 2, 3, 4]).unwrap();
    assert_eq!(format!("{t:?}"), "Tag(01020304)");
    assert_ne!(t, Tag::from_slice(&[1, 2, 3, 5]).unwrap());
}

/// A block cipher with 8-byte blocks cannot be used with GCM.
#[test]
fn gcm_needs_16_byte_blocks() {
    assert!(matches!(
        Gcm::new(Toy8),
        Err(Error::InvalidParameter { .. })
    ));
}

#[test]
fn ghash_api() {
    let key = [0x42u8; 16];
    let mut g = Ghash::new(&key);
    assert_eq!(
        g.update_blocks(&[0u8; 17]),
        Err(Error::NotWholeBlocks { len: 17, block: 16 })
    );
    assert_eq!(g.state(), [0u8; 16], "nothing absorbed on error");
    g.update_padded(&[5u8; 20]);
    let a = g.state();
    let mut h2 = Ghash::new(&key);
    let mut blocks = [0u8; 32];
    blocks[..20].fill(5);
    h2.update_blocks(&blocks).unwrap();
    assert_eq!(a, h2.state());
    g.reset();
    assert_eq!(g.state(), [0u8; 16]);
    assert!(format!("{g:?}").contains("Ghash"));
}

/// The fused engines (AES and GHASH in one loop), constructed explicitly where this CPU
/// has them, against the generic engine of the same backends: random keys of every
/// length, 12-byte and other nonces, AAD, lengths 0..600 and a few KiB, seal and open
/// (in place and to a buffer), a counter that wraps inside the message, and a tampered
/// tag or ciphertext rejected with the output zeroed.
#[test]
fn fused_engines_equal_generic() {
    let mut fused = Vec::new();
    for a in aes_backends() {
        for gb in ghash_backends() {
            let e = AesGcm::with_backends(&[0; 16], a, gb).unwrap().engine();
            if e != "generic" {
                fused.push((a, gb, e));
            }
        }
    }
    // A small deterministic generator for keys, nonces and data.
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut bytes = |n: usize| -> Vec<u8> {
        (0..n)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s >> 24) as u8
            })
            .collect()
    };
    let lens: Vec<usize> = (0..600)
        .step_by(7)
        .chain([1024, 2048 + 16 * 3 + 5, 4096, 5000])
        .collect();
    // The 32-bit counter wraps inside the message: a 13-byte nonce whose first counter
    // block ends within 2^16 blocks of 2^32 (found by computing J0 = GHASH(nonce)).
    let key = [0x11u8; 16];
    let mut h = [0u8; 16];
    Aes::new_from_slice(&key)
        .unwrap()
        .encrypt_blocks(&mut h)
        .unwrap();
    let nonce = (0u64..)
        .map(|i| {
            let mut n = vec![0x42u8; 13];
            n[..8].copy_from_slice(&i.to_le_bytes());
            n
        })
        .find(|n| {
            let mut g = Ghash::with_backend(&h, ghash::Backend::Soft).unwrap();
            g.update_padded(n);
            let mut len = [0u8; 16];
            len[8..].copy_from_slice(&(13u64 * 8).to_be_bytes());
            g.update_blocks(&len).unwrap();
            let j0 = g.finalize();
            u32::from_be_bytes([j0[12], j0[13], j0[14], j0[15]]) > u32::MAX - (1 << 16)
        })
        .unwrap();
    for &(a, gb, name) in &fused {
        for (i, &len) in lens.iter().enumerate() {
            let key = bytes([16, 24, 32][i % 3]);
            let nonce = bytes(if i % 4 == 3 { 1 + i % 19 } else { 12 });
            let aad = bytes(i % 40);
            let pt = bytes(len);
            let f = AesGcm::with_backends(&key, a, gb).unwrap();
            assert_eq!(f.engine(), name);
            let r = AesGcm::with_backends_generic(&key, a, gb).unwrap();
            let what = format!(
                "{name} {a:?} {gb:?} key {} nonce {} len {len}",
                key.len(),
                nonce.len()
            );
            let mut ct = pt.clone();
            let tag = r.seal_in_place(&nonce, &aad, &mut ct).unwrap();
            let mut got = pt.clone();
            assert_eq!(
                f.seal_in_place(&nonce, &aad, &mut got).unwrap(),
                tag,
                "{what}: tag"
            );
            assert_eq!(got, ct, "{what}: ciphertext");
            let mut to = vec![0u8; len];
            assert_eq!(
                f.seal_to(&nonce, &aad, &pt, &mut to).unwrap(),
                tag,
                "{what}: seal_to"
            );
            assert_eq!(to, ct, "{what}: seal_to ciphertext");
            f.open_in_place(&nonce, &aad, &mut got, tag.as_bytes())
                .unwrap();
            assert_eq!(got, pt, "{what}: open");
            f.open_to(&nonce, &aad, &ct, tag.as_bytes(), &mut to)
                .unwrap();
            assert_eq!(to, pt, "{what}: open_to");
            let mut bad = tag;
            bad.as_mut_bytes()[i % 16] ^= 1;
            let mut buf = ct.clone();
            assert_eq!(
                f.open_in_place(&nonce, &aad, &mut buf, bad.as_bytes()),
                Err(Error::AuthenticationFailed),
                "{what}: bad tag"
            );
            assert!(buf.iter().all(|&x| x == 0), "{what}: zeroed");
            if len > 0 {
                let mut ct2 = ct.clone();
                ct2[len - 1] ^= 0x40;
                assert_eq!(
                    f.open_to(&nonce, &aad, &ct2, tag.as_bytes(), &mut to),
                    Err(Error::AuthenticationFailed),
                    "{what}: bad ciphertext"
                );
                assert!(to.iter().all(|&x| x == 0), "{what}: zeroed (to)");
            }
        }
        let f = AesGcm::with_backends(&key, a, gb).unwrap();
        let r = AesGcm::with_backends_generic(&key, a, gb).unwrap();
        let pt = bytes(16 * ((1 << 16) + 200) + 3);
        let (mut x, mut y) = (pt.clone(), pt.clone());
        let t1 = f.seal_in_place(&nonce, b"", &mut x).unwrap();
        let t2 = r.seal_in_place(&nonce, b"", &mut y).unwrap();
        assert_eq!((x, t1), (y, t2), "{name}: counter wrap");
    }
}

/// Every fused engine against the generic engine of its backends on every message length
/// from 0 to 4 KiB + 40 bytes (every tail of every group size the engines use: 32, 16, 8,
/// 4, 2 blocks and partial blocks), AES-128 and AES-256 by turns: one-shot seal and open
/// in place and to a buffer (the one-pass kernels), a 13-byte nonce and streaming in
/// 100-byte pieces (the bulk pass with its tails), and a wrong tag that leaves no
/// plaintext. Under `SHYFR_CPU=-avx512f` this is the ymm engine.
#[test]
fn fused_engines_equal_generic_every_length() {
    let mut fused = Vec::new();
    for a in aes_backends() {
        for gb in ghash_backends() {
            let e = AesGcm::with_backends(&[0; 16], a, gb).unwrap().engine();
            if e != "generic" {
                fused.push((a, gb, e));
            }
        }
    }
    let nonce12 = pattern(12, 5);
    let nonce13 = pattern(13, 6);
    let aad = pattern(21, 7);
    let mut checked = 0usize;
    for &(a, gb, name) in &fused {
        let keys = [pattern(16, 8), pattern(32, 9)];
        let f: Vec<AesGcm> = keys
            .iter()
            .map(|k| AesGcm::with_backends(k, a, gb).unwrap())
            .collect();
        let r: Vec<AesGcm> = keys
            .iter()
            .map(|k| AesGcm::with_backends_generic(k, a, gb).unwrap())
            .collect();
        for len in 0..=4096 + 40 {
            let (f, r) = (&f[len % 2], &r[len % 2]);
            let what = format!("{name} {a:?} {gb:?} key {} len {len}", f.key_len());
            let pt = pattern(len, len as u8);
            let mut ct = pt.clone();
            let tag = r.seal_in_place(&nonce12, &aad, &mut ct).unwrap();
            let mut got = pt.clone();
            let t = f.seal_in_place(&nonce12, &aad, &mut got).unwrap();
            assert_eq!((&got, t), (&ct, tag), "{what}: seal in place");
            let mut to = vec![0xa5u8; len];
            let t = f.seal_to(&nonce12, &aad, &pt, &mut to).unwrap();
            assert_eq!((&to, t), (&ct, tag), "{what}: seal_to");
            f.open_in_place(&nonce12, &aad, &mut got, tag.as_bytes())
                .unwrap();
            assert_eq!(got, pt, "{what}: open in place");
            to.fill(0xa5);
            f.open_to(&nonce12, &aad, &ct, tag.as_bytes(), &mut to)
                .unwrap();
            assert_eq!(to, pt, "{what}: open_to");
            let mut bad = tag;
            bad.as_mut_bytes()[len % 16] ^= 0x80;
            let mut buf = ct.clone();
            assert_eq!(
                f.open_in_place(&nonce12, &aad, &mut buf, bad.as_bytes()),
                Err(Error::AuthenticationFailed),
                "{what}: bad tag"
            );
            assert!(buf.iter().all(|&x| x == 0), "{what}: zeroed");
            to.fill(0xa5);
            assert_eq!(
                f.open_to(&nonce12, &aad, &ct, bad.as_bytes(), &mut to),
                Err(Error::AuthenticationFailed),
                "{what}: bad tag (to)"
            );
            assert!(to.iter().all(|&x| x == 0), "{what}: zeroed (to)");
            // The bulk pass: a 13-byte nonce (no one-pass path), and streaming.
            let mut ct13 = pt.clone();
            let tag13 = r.seal_in_place(&nonce13, &aad, &mut ct13).unwrap();
            let mut got = pt.clone();
            let t = f.seal_in_place(&nonce13, &aad, &mut got).unwrap();
            assert_eq!((&got, t), (&ct13, tag13), "{what}: 13-byte nonce");
            f.open_in_place(&nonce13, &aad, &mut got, tag13.as_bytes())
                .unwrap();
            assert_eq!(got, pt, "{what}: 13-byte nonce open");
            let mut e = f.encryptor(&nonce12).unwrap();
            e.update_aad(&aad).unwrap();
            let mut s = pt.clone();
            for c in s.chunks_mut(100) {
                e.encrypt(c).unwrap();
            }
            assert_eq!((&s, e.finalize()), (&ct, tag), "{what}: streaming");
            checked += 1;
        }
    }
    assert_eq!(checked, fused.len() * (4096 + 41));
}
