//! Portable, constant-time AES: bitsliced, eight blocks at a time.
//!
//! # Representation
//!
//! Eight blocks (128 bytes) are held as eight *bit planes*, one per bit of a byte. Plane `j`
//! is four `u32` lanes, one per column of the AES state:
//!
//! ```text
//! planes[j][c], bit 8*r + b  =  bit j of byte (row r, column c) of block b
//! ```
//!
//! Byte `(r, c)` is byte `4*c + r` of a block (FIPS 197 order), so lane `c` of the planes
//! comes from the little-endian words `c` of the eight blocks, and each byte of a lane
//! gathers one bit of one state byte across the batch. Converting to and from planes
//! (`bitslice`, `unbitslice`) is an 8x8 bit-matrix transposition in every byte position
//! across the eight blocks, done with masked shifts ("swapmoves").
//!
//! Every step is written as a loop over the four lanes whose body works on plain `u32`s,
//! the same for every lane, so that LLVM's loop vectoriser turns it into 128-bit SIMD (SSE2
//! on x86-64, NEON on aarch64) with no `unsafe` and no target-specific code; elsewhere it
//! stays correct scalar code. Steps that read another lane read a *wrapped* state, each
//! plane's four lanes written twice (`[u32; 8]`), so that lane `(c + o) mod 4` is at the
//! plain offset `c + o`. A round is one such loop (MixColumns and AddRoundKey of one round
//! and SubBytes of the next) from one wrapped buffer into another, distinct one: a body big
//! enough not to be unrolled before the vectoriser sees it, on buffers that visibly do not
//! overlap.
//!
//! # Rounds
//!
//! * SubBytes is a Boolean circuit on the eight planes (below): 34 ANDs and 94 XORs, each
//!   one operation on all 128 bytes of the batch.
//! * ShiftRows is never executed. The rounds follow the *fixslicing* idea of A. Adomnicai
//!   and T. Peyrin ("Fixslicing AES-like Ciphers", IACR TCHES 2021(1)): after round `i` the
//!   stored state is `ShiftRows^k` of the true one, `k = -i mod 4`, and MixColumns is
//!   computed in those shifted coordinates, where its next-row operator `R` becomes "next
//!   row (a lane rotated by 8 bits), `k` columns back (a lane offset)". The round keys are
//!   stored shifted by `ShiftRows^k` to match, and the last round undoes the shift of the
//!   state (AES-128 and AES-256 end at `k = 2`, AES-192 at `k = 0`). Decryption skips
//!   InvShiftRows the same way, with `k = +i mod 4`.
//! * With `a, b, c, d` = `R^0..R^3` of the state, MixColumns is `2(a ^ b) ^ b ^ c ^ d`, and
//!   InvMixColumns `14a ^ 11b ^ 13c ^ 9d`, evaluated as
//!   `2(2(2(a^b^c^d) ^ (a^c)) ^ (a^b)) ^ (b^c^d)`. Multiplication by 2 is a renaming of
//!   planes plus three XORs.
//! * The constant 0x63 of the S-box's affine map is not computed: the circuits are used
//!   without it and it is folded into the round keys. MixColumns and InvMixColumns map a
//!   column of four equal bytes to itself, so the constant passes through them unchanged.
//!
//! # S-box circuits
//!
//! SubBytes is the depth-16 circuit of J. Boyar and R. Peralta, "A depth-16 circuit for the
//! AES S-box" (IFIP SEC 2012; IACR ePrint 2011/332), gate for gate: a top linear layer, a
//! non-linear middle (inversion in a tower-field representation, 34 ANDs), and a bottom
//! linear layer that includes the affine map. Without its four XNORs it computes
//! `L(x) = A(x^-1)`, `A` the linear part of the affine map.
//!
//! InvSubBytes uses the same middle. Since `x^-1 = A^-1(L(x))`, InvSubBytes of `y ^ 0x63` is
//! `A^-1(L(A^-1(y)))`: the circuit between two copies of `A^-1`. Each copy is merged into
//! the adjacent linear layer: the top layer composed with `A^-1` (22 linear forms of 8
//! bits) takes 23 XORs instead of 16 + 27, and `A^-1` composed with the bottom layer (8
//! forms of the 18 products) 35 instead of 30 + 16. These two XOR programs were computed for
//! this file from the published layers with the standard greedy heuristics for short
//! linear programs (Paar's pairing, and Boyar and Peralta's distance heuristic); the tests
//! check both circuits on all 256 inputs.
//!
//! The forward circuit on one `u32` per bit (four bytes side by side) is also the
//! `SubWord` of the key expansion, the shared `super::expand_key`.
//!
//! # Constant time
//!
//! No table is indexed by secret data and no branch or memory address depends on the key
//! or the data: every step is a fixed sequence of AND, XOR, OR, shifts and rotations by
//! constant amounts, and loads and stores at fixed offsets. The only branches are on the
//! number of rounds, the round index and the buffer length, all public. A partial batch is
//! padded with zero blocks that are encrypted and thrown away.
#![forbid(unsafe_code)]

use zeroize::Zeroize;

use super::expand_key;
use crate::inout::InOut;

/// Blocks per batch.
const BATCH: usize = 8;
/// Bytes per batch.
const BATCH_LEN: usize = 16 * BATCH;

/// The eight bit planes of a batch: `[j][c]` is bit `j` (0 the least significant) of
/// column `c`, bit `8r + b` of the lane being row `r` of block `b`.
type Planes = [[u32; 4]; 8];

/// Planes with each plane's lanes written twice (`[j][c] == [j][c + 4]`), so that lane
/// `(c + o) mod 4` is at `c + o` for `o < 4`.
type Wrapped = [[u32; 8]; 8];

