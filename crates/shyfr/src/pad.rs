//! Block padding, in place: PKCS#7 (RFC 5652 section 6.3) and ISO/IEC 7816-4 (a `0x80`
//! byte, then zeros to the block boundary; also ISO/IEC 9797-1 padding method 2).
//!
//! Padding works in a buffer that reserves room for it: the message is the first
//! `msg_len` bytes of a buffer at least [`padded_len`] bytes long, and padding returns the
//! padded prefix. Unpadding returns the message prefix of the padded data.
//!
//! Unpadding is constant time in the contents of the last block: every byte of it is
//! inspected, with no branch or index that depends on the padding's value, and every
//! malformed padding (including data that is empty or not whole blocks) gives the same
//! error, [`Error::BadPadding`]. Only the message length that is returned depends on it.
//!
//! ```
//! use shyfr::pad::{Padding, padded_len};
//! let mut buf = [0u8; 32];
//! buf[..5].copy_from_slice(b"hello");
//! let padded = Padding::Pkcs7.pad(&mut buf, 5, 16).unwrap();
//! assert_eq!(padded.len(), padded_len(5, 16));
//! assert_eq!(&padded[5..], &[11u8; 11][..]);
//! let msg = Padding::Pkcs7.unpad(padded, 16).unwrap();
//! assert_eq!(msg, b"hello");
//! ```
#![forbid(unsafe_code)]

use crate::ct::barrier_u64;
use crate::Error;

/// A padding scheme for block modes (ECB, CBC).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Padding {
    /// No padding: the data must already be whole blocks.
    None,
    /// PKCS#7: `n` bytes of value `n`, `1 <= n <= block`. Block length at most 255.
    Pkcs7,
    /// ISO/IEC 7816-4: `0x80` then zero bytes, at least one byte, at most a block.
    Iso7816,
}

/// Length of `msg_len` bytes after padding to `block`-byte blocks (always at least one
/// byte of padding: a whole block when `msg_len` is already a multiple).
pub const fn padded_len(msg_len: usize, block: usize) -> usize {
    (msg_len / block + 1) * block
}

impl Padding {
    /// Length after padding `msg_len` bytes to `block`-byte blocks (`msg_len` itself for
    /// [`Padding::None`]).
    pub const fn padded_len(self, msg_len: usize, block: usize) -> usize {
        match self {
            Padding::None => msg_len,
            _ => padded_len(msg_len, block),
        }
    }

    /// Pads the first `msg_len` bytes of `buf` in place and returns the padded prefix.
    ///
    /// Errors: `block` of 0 (or above 255 for PKCS#7) is [`Error::InvalidParameter`];
    /// `msg_len > buf.len()` or a buffer shorter than the padded length is
    /// [`Error::TooShort`]; for [`Padding::None`], a message that is not whole blocks is
    /// [`Error::NotWholeBlocks`].
    pub fn pad(self, buf: &mut [u8], msg_len: usize, block: usize) -> Result<&mut [u8], Error> {
        match self {
            Padding::None => {
                check_block(block, usize::MAX)?;
                if msg_len > buf.len() {
                    return Err(Error::TooShort {
                        what: "padding buffer",
                    });
                }
                crate::block::check_whole_blocks(msg_len, block)?;
                Ok(&mut buf[..msg_len])
            }
            Padding::Pkcs7 => pkcs7_pad(buf, msg_len, block),
            Padding::Iso7816 => iso7816_pad(buf, msg_len, block),
        }
    }

    /// Checks and removes the padding of `data` (whole blocks), returning the message.
    /// Every bad padding is [`Error::BadPadding`]; for [`Padding::None`] data that is not
    /// whole blocks is [`Error::NotWholeBlocks`].
    pub fn unpad(self, data: &[u8], block: usize) -> Result<&[u8], Error> {
        let n = self.message_len(data, block)?;
        Ok(&data[..n])
    }

    /// [`unpad`](Self::unpad) on a mutable buffer.
    pub fn unpad_mut(self, data: &mut [u8], block: usize) -> Result<&mut [u8], Error> {
        let n = self.message_len(data, block)?;
        Ok(&mut data[..n])
    }

