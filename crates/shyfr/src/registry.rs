//! The registry of every algorithm's backends: which exist in this build, which this CPU
//! (after the `SHYFR_CPU` override) can run, and which one a new key would select.
//! `shyfr cpu` prints it, tests iterate over it, and CI checks from it that every backend
//! the machine supports was exercised.
//!
//! This is the top floor of the crate: each family declares its backends with
//! the crate-internal `cpu::backends!` macro (which gives it its rows) and is listed here once; `cpu/` below
//! imports no algorithm.

pub use crate::cpu::BackendStatus;

/// Every backend compiled into this build, grouped by algorithm family, fastest first.
pub fn backends() -> impl Iterator<Item = BackendStatus> {
    crate::block::aes::Backend::registry_rows()
        .chain(crate::aead::ghash::Backend::registry_rows())
        .chain(crate::aead::aes_gcm::registry_rows())
        .chain(crate::hash::sha1::Backend::registry_rows())
        .chain(crate::hash::sha2::Sha256Backend::registry_rows())
        .chain(crate::hash::sha2::Sha256ManyBackend::registry_rows())
        .chain(crate::hash::sha2::Sha512Backend::registry_rows())
        .chain(crate::hash::sha2::Sha512ManyBackend::registry_rows())
        .chain(crate::hash::sha3::Backend::registry_rows())
        .chain(crate::block::gost28147::Backend::registry_rows())
        // GOST 34.311-95 runs its four encryptions per step on the GOST 28147-89 backends.
        .chain(
            crate::block::gost28147::Backend::registry_rows().map(|r| BackendStatus {
                algorithm: "gost34311",
                ..r
            }),
        )
        .chain(crate::block::des::Backend::registry_rows())
        .chain(crate::block::kalyna::Backend::registry_rows())
        .chain(crate::arith::bigint_registry_rows())
        // RSA runs its private and public operations on the big-integer backends.
        .chain(crate::arith::bigint_registry_rows().map(|r| BackendStatus {
            algorithm: "rsa",
            ..r
        }))
        .chain(crate::hash::kupyna::Backend::registry_rows())
}
