//! `shyfr enc`: raw-key encryption with AES, Kalyna (DSTU 7624:2014), GOST 28147-89 and
//! triple DES; for AES and triple DES byte-compatible with `openssl enc -K HEX -iv HEX`.
//!
//! OpenSSL's options are single-dash long flags (`-aes-256-cbc`, `-K`, `-iv`, `-in`), which
//! clap cannot express, so clap hands this subcommand its arguments untouched and
//! [`parse`] reads them.
//!
//! Differences from OpenSSL, on purpose:
//! * `-K` and `-iv` must be given as exactly the right number of hex digits: OpenSSL pads a
//!   short key or IV with zeros and truncates a long one; shyfr refuses both.
//! * No password-based keys (`-pass`, `-k`, salt): only `-K`.
//! * AES-GCM (`-aes-128-gcm`, `-aes-192-gcm`, `-aes-256-gcm`) and AES-XTS (`-aes-128-xts`,
//!   `-aes-256-xts`), which `openssl enc` refuses: GCM appends the 16-byte tag and checks it
//!   on `-d`, releasing no plaintext unless it verifies (the whole input is read into
//!   memory for that); XTS treats the whole input as one data unit (read into memory, at
//!   least 16 bytes) with `-iv` as the 16-byte tweak.
//!
//! * `-a` / `-base64` (and `-A` for one line) as in OpenSSL; decoding accepts any line
//!   length and refuses what is not base64 (OpenSSL silently outputs nothing for either).
//!
//! Besides AES: triple DES, `-des-ede3-cbc` and `-des-ede3-ecb` (three keys, PKCS#7), as
//! `openssl enc` runs them; and the Ukrainian standards, which `openssl enc` lacks:
//! * Kalyna, `-kalyna-BLOCK-KEY-MODE` for the five variants (128-128, 128-256, 256-256,
//!   256-512, 512-512) in ECB, CBC, OFB and the DSTU 7624 modes CTR (the gamma: counter
//!   from `E(IV)`, little-endian) and CFB (full-block segments, or `-segment BYTES`); the IV
//!   is one block. ECB and CBC pad with the standard's 0x80 00.. (ISO/IEC 7816-4), always,
//!   so that decryption can remove it: the standard pads only a partial last block, so for
//!   data of whole blocks its examples are those of `-nopad`.
//! * GOST 28147-89, `-gost28147-ecb` (simple replacement; PKCS#7 padding, as OpenSSL pads,
//!   since the standard defines none), `-gost28147-ctr` (the gamma) and `-gost28147-cfb`
//!   (gamma with feedback), with an 8-byte IV and `-sbox dke1|test|FILE` (DKE No. 1 by
//!   default; a file that is not a table is a usage error, one that cannot be read a
//!   failure).
//!
//! Every mode but AES-GCM and AES-XTS streams: the input is read in chunks and memory use does not grow with
//! its size. `-out FILE` is written atomically ([`crate::output`]): on any failure (a bad
//! padding at the very end, a bad tag, an I/O error) FILE is left as it was, never emptied
//! or partly written, and `-out` naming the input file is refused. On standard output a
//! streamed CBC or ECB decryption that ends in a bad padding has, as with OpenSSL, already
//! written the blocks before the last one (exit status 1 says the output is not to be
//! used). Exit status: 0 on success, 1 when encryption or decryption fails (bad padding,
//! bad tag, input not whole blocks with `-nopad`, not base64 with `-a`, I/O), 2 for usage
//! errors.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use base64::Engine as _;

use shyfr::aead::gcm::AesGcm;
use shyfr::des::Tdes;
use shyfr::gost28147::{Gost28147, Sbox};
use shyfr::mode::cbc::{CbcDecryptor, CbcEncryptor};
use shyfr::mode::cfb::{CfbDecryptor, CfbEncryptor, Segment};
use shyfr::mode::ctr::Ctr;
use shyfr::mode::ecb::Ecb;
use shyfr::mode::ofb::Ofb;
use shyfr::mode::xts::Xts;
use shyfr::mode::BlockModes;
use shyfr::pad::Padding;
use shyfr::{Aes, BlockCipher, Error};

use crate::algorithms;
use crate::ciphers::{self, KalynaVariant};
use crate::output::{self, Output};
use crate::report::{self, io_text, shown, CliError};
use crate::stdio;

/// Bytes read from the input at a time: large enough that the library's multi-core bulk
/// paths (from [`shyfr::mode::PARALLEL_MIN_LEN`]) split each chunk across the cores.
const CHUNK: usize = 4 * shyfr::mode::PARALLEL_MIN_LEN;
/// AES block length.
const BLOCK: usize = 16;
/// The longest block (Kalyna-512): a streamed update or finish writes at most two blocks
/// more than its input.
const MAX_BLOCK: usize = 64;
/// GCM tag length (appended to the ciphertext).
const TAG_LEN: usize = 16;
/// The longest GCM input to decrypt: the longest GCM message (2^36 - 32 bytes, SP 800-38D)
/// and its tag.
const GCM_MAX_SEALED: u64 = (1 << 36) - 32 + TAG_LEN as u64;

/// Encrypt or decrypt with a raw key, like `openssl enc` (`shyfr enc -help`).
#[derive(clap::Args, Debug)]
#[command(disable_help_flag = true)]
pub struct EncArgs {
    /// OpenSSL-style options: -aes-256-cbc -K HEX -iv HEX [-d] [-nopad] [-a] [-aad HEX]
    /// [-sbox S] [-segment N] [-in FILE] [-out FILE]; `shyfr enc -help` lists them all.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    #[arg(value_parser = clap::value_parser!(std::ffi::OsString))]
    args: Vec<std::ffi::OsString>,
}

/// The help text for `shyfr enc -help`.
const HELP: &str = "\
Usage: shyfr enc -CIPHER -K HEX [-iv HEX] [-e | -d] [-nopad] [-a [-A]] [-aad HEX]
                 [-sbox dke1|test|FILE] [-segment BYTES] [-in FILE] [-out FILE]
       shyfr enc -list

Encrypt or decrypt with a raw key: AES and triple DES byte-compatible with `openssl enc` for
the same options (the -K/-iv form: no passwords, no salt), and the Ukrainian standards
Kalyna (DSTU 7624:2014) and GOST 28147-89.

