//! RSA keys: validation, generation, the raw public and private operations (RSAEP/RSAVP1,
//! RSADP/RSASP1 of RFC 8017 section 5) with CRT, base blinding and a check of the result.
#![forbid(unsafe_code)]

use alloc::vec::Vec;
use core::fmt;

use rand_core::CryptoRng;

use crate::arith::bigint::{self, prime, Backend, BoxedUint, Modulus};
use crate::Error;

/// Smallest modulus accepted, in bits (keys this small are breakable; they exist for
/// tests and old data).
pub const MIN_BITS: usize = 512;
/// Largest modulus accepted, in bits.
pub const MAX_BITS: usize = 16384;
/// The public exponent [`RsaPrivateKey::generate`] uses: 65537.
pub const DEFAULT_EXPONENT: u32 = 65537;
/// Largest public exponent accepted when importing a key, in bits (keys with larger
/// exponents exist only to make public operations slow).
pub const MAX_EXPONENT_BITS: usize = 256;

/// An RSA public key `(n, e)`.
#[derive(Clone)]
pub struct RsaPublicKey {
    pub(crate) n: BoxedUint,
    pub(crate) e: BoxedUint,
    pub(crate) m: Modulus,
    /// Length of the modulus in bytes (`k` of RFC 8017).
    pub(crate) k: usize,
}

impl fmt::Debug for RsaPublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RsaPublicKey")
            .field("bits", &self.bits())
            .field("backend", &self.m.backend())
            .finish_non_exhaustive()
    }
}

impl PartialEq for RsaPublicKey {
    fn eq(&self, other: &Self) -> bool {
        self.n.ct_eq(&other.n) && self.e.ct_eq(&other.e)
    }
}
impl Eq for RsaPublicKey {}

impl RsaPublicKey {
    /// The key `(n, e)` from big-endian bytes (leading zeros allowed), with the fastest
    /// arithmetic backend. `n` must be odd, of [`MIN_BITS`]..=[`MAX_BITS`] bits; `e` odd,
    /// at least 3, below `n` and at most [`MAX_EXPONENT_BITS`] bits.
    pub fn new(n: &[u8], e: &[u8]) -> Result<Self, Error> {
        Self::with_backend(n, e, Backend::best())
    }

    /// [`new`](Self::new) with an explicit arithmetic backend (tests, benchmarks).
    pub fn with_backend(n: &[u8], e: &[u8], backend: Backend) -> Result<Self, Error> {
        let n = trim(BoxedUint::from_be_bytes(n));
        let e = trim(BoxedUint::from_be_bytes(e));
        Self::from_uints(n, e, backend)
    }

    pub(crate) fn from_uints(n: BoxedUint, e: BoxedUint, backend: Backend) -> Result<Self, Error> {
        let bits = n.bits_vartime();
        if !n.is_odd() {
            return Err(Error::InvalidKey {
                what: "modulus is even",
            });
        }
        if bits < MIN_BITS {
            return Err(Error::InvalidKey {
                what: "modulus too small",
            });
        }
        if bits > MAX_BITS {
            return Err(Error::InvalidKey {
                what: "modulus too large",
            });
        }
        let ebits = e.bits_vartime();
        if !e.is_odd() || !(2..=MAX_EXPONENT_BITS).contains(&ebits) || !e.ct_lt(&n) {
            return Err(Error::InvalidKey {
                what: "public exponent out of range",
            });
        }
        let m = Modulus::with_backend(&n, backend)?;
        Ok(RsaPublicKey {
            k: bits.div_ceil(8),
            n: m.modulus().clone(),
            e,
            m,
        })
    }

    /// Modulus length in bits.
    pub fn bits(&self) -> usize {
        self.m.bits()
    }

    /// Modulus length in bytes: the length of every signature and ciphertext.
    pub fn size(&self) -> usize {
        self.k
    }

    /// The modulus, big-endian without leading zeros.
    pub fn n_bytes(&self) -> Vec<u8> {
        self.n.to_be_bytes_trimmed_vartime()
    }

    /// The public exponent, big-endian without leading zeros.
    pub fn e_bytes(&self) -> Vec<u8> {
        self.e.to_be_bytes_trimmed_vartime()
    }

