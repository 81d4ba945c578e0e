//! The one table of algorithm names that every subcommand reads.
//!
//! Each row of [`ALGORITHMS`] is an OpenSSL-style name with everything the commands need:
//! the library's algorithm family (whose backends, from [`shyfr::registry::backends`], it runs
//! on), the key length, the buffer sizes it accepts, and what each command does with it:
//!
//! * `shyfr speed` measures every row (its operations and `setup`, in
//!   [`crate::speed::setup`]);
//! * `shyfr hash` takes the rows with an unkeyed [`Digest`], `shyfr mac` those with a keyed
//!   one (constructors in [`crate::digest`]);
//! * `shyfr enc` takes the rows with an [`EncMode`] (as `-NAME`);
//! * the RSA rows (`rsa512` ... `rsa16384`, with [`Algorithm::rsa_bits`]) are timed per
//!   operation by `shyfr speed` (sign/s, verify/s, and key generation with `--keygen`).
//!
//! Adding an algorithm is adding a row; a name is valid for a command exactly when its row
//! says so, and every list of names in messages and help comes from here.

use shyfr::cpu::{self, BackendStatus, Feature};
use shyfr::hash::gost34311::Gost34311;
use shyfr::hash::kupyna::{Kupyna256, Kupyna384, Kupyna512};
use shyfr::hash::sha1::Sha1;
use shyfr::hash::sha2::{Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};
use shyfr::hash::sha3::{Sha3_224, Sha3_256, Sha3_384, Sha3_512};
use shyfr::kalyna::{Kalyna128_128, Kalyna128_256, Kalyna256_256, Kalyna256_512, Kalyna512_512};

use crate::digest::{self, Digest};
pub use crate::enc::Mode as EncMode;
use crate::speed::setup::{self as su, Operation, Prepared, Setup};

/// The buffer sizes an algorithm accepts in `shyfr speed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeRule {
    /// Sizes must be a multiple of this (the block length for ECB and CBC).
    pub multiple: usize,
    /// The smallest size.
    pub min: usize,
    /// The largest size (beyond the command's own limit), `usize::MAX` for none.
    pub max: usize,
}

impl SizeRule {
    /// Any size.
    const ANY: SizeRule = SizeRule {
        multiple: 1,
        min: 1,
        max: usize::MAX,
    };

    /// Whole blocks of `n` bytes, at least one.
    const fn blocks(n: usize) -> SizeRule {
        SizeRule {
            multiple: n,
            min: n,
            max: usize::MAX,
        }
    }

    /// Whether `size` is accepted; if not, why, with the nearest sizes that are.
    pub fn check(&self, size: usize, alg: &str) -> Result<(), String> {
        if size < self.min {
            return Err(format!(
                "size {size} is too small for {alg}: it takes {}; use e.g. {}",
                self.describe(),
                self.min
            ));
        }
        if size > self.max {
            return Err(format!(
                "size {size} is too large for {alg}: it takes {}",
                self.describe()
            ));
        }
        if !size.is_multiple_of(self.multiple) {
            let below = size / self.multiple * self.multiple;
            let above = below + self.multiple;
            let hint = if below < self.min {
                format!("{above}")
            } else {
                format!("{below} or {above}")
            };
            return Err(format!(
                "size {size} is not a multiple of {} bytes, which {alg} takes (it processes \
                 whole {}-byte blocks); use e.g. {hint}",
                self.multiple, self.multiple
            ));
        }
        Ok(())
    }

    /// "any", "multiples of 16", "multiples of 8, at least 16", "16 to 16777216, multiples
    /// of 16".
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.max != usize::MAX {
            parts.push(format!("{} to {} bytes", self.min, self.max));
        } else if self.min > self.multiple {
            parts.push(format!("at least {} bytes", self.min));
        }
        if self.multiple > 1 {
            parts.insert(0, format!("multiples of {}", self.multiple));
        }
        if parts.is_empty() {
            "any".to_string()
        } else {
            parts.join(", ")
        }
    }
}

/// One algorithm.
pub struct Algorithm {
    /// The name on the command line (OpenSSL naming, e.g. `aes-128-ecb`, `sha256`).
    pub name: &'static str,
    /// The library's algorithm family (the `algorithm` of [`BackendStatus`]), whose
    /// backends this algorithm runs on.
    pub family: &'static str,
    /// Key length in bytes that `shyfr speed` uses (XTS: both keys; 0 for keyless).
    pub key_len: usize,
    /// The buffer sizes `shyfr speed` accepts.
    pub sizes: SizeRule,
    /// The operations `shyfr speed` can measure (the first is the default).
    pub operations: &'static [Operation],
    /// Sets a key up for `shyfr speed`.
    setup: Setup,
    /// What `shyfr hash` (unkeyed) or `shyfr mac` (keyed) does with it.
    pub digest: Option<Digest>,
    /// What `shyfr enc` does with it.
    pub enc: Option<EncMode>,
    /// The modulus size of an RSA row (`shyfr speed` times its operations, not bytes).
    pub rsa_bits: Option<usize>,
}

