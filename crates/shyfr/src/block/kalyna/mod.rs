//! Kalyna, the block cipher of DSTU 7624:2014 (Ukraine), in all five block/key variants.
//!
//! | type | block | key | rounds |
//! |------|-------|-----|--------|
//! | [`Kalyna128_128`] | 128 | 128 | 10 |
//! | [`Kalyna128_256`] | 128 | 256 | 14 |
//! | [`Kalyna256_256`] | 256 | 256 | 14 |
//! | [`Kalyna256_512`] | 256 | 512 | 18 |
//! | [`Kalyna512_512`] | 512 | 512 | 18 |
//!
//! [`Kalyna`] takes the block size at run time. The state is `Nb` = block bits / 64 columns,
//! each a little-endian 64-bit word whose byte `r` is row `r`; a round is SubBytes (row `r`
//! through the S-box pi_{r mod 4}), ShiftRows (row `r` moves `floor(r * Nb / 8)` columns),
//! MixColumns (a circulant 8x8 MDS matrix over GF(2^8) mod x^8+x^4+x^3+x^2+1) and a round
//! key, added modulo 2^64 per column for the first and last key and XORed otherwise. The
//! key schedule is the standard's (clause 6.2): a 3-round `K_sigma` from the key, then
//! every even round key from 3 rounds keyed by `K_sigma` plus a shifted constant, every
//! odd one a byte rotation of the even one before it.
//!
//! The backend is chosen once, when the key is set up, in priority order:
//!
//! | backend | needs | bulk layout | few blocks |
//! |---------|-------|-------------|------------|
//! | `x86_avx512` | AVX-512 F/VL/BW + VBMI + GFNI | byte-sliced: one zmm per byte position of 64 blocks | natural layout (blocks as in memory, up to 24-32 blocks), and chained kernels for CBC/CFB encryption, OFB, CBC-MAC with the block in one xmm/ymm/zmm |
//! | `x86_avx2` | AVX2 (GFNI used when present) | byte-sliced: one ymm per byte position of 32 blocks | encryption of up to 4-7 blocks, and the chained modes, one block at a time in registers (nibble-table S-boxes); decryption a padded batch |
//! | `aarch64_neon` | NEON | byte-sliced: one q register per byte position of 16 blocks | a padded batch |
//! | `soft` | nothing (portable, bitsliced) | bit planes of 64 columns (32, 16 or 8 blocks) | a padded batch |
//!
//! Every backend is constant time: S-boxes are register permutes (`vpermi2b`, `pshufb`,
//! `TBL`) of tables held in registers, or Boolean circuits (`soft`); nothing indexes memory
//! or branches on secret data. The key schedule runs on the `soft` round function (a few
//! microseconds per key).
//!
//! Besides ECB, a key offers the kernels of the modes as inherent methods:
//! [`Kalyna::gamma_blocks`] (the DSTU 7624 counter mode, fused with counters built in
//! registers on `x86_avx512`), [`Kalyna::cbc_encrypt_blocks`],
//! [`Kalyna::cfb_encrypt_blocks`], [`Kalyna::ofb_blocks`] and [`Kalyna::cbc_mac_blocks`].
//! The DSTU 7624 modes reach them through [`crate::mode::dstu7624::Dstu7624Cipher`].
//!
//! Measured on Zen 4 (AMD EPYC, family 25 model 17; 16 KiB, one thread, core cycles per
//! byte at 3.7 GHz from TSC ticks at 2.6 GHz; a shared, loaded machine):
//!
//! | variant | `x86_avx512` ECB / CTR / decrypt | `x86_avx2` ECB | `soft` ECB | Crypto++ 8.7 ECB |
//! |---------|------|------|------|------|
//! | 128/128 | 1.60 / 1.68 / 2.11 | 6.6 | 60 | 13.2 |
//! | 128/256 | 2.10 / 2.19 / 2.83 | 9.0 | 82 | 21.3 |
//! | 256/256 | 2.68 / 2.72 / 3.47 | 8.9 | 82 | 15.3 |
//! | 256/512 | 3.31 / 3.35 / 4.32 | 11.3 | 105 | 19.2 |
//! | 512/512 | 3.48 / 3.47 / 4.58 | 11.3 | 105 | 17.6 |
//!
//! One block at a time (CBC/CFB encryption, OFB, CMAC) is bound by the latency of a
//! round: on `x86_avx512` CBC runs 17.3 cycles per byte for 128/128, 26.8 for 128/256,
//! 14.4 for 256/256, 17.7 for 256/512 and 11.5 for 512/512 (Crypto++ 8.7: 13.9, 21.7,
//! 15.8, 19.6, 17.6); on `x86_avx2` (with GFNI) 36.8, 51.0, 25.5, 32.5 and 23.8. `soft` runs a
//! padded batch per block there.
//!
//! Since `soft` runs inputs longer than 512 bytes on two-word SSE2 lanes (x86-64), its ECB
//! measured on an Intel Xeon (Sapphire Rapids class, about 4 GHz): 25.3, 33.8, 34.4, 43.1
//! and 43.2 cycles per byte (Crypto++ 8.7 in the same run: 11.2-11.6, 15.7, 12.9, 14.6-15.2,
//! 14.2); the Zen 4 column above is from before that change.
//!
//! ```
//! use shyfr::kalyna::{Kalyna, Kalyna256_512};
//! let k = Kalyna256_512::new(&[7u8; 64]);
//! let mut data = [0u8; 64];
//! k.encrypt_blocks(&mut data).unwrap();
//! k.decrypt_blocks(&mut data).unwrap();
//! assert_eq!(data, [0u8; 64]);
//!
//! let any = Kalyna::new(512, &[7u8; 64]).unwrap();
//! assert_eq!(any.block_len(), 64);
//! assert!(Kalyna::new(512, &[7u8; 32]).is_err()); // 512-bit blocks need a 512-bit key
//! ```

