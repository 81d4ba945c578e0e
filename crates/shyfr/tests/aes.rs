//! AES known-answer tests (FIPS 197, NIST AESAVS), wide-path and cross-backend checks, and
//! bad input — every test under every backend the CPU offers.

mod common;

use common::{aes_backends, aes_key, passed, read_rsp};
use proptest::prelude::*;
use shyfr::aes::{Aes, Aes128, Aes192, Aes256, Backend};
use shyfr::Error;

fn h(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}

#[test]
fn fips197_appendix_c() {
    let pt = h("00112233445566778899aabbccddeeff");
    let key: Vec<u8> = (0u8..32).collect();
    let cases = [
        (16, "69c4e0d86a7b0430d8cdb78070b4c55a"),
        (24, "dda97ca4864cdfe06eaf70a0ec0d7191"),
        (32, "8ea2b7ca516745bfeafc49904b496089"),
    ];
    for b in aes_backends() {
        for (klen, ct) in cases {
            let aes = Aes::with_backend(&key[..klen], b).unwrap();
            assert_eq!(aes.backend(), b);
            let mut blk: [u8; 16] = pt.clone().try_into().unwrap();
            aes.encrypt_block(&mut blk);
            assert_eq!(hex::encode(blk), ct, "{b:?} AES-{} encrypt", klen * 8);
            aes.decrypt_block(&mut blk);
            assert_eq!(blk.to_vec(), pt, "{b:?} AES-{} decrypt", klen * 8);
        }
        passed(b);
    }
}

/// Runs every record of one AESAVS ECB file under every backend, both directions, with
/// the multi-block call and the one-block call: exactly `count` records on each backend.
fn run_ecb_file(name: &str, count: usize) {
    let recs = read_rsp(&format!("aes/{name}"));
    assert_eq!(recs.len(), count, "{name}: records");
    for b in aes_backends() {
        let mut checked = 0;
        for r in &recs {
            let key = r.hex("KEY");
            let pt = r.hex("PLAINTEXT");
            let ct = r.hex("CIPHERTEXT");
            let aes = Aes::with_backend(&key, b).unwrap();
            let what = format!(
                "{name} line {} ({}) backend {}",
                r.line,
                r.section,
                b.name()
            );
            match r.section.as_str() {
                "ENCRYPT" => {
                    let mut buf = pt.clone();
                    aes.encrypt_blocks(&mut buf).unwrap();
                    assert_eq!(buf, ct, "{what}");
                    for (p, c) in pt.chunks(16).zip(ct.chunks(16)) {
                        let mut blk: [u8; 16] = p.try_into().unwrap();
                        aes.encrypt_block(&mut blk);
                        assert_eq!(&blk[..], c, "{what} one block");
                    }
                }
                "DECRYPT" => {
                    let mut buf = ct.clone();
                    aes.decrypt_blocks(&mut buf).unwrap();
                    assert_eq!(buf, pt, "{what}");
                    let mut out = vec![0u8; ct.len()];
                    aes.decrypt_blocks_to(&ct, &mut out).unwrap();
                    assert_eq!(out, pt, "{what} buffer to buffer");
                }
                s => panic!("{what}: unknown section {s}"),
            }
            checked += 1;
        }
        assert_eq!(checked, count, "{name}: records run on {}", b.name());
        passed(b);
    }
}

