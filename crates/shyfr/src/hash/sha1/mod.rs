//! SHA-1 (FIPS 180-4).
//!
//! SHA-1 is broken for collision resistance (SHAttered, 2017; chosen-prefix collisions,
//! 2020): use it only where a protocol demands it (HMAC-SHA1, legacy formats, Git object
//! names), never for new signatures.
//!
//! The compression function is chosen once, when a state is created, in priority order:
//!
//! | backend        | needs                            | notes |
//! |----------------|----------------------------------|-------|
//! | `x86_shani`    | SHA extensions (+ SSSE3, SSE4.1) | `sha1rnds4`, `sha1nexte` |
//! | `aarch64_sha1` | ARMv8 SHA1 instructions          | `SHA1C`/`P`/`M`/`H`/`SU0`/`SU1` |
//! | `soft`         | nothing                          | portable |
//!
//! On the benchmark machine (AMD Zen 3, 16 KiB messages) `x86_shani` runs at 1.91
//! cycles/byte (20 dependent `sha1rnds4` a block are the limit) and `soft` at 4.5.
//!
//! Every backend runs in time that depends only on the length of the input.
//!
//! ```
//! use shyfr::hash::sha1::Sha1;
//! let d = Sha1::digest(b"abc");
//! assert_eq!(d[..4], [0xa9, 0x99, 0x3e, 0x36]);
//! ```

mod soft;

#[cfg(target_arch = "aarch64")]
mod aarch64_sha1;
#[cfg(target_arch = "x86_64")]
mod x86_shani;

use core::fmt;

use super::sha2::md::BlockBuffer;
use super::Hash;
use crate::Error;

#[cfg(target_arch = "aarch64")]
use crate::cpu::aarch64 as arch_cpu;
#[cfg(target_arch = "x86_64")]
use crate::cpu::x86 as arch_cpu;

/// The SHA-1 initial value (FIPS 180-4, 5.3.1).
const IV: [u32; 5] = [
    0x6745_2301,
    0xefcd_ab89,
    0x98ba_dcfe,
    0x1032_5476,
    0xc3d2_e1f0,
];

/// The four round constants, one per stage of 20 rounds (FIPS 180-4, 4.2.1).
const K: [u32; 4] = [0x5a82_7999, 0x6ed9_eba1, 0x8f1b_bcdc, 0xca62_c1d6];

crate::cpu::backends! {
    /// The implementations of the SHA-1 compression function, fastest first.
    pub enum Backend("sha1"), tokens Kernel {
        /// The x86 SHA extensions (`sha1rnds4`, `sha1nexte`, `sha1msg1`, `sha1msg2`).
        X86ShaNi = "x86_shani" ["x86_64"] arch_cpu::ShaNi,
        /// The ARMv8 SHA1 instructions (aarch64; the `sha2` feature covers them).
        Aarch64Sha1 = "aarch64_sha1" ["aarch64"] arch_cpu::Sha2Ce,
        /// Portable code.
        Soft = "soft",
    }
    self_test = self_test;
}

impl Kernel {
    #[inline]
    fn compress(self, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::X86ShaNi(t) => x86_shani::compress(t, state, blocks),
            #[cfg(target_arch = "aarch64")]
            Kernel::Aarch64Sha1(t) => aarch64_sha1::compress(t, state, blocks),
            Kernel::Soft => soft::compress(state, blocks),
        }
    }
}

/// The known-answer self-test of a hardware backend: its compression of fixed blocks, one
/// at a time and several per call, equals the portable one's.
fn self_test(b: Backend) -> bool {
    super::self_test_blocks::<64, _>(
        IV,
        |st, blocks| Kernel::new(b).map(|e| e.compress(st, blocks)).is_some(),
        soft::compress,
    )
}

