//! CBC (NIST SP 800-38A, 6.2), with optional padding ([`Padding`]) and streaming.
//!
//! * One shot: [`Cbc`], in place or buffer to buffer, with or without padding.
//! * Streaming: [`CbcEncryptor`] / [`CbcDecryptor`]. `update_to` takes any number of bytes
//!   and writes the whole blocks it can (a padded decryptor holds the last block back for
//!   `finalize_to`); `update` works in place on whole blocks, and `finalize` pads (or
//!   unpads) the last in-place chunk. Chunked results equal one-shot results.
//!
//! Encryption is serial (each block needs the previous ciphertext); decryption is parallel
//! and, with the `parallel` feature, split across threads on large buffers.
//!
//! ```
//! use shyfr::mode::cbc::Cbc;
//! use shyfr::pad::Padding;
//! use shyfr::Aes128;
//! let cbc = Cbc::new(Aes128::new(&[1; 16]));
//! let iv = [2u8; 16];
//! let mut buf = [0u8; 32];
//! buf[..20].copy_from_slice(b"twenty bytes of text");
//! let ct = cbc.encrypt_padded(&iv, &mut buf, 20, Padding::Pkcs7).unwrap().to_vec();
//! let mut dec = cbc.decryptor(&iv, Padding::Pkcs7).unwrap();
//! let mut out = [0u8; 32];
//! let mut n = dec.update_to(&ct[..7], &mut out).unwrap();
//! n += dec.update_to(&ct[7..], &mut out[n..]).unwrap();
//! n += dec.finalize_to(&mut out[n..]).unwrap();
//! assert_eq!(&out[..n], b"twenty bytes of text");
//! ```

use super::{check_cipher, load_iv, pieces, run_pieces_with, BlockModes, Buf};
use crate::block::{check_whole_blocks, InOutBuf, MAX_BLOCK_LEN};
use crate::pad::Padding;
use crate::Error;

/// CBC with a fixed key; the IV is given per message.
#[derive(Clone, Debug)]
pub struct Cbc<C> {
    cipher: C,
}

/// CBC decryption of whole blocks, split across threads when large.
fn decrypt_blocks<C: BlockModes + Sync>(
    c: &C,
    iv: &mut [u8],
    data: InOutBuf<'_>,
) -> Result<(), Error> {
    let b = C::BLOCK_LEN;
    let n = pieces(data.len());
    if n <= 1 || data.is_empty() {
        return c.cbc_decrypt_blocks(iv, data);
    }
    check_whole_blocks(data.len(), b)?;
    let mut last: Buf = [0; MAX_BLOCK_LEN];
    last[..b].copy_from_slice(&data.input()[data.len() - b..]);
    let mut first: Buf = [0; MAX_BLOCK_LEN];
    first[..b].copy_from_slice(iv);
    run_pieces_with(
        data,
        b,
        n,
        first,
        &|d: &InOutBuf<'_>, at| {
            let mut s: Buf = [0; MAX_BLOCK_LEN];
            s[..b].copy_from_slice(&d.input()[at - b..at]);
            s
        },
        &|_, mut s: Buf, p| c.cbc_decrypt_blocks(&mut s[..b], p),
    )?;
    iv.copy_from_slice(&last[..b]);
    Ok(())
}

impl<C: BlockModes + Sync> Cbc<C> {
    /// IV length in bytes: one block.
    pub const IV_LEN: usize = C::BLOCK_LEN;

    /// Wraps a keyed cipher.
    pub fn new(cipher: C) -> Self {
        Cbc { cipher }
    }

    /// The cipher.
    pub fn cipher(&self) -> &C {
        &self.cipher
    }

    fn enc(&self, iv: &[u8], data: InOutBuf<'_>) -> Result<(), Error> {
        let mut v = load_iv::<C>(iv)?;
        self.cipher.cbc_encrypt_blocks(&mut v[..C::BLOCK_LEN], data)
    }

    fn dec(&self, iv: &[u8], data: InOutBuf<'_>) -> Result<(), Error> {
        let mut v = load_iv::<C>(iv)?;
        check_whole_blocks(data.len(), C::BLOCK_LEN)?;
        decrypt_blocks(&self.cipher, &mut v[..C::BLOCK_LEN], data)
    }

