//! Portable, constant-time Kalyna: bitsliced.
//!
//! A batch is 64 columns (64-bit words) of state per 64-bit lane word: column `c` of block
//! `j` of the batch is lane `c * B + j`, with `B = 64 / Nb` blocks per word (32, 16 or 8
//! for 128-, 256- and 512-bit blocks). Transposing the 64 columns as a 64x64 bit matrix
//! gives the 64 bit planes `plane[8 * row + bit]`, so that:
//!
//! * SubBytes is one Boolean circuit per row (row `r` uses pi_{r mod 4}), evaluated on 64
//!   lanes at once (`arith/gf256/soft_circuits.rs`: about 520 gates per S-box, no table);
//! * ShiftRows rotates the planes of row `r` by `shift(r) * B` lanes, since it moves whole
//!   columns of a block;
//! * MixColumns is an XOR network over the 64 planes (lanes never mix);
//! * the XOR round keys are lane masks computed once per key (`Keys`);
//! * the first and last round keys, added modulo 2^64 per column, are added before the
//!   transposition and after the transposition back, on plain words.
//!
//! Nothing here branches on or indexes memory by secret data. The code is generic over the
//! lane type ([`Lane`]); a lane type of several words gives every word its own 64 lanes and
//! the same key masks. One `u64` lane word makes a batch of 512 bytes. Longer inputs on
//! x86-64 use two words in one SSE2 register (`arith/gf256/x86_sse2.rs`; SSE2 is the x86-64
//! baseline): the S-box circuits are bound by the count of two-operand logic instructions,
//! each of which then covers 128 lanes, so ECB and CTR run about 1.9x faster than on `u64`
//! lanes (the compiler does not turn arrays of `u64` words into SIMD code by itself). A
//! batch of at most half a `u64` batch's blocks (one block, in the serial modes) packs rows
//! `r` and `r + 4`, which use the same S-box, into the two halves of every column's lanes
//! (`Pack`), so a round evaluates four circuits instead of eight: CBC encryption and CMAC
//! 1.55x faster than when one block cost a whole batch (still far behind table look-ups:
//! about 1,000 cycles/byte for 128/128). The choice depends on the block count only.
#![forbid(unsafe_code)]

use zeroize::Zeroize;

use super::{le_add_words, RoundKeys, MAX_ROUNDS};
use crate::arith::gf256::soft::{sbox_row, sub_bytes_paired, transpose64, Lane, Mask};
use crate::arith::gf256::soft_circuits as sc;
use crate::inout::InOut;

/// The XOR round keys 1..nr-1 as lane masks: `masks[t][8 * row + bit]` has the lanes of
/// column `c` set where bit `bit` of byte `row` of column `c` of round key `t` is one; each
/// stored twice ([`Mask`]) so that the SSE2 lanes XOR it straight from memory.
#[derive(Clone)]
pub(super) struct Keys {
    masks: [[Mask; 64]; MAX_ROUNDS + 1],
}

impl Drop for Keys {
    fn drop(&mut self) {
        self.masks.as_flattened_mut().zeroize();
    }
}

impl Keys {
    pub(super) fn new(rk: &RoundKeys) -> Keys {
        let nb = rk.nb;
        let b = 64 / nb;
        let mut masks = [[Mask::default(); 64]; MAX_ROUNDS + 1];
        for (t, m) in masks.iter_mut().enumerate().take(rk.nr) {
            for (p, plane) in m.iter_mut().enumerate() {
                let mut w = 0u64;
                for c in 0..nb {
                    let bit = (rk.rk[t][c] >> p) & 1;
                    let col = if b == 64 {
                        !0
                    } else {
                        ((1u64 << b) - 1) << (c * b)
                    };
                    w |= bit.wrapping_neg() & col;
                }
                *plane = Mask::new(w);
            }
        }
        Keys { masks }
    }
}

/// Row `r`'s ShiftRows offset in columns for `nb` columns: `floor(r * nb / 8)`.
#[inline(always)]
pub(super) const fn shift(r: usize, nb: usize) -> usize {
    r * nb / 8
}

