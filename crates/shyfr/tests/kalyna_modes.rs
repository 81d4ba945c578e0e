//! The modes of DSTU 7624:2014 on Kalyna: every Annex B example (CTR, CBC, CFB, OFB, CMAC,
//! GCM, GMAC, CCM, XTS, KW) under every backend, round trips of every mode and variant
//! over random lengths, streaming against one-shot, and bad input.

mod common;
mod kalyna_common;

use kalyna_common::{backends, hx, num, vectors};
use proptest::prelude::*;
use shyfr::aead::dstu7624::{ccm::Ccm, gcm::Gcm, gcm::Gmac};
use shyfr::kalyna::{
    Backend, Kalyna128_128, Kalyna128_256, Kalyna256_256, Kalyna256_512, Kalyna512_512,
};
use shyfr::mode::cbc::Cbc;
use shyfr::mode::dstu7624::{cfb::Cfb, cmac::Cmac, ctr::Ctr, kw::Kw, xts::Xts, Dstu7624Cipher};
use shyfr::mode::ofb::Ofb;
use shyfr::pad::Padding;
use shyfr::Error;

/// Runs `$body` with `$k` bound to the typed cipher of the vector's variant under `$b`.
macro_rules! with_cipher {
    ($v:expr, $b:expr, |$k:ident| $body:expr) => {{
        let key = hx($v, "key");
        match (num($v, "block_bits"), key.len()) {
            (128, 16) => {
                let $k = Kalyna128_128::with_backend(&key.try_into().unwrap(), $b).unwrap();
                $body
            }
            (128, 32) => {
                let $k = Kalyna128_256::with_backend(&key.try_into().unwrap(), $b).unwrap();
                $body
            }
            (256, 32) => {
                let $k = Kalyna256_256::with_backend(&key.try_into().unwrap(), $b).unwrap();
                $body
            }
            (256, 64) => {
                let $k = Kalyna256_512::with_backend(&key.try_into().unwrap(), $b).unwrap();
                $body
            }
            (512, 64) => {
                let $k = Kalyna512_512::with_backend(&key.try_into().unwrap(), $b).unwrap();
                $body
            }
            other => panic!("vector {}: no variant {other:?}", $v["id"]),
        }
    }};
}

fn each_backend(file: &str, count: usize, f: impl Fn(&serde_json::Value, Backend)) {
    let vs = vectors(file);
    assert_eq!(vs.len(), count, "{file}: vector count");
    for b in backends() {
        for v in &vs {
            f(v, b);
        }
        common::note_exercised("kalyna", b.name());
    }
}

fn ctr_vector<C: Dstu7624Cipher + Sync>(k: &C, v: &serde_json::Value) {
    let (iv, p, c) = (hx(v, "iv"), hx(v, "plaintext"), hx(v, "ciphertext"));
    let mut buf = p.clone();
    Ctr::new(k, &iv).unwrap().apply_keystream(&mut buf).unwrap();
    assert_eq!(buf, c, "ctr vector {}", v["id"]);
    // Byte by byte, and seeking back.
    let mut ctr = Ctr::new(k, &iv).unwrap();
    let mut buf2 = p.clone();
    for i in 0..buf2.len() {
        ctr.apply_keystream(&mut buf2[i..i + 1]).unwrap();
    }
    assert_eq!(buf2, c);
    ctr.seek(3).unwrap();
    let mut tail = c[3..].to_vec();
    ctr.apply_keystream(&mut tail).unwrap();
    assert_eq!(tail, p[3..]);
}

#[test]
fn ctr_vectors() {
    each_backend("ctr.json", 4, |v, b| {
        with_cipher!(v, b, |k| ctr_vector(&k, v))
    });
}

