//! Kalyna (DSTU 7624:2014): the Annex B examples under every backend, every backend
//! against `soft` on random inputs, wide paths against one-block calls, and bad input.

mod common;
mod kalyna_common;

use kalyna_common::{backends, cipher, hx, num, vectors};
use proptest::prelude::*;
use shyfr::kalyna::{
    Backend, Kalyna, Kalyna128_128, Kalyna128_256, Kalyna256_256, Kalyna256_512, Kalyna512_512,
};
use shyfr::{BlockCipher, Error};

const VARIANTS: [(usize, usize); 5] = [(128, 16), (128, 32), (256, 32), (256, 64), (512, 64)];

#[test]
fn ecb_vectors_every_backend() {
    let vs = vectors("ecb.json");
    assert_eq!(vs.len(), 10);
    for b in backends() {
        let mut n = 0;
        for v in &vs {
            let k = cipher(v, b);
            let (p, c) = (hx(v, "plaintext"), hx(v, "ciphertext"));
            assert_eq!(k.block_len() * 8, num(v, "block_bits"));
            let mut buf = p.clone();
            k.encrypt_blocks(&mut buf).unwrap();
            assert_eq!(buf, c, "{b:?} vector {} encrypt", v["id"]);
            k.decrypt_blocks(&mut buf).unwrap();
            assert_eq!(buf, p, "{b:?} vector {} decrypt", v["id"]);
            let mut out = vec![0u8; p.len()];
            k.encrypt_blocks_to(&p, &mut out).unwrap();
            assert_eq!(out, c);
            let mut back = vec![0u8; p.len()];
            k.decrypt_blocks_to(&c, &mut back).unwrap();
            assert_eq!(back, p);
            // The same block many times over, at every position of a wide batch.
            for count in [3usize, 40, 130] {
                let mut many = p.repeat(count);
                k.encrypt_blocks(&mut many).unwrap();
                assert_eq!(many, c.repeat(count), "{b:?} vector {} x{count}", v["id"]);
                k.decrypt_blocks(&mut many).unwrap();
                assert_eq!(many, p.repeat(count));
            }
            n += 1;
        }
        assert_eq!(n, 10);
        common::note_exercised("kalyna", b.name());
    }
}

#[test]
fn typed_variants_match_the_runtime_type() {
    let key = [0x5au8; 64];
    let mut data = vec![0u8; 64 * 5];
    for (i, x) in data.iter_mut().enumerate() {
        *x = i as u8;
    }
    fn check<C: BlockCipher>(c: &C, bits: usize, key: &[u8], data: &[u8]) {
        assert_eq!(C::BLOCK_LEN * 8, bits);
        let k = Kalyna::new(bits, key).unwrap();
        let (mut a, mut b) = (data.to_vec(), data.to_vec());
        c.encrypt_blocks(&mut a).unwrap();
        k.encrypt_blocks(&mut b).unwrap();
        assert_eq!(a, b);
        c.decrypt_blocks(&mut a).unwrap();
        assert_eq!(a, data);
    }
    check(
        &Kalyna128_128::new(&key[..16].try_into().unwrap()),
        128,
        &key[..16],
        &data,
    );
    check(
        &Kalyna128_256::new(&key[..32].try_into().unwrap()),
        128,
        &key[..32],
        &data,
    );
    check(
        &Kalyna256_256::new(&key[..32].try_into().unwrap()),
        256,
        &key[..32],
        &data,
    );
    check(&Kalyna256_512::new(&key), 256, &key, &data);
    check(&Kalyna512_512::new(&key), 512, &key, &data);

    let k = Kalyna512_512::new(&key);
    let mut blk = [7u8; 64];
    k.encrypt_block(&mut blk);
    assert_ne!(blk, [7u8; 64]);
    k.decrypt_block(&mut blk);
    assert_eq!(blk, [7u8; 64]);
}

