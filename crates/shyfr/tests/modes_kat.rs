//! Known-answer tests of the modes of operation with AES: NIST CAVP (CBC, CFB1/8/128, OFB,
//! XTS, KW/KWP), SP 800-38A appendix F, SP 800-38B appendix D, RFC 3686 — every record
//! under every AES backend the CPU offers, in place and buffer to buffer.

mod common;
mod modes_common;

use common::{aes_backends, passed, read_rsp};
use modes_common::{bits, h, read_kw};
use shyfr::aes::{Aes, Backend};
use shyfr::mode::cbc::Cbc;
use shyfr::mode::cfb::{CfbDecryptor, CfbEncryptor, Segment};
use shyfr::mode::cmac::Cmac;
use shyfr::mode::ctr::Ctr;
use shyfr::mode::ecb::Ecb;
use shyfr::mode::kw::{Kw, Kwp};
use shyfr::mode::ofb::Ofb;
use shyfr::mode::xts::Xts;
use shyfr::Error;

/// The kinds of CAVP AESAVS files (same record layout).
#[derive(Clone, Copy, Debug)]
enum Kind {
    Cbc,
    Cfb128,
    Cfb8,
    Cfb1,
    Ofb,
}

/// En/decrypts one record's data in both forms (in place, buffer to buffer) and returns
/// both results.
fn run_mode(
    kind: Kind,
    aes: &Aes,
    iv: &[u8],
    input: &[u8],
    nbits: usize,
    dec: bool,
) -> [Vec<u8>; 2] {
    let mut a = input.to_vec();
    let mut b = vec![0u8; input.len()];
    match kind {
        Kind::Cbc => {
            let cbc = Cbc::new(aes);
            if dec {
                cbc.decrypt(iv, &mut a).unwrap();
                cbc.decrypt_to(iv, input, &mut b).unwrap();
            } else {
                cbc.encrypt(iv, &mut a).unwrap();
                cbc.encrypt_to(iv, input, &mut b).unwrap();
            }
        }
        Kind::Cfb128 | Kind::Cfb8 => {
            let seg = if matches!(kind, Kind::Cfb8) {
                Segment::Byte
            } else {
                Segment::Block
            };
            if dec {
                CfbDecryptor::with_segment(aes, iv, seg)
                    .unwrap()
                    .update(&mut a)
                    .unwrap();
                CfbDecryptor::with_segment(aes, iv, seg)
                    .unwrap()
                    .update_to(input, &mut b)
                    .unwrap();
            } else {
                CfbEncryptor::with_segment(aes, iv, seg)
                    .unwrap()
                    .update(&mut a)
                    .unwrap();
                CfbEncryptor::with_segment(aes, iv, seg)
                    .unwrap()
                    .update_to(input, &mut b)
                    .unwrap();
            }
        }
        Kind::Cfb1 => {
            // Bit by bit in the second form: the stream is the same.
            if dec {
                CfbDecryptor::with_segment(aes, iv, Segment::Bit)
                    .unwrap()
                    .update_bits(&mut a, nbits)
                    .unwrap();
            } else {
                CfbEncryptor::with_segment(aes, iv, Segment::Bit)
                    .unwrap()
                    .update_bits(&mut a, nbits)
                    .unwrap();
            }
            b.copy_from_slice(input);
            let mut d = CfbDecryptor::with_segment(aes, iv, Segment::Bit).unwrap();
            let mut e = CfbEncryptor::with_segment(aes, iv, Segment::Bit).unwrap();
            for i in 0..nbits {
                let byte = &mut b[i / 8..i / 8 + 1];
                // One bit at a time: shift the bit to the top, process 1 bit, shift back.
                let sh = i % 8;
                let mut one = [byte[0] << sh];
                if dec {
                    d.update_bits(&mut one, 1).unwrap();
                } else {
                    e.update_bits(&mut one, 1).unwrap();
                }
                let bit = one[0] & 0x80;
                byte[0] = (byte[0] & !(0x80 >> sh)) | (bit >> sh);
            }
        }
        Kind::Ofb => {
            Ofb::new(aes, iv).unwrap().apply_keystream(&mut a).unwrap();
            Ofb::new(aes, iv)
                .unwrap()
                .apply_keystream_to(input, &mut b)
                .unwrap();
        }
    }
    [a, b]
}

