//! The `shyfr` command.
//!
//! * `shyfr cpu [--json]`: the CPU features found and enabled, and every algorithm's
//!   backends with whether each is available and which one is selected.
//! * `shyfr speed [ALG ...]`: throughput in MB/s and cycles per byte, in the spirit of
//!   `openssl speed`, best of several trials with their spread; optionally on N threads at
//!   once, as JSON or CSV, and drawn as a chart (`--list` names every algorithm).
//! * `shyfr hash ALG [FILE ...]`: checksums, a drop-in for `sha256sum` and friends
//!   (`--check`, `--tag`, `-z`, GNU escaping).
//! * `shyfr mac ALG --key-hex HEX [FILE ...]`: HMAC, KMAC, Kalyna CMAC and GMAC, and
//!   GOST 28147-89 MAC tags.
//! * `shyfr enc -aes-256-cbc -K HEX -iv HEX [-d] [-nopad] [-a] [-in F] [-out F]`: raw-key
//!   AES and triple DES, byte-compatible with `openssl enc`, plus AES-GCM and AES-XTS, and
//!   Kalyna (DSTU 7624:2014) and GOST 28147-89 (`shyfr enc -help`).
//! * `shyfr selftest [--json]`: every algorithm's known answers on every backend.
//!
//! * `shyfr keygen rsa-3072 -o key.pem --pub pub.pem`, `shyfr sign -k key.pem [--pss] FILE`,
//!   `shyfr verify -p pub.pem -s SIG FILE`: RSA keys and signatures, interoperable with
//!   `openssl genpkey`, `openssl dgst -sign/-verify` and `openssl pkeyutl` ([`rsa_cmd`]).
//!
//! Every name comes from one table ([`algorithms`]). Every error is one line
//! `shyfr: CONTEXT: message` on standard error, exit status 2 for usage and 1 for failures
//! ([`report`]); files are written atomically ([`output`]); closed and broken standard
//! descriptors are errors ([`stdio`]).
//!
//! `--cpu SPEC` (any position) overrides the CPU features shyfr may use, like the
//! environment variable `SHYFR_CPU` (see [`shyfr::cpu`]), and replaces it: with `--cpu`,
//! `SHYFR_CPU` is not read at all. A malformed `SHYFR_CPU` (without `--cpu`) or `--cpu` is
//! refused with exit status 2, as are other usage errors.

mod algorithms;
mod ciphers;
mod clock;
mod cpu_report;
mod digest;
mod enc;
mod encrypt;
mod hash_cmd;
mod output;
mod progress;
mod report;
mod rsa_cmd;
mod selftest;
mod speed;
mod stdio;
mod table;

#[cfg(test)]
mod parser_props;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use report::CliError;

/// The environment variable the library reads its override from.
const ENV_VAR: &str = "SHYFR_CPU";

/// Fast, constant-time cryptographic primitives: CPU report, benchmarks, checksums, MACs
/// and file encryption.
#[derive(Parser, Debug)]
#[command(
    name = "shyfr",
    version,
    max_term_width = 100,
    color = clap::ColorChoice::Never
)]
pub struct Cli {
    /// Override the CPU features shyfr may use, like SHYFR_CPU (which it replaces: with
    /// --cpu, SHYFR_CPU is not read): `portable`, `native`, or a comma list of -FEATURE /
    /// +FEATURE, e.g. `-vaes,-avx512f`. A feature the CPU lacks is never enabled.
    #[arg(long, global = true, value_name = "SPEC", allow_hyphen_values = true)]
    cpu: Option<String>,

    #[command(subcommand)]
    command: Command,
}

/// The subcommands' names, for the context of messages.
const COMMANDS: &[&str] = &[
    "cpu", "speed", "hash", "mac", "enc", "encrypt", "decrypt", "keygen", "sign", "verify",
    "selftest",
];

