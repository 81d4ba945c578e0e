//! Block ciphers: one folder per cipher, one file per backend.

pub mod aes;

use crate::Error;

/// A block cipher with a fixed key: the interface the modes of operation are written against.
///
/// The multi-block calls are the ones backends make fast; they take whole blocks only and
/// return [`Error::NotWholeBlocks`] otherwise.
pub trait BlockCipher {
    /// Block length in bytes.
    const BLOCK_LEN: usize;

    /// Encrypts whole blocks in place.
    fn encrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error>;
    /// Decrypts whole blocks in place.
    fn decrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error>;
    /// Encrypts whole blocks from `input` into `output` (same length).
    fn encrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error>;
    /// Decrypts whole blocks from `input` into `output` (same length).
    fn decrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error>;
}

/// `Ok` when `len` is a whole number of `block`-byte blocks.
#[inline]
pub(crate) fn check_whole_blocks(len: usize, block: usize) -> Result<(), Error> {
    if len.is_multiple_of(block) {
        Ok(())
    } else {
        Err(Error::NotWholeBlocks { len, block })
    }
}
