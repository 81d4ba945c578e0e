//! SHA-1 (FIPS 180-4): NIST SHAVS known answers and Monte Carlo, the streaming contract,
//! and every backend against the portable one — each test under every backend this CPU
//! offers.

mod common;

use common::{data, edge_message, monte_records, passed, read_rsp, shavs_msg};
use proptest::prelude::*;
use shyfr::hash::sha1::{Backend, Sha1};
use shyfr::hash::Hash;
use shyfr::Error;

/// Every SHA-1 backend this CPU can run now (see `common::backends`; noted as exercised
/// by the known-answer tests once they passed).
fn backends() -> Vec<Backend> {
    common::backends()
}

fn on(b: Backend) -> Sha1 {
    let h = Sha1::with_backend(b).unwrap();
    assert_eq!(h.backend(), b);
    h
}

fn digest_on(b: Backend, m: &[u8]) -> [u8; 20] {
    let mut h = on(b);
    h.update(m);
    h.finalize()
}

/// Runs every `Len`/`Msg`/`MD` record of a ShortMsg or LongMsg file under every backend,
/// one-shot and fed in two pieces: exactly `count` records on each backend.
fn run_msg_file(file: &str, count: usize) {
    let recs = read_rsp(&format!("sha/{file}"));
    let recs: Vec<_> = recs
        .iter()
        .filter(|r| r.fields.contains_key("Len"))
        .collect();
    assert_eq!(recs.len(), count, "{file}: records");
    for b in backends() {
        let mut n = 0;
        for r in &recs {
            assert_eq!(r.section.replace(' ', ""), "L=20", "{file} line {}", r.line);
            let (msg, md, at) = shavs_msg(r, file);
            let msg = &msg[..];
            let what = format!("{at} backend {}", b.name());
            assert_eq!(hex::encode(digest_on(b, msg)), hex::encode(&md), "{what}");
            let mut h = on(b);
            let (x, y) = msg.split_at(msg.len() / 3);
            h.update(x);
            h.update(y);
            assert_eq!(h.finalize().to_vec(), md, "{what}, in two pieces");
            n += 1;
        }
        assert_eq!(n, count, "{file}: records run on {}", b.name());
        passed(b);
    }
}

#[test]
fn sha1_short() {
    run_msg_file("SHA1ShortMsg.rsp", 65);
}

#[test]
fn sha1_long() {
    run_msg_file("SHA1LongMsg.rsp", 64);
}

/// The SHAVS Monte Carlo test (SHAVS 6.4): from `MD0 = MD1 = MD2 = Seed`, each checkpoint
/// runs `M_i = MD_{i-3} || MD_{i-2} || MD_{i-1}`, `MD_i = SHA-1(M_i)` for i = 3..1002 and
/// checks `MD_1002`, which seeds the next checkpoint.
#[test]
fn sha1_monte() {
    let recs = read_rsp("sha/SHA1Monte.rsp");
    let (seed0, checks) = monte_records(&recs);
    for b in backends() {
        let mut seed: [u8; 20] = seed0.clone().try_into().unwrap();
        for (j, r) in checks.iter().enumerate() {
            assert_eq!(r.fields["COUNT"], j.to_string());
            let mut md = [seed; 3];
            for _ in 3..1003 {
                let mut h = on(b);
                h.update(&md[0]);
                h.update(&md[1]);
                h.update(&md[2]);
                md = [md[1], md[2], h.finalize()];
            }
            assert_eq!(
                md[2].to_vec(),
                r.hex("MD"),
                "COUNT = {j} (line {}) backend {}",
                r.line,
                b.name()
            );
            seed = md[2];
        }
        passed(b);
    }
}

