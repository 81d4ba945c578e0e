//! GOST 28147-89 with NEON: four blocks per pair of 128-bit registers (`vld2q_u32` puts
//! the four `N1` halves in one register and the four `N2` halves in the other).
//!
//! The S-boxes are two four-register `TBL` look-ups in 64-byte tables, the index of a
//! byte being its nibble (bits 0-3) and its position in the word (bits 4-5), as in the
//! AVX-512 backend: `BSL` forms the low-nibble index in one instruction and `SRI` the
//! high-nibble one. `TBL` reads its table from registers and takes the same time for
//! every index: constant time. Four register pairs (16 blocks) are in flight.

use core::arch::aarch64::*;

use super::{add_mod_2_32_minus_1, Block, Tables, BLOCK_LEN, C1, C2};
use crate::cpu::aarch64::Neon;
use crate::inout::InOut;

/// Register pairs in flight in the bulk loops.
const P: usize = 4;
/// Blocks per register pair.
const L: usize = 4;

const ECB: u8 = 0;
const GAMMA: u8 = 1;
const CFB_DEC: u8 = 2;

#[derive(Clone, Copy)]
struct Consts {
    lo: uint8x16x4_t,
    hi: uint8x16x4_t,
    nib: uint8x16_t,
    pos: uint8x16_t,
}

#[inline]
#[target_feature(enable = "neon")]
fn consts(t: &Tables) -> Consts {
    // SAFETY: `t.lo` and `t.hi` are 64 readable bytes each.
    unsafe {
        Consts {
            lo: vld1q_u8_x4(t.lo.as_ptr()),
            hi: vld1q_u8_x4(t.hi.as_ptr()),
            nib: vdupq_n_u8(0x0f),
            pos: vreinterpretq_u8_u32(vdupq_n_u32(0x3020_1000)),
        }
    }
}

/// The round function on four lanes: S-boxes, then rotation left by 11.
#[inline]
#[target_feature(enable = "neon")]
fn f(x: uint32x4_t, c: &Consts) -> uint32x4_t {
    let xb = vreinterpretq_u8_u32(x);
    // (x & 0x0f) | pos, and pos | (x >> 4) per byte.
    let ilo = vbslq_u8(c.nib, xb, c.pos);
    let ihi = vsriq_n_u8::<4>(c.pos, xb);
    let s = vreinterpretq_u32_u8(vorrq_u8(vqtbl4q_u8(c.lo, ilo), vqtbl4q_u8(c.hi, ihi)));
    vsriq_n_u32::<21>(vshlq_n_u32::<11>(s), s)
}

/// 32 rounds on `N` register pairs; on return `a` holds the output `N1` and `b` `N2`.
#[inline]
#[target_feature(enable = "neon")]
fn crypt<const N: usize>(
    a: &mut [uint32x4_t; N],
    b: &mut [uint32x4_t; N],
    rk: &[u32; 32],
    c: &Consts,
) {
    for &k in rk {
        let k = vdupq_n_u32(k);
        for j in 0..N {
            let t = veorq_u32(b[j], f(vaddq_u32(a[j], k), c));
            b[j] = a[j];
            a[j] = t;
        }
    }
    core::mem::swap(a, b);
}

/// One group of `N` register pairs: exactly `4 N` blocks at `src`/`dst` (see the
/// AVX-512 backend's `group` for the modes). `carry` holds the `N1`/`N2` lanes of the
/// previous input pair (`CFB_DEC`: its last lane is the block before the first).
///
/// # Safety
/// `src` readable and `dst` writable for `32 N` bytes (may be equal; loads precede
/// stores).
#[inline]
#[target_feature(enable = "neon")]
unsafe fn group<const N: usize, const MODE: u8>(
    rk: &[u32; 32],
    c: &Consts,
    src: *const u8,
    dst: *mut u8,
    ctr: &mut [u32; 2],
    carry: &mut uint32x4x2_t,
) {
    let zero = vdupq_n_u32(0);
    let mut x = [uint32x4x2_t(zero, zero); N];
    for (j, xj) in x.iter_mut().enumerate() {
        // SAFETY: 32 readable bytes at `src + 32 j` per the caller.
        *xj = unsafe { vld2q_u32(src.add(32 * j).cast()) };
    }
    let mut a = [zero; N];
    let mut b = [zero; N];
    match MODE {
        ECB => {
            for j in 0..N {
                (a[j], b[j]) = (x[j].0, x[j].1);
            }
        }
        GAMMA => {
            let steps: [u32; 4] = [1, 2, 3, 4];
            // SAFETY: 16 readable bytes.
            let step = unsafe { vld1q_u32(steps.as_ptr()) };
            let (n3, n4) = (vdupq_n_u32(ctr[0]), vdupq_n_u32(ctr[1]));
            for j in 0..N {
                let q = vaddq_u32(step, vdupq_n_u32((L * j) as u32));
                let d2 = vmulq_n_u32(q, C2);
                let d1 = vmulq_n_u32(q, C1);
                a[j] = vaddq_u32(n3, d2);
                let s = vaddq_u32(n4, d1);
                // All ones where the sum wrapped (s < d1): subtracting it adds one.
                b[j] = vsubq_u32(s, vcltq_u32(s, d1));
            }
            let n = (L * N) as u32;
            ctr[0] = ctr[0].wrapping_add(n.wrapping_mul(C2));
            ctr[1] = add_mod_2_32_minus_1(ctr[1], n.wrapping_mul(C1));
        }
        _ => {
            let mut prev = *carry;
            for j in 0..N {
                a[j] = vextq_u32::<3>(prev.0, x[j].0);
                b[j] = vextq_u32::<3>(prev.1, x[j].1);
                prev = x[j];
            }
            *carry = prev;
        }
    }
    crypt(&mut a, &mut b, rk, c);
    for j in 0..N {
        let (mut y0, mut y1) = (a[j], b[j]);
        if MODE != ECB {
            y0 = veorq_u32(y0, x[j].0);
            y1 = veorq_u32(y1, x[j].1);
        }
        // SAFETY: 32 writable bytes at `dst + 32 j` per the caller.
        unsafe { vst2q_u32(dst.add(32 * j).cast(), uint32x4x2_t(y0, y1)) };
    }
}