    /// The arithmetic backend of this key.
    pub fn backend(&self) -> Backend {
        self.m.backend()
    }

    /// RSAEP / RSAVP1: `x^e mod n` for `x` given as exactly [`size`](Self::size) bytes,
    /// big-endian; an error if `x` has another length or is not below `n`.
    pub fn raw_public(&self, x: &[u8]) -> Result<Vec<u8>, Error> {
        let v = self.os2ip_below_n(x).ok_or(Error::InvalidParameter {
            what: "input must be k bytes and below the modulus",
        })?;
        let r = self.m.pow_vartime(&v, &self.e);
        r.to_be_bytes(self.k)
    }

    /// `x` (exactly `k` bytes) as an integer below `n`, or `None`.
    pub(crate) fn os2ip_below_n(&self, x: &[u8]) -> Option<BoxedUint> {
        if x.len() != self.k {
            return None;
        }
        let v = BoxedUint::from_be_bytes_padded(x, self.n.nlimbs()).ok()?;
        if v.ct_lt(&self.n) {
            Some(v)
        } else {
            None
        }
    }
}

/// Drops leading zero limbs of a public value (variable time).
fn trim(x: BoxedUint) -> BoxedUint {
    let l = x.bits_vartime().div_ceil(64).max(1);
    x.resize(l).expect("only zero limbs dropped")
}

/// The blinding pair `(r^e mod n, r^{-1} mod n)`, both in the Montgomery form of the
/// public modulus (so that each use and each squaring is one Montgomery product,
/// [`Modulus::mont_mul`]), and how often it was used.
#[cfg_attr(not(feature = "std"), allow(dead_code))]
struct Blinding {
    a: BoxedUint,
    ai: BoxedUint,
    uses: u32,
}

/// Uses of one blinding pair (squared after each use) before a fresh random one is drawn.
#[cfg_attr(not(feature = "std"), allow(dead_code))]
const BLINDING_REFRESH: u32 = 64;

/// Draws of a blinding value in a row whose inverse fails its check before the private
/// operation gives up (a check fails by chance with probability about `2^-(bits/2)`).
const BLINDING_TRIES: u32 = 8;

/// Random draws for one blinding value below `n` (each is below `n` with probability at
/// least 1/2) before the draw counts as a failed try.
const BLINDING_DRAWS: u32 = 64;

/// An RSA private key with its CRT values. Every secret is zeroed on drop.
///
/// The private operation ([`raw_private`](Self::raw_private) and everything built on it)
/// runs by the Chinese remainder theorem, on a base blinded by `r^e` for a random `r`
/// (the pair `(r^e, r^{-1})` is squared after each use and drawn afresh every
/// 64 uses; with the `std` feature it is kept between calls, and fresh pairs are drawn
/// two at a time, sharing one inversion), both halves by
/// constant-time exponentiation; the result is checked by the public operation before it
/// is unblinded and released, so a fault cannot leak a factor (Boneh–DeMillo–Lipton).
pub struct RsaPrivateKey {
    pub(crate) public: RsaPublicKey,
    pub(crate) d: BoxedUint,
    pub(crate) p: BoxedUint,
    pub(crate) q: BoxedUint,
    pub(crate) dp: BoxedUint,
    pub(crate) dq: BoxedUint,
    pub(crate) qinv: BoxedUint,
    mp: Modulus,
    mq: Modulus,
    #[cfg(feature = "std")]
    blinding: std::sync::Mutex<Blindings>,
}

/// The blinding pairs kept between calls: the one in use and a spare drawn with it.
#[cfg(feature = "std")]
#[derive(Default)]
struct Blindings {
    current: Option<Blinding>,
    spare: Option<Blinding>,
}

impl Clone for RsaPrivateKey {
    fn clone(&self) -> Self {
        RsaPrivateKey {
            public: self.public.clone(),
            d: self.d.clone(),
            p: self.p.clone(),
            q: self.q.clone(),
            dp: self.dp.clone(),
            dq: self.dq.clone(),
            qinv: self.qinv.clone(),
            mp: self.mp.clone(),
            mq: self.mq.clone(),
            #[cfg(feature = "std")]
            blinding: std::sync::Mutex::new(Blindings::default()),
        }
    }
}

