//! Secrets for `shyfr encrypt` / `decrypt`: passphrases (from a file descriptor, the
//! environment, or a prompt on the terminal without echo) and key files.

use std::io::Read;
use std::path::Path;

use zeroize::Zeroizing;

use super::Fail;

/// The environment variable a passphrase may come from (for scripts).
pub const PASSPHRASE_ENV: &str = "SHYFR_PASSPHRASE";
/// The longest passphrase accepted, in bytes.
const MAX_PASSPHRASE: usize = 64 << 10;
/// The key line's prefix in a key file.
const KEY_PREFIX: &str = "shyfr-key-v1 ";
/// A key file's key length.
pub const KEY_LEN: usize = 32;

/// A passphrase: from `--passphrase-fd N` (its first line), else `SHYFR_PASSPHRASE`, else
/// asked on the terminal without echo (twice with `confirm`).
pub fn passphrase(fd: Option<u32>, confirm: bool) -> Result<Zeroizing<String>, Fail> {
    let p = if let Some(fd) = fd {
        from_fd(fd)?
    } else if let Some(v) = std::env::var_os(PASSPHRASE_ENV) {
        Zeroizing::new(
            v.into_string()
                .map_err(|_| Fail::usage(PASSPHRASE_ENV, "the passphrase is not valid UTF-8"))?,
        )
    } else {
        let first = prompt("Passphrase: ")?;
        if confirm {
            if first.is_empty() {
                return Err(Fail::run("passphrase", "empty passphrase refused"));
            }
            let again = prompt("Passphrase (again): ")?;
            if *first != *again {
                return Err(Fail::run("passphrase", "the passphrases do not match"));
            }
        }
        first
    };
    if p.is_empty() {
        return Err(Fail::run("passphrase", "empty passphrase refused"));
    }
    Ok(p)
}

fn prompt(text: &str) -> Result<Zeroizing<String>, Fail> {
    rpassword::prompt_password(format!("shyfr: {text}"))
        .map(Zeroizing::new)
        .map_err(|e| {
            Fail::run(
                "passphrase",
                format!(
                    "cannot ask on the terminal ({e}); use --passphrase-fd N, \
                     {PASSPHRASE_ENV} or --key-file"
                ),
            )
        })
}

/// The first line of file descriptor `fd` (read through `/dev/fd/N`), without its line end.
fn from_fd(fd: u32) -> Result<Zeroizing<String>, Fail> {
    let ctx = format!("--passphrase-fd {fd}");
    let mut f = std::fs::File::open(format!("/dev/fd/{fd}"))
        .map_err(|e| Fail::usage(&ctx, format!("cannot read it: {e}")))?;
    let mut buf = Zeroizing::new(Vec::new());
    (&mut f)
        .take(MAX_PASSPHRASE as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| Fail::run(&ctx, format!("cannot read it: {e}")))?;
    let line_end = buf.iter().position(|&b| b == b'\n').unwrap_or(buf.len());
    if line_end > MAX_PASSPHRASE {
        return Err(Fail::run(&ctx, "passphrase longer than 64 KiB"));
    }
    let mut line = &buf[..line_end];
    if let [rest @ .., b'\r'] = line {
        line = rest;
    }
    let s = std::str::from_utf8(line)
        .map_err(|_| Fail::run(&ctx, "the passphrase is not valid UTF-8"))?;
    Ok(Zeroizing::new(s.to_string()))
}

/// Reads a key file: 32 bytes.
pub fn read_key_file(path: &Path) -> Result<Zeroizing<[u8; KEY_LEN]>, Fail> {
    let ctx = path.display().to_string();
    let meta = std::fs::metadata(path)
        .map_err(|e| Fail::run(&ctx, format!("cannot read key file: {e}")))?;
    if meta.len() > 4096 {
        return Err(Fail::run(&ctx, "not a shyfr key file (too long)"));
    }
    let text = Zeroizing::new(
        std::fs::read(path).map_err(|e| Fail::run(&ctx, format!("cannot read key file: {e}")))?,
    );
    parse_key(&text).ok_or_else(|| Fail::run(&ctx, "not a shyfr key file"))
}

/// The key of a key file's text, or `None`.
pub fn parse_key(text: &[u8]) -> Option<Zeroizing<[u8; KEY_LEN]>> {
    let text = std::str::from_utf8(text).ok()?;
    let mut key = None;
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let hex_digits = line.strip_prefix(KEY_PREFIX)?;
        if key.is_some() || hex_digits.len() != 2 * KEY_LEN {
            return None;
        }
        let mut k = Zeroizing::new([0u8; KEY_LEN]);
        hex::decode_to_slice(hex_digits, &mut k[..]).ok()?;
        if hex_digits.bytes().any(|b| b.is_ascii_uppercase()) {
            return None;
        }
        key = Some(k);
    }
    key
}

/// A new key file's text, for a fresh random key.
pub fn new_key_file() -> Result<Zeroizing<String>, Fail> {
    let mut k = Zeroizing::new([0u8; KEY_LEN]);
    getrandom::fill(&mut k[..])
        .map_err(|e| Fail::run("keygen", format!("no random numbers from the system: {e}")))?;
    let hex_key = Zeroizing::new(hex::encode(&k[..]));
    Ok(Zeroizing::new(format!(
        "# shyfr key file: keep it secret. Use: shyfr encrypt --key-file FILE\n{KEY_PREFIX}{}\n",
        hex_key.as_str()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_files() {
        let t = new_key_file().unwrap();
        let k = parse_key(t.as_bytes()).unwrap();
        assert_ne!(*k, [0u8; 32]);
        let line = format!("{KEY_PREFIX}{}", "ab".repeat(32));
        assert_eq!(*parse_key(line.as_bytes()).unwrap(), [0xab; 32]);
        assert_eq!(
            *parse_key(format!("# c\n\n{line}\r\n").as_bytes()).unwrap(),
            [0xab; 32]
        );
        for bad in [
            String::new(),
            "# only a comment\n".to_string(),
            format!("{KEY_PREFIX}{}", "ab".repeat(31)),
            format!("{KEY_PREFIX}{}", "AB".repeat(32)),
            format!("{KEY_PREFIX}{}", "zz".repeat(32)),
            format!("{line}\n{line}\n"),
            format!("{line}\nextra\n"),
            "age-secret-key-1abc\n".to_string(),
        ] {
            assert!(parse_key(bad.as_bytes()).is_none(), "{bad:?}");
        }
    }
}
