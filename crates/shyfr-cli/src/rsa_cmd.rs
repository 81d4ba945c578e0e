//! `shyfr keygen rsa-BITS`, `shyfr sign` and `shyfr verify`: RSA keys and signatures of
//! files, interoperable with `openssl genpkey`, `openssl dgst -sign/-verify` and
//! `openssl pkeyutl`.
//!
//! * `shyfr keygen rsa-3072 -o key.pem [--pub pub.pem]`: a new key (e = 65537) of 512 to
//!   16384 bits, written as an unencrypted PKCS#8 `PRIVATE KEY` PEM (what `openssl
//!   genpkey` writes), mode 0600; `--pub` also writes the `PUBLIC KEY` PEM
//!   (SubjectPublicKeyInfo, what `openssl pkey -pubout` writes). Files are written like
//!   the file-encryption keys of `shyfr keygen`: to a temporary file, synced and renamed
//!   into place, never over an existing file without `--force`.
//! * `shyfr sign -k KEY [--hash H] [--pss [--saltlen digest|max|N]] [-o SIG] [FILE]`:
//!   streams FILE (standard input without one) through the hash and signs the digest
//!   (RSASSA-PKCS1-v1_5 by default, RSASSA-PSS with MGF1 over the same hash with `--pss`,
//!   salt as long as the digest unless `--saltlen` says otherwise); the raw signature goes
//!   to SIG (written atomically) or to standard output (never to a terminal).
//! * `shyfr verify -p PUB -s SIG [--hash H] [--pss [--saltlen auto|digest|max|N]] [FILE]`:
//!   prints `Verified OK` and exits 0, or prints `Verification failure` and exits 1 (both
//!   on standard output, as `openssl dgst -verify` does; a failure also says so on standard
//!   error in the command's one error style). PSS signatures are checked with
//!   any salt length unless `--saltlen` fixes one.
//!
//! Keys are read in every format OpenSSL writes for RSA: PKCS#8 (`PRIVATE KEY`) and PKCS#1
//! (`RSA PRIVATE KEY`) private keys, SubjectPublicKeyInfo (`PUBLIC KEY`) and PKCS#1
//! (`RSA PUBLIC KEY`) public keys, each as PEM or DER (told apart by their contents), by
//! the library's parsers. `verify` also takes a private key (and uses its public half).
//! The hashes are the rows of the one algorithm table that RSASSA-PKCS1-v1_5 has an
//! object identifier for ([`RSA_HASHES`]). Anything wrong with the input (a malformed,
//! truncated or encrypted key, a key of another type, a signature of the wrong length, a
//! hash the key is too small for) is one line `shyfr: COMMAND: ...` and exit status 1;
//! usage errors exit 2.

use std::ffi::OsStr;
use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};

use clap::Args;
use shyfr::hash::sha1::Sha1;
use shyfr::hash::sha2::{Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};
use shyfr::hash::sha3::{Sha3_224, Sha3_256, Sha3_384, Sha3_512};
use shyfr::rand::OsRng;
use shyfr::sig::rsa::{RsaHash, RsaPrivateKey, RsaPublicKey, SaltLen, MAX_BITS, MIN_BITS};
use shyfr::Error;
use zeroize::Zeroizing;

use crate::algorithms;
use crate::digest::Digest;
use crate::encrypt::output::{Sink, Target};
use crate::encrypt::Fail;
use crate::output::{check_not_an_input, Output};
use crate::report::{io_text, shown, CliError};
use crate::stdio;

/// The key size `shyfr keygen rsa` makes without a size (128-bit security, NIST SP
/// 800-57 part 1, table 2).
pub const DEFAULT_KEYGEN_BITS: usize = 3072;

/// The largest key file read (a 16384-bit private key is about 12 KiB of PEM).
const MAX_KEY_FILE: u64 = 1 << 20;

/// The hashes `sign` and `verify` take, in the table's names: every hash row with a
/// `DigestInfo` object identifier (RFC 8017; NIST).
pub const RSA_HASHES: &[&str] = &[
    "sha1",
    "sha224",
    "sha256",
    "sha384",
    "sha512",
    "sha512-224",
    "sha512-256",
    "sha3-224",
    "sha3-256",
    "sha3-384",
    "sha3-512",
];

/// The hash without `--hash` (what `openssl dgst -sign` uses by default).
const DEFAULT_HASH: &str = "sha256";

