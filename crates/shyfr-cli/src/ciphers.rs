//! The national block ciphers' parameters, chosen at run time for every subcommand: the
//! Kalyna (DSTU 7624:2014) variant a name like `kalyna-256-512-cbc` stands for, and the
//! GOST 28147-89 S-box that `-sbox` / `--sbox` names.
//!
//! Kalyna's five variants are five types in the library ([`shyfr::kalyna`]); the modes are
//! generic over them. [`KalynaVariant`] gives them one constructor from a key slice and a
//! backend, and `for_kalyna!` calls a generic function with the type a
//! (block, key) pair in bits stands for.

use std::ffi::OsStr;
use std::io::Read;

use shyfr::gost28147::Sbox;
use shyfr::kalyna::{
    Backend as KalynaBackend, Kalyna128_128, Kalyna128_256, Kalyna256_256, Kalyna256_512,
    Kalyna512_512,
};
use shyfr::mode::dstu7624::Dstu7624Cipher;
use shyfr::{BlockCipher, Error};

use crate::report::{io_text, shown, CliError};

/// One of the five Kalyna types, with what the command needs to set a key up.
pub trait KalynaVariant:
    Dstu7624Cipher + BlockCipher + Clone + Send + Sync + Sized + 'static
{
    /// Sets `key` up on `backend`: [`Error::InvalidKeyLength`] unless the key is the
    /// variant's length, [`Error::BackendUnavailable`] if the backend cannot run here.
    fn with_backend_slice(key: &[u8], backend: KalynaBackend) -> Result<Self, Error>;
}

macro_rules! variant {
    ($t:ty, $klen:expr) => {
        impl KalynaVariant for $t {
            fn with_backend_slice(key: &[u8], backend: KalynaBackend) -> Result<Self, Error> {
                let key: &[u8; $klen] = key
                    .try_into()
                    .map_err(|_| Error::InvalidKeyLength { got: key.len() })?;
                <$t>::with_backend(key, backend)
            }
        }
    };
}

variant!(Kalyna128_128, 16);
variant!(Kalyna128_256, 32);
variant!(Kalyna256_256, 32);
variant!(Kalyna256_512, 64);
variant!(Kalyna512_512, 64);

/// Calls `f::<K>(args)` with the Kalyna type `K` of `block` and `key` bits, or evaluates
/// `otherwise` for a pair the standard lacks.
macro_rules! for_kalyna {
    ($block:expr, $key:expr, $f:ident($($a:expr),* $(,)?), $otherwise:expr) => {
        match ($block, $key) {
            (128, 128) => $f::<shyfr::kalyna::Kalyna128_128>($($a),*),
            (128, 256) => $f::<shyfr::kalyna::Kalyna128_256>($($a),*),
            (256, 256) => $f::<shyfr::kalyna::Kalyna256_256>($($a),*),
            (256, 512) => $f::<shyfr::kalyna::Kalyna256_512>($($a),*),
            (512, 512) => $f::<shyfr::kalyna::Kalyna512_512>($($a),*),
            _ => $otherwise,
        }
    };
}
pub(crate) use for_kalyna;

/// `kalyna-256-512-cbc` -> (256, 512, "cbc"): block and key bits and the mode, for the
/// five variants of the standard; `None` for any other name.
pub fn kalyna_name(name: &str) -> Option<(usize, usize, &str)> {
    let mut parts = name.strip_prefix("kalyna-")?.splitn(3, '-');
    let block: usize = parts.next()?.parse().ok()?;
    let key: usize = parts.next()?.parse().ok()?;
    let mode = parts.next()?;
    matches!(
        (block, key),
        (128, 128) | (128, 256) | (256, 256) | (256, 512) | (512, 512)
    )
    .then_some((block, key, mode))
}

/// The most bytes read from an S-box file: its largest text form (256 hex digits) with
/// room for white space; anything longer is not an S-box.
const MAX_SBOX_FILE: u64 = 4096;

