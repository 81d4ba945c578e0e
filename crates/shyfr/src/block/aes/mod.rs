//! AES (FIPS 197) with 128-, 192- and 256-bit keys.
//!
//! The backend is chosen once, when the key is set up, in priority order:
//!
//! | backend        | needs                         | blocks in flight |
//! |----------------|-------------------------------|------------------|
//! | `x86_vaes512`  | VAES + AVX-512F               | 32 (8 x zmm)     |
//! | `x86_vaes`     | VAES + AVX2                   | 16 (8 x ymm)     |
//! | `x86_aesni`    | AES-NI                        | 8                |
//! | `aarch64_aes`  | ARMv8 AES (Crypto Extensions) | 8                |
//! | `soft`         | nothing (portable, bitsliced) | 8                |
//!
//! Every backend is constant time: the hardware instructions have data-independent timing
//! and `soft` is bitsliced, with no table look-up and no secret-dependent branch.
//!
//! Besides ECB, every backend but `soft` has fused kernels for the modes of
//! [`crate::mode`], reached through the provided methods of [`BlockCipher`]: CTR, CBC and
//! CFB decryption and XTS keep as many blocks in flight as ECB (the x86 loops are written
//! once, generic over the register width, in `x86_modes.rs`); CBC and CFB encryption, OFB
//! and CBC-MAC keep their chain in a register, one AES instruction per round and nothing
//! else on it; CCM runs that chain and its counter mode in one loop, the counter blocks in
//! the chain's latency shadow. `soft` runs the trait's portable defaults, which batch its
//! bitsliced calls. On x86, inputs under nine blocks take one call into an AES-NI short
//! kernel whatever the backend: CTR (when the counter's last word does not wrap inside
//! them) and whole XTS data units, whose tweak is enciphered in the same kernel
//! ([`BlockModes::xts_unit_blocks`]).
//!
//! Measured on Zen 3 (x86_vaes, 16 KiB, single thread): AES-128 ECB 0.16, CTR 0.20,
//! CBC decryption 0.17, XTS 0.24 cycles/byte; CBC encryption 2.5 (the `aesenc` latency
//! limit, 10 rounds x 4 cycles / 16 bytes), CCM 2.52 (1 % above that limit).
//!
//! ```
//! use shyfr::aes::Aes128;
//! let aes = Aes128::new(&[0u8; 16]);
//! let mut data = [0u8; 64];
//! aes.encrypt_blocks(&mut data).unwrap();
//! aes.decrypt_blocks(&mut data).unwrap();
//! assert_eq!(data, [0u8; 64]);
//! ```

mod soft;

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64_aes;
mod modes;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;
#[cfg(target_arch = "x86_64")]
mod x86_aesni;
#[cfg(target_arch = "x86_64")]
mod x86_modes;
#[cfg(target_arch = "x86_64")]
mod x86_vaes;
#[cfg(target_arch = "x86_64")]
mod x86_vaes512;

use crate::block::{check_whole_blocks, BlockCipher, InOutBuf};
use crate::inout::InOut;
use crate::mode::BlockModes;
use crate::Error;

#[cfg(target_arch = "aarch64")]
use crate::cpu::aarch64 as arch_cpu;
#[cfg(target_arch = "x86_64")]
use crate::cpu::x86 as arch_cpu;

/// AES block length in bytes.
pub const BLOCK_LEN: usize = 16;

/// Below this many bytes the wide x86 backends (`x86_vaes512`, `x86_vaes`) run the AES-NI
/// kernels, whose short path sets up nothing (see `x86::SHORT_BLOCKS`): the data fills less
/// than one zmm register.
#[cfg(target_arch = "x86_64")]
pub(crate) const SHORT_BYTES: usize = 16 * x86::SHORT_BLOCKS;

/// One AES block.
pub type Block = [u8; BLOCK_LEN];