type State<L> = [[L; 8]; 8];

/// How a batch's bit planes are laid out for SubBytes: `half` 0 for a full batch; for a
/// batch of at most `B / 2` blocks (lanes `j < B / 2` of every column's group of `B`
/// lanes), `half` = `B / 2` and `low` the mask of those lanes: rows `r` and `r + 4`, which
/// go through the same S-box, then share one evaluation of its circuit, row `r + 4` moved
/// into the empty upper half of each group. Four circuits a round instead of eight: the
/// one-block calls of the serial modes run at about half the cost.
#[derive(Clone, Copy)]
struct Pack {
    half: u32,
    low: u64,
}

impl Pack {
    /// A full batch.
    const FULL: Pack = Pack { half: 0, low: !0 };

    /// The layout for `n` blocks of `nb` columns in one `u64` lane word.
    fn new(n: usize, nb: usize) -> Pack {
        let b = 64 / nb;
        if n > b / 2 {
            return Pack::FULL;
        }
        let group = (1u64 << (b / 2)) - 1;
        let mut low = 0;
        for c in 0..nb {
            low |= group << (c * b);
        }
        Pack {
            half: (b / 2) as u32,
            low,
        }
    }
}

/// SubBytes and ShiftRows (`INV` false: SubBytes then ShiftRows; `INV`: InvShiftRows then
/// InvSubBytes) of a short batch (`pack.half` not zero) of blocks of `NB` columns, the
/// rotations done on each row's way into or out of its circuit; a full batch's are
/// [`sub_shift_full`] and [`inv_shift_sub_full`]. The rotation counts are constants (the
/// block size a const parameter): a rotation of a `u64` by a count in `cl` costs several
/// micro-operations, by an immediate one.
#[inline(always)]
fn sub_shift_paired<L: Lane, const INV: bool, const NB: usize>(s: &mut State<L>, pack: Pack) {
    let rot = [
        row_rotation::<NB, INV>(0),
        row_rotation::<NB, INV>(1),
        row_rotation::<NB, INV>(2),
        row_rotation::<NB, INV>(3),
        row_rotation::<NB, INV>(4),
        row_rotation::<NB, INV>(5),
        row_rotation::<NB, INV>(6),
        row_rotation::<NB, INV>(7),
    ];
    let (rot_in, rot_out) = if INV { (rot, [0; 8]) } else { ([0; 8], rot) };
    // The unused lanes hold key bits (the key masks cover whole columns); the pairing masks
    // them off, so those lanes leave SubBytes zero.
    // `pack.half` is `B / 2` here; as a constant, its rotations take an immediate count.
    debug_assert_eq!(pack.half as usize, 32 / NB);
    sub_bytes_paired::<L, INV>(s, pack.low, (32 / NB) as u32, rot_in, rot_out);
}

#[inline(always)]
fn add_key<L: Lane>(s: &mut State<L>, m: &[Mask; 64]) {
    for (p, k) in s.as_flattened_mut().iter_mut().zip(m) {
        *p = *p ^ L::mask(k);
    }
}

/// Row `r`'s ShiftRows rotation in lanes for blocks of `NB` columns (`INV`: its inverse).
#[inline(always)]
const fn row_rotation<const NB: usize, const INV: bool>(r: usize) -> u32 {
    let n = (shift(r, NB) * (64 / NB)) as u32;
    if INV && n != 0 {
        64 - n
    } else {
        n
    }
}

/// Expands `$row!(r)` for every row `r` of the state, written out (not a loop over the
/// rows) so that each row's circuit is a direct call and its rotation count a constant.
macro_rules! each_row {
    ($row:ident) => {
        $row!(0);
        $row!(1);
        $row!(2);
        $row!(3);
        $row!(4);
        $row!(5);
        $row!(6);
        $row!(7);
    };
}