#[test]
fn cbc_vectors() {
    each_backend("cbc.json", 10, |v, b| {
        with_cipher!(v, b, |k| {
            let (iv, p, c) = (hx(v, "iv"), hx(v, "plaintext"), hx(v, "ciphertext"));
            let cbc = Cbc::new(&k);
            if v.get("padding").is_some() {
                // The standard's example pads 46 bytes with 0x80 0..: ISO/IEC 7816-4.
                let mut buf = p.clone();
                buf.resize(c.len(), 0);
                let ct = cbc
                    .encrypt_padded(&iv, &mut buf, p.len(), Padding::Iso7816)
                    .unwrap()
                    .to_vec();
                assert_eq!(ct, c, "cbc vector {}", v["id"]);
                let mut back = c.clone();
                let pt = cbc
                    .decrypt_padded(&iv, &mut back, Padding::Iso7816)
                    .unwrap();
                assert_eq!(pt, &p[..]);
            } else {
                let mut buf = p.clone();
                cbc.encrypt(&iv, &mut buf).unwrap();
                assert_eq!(buf, c, "cbc vector {}", v["id"]);
                cbc.decrypt(&iv, &mut buf).unwrap();
                assert_eq!(buf, p);
            }
        })
    });
}

#[test]
fn ofb_vectors() {
    each_backend("ofb.json", 9, |v, b| {
        with_cipher!(v, b, |k| {
            let (iv, p, c) = (hx(v, "iv"), hx(v, "plaintext"), hx(v, "ciphertext"));
            let mut buf = p.clone();
            Ofb::new(&k, &iv)
                .unwrap()
                .apply_keystream(&mut buf)
                .unwrap();
            assert_eq!(buf, c, "ofb vector {}", v["id"]);
        })
    });
}

#[test]
fn cfb_vectors() {
    each_backend("cfb.json", 8, |v, b| {
        with_cipher!(v, b, |k| {
            let (iv, p, c) = (hx(v, "iv"), hx(v, "plaintext"), hx(v, "ciphertext"));
            let q = num(v, "q_bytes");
            let mut buf = p.clone();
            Cfb::new(&k, &iv, q).unwrap().encrypt(&mut buf).unwrap();
            assert_eq!(buf, c, "cfb vector {} encrypt", v["id"]);
            // Segment by segment.
            let mut cfb = Cfb::new(&k, &iv, q).unwrap();
            let mut buf2 = c.clone();
            for seg in buf2.chunks_mut(q) {
                cfb.decrypt(seg).unwrap();
            }
            assert_eq!(buf2, p, "cfb vector {} decrypt", v["id"]);
        })
    });
}

#[test]
fn cmac_vectors() {
    each_backend("cmac.json", 3, |v, b| {
        with_cipher!(v, b, |k| {
            let (m, mac) = (hx(v, "message"), hx(v, "mac"));
            let q = num(v, "q_bytes");
            let tag = Cmac::mac(&k, q, &m).unwrap();
            assert_eq!(tag.as_bytes(), &mac[..], "cmac vector {}", v["id"]);
            for split in [0, 1, 15, 16, 17, 33, m.len()] {
                let split = split.min(m.len());
                let mut s = Cmac::new(&k, q).unwrap();
                s.update(&m[..split]);
                s.update(&m[split..]);
                assert!(s.verify(&mac).is_ok());
            }
        })
    });
}

#[test]
fn gcm_and_gmac_vectors() {
    each_backend("gcm.json", 11, |v, b| {
        with_cipher!(v, b, |k| {
            let q = num(v, "q_bytes");
            if v["type"] == "gmac" {
                let (m, mac) = (hx(v, "message"), hx(v, "mac"));
                let tag = Gmac::new(&k, q).unwrap().mac(&m);
                assert_eq!(tag.as_bytes(), &mac[..], "gmac vector {}", v["id"]);
                let mut g = Gmac::new(&k, q).unwrap();
                for c in m.chunks(7) {
                    g.update(c);
                }
                assert!(g.verify(&mac).is_ok());
                return;
            }
            let (iv, aad, p, c, t) = (
                hx(v, "iv"),
                hx(v, "aad"),
                hx(v, "plaintext"),
                hx(v, "ciphertext"),
                hx(v, "tag"),
            );
            let gcm = Gcm::new(&k, q).unwrap();
            let mut buf = p.clone();
            let tag = gcm.seal_in_place(&iv, &aad, &mut buf).unwrap();
            assert_eq!(buf, c, "gcm vector {} ciphertext", v["id"]);
            assert_eq!(tag.as_bytes(), &t[..], "gcm vector {} tag", v["id"]);
            gcm.open_in_place(&iv, &aad, &mut buf, &t).unwrap();
            assert_eq!(buf, p);
            let mut out = vec![0u8; p.len()];
            gcm.open_to(&iv, &aad, &c, &mut out, &t).unwrap();
            assert_eq!(out, p);
            // A wrong tag releases nothing.
            let mut bad = t.clone();
            bad[0] ^= 1;
            let mut buf = c.clone();
            assert_eq!(
                gcm.open_in_place(&iv, &aad, &mut buf, &bad),
                Err(Error::AuthenticationFailed)
            );
            assert!(buf.iter().all(|&x| x == 0));
        })
    });
}

