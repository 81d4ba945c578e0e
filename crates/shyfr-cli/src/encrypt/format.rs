//! The file header of `shyfr encrypt` (FORMAT.md): magic, version, AEAD, key source and
//! its parameters. The header's bytes are the Cobblestone context, so every one of them is
//! authenticated by the key commitment.

use std::io::Read;

use shyfr::aead::chunked::Suite;

/// The first eight bytes of every file.
pub const MAGIC: &[u8; 8] = b"SHYFRENC";
/// The version this program writes and reads.
pub const VERSION: u8 = 1;
/// Length of the fixed part (magic, version, AEAD, key source, flags).
const FIXED_LEN: usize = 12;
/// Length of the Argon2id salt.
pub const ARGON2_SALT_LEN: usize = 16;

/// The most Argon2id memory a header may ask for, in KiB (1 GiB).
pub const MAX_MEMORY_KIB: u32 = 1 << 20;
/// The most Argon2id passes a header may ask for.
pub const MAX_PASSES: u32 = 32;
/// The most Argon2id lanes a header may ask for.
pub const MAX_LANES: u32 = 64;

/// The least Argon2id memory `shyfr encrypt` uses for a new file, in KiB (19 MiB, the
/// OWASP password-storage minimum for Argon2id), unless [`CHEAP_KDF_ENV`] is set (tests).
pub const MIN_NEW_MEMORY_KIB: u32 = 19 << 10;
/// The least Argon2id passes for a new file (with [`MIN_NEW_MEMORY_KIB`]).
pub const MIN_NEW_PASSES: u32 = 2;
/// Set to `1`, lets `shyfr encrypt` write files with Argon2id parameters below the minimum
/// (down to 8 KiB and 1 pass): for tests only, where thousands of derivations must be
/// cheap. Files written so are easy to attack by guessing passphrases.
pub const CHEAP_KDF_ENV: &str = "SHYFR_TEST_CHEAP_KDF";

/// Argon2id parameters: RFC 9106 section 4, second recommended option (memory-constrained):
/// 64 MiB, 3 passes, 4 lanes.
pub const DEFAULT_MEMORY_KIB: u32 = 64 << 10;
/// Default passes (see [`DEFAULT_MEMORY_KIB`]).
pub const DEFAULT_PASSES: u32 = 3;
/// Default lanes (see [`DEFAULT_MEMORY_KIB`]).
pub const DEFAULT_LANES: u32 = 4;

/// Argon2id cost parameters and salt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Argon2Params {
    /// Memory in KiB.
    pub memory_kib: u32,
    /// Passes over the memory.
    pub passes: u32,
    /// Lanes (parallelism).
    pub lanes: u32,
    /// Random salt.
    pub salt: [u8; ARGON2_SALT_LEN],
}

impl Argon2Params {
    /// Checks the parameters against the limits a reader enforces; the message says which
    /// one is out of bounds.
    pub fn check(&self) -> Result<(), String> {
        let Argon2Params {
            memory_kib: m,
            passes: t,
            lanes: p,
            ..
        } = *self;
        if p == 0 || p > MAX_LANES {
            return Err(format!(
                "Argon2id lanes {p} out of bounds (1 to {MAX_LANES})"
            ));
        }
        if t == 0 || t > MAX_PASSES {
            return Err(format!(
                "Argon2id passes {t} out of bounds (1 to {MAX_PASSES})"
            ));
        }
        if m > MAX_MEMORY_KIB {
            return Err(format!(
                "Argon2id memory {m} KiB above the limit of {MAX_MEMORY_KIB} KiB (1 GiB)"
            ));
        }
        if m < 8 * p {
            return Err(format!(
                "Argon2id memory {m} KiB below 8 KiB per lane ({p} lanes)"
            ));
        }
        Ok(())
    }

