//! The DSTU 7624 GCM/GMAC hash with VPCLMULQDQ on 512-bit registers: a window of
//! [`WINDOW`] bytes hashed with the powers of `H` and one reduction, the products
//! four 64x64-bit multiplications per instruction.
//!
//! A register holds 64 bytes of the window as loaded (four 128-bit blocks, two 256-bit
//! ones, or one 512-bit block), so lane `l` holds the limb pair `p = l mod (W / 2)` of a
//! block. For every pair `m` of the block's power of `H` (a register prepared at key set-up
//! with, in each lane, pair `m` of that lane's block's power), the four `vpclmulqdq`
//! selections give the products of limbs `2p + a` and `2m + c`, which belong at word
//! `2 (p + m) + a + c` of the unreduced sum; they are accumulated per `(m, a + c)` over the
//! window and placed once at its end. The two middle products (`a + c = 1`) come from one
//! multiplication, Karatsuba's `(x_0 + x_1)(h_0 + h_1) + x_0 h_0 + x_1 h_1`: the sums of
//! the multiplier's limbs are prepared at key set-up, the data's once per register, and the
//! correction by the outer products is applied to the window's sums at its end (the
//! identity is linear), so a 128-bit limb pair takes three `vpclmulqdq` lanes, not four.

use core::arch::x86_64::*;

use crate::cpu::x86::Vpclmul512;

/// Bytes per window: 32, 16 or 8 blocks of 128, 256 or 512 bits.
pub(crate) const WINDOW: usize = 512;

/// The most blocks in a window (of 128 bits).
pub(crate) const MAX_AGG: usize = WINDOW / 16;

/// Blocks per window for `W`-word blocks.
pub(crate) const fn agg(w: usize) -> usize {
    WINDOW / (8 * w)
}

/// The multiplier registers of one block length: `hv[q * (W / 2) + m]` for register `q`
/// of the window and power pair `m`, as 8 words.
#[derive(Clone)]
pub(crate) struct Multipliers {
    hv: [[u64; 8]; 32],
    /// `hk[i]`: in each lane, the XOR of the two words of that lane of `hv[i]` (low word).
    hk: [[u64; 8]; 32],
}

impl Drop for Multipliers {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(self.hv.as_flattened_mut());
        zeroize::Zeroize::zeroize(self.hk.as_flattened_mut());
    }
}

impl Multipliers {
    /// From `powers[i] = H^(i+1)` (of `W` words each, at least `agg(W)` of them).
    pub(crate) fn new<const W: usize>(powers: &[[u64; 8]]) -> Multipliers {
        let mut hv = [[0u64; 8]; 32];
        let pairs = W / 2;
        let agg = agg(W);
        let regs = WINDOW / 64;
        for q in 0..regs {
            for m in 0..pairs {
                let v = &mut hv[q * pairs + m];
                for l in 0..4 {
                    let b = q * (8 / W) + l / pairs;
                    let h = &powers[agg - 1 - b];
                    v[2 * l] = h[2 * m];
                    v[2 * l + 1] = h[2 * m + 1];
                }
            }
        }
        let mut hk = [[0u64; 8]; 32];
        for (k, v) in hk.iter_mut().zip(&hv) {
            for l in 0..4 {
                k[2 * l] = v[2 * l] ^ v[2 * l + 1];
            }
        }
        Multipliers { hv, hk }
    }
}

