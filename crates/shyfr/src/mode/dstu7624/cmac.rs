//! The DSTU 7624:2014 MAC ("imitovstavka"), streaming.
//!
//! A CBC-MAC whose last block is handled the standard's way: whole, it is XORed with
//! `E(0)`; short (or an empty message), it is padded with 0x80 0.. ([`super::pad_partial`])
//! and XORed with `E(01 00 .. 00)`; then it goes through the chain's last encryption. The
//! tag is the first `q` bytes (`8 <= q <= b`). This final-block rule is where it differs
//! from NIST CMAC (which derives `K1`, `K2` by doubling); it reproduces the standard's
//! examples, including the unaligned one.
//!
//! ```
//! use shyfr::kalyna::Kalyna128_128;
//! use shyfr::mode::dstu7624::cmac::Cmac;
//! let k = Kalyna128_128::new(&[5; 16]);
//! let tag = Cmac::mac(&k, 16, b"message").unwrap();
//! let mut m = Cmac::new(&k, 16).unwrap();
//! m.update(b"mess");
//! m.update(b"age");
//! assert!(m.verify(tag.as_bytes()).is_ok());
//! ```

use super::{check_tag_len, pad_partial, Dstu7624Cipher, Tag};
use crate::block::xor_in;
use crate::mode::Buf;
use crate::Error;

/// Streaming DSTU 7624 MAC.
pub struct Cmac<C: Dstu7624Cipher> {
    cipher: C,
    /// The CBC chain over the blocks absorbed so far.
    state: Buf,
    /// The last (possibly whole) block, kept until [`finalize`](Cmac::finalize).
    last: Buf,
    last_len: usize,
    q: usize,
}

impl<C: Dstu7624Cipher> Cmac<C> {
    /// A MAC of `q` bytes (`8 <= q <= b`, or `q = b` for shorter blocks).
    pub fn new(cipher: C, q: usize) -> Result<Self, Error> {
        crate::mode::check_cipher::<C>()?;
        check_tag_len(q, C::BLOCK_LEN)?;
        Ok(Cmac {
            cipher,
            state: [0; 64],
            last: [0; 64],
            last_len: 0,
            q,
        })
    }

    /// The MAC of `msg` in one call.
    pub fn mac(cipher: C, q: usize, msg: &[u8]) -> Result<Tag, Error> {
        let mut m = Self::new(cipher, q)?;
        m.update(msg);
        Ok(m.finalize())
    }

    /// Absorbs `data`.
    pub fn update(&mut self, mut data: &[u8]) {
        let b = C::BLOCK_LEN;
        // Fill the kept block; it is absorbed only once more data follows it.
        let take = (b - self.last_len).min(data.len());
        self.last[self.last_len..self.last_len + take].copy_from_slice(&data[..take]);
        self.last_len += take;
        data = &data[take..];
        if data.is_empty() {
            return;
        }
        self.absorb_last();
        // Whole blocks, keeping back the last one (whole or not).
        let keep = match data.len() % b {
            0 => b,
            r => r,
        };
        let bulk = data.len() - keep;
        if bulk > 0 {
            // The chaining value is one block and `bulk` whole blocks: this cannot fail.
            let _ = self
                .cipher
                .cbc_mac_blocks(&mut self.state[..b], &data[..bulk]);
        }
        self.last[..keep].copy_from_slice(&data[bulk..]);
        self.last_len = keep;
    }

    /// Absorbs the kept block (which is whole).
    fn absorb_last(&mut self) {
        let b = C::BLOCK_LEN;
        xor_in(&mut self.state[..b], &self.last[..b]);
        // One whole block: cannot fail.
        let _ = self.cipher.encrypt_blocks(&mut self.state[..b]);
        self.last_len = 0;
    }

    /// The tag.
    pub fn finalize(mut self) -> Tag {
        let b = C::BLOCK_LEN;
        let mut delta = [0u8; 64];
        let whole = self.last_len == b;
        if !whole {
            // `last` holds a block, so padding cannot fail.
            let _ = pad_partial(&mut self.last[..b], self.last_len, b);
            if self.last_len == 0 {
                // An empty message: a full block of padding.
                self.last[0] = 0x80;
                self.last[1..b].fill(0);
            }
            delta[0] = 1;
        }
        let _ = self.cipher.encrypt_blocks(&mut delta[..b]);
        xor_in(&mut self.state[..b], &self.last[..b]);
        xor_in(&mut self.state[..b], &delta[..b]);
        let _ = self.cipher.encrypt_blocks(&mut self.state[..b]);
        crate::wipe::wipe(&mut delta);
        Tag::new(&self.state[..b], self.q)
    }

    /// Finishes and compares with `tag` in constant time.
    pub fn verify(self, tag: &[u8]) -> Result<(), Error> {
        self.finalize().verify(tag)
    }
}

impl<C: Dstu7624Cipher> Drop for Cmac<C> {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.state);
        crate::wipe::wipe(&mut self.last);
    }
}
