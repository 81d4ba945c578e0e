//! Kalyna with AVX2 (and GFNI for the MDS step where the CPU has it), byte-sliced: 32
//! blocks at a time, one ymm register per byte position of the state.
//!
//! * SubBytes: a 256-entry S-box as sixteen 16-entry `vpshufb` tables (one per high
//!   nibble, indexed by the low nibble): in the batches each group of four tables (same
//!   bits 6, 7), telescoped, combined by XOR, each read with an index that `vpshufb`
//!   zeroes unless bits 4, 5 are at most its place in the group, then two levels of
//!   `vpblendvb` (`sbox_grouped`: `vpshufb` and `vpblendvb` share two ports on Zen 4,
//!   the XORs have four); in the one-block kernels the same telescoped groups, the two
//!   lane-split passes (`sbox_split`: each byte read by one pass, zero in the other)
//!   XORed before three `vpblendvb` in all. Constant time: no secret index into memory.
//! * ShiftRows: register renaming, as in the AVX-512 backend.
//! * MixColumns: `out_r = A + 2 (B + 2 (C + 2 D))` with the sums of `x86_avx512.rs`; the
//!   doubling modulo x^8+x^4+x^3+x^2+1 is `gf2p8affineqb` with GFNI, otherwise
//!   `vpaddb` + a conditional XOR of 0x1d (the top bit spread by `vpcmpgtb`).
//! * InvMixColumns: each product `MDS_INV[k] * x` by GFNI, or without it by two
//!   `vpshufb` nibble tables (`c * x = T_lo[x & 15] ^ T_hi[x >> 4]`, GF(2)-linear).
//! * Transposition: the columns are gathered per block into `cols[c][j]`, then per column
//!   a `vpshufb` interleaves the bytes of the two 64-bit words of each lane and an 8x8
//!   transpose of 16-bit elements (`vpunpck*`) gives the row registers. The order of the
//!   blocks inside a row register is permuted, the same way for every row, and undone on
//!   the way out.
//!
//! Fewer than 32 blocks run as a whole batch (the lanes past the data are zero), except that
//! encryption of a few blocks (the E(IV) of a CTR, XTS or GCM call, a short message) runs
//! one block at a time through the one-register kernels of the chained modes below.

// Register arrays are indexed by (column, row) in both orders; index loops read best.
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use super::soft::shift;
use super::Chained as Chain;
use super::{RoundKeys, MAX_ROUNDS};
use crate::arith::gf256::x86_avx2::{
    inv_mix, inv_mix_gfni, load32, mds_row, mds_row_gfni, mix, sbox_bulk, sbox_split,
    split_offsets, telescope, xtime, xtime_gfni,
};
use crate::inout::InOut;

/// Blocks per batch.
const BATCH: usize = 32;

/// The XOR round keys as bytes repeated four times, as in `x86_avx512.rs`.
#[derive(Clone)]
pub(super) struct Keys {
    k: [[u32; 64]; MAX_ROUNDS + 1],
}

impl Drop for Keys {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(self.k.as_flattened_mut());
    }
}

impl Keys {
    pub(super) fn new(rk: &RoundKeys) -> Keys {
        let mut k = [[0u32; 64]; MAX_ROUNDS + 1];
        for t in 0..=rk.nr {
            for (i, v) in k[t].iter_mut().enumerate().take(8 * rk.nb) {
                let byte = (rk.rk[t][i / 8] >> (8 * (i % 8))) as u8;
                *v = u32::from(byte) * 0x0101_0101;
            }
        }
        Keys { k }
    }
}

/// Per 128-bit lane: byte `2 r + i` takes byte `8 i + r` (rows of the lane's two words
/// interleaved). Its inverse is `UNPAIR`.
static PAIR: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut p = 0;
    while p < 32 {
        let q = p % 16;
        t[p] = (8 * (q % 2) + q / 2) as u8;
        p += 1;
    }
    t
};

static UNPAIR: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut p = 0;
    while p < 32 {
        let q = p % 16;
        t[p] = (2 * (q % 8) + q / 8) as u8;
        p += 1;
    }
    t
};

/// 8x8 transpose of 16-bit elements inside each 128-bit lane of eight registers (its own
/// inverse).
#[inline]
#[target_feature(enable = "avx2")]
fn transpose_w(a: &mut [__m256i; 8]) {
    let t: [__m256i; 8] = core::array::from_fn(|i| {
        let (x, y) = (a[2 * (i / 2)], a[2 * (i / 2) + 1]);
        if i % 2 == 0 {
            _mm256_unpacklo_epi16(x, y)
        } else {
            _mm256_unpackhi_epi16(x, y)
        }
    });
    // u0 = lo32(t0, t2), u1 = hi32(t0, t2), u2 = lo32(t1, t3), u3 = hi32(t1, t3), same for 4..8.
    let u: [__m256i; 8] = core::array::from_fn(|i| {
        let base = 4 * (i / 4);
        let (x, y) = match i % 4 {
            0 | 1 => (t[base], t[base + 2]),
            _ => (t[base + 1], t[base + 3]),
        };
        if i % 2 == 0 {
            _mm256_unpacklo_epi32(x, y)
        } else {
            _mm256_unpackhi_epi32(x, y)
        }
    });
    for i in 0..8 {
        let (x, y) = (u[i / 2], u[4 + i / 2]);
        a[i] = if i % 2 == 0 {
            _mm256_unpacklo_epi64(x, y)
        } else {
            _mm256_unpackhi_epi64(x, y)
        };
    }
}

