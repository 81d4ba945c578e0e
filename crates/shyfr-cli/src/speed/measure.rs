//! Timing loops of `shyfr speed`: one stream, or N independent streams on N threads.
//!
//! A buffer of the cell's size is processed in place over and over. The clock is read once
//! per batch of calls, the batch grown beforehand (the warm-up) until it takes a small
//! fraction of a trial, so reading the clock costs nothing measurable even for 16-byte
//! buffers. Every trial is returned; the caller reports the best and the spread.
//!
//! With threads, each thread sets up its own key and its own buffer; all of them start every
//! trial together and run until a common deadline, and a trial's aggregate throughput is
//! the bytes of all threads over the time from the start until the last one stopped (one
//! clock for all, see [`threaded`]). This measures independent streams, one per core: how the machine scales
//! when several users or connections each run the algorithm, not a single large message
//! split across cores (the library's own multi-core bulk paths are a separate matter:
//! [`split`] measures those, one buffer on a rayon pool of N threads).

use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use super::setup::{Operation, Runner};
use crate::algorithms::Algorithm;

/// The clock is read at most about this many times per trial.
const BATCHES_PER_TRIAL: u32 = 64;

/// The largest batch the warm-up grows to.
const MAX_BATCH: u64 = 1 << 40;

/// The buffer a cell processes: `size` bytes of a fixed pattern.
/// An error (not an abort) if the memory cannot be had.
fn buffer(size: usize) -> Result<Vec<u8>, String> {
    let mut v = Vec::new();
    v.try_reserve_exact(size)
        .map_err(|_| format!("cannot allocate a buffer of {size} bytes"))?;
    v.extend((0..size).map(|i| i as u8));
    Ok(v)
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

/// The batch [`single`] uses for these parameters: passes between two readings of the
/// clock, about 1/[`BATCHES_PER_TRIAL`] of a trial (this also warms `run` up).
pub fn calibrate_for(
    run: &mut Runner,
    size: usize,
    seconds: f64,
    trials: u32,
) -> Result<u64, String> {
    let mut buf = buffer(size)?;
    let trial = Duration::from_secs_f64(seconds / f64::from(trials));
    Ok(calibrate(run, &mut buf, trial / BATCHES_PER_TRIAL))
}

/// Measures `run` over a buffer of `size` bytes for about `seconds` in all, split into
/// `trials` trials, on one thread; the bytes per second of each trial. One thread also
/// for the library inside `run`: its multi-core bulk paths (feature `parallel`, from
/// 1 MiB) see a pool of one thread, as in [`split`] with `threads` = 1, so that the
/// single-thread figure is that even for large buffers on a machine of many cores.
pub fn single(
    run: &mut Runner,
    size: usize,
    seconds: f64,
    trials: u32,
) -> Result<Vec<f64>, String> {
    split(run, size, seconds, trials, 1)
}

/// [`single`]'s measurement in whatever rayon pool the caller is in.
fn measure_here(
    run: &mut Runner,
    size: usize,
    seconds: f64,
    trials: u32,
) -> Result<Vec<f64>, String> {
    let mut buf = buffer(size)?;
    let trial = Duration::from_secs_f64(seconds / f64::from(trials));
    let batch = calibrate(run, &mut buf, trial / BATCHES_PER_TRIAL);
    Ok((0..trials)
        .map(|_| one_trial(run, &mut buf, batch, trial))
        .collect())
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
    pool.install(|| measure_here(run, size, seconds, trials))
}

/// Measures `threads` independent streams of `alg`'s `op` on `backend` at once, each thread
/// with its own key and buffer, for about `seconds` split into `trials` trials; the
/// aggregate bytes per second of each trial. `batch` is the number of passes between two
/// readings of the clock (from [`calibrate_for`] on one thread).
///
/// Every trial is timed on one clock: the coordinator reads the start time, then releases
/// all threads at once; each runs batches until the common deadline has passed and
/// reports its bytes and the time it stopped. The trial's figure is the bytes of all
/// threads over the time from the start until the last thread stopped, so threads that
/// had to wait for a core (more threads than cores) make the figure smaller, never larger.
/// An error if a thread cannot be started or cannot set its key up.
#[allow(clippy::too_many_arguments)]
pub fn threaded(
    alg: &'static Algorithm,
    op: Operation,
    backend: &'static str,
    size: usize,
    seconds: f64,
    trials: u32,
    threads: usize,
    batch: u64,
) -> Result<Vec<f64>, String> {
    let trial = Duration::from_secs_f64(seconds / f64::from(trials));
    let coord = Coordinator::default();
    std::thread::scope(|s| {
        for i in 0..threads {
            let coord = &coord;
            // Each stream is one thread, also for the library's multi-core bulk paths
            // inside it (a pool of one thread each, as in `single`).
            let pool = match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
                Ok(p) => p,
                Err(e) => {
                    coord.abort();
                    return Err(format!("cannot start thread {} of {threads}: {e}", i + 1));
                }
            };
            let spawned = std::thread::Builder::new()
                .name(format!("shyfr-speed-{i}"))
                .spawn_scoped(s, move || {
                    pool.install(|| stream(coord, alg, op, backend, size, batch))
                });
            if let Err(e) = spawned {
                coord.abort();
                return Err(format!(
                    "cannot start thread {} of {threads}: {}",
                    i + 1,
                    crate::report::io_text(&e)
                ));
            }
        }
        let result = coord.run_trials(threads, trials, trial);
        // Done (or failed): every thread returns, and the scope joins them.
        coord.abort();
        result
    })
}