    /// The stricter check for a file being written: also at least [`MIN_NEW_MEMORY_KIB`]
    /// and [`MIN_NEW_PASSES`] unless `cheap_allowed` (from [`CHEAP_KDF_ENV`]).
    pub fn check_new(&self, cheap_allowed: bool) -> Result<(), String> {
        self.check()?;
        if !cheap_allowed && (self.memory_kib < MIN_NEW_MEMORY_KIB || self.passes < MIN_NEW_PASSES)
        {
            return Err(format!(
                "Argon2id memory {} KiB and {} passes are below the minimum for new files \
                 ({MIN_NEW_MEMORY_KIB} KiB, {MIN_NEW_PASSES} passes)",
                self.memory_kib, self.passes
            ));
        }
        Ok(())
    }
}

/// Where the key comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeySource {
    /// A passphrase through Argon2id.
    Passphrase(Argon2Params),
    /// A key file from `shyfr keygen`.
    KeyFile,
}

/// A parsed header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The Cobblestone instantiation (AEAD).
    pub suite: Suite,
    /// Where the key comes from.
    pub source: KeySource,
}

/// Why a header was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum HeaderError {
    /// The input does not start with the magic (or is shorter than it).
    NotShyfr,
    /// The input ends inside the header.
    Truncated,
    /// Another version.
    Version(u8),
    /// An AEAD identifier this version does not define.
    Aead(u8),
    /// A key source identifier this version does not define.
    KeySource(u8),
    /// Non-zero flags.
    Flags(u8),
    /// Argon2id parameters out of bounds.
    Argon2(String),
    /// Reading failed.
    Io(String),
}

impl std::fmt::Display for HeaderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HeaderError::NotShyfr => write!(f, "not a shyfr file"),
            HeaderError::Truncated => write!(f, "file truncated (inside the header)"),
            HeaderError::Version(v) => write!(
                f,
                "unsupported version {v} (this shyfr reads version {VERSION})"
            ),
            HeaderError::Aead(a) => write!(f, "unsupported AEAD identifier {a}"),
            HeaderError::KeySource(k) => write!(f, "unsupported key source {k}"),
            HeaderError::Flags(b) => write!(f, "unsupported header flags {b:#04x}"),
            HeaderError::Argon2(m) => write!(f, "refusing the header's parameters: {m}"),
            HeaderError::Io(m) => write!(f, "{m}"),
        }
    }
}

/// The AEAD identifiers of version 1 (header byte 9) and the instantiations they name.
/// The Kalyna variants with 512-bit keys (`Suite::Kalyna256_512Gcm`,
/// `Suite::Kalyna512_512Gcm`) have none: a key file holds 256 bits.
pub const AEADS: [(u8, Suite); 5] = [
    (1, Suite::Cobblestone256),
    (2, Suite::Cobblestone128),
    (3, Suite::Kalyna128_256Gcm),
    (4, Suite::Kalyna256_256Gcm),
    (5, Suite::Kalyna128_128Gcm),
];

/// The identifier of `s`, if version 1 has one.
pub fn aead_id(s: Suite) -> Option<u8> {
    AEADS.iter().find(|&&(_, x)| x == s).map(|&(id, _)| id)
}

/// The instantiation identifier `id` names.
fn aead_suite(id: u8) -> Option<Suite> {
    AEADS.iter().find(|&&(i, _)| i == id).map(|&(_, s)| s)
}

impl Header {
    fn suite_id(s: Suite) -> u8 {
        aead_id(s).expect("the command writes only suites with an identifier")
    }

    /// The header's bytes (also the Cobblestone context).
    pub fn to_bytes(self) -> Vec<u8> {
        let mut v = Vec::with_capacity(40);
        v.extend_from_slice(MAGIC);
        v.push(VERSION);
        v.push(Self::suite_id(self.suite));
        match &self.source {
            KeySource::Passphrase(a) => {
                v.push(1);
                v.push(0);
                v.extend_from_slice(&a.memory_kib.to_be_bytes());
                v.extend_from_slice(&a.passes.to_be_bytes());
                v.extend_from_slice(&a.lanes.to_be_bytes());
                v.extend_from_slice(&a.salt);
            }
            KeySource::KeyFile => {
                v.push(2);
                v.push(0);
            }
        }
        v
    }

