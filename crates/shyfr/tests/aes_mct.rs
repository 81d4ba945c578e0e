//! AESAVS Monte Carlo tests (NIST CAVP `aesmct`, AESAVS sections 6.4.2 and 6.4.3) for CBC,
//! OFB, CFB128 and CFB8, AES-128/192/256, both directions, under every AES backend the CPU
//! offers. The files are in `testdata/aes-mct/` (see its README: the ECB and CFB1 Monte
//! Carlo files are not in the package they were taken from).
//!
//! Each record gives the starting key, IV and text of one outer iteration and the text
//! after its 1000 inner iterations, so every record is checked on its own: the inner loop
//! runs the mode as one stream over 1000 segments, each segment's input being the IV (or
//! its bytes, for CFB8) or an earlier output, as AESAVS prescribes.

mod common;

use common::{aes_backends, passed, read_rsp, Record};
use shyfr::aes::Aes;
use shyfr::mode::cbc::Cbc;
use shyfr::mode::cfb::{CfbDecryptor, CfbEncryptor, Segment};
use shyfr::mode::ofb::Ofb;

#[derive(Clone, Copy, Debug)]
enum Mode {
    Cbc,
    Ofb,
    Cfb128,
    Cfb8,
}

/// One mode as a stream in one direction: `step` en/decrypts the next segment in place.
enum Stream<'a> {
    CbcEnc(Cbc<&'a Aes>, [u8; 16]),
    CbcDec(Cbc<&'a Aes>, [u8; 16]),
    Ofb(Ofb<&'a Aes>),
    CfbEnc(CfbEncryptor<&'a Aes>),
    CfbDec(CfbDecryptor<&'a Aes>),
}

impl Stream<'_> {
    fn step(&mut self, seg: &mut [u8]) {
        match self {
            Stream::CbcEnc(cbc, chain) => {
                cbc.encrypt(&chain[..], seg).unwrap();
                chain.copy_from_slice(seg);
            }
            Stream::CbcDec(cbc, chain) => {
                let next: [u8; 16] = seg.try_into().unwrap();
                cbc.decrypt(&chain[..], seg).unwrap();
                *chain = next;
            }
            Stream::Ofb(o) => o.apply_keystream(seg).unwrap(),
            Stream::CfbEnc(c) => c.update(seg).unwrap(),
            Stream::CfbDec(c) => c.update(seg).unwrap(),
        }
    }
}

/// The text after the 1000 inner iterations from one record's starting values.
fn inner_loop(mode: Mode, aes: &Aes, iv: &[u8], input: &[u8], decrypt: bool) -> Vec<u8> {
    let iv16: [u8; 16] = iv.try_into().unwrap();
    let mut s = match (mode, decrypt) {
        (Mode::Cbc, false) => Stream::CbcEnc(Cbc::new(aes), iv16),
        (Mode::Cbc, true) => Stream::CbcDec(Cbc::new(aes), iv16),
        (Mode::Ofb, _) => Stream::Ofb(Ofb::new(aes, iv).unwrap()),
        (Mode::Cfb128 | Mode::Cfb8, _) => {
            let seg = if matches!(mode, Mode::Cfb8) {
                Segment::Byte
            } else {
                Segment::Block
            };
            if decrypt {
                Stream::CfbDec(CfbDecryptor::with_segment(aes, iv, seg).unwrap())
            } else {
                Stream::CfbEnc(CfbEncryptor::with_segment(aes, iv, seg).unwrap())
            }
        }
    };
    let mut x = input.to_vec();
    if matches!(mode, Mode::Cfb8) {
        // AESAVS 6.4.3: the next input is byte j of the IV for j < 16, then the output
        // of 16 segments before.
        assert_eq!(x.len(), 1);
        let mut outs = Vec::with_capacity(1000);
        for j in 0..1000 {
            let mut b = x.clone();
            s.step(&mut b);
            outs.push(b[0]);
            x = vec![if j < 16 { iv[j] } else { outs[j - 16] }];
        }
        vec![outs[999]]
    } else {
        // AESAVS 6.4.2: the next input is the IV after the first segment, then the output
        // before the last.
        assert_eq!(x.len(), 16);
        let mut last = Vec::new();
        for j in 0..1000 {
            let mut b = x.clone();
            s.step(&mut b);
            x = if j == 0 { iv.to_vec() } else { last };
            last = b;
        }
        last
    }
}

fn field(r: &Record, name: &str) -> Vec<u8> {
    r.hex(name)
}

/// Every record of one Monte Carlo file (100 `ENCRYPT`, 100 `DECRYPT`) on every backend.
fn run_mct(mode: Mode, file: &str) {
    let rel = format!("aes-mct/{file}");
    let recs = read_rsp(&rel);
    assert_eq!(recs.len(), 200, "{rel}: records");
    for b in aes_backends() {
        let (mut enc, mut dec) = (0, 0);
        for r in &recs {
            let aes = Aes::with_backend(&field(r, "KEY"), b).unwrap();
            let iv = field(r, "IV");
            let (pt, ct) = (field(r, "PLAINTEXT"), field(r, "CIPHERTEXT"));
            let what = format!("{rel} line {} ({}) backend {}", r.line, r.section, b.name());
            match r.section.as_str() {
                "ENCRYPT" => {
                    let got = inner_loop(mode, &aes, &iv, &pt, false);
                    assert_eq!(hex::encode(got), hex::encode(&ct), "{what}");
                    enc += 1;
                }
                "DECRYPT" => {
                    let got = inner_loop(mode, &aes, &iv, &ct, true);
                    assert_eq!(hex::encode(got), hex::encode(&pt), "{what}");
                    dec += 1;
                }
                s => panic!("{what}: section {s}"),
            }
        }
        assert_eq!((enc, dec), (100, 100), "{rel} on {}", b.name());
        passed(b);
    }
}

macro_rules! mct {
    ($($test:ident => $mode:ident, $file:literal;)*) => {
        $( #[test] fn $test() { run_mct(Mode::$mode, $file); } )*
    };
}

mct! {
    cbc_mct128 => Cbc, "CBCMCT128.rsp";
    cbc_mct192 => Cbc, "CBCMCT192.rsp";
    cbc_mct256 => Cbc, "CBCMCT256.rsp";
    ofb_mct128 => Ofb, "OFBMCT128.rsp";
    ofb_mct192 => Ofb, "OFBMCT192.rsp";
    ofb_mct256 => Ofb, "OFBMCT256.rsp";
    cfb128_mct128 => Cfb128, "CFB128MCT128.rsp";
    cfb128_mct192 => Cfb128, "CFB128MCT192.rsp";
    cfb128_mct256 => Cfb128, "CFB128MCT256.rsp";
    cfb8_mct128 => Cfb8, "CFB8MCT128.rsp";
    cfb8_mct192 => Cfb8, "CFB8MCT192.rsp";
    cfb8_mct256 => Cfb8, "CFB8MCT256.rsp";
}