    /// The message length of padded `data`, or the error of [`unpad`](Self::unpad).
    pub fn message_len(self, data: &[u8], block: usize) -> Result<usize, Error> {
        match self {
            Padding::None => {
                check_block(block, usize::MAX)?;
                crate::block::check_whole_blocks(data.len(), block)?;
                Ok(data.len())
            }
            Padding::Pkcs7 => pkcs7_message_len(data, block),
            Padding::Iso7816 => iso7816_message_len(data, block),
        }
    }
}

fn check_block(block: usize, max: usize) -> Result<(), Error> {
    if block == 0 || block > max {
        return Err(Error::InvalidParameter {
            what: "padding block length",
        });
    }
    Ok(())
}

/// Checks the buffer for padding `msg_len` bytes; returns the padded length.
fn room(buf_len: usize, msg_len: usize, block: usize) -> Result<usize, Error> {
    let total = padded_len(msg_len, block);
    if msg_len > buf_len || total > buf_len {
        return Err(Error::TooShort {
            what: "padding buffer",
        });
    }
    Ok(total)
}

/// PKCS#7: pads the first `msg_len` bytes of `buf` to whole `block`-byte blocks
/// (`1 <= block <= 255`) and returns the padded prefix.
pub fn pkcs7_pad(buf: &mut [u8], msg_len: usize, block: usize) -> Result<&mut [u8], Error> {
    check_block(block, 255)?;
    let total = room(buf.len(), msg_len, block)?;
    let n = (total - msg_len) as u8;
    buf[msg_len..total].fill(n);
    Ok(&mut buf[..total])
}

/// PKCS#7: the message of padded `data`, or [`Error::BadPadding`].
pub fn pkcs7_unpad(data: &[u8], block: usize) -> Result<&[u8], Error> {
    Padding::Pkcs7.unpad(data, block)
}

/// ISO/IEC 7816-4: pads the first `msg_len` bytes of `buf` with `0x80 00 ..` to whole
/// `block`-byte blocks and returns the padded prefix.
pub fn iso7816_pad(buf: &mut [u8], msg_len: usize, block: usize) -> Result<&mut [u8], Error> {
    check_block(block, usize::MAX)?;
    let total = room(buf.len(), msg_len, block)?;
    buf[msg_len] = 0x80;
    buf[msg_len + 1..total].fill(0);
    Ok(&mut buf[..total])
}

/// ISO/IEC 7816-4: the message of padded `data`, or [`Error::BadPadding`].
pub fn iso7816_unpad(data: &[u8], block: usize) -> Result<&[u8], Error> {
    Padding::Iso7816.unpad(data, block)
}

/// `u64::MAX` if `x == 0`, else 0; branch-free.
#[inline(always)]
fn is_zero(x: u64) -> u64 {
    let x = barrier_u64(x);
    ((x | x.wrapping_neg()) >> 63).wrapping_sub(1)
}

/// `u64::MAX` if `a < b` (both below 2^63), else 0; branch-free.
#[inline(always)]
fn lt(a: u64, b: u64) -> u64 {
    (barrier_u64(a).wrapping_sub(b) >> 63).wrapping_neg()
}

/// The last block of `data`, after the shape checks every scheme shares.
fn last_block(data: &[u8], block: usize, max: usize) -> Result<&[u8], Error> {
    check_block(block, max)?;
    if data.is_empty() || !data.len().is_multiple_of(block) {
        return Err(Error::BadPadding);
    }
    Ok(&data[data.len() - block..])
}

fn pkcs7_message_len(data: &[u8], block: usize) -> Result<usize, Error> {
    let last = last_block(data, block, 255)?;
    let n = last[block - 1] as u64;
    // good: 1 <= n <= block, and the last n bytes all equal n.
    let mut bad = is_zero(n) | !lt(n, block as u64 + 1);
    for (i, &b) in last.iter().enumerate() {
        // Position from the end, 1-based: the byte is padding when it is <= n.
        let from_end = (block - i) as u64;
        let in_pad = !lt(n, from_end);
        bad |= in_pad & !is_zero(b as u64 ^ n);
    }
    if barrier_u64(bad) != 0 {
        return Err(Error::BadPadding);
    }
    Ok(data.len() - n as usize)
}