#[test]
fn bad_input_is_a_typed_error() {
    // Wrong key lengths for every block size, and a block size the standard lacks.
    for (bits, bad) in [
        (128usize, [0usize, 15, 17, 24, 31, 33, 64].as_slice()),
        (256, &[16, 31, 33, 48, 63, 65]),
        (512, &[16, 32, 63, 65, 128]),
    ] {
        for &kl in bad {
            assert_eq!(
                Kalyna::new(bits, &vec![0u8; kl]).unwrap_err(),
                Error::InvalidKeyLength { got: kl },
                "{bits}-bit block, {kl}-byte key"
            );
        }
    }
    assert!(matches!(
        Kalyna::new(192, &[0u8; 24]),
        Err(Error::InvalidParameter { .. })
    ));
    assert!(matches!(
        Kalyna128_256::new_from_slice(&[0u8; 16]),
        Err(Error::InvalidKeyLength { got: 16 })
    ));
    assert!(matches!(
        Kalyna512_512::new_from_slice(&[0u8; 65]),
        Err(Error::InvalidKeyLength { got: 65 })
    ));
    for (bits, kl) in VARIANTS {
        let k = Kalyna::new(bits, &vec![1u8; kl]).unwrap();
        let bl = bits / 8;
        for len in [1, bl - 1, bl + 1, 3 * bl - 1] {
            let mut d = vec![0u8; len];
            assert_eq!(
                k.encrypt_blocks(&mut d).unwrap_err(),
                Error::NotWholeBlocks { len, block: bl }
            );
            assert!(k.decrypt_blocks(&mut d).is_err());
            let mut o = vec![0u8; len];
            assert!(k.encrypt_blocks_to(&d, &mut o).is_err());
        }
        let mut o = vec![0u8; bl];
        assert_eq!(
            k.encrypt_blocks_to(&vec![0u8; 2 * bl], &mut o).unwrap_err(),
            Error::LengthMismatch {
                input: 2 * bl,
                output: bl
            }
        );
        // Empty input is zero whole blocks.
        k.encrypt_blocks(&mut []).unwrap();
    }
}

