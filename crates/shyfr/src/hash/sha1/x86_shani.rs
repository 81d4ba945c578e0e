//! SHA-1 with the x86 SHA extensions (Intel SDM Vol. 2B, SHA1RNDS4, SHA1NEXTE, SHA1MSG1,
//! SHA1MSG2).
//!
//! `ABCD` lives in one register with `A` in the top lane; `sha1rnds4` does four rounds with
//! the round function chosen by its immediate, taking `E + W[t]` in the top lane of its
//! second operand and `W[t+1..t+4]` below. The `E` of the next four rounds is `A` of four
//! rounds before, rotated by 30, which `sha1nexte` adds to the next message words. The 80
//! rounds are 20 dependent `sha1rnds4`: that chain sets the speed (on Zen 3 `sha1rnds4`
//! has a latency of 6 cycles, so a block takes 20 x 6 + 1 cycles for the chain and the
//! feed-forward addition: 1.89 cycles/byte, which this kernel measures). The schedule of words
//! `W[t..t+4]` is `msg2(msg1(W[t-16..], W[t-12..]) ^ W[t-8..], W[t-4..])`.

use core::arch::x86_64::*;

use crate::cpu::x86::ShaNi;

/// SHA-1 compression of whole 64-byte blocks into `state`.
#[inline]
pub(super) fn compress(t: ShaNi, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // SAFETY: the `ShaNi` token proves SHA, SSSE3 and SSE4.1 (and SSE2 is the x86-64
    // baseline).
    unsafe { compress_shani(state, blocks, t) }
}

#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn compress_shani(state: &mut [u32; 5], blocks: &[[u8; 64]], _t: ShaNi) {
    // Reverses all 16 bytes: big-endian words, and W[t] in the top lane.
    let rev = _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f);
    // SAFETY: `state` has at least 16 readable bytes (its first four words).
    let abcd = unsafe { _mm_loadu_si128(state.as_ptr().cast()) };
    let mut abcd = _mm_shuffle_epi32(abcd, 0x1b);
    let mut e = _mm_set_epi32(state[4] as i32, 0, 0, 0);

    for block in blocks {
        let (abcd_in, e_in) = (abcd, e);
        let p = block.as_ptr();
        // SAFETY: `block` is 64 readable bytes.
        let mut w: [__m128i; 4] = unsafe {
            [
                _mm_shuffle_epi8(_mm_loadu_si128(p.cast()), rev),
                _mm_shuffle_epi8(_mm_loadu_si128(p.add(16).cast()), rev),
                _mm_shuffle_epi8(_mm_loadu_si128(p.add(32).cast()), rev),
                _mm_shuffle_epi8(_mm_loadu_si128(p.add(48).cast()), rev),
            ]
        };
        // `prev` is ABCD before the previous group of four rounds: its A gives this
        // group's E.
        let mut prev = abcd;
        abcd = _mm_sha1rnds4_epu32(abcd, _mm_add_epi32(e, w[0]), 0);
        // Groups 1..20 of four rounds; `w[g % 4]` holds W[4 g .. 4 g + 4]. Groups 3..19
        // also schedule the words of group g + 1 into the slot of group g - 3.
        macro_rules! group {
            ($g:literal) => {{
                let ew = _mm_sha1nexte_epu32(prev, w[$g % 4]);
                prev = abcd;
                abcd = _mm_sha1rnds4_epu32(abcd, ew, $g / 5);
            }};
            ($g:literal, schedule) => {{
                group!($g);
                let x = _mm_sha1msg1_epu32(w[($g + 1) % 4], w[($g + 2) % 4]);
                let x = _mm_xor_si128(x, w[($g + 3) % 4]);
                w[($g + 1) % 4] = _mm_sha1msg2_epu32(x, w[$g % 4]);
            }};
        }
        // Groups with the message schedule, in order.
        macro_rules! groups {
            ($($g:literal)*) => {{
                $(group!($g, schedule);)*
            }};
        }
        group!(1);
        group!(2);
        groups!(3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18);
        group!(19);
        e = _mm_sha1nexte_epu32(prev, e_in);
        abcd = _mm_add_epi32(abcd, abcd_in);
    }

    let abcd = _mm_shuffle_epi32(abcd, 0x1b);
    // SAFETY: `state` has at least 16 writable bytes.
    unsafe { _mm_storeu_si128(state.as_mut_ptr().cast(), abcd) };
    state[4] = _mm_extract_epi32(e, 3) as u32;
}
