//! AES-GCM: [`AesGcm`] (key length chosen at run time), [`Aes128Gcm`], [`Aes192Gcm`],
//! [`Aes256Gcm`], and the fused engines that run AES counter mode and GHASH in one loop.
//!
//! The AES and GHASH backends are chosen when the key is set up (fastest available, or
//! explicitly with `with_backends`); the pair then picks the engine of the bulk pass
//! ([`AesGcm::engine`]), one file per engine:
//!
//! | engine | file | AES backend | GHASH backend |
//! |--------|------|-------------|---------------|
//! | `fused_vaes512_vpclmul512` | `x86_vaes512.rs` | `x86_vaes512` (zmm) | `x86_vpclmul512` |
//! | `fused_vaes_vpclmul` | `x86_vaes.rs` | `x86_vaes` or `x86_vaes512` (ymm) | `x86_vpclmul` |
//! | `fused_aesni_pclmul` | `x86_aesni.rs` | `x86_aesni` | `x86_pclmul` |
//! | `fused_aes_pmull` | `aarch64_aes.rs` | `aarch64_aes` | `aarch64_pmull` |
//! | `generic` | `aead/gcm/bulk.rs` | any | any |
//!
//! A fused engine covers the whole groups of a call's data (the VAES engines also their
//! smaller groups: at most three blocks (zmm) or one (ymm) are left); tails and a counter
//! word about to wrap (only with nonces of other than 12 bytes) go through the generic
//! pass. With a 12-byte nonce a one-shot message below the multi-core threshold takes
//! the engine's one-pass path instead (`x86_vaes512.rs` from `ZMM_FROM` bytes,
//! `x86_vaes.rs` from `YMM_FROM` bytes, else `x86_short.rs`): `E(J0)`, AAD, data, tail
//! and length block in one call. The
//! message framing (nonce, AAD, partial blocks, tag) is [`crate::aead::gcm`]'s, the same
//! for every engine; see there for the verbs, nonces, tags and limits.

#[cfg(target_arch = "aarch64")]
mod aarch64_aes;
#[cfg(target_arch = "x86_64")]
mod x86_aesni;
#[cfg(target_arch = "x86_64")]
mod x86_short;
#[cfg(target_arch = "x86_64")]
mod x86_vaes;
#[cfg(target_arch = "x86_64")]
mod x86_vaes512;

use crate::aead::gcm::{
    check_tag_len, ctr_ghash_generic, gcm_verbs, Bulk, Core, Gcm, NONCE_LEN, TAG_LEN,
};
use crate::aead::ghash;
use crate::block::aes::{self, Aes};
use crate::Error;

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use crate::block::aes::Inner as AesInner;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use crate::inout::InOut;

const BLOCK: usize = 16;

/// The longest message the zmm engine seals or opens in one pass (`x86_vaes512.rs`):
/// below the multi-core threshold, so that longer one-shot calls can still be split.
#[cfg(target_arch = "x86_64")]
const ONE_PASS_MAX: usize = crate::aead::gcm::PARALLEL_MIN_LEN / 2;

/// From this many bytes on, the zmm engine's one pass beats the 128-bit short path.
#[cfg(target_arch = "x86_64")]
const ZMM_FROM: usize = 192;

/// From this many bytes on, the ymm engine's one pass beats the 128-bit short path.
#[cfg(target_arch = "x86_64")]
const YMM_FROM: usize = 64;

/// A fused engine: AES counter mode and GHASH interleaved in one loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fusion {
    /// VAES + VPCLMULQDQ on 512-bit registers (`x86_vaes512.rs`).
    #[cfg(target_arch = "x86_64")]
    Vaes512Vpclmul512,
    /// VAES + VPCLMULQDQ on 256-bit registers (`x86_vaes.rs`).
    #[cfg(target_arch = "x86_64")]
    VaesVpclmul,
    /// AES-NI + PCLMULQDQ, eight blocks in flight (`x86_aesni.rs`).
    #[cfg(target_arch = "x86_64")]
    AesniPclmul,
    /// ARMv8 AES + PMULL, eight blocks in flight (`aarch64_aes.rs`).
    #[cfg(target_arch = "aarch64")]
    AesPmull,
}

