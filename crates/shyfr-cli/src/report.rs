//! The one error path of the command.
//!
//! Every message the command prints on standard error has the form
//! `shyfr: CONTEXT: message`, where CONTEXT is the subcommand (`hash`, `speed`, ...; `usage`
//! before one is known), on one line. A command returns a [`CliError`]; [`main`](crate)
//! prints it and exits 2 for a usage error, 1 for a failure. Messages that go on while a
//! command runs (a file that cannot be read while others are hashed, a warning) are printed
//! with [`error`] and [`warn`] in the same form. System errors are shown by their text
//! alone ([`io_text`]: "No such file or directory", never "(os error 2)"), and names are
//! shown with control characters and bytes that are not UTF-8 escaped ([`shown`]), so a
//! message stays one line.

use std::ffi::OsStr;
use std::io::{self, Write};
use std::sync::OnceLock;

/// Exit status for usage errors (the same as clap's).
pub const EXIT_USAGE: u8 = 2;
/// Exit status for failures while running.
pub const EXIT_FAILURE: u8 = 1;

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// The command line (or `SHYFR_CPU`) is wrong: exit status 2.
    Usage(String),
    /// Something failed while running: exit status 1.
    Failure(String),
    /// A failure already reported on standard error (with [`error`]): exit status 1 and
    /// nothing more printed.
    Reported,
}

impl CliError {
    /// The exit status for this error.
    pub fn status(&self) -> u8 {
        match self {
            CliError::Usage(_) => EXIT_USAGE,
            CliError::Failure(_) | CliError::Reported => EXIT_FAILURE,
        }
    }
}

static CONTEXT: OnceLock<&'static str> = OnceLock::new();

/// Sets the context of every later message (the subcommand); the first call wins.
pub fn set_context(context: &'static str) {
    let _ = CONTEXT.set(context);
}

/// The context messages are printed with.
pub fn context() -> &'static str {
    CONTEXT.get().copied().unwrap_or("usage")
}

/// The one line `shyfr: CONTEXT: message` (without the newline).
pub fn line(message: &str) -> String {
    // A message is one line: any line break in it is shown escaped.
    let message = message.replace('\n', "\\n").replace('\r', "\\r");
    format!("shyfr: {}: {message}", context())
}

/// Prints `shyfr: CONTEXT: message` on standard error (errors writing it are ignored:
/// there is nowhere else to report them).
pub fn error(message: &str) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{}", line(message));
}

/// Prints `shyfr: CONTEXT: warning: message` on standard error.
pub fn warn(message: &str) {
    error(&format!("warning: {message}"));
}

/// Prints the error and returns the exit status for it.
pub fn finish(e: &CliError) -> u8 {
    match e {
        CliError::Usage(m) | CliError::Failure(m) if !m.is_empty() => error(m),
        _ => {}
    }
    e.status()
}

/// The text of a system error without the "(os error N)" Rust adds: "No such file or
/// directory", "Permission denied", "Is a directory".
pub fn io_text(e: &io::Error) -> String {
    let text = e.to_string();
    if let Some(code) = e.raw_os_error() {
        return text
            .strip_suffix(&format!(" (os error {code})"))
            .unwrap_or(&text)
            .to_string();
    }
    // A wrapped error (tempfile adds the path it tried): the system's error inside.
    if let Some(inner) = e.get_ref().and_then(|i| i.source()) {
        if let Some(io) = inner.downcast_ref::<io::Error>() {
            return io_text(io);
        }
    }
    match text.find(" (os error ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// The error "Is a directory" (EISDIR), worded as the system words it.
pub fn is_a_directory() -> io::Error {
    #[cfg(target_os = "linux")]
    {
        io::Error::from_raw_os_error(21)
    }
    #[cfg(not(target_os = "linux"))]
    {
        io::Error::other("Is a directory")
    }
}

/// A name (a path as given) for a message: as it is when printable UTF-8; otherwise with
/// control characters written `\n`, `\t`, `\r`, `\xHH` and bytes that are not UTF-8 as
/// `\xHH`, so that a message stays on one line and shows what was given.
pub fn shown(name: &OsStr) -> String {
    let bytes = os_bytes(name);
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// The bytes of an OS string (raw on Unix; UTF-8, lossily, elsewhere).
pub fn os_bytes(s: &OsStr) -> std::borrow::Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        std::borrow::Cow::Borrowed(s.as_bytes())
    }
    #[cfg(not(unix))]
    {
        match s.to_string_lossy() {
            std::borrow::Cow::Borrowed(b) => std::borrow::Cow::Borrowed(b.as_bytes()),
            std::borrow::Cow::Owned(o) => std::borrow::Cow::Owned(o.into_bytes()),
        }
    }
}

/// The OS string with these bytes (raw on Unix; UTF-8, lossily, elsewhere).
pub fn os_from_bytes(b: &[u8]) -> std::ffi::OsString {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        OsStr::from_bytes(b).to_os_string()
    }
    #[cfg(not(unix))]
    {
        String::from_utf8_lossy(b).into_owned().into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_text_has_no_os_error_number() {
        let e = io::Error::from_raw_os_error(2);
        let t = io_text(&e);
        assert!(!t.contains("os error"), "{t}");
        assert!(!t.is_empty());
        let custom = io::Error::other("plain");
        assert_eq!(io_text(&custom), "plain");
        // tempfile's errors wrap the system's with the path it tried.
        let dir = std::env::temp_dir().join("shyfr-no-such-dir-for-io-text");
        let e = tempfile::tempfile_in(dir.join("deeper")).unwrap_err();
        assert_eq!(io_text(&e), io_text(&io::Error::from_raw_os_error(2)));
    }

    #[test]
    fn names_are_shown_on_one_line() {
        assert_eq!(shown(OsStr::new("a b")), "a b");
        assert_eq!(shown(OsStr::new("a\nb\\c")), "a\\nb\\c");
        assert_eq!(shown(OsStr::new("\u{1}")), "\\x01");
        #[cfg(unix)]
        assert_eq!(shown(&os_from_bytes(b"x\xffy")), "x\\xffy");
    }

    #[test]
    fn lines_are_single() {
        assert!(!line("a\nb").contains('\n'));
    }
}
