//! GCM and GMAC (NIST SP 800-38D): AES (or any 128-bit block cipher) in counter mode,
//! authenticated with GHASH.
//!
//! # Types
//!
//! * [`Aes128Gcm`], [`Aes192Gcm`], [`Aes256Gcm`]: the key length in the type;
//!   [`AesGcm`] takes a 16-, 24- or 32-byte key chosen at run time. They live in
//!   [`crate::aead::aes_gcm`] (with the fused engines) and are re-exported here.
//! * [`Gcm<C>`](Gcm): GCM over any [`BlockCipher`] with 16-byte blocks.
//!
//! This folder holds what every GCM key shares: the message state (`state.rs`), the
//! streaming types (`stream.rs`), the generic bulk pass (`bulk.rs`) and the multi-core
//! path (`parallel.rs`).
//!
//! The AES and GHASH backends are chosen when the key is set up (fastest available, or
//! explicitly with `with_backends`); see [`crate::aes::Backend`] and [`ghash::Backend`].
//! For AES the pair also picks the engine of the bulk pass ([`AesGcm::engine`]): counter
//! mode and GHASH in one loop with VAES + VPCLMULQDQ (`fused_vaes_vpclmul`), AES-NI +
//! PCLMULQDQ (`fused_aesni_pclmul`) or ARMv8 AES + PMULL (`fused_aes_pmull`), else the
//! AES backend's counter blocks and the GHASH backend one after the other (`generic`).
//!
//! With the `parallel` feature, the one-shot verbs of the AES types split messages of
//! [`PARALLEL_MIN_LEN`] bytes or more across threads (rayon); output and tags are the same
//! as on one thread, and `open` still checks the tag before any plaintext is released.
//!
//! # Verbs
//!
//! One-shot: [`seal_in_place`](AesGcm::seal_in_place) / [`open_in_place`](AesGcm::open_in_place)
//! and the buffer-to-buffer [`seal_to`](AesGcm::seal_to) / [`open_to`](AesGcm::open_to);
//! GMAC (authentication only): [`gmac`](AesGcm::gmac) / [`gmac_verify`](AesGcm::gmac_verify).
//! `open` verifies the tag in constant time and, on any error, leaves the output buffer all
//! zero: it never hands out plaintext that was not authenticated.
//!
//! Streaming: [`encryptor`](AesGcm::encryptor) gives a [`GcmEncryptor`] (also streaming GMAC:
//! feed only [`update_aad`](GcmEncryptor::update_aad)); [`decryptor`](AesGcm::decryptor)
//! gives a [`GcmDecryptor`], whose output is **unauthenticated** until
//! [`finalize`](GcmDecryptor::finalize) returns `Ok` — see its documentation before using it.
//!
//! # Nonces
//!
//! GCM's security rests on never using a nonce twice with the same key: a repeated nonce
//! reveals the XOR of the two plaintexts and lets an attacker recover the GHASH key `H` and
//! forge tags for every later message under that key. Use 12-byte nonces ([`NONCE_LEN`]) from
//! a counter (deterministic construction, SP 800-38D 8.2.1) or, with random nonces, stay
//! well below 2^32 messages per key (8.3). Other nonce lengths (1 byte or more) are accepted
//! as the standard allows; they are hashed with GHASH into the first counter block, so
//! distinct nonces can collide, and they are slower. Twelve bytes is the fast path.
//!
//! # Tags
//!
//! Tags are 16 bytes ([`TAG_LEN`]) unless the key is configured otherwise:
//! [`with_tag_len`](AesGcm::with_tag_len) accepts 12 to 16 bytes (96 to 128 bits, the lengths
//! SP 800-38D 5.2.1.2 allows in general). 4- and 8-byte tags are accepted only through
//! [`with_short_tag_len`](AesGcm::with_short_tag_len): SP 800-38D appendix C limits their use
//! (message lengths and the number of failed verifications per key) and the caller has to
//! enforce those limits.
//!
//! # Limits
//!
//! Plaintext at most 2^39 - 256 bits ([`MAX_PLAINTEXT_LEN`] bytes) per nonce, AAD at most
//! 2^64 - 1 bits ([`MAX_AAD_LEN`] bytes), nonce at most 2^64 - 1 bits; longer input is
//! [`Error::TooLong`] (or [`Error::InvalidNonceLength`]), checked before any output is
//! written.
//!
//! ```
//! use shyfr::aead::gcm::{AesGcm, NONCE_LEN};
//! let gcm = AesGcm::new_from_slice(&[1u8; 32]).unwrap();
//! let nonce = [0u8; NONCE_LEN];
//! let msg = b"sixteen byte msg and more";
//! let mut ct = [0u8; 25];
//! let tag = gcm.seal_to(&nonce, b"aad", msg, &mut ct).unwrap();
//! let mut pt = [0u8; 25];
//! gcm.open_to(&nonce, b"aad", &ct, &tag, &mut pt).unwrap();
//! assert_eq!(&pt, msg);
//! // GMAC: a tag over data that is not encrypted.
//! let mac = gcm.gmac(&nonce, b"public data").unwrap();
//! assert!(gcm.gmac_verify(&nonce, b"public data", &mac).is_ok());
//! assert!(gcm.gmac_verify(&nonce, b"public dat4", &mac).is_err());
//! ```