fn iso7816_message_len(data: &[u8], block: usize) -> Result<usize, Error> {
    let last = last_block(data, block, usize::MAX)?;
    // Scan from the end: skip zeros; the first non-zero byte must be 0x80.
    let mut found = 0u64; // all ones once the marker position is fixed
    let mut marker_ok = 0u64;
    let mut pad = 0u64; // padding length
    for (k, &b) in last.iter().rev().enumerate() {
        let nz = !is_zero(b as u64);
        let first = nz & !found;
        marker_ok |= first & is_zero(b as u64 ^ 0x80);
        pad |= first & (k as u64 + 1);
        found |= nz;
    }
    if barrier_u64(!(found & marker_ok)) != 0 {
        return Err(Error::BadPadding);
    }
    Ok(data.len() - pad as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    /// Reference checks written the obvious (branching) way.
    fn pkcs7_ref(data: &[u8], block: usize) -> Option<usize> {
        if data.is_empty() || !data.len().is_multiple_of(block) {
            return None;
        }
        let n = *data.last().unwrap() as usize;
        if n == 0 || n > block || data[data.len() - n..].iter().any(|&b| b as usize != n) {
            return None;
        }
        Some(data.len() - n)
    }

    fn iso_ref(data: &[u8], block: usize) -> Option<usize> {
        if data.is_empty() || !data.len().is_multiple_of(block) {
            return None;
        }
        let last = &data[data.len() - block..];
        let p = last.iter().rposition(|&b| b != 0)?;
        (last[p] == 0x80).then(|| data.len() - block + p)
    }

    #[test]
    fn round_trips_every_length() {
        for block in [1usize, 8, 16, 32, 64] {
            for len in 0..3 * block {
                for pad in [Padding::Pkcs7, Padding::Iso7816] {
                    let mut buf = vec![0xa5u8; padded_len(len, block)];
                    let p = pad.pad(&mut buf, len, block).unwrap().to_vec();
                    assert_eq!(p.len() % block, 0);
                    assert!(p.len() > len && p.len() <= len + block);
                    assert_eq!(pad.unpad(&p, block).unwrap(), &buf[..len]);
                }
            }
        }
    }

    #[test]
    fn every_last_block_against_reference() {
        // Every value of the last byte and of the byte before it, block 16.
        let block = 16;
        for b1 in 0..=255u8 {
            for b2 in [0u8, 1, 2, 0x80, 0x10, b1] {
                let mut d = vec![2u8; 32];
                d[31] = b1;
                d[30] = b2;
                for (pad, r) in [
                    (Padding::Pkcs7, pkcs7_ref(&d, block)),
                    (Padding::Iso7816, iso_ref(&d, block)),
                ] {
                    match r {
                        Some(n) => assert_eq!(pad.message_len(&d, block), Ok(n), "{d:?}"),
                        None => assert_eq!(pad.message_len(&d, block), Err(Error::BadPadding)),
                    }
                }
            }
        }
    }

    #[test]
    fn bad_shapes() {
        let mut small = [0u8; 15];
        assert!(matches!(
            pkcs7_pad(&mut small, 0, 16),
            Err(Error::TooShort { .. })
        ));
        assert!(matches!(
            pkcs7_pad(&mut small, 16, 16),
            Err(Error::TooShort { .. })
        ));
        assert!(matches!(
            pkcs7_pad(&mut [0u8; 512], 0, 256),
            Err(Error::InvalidParameter { .. })
        ));
        assert!(matches!(
            pkcs7_pad(&mut [0u8; 16], 0, 0),
            Err(Error::InvalidParameter { .. })
        ));
        for pad in [Padding::Pkcs7, Padding::Iso7816] {
            assert_eq!(pad.unpad(&[], 16), Err(Error::BadPadding));
            assert_eq!(pad.unpad(&[1u8; 15], 16), Err(Error::BadPadding));
            assert_eq!(pad.unpad(&[0u8; 16], 16), Err(Error::BadPadding));
        }
        assert_eq!(
            Padding::None.unpad(&[0u8; 15], 16),
            Err(Error::NotWholeBlocks { len: 15, block: 16 })
        );
        let v: Vec<u8> = vec![16; 16];
        assert_eq!(pkcs7_unpad(&v, 16).unwrap(), &[] as &[u8]);
        let mut w = v.clone();
        w[0] = 15;
        assert_eq!(pkcs7_unpad(&w, 16), Err(Error::BadPadding));
    }
}