const ENC_DEC: &[Operation] = &[Operation::Encrypt, Operation::Decrypt];

const fn row(
    name: &'static str,
    family: &'static str,
    key_len: usize,
    sizes: SizeRule,
    operations: &'static [Operation],
    setup: Setup,
) -> Algorithm {
    Algorithm {
        name,
        family,
        key_len,
        sizes,
        operations,
        setup,
        digest: None,
        enc: None,
        rsa_bits: None,
    }
}

impl Algorithm {
    const fn with_enc(mut self, m: EncMode) -> Self {
        self.enc = Some(m);
        self
    }
    const fn with_digest(mut self, d: Digest) -> Self {
        self.digest = Some(d);
        self
    }
}

/// An AES block mode row; `shyfr enc` takes it as `-NAME` when `enc` is given.
const fn aes(name: &'static str, key: usize, sizes: SizeRule, setup: Setup) -> Algorithm {
    row(name, "aes", key, sizes, ENC_DEC, setup)
}

const fn hash(name: &'static str, family: &'static str, setup: Setup, d: Digest) -> Algorithm {
    row(name, family, 32, SizeRule::ANY, &[Operation::Hash], setup).with_digest(d)
}

const fn hmac(name: &'static str, family: &'static str, d: Digest) -> Algorithm {
    row(
        name,
        family,
        32,
        SizeRule::ANY,
        &[Operation::Mac],
        su::hmac_any,
    )
    .with_digest(d)
}

/// A DSTU 7564 keyed-Kupyna row: key and tag of `len` bytes.
const fn kupyna_kmac(name: &'static str, len: usize) -> Algorithm {
    row(
        name,
        "kupyna",
        len,
        SizeRule::ANY,
        &[Operation::Mac],
        su::kupyna,
    )
    .with_digest(Digest::FixedKey {
        len,
        key_len: len,
        new: digest::kupyna_kmac,
    })
}

macro_rules! fixed {
    ($h:ty, $len:expr) => {
        Digest::Hash {
            len: $len,
            new: digest::fixed::<$h>,
        }
    };
}

macro_rules! hmac_of {
    ($h:ty, $len:expr) => {
        Digest::Hmac {
            len: $len,
            new: digest::hmac::<$h>,
        }
    };
}

/// What a Kalyna row measures and offers (the rows' last name part).
#[derive(Clone, Copy)]
enum K {
    Ecb,
    Ctr,
    Cbc,
    Cfb,
    Ofb,
    Xts,
    Cmac,
    Gmac,
    Gcm,
    Ccm,
}

/// A Kalyna (DSTU 7624:2014) row, `kalyna-BLOCK-KEY-MODE`, of `block` and `key` bytes.
const fn kalyna(name: &'static str, block: usize, key: usize, m: K) -> Algorithm {
    const MAC: &[Operation] = &[Operation::Mac];
    let (sizes, ops) = match m {
        K::Ecb | K::Cbc => (SizeRule::blocks(block), ENC_DEC),
        K::Ctr | K::Cfb | K::Ofb | K::Gcm | K::Ccm => (SizeRule::ANY, ENC_DEC),
        // Ciphertext stealing: any length from one block on.
        K::Xts => (
            SizeRule {
                multiple: 1,
                min: block,
                max: usize::MAX,
            },
            ENC_DEC,
        ),
        K::Cmac | K::Gmac => (SizeRule::ANY, MAC),
    };
    row(name, "kalyna", key, sizes, ops, su::kalyna)
}

/// The `shyfr mac` entry of a Kalyna CMAC or GMAC row over the variant `$t`.
macro_rules! kalyna_mac {
    ($new:ident, $t:ident) => {
        Digest::CipherMac {
            key_len: <$t>::KEY_LEN,
            min_len: shyfr::mode::dstu7624::MIN_TAG_LEN,
            max_len: <$t>::BLOCK_LEN,
            sbox: false,
            new: digest::$new::<$t>,
        }
    };
}

/// A GOST 28147-89 row (S-box DKE No. 1 in `speed`).
const fn gost(name: &'static str, sizes: SizeRule, ops: &'static [Operation]) -> Algorithm {
    row(name, "gost28147", 32, sizes, ops, su::gost28147)
}

/// A DES or triple DES row.
const fn des(name: &'static str, key: usize) -> Algorithm {
    row(name, "des", key, SizeRule::blocks(8), ENC_DEC, su::des)
}

/// An RSA row, `rsaBITS` (the names of `openssl speed`): signing and verifying with a key
/// of `bits` bits (`key_len` is the modulus in bytes; buffer sizes do not apply).
const fn rsa(name: &'static str, bits: usize) -> Algorithm {
    const SIGN_VERIFY: &[Operation] = &[Operation::Sign, Operation::Verify];
    let mut a = row(name, "rsa", bits / 8, SizeRule::ANY, SIGN_VERIFY, su::rsa);
    a.rsa_bits = Some(bits);
    a
}