crate::cpu::backends! {
    /// The implementations of AES, fastest first.
    pub enum Backend("aes"), tokens Kernel {
        /// VAES on 512-bit registers with AVX-512 (x86-64).
        X86Vaes512 = "x86_vaes512" ["x86_64"] arch_cpu::Vaes512,
        /// VAES on 256-bit registers with AVX2 (x86-64).
        X86Vaes = "x86_vaes" ["x86_64"] arch_cpu::Vaes256,
        /// AES-NI (x86-64).
        X86AesNi = "x86_aesni" ["x86_64"] arch_cpu::AesNi,
        /// ARMv8 Crypto Extensions (aarch64).
        Aarch64Aes = "aarch64_aes" ["aarch64"] arch_cpu::AesCe,
        /// Portable, constant-time bitsliced code.
        Soft = "soft",
    }
    self_test = run_self_test;
}

/// The key schedule of the chosen backend. Each backend's key type zeroes itself on drop.
///
/// The bitsliced `soft` schedule is several times larger than the hardware ones; it stays
/// inline rather than boxed so that the crate needs no allocator (`no_std` without `alloc`).
#[derive(Clone)]
#[allow(clippy::large_enum_variant)]
pub(crate) enum Inner {
    #[cfg(target_arch = "x86_64")]
    Vaes512(x86::Keys, arch_cpu::Vaes512),
    #[cfg(target_arch = "x86_64")]
    /// With carry-less multiplication when the CPU has it (XTS tweaks).
    Vaes(x86::Keys, arch_cpu::Vaes256, Option<arch_cpu::Vpclmul256>),
    #[cfg(target_arch = "x86_64")]
    AesNi(x86::Keys, arch_cpu::AesNi),
    #[cfg(target_arch = "aarch64")]
    ArmCe(aarch64_aes::Keys, arch_cpu::AesCe),
    Soft(soft::Keys),
}

/// AES with a key of any of the three lengths, chosen at run time.
///
/// Prefer [`Aes128`], [`Aes192`] or [`Aes256`] when the length is known.
#[derive(Clone)]
pub struct Aes {
    inner: Inner,
    key_len: usize,
}

impl core::fmt::Debug for Aes {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Aes")
            .field("key_bits", &(self.key_len * 8))
            .field("backend", &self.backend())
            .finish_non_exhaustive()
    }
}

impl Aes {
    /// Sets up a 16-, 24- or 32-byte key with the fastest available backend.
    pub fn new_from_slice(key: &[u8]) -> Result<Self, Error> {
        Self::with_backend(key, Backend::best())
    }

    /// Sets up a key with an explicit backend (for tests and benchmarks); an error if the
    /// backend is not available here.
    pub fn with_backend(key: &[u8], backend: Backend) -> Result<Self, Error> {
        if !matches!(key.len(), 16 | 24 | 32) {
            return Err(Error::InvalidKeyLength { got: key.len() });
        }
        if !backend.self_test() {
            return Err(Error::BackendUnavailable);
        }
        Self::with_backend_untested(key, backend)
    }

    /// [`with_backend`](Self::with_backend) without the self-test (which uses it).
    fn with_backend_untested(key: &[u8], backend: Backend) -> Result<Self, Error> {
        let inner = match Kernel::new(backend).ok_or(Error::BackendUnavailable)? {
            #[cfg(target_arch = "x86_64")]
            Kernel::X86Vaes512(t) => Inner::Vaes512(x86::Keys::new(key, t.aesni()), t),
            #[cfg(target_arch = "x86_64")]
            Kernel::X86Vaes(t) => Inner::Vaes(
                x86::Keys::new(key, t.aesni()),
                t,
                arch_cpu::Vpclmul256::get(),
            ),
            #[cfg(target_arch = "x86_64")]
            Kernel::X86AesNi(t) => Inner::AesNi(x86::Keys::new(key, t), t),
            #[cfg(target_arch = "aarch64")]
            Kernel::Aarch64Aes(t) => Inner::ArmCe(aarch64_aes::Keys::new(key, t), t),
            Kernel::Soft => Inner::Soft(soft::Keys::new(key)),
        };
        Ok(Aes {
            inner,
            key_len: key.len(),
        })
    }

    /// The backend this key uses.
    pub fn backend(&self) -> Backend {
        match self.inner {
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes512(..) => Backend::X86Vaes512,
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes(..) => Backend::X86Vaes,
            #[cfg(target_arch = "x86_64")]
            Inner::AesNi(..) => Backend::X86AesNi,
            #[cfg(target_arch = "aarch64")]
            Inner::ArmCe(..) => Backend::Aarch64Aes,
            Inner::Soft(_) => Backend::Soft,
        }
    }

