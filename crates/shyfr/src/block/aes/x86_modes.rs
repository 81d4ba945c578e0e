//! Fused mode loops for the x86 AES backends, generic over the register type
//! ([`Lanes`]: one block with AES-NI, two with VAES on ymm, four on zmm), so that every
//! backend runs the same code: CTR, CBC and CFB decryption and XTS keep many blocks in
//! flight; the serial modes (CBC and CFB encryption, OFB, CBC-MAC) keep their chain in
//! one register and fold the XOR of each next block into the last round key, so the chain
//! is exactly one AES instruction per round.
//!
//! Every function is `#[inline(always)]` and `unsafe`: it may only be inlined into a
//! `#[target_feature]` kernel of the backend that owns `L`, and it stays inside the
//! blocks its caller names.

use core::arch::x86_64::*;

use super::x86::{blocks_in, mul_x_pow_128, rounds, Keys, Lanes, Schedule};
use super::{Block, Serial};
use crate::inout::InOut;

/// CTR on blocks `start..` of `io` in groups of `W` registers while whole groups remain
/// below `end`; `c` is the counter state of block 0 of `io`. Returns the first block not
/// processed.
///
/// # Safety
///
/// The features `L` needs are enabled; `end <= io.len() / 16`; the counter's last word
/// does not wrap before block `end`.
#[inline(always)]
pub(super) unsafe fn ctr<L: Lanes, const W: usize, const NR: usize>(
    k: &Schedule,
    io: &mut InOut<'_>,
    c: &L::Ctr,
    low: u32,
    start: usize,
    end: usize,
) -> usize {
    let step = W * L::BLOCKS;
    let src = io.src_ptr();
    let dst = io.dst_ptr();
    let mut i = start;
    if i + step > end {
        return i;
    }
    // SAFETY: features per the contract.
    let mut first = unsafe { L::ctr_blocks(&L::ctr_at(c, i as u32), 0) };
    while i + step <= end {
        // SAFETY: blocks `i..i + step` lie below `end`, inside `io`; features per the
        // contract.
        unsafe {
            let k0 = L::key(&k[0]);
            let mut b: [L; W] = [k0; W];
            // When the counter's last byte does not overflow inside the group (all but one
            // group in 256 / step), the group's counters are the first one plus a constant
            // in that byte: one add per register instead of an add and a byte shuffle (or,
            // on one-block registers, a scalar byte swap and insert). The counter is
            // public, so the branches leak nothing.
            let lo = low.wrapping_add(i as u32) as usize;
            if (lo & 0xff) + step <= 256 {
                for (j, x) in b.iter_mut().enumerate() {
                    *x = first.add_low_byte((j * L::BLOCKS) as u32).xor(k0);
                }
            } else {
                let base = L::ctr_at(c, i as u32);
                for (j, x) in b.iter_mut().enumerate() {
                    *x = L::ctr_blocks(&base, (j * L::BLOCKS) as u32).xor(k0);
                }
            }
            // The next group's first counter, early: it does not wait for this group, so
            // the next group's rounds can start while this one finishes.
            first = L::ctr_blocks(&L::ctr_at(c, (i + step) as u32), 0);
            rounds::<L, W, NR, false>(k, &mut b);
            // `enclast(x, k) ^ m = enclast(x, k ^ m)`: the input is folded into the last
            // round key, off the AES chain (AES-GCM on zmm: 3 to 5 % faster on Zen 4).
            let kl = L::key(&k[NR]);
            for (j, x) in b.iter().enumerate() {
                let off = (i + j * L::BLOCKS) * 16;
                x.enclast(kl.xor(L::load(src.add(off)))).store(dst.add(off));
            }
        }
        i += step;
    }
    i
}

