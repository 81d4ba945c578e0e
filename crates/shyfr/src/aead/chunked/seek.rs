//! Random-access decryption: [`SeekingDecryptor`], an [`std::io::Read`] +
//! [`std::io::Seek`] over the message of a ciphertext in a seekable store.

use std::io::{self, Read, Seek, SeekFrom};
use std::vec::Vec;

use super::stream::{read_full, to_io};
use super::{
    Cobblestone, MessageKey, CHUNK_LEN, ENCRYPTED_CHUNK_LEN, HEADER_LEN, MAX_CHUNKS, TAG_LEN,
};
use crate::Error;

/// Decrypts any range of a ciphertext held in a seekable store (a file), one chunk at a
/// time: plaintext index `i` is byte `i % 16384` of chunk `i / 16384`, which starts at
/// `56 + (i / 16384) * 16400` in the ciphertext.
///
/// * The commitment is checked by [`new`](Self::new), before any chunk is read.
/// * A read decrypts the chunk under the position and returns its bytes only once that
///   chunk is authenticated; a chunk that fails is an error (chunks elsewhere may still be
///   read).
/// * The message length is trusted only after the final chunk has been authenticated:
///   [`len`](Self::len), a seek relative to the end, and a read that reaches the end all
///   authenticate it first (a read at or past the end returns `Ok(0)` only then). The
///   final chunk is at the position the store's length gives, so a ciphertext cut short
///   or extended fails there.
///
/// The ciphertext is taken to run from `inner`'s position when `new` is called to the
/// end of `inner`.
pub struct SeekingDecryptor<R: Read + Seek> {
    mk: MessageKey,
    inner: R,
    /// Offset in `inner` of chunk 0.
    start: u64,
    /// Whole encrypted chunks before the final one, by the store's length.
    full: u64,
    /// Length of the final encrypted chunk, by the store's length (may be invalid: < 16).
    rest: usize,
    /// Plaintext position.
    pos: u64,
    /// Plaintext of the chunk `cached` (authenticated).
    cache: Vec<u8>,
    cached: Option<u64>,
    ct: Vec<u8>,
    /// The final chunk has been authenticated: the length is known.
    len_known: bool,
}

impl<R: Read + Seek> core::fmt::Debug for SeekingDecryptor<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SeekingDecryptor")
            .field("position", &self.pos)
            .field("len_known", &self.len_known)
            .finish_non_exhaustive()
    }
}

impl<R: Read + Seek> SeekingDecryptor<R> {
    /// Reads the header at `inner`'s position and checks its commitment against `key`
    /// and `context` ([`Error::CommitmentMismatch`]); [`Error::Truncated`] if the store
    /// is shorter than the header.
    pub fn new(key: &Cobblestone, context: &[u8], mut inner: R) -> io::Result<Self> {
        let base = inner.stream_position()?;
        let end = inner.seek(SeekFrom::End(0))?;
        if end < base || end - base < HEADER_LEN as u64 {
            return Err(to_io(Error::Truncated));
        }
        inner.seek(SeekFrom::Start(base))?;
        let mut header = [0u8; HEADER_LEN];
        if read_full(&mut inner, &mut header)? < HEADER_LEN {
            return Err(to_io(Error::Truncated));
        }
        let mk = key.open_header(&header, context).map_err(to_io)?;
        let body = end - base - HEADER_LEN as u64;
        Ok(SeekingDecryptor {
            mk,
            inner,
            start: base + HEADER_LEN as u64,
            full: body / ENCRYPTED_CHUNK_LEN as u64,
            rest: (body % ENCRYPTED_CHUNK_LEN as u64) as usize,
            pos: 0,
            cache: Vec::new(),
            cached: None,
            ct: Vec::new(),
            len_known: false,
        })
    }

    /// The message length, after authenticating the final chunk: [`Error::Truncated`] if
    /// the store's length cannot be that of a ciphertext, or the final chunk's
    /// authentication error.
    pub fn len(&mut self) -> io::Result<u64> {
        if !self.len_known {
            self.load(self.full)?;
        }
        Ok(self.claimed_len())
    }

    /// Whether the message is empty (after authenticating the final chunk, as
    /// [`len`](Self::len)).
    pub fn is_empty(&mut self) -> io::Result<bool> {
        Ok(self.len()? == 0)
    }

    /// The reader.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The length the store's size implies (valid once the final chunk authenticated).
    fn claimed_len(&self) -> u64 {
        self.full * CHUNK_LEN as u64 + self.rest.saturating_sub(TAG_LEN) as u64
    }

    /// Decrypts chunk `k` into the cache.
    fn load(&mut self, k: u64) -> io::Result<()> {
        if self.cached == Some(k) {
            return Ok(());
        }
        self.cached = None;
        crate::wipe::wipe(&mut self.cache);
        let ct_len = if k < self.full {
            ENCRYPTED_CHUNK_LEN
        } else if k == self.full && self.rest >= TAG_LEN {
            self.rest
        } else {
            // Past the end, or a final chunk too short to hold a tag.
            return Err(to_io(Error::Truncated));
        };
        if k >= MAX_CHUNKS {
            return Err(to_io(Error::TooLong {
                what: "chunked message (at most 2^38 chunks)",
            }));
        }
        self.inner
            .seek(SeekFrom::Start(self.start + k * ENCRYPTED_CHUNK_LEN as u64))?;
        self.ct.resize(ct_len, 0);
        if read_full(&mut self.inner, &mut self.ct)? < ct_len {
            // The store shrank under us.
            return Err(to_io(Error::Truncated));
        }
        self.cache.resize(ct_len - TAG_LEN, 0);
        self.mk
            .open_chunk(k, &self.ct, &mut self.cache)
            .map_err(to_io)?;
        self.cached = Some(k);
        if k == self.full {
            self.len_known = true;
        }
        Ok(())
    }
}

impl<R: Read + Seek> Read for SeekingDecryptor<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        let k = self.pos / CHUNK_LEN as u64;
        let off = (self.pos % CHUNK_LEN as u64) as usize;
        if k >= self.full {
            // In the final chunk or past it: the end must be authentic.
            self.len()?;
            if self.pos >= self.claimed_len() {
                return Ok(0);
            }
        }
        self.load(k)?;
        let n = buf.len().min(self.cache.len() - off);
        buf[..n].copy_from_slice(&self.cache[off..off + n]);
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: Read + Seek> Seek for SeekingDecryptor<R> {
    /// Moves the plaintext position; [`SeekFrom::End`] authenticates the final chunk
    /// first. Positions past the end are allowed (reads there return `Ok(0)` once the end
    /// is authenticated).
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let bad = || {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "seek before the start or overflowing",
            )
        };
        let new = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
            SeekFrom::End(d) => self.len()?.checked_add_signed(d),
        };
        self.pos = new.ok_or_else(bad)?;
        Ok(self.pos)
    }
}

impl<R: Read + Seek> Drop for SeekingDecryptor<R> {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.cache);
    }
}
