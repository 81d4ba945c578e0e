//! `shyfr hash` (checksums, a drop-in for `sha256sum`, `sha512sum` and friends; also
//! GOST 34.311-95 with `--sbox`) and `shyfr mac` (HMAC, KMAC and block-cipher MAC tags of
//! files: DSTU 7624 CMAC and GMAC over Kalyna, the GOST 28147-89 MAC with `--sbox`).
//!
//! What is kept from GNU coreutils (9.x), so scripts and checksum files carry over:
//!
//! * output lines `HEX  NAME` (`HEX *NAME` with `-b`), or BSD-style `TAG (NAME) = HEX` with
//!   `--tag` (TAG is the algorithm's name in capitals: `SHA256`, `SHA3-256`); `-` is
//!   standard input;
//! * a name holding a backslash, a newline or a carriage return is written escaped (`\\`,
//!   `\n`, `\r`) on a line that starts with a backslash; `-z` ends lines with NUL instead
//!   and escapes nothing; names that are not UTF-8 are written as their bytes;
//! * `-c` reads one or more checksum files (standard input without any): both line
//!   styles, escaped names, `#` comments, CRLF line ends; it prints `NAME: OK`,
//!   `NAME: FAILED` or `NAME: FAILED open or read`, the warnings after each file, and
//!   exits 1 if any file did not match or could not be read; `--quiet`, `--status`,
//!   `--strict`, `--warn` and `--ignore-missing` as in GNU;
//! * a file that cannot be read is reported (`shyfr: hash: NAME: No such file or
//!   directory`) and the others are still hashed, exit status 1; a closed standard input
//!   is "Bad file descriptor", a closed or broken standard output a write error (exit 1).

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};

use clap::Args;
use shyfr::gost28147::Sbox;

use crate::algorithms::{self, Algorithm};
use crate::digest::{Digest, Hasher, PIECE};
use crate::report::{self, io_text, os_bytes, os_from_bytes, shown, CliError};
use crate::stdio;

/// Inputs at least this large show a progress bar when stderr is a terminal.
const PROGRESS_MIN: u64 = 256 << 20;
/// Read size: large enough that the hash, not the system calls, sets the pace.
const CHUNK: usize = 1 << 20;
/// Checksum lines longer than this are improperly formatted (and not held in memory).
const MAX_LINE: usize = 1 << 20;

fn hash_help() -> String {
    format!("Hash: {}", algorithms::names(algorithms::is_hash))
}

fn mac_help() -> String {
    format!("MAC: {}", algorithms::names(algorithms::is_mac))
}

/// Arguments of `shyfr hash`.
#[derive(Args, Debug)]
pub struct HashArgs {
    #[arg(value_name = "ALG", help = hash_help())]
    pub alg: String,
    /// Files to hash (standard input when none, or for `-`); with --check, the checksum
    /// files to read.
    #[arg(value_name = "FILE", value_parser = clap::value_parser!(OsString))]
    pub files: Vec<OsString>,
    /// Read checksums from the FILEs (as written by this command, sha256sum or
    /// `sha256sum --tag`) and check them.
    #[arg(long, short = 'c')]
    pub check: bool,
    /// Mark lines as binary (`HEX *NAME`); the data is read the same way.
    #[arg(long, short = 'b', overrides_with = "text")]
    pub binary: bool,
    /// Mark lines as text (`HEX  NAME`, the default).
    #[arg(long, short = 't', overrides_with = "binary")]
    pub text: bool,
    /// Write BSD-style lines: `SHA256 (NAME) = HEX`.
    #[arg(long, conflicts_with_all = ["check", "text"])]
    pub tag: bool,
    /// End each output line with NUL, not newline, and do not escape names.
    #[arg(long, short = 'z', conflicts_with = "check")]
    pub zero: bool,
    /// Output length in bytes (shake128, shake256 only: 1 to 1073741824; default 32 for
    /// shake128, 64 for shake256).
    #[arg(long, value_name = "BYTES", allow_negative_numbers = true)]
    pub length: Option<u64>,
    /// GOST 28147-89 S-box (gost34311 only): dke1 (DKE No. 1, the default), test (GOST
    /// 34.311-95 Annex A), or a file with a 64-byte packed or 128-byte table, raw or hex.
    #[arg(long, value_name = "dke1|test|FILE", value_parser = clap::value_parser!(OsString))]
    pub sbox: Option<OsString>,
    /// With --check: do not fail or report for files that are missing.
    #[arg(long, requires = "check")]
    pub ignore_missing: bool,
    /// With --check: print nothing for files that verify.
    #[arg(long, requires = "check")]
    pub quiet: bool,
    /// With --check: print nothing on standard output; the exit status says it all.
    #[arg(long, requires = "check")]
    pub status: bool,
    /// With --check: fail (exit status 1) on improperly formatted lines.
    #[arg(long, requires = "check")]
    pub strict: bool,
    /// With --check: warn about each improperly formatted line.
    #[arg(long, short = 'w', requires = "check")]
    pub warn: bool,
}