/// FIPS 180-2 appendix A: "abc", the 448-bit message and one million "a", fed in uneven
/// pieces.
#[test]
fn fips_examples() {
    let million = vec![b'a'; 1_000_000];
    for b in backends() {
        let d = |m: &[u8]| {
            let mut h = on(b);
            for c in m.chunks(997) {
                h.update(c);
            }
            hex::encode(h.finalize())
        };
        assert_eq!(d(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
        assert_eq!(
            d(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
        );
        assert_eq!(d(&million), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
        passed(b);
    }
}

#[test]
fn names_and_lengths() {
    assert_eq!(Sha1::NAME, "sha1");
    assert_eq!(<Sha1 as Hash>::OUTPUT_LEN, 20);
    assert_eq!(<Sha1 as Hash>::BLOCK_LEN, 64);
    for b in Backend::ALL {
        assert_eq!(Backend::from_name(b.name()), Some(*b));
    }
    assert_eq!(Backend::from_name("bogus"), None);
    assert!(Backend::best().is_available());
    assert_eq!(Sha1::new().backend(), Backend::best());
    assert_eq!(<Sha1 as Hash>::digest(b"abc"), Sha1::digest(b"abc"));
}

#[test]
fn unavailable_backend_is_an_error() {
    for &b in &[Backend::X86ShaNi, Backend::Aarch64Sha1] {
        if !b.is_available() {
            assert_eq!(
                Sha1::with_backend(b).unwrap_err(),
                Error::BackendUnavailable
            );
        }
    }
}

/// Lengths around the padding boundary.
const EDGE_LENS: &[usize] = &[
    0, 1, 55, 56, 57, 63, 64, 65, 111, 112, 119, 120, 127, 128, 129, 255, 256,
];

#[test]
fn backends_agree_at_edges() {
    for &len in EDGE_LENS {
        let m = data(len, len as u8);
        let want = digest_on(Backend::Soft, &m);
        for b in backends() {
            assert_eq!(digest_on(b, &m), want, "len {len} backend {}", b.name());
            let mut h = on(b);
            for byte in &m {
                h.update(core::slice::from_ref(byte));
            }
            assert_eq!(
                h.finalize(),
                want,
                "len {len} bytewise backend {}",
                b.name()
            );
        }
    }
}

#[test]
fn clone_mid_stream_and_reset() {
    let m = data(300, 7);
    for b in backends() {
        for cut in [0, 1, 63, 64, 100, 200, 300] {
            let mut h = on(b);
            h.update(&m[..cut]);
            let mut fork = h.clone();
            let mut other = h.clone();
            assert_eq!(fork.backend(), b);
            h.update(&m[cut..]);
            fork.update(&m[cut..]);
            other.update(b"different tail");
            let d = h.finalize();
            assert_eq!(d, fork.finalize(), "cut {cut} backend {}", b.name());
            assert_eq!(d, digest_on(b, &m));
            let mut want_other = on(b);
            want_other.update(&m[..cut]);
            want_other.update(b"different tail");
            assert_eq!(other.finalize(), want_other.finalize());
        }
        let mut h = on(b);
        h.update(&m);
        h.reset();
        assert_eq!(h.backend(), b);
        h.update(b"abc");
        assert_eq!(
            h.finalize(),
            digest_on(b, b"abc"),
            "reset backend {}",
            b.name()
        );
        let mut h = on(b);
        h.update(&m);
        zeroize::Zeroize::zeroize(&mut h);
        assert_eq!(h.backend(), b);
        assert_eq!(
            h.finalize(),
            digest_on(b, b""),
            "zeroize backend {}",
            b.name()
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn streaming_equals_one_shot(m in edge_message(EDGE_LENS), cuts in prop::collection::vec(any::<usize>(), 0..6)) {
        let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (m.len() + 1)).collect();
        cuts.sort_unstable();
        for b in backends() {
            let want = digest_on(b, &m);
            let mut h = on(b);
            let mut at = 0;
            for &c in &cuts {
                h.update(&m[at..c]);
                at = c;
            }
            h.update(&m[at..]);
            prop_assert_eq!(h.finalize(), want);
        }
    }

    #[test]
    fn every_backend_equals_soft(m in edge_message(EDGE_LENS)) {
        let want = digest_on(Backend::Soft, &m);
        for b in backends() {
            prop_assert_eq!(digest_on(b, &m), want, "backend {}", b.name());
        }
    }
}
