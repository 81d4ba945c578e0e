//! Portable SHA-256 and SHA-512 compression functions (FIPS 180-4, 6.2.2 and 6.4.2).
//!
//! Straight-line code: the rounds are unrolled by a macro that renames the eight working
//! variables instead of moving them, and the message schedule lives in a 16-word ring that
//! is extended in the round that first needs each word. SHA-2 uses only additions, fixed
//! rotations and bitwise logic, so this code is constant time without further care.
#![forbid(unsafe_code)]

use super::consts::{K256, K512};

/// One SHA-2 round on renamed variables: `$h` becomes the new `a` and `$d` the new `e`.
/// `$w` is `K[t] + W[t]`.
macro_rules! round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident,
     $kw:expr, $bs0:ident, $bs1:ident) => {
        $h = $h
            .wrapping_add($kw)
            .wrapping_add($g ^ ($e & ($f ^ $g)))
            .wrapping_add($bs1($e));
        $d = $d.wrapping_add($h);
        $h = $h
            .wrapping_add($bs0($a))
            .wrapping_add((($a ^ $b) & ($b ^ $c)) ^ $b);
    };
}

/// Sixteen rounds starting at round `$t` on the working variables `$a`..`$h`, the message
/// word for round `t` coming from `$word(t)` (the word loaded, or the word scheduled in
/// place).
macro_rules! rounds16 {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident;
     $t:expr, $word:ident, $k:ident, $bs0:ident, $bs1:ident) => {{
        let t: usize = $t;
        round!($a, $b, $c, $d, $e, $f, $g, $h, $k[t].wrapping_add($word(t)), $bs0, $bs1);
        round!($h, $a, $b, $c, $d, $e, $f, $g, $k[t + 1].wrapping_add($word(t + 1)), $bs0, $bs1);
        round!($g, $h, $a, $b, $c, $d, $e, $f, $k[t + 2].wrapping_add($word(t + 2)), $bs0, $bs1);
        round!($f, $g, $h, $a, $b, $c, $d, $e, $k[t + 3].wrapping_add($word(t + 3)), $bs0, $bs1);
        round!($e, $f, $g, $h, $a, $b, $c, $d, $k[t + 4].wrapping_add($word(t + 4)), $bs0, $bs1);
        round!($d, $e, $f, $g, $h, $a, $b, $c, $k[t + 5].wrapping_add($word(t + 5)), $bs0, $bs1);
        round!($c, $d, $e, $f, $g, $h, $a, $b, $k[t + 6].wrapping_add($word(t + 6)), $bs0, $bs1);
        round!($b, $c, $d, $e, $f, $g, $h, $a, $k[t + 7].wrapping_add($word(t + 7)), $bs0, $bs1);
        round!($a, $b, $c, $d, $e, $f, $g, $h, $k[t + 8].wrapping_add($word(t + 8)), $bs0, $bs1);
        round!($h, $a, $b, $c, $d, $e, $f, $g, $k[t + 9].wrapping_add($word(t + 9)), $bs0, $bs1);
        round!($g, $h, $a, $b, $c, $d, $e, $f, $k[t + 10].wrapping_add($word(t + 10)), $bs0, $bs1);
        round!($f, $g, $h, $a, $b, $c, $d, $e, $k[t + 11].wrapping_add($word(t + 11)), $bs0, $bs1);
        round!($e, $f, $g, $h, $a, $b, $c, $d, $k[t + 12].wrapping_add($word(t + 12)), $bs0, $bs1);
        round!($d, $e, $f, $g, $h, $a, $b, $c, $k[t + 13].wrapping_add($word(t + 13)), $bs0, $bs1);
        round!($c, $d, $e, $f, $g, $h, $a, $b, $k[t + 14].wrapping_add($word(t + 14)), $bs0, $bs1);
        round!($b, $c, $d, $e, $f, $g, $h, $a, $k[t + 15].wrapping_add($word(t + 15)), $bs0, $bs1);
    }};
}

#[inline(always)]
fn bsig0_32(x: u32) -> u32 {
    x.rotate_right(2) ^ x.rotate_right(13) ^ x.rotate_right(22)
}
#[inline(always)]
fn bsig1_32(x: u32) -> u32 {
    x.rotate_right(6) ^ x.rotate_right(11) ^ x.rotate_right(25)
}
#[inline(always)]
fn ssig0_32(x: u32) -> u32 {
    x.rotate_right(7) ^ x.rotate_right(18) ^ (x >> 3)
}
#[inline(always)]
fn ssig1_32(x: u32) -> u32 {
    x.rotate_right(17) ^ x.rotate_right(19) ^ (x >> 10)
}

#[inline(always)]
fn bsig0_64(x: u64) -> u64 {
    x.rotate_right(28) ^ x.rotate_right(34) ^ x.rotate_right(39)
}
#[inline(always)]
fn bsig1_64(x: u64) -> u64 {
    x.rotate_right(14) ^ x.rotate_right(18) ^ x.rotate_right(41)
}
#[inline(always)]
fn ssig0_64(x: u64) -> u64 {
    x.rotate_right(1) ^ x.rotate_right(8) ^ (x >> 7)
}
#[inline(always)]
fn ssig1_64(x: u64) -> u64 {
    x.rotate_right(19) ^ x.rotate_right(61) ^ (x >> 6)
}

/// SHA-256 compression of whole 64-byte blocks into `state`.
pub(super) fn compress256(state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    for block in blocks {
        let mut w = [0u32; 64];
        for (wi, c) in w.iter_mut().zip(block.as_chunks::<4>().0) {
            *wi = u32::from_be_bytes(*c);
        }
        for t in 16..64 {
            w[t] = ssig1_32(w[t - 2])
                .wrapping_add(w[t - 7])
                .wrapping_add(ssig0_32(w[t - 15]))
                .wrapping_add(w[t - 16]);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
        let word = |t: usize| w[t];
        rounds16!(a, b, c, d, e, f, g, h; 0, word, K256, bsig0_32, bsig1_32);
        rounds16!(a, b, c, d, e, f, g, h; 16, word, K256, bsig0_32, bsig1_32);
        rounds16!(a, b, c, d, e, f, g, h; 32, word, K256, bsig0_32, bsig1_32);
        rounds16!(a, b, c, d, e, f, g, h; 48, word, K256, bsig0_32, bsig1_32);
        for (s, x) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *s = s.wrapping_add(x);
        }
    }
}

/// SHA-512 compression of whole 128-byte blocks into `state`.
#[inline]
pub(super) fn compress512(state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    for block in blocks {
        let mut w = [0u64; 80];
        for (wi, c) in w.iter_mut().zip(block.as_chunks::<8>().0) {
            *wi = u64::from_be_bytes(*c);
        }
        for t in 16..80 {
            w[t] = ssig1_64(w[t - 2])
                .wrapping_add(w[t - 7])
                .wrapping_add(ssig0_64(w[t - 15]))
                .wrapping_add(w[t - 16]);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
        let word = |t: usize| w[t];
        rounds16!(a, b, c, d, e, f, g, h; 0, word, K512, bsig0_64, bsig1_64);
        rounds16!(a, b, c, d, e, f, g, h; 16, word, K512, bsig0_64, bsig1_64);
        rounds16!(a, b, c, d, e, f, g, h; 32, word, K512, bsig0_64, bsig1_64);
        rounds16!(a, b, c, d, e, f, g, h; 48, word, K512, bsig0_64, bsig1_64);
        rounds16!(a, b, c, d, e, f, g, h; 64, word, K512, bsig0_64, bsig1_64);
        for (s, x) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *s = s.wrapping_add(x);
        }
    }
}
