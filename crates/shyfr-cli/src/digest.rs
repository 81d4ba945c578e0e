//! Hashes and MACs behind one streaming interface, for `shyfr hash` and `shyfr mac`.
//!
//! The rows of [`crate::algorithms::ALGORITHMS`] that `hash` or `mac` accept carry a
//! [`Digest`]: how to make a [`Hasher`] and how long its output is. Output is produced in
//! pieces through a sink, so an extendable-output function (SHAKE) never holds its whole
//! output: `--length` up to [`MAX_XOF_LEN`] streams in [`PIECE`]-byte pieces. A KMAC tag
//! encodes its length before the first output byte and the library makes it in one call,
//! so it is held whole and capped lower, at [`MAX_KMAC_LEN`].
//!
//! The national MACs: GOST 34.311-95 as a hash with a selectable S-box
//! ([`Digest::SboxHash`]), and the MACs over a block cipher with a key of fixed length
//! ([`Digest::CipherMac`]): DSTU 7624 CMAC and GMAC over each Kalyna variant and the
//! GOST 28147-89 MAC ("imitovstavka").

use shyfr::gost28147::{Gost28147, Sbox};
use shyfr::hash::gost34311::Gost34311;
use shyfr::hash::{Hash, Xof, XofReader};
use shyfr::kalyna::Backend as KalynaBackend;
use shyfr::mac::hmac::Hmac;
use shyfr::mac::kmac::{Kmac128, Kmac256};
use shyfr::mode::dstu7624::cmac::Cmac as KalynaCmac;
use shyfr::mode::gost28147::Mac as GostMac;

use crate::ciphers::KalynaVariant;
use crate::report::CliError;

/// The longest SHAKE output `--length` accepts (1 GiB; streamed, never held whole).
pub const MAX_XOF_LEN: u64 = 1 << 30;
/// The longest KMAC tag `--length` accepts (1 MiB; the tag is made in one piece).
pub const MAX_KMAC_LEN: u64 = 1 << 20;
/// The piece size output is produced in.
pub const PIECE: usize = 1 << 14;

/// Makes a KMAC state from (key, customization, tag length).
pub type NewKmac = fn(&[u8], &[u8], u64) -> Result<Box<dyn Hasher>, shyfr::Error>;

/// Makes a block-cipher MAC state from (key, tag length, S-box); the S-box is used by the
/// GOST 28147-89 MAC only.
pub type NewCipherMac = fn(&[u8], usize, &Sbox) -> Result<Box<dyn Hasher>, shyfr::Error>;
/// Makes a keyed state whose key has one fixed length (an error for another).
pub type NewFixedKey = fn(&[u8]) -> Result<Box<dyn Hasher>, shyfr::Error>;

/// Where output goes, piece by piece.
pub type Sink<'a> = dyn FnMut(&[u8]) -> Result<(), CliError> + 'a;

/// A hash or MAC being computed.
pub trait Hasher: Send {
    /// Absorbs data.
    fn update(&mut self, data: &[u8]);
    /// Finishes and passes the output to `sink` in pieces (in order).
    fn finish(self: Box<Self>, sink: &mut Sink<'_>) -> Result<(), CliError>;
}

/// What a row of the algorithm table offers to `hash` or `mac`.
#[derive(Clone, Copy)]
pub enum Digest {
    /// A hash with a fixed output length (`shyfr hash`).
    Hash {
        /// Output length in bytes.
        len: usize,
        /// A fresh state.
        new: fn() -> Box<dyn Hasher>,
    },
    /// An extendable-output function (`shyfr hash --length`).
    Xof {
        /// Output length without `--length`.
        default_len: usize,
        /// A fresh state that will produce this many bytes.
        new: fn(u64) -> Box<dyn Hasher>,
    },
    /// HMAC (`shyfr mac`): any key length.
    Hmac {
        /// Tag length in bytes.
        len: usize,
        /// A state keyed with the key.
        new: fn(&[u8]) -> Box<dyn Hasher>,
    },
    /// A MAC whose key and tag have fixed lengths (`shyfr mac`): the DSTU 7564 keyed
    /// Kupyna.
    FixedKey {
        /// Tag length in bytes.
        len: usize,
        /// Key length in bytes (the only one accepted).
        key_len: usize,
        /// A state keyed with the key (an error for a key of another length).
        new: NewFixedKey,
    },
    /// KMAC (`shyfr mac`, with `--length` and `--customization`).
    Kmac {
        /// Tag length without `--length`.
        default_len: usize,
        /// The shortest key accepted (the security strength, NIST SP 800-185 8.4.1).
        min_key: usize,
        /// A state keyed with (key, customization) that will produce this many bytes.
        new: NewKmac,
    },
    /// A hash whose S-box is a parameter (GOST 34.311-95; `shyfr hash --sbox`).
    SboxHash {
        /// Output length in bytes.
        len: usize,
        /// A fresh state with this S-box.
        new: fn(&Sbox) -> Box<dyn Hasher>,
    },
    /// A MAC over a block cipher (`shyfr mac`): a key of exactly `key_len` bytes, a tag of
    /// `min_len` to `max_len` bytes (`--length`; `max_len` without it).
    CipherMac {
        /// The key length in bytes.
        key_len: usize,
        /// The shortest tag.
        min_len: usize,
        /// The longest tag, and the default.
        max_len: usize,
        /// Whether `--sbox` applies (the GOST 28147-89 MAC).
        sbox: bool,
        /// A state keyed with the key, producing a tag of the given length.
        new: NewCipherMac,
    },
}

impl Digest {
    /// Whether `shyfr hash` takes it (unkeyed).
    pub fn is_hash(&self) -> bool {
        matches!(
            self,
            Digest::Hash { .. } | Digest::Xof { .. } | Digest::SboxHash { .. }
        )
    }

