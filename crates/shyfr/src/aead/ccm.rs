//! CCM (NIST SP 800-38C): CBC-MAC then counter mode, with one block cipher key.
//!
//! * Nonces of 7 to 13 bytes (`n`); the counter field then has `q = 15 - n` bytes and a
//!   message may be up to 2^(8q) - 1 bytes long (65 535 bytes with a 13-byte nonce,
//!   2^56 - 1 with a 7-byte one). Longer messages are [`Error::TooLong`].
//! * Tags of 4, 6, 8, 10, 12, 14 or 16 bytes, fixed per key ([`Ccm::with_tag_len`]; 16 by
//!   default). SP 800-38C appendix B advises at least 8 bytes; shorter tags are accepted
//!   because the standard allows them.
//! * AAD of any length (up to 2^64 - 1 bytes).
//!
//! As in SP 800-38C, the nonce must never repeat under one key. CCM needs the message
//! length before it starts (it is in the first CBC-MAC block), so there is no streaming
//! interface; `open` decrypts, recomputes the tag, compares it in constant time and zeroes
//! the output on any error, so no unauthenticated plaintext is ever handed out.
//!
//! The CBC-MAC is a chain of dependent block encryptions; the message's whole blocks go to
//! [`BlockModes::ccm_blocks`], which on the fused AES backends runs the chain and the
//! counter-mode encryption in one loop, the counter blocks in the shadow of the chain's
//! latency.
//!
//! ```
//! use shyfr::aead::ccm::AesCcm;
//! let ccm = AesCcm::new_from_slice(&[0x40; 16]).unwrap().with_tag_len(8).unwrap();
//! let nonce = [0x10u8; 13];
//! let mut buf = *b"sensor reading 42";
//! let tag = ccm.seal_in_place(&nonce, b"device 7", &mut buf).unwrap();
//! assert_eq!(tag.len(), 8);
//! ccm.open_in_place(&nonce, b"device 7", &mut buf, &tag).unwrap();
//! assert_eq!(&buf, b"sensor reading 42");
//! ```

use super::{check_same_len, xor_in_place, xor_to, Msg, Tag};
use crate::block::aes::{self, Aes};
use crate::block::InOutBuf;
use crate::mode::BlockModes;
use crate::wipe::wipe;
use crate::Error;

/// The shortest nonce in bytes.
pub const MIN_NONCE_LEN: usize = 7;
/// The longest nonce in bytes.
pub const MAX_NONCE_LEN: usize = 13;
/// The default (and longest) tag length in bytes.
pub const TAG_LEN: usize = 16;

const BLOCK: usize = 16;

/// `Ok(len)` for the tag lengths SP 800-38C allows: 4, 6, 8, 10, 12, 14, 16.
fn check_tag_len(len: usize) -> Result<u8, Error> {
    match len {
        4 | 6 | 8 | 10 | 12 | 14 | 16 => Ok(len as u8),
        _ => Err(Error::InvalidTagLength { got: len }),
    }
}

/// Formatting (SP 800-38C appendix A.2) for one message: `q`, and the nonce.
struct Params<'a> {
    nonce: &'a [u8],
    q: usize,
}

impl<'a> Params<'a> {
    fn new(nonce: &'a [u8], msg_len: usize) -> Result<Self, Error> {
        if !(MIN_NONCE_LEN..=MAX_NONCE_LEN).contains(&nonce.len()) {
            return Err(Error::InvalidNonceLength { got: nonce.len() });
        }
        let q = 15 - nonce.len();
        if q < 8 && (msg_len as u64) >> (8 * q) != 0 {
            return Err(Error::TooLong {
                what: "ccm payload (for this nonce length)",
            });
        }
        Ok(Params { nonce, q })
    }

    /// `B_0`: flags (Adata, t, q), nonce, message length.
    fn b0(&self, has_aad: bool, tag_len: usize, msg_len: usize) -> [u8; 16] {
        let mut b = [0u8; 16];
        b[0] = ((has_aad as u8) << 6) | ((((tag_len - 2) / 2) as u8) << 3) | (self.q as u8 - 1);
        b[1..1 + self.nonce.len()].copy_from_slice(self.nonce);
        let len = (msg_len as u64).to_be_bytes();
        b[16 - self.q..].copy_from_slice(&len[8 - self.q..]);
        b
    }