Ciphers:
  -aes-128-ecb  -aes-192-ecb  -aes-256-ecb    PKCS#7 padding unless -nopad; no -iv
  -aes-128-cbc  -aes-192-cbc  -aes-256-cbc    PKCS#7 padding unless -nopad
  -aes-128-cfb  -aes-192-cfb  -aes-256-cfb    full-block CFB (CFB-128, like OpenSSL)
  -aes-128-cfb8 -aes-192-cfb8 -aes-256-cfb8   CFB-8
  -aes-128-ofb  -aes-192-ofb  -aes-256-ofb
  -aes-128-ctr  -aes-192-ctr  -aes-256-ctr    128-bit big-endian counter (wraps to 0,
                                              like OpenSSL)
  -aes-128-gcm  -aes-192-gcm  -aes-256-gcm    16-byte tag appended; checked on -d, and no
                                              plaintext is written unless it verifies
  -aes-128-xts  -aes-256-xts                  the whole input is one data unit (read into
                                              memory, at least 16 bytes); -iv is the tweak
  -kalyna-B-K-ecb -kalyna-B-K-cbc             Kalyna, B-K one of 128-128 128-256 256-256
                                              256-512 512-512 (block and key bits);
                                              padding 0x80 00.. (the standard's) unless
                                              -nopad; no -iv for ecb
  -kalyna-B-K-ctr                             the DSTU 7624 gamma (counter from E(IV))
  -kalyna-B-K-cfb                             DSTU 7624 CFB, full blocks or -segment
  -kalyna-B-K-ofb
  -gost28147-ecb                              GOST 28147-89 simple replacement, PKCS#7
                                              padding unless -nopad; no -iv
  -gost28147-ctr                              the gamma (counter mode)
  -gost28147-cfb                              gamma with feedback
  -des-ede3-ecb -des-ede3-cbc                 triple DES, three keys (legacy), PKCS#7
                                              padding unless -nopad

Options:
  -e            encrypt (the default)
  -d            decrypt
  -K HEX        the key, exactly the cipher's length in hex digits: 32/48/64 for
                AES-128/192/256 (XTS: twice that, K1 || K2), 32/64/128 for Kalyna keys of
                128/256/512 bits, 64 for GOST 28147-89, 48 for triple DES. Unlike OpenSSL,
                a short key is NOT padded with zeros: it is refused.
  -iv HEX       the IV, exactly one block: 32 hex digits for AES, 32/64/128 for Kalyna
                blocks of 128/256/512 bits, 16 for GOST 28147-89 and triple DES (GCM: the
                nonce, any non-empty length, 12 bytes = 24 hex digits recommended; XTS: the
                16-byte tweak). Not padded.
  -nopad        no padding (ecb, cbc): the input must then be whole blocks
  -a, -base64   base64: encrypting, write it (64 characters a line, as OpenSSL); decrypting,
                read it (any line length; anything else than base64 is an error)
  -A            with -a: write the base64 on one line
  -aad HEX      GCM only: additional authenticated data
  -sbox S       GOST 28147-89 only: the S-box, dke1 (DKE No. 1, the default), test (the
                test S-box of GOST 34.311-95), or a FILE holding the table: 64 bytes packed
                (two nibbles a byte, high first) or 128 bytes (one nibble a byte), row K1
                first, raw or as hex digits
  -segment N    Kalyna CFB only: the segment in bytes, 1 to the block (default the block)
  -in FILE      read from FILE (default: standard input)
  -out FILE     write to FILE (default: standard output). FILE is written atomically: on
                any failure it is left as it was; it may not be the -in file. A new FILE
                is readable by its owner only; an existing one keeps its permissions.
  -list         list the ciphers (also -ciphers)
  -help         this text

Exit status: 0 success; 1 failure (bad decrypt, bad tag, not whole blocks, not base64, I/O);
2 usage.
";

/// The block modes `shyfr enc` runs (the `enc` of a row of
/// [`ALGORITHMS`](crate::algorithms::ALGORITHMS)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// ECB, padded unless `-nopad` (PKCS#7; Kalyna: the DSTU 7624 0x80 00..).
    Ecb,
    /// CBC, padded unless `-nopad` (as ECB).
    Cbc,
    /// CFB-128 (Kalyna: DSTU 7624 CFB; GOST 28147-89: gamma with feedback).
    Cfb,
    /// CFB-8.
    Cfb8,
    /// OFB.
    Ofb,
    /// CTR, AES with a 128-bit big-endian counter that wraps (Kalyna and GOST 28147-89:
    /// their standards' gammas).
    Ctr,
    /// GCM, the tag appended.
    Gcm,
    /// XTS, the whole input one data unit.
    Xts,
}

impl Mode {
    fn takes_iv(self) -> bool {
        self != Mode::Ecb
    }
}

/// The cipher of an `enc` row (from the row's family).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cipher {
    Aes,
    /// Kalyna with `block` and `key` bits.
    Kalyna {
        block: usize,
        key: usize,
    },
    Gost28147,
    /// Triple DES, three keys.
    Tdes,
}

impl Cipher {
    /// The block length in bytes.
    fn block_len(self) -> usize {
        match self {
            Cipher::Aes => BLOCK,
            Cipher::Kalyna { block, .. } => block / 8,
            Cipher::Gost28147 | Cipher::Tdes => 8,
        }
    }

    /// The padding of ECB and CBC without `-nopad`: DSTU 7624's 0x80 00.. for Kalyna,
    /// PKCS#7 (OpenSSL's) for the others.
    fn padding(self) -> Padding {
        match self {
            Cipher::Kalyna { .. } => Padding::Iso7816,
            _ => Padding::Pkcs7,
        }
    }
}

/// What the command line asks for.
#[derive(Debug)]
struct Options {
    /// `-aes-256-cbc` and so on, as given.
    name: String,
    mode: Mode,
    cipher: Cipher,
    /// The cipher's key length in bytes (one XTS key).
    cipher_key_len: usize,
    decrypt: bool,
    nopad: bool,
    key: Vec<u8>,
    iv: Vec<u8>,
    aad: Vec<u8>,
    /// `-sbox` (GOST 28147-89 only; DKE No. 1 without it).
    sbox: Sbox,
    /// `-segment` (Kalyna CFB only; the block without it).
    segment: usize,
    /// `-a`: base64 output (encrypting) or input (decrypting).
    base64: bool,
    /// `-A`: base64 on one line.
    one_line: bool,
    input: Option<std::ffi::OsString>,
    output: Option<std::ffi::OsString>,
}