mod bulk;
#[cfg(feature = "parallel")]
mod parallel;
mod state;
mod stream;

use zeroize::Zeroize;

use super::{ghash, Msg, Tag, MAX_TAG_LEN};
use crate::block::BlockCipher;
use crate::Error;

pub(crate) use bulk::{ctr_ghash_generic, Bulk};
pub(crate) use state::State;
pub use stream::{GcmDecryptor, GcmEncryptor};

#[doc(no_inline)]
pub use crate::aead::aes_gcm::{Aes128Gcm, Aes192Gcm, Aes256Gcm, AesGcm};

/// The recommended nonce length in bytes (96 bits), the fast path.
pub const NONCE_LEN: usize = 12;
/// The default (and longest) tag length in bytes.
pub const TAG_LEN: usize = 16;
/// The longest plaintext one nonce may encrypt, in bytes: 2^39 - 256 bits.
pub const MAX_PLAINTEXT_LEN: u64 = (1 << 36) - 32;
/// The longest AAD, in bytes: 2^64 - 1 bits, rounded down to whole bytes.
pub const MAX_AAD_LEN: u64 = (1 << 61) - 1;
/// The longest nonce, in bytes: 2^64 - 1 bits, rounded down to whole bytes.
pub const MAX_NONCE_LEN: u64 = (1 << 61) - 1;

/// Counter blocks encrypted per call into the block cipher: two passes of the VAES kernel's
/// 24-block loop, three of the widest GHASH kernel's 16-block groups, and more than the
/// 32 of the widest AES kernel (measured on Zen 3, AES-128-GCM at 16 KiB: 4.9 GB/s with
/// 48, 4.7 with 32, 4.0 with 24; no gain above 48).
const BATCH: usize = 48;

const BLOCK: usize = 16;