impl fmt::Debug for RsaPrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RsaPrivateKey")
            .field("bits", &self.public.bits())
            .field("backend", &self.public.backend())
            .finish_non_exhaustive()
    }
}

impl RsaPrivateKey {
    /// Generates a key of `bits` bits ([`MIN_BITS`]..=[`MAX_BITS`]) with `e` = 65537.
    ///
    /// ```
    /// # #[cfg(feature = "getrandom")] {
    /// use shyfr::rand::OsRng;
    /// use shyfr::sig::rsa::RsaPrivateKey;
    /// use shyfr::hash::sha2::Sha256;
    /// let key = RsaPrivateKey::generate(1024, &mut OsRng).unwrap();
    /// let sig = key.sign_pss::<Sha256, _>(&mut OsRng, b"hello").unwrap();
    /// key.public_key().verify_pss::<Sha256>(b"hello", &sig).unwrap();
    /// # }
    /// ```
    pub fn generate<R: CryptoRng + ?Sized>(bits: usize, rng: &mut R) -> Result<Self, Error> {
        Self::generate_with_exponent(bits, DEFAULT_EXPONENT, rng)
    }

    /// Generates a key with public exponent `e` (odd, 3 <= e < 2^32) and the fastest
    /// arithmetic backend.
    ///
    /// The primes have `ceil(bits/2)` and `floor(bits/2)` bits with their top two bits
    /// set (so `n` has exactly `bits` bits), differ in their top 100 bits (FIPS 186-5,
    /// A.1.3), have `gcd(p - 1, e) = 1` and pass the Miller–Rabin rounds of
    /// [`prime::rsa_mr_rounds`]. `d = e^{-1} mod (p-1)(q-1)`.
    pub fn generate_with_exponent<R: CryptoRng + ?Sized>(
        bits: usize,
        e: u32,
        rng: &mut R,
    ) -> Result<Self, Error> {
        Self::generate_with_backend(bits, e, Backend::best(), rng)
    }

    /// [`generate_with_exponent`](Self::generate_with_exponent) with an explicit backend.
    pub fn generate_with_backend<R: CryptoRng + ?Sized>(
        bits: usize,
        e: u32,
        backend: Backend,
        rng: &mut R,
    ) -> Result<Self, Error> {
        if !(MIN_BITS..=MAX_BITS).contains(&bits) {
            return Err(Error::InvalidParameter {
                what: "RSA key size (512..=16384 bits)",
            });
        }
        if e < 3 || e.is_multiple_of(2) {
            return Err(Error::InvalidParameter {
                what: "RSA public exponent (odd, at least 3)",
            });
        }
        if !backend.is_available() {
            return Err(Error::BackendUnavailable);
        }
        let pbits = bits.div_ceil(2);
        let qbits = bits / 2;
        loop {
            let p = prime::generate_rsa_prime(pbits, e, rng)?;
            let q = prime::generate_rsa_prime(qbits, e, rng)?;
            // |p - q| > 2^(bits/2 - 100)
            let w = p.nlimbs().max(q.nlimbs());
            let (pp, qq) = (p.resize_unchecked(w), q.resize_unchecked(w));
            let (mut diff, borrow) = pp.sub(&qq);
            let (d2, _) = qq.sub(&pp);
            diff.conditional_assign(&d2, borrow);
            if diff.bits() <= qbits.saturating_sub(100) {
                continue;
            }
            let n = p.mul(&q);
            if n.bits() != bits {
                continue;
            }
            let eb = BoxedUint::from_u64(e as u64, 1);
            let d = inverse_of_small(&phi(&p, &q), e);
            let key = Self::from_parts(n, eb, d, p, q, backend)?;
            return Ok(key);
        }
    }

    /// The key from its components, big-endian (leading zeros allowed): modulus, public
    /// exponent, private exponent and the two primes. The CRT values are computed, then the
    /// key is checked (`n = p q`, `e d = 1` modulo `p - 1` and `q - 1`).
    pub fn from_components(
        n: &[u8],
        e: &[u8],
        d: &[u8],
        p: &[u8],
        q: &[u8],
    ) -> Result<Self, Error> {
        Self::from_components_with_backend(n, e, d, p, q, Backend::best())
    }

