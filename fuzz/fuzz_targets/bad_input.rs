//! Arbitrary input to every function that takes untrusted data or lengths: open (AES-GCM,
//! AES-CCM, GMAC, streaming GCM, Kalyna GCM and CCM), unpad (PKCS#7, ISO 7816-4, any block
//! length), CBC and ECB decryption with padding, unwrap (KW, KWP, DSTU KW), XTS (AES and
//! DSTU) with any length, MAC and tag verification with any tag length, key set-up with
//! any key length, HKDF and PBKDF2 with odd parameters. None may panic; every rejected
//! open, unpad or unwrap leaves its output zeroed or untouched (never plaintext).
#![no_main]

use libfuzzer_sys::fuzz_target;
use shyfr::aead::aes_gcm::AesGcm;
use shyfr::aead::ccm::AesCcm;
use shyfr::aead::dstu7624::{ccm::Ccm as DCcm, gcm::Gcm as DGcm};
use shyfr::aes::Aes;
use shyfr::des::{Des, Tdes};
use shyfr::gost28147::{Gost28147, Sbox};
use shyfr::hash::sha2::Sha256;
use shyfr::kalyna::{Kalyna, Kalyna128_128, Kalyna256_512};
use shyfr::kdf::hkdf::Hkdf;
use shyfr::kdf::pbkdf2::pbkdf2_hmac;
use shyfr::mac::hmac::Hmac;
use shyfr::mac::kmac::Kmac128;
use shyfr::mode::cbc::Cbc;
use shyfr::mode::cmac::Cmac;
use shyfr::mode::ctr::Ctr;
use shyfr::mode::dstu7624::{kw::Kw as DKw, xts::Xts as DXts};
use shyfr::mode::ecb::Ecb;
use shyfr::mode::gost28147::Mac as GostMac;
use shyfr::mode::kw::{Kw, Kwp};
use shyfr::mode::xts::Xts;
use shyfr::pad::{iso7816_unpad, pkcs7_unpad, Padding};
use shyfr::Error;
use shyfr_fuzz::Input;

/// After a rejected in-place open: the buffer is zeroed or still the ciphertext.
fn no_plaintext_in_place(buf: &[u8], ct: &[u8], what: &str) {
    assert!(
        buf.iter().all(|&b| b == 0) || buf == ct,
        "{what}: a rejected open left other bytes behind"
    );
}

/// After a rejected open into `out` (filled with `0xa5` before): every byte zeroed or
/// untouched (the part an unwrap would have written is zeroed, the rest untouched).
fn no_plaintext_out(out: &[u8], what: &str) {
    assert!(
        out.iter().all(|&b| b == 0 || b == 0xa5),
        "{what}: a rejected open wrote into the output"
    );
}

fn aead(inp: &mut Input) {
    let key = inp.data(40);
    let nonce = inp.data(40);
    let aad = inp.data(64);
    let tag = inp.data(20);
    let tag_len = inp.below(20);
    let ct = inp.data(600);
    let mut out = vec![0xa5u8; ct.len() + inp.below(2)];
    if inp.bool() {
        let Ok(g) = AesGcm::new_from_slice(&key) else {
            return;
        };
        let g = if inp.bool() {
            g.with_tag_len(tag_len)
        } else {
            g.with_short_tag_len(tag_len)
        };
        let Ok(g) = g else { return };
        let mut buf = ct.clone();
        if g.open_in_place(&nonce, &aad, &mut buf, &tag).is_err() {
            no_plaintext_in_place(&buf, &ct, "gcm open_in_place");
        }
        if g.open_to(&nonce, &aad, &ct, &tag, &mut out).is_err() {
            no_plaintext_out(&out, "gcm open_to");
        }
        let _ = g.gmac_verify(&nonce, &aad, &tag);
        if let Ok(mut d) = g.decryptor(&nonce) {
            let _ = d.update_aad(&aad);
            let mut b = ct.clone();
            let _ = d.decrypt_unverified(&mut b);
            let _ = d.finalize(&tag);
        }
    } else {
        let Ok(c) = AesCcm::new_from_slice(&key) else {
            return;
        };
        let Ok(c) = c.with_tag_len(tag_len) else {
            return;
        };
        let mut buf = ct.clone();
        if c.open_in_place(&nonce, &aad, &mut buf, &tag).is_err() {
            no_plaintext_in_place(&buf, &ct, "ccm open_in_place");
        }
        if c.open_to(&nonce, &aad, &ct, &tag, &mut out).is_err() {
            no_plaintext_out(&out, "ccm open_to");
        }
    }
}

