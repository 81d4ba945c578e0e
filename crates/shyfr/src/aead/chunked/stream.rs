//! Streaming encryption and decryption: [`Encryptor`] (an [`std::io::Write`]) and
//! [`Decryptor`] (an [`std::io::Read`]).

use std::io::{self, Read, Write};
use std::vec::Vec;

use super::{
    Cobblestone, MessageKey, CHUNK_LEN, ENCRYPTED_CHUNK_LEN, HEADER_LEN, SALT_LEN, TAG_LEN,
};
use crate::Error;

/// Chunks per batch unless set with `with_batch_chunks`: 1 MiB of message, enough for
/// the `parallel` feature to keep a few cores busy.
pub const DEFAULT_BATCH_CHUNKS: usize = 64;

/// A library error as an [`io::Error`] of kind [`io::ErrorKind::InvalidData`] that
/// carries the [`Error`] (get it back with `get_ref()` and `downcast_ref::<Error>()`).
pub(super) fn to_io(e: Error) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

/// Reads until `buf` is full or the input ends; the bytes read.
pub(super) fn read_full<R: Read + ?Sized>(r: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Encrypts a message written to it, writing the ciphertext (header first) to `W`.
///
/// Message bytes are buffered until a batch of whole chunks is complete, then sealed
/// (across cores with the `parallel` feature) and written; writes of a whole batch or
/// more that find the buffer empty are sealed straight from the caller's slice.
/// [`finish`](Self::finish) seals the rest as the final chunk (shorter than 16 KiB,
/// possibly empty) and **must** be called: without it the ciphertext ends without its
/// final chunk, and decrypting it fails as truncated. `flush` flushes `W` only (a
/// partial chunk cannot be written before the message ends).
///
/// After an error from `W` or the library, every later call fails.
pub struct Encryptor<W: Write> {
    mk: MessageKey,
    /// `Some` until `finish` takes it.
    inner: Option<W>,
    buf: Vec<u8>,
    out: Vec<u8>,
    batch: usize,
    next: u64,
    failed: bool,
}

impl<W: Write> core::fmt::Debug for Encryptor<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Encryptor")
            .field("next_chunk", &self.next)
            .field("buffered", &self.buf.len())
            .finish_non_exhaustive()
    }
}

impl<W: Write> Encryptor<W> {
    /// Starts a message under `key` and `context` with a random salt from the operating
    /// system, and writes the header to `inner`.
    #[cfg(feature = "getrandom")]
    pub fn new(key: &Cobblestone, context: &[u8], inner: W) -> io::Result<Self> {
        let salt = super::random_salt().map_err(to_io)?;
        Self::with_salt(key, &salt, context, inner)
    }

    /// As [`new`](Self::new) with a given salt, which must never repeat for `key` (see
    /// [`Cobblestone::seal_header`]).
    pub fn with_salt(
        key: &Cobblestone,
        salt: &[u8; SALT_LEN],
        context: &[u8],
        mut inner: W,
    ) -> io::Result<Self> {
        let (header, mk) = key.seal_header(salt, context).map_err(to_io)?;
        inner.write_all(&header)?;
        Ok(Encryptor {
            mk,
            inner: Some(inner),
            buf: Vec::new(),
            out: Vec::new(),
            batch: DEFAULT_BATCH_CHUNKS,
            next: 0,
            failed: false,
        })
    }

    /// Seals and writes `batch` chunks at a time (at least 1); the memory held is about
    /// twice that many chunks.
    pub fn with_batch_chunks(mut self, batch: usize) -> Self {
        self.batch = batch.max(1);
        self
    }

    /// The writer.
    pub fn get_ref(&self) -> &W {
        self.inner
            .as_ref()
            .expect("the writer is there until finish")
    }

    /// The writer, mutably (writing to it directly corrupts the ciphertext).
    pub fn get_mut(&mut self) -> &mut W {
        self.writer()
    }

    fn writer(&mut self) -> &mut W {
        self.inner
            .as_mut()
            .expect("the writer is there until finish")
    }

    /// The number of chunks sealed and written so far.
    pub fn chunks_written(&self) -> u64 {
        self.next
    }

    fn check(&self) -> io::Result<()> {
        if self.failed {
            return Err(io::Error::other(
                "chunked encryption stopped after an error",
            ));
        }
        Ok(())
    }