/// The block loop of the chained modes for the one-register kernels, written once for
/// every register type: `$load(p)` / `$store(p, v)` move one block at a byte pointer,
/// `$xor` combines two blocks, `$encrypt` is the cipher on one block. It expands inside
/// the kernel's `#[target_feature]` function, whose contract is that `$iv` holds one
/// block, `$src` `$n` blocks of `$bl` bytes and `$dst` as many (not written for
/// [`Chained::Mac`]).
#[cfg(target_arch = "x86_64")]
macro_rules! chain_blocks {
    ($mode:expr, $iv:expr, $src:expr, $dst:expr, $n:expr, $bl:expr,
     $load:expr, $store:expr, $xor:expr, $encrypt:expr) => {{
        let (iv, src, dst): (&mut [u8], *const u8, *mut u8) = ($iv, $src, $dst);
        // SAFETY: `iv` holds one block (the kernel's contract). (`$load` may be a safe
        // closure holding its own `unsafe`.)
        #[allow(unused_unsafe)]
        let mut v = unsafe { $load(iv.as_ptr().cast()) };
        for j in 0..$n {
            // SAFETY: block j is inside the caller's regions (the kernel's contract).
            unsafe {
                let p = $load(src.add(j * $bl).cast());
                let d = dst.add(j * $bl).cast();
                match $mode {
                    $crate::block::kalyna::Chained::CbcEncrypt => {
                        v = $encrypt($xor(v, p));
                        $store(d, v);
                    }
                    $crate::block::kalyna::Chained::CfbEncrypt => {
                        v = $xor($encrypt(v), p);
                        $store(d, v);
                    }
                    $crate::block::kalyna::Chained::Ofb => {
                        v = $encrypt(v);
                        $store(d, $xor(v, p));
                    }
                    $crate::block::kalyna::Chained::Mac => v = $encrypt($xor(v, p)),
                }
            }
        }
        // SAFETY: as for the load.
        #[allow(unused_unsafe)]
        let () = unsafe { $store(iv.as_mut_ptr().cast(), v) };
    }};
}

#[cfg(target_arch = "aarch64")]
mod aarch64_neon;
mod soft;
#[cfg(target_arch = "x86_64")]
mod x86_avx2;
#[cfg(target_arch = "x86_64")]
mod x86_avx512;

use crate::block::{check_whole_blocks, BlockCipher, InOutBuf};
use crate::inout::InOut;
use crate::Error;

#[cfg(target_arch = "aarch64")]
use crate::cpu::aarch64 as arch_cpu;
#[cfg(target_arch = "x86_64")]
use crate::cpu::x86 as arch_cpu;

/// The most rounds of any variant (256/512 and 512/512).
pub(crate) const MAX_ROUNDS: usize = 18;

/// The round keys of one key, as the standard computes them: `rk[t][c]` is column `c`
/// (a little-endian 64-bit word) of round key `t`. Zeroed on drop.
#[derive(Clone)]
pub(crate) struct RoundKeys {
    pub(crate) rk: [[u64; 8]; MAX_ROUNDS + 1],
    /// Columns of the block (2, 4 or 8).
    pub(crate) nb: usize,
    /// Columns of the key (2, 4 or 8).
    pub(crate) nk: usize,
    /// Rounds (10, 14 or 18).
    pub(crate) nr: usize,
}

impl Drop for RoundKeys {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(self.rk.as_flattened_mut());
    }
}