/// SubBytes and ShiftRows of a full batch: each row's S-box result rotated as it is written
/// back (the two steps commute: SubBytes works lane by lane), one pass over the state.
#[inline(always)]
fn sub_shift_full<L: Lane, const NB: usize>(s: &mut State<L>) {
    macro_rules! row {
        ($r:literal) => {{
            let y = sbox_row::<L, false>($r, s[$r]);
            let n = row_rotation::<NB, false>($r);
            for (p, v) in s[$r].iter_mut().zip(y) {
                *p = v.rotl(n);
            }
        }};
    }
    each_row!(row);
}

/// InvShiftRows, InvSubBytes and the XOR round key `key` of a full batch on `t`, the
/// result of InvMixColumns, written into `s`: one pass, each row rotated on its way into
/// its circuit and keyed on its way out.
#[inline(always)]
fn inv_shift_sub_full<L: Lane, const NB: usize>(
    t: &State<L>,
    s: &mut State<L>,
    key: Option<&[Mask; 64]>,
) {
    macro_rules! row {
        ($r:literal) => {{
            let n = row_rotation::<NB, true>($r);
            let mut x = t[$r];
            for p in x.iter_mut() {
                *p = p.rotl(n);
            }
            let y = sbox_row::<L, true>($r, x);
            match key {
                Some(m) => {
                    for ((p, v), k) in s[$r].iter_mut().zip(y).zip(&m[8 * $r..8 * $r + 8]) {
                        *p = v ^ L::mask(k);
                    }
                }
                None => s[$r] = y,
            }
        }};
    }
    each_row!(row);
}

/// One encryption round: SubBytes, ShiftRows, MixColumns, and the XOR round key `key`
/// (none in the last round) added as MixColumns' result is written back.
#[inline(always)]
fn round<L: Lane, const NB: usize>(s: &mut State<L>, pack: Pack, key: Option<&[Mask; 64]>) {
    if pack.half == 0 {
        sub_shift_full::<L, NB>(s);
    } else {
        sub_shift_paired::<L, false, NB>(s, pack);
    }
    let t = sc::mds(s);
    match key {
        Some(m) => {
            for ((p, x), k) in s.as_flattened_mut().iter_mut().zip(t.as_flattened()).zip(m) {
                *p = *x ^ L::mask(k);
            }
        }
        None => *s = t,
    }
}

/// One decryption round: InvMixColumns, InvShiftRows, InvSubBytes, and the XOR round key
/// `key` (none in the last round).
#[inline(always)]
fn inv_round<L: Lane, const NB: usize>(s: &mut State<L>, pack: Pack, key: Option<&[Mask; 64]>) {
    let t = sc::mds_inv(s);
    if pack.half == 0 {
        return inv_shift_sub_full::<L, NB>(&t, s, key);
    }
    *s = t;
    sub_shift_paired::<L, true, NB>(s, pack);
    if let Some(m) = key {
        add_key(s, m);
    }
}

/// Bit planes from column words: `cols[w][i]` is lane `i` of word `w`. The words of a
/// lane type of several words are transposed side by side.
#[inline(always)]
fn to_planes<L: Lane>(cols: &[[u64; 64]], s: &mut State<L>) {
    let planes: &mut [L; 64] = s.as_flattened_mut().try_into().expect("64 planes");
    for (i, v) in planes.iter_mut().enumerate() {
        *v = L::from_words(|w| cols[w][i]);
    }
    transpose64(planes);
}

/// Column words from bit planes (the inverse of [`to_planes`]); leaves `s` transposed.
#[inline(always)]
fn from_planes<L: Lane>(s: &mut State<L>, cols: &mut [[u64; 64]]) {
    let planes: &mut [L; 64] = s.as_flattened_mut().try_into().expect("64 planes");
    transpose64(planes);
    for (i, v) in planes.iter().enumerate() {
        for (w, c) in cols.iter_mut().enumerate() {
            c[i] = v.word(w);
        }
    }
}