/// A bitsliced round key: the key in all eight block positions of [`Planes`].
type RoundKey = Planes;

/// Writes `v`, the eight planes of lane `c`, into lanes `c` and `c + 4` of `w`.
#[inline(always)]
fn put_wrapped(w: &mut Wrapped, c: usize, v: [u32; 8]) {
    for (p, x) in w.iter_mut().zip(v) {
        p[c] = x;
        p[c + 4] = x;
    }
}

/// Lane `c` of every plane (of a state or a round key).
#[inline(always)]
fn lane(s: &Planes, c: usize) -> [u32; 8] {
    core::array::from_fn(|j| s[j][c])
}

/// Lane `c` of every wrapped plane.
#[inline(always)]
fn wlane(s: &Wrapped, c: usize) -> [u32; 8] {
    core::array::from_fn(|j| s[j][c])
}

/// Exchanges the bits `i + n` of `a` with the bits `i` of `b`, for the bits `i` in `m`.
#[inline(always)]
fn swapmove(a: &mut u32, b: &mut u32, n: u32, m: u32) {
    let t = ((*a >> n) ^ *b) & m;
    *b ^= t;
    *a ^= t << n;
}

/// Transposes the 8x8 bit matrix in every byte position of eight words: bit `j` of byte
/// `p` of `w[i]` trades places with bit `i` of byte `p` of `w[j]`. An involution.
#[inline(always)]
fn transpose8(w: &mut [u32; 8]) {
    let [w0, w1, w2, w3, w4, w5, w6, w7] = w;
    swapmove(w0, w1, 1, 0x5555_5555);
    swapmove(w2, w3, 1, 0x5555_5555);
    swapmove(w4, w5, 1, 0x5555_5555);
    swapmove(w6, w7, 1, 0x5555_5555);
    swapmove(w0, w2, 2, 0x3333_3333);
    swapmove(w1, w3, 2, 0x3333_3333);
    swapmove(w4, w6, 2, 0x3333_3333);
    swapmove(w5, w7, 2, 0x3333_3333);
    swapmove(w0, w4, 4, 0x0f0f_0f0f);
    swapmove(w1, w5, 4, 0x0f0f_0f0f);
    swapmove(w2, w6, 4, 0x0f0f_0f0f);
    swapmove(w3, w7, 4, 0x0f0f_0f0f);
}

/// Eight blocks (FIPS byte order) to bit planes.
#[inline(always)]
fn bitslice(buf: &[u8; BATCH_LEN]) -> Planes {
    let mut s = [[0u32; 4]; 8];
    for c in 0..4 {
        // Word c of each block: row r in bits 8r..8r+8.
        let mut w: [u32; 8] = core::array::from_fn(|b| {
            let o = 16 * b + 4 * c;
            u32::from_le_bytes([buf[o], buf[o + 1], buf[o + 2], buf[o + 3]])
        });
        transpose8(&mut w);
        for (p, x) in s.iter_mut().zip(w) {
            p[c] = x;
        }
    }
    s
}

/// Bit planes back to eight blocks in FIPS byte order; the inverse of [`bitslice`].
#[inline(always)]
fn unbitslice(s: &Planes) -> [u8; BATCH_LEN] {
    let mut buf = [0u8; BATCH_LEN];
    for c in 0..4 {
        let mut w = lane(s, c);
        transpose8(&mut w);
        for (b, x) in w.iter().enumerate() {
            buf[16 * b + 4 * c..16 * b + 4 * c + 4].copy_from_slice(&x.to_le_bytes());
        }
    }
    buf
}

/// The 22 linear forms of the S-box input that the non-linear middle of the circuit reads,
/// in this order.
type Middle = [u32; 22];

/// The 18 products at the end of the middle of the circuit (`M46` to `M63`).
type Products = [u32; 18];

/// The S-box circuit of Boyar and Peralta, "A depth-16 circuit for the AES S-box" (2011),
/// gate for gate: its top linear layer, on the bits of the S-box input `x` (`x[j]` = bit
/// `j`; the paper's `U0` is bit 7). In the paper `+` is XOR and `x` is AND.
#[inline(always)]
fn top_forward(x: [u32; 8]) -> Middle {
    let [u7, u6, u5, u4, u3, u2, u1, u0] = x;
    let t1 = u0 ^ u3;
    let t2 = u0 ^ u5;
    let t3 = u0 ^ u6;
    let t4 = u3 ^ u5;
    let t5 = u4 ^ u6;
    let t6 = t1 ^ t5;
    let t7 = u1 ^ u2;
    let t8 = u7 ^ t6;
    let t9 = u7 ^ t7;
    let t10 = t6 ^ t7;
    let t11 = u1 ^ u5;
    let t12 = u2 ^ u5;
    let t13 = t3 ^ t4;
    let t14 = t6 ^ t11;
    let t15 = t5 ^ t11;
    let t16 = t5 ^ t12;
    let t17 = t9 ^ t16;
    let t18 = u3 ^ u7;
    let t19 = t7 ^ t18;
    let t20 = t1 ^ t19;
    let t21 = u6 ^ u7;
    let t22 = t7 ^ t21;
    let t23 = t2 ^ t22;
    let t24 = t2 ^ t10;
    let t25 = t20 ^ t17;
    let t26 = t3 ^ t16;
    let t27 = t1 ^ t12;

    [
        t1, t2, t3, t4, t6, t8, t9, t10, t13, t14, t15, t16, t17, t19, t20, t22, t23, t24, t25,
        t26, t27, u7,
    ]
}