/// What a GCM key does for a message: encrypt single blocks, hash, and the bulk
/// CTR-and-GHASH pass. The generic engine ([`Gcm`]) does the bulk pass with the block
/// cipher's multi-block call and a GHASH backend; a fused AES-GCM kernel implements the
/// same trait, so the streaming and one-shot logic above it does not change.
pub(crate) trait Core {
    /// `block = E(K, block)`.
    fn encrypt_block(&self, block: &mut [u8; 16]) -> Result<(), Error>;
    /// The GHASH key.
    fn ghash(&self) -> &ghash::Key;
    /// One bulk pass over whole blocks (see [`Bulk`]).
    fn ctr_ghash(&self, b: Bulk<'_>) -> Result<(), Error>;

    /// The longest message [`one_pass`](Self::one_pass) takes (0: no such path).
    fn one_pass_max(&self) -> usize {
        0
    }

    /// A whole short message in one pass, where the engine has such a path (AES-GCM on
    /// x86): `buf` (at most [`one_pass_max`](Self::one_pass_max) bytes) encrypted or
    /// decrypted in place under the 12-byte `nonce`, and the full tag returned, computed
    /// over the ciphertext.
    fn one_pass(
        &self,
        _decrypt: bool,
        _nonce: &[u8; NONCE_LEN],
        _aad: &[u8],
        _buf: &mut [u8],
    ) -> [u8; 16] {
        unreachable!("one_pass_max is 0")
    }
}

/// A core that threads may share, for the one-shot verbs' multi-core path (`None` where
/// the block cipher is not known to be `Sync`).
pub(crate) type ParCore<'a> = Option<&'a (dyn Core + Sync)>;

/// Below this many bytes a one-shot GCM call never uses more than one thread (the
/// `parallel` feature), and no piece of a split call is shorter than half of it.
///
/// The fused AES-GCM engine (VAES + VPCLMULQDQ, about 8 GB/s on one Zen 3 core) runs at
/// half the speed of AES-CTR, so the hand-off cost measured for [`crate::mode`] (about
/// 16 us per piece, see [`crate::mode::PARALLEL_MIN_LEN`]) is paid back from half its
/// length: pieces of 256 KiB take about 32 us. On the shared 2-core test machine (load
/// 5 to 10 from other jobs) the `gcm_parallel` example measured no gain and no loss
/// within 3% at 512 KiB to 16 MiB, and a 9% loss at 256 KiB, so the bar is set at
/// 512 KiB; slower engines (AES-NI, ARMv8, portable) gain earlier, never later.
pub const PARALLEL_MIN_LEN: usize = 512 << 10;

#[inline]
pub(crate) fn seal(
    core: &dyn Core,
    par: ParCore<'_>,
    tag_len: usize,
    m: Msg<'_>,
) -> Result<Tag, Error> {
    let (nonce, aad, src, dst) = (m.nonce, m.aad, m.src, m.dst);
    if let Some(mut full) = one_pass(core, false, nonce, aad, src, dst) {
        let tag = Tag::truncated(&full, tag_len);
        full.zeroize();
        return Ok(tag);
    }
    let mut st = State::new(core, tag_len, nonce)?;
    st.aad(core, aad)?;
    st.data_one_shot(core, par, false, src, dst)?;
    Ok(st.tag(core))
}

/// The engine's one-pass path for a short message with a 12-byte nonce, if it has one and
/// the message fits (`src` copied to `dst` first): the full tag.
fn one_pass(
    core: &dyn Core,
    decrypt: bool,
    nonce: &[u8],
    aad: &[u8],
    src: Option<&[u8]>,
    dst: &mut [u8],
) -> Option<[u8; 16]> {
    let nonce: &[u8; NONCE_LEN] = nonce.try_into().ok()?;
    let max = core.one_pass_max();
    if max == 0 || dst.len() > max || aad.len() as u64 > MAX_AAD_LEN {
        return None;
    }
    if let Some(s) = src {
        if s.len() != dst.len() {
            return None;
        }
        dst.copy_from_slice(s);
    }
    Some(core.one_pass(decrypt, nonce, aad, dst))
}

#[inline]
pub(crate) fn open(
    core: &dyn Core,
    par: ParCore<'_>,
    tag_len: usize,
    m: Msg<'_>,
    tag: &[u8],
) -> Result<(), Error> {
    let (nonce, aad, src, dst) = (m.nonce, m.aad, m.src, m.dst);
    let r = (|| {
        if tag.len() != tag_len {
            return Err(Error::InvalidTagLength { got: tag.len() });
        }
        let mut full = match one_pass(core, true, nonce, aad, src, dst) {
            Some(full) => full,
            None => {
                let mut st = State::new(core, tag_len, nonce)?;
                st.aad(core, aad)?;
                st.data_one_shot(core, par, true, src, dst)?;
                st.finish(core)
            }
        };
        let ok = crate::ct::ct_eq(&full[..tag_len], tag);
        full.zeroize();
        if ok {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    })();
    if r.is_err() {
        dst.zeroize();
    }
    r
}

/// Checks a tag length for [`with_tag_len`](Gcm::with_tag_len) (`short == false`: 12..=16)
/// or [`with_short_tag_len`](Gcm::with_short_tag_len) (`short == true`: also 4 and 8).
pub(crate) fn check_tag_len(len: usize, short: bool) -> Result<u8, Error> {
    match len {
        12..=MAX_TAG_LEN => Ok(len as u8),
        4 | 8 if short => Ok(len as u8),
        _ => Err(Error::InvalidTagLength { got: len }),
    }
}

/// The AEAD verbs, the same on every GCM type; `$core` turns `&self` into `&dyn Core`.
macro_rules! gcm_verbs {
    ($self:ident => $core:expr) => {
        fn seal_msg(&$self, m: $crate::aead::Msg<'_>) -> Result<$crate::aead::Tag, $crate::Error> {
            let (core, tl, par) = $core;
            $crate::aead::gcm::seal(core, par, tl, m)
        }

        fn open_msg(&$self, m: $crate::aead::Msg<'_>, tag: &[u8]) -> Result<(), $crate::Error> {
            let (core, tl, par) = $core;
            $crate::aead::gcm::open(core, par, tl, m, tag)
        }

        aead_verbs!(
            seal: "Encrypts `buf` in place and returns the tag (SP 800-38D algorithm 4).\n\n\
                   Errors (nothing written): [`Error::InvalidNonceLength`](crate::Error::InvalidNonceLength) \
                   for an empty nonce, [`Error::TooLong`](crate::Error::TooLong) for a message \
                   or AAD beyond the limits.",
            open: "Verifies `tag` (in constant time) and decrypts `buf` in place \
                   (SP 800-38D algorithm 5).\n\n\
                   On any error — [`Error::AuthenticationFailed`](crate::Error::AuthenticationFailed), \
                   a tag of the wrong length ([`Error::InvalidTagLength`](crate::Error::InvalidTagLength)), \
                   a bad nonce or a length beyond the limits — `buf` is left all zero."
        );

        /// GMAC: the tag of `data` authenticated but not encrypted (GCM with `data` as AAD
        /// and an empty plaintext).
        pub fn gmac(&$self, nonce: &[u8], data: &[u8]) -> Result<$crate::aead::Tag, $crate::Error> {
            let (core, tl, _) = $core;
            let m = $crate::aead::Msg { nonce, aad: data, src: None, dst: &mut [] };
            $crate::aead::gcm::seal(core, None, tl, m)
        }

        /// GMAC verification, in constant time: `Ok` when `tag` is the GMAC of `data`.
        pub fn gmac_verify(&$self, nonce: &[u8], data: &[u8], tag: &[u8]) -> Result<(), $crate::Error> {
            let (core, tl, _) = $core;
            let m = $crate::aead::Msg { nonce, aad: data, src: None, dst: &mut [] };
            $crate::aead::gcm::open(core, None, tl, m, tag)
        }

        /// Starts a streaming encryption (or streaming GMAC) under `nonce`.
        pub fn encryptor(&$self, nonce: &[u8]) -> Result<$crate::aead::gcm::GcmEncryptor<'_>, $crate::Error> {
            let (core, tl, _) = $core;
            Ok($crate::aead::gcm::GcmEncryptor {
                core,
                st: $crate::aead::gcm::State::new(core, tl, nonce)?,
            })
        }

        /// Starts a streaming decryption under `nonce`; read [`GcmDecryptor`](crate::aead::gcm::GcmDecryptor) first: its
        /// output is unauthenticated until `finalize` succeeds.
        pub fn decryptor(&$self, nonce: &[u8]) -> Result<$crate::aead::gcm::GcmDecryptor<'_>, $crate::Error> {
            let (core, tl, _) = $core;
            Ok($crate::aead::gcm::GcmDecryptor {
                core,
                st: $crate::aead::gcm::State::new(core, tl, nonce)?,
            })
        }
    };
}
pub(crate) use gcm_verbs;

