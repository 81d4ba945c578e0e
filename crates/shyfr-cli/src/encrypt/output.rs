//! Where `shyfr encrypt` / `decrypt` / `keygen` write: standard output, a new or replaced
//! file (written to a temporary file in the same directory, synced, and renamed over the
//! destination only on success), or an existing non-regular file such as `/dev/null` or a
//! FIFO (written in place). Also the checks made before anything is written: no
//! overwriting without `--force`, input and output never the same file.

use crate::report::io_text;
use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use super::Fail;

/// A file's identity (device and inode), to recognise the same file under two names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileId(u64, u64);

impl FileId {
    /// The identity of a regular file (`None` for pipes, terminals, devices).
    pub fn of(meta: &std::fs::Metadata) -> Option<FileId> {
        if !meta.is_file() {
            return None;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(FileId(meta.dev(), meta.ino()))
        }
        #[cfg(not(unix))]
        {
            None
        }
    }
}

/// Standard input or output as a `File` sharing its open file description (no extra
/// buffering, and the position of a redirected file is kept).
#[cfg(unix)]
pub fn std_file(stdout: bool) -> io::Result<File> {
    use std::os::fd::AsFd;
    let fd = if stdout {
        io::stdout().as_fd().try_clone_to_owned()?
    } else {
        io::stdin().as_fd().try_clone_to_owned()?
    };
    Ok(File::from(fd))
}

/// Where the output goes, decided (and checked) before any secret is asked for.
#[derive(Debug)]
pub enum Target {
    /// Standard output.
    Stdout,
    /// A regular file, created (or replaced, with `--force`) by renaming a temporary file.
    File {
        /// The destination.
        path: PathBuf,
        /// It exists and `--force` allows replacing it.
        replace: bool,
    },
    /// An existing file that is not a regular file (a device, a FIFO): written in place.
    Special(PathBuf),
}

impl Target {
    /// Checks the destination `path` (`None` or `-`: standard output).
    ///
    /// * `binary`: refuse standard output when it is a terminal (usage error);
    /// * `force`: allow replacing an existing regular file (otherwise an error);
    /// * `input`: the input's identity; the output may not be the same file.
    pub fn check(
        path: Option<&Path>,
        force: bool,
        binary: bool,
        input: Option<FileId>,
    ) -> Result<Target, Fail> {
        let same = |id: Option<FileId>, ctx: &str| -> Result<(), Fail> {
            if id.is_some() && id == input {
                return Err(Fail::usage(ctx, "input and output are the same file"));
            }
            Ok(())
        };
        let path = match path {
            None => None,
            Some(p) if p.as_os_str() == "-" => None,
            Some(p) => Some(p),
        };
        let Some(path) = path else {
            if binary && io::stdout().is_terminal() {
                return Err(Fail::usage(
                    "stdout",
                    "refusing to write binary data to a terminal (use -o FILE or redirect)",
                ));
            }
            #[cfg(unix)]
            if let Ok(m) = std_file(true).and_then(|f| f.metadata()) {
                same(FileId::of(&m), "stdout")?;
            }
            return Ok(Target::Stdout);
        };
        let ctx = path.display().to_string();
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => Err(Fail::usage(&ctx, "is a directory")),
            Ok(m) if m.is_file() => {
                same(FileId::of(&m), &ctx)?;
                if !force {
                    return Err(Fail::run(&ctx, "already exists (use --force to overwrite)"));
                }
                Ok(Target::File {
                    path: path.to_path_buf(),
                    replace: true,
                })
            }
            Ok(_) => Ok(Target::Special(path.to_path_buf())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Target::File {
                path: path.to_path_buf(),
                replace: false,
            }),
            Err(e) => Err(Fail::run(
                &ctx,
                format!("cannot check the output: {}", io_text(&e)),
            )),
        }
    }

    /// Opens the destination for writing (a temporary file for regular files).
    pub fn open(self) -> Result<Sink, Fail> {
        match self {
            Target::Stdout => {
                #[cfg(unix)]
                let f = std_file(true).map_err(|e| Fail::run("stdout", e.to_string()))?;
                #[cfg(unix)]
                return Ok(Sink::Stdout(StdOut::File(f)));
                #[cfg(not(unix))]
                return Ok(Sink::Stdout(StdOut::Std(io::stdout())));
            }
            Target::Special(path) => {
                let f = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&path)
                    .map_err(|e| {
                        Fail::run(
                            &path.display().to_string(),
                            format!("cannot open: {}", io_text(&e)),
                        )
                    })?;
                Ok(Sink::Special(f, path))
            }
            Target::File { path, replace } => {
                let ctx = path.display().to_string();
                let dir = match path.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                    _ => PathBuf::from("."),
                };
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let tmp = tempfile::Builder::new()
                    .prefix(&format!(".{name}."))
                    .suffix(".shyfr-tmp")
                    .tempfile_in(&dir)
                    .map_err(|e| {
                        Fail::run(
                            &ctx,
                            format!(
                                "cannot create a temporary file in {}: {}",
                                dir.display(),
                                io_text(&e)
                            ),
                        )
                    })?;
                if replace {
                    // Keep the permissions of the file being replaced.
                    if let Ok(m) = std::fs::metadata(&path) {
                        let _ = tmp.as_file().set_permissions(m.permissions());
                    }
                }
                Ok(Sink::Temp {
                    tmp,
                    path,
                    dir,
                    replace,
                })
            }
        }
    }
}

