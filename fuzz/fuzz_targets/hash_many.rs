//! Many messages at once (`digest_many`), shyfr against OpenSSL hashing each message alone:
//! SHA-224, SHA-256, SHA-384, SHA-512, SHA-512/224 and SHA-512/256 on every available
//! backend of their many-message families (`sha256-many`, `sha512-many`), SHA3-224/256/
//! 384/512 on every available Keccak backend. Up to 40 distinct messages, of one length (0
//! to 600 bytes: every padding case, several blocks) or of lengths spread over a few bytes
//! (lanes of one block count with their own tails) or over hundreds (batches by block
//! count, messages left over one by one).
#![no_main]

use libfuzzer_sys::fuzz_target;
use openssl::hash::{hash, MessageDigest};
use shyfr::hash::sha2::{Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};
use shyfr::hash::sha3::{Sha3_224, Sha3_256, Sha3_384, Sha3_512};
use shyfr::hazmat::{KeccakBackend, Sha256ManyBackend, Sha512ManyBackend};
use shyfr::Error;
use shyfr_fuzz::Input;

/// `digest_many_with_backend` of a hash with an `N`-byte digest.
type Many<B, const N: usize> = fn(B, &[&[u8]], &mut [[u8; N]]) -> Result<(), Error>;

/// Every backend in `backends` that runs here, through `many`, against OpenSSL's `md`.
fn check<B: Copy, const N: usize>(
    backends: &[B],
    available: fn(B) -> bool,
    many: Many<B, N>,
    md: MessageDigest,
    msgs: &[&[u8]],
) {
    let want: Vec<Vec<u8>> = msgs.iter().map(|m| hash(md, m).unwrap().to_vec()).collect();
    let mut ran = 0;
    for &b in backends.iter().filter(|&&b| available(b)) {
        ran += 1;
        let mut out = vec![[0u8; N]; msgs.len()];
        assert_eq!(many(b, msgs, &mut out), Ok(()));
        for (o, w) in out.iter().zip(&want) {
            assert_eq!(&o[..], &w[..]);
        }
    }
    // Every family has a portable backend.
    assert!(ran > 0, "no backend ran");
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    let which = inp.below(10);
    let count = inp.below(41);
    let len = inp.below(601);
    // Lengths len .. len + spread.
    let spread = inp.pick(&[0usize, 0, 1, 9, 70, 300]);
    let lens: Vec<usize> = (0..count)
        .map(|_| len + if spread == 0 { 0 } else { inp.below(spread) })
        .collect();
    let seed = inp.rest();
    let msgs: Vec<Vec<u8>> = lens
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            (0..n)
                .map(|j| {
                    seed.get((i * 601 + j) % seed.len().max(1))
                        .copied()
                        .unwrap_or(0)
                        ^ i as u8
                })
                .collect()
        })
        .collect();
    let refs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
    let m = &refs[..];
    let (s2, s5, k) = (
        Sha256ManyBackend::ALL,
        Sha512ManyBackend::ALL,
        KeccakBackend::ALL,
    );
    let (a2, a5, ak): (fn(_) -> bool, fn(_) -> bool, fn(_) -> bool) = (
        Sha256ManyBackend::is_available,
        Sha512ManyBackend::is_available,
        KeccakBackend::is_available,
    );
    let name = |n: &str| MessageDigest::from_name(n).unwrap();
    match which {
        0 => check(
            s2,
            a2,
            Sha224::digest_many_with_backend,
            MessageDigest::sha224(),
            m,
        ),
        1 => check(
            s2,
            a2,
            Sha256::digest_many_with_backend,
            MessageDigest::sha256(),
            m,
        ),
        2 => check(
            s5,
            a5,
            Sha384::digest_many_with_backend,
            MessageDigest::sha384(),
            m,
        ),
        3 => check(
            s5,
            a5,
            Sha512::digest_many_with_backend,
            MessageDigest::sha512(),
            m,
        ),
        4 => check(
            s5,
            a5,
            Sha512_224::digest_many_with_backend,
            name("SHA512-224"),
            m,
        ),
        5 => check(
            s5,
            a5,
            Sha512_256::digest_many_with_backend,
            name("SHA512-256"),
            m,
        ),
        6 => check(
            k,
            ak,
            Sha3_224::digest_many_with_backend,
            MessageDigest::sha3_224(),
            m,
        ),
        7 => check(
            k,
            ak,
            Sha3_256::digest_many_with_backend,
            MessageDigest::sha3_256(),
            m,
        ),
        8 => check(
            k,
            ak,
            Sha3_384::digest_many_with_backend,
            MessageDigest::sha3_384(),
            m,
        ),
        _ => check(
            k,
            ak,
            Sha3_512::digest_many_with_backend,
            MessageDigest::sha3_512(),
            m,
        ),
    }
});