/// The full cipher on the columns of up to `L::WORDS * 64 / nb` blocks.
#[inline(always)]
fn crypt_cols<L: Lane, const DEC: bool>(
    rk: &RoundKeys,
    keys: &Keys,
    cols: &mut [[u64; 64]],
    s: &mut State<L>,
    pack: Pack,
) {
    match rk.nb {
        2 => crypt_cols_nb::<L, DEC, 2>(rk, keys, cols, s, pack),
        4 => crypt_cols_nb::<L, DEC, 4>(rk, keys, cols, s, pack),
        _ => crypt_cols_nb::<L, DEC, 8>(rk, keys, cols, s, pack),
    }
}

/// [`crypt_cols`] for blocks of `NB` (= `rk.nb`) columns.
#[inline(always)]
fn crypt_cols_nb<L: Lane, const DEC: bool, const NB: usize>(
    rk: &RoundKeys,
    keys: &Keys,
    cols: &mut [[u64; 64]],
    s: &mut State<L>,
    pack: Pack,
) {
    debug_assert_eq!(rk.nb, NB);
    let (nb, nr) = (NB, rk.nr);
    let lb = (64 / nb).trailing_zeros();
    let first = if DEC { nr } else { 0 };
    for c in cols.iter_mut() {
        for (i, w) in c.iter_mut().enumerate() {
            let k = rk.rk[first][i >> lb];
            *w = if DEC {
                w.wrapping_sub(k)
            } else {
                w.wrapping_add(k)
            };
        }
    }
    to_planes(cols, s);
    if DEC {
        for t in (1..nr).rev() {
            inv_round::<L, NB>(s, pack, Some(&keys.masks[t]));
        }
        inv_round::<L, NB>(s, pack, None);
    } else {
        for t in 1..nr {
            round::<L, NB>(s, pack, Some(&keys.masks[t]));
        }
        round::<L, NB>(s, pack, None);
    }
    from_planes(s, cols);
    let last = if DEC { 0 } else { nr };
    for c in cols.iter_mut() {
        for (i, w) in c.iter_mut().enumerate() {
            let k = rk.rk[last][i >> lb];
            *w = if DEC {
                w.wrapping_sub(k)
            } else {
                w.wrapping_add(k)
            };
        }
    }
}

/// Encrypts (`DEC` false) or decrypts every whole block of `io` in batches of
/// `L::WORDS * 64 / nb` blocks; or, given `gamma` (with `DEC` false), runs the DSTU 7624
/// gamma: block `j` of `io` is XORed with the encryption of `gamma + j + 1` (a
/// little-endian integer of `nb` words), which the batch builds in its lanes directly.
fn crypt<L: Lane, const DEC: bool>(
    rk: &RoundKeys,
    keys: &Keys,
    mut io: InOut<'_>,
    gamma: Option<&[u64; 8]>,
) {
    let nb = rk.nb;
    let bl = 8 * nb;
    let b = 64 / nb;
    let lb = b.trailing_zeros();
    let per = L::WORDS * b;
    let blocks = io.len() / bl;
    let mut cols = [[0u64; 64]; 4];
    let cols = &mut cols[..L::WORDS];
    let mut s: State<L> = [[L::splat(0); 8]; 8];
    let mut ctr = [0u64; 8];
    if let Some(g) = gamma {
        ctr = *g;
    }
    let mut j0 = 0;
    while j0 < blocks {
        let n = per.min(blocks - j0);
        for (w, c) in cols.iter_mut().enumerate() {
            for (i, x) in c.iter_mut().enumerate() {
                let (col, j) = (i >> lb, w * b + (i & (b - 1)));
                *x = if j < n && gamma.is_none() {
                    u64::from_le_bytes(io.read::<8>((j0 + j) * bl + 8 * col))
                } else {
                    0
                };
            }
        }
        if gamma.is_some() {
            for j in 0..n {
                le_add_words(&mut ctr[..nb], 1);
                for (col, v) in ctr[..nb].iter().enumerate() {
                    cols[j / b][(col << lb) + (j & (b - 1))] = *v;
                }
            }
        }
        // A short batch (the one-block calls of the serial modes) in the packed layout;
        // with one lane word only (the bulk lane type).
        let pack = if L::WORDS == 1 {
            Pack::new(n, nb)
        } else {
            Pack::FULL
        };
        crypt_cols::<L, DEC>(rk, keys, cols, &mut s, pack);
        for (w, c) in cols.iter().enumerate() {
            for (i, x) in c.iter().enumerate() {
                let (col, j) = (i >> lb, w * b + (i & (b - 1)));
                if j < n {
                    let off = (j0 + j) * bl + 8 * col;
                    let y = match gamma {
                        Some(_) => x ^ u64::from_le_bytes(io.read::<8>(off)),
                        None => *x,
                    };
                    io.write::<8>(off, &y.to_le_bytes());
                }
            }
        }
        j0 += n;
    }
    cols.as_flattened_mut().zeroize();
    s.as_flattened_mut().zeroize();
    ctr.zeroize();
}

