//! RSASSA-PKCS1-v1_5 (RFC 8017, 8.2 and 9.2) and RSAES-PKCS1-v1_5 (7.2).
#![forbid(unsafe_code)]

use alloc::vec;
use alloc::vec::Vec;

use rand_core::CryptoRng;

use super::{RsaHash, RsaPrivateKey, RsaPublicKey};
use crate::ct;
use crate::hash::sha2::Sha256;

use crate::mac::hmac::Hmac;
use crate::Error;

/// EMSA-PKCS1-v1_5 encoding of a digest into `k` bytes.
fn emsa_pkcs1v15<H: RsaHash>(digest: &[u8], k: usize) -> Result<Vec<u8>, Error> {
    if digest.len() != H::OUTPUT_LEN {
        return Err(Error::InvalidParameter {
            what: "digest length does not match the hash",
        });
    }
    let t_len = H::DIGEST_INFO_PREFIX.len() + H::OUTPUT_LEN;
    if k < t_len + 11 {
        return Err(Error::TooShort {
            what: "RSA modulus for this hash",
        });
    }
    let mut em = vec![0xffu8; k];
    em[0] = 0;
    em[1] = 1;
    em[k - t_len - 1] = 0;
    em[k - t_len..k - H::OUTPUT_LEN].copy_from_slice(H::DIGEST_INFO_PREFIX);
    em[k - H::OUTPUT_LEN..].copy_from_slice(digest);
    Ok(em)
}

impl RsaPrivateKey {
    /// RSASSA-PKCS1-v1_5 signature of `msg` with hash `H` (deterministic; `rng` blinds the
    /// private operation).
    pub fn sign_pkcs1v15<H: RsaHash, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>, Error> {
        self.sign_pkcs1v15_prehashed::<H, R>(rng, H::digest(msg).as_ref())
    }

    /// RSASSA-PKCS1-v1_5 signature of a digest already computed with `H`.
    pub fn sign_pkcs1v15_prehashed<H: RsaHash, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        digest: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let em = emsa_pkcs1v15::<H>(digest, self.size())?;
        self.raw_private(rng, &em)
    }

    /// RSAES-PKCS1-v1_5 decryption with implicit rejection: a ciphertext whose padding is
    /// wrong decrypts to a pseudorandom message derived from the key and the ciphertext
    /// (so the caller cannot tell, and need not handle, a padding failure: the protocol
    /// fails later, as it would for a wrong message). This is the countermeasure against
    /// Bleichenbacher's padding oracle of OpenSSL 3.2 and the IETF draft
    /// "Implementation Guidance for the PKCS #1 RSA Cryptography Specification"
    /// (draft-irtf-cfrg-rsa-guidance): key-derivation key
    /// `HMAC-SHA256(SHA256(d as k bytes), C)`, synthetic message and length from a
    /// counter-mode HMAC-SHA256 PRF with labels `"message"` and `"length"`. It follows
    /// that construction but has not been checked byte for byte against OpenSSL (3.0 on
    /// our test machine predates it).
    ///
    /// The only errors are for a ciphertext of the wrong length or not below `n` (public
    /// properties) and [`Error::ComputationFault`].
    pub fn decrypt_pkcs1v15<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let k = self.size();
        let c = self
            .public
            .os2ip_below_n(ciphertext)
            .ok_or(Error::DecryptionFailed)?;
        let em = self.private_op(rng, &c)?.to_be_bytes(k)?;
        let (good, idx) = parse_type2(&em);
        let (synthetic, syn_len) = self.synthetic_message(ciphertext);
        // Select, byte by byte, the real or the synthetic message (right-aligned in k
        // bytes), and its length.
        let mut buf = vec![0u8; k];
        let gm = good.wrapping_neg(); // u64 mask
        for (i, b) in buf.iter_mut().enumerate() {
            let real = em[i] & (ct::mask_nonzero_u64(((i > idx) as u64) & 1) as u8);
            *b = (real & gm as u8) | (synthetic[i] & !(gm as u8));
        }
        let real_len = (k - 1 - idx) as u64;
        let len = ct::select_u64(gm, real_len, syn_len as u64) as usize;
        Ok(take_tail(buf, len))
    }

    /// RSAES-PKCS1-v1_5 decryption that reports a bad padding: one error,
    /// [`Error::DecryptionFailed`], for every failure, after the same work (the padding is
    /// checked without a branch or index that depends on the decrypted value). Use it only
    /// where a decryption failure cannot be observed by an attacker (its *existence* is
    /// the padding oracle); prefer [`decrypt_pkcs1v15`](Self::decrypt_pkcs1v15) or OAEP.
    pub fn decrypt_pkcs1v15_explicit<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        ciphertext: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let k = self.size();
        let c = self
            .public
            .os2ip_below_n(ciphertext)
            .ok_or(Error::DecryptionFailed)?;
        let em = self.private_op(rng, &c)?.to_be_bytes(k)?;
        let (good, idx) = parse_type2(&em);
        if good == 0 {
            return Err(Error::DecryptionFailed);
        }
        Ok(take_tail(em, k - 1 - idx))
    }

    /// The implicit-rejection message for `ciphertext`: `k` pseudorandom bytes and a
    /// length below `k - 10`.
    fn synthetic_message(&self, ciphertext: &[u8]) -> (Vec<u8>, usize) {
        let k = self.size();
        let mut dbytes = self.d.to_be_bytes(k).expect("d < n");
        let dh = Sha256::digest(&dbytes);
        crate::wipe::wipe(&mut dbytes);
        let kdk = Hmac::<Sha256>::mac(&dh, ciphertext);
        let prf = |label: &[u8], out: &mut [u8]| {
            let bits = (out.len() * 8) as u16;
            for (i, chunk) in out.chunks_mut(32).enumerate() {
                let mut h = Hmac::<Sha256>::new(&kdk);
                h.update(&(i as u16).to_be_bytes());
                h.update(label);
                h.update(&bits.to_be_bytes());
                let t = h.finalize();
                chunk.copy_from_slice(&t[..chunk.len()]);
            }
        };
        let mut msg = vec![0u8; k];
        prf(b"message", &mut msg);
        let mut lens = [0u8; 256];
        prf(b"length", &mut lens);
        let max = (k - 2 - 8) as u64;
        let mut mask = max;
        for s in [1, 2, 4, 8] {
            mask |= mask >> s;
        }
        let mut len = 0u64;
        for pair in lens.chunks_exact(2) {
            let cand = (((pair[0] as u64) << 8) | pair[1] as u64) & mask;
            let ok = ct::mask_nonzero_u64(((cand < max) as u64) & 1);
            len = ct::select_u64(ok, cand, len);
        }
        (msg, len as usize)
    }
}