/// SHA-1 (FIPS 180-4, 6.1).
///
/// Streaming: [`new`](Self::new), any number of [`update`](Self::update)s (any split of the
/// input gives the same digest), [`finalize`](Self::finalize). `Clone` forks a state,
/// [`reset`](Self::reset) restarts it on the same backend, and
/// [`zeroize`](zeroize::Zeroize::zeroize) overwrites it (leaving a fresh state). No method
/// allocates.
///
/// ```
/// use shyfr::hash::sha1::Sha1;
/// let mut h = Sha1::new();
/// h.update(b"ab");
/// h.update(b"c");
/// assert_eq!(h.finalize(), Sha1::digest(b"abc"));
/// ```
#[derive(Clone)]
pub struct Sha1 {
    state: [u32; 5],
    len: u64,
    buf: BlockBuffer<64>,
    kernel: Kernel,
}

impl Sha1 {
    /// Digest length in bytes.
    pub const OUTPUT_LEN: usize = 20;
    /// Input block length in bytes.
    pub const BLOCK_LEN: usize = 64;

    fn with_kernel(kernel: Kernel) -> Self {
        Sha1 {
            state: IV,
            len: 0,
            buf: BlockBuffer::new(),
            kernel,
        }
    }

    /// A fresh state on the fastest backend available.
    #[inline]
    pub fn new() -> Self {
        Self::with_kernel(Kernel::best())
    }

    /// A fresh state on an explicit backend (for tests and benchmarks);
    /// [`Error::BackendUnavailable`] if this CPU (or `SHYFR_CPU`) does not allow it.
    pub fn with_backend(backend: Backend) -> Result<Self, Error> {
        Kernel::checked(backend).map(Self::with_kernel)
    }

    /// The backend this state uses.
    pub fn backend(&self) -> Backend {
        self.kernel.backend()
    }

    /// Absorbs `data`.
    #[inline]
    pub fn update(&mut self, data: &[u8]) {
        // The length is kept modulo 2^64 bytes; FIPS 180-4 allows less than 2^64 bits.
        self.len = self.len.wrapping_add(data.len() as u64);
        let (state, kernel) = (&mut self.state, self.kernel);
        self.buf
            .update(data, |blocks| kernel.compress(state, blocks));
    }

    /// Finishes and returns the digest.
    pub fn finalize(mut self) -> [u8; 20] {
        let bits = self.len.wrapping_mul(8).to_be_bytes();
        let (state, kernel) = (&mut self.state, self.kernel);
        self.buf
            .finish(&bits, |blocks| kernel.compress(state, blocks));
        let mut out = [0u8; 20];
        for (o, s) in out.as_chunks_mut::<4>().0.iter_mut().zip(self.state) {
            *o = s.to_be_bytes();
        }
        out
    }

    /// Returns to the fresh state, keeping the backend.
    #[inline]
    pub fn reset(&mut self) {
        self.state = IV;
        self.len = 0;
        self.buf.clear();
    }

    /// One-shot digest of `data`.
    #[inline]
    pub fn digest(data: &[u8]) -> [u8; 20] {
        let mut h = Self::new();
        h.update(data);
        h.finalize()
    }
}

impl Default for Sha1 {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Sha1 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sha1")
            .field("backend", &self.backend())
            .finish_non_exhaustive()
    }
}

impl Hash for Sha1 {
    const NAME: &'static str = "sha1";
    const OUTPUT_LEN: usize = 20;
    const BLOCK_LEN: usize = 64;
    type Output = [u8; 20];

    fn new() -> Self {
        Sha1::new()
    }
    fn update(&mut self, data: &[u8]) {
        Sha1::update(self, data)
    }
    fn finalize(self) -> Self::Output {
        Sha1::finalize(self)
    }
    fn reset(&mut self) {
        Sha1::reset(self)
    }
    fn digest(data: &[u8]) -> Self::Output {
        Sha1::digest(data)
    }
}

impl zeroize::Zeroize for Sha1 {
    /// Overwrites the chaining value, the buffered input and the length, then leaves a
    /// fresh state (on the same backend).
    fn zeroize(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.state);
        zeroize::Zeroize::zeroize(&mut self.len);
        self.buf.wipe();
        self.reset();
    }
}