/// The S-box an `-sbox` / `--sbox` value names: `dke1` (DKE No. 1, the Ukrainian
/// default), `test` (the test S-box of GOST 34.311-95 Annex A), or a file holding a table
/// in one of its byte forms (64 bytes packed, two nibbles a byte, high nibble first; or 128
/// bytes, one nibble a byte; row K1 first), raw or as hex text (128 or 256 hex digits, white
/// space ignored).
///
/// Errors, for `opt` (the option's name): a value that is neither a name nor an existing
/// file, and a file that is not a table (wrong length, rows that are not permutations of
/// 0..15), are usage errors; a file that exists but cannot be read is a failure.
pub fn sbox_arg(opt: &str, value: &OsStr) -> Result<Sbox, CliError> {
    if let Some(s) = value.to_str().and_then(Sbox::from_name) {
        return Ok(s);
    }
    let path = std::path::Path::new(value);
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(CliError::Usage(format!(
                "{opt} '{}': not an S-box name (dke1, test) nor an existing file",
                shown(value)
            )))
        }
        Err(e) => {
            return Err(CliError::Failure(format!(
                "{opt}: cannot read '{}': {}",
                shown(value),
                io_text(&e)
            )))
        }
    };
    let cannot = |e: &std::io::Error| {
        CliError::Failure(format!(
            "{opt}: cannot read '{}': {}",
            shown(value),
            io_text(e)
        ))
    };
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(cannot(&crate::report::is_a_directory()));
    }
    let mut bytes = Vec::new();
    file.take(MAX_SBOX_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| cannot(&e))?;
    sbox_from_file_bytes(&bytes).map_err(|why| {
        CliError::Usage(format!(
            "{opt} '{}': not a GOST 28147-89 S-box: {why}",
            shown(value)
        ))
    })
}

/// An S-box from the contents of a file (see [`sbox_arg`]), or why not.
fn sbox_from_file_bytes(bytes: &[u8]) -> Result<Sbox, String> {
    if bytes.len() as u64 > MAX_SBOX_FILE {
        return Err(format!("the file is longer than {MAX_SBOX_FILE} bytes"));
    }
    let text: Vec<u8> = bytes
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    let hex_text = matches!(text.len(), 128 | 256) && text.iter().all(u8::is_ascii_hexdigit);
    let table = if hex_text {
        hex::decode(&text).map_err(|e| e.to_string())?
    } else {
        bytes.to_vec()
    };
    match table.len() {
        Sbox::PACKED_LEN | Sbox::EXPANDED_LEN => {}
        n => {
            return Err(format!(
                "{n} bytes; expected 64 (packed) or 128 (one nibble a byte), raw or as 128 \
                 or 256 hex digits"
            ))
        }
    }
    Sbox::from_bytes(&table).map_err(|e| match e {
        Error::InvalidParameter { what } => what
            .strip_prefix("gost28147 s-box: ")
            .unwrap_or(what)
            .to_string(),
        e => e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kalyna_names() {
        assert_eq!(kalyna_name("kalyna-128-128-ecb"), Some((128, 128, "ecb")));
        assert_eq!(kalyna_name("kalyna-512-512-gmac"), Some((512, 512, "gmac")));
        assert_eq!(kalyna_name("kalyna-512-256-ecb"), None);
        assert_eq!(kalyna_name("kalyna-128-ecb"), None);
        assert_eq!(kalyna_name("aes-128-ecb"), None);
    }

    #[test]
    fn variants_take_their_key_lengths() {
        fn check<K: KalynaVariant>(key_len: usize) -> Result<usize, Error> {
            let k = K::with_backend_slice(&vec![1; key_len], KalynaBackend::Soft)?;
            assert_eq!(k.encrypt_blocks(&mut vec![0; K::BLOCK_LEN]), Ok(()));
            Ok(K::BLOCK_LEN)
        }
        let fail = || Err(Error::InvalidKeyLength { got: 0 });
        assert_eq!(for_kalyna!(128, 256, check(32), fail()), Ok(16));
        assert_eq!(for_kalyna!(512, 512, check(64), fail()), Ok(64));
        assert!(for_kalyna!(256, 512, check(32), fail()).is_err());
        assert!(for_kalyna!(512, 256, check(64), fail()).is_err());
    }

    #[test]
    fn sbox_file_forms() {
        let dke = Sbox::DKE1;
        assert_eq!(sbox_from_file_bytes(&dke.to_packed()), Ok(dke));
        assert_eq!(sbox_from_file_bytes(&dke.to_expanded()), Ok(dke));
        let packed_hex = format!("{}\n", hex::encode(Sbox::TEST.to_packed()));
        assert_eq!(sbox_from_file_bytes(packed_hex.as_bytes()), Ok(Sbox::TEST));
        let spaced: String = hex::encode_upper(Sbox::TEST.to_expanded())
            .as_bytes()
            .chunks(32)
            .map(|c| format!("{}\n", std::str::from_utf8(c).unwrap()))
            .collect();
        assert_eq!(sbox_from_file_bytes(spaced.as_bytes()), Ok(Sbox::TEST));
        let e = sbox_from_file_bytes(&[0u8; 63]).unwrap_err();
        assert!(e.contains("63 bytes"), "{e}");
        let mut bad = dke.to_expanded();
        bad[17] = bad[16];
        let e = sbox_from_file_bytes(&bad).unwrap_err();
        assert!(e.contains("K2"), "{e}");
        let e = sbox_from_file_bytes(&[7u8; 128]).unwrap_err();
        assert!(e.contains("permutation"), "{e}");
        assert!(sbox_from_file_bytes(&[b'a'; 5000]).is_err());
    }
}
