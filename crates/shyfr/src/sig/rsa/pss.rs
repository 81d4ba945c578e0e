//! RSASSA-PSS (RFC 8017, 8.1 and 9.1) with MGF1.
#![forbid(unsafe_code)]

use alloc::vec;
use alloc::vec::Vec;

use rand_core::CryptoRng;

use super::{mgf1_xor, RsaPrivateKey, RsaPublicKey};
use crate::hash::sha3::{Shake128, Shake256};
use crate::hash::{Hash, Xof, XofReader};
use crate::Error;

/// SHAKE128 or SHAKE256 as the hash *and* the mask generation function of RSASSA-PSS
/// (RFC 8702, section 3.1): the message digest is 32 (SHAKE128) or 64 (SHAKE256) bytes
/// of output, the mask is the XOF's output on the seed, and the usual salt length equals
/// the digest length.
pub trait PssXof: Xof + Default {
    /// Digest length in bytes (256 or 512 bits of output).
    const OUTPUT_LEN: usize;
}

impl PssXof for Shake128 {
    const OUTPUT_LEN: usize = 32;
}

impl PssXof for Shake256 {
    const OUTPUT_LEN: usize = 64;
}

/// `X(parts...)` truncated to `X::OUTPUT_LEN` bytes.
fn xof_digest<X: PssXof>(parts: &[&[u8]]) -> Vec<u8> {
    let mut x = X::default();
    for p in parts {
        x.update(p);
    }
    let mut out = vec![0u8; X::OUTPUT_LEN];
    x.finalize_xof().read(&mut out);
    out
}

/// XORs `X(seed)` into `out`.
fn xof_mask<X: PssXof>(seed: &[u8], out: &mut [u8]) {
    let mut x = X::default();
    x.update(seed);
    let mut mask = vec![0u8; out.len()];
    x.finalize_xof().read(&mut mask);
    for (o, m) in out.iter_mut().zip(&mask) {
        *o ^= m;
    }
}

/// The hash and mask generator of one PSS variant.
struct Scheme {
    h_len: usize,
    /// The hash of `0x00 * 8 || mHash || salt`.
    hash: fn(&[u8], &[u8]) -> Vec<u8>,
    mask: fn(&[u8], &mut [u8]),
}

fn mgf1_scheme<H: Hash, M: Hash>() -> Scheme {
    Scheme {
        h_len: H::OUTPUT_LEN,
        hash: |m, s| pss_hash::<H>(m, s).as_ref().to_vec(),
        mask: mgf1_xor::<M>,
    }
}

fn xof_scheme<X: PssXof>() -> Scheme {
    Scheme {
        h_len: X::OUTPUT_LEN,
        hash: |m, s| xof_digest::<X>(&[&[0u8; 8], m, s]),
        mask: xof_mask::<X>,
    }
}

/// The salt length a PSS verification expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaltLen {
    /// Exactly this many bytes.
    Exact(usize),
    /// Any length: recovered from the encoding (RFC 8017 allows a verifier to do so).
    Auto,
}

impl RsaPrivateKey {
    /// RSASSA-PSS signature of `msg` with hash `H`, MGF1 with `H`, and a random salt as
    /// long as the digest (the usual choice, and what [`RsaPublicKey::verify_pss`]
    /// expects).
    pub fn sign_pss<H: Hash, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>, Error> {
        self.sign_pss_with::<H, H, R>(rng, msg, H::OUTPUT_LEN)
    }

    /// RSASSA-PSS signature with message hash `H`, MGF1 over hash `M` and a random salt of
    /// `salt_len` bytes.
    pub fn sign_pss_with<H: Hash, M: Hash, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
        salt_len: usize,
    ) -> Result<Vec<u8>, Error> {
        self.sign_pss_prehashed::<H, M, R>(rng, H::digest(msg).as_ref(), salt_len)
    }

    /// RSASSA-PSS signature of a digest computed with `H`.
    pub fn sign_pss_prehashed<H: Hash, M: Hash, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        m_hash: &[u8],
        salt_len: usize,
    ) -> Result<Vec<u8>, Error> {
        self.sign_pss_scheme(&mgf1_scheme::<H, M>(), rng, m_hash, salt_len)
    }

    /// RSASSA-PSS signature with SHAKE128 or SHAKE256 as hash and mask generator (RFC
    /// 8702) and a random salt as long as the digest (32 or 64 bytes).
    pub fn sign_pss_shake<X: PssXof, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>, Error> {
        self.sign_pss_shake_with::<X, R>(rng, msg, X::OUTPUT_LEN)
    }

    /// [`sign_pss_shake`](Self::sign_pss_shake) with a salt of `salt_len` bytes.
    pub fn sign_pss_shake_with<X: PssXof, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
        salt_len: usize,
    ) -> Result<Vec<u8>, Error> {
        let m_hash = xof_digest::<X>(&[msg]);
        self.sign_pss_scheme(&xof_scheme::<X>(), rng, &m_hash, salt_len)
    }

    fn sign_pss_scheme<R: CryptoRng + ?Sized>(
        &self,
        sc: &Scheme,
        rng: &mut R,
        m_hash: &[u8],
        salt_len: usize,
    ) -> Result<Vec<u8>, Error> {
        let h_len = sc.h_len;
        if m_hash.len() != h_len {
            return Err(Error::InvalidParameter {
                what: "digest length does not match the hash",
            });
        }
        let em_bits = self.bits() - 1;
        let em_len = em_bits.div_ceil(8);
        if em_len < h_len + salt_len + 2 {
            return Err(Error::TooLong {
                what: "PSS salt for this key and hash",
            });
        }
        let mut salt = vec![0u8; salt_len];
        rng.fill_bytes(&mut salt);
        let h = (sc.hash)(m_hash, &salt);
        let db_len = em_len - h_len - 1;
        let mut em = vec![0u8; self.size()];
        let off = self.size() - em_len;
        {
            let em = &mut em[off..];
            em[db_len - salt_len - 1] = 1;
            em[db_len - salt_len..db_len].copy_from_slice(&salt);
            (sc.mask)(&h, &mut em[..db_len]);
            em[0] &= 0xff >> (8 * em_len - em_bits);
            em[db_len..db_len + h_len].copy_from_slice(&h);
            em[em_len - 1] = 0xbc;
        }
        self.raw_private(rng, &em)
    }
}

