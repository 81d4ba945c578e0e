//! The authenticated modes of DSTU 7624:2014: GCM and GMAC over GF(2^b) for the three
//! Kalyna block lengths, and CCM.
//!
//! | mode | module | what differs from NIST |
//! |------|--------|------------------------|
//! | GCM | [`gcm::Gcm`] | field GF(2^b) (`b` = 128, 256, 512) with the standard's polynomials, little-endian bits; `H = E(0)`; the keystream is the DSTU gamma of the IV ([`crate::mode::dstu7624::ctr`]); an unaligned last ciphertext block is padded with 0x80 0.. and the length block holds the padded bit length; the tag is `E(GHASH ^ L)`, truncated to 8..=b bytes |
//! | GMAC | [`gcm::Gmac`] | no IV: `E(GHASH(msg padded) ^ L)` |
//! | CCM | [`ccm::Ccm`] | the standard's header block (IV prefix, a little-endian length field of `Nb` bytes, a flags byte) and associated-data block; CBC-MAC over 0x80 0.. padded data; the MAC is encrypted by continuing the gamma after the data |
//!
//! All share the verbs of [`crate::aead`]: `seal_in_place` / `seal_to` return the tag;
//! `open_in_place` / `open_to` check it in constant time before any plaintext is released
//! (GCM) or zero the output on failure (CCM), returning
//! [`Error::AuthenticationFailed`](crate::Error). Tags are
//! [`crate::mode::dstu7624::Tag`] (up to 64 bytes).
//!
//! The partial-block rules of GCM are UAPKI's (the Ukrainian reference library whose tables
//! are the Annex B examples); the standard's examples are all whole blocks, and
//! BouncyCastle zero-pads instead. The counter increment is the gamma mode's (carry over
//! the whole block), where UAPKI increments only the low 64-bit word: the two differ only
//! after the low word of `E(IV)` wraps.

pub mod ccm;
mod field;
#[cfg(target_arch = "x86_64")]
mod field_x86_pclmul;
#[cfg(target_arch = "x86_64")]
mod field_x86_vpclmul;
pub mod gcm;
