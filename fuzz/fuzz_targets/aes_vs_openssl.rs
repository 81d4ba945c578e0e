//! shyfr against OpenSSL (the system libcrypto through the `openssl` crate) for the AES
//! modes: ECB, CBC (raw and PKCS#7, both directions, decryption of arbitrary ciphertext
//! included), CTR (128-bit counter), CFB128, CFB8, OFB and XTS, each key size, on the
//! backend a key set up now selects. Where OpenSSL refuses an input, shyfr must refuse it
//! too (and the other way round).
#![no_main]

use libfuzzer_sys::fuzz_target;
use openssl::symm::{Cipher, Crypter, Mode};
use shyfr::aes::Aes;
use shyfr::mode::cbc::Cbc;
use shyfr::mode::cfb::{CfbDecryptor, CfbEncryptor, Segment};
use shyfr::mode::ctr::Ctr;
use shyfr::mode::ecb::Ecb;
use shyfr::mode::ofb::Ofb;
use shyfr::mode::xts::Xts;
use shyfr::pad::Padding;
use shyfr_fuzz::Input;

/// OpenSSL's one-shot result (`None` on an error).
fn ossl(
    c: Cipher,
    mode: Mode,
    key: &[u8],
    iv: Option<&[u8]>,
    pad: bool,
    data: &[u8],
) -> Option<Vec<u8>> {
    let mut cr = Crypter::new(c, mode, key, iv).ok()?;
    cr.pad(pad);
    let mut out = vec![0u8; data.len() + 2 * c.block_size()];
    let n = cr.update(data, &mut out).ok()?;
    let m = cr.finalize(&mut out[n..]).ok()?;
    out.truncate(n + m);
    Some(out)
}

fn cipher(kind: u8, klen: usize) -> Cipher {
    match (kind, klen) {
        (0, 16) => Cipher::aes_128_ecb(),
        (0, 24) => Cipher::aes_192_ecb(),
        (0, _) => Cipher::aes_256_ecb(),
        (1, 16) => Cipher::aes_128_cbc(),
        (1, 24) => Cipher::aes_192_cbc(),
        (1, _) => Cipher::aes_256_cbc(),
        (2, 16) => Cipher::aes_128_ctr(),
        (2, 24) => Cipher::aes_192_ctr(),
        (2, _) => Cipher::aes_256_ctr(),
        (3, 16) => Cipher::aes_128_cfb128(),
        (3, 24) => Cipher::aes_192_cfb128(),
        (3, _) => Cipher::aes_256_cfb128(),
        (4, 16) => Cipher::aes_128_cfb8(),
        (4, 24) => Cipher::aes_192_cfb8(),
        (4, _) => Cipher::aes_256_cfb8(),
        (5, 16) => Cipher::aes_128_ofb(),
        (5, 24) => Cipher::aes_192_ofb(),
        (_, _) => Cipher::aes_256_ofb(),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    let kind = inp.below(8) as u8;
    let klen = inp.pick(&[16usize, 24, 32]);
    let key = inp.bytes(klen);
    let iv = inp.bytes(16);
    let decrypt = inp.bool();
    let msg = inp.data(3000);
    let aes = Aes::new_from_slice(&key).unwrap();
    let mode = if decrypt {
        Mode::Decrypt
    } else {
        Mode::Encrypt
    };
    match kind {
        0..=5 => {
            let c = cipher(kind.min(5), klen);
            let theirs = ossl(c, mode, &key, (kind != 0).then_some(&iv[..]), false, &msg);
            let mut v = msg.clone();
            let ours = match (kind, decrypt) {
                (0, false) => Ecb::new(&aes).encrypt(&mut v),
                (0, true) => Ecb::new(&aes).decrypt(&mut v),
                (1, false) => Cbc::new(&aes).encrypt(&iv, &mut v),
                (1, true) => Cbc::new(&aes).decrypt(&iv, &mut v),
                (2, _) => Ctr::new(&aes, &iv).unwrap().apply_keystream(&mut v),
                (3 | 4, false) => {
                    let seg = if kind == 3 {
                        Segment::Block
                    } else {
                        Segment::Byte
                    };
                    CfbEncryptor::with_segment(&aes, &iv, seg)
                        .unwrap()
                        .update(&mut v)
                }
                (3 | 4, true) => {
                    let seg = if kind == 3 {
                        Segment::Block
                    } else {
                        Segment::Byte
                    };
                    CfbDecryptor::with_segment(&aes, &iv, seg)
                        .unwrap()
                        .update(&mut v)
                }
                _ => Ofb::new(&aes, &iv).unwrap().apply_keystream(&mut v),
            };
            assert_eq!(
                ours.ok().map(|()| v),
                theirs,
                "kind {kind} decrypt {decrypt}"
            );
        }
        6 => {
            // CBC with PKCS#7: encryption of any message, decryption of any ciphertext.
            let c = cipher(1, klen);
            let theirs = ossl(c, mode, &key, Some(&iv), true, &msg);
            let cbc = Cbc::new(&aes);
            let ours = if decrypt {
                let mut out = vec![0xa5u8; msg.len()];
                let r = cbc.decrypt_padded_to(&iv, &msg, &mut out, Padding::Pkcs7);
                match r {
                    Ok(n) => Some(out[..n].to_vec()),
                    Err(_) => {
                        // Nothing of the (wrong) plaintext is left behind.
                        assert!(out.iter().all(|&b| b == 0 || b == 0xa5), "output not wiped");
                        None
                    }
                }
            } else {
                let mut buf = msg.clone();
                buf.resize(msg.len() + 16, 0);
                cbc.encrypt_padded(&iv, &mut buf, msg.len(), Padding::Pkcs7)
                    .ok()
                    .map(|c| c.to_vec())
            };
            assert_eq!(ours, theirs, "cbc-pkcs7 decrypt {decrypt}");
        }
        _ => {
            // XTS: two 128- or 256-bit keys. OpenSSL refuses equal halves and data under
            // one block.
            let xlen = if klen == 16 { 32 } else { 64 };
            let mut xkey = key.clone();
            xkey.extend(inp.bytes(xlen - klen));
            xkey.truncate(xlen);
            if xkey[..xlen / 2] == xkey[xlen / 2..] {
                return;
            }
            let c = if xlen == 32 {
                Cipher::aes_128_xts()
            } else {
                Cipher::aes_256_xts()
            };
            let theirs = ossl(c, mode, &xkey, Some(&iv), false, &msg);
            let x = Xts::new(
                Aes::new_from_slice(&xkey[..xlen / 2]).unwrap(),
                Aes::new_from_slice(&xkey[xlen / 2..]).unwrap(),
            )
            .unwrap();
            let mut v = msg.clone();
            let r = if decrypt {
                x.decrypt(&iv, &mut v)
            } else {
                x.encrypt(&iv, &mut v)
            };
            if msg.len() >= 16 {
                assert_eq!(r.ok().map(|()| v), theirs, "xts decrypt {decrypt}");
            } else {
                assert!(r.is_err(), "xts accepted {} bytes", msg.len());
            }
        }
    }
});
