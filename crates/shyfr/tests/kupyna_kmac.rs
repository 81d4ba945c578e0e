//! The DSTU 7564:2014 keyed MAC (Kupyna KMAC): every example of
//! `testdata/kupyna/kupyna_kmac.json` under every Kupyna backend, streaming against
//! one-shot, the definition written out with Kupyna itself, verification, and bad input.

mod common;

use proptest::prelude::*;
use shyfr::hash::kupyna::{Backend, Kupyna};
use shyfr::mac::kupyna_kmac::KupynaKmac;
use shyfr::Error;

fn vectors() -> Vec<serde_json::Value> {
    let path = common::testdata("kupyna/kupyna_kmac.json");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("parse");
    v["vectors"].as_array().expect("vectors").clone()
}

fn hx(v: &serde_json::Value, f: &str) -> Vec<u8> {
    hex::decode(v[f].as_str().expect(f)).expect("hex")
}

#[test]
fn standard_vectors_every_backend() {
    let vs = vectors();
    assert_eq!(vs.len(), 6);
    for b in common::backends::<Backend>() {
        let mut n = 0;
        for v in &vs {
            let (key, msg, want) = (hx(v, "key"), hx(v, "message"), hx(v, "mac"));
            assert_eq!(want.len() * 8, v["mac_bits"].as_u64().unwrap() as usize);
            for split in [0usize, 1, 13, 64, 129] {
                let mut m = KupynaKmac::with_backend(&key, b).unwrap();
                assert_eq!(m.backend(), b);
                if split == 0 {
                    m.update(&msg);
                } else {
                    for piece in msg.chunks(split) {
                        m.update(piece);
                    }
                }
                assert_eq!(m.tag_len(), want.len());
                let mut tag = vec![0u8; want.len()];
                m.clone().finalize_into(&mut tag).unwrap();
                assert_eq!(tag, want, "{b:?} vector {} split {split}", v["id"]);
                assert!(m.clone().verify(&want).is_ok());
                let mut bad = want.clone();
                bad[0] ^= 1;
                assert_eq!(m.verify(&bad), Err(Error::AuthenticationFailed));
            }
            n += 1;
        }
        assert_eq!(n, 6);
        common::passed(b);
    }
}

/// `pad(X)`: X, 0x80, zeros, the 96-bit little-endian bit length, to whole blocks.
fn pad(x: &[u8], block: usize) -> Vec<u8> {
    let mut v = x.to_vec();
    v.push(0x80);
    while !(v.len() + 12).is_multiple_of(block) {
        v.push(0);
    }
    v.extend_from_slice(&((x.len() as u128) * 8).to_le_bytes()[..12]);
    v
}

#[test]
fn kmac_is_the_standard_construction() {
    for key_len in [32usize, 48, 64] {
        let key: Vec<u8> = (0..key_len).map(|i| (i * 29 + 1) as u8).collect();
        let block = if key_len == 32 { 64 } else { 128 };
        for msg_len in [0usize, 1, 51, 52, 53, 64, 115, 116, 117, 128, 300] {
            let msg: Vec<u8> = (0..msg_len).map(|i| (i * 7) as u8).collect();
            let inv: Vec<u8> = key.iter().map(|k| !k).collect();
            let all = [pad(&key, block), pad(&msg, block), inv].concat();
            let mut want = vec![0u8; key_len];
            let mut h = Kupyna::new(8 * key_len).unwrap();
            h.update(&all);
            h.finalize_into(&mut want).unwrap();
            let got = KupynaKmac::mac(&key, &msg).unwrap();
            assert_eq!(got.as_ref(), want.as_slice(), "{key_len} {msg_len}");
        }
    }
}

#[test]
fn bad_input_is_an_error() {
    for len in [0usize, 16, 31, 33, 47, 49, 63, 65, 128] {
        let key = vec![1u8; len];
        assert_eq!(
            KupynaKmac::new(&key).unwrap_err(),
            Error::InvalidKeyLength { got: len }
        );
    }
    let m = KupynaKmac::new(&[1u8; 48]).unwrap();
    assert_eq!(
        m.clone().verify(&[0u8; 32]),
        Err(Error::InvalidTagLength { got: 32 })
    );
    assert_eq!(
        m.clone().finalize_into(&mut [0u8; 64]),
        Err(Error::InvalidTagLength { got: 64 })
    );
    assert_eq!(m.finalize().len(), 48);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every backend equals `soft` on random keys and messages.
    #[test]
    fn backends_agree_with_soft(
        key in proptest::collection::vec(any::<u8>(), 64),
        klen in prop::sample::select(vec![32usize, 48, 64]),
        msg in proptest::collection::vec(any::<u8>(), 0..400),
    ) {
        let mut s = KupynaKmac::with_backend(&key[..klen], Backend::Soft).unwrap();
        s.update(&msg);
        let want = s.finalize();
        for b in common::backends::<Backend>() {
            let mut m = KupynaKmac::with_backend(&key[..klen], b).unwrap();
            m.update(&msg);
            prop_assert_eq!(m.finalize(), want, "{:?}", b);
        }
    }
}
