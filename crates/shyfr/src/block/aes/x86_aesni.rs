//! AES with AES-NI (Intel SDM Vol. 2A, AESENC/AESENCLAST/AESDEC/AESDECLAST/AESIMC).
//!
//! Twelve blocks are kept in flight: `aesenc` has a latency of 3-4 cycles and one or two
//! units, so eight would just cover it; twelve also hide the loads, XORs and stores
//! (measured on Zen 3: 0.315 cycles/byte for AES-128 with 12, 0.33 with 8). The key
//! schedule and the lane-generic loops are in the shared x86 toolkit (`x86.rs`) and
//! `x86_modes.rs`.

use core::arch::x86_64::*;

use super::x86::{
    by_regs, by_rounds, ctr_short, ecb, ecb_last, ecb_short, xts_short, xts_unit_short, Keys,
    Lanes, SHORT_BLOCKS,
};
use super::Block;
use crate::cpu::x86::AesNi;
use crate::inout::InOut;

#[target_feature(enable = "aes")]
fn kernel<const NR: usize, const DEC: bool>(keys: &Keys, mut io: InOut<'_>) {
    let n = io.len() / 16;
    if n == 0 {
        return;
    }
    if n < SHORT_BLOCKS {
        // SAFETY: `aes` is enabled here; `io` holds `n` blocks.
        return unsafe { ecb_short::<NR, DEC>(keys, &mut io) };
    }
    let k = keys.sched::<DEC>();
    // SAFETY: `aes` is enabled here; every call stays below block `n`, and `by_regs!`
    // picks the register count that holds blocks `i..n`.
    unsafe {
        let i = ecb::<__m128i, 12, NR, DEC>(k, &mut io, 0, n);
        by_regs!(
            n - i,
            1,
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
            ecb_last,
            [__m128i, NR, DEC],
            (k, &mut io, i, n)
        );
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

// ---- Fused mode kernels (the loops are in `x86_modes`) ----

use super::x86_modes as modes;
use super::Serial;

#[target_feature(enable = "aes")]
fn ctr_kernel<const NR: usize, const D: bool>(keys: &Keys, c: &Block, mut io: InOut<'_>) {
    let n = io.len() / 16;
    if n == 0 {
        return;
    }
    if n < SHORT_BLOCKS {
        // SAFETY: `aes` is enabled here; `io` holds `n` blocks; the caller guarantees the
        // counter's last word does not wrap.
        return unsafe { ctr_short::<NR>(keys, c, &mut io) };
    }
    let low = u32::from_be_bytes([c[12], c[13], c[14], c[15]]);
    let k = &keys.enc;
    // SAFETY: `aes` is enabled here; every call stays below block `n`, and the caller
    // guarantees the counter's last word does not wrap.
    unsafe {
        let cs = <__m128i as Lanes>::ctr_init(c);
        // Eight blocks per group: 0.34 cycles/byte for AES-128 on Zen 3, against 0.40
        // with twelve (which spill the counters' registers).
        let i = modes::ctr::<__m128i, 8, NR>(k, &mut io, &cs, low, 0, n);
        by_regs!(
            n - i,
            1,
            [1, 2, 3, 4, 5, 6, 7],
            modes::ctr_last,
            [__m128i, NR],
            (k, &mut io, &cs, i, n)
        );
    }
}

#[target_feature(enable = "aes")]
fn chain_kernel<const NR: usize, const DEC: bool>(keys: &Keys, iv: &mut Block, mut io: InOut<'_>) {
    let n = io.len() / 16;
    let k = keys.sched::<DEC>();
    // SAFETY: `aes` is enabled here; every call stays below block `n`.
    unsafe {
        let mut v = _mm_loadu_si128(iv.as_ptr().cast());
        let i = modes::chain_dec::<__m128i, 8, NR, DEC>(k, &mut io, &mut v, 0, n);
        by_regs!(
            n - i,
            1,
            [1, 2, 3, 4, 5, 6, 7],
            modes::chain_last,
            [__m128i, NR, DEC],
            (k, &mut io, &mut v, i, n)
        );
        _mm_storeu_si128(iv.as_mut_ptr().cast(), v);
    }
}

#[target_feature(enable = "aes")]
fn xts_kernel<const NR: usize, const DEC: bool>(keys: &Keys, tweak: &mut Block, mut io: InOut<'_>) {
    let n = io.len() / 16;
    if n == 0 {
        return;
    }
    if n < SHORT_BLOCKS {
        // SAFETY: `aes` is enabled here; `io` holds `n` blocks.
        return unsafe { xts_short::<NR, DEC>(keys, tweak, &mut io) };
    }
    let k = keys.sched::<DEC>();
    // SAFETY: `aes` is enabled here; every call stays below block `n`.
    unsafe {
        let i = modes::xts::<__m128i, 8, NR, DEC>(k, &mut io, tweak, 0, n, |tw| {
            modes::advance_double(tw)
        });
        by_regs!(
            n - i,
            1,
            [1, 2, 3, 4, 5, 6, 7],
            modes::xts_last,
            [__m128i, NR, DEC],
            (k, &mut io, tweak, i, n)
        );
    }
}

#[target_feature(enable = "aes")]
fn xts_unit_kernel<const NR: usize, const DEC: bool>(
    keys: &Keys,
    tkeys: &Keys,
    tweak: &Block,
    mut io: InOut<'_>,
) {
    let n = io.len() / 16;
    if n == 0 || n >= SHORT_BLOCKS {
        return;
    }
    // SAFETY: `aes` is enabled here; `io` holds `n` blocks, `1 <= n < SHORT_BLOCKS`.
    unsafe { xts_unit_short::<NR, DEC>(keys, tkeys, tweak, &mut io) }
}

#[target_feature(enable = "aes")]
fn serial_kernel<const NR: usize, const D: bool>(
    keys: &Keys,
    mode: Serial,
    iv: &mut Block,
    src: *const u8,
    dst: *mut u8,
    n: usize,
) {
    // SAFETY: `aes` is enabled here; the caller passes `n` blocks at `src` and `dst`.
    unsafe { modes::serial::<NR>(keys, mode, iv, src, dst, n) }
}

/// CTR over the whole blocks of `io` from counter block `c` (last word not wrapping).
pub(super) fn ctr32(keys: &Keys, _t: AesNi, c: &Block, io: InOut<'_>) {
    // SAFETY: the token proves AES-NI.
    unsafe { by_rounds!(keys, ctr_kernel, false, keys, c, io) }
}

/// CBC (`dec`) or CFB (`!dec`) decryption of the whole blocks of `io`.
pub(super) fn chain_dec(keys: &Keys, _t: AesNi, iv: &mut Block, io: InOut<'_>, cbc: bool) {
    // SAFETY: the token proves AES-NI.
    unsafe {
        if cbc {
            by_rounds!(keys, chain_kernel, true, keys, iv, io)
        } else {
            by_rounds!(keys, chain_kernel, false, keys, iv, io)
        }
    }
}

/// XTS over the whole blocks of `io` with the encrypted tweak `tweak`.
pub(super) fn xts(keys: &Keys, _t: AesNi, tweak: &mut Block, io: InOut<'_>, dec: bool) {
    // SAFETY: the token proves AES-NI.
    unsafe {
        if dec {
            by_rounds!(keys, xts_kernel, true, keys, tweak, io)
        } else {
            by_rounds!(keys, xts_kernel, false, keys, tweak, io)
        }
    }
}

/// XTS over one data unit `io` of 1 to `SHORT_BLOCKS - 1` whole blocks (anything else is
/// left untouched: the caller checks), the tweak `tweak` enciphered first with `tkeys`,
/// which must have as many rounds as `keys`.
pub(super) fn xts_unit(
    keys: &Keys,
    _t: AesNi,
    tkeys: &Keys,
    tweak: &Block,
    io: InOut<'_>,
    dec: bool,
) {
    debug_assert_eq!(keys.rounds, tkeys.rounds);
    // SAFETY: the token proves AES-NI.
    unsafe {
        if dec {
            by_rounds!(keys, xts_unit_kernel, true, keys, tkeys, tweak, io)
        } else {
            by_rounds!(keys, xts_unit_kernel, false, keys, tkeys, tweak, io)
        }
    }
}

/// A serial mode over `n` blocks at `src`, written to `dst` (unless [`Serial::Mac`]).
///
/// # Safety
///
/// `src` is readable and `dst` writable (they may be equal) for `16 * n` bytes.
pub(super) unsafe fn serial(
    keys: &Keys,
    _t: AesNi,
    mode: Serial,
    iv: &mut Block,
    src: *const u8,
    dst: *mut u8,
    n: usize,
) {
    // SAFETY: the token proves the features; the caller vouches for the pointers.
    unsafe { by_rounds!(keys, serial_kernel, false, keys, mode, iv, src, dst, n) }
}

#[target_feature(enable = "aes")]
fn ccm_kernel<const NR: usize, const DEC: bool>(
    keys: &Keys,
    mac: &mut Block,
    c: &Block,
    src: *const u8,
    dst: *mut u8,
    n: usize,
) {
    // SAFETY: AES-NI is enabled here (the wide backends run this kernel too: a chain is
    // one block wide); the caller passes `n` blocks at `src` and `dst` and a counter that
    // does not wrap.
    unsafe { modes::ccm::<NR, DEC>(keys, mac, c, src, dst, n) }
}

/// CCM's bulk pass (counter mode and the CBC-MAC of the plaintext in one loop) over `n`
/// blocks at `src`, written to `dst`; `dec`: the input is the ciphertext.
///
/// # Safety
///
/// `src` is readable and `dst` writable (they may be equal) for `16 * n` bytes, and the
/// last word of `c` does not wrap within `n` blocks.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn ccm(
    keys: &Keys,
    _t: AesNi,
    mac: &mut Block,
    c: &Block,
    src: *const u8,
    dst: *mut u8,
    n: usize,
    dec: bool,
) {
    // SAFETY: the token proves the features; the caller vouches for the pointers.
    unsafe {
        if dec {
            by_rounds!(keys, ccm_kernel, true, keys, mac, c, src, dst, n)
        } else {
            by_rounds!(keys, ccm_kernel, false, keys, mac, c, src, dst, n)
        }
    }
}