/// The padding of a signature and, for PSS, its salt length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Padding {
    Pkcs1v15,
    /// PSS with a salt of exactly this many bytes (signing).
    PssSign(usize),
    /// PSS as the verifier expects it.
    PssVerify(SaltLen),
}

type SignFn = fn(&RsaPrivateKey, &[u8], Padding) -> Result<Vec<u8>, Error>;
type VerifyFn = fn(&RsaPublicKey, &[u8], &[u8], Padding) -> Result<(), Error>;

/// One hash of [`RSA_HASHES`] with the library's typed calls.
#[derive(Clone, Copy)]
struct HashChoice {
    name: &'static str,
    /// The digest length in bytes.
    len: usize,
    /// The length of its DER `DigestInfo` prefix (PKCS#1 v1.5).
    prefix_len: usize,
    sign: SignFn,
    verify: VerifyFn,
}

fn sign_with<H: RsaHash>(
    key: &RsaPrivateKey,
    digest: &[u8],
    pad: Padding,
) -> Result<Vec<u8>, Error> {
    match pad {
        Padding::Pkcs1v15 => key.sign_pkcs1v15_prehashed::<H, _>(&mut OsRng, digest),
        Padding::PssSign(salt) => key.sign_pss_prehashed::<H, H, _>(&mut OsRng, digest, salt),
        Padding::PssVerify(_) => Err(Error::InvalidParameter {
            what: "a verifier's salt length",
        }),
    }
}

fn verify_with<H: RsaHash>(
    key: &RsaPublicKey,
    digest: &[u8],
    sig: &[u8],
    pad: Padding,
) -> Result<(), Error> {
    match pad {
        Padding::Pkcs1v15 => key.verify_pkcs1v15_prehashed::<H>(digest, sig),
        Padding::PssVerify(salt) => key.verify_pss_prehashed::<H, H>(digest, sig, salt),
        Padding::PssSign(n) => key.verify_pss_prehashed::<H, H>(digest, sig, SaltLen::Exact(n)),
    }
}

const fn choice<H: RsaHash>(name: &'static str) -> HashChoice {
    HashChoice {
        name,
        len: H::OUTPUT_LEN,
        prefix_len: H::DIGEST_INFO_PREFIX.len(),
        sign: sign_with::<H>,
        verify: verify_with::<H>,
    }
}

/// The typed calls of each name of [`RSA_HASHES`], in the same order.
const CHOICES: [HashChoice; 11] = [
    choice::<Sha1>("sha1"),
    choice::<Sha224>("sha224"),
    choice::<Sha256>("sha256"),
    choice::<Sha384>("sha384"),
    choice::<Sha512>("sha512"),
    choice::<Sha512_224>("sha512-224"),
    choice::<Sha512_256>("sha512-256"),
    choice::<Sha3_224>("sha3-224"),
    choice::<Sha3_256>("sha3-256"),
    choice::<Sha3_384>("sha3-384"),
    choice::<Sha3_512>("sha3-512"),
];

/// The hash called `name` (case-insensitive): its typed calls and the table's streaming
/// state. A usage error naming the valid ones otherwise.
fn hash_choice(name: &str) -> Result<(HashChoice, Digest), CliError> {
    let found = CHOICES
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case(name.trim()))
        .and_then(|c| {
            let row = algorithms::find(c.name)?;
            let d = row.digest.filter(|d| d.is_hash())?;
            Some((*c, d))
        });
    found.ok_or_else(|| {
        CliError::Usage(format!(
            "--hash: unknown hash '{name}'; valid: {}",
            RSA_HASHES.join(", ")
        ))
    })
}

/// `--saltlen` as given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SaltOpt {
    Digest,
    Max,
    Auto,
    Len(usize),
}

fn parse_saltlen(s: &str) -> Result<SaltOpt, String> {
    match s.trim() {
        "digest" => Ok(SaltOpt::Digest),
        "max" => Ok(SaltOpt::Max),
        "auto" => Ok(SaltOpt::Auto),
        t => t
            .parse::<usize>()
            .ok()
            .filter(|&n| n <= MAX_BITS / 8)
            .map(SaltOpt::Len)
            .ok_or_else(|| {
                format!(
                    "'{s}' is not a salt length: give digest, max, auto (verify only) or a \
                     number of bytes from 0 to {}",
                    MAX_BITS / 8
                )
            }),
    }
}

