//! `shyfr hash` (checksums compatible with `sha256sum` and friends, with `--check`) and
//! `shyfr mac` (HMAC and KMAC tags of files).

use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;

use clap::Args;
use shyfr::hash::sha1::Sha1;
use shyfr::hash::sha2::{Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};
use shyfr::hash::sha3::{Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256};
use shyfr::hash::{Hash, Xof, XofReader};
use shyfr::mac::hmac::Hmac;
use shyfr::mac::kmac::{Kmac128, Kmac256};

use crate::CliError;

/// Inputs at least this large show a progress bar when stderr is a terminal.
const PROGRESS_MIN: u64 = 256 << 20;
/// Read size: large enough that the hash, not the system calls, sets the pace.
const CHUNK: usize = 1 << 20;

/// A streaming hash or MAC behind one interface, so the commands can pick one by name.
pub trait Hasher {
    /// Absorbs data.
    fn update(&mut self, data: &[u8]);
    /// Finishes and returns the digest or tag.
    fn finish(self: Box<Self>) -> Vec<u8>;
}

struct Fixed<H: Hash>(H);

impl<H: Hash> Hasher for Fixed<H> {
    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
    fn finish(self: Box<Self>) -> Vec<u8> {
        self.0.finalize().as_ref().to_vec()
    }
}

struct Extendable<X: Xof>(X, usize);

impl<X: Xof> Hasher for Extendable<X> {
    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
    fn finish(self: Box<Self>) -> Vec<u8> {
        let mut out = vec![0u8; self.1];
        self.0.finalize_xof().read(&mut out);
        out
    }
}

struct HmacOf<H: Hash>(Hmac<H>);

impl<H: Hash> Hasher for HmacOf<H> {
    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
    fn finish(self: Box<Self>) -> Vec<u8> {
        self.0.finalize().as_ref().to_vec()
    }
}

/// The hash names `shyfr hash` accepts, with their default output lengths.
pub const HASHES: &[(&str, usize)] = &[
    ("sha1", 20),
    ("sha224", 28),
    ("sha256", 32),
    ("sha384", 48),
    ("sha512", 64),
    ("sha512-224", 28),
    ("sha512-256", 32),
    ("sha3-224", 28),
    ("sha3-256", 32),
    ("sha3-384", 48),
    ("sha3-512", 64),
    ("shake128", 32),
    ("shake256", 64),
];

/// A hasher for `name`; `len` sets the output length of SHAKE (bytes).
pub fn hasher(name: &str, len: Option<usize>) -> Option<Box<dyn Hasher>> {
    let name = name.to_ascii_lowercase();
    if len.is_some() && !name.starts_with("shake") {
        return None;
    }
    Some(match name.as_str() {
        "sha1" => Box::new(Fixed(Sha1::new())),
        "sha224" => Box::new(Fixed(Sha224::new())),
        "sha256" => Box::new(Fixed(Sha256::new())),
        "sha384" => Box::new(Fixed(Sha384::new())),
        "sha512" => Box::new(Fixed(Sha512::new())),
        "sha512-224" => Box::new(Fixed(Sha512_224::new())),
        "sha512-256" => Box::new(Fixed(Sha512_256::new())),
        "sha3-224" => Box::new(Fixed(Sha3_224::new())),
        "sha3-256" => Box::new(Fixed(Sha3_256::new())),
        "sha3-384" => Box::new(Fixed(Sha3_384::new())),
        "sha3-512" => Box::new(Fixed(Sha3_512::new())),
        "shake128" => Box::new(Extendable(Shake128::new(), len.unwrap_or(32))),
        "shake256" => Box::new(Extendable(Shake256::new(), len.unwrap_or(64))),
        _ => return None,
    })
}

/// The MAC names `shyfr mac` accepts.
pub const MACS: &[&str] = &[
    "hmac-sha1",
    "hmac-sha224",
    "hmac-sha256",
    "hmac-sha384",
    "hmac-sha512",
    "hmac-sha512-224",
    "hmac-sha512-256",
    "hmac-sha3-224",
    "hmac-sha3-256",
    "hmac-sha3-384",
    "hmac-sha3-512",
    "kmac128",
    "kmac256",
];