/// Arguments of `shyfr mac`.
#[derive(Args, Debug)]
pub struct MacArgs {
    #[arg(value_name = "ALG", help = mac_help())]
    pub alg: String,
    /// The key, in hexadecimal. HMAC takes any length; KMAC128 at least 16 bytes and
    /// KMAC256 at least 32: the security strength, which a shorter key would not give
    /// (NIST SP 800-185, 8.4.1). The block-cipher MACs take exactly the cipher's key
    /// (kalyna-B-K-cmac/-gmac: K bits; gost28147-mac: 32 bytes).
    #[arg(long, value_name = "HEX")]
    pub key_hex: String,
    /// KMAC customization string (text).
    #[arg(long, value_name = "TEXT", default_value = "")]
    pub customization: String,
    /// Tag length in bytes: KMAC 4 to 1048576 (default 32 for kmac128, 64 for kmac256);
    /// Kalyna CMAC and GMAC 8 to the block length (the default); gost28147-mac 1 to 4 (4).
    #[arg(long, value_name = "BYTES", allow_negative_numbers = true)]
    pub length: Option<u64>,
    /// GOST 28147-89 S-box (gost28147-mac only): dke1 (DKE No. 1, the default), test, or a
    /// file with a 64-byte packed or 128-byte table, raw or hex.
    #[arg(long, value_name = "dke1|test|FILE", value_parser = clap::value_parser!(OsString))]
    pub sbox: Option<OsString>,
    /// Files (standard input when none, or for `-`).
    #[arg(value_name = "FILE", value_parser = clap::value_parser!(OsString))]
    pub files: Vec<OsString>,
}

/// A checked algorithm and output length.
struct Spec {
    alg: &'static Algorithm,
    digest: Digest,
    /// Output length in bytes.
    len: u64,
    /// The S-box (`--sbox`; DKE No. 1 without it), for the rows that take one.
    sbox: Sbox,
}

/// The S-box of `--sbox` for a row that takes one (DKE No. 1 without it); a usage error
/// for a row that does not.
fn sbox(
    alg: &Algorithm,
    digest: &Digest,
    value: Option<&OsStr>,
    keep: fn(&Algorithm) -> bool,
) -> Result<Sbox, CliError> {
    let Some(v) = value else {
        return Ok(Sbox::DKE1);
    };
    if !digest.has_sbox() {
        return Err(CliError::Usage(format!(
            "--sbox applies to {} only, not {}",
            algorithms::names(|a| keep(a) && a.digest.is_some_and(|d| d.has_sbox())),
            alg.name
        )));
    }
    crate::ciphers::sbox_arg("--sbox", v)
}

/// The row called `name` that `keep` accepts, with its digest; a usage error naming the
/// valid ones otherwise.
fn lookup(
    name: &str,
    keep: fn(&Algorithm) -> bool,
    what: &str,
) -> Result<(&'static Algorithm, Digest), CliError> {
    match algorithms::find(name) {
        Some(a) if keep(a) => Ok((a, a.digest.expect("rows that hash or mac have a digest"))),
        _ => Err(CliError::Usage(format!(
            "unknown {what} '{name}'; valid: {}",
            algorithms::names(keep)
        ))),
    }
}

/// The output length: `--length` checked against the row, or its default.
fn length(
    alg: &Algorithm,
    digest: &Digest,
    length: Option<u64>,
    keep: fn(&Algorithm) -> bool,
) -> Result<u64, CliError> {
    let Some(n) = length else {
        return Ok(digest.default_len() as u64);
    };
    if !digest.has_length() {
        return Err(CliError::Usage(format!(
            "--length applies to {} only, not {}",
            algorithms::names(|a| keep(a) && a.digest.is_some_and(|d| d.has_length())),
            alg.name
        )));
    }
    let (lo, hi) = digest.length_range();
    if !(lo..=hi).contains(&n) {
        return Err(CliError::Usage(format!(
            "--length {n}: {} takes {lo} to {hi} bytes",
            alg.name
        )));
    }
    Ok(n)
}

