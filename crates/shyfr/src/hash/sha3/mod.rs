//! SHA-3 (FIPS 202): SHA3-224/256/384/512, the SHAKE128/256 extendable-output functions,
//! and cSHAKE128/256 (NIST SP 800-185). KMAC, built on cSHAKE, is in
//! [`mac::kmac`](crate::mac::kmac).
//!
//! All of them are sponges over Keccak-f\[1600\]; the permutation's backend is chosen once,
//! when a state is created, in priority order (on Intel `x86_bmi` before `x86_avx512`):
//!
//! | backend        | needs                                                |
//! |----------------|------------------------------------------------------|
//! | `aarch64_sha3` | ARMv8.2 SHA-3 instructions (FEAT_SHA3)               |
//! | `x86_avx512`   | AVX-512 F, VL, BW (`vpternlogq`, `vprolq`; x86-64)   |
//! | `x86_bmi`      | BMI1 and BMI2 (`andn`, `rorx`; x86-64)               |
//! | `soft`         | nothing (portable)                                   |
//!
//! `x86_avx512` keeps each of the 25 lanes of one state in its own `xmm` register: on AMD
//! Zen 4, SHA3-256 of 16 KiB runs at 5.5 cycles/byte against 6.8 for the scalar `x86_bmi`
//! (`shyfr-bench`, same run; OpenSSL 7.2). On Intel cores, whose vector logic has fewer
//! ports, `x86_bmi` measured faster (Sapphire Rapids class, SHA3-256 16 KiB 5.85 against
//! 6.19-6.38 cycles/byte) and is chosen before `x86_avx512` there. Where many messages are
//! hashed, [`Sha3_256::digest_many`] (and the other `*_many` functions) run
//! eight of one count of whole blocks at a time side by side in the 64-bit lanes of `zmm`
//! registers with the same round code: on Zen 4, 64 messages of 16 KiB at about 1.4 cycles/byte.
//!
//! Every backend is constant time: Keccak has no table look-up, and no branch depends on
//! data (only on lengths).
//!
//! ```
//! use shyfr::hash::sha3::{CShake256, Sha3_256, Shake128};
//! use shyfr::hash::XofReader;
//!
//! let d = Sha3_256::digest(b"abc");
//! assert_eq!(d[..4], [0x3a, 0x98, 0x5d, 0xa7]);
//!
//! let mut x = Shake128::new();
//! x.update(b"abc");
//! let mut out = [0u8; 40];
//! x.finalize_xof().read(&mut out);
//!
//! // cSHAKE with empty N and S is SHAKE.
//! let mut c = CShake256::new(b"", b"my protocol v1");
//! c.update(b"abc");
//! c.finalize_xof().read(&mut out);
//! ```

mod consts;
mod keccak;
mod soft;

#[cfg(target_arch = "aarch64")]
mod aarch64_sha3;
#[cfg(target_arch = "x86_64")]
mod x86_avx512;
#[cfg(target_arch = "x86_64")]
mod x86_bmi;

use core::fmt;

use crate::Error;

use super::{check_many, Hash, XofReader};
pub use keccak::Backend;
use keccak::{Kernel, Sponge};

pub(crate) use keccak::right_encode;

/// Keccak-f\[1600\] (FIPS 202, 3.3) on a state of 25 lanes, `state[x + 5 * y]`, with the
/// fastest backend available. Bytes of the FIPS 202 state string map to lanes
/// little-endian (byte `i` is in lane `i / 8`).
pub fn keccak_f1600(state: &mut [u64; 25]) {
    Kernel::best().permute(state);
}

/// [`keccak_f1600`] with an explicit backend (for tests and benchmarks); an error if the
/// backend is not available here.
pub fn keccak_f1600_with(backend: Backend, state: &mut [u64; 25]) -> Result<(), Error> {
    Kernel::checked(backend)?.permute(state);
    Ok(())
}

/// Domain suffixes with the first padding bit (FIPS 202 B.2; SP 800-185 3.3).
const DOMAIN_SHA3: u8 = 0x06;
const DOMAIN_SHAKE: u8 = 0x1f;
const DOMAIN_CSHAKE: u8 = 0x04;

