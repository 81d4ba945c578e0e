//! Shuffles of whole lanes between registers, shared by the kernels that keep several
//! blocks or messages side by side (Kalyna's byte-sliced batches, the SHA-2 and Keccak
//! multi-message kernels): transposes of 64-bit words and of 128-bit lanes, one file per
//! instruction set.
//!
//! | file | instructions | what |
//! |------|--------------|------|
//! | `x86_avx512.rs` | AVX-512 F | 4 x 4 transpose of 128-bit lanes, 8 x 8 transpose of 64-bit words |
//!
//! The shuffles move whole lanes by positions fixed at compile time: constant time.

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_avx512;