/// The longest PSS salt for a key of `bits` bits and a digest of `h_len` bytes:
/// `emLen - hLen - 2` with `emLen = ceil((bits - 1) / 8)` (RFC 8017, 9.1.1); `None` if not
/// even an empty salt fits.
fn max_salt(bits: usize, h_len: usize) -> Option<usize> {
    (bits - 1).div_ceil(8).checked_sub(h_len + 2)
}

/// `shyfr sign`.
#[derive(Args, Debug)]
#[command(after_help = SIGN_AFTER)]
pub struct SignArgs {
    /// The file to sign; standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
    /// The RSA private key: PKCS#8 (`openssl genpkey`, `shyfr keygen rsa-BITS`) or PKCS#1,
    /// PEM or DER.
    #[arg(short = 'k', long = "key", value_name = "KEY")]
    key: PathBuf,
    /// The hash the file is streamed through (sha1, sha224, sha256, sha384, sha512,
    /// sha512-224, sha512-256, sha3-224, sha3-256, sha3-384, sha3-512).
    #[arg(long, value_name = "HASH", default_value = DEFAULT_HASH)]
    hash: String,
    /// RSASSA-PSS (MGF1 with the same hash) instead of RSASSA-PKCS1-v1_5.
    #[arg(long)]
    pss: bool,
    /// PSS salt length: `digest` (as long as the digest, the default), `max`, or bytes.
    #[arg(long, value_name = "digest|max|N", requires = "pss", value_parser = parse_saltlen)]
    saltlen: Option<SaltOpt>,
    /// Write the signature (raw bytes, as long as the modulus) to SIG instead of standard
    /// output; the file is replaced atomically.
    #[arg(short, long, value_name = "SIG")]
    output: Option<PathBuf>,
}

const SIGN_AFTER: &str = "The same signature as `openssl dgst -sha256 -sign KEY -out SIG FILE` \
(PKCS#1 v1.5, deterministic); with --pss, one that `openssl dgst -sha256 -sigopt \
rsa_padding_mode:pss -verify PUB -signature SIG FILE` accepts.\n\
Exit status: 0 on success, 1 on failure, 2 for usage errors.";

/// `shyfr verify`.
#[derive(Args, Debug)]
#[command(after_help = VERIFY_AFTER)]
pub struct VerifyArgs {
    /// The signed file; standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    input: Option<PathBuf>,
    /// The RSA public key: SubjectPublicKeyInfo (`PUBLIC KEY`, `openssl pkey -pubout`) or
    /// PKCS#1, PEM or DER; a private key is taken too.
    #[arg(short = 'p', long = "pub", value_name = "PUB")]
    key: PathBuf,
    /// The signature (raw bytes, as long as the modulus).
    #[arg(short = 's', long = "signature", value_name = "SIG")]
    signature: PathBuf,
    /// The hash the file is streamed through (as for `shyfr sign`).
    #[arg(long, value_name = "HASH", default_value = DEFAULT_HASH)]
    hash: String,
    /// RSASSA-PSS (MGF1 with the same hash) instead of RSASSA-PKCS1-v1_5.
    #[arg(long)]
    pss: bool,
    /// PSS salt length expected: `auto` (any, recovered from the signature; the default),
    /// `digest`, `max`, or bytes.
    #[arg(long, value_name = "auto|digest|max|N", requires = "pss", value_parser = parse_saltlen)]
    saltlen: Option<SaltOpt>,
}

const VERIFY_AFTER: &str = "Prints `Verified OK` (exit status 0) or `Verification failure` \
(exit status 1) on standard output, as `openssl dgst -verify` does (a failure also says so \
on standard error). Exit status 1 with a message for unreadable or malformed input (a key, a signature of the wrong length), 2 for \
usage errors.";

/// A failure of `shyfr encrypt`'s output code in the one error style.
fn from_fail(f: Fail) -> CliError {
    match f {
        Fail::Usage(ctx, msg) => CliError::Usage(format!("{ctx}: {msg}")),
        Fail::Run(ctx, msg) => CliError::Failure(format!("{ctx}: {msg}")),
        Fail::Quiet => CliError::Reported,
    }
}

