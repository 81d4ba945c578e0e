//! `shyfr encrypt`, `shyfr decrypt` and `shyfr keygen`: file encryption with a passphrase
//! (Argon2id) or a key file, in the format of FORMAT.md (a small header, then a chunked
//! ciphertext whose context is the header: Cobblestone, c2sp.org/chunked-encryption, or
//! shyfr's Kalyna-GCM instantiation of it).
//!
//! * Input: a file or standard input (`-` or nothing); output: `-o FILE` or standard
//!   output. Encrypted data is never written to a terminal.
//! * A file output is written to a temporary file in its directory, synced, and renamed
//!   into place only when everything succeeded: an interrupted run (even `kill -9`) leaves
//!   the destination as it was (and at worst a `.NAME.XXXXXX.shyfr-tmp` file behind).
//!   Existing files are replaced only with `--force`; the input and the output may not be
//!   the same file (compared by device and inode, so other names and links are caught).
//! * Decryption to standard output writes only authenticated chunks and exits with status
//!   1 on any error (then what was written is a prefix of the message, in whole 16 KiB
//!   chunks).
//! * Passphrases: asked twice on the terminal without echo, or read from `--passphrase-fd
//!   N` (first line) or the environment variable `SHYFR_PASSPHRASE`, for scripts.
//! * Errors are printed as `shyfr: CONTEXT: message`; exit status 1 for failures, 2 for
//!   usage errors.
//! * The AEAD (`--cipher`, header identifiers 1 to 5): AES-256-GCM (default) or
//!   AES-128-GCM, Cobblestone's; or DSTU 7624 GCM over Kalyna-128/256, Kalyna-256/256 or
//!   Kalyna-128/128 (`kalyna-128-256-gcm`, `kalyna-256-256-gcm`, `kalyna-128-128-gcm`),
//!   shyfr's instantiation of the same construction: one-block nonces, the chunk's nonce as
//!   its associated data (DSTU GCM's tag does not depend on the IV), 16-byte tags, so the
//!   same lengths and offsets (see `shyfr::aead::chunked` and FORMAT.md). Decryption reads
//!   the AEAD from the header; an identifier it does not know is refused before any key
//!   derivation. The Kalyna variants with 512-bit keys are not offered: a key file holds
//!   a 256-bit key. `--stats` names the AEAD and what runs it (the AES-GCM engine, or the
//!   Kalyna backend).
//! * Reading, the AEAD (on `--threads N` cores, default all) and writing overlap
//!   (`encrypt/pipeline.rs`). On the shared 2-core test machine, 1 GiB on /dev/shm, best of
//!   8 alternating with the same loop on one thread: file to file 0.62 s against 0.78 s
//!   (encrypt) and 0.84 against 1.02 (decrypt); to /dev/null 0.40 against 0.30 (encrypt,
//!   slower) and 0.19 against 0.27 (decrypt).

mod format;
pub(crate) mod output;
mod pipeline;
mod secret;

use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use shyfr::aead::chunked::{Cobblestone, Suite, ENCRYPTED_CHUNK_LEN, HEADER_LEN, SALT_LEN};
use shyfr::Error;
use zeroize::Zeroizing;

use crate::CliError;
use format::{Argon2Params, Header, KeySource};
use output::{FileId, Target};

/// Chunks sealed or opened per batch: 1 MiB of message, or 16 chunks (two of the
/// library's groups of 8) per thread when there are more than 4. Measured on the shared
/// 2-core Zen 4 box, 1 GiB from /dev/shm to /dev/null, best of 3: 64 chunks 6.2 GB/s of
/// AES-256-GCM on one thread, 256 chunks 5.3, 1024 chunks 3.1 (the batch falls out of
/// the caches); 16 and 32 chunks 5.7 and 5.1.
fn batch_chunks() -> usize {
    (16 * rayon::current_num_threads()).max(64)
}

/// Inputs at least this large show a progress bar when stderr is a terminal.
const PROGRESS_MIN: u64 = 64 << 20;

/// Why a command failed; printed as `shyfr: CONTEXT: MESSAGE`.
#[derive(Debug)]
pub enum Fail {
    /// A usage error (exit status 2).
    Usage(String, String),
    /// A failure (exit status 1).
    Run(String, String),
    /// A failure already reported, or a closed output pipe (exit status 1, no message).
    Quiet,
}

