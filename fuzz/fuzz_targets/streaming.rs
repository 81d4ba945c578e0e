//! One-shot against streaming, the data cut at random points: AES-GCM (AAD and data in
//! pieces, seal and open), CBC with PKCS#7 (encryptor and decryptor, buffer to buffer),
//! CTR (and `seek`), CFB (block and byte segments), OFB, CMAC, KMAC, cSHAKE, the DSTU 7624
//! CTR, CMAC and GMAC over Kalyna, and GOST 28147-89 gamma, gamma with feedback, MAC and
//! GOST 34.311. Each on the default backend.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shyfr::aead::aes_gcm::AesGcm;
use shyfr::aead::dstu7624::gcm::Gmac;
use shyfr::aes::Aes;
use shyfr::gost28147::{Gost28147, Sbox};
use shyfr::hash::gost34311::Gost34311;
use shyfr::hash::sha3::CShake256;
use shyfr::hash::XofReader;
use shyfr::kalyna::Kalyna256_512;
use shyfr::mac::kmac::{Kmac128, Kmac256};
use shyfr::mode::cbc::{Cbc, CbcDecryptor, CbcEncryptor};
use shyfr::mode::cfb::{CfbDecryptor, CfbEncryptor, Segment};
use shyfr::mode::cmac::Cmac;
use shyfr::mode::ctr::Ctr;
use shyfr::mode::dstu7624::{cmac::Cmac as DCmac, ctr::Ctr as DCtr};
use shyfr::mode::gost28147::{Gamma, GammaFeedbackEncryptor, Mac};
use shyfr::mode::ofb::Ofb;
use shyfr::pad::Padding;
use shyfr_fuzz::{pieces, pieces_mut, Input};

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    let which = inp.below(9);
    let key = inp.bytes(64);
    let iv = inp.bytes(32);
    let aad = inp.data(200);
    let msg = inp.data(3000);
    let cuts = inp.cuts(msg.len());
    let acuts = inp.cuts(aad.len());
    let aes = Aes::new_from_slice(&key[..16 + 8 * (which % 3)]).unwrap();
    match which {
        0 => {
            // GCM, any nonce length.
            let g = AesGcm::new_from_slice(&key[..32]).unwrap();
            let nonce = &iv[..1 + iv[0] as usize % 32];
            let mut one = msg.clone();
            let tag = g.seal_in_place(nonce, &aad, &mut one).unwrap();
            let mut e = g.encryptor(nonce).unwrap();
            pieces(&aad, &acuts)
                .into_iter()
                .for_each(|a| e.update_aad(a).unwrap());
            let mut st = msg.clone();
            for p in pieces_mut(&mut st, &cuts) {
                e.encrypt(p).unwrap();
            }
            assert_eq!(st, one, "gcm stream ciphertext");
            assert_eq!(e.finalize(), tag, "gcm stream tag");
            let mut d = g.decryptor(nonce).unwrap();
            pieces(&aad, &acuts)
                .into_iter()
                .for_each(|a| d.update_aad(a).unwrap());
            let mut back = vec![0u8; st.len()];
            for (c, p) in pieces(&st, &cuts)
                .into_iter()
                .zip(pieces_mut(&mut back, &cuts))
            {
                d.decrypt_unverified_to(c, p).unwrap();
            }
            d.finalize(tag.as_bytes()).unwrap();
            assert_eq!(back, msg, "gcm stream open");
        }
        1 => {
            // CBC with PKCS#7 or none, buffer to buffer through the streaming types.
            let padding = if iv[1] & 1 == 1 {
                Padding::Pkcs7
            } else {
                Padding::None
            };
            let cbc = Cbc::new(&aes);
            let mut buf = msg.clone();
            buf.resize(msg.len() + 16, 0);
            let one = cbc
                .encrypt_padded(&iv[..16], &mut buf, msg.len(), padding)
                .map(|c| c.to_vec());
            let mut e = CbcEncryptor::new(&aes, &iv[..16], padding).unwrap();
            let mut out = vec![0u8; msg.len() + 16];
            let mut n = 0;
            for p in pieces(&msg, &cuts) {
                n += e.update_to(p, &mut out[n..]).unwrap();
            }
            let st = e.finalize_to(&mut out[n..]).map(|m| out[..n + m].to_vec());
            // Without padding a partial block is an error either way (the one-shot call
            // names the message length, the stream the bytes it buffered).
            assert_eq!(st.as_ref().ok(), one.as_ref().ok(), "cbc encryptor");
            if let Ok(ct) = one {
                let mut d = CbcDecryptor::new(&aes, &iv[..16], padding).unwrap();
                let mut out = vec![0u8; ct.len()];
                let mut n = 0;
                let ccuts = inp.cuts(ct.len());
                for p in pieces(&ct, &ccuts) {
                    n += d.update_to(p, &mut out[n..]).unwrap();
                }
                let m = d.finalize_to(&mut out[n..]).unwrap();
                assert_eq!(&out[..n + m], &msg[..], "cbc decryptor");
            }
        }
        2 => {
            let mut one = msg.clone();
            Ctr::new(&aes, &iv[..16])
                .unwrap()
                .apply_keystream(&mut one)
                .unwrap();
            let mut c = Ctr::new(&aes, &iv[..16]).unwrap();
            let mut st = msg.clone();
            for p in pieces_mut(&mut st, &cuts) {
                c.apply_keystream(p).unwrap();
            }
            assert_eq!(st, one, "ctr");
            // Seeking to a cut gives the rest of the stream.
            if let Some(&at) = cuts.first() {
                let mut c = Ctr::new(&aes, &iv[..16]).unwrap();
                c.seek(at as u128).unwrap();
                let mut rest = msg[at..].to_vec();
                c.apply_keystream(&mut rest).unwrap();
                assert_eq!(rest, one[at..], "ctr seek {at}");
            }
        }
        3 => {
            for seg in [Segment::Block, Segment::Byte] {
                let mut one = msg.clone();
                CfbEncryptor::with_segment(&aes, &iv[..16], seg)
                    .unwrap()
                    .update(&mut one)
                    .unwrap();
                let mut e = CfbEncryptor::with_segment(&aes, &iv[..16], seg).unwrap();
                let mut st = msg.clone();
                for p in pieces_mut(&mut st, &cuts) {
                    e.update(p).unwrap();
                }
                assert_eq!(st, one, "cfb {seg:?}");
                let mut d = CfbDecryptor::with_segment(&aes, &iv[..16], seg).unwrap();
                for p in pieces_mut(&mut st, &cuts) {
                    d.update(p).unwrap();
                }
                assert_eq!(st, msg, "cfb {seg:?} decrypt");
            }
            let mut one = msg.clone();
            Ofb::new(&aes, &iv[..16])
                .unwrap()
                .apply_keystream(&mut one)
                .unwrap();
            let mut o = Ofb::new(&aes, &iv[..16]).unwrap();
            let mut st = msg.clone();
            for p in pieces_mut(&mut st, &cuts) {
                o.apply_keystream(p).unwrap();
            }
            assert_eq!(st, one, "ofb");
        }
        4 => {
            let one = Cmac::mac(&aes, &msg).unwrap();
            let mut m = Cmac::new(&aes).unwrap();
            pieces(&msg, &cuts).into_iter().for_each(|p| m.update(p));
            let st = m.finalize();
            assert_eq!(st.as_bytes(), one.as_bytes(), "cmac");
        }
        5 => {
            // KMAC and cSHAKE: pieces against one update.
            let len = 1 + iv[2] as usize;
            let (mut a, mut b) = (vec![0u8; len.max(16)], vec![0u8; len.max(16)]);
            let mut m = Kmac256::new(&key, &aad).unwrap();
            m.update(&msg);
            m.finalize_into(&mut a).unwrap();
            let mut m = Kmac256::new(&key, &aad).unwrap();
            pieces(&msg, &cuts).into_iter().for_each(|p| m.update(p));
            m.finalize_into(&mut b).unwrap();
            assert_eq!(a, b, "kmac256");
            let mut m = Kmac128::new(&key[..16], b"").unwrap();
            pieces(&msg, &cuts).into_iter().for_each(|p| m.update(p));
            let mut c = vec![0u8; 32];
            m.finalize_into(&mut c).unwrap();
            let mut m = Kmac128::new(&key[..16], b"").unwrap();
            m.update(&msg);
            assert_eq!(m.verify(&c), Ok(()), "kmac128 verify");
            let mut x = CShake256::new(b"N", &aad);
            x.update(&msg);
            let mut y = CShake256::new(b"N", &aad);
            pieces(&msg, &cuts).into_iter().for_each(|p| y.update(p));
            let (mut ox, mut oy) = (vec![0u8; len], vec![0u8; len]);
            x.finalize_xof().read(&mut ox);
            let mut r = y.finalize_xof();
            let half = len / 2;
            r.read(&mut oy[..half]);
            r.read(&mut oy[half..]);
            assert_eq!(ox, oy, "cshake256");
        }
        6 => {
            // DSTU 7624 over Kalyna-256/512.
            let k = Kalyna256_512::new(&key[..64].try_into().unwrap());
            let mut one = msg.clone();
            DCtr::new(&k, &iv)
                .unwrap()
                .apply_keystream(&mut one)
                .unwrap();
            let mut c = DCtr::new(&k, &iv).unwrap();
            let mut st = msg.clone();
            for p in pieces_mut(&mut st, &cuts) {
                c.apply_keystream(p).unwrap();
            }
            assert_eq!(st, one, "dstu ctr");
            let one = DCmac::mac(&k, 32, &msg).unwrap();
            let mut m = DCmac::new(&k, 32).unwrap();
            pieces(&msg, &cuts).into_iter().for_each(|p| m.update(p));
            assert_eq!(m.finalize().as_bytes(), one.as_bytes(), "dstu cmac");
            let one = Gmac::new(&k, 32).unwrap().mac(&msg);
            let mut m = Gmac::new(&k, 32).unwrap();
            pieces(&msg, &cuts).into_iter().for_each(|p| m.update(p));
            assert_eq!(m.finalize().as_bytes(), one.as_bytes(), "dstu gmac");
        }
        _ => {
            // GOST 28147-89 and GOST 34.311-95.
            let sbox = if which == 7 { Sbox::DKE1 } else { Sbox::TEST };
            let g = Gost28147::with_sbox(&key[..32].try_into().unwrap(), &sbox);
            let mut one = msg.clone();
            Gamma::new(&g, &iv[..8]).unwrap().apply_keystream(&mut one);
            let mut c = Gamma::new(&g, &iv[..8]).unwrap();
            let mut st = msg.clone();
            for p in pieces_mut(&mut st, &cuts) {
                c.apply_keystream(p);
            }
            assert_eq!(st, one, "gost gamma");
            let mut one = msg.clone();
            GammaFeedbackEncryptor::new(&g, &iv[..8])
                .unwrap()
                .update(&mut one);
            let mut c = GammaFeedbackEncryptor::new(&g, &iv[..8]).unwrap();
            let mut st = msg.clone();
            for p in pieces_mut(&mut st, &cuts) {
                c.update(p);
            }
            assert_eq!(st, one, "gost gamma with feedback");
            let one = Mac::mac(&g, &msg);
            let mut m = Mac::new(&g);
            pieces(&msg, &cuts).into_iter().for_each(|p| m.update(p));
            assert_eq!(m.finalize(), one, "gost mac");
            let mut h = Gost34311::with_params(&sbox, &[0; 32]);
            h.update(&msg);
            let one = h.finalize();
            let mut h = Gost34311::with_params(&sbox, &[0; 32]);
            pieces(&msg, &cuts).into_iter().for_each(|p| h.update(p));
            assert_eq!(h.finalize(), one, "gost 34.311");
        }
    }
});
