//! AES-GCM and AES-CCM, shyfr against OpenSSL: seal gives the same ciphertext and tag
//! (GCM: any nonce length from 1 to 64 bytes, tags of 12 to 16 bytes; CCM: nonces of 7 to
//! 13 bytes, every even tag length from 4 to 16), and opening a sealed message, with a
//! flipped bit in the tag, ciphertext, AAD or nonce or not, gives the same verdict and
//! plaintext in both. A rejected open leaves zeros, never plaintext, in the output.
#![no_main]

use libfuzzer_sys::fuzz_target;
use openssl::cipher::CipherRef;
use openssl::cipher_ctx::CipherCtx;
use openssl::symm::{decrypt_aead, encrypt_aead, Cipher};
use shyfr::aead::aes_gcm::AesGcm;
use shyfr::aead::ccm::AesCcm;
use shyfr::Error;
use shyfr_fuzz::Input;

fn gcm_cipher(klen: usize) -> Cipher {
    match klen {
        16 => Cipher::aes_128_gcm(),
        24 => Cipher::aes_192_gcm(),
        _ => Cipher::aes_256_gcm(),
    }
}

fn ccm_cipher_ref(klen: usize) -> &'static CipherRef {
    match klen {
        16 => openssl::cipher::Cipher::aes_128_ccm(),
        24 => openssl::cipher::Cipher::aes_192_ccm(),
        _ => openssl::cipher::Cipher::aes_256_ccm(),
    }
}

/// OpenSSL CCM, seal (`enc`, writing `tag`) or open (checking `tag`), through `CipherCtx`
/// with the nonce and tag lengths set before the key. (The `openssl` crate's
/// `encrypt_aead` sets the tag length after the key, which OpenSSL 3 ignores: every tag
/// length but the default 12 bytes then fails. Found by this target.)
fn ossl_ccm(
    klen: usize,
    key: &[u8],
    nonce: &[u8],
    aad: &[u8],
    data: &[u8],
    tag: &mut [u8],
    enc: bool,
) -> Option<Vec<u8>> {
    let c = ccm_cipher_ref(klen);
    let mut ctx = CipherCtx::new().ok()?;
    if enc {
        ctx.encrypt_init(Some(c), None, None).ok()?;
    } else {
        ctx.decrypt_init(Some(c), None, None).ok()?;
    }
    ctx.set_iv_length(nonce.len()).ok()?;
    if enc {
        ctx.set_tag_length(tag.len()).ok()?;
        ctx.encrypt_init(None, Some(key), Some(nonce)).ok()?;
    } else {
        ctx.set_tag(tag).ok()?;
        ctx.decrypt_init(None, Some(key), Some(nonce)).ok()?;
    }
    ctx.set_data_len(data.len()).ok()?;
    if !aad.is_empty() {
        ctx.cipher_update(aad, None).ok()?;
    }
    let mut out = vec![0u8; data.len() + 16];
    let n = ctx.cipher_update(data, Some(&mut out)).ok()?;
    let m = if enc {
        ctx.cipher_final(&mut out[n..]).ok()?
    } else {
        0
    };
    out.truncate(n + m);
    if enc {
        ctx.tag(tag).ok()?;
    }
    Some(out)
}

