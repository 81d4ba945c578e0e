//! Key formats: PKCS #1 (`RSAPrivateKey`, `RSAPublicKey`; RFC 8017, appendix A.1), PKCS #8
//! (`PrivateKeyInfo`; RFC 5208/5958) and X.509 `SubjectPublicKeyInfo` (RFC 5280), in DER
//! and PEM (RFC 7468), through the RustCrypto `pkcs1`, `pkcs8`, `spki`, `der` and
//! `pem-rfc7468` crates: this module only moves integers in and out of their structures.
#![forbid(unsafe_code)]

use alloc::string::String;
use alloc::vec::Vec;

use der::asn1::{AnyRef, BitStringRef, UintRef};
use der::{Decode, Encode};
use pem_rfc7468::LineEnding;
use spki::{AlgorithmIdentifierRef, ObjectIdentifier, SubjectPublicKeyInfoRef};
use zeroize::Zeroizing;

use super::{RsaPrivateKey, RsaPublicKey};
use crate::arith::bigint::Backend;
use crate::Error;

/// `rsaEncryption` (PKCS #1, RFC 8017 appendix C).
const RSA_ENCRYPTION: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
/// `id-RSASSA-PSS` (RFC 8017 appendix C): keys restricted to PSS. Accepted on import (the
/// restriction in its parameters is not enforced); never written.
const RSASSA_PSS: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.10");

const PKCS1_PRIVATE_LABEL: &str = "RSA PRIVATE KEY";
const PKCS1_PUBLIC_LABEL: &str = "RSA PUBLIC KEY";
const PKCS8_LABEL: &str = "PRIVATE KEY";
const SPKI_LABEL: &str = "PUBLIC KEY";

fn malformed(_: der::Error) -> Error {
    Error::InvalidKey {
        what: "malformed DER",
    }
}

fn bad_pem(_: pem_rfc7468::Error) -> Error {
    Error::InvalidKey {
        what: "malformed PEM",
    }
}

fn algorithm() -> AlgorithmIdentifierRef<'static> {
    AlgorithmIdentifierRef {
        oid: RSA_ENCRYPTION,
        parameters: Some(AnyRef::NULL),
    }
}

/// Checks an `AlgorithmIdentifier` names RSA: `rsaEncryption` with NULL (or absent)
/// parameters, or `id-RSASSA-PSS`.
fn check_algorithm(alg: &AlgorithmIdentifierRef<'_>) -> Result<(), Error> {
    if alg.oid == RSA_ENCRYPTION {
        match alg.parameters {
            None => Ok(()),
            Some(p) if p.is_null() => Ok(()),
            Some(_) => Err(Error::InvalidKey {
                what: "rsaEncryption parameters must be NULL",
            }),
        }
    } else if alg.oid == RSASSA_PSS {
        Ok(())
    } else {
        Err(Error::InvalidKey {
            what: "not an RSA key",
        })
    }
}

fn pem_decode(pem: &str, label: &str) -> Result<Zeroizing<Vec<u8>>, Error> {
    let (got, der) = pem_rfc7468::decode_vec(pem.as_bytes()).map_err(bad_pem)?;
    let der = Zeroizing::new(der);
    if got != label {
        return Err(Error::InvalidKey {
            what: "unexpected PEM label",
        });
    }
    Ok(der)
}

fn pem_encode(label: &str, der: &[u8]) -> Result<Zeroizing<String>, Error> {
    pem_rfc7468::encode_string(label, LineEnding::LF, der)
        .map(Zeroizing::new)
        .map_err(bad_pem)
}

impl RsaPublicKey {
    /// From a DER `RSAPublicKey` (PKCS #1).
    pub fn from_pkcs1_der(der: &[u8]) -> Result<Self, Error> {
        let k = pkcs1::RsaPublicKey::from_der(der).map_err(malformed)?;
        Self::new(k.modulus.as_bytes(), k.public_exponent.as_bytes())
    }

    /// From a PEM `RSA PUBLIC KEY` (PKCS #1).
    pub fn from_pkcs1_pem(pem: &str) -> Result<Self, Error> {
        Self::from_pkcs1_der(&pem_decode(pem, PKCS1_PUBLIC_LABEL)?)
    }

    /// From a DER `SubjectPublicKeyInfo` (the `PUBLIC KEY` of OpenSSL and X.509).
    pub fn from_public_key_der(der: &[u8]) -> Result<Self, Error> {
        Self::from_public_key_der_with_backend(der, Backend::best())
    }