    /// Reads a header from the start of `r`; the header and its bytes. Reads exactly the
    /// header (nothing after it), so `r` is left at the Cobblestone ciphertext.
    pub fn read(r: &mut dyn Read) -> Result<(Header, Vec<u8>), HeaderError> {
        let mut fixed = [0u8; FIXED_LEN];
        let n = read_full(r, &mut fixed)?;
        if n < MAGIC.len() || &fixed[..MAGIC.len()] != MAGIC {
            return Err(HeaderError::NotShyfr);
        }
        if n < FIXED_LEN {
            // The version byte, if present, is worth reporting first.
            if n > 8 && fixed[8] != VERSION {
                return Err(HeaderError::Version(fixed[8]));
            }
            return Err(HeaderError::Truncated);
        }
        if fixed[8] != VERSION {
            return Err(HeaderError::Version(fixed[8]));
        }
        let suite = aead_suite(fixed[9]).ok_or(HeaderError::Aead(fixed[9]))?;
        if fixed[11] != 0 {
            return Err(HeaderError::Flags(fixed[11]));
        }
        let mut bytes = fixed.to_vec();
        let source = match fixed[10] {
            1 => {
                let mut p = [0u8; 12 + ARGON2_SALT_LEN];
                if read_full(r, &mut p)? < p.len() {
                    return Err(HeaderError::Truncated);
                }
                bytes.extend_from_slice(&p);
                let word = |i: usize| u32::from_be_bytes([p[i], p[i + 1], p[i + 2], p[i + 3]]);
                let mut salt = [0u8; ARGON2_SALT_LEN];
                salt.copy_from_slice(&p[12..]);
                let a = Argon2Params {
                    memory_kib: word(0),
                    passes: word(4),
                    lanes: word(8),
                    salt,
                };
                a.check().map_err(HeaderError::Argon2)?;
                KeySource::Passphrase(a)
            }
            2 => KeySource::KeyFile,
            k => return Err(HeaderError::KeySource(k)),
        };
        Ok((Header { suite, source }, bytes))
    }
}

fn read_full(r: &mut dyn Read, buf: &mut [u8]) -> Result<usize, HeaderError> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(HeaderError::Io(format!("cannot read: {e}"))),
        }
    }
    Ok(n)
}