impl Fail {
    /// A usage error about `ctx`.
    pub fn usage(ctx: &str, msg: impl Into<String>) -> Fail {
        Fail::Usage(ctx.to_string(), msg.into())
    }
    /// A failure about `ctx`.
    pub fn run(ctx: &str, msg: impl Into<String>) -> Fail {
        Fail::Run(ctx.to_string(), msg.into())
    }
}

/// Prints a failure and turns it into the command's result. A usage error exits with
/// status 2 here (everything that held files has been dropped by then).
fn report(r: Result<(), Fail>) -> Result<(), CliError> {
    match r {
        Ok(()) => Ok(()),
        Err(Fail::Usage(ctx, msg)) => {
            eprintln!("shyfr: {ctx}: {msg}");
            std::process::exit(crate::report::EXIT_USAGE as i32)
        }
        Err(Fail::Run(ctx, msg)) => {
            eprintln!("shyfr: {ctx}: {msg}");
            Err(CliError::Reported)
        }
        Err(Fail::Quiet) => Err(CliError::Reported),
    }
}

/// The AEAD of an encrypted file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Cipher {
    /// AES-256-GCM (Cobblestone-256).
    #[value(name = "aes-256-gcm")]
    Aes256,
    /// AES-128-GCM (Cobblestone-128).
    #[value(name = "aes-128-gcm")]
    Aes128,
    /// DSTU 7624:2014 GCM over Kalyna-128/256 (128-bit block, 256-bit key; shyfr's
    /// instantiation of the same chunked format).
    #[value(name = "kalyna-128-256-gcm")]
    Kalyna128_256,
    /// DSTU 7624:2014 GCM over Kalyna-256/256 (256-bit block, 256-bit key).
    #[value(name = "kalyna-256-256-gcm")]
    Kalyna256_256,
    /// DSTU 7624:2014 GCM over Kalyna-128/128 (128-bit block, 128-bit key).
    #[value(name = "kalyna-128-128-gcm")]
    Kalyna128_128,
}

/// Options shared by `encrypt` and `decrypt`.
#[derive(Args, Debug)]
pub struct Common {
    /// Input file; standard input when absent or `-`.
    #[arg(value_name = "INPUT")]
    input: Option<PathBuf>,
    /// Output file; standard output when absent or `-`.
    #[arg(short, long, value_name = "OUTPUT")]
    output: Option<PathBuf>,
    /// Use the key in FILE (from `shyfr keygen`) instead of a passphrase.
    #[arg(
        short = 'k',
        long,
        value_name = "FILE",
        conflicts_with = "passphrase_fd"
    )]
    key_file: Option<PathBuf>,
    /// Read the passphrase from file descriptor N (its first line) instead of the terminal.
    /// The environment variable SHYFR_PASSPHRASE is the other way for scripts.
    #[arg(long, value_name = "N")]
    passphrase_fd: Option<u32>,
    /// Replace OUTPUT if it exists.
    #[arg(short, long)]
    force: bool,
    /// Threads for the AEAD (default: one per core); reading and writing run on a thread
    /// each beside them.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Print timings to stderr: total, the AEAD alone, I/O, key derivation, with throughput.
    #[arg(long)]
    stats: bool,
    /// No progress bar (shown on a terminal for inputs of 64 MiB or more).
    #[arg(long)]
    no_progress: bool,
}

/// `shyfr encrypt [INPUT] [-o OUTPUT] [--key-file FILE]`.
#[derive(Args, Debug)]
#[command(
    after_help = "Exit status: 0 on success, 1 on failure, 2 for usage errors.\n\
    The file format is described in FORMAT.md."
)]
pub struct EncryptArgs {
    #[command(flatten)]
    common: Common,
    /// The AEAD (decryption reads it from the file).
    #[arg(long, value_enum, default_value = "aes-256-gcm")]
    cipher: Cipher,
    /// Argon2id memory in KiB (passphrases only; 19456 to 1048576).
    #[arg(long, value_name = "KIB", default_value_t = format::DEFAULT_MEMORY_KIB)]
    argon2_memory: u32,
    /// Argon2id passes (passphrases only; 2 to 32).
    #[arg(long, value_name = "N", default_value_t = format::DEFAULT_PASSES)]
    argon2_passes: u32,
    /// Argon2id lanes (passphrases only; at most 64).
    #[arg(long, value_name = "N", default_value_t = format::DEFAULT_LANES)]
    argon2_lanes: u32,
}