impl Fusion {
    /// The engine's name (see [`AesGcm::engine`]).
    const fn name(self) -> &'static str {
        match self {
            #[cfg(target_arch = "x86_64")]
            Fusion::Vaes512Vpclmul512 => "fused_vaes512_vpclmul512",
            #[cfg(target_arch = "x86_64")]
            Fusion::VaesVpclmul => "fused_vaes_vpclmul",
            #[cfg(target_arch = "x86_64")]
            Fusion::AesniPclmul => "fused_aesni_pclmul",
            #[cfg(target_arch = "aarch64")]
            Fusion::AesPmull => "fused_aes_pmull",
        }
    }

    /// The engine written for the backends `g`'s AES and GHASH keys are on, if any.
    fn for_key(g: &Gcm<Aes>) -> Option<Fusion> {
        #[cfg(target_arch = "x86_64")]
        {
            let gk = Core::ghash(g);
            match g.cipher().inner() {
                AesInner::Vaes512(..) if gk.vpclmul512_powers().is_some() => {
                    Some(Fusion::Vaes512Vpclmul512)
                }
                AesInner::Vaes(..) | AesInner::Vaes512(..) if gk.vpclmul_powers().is_some() => {
                    Some(Fusion::VaesVpclmul)
                }
                AesInner::AesNi(..) if gk.pclmul_powers().is_some() => Some(Fusion::AesniPclmul),
                _ => None,
            }
        }
        #[cfg(target_arch = "aarch64")]
        {
            match g.cipher().inner() {
                AesInner::ArmCe(..) if Core::ghash(g).pmull_powers().is_some() => {
                    Some(Fusion::AesPmull)
                }
                _ => None,
            }
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        {
            let _ = g;
            None
        }
    }

    /// The engine's kernel over the whole groups at the start of `dst` (from `src` when
    /// given, else in place): counter mode from `ctr` (whose last word must not wrap in
    /// `dst`) and GHASH of the ciphertext into `y`. Returns the bytes done.
    #[allow(unused_variables)]
    fn run(
        self,
        g: &Gcm<Aes>,
        decrypt: bool,
        ctr: &[u8; 16],
        y: &mut [u8; 16],
        src: Option<&[u8]>,
        dst: &mut [u8],
    ) -> Result<usize, Error> {
        let gk = Core::ghash(g);
        match (self, g.cipher().inner()) {
            #[cfg(target_arch = "x86_64")]
            (Fusion::Vaes512Vpclmul512, AesInner::Vaes512(k, t)) => {
                let Some((c, pow, _)) = gk.vpclmul512_powers() else {
                    return Ok(0);
                };
                let (io, _) = whole_groups(src, dst, 1)?;
                Ok(x86_vaes512::ctr_ghash(k, *t, c, pow, decrypt, ctr, y, io))
            }
            #[cfg(target_arch = "x86_64")]
            (Fusion::VaesVpclmul, AesInner::Vaes(k, t, _)) => {
                let Some((c, pow, kar)) = gk.vpclmul_powers() else {
                    return Ok(0);
                };
                let (io, _) = whole_groups(src, dst, 1)?;
                Ok(x86_vaes::ctr_ghash(k, *t, c, pow, kar, decrypt, ctr, y, io))
            }
            #[cfg(target_arch = "x86_64")]
            (Fusion::VaesVpclmul, AesInner::Vaes512(k, t)) => {
                let Some((c, pow, kar)) = gk.vpclmul_powers() else {
                    return Ok(0);
                };
                let (io, _) = whole_groups(src, dst, 1)?;
                Ok(x86_vaes::ctr_ghash(
                    k,
                    t.vaes256(),
                    c,
                    pow,
                    kar,
                    decrypt,
                    ctr,
                    y,
                    io,
                ))
            }
            #[cfg(target_arch = "x86_64")]
            (Fusion::AesniPclmul, AesInner::AesNi(k, t)) => {
                let Some((c, pow, kar)) = gk.pclmul_powers() else {
                    return Ok(0);
                };
                let (io, len) = whole_groups(src, dst, x86_aesni::GROUP_BLOCKS)?;
                x86_aesni::ctr_ghash(k, *t, c, pow, kar, decrypt, ctr, y, io);
                Ok(len)
            }
            #[cfg(target_arch = "aarch64")]
            (Fusion::AesPmull, AesInner::ArmCe(k, t)) => {
                let Some((c, pow, kar)) = gk.pmull_powers() else {
                    return Ok(0);
                };
                let (io, len) = whole_groups(src, dst, aarch64_aes::GROUP_BLOCKS)?;
                aarch64_aes::ctr_ghash(k, *t, c, pow, kar, decrypt, ctr, y, io);
                Ok(len)
            }
            #[allow(unreachable_patterns)]
            _ => Ok(0),
        }
    }
}

