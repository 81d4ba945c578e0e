//! Bitsliced DES, generic over the machine word ([`Word`]): slice `j` holds bit `j + 1`
//! (FIPS 46-3 numbering, bit 1 the most significant) of 64 blocks per 64-bit lane, so a
//! word of `N` lanes carries `64 N` blocks. The portable backend runs it on `u64`, the
//! vector backends on `[u64; N]` inside a `#[target_feature]` function, where the compiler
//! turns the lane loops into vector instructions (and, with AVX-512, three-input logic
//! into `vpternlogq`).
//!
//! The permutations (IP, E, P, FP) are free in this form: they only choose which slice
//! goes where. Each S-box output bit is a function of six input bits, written as eight
//! three-input functions of the low three inputs, one for each value of the high three,
//! joined by a tree of seven multiplexers: fifteen three-input operations ([`tern`], one
//! `vpternlogq` each on AVX-512) per output bit, their truth tables computed from the
//! S-box at compile time. No table is read at run time and nothing branches on data: the
//! work is the same for every key and block.
#![forbid(unsafe_code)]

use super::{tables::E, tables::IP, tables::P, tables::SBOX};

/// A machine word of 64-bit lanes, with the bitwise operations the core uses.
pub(super) trait Word: Copy {
    /// Every lane `x`.
    fn splat(x: u64) -> Self;
    /// Lane-wise XOR.
    fn xor(self, o: Self) -> Self;
    /// Lane-wise AND.
    fn and(self, o: Self) -> Self;
    /// Lane-wise OR.
    fn or(self, o: Self) -> Self;
    /// Lane-wise NOT.
    fn not(self) -> Self;
    /// Lane-wise logical shift left.
    fn shl(self, n: u32) -> Self;
    /// Lane-wise logical shift right.
    fn shr(self, n: u32) -> Self;
}

impl Word for u64 {
    #[inline(always)]
    fn splat(x: u64) -> Self {
        x
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        self ^ o
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self | o
    }
    #[inline(always)]
    fn not(self) -> Self {
        !self
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        self << n
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        self >> n
    }
}

impl<const N: usize> Word for [u64; N] {
    #[inline(always)]
    fn splat(x: u64) -> Self {
        [x; N]
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        core::array::from_fn(|i| self[i] ^ o[i])
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        core::array::from_fn(|i| self[i] & o[i])
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        core::array::from_fn(|i| self[i] | o[i])
    }
    #[inline(always)]
    fn not(self) -> Self {
        core::array::from_fn(|i| !self[i])
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        core::array::from_fn(|i| self[i] << n)
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        core::array::from_fn(|i| self[i] >> n)
    }
}

/// The two-input function of `(b, c)` with truth table `t` (bit `2b + c`).
#[inline(always)]
fn two<W: Word>(t: u8, b: W, c: W) -> W {
    let z = W::splat(0);
    match t & 15 {
        0 => z,
        1 => b.or(c).not(),
        2 => b.not().and(c),
        3 => b.not(),
        4 => b.and(c.not()),
        5 => c.not(),
        6 => b.xor(c),
        7 => b.and(c).not(),
        8 => b.and(c),
        9 => b.xor(c).not(),
        10 => c,
        11 => b.not().or(c),
        12 => b,
        13 => b.or(c.not()),
        14 => b.or(c),
        _ => z.not(),
    }
}

/// The three-input function with truth table `IMM` (bit `4a + 2b + c`, the `vpternlog`
/// convention).
#[inline(always)]
pub(super) fn tern<W: Word, const IMM: u8>(a: W, b: W, c: W) -> W {
    let f0 = two(IMM & 15, b, c);
    let f1 = two(IMM >> 4, b, c);
    if IMM & 15 == IMM >> 4 {
        f0
    } else {
        // a ? f1 : f0
        f0.xor(a.and(f0.xor(f1)))
    }
}

/// `s ? b : a`.
#[inline(always)]
fn mux<W: Word>(s: W, a: W, b: W) -> W {
    tern::<W, 0xac>(s, a, b)
}

/// The truth table, in `tern` form, of output bit `o` (0 = most significant) of S-box
/// `s` restricted to the inputs whose first three bits (`b1 b2 b3`) are `hi`, as a
/// function of the last three (`b4 b5 b6`).
const fn imm(s: usize, o: usize, hi: usize) -> u8 {
    let mut t = 0u8;
    let mut lo = 0;
    while lo < 8 {
        let v = (hi << 3) | lo; // b1..b6, b1 most significant
        let row = ((v >> 4) & 2) | (v & 1);
        let col = (v >> 1) & 15;
        let out = SBOX[s][row * 16 + col];
        if (out >> (3 - o)) & 1 == 1 {
            t |= 1 << lo;
        }
        lo += 1;
    }
    t
}

/// Every truth table: `IMMS[s][o][hi]`.
const IMMS: [[[u8; 8]; 4]; 8] = {
    let mut m = [[[0u8; 8]; 4]; 8];
    let mut s = 0;
    while s < 8 {
        let mut o = 0;
        while o < 4 {
            let mut hi = 0;
            while hi < 8 {
                m[s][o][hi] = imm(s, o, hi);
                hi += 1;
            }
            o += 1;
        }
        s += 1;
    }
    m
};

