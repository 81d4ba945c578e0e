//! Files the command writes, written atomically.
//!
//! A destination that is a regular file (or does not exist yet) is written as a temporary
//! file in the same folder (`tempfile`), flushed to disk and renamed over the destination
//! only when the command has succeeded ([`Output::commit`]). On any failure the temporary
//! file is removed and the destination is left as it was: never emptied, never partial. An
//! existing destination keeps its permissions; a new one is readable by its owner only
//! (what `tempfile` creates). A destination that is not a regular file (`/dev/null`, a
//! pipe, a terminal) is written directly, and `-` or no destination is standard output.
//! A destination that is the same file as one of the inputs is refused
//! ([`check_not_an_input`]).

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use crate::report::{io_text, shown, CliError};
use crate::stdio;

/// Buffer size for file and standard output.
const BUFFER: usize = 1 << 16;

/// Where output goes.
pub enum Output {
    /// Standard output.
    Stdout(BufWriter<stdio::Stdout>),
    /// A temporary file, renamed over `dest` by [`commit`](Output::commit).
    Atomic {
        tmp: BufWriter<NamedTempFile>,
        dest: PathBuf,
    },
    /// A destination that is not a regular file, written in place.
    Direct {
        file: BufWriter<File>,
        dest: PathBuf,
    },
}

/// Refuses to write to `dest` if it is the same file as `input` (the same device and
/// inode, so hard links and other spellings of the path are caught): a usage error.
pub fn check_not_an_input(dest: &Path, input: &Path, what: &str) -> Result<(), CliError> {
    let (Ok(d), Ok(i)) = (std::fs::metadata(dest), std::fs::metadata(input)) else {
        return Ok(());
    };
    if same_file(&d, &i) {
        return Err(CliError::Usage(format!(
            "{what} '{}' is the same file as the input '{}'; write to another file",
            shown(dest.as_os_str()),
            shown(input.as_os_str())
        )));
    }
    Ok(())
}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino() && a.is_file()
}

#[cfg(not(unix))]
fn same_file(_a: &std::fs::Metadata, _b: &std::fs::Metadata) -> bool {
    false
}

/// The message for a destination that cannot be written.
fn cannot_write(dest: &Path, e: &io::Error) -> CliError {
    CliError::Failure(format!(
        "cannot write '{}': {}",
        shown(dest.as_os_str()),
        io_text(e)
    ))
}

impl Output {
    /// Standard output for `None` or `-`; otherwise the file `dest`, written atomically
    /// (see the module docs). `suffix` ends the temporary file's name (e.g. `.png`, for
    /// writers that choose a format by the name).
    pub fn create(dest: Option<&Path>, suffix: &str) -> Result<Output, CliError> {
        let dest = match dest {
            None => return Ok(Output::stdout()),
            Some(d) if d.as_os_str() == OsStr::new("-") => return Ok(Output::stdout()),
            Some(d) => d,
        };
        match std::fs::metadata(dest) {
            Ok(m) if m.is_dir() => {
                return Err(cannot_write(dest, &crate::report::is_a_directory()))
            }
            Ok(m) if !m.is_file() => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(dest)
                    .map_err(|e| cannot_write(dest, &e))?;
                return Ok(Output::Direct {
                    file: BufWriter::with_capacity(BUFFER, file),
                    dest: dest.to_path_buf(),
                });
            }
            _ => {}
        }
        let dir = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let tmp = tempfile::Builder::new()
            .prefix(".shyfr-")
            .suffix(suffix)
            .tempfile_in(dir)
            .map_err(|e| cannot_write(dest, &e))?;
        Ok(Output::Atomic {
            tmp: BufWriter::with_capacity(BUFFER, tmp),
            dest: dest.to_path_buf(),
        })
    }

    fn stdout() -> Output {
        Output::Stdout(BufWriter::with_capacity(BUFFER, stdio::stdout()))
    }

    /// The path a writer that wants a path (a chart library) should write to: the
    /// temporary file; `None` for standard output.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Output::Stdout(_) => None,
            Output::Atomic { tmp, .. } => Some(tmp.get_ref().path()),
            Output::Direct { dest, .. } => Some(dest),
        }
    }

    /// Writes `data`.
    pub fn write(&mut self, data: &[u8]) -> Result<(), CliError> {
        match self {
            Output::Stdout(w) => stdio::put(w, data),
            Output::Atomic { tmp, dest } => tmp.write_all(data).map_err(|e| cannot_write(dest, &e)),
            Output::Direct { file, dest } => {
                file.write_all(data).map_err(|e| cannot_write(dest, &e))
            }
        }
    }

    /// Finishes the output: flushes it and, for a file, syncs the temporary file and
    /// renames it over the destination (keeping the destination's permissions).
    pub fn commit(self) -> Result<(), CliError> {
        match self {
            Output::Stdout(mut w) => stdio::flush(&mut w),
            Output::Direct { mut file, dest } => file.flush().map_err(|e| cannot_write(&dest, &e)),
            Output::Atomic { tmp, dest } => {
                let tmp = tmp
                    .into_inner()
                    .map_err(|e| cannot_write(&dest, e.error()))?;
                tmp.as_file()
                    .sync_all()
                    .map_err(|e| cannot_write(&dest, &e))?;
                if let Ok(m) = std::fs::metadata(&dest) {
                    if m.is_file() {
                        let _ = tmp.as_file().set_permissions(m.permissions());
                    }
                }
                tmp.persist(&dest)
                    .map(drop)
                    .map_err(|e| cannot_write(&dest, &e.error))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_written_without_commit() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("out");
        std::fs::write(&dest, b"before").unwrap();
        {
            let mut o = Output::create(Some(&dest), "").unwrap();
            o.write(b"partial").unwrap();
            // dropped: a failure
        }
        assert_eq!(std::fs::read(&dest).unwrap(), b"before");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "temp removed"
        );
        let mut o = Output::create(Some(&dest), "").unwrap();
        o.write(b"after").unwrap();
        o.commit().unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"after");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn same_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        std::fs::write(&a, b"x").unwrap();
        let b = dir.path().join("b");
        std::fs::hard_link(&a, &b).unwrap();
        assert!(check_not_an_input(&a, &a, "-out").is_err());
        assert!(check_not_an_input(&b, &a, "-out").is_err());
        assert!(check_not_an_input(&dir.path().join("c"), &a, "-out").is_ok());
    }

    #[test]
    fn directories_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            Output::create(Some(dir.path()), ""),
            Err(CliError::Failure(_))
        ));
    }
}
