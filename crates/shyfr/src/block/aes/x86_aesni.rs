//! AES with AES-NI (Intel SDM Vol. 2A, AESENC/AESENCLAST/AESDEC/AESDECLAST/AESIMC).
//!
//! Twelve blocks are kept in flight: `aesenc` has a latency of 3-4 cycles and one or two
//! units, so eight would just cover it; twelve also hide the loads, XORs and stores
//! (measured on Zen 3: 0.315 cycles/byte for AES-128 with 12, 0.33 with 8). The wide backends (`x86_vaes`, `x86_vaes512`) reuse
//! this file's key schedule and the lane-generic ECB loop [`ecb`], with their own register
//! types.

use core::arch::x86_64::*;

use super::{expand_key, Block};
use crate::cpu::x86::AesNi;
use crate::inout::InOut;

/// Round keys for encryption and for the equivalent inverse cipher (FIPS 197 5.3.5).
#[derive(Clone)]
pub(super) struct Keys {
    pub(super) enc: [Block; 15],
    pub(super) dec: [Block; 15],
    pub(super) rounds: usize,
}

impl Drop for Keys {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.enc);
        zeroize::Zeroize::zeroize(&mut self.dec);
    }
}

impl Keys {
    pub(super) fn new(key: &[u8], t: AesNi) -> Self {
        let mut k = Keys {
            enc: [[0; 16]; 15],
            dec: [[0; 16]; 15],
            rounds: 0,
        };
        // SAFETY: the token proves AES-NI.
        unsafe { expand(key, &mut k, t) };
        k
    }
}

#[target_feature(enable = "aes")]
fn sub_word(w: u32) -> u32 {
    // With the word in all four columns, ShiftRows moves nothing that differs, so
    // AESENCLAST with a zero round key is SubWord on every column.
    _mm_cvtsi128_si32(_mm_aesenclast_si128(
        _mm_set1_epi32(w as i32),
        _mm_setzero_si128(),
    )) as u32
}

#[target_feature(enable = "aes")]
fn expand(key: &[u8], k: &mut Keys, _t: AesNi) {
    // The closure inherits this function's `aes` feature, so the call is safe.
    let nr = expand_key(key, |w| sub_word(w), &mut k.enc);
    k.rounds = nr;
    k.dec[0] = k.enc[nr];
    k.dec[nr] = k.enc[0];
    for i in 1..nr {
        // SAFETY: `Block` is 16 readable/writable bytes; unaligned access is allowed.
        unsafe {
            let x = _mm_loadu_si128(k.enc[nr - i].as_ptr().cast());
            _mm_storeu_si128(k.dec[i].as_mut_ptr().cast(), _mm_aesimc_si128(x));
        }
    }
}

/// One AES round instruction as its own `asm!` statement.
///
/// Written with intrinsics, LLVM's scheduler regroups the rounds block by block, so the
/// independent chains reach the CPU one after another and the AES units idle (0.354
/// instead of 0.33 cycles/byte for AES-128 with eight blocks on Zen 3, and 0.61 instead of
/// 0.45 for AES-256). Separate `asm!` statements keep their program order, which is round
/// by round across all blocks in flight.
macro_rules! round {
    ($insn:literal, $class:ident, $x:expr, $k:expr) => {{
        let mut x = $x;
        // SAFETY: register-only instruction; the caller's trait contract guarantees the
        // instruction set is enabled.
        unsafe {
            core::arch::asm!(
                $insn,
                x = inout($class) x,
                k = in($class) $k,
                options(nomem, nostack, preserves_flags)
            )
        };
        x
    }};
}
pub(super) use round;

/// A register type holding `BLOCKS` AES blocks, with the AES round instructions on it.
///
/// # Safety
///
/// Every method may only run where the instructions it uses are enabled: callers are
/// `#[inline(always)]` generic code inlined into a `#[target_feature]` kernel of the
/// backend that owns the type.
pub(super) trait Lanes: Copy {
    /// Blocks per register.
    const BLOCKS: usize;
    /// Loads `BLOCKS * 16` bytes from `p`.
    unsafe fn load(p: *const u8) -> Self;
    /// Stores `BLOCKS * 16` bytes to `p`.
    unsafe fn store(self, p: *mut u8);
    /// The round key `k` in every block position.
    unsafe fn splat(k: &Block) -> Self;
    /// XOR.
    unsafe fn xor(self, o: Self) -> Self;
    /// One encryption round.
    unsafe fn enc(self, k: Self) -> Self;
    /// The last encryption round.
    unsafe fn enclast(self, k: Self) -> Self;
    /// One round of the equivalent inverse cipher.
    unsafe fn dec(self, k: Self) -> Self;
    /// The last round of the equivalent inverse cipher.
    unsafe fn declast(self, k: Self) -> Self;
}

