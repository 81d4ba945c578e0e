//! `shyfr-bench`: shyfr against OpenSSL, RustCrypto, `ring` and `aws-lc-rs`, measured in one
//! process.
//!
//! For every algorithm in [`rows::ROWS`] and every buffer size, each trial round runs every
//! implementation in turn (the starting one rotating between rounds) for `--seconds`, and the
//! best of `--trials` rounds is kept: the machines are shared and noisy, and alternating
//! within one process makes the ratios comparable even when the absolute numbers drift.
//! Before timing, every implementation of a row is run once on the same input and must give
//! the same output as shyfr.
//!
//! Cycles per byte use a core-clock estimate from a chain of dependent additions
//! ([`clock`]); `--ghz` replaces it.

// The core-clock estimate is the `shyfr` command's own (one method for both tools).
#[path = "../../crates/shyfr-cli/src/clock.rs"]
mod clock;
mod ossl;
mod rows;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Parser;
use serde::Serialize;

use rows::{Op, Peer, Row, ROWS};

/// shyfr against OpenSSL, RustCrypto, ring and aws-lc-rs, alternating in one process.
#[derive(Parser, Debug)]
#[command(name = "shyfr-bench")]
struct Args {
    /// Buffer sizes in bytes, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [16usize, 64, 256, 1024, 8192, 16384])]
    sizes: Vec<usize>,
    /// Seconds each implementation runs per size in each trial round.
    #[arg(long, default_value_t = 0.2)]
    seconds: f64,
    /// Trial rounds; the best of them is kept.
    #[arg(long, default_value_t = 3)]
    trials: usize,
    /// Core clock in GHz for cycles per byte (default: estimated).
    #[arg(long)]
    ghz: Option<f64>,
    /// Also write DIR/peers.md and DIR/peers.json.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Only these algorithms (comma-separated names, e.g. aes-128-gcm,sha256).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// List the algorithms and which peers have them, then exit.
    #[arg(long)]
    list: bool,
    /// Time single calls instead of a stream for `--seconds`: in each trial round, the
    /// fastest of N batches of 16 calls (per-call cost on short inputs, where one
    /// preemption would spoil a longer run; the machines are shared).
    #[arg(long, value_name = "N")]
    per_call: Option<u32>,
}

/// One measured cell: an implementation of an algorithm at one size.
#[derive(Serialize, Clone)]
struct Cell {
    peer: &'static str,
    mb_per_s: f64,
    cycles_per_byte: Option<f64>,
}

/// One line of the table: an algorithm at one size.
#[derive(Serialize)]
struct Line {
    algorithm: &'static str,
    operation: &'static str,
    bytes: usize,
    cells: Vec<Cell>,
    best_peer: Option<&'static str>,
    /// shyfr's throughput over the best peer's (above 1: shyfr faster).
    ratio: Option<f64>,
}

#[derive(Serialize)]
struct Report {
    command: String,
    machine: Machine,
    ghz: Option<f64>,
    ghz_source: &'static str,
    seconds: f64,
    trials: usize,
    peers: Vec<&'static str>,
    skipped_peers: Vec<String>,
    lines: Vec<Line>,
}

#[derive(Serialize)]
struct Machine {
    cpu: String,
    flags: Vec<String>,
    cores: usize,
    openssl: String,
}

/// CPU flags that matter for these algorithms, in this order.
const FLAGS: &[&str] = &[
    "aes",
    "vaes",
    "pclmulqdq",
    "vpclmulqdq",
    "avx2",
    "avx512f",
    "sha_ni",
    "bmi2",
];