/// A keyed hasher for `name`.
pub fn mac(
    name: &str,
    key: &[u8],
    custom: &[u8],
    len: Option<usize>,
) -> Result<Box<dyn Hasher>, String> {
    let name = name.to_ascii_lowercase();
    let unknown = || format!("unknown MAC '{name}'; valid MACs: {}", MACS.join(", "));
    if let Some(h) = name.strip_prefix("hmac-") {
        if len.is_some() || !custom.is_empty() {
            return Err("--length and --customization apply to KMAC only".into());
        }
        return Ok(match h {
            "sha1" => Box::new(HmacOf(Hmac::<Sha1>::new(key))),
            "sha224" => Box::new(HmacOf(Hmac::<Sha224>::new(key))),
            "sha256" => Box::new(HmacOf(Hmac::<Sha256>::new(key))),
            "sha384" => Box::new(HmacOf(Hmac::<Sha384>::new(key))),
            "sha512" => Box::new(HmacOf(Hmac::<Sha512>::new(key))),
            "sha512-224" => Box::new(HmacOf(Hmac::<Sha512_224>::new(key))),
            "sha512-256" => Box::new(HmacOf(Hmac::<Sha512_256>::new(key))),
            "sha3-224" => Box::new(HmacOf(Hmac::<Sha3_224>::new(key))),
            "sha3-256" => Box::new(HmacOf(Hmac::<Sha3_256>::new(key))),
            "sha3-384" => Box::new(HmacOf(Hmac::<Sha3_384>::new(key))),
            "sha3-512" => Box::new(HmacOf(Hmac::<Sha3_512>::new(key))),
            _ => return Err(unknown()),
        });
    }
    let n = len.unwrap_or(if name == "kmac128" { 32 } else { 64 });
    if n < shyfr::mac::kmac::MIN_TAG_LEN {
        return Err(format!(
            "KMAC output length must be at least {} bytes",
            shyfr::mac::kmac::MIN_TAG_LEN
        ));
    }
    let bad_key = |e: shyfr::Error| format!("{name}: {e}");
    match name.as_str() {
        "kmac128" => Ok(Box::new(KmacOf::K128(
            Kmac128::new(key, custom).map_err(bad_key)?,
            n,
        ))),
        "kmac256" => Ok(Box::new(KmacOf::K256(
            Kmac256::new(key, custom).map_err(bad_key)?,
            n,
        ))),
        _ => Err(unknown()),
    }
}

enum KmacOf {
    K128(Kmac128, usize),
    K256(Kmac256, usize),
}

impl Hasher for KmacOf {
    fn update(&mut self, data: &[u8]) {
        match self {
            KmacOf::K128(k, _) => k.update(data),
            KmacOf::K256(k, _) => k.update(data),
        }
    }
    fn finish(self: Box<Self>) -> Vec<u8> {
        match *self {
            KmacOf::K128(k, n) => {
                let mut out = vec![0u8; n];
                k.finalize_into(&mut out).expect("length checked at set-up");
                out
            }
            KmacOf::K256(k, n) => {
                let mut out = vec![0u8; n];
                k.finalize_into(&mut out).expect("length checked at set-up");
                out
            }
        }
    }
}

/// Arguments of `shyfr hash`.
#[derive(Args, Debug)]
pub struct HashArgs {
    /// Hash: sha1, sha224, sha256, sha384, sha512, sha512-224, sha512-256, sha3-224,
    /// sha3-256, sha3-384, sha3-512, shake128, shake256.
    #[arg(value_name = "ALG")]
    pub alg: String,
    /// Files to hash (standard input when none, or for `-`).
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
    /// Read `HASH  NAME` lines (as written by this command or `sha256sum`) from FILE and
    /// verify each named file; exit status 1 if any is missing or differs.
    #[arg(long, short = 'c', value_name = "FILE", conflicts_with = "files")]
    pub check: Option<String>,
    /// Output length in bytes (SHAKE only; default 32 for shake128, 64 for shake256).
    #[arg(long, value_name = "BYTES")]
    pub length: Option<usize>,
    /// With --check: print nothing for files that verify.
    #[arg(long)]
    pub quiet: bool,
}

