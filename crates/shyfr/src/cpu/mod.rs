//! What the CPU can do, detected once and cached; the `SHYFR_CPU` override; zero-sized
//! tokens that prove a feature is present; the `backends!` declaration every algorithm
//! family uses for its implementations. This module imports no algorithm: the registry
//! that lists every family is the top floor, [`crate::registry`].
//!
//! Only this module reads CPUID (x86-64) or the auxiliary vector (aarch64). Everything
//! above it asks for a token (for example [`x86::AesNi::get`]); a token exists only when
//! the feature was detected **and** the override did not mask it, so holding one is the
//! proof an `unsafe` call into a `#[target_feature]` kernel needs.
//!
//! # The override
//!
//! `SHYFR_CPU` (read once, at the first detection) or [`set_override`] (used by the `shyfr`
//! command's `--cpu SPEC`) take a comma-separated list, applied left to right to the set
//! the CPU offers:
//!
//! * `portable` (or `none`): disable every feature, so only portable code runs;
//! * `native` (or `all`): start again from everything detected;
//! * `-NAME`: disable one feature, e.g. `-vaes,-avx512f`;
//! * `+NAME` or `NAME`: enable a feature again — but only if the CPU has it. An override can
//!   never turn on something the CPU lacks.
//!
//! A malformed `SHYFR_CPU` makes the library fall back to `portable` (the choice that can
//! never enable anything unintended); [`env_override_error`] tells why, and the `shyfr`
//! command refuses it with a message.
//!
//! # Features enabled at compile time
//!
//! Built with `-C target-cpu=native` (or `-C target-feature=+aes,...`), a feature the
//! compiler may assume is still looked up here rather than made a constant: making a
//! token's `get()` a constant `Some` would take away `SHYFR_CPU` masking, which the tests,
//! CI's architecture matrix and users rely on (to run the portable code on a machine that
//! has the instructions). What it costs is one relaxed load of a cached word and a mask
//! test per key or state set-up, never per block: the backend is chosen once and kept in
//! the key. What compile-time features do give is inside the kernels: the compiler may use
//! the instructions in the portable code too. Detection itself (`CPUID`, `XGETBV`, the
//! auxiliary vector) runs once per process.

/// Declares a zero-sized token that can only be obtained when its features are enabled.
macro_rules! token {
    ($(#[$m:meta])* $name:ident: [$($feat:ident),+]) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug)]
        pub struct $name(());

        impl $name {
            /// The features this token stands for.
            pub const FEATURES: &'static [$crate::cpu::Feature] =
                &[$($crate::cpu::Feature::$feat),+];

            /// The token, if every feature it stands for is detected and not overridden.
            #[inline]
            pub fn get() -> Option<Self> {
                if $crate::cpu::enabled_all(Self::FEATURES) {
                    Some($name(()))
                } else {
                    None
                }
            }
        }
    };
}

#[cfg(target_arch = "aarch64")]
pub mod aarch64;
mod backends;
#[cfg(target_arch = "x86_64")]
pub mod x86;

use core::fmt;
use core::sync::atomic::{AtomicU64, Ordering};

pub(crate) use backends::backends;

/// One backend of one algorithm, as [`crate::registry::backends`] lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackendStatus {
    /// Algorithm family, e.g. `"aes"`.
    pub algorithm: &'static str,
    /// Backend name, e.g. `"x86_aesni"`.
    pub backend: &'static str,
    /// The CPU features the backend needs (empty for portable code).
    pub needs: &'static [Feature],
    /// Whether this CPU, after the override, can run it (and it passed its self-test).
    pub available: bool,
    /// Whether a key set up now would use it.
    pub selected: bool,
}

/// Every backend of every algorithm: the former path of [`crate::registry::backends`].
#[deprecated(since = "0.1.0", note = "moved to `shyfr::registry::backends`")]
pub fn registry() -> impl Iterator<Item = BackendStatus> {
    crate::registry::backends()
}

