//! Kupyna with AVX-512 VBMI and GFNI in the natural layout: the 512-bit state is one zmm
//! register as in memory (byte `8 c + r` is row `r` of column `c`), the 1024-bit state two
//! (columns 0..8 and 8..16).
//!
//! A round is, per register: the round constant (XOR, folded into the previous round's
//! MixColumns, for `T⊕`; `vpaddq` for `T+`), the four S-boxes ([`nat_sbox`]: eight
//! `vpermi2b` on the tables held in registers, and blends), then ShiftBytes and
//! MixColumns. For the 512-bit state these two are one step ([`shift_mix`]): the products
//! of the S-box output by 2, 4 and 8 (`gf2p8affineqb`) first, then eight `vpermb`, each a
//! ShiftBytes composed with one of MixColumns' row rotations, and XORs. The 1024-bit
//! state does ShiftBytes with one `vpermi2b` per register over both, then MixColumns
//! inside each register ([`nat_mix`]). The two permutations of a compression,
//! `T⊕(h ^ m)` and `T+(m)`, are independent and run interleaved, so one fills the other's
//! latency; the chain through `T⊕` (about 40 cycles a round on Zen 4) bounds the speed.
//!
//! Everything is constant time: no memory index or branch depends on data.

use core::arch::x86_64::*;

use super::{plus_const, rounds, soft::shift, xor_const};
use crate::arith::gf256::x86_avx512::{gf, nat_mix, nat_sbox, rot_idx, table, xor3, M2, M4, M8};
use crate::cpu::x86::Avx512VbmiGfni;

/// The round constants of `T⊕` (`[0]`) and `T+` (`[1]`) for the 512-bit state, by round and
/// column.
static C8: [[[u64; 8]; 10]; 2] = {
    let mut t = [[[0u64; 8]; 10]; 2];
    let mut v = 0;
    while v < 10 {
        let mut j = 0;
        while j < 8 {
            t[0][v][j] = xor_const(j, v);
            t[1][v][j] = plus_const(j, 8, v);
            j += 1;
        }
        v += 1;
    }
    t
};

/// The same for the 1024-bit state.
static C16: [[[u64; 16]; 14]; 2] = {
    let mut t = [[[0u64; 16]; 14]; 2];
    let mut v = 0;
    while v < 14 {
        let mut j = 0;
        while j < 16 {
            t[0][v][j] = xor_const(j, v);
            t[1][v][j] = plus_const(j, 16, v);
            j += 1;
        }
        v += 1;
    }
    t
};

/// ShiftBytes as byte indices: for the 512-bit state a `vpermb` index (`[0]`); for the
/// 1024-bit state a `vpermi2b` index over both registers for each output register.
static SHIFT: [[u8; 64]; 3] = {
    let mut t = [[0u8; 64]; 3];
    let mut p = 0;
    while p < 64 {
        let (c, r) = (p / 8, p % 8);
        t[0][p] = (8 * ((c + 8 - shift(r, 8)) % 8) + r) as u8;
        t[1][p] = (8 * ((c + 16 - shift(r, 16)) % 16) + r) as u8;
        t[2][p] = (8 * ((c + 8 + 16 - shift(r, 16)) % 16) + r) as u8;
        p += 1;
    }
    t
};

/// ShiftBytes and MixColumns' byte rotations as one `vpermb` index per term of the 512-bit
/// state's MixColumns: output byte (`c`, `r`) of term `k` is row `r + k` of the column
/// ShiftBytes brings to `c`.
static FUSED: [[u8; 64]; 8] = {
    let mut t = [[0u8; 64]; 8];
    let mut k = 0;
    while k < 8 {
        let mut p = 0;
        while p < 64 {
            let (c, r) = (p / 8, p % 8);
            let rk = (r + k) % 8;
            t[k][p] = (8 * ((c + 8 - shift(rk, 8)) % 8) + rk) as u8;
            p += 1;
        }
        k += 1;
    }
    t
};