/// Standard output.
pub enum StdOut {
    /// A duplicate of file descriptor 1.
    #[cfg(unix)]
    File(File),
    /// The standard library's handle.
    #[cfg(not(unix))]
    Std(io::Stdout),
}

/// An open destination.
pub enum Sink {
    /// Standard output.
    Stdout(StdOut),
    /// A temporary file to be renamed to `path` on success (and deleted otherwise).
    Temp {
        /// The temporary file (deleted when dropped).
        tmp: tempfile::NamedTempFile,
        /// The destination.
        path: PathBuf,
        /// Its directory (synced after the rename).
        dir: PathBuf,
        /// Whether an existing file may be replaced.
        replace: bool,
    },
    /// An existing non-regular file, written in place.
    Special(File, PathBuf),
}

impl Sink {
    /// Whether this is standard output.
    pub fn is_stdout(&self) -> bool {
        matches!(self, Sink::Stdout(_))
    }

    /// Finishes: flushes; for a temporary file, syncs it to disk, renames it over the
    /// destination (refusing to replace a file that appeared meanwhile unless `--force`)
    /// and syncs the directory.
    pub fn commit(self) -> Result<(), Fail> {
        match self {
            Sink::Stdout(mut s) => s.flush().map_err(|e| write_fail("stdout", e)),
            Sink::Special(mut f, path) => f
                .flush()
                .map_err(|e| write_fail(&path.display().to_string(), e)),
            Sink::Temp {
                tmp,
                path,
                dir,
                replace,
            } => {
                let ctx = path.display().to_string();
                tmp.as_file().sync_all().map_err(|e| {
                    Fail::run(&ctx, format!("cannot sync to disk: {}", io_text(&e)))
                })?;
                let r = if replace {
                    tmp.persist(&path).map(|_| ())
                } else {
                    tmp.persist_noclobber(&path).map(|_| ())
                };
                if let Err(e) = r {
                    let msg = if e.error.kind() == io::ErrorKind::AlreadyExists {
                        "appeared while writing; not replaced (use --force)".to_string()
                    } else {
                        format!("cannot rename the temporary file into place: {}", e.error)
                    };
                    return Err(Fail::run(&ctx, msg));
                }
                // The rename is durable once the directory is synced (not possible on
                // every platform: errors ignored).
                if let Ok(d) = File::open(&dir) {
                    let _ = d.sync_all();
                }
                Ok(())
            }
        }
    }
}

/// A failed write: a closed pipe ends quietly (exit status 1, no message).
pub fn write_fail(ctx: &str, e: io::Error) -> Fail {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Fail::Quiet
    } else {
        Fail::run(ctx, format!("cannot write: {}", io_text(&e)))
    }
}

impl Write for StdOut {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        match self {
            #[cfg(unix)]
            StdOut::File(f) => f.write(b),
            #[cfg(not(unix))]
            StdOut::Std(s) => s.write(b),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            #[cfg(unix)]
            StdOut::File(f) => f.flush(),
            #[cfg(not(unix))]
            StdOut::Std(s) => s.flush(),
        }
    }
}

impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Stdout(s) => s.write(b),
            Sink::Temp { tmp, .. } => tmp.write(b),
            Sink::Special(f, _) => f.write(b),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Stdout(s) => s.flush(),
            Sink::Temp { tmp, .. } => tmp.flush(),
            Sink::Special(f, _) => f.flush(),
        }
    }
}