/// `H(0x00 * 8 || mHash || salt)`.
fn pss_hash<H: Hash>(m_hash: &[u8], salt: &[u8]) -> H::Output {
    let mut h = H::new();
    h.update(&[0u8; 8]);
    h.update(m_hash);
    h.update(salt);
    h.finalize()
}

impl RsaPublicKey {
    /// Verifies an RSASSA-PSS signature of `msg` with hash `H`, MGF1 with `H` and a salt as
    /// long as the digest.
    pub fn verify_pss<H: Hash>(&self, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        self.verify_pss_with::<H, H>(msg, sig, SaltLen::Exact(H::OUTPUT_LEN))
    }

    /// Verifies an RSASSA-PSS signature with message hash `H`, MGF1 over `M`, and the
    /// given salt length.
    pub fn verify_pss_with<H: Hash, M: Hash>(
        &self,
        msg: &[u8],
        sig: &[u8],
        salt: SaltLen,
    ) -> Result<(), Error> {
        self.verify_pss_prehashed::<H, M>(H::digest(msg).as_ref(), sig, salt)
    }

    /// Verifies an RSASSA-PSS signature of a digest computed with `H`.
    pub fn verify_pss_prehashed<H: Hash, M: Hash>(
        &self,
        m_hash: &[u8],
        sig: &[u8],
        salt: SaltLen,
    ) -> Result<(), Error> {
        self.verify_pss_scheme(&mgf1_scheme::<H, M>(), m_hash, sig, salt)
    }

    /// Verifies an RSASSA-PSS signature with SHAKE128 or SHAKE256 as hash and mask
    /// generator (RFC 8702).
    pub fn verify_pss_shake<X: PssXof>(
        &self,
        msg: &[u8],
        sig: &[u8],
        salt: SaltLen,
    ) -> Result<(), Error> {
        let m_hash = xof_digest::<X>(&[msg]);
        self.verify_pss_scheme(&xof_scheme::<X>(), &m_hash, sig, salt)
    }

    fn verify_pss_scheme(
        &self,
        sc: &Scheme,
        m_hash: &[u8],
        sig: &[u8],
        salt: SaltLen,
    ) -> Result<(), Error> {
        let bad = Error::InvalidSignature;
        let h_len = sc.h_len;
        if m_hash.len() != h_len {
            return Err(bad);
        }
        let s = self.os2ip_below_n(sig).ok_or(bad)?;
        let em_bits = self.bits() - 1;
        let em_len = em_bits.div_ceil(8);
        let m = self.m.pow_vartime(&s, &self.e);
        let mut em = m.to_be_bytes(em_len).map_err(|_| bad)?;
        if em_len < h_len + 2 || em[em_len - 1] != 0xbc {
            return Err(bad);
        }
        let db_len = em_len - h_len - 1;
        let zero_bits = 8 * em_len - em_bits;
        if em[0] & !(0xffu8 >> zero_bits) != 0 {
            return Err(bad);
        }
        let (db, rest) = em.split_at_mut(db_len);
        let h = &rest[..h_len];
        (sc.mask)(h, db);
        db[0] &= 0xff >> zero_bits;
        let one = match db.iter().position(|&b| b != 0) {
            Some(i) if db[i] == 1 => i,
            _ => return Err(bad),
        };
        let s_len = db_len - one - 1;
        if let SaltLen::Exact(want) = salt {
            if want != s_len {
                return Err(bad);
            }
        }
        let h2 = (sc.hash)(m_hash, &db[one + 1..]);
        if crate::ct::ct_eq(&h2, h) {
            Ok(())
        } else {
            Err(bad)
        }
    }
}
