//! Kupyna (DSTU 7564:2014): every example of `testdata/kupyna/kupyna.json` under every
//! backend (one-shot, streaming, the fixed-length types, bit-length messages), every
//! backend against `soft` on random inputs, streaming against one-shot across block
//! boundaries, HMAC over Kupyna, and bad input.

mod common;

use proptest::prelude::*;
use shyfr::hash::kupyna::{Backend, Kupyna, Kupyna256, Kupyna384, Kupyna512};
use shyfr::hash::Hash;
use shyfr::mac::hmac::Hmac;
use shyfr::Error;

fn vectors() -> Vec<serde_json::Value> {
    let path = common::testdata("kupyna/kupyna.json");
    let text = std::fs::read_to_string(&path).expect("read kupyna.json");
    let v: serde_json::Value = serde_json::from_str(&text).expect("parse kupyna.json");
    v["vectors"].as_array().expect("vectors").clone()
}

fn hx(v: &serde_json::Value, field: &str) -> Vec<u8> {
    hex::decode(v[field].as_str().expect(field)).expect("hex")
}

fn num(v: &serde_json::Value, field: &str) -> usize {
    v[field].as_u64().expect(field) as usize
}

/// The digest of the first `bits` bits of `msg` on `b`, with `update` called on pieces of
/// `split` bytes (0: all at once).
fn digest(b: Backend, out_bits: usize, msg: &[u8], bits: usize, split: usize) -> Vec<u8> {
    let mut h = Kupyna::with_backend(out_bits, b).unwrap();
    assert_eq!(h.backend(), b);
    let whole = &msg[..bits / 8];
    if split == 0 {
        h.update(whole);
    } else {
        for piece in whole.chunks(split) {
            h.update(piece);
        }
    }
    let last = if bits.is_multiple_of(8) {
        0
    } else {
        msg[bits / 8]
    };
    let mut out = vec![0u8; out_bits / 8];
    h.finalize_bits_into(last, bits % 8, &mut out).unwrap();
    out
}

#[test]
fn standard_vectors_every_backend() {
    let vs = vectors();
    assert_eq!(vs.len(), 34);
    for b in common::backends::<Backend>() {
        let mut n = 0;
        for v in &vs {
            let (bits, out_bits) = (num(v, "message_bits"), num(v, "hash_bits"));
            let (msg, want) = (hx(v, "message"), hx(v, "digest"));
            assert_eq!(msg.len(), bits.div_ceil(8), "vector {}", v["id"]);
            for split in [0usize, 1, 7, 63, 64, 65, 127, 128, 200] {
                assert_eq!(
                    digest(b, out_bits, &msg, bits, split),
                    want,
                    "{b:?} vector {} split {split}",
                    v["id"]
                );
            }
            // The fixed-length types and the one-shot forms.
            if bits.is_multiple_of(8) {
                let m = &msg[..bits / 8];
                match out_bits {
                    256 => {
                        let mut h = Kupyna256::with_backend(b).unwrap();
                        h.update(m);
                        assert_eq!(h.finalize().as_slice(), want);
                        if b == Backend::best() {
                            assert_eq!(Kupyna256::digest(m).as_slice(), want);
                        }
                    }
                    384 => {
                        let mut h = Kupyna384::with_backend(b).unwrap();
                        h.update(m);
                        assert_eq!(h.finalize().as_slice(), want);
                    }
                    512 => {
                        let mut h = Kupyna512::with_backend(b).unwrap();
                        h.update(m);
                        assert_eq!(h.finalize().as_slice(), want);
                    }
                    _ => {}
                }
            } else if out_bits == 384 {
                let mut h = Kupyna384::with_backend(b).unwrap();
                h.update(&msg[..bits / 8]);
                let d = h.finalize_bits(msg[bits / 8], bits % 8).unwrap();
                assert_eq!(d.as_slice(), want);
            }
            n += 1;
        }
        assert_eq!(n, 34);
        common::passed(b);
    }
    // The one-shot bit-length form on the default backend.
    for v in &vs {
        let mut out = vec![0u8; num(v, "hash_bits") / 8];
        Kupyna::digest_bits(&hx(v, "message"), num(v, "message_bits"), &mut out).unwrap();
        assert_eq!(out, hx(v, "digest"), "vector {}", v["id"]);
    }
}

#[test]
fn unused_low_bits_of_the_last_byte_are_ignored() {
    let msg = [0x12u8, 0x34, 0xff];
    for b in common::backends::<Backend>() {
        for bits in 1..8 {
            let clean = msg[2] & !(0xffu8 >> bits);
            let a = digest(b, 256, &[msg[0], msg[1], clean], 16 + bits, 0);
            let c = digest(b, 256, &msg, 16 + bits, 0);
            assert_eq!(a, c, "{b:?} {bits}");
        }
        // A message of 7 bits differs from the same byte taken whole.
        assert_ne!(digest(b, 256, &[0xfe], 7, 0), digest(b, 256, &[0xfe], 8, 0));
    }
}

#[test]
fn streaming_equals_one_shot_across_blocks() {
    let data: Vec<u8> = (0..3 * 128 + 1).map(|i| (i * 7 + 3) as u8).collect();
    for b in common::backends::<Backend>() {
        for out_bits in [256usize, 512] {
            let bl = if out_bits == 256 { 64 } else { 128 };
            for len in 0..=3 * bl + 1 {
                let one = digest(b, out_bits, &data, 8 * len, 0);
                let mut h = Kupyna::with_backend(out_bits, b).unwrap();
                let (x, y) = data[..len].split_at(len / 3);
                h.update(x);
                h.update(&[]);
                h.update(y);
                let mut two = vec![0u8; out_bits / 8];
                h.clone().finalize_into(&mut two).unwrap();
                assert_eq!(one, two, "{b:?} {out_bits} len {len}");
                if b != Backend::Soft {
                    assert_eq!(one, digest(Backend::Soft, out_bits, &data, 8 * len, 0));
                }
            }
        }
    }
}

