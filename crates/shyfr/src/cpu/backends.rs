//! The `backends!` declaration every algorithm family uses for its implementations.
//!
//! One declaration per family gives:
//!
//! * the public enum (`Backend`, fastest first) with [`ALL`], `name`, `from_name`, `needs`,
//!   `cpu_allows`, `self_test`, `is_available`, `best` and the family's registry rows;
//! * a private `Copy` enum of the same variants, each holding the zero-sized CPU token that
//!   proves its features (`new`, `best`, `backend`): the value a state or key keeps and
//!   matches on for every call, so the choice is made once, at set-up;
//! * a one-time known-answer self-test for every hardware backend, run on first use and
//!   cached for the process (in the spirit of a FIPS 140 power-on self-test): a backend
//!   whose self-test fails is reported unavailable and never selected. The family supplies
//!   the test (usually: the backend's output on fixed input equals the portable one's).
//!
//! An optional `demote = path;` after the self-test names a function `fn(Backend) -> bool`
//! telling which backends this CPU should try only after the other hardware backends (but
//! before portable code): for a backend that is available but measured slower than the next
//! one on some cores, so that the choice follows the measurement, not the list order alone.
//! It never makes a backend unavailable, and an explicitly requested backend is unaffected.
//!
//! A variant without a token (`soft`) is portable: always compiled, always available, never
//! self-tested against itself. A variant with `[arch] Token` exists in `ALL` only when
//! compiling for `arch`.
//!
//! ```ignore
//! crate::cpu::backends! {
//!     /// The implementations of SHA-1, fastest first.
//!     pub enum Backend("sha1"), tokens Inner {
//!         /// The x86 SHA extensions.
//!         X86ShaNi = "x86_shani" ["x86_64"] crate::cpu::x86::ShaNi,
//!         /// Portable code.
//!         Soft = "soft",
//!     }
//!     self_test = run_self_test;
//! }
//! ```
//!
//! [`ALL`]: crate::block::aes::Backend::ALL

