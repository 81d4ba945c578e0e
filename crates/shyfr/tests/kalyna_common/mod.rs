//! Shared helpers of the Kalyna tests: the vector files and the backend loop.
#![allow(dead_code)]

use shyfr::kalyna::{Backend, Kalyna};

/// The vectors of `testdata/kalyna/<file>`, with the file's declared count checked.
pub fn vectors(file: &str) -> Vec<serde_json::Value> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/kalyna")
        .join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["vectors"].as_array().expect("vectors").clone()
}

/// Hex field of a vector.
pub fn hx(v: &serde_json::Value, field: &str) -> Vec<u8> {
    hex::decode(
        v[field]
            .as_str()
            .unwrap_or_else(|| panic!("vector {} has no {field}", v["id"])),
    )
    .unwrap_or_else(|e| panic!("vector {}: bad hex in {field}: {e}", v["id"]))
}

/// Unsigned field of a vector.
pub fn num(v: &serde_json::Value, field: &str) -> usize {
    v[field]
        .as_u64()
        .unwrap_or_else(|| panic!("vector {} has no {field}", v["id"])) as usize
}

/// Every Kalyna backend this CPU can run now (not yet noted as exercised: call
/// `common::note_exercised("kalyna", ..)` after a backend's vectors passed).
pub fn backends() -> Vec<Backend> {
    // Fails if a backend the CPU supports is missing (a failed self-test).
    crate::common::backends()
}

/// The cipher of a vector under `backend`.
pub fn cipher(v: &serde_json::Value, backend: Backend) -> Kalyna {
    Kalyna::with_backend(num(v, "block_bits"), &hx(v, "key"), backend)
        .unwrap_or_else(|e| panic!("vector {}: {e}", v["id"]))
}
