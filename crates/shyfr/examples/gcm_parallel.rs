//! One-shot AES-128-GCM seal and open on one thread against two (or `THREADS`), in rayon
//! pools of those sizes, alternating, best of several runs: how `gcm::PARALLEL_MIN_LEN`
//! was chosen. Run with
//! `cargo run --release -p shyfr --features parallel --example gcm_parallel [sizes in KiB]`.

use std::time::Instant;

use shyfr::aead::gcm::Aes128Gcm;

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse::<usize>().expect("size in KiB") << 10)
        .collect();
    let sizes = if sizes.is_empty() {
        vec![
            64 << 10,
            128 << 10,
            256 << 10,
            512 << 10,
            1 << 20,
            4 << 20,
            16 << 20,
        ]
    } else {
        sizes
    };
    let threads: usize = std::env::var("THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(2);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let many = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let g = Aes128Gcm::new(&[7u8; 16]);
    let nonce = [1u8; 12];
    println!("size      op    1 thread MB/s  {threads} threads MB/s  ratio");
    for &len in &sizes {
        let mut buf = vec![0x5au8; len];
        let mut ct = vec![0x5au8; len];
        let tag = g.seal_in_place(&nonce, b"", &mut ct).unwrap();
        for open in [false, true] {
            // About 100 ms per sample at 8 GB/s: many scheduler time slices, so that a
            // slice lost to another process weighs little.
            let reps = (800_000_000 / len).max(1);
            let mut best = [f64::MAX; 2];
            for _ in 0..9 {
                for (i, pool) in [&one, &many].into_iter().enumerate() {
                    let t = Instant::now();
                    pool.install(|| {
                        for _ in 0..reps {
                            if open {
                                g.open_to(&nonce, b"", &ct, tag.as_bytes(), &mut buf)
                                    .unwrap();
                            } else {
                                let _ = g.seal_in_place(&nonce, b"", &mut buf).unwrap();
                            }
                        }
                    });
                    let s = t.elapsed().as_secs_f64() / reps as f64;
                    best[i] = best[i].min(s);
                }
            }
            let mbs = |s: f64| len as f64 / s / 1e6;
            println!(
                "{:>7}K  {}  {:>13.0}  {:>14.0}  {:.2}",
                len >> 10,
                if open { "open" } else { "seal" },
                mbs(best[0]),
                mbs(best[1]),
                best[0] / best[1]
            );
        }
    }
}