#[test]
fn every_output_length_is_a_suffix_of_its_state() {
    // Outputs of one state size differ only by truncation: the last n bits.
    let msg = b"The quick brown fox jumps over the lazy dog";
    for b in common::backends::<Backend>() {
        let d256 = digest(b, 256, msg, 8 * msg.len(), 0);
        let d512 = digest(b, 512, msg, 8 * msg.len(), 0);
        for bits in (8..=512).step_by(8) {
            let d = digest(b, bits, msg, 8 * msg.len(), 0);
            let full = if bits <= 256 { &d256 } else { &d512 };
            assert_eq!(d, full[full.len() - bits / 8..], "{b:?} {bits}");
        }
    }
}

#[test]
fn reset_and_clone() {
    for b in common::backends::<Backend>() {
        let mut h = Kupyna512::with_backend(b).unwrap();
        h.update(&[1u8; 300]);
        let fork = h.clone();
        h.reset();
        h.update(b"abc");
        assert_eq!(h.finalize(), Kupyna512::digest(b"abc"));
        let mut again = Kupyna512::with_backend(b).unwrap();
        again.update(&[1u8; 300]);
        assert_eq!(fork.finalize(), again.finalize());
    }
}

#[test]
fn hmac_over_kupyna_is_the_rfc_2104_construction() {
    // HMAC's definition written out with Kupyna itself: H((K ^ opad) || H((K ^ ipad) || m)),
    // the key padded to the block length (64 bytes for Kupyna-256, 128 for Kupyna-512)
    // and hashed first when longer.
    fn manual<H: Hash>(key: &[u8], msg: &[u8]) -> Vec<u8> {
        let mut k = if key.len() > H::BLOCK_LEN {
            H::digest(key).as_ref().to_vec()
        } else {
            key.to_vec()
        };
        k.resize(H::BLOCK_LEN, 0);
        let ipad: Vec<u8> = k.iter().map(|b| b ^ 0x36).collect();
        let opad: Vec<u8> = k.iter().map(|b| b ^ 0x5c).collect();
        let inner = H::digest(&[ipad, msg.to_vec()].concat());
        H::digest(&[opad, inner.as_ref().to_vec()].concat())
            .as_ref()
            .to_vec()
    }
    for key_len in [0usize, 20, 64, 65, 128, 129, 200] {
        let key: Vec<u8> = (0..key_len).map(|i| i as u8 ^ 0xa5).collect();
        let msg = b"message authenticated with Kupyna";
        assert_eq!(
            Hmac::<Kupyna256>::mac(&key, msg).to_vec(),
            manual::<Kupyna256>(&key, msg)
        );
        assert_eq!(
            Hmac::<Kupyna384>::mac(&key, msg).to_vec(),
            manual::<Kupyna384>(&key, msg)
        );
        assert_eq!(
            Hmac::<Kupyna512>::mac(&key, msg).to_vec(),
            manual::<Kupyna512>(&key, msg)
        );
    }
    let tag = Hmac::<Kupyna256>::mac(b"k", b"m");
    assert!(Hmac::<Kupyna256>::verify_mac(b"k", b"m", &tag).is_ok());
    assert!(Hmac::<Kupyna256>::verify_mac(b"k", b"n", &tag).is_err());
}

#[test]
fn bad_input_is_an_error() {
    for bits in [0usize, 4, 7, 260, 513, 520, 1024] {
        assert!(
            matches!(Kupyna::new(bits), Err(Error::InvalidParameter { .. })),
            "{bits}"
        );
    }
    for bits in [8usize, 48, 256, 264, 304, 512] {
        assert!(Kupyna::new(bits).is_ok(), "{bits}");
    }
    let h = Kupyna::new(256).unwrap();
    assert!(h.clone().finalize_bits_into(0, 8, &mut [0u8; 32]).is_err());
    assert!(h.clone().finalize_into(&mut [0u8; 31]).is_err());
    assert!(h.clone().finalize_into(&mut [0u8; 33]).is_err());
    assert!(Kupyna256::new().finalize_bits(0, 9).is_err());
    let mut out = [0u8; 32];
    assert!(Kupyna::digest_bits(&[1, 2], 17, &mut out).is_err());
    assert!(Kupyna::digest_bits(&[1, 2], 16, &mut out).is_ok());
    assert!(Kupyna::digest_bits(&[], 0, &mut [0u8; 0]).is_err());
    assert!(Kupyna::digest_bits(&[], 0, &mut [0u8; 65]).is_err());
    for &b in Backend::ALL {
        if !b.is_available() {
            assert!(matches!(
                Kupyna::with_backend(256, b),
                Err(Error::BackendUnavailable)
            ));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every backend equals `soft` on random messages, lengths (bits too), output lengths
    /// and update splits.
    #[test]
    fn backends_agree_with_soft(
        msg in proptest::collection::vec(any::<u8>(), 0..700),
        out_bytes in 1usize..=64,
        extra_bits in 0usize..8,
        split in 0usize..150,
    ) {
        let bits = 8 * msg.len().saturating_sub(1) + if msg.is_empty() { 0 } else { extra_bits };
        let want = digest(Backend::Soft, 8 * out_bytes, &msg, bits, 0);
        for b in common::backends::<Backend>() {
            prop_assert_eq!(&digest(b, 8 * out_bytes, &msg, bits, split), &want, "{:?}", b);
        }
    }
}