/// Checks `shyfr hash`'s arguments.
fn hash_spec(args: &HashArgs) -> Result<Spec, CliError> {
    let (alg, digest) = lookup(&args.alg, algorithms::is_hash, "hash")?;
    let len = length(alg, &digest, args.length, algorithms::is_hash)?;
    let sbox = sbox(alg, &digest, args.sbox.as_deref(), algorithms::is_hash)?;
    Ok(Spec {
        alg,
        digest,
        len,
        sbox,
    })
}

/// Checks `shyfr hash`'s arguments without running (for the parser's property test).
#[cfg(test)]
pub fn check_hash(args: &HashArgs) -> Result<(), CliError> {
    hash_spec(args).map(drop)
}

/// The key of `shyfr mac`, and its spec.
fn mac_spec(args: &MacArgs) -> Result<(Spec, Vec<u8>), CliError> {
    let (alg, digest) = lookup(&args.alg, algorithms::is_mac, "MAC")?;
    let key = hex::decode(args.key_hex.trim())
        .map_err(|e| CliError::Usage(format!("--key-hex: not hexadecimal ({e})")))?;
    if let Digest::CipherMac { key_len, .. } = digest {
        if key.len() != key_len {
            return Err(CliError::Usage(format!(
                "--key-hex: the key is {} bytes; {} takes a key of exactly {key_len} bytes \
                 ({} hex digits)",
                key.len(),
                alg.name,
                2 * key_len
            )));
        }
    }
    if let Digest::Kmac { min_key, .. } = digest {
        if key.len() < min_key {
            return Err(CliError::Usage(format!(
                "--key-hex: the key is {} bytes; {} takes keys of at least {min_key} bytes, \
                 its security strength (NIST SP 800-185, 8.4.1: a shorter key gives less)",
                key.len(),
                alg.name
            )));
        }
    } else if let Digest::FixedKey { key_len, .. } = digest {
        if key.len() != key_len {
            return Err(CliError::Usage(format!(
                "--key-hex: the key is {} bytes; {} takes keys of exactly {key_len} bytes",
                key.len(),
                alg.name
            )));
        }
    }
    if !matches!(digest, Digest::Kmac { .. }) && !args.customization.is_empty() {
        return Err(CliError::Usage(format!(
            "--customization applies to KMAC only, not {}",
            alg.name
        )));
    }
    let len = length(alg, &digest, args.length, algorithms::is_mac)?;
    let sbox = sbox(alg, &digest, args.sbox.as_deref(), algorithms::is_mac)?;
    Ok((
        Spec {
            alg,
            digest,
            len,
            sbox,
        },
        key,
    ))
}

/// Checks `shyfr mac`'s arguments without running (for the parser's property test).
#[cfg(test)]
pub fn check_mac(args: &MacArgs) -> Result<(), CliError> {
    mac_spec(args).map(drop)
}

impl Spec {
    /// A fresh hasher (keyed for a MAC).
    fn make(&self, key: &[u8], custom: &[u8]) -> Result<Box<dyn Hasher>, CliError> {
        match self.digest {
            Digest::Hash { new, .. } => Ok(new()),
            Digest::Xof { new, .. } => Ok(new(self.len)),
            Digest::Hmac { new, .. } => Ok(new(key)),
            Digest::FixedKey { new, .. } => {
                new(key).map_err(|e| CliError::Usage(format!("{}: {e}", self.alg.name)))
            }
            Digest::Kmac { new, .. } => new(key, custom, self.len)
                .map_err(|e| CliError::Usage(format!("{}: {e}", self.alg.name))),
            Digest::SboxHash { new, .. } => Ok(new(&self.sbox)),
            Digest::CipherMac { new, .. } => new(key, self.len as usize, &self.sbox)
                .map_err(|e| CliError::Usage(format!("{}: {e}", self.alg.name))),
        }
    }
}

/// Whether `name` is standard input.
fn is_stdin(name: &OsStr) -> bool {
    name == OsStr::new("-")
}