/// The round key byte `i` of round `t` in every byte lane.
#[inline]
#[target_feature(enable = "avx2")]
fn key(keys: &Keys, t: usize, i: usize) -> __m256i {
    _mm256_set1_epi32(keys.k[t][i] as i32)
}

/// The cipher on one batch of columns (`cols[c][j]`: column `c` of block `j`), in place.
#[inline(always)]
fn batch_body<const NB: usize, const DEC: bool>(
    rk: &RoundKeys,
    keys: &Keys,
    cols: &mut [[u64; BATCH]; 8],
    dbl: impl Fn(__m256i) -> __m256i + Copy,
    imix: impl Fn(&[__m256i; 8]) -> [__m256i; 8],
) {
    let nr = rk.nr;
    let (first, last) = if DEC { (nr, 0) } else { (0, nr) };
    // SAFETY: (every intrinsic and load below) the callers enable AVX2; the loads and
    // stores are 32 bytes inside `cols[c]` (32 words) or the 32-byte static tables.
    unsafe {
        let (pair, unpair) = (load32(&PAIR), load32(&UNPAIR));
        let mut st: [[__m256i; 8]; NB] = core::array::from_fn(|c| {
            let kc = _mm256_set1_epi64x(rk.rk[first][c] as i64);
            let mut v: [__m256i; 8] = core::array::from_fn(|g| {
                let w = _mm256_loadu_si256(cols[c][4 * g..].as_ptr().cast());
                let w = if DEC {
                    _mm256_sub_epi64(w, kc)
                } else {
                    _mm256_add_epi64(w, kc)
                };
                _mm256_shuffle_epi8(w, pair)
            });
            transpose_w(&mut v);
            v
        });
        if DEC {
            for round in (0..nr).rev() {
                let mut z: [[__m256i; 8]; NB] = core::array::from_fn(|c| imix(&st[c]));
                core::hint::black_box(&mut z);
                for c in 0..NB {
                    for r in 0..8 {
                        let y = sbox_bulk(z[(c + shift(r, NB)) % NB][r], 4 + r % 4);
                        st[c][r] = if round > 0 {
                            _mm256_xor_si256(y, key(keys, round, 8 * c + r))
                        } else {
                            y
                        };
                    }
                }
            }
        } else {
            // Two state arrays, read and written by turns (rounds are public): a new
            // array a round would be copied back whole, 2 KiB a round for 512-bit blocks.
            let mut bufs = [st, st];
            for round in 1..=nr {
                let (lo, hi) = bufs.split_at_mut(1);
                let (src, dst) = if round % 2 == 1 {
                    (&lo[0], &mut hi[0])
                } else {
                    (&hi[0], &mut lo[0])
                };
                for c in 0..NB {
                    let y: [__m256i; 8] = core::array::from_fn(|r| {
                        sbox_bulk(src[(c + NB - shift(r, NB)) % NB][r], r % 4)
                    });
                    let k: [__m256i; 8] = core::array::from_fn(|r| {
                        if round < nr {
                            key(keys, round, 8 * c + r)
                        } else {
                            _mm256_setzero_si256()
                        }
                    });
                    dst[c] = mix(&y, &k, dbl);
                }
            }
            st = bufs[nr % 2];
        }
        for c in 0..NB {
            let mut v = st[c];
            transpose_w(&mut v);
            let kc = _mm256_set1_epi64x(rk.rk[last][c] as i64);
            for g in 0..8 {
                let w = _mm256_shuffle_epi8(v[g], unpair);
                let w = if DEC {
                    _mm256_sub_epi64(w, kc)
                } else {
                    _mm256_add_epi64(w, kc)
                };
                _mm256_storeu_si256(cols[c][4 * g..].as_mut_ptr().cast(), w);
            }
        }
    }
}

#[target_feature(enable = "avx2")]
fn batch<const NB: usize, const DEC: bool>(
    rk: &RoundKeys,
    keys: &Keys,
    cols: &mut [[u64; BATCH]; 8],
) {
    batch_body::<NB, DEC>(rk, keys, cols, |x| xtime(x), |x| inv_mix(x))
}

#[target_feature(enable = "avx2,gfni")]
fn batch_gfni<const NB: usize, const DEC: bool>(
    rk: &RoundKeys,
    keys: &Keys,
    cols: &mut [[u64; BATCH]; 8],
) {
    batch_body::<NB, DEC>(rk, keys, cols, |x| xtime_gfni(x), |x| inv_mix_gfni(x))
}

