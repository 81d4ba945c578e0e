//! ECB (NIST SP 800-38A, 6.1): every block enciphered on its own.
//!
//! ECB leaks which blocks are equal; it exists for interoperability and as a building
//! block. Large buffers are split across threads with the `parallel` feature.
//!
//! ```
//! use shyfr::mode::ecb::Ecb;
//! use shyfr::pad::Padding;
//! use shyfr::Aes128;
//! let ecb = Ecb::new(Aes128::new(&[1; 16]));
//! let mut buf = [0u8; 32];
//! buf[..3].copy_from_slice(b"abc");
//! let ct = ecb.encrypt_padded(&mut buf, 3, Padding::Pkcs7).unwrap();
//! assert_eq!(ct.len(), 16);
//! let pt = ecb.decrypt_padded(ct, Padding::Pkcs7).unwrap();
//! assert_eq!(pt, b"abc");
//! ```

use super::{check_cipher, pieces, run_pieces};
use crate::block::{check_whole_blocks, BlockCipher, InOutBuf};
use crate::pad::Padding;
use crate::Error;

/// ECB with a fixed key.
#[derive(Clone, Debug)]
pub struct Ecb<C> {
    cipher: C,
}

impl<C: BlockCipher + Sync> Ecb<C> {
    /// Wraps a keyed cipher.
    pub fn new(cipher: C) -> Self {
        Ecb { cipher }
    }

    /// The cipher.
    pub fn cipher(&self) -> &C {
        &self.cipher
    }

    fn run(&self, data: InOutBuf<'_>, dec: bool) -> Result<(), Error> {
        check_cipher::<C>()?;
        check_whole_blocks(data.len(), C::BLOCK_LEN)?;
        let n = pieces(data.len());
        run_pieces(data, C::BLOCK_LEN, n, &|_, mut p: InOutBuf<'_>| {
            let out = p.reborrow().into_copied_output();
            if dec {
                self.cipher.decrypt_blocks(out)
            } else {
                self.cipher.encrypt_blocks(out)
            }
        })
    }

    /// Encrypts whole blocks in place.
    pub fn encrypt(&self, buf: &mut [u8]) -> Result<(), Error> {
        self.run(InOutBuf::in_place(buf), false)
    }

    /// Decrypts whole blocks in place.
    pub fn decrypt(&self, buf: &mut [u8]) -> Result<(), Error> {
        self.run(InOutBuf::in_place(buf), true)
    }

    /// Encrypts whole blocks from `input` to `output` (same length).
    pub fn encrypt_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.run(InOutBuf::new(input, output)?, false)
    }

    /// Decrypts whole blocks from `input` to `output` (same length).
    pub fn decrypt_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.run(InOutBuf::new(input, output)?, true)
    }

    /// Pads the first `msg_len` bytes of `buf` (which has room for the padding: see
    /// [`crate::pad::padded_len`]) and encrypts them; returns the ciphertext prefix.
    pub fn encrypt_padded<'b>(
        &self,
        buf: &'b mut [u8],
        msg_len: usize,
        padding: Padding,
    ) -> Result<&'b mut [u8], Error> {
        let data = padding.pad(buf, msg_len, C::BLOCK_LEN)?;
        self.encrypt(data)?;
        Ok(data)
    }

    /// Decrypts `buf` in place and removes the padding; returns the message prefix. On a
    /// padding error the buffer is zeroed.
    pub fn decrypt_padded<'b>(
        &self,
        buf: &'b mut [u8],
        padding: Padding,
    ) -> Result<&'b mut [u8], Error> {
        self.decrypt(buf)?;
        match padding.message_len(buf, C::BLOCK_LEN) {
            Ok(n) => Ok(&mut buf[..n]),
            Err(e) => {
                zeroize::Zeroize::zeroize(buf);
                Err(e)
            }
        }
    }
}