/// An engine of the registry: its name, its AES and GHASH backends (`None`: `generic`, any
/// pair), and the CPU features of the pair.
type EngineRow = (
    &'static str,
    Option<(aes::Backend, ghash::Backend)>,
    &'static [crate::cpu::Feature],
);

/// Every engine compiled into this build, fastest first.
const ENGINES: &[EngineRow] = {
    #[allow(unused_imports)]
    use crate::cpu::Feature::*;
    &[
        #[cfg(target_arch = "x86_64")]
        (
            "fused_vaes512_vpclmul512",
            Some((aes::Backend::X86Vaes512, ghash::Backend::X86Vpclmul512)),
            &[
                Ssse3, Aes, Pclmulqdq, Avx, Avx2, Avx512f, Avx512vl, Avx512bw, Vaes, Vpclmulqdq,
            ],
        ),
        #[cfg(target_arch = "x86_64")]
        (
            "fused_vaes_vpclmul",
            Some((aes::Backend::X86Vaes, ghash::Backend::X86Vpclmul)),
            &[Ssse3, Aes, Pclmulqdq, Avx, Avx2, Vaes, Vpclmulqdq],
        ),
        #[cfg(target_arch = "x86_64")]
        (
            "fused_aesni_pclmul",
            Some((aes::Backend::X86AesNi, ghash::Backend::X86Pclmul)),
            &[Ssse3, Aes, Pclmulqdq],
        ),
        #[cfg(target_arch = "aarch64")]
        (
            "fused_aes_pmull",
            Some((aes::Backend::Aarch64Aes, ghash::Backend::Aarch64Pmull)),
            &[Aes, Neon, Pmull],
        ),
        ("generic", None, &[]),
    ]
};

/// The `aes-gcm` rows of the backend registry: the engines, fastest first. An engine is
/// available when both backends of its pair are; the selected one is the engine a key set
/// up now gets.
pub(crate) fn registry_rows() -> impl Iterator<Item = crate::cpu::BackendStatus> {
    let selected = AesGcm::new_from_slice(&[0u8; 16]).map_or("generic", |g| g.engine());
    ENGINES
        .iter()
        .map(move |&(name, pair, needs)| crate::cpu::BackendStatus {
            algorithm: "aes-gcm",
            backend: name,
            needs,
            available: pair.is_none_or(|(a, g)| a.is_available() && g.is_available()),
            selected: name == selected,
        })
}

/// The whole groups of `group_blocks` blocks at the start of `dst` (from `src` when given,
/// else in place), for a fused kernel; with their length in bytes.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn whole_groups<'a>(
    src: Option<&'a [u8]>,
    dst: &'a mut [u8],
    group_blocks: usize,
) -> Result<(InOut<'a>, usize), Error> {
    let len = dst.len() - dst.len() % (BLOCK * group_blocks);
    let dst = &mut dst[..len];
    let io = match src {
        Some(s) => InOut::new(
            s.get(..len).ok_or(Error::LengthMismatch {
                input: s.len(),
                output: len,
            })?,
            dst,
        )?,
        None => InOut::in_place(dst),
    };
    Ok((io, len))
}

/// How an [`AesGcm`] key does its bulk work: the generic GCM key (whose single-block and
/// GHASH calls every engine uses for everything but the bulk pass) and, when its backends
/// have one, the fused engine, chosen at key set-up.
#[derive(Clone)]
struct Engine {
    gcm: Gcm<Aes>,
    fusion: Option<Fusion>,
}

impl Core for Engine {
    fn encrypt_block(&self, block: &mut [u8; 16]) -> Result<(), Error> {
        Core::encrypt_block(&self.gcm, block)
    }

    fn ghash(&self) -> &ghash::Key {
        Core::ghash(&self.gcm)
    }

    fn ctr_ghash(&self, b: Bulk<'_>) -> Result<(), Error> {
        let (decrypt, ctr, y, src, dst) = (b.decrypt, b.ctr, b.y, b.src, b.dst);
        let mut done = 0;
        if let Some(f) = self.fusion {
            // The kernels' counters do not carry out of the last word: they run only when
            // the word does not wrap inside `dst` (always, with 12-byte nonces).
            let low = u32::from_be_bytes([ctr[12], ctr[13], ctr[14], ctr[15]]);
            if (dst.len() / BLOCK) as u64 <= (1u64 << 32) - low as u64 {
                done = f.run(&self.gcm, decrypt, ctr, y, src, dst)?;
                let next = low.wrapping_add((done / BLOCK) as u32);
                ctr[12..].copy_from_slice(&next.to_be_bytes());
            }
        }
        if done == dst.len() {
            return Ok(());
        }
        let rest = Bulk {
            decrypt,
            ctr,
            y,
            src: src.map(|s| &s[done..]),
            dst: &mut dst[done..],
        };
        ctr_ghash_generic(self.gcm.cipher(), Core::ghash(&self.gcm), rest)
    }

