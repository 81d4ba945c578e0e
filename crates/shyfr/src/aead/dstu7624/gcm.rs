//! DSTU 7624:2014 GCM and GMAC.
//!
//! ```
//! use shyfr::aead::dstu7624::gcm::{Gcm, Gmac};
//! use shyfr::kalyna::Kalyna256_256;
//! let gcm = Gcm::new(Kalyna256_256::new(&[1; 32]), 32).unwrap();
//! let iv = [2u8; 32];
//! let mut buf = *b"attack at dawn";
//! let tag = gcm.seal_in_place(&iv, b"hdr", &mut buf).unwrap();
//! gcm.open_in_place(&iv, b"hdr", &mut buf, tag.as_bytes()).unwrap();
//! assert_eq!(&buf, b"attack at dawn");
//! let mut bad = tag.as_bytes().to_vec();
//! bad[0] ^= 1;
//! assert!(gcm.open_in_place(&iv, b"hdr", &mut buf, &bad).is_err());
//!
//! let mac = Gmac::new(Kalyna256_256::new(&[1; 32]), 16).unwrap().mac(b"message");
//! assert_eq!(mac.as_bytes().len(), 16);
//! ```
#![forbid(unsafe_code)]

use super::field;
use crate::block::{InOutBuf, MAX_BLOCK_LEN};
use crate::mode::dstu7624::ctr::Ctr;
use crate::mode::dstu7624::{check_tag_len, pad_partial, Dstu7624Cipher, Tag};
use crate::Error;

/// The hash state: `y = (y ^ block) * H` in GF(2^b), on little-endian words, with the
/// multiplier chosen at key set-up (PCLMULQDQ where the CPU has it, else portable).
#[derive(Clone)]
struct Hash {
    h: [u64; 8],
    y: [u64; 8],
    words: usize,
    #[cfg(target_arch = "x86_64")]
    clmul: Option<crate::cpu::x86::Pclmul>,
    /// `H^(i+1)` for the aggregated hash of up to `MAX_AGG` blocks (PCLMULQDQ only).
    #[cfg(target_arch = "x86_64")]
    powers: [[u64; 8]; super::field_x86_vpclmul::MAX_AGG],
    /// The same powers laid out for VPCLMULQDQ on 512-bit registers, where present.
    #[cfg(target_arch = "x86_64")]
    wide: Option<(
        crate::cpu::x86::Vpclmul512,
        super::field_x86_vpclmul::Multipliers,
    )>,
}

/// Blocks hashed per reduction with PCLMULQDQ: independent products, one reduction, no
/// chain of dependent multiplications.
#[cfg(target_arch = "x86_64")]
const AGG: usize = 8;

impl Hash {
    fn new(h_bytes: &[u8]) -> Hash {
        let mut h = [0u64; 8];
        for (w, c) in h.iter_mut().zip(h_bytes.chunks_exact(8)) {
            *w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        }
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut hash = Hash {
            h,
            y: [0; 8],
            words: h_bytes.len() / 8,
            #[cfg(target_arch = "x86_64")]
            clmul: crate::cpu::x86::Pclmul::get(),
            #[cfg(target_arch = "x86_64")]
            powers: [[0; 8]; super::field_x86_vpclmul::MAX_AGG],
            #[cfg(target_arch = "x86_64")]
            wide: None,
        };
        #[cfg(target_arch = "x86_64")]
        if hash.clmul.is_some() {
            let wide = crate::cpu::x86::Vpclmul512::get();
            // Only the powers the hash uses: a window's blocks with VPCLMULQDQ on 512-bit
            // registers (8 of them for 512-bit blocks, 32 for 128-bit ones), else `AGG`.
            let need = match wide {
                Some(_) => super::field_x86_vpclmul::agg(hash.words),
                None => AGG,
            };
            hash.powers[0] = h;
            for i in 1..need {
                // H^(i+1) = H^i * H, with the hash state as scratch.
                hash.y = hash.powers[i - 1];
                hash.mul_h();
                hash.powers[i] = hash.y;
            }
            hash.y = [0; 8];
            if let Some(t) = wide {
                use super::field_x86_vpclmul::Multipliers;
                let m = match hash.words {
                    2 => Multipliers::new::<2>(&hash.powers),
                    4 => Multipliers::new::<4>(&hash.powers),
                    _ => Multipliers::new::<8>(&hash.powers),
                };
                hash.wide = Some((t, m));
            }
        }
        hash
    }

