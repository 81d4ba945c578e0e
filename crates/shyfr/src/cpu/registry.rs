//! The registry of every algorithm's backends: which exist in this build, which this CPU
//! (after the override) can run, and which one a new key would select. `shyfr cpu` prints
//! it; tests iterate over it.

use crate::block::aes;

/// One backend of one algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackendStatus {
    /// Algorithm family, e.g. `"aes"`.
    pub algorithm: &'static str,
    /// Backend name, e.g. `"x86_aesni"`.
    pub backend: &'static str,
    /// The CPU features the backend needs (empty for portable code).
    pub needs: &'static [super::Feature],
    /// Whether this CPU, after the override, can run it.
    pub available: bool,
    /// Whether a key set up now would use it.
    pub selected: bool,
}

/// The rows of one algorithm family: every backend in `all` (fastest first), marking
/// `selected`. Each family's `registry_rows` is one call of this.
pub(crate) fn rows<B: Copy + PartialEq + 'static>(
    algorithm: &'static str,
    all: &'static [B],
    selected: B,
    name: fn(B) -> &'static str,
    needs: fn(B) -> &'static [super::Feature],
    available: fn(B) -> bool,
) -> impl Iterator<Item = BackendStatus> {
    all.iter().map(move |&b| BackendStatus {
        algorithm,
        backend: name(b),
        needs: needs(b),
        available: available(b),
        selected: b == selected,
    })
}

/// Every backend compiled into this build, grouped by algorithm, fastest first.
pub fn registry() -> impl Iterator<Item = BackendStatus> {
    rows(
        "aes",
        aes::Backend::ALL,
        aes::Backend::best(),
        aes::Backend::name,
        aes::Backend::needs,
        aes::Backend::is_available,
    )
    .chain(crate::aead::ghash::registry_rows())
    .chain(crate::hash::sha1::registry_rows())
    .chain(crate::hash::sha2::registry_rows())
    .chain(crate::hash::sha3::registry_rows())
    .chain(crate::arith::bigint_registry_rows())
}
