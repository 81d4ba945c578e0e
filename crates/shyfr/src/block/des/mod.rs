//! DES (FIPS 46-3) and triple DES (TDEA, NIST SP 800-67: EDE with three keys, or two keys
//! with `K3 = K1`). **Legacy**: DES's 56-bit key is broken by exhaustive search and its
//! 64-bit block limits any key to a few gigabytes of data (Sweet32); SP 800-67 rev. 2
//! allows TDEA only for decrypting existing data since 2024. They are here to read and
//! write data that other systems still produce; use AES for anything new.
//!
//! [`Des`] and [`Tdes`] implement [`BlockCipher`] (8-byte blocks), so every mode of
//! [`crate::mode`] (ECB, CBC, CFB-1/8/64, OFB, CTR, CMAC) works over them. The parity
//! bits of the keys (the last bit of every byte) are ignored, as FIPS 46-3 allows; weak
//! and semi-weak keys are not rejected.
//!
//! The backend is chosen once, when the key is set up, in priority order:
//!
//! | backend      | needs           | bulk path (ECB, CBC/CFB decryption) | one block at a time |
//! |--------------|-----------------|-------------------------------------|---------------------|
//! | `x86_avx512` | AVX-512 F/VL/BW | bitsliced, 512 blocks per pass (`vpternlogq`) | with VBMI + BITALG: `vpshufbitqmb` bit look-ups; else the AVX2 kernel |
//! | `x86_avx2`   | AVX2            | bitsliced, 256 blocks per pass      | AVX2 kernel (`vpsrlvq`/`vpsllvq` look-ups) |
//! | `aarch64_neon` | NEON          | bitsliced, 128 blocks per pass      | portable |
//! | `soft`       | nothing         | bitsliced, 64 blocks per pass       | portable (rotated truth tables) |
//!
//! All backends share one bitsliced core (`bitsliced.rs`, generic over the word width).
//! The serial modes (CBC/CFB encryption, OFB, CMAC) and inputs too short for a pass go
//! one block at a time: portably with each S-box output bit a 64-bit truth table in a
//! register read by a rotation of data-dependent amount, on x86 with 32 such look-ups
//! side by side in vector lanes (AVX2 variable shifts, or AVX-512 BITALG's
//! `vpshufbitqmb`, which reads 64-bit tables by 6-bit indices directly). All of it is
//! constant time: the bitsliced core has no tables at all, and no path indexes memory
//! with data or branches on it.
//!
//! Measured (Zen 4, 16 KiB, `shyfr-bench-gost`): triple DES ECB 10-12 cycles/byte on
//! `x86_avx512` (OpenSSL 3.0 `des-ede3`: 110), CBC encryption (serial) about 154 with
//! the BITALG kernel, 187 with the AVX2 one (OpenSSL: 117).
//!
//! ```
//! use shyfr::des::Tdes;
//! let key: [u8; 24] = core::array::from_fn(|i| i as u8 * 7);
//! let t = Tdes::new(&key);
//! let mut data = [0u8; 64];
//! t.encrypt_blocks(&mut data).unwrap();
//! t.decrypt_blocks(&mut data).unwrap();
//! assert_eq!(data, [0u8; 64]);
//! assert!(Tdes::new_from_slice(&key[..20]).is_err());
//! ```

mod bitsliced;
mod soft;
mod tables;

#[cfg(target_arch = "aarch64")]
mod aarch64_neon;
#[cfg(target_arch = "x86_64")]
mod x86_avx2;
#[cfg(target_arch = "x86_64")]
mod x86_avx512;

use crate::block::{check_whole_blocks, BlockCipher};
use crate::inout::InOut;
use crate::Error;

#[cfg(target_arch = "aarch64")]
use crate::cpu::aarch64 as arch_cpu;
#[cfg(target_arch = "x86_64")]
use crate::cpu::x86 as arch_cpu;

use tables::{PC1, PC2, SHIFTS};

/// Block length in bytes.
pub const BLOCK_LEN: usize = 8;

/// One block.
pub type Block = [u8; BLOCK_LEN];

crate::cpu::backends! {
    /// The implementations of DES, fastest first.
    pub enum Backend("des"), tokens Inner {
        /// Bitsliced on 512-bit registers with AVX-512 (x86-64).
        X86Avx512 = "x86_avx512" ["x86_64"] arch_cpu::Avx512,
        /// Bitsliced on 256-bit registers with AVX2 (x86-64).
        X86Avx2 = "x86_avx2" ["x86_64"] arch_cpu::Avx2,
        /// Bitsliced on 128-bit NEON registers (aarch64).
        Aarch64Neon = "aarch64_neon" ["aarch64"] arch_cpu::Neon,
        /// Portable, constant-time code (bitsliced on 64-bit words).
        Soft = "soft",
    }
    self_test = self_test;
}

