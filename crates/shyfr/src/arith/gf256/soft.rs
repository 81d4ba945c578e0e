//! Portable, constant-time building blocks of the bitsliced Kalyna and Kupyna backends:
//! the lane type the generated circuits of `soft_circuits.rs` (the S-boxes and the MDS
//! step as Boolean networks) are written for, and the 64x64 bit-matrix transpose that takes
//! 64 words to bit planes and back.
//!
//! A lane word holds one bit of 64 independent bytes ("lanes"); eight words (one per bit)
//! are a bitsliced byte, on which an S-box circuit is about 520 AND / XOR / AND-NOT / NOT
//! gates and the MDS step 516 XORs per column of eight bytes. Nothing here branches on or
//! indexes memory by data.
#![forbid(unsafe_code)]

use core::ops::{BitAnd, BitXor, Not};

/// A lane mask stored in both halves of 16 aligned bytes: the form in which a lane type of
/// two words takes it with one aligned load (the memory operand of its XOR), where a
/// plain `u64` would cost a load and a shuffle each time.
#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
pub(crate) struct Mask(pub(crate) [u64; 2]);

impl Mask {
    /// The mask `w` in both halves.
    pub(crate) const fn new(w: u64) -> Mask {
        Mask([w, w])
    }
}

impl zeroize::DefaultIsZeroes for Mask {}

/// A set of bitsliced lanes: 64 per word, `WORDS` words.
pub(crate) trait Lane:
    Copy + BitAnd<Output = Self> + BitXor<Output = Self> + Not<Output = Self> + zeroize::DefaultIsZeroes
{
    /// Words of 64 lanes.
    const WORDS: usize;
    /// `!self & other`.
    fn andn(self, other: Self) -> Self;
    /// Every word rotated left by `n` bits (lane `i` moves to lane `i + n` of its word).
    fn rotl(self, n: u32) -> Self;
    /// Every word shifted left by `n` bits, `n < 64`.
    fn shl(self, n: u32) -> Self;
    /// Every word shifted right by `n` bits, `n < 64`.
    fn shr(self, n: u32) -> Self;
    /// The lanes whose word `i` is `w(i)`.
    fn from_words(w: impl Fn(usize) -> u64) -> Self;
    /// The same word in every position.
    fn splat(w: u64) -> Self;
    /// The mask `m` (its first half) in every position.
    fn mask(m: &Mask) -> Self;
    /// Word `i`.
    fn word(&self, i: usize) -> u64;
}

impl Lane for u64 {
    const WORDS: usize = 1;
    #[inline(always)]
    fn andn(self, other: Self) -> Self {
        !self & other
    }
    #[inline(always)]
    fn rotl(self, n: u32) -> Self {
        self.rotate_left(n)
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        self << n
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        self >> n
    }
    #[inline(always)]
    fn from_words(w: impl Fn(usize) -> u64) -> Self {
        w(0)
    }
    #[inline(always)]
    fn splat(w: u64) -> Self {
        w
    }
    #[inline(always)]
    fn mask(m: &Mask) -> Self {
        m.0[0]
    }
    #[inline(always)]
    fn word(&self, _: usize) -> u64 {
        *self
    }
}

/// `K` words of lanes (the tests evaluate the circuits on all 256 inputs at once with it;
/// the compiler does not turn it into SIMD code, so the bulk path uses `u64`).
#[cfg(test)]
#[derive(Clone, Copy)]
pub(crate) struct Wide<const K: usize>([u64; K]);

#[cfg(test)]
impl<const K: usize> Default for Wide<K> {
    fn default() -> Self {
        Wide([0; K])
    }
}

#[cfg(test)]
impl<const K: usize> zeroize::DefaultIsZeroes for Wide<K> {}