/// Checks `EM = 00 || 02 || PS (>= 8 non-zero bytes) || 00 || M` without a secret branch:
/// returns (1 if well formed else 0, index of the separating zero byte (0 if none)).
fn parse_type2(em: &[u8]) -> (u64, usize) {
    let mut good = ct::mask_nonzero_u64(0) ^ u64::MAX; // all ones
    good &= !ct::mask_nonzero_u64(em[0] as u64);
    good &= !ct::mask_nonzero_u64((em[1] ^ 2) as u64);
    let mut found = 0u64;
    let mut idx = 0u64;
    for (i, &b) in em.iter().enumerate().skip(2) {
        let zero = !ct::mask_nonzero_u64(b as u64);
        let first = zero & !found;
        idx |= (i as u64) & first;
        found |= zero;
    }
    good &= found;
    // PS at least 8 bytes: the separator at index >= 10.
    good &= !ct::mask_nonzero_u64(((idx < 10) as u64) & 1);
    (good & 1, ct::select_u64(good, idx, 0) as usize)
}

/// The last `len` bytes of `buf` moved to the front (a fixed sequence of conditional
/// shifts by powers of two, so the memory accesses do not depend on `len`), truncated
/// to `len`.
fn take_tail(mut buf: Vec<u8>, len: usize) -> Vec<u8> {
    let n = buf.len();
    let shift = (n - len) as u64;
    let mut s = 1usize;
    while s < n {
        let m = ct::mask_nonzero_u64(shift & s as u64) as u8;
        for i in 0..n {
            let src = if i + s < n { buf[i + s] } else { 0 };
            buf[i] = (src & m) | (buf[i] & !m);
        }
        s <<= 1;
    }
    buf.truncate(len);
    buf
}

impl RsaPublicKey {
    /// Verifies an RSASSA-PKCS1-v1_5 signature of `msg` with hash `H`.
    pub fn verify_pkcs1v15<H: RsaHash>(&self, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        self.verify_pkcs1v15_prehashed::<H>(H::digest(msg).as_ref(), sig)
    }

    /// Verifies an RSASSA-PKCS1-v1_5 signature of a digest computed with `H`.
    pub fn verify_pkcs1v15_prehashed<H: RsaHash>(
        &self,
        digest: &[u8],
        sig: &[u8],
    ) -> Result<(), Error> {
        let expected = emsa_pkcs1v15::<H>(digest, self.k).map_err(|_| Error::InvalidSignature)?;
        let s = self.os2ip_below_n(sig).ok_or(Error::InvalidSignature)?;
        let em = self.m.pow_vartime(&s, &self.e).to_be_bytes(self.k)?;
        if ct::ct_eq(&em, &expected) {
            Ok(())
        } else {
            Err(Error::InvalidSignature)
        }
    }

    /// RSAES-PKCS1-v1_5 encryption of `msg` (at most `k - 11` bytes). Prefer OAEP for new
    /// protocols.
    pub fn encrypt_pkcs1v15<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let k = self.k;
        if msg.len() + 11 > k {
            return Err(Error::TooLong {
                what: "RSA PKCS#1 v1.5 message",
            });
        }
        let mut em = vec![0u8; k];
        em[1] = 2;
        let ps_end = k - msg.len() - 1;
        for b in em[2..ps_end].iter_mut() {
            while *b == 0 {
                let mut x = [0u8; 1];
                rng.fill_bytes(&mut x);
                *b = x[0];
            }
        }
        em[ps_end + 1..].copy_from_slice(msg);
        self.raw_public(&em)
    }
}