/// Every length from 0 to 3 x the widest batch + 1 blocks, one call against one block at a
/// time, under every backend (the widest batch is 64 blocks of the AVX-512 kernel).
#[test]
fn wide_paths_equal_one_block_calls() {
    for b in backends() {
        for (bits, kl) in VARIANTS {
            let key: Vec<u8> = (0..kl as u8).map(|i| i.wrapping_mul(13) ^ 0x3c).collect();
            let k = Kalyna::with_backend(bits, &key, b).unwrap();
            let bl = bits / 8;
            let max = 3 * 64 + 1;
            let data: Vec<u8> = (0..max * bl).map(|i| (i * 31 + i / 7) as u8).collect();
            let mut single = data.clone();
            for blk in single.chunks_exact_mut(bl) {
                k.encrypt_blocks(blk).unwrap();
            }
            for n in (0..=max).filter(|n| *n < 70 || n % 13 == 0 || *n == max) {
                let mut wide = data[..n * bl].to_vec();
                k.encrypt_blocks(&mut wide).unwrap();
                assert_eq!(wide, single[..n * bl], "{b:?} {bits}/{} {n} blocks", kl * 8);
                k.decrypt_blocks(&mut wide).unwrap();
                assert_eq!(
                    wide,
                    data[..n * bl],
                    "{b:?} {bits}/{} {n} blocks dec",
                    kl * 8
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every backend equals `soft` on random keys, variants and lengths, in place and
    /// buffer to buffer.
    #[test]
    fn backends_equal_soft(
        variant in 0usize..5,
        key in proptest::collection::vec(any::<u8>(), 64),
        blocks in 0usize..150,
        seed in any::<u64>(),
    ) {
        let (bits, kl) = VARIANTS[variant];
        let bl = bits / 8;
        let mut x = seed | 1;
        let data: Vec<u8> = (0..blocks * bl).map(|_| {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17; x as u8
        }).collect();
        let soft = Kalyna::with_backend(bits, &key[..kl], Backend::Soft).unwrap();
        let mut want = data.clone();
        soft.encrypt_blocks(&mut want).unwrap();
        for b in backends() {
            let k = Kalyna::with_backend(bits, &key[..kl], b).unwrap();
            let mut got = vec![0u8; data.len()];
            k.encrypt_blocks_to(&data, &mut got).unwrap();
            prop_assert_eq!(&got, &want, "{:?} encrypt", b);
            k.decrypt_blocks(&mut got).unwrap();
            prop_assert_eq!(&got, &data, "{:?} decrypt", b);
        }
    }
}

/// The chained-mode kernels (CBC and CFB encryption, OFB, CBC-MAC) of every backend equal
/// the block-at-a-time definitions on `soft`.
/// The chained modes (CBC and full-block CFB encryption, OFB, CBC-MAC) of `k` (backend
/// `b`) against their definitions, one block at a time on `soft`, with the chaining value
/// `iv` over `data` (whole blocks).
fn check_chained(b: Backend, bits: usize, key: &[u8], iv: &[u8], data: &[u8]) {
    use shyfr::block::InOutBuf;
    let k = Kalyna::with_backend(bits, key, b).unwrap();
    let soft = Kalyna::with_backend(bits, key, Backend::Soft).unwrap();
    let bl = bits / 8;
    let blocks = data.len() / bl;
    let (mut cbc, mut cfb, mut ofb) = (data.to_vec(), data.to_vec(), data.to_vec());
    let (mut v1, mut v2, mut v3, mut mac) = (iv.to_vec(), iv.to_vec(), iv.to_vec(), iv.to_vec());
    for j in 0..blocks {
        let blk = j * bl..(j + 1) * bl;
        for (x, y) in v1.iter_mut().zip(&data[blk.clone()]) {
            *x ^= y;
        }
        soft.encrypt_blocks(&mut v1).unwrap();
        cbc[blk.clone()].copy_from_slice(&v1);
        soft.encrypt_blocks(&mut v2).unwrap();
        for (x, y) in v2.iter_mut().zip(&data[blk.clone()]) {
            *x ^= y;
        }
        cfb[blk.clone()].copy_from_slice(&v2);
        soft.encrypt_blocks(&mut v3).unwrap();
        for (x, y) in ofb[blk.clone()].iter_mut().zip(&v3) {
            *x ^= y;
        }
        for (x, y) in mac.iter_mut().zip(&data[blk.clone()]) {
            *x ^= y;
        }
        soft.encrypt_blocks(&mut mac).unwrap();
    }
    let mut got = data.to_vec();
    let mut v = iv.to_vec();
    k.cbc_encrypt_blocks(&mut v, InOutBuf::in_place(&mut got))
        .unwrap();
    assert_eq!((got, &v), (cbc, &v1), "{b:?} {bits} cbc {blocks}");
    let mut got = vec![0u8; data.len()];
    let mut v = iv.to_vec();
    k.cfb_encrypt_blocks(&mut v, InOutBuf::new(data, &mut got).unwrap())
        .unwrap();
    assert_eq!((got, &v), (cfb, &v2), "{b:?} {bits} cfb {blocks}");
    let mut got = data.to_vec();
    let mut v = iv.to_vec();
    k.ofb_blocks(&mut v, InOutBuf::in_place(&mut got)).unwrap();
    assert_eq!((got, &v), (ofb, &v3), "{b:?} {bits} ofb {blocks}");
    let mut v = iv.to_vec();
    k.cbc_mac_blocks(&mut v, data).unwrap();
    assert_eq!(v, mac, "{b:?} {bits} mac {blocks}");
}

#[test]
fn chained_kernels_equal_their_definition() {
    for b in backends() {
        for (bits, kl) in VARIANTS {
            let key: Vec<u8> = (0..kl as u8).map(|i| i ^ 0x77).collect();
            let bl = bits / 8;
            for blocks in [0usize, 1, 2, 5, 17] {
                let data: Vec<u8> = (0..blocks * bl).map(|i| (i * 29 + 1) as u8).collect();
                let iv: Vec<u8> = (0..bl).map(|i| (i * 3) as u8).collect();
                check_chained(b, bits, &key, &iv, &data);
            }
            // Wrong chaining-value length and partial blocks are errors.
            let k = Kalyna::with_backend(bits, &key, b).unwrap();
            let mut short = vec![0u8; bl - 1];
            assert!(k.cbc_mac_blocks(&mut short, &[]).is_err());
            let mut v = vec![0u8; bl];
            assert!(k.cbc_mac_blocks(&mut v, &[0u8; 3]).is_err());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// The chained kernels of every backend (the one-register kernels of `x86_avx512`)
    /// against the one-block definitions on random keys, chaining values and data, for
    /// every variant.
    #[test]
    fn chained_kernels_equal_their_definition_random(
        key in proptest::collection::vec(any::<u8>(), 64),
        iv in proptest::collection::vec(any::<u8>(), 64),
        data in proptest::collection::vec(any::<u8>(), 0..64 * 23),
    ) {
        for b in backends() {
            for (bits, kl) in VARIANTS {
                let bl = bits / 8;
                let whole = data.len() / bl * bl;
                check_chained(b, bits, &key[..kl], &iv[..bl], &data[..whole]);
            }
        }
    }
}