/// Streams one input (a path, or `-` for standard input) through `h`.
pub(crate) fn absorb(path: &OsStr, h: &mut dyn Hasher) -> io::Result<()> {
    let mut buf = vec![0u8; CHUNK];
    let (mut reader, size): (Box<dyn Read>, Option<u64>) = if is_stdin(path) {
        (Box::new(stdio::stdin()), None)
    } else {
        let f = File::open(path)?;
        let size = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
        (Box::new(f), size)
    };
    let bar = match size {
        Some(n) if n >= PROGRESS_MIN => {
            let pb = crate::progress::bar(n, crate::progress::Unit::Bytes);
            pb.set_message(shown(path));
            Some(pb)
        }
        _ => None,
    };
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                if let Some(pb) = &bar {
                    pb.finish_and_clear();
                }
                return Err(e);
            }
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

/// Whether GNU escapes a name when printing a checksum line: it holds `\`, newline or CR.
fn needs_escape(name: &[u8]) -> bool {
    name.iter().any(|b| matches!(b, b'\\' | b'\n' | b'\r'))
}

/// The name with `\`, newline and CR escaped (`\\`, `\n`, `\r`).
fn escape(name: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(name.len() + 2);
    for &b in name {
        match b {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b => out.push(b),
        }
    }
    out
}

/// Undoes [`escape`]; `None` for an invalid escape (only `\\`, `\n`, `\r` exist), a
/// trailing backslash or a NUL.
fn unescape(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    let mut it = s.iter();
    while let Some(&b) = it.next() {
        match b {
            b'\\' => match it.next()? {
                b'\\' => out.push(b'\\'),
                b'n' => out.push(b'\n'),
                b'r' => out.push(b'\r'),
                _ => return None,
            },
            0 => return None,
            b => out.push(b),
        }
    }
    Some(out)
}

/// How output lines look.
#[derive(Clone, Copy)]
struct LineStyle<'a> {
    /// BSD style with this tag, else GNU style.
    tag: Option<&'a str>,
    /// `*` before the name (GNU style).
    binary: bool,
    /// NUL-terminated, no escaping.
    zero: bool,
}

/// Hashes one input and writes its line; the line is written only once the input has been
/// read completely, the digest streamed in pieces (SHAKE output is never held whole).
fn digest_line(
    out: &mut impl Write,
    name: &OsStr,
    h: Box<dyn Hasher>,
    style: LineStyle<'_>,
) -> Result<(), CliError> {
    let raw = os_bytes(name);
    let escaped = !style.zero && needs_escape(&raw);
    let name_bytes = if escaped { escape(&raw) } else { raw.to_vec() };
    if escaped {
        stdio::put(out, b"\\")?;
    }
    if let Some(tag) = style.tag {
        stdio::put(out, format!("{tag} (").as_bytes())?;
        stdio::put(out, &name_bytes)?;
        stdio::put(out, b") = ")?;
    }
    let mut hexbuf = vec![0u8; 2 * PIECE];
    h.finish(&mut |piece: &[u8]| {
        let hex = &mut hexbuf[..2 * piece.len()];
        hex::encode_to_slice(piece, hex).expect("twice the length");
        stdio::put(out, hex)
    })?;
    if style.tag.is_none() {
        stdio::put(out, if style.binary { b" *" } else { b"  " })?;
        stdio::put(out, &name_bytes)?;
    }
    stdio::put(out, if style.zero { b"\0" } else { b"\n" })?;
    stdio::flush(out)
}

/// Hashes every input (standard input when `files` is empty), going on past unreadable
/// ones, which are reported on stderr and make the result a failure.
fn digest_files(
    files: &[OsString],
    make: &dyn Fn() -> Result<Box<dyn Hasher>, CliError>,
    style: LineStyle<'_>,
) -> Result<(), CliError> {
    let stdin = [OsString::from("-")];
    let files = if files.is_empty() { &stdin[..] } else { files };
    let mut out = BufWriter::with_capacity(1 << 16, stdio::stdout());
    let mut failed = false;
    for f in files {
        let mut h = make()?;
        match absorb(f, h.as_mut()) {
            Ok(()) => digest_line(&mut out, f, h, style)?,
            Err(e) => {
                report::error(&format!("{}: {}", shown(f), io_text(&e)));
                failed = true;
            }
        }
    }
    stdio::flush(&mut out)?;
    if failed {
        Err(CliError::Reported)
    } else {
        Ok(())
    }
}