/// The largest XTS data unit (IEEE 1619: 2^20 blocks).
const XTS: SizeRule = SizeRule {
    multiple: 16,
    min: 16,
    max: shyfr::mode::xts::MAX_UNIT_LEN,
};

/// Every algorithm the command knows.
pub static ALGORITHMS: &[Algorithm] = &[
    aes("aes-128-ecb", 16, SizeRule::blocks(16), su::aes_ecb).with_enc(EncMode::Ecb),
    aes("aes-192-ecb", 24, SizeRule::blocks(16), su::aes_ecb).with_enc(EncMode::Ecb),
    aes("aes-256-ecb", 32, SizeRule::blocks(16), su::aes_ecb).with_enc(EncMode::Ecb),
    aes("aes-128-ctr", 16, SizeRule::ANY, su::aes_mode).with_enc(EncMode::Ctr),
    aes("aes-192-ctr", 24, SizeRule::ANY, su::aes_mode).with_enc(EncMode::Ctr),
    aes("aes-256-ctr", 32, SizeRule::ANY, su::aes_mode).with_enc(EncMode::Ctr),
    aes("aes-128-cbc", 16, SizeRule::blocks(16), su::aes_mode).with_enc(EncMode::Cbc),
    aes("aes-192-cbc", 24, SizeRule::blocks(16), su::aes_mode).with_enc(EncMode::Cbc),
    aes("aes-256-cbc", 32, SizeRule::blocks(16), su::aes_mode).with_enc(EncMode::Cbc),
    aes("aes-128-cfb", 16, SizeRule::ANY, su::aes_mode).with_enc(EncMode::Cfb),
    aes("aes-192-cfb", 24, SizeRule::ANY, su::aes_mode).with_enc(EncMode::Cfb),
    aes("aes-256-cfb", 32, SizeRule::ANY, su::aes_mode).with_enc(EncMode::Cfb),
    aes("aes-128-cfb8", 16, SizeRule::ANY, su::aes_mode).with_enc(EncMode::Cfb8),
    aes("aes-192-cfb8", 24, SizeRule::ANY, su::aes_mode).with_enc(EncMode::Cfb8),
    aes("aes-256-cfb8", 32, SizeRule::ANY, su::aes_mode).with_enc(EncMode::Cfb8),
    aes("aes-128-cfb1", 16, SizeRule::ANY, su::aes_mode),
    aes("aes-128-ofb", 16, SizeRule::ANY, su::aes_mode).with_enc(EncMode::Ofb),
    aes("aes-192-ofb", 24, SizeRule::ANY, su::aes_mode).with_enc(EncMode::Ofb),
    aes("aes-256-ofb", 32, SizeRule::ANY, su::aes_mode).with_enc(EncMode::Ofb),
    aes("aes-128-xts", 32, XTS, su::aes_mode).with_enc(EncMode::Xts),
    aes("aes-256-xts", 64, XTS, su::aes_mode).with_enc(EncMode::Xts),
    row(
        "aes-128-cmac",
        "aes",
        16,
        SizeRule::ANY,
        &[Operation::Mac],
        su::aes_mode,
    ),
    row(
        "aes-256-cmac",
        "aes",
        32,
        SizeRule::ANY,
        &[Operation::Mac],
        su::aes_mode,
    ),
    // KW (RFC 3394) wraps 8-byte semiblocks, at least two; KWP (RFC 5649) any length.
    row(
        "aes-128-kw",
        "aes",
        16,
        SizeRule {
            multiple: 8,
            min: 16,
            max: usize::MAX,
        },
        &[Operation::Encrypt],
        su::aes_kw,
    ),
    row(
        "aes-256-kw",
        "aes",
        32,
        SizeRule {
            multiple: 8,
            min: 16,
            max: usize::MAX,
        },
        &[Operation::Encrypt],
        su::aes_kw,
    ),
    row(
        "aes-128-kwp",
        "aes",
        16,
        SizeRule::ANY,
        &[Operation::Encrypt],
        su::aes_kw,
    ),
    row(
        "aes-128-gmac",
        "aes",
        16,
        SizeRule::ANY,
        &[Operation::Mac],
        su::aes_gmac,
    ),
    row(
        "aes-256-gmac",
        "aes",
        32,
        SizeRule::ANY,
        &[Operation::Mac],
        su::aes_gmac,
    ),
    aes("aes-128-gcm", 16, SizeRule::ANY, su::aes_gcm).with_enc(EncMode::Gcm),
    aes("aes-192-gcm", 24, SizeRule::ANY, su::aes_gcm).with_enc(EncMode::Gcm),
    aes("aes-256-gcm", 32, SizeRule::ANY, su::aes_gcm).with_enc(EncMode::Gcm),
    aes("aes-128-ccm", 16, SizeRule::ANY, su::aes_ccm),
    aes("aes-256-ccm", 32, SizeRule::ANY, su::aes_ccm),
    // Kalyna (DSTU 7624:2014): every variant in every mode of the standard; `shyfr enc`
    // takes ECB, CTR, CBC, CFB and OFB, `shyfr mac` CMAC and GMAC.
    kalyna("kalyna-128-128-ecb", 16, 16, K::Ecb).with_enc(EncMode::Ecb),
    kalyna("kalyna-128-256-ecb", 16, 32, K::Ecb).with_enc(EncMode::Ecb),
    kalyna("kalyna-256-256-ecb", 32, 32, K::Ecb).with_enc(EncMode::Ecb),
    kalyna("kalyna-256-512-ecb", 32, 64, K::Ecb).with_enc(EncMode::Ecb),
    kalyna("kalyna-512-512-ecb", 64, 64, K::Ecb).with_enc(EncMode::Ecb),
    kalyna("kalyna-128-128-ctr", 16, 16, K::Ctr).with_enc(EncMode::Ctr),
    kalyna("kalyna-128-256-ctr", 16, 32, K::Ctr).with_enc(EncMode::Ctr),
    kalyna("kalyna-256-256-ctr", 32, 32, K::Ctr).with_enc(EncMode::Ctr),
    kalyna("kalyna-256-512-ctr", 32, 64, K::Ctr).with_enc(EncMode::Ctr),
    kalyna("kalyna-512-512-ctr", 64, 64, K::Ctr).with_enc(EncMode::Ctr),
    kalyna("kalyna-128-128-cbc", 16, 16, K::Cbc).with_enc(EncMode::Cbc),
    kalyna("kalyna-128-256-cbc", 16, 32, K::Cbc).with_enc(EncMode::Cbc),
    kalyna("kalyna-256-256-cbc", 32, 32, K::Cbc).with_enc(EncMode::Cbc),
    kalyna("kalyna-256-512-cbc", 32, 64, K::Cbc).with_enc(EncMode::Cbc),
    kalyna("kalyna-512-512-cbc", 64, 64, K::Cbc).with_enc(EncMode::Cbc),
    kalyna("kalyna-128-128-cfb", 16, 16, K::Cfb).with_enc(EncMode::Cfb),
    kalyna("kalyna-128-256-cfb", 16, 32, K::Cfb).with_enc(EncMode::Cfb),
    kalyna("kalyna-256-256-cfb", 32, 32, K::Cfb).with_enc(EncMode::Cfb),
    kalyna("kalyna-256-512-cfb", 32, 64, K::Cfb).with_enc(EncMode::Cfb),
    kalyna("kalyna-512-512-cfb", 64, 64, K::Cfb).with_enc(EncMode::Cfb),
    kalyna("kalyna-128-128-ofb", 16, 16, K::Ofb).with_enc(EncMode::Ofb),
    kalyna("kalyna-128-256-ofb", 16, 32, K::Ofb).with_enc(EncMode::Ofb),
    kalyna("kalyna-256-256-ofb", 32, 32, K::Ofb).with_enc(EncMode::Ofb),
    kalyna("kalyna-256-512-ofb", 32, 64, K::Ofb).with_enc(EncMode::Ofb),
    kalyna("kalyna-512-512-ofb", 64, 64, K::Ofb).with_enc(EncMode::Ofb),
    kalyna("kalyna-128-128-xts", 16, 16, K::Xts),
    kalyna("kalyna-128-256-xts", 16, 32, K::Xts),
    kalyna("kalyna-256-256-xts", 32, 32, K::Xts),
    kalyna("kalyna-256-512-xts", 32, 64, K::Xts),
    kalyna("kalyna-512-512-xts", 64, 64, K::Xts),
    kalyna("kalyna-128-128-cmac", 16, 16, K::Cmac)
        .with_digest(kalyna_mac!(kalyna_cmac, Kalyna128_128)),
    kalyna("kalyna-128-256-cmac", 16, 32, K::Cmac)
        .with_digest(kalyna_mac!(kalyna_cmac, Kalyna128_256)),
    kalyna("kalyna-256-256-cmac", 32, 32, K::Cmac)
        .with_digest(kalyna_mac!(kalyna_cmac, Kalyna256_256)),
    kalyna("kalyna-256-512-cmac", 32, 64, K::Cmac)
        .with_digest(kalyna_mac!(kalyna_cmac, Kalyna256_512)),
    kalyna("kalyna-512-512-cmac", 64, 64, K::Cmac)
        .with_digest(kalyna_mac!(kalyna_cmac, Kalyna512_512)),
    kalyna("kalyna-128-128-gmac", 16, 16, K::Gmac)
        .with_digest(kalyna_mac!(kalyna_gmac, Kalyna128_128)),
    kalyna("kalyna-128-256-gmac", 16, 32, K::Gmac)
        .with_digest(kalyna_mac!(kalyna_gmac, Kalyna128_256)),
    kalyna("kalyna-256-256-gmac", 32, 32, K::Gmac)
        .with_digest(kalyna_mac!(kalyna_gmac, Kalyna256_256)),
    kalyna("kalyna-256-512-gmac", 32, 64, K::Gmac)
        .with_digest(kalyna_mac!(kalyna_gmac, Kalyna256_512)),
    kalyna("kalyna-512-512-gmac", 64, 64, K::Gmac)
        .with_digest(kalyna_mac!(kalyna_gmac, Kalyna512_512)),
    kalyna("kalyna-128-128-gcm", 16, 16, K::Gcm),
    kalyna("kalyna-128-256-gcm", 16, 32, K::Gcm),
    kalyna("kalyna-256-256-gcm", 32, 32, K::Gcm),
    kalyna("kalyna-256-512-gcm", 32, 64, K::Gcm),
    kalyna("kalyna-512-512-gcm", 64, 64, K::Gcm),
    kalyna("kalyna-128-128-ccm", 16, 16, K::Ccm),
    kalyna("kalyna-128-256-ccm", 16, 32, K::Ccm),
    kalyna("kalyna-256-256-ccm", 32, 32, K::Ccm),
    kalyna("kalyna-256-512-ccm", 32, 64, K::Ccm),
    kalyna("kalyna-512-512-ccm", 64, 64, K::Ccm),
    // GOST 28147-89 with the S-box DKE No. 1 (`shyfr enc` and `shyfr mac` take `-sbox`).
    gost("gost28147-ecb", SizeRule::blocks(8), ENC_DEC).with_enc(EncMode::Ecb),
    gost("gost28147-ctr", SizeRule::ANY, ENC_DEC).with_enc(EncMode::Ctr),
    gost("gost28147-cfb", SizeRule::ANY, ENC_DEC).with_enc(EncMode::Cfb),
    gost("gost28147-mac", SizeRule::ANY, &[Operation::Mac]).with_digest(Digest::CipherMac {
        key_len: 32,
        min_len: 1,
        max_len: shyfr::mode::gost28147::MAC_LEN,
        sbox: true,
        new: digest::gost28147_mac,
    }),
    // DES and three-key triple DES (legacy); `shyfr enc` as `openssl enc` (PKCS#7).
    des("des-ecb", 8),
    des("des-ede3-ecb", 24).with_enc(EncMode::Ecb),
    des("des-ede3-cbc", 24).with_enc(EncMode::Cbc),
    hash("sha1", "sha1", su::sha_hash, fixed!(Sha1, 20)),
    hash("sha224", "sha256", su::sha_hash, fixed!(Sha224, 28)),
    hash("sha256", "sha256", su::sha_hash, fixed!(Sha256, 32)),
    hash("sha384", "sha512", su::sha_hash, fixed!(Sha384, 48)),
    hash("sha512", "sha512", su::sha_hash, fixed!(Sha512, 64)),
    hash("sha512-224", "sha512", su::sha_hash, fixed!(Sha512_224, 28)),
    hash("sha512-256", "sha512", su::sha_hash, fixed!(Sha512_256, 32)),
    hmac("hmac-sha1", "sha1", hmac_of!(Sha1, 20)),
    hmac("hmac-sha224", "sha256", hmac_of!(Sha224, 28)),
    hmac("hmac-sha256", "sha256", hmac_of!(Sha256, 32)),
    hmac("hmac-sha384", "sha512", hmac_of!(Sha384, 48)),
    hmac("hmac-sha512", "sha512", hmac_of!(Sha512, 64)),
    hmac("hmac-sha512-224", "sha512", hmac_of!(Sha512_224, 28)),
    hmac("hmac-sha512-256", "sha512", hmac_of!(Sha512_256, 32)),
    hmac("hmac-sha3-224", "keccak", hmac_of!(Sha3_224, 28)),
    hmac("hmac-sha3-256", "keccak", hmac_of!(Sha3_256, 32)),
    hmac("hmac-sha3-384", "keccak", hmac_of!(Sha3_384, 48)),
    hmac("hmac-sha3-512", "keccak", hmac_of!(Sha3_512, 64)),
    // KDFs in `shyfr speed`: for HKDF the size is the input key material (32 bytes are
    // derived from it); for PBKDF2 (one iteration) it is the derived key's length.
    row(
        "hkdf-sha256",
        "sha256",
        32,
        SizeRule::ANY,
        &[Operation::Derive],
        su::hmac_any,
    ),
    row(
        "pbkdf2-sha256",
        "sha256",
        32,
        SizeRule::ANY,
        &[Operation::Derive],
        su::hmac_any,
    ),
    hash("sha3-224", "keccak", su::keccak_hash, fixed!(Sha3_224, 28)),
    hash("sha3-256", "keccak", su::keccak_hash, fixed!(Sha3_256, 32)),
    hash("sha3-384", "keccak", su::keccak_hash, fixed!(Sha3_384, 48)),
    hash("sha3-512", "keccak", su::keccak_hash, fixed!(Sha3_512, 64)),
    row(
        "cshake128",
        "keccak",
        0,
        SizeRule::ANY,
        &[Operation::Hash],
        su::keccak_hash,
    ),
    row(
        "cshake256",
        "keccak",
        0,
        SizeRule::ANY,
        &[Operation::Hash],
        su::keccak_hash,
    ),
    hash(
        "shake128",
        "keccak",
        su::keccak_hash,
        Digest::Xof {
            default_len: 32,
            new: digest::shake128,
        },
    ),
    hash(
        "shake256",
        "keccak",
        su::keccak_hash,
        Digest::Xof {
            default_len: 64,
            new: digest::shake256,
        },
    ),
    row(
        "kmac128",
        "keccak",
        32,
        SizeRule::ANY,
        &[Operation::Mac],
        su::keccak_hash,
    )
    .with_digest(Digest::Kmac {
        default_len: 32,
        min_key: shyfr::mac::kmac::Kmac128::MIN_KEY_LEN,
        new: digest::kmac128,
    }),
    row(
        "kmac256",
        "keccak",
        32,
        SizeRule::ANY,
        &[Operation::Mac],
        su::keccak_hash,
    )
    .with_digest(Digest::Kmac {
        default_len: 64,
        min_key: shyfr::mac::kmac::Kmac256::MIN_KEY_LEN,
        new: digest::kmac256,
    }),
    // GOST 34.311-95 (DKE No. 1, zero starting value) and HMAC over it, on the GOST
    // 28147-89 backends.
    hash(
        "gost34311",
        "gost34311",
        su::gost34311,
        Digest::SboxHash {
            len: 32,
            new: digest::gost34311,
        },
    ),
    row(
        "hmac-gost34311",
        "gost34311",
        32,
        SizeRule::ANY,
        &[Operation::Mac],
        su::gost34311,
    )
    .with_digest(hmac_of!(Gost34311, 32)),
    // Kupyna (DSTU 7564:2014), its keyed MAC (key as long as the tag) and HMAC over it.
    hash("kupyna-256", "kupyna", su::kupyna, fixed!(Kupyna256, 32)),
    hash("kupyna-384", "kupyna", su::kupyna, fixed!(Kupyna384, 48)),
    hash("kupyna-512", "kupyna", su::kupyna, fixed!(Kupyna512, 64)),
    kupyna_kmac("kupyna-kmac-256", 32),
    kupyna_kmac("kupyna-kmac-384", 48),
    kupyna_kmac("kupyna-kmac-512", 64),
    hmac("hmac-kupyna-256", "kupyna", hmac_of!(Kupyna256, 32)),
    // RSA: OpenSSL's `speed` sizes and those of Cipher+ v2 (7168, 8192, 16384).
    rsa("rsa512", 512),
    rsa("rsa1024", 1024),
    rsa("rsa1536", 1536),
    rsa("rsa2048", 2048),
    rsa("rsa3072", 3072),
    rsa("rsa4096", 4096),
    rsa("rsa7168", 7168),
    rsa("rsa7680", 7680),
    rsa("rsa8192", 8192),
    rsa("rsa15360", 15360),
    rsa("rsa16384", 16384),
];