/// Which CPU features the call may use: AVX2, and GFNI when `gfni` is given.
#[derive(Clone, Copy, Debug)]
pub(super) struct Tokens {
    pub(super) avx2: crate::cpu::x86::Avx2,
    pub(super) gfni: Option<crate::cpu::x86::Avx2Gfni>,
}

/// One batch (`cols[c][j]`: column `c` of block `j`) through the cipher, in place.
fn run_batch<const DEC: bool>(
    rk: &RoundKeys,
    keys: &Keys,
    t: Tokens,
    cols: &mut [[u64; BATCH]; 8],
) {
    let _ = t.avx2;
    // SAFETY: `t.avx2` proves AVX2; `t.gfni`, when present, AVX2 and GFNI.
    unsafe {
        match (rk.nb, t.gfni.is_some()) {
            (2, true) => batch_gfni::<2, DEC>(rk, keys, cols),
            (4, true) => batch_gfni::<4, DEC>(rk, keys, cols),
            (_, true) => batch_gfni::<8, DEC>(rk, keys, cols),
            (2, false) => batch::<2, DEC>(rk, keys, cols),
            (4, false) => batch::<4, DEC>(rk, keys, cols),
            (_, false) => batch::<8, DEC>(rk, keys, cols),
        }
    }
}

/// Blocks up to which encryption runs one block at a time in registers (the chained
/// kernels below) rather than as a padded batch of 32, whose cost does not depend on how
/// many lanes hold data: the crossover measured on Zen 4 with GFNI (a batch about 2,000 /
/// 5,300 / 13,300 cycles for 128- / 256- / 512-bit blocks, one more block in the chained
/// kernels about 365 / 470 / 1,010). Without GFNI (batch 2,260 / 5,960 / 14,900, one
/// block 390 / 510 / 1,060) the crossover is the same for 128-bit blocks and one block
/// later for 256 and 512, where one block at a time would save at most 4 % at that one
/// length.
const fn few_max(nb: usize) -> usize {
    match nb {
        2 => 5,
        4 => 10,
        _ => 13,
    }
}

/// Blocks up to which the gamma runs one counter block at a time (as [`few_max`]): the
/// counters written to and the keystream read back from a buffer cost some 20-40 cycles a
/// block more than encryption in place, while the batch writes its counters straight into
/// its columns, so the measured crossover is one block lower than [`few_max`] for 128- and
/// 512-bit blocks (without GFNI: the same for 128 and 256, one later for 512, where one
/// block at a time would save 3 % at that one length).
const fn few_max_gamma(nb: usize) -> usize {
    match nb {
        2 => 4,
        4 => 10,
        _ => 12,
    }
}

/// Bytes of the most blocks [`few_max_gamma`] allows for any block length (512-bit blocks
/// take the most, asserted below).
const FEW_BYTES: usize = few_max_gamma(8) * 64;
const _: () = assert!(few_max_gamma(2) * 16 <= FEW_BYTES && few_max_gamma(4) * 32 <= FEW_BYTES);

/// Encrypts `n` independent blocks one at a time with the chained kernel (CBC encryption
/// of each block from a zero chaining value is the cipher on it).
///
/// # Safety
/// `src` is readable and `dst` writable for `n` blocks.
unsafe fn encrypt_few(rk: &RoundKeys, t: Tokens, src: *const u8, dst: *mut u8, n: usize) {
    let bl = 8 * rk.nb;
    let mut z = [0u8; 64];
    for j in 0..n {
        z[..bl].fill(0);
        // SAFETY: block j lies inside the caller's regions; `z[..bl]` is one block.
        unsafe {
            chained(
                rk,
                t,
                Chain::CbcEncrypt,
                &mut z[..bl],
                src.add(j * bl),
                dst.add(j * bl),
                1,
            )
        };
    }
    crate::wipe::wipe(&mut z);
}

/// Encrypts (`DEC` false) or decrypts every whole block of `io`.
fn crypt<const DEC: bool>(rk: &RoundKeys, keys: &Keys, t: Tokens, mut io: InOut<'_>) {
    let nb = rk.nb;
    let bl = 8 * nb;
    let blocks = io.len() / bl;
    let mut cols = [[0u64; BATCH]; 8];
    let mut j0 = 0;
    while j0 < blocks {
        let n = BATCH.min(blocks - j0);
        if !DEC && n <= few_max(nb) {
            let (src, dst) = (io.src_ptr(), io.dst_ptr());
            // SAFETY: blocks j0..j0 + n lie inside `io`, readable at `src` and writable at
            // `dst` (which may be equal: each block is read before it is written).
            unsafe { encrypt_few(rk, t, src.add(j0 * bl), dst.add(j0 * bl), n) };
            break;
        }
        for j in 0..BATCH {
            for (c, col) in cols.iter_mut().enumerate().take(nb) {
                col[j] = if j < n {
                    u64::from_le_bytes(io.read::<8>((j0 + j) * bl + 8 * c))
                } else {
                    0
                };
            }
        }
        run_batch::<DEC>(rk, keys, t, &mut cols);
        for j in 0..n {
            for (c, col) in cols.iter().enumerate().take(nb) {
                io.write::<8>((j0 + j) * bl + 8 * c, &col[j].to_le_bytes());
            }
        }
        j0 += n;
    }
    zeroize::Zeroize::zeroize(cols.as_flattened_mut());
}

