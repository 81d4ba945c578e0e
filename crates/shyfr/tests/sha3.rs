//! SHA-3, SHAKE and cSHAKE: NIST CAVP known answers (short, long, Monte Carlo, variable
//! output), the SP 800-185 cSHAKE samples, streaming and XOF-chunking properties, every
//! backend against the portable one and against a small reference implementation written
//! here, and bad parameters — every test under every Keccak backend the CPU offers.

mod common;

use common::{cut_pieces, monte_records, note_exercised, read_rsp, testdata, Record};
use proptest::prelude::*;
use shyfr::hash::sha3::{
    keccak_f1600, keccak_f1600_with, Backend, CShake128, CShake256, Sha3_224, Sha3_256, Sha3_384,
    Sha3_512, Shake128, Shake256,
};
use shyfr::hash::{Hash, Xof, XofReader};
use shyfr::Error;

/// Every Keccak backend this CPU can run now.
fn backends() -> Vec<Backend> {
    // Fails if a backend the CPU supports is missing (a failed self-test).
    common::backends()
}

/// Notes `b` as exercised; called once a known-answer file has passed on it.
fn passed(b: Backend) {
    note_exercised("keccak", b.name());
}

/// The number of byte-oriented records in each NIST file, checked exactly.
fn expected_records(name: &str) -> usize {
    match name {
        "sha3/SHA3_224ShortMsg.rsp" => 145,
        "sha3/SHA3_256ShortMsg.rsp" => 137,
        "sha3/SHA3_384ShortMsg.rsp" => 105,
        "sha3/SHA3_512ShortMsg.rsp" => 73,
        "sha3/SHAKE128ShortMsg.rsp" => 337,
        "sha3/SHAKE256ShortMsg.rsp" => 273,
        "sha3/SHAKE128VariableOut.rsp" => 1126,
        "sha3/SHAKE256VariableOut.rsp" => 1246,
        n if n.ends_with("LongMsg.rsp") => 100,
        n => panic!("no record count for {n}"),
    }
}

// ---------------------------------------------------------------------------------------
// A deliberately plain reference: FIPS 202 steps as loops over (x, y), with the rotation
// offsets (Table 2) and round constants (3.2.5) as printed, independent of the library's
// unrolled code and compile-time tables.

const REF_RHO: [[u32; 5]; 5] = [
    // [x][y]
    [0, 36, 3, 41, 18],
    [1, 44, 10, 45, 2],
    [62, 6, 43, 15, 61],
    [28, 55, 25, 21, 56],
    [27, 20, 39, 8, 14],
];
const REF_RC: [u64; 24] = [
    0x0000000000000001,
    0x0000000000008082,
    0x800000000000808A,
    0x8000000080008000,
    0x000000000000808B,
    0x0000000080000001,
    0x8000000080008081,
    0x8000000000008009,
    0x000000000000008A,
    0x0000000000000088,
    0x0000000080008009,
    0x000000008000000A,
    0x000000008000808B,
    0x800000000000008B,
    0x8000000000008089,
    0x8000000000008003,
    0x8000000000008002,
    0x8000000000000080,
    0x000000000000800A,
    0x800000008000000A,
    0x8000000080008081,
    0x8000000000008080,
    0x0000000080000001,
    0x8000000080008008,
];