/// Known-answer self-test of a hardware backend (see [`crate::cpu::backends`]): triple
/// DES over 600 blocks (more than one pass of every backend, and a short rest) and over
/// 3 blocks (the one-block kernel) both ways must equal the portable `soft` backend, whose
/// correctness the test suite establishes against the NIST vectors.
fn self_test(b: Backend) -> bool {
    let Some(inner) = Inner::new(b) else {
        return false;
    };
    let key: [u8; 24] = core::array::from_fn(|i| (i as u8).wrapping_mul(29) ^ 0xa5);
    agree(inner, &Keys::new(&key, 3))
}

/// Whether `inner` encrypts 600 blocks as `soft` does and decrypts them back.
fn agree(inner: Inner, keys: &Keys) -> bool {
    const N: usize = 600;
    let mut plain = [0u8; 8 * N];
    for (i, b) in plain.iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(7) ^ (i >> 8) as u8;
    }
    [N, 3].into_iter().all(|n| {
        let plain = &plain[..8 * n];
        let (mut a, mut b) = ([0u8; 8 * N], [0u8; 8 * N]);
        let (a, b) = (&mut a[..8 * n], &mut b[..8 * n]);
        a.copy_from_slice(plain);
        b.copy_from_slice(plain);
        inner.crypt(keys, false, InOut::in_place(a));
        Inner::Soft.crypt(keys, false, InOut::in_place(b));
        let enc = a == b;
        inner.crypt(keys, true, InOut::in_place(a));
        enc && a == plain
    })
}

impl Inner {
    /// ECB over whole blocks.
    fn crypt(self, keys: &Keys, decrypt: bool, io: InOut<'_>) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Inner::X86Avx512(t) => x86_avx512::crypt(t, keys, decrypt, io),
            #[cfg(target_arch = "x86_64")]
            Inner::X86Avx2(t) => x86_avx2::crypt(t, keys, decrypt, io),
            #[cfg(target_arch = "aarch64")]
            Inner::Aarch64Neon(t) => aarch64_neon::crypt(t, keys, decrypt, io),
            Inner::Soft => soft::crypt(keys, decrypt, io),
        }
    }
}

/// The subkeys of one (DES) or three (EDE) keys, zeroed on drop: for the bitsliced core
/// as 48-bit words (bit 47 = subkey bit 1), for the one-block path as eight 6-bit chunks.
#[derive(Clone)]
pub(crate) struct Keys {
    sub: [[u64; 16]; 3],
    k6: [[[u8; 8]; 16]; 3],
    /// 1 (DES) or 3 (EDE).
    n: usize,
}

impl Keys {
    /// `key` is `8 n` bytes (`n` = 1 or 3).
    fn new(key: &[u8], n: usize) -> Self {
        let mut k = Keys {
            sub: [[0; 16]; 3],
            k6: [[[0; 8]; 16]; 3],
            n,
        };
        for s in 0..n {
            let x = u64::from_be_bytes(key[8 * s..8 * s + 8].try_into().expect("8 bytes"));
            k.sub[s] = schedule(x);
            for (r, sub) in k.sub[s].iter().enumerate() {
                for (c, chunk) in k.k6[s][r].iter_mut().enumerate() {
                    *chunk = ((sub >> (42 - 6 * c)) & 63) as u8;
                }
            }
        }
        k
    }
}

impl Drop for Keys {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(self.sub.as_flattened_mut());
        for s in self.k6.iter_mut() {
            zeroize::Zeroize::zeroize(s.as_flattened_mut());
        }
    }
}

/// FIPS 46-3 key schedule of the 64-bit key `key` (bit 1 the most significant): the 16
/// subkeys, bit 47 of each being subkey bit 1. Fixed bit permutations only: constant
/// time.
fn schedule(key: u64) -> [u64; 16] {
    let bit = |x: u64, width: u32, pos: u8| (x >> (width - pos as u32)) & 1;
    let mut cd = 0u64; // 56 bits, C in the high 28
    for &p in PC1.iter() {
        cd = (cd << 1) | bit(key, 64, p);
    }
    let (mut c, mut d) = ((cd >> 28) as u32, (cd & 0x0fff_ffff) as u32);
    let rot28 = |x: u32, n: u8| ((x << n) | (x >> (28 - n))) & 0x0fff_ffff;
    let mut out = [0u64; 16];
    for (r, o) in out.iter_mut().enumerate() {
        c = rot28(c, SHIFTS[r]);
        d = rot28(d, SHIFTS[r]);
        let cd = (c as u64) << 28 | d as u64;
        for &p in PC2.iter() {
            *o = (*o << 1) | bit(cd, 56, p);
        }
    }
    zeroize::Zeroize::zeroize(&mut c);
    zeroize::Zeroize::zeroize(&mut d);
    out
}

