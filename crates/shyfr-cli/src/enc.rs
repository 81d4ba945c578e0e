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
//! Every other mode streams: the input is read in chunks and memory use does not grow with
//! its size. As with OpenSSL, a CBC or ECB decryption that ends in a bad padding has already
//! written the blocks before the last one (exit status 1 says the output is not to be used). Exit status: 0 on success, 1 when encryption or decryption fails (bad padding,
//! bad tag, input not whole blocks with `-nopad`, I/O), 2 for usage errors.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};

use shyfr::aead::gcm::AesGcm;
use shyfr::mode::cbc::{CbcDecryptor, CbcEncryptor};
use shyfr::mode::cfb::{CfbDecryptor, CfbEncryptor, Segment};
use shyfr::mode::ctr::Ctr;
use shyfr::mode::ecb::Ecb;
use shyfr::mode::ofb::Ofb;
use shyfr::mode::xts::Xts;
use shyfr::pad::Padding;
use shyfr::{Aes, BlockCipher, Error};

use crate::CliError;

/// Bytes read from the input at a time: large enough that the library's multi-core bulk
/// paths (from [`shyfr::mode::PARALLEL_MIN_LEN`]) split each chunk across the cores.
const CHUNK: usize = 4 * shyfr::mode::PARALLEL_MIN_LEN;
/// AES block length.
const BLOCK: usize = 16;
/// GCM tag length (appended to the ciphertext).
const TAG_LEN: usize = 16;

/// Encrypt or decrypt with AES and a raw key, like `openssl enc` (`shyfr enc -help`).
#[derive(clap::Args, Debug)]
#[command(disable_help_flag = true)]
pub struct EncArgs {
    /// OpenSSL-style options: -aes-256-cbc -K HEX -iv HEX [-d] [-nopad] [-aad HEX]
    /// [-in FILE] [-out FILE]; `shyfr enc -help` lists them all.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    args: Vec<String>,
}

/// The help text for `shyfr enc -help`.
const HELP: &str = "\
Usage: shyfr enc -CIPHER -K HEX [-iv HEX] [-e | -d] [-nopad] [-aad HEX] [-in FILE] [-out FILE]

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
  -aad HEX      GCM only: additional authenticated data
  -in FILE      read from FILE (default: standard input)
  -out FILE     write to FILE (default: standard output)
  -help         this text

Exit status: 0 success; 1 failure (bad decrypt, bad tag, not whole blocks, I/O); 2 usage.
";

/// The block mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Ecb,
    Cbc,
    Cfb,
    Cfb8,
    Ofb,
    Ctr,
    Gcm,
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
    input: Option<String>,
    output: Option<String>,
}

/// The cipher names, for error messages.
fn cipher_list() -> String {
    let mut v = Vec::new();
    for m in ["ecb", "cbc", "cfb", "cfb8", "ofb", "ctr", "gcm"] {
        for k in [128, 192, 256] {
            v.push(format!("-aes-{k}-{m}"));
        }
    }
    v.push("-aes-128-xts".into());
    v.push("-aes-256-xts".into());
    v.join(" ")
}

/// `-aes-256-cbc` -> (mode, key length in bytes).
fn cipher_by_name(arg: &str) -> Option<(Mode, usize)> {
    let rest = arg.strip_prefix("-aes-")?;
    let (bits, mode) = rest.split_once('-')?;
    let klen = match bits {
        "128" => 16,
        "192" => 24,
        "256" => 32,
        _ => return None,
    };
    let mode = match mode {
        "ecb" => Mode::Ecb,
        "cbc" => Mode::Cbc,
        "cfb" | "cfb128" => Mode::Cfb,
        "cfb8" => Mode::Cfb8,
        "ofb" => Mode::Ofb,
        "ctr" => Mode::Ctr,
        "gcm" => Mode::Gcm,
        "xts" if klen != 24 => Mode::Xts,
        _ => return None,
    };
    Some((mode, klen))
}

fn usage(msg: impl Into<String>) -> CliError {
    CliError::Usage(format!("enc: {}", msg.into()))
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

/// What `parse` found: run with these options, or print the help.
enum Parsed {
    Run(Box<Options>),
    Help,
}

/// Reads OpenSSL-style arguments.
fn parse(args: &[String]) -> Result<Parsed, CliError> {
    let mut cipher: Option<(String, Mode, usize)> = None;
    let (mut decrypt, mut nopad) = (false, false);
    let (mut key, mut iv, mut aad) = (None, None, None);
    let (mut input, mut output) = (None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| usage(format!("{name} needs a value")))
        };
        match a.as_str() {
            "-help" | "--help" | "-h" => return Ok(Parsed::Help),
            "-e" => decrypt = false,
            "-d" => decrypt = true,
            "-nopad" => nopad = true,
            "-K" => key = Some(value("-K")?),
            "-iv" => iv = Some(value("-iv")?),
            "-aad" => aad = Some(value("-aad")?),
            "-in" => input = Some(value("-in")?),
            "-out" => output = Some(value("-out")?),
            "--cpu" => {
                let spec = value("--cpu")?;
                crate::apply_cpu_override(Some(&spec))?;
            }
            s if s.starts_with("--cpu=") => {
                crate::apply_cpu_override(Some(&s["--cpu=".len()..]))?;
            }
            "-k" | "-pass" | "-kfile" | "-pbkdf2" | "-salt" | "-S" | "-md" | "-iter" => {
                return Err(usage(format!(
                    "{a}: password-based keys are not supported; give the key with -K HEX"
                )))
            }
            s if s.starts_with("-aes") => {
                let (mode, klen) = cipher_by_name(s).ok_or_else(|| {
                    usage(format!(
                        "unknown cipher {s}; valid ciphers: {}",
                        cipher_list()
                    ))
                })?;
                if cipher.is_some() {
                    return Err(usage(format!("{s}: only one cipher may be given")));
                }
                cipher = Some((s.to_string(), mode, klen));
            }
            s => {
                return Err(usage(format!(
                    "unknown option {s:?}; options: -CIPHER -K HEX -iv HEX -e -d -nopad \
                     -aad HEX -in FILE -out FILE -help; ciphers: {}",
                    cipher_list()
                )))
            }
        }
    }
    let (name, mode, klen) = cipher.ok_or_else(|| {
        usage(format!(
            "no cipher given; one of: {} (shyfr enc -help)",
            cipher_list()
        ))
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
            eprintln!("warning: -iv is not used by {name}");
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
        input,
        output,
    })))
}