/// The non-linear middle of the Boyar–Peralta circuit (inversion in a tower-field
/// representation of GF(2^8)): 34 ANDs and 29 XORs, gate for gate as published.
#[inline(always)]
fn middle(t: Middle) -> Products {
    let [t1, t2, t3, t4, t6, t8, t9, t10, t13, t14, t15, t16, t17, t19, t20, t22, t23, t24, t25, t26, t27, u7] =
        t;
    let m1 = t13 & t6;
    let m2 = t23 & t8;
    let m3 = t14 ^ m1;
    let m4 = t19 & u7;
    let m5 = m4 ^ m1;
    let m6 = t3 & t16;
    let m7 = t22 & t9;
    let m8 = t26 ^ m6;
    let m9 = t20 & t17;
    let m10 = m9 ^ m6;
    let m11 = t1 & t15;
    let m12 = t4 & t27;
    let m13 = m12 ^ m11;
    let m14 = t2 & t10;
    let m15 = m14 ^ m11;
    let m16 = m3 ^ m2;
    let m17 = m5 ^ t24;
    let m18 = m8 ^ m7;
    let m19 = m10 ^ m15;
    let m20 = m16 ^ m13;
    let m21 = m17 ^ m15;
    let m22 = m18 ^ m13;
    let m23 = m19 ^ t25;
    let m24 = m22 ^ m23;
    let m25 = m22 & m20;
    let m26 = m21 ^ m25;
    let m27 = m20 ^ m21;
    let m28 = m23 ^ m25;
    let m29 = m28 & m27;
    let m30 = m26 & m24;
    let m31 = m20 & m23;
    let m32 = m27 & m31;
    let m33 = m27 ^ m25;
    let m34 = m21 & m22;
    let m35 = m24 & m34;
    let m36 = m24 ^ m25;
    let m37 = m21 ^ m29;
    let m38 = m32 ^ m33;
    let m39 = m23 ^ m30;
    let m40 = m35 ^ m36;
    let m41 = m38 ^ m40;
    let m42 = m37 ^ m39;
    let m43 = m37 ^ m38;
    let m44 = m39 ^ m40;
    let m45 = m42 ^ m41;
    let m46 = m44 & t6;
    let m47 = m40 & t8;
    let m48 = m39 & u7;
    let m49 = m43 & t16;
    let m50 = m38 & t9;
    let m51 = m37 & t17;
    let m52 = m42 & t15;
    let m53 = m45 & t27;
    let m54 = m41 & t10;
    let m55 = m44 & t13;
    let m56 = m40 & t23;
    let m57 = m39 & t19;
    let m58 = m43 & t3;
    let m59 = m38 & t22;
    let m60 = m37 & t20;
    let m61 = m42 & t1;
    let m62 = m45 & t4;
    let m63 = m41 & t2;

    [
        m46, m47, m48, m49, m50, m51, m52, m53, m54, m55, m56, m57, m58, m59, m60, m61, m62, m63,
    ]
}

/// The bottom linear layer of the Boyar–Peralta circuit, which includes the linear part
/// `A` of the affine map, with its four XNORs replaced by XORs (the constant 0x63 is in the
/// round keys). Returns the bits, least significant first (the paper's `S0` is bit 7).
#[inline(always)]
fn bottom_forward(m: Products) -> [u32; 8] {
    let [m46, m47, m48, m49, m50, m51, m52, m53, m54, m55, m56, m57, m58, m59, m60, m61, m62, m63] =
        m;
    let l0 = m61 ^ m62;
    let l1 = m50 ^ m56;
    let l2 = m46 ^ m48;
    let l3 = m47 ^ m55;
    let l4 = m54 ^ m58;
    let l5 = m49 ^ m61;
    let l6 = m62 ^ l5;
    let l7 = m46 ^ l3;
    let l8 = m51 ^ m59;
    let l9 = m52 ^ m53;
    let l10 = m53 ^ l4;
    let l11 = m60 ^ l2;
    let l12 = m48 ^ m51;
    let l13 = m50 ^ l0;
    let l14 = m52 ^ m61;
    let l15 = m55 ^ l1;
    let l16 = m56 ^ l0;
    let l17 = m57 ^ l1;
    let l18 = m58 ^ l8;
    let l19 = m63 ^ l4;
    let l20 = l0 ^ l1;
    let l21 = l1 ^ l7;
    let l22 = l3 ^ l12;
    let l23 = l18 ^ l2;
    let l24 = l15 ^ l9;
    let l25 = l6 ^ l10;
    let l26 = l7 ^ l9;
    let l27 = l8 ^ l10;
    let l28 = l11 ^ l14;
    let l29 = l11 ^ l17;
    let s0 = l6 ^ l24;
    let s1 = l16 ^ l26; // XNOR in the paper
    let s2 = l19 ^ l28; // XNOR in the paper
    let s3 = l6 ^ l21;
    let s4 = l20 ^ l22;
    let s5 = l25 ^ l29;
    let s6 = l13 ^ l27; // XNOR in the paper
    let s7 = l6 ^ l23; // XNOR in the paper

    [s7, s6, s5, s4, s3, s2, s1, s0]
}

/// `L(x) = A(x^-1)`: the AES S-box without its constant 0x63, on eight bit planes.
#[inline(always)]
fn sbox_linear(x: [u32; 8]) -> [u32; 8] {
    bottom_forward(middle(top_forward(x)))
}

