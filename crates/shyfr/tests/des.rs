//! DES and triple DES: the NIST CAVP TDES known-answer (TMOVS: inverse permutation,
//! permutation operation, substitution table, variable key, variable text) and
//! multi-block message files for ECB, CBC, CFB-64, CFB-8 and OFB (keying options 1, 2
//! and 3), and the SP 800-38B TDES CMAC examples, through the generic modes under every
//! backend; the bitsliced passes against one block at a time; every backend against
//! `soft`; bad input.

mod common;

use common::{note_exercised, read_rsp, testdata, Record};
use proptest::prelude::*;
use shyfr::des::{Backend, Des, Tdes};
use shyfr::mode::cbc::Cbc;
use shyfr::mode::cfb::{CfbDecryptor, CfbEncryptor, Segment};
use shyfr::mode::cmac::Cmac;
use shyfr::mode::ofb::Ofb;
use shyfr::Error;

fn backends() -> Vec<Backend> {
    // Fails if a backend the CPU supports is missing (a failed self-test).
    common::backends()
}

/// The 24-byte key of a record (`KEYs` repeated, or `KEY1 || KEY2 || KEY3`).
fn key24(r: &Record) -> Vec<u8> {
    if r.fields.contains_key("KEYs") {
        r.hex("KEYs").repeat(3)
    } else {
        [r.hex("KEY1"), r.hex("KEY2"), r.hex("KEY3")].concat()
    }
}

#[derive(Clone, Copy, Debug)]
enum Mode {
    Ecb,
    Cbc,
    Cfb64,
    Cfb8,
    Ofb,
}

/// `input` through `mode` under `c` (encrypting unless `dec`).
fn run<C: shyfr::mode::BlockModes + Sync>(
    c: &C,
    mode: Mode,
    iv: &[u8],
    input: &[u8],
    dec: bool,
) -> Vec<u8> {
    let mut buf = input.to_vec();
    match mode {
        Mode::Ecb => {
            if dec {
                c.decrypt_blocks(&mut buf).unwrap()
            } else {
                c.encrypt_blocks(&mut buf).unwrap()
            }
        }
        Mode::Cbc => {
            let m = Cbc::new(c);
            if dec {
                m.decrypt(iv, &mut buf).unwrap()
            } else {
                m.encrypt(iv, &mut buf).unwrap()
            }
        }
        Mode::Cfb64 | Mode::Cfb8 => {
            let seg = if matches!(mode, Mode::Cfb64) {
                Segment::Block
            } else {
                Segment::Byte
            };
            if dec {
                CfbDecryptor::with_segment(c, iv, seg)
                    .unwrap()
                    .update(&mut buf)
                    .unwrap()
            } else {
                CfbEncryptor::with_segment(c, iv, seg)
                    .unwrap()
                    .update(&mut buf)
                    .unwrap()
            }
        }
        Mode::Ofb => Ofb::new(c, iv).unwrap().apply_keystream(&mut buf).unwrap(),
    }
    buf
}

/// Every record of `file` under backend `b`; returns the number run.
fn run_file(file: &str, mode: Mode, b: Backend) -> usize {
    let recs = read_rsp(&format!("des/{file}"));
    assert!(!recs.is_empty(), "{file}");
    let mut n = 0;
    for r in &recs {
        let dec = match r.section.as_str() {
            "ENCRYPT" => false,
            "DECRYPT" => true,
            s => panic!("{file}: section {s}"),
        };
        let key = key24(r);
        let iv = if matches!(mode, Mode::Ecb) {
            vec![]
        } else {
            r.hex("IV")
        };
        let (pt, ct) = (r.hex("PLAINTEXT"), r.hex("CIPHERTEXT"));
        let (input, want) = if dec { (&ct, &pt) } else { (&pt, &ct) };
        let what = format!("{file} line {} backend {}", r.line, b.name());
        let t = Tdes::with_backend(&key, b).unwrap();
        assert_eq!(t.backend(), b);
        assert_eq!(&run(&t, mode, &iv, input, dec), want, "{what}");
        if matches!(mode, Mode::Ecb) {
            // The same record repeated 70 times: short inputs take the one-block path,
            // this takes every backend's bitsliced pass.
            let long = run(&t, mode, &iv, &input.repeat(70), dec);
            assert_eq!(long, want.repeat(70), "{what} (x70)");
        }
        // Keying option 2 (K3 = K1) as a 16-byte key, option 3 (all equal) as single DES.
        if key[..8] == key[16..] {
            let t2 = Tdes::with_backend(&key[..16], b).unwrap();
            assert_eq!(&run(&t2, mode, &iv, input, dec), want, "{what} (two-key)");
            if key[..8] == key[8..16] {
                let d = Des::with_backend(&key[..8], b).unwrap();
                assert_eq!(&run(&d, mode, &iv, input, dec), want, "{what} (DES)");
            }
        }
        n += 1;
    }
    n
}

