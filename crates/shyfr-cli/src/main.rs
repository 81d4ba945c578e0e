//! The `shyfr` command.
//!
//! * `shyfr cpu [--json]`: the CPU features found and enabled, and every algorithm's
//!   backends with whether each is available and which one is selected.
//! * `shyfr speed [ALG ...]`: throughput in MB/s and cycles per byte, in the spirit of
//!   `openssl speed`, best of several trials with their spread; optionally on N threads at
//!   once, as JSON or CSV, and drawn as a chart (`--list` names every algorithm).
//! * `shyfr enc -aes-256-cbc -K HEX -iv HEX [-d] [-nopad] [-in F] [-out F]`: raw-key AES,
//!   byte-compatible with `openssl enc`, plus GCM and XTS (`shyfr enc -help`).
//!
//! `--cpu SPEC` (any position) overrides the CPU features shyfr may use, like the
//! environment variable `SHYFR_CPU` (see [`shyfr::cpu`]), and wins over it. A malformed
//! `SHYFR_CPU` or `--cpu` is refused with exit status 2, as are other usage errors.

mod algorithms;
mod clock;
mod cpu_report;
mod enc;
mod encrypt;
mod hash_cmd;
mod measure;
mod plot;
mod speed;
mod table;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit status for usage errors (the same as clap's).
const EXIT_USAGE: u8 = 2;
/// Exit status for failures while running.
const EXIT_FAILURE: u8 = 1;

/// The environment variable the library reads its override from.
const ENV_VAR: &str = "SHYFR_CPU";

/// Fast, constant-time cryptographic primitives: CPU report and benchmarks.
#[derive(Parser, Debug)]
#[command(name = "shyfr", version, about, max_term_width = 100)]
struct Cli {
    /// Override the CPU features shyfr may use, like SHYFR_CPU (which it replaces):
    /// `portable`, `native`, or a comma list of -FEATURE / +FEATURE, e.g. `-vaes,-avx512f`.
    /// A feature the CPU lacks is never enabled.
    #[arg(long, global = true, value_name = "SPEC", allow_hyphen_values = true)]
    cpu: Option<String>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Show the CPU features found and enabled, and each algorithm's backends.
    Cpu(cpu_report::CpuArgs),
    /// Measure throughput (MB/s) and cycles per byte, like `openssl speed`.
    Speed(speed::SpeedArgs),
    /// Print or check checksums (output compatible with sha256sum and friends).
    Hash(hash_cmd::HashArgs),
    /// Print HMAC or KMAC tags of files.
    Mac(hash_cmd::MacArgs),
    /// Encrypt or decrypt with AES and a raw key, like `openssl enc` (`shyfr enc -help`).
    Enc(enc::EncArgs),
    /// Encrypt a file or stream with a passphrase or key file (format: FORMAT.md).
    Encrypt(encrypt::EncryptArgs),
    /// Decrypt what `shyfr encrypt` wrote; only authenticated data is ever output.
    Decrypt(encrypt::DecryptArgs),
    /// Write a new random key file for `--key-file`.
    Keygen(encrypt::KeygenArgs),
}

/// The CPU override in effect, and where it came from.
#[derive(Clone, Debug)]
pub struct CpuOverride {
    /// `"--cpu"` or `"SHYFR_CPU"`.
    pub source: &'static str,
    /// The specification as given.
    pub spec: String,
}

/// Why the command failed.
#[derive(Debug)]
pub enum CliError {
    /// The command line (or `SHYFR_CPU`) is wrong: exit status 2.
    Usage(String),
    /// Something failed while running: exit status 1.
    Runtime(String),
}

/// Checks `SHYFR_CPU` and applies `--cpu`; must run before anything asks the library which
/// features are enabled. Returns the override in effect.
fn apply_cpu_override(flag: Option<&str>) -> Result<Option<CpuOverride>, CliError> {
    let env = match std::env::var_os(ENV_VAR) {
        None => None,
        Some(v) => match v.into_string() {
            Ok(s) => Some(s),
            Err(v) => {
                return Err(CliError::Usage(format!(
                    "{ENV_VAR}={v:?} is not valid UTF-8; expected `portable`, `native`, or a \
                     comma list of -FEATURE / +FEATURE"
                )))
            }
        },
    };
    if let Some(e) = shyfr::cpu::env_override_error() {
        return Err(CliError::Usage(format!(
            "environment variable {ENV_VAR}={:?}: {e}",
            env.as_deref().unwrap_or("")
        )));
    }
    if let Some(spec) = flag {
        shyfr::cpu::set_override(spec)
            .map_err(|e| CliError::Usage(format!("--cpu {spec:?}: {e}")))?;
        return Ok(Some(CpuOverride {
            source: "--cpu",
            spec: spec.to_string(),
        }));
    }
    Ok(env.map(|spec| CpuOverride {
        source: ENV_VAR,
        spec,
    }))
}

/// Writes `text` to standard output; a closed pipe is not reported.
fn emit(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            Err(CliError::Runtime(String::new()))
        }
        Err(e) => Err(CliError::Runtime(format!("cannot write output: {e}"))),
    }
}

fn run(cli: Cli) -> Result<(), CliError> {
    let ov = apply_cpu_override(cli.cpu.as_deref())?;
    let text = match &cli.command {
        Command::Cpu(args) => cpu_report::run(args, ov.as_ref())?,
        Command::Speed(args) => speed::run(args, ov.as_ref())?,
        Command::Hash(args) => return hash_cmd::run_hash(args),
        Command::Mac(args) => return hash_cmd::run_mac(args),
        Command::Enc(args) => return enc::run(args),
        Command::Encrypt(args) => return encrypt::run_encrypt(args),
        Command::Decrypt(args) => return encrypt::run_decrypt(args),
        Command::Keygen(args) => return encrypt::run_keygen(args),
    };
    emit(&text)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Usage(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(EXIT_USAGE)
        }
        Err(CliError::Runtime(msg)) => {
            if !msg.is_empty() {
                eprintln!("error: {msg}");
            }
            ExitCode::from(EXIT_FAILURE)
        }
    }
}
