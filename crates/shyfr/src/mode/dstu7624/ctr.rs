//! DSTU 7624:2014 counter mode ("gamma"), streaming with seek.
//!
//! With `S = E(IV)`, keystream block `i` (from 0) is `E(S + i + 1)`, the addition little
//! endian over the whole block modulo `2^(8 b)`. This is where the mode differs from
//! [`crate::mode::ctr`] (big-endian counter starting at the IV itself); the rest is the
//! same: any length, chunked calls equal one call, [`Ctr::seek`] to any byte.
//!
//! ```
//! use shyfr::kalyna::Kalyna128_128;
//! use shyfr::mode::dstu7624::ctr::Ctr;
//! let k = Kalyna128_128::new(&[1; 16]);
//! let mut msg = *b"gamma mode, any length";
//! let mut ctr = Ctr::new(&k, &[2; 16]).unwrap();
//! ctr.apply_keystream(&mut msg[..5]).unwrap();
//! ctr.apply_keystream(&mut msg[5..]).unwrap();
//! ctr.seek(0).unwrap();
//! ctr.apply_keystream(&mut msg).unwrap();
//! assert_eq!(&msg, b"gamma mode, any length");
//! ```

use super::{le_add, Dstu7624Cipher};
use crate::block::{InOutBuf, MAX_BLOCK_LEN};
use crate::mode::{load_iv, pieces, run_pieces, Buf};
use crate::Error;

/// Streaming DSTU 7624 gamma for one IV.
pub struct Ctr<C: Dstu7624Cipher> {
    cipher: C,
    /// `S = E(IV)`, the counter before keystream block 0.
    start: Buf,
    /// `S + blocks generated so far`: the counter before the next keystream block.
    next: Buf,
    /// Keystream of the current block; bytes `ks_pos..` are unused.
    ks: Buf,
    ks_pos: usize,
    /// Keystream blocks generated so far.
    block: u128,
}

impl<C: Dstu7624Cipher + Sync> Ctr<C> {
    /// IV length in bytes: one block.
    pub const IV_LEN: usize = C::BLOCK_LEN;

    /// The gamma of `iv` (one block; [`Error::InvalidNonceLength`] otherwise).
    pub fn new(cipher: C, iv: &[u8]) -> Result<Self, Error> {
        let mut start = load_iv::<C>(iv)?;
        cipher.encrypt_blocks(&mut start[..C::BLOCK_LEN])?;
        Ok(Ctr {
            cipher,
            start,
            next: start,
            ks: [0; MAX_BLOCK_LEN],
            ks_pos: C::BLOCK_LEN,
            block: 0,
        })
    }

    /// The current position in the keystream, in bytes.
    pub fn position(&self) -> u128 {
        let b = C::BLOCK_LEN as u128;
        self.block * b - (b - self.ks_pos as u128)
    }

    /// Moves to byte `pos` of the keystream.
    pub fn seek(&mut self, pos: u128) -> Result<(), Error> {
        let b = C::BLOCK_LEN as u128;
        let (blk, off) = (pos / b, (pos % b) as usize);
        self.next = self.start;
        le_add(&mut self.next[..C::BLOCK_LEN], blk);
        self.block = blk;
        self.ks_pos = C::BLOCK_LEN;
        if off != 0 {
            self.refill()?;
            self.ks_pos = off;
        }
        Ok(())
    }

    fn refill(&mut self) -> Result<(), Error> {
        let b = C::BLOCK_LEN;
        self.ks[..b].fill(0);
        self.cipher
            .gamma_blocks(&mut self.next[..b], InOutBuf::in_place(&mut self.ks[..b]))?;
        self.block += 1;
        self.ks_pos = 0;
        Ok(())
    }

    fn apply(&mut self, mut data: InOutBuf<'_>) -> Result<(), Error> {
        let b = C::BLOCK_LEN;
        let len = data.len();
        let head = (b - self.ks_pos).min(len);
        data.xor_at(0, &self.ks[self.ks_pos..self.ks_pos + head]);
        self.ks_pos += head;
        let (_, rest) = data.split_at(head);
        let whole = (rest.len() / b) * b;
        let (mid, mut tail) = rest.split_at(whole);
        if whole > 0 {
            let nblocks = (whole / b) as u128;
            let (cipher, start) = (&self.cipher, self.next);
            run_pieces(mid, b, pieces(whole), &|first, p| {
                let mut ctr = start;
                le_add(&mut ctr[..b], first as u128);
                cipher.gamma_blocks(&mut ctr[..b], p)
            })?;
            le_add(&mut self.next[..b], nblocks);
            self.block += nblocks;
        }
        if !tail.is_empty() {
            self.refill()?;
            let t = tail.len();
            tail.xor_at(0, &self.ks[..t]);
            self.ks_pos = t;
        }
        Ok(())
    }

    /// [`apply_keystream`](Self::apply_keystream) on either form of buffer.
    pub(crate) fn apply_inout(&mut self, data: InOutBuf<'_>) -> Result<(), Error> {
        self.apply(data)
    }

    /// XORs the next `buf.len()` keystream bytes into `buf` (encrypts or decrypts in
    /// place).
    pub fn apply_keystream(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        self.apply(InOutBuf::in_place(buf))
    }

    /// Writes `input` XOR the next keystream bytes to `output` (same length).
    pub fn apply_keystream_to(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.apply(InOutBuf::new(input, output)?)
    }
}

impl<C: Dstu7624Cipher> Drop for Ctr<C> {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.ks);
        crate::wipe::wipe(&mut self.start);
        crate::wipe::wipe(&mut self.next);
    }
}