/// The number of rounds of a variant, or `None` for a block/key pair the standard lacks.
const fn rounds(block_len: usize, key_len: usize) -> Option<usize> {
    match (block_len, key_len) {
        (16, 16) => Some(10),
        (16, 32) | (32, 32) => Some(14),
        (32, 64) | (64, 64) => Some(18),
        _ => None,
    }
}

/// Checks a block size in bits and a key, returning `(block_len, rounds)`.
fn check_variant(block_bits: usize, key: &[u8]) -> Result<(usize, usize), Error> {
    let bl = match block_bits {
        128 | 256 | 512 => block_bits / 8,
        _ => {
            return Err(Error::InvalidParameter {
                what: "kalyna block size (128, 256 or 512 bits)",
            })
        }
    };
    match rounds(bl, key.len()) {
        Some(nr) => Ok((bl, nr)),
        None => Err(Error::InvalidKeyLength { got: key.len() }),
    }
}

impl RoundKeys {
    /// DSTU 7624:2014 key expansion for a checked variant (`key` is one or two blocks).
    fn expand(key: &[u8], block_len: usize, nr: usize) -> RoundKeys {
        use zeroize::Zeroize;
        let nb = block_len / 8;
        let nk = key.len() / 8;
        let mut k = [0u64; 8];
        for (w, c) in k.iter_mut().zip(key.chunks_exact(8)) {
            *w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        }
        let (k0, k1) = if nk == nb {
            (k, k)
        } else {
            let mut hi = [0u64; 8];
            hi[..nb].copy_from_slice(&k[nb..2 * nb]);
            (k, hi)
        };
        // K_sigma: the state (nb + nk + 1, 0, ...) through add k0, round, xor k1, round,
        // add k0, round.
        let mut kt = [0u64; 8];
        kt[0] = (nb + nk + 1) as u64;
        add(&mut kt[..nb], &k0[..nb]);
        soft::round_words(nb, &mut kt[..nb]);
        xor(&mut kt[..nb], &k1[..nb]);
        soft::round_words(nb, &mut kt[..nb]);
        add(&mut kt[..nb], &k0[..nb]);
        soft::round_words(nb, &mut kt[..nb]);

        // Even round keys 2i, all at once: with tmv = 0x0001000100010001 << i and
        // kr = K_sigma + tmv, the key words (rotated as the standard says) + kr through
        // round, xor kr, round, add kr.
        let evens = nr / 2 + 1;
        let mut st = [0u64; 8 * (MAX_ROUNDS / 2 + 1)];
        let mut kr = [0u64; 8 * (MAX_ROUNDS / 2 + 1)];
        for i in 0..evens {
            let tmv = 0x0001_0001_0001_0001u64 << i;
            let (rot, half) = if nk == nb { (i, 0) } else { (i / 2, i % 2) };
            for c in 0..nb {
                let r = kt[c].wrapping_add(tmv);
                kr[i * nb + c] = r;
                st[i * nb + c] = k[(half * nb + c + rot) % nk].wrapping_add(r);
            }
        }
        let n = evens * nb;
        soft::round_words(nb, &mut st[..n]);
        xor(&mut st[..n], &kr[..n]);
        soft::round_words(nb, &mut st[..n]);
        add(&mut st[..n], &kr[..n]);

        let mut rk = [[0u64; 8]; MAX_ROUNDS + 1];
        for i in 0..evens {
            rk[2 * i][..nb].copy_from_slice(&st[i * nb..(i + 1) * nb]);
        }
        // Odd round keys: the even key before, as bytes, rotated left by 2 * nb + 3.
        for t in (1..nr).step_by(2) {
            let mut bytes = [0u8; 64];
            for c in 0..nb {
                bytes[8 * c..8 * c + 8].copy_from_slice(&rk[t - 1][c].to_le_bytes());
            }
            bytes[..block_len].rotate_left(2 * nb + 3);
            for c in 0..nb {
                rk[t][c] = u64::from_le_bytes(bytes[8 * c..8 * c + 8].try_into().expect("8"));
            }
            bytes.zeroize();
        }
        k.zeroize();
        let (mut k0, mut k1) = (k0, k1);
        k0.zeroize();
        k1.zeroize();
        kt.zeroize();
        st.zeroize();
        kr.zeroize();
        RoundKeys { rk, nb, nk, nr }
    }
}

fn add(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = x.wrapping_add(*y);
    }
}

fn xor(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= *y;
    }
}