    #[cfg(target_arch = "x86_64")]
    fn one_pass_max(&self) -> usize {
        match (self.fusion, self.short_keys()) {
            // Whole messages in one pass below the multi-core threshold.
            (Some(Fusion::Vaes512Vpclmul512 | Fusion::VaesVpclmul), Some(_)) => ONE_PASS_MAX,
            (Some(_), Some(_)) => x86_short::MAX_LEN,
            _ => 0,
        }
    }

    #[cfg(target_arch = "x86_64")]
    fn one_pass(
        &self,
        decrypt: bool,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        buf: &mut [u8],
    ) -> [u8; 16] {
        let ((keys, t), (c, gk)) = self.short_keys().expect("one_pass_max checked");
        if buf.len() > ZMM_FROM {
            if let (AesInner::Vaes512(k, t), Some((c, pow, _))) = (
                self.gcm.cipher().inner(),
                Core::ghash(&self.gcm).vpclmul512_powers(),
            ) {
                return x86_vaes512::seal_open(k, *t, c, pow, gk, decrypt, nonce, aad, buf);
            }
        }
        if buf.len() > YMM_FROM && self.fusion == Some(Fusion::VaesVpclmul) {
            let vaes = match self.gcm.cipher().inner() {
                AesInner::Vaes(k, t, _) => Some((k, *t)),
                AesInner::Vaes512(k, t) => Some((k, t.vaes256())),
                _ => None,
            };
            if let (Some((k, t)), Some((vc, pow, kar))) =
                (vaes, Core::ghash(&self.gcm).vpclmul_powers())
            {
                return x86_vaes::seal_open(k, t, vc, pow, kar, c, gk, decrypt, nonce, aad, buf);
            }
        }
        x86_short::seal_open(keys, t, gk, c, decrypt, nonce, aad, buf)
    }
}

impl Engine {
    /// The x86 AES key schedule and GHASH 128-bit key with their tokens, for the short path
    /// (any x86 hardware backend pair).
    #[cfg(target_arch = "x86_64")]
    #[allow(clippy::type_complexity)]
    fn short_keys(
        &self,
    ) -> Option<(
        (&crate::block::aes::x86::Keys, crate::cpu::x86::AesNi),
        (
            crate::cpu::x86::Pclmul,
            &crate::aead::ghash::x86_pclmul::Key,
        ),
    )> {
        let aes = match self.gcm.cipher().inner() {
            AesInner::Vaes512(k, t) => (k, t.aesni()),
            AesInner::Vaes(k, t, _) => (k, t.aesni()),
            AesInner::AesNi(k, t) => (k, *t),
            _ => return None,
        };
        Some((aes, Core::ghash(&self.gcm).xmm_key()?))
    }
}

/// AES-GCM with a 16-, 24- or 32-byte key chosen at run time.
///
/// Prefer [`Aes128Gcm`] / [`Aes256Gcm`] when the key length is known.
///
/// ```
/// use shyfr::aead::aes_gcm::AesGcm;
/// let gcm = AesGcm::new_from_slice(&[1u8; 16]).unwrap();
/// let mut buf = *b"sixteen byte msg";
/// let tag = gcm.seal_in_place(&[0u8; 12], b"aad", &mut buf).unwrap();
/// gcm.open_in_place(&[0u8; 12], b"aad", &mut buf, tag.as_bytes()).unwrap();
/// assert_eq!(&buf, b"sixteen byte msg");
/// ```
#[derive(Clone)]
pub struct AesGcm {
    engine: Engine,
}

impl core::fmt::Debug for AesGcm {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AesGcm")
            .field("aes", &self.aes_backend())
            .field("ghash", &self.ghash_backend())
            .field("engine", &self.engine())
            .field("tag_len", &self.tag_len())
            .finish_non_exhaustive()
    }
}

