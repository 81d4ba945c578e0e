//! HKDF (RFC 5869): extract-then-expand key derivation over HMAC with any [`Hash`].

use crate::hash::Hash;
use crate::mac::hmac::Hmac;
use crate::Error;

/// A pseudorandom key from [`Hkdf::extract`], ready to [`expand`](Hkdf::expand).
#[derive(Clone)]
pub struct Hkdf<H: Hash> {
    prk: Hmac<H>,
}

impl<H: Hash> Hkdf<H> {
    /// The most output [`expand`](Self::expand) can give: 255 hash lengths.
    pub const MAX_OUTPUT_LEN: usize = 255 * H::OUTPUT_LEN;

    /// HKDF-Extract: `PRK = HMAC(salt, ikm)`. An empty salt means `HashLen` zero bytes
    /// (RFC 5869, 2.2), which HMAC's key padding gives by itself.
    pub fn extract(salt: &[u8], ikm: &[u8]) -> Self {
        let prk = Hmac::<H>::mac(salt, ikm);
        Hkdf {
            prk: Hmac::new(prk.as_ref()),
        }
    }

    /// Uses `prk` directly as the pseudorandom key (it must already be one, e.g. from
    /// another extract; RFC 5869, 3.3).
    pub fn from_prk(prk: &[u8]) -> Self {
        Hkdf {
            prk: Hmac::new(prk),
        }
    }

    /// HKDF-Expand: fills `out` with `T(1) || T(2) || ...` where
    /// `T(i) = HMAC(PRK, T(i-1) || info || i)`. [`Error::TooLong`] when
    /// `out.len() > 255 * HashLen`.
    pub fn expand(&self, info: &[u8], out: &mut [u8]) -> Result<(), Error> {
        if out.len() > Self::MAX_OUTPUT_LEN {
            return Err(Error::TooLong {
                what: "hkdf output (at most 255 hash lengths)",
            });
        }
        let mut prev: Option<H::Output> = None;
        for (i, chunk) in out.chunks_mut(H::OUTPUT_LEN).enumerate() {
            let mut m = self.prk.clone();
            if let Some(p) = &prev {
                m.update(p.as_ref());
            }
            m.update(info);
            m.update(&[(i + 1) as u8]);
            let t = m.finalize();
            chunk.copy_from_slice(&t.as_ref()[..chunk.len()]);
            if let Some(mut p) = prev.replace(t) {
                zeroize::Zeroize::zeroize(p.as_mut());
            }
        }
        if let Some(mut p) = prev {
            zeroize::Zeroize::zeroize(p.as_mut());
        }
        Ok(())
    }

    /// Extract and expand in one call.
    pub fn derive(salt: &[u8], ikm: &[u8], info: &[u8], out: &mut [u8]) -> Result<(), Error> {
        if out.len() > Self::MAX_OUTPUT_LEN {
            return Err(Error::TooLong {
                what: "hkdf output (at most 255 hash lengths)",
            });
        }
        Self::extract(salt, ikm).expand(info, out)
    }
}