    /// Key length in bytes (16, 24 or 32).
    pub fn key_len(&self) -> usize {
        self.key_len
    }

    /// The chosen backend with its key schedule (for the fused AES-GCM engines in
    /// `aead::aes_gcm`, which run their own kernels on it).
    #[inline]
    pub(crate) fn inner(&self) -> &Inner {
        &self.inner
    }

    fn encrypt_inout(&self, io: InOut<'_>) {
        match &self.inner {
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes512(k, t) if io.len() < SHORT_BYTES => x86_aesni::encrypt(k, t.aesni(), io),
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes512(k, t) => x86_vaes512::encrypt(k, *t, io),
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes(k, t, _) if io.len() < SHORT_BYTES => x86_aesni::encrypt(k, t.aesni(), io),
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes(k, t, _) => x86_vaes::encrypt(k, *t, io),
            #[cfg(target_arch = "x86_64")]
            Inner::AesNi(k, t) => x86_aesni::encrypt(k, *t, io),
            #[cfg(target_arch = "aarch64")]
            Inner::ArmCe(k, t) => aarch64_aes::encrypt(k, *t, io),
            Inner::Soft(k) => k.encrypt(io),
        }
    }

    fn decrypt_inout(&self, io: InOut<'_>) {
        match &self.inner {
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes512(k, t) if io.len() < SHORT_BYTES => x86_aesni::decrypt(k, t.aesni(), io),
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes512(k, t) => x86_vaes512::decrypt(k, *t, io),
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes(k, t, _) if io.len() < SHORT_BYTES => x86_aesni::decrypt(k, t.aesni(), io),
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes(k, t, _) => x86_vaes::decrypt(k, *t, io),
            #[cfg(target_arch = "x86_64")]
            Inner::AesNi(k, t) => x86_aesni::decrypt(k, *t, io),
            #[cfg(target_arch = "aarch64")]
            Inner::ArmCe(k, t) => aarch64_aes::decrypt(k, *t, io),
            Inner::Soft(k) => k.decrypt(io),
        }
    }

    /// Encrypts one block in place.
    #[inline]
    pub fn encrypt_block(&self, block: &mut Block) {
        self.encrypt_inout(InOut::in_place(block));
    }

    /// Decrypts one block in place.
    #[inline]
    pub fn decrypt_block(&self, block: &mut Block) {
        self.decrypt_inout(InOut::in_place(block));
    }

    /// Encrypts whole blocks in place (ECB). Error if `data` is not whole blocks.
    #[inline]
    pub fn encrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
        check_whole_blocks(data.len(), BLOCK_LEN)?;
        self.encrypt_inout(InOut::in_place(data));
        Ok(())
    }

    /// Decrypts whole blocks in place (ECB). Error if `data` is not whole blocks.
    #[inline]
    pub fn decrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
        check_whole_blocks(data.len(), BLOCK_LEN)?;
        self.decrypt_inout(InOut::in_place(data));
        Ok(())
    }

    /// Encrypts whole blocks from `input` to `output` (equal lengths).
    #[inline]
    pub fn encrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        let io = InOut::new(input, output)?;
        check_whole_blocks(io.len(), BLOCK_LEN)?;
        self.encrypt_inout(io);
        Ok(())
    }

    /// Decrypts whole blocks from `input` to `output` (equal lengths).
    #[inline]
    pub fn decrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        let io = InOut::new(input, output)?;
        check_whole_blocks(io.len(), BLOCK_LEN)?;
        self.decrypt_inout(io);
        Ok(())
    }
}

/// The serial (one block at a time) modes that have fused kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(dead_code)] // not every target has a fused backend
pub(crate) enum Serial {
    /// CBC encryption: `c = E(p ^ c_prev)`.
    CbcEnc,
    /// CFB encryption: `c = E(c_prev) ^ p`.
    CfbEnc,
    /// OFB: `o = E(o_prev)`, `c = p ^ o`.
    Ofb,
    /// CBC-MAC: `s = E(p ^ s)`, nothing written.
    Mac,
}

