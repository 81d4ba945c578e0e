//! The hashes and what is built on them, shyfr against OpenSSL: SHA-1, SHA-224/256/384/
//! 512, SHA-512/224, SHA-512/256, SHA3-224/256/384/512, SHAKE128/256 (any output length),
//! HMAC over each, HKDF (SHA-1/256/384/512) and PBKDF2 (SHA-1/256/512, few iterations),
//! each on the default backend, the message fed in random pieces.
#![no_main]

use libfuzzer_sys::fuzz_target;
use openssl::hash::{hash, hash_xof, MessageDigest};
use openssl::md::Md;
use openssl::pkey::{Id, PKey};
use openssl::pkey_ctx::PkeyCtx;
use openssl::sign::Signer;
use shyfr::hash::sha1::Sha1;
use shyfr::hash::sha2::{Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};
use shyfr::hash::sha3::{Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256};
use shyfr::hash::{Hash, XofReader};
use shyfr::kdf::hkdf::Hkdf;
use shyfr::kdf::pbkdf2::pbkdf2_hmac;
use shyfr::mac::hmac::Hmac;
use shyfr_fuzz::{pieces, Input};

/// The digest of `msg` fed in `cuts` pieces, and HMAC under `key`.
fn ours<H: Hash>(msg: &[u8], cuts: &[usize], key: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut h = H::new();
    let mut m = Hmac::<H>::new(key);
    for p in pieces(msg, cuts) {
        h.update(p);
        m.update(p);
    }
    (
        h.finalize().as_ref().to_vec(),
        m.finalize().as_ref().to_vec(),
    )
}

fn theirs(md: MessageDigest, msg: &[u8], key: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let d = hash(md, msg).unwrap().to_vec();
    // OpenSSL refuses an empty HMAC key; HMAC pads the key with zeros to the hash's block,
    // so a block of zeros is the same key.
    let zeros = vec![0u8; md.block_size()];
    let pk = PKey::hmac(if key.is_empty() { &zeros } else { key }).unwrap();
    let mut s = Signer::new(md, &pk).unwrap();
    s.update(msg).unwrap();
    (d, s.sign_to_vec().unwrap())
}

fn hkdf_theirs(
    md: &openssl::md::MdRef,
    salt: &[u8],
    ikm: &[u8],
    info: &[u8],
    len: usize,
) -> Option<Vec<u8>> {
    let mut ctx = PkeyCtx::new_id(Id::HKDF).ok()?;
    ctx.derive_init().ok()?;
    ctx.set_hkdf_md(md).ok()?;
    ctx.set_hkdf_key(ikm).ok()?;
    ctx.set_hkdf_salt(salt).ok()?;
    ctx.add_hkdf_info(info).ok()?;
    let mut out = vec![0u8; len];
    ctx.derive(Some(&mut out)).ok()?;
    Some(out)
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    let which = inp.below(16);
    let key = inp.data(200);
    let msg = inp.data(3000);
    let cuts = inp.cuts(msg.len());
    let (o, t) = match which {
        0 => (
            ours::<Sha1>(&msg, &cuts, &key),
            theirs(MessageDigest::sha1(), &msg, &key),
        ),
        1 => (
            ours::<Sha224>(&msg, &cuts, &key),
            theirs(MessageDigest::sha224(), &msg, &key),
        ),
        2 => (
            ours::<Sha256>(&msg, &cuts, &key),
            theirs(MessageDigest::sha256(), &msg, &key),
        ),
        3 => (
            ours::<Sha384>(&msg, &cuts, &key),
            theirs(MessageDigest::sha384(), &msg, &key),
        ),
        4 => (
            ours::<Sha512>(&msg, &cuts, &key),
            theirs(MessageDigest::sha512(), &msg, &key),
        ),
        5 => (
            ours::<Sha512_224>(&msg, &cuts, &key),
            theirs(MessageDigest::from_name("SHA512-224").unwrap(), &msg, &key),
        ),
        6 => (
            ours::<Sha512_256>(&msg, &cuts, &key),
            theirs(MessageDigest::from_name("SHA512-256").unwrap(), &msg, &key),
        ),
        7 => (
            ours::<Sha3_224>(&msg, &cuts, &key),
            theirs(MessageDigest::sha3_224(), &msg, &key),
        ),
        8 => (
            ours::<Sha3_256>(&msg, &cuts, &key),
            theirs(MessageDigest::sha3_256(), &msg, &key),
        ),
        9 => (
            ours::<Sha3_384>(&msg, &cuts, &key),
            theirs(MessageDigest::sha3_384(), &msg, &key),
        ),
        10 => (
            ours::<Sha3_512>(&msg, &cuts, &key),
            theirs(MessageDigest::sha3_512(), &msg, &key),
        ),
        11 | 12 => {
            let n = key.len() * 3;
            let mut t = vec![0u8; n];
            let mut o = vec![0u8; n];
            if which == 11 {
                hash_xof(MessageDigest::shake_128(), &msg, &mut t).unwrap();
                let mut h = Shake128::new();
                pieces(&msg, &cuts).into_iter().for_each(|p| h.update(p));
                let mut r = h.finalize_xof();
                // Read in pieces too.
                let (a, b) = o.split_at_mut(n / 3);
                r.read(a);
                r.read(b);
            } else {
                hash_xof(MessageDigest::shake_256(), &msg, &mut t).unwrap();
                let mut h = Shake256::new();
                pieces(&msg, &cuts).into_iter().for_each(|p| h.update(p));
                h.finalize_xof().read(&mut o);
            }
            assert_eq!(o, t, "shake");
            return;
        }
        13 | 14 => {
            // HKDF: salt = key, ikm = msg, info = the key reversed, any output length.
            let info: Vec<u8> = key.iter().rev().copied().collect();
            let len = 1 + (msg.len() * 7 + key.len()) % 600;
            let mut okm = vec![0u8; len];
            let (r, t) = if which == 13 {
                (
                    Hkdf::<Sha256>::derive(&key, &msg, &info, &mut okm),
                    hkdf_theirs(Md::sha256(), &key, &msg, &info, len),
                )
            } else {
                (
                    Hkdf::<Sha1>::derive(&key, &msg, &info, &mut okm),
                    hkdf_theirs(Md::sha1(), &key, &msg, &info, len),
                )
            };
            assert_eq!(r.ok().map(|()| okm), t, "hkdf {len}");
            return;
        }
        _ => {
            let iters = 1 + key.first().copied().unwrap_or(0) as usize % 8;
            let len = 1 + msg.len() % 200;
            let mut dk = vec![0u8; len];
            let mut t = vec![0u8; len];
            pbkdf2_hmac::<Sha512>(&key, &msg, iters as u32, &mut dk).unwrap();
            openssl::pkcs5::pbkdf2_hmac(&key, &msg, iters, MessageDigest::sha512(), &mut t)
                .unwrap();
            assert_eq!(dk, t, "pbkdf2");
            return;
        }
    };
    assert_eq!(o.0, t.0, "digest {which}");
    assert_eq!(o.1, t.1, "hmac {which}");
});