/// The top linear layer of the forward circuit composed with `A^-1`, the inverse of the
/// linear part of the affine map (bit `i` of `A^-1(y)` is the XOR of bits `i + 2`, `i + 5`
/// and `i + 7` mod 8 of `y`): the middle's 22 inputs for the S-box input `A^-1(y)`, in 23
/// XORs instead of 16 + 27. See the module documentation for how it was found; the tests
/// check the whole inverse S-box exhaustively.
#[inline(always)]
fn top_inverse(y: [u32; 8]) -> Middle {
    let [y0, y1, y2, y3, y4, y5, y6, y7] = y;
    let z0 = y4 ^ y6;
    let z1 = y0 ^ y3;
    let z2 = y6 ^ y7;
    let z3 = y3 ^ y4;
    let z4 = z1 ^ z2;
    let z5 = y4 ^ z1;
    let z6 = y1 ^ z5;
    let z7 = z0 ^ z6;
    let z8 = z3 ^ z7;
    let z9 = y5 ^ z8;
    let z10 = z2 ^ z3;
    let z11 = y4 ^ y7;
    let z12 = y6 ^ z11;
    let z13 = y5 ^ z3;
    let z14 = y1 ^ z9;
    let z15 = z6 ^ z14;
    let z16 = z6 ^ z10;
    let z17 = y2 ^ y7;
    let z18 = y5 ^ z17;
    let z19 = z12 ^ z18;
    let z20 = z7 ^ z17;
    let z21 = z9 ^ z18;
    let z22 = z15 ^ z19;
    [
        z3, z2, z6, z10, z19, z12, z5, z4, z16, z20, z21, z15, z9, z8, z7, z0, z11, z1, z13, z14,
        z22, z18,
    ]
}

/// `A^-1` composed with the bottom linear layer of the forward circuit (without its
/// XNORs): the bits of `A^-1(L(..))` from the middle's products, in 35 XORs instead of
/// 30 + 16. See the module documentation for how it was found.
#[inline(always)]
fn bottom_inverse(m: Products) -> [u32; 8] {
    let [m46, m47, m48, m49, m50, m51, m52, m53, m54, m55, m56, m57, m58, m59, m60, m61, m62, m63] =
        m;
    let w0 = m52 ^ m61;
    let w1 = m59 ^ w0;
    let w2 = m58 ^ w1;
    let w3 = m62 ^ w2;
    let w4 = m49 ^ m50;
    let w5 = m54 ^ w3;
    let w6 = m48 ^ m56;
    let w7 = m47 ^ w4;
    let w8 = m50 ^ m51;
    let w9 = m55 ^ m63;
    let w10 = m54 ^ w6;
    let w11 = m60 ^ w10;
    let w12 = m46 ^ w5;
    let w13 = w7 ^ w11;
    let w14 = m57 ^ w13;
    let w15 = m62 ^ w0;
    let w16 = m47 ^ w8;
    let w17 = m46 ^ w8;
    let w18 = m63 ^ w2;
    let w19 = w1 ^ w9;
    let w20 = m58 ^ w15;
    let w21 = m49 ^ w5;
    let w22 = m61 ^ w9;
    let w23 = w6 ^ w18;
    let w24 = m53 ^ m57;
    let w25 = m53 ^ w3;
    let w26 = w23 ^ w24;
    let w27 = w13 ^ w19;
    let w28 = m51 ^ w21;
    let w29 = w12 ^ w16;
    let w30 = m48 ^ w12;
    let w31 = m57 ^ w22;
    let w32 = w4 ^ w25;
    let w33 = w14 ^ w20;
    let w34 = w17 ^ w26;
    [w31, w32, w29, w34, w30, w33, w27, w28]
}

/// `y -> A^-1(L(A^-1(y)))`, which is InvSubBytes of `y ^ 0x63` (as `x^-1 = A^-1(L(x))`).
#[inline(always)]
fn inv_sbox_linear(y: [u32; 8]) -> [u32; 8] {
    bottom_inverse(middle(top_inverse(y)))
}

/// Multiplication by 2 in GF(2^8) (modulus x^8 + x^4 + x^3 + x + 1) on eight planes.
#[inline(always)]
fn xtime(a: [u32; 8]) -> [u32; 8] {
    [
        a[7],
        a[0] ^ a[7],
        a[1],
        a[2] ^ a[7],
        a[3] ^ a[7],
        a[4],
        a[5],
        a[6],
    ]
}

/// Lane offset of the next-row operator `R` in a state shifted by `ShiftRows^k`: `R` reads
/// column `c - k`, which in wrapped planes is `c + (4 - k) % 4`.
#[inline(always)]
const fn back(k: usize) -> usize {
    (4 - k % 4) % 4
}

/// The four rows of MixColumns' input for lane `c` of a wrapped state stored shifted by
/// `ShiftRows^K`: `R^i(d)` for `i = 0..4`, where the next-row operator `R` moves row
/// `r + 1` to row `r` (a lane rotation by 8 bits) and reads column `c - K`.
#[inline(always)]
fn rows<const K: usize>(d: &Wrapped, c: usize) -> [[u32; 8]; 4] {
    let (o1, o2, o3) = (back(K), back(2 * K), back(3 * K));
    [
        wlane(d, c),
        core::array::from_fn(|j| d[j][c + o1].rotate_right(8)),
        core::array::from_fn(|j| d[j][c + o2].rotate_right(16)),
        core::array::from_fn(|j| d[j][c + o3].rotate_right(24)),
    ]
}

/// XOR of eight planes.
#[inline(always)]
fn xor8(a: [u32; 8], b: [u32; 8]) -> [u32; 8] {
    core::array::from_fn(|j| a[j] ^ b[j])
}

/// Lane `c` of MixColumns of `d` (wrapped, shifted by `ShiftRows^K`):
/// `2(a ^ b) ^ b ^ c ^ d` for the rows `a, b, c, d` of [`rows`].
#[inline(always)]
fn mix_column<const K: usize>(d: &Wrapped, c: usize) -> [u32; 8] {
    let [a, b, c2, d3] = rows::<K>(d, c);
    let ab = xor8(a, b);
    xor8(xor8(xtime(ab), b), xor8(c2, d3))
}