/// GCM over any block cipher with 16-byte blocks.
///
/// ```
/// use shyfr::aead::gcm::Gcm;
/// use shyfr::Aes128;
/// let gcm = Gcm::new(Aes128::new(&[0u8; 16])).unwrap();
/// // SP 800-38D / McGrew-Viega test case 1: empty message, zero key and nonce.
/// let tag = gcm.seal_in_place(&[0u8; 12], b"", &mut []).unwrap();
/// assert_eq!(tag.as_bytes(), [
///     0x58, 0xe2, 0xfc, 0xce, 0xfa, 0x7e, 0x30, 0x61,
///     0x36, 0x7f, 0x1d, 0x57, 0xa4, 0xe7, 0x45, 0x5a,
/// ]);
/// ```
#[derive(Clone)]
pub struct Gcm<C: BlockCipher> {
    cipher: C,
    ghash: ghash::Key,
    tag_len: u8,
}

impl<C: BlockCipher> core::fmt::Debug for Gcm<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Gcm")
            .field("ghash", &self.ghash.backend())
            .field("tag_len", &self.tag_len)
            .finish_non_exhaustive()
    }
}

impl<C: BlockCipher> Core for Gcm<C> {
    fn encrypt_block(&self, block: &mut [u8; 16]) -> Result<(), Error> {
        self.cipher.encrypt_blocks(block)
    }

