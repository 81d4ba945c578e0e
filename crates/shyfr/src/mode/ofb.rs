//! OFB (NIST SP 800-38A, 6.4), streaming: the keystream is `E(IV), E(E(IV)), ...`.
//!
//! OFB is serial (each keystream block needs the previous one), the same for encryption
//! and decryption, and any length is allowed; chunked calls give the one-shot result.
//!
//! ```
//! use shyfr::mode::ofb::Ofb;
//! use shyfr::Aes128;
//! let aes = Aes128::new(&[1; 16]);
//! let mut msg = *b"output feedback";
//! Ofb::new(&aes, &[9; 16]).unwrap().apply_keystream(&mut msg).unwrap();
//! Ofb::new(&aes, &[9; 16]).unwrap().apply_keystream(&mut msg).unwrap();
//! assert_eq!(&msg, b"output feedback");
//! ```

use super::{load_iv, BlockModes, Buf};
use crate::block::{InOutBuf, MAX_BLOCK_LEN};
use crate::Error;

/// Streaming OFB keystream for one IV.
pub struct Ofb<C: BlockModes> {
    cipher: C,
    /// The last keystream block (the IV before the first).
    reg: Buf,
    pos: usize,
}

impl<C: BlockModes> Ofb<C> {
    /// IV length in bytes: one block.
    pub const IV_LEN: usize = C::BLOCK_LEN;

    /// OFB from a one-block `iv`.
    pub fn new(cipher: C, iv: &[u8]) -> Result<Self, Error> {
        Ok(Ofb {
            reg: load_iv::<C>(iv)?,
            cipher,
            pos: C::BLOCK_LEN,
        })
    }

    fn apply(&mut self, mut data: InOutBuf<'_>) -> Result<(), Error> {
        let b = C::BLOCK_LEN;
        let head = (b - self.pos).min(data.len());
        data.xor_at(0, &self.reg[self.pos..self.pos + head]);
        self.pos += head;
        let (_, rest) = data.split_at(head);
        let whole = (rest.len() / b) * b;
        let (mid, mut tail) = rest.split_at(whole);
        self.cipher.ofb_blocks(&mut self.reg[..b], mid)?;
        if !tail.is_empty() {
            let mut zero: Buf = [0; MAX_BLOCK_LEN];
            self.cipher
                .ofb_blocks(&mut self.reg[..b], InOutBuf::in_place(&mut zero[..b]))?;
            let t = tail.len();
            tail.xor_at(0, &self.reg[..t]);
            self.pos = t;
            crate::wipe::wipe(&mut zero[..b]);
        }
        Ok(())
    }

    /// XORs the next `buf.len()` keystream bytes into `buf` in place.
    pub fn apply_keystream(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        self.apply(InOutBuf::in_place(buf))
    }

    /// Writes `input` XOR the next keystream bytes to `output` (same length).
    pub fn apply_keystream_to(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.apply(InOutBuf::new(input, output)?)
    }
}

impl<C: BlockModes> Drop for Ofb<C> {
    fn drop(&mut self) {
        // The register is the last keystream block.
        crate::wipe::wipe(&mut self.reg[..C::BLOCK_LEN]);
    }
}