    /// Counter block `A_i`.
    fn ctr(&self, i: u64) -> [u8; 16] {
        let mut a = [0u8; 16];
        a[0] = self.q as u8 - 1;
        a[1..1 + self.nonce.len()].copy_from_slice(self.nonce);
        let c = i.to_be_bytes();
        a[16 - self.q..].copy_from_slice(&c[8 - self.q..]);
        a
    }
}

/// One CCM computation: the CBC-MAC chain value and the encrypted `A_0`.
///
/// The chain value is the first half of `pair`; the second half holds `E(A_0)` at the start
/// and the keystream of a last partial block.
struct Mac<'c, C: BlockModes> {
    cipher: &'c C,
    pair: [u8; 32],
    s0: [u8; 16],
}

impl<C: BlockModes> Drop for Mac<'_, C> {
    fn drop(&mut self) {
        wipe(&mut self.pair);
        wipe(&mut self.s0);
    }
}

/// `dst ^= src` over `src.len() <= 16` bytes; a full block as one 128-bit XOR.
#[inline(always)]
fn xor_block(dst: &mut [u8], src: &[u8]) {
    if let (Ok(d), Ok(s)) = (
        <&mut [u8; 16]>::try_from(&mut dst[..]),
        <&[u8; 16]>::try_from(src),
    ) {
        *d = (u128::from_ne_bytes(*d) ^ u128::from_ne_bytes(*s)).to_ne_bytes();
    } else {
        xor_in_place(&mut dst[..src.len()], src);
    }
}

impl<'c, C: BlockModes> Mac<'c, C> {
    /// `X_0 = E(B_0)` and `S_0 = E(A_0)` in one call.
    fn start(cipher: &'c C, p: &Params<'_>, b0: [u8; 16]) -> Result<Self, Error> {
        let mut m = Mac {
            cipher,
            pair: [0; 32],
            s0: [0; 16],
        };
        m.pair[..16].copy_from_slice(&b0);
        m.pair[16..].copy_from_slice(&p.ctr(0));
        m.cipher.encrypt_blocks(&mut m.pair)?;
        m.s0.copy_from_slice(&m.pair[16..]);
        Ok(m)
    }

    /// One chain step, `X = E(X ^ data)` with `data` (at most a block) zero-padded.
    fn step(&mut self, data: &[u8]) -> Result<(), Error> {
        xor_block(&mut self.pair[..16], data);
        self.cipher.encrypt_blocks(&mut self.pair[..16])
    }

    /// The message: counter mode from `A_1` over `dst` (from `src` when given, else in
    /// place) and the CBC-MAC of the plaintext (the input when sealing, the output when
    /// opening). The whole blocks go to one `ccm_blocks` call (one loop, the counter
    /// blocks in the shadow of the MAC chain on fused backends); a last partial block is
    /// done here with `E(A_n)` from the second half of `pair`.
    fn message(
        &mut self,
        p: &Params<'_>,
        src: Option<&[u8]>,
        dst: &mut [u8],
        decrypt: bool,
    ) -> Result<(), Error> {
        let whole = dst.len() - dst.len() % BLOCK;
        let mut ctr = p.ctr(1);
        let (head, tail) = dst.split_at_mut(whole);
        let io = match src {
            Some(s) => InOutBuf::new(&s[..whole], head)?,
            None => InOutBuf::in_place(head),
        };
        // Counted over at least the last four bytes, so that the fused 32-bit counter
        // kernels run (for q < 4 the generic path is several times slower): the count
        // never reaches 2^(8q) (the length limit), so nothing carries past the q bytes.
        self.cipher
            .ccm_blocks(&mut self.pair[..16], &mut ctr, p.q.max(4), io, decrypt)?;
        if !tail.is_empty() {
            self.pair[16..].copy_from_slice(&ctr);
            if decrypt {
                self.cipher.encrypt_blocks(&mut self.pair[16..])?;
            } else {
                // The MAC step and the keystream block in one call.
                xor_block(&mut self.pair[..16], src.map_or(&*tail, |s| &s[whole..]));
                self.cipher.encrypt_blocks(&mut self.pair)?;
            }
            match src {
                Some(s) => xor_to(tail, &s[whole..], &self.pair[16..16 + tail.len()]),
                None => xor_block(tail, &self.pair[16..16 + tail.len()]),
            }
            if decrypt {
                self.step(tail)?;
            }
        }
        wipe(&mut ctr);
        Ok(())
    }