    fn ghash(&self) -> &ghash::Key {
        &self.ghash
    }

    fn ctr_ghash(&self, b: Bulk<'_>) -> Result<(), Error> {
        ctr_ghash_generic(&self.cipher, &self.ghash, b)
    }
}

impl<C: BlockCipher> Gcm<C> {
    /// GCM with `cipher`, the fastest GHASH backend and 16-byte tags.
    /// [`Error::InvalidParameter`] unless the cipher has 16-byte blocks.
    pub fn new(cipher: C) -> Result<Self, Error> {
        Self::with_ghash_backend(cipher, ghash::Backend::best())
    }

    /// GCM with an explicit GHASH backend ([`Error::BackendUnavailable`] if this CPU cannot
    /// run it).
    pub fn with_ghash_backend(cipher: C, backend: ghash::Backend) -> Result<Self, Error> {
        if C::BLOCK_LEN != BLOCK {
            return Err(Error::InvalidParameter {
                what: "gcm needs a block cipher with 16-byte blocks",
            });
        }
        let mut h = [0u8; 16];
        cipher.encrypt_blocks(&mut h)?;
        let ghash = ghash::Key::new(&h, backend);
        h.zeroize();
        Ok(Gcm {
            cipher,
            ghash: ghash?,
            tag_len: TAG_LEN as u8,
        })
    }

    /// The same key with `len`-byte tags, `len` in 12..=16 (96 to 128 bits).
    pub fn with_tag_len(mut self, len: usize) -> Result<Self, Error> {
        self.tag_len = check_tag_len(len, false)?;
        Ok(self)
    }

    /// The same key with `len`-byte tags where `len` may also be 4 or 8 (32 or 64 bits).
    /// SP 800-38D appendix C bounds the message length and the number of verification
    /// attempts per key for such tags; the caller must enforce them.
    pub fn with_short_tag_len(mut self, len: usize) -> Result<Self, Error> {
        self.tag_len = check_tag_len(len, true)?;
        Ok(self)
    }

