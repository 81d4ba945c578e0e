//! Standard input and output as the command uses them: a descriptor that was closed when
//! the command started is an error (as for `sha256sum <&-` or `>&-`), and every write
//! error, a closed pipe included, becomes a [`CliError`] with a message.
//!
//! The Rust runtime, before `main`, reopens a closed standard descriptor on `/dev/null`, so
//! that a closed standard input would read as empty and a closed standard output would
//! swallow everything. To tell the two apart, a function in `.init_array` (run by the C
//! runtime before the Rust runtime starts) records which of descriptors 0 and 1 were
//! closed, by looking for `/proc/self/fd/N` (Linux; elsewhere nothing is recorded and a
//! closed descriptor behaves as `/dev/null`). Reading the recorded standard input, or
//! writing to the recorded standard output, then fails with "Bad file descriptor".
//! `SIGPIPE` is ignored by the Rust runtime, so a closed pipe is a write error ("Broken
//! pipe") like any other: exit status 1 with a message.

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicU8, Ordering};

use crate::report::{io_text, CliError};

/// Bit `1 << fd` set for each of descriptors 0 and 1 that was closed at start.
static CLOSED_AT_START: AtomicU8 = AtomicU8::new(0);

#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static RECORD_CLOSED_STD_FDS: extern "C" fn() = record_closed_std_fds;

/// Runs before the Rust runtime reopens closed descriptors (see the module docs).
#[cfg(target_os = "linux")]
extern "C" fn record_closed_std_fds() {
    // Without /proc nothing can be told; leave the descriptors as the runtime makes them.
    if std::fs::symlink_metadata("/proc/self/fd").is_err() {
        return;
    }
    let mut closed = 0u8;
    for (fd, path) in [(0u8, "/proc/self/fd/0"), (1, "/proc/self/fd/1")] {
        if let Err(e) = std::fs::symlink_metadata(path) {
            if e.kind() == io::ErrorKind::NotFound {
                closed |= 1 << fd;
            }
        }
    }
    CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// Whether descriptor `fd` (0 or 1) was closed when the command started.
fn closed_at_start(fd: u8) -> bool {
    CLOSED_AT_START.load(Ordering::Relaxed) & (1 << fd) != 0
}

/// The error for a descriptor that was closed at start.
fn bad_descriptor() -> io::Error {
    #[cfg(target_os = "linux")]
    {
        io::Error::from_raw_os_error(9) // EBADF
    }
    #[cfg(not(target_os = "linux"))]
    {
        io::Error::other("Bad file descriptor")
    }
}

/// Standard input, failing with "Bad file descriptor" if it was closed at start.
pub struct Stdin(io::StdinLock<'static>);

/// Standard input (locked).
pub fn stdin() -> Stdin {
    Stdin(io::stdin().lock())
}

impl Read for Stdin {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if closed_at_start(0) {
            return Err(bad_descriptor());
        }
        self.0.read(buf)
    }
}

/// Standard output, failing with "Bad file descriptor" on the first write if it was
/// closed at start. Unbuffered beyond the runtime's line buffer: wrap it in a
/// `BufWriter` for bulk output.
pub struct Stdout(io::StdoutLock<'static>);

/// Standard output (locked).
pub fn stdout() -> Stdout {
    Stdout(io::stdout().lock())
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if closed_at_start(1) && !buf.is_empty() {
            return Err(bad_descriptor());
        }
        self.0.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// The error for a failed write to standard output: `write error: Broken pipe` and so on.
pub fn write_error(e: &io::Error) -> CliError {
    CliError::Failure(format!("write error: {}", io_text(e)))
}

/// Writes all of `data` to `w`; a [`write_error`] if that fails.
pub fn put(w: &mut (impl Write + ?Sized), data: &[u8]) -> Result<(), CliError> {
    w.write_all(data).map_err(|e| write_error(&e))
}

/// Flushes `w`; a [`write_error`] if that fails.
pub fn flush(w: &mut (impl Write + ?Sized)) -> Result<(), CliError> {
    w.flush().map_err(|e| write_error(&e))
}

/// Writes `text` to standard output and flushes it.
pub fn emit(text: &str) -> Result<(), CliError> {
    let mut out = stdout();
    put(&mut out, text.as_bytes())?;
    flush(&mut out)
}