/// CTR on blocks `start..end` in one pass of `M` registers side by side, the last one partly
/// filled (see [`super::x86::ecb_last`]); `c` is the counter state of block 0 of `io`.
///
/// # Safety
///
/// The features `L` needs are enabled; `end <= io.len() / 16`,
/// `(M - 1) * L::BLOCKS < end - start <= M * L::BLOCKS`, and the counter's last word does
/// not wrap before block `end`.
#[inline(always)]
pub(super) unsafe fn ctr_last<L: Lanes, const NR: usize, const M: usize>(
    k: &Schedule,
    io: &mut InOut<'_>,
    c: &L::Ctr,
    start: usize,
    end: usize,
) {
    let src = io.src_ptr();
    let dst = io.dst_ptr();
    // SAFETY: register `j` covers blocks `start + j * BLOCKS ..` up to `end`, inside `io`;
    // features per the contract. (The unused lanes of the last register may hold a
    // wrapped counter; they are never stored.)
    unsafe {
        let base = L::ctr_at(c, start as u32);
        let k0 = L::key(&k[0]);
        let mut b: [L; M] = [k0; M];
        for (j, x) in b.iter_mut().enumerate() {
            *x = L::ctr_blocks(&base, (j * L::BLOCKS) as u32).xor(k0);
        }
        rounds::<L, M, NR, false>(k, &mut b);
        let kl = L::key(&k[NR]);
        for (j, x) in b.iter().enumerate() {
            let off = (start + j * L::BLOCKS) * 16;
            let nb = blocks_in::<L, M>(j, start, end);
            x.enclast(kl.xor(L::load_part(src.add(off), nb)))
                .store_part(dst.add(off), nb);
        }
    }
}

/// CBC decryption (`DEC`) or CFB decryption (`!DEC`, with encryption keys) of blocks
/// `start..` in groups of `W` registers while whole groups remain below `end`. `iv` is
/// the ciphertext block before `start` and becomes the last one processed.
///
/// # Safety
///
/// As for [`ctr`].
#[inline(always)]
pub(super) unsafe fn chain_dec<L: Lanes, const W: usize, const NR: usize, const DEC: bool>(
    k: &Schedule,
    io: &mut InOut<'_>,
    iv: &mut __m128i,
    start: usize,
    end: usize,
) -> usize {
    let step = W * L::BLOCKS;
    let src = io.src_ptr();
    let dst = io.dst_ptr();
    let mut i = start;
    while i + step <= end {
        // SAFETY: blocks `i - 1..i + step` are read (block `i - 1` only through `iv` when
        // `i == start`), `i..i + step` written, all inside `io`. Every load comes before
        // the first store, so working in place is safe.
        unsafe {
            let at = |j: usize| src.add((i + j * L::BLOCKS) * 16);
            let k0 = L::key(&k[0]);
            // prev[j]: the ciphertext block before each block of register j.
            let mut prev: [L; W] = [k0; W];
            prev[0] = L::load(at(0)).shift_in(*iv);
            for (j, p) in prev.iter_mut().enumerate().skip(1) {
                *p = L::load(at(j).sub(16));
            }
            let next_iv = _mm_loadu_si128(at(W).sub(16).cast());
            let mut b: [L; W] = [k0; W];
            for (j, x) in b.iter_mut().enumerate() {
                // CBC: decrypt the ciphertext; CFB: encrypt the previous ciphertext.
                *x = if DEC { L::load(at(j)) } else { prev[j] }.xor(k0);
            }
            rounds::<L, W, NR, DEC>(k, &mut b);
            let kl = L::key(&k[NR]);
            let mut out: [L; W] = [k0; W];
            for (j, (o, x)) in out.iter_mut().zip(&b).enumerate() {
                *o = if DEC {
                    x.declast(kl).xor(prev[j])
                } else {
                    x.enclast(kl).xor(L::load(at(j)))
                };
            }
            for (j, o) in out.iter().enumerate() {
                o.store(dst.add((i + j * L::BLOCKS) * 16));
            }
            *iv = next_iv;
        }
        i += step;
    }
    i
}

