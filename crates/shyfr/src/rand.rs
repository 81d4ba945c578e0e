//! Randomness: the operating system's generator ([`OsRng`], feature `getrandom`, on by
//! default) and the `rand_core` traits every randomised API takes, so tests and embedded
//! users can inject their own generator.
//!
//! shyfr has no generator of its own: key generation, RSA blinding, PSS salts and OAEP
//! seeds draw from the [`CryptoRng`] they are given.
//!
//! ```
//! # #[cfg(feature = "getrandom")] {
//! use shyfr::rand::{OsRng, Rng};
//! let mut buf = [0u8; 16];
//! OsRng.fill_bytes(&mut buf);
//! # }
//! ```
#![forbid(unsafe_code)]

pub use rand_core::{CryptoRng, Rng, TryCryptoRng, TryRng};

/// The operating system's cryptographic generator, through the `getrandom` crate
/// (`getrandom(2)` on Linux, `BCryptGenRandom` on Windows, ...).
///
/// It implements [`CryptoRng`]. A failure of the operating system's generator (which
/// `getrandom` reports only when no generator exists at all) panics rather than let
/// keys be made from nothing.
#[cfg(feature = "getrandom")]
#[derive(Clone, Copy, Debug, Default)]
pub struct OsRng;

#[cfg(feature = "getrandom")]
impl TryRng for OsRng {
    type Error = core::convert::Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        if let Err(e) = getrandom::fill(dst) {
            panic!("the operating system's random generator failed: {e}");
        }
        Ok(())
    }
}

#[cfg(feature = "getrandom")]
impl TryCryptoRng for OsRng {}
