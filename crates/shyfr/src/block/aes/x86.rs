//! The shared toolkit of the x86 AES backends (`x86_aesni`, `x86_vaes`, `x86_vaes512`) and
//! of the fused AES-GCM engines: the key schedule with AES-NI (Intel SDM Vol. 2A,
//! AESENC/AESENCLAST/AESDEC/AESDECLAST/AESIMC), the [`Lanes`] register abstraction (one
//! block per xmm, two per ymm, four per zmm) with its xmm implementations, the
//! lane-generic ECB loop [`ecb`], the round-count dispatch [`by_rounds!`] and the one-`asm!`
//! per instruction [`round!`]. No backend lives here; each backend file owns its register
//! type's `Lanes` implementation and its kernels.

use core::arch::x86_64::*;

use super::{expand_key, Block};
use crate::cpu::x86::AesNi;
use crate::inout::InOut;

/// One round key in each of the four 128-bit lanes of a 64-byte line, aligned to 64: a
/// kernel on zmm, ymm or xmm registers loads its key with one aligned load of the first
/// 64, 32 or 16 bytes (or uses it as a memory operand), with nothing set up per call.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(crate) struct RoundKey(pub(crate) [u8; 64]);

impl RoundKey {
    /// The round key as an xmm register.
    #[inline(always)]
    pub(crate) fn xmm(&self) -> __m128i {
        // SAFETY: 16 readable bytes aligned to 64; SSE2 is the x86-64 baseline.
        unsafe { _mm_load_si128(self.0.as_ptr().cast()) }
    }
}

/// The round keys of one direction, `0..=rounds` used.
pub(crate) type Schedule = [RoundKey; 15];

/// Round keys for encryption and for the equivalent inverse cipher (FIPS 197 5.3.5), laid
/// out once, at key set-up, in the form the kernels load ([`RoundKey`]): 1,920 bytes.
#[derive(Clone)]
pub(crate) struct Keys {
    pub(crate) enc: Schedule,
    pub(crate) dec: Schedule,
    pub(crate) rounds: usize,
}

impl Drop for Keys {
    fn drop(&mut self) {
        for rk in self.enc.iter_mut().chain(self.dec.iter_mut()) {
            crate::wipe::wipe(&mut rk.0);
        }
    }
}

impl Keys {
    /// Encryption round key `r` as a register.
    #[inline(always)]
    pub(crate) fn enc_xmm(&self, r: usize) -> __m128i {
        self.enc[r].xmm()
    }

    /// The schedule of one direction: decryption (the equivalent inverse cipher) or
    /// encryption.
    #[inline(always)]
    pub(crate) fn sched<const DEC: bool>(&self) -> &Schedule {
        if DEC {
            &self.dec
        } else {
            &self.enc
        }
    }