/// `shyfr decrypt [INPUT] [-o OUTPUT] [--key-file FILE]`.
#[derive(Args, Debug)]
#[command(
    after_help = "Exit status: 0 on success, 1 on failure (nothing is written to a \
    file output then; on standard output only authenticated data was written), 2 for usage \
    errors."
)]
pub struct DecryptArgs {
    #[command(flatten)]
    common: Common,
}

/// `shyfr keygen [TYPE] [-o FILE] [--pub FILE]`.
#[derive(Args, Debug)]
#[command(
    after_help = "Without TYPE: a 256-bit key file for `shyfr encrypt --key-file`. \
    With rsa-BITS (512 to 16384, e.g. rsa-3072; `rsa` alone is rsa-3072): an RSA private key \
    (e = 65537) as PKCS#8 PEM, like `openssl genpkey -algorithm RSA`, for `shyfr sign`.\n\
    Exit status: 0 on success, 1 on failure, 2 for usage errors."
)]
pub struct KeygenArgs {
    /// Key type: none for a file-encryption key, or rsa-BITS for an RSA key.
    #[arg(value_name = "TYPE")]
    kind: Option<String>,
    /// Where to write the key file (mode 0600); standard output when absent or `-`.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Replace FILE (and PUB) if it exists.
    #[arg(short, long)]
    force: bool,
    /// With rsa-BITS: also write the public key (SubjectPublicKeyInfo PEM, as `openssl pkey
    /// -pubout` writes it) to PUB.
    #[arg(long = "pub", value_name = "PUB")]
    public: Option<PathBuf>,
}

/// `shyfr encrypt`.
pub fn run_encrypt(a: &EncryptArgs) -> Result<(), CliError> {
    report(encrypt(a))
}

/// `shyfr decrypt`.
pub fn run_decrypt(a: &DecryptArgs) -> Result<(), CliError> {
    report(decrypt(a))
}

/// `shyfr keygen`: a file-encryption key, or an RSA key with a TYPE
/// ([`crate::rsa_cmd::run_keygen`]).
pub fn run_keygen(a: &KeygenArgs) -> Result<(), CliError> {
    if let Some(kind) = &a.kind {
        return crate::rsa_cmd::run_keygen(kind, a.output.as_deref(), a.public.as_deref(), a.force);
    }
    if a.public.is_some() {
        return Err(CliError::Usage(
            "--pub is for RSA keys: shyfr keygen rsa-BITS -o KEY --pub PUB".into(),
        ));
    }
    report(keygen(a))
}

fn keygen(a: &KeygenArgs) -> Result<(), Fail> {
    let target = Target::check(a.output.as_deref(), a.force, false, None)?;
    let text = secret::new_key_file()?;
    let ctx = a
        .output
        .as_ref()
        .map_or("stdout".to_string(), |p| p.display().to_string());
    let mut sink = target.open()?;
    sink.write_all(text.as_bytes())
        .map_err(|e| output::write_fail(&ctx, e))?;
    sink.commit()
}

/// The input: a file or standard input.
struct Input {
    reader: File,
    name: String,
    size: Option<u64>,
    id: Option<FileId>,
}

fn open_input(path: Option<&Path>) -> Result<Input, Fail> {
    let (reader, name) = match path {
        None => (stdin_file()?, "stdin".to_string()),
        Some(p) if p.as_os_str() == "-" => (stdin_file()?, "stdin".to_string()),
        Some(p) => {
            let name = p.display().to_string();
            let f = File::open(p).map_err(|e| Fail::run(&name, format!("cannot open: {e}")))?;
            (f, name)
        }
    };
    let meta = reader
        .metadata()
        .map_err(|e| Fail::run(&name, format!("cannot open: {e}")))?;
    if meta.is_dir() {
        return Err(Fail::usage(&name, "is a directory"));
    }
    Ok(Input {
        size: meta.is_file().then_some(meta.len()),
        id: FileId::of(&meta),
        reader,
        name,
    })
}