macro_rules! features {
    ($( $(#[$m:meta])* $var:ident = $bit:expr, $name:expr, $arch:expr; )*) => {
        /// A CPU feature shyfr knows about.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Feature {
            $( $(#[$m])* $var = $bit, )*
        }

        impl Feature {
            /// Every feature, of every architecture.
            pub const ALL: &'static [Feature] = &[ $( Feature::$var, )* ];

            /// The name used by `shyfr cpu` and `SHYFR_CPU`.
            pub const fn name(self) -> &'static str {
                match self { $( Feature::$var => $name, )* }
            }

            /// The architecture this feature belongs to (`"x86_64"` or `"aarch64"`).
            pub const fn arch(self) -> &'static str {
                match self { $( Feature::$var => $arch, )* }
            }
        }
    };
}

features! {
    /// SSE2 (x86-64 baseline).
    Sse2 = 0, "sse2", "x86_64";
    /// SSSE3 (`pshufb`).
    Ssse3 = 1, "ssse3", "x86_64";
    /// SSE4.1.
    Sse41 = 2, "sse4.1", "x86_64";
    /// AES-NI on x86-64, or the ARMv8 AES instructions on aarch64.
    Aes = 3, "aes", "any";
    /// Carry-less multiplication (`pclmulqdq`).
    Pclmulqdq = 4, "pclmulqdq", "x86_64";
    /// AVX, with the OS saving YMM state.
    Avx = 5, "avx", "x86_64";
    /// AVX2.
    Avx2 = 6, "avx2", "x86_64";
    /// BMI1 (`andn`, `blsr`, `tzcnt`).
    Bmi1 = 22, "bmi1", "x86_64";
    /// BMI2 (`mulx`, `rorx`).
    Bmi2 = 7, "bmi2", "x86_64";
    /// ADX (`adcx`, `adox`).
    Adx = 8, "adx", "x86_64";
    /// AVX-512 Foundation, with the OS saving ZMM and opmask state.
    Avx512f = 9, "avx512f", "x86_64";
    /// AVX-512 vector-length extensions.
    Avx512vl = 10, "avx512vl", "x86_64";
    /// AVX-512 byte and word instructions.
    Avx512bw = 11, "avx512bw", "x86_64";
    /// AVX-512 vector byte manipulation (`vpermb`, `vpermi2b`).
    Avx512vbmi = 12, "avx512vbmi", "x86_64";
    /// AVX-512 integer fused multiply-add on 52-bit digits (`vpmadd52luq`/`vpmadd52huq`).
    Avx512ifma = 23, "avx512ifma", "x86_64";
    /// AVX-512 bit algorithms (`vpshufbitqmb`, `vpopcntb`).
    Avx512bitalg = 24, "avx512bitalg", "x86_64";
    /// Vector AES on 256/512-bit registers.
    Vaes = 13, "vaes", "x86_64";
    /// Vector carry-less multiplication.
    Vpclmulqdq = 14, "vpclmulqdq", "x86_64";
    /// Galois-field instructions (`gf2p8affineqb`).
    Gfni = 15, "gfni", "x86_64";
    /// SHA extensions (SHA-1, SHA-256).
    Sha = 16, "sha", "x86_64";
    /// Advanced SIMD.
    Neon = 17, "neon", "aarch64";
    /// 64-bit polynomial multiply (`pmull`).
    Pmull = 18, "pmull", "aarch64";
    /// SHA-1 and SHA-256 instructions.
    Sha2 = 19, "sha2", "aarch64";
    /// SHA-3 instructions (`eor3`, `rax1`, `xar`, `bcax`).
    Sha3 = 20, "sha3", "aarch64";
    /// SHA-512 instructions.
    Sha512 = 21, "sha512", "aarch64";
}

impl Feature {
    /// Looks a feature up by its name (as printed by `shyfr cpu`).
    pub fn from_name(name: &str) -> Option<Feature> {
        Feature::ALL.iter().copied().find(|f| f.name() == name)
    }

    /// The features that exist on the architecture this code was compiled for.
    pub fn this_arch() -> impl Iterator<Item = Feature> {
        Feature::ALL
            .iter()
            .copied()
            .filter(|f| f.arch() == "any" || f.arch() == THIS_ARCH)
    }

    const fn bit(self) -> u64 {
        1 << (self as u8)
    }
}

#[cfg(target_arch = "x86_64")]
const THIS_ARCH: &str = "x86_64";
#[cfg(target_arch = "aarch64")]
const THIS_ARCH: &str = "aarch64";
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const THIS_ARCH: &str = "other";

/// A set of CPU features.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Features(u64);

impl Features {
    /// The empty set (what `portable` leaves).
    pub const NONE: Features = Features(0);

    /// Whether `f` is in the set.
    pub const fn has(self, f: Feature) -> bool {
        self.0 & f.bit() != 0
    }

    /// Whether every feature of `fs` is in the set.
    pub fn has_all(self, fs: &[Feature]) -> bool {
        fs.iter().all(|&f| self.has(f))
    }

    /// The set with `f` added.
    pub const fn with(self, f: Feature) -> Features {
        Features(self.0 | f.bit())
    }

    /// The set with `f` removed.
    pub const fn without(self, f: Feature) -> Features {
        Features(self.0 & !f.bit())
    }

    /// The features in the set, in [`Feature::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Feature> {
        Feature::ALL.iter().copied().filter(move |&f| self.has(f))
    }
}

