//! `shyfr-bench-rsa`: RSA private (sign) and public (verify) operations and key generation,
//! shyfr against OpenSSL (the system libcrypto through the `openssl` crate), aws-lc-rs and
//! the RustCrypto `rsa` crate, in one process.
//!
//! Every implementation uses the same key (made by OpenSSL, loaded from PKCS #8 by the
//! others) and the same message; each trial round runs every implementation in turn (the
//! starting one rotating) for `--seconds`, and the best (lowest) time per operation over
//! `--trials` rounds is reported, with the ratio to shyfr. Signatures are RSASSA-PKCS1-v1_5
//! with SHA-256: OpenSSL and shyfr sign the 32-byte digest (OpenSSL's
//! `RSA_private_encrypt` of the DigestInfo, as `openssl speed rsa` times it), aws-lc-rs and
//! RustCrypto hash a 32-byte message first (well under 1 % of the time). Before timing,
//! every signature is checked by every verifier.
//!
//! Times are CPU time of the benchmark thread (`CLOCK_THREAD_CPUTIME_ID`), not wall time:
//! the machines this runs on are shared, and a thread waiting for a core is not working.
//!
//! Key generation: `--keygen N` generates N keys of 2048 and 3072 bits with each library,
//! alternating, and reports the mean and the median.
//!
//! OpenSSL's AVX-512 IFMA path can be masked for a second run with
//! `OPENSSL_ia32cap=":~0x200000"` (CPUID.7.0:EBX bit 21), shyfr's with
//! `SHYFR_CPU=-avx512ifma`.

use std::time::Duration;

use aws_lc_rs::signature::{self as awssig, KeyPair as _};
use clap::Parser;
use openssl::pkey::{PKey, Private};
use openssl::rsa::{Padding, Rsa};
use rsa::pkcs8::DecodePrivateKey;
use shyfr::hash::sha2::Sha256;

use shyfr::rand::OsRng;
use shyfr::sig::rsa::{RsaPrivateKey, RsaPublicKey};

/// RSA: shyfr against OpenSSL, aws-lc-rs and RustCrypto `rsa`, alternating in one process.
#[derive(Parser, Debug)]
#[command(name = "shyfr-bench-rsa")]
struct Args {
    /// Key sizes in bits.
    #[arg(long, value_delimiter = ',', default_values_t = [2048usize, 3072, 4096])]
    sizes: Vec<usize>,
    /// Seconds each implementation runs per trial round.
    #[arg(long, default_value_t = 0.3)]
    seconds: f64,
    /// Trial rounds; the best is kept.
    #[arg(long, default_value_t = 5)]
    trials: usize,
    /// Also time key generation: this many keys of 2048 and 3072 bits per library.
    #[arg(long, default_value_t = 0)]
    keygen: usize,
    /// Leave out the RustCrypto `rsa` crate (slow at 4096 bits).
    #[arg(long)]
    no_rustcrypto: bool,
    /// Also time shyfr's other available big-integer backends.
    #[arg(long)]
    backends: bool,
    /// Make the keys with shyfr instead of OpenSSL (faster for 8192 bits and more).
    #[arg(long)]
    shyfr_keys: bool,
}

type Op = Box<dyn FnMut()>;

/// CPU time of this thread (`CLOCK_THREAD_CPUTIME_ID`): on a machine shared with other
/// jobs it does not count the time the thread waits for a core.
fn cpu_now() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write to.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0);
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Runs `op` for about `secs` seconds of thread CPU time; returns the mean CPU time per
/// call.
fn time(op: &mut Op, secs: f64) -> Duration {
    let t0 = cpu_now();
    let mut n = 0u32;
    loop {
        op();
        n += 1;
        let el = cpu_now() - t0;
        if el.as_secs_f64() >= secs && n >= 3 {
            return el / n;
        }
    }
}