/// One output bit: eight three-input functions of `x[3..6]`, multiplexed by `x[0..3]`.
macro_rules! out_bit {
    ($s:literal, $o:literal, $x:ident) => {{
        let g0 = tern::<W, { IMMS[$s][$o][0] }>($x[3], $x[4], $x[5]);
        let g1 = tern::<W, { IMMS[$s][$o][1] }>($x[3], $x[4], $x[5]);
        let g2 = tern::<W, { IMMS[$s][$o][2] }>($x[3], $x[4], $x[5]);
        let g3 = tern::<W, { IMMS[$s][$o][3] }>($x[3], $x[4], $x[5]);
        let g4 = tern::<W, { IMMS[$s][$o][4] }>($x[3], $x[4], $x[5]);
        let g5 = tern::<W, { IMMS[$s][$o][5] }>($x[3], $x[4], $x[5]);
        let g6 = tern::<W, { IMMS[$s][$o][6] }>($x[3], $x[4], $x[5]);
        let g7 = tern::<W, { IMMS[$s][$o][7] }>($x[3], $x[4], $x[5]);
        let m0 = mux($x[2], g0, g1);
        let m1 = mux($x[2], g2, g3);
        let m2 = mux($x[2], g4, g5);
        let m3 = mux($x[2], g6, g7);
        let n0 = mux($x[1], m0, m1);
        let n1 = mux($x[1], m2, m3);
        mux($x[0], n0, n1)
    }};
}

/// S-box `$s` on its six input slices: four output slices, most significant first.
macro_rules! sbox {
    ($s:literal, $x:ident) => {
        [
            out_bit!($s, 0, $x),
            out_bit!($s, 1, $x),
            out_bit!($s, 2, $x),
            out_bit!($s, 3, $x),
        ]
    };
}

/// Where S-box output bit `q` (0-based, DES bit `q + 1`) lands in `f`: `P^-1`.
const PINV: [usize; 32] = {
    let mut inv = [0usize; 32];
    let mut j = 0;
    while j < 32 {
        inv[P[j] as usize - 1] = j;
        j += 1;
    }
    inv
};

/// S-box `$s` of one round: its six inputs from `r` (expansion E) XOR the key masks,
/// its four outputs XORed into `l` where P puts them. One S-box at a time keeps the live
/// values to the six inputs and the circuit's temporaries.
macro_rules! round_sbox {
    ($s:literal, $l:ident, $r:ident, $k:ident) => {{
        let x: [W; 6] = core::array::from_fn(|j| {
            let e = 6 * $s + j;
            // Key bit e as an all-zero or all-one mask: the same for every block.
            let kb = 0u64.wrapping_sub(($k >> (47 - e)) & 1);
            $r[E[e] as usize - 1].xor(W::splat(kb))
        });
        let o = sbox!($s, x);
        for (q, v) in o.into_iter().enumerate() {
            let d = PINV[4 * $s + q];
            $l[d] = $l[d].xor(v);
        }
    }};
}

/// Sixteen rounds on `(l, r)` with the subkeys in `keys` (48 bits each, bit 47 the first
/// key bit), in order or reversed; on return `(l, r)` is the pre-output `(R16, L16)`, as
/// FP (or the next stage of triple DES) takes it.
#[inline(always)]
fn des<W: Word>(l: &mut [W; 32], r: &mut [W; 32], keys: &[u64; 16], decrypt: bool) {
    for i in 0..16 {
        let k = keys[if decrypt { 15 - i } else { i }];
        round_sbox!(0, l, r, k);
        round_sbox!(1, l, r, k);
        round_sbox!(2, l, r, k);
        round_sbox!(3, l, r, k);
        round_sbox!(4, l, r, k);
        round_sbox!(5, l, r, k);
        round_sbox!(6, l, r, k);
        round_sbox!(7, l, r, k);
        core::mem::swap(l, r);
    }
    core::mem::swap(l, r);
}

/// Transposes a 64 x 64 bit matrix in every lane: afterwards bit `b` of row `p` is what
/// bit `p` of row `b` was (bit 0 the least significant).
#[inline(always)]
pub(super) fn transpose<W: Word>(m: &mut [W; 64]) {
    let mut j = 32u32;
    let mut mask = 0x0000_0000_ffff_ffffu64;
    while j != 0 {
        let mut k = 0usize;
        while k < 64 {
            let jj = j as usize;
            // Swap the high half-blocks of rows k.. with the low of rows k + j...
            let t = m[k].shr(j).xor(m[k + jj]).and(W::splat(mask));
            m[k] = m[k].xor(t.shl(j));
            m[k + jj] = m[k + jj].xor(t);
            k = (k + jj + 1) & !jj;
        }
        j >>= 1;
        mask ^= mask << j;
    }
}

/// One pass over `64 N` blocks held as big-endian 64-bit words `m[b][lane]` (block
/// `64 lane + b`): DES (`keys.len() == 1`) or triple DES (three keys, EDE), in either
/// direction; `m` is replaced by the output.
#[inline(always)]
pub(super) fn crypt<W: Word>(m: &mut [W; 64], keys: &[[u64; 16]], decrypt: bool) {
    transpose(m);
    // After the transpose, row 63 - j holds bit j + 1 of every block.
    let bit = |m: &[W; 64], j: usize| m[63 - j];
    let mut l: [W; 32] = core::array::from_fn(|i| bit(m, IP[i] as usize - 1));
    let mut r: [W; 32] = core::array::from_fn(|i| bit(m, IP[32 + i] as usize - 1));
    let n = keys.len();
    for stage in 0..n {
        // EDE: encrypt, decrypt, encrypt (reversed for decryption). FP then IP between
        // stages cancel: `des` leaves (R16, L16), which is (L0, R0) of the next stage.
        let (k, dec) = if decrypt {
            (&keys[n - 1 - stage], stage % 2 == 0)
        } else {
            (&keys[stage], stage % 2 == 1)
        };
        des(&mut l, &mut r, k, dec);
    }
    // FP = IP^-1: output bit IP[i] is bit i of the pre-output (R16 || L16) = (l || r).
    for i in 0..32 {
        m[63 - (IP[i] as usize - 1)] = l[i];
        m[63 - (IP[32 + i] as usize - 1)] = r[i];
    }
    transpose(m);
}
