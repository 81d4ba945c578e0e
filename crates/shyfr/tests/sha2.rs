//! SHA-2 (FIPS 180-4): NIST SHAVS known answers and Monte Carlo for all six hashes, the
//! streaming contract, and every backend against the portable one — each test under every
//! backend this CPU offers.

mod common;

use common::{data, edge_message, monte_records, note_exercised, read_rsp, shavs_msg};
use proptest::prelude::*;
use shyfr::hash::sha2::{
    Sha224, Sha256, Sha256Backend, Sha256ManyBackend, Sha384, Sha512, Sha512Backend,
    Sha512ManyBackend, Sha512_224, Sha512_256,
};
use shyfr::hash::Hash;
use shyfr::Error;

/// A SHA-2 type with its backend enum, so the tests below are written once.
trait Tested: Hash + core::fmt::Debug + zeroize::Zeroize {
    type Backend: common::Family;
    /// The registry family (`"sha256"` or `"sha512"`).
    const FAMILY: &'static str;
    /// The file-name stem of its CAVP files.
    const FILE: &'static str;
    fn soft() -> Self::Backend;
    fn name(b: Self::Backend) -> &'static str;
    fn with(b: Self::Backend) -> Result<Self, Error>;
    fn backend_of(&self) -> Self::Backend;

    /// Every backend this CPU can run now (fails if one the CPU supports is missing).
    fn backends() -> Vec<Self::Backend> {
        common::backends()
    }

    /// Notes `b` as exercised; called once a known-answer file has passed on it.
    fn passed(b: Self::Backend) {
        note_exercised(Self::FAMILY, Self::name(b));
    }

    fn on(b: Self::Backend) -> Self {
        let h = Self::with(b).unwrap();
        assert_eq!(h.backend_of(), b);
        h
    }
}

macro_rules! tested {
    ($t:ident, $b:ident, $family:expr, $file:expr) => {
        impl Tested for $t {
            type Backend = $b;
            const FAMILY: &'static str = $family;
            const FILE: &'static str = $file;
            fn soft() -> $b {
                $b::Soft
            }
            fn name(b: $b) -> &'static str {
                b.name()
            }
            fn with(b: $b) -> Result<Self, Error> {
                $t::with_backend(b)
            }
            fn backend_of(&self) -> $b {
                self.backend()
            }
        }
    };
}

tested!(Sha224, Sha256Backend, "sha256", "SHA224");
tested!(Sha256, Sha256Backend, "sha256", "SHA256");
tested!(Sha384, Sha512Backend, "sha512", "SHA384");
tested!(Sha512, Sha512Backend, "sha512", "SHA512");
tested!(Sha512_224, Sha512Backend, "sha512", "SHA512_224");
tested!(Sha512_256, Sha512Backend, "sha512", "SHA512_256");

/// The `L = n` section header of a SHAVS file: the digest length in bytes.
fn section_len(section: &str) -> usize {
    let n = section
        .strip_prefix("L")
        .and_then(|s| s.trim().strip_prefix('='))
        .unwrap_or_else(|| panic!("unexpected section {section:?}"));
    n.trim().parse().unwrap()
}

/// Runs every `Len`/`Msg`/`MD` record of a ShortMsg or LongMsg file under every backend,
/// one-shot and fed in two pieces.
fn run_msg_file<H: Tested>(kind: &str) {
    let file = format!("{}{kind}.rsp", H::FILE);
    let recs = read_rsp(&format!("sha/{file}"));
    let recs: Vec<_> = recs
        .iter()
        .filter(|r| r.fields.contains_key("Len"))
        .collect();
    // SHAVS: one short message per byte length from 0 to one block, and 64 (SHA-256
    // family) or 128 (SHA-512 family) long messages.
    let expected = match kind {
        "ShortMsg" => H::BLOCK_LEN + 1,
        _ => H::BLOCK_LEN,
    };
    assert_eq!(recs.len(), expected, "{file}");
    for b in H::backends() {
        let mut run = 0;
        for r in &recs {
            assert_eq!(
                section_len(&r.section),
                H::OUTPUT_LEN,
                "{file} line {}",
                r.line
            );
            let (msg, md, at) = shavs_msg(r, &file);
            let msg = &msg[..];
            let what = format!("{at} backend {}", H::name(b));

            let mut h = H::on(b);
            h.update(msg);
            assert_eq!(hex::encode(h.finalize()), hex::encode(&md), "{what}");

            let mut h = H::on(b);
            let (x, y) = msg.split_at(msg.len() / 3);
            h.update(x);
            h.update(y);
            assert_eq!(h.finalize().as_ref(), &md[..], "{what}, in two pieces");
            run += 1;
        }
        assert_eq!(run, expected);
        H::passed(b);
    }
}

