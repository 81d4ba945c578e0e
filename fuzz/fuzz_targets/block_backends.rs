//! Every backend against the portable one, for each block cipher (AES, Kalyna's five
//! variants, GOST 28147-89 with either S-box, DES and TDES) and each mode: ECB, CBC, CTR,
//! CFB (block and byte segments), OFB, CMAC, and the cipher's own modes (AES: XTS, CCM,
//! the GCM engines; Kalyna: the DSTU 7624 CTR, CMAC, GCM, CCM, XTS, KW, CFB; GOST: gamma,
//! gamma with feedback, MAC, GOST 34.311). Every result, errors included, must be equal.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shyfr::aead::aes_gcm::AesGcm;
use shyfr::aead::ccm::AesCcm;
use shyfr::aead::dstu7624::{ccm::Ccm as DCcm, gcm::Gcm as DGcm};
use shyfr::aead::ghash;
use shyfr::aes::{self, Aes};
use shyfr::des::{self, Des, Tdes};
use shyfr::gost28147::{self, Gost28147, Sbox};
use shyfr::hash::gost34311::Gost34311;
use shyfr::kalyna::{
    self, Kalyna128_128, Kalyna128_256, Kalyna256_256, Kalyna256_512, Kalyna512_512,
};
use shyfr::mode::cbc::Cbc;
use shyfr::mode::cfb::{CfbDecryptor, CfbEncryptor, Segment};
use shyfr::mode::cmac::Cmac;
use shyfr::mode::ctr::Ctr;
use shyfr::mode::dstu7624::{
    cfb::Cfb as DCfb, cmac::Cmac as DCmac, ctr::Ctr as DCtr, kw::Kw as DKw, xts::Xts as DXts,
};
use shyfr::mode::ecb::Ecb;
use shyfr::mode::gost28147::{Gamma, GammaFeedbackDecryptor, GammaFeedbackEncryptor, Mac};
use shyfr::mode::ofb::Ofb;
use shyfr::mode::xts::Xts;
use shyfr::mode::BlockModes;
use shyfr::Error;
use shyfr_fuzz::Input;

type Out = Vec<Result<Vec<u8>, Error>>;

/// `f` applied to a copy of `data`: the bytes, or the error.
fn on(data: &[u8], f: impl FnOnce(&mut Vec<u8>) -> Result<(), Error>) -> Result<Vec<u8>, Error> {
    let mut v = data.to_vec();
    f(&mut v).map(|()| v)
}

/// The generic modes with cipher `c`, on `data` (any length) and a one-block `iv`.
fn generic_modes<C: BlockModes + Sync>(c: &C, iv: &[u8], data: &[u8]) -> Out {
    let whole = &data[..data.len() / C::BLOCK_LEN * C::BLOCK_LEN];
    let mut out = vec![
        on(whole, |v| Ecb::new(c).encrypt(v)),
        on(whole, |v| Ecb::new(c).decrypt(v)),
        on(whole, |v| Cbc::new(c).encrypt(iv, v)),
        on(whole, |v| Cbc::new(c).decrypt(iv, v)),
        on(data, |v| Ctr::new(c, iv)?.apply_keystream(v)),
        on(data, |v| Ofb::new(c, iv)?.apply_keystream(v)),
        on(data, |v| {
            Cmac::mac(c, v).map(|t| *v = t.as_bytes().to_vec())
        }),
    ];
    for seg in [Segment::Block, Segment::Byte] {
        out.push(on(data, |v| {
            CfbEncryptor::with_segment(c, iv, seg)?.update(v)
        }));
        out.push(on(data, |v| {
            CfbDecryptor::with_segment(c, iv, seg)?.update(v)
        }));
    }
    out
}

fn aes(inp: &mut Input) {
    let klen = inp.pick(&[16usize, 24, 32]);
    let key = inp.bytes(klen);
    let key2 = inp.bytes(klen);
    let iv = inp.bytes(16);
    let nonce_len = 7 + inp.below(7);
    let nonce = inp.bytes(nonce_len);
    let tag_len = inp.pick(&[4usize, 8, 12, 16]);
    let aad = inp.data(64);
    let data = inp.data(2100);
    let run = |b: aes::Backend| -> Out {
        let c = Aes::with_backend(&key, b).expect("available");
        let mut out = generic_modes(&c, &iv, &data);
        let x = Xts::new(c.clone(), Aes::with_backend(&key2, b).expect("available"));
        out.push(on(&data, |v| x.as_ref().map_err(|e| *e)?.encrypt(&iv, v)));
        out.push(on(&data, |v| x.as_ref().map_err(|e| *e)?.decrypt(&iv, v)));
        out.push(on(&data, |v| {
            let t = AesCcm::with_backend(&key, b)?
                .with_tag_len(tag_len)?
                .seal_in_place(&nonce, &aad, v)?;
            v.extend_from_slice(t.as_bytes());
            Ok(())
        }));
        out
    };
    let soft = run(aes::Backend::Soft);
    for &b in aes::Backend::ALL.iter().filter(|b| b.is_available()) {
        assert_eq!(run(b), soft, "aes {}", b.name());
    }
    // Every GCM engine (fused where the pair has one, and the generic one) against the
    // portable pair.
    let gcm = |g: Result<AesGcm, Error>| -> Result<Vec<u8>, Error> {
        let g = g?.with_tag_len(16)?;
        let mut v = data.clone();
        let t = g.seal_in_place(&iv[..12], &aad, &mut v)?;
        v.extend_from_slice(t.as_bytes());
        Ok(v)
    };
    let want = gcm(AesGcm::with_backends_generic(
        &key,
        aes::Backend::Soft,
        ghash::Backend::Soft,
    ));
    for &a in aes::Backend::ALL.iter().filter(|b| b.is_available()) {
        for &g in ghash::Backend::ALL.iter().filter(|b| b.is_available()) {
            assert_eq!(
                gcm(AesGcm::with_backends(&key, a, g)),
                want,
                "gcm {a:?} {g:?}"
            );
            assert_eq!(
                gcm(AesGcm::with_backends_generic(&key, a, g)),
                want,
                "gcm generic {a:?} {g:?}"
            );
        }
    }
}

