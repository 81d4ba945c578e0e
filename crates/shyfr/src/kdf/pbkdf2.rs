//! PBKDF2 (RFC 8018, 5.2) with HMAC over any [`Hash`].

use crate::hash::Hash;
use crate::mac::hmac::Hmac;
use crate::Error;

/// Derives `out.len()` bytes from `password` and `salt` with `iterations` rounds of
/// HMAC-`H`.
///
/// Errors: [`Error::InvalidParameter`] for zero iterations or an empty output;
/// [`Error::TooLong`] for more than `(2^32 - 1) * HashLen` bytes of output.
///
/// The keyed HMAC states are computed once and cloned for every iteration, so each
/// iteration costs two compression-function calls of `H` for short hashes.
pub fn pbkdf2_hmac<H: Hash>(
    password: &[u8],
    salt: &[u8],
    iterations: u32,
    out: &mut [u8],
) -> Result<(), Error> {
    if iterations == 0 {
        return Err(Error::InvalidParameter {
            what: "pbkdf2 iterations (must be at least 1)",
        });
    }
    if out.is_empty() {
        return Err(Error::InvalidParameter {
            what: "pbkdf2 output length (must be at least 1)",
        });
    }
    if (out.len() as u64).div_ceil(H::OUTPUT_LEN as u64) > u32::MAX as u64 {
        return Err(Error::TooLong {
            what: "pbkdf2 output (at most (2^32 - 1) hash lengths)",
        });
    }
    let prf = Hmac::<H>::new(password);
    for (i, chunk) in out.chunks_mut(H::OUTPUT_LEN).enumerate() {
        let mut m = prf.clone();
        m.update(salt);
        m.update(&(i as u32 + 1).to_be_bytes());
        let mut u = m.finalize();
        let mut t = u;
        for _ in 1..iterations {
            let mut m = prf.clone();
            m.update(u.as_ref());
            u = m.finalize();
            for (a, b) in t.as_mut().iter_mut().zip(u.as_ref()) {
                *a ^= b;
            }
        }
        chunk.copy_from_slice(&t.as_ref()[..chunk.len()]);
        zeroize::Zeroize::zeroize(t.as_mut());
        zeroize::Zeroize::zeroize(u.as_mut());
    }
    Ok(())
}