/// Parses `shyfr keygen`'s TYPE: `rsa-BITS` or `rsaBITS` (`rsa` alone:
/// [`DEFAULT_KEYGEN_BITS`]); the number of bits, or a usage error.
pub fn parse_key_type(kind: &str) -> Result<usize, CliError> {
    let lower = kind.trim().to_ascii_lowercase();
    let bits = match lower.strip_prefix("rsa") {
        Some("") => Some(DEFAULT_KEYGEN_BITS),
        Some(rest) => {
            let digits = rest.strip_prefix('-').unwrap_or(rest);
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                Some(digits.parse::<usize>().unwrap_or(usize::MAX))
            } else {
                None
            }
        }
        None => None,
    };
    let Some(bits) = bits else {
        return Err(CliError::Usage(format!(
            "unknown key type '{}': give rsa-BITS ({MIN_BITS} to {MAX_BITS} bits, e.g. \
             rsa-3072) for an RSA key, or nothing for a file-encryption key",
            shown(OsStr::new(kind))
        )));
    };
    if !(MIN_BITS..=MAX_BITS).contains(&bits) {
        return Err(CliError::Usage(format!(
            "RSA keys have {MIN_BITS} to {MAX_BITS} bits, not {}",
            shown(OsStr::new(kind.trim()))
        )));
    }
    Ok(bits)
}

/// Whether `path` names standard input or output.
fn is_std(path: Option<&Path>) -> bool {
    path.is_none_or(|p| p.as_os_str() == "-")
}

/// Sets the permissions of a new file about to be renamed into place.
#[cfg(unix)]
fn set_mode(sink: &Sink, mode: u32, always: bool) -> Result<(), CliError> {
    use std::os::unix::fs::PermissionsExt;
    if let Sink::Temp {
        tmp, path, replace, ..
    } = sink
    {
        if always || !replace {
            tmp.as_file()
                .set_permissions(std::fs::Permissions::from_mode(mode))
                .map_err(|e| {
                    CliError::Failure(format!(
                        "{}: cannot set the file mode: {}",
                        shown(path.as_os_str()),
                        io_text(&e)
                    ))
                })?;
        }
    }
    Ok(())
}

#[cfg(not(unix))]
fn set_mode(_sink: &Sink, _mode: u32, _always: bool) -> Result<(), CliError> {
    Ok(())
}

/// Writes `text` to a checked target and commits it.
fn write_target(target: Target, text: &[u8], mode: u32, always: bool) -> Result<(), CliError> {
    use std::io::Write;
    let ctx = match &target {
        Target::Stdout => "stdout".to_string(),
        Target::File { path, .. } | Target::Special(path) => shown(path.as_os_str()),
    };
    let mut sink = target.open().map_err(from_fail)?;
    set_mode(&sink, mode, always)?;
    sink.write_all(text)
        .map_err(|e| from_fail(crate::encrypt::output::write_fail(&ctx, e)))?;
    sink.commit().map_err(from_fail)
}

/// `shyfr keygen rsa-BITS [-o KEY] [--pub PUB] [--force]`.
pub fn run_keygen(
    kind: &str,
    output: Option<&Path>,
    public: Option<&Path>,
    force: bool,
) -> Result<(), CliError> {
    let bits = parse_key_type(kind)?;
    if let (Some(o), Some(p)) = (output, public) {
        if !is_std(Some(o)) && o == p {
            return Err(CliError::Usage(format!(
                "-o and --pub name the same file '{}'",
                shown(o.as_os_str())
            )));
        }
    }
    // Both destinations are checked before the (possibly long) key generation.
    let private_target = Target::check(output, force, false, None).map_err(from_fail)?;
    let public_target = public
        .map(|p| Target::check(Some(p), force, false, None))
        .transpose()
        .map_err(from_fail)?;
    let key = RsaPrivateKey::generate(bits, &mut OsRng)
        .map_err(|e| CliError::Failure(format!("cannot generate a {bits}-bit key: {e}")))?;
    let pem = key
        .to_pkcs8_pem()
        .map_err(|e| CliError::Failure(format!("cannot encode the key: {e}")))?;
    let public_pem = public_target
        .as_ref()
        .map(|_| key.public_key().to_public_key_pem())
        .transpose()
        .map_err(|e| CliError::Failure(format!("cannot encode the public key: {e}")))?;
    // The private key is readable by its owner only, even where it replaces a file.
    write_target(private_target, pem.as_bytes(), 0o600, true)?;
    if let (Some(t), Some(p)) = (public_target, public_pem) {
        write_target(t, p.as_bytes(), 0o644, false)?;
    }
    Ok(())
}