    /// Seals `data` (whole chunks, or the end of the message with `last`) and writes it.
    fn seal_write(&mut self, data: Option<&[u8]>, last: bool) -> io::Result<()> {
        let pt = data.unwrap_or(&self.buf);
        let n = super::sealed_chunks_len(pt.len(), last);
        self.out.resize(n, 0);
        let r = self.mk.seal_chunks(self.next, pt, last, &mut self.out);
        let chunks = (pt.len() / CHUNK_LEN + last as usize) as u64;
        if let Err(e) = r {
            self.failed = true;
            return Err(to_io(e));
        }
        if data.is_none() {
            crate::wipe::wipe(&mut self.buf);
            self.buf.clear();
        }
        let inner = self
            .inner
            .as_mut()
            .expect("the writer is there until finish");
        if let Err(e) = inner.write_all(&self.out) {
            self.failed = true;
            return Err(e);
        }
        self.next += chunks;
        Ok(())
    }

    /// Seals what is buffered as the final chunks, writes them, flushes and returns the
    /// writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.check()?;
        self.seal_write(None, true)?;
        self.writer().flush()?;
        crate::wipe::wipe(&mut self.buf);
        Ok(self.inner.take().expect("the writer is there until finish"))
    }
}

impl<W: Write> Write for Encryptor<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.check()?;
        let batch_len = self.batch * CHUNK_LEN;
        if self.buf.is_empty() && data.len() >= batch_len {
            self.seal_write(Some(&data[..batch_len]), false)?;
            return Ok(batch_len);
        }
        if self.buf.capacity() < batch_len {
            self.buf.reserve_exact(batch_len - self.buf.len());
        }
        let take = data.len().min(batch_len - self.buf.len());
        self.buf.extend_from_slice(&data[..take]);
        if self.buf.len() == batch_len {
            self.seal_write(None, false)?;
        }
        Ok(take)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.check()?;
        self.writer().flush()
    }
}

impl<W: Write> Drop for Encryptor<W> {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.buf);
    }
}

/// Where a [`Decryptor`] stands.
#[derive(Clone, Copy, Debug)]
enum State {
    /// More chunks to read.
    More,
    /// The final chunk was authenticated: the message is complete.
    End,
    /// Decryption failed; every later read returns this error.
    Failed(Error),
    /// Reading the ciphertext failed (with this kind of error); every later read fails.
    IoFailed(io::ErrorKind),
}

/// Decrypts a ciphertext read from `R`; reads give the message.
///
/// The header's commitment is checked by [`new`](Self::new), before any chunk is read.
/// Then chunks are read a batch at a time, authenticated (across cores with the `parallel`
/// feature), and only then handed out. A read returns `Ok(0)` only once the final chunk
/// has been authenticated; anything else — a chunk that fails authentication, a
/// ciphertext cut short or followed by extra data, an error from `R` — is returned as an
/// error by that read and **every later one**. The plaintext released before an error is
/// the message's first whole chunks, all authentic.
///
/// Errors from the library come as [`io::ErrorKind::InvalidData`] carrying an [`Error`]:
/// [`Error::Truncated`], [`Error::CommitmentMismatch`] or
/// [`Error::ChunkAuthenticationFailed`] (whose chunk number gives the offset).
pub struct Decryptor<R: Read> {
    mk: MessageKey,
    inner: R,
    ct: Vec<u8>,
    pt: Vec<u8>,
    pos: usize,
    next: u64,
    batch: usize,
    state: State,
    /// The reader's error, returned once (later reads get one of the same kind).
    io_error: Option<io::Error>,
    /// The index of the final chunk, once the end of the input has been read.
    final_chunk: Option<u64>,
}

impl<R: Read> core::fmt::Debug for Decryptor<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Decryptor")
            .field("next_chunk", &self.next)
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

impl<R: Read> Decryptor<R> {
    /// Reads the header from `inner` and checks its commitment against `key` and
    /// `context`: [`Error::CommitmentMismatch`] for a wrong key or context,
    /// [`Error::Truncated`] for an input shorter than the header (both as
    /// [`io::ErrorKind::InvalidData`]).
    pub fn new(key: &Cobblestone, context: &[u8], mut inner: R) -> io::Result<Self> {
        let mut header = [0u8; HEADER_LEN];
        if read_full(&mut inner, &mut header)? < HEADER_LEN {
            return Err(to_io(Error::Truncated));
        }
        let mk = key.open_header(&header, context).map_err(to_io)?;
        Ok(Decryptor {
            mk,
            inner,
            ct: Vec::new(),
            pt: Vec::new(),
            pos: 0,
            next: 0,
            batch: DEFAULT_BATCH_CHUNKS,
            state: State::More,
            io_error: None,
            final_chunk: None,
        })
    }