fn ref_keccak_f(a: &mut [u64; 25]) {
    for rc in REF_RC {
        let mut c = [0u64; 5];
        for (x, cx) in c.iter_mut().enumerate() {
            for y in 0..5 {
                *cx ^= a[x + 5 * y];
            }
        }
        for x in 0..5 {
            let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
            for y in 0..5 {
                a[x + 5 * y] ^= d;
            }
        }
        let mut b = [0u64; 25];
        for x in 0..5 {
            for y in 0..5 {
                // pi: B[y, 2x + 3y] = rho(A[x, y])
                b[y + 5 * ((2 * x + 3 * y) % 5)] = a[x + 5 * y].rotate_left(REF_RHO[x][y]);
            }
        }
        for x in 0..5 {
            for y in 0..5 {
                a[x + 5 * y] = b[x + 5 * y] ^ (!b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
            }
        }
        a[0] ^= rc;
    }
}

/// Reference sponge over bytes: `rate` bytes, `suffix` the domain byte with the first
/// padding bit (0x06 SHA-3, 0x1f SHAKE, 0x04 cSHAKE).
fn ref_sponge(rate: usize, suffix: u8, msg: &[u8], out_len: usize) -> Vec<u8> {
    let mut padded = msg.to_vec();
    padded.push(suffix);
    while !padded.len().is_multiple_of(rate) {
        padded.push(0);
    }
    *padded.last_mut().unwrap() |= 0x80;
    let mut a = [0u64; 25];
    for block in padded.chunks(rate) {
        for (i, &byte) in block.iter().enumerate() {
            a[i / 8] ^= (byte as u64) << (8 * (i % 8));
        }
        ref_keccak_f(&mut a);
    }
    let mut out = Vec::new();
    loop {
        for i in 0..rate {
            if out.len() == out_len {
                return out;
            }
            out.push((a[i / 8] >> (8 * (i % 8))) as u8);
        }
        ref_keccak_f(&mut a);
    }
}

// ---------------------------------------------------------------------------------------
// Dispatch by variant, so one test body covers all of them.

/// SHA3-`bits` of `msg` on `b`, absorbed in two pieces split at `split`.
fn sha3(bits: usize, b: Backend, msg: &[u8], split: usize) -> Vec<u8> {
    fn run<H: Hash>(mut h: H, msg: &[u8], split: usize) -> Vec<u8> {
        h.update(&msg[..split]);
        h.update(&msg[split..]);
        h.finalize().as_ref().to_vec()
    }
    match bits {
        224 => run(Sha3_224::with_backend(b).unwrap(), msg, split),
        256 => run(Sha3_256::with_backend(b).unwrap(), msg, split),
        384 => run(Sha3_384::with_backend(b).unwrap(), msg, split),
        512 => run(Sha3_512::with_backend(b).unwrap(), msg, split),
        _ => unreachable!(),
    }
}

/// SHAKE`bits` of `msg` on `b`, `out_len` bytes.
fn shake(bits: usize, b: Backend, msg: &[u8], split: usize, out_len: usize) -> Vec<u8> {
    fn run<X: Xof>(mut x: X, msg: &[u8], split: usize, out_len: usize) -> Vec<u8> {
        x.update(&msg[..split]);
        x.update(&msg[split..]);
        let mut out = vec![0u8; out_len];
        x.finalize_xof().read(&mut out);
        out
    }
    match bits {
        128 => run(Shake128::with_backend(b).unwrap(), msg, split, out_len),
        256 => run(Shake256::with_backend(b).unwrap(), msg, split, out_len),
        _ => unreachable!(),
    }
}

/// The signature of `Sha3_*::digest_many_with_backend` for an `N`-byte digest.
type ManyFn<const N: usize> = fn(Backend, &[&[u8]], &mut [[u8; N]]) -> Result<(), Error>;

/// SHA3-`bits` of each of `msgs` through `digest_many` on `b`.
fn sha3_many(bits: usize, b: Backend, msgs: &[&[u8]]) -> Vec<Vec<u8>> {
    fn run<const N: usize>(f: ManyFn<N>, b: Backend, msgs: &[&[u8]]) -> Vec<Vec<u8>> {
        let mut out = vec![[0u8; N]; msgs.len()];
        f(b, msgs, &mut out).unwrap();
        out.iter().map(|d| d.to_vec()).collect()
    }
    match bits {
        224 => run(Sha3_224::digest_many_with_backend, b, msgs),
        256 => run(Sha3_256::digest_many_with_backend, b, msgs),
        384 => run(Sha3_384::digest_many_with_backend, b, msgs),
        512 => run(Sha3_512::digest_many_with_backend, b, msgs),
        _ => unreachable!(),
    }
}

/// SHAKE`bits` of each of `msgs`, `out_len` bytes each, through
/// `digest_many_into` on `b`.
fn shake_many(bits: usize, b: Backend, msgs: &[&[u8]], out_len: usize) -> Vec<Vec<u8>> {
    let mut out = vec![0u8; msgs.len() * out_len];
    match bits {
        128 => Shake128::digest_many_into_with_backend(b, msgs, out_len, &mut out),
        256 => Shake256::digest_many_into_with_backend(b, msgs, out_len, &mut out),
        _ => unreachable!(),
    }
    .unwrap();
    if out_len == 0 {
        return vec![Vec::new(); msgs.len()];
    }
    out.chunks(out_len).map(|c| c.to_vec()).collect()
}

/// The message of a `Len`/`Msg` record (`Len` in bits; `Msg = 00` when it is 0).
fn message(r: &Record) -> Vec<u8> {
    let len: usize = r.fields["Len"].parse().unwrap();
    assert_eq!(len % 8, 0, "line {}: bit-oriented record", r.line);
    let mut m = r.hex("Msg");
    m.truncate(len / 8);
    m
}

/// A split point that differs between records, so streaming is exercised everywhere.
fn split_for(i: usize, len: usize) -> usize {
    if len == 0 {
        0
    } else {
        (i * 7919 + 13) % (len + 1)
    }
}

// ---------------------------------------------------------------------------------------
// SHA-3 known answers.

fn run_sha3_msg_file(bits: usize, kind: &str) {
    let name = format!("sha3/SHA3_{bits}{kind}.rsp");
    let recs: Vec<_> = read_rsp(&name)
        .into_iter()
        .filter(|r| r.fields.contains_key("Len"))
        .collect();
    assert_eq!(recs.len(), expected_records(&name), "{name}");
    for b in backends() {
        let mut run = 0;
        for (i, r) in recs.iter().enumerate() {
            let msg = message(r);
            let md = r.hex("MD");
            assert_eq!(md.len() * 8, bits);
            let what = format!("{name} line {} backend {}", r.line, b.name());
            assert_eq!(sha3(bits, b, &msg, 0), md, "{what}");
            assert_eq!(
                sha3(bits, b, &msg, split_for(i, msg.len())),
                md,
                "{what} split"
            );
            // The same message nine times through `digest_many` (a full group of eight
            // and a group of one).
            for d in sha3_many(bits, b, &[&msg[..]; 9]) {
                assert_eq!(d, md, "{what} digest_many");
            }
            run += 1;
        }
        assert_eq!(run, expected_records(&name));
        passed(b);
    }
}

/// SHA3VS 6.2.3: `MD_0 = Seed`; each checkpoint `j` is `MD_1000` of
/// `MD_i = SHA3(MD_{i-1})`, and seeds the next.
fn run_sha3_monte(bits: usize) {
    let name = format!("sha3/SHA3_{bits}Monte.rsp");
    let recs = read_rsp(&name);
    let (seed, checks) = monte_records(&recs);
    for b in backends() {
        let mut md = seed.clone();
        for (j, r) in checks.iter().enumerate() {
            assert_eq!(r.fields["COUNT"], j.to_string());
            for _ in 0..1000 {
                md = sha3(bits, b, &md, 0);
            }
            assert_eq!(md, r.hex("MD"), "{name} COUNT {j} backend {}", b.name());
        }
        passed(b);
    }
}

/// One test per CAVP message file: `name => bits, "ShortMsg" | "LongMsg";`, run by `$run`.
macro_rules! msg_files {
    ($run:ident: $($test:ident => $bits:expr, $kind:expr;)*) => {
        $( #[test] fn $test() { $run($bits, $kind); } )*
    };
}

msg_files! {
    run_sha3_msg_file:
    sha3_224_short => 224, "ShortMsg";
    sha3_256_short => 256, "ShortMsg";
    sha3_384_short => 384, "ShortMsg";
    sha3_512_short => 512, "ShortMsg";
    sha3_224_long => 224, "LongMsg";
    sha3_256_long => 256, "LongMsg";
    sha3_384_long => 384, "LongMsg";
    sha3_512_long => 512, "LongMsg";
}

#[test]
fn sha3_224_monte() {
    run_sha3_monte(224);
}
#[test]
fn sha3_256_monte() {
    run_sha3_monte(256);
}
#[test]
fn sha3_384_monte() {
    run_sha3_monte(384);
}
#[test]
fn sha3_512_monte() {
    run_sha3_monte(512);
}

// ---------------------------------------------------------------------------------------
// SHAKE known answers.

fn run_shake_msg_file(bits: usize, kind: &str) {
    let name = format!("sha3/SHAKE{bits}{kind}.rsp");
    let recs: Vec<_> = read_rsp(&name)
        .into_iter()
        .filter(|r| r.fields.contains_key("Len"))
        .collect();
    assert_eq!(recs.len(), expected_records(&name), "{name}");
    for b in backends() {
        let mut run = 0;
        for (i, r) in recs.iter().enumerate() {
            let msg = message(r);
            let want = r.hex("Output");
            // The section header says the output length: `[Outputlen = 128]`.
            let out_bits: usize = r
                .section
                .trim_start_matches("Outputlen =")
                .trim()
                .parse()
                .unwrap();
            assert_eq!(want.len() * 8, out_bits);
            let what = format!("{name} line {} backend {}", r.line, b.name());
            assert_eq!(shake(bits, b, &msg, 0, want.len()), want, "{what}");
            let s = split_for(i, msg.len());
            assert_eq!(shake(bits, b, &msg, s, want.len()), want, "{what} split");
            for o in shake_many(bits, b, &[&msg[..]; 9], want.len()) {
                assert_eq!(o, want, "{what} digest_many_into");
            }
            run += 1;
        }
        assert_eq!(run, expected_records(&name));
        passed(b);
    }
}

fn run_shake_variable_out(bits: usize) {
    let name = format!("sha3/SHAKE{bits}VariableOut.rsp");
    let recs: Vec<_> = read_rsp(&name)
        .into_iter()
        .filter(|r| r.fields.contains_key("Outputlen"))
        .collect();
    assert_eq!(recs.len(), expected_records(&name), "{name}");
    for b in backends() {
        let mut run = 0;
        for (i, r) in recs.iter().enumerate() {
            let out_bits: usize = r.fields["Outputlen"].parse().unwrap();
            assert_eq!(out_bits % 8, 0);
            let msg = r.hex("Msg");
            let want = r.hex("Output");
            assert_eq!(want.len() * 8, out_bits, "line {}", r.line);
            let what = format!("{name} line {} backend {}", r.line, b.name());
            let s = split_for(i, msg.len());
            assert_eq!(shake(bits, b, &msg, s, want.len()), want, "{what}");
            run += 1;
        }
        assert_eq!(run, expected_records(&name));
        passed(b);
    }
}

/// A number from a header line such as `[Minimum Output Length (bits) = 128]`.
fn header_value(file: &str, key: &str) -> usize {
    let text = std::fs::read_to_string(testdata(file)).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with('[') && l.contains(key))
        .unwrap_or_else(|| panic!("{file}: no header {key}"));
    line.trim_matches(|c| c == '[' || c == ']')
        .rsplit('=')
        .next()
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// SHA3VS 6.3.3, the SHAKE Monte Carlo test: each inner step hashes the leftmost 128 bits of
/// the previous output (zero-padded if shorter) to `OutputLen` bytes; the next `OutputLen`
/// is `min + (rightmost 16 bits of the output mod (max - min + 1))`, in bytes; each
/// checkpoint is the 1000th output, and `Outputlen` is the length it was made with.
fn run_shake_monte(bits: usize) {
    let name = format!("sha3/SHAKE{bits}Monte.rsp");
    let min = header_value(&name, "Minimum Output Length") / 8;
    let max = header_value(&name, "Maximum Output Length") / 8;
    let recs = read_rsp(&name);
    let msg = recs
        .iter()
        .find(|r| r.fields.contains_key("Msg"))
        .expect("Msg")
        .hex("Msg");
    assert_eq!(msg.len(), 16);
    let checks: Vec<_> = recs
        .iter()
        .filter(|r| r.fields.contains_key("COUNT"))
        .collect();
    assert_eq!(checks.len(), 100);
    let range = max - min + 1;
    for b in backends() {
        let mut output = msg.clone();
        let mut out_len = max;
        for (j, r) in checks.iter().enumerate() {
            assert_eq!(r.fields["COUNT"], j.to_string());
            let mut used = 0;
            for _ in 0..1000 {
                let mut m = [0u8; 16];
                let n = output.len().min(16);
                m[..n].copy_from_slice(&output[..n]);
                used = out_len;
                output = shake(bits, b, &m, 0, out_len);
                let right = u16::from_be_bytes([output[out_len - 2], output[out_len - 1]]);
                out_len = min + right as usize % range;
            }
            let what = format!("{name} COUNT {j} backend {}", b.name());
            assert_eq!(r.fields["Outputlen"], (used * 8).to_string(), "{what}");
            assert_eq!(output, r.hex("Output"), "{what}");
        }
        passed(b);
    }
}

msg_files! {
    run_shake_msg_file:
    shake128_short => 128, "ShortMsg";
    shake256_short => 256, "ShortMsg";
    shake128_long => 128, "LongMsg";
    shake256_long => 256, "LongMsg";
}

#[test]
fn shake128_variable_out() {
    run_shake_variable_out(128);
}
#[test]
fn shake256_variable_out() {
    run_shake_variable_out(256);
}
#[test]
fn shake128_monte() {
    run_shake_monte(128);
}
#[test]
fn shake256_monte() {
    run_shake_monte(256);
}

// ---------------------------------------------------------------------------------------
// cSHAKE (NIST SP 800-185).

/// NIST, "cSHAKE_samples.pdf" (SP 800-185 example values, csrc.nist.gov/projects/
/// cryptographic-standards-and-guidelines/example-values), samples #1 to #4: N empty,
/// S = "Email Signature", data 00 01 02 03 or 00 .. C7 (200 bytes).
#[test]
fn cshake_nist_samples() {
    let short: Vec<u8> = (0u8..4).collect();
    let long: Vec<u8> = (0u8..200).collect();
    let s = b"Email Signature";
    let samples: [(usize, &[u8], &str); 4] = [
        (
            128,
            &short,
            "c1c36925b6409a04f1b504fcbca9d82b4017277cb5ed2b2065fc1d3814d5aaf5",
        ),
        (
            128,
            &long,
            "c5221d50e4f822d96a2e8881a961420f294b7b24fe3d2094baed2c6524cc166b",
        ),
        (
            256,
            &short,
            "d008828e2b80ac9d2218ffee1d070c48b8e4c87bff32c9699d5b6896eee0edd1\
             64020e2be0560858d9c00c037e34a96937c561a74c412bb4c746469527281c8c",
        ),
        (
            256,
            &long,
            "07dc27b11e51fbac75bc7b3c1d983e8b4b85fb1defaf218912ac864302730917\
             27f42b17ed1df63e8ec118f04b23633c1dfb1574c8fb55cb45da8e25afb092bb",
        ),
    ];
    for b in backends() {
        for (n, (bits, data, want)) in samples.iter().enumerate() {
            let want = hex::decode(want).unwrap();
            let mut out = vec![0u8; want.len()];
            if *bits == 128 {
                let mut x = CShake128::with_backend(b"", s, b).unwrap();
                x.update(data);
                x.finalize_xof().read(&mut out);
            } else {
                let mut x = CShake256::with_backend(b"", s, b).unwrap();
                x.update(data);
                x.finalize_xof().read(&mut out);
            }
            assert_eq!(out, want, "sample #{} backend {}", n + 1, b.name());
        }
    }
}

/// SP 800-185 3.3: with N and S both empty, cSHAKE is SHAKE; with either non-empty it is
/// not. Checked against the reference sponge with the 0x04 suffix and a hand-built prefix.
#[test]
fn cshake_prefix_and_fallback() {
    let data = b"The quick brown fox";
    for b in backends() {
        let mut a = [0u8; 100];
        let mut x = CShake128::with_backend(b"", b"", b).unwrap();
        x.update(data);
        x.finalize_xof().read(&mut a);
        let mut s = [0u8; 100];
        Shake128::digest_into(data, &mut s);
        assert_eq!(a, s, "empty N, S is SHAKE128 ({})", b.name());

        let mut c = [0u8; 100];
        let mut x = CShake256::with_backend(b"", b"", b).unwrap();
        x.update(data);
        x.finalize_xof().read(&mut c);
        assert_eq!(
            c.to_vec(),
            shake(256, b, data, 0, 100),
            "empty N, S is SHAKE256"
        );

        // N only: bytepad(left_encode(8*3) "abc" left_encode(0), 168) || data, suffix 00.
        let mut prefix = vec![1u8, 168, 1, 24];
        prefix.extend_from_slice(b"abc");
        prefix.extend_from_slice(&[1, 0]);
        prefix.resize(168, 0);
        prefix.extend_from_slice(data);
        let want = ref_sponge(168, 0x04, &prefix, 100);
        let mut x = CShake128::with_backend(b"abc", b"", b).unwrap();
        x.update(data);
        let mut got = [0u8; 100];
        x.finalize_xof().read(&mut got);
        assert_eq!(got.to_vec(), want, "N = abc ({})", b.name());
    }
}

/// Long N and S (more than one block of prefix) against the reference sponge.
#[test]
fn cshake_long_prefix() {
    let n: Vec<u8> = (0..300u32).map(|i| (i * 7) as u8).collect();
    let s: Vec<u8> = (0..500u32).map(|i| (i * 13 + 1) as u8).collect();
    let data: Vec<u8> = (0..1000u32).map(|i| i as u8).collect();
    // bytepad(encode_string(N) || encode_string(S), 136): left_encode(136) = 01 88;
    // 300 bytes = 2400 bits = 09 60 -> 02 09 60; 500 bytes = 4000 bits = 0f a0 -> 02 0f a0.
    let mut prefix = vec![1u8, 136, 2, 0x09, 0x60];
    prefix.extend_from_slice(&n);
    prefix.extend_from_slice(&[2, 0x0f, 0xa0]);
    prefix.extend_from_slice(&s);
    while !prefix.len().is_multiple_of(136) {
        prefix.push(0);
    }
    prefix.extend_from_slice(&data);
    let want = ref_sponge(136, 0x04, &prefix, 300);
    for b in backends() {
        let mut x = CShake256::with_backend(&n, &s, b).unwrap();
        x.update(&data[..333]);
        x.update(&data[333..]);
        let mut got = vec![0u8; 300];
        x.clone().finalize_xof().read(&mut got);
        assert_eq!(got, want, "backend {}", b.name());
        // reset returns to the state after the prefix.
        x.reset();
        x.update(&data);
        let mut again = vec![0u8; 300];
        x.finalize_xof().read(&mut again);
        assert_eq!(again, want, "after reset, backend {}", b.name());
    }
}

// ---------------------------------------------------------------------------------------
// Boundaries, streaming, chunked output, backends against each other and the reference.

/// Every message length from 0 to three blocks and one byte, for every variant and backend,
/// one-shot and streamed byte by byte, against the reference sponge.
#[test]
fn all_lengths_against_reference() {
    let msg: Vec<u8> = (0..3 * 168 + 2).map(|i| (i * 29 + 3) as u8).collect();
    for b in backends() {
        for bits in [224, 256, 384, 512] {
            let rate = 200 - bits / 4;
            for len in 0..=3 * rate + 1 {
                let want = ref_sponge(rate, 0x06, &msg[..len], bits / 8);
                assert_eq!(
                    sha3(bits, b, &msg[..len], len / 2),
                    want,
                    "SHA3-{bits} len {len}"
                );
            }
        }
        for bits in [128, 256] {
            let rate = 200 - bits / 4;
            for len in [0, 1, rate - 1, rate, rate + 1, 2 * rate, 3 * rate + 1] {
                let want = ref_sponge(rate, 0x1f, &msg[..len], 2 * rate + 5);
                assert_eq!(shake(bits, b, &msg[..len], 0, want.len()), want);
                // Byte-by-byte absorbing.
                let mut x = Shake256::with_backend(b).unwrap();
                let mut y = Shake128::with_backend(b).unwrap();
                for byte in &msg[..len] {
                    x.update(core::slice::from_ref(byte));
                    y.update(core::slice::from_ref(byte));
                }
                let mut ox = vec![0u8; 300];
                let mut oy = vec![0u8; 300];
                x.finalize_xof().read(&mut ox);
                y.finalize_xof().read(&mut oy);
                assert_eq!(ox, ref_sponge(136, 0x1f, &msg[..len], 300));
                assert_eq!(oy, ref_sponge(168, 0x1f, &msg[..len], 300));
            }
        }
    }
}

/// `digest_many` and `digest_many_into`, on every backend, of messages of mixed lengths in
/// a scrambled order (0 to three blocks and one byte, so more block counts than the
/// batches keep open at once, and runs of one count), against the reference sponge.
#[test]
fn many_mixed_lengths_against_reference() {
    let base: Vec<u8> = (0..3 * 168 + 2 + 64).map(|i| (i * 31 + 7) as u8).collect();
    for b in backends() {
        for (bits, shake) in [(256, false), (512, false), (128, true), (256, true)] {
            let rate = 200 - bits / 4;
            let lens: Vec<usize> = (0..61)
                .map(|k| {
                    if k % 3 == 0 {
                        rate + 5
                    } else {
                        (k * 53) % (3 * rate + 2)
                    }
                })
                .collect();
            let msgs: Vec<&[u8]> = lens
                .iter()
                .enumerate()
                .map(|(k, &n)| &base[k..k + n])
                .collect();
            let (got, want): (Vec<Vec<u8>>, Vec<Vec<u8>>) = if shake {
                let out_len = rate + 9;
                (
                    shake_many(bits, b, &msgs, out_len),
                    msgs.iter()
                        .map(|m| ref_sponge(rate, 0x1f, m, out_len))
                        .collect(),
                )
            } else {
                (
                    sha3_many(bits, b, &msgs),
                    msgs.iter()
                        .map(|m| ref_sponge(rate, 0x06, m, bits / 8))
                        .collect(),
                )
            };
            assert_eq!(got.len(), msgs.len());
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(g, w, "{bits} shake {shake} message {k} ({})", b.name());
            }
        }
    }
}

/// `digest_many` and `digest_many_into`, on every backend: every message length from 0 to
/// three blocks and one byte, for 1, 8 and 9 messages (distinct contents), against the
/// reference sponge; SHAKE outputs across several squeezed blocks.
#[test]
fn many_all_lengths_against_reference() {
    let base: Vec<u8> = (0..3 * 168 + 2 + 9).map(|i| (i * 29 + 3) as u8).collect();
    for b in backends() {
        for bits in [224, 256, 384, 512] {
            let rate = 200 - bits / 4;
            for len in 0..=3 * rate + 1 {
                for count in [1, 8, 9] {
                    // Message k starts k bytes into `base`, so the lanes differ.
                    let msgs: Vec<&[u8]> = (0..count).map(|k| &base[k..k + len]).collect();
                    let got = sha3_many(bits, b, &msgs);
                    for (k, (g, m)) in got.iter().zip(&msgs).enumerate() {
                        let want = ref_sponge(rate, 0x06, m, bits / 8);
                        assert_eq!(
                            *g,
                            want,
                            "SHA3-{bits} len {len} message {k} of {count} ({})",
                            b.name()
                        );
                    }
                }
            }
        }
        for bits in [128, 256] {
            let rate = 200 - bits / 4;
            for len in [0, 1, rate - 1, rate, rate + 1, 2 * rate, 3 * rate + 1] {
                for out_len in [0, 1, 32, rate - 1, rate, rate + 1, 2 * rate + 5] {
                    let msgs: Vec<&[u8]> = (0..9).map(|k| &base[k..k + len]).collect();
                    let got = shake_many(bits, b, &msgs, out_len);
                    assert_eq!(got.len(), 9);
                    for (k, (g, m)) in got.iter().zip(&msgs).enumerate() {
                        let want = ref_sponge(rate, 0x1f, m, out_len);
                        assert_eq!(
                            *g,
                            want,
                            "SHAKE{bits} len {len} out {out_len} message {k} ({})",
                            b.name()
                        );
                    }
                }
            }
        }
    }
}

/// The `*_many` functions reject mismatched output counts, on every backend, and accept
/// messages of different lengths and no messages at all.
#[test]
fn many_bad_input() {
    let a = [1u8; 10];
    let c = [2u8; 11];
    for b in backends() {
        let mut two = [[0u8; 32]; 2];
        let mut three = [[0u8; 32]; 3];
        assert_eq!(
            Sha3_256::digest_many_with_backend(b, &[&a, &a], &mut three),
            Err(Error::LengthMismatch {
                input: 2,
                output: 3
            })
        );
        assert_eq!(two, [[0u8; 32]; 2], "nothing written on error");
        // Messages of different lengths are accepted.
        assert_eq!(
            Sha3_256::digest_many_with_backend(b, &[&a, &c], &mut two),
            Ok(())
        );
        assert_eq!(two, [Sha3_256::digest(&a), Sha3_256::digest(&c)]);
        assert_eq!(Sha3_256::digest_many_with_backend(b, &[], &mut []), Ok(()));
        let mut out = [0u8; 2 * 40];
        assert_eq!(
            Shake128::digest_many_into_with_backend(b, &[&a, &a], 41, &mut out),
            Err(Error::LengthMismatch {
                input: 82,
                output: 80
            })
        );
        assert_eq!(
            Shake256::digest_many_into_with_backend(b, &[&a, &c], 40, &mut out),
            Ok(())
        );
        assert_eq!(out[40..], ref_sponge(136, 0x1f, &c, 40)[..]);
        assert_eq!(
            Shake256::digest_many_into_with_backend(b, &[&a, &a], usize::MAX, &mut out),
            Err(Error::LengthMismatch {
                input: usize::MAX,
                output: 80
            })
        );
        assert_eq!(
            Shake256::digest_many_into_with_backend(b, &[], 40, &mut []),
            Ok(())
        );
        assert_eq!(
            Shake256::digest_many_into_with_backend(b, &[&a], 0, &mut []),
            Ok(())
        );
    }
    // The default functions agree with one-by-one hashing.
    let msgs: Vec<Vec<u8>> = (0..11u8).map(|k| vec![k; 300]).collect();
    let refs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
    let mut d = vec![[0u8; 64]; 11];
    Sha3_512::digest_many(&refs, &mut d).unwrap();
    for (m, d) in msgs.iter().zip(&d) {
        assert_eq!(*d, Sha3_512::digest(m));
    }
    let mut x = vec![0u8; 11 * 200];
    Shake128::digest_many_into(&refs, 200, &mut x).unwrap();
    for (m, o) in msgs.iter().zip(x.chunks(200)) {
        let mut w = [0u8; 200];
        Shake128::digest_into(m, &mut w);
        assert_eq!(o, &w[..]);
    }
}

#[test]
fn permutation_known_answer_every_backend() {
    // XKCP KeccakF-1600-IntermediateValues.txt: f(0) starts f1258f7940e1dde7, and
    // f(f(0)) starts 2d5c954df96ecb3c.
    for b in backends() {
        let mut s = [0u64; 25];
        keccak_f1600_with(b, &mut s).unwrap();
        assert_eq!(s[0], 0xf1258f7940e1dde7);
        let mut r = [0u64; 25];
        ref_keccak_f(&mut r);
        assert_eq!(s, r, "backend {}", b.name());
        keccak_f1600_with(b, &mut s).unwrap();
        assert_eq!(s[0], 0x2d5c954df96ecb3c, "backend {}", b.name());
    }
    let mut s = [0u64; 25];
    keccak_f1600(&mut s);
    assert_eq!(s[0], 0xf1258f7940e1dde7);
}

#[test]
fn clone_forks_and_reset_restarts() {
    for b in backends() {
        let mut h = Sha3_384::with_backend(b).unwrap();
        h.update(b"common prefix ");
        let mut fork = h.clone();
        h.update(b"one");
        fork.update(b"two");
        assert_eq!(h.finalize().to_vec(), sha3(384, b, b"common prefix one", 0));
        assert_eq!(
            fork.finalize().to_vec(),
            sha3(384, b, b"common prefix two", 0)
        );

        let mut h = Sha3_256::with_backend(b).unwrap();
        h.update(b"garbage");
        h.reset();
        assert_eq!(h.backend(), b);
        h.update(b"abc");
        assert_eq!(h.finalize(), Sha3_256::digest(b"abc"));

        let mut x = Shake128::with_backend(b).unwrap();
        x.update(b"garbage");
        x.reset();
        x.update(b"abc");
        let mut o = [0u8; 32];
        x.finalize_xof().read(&mut o);
        assert_eq!(o.to_vec(), ref_sponge(168, 0x1f, b"abc", 32));
    }
}

#[test]
fn trait_constants() {
    assert_eq!(
        (Sha3_224::NAME, Sha3_224::OUTPUT_LEN, Sha3_224::BLOCK_LEN),
        ("sha3-224", 28, 144)
    );
    assert_eq!(
        (Sha3_256::NAME, Sha3_256::OUTPUT_LEN, Sha3_256::BLOCK_LEN),
        ("sha3-256", 32, 136)
    );
    assert_eq!(
        (Sha3_384::NAME, Sha3_384::OUTPUT_LEN, Sha3_384::BLOCK_LEN),
        ("sha3-384", 48, 104)
    );
    assert_eq!(
        (Sha3_512::NAME, Sha3_512::OUTPUT_LEN, Sha3_512::BLOCK_LEN),
        ("sha3-512", 64, 72)
    );
    assert_eq!((Shake128::NAME, Shake128::RATE), ("shake128", 168));
    assert_eq!((Shake256::NAME, Shake256::RATE), ("shake256", 136));
    assert_eq!(
        (CShake128::NAME, CShake256::NAME),
        ("cshake128", "cshake256")
    );
    // Debug shows the backend and nothing of the state.
    let d = format!("{:?}", Sha3_256::new());
    assert!(d.contains("backend"), "{d}");
}

/// An unavailable backend is an error, never a panic, for every constructor.
#[test]
fn unavailable_backend_is_an_error() {
    let every = [
        Backend::Aarch64Sha3,
        Backend::X86Bmi,
        Backend::X86Avx512,
        Backend::Soft,
    ];
    for b in every {
        if b.is_available() {
            assert!(Sha3_256::with_backend(b).is_ok());
            continue;
        }
        let e = Err(Error::BackendUnavailable);
        assert_eq!(Sha3_224::with_backend(b).map(|_| ()), e);
        assert_eq!(Sha3_256::with_backend(b).map(|_| ()), e);
        assert_eq!(Sha3_384::with_backend(b).map(|_| ()), e);
        assert_eq!(Sha3_512::with_backend(b).map(|_| ()), e);
        assert_eq!(Shake128::with_backend(b).map(|_| ()), e);
        assert_eq!(Shake256::with_backend(b).map(|_| ()), e);
        assert_eq!(CShake128::with_backend(b"", b"", b).map(|_| ()), e);
        assert_eq!(CShake256::with_backend(b"N", b"S", b).map(|_| ()), e);
        let mut s = [0u64; 25];
        assert_eq!(keccak_f1600_with(b, &mut s), e);
        assert_eq!(s, [0u64; 25]);
        let mut d = [[0u8; 32]; 1];
        assert_eq!(Sha3_256::digest_many_with_backend(b, &[b"x"], &mut d), e);
        let mut o = [0u8; 8];
        assert_eq!(
            Shake128::digest_many_into_with_backend(b, &[b"x"], 8, &mut o),
            e
        );
    }
    assert_eq!(Backend::from_name("soft"), Some(Backend::Soft));
    assert_eq!(Backend::from_name("nope"), None);
    assert!(Backend::best().is_available());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Streaming with random piece sizes equals one-shot, for every variant and backend.
    #[test]
    fn streaming_equals_one_shot(
        msg in proptest::collection::vec(any::<u8>(), 0..700),
        cuts in proptest::collection::vec(0usize..200, 0..12),
    ) {
        for b in backends() {
            for bits in [224, 256, 384, 512] {
                let whole = sha3(bits, b, &msg, 0);
                let pieces = cut_pieces(&msg, &cuts);
                let got = match bits {
                    224 => { let mut h = Sha3_224::with_backend(b).unwrap(); for p in &pieces { h.update(p); } h.finalize().to_vec() }
                    256 => { let mut h = Sha3_256::with_backend(b).unwrap(); for p in &pieces { h.update(p); } h.finalize().to_vec() }
                    384 => { let mut h = Sha3_384::with_backend(b).unwrap(); for p in &pieces { h.update(p); } h.finalize().to_vec() }
                    _ => { let mut h = Sha3_512::with_backend(b).unwrap(); for p in &pieces { h.update(p); } h.finalize().to_vec() }
                };
                prop_assert_eq!(got, whole.clone(), "SHA3-{} {}", bits, b.name());
                // Against the independent reference too.
                prop_assert_eq!(whole, ref_sponge(200 - bits / 4, 0x06, &msg, bits / 8));
            }
        }
    }

    /// Reading an XOF in random chunk sizes equals one big read.
    #[test]
    fn xof_chunked_reads_equal_one_read(
        msg in proptest::collection::vec(any::<u8>(), 0..300),
        chunks in proptest::collection::vec(0usize..400, 1..10),
    ) {
        let total: usize = chunks.iter().sum();
        for b in backends() {
            for bits in [128, 256] {
                let want = shake(bits, b, &msg, 0, total);
                let mut got = Vec::new();
                let mut r = if bits == 128 {
                    let mut x = Shake128::with_backend(b).unwrap();
                    x.update(&msg);
                    x.finalize_xof()
                } else {
                    let mut x = Shake256::with_backend(b).unwrap();
                    x.update(&msg);
                    x.finalize_xof()
                };
                for &c in &chunks {
                    let mut buf = vec![0u8; c];
                    r.read(&mut buf);
                    got.extend_from_slice(&buf);
                }
                prop_assert_eq!(&got, &want, "SHAKE{} {}", bits, b.name());
                prop_assert_eq!(want, ref_sponge(200 - bits / 4, 0x1f, &msg, total));
            }
        }
    }

    /// Every backend computes the permutation the portable one (and the reference) does.
    #[test]
    fn permutation_backends_agree(state in proptest::array::uniform25(any::<u64>())) {
        let mut want = state;
        keccak_f1600_with(Backend::Soft, &mut want).unwrap();
        let mut r = state;
        ref_keccak_f(&mut r);
        prop_assert_eq!(want, r);
        for b in backends() {
            let mut s = state;
            keccak_f1600_with(b, &mut s).unwrap();
            prop_assert_eq!(s, want, "backend {}", b.name());
        }
    }

    /// `digest_many` and `digest_many_into` on every backend equal one-by-one hashing on
    /// the portable backend, for random message counts, lengths and contents.
    #[test]
    fn many_equals_one_by_one(
        data in proptest::collection::vec(any::<u8>(), 0..3000),
        count in 0usize..20,
        len in 0usize..400,
        out_len in 0usize..400,
    ) {
        let len = len.min(data.len() / 20);
        let msgs: Vec<&[u8]> = (0..count).map(|k| &data[k * len..(k + 1) * len]).collect();
        for b in backends() {
            for bits in [224, 256, 384, 512] {
                let got = sha3_many(bits, b, &msgs);
                prop_assert_eq!(got.len(), count);
                for (g, m) in got.iter().zip(&msgs) {
                    prop_assert_eq!(g, &sha3(bits, Backend::Soft, m, 0));
                }
            }
            for bits in [128, 256] {
                let got = shake_many(bits, b, &msgs, out_len);
                prop_assert_eq!(got.len(), count);
                for (g, m) in got.iter().zip(&msgs) {
                    prop_assert_eq!(g, &shake(bits, Backend::Soft, m, 0, out_len));
                }
            }
        }
    }

    /// Whole hashes and XOFs on every backend equal those on the portable one.
    #[test]
    fn hash_backends_agree(
        msg in proptest::collection::vec(any::<u8>(), 0..1200),
        split in any::<prop::sample::Index>(),
        out_len in 0usize..500,
    ) {
        let s = split.index(msg.len() + 1);
        for b in backends() {
            for bits in [224, 256, 384, 512] {
                prop_assert_eq!(sha3(bits, b, &msg, s), sha3(bits, Backend::Soft, &msg, 0));
            }
            for bits in [128, 256] {
                prop_assert_eq!(
                    shake(bits, b, &msg, s, out_len),
                    shake(bits, Backend::Soft, &msg, 0, out_len)
                );
            }
            let mut x = CShake256::with_backend(b"N", &msg[..s], b).unwrap();
            let mut y = CShake256::with_backend(b"N", &msg[..s], Backend::Soft).unwrap();
            x.update(&msg[s..]);
            y.update(&msg[s..]);
            let (mut ox, mut oy) = (vec![0u8; out_len], vec![0u8; out_len]);
            x.finalize_xof().read(&mut ox);
            y.finalize_xof().read(&mut oy);
            prop_assert_eq!(ox, oy);
        }
    }
}