/// Runs every record of one AESAVS file: exactly `count` records on each backend.
fn run_file(kind: Kind, rel: &str, count: usize) {
    let recs = read_rsp(rel);
    assert_eq!(recs.len(), count, "{rel}: records");
    let field = |r: &common::Record, name: &str| -> (Vec<u8>, usize) {
        if matches!(kind, Kind::Cfb1) {
            bits(&r.fields[name])
        } else {
            let v = r.hex(name);
            let n = 8 * v.len();
            (v, n)
        }
    };
    for b in aes_backends() {
        let mut checked = 0;
        for r in &recs {
            let key = r.hex("KEY");
            let iv = r.hex("IV");
            let (pt, nbits) = field(r, "PLAINTEXT");
            let (ct, _) = field(r, "CIPHERTEXT");
            let aes = Aes::with_backend(&key, b).unwrap();
            let what = format!("{rel} line {} ({}) backend {}", r.line, r.section, b.name());
            let (input, expect, dec) = match r.section.as_str() {
                "ENCRYPT" => (&pt, &ct, false),
                "DECRYPT" => (&ct, &pt, true),
                s => panic!("{what}: section {s}"),
            };
            for (form, got) in run_mode(kind, &aes, &iv, input, nbits, dec)
                .iter()
                .enumerate()
            {
                assert_eq!(
                    &hex::encode(got),
                    &hex::encode(expect),
                    "{what} form {form}"
                );
            }
            checked += 1;
        }
        assert_eq!(checked, count, "{rel}: records run on {}", b.name());
        passed(b);
    }
}