    /// Encrypts whole blocks in place.
    pub fn encrypt(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        self.enc(iv, InOutBuf::in_place(buf))
    }

    /// Encrypts whole blocks from `input` to `output` (same length).
    pub fn encrypt_to(&self, iv: &[u8], input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.enc(iv, InOutBuf::new(input, output)?)
    }

    /// Decrypts whole blocks in place.
    pub fn decrypt(&self, iv: &[u8], buf: &mut [u8]) -> Result<(), Error> {
        self.dec(iv, InOutBuf::in_place(buf))
    }

    /// Decrypts whole blocks from `input` to `output` (same length).
    pub fn decrypt_to(&self, iv: &[u8], input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.dec(iv, InOutBuf::new(input, output)?)
    }

    /// Pads the first `msg_len` bytes of `buf` (which has room: see
    /// [`crate::pad::padded_len`]) and encrypts in place; returns the ciphertext prefix.
    pub fn encrypt_padded<'b>(
        &self,
        iv: &[u8],
        buf: &'b mut [u8],
        msg_len: usize,
        padding: Padding,
    ) -> Result<&'b mut [u8], Error> {
        load_iv::<C>(iv)?;
        let data = padding.pad(buf, msg_len, C::BLOCK_LEN)?;
        self.encrypt(iv, data)?;
        Ok(data)
    }

    /// Decrypts `buf` in place and removes the padding; returns the message prefix. On a
    /// padding error the buffer is zeroed and the error is [`Error::BadPadding`].
    pub fn decrypt_padded<'b>(
        &self,
        iv: &[u8],
        buf: &'b mut [u8],
        padding: Padding,
    ) -> Result<&'b mut [u8], Error> {
        self.decrypt(iv, buf)?;
        unpad_or_wipe(buf, C::BLOCK_LEN, padding)
    }

    /// Pads `msg` and encrypts it into `output` (at least the padded length); returns the
    /// ciphertext length.
    pub fn encrypt_padded_to(
        &self,
        iv: &[u8],
        msg: &[u8],
        output: &mut [u8],
        padding: Padding,
    ) -> Result<usize, Error> {
        let mut e = self.encryptor(iv, padding)?;
        let need = padding.padded_len(msg.len(), C::BLOCK_LEN);
        if output.len() < need {
            return Err(Error::TooShort {
                what: "cbc output buffer",
            });
        }
        let n = e.update_to(msg, output)?;
        Ok(n + e.finalize_to(&mut output[n..])?)
    }

    /// Decrypts `ct` into `output` (at least `ct.len()` bytes) and removes the padding;
    /// returns the message length. On a padding error `output` is zeroed.
    pub fn decrypt_padded_to(
        &self,
        iv: &[u8],
        ct: &[u8],
        output: &mut [u8],
        padding: Padding,
    ) -> Result<usize, Error> {
        if output.len() < ct.len() {
            return Err(Error::TooShort {
                what: "cbc output buffer",
            });
        }
        let out = &mut output[..ct.len()];
        self.decrypt_to(iv, ct, out)?;
        Ok(unpad_or_wipe(out, C::BLOCK_LEN, padding)?.len())
    }

    /// A streaming encryptor for one message, borrowing the key.
    pub fn encryptor(&self, iv: &[u8], padding: Padding) -> Result<CbcEncryptor<&C>, Error> {
        CbcEncryptor::new(&self.cipher, iv, padding)
    }

    /// A streaming decryptor for one message, borrowing the key.
    pub fn decryptor(&self, iv: &[u8], padding: Padding) -> Result<CbcDecryptor<&C>, Error> {
        CbcDecryptor::new(&self.cipher, iv, padding)
    }
}

/// The message prefix of decrypted `buf`, or the padding error with `buf` zeroed.
fn unpad_or_wipe(buf: &mut [u8], block: usize, padding: Padding) -> Result<&mut [u8], Error> {
    match padding.message_len(buf, block) {
        Ok(n) => Ok(&mut buf[..n]),
        Err(e) => {
            crate::wipe::wipe(buf);
            Err(e)
        }
    }
}

/// The buffered part of a streaming CBC call: at most one block.
struct Pending {
    buf: Buf,
    len: usize,
}

impl Pending {
    const EMPTY: Pending = Pending {
        buf: [0; MAX_BLOCK_LEN],
        len: 0,
    };

