//! [`BoxedUint`]: a non-negative integer with a run-time number of limbs, zeroed on drop.
#![forbid(unsafe_code)]

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use super::limbs::{self, LIMB_BITS};
use crate::Error;

/// A non-negative integer held in a heap-allocated, fixed number of 64-bit limbs (little
/// endian). The limb count is public (it is a size, not a value); the value is treated as
/// secret: comparisons and arithmetic run in time that depends only on limb counts, and
/// the limbs are zeroed when the value is dropped.
#[derive(Clone, PartialEq, Eq)]
pub struct BoxedUint {
    pub(crate) limbs: Vec<u64>,
}

impl Drop for BoxedUint {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.limbs[..]);
    }
}

impl fmt::Debug for BoxedUint {
    /// Prints only the width; values may be secret.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BoxedUint({} limbs)", self.limbs.len())
    }
}

impl BoxedUint {
    /// Zero with `limbs` limbs.
    pub fn zero(limbs: usize) -> Self {
        BoxedUint {
            limbs: vec![0; limbs],
        }
    }

    /// `x` with `limbs` limbs (at least one).
    pub fn from_u64(x: u64, limbs: usize) -> Self {
        let mut r = Self::zero(limbs.max(1));
        r.limbs[0] = x;
        r
    }

    /// From little-endian limbs.
    pub fn from_limbs(limbs: &[u64]) -> Self {
        BoxedUint {
            limbs: limbs.to_vec(),
        }
    }

    /// The little-endian limbs.
    pub fn as_limbs(&self) -> &[u64] {
        &self.limbs
    }

    /// Number of limbs (the width, not the value's length).
    pub fn nlimbs(&self) -> usize {
        self.limbs.len()
    }

    /// From big-endian bytes, with just enough limbs for `bytes.len()` (at least one).
    pub fn from_be_bytes(bytes: &[u8]) -> Self {
        let n = bytes.len().div_ceil(8).max(1);
        Self::from_be_bytes_padded(bytes, n).expect("enough limbs")
    }

    /// From big-endian bytes into exactly `limbs` limbs; an error if the value does not fit
    /// (leading zero bytes beyond the width are allowed; this check is on the length and
    /// on the value of the extra bytes, so use it only on public values or exact lengths).
    pub fn from_be_bytes_padded(bytes: &[u8], limbs: usize) -> Result<Self, Error> {
        let mut r = Self::zero(limbs);
        for (i, &b) in bytes.iter().rev().enumerate() {
            let (l, s) = (i / 8, (i % 8) * 8);
            if l < limbs {
                r.limbs[l] |= (b as u64) << s;
            } else if b != 0 {
                return Err(Error::InvalidParameter {
                    what: "integer too large",
                });
            }
        }
        Ok(r)
    }

    /// Writes the value big-endian into `out` (left-padded with zeros); an error if it
    /// does not fit. Time depends on `out.len()` and the width only.
    pub fn write_be_bytes(&self, out: &mut [u8]) -> Result<(), Error> {
        let mut overflow = 0u64;
        for (l, &limb) in self.limbs.iter().enumerate() {
            for k in 0..8 {
                let i = l * 8 + k;
                let byte = (limb >> (8 * k)) as u8;
                if i < out.len() {
                    let pos = out.len() - 1 - i;
                    out[pos] = byte;
                } else {
                    overflow |= byte as u64;
                }
            }
        }
        let have = self.limbs.len() * 8;
        if out.len() > have {
            let pad = out.len() - have;
            out[..pad].fill(0);
        }
        if limbs::mask_is_zero(overflow) == 0 {
            return Err(Error::InvalidParameter {
                what: "integer too large for output",
            });
        }
        Ok(())
    }

    /// The value as `len` big-endian bytes; an error if it does not fit.
    pub fn to_be_bytes(&self, len: usize) -> Result<Vec<u8>, Error> {
        let mut v = vec![0u8; len];
        self.write_be_bytes(&mut v)?;
        Ok(v)
    }

    /// The value as big-endian bytes without leading zeros (one zero byte for 0).
    /// Variable time: for public values.
    pub fn to_be_bytes_trimmed_vartime(&self) -> Vec<u8> {
        let len = self.bits_vartime().div_ceil(8).max(1);
        self.to_be_bytes(len).expect("fits")
    }

    /// The position of the highest set bit plus one (0 for zero). Variable time: for
    /// public values (moduli, exponents).
    pub fn bits_vartime(&self) -> usize {
        for (i, &l) in self.limbs.iter().enumerate().rev() {
            if l != 0 {
                return i * LIMB_BITS + (LIMB_BITS - l.leading_zeros() as usize);
            }
        }
        0
    }

    /// The number of bits, in constant time (the value may be secret).
    pub fn bits(&self) -> usize {
        let mut bits = 0u64;
        let mut found = 0u64;
        for (i, &l) in self.limbs.iter().enumerate().rev() {
            let nz = crate::ct::mask_nonzero_u64(l) & !found;
            // bit length of l without a branch: 64 - lzcnt (lzcnt is constant time).
            let lb = (LIMB_BITS as u64) - l.leading_zeros() as u64;
            bits |= ((i as u64) * 64 + lb) & nz;
            found |= nz;
        }
        bits as usize
    }