/// What `shyfr speed --keygen` measures when no algorithm is named.
pub const DEFAULT_KEYGEN: &[&str] = &["rsa2048"];

/// Whether the row is an RSA row (timed per operation by `shyfr speed`).
pub fn is_rsa(a: &Algorithm) -> bool {
    a.rsa_bits.is_some()
}

/// What `shyfr speed` measures when no algorithm is named.
pub const DEFAULT_SPEED: &[&str] = &["aes-128-ecb", "aes-192-ecb", "aes-256-ecb"];

/// The algorithm called `name` (case-insensitive, surrounding spaces ignored).
pub fn find(name: &str) -> Option<&'static Algorithm> {
    ALGORITHMS
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(name.trim()))
}

/// The names of the rows that `keep` selects, comma-separated (for messages and help).
pub fn names(keep: impl Fn(&Algorithm) -> bool) -> String {
    ALGORITHMS
        .iter()
        .filter(|a| keep(a))
        .map(|a| a.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `shyfr hash` takes the row.
pub fn is_hash(a: &Algorithm) -> bool {
    a.digest.is_some_and(|d| d.is_hash())
}

/// Whether `shyfr mac` takes the row.
pub fn is_mac(a: &Algorithm) -> bool {
    a.digest.is_some_and(|d| d.is_mac())
}

/// Whether `shyfr enc` takes the row.
pub fn is_enc(a: &Algorithm) -> bool {
    a.enc.is_some()
}

/// The name that stands for "the portable backend" of any algorithm.
pub const PORTABLE: &str = "portable";

impl Algorithm {
    /// Sets a key up with `backend` (a name from [`resolve_backend`](Self::resolve_backend);
    /// `None` for the library's default choice) for `op`.
    pub fn prepare(&self, backend: Option<&str>, op: Operation) -> Result<Prepared, String> {
        if !self.operations.contains(&op) {
            return Err(format!("{} does not support {}", self.name, op.name()));
        }
        (self.setup)(self, backend, op)
    }

    /// The backends of this algorithm's family compiled into this build, fastest first.
    pub fn backends(&self) -> Vec<BackendStatus> {
        shyfr::registry::backends()
            .filter(|b| b.algorithm == self.family)
            .collect()
    }

    /// The tag of BSD-style checksum lines (`SHA256 (NAME) = HEX`): the name in capitals.
    pub fn tag(&self) -> String {
        self.name.to_ascii_uppercase()
    }

    /// Checks a backend name given on the command line: `portable` (the family's backend
    /// that needs no CPU feature) or one of [`backends`](Self::backends). Returns the
    /// backend's own name, or a message saying why it cannot be used (unknown, with the
    /// valid names; or not available here, with the features it lacks).
    pub fn resolve_backend(&self, name: &str) -> Result<&'static str, String> {
        let all = self.backends();
        let found = if name == PORTABLE {
            all.iter().find(|b| b.needs.is_empty())
        } else {
            all.iter().find(|b| b.backend == name)
        };
        let Some(b) = found else {
            let mut valid = vec![PORTABLE];
            valid.extend(all.iter().map(|b| b.backend));
            return Err(format!(
                "unknown backend '{name}' for {}; valid backends: {}",
                self.name,
                valid.join(", ")
            ));
        };
        if !b.available {
            return Err(format!(
                "backend '{}' of {} is not available on this CPU: {}",
                b.backend,
                self.name,
                why_unavailable(b.needs)
            ));
        }
        Ok(b.backend)
    }
}

/// Why a backend needing `needs` is not available: the features the CPU lacks, and those
/// the override disabled.
pub fn why_unavailable(needs: &[Feature]) -> String {
    let detected = cpu::detected();
    let enabled = cpu::enabled();
    let lacking: Vec<&str> = needs
        .iter()
        .filter(|f| !detected.has(**f))
        .map(|f| f.name())
        .collect();
    let disabled: Vec<&str> = needs
        .iter()
        .filter(|f| detected.has(**f) && !enabled.has(**f))
        .map(|f| f.name())
        .collect();
    let mut parts = Vec::new();
    if !lacking.is_empty() {
        parts.push(format!("CPU lacks {}", lacking.join(" ")));
    }
    if !disabled.is_empty() {
        parts.push(format!("disabled by override: {}", disabled.join(" ")));
    }
    if parts.is_empty() {
        "not usable here".to_string()
    } else {
        parts.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_unique_and_findable() {
        for (i, a) in ALGORITHMS.iter().enumerate() {
            assert!(ALGORITHMS[..i].iter().all(|b| b.name != a.name));
            assert!(std::ptr::eq(find(a.name).unwrap(), a));
            assert!(!a.backends().is_empty(), "{}", a.name);
            assert!(!a.operations.is_empty(), "{}", a.name);
        }
        for d in DEFAULT_SPEED {
            assert!(find(d).is_some());
        }
        assert!(find("AES-128-ECB").is_some());
        assert!(find("aes-128-nope").is_none());
    }

    #[test]
    fn each_command_has_its_rows() {
        // The names each command took before the table was shared.
        for h in [
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
            "shake128",
            "shake256",
        ] {
            assert!(is_hash(find(h).unwrap()), "{h}");
        }
        let sha = |a: &&Algorithm| ["sha1", "sha256", "sha512", "keccak"].contains(&a.family);
        assert_eq!(
            ALGORITHMS.iter().filter(sha).filter(|a| is_hash(a)).count(),
            13
        );
        assert_eq!(
            ALGORITHMS.iter().filter(sha).filter(|a| is_mac(a)).count(),
            13
        );
        for h in ["kupyna-256", "kupyna-384", "kupyna-512"] {
            assert!(is_hash(find(h).unwrap()), "{h}");
        }
        for m in [
            "kupyna-kmac-256",
            "kupyna-kmac-384",
            "kupyna-kmac-512",
            "hmac-kupyna-256",
        ] {
            assert!(is_mac(find(m).unwrap()), "{m}");
        }
        let kupyna = |a: &&Algorithm| a.family == "kupyna";
        assert_eq!(
            ALGORITHMS
                .iter()
                .filter(kupyna)
                .filter(|a| is_hash(a))
                .count(),
            3
        );
        assert_eq!(
            ALGORITHMS
                .iter()
                .filter(kupyna)
                .filter(|a| is_mac(a))
                .count(),
            4
        );
        // ecb cbc cfb cfb8 ofb ctr gcm at three key sizes, xts at two.
        let aes = |a: &&Algorithm| a.family == "aes";
        assert_eq!(
            ALGORITHMS.iter().filter(aes).filter(|a| is_enc(a)).count(),
            23
        );
    }

    #[test]
    fn national_rows() {
        let variants = ["128-128", "128-256", "256-256", "256-512", "512-512"];
        let modes = [
            "ecb", "ctr", "cbc", "cfb", "ofb", "xts", "cmac", "gmac", "gcm", "ccm",
        ];
        for v in variants {
            for m in modes {
                let name = format!("kalyna-{v}-{m}");
                let a = find(&name).unwrap_or_else(|| panic!("{name}"));
                assert_eq!(a.family, "kalyna");
                let (block, key, mode) = crate::ciphers::kalyna_name(a.name).unwrap();
                assert_eq!((mode, key / 8), (m, a.key_len), "{name}");
                let enc = ["ecb", "ctr", "cbc", "cfb", "ofb"].contains(&m);
                assert_eq!(is_enc(a), enc, "{name}");
                assert_eq!(is_mac(a), m == "cmac" || m == "gmac", "{name}");
                if let Some(Digest::CipherMac {
                    key_len, max_len, ..
                }) = a.digest
                {
                    assert_eq!((key_len, max_len), (key / 8, block / 8), "{name}");
                }
                let whole = m == "ecb" || m == "cbc";
                assert_eq!(
                    a.sizes.multiple,
                    if whole { block / 8 } else { 1 },
                    "{name}"
                );
                let has_decrypt = a.operations.contains(&Operation::Decrypt);
                assert_eq!(has_decrypt, !is_mac(a), "{name}");
            }
        }
        assert_eq!(
            ALGORITHMS.iter().filter(|a| a.family == "kalyna").count(),
            50
        );
        for (name, enc, mac) in [
            ("gost28147-ecb", true, false),
            ("gost28147-ctr", true, false),
            ("gost28147-cfb", true, false),
            ("gost28147-mac", false, true),
            ("hmac-gost34311", false, true),
            ("des-ecb", false, false),
            ("des-ede3-ecb", true, false),
            ("des-ede3-cbc", true, false),
        ] {
            let a = find(name).unwrap();
            assert_eq!((is_enc(a), is_mac(a)), (enc, mac), "{name}");
        }
        assert!(is_hash(find("gost34311").unwrap()));
        assert!(find("gost34311").unwrap().digest.unwrap().has_sbox());
        assert!(find("gost28147-mac").unwrap().digest.unwrap().has_sbox());
        assert!(!find("hmac-gost34311").unwrap().digest.unwrap().has_sbox());
    }

    #[test]
    fn rsa_rows() {
        let rsa: Vec<&Algorithm> = ALGORITHMS.iter().filter(|a| is_rsa(a)).collect();
        assert_eq!(rsa.len(), 11);
        for a in rsa {
            let bits = a.rsa_bits.unwrap();
            assert_eq!(a.name, format!("rsa{bits}"));
            assert_eq!((a.family, a.key_len), ("rsa", bits / 8));
            assert_eq!(a.operations, [Operation::Sign, Operation::Verify]);
            assert!(!is_hash(a) && !is_mac(a) && !is_enc(a));
            assert!(a.resolve_backend(PORTABLE) == Ok("soft"));
        }
        assert!(DEFAULT_KEYGEN.iter().all(|n| find(n).is_some_and(is_rsa)));
    }

    #[test]
    fn size_rules() {
        let kw = find("aes-128-kw").unwrap().sizes;
        assert!(kw.check(8, "kw").is_err());
        assert!(kw.check(12, "kw").is_err());
        assert!(kw.check(16, "kw").is_ok());
        assert!(kw.check(24, "kw").is_ok());
        assert_eq!(kw.describe(), "multiples of 8, at least 16 bytes");
        let e = kw.check(8, "aes-128-kw").unwrap_err();
        assert!(e.contains("at least 16"), "{e}");
        let xts = find("aes-128-xts").unwrap().sizes;
        assert!(xts.check(32 << 20, "xts").is_err());
        assert!(xts.check(16 << 20, "xts").is_ok());
        assert_eq!(SizeRule::ANY.describe(), "any");
        assert_eq!(SizeRule::blocks(16).describe(), "multiples of 16");
    }

    #[test]
    fn unknown_backend_lists_valid() {
        let e = find("aes-128-ecb")
            .unwrap()
            .resolve_backend("nope")
            .unwrap_err();
        assert!(e.contains("portable") && e.contains("soft"), "{e}");
    }

    #[test]
    fn portable_resolves_to_soft() {
        let a = find("aes-256-ecb").unwrap();
        assert_eq!(a.resolve_backend(PORTABLE), Ok("soft"));
    }
}