#[test]
fn ccm_vectors() {
    each_backend("ccm.json", 5, |v, b| {
        with_cipher!(v, b, |k| {
            let (iv, aad, p, c) = (
                hx(v, "iv"),
                hx(v, "aad"),
                hx(v, "plaintext"),
                hx(v, "ciphertext"),
            );
            let q = num(v, "q_bytes");
            let nb = (num(v, "nb_bits") - 3) / 8 + 1;
            let ccm = Ccm::new(&k, q, nb).unwrap();
            let mut buf = p.clone();
            let tag = ccm.seal_in_place(&iv, &aad, &mut buf).unwrap();
            // The standard's ciphertext is the data and the encrypted MAC.
            assert_eq!(buf, c[..p.len()], "ccm vector {} data", v["id"]);
            assert_eq!(tag.as_bytes(), &c[p.len()..], "ccm vector {} mac", v["id"]);
            ccm.open_in_place(&iv, &aad, &mut buf, tag.as_bytes())
                .unwrap();
            assert_eq!(buf, p);
            let mut bad = tag.as_bytes().to_vec();
            bad[q - 1] ^= 0x80;
            let mut buf = c[..p.len()].to_vec();
            assert_eq!(
                ccm.open_in_place(&iv, &aad, &mut buf, &bad),
                Err(Error::AuthenticationFailed)
            );
            assert!(buf.iter().all(|&x| x == 0));
        })
    });
}

#[test]
fn xts_vectors() {
    each_backend("xts.json", 10, |v, b| {
        with_cipher!(v, b, |k| {
            let (iv, p, c) = (hx(v, "iv"), hx(v, "plaintext"), hx(v, "ciphertext"));
            let x = Xts::new(&k).unwrap();
            let mut buf = p.clone();
            x.encrypt(&iv, &mut buf).unwrap();
            assert_eq!(buf, c, "xts vector {}", v["id"]);
            x.decrypt(&iv, &mut buf).unwrap();
            assert_eq!(buf, p);
        })
    });
}

#[test]
fn kw_vectors() {
    each_backend("kw.json", 9, |v, b| {
        with_cipher!(v, b, |k| {
            let (p, c) = (hx(v, "plaintext"), hx(v, "ciphertext"));
            let kw = Kw::new(&k).unwrap();
            let mut out = vec![0u8; c.len()];
            let n = kw.wrap(&p, &mut out).unwrap();
            assert_eq!(&out[..n], &c[..], "kw vector {}", v["id"]);
            let mut back = vec![0u8; c.len()];
            let m = kw.unwrap(&c, &mut back).unwrap();
            assert_eq!(&back[..m], &p[..]);
            let mut bad = c.clone();
            bad[3] ^= 1;
            assert_eq!(kw.unwrap(&bad, &mut back), Err(Error::AuthenticationFailed));
            assert!(back.iter().all(|&x| x == 0));
        })
    });
}