/// (file, mode, records): every file copied into testdata/des/.
const FILES: &[(&str, Mode, usize)] = &[
    ("TECBinvperm.rsp", Mode::Ecb, 128),
    ("TECBpermop.rsp", Mode::Ecb, 64),
    ("TECBsubtab.rsp", Mode::Ecb, 38),
    ("TECBvarkey.rsp", Mode::Ecb, 112),
    ("TECBvartext.rsp", Mode::Ecb, 128),
    ("TECBMMT1.rsp", Mode::Ecb, 20),
    ("TECBMMT2.rsp", Mode::Ecb, 20),
    ("TECBMMT3.rsp", Mode::Ecb, 20),
    ("TCBCinvperm.rsp", Mode::Cbc, 128),
    ("TCBCpermop.rsp", Mode::Cbc, 64),
    ("TCBCsubtab.rsp", Mode::Cbc, 38),
    ("TCBCvarkey.rsp", Mode::Cbc, 112),
    ("TCBCvartext.rsp", Mode::Cbc, 128),
    ("TCBCMMT1.rsp", Mode::Cbc, 20),
    ("TCBCMMT2.rsp", Mode::Cbc, 20),
    ("TCBCMMT3.rsp", Mode::Cbc, 20),
    ("TCFB64invperm.rsp", Mode::Cfb64, 128),
    ("TCFB64permop.rsp", Mode::Cfb64, 64),
    ("TCFB64subtab.rsp", Mode::Cfb64, 38),
    ("TCFB64varkey.rsp", Mode::Cfb64, 112),
    ("TCFB64vartext.rsp", Mode::Cfb64, 128),
    ("TCFB64MMT1.rsp", Mode::Cfb64, 20),
    ("TCFB64MMT2.rsp", Mode::Cfb64, 20),
    ("TCFB64MMT3.rsp", Mode::Cfb64, 20),
    ("TCFB8invperm.rsp", Mode::Cfb8, 128),
    ("TCFB8permop.rsp", Mode::Cfb8, 64),
    ("TCFB8subtab.rsp", Mode::Cfb8, 38),
    ("TCFB8varkey.rsp", Mode::Cfb8, 112),
    ("TCFB8vartext.rsp", Mode::Cfb8, 128),
    ("TCFB8MMT1.rsp", Mode::Cfb8, 20),
    ("TCFB8MMT2.rsp", Mode::Cfb8, 20),
    ("TCFB8MMT3.rsp", Mode::Cfb8, 20),
    ("TOFBinvperm.rsp", Mode::Ofb, 128),
    ("TOFBpermop.rsp", Mode::Ofb, 64),
    ("TOFBsubtab.rsp", Mode::Ofb, 38),
    ("TOFBvarkey.rsp", Mode::Ofb, 112),
    ("TOFBvartext.rsp", Mode::Ofb, 128),
    ("TOFBMMT1.rsp", Mode::Ofb, 20),
    ("TOFBMMT2.rsp", Mode::Ofb, 20),
    ("TOFBMMT3.rsp", Mode::Ofb, 20),
];

#[test]
fn nist_tdes_vectors_under_every_backend() {
    let total: usize = FILES.iter().map(|f| f.2).sum();
    assert_eq!(total, 2650);
    for b in backends() {
        let mut n = 0;
        for &(file, mode, count) in FILES {
            assert_eq!(run_file(file, mode, b), count, "{file}");
            n += count;
        }
        assert_eq!(n, 2650, "{}", b.name());
        note_exercised("des", b.name());
    }
}