/// Alternates the implementations over `trials` rounds; best time per operation each.
fn race(names: &[String], ops: &mut [Op], secs: f64, trials: usize) -> Vec<Duration> {
    let mut best = vec![Duration::MAX; ops.len()];
    for t in 0..trials {
        for k in 0..ops.len() {
            let i = (k + t) % ops.len();
            let d = time(&mut ops[i], secs);
            best[i] = best[i].min(d);
        }
    }
    let _ = names;
    best
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    let args = Args::parse();
    openssl::init();
    let msg = [0x5au8; 32];
    let digest = <Sha256 as shyfr::hash::Hash>::digest(&msg);
    println!(
        "# shyfr-bench-rsa: best of {} rounds of {:.2} s, alternating; RSASSA-PKCS1-v1_5 SHA-256",
        args.trials, args.seconds
    );
    println!(
        "# shyfr backend: {}",
        shyfr::arith::bigint::Backend::best().name()
    );
    if let Ok(v) = std::env::var("OPENSSL_ia32cap") {
        println!("# OPENSSL_ia32cap={v}");
    }
    if let Ok(v) = std::env::var("SHYFR_CPU") {
        println!("# SHYFR_CPU={v}");
    }
    println!("| bits | op | implementation | µs/op | ops/s | shyfr speed-up |");
    println!("|---|---|---|---|---|---|");
    for &bits in &args.sizes {
        let pkey: PKey<Private> = if args.shyfr_keys {
            let k = RsaPrivateKey::generate(bits, &mut OsRng).unwrap();
            PKey::private_key_from_pkcs8(&k.to_pkcs8_der().unwrap()).unwrap()
        } else {
            PKey::from_rsa(Rsa::generate(bits as u32).unwrap()).unwrap()
        };
        let rsa = pkey.rsa().unwrap();
        let pkcs8 = pkey.private_key_to_pkcs8().unwrap();
        let spki = pkey.public_key_to_der().unwrap();

        let mut names: Vec<String> = Vec::new();
        let mut signs: Vec<Op> = Vec::new();
        let mut verifies: Vec<Op> = Vec::new();

        // shyfr (best backend, and optionally the others)
        let mut shyfr_backends = vec![shyfr::arith::bigint::Backend::best()];
        if args.backends {
            for &b in shyfr::arith::bigint::Backend::ALL {
                if b.is_available() && !shyfr_backends.contains(&b) {
                    shyfr_backends.push(b);
                }
            }
        }
        let sig_ref = {
            let k = RsaPrivateKey::from_pkcs8_der(&pkcs8).unwrap();
            k.sign_pkcs1v15_prehashed::<Sha256, _>(&mut OsRng, &digest)
                .unwrap()
        };
        for b in shyfr_backends {
            let k = RsaPrivateKey::from_pkcs8_der_with_backend(&pkcs8, b).unwrap();
            let p = RsaPublicKey::from_public_key_der_with_backend(&spki, b).unwrap();
            let s = k
                .sign_pkcs1v15_prehashed::<Sha256, _>(&mut OsRng, &digest)
                .unwrap();
            assert_eq!(s, sig_ref);
            p.verify_pkcs1v15_prehashed::<Sha256>(&digest, &s).unwrap();
            names.push(format!("shyfr ({})", b.name()));
            signs.push(Box::new(move || {
                std::hint::black_box(
                    k.sign_pkcs1v15_prehashed::<Sha256, _>(&mut OsRng, &digest)
                        .unwrap(),
                );
            }));
            let s2 = s.clone();
            verifies.push(Box::new(move || {
                p.verify_pkcs1v15_prehashed::<Sha256>(&digest, &s2).unwrap();
            }));
        }

        // OpenSSL: RSA_private_encrypt / RSA_public_decrypt of the DigestInfo.
        {
            let mut di = shyfr_digest_info();
            di.extend_from_slice(&digest);
            let k = rsa.clone();
            let mut out = vec![0u8; k.size() as usize];
            let n = k.private_encrypt(&di, &mut out, Padding::PKCS1).unwrap();
            assert_eq!(out[..n], sig_ref[..]);
            names.push("OpenSSL".into());
            let di2 = di.clone();
            signs.push(Box::new(move || {
                let mut out = vec![0u8; k.size() as usize];
                k.private_encrypt(&di2, &mut out, Padding::PKCS1).unwrap();
                std::hint::black_box(&out);
            }));
            let pk = Rsa::public_key_from_der(&spki).unwrap();
            let sig = sig_ref.clone();
            verifies.push(Box::new(move || {
                let mut out = vec![0u8; pk.size() as usize];
                let n = pk.public_decrypt(&sig, &mut out, Padding::PKCS1).unwrap();
                assert!(out[..n] == di[..]);
            }));
        }

        // aws-lc-rs
        if let Ok(kp) = awssig::RsaKeyPair::from_pkcs8(&pkcs8) {
            let rng = aws_lc_rs::rand::SystemRandom::new();
            let mut sig = vec![0u8; kp.public_modulus_len()];
            kp.sign(&awssig::RSA_PKCS1_SHA256, &rng, &msg, &mut sig)
                .unwrap();
            assert_eq!(sig, sig_ref);
            let pubkey = kp.public_key().as_ref().to_vec();
            names.push("aws-lc-rs".into());
            signs.push(Box::new(move || {
                let mut sig = vec![0u8; kp.public_modulus_len()];
                kp.sign(&awssig::RSA_PKCS1_SHA256, &rng, &msg, &mut sig)
                    .unwrap();
                std::hint::black_box(&sig);
            }));
            let s = sig_ref.clone();
            verifies.push(Box::new(move || {
                awssig::UnparsedPublicKey::new(&awssig::RSA_PKCS1_2048_8192_SHA256, &pubkey)
                    .verify(&msg, &s)
                    .unwrap();
            }));
        }

        // RustCrypto rsa
        if !args.no_rustcrypto {
            let k = rsa::RsaPrivateKey::from_pkcs8_der(&pkcs8).unwrap();
            let p = k.to_public_key();
            let scheme = || rsa::pkcs1v15::Pkcs1v15Sign::new::<rsa::sha2::Sha256>();
            let mut rng = rsa::rand_core::OsRng;
            let s = k.sign_with_rng(&mut rng, scheme(), &digest).unwrap();
            assert_eq!(s, sig_ref);
            names.push("RustCrypto rsa".into());
            signs.push(Box::new(move || {
                let mut rng = rsa::rand_core::OsRng;
                std::hint::black_box(k.sign_with_rng(&mut rng, scheme(), &digest).unwrap());
            }));
            verifies.push(Box::new(move || {
                p.verify(scheme(), &digest, &s).unwrap();
            }));
        }

        for (op, ops) in [("sign", &mut signs), ("verify", &mut verifies)] {
            let best = race(&names, ops, args.seconds, args.trials);
            let base = best[0];
            for (name, d) in names.iter().zip(&best) {
                println!(
                    "| {bits} | {op} | {name} | {:.1} | {:.0} | {:.2}x |",
                    us(*d),
                    1e6 / us(*d),
                    d.as_secs_f64() / base.as_secs_f64()
                );
            }
        }
    }

    if args.keygen > 0 {
        println!();
        println!("| bits | keygen | implementation | mean ms | median ms | keys |");
        println!("|---|---|---|---|---|---|");
        for bits in [2048usize, 3072] {
            let mut t: [Vec<f64>; 3] = [vec![], vec![], vec![]];
            for i in 0..args.keygen {
                for k in 0..3 {
                    let which = (k + i) % 3;
                    let t0 = cpu_now();
                    match which {
                        0 => {
                            std::hint::black_box(
                                RsaPrivateKey::generate(bits, &mut OsRng).unwrap(),
                            );
                        }
                        1 => {
                            std::hint::black_box(Rsa::generate(bits as u32).unwrap());
                        }
                        _ => {
                            let size = if bits == 2048 {
                                aws_lc_rs::rsa::KeySize::Rsa2048
                            } else {
                                aws_lc_rs::rsa::KeySize::Rsa3072
                            };
                            std::hint::black_box(awssig::RsaKeyPair::generate(size).unwrap());
                        }
                    }
                    t[which].push((cpu_now() - t0).as_secs_f64() * 1e3);
                }
            }
            for (name, v) in ["shyfr", "OpenSSL", "aws-lc-rs"].iter().zip(t.iter_mut()) {
                v.sort_by(|a, b| a.partial_cmp(b).unwrap());
                let mean = v.iter().sum::<f64>() / v.len() as f64;
                println!(
                    "| {bits} | keygen | {name} | {mean:.1} | {:.1} | {} |",
                    v[v.len() / 2],
                    v.len()
                );
            }
        }
    }
}

/// The DigestInfo prefix for SHA-256 (as shyfr and RFC 8017 define it).
fn shyfr_digest_info() -> Vec<u8> {
    <Sha256 as shyfr::sig::rsa::RsaHash>::DIGEST_INFO_PREFIX.to_vec()
}
