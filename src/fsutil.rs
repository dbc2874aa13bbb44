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

/// Removes the temporary files that an earlier gdl, killed while it wrote
/// into the folder of `path` (`kill -9`, a power cut), left there: every
/// `.NAME.PID.tmp` of gdl's naming whose process no longer runs, whatever
/// file it was for. A file of a process that still runs (another gdl at work,
/// or an unrelated program that reuses the number) is left alone.
pub fn remove_stale_temporaries(path: &Path) {
    let Ok(entries) = std::fs::read_dir(folder_of(path)) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(pid) = file.to_str().and_then(stray_pid) else {
            continue;
        };
        let regular = entry.file_type().is_ok_and(|t| t.is_file());
        if regular && pid != std::process::id() && !process_runs(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The process number in a temporary file's name of gdl's pattern
/// `.NAME.PID.tmp` (see [`temporary_name`]).
fn stray_pid(file: &str) -> Option<u32> {
    let rest = file.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (name, pid) = rest.rsplit_once('.')?;
    if name.is_empty() || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
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

/// How long a named pipe may go without a writer before a read refuses it.
pub const PIPE_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// Why [`read_bounded`] read nothing.
#[derive(Debug)]
pub enum ReadError {
    Missing,
    Directory,
    /// More than the limit (`None`: a stream, stopped one byte past it).
    TooLarge(Option<u64>),
    /// A named pipe that nothing wrote to within [`PIPE_WAIT`].
    NoWriter,
    /// Not a regular file, where only one will do (a device, a pipe).
    NotAFile(&'static str),
    Io(std::io::Error),
}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> Self {
        match e.kind() {
            std::io::ErrorKind::NotFound => ReadError::Missing,
            std::io::ErrorKind::IsADirectory => ReadError::Directory,
            _ => ReadError::Io(e),
        }
    }
}

/// What an input may be besides a regular file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Streams {
    /// A pipe, a device or `/dev/stdin` too, read once up to the limit.
    Allowed,
    /// A regular file only.
    Refused,
}

/// The bytes of `path`, at most `max` of them: a regular file larger than
/// that is refused before a byte is read, and a stream (a pipe, a device)
/// is read no further than one byte past it. A named pipe that no program
/// writes to is refused after [`PIPE_WAIT`], where a plain open would wait
/// for ever.
pub fn read_bounded(path: &Path, max: u64, streams: Streams) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    use std::os::unix::fs::FileTypeExt;
    let meta = std::fs::metadata(path)?;
    let kind = meta.file_type();
    if meta.is_dir() {
        return Err(ReadError::Directory);
    }
    if meta.is_file() && meta.len() > max {
        return Err(ReadError::TooLarge(Some(meta.len())));
    }
    if !meta.is_file() && streams == Streams::Refused {
        return Err(ReadError::NotAFile(if kind.is_fifo() {
            "a pipe"
        } else if kind.is_socket() {
            "a socket"
        } else {
            "a device"
        }));
    }
    let mut bytes = Vec::new();
    let file = if kind.is_fifo() {
        open_pipe(path, &mut bytes)?
    } else {
        File::open(path)?
    };
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(ReadError::TooLarge(meta.is_file().then_some(bytes.len() as u64)));
    }
    Ok(bytes)
}

/// Opens a named pipe for reading without waiting for a writer, then waits
/// at most [`PIPE_WAIT`] for one: a plain open blocks until some program
/// opens the other end, for ever if none does. A byte read on the way is
/// put in `read`.
fn open_pipe(path: &Path, read: &mut Vec<u8>) -> Result<File, ReadError> {
    use std::io::Read;
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let fd = file.as_raw_fd();
    let mut poll = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // Linux reports neither data nor a hang-up on a pipe that no writer has
    // opened yet: the wait ends with data, a writer that came and went, or the time.
    let ms = PIPE_WAIT.as_millis() as libc::c_int;
    // SAFETY: one valid pollfd, for a descriptor this function owns.
    let ready = unsafe { libc::poll(&mut poll, 1, ms) };
    if ready == 0 {
        // No data yet: a writer that holds the pipe open without writing
        // makes a read say "try again"; no writer at all makes it say "end".
        let mut probe = [0u8; 1];
        match file.read(&mut probe) {
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            // Written just now.
            Ok(1) => read.push(probe[0]),
            _ => return Err(ReadError::NoWriter),
        }
    }
    // From here a read waits for the writer, as reading any pipe does.
    // SAFETY: fcntl on a descriptor this function owns.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
    }
    Ok(file)
}

/// Whether `path` is a named pipe that no program has open for reading:
/// opening it to write would wait for one for ever.
pub fn pipe_without_reader(path: &Path) -> bool {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    if !std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo()) {
        return false;
    }
    // Without a reader, a non-blocking open for writing fails with ENXIO.
    let opened = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path);
    matches!(opened, Err(e) if e.raw_os_error() == Some(libc::ENXIO))
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
                unfinished().push(tmp.clone());
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
            forget_unfinished(&tmp);
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
            forget_unfinished(tmp);
        }
    }
}

/// The temporary files of the writes under way, for [`remove_unfinished`].
fn unfinished() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    static UNFINISHED: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    UNFINISHED.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn forget_unfinished(tmp: &Path) {
    let mut all = unfinished();
    if let Some(i) = all.iter().position(|t| t == tmp) {
        all.swap_remove(i);
    }
}

/// Removes the temporary files of the writes under way, for gdl ending at
/// once (a signal): their targets keep what they held before. A write that
/// renames its file meanwhile either has (the removal finds nothing) or
/// fails to (its target is unchanged).
pub fn remove_unfinished() {
    for tmp in unfinished().iter() {
        let _ = std::fs::remove_file(tmp);
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
        // Another file's, in the same folder: a killed gdl wrote it.
        let other = temporary_for(&dir.join("games.csv"), 999_999_998);
        // Not of gdl's naming: kept.
        let foreign = [".t.csv.12x.tmp", ".9.tmp", "t.csv.999999997.tmp", "..999999996.tmp"];
        std::fs::write(&other, "x").unwrap();
        for f in foreign {
            std::fs::write(dir.join(f), "x").unwrap();
        }
        remove_stale_temporaries(&target);
        assert!(!dead.exists());
        assert!(!other.exists());
        assert!(alive.exists());
        for f in foreign {
            assert!(dir.join(f).exists(), "{f}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    use std::ops::Not;
}