/// CBC or CFB decryption of blocks `start..end` in one pass of `M` registers side by side,
/// the last one partly filled; `iv` as for [`chain_dec`].
///
/// # Safety
///
/// As for [`ctr_last`] (there is no counter).
#[inline(always)]
pub(super) unsafe fn chain_last<L: Lanes, const NR: usize, const DEC: bool, const M: usize>(
    k: &Schedule,
    io: &mut InOut<'_>,
    iv: &mut __m128i,
    start: usize,
    end: usize,
) {
    let src = io.src_ptr();
    let dst = io.dst_ptr();
    // SAFETY: blocks `start - 1..end` are read (block `start - 1` only through `iv`),
    // `start..end` written, all inside `io`; every load comes before the first store.
    unsafe {
        let at = |j: usize| src.add((start + j * L::BLOCKS) * 16);
        let nb = |j: usize| blocks_in::<L, M>(j, start, end);
        let k0 = L::key(&k[0]);
        let mut prev: [L; M] = [k0; M];
        prev[0] = L::load_part(at(0), nb(0)).shift_in(*iv);
        for (j, p) in prev.iter_mut().enumerate().skip(1) {
            *p = L::load_part(at(j).sub(16), nb(j));
        }
        let next_iv = _mm_loadu_si128(src.add((end - 1) * 16).cast());
        let mut b: [L; M] = [k0; M];
        for (j, x) in b.iter_mut().enumerate() {
            *x = if DEC {
                L::load_part(at(j), nb(j))
            } else {
                prev[j]
            }
            .xor(k0);
        }
        rounds::<L, M, NR, DEC>(k, &mut b);
        let kl = L::key(&k[NR]);
        let mut out: [L; M] = [k0; M];
        for (j, (o, x)) in out.iter_mut().zip(&b).enumerate() {
            *o = if DEC {
                x.declast(kl).xor(prev[j])
            } else {
                x.enclast(kl.xor(L::load_part(at(j), nb(j))))
            };
        }
        for (j, o) in out.iter().enumerate() {
            o.store_part(dst.add((start + j * L::BLOCKS) * 16), nb(j));
        }
        *iv = next_iv;
    }
}

/// XTS on blocks `start..` in groups of `W` registers while whole groups remain below
/// `end`; `tweak` is the (encrypted) tweak of block `start` and becomes that of the first
/// block not processed, which is returned.
///
/// The first group's tweaks are computed one at a time; `advance` turns a group's tweaks
/// into the next group's in the vector registers (each times `x^step`, or for one-block
/// registers a chain of doublings from the last one). (Computing them with 64-bit integer
/// arithmetic one group ahead instead, on the otherwise idle integer units, was slower on
/// Zen 3: 0.33 against 0.27 cycles/byte for AES-128, the doubling chain being serial.)
///
/// # Safety
///
/// As for [`ctr`]; `W * L::BLOCKS <= 56`.
#[inline(always)]
pub(super) unsafe fn xts<L: Lanes, const W: usize, const NR: usize, const DEC: bool>(
    k: &Schedule,
    io: &mut InOut<'_>,
    tweak: &mut Block,
    start: usize,
    end: usize,
    advance: impl Fn(&mut [L; W]),
) -> usize {
    let step = W * L::BLOCKS;
    if start + step > end {
        return start;
    }
    let src = io.src_ptr();
    let dst = io.dst_ptr();
    // SAFETY: features per the contract; `W * L::BLOCKS <= 56`.
    let mut tw: [L; W] = unsafe { first_tweaks::<L, W>(tweak) };
    let mut i = start;
    while i + step <= end {
        // SAFETY: blocks `i..i + step` lie below `end`, inside `io`; all loads of a group
        // precede its stores.
        unsafe {
            let k0 = L::key(&k[0]);
            let mut b: [L; W] = [k0; W];
            for (j, x) in b.iter_mut().enumerate() {
                *x = L::load(src.add((i + j * L::BLOCKS) * 16))
                    .xor(tw[j])
                    .xor(k0);
            }
            // The next group's tweaks, before this group's rounds in program order: they
            // depend on nothing but this group's tweaks, so they are computed in the
            // shadow of the first rounds' latency and are ready when the next group starts.
            let mut next = tw;
            advance(&mut next);
            rounds::<L, W, NR, DEC>(k, &mut b);
            let kl = L::key(&k[NR]);
            for (j, x) in b.iter().enumerate() {
                // The tweak XOR folded into the last round key (that round ends with
                // AddRoundKey): off the chain, 1-2% faster on Zen 3.
                let kt = kl.xor(tw[j]);
                let y = if DEC { x.declast(kt) } else { x.enclast(kt) };
                y.store(dst.add((i + j * L::BLOCKS) * 16));
            }
            tw = next;
        }
        i += step;
    }
    // SAFETY: `tweak` is 16 writable bytes; SSE2.
    unsafe { _mm_storeu_si128(tweak.as_mut_ptr().cast(), tw[0].first_lane()) };
    i
}