/// The cipher names (`-aes-128-ecb ...`), from the table.
fn cipher_list() -> String {
    algorithms::ALGORITHMS
        .iter()
        .filter(|a| algorithms::is_enc(a))
        .map(|a| format!("-{}", a.name))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `-aes-256-cbc` -> (mode, cipher, the cipher's key length in bytes), from the table
/// (`cfb128` is another name for `cfb`, as in OpenSSL).
fn cipher_by_name(arg: &str) -> Option<(Mode, Cipher, usize)> {
    let name = arg.strip_prefix('-')?;
    let name = match name.strip_suffix("-cfb128") {
        Some(base) => format!("{base}-cfb"),
        None => name.to_string(),
    };
    let row = algorithms::find(&name).filter(|a| a.name == name)?;
    let mode = row.enc?;
    let cipher = match row.family {
        "aes" => Cipher::Aes,
        "kalyna" => {
            let (block, key, _) = ciphers::kalyna_name(row.name)?;
            Cipher::Kalyna { block, key }
        }
        "gost28147" => Cipher::Gost28147,
        "des" => Cipher::Tdes,
        _ => return None,
    };
    let klen = if mode == Mode::Xts {
        row.key_len / 2
    } else {
        row.key_len
    };
    Some((mode, cipher, klen))
}

/// Whether `arg` looks like a cipher name (for "unknown cipher" rather than "unknown
/// option").
fn looks_like_cipher(arg: &str) -> bool {
    ["-aes", "-kalyna", "-gost", "-des"]
        .iter()
        .any(|p| arg.starts_with(p))
}

fn usage(msg: impl Into<String>) -> CliError {
    CliError::Usage(msg.into())
}

/// Decodes the hex value of `opt`, which must be `want` bytes long (any non-empty length
/// if `want` is `None`).
fn parse_hex(opt: &str, value: &str, want: Option<usize>, what: &str) -> Result<Vec<u8>, CliError> {
    if !value.len().is_multiple_of(2) {
        return Err(usage(format!(
            "{opt}: odd number of hex digits ({}); {what}",
            value.len()
        )));
    }
    let bytes = hex::decode(value).map_err(|e| usage(format!("{opt}: not hex ({e}); {what}")))?;
    match want {
        Some(n) if bytes.len() != n => Err(usage(format!(
            "{opt}: {} hex digits, expected exactly {} ({what}; shyfr does not pad or \
             truncate like OpenSSL)",
            value.len(),
            2 * n
        ))),
        None if bytes.is_empty() => Err(usage(format!("{opt}: empty; {what}"))),
        _ => Ok(bytes),
    }
}

/// What `parse` found: run with these options, print the help, or list the ciphers.
enum Parsed {
    Run(Box<Options>),
    Help,
    List,
}

/// The value of `--cpu` among `enc`'s arguments (`--cpu SPEC` or `--cpu=SPEC`), if any.
pub fn cpu_flag(args: &EncArgs) -> Option<String> {
    let mut it = args.args.iter();
    while let Some(a) = it.next() {
        let a = a.to_str()?;
        if a == "--cpu" {
            return it.next().and_then(|v| v.to_str()).map(String::from);
        }
        if let Some(v) = a.strip_prefix("--cpu=") {
            return Some(v.to_string());
        }
    }
    None
}

/// Checks `enc`'s arguments without running (for the parser's property test).
#[cfg(test)]
pub fn check(args: &EncArgs) -> Result<(), CliError> {
    parse(&args.args).map(drop)
}

/// Reads OpenSSL-style arguments.
fn parse(args: &[std::ffi::OsString]) -> Result<Parsed, CliError> {
    let mut cipher: Option<(String, Mode, Cipher, usize)> = None;
    let (mut decrypt, mut nopad, mut base64, mut one_line) = (false, false, false, false);
    let (mut key, mut iv, mut aad) = (None, None, None);
    let (mut sbox, mut segment) = (None, None);
    let (mut input, mut output) = (None, None);
    let text = |a: &std::ffi::OsString| -> Result<String, CliError> {
        a.to_str().map(String::from).ok_or_else(|| {
            usage(format!(
                "the argument '{}' is not valid UTF-8 (shyfr enc -help)",
                shown(a)
            ))
        })
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| usage(format!("{name} needs a value (shyfr enc -help)")))
        };
        // -in, -out and -sbox take any file name; every other option is text.
        let a = text(a)?;
        match a.as_str() {
            "-help" | "--help" | "-h" => return Ok(Parsed::Help),
            "-list" | "-ciphers" => return Ok(Parsed::List),
            "-e" => decrypt = false,
            "-d" => decrypt = true,
            "-nopad" => nopad = true,
            "-a" | "-base64" => base64 = true,
            "-A" => one_line = true,
            "-K" => key = Some(text(&value("-K")?)?),
            "-iv" => iv = Some(text(&value("-iv")?)?),
            "-aad" => aad = Some(text(&value("-aad")?)?),
            "-sbox" => sbox = Some(value("-sbox")?),
            "-segment" => segment = Some(text(&value("-segment")?)?),
            "-in" => input = Some(value("-in")?),
            "-out" => output = Some(value("-out")?),
            // Applied before `run` (see `cpu_flag`); only its value is skipped here.
            "--cpu" => {
                value("--cpu")?;
            }
            s if s.starts_with("--cpu=") => {}
            "-k" | "-pass" | "-kfile" | "-pbkdf2" | "-salt" | "-S" | "-md" | "-iter" => {
                return Err(usage(format!(
                    "{a}: password-based keys are not supported; give the key with -K HEX"
                )))
            }
            s if looks_like_cipher(s) => {
                let (mode, c, klen) = cipher_by_name(s).ok_or_else(|| {
                    usage(format!(
                        "unknown cipher {s} (shyfr enc -list names the ciphers)"
                    ))
                })?;
                if cipher.is_some() {
                    return Err(usage(format!("{s}: only one cipher may be given")));
                }
                cipher = Some((s.to_string(), mode, c, klen));
            }
            s => {
                return Err(usage(format!(
                    "unknown option {} (shyfr enc -help lists the options)",
                    shown(std::ffi::OsStr::new(s))
                )))
            }
        }
    }
    if one_line && !base64 {
        return Err(usage("-A applies with -a (base64) only"));
    }
    let (name, mode, c, klen) = cipher.ok_or_else(|| {
        usage("no cipher given, e.g. -aes-256-cbc (shyfr enc -list names the ciphers)")
    })?;
    let block = c.block_len();
    let key_len = if mode == Mode::Xts { 2 * klen } else { klen };
    let key = key.ok_or_else(|| {
        usage(format!(
            "{name} needs -K with {} hex digits (password-based keys are not supported)",
            2 * key_len
        ))
    })?;
    let key = parse_hex(
        "-K",
        &key,
        Some(key_len),
        &format!("{name} takes a {key_len}-byte key"),
    )?;
    if mode == Mode::Xts && key[..klen] == key[klen..] {
        return Err(usage(format!(
            "{name}: the two key halves K1 and K2 must differ (IEEE 1619)"
        )));
    }
    let iv = match (mode, iv) {
        (Mode::Ecb, Some(_)) => {
            report::warn(&format!("-iv is not used by {name}"));
            Vec::new()
        }
        (Mode::Ecb, None) => Vec::new(),
        (Mode::Gcm, Some(v)) => parse_hex(
            "-iv",
            &v,
            None,
            &format!("{name} takes a non-empty nonce (12 bytes = 24 hex digits recommended)"),
        )?,
        (_, Some(v)) => parse_hex(
            "-iv",
            &v,
            Some(block),
            &format!("{name} takes a {block}-byte IV"),
        )?,
        (m, None) => {
            debug_assert!(m.takes_iv());
            let what = if m == Mode::Gcm {
                "a nonce (24 hex digits recommended)".to_string()
            } else {
                format!("an IV of {} hex digits", 2 * block)
            };
            return Err(usage(format!("{name} needs -iv with {what}")));
        }
    };
    let aad = match aad {
        None => Vec::new(),
        Some(_) if mode != Mode::Gcm => {
            return Err(usage(format!("-aad is only for GCM ciphers, not {name}")))
        }
        Some(v) if v.is_empty() => Vec::new(),
        Some(v) => parse_hex("-aad", &v, None, "additional authenticated data")?,
    };
    let segment = match segment {
        None => block,
        Some(_) if !(matches!(c, Cipher::Kalyna { .. }) && mode == Mode::Cfb) => {
            return Err(usage(format!(
                "-segment is only for the Kalyna CFB ciphers, not {name}"
            )))
        }
        Some(v) => match v.trim().parse::<usize>() {
            Ok(n) if (1..=block).contains(&n) => n,
            _ => {
                return Err(usage(format!(
                    "-segment {v}: {name} takes a segment of 1 to {block} bytes"
                )))
            }
        },
    };
    let sbox = match sbox {
        None => Sbox::DKE1,
        Some(_) if c != Cipher::Gost28147 => {
            return Err(usage(format!(
                "-sbox is only for the GOST 28147-89 ciphers, not {name}"
            )))
        }
        Some(v) => ciphers::sbox_arg("-sbox", &v)?,
    };
    Ok(Parsed::Run(Box::new(Options {
        name,
        mode,
        cipher: c,
        cipher_key_len: klen,
        decrypt,
        nopad,
        key,
        iv,
        aad,
        sbox,
        segment,
        base64,
        one_line,
        input,
        output,
    })))
}