/// The DSTU 7624 gamma on every whole block of `io`: block `j` is XORed with
/// `E(ctr + j + 1)` (`ctr` little-endian words, not updated). The counters are written
/// straight into the batch's columns and the keystream XORed in as the batch is stored, so
/// no keystream buffer is written or read.
pub(super) fn gamma(rk: &RoundKeys, keys: &Keys, t: Tokens, ctr: &[u64; 8], mut io: InOut<'_>) {
    let nb = rk.nb;
    let bl = 8 * nb;
    let blocks = io.len() / bl;
    let mut next = *ctr;
    let mut cols = [[0u64; BATCH]; 8];
    let mut j0 = 0;
    while j0 < blocks {
        let n = BATCH.min(blocks - j0);
        if n <= few_max_gamma(nb) {
            // A few counter blocks, each through the one-block kernel.
            let mut ks = [0u8; FEW_BYTES];
            let ks = &mut ks[..n * bl];
            for blk in ks.chunks_exact_mut(bl) {
                super::le_add_words(&mut next[..nb], 1);
                for (c, w) in blk.chunks_exact_mut(8).zip(&next[..nb]) {
                    c.copy_from_slice(&w.to_le_bytes());
                }
            }
            let p = ks.as_mut_ptr();
            // SAFETY: `ks` holds n blocks, read and written in place.
            unsafe { encrypt_few(rk, t, p, p, n) };
            for (j, k) in ks.chunks_exact(8).enumerate() {
                let off = j0 * bl + 8 * j;
                let x = u64::from_le_bytes(io.read::<8>(off))
                    ^ u64::from_le_bytes(k.try_into().expect("8 bytes"));
                io.write::<8>(off, &x.to_le_bytes());
            }
            crate::wipe::wipe(ks);
            break;
        }
        for j in 0..n {
            super::le_add_words(&mut next[..nb], 1);
            for (col, &w) in cols.iter_mut().zip(&next[..nb]) {
                col[j] = w;
            }
        }
        run_batch::<false>(rk, keys, t, &mut cols);
        for j in 0..n {
            for (c, col) in cols.iter().enumerate().take(nb) {
                let off = (j0 + j) * bl + 8 * c;
                let x = u64::from_le_bytes(io.read::<8>(off)) ^ col[j];
                io.write::<8>(off, &x.to_le_bytes());
            }
        }
        j0 += n;
    }
    zeroize::Zeroize::zeroize(cols.as_flattened_mut());
    zeroize::Zeroize::zeroize(&mut next);
}

/// Encrypts every whole block of `io`.
pub(super) fn encrypt(rk: &RoundKeys, keys: &Keys, t: Tokens, io: InOut<'_>) {
    crypt::<false>(rk, keys, t, io)
}

/// Decrypts every whole block of `io`.
pub(super) fn decrypt(rk: &RoundKeys, keys: &Keys, t: Tokens, io: InOut<'_>) {
    crypt::<true>(rk, keys, t, io)
}

// ---- One 128-bit block at a time (the serial modes: CBC/CFB encryption, OFB, CBC-MAC).
// The byte-sliced batch above costs a whole batch of 32 blocks per call, which a chained
// mode pays for every block; here the block stays in one register, in memory order (byte
// `8 c + r` is row `r` of column `c`).
//
// * SubBytes: the block in both 128-bit lanes of a ymm; `sbox_split` looks up pi_0 /
//   pi_2 in the low lane and pi_1 / pi_3 in the high lane (two passes of telescoped
//   nibble tables, sixteen `vpshufb` each, every byte read in one lane and pass only and
//   zero elsewhere, the reads XORed, then three `vpblendvb`); the two lanes XORed (one
//   `vpermq`) are the block, in both lanes again.
// * ShiftRows and the rotations of MixColumns: one `vpshufb` per rotation `k`, with
//   ShiftRows folded into its index.
// * MixColumns: with GFNI the five products `MDS[k] q_k` side by side (`mds_row_gfni`: one
//   product on the chain, not three doublings); without it `A + 2 (B + 2 (C + 2 D))`
//   (`mds_row`, the grouping of `mix`), doubling by add + masked XOR of 0x1d.

/// `PAIRS[p][h]`: bytes `16 h .. 16 h + 16` of S-box `2 p` in the low lane and of S-box
/// `2 p + 1` in the high lane.
#[repr(C, align(32))]
struct PairTables([[[u8; 32]; 16]; 2]);

static PAIRS: PairTables = {
    let mut t = [[[0u8; 32]; 16]; 2];
    let mut p = 0;
    while p < 2 {
        let mut h = 0;
        while h < 16 {
            let mut l = 0;
            while l < 32 {
                t[p][h][l] = crate::arith::gf256::tables::SBOX[2 * p + l / 16][16 * h + l % 16];
                l += 1;
            }
            h += 1;
        }
        p += 1;
    }
    PairTables(t)
};