    /// Bit `i` (0 or 1); `i` is public.
    pub fn bit(&self, i: usize) -> u64 {
        let l = i / LIMB_BITS;
        if l >= self.limbs.len() {
            0
        } else {
            (self.limbs[l] >> (i % LIMB_BITS)) & 1
        }
    }

    /// Whether the value is odd.
    pub fn is_odd(&self) -> bool {
        self.limbs[0] & 1 == 1
    }

    /// Whether the value is zero (constant time).
    pub fn is_zero(&self) -> bool {
        limbs::is_zero(&self.limbs) != 0
    }

    /// The same value with `limbs` limbs; an error if it does not fit (the check reads
    /// every dropped limb, in constant time).
    pub fn resize(&self, limbs: usize) -> Result<Self, Error> {
        let mut r = Self::zero(limbs);
        let k = limbs.min(self.limbs.len());
        r.limbs[..k].copy_from_slice(&self.limbs[..k]);
        if self.limbs.len() > limbs && limbs::is_zero(&self.limbs[limbs..]) == 0 {
            return Err(Error::InvalidParameter {
                what: "integer too large",
            });
        }
        Ok(r)
    }

    /// `self < other` in constant time (any widths).
    pub fn ct_lt(&self, other: &Self) -> bool {
        let n = self.limbs.len().max(other.limbs.len());
        let a = self.resize_unchecked(n);
        let b = other.resize_unchecked(n);
        limbs::lt(&a.limbs, &b.limbs) != 0
    }

    /// `self == other` in constant time (any widths).
    pub fn ct_eq(&self, other: &Self) -> bool {
        let n = self.limbs.len().max(other.limbs.len());
        let a = self.resize_unchecked(n);
        let b = other.resize_unchecked(n);
        limbs::eq(&a.limbs, &b.limbs) != 0
    }

    /// Widens (never narrows below the value's limbs: callers pass `n >= len`).
    pub(crate) fn resize_unchecked(&self, n: usize) -> Self {
        let mut r = Self::zero(n);
        let k = n.min(self.limbs.len());
        r.limbs[..k].copy_from_slice(&self.limbs[..k]);
        r
    }

    /// `self + other`, one limb wider than the wider operand.
    pub fn add(&self, other: &Self) -> Self {
        let n = self.limbs.len().max(other.limbs.len()) + 1;
        let mut r = self.resize_unchecked(n);
        limbs::add_assign(&mut r.limbs, &other.limbs);
        r
    }

    /// `self - other` with the width of `self`, and whether it borrowed (other > self).
    pub fn sub(&self, other: &Self) -> (Self, bool) {
        let n = self.limbs.len().max(other.limbs.len());
        let mut r = self.resize_unchecked(n);
        let b = limbs::sub_assign(&mut r.limbs, &other.resize_unchecked(n).limbs);
        r.limbs.truncate(self.limbs.len().max(1));
        (r, b != 0)
    }

    /// `self * other`, as wide as both operands together.
    pub fn mul(&self, other: &Self) -> Self {
        let mut r = Self::zero(self.limbs.len() + other.limbs.len());
        limbs::mul_wide(&mut r.limbs, &self.limbs, &other.limbs);
        r
    }

    /// `self mod m` for a public `m < 2^32`, in constant time.
    pub fn rem_u32(&self, m: u32) -> u32 {
        limbs::rem_u32(&self.limbs, m)
    }

    /// Sets `self` to `other` where `choice` is true, in constant time.
    pub fn conditional_assign(&mut self, other: &Self, choice: bool) {
        limbs::select_assign(
            &mut self.limbs,
            &other.limbs,
            limbs::mask_from_bit(choice as u64),
        );
    }

    /// The limbs, mutable (crate-internal arithmetic).
    pub(crate) fn limbs_mut(&mut self) -> &mut [u64] {
        &mut self.limbs
    }

    /// `self mod m` for `m > 0`, both possibly secret, in constant time: one
    /// shift-and-subtract step per bit of `self`'s width. The result has `m`'s width.
    pub fn rem_ct(&self, m: &Self) -> Self {
        let l = m.limbs.len() + 1;
        let mm = m.resize_unchecked(l);
        let mut r = Self::zero(l);
        let mut s = Self::zero(l);
        for i in (0..self.limbs.len() * LIMB_BITS).rev() {
            limbs::shl1(&mut r.limbs);
            r.limbs[0] |= self.bit(i);
            s.limbs.copy_from_slice(&r.limbs);
            let borrow = limbs::sub_assign(&mut s.limbs, &mm.limbs);
            limbs::select_assign(&mut r.limbs, &s.limbs, !limbs::mask_from_bit(borrow));
        }
        r.limbs.truncate(m.limbs.len());
        r
    }

    /// `self >> k` for a public shift, same width.
    pub fn shr_vartime(&self, k: usize) -> Self {
        let n = self.limbs.len();
        let mut r = Self::zero(n);
        let (ls, bs) = (k / 64, k % 64);
        for i in 0..n {
            let lo = self.limbs.get(i + ls).copied().unwrap_or(0);
            let hi = self.limbs.get(i + ls + 1).copied().unwrap_or(0);
            r.limbs[i] = if bs == 0 {
                lo
            } else {
                (lo >> bs) | (hi << (64 - bs))
            };
        }
        r
    }
}

impl zeroize::Zeroize for BoxedUint {
    fn zeroize(&mut self) {
        self.limbs[..].zeroize();
    }
}