/// A runtime failure with a message.
fn fail(msg: impl Into<String>) -> CliError {
    CliError::Failure(msg.into())
}

/// The message for a library error while en/decrypting.
fn crypt_error(o: &Options, e: Error) -> CliError {
    match e {
        Error::BadPadding => fail("bad decrypt (wrong key, IV or corrupt input)"),
        Error::AuthenticationFailed => {
            fail("bad decrypt: the GCM tag does not verify (wrong key, nonce, AAD or corrupt input); nothing written")
        }
        Error::NotWholeBlocks { len, .. } => fail(format!(
            "{}: input is not a whole number of {}-byte blocks ({len} bytes left over){}",
            o.name,
            o.cipher.block_len(),
            if o.nopad { " with -nopad" } else { "" }
        )),
        e => fail(format!("{}: {e}", o.name)),
    }
}

fn io_error(what: &str, e: io::Error) -> CliError {
    fail(format!("{what}: {}", io_text(&e)))
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full(r: &mut dyn Read, buf: &mut [u8]) -> Result<usize, CliError> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                let name = INPUT_NAME.with(|n| n.borrow().clone());
                return Err(io_error(&format!("cannot read {name}"), e));
            }
        }
    }
    Ok(n)
}

thread_local! {
    /// What the input is called in messages ([`input_name`]), for [`read_full`].
    static INPUT_NAME: std::cell::RefCell<String> =
        std::cell::RefCell::new("the input".to_string());
}

/// A streaming en/decryption: `update` any bytes, `finish` once.
trait Streamer {
    /// Processes `input`; the output for it (possibly less or more, for block modes) is in
    /// `out[..returned]`. `out` holds at least `input.len() + 2 * MAX_BLOCK` bytes.
    fn update(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, Error>;
    /// Ends the message: the last output (at most `2 * MAX_BLOCK` bytes) goes to `out`.
    fn finish(self: Box<Self>, out: &mut [u8]) -> Result<usize, Error>;
}

/// A mode whose output is its input's length, call by call: `f(input, output)`.
struct Flat<F>(F);

impl<F: FnMut(&[u8], &mut [u8]) -> Result<(), Error>> Streamer for Flat<F> {
    fn update(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        (self.0)(input, &mut out[..input.len()])?;
        Ok(input.len())
    }
    fn finish(self: Box<Self>, _out: &mut [u8]) -> Result<usize, Error> {
        Ok(0)
    }
}

fn flat(f: impl FnMut(&[u8], &mut [u8]) -> Result<(), Error> + 'static) -> Box<dyn Streamer> {
    Box::new(Flat(f))
}

/// The padded block modes over any cipher.
enum Padded<C: BlockModes + Sync> {
    CbcEnc(CbcEncryptor<C>),
    CbcDec(CbcDecryptor<C>),
    Ecb(EcbStream<C>),
}

/// ECB has no streaming type in the library: whole blocks go straight through and the rest
/// (or, decrypting with padding, the last block) waits in `carry`, wiped on drop.
struct EcbStream<C: BlockCipher + Sync> {
    ecb: Ecb<C>,
    decrypt: bool,
    padding: Padding,
    carry: Vec<u8>,
}

impl<C: BlockCipher + Sync> Drop for EcbStream<C> {
    fn drop(&mut self) {
        zeroize_vec(&mut self.carry);
    }
}

impl<C: BlockCipher + Sync> EcbStream<C> {
    fn update(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        let block = C::BLOCK_LEN;
        self.carry.extend_from_slice(input);
        let total = self.carry.len();
        let mut n = total - total % block;
        if self.decrypt && self.padding != Padding::None && n == total && n > 0 {
            n -= block; // the last block may be padding
        }
        let out = &mut out[..n];
        if self.decrypt {
            self.ecb.decrypt_to(&self.carry[..n], out)?;
        } else {
            self.ecb.encrypt_to(&self.carry[..n], out)?;
        }
        self.carry.drain(..n);
        Ok(n)
    }