/// Hashes one window of `agg(W)` blocks of `W` words ([`WINDOW`] bytes) into `y`:
/// `y = (y + X_1) H^n + ... + X_n H`.
pub(crate) fn hash_window<const W: usize>(
    t: Vpclmul512,
    y: &mut [u64; 8],
    window: &[u8],
    mul: &Multipliers,
) {
    let _ = t;
    assert_eq!(window.len(), WINDOW);
    // SAFETY: the token proves VPCLMULQDQ with AVX-512F; `window` holds AGG * W words.
    let acc = unsafe { window_product::<W>(y, window, mul) };
    let r = super::field::reduce::<W>(&acc);
    y[..W].copy_from_slice(&r);
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,vpclmulqdq,pclmulqdq")]
fn window_product<const W: usize>(y: &[u64; 8], window: &[u8], mul: &Multipliers) -> [u64; 16] {
    let pairs = W / 2;
    let regs = WINDOW / 64;
    // acc[3 m + s]: the products of pair m with a + c = s.
    let mut acc = [_mm512_setzero_si512(); 12];
    let yv = {
        let mut w = [0u64; 8];
        w[..W].copy_from_slice(&y[..W]);
        // SAFETY: `w` is 64 readable bytes.
        unsafe { _mm512_loadu_si512(w.as_ptr().cast()) }
    };
    for q in 0..regs {
        // SAFETY: register q of the window is 64 readable bytes inside `window`.
        let mut x = unsafe { _mm512_loadu_si512(window[64 * q..].as_ptr().cast()) };
        if q == 0 {
            x = _mm512_xor_si512(x, yv);
        }
        // In each lane, the XOR of its two words (low word).
        let xk = _mm512_xor_si512(x, _mm512_shuffle_epi32::<0x4e>(x));
        for m in 0..pairs {
            // SAFETY: 64 readable bytes.
            let h = unsafe { _mm512_loadu_si512(mul.hv[q * pairs + m].as_ptr().cast()) };
            // SAFETY: 64 readable bytes.
            let hk = unsafe { _mm512_loadu_si512(mul.hk[q * pairs + m].as_ptr().cast()) };
            let p00 = _mm512_clmulepi64_epi128::<0x00>(x, h);
            let pk = _mm512_clmulepi64_epi128::<0x00>(xk, hk);
            let p11 = _mm512_clmulepi64_epi128::<0x11>(x, h);
            acc[3 * m] = _mm512_xor_si512(acc[3 * m], p00);
            acc[3 * m + 1] = _mm512_xor_si512(acc[3 * m + 1], pk);
            acc[3 * m + 2] = _mm512_xor_si512(acc[3 * m + 2], p11);
        }
    }
    // Karatsuba's correction: the middle sums less the outer ones.
    for m in 0..pairs {
        acc[3 * m + 1] =
            _mm512_ternarylogic_epi64::<0x96>(acc[3 * m + 1], acc[3 * m], acc[3 * m + 2]);
    }
    let mut out = [0u64; 16];
    for m in 0..pairs {
        for s in 0..3 {
            let mut w = [0u64; 8];
            // SAFETY: `w` is 64 writable bytes.
            unsafe { _mm512_storeu_si512(w.as_mut_ptr().cast(), acc[3 * m + s]) };
            for l in 0..4 {
                let off = 2 * (l % pairs + m) + s;
                out[off] ^= w[2 * l];
                out[off + 1] ^= w[2 * l + 1];
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aead::dstu7624::field::mul;
    use crate::aead::dstu7624::field_x86_pclmul::hash_group;
    use crate::cpu::x86::Pclmul;

    /// A deterministic word stream (xorshift) for the operands.
    fn stream(seed: u64) -> impl FnMut() -> u64 {
        let mut s = seed | 1;
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        }
    }

    /// Both x86 kernels against the block-by-block definition `y = (y + X_i) H` with the
    /// portable multiplication, for random `H`, `y` and data, and edge values: one
    /// [`WINDOW`] with VPCLMULQDQ on 512-bit registers, and groups of 1 to 8 blocks with
    /// PCLMULQDQ.
    fn kernels_agree<const W: usize>(wide: Option<Vpclmul512>, narrow: Option<Pclmul>) {
        let mut next = stream(0x9e37_79b9 + W as u64);
        for case in 0..50 {
            let h: [u64; W] = core::array::from_fn(|_| match case {
                0 => u64::MAX,
                1 => 1,
                _ => next(),
            });
            let mut powers = [[0u64; 8]; MAX_AGG];
            let mut p = h;
            for slot in powers.iter_mut() {
                slot[..W].copy_from_slice(&p);
                p = mul::<W>(&p, &h);
            }
            let data: std::vec::Vec<u8> = (0..WINDOW)
                .map(|i| {
                    if case == 2 {
                        0xff
                    } else {
                        (next() >> (i % 56)) as u8
                    }
                })
                .collect();
            let y0: [u64; 8] = core::array::from_fn(|i| if i < W { next() } else { 0 });
            let want = |len: usize| {
                let mut v: [u64; W] = core::array::from_fn(|i| y0[i]);
                for blk in data[..len].chunks_exact(8 * W) {
                    for (i, w) in v.iter_mut().enumerate() {
                        *w ^= u64::from_le_bytes(blk[8 * i..8 * i + 8].try_into().unwrap());
                    }
                    v = mul::<W>(&v, &h);
                }
                v
            };
            if let Some(t) = wide {
                let mut y = y0;
                hash_window::<W>(t, &mut y, &data, &Multipliers::new::<W>(&powers));
                assert_eq!(y[..W], want(WINDOW)[..], "window, W = {W}, case {case}");
            }
            if let Some(t) = narrow {
                for n in 1..=8 {
                    let mut y = y0;
                    hash_group::<W>(t, &mut y, &data[..n * 8 * W], &powers[..8]);
                    assert_eq!(
                        y[..W],
                        want(n * 8 * W)[..],
                        "group of {n}, W = {W}, case {case}"
                    );
                }
            }
        }
    }

    #[test]
    fn kernels_equal_block_by_block() {
        let (wide, narrow) = (Vpclmul512::get(), Pclmul::get());
        if wide.is_none() || narrow.is_none() {
            std::println!(
                "wide kernel run: {}, narrow: {}",
                wide.is_some(),
                narrow.is_some()
            );
        }
        kernels_agree::<2>(wide, narrow);
        kernels_agree::<4>(wide, narrow);
        kernels_agree::<8>(wide, narrow);
    }
}
