//! GHASH (NIST SP 800-38D, section 6.4): the universal hash of GCM and GMAC.
//!
//! The backend is chosen once, when the hash key `H` is set up, in priority order:
//!
//! | backend         | needs                      | blocks per reduction |
//! |-----------------|----------------------------|----------------------|
//! | `x86_vpclmul512` | VPCLMULQDQ + AVX-512 (512-bit) | 32 (8 x zmm)      |
//! | `x86_vpclmul`   | VPCLMULQDQ + AVX2 (256-bit) | 16 (8 x ymm)         |
//! | `x86_pclmul`    | PCLMULQDQ + SSSE3          | 8                    |
//! | `aarch64_pmull` | ARMv8 PMULL (with NEON)    | 8                    |
//! | `soft`          | nothing (portable)         | 1                    |
//!
//! Every backend is constant time: the carry-less multiply instructions have data-independent
//! timing, and `soft` builds the carry-less product from integer multiplications with no
//! table and no secret-dependent branch (see `soft.rs`).
//!
//! # Arithmetic
//!
//! The field arithmetic (reflected operands, the twisted key, the aggregated Montgomery
//! reduction) and the carry-less products are in `arith::clmul`, shared with the fused
//! AES-GCM engines; the files here hold the keys (powers of `H` in each backend's layout)
//! and the update loops.

mod soft;

#[cfg(target_arch = "aarch64")]
mod aarch64_pmull;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_pclmul;
#[cfg(target_arch = "x86_64")]
mod x86_vpclmul;
#[cfg(target_arch = "x86_64")]
mod x86_vpclmul512;

use crate::Error;

#[cfg(target_arch = "aarch64")]
use crate::cpu::aarch64 as arch_cpu;
#[cfg(target_arch = "x86_64")]
use crate::cpu::x86 as arch_cpu;

/// GHASH block length in bytes.
pub const BLOCK_LEN: usize = 16;

crate::cpu::backends! {
    /// The implementations of GHASH, fastest first.
    pub enum Backend("ghash"), tokens Kernel {
        /// VPCLMULQDQ on 512-bit registers with AVX-512 (x86-64).
        X86Vpclmul512 = "x86_vpclmul512" ["x86_64"] arch_cpu::Vpclmul512,
        /// VPCLMULQDQ on 256-bit registers with AVX2 (x86-64).
        X86Vpclmul = "x86_vpclmul" ["x86_64"] arch_cpu::Vpclmul256,
        /// PCLMULQDQ on 128-bit registers (x86-64).
        X86Pclmul = "x86_pclmul" ["x86_64"] arch_cpu::Pclmul,
        /// ARMv8 `PMULL` (aarch64).
        Aarch64Pmull = "aarch64_pmull" ["aarch64"] arch_cpu::Pmull,
        /// Portable, constant-time code (integer multiplications with holes).
        Soft = "soft",
    }
    self_test = self_test;
}

/// The known-answer self-test of a hardware backend: GHASH of 0 to 40 blocks under a fixed
/// key, one call and one block at a time, equals the portable backend's.
fn self_test(b: Backend) -> bool {
    let Some(kernel) = Kernel::new(b) else {
        return false;
    };
    let h: [u8; 16] = core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0x5c);
    let (hw, sw) = (
        Key::from_kernel(&h, kernel),
        Key::from_kernel(&h, Kernel::Soft),
    );
    let mut data = [0u8; 16 * 40];
    for (i, d) in data.iter_mut().enumerate() {
        *d = (i as u8).wrapping_mul(11) ^ (i >> 7) as u8;
    }
    let mut ok = true;
    for n in [1usize, 7, 8, 9, 16, 17, 33, 40] {
        let (mut a, mut c) = ([0u8; 16], [0u8; 16]);
        hw.update(&mut a, &data[..16 * n]);
        sw.update(&mut c, &data[..16 * n]);
        ok &= a == c;
    }
    ok
}

/// The hash key of the chosen backend (`H` and its precomputed powers). Every backend's key
/// type zeroes itself on drop.
///
/// The powers stay inline rather than boxed so that the crate needs no allocator.
#[derive(Clone)]
#[allow(clippy::large_enum_variant)]
pub(crate) enum Key {
    #[cfg(target_arch = "x86_64")]
    Vpclmul512(x86_vpclmul512::Key, arch_cpu::Vpclmul512),
    #[cfg(target_arch = "x86_64")]
    Vpclmul(x86_vpclmul::Key, arch_cpu::Vpclmul256),
    #[cfg(target_arch = "x86_64")]
    Pclmul(x86_pclmul::Key, arch_cpu::Pclmul),
    #[cfg(target_arch = "aarch64")]
    Pmull(aarch64_pmull::Key, arch_cpu::Pmull),
    Soft(soft::Key),
}

impl Key {
    /// Sets up `H` for `backend`; an error if it is not available here.
    pub(crate) fn new(h: &[u8; 16], backend: Backend) -> Result<Key, Error> {
        Ok(Key::from_kernel(h, Kernel::checked(backend)?))
    }

