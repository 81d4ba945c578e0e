//! Hashes and MACs behind one streaming interface, for `shyfr hash` and `shyfr mac`.
//!
//! The rows of [`crate::algorithms::ALGORITHMS`] that `hash` or `mac` accept carry a
//! [`Digest`]: how to make a [`Hasher`] and how long its output is. Output is produced in
//! pieces through a sink, so an extendable-output function (SHAKE) never holds its whole
//! output: `--length` up to [`MAX_XOF_LEN`] streams in [`PIECE`]-byte pieces. A KMAC tag
//! encodes its length before the first output byte and the library makes it in one call,
//! so it is held whole and capped lower, at [`MAX_KMAC_LEN`].

use shyfr::hash::{Hash, Xof, XofReader};
use shyfr::mac::hmac::Hmac;
use shyfr::mac::kmac::{Kmac128, Kmac256};

use crate::report::CliError;

/// The longest SHAKE output `--length` accepts (1 GiB; streamed, never held whole).
pub const MAX_XOF_LEN: u64 = 1 << 30;
/// The longest KMAC tag `--length` accepts (1 MiB; the tag is made in one piece).
pub const MAX_KMAC_LEN: u64 = 1 << 20;
/// The piece size output is produced in.
pub const PIECE: usize = 1 << 14;

/// Makes a KMAC state from (key, customization, tag length).
pub type NewKmac = fn(&[u8], &[u8], u64) -> Result<Box<dyn Hasher>, shyfr::Error>;

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
}

impl Digest {
    /// Whether `shyfr hash` takes it (unkeyed).
    pub fn is_hash(&self) -> bool {
        matches!(self, Digest::Hash { .. } | Digest::Xof { .. })
    }

    /// Whether `shyfr mac` takes it (keyed).
    pub fn is_mac(&self) -> bool {
        !self.is_hash()
    }

    /// Whether `--length` applies.
    pub fn has_length(&self) -> bool {
        matches!(self, Digest::Xof { .. } | Digest::Kmac { .. })
    }

    /// The output length without `--length`.
    pub fn default_len(&self) -> usize {
        match *self {
            Digest::Hash { len, .. } | Digest::Hmac { len, .. } | Digest::FixedKey { len, .. } => {
                len
            }
            Digest::Xof { default_len, .. } | Digest::Kmac { default_len, .. } => default_len,
        }
    }

    /// The `--length` values accepted: (shortest, longest) in bytes.
    pub fn length_range(&self) -> (u64, u64) {
        match self {
            Digest::Kmac { .. } => (shyfr::mac::kmac::MIN_TAG_LEN as u64, MAX_KMAC_LEN),
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