#[derive(Subcommand, Debug)]
enum Command {
    /// Show the CPU features found and enabled, and each algorithm's backends.
    #[command(after_long_help = cpu_report::JSON_HELP)]
    Cpu(cpu_report::CpuArgs),
    /// Measure throughput (MB/s) and cycles per byte, like `openssl speed`.
    Speed(speed::SpeedArgs),
    /// Print or check checksums, like sha256sum (GNU escaping, --check, --tag, -z).
    Hash(hash_cmd::HashArgs),
    /// Print MAC tags of files: HMAC, KMAC, Kalyna CMAC/GMAC, GOST 28147-89.
    Mac(hash_cmd::MacArgs),
    /// Encrypt or decrypt with a raw key (AES, Kalyna, GOST 28147-89, triple DES), like
    /// `openssl enc` (`shyfr enc -help`).
    Enc(enc::EncArgs),
    /// Encrypt a file or stream with a passphrase or key file (format: FORMAT.md).
    Encrypt(encrypt::EncryptArgs),
    /// Decrypt what `shyfr encrypt` wrote; only authenticated data is ever output.
    Decrypt(encrypt::DecryptArgs),
    /// Write a new random key file for `--key-file`, or an RSA key (`keygen rsa-3072`).
    Keygen(encrypt::KeygenArgs),
    /// Sign a file with an RSA private key (PKCS#1 v1.5 or PSS), like `openssl dgst -sign`.
    Sign(rsa_cmd::SignArgs),
    /// Verify an RSA signature of a file, like `openssl dgst -verify`.
    Verify(rsa_cmd::VerifyArgs),
    /// Run every algorithm's known-answer tests on every backend this CPU can run.
    Selftest(selftest::SelftestArgs),
}

/// The CPU override in effect, and where it came from.
#[derive(Clone, Debug)]
pub struct CpuOverride {
    /// `"--cpu"` or `"SHYFR_CPU"`.
    pub source: &'static str,
    /// The specification as given.
    pub spec: String,
}

/// Applies `--cpu` if given (then `SHYFR_CPU` is not looked at: the flag replaces it), else
/// checks `SHYFR_CPU`; must run before anything asks the library which features are
/// enabled. Returns the override in effect.
fn apply_cpu_override(flag: Option<&str>) -> Result<Option<CpuOverride>, CliError> {
    if let Some(spec) = flag {
        shyfr::cpu::set_override(spec)
            .map_err(|e| CliError::Usage(format!("--cpu {spec:?}: {e}")))?;
        return Ok(Some(CpuOverride {
            source: "--cpu",
            spec: spec.to_string(),
        }));
    }
    let env = match std::env::var_os(ENV_VAR) {
        None => None,
        Some(v) => match v.into_string() {
            Ok(s) => Some(s),
            Err(v) => {
                return Err(CliError::Usage(format!(
                    "{ENV_VAR}={}: not valid UTF-8; expected `portable`, `native`, or a \
                     comma list of -FEATURE / +FEATURE (--cpu replaces it)",
                    report::shown(&v)
                )))
            }
        },
    };
    if let Some(e) = shyfr::cpu::env_override_error() {
        return Err(CliError::Usage(format!(
            "environment variable {ENV_VAR}={:?}: {e} (--cpu replaces it)",
            env.as_deref().unwrap_or("")
        )));
    }
    Ok(env.map(|spec| CpuOverride {
        source: ENV_VAR,
        spec,
    }))
}

/// The subcommand named in `argv`, if any (for the context of messages).
fn subcommand_of(argv: &[OsString]) -> Option<&'static str> {
    let mut it = argv.iter().skip(1);
    while let Some(a) = it.next() {
        let a = a.to_str()?;
        if a == "--cpu" {
            it.next();
            continue;
        }
        if a.starts_with('-') {
            continue;
        }
        return COMMANDS.iter().copied().find(|c| *c == a);
    }
    None
}

/// What the command line asks for.
pub enum Parsed {
    /// Run the command.
    Run(Box<Cli>),
    /// Print this (help or version) on standard output and exit 0.
    Print(String),
}