    /// The encoded AAD (length prefix, data, zero padding) into the chain.
    fn aad(&mut self, aad: &[u8]) -> Result<(), Error> {
        if aad.is_empty() {
            return Ok(());
        }
        let mut blk = [0u8; 16];
        let a = aad.len() as u64;
        let fill = if a < 0xff00 {
            blk[..2].copy_from_slice(&(a as u16).to_be_bytes());
            2
        } else if a <= u32::MAX as u64 {
            blk[..2].copy_from_slice(&[0xff, 0xfe]);
            blk[2..6].copy_from_slice(&(a as u32).to_be_bytes());
            6
        } else {
            blk[..2].copy_from_slice(&[0xff, 0xff]);
            blk[2..10].copy_from_slice(&a.to_be_bytes());
            10
        };
        let take = aad.len().min(BLOCK - fill);
        blk[fill..fill + take].copy_from_slice(&aad[..take]);
        self.step(&blk)?;
        wipe(&mut blk);
        for b in aad[take..].chunks(BLOCK) {
            self.step(b)?;
        }
        Ok(())
    }

    /// The full tag `X ^ S_0` before truncation.
    fn tag(&self) -> [u8; 16] {
        let mut t = self.s0;
        xor_in_place(&mut t, &self.pair[..16]);
        t
    }
}

fn seal<C: BlockModes>(cipher: &C, tag_len: usize, m: Msg<'_>) -> Result<Tag, Error> {
    let (nonce, aad, src, dst) = (m.nonce, m.aad, m.src, m.dst);
    check_same_len(src, dst)?;
    let p = Params::new(nonce, dst.len())?;
    let mut mac = Mac::start(cipher, &p, p.b0(!aad.is_empty(), tag_len, dst.len()))?;
    mac.aad(aad)?;
    mac.message(&p, src, dst, false)?;
    let mut full = mac.tag();
    let tag = Tag::truncated(&full, tag_len);
    wipe(&mut full);
    Ok(tag)
}

fn open<C: BlockModes>(cipher: &C, tag_len: usize, m: Msg<'_>, tag: &[u8]) -> Result<(), Error> {
    let (nonce, aad, src, dst) = (m.nonce, m.aad, m.src, m.dst);
    let r = (|| {
        check_same_len(src, dst)?;
        if tag.len() != tag_len {
            return Err(Error::InvalidTagLength { got: tag.len() });
        }
        let p = Params::new(nonce, dst.len())?;
        let mut mac = Mac::start(cipher, &p, p.b0(!aad.is_empty(), tag_len, dst.len()))?;
        mac.aad(aad)?;
        // Counter mode and the CBC-MAC over the plaintext it writes (checked before
        // anything is returned; zeroed below on failure).
        mac.message(&p, src, dst, true)?;
        let mut full = mac.tag();
        let ok = crate::ct::ct_eq(&full[..tag_len], tag);
        wipe(&mut full);
        if ok {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    })();
    if r.is_err() {
        wipe(dst);
    }
    r
}

/// The AEAD verbs, the same on every CCM type; `$parts` gives `(&cipher, tag_len)`.
macro_rules! ccm_verbs {
    ($self:ident => $parts:expr) => {
        fn seal_msg(&$self, m: Msg<'_>) -> Result<Tag, Error> {
            let (c, t) = $parts;
            seal(c, t, m)
        }

        fn open_msg(&$self, m: Msg<'_>, tag: &[u8]) -> Result<(), Error> {
            let (c, t) = $parts;
            open(c, t, m, tag)
        }

        aead_verbs!(
            seal: "Encrypts `buf` in place and returns the tag (SP 800-38C 6.1).\n\n\
                   Errors (nothing written): [`Error::InvalidNonceLength`] unless the nonce \
                   has 7 to 13 bytes, [`Error::TooLong`] for a message too long for that \
                   nonce length.",
            open: "Decrypts `buf` in place and verifies `tag` in constant time \
                   (SP 800-38C 6.2). On any error `buf` is left all zero."
        );
    };
}

/// CCM over any block cipher with 16-byte blocks.
///
/// ```
/// use shyfr::aead::ccm::Ccm;
/// use shyfr::Aes128;
/// let ccm = Ccm::new(Aes128::new(&[1u8; 16])).unwrap().with_tag_len(12).unwrap();
/// let mut buf = [0u8; 10];
/// let tag = ccm.seal_in_place(&[2u8; 12], b"", &mut buf).unwrap();
/// assert_eq!(tag.len(), 12);
/// ```
#[derive(Clone)]
pub struct Ccm<C: BlockModes> {
    cipher: C,
    tag_len: u8,
}

impl<C: BlockModes> core::fmt::Debug for Ccm<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Ccm")
            .field("tag_len", &self.tag_len)
            .finish_non_exhaustive()
    }
}

