//! Shared test helpers: a reader for NIST CAVP `.rsp` files and the backend loop.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

/// Path of a file under the repository's `testdata/`.
pub fn testdata(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(rel)
}

/// One record of a `.rsp` file: its section (e.g. `ENCRYPT`), its line number and fields.
#[derive(Debug)]
pub struct Record {
    pub section: String,
    pub line: usize,
    pub fields: BTreeMap<String, String>,
}

impl Record {
    /// Hex-decodes a field; panics naming the record when it is missing.
    pub fn hex(&self, name: &str) -> Vec<u8> {
        let v = self
            .fields
            .get(name)
            .unwrap_or_else(|| panic!("record at line {} has no {name}", self.line));
        hex::decode(v).unwrap_or_else(|e| panic!("line {}: bad hex in {name}: {e}", self.line))
    }
}

/// One meaningful line of a CAVP response file (comments dropped).
#[derive(Debug)]
pub enum RspLine {
    /// An empty line: the end of a record.
    Blank,
    /// `[text]`: a section header, without its brackets.
    Section(String),
    /// `KEY = value`, both trimmed.
    Field(String, String),
    /// Any other line, trimmed.
    Other(String),
}

/// Reads `testdata/REL` as CAVP lines, each with its line number (1-based).
pub fn rsp_lines(rel: &str) -> Vec<(usize, RspLine)> {
    let path = testdata(rel);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let item = if line.starts_with('#') {
            continue;
        } else if line.is_empty() {
            RspLine::Blank
        } else if line.starts_with('[') && line.ends_with(']') {
            RspLine::Section(line[1..line.len() - 1].to_string())
        } else if let Some((k, v)) = line.split_once('=') {
            RspLine::Field(k.trim().to_string(), v.trim().to_string())
        } else {
            RspLine::Other(line.to_string())
        };
        out.push((i + 1, item));
    }
    out
}

/// Parses a CAVP response file into records (blank-line separated `KEY = value` groups).
pub fn read_rsp(rel: &str) -> Vec<Record> {
    let mut out = Vec::new();
    let mut section = String::new();
    let mut cur: Option<Record> = None;
    for (line, item) in rsp_lines(rel) {
        match item {
            RspLine::Blank => out.extend(cur.take()),
            RspLine::Section(s) => {
                out.extend(cur.take());
                section = s;
            }
            RspLine::Field(k, v) => {
                let rec = cur.get_or_insert_with(|| Record {
                    section: section.clone(),
                    line,
                    fields: BTreeMap::new(),
                });
                rec.fields.insert(k, v);
            }
            RspLine::Other(_) => {}
        }
    }
    out.extend(cur);
    out
}

/// The Monte Carlo files of SHAVS / SHA3VS: the `Seed` and the 100 checkpoint records
/// (those with a `COUNT`), in order.
pub fn monte_records(recs: &[Record]) -> (Vec<u8>, Vec<&Record>) {
    let seed = recs
        .iter()
        .find(|r| r.fields.contains_key("Seed"))
        .expect("Seed record")
        .hex("Seed");
    let checks: Vec<_> = recs
        .iter()
        .filter(|r| r.fields.contains_key("COUNT"))
        .collect();
    assert_eq!(checks.len(), 100);
    (seed, checks)
}

/// `msg` cut into consecutive pieces at the lengths `cuts` (each clamped to what is left),
/// then the rest: the pieces always join back to `msg`.
pub fn cut_pieces<'a>(msg: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut pieces = Vec::new();
    let mut rest = msg;
    for &c in cuts {
        let c = c.min(rest.len());
        pieces.push(&rest[..c]);
        rest = &rest[c..];
    }
    pieces.push(rest);
    pieces
}

/// A deterministic test message of `len` bytes, different for each `seed`.
pub fn data(len: usize, seed: u8) -> Vec<u8> {
    data_with(len, seed, 31)
}

/// [`data`] with another odd multiplier `mul` (each test file keeps the one it was written
/// with, so recorded failures stay reproducible).
pub fn data_with(len: usize, seed: u8, mul: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(mul).wrapping_add(seed) ^ (i >> 8) as u8)
        .collect()
}

/// Messages for property tests: a length from `edges` (block boundaries) or any length
/// below 2 KiB.
pub fn edge_message(edges: &'static [usize]) -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    prop_oneof![
        prop::sample::select(edges).prop_flat_map(|n| prop::collection::vec(any::<u8>(), n)),
        prop::collection::vec(any::<u8>(), 0..2048),
    ]
}

/// Random AES keys of every length (16, 24 or 32 bytes), for property tests.
pub fn aes_key() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    prop::sample::select(vec![16usize, 24, 32])
        .prop_flat_map(|n| prop::collection::vec(any::<u8>(), n))
}