/// Lane `c` of InvMixColumns of `d` (wrapped, shifted by `ShiftRows^K`):
/// `14a ^ 11b ^ 13c ^ 9d = 2(2(2(a^b^c^d) ^ (a^c)) ^ (a^b)) ^ (b^c^d)`.
#[inline(always)]
fn inv_mix_column<const K: usize>(d: &Wrapped, c: usize) -> [u32; 8] {
    let [a, b, c2, d3] = rows::<K>(d, c);
    let ab = xor8(a, b);
    let cd = xor8(c2, d3);
    let x = xtime(xor8(ab, cd));
    let x = xtime(xor8(x, xor8(a, c2)));
    let x = xtime(xor8(x, ab));
    xor8(x, xor8(b, cd))
}

/// One encryption round but its SubBytes, then the next round's SubBytes: `e =
/// SubBytes(MixColumns(d) ^ k)`, `d` and `e` wrapped, `d` shifted by `ShiftRows^K`. One
/// loop over the lanes, so that it is vectorised as a whole.
#[inline(always)]
fn enc_round<const K: usize>(d: &Wrapped, k: &RoundKey, e: &mut Wrapped) {
    for c in 0..4 {
        let m = xor8(mix_column::<K>(d, c), lane(k, c));
        put_wrapped(e, c, sbox_linear(m));
    }
}

/// One decryption step between two InvSubBytes: `e = InvSubBytes(InvMixColumns(d)) ^ k`,
/// `d` and `e` wrapped, `d` shifted by `ShiftRows^K`.
#[inline(always)]
fn dec_round<const K: usize>(d: &Wrapped, k: &RoundKey, e: &mut Wrapped) {
    for c in 0..4 {
        let m = inv_mix_column::<K>(d, c);
        put_wrapped(e, c, xor8(inv_sbox_linear(m), lane(k, c)));
    }
}

/// The end of the last round: undoes `ShiftRows^K` of the wrapped state `d` (row `r`
/// reads column `c - K r`) and adds the round key `rk` (stored unshifted).
#[inline(always)]
fn unshift_add_key<const K: usize>(d: &Wrapped, rk: &RoundKey, s: &mut Planes) {
    let o: [usize; 4] = core::array::from_fn(|r| back(K * r));
    for c in 0..4 {
        for (j, p) in s.iter_mut().enumerate() {
            let v = (d[j][c + o[0]] & 0x0000_00ff)
                | (d[j][c + o[1]] & 0x0000_ff00)
                | (d[j][c + o[2]] & 0x00ff_0000)
                | (d[j][c + o[3]] & 0xff00_0000);
            p[c] = v ^ rk[j][c];
        }
    }
}

/// `ShiftRows^k` of a 16-byte block in FIPS order: byte `(r, c)` takes `(r, c + k r)`.
fn shift_rows_bytes(x: &[u8; 16], k: usize) -> [u8; 16] {
    core::array::from_fn(|i| {
        let (c, r) = (i / 4, i % 4);
        x[4 * ((c + k * r) % 4) + r]
    })
}

/// `SubWord` of the key expansion: the S-box on each byte of `w`, with the bitsliced circuit
/// (one `u32` per bit plane, byte `i` in bit `8i`).
fn sub_word(w: u32) -> u32 {
    let x: [u32; 8] = core::array::from_fn(|j| (w >> j) & 0x0101_0101);
    let y = sbox_linear(x);
    let mut out = 0;
    for (j, p) in y.iter().enumerate() {
        out |= (p & 0x0101_0101) << j;
    }
    out ^ 0x6363_6363
}

/// Bitslices a round key: `ShiftRows^k` of it, plus 0x63 in every byte if `c63`, in all
/// eight block positions.
fn bitslice_key(rk: &[u8; 16], k: usize, c63: bool) -> RoundKey {
    let mut x = shift_rows_bytes(rk, k);
    if c63 {
        for b in x.iter_mut() {
            *b ^= 0x63;
        }
    }
    let mut buf = [0u8; BATCH_LEN];
    for chunk in buf.chunks_exact_mut(16) {
        chunk.copy_from_slice(&x);
    }
    let out = bitslice(&buf);
    x.zeroize();
    buf.zeroize();
    out
}

/// Bitsliced round keys for encryption and decryption (see the module documentation for
/// the shifts and constants they carry).
#[derive(Clone)]
pub(crate) struct Keys {
    /// `enc[i]`: round key `i`, shifted by `ShiftRows^(-i)` for `0 < i < rounds`, with 0x63
    /// from round 1 on.
    enc: [RoundKey; 15],
    /// `dec[i]`: round key `rounds - i`, shifted by `ShiftRows^i` for `0 < i < rounds`, with
    /// 0x63 in all but the last.
    dec: [RoundKey; 15],
    /// Number of rounds: 10, 12 or 14.
    rounds: usize,
}

impl Drop for Keys {
    fn drop(&mut self) {
        self.enc.zeroize();
        self.dec.zeroize();
    }
}

impl Keys {
    /// `key` is 16, 24 or 32 bytes (already validated by the caller).
    pub(crate) fn new(key: &[u8]) -> Self {
        let mut rk = [[0u8; 16]; 15];
        let nr = expand_key(key, sub_word, &mut rk);
        let mut keys = Keys {
            enc: [[[0; 4]; 8]; 15],
            dec: [[[0; 4]; 8]; 15],
            rounds: nr,
        };
        // The first and last keys are used unshifted (the last round undoes the shift of
        // the state before adding its key).
        let shift = |k: usize, i: usize| if i == 0 || i == nr { 0 } else { k };
        for i in 0..=nr {
            // Encryption: after round i the state is ShiftRows^(-i) of the true one.
            keys.enc[i] = bitslice_key(&rk[i], shift(back(i), i), i > 0);
            // Decryption: step i adds round key nr - i to a state at ShiftRows^i; the
            // constant goes before every InvSubBytes, so into all keys but the last.
            keys.dec[i] = bitslice_key(&rk[nr - i], shift(i % 4, i), i < nr);
        }
        rk.zeroize();
        keys
    }