/// Round trips of every mode on one variant, for random data and lengths.
fn round_trips<C: Dstu7624Cipher + Sync>(k: &C, data: &[u8], aad: &[u8], split: usize) {
    let bl = C::BLOCK_LEN;
    let iv: Vec<u8> = (0..bl as u8).collect();
    let split = split.min(data.len());
    // CTR: one call equals two.
    let mut a = data.to_vec();
    Ctr::new(k, &iv).unwrap().apply_keystream(&mut a).unwrap();
    let mut b = data.to_vec();
    let mut c = Ctr::new(k, &iv).unwrap();
    c.apply_keystream(&mut b[..split]).unwrap();
    c.apply_keystream(&mut b[split..]).unwrap();
    assert_eq!(a, b);
    Ctr::new(k, &iv).unwrap().apply_keystream(&mut a).unwrap();
    assert_eq!(a, data);
    // CFB, every segment length class.
    for q in [1, 8.min(bl), bl / 2, bl] {
        let mut e = data.to_vec();
        Cfb::new(k, &iv, q).unwrap().encrypt(&mut e).unwrap();
        let cut = split / q * q;
        let mut d = e.clone();
        let mut cfb = Cfb::new(k, &iv, q).unwrap();
        cfb.decrypt(&mut d[..cut]).unwrap();
        cfb.decrypt(&mut d[cut..]).unwrap();
        assert_eq!(d, data, "cfb q={q}");
    }
    // CMAC: streaming equals one-shot.
    let t1 = Cmac::mac(k, bl, data).unwrap();
    let mut m = Cmac::new(k, bl).unwrap();
    m.update(&data[..split]);
    m.update(&data[split..]);
    assert!(m.verify(t1.as_bytes()).is_ok());
    // GMAC likewise.
    let g1 = Gmac::new(k, bl).unwrap().mac(data);
    let mut g = Gmac::new(k, bl).unwrap();
    g.update(&data[..split]);
    g.update(&data[split..]);
    assert!(g.verify(g1.as_bytes()).is_ok());
    // GCM and CCM.
    let gcm = Gcm::new(k, bl).unwrap();
    let mut e = data.to_vec();
    let t = gcm.seal_in_place(&iv, aad, &mut e).unwrap();
    let mut d = vec![0u8; e.len()];
    gcm.open_to(&iv, aad, &e, &mut d, t.as_bytes()).unwrap();
    assert_eq!(d, data);
    let ccm = Ccm::new(k, 8, 4).unwrap();
    let mut e = data.to_vec();
    let t = ccm.seal_in_place(&iv, aad, &mut e).unwrap();
    ccm.open_in_place(&iv, aad, &mut e, t.as_bytes()).unwrap();
    assert_eq!(e, data);
    // XTS (at least a block).
    if data.len() >= bl {
        let x = Xts::new(k).unwrap();
        let mut e = data.to_vec();
        x.encrypt(&iv, &mut e).unwrap();
        x.decrypt(&iv, &mut e).unwrap();
        assert_eq!(e, data);
    }
    // KW.
    if !data.is_empty() {
        let kw = Kw::new(k).unwrap();
        let mut w = vec![0u8; Kw::<C>::wrapped_len(data.len())];
        kw.wrap(data, &mut w).unwrap();
        let mut u = vec![0u8; w.len()];
        let n = kw.unwrap(&w, &mut u).unwrap();
        assert_eq!(&u[..n], data);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_mode_round_trips(
        key in proptest::collection::vec(any::<u8>(), 64),
        data in proptest::collection::vec(any::<u8>(), 0..300),
        aad in proptest::collection::vec(any::<u8>(), 0..80),
        split in 0usize..300,
    ) {
        round_trips(&Kalyna128_128::new(&key[..16].try_into().unwrap()), &data, &aad, split);
        round_trips(&Kalyna128_256::new(&key[..32].try_into().unwrap()), &data, &aad, split);
        round_trips(&Kalyna256_256::new(&key[..32].try_into().unwrap()), &data, &aad, split);
        round_trips(&Kalyna256_512::new(&key.clone().try_into().unwrap()), &data, &aad, split);
        round_trips(&Kalyna512_512::new(&key.try_into().unwrap()), &data, &aad, split);
    }

    /// The fused gamma of every backend equals the portable one.
    #[test]
    fn gamma_backends_equal_soft(
        key in proptest::collection::vec(any::<u8>(), 64),
        blocks in 0usize..140,
        ctr in proptest::collection::vec(any::<u8>(), 64),
    ) {
        let soft = Kalyna512_512::with_backend(&key.clone().try_into().unwrap(), Backend::Soft).unwrap();
        let soft128 = Kalyna128_128::with_backend(&key[..16].try_into().unwrap(), Backend::Soft).unwrap();
        for b in backends() {
            let k = Kalyna512_512::with_backend(&key.clone().try_into().unwrap(), b).unwrap();
            let (mut c1, mut c2) = (ctr.clone(), ctr.clone());
            let mut d1 = vec![0u8; 64 * blocks];
            let mut d2 = d1.clone();
            k.gamma_blocks(&mut c1, shyfr::block::InOutBuf::in_place(&mut d1)).unwrap();
            soft.gamma_blocks(&mut c2, shyfr::block::InOutBuf::in_place(&mut d2)).unwrap();
            prop_assert_eq!(&d1, &d2);
            prop_assert_eq!(&c1, &c2);
            let k = Kalyna128_128::with_backend(&key[..16].try_into().unwrap(), b).unwrap();
            // A counter about to carry through every byte.
            let mut c1 = vec![0xffu8; 16];
            c1[0] = 0xff - (blocks as u8 % 7);
            let mut c2 = c1.clone();
            let mut d1 = vec![0u8; 16 * blocks];
            let mut d2 = d1.clone();
            k.gamma_blocks(&mut c1, shyfr::block::InOutBuf::in_place(&mut d1)).unwrap();
            soft128.gamma_blocks(&mut c2, shyfr::block::InOutBuf::in_place(&mut d2)).unwrap();
            prop_assert_eq!(&d1, &d2);
            prop_assert_eq!(&c1, &c2);
        }
    }
}

#[test]
fn bad_input() {
    let k = Kalyna256_256::new(&[1; 32]);
    let iv = [0u8; 32];
    // Wrong IV lengths.
    assert!(matches!(
        Ctr::new(&k, &[0; 16]),
        Err(Error::InvalidNonceLength { .. })
    ));
    assert!(matches!(
        Cfb::new(&k, &[0; 31], 8),
        Err(Error::InvalidNonceLength { .. })
    ));
    // Segment and tag lengths outside the standard.
    assert!(Cfb::new(&k, &iv, 0).is_err());
    assert!(Cfb::new(&k, &iv, 33).is_err());
    assert!(matches!(
        Cmac::new(&k, 7),
        Err(Error::InvalidTagLength { got: 7 })
    ));
    assert!(matches!(
        Cmac::new(&k, 33),
        Err(Error::InvalidTagLength { got: 33 })
    ));
    assert!(Gcm::new(&k, 4).is_err());
    assert!(Gmac::new(&k, 64).is_err());
    assert!(Ccm::new(&k, 12, 4).is_err());
    assert!(Ccm::new(&k, 64, 4).is_err()); // longer than the block
    assert!(Ccm::new(&k, 16, 0).is_err());
    // CFB: nothing after a short segment.
    let mut cfb = Cfb::new(&k, &iv, 8).unwrap();
    cfb.encrypt(&mut [0u8; 13]).unwrap();
    assert!(cfb.encrypt(&mut [0u8; 8]).is_err());
    // XTS needs a block.
    let x = Xts::new(&k).unwrap();
    assert!(matches!(
        x.encrypt(&iv, &mut [0u8; 31]),
        Err(Error::TooShort { .. })
    ));
    // KW: impossible lengths and short buffers.
    let kw = Kw::new(&k).unwrap();
    let mut out = [0u8; 256];
    assert!(matches!(
        kw.unwrap(&[0u8; 33], &mut out),
        Err(Error::NotWholeBlocks { .. })
    ));
    assert!(matches!(
        kw.unwrap(&[0u8; 32], &mut out),
        Err(Error::TooShort { .. })
    ));
    assert!(matches!(
        kw.wrap(&[], &mut out),
        Err(Error::TooShort { .. })
    ));
    assert!(matches!(
        kw.wrap(&[1; 40], &mut out[..64]),
        Err(Error::TooShort { .. })
    ));
    // GCM: a wrong tag length is refused and releases nothing.
    let gcm = Gcm::new(&k, 16).unwrap();
    let mut buf = [7u8; 20];
    let t = gcm.seal_in_place(&iv, b"", &mut buf).unwrap();
    assert!(gcm
        .open_in_place(&iv, b"", &mut buf, &t.as_bytes()[..15])
        .is_err());
    assert_eq!(buf, [0u8; 20]);
    let mut out = [9u8; 20];
    assert!(gcm
        .open_to(&iv, b"x", &[1u8; 20], &mut out, t.as_bytes())
        .is_err());
    assert_eq!(out, [0u8; 20]);
    // CCM: a plaintext too long for a one-byte length field.
    let ccm = Ccm::new(&k, 16, 1).unwrap();
    let mut big = vec![0u8; 300];
    assert!(matches!(
        ccm.seal_in_place(&iv, b"", &mut big),
        Err(Error::TooLong { .. })
    ));
    // ECB / CBC data not in whole blocks.
    let cbc = Cbc::new(&k);
    assert!(matches!(
        cbc.encrypt(&iv, &mut [0u8; 33]),
        Err(Error::NotWholeBlocks { .. })
    ));
    // A block of zeros has no 0x80 marker: bad padding.
    let mut bad = [0u8; 32];
    cbc.encrypt(&iv, &mut bad).unwrap();
    assert_eq!(
        cbc.decrypt_padded(&iv, &mut bad, Padding::Iso7816).err(),
        Some(Error::BadPadding)
    );
}

/// The gamma of every backend equals `soft` at every length up to one batch of 32 and a
/// tail of 13 (every switch between one block at a time and a batch, alone and after a
/// batch), for every block size, with a counter that carries out of its first word.
#[test]
fn gamma_every_short_length_equals_soft() {
    use shyfr::block::InOutBuf;
    use shyfr::kalyna::Kalyna;
    for (bits, kl) in [(128usize, 16usize), (256, 32), (512, 64)] {
        let key: Vec<u8> = (0..kl).map(|i| (i * 7 + 3) as u8).collect();
        let bl = bits / 8;
        let soft = Kalyna::with_backend(bits, &key, Backend::Soft).unwrap();
        let mut ctr0: Vec<u8> = (0..bl).map(|i| (i * 11) as u8).collect();
        ctr0[..8].fill(0xff);
        ctr0[0] = 0xf0;
        for b in backends() {
            let k = Kalyna::with_backend(bits, &key, b).unwrap();
            for n in 0..=45 {
                let data: Vec<u8> = (0..n * bl).map(|i| (i * 5 + n) as u8).collect();
                let (mut c1, mut c2) = (ctr0.clone(), ctr0.clone());
                let (mut d1, mut d2) = (data.clone(), data.clone());
                k.gamma_blocks(&mut c1, InOutBuf::in_place(&mut d1))
                    .unwrap();
                soft.gamma_blocks(&mut c2, InOutBuf::in_place(&mut d2))
                    .unwrap();
                assert!(d1 == d2 && c1 == c2, "{b:?} {bits} gamma {n} blocks");
            }
        }
    }
}

/// `soft`'s gamma, which builds the counter blocks in its lanes, equals its definition:
/// the counters incremented (a little-endian integer), written out, encrypted as blocks by
/// `soft` and XORed in; at every length through two of the widest batches (64 blocks of
/// 128 bits in SSE2 lanes) and a tail, in place and out of place, with a counter whose
/// increment carries through every byte on the way.
#[test]
fn soft_gamma_equals_encrypted_counters() {
    use shyfr::block::InOutBuf;
    use shyfr::kalyna::Kalyna;
    for (bits, kl) in [(128usize, 16usize), (256, 32), (256, 64), (512, 64)] {
        let key: Vec<u8> = (0..kl).map(|i| (i * 13 + 1) as u8).collect();
        let bl = bits / 8;
        let soft = Kalyna::with_backend(bits, &key, Backend::Soft).unwrap();
        let mut ctr0 = vec![0xffu8; bl];
        ctr0[0] = 0xfa;
        ctr0[bl - 1] = 0x42;
        for n in (0..=40).chain([63, 64, 65, 127, 128, 131]) {
            let data: Vec<u8> = (0..n * bl).map(|i| (i * 7 + n) as u8).collect();
            let mut want = data.clone();
            let mut c = ctr0.clone();
            for blk in want.chunks_exact_mut(bl) {
                for byte in c.iter_mut() {
                    *byte = byte.wrapping_add(1);
                    if *byte != 0 {
                        break;
                    }
                }
                let mut e = c.clone();
                soft.encrypt_blocks(&mut e).unwrap();
                blk.iter_mut().zip(&e).for_each(|(d, k)| *d ^= k);
            }
            let mut c1 = ctr0.clone();
            let mut got = data.clone();
            soft.gamma_blocks(&mut c1, InOutBuf::in_place(&mut got))
                .unwrap();
            assert!(
                got == want && c1 == c,
                "{bits}/{} {n} blocks in place",
                kl * 8
            );
            let mut c2 = ctr0.clone();
            let mut out = vec![0u8; data.len()];
            soft.gamma_blocks(&mut c2, InOutBuf::new(&data, &mut out).unwrap())
                .unwrap();
            assert!(out == want && c2 == c, "{bits}/{} {n} blocks to", kl * 8);
        }
    }
}

/// Large buffers (split across threads with `--features parallel`) give the same result
/// as one gamma call on one thread.
#[test]
fn parallel_gamma_and_ecb_equal_single_thread() {
    use shyfr::block::InOutBuf;
    use shyfr::mode::ecb::Ecb;
    let len = 3 * shyfr::mode::PARALLEL_MIN_LEN + 64 * 3;
    let data: Vec<u8> = (0..len).map(|i| (i * 13 + i / 251) as u8).collect();
    for b in backends() {
        let k = Kalyna512_512::with_backend(&[9u8; 64], b).unwrap();
        let iv = [0xfeu8; 64];
        let mut one = data.clone();
        let mut ctr = iv;
        k.encrypt_blocks(&mut ctr).unwrap();
        k.gamma_blocks(&mut ctr, InOutBuf::in_place(&mut one))
            .unwrap();
        let mut par = data.clone();
        Ctr::new(&k, &iv)
            .unwrap()
            .apply_keystream(&mut par)
            .unwrap();
        assert!(par == one, "{b:?} gamma");
        let mut one = data.clone();
        k.encrypt_blocks(&mut one).unwrap();
        let mut par = data.clone();
        Ecb::new(&k).encrypt(&mut par).unwrap();
        assert!(par == one, "{b:?} ecb");
    }
}

/// GCM over a large buffer (its hash split across threads with `--features parallel`)
/// equals GCM on a one-thread pool, for every block size and an AAD, both buffers
/// misaligned to the hash window.
#[test]
fn parallel_gcm_equals_single_thread() {
    let len = 3 * shyfr::mode::PARALLEL_MIN_LEN + 64 * 5 + 7;
    let data: Vec<u8> = (0..len).map(|i| (i * 29 + i / 509) as u8).collect();
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let two_threads = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let aad: Vec<u8> = (0..(1 << 20) + 3).map(|i| (i % 253) as u8).collect();
    macro_rules! check {
        ($t:ty, $klen:expr, $bl:expr) => {{
            let k = <$t>::new(&[5u8; $klen]);
            let bl = $bl;
            let g = Gcm::new(&k, bl).unwrap();
            let iv = vec![0x3cu8; bl];
            let seal = |pool: &rayon::ThreadPool| {
                let mut buf = data.clone();
                let tag = pool.install(|| g.seal_in_place(&iv, &aad, &mut buf).unwrap());
                (buf, tag.as_bytes().to_vec())
            };
            let (c1, t1) = seal(&one_thread);
            let (c2, t2) = seal(&two_threads);
            assert!(c1 == c2, "{} ciphertext", stringify!($t));
            assert_eq!(t1, t2, "{} tag", stringify!($t));
            let mut back = c2.clone();
            two_threads.install(|| g.open_in_place(&iv, &aad, &mut back, &t2).unwrap());
            assert!(back == data, "{} open", stringify!($t));
        }};
    }
    check!(Kalyna128_128, 16, 16);
    check!(Kalyna256_512, 64, 32);
    check!(Kalyna512_512, 64, 64);
}