/// One line from a clap error: the message without clap's `error: ` and its usage block,
/// with a pointer to the help.
fn clap_message(e: &clap::Error, sub: Option<&str>) -> String {
    let text = e.render().to_string();
    let mut parts = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            break;
        }
        parts.push(line.trim());
    }
    let mut msg = parts.join(" ");
    if let Some(rest) = msg.strip_prefix("error: ") {
        msg = rest.to_string();
    }
    let help = match sub {
        Some(s) => format!("shyfr {s} --help"),
        None => "shyfr --help".to_string(),
    };
    format!("{msg} (see '{help}')")
}

/// Parses the command line (clap for everything but `enc`, whose options are OpenSSL's).
pub fn parse_args(argv: Vec<OsString>) -> Result<Parsed, CliError> {
    let sub = subcommand_of(&argv);
    match Cli::try_parse_from(&argv) {
        Ok(cli) => Ok(Parsed::Run(Box::new(cli))),
        Err(e) => match e.kind() {
            clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                Ok(Parsed::Print(e.render().to_string()))
            }
            clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                Err(CliError::Usage(match sub {
                    Some(s) => format!("arguments are missing (see 'shyfr {s} --help')"),
                    None => format!(
                        "a command is required: {} (see 'shyfr --help')",
                        COMMANDS.join(", ")
                    ),
                }))
            }
            _ => Err(CliError::Usage(clap_message(&e, sub))),
        },
    }
}

/// Checks a parsed command line the way `run` would before doing anything, without
/// touching the CPU override or running anything (for the parser's property test).
#[cfg(test)]
fn check(cli: &Cli) -> Result<(), CliError> {
    if let Some(spec) = &cli.cpu {
        shyfr::cpu::parse_spec(spec, shyfr::cpu::detected())
            .map_err(|e| CliError::Usage(e.to_string()))?;
    }
    match &cli.command {
        Command::Cpu(_) => Ok(()),
        Command::Speed(args) => speed::check(args),
        Command::Hash(args) => hash_cmd::check_hash(args),
        Command::Mac(args) => hash_cmd::check_mac(args),
        Command::Enc(args) => enc::check(args),
        Command::Encrypt(_)
        | Command::Decrypt(_)
        | Command::Keygen(_)
        | Command::Sign(_)
        | Command::Verify(_) => Ok(()),
        Command::Selftest(args) => selftest::check(args),
    }
}

fn run(cli: Cli) -> Result<(), CliError> {
    let flag = cli.cpu.clone().or_else(|| match &cli.command {
        Command::Enc(args) => enc::cpu_flag(args),
        _ => None,
    });
    let ov = apply_cpu_override(flag.as_deref())?;
    let text = match &cli.command {
        Command::Cpu(args) => cpu_report::run(args, ov.as_ref())?,
        Command::Speed(args) => speed::run(args, ov.as_ref())?,
        Command::Hash(args) => return hash_cmd::run_hash(args),
        Command::Mac(args) => return hash_cmd::run_mac(args),
        Command::Enc(args) => return enc::run(args),
        Command::Encrypt(args) => return encrypt::run_encrypt(args),
        Command::Decrypt(args) => return encrypt::run_decrypt(args),
        Command::Keygen(args) => return encrypt::run_keygen(args),
        Command::Sign(args) => return rsa_cmd::run_sign(args),
        Command::Verify(args) => return rsa_cmd::run_verify(args),
        Command::Selftest(args) => return selftest::run(args),
    };
    stdio::emit(&text)
}

/// A panic is a bug: say so on one line (no backtrace), keeping the word "panicked" so
/// tests that look for it still see it. The release build then aborts.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        report::error(&format!(
            "internal error (a bug in shyfr; please report it): panicked{at}: {what}"
        ));
    }));
}

fn main() -> ExitCode {
    install_panic_hook();
    let argv: Vec<OsString> = std::env::args_os().collect();
    report::set_context(subcommand_of(&argv).unwrap_or("usage"));
    let result = parse_args(argv).and_then(|p| match p {
        Parsed::Print(text) => stdio::emit(&text),
        Parsed::Run(cli) => run(*cli),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => ExitCode::from(report::finish(&e)),
    }
}