/// Reads a whole small file (a key or a signature), at most `limit` bytes; `what` names it
/// in messages.
fn read_small(path: &Path, limit: u64, what: &str) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let name = shown(path.as_os_str());
    let fail = |e: std::io::Error| CliError::Failure(format!("{name}: {}", io_text(&e)));
    let mut data = Zeroizing::new(Vec::new());
    if path.as_os_str() == "-" {
        stdio::stdin()
            .take(limit + 1)
            .read_to_end(&mut data)
            .map_err(fail)?;
    } else {
        let f = std::fs::File::open(path).map_err(fail)?;
        if f.metadata().map_err(fail)?.is_dir() {
            return Err(fail(crate::report::is_a_directory()));
        }
        f.take(limit + 1).read_to_end(&mut data).map_err(fail)?;
    }
    if data.len() as u64 > limit {
        return Err(CliError::Failure(format!(
            "{name}: too large for {what} (more than {limit} bytes)"
        )));
    }
    Ok(data)
}

/// The PEM in `data`: its label and the text from its BEGIN line to the end of its END
/// line (text around it, as `openssl x509 -text` writes, is left out). `None` if `data`
/// holds no BEGIN line (then it is taken as DER).
fn pem_block(data: &[u8]) -> Option<Result<(String, &str), String>> {
    const BEGIN: &[u8] = b"-----BEGIN ";
    let start = data.windows(BEGIN.len()).position(|w| w == BEGIN)?;
    let Ok(text) = std::str::from_utf8(&data[start..]) else {
        return Some(Err("malformed PEM (not text)".into()));
    };
    let rest = &text[BEGIN.len()..];
    let Some(label_end) = rest.find("-----") else {
        return Some(Err("malformed PEM (no end to its BEGIN line)".into()));
    };
    let label = rest[..label_end].to_string();
    let end_line = format!("-----END {label}-----");
    let Some(end) = text.find(&end_line) else {
        return Some(Err(format!(
            "malformed PEM (truncated: no '-----END {}-----' line)",
            label.escape_debug()
        )));
    };
    Some(Ok((label, &text[..end + end_line.len()])))
}

/// What a key file holds.
enum Loaded {
    Private(Box<RsaPrivateKey>),
    Public(Box<RsaPublicKey>),
}

/// A library error about a key in the command's words.
fn key_error(e: Error) -> String {
    match e {
        Error::InvalidKey { what } => what.to_string(),
        other => other.to_string(),
    }
}

/// Parses a key file: PEM (by its label) or DER (PKCS#8, PKCS#1 private, SPKI, PKCS#1
/// public, tried in that order). The message says what is wrong.
fn parse_key(data: &[u8]) -> Result<Loaded, String> {
    if let Some(block) = pem_block(data) {
        let (label, pem) = block?;
        let private = |r: Result<RsaPrivateKey, Error>| {
            r.map(|k| Loaded::Private(Box::new(k))).map_err(key_error)
        };
        return match label.as_str() {
            "PRIVATE KEY" => private(RsaPrivateKey::from_pkcs8_pem(pem)),
            "RSA PRIVATE KEY" if pem.contains("Proc-Type:") => Err(
                "an encrypted PEM private key; shyfr reads unencrypted keys (decrypt it with \
                 `openssl pkey -in KEY -out PLAIN.pem`)"
                    .into(),
            ),
            "RSA PRIVATE KEY" => private(RsaPrivateKey::from_pkcs1_pem(pem)),
            "PUBLIC KEY" => RsaPublicKey::from_public_key_pem(pem)
                .map(|k| Loaded::Public(Box::new(k)))
                .map_err(key_error),
            "RSA PUBLIC KEY" => RsaPublicKey::from_pkcs1_pem(pem)
                .map(|k| Loaded::Public(Box::new(k)))
                .map_err(key_error),
            "ENCRYPTED PRIVATE KEY" => Err(
                "an encrypted PKCS#8 private key; shyfr reads unencrypted keys (decrypt it \
                 with `openssl pkey -in KEY -out PLAIN.pem`)"
                    .into(),
            ),
            "CERTIFICATE" => Err("a certificate, not a key".into()),
            "EC PRIVATE KEY" | "DSA PRIVATE KEY" | "OPENSSH PRIVATE KEY" => {
                Err(format!("not an RSA key (a PEM {label})"))
            }
            other => Err(format!(
                "not an RSA key (PEM label '{}')",
                other.escape_debug()
            )),
        };
    }
    // DER: the structures are told apart by parsing; the first error that is not
    // "malformed DER" says the most (e.g. "not an RSA key" for a PKCS#8 EC key).
    let mut first_specific: Option<Error> = None;
    let mut note = |e: Error| {
        let malformed = matches!(e, Error::InvalidKey { what } if what == "malformed DER");
        if !malformed && first_specific.is_none() {
            first_specific = Some(e);
        }
    };
    match RsaPrivateKey::from_pkcs8_der(data) {
        Ok(k) => return Ok(Loaded::Private(Box::new(k))),
        Err(e) => note(e),
    }
    match RsaPrivateKey::from_pkcs1_der(data) {
        Ok(k) => return Ok(Loaded::Private(Box::new(k))),
        Err(e) => note(e),
    }
    match RsaPublicKey::from_public_key_der(data) {
        Ok(k) => return Ok(Loaded::Public(Box::new(k))),
        Err(e) => note(e),
    }
    match RsaPublicKey::from_pkcs1_der(data) {
        Ok(k) => return Ok(Loaded::Public(Box::new(k))),
        Err(e) => note(e),
    }
    Err(match first_specific {
        Some(e) => key_error(e),
        None if data.is_empty() => "empty file, not a key".into(),
        None => "not an RSA key in PEM or DER (PKCS#8, PKCS#1 or \
                 SubjectPublicKeyInfo)"
            .into(),
    })
}

