//! GOST 28147-89 with AVX-512 VBMI: sixteen blocks per pair of 512-bit registers, one
//! holding the sixteen `N1` halves and one the sixteen `N2` halves as 32-bit lanes.
//!
//! The eight 4-bit S-boxes are two `vpermb` look-ups in 64-byte tables held in registers:
//! the index of a byte is its nibble in bits 0-3 and its position in the 32-bit word in
//! bits 4-5, so one table holds the four S-boxes of the low nibbles (`K1, K3, K5, K7`)
//! and the other the four of the high nibbles (`K2, K4, K6, K8`, pre-shifted by four).
//! `vpermb` reads its table from a register and takes the same time for every index:
//! constant time. A round is nine instructions per sixteen blocks (add, shift, two
//! `vpternlogd` forming the indices, two `vpermb`, or, `vprold`, xor); eight register
//! pairs (128 blocks) are in flight, enough to hide the latency of the round.

use core::arch::x86_64::*;

use super::{add_mod_2_32_minus_1, Block, Tables, BLOCK_LEN, C1, C2};
use crate::cpu::x86::Avx512Vbmi;
use crate::inout::InOut;

/// Register pairs in flight in the bulk loops.
const P: usize = 8;
/// Blocks per register pair.
const L: usize = 16;

/// What a group computes.
const ECB: u8 = 0;
const GAMMA: u8 = 1;
const CFB_DEC: u8 = 2;

