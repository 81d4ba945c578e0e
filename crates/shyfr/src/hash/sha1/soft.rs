//! Portable SHA-1 compression function (FIPS 180-4, 6.1.2).
//!
//! Straight-line code: the 80 rounds are unrolled by a macro that renames the five working
//! variables instead of moving them; the message schedule is a 16-word ring extended in the
//! round that first needs each word. Only additions, rotations and bitwise logic: constant
//! time.
#![forbid(unsafe_code)]

use super::K;

/// One SHA-1 round on renamed variables: `$e` becomes the new `a` and `$b` the new `c`.
macro_rules! round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $w:expr, $k:expr) => {
        $e = $e
            .wrapping_add($a.rotate_left(5))
            .wrapping_add($f($b, $c, $d))
            .wrapping_add($k)
            .wrapping_add($w);
        $b = $b.rotate_left(30);
    };
}

/// Twenty rounds (one of the four stages) from round `$t` on `$a`..`$e`, with the round
/// function `$f`, the constant `$k` and the message word for round `t` from `$word(t)`.
macro_rules! rounds20 {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident; $t:expr, $f:ident, $word:ident, $k:expr) => {{
        let t: usize = $t;
        round!($a, $b, $c, $d, $e, $f, $word(t + 0), $k);
        round!($e, $a, $b, $c, $d, $f, $word(t + 1), $k);
        round!($d, $e, $a, $b, $c, $f, $word(t + 2), $k);
        round!($c, $d, $e, $a, $b, $f, $word(t + 3), $k);
        round!($b, $c, $d, $e, $a, $f, $word(t + 4), $k);
        round!($a, $b, $c, $d, $e, $f, $word(t + 5), $k);
        round!($e, $a, $b, $c, $d, $f, $word(t + 6), $k);
        round!($d, $e, $a, $b, $c, $f, $word(t + 7), $k);
        round!($c, $d, $e, $a, $b, $f, $word(t + 8), $k);
        round!($b, $c, $d, $e, $a, $f, $word(t + 9), $k);
        round!($a, $b, $c, $d, $e, $f, $word(t + 10), $k);
        round!($e, $a, $b, $c, $d, $f, $word(t + 11), $k);
        round!($d, $e, $a, $b, $c, $f, $word(t + 12), $k);
        round!($c, $d, $e, $a, $b, $f, $word(t + 13), $k);
        round!($b, $c, $d, $e, $a, $f, $word(t + 14), $k);
        round!($a, $b, $c, $d, $e, $f, $word(t + 15), $k);
        round!($e, $a, $b, $c, $d, $f, $word(t + 16), $k);
        round!($d, $e, $a, $b, $c, $f, $word(t + 17), $k);
        round!($c, $d, $e, $a, $b, $f, $word(t + 18), $k);
        round!($b, $c, $d, $e, $a, $f, $word(t + 19), $k);
    }};
}

#[inline(always)]
fn ch(b: u32, c: u32, d: u32) -> u32 {
    d ^ (b & (c ^ d))
}
#[inline(always)]
fn parity(b: u32, c: u32, d: u32) -> u32 {
    b ^ c ^ d
}
#[inline(always)]
fn maj(b: u32, c: u32, d: u32) -> u32 {
    (b & c) | (d & (b | c))
}

/// SHA-1 compression of whole 64-byte blocks into `state`.
pub(super) fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    for block in blocks {
        let mut w = [0u32; 16];
        for (wi, c) in w.iter_mut().zip(block.as_chunks::<4>().0) {
            *wi = u32::from_be_bytes(*c);
        }
        let [mut a, mut b, mut c, mut d, mut e] = *state;
        let mut word = |t: usize| {
            if t >= 16 {
                w[t & 15] = (w[(t + 13) & 15] ^ w[(t + 8) & 15] ^ w[(t + 2) & 15] ^ w[t & 15])
                    .rotate_left(1);
            }
            w[t & 15]
        };
        rounds20!(a, b, c, d, e; 0, ch, word, K[0]);
        rounds20!(a, b, c, d, e; 20, parity, word, K[1]);
        rounds20!(a, b, c, d, e; 40, maj, word, K[2]);
        rounds20!(a, b, c, d, e; 60, parity, word, K[3]);
        for (s, x) in state.iter_mut().zip([a, b, c, d, e]) {
            *s = s.wrapping_add(x);
        }
    }
}
