//! Kupyna, the hash function of DSTU 7564:2014 (Ukraine), for every output length the
//! standard allows (8 to 512 bits in steps of 8), with bit-length messages.
//!
//! | output | state | block | rounds | type |
//! |--------|-------|-------|--------|------|
//! | 8..=256 bits | 512 bits (8 columns) | 64 bytes | 10 | [`Kupyna256`], or [`Kupyna`] with any length |
//! | 264..=512 bits | 1024 bits (16 columns) | 128 bytes | 14 | [`Kupyna384`], [`Kupyna512`], or [`Kupyna`] |
//!
//! The state is a matrix of 8 rows and `c` 64-bit columns (byte `r` of a little-endian
//! column is row `r`). A message is padded with one 1 bit, zeros and its length in bits as
//! a 96-bit little-endian number to whole blocks; each block `m` updates the chaining value
//! `h = T⊕(h ^ m) ^ T+(m) ^ h`, starting from `h` = the state length in bytes in byte 0;
//! the digest is the last `n` bits of `T⊕(h) ^ h`. `T⊕` and `T+` are Kalyna-like
//! permutations: each round adds a constant (XOR in row 0 for `T⊕`, addition modulo 2^64
//! per column for `T+`), then SubBytes (row `r` through Kalyna's pi_{r mod 4}), ShiftBytes
//! (row `r` rotates by `r` columns; row 7 by 11 in the 1024-bit state) and MixColumns
//! (Kalyna's MDS matrix). The S-boxes and the MDS kernels are Kalyna's, from the shared
//! `arith/gf256` room.
//!
//! For a message whose length is not a whole number of bytes, its last bits are given to
//! [`Kupyna::finalize_bits_into`] (the valid bits are the most significant bits of that
//! byte, as in the standard's examples).
//!
//! The backend is chosen when a state is created, in priority order:
//!
//! | backend | needs | layout |
//! |---------|-------|--------|
//! | `x86_avx512` | AVX-512 F/VL/BW + VBMI + GFNI | the natural layout: one 512-bit state per `zmm` (the 1024-bit one in two); `T⊕` and `T+` interleaved |
//! | `x86_avx2` | AVX2 (GFNI used when present) | row pairs: one register per S-box (rows `s` and `s + 4` of both permutations) |
//! | `aarch64_neon` | NEON | row pairs, as `x86_avx2` |
//! | `soft` | nothing (portable, bitsliced) | bit planes of both permutations' columns |
//!
//! Every backend is constant time: S-boxes are register permutes (`vpermi2b`, `pshufb`,
//! `TBL`) of tables held in registers, or Boolean circuits (`soft`); nothing indexes memory
//! or branches on the message or the chaining value.
//!
//! ```
//! use shyfr::hash::kupyna::{Kupyna, Kupyna256};
//! use shyfr::hash::Hash;
//! let d = Kupyna256::digest(b"abc");
//! assert_eq!(d[..4], [0x0b, 0xd1, 0xb3, 0x61]);
//! // Kupyna-48 is the last 6 bytes of the 512-bit-state output.
//! let mut out = [0u8; 6];
//! let mut h = Kupyna::new(48).unwrap();
//! h.update(b"abc");
//! h.finalize_into(&mut out).unwrap();
//! assert_eq!(out, d[26..]);
//! assert!(Kupyna::new(260).is_err()); // whole bytes only
//! ```

#[cfg(target_arch = "aarch64")]
mod aarch64_neon;
mod soft;
#[cfg(target_arch = "x86_64")]
mod x86_avx2;
#[cfg(target_arch = "x86_64")]
mod x86_avx512;

use core::fmt;

use super::Hash;
use crate::Error;

#[cfg(target_arch = "aarch64")]
use crate::cpu::aarch64 as arch_cpu;
#[cfg(target_arch = "x86_64")]
use crate::cpu::x86 as arch_cpu;

/// The shortest output in bits.
pub const MIN_OUTPUT_BITS: usize = 8;
/// The longest output in bits.
pub const MAX_OUTPUT_BITS: usize = 512;

/// The additive round constant of `T+` before its top byte: column `j` of round `v` adds
/// `PLUS_BASE ^ (((c - 1 - j) * 16 ^ v) << 56)` modulo 2^64.
pub(crate) const PLUS_BASE: u64 = 0x00f0_f0f0_f0f0_f0f3;