/// Reads and parses the key file at `path`.
fn load_key(path: &Path) -> Result<Loaded, CliError> {
    let data = read_small(path, MAX_KEY_FILE, "a key file")?;
    parse_key(&data).map_err(|m| CliError::Failure(format!("{}: {m}", shown(path.as_os_str()))))
}

/// Streams the input (a file, or standard input for `None` or `-`) through the hash.
fn digest_input(input: Option<&Path>, digest: Digest) -> Result<Vec<u8>, CliError> {
    let path = input.map_or(OsStr::new("-"), Path::as_os_str);
    let Digest::Hash { new, .. } = digest else {
        return Err(CliError::Failure("not a fixed-length hash".into()));
    };
    let mut h = new();
    crate::hash_cmd::absorb(path, &mut *h).map_err(|e| {
        let name = if path == "-" {
            "stdin".to_string()
        } else {
            shown(path)
        };
        CliError::Failure(format!("{name}: {}", io_text(&e)))
    })?;
    let mut out = Vec::new();
    h.finish(&mut |piece: &[u8]| {
        out.extend_from_slice(piece);
        Ok(())
    })?;
    Ok(out)
}

/// Checks that a key of `bits` bits can carry a signature with `hash` and `pad`; a message
/// naming the smallest key that can otherwise.
fn check_fits(bits: usize, hash: &HashChoice, pad: Padding) -> Result<(), CliError> {
    // (bytes needed, bytes the key has, the scheme in words, the fewest bits that do)
    let (need, have, scheme, need_bits) = match pad {
        Padding::Pkcs1v15 => {
            let need = hash.prefix_len + hash.len + 11;
            let scheme = "a PKCS#1 v1.5 signature".to_string();
            (need, bits.div_ceil(8), scheme, need * 8 - 7)
        }
        Padding::PssSign(salt) => {
            let need = hash.len + salt + 2;
            let scheme = format!("a PSS signature with a {salt}-byte salt");
            (need, (bits - 1).div_ceil(8), scheme, need * 8 - 6)
        }
        Padding::PssVerify(_) => return Ok(()),
    };
    if need > have {
        return Err(CliError::Failure(format!(
            "a {bits}-bit key is too small for {scheme} with {} (it needs at least \
             {need_bits} bits)",
            hash.name
        )));
    }
    Ok(())
}

