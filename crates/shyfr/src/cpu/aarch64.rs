//! aarch64 feature detection and tokens.
//!
//! With `std`, the features come from the operating system (HWCAP on Linux, via
//! `std::arch::is_aarch64_feature_detected!`); without it, from what the build enables.

use super::{Feature, Features};

#[cfg(feature = "std")]
pub(super) fn detect() -> Features {
    use std::arch::is_aarch64_feature_detected as has;
    let mut f = Features::NONE;
    if has!("neon") {
        f = f.with(Feature::Neon);
    }
    // Rust's "aes" covers FEAT_AES and FEAT_PMULL together.
    if has!("aes") {
        f = f.with(Feature::Aes).with(Feature::Pmull);
    }
    if has!("sha2") {
        f = f.with(Feature::Sha2);
    }
    // Rust's "sha3" covers FEAT_SHA3 and FEAT_SHA512 together.
    if has!("sha3") {
        f = f.with(Feature::Sha3).with(Feature::Sha512);
    }
    f
}

#[cfg(not(feature = "std"))]
pub(super) fn detect() -> Features {
    let mut f = Features::NONE;
    if cfg!(target_feature = "neon") {
        f = f.with(Feature::Neon);
    }
    if cfg!(target_feature = "aes") {
        f = f.with(Feature::Aes).with(Feature::Pmull);
    }
    if cfg!(target_feature = "sha2") {
        f = f.with(Feature::Sha2);
    }
    if cfg!(target_feature = "sha3") {
        f = f.with(Feature::Sha3).with(Feature::Sha512);
    }
    f
}

token!(
    /// ARMv8 Crypto Extensions: the AES instructions (with NEON).
    AesCe: [Neon, Aes]
);
token!(
    /// NEON (Advanced SIMD).
    Neon: [Neon]
);
token!(
    /// 64-bit polynomial multiply (`PMULL`), with NEON.
    Pmull: [Neon, Pmull]
);
token!(
    /// SHA-1 and SHA-256 instructions, with NEON.
    Sha2Ce: [Neon, Sha2]
);
token!(
    /// SHA-512 instructions, with NEON.
    Sha512Ce: [Neon, Sha512]
);
token!(
    /// SHA-3 instructions (`EOR3`, `RAX1`, `XAR`, `BCAX`), with NEON.
    Sha3Ce: [Neon, Sha3]
);
