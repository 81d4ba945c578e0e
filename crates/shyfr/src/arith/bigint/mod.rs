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
//! | `x86_adx`   | BMI2 + ADX                  | Montgomery multiplication with MULX and two carry chains (ADCX/ADOX), operand and modulus rows fused four limbs at a time; a dedicated squaring from 20 limbs |
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

/// The widest integer the Montgomery kernels accept: 256 limbs (16384 bits).
pub const MAX_LIMBS: usize = 256;

crate::cpu::backends! {
    /// The implementations of Montgomery arithmetic, fastest first.
    pub enum Backend("bigint"), tokens Token {
        /// AVX-512 IFMA (52-bit digits) for exponentiation modulo 1024 bits and more, with
        /// MULX/ADCX/ADOX for the rest (x86-64).
        X86Ifma = "x86_ifma" ["x86_64"] crate::cpu::x86::Ifma,
        /// MULX with the ADCX/ADOX carry chains (x86-64 with BMI2 and ADX).
        X86Adx = "x86_adx" ["x86_64"] crate::cpu::x86::Adx,
        /// `mul`/`umulh` (aarch64).
        Aarch64 = "aarch64" ["aarch64"] crate::cpu::aarch64::Neon,
        /// Portable code.
        Soft = "soft",
    }
    self_test = monty::self_test_agrees;
}

/// The rows of the `"bigint"` family (see [`crate::registry`]).
pub(crate) fn registry_rows() -> impl Iterator<Item = crate::cpu::BackendStatus> {
    Backend::registry_rows()
}