macro_rules! ecb_files {
    ($($test:ident => $file:expr, $count:expr;)*) => {
        $( #[test] fn $test() { run_ecb_file($file, $count); } )*
    };
}

ecb_files! {
    gfsbox128 => "ECBGFSbox128.rsp", 14;
    gfsbox192 => "ECBGFSbox192.rsp", 12;
    gfsbox256 => "ECBGFSbox256.rsp", 10;
    keysbox128 => "ECBKeySbox128.rsp", 42;
    keysbox192 => "ECBKeySbox192.rsp", 48;
    keysbox256 => "ECBKeySbox256.rsp", 32;
    varkey128 => "ECBVarKey128.rsp", 256;
    varkey192 => "ECBVarKey192.rsp", 384;
    varkey256 => "ECBVarKey256.rsp", 512;
    vartxt128 => "ECBVarTxt128.rsp", 256;
    vartxt192 => "ECBVarTxt192.rsp", 256;
    vartxt256 => "ECBVarTxt256.rsp", 256;
    mmt128 => "ECBMMT128.rsp", 20;
    mmt192 => "ECBMMT192.rsp", 20;
    mmt256 => "ECBMMT256.rsp", 20;
}

/// Deterministic filler so failures are reproducible.
fn pattern(n: usize, seed: u8) -> Vec<u8> {
    common::data_with(n, seed, 31)
}

/// The widest batch of any backend is 64 blocks (x86_vaes512 ECB from 128 blocks on, 32
/// below); check every count from 0 to 3 x 64 + 1 blocks, multi-block against one block
/// at a time, in place and buffer to buffer, for every key size.
#[test]
fn wide_paths_equal_one_block_paths() {
    const MAX_BLOCKS: usize = 3 * 64 + 1;
    for b in aes_backends() {
        for klen in [16, 24, 32] {
            let aes = Aes::with_backend(&pattern(klen, klen as u8), b).unwrap();
            for n in 0..=MAX_BLOCKS {
                let pt = pattern(16 * n, n as u8);
                let mut expect = pt.clone();
                for blk in expect.chunks_exact_mut(16) {
                    aes.encrypt_block(blk.try_into().unwrap());
                }
                let mut wide = pt.clone();
                aes.encrypt_blocks(&mut wide).unwrap();
                assert_eq!(wide, expect, "{b:?} AES-{} encrypt {n} blocks", klen * 8);
                let mut out = vec![0u8; pt.len()];
                aes.encrypt_blocks_to(&pt, &mut out).unwrap();
                assert_eq!(out, expect, "{b:?} encrypt_to {n} blocks");

                let mut one = expect.clone();
                for blk in one.chunks_exact_mut(16) {
                    aes.decrypt_block(blk.try_into().unwrap());
                }
                assert_eq!(one, pt, "{b:?} one-block decrypt {n} blocks");
                aes.decrypt_blocks(&mut wide).unwrap();
                assert_eq!(wide, pt, "{b:?} AES-{} decrypt {n} blocks", klen * 8);
                let mut back = vec![0u8; pt.len()];
                aes.decrypt_blocks_to(&expect, &mut back).unwrap();
                assert_eq!(back, pt, "{b:?} decrypt_to {n} blocks");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every available backend gives the same answer as the portable one.
    #[test]
    fn backends_equal_soft(
        key in aes_key(),
        blocks in 0usize..80,
        seed in any::<u8>(),
    ) {
        let data = pattern(16 * blocks, seed);
        let soft = Aes::with_backend(&key, Backend::Soft).unwrap();
        let mut expect = data.clone();
        soft.encrypt_blocks(&mut expect).unwrap();
        for b in aes_backends() {
            let aes = Aes::with_backend(&key, b).unwrap();
            let mut got = data.clone();
            aes.encrypt_blocks(&mut got).unwrap();
            prop_assert_eq!(&got, &expect, "{:?} encrypt", b);
            aes.decrypt_blocks(&mut got).unwrap();
            prop_assert_eq!(&got, &data, "{:?} decrypt", b);
        }
    }
}

#[test]
fn wrong_key_lengths_are_errors() {
    for len in [0usize, 1, 15, 17, 23, 25, 31, 33, 64] {
        let key = vec![0u8; len];
        assert_eq!(
            Aes::new_from_slice(&key).unwrap_err(),
            Error::InvalidKeyLength { got: len }
        );
        for b in Backend::ALL {
            assert!(Aes::with_backend(&key, *b).is_err());
        }
    }
    assert!(Aes128::new_from_slice(&[0u8; 24]).is_err());
    assert!(Aes192::new_from_slice(&[0u8; 16]).is_err());
    assert!(Aes256::new_from_slice(&[0u8; 16]).is_err());
    assert!(Aes128::new_from_slice(&[0u8; 16]).is_ok());
    assert!(Aes192::new_from_slice(&[0u8; 24]).is_ok());
    assert!(Aes256::new_from_slice(&[0u8; 32]).is_ok());
}

#[test]
fn partial_blocks_are_errors() {
    for b in aes_backends() {
        let aes = Aes::with_backend(&[1u8; 16], b).unwrap();
        for len in [1usize, 15, 17, 31, 33, 100] {
            let mut buf = vec![0u8; len];
            let err = Error::NotWholeBlocks { len, block: 16 };
            assert_eq!(aes.encrypt_blocks(&mut buf), Err(err));
            assert_eq!(aes.decrypt_blocks(&mut buf), Err(err));
            let mut out = vec![0u8; len];
            assert_eq!(aes.encrypt_blocks_to(&buf, &mut out), Err(err));
            assert_eq!(buf, vec![0u8; len], "input untouched on error");
        }
        let mut out = vec![0u8; 32];
        assert_eq!(
            aes.encrypt_blocks_to(&[0u8; 16], &mut out),
            Err(Error::LengthMismatch {
                input: 16,
                output: 32
            })
        );
        assert_eq!(out, vec![0u8; 32], "output untouched on error");
    }
}

#[test]
fn typed_keys_pick_the_best_backend() {
    let best = Backend::best();
    assert_eq!(Aes128::new(&[0; 16]).backend(), best);
    assert_eq!(Aes192::new(&[0; 24]).backend(), best);
    assert_eq!(Aes256::new(&[0; 32]).backend(), best);
    for b in Backend::ALL {
        assert_eq!(Backend::from_name(b.name()), Some(*b));
        if !b.is_available() {
            assert_eq!(
                Aes::with_backend(&[0; 16], *b).unwrap_err(),
                Error::BackendUnavailable
            );
        }
    }
}
