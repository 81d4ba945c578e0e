//! GOST 34.311-95 (the Ukrainian re-adoption of GOST R 34.11-94): a 256-bit hash built on
//! GOST 28147-89, with the S-box and the starting hash value as parameters.
//!
//! Each 32-byte message block `M` (little-endian 256-bit value, as in every library the
//! test vectors come from) updates the chaining value `H`: four GOST 28147-89 keys are
//! derived from `H` and `M`, the four 64-bit parts of `H` are encrypted one under each,
//! and the result `S` is mixed with `M` and `H` by the linear `psi` transformation. A last
//! partial block is padded with zero bytes; then the message length in bits and the
//! 256-bit sum of all blocks are hashed in as two more blocks. The digest is `H` as 32
//! little-endian bytes (the standard prints it as a big-endian number, byte-reversed).
//!
//! The four encryptions of a step are independent: they run side by side, one per
//! 32-bit lane of a vector register, on the GOST 28147-89 backend chosen when the state is
//! created (see [`crate::gost28147::Backend`]): `x86_avx512`, `x86_avx2`, `aarch64_neon`
//! or the portable `soft`. Key generation and the `psi` mixing are portable 64-bit code;
//! the part of the mixing that does not depend on the encryptions is computed before
//! them (see `soft.rs`). Everything is constant time: the encryptions as in
//! GOST 28147-89, the rest branch-free with no data-dependent memory index.
//!
//! The S-box defaults to DKE No. 1 ([`Sbox::DKE1`], the Ukrainian default) and the
//! starting hash value to zero; [`Gost34311::with_params`] takes others (the test S-box
//! of the standard's Annex A is [`Sbox::TEST`]). [`Hash`] is implemented with the
//! defaults, so `Hmac<Gost34311>` ([`crate::mac::hmac`]) is HMAC-GOST34.311 with DKE No. 1
//! (block length 32 bytes).
//!
//! Empty message: no message block is processed, only the length and sum blocks (both
//! zero), as in BouncyCastle, UAPKI and the widely published vectors (test S-box:
//! `CE85B99C...`); privat-it/cryptonite's unit test expects another value there.
//!
//! ```
//! use shyfr::hash::gost34311::Gost34311;
//! use shyfr::gost28147::Sbox;
//! let d = Gost34311::with_params(&Sbox::TEST, &[0; 32]).chain(b"abc").finalize();
//! assert_eq!(d[..4], [0xf3, 0x13, 0x43, 0x48]);
//! let mut h = Gost34311::new(); // DKE No. 1
//! h.update(b"123");
//! h.update(b"123");
//! assert_eq!(h.finalize()[..2], [0x34, 0xd4]);
//! ```

#![forbid(unsafe_code)]

mod soft;

use core::fmt;

use super::sha2::md::BlockBuffer;
use super::Hash;
use crate::block::gost28147::{Backend, Engine, Sbox};
use crate::Error;

use soft::W256;

/// Digest length in bytes.
pub const OUTPUT_LEN: usize = 32;
/// Message block length in bytes (also HMAC's block length).
pub const BLOCK_LEN: usize = 32;

fn load(b: &[u8; 32]) -> W256 {
    let mut w = [0u64; 4];
    for (x, c) in w.iter_mut().zip(b.chunks_exact(8)) {
        *x = u64::from_le_bytes(c.try_into().expect("8 bytes"));
    }
    w
}

fn store(w: &W256) -> [u8; 32] {
    let mut b = [0u8; 32];
    for (c, x) in b.chunks_exact_mut(8).zip(w) {
        c.copy_from_slice(&x.to_le_bytes());
    }
    b
}

/// `a += b` modulo 2^256.
fn add256(a: &mut W256, b: &W256) {
    let mut carry = 0u64;
    for (x, y) in a.iter_mut().zip(b) {
        let (s1, c1) = x.overflowing_add(*y);
        let (s2, c2) = s1.overflowing_add(carry);
        *x = s2;
        carry = (c1 | c2) as u64;
    }
}

/// The step function `H = f(H, M)` (GOST 34.311-95, 6).
#[inline]
fn step(engine: &Engine, h: &mut W256, m: &W256) {
    let keys = soft::keys(h, m);
    let pre = soft::premix(h, m);
    let mut blocks = [[0u32; 2]; 4];
    for (b, x) in blocks.iter_mut().zip(h.iter()) {
        *b = [*x as u32, (*x >> 32) as u32];
    }
    engine.encrypt4(&keys, &mut blocks);
    let mut s = [0u64; 4];
    for (x, b) in s.iter_mut().zip(blocks) {
        *x = b[0] as u64 | (b[1] as u64) << 32;
    }
    *h = soft::mix(&pre, &s);
}

/// GOST 34.311-95 with streaming input.
///
/// `new` (DKE No. 1, zero starting value), any number of `update`s (any split of the
/// input gives the same digest), `finalize`. `Clone` forks a state, [`reset`](Self::reset)
/// restarts it with the same parameters and backend. No method allocates.
#[derive(Clone)]
pub struct Gost34311 {
    engine: Engine,
    h0: W256,
    h: W256,
    sum: W256,
    /// Message length in bytes, modulo 2^64 (the length block takes it times 8, to 2^67
    /// bits).
    len: u64,
    buf: BlockBuffer<BLOCK_LEN>,
    sbox: Sbox,
}

