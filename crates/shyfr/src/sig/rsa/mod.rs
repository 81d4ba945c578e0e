//! RSA (PKCS #1 v2.2, RFC 8017): key generation, RSASSA-PSS and RSASSA-PKCS1-v1_5
//! signatures, RSAES-OAEP and RSAES-PKCS1-v1_5 encryption, keys in PKCS #1, PKCS #8 and
//! SubjectPublicKeyInfo (DER and PEM).
//!
//! ```
//! # #[cfg(feature = "getrandom")] {
//! use shyfr::hash::sha2::Sha256;
//! use shyfr::rand::OsRng;
//! use shyfr::sig::rsa::{RsaPrivateKey, RsaPublicKey};
//!
//! let key = RsaPrivateKey::generate(1024, &mut OsRng).unwrap();
//! let public = key.public_key();
//!
//! let sig = key.sign_pkcs1v15::<Sha256, _>(&mut OsRng, b"message").unwrap();
//! public.verify_pkcs1v15::<Sha256>(b"message", &sig).unwrap();
//! assert!(public.verify_pkcs1v15::<Sha256>(b"massage", &sig).is_err());
//!
//! let ct = public.encrypt_oaep::<Sha256, _>(&mut OsRng, b"secret", b"").unwrap();
//! assert_eq!(key.decrypt_oaep::<Sha256, _>(&mut OsRng, &ct, b"").unwrap(), b"secret");
//!
//! let pem = key.to_pkcs8_pem().unwrap();
//! let again = RsaPrivateKey::from_pkcs8_pem(&pem).unwrap();
//! assert_eq!(again.public_key(), public);
//! let spki = RsaPublicKey::from_public_key_pem(&public.to_public_key_pem().unwrap()).unwrap();
//! assert_eq!(&spki, public);
//! # }
//! ```
//!
//! # Side channels
//!
//! Private operations are constant time in every secret (see [`RsaPrivateKey`]). Public
//! operations branch only on public values (the exponent `e`, lengths). OAEP and PKCS #1
//! v1.5 decryption check the padding without a branch or index that depends on the
//! decrypted value and return one error for every failure; PKCS #1 v1.5 decryption by
//! default does not even fail ([`RsaPrivateKey::decrypt_pkcs1v15`], implicit rejection).
//!
//! # Arithmetic
//!
//! [`crate::arith::bigint`]: the backend (`x86_ifma`, `x86_adx`, `aarch64`, `soft`) is
//! chosen when a key is loaded; `with_backend` constructors pin one.

mod encoding;
mod hashes;
mod key;
mod oaep;
mod pkcs1v15;
mod pss;

pub use hashes::RsaHash;
pub use key::{
    RsaPrivateKey, RsaPublicKey, DEFAULT_EXPONENT, MAX_BITS, MAX_EXPONENT_BITS, MIN_BITS,
};
pub use pss::{PssXof, SaltLen};

use crate::hash::Hash;

/// MGF1 (RFC 8017, B.2.1) with hash `H`: XORs the mask of `seed` into `out`.
pub(crate) fn mgf1_xor<H: Hash>(seed: &[u8], out: &mut [u8]) {
    for (counter, chunk) in out.chunks_mut(H::OUTPUT_LEN).enumerate() {
        let mut h = H::new();
        h.update(seed);
        h.update(&(counter as u32).to_be_bytes());
        let d = h.finalize();
        for (o, x) in chunk.iter_mut().zip(d.as_ref()) {
            *o ^= x;
        }
    }
}