macro_rules! sha3_hash {
    ($(#[$m:meta])* $name:ident, $label:expr, $out:expr) => {
        $(#[$m])*
        #[derive(Clone)]
        pub struct $name {
            sponge: Sponge,
        }

        impl $name {
            /// Rate in bytes: `200 - 2 * OUTPUT_LEN`.
            const RATE: usize = 200 - 2 * $out;

            /// A fresh state on the fastest backend available.
            pub fn new() -> Self {
                $name {
                    sponge: Sponge::new(Kernel::best(), Self::RATE, DOMAIN_SHA3),
                }
            }

            /// A fresh state with an explicit backend (for tests and benchmarks); an error
            /// if the backend is not available here.
            pub fn with_backend(backend: Backend) -> Result<Self, Error> {
                Ok($name {
                    sponge: Sponge::new(Kernel::checked(backend)?, Self::RATE, DOMAIN_SHA3),
                })
            }

            /// The backend this state uses.
            pub fn backend(&self) -> Backend {
                self.sponge.kernel().backend()
            }

            /// Absorbs `data`.
            #[inline]
            pub fn update(&mut self, data: &[u8]) {
                self.sponge.absorb(data);
            }

            /// Finishes and returns the digest.
            pub fn finalize(mut self) -> [u8; $out] {
                let mut out = [0u8; $out];
                self.sponge.finish();
                self.sponge.squeeze(&mut out);
                out
            }

            /// Returns to the fresh state (keeping the backend).
            pub fn reset(&mut self) {
                self.sponge.reset();
            }

            /// One-shot digest of `data`.
            pub fn digest(data: &[u8]) -> [u8; $out] {
                let mut h = Self::new();
                h.update(data);
                h.finalize()
            }

            /// The digest of each of `messages` (of any lengths) into `digests`
            /// (one per message). With the `x86_avx512` backend eight messages with one
            /// count of whole blocks (for instance of one length) are hashed at a time, one
            /// in each 64-bit lane of the vector registers, several times faster than one
            /// by one; the messages are gathered by that count whatever their order, a few
            /// counts at a time, and those left over, like all messages on other backends,
            /// are hashed one by one.
            ///
            /// [`Error::LengthMismatch`] if `digests` is not as long as `messages`.
            pub fn digest_many(messages: &[&[u8]], digests: &mut [[u8; $out]]) -> Result<(), Error> {
                Self::many(Kernel::best_many(), messages, digests)
            }

            /// [`digest_many`](Self::digest_many) on an explicit backend (for tests and
            /// benchmarks); [`Error::BackendUnavailable`] if it is not available here.
            pub fn digest_many_with_backend(
                backend: Backend,
                messages: &[&[u8]],
                digests: &mut [[u8; $out]],
            ) -> Result<(), Error> {
                Self::many(Kernel::checked(backend)?, messages, digests)
            }

            fn many(kernel: Kernel, messages: &[&[u8]], digests: &mut [[u8; $out]]) -> Result<(), Error> {
                check_many(messages, digests.len())?;
                keccak::sponge_many(
                    kernel,
                    Self::RATE,
                    DOMAIN_SHA3,
                    messages,
                    $out,
                    digests.as_flattened_mut(),
                );
                Ok(())
            }
        }

        default_and_debug!($name);

        impl Hash for $name {
            const NAME: &'static str = $label;
            const OUTPUT_LEN: usize = $out;
            const BLOCK_LEN: usize = Self::RATE;
            type Output = [u8; $out];

            fn new() -> Self {
                $name::new()
            }

            #[inline]
            fn update(&mut self, data: &[u8]) {
                $name::update(self, data);
            }

            fn finalize(self) -> Self::Output {
                $name::finalize(self)
            }

            fn reset(&mut self) {
                $name::reset(self);
            }

            fn digest(data: &[u8]) -> Self::Output {
                $name::digest(data)
            }
        }
    };
}

sha3_hash!(
    /// SHA3-224 (FIPS 202, 6.1): 28-byte digest, 144-byte rate.
    Sha3_224, "sha3-224", 28
);
sha3_hash!(
    /// SHA3-256 (FIPS 202, 6.1): 32-byte digest, 136-byte rate.
    Sha3_256, "sha3-256", 32
);
sha3_hash!(
    /// SHA3-384 (FIPS 202, 6.1): 48-byte digest, 104-byte rate.
    Sha3_384, "sha3-384", 48
);
sha3_hash!(
    /// SHA3-512 (FIPS 202, 6.1): 64-byte digest, 72-byte rate.
    Sha3_512, "sha3-512", 64
);

/// The output stream of SHAKE, cSHAKE and KMACXOF, returned by `finalize_xof`. Successive
/// [`read`](XofReader::read)s continue the same stream. Zeroed on drop.
#[derive(Clone)]
pub struct ShakeReader {
    sponge: Sponge,
}

impl ShakeReader {
    pub(crate) fn from_sponge(mut sponge: Sponge) -> ShakeReader {
        sponge.finish();
        ShakeReader { sponge }
    }
}

impl XofReader for ShakeReader {
    #[inline]
    fn read(&mut self, out: &mut [u8]) {
        self.sponge.squeeze(out);
    }
}

impl fmt::Debug for ShakeReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ShakeReader")
            .field("backend", &self.sponge.kernel().backend())
            .finish_non_exhaustive()
    }
}