impl fmt::Debug for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.iter().map(Feature::name))
            .finish()
    }
}

impl fmt::Display for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for feat in self.iter() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            f.write_str(feat.name())?;
        }
        if first {
            f.write_str("(none)")?;
        }
        Ok(())
    }
}

/// A `SHYFR_CPU` / `--cpu` specification that could not be parsed.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SpecError {
    token: [u8; 32],
    len: u8,
}

impl SpecError {
    fn new(token: &str) -> Self {
        let mut t = [0u8; 32];
        // Keep a prefix that ends on a character boundary.
        let mut n = token.len().min(32);
        while !token.is_char_boundary(n) {
            n -= 1;
        }
        t[..n].copy_from_slice(&token.as_bytes()[..n]);
        SpecError {
            token: t,
            len: n as u8,
        }
    }

    /// The part of the specification that was not understood.
    pub fn token(&self) -> &str {
        core::str::from_utf8(&self.token[..self.len as usize]).unwrap_or("?")
    }
}

impl fmt::Debug for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SpecError({:?})", self.token())
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid CPU specification item {:?}: expected `portable`, `native`, or a comma list of \
             -FEATURE / +FEATURE with FEATURE one of:",
            self.token()
        )?;
        for feat in Feature::this_arch() {
            write!(f, " {}", feat.name())?;
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SpecError {}

/// Applies a specification (see the [module docs](self)) to the `detected` set.
///
/// The result is always a subset of `detected`.
pub fn parse_spec(spec: &str, detected: Features) -> Result<Features, SpecError> {
    let mut set = detected;
    for item in spec.split(',') {
        let item = item.trim();
        match item {
            "" => continue,
            "portable" | "none" => set = Features::NONE,
            "native" | "all" => set = detected,
            _ => {
                let (add, name) = match item.as_bytes()[0] {
                    b'-' => (false, &item[1..]),
                    b'+' => (true, &item[1..]),
                    _ => (true, item),
                };
                let feat = Feature::from_name(name.trim())
                    .filter(|f| f.arch() == "any" || f.arch() == THIS_ARCH)
                    .ok_or_else(|| SpecError::new(item))?;
                set = if add {
                    set.with(feat)
                } else {
                    set.without(feat)
                };
            }
        }
    }
    Ok(Features(set.0 & detected.0))
}

// Bit 63 marks an initialised cache word.
const INIT: u64 = 1 << 63;
static DETECTED: AtomicU64 = AtomicU64::new(0);
static ENABLED: AtomicU64 = AtomicU64::new(0);
// 0: no override; 1: override applied; 2: SHYFR_CPU was malformed (portable in force).
static OVERRIDE_STATE: AtomicU64 = AtomicU64::new(0);

fn detect_raw() -> Features {
    // Miri cannot execute CPUID (inline assembly) nor the kernels: under it the CPU has
    // no optional feature, so every path is the portable one.
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        x86::detect()
    }
    #[cfg(all(target_arch = "aarch64", not(miri)))]
    {
        aarch64::detect()
    }
    #[cfg(any(miri, not(any(target_arch = "x86_64", target_arch = "aarch64"))))]
    {
        Features::NONE
    }
}

/// Everything the CPU (and the operating system's state saving) offers, ignoring any
/// override. Detected once, then cached.
pub fn detected() -> Features {
    let v = DETECTED.load(Ordering::Relaxed);
    if v & INIT != 0 {
        return Features(v & !INIT);
    }
    let f = detect_raw();
    DETECTED.store(f.0 | INIT, Ordering::Relaxed);
    f
}