/// NIST SP 800-38B appendix D.2 (three-key) and D.3 (two-key) TDES CMAC examples.
#[test]
fn tdes_cmac_examples() {
    let path = testdata("des/nist-800-38b-3des.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut recs = Vec::new();
    let mut cur = std::collections::BTreeMap::new();
    for line in text.lines().chain(std::iter::once("")) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            if cur.contains_key("OUTPUT") {
                recs.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if let Some((k, v)) = line.split_once('=') {
            cur.insert(k.trim().to_string(), v.trim().to_string());
        }
    }
    assert_eq!(recs.len(), 8);
    let hx = |s: &String| hex::decode(s).unwrap();
    for b in backends() {
        for r in &recs {
            let key = [hx(&r["KEY1"]), hx(&r["KEY2"]), hx(&r["KEY3"])].concat();
            let t = Tdes::with_backend(&key, b).unwrap();
            let tag = Cmac::mac(&t, &hx(&r["MESSAGE"])).unwrap();
            assert_eq!(tag.as_bytes(), hx(&r["OUTPUT"]), "COUNT {}", r["COUNT"]);
        }
    }
}

#[test]
fn names_and_selection() {
    for b in Backend::ALL {
        assert_eq!(Backend::from_name(b.name()), Some(*b));
        if shyfr::cpu::enabled().has_all(b.needs()) {
            assert!(b.is_available(), "{} failed its self-test", b.name());
        }
    }
    assert_eq!(Backend::from_name("bogus"), None);
    assert_eq!(Tdes::new(&[1; 24]).backend(), Backend::best());
    assert_eq!(Des::new(&[1; 8]).backend(), Backend::best());
    assert!(shyfr::registry::backends().any(|r| r.algorithm == "des" && r.selected));
}

#[test]
fn bad_input() {
    for len in [0usize, 7, 9, 15, 17, 23, 25, 32] {
        assert_eq!(
            Des::new_from_slice(&vec![0; len]).err(),
            if len == 8 {
                None
            } else {
                Some(Error::InvalidKeyLength { got: len })
            }
        );
        assert_eq!(
            Tdes::new_from_slice(&vec![0; len]).err(),
            Some(Error::InvalidKeyLength { got: len })
        );
        assert_eq!(
            Tdes::with_backend(&vec![0; len], Backend::Soft).err(),
            Some(Error::InvalidKeyLength { got: len })
        );
    }
    assert!(Tdes::new_from_slice(&[0; 16]).is_ok());
    assert!(Tdes::new_from_slice(&[0; 24]).is_ok());
    let t = Tdes::new(&[3; 24]);
    let mut x = [0u8; 12];
    assert_eq!(
        t.encrypt_blocks(&mut x),
        Err(Error::NotWholeBlocks { len: 12, block: 8 })
    );
    assert_eq!(
        t.decrypt_blocks_to(&[0; 8], &mut [0; 16]),
        Err(Error::LengthMismatch {
            input: 8,
            output: 16
        })
    );
    for b in Backend::ALL {
        if !b.is_available() {
            assert_eq!(
                Tdes::with_backend(&[0; 24], *b).err(),
                Some(Error::BackendUnavailable)
            );
        }
    }
}

fn data(n: usize, seed: u8) -> Vec<u8> {
    common::data_with(n, seed, 73)
}

/// The largest pass of any backend (AVX-512: 512 blocks).
const BATCH: usize = 512;

/// Bitsliced passes against one block at a time, for every block count 0 ..= 3 x 512 + 1,
/// both directions, buffer to buffer and in place.
#[test]
fn wide_paths_equal_block_at_a_time() {
    let key: [u8; 24] = data(24, 5).try_into().unwrap();
    let max = 3 * BATCH + 1;
    let all = data(8 * max, 1);
    for b in backends() {
        let t = Tdes::with_backend(&key, b).unwrap();
        // ECB is block by block: the one-block results of the whole buffer are the
        // reference for every prefix.
        let mut want = all.clone();
        for blk in want.chunks_exact_mut(8) {
            t.encrypt_block(blk.try_into().unwrap());
        }
        for n in 0..=max {
            let pt = &all[..8 * n];
            let mut got = vec![0u8; pt.len()];
            t.encrypt_blocks_to(pt, &mut got).unwrap();
            assert_eq!(got, want[..8 * n], "{n} blocks backend {}", b.name());
            t.decrypt_blocks(&mut got).unwrap();
            assert_eq!(got, pt, "{n} blocks decrypt backend {}", b.name());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every backend equals `soft` on random keys (one, two or three) and lengths.
    #[test]
    fn backends_equal_soft(
        key in prop::collection::vec(any::<u8>(), 24),
        klen in prop::sample::select(vec![8usize, 16, 24]),
        blocks in 0usize..1100,
        seed in any::<u8>(),
    ) {
        let pt = data(8 * blocks, seed);
        let mut want = pt.clone();
        if klen == 8 {
            Des::with_backend(&key[..8], Backend::Soft).unwrap().encrypt_blocks(&mut want).unwrap();
        } else {
            Tdes::with_backend(&key[..klen], Backend::Soft).unwrap().encrypt_blocks(&mut want).unwrap();
        }
        for b in backends() {
            let mut got = pt.clone();
            if klen == 8 {
                let d = Des::with_backend(&key[..8], b).unwrap();
                d.encrypt_blocks(&mut got).unwrap();
                prop_assert_eq!(&got, &want, "{}", b.name());
                d.decrypt_blocks(&mut got).unwrap();
            } else {
                let t = Tdes::with_backend(&key[..klen], b).unwrap();
                t.encrypt_blocks(&mut got).unwrap();
                prop_assert_eq!(&got, &want, "{}", b.name());
                t.decrypt_blocks(&mut got).unwrap();
            }
            prop_assert_eq!(&got, &pt);
        }
    }
}