crate::cpu::backends! {
    /// The implementations of Kalyna, fastest first.
    pub enum Backend("kalyna"), tokens Kernel {
        /// AVX-512 with VBMI (`vpermi2b` S-boxes) and GFNI (MDS multiplies), byte-sliced
        /// (x86-64).
        X86Avx512 = "x86_avx512" ["x86_64"] arch_cpu::Avx512VbmiGfni,
        /// AVX2 (`pshufb` S-boxes; GFNI for the MDS step where present), byte-sliced
        /// (x86-64).
        X86Avx2 = "x86_avx2" ["x86_64"] arch_cpu::Avx2,
        /// NEON (`TBL` S-boxes), byte-sliced (aarch64).
        Aarch64Neon = "aarch64_neon" ["aarch64"] arch_cpu::Neon,
        /// Portable, constant-time bitsliced code.
        Soft = "soft",
    }
    self_test = run_self_test;
}

/// Known-answer self-test of a hardware backend (see [`crate::cpu::backends`]): for each
/// of the five variants, 67 blocks (more than one batch of every wide kernel, plus a short
/// tail) and 3 blocks, both directions, must equal the portable `soft` backend, whose own
/// correctness the test suite establishes against the DSTU 7624:2014 examples.
fn run_self_test(b: Backend) -> bool {
    let mut key = [0u8; 64];
    for (i, k) in key.iter_mut().enumerate() {
        *k = (i as u8).wrapping_mul(29) ^ 0xa5;
    }
    VARIANTS.iter().all(|&(bits, kl)| {
        match (
            Kalyna::with_backend_untested(bits, &key[..kl], b),
            Kalyna::with_backend_untested(bits, &key[..kl], Backend::Soft),
        ) {
            (Ok(hw), Ok(sw)) => agree(&hw, &sw, 67) && agree(&hw, &sw, 3),
            _ => false,
        }
    })
}

/// The five variants as (block bits, key bytes).
const VARIANTS: [(usize, usize); 5] = [(128, 16), (128, 32), (256, 32), (256, 64), (512, 64)];

/// Whether `hw` encrypts `blocks` blocks as `sw` does and decrypts them back.
fn agree(hw: &Kalyna, sw: &Kalyna, blocks: usize) -> bool {
    let mut plain = [0u8; 67 * 64];
    let len = blocks * hw.block_len();
    let plain = &mut plain[..len];
    for (i, b) in plain.iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(7) ^ (i >> 8) as u8;
    }
    let mut a = [0u8; 67 * 64];
    let mut b = [0u8; 67 * 64];
    let (a, b) = (&mut a[..len], &mut b[..len]);
    a.copy_from_slice(plain);
    b.copy_from_slice(plain);
    hw.encrypt_inout(InOut::in_place(a));
    sw.encrypt_inout(InOut::in_place(b));
    let enc_ok = a == b;
    hw.decrypt_inout(InOut::in_place(a));
    enc_ok && a == plain
}

/// The chosen backend with what it precomputed from the round keys. Each zeroes itself on
/// drop.
#[derive(Clone)]
#[allow(clippy::large_enum_variant)]
enum Inner {
    #[cfg(target_arch = "x86_64")]
    Avx512(x86_avx512::Keys, arch_cpu::Avx512VbmiGfni),
    #[cfg(target_arch = "x86_64")]
    Avx2(x86_avx2::Keys, x86_avx2::Tokens),
    #[cfg(target_arch = "aarch64")]
    Neon(aarch64_neon::Keys, arch_cpu::Neon),
    Soft(soft::Keys),
}

/// Kalyna with the block size chosen at run time (128, 256 or 512 bits) and a key of one
/// or two blocks (512 bits at most).
///
/// Prefer the typed variants ([`Kalyna128_128`] ...) when the sizes are known: they
/// implement [`BlockCipher`], so the modes of [`crate::mode`] work on them.
#[derive(Clone)]
pub struct Kalyna {
    keys: RoundKeys,
    inner: Inner,
}

impl core::fmt::Debug for Kalyna {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Kalyna")
            .field("block_bits", &(self.block_len() * 8))
            .field("key_bits", &(self.key_len() * 8))
            .field("backend", &self.backend())
            .finish_non_exhaustive()
    }
}

impl Kalyna {
    /// Sets up a key for `block_bits`-bit blocks (128, 256 or 512) with the fastest
    /// available backend. The key is one or two blocks long and at most 64 bytes:
    /// [`Error::InvalidParameter`] for another block size, [`Error::InvalidKeyLength`] for
    /// another key length.
    pub fn new(block_bits: usize, key: &[u8]) -> Result<Self, Error> {
        Self::with_backend(block_bits, key, Backend::best())
    }