#[cfg(unix)]
fn stdin_file() -> Result<File, Fail> {
    output::std_file(false).map_err(|e| Fail::run("stdin", e.to_string()))
}

/// Runs `f` on a pool of `threads` threads, or on rayon's global pool (one thread per
/// core) when not given.
fn on_threads<T: Send>(threads: Option<u32>, f: impl FnOnce() -> T + Send) -> Result<T, Fail> {
    match threads {
        None => Ok(f()),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n as usize)
                .build()
                .map_err(|e| Fail::run("--threads", format!("cannot start threads: {e}")))?;
            Ok(pool.install(f))
        }
    }
}

/// What `--stats` prints.
struct Stats {
    t: pipeline::Timings,
    total: Duration,
    commit: Duration,
    kdf: Option<Duration>,
    threads: usize,
    suite: Suite,
    engine: &'static str,
}

impl Stats {
    fn print(&self, verb: &str) {
        let bytes = self.t.bytes;
        let mbs = |d: Duration| {
            if d.is_zero() {
                f64::INFINITY
            } else {
                bytes as f64 / d.as_secs_f64() / 1e6
            }
        };
        let engine = self.engine;
        let cipher = cipher_label(self.suite);
        eprintln!(
            "shyfr: stats: {verb} {bytes} bytes in {:.3} s: {:.1} MB/s overall",
            self.total.as_secs_f64(),
            mbs(self.total)
        );
        eprintln!(
            "shyfr: stats: {cipher} ({engine}, {} thread{}): {:.3} s, {:.1} MB/s ({:.0}% of the time)",
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            self.t.crypto.as_secs_f64(),
            mbs(self.t.crypto),
            100.0 * self.t.crypto.as_secs_f64() / self.total.as_secs_f64().max(1e-9)
        );
        let kdf = self.kdf.map_or("key file".to_string(), |d| {
            format!("Argon2id {:.3} s", d.as_secs_f64())
        });
        eprintln!(
            "shyfr: stats: waiting for input {:.3} s, for output {:.3} s, sync and rename {:.3} s; key: {kdf}",
            self.t.input_wait.as_secs_f64(),
            self.t.output_wait.as_secs_f64(),
            self.commit.as_secs_f64()
        );
    }
}