    /// [`from_public_key_der`](Self::from_public_key_der) with an explicit backend.
    pub fn from_public_key_der_with_backend(der: &[u8], backend: Backend) -> Result<Self, Error> {
        let spki = SubjectPublicKeyInfoRef::from_der(der).map_err(malformed)?;
        check_algorithm(&spki.algorithm)?;
        let bits = spki
            .subject_public_key
            .as_bytes()
            .ok_or(Error::InvalidKey {
                what: "public key bit string has unused bits",
            })?;
        let k = pkcs1::RsaPublicKey::from_der(bits).map_err(malformed)?;
        Self::with_backend(k.modulus.as_bytes(), k.public_exponent.as_bytes(), backend)
    }

    /// From a PEM `PUBLIC KEY` (SubjectPublicKeyInfo).
    pub fn from_public_key_pem(pem: &str) -> Result<Self, Error> {
        Self::from_public_key_der(&pem_decode(pem, SPKI_LABEL)?)
    }

    /// From PEM of either kind (`PUBLIC KEY` or `RSA PUBLIC KEY`).
    pub fn from_pem(pem: &str) -> Result<Self, Error> {
        let (label, der) = pem_rfc7468::decode_vec(pem.as_bytes()).map_err(bad_pem)?;
        match label {
            SPKI_LABEL => Self::from_public_key_der(&der),
            PKCS1_PUBLIC_LABEL => Self::from_pkcs1_der(&der),
            _ => Err(Error::InvalidKey {
                what: "unexpected PEM label",
            }),
        }
    }

    /// DER `RSAPublicKey` (PKCS #1).
    pub fn to_pkcs1_der(&self) -> Result<Vec<u8>, Error> {
        let n = self.n_bytes();
        let e = self.e_bytes();
        pkcs1::RsaPublicKey {
            modulus: UintRef::new(&n).map_err(malformed)?,
            public_exponent: UintRef::new(&e).map_err(malformed)?,
        }
        .to_der()
        .map_err(malformed)
    }

    /// PEM `RSA PUBLIC KEY` (PKCS #1).
    pub fn to_pkcs1_pem(&self) -> Result<String, Error> {
        Ok(String::clone(&*pem_encode(
            PKCS1_PUBLIC_LABEL,
            &self.to_pkcs1_der()?,
        )?))
    }

    /// DER `SubjectPublicKeyInfo` with `rsaEncryption`.
    pub fn to_public_key_der(&self) -> Result<Vec<u8>, Error> {
        let pk = self.to_pkcs1_der()?;
        SubjectPublicKeyInfoRef {
            algorithm: algorithm(),
            subject_public_key: BitStringRef::from_bytes(&pk).map_err(malformed)?,
        }
        .to_der()
        .map_err(malformed)
    }

    /// PEM `PUBLIC KEY` (SubjectPublicKeyInfo), what `openssl pkey -pubout` writes.
    pub fn to_public_key_pem(&self) -> Result<String, Error> {
        Ok(String::clone(&*pem_encode(
            SPKI_LABEL,
            &self.to_public_key_der()?,
        )?))
    }
}

impl RsaPrivateKey {
    /// From a DER `RSAPrivateKey` (PKCS #1). Two-prime keys only; the CRT values in the
    /// file must agree with those computed from `d`, `p` and `q`.
    pub fn from_pkcs1_der(der: &[u8]) -> Result<Self, Error> {
        Self::from_pkcs1_der_with_backend(der, Backend::best())
    }

