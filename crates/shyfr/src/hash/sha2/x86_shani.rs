//! SHA-256 with the x86 SHA extensions (Intel SDM Vol. 2B, SHA256RNDS2, SHA256MSG1,
//! SHA256MSG2; Intel, "New Instructions Supporting the Secure Hash Algorithm on Intel
//! Architecture Processors", 2013).
//!
//! `sha256rnds2` does two rounds on the state split as `ABEF` and `CDGH` (each a 128-bit
//! register, `A` in the top lane), taking `W[t] + K[t]` for the two rounds from the low 64
//! bits of its implicit `xmm0` operand. The 64 rounds are 32 dependent `sha256rnds2`: that
//! chain is the speed limit (its latency is 4 cycles on Zen 3, so 2.0 cycles/byte). The
//! message schedule runs beside it: `W[t..t+4]` is
//! `msg2(msg1(W[t-16..], W[t-12..]) + W[t-7..t-3], W[t-4..])`.

use core::arch::x86_64::*;

use super::consts::K256;
use crate::cpu::x86::ShaNi;

/// SHA-256 compression of whole 64-byte blocks into `state`.
#[inline]
pub(super) fn compress(t: ShaNi, state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    // SAFETY: the `ShaNi` token proves SHA, SSSE3 and SSE4.1 (and SSE2 is the x86-64
    // baseline).
    unsafe { compress_shani(state, blocks, t) }
}

/// `W[t..t+4] + K[t..t+4]` for the group of rounds `4 g .. 4 g + 4`.
#[target_feature(enable = "sse2")]
#[inline]
fn add_k(w: __m128i, g: usize) -> __m128i {
    let k = &K256[4 * g..4 * g + 4];
    _mm_add_epi32(
        w,
        _mm_set_epi32(k[3] as i32, k[2] as i32, k[1] as i32, k[0] as i32),
    )
}

#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn compress_shani(state: &mut [u32; 8], blocks: &[[u8; 64]], _t: ShaNi) {
    // Each 32-bit word is big-endian in the message.
    let bswap = _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203);

    // SAFETY: `state` is 32 readable bytes; unaligned loads are allowed.
    let (abcd, efgh) = unsafe {
        (
            _mm_loadu_si128(state.as_ptr().cast()),
            _mm_loadu_si128(state.as_ptr().add(4).cast()),
        )
    };
    // [A B C D] and [E F G H] (lane 0 first) to ABEF = [F E B A] and CDGH = [H G D C].
    let badc = _mm_shuffle_epi32(abcd, 0xb1);
    let hgfe = _mm_shuffle_epi32(efgh, 0x1b);
    let mut abef = _mm_alignr_epi8(badc, hgfe, 8);
    let mut cdgh = _mm_blend_epi16(hgfe, badc, 0xf0);

    for block in blocks {
        let (abef_in, cdgh_in) = (abef, cdgh);
        let p = block.as_ptr();
        // SAFETY: `block` is 64 readable bytes.
        let mut w: [__m128i; 4] = unsafe {
            [
                _mm_shuffle_epi8(_mm_loadu_si128(p.cast()), bswap),
                _mm_shuffle_epi8(_mm_loadu_si128(p.add(16).cast()), bswap),
                _mm_shuffle_epi8(_mm_loadu_si128(p.add(32).cast()), bswap),
                _mm_shuffle_epi8(_mm_loadu_si128(p.add(48).cast()), bswap),
            ]
        };
        // Sixteen groups of four rounds; `w[g % 4]` holds W[4 g .. 4 g + 4]. From group 3
        // on, each group also schedules the words of group g + 1 (into the ring slot of
        // group g - 3, whose words are no longer needed) so they are ready in time.
        macro_rules! group {
            ($g:literal) => {{
                let wk = add_k(w[$g % 4], $g);
                cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
                abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0e));
            }};
            ($g:literal, schedule) => {{
                group!($g);
                // W[4(g+1)..]: msg1 of groups g-3 and g-2, plus W[4g-3..4g+1] made of
                // groups g-1 and g, then msg2 with group g.
                let x = _mm_sha256msg1_epu32(w[($g + 1) % 4], w[($g + 2) % 4]);
                let x = _mm_add_epi32(x, _mm_alignr_epi8(w[$g % 4], w[($g + 3) % 4], 4));
                w[($g + 1) % 4] = _mm_sha256msg2_epu32(x, w[$g % 4]);
            }};
        }
        // Groups with the message schedule, in order.
        macro_rules! groups {
            ($($g:literal)*) => {{
                $(group!($g, schedule);)*
            }};
        }
        group!(0);
        group!(1);
        group!(2);
        groups!(3 4 5 6 7 8 9 10 11 12 13 14);
        group!(15);
        abef = _mm_add_epi32(abef, abef_in);
        cdgh = _mm_add_epi32(cdgh, cdgh_in);
    }

    // Back from ABEF / CDGH to [A B C D] [E F G H].
    let feba = _mm_shuffle_epi32(abef, 0x1b);
    let dchg = _mm_shuffle_epi32(cdgh, 0xb1);
    let abcd = _mm_blend_epi16(feba, dchg, 0xf0);
    let efgh = _mm_alignr_epi8(dchg, feba, 8);
    // SAFETY: `state` is 32 writable bytes.
    unsafe {
        _mm_storeu_si128(state.as_mut_ptr().cast(), abcd);
        _mm_storeu_si128(state.as_mut_ptr().add(4).cast(), efgh);
    }
}
