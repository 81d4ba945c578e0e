//! The streaming loops of `shyfr encrypt` / `decrypt`: one thread reads batches of the
//! input, the calling thread seals or opens them (the library spreads each batch over the
//! rayon pool it runs in), one thread writes; buffers go round in channels, so reading,
//! the AEAD and writing overlap and no batch is copied between the stages.
//!
//! The framing is Cobblestone's (see `shyfr::aead::chunked`): every batch but the last
//! is whole chunks; the batch that ends the input (shorter than a full batch, possibly
//! empty) ends with the final, short chunk. Decryption hands the writer only chunks that
//! authenticated; on a failure it hands over the authentic chunks before the bad one and
//! stops.

use std::fs::File;
use std::io::{self, Read, Write};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use shyfr::aead::chunked::{
    sealed_chunks_len, MessageKey, CHUNK_LEN, ENCRYPTED_CHUNK_LEN, TAG_LEN,
};
use shyfr::Error;
use zeroize::Zeroizing;

/// A batch buffer: wiped when dropped (not between batches, where it is overwritten).
type Buf = Zeroizing<Vec<u8>>;

/// Batches in flight between two stages.
const DEPTH: usize = 2;

/// Where the time went.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timings {
    /// Message bytes processed.
    pub bytes: u64,
    /// Sealing or opening (the AEAD), on the calling thread and the pool.
    pub crypto: Duration,
    /// Waiting for the reader.
    pub input_wait: Duration,
    /// Waiting for the writer.
    pub output_wait: Duration,
}

/// Why a stream stopped.
#[derive(Debug)]
pub enum StreamError {
    /// Reading the input failed.
    Read(io::Error),
    /// Writing the output failed.
    Write(io::Error),
    /// The library refused (a chunk failed authentication, the ciphertext is truncated...);
    /// with the index of the final chunk when the end of the input had been read.
    Crypto(Error, Option<u64>),
}

/// Reads `file` in batches of `cap` bytes on its own thread (detached: on an early stop
/// the process does not wait for a read that may never return).
struct Reader {
    full: Receiver<io::Result<Buf>>,
    free: Sender<Buf>,
}

impl Reader {
    fn start(mut file: File, cap: usize) -> Reader {
        let (full_tx, full) = sync_channel::<io::Result<Buf>>(DEPTH);
        let (free, free_rx) = channel::<Buf>();
        std::thread::spawn(move || loop {
            let mut b = free_rx.try_recv().unwrap_or_default();
            b.resize(cap, 0);
            let r = read_full(&mut file, &mut b).map(|n| {
                b.truncate(n);
                b
            });
            let end = !matches!(&r, Ok(b) if b.len() == cap);
            if full_tx.send(r).is_err() || end {
                return;
            }
        });
        Reader { full, free }
    }

    /// The next batch (shorter than `cap` at the end of the input), and the time waited.
    fn next(&self, waited: &mut Duration) -> Result<Buf, StreamError> {
        let t = Instant::now();
        let r = self.full.recv();
        *waited += t.elapsed();
        match r {
            Ok(Ok(b)) => Ok(b),
            Ok(Err(e)) => Err(StreamError::Read(e)),
            Err(_) => Err(StreamError::Read(io::Error::other(
                "the reading thread stopped",
            ))),
        }
    }

    fn recycle(&self, b: Buf) {
        let _ = self.free.send(b);
    }
}

/// Writes batches to `W` on its own thread; gives `W` back at the end.
struct Writer<W: Write + Send + 'static> {
    tx: Option<SyncSender<Buf>>,
    done: Receiver<Buf>,
    handle: Option<JoinHandle<(W, io::Result<()>)>>,
}

impl<W: Write + Send + 'static> Writer<W> {
    fn start(mut w: W) -> Self {
        let (tx, rx) = sync_channel::<Buf>(DEPTH);
        let (done_tx, done) = channel::<Buf>();
        let handle = std::thread::spawn(move || {
            for b in rx {
                if let Err(e) = w.write_all(&b) {
                    return (w, Err(e));
                }
                let _ = done_tx.send(b);
            }
            let r = w.flush();
            (w, r)
        });
        Writer {
            tx: Some(tx),
            done,
            handle: Some(handle),
        }
    }

    /// A buffer for the next batch (one the writer is done with, or a new one).
    fn buffer(&self) -> Buf {
        self.done.try_recv().unwrap_or_default()
    }

    /// Hands `b` to the writer; an error if the writer stopped (its error comes from
    /// `finish`).
    fn send(&mut self, b: Buf, waited: &mut Duration) -> Result<(), ()> {
        let t = Instant::now();
        let r = self
            .tx
            .as_ref()
            .map_or(Err(()), |tx| tx.send(b).map_err(|_| ()));
        *waited += t.elapsed();
        r
    }

    /// Waits for the writes to finish: `W` and how writing went.
    fn finish(mut self) -> (W, io::Result<()>) {
        self.tx = None;
        let h = self.handle.take().expect("joined once");
        match h.join() {
            Ok(r) => r,
            Err(p) => std::panic::resume_unwind(p),
        }
    }
}