impl AesGcm {
    /// Sets up a 16-, 24- or 32-byte key with the fastest AES and GHASH backends.
    pub fn new_from_slice(key: &[u8]) -> Result<Self, Error> {
        Self::with_backends(key, aes::Backend::best(), ghash::Backend::best())
    }

    /// Sets up a key with explicit AES and GHASH backends (for tests and benchmarks);
    /// [`Error::BackendUnavailable`] if either is not available here. The pair picks the
    /// fused engine written for it, if any.
    pub fn with_backends(
        key: &[u8],
        aes_backend: aes::Backend,
        ghash_backend: ghash::Backend,
    ) -> Result<Self, Error> {
        let mut g = AesGcm::with_backends_generic(key, aes_backend, ghash_backend)?;
        g.engine.fusion = Fusion::for_key(&g.engine.gcm);
        Ok(g)
    }

    /// As [`with_backends`](Self::with_backends), but never with a fused engine: the bulk
    /// pass runs the AES backend's counter blocks and the GHASH backend one after the
    /// other (for tests and benchmarks).
    pub fn with_backends_generic(
        key: &[u8],
        aes_backend: aes::Backend,
        ghash_backend: ghash::Backend,
    ) -> Result<Self, Error> {
        let aes = Aes::with_backend(key, aes_backend)?;
        Ok(AesGcm {
            engine: Engine {
                gcm: Gcm::with_ghash_backend(aes, ghash_backend)?,
                fusion: None,
            },
        })
    }

    /// The engine of the bulk pass: `"fused_vaes512_vpclmul512"`, `"fused_vaes_vpclmul"`,
    /// `"fused_aesni_pclmul"` or
    /// `"fused_aes_pmull"` (AES and GHASH in one loop, with VAES and VPCLMULQDQ, AES-NI and
    /// PCLMULQDQ, or ARMv8 AES and PMULL) or `"generic"` (the AES backend, then the GHASH
    /// backend).
    pub fn engine(&self) -> &'static str {
        self.engine.fusion.map_or("generic", Fusion::name)
    }

    fn core(&self) -> &(dyn Core + Sync) {
        &self.engine
    }

    /// The same key with `len`-byte tags, `len` in 12..=16 (96 to 128 bits).
    pub fn with_tag_len(mut self, len: usize) -> Result<Self, Error> {
        check_tag_len(len, false)?;
        self.engine.gcm = self.engine.gcm.with_tag_len(len)?;
        Ok(self)
    }

    /// The same key with `len`-byte tags where `len` may also be 4 or 8 (32 or 64 bits);
    /// see [`Gcm::with_short_tag_len`] for the limits the caller must enforce.
    pub fn with_short_tag_len(mut self, len: usize) -> Result<Self, Error> {
        self.engine.gcm = self.engine.gcm.with_short_tag_len(len)?;
        Ok(self)
    }

    /// Tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.engine.gcm.tag_len()
    }

    /// Key length in bytes (16, 24 or 32).
    pub fn key_len(&self) -> usize {
        self.engine.gcm.cipher().key_len()
    }

    /// The AES backend this key uses.
    pub fn aes_backend(&self) -> aes::Backend {
        self.engine.gcm.cipher().backend()
    }

    /// The GHASH backend this key uses.
    pub fn ghash_backend(&self) -> ghash::Backend {
        self.engine.gcm.ghash_backend()
    }

    gcm_verbs!(self => (self.core(), self.tag_len(), Some(self.core())));
}