    /// Absorbs whole blocks.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    fn blocks(&mut self, mut data: &[u8]) {
        let bl = 8 * self.words;
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = self.clmul {
            // Groups of n blocks: y = (y + X_1) H^n + X_2 H^(n-1) + ... + X_n H.
            let group_len = if self.wide.is_some() {
                super::field_x86_vpclmul::WINDOW
            } else {
                AGG * bl
            };
            while data.len() >= group_len {
                let (group, rest) = data.split_at(group_len);
                match self.words {
                    2 => self.group::<2>(t, group),
                    4 => self.group::<4>(t, group),
                    _ => self.group::<8>(t, group),
                }
                data = rest;
            }
        }
        for blk in data.chunks_exact(bl) {
            for (w, c) in self.y.iter_mut().zip(blk.chunks_exact(8)) {
                *w ^= u64::from_le_bytes(c.try_into().expect("8 bytes"));
            }
            self.mul_h();
        }
    }

    /// One group of `AGG` blocks with the powers of `H` and one reduction.
    #[cfg(target_arch = "x86_64")]
    fn group<const W: usize>(&mut self, t: crate::cpu::x86::Pclmul, group: &[u8]) {
        if let Some((v, m)) = &self.wide {
            super::field_x86_vpclmul::hash_window::<W>(*v, &mut self.y, group, m);
        } else {
            super::field_x86_pclmul::hash_group::<W>(t, &mut self.y, group, &self.powers[..AGG]);
        }
    }

    fn mul_h(&mut self) {
        self.y = self.mul(&self.y, &self.h);
    }

    /// `a * b` in the hash's field (the first `words` words of each; the rest zero).
    fn mul(&self, a: &[u64; 8], b: &[u64; 8]) -> [u64; 8] {
        let mut out = [0u64; 8];
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = self.clmul {
            use super::field_x86_pclmul as x;
            match self.words {
                2 => out[..2].copy_from_slice(&x::mul::<2>(t, &[a[0], a[1]], &[b[0], b[1]])),
                4 => {
                    let (a4, b4): ([u64; 4], [u64; 4]) = (
                        core::array::from_fn(|i| a[i]),
                        core::array::from_fn(|i| b[i]),
                    );
                    out[..4].copy_from_slice(&x::mul::<4>(t, &a4, &b4));
                }
                _ => out = x::mul::<8>(t, a, b),
            }
            return out;
        }
        match self.words {
            2 => out[..2].copy_from_slice(&field::mul::<2>(&[a[0], a[1]], &[b[0], b[1]])),
            4 => {
                let (a4, b4): ([u64; 4], [u64; 4]) = (
                    core::array::from_fn(|i| a[i]),
                    core::array::from_fn(|i| b[i]),
                );
                out[..4].copy_from_slice(&field::mul::<4>(&a4, &b4));
            }
            _ => out = field::mul::<8>(a, b),
        }
        out
    }

    /// `y = y H^k` (square and multiply on `k`, a public block count).
    #[cfg(feature = "parallel")]
    fn mul_h_pow(&mut self, k: usize) {
        let mut p = self.h;
        let mut k = k;
        while k > 0 {
            if k & 1 == 1 {
                self.y = self.mul(&self.y, &p);
            }
            k >>= 1;
            if k > 0 {
                p = self.mul(&p, &p);
            }
        }
        zeroize::Zeroize::zeroize(&mut p);
    }

    /// [`blocks`](Self::blocks) on `data` (whole blocks) split `n` ways across threads:
    /// each later part is hashed from zero by its own copy of the key, then
    /// `y = y H^m + y_part` for a part of `m` blocks (the hash is linear in `y`).
    #[cfg(feature = "parallel")]
    fn blocks_split(&mut self, data: &[u8], n: usize) {
        let bl = 8 * self.words;
        // Parts of whole hash windows (512 bytes) so that every part runs the wide kernel.
        let unit = 512.max(bl);
        let units = data.len() / unit;
        if n <= 1 || units < 2 {
            self.blocks(data);
            return;
        }
        let (a, b) = data.split_at(units / 2 * unit);
        let mut tail = self.clone();
        tail.y = [0; 8];
        rayon::join(
            || self.blocks_split(a, n / 2),
            || tail.blocks_split(b, n - n / 2),
        );
        self.mul_h_pow(b.len() / bl);
        for (y, t) in self.y.iter_mut().zip(&tail.y) {
            *y ^= t;
        }
    }

    /// Absorbs data of any length, the tail zero-padded (`pad80` false) or padded with
    /// 0x80 0.. (`pad80` true); returns the bytes absorbed (the padded length).
    fn padded(&mut self, data: &[u8], pad80: bool) -> usize {
        let bl = 8 * self.words;
        let whole = data.len() / bl * bl;
        #[cfg(feature = "parallel")]
        self.blocks_split(&data[..whole], crate::mode::pieces(whole));
        #[cfg(not(feature = "parallel"))]
        self.blocks(&data[..whole]);
        let r = data.len() - whole;
        if r == 0 {
            return whole;
        }
        let mut last = [0u8; MAX_BLOCK_LEN];
        last[..r].copy_from_slice(&data[whole..]);
        if pad80 {
            last[r] = 0x80;
        }
        self.blocks(&last[..bl]);
        crate::wipe::wipe(&mut last);
        whole + bl
    }

    /// `y` as bytes, XORed with the length block of `aad_bytes` and `data_bytes`.
    fn finish(&self, aad_bytes: usize, data_bytes: usize) -> [u8; MAX_BLOCK_LEN] {
        let bl = 8 * self.words;
        let mut out = [0u8; MAX_BLOCK_LEN];
        for (c, w) in out.chunks_exact_mut(8).zip(&self.y).take(self.words) {
            c.copy_from_slice(&w.to_le_bytes());
        }
        let a = (aad_bytes as u64).wrapping_mul(8).to_le_bytes();
        let d = (data_bytes as u64).wrapping_mul(8).to_le_bytes();
        for i in 0..8 {
            out[i] ^= a[i];
            out[bl / 2 + i] ^= d[i];
        }
        out
    }
}