    /// [`from_components`](Self::from_components) with an explicit backend.
    pub fn from_components_with_backend(
        n: &[u8],
        e: &[u8],
        d: &[u8],
        p: &[u8],
        q: &[u8],
        backend: Backend,
    ) -> Result<Self, Error> {
        let n = trim(BoxedUint::from_be_bytes(n));
        let e = trim(BoxedUint::from_be_bytes(e));
        let limbs = n.nlimbs();
        let d = BoxedUint::from_be_bytes_padded(d, limbs).map_err(|_| Error::InvalidKey {
            what: "private exponent out of range",
        })?;
        // The primes' widths are public (half the key size); leading zero limbs go.
        let p = trim(BoxedUint::from_be_bytes(p));
        let q = trim(BoxedUint::from_be_bytes(q));
        Self::from_parts(n, e, d, p, q, backend)
    }

    fn from_parts(
        n: BoxedUint,
        e: BoxedUint,
        d: BoxedUint,
        p: BoxedUint,
        q: BoxedUint,
        backend: Backend,
    ) -> Result<Self, Error> {
        let public = RsaPublicKey::from_uints(n, e, backend)?;
        let bad = |what| Error::InvalidKey { what };
        if !p.is_odd() || !q.is_odd() || p.bits_vartime() < 64 || q.bits_vartime() < 64 {
            return Err(bad("primes must be odd and at least 64 bits"));
        }
        if !d.ct_lt(&public.n) || d.is_zero() {
            return Err(bad("private exponent out of range"));
        }
        let n_limbs = public.n.nlimbs();
        let pq = p.mul(&q).resize(n_limbs).map_err(|_| bad("n != p q"))?;
        if !pq.ct_eq(&public.n) {
            return Err(bad("n != p q"));
        }
        let mp = Modulus::with_backend(&p, backend)?;
        let mq = Modulus::with_backend(&q, backend)?;
        let one = BoxedUint::from_u64(1, 1);
        let (pm1, _) = p.sub(&one);
        let (qm1, _) = q.sub(&one);
        let dp = rem_ct(&d, &pm1);
        let dq = rem_ct(&d, &qm1);
        // e d = 1 mod (p - 1) and mod (q - 1)
        let e = &public.e;
        if !rem_ct(&e.mul(&dp), &pm1).ct_eq(&one) || !rem_ct(&e.mul(&dq), &qm1).ct_eq(&one) {
            return Err(bad("e d != 1 modulo p - 1 or q - 1"));
        }
        let qinv = mp.inv_prime(&q);
        let key = RsaPrivateKey {
            public,
            d,
            p: mp.modulus().clone(),
            q: mq.modulus().clone(),
            dp,
            dq,
            qinv,
            mp,
            mq,
            #[cfg(feature = "std")]
            blinding: std::sync::Mutex::new(Blindings::default()),
        };
        Ok(key)
    }

    /// The public half.
    pub fn public_key(&self) -> &RsaPublicKey {
        &self.public
    }

    /// Modulus length in bits.
    pub fn bits(&self) -> usize {
        self.public.bits()
    }

    /// Modulus length in bytes.
    pub fn size(&self) -> usize {
        self.public.k
    }

    /// The arithmetic backend of this key.
    pub fn backend(&self) -> Backend {
        self.public.backend()
    }