/// Reads until `buf` is full or the input ends.
pub fn read_full(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
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

/// Ends a stream: joins the writer and picks the error to report (the stream's own, else
/// the writer's). Gives `W` back in every case.
fn end<W: Write + Send + 'static>(
    writer: Writer<W>,
    r: Result<Timings, StreamError>,
) -> (W, Result<Timings, StreamError>) {
    let (w, wr) = writer.finish();
    let r = match (r, wr) {
        (Err(StreamError::Write(_)), Err(e)) => Err(StreamError::Write(e)),
        (Err(e), _) => Err(e),
        (Ok(_), Err(e)) => Err(StreamError::Write(e)),
        (Ok(t), Ok(())) => Ok(t),
    };
    (w, r)
}

fn writer_gone() -> StreamError {
    StreamError::Write(io::Error::other("the writing thread stopped"))
}

/// Seals `input` (from its current position) as chunks 0, 1, ... with `mk`, writing the
/// ciphertext to `out`, `batch` chunks at a time. `progress` is called with the message
/// bytes of each batch.
pub fn seal<W: Write + Send + 'static>(
    mk: &MessageKey,
    input: File,
    out: W,
    batch: usize,
    progress: &dyn Fn(u64),
) -> (W, Result<Timings, StreamError>) {
    let cap = batch * CHUNK_LEN;
    let reader = Reader::start(input, cap);
    let mut writer = Writer::start(out);
    let mut t = Timings::default();
    let r = (|| {
        let mut next = 0u64;
        loop {
            let pt = reader.next(&mut t.input_wait)?;
            let last = pt.len() < cap;
            let mut ct = writer.buffer();
            ct.resize(sealed_chunks_len(pt.len(), last), 0);
            let c = Instant::now();
            mk.seal_chunks(next, &pt, last, &mut ct)
                .map_err(|e| StreamError::Crypto(e, None))?;
            t.crypto += c.elapsed();
            next += (pt.len() / CHUNK_LEN) as u64;
            t.bytes += pt.len() as u64;
            progress(pt.len() as u64);
            writer
                .send(ct, &mut t.output_wait)
                .map_err(|()| writer_gone())?;
            reader.recycle(pt);
            if last {
                return Ok(t);
            }
        }
    })();
    end(writer, r)
}

/// Opens the chunks read from `input` (its position: chunk 0) with `mk`, writing the
/// authenticated plaintext to `out`, `batch` chunks at a time. `first` is called with the
/// first plaintext batch before it is written (to refuse binary data on a terminal);
/// `progress` with the ciphertext bytes of each batch.
pub fn open<W: Write + Send + 'static>(
    mk: &MessageKey,
    input: File,
    out: W,
    batch: usize,
    first: &dyn Fn(&[u8]) -> Result<(), String>,
    progress: &dyn Fn(u64),
) -> (W, Result<Timings, StreamError>, Option<String>) {
    let cap = batch * ENCRYPTED_CHUNK_LEN;
    let reader = Reader::start(input, cap);
    let mut writer = Writer::start(out);
    let mut t = Timings::default();
    let mut refused = None;
    let r = (|| {
        let mut next = 0u64;
        loop {
            let ct = reader.next(&mut t.input_wait)?;
            let last = ct.len() < cap;
            let full = ct.len() / ENCRYPTED_CHUNK_LEN;
            let rest = ct.len() % ENCRYPTED_CHUNK_LEN;
            let final_chunk = last.then_some(next + full as u64);
            let final_len = if last && rest >= TAG_LEN {
                rest - TAG_LEN
            } else {
                0
            };
            let mut pt = writer.buffer();
            pt.resize(full * CHUNK_LEN + final_len, 0);
            let c = Instant::now();
            // The whole chunks, then (at the end) the final one.
            let mut r = mk.open_chunks(
                next,
                &ct[..full * ENCRYPTED_CHUNK_LEN],
                false,
                &mut pt[..full * CHUNK_LEN],
            );
            let mut good = match r {
                Ok(()) => full * CHUNK_LEN,
                Err(Error::ChunkAuthenticationFailed { chunk }) => {
                    (chunk - next) as usize * CHUNK_LEN
                }
                Err(_) => 0,
            };
            if r.is_ok() && last {
                r = if rest < TAG_LEN {
                    Err(Error::Truncated)
                } else {
                    mk.open_chunk(
                        next + full as u64,
                        &ct[full * ENCRYPTED_CHUNK_LEN..],
                        &mut pt[full * CHUNK_LEN..],
                    )
                };
                if r.is_ok() {
                    good += final_len;
                }
            }
            t.crypto += c.elapsed();
            pt.truncate(good);
            if t.bytes == 0 && !pt.is_empty() {
                if let Err(m) = first(&pt) {
                    refused = Some(m);
                    return Ok(t);
                }
            }
            t.bytes += pt.len() as u64;
            progress(ct.len() as u64);
            if !pt.is_empty() {
                writer
                    .send(pt, &mut t.output_wait)
                    .map_err(|()| writer_gone())?;
            }
            reader.recycle(ct);
            if let Err(e) = r {
                return Err(StreamError::Crypto(e, final_chunk));
            }
            next += full as u64;
            if last {
                return Ok(t);
            }
        }
    })();
    let (w, r) = end(writer, r);
    (w, r, refused)
}