    fn finish(&mut self, out: &mut [u8]) -> Result<usize, Error> {
        let block = C::BLOCK_LEN;
        let len = self.carry.len();
        if !self.decrypt {
            self.carry.resize(len + block, 0);
            let n = self.padding.pad(&mut self.carry, len, block)?.len();
            self.ecb.encrypt_to(&self.carry[..n], &mut out[..n])?;
            return Ok(n);
        }
        if self.padding == Padding::None {
            if len != 0 {
                return Err(Error::NotWholeBlocks { len, block });
            }
            return Ok(0);
        }
        if len != block {
            return Err(if len == 0 {
                Error::BadPadding
            } else {
                Error::NotWholeBlocks { len, block }
            });
        }
        self.ecb.decrypt(&mut self.carry)?;
        let m = self.padding.message_len(&self.carry, block)?;
        out[..m].copy_from_slice(&self.carry[..m]);
        Ok(m)
    }
}

impl<C: BlockModes + Sync> Streamer for Padded<C> {
    fn update(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        match self {
            Padded::CbcEnc(s) => s.update_to(input, out),
            Padded::CbcDec(s) => s.update_to(input, out),
            Padded::Ecb(s) => s.update(input, out),
        }
    }

    fn finish(self: Box<Self>, out: &mut [u8]) -> Result<usize, Error> {
        match *self {
            Padded::CbcEnc(s) => s.finalize_to(out),
            Padded::CbcDec(s) => s.finalize_to(out),
            Padded::Ecb(mut s) => s.finish(out),
        }
    }
}

/// ECB or CBC over `c` with `o`'s padding.
fn padded<C: BlockModes + Sync + 'static>(c: C, o: &Options) -> Result<Box<dyn Streamer>, Error> {
    let padding = if o.nopad {
        Padding::None
    } else {
        o.cipher.padding()
    };
    Ok(match (o.mode, o.decrypt) {
        (Mode::Cbc, false) => Box::new(Padded::CbcEnc(CbcEncryptor::new(c, &o.iv, padding)?)),
        (Mode::Cbc, true) => Box::new(Padded::CbcDec(CbcDecryptor::new(c, &o.iv, padding)?)),
        (_, decrypt) => Box::new(Padded::Ecb(EcbStream {
            ecb: Ecb::new(c),
            decrypt,
            padding,
            carry: Vec::with_capacity(CHUNK + 2 * MAX_BLOCK),
        })),
    })
}

/// AES-CTR as OpenSSL runs it. The library refuses to let a counter wrap; OpenSSL wraps
/// the 128-bit counter to 0, so at the wrap a fresh `Ctr` from the all-zero counter block
/// takes over.
struct AesCtr {
    ctr: Ctr<Aes>,
    /// The key for the `Ctr` after the wrap (boxed: a keyed `Aes` is large).
    aes: Box<Aes>,
    iv: u128,
}

impl Streamer for AesCtr {
    fn update(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        let out = &mut out[..input.len()];
        match self.ctr.apply_keystream_to(input, out) {
            Err(Error::TooLong { .. }) => {
                // Keystream bytes left before the counter passes 2^128 - 1.
                let blocks_left = (!self.iv).wrapping_add(1);
                let left = blocks_left
                    .checked_mul(BLOCK as u128)
                    .and_then(|b| b.checked_sub(self.ctr.position()))
                    .and_then(|b| usize::try_from(b).ok())
                    .filter(|&b| b < input.len())
                    .ok_or(Error::TooLong {
                        what: "ctr keystream",
                    })?;
                self.ctr
                    .apply_keystream_to(&input[..left], &mut out[..left])?;
                self.ctr = Ctr::new(Aes::clone(&self.aes), &[0; BLOCK])?;
                self.iv = 0;
                self.ctr
                    .apply_keystream_to(&input[left..], &mut out[left..])?;
            }
            r => r?,
        }
        Ok(input.len())
    }
    fn finish(self: Box<Self>, _out: &mut [u8]) -> Result<usize, Error> {
        Ok(0)
    }
}

/// DSTU 7624 CFB: the library takes whole segments in every call but the last, so a
/// partial segment waits in `carry` until more input or the end.
struct KalynaCfb<K: KalynaVariant> {
    cfb: shyfr::mode::dstu7624::cfb::Cfb<K>,
    decrypt: bool,
    segment: usize,
    carry: Vec<u8>,
}

impl<K: KalynaVariant> KalynaCfb<K> {
    fn run(&mut self, n: usize, out: &mut [u8]) -> Result<usize, Error> {
        if self.decrypt {
            self.cfb.decrypt_to(&self.carry[..n], &mut out[..n])?;
        } else {
            self.cfb.encrypt_to(&self.carry[..n], &mut out[..n])?;
        }
        self.carry.drain(..n);
        Ok(n)
    }
}

impl<K: KalynaVariant> Drop for KalynaCfb<K> {
    fn drop(&mut self) {
        zeroize_vec(&mut self.carry);
    }
}