impl Gost34311 {
    /// Digest length in bytes.
    pub const OUTPUT_LEN: usize = OUTPUT_LEN;
    /// Message block length in bytes.
    pub const BLOCK_LEN: usize = BLOCK_LEN;

    /// A fresh state with DKE No. 1 and a zero starting hash value, on the fastest
    /// backend.
    pub fn new() -> Self {
        Self::with_params(&Sbox::DKE1, &[0; 32])
    }

    /// A fresh state with `sbox` and the starting hash value `h0` (given in the byte order
    /// of the digest), on the fastest backend.
    pub fn with_params(sbox: &Sbox, h0: &[u8; 32]) -> Self {
        Self::with_backend(sbox, h0, Backend::best()).expect("the best backend is available")
    }

    /// [`with_params`](Self::with_params) with `h0` as a slice;
    /// [`Error::InvalidParameter`] unless it is 32 bytes.
    pub fn with_params_slice(sbox: &Sbox, h0: &[u8]) -> Result<Self, Error> {
        let h0: &[u8; 32] = h0.try_into().map_err(|_| Error::InvalidParameter {
            what: "gost34311 starting hash value (32 bytes)",
        })?;
        Ok(Self::with_params(sbox, h0))
    }

    /// A fresh state on an explicit GOST 28147-89 backend (for tests and benchmarks);
    /// [`Error::BackendUnavailable`] if it cannot run here.
    pub fn with_backend(sbox: &Sbox, h0: &[u8; 32], backend: Backend) -> Result<Self, Error> {
        if !backend.self_test() {
            return Err(Error::BackendUnavailable);
        }
        let engine = Engine::new(backend, sbox).ok_or(Error::BackendUnavailable)?;
        let h0 = load(h0);
        Ok(Gost34311 {
            engine,
            h0,
            h: h0,
            sum: [0; 4],
            len: 0,
            buf: BlockBuffer::new(),
            sbox: *sbox,
        })
    }

    /// The backend this state runs its encryptions on.
    pub fn backend(&self) -> Backend {
        self.engine.backend()
    }

    /// The S-box of this state.
    pub fn sbox(&self) -> &Sbox {
        &self.sbox
    }

    /// Absorbs `data`.
    pub fn update(&mut self, data: &[u8]) {
        self.len = self.len.wrapping_add(data.len() as u64);
        let (engine, h, sum) = (&self.engine, &mut self.h, &mut self.sum);
        self.buf.update(data, |blocks| {
            for b in blocks {
                let m = load(b);
                add256(sum, &m);
                step(engine, h, &m);
            }
        });
    }

    /// [`update`](Self::update), by value (for one-line use).
    pub fn chain(mut self, data: &[u8]) -> Self {
        self.update(data);
        self
    }

    /// Finishes and returns the digest.
    pub fn finalize(mut self) -> [u8; 32] {
        let rest = self.len % BLOCK_LEN as u64;
        if rest != 0 {
            // The buffered bytes, zero-padded: a whole block of zeros completes it.
            self.update(&[0u8; BLOCK_LEN][..BLOCK_LEN - rest as usize]);
            self.len = self.len.wrapping_sub(BLOCK_LEN as u64 - rest);
        }
        let bits = (self.len as u128) << 3;
        let l = [bits as u64, (bits >> 64) as u64, 0, 0];
        let sum = self.sum;
        step(&self.engine, &mut self.h, &l);
        step(&self.engine, &mut self.h, &sum);
        store(&self.h)
    }

    /// Returns to the fresh state (same S-box, starting value and backend).
    pub fn reset(&mut self) {
        self.h = self.h0;
        self.sum = [0; 4];
        self.len = 0;
        self.buf.clear();
    }

    /// One-shot digest of `data` with DKE No. 1 and a zero starting value.
    pub fn digest(data: &[u8]) -> [u8; 32] {
        Self::new().chain(data).finalize()
    }
}

impl Default for Gost34311 {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Gost34311 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Gost34311")
            .field("sbox", &self.sbox)
            .field("backend", &self.backend())
            .finish_non_exhaustive()
    }
}

impl Hash for Gost34311 {
    const NAME: &'static str = "gost34311";
    const OUTPUT_LEN: usize = OUTPUT_LEN;
    const BLOCK_LEN: usize = BLOCK_LEN;
    type Output = [u8; 32];

    fn new() -> Self {
        Gost34311::new()
    }
    fn update(&mut self, data: &[u8]) {
        Gost34311::update(self, data)
    }
    fn finalize(self) -> Self::Output {
        Gost34311::finalize(self)
    }
    fn reset(&mut self) {
        Gost34311::reset(self)
    }
}

impl zeroize::Zeroize for Gost34311 {
    /// Overwrites the chaining value, the sum, the buffered input and the length, then
    /// leaves a fresh state (same parameters and backend).
    fn zeroize(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.h);
        zeroize::Zeroize::zeroize(&mut self.sum);
        zeroize::Zeroize::zeroize(&mut self.len);
        self.buf.wipe();
        self.reset();
    }
}