#[cfg(test)]
impl<const K: usize> BitAnd for Wide<K> {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, o: Self) -> Self {
        Wide(core::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}
#[cfg(test)]
impl<const K: usize> BitXor for Wide<K> {
    type Output = Self;
    #[inline(always)]
    fn bitxor(self, o: Self) -> Self {
        Wide(core::array::from_fn(|i| self.0[i] ^ o.0[i]))
    }
}
#[cfg(test)]
impl<const K: usize> Not for Wide<K> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Wide(core::array::from_fn(|i| !self.0[i]))
    }
}
#[cfg(test)]
impl<const K: usize> Lane for Wide<K> {
    const WORDS: usize = K;
    #[inline(always)]
    fn andn(self, o: Self) -> Self {
        Wide(core::array::from_fn(|i| !self.0[i] & o.0[i]))
    }
    #[inline(always)]
    fn rotl(self, n: u32) -> Self {
        Wide(core::array::from_fn(|i| self.0[i].rotate_left(n)))
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        Wide(core::array::from_fn(|i| self.0[i] << n))
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        Wide(core::array::from_fn(|i| self.0[i] >> n))
    }
    #[inline(always)]
    fn from_words(w: impl Fn(usize) -> u64) -> Self {
        Wide(core::array::from_fn(w))
    }
    #[inline(always)]
    fn splat(w: u64) -> Self {
        Wide([w; K])
    }
    #[inline(always)]
    fn mask(m: &Mask) -> Self {
        Wide([m.0[0]; K])
    }
    #[inline(always)]
    fn word(&self, i: usize) -> u64 {
        self.0[i]
    }
}

/// Row `r`'s S-box as a circuit on its eight planes `x`: pi_(r mod 4), or its inverse
/// when `INV`.
#[inline(always)]
pub(crate) fn sbox_row<L: Lane, const INV: bool>(r: usize, x: [L; 8]) -> [L; 8] {
    use super::soft_circuits as sc;
    match (INV, r % 4) {
        (false, 0) => sc::sbox0(x),
        (false, 1) => sc::sbox1(x),
        (false, 2) => sc::sbox2(x),
        (false, _) => sc::sbox3(x),
        (true, 0) => sc::sbox0_inv(x),
        (true, 1) => sc::sbox1_inv(x),
        (true, 2) => sc::sbox2_inv(x),
        (true, _) => sc::sbox3_inv(x),
    }
}

/// SubBytes (`INV` false) or InvSubBytes of the eight rows of planes `s` whose lanes in
/// use are `low`, four circuits instead of eight: rows `r` and `r + 4` go through the same
/// S-box, so row `r + 4` is rotated `half` lanes up into lanes that `low` leaves free and
/// shares row `r`'s evaluation. Whatever the lanes outside `low` held (both rows are
/// masked before they are combined), they leave zero. Row `r`'s planes are rotated by
/// `rot_in[r]` lanes on their way in and its results by `rot_out[r]` on their way out (a
/// permutation of whole columns, as ShiftRows is, commutes with SubBytes; zero for none).
/// Written out per pair of rows, so that constant counts stay immediates.
#[inline(always)]
pub(crate) fn sub_bytes_paired<L: Lane, const INV: bool>(
    s: &mut [[L; 8]; 8],
    low: u64,
    half: u32,
    rot_in: [u32; 8],
    rot_out: [u32; 8],
) {
    let low = L::splat(low);
    macro_rules! pair {
        ($r:literal) => {{
            let mut x = [low; 8];
            for (b, v) in x.iter_mut().enumerate() {
                let lo = s[$r][b].rotl(rot_in[$r]) & low;
                let hi = s[$r + 4][b].rotl(rot_in[$r + 4]) & low;
                *v = lo ^ hi.rotl(half);
            }
            let y = sbox_row::<L, INV>($r, x);
            for b in 0..8 {
                s[$r][b] = (y[b] & low).rotl(rot_out[$r]);
                s[$r + 4][b] = (y[b].rotl(64 - half) & low).rotl(rot_out[$r + 4]);
            }
        }};
    }
    pair!(0);
    pair!(1);
    pair!(2);
    pair!(3);
}