/// The S-box tables and the constants the index computation uses.
#[derive(Clone, Copy)]
struct Consts {
    lo: __m512i,
    hi: __m512i,
    nib: __m512i,
    pos: __m512i,
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
fn consts(t: &Tables) -> Consts {
    // SAFETY: `t.lo` and `t.hi` are 64 readable bytes each; AVX-512F is enabled.
    let (lo, hi) = unsafe {
        (
            _mm512_loadu_si512(t.lo.as_ptr().cast()),
            _mm512_loadu_si512(t.hi.as_ptr().cast()),
        )
    };
    Consts {
        lo,
        hi,
        nib: _mm512_set1_epi32(0x0f0f_0f0f),
        // The byte position in bits 4-5 of every byte's table index.
        pos: _mm512_set1_epi32(0x3020_1000),
    }
}

/// The round function on sixteen lanes: S-boxes, then rotation left by 11.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
fn f(x: __m512i, c: &Consts) -> __m512i {
    // (x & 0x0f..) | pos, and the same for the high nibbles: 0xea is (A & B) | C.
    let ilo = _mm512_ternarylogic_epi32::<0xea>(x, c.nib, c.pos);
    let ihi = _mm512_ternarylogic_epi32::<0xea>(_mm512_srli_epi32::<4>(x), c.nib, c.pos);
    let s = _mm512_or_si512(
        _mm512_permutexvar_epi8(ilo, c.lo),
        _mm512_permutexvar_epi8(ihi, c.hi),
    );
    _mm512_rol_epi32::<11>(s)
}

/// 32 rounds on `N` register pairs; on return `a` holds the output `N1` and `b` the
/// output `N2`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
fn crypt<const N: usize>(a: &mut [__m512i; N], b: &mut [__m512i; N], rk: &[u32; 32], c: &Consts) {
    for &k in rk {
        let k = _mm512_set1_epi32(k as i32);
        for j in 0..N {
            let t = _mm512_xor_si512(b[j], f(_mm512_add_epi32(a[j], k), c));
            b[j] = a[j];
            a[j] = t;
        }
    }
    // The last round does not swap.
    core::mem::swap(a, b);
}

/// Blocks `0..8` and `8..16` (64-bit lanes) to the `N1` and `N2` lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
fn split(x0: __m512i, x1: __m512i) -> (__m512i, __m512i) {
    let even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    let odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    (
        _mm512_permutex2var_epi32(x0, even, x1),
        _mm512_permutex2var_epi32(x0, odd, x1),
    )
}

/// The inverse of [`split`].
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
fn join(a: __m512i, b: __m512i) -> (__m512i, __m512i) {
    let lo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    let hi = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    (
        _mm512_permutex2var_epi32(a, lo, b),
        _mm512_permutex2var_epi32(a, hi, b),
    )
}

/// Load masks of the two halves of a register pair holding `n` valid blocks.
#[inline(always)]
fn masks(n: usize) -> (__mmask8, __mmask8) {
    let m = |k: usize| ((1u32 << k.min(8)) - 1) as __mmask8;
    (m(n), m(n.saturating_sub(8)))
}

/// One group of `N` register pairs covering the `n <= 16 N` blocks at `src`/`dst`.
///
/// * `ECB`: `dst = E(src)`;
/// * `GAMMA`: `dst = src ^ E(ctr_q)`, `ctr_q` the counter after `q + 1` steps from `ctr`
///   for block `q`; `ctr` is advanced by `n` steps;
/// * `CFB_DEC`: `dst = src ^ E(prev)`, `prev` the previous ciphertext block, the one
///   before the first taken from the top lane of `carry`; `carry` becomes the last
///   register of input.
///
/// # Safety
/// `src` must be readable and `dst` writable for `8 n` bytes (they may be equal; every
/// load happens before any store).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
unsafe fn group<const N: usize, const MODE: u8>(
    rk: &[u32; 32],
    c: &Consts,
    src: *const u8,
    dst: *mut u8,
    n: usize,
    ctr: &mut [u32; 2],
    carry: &mut __m512i,
) {
    let mut x = [[_mm512_setzero_si512(); 2]; N];
    for (j, xj) in x.iter_mut().enumerate() {
        let (m0, m1) = masks(n.saturating_sub(L * j));
        let p = src.wrapping_add(128 * j);
        // SAFETY: the masks select only blocks below `n`, which the caller guarantees
        // readable; masked-off lanes are not accessed (AVX-512 fault suppression).
        unsafe {
            xj[0] = _mm512_maskz_loadu_epi64(m0, p.cast());
            xj[1] = _mm512_maskz_loadu_epi64(m1, p.wrapping_add(64).cast());
        }
    }
    let mut a = [_mm512_setzero_si512(); N];
    let mut b = [_mm512_setzero_si512(); N];
    match MODE {
        ECB => {
            for j in 0..N {
                (a[j], b[j]) = split(x[j][0], x[j][1]);
            }
        }
        GAMMA => {
            // Lane l of pair j is block q = 16 j + l: N3 + (q + 1) C2 and
            // N4 + (q + 1) C1 modulo 2^32 - 1. (q + 1) C1 < 2^32 for q < 128, so one
            // end-around-carry addition equals q + 1 steps.
            let step = _mm512_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
            let n3 = _mm512_set1_epi32(ctr[0] as i32);
            let n4 = _mm512_set1_epi32(ctr[1] as i32);
            let one = _mm512_set1_epi32(1);
            for j in 0..N {
                let q = _mm512_add_epi32(step, _mm512_set1_epi32((L * j) as i32));
                let d2 = _mm512_mullo_epi32(q, _mm512_set1_epi32(C2 as i32));
                let d1 = _mm512_mullo_epi32(q, _mm512_set1_epi32(C1 as i32));
                a[j] = _mm512_add_epi32(n3, d2);
                let s = _mm512_add_epi32(n4, d1);
                let wrapped = _mm512_cmplt_epu32_mask(s, d1);
                b[j] = _mm512_mask_add_epi32(s, wrapped, s, one);
            }
            ctr[0] = ctr[0].wrapping_add((n as u32).wrapping_mul(C2));
            ctr[1] = add_mod_2_32_minus_1(ctr[1], (n as u32).wrapping_mul(C1));
        }
        _ => {
            let mut prev = *carry;
            for j in 0..N {
                let p0 = _mm512_alignr_epi64::<7>(x[j][0], prev);
                let p1 = _mm512_alignr_epi64::<7>(x[j][1], x[j][0]);
                prev = x[j][1];
                (a[j], b[j]) = split(p0, p1);
            }
            *carry = prev;
        }
    }
    crypt(&mut a, &mut b, rk, c);
    for j in 0..N {
        let (mut y0, mut y1) = join(a[j], b[j]);
        if MODE != ECB {
            y0 = _mm512_xor_si512(y0, x[j][0]);
            y1 = _mm512_xor_si512(y1, x[j][1]);
        }
        let (m0, m1) = masks(n.saturating_sub(L * j));
        let p = dst.wrapping_add(128 * j);
        // SAFETY: the masks select only blocks below `n`, writable per the caller.
        unsafe {
            _mm512_mask_storeu_epi64(p.cast(), m0, y0);
            _mm512_mask_storeu_epi64(p.wrapping_add(64).cast(), m1, y1);
        }
    }
}

/// Runs `group` over `n` blocks: whole groups of `P` pairs, then one group sized to the
/// rest. `iv` is the block before the first (`CFB_DEC` only).
///
/// # Safety
/// `src` readable and `dst` writable for `8 n` bytes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
unsafe fn run<const MODE: u8>(
    rk: &[u32; 32],
    t: &Tables,
    src: *const u8,
    dst: *mut u8,
    n: usize,
    ctr: &mut [u32; 2],
    iv: u64,
) {
    let c = consts(t);
    let mut carry = _mm512_set1_epi64(iv as i64);
    let carry = &mut carry;
    let mut i = 0;
    // SAFETY: every call below covers blocks `i..i + m` with `i + m <= n`, in bounds per
    // the caller.
    unsafe {
        while n - i >= P * L {
            group::<P, MODE>(rk, &c, src.add(8 * i), dst.add(8 * i), P * L, ctr, carry);
            i += P * L;
        }
        let m = n - i;
        let (s, d) = (src.add(8 * i), dst.add(8 * i));
        match m {
            0 => {}
            1..=16 => group::<1, MODE>(rk, &c, s, d, m, ctr, carry),
            17..=32 => group::<2, MODE>(rk, &c, s, d, m, ctr, carry),
            33..=64 => group::<4, MODE>(rk, &c, s, d, m, ctr, carry),
            _ => group::<P, MODE>(rk, &c, s, d, m, ctr, carry),
        }
    }
}

/// ECB on whole blocks.
pub(super) fn ecb(_t: Avx512Vbmi, rk: &[u32; 32], tables: &Tables, mut io: InOut<'_>) {
    let n = io.len() / BLOCK_LEN;
    let (src, dst) = (io.src_ptr(), io.dst_ptr());
    let mut ctr = [0u32; 2];
    // SAFETY: the `Avx512Vbmi` token proves AVX-512 F/BW/VL/VBMI; `io` is valid for `n`
    // blocks.
    unsafe { run::<ECB>(rk, tables, src, dst, n, &mut ctr, 0) }
}

/// Gamma on whole blocks (see `Engine::gamma`).
pub(super) fn gamma(
    _t: Avx512Vbmi,
    rk: &[u32; 32],
    tables: &Tables,
    ctr: &mut [u32; 2],
    mut io: InOut<'_>,
) {
    let n = io.len() / BLOCK_LEN;
    let (src, dst) = (io.src_ptr(), io.dst_ptr());
    // SAFETY: as in `ecb`.
    unsafe { run::<GAMMA>(rk, tables, src, dst, n, ctr, 0) }
}

/// Gamma-with-feedback decryption of whole blocks.
pub(super) fn cfb_decrypt(
    _t: Avx512Vbmi,
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
    unsafe { run::<CFB_DEC>(rk, tables, src, dst, n, &mut ctr, u64::from_le_bytes(*iv)) }
    *iv = last;
}

/// Four blocks under four keys, side by side in lanes 0-3 (GOST 34.311's step).
pub(super) fn encrypt4(
    _t: Avx512Vbmi,
    keys: &[[u32; 8]; 4],
    tables: &Tables,
    blocks: &mut [[u32; 2]; 4],
) {
    // SAFETY: the `Avx512Vbmi` token proves AVX-512 F/BW/VL/VBMI.
    unsafe { encrypt4_k(keys, tables, blocks) }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
fn encrypt4_k(keys: &[[u32; 8]; 4], tables: &Tables, blocks: &mut [[u32; 2]; 4]) {
    // Latency-bound (one step of the hash): the serial round on 256-bit registers, the
    // four blocks in lanes 0-3.
    let c = consts1(tables);
    let kw = keys.as_flattened();
    // SAFETY: `keys` is 128 readable bytes, two 64-byte loads.
    let (k0, k1) = unsafe {
        (
            _mm512_loadu_si512(kw.as_ptr().cast()),
            _mm512_loadu_si512(kw.as_ptr().add(16).cast()),
        )
    };
    // kv[i] = key word i of the four keys in lanes 0-3.
    let mut kv = [_mm256_setzero_si256(); 8];
    for (i, v) in kv.iter_mut().enumerate() {
        let i = i as i32;
        let idx = _mm512_setr_epi32(i, 8 + i, 16 + i, 24 + i, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        *v = _mm512_castsi512_si256(_mm512_permutex2var_epi32(k0, idx, k1));
    }
    // SAFETY: `blocks` is 32 readable bytes.
    let x = unsafe { _mm256_loadu_si256(blocks.as_flattened().as_ptr().cast()) };
    let mut a = _mm256_permutexvar_epi32(_mm256_setr_epi32(0, 2, 4, 6, 0, 0, 0, 0), x);
    let mut b = _mm256_permutexvar_epi32(_mm256_setr_epi32(1, 3, 5, 7, 0, 0, 0, 0), x);
    for r in 0..32 {
        let k = kv[if r < 24 { r % 8 } else { 31 - r }];
        let t = round1(b, _mm256_add_epi32(a, k), &c);
        b = a;
        a = t;
    }
    // Output N1 = b, N2 = a (the last round does not swap).
    let y = _mm256_permutex2var_epi32(b, _mm256_setr_epi32(0, 8, 1, 9, 2, 10, 3, 11), a);
    // SAFETY: `blocks` is 32 writable bytes.
    unsafe { _mm256_storeu_si256(blocks.as_flattened_mut().as_mut_ptr().cast(), y) };
}

/// The S-box tables for one block at a time: each 64-byte table (see [`Consts`]) as two
/// 256-bit halves, for `vpermi2b` on 256-bit registers.
#[derive(Clone, Copy)]
struct Consts1 {
    lo: [__m256i; 2],
    hi: [__m256i; 2],
    nib: __m256i,
    pos: __m256i,
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
fn consts1(t: &Tables) -> Consts1 {
    // SAFETY: `t.lo` and `t.hi` are 64 readable bytes each.
    unsafe {
        Consts1 {
            lo: [
                _mm256_loadu_si256(t.lo.as_ptr().cast()),
                _mm256_loadu_si256(t.lo.as_ptr().add(32).cast()),
            ],
            hi: [
                _mm256_loadu_si256(t.hi.as_ptr().cast()),
                _mm256_loadu_si256(t.hi.as_ptr().add(32).cast()),
            ],
            nib: _mm256_set1_epi32(0x0f0f_0f0f),
            pos: _mm256_set1_epi32(0x3020_1000),
        }
    }
}

/// `b ^ rol11(S(x))` for one block in the low 32-bit lane, shaped for latency (the serial
/// modes). The two look-ups are the bulk kernel's, but as `vpermi2b` on 256-bit
/// registers (the 64-byte table split over two registers), which on Zen 4 returns in
/// four cycles where the 512-bit `vpermb` takes five; the two halves rotate separately
/// and one three-input XOR (`vpternlogd`) takes both into `b`. Measured alternatives:
/// eight zero-masked 128-bit `vpermb` (two cycles each, but eight of them in a burst per
/// round) ran slower.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
fn round1(b: __m256i, x: __m256i, c: &Consts1) -> __m256i {
    let ilo = _mm256_ternarylogic_epi32::<0xea>(x, c.nib, c.pos);
    let ihi = _mm256_ternarylogic_epi32::<0xea>(_mm256_srli_epi32::<4>(x), c.nib, c.pos);
    let p = _mm256_rol_epi32::<11>(_mm256_permutex2var_epi8(c.lo[0], ilo, c.lo[1]));
    let q = _mm256_rol_epi32::<11>(_mm256_permutex2var_epi8(c.hi[0], ihi, c.hi[1]));
    // 0x96: A ^ B ^ C.
    _mm256_ternarylogic_epi32::<0x96>(b, p, q)
}

/// Swapping rounds on one block (`a` = N1, `b` = N2 in lane 0), one per key in `rk`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
fn rounds1(a: &mut __m256i, b: &mut __m256i, rk: &[u32], c: &Consts1) {
    for &k in rk {
        let t = round1(*b, _mm256_add_epi32(*a, _mm256_set1_epi32(k as i32)), c);
        *b = *a;
        *a = t;
    }
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
fn word(b: &[u8]) -> __m256i {
    _mm256_set1_epi32(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
fn lane0(v: __m256i) -> [u8; 4] {
    (_mm_cvtsi128_si32(_mm256_castsi256_si128(v)) as u32).to_le_bytes()
}

/// Gamma-with-feedback encryption, one block after the other: `C_i = P_i ^ E(C_{i-1})`.
pub(super) fn cfb_encrypt(
    _t: Avx512Vbmi,
    rk: &[u32; 32],
    tables: &Tables,
    iv: &mut Block,
    mut io: InOut<'_>,
) {
    // SAFETY: the `Avx512Vbmi` token proves AVX-512 F/BW/VL/VBMI.
    unsafe { cfb_encrypt_k(rk, tables, iv, &mut io) }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
fn cfb_encrypt_k(rk: &[u32; 32], t: &Tables, iv: &mut Block, io: &mut InOut<'_>) {
    let c = consts1(t);
    let (mut c1, mut c2) = (word(&iv[..4]), word(&iv[4..]));
    for i in 0..io.len() / BLOCK_LEN {
        let (mut a, mut b) = (c1, c2);
        rounds1(&mut a, &mut b, rk, &c);
        let p = io.read::<8>(8 * i);
        // The output block is (b, a): the last round does not swap.
        c1 = _mm256_xor_si256(b, word(&p[..4]));
        c2 = _mm256_xor_si256(a, word(&p[4..]));
        let mut o = [0u8; 8];
        o[..4].copy_from_slice(&lane0(c1));
        o[4..].copy_from_slice(&lane0(c2));
        io.write(8 * i, &o);
    }
    iv[..4].copy_from_slice(&lane0(c1));
    iv[4..].copy_from_slice(&lane0(c2));
}

/// The MAC chain: `state = F16(state ^ block)` over whole blocks.
pub(super) fn mac(_t: Avx512Vbmi, rk: &[u32; 32], tables: &Tables, state: &mut Block, data: &[u8]) {
    // SAFETY: the `Avx512Vbmi` token proves AVX-512 F/BW/VL/VBMI.
    unsafe { mac_k(rk, tables, state, data) }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi")]
fn mac_k(rk: &[u32; 32], t: &Tables, state: &mut Block, data: &[u8]) {
    let c = consts1(t);
    let (mut a, mut b) = (word(&state[..4]), word(&state[4..]));
    for blk in data.chunks_exact(BLOCK_LEN) {
        a = _mm256_xor_si256(a, word(&blk[..4]));
        b = _mm256_xor_si256(b, word(&blk[4..]));
        rounds1(&mut a, &mut b, &rk[..16], &c);
    }
    state[..4].copy_from_slice(&lane0(a));
    state[4..].copy_from_slice(&lane0(b));
}