impl<K: KalynaVariant> Streamer for KalynaCfb<K> {
    fn update(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        self.carry.extend_from_slice(input);
        let n = self.carry.len() / self.segment * self.segment;
        self.run(n, out)
    }
    fn finish(mut self: Box<Self>, out: &mut [u8]) -> Result<usize, Error> {
        let n = self.carry.len();
        self.run(n, out)
    }
}

/// The stream of a Kalyna variant.
fn kalyna_stream<K: KalynaVariant>(o: &Options) -> Result<Box<dyn Streamer>, Error> {
    use shyfr::mode::dstu7624::{cfb::Cfb, ctr::Ctr as Gamma};
    let k = K::with_backend_slice(&o.key, shyfr::kalyna::Backend::best())?;
    Ok(match o.mode {
        Mode::Ecb | Mode::Cbc => padded(k, o)?,
        Mode::Ctr => {
            let mut g = Gamma::new(k, &o.iv)?;
            flat(move |i, out| g.apply_keystream_to(i, out))
        }
        Mode::Cfb => Box::new(KalynaCfb {
            cfb: Cfb::new(k, &o.iv, o.segment)?,
            decrypt: o.decrypt,
            segment: o.segment,
            carry: Vec::with_capacity(CHUNK + MAX_BLOCK),
        }),
        Mode::Ofb => {
            let mut ofb = Ofb::new(k, &o.iv)?;
            flat(move |i, out| ofb.apply_keystream_to(i, out))
        }
        Mode::Cfb8 | Mode::Gcm | Mode::Xts => {
            return Err(Error::InvalidParameter {
                what: "not a kalyna streaming mode",
            })
        }
    })
}

/// Sets the key up and makes the stream of a streaming mode (all but GCM and XTS).
fn stream(o: &Options) -> Result<Box<dyn Streamer>, Error> {
    use shyfr::mode::gost28147::{Gamma, GammaFeedbackDecryptor, GammaFeedbackEncryptor};
    let not_streaming = Error::InvalidParameter {
        what: "not a streaming mode",
    };
    Ok(match o.cipher {
        Cipher::Aes => {
            let aes = Aes::new_from_slice(&o.key)?;
            debug_assert_eq!(Aes::BLOCK_LEN, BLOCK);
            let seg = if o.mode == Mode::Cfb8 {
                Segment::Byte
            } else {
                Segment::Block
            };
            match (o.mode, o.decrypt) {
                (Mode::Ecb | Mode::Cbc, _) => padded(aes, o)?,
                (Mode::Cfb | Mode::Cfb8, false) => {
                    let mut c = CfbEncryptor::with_segment(aes, &o.iv, seg)?;
                    flat(move |i, out| c.update_to(i, out))
                }
                (Mode::Cfb | Mode::Cfb8, true) => {
                    let mut c = CfbDecryptor::with_segment(aes, &o.iv, seg)?;
                    flat(move |i, out| c.update_to(i, out))
                }
                (Mode::Ofb, _) => {
                    let mut ofb = Ofb::new(aes, &o.iv)?;
                    flat(move |i, out| ofb.apply_keystream_to(i, out))
                }
                (Mode::Ctr, _) => Box::new(AesCtr {
                    ctr: Ctr::new(aes.clone(), &o.iv)?,
                    aes: Box::new(aes),
                    iv: u128::from_be_bytes(o.iv[..].try_into().map_err(|_| {
                        Error::InvalidParameter {
                            what: "ctr iv length",
                        }
                    })?),
                }),
                (Mode::Gcm | Mode::Xts, _) => return Err(not_streaming),
            }
        }
        Cipher::Kalyna { block, key } => ciphers::for_kalyna!(
            block,
            key,
            kalyna_stream(o),
            Err(Error::InvalidParameter {
                what: "kalyna variant",
            })
        )?,
        Cipher::Gost28147 => {
            let g = Gost28147::new_from_slice(&o.key, &o.sbox)?;
            match (o.mode, o.decrypt) {
                (Mode::Ecb, _) => padded(g, o)?,
                (Mode::Ctr, _) => {
                    let mut c = Gamma::new(g, &o.iv)?;
                    flat(move |i, out| c.apply_keystream_to(i, out))
                }
                (Mode::Cfb, false) => {
                    let mut c = GammaFeedbackEncryptor::new(g, &o.iv)?;
                    flat(move |i, out| c.update_to(i, out))
                }
                (Mode::Cfb, true) => {
                    let mut c = GammaFeedbackDecryptor::new(g, &o.iv)?;
                    flat(move |i, out| c.update_to(i, out))
                }
                _ => return Err(not_streaming),
            }
        }
        Cipher::Tdes => match o.mode {
            Mode::Ecb | Mode::Cbc => padded(Tdes::new_from_slice(&o.key)?, o)?,
            _ => return Err(not_streaming),
        },
    })
}

/// Overwrites a buffer that held plaintext.
fn zeroize_vec(v: &mut Vec<u8>) {
    let cap = v.capacity();
    v.clear();
    v.resize(cap, 0);
    std::hint::black_box(&v);
    v.clear();
}

/// What the input is called in messages.
fn input_name(o: &Options) -> String {
    match o.input.as_deref() {
        None => "standard input".to_string(),
        Some(p) if p == "-" => "standard input".to_string(),
        Some(p) => format!("'{}'", shown(p)),
    }
}

fn open_input(o: &Options) -> Result<Box<dyn Read>, CliError> {
    let raw: Box<dyn Read> = match o.input.as_deref() {
        None => Box::new(stdio::stdin()),
        Some(p) if p == "-" => Box::new(stdio::stdin()),
        Some(p) => {
            let cannot =
                |e: &io::Error| fail(format!("cannot open '{}': {}", shown(p), io_text(e)));
            let f = File::open(p).map_err(|e| cannot(&e))?;
            if f.metadata().is_ok_and(|m| m.is_dir()) {
                return Err(cannot(&crate::report::is_a_directory()));
            }
            Box::new(f)
        }
    };
    Ok(if o.base64 && o.decrypt {
        Box::new(Base64Reader::new(raw))
    } else {
        raw
    })
}