/// The tables and indices a round needs, loaded into registers once per call.
#[derive(Clone, Copy)]
struct Ctx {
    t: [[__m512i; 4]; 4],
    ri: [__m512i; 8],
    sr: [__m512i; 2],
    fz: [__m512i; 8],
}

impl Ctx {
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
    fn new<const W: usize>() -> Ctx {
        // SAFETY: the SHIFT rows are 64 readable bytes each.
        let ld = |i: usize| unsafe { _mm512_loadu_si512(SHIFT[i].as_ptr().cast()) };
        let sr = if W == 1 {
            [ld(0), ld(0)]
        } else {
            [ld(1), ld(2)]
        };
        Ctx {
            t: core::array::from_fn(table),
            ri: rot_idx(),
            sr,
            // SAFETY: the FUSED rows are 64 readable bytes each.
            fz: core::array::from_fn(|k| unsafe { _mm512_loadu_si512(FUSED[k].as_ptr().cast()) }),
        }
    }
}

/// Register `i` of round `v`'s constant of permutation `p` (0: `T⊕`, 1: `T+`).
#[inline(always)]
fn constant<const W: usize>(p: usize, v: usize, i: usize) -> __m512i {
    // SAFETY: rows of C8 / C16 are 64 or 128 readable bytes; `i < W`.
    unsafe {
        if W == 1 {
            _mm512_loadu_si512(C8[p][v].as_ptr().cast())
        } else {
            _mm512_loadu_si512(C16[p][v][8 * i..].as_ptr().cast())
        }
    }
}

/// SubBytes and ShiftBytes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn sub_shift<const W: usize>(x: [__m512i; W], c: &Ctx) -> [__m512i; W] {
    let y: [__m512i; W] = core::array::from_fn(|i| nat_sbox(x[i], &c.t));
    if W == 1 {
        core::array::from_fn(|_| _mm512_permutexvar_epi8(c.sr[0], y[0]))
    } else {
        core::array::from_fn(|i| _mm512_permutex2var_epi8(y[0], c.sr[i], y[W - 1]))
    }
}

/// ShiftBytes and MixColumns of the 512-bit state in one step, `sum_k MDS[k] * P_k(s)`
/// ([`FUSED`]), the products taken first (`gf2p8affineqb` commutes with byte moves), then
/// `k` XORed in.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn shift_mix(s: __m512i, k: __m512i, c: &Ctx) -> __m512i {
    let p = |i: usize, x: __m512i| _mm512_permutexvar_epi8(c.fz[i], x);
    let s2 = gf(s, M2);
    let s4 = gf(s, M4);
    let s8 = gf(s, M8);
    let s5 = _mm512_xor_si512(s, s4);
    let s6 = _mm512_xor_si512(s2, s4);
    let s7 = xor3(s, s2, s4);
    let a = xor3(p(0, s), p(1, s), p(3, s));
    let b = xor3(p(2, s5), p(4, s8), p(7, s4));
    let d = xor3(p(5, s6), p(6, s7), k);
    xor3(a, b, d)
}

/// One round of `T⊕` on `a` (its constant already XORed in; the next round's folded into
/// MixColumns) and, when `PLUS`, one of `T+` on `b`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn round<const W: usize, const PLUS: bool>(
    a: &mut [__m512i; W],
    b: &mut [__m512i; W],
    v: usize,
    nr: usize,
    c: &Ctx,
) {
    let ya = if W == 1 {
        core::array::from_fn(|i| nat_sbox(a[i], &c.t))
    } else {
        sub_shift::<W>(*a, c)
    };
    let yb = if PLUS {
        let bk: [__m512i; W] =
            core::array::from_fn(|i| _mm512_add_epi64(b[i], constant::<W>(1, v, i)));
        if W == 1 {
            core::array::from_fn(|i| nat_sbox(bk[i], &c.t))
        } else {
            sub_shift::<W>(bk, c)
        }
    } else {
        *b
    };
    for i in 0..W {
        let k = if v + 1 < nr {
            constant::<W>(0, v + 1, i)
        } else {
            _mm512_setzero_si512()
        };
        a[i] = if W == 1 {
            shift_mix(ya[i], k, c)
        } else {
            nat_mix(ya[i], k, &c.ri)
        };
        if PLUS {
            b[i] = if W == 1 {
                shift_mix(yb[i], _mm512_setzero_si512(), c)
            } else {
                nat_mix(yb[i], _mm512_setzero_si512(), &c.ri)
            };
        }
    }
}

