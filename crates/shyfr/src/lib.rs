//! # shyfr
//!
//! Cryptographic primitives that use the CPU's crypto instructions when it has them
//! (AES-NI, VAES + AVX-512 on x86-64; the ARMv8 Crypto Extensions on aarch64), chosen at
//! run time, and fall back to portable constant-time code everywhere else.
//!
//! | algorithm | backends, fastest first |
//! |-----------|-------------------------|
//! | AES-128/192/256 ([`aes`]) | `x86_vaes512`, `x86_vaes`, `x86_aesni`, `aarch64_aes`, `soft` |
//! | Kalyna, DSTU 7624:2014 ([`kalyna`]; modes [`mode::dstu7624`], [`aead::dstu7624`]) | `x86_avx512`, `x86_avx2`, `aarch64_neon`, `soft` |
//! | GOST 28147-89 ([`gost28147`]; modes [`mode::gost28147`]) | `x86_avx512`, `x86_avx2`, `aarch64_neon`, `soft` |
//! | DES, TDES ([`des`], legacy) | `x86_avx512`, `x86_avx2`, `aarch64_neon`, `soft` |
//! | modes ([`mode`]: ECB, CBC, CFB, OFB, CTR, XTS, KW/KWP, CMAC), [`pad`] | the block cipher's ([`mode::BlockModes`]); AES has fused CTR/CBC/CFB/OFB/XTS/CBC-MAC kernels per backend |
//! | GHASH ([`aead::ghash`]) for GCM/GMAC; CCM ([`aead`]) | `x86_vpclmul512`, `x86_vpclmul`, `x86_pclmul`, `aarch64_pmull`, `soft` |
//! | AES-GCM ([`aead::aes_gcm`]) | fused engines `fused_vaes512_vpclmul512`, `fused_vaes_vpclmul`, `fused_aesni_pclmul`, `fused_aes_pmull`, else `generic` |
//! | SHA-1, SHA-224/256 ([`hash::sha1`], [`hash::sha2`]) | `x86_shani`, `aarch64_sha1`/`aarch64_sha2`, `soft` |
//! | SHA-384/512, SHA-512/224, SHA-512/256 | `aarch64_sha512`, `x86_avx512`, `x86_avx2`, `soft` |
//! | SHA-3, SHAKE, cSHAKE ([`hash::sha3`]), KMAC ([`mac::kmac`]) | `aarch64_sha3`, `x86_bmi`, `x86_avx512`, `soft` |
//! | GOST 34.311-95 ([`hash::gost34311`]) | GOST 28147-89's |
//! | Kupyna, DSTU 7564:2014 ([`hash::kupyna`]), its KMAC ([`mac::kupyna_kmac`]) | `x86_avx512`, `x86_avx2`, `aarch64_neon`, `soft` |
//! | HMAC ([`mac::hmac`]), HKDF, PBKDF2 ([`kdf`]) | the hash's |
//! | RSA ([`sig::rsa`]: PSS, PKCS#1 v1.5, OAEP), big integers ([`arith::bigint`]) | `x86_ifma`, `x86_adx`, `aarch64`, `soft` |
//!
//! The choice is made when a key is set up and can be steered with the environment
//! variable `SHYFR_CPU` (see [`cpu`]): `SHYFR_CPU=portable` runs only portable code,
//! `SHYFR_CPU=-vaes,-avx512f` masks single features. [`registry::backends`] lists every
//! backend with whether it is available and selected.
//!
//! ## Features
//!
//! * `std` (default): run-time detection through the OS where needed, `SHYFR_CPU`,
//!   `std::error::Error` impls. Without it the crate is `no_std` (+ `alloc` with `alloc`).
//! * `hazmat`: the `hazmat` module, the explicit-backend constructors gathered for tests, benchmarks
//!   and fuzzing.
//! * `parallel`: multi-core bulk paths (ECB, CTR, CBC decryption, XTS over many data units)
//!   with `rayon`, for buffers of at least [`mode::PARALLEL_MIN_LEN`]; the output is
//!   identical to the single-thread one.
//!
//! ```
//! use shyfr::Aes256;
//! let key = [7u8; 32];
//! let aes = Aes256::new(&key);
//! let mut block = [0u8; 16];
//! aes.encrypt_block(&mut block);
//! assert_ne!(block, [0u8; 16]);
//! assert!(Aes256::new_from_slice(&key[..31]).is_err());
//! ```
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

pub mod aead;
pub mod arith;
pub mod block;
pub mod cpu;
pub mod ct;
mod error;
pub mod hash;
#[cfg(feature = "hazmat")]
pub mod hazmat;
mod inout;
pub mod kdf;
pub mod mac;
pub mod mode;
pub mod pad;
pub mod rand;
pub mod registry;
#[cfg(feature = "alloc")]
pub mod selftest;
#[cfg(feature = "alloc")]
pub mod sig;
mod wipe;

pub use block::aes;
pub use block::aes::{Aes, Aes128, Aes192, Aes256};
pub use block::kalyna;
pub use block::BlockCipher;
pub use block::{des, gost28147};
pub use error::Error;

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