impl BlockCipher for Aes {
    const BLOCK_LEN: usize = BLOCK_LEN;
    /// The widest backend keeps 32 blocks in flight.
    const PAR_BLOCKS: usize = 32;
    fn encrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
        Aes::encrypt_blocks(self, data)
    }
    fn decrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
        Aes::decrypt_blocks(self, data)
    }
    fn encrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        Aes::encrypt_blocks_to(self, input, output)
    }
    fn decrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        Aes::decrypt_blocks_to(self, input, output)
    }
}

macro_rules! sized_aes {
    ($(#[$m:meta])* $name:ident, $len:expr) => {
        $(#[$m])*
        #[derive(Clone, Debug)]
        pub struct $name(Aes);

        impl $name {
            /// Key length in bytes.
            pub const KEY_LEN: usize = $len;

            /// Sets up the key with the fastest available backend.
            pub fn new(key: &[u8; $len]) -> Self {
                $name(Aes::with_backend(key, Backend::best()).expect("best backend is available"))
            }

            /// Sets up a key given as a slice; [`Error::InvalidKeyLength`] unless it is
            #[doc = concat!(stringify!($len), " bytes long.")]
            pub fn new_from_slice(key: &[u8]) -> Result<Self, Error> {
                if key.len() != $len {
                    return Err(Error::InvalidKeyLength { got: key.len() });
                }
                Aes::new_from_slice(key).map($name)
            }

            /// Sets up the key with an explicit backend; an error if it is not available.
            pub fn with_backend(key: &[u8; $len], backend: Backend) -> Result<Self, Error> {
                Aes::with_backend(key, backend).map($name)
            }

            /// The backend this key uses.
            pub fn backend(&self) -> Backend {
                self.0.backend()
            }

            /// Encrypts one block in place.
            #[inline]
            pub fn encrypt_block(&self, block: &mut Block) {
                self.0.encrypt_block(block)
            }

            /// Decrypts one block in place.
            #[inline]
            pub fn decrypt_block(&self, block: &mut Block) {
                self.0.decrypt_block(block)
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

        impl BlockCipher for $name {
            const BLOCK_LEN: usize = BLOCK_LEN;
            const PAR_BLOCKS: usize = 32;
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

        impl BlockModes for $name {
            fn ctr_blocks(&self, c: &mut [u8], n: usize, d: InOutBuf<'_>) -> Result<(), Error> {
                self.0.ctr_blocks(c, n, d)
            }
            fn cbc_encrypt_blocks(&self, iv: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
                self.0.cbc_encrypt_blocks(iv, d)
            }
            fn cbc_decrypt_blocks(&self, iv: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
                self.0.cbc_decrypt_blocks(iv, d)
            }
            fn cfb_encrypt_blocks(&self, iv: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
                self.0.cfb_encrypt_blocks(iv, d)
            }
            fn cfb_decrypt_blocks(&self, iv: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
                self.0.cfb_decrypt_blocks(iv, d)
            }
            fn ofb_blocks(&self, iv: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
                self.0.ofb_blocks(iv, d)
            }
            fn cbc_mac_blocks(&self, state: &mut [u8], data: &[u8]) -> Result<(), Error> {
                self.0.cbc_mac_blocks(state, data)
            }
            fn xts_encrypt_blocks(&self, t: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
                self.0.xts_encrypt_blocks(t, d)
            }
            fn xts_decrypt_blocks(&self, t: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
                self.0.xts_decrypt_blocks(t, d)
            }
            fn xts_unit_blocks(
                &self,
                tc: &Self,
                t: &[u8],
                d: InOutBuf<'_>,
                decrypt: bool,
            ) -> Result<(), Error> {
                self.0.xts_unit_blocks(&tc.0, t, d, decrypt)
            }
            fn ccm_blocks(
                &self,
                mac: &mut [u8],
                c: &mut [u8],
                n: usize,
                d: InOutBuf<'_>,
                decrypt: bool,
            ) -> Result<(), Error> {
                self.0.ccm_blocks(mac, c, n, d, decrypt)
            }
        }
    };
}

sized_aes!(
    /// AES-128: 16-byte key, 10 rounds.
    Aes128, 16
);
sized_aes!(
    /// AES-192: 24-byte key, 12 rounds.
    Aes192, 24
);
sized_aes!(
    /// AES-256: 32-byte key, 14 rounds.
    Aes256, 32
);

/// Known-answer self-test of a hardware backend (see [`crate::cpu::backends`]): AES-128
/// and AES-256 over 37 blocks, both directions, must equal the portable `soft` backend,
/// whose own correctness the test suite establishes against the NIST vectors. This guards
/// code that a project's CI machine may not be able to run (`x86_vaes512` without AVX-512)
/// against silently wrong output on the machines that do run it.
fn run_self_test(b: Backend) -> bool {
    let mut ok = true;
    for key_len in [16usize, 32] {
        let mut key = [0u8; 32];
        for (i, k) in key.iter_mut().enumerate() {
            *k = (i as u8).wrapping_mul(29) ^ 0xa5;
        }
        let key = &key[..key_len];
        match (
            Aes::with_backend_untested(key, b),
            Aes::with_backend_untested(key, Backend::Soft),
        ) {
            (Ok(hw), Ok(sw)) => ok &= agree(&hw, &sw),
            _ => return false,
        }
    }
    ok
}

/// Whether `hw` encrypts 37 blocks as `sw` does and decrypts them back.
fn agree(hw: &Aes, sw: &Aes) -> bool {
    const BLOCKS: usize = 37;
    let mut plain = [0u8; 16 * BLOCKS];
    for (i, b) in plain.iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(7) ^ (i >> 8) as u8;
    }
    let (mut a, mut b) = (plain, plain);
    hw.encrypt_inout(InOut::in_place(&mut a));
    sw.encrypt_inout(InOut::in_place(&mut b));
    let enc_ok = a == b;
    hw.decrypt_inout(InOut::in_place(&mut a));
    enc_ok && a == plain
}

/// Number of rounds for a key of `key_len` bytes (16, 24 or 32).
pub(crate) const fn rounds_for(key_len: usize) -> usize {
    key_len / 4 + 6
}

/// FIPS 197 section 5.2 key expansion, shared by every backend; only `sub_word` (the S-box
/// applied to the four bytes of a word) differs, so each backend supplies a constant-time
/// one. Words are little-endian: byte 0 of the key is the low byte of `w[0]`, so RotWord is
/// a right rotation by 8 and Rcon lands in the low byte.
///
/// Fills `round_keys[0..=rounds]` and returns `rounds`.
pub(crate) fn expand_key(
    key: &[u8],
    mut sub_word: impl FnMut(u32) -> u32,
    round_keys: &mut [Block; 15],
) -> usize {
    let nk = key.len() / 4;
    let rounds = rounds_for(key.len());
    let total = 4 * (rounds + 1);
    let mut w = [0u32; 60];
    for (i, c) in key.chunks_exact(4).enumerate() {
        w[i] = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
    let mut rcon = 1u32;
    for i in nk..total {
        let mut t = w[i - 1];
        if i % nk == 0 {
            t = sub_word(t.rotate_right(8)) ^ rcon;
            // xtime on a public value: the round constants are not secret.
            rcon = (rcon << 1) ^ (((rcon >> 7) & 1) * 0x11b);
        } else if nk > 6 && i % nk == 4 {
            t = sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    for (r, rk) in round_keys.iter_mut().enumerate().take(rounds + 1) {
        for c in 0..4 {
            rk[4 * c..4 * c + 4].copy_from_slice(&w[4 * r + c].to_le_bytes());
        }
    }
    zeroize::Zeroize::zeroize(&mut w);
    rounds
}

#[cfg(test)]
mod self_test_tests {
    use super::*;

    #[test]
    fn self_test_passes_and_catches_a_broken_schedule() {
        for &b in Backend::ALL {
            if !b.cpu_allows() {
                continue;
            }
            assert!(b.self_test(), "{b:?} failed its self-test");
            let key = [3u8; 16];
            let sw = Aes::with_backend_untested(&key, Backend::Soft).unwrap();
            let good = Aes::with_backend_untested(&key, b).unwrap();
            assert!(agree(&good, &sw));
            // Output from a wrong key schedule must be caught.
            let other = Aes::with_backend_untested(&[2u8; 16], Backend::Soft).unwrap();
            assert!(
                !agree(&good, &other),
                "{b:?}: self-test blind to a wrong key"
            );
        }
    }
}