macro_rules! sized_gcm {
    ($(#[$m:meta])* $name:ident, $len:expr) => {
        $(#[$m])*
        #[derive(Clone, Debug)]
        pub struct $name(AesGcm);

        impl $name {
            /// Key length in bytes.
            pub const KEY_LEN: usize = $len;
            /// The recommended nonce length in bytes.
            pub const NONCE_LEN: usize = NONCE_LEN;
            /// The default tag length in bytes.
            pub const TAG_LEN: usize = TAG_LEN;

            /// Sets up the key with the fastest AES and GHASH backends.
            pub fn new(key: &[u8; $len]) -> Self {
                $name(
                    AesGcm::new_from_slice(key)
                        .expect("a key of the right length on the best backends is accepted"),
                )
            }

            /// Sets up a key given as a slice; [`Error::InvalidKeyLength`] unless it is
            #[doc = concat!(stringify!($len), " bytes long.")]
            pub fn new_from_slice(key: &[u8]) -> Result<Self, Error> {
                if key.len() != $len {
                    return Err(Error::InvalidKeyLength { got: key.len() });
                }
                AesGcm::new_from_slice(key).map($name)
            }

            /// Sets up the key with explicit AES and GHASH backends.
            pub fn with_backends(
                key: &[u8; $len],
                aes_backend: aes::Backend,
                ghash_backend: ghash::Backend,
            ) -> Result<Self, Error> {
                AesGcm::with_backends(key, aes_backend, ghash_backend).map($name)
            }

            /// The same key with `len`-byte tags, `len` in 12..=16.
            pub fn with_tag_len(self, len: usize) -> Result<Self, Error> {
                self.0.with_tag_len(len).map($name)
            }

            /// The same key with `len`-byte tags where `len` may also be 4 or 8; see
            /// [`Gcm::with_short_tag_len`].
            pub fn with_short_tag_len(self, len: usize) -> Result<Self, Error> {
                self.0.with_short_tag_len(len).map($name)
            }

            /// Tag length in bytes.
            pub fn tag_len(&self) -> usize {
                self.0.tag_len()
            }

            /// The AES backend this key uses.
            pub fn aes_backend(&self) -> aes::Backend {
                self.0.aes_backend()
            }

            /// The GHASH backend this key uses.
            pub fn ghash_backend(&self) -> ghash::Backend {
                self.0.ghash_backend()
            }

            gcm_verbs!(self => (self.0.core(), self.0.tag_len(), Some(self.0.core())));
        }
    };
}

sized_gcm!(
    /// AES-128-GCM: 16-byte key.
    Aes128Gcm, 16
);
sized_gcm!(
    /// AES-192-GCM: 24-byte key.
    Aes192Gcm, 24
);
sized_gcm!(
    /// AES-256-GCM: 32-byte key.
    Aes256Gcm, 32
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Each engine's feature list is exactly the union of its pair's.
    #[test]
    fn engine_needs_are_the_pair_union() {
        for &(name, pair, needs) in ENGINES {
            let Some((a, g)) = pair else {
                assert!(needs.is_empty());
                continue;
            };
            for f in crate::cpu::Feature::ALL {
                let want = a.needs().contains(f) || g.needs().contains(f);
                assert_eq!(needs.contains(f), want, "{name}: {f:?}");
            }
        }
    }
    use std::vec;
    use std::vec::Vec;

    /// The fused engine's bulk pass equals the generic one for counters whose last word
    /// ends just before, at and past 2^32 (where it falls back), and for every length
    /// around its group and tail sizes, both directions.
    #[test]
    fn fused_bulk_pass_equals_generic_near_counter_wrap() {
        let Ok(g) =
            AesGcm::with_backends(&[0x33; 32], aes::Backend::best(), ghash::Backend::best())
        else {
            return;
        };
        if g.engine.fusion.is_none() {
            return;
        }
        let gen: &dyn Core = &g.engine.gcm;
        let fused: &dyn Core = &g.engine;
        for blocks in [1usize, 7, 8, 15, 16, 17, 23, 24, 31, 32, 33, 47, 48, 70] {
            for low in [
                1u32,
                0xf0,
                0xfffe_ff00,
                0xffff_ffff - 70,
                0xffff_ffff - blocks as u32,
                0xffff_ffff - blocks as u32 + 1,
                0xffff_fff0,
                0xffff_ffff,
            ] {
                for decrypt in [false, true] {
                    let mut start = [9u8; 16];
                    start[12..].copy_from_slice(&low.to_be_bytes());
                    let data: Vec<u8> = (0..16 * blocks).map(|i| (i * 7 + 3) as u8).collect();
                    let (mut c1, mut c2) = (start, start);
                    let (mut y1, mut y2) = ([5u8; 16], [5u8; 16]);
                    let mut out1 = vec![0u8; data.len()];
                    let mut out2 = data.clone();
                    let b1 = Bulk {
                        decrypt,
                        ctr: &mut c1,
                        y: &mut y1,
                        src: Some(&data),
                        dst: &mut out1,
                    };
                    gen.ctr_ghash(b1).unwrap();
                    let b2 = Bulk {
                        decrypt,
                        ctr: &mut c2,
                        y: &mut y2,
                        src: None,
                        dst: &mut out2,
                    };
                    fused.ctr_ghash(b2).unwrap();
                    let what = (blocks, low, decrypt);
                    assert_eq!(out1, out2, "{what:?}");
                    assert_eq!(y1, y2, "{what:?}");
                    assert_eq!(c1, c2, "{what:?}");
                }
            }
        }
    }
}
