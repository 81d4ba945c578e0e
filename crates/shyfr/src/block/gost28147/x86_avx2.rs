//! GOST 28147-89 with AVX2: eight blocks per pair of 256-bit registers, one holding the
//! eight `N1` halves and one the eight `N2` halves as 32-bit lanes.
//!
//! `vpshufb` looks up sixteen entries by the low nibble of each byte, the same table for
//! every byte of a 128-bit lane, while GOST uses a different S-box at each nibble
//! position. So each of the four byte positions of a word gets its own pair of tables
//! (low-nibble S-box, high-nibble S-box pre-shifted by four): two `vpshufb` and an OR
//! give a candidate for every byte, and a mask keeps the bytes at that position. A round
//! is about 28 instructions per eight blocks; four register pairs (32 blocks) are in
//! flight. `vpshufb` takes the same time for every index and its table is a register:
//! constant time.

use core::arch::x86_64::*;

use super::{add_mod_2_32_minus_1, Block, Tables, BLOCK_LEN, C1, C2};
use crate::cpu::x86::Avx2;
use crate::inout::InOut;

/// Register pairs in flight in the bulk loops.
const P: usize = 4;
/// Blocks per register pair.
const L: usize = 8;

const ECB: u8 = 0;
const GAMMA: u8 = 1;
const CFB_DEC: u8 = 2;

/// The S-box tables (per byte position) and the masks of the byte positions.
#[derive(Clone, Copy)]
struct Consts {
    lo: [__m256i; 4],
    hi: [__m256i; 4],
    keep: [__m256i; 4],
    nib: __m256i,
}

#[inline]
#[target_feature(enable = "avx2")]
fn consts(t: &Tables) -> Consts {
    let mut c = Consts {
        lo: [_mm256_setzero_si256(); 4],
        hi: [_mm256_setzero_si256(); 4],
        keep: [_mm256_setzero_si256(); 4],
        nib: _mm256_set1_epi8(0x0f),
    };
    for p in 0..4 {
        // SAFETY: `t.lo` and `t.hi` are 64 bytes; 16 readable bytes at 16 p.
        unsafe {
            c.lo[p] =
                _mm256_broadcastsi128_si256(_mm_loadu_si128(t.lo.as_ptr().add(16 * p).cast()));
            c.hi[p] =
                _mm256_broadcastsi128_si256(_mm_loadu_si128(t.hi.as_ptr().add(16 * p).cast()));
        }
        c.keep[p] = _mm256_set1_epi32((0xffu32 << (8 * p)) as i32);
    }
    c
}

/// The round function on eight lanes: S-boxes, then rotation left by 11.
#[inline]
#[target_feature(enable = "avx2")]
fn f(x: __m256i, c: &Consts) -> __m256i {
    let lo = _mm256_and_si256(x, c.nib);
    let hi = _mm256_and_si256(_mm256_srli_epi32::<4>(x), c.nib);
    let mut s = _mm256_setzero_si256();
    for p in 0..4 {
        let v = _mm256_or_si256(
            _mm256_shuffle_epi8(c.lo[p], lo),
            _mm256_shuffle_epi8(c.hi[p], hi),
        );
        s = _mm256_or_si256(s, _mm256_and_si256(v, c.keep[p]));
    }
    _mm256_or_si256(_mm256_slli_epi32::<11>(s), _mm256_srli_epi32::<21>(s))
}

/// 32 rounds on `N` register pairs; on return `a` holds the output `N1` and `b` `N2`.
#[inline]
#[target_feature(enable = "avx2")]
fn crypt<const N: usize>(a: &mut [__m256i; N], b: &mut [__m256i; N], rk: &[u32; 32], c: &Consts) {
    for &k in rk {
        let k = _mm256_set1_epi32(k as i32);
        for j in 0..N {
            let t = _mm256_xor_si256(b[j], f(_mm256_add_epi32(a[j], k), c));
            b[j] = a[j];
            a[j] = t;
        }
    }
    core::mem::swap(a, b);
}

