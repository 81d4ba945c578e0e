//! GOST 34.311-95: every vector of `testdata/gost/gost34311.json` (test and DKE No. 1
//! S-boxes, zero and non-zero starting values, the HMAC vector) under every GOST 28147-89
//! backend the CPU offers, streaming against one-shot, and every backend against `soft`.

mod common;

use common::{note_exercised, testdata};
use proptest::prelude::*;
use serde_json::Value;
use shyfr::gost28147::{Backend, Sbox};
use shyfr::hash::gost34311::Gost34311;
use shyfr::hash::Hash;
use shyfr::mac::hmac::Hmac;
use shyfr::Error;

fn h(v: &Value) -> Vec<u8> {
    hex::decode(v.as_str().expect("hex string")).expect("hex")
}

fn vectors() -> Value {
    let p = testdata("gost/gost34311.json");
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap()
}

fn backends() -> Vec<Backend> {
    // Fails if a backend the CPU supports is missing (a failed self-test).
    common::backends()
}

fn sbox(f: &Value, name: &str) -> Sbox {
    let s = Sbox::from_bytes(&h(&f["sboxes"][name]["sbox_hex_k1_to_k8"])).unwrap();
    match name {
        "DKE1" => assert_eq!(s, Sbox::DKE1),
        "TEST" => assert_eq!(s, Sbox::TEST),
        _ => panic!("unknown s-box {name}"),
    }
    s
}

#[test]
fn every_vector_under_every_backend() {
    let f = vectors();
    let vs = f["vectors"].as_array().unwrap();
    assert_eq!(vs.len(), 17);
    let hm = f["hmac_vectors"].as_array().unwrap();
    assert_eq!(hm.len(), 1);
    for b in backends() {
        let mut n = 0;
        for v in vs {
            let sb = sbox(&f, v["sbox"].as_str().unwrap());
            let h0: [u8; 32] = match v.get("h0") {
                Some(x) => h(x).try_into().unwrap(),
                None => [0; 32],
            };
            let unit = h(&v["message"]);
            let reps = v.get("message_repeat").map_or(1, |r| r.as_u64().unwrap()) as usize;
            let msg = unit.repeat(reps);
            let want = h(&v["digest"]);
            let what = format!("vector {} backend {}", v["id"], b.name());
            let mut st = Gost34311::with_backend(&sb, &h0, b).unwrap();
            assert_eq!(st.backend(), b);
            st.update(&msg);
            assert_eq!(st.finalize().to_vec(), want, "{what}");
            // Fed in uneven pieces.
            let mut st = Gost34311::with_backend(&sb, &h0, b).unwrap();
            for c in msg.chunks(13) {
                st.update(c);
            }
            assert_eq!(st.finalize().to_vec(), want, "{what} in pieces");
            n += 1;
        }
        assert_eq!(n, 17);
        note_exercised("gost34311", b.name());
    }
    // HMAC through the generic `Hmac` (DKE No. 1 is the `Hash` default).
    for v in hm {
        assert_eq!(v["sbox"], "DKE1");
        let (key, msg, mac) = (h(&v["key"]), h(&v["message"]), h(&v["mac"]));
        assert_eq!(Hmac::<Gost34311>::mac(&key, &msg).to_vec(), mac);
        assert!(Hmac::<Gost34311>::verify_mac(&key, &msg, &mac).is_ok());
        let mut bad = mac.clone();
        bad[31] ^= 0x80;
        assert_eq!(
            Hmac::<Gost34311>::verify_mac(&key, &msg, &bad),
            Err(Error::AuthenticationFailed)
        );
    }
}

/// The empty message: the value the file uses (see its `notes`), not cryptonite's.
#[test]
fn empty_message() {
    let d = Gost34311::with_params(&Sbox::TEST, &[0; 32]).finalize();
    assert_eq!(
        hex::encode_upper(d),
        "CE85B99CC46752FFFEE35CAB9A7B0278ABB4C2D2055CFF685AF4912C49490F8D"
    );
    assert_ne!(
        hex::encode_upper(d),
        "891D358A84C6033CF17BAC82D77BB5D6791695A08FFCE3768D39FBCACF8B29BD"
    );
}