/// A runtime failure with a message.
fn fail(msg: impl Into<String>) -> CliError {
    CliError::Runtime(msg.into())
}

/// The message for a library error while en/decrypting.
fn crypt_error(o: &Options, e: Error) -> CliError {
    match e {
        Error::BadPadding => fail("bad decrypt (wrong key, IV or corrupt input)"),
        Error::AuthenticationFailed => {
            fail("bad decrypt: GCM tag does not verify (wrong key, nonce, AAD or corrupt input); nothing written")
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
    if e.kind() == io::ErrorKind::BrokenPipe {
        CliError::Runtime(String::new())
    } else {
        fail(format!("{what}: {e}"))
    }
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full(r: &mut dyn Read, buf: &mut [u8]) -> Result<usize, CliError> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(io_error("cannot read input", e)),
        }
    }
    Ok(n)
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

fn open_input(o: &Options) -> Result<Box<dyn Read>, CliError> {
    Ok(match o.input.as_deref() {
        None | Some("-") => Box::new(io::stdin().lock()),
        Some(p) => Box::new(File::open(p).map_err(|e| fail(format!("cannot open {p}: {e}")))?),
    })
}

/// Opens (creating or truncating, like OpenSSL) the output before anything is read, so a
/// stale file from an earlier run never passes for this run's result.
fn open_output(o: &Options) -> Result<Box<dyn Write>, CliError> {
    Ok(match o.output.as_deref() {
        None | Some("-") => Box::new(BufWriter::with_capacity(CHUNK, io::stdout().lock())),
        Some(p) => Box::new(BufWriter::with_capacity(
            CHUNK,
            File::create(p).map_err(|e| fail(format!("cannot create {p}: {e}")))?,
        )),
    })
}

fn write_out(w: &mut dyn Write, data: &[u8]) -> Result<(), CliError> {
    w.write_all(data)
        .map_err(|e| io_error("cannot write output", e))
}

fn read_all(r: &mut dyn Read) -> Result<Vec<u8>, CliError> {
    let mut v = Vec::new();
    r.read_to_end(&mut v)
        .map_err(|e| io_error("cannot read input", e))?;
    Ok(v)
}

fn run_stream(o: &Options, aes: Aes, r: &mut dyn Read, w: &mut dyn Write) -> Result<(), CliError> {
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
            write_out(w, &outbuf[..m])?;
        }
        let m = s.finish(&mut outbuf).map_err(|e| crypt_error(o, e))?;
        write_out(w, &outbuf[..m])
    })();
    zeroize_vec(&mut inbuf);
    zeroize_vec(&mut outbuf);
    result
}

fn run_gcm(o: &Options, r: &mut dyn Read, w: &mut dyn Write) -> Result<(), CliError> {
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
                write_out(w, &buf[..n])?;
            }
            write_out(w, e.finalize().as_bytes())
        })();
        zeroize_vec(&mut buf);
        return result;
    }
    // Decrypting: the tag is the last 16 bytes, and nothing may be released before it is
    // checked, so the whole input is read first.
    let mut data = read_all(r)?;
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
        Ok(()) => write_out(w, ct),
        Err(e) => Err(crypt_error(o, e)),
    };
    zeroize_vec(&mut data);
    result
}

fn run_xts(o: &Options, r: &mut dyn Read, w: &mut dyn Write) -> Result<(), CliError> {
    let (k1, k2) = o.key.split_at(o.aes_key_len);
    let xts = Aes::new_from_slice(k1)
        .and_then(|a| Xts::new(a, Aes::new_from_slice(k2)?))
        .map_err(|e| crypt_error(o, e))?;
    let tweak: [u8; 16] = o.iv[..].try_into().expect("tweak length checked");
    let mut data = read_all(r)?;
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
        Ok(()) => write_out(w, &data),
        Err(e) => Err(crypt_error(o, e)),
    };
    zeroize_vec(&mut data);
    result
}

/// Runs `shyfr enc`.
pub fn run(args: &EncArgs) -> Result<(), CliError> {
    let o = match parse(&args.args)? {
        Parsed::Help => return crate::emit(HELP),
        Parsed::Run(o) => o,
    };
    // Key, IV and cipher are checked before any file is touched.
    let aes = match o.mode {
        Mode::Gcm | Mode::Xts => None,
        _ => Some(Aes::new_from_slice(&o.key).map_err(|e| crypt_error(&o, e))?),
    };
    debug_assert_eq!(Aes::BLOCK_LEN, BLOCK);
    let mut r = open_input(&o)?;
    let mut w = open_output(&o)?;
    match (o.mode, aes) {
        (Mode::Gcm, _) => run_gcm(&o, &mut *r, &mut *w)?,
        (Mode::Xts, _) => run_xts(&o, &mut *r, &mut *w)?,
        (_, Some(aes)) => run_stream(&o, aes, &mut *r, &mut *w)?,
        (_, None) => unreachable!("aes set for streaming modes"),
    }
    w.flush().map_err(|e| io_error("cannot write output", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
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