/// `vpshufb` indices of ShiftRows followed by the column rotation `k` (row `r` takes row
/// `r + k mod 8`) for one 128-bit block.
static SR_ROT2: [[u8; 16]; 8] = {
    let mut t = [[0u8; 16]; 8];
    let mut k = 0;
    while k < 8 {
        let mut p = 0;
        while p < 16 {
            let (c, r) = (p / 8, (p + k) % 8);
            // ShiftRows for two columns: rows 4..8 come from the other column.
            t[k][p] = (8 * ((c + r / 4) % 2) + r) as u8;
            p += 1;
        }
        k += 1;
    }
    t
};

/// [`PAIRS`] telescoped for [`sbox_split`].
static PAIRS_T: PairTables = PairTables([telescope(PAIRS.0[0]), telescope(PAIRS.0[1])]);

/// The S-box (0..4) of the byte at register position `i` of a one-block kernel's register,
/// for 128-bit blocks (both lanes the block in memory order, byte `8 c + r`: row `r`) or
/// for the order of [`order256`].
const fn row_sbox(i: usize, wide: bool) -> usize {
    if wide {
        order256(i) % 4
    } else {
        i % 4
    }
}

/// Which pass of [`sbox_split`] (tables `PAIRS_T[p]`: S-box `2 p` in lane 0, `2 p + 1`
/// in lane 1) looks up register byte `i`: pass `p` where the byte's S-box is its lane's.
/// For 128-bit blocks, held in both lanes, each byte is looked up in one lane only (and
/// zero in the other), so the result's two lanes XORed are the block.
const fn split_own(wide: bool) -> [[bool; 32]; 2] {
    let mut own = [[false; 32]; 2];
    let mut p = 0;
    while p < 2 {
        let mut i = 0;
        while i < 32 {
            own[p][i] = row_sbox(i, wide) == 2 * p + i / 16;
            i += 1;
        }
        p += 1;
    }
    own
}

/// The [`sbox_split`] offsets of the 128-bit kernel.
#[repr(C, align(32))]
struct Offsets([[[u8; 32]; 4]; 2]);

static SPLIT128: Offsets = Offsets(split_offsets(split_own(false)));

/// The [`sbox_split`] offsets of the 256- and 512-bit kernels (register order of
/// [`order256`]).
static SPLIT256: Offsets = Offsets(split_offsets(split_own(true)));

/// One chained kernel per doubling (plain AVX2, or GFNI): the same body, stamped twice so
/// that each has its own target features.
macro_rules! chain128_kernel {
    ($name:ident, $features:literal, $row:expr) => {
        /// A chained mode over `n` 128-bit blocks with the chaining value `iv` (updated).
        ///
        /// # Safety
        /// `iv` is 16 bytes; `src` is readable for `16 n` bytes; `dst` writable for as many
        /// unless `mode` is [`Chain::Mac`].
        #[target_feature(enable = $features)]
        unsafe fn $name(
            rk: &RoundKeys,
            mode: Chain,
            iv: &mut [u8],
            src: *const u8,
            dst: *mut u8,
            n: usize,
        ) {
            let nr = rk.nr;
            let row = $row;
            // The round keys in both lanes.
            let keys: [__m256i; MAX_ROUNDS + 1] = core::array::from_fn(|t| {
                let (k0, k1) = (rk.rk[t][0] as i64, rk.rk[t][1] as i64);
                _mm256_set_epi64x(k1, k0, k1, k0)
            });
            let sr: [__m256i; 8] = core::array::from_fn(|k| {
                // SAFETY: 16 readable bytes of a static table.
                _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(SR_ROT2[k].as_ptr().cast()) })
            });
            // The block in both lanes of a ymm during the rounds.
            let round = |x: __m256i, k: __m256i| {
                // Lane 0 holds the bytes of pi_0 / pi_2, lane 1 those of pi_1 / pi_3.
                let s = sbox_split(x, &PAIRS_T.0, &SPLIT128.0);
                let y = _mm256_xor_si256(s, _mm256_permute4x64_epi64::<0x4e>(s));
                let q: [__m256i; 8] = core::array::from_fn(|k| _mm256_shuffle_epi8(y, sr[k]));
                row(&q, k)
            };
            let encrypt = |x: __m128i| {
                let mut x = _mm256_add_epi64(_mm256_broadcastsi128_si256(x), keys[0]);
                for r in 1..nr {
                    x = round(x, keys[r]);
                }
                x = round(x, _mm256_setzero_si256());
                _mm_add_epi64(_mm256_castsi256_si128(x), _mm256_castsi256_si128(keys[nr]))
            };
            chain_blocks!(
                mode,
                iv,
                src,
                dst,
                n,
                16,
                _mm_loadu_si128,
                _mm_storeu_si128,
                _mm_xor_si128,
                encrypt
            );
        }
    };
}