/// The tweaks of `W` registers from the tweak `tweak` of their first block: the first
/// register's lanes one after another (`L::BLOCKS - 1` doublings), every other register
/// that one times `x^(j * L::BLOCKS)`, all independent of each other (a chain of `W *
/// L::BLOCKS` doublings took about 100 cycles for 32 blocks).
///
/// # Safety
///
/// The features `L` needs are enabled; `(W - 1) * L::BLOCKS <= 56`.
#[inline(always)]
unsafe fn first_tweaks<L: Lanes, const W: usize>(tweak: &Block) -> [L; W] {
    let mut t = u128::from_le_bytes(*tweak);
    // SAFETY: per the contract.
    unsafe {
        let t0 = L::from_tweaks(&mut t);
        let mut tw = [t0; W];
        for (j, x) in tw.iter_mut().enumerate().skip(1) {
            *x = t0.mul_x_pow((j * L::BLOCKS) as u32);
        }
        tw
    }
}

/// XTS on blocks `start..end` in one pass of `M` registers side by side, the last one partly
/// filled; `tweak` is the tweak of block `start` and becomes that of block `end`.
///
/// # Safety
///
/// As for [`ctr_last`] (there is no counter); `end - start <= 56`.
#[inline(always)]
pub(super) unsafe fn xts_last<L: Lanes, const NR: usize, const DEC: bool, const M: usize>(
    k: &Schedule,
    io: &mut InOut<'_>,
    tweak: &mut Block,
    start: usize,
    end: usize,
) {
    let src = io.src_ptr();
    let dst = io.dst_ptr();
    // SAFETY: register `j` covers blocks `start + j * BLOCKS ..` up to `end`, inside `io`;
    // all loads precede the stores; features per the contract.
    unsafe {
        let tw: [L; M] = first_tweaks::<L, M>(tweak);
        let t0 = _mm_loadu_si128(tweak.as_ptr().cast());
        let next = mul_x_pow_128(t0, (end - start) as u32);
        let k0 = L::key(&k[0]);
        let mut b: [L; M] = [k0; M];
        for (j, x) in b.iter_mut().enumerate() {
            let p = src.add((start + j * L::BLOCKS) * 16);
            *x = L::load_part(p, blocks_in::<L, M>(j, start, end))
                .xor(tw[j])
                .xor(k0);
        }
        rounds::<L, M, NR, DEC>(k, &mut b);
        let kl = L::key(&k[NR]);
        for (j, x) in b.iter().enumerate() {
            let kt = kl.xor(tw[j]);
            let y = if DEC { x.declast(kt) } else { x.enclast(kt) };
            let p = dst.add((start + j * L::BLOCKS) * 16);
            y.store_part(p, blocks_in::<L, M>(j, start, end));
        }
        _mm_storeu_si128(tweak.as_mut_ptr().cast(), next);
    }
}

/// The round keys of one direction as one-block registers.
///
/// # Safety
///
/// SSE2 (always there).
#[inline(always)]
unsafe fn keys128<const NR: usize>(rk: &Schedule) -> [__m128i; 15] {
    core::array::from_fn(|r| rk[r.min(NR)].xmm())
}

#[inline(always)]
unsafe fn enc_middle<const NR: usize>(k: &[__m128i; 15], mut s: __m128i) -> __m128i {
    for kr in &k[1..NR] {
        // SAFETY: AES-NI per the caller's contract.
        s = unsafe { super::x86::aesenc_i(s, *kr) };
    }
    s
}