fn machine() -> Machine {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        info.lines()
            .find(|l| l.split(':').next().map(str::trim) == Some(name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
    };
    let cpu = field("model name").unwrap_or_else(|| "unknown".into());
    let have: Vec<String> = field("flags")
        .unwrap_or_default()
        .split_whitespace()
        .map(String::from)
        .collect();
    let flags = FLAGS
        .iter()
        .map(|f| {
            if have.iter().any(|h| h == f) {
                f.to_string()
            } else {
                format!("no {f}")
            }
        })
        .collect();
    Machine {
        cpu,
        flags,
        cores: std::thread::available_parallelism().map_or(0, |n| n.get()),
        openssl: openssl::version::version().to_string(),
    }
}

/// Input for size `n`: deterministic, not all zero.
fn input(n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(131).wrapping_add(17))
        .collect()
}

/// Runs every implementation of `row` once on the same `n`-byte input; all must give
/// shyfr's output (buffer and digest or tag).
fn check(row: &Row, ops: &mut [(Peer, Op)], n: usize) -> Result<(), String> {
    let mut want: Option<(Vec<u8>, Vec<u8>)> = None;
    for (peer, op) in ops.iter_mut() {
        let mut buf = input(n);
        let mut out = [0u8; 64];
        let len = op(&mut buf, &mut out);
        let got = (buf, out[..len].to_vec());
        match &want {
            None => want = Some(got),
            Some(w) if *w == got => {}
            Some(_) => {
                return Err(format!(
                    "{}: {} disagrees with shyfr on a {n}-byte input",
                    row.name,
                    peer.name()
                ))
            }
        }
    }
    Ok(())
}

/// Runs `op` over `buf` for about `secs` and returns bytes per second. The first batches
/// (until one takes 1 ms) warm up and size the batches; they are not counted.
fn measure(op: &mut Op, buf: &mut [u8], secs: f64, per_call: Option<u32>) -> f64 {
    let mut out = [0u8; 64];
    if let Some(n) = per_call {
        const CALLS: u32 = 16;
        for _ in 0..CALLS {
            std::hint::black_box(op(std::hint::black_box(&mut *buf), &mut out));
        }
        let mut best = Duration::MAX;
        for _ in 0..n.max(1) {
            let t = Instant::now();
            for _ in 0..CALLS {
                std::hint::black_box(op(std::hint::black_box(&mut *buf), &mut out));
            }
            best = best.min(t.elapsed());
        }
        return (CALLS as f64 * buf.len() as f64) / best.as_secs_f64().max(1e-12);
    }
    let mut batch: u64 = 1;
    loop {
        let t = Instant::now();
        for _ in 0..batch {
            std::hint::black_box(op(std::hint::black_box(&mut *buf), &mut out));
        }
        if t.elapsed() >= Duration::from_millis(1) || batch >= 1 << 30 {
            break;
        }
        batch *= 2;
    }
    let budget = Duration::from_secs_f64(secs);
    let start = Instant::now();
    let mut iters: u64 = 0;
    let mut elapsed;
    loop {
        for _ in 0..batch {
            std::hint::black_box(op(std::hint::black_box(&mut *buf), &mut out));
        }
        iters += batch;
        elapsed = start.elapsed();
        if elapsed >= budget {
            break;
        }
    }
    (iters as f64 * buf.len() as f64) / elapsed.as_secs_f64()
}