/// The lane type of inputs longer than one `u64` batch (512 bytes): two words in one SSE2
/// register, the x86-64 baseline (`arith/gf256/x86_sse2.rs`).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
type Bulk = crate::arith::gf256::x86_sse2::X2;

/// Encrypts (`DEC` false) or decrypts every whole block of `io`, in batches of [`Bulk`]
/// lanes where it has more than one `u64` batch.
fn crypt_any<const DEC: bool>(
    rk: &RoundKeys,
    keys: &Keys,
    io: InOut<'_>,
    gamma: Option<&[u64; 8]>,
) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if io.len() > 512 {
        return crypt::<Bulk, DEC>(rk, keys, io, gamma);
    }
    crypt::<u64, DEC>(rk, keys, io, gamma)
}

/// Encrypts every whole block of `io`.
pub(super) fn encrypt(rk: &RoundKeys, keys: &Keys, io: InOut<'_>) {
    crypt_any::<false>(rk, keys, io, None)
}

/// Decrypts every whole block of `io`.
pub(super) fn decrypt(rk: &RoundKeys, keys: &Keys, io: InOut<'_>) {
    crypt_any::<true>(rk, keys, io, None)
}

/// The DSTU 7624 gamma on every whole block of `io`: block `j` XORed with the encryption
/// of `ctr + j + 1` (`nb` little-endian words), the counter blocks built in the batch's
/// lanes rather than written out and read back.
pub(super) fn gamma(rk: &RoundKeys, keys: &Keys, ctr: &[u64; 8], io: InOut<'_>) {
    crypt_any::<false>(rk, keys, io, Some(ctr))
}

/// One keyless encryption round (SubBytes, ShiftRows, MixColumns) on every block of
/// `state`, given as `nb` little-endian column words per block: the key schedule's step.
pub(super) fn round_words(nb: usize, state: &mut [u64]) {
    let b = 64 / nb;
    let lb = b.trailing_zeros();
    let mut s: State<u64> = [[0; 8]; 8];
    for chunk in state.chunks_mut(64) {
        let mut cols = [[0u64; 64]; 1];
        let n = chunk.len() / nb;
        for (i, x) in cols[0].iter_mut().enumerate() {
            let (col, j) = (i >> lb, i & (b - 1));
            if j < n {
                *x = chunk[j * nb + col];
            }
        }
        to_planes(&cols, &mut s);
        match nb {
            2 => round::<u64, 2>(&mut s, Pack::FULL, None),
            4 => round::<u64, 4>(&mut s, Pack::FULL, None),
            _ => round::<u64, 8>(&mut s, Pack::FULL, None),
        }
        from_planes(&mut s, &mut cols);
        for (i, x) in cols[0].iter().enumerate() {
            let (col, j) = (i >> lb, i & (b - 1));
            if j < n {
                chunk[j * nb + col] = *x;
            }
        }
        cols[0].zeroize();
    }
    s.as_flattened_mut().zeroize();
}