/// A SHAVS message record (byte-oriented): the message (`Len` bits of `Msg`; `Len = 0` is
/// the empty message, written `Msg = 00`), the digest `MD`, and where it is for messages.
pub fn shavs_msg(r: &Record, file: &str) -> (Vec<u8>, Vec<u8>, String) {
    let bits: usize = r.fields["Len"].parse().unwrap();
    assert_eq!(bits % 8, 0, "{file} line {}: not byte-oriented", r.line);
    let msg = r.hex("Msg")[..bits / 8].to_vec();
    let at = format!("{file} line {} ({} bytes)", r.line, bits / 8);
    (msg, r.hex("MD"), at)
}

/// A block cipher with 8-byte blocks that does nothing: for checking that modes which need
/// 16-byte (or other) blocks refuse it.
pub struct Toy8;

impl shyfr::mode::BlockModes for Toy8 {}

impl shyfr::BlockCipher for Toy8 {
    const BLOCK_LEN: usize = 8;
    fn encrypt_blocks(&self, _: &mut [u8]) -> Result<(), shyfr::Error> {
        Ok(())
    }
    fn decrypt_blocks(&self, _: &mut [u8]) -> Result<(), shyfr::Error> {
        Ok(())
    }
    fn encrypt_blocks_to(&self, _: &[u8], _: &mut [u8]) -> Result<(), shyfr::Error> {
        Ok(())
    }
    fn decrypt_blocks_to(&self, _: &[u8], _: &mut [u8]) -> Result<(), shyfr::Error> {
        Ok(())
    }
}

/// Records that `backend` of `algorithm` was exercised, in the file named by the
/// environment variable `SHYFR_EXERCISED` (CI checks that every backend the CPU supports
/// shows up there).
pub fn note_exercised(algorithm: &str, backend: &str) {
    if let Ok(path) = std::env::var("SHYFR_EXERCISED") {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("open SHYFR_EXERCISED file");
        // One write per line: appends of a single write(2) do not interleave between the
        // test threads, while `writeln!` may split a line into several writes.
        f.write_all(format!("{algorithm} {backend}\n").as_bytes())
            .unwrap();
    }
}

/// A family's backend enum, as the tests use it: every family's `Backend` (declared with
/// the library's `backends!`) has these, under the registry's family name.
pub trait Family: Copy + PartialEq + std::fmt::Debug + 'static {
    /// The family's name in the registry (`shyfr cpu`), e.g. `"aes"`.
    const FAMILY: &'static str;
    /// The portable backend, always available.
    const SOFT: Self;
    /// Every backend compiled in, fastest first.
    fn all() -> &'static [Self];
    /// The backend's registry name.
    fn name(self) -> &'static str;
    /// The CPU features the backend needs.
    fn needs(self) -> &'static [shyfr::cpu::Feature];
    /// Whether the CPU (after `SHYFR_CPU`) has the backend's features.
    fn cpu_allows(self) -> bool;
    /// Whether the backend can be used (features present and self-test passed).
    fn is_available(self) -> bool;
}

macro_rules! family {
    ($($t:ty => $fam:literal),* $(,)?) => {$(
        impl Family for $t {
            const FAMILY: &'static str = $fam;
            const SOFT: Self = <$t>::Soft;
            fn all() -> &'static [Self] {
                <$t>::ALL
            }
            fn name(self) -> &'static str {
                <$t>::name(self)
            }
            fn needs(self) -> &'static [shyfr::cpu::Feature] {
                <$t>::needs(self)
            }
            fn cpu_allows(self) -> bool {
                <$t>::cpu_allows(self)
            }
            fn is_available(self) -> bool {
                <$t>::is_available(self)
            }
        }
    )*};
}

family! {
    shyfr::aes::Backend => "aes",
    shyfr::aead::ghash::Backend => "ghash",
    shyfr::hash::sha1::Backend => "sha1",
    shyfr::hash::sha2::Sha256Backend => "sha256",
    shyfr::hash::sha2::Sha256ManyBackend => "sha256-many",
    shyfr::hash::sha2::Sha512Backend => "sha512",
    shyfr::hash::sha2::Sha512ManyBackend => "sha512-many",
    shyfr::hash::sha3::Backend => "keccak",
    shyfr::gost28147::Backend => "gost28147",
    shyfr::des::Backend => "des",
    shyfr::kalyna::Backend => "kalyna",
    shyfr::arith::bigint::Backend => "bigint",
    shyfr::hash::kupyna::Backend => "kupyna",
}

