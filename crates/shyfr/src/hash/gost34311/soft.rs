//! The portable parts of the GOST 34.311-95 step function: key generation (the `A` and
//! `P` transformations) and the linear mixing `psi`, on 256-bit values held as four
//! little-endian 64-bit words (`y1` = word 0, the least significant).
//!
//! `psi` shifts the sixteen 16-bit words of its input down by one and puts
//! `y1 ^ y2 ^ y3 ^ y4 ^ y13 ^ y16` on top; it is linear over GF(2) with coefficients 0
//! or 1 per word, so any power of it is a 16 x 16 matrix of word masks, computed here at
//! compile time. The step's mixing `psi^61(H ^ psi(M ^ psi^12(S)))` equals
//! `psi^61(H) ^ psi^62(M) ^ psi^74(S)`: the first two terms do not depend on the four
//! encryptions and are computed before them, leaving one matrix product after. A matrix
//! product broadcasts each input word into the four lanes of a 64-bit word and ANDs it
//! with constant lane masks: no branch and no memory index depends on the data.
#![forbid(unsafe_code)]

/// A 256-bit value as four little-endian 64-bit words.
pub(super) type W256 = [u64; 4];

/// `C3` of the key generation (GOST 34.311-95, 6.3), as little-endian words; `C2` and
/// `C4` are zero.
const C3: W256 = [
    0xff00_ff00_ff00_ff00,
    0x00ff_00ff_00ff_00ff,
    0xff00_00ff_00ff_ff00,
    0xff00_ffff_0000_00ff,
];

/// `psi^n` as, for each output word `j`, the mask of input words XORed into it.
const fn psi_pow(n: usize) -> [u16; 16] {
    let mut v = [0u16; 16];
    let mut i = 0;
    while i < 16 {
        v[i] = 1 << i;
        i += 1;
    }
    let mut k = 0;
    while k < n {
        let t = v[0] ^ v[1] ^ v[2] ^ v[3] ^ v[12] ^ v[15];
        let mut j = 0;
        while j < 15 {
            v[j] = v[j + 1];
            j += 1;
        }
        v[15] = t;
        k += 1;
    }
    v
}

/// A word matrix as lane masks: `m[i][q]` has `0xffff` in lane `l` exactly when output
/// word `4 q + l` takes input word `i`.
type Lanes = [[u64; 4]; 16];

const fn lanes(m: [u16; 16]) -> Lanes {
    let mut out = [[0u64; 4]; 16];
    let mut i = 0;
    while i < 16 {
        let mut j = 0;
        while j < 16 {
            if (m[j] >> i) & 1 == 1 {
                out[i][j / 4] |= 0xffff << (16 * (j % 4));
            }
            j += 1;
        }
        i += 1;
    }
    out
}

const PSI61: Lanes = lanes(psi_pow(61));
const PSI62: Lanes = lanes(psi_pow(62));
const PSI74: Lanes = lanes(psi_pow(74));

/// `m * y`: every output word the XOR of the input words its row names.
#[inline(always)]
fn apply(m: &Lanes, y: &W256, acc: &mut W256) {
    for (i, row) in m.iter().enumerate() {
        let w = (y[i / 4] >> (16 * (i % 4))) & 0xffff;
        let b = w.wrapping_mul(0x0001_0001_0001_0001);
        for q in 0..4 {
            acc[q] ^= b & row[q];
        }
    }
}

/// `psi^61(h) ^ psi^62(m)`: the part of the mixing known before the encryptions.
#[inline]
pub(super) fn premix(h: &W256, m: &W256) -> W256 {
    let mut acc = [0u64; 4];
    apply(&PSI61, h, &mut acc);
    apply(&PSI62, m, &mut acc);
    acc
}

/// `pre ^ psi^74(s)`: the new chaining value.
#[inline]
pub(super) fn mix(pre: &W256, s: &W256) -> W256 {
    let mut acc = *pre;
    apply(&PSI74, s, &mut acc);
    acc
}

/// `A(y4 || y3 || y2 || y1) = (y1 ^ y2) || y4 || y3 || y2`.
#[inline(always)]
fn a(y: &W256) -> W256 {
    [y[1], y[2], y[3], y[0] ^ y[1]]
}

/// `P`: byte `4 k + i` of the key is byte `8 i + k` of `w`, as eight little-endian key
/// words.
#[inline(always)]
fn p(w: &W256) -> [u32; 8] {
    let mut k = [0u32; 8];
    for (j, kj) in k.iter_mut().enumerate() {
        for (i, wi) in w.iter().enumerate() {
            *kj |= (((wi >> (8 * j)) & 0xff) as u32) << (8 * i);
        }
    }
    k
}

/// The four GOST 28147-89 keys of a step (GOST 34.311-95, 6.3).
#[inline]
pub(super) fn keys(h: &W256, m: &W256) -> [[u32; 8]; 4] {
    let (mut u, mut v) = (*h, *m);
    let xor = |x: &W256, y: &W256| [x[0] ^ y[0], x[1] ^ y[1], x[2] ^ y[2], x[3] ^ y[3]];
    let mut out = [[0u32; 8]; 4];
    out[0] = p(&xor(&u, &v));
    for (j, o) in out.iter_mut().enumerate().skip(1) {
        u = a(&u);
        if j == 2 {
            u = xor(&u, &C3);
        }
        v = a(&a(&v));
        *o = p(&xor(&u, &v));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One `psi` step on words, straight from the definition.
    fn psi(y: &mut [u16; 16]) {
        let t = y[0] ^ y[1] ^ y[2] ^ y[3] ^ y[12] ^ y[15];
        y.copy_within(1.., 0);
        y[15] = t;
    }

    fn to_words(x: &W256) -> [u16; 16] {
        let mut w = [0u16; 16];
        for (i, v) in w.iter_mut().enumerate() {
            *v = (x[i / 4] >> (16 * (i % 4))) as u16;
        }
        w
    }

    #[test]
    fn matrices_equal_repeated_psi() {
        let h: W256 = [0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210, 7, 1 << 63];
        let m: W256 = [3, 0xdead_beef_0bad_f00d, 0x5555_aaaa_5555_aaaa, 42];
        let s: W256 = [0xffff, 0xffff_0000, 1, 0x8000_0000_0000_0001];
        // psi^61(H ^ psi(M ^ psi^12(S))) step by step.
        let mut x = to_words(&s);
        for _ in 0..12 {
            psi(&mut x);
        }
        for (xi, mi) in x.iter_mut().zip(to_words(&m)) {
            *xi ^= mi;
        }
        psi(&mut x);
        for (xi, hi) in x.iter_mut().zip(to_words(&h)) {
            *xi ^= hi;
        }
        for _ in 0..61 {
            psi(&mut x);
        }
        assert_eq!(to_words(&mix(&premix(&h, &m), &s)), x);
    }
}