/// Compresses `n` blocks at `src` into the state `hv`.
///
/// # Safety
/// `src` is readable for `n` blocks of `64 * W` bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
unsafe fn compress_w<const W: usize>(hv: &mut [__m512i; W], src: *const u8, n: usize) {
    let c = Ctx::new::<W>();
    let nr = rounds(8 * W);
    for blk in 0..n {
        // SAFETY: block `blk` is inside the caller's region.
        let m: [__m512i; W] = core::array::from_fn(|i| unsafe {
            _mm512_loadu_si512(src.add(64 * (W * blk + i)).cast())
        });
        let mut a: [__m512i; W] =
            core::array::from_fn(|i| xor3(hv[i], m[i], constant::<W>(0, 0, i)));
        let mut b = m;
        for v in 0..nr {
            round::<W, true>(&mut a, &mut b, v, nr, &c);
        }
        for i in 0..W {
            hv[i] = xor3(hv[i], a[i], b[i]);
        }
    }
}

/// `h = T⊕(h) ^ h`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn finish_w<const W: usize>(hv: &mut [__m512i; W]) {
    let c = Ctx::new::<W>();
    let nr = rounds(8 * W);
    let mut a: [__m512i; W] =
        core::array::from_fn(|i| _mm512_xor_si512(hv[i], constant::<W>(0, 0, i)));
    let mut none = *hv;
    for v in 0..nr {
        round::<W, false>(&mut a, &mut none, v, nr, &c);
    }
    for i in 0..W {
        hv[i] = _mm512_xor_si512(hv[i], a[i]);
    }
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn load<const W: usize>(h: &[u64; 16]) -> [__m512i; W] {
    // SAFETY: `h` has 128 readable bytes; W <= 2.
    core::array::from_fn(|i| unsafe { _mm512_loadu_si512(h[8 * i..].as_ptr().cast()) })
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn store<const W: usize>(h: &mut [u64; 16], hv: &[__m512i; W]) {
    for (i, v) in hv.iter().enumerate() {
        // SAFETY: `h` has 128 writable bytes; W <= 2.
        unsafe { _mm512_storeu_si512(h[8 * i..].as_mut_ptr().cast(), *v) };
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn compress_h<const W: usize>(h: &mut [u64; 16], blocks: &[u8]) {
    let mut hv = load::<W>(h);
    // SAFETY: `blocks` holds `blocks.len() / (64 W)` whole blocks.
    unsafe { compress_w::<W>(&mut hv, blocks.as_ptr(), blocks.len() / (64 * W)) };
    store::<W>(h, &hv);
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn finish_h<const W: usize>(h: &mut [u64; 16]) {
    let mut hv = load::<W>(h);
    finish_w::<W>(&mut hv);
    store::<W>(h, &hv);
}

/// Compresses the whole blocks of `blocks` (`8 * cols` bytes each) into `h`.
pub(super) fn compress(t: Avx512VbmiGfni, h: &mut [u64; 16], cols: usize, blocks: &[u8]) {
    let _ = t;
    // SAFETY: the token proves AVX-512 F/BW/VL, VBMI and GFNI.
    unsafe {
        if cols == 8 {
            compress_h::<1>(h, blocks)
        } else {
            compress_h::<2>(h, blocks)
        }
    }
}

/// `h = T⊕(h) ^ h` (the output transformation before truncation).
pub(super) fn finish(t: Avx512VbmiGfni, h: &mut [u64; 16], cols: usize) {
    let _ = t;
    // SAFETY: the token proves AVX-512 F/BW/VL, VBMI and GFNI.
    unsafe {
        if cols == 8 {
            finish_h::<1>(h)
        } else {
            finish_h::<2>(h)
        }
    }
}