    /// Feeds `input` through: writes to `output` every whole block except the last `keep`
    /// bytes of pending + input, which stay buffered. `process` en/decrypts whole blocks.
    fn feed(
        &mut self,
        b: usize,
        input: &[u8],
        output: &mut [u8],
        keep: usize,
        mut process: impl FnMut(InOutBuf<'_>) -> Result<(), Error>,
    ) -> Result<usize, Error> {
        let total = self.len + input.len();
        let out_len = total - keep;
        if output.len() < out_len {
            return Err(Error::TooShort {
                what: "cbc output buffer",
            });
        }
        let (mut i, mut o) = (0, 0);
        if self.len > 0 && out_len > 0 {
            i = b - self.len;
            self.buf[self.len..b].copy_from_slice(&input[..i]);
            process(InOutBuf::new(&self.buf[..b], &mut output[..b])?)?;
            self.len = 0;
            o = b;
        }
        let m = out_len - o;
        process(InOutBuf::new(&input[i..i + m], &mut output[o..o + m])?)?;
        let rest = &input[i + m..];
        self.buf[self.len..self.len + rest.len()].copy_from_slice(rest);
        self.len += rest.len();
        Ok(out_len)
    }
}

fn pending_error() -> Error {
    Error::InvalidParameter {
        what: "cbc stream has buffered bytes; use update_to",
    }
}

/// Streaming CBC of one message, encrypting (`DEC = false`, [`CbcEncryptor`]) or
/// decrypting (`DEC = true`, [`CbcDecryptor`]).
pub struct CbcStream<C: BlockModes, const DEC: bool> {
    cipher: C,
    iv: Buf,
    pending: Pending,
    padding: Padding,
}

/// Streaming CBC encryption of one message.
pub type CbcEncryptor<C> = CbcStream<C, false>;

/// Streaming CBC decryption of one message.
pub type CbcDecryptor<C> = CbcStream<C, true>;

impl<C: BlockModes, const DEC: bool> CbcStream<C, DEC> {
    /// Starts a message with a one-block `iv`; `padding` is applied (encrypting) or
    /// removed (decrypting) by `finalize`.
    pub fn new(cipher: C, iv: &[u8], padding: Padding) -> Result<Self, Error> {
        check_cipher::<C>()?;
        Ok(CbcStream {
            iv: load_iv::<C>(iv)?,
            cipher,
            pending: Pending::EMPTY,
            padding,
        })
    }

    /// `Err` if `update_to` left a partial block buffered (then only `update_to` may go on).
    fn check_nothing_pending(&self) -> Result<(), Error> {
        match self.pending.len {
            0 => Ok(()),
            _ => Err(pending_error()),
        }
    }
}

impl<C: BlockModes, const DEC: bool> Drop for CbcStream<C, DEC> {
    fn drop(&mut self) {
        // Buffered plaintext (encrypting) or ciphertext; the IV is not secret.
        crate::wipe::wipe(&mut self.pending.buf[..C::BLOCK_LEN]);
    }
}

impl<C: BlockModes> CbcEncryptor<C> {
    /// Encrypts whole blocks in place. [`Error::InvalidParameter`] if `update_to` left a
    /// partial block buffered.
    pub fn update(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        self.check_nothing_pending()?;
        self.cipher
            .cbc_encrypt_blocks(&mut self.iv[..C::BLOCK_LEN], InOutBuf::in_place(buf))
    }

    /// Encrypts any number of bytes: writes every whole block available (buffering the
    /// rest) to `output`, which must hold them; returns how many bytes were written.
    pub fn update_to(&mut self, input: &[u8], output: &mut [u8]) -> Result<usize, Error> {
        let b = C::BLOCK_LEN;
        let keep = (self.pending.len + input.len()) % b;
        let (cipher, iv) = (&self.cipher, &mut self.iv[..b]);
        self.pending
            .feed(b, input, output, keep, |d| cipher.cbc_encrypt_blocks(iv, d))
    }