/// Flips bit `bit` of one of the four inputs (chosen by `which`), or nothing; returns
/// whether something changed.
fn tamper(
    which: u8,
    bit: usize,
    nonce: &mut [u8],
    aad: &mut [u8],
    ct: &mut [u8],
    tag: &mut [u8],
) -> bool {
    let v: &mut [u8] = match which % 5 {
        0 => return false,
        1 => nonce,
        2 => aad,
        3 => ct,
        _ => tag,
    };
    if v.is_empty() {
        return false;
    }
    let i = bit / 8 % v.len();
    v[i] ^= 1 << (bit % 8);
    true
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    let ccm = inp.bool();
    let klen = inp.pick(&[16usize, 24, 32]);
    let key = inp.bytes(klen);
    let (nonce_len, tag_len) = if ccm {
        (7 + inp.below(7), inp.pick(&[4usize, 6, 8, 10, 12, 14, 16]))
    } else {
        (1 + inp.below(64), 12 + inp.below(5))
    };
    let mut nonce = inp.bytes(nonce_len);
    let mut aad = inp.data(300);
    let which = inp.u8();
    let bit = inp.u16() as usize;
    let msg = inp.data(2000);

    let (c, seal, open): (
        Cipher,
        Box<dyn Fn(&[u8], &[u8], &mut [u8]) -> Result<Vec<u8>, Error>>,
        Box<dyn Fn(&[u8], &[u8], &mut [u8], &[u8]) -> Result<(), Error>>,
    ) = if ccm {
        let k = AesCcm::new_from_slice(&key)
            .unwrap()
            .with_tag_len(tag_len)
            .unwrap();
        let k2 = k.clone();
        (
            gcm_cipher(klen), // unused for CCM (see `ossl_ccm`)
            Box::new(move |n, a, b| k.seal_in_place(n, a, b).map(|t| t.as_bytes().to_vec())),
            Box::new(move |n, a, b, t| k2.open_in_place(n, a, b, t)),
        )
    } else {
        let k = AesGcm::new_from_slice(&key)
            .unwrap()
            .with_tag_len(tag_len)
            .unwrap();
        let k2 = k.clone();
        (
            gcm_cipher(klen),
            Box::new(move |n, a, b| k.seal_in_place(n, a, b).map(|t| t.as_bytes().to_vec())),
            Box::new(move |n, a, b, t| k2.open_in_place(n, a, b, t)),
        )
    };

    // Seal: the same ciphertext and tag.
    let mut their_tag = vec![0u8; tag_len];
    let theirs = if ccm {
        ossl_ccm(klen, &key, &nonce, &aad, &msg, &mut their_tag, true).ok_or(())
    } else {
        encrypt_aead(c, &key, Some(&nonce), &aad, &msg, &mut their_tag).map_err(|_| ())
    };
    let mut ct = msg.clone();
    let ours = seal(&nonce, &aad, &mut ct);
    match (&ours, &theirs) {
        (Ok(t), Ok(their_ct)) => {
            assert_eq!(&ct, their_ct, "ciphertext");
            assert_eq!(t, &their_tag, "tag");
        }
        // CCM's length field is too short for the message with long nonces: both refuse.
        (Err(_), Err(_)) => return,
        _ => panic!(
            "seal ({} nonce {nonce_len} tag {tag_len} aad {} msg {}): shyfr {ours:?}, openssl {:?}",
            if ccm { "ccm" } else { "gcm" },
            aad.len(),
            msg.len(),
            theirs.map(|_| ())
        ),
    }
    let mut tag = ours.unwrap();

    // Open, perhaps tampered: the same verdict and plaintext.
    let tampered = tamper(which, bit, &mut nonce, &mut aad, &mut ct, &mut tag);
    let theirs = if ccm {
        ossl_ccm(klen, &key, &nonce, &aad, &ct, &mut tag.clone(), false).ok_or(())
    } else {
        decrypt_aead(c, &key, Some(&nonce), &aad, &ct, &tag).map_err(|_| ())
    };
    let mut buf = ct.clone();
    let ours = open(&nonce, &aad, &mut buf, &tag);
    match (ours, theirs) {
        (Ok(()), Ok(pt)) => {
            assert_eq!(buf, pt, "plaintext");
            assert!(!tampered, "a tampered message was accepted");
            assert_eq!(buf, msg);
        }
        (Err(e), Err(_)) => {
            assert_eq!(e, Error::AuthenticationFailed);
            assert!(
                buf.iter().all(|&b| b == 0),
                "rejected open left data behind"
            );
        }
        (o, t) => panic!("open: shyfr {o:?}, openssl {:?}", t.map(|_| ())),
    }
});