fn main() {
    let args = Args::parse();
    // As it would be typed from the repository root (the binary's own path varies).
    let command = std::iter::once("cargo run --release -p shyfr-bench --".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    if args.trials == 0 || args.seconds.is_nan() || args.seconds <= 0.0 || args.sizes.is_empty() {
        eprintln!("shyfr-bench: need --trials >= 1, --seconds > 0 and at least one size");
        std::process::exit(2);
    }
    let rows: Vec<&Row> = ROWS
        .iter()
        .filter(|r| args.only.is_empty() || args.only.iter().any(|o| o == r.name))
        .collect();
    if let Some(o) = args
        .only
        .iter()
        .find(|o| !ROWS.iter().any(|r| r.name == o.as_str()))
    {
        eprintln!("shyfr-bench: no algorithm called '{o}' (see --list)");
        std::process::exit(2);
    }
    if args.list {
        for r in &rows {
            let peers: Vec<_> = r.impls.iter().map(|(p, _)| p.name()).collect();
            println!("{:<12} {:<22} {}", r.name, r.operation, peers.join(", "));
        }
        return;
    }

    let (ghz, ghz_source) = match args.ghz {
        Some(g) => (Some(g), "--ghz"),
        None => (
            clock::estimate_hz().map(|hz| hz / 1e9),
            "estimated from a chain of dependent additions",
        ),
    };
    let machine = machine();
    println!(
        "shyfr-bench: best of {} trial rounds, {} s per implementation per size per round, alternating",
        args.trials, args.seconds
    );
    println!(
        "cpu: {} ({} cores); {}",
        machine.cpu,
        machine.cores,
        machine.flags.join(" ")
    );
    println!("openssl: {}", machine.openssl);
    match ghz {
        Some(g) => println!("core clock: {g:.2} GHz ({ghz_source})"),
        None => println!("core clock: unknown (cycles per byte not shown; pass --ghz)"),
    }

    let mut lines = Vec::new();
    for row in &rows {
        let mut ops: Vec<(Peer, Op)> = row.impls.iter().map(|(p, make)| (*p, make())).collect();
        // Past a round number of blocks; a whole number of granules.
        let n = (1024 + 48 + 1) / row.granule * row.granule;
        if let Err(e) = check(row, &mut ops, n) {
            eprintln!("shyfr-bench: {e}");
            std::process::exit(1);
        }
        for &size in &args.sizes {
            if size % row.granule != 0 {
                eprintln!(
                    "{}: skipping {size} bytes (not a multiple of {})",
                    row.name, row.granule
                );
                continue;
            }
            let mut buf = input(size);
            let mut best = vec![0f64; ops.len()];
            for trial in 0..args.trials {
                for k in 0..ops.len() {
                    let i = (trial + k) % ops.len();
                    let bps = measure(&mut ops[i].1, &mut buf, args.seconds, args.per_call);
                    best[i] = best[i].max(bps);
                }
            }
            let cells: Vec<Cell> = ops
                .iter()
                .zip(&best)
                .map(|((p, _), &bps)| Cell {
                    peer: p.name(),
                    mb_per_s: bps / 1e6,
                    cycles_per_byte: ghz.map(|g| g * 1e9 / bps),
                })
                .collect();
            let best_peer = cells[1..]
                .iter()
                .max_by(|a, b| a.mb_per_s.total_cmp(&b.mb_per_s));
            let line = Line {
                algorithm: row.name,
                operation: row.operation,
                bytes: size,
                best_peer: best_peer.map(|c| c.peer),
                ratio: best_peer.map(|c| cells[0].mb_per_s / c.mb_per_s),
                cells,
            };
            println!("{}", text_line(&line));
            lines.push(line);
        }
    }

    let report = Report {
        command,
        machine,
        ghz,
        ghz_source,
        seconds: args.seconds,
        trials: args.trials,
        peers: Peer::ALL.iter().map(|p| p.name()).collect(),
        skipped_peers: Vec::new(),
        lines,
    };
    println!();
    print!("{}", markdown(&report));
    if let Some(dir) = &args.out {
        let write = |name: &str, body: String| {
            let path = dir.join(name);
            std::fs::create_dir_all(dir)
                .and_then(|_| std::fs::write(&path, body))
                .unwrap_or_else(|e| {
                    eprintln!("shyfr-bench: cannot write {}: {e}", path.display());
                    std::process::exit(1);
                });
            eprintln!("wrote {}", path.display());
        };
        write("peers.md", markdown(&report));
        write(
            "peers.json",
            serde_json::to_string_pretty(&report).expect("serialisable") + "\n",
        );
    }
}

/// A progress line: MB/s of every implementation, as measured.
fn text_line(l: &Line) -> String {
    let cells: Vec<String> = l
        .cells
        .iter()
        .map(|c| format!("{} {:.0}", c.peer, c.mb_per_s))
        .collect();
    let ratio = l
        .ratio
        .map_or(String::new(), |r| format!("  shyfr/best {r:.2}x"));
    format!(
        "{:<12} {:>6} B  {}{}",
        l.algorithm,
        l.bytes,
        cells.join("  "),
        ratio
    )
}

fn thousands(x: f64) -> String {
    let s = format!("{:.0}", x);
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// The table as Markdown, with the machine and the command.
fn markdown(r: &Report) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let m = &r.machine;
    let _ = writeln!(s, "```sh\n{}\n```\n", r.command);
    let _ = writeln!(
        s,
        "Machine: {} ({} cores); flags: {}. {}. Core clock {} ({}).",
        m.cpu,
        m.cores,
        m.flags.join(", "),
        m.openssl,
        r.ghz.map_or("unknown".into(), |g| format!("{g:.2} GHz")),
        r.ghz_source
    );
    let _ = writeln!(
        s,
        "Best of {} rounds; in each round every implementation runs {} s per size, in turn \
         (the first one rotating). MB/s = 10^6 bytes/s; cycles/byte at the core clock above. \
         \"shyfr / best\" is shyfr's throughput over the fastest peer's (above 1: shyfr faster); \
         **bold**: shyfr not the fastest.\n",
        r.trials, r.seconds
    );
    if r.skipped_peers.is_empty() {
        let _ = writeln!(
            s,
            "Peers skipped: none. A dash: that peer does not have the algorithm.\n"
        );
    } else {
        let _ = writeln!(s, "Peers skipped: {}.\n", r.skipped_peers.join("; "));
    }
    let _ = write!(s, "| algorithm | bytes |");
    for p in &r.peers {
        let _ = write!(s, " {p} MB/s |");
    }
    let _ = writeln!(
        s,
        " shyfr cycles/byte | best peer | best peer cycles/byte | shyfr / best |"
    );
    let _ = write!(s, "|---|---:|");
    for _ in &r.peers {
        let _ = write!(s, "---:|");
    }
    let _ = writeln!(s, "---:|---|---:|---:|");
    let by_peer = |l: &Line| -> BTreeMap<&str, Cell> {
        l.cells.iter().map(|c| (c.peer, c.clone())).collect()
    };
    let cpb = |c: Option<&Cell>| {
        c.and_then(|c| c.cycles_per_byte)
            .map_or("-".to_string(), |x| format!("{x:.3}"))
    };
    for l in &r.lines {
        let cells = by_peer(l);
        let _ = write!(s, "| {} | {} |", l.algorithm, l.bytes);
        for p in &r.peers {
            match cells.get(p) {
                Some(c) => {
                    let _ = write!(s, " {} |", thousands(c.mb_per_s));
                }
                None => s.push_str(" - |"),
            }
        }
        let best = l.best_peer.and_then(|b| cells.get(b));
        let ratio = match l.ratio {
            Some(x) if x < 1.0 => format!("**{x:.2}x**"),
            Some(x) => format!("{x:.2}x"),
            None => "-".into(),
        };
        let _ = writeln!(
            s,
            " {} | {} | {} | {} |",
            cpb(cells.get("shyfr")),
            l.best_peer.unwrap_or("-"),
            cpb(best),
            ratio
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every peer gives shyfr's output, on every row, at sizes around block boundaries.
    #[test]
    fn peers_agree_with_shyfr() {
        for row in ROWS {
            let mut ops: Vec<(Peer, Op)> = row.impls.iter().map(|(p, make)| (*p, make())).collect();
            assert_eq!(ops[0].0, Peer::Shyfr, "{}: shyfr comes first", row.name);
            for n in [16, 64, 112, 128, 129, 1000, 4096 + 48, 16384] {
                if n % row.granule == 0 {
                    check(row, &mut ops, n).unwrap();
                }
            }
        }
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(999.4), "999");
        assert_eq!(thousands(1234.0), "1,234");
        assert_eq!(thousands(1234567.0), "1,234,567");
    }
}
