//! `shyfr enc`: raw-key AES encryption, byte-compatible with `openssl enc -K HEX -iv HEX`.
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
//! Every other mode streams: the input is read in chunks and memory use does not grow with
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
use shyfr::mode::cbc::{CbcDecryptor, CbcEncryptor};
use shyfr::mode::cfb::{CfbDecryptor, CfbEncryptor, Segment};
use shyfr::mode::ctr::Ctr;
use shyfr::mode::ecb::Ecb;
use shyfr::mode::ofb::Ofb;
use shyfr::mode::xts::Xts;
use shyfr::pad::Padding;
use shyfr::{Aes, BlockCipher, Error};

use crate::algorithms;
use crate::output::{self, Output};
use crate::report::{self, io_text, shown, CliError};
use crate::stdio;

/// Bytes read from the input at a time: large enough that the library's multi-core bulk
/// paths (from [`shyfr::mode::PARALLEL_MIN_LEN`]) split each chunk across the cores.
const CHUNK: usize = 4 * shyfr::mode::PARALLEL_MIN_LEN;
/// AES block length.
const BLOCK: usize = 16;
/// GCM tag length (appended to the ciphertext).
const TAG_LEN: usize = 16;
/// The longest GCM input to decrypt: the longest GCM message (2^36 - 32 bytes, SP 800-38D)
/// and its tag.
const GCM_MAX_SEALED: u64 = (1 << 36) - 32 + TAG_LEN as u64;

/// Encrypt or decrypt with AES and a raw key, like `openssl enc` (`shyfr enc -help`).
#[derive(clap::Args, Debug)]
#[command(disable_help_flag = true)]
pub struct EncArgs {
    /// OpenSSL-style options: -aes-256-cbc -K HEX -iv HEX [-d] [-nopad] [-a] [-aad HEX]
    /// [-in FILE] [-out FILE]; `shyfr enc -help` lists them all.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    #[arg(value_parser = clap::value_parser!(std::ffi::OsString))]
    args: Vec<std::ffi::OsString>,
}

/// The help text for `shyfr enc -help`.
const HELP: &str = "\
Usage: shyfr enc -CIPHER -K HEX [-iv HEX] [-e | -d] [-nopad] [-a [-A]] [-aad HEX]
                 [-in FILE] [-out FILE]
       shyfr enc -list

Encrypt or decrypt with AES and a raw key; byte-compatible with `openssl enc` for the same
options (the -K/-iv form: no passwords, no salt).

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

Options:
  -e            encrypt (the default)
  -d            decrypt
  -K HEX        the key, exactly 32/48/64 hex digits for AES-128/192/256 (XTS: twice that,
                K1 || K2). Unlike OpenSSL, a short key is NOT padded with zeros: it is refused.
  -iv HEX       the IV, exactly 32 hex digits (GCM: the nonce, any non-empty length,
                12 bytes = 24 hex digits recommended; XTS: the 16-byte tweak). Not padded.
  -nopad        no PKCS#7 padding (ecb, cbc): the input must then be whole 16-byte blocks
  -a, -base64   base64: encrypting, write it (64 characters a line, as OpenSSL); decrypting,
                read it (any line length; anything else than base64 is an error)
  -A            with -a: write the base64 on one line
  -aad HEX      GCM only: additional authenticated data
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
    /// ECB, PKCS#7 padding unless `-nopad`.
    Ecb,
    /// CBC, PKCS#7 padding unless `-nopad`.
    Cbc,
    /// CFB-128.
    Cfb,
    /// CFB-8.
    Cfb8,
    /// OFB.
    Ofb,
    /// CTR with a 128-bit big-endian counter that wraps.
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
    fn pads(self) -> bool {
        matches!(self, Mode::Ecb | Mode::Cbc)
    }
}

