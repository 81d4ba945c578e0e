//! Kalyna (DSTU 7624:2014): shyfr against Crypto++, alternating in one process.
//!
//! For every variant and operation, each trial runs shyfr (every available backend, or the
//! ones given with `--backends`) and Crypto++ once on the same 16 KiB buffer (`--len`), the
//! order alternating between trials; the fastest of `--trials` trials is kept for each. The
//! output is cycles per byte (the core clock estimated as `shyfr speed` does, from a chain
//! of dependent additions; `--ghz` overrides) and the ratio Crypto++ / shyfr.
//!
//! Crypto++ has no DSTU 7624 GCM, GMAC, CCM or XTS, and its CTR and CFB are the NIST ones
//! (big-endian counter; the same cost as the DSTU gamma and full-block CFB); those rows
//! compare the cost of the same work. Before timing, ECB and CBC outputs of both libraries
//! are compared.
//!
//! Usage: `cargo run --release --manifest-path bench/kalyna-cryptopp/Cargo.toml -- \
//!   [--len 16384] [--trials 200] [--backends x86_avx512,soft] [--only ecb,ctr] [--ghz 3.7]`

#[path = "../../../crates/shyfr-cli/src/clock.rs"]
mod clock;

use std::arch::x86_64::_rdtsc;
use std::ffi::c_void;

use shyfr::aead::dstu7624::{ccm::Ccm, gcm::Gcm, gcm::Gmac};
use shyfr::kalyna::{
    Backend, Kalyna, Kalyna128_128, Kalyna128_256, Kalyna256_256, Kalyna256_512, Kalyna512_512,
};
use shyfr::mode::cbc::Cbc;
use shyfr::mode::dstu7624::{cfb::Cfb, cmac::Cmac, ctr::Ctr, xts::Xts};
use shyfr::mode::ofb::Ofb;

extern "C" {
    fn kp_new(
        mode: i32,
        block_bits: i32,
        key: *const u8,
        klen: usize,
        iv: *const u8,
    ) -> *mut c_void;
    fn kp_process(h: *mut c_void, input: *const u8, out: *mut u8, len: usize);
    fn kp_free(h: *mut c_void);
}

/// A Crypto++ object (one mode, variant, direction).
struct Cpp(*mut c_void);

impl Cpp {
    fn new(mode: i32, bits: usize, key: &[u8], iv: &[u8]) -> Cpp {
        // SAFETY: the shim reads `key.len()` bytes of key and one block of IV.
        let h = unsafe { kp_new(mode, bits as i32, key.as_ptr(), key.len(), iv.as_ptr()) };
        assert!(!h.is_null(), "Crypto++ refused mode {mode} for {bits} bits");
        Cpp(h)
    }
    fn run(&mut self, input: &[u8], out: &mut [u8]) {
        assert!(out.len() >= input.len().max(64));
        // SAFETY: the shim reads `input.len()` bytes and writes as many (or one block for
        // CMAC, at most 64 bytes; `out` is at least that long).
        unsafe { kp_process(self.0, input.as_ptr(), out.as_mut_ptr(), input.len()) }
    }
}

impl Drop for Cpp {
    fn drop(&mut self) {
        // SAFETY: `self.0` came from `kp_new` and is freed once.
        unsafe { kp_free(self.0) }
    }
}

const VARIANTS: [(usize, usize); 5] = [(128, 16), (128, 32), (256, 32), (256, 64), (512, 64)];

/// The operations, with the Crypto++ shim mode of the same work (if any).
const OPS: [(&str, Option<i32>); 15] = [
    ("ecb", Some(0)),
    ("ecb-dec", Some(1)),
    ("ctr", Some(4)),
    ("cbc", Some(2)),
    ("cbc-dec", Some(3)),
    ("cfb", Some(5)),
    ("cfb-dec", Some(6)),
    ("ofb", Some(7)),
    ("cmac", Some(8)),
    ("gcm", None),
    ("gcm-dec", None),
    ("gmac", None),
    ("ccm", None),
    ("xts", None),
    ("xts-dec", None),
];