/// Blocks `0..4` and `4..8` (64-bit lanes) to the `N1` and `N2` lanes, in block order.
#[inline]
#[target_feature(enable = "avx2")]
fn split(x0: __m256i, x1: __m256i) -> (__m256i, __m256i) {
    let g = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    let (y0, y1) = (
        _mm256_permutevar8x32_epi32(x0, g),
        _mm256_permutevar8x32_epi32(x1, g),
    );
    (
        _mm256_permute2x128_si256::<0x20>(y0, y1),
        _mm256_permute2x128_si256::<0x31>(y0, y1),
    )
}

/// The inverse of [`split`].
#[inline]
#[target_feature(enable = "avx2")]
fn join(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    let g = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    (
        _mm256_permutevar8x32_epi32(_mm256_permute2x128_si256::<0x20>(a, b), g),
        _mm256_permutevar8x32_epi32(_mm256_permute2x128_si256::<0x31>(a, b), g),
    )
}

/// Load/store masks (sign bit per 64-bit lane) of the two halves of a pair with `n`
/// valid blocks.
#[inline]
#[target_feature(enable = "avx2")]
fn masks(n: usize) -> (__m256i, __m256i) {
    let m = |k: usize| {
        let k = k.min(4) as i64;
        _mm256_cmpgt_epi64(_mm256_set1_epi64x(k), _mm256_setr_epi64x(0, 1, 2, 3))
    };
    (m(n), m(n.saturating_sub(4)))
}

/// One group of `N` register pairs covering `n <= 8 N` blocks (see the AVX-512 backend's
/// `group` for the modes).
///
/// # Safety
/// `src` readable and `dst` writable for `8 n` bytes (may be equal; loads precede stores).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn group<const N: usize, const MODE: u8>(
    rk: &[u32; 32],
    c: &Consts,
    src: *const u8,
    dst: *mut u8,
    n: usize,
    ctr: &mut [u32; 2],
    carry: &mut __m256i,
) {
    let mut x = [[_mm256_setzero_si256(); 2]; N];
    for (j, xj) in x.iter_mut().enumerate() {
        let (m0, m1) = masks(n.saturating_sub(L * j));
        let p = src.wrapping_add(64 * j);
        // SAFETY: the masks select only blocks below `n`, readable per the caller;
        // `vpmaskmovq` does not touch masked-off elements.
        unsafe {
            xj[0] = _mm256_maskload_epi64(p.cast(), m0);
            xj[1] = _mm256_maskload_epi64(p.wrapping_add(32).cast(), m1);
        }
    }
    let mut a = [_mm256_setzero_si256(); N];
    let mut b = [_mm256_setzero_si256(); N];
    match MODE {
        ECB => {
            for j in 0..N {
                (a[j], b[j]) = split(x[j][0], x[j][1]);
            }
        }
        GAMMA => {
            let step = _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8);
            let n3 = _mm256_set1_epi32(ctr[0] as i32);
            let n4 = _mm256_set1_epi32(ctr[1] as i32);
            let one = _mm256_set1_epi32(1);
            for j in 0..N {
                let q = _mm256_add_epi32(step, _mm256_set1_epi32((L * j) as i32));
                let d2 = _mm256_mullo_epi32(q, _mm256_set1_epi32(C2 as i32));
                let d1 = _mm256_mullo_epi32(q, _mm256_set1_epi32(C1 as i32));
                a[j] = _mm256_add_epi32(n3, d2);
                let s = _mm256_add_epi32(n4, d1);
                // -1 where s >= d1 (no wrap), else 0: add 1 + that.
                let no_wrap = _mm256_cmpeq_epi32(_mm256_max_epu32(s, d1), s);
                b[j] = _mm256_add_epi32(s, _mm256_add_epi32(one, no_wrap));
            }
            ctr[0] = ctr[0].wrapping_add((n as u32).wrapping_mul(C2));
            ctr[1] = add_mod_2_32_minus_1(ctr[1], (n as u32).wrapping_mul(C1));
        }
        _ => {
            let rot = |v: __m256i| _mm256_permute4x64_epi64::<0b10_01_00_11>(v);
            let mut prev = *carry;
            for j in 0..N {
                // [prev[3], x0[0], x0[1], x0[2]] and [x0[3], x1[0], x1[1], x1[2]].
                let p0 = _mm256_blend_epi32::<0b0000_0011>(rot(x[j][0]), rot(prev));
                let p1 = _mm256_blend_epi32::<0b0000_0011>(rot(x[j][1]), rot(x[j][0]));
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
            y0 = _mm256_xor_si256(y0, x[j][0]);
            y1 = _mm256_xor_si256(y1, x[j][1]);
        }
        let (m0, m1) = masks(n.saturating_sub(L * j));
        let p = dst.wrapping_add(64 * j);
        // SAFETY: the masks select only blocks below `n`, writable per the caller.
        unsafe {
            _mm256_maskstore_epi64(p.cast(), m0, y0);
            _mm256_maskstore_epi64(p.wrapping_add(32).cast(), m1, y1);
        }
    }
}