/// Runs `group` over `n` blocks: whole groups of `P` pairs, then the rest through a
/// zero-padded buffer. `iv` is the block before the first (`CFB_DEC` only).
///
/// # Safety
/// `src` readable and `dst` writable for `8 n` bytes.
#[target_feature(enable = "neon")]
unsafe fn run<const MODE: u8>(
    rk: &[u32; 32],
    t: &Tables,
    src: *const u8,
    dst: *mut u8,
    n: usize,
    ctr: &mut [u32; 2],
    iv: &Block,
) {
    let c = consts(t);
    let w = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let mut carry = uint32x4x2_t(vdupq_n_u32(w(&iv[..4])), vdupq_n_u32(w(&iv[4..])));
    let mut i = 0;
    while n - i >= P * L {
        // SAFETY: blocks `i..i + P L` are in bounds.
        unsafe {
            group::<P, MODE>(rk, &c, src.add(8 * i), dst.add(8 * i), ctr, &mut carry);
        }
        i += P * L;
    }
    let m = n - i;
    if m > 0 {
        let mut buf = [0u8; 8 * P * L];
        // SAFETY: blocks `i..n` are readable; `buf` is a distinct local.
        unsafe { core::ptr::copy_nonoverlapping(src.add(8 * i), buf.as_mut_ptr(), 8 * m) };
        let mut c2 = *ctr;
        let p = buf.as_mut_ptr();
        // SAFETY: `buf` holds `P L` blocks.
        unsafe {
            if m <= L {
                group::<1, MODE>(rk, &c, p, p, &mut c2, &mut carry);
            } else {
                group::<P, MODE>(rk, &c, p, p, &mut c2, &mut carry);
            }
        }
        // SAFETY: blocks `i..n` are writable; `buf` is a distinct local.
        unsafe { core::ptr::copy_nonoverlapping(buf.as_ptr(), dst.add(8 * i), 8 * m) };
        crate::wipe::wipe(&mut buf);
        ctr[0] = ctr[0].wrapping_add((m as u32).wrapping_mul(C2));
        ctr[1] = add_mod_2_32_minus_1(ctr[1], (m as u32).wrapping_mul(C1));
    }
}

/// ECB on whole blocks.
pub(super) fn ecb(_t: Neon, rk: &[u32; 32], tables: &Tables, mut io: InOut<'_>) {
    let n = io.len() / BLOCK_LEN;
    let (src, dst) = (io.src_ptr(), io.dst_ptr());
    let mut ctr = [0u32; 2];
    // SAFETY: the `Neon` token proves NEON; `io` is valid for `n` blocks.
    unsafe { run::<ECB>(rk, tables, src, dst, n, &mut ctr, &[0; 8]) }
}

/// Gamma on whole blocks (see `Engine::gamma`).
pub(super) fn gamma(
    _t: Neon,
    rk: &[u32; 32],
    tables: &Tables,
    ctr: &mut [u32; 2],
    mut io: InOut<'_>,
) {
    let n = io.len() / BLOCK_LEN;
    let (src, dst) = (io.src_ptr(), io.dst_ptr());
    // SAFETY: as in `ecb`.
    unsafe { run::<GAMMA>(rk, tables, src, dst, n, ctr, &[0; 8]) }
}

/// Gamma-with-feedback decryption of whole blocks.
pub(super) fn cfb_decrypt(
    _t: Neon,
    rk: &[u32; 32],
    tables: &Tables,
    iv: &mut Block,
    mut io: InOut<'_>,
) {
    let n = io.len() / BLOCK_LEN;
    if n == 0 {
        return;
    }
    // Read before anything is written (the call may work in place).
    let last = io.read::<8>(8 * (n - 1));
    let (src, dst) = (io.src_ptr(), io.dst_ptr());
    let mut ctr = [0u32; 2];
    // SAFETY: as in `ecb`.
    unsafe { run::<CFB_DEC>(rk, tables, src, dst, n, &mut ctr, iv) }
    *iv = last;
}