/// The PSS salt length a signer uses.
fn sign_salt(opt: Option<SaltOpt>, bits: usize, h_len: usize) -> Result<usize, CliError> {
    Ok(match opt.unwrap_or(SaltOpt::Digest) {
        SaltOpt::Digest => h_len,
        SaltOpt::Len(n) => n,
        SaltOpt::Max => max_salt(bits, h_len).ok_or_else(|| {
            CliError::Failure(format!(
                "a {bits}-bit key is too small for PSS with a {h_len}-byte digest"
            ))
        })?,
        SaltOpt::Auto => {
            return Err(CliError::Usage(
                "--saltlen auto is for verify; a signer chooses: digest, max or a number of \
                 bytes"
                    .into(),
            ))
        }
    })
}

/// `shyfr sign`.
pub fn run_sign(a: &SignArgs) -> Result<(), CliError> {
    let (hash, digest) = hash_choice(&a.hash)?;
    let salt_opt = a.saltlen;
    if salt_opt == Some(SaltOpt::Auto) {
        sign_salt(salt_opt, MAX_BITS, hash.len)?;
    }
    if is_std(a.input.as_deref()) && a.key.as_os_str() == "-" {
        return Err(CliError::Usage(
            "the key and the data cannot both come from standard input".into(),
        ));
    }
    if let Some(out) = a.output.as_deref().filter(|o| !is_std(Some(o))) {
        if let Some(input) = a.input.as_deref().filter(|i| !is_std(Some(i))) {
            check_not_an_input(out, input, "-o")?;
        }
        if let (Ok(o), Ok(k)) = (std::fs::metadata(out), std::fs::metadata(&a.key)) {
            if crate::encrypt::output::FileId::of(&o)
                .is_some_and(|id| crate::encrypt::output::FileId::of(&k) == Some(id))
            {
                return Err(CliError::Usage(format!(
                    "-o '{}' is the key file; write the signature to another file",
                    shown(out.as_os_str())
                )));
            }
        }
    } else if std::io::stdout().is_terminal() {
        return Err(CliError::Usage(
            "refusing to write a binary signature to a terminal (use -o SIG or redirect)".into(),
        ));
    }
    let key = match load_key(&a.key)? {
        Loaded::Private(k) => k,
        Loaded::Public(_) => {
            return Err(CliError::Failure(format!(
                "{}: a public key; signing needs the private key",
                shown(a.key.as_os_str())
            )))
        }
    };
    let bits = key.bits();
    let pad = if a.pss {
        Padding::PssSign(sign_salt(salt_opt, bits, hash.len)?)
    } else {
        Padding::Pkcs1v15
    };
    check_fits(bits, &hash, pad)?;
    let d = digest_input(a.input.as_deref(), digest)?;
    let sig =
        (hash.sign)(&key, &d, pad).map_err(|e| CliError::Failure(format!("cannot sign: {e}")))?;
    let mut out = Output::create(a.output.as_deref(), "")?;
    out.write(&sig)?;
    out.commit()
}