/// Rounds of the permutations for a state of `cols` columns.
pub(crate) const fn rounds(cols: usize) -> usize {
    if cols == 8 {
        10
    } else {
        14
    }
}

/// The XOR round constant of `T⊕` for column `j` of round `v` (row 0, the low byte).
#[allow(dead_code)]
pub(crate) const fn xor_const(j: usize, v: usize) -> u64 {
    ((j << 4) ^ v) as u64
}

/// The additive round constant of `T+` for column `j` of `cols`, round `v`.
#[allow(dead_code)]
pub(crate) const fn plus_const(j: usize, cols: usize, v: usize) -> u64 {
    PLUS_BASE ^ ((((cols - 1 - j) << 4) ^ v) as u64) << 56
}

/// The 8x8 byte transpose of eight words: byte `j` of word `i` swaps with byte `i` of word
/// `j` (columns to rows and back; the row-pair backends' layout change).
#[allow(dead_code)]
pub(crate) fn transpose8(x: &mut [u64; 8]) {
    for (d, m) in [
        (32u32, 0x0000_0000_ffff_ffffu64),
        (16, 0x0000_ffff_0000_ffff),
        (8, 0x00ff_00ff_00ff_00ff),
    ] {
        let step = (d / 8) as usize;
        for i in 0..8 {
            if i & step == 0 {
                let t = ((x[i] >> d) ^ x[i + step]) & m;
                x[i] ^= t << d;
                x[i + step] ^= t;
            }
        }
    }
}

/// Byte `r` of the `T+` round constant of column `c` (of `cols`) in round `v`.
#[allow(dead_code)]
pub(crate) const fn plus_byte(v: usize, r: usize, c: usize, cols: usize) -> u8 {
    (plus_const(c, cols, v) >> (8 * r)) as u8
}

crate::cpu::backends! {
    /// The implementations of Kupyna, fastest first.
    pub enum Backend("kupyna"), tokens Kernel {
        /// AVX-512 with VBMI (`vpermi2b` S-boxes) and GFNI (MDS multiplies), one state per
        /// register (x86-64).
        X86Avx512 = "x86_avx512" ["x86_64"] arch_cpu::Avx512VbmiGfni,
        /// AVX2 (`pshufb` S-boxes; GFNI for the MDS step where present), one register per
        /// S-box (x86-64).
        X86Avx2 = "x86_avx2" ["x86_64"] arch_cpu::Avx2,
        /// NEON (`TBL` S-boxes), one register per S-box (aarch64).
        Aarch64Neon = "aarch64_neon" ["aarch64"] arch_cpu::Neon,
        /// Portable, constant-time bitsliced code.
        Soft = "soft",
    }
    self_test = run_self_test;
}