macro_rules! cipher {
    ($(#[$m:meta])* $name:ident, $what:literal) => {
        $(#[$m])*
        #[derive(Clone)]
        pub struct $name {
            inner: Inner,
            keys: Keys,
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("backend", &self.backend())
                    .finish_non_exhaustive()
            }
        }

        impl $name {
            /// Block length in bytes.
            pub const BLOCK_LEN: usize = BLOCK_LEN;

            fn build(key: &[u8], n: usize, backend: Backend) -> Result<Self, Error> {
                if !backend.self_test() {
                    return Err(Error::BackendUnavailable);
                }
                let inner = Inner::new(backend).ok_or(Error::BackendUnavailable)?;
                Ok($name {
                    inner,
                    keys: Keys::new(key, n),
                })
            }

            /// The backend this key uses.
            pub fn backend(&self) -> Backend {
                self.inner.backend()
            }

            /// Encrypts one block in place.
            #[inline]
            pub fn encrypt_block(&self, block: &mut Block) {
                self.inner.crypt(&self.keys, false, InOut::in_place(block));
            }

            /// Decrypts one block in place.
            #[inline]
            pub fn decrypt_block(&self, block: &mut Block) {
                self.inner.crypt(&self.keys, true, InOut::in_place(block));
            }

            #[doc = concat!("Encrypts whole blocks in place (", $what, " ECB); [`Error::NotWholeBlocks`] otherwise.")]
            pub fn encrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
                check_whole_blocks(data.len(), BLOCK_LEN)?;
                self.inner.crypt(&self.keys, false, InOut::in_place(data));
                Ok(())
            }

            /// Decrypts whole blocks in place; [`Error::NotWholeBlocks`] otherwise.
            pub fn decrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
                check_whole_blocks(data.len(), BLOCK_LEN)?;
                self.inner.crypt(&self.keys, true, InOut::in_place(data));
                Ok(())
            }

            /// Encrypts whole blocks from `input` to `output` (equal lengths).
            pub fn encrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
                let io = InOut::new(input, output)?;
                check_whole_blocks(io.len(), BLOCK_LEN)?;
                self.inner.crypt(&self.keys, false, io);
                Ok(())
            }

            /// Decrypts whole blocks from `input` to `output` (equal lengths).
            pub fn decrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
                let io = InOut::new(input, output)?;
                check_whole_blocks(io.len(), BLOCK_LEN)?;
                self.inner.crypt(&self.keys, true, io);
                Ok(())
            }
        }

        /// The modes' portable loops, in batches of up to 512 blocks (one pass of the
        /// widest bitsliced kernel).
        impl crate::mode::BlockModes for $name {}

        impl BlockCipher for $name {
            const BLOCK_LEN: usize = BLOCK_LEN;
            const PAR_BLOCKS: usize = 512;
            fn encrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
                $name::encrypt_blocks(self, data)
            }
            fn decrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
                $name::decrypt_blocks(self, data)
            }
            fn encrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
                $name::encrypt_blocks_to(self, input, output)
            }
            fn decrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
                $name::decrypt_blocks_to(self, input, output)
            }
        }
    };
}

cipher!(
    /// Single DES with an 8-byte key (56 bits used). Legacy: see the [module docs](self).
    Des,
    "DES"
);

cipher!(
    /// Triple DES (TDEA, EDE: `C = E_K3(D_K2(E_K1(P)))`) with three keys (24 bytes,
    /// "keying option 1") or two (16 bytes, `K3 = K1`, "keying option 2"). A 24-byte key
    /// with `K1 = K2 = K3` is single DES. Legacy: see the [module docs](self).
    ///
    /// Byte-compatible with OpenSSL's `des-ede3` (24-byte key) and `des-ede` (16-byte key).
    Tdes,
    "triple DES"
);

impl Des {
    /// Key length in bytes.
    pub const KEY_LEN: usize = 8;

