//! `shyfr-bench-gost`: GOST 28147-89 (ECB, CTR/gamma, CFB, MAC), GOST 34.311-95 and
//! DES / triple DES in shyfr against OpenSSL (DES-EDE3) and, when built with the
//! `cryptopp` and `gcrypt` features, Crypto++ and libgcrypt, measured in one process.
//!
//! Every row runs its implementations in turn (the first one rotating between trials),
//! one call on the whole buffer per implementation per trial, and keeps the fastest
//! call of each (the machines are shared and noisy; a ratio measured side by side is the
//! figure). Before timing, implementations that compute the same function are checked
//! to agree with shyfr on the same input; rows whose peers compute a neighbouring
//! function (Crypto++ has standard CTR, not GOST's gamma, and CBC-MAC, not the
//! 16-round imitovstavka) say so.
//!
//! Cycles per byte use the same core-clock estimate as `shyfr speed` ([`clock`]), or
//! `--ghz`.

#[path = "../../crates/shyfr-cli/src/clock.rs"]
mod clock;
#[cfg(feature = "cryptopp")]
mod cryptopp;
#[cfg(feature = "gcrypt")]
mod gcrypt;

use std::time::Instant;

use clap::Parser;
use shyfr::des::{Des, Tdes};
use shyfr::gost28147::{Gost28147, Sbox};
use shyfr::hash::gost34311::Gost34311;
use shyfr::mode::gost28147::{Gamma, GammaFeedbackDecryptor, GammaFeedbackEncryptor, Mac};

/// GOST 28147-89, GOST 34.311-95 and DES/TDES: shyfr against its peers.
#[derive(Parser, Debug)]
#[command(name = "shyfr-bench-gost")]
struct Args {
    /// Buffer size in bytes (a multiple of 8).
    #[arg(long, default_value_t = 16384)]
    size: usize,
    /// Trials; the fastest call of each implementation is kept.
    #[arg(long, default_value_t = 300)]
    trials: usize,
    /// Core clock in GHz for cycles per byte (default: estimated).
    #[arg(long)]
    ghz: Option<f64>,
    /// Only rows whose name contains this.
    #[arg(long)]
    only: Option<String>,
}

/// One pass over a buffer: processes it in place and writes any tag into the 64-byte
/// output, returning the tag length.
type Op = Box<dyn FnMut(&mut [u8], &mut [u8; 64]) -> usize>;

struct Imp {
    peer: &'static str,
    /// Computes the same function as shyfr (checked before timing).
    same: bool,
    op: Op,
}

struct Row {
    name: &'static str,
    note: &'static str,
    imps: Vec<Imp>,
}

/// A fixed key of `len` bytes.
fn key(len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(29).wrapping_add(7))
        .collect()
}

const IV: [u8; 8] = [0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7];

fn imp(peer: &'static str, same: bool, op: Op) -> Imp {
    Imp { peer, same, op }
}

/// OpenSSL through the `openssl` crate: a cipher keyed once, a fresh IV per call.
fn ossl(c: openssl::symm::Cipher, decrypt: bool) -> Op {
    use openssl::symm::{Crypter, Mode};
    let k = key(c.key_len());
    let iv = c.iv_len().map(|_| IV);
    let mode = if decrypt {
        Mode::Decrypt
    } else {
        Mode::Encrypt
    };
    let mut out = vec![0u8; 1 << 20];
    let mut cr = Crypter::new(c, mode, &k, iv.as_ref().map(|v| &v[..])).expect("cipher");
    cr.pad(false);
    Box::new(move |buf, _| {
        // Re-keying with the IV only resets the chaining value.
        if let Some(v) = iv {
            cr = Crypter::new(c, mode, &k, Some(&v)).expect("cipher");
            cr.pad(false);
        }
        let n = cr.update(buf, &mut out[..buf.len() + 8]).expect("update");
        buf.copy_from_slice(&out[..n]);
        0
    })
}

