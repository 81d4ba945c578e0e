//! Hazardous materials: explicit backend choice, for tests, benchmarks and fuzzing.
//!
//! Everything here is also reachable through the normal types (`Aes::with_backend`); this
//! module gathers it under one name so code that pins a backend says so.

pub use crate::block::aes::Backend as AesBackend;

/// The AES backends available on this CPU now (after the `SHYFR_CPU` override).
pub fn aes_backends() -> impl Iterator<Item = AesBackend> {
    AesBackend::ALL.iter().copied().filter(|b| b.is_available())
}