chain128_kernel!(chain128, "avx2", |q: &[__m256i; 8], k| mds_row(q, k, |x| {
    xtime(x)
}));
chain128_kernel!(chain128_gfni, "avx2,gfni", |q: &[__m256i; 8], k| {
    mds_row_gfni(q, k)
});

/// The register order of a 256-bit block in its one-block kernel: register byte `i`
/// (lane `i / 16`, half `i % 16 / 8`, `j = i % 8`) holds row `i / 16 + 2 (i % 16 / 8) +
/// 4 (j % 2)` of column `j / 2`. Lane 0 then holds the bytes of pi_0 (low half) and pi_2
/// (high half), lane 1 those of pi_1 and pi_3, so two lane-split lookups (`PAIRS`) cover
/// the block, as for 128-bit blocks. Returns the natural index (`8 c + r`) of byte `i`.
const fn order256(i: usize) -> usize {
    let j = i % 8;
    8 * (j / 2) + i / 16 + 2 * (i % 16 / 8) + 4 * (j % 2)
}

/// The register byte of natural byte `n` (the inverse of [`order256`]).
const fn order256_inv(n: usize) -> usize {
    let mut i = 0;
    while order256(i) != n {
        i += 1;
    }
    i
}

/// A byte permutation of a ymm (`src[i]`: the byte that output byte `i` takes) as two
/// `vpshufb` indices: `[0]` for the bytes whose source is in the same 128-bit lane, `[1]`
/// for the others, read from the lane-swapped register (0x80, a zero, elsewhere).
const fn lane_split(src: [usize; 32]) -> [[u8; 32]; 2] {
    let mut t = [[0x80u8; 32]; 2];
    let mut i = 0;
    while i < 32 {
        let swapped = (src[i] / 16 != i / 16) as usize;
        t[swapped][i] = (src[i] % 16) as u8;
        i += 1;
    }
    t
}

/// The one-block kernel's permutations for 256-bit blocks: `[k]` for `k` in 0..8 is
/// ShiftRows followed by the column rotation `k` (row `r` takes row `r + k mod 8`), in
/// the register order of [`order256`] on both sides (all bytes from the same lane for
/// even `k`, in `[k][0]`, all from the other lane for odd `k`, in `[k][1]`); `[8]` takes a block from memory order
/// to the register order, `[9]` back.
#[repr(C, align(32))]
struct Perm256([[[u8; 32]; 2]; 10]);

static PERM256: Perm256 = {
    let mut t = [[[0u8; 32]; 2]; 10];
    let mut k = 0;
    while k < 8 {
        let mut src = [0usize; 32];
        let mut i = 0;
        while i < 32 {
            let p = order256(i);
            let (c, r) = (p / 8, (p + k) % 8);
            // ShiftRows for four columns: row r comes from column c - r / 2.
            src[i] = order256_inv(8 * ((c + 4 - r / 2) % 4) + r);
            // ShiftRows keeps rows, so lanes (even rows in lane 0, odd in lane 1): the
            // kernel reads rotation k from the register for even k and from its
            // lane-swapped copy for odd k only.
            assert!((src[i] / 16 != i / 16) == (k % 2 == 1));
            i += 1;
        }
        t[k] = lane_split(src);
        k += 1;
    }
    let (mut to, mut from) = ([0usize; 32], [0usize; 32]);
    let mut i = 0;
    while i < 32 {
        to[i] = order256(i);
        from[i] = order256_inv(i);
        i += 1;
    }
    t[8] = lane_split(to);
    t[9] = lane_split(from);
    Perm256(t)
};