/// `out[p]` bit `i` = `a[i]` bit `p`: the 64x64 bit-matrix transpose (its own inverse),
/// by swapping ever smaller off-diagonal blocks; every word of a lane type of several words
/// is transposed with the others at once.
#[inline]
pub(crate) fn transpose64<L: Lane>(a: &mut [L; 64]) {
    let mut j = 32usize;
    let mut m: u64 = 0x0000_0000_ffff_ffff;
    while j != 0 {
        let mask = L::splat(m);
        let mut k = 0usize;
        while k < 64 {
            let t = (a[k].shr(j as u32) ^ a[k + j]) & mask;
            a[k] = a[k] ^ t.shl(j as u32);
            a[k + j] = a[k + j] ^ t;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        m ^= m << j;
    }
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::super::soft_circuits as sc;
    use super::super::tables::{MDS, MDS_INV, POLY, SBOX, SBOX_INV};
    use super::*;

    /// Bit planes of all 256 inputs (four words of 64 lanes): lane `x` holds the byte `x`.
    fn all_inputs() -> [[u64; 4]; 8] {
        let mut p = [[0u64; 4]; 8];
        for x in 0..256usize {
            for (b, plane) in p.iter_mut().enumerate() {
                plane[x / 64] |= (((x >> b) & 1) as u64) << (x % 64);
            }
        }
        p
    }

    fn check_sbox(f: fn([Wide<4>; 8]) -> [Wide<4>; 8], table: &[u8; 256]) {
        let p = all_inputs();
        let out = f(core::array::from_fn(|b| Wide(p[b])));
        for x in 0..256usize {
            let mut y = 0u8;
            for (b, o) in out.iter().enumerate() {
                y |= (((o.0[x / 64] >> (x % 64)) & 1) as u8) << b;
            }
            assert_eq!(y, table[x], "input {x:#04x}");
        }
    }

    #[test]
    fn sbox_circuits_are_exhaustively_right() {
        check_sbox(sc::sbox0, &SBOX[0]);
        check_sbox(sc::sbox1, &SBOX[1]);
        check_sbox(sc::sbox2, &SBOX[2]);
        check_sbox(sc::sbox3, &SBOX[3]);
        check_sbox(sc::sbox0_inv, &SBOX_INV[0]);
        check_sbox(sc::sbox1_inv, &SBOX_INV[1]);
        check_sbox(sc::sbox2_inv, &SBOX_INV[2]);
        check_sbox(sc::sbox3_inv, &SBOX_INV[3]);
        for i in 0..4 {
            for x in 0..256 {
                assert_eq!(SBOX_INV[i][SBOX[i][x] as usize] as usize, x);
            }
        }
    }

    fn gmul(mut a: u8, mut b: u8) -> u8 {
        let mut r = 0;
        while b != 0 {
            if b & 1 != 0 {
                r ^= a;
            }
            let hi = a & 0x80 != 0;
            a <<= 1;
            if hi {
                a ^= (POLY & 0xff) as u8;
            }
            b >>= 1;
        }
        r
    }

    fn mds_bytes(row: &[u8; 8], x: [u8; 8]) -> [u8; 8] {
        core::array::from_fn(|r| (0..8).fold(0, |acc, k| acc ^ gmul(x[k], row[(k + 8 - r) % 8])))
    }

    #[test]
    fn linear_networks_match_the_matrices() {
        for (f, row) in [
            (sc::mds::<u64> as fn(&_) -> _, &MDS),
            (sc::mds_inv::<u64>, &MDS_INV),
        ] {
            // Lane `8 * k + b` holds the unit vector with bit `b` of byte `k` set.
            let mut s = [[0u64; 8]; 8];
            for (k, row_planes) in s.iter_mut().enumerate() {
                for (b, p) in row_planes.iter_mut().enumerate() {
                    *p = 1 << (8 * k + b);
                }
            }
            let out = f(&s);
            for lane in 0..64 {
                let mut x = [0u8; 8];
                x[lane / 8] = 1 << (lane % 8);
                let want = mds_bytes(row, x);
                for r in 0..8 {
                    let mut y = 0u8;
                    for b in 0..8 {
                        y |= (((out[r][b] >> lane) & 1) as u8) << b;
                    }
                    assert_eq!(y, want[r], "lane {lane} row {r}");
                }
            }
        }
        // The two rows are inverse matrices.
        let x = [1, 2, 3, 4, 5, 6, 7, 0x80];
        assert_eq!(mds_bytes(&MDS_INV, mds_bytes(&MDS, x)), x);
    }

    #[test]
    fn transpose_is_a_transpose() {
        let mut a = [0u64; 64];
        for (i, w) in a.iter_mut().enumerate() {
            *w = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (1 << i);
        }
        let orig = a;
        transpose64(&mut a);
        for p in 0..64 {
            for i in 0..64 {
                assert_eq!((a[p] >> i) & 1, (orig[i] >> p) & 1);
            }
        }
        transpose64(&mut a);
        assert_eq!(a, orig);
    }
}