    /// Whether `shyfr mac` takes it (keyed).
    pub fn is_mac(&self) -> bool {
        !self.is_hash()
    }

    /// Whether `--length` applies.
    pub fn has_length(&self) -> bool {
        match *self {
            Digest::Xof { .. } | Digest::Kmac { .. } => true,
            Digest::CipherMac {
                min_len, max_len, ..
            } => min_len < max_len,
            _ => false,
        }
    }

    /// Whether `--sbox` applies.
    pub fn has_sbox(&self) -> bool {
        matches!(
            self,
            Digest::SboxHash { .. } | Digest::CipherMac { sbox: true, .. }
        )
    }

    /// The output length without `--length`.
    pub fn default_len(&self) -> usize {
        match *self {
            Digest::Hash { len, .. }
            | Digest::Hmac { len, .. }
            | Digest::SboxHash { len, .. }
            | Digest::FixedKey { len, .. } => len,
            Digest::Xof { default_len, .. } | Digest::Kmac { default_len, .. } => default_len,
            Digest::CipherMac { max_len, .. } => max_len,
        }
    }

    /// The `--length` values accepted: (shortest, longest) in bytes.
    pub fn length_range(&self) -> (u64, u64) {
        match self {
            Digest::Kmac { .. } => (shyfr::mac::kmac::MIN_TAG_LEN as u64, MAX_KMAC_LEN),
            Digest::CipherMac {
                min_len, max_len, ..
            } => (*min_len as u64, *max_len as u64),
            _ => (1, MAX_XOF_LEN),
        }
    }
}

struct Fixed<H: Hash>(H);

impl<H: Hash + Send> Hasher for Fixed<H> {
    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
    fn finish(self: Box<Self>, sink: &mut Sink<'_>) -> Result<(), CliError> {
        sink(self.0.finalize().as_ref())
    }
}

/// A fresh `H` (a [`Digest::Hash`] constructor).
pub fn fixed<H: Hash + Send + 'static>() -> Box<dyn Hasher> {
    Box::new(Fixed(H::new()))
}

struct Extendable<X: Xof>(X, u64);

impl<X: Xof + Send> Hasher for Extendable<X> {
    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
    fn finish(self: Box<Self>, sink: &mut Sink<'_>) -> Result<(), CliError> {
        let mut reader = self.0.finalize_xof();
        let mut left = self.1;
        let mut piece = [0u8; PIECE];
        while left > 0 {
            let n = left.min(PIECE as u64) as usize;
            reader.read(&mut piece[..n]);
            sink(&piece[..n])?;
            left -= n as u64;
        }
        Ok(())
    }
}

/// A fresh SHAKE128 with `len` bytes of output.
pub fn shake128(len: u64) -> Box<dyn Hasher> {
    Box::new(Extendable(shyfr::hash::sha3::Shake128::new(), len))
}

/// A fresh SHAKE256 with `len` bytes of output.
pub fn shake256(len: u64) -> Box<dyn Hasher> {
    Box::new(Extendable(shyfr::hash::sha3::Shake256::new(), len))
}

struct HmacOf<H: Hash>(Hmac<H>);

impl<H: Hash + Send> Hasher for HmacOf<H> {
    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
    fn finish(self: Box<Self>, sink: &mut Sink<'_>) -> Result<(), CliError> {
        sink(self.0.finalize().as_ref())
    }
}