/// Opens the output: standard output, or a temporary file renamed over `-out` only when
/// everything succeeded (a failure leaves the destination as it was). Refuses an `-out`
/// that is the `-in` file.
fn open_output(o: &Options) -> Result<Sink, CliError> {
    let dest = o.output.as_deref().map(Path::new);
    if let (Some(dest), Some(input)) = (dest, o.input.as_deref()) {
        if input != "-" {
            output::check_not_an_input(dest, Path::new(input), "-out")?;
        }
    }
    Ok(Sink {
        out: Output::create(dest, "")?,
        base64: (o.base64 && !o.decrypt).then(|| Base64Writer {
            pending: Vec::new(),
            one_line: o.one_line,
        }),
    })
}

/// The output, base64-encoding it with `-a` when encrypting.
struct Sink {
    out: Output,
    base64: Option<Base64Writer>,
}

/// Base64 as OpenSSL writes it: 64 characters a line, each line ended by a newline (with
/// `-A`: one line without a newline, as OpenSSL writes it).
struct Base64Writer {
    pending: Vec<u8>,
    one_line: bool,
}

impl Base64Writer {
    /// Bytes encoded at a time: one line (48 bytes = 64 characters), or with `-A` a
    /// multiple of 3 bytes.
    fn unit(&self) -> usize {
        if self.one_line {
            3 << 12
        } else {
            48
        }
    }

    /// Encodes whole units of `pending` into `out`.
    fn encode(&mut self, all: bool, out: &mut Vec<u8>) {
        let unit = self.unit();
        let n = if all {
            self.pending.len()
        } else {
            self.pending.len() / unit * unit
        };
        for chunk in self.pending[..n].chunks(unit) {
            let start = out.len();
            out.resize(start + chunk.len().div_ceil(3) * 4, 0);
            let written = base64::engine::general_purpose::STANDARD
                .encode_slice(chunk, &mut out[start..])
                .expect("sized for the encoding");
            out.truncate(start + written);
            if !self.one_line {
                out.push(b'\n');
            }
        }
        self.pending.drain(..n);
    }
}

impl Sink {
    fn write(&mut self, data: &[u8]) -> Result<(), CliError> {
        match &mut self.base64 {
            None => self.out.write(data),
            Some(b) => {
                b.pending.extend_from_slice(data);
                let mut text = Vec::new();
                b.encode(false, &mut text);
                self.out.write(&text)
            }
        }
    }

    /// Writes what is left and commits the output (see [`Output::commit`]).
    fn finish(mut self) -> Result<(), CliError> {
        if let Some(mut b) = self.base64.take() {
            let mut text = Vec::new();
            b.encode(true, &mut text);
            self.out.write(&text)?;
        }
        self.out.commit()
    }
}

/// Reads base64 (any line length, white space ignored) and returns the bytes it encodes;
/// an `InvalidData` error for anything else.
struct Base64Reader<R> {
    inner: R,
    /// Base64 characters not decoded yet (less than a quantum, or a read's worth).
    text: Vec<u8>,
    /// Decoded bytes not returned yet.
    bytes: Vec<u8>,
    at: usize,
    done: bool,
}

impl<R: Read> Base64Reader<R> {
    fn new(inner: R) -> Self {
        Base64Reader {
            inner,
            text: Vec::new(),
            bytes: Vec::new(),
            at: 0,
            done: false,
        }
    }

    fn decode(&mut self, all: bool) -> io::Result<()> {
        use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
        const LAX: GeneralPurpose = GeneralPurpose::new(
            &base64::alphabet::STANDARD,
            GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
        );
        let n = if all {
            self.text.len()
        } else {
            self.text.len() / 4 * 4
        };
        self.bytes.clear();
        self.at = 0;
        LAX.decode_vec(&self.text[..n], &mut self.bytes)
            .map_err(|e| {
                io::Error::new(io::ErrorKind::InvalidData, format!("not base64 (-a): {e}"))
            })?;
        self.text.drain(..n);
        Ok(())
    }
}

impl<R: Read> Read for Base64Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.bytes.len() && !self.done {
            let mut chunk = [0u8; 1 << 14];
            let n = match self.inner.read(&mut chunk) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            self.text
                .extend(chunk[..n].iter().filter(|b| !b.is_ascii_whitespace()));
            if n == 0 {
                self.done = true;
            }
            self.decode(self.done)?;
        }
        let n = buf.len().min(self.bytes.len() - self.at);
        buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Reads the whole input into memory, at most `limit` bytes (else an error naming
/// `what`); memory that cannot be had is an error too, not an abort.
fn read_all(r: &mut dyn Read, limit: u64, what: &str) -> Result<Vec<u8>, CliError> {
    let mut v: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; CHUNK];
    loop {
        let n = read_full(r, &mut chunk)?;
        if n == 0 {
            return Ok(v);
        }
        if (v.len() + n) as u64 > limit {
            zeroize_vec(&mut v);
            return Err(fail(format!(
                "the input is longer than {limit} bytes, the most {what} takes"
            )));
        }
        if v.capacity() - v.len() < n {
            let want = (v.capacity() * 2).max(v.len() + n);
            let want = want.min(limit as usize);
            // Grow by hand so that the old buffer, which may hold plaintext, is wiped.
            let mut bigger: Vec<u8> = Vec::new();
            bigger.try_reserve_exact(want).map_err(|_| {
                fail(format!(
                    "cannot hold the input in memory ({} bytes read so far)",
                    v.len() + n
                ))
            })?;
            bigger.extend_from_slice(&v);
            zeroize_vec(&mut v);
            v = bigger;
        }
        v.extend_from_slice(&chunk[..n]);
    }
}

fn run_stream(
    o: &Options,
    mut s: Box<dyn Streamer>,
    r: &mut dyn Read,
    w: &mut Sink,
) -> Result<(), CliError> {
    let mut inbuf = vec![0u8; CHUNK];
    let mut outbuf = vec![0u8; CHUNK + 2 * MAX_BLOCK];
    let result = (|| {
        loop {
            let n = read_full(r, &mut inbuf)?;
            if n == 0 {
                break;
            }
            let m = s
                .update(&inbuf[..n], &mut outbuf)
                .map_err(|e| crypt_error(o, e))?;
            w.write(&outbuf[..m])?;
        }
        let m = s.finish(&mut outbuf).map_err(|e| crypt_error(o, e))?;
        w.write(&outbuf[..m])
    })();
    zeroize_vec(&mut inbuf);
    zeroize_vec(&mut outbuf);
    result
}