fn tsc() -> u64 {
    // SAFETY: RDTSC exists on every x86-64 processor.
    unsafe { _rdtsc() }
}

/// Runs shyfr's `op` once over `buf` with the typed cipher `k`; GCM with `gcm`, set up
/// once per key (the hash key and its powers), as an application keeps it for its key.
fn shyfr_op<C: shyfr::mode::dstu7624::Dstu7624Cipher + Sync>(
    k: &C,
    gcm: &Gcm<&C>,
    any: &Kalyna,
    op: &str,
    buf: &mut [u8],
    tag: &mut [u8],
) {
    let bl = C::BLOCK_LEN;
    let iv = vec![7u8; bl];
    match op {
        "ecb" => any.encrypt_blocks(buf).unwrap(),
        "ecb-dec" => any.decrypt_blocks(buf).unwrap(),
        "ctr" => Ctr::new(k, &iv).unwrap().apply_keystream(buf).unwrap(),
        "cbc" => Cbc::new(k).encrypt(&iv, buf).unwrap(),
        "cbc-dec" => Cbc::new(k).decrypt(&iv, buf).unwrap(),
        "cfb" => Cfb::new(k, &iv, bl).unwrap().encrypt(buf).unwrap(),
        "cfb-dec" => Cfb::new(k, &iv, bl).unwrap().decrypt(buf).unwrap(),
        "ofb" => Ofb::new(k, &iv).unwrap().apply_keystream(buf).unwrap(),
        "cmac" => {
            let t = Cmac::mac(k, bl, buf).unwrap();
            tag[..bl].copy_from_slice(t.as_bytes());
        }
        "gcm" => {
            let t = gcm.seal_in_place(&iv, &[], buf).unwrap();
            tag[..bl].copy_from_slice(t.as_bytes());
        }
        "gcm-dec" => {
            // The tag check fails (the buffer is not a sealed message): the same work, the
            // hash then no decryption; time the full open of a sealed buffer instead.
            let t = gcm.seal_in_place(&iv, &[], buf).unwrap();
            let t0 = tsc();
            gcm.open_in_place(&iv, &[], buf, t.as_bytes()).unwrap();
            tag[..8].copy_from_slice(&(tsc() - t0).to_le_bytes());
        }
        "gmac" => {
            let t = Gmac::new(k, bl).unwrap().mac(buf);
            tag[..bl].copy_from_slice(t.as_bytes());
        }
        "ccm" => {
            let q = bl.min(16);
            let t = Ccm::new(k, q, 4)
                .unwrap()
                .seal_in_place(&iv, &[], buf)
                .unwrap();
            tag[..q].copy_from_slice(t.as_bytes());
        }
        "xts" => Xts::new(k).unwrap().encrypt(&iv, buf).unwrap(),
        "xts-dec" => Xts::new(k).unwrap().decrypt(&iv, buf).unwrap(),
        _ => unreachable!("{op}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let len: usize = arg("--len").map_or(16384, |v| v.parse().unwrap());
    let trials: usize = arg("--trials").map_or(200, |v| v.parse().unwrap());
    let only: Vec<String> = arg("--only")
        .map(|v| v.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    let backends: Vec<Backend> = match arg("--backends") {
        Some(v) => v
            .split(',')
            .map(|n| Backend::from_name(n).expect("backend"))
            .collect(),
        None => Backend::ALL
            .iter()
            .copied()
            .filter(|b| b.is_available())
            .collect(),
    };
    let given = arg("--ghz").map(|v| v.parse::<f64>().unwrap());
    let ghz = given
        .or_else(|| clock::estimate_hz().map(|hz| hz / 1e9))
        .expect("core clock (give --ghz)");
    let how = if given.is_some() {
        "given"
    } else {
        "estimated"
    };
    // TSC ticks per core cycle, measured against the same clock estimate.
    let tsc_ghz = {
        let t0 = (tsc(), std::time::Instant::now());
        std::thread::sleep(std::time::Duration::from_millis(200));
        (tsc() - t0.0) as f64 / t0.1.elapsed().as_secs_f64() / 1e9
    };
    println!(
        "# Kalyna, {len}-byte buffers, best of {trials} alternating trials; core clock {ghz:.2} GHz ({how}), TSC {tsc_ghz:.2} GHz"
    );
    println!("# variant op backend shyfr_cpb cryptopp_cpb cryptopp/shyfr");
    let key = [0x5au8; 64];
    let cycles = |ticks: u64| ticks as f64 * ghz / tsc_ghz / len as f64;
    for (bits, kl) in VARIANTS {
        let bl = bits / 8;
        let len = len / bl * bl;
        let data: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
        for (op, cpp_mode) in OPS {
            if !only.is_empty() && !only.iter().any(|o| o == op) {
                continue;
            }
            let iv = vec![7u8; bl];
            let mut cpp = cpp_mode.map(|m| Cpp::new(m, bits, &key[..kl], &iv));
            for &b in &backends {
                let any = Kalyna::with_backend(bits, &key[..kl], b).unwrap();
                let mut buf = data.clone();
                let mut out = vec![0u8; len.max(64)];
                let mut tag = [0u8; 64];
                let (mut best_s, mut best_c) = (u64::MAX, u64::MAX);
                macro_rules! run {
                    ($t:ty) => {{
                        let k = <$t>::with_backend(&key[..kl].try_into().unwrap(), b).unwrap();
                        let gcm = Gcm::new(&k, bl).unwrap();
                        // Agreement on ECB and CBC before timing.
                        if let (Some(c), "ecb" | "cbc") = (cpp.as_mut(), op) {
                            let mut mine = data.clone();
                            shyfr_op(&k, &gcm, &any, op, &mut mine, &mut tag);
                            let mut fresh = Cpp::new(cpp_mode.unwrap(), bits, &key[..kl], &iv);
                            fresh.run(&data, &mut out);
                            assert_eq!(mine, out[..len], "{bits}/{} {op}: outputs differ", kl * 8);
                            let _ = c;
                        }
                        for t in 0..trials {
                            let mut time_shyfr = |buf: &mut Vec<u8>| {
                                let t0 = tsc();
                                shyfr_op(&k, &gcm, &any, op, buf, &mut tag);
                                let dt = tsc() - t0;
                                if op == "gcm-dec" {
                                    u64::from_le_bytes(tag[..8].try_into().unwrap())
                                } else {
                                    dt
                                }
                            };
                            if t % 2 == 0 {
                                best_s = best_s.min(time_shyfr(&mut buf));
                            }
                            if let Some(c) = cpp.as_mut() {
                                let t0 = tsc();
                                c.run(&buf, &mut out);
                                best_c = best_c.min(tsc() - t0);
                            }
                            if t % 2 == 1 {
                                best_s = best_s.min(time_shyfr(&mut buf));
                            }
                        }
                    }};
                }
                match (bits, kl) {
                    (128, 16) => run!(Kalyna128_128),
                    (128, 32) => run!(Kalyna128_256),
                    (256, 32) => run!(Kalyna256_256),
                    (256, 64) => run!(Kalyna256_512),
                    _ => run!(Kalyna512_512),
                }
                let s = cycles(best_s);
                if cpp.is_some() {
                    let c = cycles(best_c);
                    println!(
                        "kalyna-{bits}-{} {op:8} {:12} {s:7.2} {c:7.2} {:6.2}x",
                        kl * 8,
                        b.name(),
                        c / s
                    );
                } else {
                    println!(
                        "kalyna-{bits}-{} {op:8} {:12} {s:7.2}       -",
                        kl * 8,
                        b.name()
                    );
                }
            }
        }
    }
}