/// HMAC over `H` keyed with `key` (a [`Digest::Hmac`] constructor).
pub fn hmac<H: Hash + Send + 'static>(key: &[u8]) -> Box<dyn Hasher> {
    Box::new(HmacOf(Hmac::<H>::new(key)))
}

struct KupynaKmacOf(shyfr::mac::kupyna_kmac::KupynaKmac);

impl Hasher for KupynaKmacOf {
    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
    fn finish(self: Box<Self>, sink: &mut Sink<'_>) -> Result<(), CliError> {
        sink(self.0.finalize().as_ref())
    }
}

/// The DSTU 7564 keyed Kupyna with `key` (32, 48 or 64 bytes; a [`Digest::FixedKey`]
/// constructor).
pub fn kupyna_kmac(key: &[u8]) -> Result<Box<dyn Hasher>, shyfr::Error> {
    Ok(Box::new(KupynaKmacOf(
        shyfr::mac::kupyna_kmac::KupynaKmac::new(key)?,
    )))
}

/// A KMAC state and its tag length.
enum KmacOf {
    K128(Kmac128, usize),
    K256(Kmac256, usize),
}

impl Hasher for KmacOf {
    fn update(&mut self, data: &[u8]) {
        match self {
            KmacOf::K128(k, _) => k.update(data),
            KmacOf::K256(k, _) => k.update(data),
        }
    }
    fn finish(self: Box<Self>, sink: &mut Sink<'_>) -> Result<(), CliError> {
        let (mut tag, r) = match *self {
            KmacOf::K128(k, n) => {
                let mut tag = vec![0u8; n];
                let r = k.finalize_into(&mut tag);
                (tag, r)
            }
            KmacOf::K256(k, n) => {
                let mut tag = vec![0u8; n];
                let r = k.finalize_into(&mut tag);
                (tag, r)
            }
        };
        let result = match r {
            Ok(()) => tag.chunks(PIECE).try_for_each(&mut *sink),
            Err(e) => Err(CliError::Failure(format!("KMAC: {e}"))),
        };
        tag.fill(0);
        result
    }
}

/// Checks a KMAC tag length against [`Digest::length_range`] before allocating it.
fn kmac_len(len: u64) -> Result<usize, shyfr::Error> {
    if len > MAX_KMAC_LEN {
        return Err(shyfr::Error::InvalidTagLength {
            got: usize::try_from(len).unwrap_or(usize::MAX),
        });
    }
    Ok(len as usize)
}

/// KMAC128 keyed with (key, customization), `len` bytes of tag.
pub fn kmac128(key: &[u8], custom: &[u8], len: u64) -> Result<Box<dyn Hasher>, shyfr::Error> {
    let n = kmac_len(len)?;
    Ok(Box::new(KmacOf::K128(Kmac128::new(key, custom)?, n)))
}

/// KMAC256 keyed with (key, customization), `len` bytes of tag.
pub fn kmac256(key: &[u8], custom: &[u8], len: u64) -> Result<Box<dyn Hasher>, shyfr::Error> {
    let n = kmac_len(len)?;
    Ok(Box::new(KmacOf::K256(Kmac256::new(key, custom)?, n)))
}

/// A fresh GOST 34.311-95 state with `sbox` and a zero starting value (a
/// [`Digest::SboxHash`] constructor).
pub fn gost34311(sbox: &Sbox) -> Box<dyn Hasher> {
    Box::new(Fixed(Gost34311::with_params(sbox, &[0; 32])))
}

/// A DSTU 7624 CMAC state and its tag length.
struct Dstu7624Cmac<K: KalynaVariant>(KalynaCmac<K>);

impl<K: KalynaVariant> Hasher for Dstu7624Cmac<K> {
    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
    fn finish(self: Box<Self>, sink: &mut Sink<'_>) -> Result<(), CliError> {
        sink(self.0.finalize().as_bytes())
    }
}

/// DSTU 7624 CMAC over the Kalyna variant `K` with a `len`-byte tag (a
/// [`Digest::CipherMac`] constructor).
pub fn kalyna_cmac<K: KalynaVariant>(
    key: &[u8],
    len: usize,
    _sbox: &Sbox,
) -> Result<Box<dyn Hasher>, shyfr::Error> {
    let k = K::with_backend_slice(key, KalynaBackend::best())?;
    Ok(Box::new(Dstu7624Cmac(KalynaCmac::new(k, len)?)))
}

/// A DSTU 7624 GMAC state.
struct Dstu7624Gmac<K: KalynaVariant>(shyfr::aead::dstu7624::gcm::Gmac<K>);

impl<K: KalynaVariant> Hasher for Dstu7624Gmac<K> {
    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
    fn finish(self: Box<Self>, sink: &mut Sink<'_>) -> Result<(), CliError> {
        sink(self.0.finalize().as_bytes())
    }
}