    /// Tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.tag_len as usize
    }

    /// The GHASH backend this key uses.
    pub fn ghash_backend(&self) -> ghash::Backend {
        self.ghash.backend()
    }

    /// The block cipher.
    pub fn cipher(&self) -> &C {
        &self.cipher
    }

    gcm_verbs!(self => (self as &dyn Core, self.tag_len as usize, ParCore::None));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    use super::state::inc32;
    use crate::block::aes::{self, Aes};

    fn key() -> Gcm<Aes> {
        Gcm::with_ghash_backend(
            Aes::with_backend(&[0x5a; 16], aes::Backend::Soft).unwrap(),
            ghash::Backend::Soft,
        )
        .unwrap()
    }

    /// The exact plaintext limit, checked on the running total without encrypting 64 GB:
    /// a state is advanced to just below the limit by setting its counter of bytes.
    #[test]
    fn plaintext_limit_edges() {
        let k = key();
        let core: &dyn Core = &k;
        let mut st = State::new(core, 16, &[0; 12]).unwrap();
        st.data_len = MAX_PLAINTEXT_LEN - 17;
        let mut buf = [0u8; 18];
        assert_eq!(
            st.data(core, false, None, &mut buf),
            Err(Error::TooLong {
                what: "gcm plaintext"
            })
        );
        assert_eq!(buf, [0u8; 18], "nothing written on error");
        st.data(core, false, None, &mut buf[..17]).unwrap();
        assert_eq!(st.data_len, MAX_PLAINTEXT_LEN);
        assert!(st.data(core, false, None, &mut []).is_ok());
        assert!(st.data(core, false, None, &mut [0u8; 1]).is_err());

        // The one-shot path refuses a length past the limit before touching anything;
        // a zero-copy slice of that length cannot be made, so check the arithmetic guard.
        let mut st = State::new(core, 16, &[0; 12]).unwrap();
        st.data_len = u64::MAX - 3;
        assert!(st.data(core, false, None, &mut [0u8; 8]).is_err());
    }

    #[test]
    fn aad_limit_edges() {
        let k = key();
        let core: &dyn Core = &k;
        let mut st = State::new(core, 16, &[0; 12]).unwrap();
        st.aad_len = MAX_AAD_LEN - 5;
        assert_eq!(
            st.aad(core, &[0u8; 6]),
            Err(Error::TooLong { what: "gcm aad" })
        );
        st.aad(core, &[0u8; 5]).unwrap();
        assert!(st.aad(core, &[0u8; 1]).is_err());
        let mut st = State::new(core, 16, &[0; 12]).unwrap();
        st.aad_len = u64::MAX - 1;
        assert!(st.aad(core, &[0u8; 4]).is_err());
    }

    /// The 32-bit counter wraps without carrying into the nonce part, in the bulk path and
    /// in the one-block path alike.
    #[test]
    fn counter_wraps_mod_2_32() {
        let k = key();
        let aes = k.cipher();
        let start: [u8; 16] = [
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0xff, 0xff, 0xff, 0xfd,
        ];
        // Keystream block by block, built by hand.
        let mut expect = Vec::new();
        let mut c = start;
        for _ in 0..40 {
            let mut b = c;
            aes.encrypt_block(&mut b);
            expect.extend_from_slice(&b);
            let n = u32::from_be_bytes([c[12], c[13], c[14], c[15]]).wrapping_add(1);
            c[12..].copy_from_slice(&n.to_be_bytes());
        }
        assert_eq!(&c[..12], &start[..12]);
        let mut ctr = start;
        let mut y = [0u8; 16];
        let mut buf = vec![0u8; 40 * 16];
        k.ctr_ghash(Bulk {
            decrypt: false,
            ctr: &mut ctr,
            y: &mut y,
            src: None,
            dst: &mut buf,
        })
        .unwrap();
        assert_eq!(buf, expect);
        assert_eq!(ctr, c);
        let mut one = start;
        for _ in 0..3 {
            inc32(&mut one);
        }
        assert_eq!(&one[12..], &[0, 0, 0, 0]);
        assert_eq!(&one[..12], &start[..12]);
    }

    #[test]
    fn tag_len_policy() {
        for len in 0..=20 {
            let ok = (12..=16).contains(&len);
            assert_eq!(key().with_tag_len(len).is_ok(), ok, "{len}");
            let ok_short = ok || len == 4 || len == 8;
            assert_eq!(key().with_short_tag_len(len).is_ok(), ok_short, "{len}");
        }
    }
}