/// Runs `group` over `n` blocks; `iv` is the block before the first (`CFB_DEC` only).
///
/// # Safety
/// `src` readable and `dst` writable for `8 n` bytes.
#[inline]
#[target_feature(enable = "avx2")]
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
    let mut carry = _mm256_set1_epi64x(iv as i64);
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
            1..=8 => group::<1, MODE>(rk, &c, s, d, m, ctr, carry),
            9..=16 => group::<2, MODE>(rk, &c, s, d, m, ctr, carry),
            _ => group::<P, MODE>(rk, &c, s, d, m, ctr, carry),
        }
    }
}

/// ECB on whole blocks.
pub(super) fn ecb(_t: Avx2, rk: &[u32; 32], tables: &Tables, mut io: InOut<'_>) {
    let n = io.len() / BLOCK_LEN;
    let (src, dst) = (io.src_ptr(), io.dst_ptr());
    let mut ctr = [0u32; 2];
    // SAFETY: the `Avx2` token proves AVX2; `io` is valid for `n` blocks.
    unsafe { run::<ECB>(rk, tables, src, dst, n, &mut ctr, 0) }
}

/// Gamma on whole blocks (see `Engine::gamma`).
pub(super) fn gamma(
    _t: Avx2,
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
    _t: Avx2,
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
    _t: Avx2,
    keys: &[[u32; 8]; 4],
    tables: &Tables,
    blocks: &mut [[u32; 2]; 4],
) {
    // SAFETY: the `Avx2` token proves AVX2.
    unsafe { encrypt4_k(keys, tables, blocks) }
}

#[target_feature(enable = "avx2")]
fn encrypt4_k(keys: &[[u32; 8]; 4], tables: &Tables, blocks: &mut [[u32; 2]; 4]) {
    let c = consts(tables);
    let mut kv = [_mm256_setzero_si256(); 8];
    for (i, v) in kv.iter_mut().enumerate() {
        *v = _mm256_setr_epi32(
            keys[0][i] as i32,
            keys[1][i] as i32,
            keys[2][i] as i32,
            keys[3][i] as i32,
            0,
            0,
            0,
            0,
        );
    }
    let mut a = _mm256_setr_epi32(
        blocks[0][0] as i32,
        blocks[1][0] as i32,
        blocks[2][0] as i32,
        blocks[3][0] as i32,
        0,
        0,
        0,
        0,
    );
    let mut b = _mm256_setr_epi32(
        blocks[0][1] as i32,
        blocks[1][1] as i32,
        blocks[2][1] as i32,
        blocks[3][1] as i32,
        0,
        0,
        0,
        0,
    );
    for r in 0..32 {
        let k = kv[if r < 24 { r % 8 } else { 31 - r }];
        let t = _mm256_xor_si256(b, f(_mm256_add_epi32(a, k), &c));
        b = a;
        a = t;
    }
    let (mut n1, mut n2) = ([0u32; 8], [0u32; 8]);
    // SAFETY: 32 writable bytes each.
    unsafe {
        _mm256_storeu_si256(n1.as_mut_ptr().cast(), b);
        _mm256_storeu_si256(n2.as_mut_ptr().cast(), a);
    }
    for (l, v) in blocks.iter_mut().enumerate() {
        *v = [n1[l], n2[l]];
    }
}

