//! AES key wrap (KW, RFC 3394; KWP, RFC 5649) and AES-CMAC, shyfr against OpenSSL: wrap
//! gives the same bytes; unwrapping anything (a wrapping, a tampered one, or arbitrary
//! bytes) gives the same verdict and key data, and a refused unwrap leaves zeros in the
//! output; CMAC gives the same tag.
#![no_main]

use libfuzzer_sys::fuzz_target;
use openssl::cipher::{Cipher, CipherRef};
use openssl::cipher_ctx::{CipherCtx, CipherCtxFlags};
use openssl::pkey::PKey;
use openssl::sign::Signer;
use shyfr::aes::Aes;
use shyfr::mode::cmac::Cmac;
use shyfr::mode::kw::{Kw, Kwp};
use shyfr_fuzz::Input;

fn wrap_cipher(klen: usize, padded: bool) -> &'static CipherRef {
    match (klen, padded) {
        (16, false) => Cipher::aes_128_wrap(),
        (24, false) => Cipher::aes_192_wrap(),
        (_, false) => Cipher::aes_256_wrap(),
        (16, true) => Cipher::aes_128_wrap_pad(),
        (24, true) => Cipher::aes_192_wrap_pad(),
        (_, true) => Cipher::aes_256_wrap_pad(),
    }
}

/// OpenSSL's wrap (`enc`) or unwrap; `None` on an error.
fn ossl_wrap(c: &CipherRef, key: &[u8], enc: bool, input: &[u8]) -> Option<Vec<u8>> {
    let mut ctx = CipherCtx::new().ok()?;
    ctx.set_flags(CipherCtxFlags::FLAG_WRAP_ALLOW);
    if enc {
        ctx.encrypt_init(Some(c), Some(key), None).ok()?;
    } else {
        ctx.decrypt_init(Some(c), Some(key), None).ok()?;
    }
    // Room to spare: the `openssl` crate's `cipher_update_vec` reserves one cipher block
    // (8 bytes for the wrap ciphers) past the input, and KWP writes up to 15 more (found by
    // this target: a heap overflow inside libcrypto, seen by ASan at the free).
    let mut out = vec![0u8; input.len() + 64];
    let n = ctx.cipher_update(input, Some(&mut out)).ok()?;
    let m = ctx.cipher_final(&mut out[n..]).ok()?;
    out.truncate(n + m);
    Some(out)
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    let what = inp.below(3);
    let klen = inp.pick(&[16usize, 24, 32]);
    let key = inp.bytes(klen);
    let aes = Aes::new_from_slice(&key).unwrap();
    if what == 2 {
        let msg = inp.data(2000);
        let pk = PKey::cmac(
            &openssl::symm::Cipher::from_nid(match klen {
                16 => openssl::nid::Nid::AES_128_CBC,
                24 => openssl::nid::Nid::AES_192_CBC,
                _ => openssl::nid::Nid::AES_256_CBC,
            })
            .unwrap(),
            &key,
        )
        .unwrap();
        let mut s = Signer::new_without_digest(&pk).unwrap();
        s.update(&msg).unwrap();
        let theirs = s.sign_to_vec().unwrap();
        let ours = Cmac::mac(&aes, &msg).unwrap();
        assert_eq!(ours.as_bytes(), &theirs[..], "cmac");
        return;
    }
    let padded = what == 1;
    let c = wrap_cipher(klen, padded);
    let mode = inp.below(3);
    let bit = inp.u16() as usize;
    let msg = inp.data(600);
    if msg.is_empty() {
        // OpenSSL's EVP interface never calls the wrap on empty input (it returns empty
        // output): nothing to compare; shyfr refuses both.
        let mut w = [0u8; 32];
        if padded {
            assert!(Kwp::new(&aes).unwrap().wrap(&msg, &mut w).is_err());
            assert!(Kwp::new(&aes).unwrap().unwrap(&msg, &mut w).is_err());
        } else {
            assert!(Kw::new(&aes).unwrap().wrap(&msg, &mut w).is_err());
            assert!(Kw::new(&aes).unwrap().unwrap(&msg, &mut w).is_err());
        }
        return;
    }
    let input = if mode == 2 {
        // Arbitrary bytes to unwrap.
        msg.clone()
    } else {
        // Wrap the message both ways: the same bytes.
        let theirs = ossl_wrap(c, &key, true, &msg);
        let mut w = vec![0u8; msg.len() + 16];
        let ours = if padded {
            Kwp::new(&aes).unwrap().wrap(&msg, &mut w)
        } else {
            Kw::new(&aes).unwrap().wrap(&msg, &mut w)
        };
        let ours = ours.ok().map(|n| w[..n].to_vec());
        assert_eq!(ours, theirs, "wrap of {} bytes", msg.len());
        let Some(mut w) = ours else { return };
        if mode == 1 {
            let i = bit / 8 % w.len();
            w[i] ^= 1 << (bit % 8);
        }
        w
    };
    let theirs = ossl_wrap(c, &key, false, &input);
    let mut out = vec![0x5au8; input.len() + 8];
    let ours = if padded {
        Kwp::new(&aes).unwrap().unwrap(&input, &mut out)
    } else {
        Kw::new(&aes).unwrap().unwrap(&input, &mut out)
    };
    match ours {
        Ok(n) => assert_eq!(Some(out[..n].to_vec()), theirs, "unwrap"),
        Err(e) => {
            assert_eq!(theirs, None, "shyfr refused ({e:?}) what OpenSSL unwrapped");
            // Untouched (length errors) or wiped (integrity errors): no key data.
            assert!(
                out.iter().all(|&b| b == 0x5a)
                    || out[..input.len().saturating_sub(8)].iter().all(|&b| b == 0),
                "refused unwrap left data behind: {e:?}"
            );
        }
    }
});