/// The 256-bit-block sibling of `chain128_kernel`: the block kept in the register order
/// of [`order256`] between the first and the last (modular) key addition, so that the
/// four S-boxes are the two lane-split passes of `sbox_split`, and each
/// rotation-after-ShiftRows one `vpshufb` of the register (even rotations) or of its
/// lane-swapped copy (odd ones).
macro_rules! chain256_kernel {
    ($name:ident, $features:literal, $row:expr) => {
        /// A chained mode over `n` 256-bit blocks with the chaining value `iv` (updated).
        ///
        /// # Safety
        /// `iv` is 32 bytes; `src` is readable for `32 n` bytes; `dst` writable for as many
        /// unless `mode` is [`Chain::Mac`].
        #[target_feature(enable = $features)]
        unsafe fn $name(
            rk: &RoundKeys,
            mode: Chain,
            iv: &mut [u8],
            src: *const u8,
            dst: *mut u8,
            n: usize,
        ) {
            let nr = rk.nr;
            let row = $row;
            let perm = |x: __m256i, t: &[[u8; 32]; 2]| {
                let xs = _mm256_permute4x64_epi64::<0x4e>(x);
                _mm256_or_si256(
                    _mm256_shuffle_epi8(x, load32(&t[0])),
                    _mm256_shuffle_epi8(xs, load32(&t[1])),
                )
            };
            let keys: [__m256i; MAX_ROUNDS + 1] = core::array::from_fn(|t| {
                let w = &rk.rk[t];
                let k = _mm256_set_epi64x(w[3] as i64, w[2] as i64, w[1] as i64, w[0] as i64);
                // The XOR keys in the register order, the modular ones as in memory.
                if t == 0 || t == nr {
                    k
                } else {
                    perm(k, &PERM256.0[8])
                }
            });
            let sr: [__m256i; 8] = core::array::from_fn(|k| load32(&PERM256.0[k][k % 2]));
            let round = |x: __m256i, k: __m256i| {
                // The high half of each lane holds the bytes of pi_2 / pi_3.
                let y = sbox_split(x, &PAIRS_T.0, &SPLIT256.0);
                let ys = _mm256_permute4x64_epi64::<0x4e>(y);
                let q: [__m256i; 8] = core::array::from_fn(|k| {
                    _mm256_shuffle_epi8(if k % 2 == 0 { y } else { ys }, sr[k])
                });
                row(&q, k)
            };
            let encrypt = |x: __m256i| {
                let mut x = perm(_mm256_add_epi64(x, keys[0]), &PERM256.0[8]);
                for r in 1..nr {
                    x = round(x, keys[r]);
                }
                x = round(x, _mm256_setzero_si256());
                _mm256_add_epi64(perm(x, &PERM256.0[9]), keys[nr])
            };
            chain_blocks!(
                mode,
                iv,
                src,
                dst,
                n,
                32,
                _mm256_loadu_si256,
                _mm256_storeu_si256,
                _mm256_xor_si256,
                encrypt
            );
        }
    };
}

chain256_kernel!(chain256, "avx2", |q: &[__m256i; 8], k| mds_row(q, k, |x| {
    xtime(x)
}));
chain256_kernel!(chain256_gfni, "avx2,gfni", |q: &[__m256i; 8], k| {
    mds_row_gfni(q, k)
});

/// The one-block kernel's permutations for 512-bit blocks, held in two ymm (`A`:
/// columns 0..4, `B`: columns 4..8), each in the register order of [`order256`].
/// `sr[o][j]`: the `vpshufb` index of ShiftRows for output register `o` from source `j`
/// (`A`, `B`), 0x80 (a zero) where the byte comes from the other one (ShiftRows keeps
/// rows, so lanes: no byte crosses lanes). `rot[k]`: the column rotation `k` (row `r` takes row
/// `r + k mod 8`) inside a register, read from the register itself for even `k` and from
/// its lane-swapped copy for odd `k` (even rows sit in lane 0, odd rows in lane 1).
#[repr(C, align(32))]
struct Perm512 {
    sr: [[[u8; 32]; 2]; 2],
    rot: [[u8; 32]; 8],
}

static PERM512: Perm512 = {
    let mut sr = [[[0x80u8; 32]; 2]; 2];
    let mut o = 0;
    while o < 2 {
        let mut i = 0;
        while i < 32 {
            let p = 32 * o + order256(i);
            let (c, r) = (p / 8, p % 8);
            // ShiftRows for eight columns: row r comes from column c - r.
            let src = 8 * ((c + 8 - r) % 8) + r;
            let byte = order256_inv(src % 32);
            assert!(byte / 16 == i / 16);
            sr[o][src / 32][i] = (byte % 16) as u8;
            i += 1;
        }
        o += 1;
    }
    let mut rot = [[0u8; 32]; 8];
    let mut k = 0;
    while k < 8 {
        let mut i = 0;
        while i < 32 {
            let p = order256(i);
            rot[k][i] = (order256_inv(8 * (p / 8) + (p % 8 + k) % 8) % 16) as u8;
            i += 1;
        }
        k += 1;
    }
    Perm512 { sr, rot }
};