/// What the coordinator and the measuring threads share.
#[derive(Default)]
struct Coordinator {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Default)]
struct State {
    /// Threads that have set their key up (or failed to).
    ready: usize,
    /// The first set-up error.
    failed: Option<String>,
    /// The trial the threads may run (1, 2, ...; 0 before the first).
    trial: u32,
    /// When the current trial ends.
    deadline: Option<Instant>,
    /// (bytes, time stopped) of each thread that finished the current trial.
    done: Vec<(f64, Instant)>,
    /// Set when the measurement is over (or abandoned): every thread returns.
    abort: bool,
}

impl Coordinator {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn wait<'a>(&self, g: std::sync::MutexGuard<'a, State>) -> std::sync::MutexGuard<'a, State> {
        self.changed.wait(g).unwrap_or_else(|p| p.into_inner())
    }

    fn abort(&self) {
        self.lock().abort = true;
        self.changed.notify_all();
    }

    /// Waits for every thread to be ready, then runs the trials; the aggregate bytes per
    /// second of each.
    fn run_trials(&self, threads: usize, trials: u32, trial: Duration) -> Result<Vec<f64>, String> {
        let mut g = self.lock();
        while g.ready < threads {
            g = self.wait(g);
        }
        if let Some(e) = g.failed.take() {
            return Err(e);
        }
        let mut out = Vec::with_capacity(trials as usize);
        for t in 1..=trials {
            g.done.clear();
            let start = Instant::now();
            g.deadline = Some(start + trial);
            g.trial = t;
            self.changed.notify_all();
            while g.done.len() < threads {
                g = self.wait(g);
            }
            let bytes: f64 = g.done.iter().map(|d| d.0).sum();
            let last = g.done.iter().map(|d| d.1).max().unwrap_or(start);
            let took = last.duration_since(start).as_secs_f64();
            out.push(if took > 0.0 { bytes / took } else { 0.0 });
        }
        Ok(out)
    }
}

/// One measuring thread: sets its key up, then runs each trial the coordinator releases.
fn stream(
    coord: &Coordinator,
    alg: &'static Algorithm,
    op: Operation,
    backend: &'static str,
    size: usize,
    batch: u64,
) {
    let prepared = alg.prepare(Some(backend), op);
    let buf = buffer(size);
    let ready = prepared.and_then(|p| buf.map(|b| (p, b)));
    {
        let mut g = coord.lock();
        g.ready += 1;
        if let Err(e) = &ready {
            g.failed.get_or_insert_with(|| e.clone());
        }
        coord.changed.notify_all();
    }
    let Ok((mut p, mut buf)) = ready else {
        return;
    };
    let mut seen = 0;
    loop {
        let deadline = {
            let mut g = coord.lock();
            while g.trial == seen && !g.abort {
                g = coord.wait(g);
            }
            if g.abort {
                return;
            }
            seen = g.trial;
            g.deadline.unwrap_or_else(Instant::now)
        };
        let mut reps: u64 = 0;
        let end = loop {
            (p.run)(&mut buf, batch);
            reps += batch;
            let now = Instant::now();
            if now >= deadline {
                break now;
            }
        };
        let mut g = coord.lock();
        g.done.push((reps as f64 * size as f64, end));
        coord.changed.notify_all();
    }
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
        let bps = single(&mut run, 64, 0.03, 3).unwrap();
        assert_eq!(bps.len(), 3);
        assert!(bps.iter().all(|b| *b > 0.0 && b.is_finite()));
        assert!(counter.load(std::sync::atomic::Ordering::Relaxed) > 3);
    }

    /// `split` runs in a pool of the threads asked for and `single` in a pool of one (the
    /// library's multi-core bulk paths split a buffer among `rayon::current_num_threads()`),
    /// on a machine of any number of cores.
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
        single(&mut run, 64, 0.01, 2).unwrap();
        assert_eq!(seen.load(std::sync::atomic::Ordering::Relaxed), 1);
    }

    #[test]
    fn threaded_sums_streams() {
        let alg = algorithms::find("aes-128-ecb").unwrap();
        let backend = alg.resolve_backend(algorithms::PORTABLE).unwrap();
        let bps = threaded(alg, Operation::Encrypt, backend, 256, 0.02, 2, 2, 4).unwrap();
        assert_eq!(bps.len(), 2);
        assert!(bps.iter().all(|b| *b > 0.0 && b.is_finite()));
    }

    #[test]
    fn threaded_on_one_clock_cannot_exceed_the_cores() {
        // Many more threads than cores: they take turns, and the figure is the bytes of all
        // of them over the time until the last stopped, so the aggregate cannot be much
        // above what the cores can do together (summing each thread's own rate could:
        // 373x on 2 cores). One core's rate is the best of many short single-thread
        // trials, before and after, so that tests running alongside do not lower it.
        let alg = algorithms::find("sha256").unwrap();
        let backend = alg.resolve_backend(algorithms::PORTABLE).unwrap();
        let mut run = alg.prepare(Some(backend), Operation::Hash).unwrap().run;
        let best = |run: &mut Runner| {
            single(run, 64, 0.2, 20)
                .unwrap()
                .into_iter()
                .fold(0.0, f64::max)
        };
        let before = best(&mut run);
        let batch = calibrate_for(&mut run, 64, 0.02, 1).unwrap();
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let n = (16 * cores).min(256);
        let many = threaded(alg, Operation::Hash, backend, 64, 0.05, 1, n, batch).unwrap()[0];
        let one = before.max(best(&mut run));
        assert!(
            many < one * (2 * cores) as f64,
            "{many} with {n} threads, {one} with one, {cores} cores"
        );
    }

    #[test]
    fn threaded_reports_setup_errors() {
        let alg = algorithms::find("aes-128-ecb").unwrap();
        let e = threaded(alg, Operation::Hash, "soft", 16, 0.01, 1, 2, 4).unwrap_err();
        assert!(e.contains("does not support"), "{e}");
    }
}
