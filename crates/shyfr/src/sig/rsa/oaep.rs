//! RSAES-OAEP (RFC 8017, 7.1) with MGF1.
#![forbid(unsafe_code)]

use alloc::vec;
use alloc::vec::Vec;

use rand_core::CryptoRng;

use super::{mgf1_xor, RsaPrivateKey, RsaPublicKey};
use crate::ct;
use crate::hash::Hash;
use crate::Error;

impl RsaPublicKey {
    /// RSAES-OAEP encryption of `msg` (at most `k - 2 hLen - 2` bytes) with hash `H`, MGF1
    /// with `H`, and `label` (usually empty).
    pub fn encrypt_oaep<H: Hash, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
        label: &[u8],
    ) -> Result<Vec<u8>, Error> {
        self.encrypt_oaep_with::<H, H, R>(rng, msg, label)
    }

    /// RSAES-OAEP encryption with label hash `H` and MGF1 over `M`.
    pub fn encrypt_oaep_with<H: Hash, M: Hash, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
        label: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let k = self.k;
        let h_len = H::OUTPUT_LEN;
        if k < 2 * h_len + 2 || msg.len() > k - 2 * h_len - 2 {
            return Err(Error::TooLong {
                what: "RSA OAEP message",
            });
        }
        let mut em = vec![0u8; k];
        let (seed, db) = em[1..].split_at_mut(h_len);
        db[..h_len].copy_from_slice(H::digest(label).as_ref());
        let db_len = db.len();
        db[db_len - msg.len() - 1] = 1;
        db[db_len - msg.len()..].copy_from_slice(msg);
        rng.fill_bytes(seed);
        mgf1_xor::<M>(seed, db);
        mgf1_xor::<M>(db, seed);
        self.raw_public(&em)
    }
}

impl RsaPrivateKey {
    /// RSAES-OAEP decryption with hash `H`, MGF1 with `H`, and `label`. Every failure (a
    /// ciphertext of the wrong length or not below `n`, a bad encoding, a different label)
    /// is [`Error::DecryptionFailed`]; the encoding is checked without a branch or index
    /// that depends on the decrypted value.
    pub fn decrypt_oaep<H: Hash, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        ciphertext: &[u8],
        label: &[u8],
    ) -> Result<Vec<u8>, Error> {
        self.decrypt_oaep_with::<H, H, R>(rng, ciphertext, label)
    }

    /// RSAES-OAEP decryption with label hash `H` and MGF1 over `M`.
    pub fn decrypt_oaep_with<H: Hash, M: Hash, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        ciphertext: &[u8],
        label: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let k = self.size();
        let h_len = H::OUTPUT_LEN;
        if k < 2 * h_len + 2 {
            return Err(Error::DecryptionFailed);
        }
        let c = self
            .public
            .os2ip_below_n(ciphertext)
            .ok_or(Error::DecryptionFailed)?;
        let mut em = self.private_op(rng, &c)?.to_be_bytes(k)?;
        let l_hash = H::digest(label);
        let y = em[0];
        let (seed, db) = em[1..].split_at_mut(h_len);
        mgf1_xor::<M>(db, seed);
        mgf1_xor::<M>(seed, db);
        let mut good = !ct::mask_nonzero_u64(y as u64);
        let mut diff = 0u8;
        for (a, b) in db[..h_len].iter().zip(l_hash.as_ref()) {
            diff |= a ^ b;
        }
        good &= !ct::mask_nonzero_u64(diff as u64);
        // After lHash: zero bytes, then 0x01, then the message.
        let mut found = 0u64;
        let mut idx = 0u64;
        let mut bad_byte = 0u64;
        for (i, &b) in db.iter().enumerate().skip(h_len) {
            let is_one = !ct::mask_nonzero_u64((b ^ 1) as u64);
            let is_zero = !ct::mask_nonzero_u64(b as u64);
            let first = is_one & !found;
            idx |= (i as u64) & first;
            bad_byte |= !found & !is_zero & !is_one;
            found |= is_one;
        }
        good &= found & !bad_byte;
        let db_len = db.len();
        let out: Vec<u8> = if good != 0 {
            db[idx as usize + 1..].to_vec()
        } else {
            Vec::new()
        };
        crate::wipe::wipe(&mut em);
        if good != 0 && out.len() + idx as usize + 1 == db_len {
            Ok(out)
        } else {
            Err(Error::DecryptionFailed)
        }
    }
}
