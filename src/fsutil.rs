//! Files gdl writes are never half written: each is written to a temporary
//! file beside its target, flushed, and renamed over it in one step.
//!
//! Two kinds of target are not replaced: a symbolic link is followed (the
//! link stays, the file it names is replaced), and a device, a pipe or a
//! socket (`/dev/stdout`, `/dev/null`, a FIFO) is written through, since
//! renaming a file over it would destroy it and write nothing where asked.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where the bytes for `path` really go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A regular file (existing or not), replaced through a temporary file.
    Replace(PathBuf),
    /// A device, pipe or socket, written in place.
    Through(PathBuf),
}

/// Resolves `path`: symbolic links followed, devices told apart.
pub fn target(path: &Path) -> Target {
    let resolved = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => match std::fs::canonicalize(path) {
            Ok(real) => real,
            // A link to nothing: the file it names is created.
            Err(_) => match std::fs::read_link(path) {
                Ok(to) if to.is_absolute() => to,
                Ok(to) => path.parent().unwrap_or(Path::new(".")).join(to),
                Err(_) => path.to_path_buf(),
            },
        },
        _ => path.to_path_buf(),
    };
    match std::fs::metadata(&resolved) {
        Ok(m) if !m.is_file() && !m.is_dir() => Target::Through(resolved),
        _ => Target::Replace(resolved),
    }
}

/// The temporary file beside `path` that an atomic write goes through.
pub fn temporary_name(path: &Path) -> PathBuf {
    temporary_for(path, std::process::id())
}

fn temporary_for(path: &Path, pid: u32) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    folder_of(path).join(format!(".{name}.{pid}.tmp"))
}

/// The folder a file is written in (`.` for a bare name).
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Removes the temporary files that an earlier gdl, killed while it saved
/// `path`, left beside it: those of processes that no longer run.
pub fn remove_stale_temporaries(path: &Path) {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(folder_of(path)) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = file
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !process_runs(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn process_runs(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // Signal 0 checks that the process exists without disturbing it.
    // SAFETY: kill with signal 0 sends nothing.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// A file being written: in its temporary file until [`Writing::finish`]
/// renames it over the target. Dropped unfinished, the temporary file is
/// removed, so an error never leaves one behind.
pub struct Writing {
    file: std::io::BufWriter<File>,
    /// The temporary file and the target it becomes; `None` when written through.
    rename: Option<(PathBuf, PathBuf)>,
}

impl Writing {
    /// Starts writing `path` (see [`target`]).
    pub fn start(path: &Path) -> std::io::Result<Writing> {
        match target(path) {
            Target::Through(to) => Ok(Writing {
                file: std::io::BufWriter::new(std::fs::OpenOptions::new().write(true).open(to)?),
                rename: None,
            }),
            Target::Replace(to) => {
                let tmp = temporary_name(&to);
                let file = File::create(&tmp)?;
                Ok(Writing {
                    file: std::io::BufWriter::new(file),
                    rename: Some((tmp, to)),
                })
            }
        }
    }

    /// Makes what was written so far reach the file (not yet its name).
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }

    /// Flushes, syncs and renames the file into place.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.file.flush()?;
        if let Some((tmp, to)) = self.rename.take() {
            let result = self.file.get_ref().sync_all().and_then(|()| std::fs::rename(&tmp, &to));
            if result.is_err() {
                let _ = std::fs::remove_file(&tmp);
            }
            result?;
        }
        Ok(())
    }
}

impl Write for Writing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

impl Drop for Writing {
    fn drop(&mut self) {
        if let Some((tmp, _)) = &self.rename {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// Writes `bytes` to `path` atomically: a crash leaves the old file or the new
/// one, never a mix.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut w = Writing::start(path)?;
    w.write_all(bytes)?;
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gdl-fsutil-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temporary_behind() {
        let dir = scratch("replace");
        let target = dir.join("table.json");
        write_atomic(&target, b"first").unwrap();
        write_atomic(&target, b"second").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"second");
        assert_eq!(names(&dir), ["table.json"]);
        assert!(write_atomic(&dir.join("no/such/dir/x"), b"x").is_err());
        // Dropped unfinished (an error on the way): no temporary file stays.
        let mut w = Writing::start(&dir.join("half.csv")).unwrap();
        w.write_all(b"a,b\n").unwrap();
        w.flush().unwrap();
        assert_eq!(names(&dir).len(), 2);
        drop(w);
        assert_eq!(names(&dir), ["table.json"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_link_is_kept_and_the_file_it_names_replaced() {
        let dir = scratch("link");
        std::fs::write(dir.join("real.csv"), "old").unwrap();
        std::os::unix::fs::symlink("real.csv", dir.join("link.csv")).unwrap();
        write_atomic(&dir.join("link.csv"), b"new").unwrap();
        assert!(
            std::fs::symlink_metadata(dir.join("link.csv"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(dir.join("real.csv")).unwrap(), b"new");
        assert_eq!(names(&dir), ["link.csv", "real.csv"]);
        // A device is written through, not replaced.
        assert_eq!(target(Path::new("/dev/null")), Target::Through("/dev/null".into()));
        write_atomic(Path::new("/dev/null"), b"x").unwrap();
        assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_file().not());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn temporaries_of_dead_processes_are_removed() {
        let dir = scratch("stale");
        let target = dir.join("t.csv");
        // No process has a pid this large (the kernel's maximum is 2^22).
        let dead = temporary_for(&target, 999_999_999);
        let alive = temporary_for(&target, std::process::id());
        std::fs::write(&dead, "x").unwrap();
        std::fs::write(&alive, "x").unwrap();
        remove_stale_temporaries(&target);
        assert!(!dead.exists());
        assert!(alive.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    use std::ops::Not;
}