/// `shyfr verify`.
pub fn run_verify(a: &VerifyArgs) -> Result<(), CliError> {
    let (hash, digest) = hash_choice(&a.hash)?;
    let stdin_uses = [
        is_std(a.input.as_deref()),
        a.key.as_os_str() == "-",
        a.signature.as_os_str() == "-",
    ];
    if stdin_uses.iter().filter(|&&u| u).count() > 1 {
        return Err(CliError::Usage(
            "only one of the data, the key and the signature can come from standard input".into(),
        ));
    }
    let key = match load_key(&a.key)? {
        Loaded::Public(k) => *k,
        Loaded::Private(k) => k.public_key().clone(),
    };
    let bits = key.bits();
    let pad = if a.pss {
        Padding::PssVerify(match a.saltlen.unwrap_or(SaltOpt::Auto) {
            SaltOpt::Auto => SaltLen::Auto,
            SaltOpt::Digest => SaltLen::Exact(hash.len),
            SaltOpt::Len(n) => SaltLen::Exact(n),
            SaltOpt::Max => SaltLen::Exact(max_salt(bits, hash.len).unwrap_or(0)),
        })
    } else {
        Padding::Pkcs1v15
    };
    let sig = read_small(&a.signature, (MAX_BITS / 8) as u64, "an RSA signature")?;
    if sig.len() != key.size() {
        return Err(CliError::Failure(format!(
            "{}: the signature has {} bytes; a {bits}-bit key's signatures have {}",
            shown(a.signature.as_os_str()),
            sig.len(),
            key.size()
        )));
    }
    let d = digest_input(a.input.as_deref(), digest)?;
    match (hash.verify)(&key, &d, &sig, pad) {
        Ok(()) => stdio::emit("Verified OK\n"),
        Err(_) => {
            stdio::emit("Verification failure\n")?;
            // The one error style too: every failing exit says why on standard error.
            eprintln!(
                "shyfr: verify: {}: the signature does not match the data and key",
                a.input
                    .as_deref()
                    .map_or("-".into(), |p| shown(p.as_os_str()))
            );
            Err(CliError::Reported)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rsa_hash_is_a_table_hash_with_its_length() {
        assert_eq!(RSA_HASHES.len(), CHOICES.len());
        for (name, c) in RSA_HASHES.iter().zip(CHOICES) {
            assert_eq!(*name, c.name);
            let (c2, d) = hash_choice(&name.to_ascii_uppercase()).unwrap();
            assert_eq!(c2.name, c.name);
            match d {
                Digest::Hash { len, .. } => assert_eq!(len, c.len, "{name}"),
                _ => panic!("{name} is not a fixed hash"),
            }
        }
        assert!(hash_choice("md5").is_err());
        assert!(hash_choice("shake256").is_err());
    }

    #[test]
    fn key_types() {
        assert_eq!(parse_key_type("rsa-3072").unwrap(), 3072);
        assert_eq!(parse_key_type("RSA2048").unwrap(), 2048);
        assert_eq!(parse_key_type("rsa").unwrap(), DEFAULT_KEYGEN_BITS);
        assert_eq!(parse_key_type("rsa-512").unwrap(), 512);
        assert_eq!(parse_key_type("rsa-16384").unwrap(), 16384);
        for bad in [
            "rsa-511",
            "rsa-16385",
            "rsa-",
            "rsa--1",
            "rsa-1e3",
            "rsa-99999999999999999999999",
            "ec",
            "",
            "rsa 2048",
        ] {
            assert!(
                matches!(parse_key_type(bad), Err(CliError::Usage(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn salt_lengths() {
        assert_eq!(parse_saltlen("digest"), Ok(SaltOpt::Digest));
        assert_eq!(parse_saltlen("max"), Ok(SaltOpt::Max));
        assert_eq!(parse_saltlen("auto"), Ok(SaltOpt::Auto));
        assert_eq!(parse_saltlen("0"), Ok(SaltOpt::Len(0)));
        for bad in ["-1", "x", "", "2049", "1e3"] {
            assert!(parse_saltlen(bad).is_err(), "{bad}");
        }
        // 2048 bits: emLen 256, minus 32 and 2.
        assert_eq!(max_salt(2048, 32), Some(222));
        // 2049 bits: emLen = ceil(2048 / 8) = 256 too.
        assert_eq!(max_salt(2049, 32), Some(222));
        assert_eq!(max_salt(2050, 32), Some(223));
        assert_eq!(max_salt(512, 64), None);
    }

    #[test]
    fn pem_blocks() {
        assert!(pem_block(b"\x30\x82").is_none());
        let (label, pem) = pem_block(b"text\n-----BEGIN X Y-----\nAA==\n-----END X Y-----\nmore")
            .unwrap()
            .unwrap();
        assert_eq!(label, "X Y");
        assert_eq!(pem, "-----BEGIN X Y-----\nAA==\n-----END X Y-----");
        assert!(pem_block(b"-----BEGIN X-----\nAA==\n").unwrap().is_err());
        assert!(pem_block(b"-----BEGIN X").unwrap().is_err());
        assert!(pem_block(b"-----BEGIN \xff-----").unwrap().is_err());
    }

    #[test]
    fn fits() {
        let sha512 = hash_choice("sha512").unwrap().0;
        // DigestInfo 19 + 64 + 11 = 94 bytes: 745 bits.
        assert!(check_fits(512, &sha512, Padding::Pkcs1v15).is_err());
        assert!(check_fits(752, &sha512, Padding::Pkcs1v15).is_ok());
        let sha256 = hash_choice("sha256").unwrap().0;
        // emLen of 512 bits is 64 bytes: 32 + 30 + 2 fit, 32 + 31 + 2 do not.
        assert!(check_fits(512, &sha256, Padding::PssSign(30)).is_ok());
        assert!(check_fits(512, &sha256, Padding::PssSign(31)).is_err());
        assert!(check_fits(512, &sha512, Padding::PssSign(64)).is_err());
    }
}