    /// RSADP / RSASP1: `x^d mod n` for `x` given as exactly [`size`](Self::size) bytes
    /// below `n`. Blinded with randomness from `rng`; the result is checked before it is
    /// released ([`Error::ComputationFault`] otherwise).
    pub fn raw_private<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        x: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let v = self
            .public
            .os2ip_below_n(x)
            .ok_or(Error::InvalidParameter {
                what: "input must be k bytes and below the modulus",
            })?;
        self.private_op(rng, &v)?.to_be_bytes(self.public.k)
    }

    /// The blinded, checked CRT private operation on `c < n`.
    pub(crate) fn private_op<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        c: &BoxedUint,
    ) -> Result<BoxedUint, Error> {
        let pk = &self.public;
        let bl = self.take_blinding(rng)?;
        let cb = pk.m.mont_mul(c, &bl.a);
        let (cbp, cbq) = (self.mp.reduce(&cb), self.mq.reduce(&cb));
        let (m1, m2) = self.mp.pow_pair(&cbp, &self.dp, &self.mq, &cbq, &self.dq);
        let mb = self.crt_combine(&m1, &m2).ok_or(Error::ComputationFault)?;
        // Check before release: mb^e == cb modulo p and modulo q, which is mb^e == cb
        // (mod n), on the recombined result; both halves in one paired loop on
        // `x86_ifma`, each product of half the width (the public operation modulo n
        // alone takes 7.6 us at 2048 bits and 16 us at 3072 on Zen 4).
        let (bp, bq) = self.mp.pow_pair_vartime(&mb, &self.mq, &mb, &pk.e);
        let ok = bp.ct_eq(&cbp) & bq.ct_eq(&cbq) & mb.ct_lt(&pk.n);
        let m = pk.m.mont_mul(&mb, &bl.ai);
        self.put_blinding(bl);
        if ok {
            Ok(m)
        } else {
            Err(Error::ComputationFault)
        }
    }

    /// `m < n` with `m = m1 (mod p)`, `m = m2 (mod q)` for `m1 < p`, `m2 < q` (Garner:
    /// `m = m2 + q (qinv (m1 - m2) mod p)`); `None` if the sum does not fit `n`'s width
    /// (only after a fault).
    fn crt_combine(&self, m1: &BoxedUint, m2: &BoxedUint) -> Option<BoxedUint> {
        let m2p = self.mp.reduce(m2);
        let h = self.mp.mul(&self.qinv, &self.mp.sub(m1, &m2p));
        h.mul(&self.q).add(m2).resize(self.public.n.nlimbs()).ok()
    }

    /// A fresh pair `(r^e, r^{-1})` for a random `r`, and with `with_spare` a second one for
    /// another `r` (Montgomery's trick: the inverse of `r1 r2` gives both inverses, so two
    /// pairs cost one inversion and four products modulo `n`). The inverse is
    /// `t^(p-2) mod p` and `t^(q-2) mod q` (Fermat) recombined: one paired constant-time
    /// exponentiation, the cost of one private operation, against about three for the
    /// binary inversion modulo `n` (`Modulus::inv`: about 4 % of the samples of RSA-3072
    /// signing in a profile, spread over the 64 uses of a pair, on `x86_ifma`).
    ///
    /// A value `r` not coprime to `n` (which reveals a factor; probability about
    /// `2^-(bits/2)`) is drawn again; after [`BLINDING_TRIES`] failed checks in a row the
    /// arithmetic is taken to be faulty ([`Error::ComputationFault`]).
    fn fresh_blinding<R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        with_spare: bool,
    ) -> Result<(Blinding, Option<Blinding>), Error> {
        let pk = &self.public;
        let two = BoxedUint::from_u64(2, 1);
        let (pm2, _) = self.p.sub(&two);
        let (qm2, _) = self.q.sub(&two);
        let one = BoxedUint::from_u64(1, 1);
        // A uniform r in [1, n) by rejection of draws of n's bit length; each is kept
        // with probability n / 2^bits >= 1/2, so the draws left over after
        // BLINDING_DRAWS of them (about 2^-64) take a try. (The rejected draws tell
        // nothing of the one kept.)
        let draw = |rng: &mut R| {
            (0..BLINDING_DRAWS).find_map(|_| {
                let r = prime::random_bits(pk.bits(), pk.n.nlimbs(), rng);
                (!r.is_zero() && r.ct_lt(&pk.n)).then_some(r)
            })
        };
        let pair = |r: &BoxedUint, ai: BoxedUint| Blinding {
            a: pk.m.mont_form(&pk.m.pow_vartime(r, &pk.e)),
            ai: pk.m.mont_form(&ai),
            uses: 0,
        };
        for _ in 0..BLINDING_TRIES {
            let Some(r1) = draw(rng) else { continue };
            let r2 = if with_spare {
                let Some(r2) = draw(rng) else { continue };
                Some(r2)
            } else {
                None
            };
            let t = match &r2 {
                Some(r2) => pk.m.mul(&r1, r2),
                None => r1.clone(),
            };
            let (ip, iq) = self.mp.pow_pair(&t, &pm2, &self.mq, &t, &qm2);
            let Some(ti) = self.crt_combine(&ip, &iq) else {
                continue;
            };
            // r ai = 1 exactly when gcd(r, n) = 1 (otherwise r, and so ai, is 0 modulo p
            // or q: the only outcome the timing shows). It also checks the inverse: one
            // wrong half of it would make every unblinded result wrong modulo one prime
            // only, which gives away the other.
            match &r2 {
                None => {
                    if pk.m.mul(&r1, &ti).ct_eq(&one) {
                        return Ok((pair(&r1, ti), None));
                    }
                }
                Some(r2) => {
                    let (ai1, ai2) = (pk.m.mul(r2, &ti), pk.m.mul(&r1, &ti));
                    let ok = pk.m.mul(&r1, &ai1).ct_eq(&one) & pk.m.mul(r2, &ai2).ct_eq(&one);
                    if ok {
                        return Ok((pair(&r1, ai1), Some(pair(r2, ai2))));
                    }
                }
            }
        }
        Err(Error::ComputationFault)
    }

    /// The pair in use if it has uses left, else the spare, else two fresh pairs (one
    /// kept as the spare).
    #[cfg(feature = "std")]
    fn take_blinding<R: CryptoRng + ?Sized>(&self, rng: &mut R) -> Result<Blinding, Error> {
        if let Ok(mut g) = self.blinding.try_lock() {
            match g.current.take() {
                Some(b) if b.uses < BLINDING_REFRESH => return Ok(b),
                _ => {}
            }
            if let Some(b) = g.spare.take() {
                return Ok(b);
            }
        }
        let (b, spare) = self.fresh_blinding(rng, true)?;
        if let Ok(mut g) = self.blinding.try_lock() {
            g.spare = spare;
        }
        Ok(b)
    }

    #[cfg(not(feature = "std"))]
    fn take_blinding<R: CryptoRng + ?Sized>(&self, rng: &mut R) -> Result<Blinding, Error> {
        self.fresh_blinding(rng, false).map(|(b, _)| b)
    }

    #[cfg(feature = "std")]
    fn put_blinding(&self, b: Blinding) {
        let m = &self.public.m;
        let next = Blinding {
            a: m.mont_mul(&b.a, &b.a),
            ai: m.mont_mul(&b.ai, &b.ai),
            uses: b.uses + 1,
        };
        if let Ok(mut g) = self.blinding.try_lock() {
            g.current = Some(next);
        }
    }

    #[cfg(not(feature = "std"))]
    fn put_blinding(&self, _b: Blinding) {}
}