    /// Sets up a key with an explicit backend (for tests and benchmarks); an error if the
    /// backend is not available here.
    pub fn with_backend(block_bits: usize, key: &[u8], backend: Backend) -> Result<Self, Error> {
        check_variant(block_bits, key)?;
        if !backend.self_test() {
            return Err(Error::BackendUnavailable);
        }
        Self::with_backend_untested(block_bits, key, backend)
    }

    /// [`with_backend`](Self::with_backend) without the self-test (which uses it).
    fn with_backend_untested(
        block_bits: usize,
        key: &[u8],
        backend: Backend,
    ) -> Result<Self, Error> {
        let (bl, nr) = check_variant(block_bits, key)?;
        let keys = RoundKeys::expand(key, bl, nr);
        let inner = match backend {
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx512 => {
                let t = arch_cpu::Avx512VbmiGfni::get().ok_or(Error::BackendUnavailable)?;
                Inner::Avx512(x86_avx512::Keys::new(&keys), t)
            }
            #[cfg(target_arch = "x86_64")]
            Backend::X86Avx2 => {
                let avx2 = arch_cpu::Avx2::get().ok_or(Error::BackendUnavailable)?;
                let t = x86_avx2::Tokens {
                    avx2,
                    gfni: arch_cpu::Avx2Gfni::get(),
                };
                Inner::Avx2(x86_avx2::Keys::new(&keys), t)
            }
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64Neon => {
                let t = arch_cpu::Neon::get().ok_or(Error::BackendUnavailable)?;
                Inner::Neon(aarch64_neon::Keys::new(&keys), t)
            }
            Backend::Soft => Inner::Soft(soft::Keys::new(&keys)),
            #[allow(unreachable_patterns)]
            _ => return Err(Error::BackendUnavailable),
        };
        Ok(Kalyna { keys, inner })
    }

    /// The backend this key uses.
    pub fn backend(&self) -> Backend {
        match self.inner {
            #[cfg(target_arch = "x86_64")]
            Inner::Avx512(..) => Backend::X86Avx512,
            #[cfg(target_arch = "x86_64")]
            Inner::Avx2(..) => Backend::X86Avx2,
            #[cfg(target_arch = "aarch64")]
            Inner::Neon(..) => Backend::Aarch64Neon,
            Inner::Soft(_) => Backend::Soft,
        }
    }

    /// Block length in bytes (16, 32 or 64).
    pub fn block_len(&self) -> usize {
        8 * self.keys.nb
    }

    /// Key length in bytes.
    pub fn key_len(&self) -> usize {
        8 * self.keys.nk
    }

    /// Number of rounds (10, 14 or 18).
    pub fn rounds(&self) -> usize {
        self.keys.nr
    }

    fn encrypt_inout(&self, io: InOut<'_>) {
        match &self.inner {
            #[cfg(target_arch = "x86_64")]
            Inner::Avx512(k, t) => x86_avx512::encrypt(&self.keys, k, *t, io),
            #[cfg(target_arch = "x86_64")]
            Inner::Avx2(k, t) => x86_avx2::encrypt(&self.keys, k, *t, io),
            #[cfg(target_arch = "aarch64")]
            Inner::Neon(k, t) => aarch64_neon::encrypt(&self.keys, k, *t, io),
            Inner::Soft(k) => soft::encrypt(&self.keys, k, io),
        }
    }

    fn decrypt_inout(&self, io: InOut<'_>) {
        match &self.inner {
            #[cfg(target_arch = "x86_64")]
            Inner::Avx512(k, t) => x86_avx512::decrypt(&self.keys, k, *t, io),
            #[cfg(target_arch = "x86_64")]
            Inner::Avx2(k, t) => x86_avx2::decrypt(&self.keys, k, *t, io),
            #[cfg(target_arch = "aarch64")]
            Inner::Neon(k, t) => aarch64_neon::decrypt(&self.keys, k, *t, io),
            Inner::Soft(k) => soft::decrypt(&self.keys, k, io),
        }
    }

    /// Encrypts whole blocks in place (ECB). Error if `data` is not whole blocks.
    #[inline]
    pub fn encrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
        check_whole_blocks(data.len(), self.block_len())?;
        self.encrypt_inout(InOut::in_place(data));
        Ok(())
    }

    /// Decrypts whole blocks in place (ECB). Error if `data` is not whole blocks.
    #[inline]
    pub fn decrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
        check_whole_blocks(data.len(), self.block_len())?;
        self.decrypt_inout(InOut::in_place(data));
        Ok(())
    }

    /// Encrypts whole blocks from `input` to `output` (equal lengths).
    #[inline]
    pub fn encrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        let io = InOut::new(input, output)?;
        check_whole_blocks(io.len(), self.block_len())?;
        self.encrypt_inout(io);
        Ok(())
    }

    /// Decrypts whole blocks from `input` to `output` (equal lengths).
    #[inline]
    pub fn decrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        let io = InOut::new(input, output)?;
        check_whole_blocks(io.len(), self.block_len())?;
        self.decrypt_inout(io);
        Ok(())
    }
}