/// Known-answer self-test of a hardware backend (see [`crate::cpu::backends`]): for both
/// state sizes, 41 fixed blocks compressed in calls of 1, 2, 3 and 35 blocks, then the
/// output transformation, must equal the portable `soft` backend, whose own correctness
/// the test suite establishes against the DSTU 7564:2014 examples.
fn run_self_test(b: Backend) -> bool {
    let Some(k) = Kernel::new(b) else {
        return false;
    };
    let mut iv = [0u64; 16];
    for (i, w) in iv.iter_mut().enumerate() {
        *w = (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    let narrow = super::self_test_blocks::<64, [u64; 16]>(
        iv,
        |h, blocks| {
            compress(k, h, 8, blocks.as_flattened());
            true
        },
        |h, blocks| soft::compress(h, 8, blocks.as_flattened()),
    );
    let wide = super::self_test_blocks::<128, [u64; 16]>(
        iv,
        |h, blocks| {
            compress(k, h, 16, blocks.as_flattened());
            true
        },
        |h, blocks| soft::compress(h, 16, blocks.as_flattened()),
    );
    let fin = [8usize, 16].iter().all(|&cols| {
        let (mut a, mut b) = (iv, iv);
        finish(k, &mut a, cols);
        soft::finish(&mut b, cols);
        a == b
    });
    narrow && wide && fin
}

/// Compresses whole blocks (`8 * cols` bytes each) into `h` on the kernel `k`.
#[inline]
fn compress(k: Kernel, h: &mut [u64; 16], cols: usize, blocks: &[u8]) {
    debug_assert!(blocks.len().is_multiple_of(8 * cols));
    match k {
        #[cfg(target_arch = "x86_64")]
        Kernel::X86Avx512(t) => x86_avx512::compress(t, h, cols, blocks),
        #[cfg(target_arch = "x86_64")]
        Kernel::X86Avx2(t) => x86_avx2::compress(t, h, cols, blocks),
        #[cfg(target_arch = "aarch64")]
        Kernel::Aarch64Neon(t) => aarch64_neon::compress(t, h, cols, blocks),
        Kernel::Soft => soft::compress(h, cols, blocks),
    }
}

/// The output transformation `h = T⊕(h) ^ h` on the kernel `k`.
#[inline]
fn finish(k: Kernel, h: &mut [u64; 16], cols: usize) {
    match k {
        #[cfg(target_arch = "x86_64")]
        Kernel::X86Avx512(t) => x86_avx512::finish(t, h, cols),
        #[cfg(target_arch = "x86_64")]
        Kernel::X86Avx2(t) => x86_avx2::finish(t, h, cols),
        #[cfg(target_arch = "aarch64")]
        Kernel::Aarch64Neon(t) => aarch64_neon::finish(t, h, cols),
        Kernel::Soft => soft::finish(h, cols),
    }
}

/// Kupyna with the output length chosen at run time (8 to 512 bits, whole bytes), with
/// streaming input.
///
/// `new`, any number of `update`s (any split of the input gives the same digest), then
/// [`finalize_into`](Self::finalize_into) or, for a message that ends in a partial byte,
/// [`finalize_bits_into`](Self::finalize_bits_into). `Clone` forks a state; the chaining
/// value and buffered input are overwritten on drop. No method allocates.
#[derive(Clone)]
pub struct Kupyna {
    kernel: Kernel,
    h: [u64; 16],
    /// Columns of the state: 8 (512 bits) or 16 (1024 bits).
    cols: usize,
    /// Output length in bytes.
    out_len: usize,
    buf: [u8; 128],
    pos: usize,
    /// Bytes absorbed, modulo 2^128 (the length field takes 96 bits of eight times it).
    len: u128,
}

impl fmt::Debug for Kupyna {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Kupyna")
            .field("output_bits", &(8 * self.out_len))
            .field("backend", &self.backend())
            .finish_non_exhaustive()
    }
}

impl Drop for Kupyna {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.h);
        zeroize::Zeroize::zeroize(&mut self.buf);
    }
}

impl Kupyna {
    /// A fresh state for `output_bits`-bit digests (8 to 512, a multiple of 8) on the
    /// fastest backend; [`Error::InvalidParameter`] for another length.
    pub fn new(output_bits: usize) -> Result<Self, Error> {
        Self::with_kernel(output_bits, Kernel::best())
    }

    /// [`new`](Self::new) on an explicit backend (for tests and benchmarks);
    /// [`Error::BackendUnavailable`] if it cannot run here.
    pub fn with_backend(output_bits: usize, backend: Backend) -> Result<Self, Error> {
        Self::with_kernel(output_bits, Kernel::checked(backend)?)
    }

    fn with_kernel(output_bits: usize, kernel: Kernel) -> Result<Self, Error> {
        if !(MIN_OUTPUT_BITS..=MAX_OUTPUT_BITS).contains(&output_bits)
            || !output_bits.is_multiple_of(8)
        {
            return Err(Error::InvalidParameter {
                what: "kupyna output length (8 to 512 bits, a multiple of 8)",
            });
        }
        let cols = if output_bits <= 256 { 8 } else { 16 };
        let mut s = Kupyna {
            kernel,
            h: [0; 16],
            cols,
            out_len: output_bits / 8,
            buf: [0; 128],
            pos: 0,
            len: 0,
        };
        s.reset();
        Ok(s)
    }

    /// The backend this state runs on.
    pub fn backend(&self) -> Backend {
        self.kernel.backend()
    }

    /// Output length in bytes.
    pub fn output_len(&self) -> usize {
        self.out_len
    }

    /// Block length in bytes: 64 for outputs up to 256 bits, 128 above.
    pub fn block_len(&self) -> usize {
        8 * self.cols
    }