/// Runs `shyfr hash`.
pub fn run_hash(args: &HashArgs) -> Result<(), CliError> {
    let spec = hash_spec(args)?;
    let make = || spec.make(&[], &[]);
    if args.check {
        return check(args, &spec);
    }
    let tag = spec.alg.tag();
    let style = LineStyle {
        tag: args.tag.then_some(tag.as_str()),
        binary: args.binary,
        zero: args.zero,
    };
    digest_files(&args.files, &make, style)
}

/// Runs `shyfr mac`: one `TAG  NAME` line per input (GNU escaping of names).
pub fn run_mac(args: &MacArgs) -> Result<(), CliError> {
    let (spec, key) = mac_spec(args)?;
    let make = || spec.make(&key, args.customization.as_bytes());
    make()?;
    let style = LineStyle {
        tag: None,
        binary: false,
        zero: false,
    };
    digest_files(&args.files, &make, style)
}

/// One checksum line, parsed: the expected digest and the file name (unescaped).
#[derive(Debug, PartialEq, Eq)]
struct CheckLine {
    digest: Vec<u8>,
    name: Vec<u8>,
}

/// The GNU parser's memory across the lines of one checksum file: whether lines are
/// `HEX NAME` with one space ("BSD reversed", as `md5 -r` writes) or `HEX  NAME` / `HEX
/// *NAME`; the first such line decides and the two are not mixed.
#[derive(Default)]
struct LineState {
    reversed: Option<bool>,
}

fn is_white(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// The bytes as a digest of `hex_len` hex digits (either case).
fn hex_digest(s: &[u8], hex_len: usize) -> Option<Vec<u8>> {
    if s.len() != hex_len {
        return None;
    }
    hex::decode(s).ok()
}

/// Parses a checksum line (without its line end) as GNU coreutils does: optional leading
/// blanks; a backslash marking an escaped name; then either `TAG (NAME) = HEX` (the
/// spaces optional, as OpenSSL writes it) or `HEX  NAME` / `HEX *NAME` / `HEX NAME`.
fn parse_check_line(
    line: &[u8],
    tag: &str,
    hex_len: usize,
    state: &mut LineState,
) -> Option<CheckLine> {
    let mut i = line.iter().take_while(|b| is_white(**b)).count();
    let escaped = line.get(i) == Some(&b'\\');
    if escaped {
        i += 1;
    }
    let rest = &line[i..];
    if let Some(after) = rest.strip_prefix(tag.as_bytes()) {
        // BSD style: TAG (NAME) = HEX, the name up to the last ')'.
        let after = after.strip_prefix(b" ").unwrap_or(after);
        let after = after.strip_prefix(b"(")?;
        let close = after.iter().rposition(|&b| b == b')')?;
        let name = &after[..close];
        let mut tail = &after[close + 1..];
        while tail.first().is_some_and(|b| is_white(*b)) {
            tail = &tail[1..];
        }
        let mut tail = tail.strip_prefix(b"=")?;
        while tail.first().is_some_and(|b| is_white(*b)) {
            tail = &tail[1..];
        }
        let digest = hex_digest(tail, hex_len)?;
        let name = if escaped {
            unescape(name)?
        } else {
            name.to_vec()
        };
        return Some(CheckLine { digest, name });
    }
    if rest.len() < hex_len + 2 || !is_white(rest[hex_len]) {
        return None;
    }
    let digest = hex_digest(&rest[..hex_len], hex_len)?;
    let after = &rest[hex_len + 1..];
    let name = if after.len() == 1 || (after[0] != b' ' && after[0] != b'*') {
        if state.reversed == Some(false) {
            return None;
        }
        state.reversed = Some(true);
        after
    } else {
        if state.reversed == Some(true) {
            return None;
        }
        state.reversed = Some(false);
        &after[1..]
    };
    if name.is_empty() {
        return None;
    }
    let name = if escaped {
        unescape(name)?
    } else {
        name.to_vec()
    };
    if name.contains(&0) {
        return None;
    }
    Some(CheckLine { digest, name })
}

/// Reads one line (up to `\n`) into `line`, without the `\n`; `Ok(false)` at the end of
/// the input. A line longer than [`MAX_LINE`] is consumed but left empty and flagged with
/// `too_long`.
fn read_line(r: &mut impl BufRead, line: &mut Vec<u8>, too_long: &mut bool) -> io::Result<bool> {
    line.clear();
    *too_long = false;
    let mut any = false;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any);
        }
        any = true;
        let (part, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(p) => (&buf[..p], Some(p + 1)),
            None => (buf, None),
        };
        if !*too_long {
            if line.len() + part.len() > MAX_LINE {
                *too_long = true;
                line.clear();
            } else {
                line.extend_from_slice(part);
            }
        }
        let used = done.unwrap_or(buf.len());
        r.consume(used);
        if done.is_some() {
            return Ok(true);
        }
    }
}

