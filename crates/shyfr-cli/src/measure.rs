//! Timing loops of `shyfr speed`: one stream, or N independent streams on N threads.
//!
//! A buffer of the cell's size is processed in place over and over. The clock is read once
//! per batch of calls, the batch grown beforehand (the warm-up) until it takes a small
//! fraction of a trial, so reading the clock costs nothing measurable even for 16-byte
//! buffers. Every trial is returned; the caller reports the best and the spread.
//!
//! With threads, each thread sets up its own key (its own [`Prepared`]) and its own buffer,
//! calibrates its own batch, and all of them start every trial together at a barrier and run
//! for the same time. A trial's aggregate throughput is the sum of the threads' throughputs
//! in that trial. This measures independent streams, one per core: how the machine scales
//! when several users or connections each run the algorithm, not a single large message
//! split across cores (the library's own multi-core bulk paths are a separate matter:
//! [`split`] measures those, one buffer on a rayon pool of N threads).

use std::sync::Barrier;
use std::time::{Duration, Instant};

use crate::algorithms::{Algorithm, Operation, Runner};

/// The clock is read at most about this many times per trial.
const BATCHES_PER_TRIAL: u32 = 64;

/// The largest batch the warm-up grows to.
const MAX_BATCH: u64 = 1 << 40;

/// The buffer a cell processes: `size` bytes of a fixed pattern.
fn buffer(size: usize) -> Vec<u8> {
    (0..size).map(|i| i as u8).collect()
}

/// Grows the batch until one takes about `target` (this doubles as the warm-up).
fn calibrate(run: &mut Runner, buf: &mut [u8], target: Duration) -> u64 {
    let mut batch: u64 = 1;
    loop {
        let start = Instant::now();
        run(buf, batch);
        let took = start.elapsed();
        if took >= target || batch >= MAX_BATCH {
            return batch;
        }
        let factor = if took.is_zero() {
            8.0
        } else {
            (target.as_secs_f64() / took.as_secs_f64()).clamp(1.5, 8.0)
        };
        batch = ((batch as f64 * factor).ceil() as u64).min(MAX_BATCH);
    }
}

/// Runs batches for at least `trial`; bytes per second.
fn one_trial(run: &mut Runner, buf: &mut [u8], batch: u64, trial: Duration) -> f64 {
    let start = Instant::now();
    let mut reps: u64 = 0;
    let took = loop {
        run(buf, batch);
        reps += batch;
        let took = start.elapsed();
        if took >= trial {
            break took;
        }
    };
    reps as f64 * buf.len() as f64 / took.as_secs_f64()
}

/// Measures `run` over a buffer of `size` bytes for about `seconds` in all, split into
/// `trials` trials; the bytes per second of each trial.
pub fn single(run: &mut Runner, size: usize, seconds: f64, trials: u32) -> Vec<f64> {
    let mut buf = buffer(size);
    let trial = Duration::from_secs_f64(seconds / f64::from(trials));
    let batch = calibrate(run, &mut buf, trial / BATCHES_PER_TRIAL);
    (0..trials)
        .map(|_| one_trial(run, &mut buf, batch, trial))
        .collect()
}

/// Measures `run` like [`single`], but inside a rayon pool of `threads` threads, so the
/// library's multi-core bulk paths (feature `parallel`) split each buffer across them
/// (`threads` = 1 is the single-thread figure of the same code). An error if the pool
/// cannot be built.
pub fn split(
    run: &mut Runner,
    size: usize,
    seconds: f64,
    trials: u32,
    threads: usize,
) -> Result<Vec<f64>, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    Ok(pool.install(|| single(run, size, seconds, trials)))
}

/// Measures `threads` independent streams of `alg`'s `op` on `backend` at once, each thread
/// with its own key and buffer, for about `seconds` split into `trials` trials; the
/// aggregate bytes per second of each trial. An error if a thread cannot set its key up.
pub fn threaded(
    alg: &'static Algorithm,
    op: Operation,
    backend: &'static str,
    size: usize,
    seconds: f64,
    trials: u32,
    threads: usize,
) -> Result<Vec<f64>, String> {
    let trial = Duration::from_secs_f64(seconds / f64::from(trials));
    // Everyone meets once after set-up and calibration, then before every trial.
    let barrier = Barrier::new(threads);
    let per_thread: Vec<Result<Vec<f64>, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let barrier = &barrier;
                s.spawn(move || {
                    let prepared = alg.prepare(Some(backend), op);
                    let Ok(mut p) = prepared else {
                        // Keep the others from waiting forever.
                        for _ in 0..=trials {
                            barrier.wait();
                        }
                        return Err(prepared.err().unwrap_or_default());
                    };
                    let mut buf = buffer(size);
                    let batch = calibrate(&mut p.run, &mut buf, trial / BATCHES_PER_TRIAL);
                    barrier.wait();
                    Ok((0..trials)
                        .map(|_| {
                            barrier.wait();
                            one_trial(&mut p.run, &mut buf, batch, trial)
                        })
                        .collect())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a measuring thread panicked".to_string()))
            })
            .collect()
    });
    let mut total = vec![0.0f64; trials as usize];
    for t in per_thread {
        for (sum, bps) in total.iter_mut().zip(t?) {
            *sum += bps;
        }
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms;

    #[test]
    fn single_counts_bytes() {
        let counter = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let c2 = counter.clone();
        let mut run: Runner = Box::new(move |buf: &mut [u8], reps: u64| {
            for _ in 0..reps {
                buf[0] = buf[0].wrapping_add(1);
            }
            c2.fetch_add(reps, std::sync::atomic::Ordering::Relaxed);
        });
        let bps = single(&mut run, 64, 0.03, 3);
        assert_eq!(bps.len(), 3);
        assert!(bps.iter().all(|b| *b > 0.0 && b.is_finite()));
        assert!(counter.load(std::sync::atomic::Ordering::Relaxed) > 3);
    }

    #[test]
    fn split_runs_in_a_pool_of_that_size() {
        let seen = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let s2 = seen.clone();
        let mut run: Runner = Box::new(move |_buf: &mut [u8], _reps: u64| {
            s2.store(
                rayon::current_num_threads(),
                std::sync::atomic::Ordering::Relaxed,
            );
        });
        let bps = split(&mut run, 64, 0.02, 2, 3).unwrap();
        assert_eq!(bps.len(), 2);
        assert_eq!(seen.load(std::sync::atomic::Ordering::Relaxed), 3);
    }

    #[test]
    fn threaded_sums_streams() {
        let alg = algorithms::find("aes-128-ecb").unwrap();
        let backend = alg.resolve_backend(algorithms::PORTABLE).unwrap();
        let bps = threaded(alg, Operation::Encrypt, backend, 256, 0.02, 2, 2).unwrap();
        assert_eq!(bps.len(), 2);
        assert!(bps.iter().all(|b| *b > 0.0 && b.is_finite()));
    }

    #[test]
    fn threaded_reports_setup_errors() {
        let alg = algorithms::find("aes-128-ecb").unwrap();
        let e = threaded(alg, Operation::Hash, "soft", 16, 0.01, 1, 2).unwrap_err();
        assert!(e.contains("does not support"), "{e}");
    }
}
