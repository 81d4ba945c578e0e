//! Shared arithmetic: big integers and Montgomery arithmetic ([`bigint`]).

#[cfg(feature = "alloc")]
pub mod bigint;

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