impl<C: BlockModes> Ccm<C> {
    /// CCM with `cipher` and 16-byte tags; [`Error::InvalidParameter`] unless the cipher
    /// has 16-byte blocks.
    pub fn new(cipher: C) -> Result<Self, Error> {
        if C::BLOCK_LEN != BLOCK {
            return Err(Error::InvalidParameter {
                what: "ccm needs a block cipher with 16-byte blocks",
            });
        }
        Ok(Ccm {
            cipher,
            tag_len: TAG_LEN as u8,
        })
    }

    /// The same key with `len`-byte tags: 4, 6, 8, 10, 12, 14 or 16.
    pub fn with_tag_len(mut self, len: usize) -> Result<Self, Error> {
        self.tag_len = check_tag_len(len)?;
        Ok(self)
    }

    /// Tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.tag_len as usize
    }

    /// The block cipher.
    pub fn cipher(&self) -> &C {
        &self.cipher
    }

    ccm_verbs!(self => (&self.cipher, self.tag_len as usize));
}

/// AES-CCM with a 16-, 24- or 32-byte key chosen at run time.
#[derive(Clone, Debug)]
pub struct AesCcm(Ccm<Aes>);

impl AesCcm {
    /// Sets up a 16-, 24- or 32-byte key with the fastest AES backend and 16-byte tags.
    pub fn new_from_slice(key: &[u8]) -> Result<Self, Error> {
        Self::with_backend(key, aes::Backend::best())
    }

    /// Sets up a key with an explicit AES backend (for tests and benchmarks).
    pub fn with_backend(key: &[u8], backend: aes::Backend) -> Result<Self, Error> {
        Ccm::new(Aes::with_backend(key, backend)?).map(AesCcm)
    }

    /// The same key with `len`-byte tags: 4, 6, 8, 10, 12, 14 or 16.
    pub fn with_tag_len(self, len: usize) -> Result<Self, Error> {
        self.0.with_tag_len(len).map(AesCcm)
    }

    /// Tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.0.tag_len()
    }

    /// Key length in bytes (16, 24 or 32).
    pub fn key_len(&self) -> usize {
        self.0.cipher().key_len()
    }

    /// The AES backend this key uses.
    pub fn backend(&self) -> aes::Backend {
        self.0.cipher().backend()
    }

    ccm_verbs!(self => (&self.0.cipher, self.0.tag_len as usize));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_limits_follow_q() {
        // q = 2 (13-byte nonce): up to 2^16 - 1 bytes.
        assert!(Params::new(&[0; 13], 0xffff).is_ok());
        assert!(Params::new(&[0; 13], 0x1_0000).is_err());
        // q = 3 (12-byte nonce): up to 2^24 - 1.
        assert!(Params::new(&[0; 12], 0xff_ffff).is_ok());
        assert!(Params::new(&[0; 12], 0x100_0000).is_err());
        // q = 8 (7-byte nonce): anything that fits in memory.
        assert!(Params::new(&[0; 7], usize::MAX).is_ok());
        assert!(Params::new(&[0; 6], 0).is_err());
        assert!(Params::new(&[0; 14], 0).is_err());
    }

    /// SP 800-38C appendix C, example 1: 4-byte tag, 7-byte nonce, 8 bytes of AAD.
    #[test]
    fn sp800_38c_example_1() {
        let key: [u8; 16] = core::array::from_fn(|i| 0x40 + i as u8);
        let nonce: [u8; 7] = core::array::from_fn(|i| 0x10 + i as u8);
        let aad: [u8; 8] = core::array::from_fn(|i| i as u8);
        let mut buf: [u8; 4] = [0x20, 0x21, 0x22, 0x23];
        for &b in aes::Backend::ALL.iter().filter(|b| b.is_available()) {
            let ccm = AesCcm::with_backend(&key, b)
                .unwrap()
                .with_tag_len(4)
                .unwrap();
            let mut m = buf;
            let tag = ccm.seal_in_place(&nonce, &aad, &mut m).unwrap();
            assert_eq!(m, [0x71, 0x62, 0x01, 0x5b], "{b:?}");
            assert_eq!(tag.as_bytes(), [0x4d, 0xac, 0x25, 0x5d], "{b:?}");
            ccm.open_in_place(&nonce, &aad, &mut m, &tag).unwrap();
            assert_eq!(m, buf);
        }
        wipe(&mut buf);
    }
}
