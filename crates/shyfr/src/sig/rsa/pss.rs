//! RSASSA-PSS (RFC 8017, 8.1 and 9.1) with MGF1.
#![forbid(unsafe_code)]

use alloc::vec;
use alloc::vec::Vec;

use rand_core::CryptoRng;

use super::{mgf1_xor, RsaPrivateKey, RsaPublicKey};
use crate::hash::Hash;
use crate::Error;

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
        if m_hash.len() != H::OUTPUT_LEN {
            return Err(Error::InvalidParameter {
                what: "digest length does not match the hash",
            });
        }
        let em_bits = self.bits() - 1;
        let em_len = em_bits.div_ceil(8);
        let h_len = H::OUTPUT_LEN;
        if em_len < h_len + salt_len + 2 {
            return Err(Error::TooLong {
                what: "PSS salt for this key and hash",
            });
        }
        let mut salt = vec![0u8; salt_len];
        rng.fill_bytes(&mut salt);
        let h = pss_hash::<H>(m_hash, &salt);
        let db_len = em_len - h_len - 1;
        let mut em = vec![0u8; self.size()];
        let off = self.size() - em_len;
        {
            let em = &mut em[off..];
            em[db_len - salt_len - 1] = 1;
            em[db_len - salt_len..db_len].copy_from_slice(&salt);
            mgf1_xor::<M>(h.as_ref(), &mut em[..db_len]);
            em[0] &= 0xff >> (8 * em_len - em_bits);
            em[db_len..db_len + h_len].copy_from_slice(h.as_ref());
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
        let bad = Error::InvalidSignature;
        if m_hash.len() != H::OUTPUT_LEN {
            return Err(bad);
        }
        let s = self.os2ip_below_n(sig).ok_or(bad)?;
        let em_bits = self.bits() - 1;
        let em_len = em_bits.div_ceil(8);
        let m = self.m.pow_vartime(&s, &self.e);
        let mut em = m.to_be_bytes(em_len).map_err(|_| bad)?;
        let h_len = H::OUTPUT_LEN;
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
        mgf1_xor::<M>(h, db);
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
        let h2 = pss_hash::<H>(m_hash, &db[one + 1..]);
        if crate::ct::ct_eq(h2.as_ref(), h) {
            Ok(())
        } else {
            Err(bad)
        }
    }
}

#[allow(dead_code)]
fn _assert_vec(_: Vec<u8>) {}