impl Drop for Hash {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.h);
        zeroize::Zeroize::zeroize(&mut self.y);
        #[cfg(target_arch = "x86_64")]
        zeroize::Zeroize::zeroize(self.powers.as_flattened_mut());
    }
}

/// `H = E(0)` of a cipher.
fn hash_key<C: Dstu7624Cipher>(cipher: &C) -> Result<Hash, Error> {
    let mut z = [0u8; MAX_BLOCK_LEN];
    cipher.encrypt_blocks(&mut z[..C::BLOCK_LEN])?;
    let h = Hash::new(&z[..C::BLOCK_LEN]);
    crate::wipe::wipe(&mut z);
    Ok(h)
}

fn check_block<C: Dstu7624Cipher>() -> Result<(), Error> {
    if !matches!(C::BLOCK_LEN, 16 | 32 | 64) {
        return Err(Error::InvalidParameter {
            what: "dstu 7624 gcm needs a 128-, 256- or 512-bit block cipher",
        });
    }
    Ok(())
}

/// DSTU 7624 GCM with a fixed key and tag length.
pub struct Gcm<C: Dstu7624Cipher> {
    cipher: C,
    hash: Hash,
    q: usize,
}

impl<C: Dstu7624Cipher + Sync> Gcm<C> {
    /// GCM with `q`-byte tags (8 to the block length).
    pub fn new(cipher: C, q: usize) -> Result<Self, Error> {
        check_block::<C>()?;
        check_tag_len(q, C::BLOCK_LEN)?;
        let hash = hash_key(&cipher)?;
        Ok(Gcm { cipher, hash, q })
    }

    /// The tag of `aad` and `ct`.
    fn tag(&self, aad: &[u8], ct: &[u8]) -> Result<Tag, Error> {
        let mut h = self.hash.clone();
        h.padded(aad, false);
        let n = h.padded(ct, true);
        let mut t = h.finish(aad.len(), n);
        self.cipher.encrypt_blocks(&mut t[..C::BLOCK_LEN])?;
        let tag = Tag::new(&t, self.q);
        crate::wipe::wipe(&mut t);
        Ok(tag)
    }

    fn gamma(&self, iv: &[u8], data: InOutBuf<'_>) -> Result<(), Error> {
        Ctr::new(&self.cipher, iv)?.apply_inout(data)
    }

    /// Encrypts `buf` in place under `iv` (one block) and returns the tag.
    pub fn seal_in_place(&self, iv: &[u8], aad: &[u8], buf: &mut [u8]) -> Result<Tag, Error> {
        self.gamma(iv, InOutBuf::in_place(buf))?;
        self.tag(aad, buf)
    }

