//! Big integers and constant-time modular arithmetic for RSA and prime generation.
//!
//! * [`BoxedUint`]: a non-negative integer with a run-time number of 64-bit limbs (its
//!   width is public, its value secret), zeroed on drop; constant-time add, subtract,
//!   compare, select, schoolbook multiply.
//! * [`Modulus`]: an odd modulus set up for Montgomery arithmetic with a chosen backend:
//!   modular multiplication, reduction of integers of any width, constant-time
//!   exponentiation ([`Modulus::pow`]: fixed window, every table entry read by a masked
//!   scan), exponentiation for public exponents only ([`Modulus::pow_vartime`]),
//!   constant-time inverses ([`Modulus::inv`], [`Modulus::inv_prime`]) and the paired
//!   exponentiation the RSA CRT uses ([`Modulus::pow_pair`]).
//! * [`prime`]: a sieve plus Miller–Rabin with the round counts of FIPS 186-5, Table B.1.
//!
//! | backend     | needs                       | what it does |
//! |-------------|-----------------------------|--------------|
//! | `x86_ifma`  | AVX-512F/VL + IFMA, BMI2, ADX | exponentiation in 52-bit digits, four digits a 256-bit register, both CRT halves interleaved (moduli of 1024 bits and more); otherwise as `x86_adx` |
//! | `x86_adx`   | BMI2 + ADX                  | Montgomery multiplication with MULX and two carry chains (ADCX/ADOX) |
//! | `aarch64`   | aarch64 (baseline)          | Montgomery multiplication on `mul`/`umulh` pairs, the modulus product folded into the operand pass (two carry chains) |
//! | `soft`      | nothing                     | portable CIOS Montgomery multiplication on `u128` products |
//!
//! Every backend is constant time in the values (the exponent bits included): no branch
//! and no memory index depends on them; only widths (limb counts, exponent lengths) and
//! public exponents of `_vartime` functions decide the control flow.

#[cfg(target_arch = "aarch64")]
mod aarch64;
mod limbs;
mod monty;
pub mod prime;
mod soft;
mod uint;

#[cfg(target_arch = "x86_64")]
mod x86_adx;
#[cfg(target_arch = "x86_64")]
mod x86_ifma;

pub use monty::Modulus;
pub use uint::BoxedUint;

pub(crate) use limbs::{div_exact_small, inv_mod_u64};

use crate::cpu::{BackendStatus, Feature};

#[cfg(target_arch = "x86_64")]
use crate::cpu::x86 as arch_cpu;

/// The widest integer the Montgomery kernels accept: 256 limbs (16384 bits).
pub const MAX_LIMBS: usize = 256;

/// The implementations of Montgomery arithmetic, fastest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// AVX-512 IFMA (52-bit digits) for exponentiation modulo 1024 bits and more, with
    /// MULX/ADCX/ADOX for the rest (x86-64).
    X86Ifma,
    /// MULX with the ADCX/ADOX carry chains (x86-64 with BMI2 and ADX).
    X86Adx,
    /// `mul`/`umulh` (aarch64).
    Aarch64,
    /// Portable code.
    Soft,
}

impl Backend {
    /// Every backend compiled into this build, fastest first.
    pub const ALL: &'static [Backend] = &[
        #[cfg(target_arch = "x86_64")]
        Backend::X86Ifma,
        #[cfg(target_arch = "x86_64")]
        Backend::X86Adx,
        #[cfg(target_arch = "aarch64")]
        Backend::Aarch64,
        Backend::Soft,
    ];

    /// The backend's name, as printed by `shyfr cpu` and `shyfr speed`.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::X86Ifma => "x86_ifma",
            Backend::X86Adx => "x86_adx",
            Backend::Aarch64 => "aarch64",
            Backend::Soft => "soft",
        }
    }

    /// Looks a backend up by [`name`](Self::name) among those compiled in.
    pub fn from_name(name: &str) -> Option<Backend> {
        Backend::ALL.iter().copied().find(|b| b.name() == name)
    }

    /// The CPU features the backend needs.
    pub fn needs(self) -> &'static [Feature] {
        match self {
            #[cfg(target_arch = "x86_64")]
            Backend::X86Ifma => arch_cpu::Ifma::FEATURES,
            #[cfg(target_arch = "x86_64")]
            Backend::X86Adx => arch_cpu::Adx::FEATURES,
            _ => &[],
        }
    }

    /// Whether this CPU, after the `SHYFR_CPU` override, can run the backend, and the
    /// backend passed its one-time self-test (see [`Backend::self_test`]).
    pub fn is_available(self) -> bool {
        self.cpu_allows() && self.self_test()
    }

    fn cpu_allows(self) -> bool {
        match self {
            #[cfg(target_arch = "x86_64")]
            Backend::X86Ifma => arch_cpu::Ifma::get().is_some(),
            #[cfg(target_arch = "x86_64")]
            Backend::X86Adx => arch_cpu::Adx::get().is_some(),
            #[cfg(target_arch = "aarch64")]
            Backend::Aarch64 => true,
            Backend::Soft => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// The backend a modulus set up now would use.
    pub fn best() -> Backend {
        Backend::ALL
            .iter()
            .copied()
            .find(|b| b.is_available())
            .unwrap_or(Backend::Soft)
    }

    /// The one-time known-answer self-test, cached: exponentiations (single and paired,
    /// constant-time and `_vartime`), multiplications and reductions modulo fixed 521-,
    /// 1024-, 1536- and 2048-bit odd moduli must equal the `soft` backend's, whose own
    /// correctness the test suite establishes against `num-bigint`. A backend that fails is
    /// reported unavailable and never selected. `soft` is not tested against itself.
    pub fn self_test(self) -> bool {
        use core::sync::atomic::{AtomicU8, Ordering};
        const UNKNOWN: u8 = 0;
        const PASS: u8 = 1;
        const FAIL: u8 = 2;
        static STATE: [AtomicU8; 4] = [const { AtomicU8::new(UNKNOWN) }; 4];
        if self == Backend::Soft {
            return true;
        }
        if !self.cpu_allows() {
            return false;
        }
        let cell = &STATE[self as usize];
        match cell.load(Ordering::Relaxed) {
            PASS => true,
            FAIL => false,
            _ => {
                let ok = monty::self_test_agrees(self);
                cell.store(if ok { PASS } else { FAIL }, Ordering::Relaxed);
                ok
            }
        }
    }
}

/// The registry rows of the `"bigint"` family (see [`crate::cpu::registry`]).
pub(crate) fn registry_rows() -> impl Iterator<Item = BackendStatus> {
    crate::cpu::registry::rows(
        "bigint",
        Backend::ALL,
        Backend::best(),
        Backend::name,
        Backend::needs,
        Backend::is_available,
    )
}