    pub(crate) fn new(key: &[u8], t: AesNi) -> Self {
        let mut enc = [[0u8; 16]; 15];
        let mut dec = [[0u8; 16]; 15];
        // SAFETY: the token proves AES-NI.
        let rounds = unsafe { expand(key, &mut enc, &mut dec, t) };
        let wide = |b: &Block| {
            let mut w = RoundKey([0; 64]);
            for lane in w.0.chunks_exact_mut(16) {
                lane.copy_from_slice(b);
            }
            w
        };
        let k = Keys {
            enc: core::array::from_fn(|r| wide(&enc[r])),
            dec: core::array::from_fn(|r| wide(&dec[r])),
            rounds,
        };
        for b in enc.iter_mut().chain(dec.iter_mut()) {
            crate::wipe::wipe(b);
        }
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
fn expand(key: &[u8], enc: &mut [Block; 15], dec: &mut [Block; 15], _t: AesNi) -> usize {
    // The closure inherits this function's `aes` feature, so the call is safe.
    let nr = expand_key(key, |w| sub_word(w), enc);
    dec[0] = enc[nr];
    dec[nr] = enc[0];
    for i in 1..nr {
        // SAFETY: `Block` is 16 readable/writable bytes; unaligned access is allowed.
        unsafe {
            let x = _mm_loadu_si128(enc[nr - i].as_ptr().cast());
            _mm_storeu_si128(dec[i].as_mut_ptr().cast(), _mm_aesimc_si128(x));
        }
    }
    nr
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
pub(crate) use round;

/// Runs `$body` with `$r` = 1, 2, .. `$nr - 1` (the middle rounds), written out: LLVM
/// leaves a loop over the rounds whose body holds more than the round (a fused GHASH step
/// after some of them) as a loop, with a counter and branches per round competing with the
/// AES instructions for the vector ports (measured 8-25 % slower on an Intel Xeon).
macro_rules! each_round {
    ($nr:expr, |$r:ident| $body:block) => {
        $crate::block::aes::x86::each_round!(@ $nr, $r, $body, 1 2 3 4 5 6 7 8 9 10 11 12 13)
    };
    (@ $nr:expr, $r:ident, $body:block, $($n:literal)*) => {$(
        if $n < $nr {
            let $r: usize = $n;
            $body
        }
    )*};
}
pub(crate) use each_round;

/// A register type holding `BLOCKS` AES blocks, with the AES round instructions on it.
///
/// # Safety
///
/// Every method may only run where the instructions it uses are enabled: callers are
/// `#[inline(always)]` generic code inlined into a `#[target_feature]` kernel of the
/// backend that owns the type.
pub(crate) trait Lanes: Copy {
    /// Blocks per register.
    const BLOCKS: usize;
    /// Loads `BLOCKS * 16` bytes from `p`.
    unsafe fn load(p: *const u8) -> Self;
    /// Stores `BLOCKS * 16` bytes to `p`.
    unsafe fn store(self, p: *mut u8);
    /// The round key `k` in every block position: one aligned load.
    unsafe fn key(k: &RoundKey) -> Self;
    /// Loads `blocks` blocks (`1..=BLOCKS`) from `p`, the lanes above them zero; nothing
    /// beyond `blocks * 16` bytes is read.
    unsafe fn load_part(p: *const u8, blocks: usize) -> Self;
    /// Stores the first `blocks` blocks (`1..=BLOCKS`) to `p`, nothing beyond them.
    unsafe fn store_part(self, p: *mut u8, blocks: usize);
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

    /// CTR state of this register type for a counter block (see [`Lanes::ctr_blocks`]).
    type Ctr: Copy;
    /// The CTR state of counter block `c` (block 0 of a call).
    unsafe fn ctr_init(c: &Block) -> Self::Ctr;
    /// The state `off` blocks further on (run time, once per batch).
    unsafe fn ctr_at(c: &Self::Ctr, off: u32) -> Self::Ctr;
    /// Counter blocks `off .. off + BLOCKS` from the state `c` (`off` a constant after
    /// inlining): the last 32-bit word is incremented big-endian, with no carry (the
    /// caller never lets it wrap inside a call).
    unsafe fn ctr_blocks(c: &Self::Ctr, off: u32) -> Self;
    /// Adds `n` to the last byte of every lane's big-endian counter (`n << 24` to dword
    /// 3): only when that byte does not overflow.
    unsafe fn add_low_byte(self, n: u32) -> Self;
    /// Every 128-bit lane multiplied by `x^s` in GF(2^128), IEEE 1619 (little-endian)
    /// convention, `1 <= s <= 56`.
    unsafe fn mul_x_pow(self, s: u32) -> Self;
    /// The tweaks `t, t*x, ...` (little-endian 128-bit values) in the lanes; `t` advances
    /// by `BLOCKS` multiplications.
    unsafe fn from_tweaks(t: &mut u128) -> Self;
    /// The block in lane 0.
    unsafe fn first_lane(self) -> __m128i;
    /// Lane 0 = `carry`, lane `j` = lane `j - 1` of `self` (the previous block of every
    /// lane, for CBC and CFB decryption).
    unsafe fn shift_in(self, carry: __m128i) -> Self;
}

/// Multiplies every 128-bit lane by `x^s` (`1 <= s <= 56`) with 64-bit shifts: the bits
/// that leave the low half enter the high half, the `s` bits that leave the top are
/// reduced with `x^128 = x^7 + x^2 + x + 1` into the low half (they times 0x87 stay below
/// 2^63). `$sll`/`$srl` shift 64-bit elements by a count register, `$swap` exchanges the
/// halves of every lane, `$lo` keeps the low half of every lane.
macro_rules! mul_x_pow_body {
    ($v:expr, $s:expr, $sll:ident, $srl:ident, $swap:expr, $and:ident, $xor:ident, $lo:expr) => {{
        let v = $v;
        let up = _mm_cvtsi32_si128($s as i32);
        let down = _mm_cvtsi32_si128(64 - $s as i32);
        let a = $sll(v, up);
        let sw = $swap($srl(v, down));
        let m = $and(sw, $lo);
        let one = _mm_cvtsi32_si128(1);
        let two = _mm_cvtsi32_si128(2);
        let seven = _mm_cvtsi32_si128(7);
        let r = $xor($xor($sll(m, one), $sll(m, two)), $sll(m, seven));
        $xor($xor(a, sw), r)
    }};
}
pub(crate) use mul_x_pow_body;

/// [`Lanes::mul_x_pow`] for `s = 8 * BYTES` with whole-byte shifts inside each lane (one
/// instruction each way); the `s` bits that leave the top (below 2^56) times 0x87.
macro_rules! mul_x_pow_bytes {
    ($v:expr, $bytes:literal, $bsll:ident, $bsrl:ident, $sll:ident, $xor:ident) => {{
        let v = $v;
        let a = $bsll::<$bytes>(v);
        let h = $bsrl::<{ 16 - $bytes }>(v);
        let r = $xor($xor($sll::<1>(h), $sll::<2>(h)), $sll::<7>(h));
        $xor($xor(a, h), r)
    }};
}
pub(crate) use mul_x_pow_bytes;

/// Picks the whole-byte form of [`Lanes::mul_x_pow`] when `s` is a multiple of 8 (a
/// constant after inlining, so the match folds away), else the general one.
macro_rules! mul_x_pow_any {
    ($v:expr, $s:expr, $bsll:ident, $bsrl:ident, $sll:ident, $xor:ident, $general:expr) => {
        match $s {
            8 => mul_x_pow_bytes!($v, 1, $bsll, $bsrl, $sll, $xor),
            16 => mul_x_pow_bytes!($v, 2, $bsll, $bsrl, $sll, $xor),
            24 => mul_x_pow_bytes!($v, 3, $bsll, $bsrl, $sll, $xor),
            32 => mul_x_pow_bytes!($v, 4, $bsll, $bsrl, $sll, $xor),
            40 => mul_x_pow_bytes!($v, 5, $bsll, $bsrl, $sll, $xor),
            48 => mul_x_pow_bytes!($v, 6, $bsll, $bsrl, $sll, $xor),
            56 => mul_x_pow_bytes!($v, 7, $bsll, $bsrl, $sll, $xor),
            _ => $general,
        }
    };
}
pub(crate) use mul_x_pow_any;

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
    unsafe fn key(k: &RoundKey) -> Self {
        k.xmm()
    }
    #[inline(always)]
    unsafe fn load_part(p: *const u8, _blocks: usize) -> Self {
        // SAFETY: one block per register: the caller guarantees 16 readable bytes.
        unsafe { Self::load(p) }
    }
    #[inline(always)]
    unsafe fn store_part(self, p: *mut u8, _blocks: usize) {
        // SAFETY: one block per register: the caller guarantees 16 writable bytes.
        unsafe { self.store(p) }
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

    type Ctr = Ctr128;
    #[inline(always)]
    unsafe fn ctr_init(c: &Block) -> Ctr128 {
        // SAFETY: SSE2 only.
        unsafe { Ctr128::new(c) }
    }
    #[inline(always)]
    unsafe fn ctr_at(c: &Ctr128, off: u32) -> Ctr128 {
        c.at(off)
    }
    #[inline(always)]
    unsafe fn ctr_blocks(c: &Ctr128, off: u32) -> Self {
        // SAFETY: SSE2 only.
        unsafe { c.block(off) }
    }
    #[inline(always)]
    unsafe fn add_low_byte(self, n: u32) -> Self {
        // SAFETY: SSE2 only.
        unsafe { _mm_add_epi32(self, _mm_set_epi32((n << 24) as i32, 0, 0, 0)) }
    }

    #[inline(always)]
    unsafe fn mul_x_pow(self, s: u32) -> Self {
        // SAFETY: SSE2 only.
        unsafe { mul_x_pow_128(self, s) }
    }
    #[inline(always)]
    unsafe fn from_tweaks(t: &mut u128) -> Self {
        let v = *t;
        *t = mul_x(v);
        // SAFETY: SSE2 only.
        unsafe { _mm_set_epi64x((v >> 64) as i64, v as i64) }
    }
    #[inline(always)]
    unsafe fn first_lane(self) -> __m128i {
        self
    }
    #[inline(always)]
    unsafe fn shift_in(self, carry: __m128i) -> Self {
        carry
    }
}

/// [`Lanes::mul_x_pow`] on one block (SSE2).
///
/// # Safety
///
/// None beyond x86-64 (SSE2 is the baseline).
#[inline(always)]
pub(crate) unsafe fn mul_x_pow_128(v: __m128i, s: u32) -> __m128i {
    // SAFETY: SSE2 is the x86-64 baseline.
    unsafe {
        mul_x_pow_any!(
            v,
            s,
            _mm_bslli_si128,
            _mm_bsrli_si128,
            _mm_slli_epi64,
            _mm_xor_si128,
            mul_x_pow_body!(
                v,
                s,
                _mm_sll_epi64,
                _mm_srl_epi64,
                |x| _mm_shuffle_epi32::<0x4e>(x),
                _mm_and_si128,
                _mm_xor_si128,
                _mm_set_epi64x(0, -1)
            )
        )
    }
}

/// `t * x` in GF(2^128), IEEE 1619 convention, branch-free.
#[inline(always)]
pub(crate) fn mul_x(t: u128) -> u128 {
    (t << 1) ^ (0x87 & (t >> 127).wrapping_neg())
}

/// The CTR state for one-block registers: the fixed first twelve bytes, and the last
/// word's value. Counter blocks are built with SSE2 only (AES-NI does not imply SSSE3's
/// byte shuffle).
#[derive(Clone, Copy)]
pub(crate) struct Ctr128 {
    prefix: __m128i,
    low: u32,
}

impl Ctr128 {
    #[inline(always)]
    pub(crate) unsafe fn new(c: &Block) -> Self {
        let mut p = *c;
        let low = u32::from_be_bytes([p[12], p[13], p[14], p[15]]);
        p[12..].fill(0);
        Ctr128 {
            // SAFETY: `p` is 16 readable bytes; SSE2.
            prefix: unsafe { _mm_loadu_si128(p.as_ptr().cast()) },
            low,
        }
    }
    #[inline(always)]
    fn at(&self, off: u32) -> Self {
        Ctr128 {
            prefix: self.prefix,
            low: self.low.wrapping_add(off),
        }
    }
    #[inline(always)]
    unsafe fn block(&self, off: u32) -> __m128i {
        let w = self.low.wrapping_add(off).swap_bytes() as i32;
        // SAFETY: SSE2 only.
        unsafe { _mm_or_si128(self.prefix, _mm_slli_si128::<12>(_mm_cvtsi32_si128(w))) }
    }
}

// The AES intrinsics, callable from `#[inline(always)]` generic code: each is a
// `#[target_feature(enable = "aes")]` function inlined into the (AES-enabled) kernels.
#[inline]
#[target_feature(enable = "aes")]
pub(crate) fn aesenc_i(x: __m128i, k: __m128i) -> __m128i {
    _mm_aesenc_si128(x, k)
}
#[inline]
#[target_feature(enable = "aes")]
pub(crate) fn aesenclast_i(x: __m128i, k: __m128i) -> __m128i {
    _mm_aesenclast_si128(x, k)
}

/// The round keys for one direction, each in every block position of an `L`, as an array
/// (for the fused AES-GCM engines, which index it).
///
/// # Safety
///
/// The features `L` needs are enabled.
#[inline(always)]
pub(crate) unsafe fn splat_keys<L: Lanes, const NR: usize, const DEC: bool>(
    keys: &Keys,
) -> [L; 15] {
    let rk = keys.sched::<DEC>();
    // SAFETY: features per the contract of this function.
    core::array::from_fn(|r| unsafe { L::key(&rk[r.min(NR)]) })
}

/// `W` registers through the rounds of one direction, side by side, each round key loaded
/// from the schedule `k` once per round (a register or a memory operand: no copy of the
/// schedule is made).
///
/// # Safety
///
/// The features `L` needs are enabled.
#[inline(always)]
pub(crate) unsafe fn rounds<L: Lanes, const W: usize, const NR: usize, const DEC: bool>(
    k: &Schedule,
    b: &mut [L; W],
) {
    // SAFETY: features per the contract.
    unsafe {
        for kr in &k[1..NR] {
            let kr = L::key(kr);
            for x in b.iter_mut() {
                *x = if DEC { x.dec(kr) } else { x.enc(kr) };
            }
        }
    }
}

/// ECB on groups of `W` registers of `L` (`W * L::BLOCKS` blocks) from block `start`
/// while whole groups remain below block `end`. Returns the first block not processed.
///
/// # Safety
///
/// The features `L` needs are enabled, and `end <= io.len() / 16`.
#[inline(always)]
pub(crate) unsafe fn ecb<L: Lanes, const W: usize, const NR: usize, const DEC: bool>(
    k: &Schedule,
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
            let k0 = L::key(&k[0]);
            let mut b: [L; W] = [k0; W];
            for (j, x) in b.iter_mut().enumerate() {
                *x = L::load(src.add((i + j * L::BLOCKS) * 16)).xor(k0);
            }
            rounds::<L, W, NR, DEC>(k, &mut b);
            let kl = L::key(&k[NR]);
            for (j, x) in b.iter().enumerate() {
                let y = if DEC { x.declast(kl) } else { x.enclast(kl) };
                y.store(dst.add((i + j * L::BLOCKS) * 16));
            }
        }
        i += step;
    }
    i
}

/// The blocks in register `j` of the `M` registers that hold blocks `start..end` (only the
/// last may be partly filled).
#[inline(always)]
pub(crate) fn blocks_in<L: Lanes, const M: usize>(j: usize, start: usize, end: usize) -> usize {
    if j + 1 < M {
        L::BLOCKS
    } else {
        end - start - (M - 1) * L::BLOCKS
    }
}

/// ECB on blocks `start..end` in one pass of `M` registers side by side, the last one partly
/// filled when the count is not a multiple of `L::BLOCKS` (a masked or narrower load and
/// store): the tail after the whole groups of [`ecb`], with no loop and no one-block steps.
///
/// # Safety
///
/// The features `L` needs are enabled; `end <= io.len() / 16` and
/// `(M - 1) * L::BLOCKS < end - start <= M * L::BLOCKS`.
#[inline(always)]
pub(crate) unsafe fn ecb_last<L: Lanes, const NR: usize, const DEC: bool, const M: usize>(
    k: &Schedule,
    io: &mut InOut<'_>,
    start: usize,
    end: usize,
) {
    let src = io.src_ptr();
    let dst = io.dst_ptr();
    // SAFETY: register `j` covers blocks `start + j * BLOCKS ..` up to `end`, inside `io`.
    unsafe {
        let k0 = L::key(&k[0]);
        let mut b: [L; M] = [k0; M];
        for (j, x) in b.iter_mut().enumerate() {
            let p = src.add((start + j * L::BLOCKS) * 16);
            *x = L::load_part(p, blocks_in::<L, M>(j, start, end)).xor(k0);
        }
        rounds::<L, M, NR, DEC>(k, &mut b);
        let kl = L::key(&k[NR]);
        for (j, x) in b.iter().enumerate() {
            let y = if DEC { x.declast(kl) } else { x.enclast(kl) };
            let p = dst.add((start + j * L::BLOCKS) * 16);
            y.store_part(p, blocks_in::<L, M>(j, start, end));
        }
    }
}

/// Calls `$f::<$p.., M>($arg..)` with `M` the number of `$blocks`-block registers that
/// hold `$n` blocks, one of the listed constants (nothing when `$n` is 0):
/// `by_regs!(n, 4, [1, 2, 3], path::f, [P, Q], (a, b))`.
macro_rules! by_regs {
    (@go $v:expr, [$($m:literal),*], $f:tt, $ps:tt, $args:tt) => {
        match $v {
            $($m => by_regs!(@call $f, $ps, $m, $args),)*
            _ => {}
        }
    };
    (@call ($($f:ident)::+), [$($p:ident),*], $m:literal, ($($arg:expr),*)) => {
        $($f)::+::<$($p,)* $m>($($arg),*)
    };
    ($n:expr, $blocks:expr, $ms:tt, $($f:ident)::+, $ps:tt, $args:tt) => {
        by_regs!(@go ($n).div_ceil($blocks), $ms, ($($f)::+), $ps, $args)
    };
}
pub(crate) use by_regs;

/// Fewer blocks than this take the AES-NI short path ([`ecb_short`], [`ctr_short`],
/// [`xts_short`]): no round-key array is set up, the keys are read from the schedule as
/// each round uses them, and the blocks go through the rounds side by side.
pub(crate) const SHORT_BLOCKS: usize = 9;

/// `N` blocks (at most eight) through the cipher, round by round, the round keys loaded
/// from `keys` as they are used.
///
/// # Safety
///
/// AES-NI is enabled.
#[inline(always)]
pub(crate) unsafe fn rounds_short<const NR: usize, const DEC: bool, const N: usize>(
    keys: &Keys,
    mut b: [__m128i; N],
) -> [__m128i; N] {
    let rk = keys.sched::<DEC>();
    // SAFETY: AES-NI per the contract.
    unsafe {
        let key = |r: usize| rk[r].xmm();
        let k0 = key(0);
        for x in b.iter_mut() {
            *x = _mm_xor_si128(*x, k0);
        }
        for r in 1..NR {
            let k = key(r);
            for x in b.iter_mut() {
                *x = if DEC { x.dec(k) } else { x.enc(k) };
            }
        }
        let k = key(NR);
        for x in b.iter_mut() {
            *x = if DEC { x.declast(k) } else { x.enclast(k) };
        }
    }
    b
}

/// Calls `$f::<N>` with the number of blocks `$n` (1 to 8) as a constant.
macro_rules! by_count {
    ($n:expr, $f:ident::<$($p:ident),*>($($arg:expr),*)) => {
        match $n {
            1 => $f::<$($p,)* 1>($($arg),*),
            2 => $f::<$($p,)* 2>($($arg),*),
            3 => $f::<$($p,)* 3>($($arg),*),
            4 => $f::<$($p,)* 4>($($arg),*),
            5 => $f::<$($p,)* 5>($($arg),*),
            6 => $f::<$($p,)* 6>($($arg),*),
            7 => $f::<$($p,)* 7>($($arg),*),
            _ => $f::<$($p,)* 8>($($arg),*),
        }
    };
}
pub(crate) use by_count;

/// ECB on the `N` blocks of `io`.
#[inline(always)]
unsafe fn ecb_n<const NR: usize, const DEC: bool, const N: usize>(keys: &Keys, io: &mut InOut<'_>) {
    let (src, dst) = (io.src_ptr(), io.dst_ptr());
    // SAFETY: AES-NI per the caller's contract; `io` holds `N` blocks.
    unsafe {
        let b: [__m128i; N] = core::array::from_fn(|j| _mm_loadu_si128(src.add(16 * j).cast()));
        for (j, x) in rounds_short::<NR, DEC, N>(keys, b).iter().enumerate() {
            _mm_storeu_si128(dst.add(16 * j).cast(), *x);
        }
    }
}

/// ECB on the whole blocks of `io`, fewer than [`SHORT_BLOCKS`] and at least one.
///
/// # Safety
///
/// AES-NI is enabled.
#[inline(always)]
pub(crate) unsafe fn ecb_short<const NR: usize, const DEC: bool>(keys: &Keys, io: &mut InOut<'_>) {
    // SAFETY: per the contract.
    unsafe { by_count!(io.len() / 16, ecb_n::<NR, DEC>(keys, io)) }
}

/// CTR on the `N` blocks of `io` from counter block `c` (last word not wrapping).
#[inline(always)]
unsafe fn ctr_n<const NR: usize, const N: usize>(keys: &Keys, c: &Block, io: &mut InOut<'_>) {
    let (src, dst) = (io.src_ptr(), io.dst_ptr());
    let low = u32::from_be_bytes([c[12], c[13], c[14], c[15]]);
    // SAFETY: AES-NI per the caller's contract; `io` holds `N` blocks.
    unsafe {
        let c0 = _mm_loadu_si128(c.as_ptr().cast());
        let b: [__m128i; N] = core::array::from_fn(|j| {
            let w = low.wrapping_add(j as u32).swap_bytes() as i32;
            _mm_insert_epi32_sse2(c0, w)
        });
        for (j, x) in rounds_short::<NR, false, N>(keys, b).iter().enumerate() {
            let m = _mm_loadu_si128(src.add(16 * j).cast());
            _mm_storeu_si128(dst.add(16 * j).cast(), _mm_xor_si128(*x, m));
        }
    }
}

/// `v` with its last 32-bit word replaced by `w` (SSE2 only).
#[inline(always)]
unsafe fn _mm_insert_epi32_sse2(v: __m128i, w: i32) -> __m128i {
    // SAFETY: SSE2 is the x86-64 baseline.
    unsafe {
        let keep = _mm_set_epi32(0, -1, -1, -1);
        _mm_or_si128(_mm_and_si128(v, keep), _mm_set_epi32(w, 0, 0, 0))
    }
}

/// CTR on the whole blocks of `io` (fewer than [`SHORT_BLOCKS`], at least one) from
/// counter block `c`, whose last word does not wrap inside `io`.
///
/// # Safety
///
/// AES-NI is enabled.
#[inline(always)]
pub(crate) unsafe fn ctr_short<const NR: usize>(keys: &Keys, c: &Block, io: &mut InOut<'_>) {
    // SAFETY: per the contract.
    unsafe { by_count!(io.len() / 16, ctr_n::<NR>(keys, c, io)) }
}

/// XTS on the `N` blocks of `io` with the encrypted tweak `tweak` (advanced past them).
#[inline(always)]
unsafe fn xts_n<const NR: usize, const DEC: bool, const N: usize>(
    keys: &Keys,
    tweak: &mut Block,
    io: &mut InOut<'_>,
) {
    let (src, dst) = (io.src_ptr(), io.dst_ptr());
    let mut t = u128::from_le_bytes(*tweak);
    let mut tw = [0u128; N];
    for x in tw.iter_mut() {
        *x = t;
        t = mul_x(t);
    }
    *tweak = t.to_le_bytes();
    // SAFETY: AES-NI per the caller's contract; `io` holds `N` blocks.
    unsafe {
        let tv: [__m128i; N] =
            core::array::from_fn(|j| _mm_set_epi64x((tw[j] >> 64) as i64, tw[j] as i64));
        let b: [__m128i; N] =
            core::array::from_fn(|j| _mm_xor_si128(_mm_loadu_si128(src.add(16 * j).cast()), tv[j]));
        for (j, x) in rounds_short::<NR, DEC, N>(keys, b).iter().enumerate() {
            _mm_storeu_si128(dst.add(16 * j).cast(), _mm_xor_si128(*x, tv[j]));
        }
    }
}

/// XTS on the whole blocks of `io` (fewer than [`SHORT_BLOCKS`], at least one) with the
/// encrypted tweak `tweak`; on return `tweak` is the next block's tweak.
///
/// # Safety
///
/// AES-NI is enabled.
#[inline(always)]
pub(crate) unsafe fn xts_short<const NR: usize, const DEC: bool>(
    keys: &Keys,
    tweak: &mut Block,
    io: &mut InOut<'_>,
) {
    // SAFETY: per the contract.
    unsafe { by_count!(io.len() / 16, xts_n::<NR, DEC>(keys, tweak, io)) }
}

/// XTS on the `N` blocks of a whole data unit `io`: the tweak `tweak` is first enciphered
/// with `tkeys` (in a register, never stored), then the blocks go through `keys` with
/// the tweaks `T * x^j`.
#[inline(always)]
unsafe fn xts_unit_n<const NR: usize, const DEC: bool, const N: usize>(
    keys: &Keys,
    tkeys: &Keys,
    tweak: &Block,
    io: &mut InOut<'_>,
) {
    let (src, dst) = (io.src_ptr(), io.dst_ptr());
    // SAFETY: AES-NI per the caller's contract; `io` holds `N` blocks.
    unsafe {
        let [t0] = rounds_short::<NR, false, 1>(tkeys, [_mm_loadu_si128(tweak.as_ptr().cast())]);
        // Each tweak straight from the first (`1 <= j <= 7`), not one from the other.
        let tv: [__m128i; N] = core::array::from_fn(|j| {
            if j == 0 {
                t0
            } else {
                mul_x_pow_128(t0, j as u32)
            }
        });
        let b: [__m128i; N] =
            core::array::from_fn(|j| _mm_xor_si128(_mm_loadu_si128(src.add(16 * j).cast()), tv[j]));
        for (j, x) in rounds_short::<NR, DEC, N>(keys, b).iter().enumerate() {
            _mm_storeu_si128(dst.add(16 * j).cast(), _mm_xor_si128(*x, tv[j]));
        }
    }
}

/// XTS on one data unit `io` of whole blocks (fewer than [`SHORT_BLOCKS`], at least
/// one), the tweak `tweak` enciphered first with `tkeys` (same number of rounds).
///
/// # Safety
///
/// AES-NI is enabled.
#[inline(always)]
pub(crate) unsafe fn xts_unit_short<const NR: usize, const DEC: bool>(
    keys: &Keys,
    tkeys: &Keys,
    tweak: &Block,
    io: &mut InOut<'_>,
) {
    // SAFETY: per the contract.
    unsafe { by_count!(io.len() / 16, xts_unit_n::<NR, DEC>(keys, tkeys, tweak, io)) }
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
pub(crate) use by_rounds;