/// Swapping rounds on one block (`a` = N1, `b` = N2 in every lane), one per key.
#[inline]
#[target_feature(enable = "neon")]
fn rounds1(a: &mut uint32x4_t, b: &mut uint32x4_t, rk: &[u32], c: &Consts) {
    for &k in rk {
        let t = veorq_u32(*b, f(vaddq_u32(*a, vdupq_n_u32(k)), c));
        *b = *a;
        *a = t;
    }
}

#[inline]
#[target_feature(enable = "neon")]
fn word(b: &[u8]) -> uint32x4_t {
    vdupq_n_u32(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

#[inline]
#[target_feature(enable = "neon")]
fn lane0(v: uint32x4_t) -> [u8; 4] {
    vgetq_lane_u32::<0>(v).to_le_bytes()
}

/// Gamma-with-feedback encryption, one block after the other: `C_i = P_i ^ E(C_{i-1})`.
pub(super) fn cfb_encrypt(
    _t: Neon,
    rk: &[u32; 32],
    tables: &Tables,
    iv: &mut Block,
    mut io: InOut<'_>,
) {
    // SAFETY: the `Neon` token proves NEON.
    unsafe { cfb_encrypt_k(rk, tables, iv, &mut io) }
}

#[target_feature(enable = "neon")]
fn cfb_encrypt_k(rk: &[u32; 32], t: &Tables, iv: &mut Block, io: &mut InOut<'_>) {
    let c = consts(t);
    let (mut c1, mut c2) = (word(&iv[..4]), word(&iv[4..]));
    for i in 0..io.len() / BLOCK_LEN {
        let (mut a, mut b) = (c1, c2);
        rounds1(&mut a, &mut b, rk, &c);
        let p = io.read::<8>(8 * i);
        // The output block is (b, a): the last round does not swap.
        c1 = veorq_u32(b, word(&p[..4]));
        c2 = veorq_u32(a, word(&p[4..]));
        let mut o = [0u8; 8];
        o[..4].copy_from_slice(&lane0(c1));
        o[4..].copy_from_slice(&lane0(c2));
        io.write(8 * i, &o);
    }
    iv[..4].copy_from_slice(&lane0(c1));
    iv[4..].copy_from_slice(&lane0(c2));
}

/// The MAC chain: `state = F16(state ^ block)` over whole blocks.
pub(super) fn mac(_t: Neon, rk: &[u32; 32], tables: &Tables, state: &mut Block, data: &[u8]) {
    // SAFETY: the `Neon` token proves NEON.
    unsafe { mac_k(rk, tables, state, data) }
}

#[target_feature(enable = "neon")]
fn mac_k(rk: &[u32; 32], t: &Tables, state: &mut Block, data: &[u8]) {
    let c = consts(t);
    let (mut a, mut b) = (word(&state[..4]), word(&state[4..]));
    for blk in data.chunks_exact(BLOCK_LEN) {
        a = veorq_u32(a, word(&blk[..4]));
        b = veorq_u32(b, word(&blk[4..]));
        rounds1(&mut a, &mut b, &rk[..16], &c);
    }
    state[..4].copy_from_slice(&lane0(a));
    state[4..].copy_from_slice(&lane0(b));
}

/// Four blocks under four keys, one per lane (GOST 34.311's step).
pub(super) fn encrypt4(
    _t: Neon,
    keys: &[[u32; 8]; 4],
    tables: &Tables,
    blocks: &mut [[u32; 2]; 4],
) {
    // SAFETY: the `Neon` token proves NEON.
    unsafe { encrypt4_k(keys, tables, blocks) }
}

#[target_feature(enable = "neon")]
fn encrypt4_k(keys: &[[u32; 8]; 4], tables: &Tables, blocks: &mut [[u32; 2]; 4]) {
    let c = consts(tables);
    let mut kv = [vdupq_n_u32(0); 8];
    for (i, v) in kv.iter_mut().enumerate() {
        let w = [keys[0][i], keys[1][i], keys[2][i], keys[3][i]];
        // SAFETY: 16 readable bytes.
        *v = unsafe { vld1q_u32(w.as_ptr()) };
    }
    // SAFETY: `blocks` is 32 readable bytes: four (N1, N2) pairs.
    let x = unsafe { vld2q_u32(blocks.as_flattened().as_ptr()) };
    let (mut a, mut b) = (x.0, x.1);
    for r in 0..32 {
        let k = kv[if r < 24 { r % 8 } else { 31 - r }];
        let t = veorq_u32(b, f(vaddq_u32(a, k), &c));
        b = a;
        a = t;
    }
    // SAFETY: `blocks` is 32 writable bytes. Output N1 = b, N2 = a.
    unsafe { vst2q_u32(blocks.as_flattened_mut().as_mut_ptr(), uint32x4x2_t(b, a)) };
}