/// The SHAVS Monte Carlo test (SHAVS 6.4): from `MD0 = MD1 = MD2 = Seed`, each checkpoint
/// runs `M_i = MD_{i-3} || MD_{i-2} || MD_{i-1}`, `MD_i = SHA(M_i)` for i = 3..1002 and
/// checks `MD_1002`, which seeds the next checkpoint.
fn run_monte<H: Tested>() {
    let file = format!("{}Monte.rsp", H::FILE);
    let recs = read_rsp(&format!("sha/{file}"));
    let (seed, checks) = monte_records(&recs);
    assert_eq!(seed.len(), H::OUTPUT_LEN);
    for b in H::backends() {
        let mut seed = seed.clone();
        for (j, r) in checks.iter().enumerate() {
            assert_eq!(r.fields["COUNT"], j.to_string());
            let mut md = [seed.clone(), seed.clone(), seed.clone()];
            let mut m = Vec::with_capacity(3 * H::OUTPUT_LEN);
            for _ in 3..1003 {
                m.clear();
                m.extend_from_slice(&md[0]);
                m.extend_from_slice(&md[1]);
                m.extend_from_slice(&md[2]);
                let mut h = H::on(b);
                h.update(&m);
                let mdi = h.finalize().as_ref().to_vec();
                md = [md[1].clone(), md[2].clone(), mdi];
            }
            assert_eq!(
                md[2],
                r.hex("MD"),
                "{file} COUNT = {j} (line {}) backend {}",
                r.line,
                H::name(b)
            );
            seed = md[2].clone();
        }
        H::passed(b);
    }
}

macro_rules! shavs {
    ($short:ident, $long:ident, $monte:ident, $t:ident) => {
        #[test]
        fn $short() {
            run_msg_file::<$t>("ShortMsg");
        }
        #[test]
        fn $long() {
            run_msg_file::<$t>("LongMsg");
        }
        #[test]
        fn $monte() {
            run_monte::<$t>();
        }
    };
}

shavs!(sha224_short, sha224_long, sha224_monte, Sha224);
shavs!(sha256_short, sha256_long, sha256_monte, Sha256);
shavs!(sha384_short, sha384_long, sha384_monte, Sha384);
shavs!(sha512_short, sha512_long, sha512_monte, Sha512);
shavs!(
    sha512_224_short,
    sha512_224_long,
    sha512_224_monte,
    Sha512_224
);
shavs!(
    sha512_256_short,
    sha512_256_long,
    sha512_256_monte,
    Sha512_256
);