macro_rules! cavp {
    ($($test:ident => $kind:ident, $file:expr, $count:expr;)*) => {
        $( #[test] fn $test() { run_file(Kind::$kind, concat!("aes-modes/", $file), $count); } )*
    };
}

cavp! {
    cbc_gfsbox128 => Cbc, "CBC/CBCGFSbox128.rsp", 14;
    cbc_gfsbox192 => Cbc, "CBC/CBCGFSbox192.rsp", 12;
    cbc_gfsbox256 => Cbc, "CBC/CBCGFSbox256.rsp", 10;
    cbc_keysbox128 => Cbc, "CBC/CBCKeySbox128.rsp", 42;
    cbc_keysbox192 => Cbc, "CBC/CBCKeySbox192.rsp", 48;
    cbc_keysbox256 => Cbc, "CBC/CBCKeySbox256.rsp", 32;
    cbc_varkey128 => Cbc, "CBC/CBCVarKey128.rsp", 256;
    cbc_varkey192 => Cbc, "CBC/CBCVarKey192.rsp", 384;
    cbc_varkey256 => Cbc, "CBC/CBCVarKey256.rsp", 512;
    cbc_vartxt128 => Cbc, "CBC/CBCVarTxt128.rsp", 256;
    cbc_vartxt192 => Cbc, "CBC/CBCVarTxt192.rsp", 256;
    cbc_vartxt256 => Cbc, "CBC/CBCVarTxt256.rsp", 256;
    cbc_mmt128 => Cbc, "CBC/CBCMMT128.rsp", 20;
    cbc_mmt192 => Cbc, "CBC/CBCMMT192.rsp", 20;
    cbc_mmt256 => Cbc, "CBC/CBCMMT256.rsp", 20;
    ofb_gfsbox128 => Ofb, "OFB/OFBGFSbox128.rsp", 14;
    ofb_gfsbox192 => Ofb, "OFB/OFBGFSbox192.rsp", 12;
    ofb_gfsbox256 => Ofb, "OFB/OFBGFSbox256.rsp", 10;
    ofb_keysbox128 => Ofb, "OFB/OFBKeySbox128.rsp", 42;
    ofb_keysbox192 => Ofb, "OFB/OFBKeySbox192.rsp", 48;
    ofb_keysbox256 => Ofb, "OFB/OFBKeySbox256.rsp", 32;
    ofb_varkey128 => Ofb, "OFB/OFBVarKey128.rsp", 256;
    ofb_varkey192 => Ofb, "OFB/OFBVarKey192.rsp", 384;
    ofb_varkey256 => Ofb, "OFB/OFBVarKey256.rsp", 512;
    ofb_vartxt128 => Ofb, "OFB/OFBVarTxt128.rsp", 256;
    ofb_vartxt192 => Ofb, "OFB/OFBVarTxt192.rsp", 256;
    ofb_vartxt256 => Ofb, "OFB/OFBVarTxt256.rsp", 256;
    ofb_mmt128 => Ofb, "OFB/OFBMMT128.rsp", 20;
    ofb_mmt192 => Ofb, "OFB/OFBMMT192.rsp", 20;
    ofb_mmt256 => Ofb, "OFB/OFBMMT256.rsp", 20;
    cfb128_gfsbox128 => Cfb128, "CFB/CFB128GFSbox128.rsp", 14;
    cfb128_gfsbox192 => Cfb128, "CFB/CFB128GFSbox192.rsp", 12;
    cfb128_gfsbox256 => Cfb128, "CFB/CFB128GFSbox256.rsp", 10;
    cfb128_keysbox128 => Cfb128, "CFB/CFB128KeySbox128.rsp", 42;
    cfb128_keysbox192 => Cfb128, "CFB/CFB128KeySbox192.rsp", 48;
    cfb128_keysbox256 => Cfb128, "CFB/CFB128KeySbox256.rsp", 32;
    cfb128_varkey128 => Cfb128, "CFB/CFB128VarKey128.rsp", 256;
    cfb128_varkey192 => Cfb128, "CFB/CFB128VarKey192.rsp", 384;
    cfb128_varkey256 => Cfb128, "CFB/CFB128VarKey256.rsp", 512;
    cfb128_vartxt128 => Cfb128, "CFB/CFB128VarTxt128.rsp", 256;
    cfb128_vartxt192 => Cfb128, "CFB/CFB128VarTxt192.rsp", 256;
    cfb128_vartxt256 => Cfb128, "CFB/CFB128VarTxt256.rsp", 256;
    cfb128_mmt128 => Cfb128, "CFB/CFB128MMT128.rsp", 20;
    cfb128_mmt192 => Cfb128, "CFB/CFB128MMT192.rsp", 20;
    cfb128_mmt256 => Cfb128, "CFB/CFB128MMT256.rsp", 20;
    cfb8_gfsbox128 => Cfb8, "CFB/CFB8GFSbox128.rsp", 14;
    cfb8_gfsbox192 => Cfb8, "CFB/CFB8GFSbox192.rsp", 12;
    cfb8_gfsbox256 => Cfb8, "CFB/CFB8GFSbox256.rsp", 10;
    cfb8_keysbox128 => Cfb8, "CFB/CFB8KeySbox128.rsp", 42;
    cfb8_keysbox192 => Cfb8, "CFB/CFB8KeySbox192.rsp", 48;
    cfb8_keysbox256 => Cfb8, "CFB/CFB8KeySbox256.rsp", 32;
    cfb8_varkey128 => Cfb8, "CFB/CFB8VarKey128.rsp", 256;
    cfb8_varkey192 => Cfb8, "CFB/CFB8VarKey192.rsp", 384;
    cfb8_varkey256 => Cfb8, "CFB/CFB8VarKey256.rsp", 512;
    cfb8_vartxt128 => Cfb8, "CFB/CFB8VarTxt128.rsp", 256;
    cfb8_vartxt192 => Cfb8, "CFB/CFB8VarTxt192.rsp", 256;
    cfb8_vartxt256 => Cfb8, "CFB/CFB8VarTxt256.rsp", 256;
    cfb8_mmt128 => Cfb8, "CFB/CFB8MMT128.rsp", 20;
    cfb8_mmt192 => Cfb8, "CFB/CFB8MMT192.rsp", 20;
    cfb8_mmt256 => Cfb8, "CFB/CFB8MMT256.rsp", 20;
    cfb1_gfsbox128 => Cfb1, "CFB/CFB1GFSbox128.rsp", 14;
    cfb1_gfsbox192 => Cfb1, "CFB/CFB1GFSbox192.rsp", 12;
    cfb1_gfsbox256 => Cfb1, "CFB/CFB1GFSbox256.rsp", 10;
    cfb1_keysbox128 => Cfb1, "CFB/CFB1KeySbox128.rsp", 42;
    cfb1_keysbox192 => Cfb1, "CFB/CFB1KeySbox192.rsp", 48;
    cfb1_keysbox256 => Cfb1, "CFB/CFB1KeySbox256.rsp", 32;
    cfb1_varkey128 => Cfb1, "CFB/CFB1VarKey128.rsp", 256;
    cfb1_varkey192 => Cfb1, "CFB/CFB1VarKey192.rsp", 384;
    cfb1_varkey256 => Cfb1, "CFB/CFB1VarKey256.rsp", 512;
    cfb1_vartxt128 => Cfb1, "CFB/CFB1VarTxt128.rsp", 256;
    cfb1_vartxt192 => Cfb1, "CFB/CFB1VarTxt192.rsp", 256;
    cfb1_vartxt256 => Cfb1, "CFB/CFB1VarTxt256.rsp", 256;
    cfb1_mmt128 => Cfb1, "CFB/CFB1MMT128.rsp", 20;
    cfb1_mmt192 => Cfb1, "CFB/CFB1MMT192.rsp", 20;
    cfb1_mmt256 => Cfb1, "CFB/CFB1MMT256.rsp", 20;
}

/// XTSVS files: `Key`, tweak (`i` hex or `DataUnitSeqNumber` decimal), `PT`, `CT`. Each
/// file has 1000 records; the `bytes` of them whose data unit is whole bytes run on each
/// backend, exactly (the others, 130, 140 or 250 bits long, are skipped).
fn run_xts(rel: &str, bytes: usize) {
    let recs = read_rsp(rel);
    assert_eq!(recs.len(), 1000, "{rel}: records");
    for b in aes_backends() {
        let mut checked = 0;
        for r in &recs {
            let bits: usize = r.fields["DataUnitLen"].parse().unwrap();
            if !bits.is_multiple_of(8) {
                continue; // bit-granular data units: not supported by a byte API
            }
            let key = r.hex("Key");
            let (pt, ct) = (r.hex("PT"), r.hex("CT"));
            assert_eq!(pt.len() * 8, bits);
            let xts = Xts::<Aes>::from_key_slice(&key, b).unwrap();
            let what = format!("{rel} line {} ({}) backend {}", r.line, r.section, b.name());
            let (input, expect, dec) = match r.section.as_str() {
                "ENCRYPT" => (&pt, &ct, false),
                "DECRYPT" => (&ct, &pt, true),
                s => panic!("{what}: section {s}"),
            };
            let mut a = input.clone();
            let mut o = vec![0u8; input.len()];
            if let Some(i) = r.fields.get("i") {
                let tw: [u8; 16] = hex::decode(i).unwrap().try_into().unwrap();
                if dec {
                    xts.decrypt(&tw, &mut a).unwrap();
                    xts.decrypt_to(&tw, input, &mut o).unwrap();
                } else {
                    xts.encrypt(&tw, &mut a).unwrap();
                    xts.encrypt_to(&tw, input, &mut o).unwrap();
                }
            } else {
                let n: u128 = r.fields["DataUnitSeqNumber"].parse().unwrap();
                if dec {
                    xts.decrypt_sector(n, &mut a).unwrap();
                    xts.decrypt_sectors_to(n, input.len(), input, &mut o)
                        .unwrap();
                } else {
                    xts.encrypt_sector(n, &mut a).unwrap();
                    xts.encrypt_sectors_to(n, input.len(), input, &mut o)
                        .unwrap();
                }
            }
            assert_eq!(hex::encode(&a), hex::encode(expect), "{what} in place");
            assert_eq!(hex::encode(&o), hex::encode(expect), "{what} to buffer");
            checked += 1;
        }
        assert_eq!(
            checked,
            bytes,
            "{rel}: byte-unit records run on {}",
            b.name()
        );
        passed(b);
    }
}

#[test]
fn xts_gen_aes128_hex_tweak() {
    run_xts("aes-modes/XTS/tweak-128hexstr/XTSGenAES128.rsp", 800);
}
#[test]
fn xts_gen_aes256_hex_tweak() {
    run_xts("aes-modes/XTS/tweak-128hexstr/XTSGenAES256.rsp", 600);
}
#[test]
fn xts_gen_aes128_sequence_number() {
    run_xts("aes-modes/XTS/tweak-dataunitseqno/XTSGenAES128.rsp", 800);
}
#[test]
fn xts_gen_aes256_sequence_number() {
    run_xts("aes-modes/XTS/tweak-dataunitseqno/XTSGenAES256.rsp", 600);
}

/// SP 800-38F files: AE (wrap) and AD (unwrap, 20 of each 100 records must FAIL).
fn run_kw(rel: &str, padded: bool) {
    let recs = read_kw(rel);
    assert_eq!(recs.len(), 500, "{rel}");
    let ad = rel.contains("_AD_");
    let fails = recs.iter().filter(|r| r.p.is_none()).count();
    assert_eq!(fails, if ad { 100 } else { 0 }, "{rel}: FAIL records");
    for b in aes_backends() {
        for r in &recs {
            let aes = Aes::with_backend(&r.k, b).unwrap();
            let what = format!("{rel} line {} backend {}", r.line, b.name());
            let mut out = vec![0u8; r.c.len() + 8];
            if ad {
                let got = if padded {
                    Kwp::new(&aes).unwrap().unwrap(&r.c, &mut out)
                } else {
                    Kw::new(&aes).unwrap().unwrap(&r.c, &mut out)
                };
                match &r.p {
                    Some(p) => {
                        assert_eq!(hex::encode(&out[..got.unwrap()]), hex::encode(p), "{what}")
                    }
                    None => {
                        assert_eq!(got, Err(Error::AuthenticationFailed), "{what}");
                        assert!(out.iter().all(|&x| x == 0), "{what}: output not wiped");
                    }
                }
            } else {
                let p = r.p.as_ref().unwrap();
                let n = if padded {
                    Kwp::new(&aes).unwrap().wrap(p, &mut out).unwrap()
                } else {
                    Kw::new(&aes).unwrap().wrap(p, &mut out).unwrap()
                };
                assert_eq!(hex::encode(&out[..n]), hex::encode(&r.c), "{what}");
            }
        }
        passed(b);
    }
}

#[test]
fn kw_ae_128() {
    run_kw("aes-modes/KW/KW_AE_128.txt", false);
}
#[test]
fn kw_ae_256() {
    run_kw("aes-modes/KW/KW_AE_256.txt", false);
}
#[test]
fn kw_ad_128() {
    run_kw("aes-modes/KW/KW_AD_128.txt", false);
}
#[test]
fn kw_ad_256() {
    run_kw("aes-modes/KW/KW_AD_256.txt", false);
}
#[test]
fn kwp_ae_128() {
    run_kw("aes-modes/KW/KWP_AE_128.txt", true);
}
#[test]
fn kwp_ae_256() {
    run_kw("aes-modes/KW/KWP_AE_256.txt", true);
}
#[test]
fn kwp_ad_128() {
    run_kw("aes-modes/KW/KWP_AD_128.txt", true);
}
#[test]
fn kwp_ad_256() {
    run_kw("aes-modes/KW/KWP_AD_256.txt", true);
}

/// SP 800-38B appendix D (D.1-D.3: AES-128/192/256, four messages each).
#[test]
fn cmac_sp800_38b() {
    for bits in [128, 192, 256] {
        let rel = format!("aes-modes/CMAC/nist-800-38b-aes{bits}.txt");
        let recs = read_rsp(&rel);
        assert_eq!(recs.len(), 4, "{rel}");
        for b in aes_backends() {
            for r in &recs {
                let aes = Aes::with_backend(&r.hex("KEY"), b).unwrap();
                let msg = r.hex("MESSAGE");
                let tag = r.hex("OUTPUT");
                let what = format!("{rel} line {} backend {}", r.line, b.name());
                let got = Cmac::mac(&aes, &msg).unwrap();
                assert_eq!(hex::encode(got.as_bytes()), hex::encode(&tag), "{what}");
                // Byte by byte gives the same tag.
                let mut m = Cmac::new(&aes).unwrap();
                for x in msg.chunks(1) {
                    m.update(x);
                }
                assert!(m.verify(&tag).is_ok(), "{what} streamed");
            }
            passed(b);
        }
    }
}

/// RFC 3686 section 6, test vectors 1-3 (AES-128; IV = nonce || 32-bit counter).
#[test]
fn ctr_rfc3686() {
    let recs = read_rsp("aes-modes/CTR/aes-128-ctr.txt");
    assert_eq!(recs.len(), 3);
    for b in aes_backends() {
        for r in &recs {
            let aes = Aes::with_backend(&r.hex("KEY"), b).unwrap();
            let (iv, pt, ct) = (r.hex("IV"), r.hex("PLAINTEXT"), r.hex("CIPHERTEXT"));
            let mut a = pt.clone();
            Ctr::with_counter_len(&aes, &iv, 4)
                .unwrap()
                .apply_keystream(&mut a)
                .unwrap();
            assert_eq!(a, ct, "line {} backend {}", r.line, b.name());
            let mut o = vec![0u8; ct.len()];
            Ctr::new(&aes, &iv)
                .unwrap()
                .apply_keystream_to(&ct, &mut o)
                .unwrap();
            assert_eq!(o, pt, "line {} backend {} decrypt", r.line, b.name());
        }
        passed(b);
    }
}

/// SP 800-38A appendix F: the four-block example message.
const F_PT: &str = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51\
                    30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";
const F_KEYS: [&str; 3] = [
    "2b7e151628aed2a6abf7158809cf4f3c",
    "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
    "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
];
const F_IV: &str = "000102030405060708090a0b0c0d0e0f";
const F_CTR: &str = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/// Ciphertexts of F.1 (ECB), F.2 (CBC), F.3.13-18 (CFB128), F.3.7-12 (CFB8, 18 bytes),
/// F.3.1-6 (CFB1, 16 bits), F.4 (OFB), F.5 (CTR), for AES-128, -192, -256.
const F_ECB: [&str; 3] = [
    "3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4",
    "bd334f1d6e45f25ff712a214571fa5cc974104846d0ad3ad7734ecb3ecee4eefef7afd2270e2e60adce0ba2face6444e9a4b41ba738d6c72fb16691603c18e0e",
    "f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7",
];
const F_CBC: [&str; 3] = [
    "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b273bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7",
    "4f021db243bc633d7178183a9fa071e8b4d9ada9ad7dedf4e5e738763f69145a571b242012fb7ae07fa9baac3df102e008b0e27988598881d920a9e64f5615cd",
    "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b",
];
const F_CFB128: [&str; 3] = [
    "3b3fd92eb72dad20333449f8e83cfb4ac8a64537a0b3a93fcde3cdad9f1ce58b26751f67a3cbb140b1808cf187a4f4dfc04b05357c5d1c0eeac4c66f9ff7f2e6",
    "cdc80d6fddf18cab34c25909c99a417467ce7f7f81173621961a2b70171d3d7a2e1e8a1dd59b88b1c8e60fed1efac4c9c05f9f9ca9834fa042ae8fba584b09ff",
    "dc7e84bfda79164b7ecd8486985d386039ffed143b28b1c832113c6331e5407bdf10132415e54b92a13ed0a8267ae2f975a385741ab9cef82031623d55b1e471",
];
const F_CFB8: [&str; 3] = [
    "3b79424c9c0dd436bace9e0ed4586a4f32b9",
    "cda2521ef0a905ca44cd057cbf0d47a0678a",
    "dc1f1a8520a64db55fcc8ac554844e889700",
];
const F_CFB1: [&str; 3] = ["68b3", "9359", "9029"];
const F_OFB: [&str; 3] = [
    "3b3fd92eb72dad20333449f8e83cfb4a7789508d16918f03f53c52dac54ed8259740051e9c5fecf64344f7a82260edcc304c6528f659c77866a510d9c1d6ae5e",
    "cdc80d6fddf18cab34c25909c99a4174fcc28b8d4c63837c09e81700c11004018d9a9aeac0f6596f559c6d4daf59a5f26d9f200857ca6c3e9cac524bd9acc92a",
    "dc7e84bfda79164b7ecd8486985d38604febdc6740d20b3ac88f6ad82a4fb08d71ab47a086e86eedf39d1c5bba97c4080126141d67f37be8538f5a8be740e484",
];
const F_CTR_CT: [&str; 3] = [
    "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee",
    "1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6f4ce8e941e36b26bd1ebc670d1bd1d665620abf74f78a7f6d29809585a97daec58c6b050",
    "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c52b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6",
];

#[test]
fn sp800_38a_appendix_f() {
    let pt = h(F_PT);
    let iv = h(F_IV);
    for b in aes_backends() {
        for (k, key) in F_KEYS.iter().enumerate() {
            let aes = Aes::with_backend(&h(key), b).unwrap();
            let what = |m: &str| format!("F {m} AES-{} backend {}", 128 + 64 * k, b.name());
            let enc = |kind: Kind, input: &[u8], nbits: usize| {
                run_mode(kind, &aes, &iv, input, nbits, false)
            };
            let dec = |kind: Kind, input: &[u8], nbits: usize| {
                run_mode(kind, &aes, &iv, input, nbits, true)
            };

            let mut e = pt.clone();
            Ecb::new(&aes).encrypt(&mut e).unwrap();
            assert_eq!(hex::encode(&e), F_ECB[k], "{}", what("ECB"));
            Ecb::new(&aes).decrypt(&mut e).unwrap();
            assert_eq!(e, pt, "{}", what("ECB decrypt"));

            for (kind, cts, input) in [
                (Kind::Cbc, &F_CBC, &pt[..]),
                (Kind::Cfb128, &F_CFB128, &pt[..]),
                (Kind::Cfb8, &F_CFB8, &pt[..18]),
                (Kind::Ofb, &F_OFB, &pt[..]),
            ] {
                for got in enc(kind, input, 8 * input.len()) {
                    assert_eq!(hex::encode(&got), cts[k], "{}", what(&format!("{kind:?}")));
                }
                for got in dec(kind, &h(cts[k]), 8 * input.len()) {
                    assert_eq!(got, input, "{}", what(&format!("{kind:?} decrypt")));
                }
            }
            for got in enc(Kind::Cfb1, &pt[..2], 16) {
                assert_eq!(hex::encode(&got), F_CFB1[k], "{}", what("CFB1"));
            }
            for got in dec(Kind::Cfb1, &h(F_CFB1[k]), 16) {
                assert_eq!(got, &pt[..2], "{}", what("CFB1 decrypt"));
            }

            let mut c = pt.clone();
            Ctr::new(&aes, &h(F_CTR))
                .unwrap()
                .apply_keystream(&mut c)
                .unwrap();
            assert_eq!(hex::encode(&c), F_CTR_CT[k], "{}", what("CTR"));
        }
        passed(b);
    }
}

#[test]
fn every_backend_listed_is_exercised() {
    let bs = aes_backends();
    assert!(bs.contains(&Backend::Soft));
    assert_eq!(bs.first().copied(), Some(Backend::best()));
}