impl Lanes for __m128i {
    const BLOCKS: usize = 1;
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes.
        unsafe { _mm_loadu_si128(p.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: the caller guarantees 16 writable bytes.
        unsafe { _mm_storeu_si128(p.cast(), self) }
    }
    #[inline(always)]
    unsafe fn splat(k: &Block) -> Self {
        // SAFETY: `k` is 16 readable bytes.
        unsafe { _mm_loadu_si128(k.as_ptr().cast()) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: SSE2 is the x86-64 baseline.
        unsafe { _mm_xor_si128(self, o) }
    }
    #[inline(always)]
    unsafe fn enc(self, k: Self) -> Self {
        round!("aesenc {x}, {k}", xmm_reg, self, k)
    }
    #[inline(always)]
    unsafe fn enclast(self, k: Self) -> Self {
        round!("aesenclast {x}, {k}", xmm_reg, self, k)
    }
    #[inline(always)]
    unsafe fn dec(self, k: Self) -> Self {
        round!("aesdec {x}, {k}", xmm_reg, self, k)
    }
    #[inline(always)]
    unsafe fn declast(self, k: Self) -> Self {
        round!("aesdeclast {x}, {k}", xmm_reg, self, k)
    }
}

/// The round keys for one direction, each in every block position of an `L`.
///
/// # Safety
///
/// The features `L` needs are enabled.
#[inline(always)]
pub(super) unsafe fn splat_keys<L: Lanes, const NR: usize, const DEC: bool>(
    keys: &Keys,
) -> [L; 15] {
    let rk = if DEC { &keys.dec } else { &keys.enc };
    // SAFETY: features per the contract of this function.
    let mut k = [unsafe { L::splat(&rk[0]) }; 15];
    for i in 1..=NR {
        // SAFETY: as above.
        k[i] = unsafe { L::splat(&rk[i]) };
    }
    k
}

/// ECB on groups of `W` registers of `L` (`W * L::BLOCKS` blocks) from block `start`
/// while whole groups remain below block `end`. Returns the first block not processed.
///
/// # Safety
///
/// The features `L` needs are enabled, and `end <= io.len() / 16`.
#[inline(always)]
pub(super) unsafe fn ecb<L: Lanes, const W: usize, const NR: usize, const DEC: bool>(
    k: &[L; 15],
    io: &mut InOut<'_>,
    start: usize,
    end: usize,
) -> usize {
    let step = W * L::BLOCKS;
    let src = io.src_ptr();
    let dst = io.dst_ptr();
    let mut i = start;
    while i + step <= end {
        // SAFETY: blocks `i..i + step` lie below `end`, inside `io`, by the contract.
        unsafe {
            let mut b: [L; W] = [k[0]; W];
            for (j, x) in b.iter_mut().enumerate() {
                *x = L::load(src.add((i + j * L::BLOCKS) * 16)).xor(k[0]);
            }
            for kr in &k[1..NR] {
                for x in b.iter_mut() {
                    *x = if DEC { x.dec(*kr) } else { x.enc(*kr) };
                }
            }
            for (j, x) in b.iter().enumerate() {
                let y = if DEC {
                    x.declast(k[NR])
                } else {
                    x.enclast(k[NR])
                };
                y.store(dst.add((i + j * L::BLOCKS) * 16));
            }
        }
        i += step;
    }
    i
}

/// The last `io.len() / 16 - start` blocks (fewer than one wide register holds), one at a
/// time with the 128-bit intrinsics. Inlined into a wide kernel these are VEX-encoded, so
/// the kernel never mixes legacy-SSE and 256/512-bit code (which cost ~500 cycles per call
/// on Zen 3 when this tail used the legacy encoding).
///
/// # Safety
///
/// AES-NI is enabled.
#[inline(always)]
pub(super) unsafe fn ecb_tail<const NR: usize, const DEC: bool>(
    keys: &Keys,
    io: &mut InOut<'_>,
    start: usize,
) {
    let rk = if DEC { &keys.dec } else { &keys.enc };
    for i in start..io.len() / 16 {
        let blk = io.read::<16>(16 * i);
        let mut out = [0u8; 16];
        // SAFETY: AES-NI per the contract; every pointer is to a 16-byte array.
        unsafe {
            let key = |r: usize| _mm_loadu_si128(rk[r].as_ptr().cast());
            let mut x = _mm_xor_si128(_mm_loadu_si128(blk.as_ptr().cast()), key(0));
            for r in 1..NR {
                x = if DEC {
                    _mm_aesdec_si128(x, key(r))
                } else {
                    _mm_aesenc_si128(x, key(r))
                };
            }
            x = if DEC {
                _mm_aesdeclast_si128(x, key(NR))
            } else {
                _mm_aesenclast_si128(x, key(NR))
            };
            _mm_storeu_si128(out.as_mut_ptr().cast(), x);
        }
        io.write::<16>(16 * i, &out);
    }
}

/// Dispatches on the number of rounds to a kernel monomorphised for it.
macro_rules! by_rounds {
    ($keys:expr, $kernel:ident, $dec:expr, $($arg:expr),*) => {
        match $keys.rounds {
            10 => $kernel::<10, $dec>($($arg),*),
            12 => $kernel::<12, $dec>($($arg),*),
            _ => $kernel::<14, $dec>($($arg),*),
        }
    };
}
pub(super) use by_rounds;

#[target_feature(enable = "aes")]
fn kernel<const NR: usize, const DEC: bool>(keys: &Keys, mut io: InOut<'_>) {
    let n = io.len() / 16;
    // SAFETY: `aes` is enabled here; every call stays below block `n`.
    unsafe {
        let k = splat_keys::<__m128i, NR, DEC>(keys);
        let i = ecb::<__m128i, 12, NR, DEC>(&k, &mut io, 0, n);
        let i = ecb::<__m128i, 4, NR, DEC>(&k, &mut io, i, n);
        let i = ecb::<__m128i, 2, NR, DEC>(&k, &mut io, i, n);
        ecb::<__m128i, 1, NR, DEC>(&k, &mut io, i, n);
    }
}

/// Encrypts the whole blocks of `io`.
pub(super) fn encrypt(keys: &Keys, _t: AesNi, io: InOut<'_>) {
    // SAFETY: the token proves AES-NI.
    unsafe { by_rounds!(keys, kernel, false, keys, io) }
}

/// Decrypts the whole blocks of `io`.
pub(super) fn decrypt(keys: &Keys, _t: AesNi, io: InOut<'_>) {
    // SAFETY: the token proves AES-NI.
    unsafe { by_rounds!(keys, kernel, true, keys, io) }
}
