//! CTR (NIST SP 800-38A, 6.5 and appendix B.1; RFC 3686), streaming with seek.
//!
//! The counter block is the IV; its last `counter_len` bytes are a big-endian counter
//! incremented once per block, modulo `2^(8 * counter_len)`, and the bytes before them
//! never change:
//!
//! * [`Ctr::new`]: the whole block is the counter (SP 800-38A's "standard incrementing
//!   function" with `m = b`);
//! * [`Ctr::with_counter_len`]`(cipher, iv, 4)`: a 32-bit counter, as in GCM and RFC 3686
//!   (IV = nonce || counter).
//!
//! A counter must never repeat under one key: asking for more keystream than the counter
//! field has values left (from the IV on) is [`Error::TooLong`], and the state is left as
//! it was. [`Ctr::seek`] moves to any byte offset of the keystream.
//!
//! ```
//! use shyfr::mode::ctr::Ctr;
//! use shyfr::Aes128;
//! let aes = Aes128::new(&[1; 16]);
//! let mut msg = *b"counter mode, any length";
//! let mut ctr = Ctr::new(&aes, &[0; 16]).unwrap();
//! ctr.apply_keystream(&mut msg[..5]).unwrap();
//! ctr.apply_keystream(&mut msg[5..]).unwrap();
//! ctr.seek(0).unwrap();
//! ctr.apply_keystream(&mut msg).unwrap();
//! assert_eq!(&msg, b"counter mode, any length");
//! ```

use super::generic::ctr_add;
use super::{load_iv, pieces, run_pieces, BlockModes, Buf};
use crate::block::{InOutBuf, MAX_BLOCK_LEN};
use crate::Error;

/// Streaming CTR keystream for one IV.
pub struct Ctr<C: BlockModes> {
    cipher: C,
    /// The IV (counter block of keystream block 0). The counter block of the next
    /// keystream block is computed from it and `block` when needed: a smaller value, so
    /// that setting one up for a short message is a few register stores.
    iv: Buf,
    /// Keystream of the current block; bytes `ks_pos..` are unused.
    ks: Buf,
    ks_pos: usize,
    counter_len: usize,
    /// Index of the next keystream block to generate (from the IV).
    block: u128,
    /// Counter values available from the IV on (saturated at `u128::MAX`).
    capacity: u128,
}

fn too_long() -> Error {
    Error::TooLong {
        what: "ctr keystream (counter would repeat)",
    }
}

impl<C: BlockModes + Sync> Ctr<C> {
    /// IV (initial counter block) length in bytes: one block.
    pub const IV_LEN: usize = C::BLOCK_LEN;

    /// CTR with the whole `iv` block as a big-endian counter (SP 800-38A).
    pub fn new(cipher: C, iv: &[u8]) -> Result<Self, Error> {
        Self::with_counter_len(cipher, iv, C::BLOCK_LEN)
    }

    /// CTR with the last `counter_len` bytes of `iv` as the counter (`1..=BLOCK_LEN`;
    /// 4 for GCM / RFC 3686).
    pub fn with_counter_len(cipher: C, iv: &[u8], counter_len: usize) -> Result<Self, Error> {
        let iv = load_iv::<C>(iv)?;
        if counter_len == 0 || counter_len > C::BLOCK_LEN {
            return Err(Error::InvalidParameter {
                what: "ctr counter length",
            });
        }
        let capacity = if counter_len >= 16 {
            u128::MAX
        } else {
            1u128 << (8 * counter_len)
        };
        Ok(Ctr {
            cipher,
            iv,
            ks: [0; MAX_BLOCK_LEN],
            ks_pos: C::BLOCK_LEN,
            counter_len,
            block: 0,
            capacity,
        })
    }

    /// The current position in the keystream, in bytes from the IV.
    pub fn position(&self) -> u128 {
        let b = C::BLOCK_LEN as u128;
        self.block * b - (b - self.ks_pos as u128)
    }

    /// Moves to byte `pos` of the keystream. [`Error::TooLong`] beyond the last counter
    /// value (the state is then unchanged).
    pub fn seek(&mut self, pos: u128) -> Result<(), Error> {
        let b = C::BLOCK_LEN as u128;
        let (blk, off) = (pos / b, (pos % b) as usize);
        if blk > self.capacity || (blk == self.capacity && off != 0) {
            return Err(too_long());
        }
        self.block = blk;
        self.ks_pos = C::BLOCK_LEN;
        if off != 0 {
            self.refill()?;
            self.ks_pos = off;
        }
        Ok(())
    }

    /// The counter block of keystream block `block` (the next one to generate).
    #[inline]
    fn next_counter(&self) -> Buf {
        let mut c = self.iv;
        ctr_add(&mut c[..C::BLOCK_LEN], self.counter_len, self.block);
        c
    }

    /// Generates the keystream block at `next_counter()` into `ks`.
    fn refill(&mut self) -> Result<(), Error> {
        let b = C::BLOCK_LEN;
        self.ks[..b].fill(0);
        let mut next = self.next_counter();
        self.cipher.ctr_blocks(
            &mut next[..b],
            self.counter_len,
            InOutBuf::in_place(&mut self.ks[..b]),
        )?;
        self.block += 1;
        self.ks_pos = 0;
        Ok(())
    }

    fn apply(&mut self, mut data: InOutBuf<'_>) -> Result<(), Error> {
        let b = C::BLOCK_LEN;
        let len = data.len();
        let buffered = b - self.ks_pos;
        if len > buffered {
            let blocks = (len - buffered).div_ceil(b) as u128;
            if blocks > self.capacity - self.block {
                return Err(too_long());
            }
        }
        // Leftover keystream of the current block.
        let head = buffered.min(len);
        data.xor_at(0, &self.ks[self.ks_pos..self.ks_pos + head]);
        self.ks_pos += head;
        let (_, rest) = data.split_at(head);
        let whole = (rest.len() / b) * b;
        let (mid, mut tail) = rest.split_at(whole);
        if whole > 0 {
            let nblocks = (whole / b) as u128;
            let cl = self.counter_len;
            let n = pieces(whole);
            let mut start = self.next_counter();
            if n == 1 {
                self.cipher.ctr_blocks(&mut start[..b], cl, mid)?;
            } else {
                let cipher = &self.cipher;
                run_pieces(mid, b, n, &|first, p| {
                    let mut ctr = start;
                    ctr_add(&mut ctr[..b], cl, first as u128);
                    cipher.ctr_blocks(&mut ctr[..b], cl, p)
                })?;
            }
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

impl<C: BlockModes> Drop for Ctr<C> {
    fn drop(&mut self) {
        // The keystream; the counters are not secret.
        crate::wipe::wipe(&mut self.ks[..C::BLOCK_LEN]);
    }
}