/// Runs a serial mode over the whole blocks of `src` (writing `dst` unless `Mac`), with the
/// chaining value `iv` updated. `src`/`dst` are `n` blocks (`dst` may equal `src`).
///
/// The chain is `NR` AES instructions per block and nothing else: what the next block's
/// round-0 state adds to this block's cipher output is folded into this block's last
/// round key (`aesenclast(s, k ^ m) = aesenclast(s, k) ^ m`), and the output is recovered
/// off the chain.
///
/// # Safety
///
/// AES-NI is enabled; `src` is readable and `dst` writable for `16 * n` bytes.
#[inline(always)]
pub(super) unsafe fn serial<const NR: usize>(
    keys: &Keys,
    mode: Serial,
    iv: &mut Block,
    src: *const u8,
    dst: *mut u8,
    n: usize,
) {
    if n == 0 {
        return;
    }
    // SAFETY: AES-NI per the contract; pointers stay within `16 * n` bytes.
    unsafe {
        let k = keys128::<NR>(&keys.enc);
        let kl = k[NR];
        let zero = _mm_setzero_si128();
        let load = |i: usize| _mm_loadu_si128(src.add(16 * i).cast());
        let v = _mm_loadu_si128(iv.as_ptr().cast());
        // Round-0 state of block 0.
        let mut s = match mode {
            Serial::CbcEnc | Serial::Mac => _mm_xor_si128(v, _mm_xor_si128(load(0), k[0])),
            Serial::CfbEnc | Serial::Ofb => _mm_xor_si128(v, k[0]),
        };
        let mut last = v;
        for i in 0..n {
            let more = i + 1 < n;
            // `m`: the next round-0 state minus this block's feedback value.
            let (m, fold) = match mode {
                Serial::CbcEnc | Serial::Mac => {
                    let m = if more {
                        _mm_xor_si128(load(i + 1), k[0])
                    } else {
                        zero
                    };
                    (m, m)
                }
                Serial::CfbEnc => {
                    let m = if more { k[0] } else { zero };
                    (m, _mm_xor_si128(m, load(i)))
                }
                Serial::Ofb => {
                    let m = if more { k[0] } else { zero };
                    (m, m)
                }
            };
            let kf = _mm_xor_si128(kl, fold);
            let r = super::x86::aesenclast_i(enc_middle::<NR>(&k, s), kf);
            // Off the chain: the feedback value (ciphertext, keystream or MAC state).
            let fb = _mm_xor_si128(r, m);
            match mode {
                Serial::CbcEnc | Serial::CfbEnc => _mm_storeu_si128(dst.add(16 * i).cast(), fb),
                Serial::Ofb => _mm_storeu_si128(dst.add(16 * i).cast(), _mm_xor_si128(fb, load(i))),
                Serial::Mac => {}
            }
            last = fb;
            s = r;
        }
        _mm_storeu_si128(iv.as_mut_ptr().cast(), last);
    }
}

/// Advances a group of tweak registers by its own length: every register times `x^s`.
///
/// # Safety
///
/// The features `L` needs are enabled; `s = W * L::BLOCKS <= 56`.
#[inline(always)]
pub(super) unsafe fn advance_mul<L: Lanes, const W: usize>(tw: &mut [L; W], s: u32) {
    for t in tw.iter_mut() {
        // SAFETY: per the contract.
        *t = unsafe { t.mul_x_pow(s) };
    }
}

/// Advances a group of one-block tweak registers by its length as a chain of doublings
/// from the last one (five SSE2 instructions each, against nine for `x^8` per register).
///
/// # Safety
///
/// None beyond SSE2.
#[inline(always)]
pub(super) unsafe fn advance_double<const W: usize>(tw: &mut [__m128i; W]) {
    let mut p = tw[W - 1];
    for t in tw.iter_mut() {
        // SAFETY: SSE2.
        p = unsafe { double(p) };
        *t = p;
    }
}