/// `phi = (p - 1)(q - 1)`.
fn phi(p: &BoxedUint, q: &BoxedUint) -> BoxedUint {
    let one = BoxedUint::from_u64(1, 1);
    let (pm1, _) = p.sub(&one);
    let (qm1, _) = q.sub(&one);
    pm1.mul(&qm1)
}

/// `e^{-1} mod m` for a secret `m` and a public odd `e < 2^32` with `gcd(e, m) = 1`, in
/// constant time: with `t = m^{-1} mod e`, `(1 + m (e - t)) / e` is an integer (the
/// division is exact) and is the inverse.
pub(crate) fn inverse_of_small(m: &BoxedUint, e: u32) -> BoxedUint {
    let r = m.rem_u32(e) as u64;
    let t = bigint::inv_mod_u64(r, e as u64);
    let f = BoxedUint::from_u64(e as u64 - t, 1);
    let x = m.mul(&f).add(&BoxedUint::from_u64(1, 1));
    let mut x = x;
    bigint::div_exact_small(x.limbs_mut(), e as u64);
    x.resize(m.nlimbs()).expect("quotient below m")
}

/// `a mod m` for secret values (see [`BoxedUint::rem_ct`]).
pub(crate) fn rem_ct(a: &BoxedUint, m: &BoxedUint) -> BoxedUint {
    a.rem_ct(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Lcg(u64);
    impl rand_core::TryRng for Lcg {
        type Error = core::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.try_next_u64()? as u32)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            Ok(self.0 ^ (self.0 >> 29))
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            for b in dst.iter_mut() {
                *b = self.try_next_u64()? as u8;
            }
            Ok(())
        }
    }
    impl rand_core::TryCryptoRng for Lcg {}

    /// All ones for the first `ones` words, then an [`Lcg`]: every blinding draw made of
    /// those words is `2^bits - 1 >= n`.
    struct OnesFirst {
        ones: usize,
        rest: Lcg,
    }
    impl rand_core::TryRng for OnesFirst {
        type Error = core::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.try_next_u64()? as u32)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            if self.ones > 0 {
                self.ones -= 1;
                return Ok(u64::MAX);
            }
            self.rest.try_next_u64()
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            for b in dst.iter_mut() {
                *b = self.try_next_u64()? as u8;
            }
            Ok(())
        }
    }
    impl rand_core::TryCryptoRng for OnesFirst {}

    /// Blinding draws at or above `n` are drawn again without counting as failed tries
    /// (a draw is below `n` with probability `n / 2^bits`, as low as 1/2: counted, eight
    /// in a row failed the private operation about once in 256 fresh blinding values for
    /// a modulus just above `2^(bits-1)`).
    #[test]
    fn rejected_blinding_draws_are_not_failures() {
        let mut rng = Lcg(5);
        let key = RsaPrivateKey::generate(1024, &mut rng).unwrap();
        let x = alloc::vec![0x42u8; key.size()];
        let want = key.raw_private(&mut rng, &x).unwrap();
        let words = key.public.n.nlimbs();
        let mut rng = OnesFirst {
            ones: 20 * words,
            rest: Lcg(9),
        };
        assert_eq!(key.clone().raw_private(&mut rng, &x), Ok(want.clone()));
        // Past two refreshes: the pair in use, then the spare drawn with it, then two
        // fresh ones; every result the same.
        for _ in 0..2 * BLINDING_REFRESH + 3 {
            assert_eq!(key.raw_private(&mut rng, &x).as_ref(), Ok(&want));
        }
    }

    /// A fault in a CRT half (here: a wrong `dp` or `dq`) is caught before anything is released.
    #[test]
    fn fault_is_caught() {
        let mut rng = Lcg(7);
        for &b in Backend::ALL.iter().filter(|b| b.is_available()) {
            let key = RsaPrivateKey::generate_with_backend(1024, 65537, b, &mut rng).unwrap();
            let x = alloc::vec![0x42u8; key.size()];
            assert!(key.raw_private(&mut rng, &x).is_ok());
            // Either half: the check runs modulo p and modulo q.
            for half in 0..2 {
                let mut bad = key.clone();
                let d = if half == 0 { &mut bad.dp } else { &mut bad.dq };
                d.limbs_mut()[0] ^= 2;
                assert_eq!(bad.raw_private(&mut rng, &x), Err(Error::ComputationFault));
            }
        }
    }

    /// A wrong blinding inverse (here from a wrong `p`, whose `p - 2` gives the inverse
    /// modulo `p`) is caught: the private operation fails instead of releasing a result
    /// that is wrong modulo `p` only.
    #[test]
    fn wrong_blinding_inverse_is_caught() {
        let mut rng = Lcg(11);
        for &b in Backend::ALL.iter().filter(|b| b.is_available()) {
            let key = RsaPrivateKey::generate_with_backend(1024, 65537, b, &mut rng).unwrap();
            let x = alloc::vec![0x42u8; key.size()];
            assert!(key.clone().raw_private(&mut rng, &x).is_ok());
            let mut bad = key.clone();
            bad.p.limbs_mut()[0] ^= 4;
            assert_eq!(bad.raw_private(&mut rng, &x), Err(Error::ComputationFault));
        }
    }

    #[test]
    fn inverse_of_small_exponent() {
        let m = BoxedUint::from_limbs(&[0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321]);
        for e in [3u32, 5, 7, 65537, 0x7fff_ffff] {
            if bigint::inv_mod_u64(m.rem_u32(e) as u64, e as u64) == 0 {
                continue; // not coprime
            }
            let d = inverse_of_small(&m, e);
            let prod = d.mul(&BoxedUint::from_u64(e as u64, 1));
            assert!(prod.rem_ct(&m).ct_eq(&BoxedUint::from_u64(1, 1)), "e = {e}");
        }
    }
}