/// The `Debug` impl (naming the backend) and the [`Xof`](crate::hash::Xof) impl of an extendable-output type
/// with inherent `update`, `finalize_xof` (to a [`ShakeReader`]) and `backend`.
macro_rules! xof_impls {
    ($name:ident) => {
        crate::hash::debug_with_backend!($name);

        impl $crate::hash::Xof for $name {
            type Reader = $crate::hash::sha3::ShakeReader;

            #[inline]
            fn update(&mut self, data: &[u8]) {
                $name::update(self, data);
            }

            fn finalize_xof(self) -> $crate::hash::sha3::ShakeReader {
                $name::finalize_xof(self)
            }
        }
    };
}
pub(crate) use xof_impls;

macro_rules! shake {
    ($(#[$m:meta])* $name:ident, $label:expr, $rate:expr) => {
        $(#[$m])*
        #[derive(Clone)]
        pub struct $name {
            sponge: Sponge,
        }

        impl $name {
            /// Name in `shyfr hash` and `shyfr speed`.
            pub const NAME: &'static str = $label;
            /// Rate in bytes.
            pub const RATE: usize = $rate;

            /// A fresh state on the fastest backend available.
            pub fn new() -> Self {
                $name {
                    sponge: Sponge::new(Kernel::best(), $rate, DOMAIN_SHAKE),
                }
            }

            /// A fresh state with an explicit backend (for tests and benchmarks); an error
            /// if the backend is not available here.
            pub fn with_backend(backend: Backend) -> Result<Self, Error> {
                Ok($name {
                    sponge: Sponge::new(Kernel::checked(backend)?, $rate, DOMAIN_SHAKE),
                })
            }

            /// The backend this state uses.
            pub fn backend(&self) -> Backend {
                self.sponge.kernel().backend()
            }

            /// Returns to the fresh state (keeping the backend).
            pub fn reset(&mut self) {
                self.sponge.reset();
            }

            /// Absorbs `data`.
            #[inline]
            pub fn update(&mut self, data: &[u8]) {
                self.sponge.absorb(data);
            }

            /// Ends absorbing; output is then read from the reader.
            pub fn finalize_xof(self) -> ShakeReader {
                ShakeReader::from_sponge(self.sponge)
            }

            /// One-shot: absorbs `data` and fills `out` with the first `out.len()` output
            /// bytes.
            pub fn digest_into(data: &[u8], out: &mut [u8]) {
                let mut x = Self::new();
                x.update(data);
                x.finalize_xof().read(out);
            }

            /// For each of `messages` (of any lengths), the first `out_len` output
            /// bytes, into consecutive `out_len`-byte pieces of `out`
            /// (`out.len() == messages.len() * out_len`). With the `x86_avx512` backend
            /// eight messages with one count of whole blocks are processed at a time, one
            /// in each 64-bit lane of the vector registers (gathered as for `digest_many`);
            /// other backends process them one by one.
            ///
            /// [`Error::LengthMismatch`] if `out` has the wrong length.
            pub fn digest_many_into(
                messages: &[&[u8]],
                out_len: usize,
                out: &mut [u8],
            ) -> Result<(), Error> {
                Self::many(Kernel::best_many(), messages, out_len, out)
            }

            /// [`digest_many_into`](Self::digest_many_into) on an explicit backend (for
            /// tests and benchmarks); [`Error::BackendUnavailable`] if it is not available
            /// here.
            pub fn digest_many_into_with_backend(
                backend: Backend,
                messages: &[&[u8]],
                out_len: usize,
                out: &mut [u8],
            ) -> Result<(), Error> {
                Self::many(Kernel::checked(backend)?, messages, out_len, out)
            }

            fn many(
                kernel: Kernel,
                messages: &[&[u8]],
                out_len: usize,
                out: &mut [u8],
            ) -> Result<(), Error> {
                let want = messages.len().checked_mul(out_len);
                if want != Some(out.len()) {
                    return Err(Error::LengthMismatch {
                        input: want.unwrap_or(usize::MAX),
                        output: out.len(),
                    });
                }
                check_many(messages, messages.len())?;
                keccak::sponge_many(kernel, $rate, DOMAIN_SHAKE, messages, out_len, out);
                Ok(())
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        xof_impls!($name);
    };
}

shake!(
    /// SHAKE128 (FIPS 202, 6.2): 168-byte rate, up to 128-bit security.
    Shake128, "shake128", 168
);
shake!(
    /// SHAKE256 (FIPS 202, 6.2): 136-byte rate, up to 256-bit security.
    Shake256, "shake256", 136
);

/// Creates the sponge of cSHAKE (SP 800-185, 3.3) after its prefix
/// `bytepad(encode_string(N) || encode_string(S), rate)`; with `N` and `S` both empty it is
/// plain SHAKE, as the standard defines.
pub(crate) fn cshake_sponge(
    kernel: Kernel,
    rate: usize,
    function_name: &[u8],
    customization: &[u8],
) -> Sponge {
    if function_name.is_empty() && customization.is_empty() {
        return Sponge::new(kernel, rate, DOMAIN_SHAKE);
    }
    let mut s = Sponge::new(kernel, rate, DOMAIN_CSHAKE);
    s.absorb_bytepad_strings(&[function_name, customization]);
    s
}

/// The keyed sponge shared by KMAC: cSHAKE with `N = "KMAC"` and customization `S`, after
/// `bytepad(encode_string(K), rate)` (SP 800-185, 4.3).
pub(crate) fn kmac_sponge(kernel: Kernel, rate: usize, key: &[u8], customization: &[u8]) -> Sponge {
    let mut s = cshake_sponge(kernel, rate, b"KMAC", customization);
    s.absorb_bytepad_strings(&[key]);
    s
}

pub(crate) use keccak::Kernel as KeccakKernel;
pub(crate) use keccak::Sponge as KeccakSpongeState;

macro_rules! cshake {
    ($(#[$m:meta])* $name:ident, $label:expr, $rate:expr) => {
        $(#[$m])*
        ///
        /// `N` is the function name (reserved for NIST-defined functions; leave it empty
        /// otherwise) and `S` the customization string; any lengths are allowed. With both
        /// empty, the output is that of SHAKE.
        #[derive(Clone)]
        pub struct $name {
            sponge: Sponge,
            /// The state right after the prefix, for [`reset`](Self::reset).
            start: Sponge,
        }

        impl $name {
            /// Name in `shyfr hash` and `shyfr speed`.
            pub const NAME: &'static str = $label;
            /// Rate in bytes.
            pub const RATE: usize = $rate;

            /// A state for function name `function_name` (N) and customization
            /// `customization` (S), on the fastest backend available.
            pub fn new(function_name: &[u8], customization: &[u8]) -> Self {
                Self::from_kernel(Kernel::best(), function_name, customization)
            }

            /// [`new`](Self::new) with an explicit backend (for tests and benchmarks); an
            /// error if the backend is not available here.
            pub fn with_backend(
                function_name: &[u8],
                customization: &[u8],
                backend: Backend,
            ) -> Result<Self, Error> {
                Ok(Self::from_kernel(Kernel::checked(backend)?, function_name, customization))
            }

            fn from_kernel(kernel: Kernel, function_name: &[u8], customization: &[u8]) -> Self {
                let start = cshake_sponge(kernel, $rate, function_name, customization);
                $name {
                    sponge: start.clone(),
                    start,
                }
            }

            /// The backend this state uses.
            pub fn backend(&self) -> Backend {
                self.sponge.kernel().backend()
            }

            /// Returns to the state right after `N` and `S` were absorbed (keeping the
            /// backend).
            pub fn reset(&mut self) {
                self.sponge = self.start.clone();
            }

            /// Absorbs `data`.
            #[inline]
            pub fn update(&mut self, data: &[u8]) {
                self.sponge.absorb(data);
            }

            /// Ends absorbing; output is then read from the reader.
            pub fn finalize_xof(self) -> ShakeReader {
                ShakeReader::from_sponge(self.sponge)
            }
        }

        xof_impls!($name);
    };
}

cshake!(
    /// cSHAKE128 (NIST SP 800-185, 3): customizable SHAKE128.
    CShake128, "cshake128", 168
);
cshake!(
    /// cSHAKE256 (NIST SP 800-185, 3): customizable SHAKE256.
    CShake256, "cshake256", 136
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_tests_pass() {
        for &b in Backend::ALL {
            if b.cpu_allows() {
                assert!(b.self_test(), "{b:?} failed its self-test");
                assert!(b.is_available());
            }
        }
    }
}