    /// Encrypts one batch of bit planes.
    #[inline(always)]
    fn encrypt_planes(&self, s: &mut Planes) {
        let nr = self.rounds;
        let rk = &self.enc;
        // Two distinct buffers, so that LLVM sees that a round's input and output do not
        // overlap; the rounds go four at a time, ShiftRows^-i being periodic.
        let (mut d, mut e) = ([[0u32; 8]; 8], [[0u32; 8]; 8]);
        for c in 0..4 {
            put_wrapped(&mut d, c, sbox_linear(xor8(lane(s, c), lane(&rk[0], c))));
        }
        // The buffer filled last holds SubBytes of round i, shifted by ShiftRows^(-i).
        let mut i = 1;
        loop {
            if i == nr {
                return unshift_add_key::<3>(&d, &rk[nr], s);
            }
            enc_round::<3>(&d, &rk[i], &mut e);
            i += 1;
            if i == nr {
                return unshift_add_key::<2>(&e, &rk[nr], s);
            }
            enc_round::<2>(&e, &rk[i], &mut d);
            i += 1;
            if i == nr {
                return unshift_add_key::<1>(&d, &rk[nr], s);
            }
            enc_round::<1>(&d, &rk[i], &mut e);
            i += 1;
            if i == nr {
                return unshift_add_key::<0>(&e, &rk[nr], s);
            }
            enc_round::<0>(&e, &rk[i], &mut d);
            i += 1;
        }
    }

    /// Decrypts one batch of bit planes.
    #[inline(always)]
    fn decrypt_planes(&self, s: &mut Planes) {
        let nr = self.rounds;
        let rk = &self.dec;
        let (mut d, mut e) = ([[0u32; 8]; 8], [[0u32; 8]; 8]);
        for c in 0..4 {
            let y = inv_sbox_linear(xor8(lane(s, c), lane(&rk[0], c)));
            put_wrapped(&mut d, c, xor8(y, lane(&rk[1], c)));
        }
        // Step i's InvMixColumns (state at ShiftRows^i), then step i + 1's InvSubBytes and
        // key; the last key is added after the final unshift.
        const ZERO: RoundKey = [[0; 4]; 8];
        let key = |i: usize| if i < nr { &rk[i] } else { &ZERO };
        let mut i = 1;
        loop {
            dec_round::<1>(&d, key(i + 1), &mut e);
            i += 1;
            if i == nr {
                return unshift_add_key::<2>(&e, &rk[nr], s);
            }
            dec_round::<2>(&e, key(i + 1), &mut d);
            i += 1;
            if i == nr {
                return unshift_add_key::<3>(&d, &rk[nr], s);
            }
            dec_round::<3>(&d, key(i + 1), &mut e);
            i += 1;
            if i == nr {
                return unshift_add_key::<0>(&e, &rk[nr], s);
            }
            dec_round::<0>(&e, key(i + 1), &mut d);
            i += 1;
            if i == nr {
                return unshift_add_key::<1>(&d, &rk[nr], s);
            }
        }
    }

    /// Runs `f` on every batch of `io`: whole batches directly, the last partial one padded
    /// with zero blocks of which only the real ones are written back.
    #[inline(always)]
    fn batches(&self, mut io: InOut<'_>, f: impl Fn(&Self, &mut Planes)) {
        let len = io.len();
        let mut off = 0;
        while len - off >= BATCH_LEN {
            let mut s = bitslice(&io.read::<BATCH_LEN>(off));
            f(self, &mut s);
            io.write::<BATCH_LEN>(off, &unbitslice(&s));
            off += BATCH_LEN;
        }
        if off < len {
            let n = (len - off) / 16;
            let mut buf = [0u8; BATCH_LEN];
            for (i, b) in buf.chunks_exact_mut(16).take(n).enumerate() {
                b.copy_from_slice(&io.read::<16>(off + 16 * i));
            }
            let mut s = bitslice(&buf);
            f(self, &mut s);
            let out = unbitslice(&s);
            for (i, b) in out.chunks_exact(16).take(n).enumerate() {
                let mut blk = [0u8; 16];
                blk.copy_from_slice(b);
                io.write::<16>(off + 16 * i, &blk);
            }
        }
    }

    /// Encrypts the whole 16-byte blocks of `io` (io.len() is a multiple of 16, may be 0).
    pub(crate) fn encrypt(&self, io: InOut<'_>) {
        self.batches(io, Self::encrypt_planes);
    }

