//! The modes of DSTU 7624:2014 that differ from their NIST namesakes, for any
//! [`Dstu7624Cipher`] (the Kalyna types of [`crate::kalyna`]).
//!
//! | mode | module | what differs from NIST |
//! |------|--------|------------------------|
//! | CTR ("gamma") | [`ctr`] | the counter starts at `E(IV)`, is little-endian over the whole block, and is incremented *before* each block |
//! | CFB | [`cfb`] | a `q`-byte segment uses the *last* `q` bytes of `E(register)`; the register keeps its first bytes and takes the ciphertext at the end; a short final segment uses the last bytes |
//! | CMAC | [`cmac`] | the last block is XORed with `E(0)` (whole) or, padded with 0x80 0.., with `E(01 00 ..)` |
//! | XTS | [`xts`] | one key; the first tweak is `E(IV) * x` in GF(2^b) (little-endian, the standard's polynomials), any block length |
//! | KW | [`kw`] | a half-block-wide Feistel of `6 (n - 1)` rounds over the data and one zero block; unaligned data carries its bit length and 0x80 0.. padding |
//! | GCM, GMAC, CCM | [`crate::aead::dstu7624`] | see there |
//!
//! ECB, CBC and OFB are the same as NIST's: use [`crate::mode::ecb`], [`crate::mode::cbc`]
//! (with [`crate::pad::Padding::Iso7816`], the standard's 0x80 0.. padding, for
//! unaligned data) and [`crate::mode::ofb`] with the Kalyna types.
//!
//! The one padding rule of the standard used inside these modes ("append 0x80 and zeros
//! up to the block, only when the data is not a whole number of blocks") is
//! [`pad_partial`].
//!
//! The source of every rule is the Annex B examples of DSTU 7624:2014 (as carried by UAPKI,
//! BouncyCastle, Crypto++ and the designers' code; `testdata/kalyna/`), all of which these
//! modes reproduce.
#![forbid(unsafe_code)]

pub mod cfb;
pub mod cmac;
pub mod ctr;
pub mod kw;
pub mod xts;

use crate::block::{BlockCipher, InOutBuf, MAX_BLOCK_LEN};
use crate::mode::BlockModes;
use crate::Error;

/// A block cipher the DSTU 7624 modes run on: the modes' common inner loops of
/// [`BlockModes`] (CBC-MAC for CMAC and CCM, full-block CFB), and the one loop of its own,
/// the gamma, whose counter differs from NIST CTR's. The default uses the cipher's
/// multi-block calls; Kalyna overrides it with its fused kernel.
pub trait Dstu7624Cipher: BlockModes {
    /// The DSTU 7624 gamma (CTR) on whole blocks: for every block, `counter` is first
    /// incremented (a little-endian integer over the whole block, modulo `2^(8 b)`) and
    /// `E(counter)` is XORed in. [`Error::InvalidNonceLength`] unless `counter` is one
    /// block; [`Error::NotWholeBlocks`] unless `data` is.
    fn gamma_blocks(&self, counter: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        gamma_blocks_generic(self, counter, data)
    }
}

impl<T: Dstu7624Cipher> Dstu7624Cipher for &T {
    fn gamma_blocks(&self, counter: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        (**self).gamma_blocks(counter, data)
    }
}

/// Blocks of counters encrypted per call of the default [`Dstu7624Cipher::gamma_blocks`]:
/// enough for the widest batch of every Kalyna backend.
const GAMMA_CHUNK: usize = 4096;

/// The portable gamma: counters into a buffer, the cipher's multi-block call, XOR.
pub(crate) fn gamma_blocks_generic<C: BlockCipher + ?Sized>(
    c: &C,
    counter: &mut [u8],
    mut data: InOutBuf<'_>,
) -> Result<(), Error> {
    let b = C::BLOCK_LEN;
    if b == 0 || b > MAX_BLOCK_LEN {
        return Err(Error::InvalidParameter {
            what: "block length above MAX_BLOCK_LEN",
        });
    }
    crate::block::check_iv(counter.len(), b)?;
    crate::block::check_whole_blocks(data.len(), b)?;
    let mut ks = [0u8; GAMMA_CHUNK];
    let chunk = (GAMMA_CHUNK / b) * b;
    let mut off = 0;
    while off < data.len() {
        let n = chunk.min(data.len() - off);
        for blk in ks[..n].chunks_exact_mut(b) {
            le_inc(counter);
            blk.copy_from_slice(counter);
        }
        c.encrypt_blocks(&mut ks[..n])?;
        data.xor_at(off, &ks[..n]);
        off += n;
    }
    crate::wipe::wipe(&mut ks);
    Ok(())
}

