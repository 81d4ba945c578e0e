//! Key derivation: HKDF (RFC 5869), PBKDF2 (RFC 8018).

pub mod hkdf;
pub mod pbkdf2;