/// The 512-bit-block sibling: the block in two ymm in the register order of
/// [`order256`] (the two lane-split passes of `sbox_split` each), ShiftRows as two
/// `vpshufb` ORed per register, then each rotation one `vpshufb` of the register or of its lane-swapped copy.
macro_rules! chain512_kernel {
    ($name:ident, $features:literal, $row:expr) => {
        /// A chained mode over `n` 512-bit blocks with the chaining value `iv` (updated).
        ///
        /// # Safety
        /// `iv` is 64 bytes; `src` is readable for `64 n` bytes; `dst` writable for as many
        /// unless `mode` is [`Chain::Mac`].
        #[target_feature(enable = $features)]
        unsafe fn $name(
            rk: &RoundKeys,
            mode: Chain,
            iv: &mut [u8],
            src: *const u8,
            dst: *mut u8,
            n: usize,
        ) {
            let nr = rk.nr;
            let row = $row;
            let swap = |x: __m256i| _mm256_permute4x64_epi64::<0x4e>(x);
            let perm = |x: __m256i, t: &[[u8; 32]; 2]| {
                _mm256_or_si256(
                    _mm256_shuffle_epi8(x, load32(&t[0])),
                    _mm256_shuffle_epi8(swap(x), load32(&t[1])),
                )
            };
            let keys: [[__m256i; 2]; MAX_ROUNDS + 1] = core::array::from_fn(|t| {
                let w = &rk.rk[t];
                let k = [
                    _mm256_set_epi64x(w[3] as i64, w[2] as i64, w[1] as i64, w[0] as i64),
                    _mm256_set_epi64x(w[7] as i64, w[6] as i64, w[5] as i64, w[4] as i64),
                ];
                // The XOR keys in the register order, the modular ones as in memory.
                if t == 0 || t == nr {
                    k
                } else {
                    [perm(k[0], &PERM256.0[8]), perm(k[1], &PERM256.0[8])]
                }
            });
            let sr: [[__m256i; 2]; 2] =
                core::array::from_fn(|o| core::array::from_fn(|j| load32(&PERM512.sr[o][j])));
            let rot: [__m256i; 8] = core::array::from_fn(|k| load32(&PERM512.rot[k]));
            // The high half of each lane holds the bytes of pi_2 / pi_3.
            let sub = |x: __m256i| sbox_split(x, &PAIRS_T.0, &SPLIT256.0);
            let mix = |y: __m256i, k: __m256i| {
                let ys = swap(y);
                let q: [__m256i; 8] = core::array::from_fn(|i| {
                    _mm256_shuffle_epi8(if i % 2 == 0 { y } else { ys }, rot[i])
                });
                row(&q, k)
            };
            let round = |x: [__m256i; 2], k: [__m256i; 2]| {
                let y = [sub(x[0]), sub(x[1])];
                let shifted: [__m256i; 2] = core::array::from_fn(|o| {
                    _mm256_or_si256(
                        _mm256_shuffle_epi8(y[0], sr[o][0]),
                        _mm256_shuffle_epi8(y[1], sr[o][1]),
                    )
                });
                [mix(shifted[0], k[0]), mix(shifted[1], k[1])]
            };
            let zero = [_mm256_setzero_si256(); 2];
            let encrypt = |x: [__m256i; 2]| {
                let mut x = [
                    perm(_mm256_add_epi64(x[0], keys[0][0]), &PERM256.0[8]),
                    perm(_mm256_add_epi64(x[1], keys[0][1]), &PERM256.0[8]),
                ];
                for r in 1..nr {
                    x = round(x, keys[r]);
                }
                x = round(x, zero);
                [
                    _mm256_add_epi64(perm(x[0], &PERM256.0[9]), keys[nr][0]),
                    _mm256_add_epi64(perm(x[1], &PERM256.0[9]), keys[nr][1]),
                ]
            };
            let xor2 = |a: [__m256i; 2], b: [__m256i; 2]| {
                [_mm256_xor_si256(a[0], b[0]), _mm256_xor_si256(a[1], b[1])]
            };
            // One block is two ymm registers.
            let load = |p: *const u8| {
                // SAFETY: the macro passes pointers to whole blocks (64 readable bytes).
                unsafe {
                    [
                        _mm256_loadu_si256(p.cast()),
                        _mm256_loadu_si256(p.add(32).cast()),
                    ]
                }
            };
            let store = |p: *mut u8, v: [__m256i; 2]| {
                // SAFETY: the macro passes pointers to whole blocks (64 writable bytes).
                unsafe {
                    _mm256_storeu_si256(p.cast(), v[0]);
                    _mm256_storeu_si256(p.add(32).cast(), v[1]);
                }
            };
            chain_blocks!(mode, iv, src, dst, n, 64, load, store, xor2, encrypt);
        }
    };
}

chain512_kernel!(chain512, "avx2", |q: &[__m256i; 8], k| mds_row(q, k, |x| {
    xtime(x)
}));
chain512_kernel!(chain512_gfni, "avx2,gfni", |q: &[__m256i; 8], k| {
    mds_row_gfni(q, k)
});

/// A chained mode on whole blocks, one block at a time in registers: `iv` one block, `n`
/// blocks at `src` (and `dst`, unless [`Chain::Mac`]).
///
/// # Safety
/// `src` is readable for `n` blocks and, unless `mode` is [`Chain::Mac`], `dst` writable
/// for `n` blocks.
pub(super) unsafe fn chained(
    rk: &RoundKeys,
    t: Tokens,
    mode: Chain,
    iv: &mut [u8],
    src: *const u8,
    dst: *mut u8,
    n: usize,
) {
    assert_eq!(iv.len(), 8 * rk.nb);
    let _ = t.avx2;
    // SAFETY: the tokens prove AVX2 (and GFNI when present); `iv` is one block; the
    // regions are the caller's.
    unsafe {
        match (rk.nb, t.gfni) {
            (2, Some(_)) => chain128_gfni(rk, mode, iv, src, dst, n),
            (2, None) => chain128(rk, mode, iv, src, dst, n),
            (4, Some(_)) => chain256_gfni(rk, mode, iv, src, dst, n),
            (4, None) => chain256(rk, mode, iv, src, dst, n),
            (_, Some(_)) => chain512_gfni(rk, mode, iv, src, dst, n),
            (_, None) => chain512(rk, mode, iv, src, dst, n),
        }
    }
}