impl Kalyna {
    /// The DSTU 7624 gamma (counter mode) on whole blocks: for every block, `counter` (one
    /// block, a little-endian integer) is incremented and then encrypted, and the result
    /// XORed into the block. The kernel behind [`crate::mode::dstu7624::ctr`].
    pub fn gamma_blocks(&self, counter: &mut [u8], mut data: InOutBuf<'_>) -> Result<(), Error> {
        let bl = self.block_len();
        crate::block::check_iv(counter.len(), bl)?;
        check_whole_blocks(data.len(), bl)?;
        let nb = self.keys.nb;
        let mut ctr = [0u64; 8];
        for (w, c) in ctr.iter_mut().zip(counter.chunks_exact(8)) {
            *w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        }
        // Fused kernels take the leading batches.
        let done = match &self.inner {
            #[cfg(target_arch = "x86_64")]
            Inner::Avx512(k, t) => x86_avx512::gamma(&self.keys, k, *t, &ctr, data.inout()),
            #[cfg(target_arch = "x86_64")]
            Inner::Avx2(k, t) => {
                x86_avx2::gamma(&self.keys, k, *t, &ctr, data.inout());
                data.len() / bl
            }
            Inner::Soft(k) => {
                soft::gamma(&self.keys, k, &ctr, data.inout());
                data.len() / bl
            }
            #[cfg(target_arch = "aarch64")]
            Inner::Neon(..) => 0,
        };
        le_add_words(&mut ctr[..nb], done as u64);
        // The rest: counters written out, encrypted as blocks, XORed in.
        if done * bl < data.len() {
            let mut ks = [0u8; 4096];
            let chunk = 4096 / bl * bl;
            let mut off = done * bl;
            while off < data.len() {
                let n = chunk.min(data.len() - off);
                for blk in ks[..n].chunks_exact_mut(bl) {
                    le_add_words(&mut ctr[..nb], 1);
                    for (c, w) in blk.chunks_exact_mut(8).zip(&ctr) {
                        c.copy_from_slice(&w.to_le_bytes());
                    }
                }
                self.encrypt_inout(InOut::in_place(&mut ks[..n]));
                data.xor_at(off, &ks[..n]);
                off += n;
            }
            crate::wipe::wipe(&mut ks);
        }
        for (c, w) in counter.chunks_exact_mut(8).zip(&ctr) {
            c.copy_from_slice(&w.to_le_bytes());
        }
        zeroize::Zeroize::zeroize(&mut ctr);
        Ok(())
    }
}

impl Kalyna {
    /// One chained mode on whole blocks with a one-block chaining value.
    fn chained(&self, mode: Chained, iv: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        let bl = self.block_len();
        crate::block::check_iv(iv.len(), bl)?;
        check_whole_blocks(data.len(), bl)?;
        #[cfg(target_arch = "x86_64")]
        if let Inner::Avx512(k, t) = &self.inner {
            let mut data = data;
            x86_avx512::chained(&self.keys, k, *t, mode, iv, data.inout());
            return Ok(());
        }
        let mut data = data;
        #[cfg(target_arch = "x86_64")]
        if let Inner::Avx2(_, t) = &self.inner {
            let n = data.len() / bl;
            let mut io = data.inout();
            let (src, dst) = (io.src_ptr(), io.dst_ptr());
            // SAFETY: `io` holds n whole blocks, readable at `src` and writable at `dst`;
            // `iv` is one block (checked above).
            unsafe { x86_avx2::chained(&self.keys, *t, mode, iv, src, dst, n) };
            return Ok(());
        }
        // Portable: one block at a time through the backend's block call.
        let mut x = [0u8; 64];
        for off in (0..data.len()).step_by(bl) {
            let p = &data.input()[off..off + bl];
            match mode {
                Chained::CbcEncrypt | Chained::Mac => {
                    for (v, b) in iv.iter_mut().zip(p) {
                        *v ^= b;
                    }
                    self.encrypt_inout(InOut::in_place(iv));
                    if matches!(mode, Chained::CbcEncrypt) {
                        data.write_at(off, iv);
                    }
                }
                Chained::CfbEncrypt => {
                    self.encrypt_inout(InOut::in_place(iv));
                    for (v, b) in iv.iter_mut().zip(p) {
                        *v ^= b;
                    }
                    data.write_at(off, iv);
                }
                Chained::Ofb => {
                    self.encrypt_inout(InOut::in_place(iv));
                    for ((o, v), b) in x.iter_mut().zip(iv.iter()).zip(p) {
                        *o = v ^ b;
                    }
                    data.write_at(off, &x[..bl]);
                }
            }
        }
        crate::wipe::wipe(&mut x);
        Ok(())
    }