/// Counts for one checksum file.
#[derive(Default)]
struct Tally {
    improper: usize,
    mismatched: usize,
    unreadable: usize,
    matched: usize,
    proper: usize,
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `shyfr hash -c`: checks every checksum file given (standard input when none).
fn check(args: &HashArgs, spec: &Spec) -> Result<(), CliError> {
    let stdin = [OsString::from("-")];
    let lists = if args.files.is_empty() {
        &stdin[..]
    } else {
        &args.files
    };
    let mut out = BufWriter::with_capacity(1 << 16, stdio::stdout());
    let mut failed = false;
    for list in lists {
        failed |= check_list(args, spec, list, &mut out)?;
    }
    stdio::flush(&mut out)?;
    if failed {
        Err(CliError::Reported)
    } else {
        Ok(())
    }
}

/// Checks one checksum file; whether it failed.
fn check_list(
    args: &HashArgs,
    spec: &Spec,
    list: &OsStr,
    out: &mut impl Write,
) -> Result<bool, CliError> {
    let list_name = if is_stdin(list) {
        "standard input".to_string()
    } else {
        shown(list)
    };
    let reader: Box<dyn Read> = if is_stdin(list) {
        Box::new(stdio::stdin())
    } else {
        match File::open(list) {
            Ok(f) => Box::new(f),
            Err(e) => {
                report::error(&format!("{list_name}: {}", io_text(&e)));
                return Ok(true);
            }
        }
    };
    let mut reader = BufReader::with_capacity(1 << 16, reader);
    let tag = spec.alg.tag();
    let hex_len = 2 * spec.len as usize;
    let mut state = LineState::default();
    let mut t = Tally::default();
    let mut line = Vec::new();
    let mut too_long = false;
    let mut number = 0usize;
    loop {
        match read_line(&mut reader, &mut line, &mut too_long) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                report::error(&format!("{list_name}: {}", io_text(&e)));
                return Ok(true);
            }
        }
        number += 1;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if !too_long && (line.is_empty() || line[0] == b'#') {
            continue;
        }
        let parsed = if too_long {
            None
        } else {
            parse_check_line(&line, &tag, hex_len, &mut state)
        };
        let Some(CheckLine { digest, name }) = parsed else {
            t.improper += 1;
            if args.warn {
                report::error(&format!(
                    "{list_name}: {number}: improperly formatted {tag} checksum line"
                ));
            }
            continue;
        };
        t.proper += 1;
        let name_os = os_from_bytes(&name);
        let mut h = spec.make(&[], &[])?;
        let result = absorb(&name_os, h.as_mut());
        // GNU escapes names in these lines only when they hold a newline.
        let shown_name = if name.contains(&b'\n') {
            let mut v = b"\\".to_vec();
            v.extend(escape(&name));
            v
        } else {
            name.clone()
        };
        let say = |out: &mut dyn Write, what: &[u8]| -> Result<(), CliError> {
            if args.status {
                return Ok(());
            }
            let mut l = shown_name.clone();
            l.extend_from_slice(what);
            stdio::put(out, &l)?;
            stdio::flush(out)
        };
        match result {
            Ok(()) => {
                let mut equal = true;
                let mut at = 0usize;
                h.finish(&mut |piece: &[u8]| {
                    let want = &digest[at..at + piece.len()];
                    equal &= shyfr::ct::ct_eq(piece, want);
                    at += piece.len();
                    Ok(())
                })?;
                if equal {
                    t.matched += 1;
                    if !args.quiet {
                        say(out, b": OK\n")?;
                    }
                } else {
                    t.mismatched += 1;
                    say(out, b": FAILED\n")?;
                }
            }
            Err(e) if args.ignore_missing && e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => {
                t.unreadable += 1;
                stdio::flush(out)?;
                report::error(&format!("{}: {}", shown(&name_os), io_text(&e)));
                say(out, b": FAILED open or read\n")?;
            }
        }
    }
    stdio::flush(out)?;
    if t.proper == 0 {
        report::error(&format!(
            "{list_name}: no properly formatted checksum lines found"
        ));
        return Ok(true);
    }
    if !args.status {
        if t.improper > 0 {
            report::error(&format!(
                "WARNING: {} improperly formatted",
                plural(t.improper, "line is", "lines are")
            ));
        }
        if t.unreadable > 0 {
            report::error(&format!(
                "WARNING: {} could not be read",
                plural(t.unreadable, "listed file", "listed files")
            ));
        }
        if t.mismatched > 0 {
            report::error(&format!(
                "WARNING: {} did NOT match",
                plural(t.mismatched, "computed checksum", "computed checksums")
            ));
        }
    }
    if args.ignore_missing && t.matched + t.mismatched + t.unreadable == 0 {
        report::error(&format!("{list_name}: no file was verified"));
        return Ok(true);
    }
    Ok(t.mismatched > 0 || t.unreadable > 0 || (args.strict && t.improper > 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: &str = "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb";

    fn parse(line: &str) -> Option<CheckLine> {
        parse_check_line(line.as_bytes(), "SHA256", 64, &mut LineState::default())
    }

    #[test]
    fn escaping_round_trips() {
        for name in [&b"plain"[..], b"a\\b", b"a\nb", b"a\rb", b"\\\n\r\\n"] {
            assert_eq!(unescape(&escape(name)).unwrap(), name);
        }
        assert!(unescape(b"a\\qb").is_none());
        assert!(unescape(b"a\\").is_none());
        assert!(needs_escape(b"a\\b") && needs_escape(b"a\nb") && needs_escape(b"\r"));
        assert!(!needs_escape(b"a b\t-"));
    }

    #[test]
    fn gnu_and_bsd_lines() {
        let want = hex::decode(H).unwrap();
        let l = parse(&format!("{H}  name with  spaces ")).unwrap();
        assert_eq!(
            (l.digest, l.name),
            (want.clone(), b"name with  spaces ".to_vec())
        );
        assert_eq!(parse(&format!("{H} *bin")).unwrap().name, b"bin");
        assert_eq!(parse(&format!("  {H}  lead")).unwrap().name, b"lead");
        assert_eq!(parse(&format!("{H} single")).unwrap().name, b"single");
        assert_eq!(
            parse(&format!("\\{H}  a\\nb\\\\c")).unwrap().name,
            b"a\nb\\c"
        );
        assert_eq!(
            parse(&format!("{}  UPPER", H.to_uppercase()))
                .unwrap()
                .digest,
            want
        );
        assert_eq!(parse(&format!("SHA256 (a)b) = {H}")).unwrap().name, b"a)b");
        assert_eq!(parse(&format!("SHA256(f)= {H}")).unwrap().name, b"f");
        assert_eq!(
            parse(&format!("\\SHA256 (a\\nb) = {H}")).unwrap().name,
            b"a\nb"
        );
        for bad in [
            format!("{}  short", &H[1..]),
            format!("{H}x  f"),
            format!("SHA512 (f) = {H}"),
            format!("SHA256 (f) = {}", &H[2..]),
            format!("\\{H}  a\\qb"),
            H.to_string(),
            format!("{H} "),
            "garbage".to_string(),
            String::new(),
        ] {
            assert!(parse(&bad).is_none(), "{bad:?}");
        }
        // The two GNU styles are not mixed within one file.
        let mut st = LineState::default();
        assert!(parse_check_line(format!("{H}  a").as_bytes(), "SHA256", 64, &mut st).is_some());
        assert!(parse_check_line(format!("{H} b").as_bytes(), "SHA256", 64, &mut st).is_none());
    }

    #[test]
    fn long_lines_are_not_held() {
        let mut data = vec![b'x'; MAX_LINE + 10];
        data.extend_from_slice(b"\nnext\n");
        let mut r = BufReader::new(&data[..]);
        let (mut line, mut long) = (Vec::new(), false);
        assert!(read_line(&mut r, &mut line, &mut long).unwrap());
        assert!(long && line.is_empty());
        assert!(read_line(&mut r, &mut line, &mut long).unwrap());
        assert!(!long);
        assert_eq!(line, b"next");
        assert!(!read_line(&mut r, &mut line, &mut long).unwrap());
    }
}