/// Arguments of `shyfr mac`.
#[derive(Args, Debug)]
pub struct MacArgs {
    /// MAC: hmac-sha1, hmac-sha256, ..., hmac-sha3-512, kmac128, kmac256.
    #[arg(value_name = "ALG")]
    pub alg: String,
    /// The key, in hexadecimal.
    #[arg(long, value_name = "HEX")]
    pub key_hex: String,
    /// KMAC customization string (text).
    #[arg(long, value_name = "TEXT", default_value = "")]
    pub customization: String,
    /// KMAC output length in bytes (default 32 for kmac128, 64 for kmac256).
    #[arg(long, value_name = "BYTES")]
    pub length: Option<usize>,
    /// Files (standard input when none, or for `-`).
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
}

/// Streams one input (a path, or `-` for standard input) through `h`.
fn absorb(path: &str, h: &mut dyn Hasher) -> io::Result<()> {
    let mut buf = vec![0u8; CHUNK];
    let (mut reader, size): (Box<dyn Read>, Option<u64>) = if path == "-" {
        (Box::new(io::stdin().lock()), None)
    } else {
        let f = File::open(Path::new(path))?;
        let size = f.metadata().ok().map(|m| m.len());
        (Box::new(f), size)
    };
    let bar = match size {
        Some(n) if n >= PROGRESS_MIN && io::stderr().is_terminal() => {
            let pb = indicatif::ProgressBar::new(n);
            pb.set_style(
                indicatif::ProgressStyle::with_template(
                    "{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            pb.set_message(path.to_string());
            Some(pb)
        }
        _ => None,
    };
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        h.update(&buf[..n]);
        if let Some(pb) = &bar {
            pb.inc(n as u64);
        }
    }
    if let Some(pb) = bar {
        pb.finish_and_clear();
    }
    Ok(())
}

fn io_message(path: &str, e: &io::Error) -> String {
    let what = match e.kind() {
        io::ErrorKind::NotFound => "No such file or directory".to_string(),
        io::ErrorKind::PermissionDenied => "Permission denied".to_string(),
        _ if e.raw_os_error() == Some(21) => "Is a directory".to_string(),
        _ => e.to_string(),
    };
    format!("shyfr: {path}: {what}")
}

fn write_out(out: &mut impl Write, line: &str) -> Result<(), CliError> {
    match out.write_all(line.as_bytes()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(CliError::Runtime(String::new())),
        Err(e) => Err(CliError::Runtime(format!("cannot write output: {e}"))),
    }
}

/// Runs `shyfr hash`. Output goes straight to stdout (line by line, for long runs).
pub fn run_hash(args: &HashArgs) -> Result<(), CliError> {
    let make = || {
        hasher(&args.alg, args.length).ok_or_else(|| {
            if args.length.is_some() && hasher(&args.alg, None).is_some() {
                CliError::Usage("--length applies to shake128 and shake256 only".into())
            } else {
                CliError::Usage(format!(
                    "unknown hash '{}'; valid hashes: {}",
                    args.alg,
                    HASHES.iter().map(|h| h.0).collect::<Vec<_>>().join(", ")
                ))
            }
        })
    };
    make()?;
    if args.length == Some(0) {
        return Err(CliError::Usage("--length must be at least 1".into()));
    }
    if let Some(list) = &args.check {
        return check(args, list, &make);
    }
    digest_files(&args.files, &make)
}

/// Prints `DIGEST  NAME` for every input (standard input when `files` is empty), going on
/// past unreadable ones, which are reported on stderr and make the result an error.
fn digest_files(
    files: &[String],
    make: &dyn Fn() -> Result<Box<dyn Hasher>, CliError>,
) -> Result<(), CliError> {
    let stdin = ["-".to_string()];
    let files = if files.is_empty() { &stdin[..] } else { files };
    let mut out = io::stdout().lock();
    let mut failed = false;
    for f in files {
        let mut h = make()?;
        match absorb(f, h.as_mut()) {
            Ok(()) => write_out(&mut out, &format!("{}  {f}\n", hex::encode(h.finish())))?,
            Err(e) => {
                let _ = out.flush();
                eprintln!("{}", io_message(f, &e));
                failed = true;
            }
        }
    }
    let _ = out.flush();
    if failed {
        Err(CliError::Runtime(String::new()))
    } else {
        Ok(())
    }
}

/// Parses one `HASH  NAME` / `HASH *NAME` line.
fn parse_line(line: &str) -> Option<(Vec<u8>, &str)> {
    let (digest, rest) = line.split_once(' ')?;
    let name = rest.strip_prefix(' ').or_else(|| rest.strip_prefix('*'))?;
    if name.is_empty() {
        return None;
    }
    Some((hex::decode(digest).ok()?, name))
}

fn check(
    args: &HashArgs,
    list: &str,
    make: &dyn Fn() -> Result<Box<dyn Hasher>, CliError>,
) -> Result<(), CliError> {
    let text = if list == "-" {
        let mut s = String::new();
        io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| CliError::Runtime(io_message("-", &e)))?;
        s
    } else {
        std::fs::read_to_string(list).map_err(|e| CliError::Runtime(io_message(list, &e)))?
    };
    let mut out = io::stdout().lock();
    let (mut bad_format, mut mismatched, mut unreadable, mut good) = (0, 0, 0, 0);
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        let Some((want, name)) = parse_line(line) else {
            bad_format += 1;
            continue;
        };
        let mut h = make()?;
        if want.len() != make()?.finish().len() {
            bad_format += 1;
            continue;
        }
        match absorb(name, h.as_mut()) {
            Ok(()) => {
                if shyfr::ct::ct_eq(&h.finish(), &want) {
                    good += 1;
                    if !args.quiet {
                        write_out(&mut out, &format!("{name}: OK\n"))?;
                    }
                } else {
                    mismatched += 1;
                    write_out(&mut out, &format!("{name}: FAILED\n"))?;
                }
            }
            Err(e) => {
                unreadable += 1;
                let _ = out.flush();
                eprintln!("{}", io_message(name, &e));
                write_out(&mut out, &format!("{name}: FAILED open or read\n"))?;
            }
        }
    }
    let _ = out.flush();
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            one.to_string()
        } else {
            many.to_string()
        }
    };
    if bad_format > 0 {
        eprintln!(
            "shyfr: WARNING: {bad_format} {} improperly formatted",
            plural(bad_format, "line is", "lines are")
        );
    }
    if unreadable > 0 {
        eprintln!(
            "shyfr: WARNING: {unreadable} listed {} could not be read",
            plural(unreadable, "file", "files")
        );
    }
    if mismatched > 0 {
        eprintln!(
            "shyfr: WARNING: {mismatched} computed {} did NOT match",
            plural(mismatched, "checksum", "checksums")
        );
    }
    if good == 0 && mismatched == 0 && unreadable == 0 {
        eprintln!("shyfr: {list}: no properly formatted checksum lines found");
        return Err(CliError::Runtime(String::new()));
    }
    if mismatched + unreadable + bad_format > 0 {
        Err(CliError::Runtime(String::new()))
    } else {
        Ok(())
    }
}

/// Runs `shyfr mac`: one `TAG  NAME` line per input.
pub fn run_mac(args: &MacArgs) -> Result<(), CliError> {
    let key = hex::decode(args.key_hex.trim())
        .map_err(|e| CliError::Usage(format!("--key-hex: not hexadecimal ({e})")))?;
    if args.length == Some(0) {
        return Err(CliError::Usage("--length must be at least 1".into()));
    }
    let make = || {
        mac(&args.alg, &key, args.customization.as_bytes(), args.length).map_err(CliError::Usage)
    };
    make()?;
    digest_files(&args.files, &make)
}