fn rows() -> Vec<Row> {
    let sb = Sbox::TEST; // the S-box of Crypto++ and of libgcrypt's GOST R 34.11-94
    #[allow(unused_variables)] // the peers' features use it
    let k32 = key(32);
    let g = || Gost28147::new_from_slice(&key(32), &Sbox::TEST).expect("key");
    #[allow(unused_mut)] // the peers' features add to it
    let mut rows = vec![
        Row {
            name: "gost28147-ecb",
            note: "encrypt",
            imps: vec![imp("shyfr", true, {
                let c = g();
                Box::new(move |b, _| {
                    c.encrypt_blocks(b).expect("whole blocks");
                    0
                })
            })],
        },
        Row {
            name: "gost28147-ctr",
            note: "shyfr: GOST gamma (C1/C2 counters); Crypto++/libgcrypt: standard CTR",
            imps: vec![imp("shyfr", true, {
                let c = g();
                Box::new(move |b, _| {
                    Gamma::new(&c, &IV).expect("iv").apply_keystream(b);
                    0
                })
            })],
        },
        Row {
            name: "gost28147-cfb",
            note: "encrypt (serial)",
            imps: vec![imp("shyfr", true, {
                let c = g();
                Box::new(move |b, _| {
                    GammaFeedbackEncryptor::new(&c, &IV).expect("iv").update(b);
                    0
                })
            })],
        },
        Row {
            name: "gost28147-cfb-dec",
            note: "decrypt",
            imps: vec![imp("shyfr", true, {
                let c = g();
                Box::new(move |b, _| {
                    GammaFeedbackDecryptor::new(&c, &IV).expect("iv").update(b);
                    0
                })
            })],
        },
        Row {
            name: "gost28147-mac",
            note: "shyfr/libgcrypt: imitovstavka (16 rounds); Crypto++: CBC-MAC (32 rounds)",
            imps: vec![imp("shyfr", true, {
                let c = g();
                Box::new(move |b, out| {
                    out[..4].copy_from_slice(&Mac::mac(&c, b));
                    4
                })
            })],
        },
        Row {
            name: "gost34311",
            note: "hash, test S-box",
            imps: vec![imp(
                "shyfr",
                true,
                Box::new(move |b, out| {
                    out[..32].copy_from_slice(
                        &Gost34311::with_params(&sb, &[0; 32]).chain(b).finalize(),
                    );
                    32
                }),
            )],
        },
        Row {
            name: "des-ecb",
            note: "encrypt",
            imps: vec![imp("shyfr", true, {
                let c = Des::new_from_slice(&key(8)).expect("key");
                Box::new(move |b, _| {
                    c.encrypt_blocks(b).expect("whole blocks");
                    0
                })
            })],
        },
        Row {
            name: "des-ede3-ecb",
            note: "encrypt",
            imps: vec![
                imp("shyfr", true, {
                    let c = Tdes::new_from_slice(&key(24)).expect("key");
                    Box::new(move |b, _| {
                        c.encrypt_blocks(b).expect("whole blocks");
                        0
                    })
                }),
                imp(
                    "openssl",
                    true,
                    ossl(openssl::symm::Cipher::des_ede3(), false),
                ),
            ],
        },
        Row {
            name: "des-ede3-cbc",
            note: "encrypt (serial)",
            imps: vec![
                imp("shyfr", true, {
                    let c =
                        shyfr::mode::cbc::Cbc::new(Tdes::new_from_slice(&key(24)).expect("key"));
                    Box::new(move |b, _| {
                        c.encrypt(&IV, b).expect("whole blocks");
                        0
                    })
                }),
                imp(
                    "openssl",
                    true,
                    ossl(openssl::symm::Cipher::des_ede3_cbc(), false),
                ),
            ],
        },
        Row {
            name: "des-ede3-cbc-dec",
            note: "decrypt (shyfr through the generic CBC mode, 64 blocks per cipher call)",
            imps: vec![
                imp("shyfr", true, {
                    let c =
                        shyfr::mode::cbc::Cbc::new(Tdes::new_from_slice(&key(24)).expect("key"));
                    Box::new(move |b, _| {
                        c.decrypt(&IV, b).expect("whole blocks");
                        0
                    })
                }),
                imp(
                    "openssl",
                    true,
                    ossl(openssl::symm::Cipher::des_ede3_cbc(), true),
                ),
            ],
        },
    ];
    #[cfg(feature = "cryptopp")]
    cryptopp::add(&mut rows, &k32, &IV);
    #[cfg(feature = "gcrypt")]
    gcrypt::add(&mut rows, &k32, &IV);
    rows
}

fn input(n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(131).wrapping_add(17))
        .collect()
}

fn main() {
    let args = Args::parse();
    assert!(
        args.size % 8 == 0 && args.size > 0,
        "--size: a positive multiple of 8"
    );
    let hz = args
        .ghz
        .map(|g| g * 1e9)
        .or_else(clock::estimate_hz)
        .unwrap_or(0.0);
    println!(
        "# shyfr-bench-gost: {} bytes, best of {} alternating calls, core clock {:.2} GHz ({})",
        args.size,
        args.trials,
        hz / 1e9,
        if args.ghz.is_some() {
            "given"
        } else {
            "estimated"
        }
    );
    println!("| algorithm | implementation | MB/s | cycles/byte | shyfr speed-up | note |");
    println!("|---|---|---:|---:|---:|---|");
    for mut row in rows() {
        if let Some(o) = &args.only {
            if !row.name.contains(o.as_str()) {
                continue;
            }
        }
        // Agreement with shyfr.
        let mut want: Option<(Vec<u8>, Vec<u8>)> = None;
        for im in row.imps.iter_mut() {
            let mut buf = input(args.size);
            let mut out = [0u8; 64];
            let n = (im.op)(&mut buf, &mut out);
            let got = (buf, out[..n].to_vec());
            match &want {
                None => want = Some(got),
                Some(w) if im.same => {
                    assert!(*w == got, "{}: {} disagrees with shyfr", row.name, im.peer)
                }
                Some(_) => {}
            }
        }
        let mut best = vec![f64::MAX; row.imps.len()];
        let mut buf = input(args.size);
        let mut out = [0u8; 64];
        let k = row.imps.len();
        for t in 0..args.trials {
            for j in 0..k {
                let i = (t + j) % k;
                let s = Instant::now();
                std::hint::black_box((row.imps[i].op)(std::hint::black_box(&mut buf), &mut out));
                best[i] = best[i].min(s.elapsed().as_secs_f64());
            }
        }
        for (im, &tm) in row.imps.iter().zip(&best) {
            let cpb = tm * hz / args.size as f64;
            let ratio = tm / best[0];
            println!(
                "| {} | {} | {:.1} | {:.2} | {} | {} |",
                row.name,
                im.peer,
                args.size as f64 / tm / 1e6,
                cpb,
                if im.peer == "shyfr" {
                    "".to_string()
                } else {
                    format!("{ratio:.1}x")
                },
                if im.peer == "shyfr" { row.note } else { "" }
            );
        }
    }
}