/// `nrounds` swapping rounds on one block (`a` = N1, `b` = N2 in lane 0).
#[inline]
#[target_feature(enable = "avx2")]
fn rounds1(a: &mut __m256i, b: &mut __m256i, rk: &[u32], c: &Consts) {
    for &k in rk {
        let t = _mm256_xor_si256(*b, f(_mm256_add_epi32(*a, _mm256_set1_epi32(k as i32)), c));
        *b = *a;
        *a = t;
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn lane0(v: __m256i) -> u32 {
    _mm_cvtsi128_si32(_mm256_castsi256_si128(v)) as u32
}

#[inline]
#[target_feature(enable = "avx2")]
fn word(b: &[u8]) -> __m256i {
    _mm256_set1_epi32(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Gamma-with-feedback encryption, one block after the other: `C_i = P_i ^ E(C_{i-1})`.
pub(super) fn cfb_encrypt(
    _t: Avx2,
    rk: &[u32; 32],
    tables: &Tables,
    iv: &mut Block,
    mut io: InOut<'_>,
) {
    // SAFETY: the `Avx2` token proves AVX2.
    unsafe { cfb_encrypt_k(rk, tables, iv, &mut io) }
}

#[target_feature(enable = "avx2")]
fn cfb_encrypt_k(rk: &[u32; 32], t: &Tables, iv: &mut Block, io: &mut InOut<'_>) {
    let c = consts(t);
    let (mut c1, mut c2) = (word(&iv[..4]), word(&iv[4..]));
    for i in 0..io.len() / BLOCK_LEN {
        let (mut a, mut b) = (c1, c2);
        rounds1(&mut a, &mut b, rk, &c);
        let p = io.read::<8>(8 * i);
        c1 = _mm256_xor_si256(b, word(&p[..4]));
        c2 = _mm256_xor_si256(a, word(&p[4..]));
        let mut o = [0u8; 8];
        o[..4].copy_from_slice(&lane0(c1).to_le_bytes());
        o[4..].copy_from_slice(&lane0(c2).to_le_bytes());
        io.write(8 * i, &o);
    }
    iv[..4].copy_from_slice(&lane0(c1).to_le_bytes());
    iv[4..].copy_from_slice(&lane0(c2).to_le_bytes());
}

/// The MAC chain: `state = F16(state ^ block)` over whole blocks.
pub(super) fn mac(_t: Avx2, rk: &[u32; 32], tables: &Tables, state: &mut Block, data: &[u8]) {
    // SAFETY: the `Avx2` token proves AVX2.
    unsafe { mac_k(rk, tables, state, data) }
}

#[target_feature(enable = "avx2")]
fn mac_k(rk: &[u32; 32], t: &Tables, state: &mut Block, data: &[u8]) {
    let c = consts(t);
    let (mut a, mut b) = (word(&state[..4]), word(&state[4..]));
    for blk in data.chunks_exact(BLOCK_LEN) {
        a = _mm256_xor_si256(a, word(&blk[..4]));
        b = _mm256_xor_si256(b, word(&blk[4..]));
        rounds1(&mut a, &mut b, &rk[..16], &c);
    }
    state[..4].copy_from_slice(&lane0(a).to_le_bytes());
    state[4..].copy_from_slice(&lane0(b).to_le_bytes());
}