    /// Pads the first `msg_len` bytes of the last chunk `buf` (which has room for the
    /// padding) and encrypts them in place; returns the ciphertext prefix.
    pub fn finalize(mut self, buf: &mut [u8], msg_len: usize) -> Result<&mut [u8], Error> {
        self.check_nothing_pending()?;
        let data = self.padding.pad(buf, msg_len, C::BLOCK_LEN)?;
        self.cipher
            .cbc_encrypt_blocks(&mut self.iv[..C::BLOCK_LEN], InOutBuf::in_place(data))?;
        Ok(data)
    }

    /// Pads what `update_to` buffered and writes the last block(s) to `output`; returns
    /// the number of bytes written. Without padding, buffered bytes are
    /// [`Error::NotWholeBlocks`].
    pub fn finalize_to(mut self, output: &mut [u8]) -> Result<usize, Error> {
        let b = C::BLOCK_LEN;
        let len = self.pending.len;
        let data = self.padding.pad(&mut self.pending.buf, len, b)?;
        let n = data.len();
        if output.len() < n {
            return Err(Error::TooShort {
                what: "cbc output buffer",
            });
        }
        self.cipher
            .cbc_encrypt_blocks(&mut self.iv[..b], InOutBuf::new(data, &mut output[..n])?)?;
        Ok(n)
    }
}

impl<C: BlockModes + Sync> CbcDecryptor<C> {
    /// Decrypts whole blocks in place (not the last chunk of a padded message: that goes
    /// to [`finalize`](Self::finalize)).
    pub fn update(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        self.check_nothing_pending()?;
        check_whole_blocks(buf.len(), C::BLOCK_LEN)?;
        decrypt_blocks(
            &self.cipher,
            &mut self.iv[..C::BLOCK_LEN],
            InOutBuf::in_place(buf),
        )
    }

    /// Decrypts any number of bytes: writes every whole block available to `output`
    /// (which must hold them), except that with padding the last block is held back for
    /// [`finalize_to`](Self::finalize_to). Returns how many bytes were written.
    pub fn update_to(&mut self, input: &[u8], output: &mut [u8]) -> Result<usize, Error> {
        let b = C::BLOCK_LEN;
        let total = self.pending.len + input.len();
        let keep = match (self.padding, total % b) {
            (Padding::None, r) => r,
            (_, 0) if total > 0 => b,
            (_, r) => r,
        };
        let (cipher, iv) = (&self.cipher, &mut self.iv[..b]);
        self.pending
            .feed(b, input, output, keep, |d| decrypt_blocks(cipher, iv, d))
    }

    /// Decrypts the last chunk `buf` (whole blocks) in place and removes the padding;
    /// returns the message prefix. On a padding error `buf` is zeroed.
    pub fn finalize(mut self, buf: &mut [u8]) -> Result<&mut [u8], Error> {
        self.check_nothing_pending()?;
        check_whole_blocks(buf.len(), C::BLOCK_LEN)?;
        decrypt_blocks(
            &self.cipher,
            &mut self.iv[..C::BLOCK_LEN],
            InOutBuf::in_place(buf),
        )?;
        unpad_or_wipe(buf, C::BLOCK_LEN, self.padding)
    }

    /// Decrypts the block `update_to` held back, removes the padding and writes the rest
    /// of the message to `output`; returns its length. Buffered bytes that are not a whole
    /// block are [`Error::NotWholeBlocks`]; a bad padding is [`Error::BadPadding`].
    pub fn finalize_to(mut self, output: &mut [u8]) -> Result<usize, Error> {
        let b = C::BLOCK_LEN;
        let len = self.pending.len;
        if self.padding == Padding::None || len != b {
            if len == 0 && self.padding != Padding::None {
                return Err(Error::BadPadding);
            }
            if len != 0 {
                return Err(Error::NotWholeBlocks { len, block: b });
            }
            return Ok(0);
        }
        let mut blk: Buf = [0; MAX_BLOCK_LEN];
        self.cipher.cbc_decrypt_blocks(
            &mut self.iv[..b],
            InOutBuf::new(&self.pending.buf[..b], &mut blk[..b])?,
        )?;
        let r = self.padding.message_len(&blk[..b], b);
        let out = match r {
            Ok(n) if output.len() >= n => {
                output[..n].copy_from_slice(&blk[..n]);
                Ok(n)
            }
            Ok(_) => Err(Error::TooShort {
                what: "cbc output buffer",
            }),
            Err(e) => Err(e),
        };
        crate::wipe::wipe(&mut blk[..b]);
        out
    }
}
