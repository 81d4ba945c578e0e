//! The algorithms `shyfr speed` can measure.
//!
//! Each [`Algorithm`] is a row of [`ALGORITHMS`]: an OpenSSL-style name, the library's
//! algorithm family (whose backends, from [`shyfr::cpu::registry`], it can be run with),
//! the length its inputs must be a multiple of, the operations it supports, and a `setup`
//! function. `setup` sets the key up once (untimed) with a chosen backend and returns a
//! [`Runner`]: a closure that processes a buffer in place a given number of times. Adding
//! an algorithm is adding a row and, for a new kind of primitive, a setup function.

use std::hint::black_box;

use serde::Serialize;
use shyfr::aes::{Aes, Backend as AesBackend};
use shyfr::cpu::{self, BackendStatus, Feature};

/// Processes the buffer in place `reps` times (the closure keeps the key).
pub type Runner = Box<dyn FnMut(&mut [u8], u64)>;

/// What is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Operation {
    /// Encryption.
    Encrypt,
    /// Decryption.
    Decrypt,
}

impl Operation {
    /// The name in tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Operation::Encrypt => "encrypt",
            Operation::Decrypt => "decrypt",
        }
    }
}

/// A key set up with one backend, ready to be timed.
pub struct Prepared {
    /// The backend the key uses.
    pub backend: &'static str,
    /// Processes a buffer in place a number of times.
    pub run: Runner,
}

/// Sets up a key for `alg` with `backend` (the library's default choice for `None`).
type Setup = fn(alg: &Algorithm, backend: Option<&str>, op: Operation) -> Result<Prepared, String>;

/// One measurable algorithm.
pub struct Algorithm {
    /// The name on the command line (OpenSSL naming, e.g. `aes-128-ecb`).
    pub name: &'static str,
    /// The library's algorithm family (the `algorithm` of [`BackendStatus`]), whose
    /// backends this algorithm runs on.
    pub family: &'static str,
    /// Key length in bytes (0 for keyless algorithms).
    pub key_len: usize,
    /// Buffer sizes must be a multiple of this (the block length for ECB).
    pub block_len: usize,
    /// The operations it supports.
    pub operations: &'static [Operation],
    setup: Setup,
}

/// Every algorithm `shyfr speed` knows.
pub static ALGORITHMS: &[Algorithm] = &[
    Algorithm {
        name: "aes-128-ecb",
        family: "aes",
        key_len: 16,
        block_len: 16,
        operations: &[Operation::Encrypt, Operation::Decrypt],
        setup: aes_ecb,
    },
    Algorithm {
        name: "aes-192-ecb",
        family: "aes",
        key_len: 24,
        block_len: 16,
        operations: &[Operation::Encrypt, Operation::Decrypt],
        setup: aes_ecb,
    },
    Algorithm {
        name: "aes-256-ecb",
        family: "aes",
        key_len: 32,
        block_len: 16,
        operations: &[Operation::Encrypt, Operation::Decrypt],
        setup: aes_ecb,
    },
];

/// What `shyfr speed` measures when no algorithm is named.
pub const DEFAULT: &[&str] = &["aes-128-ecb", "aes-192-ecb", "aes-256-ecb"];

/// The algorithm called `name` (case-insensitive).
pub fn find(name: &str) -> Option<&'static Algorithm> {
    ALGORITHMS
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(name.trim()))
}