    /// Returns to the fresh state (same output length and backend).
    pub fn reset(&mut self) {
        self.h = [0; 16];
        // The initial value: the state length in bytes, in byte 0.
        self.h[0] = 8 * self.cols as u64;
        self.pos = 0;
        self.len = 0;
    }

    /// Absorbs `data`.
    pub fn update(&mut self, mut data: &[u8]) {
        let bl = self.block_len();
        self.len = self.len.wrapping_add(data.len() as u128);
        if self.pos > 0 {
            let take = (bl - self.pos).min(data.len());
            self.buf[self.pos..self.pos + take].copy_from_slice(&data[..take]);
            self.pos += take;
            data = &data[take..];
            if self.pos < bl {
                return;
            }
            compress(self.kernel, &mut self.h, self.cols, &self.buf[..bl]);
            self.pos = 0;
        }
        let whole = data.len() / bl * bl;
        if whole > 0 {
            compress(self.kernel, &mut self.h, self.cols, &data[..whole]);
        }
        let rest = &data[whole..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.pos = rest.len();
    }

    /// Finishes a message of whole bytes and writes the digest to `out`, which must be
    /// [`output_len`](Self::output_len) bytes ([`Error::InvalidParameter`] otherwise).
    pub fn finalize_into(self, out: &mut [u8]) -> Result<(), Error> {
        self.finalize_bits_into(0, 0, out)
    }

    /// Finishes a message whose last `bits` bits (0 to 7) are the most significant bits
    /// of `last` (its other bits are ignored), after the whole bytes given to
    /// [`update`](Self::update), and writes the digest to `out`
    /// ([`output_len`](Self::output_len) bytes). [`Error::InvalidParameter`] for `bits`
    /// above 7 or a wrong output length.
    pub fn finalize_bits_into(
        mut self,
        last: u8,
        bits: usize,
        out: &mut [u8],
    ) -> Result<(), Error> {
        if bits > 7 {
            return Err(Error::InvalidParameter {
                what: "kupyna final bits (0 to 7)",
            });
        }
        if out.len() != self.out_len {
            return Err(Error::InvalidParameter {
                what: "kupyna output buffer (the output length)",
            });
        }
        let mut full = [0u8; 128];
        self.finish_into(last, bits, &mut full);
        let n = 8 * self.cols;
        out.copy_from_slice(&full[n - self.out_len..n]);
        zeroize::Zeroize::zeroize(&mut full);
        Ok(())
    }

    /// Pads, compresses the last block(s), applies the output transformation and writes
    /// the whole state (`8 * cols` bytes) to `out`.
    fn finish_into(&mut self, last: u8, bits: usize, out: &mut [u8; 128]) {
        let bl = self.block_len();
        let total_bits = self.len.wrapping_mul(8).wrapping_add(bits as u128);
        let pos = self.pos;
        // The message's last bits and the 1 bit right after them, then zeros.
        let keep = !(0xffu8 >> bits);
        self.buf[pos] = (last & keep) | (0x80 >> bits);
        self.buf[pos + 1..bl].fill(0);
        if pos + 1 > bl - 12 {
            compress(self.kernel, &mut self.h, self.cols, &self.buf[..bl]);
            self.buf[..bl].fill(0);
        }
        self.buf[bl - 12..bl].copy_from_slice(&total_bits.to_le_bytes()[..12]);
        compress(self.kernel, &mut self.h, self.cols, &self.buf[..bl]);
        finish(self.kernel, &mut self.h, self.cols);
        for (c, w) in out.chunks_exact_mut(8).zip(&self.h[..self.cols]) {
            c.copy_from_slice(&w.to_le_bytes());
        }
    }

    /// One-shot digest of the first `bit_len` bits of `msg` (the bits of a partial last
    /// byte are its most significant ones) into `out`, with `8 * out.len()` output bits.
    /// [`Error::InvalidParameter`] if `msg` is shorter than `bit_len` bits or `out` is not
    /// 1 to 64 bytes.
    pub fn digest_bits(msg: &[u8], bit_len: usize, out: &mut [u8]) -> Result<(), Error> {
        if msg.len() < bit_len.div_ceil(8) {
            return Err(Error::InvalidParameter {
                what: "kupyna message shorter than its bit length",
            });
        }
        let mut h = Kupyna::new(8 * out.len())?;
        h.update(&msg[..bit_len / 8]);
        let bits = bit_len % 8;
        let last = if bits > 0 { msg[bit_len / 8] } else { 0 };
        h.finalize_bits_into(last, bits, out)
    }
}

macro_rules! sized_kupyna {
    ($(#[$m:meta])* $name:ident, $bits:expr, $name_str:expr) => {
        $(#[$m])*
        #[derive(Clone, Debug)]
        pub struct $name(Kupyna);

        impl $name {
            /// Digest length in bytes.
            pub const OUTPUT_LEN: usize = $bits / 8;
            /// Block length in bytes (also HMAC's block length).
            pub const BLOCK_LEN: usize = if $bits <= 256 { 64 } else { 128 };

            /// A fresh state on an explicit backend (for tests and benchmarks);
            /// [`Error::BackendUnavailable`] if it cannot run here.
            pub fn with_backend(backend: Backend) -> Result<Self, Error> {
                Kupyna::with_backend($bits, backend).map($name)
            }

            /// The backend this state runs on.
            pub fn backend(&self) -> Backend {
                self.0.backend()
            }

            /// Finishes a message whose last `bits` bits (0 to 7) are the most significant
            /// bits of `last`; [`Error::InvalidParameter`] for `bits` above 7.
            pub fn finalize_bits(self, last: u8, bits: usize) -> Result<[u8; $bits / 8], Error> {
                let mut out = [0u8; $bits / 8];
                self.0.finalize_bits_into(last, bits, &mut out)?;
                Ok(out)
            }
        }

        impl Hash for $name {
            const NAME: &'static str = $name_str;
            const OUTPUT_LEN: usize = $bits / 8;
            const BLOCK_LEN: usize = if $bits <= 256 { 64 } else { 128 };
            type Output = [u8; $bits / 8];

            fn new() -> Self {
                $name(Kupyna::new($bits).expect("a standard length"))
            }
            #[inline]
            fn update(&mut self, data: &[u8]) {
                self.0.update(data);
            }
            fn finalize(self) -> Self::Output {
                let mut out = [0u8; $bits / 8];
                self.0.finalize_into(&mut out).expect("the output length");
                out
            }
            fn reset(&mut self) {
                self.0.reset();
            }
        }
    };
}

sized_kupyna!(
    /// Kupyna-256: 256-bit digests, 512-bit state, 64-byte blocks.
    Kupyna256, 256, "kupyna-256"
);
sized_kupyna!(
    /// Kupyna-384: 384-bit digests, 1024-bit state, 128-byte blocks.
    Kupyna384, 384, "kupyna-384"
);
sized_kupyna!(
    /// Kupyna-512: 512-bit digests, 1024-bit state, 128-byte blocks.
    Kupyna512, 512, "kupyna-512"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_test_passes_on_every_backend() {
        for &b in Backend::ALL {
            if b.cpu_allows() {
                assert!(b.self_test(), "{b:?} failed its self-test");
            }
        }
    }

    #[test]
    fn byte_transpose() {
        let cols: [u64; 8] = core::array::from_fn(|c| {
            u64::from_le_bytes(core::array::from_fn(|r| (16 * c + r) as u8))
        });
        let mut rows = cols;
        transpose8(&mut rows);
        for (r, row) in rows.iter().enumerate() {
            for c in 0..8 {
                assert_eq!((row >> (8 * c)) as u8, (16 * c + r) as u8);
            }
        }
        transpose8(&mut rows);
        assert_eq!(rows, cols);
    }

    #[test]
    fn constants_as_in_the_standard() {
        // Kupyna-256 round 0: column 0 of T+ adds F3 F0 F0 F0 F0 F0 F0 70 (bytes).
        assert_eq!(plus_const(0, 8, 0), 0x70f0_f0f0_f0f0_f0f3);
        assert_eq!(plus_const(7, 8, 3), 0x03f0_f0f0_f0f0_f0f3);
        assert_eq!(plus_const(0, 16, 13), 0xfdf0_f0f0_f0f0_f0f3);
        assert_eq!(xor_const(15, 13), 0xfd);
        assert_eq!(soft::shift(7, 16), 11);
        assert_eq!(soft::shift(7, 8), 7);
    }
}