    /// Sets up `H` for the backend whose token is `kernel`.
    fn from_kernel(h: &[u8; 16], kernel: Kernel) -> Key {
        match kernel {
            #[cfg(target_arch = "x86_64")]
            Kernel::X86Vpclmul512(t) => Key::Vpclmul512(x86_vpclmul512::Key::new(h, t), t),
            #[cfg(target_arch = "x86_64")]
            Kernel::X86Vpclmul(t) => Key::Vpclmul(x86_vpclmul::Key::new(h, t), t),
            #[cfg(target_arch = "x86_64")]
            Kernel::X86Pclmul(t) => Key::Pclmul(x86_pclmul::Key::new(h, t), t),
            #[cfg(target_arch = "aarch64")]
            Kernel::Aarch64Pmull(t) => Key::Pmull(aarch64_pmull::Key::new(h, t), t),
            Kernel::Soft => Key::Soft(soft::Key::new(h)),
        }
    }

    /// The backend this key uses.
    pub(crate) fn backend(&self) -> Backend {
        match self {
            #[cfg(target_arch = "x86_64")]
            Key::Vpclmul512(..) => Backend::X86Vpclmul512,
            #[cfg(target_arch = "x86_64")]
            Key::Vpclmul(..) => Backend::X86Vpclmul,
            #[cfg(target_arch = "x86_64")]
            Key::Pclmul(..) => Backend::X86Pclmul,
            #[cfg(target_arch = "aarch64")]
            Key::Pmull(..) => Backend::Aarch64Pmull,
            Key::Soft(_) => Backend::Soft,
        }
    }

    /// With the VPCLMULQDQ backend: its token and the powers of `H` in its register
    /// layout (for the fused AES-GCM kernel).
    #[cfg(target_arch = "x86_64")]
    #[allow(clippy::type_complexity)]
    pub(crate) fn vpclmul_powers(
        &self,
    ) -> Option<(arch_cpu::Vpclmul256, &[[u8; 32]; 8], &[[u8; 32]; 8])> {
        match self {
            Key::Vpclmul(k, t) => {
                let (p, q) = k.powers();
                Some((*t, p, q))
            }
            _ => None,
        }
    }

    /// With the zmm VPCLMULQDQ backend: its token and the powers of `H` in its register
    /// layout (for the fused AES-GCM engine on zmm registers).
    #[cfg(target_arch = "x86_64")]
    #[allow(clippy::type_complexity)]
    pub(crate) fn vpclmul512_powers(
        &self,
    ) -> Option<(arch_cpu::Vpclmul512, &[[u8; 64]; 8], &[[u8; 64]; 8])> {
        match self {
            Key::Vpclmul512(k, t) => {
                let (p, q) = k.powers();
                Some((*t, p, q))
            }
            _ => None,
        }
    }

    /// With any x86 carry-less multiply backend: the PCLMULQDQ token and the 128-bit key
    /// (`H^1..H^8`, what the short-message AES-GCM path hashes with).
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn xmm_key(&self) -> Option<(arch_cpu::Pclmul, &x86_pclmul::Key)> {
        match self {
            Key::Vpclmul512(k, t) => Some((t.pclmul(), k.xmm())),
            Key::Vpclmul(k, t) => Some((t.pclmul(), k.xmm())),
            Key::Pclmul(k, t) => Some((*t, k)),
            _ => None,
        }
    }

    /// With the PCLMULQDQ backend: its token and the powers `H^1..H^8` with their
    /// Karatsuba halves, in its register layout (for the fused AES-NI GCM kernel).
    #[cfg(target_arch = "x86_64")]
    #[allow(clippy::type_complexity)]
    pub(crate) fn pclmul_powers(
        &self,
    ) -> Option<(arch_cpu::Pclmul, &[[u8; 16]; 8], &[[u8; 16]; 8])> {
        match self {
            Key::Pclmul(k, t) => Some((*t, &k.pow, &k.kar)),
            _ => None,
        }
    }

    /// With the PMULL backend: its token and the powers `H^1..H^8` with their Karatsuba
    /// halves, in its register layout (for the fused ARMv8 GCM kernel).
    #[cfg(target_arch = "aarch64")]
    #[allow(clippy::type_complexity)]
    pub(crate) fn pmull_powers(&self) -> Option<(arch_cpu::Pmull, &[[u8; 16]; 8], &[[u8; 16]; 8])> {
        match self {
            Key::Pmull(k, t) => Some((*t, &k.pow, &k.kar)),
            _ => None,
        }
    }

    /// Absorbs the whole blocks of `blocks` into the state `y` (GCM byte order): for each
    /// block `X`, `y = (y ^ X) * H`. A trailing partial block is ignored; callers pass whole
    /// blocks (see [`Key::update_padded`]).
    #[inline]
    pub(crate) fn update(&self, y: &mut [u8; 16], blocks: &[u8]) {
        let whole = blocks.len() - blocks.len() % BLOCK_LEN;
        let blocks = &blocks[..whole];
        if blocks.is_empty() {
            return;
        }
        match self {
            #[cfg(target_arch = "x86_64")]
            Key::Vpclmul512(k, t) => x86_vpclmul512::update(k, *t, y, blocks),
            #[cfg(target_arch = "x86_64")]
            Key::Vpclmul(k, t) => x86_vpclmul::update(k, *t, y, blocks),
            #[cfg(target_arch = "x86_64")]
            Key::Pclmul(k, t) => x86_pclmul::update(k, *t, y, blocks),
            #[cfg(target_arch = "aarch64")]
            Key::Pmull(k, t) => aarch64_pmull::update(k, *t, y, blocks),
            Key::Soft(k) => k.update(y, blocks),
        }
    }

