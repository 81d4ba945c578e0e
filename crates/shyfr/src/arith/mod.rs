//! Shared arithmetic rooms, one file per instruction set in each, used by the algorithm
//! families above them (see DESIGN.md, "Layout"):
//!
//! * `clmul`: carry-less multiplication and the GF(2^128) reduction of GHASH.
//! * `gf256`: byte S-boxes and GF(2^8) matrix steps (for Kalyna and Kupyna).
//! * `lanes`: transposes of words and lanes between registers (multi-block and
//!   multi-message kernels).
//! * [`bigint`]: big integers and Montgomery arithmetic (RSA).

#[cfg(feature = "alloc")]
pub mod bigint;
pub(crate) mod clmul;
pub(crate) mod gf256;
pub(crate) mod lanes;

/// The registry rows of the `"bigint"` family (empty without `alloc`).
pub(crate) fn bigint_registry_rows() -> impl Iterator<Item = crate::cpu::BackendStatus> {
    #[cfg(feature = "alloc")]
    {
        bigint::registry_rows()
    }
    #[cfg(not(feature = "alloc"))]
    {
        core::iter::empty()
    }
}