/// The features shyfr may use: [`detected`] with the override applied. Cached.
pub fn enabled() -> Features {
    let v = ENABLED.load(Ordering::Acquire);
    if v & INIT != 0 {
        return Features(v & !INIT);
    }
    let det = detected();
    let f = match env_spec() {
        None => det,
        Some(Ok(f)) => {
            OVERRIDE_STATE.store(1, Ordering::Relaxed);
            f
        }
        Some(Err(_)) => {
            OVERRIDE_STATE.store(2, Ordering::Relaxed);
            Features::NONE
        }
    };
    // A concurrent `set_override` wins over the environment.
    let _ = ENABLED.compare_exchange(0, f.0 | INIT, Ordering::AcqRel, Ordering::Acquire);
    Features(ENABLED.load(Ordering::Acquire) & !INIT)
}

#[cfg(feature = "std")]
fn env_spec() -> Option<Result<Features, SpecError>> {
    let spec = std::env::var("SHYFR_CPU").ok()?;
    Some(parse_spec(&spec, detected()))
}

#[cfg(not(feature = "std"))]
fn env_spec() -> Option<Result<Features, SpecError>> {
    None
}

/// If `SHYFR_CPU` is set but malformed, the parse error (the library then runs `portable`).
pub fn env_override_error() -> Option<SpecError> {
    match env_spec() {
        Some(Err(e)) => Some(e),
        _ => None,
    }
}

/// Whether an override (`SHYFR_CPU` or [`set_override`]) is in effect.
pub fn override_active() -> bool {
    let _ = enabled();
    OVERRIDE_STATE.load(Ordering::Relaxed) != 0
}

/// How many times [`set_override`] has replaced the enabled set: the families' cached
/// choice of the fastest backend is valid for one generation.
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// The current override generation (see [`set_override`]).
#[inline]
pub(crate) fn generation() -> u64 {
    GENERATION.load(Ordering::Acquire)
}

/// [`set_override`] calls under way (the enabled set may be changing).
static WRITERS: AtomicU64 = AtomicU64::new(0);

/// The generation, if no [`set_override`] is under way: a computation that reads the
/// enabled set (such as a backend's self-test, which sets up its kernel through a token)
/// saw one unchanged set if this returns the same `Some` before and after it.
pub(crate) fn stable_generation() -> Option<u64> {
    let g = GENERATION.load(Ordering::SeqCst);
    (WRITERS.load(Ordering::SeqCst) == 0).then_some(g)
}

/// Replaces the override (and any `SHYFR_CPU`) with `spec`, applied to [`detected`].
///
/// Keys set up before the call keep the backend they chose; keys set up afterwards follow
/// the new set.
pub fn set_override(spec: &str) -> Result<Features, SpecError> {
    let f = parse_spec(spec, detected())?;
    WRITERS.fetch_add(1, Ordering::SeqCst);
    OVERRIDE_STATE.store(1, Ordering::Relaxed);
    ENABLED.store(f.0 | INIT, Ordering::SeqCst);
    GENERATION.fetch_add(1, Ordering::SeqCst);
    WRITERS.fetch_sub(1, Ordering::SeqCst);
    Ok(f)
}

/// Whether every feature in `fs` is enabled (detected and not masked).
#[inline]
pub(crate) fn enabled_all(fs: &[Feature]) -> bool {
    enabled().has_all(fs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::format;

    fn all_here() -> Features {
        Feature::this_arch().fold(Features::NONE, Features::with)
    }

    #[test]
    fn spec_parsing() {
        let full = all_here();
        assert_eq!(parse_spec("portable", full).unwrap(), Features::NONE);
        assert_eq!(parse_spec("", full).unwrap(), full);
        assert_eq!(
            parse_spec("portable,+aes", full).unwrap(),
            Features::NONE.with(Feature::Aes)
        );
        assert!(!parse_spec("-aes", full).unwrap().has(Feature::Aes));
        assert!(parse_spec("-aes,native", full).unwrap().has(Feature::Aes));
        assert!(parse_spec("-bogus", full).is_err());
        assert!(parse_spec("aes;sse2", full).is_err());
        let e = parse_spec("-frobnicate", full).unwrap_err();
        assert_eq!(e.token(), "-frobnicate");
        assert!(format!("{e}").contains("aes"));
    }

    #[test]
    fn override_never_enables_missing() {
        let only_aes = Features::NONE.with(Feature::Aes);
        for f in Feature::this_arch() {
            let spec = format!("+{}", f.name());
            let got = parse_spec(&spec, only_aes).unwrap();
            assert_eq!(got, only_aes, "{spec} enabled something absent");
        }
    }

    #[test]
    fn enabled_is_subset_of_detected() {
        let d = detected();
        let e = enabled();
        assert_eq!(e.0 & !d.0, 0);
    }
}