/// Every backend of `B` this CPU can run now, fastest first, with `soft` among them.
///
/// A backend whose CPU features are present (after `SHYFR_CPU`) but that is not available
/// has failed its one-time self-test: that is a test failure here, never a backend quietly
/// left out of the list. Nothing is noted as exercised: call [`passed`] once a backend's
/// vectors have passed on it.
pub fn backends<B: Family>() -> Vec<B> {
    // No `with_features` of another test changes the override while the list is made.
    let _lock = OVERRIDE.lock().unwrap_or_else(|e| e.into_inner());
    let mut v = Vec::new();
    for &b in B::all() {
        let (cpu, available) = allows_and_available(|| b.cpu_allows(), || b.is_available());
        assert_eq!(
            available,
            cpu,
            "{} backend {}: the CPU allows it: {cpu}, available: {available} \
             (a backend the CPU supports failed its self-test)",
            B::FAMILY,
            b.name()
        );
        if available {
            v.push(b);
        }
    }
    assert!(v.contains(&B::SOFT), "{}: soft is not listed", B::FAMILY);
    v
}

/// `(cpu_allows, is_available)` of one backend from one state of the override: another
/// test of the same binary may change it meanwhile ([`with_features`]), so the pair is read
/// again until `cpu_allows` is the same before and after (a self-test failure is then a
/// failure, not a race).
pub fn allows_and_available(
    allows: impl Fn() -> bool,
    available: impl Fn() -> bool,
) -> (bool, bool) {
    loop {
        let before = allows();
        let avail = available();
        if allows() == before {
            return (before, avail);
        }
    }
}

/// Notes `b` as exercised (see [`note_exercised`]); call it after `b`'s vectors passed.
pub fn passed<B: Family>(b: B) {
    note_exercised(B::FAMILY, b.name());
}

/// Serializes [`with_features`]: the override it sets is process-wide.
static OVERRIDE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs `f` with only the CPU features `needs` enabled (through
/// `shyfr::cpu::set_override`), so that keys and hash states set up inside `f` choose the
/// backend that needs exactly those (for code that has no explicit-backend constructor,
/// such as HMAC over a hash); then enables again what was enabled before, also if `f`
/// panics. Calls are serialized; other tests of the same binary running meanwhile may get
/// a different (equally correct) backend for their own keys.
pub fn with_features<R>(needs: &[shyfr::cpu::Feature], f: impl FnOnce() -> R) -> R {
    struct Restore(String);
    impl Drop for Restore {
        fn drop(&mut self) {
            shyfr::cpu::set_override(&self.0).expect("restore the override");
        }
    }
    let _lock = OVERRIDE.lock().unwrap_or_else(|e| e.into_inner());
    let before = shyfr::cpu::enabled();
    let spec = |fs: &mut dyn Iterator<Item = shyfr::cpu::Feature>| {
        std::iter::once("portable".to_string())
            .chain(fs.map(|f| format!("+{}", f.name())))
            .collect::<Vec<_>>()
            .join(",")
    };
    let _restore = Restore(spec(&mut before.iter()));
    let now = shyfr::cpu::set_override(&spec(&mut needs.iter().copied())).expect("spec");
    assert!(now.has_all(needs), "features {needs:?} not all enabled");
    f()
}

/// Every AES backend this CPU can run now (see [`backends`]; not noted as exercised).
pub fn aes_backends() -> Vec<shyfr::aes::Backend> {
    backends()
}

/// A Wycheproof test file from `testdata/wycheproof/`, parsed.
pub fn wycheproof(file: &str) -> serde_json::Value {
    let path = testdata(&format!("wycheproof/{file}"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every test of a Wycheproof file with its group: `(group, test)` pairs.
pub fn wycheproof_tests(file: &str) -> Vec<(serde_json::Value, serde_json::Value)> {
    let v = wycheproof(file);
    let mut out = Vec::new();
    for g in v["testGroups"].as_array().expect("testGroups") {
        for t in g["tests"].as_array().expect("tests") {
            out.push((g.clone(), t.clone()));
        }
    }
    assert_eq!(
        out.len() as u64,
        v["numberOfTests"].as_u64().expect("numberOfTests"),
        "{file}: test count"
    );
    out
}

/// Hex-decodes a string field of a Wycheproof test.
pub fn wy_hex(t: &serde_json::Value, field: &str) -> Vec<u8> {
    hex::decode(
        t[field]
            .as_str()
            .unwrap_or_else(|| panic!("no field {field}")),
    )
    .unwrap_or_else(|e| panic!("bad hex in {field}: {e}"))
}

/// A deterministic generator for tests (SplitMix64); never for keys.
pub struct TestRng(pub u64);

impl shyfr::rand::TryRng for TestRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.try_next_u64()? as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Ok(z ^ (z >> 31))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for c in dst.chunks_mut(8) {
            let v = self.try_next_u64()?.to_le_bytes();
            c.copy_from_slice(&v[..c.len()]);
        }
        Ok(())
    }
}
impl shyfr::rand::TryCryptoRng for TestRng {}

/// The big-integer backends this CPU can run (see [`backends`]: one whose CPU features are
/// present but whose self-test failed is a test failure, not a backend left out).
pub fn bigint_backends() -> Vec<shyfr::arith::bigint::Backend> {
    backends::<shyfr::arith::bigint::Backend>()
}
