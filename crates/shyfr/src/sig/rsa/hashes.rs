//! The DER `DigestInfo` prefix of each hash, for RSASSA-PKCS1-v1_5 (RFC 8017, 9.2, note 1;
//! object identifiers from NIST's Computer Security Objects Register and RFC 8017).
#![forbid(unsafe_code)]

use crate::hash::sha1::Sha1;
use crate::hash::sha2::{Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};
use crate::hash::sha3::{Sha3_224, Sha3_256, Sha3_384, Sha3_512};
use crate::hash::Hash;

/// A hash usable in RSASSA-PKCS1-v1_5: one with an object identifier, so that its
/// `DigestInfo` (`SEQUENCE { SEQUENCE { OID, NULL }, OCTET STRING digest }`) is defined.
/// PSS and OAEP accept any [`Hash`].
pub trait RsaHash: Hash {
    /// The DER encoding of `DigestInfo` up to (not including) the digest bytes.
    const DIGEST_INFO_PREFIX: &'static [u8];
}

/// The prefix for a hash under NIST's `2.16.840.1.101.3.4.2.<id>` arc.
const fn nist(id: u8, len: u8) -> [u8; 19] {
    [
        0x30,
        0x11 + len,
        0x30,
        0x0d,
        0x06,
        0x09,
        0x60,
        0x86,
        0x48,
        0x01,
        0x65,
        0x03,
        0x04,
        0x02,
        id,
        0x05,
        0x00,
        0x04,
        len,
    ]
}

impl RsaHash for Sha1 {
    // 1.3.14.3.2.26
    const DIGEST_INFO_PREFIX: &'static [u8] = &[
        0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14,
    ];
}

macro_rules! nist_hash {
    ($($t:ty => $id:expr, $len:expr;)*) => {$(
        impl RsaHash for $t {
            const DIGEST_INFO_PREFIX: &'static [u8] = &nist($id, $len);
        }
    )*};
}

nist_hash! {
    Sha256 => 1, 32;
    Sha384 => 2, 48;
    Sha512 => 3, 64;
    Sha224 => 4, 28;
    Sha512_224 => 5, 28;
    Sha512_256 => 6, 32;
    Sha3_224 => 7, 28;
    Sha3_256 => 8, 32;
    Sha3_384 => 9, 48;
    Sha3_512 => 10, 64;
}