    /// [`from_pkcs1_der`](Self::from_pkcs1_der) with an explicit backend.
    pub fn from_pkcs1_der_with_backend(der: &[u8], backend: Backend) -> Result<Self, Error> {
        let k = pkcs1::RsaPrivateKey::from_der(der).map_err(malformed)?;
        if k.other_prime_infos.is_some() {
            return Err(Error::InvalidKey {
                what: "multi-prime keys are not supported",
            });
        }
        let key = Self::from_components_with_backend(
            k.modulus.as_bytes(),
            k.public_exponent.as_bytes(),
            k.private_exponent.as_bytes(),
            k.prime1.as_bytes(),
            k.prime2.as_bytes(),
            backend,
        )?;
        let same = |mine: &crate::arith::bigint::BoxedUint, theirs: UintRef<'_>| {
            crate::arith::bigint::BoxedUint::from_be_bytes(theirs.as_bytes()).ct_eq(mine)
        };
        if !(same(&key.dp, k.exponent1)
            & same(&key.dq, k.exponent2)
            & same(&key.qinv, k.coefficient))
        {
            return Err(Error::InvalidKey {
                what: "CRT values do not match the key",
            });
        }
        Ok(key)
    }

    /// From a PEM `RSA PRIVATE KEY` (PKCS #1).
    pub fn from_pkcs1_pem(pem: &str) -> Result<Self, Error> {
        Self::from_pkcs1_der(&pem_decode(pem, PKCS1_PRIVATE_LABEL)?)
    }

    /// From a DER `PrivateKeyInfo` (PKCS #8, unencrypted) holding an RSA key.
    pub fn from_pkcs8_der(der: &[u8]) -> Result<Self, Error> {
        Self::from_pkcs8_der_with_backend(der, Backend::best())
    }

    /// [`from_pkcs8_der`](Self::from_pkcs8_der) with an explicit backend.
    pub fn from_pkcs8_der_with_backend(der: &[u8], backend: Backend) -> Result<Self, Error> {
        let info = pkcs8::PrivateKeyInfo::from_der(der).map_err(malformed)?;
        check_algorithm(&info.algorithm)?;
        Self::from_pkcs1_der_with_backend(info.private_key, backend)
    }

    /// From a PEM `PRIVATE KEY` (PKCS #8, unencrypted), what `openssl genpkey` writes.
    pub fn from_pkcs8_pem(pem: &str) -> Result<Self, Error> {
        Self::from_pkcs8_der(&pem_decode(pem, PKCS8_LABEL)?)
    }

    /// From PEM of either kind (`PRIVATE KEY` or `RSA PRIVATE KEY`).
    pub fn from_pem(pem: &str) -> Result<Self, Error> {
        let (label, der) = pem_rfc7468::decode_vec(pem.as_bytes()).map_err(bad_pem)?;
        let der = Zeroizing::new(der);
        match label {
            PKCS8_LABEL => Self::from_pkcs8_der(&der),
            PKCS1_PRIVATE_LABEL => Self::from_pkcs1_der(&der),
            _ => Err(Error::InvalidKey {
                what: "unexpected PEM label",
            }),
        }
    }

    /// DER `RSAPrivateKey` (PKCS #1), zeroed when dropped.
    pub fn to_pkcs1_der(&self) -> Result<Zeroizing<Vec<u8>>, Error> {
        let pk = &self.public;
        let parts = [
            pk.n_bytes(),
            pk.e_bytes(),
            self.d.to_be_bytes_trimmed_vartime(),
            self.p.to_be_bytes_trimmed_vartime(),
            self.q.to_be_bytes_trimmed_vartime(),
            self.dp.to_be_bytes_trimmed_vartime(),
            self.dq.to_be_bytes_trimmed_vartime(),
            self.qinv.to_be_bytes_trimmed_vartime(),
        ]
        .map(Zeroizing::new);
        let u = |i: usize| UintRef::new(&parts[i]).map_err(malformed);
        let key = pkcs1::RsaPrivateKey {
            modulus: u(0)?,
            public_exponent: u(1)?,
            private_exponent: u(2)?,
            prime1: u(3)?,
            prime2: u(4)?,
            exponent1: u(5)?,
            exponent2: u(6)?,
            coefficient: u(7)?,
            other_prime_infos: None,
        };
        key.to_der().map(Zeroizing::new).map_err(malformed)
    }

    /// PEM `RSA PRIVATE KEY` (PKCS #1), zeroed when dropped.
    pub fn to_pkcs1_pem(&self) -> Result<Zeroizing<String>, Error> {
        pem_encode(PKCS1_PRIVATE_LABEL, &self.to_pkcs1_der()?)
    }

    /// DER `PrivateKeyInfo` (PKCS #8, unencrypted), zeroed when dropped.
    pub fn to_pkcs8_der(&self) -> Result<Zeroizing<Vec<u8>>, Error> {
        let inner = self.to_pkcs1_der()?;
        pkcs8::PrivateKeyInfo::new(algorithm(), &inner)
            .to_der()
            .map(Zeroizing::new)
            .map_err(malformed)
    }

    /// PEM `PRIVATE KEY` (PKCS #8, unencrypted), what `openssl genpkey` writes; zeroed
    /// when dropped.
    pub fn to_pkcs8_pem(&self) -> Result<Zeroizing<String>, Error> {
        pem_encode(PKCS8_LABEL, &self.to_pkcs8_der()?)
    }
}