fn progress(c: &Common, input: &Input) -> Option<indicatif::ProgressBar> {
    let size = input.size?;
    if c.no_progress || size < PROGRESS_MIN || !io::stderr().is_terminal() {
        return None;
    }
    let pb = indicatif::ProgressBar::new(size);
    pb.set_style(
        indicatif::ProgressStyle::with_template(
            "{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    pb.set_message(input.name.clone());
    Some(pb)
}

fn suite_of(c: Cipher) -> Suite {
    match c {
        Cipher::Aes256 => Suite::Cobblestone256,
        Cipher::Aes128 => Suite::Cobblestone128,
        Cipher::Kalyna128_256 => Suite::Kalyna128_256Gcm,
        Cipher::Kalyna256_256 => Suite::Kalyna256_256Gcm,
        Cipher::Kalyna128_128 => Suite::Kalyna128_128Gcm,
    }
}

/// How `--stats` names the AEAD of `suite`.
fn cipher_label(suite: Suite) -> &'static str {
    match suite {
        Suite::Cobblestone128 => "AES-128-GCM",
        Suite::Cobblestone256 => "AES-256-GCM",
        Suite::Kalyna128_128Gcm => "Kalyna-128/128-GCM",
        Suite::Kalyna128_256Gcm => "Kalyna-128/256-GCM",
        Suite::Kalyna256_256Gcm => "Kalyna-256/256-GCM",
        Suite::Kalyna256_512Gcm => "Kalyna-256/512-GCM",
        Suite::Kalyna512_512Gcm => "Kalyna-512/512-GCM",
    }
}

/// The input key from a key file (its first `suite.key_len()` bytes).
fn key_from_file(path: &Path, suite: Suite) -> Result<Cobblestone, Fail> {
    let k = secret::read_key_file(path)?;
    Cobblestone::new(suite, &k[..suite.key_len()]).map_err(|e| Fail::run("key", e.to_string()))
}

/// The input key from a passphrase with Argon2id; with its time.
fn key_from_passphrase(
    pass: &str,
    a: &Argon2Params,
    suite: Suite,
) -> Result<(Cobblestone, Duration), Fail> {
    let t = Instant::now();
    let mut k = Zeroizing::new([0u8; 64]);
    let kl = suite.key_len();
    format::argon2id(pass.as_bytes(), a, &mut k[..kl]).map_err(|e| Fail::run("passphrase", e))?;
    let key = Cobblestone::new(suite, &k[..kl]).map_err(|e| Fail::run("key", e.to_string()))?;
    Ok((key, t.elapsed()))
}

fn encrypt(a: &EncryptArgs) -> Result<(), Fail> {
    let c = &a.common;
    let suite = suite_of(a.cipher);
    let input = open_input(c.input.as_deref())?;
    let target = Target::check(c.output.as_deref(), c.force, true, input.id)?;
    let (source, key, kdf) = match &c.key_file {
        Some(p) => (KeySource::KeyFile, key_from_file(p, suite)?, None),
        None => {
            let mut salt = [0u8; format::ARGON2_SALT_LEN];
            getrandom::fill(&mut salt)
                .map_err(|e| Fail::run("encrypt", format!("no random numbers: {e}")))?;
            let params = Argon2Params {
                memory_kib: a.argon2_memory,
                passes: a.argon2_passes,
                lanes: a.argon2_lanes,
                salt,
            };
            let cheap = std::env::var_os(format::CHEAP_KDF_ENV).is_some_and(|v| v == "1");
            params
                .check_new(cheap)
                .map_err(|m| Fail::usage("--argon2-*", m))?;
            let pass = secret::passphrase(c.passphrase_fd, true)?;
            let (key, t) = key_from_passphrase(&pass, &params, suite)?;
            (KeySource::Passphrase(params), key, Some(t))
        }
    };
    let header = Header { suite, source }.to_bytes();
    let mut salt = [0u8; SALT_LEN];
    getrandom::fill(&mut salt)
        .map_err(|e| Fail::run("encrypt", format!("no random numbers: {e}")))?;
    let (cobblestone_header, mk) = key
        .seal_header(&salt, &header)
        .map_err(|e| Fail::run("encrypt", e.to_string()))?;
    let start = Instant::now();
    let out_name = c
        .output
        .as_ref()
        .map_or("stdout".to_string(), |p| p.display().to_string());
    let mut sink = target.open()?;
    sink.write_all(&header)
        .and_then(|()| sink.write_all(&cobblestone_header))
        .map_err(|e| output::write_fail(&out_name, e))?;
    let pb = progress(c, &input);
    let inc = |n: u64| {
        if let Some(pb) = &pb {
            pb.inc(n)
        }
    };
    let name = input.name.clone();
    let (sink, r, threads) = on_threads(c.threads, || {
        let (sink, r) = pipeline::seal(&mk, input.reader, sink, batch_chunks(), &inc);
        (sink, r, rayon::current_num_threads())
    })?;
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    let t = r.map_err(|e| stream_fail(e, &name, &out_name, header.len()))?;
    let committing = Instant::now();
    sink.commit()?;
    if c.stats {
        Stats {
            t,
            total: start.elapsed(),
            commit: committing.elapsed(),
            kdf,
            threads,
            suite,
            engine: mk.engine(),
        }
        .print("encrypted");
    }
    Ok(())
}

/// A stream failure in the words of the command.
fn stream_fail(e: pipeline::StreamError, input: &str, output: &str, header_len: usize) -> Fail {
    match e {
        pipeline::StreamError::Read(e) => Fail::run(input, format!("cannot read: {e}")),
        pipeline::StreamError::Write(e) => output::write_fail(output, e),
        pipeline::StreamError::Crypto(e, final_chunk) => {
            Fail::run(input, crypto_message(e, final_chunk, header_len))
        }
    }
}

/// A decryption failure: which offset of the file is bad.
fn crypto_message(e: Error, final_chunk: Option<u64>, header_len: usize) -> String {
    match e {
        Error::CommitmentMismatch => "wrong passphrase or key".to_string(),
        Error::Truncated => "file truncated".to_string(),
        Error::ChunkAuthenticationFailed { chunk } => {
            let off = (header_len + HEADER_LEN) as u64 + chunk * ENCRYPTED_CHUNK_LEN as u64;
            if final_chunk == Some(chunk) {
                format!("file corrupted at offset {off} (the last chunk: damaged or truncated)")
            } else {
                format!("file corrupted at offset {off}")
            }
        }
        other => other.to_string(),
    }
}

/// Whether `data` is not text to show on a terminal: a NUL byte or invalid UTF-8 (a
/// sequence cut at the end of `data` is fine).
fn looks_binary(data: &[u8]) -> bool {
    if data.contains(&0) {
        return true;
    }
    match std::str::from_utf8(data) {
        Ok(_) => false,
        Err(e) => e.error_len().is_some(),
    }
}

fn decrypt(a: &DecryptArgs) -> Result<(), Fail> {
    let c = &a.common;
    let mut input = open_input(c.input.as_deref())?;
    let target = Target::check(c.output.as_deref(), c.force, false, input.id)?;
    let (header, header_bytes) =
        Header::read(&mut input.reader).map_err(|e| Fail::run(&input.name, e.to_string()))?;
    let (key, kdf) = match (&header.source, &c.key_file) {
        (KeySource::KeyFile, Some(p)) => (key_from_file(p, header.suite)?, None),
        (KeySource::KeyFile, None) => {
            return Err(Fail::run(
                &input.name,
                "encrypted with a key file: use --key-file FILE",
            ))
        }
        (KeySource::Passphrase(_), Some(_)) => {
            return Err(Fail::run(
                &input.name,
                "encrypted with a passphrase, not a key file (drop --key-file)",
            ))
        }
        (KeySource::Passphrase(params), None) => {
            let pass = secret::passphrase(c.passphrase_fd, false)?;
            let (k, t) = key_from_passphrase(&pass, params, header.suite)?;
            (k, Some(t))
        }
    };
    let hlen = header_bytes.len();
    let mut cobblestone_header = [0u8; HEADER_LEN];
    let n = pipeline::read_full(&mut input.reader, &mut cobblestone_header)
        .map_err(|e| Fail::run(&input.name, format!("cannot read: {e}")))?;
    if n < HEADER_LEN {
        return Err(Fail::run(&input.name, "file truncated"));
    }
    let mk = key
        .open_header(&cobblestone_header, &header_bytes)
        .map_err(|e| Fail::run(&input.name, crypto_message(e, None, hlen)))?;
    // The key is right: now the output may be created.
    let start = Instant::now();
    let out_name = c
        .output
        .as_ref()
        .map_or("stdout".to_string(), |p| p.display().to_string());
    let sink = target.open()?;
    let check_tty = sink.is_stdout() && io::stdout().is_terminal();
    let first = |pt: &[u8]| -> Result<(), String> {
        if check_tty && looks_binary(pt) {
            return Err(
                "refusing to write binary data to a terminal (use -o FILE or redirect)".into(),
            );
        }
        Ok(())
    };
    let pb = progress(c, &input);
    let inc = |n: u64| {
        if let Some(pb) = &pb {
            pb.inc(n)
        }
    };
    let name = input.name.clone();
    let (sink, r, refused, threads) = on_threads(c.threads, || {
        let (sink, r, refused) =
            pipeline::open(&mk, input.reader, sink, batch_chunks(), &first, &inc);
        (sink, r, refused, rayon::current_num_threads())
    })?;
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    if let Some(m) = refused {
        return Err(Fail::usage("stdout", m));
    }
    let t = r.map_err(|e| stream_fail(e, &name, &out_name, hlen))?;
    let committing = Instant::now();
    sink.commit()?;
    if c.stats {
        Stats {
            t,
            total: start.elapsed(),
            commit: committing.elapsed(),
            kdf,
            threads,
            suite: header.suite,
            engine: mk.engine(),
        }
        .print("decrypted");
    }
    Ok(())
}