/// See the [module documentation](self).
macro_rules! backends {
    (
        $(#[$m:meta])*
        $vis:vis enum $Backend:ident ($family:literal), tokens $Inner:ident {
            $(
                $(#[$vm:meta])*
                $Var:ident = $name:literal $([$arch:literal] $Tok:ty)?
            ),+ $(,)?
        }
        self_test = $self_test:path;
        $(demote = $demote:path;)?
    ) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        $vis enum $Backend {
            $( $(#[$vm])* $Var, )+
        }

        /// The chosen backend with the token that proves the CPU can run it; copying it is
        /// free (it holds no data).
        #[derive(Clone, Copy, Debug)]
        #[allow(dead_code)]
        pub(crate) enum $Inner {
            $( $(#[cfg(target_arch = $arch)])? $Var $(($Tok))?, )+
        }

        #[allow(dead_code)]
        impl $Backend {
            /// Every backend compiled into this build, fastest first.
            pub const ALL: &'static [$Backend] = &[
                $( $(#[cfg(target_arch = $arch)])? $Backend::$Var, )+
            ];

            /// The backend's name, as printed by `shyfr cpu` and `shyfr speed`.
            pub const fn name(self) -> &'static str {
                match self {
                    $( $Backend::$Var => $name, )+
                }
            }

            /// Looks a backend up by [`name`](Self::name) among those compiled in.
            pub fn from_name(name: &str) -> Option<$Backend> {
                $Backend::ALL.iter().copied().find(|b| b.name() == name)
            }

            /// The CPU features the backend needs (none for portable code).
            pub fn needs(self) -> &'static [$crate::cpu::Feature] {
                match self {
                    $( $(
                        #[cfg(target_arch = $arch)]
                        $Backend::$Var => <$Tok>::FEATURES,
                    )? )+
                    #[allow(unreachable_patterns)]
                    _ => &[],
                }
            }

            /// Whether this CPU, after the `SHYFR_CPU` override, has what the backend needs
            /// (without running its self-test).
            pub fn cpu_allows(self) -> bool {
                $Inner::new(self).is_some()
            }

            /// The backend's one-time known-answer self-test: `true` for portable code;
            /// for a hardware backend, run on first use when the CPU allows it, then cached.
            /// A backend that fails is never available.
            pub fn self_test(self) -> bool {
                use core::sync::atomic::{AtomicU8, Ordering};
                const N: usize = [$( $name ),+].len();
                static STATE: [AtomicU8; N] = [const { AtomicU8::new(0) }; N];
                if self.needs().is_empty() {
                    return true;
                }
                if !self.cpu_allows() {
                    return false;
                }
                let cell = &STATE[self as usize];
                match cell.load(Ordering::Relaxed) {
                    1 => true,
                    2 => false,
                    _ => loop {
                        // The test sets up its kernel through a token, which reads the
                        // enabled set: a result is kept only if no `set_override` (from
                        // another thread) changed that set meanwhile; otherwise the test
                        // runs again, or the backend is simply not allowed now.
                        let Some(g) = $crate::cpu::stable_generation() else {
                            core::hint::spin_loop();
                            continue;
                        };
                        if !self.cpu_allows() {
                            return false;
                        }
                        let ok: bool = $self_test(self);
                        if $crate::cpu::stable_generation() == Some(g) {
                            cell.store(if ok { 1 } else { 2 }, Ordering::Relaxed);
                            break ok;
                        }
                    },
                }
            }

            /// Whether this CPU, after the `SHYFR_CPU` override, can run the backend and
            /// the backend passed its self-test.
            pub fn is_available(self) -> bool {
                self.cpu_allows() && self.self_test()
            }

            /// The backend a key or state set up now would use: the first available one
            /// (backends demoted on this CPU last).
            pub fn best() -> $Backend {
                $Inner::best().backend()
            }

            /// This family's rows of the backend registry, fastest first.
            pub(crate) fn registry_rows() -> impl Iterator<Item = $crate::cpu::BackendStatus> {
                let best = $Backend::best();
                $Backend::ALL.iter().map(move |&b| $crate::cpu::BackendStatus {
                    algorithm: $family,
                    backend: b.name(),
                    needs: b.needs(),
                    available: b.is_available(),
                    selected: b == best,
                })
            }
        }

        #[allow(dead_code)]
        impl $Inner {
            /// The token of `b`, if this CPU (after the override) has its features; the
            /// self-test is not consulted (see [`Self::checked`]).
            #[inline]
            pub(crate) fn new(b: $Backend) -> Option<$Inner> {
                match b {
                    $(
                        $(#[cfg(target_arch = $arch)])?
                        $Backend::$Var => $crate::cpu::backends!(@token $Inner $Var $($Tok)?),
                    )+
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }

            /// The token of `b` if it is available (features present and self-test
            /// passed), else [`Error::BackendUnavailable`](crate::Error::BackendUnavailable).
            pub(crate) fn checked(b: $Backend) -> Result<$Inner, $crate::Error> {
                if !b.self_test() {
                    return Err($crate::Error::BackendUnavailable);
                }
                $Inner::new(b).ok_or($crate::Error::BackendUnavailable)
            }

            /// The fastest available backend's token: the first available one in `ALL`
            /// order, except that backends the family's `demote` names for this CPU come
            /// after the other hardware backends (still before portable code). The choice
            /// is cached (two loads on the hot path) until [`crate::cpu::set_override`]
            /// changes the enabled set.
            #[inline]
            pub(crate) fn best() -> $Inner {
                use core::sync::atomic::{AtomicU64, Ordering};
                // Generation << 8 | index + 1; 0 until the first choice.
                static CACHE: AtomicU64 = AtomicU64::new(0);
                let gen = $crate::cpu::generation();
                let c = CACHE.load(Ordering::Relaxed);
                if c != 0 && c >> 8 == gen {
                    if let Some(t) = $Inner::new($Backend::ALL[(c & 0xff) as usize - 1]) {
                        return t;
                    }
                }
                // Rank 0: the hardware backends; 1: those this CPU demotes; 2: portable.
                let rank = |b: $Backend| -> u8 {
                    $( if $demote(b) { return 1; } )?
                    if b.needs().is_empty() {
                        2
                    } else {
                        0
                    }
                };
                for r in 0..3 {
                    for (i, &b) in $Backend::ALL.iter().enumerate() {
                        if rank(b) != r {
                            continue;
                        }
                        if let Ok(t) = $Inner::checked(b) {
                            CACHE.store(gen << 8 | (i as u64 + 1), Ordering::Relaxed);
                            return t;
                        }
                    }
                }
                unreachable!("the portable backend is always available")
            }

            /// Which backend this is.
            #[inline]
            pub(crate) fn backend(self) -> $Backend {
                match self {
                    $(
                        $(#[cfg(target_arch = $arch)])?
                        $Inner::$Var { .. } => $Backend::$Var,
                    )+
                }
            }
        }
    };
    (@token $Inner:ident $Var:ident $Tok:ty) => { <$Tok>::get().map($Inner::$Var) };
    (@token $Inner:ident $Var:ident) => { Some($Inner::$Var) };
}

pub(crate) use backends;

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    crate::cpu::backends! {
        /// A family for the test: `Wide` first in the list, `Late` demoted.
        pub enum Backend("test"), tokens Inner {
            /// Needs AVX-512 F/VL/BW.
            Wide = "wide" ["x86_64"] crate::cpu::x86::Avx512,
            /// Needs SSSE3; always demoted.
            Late = "late" ["x86_64"] crate::cpu::x86::Ssse3,
            /// Portable.
            Soft = "soft",
        }
        self_test = pass;
        demote = late;
    }

    fn pass(_: Backend) -> bool {
        true
    }

    fn late(b: Backend) -> bool {
        b == Backend::Late
    }

    /// A demoted backend comes after the other hardware backends but before portable
    /// code: with AVX-512 (native runs on such CPUs) `Wide`, without it (other CPUs, CI's
    /// `-avx512f` run) `Late`, never `Soft` while SSSE3 is enabled.
    #[test]
    fn demoted_after_hardware_before_portable() {
        let expect = if Backend::Wide.is_available() {
            Backend::Wide
        } else if Backend::Late.is_available() {
            Backend::Late
        } else {
            Backend::Soft
        };
        assert_eq!(Backend::best(), expect);
        assert_eq!(Inner::best().backend(), expect);
    }
}