/// `x += 1` for a little-endian integer over all of `x` (modulo `2^(8 len)`), without a
/// data-dependent branch.
#[inline]
pub(crate) fn le_inc(x: &mut [u8]) {
    le_add(x, 1)
}

/// `x += n` for a little-endian integer over all of `x` (modulo `2^(8 len)`), touching every
/// byte whatever the carries.
#[inline]
pub(crate) fn le_add(x: &mut [u8], n: u128) {
    let mut carry = n;
    for b in x.iter_mut() {
        let s = *b as u128 + (carry & 0xff);
        *b = s as u8;
        carry = (carry >> 8) + (s >> 8);
    }
}

/// The standard's padding inside its modes: when `len` is not a multiple of `block`, byte
/// `len` of `buf` becomes 0x80 and the rest of that block zero; returns the padded length
/// (`len` itself when it is already whole blocks). `buf` must hold the padded length.
pub fn pad_partial(buf: &mut [u8], len: usize, block: usize) -> Result<usize, Error> {
    if block == 0 || block > MAX_BLOCK_LEN {
        return Err(Error::InvalidParameter {
            what: "block length",
        });
    }
    if len.is_multiple_of(block) {
        return Ok(len);
    }
    let total = len.next_multiple_of(block);
    let dst = buf.get_mut(len..total).ok_or(Error::TooShort {
        what: "padding buffer",
    })?;
    dst.fill(0);
    dst[0] = 0x80;
    Ok(total)
}

/// A MAC of a DSTU 7624 mode: up to one 64-byte block, of which
/// [`as_bytes`](Tag::as_bytes) is the used part. `==` is constant time.
#[derive(Clone)]
pub struct Tag {
    bytes: [u8; MAX_BLOCK_LEN],
    len: usize,
}

impl Tag {
    /// A tag of the first `len` bytes of `full`.
    pub(crate) fn new(full: &[u8], len: usize) -> Tag {
        let mut bytes = [0u8; MAX_BLOCK_LEN];
        bytes[..len].copy_from_slice(&full[..len]);
        Tag { bytes, len }
    }

    /// A tag from its bytes (for example one received with a message); an error unless it
    /// is 1 to 64 bytes long.
    pub fn from_slice(tag: &[u8]) -> Result<Tag, Error> {
        if tag.is_empty() || tag.len() > MAX_BLOCK_LEN {
            return Err(Error::InvalidTagLength { got: tag.len() });
        }
        Ok(Tag::new(tag, tag.len()))
    }

    /// The tag bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// Compares with `other` in constant time (their lengths, which are public, must
    /// agree): `Ok` or [`Error::AuthenticationFailed`].
    pub fn verify(&self, other: &[u8]) -> Result<(), Error> {
        if other.len() != self.len {
            return Err(Error::InvalidTagLength { got: other.len() });
        }
        if crate::ct::ct_eq(self.as_bytes(), other) {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }
}

impl PartialEq for Tag {
    /// Constant time in the contents.
    fn eq(&self, other: &Tag) -> bool {
        self.len == other.len && crate::ct::ct_eq(self.as_bytes(), other.as_bytes())
    }
}

impl Eq for Tag {}

impl AsRef<[u8]> for Tag {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl core::fmt::Debug for Tag {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Tag(")?;
        for b in self.as_bytes() {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}

/// The shortest tag the DSTU 7624 MACs produce or accept, in bytes (64 bits, the least the
/// standard's examples and UAPKI allow), unless the block is shorter.
pub const MIN_TAG_LEN: usize = 8;

/// `Ok` unless `q` is a tag length allowed for `block`-byte blocks.
pub(crate) fn check_tag_len(q: usize, block: usize) -> Result<(), Error> {
    if q < MIN_TAG_LEN.min(block) || q > block {
        return Err(Error::InvalidTagLength { got: q });
    }
    Ok(())
}

macro_rules! kalyna_impl {
    ($($t:ident),*) => {$(
        impl Dstu7624Cipher for crate::kalyna::$t {
            fn gamma_blocks(&self, counter: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
                self.as_kalyna().gamma_blocks(counter, data)
            }
        }
    )*};
}

kalyna_impl!(
    Kalyna128_128,
    Kalyna128_256,
    Kalyna256_256,
    Kalyna256_512,
    Kalyna512_512
);
