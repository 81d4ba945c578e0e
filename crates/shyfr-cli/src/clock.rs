//! An estimate of the core clock, used to turn bytes per second into cycles per byte.
//!
//! # Method
//!
//! `shyfr speed` estimates the core clock by timing a long chain of dependent integer
//! additions, written in inline assembly (100 register-to-register `add`s per loop
//! iteration) so that the compiler can neither shorten nor reorder it. Each addition needs
//! the result of the one before and has a latency of exactly one cycle on every x86-64 and
//! aarch64 core, so the chain retires one addition per cycle and additions per second equals
//! cycles per second. The chain is run for a warm-up and then several times for about 10 ms
//! each, and the fastest run is taken (interrupts and preemption only ever make a run
//! slower); this gives the frequency the core actually runs at under load, turbo included,
//! unlike the time-stamp counter, which ticks at a fixed rate. Cycles per byte is that
//! frequency divided by the measured bytes per second; `--ghz` replaces the estimate, and on
//! other architectures cycles per byte is shown only when `--ghz` is given.
//!
//! The addend is a register rather than an immediate because some cores (Intel Golden Cove
//! and later) can fold chains of immediate additions at register renaming, which would make
//! the chain run faster than one addition per cycle.
//!
//! Caveats: the estimate is of the clock while running simple integer code; a core that
//! lowers its clock for wide vector code (AVX-512 on some older Intel parts) runs the
//! measured kernel slower than this estimate, and a thread that moves between cores of
//! different kinds (big.LITTLE) measures whichever it ran on.

use std::time::Duration;

/// Additions per loop iteration of the chain (must match the `.rept` count below).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
const ADDS_PER_ITER: u64 = 100;

/// Time of one measured run of the chain.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
const RUN: Duration = Duration::from_millis(10);

/// Spinning before the measured runs, so the core leaves any idle state and reaches its
/// clock under load.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
const WARM_UP: Duration = Duration::from_millis(20);

/// Measured runs; the fastest is used.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
const RUNS: usize = 7;

/// Estimates below or above these bounds (in Hz) are treated as a failed measurement.
const PLAUSIBLE_HZ: std::ops::RangeInclusive<f64> = 1.0e8..=2.0e10;

/// Runs `iters` loop iterations (`iters * ADDS_PER_ITER` dependent additions) and returns
/// the time they took.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn chain(iters: u64) -> Duration {
    assert!(
        iters >= 1,
        "the loop counts down from iters and must not start at 0"
    );
    let one = std::hint::black_box(1u64);
    let mut x = std::hint::black_box(0u64);
    let start = std::time::Instant::now();
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the assembly only does arithmetic on the three registers it is given and
    // branches within itself; it reads and writes no memory and does not touch the stack.
    // The counter starts at `iters >= 1`, so the loop ends after `iters` iterations.
    unsafe {
        core::arch::asm!(
            "2:",
            ".rept 100",
            "add {x}, {one}",
            ".endr",
            "dec {n}",
            "jnz 2b",
            x = inout(reg) x,
            one = in(reg) one,
            n = inout(reg) iters => _,
            options(nomem, nostack),
        );
    }
    #[cfg(target_arch = "aarch64")]
    // SAFETY: as above (the same loop in AArch64 assembly).
    unsafe {
        core::arch::asm!(
            "2:",
            ".rept 100",
            "add {x}, {x}, {one}",
            ".endr",
            "subs {n}, {n}, #1",
            "b.ne 2b",
            x = inout(reg) x,
            one = in(reg) one,
            n = inout(reg) iters => _,
            options(nomem, nostack),
        );
    }
    let elapsed = start.elapsed();
    std::hint::black_box(x);
    elapsed
}

/// Estimates the core clock in Hz (see the [module docs](self) for the method).
///
/// Takes about 0.1 s. `None` on architectures without a chain, or if the result is
/// implausible (below 0.1 GHz or above 20 GHz).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub fn estimate_hz() -> Option<f64> {
    // Find a count that takes at least 1 ms, then scale it to about RUN.
    let mut iters: u64 = 1_000;
    let mut t = chain(iters);
    while t < Duration::from_millis(1) && iters < 1 << 40 {
        iters *= 2;
        t = chain(iters);
    }
    let scale = RUN.as_secs_f64() / t.as_secs_f64().max(1e-9);
    let iters = ((iters as f64 * scale) as u64).max(1);

    let warm_start = std::time::Instant::now();
    while warm_start.elapsed() < WARM_UP {
        chain(iters / 4 + 1);
    }

    let best = (0..RUNS).map(|_| chain(iters)).min()?;
    let hz = (iters * ADDS_PER_ITER) as f64 / best.as_secs_f64();
    plausible(hz)
}

/// Estimates the core clock in Hz: not available on this architecture.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub fn estimate_hz() -> Option<f64> {
    None
}

/// `Some(hz)` if `hz` is a believable core clock.
fn plausible(hz: f64) -> Option<f64> {
    PLAUSIBLE_HZ.contains(&hz).then_some(hz)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Only on x86-64: the aarch64 tests may run under an emulator, whose "clock" is
    // whatever rate it translates additions at.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn estimate_is_plausible() {
        let hz = estimate_hz().expect("an estimate on this architecture");
        assert!(PLAUSIBLE_HZ.contains(&hz), "{hz}");
    }

    #[test]
    fn implausible_rejected() {
        assert_eq!(plausible(5.0e7), None);
        assert_eq!(plausible(f64::NAN), None);
        assert_eq!(plausible(3.0e9), Some(3.0e9));
    }
}