    /// CBC encryption of whole blocks; `iv` (one block) becomes the last ciphertext block.
    /// One block at a time with the tables in registers on `x86_avx512`.
    pub fn cbc_encrypt_blocks(&self, iv: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        self.chained(Chained::CbcEncrypt, iv, data)
    }

    /// Full-block CFB encryption of whole blocks; `iv` becomes the last ciphertext block.
    pub fn cfb_encrypt_blocks(&self, iv: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        self.chained(Chained::CfbEncrypt, iv, data)
    }

    /// OFB on whole blocks: `iv` is replaced by `E(iv)` once per block and XORed in.
    pub fn ofb_blocks(&self, iv: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        self.chained(Chained::Ofb, iv, data)
    }

    /// CBC-MAC absorption: `state = E(state ^ block)` for every whole block of `data`.
    pub fn cbc_mac_blocks(&self, state: &mut [u8], data: &[u8]) -> Result<(), Error> {
        let bl = self.block_len();
        crate::block::check_iv(state.len(), bl)?;
        check_whole_blocks(data.len(), bl)?;
        #[cfg(target_arch = "x86_64")]
        if let Inner::Avx512(k, t) = &self.inner {
            x86_avx512::mac(&self.keys, k, *t, state, data);
            return Ok(());
        }
        #[cfg(target_arch = "x86_64")]
        if let Inner::Avx2(_, t) = &self.inner {
            let src = data.as_ptr();
            let n = data.len() / bl;
            // SAFETY: `data` holds n whole blocks; in MAC mode nothing is written through
            // `dst`; `state` is one block (checked above).
            unsafe {
                x86_avx2::chained(&self.keys, *t, Chained::Mac, state, src, src.cast_mut(), n)
            };
            return Ok(());
        }
        let mut copy = [0u8; 64];
        for blk in data.chunks_exact(bl) {
            copy[..bl].copy_from_slice(blk);
            self.chained(Chained::Mac, state, InOutBuf::in_place(&mut copy[..bl]))?;
        }
        crate::wipe::wipe(&mut copy);
        Ok(())
    }
}

/// The chained modes (one block at a time), with kernels on `x86_avx512` and `x86_avx2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Chained {
    /// CBC encryption: `c = E(p ^ c_prev)`.
    CbcEncrypt,
    /// Full-block CFB encryption: `c = E(c_prev) ^ p`.
    CfbEncrypt,
    /// OFB: `o = E(o_prev)`, `c = p ^ o`.
    Ofb,
    /// CBC-MAC: `s = E(s ^ p)`, nothing written.
    Mac,
}

/// `x += n` for a little-endian integer of 64-bit words, carrying through every word.
fn le_add_words(x: &mut [u64], n: u64) {
    let mut carry = n;
    for w in x.iter_mut() {
        let (s, c) = w.overflowing_add(carry);
        *w = s;
        carry = c as u64;
    }
}

