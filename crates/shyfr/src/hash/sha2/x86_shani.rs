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

/// Pads `tail` (the last `tail.len() < 64` bytes of a message of `bits` bits) and
/// compresses the one or two last blocks. The blocks are formed in registers from the
/// caller's bytes: no buffer is written and read back (a 16-byte load of bytes that
/// several recent stores wrote waits for them to reach the cache, which costs a short
/// message about a third of its time).
#[inline]
pub(super) fn finish(t: ShaNi, state: &mut [u32; 8], tail: &[u8], bits: u64) {
    // SAFETY: as for `compress`.
    unsafe { finish_shani(state, tail, bits, t) }
}

/// The 32-bit words are big-endian in the message.
#[target_feature(enable = "sse2")]
#[inline]
fn bswap_idx() -> __m128i {
    _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203)
}

/// `[A B C D] [E F G H]` (lane 0 first) to `ABEF = [F E B A]` and `CDGH = [H G D C]`.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
#[inline]
fn load_state(state: &[u32; 8]) -> (__m128i, __m128i) {
    // SAFETY: `state` is 32 readable bytes; unaligned loads are allowed.
    let (abcd, efgh) = unsafe {
        (
            _mm_loadu_si128(state.as_ptr().cast()),
            _mm_loadu_si128(state.as_ptr().add(4).cast()),
        )
    };
    let badc = _mm_shuffle_epi32(abcd, 0xb1);
    let hgfe = _mm_shuffle_epi32(efgh, 0x1b);
    (
        _mm_alignr_epi8(badc, hgfe, 8),
        _mm_blend_epi16(hgfe, badc, 0xf0),
    )
}

/// Back from `ABEF` / `CDGH` to `[A B C D] [E F G H]` in `state`.
#[target_feature(enable = "sse2,ssse3,sse4.1")]
#[inline]
fn store_state(state: &mut [u32; 8], abef: __m128i, cdgh: __m128i) {
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

#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn compress_shani(state: &mut [u32; 8], blocks: &[[u8; 64]], _t: ShaNi) {
    let bswap = bswap_idx();
    let (mut abef, mut cdgh) = load_state(state);
    for block in blocks {
        let p = block.as_ptr();
        // SAFETY: `block` is 64 readable bytes.
        let w: [__m128i; 4] = core::array::from_fn(|i| unsafe {
            _mm_shuffle_epi8(_mm_loadu_si128(p.add(16 * i).cast()), bswap)
        });
        (abef, cdgh) = rounds(abef, cdgh, w);
    }
    store_state(state, abef, cdgh);
}

/// `0, 1, .., 15` then sixteen `0x80`: the 16 bytes from `16 - r` are the `pshufb`
/// indices moving the last `r` bytes of a register to its first `r` lanes and zeroing the
/// rest.
static SLIDE: [u8; 32] = {
    let mut t = [0x80u8; 32];
    let mut i = 0;
    while i < 16 {
        t[i] = i as u8;
        i += 1;
    }
    t
};

/// `0x80` at index 16, zeros elsewhere: the 16 bytes from `16 - r` have the padding byte
/// in lane `r`.
static MARK: [u8; 32] = {
    let mut t = [0u8; 32];
    t[16] = 0x80;
    t
};

#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn finish_shani(state: &mut [u32; 8], tail: &[u8], bits: u64, _t: ShaNi) {
    let n = tail.len();
    debug_assert!(n < 64);
    let (full, r) = (n / 16, n % 16);
    // SAFETY: `16 - r` is at most 16, so 16 bytes from it lie inside the 32-byte tables.
    let (slide, mark) = unsafe {
        (
            _mm_loadu_si128(SLIDE.as_ptr().add(16 - r).cast()),
            _mm_loadu_si128(MARK.as_ptr().add(16 - r).cast()),
        )
    };
    // The chunk holding the end of the message and the `0x80` byte.
    let part = if r == 0 {
        _mm_setzero_si128()
    } else if n >= 16 {
        // SAFETY: the 16 bytes ending at `n` are inside `tail`.
        let v = unsafe { _mm_loadu_si128(tail.as_ptr().add(n - 16).cast()) };
        _mm_shuffle_epi8(v, slide)
    } else {
        // Fewer than 16 bytes in all: two words, each read whole or in overlapping
        // pieces (no read past `tail`).
        let (lo, hi) = short_words(tail);
        _mm_set_epi64x(hi as i64, lo as i64)
    };
    let end = _mm_or_si128(part, mark);
    let bswap = bswap_idx();
    // Chunk `i` of the first last block, byte-swapped: message bytes, the end, or zeros
    // (each value in a register; no array in memory).
    let chunk = |i: usize| {
        let c = if i < full {
            // SAFETY: bytes 16 i .. 16 i + 16 of `tail` exist (i < n / 16).
            unsafe { _mm_loadu_si128(tail.as_ptr().add(16 * i).cast()) }
        } else if i == full {
            end
        } else {
            _mm_setzero_si128()
        };
        _mm_shuffle_epi8(c, bswap)
    };
    let with_len = |c: __m128i| {
        let c = _mm_insert_epi32::<2>(c, (bits >> 32) as i32);
        _mm_insert_epi32::<3>(c, bits as i32)
    };
    let (abef, cdgh) = load_state(state);
    let (abef, cdgh) = if n < 56 {
        rounds(
            abef,
            cdgh,
            [chunk(0), chunk(1), chunk(2), with_len(chunk(3))],
        )
    } else {
        let (abef, cdgh) = rounds(abef, cdgh, [chunk(0), chunk(1), chunk(2), chunk(3)]);
        let z = _mm_setzero_si128();
        rounds(abef, cdgh, [z, z, z, with_len(z)])
    };
    store_state(state, abef, cdgh);
}

/// The bytes of `tail` (fewer than 16) as two little-endian words, zeros after them.
#[inline(always)]
fn short_words(tail: &[u8]) -> (u64, u64) {
    let n = tail.len();
    let word = |b: &[u8]| -> u64 {
        // Up to 8 bytes: the first and last four (or fewer) overlapping.
        let k = b.len();
        match k {
            0 => 0,
            1..=3 => {
                (b[0] as u64)
                    | (b[k / 2] as u64) << (8 * (k / 2))
                    | (b[k - 1] as u64) << (8 * (k - 1))
            }
            _ => {
                let lo = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64;
                let hi = u32::from_le_bytes([b[k - 4], b[k - 3], b[k - 2], b[k - 1]]) as u64;
                lo | hi << (8 * (k - 4))
            }
        }
    };
    if n <= 8 {
        (word(tail), 0)
    } else {
        (word(&tail[..8]), word(&tail[8..]))
    }
}

/// The 64 rounds of one block on `ABEF` / `CDGH` with the message words `w` (byte-swapped),
/// the feed-forward included.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
#[inline]
fn rounds(mut abef: __m128i, mut cdgh: __m128i, mut w: [__m128i; 4]) -> (__m128i, __m128i) {
    let (abef_in, cdgh_in) = (abef, cdgh);
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
    (_mm_add_epi32(abef, abef_in), _mm_add_epi32(cdgh, cdgh_in))
}