/// The DSTU 7624 modes and the generic ones for one typed Kalyna variant.
macro_rules! kalyna_variant {
    ($t:ident, $inp:expr) => {{
        let inp = $inp;
        let key = inp.bytes($t::KEY_LEN);
        let bl = $t::BLOCK_LEN;
        let iv = inp.bytes(bl);
        let q = inp.pick(&[8usize, bl / 2, bl]);
        let nb = 1 + inp.below(8);
        let aad = inp.data(100);
        let data = inp.data(1500);
        let run = |b: kalyna::Backend| -> Out {
            let k = $t::with_backend(key.as_slice().try_into().unwrap(), b).expect("available");
            let mut out = generic_modes(&k, &iv, &data);
            out.push(on(&data, |v| DCtr::new(&k, &iv)?.apply_keystream(v)));
            out.push(on(&data, |v| {
                DCmac::mac(&k, q, v).map(|t| *v = t.as_bytes().to_vec())
            }));
            out.push(on(&data, |v| {
                let t = DGcm::new(&k, q)?.seal_in_place(&iv, &aad, v)?;
                v.extend_from_slice(t.as_bytes());
                Ok(())
            }));
            out.push(on(&data, |v| {
                let t = DCcm::new(&k, q, nb)?.seal_in_place(&iv, &aad, v)?;
                v.extend_from_slice(t.as_bytes());
                Ok(())
            }));
            out.push(on(&data, |v| DXts::new(&k)?.encrypt(&iv, v)));
            out.push(on(&data, |v| DXts::new(&k)?.decrypt(&iv, v)));
            out.push(on(&data, |v| DCfb::new(&k, &iv, q)?.encrypt(v)));
            out.push(on(&data, |v| DCfb::new(&k, &iv, q)?.decrypt(v)));
            out.push(on(&data, |v| {
                let mut w = vec![0u8; v.len() + 2 * bl + 8];
                let n = DKw::new(&k)?.wrap(v, &mut w)?;
                w.truncate(n);
                *v = w;
                Ok(())
            }));
            out
        };
        let soft = run(kalyna::Backend::Soft);
        for &b in kalyna::Backend::ALL.iter().filter(|b| b.is_available()) {
            assert_eq!(run(b), soft, "{} {}", stringify!($t), b.name());
        }
    }};
}

fn kalyna(inp: &mut Input) {
    match inp.below(5) {
        0 => kalyna_variant!(Kalyna128_128, inp),
        1 => kalyna_variant!(Kalyna128_256, inp),
        2 => kalyna_variant!(Kalyna256_256, inp),
        3 => kalyna_variant!(Kalyna256_512, inp),
        _ => kalyna_variant!(Kalyna512_512, inp),
    }
}

fn gost(inp: &mut Input) {
    let sbox = if inp.bool() { Sbox::DKE1 } else { Sbox::TEST };
    let key = inp.bytes(32);
    let iv = inp.bytes(8);
    let data = inp.data(2100);
    let run = |b: gost28147::Backend| -> Out {
        let g = Gost28147::with_backend(&key, &sbox, b).expect("available");
        let mut out = generic_modes(&g, &iv, &data);
        out.push(on(&data, |v| {
            Gamma::new(&g, &iv)?.apply_keystream(v);
            Ok(())
        }));
        out.push(on(&data, |v| {
            GammaFeedbackEncryptor::new(&g, &iv)?.update(v);
            Ok(())
        }));
        out.push(on(&data, |v| {
            GammaFeedbackDecryptor::new(&g, &iv)?.update(v);
            Ok(())
        }));
        out.push(Ok(Mac::mac(&g, &data).to_vec()));
        let mut h = Gost34311::with_backend(&sbox, &[7; 32], b).expect("available");
        h.update(&data);
        out.push(Ok(h.finalize().to_vec()));
        out
    };
    let soft = run(gost28147::Backend::Soft);
    for &b in gost28147::Backend::ALL.iter().filter(|b| b.is_available()) {
        assert_eq!(run(b), soft, "gost {}", b.name());
    }
}

fn des(inp: &mut Input) {
    let klen = inp.pick(&[8usize, 16, 24]);
    let key = inp.bytes(klen);
    let iv = inp.bytes(8);
    // Up to 600 blocks: past the 512-block batch of the wide backends.
    let data = inp.data(8 * 600 + 7);
    let run = |b: des::Backend| -> Out {
        if klen == 8 {
            generic_modes(&Des::with_backend(&key, b).expect("available"), &iv, &data)
        } else {
            generic_modes(&Tdes::with_backend(&key, b).expect("available"), &iv, &data)
        }
    };
    let soft = run(des::Backend::Soft);
    for &b in des::Backend::ALL.iter().filter(|b| b.is_available()) {
        assert_eq!(run(b), soft, "des {}", b.name());
    }
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    match inp.below(4) {
        0 => aes(&mut inp),
        1 => kalyna(&mut inp),
        2 => gost(&mut inp),
        _ => des(&mut inp),
    }
});