/// The names of every algorithm, comma-separated (for messages).
pub fn names() -> String {
    ALGORITHMS
        .iter()
        .map(|a| a.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The name that stands for "the portable backend" of any algorithm.
pub const PORTABLE: &str = "portable";

impl Algorithm {
    /// Sets a key up with `backend` (a name from [`resolve_backend`](Self::resolve_backend);
    /// `None` for the library's default choice) for `op`.
    pub fn prepare(&self, backend: Option<&str>, op: Operation) -> Result<Prepared, String> {
        if !self.operations.contains(&op) {
            return Err(format!("{} does not support {}", self.name, op.name()));
        }
        (self.setup)(self, backend, op)
    }

    /// The backends of this algorithm's family compiled into this build, fastest first.
    pub fn backends(&self) -> Vec<BackendStatus> {
        cpu::registry()
            .filter(|b| b.algorithm == self.family)
            .collect()
    }

    /// Checks a backend name given on the command line: `portable` (the family's backend
    /// that needs no CPU feature) or one of [`backends`](Self::backends). Returns the
    /// backend's own name, or a message saying why it cannot be used (unknown, with the
    /// valid names; or not available here, with the features it lacks).
    pub fn resolve_backend(&self, name: &str) -> Result<&'static str, String> {
        let all = self.backends();
        let found = if name == PORTABLE {
            all.iter().find(|b| b.needs.is_empty())
        } else {
            all.iter().find(|b| b.backend == name)
        };
        let Some(b) = found else {
            let mut valid = vec![PORTABLE];
            valid.extend(all.iter().map(|b| b.backend));
            return Err(format!(
                "unknown backend '{name}' for {}; valid backends: {}",
                self.name,
                valid.join(", ")
            ));
        };
        if !b.available {
            return Err(format!(
                "backend '{}' of {} is not available on this CPU: {}",
                b.backend,
                self.name,
                why_unavailable(b.needs)
            ));
        }
        Ok(b.backend)
    }
}

/// Why a backend needing `needs` is not available: the features the CPU lacks, and those
/// the override disabled.
pub fn why_unavailable(needs: &[Feature]) -> String {
    let detected = cpu::detected();
    let enabled = cpu::enabled();
    let lacking: Vec<&str> = needs
        .iter()
        .filter(|f| !detected.has(**f))
        .map(|f| f.name())
        .collect();
    let disabled: Vec<&str> = needs
        .iter()
        .filter(|f| detected.has(**f) && !enabled.has(**f))
        .map(|f| f.name())
        .collect();
    let mut parts = Vec::new();
    if !lacking.is_empty() {
        parts.push(format!("CPU lacks {}", lacking.join(" ")));
    }
    if !disabled.is_empty() {
        parts.push(format!("disabled by override: {}", disabled.join(" ")));
    }
    if parts.is_empty() {
        "not usable here".to_string()
    } else {
        parts.join("; ")
    }
}

/// A fixed, non-trivial key of `len` bytes.
fn bench_key(len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(37) ^ 0x5c)
        .collect()
}

/// Wraps a one-pass function into a [`Runner`]. Generic, so `f` is inlined into the loop
/// and the only per-pass cost beyond the library call is the loop itself.
fn repeat(mut f: impl FnMut(&mut [u8]) + 'static) -> Runner {
    Box::new(move |buf: &mut [u8], reps: u64| {
        for _ in 0..reps {
            f(black_box(&mut *buf));
        }
        black_box(&*buf);
    })
}

/// [`Setup`] for AES in ECB mode (`encrypt_blocks` / `decrypt_blocks` over the buffer).
fn aes_ecb(alg: &Algorithm, backend: Option<&str>, op: Operation) -> Result<Prepared, String> {
    let backend = match backend {
        None => AesBackend::best(),
        Some(name) => AesBackend::from_name(name)
            .ok_or_else(|| format!("{}: no AES backend called '{name}'", alg.name))?,
    };
    let aes = Aes::with_backend(&bench_key(alg.key_len), backend)
        .map_err(|e| format!("{}: cannot use backend {}: {e}", alg.name, backend.name()))?;
    let backend = aes.backend().name();
    let run = match op {
        Operation::Encrypt => repeat(move |buf| {
            aes.encrypt_blocks(buf)
                .expect("buffer sizes are checked to be whole blocks")
        }),
        Operation::Decrypt => repeat(move |buf| {
            aes.decrypt_blocks(buf)
                .expect("buffer sizes are checked to be whole blocks")
        }),
    };
    Ok(Prepared { backend, run })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_unique_and_findable() {
        for (i, a) in ALGORITHMS.iter().enumerate() {
            assert!(ALGORITHMS[..i].iter().all(|b| b.name != a.name));
            assert!(std::ptr::eq(find(a.name).unwrap(), a));
            assert!(!a.backends().is_empty(), "{}", a.name);
        }
        for d in DEFAULT {
            assert!(find(d).is_some());
        }
        assert!(find("AES-128-ECB").is_some());
        assert!(find("aes-128-cbc").is_none());
    }

    #[test]
    fn unknown_backend_lists_valid() {
        let e = find("aes-128-ecb")
            .unwrap()
            .resolve_backend("nope")
            .unwrap_err();
        assert!(e.contains("portable") && e.contains("soft"), "{e}");
    }

    #[test]
    fn portable_resolves_to_soft() {
        let a = find("aes-256-ecb").unwrap();
        assert_eq!(a.resolve_backend(PORTABLE), Ok("soft"));
    }

    #[test]
    fn hardware_backends_agree() {
        // Every available backend except `soft` (still being written) gives the same output.
        for a in ALGORITHMS {
            let mut outs = Vec::new();
            for b in a
                .backends()
                .iter()
                .filter(|b| b.available && b.backend != "soft")
            {
                let mut p = a.prepare(Some(b.backend), Operation::Encrypt).unwrap();
                assert_eq!(p.backend, b.backend);
                let mut buf: Vec<u8> = (0..512).map(|i| i as u8).collect();
                (p.run)(&mut buf, 3);
                outs.push(buf);
            }
            assert!(outs.windows(2).all(|w| w[0] == w[1]), "{}", a.name);
        }
    }
}