    /// Reads and authenticates `batch` chunks at a time (at least 1).
    pub fn with_batch_chunks(mut self, batch: usize) -> Self {
        self.batch = batch.max(1);
        self
    }

    /// The reader.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The number of chunks authenticated so far.
    pub fn chunks_authenticated(&self) -> u64 {
        self.next
    }

    /// The number the final chunk has (the chunk the input ends in, or after, when it ends
    /// on a chunk boundary), once the end of the input has been read: a
    /// [`Error::ChunkAuthenticationFailed`] for that chunk may be a ciphertext cut short.
    pub fn final_chunk(&self) -> Option<u64> {
        self.final_chunk
    }

    /// Whether the final chunk has been authenticated (the whole message was read or is
    /// buffered).
    pub fn is_complete(&self) -> bool {
        matches!(self.state, State::End)
    }

    /// Reads the next batch and decrypts it into `dst` (at least a batch of chunks
    /// long); the plaintext bytes written. On a failure the authentic prefix is kept,
    /// the rest of `dst` is zero and the state records the error.
    fn refill(&mut self, dst: Option<&mut [u8]>) -> usize {
        let want = self.batch * ENCRYPTED_CHUNK_LEN;
        self.ct.resize(want, 0);
        let n = match read_full(&mut self.inner, &mut self.ct) {
            Ok(n) => n,
            Err(e) => {
                self.state = State::IoFailed(e.kind());
                self.io_error = Some(e);
                return 0;
            }
        };
        let eof = n < want;
        let full = n / ENCRYPTED_CHUNK_LEN;
        let rest = n % ENCRYPTED_CHUNK_LEN;
        if eof {
            self.final_chunk = Some(self.next + full as u64);
        }
        let final_len = if eof && rest >= TAG_LEN {
            rest - TAG_LEN
        } else {
            0
        };
        let dst = match dst {
            Some(d) => d,
            None => {
                self.pt.resize(full * CHUNK_LEN + final_len, 0);
                self.pos = 0;
                &mut self.pt[..]
            }
        };
        let (body, fin) = dst.split_at_mut(full * CHUNK_LEN);
        if let Err(e) = self.mk.open_chunks(
            self.next,
            &self.ct[..full * ENCRYPTED_CHUNK_LEN],
            false,
            body,
        ) {
            self.state = State::Failed(e);
            return match e {
                Error::ChunkAuthenticationFailed { chunk } => {
                    (chunk - self.next) as usize * CHUNK_LEN
                }
                _ => 0,
            };
        }
        self.next += full as u64;
        let mut released = full * CHUNK_LEN;
        if eof {
            if rest < TAG_LEN {
                self.state = State::Failed(Error::Truncated);
            } else {
                match self.mk.open_chunk(
                    self.next,
                    &self.ct[full * ENCRYPTED_CHUNK_LEN..n],
                    &mut fin[..final_len],
                ) {
                    Ok(()) => {
                        self.next += 1;
                        released += final_len;
                        self.state = State::End;
                    }
                    Err(e) => self.state = State::Failed(e),
                }
            }
        }
        released
    }

    fn error(&mut self) -> Option<io::Error> {
        if let Some(e) = self.io_error.take() {
            return Some(e);
        }
        match self.state {
            State::Failed(e) => Some(to_io(e)),
            State::IoFailed(kind) => Some(io::Error::new(
                kind,
                "reading the chunked ciphertext failed",
            )),
            _ => None,
        }
    }
}

impl<R: Read> Read for Decryptor<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if self.pos < self.pt.len() {
                let n = buf.len().min(self.pt.len() - self.pos);
                buf[..n].copy_from_slice(&self.pt[self.pos..self.pos + n]);
                self.pos += n;
                if self.pos == self.pt.len() {
                    crate::wipe::wipe(&mut self.pt);
                    self.pt.clear();
                    self.pos = 0;
                }
                return Ok(n);
            }
            match self.state {
                State::End => return Ok(0),
                State::More => {}
                _ => return Err(self.error().expect("a failed state")),
            }
            // A caller's buffer that holds a whole batch gets the plaintext directly.
            if buf.len() >= self.batch * CHUNK_LEN {
                let n = self.refill(Some(buf));
                if n > 0 {
                    return Ok(n);
                }
            } else {
                // Only the authentic prefix is handed out.
                let n = self.refill(None);
                self.pt.truncate(n);
            }
        }
    }
}

impl<R: Read> Drop for Decryptor<R> {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.pt);
    }
}