/// `t * x` on one block: both halves shifted left by one, the bit leaving the low half
/// carried into the high half and the one leaving the top reduced with 0x87, selected by
/// sign masks (branch-free).
///
/// # Safety
///
/// None beyond SSE2.
#[inline(always)]
pub(super) unsafe fn double(t: __m128i) -> __m128i {
    // SAFETY: SSE2.
    unsafe {
        let signs = _mm_shuffle_epi32::<0x13>(_mm_srai_epi32::<31>(t));
        let carries = _mm_and_si128(signs, _mm_set_epi32(0, 1, 0, 0x87));
        _mm_xor_si128(_mm_add_epi64(t, t), carries)
    }
}

/// CCM's bulk pass over `n` blocks at `src` (written to `dst`): counter mode from the
/// counter block `c` (last word not wrapping) and the CBC-MAC `mac = E(mac ^ p)` of every
/// plaintext block `p` (the input when `!DEC`, the output when `DEC`), in one loop.
///
/// The MAC is a serial chain of `NR` AES instructions per block; the block's counter
/// encryption depends only on its index, so the out-of-order core runs it in the
/// chain's latency shadow. As in [`serial`], the next plaintext block (and round key 0)
/// is folded into the last round key, so nothing but AES instructions sits on the chain.
/// When decrypting, the plaintext the chain needs next is one counter block ahead: the
/// keystream of block `i + 1` is computed in iteration `i`, long before the chain's
/// last round of block `i` needs it.
///
/// # Safety
///
/// AES-NI is enabled; `src` is readable and `dst` writable (they may be equal) for
/// `16 * n` bytes; the counter's last word does not wrap within `n` blocks.
#[inline(always)]
pub(super) unsafe fn ccm<const NR: usize, const DEC: bool>(
    keys: &Keys,
    mac: &mut Block,
    c: &Block,
    src: *const u8,
    dst: *mut u8,
    n: usize,
) {
    use super::x86::aesenclast_i;
    if n == 0 {
        return;
    }
    // SAFETY: AES-NI per the contract; every block index stays below `n`.
    unsafe {
        let k = keys128::<NR>(&keys.enc);
        let kl = k[NR];
        let zero = _mm_setzero_si128();
        let cs = <__m128i as Lanes>::ctr_init(c);
        let load = |i: usize| _mm_loadu_si128(src.add(16 * i).cast());
        let store = |i: usize, v: __m128i| _mm_storeu_si128(dst.add(16 * i).cast(), v);
        // No closures around the AES work: a closure is compiled without the kernel's
        // target features, so the AES intrinsics in it would not be inlined.
        let mut p = load(0);
        if DEC {
            p = _mm_xor_si128(p, ccm_keystream::<NR>(&k, &cs, 0));
            store(0, p);
        }
        let mut s = _mm_xor_si128(_mm_loadu_si128(mac.as_ptr().cast()), _mm_xor_si128(p, k[0]));
        for i in 0..n {
            if !DEC {
                store(i, _mm_xor_si128(p, ccm_keystream::<NR>(&k, &cs, i)));
            }
            // `m`: the next block's round-0 state minus this block's MAC output.
            let m = if i + 1 < n {
                p = load(i + 1);
                if DEC {
                    p = _mm_xor_si128(p, ccm_keystream::<NR>(&k, &cs, i + 1));
                    store(i + 1, p);
                }
                _mm_xor_si128(p, k[0])
            } else {
                zero
            };
            s = aesenclast_i(enc_middle::<NR>(&k, s), _mm_xor_si128(kl, m));
        }
        _mm_storeu_si128(mac.as_mut_ptr().cast(), s);
    }
}

/// The keystream block `E(counter i)` for [`ccm`].
///
/// # Safety
///
/// AES-NI is enabled (this is inlined into the kernel).
#[inline(always)]
unsafe fn ccm_keystream<const NR: usize>(
    k: &[__m128i; 15],
    cs: &<__m128i as Lanes>::Ctr,
    i: usize,
) -> __m128i {
    // SAFETY: AES-NI per the contract; SSE2.
    unsafe {
        let x = _mm_xor_si128(<__m128i as Lanes>::ctr_blocks(cs, i as u32), k[0]);
        super::x86::aesenclast_i(enc_middle::<NR>(k, x), k[NR])
    }
}