/// FIPS 180-4 examples (NIST "Cryptographic Standards and Guidelines: Examples with
/// Intermediate Values", SHA-2 documents): "abc" and the 448- and 896-bit messages, plus
/// one million "a" (FIPS 180-2 appendices B.3 / C.3 / D.3), fed in uneven pieces.
#[test]
fn fips_examples() {
    const M448: &[u8] = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    const M896: &[u8] = b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    let million = vec![b'a'; 1_000_000];
    for b in Sha256::backends() {
        let d = |m: &[u8]| {
            let mut h = Sha256::on(b);
            for c in m.chunks(997) {
                h.update(c);
            }
            hex::encode(h.finalize())
        };
        assert_eq!(
            d(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            d(M448),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
        assert_eq!(
            d(&million),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        );
        let mut h = Sha224::on(b);
        h.update(b"abc");
        assert_eq!(
            hex::encode(h.finalize()),
            "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"
        );
    }
    for b in Sha512::backends() {
        let d = |m: &[u8]| {
            let mut h = Sha512::on(b);
            for c in m.chunks(1001) {
                h.update(c);
            }
            hex::encode(h.finalize())
        };
        assert_eq!(
            d(b"abc"),
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
             2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        );
        assert_eq!(
            d(M896),
            "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018\
             501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"
        );
        assert_eq!(
            d(&million),
            "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb\
             de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b"
        );
        let mut h = Sha384::on(b);
        h.update(b"abc");
        assert_eq!(
            hex::encode(h.finalize()),
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed\
             8086072ba1e7cc2358baeca134c825a7"
        );
    }
}

#[test]
fn names_and_lengths() {
    assert_eq!(
        [
            Sha224::NAME,
            Sha256::NAME,
            Sha384::NAME,
            Sha512::NAME,
            Sha512_224::NAME,
            Sha512_256::NAME
        ],
        [
            "sha224",
            "sha256",
            "sha384",
            "sha512",
            "sha512-224",
            "sha512-256"
        ]
    );
    assert_eq!(
        [
            <Sha224 as Hash>::OUTPUT_LEN,
            <Sha256 as Hash>::OUTPUT_LEN,
            <Sha384 as Hash>::OUTPUT_LEN,
            <Sha512 as Hash>::OUTPUT_LEN,
            <Sha512_224 as Hash>::OUTPUT_LEN,
            <Sha512_256 as Hash>::OUTPUT_LEN,
        ],
        [28, 32, 48, 64, 28, 32]
    );
    assert_eq!(<Sha256 as Hash>::BLOCK_LEN, 64);
    assert_eq!(<Sha224 as Hash>::BLOCK_LEN, 64);
    assert_eq!(<Sha512_224 as Hash>::BLOCK_LEN, 128);
    assert_eq!(Sha256::digest(b"x").len(), Sha256::OUTPUT_LEN);
    for b in Sha256Backend::ALL {
        assert_eq!(Sha256Backend::from_name(b.name()), Some(*b));
    }
    for b in Sha512Backend::ALL {
        assert_eq!(Sha512Backend::from_name(b.name()), Some(*b));
    }
    assert_eq!(Sha256Backend::from_name("bogus"), None);
    assert!(Sha256Backend::best().is_available());
    assert!(Sha512Backend::best().is_available());
    assert_eq!(Sha256::new().backend(), Sha256Backend::best());
    assert_eq!(Sha384::new().backend(), Sha512Backend::best());
}

/// A backend of another architecture (or one the CPU lacks) is an error, not a panic.
#[test]
fn unavailable_backend_is_an_error() {
    for &b in &[Sha256Backend::X86ShaNi, Sha256Backend::Aarch64Sha2] {
        if !b.is_available() {
            assert_eq!(
                Sha256::with_backend(b).unwrap_err(),
                Error::BackendUnavailable
            );
            assert_eq!(
                Sha224::with_backend(b).unwrap_err(),
                Error::BackendUnavailable
            );
        }
    }
    for &b in &[
        Sha512Backend::X86Avx512,
        Sha512Backend::X86Avx2,
        Sha512Backend::Aarch64Sha512,
    ] {
        if !b.is_available() {
            assert_eq!(
                Sha512::with_backend(b).unwrap_err(),
                Error::BackendUnavailable
            );
            assert_eq!(
                Sha512_256::with_backend(b).unwrap_err(),
                Error::BackendUnavailable
            );
        }
    }
}

/// Lengths around the padding boundaries of both block sizes.
const EDGE_LENS: &[usize] = &[
    0, 1, 55, 56, 57, 63, 64, 65, 111, 112, 113, 119, 120, 127, 128, 129, 191, 192, 255, 256, 257,
];

/// Every backend equals soft for every whole number of blocks up to `max` (a kernel may
/// treat one block, the last block and runs of blocks differently), plus and minus a byte,
/// in one call.
fn block_counts<H: Tested>(block: usize, max: usize) {
    for n in 0..=max {
        for len in [n * block, (n * block).saturating_sub(1), n * block + 1] {
            assert_backends_agree::<H>(&data(len, n as u8 ^ 0x5a), false);
        }
    }
}

/// The digest of `m` by the portable backend.
fn soft_digest<H: Tested>(m: &[u8]) -> H::Output {
    let mut s = H::on(H::soft());
    s.update(m);
    s.finalize()
}

/// Every backend gives soft's digest of `m` in one call, and a byte at a time if `bytewise`.
fn assert_backends_agree<H: Tested>(m: &[u8], bytewise: bool) {
    let len = m.len();
    let want = soft_digest::<H>(m);
    for b in H::backends() {
        let mut h = H::on(b);
        h.update(m);
        let (name, backend) = (H::NAME, H::name(b));
        assert_eq!(h.finalize(), want, "{name} len {len} backend {backend}");
        if bytewise {
            let mut h = H::on(b);
            for byte in m {
                h.update(core::slice::from_ref(byte));
            }
            assert_eq!(
                h.finalize(),
                want,
                "{name} len {len} bytewise backend {backend}"
            );
        }
    }
}

#[test]
fn backends_agree_for_block_counts() {
    block_counts::<Sha256>(64, 24);
    // Up to 97 blocks: three times the 32-block batch some kernels were written for, and one
    // more (`x86_avx512` changes kernel at 32 blocks).
    block_counts::<Sha384>(128, 97);
    block_counts::<Sha512>(128, 97);
    block_counts::<Sha512_256>(128, 97);
}

/// Every message length from 0 to three blocks and one byte: every backend (whose last
/// blocks the kernel forms itself) and the one-shot `digest` (whole blocks from the
/// caller's slice, then the same last-block path) give soft's streamed digest.
fn every_length<H: Tested>()
where
    H::Output: PartialEq + core::fmt::Debug,
{
    for len in 0..=3 * H::BLOCK_LEN + 1 {
        let m = data(len, len as u8 ^ 0xa5);
        assert_backends_agree::<H>(&m, false);
        assert_eq!(
            H::digest(&m),
            soft_digest::<H>(&m),
            "{} one-shot len {len}",
            H::NAME
        );
    }
}

/// `digest_continued` equals clone-update-finalize for every prefix and suffix length
/// around a block and a half, on every backend, and leaves the state as it was.
fn continued<H: Tested>()
where
    H::Output: PartialEq + core::fmt::Debug,
{
    let bl = H::BLOCK_LEN;
    let lens: Vec<usize> = (0..=bl + bl / 2)
        .step_by(3)
        .chain([bl - 1, bl, bl + 1, 2 * bl])
        .collect();
    for b in H::backends() {
        for &p in &lens {
            let mut h = H::on(b);
            h.update(&data(p, p as u8));
            for &n in &lens {
                let m = data(n, n as u8 ^ 0x3c);
                let mut want = h.clone();
                want.update(&m);
                let want = want.finalize();
                assert_eq!(
                    h.digest_continued(&m),
                    want,
                    "{} prefix {p} data {n} backend {}",
                    H::NAME,
                    H::name(b)
                );
            }
            let mut whole = data(p, p as u8);
            whole.extend_from_slice(b"tail");
            h.update(b"tail");
            assert_eq!(
                h.finalize(),
                soft_digest::<H>(&whole),
                "state kept, prefix {p}"
            );
        }
    }
}

#[test]
fn digest_continued_equals_clone_update_finalize() {
    continued::<Sha224>();
    continued::<Sha256>();
    continued::<Sha384>();
    continued::<Sha512>();
}

#[test]
fn every_length_and_one_shot() {
    every_length::<Sha224>();
    every_length::<Sha256>();
    every_length::<Sha384>();
    every_length::<Sha512>();
    every_length::<Sha512_256>();
}

/// Every backend equals soft at every boundary length, one-shot and streamed a byte at a
/// time.
fn edges<H: Tested>() {
    for &len in EDGE_LENS {
        assert_backends_agree::<H>(&data(len, len as u8), true);
    }
}

#[test]
fn backends_agree_at_edges() {
    edges::<Sha224>();
    edges::<Sha256>();
    edges::<Sha384>();
    edges::<Sha512>();
    edges::<Sha512_224>();
    edges::<Sha512_256>();
}

/// Clone mid-stream, continue both differently and identically; reset keeps the backend.
fn clone_and_reset<H: Tested>() {
    let m = data(300, 7);
    for b in H::backends() {
        for cut in [0, 1, 63, 64, 100, 128, 200, 300] {
            let mut h = H::on(b);
            h.update(&m[..cut]);
            let mut fork = h.clone();
            assert_eq!(fork.backend_of(), b);
            let mut other = h.clone();
            h.update(&m[cut..]);
            fork.update(&m[cut..]);
            other.update(b"different tail");
            let d = h.finalize();
            assert_eq!(
                d,
                fork.finalize(),
                "{} cut {cut} backend {}",
                H::NAME,
                H::name(b)
            );
            let mut one = H::on(b);
            one.update(&m);
            assert_eq!(d, one.finalize());
            let mut want_other = H::on(b);
            want_other.update(&m[..cut]);
            want_other.update(b"different tail");
            assert_eq!(other.finalize(), want_other.finalize());
        }
        let mut h = H::on(b);
        h.update(&m);
        h.reset();
        assert_eq!(h.backend_of(), b);
        h.update(b"abc");
        let mut fresh = H::on(b);
        fresh.update(b"abc");
        assert_eq!(
            h.finalize(),
            fresh.finalize(),
            "{} reset backend {}",
            H::NAME,
            H::name(b)
        );
        let mut h = H::on(b);
        h.update(&m);
        zeroize::Zeroize::zeroize(&mut h);
        assert_eq!(h.backend_of(), b);
        assert_eq!(h.finalize(), H::on(b).finalize(), "{} zeroize", H::NAME);
    }
}

#[test]
fn clone_mid_stream_and_reset() {
    clone_and_reset::<Sha224>();
    clone_and_reset::<Sha256>();
    clone_and_reset::<Sha384>();
    clone_and_reset::<Sha512>();
    clone_and_reset::<Sha512_224>();
    clone_and_reset::<Sha512_256>();
}

#[test]
fn debug_shows_backend_only() {
    let s = format!("{:?}", Sha256::new());
    assert!(s.starts_with("Sha256 {"), "{s}");
    assert!(s.contains("backend"), "{s}");
}

/// Streaming in pieces cut at `cuts` equals one-shot, on every backend.
fn split_equals_oneshot<H: Tested>(m: &[u8], cuts: &[usize]) -> Result<(), TestCaseError> {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (m.len() + 1)).collect();
    cuts.sort_unstable();
    for b in H::backends() {
        let mut one = H::on(b);
        one.update(m);
        let want = one.finalize();
        let mut h = H::on(b);
        let mut at = 0;
        for &c in &cuts {
            h.update(&m[at..c]);
            at = c;
        }
        h.update(&m[at..]);
        prop_assert_eq!(h.finalize(), want);
    }
    Ok(())
}

/// Every backend equals soft on `m`.
fn agrees_with_soft<H: Tested>(m: &[u8]) -> Result<(), TestCaseError> {
    let want = soft_digest::<H>(m);
    for b in H::backends() {
        let mut h = H::on(b);
        h.update(m);
        prop_assert_eq!(h.finalize(), want, "backend {}", H::name(b));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn streaming_equals_one_shot(m in edge_message(EDGE_LENS), cuts in prop::collection::vec(any::<usize>(), 0..6)) {
        split_equals_oneshot::<Sha224>(&m, &cuts)?;
        split_equals_oneshot::<Sha256>(&m, &cuts)?;
        split_equals_oneshot::<Sha384>(&m, &cuts)?;
        split_equals_oneshot::<Sha512>(&m, &cuts)?;
        split_equals_oneshot::<Sha512_224>(&m, &cuts)?;
        split_equals_oneshot::<Sha512_256>(&m, &cuts)?;
    }

    #[test]
    fn every_backend_equals_soft(m in edge_message(EDGE_LENS)) {
        agrees_with_soft::<Sha224>(&m)?;
        agrees_with_soft::<Sha256>(&m)?;
        agrees_with_soft::<Sha384>(&m)?;
        agrees_with_soft::<Sha512>(&m)?;
        agrees_with_soft::<Sha512_224>(&m)?;
        agrees_with_soft::<Sha512_256>(&m)?;
    }
}

// ---------------------------------------------------------------------------------------
// Many messages at once: the `digest_many` functions
// ---------------------------------------------------------------------------------------

/// The signature of `Sha*::digest_many_with_backend` for an `N`-byte digest.
type ManyFn<B, const N: usize> = fn(B, &[&[u8]], &mut [[u8; N]]) -> Result<(), Error>;

/// Each of `msgs` through `f` on `b`, as byte vectors.
fn run_many<B, const N: usize>(f: ManyFn<B, N>, b: B, msgs: &[&[u8]]) -> Vec<Vec<u8>> {
    let mut out = vec![[0u8; N]; msgs.len()];
    f(b, msgs, &mut out).unwrap();
    out.iter().map(|d| d.to_vec()).collect()
}

/// The hash named by its SHAVS file stem, of each of `msgs`, by
/// `digest_many` on the backend named `b` of its family; `None` for the other family.
fn many_by_stem(stem: &str, b: &str, msgs: &[&[u8]]) -> Option<Vec<Vec<u8>>> {
    let b2 = Sha256ManyBackend::from_name(b);
    let b5 = Sha512ManyBackend::from_name(b);
    Some(match stem {
        "SHA224" => run_many(Sha224::digest_many_with_backend, b2?, msgs),
        "SHA256" => run_many(Sha256::digest_many_with_backend, b2?, msgs),
        "SHA384" => run_many(Sha384::digest_many_with_backend, b5?, msgs),
        "SHA512" => run_many(Sha512::digest_many_with_backend, b5?, msgs),
        "SHA512_224" => run_many(Sha512_224::digest_many_with_backend, b5?, msgs),
        _ => run_many(Sha512_256::digest_many_with_backend, b5?, msgs),
    })
}

/// The one-shot digest of `m` by the hash named by its SHAVS file stem.
fn one_by_stem(stem: &str, m: &[u8]) -> Vec<u8> {
    match stem {
        "SHA224" => Sha224::digest(m).to_vec(),
        "SHA256" => Sha256::digest(m).to_vec(),
        "SHA384" => Sha384::digest(m).to_vec(),
        "SHA512" => Sha512::digest(m).to_vec(),
        "SHA512_224" => Sha512_224::digest(m).to_vec(),
        _ => Sha512_256::digest(m).to_vec(),
    }
}

const STEMS256: [&str; 2] = ["SHA224", "SHA256"];
const STEMS512: [&str; 4] = ["SHA384", "SHA512", "SHA512_224", "SHA512_256"];

/// Every backend of both many-message families that runs here, each with the SHAVS stems
/// of its family's hashes.
fn many_backends() -> Vec<(&'static [&'static str], &'static str)> {
    common::backends::<Sha256ManyBackend>()
        .into_iter()
        .map(|b| (&STEMS256[..], b.name()))
        .chain(
            common::backends::<Sha512ManyBackend>()
                .into_iter()
                .map(|b| (&STEMS512[..], b.name())),
        )
        .collect()
}

/// Every SHAVS message of the family's hashes through `digest_many`, as groups of 1, 9,
/// 17 and 24 copies (lane sets partly filled and full, remainders one by one), on backend
/// `b`.
fn many_shavs(stems: &[&str], b: &str) {
    for stem in stems {
        for kind in ["ShortMsg", "LongMsg"] {
            let file = format!("{stem}{kind}.rsp");
            let recs = read_rsp(&format!("sha/{file}"));
            let mut run = 0;
            for r in recs.iter().filter(|r| r.fields.contains_key("Len")) {
                let (msg, md, at) = shavs_msg(r, &file);
                for copies in [1, 9, 17, 24] {
                    let msgs = vec![&msg[..]; copies];
                    let got = many_by_stem(stem, b, &msgs).expect("backend of the family");
                    assert_eq!(got.len(), copies);
                    for (i, d) in got.iter().enumerate() {
                        assert_eq!(d, &md, "{at} backend {b} copy {i} of {copies}");
                    }
                }
                run += 1;
            }
            assert!(run >= 64, "{file}: {run} records");
        }
    }
}

#[test]
fn many_shavs_vectors() {
    for b in common::backends::<Sha256ManyBackend>() {
        many_shavs(&STEMS256, b.name());
        common::passed(b);
    }
    for b in common::backends::<Sha512ManyBackend>() {
        many_shavs(&STEMS512, b.name());
        common::passed(b);
    }
}

/// Fifty messages of lengths 100 to 144 bytes in a scrambled order: batches of one block
/// count whose lanes differ in length (own tails and length fields), and lengths around
/// both padding boundaries of both block sizes; `digest_many` on every backend of both
/// families equals one-by-one `digest`.
#[test]
fn many_mixed_lengths() {
    let msgs: Vec<Vec<u8>> = (0..50).map(|i| data(100 + (i * 7) % 45, i as u8)).collect();
    let refs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
    for (stems, b) in many_backends() {
        for stem in stems {
            let got = many_by_stem(stem, b, &refs).expect("backend of the family");
            for (k, (m, d)) in msgs.iter().zip(&got).enumerate() {
                assert_eq!(d, &one_by_stem(stem, m), "{stem} {b} message {k}");
            }
        }
    }
}

#[test]
fn many_bad_input_is_an_error() {
    let m = [&b"abc"[..], &b"abd"[..]];
    let mut one = [[0u8; 32]; 1];
    assert!(matches!(
        Sha256::digest_many(&m, &mut one),
        Err(Error::LengthMismatch {
            input: 2,
            output: 1
        })
    ));
    let mut one = [[0u8; 64]; 1];
    assert!(matches!(
        Sha512::digest_many(&m, &mut one),
        Err(Error::LengthMismatch {
            input: 2,
            output: 1
        })
    ));
    // Messages of different lengths are accepted (each gets its own digest).
    let mut two = [[0u8; 28]; 2];
    Sha224::digest_many(&[&b"abc"[..], &b"ab"[..]], &mut two).unwrap();
    assert_eq!(two, [Sha224::digest(b"abc"), Sha224::digest(b"ab")]);
    Sha512_224::digest_many(&[&b"abc"[..], &b"ab"[..]], &mut two).unwrap();
    assert_eq!(two, [Sha512_224::digest(b"abc"), Sha512_224::digest(b"ab")]);
    let mut none: [[u8; 32]; 0] = [];
    Sha256::digest_many(&[], &mut none).unwrap();
    Sha512_256::digest_many(&[], &mut none).unwrap();
    // Messages of one length that differ in content give their own digests.
    let mut out = [[0u8; 32]; 2];
    Sha256::digest_many(&m, &mut out).unwrap();
    assert_eq!(out, [Sha256::digest(b"abc"), Sha256::digest(b"abd")]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Distinct messages in random numbers, of one random length (every padding case of
    /// both block sizes) or, with `spread` > 0, of lengths in `len..len + spread` (mixed
    /// block counts, more of them than the batches keep open at once): `digest_many` on
    /// every backend equals one-by-one `digest`.
    #[test]
    fn many_equals_one_by_one(
        len in 0usize..300,
        spread in prop_oneof![Just(0usize), 1usize..700],
        count in 0usize..40,
        seed in any::<u8>(),
    ) {
        let msgs: Vec<Vec<u8>> = (0..count)
            .map(|i| {
                let n = if spread == 0 { len } else { len + (i * 97 + seed as usize) % spread };
                data(n, seed.wrapping_add(i as u8))
            })
            .collect();
        let refs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
        for (stems, b) in many_backends() {
            for stem in stems {
                let got = many_by_stem(stem, b, &refs).expect("backend of the family");
                prop_assert_eq!(got.len(), count);
                for (m, d) in msgs.iter().zip(&got) {
                    prop_assert_eq!(d, &one_by_stem(stem, m), "{} backend {} len {} count {}", stem, b, len, count);
                }
            }
        }
    }
}