fn run_gcm(o: &Options, r: &mut dyn Read, w: &mut Sink) -> Result<(), CliError> {
    let gcm = AesGcm::new_from_slice(&o.key).map_err(|e| crypt_error(o, e))?;
    if !o.decrypt {
        let mut e = gcm.encryptor(&o.iv).map_err(|e| crypt_error(o, e))?;
        e.update_aad(&o.aad).map_err(|e| crypt_error(o, e))?;
        let mut buf = vec![0u8; CHUNK];
        let result = (|| {
            loop {
                let n = read_full(r, &mut buf)?;
                if n == 0 {
                    break;
                }
                e.encrypt(&mut buf[..n]).map_err(|e| crypt_error(o, e))?;
                w.write(&buf[..n])?;
            }
            w.write(e.finalize().as_bytes())
        })();
        zeroize_vec(&mut buf);
        return result;
    }
    // Decrypting: the tag is the last 16 bytes, and nothing may be released before it is
    // checked, so the whole input is read first.
    let mut data = read_all(r, GCM_MAX_SEALED, &o.name)?;
    if data.len() < TAG_LEN {
        return Err(fail(format!(
            "{}: input is {} bytes, shorter than the {TAG_LEN}-byte tag; nothing written",
            o.name,
            data.len()
        )));
    }
    let ct_len = data.len() - TAG_LEN;
    let (ct, tag) = data.split_at_mut(ct_len);
    let r = gcm.open_in_place(&o.iv, &o.aad, ct, tag);
    let result = match r {
        Ok(()) => w.write(ct),
        Err(e) => Err(crypt_error(o, e)),
    };
    zeroize_vec(&mut data);
    result
}

fn run_xts(o: &Options, r: &mut dyn Read, w: &mut Sink) -> Result<(), CliError> {
    let (k1, k2) = o.key.split_at(o.cipher_key_len);
    let xts = Aes::new_from_slice(k1)
        .and_then(|a| Xts::new(a, Aes::new_from_slice(k2)?))
        .map_err(|e| crypt_error(o, e))?;
    let tweak: [u8; 16] = o.iv[..].try_into().expect("tweak length checked");
    let mut data = read_all(r, shyfr::mode::xts::MAX_UNIT_LEN as u64, &o.name)?;
    if data.len() < BLOCK {
        return Err(fail(format!(
            "{}: input is {} bytes; XTS needs at least 16",
            o.name,
            data.len()
        )));
    }
    let res = if o.decrypt {
        xts.decrypt(&tweak, &mut data)
    } else {
        xts.encrypt(&tweak, &mut data)
    };
    let result = match res {
        Ok(()) => w.write(&data),
        Err(e) => Err(crypt_error(o, e)),
    };
    zeroize_vec(&mut data);
    result
}

/// Runs `shyfr enc`.
pub fn run(args: &EncArgs) -> Result<(), CliError> {
    let o = match parse(&args.args)? {
        Parsed::Help => return stdio::emit(HELP),
        Parsed::List => return stdio::emit(&(cipher_list().replace(' ', "\n") + "\n")),
        Parsed::Run(o) => o,
    };
    // Key, IV and cipher are checked before any file is touched.
    let s = match o.mode {
        Mode::Gcm | Mode::Xts => None,
        _ => Some(stream(&o).map_err(|e| crypt_error(&o, e))?),
    };
    INPUT_NAME.with(|n| *n.borrow_mut() = input_name(&o));
    let mut w = open_output(&o)?;
    let mut r = open_input(&o)?;
    match (o.mode, s) {
        (Mode::Gcm, _) => run_gcm(&o, &mut *r, &mut w)?,
        (Mode::Xts, _) => run_xts(&o, &mut *r, &mut w)?,
        (_, Some(s)) => run_stream(&o, s, &mut *r, &mut w)?,
        (_, None) => return Err(fail("internal: no key for a streaming mode")),
    }
    // Only now, everything having succeeded, does the output file appear.
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<std::ffi::OsString> {
        s.split_whitespace().map(std::ffi::OsString::from).collect()
    }

    #[test]
    fn cipher_names() {
        let c = |s: &str| cipher_by_name(s).map(|(m, _, k)| (m, k));
        assert_eq!(c("-aes-256-cbc"), Some((Mode::Cbc, 32)));
        assert_eq!(c("-aes-192-cfb8"), Some((Mode::Cfb8, 24)));
        assert_eq!(c("-aes-128-xts"), Some((Mode::Xts, 16)));
        assert_eq!(c("-aes-192-xts"), None);
        assert_eq!(c("-aes-512-cbc"), None);
        assert_eq!(c("-des-cbc"), None);
        assert_eq!(c("-des-ede3-cbc"), Some((Mode::Cbc, 24)));
        assert_eq!(c("-gost28147-cfb"), Some((Mode::Cfb, 32)));
        assert_eq!(c("-gost28147-mac"), None);
        assert_eq!(c("-kalyna-256-512-ofb"), Some((Mode::Ofb, 64)));
        assert_eq!(c("-kalyna-128-128-xts"), None);
        let (_, cipher, _) = cipher_by_name("-kalyna-512-512-ctr").unwrap();
        assert_eq!(
            cipher,
            Cipher::Kalyna {
                block: 512,
                key: 512
            }
        );
        assert_eq!(cipher.block_len(), 64);
        assert_eq!(cipher.padding(), Padding::Iso7816);
    }

    #[test]
    fn strict_lengths() {
        let k = "00".repeat(16);
        let ok = parse(&args(&format!("-aes-128-cbc -K {k} -iv {k}")));
        assert!(matches!(ok, Ok(Parsed::Run(_))));
        for bad in [
            format!("-aes-128-cbc -K {k}0 -iv {k}"),
            format!("-aes-128-cbc -K 00 -iv {k}"),
            format!("-aes-128-cbc -K {k} -iv 00"),
            format!("-aes-128-cbc -K {k}"),
            format!("-aes-128-cbc -iv {k}"),
            format!("-aes-128-xts -K {k} -iv {k}"),
            format!("-aes-128-cbc -K {k} -iv {k} -aad 00"),
            format!("-aes-128-gcm -K {k} -iv zz"),
            "-K 00".to_string(),
        ] {
            assert!(
                matches!(parse(&args(&bad)), Err(CliError::Usage(_))),
                "{bad}"
            );
        }
    }
}