    /// Sets up `key` on the fastest backend.
    pub fn new(key: &[u8; 8]) -> Self {
        Self::build(key, 1, Backend::best()).expect("the best backend is available")
    }

    /// Sets up a key given as a slice; [`Error::InvalidKeyLength`] unless it is 8 bytes.
    pub fn new_from_slice(key: &[u8]) -> Result<Self, Error> {
        Self::with_backend(key, Backend::best())
    }

    /// Sets up a key with an explicit backend; [`Error::InvalidKeyLength`] unless the key
    /// is 8 bytes, [`Error::BackendUnavailable`] if the backend cannot run here.
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<Self, Error> {
        if key.len() != 8 {
            return Err(Error::InvalidKeyLength { got: key.len() });
        }
        Self::build(key, 1, backend)
    }
}

impl Tdes {
    /// Three-key length in bytes.
    pub const KEY_LEN: usize = 24;
    /// Two-key length in bytes.
    pub const TWO_KEY_LEN: usize = 16;

    /// Sets up a three-key (24-byte) key on the fastest backend.
    pub fn new(key: &[u8; 24]) -> Self {
        Self::build(key, 3, Backend::best()).expect("the best backend is available")
    }

    /// Sets up a two-key (16-byte) key, `K3 = K1`, on the fastest backend.
    pub fn new_two_key(key: &[u8; 16]) -> Self {
        Self::with_backend(key, Backend::best()).expect("the best backend is available")
    }

    /// Sets up a 24-byte (three keys) or 16-byte (two keys) key;
    /// [`Error::InvalidKeyLength`] otherwise.
    pub fn new_from_slice(key: &[u8]) -> Result<Self, Error> {
        Self::with_backend(key, Backend::best())
    }

    /// [`new_from_slice`](Self::new_from_slice) with an explicit backend;
    /// [`Error::BackendUnavailable`] if it cannot run here.
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<Self, Error> {
        match key.len() {
            24 => Self::build(key, 3, backend),
            16 => {
                let mut k = [0u8; 24];
                k[..16].copy_from_slice(key);
                k[16..].copy_from_slice(&key[..8]);
                let r = Self::build(&k, 3, backend);
                zeroize::Zeroize::zeroize(&mut k);
                r
            }
            n => Err(Error::InvalidKeyLength { got: n }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FIPS 81 / the classic worked example: key 133457799BBCDFF1, plaintext
    /// 0123456789ABCDEF, ciphertext 85E813540F0AB405.
    #[test]
    fn worked_example_on_both_paths() {
        let keys = Keys::new(&0x1334_5779_9bbc_dff1u64.to_be_bytes(), 1);
        let c = soft::crypt_one(&keys, 0x0123_4567_89ab_cdef, false);
        assert_eq!(c, 0x85e8_1354_0f0a_b405);
        assert_eq!(soft::crypt_one(&keys, c, true), 0x0123_4567_89ab_cdef);
        let mut buf = [0u8; 8 * 70];
        for blk in buf.chunks_exact_mut(8) {
            blk.copy_from_slice(&0x0123_4567_89ab_cdefu64.to_be_bytes());
        }
        Inner::Soft.crypt(&keys, false, InOut::in_place(&mut buf));
        for blk in buf.chunks_exact(8) {
            assert_eq!(blk, 0x85e8_1354_0f0a_b405u64.to_be_bytes());
        }
    }

    #[test]
    fn transpose_is_its_own_inverse_and_transposes() {
        let mut m: [u64; 64] =
            core::array::from_fn(|i| (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let orig = m;
        bitsliced::transpose(&mut m);
        for (p, row) in m.iter().enumerate() {
            for (b, col) in orig.iter().enumerate() {
                assert_eq!((row >> b) & 1, (col >> p) & 1);
            }
        }
        bitsliced::transpose(&mut m);
        assert_eq!(m, orig);
    }

    #[test]
    fn self_test_passes_and_catches_a_wrong_key() {
        let good = Keys::new(&[7u8; 24], 3);
        let mut other = good.clone();
        other.sub[1][5] ^= 1;
        for &b in Backend::ALL {
            let Some(inner) = Inner::new(b) else { continue };
            assert!(b.self_test(), "{b:?} failed its self-test");
            assert!(agree(inner, &good));
            // A backend using a different subkey than `soft` must be caught.
            let mut x = [0u8; 8 * 600];
            let mut y = [0u8; 8 * 600];
            inner.crypt(&other, false, InOut::in_place(&mut x));
            Inner::Soft.crypt(&good, false, InOut::in_place(&mut y));
            assert_ne!(x, y);
        }
    }
}