fn dstu(inp: &mut Input) {
    let big = inp.bool();
    let key = inp.bytes(if big { 64 } else { 16 });
    let iv = inp.data(80);
    let aad = inp.data(64);
    let tag = inp.data(70);
    let q = inp.below(70);
    let nb = inp.below(20);
    let ct = inp.data(700);
    let mut out = vec![0xa5u8; ct.len() + inp.below(2)];
    macro_rules! run {
        ($k:expr) => {{
            let k = $k;
            if let Ok(g) = DGcm::new(&k, q) {
                let mut buf = ct.clone();
                if g.open_in_place(&iv, &aad, &mut buf, &tag).is_err() {
                    no_plaintext_in_place(&buf, &ct, "dstu gcm open_in_place");
                }
                if g.open_to(&iv, &aad, &ct, &mut out, &tag).is_err() {
                    no_plaintext_out(&out, "dstu gcm open_to");
                }
            }
            out.fill(0xa5);
            if let Ok(c) = DCcm::new(&k, q, nb) {
                let mut buf = ct.clone();
                if c.open_in_place(&iv, &aad, &mut buf, &tag).is_err() {
                    no_plaintext_in_place(&buf, &ct, "dstu ccm open_in_place");
                }
                if c.open_to(&iv, &aad, &ct, &mut out, &tag).is_err() {
                    no_plaintext_out(&out, "dstu ccm open_to");
                }
            }
            out.fill(0xa5);
            if let Ok(kw) = DKw::new(&k) {
                if kw.unwrap(&ct, &mut out).is_err() {
                    no_plaintext_out(&out, "dstu kw unwrap");
                }
            }
            if let Ok(x) = DXts::new(&k) {
                let mut b = ct.clone();
                let _ = x.decrypt(&iv, &mut b);
                let _ = x.encrypt(&iv, &mut b);
            }
        }};
    }
    if big {
        run!(Kalyna256_512::new(&key.try_into().unwrap()))
    } else {
        run!(Kalyna128_128::new(&key.try_into().unwrap()))
    }
}

fn padding_and_wrap(inp: &mut Input) {
    let block = inp.below(300);
    let data = inp.data(600);
    let _ = pkcs7_unpad(&data, block);
    let _ = iso7816_unpad(&data, block);
    let key = inp.bytes(16);
    let iv = inp.data(20);
    let aes = Aes::new_from_slice(&key).unwrap();
    for pad in [Padding::Pkcs7, Padding::Iso7816, Padding::None] {
        let mut buf = data.clone();
        if Cbc::new(&aes).decrypt_padded(&iv, &mut buf, pad).is_err() {
            // Refused before decrypting (lengths), or decrypted and then wiped.
            assert!(buf == data || buf.iter().all(|&b| b == 0), "cbc {pad:?}");
        }
        let mut out = vec![0xa5u8; data.len()];
        if Cbc::new(&aes)
            .decrypt_padded_to(&iv, &data, &mut out, pad)
            .is_err()
        {
            no_plaintext_out(&out, "cbc decrypt_padded_to");
        }
        let mut buf = data.clone();
        if Ecb::new(&aes).decrypt_padded(&mut buf, pad).is_err() {
            assert!(buf == data || buf.iter().all(|&b| b == 0), "ecb {pad:?}");
        }
    }
    let mut out = vec![0xa5u8; data.len().saturating_sub(inp.below(16))];
    if Kw::new(&aes).unwrap().unwrap(&data, &mut out).is_err() {
        no_plaintext_out(&out, "kw unwrap");
    }
    out.fill(0xa5);
    if Kwp::new(&aes).unwrap().unwrap(&data, &mut out).is_err() {
        no_plaintext_out(&out, "kwp unwrap");
    }
    let x = Xts::new(aes.clone(), Aes::new_from_slice(&inp.bytes(16)).unwrap()).unwrap();
    let mut b = data.clone();
    let _ = x.decrypt(&iv, &mut b);
    let _ = x.encrypt_sector(u128::MAX, &mut b);
    let ctr = Ctr::with_counter_len(&aes, &iv, inp.below(20));
    if let Ok(mut c) = ctr {
        let _ = c.seek(u128::MAX - inp.u16() as u128);
        let _ = c.apply_keystream(&mut b);
    }
}

fn macs_and_keys(inp: &mut Input) {
    let key = inp.data(80);
    let tag = inp.data(80);
    let msg = inp.data(300);
    let _ = Hmac::<Sha256>::verify_mac(&key, &msg, &tag);
    let mut h = Hmac::<Sha256>::new(&key);
    h.update(&msg);
    let _ = h.verify_truncated(&tag);
    if let Ok(mut k) = Kmac128::new(&key, &msg) {
        k.update(&msg);
        let _ = k.clone().verify(&tag);
        let mut out = vec![0u8; tag.len()];
        let _ = k.finalize_into(&mut out);
    }
    if let Ok(aes) = Aes::new_from_slice(&key) {
        let mut m = Cmac::new(&aes).unwrap();
        m.update(&msg);
        assert!(m.verify(&tag).is_err() || tag.len() >= 4);
    }
    let sbox = Sbox::from_bytes(&msg).unwrap_or(Sbox::DKE1);
    if let Ok(g) = Gost28147::new_from_slice(&key, &sbox) {
        let mut m = GostMac::new(&g);
        m.update(&msg);
        let _ = m.verify(&tag);
    }
    let _ = Des::new_from_slice(&key);
    let _ = Tdes::new_from_slice(&key);
    let _ = Kalyna::new(inp.u16() as usize, &key);
    let mut okm = vec![0u8; inp.u16() as usize % 9000];
    match Hkdf::<Sha256>::derive(&msg, &key, &tag, &mut okm) {
        Ok(()) => assert!(okm.len() <= 255 * 32),
        Err(e) => assert!(
            matches!(e, Error::TooLong { .. }) && okm.len() > 255 * 32,
            "{e:?}"
        ),
    }
    let mut dk = vec![0u8; inp.below(100)];
    let _ = pbkdf2_hmac::<Sha256>(&key, &msg, inp.below(3) as u32, &mut dk);
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    match inp.below(4) {
        0 => aead(&mut inp),
        1 => dstu(&mut inp),
        2 => padding_and_wrap(&mut inp),
        _ => macs_and_keys(&mut inp),
    }
});