    /// Decrypts the whole 16-byte blocks of `io`.
    pub(crate) fn decrypt(&self, io: InOut<'_>) {
        self.batches(io, Self::decrypt_planes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    /// Textbook AES for the tests only: byte-oriented, S-box from inversion in GF(2^8).
    mod reference {
        use std::vec::Vec;

        /// Multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1.
        pub fn gmul(mut a: u8, mut b: u8) -> u8 {
            let mut p = 0;
            while b != 0 {
                if b & 1 != 0 {
                    p ^= a;
                }
                let hi = a & 0x80;
                a <<= 1;
                if hi != 0 {
                    a ^= 0x1b;
                }
                b >>= 1;
            }
            p
        }

        /// Multiplicative inverse (0 for 0), as a^254.
        pub fn ginv(a: u8) -> u8 {
            let mut r = 1;
            for _ in 0..254 {
                r = gmul(r, a);
            }
            r
        }

        /// The S-box and its inverse as tables, computed once (tests only).
        fn tables() -> &'static ([u8; 256], [u8; 256]) {
            static T: std::sync::OnceLock<([u8; 256], [u8; 256])> = std::sync::OnceLock::new();
            T.get_or_init(|| {
                let mut fwd = [0u8; 256];
                let mut inv = [0u8; 256];
                for x in 0..=255u8 {
                    let b = ginv(x);
                    let y = b
                        ^ b.rotate_left(1)
                        ^ b.rotate_left(2)
                        ^ b.rotate_left(3)
                        ^ b.rotate_left(4)
                        ^ 0x63;
                    fwd[usize::from(x)] = y;
                    inv[usize::from(y)] = x;
                }
                (fwd, inv)
            })
        }

        /// The S-box: inversion and the affine map.
        pub fn sbox(x: u8) -> u8 {
            tables().0[usize::from(x)]
        }

        /// The inverse S-box.
        pub fn inv_sbox(y: u8) -> u8 {
            tables().1[usize::from(y)]
        }

        /// FIPS 197 key expansion (own implementation), round keys as 16-byte blocks.
        pub fn expand(key: &[u8]) -> Vec<[u8; 16]> {
            let nk = key.len() / 4;
            let nr = nk + 6;
            let mut w: Vec<[u8; 4]> = key.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
            let mut rcon = 1u8;
            for i in nk..4 * (nr + 1) {
                let mut t = w[i - 1];
                if i % nk == 0 {
                    t = [sbox(t[1]) ^ rcon, sbox(t[2]), sbox(t[3]), sbox(t[0])];
                    rcon = gmul(rcon, 2);
                } else if nk > 6 && i % nk == 4 {
                    t = t.map(sbox);
                }
                let p = w[i - nk];
                w.push([p[0] ^ t[0], p[1] ^ t[1], p[2] ^ t[2], p[3] ^ t[3]]);
            }
            w.chunks(4)
                .map(|c| {
                    let mut b = [0u8; 16];
                    for (i, x) in c.iter().enumerate() {
                        b[4 * i..4 * i + 4].copy_from_slice(x);
                    }
                    b
                })
                .collect()
        }

        fn shift_rows(s: &mut [u8; 16], inv: bool) {
            let t = *s;
            for c in 0..4 {
                for r in 0..4 {
                    let from = if inv { (c + 4 - r) % 4 } else { (c + r) % 4 };
                    s[4 * c + r] = t[4 * from + r];
                }
            }
        }

        fn mix_columns(s: &mut [u8; 16], m: [u8; 4]) {
            for c in 0..4 {
                let col = [s[4 * c], s[4 * c + 1], s[4 * c + 2], s[4 * c + 3]];
                for r in 0..4 {
                    s[4 * c + r] = (0..4).fold(0, |acc, j| acc ^ gmul(m[j], col[(r + j) % 4]));
                }
            }
        }

        fn add(s: &mut [u8; 16], k: &[u8; 16]) {
            for (a, b) in s.iter_mut().zip(k) {
                *a ^= b;
            }
        }

        /// Encrypts one block.
        pub fn encrypt(key: &[u8], block: &[u8; 16]) -> [u8; 16] {
            let rk = expand(key);
            let nr = rk.len() - 1;
            let mut s = *block;
            add(&mut s, &rk[0]);
            for (i, k) in rk.iter().enumerate().skip(1) {
                s = s.map(sbox);
                shift_rows(&mut s, false);
                if i != nr {
                    mix_columns(&mut s, [2, 3, 1, 1]);
                }
                add(&mut s, k);
            }
            s
        }

        /// Decrypts one block.
        pub fn decrypt(key: &[u8], block: &[u8; 16]) -> [u8; 16] {
            let rk = expand(key);
            let nr = rk.len() - 1;
            let mut s = *block;
            add(&mut s, &rk[nr]);
            for i in (0..nr).rev() {
                shift_rows(&mut s, true);
                s = s.map(inv_sbox);
                add(&mut s, &rk[i]);
                if i != 0 {
                    mix_columns(&mut s, [14, 11, 13, 9]);
                }
            }
            s
        }
    }

    /// `A^-1`, the linear part of the inverse of the S-box's affine map:
    /// bit `i` of the result is bits `i + 2`, `i + 5` and `i + 7` (mod 8) of `y` added.
    fn inv_affine_linear(y: [u32; 8]) -> [u32; 8] {
        // p[i] = y[i] ^ y[i + 3]; then bit i = p[i + 2] ^ y[i + 7].
        let p = [
            y[0] ^ y[3],
            y[1] ^ y[4],
            y[2] ^ y[5],
            y[3] ^ y[6],
            y[4] ^ y[7],
            y[5] ^ y[0],
            y[6] ^ y[1],
            y[7] ^ y[2],
        ];
        [
            p[2] ^ y[7],
            p[3] ^ y[0],
            p[4] ^ y[1],
            p[5] ^ y[2],
            p[6] ^ y[3],
            p[7] ^ y[4],
            p[0] ^ y[5],
            p[1] ^ y[6],
        ]
    }

    fn h(s: &str) -> Vec<u8> {
        hex::decode(s).unwrap()
    }

    fn enc(k: &Keys, data: &mut [u8]) {
        k.encrypt(InOut::in_place(data));
    }

    fn dec(k: &Keys, data: &mut [u8]) {
        k.decrypt(InOut::in_place(data));
    }

    #[test]
    fn sbox_circuits_are_exhaustively_correct() {
        let bits = |x: u8| -> [u32; 8] { core::array::from_fn(|j| u32::from((x >> j) & 1)) };
        let byte = |y: [u32; 8]| (0..8).fold(0u8, |acc, j| acc | ((y[j] as u8 & 1) << j));
        for x in 0..=255u8 {
            assert_eq!(
                byte(sbox_linear(bits(x))) ^ 0x63,
                reference::sbox(x),
                "S-box at {x:#04x}"
            );
            assert_eq!(
                byte(inv_sbox_linear(bits(x ^ 0x63))),
                reference::inv_sbox(x),
                "inverse S-box at {x:#04x}"
            );
            // The merged linear layers equal the composition with A^-1 that they replace.
            assert_eq!(
                inv_sbox_linear(bits(x)),
                inv_affine_linear(sbox_linear(inv_affine_linear(bits(x))))
            );
        }
    }

    #[test]
    fn sub_word_matches_reference() {
        for w in [0u32, 0x0102_0304, 0xcf4f_3c09, 0xffff_ffff, 0x8d01_5a63] {
            let want = u32::from_le_bytes(w.to_le_bytes().map(reference::sbox));
            assert_eq!(sub_word(w), want);
        }
    }

    #[test]
    fn bitslice_round_trip_and_layout() {
        let buf: [u8; BATCH_LEN] = core::array::from_fn(|i| (i * 37 + 11) as u8);
        let s = bitslice(&buf);
        for (j, plane) in s.iter().enumerate() {
            for (c, lane) in plane.iter().enumerate() {
                for r in 0..4 {
                    for b in 0..8 {
                        let want = (buf[16 * b + 4 * c + r] >> j) & 1;
                        assert_eq!(u32::from(want), (lane >> (8 * r + b)) & 1);
                    }
                }
            }
        }
        assert_eq!(unbitslice(&s), buf);
    }

    /// FIPS 197 Appendix A: the last word of each expansion, through the shared
    /// `expand_key` and this file's `sub_word`.
    #[test]
    fn fips197_appendix_a_key_expansion() {
        let cases = [
            ("2b7e151628aed2a6abf7158809cf4f3c", 10, "b6630ca6"),
            (
                "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
                12,
                "01002202",
            ),
            (
                "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
                14,
                "706c631e",
            ),
        ];
        for (key, rounds, last) in cases {
            let key = h(key);
            let mut rk = [[0u8; 16]; 15];
            assert_eq!(expand_key(&key, sub_word, &mut rk), rounds);
            assert_eq!(rk[rounds][12..].to_vec(), h(last));
            let want = reference::expand(&key);
            assert_eq!(&rk[..=rounds], &want[..]);
        }
    }

    #[test]
    fn fips197_appendix_c() {
        let pt = h("00112233445566778899aabbccddeeff");
        let key: Vec<u8> = (0..32).collect();
        let cases = [
            (16, "69c4e0d86a7b0430d8cdb78070b4c55a"),
            (24, "dda97ca4864cdfe06eaf70a0ec0d7191"),
            (32, "8ea2b7ca516745bfeafc49904b496089"),
        ];
        for (klen, ct) in cases {
            let k = Keys::new(&key[..klen]);
            let mut b = pt.clone();
            enc(&k, &mut b);
            assert_eq!(b, h(ct), "AES-{} encrypt", klen * 8);
            dec(&k, &mut b);
            assert_eq!(b, pt, "AES-{} decrypt", klen * 8);
            // A clone works the same.
            let k2 = k.clone();
            drop(k);
            enc(&k2, &mut b);
            assert_eq!(b, h(ct));
        }
    }

    #[test]
    fn every_batch_length() {
        for klen in [16, 24, 32] {
            let key: Vec<u8> = (0..klen as u8).map(|i| i.wrapping_mul(29) ^ 0xa5).collect();
            let k = Keys::new(&key);
            for n in 0..=25usize {
                let pt: Vec<u8> = (0..16 * n).map(|i| (i * 7 + n) as u8).collect();

                // Reference: n single-block encryptions through this backend and the
                // textbook code.
                let mut want = pt.clone();
                for (blk, p) in want.chunks_exact_mut(16).zip(pt.chunks_exact(16)) {
                    enc(&k, blk);
                    let p: [u8; 16] = p.try_into().unwrap();
                    assert_eq!(blk, &reference::encrypt(&key, &p)[..]);
                }

                // In place.
                let mut buf = pt.clone();
                enc(&k, &mut buf);
                assert_eq!(buf, want, "encrypt in place, {n} blocks, AES-{}", klen * 8);
                dec(&k, &mut buf);
                assert_eq!(buf, pt, "decrypt in place, {n} blocks");

                // Buffer to buffer.
                let mut ct = vec![0u8; pt.len()];
                k.encrypt(InOut::new(&pt, &mut ct).unwrap());
                assert_eq!(ct, want, "encrypt to buffer, {n} blocks");
                let mut back = vec![0u8; pt.len()];
                k.decrypt(InOut::new(&ct, &mut back).unwrap());
                assert_eq!(back, pt, "decrypt to buffer, {n} blocks");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn random_round_trips(
            key in proptest::collection::vec(proptest::num::u8::ANY, 32),
            klen in proptest::sample::select(vec![16usize, 24, 32]),
            blocks in proptest::collection::vec(proptest::array::uniform16(proptest::num::u8::ANY), 0..20),
        ) {
            let key = &key[..klen];
            let k = Keys::new(key);
            let pt: Vec<u8> = blocks.concat();
            let mut buf = pt.clone();
            enc(&k, &mut buf);
            for (c, p) in buf.chunks_exact(16).zip(&blocks) {
                proptest::prop_assert_eq!(c, &reference::encrypt(key, p)[..]);
                let c: [u8; 16] = c.try_into().unwrap();
                proptest::prop_assert_eq!(reference::decrypt(key, &c), *p);
            }
            dec(&k, &mut buf);
            proptest::prop_assert_eq!(buf, pt);
        }
    }
}