#[test]
fn hash_trait_and_parameters() {
    assert_eq!(<Gost34311 as Hash>::NAME, "gost34311");
    assert_eq!(<Gost34311 as Hash>::OUTPUT_LEN, 32);
    assert_eq!(<Gost34311 as Hash>::BLOCK_LEN, 32);
    assert_eq!(
        <Gost34311 as Hash>::digest(b"abc"),
        Gost34311::digest(b"abc")
    );
    assert_eq!(Gost34311::new().sbox(), &Sbox::DKE1);
    assert_eq!(Gost34311::new().backend(), Backend::best());
    assert_ne!(
        Gost34311::digest(b"abc"),
        Gost34311::with_params(&Sbox::TEST, &[0; 32])
            .chain(b"abc")
            .finalize()
    );
    for len in [0usize, 31, 33, 64] {
        assert_eq!(
            Gost34311::with_params_slice(&Sbox::DKE1, &vec![0u8; len]).unwrap_err(),
            Error::InvalidParameter {
                what: "gost34311 starting hash value (32 bytes)"
            }
        );
    }
    assert!(Gost34311::with_params_slice(&Sbox::DKE1, &[0u8; 32]).is_ok());
    for b in Backend::ALL {
        if !b.is_available() {
            assert_eq!(
                Gost34311::with_backend(&Sbox::DKE1, &[0; 32], *b).unwrap_err(),
                Error::BackendUnavailable
            );
        }
    }
}

#[test]
fn clone_reset_zeroize() {
    let m: Vec<u8> = (0..300u32).map(|i| (i * 7) as u8).collect();
    let h0 = [9u8; 32];
    for b in backends() {
        for cut in [0, 1, 31, 32, 33, 100, 300] {
            let mut st = Gost34311::with_backend(&Sbox::TEST, &h0, b).unwrap();
            st.update(&m[..cut]);
            let mut fork = st.clone();
            st.update(&m[cut..]);
            fork.update(&m[cut..]);
            assert_eq!(st.finalize(), fork.finalize(), "cut {cut} {}", b.name());
        }
        let fresh = Gost34311::with_backend(&Sbox::TEST, &h0, b).unwrap();
        let mut st = fresh.clone();
        st.update(&m);
        st.reset();
        st.update(b"x");
        assert_eq!(st.finalize(), fresh.clone().chain(b"x").finalize());
        let mut st = fresh.clone();
        st.update(&m);
        zeroize::Zeroize::zeroize(&mut st);
        assert_eq!(st.finalize(), fresh.finalize());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every backend equals `soft`; any split equals one call.
    #[test]
    fn backends_and_streaming(
        msg in prop::collection::vec(any::<u8>(), 0..700),
        h0 in prop::array::uniform32(any::<u8>()),
        test_sbox in any::<bool>(),
        cuts in prop::collection::vec(any::<usize>(), 0..5),
    ) {
        let sb = if test_sbox { Sbox::TEST } else { Sbox::DKE1 };
        let want = Gost34311::with_backend(&sb, &h0, Backend::Soft).unwrap().chain(&msg).finalize();
        let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (msg.len() + 1)).collect();
        cuts.push(0);
        cuts.push(msg.len());
        cuts.sort_unstable();
        for b in backends() {
            let one = Gost34311::with_backend(&sb, &h0, b).unwrap().chain(&msg).finalize();
            prop_assert_eq!(one, want, "{}", b.name());
            let mut st = Gost34311::with_backend(&sb, &h0, b).unwrap();
            for w in cuts.windows(2) {
                st.update(&msg[w[0]..w[1]]);
            }
            prop_assert_eq!(st.finalize(), want, "{} in pieces", b.name());
        }
    }
}
