//! Hazardous materials: explicit backend choice, for tests, benchmarks and fuzzing.
//!
//! Everything here is also reachable through the normal types (`Aes::with_backend`,
//! `Sha256::with_backend`, ...); this module gathers the backend enums under one name so
//! code that pins a backend says so.

pub use crate::aead::ghash::Backend as GhashBackend;
#[cfg(feature = "alloc")]
pub use crate::arith::bigint::Backend as BigintBackend;
pub use crate::block::aes::Backend as AesBackend;
pub use crate::block::kalyna::Backend as KalynaBackend;
pub use crate::block::{des::Backend as DesBackend, gost28147::Backend as Gost28147Backend};
pub use crate::hash::kupyna::Backend as KupynaBackend;
pub use crate::hash::sha1::Backend as Sha1Backend;
pub use crate::hash::sha2::{Sha256Backend, Sha256ManyBackend, Sha512Backend, Sha512ManyBackend};
pub use crate::hash::sha3::Backend as KeccakBackend;

/// The AES backends available on this CPU now (after the `SHYFR_CPU` override).
pub fn aes_backends() -> impl Iterator<Item = AesBackend> {
    AesBackend::ALL.iter().copied().filter(|b| b.is_available())
}