/// Argon2id of `passphrase` with `a`, `out.len()` bytes.
pub fn argon2id(passphrase: &[u8], a: &Argon2Params, out: &mut [u8]) -> Result<(), String> {
    a.check()?;
    let params = argon2::Params::new(a.memory_kib, a.passes, a.lanes, Some(out.len()))
        .map_err(|e| format!("Argon2id parameters: {e}"))?;
    argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params)
        .hash_password_into(passphrase, &a.salt, out)
        .map_err(|e| format!("Argon2id: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pass() -> Header {
        Header {
            suite: Suite::Cobblestone256,
            source: KeySource::Passphrase(Argon2Params {
                memory_kib: DEFAULT_MEMORY_KIB,
                passes: DEFAULT_PASSES,
                lanes: DEFAULT_LANES,
                salt: [7; 16],
            }),
        }
    }

    #[test]
    fn round_trip_and_layout() {
        for &(id, suite) in &AEADS {
            for source in [pass().source, KeySource::KeyFile] {
                let h = Header { suite, source };
                let b = h.to_bytes();
                assert_eq!(b[9], id);
                let (back, raw) = Header::read(&mut &b[..]).unwrap();
                assert_eq!((back, raw), (h, b));
            }
        }
        // Every identifier names one suite, and only suites whose key fits a key file.
        for (i, &(id, suite)) in AEADS.iter().enumerate() {
            assert_eq!(id as usize, i + 1);
            assert!(suite.key_len() <= crate::encrypt::secret::KEY_LEN);
        }
        let b = pass().to_bytes();
        assert_eq!(b.len(), 40);
        assert_eq!(&b[..12], b"SHYFRENC\x01\x01\x01\x00");
        assert_eq!(&b[12..24], &[0, 1, 0, 0, 0, 0, 0, 3, 0, 0, 0, 4]);
    }

    #[test]
    fn refusals() {
        let good = pass().to_bytes();
        let with = |i: usize, v: u8| {
            let mut b = good.clone();
            b[i] = v;
            Header::read(&mut &b[..]).unwrap_err()
        };
        assert_eq!(
            Header::read(&mut &b""[..]).unwrap_err(),
            HeaderError::NotShyfr
        );
        assert_eq!(
            Header::read(&mut &b"SHYFR"[..]).unwrap_err(),
            HeaderError::NotShyfr
        );
        assert_eq!(with(0, b'X'), HeaderError::NotShyfr);
        assert_eq!(with(8, 2), HeaderError::Version(2));
        assert_eq!(with(9, 0), HeaderError::Aead(0));
        assert_eq!(with(9, 6), HeaderError::Aead(6));
        assert_eq!(with(9, 0xff), HeaderError::Aead(0xff));
        assert_eq!(with(10, 9), HeaderError::KeySource(9));
        assert_eq!(with(11, 1), HeaderError::Flags(1));
        // 4 GiB of memory, zero passes, 0 or 65 lanes, less than 8 KiB per lane.
        assert!(matches!(with(12, 0x10), HeaderError::Argon2(m) if m.contains("memory")));
        assert!(matches!(with(19, 0), HeaderError::Argon2(m) if m.contains("passes")));
        assert!(matches!(with(23, 0), HeaderError::Argon2(m) if m.contains("lanes")));
        assert!(matches!(with(23, 65), HeaderError::Argon2(m) if m.contains("lanes")));
        for cut in 8..good.len() {
            assert_eq!(
                Header::read(&mut &good[..cut]).unwrap_err(),
                HeaderError::Truncated,
                "{cut}"
            );
        }
        let mut small = good.clone();
        small[12..16].copy_from_slice(&31u32.to_be_bytes());
        assert!(
            matches!(Header::read(&mut &small[..]).unwrap_err(), HeaderError::Argon2(m) if m.contains("below"))
        );
        small[12..16].copy_from_slice(&32u32.to_be_bytes());
        assert!(Header::read(&mut &small[..]).is_ok());
    }

    /// RFC 9106 section 5.3's Argon2id vector uses a secret and associated data, which this
    /// format does not; these check the crate's output for the plain form against values
    /// computed with the reference implementation's command (phc-winner-argon2, Debian
    /// package `argon2` 0~20171227-0.3+deb12u1):
    /// `echo -n password | argon2 somesalt12345678 -id -t 2 -k 32 -p 1 -l 32 -r` and
    /// `echo -n "correct horse" | argon2 saltsaltsaltsalt -id -t 3 -k 64 -p 4 -l 16 -r`.
    #[test]
    fn argon2id_known_answer() {
        let a = Argon2Params {
            memory_kib: 32,
            passes: 2,
            lanes: 1,
            salt: *b"somesalt12345678",
        };
        let mut out = [0u8; 32];
        argon2id(b"password", &a, &mut out).unwrap();
        assert_eq!(
            hex::encode(out),
            "0bfdf3ad947786383f4c79386419c0c8bf0113531dab65e86990420124a9de0c"
        );
        let a = Argon2Params {
            memory_kib: 64,
            passes: 3,
            lanes: 4,
            salt: *b"saltsaltsaltsalt",
        };
        let mut out = [0u8; 16];
        argon2id(b"correct horse", &a, &mut out).unwrap();
        assert_eq!(hex::encode(out), "7d18c4bc04e885c950bbb8a4cae1fc20");
    }
}
