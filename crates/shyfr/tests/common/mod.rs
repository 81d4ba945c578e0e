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

/// Parses a CAVP response file into records (blank-line separated `KEY = value` groups).
pub fn read_rsp(rel: &str) -> Vec<Record> {
    let path = testdata(rel);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out = Vec::new();
    let mut section = String::new();
    let mut cur: Option<Record> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            out.extend(cur.take());
            continue;
        }
        if line.starts_with('[') && line.ends_with(']') {
            out.extend(cur.take());
            section = line[1..line.len() - 1].to_string();
            continue;
        }
        if let Some((k, v)) = line.split_once('=') {
            let rec = cur.get_or_insert_with(|| Record {
                section: section.clone(),
                line: i + 1,
                fields: BTreeMap::new(),
            });
            rec.fields
                .insert(k.trim().to_string(), v.trim().to_string());
        }
    }
    out.extend(cur);
    out
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

/// Every AES backend this CPU can run now, each noted as exercised.
pub fn aes_backends() -> Vec<shyfr::aes::Backend> {
    let v: Vec<_> = shyfr::aes::Backend::ALL
        .iter()
        .copied()
        .filter(|b| b.is_available())
        .collect();
    assert!(v.contains(&shyfr::aes::Backend::Soft));
    for b in &v {
        note_exercised("aes", b.name());
    }
    v
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

/// The big-integer backends this CPU can run.
pub fn bigint_backends() -> Vec<shyfr::arith::bigint::Backend> {
    shyfr::arith::bigint::Backend::ALL
        .iter()
        .copied()
        .filter(|b| b.is_available())
        .collect()
}