    /// Encrypts `plaintext` into `ciphertext` (same length) and returns the tag.
    pub fn seal_to(
        &self,
        iv: &[u8],
        aad: &[u8],
        plaintext: &[u8],
        ciphertext: &mut [u8],
    ) -> Result<Tag, Error> {
        self.gamma(iv, InOutBuf::new(plaintext, ciphertext)?)?;
        self.tag(aad, ciphertext)
    }

    /// Checks `tag` over the ciphertext in `buf` in constant time, then decrypts it in
    /// place. On failure `buf` is zeroed and [`Error::AuthenticationFailed`] returned.
    pub fn open_in_place(
        &self,
        iv: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        if tag.len() != self.q {
            buf.fill(0);
            return Err(Error::InvalidTagLength { got: tag.len() });
        }
        if let Err(e) = self.tag(aad, buf).and_then(|t| t.verify(tag)) {
            crate::wipe::wipe(buf);
            return Err(e);
        }
        self.gamma(iv, InOutBuf::in_place(buf))
    }

    /// Checks `tag` over `ciphertext`, then decrypts it into `plaintext` (same length). On
    /// failure `plaintext` is zeroed.
    pub fn open_to(
        &self,
        iv: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        plaintext: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        let io = InOutBuf::new(ciphertext, plaintext)?;
        let ok = tag.len() == self.q
            && self
                .tag(aad, ciphertext)
                .and_then(|t| t.verify(tag))
                .is_ok();
        if !ok {
            let out = io.into_copied_output();
            crate::wipe::wipe(out);
            return Err(if tag.len() != self.q {
                Error::InvalidTagLength { got: tag.len() }
            } else {
                Error::AuthenticationFailed
            });
        }
        self.gamma(iv, io)
    }
}

/// DSTU 7624 GMAC: the hash of the message alone, without IV; streaming.
pub struct Gmac<C: Dstu7624Cipher> {
    cipher: C,
    hash: Hash,
    q: usize,
    /// A partial block not yet absorbed.
    buf: [u8; MAX_BLOCK_LEN],
    buf_len: usize,
    total: usize,
}

impl<C: Dstu7624Cipher> Gmac<C> {
    /// GMAC with `q`-byte tags (8 to the block length).
    pub fn new(cipher: C, q: usize) -> Result<Self, Error> {
        check_block::<C>()?;
        check_tag_len(q, C::BLOCK_LEN)?;
        let hash = hash_key(&cipher)?;
        Ok(Gmac {
            cipher,
            hash,
            q,
            buf: [0; MAX_BLOCK_LEN],
            buf_len: 0,
            total: 0,
        })
    }

    /// Absorbs `data`.
    pub fn update(&mut self, mut data: &[u8]) {
        let bl = C::BLOCK_LEN;
        self.total += data.len();
        if self.buf_len > 0 {
            let take = (bl - self.buf_len).min(data.len());
            self.buf[self.buf_len..self.buf_len + take].copy_from_slice(&data[..take]);
            self.buf_len += take;
            data = &data[take..];
            if self.buf_len < bl {
                return;
            }
            let blk = self.buf;
            self.hash.blocks(&blk[..bl]);
            self.buf_len = 0;
        }
        let whole = data.len() / bl * bl;
        self.hash.blocks(&data[..whole]);
        let rest = &data[whole..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.buf_len = rest.len();
    }

    /// The tag.
    pub fn finalize(mut self) -> Tag {
        let bl = C::BLOCK_LEN;
        let mut padded = self.total;
        if self.buf_len > 0 {
            let n = self.buf_len;
            // A block buffer holds the padded block: cannot fail.
            let _ = pad_partial(&mut self.buf[..bl], n, bl);
            let blk = self.buf;
            self.hash.blocks(&blk[..bl]);
            padded += bl - n;
        }
        let mut t = self.hash.finish(padded, 0);
        // GMAC's length block carries the message length at byte 0 and nothing at b/2.
        let _ = self.cipher.encrypt_blocks(&mut t[..bl]);
        let tag = Tag::new(&t, self.q);
        crate::wipe::wipe(&mut t);
        tag
    }

    /// The tag of `msg` in one call.
    pub fn mac(mut self, msg: &[u8]) -> Tag {
        self.update(msg);
        self.finalize()
    }

    /// Finishes and compares with `tag` in constant time.
    pub fn verify(self, tag: &[u8]) -> Result<(), Error> {
        self.finalize().verify(tag)
    }
}

impl<C: Dstu7624Cipher> Drop for Gmac<C> {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.buf);
    }
}