/// What the command line asks for.
#[derive(Debug)]
struct Options {
    /// `-aes-256-cbc` and so on, as given.
    name: String,
    mode: Mode,
    /// AES key length in bytes (16, 24, 32).
    aes_key_len: usize,
    decrypt: bool,
    nopad: bool,
    key: Vec<u8>,
    iv: Vec<u8>,
    aad: Vec<u8>,
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

/// `-aes-256-cbc` -> (mode, AES key length in bytes), from the table (`cfb128` is another
/// name for `cfb`, as in OpenSSL).
fn cipher_by_name(arg: &str) -> Option<(Mode, usize)> {
    let name = arg.strip_prefix('-')?;
    let name = match name.strip_suffix("-cfb128") {
        Some(base) => format!("{base}-cfb"),
        None => name.to_string(),
    };
    let row = algorithms::find(&name).filter(|a| a.name == name)?;
    let mode = row.enc?;
    let klen = if mode == Mode::Xts {
        row.key_len / 2
    } else {
        row.key_len
    };
    Some((mode, klen))
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
    let mut cipher: Option<(String, Mode, usize)> = None;
    let (mut decrypt, mut nopad, mut base64, mut one_line) = (false, false, false, false);
    let (mut key, mut iv, mut aad) = (None, None, None);
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
        // -in and -out take any file name; every other option is text.
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
            s if s.starts_with("-aes") => {
                let (mode, klen) = cipher_by_name(s).ok_or_else(|| {
                    usage(format!(
                        "unknown cipher {s} (shyfr enc -list names the ciphers)"
                    ))
                })?;
                if cipher.is_some() {
                    return Err(usage(format!("{s}: only one cipher may be given")));
                }
                cipher = Some((s.to_string(), mode, klen));
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
    let (name, mode, klen) = cipher.ok_or_else(|| {
        usage("no cipher given, e.g. -aes-256-cbc (shyfr enc -list names the ciphers)")
    })?;
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
            Some(BLOCK),
            &format!("{name} takes a 16-byte IV"),
        )?,
        (m, None) => {
            debug_assert!(m.takes_iv());
            let what = if m == Mode::Gcm {
                "a nonce (24 hex digits recommended)"
            } else {
                "an IV of 32 hex digits"
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
    Ok(Parsed::Run(Box::new(Options {
        name,
        mode,
        aes_key_len: klen,
        decrypt,
        nopad,
        key,
        iv,
        aad,
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
            "{}: input is not a whole number of 16-byte blocks ({len} bytes left over){}",
            o.name,
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
enum Stream {
    CbcEnc(CbcEncryptor<Aes>),
    CbcDec(CbcDecryptor<Aes>),
    /// ECB has no streaming type in the library: whole blocks go straight through and the
    /// rest (or, decrypting with padding, the last block) waits in `carry`.
    Ecb {
        ecb: Ecb<Aes>,
        decrypt: bool,
        padding: Padding,
        carry: Vec<u8>,
    },
    CfbEnc(CfbEncryptor<Aes>),
    CfbDec(CfbDecryptor<Aes>),
    Ofb(Ofb<Aes>),
    /// The library refuses to let a counter wrap; OpenSSL wraps the 128-bit counter to 0,
    /// so at the wrap a fresh `Ctr` from the all-zero counter block takes over.
    Ctr {
        ctr: Ctr<Aes>,
        /// The key for the `Ctr` after the wrap (boxed: a keyed `Aes` is large).
        aes: Box<Aes>,
        iv: u128,
    },
}

impl Stream {
    fn new(o: &Options, aes: Aes) -> Result<Self, Error> {
        let padding = if o.nopad || !o.mode.pads() {
            Padding::None
        } else {
            Padding::Pkcs7
        };
        let seg = if o.mode == Mode::Cfb8 {
            Segment::Byte
        } else {
            Segment::Block
        };
        Ok(match (o.mode, o.decrypt) {
            (Mode::Cbc, false) => Stream::CbcEnc(CbcEncryptor::new(aes, &o.iv, padding)?),
            (Mode::Cbc, true) => Stream::CbcDec(CbcDecryptor::new(aes, &o.iv, padding)?),
            (Mode::Ecb, decrypt) => Stream::Ecb {
                ecb: Ecb::new(aes),
                decrypt,
                padding,
                carry: Vec::with_capacity(CHUNK + 2 * BLOCK),
            },
            (Mode::Cfb | Mode::Cfb8, false) => {
                Stream::CfbEnc(CfbEncryptor::with_segment(aes, &o.iv, seg)?)
            }
            (Mode::Cfb | Mode::Cfb8, true) => {
                Stream::CfbDec(CfbDecryptor::with_segment(aes, &o.iv, seg)?)
            }
            (Mode::Ofb, _) => Stream::Ofb(Ofb::new(aes, &o.iv)?),
            (Mode::Ctr, _) => Stream::Ctr {
                ctr: Ctr::new(aes.clone(), &o.iv)?,
                aes: Box::new(aes),
                iv: u128::from_be_bytes(o.iv[..].try_into().map_err(|_| {
                    Error::InvalidParameter {
                        what: "ctr iv length",
                    }
                })?),
            },
            (Mode::Gcm | Mode::Xts, _) => {
                return Err(Error::InvalidParameter {
                    what: "not a streaming mode",
                })
            }
        })
    }

    /// Processes `input`; the output for it (possibly less or more, for block modes) is in
    /// `out[..returned]`. `out` holds at least `input.len() + 2 * BLOCK` bytes.
    fn update(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        match self {
            Stream::CbcEnc(s) => s.update_to(input, out),
            Stream::CbcDec(s) => s.update_to(input, out),
            Stream::Ecb {
                ecb,
                decrypt,
                padding,
                carry,
            } => {
                carry.extend_from_slice(input);
                let total = carry.len();
                let mut n = total - total % BLOCK;
                if *decrypt && *padding != Padding::None && n == total && n > 0 {
                    n -= BLOCK; // the last block may be padding
                }
                let out = &mut out[..n];
                if *decrypt {
                    ecb.decrypt_to(&carry[..n], out)?;
                } else {
                    ecb.encrypt_to(&carry[..n], out)?;
                }
                carry.drain(..n);
                Ok(n)
            }
            Stream::CfbEnc(s) => s
                .update_to(input, &mut out[..input.len()])
                .map(|()| input.len()),
            Stream::CfbDec(s) => s
                .update_to(input, &mut out[..input.len()])
                .map(|()| input.len()),
            Stream::Ofb(s) => s
                .apply_keystream_to(input, &mut out[..input.len()])
                .map(|()| input.len()),
            Stream::Ctr { ctr, aes, iv } => {
                let out = &mut out[..input.len()];
                match ctr.apply_keystream_to(input, out) {
                    Err(Error::TooLong { .. }) => {
                        // Keystream bytes left before the counter passes 2^128 - 1.
                        let blocks_left = (!*iv).wrapping_add(1);
                        let left = blocks_left
                            .checked_mul(BLOCK as u128)
                            .and_then(|b| b.checked_sub(ctr.position()))
                            .and_then(|b| usize::try_from(b).ok())
                            .filter(|&b| b < input.len())
                            .ok_or(Error::TooLong {
                                what: "ctr keystream",
                            })?;
                        ctr.apply_keystream_to(&input[..left], &mut out[..left])?;
                        *ctr = Ctr::new(Aes::clone(aes), &[0; BLOCK])?;
                        *iv = 0;
                        ctr.apply_keystream_to(&input[left..], &mut out[left..])?;
                    }
                    r => r?,
                }
                Ok(input.len())
            }
        }
    }

    /// Ends the message: the last output (at most `2 * BLOCK` bytes) goes to `out`.
    fn finish(self, out: &mut [u8]) -> Result<usize, Error> {
        match self {
            Stream::CbcEnc(s) => s.finalize_to(out),
            Stream::CbcDec(s) => s.finalize_to(out),
            Stream::Ecb {
                ecb,
                decrypt,
                padding,
                mut carry,
            } => {
                let len = carry.len();
                let r = if decrypt {
                    if padding == Padding::None {
                        if len != 0 {
                            return Err(Error::NotWholeBlocks { len, block: BLOCK });
                        }
                        Ok(0)
                    } else if len != BLOCK {
                        Err(if len == 0 {
                            Error::BadPadding
                        } else {
                            Error::NotWholeBlocks { len, block: BLOCK }
                        })
                    } else {
                        ecb.decrypt(&mut carry).and_then(|()| {
                            let m = padding.message_len(&carry, BLOCK)?;
                            out[..m].copy_from_slice(&carry[..m]);
                            Ok(m)
                        })
                    }
                } else {
                    carry.resize(len + BLOCK, 0);
                    padding
                        .pad(&mut carry, len, BLOCK)
                        .map(|d| d.len())
                        .and_then(|n| {
                            ecb.encrypt_to(&carry[..n], &mut out[..n])?;
                            Ok(n)
                        })
                };
                zeroize_vec(&mut carry);
                r
            }
            Stream::CfbEnc(_) | Stream::CfbDec(_) | Stream::Ofb(_) | Stream::Ctr { .. } => Ok(0),
        }
    }
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

fn run_stream(o: &Options, aes: Aes, r: &mut dyn Read, w: &mut Sink) -> Result<(), CliError> {
    let mut s = Stream::new(o, aes).map_err(|e| crypt_error(o, e))?;
    let mut inbuf = vec![0u8; CHUNK];
    let mut outbuf = vec![0u8; CHUNK + 2 * BLOCK];
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
    let (k1, k2) = o.key.split_at(o.aes_key_len);
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
    let aes = match o.mode {
        Mode::Gcm | Mode::Xts => None,
        _ => Some(Aes::new_from_slice(&o.key).map_err(|e| crypt_error(&o, e))?),
    };
    debug_assert_eq!(Aes::BLOCK_LEN, BLOCK);
    INPUT_NAME.with(|n| *n.borrow_mut() = input_name(&o));
    let mut w = open_output(&o)?;
    let mut r = open_input(&o)?;
    match (o.mode, aes) {
        (Mode::Gcm, _) => run_gcm(&o, &mut *r, &mut w)?,
        (Mode::Xts, _) => run_xts(&o, &mut *r, &mut w)?,
        (_, Some(aes)) => run_stream(&o, aes, &mut *r, &mut w)?,
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
        assert_eq!(cipher_by_name("-aes-256-cbc"), Some((Mode::Cbc, 32)));
        assert_eq!(cipher_by_name("-aes-192-cfb8"), Some((Mode::Cfb8, 24)));
        assert_eq!(cipher_by_name("-aes-128-xts"), Some((Mode::Xts, 16)));
        assert_eq!(cipher_by_name("-aes-192-xts"), None);
        assert_eq!(cipher_by_name("-aes-512-cbc"), None);
        assert_eq!(cipher_by_name("-des-cbc"), None);
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
