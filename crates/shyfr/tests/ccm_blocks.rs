//! `BlockCipher::ccm_blocks` (CCM's bulk pass: counter mode plus the CBC-MAC of the
//! plaintext): the fused AES kernels against the trait's default composition (the portable
//! `ctr_blocks` and `cbc_mac_blocks` on the portable backend) for every length around every
//! batch boundary, counters that cross the 32-bit word the kernels increment, both
//! directions, in place and buffer to buffer, random keys and lengths, and bad input —
//! under every AES backend the CPU offers.

mod common;
mod modes_common;

use common::{aes_backends, aes_key};
use modes_common::{pattern, Plain};
use proptest::prelude::*;
use shyfr::aes::{Aes, Backend};
use shyfr::block::InOutBuf;
use shyfr::mode::BlockModes;
use shyfr::Error;

/// The widest batch of any backend is 32 blocks (x86_vaes512).
const MAX_BLOCKS: usize = 3 * 32 + 1;

/// Output, MAC state and next counter of one `ccm_blocks` call, in place (`split`: from
/// a separate input buffer).
fn run<C: BlockModes>(
    c: &C,
    mac: [u8; 16],
    ctr: [u8; 16],
    counter_len: usize,
    data: &[u8],
    decrypt: bool,
    split: bool,
) -> (Vec<u8>, [u8; 16], [u8; 16]) {
    let (mut mac, mut ctr) = (mac, ctr);
    let mut out = if split {
        vec![0u8; data.len()]
    } else {
        data.to_vec()
    };
    let io = if split {
        InOutBuf::new(data, &mut out).unwrap()
    } else {
        InOutBuf::in_place(&mut out)
    };
    c.ccm_blocks(&mut mac, &mut ctr, counter_len, io, decrypt)
        .unwrap();
    (out, mac, ctr)
}

/// A counter block whose last word is `low` (big-endian) after a fixed prefix.
fn counter(low: u32, seed: u8) -> [u8; 16] {
    let mut c: [u8; 16] = pattern(16, seed).try_into().unwrap();
    c[12..].copy_from_slice(&low.to_be_bytes());
    c
}

#[test]
fn fused_equals_default_for_every_length() {
    for b in aes_backends() {
        for klen in [16usize, 24, 32] {
            let key = pattern(klen, klen as u8);
            let aes = Aes::with_backend(&key, b).unwrap();
            let reference = Plain(Aes::with_backend(&key, Backend::Soft).unwrap());
            for n in 0..=MAX_BLOCKS {
                let data = pattern(16 * n, n as u8);
                let mac: [u8; 16] = pattern(16, 7 + n as u8).try_into().unwrap();
                // Counters: plain, 32-bit word about to wrap inside the call, and a
                // 4-byte field that wraps (the prefix must not change).
                for (low, clen) in [(5u32, 16usize), (u32::MAX - 3, 16), (u32::MAX - 1, 4)] {
                    let ctr = counter(low, n as u8);
                    for decrypt in [false, true] {
                        for split in [false, true] {
                            let got = run(&aes, mac, ctr, clen, &data, decrypt, split);
                            let want = run(&reference, mac, ctr, clen, &data, decrypt, split);
                            assert_eq!(
                                got, want,
                                "{b:?} AES-{} {n} blocks ctr {low:#x}/{clen} dec {decrypt} split {split}",
                                8 * klen
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn decrypt_inverts_encrypt_with_the_same_mac() {
    for b in aes_backends() {
        let aes = Aes::with_backend(&pattern(16, 1), b).unwrap();
        for n in [0usize, 1, 2, 31, 33, 64] {
            let pt = pattern(16 * n, 3);
            let (ct, m1, c1) = run(&aes, [9; 16], counter(77, 2), 8, &pt, false, false);
            let (back, m2, c2) = run(&aes, [9; 16], counter(77, 2), 8, &ct, true, true);
            assert_eq!(back, pt, "{b:?} {n}");
            assert_eq!((m1, c1), (m2, c2), "{b:?} {n}");
        }
    }
}

#[test]
fn bad_input_is_an_error() {
    for b in aes_backends() {
        let aes = Aes::with_backend(&[0u8; 16], b).unwrap();
        let mut buf = [0u8; 32];
        let (mut mac, mut ctr) = ([0u8; 16], [0u8; 16]);
        let mut short = [0u8; 15];
        let e = aes.ccm_blocks(&mut short, &mut ctr, 4, InOutBuf::in_place(&mut buf), false);
        assert!(matches!(e, Err(Error::InvalidNonceLength { .. })), "{b:?}");
        let e = aes.ccm_blocks(&mut mac, &mut short, 4, InOutBuf::in_place(&mut buf), true);
        assert!(matches!(e, Err(Error::InvalidNonceLength { .. })), "{b:?}");
        for clen in [0usize, 17] {
            let e = aes.ccm_blocks(
                &mut mac,
                &mut ctr,
                clen,
                InOutBuf::in_place(&mut buf),
                false,
            );
            assert!(matches!(e, Err(Error::InvalidParameter { .. })), "{b:?}");
        }
        let e = aes.ccm_blocks(
            &mut mac,
            &mut ctr,
            4,
            InOutBuf::in_place(&mut buf[..20]),
            false,
        );
        assert!(matches!(e, Err(Error::NotWholeBlocks { .. })), "{b:?}");
        assert_eq!((buf, mac, ctr), ([0u8; 32], [0u8; 16], [0u8; 16]), "{b:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random keys, MAC states, counters (counter fields of 1 to 16 bytes, last words near
    /// the wrap) and lengths: every backend's `ccm_blocks` equals the default composition.
    #[test]
    fn random_inputs_match_default(
        key in aes_key(),
        mac in prop::array::uniform16(any::<u8>()),
        prefix in prop::array::uniform16(any::<u8>()),
        low in prop_oneof![any::<u32>(), (u32::MAX - 200)..=u32::MAX],
        clen in 1usize..=16,
        blocks in 0usize..300,
        seed in any::<u8>(),
        decrypt in any::<bool>(),
        split in any::<bool>(),
    ) {
        let data = pattern(16 * blocks, seed);
        let mut ctr = prefix;
        ctr[12..].copy_from_slice(&low.to_be_bytes());
        let reference = Plain(Aes::with_backend(&key, Backend::Soft).unwrap());
        let want = run(&reference, mac, ctr, clen, &data, decrypt, split);
        for b in aes_backends() {
            let aes = Aes::with_backend(&key, b).unwrap();
            let got = run(&aes, mac, ctr, clen, &data, decrypt, split);
            prop_assert_eq!(&got, &want, "{:?}", b);
        }
    }
}