/// DSTU 7624 GMAC over the Kalyna variant `K` with a `len`-byte tag (a
/// [`Digest::CipherMac`] constructor).
pub fn kalyna_gmac<K: KalynaVariant>(
    key: &[u8],
    len: usize,
    _sbox: &Sbox,
) -> Result<Box<dyn Hasher>, shyfr::Error> {
    let k = K::with_backend_slice(key, KalynaBackend::best())?;
    Ok(Box::new(Dstu7624Gmac(
        shyfr::aead::dstu7624::gcm::Gmac::new(k, len)?,
    )))
}

/// A GOST 28147-89 MAC state and its tag length.
struct Gost28147Mac(GostMac<Gost28147>, usize);

impl Hasher for Gost28147Mac {
    fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
    fn finish(self: Box<Self>, sink: &mut Sink<'_>) -> Result<(), CliError> {
        let mut tag = [0u8; shyfr::mode::gost28147::MAC_LEN];
        let n = self.1;
        self.0
            .finalize_truncated(&mut tag[..n])
            .map_err(|e| CliError::Failure(format!("gost28147-mac: {e}")))?;
        sink(&tag[..n])
    }
}

/// The GOST 28147-89 MAC with `sbox` and a `len`-byte tag (1 to 4; a
/// [`Digest::CipherMac`] constructor).
pub fn gost28147_mac(key: &[u8], len: usize, sbox: &Sbox) -> Result<Box<dyn Hasher>, shyfr::Error> {
    if len == 0 || len > shyfr::mode::gost28147::MAC_LEN {
        return Err(shyfr::Error::InvalidTagLength { got: len });
    }
    let c = Gost28147::new_from_slice(key, sbox)?;
    Ok(Box::new(Gost28147Mac(GostMac::new(c), len)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(h: Box<dyn Hasher>) -> Vec<u8> {
        let mut out = Vec::new();
        h.finish(&mut |p: &[u8]| {
            out.extend_from_slice(p);
            Ok(())
        })
        .unwrap();
        out
    }

    #[test]
    fn streamed_xof_equals_one_read() {
        use shyfr::hash::sha3::Shake256;
        for len in [
            1u64,
            63,
            PIECE as u64,
            PIECE as u64 + 1,
            3 * PIECE as u64 + 7,
        ] {
            let mut h = shake256(len);
            h.update(b"abc");
            let got = collect(h);
            let mut x = Shake256::new();
            Xof::update(&mut x, b"abc");
            let mut want = vec![0u8; len as usize];
            x.finalize_xof().read(&mut want);
            assert_eq!(got, want, "{len}");
        }
    }

    #[test]
    fn cipher_macs_check_keys_and_lengths() {
        use shyfr::kalyna::{Kalyna128_128, Kalyna512_512};
        let dke = Sbox::DKE1;
        assert!(kalyna_cmac::<Kalyna128_128>(&[0; 32], 16, &dke).is_err());
        assert!(kalyna_cmac::<Kalyna128_128>(&[0; 16], 7, &dke).is_err());
        assert!(kalyna_gmac::<Kalyna512_512>(&[0; 64], 65, &dke).is_err());
        assert!(gost28147_mac(&[0; 31], 4, &dke).is_err());
        assert!(gost28147_mac(&[0; 32], 0, &dke).is_err());
        assert!(gost28147_mac(&[0; 32], 5, &dke).is_err());
        // DSTU 7624:2014 CMAC example (testdata/kalyna/cmac.json, vector 1), in two pieces.
        let key: Vec<u8> = (0..16).collect();
        let msg: Vec<u8> = (0x20..0x50).collect();
        let mut m = kalyna_cmac::<Kalyna128_128>(&key, 16, &dke).unwrap();
        m.update(&msg[..5]);
        m.update(&msg[5..]);
        assert_eq!(hex::encode(collect(m)), "123b4eab8e63ecf3e645a99c1115e241");
        let mut g = gost28147_mac(&[1; 32], 2, &dke).unwrap();
        g.update(b"abc");
        assert_eq!(collect(g).len(), 2);
    }

    #[test]
    fn kmac_lengths_are_checked_before_allocating() {
        let key = [7u8; 32];
        assert!(kmac256(&key, b"", u64::MAX).is_err());
        assert!(kmac256(&key, b"", MAX_KMAC_LEN + 1).is_err());
        assert!(kmac256(&key[..16], b"", 32).is_err());
        let mut k = kmac128(&key[..16], b"", 32).unwrap();
        k.update(b"x");
        assert_eq!(collect(k).len(), 32);
    }
}