    /// Absorbs `data`, the last partial block padded with zeros (the `A || 0^v` and
    /// `C || 0^u` of SP 800-38D, algorithm 4).
    pub(crate) fn update_padded(&self, y: &mut [u8; 16], data: &[u8]) {
        let whole = data.len() - data.len() % BLOCK_LEN;
        self.update(y, &data[..whole]);
        if whole < data.len() {
            let mut last = [0u8; BLOCK_LEN];
            last[..data.len() - whole].copy_from_slice(&data[whole..]);
            self.update(y, &last);
            zeroize::Zeroize::zeroize(&mut last);
        }
    }
}

/// GHASH keyed with a hash subkey `H` (SP 800-38D, algorithm 2), for protocols that use it
/// directly and for tests; GCM and GMAC use it internally.
///
/// The state is `Y`, starting at zero; each 16-byte block `X` is absorbed as
/// `Y = (Y ^ X) * H` in GF(2^128). Zeroed on drop.
///
/// ```
/// use shyfr::aead::ghash::Ghash;
/// let h = [0x66u8; 16];
/// let mut a = Ghash::new(&h);
/// a.update_blocks(&[1u8; 48]).unwrap();
/// let mut b = Ghash::new(&h);
/// b.update_blocks(&[1u8; 32]).unwrap();
/// b.update_blocks(&[1u8; 16]).unwrap();
/// assert_eq!(a.finalize(), b.finalize());
/// ```
#[derive(Clone)]
pub struct Ghash {
    key: Key,
    y: [u8; 16],
}

impl core::fmt::Debug for Ghash {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Ghash")
            .field("backend", &self.backend())
            .finish_non_exhaustive()
    }
}

impl Drop for Ghash {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.y);
    }
}

impl Ghash {
    /// GHASH keyed with `h`, on the fastest available backend.
    pub fn new(h: &[u8; 16]) -> Ghash {
        Ghash {
            key: Key::from_kernel(h, Kernel::best()),
            y: [0; 16],
        }
    }

    /// GHASH keyed with `h` on an explicit backend; [`Error::BackendUnavailable`] if this
    /// CPU (or the `SHYFR_CPU` override) does not allow it.
    pub fn with_backend(h: &[u8; 16], backend: Backend) -> Result<Ghash, Error> {
        Ok(Ghash {
            key: Key::new(h, backend)?,
            y: [0; 16],
        })
    }

    /// The backend this key uses.
    pub fn backend(&self) -> Backend {
        self.key.backend()
    }

    /// Absorbs whole blocks; [`Error::NotWholeBlocks`] (and nothing absorbed) otherwise.
    pub fn update_blocks(&mut self, blocks: &[u8]) -> Result<(), Error> {
        crate::block::check_whole_blocks(blocks.len(), BLOCK_LEN)?;
        self.key.update(&mut self.y, blocks);
        Ok(())
    }

    /// Absorbs `data` with its last partial block (if any) padded with zero bytes. After a
    /// partial block, further input starts a new block.
    pub fn update_padded(&mut self, data: &[u8]) {
        self.key.update_padded(&mut self.y, data);
    }

    /// The current state `Y`, without consuming the hash.
    pub fn state(&self) -> [u8; 16] {
        self.y
    }

    /// Returns `Y`, the GHASH of everything absorbed.
    pub fn finalize(self) -> [u8; 16] {
        self.y
    }

    /// Starts again from `Y = 0` with the same key.
    pub fn reset(&mut self) {
        self.y = [0; 16];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> [u8; 16] {
        let mut out = [0u8; 16];
        for (i, o) in out.iter_mut().enumerate() {
            *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap();
        }
        out
    }

    /// The GCM specification's test case 2 (McGrew and Viega, "The Galois/Counter Mode of
    /// Operation", 2005, appendix B): H, one ciphertext block and the length block. The
    /// expected GHASH is that test's tag XOR `E(K, Y0)` (the tag of its test case 1).
    #[test]
    fn spec_test_case_2_every_backend() {
        let key = h("66e94bd4ef8a2c3b884cfa59ca342b2e");
        let c = h("0388dace60b6a392f328c2b971b2fe78");
        let mut len = [0u8; 16];
        len[15] = 0x80;
        for &b in Backend::ALL.iter().filter(|b| b.is_available()) {
            let mut g = Ghash::with_backend(&key, b).unwrap();
            g.update_blocks(&c).unwrap();
            g.update_blocks(&len).unwrap();
            assert_eq!(g.finalize(), h("f38cbb1ad69223dcc3457ae5b6b0f885"), "{b:?}");
        }
    }
}
