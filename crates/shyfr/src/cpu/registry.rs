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

/// Every backend compiled into this build, grouped by algorithm, fastest first.
pub fn registry() -> impl Iterator<Item = BackendStatus> {
    let aes_selected = aes::Backend::best();
    aes::Backend::ALL.iter().map(move |&b| BackendStatus {
        algorithm: "aes",
        backend: b.name(),
        needs: b.needs(),
        available: b.is_available(),
        selected: b == aes_selected,
    })
}