macro_rules! sized_kalyna {
    ($(#[$m:meta])* $name:ident, $bits:expr, $klen:expr) => {
        $(#[$m])*
        #[derive(Clone, Debug)]
        pub struct $name(Kalyna);

        impl $name {
            /// Block length in bytes.
            pub const BLOCK_LEN: usize = $bits / 8;
            /// Key length in bytes.
            pub const KEY_LEN: usize = $klen;

            /// Sets up the key with the fastest available backend.
            pub fn new(key: &[u8; $klen]) -> Self {
                $name(
                    Kalyna::with_backend($bits, key, Backend::best())
                        .expect("best backend is available"),
                )
            }

            /// Sets up a key given as a slice; [`Error::InvalidKeyLength`] unless it is
            #[doc = concat!(stringify!($klen), " bytes long.")]
            pub fn new_from_slice(key: &[u8]) -> Result<Self, Error> {
                if key.len() != $klen {
                    return Err(Error::InvalidKeyLength { got: key.len() });
                }
                Kalyna::new($bits, key).map($name)
            }

            /// Sets up the key with an explicit backend; an error if it is not available.
            pub fn with_backend(key: &[u8; $klen], backend: Backend) -> Result<Self, Error> {
                Kalyna::with_backend($bits, key, backend).map($name)
            }

            /// The backend this key uses.
            pub fn backend(&self) -> Backend {
                self.0.backend()
            }

            /// The run-time-sized cipher underneath.
            pub fn as_kalyna(&self) -> &Kalyna {
                &self.0
            }

            /// Encrypts one block in place.
            #[inline]
            pub fn encrypt_block(&self, block: &mut [u8; $bits / 8]) {
                self.0.encrypt_inout(InOut::in_place(block));
            }

            /// Decrypts one block in place.
            #[inline]
            pub fn decrypt_block(&self, block: &mut [u8; $bits / 8]) {
                self.0.decrypt_inout(InOut::in_place(block));
            }

            /// Encrypts whole blocks in place (ECB). Error if `data` is not whole blocks.
            #[inline]
            pub fn encrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
                self.0.encrypt_blocks(data)
            }

            /// Decrypts whole blocks in place (ECB). Error if `data` is not whole blocks.
            #[inline]
            pub fn decrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
                self.0.decrypt_blocks(data)
            }

            /// Encrypts whole blocks from `input` to `output` (equal lengths).
            #[inline]
            pub fn encrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
                self.0.encrypt_blocks_to(input, output)
            }

            /// Decrypts whole blocks from `input` to `output` (equal lengths).
            #[inline]
            pub fn decrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
                self.0.decrypt_blocks_to(input, output)
            }
        }

        /// The one-block chains run Kalyna's own kernels (the tables held in registers on
        /// `x86_avx512`); the parallel modes take the portable loops, in batches of 64 blocks
        /// (one byte-sliced pass on `x86_avx512`).
        impl crate::mode::BlockModes for $name {
            fn cbc_encrypt_blocks(&self, iv: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
                self.0.cbc_encrypt_blocks(iv, d)
            }
            fn cfb_encrypt_blocks(&self, iv: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
                self.0.cfb_encrypt_blocks(iv, d)
            }
            fn ofb_blocks(&self, iv: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
                self.0.ofb_blocks(iv, d)
            }
            fn cbc_mac_blocks(&self, state: &mut [u8], data: &[u8]) -> Result<(), Error> {
                self.0.cbc_mac_blocks(state, data)
            }
        }

        impl BlockCipher for $name {
            const BLOCK_LEN: usize = $bits / 8;
            const PAR_BLOCKS: usize = 64;
            fn encrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
                self.0.encrypt_blocks(data)
            }
            fn decrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
                self.0.decrypt_blocks(data)
            }
            fn encrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
                self.0.encrypt_blocks_to(input, output)
            }
            fn decrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
                self.0.decrypt_blocks_to(input, output)
            }
        }
    };
}

sized_kalyna!(
    /// Kalyna-128/128: 128-bit block, 128-bit key, 10 rounds.
    Kalyna128_128, 128, 16
);
sized_kalyna!(
    /// Kalyna-128/256: 128-bit block, 256-bit key, 14 rounds.
    Kalyna128_256, 128, 32
);
sized_kalyna!(
    /// Kalyna-256/256: 256-bit block, 256-bit key, 14 rounds.
    Kalyna256_256, 256, 32
);
sized_kalyna!(
    /// Kalyna-256/512: 256-bit block, 512-bit key, 18 rounds.
    Kalyna256_512, 256, 64
);
sized_kalyna!(
    /// Kalyna-512/512: 512-bit block, 512-bit key, 18 rounds.
    Kalyna512_512, 512, 64
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_test_passes_and_catches_a_wrong_key() {
        for &b in Backend::ALL {
            if !b.cpu_allows() {
                continue;
            }
            assert!(b.self_test(), "{b:?} failed its self-test");
            let good = Kalyna::with_backend_untested(128, &[3u8; 16], b).unwrap();
            let other = Kalyna::with_backend_untested(128, &[2u8; 16], Backend::Soft).unwrap();
            assert!(
                !agree(&good, &other, 3),
                "{b:?}: self-test blind to a wrong key"
            );
        }
    }

    #[test]
    fn standard_example_128_128() {
        // DSTU 7624:2014 Annex B, the first encryption example.
        let key: [u8; 16] = core::array::from_fn(|i| i as u8);
        let mut block: [u8; 16] = core::array::from_fn(|i| 0x10 + i as u8);
        let k = Kalyna::with_backend(128, &key, Backend::Soft).unwrap();
        k.encrypt_blocks(&mut block).unwrap();
        assert_eq!(
            block,
            [
                0x81, 0xbf, 0x1c, 0x7d, 0x77, 0x9b, 0xac, 0x20, 0xe1, 0xc9, 0xea, 0x39, 0xb4, 0xd2,
                0xad, 0x06
            ]
        );
    }
}
