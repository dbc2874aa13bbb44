//! The files a command writes (`--out`, `--csv`, `--plot`, `--json-log`,
//! `--agent-stderr`), checked before any work is done and written the same
//! way by every command.
//!
//! Refused at the start (exit 2): a folder; a file in a folder that does not
//! exist or cannot be written; a name too long for its temporary file; a
//! file that is one of the command's inputs ([`Input`]: the game file, a
//! Q-table an agent reads, an `exec:` agent's program or script); a game
//! file, whatever the command reads (see
//! [`is_game_file`]); two outputs naming the same file. A symbolic link is
//! followed (the link stays, the file it names is replaced); a device or a
//! pipe (`/dev/stdout`) is written through. A write that fails at the end,
//! after the work (a full disk, a folder removed meanwhile), exits with
//! [`EXIT_WRITE`], the report still printed.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::cli::kit::context::Failure;
use crate::fsutil::{self, Target, Writing};

/// The exit code of every command whose final write failed.
pub const EXIT_WRITE: i32 = crate::error_kind::EXIT_RUNTIME;

/// The longest file name most file systems take, in bytes.
const NAME_MAX: usize = 255;

/// An output file, checked.
#[derive(Debug, Clone)]
pub struct Output {
    /// The flag that named it, for messages.
    pub flag: &'static str,
    pub path: PathBuf,
}

/// A file the command reads, and what it is, for messages: `the game file`,
/// `the Q-table of q:q.json`, `the program of exec:./agent.sh`.
#[derive(Debug, Clone)]
pub struct Input {
    pub what: String,
    pub path: PathBuf,
}

impl Input {
    pub fn new(what: impl Into<String>, path: &Path) -> Input {
        Input {
            what: what.into(),
            path: path.to_path_buf(),
        }
    }

    /// The game file a command loads.
    pub fn game(path: &Path) -> Input {
        Input::new("the game file", path)
    }
}

/// Checks each output (flag, path) against the others and against the
/// command's inputs, before any work is done.
pub fn check(outputs: &[(&'static str, &Path)], inputs: &[Input]) -> Result<(), Failure> {
    let mut checked: Vec<(Output, Identity)> = Vec::new();
    for &(flag, path) in outputs {
        let refuse = |why: String| Failure::input(format!("error: {flag} {}: {why}", path.display()));
        if path.as_os_str().is_empty() {
            return Err(refuse("an empty name; name a file".into()));
        }
        if path.is_dir() || path.as_os_str().to_string_lossy().ends_with('/') {
            return Err(refuse("it is a folder; name a file".into()));
        }
        let target = fsutil::target(path);
        if let Target::Replace(real) = &target {
            check_folder(real, &refuse)?;
            fsutil::remove_stale_temporaries(real);
        }
        // A device or a pipe is written through, whatever else uses it; a
        // named pipe that nothing reads would block the write for ever.
        if let Target::Through(real) = &target {
            if fsutil::pipe_without_reader(real) {
                return Err(refuse(
                    "it is a named pipe that nothing reads; start the program that reads it first".into(),
                ));
            }
            continue;
        }
        let id = Identity::of(path);
        for input in inputs {
            if Identity::of(&input.path).same(&id) {
                return Err(refuse(format!(
                    "it is {}{}, which this command reads; name another file",
                    input.what,
                    if input.path == path {
                        String::new()
                    } else {
                        format!(" ({}, by another name)", input.path.display())
                    }
                )));
            }
        }
        if let Target::Replace(real) = &target
            && is_game_file(real)
        {
            return Err(refuse(
                "it is a game file (it begins with `game NAME`), and gdl never writes over one; name another file"
                    .into(),
            ));
        }
        if let Some((other, _)) = checked.iter().find(|(_, other)| other.same(&id)) {
            return Err(Failure::input(format!(
                "error: {} and {flag} both name {}; give each its own file",
                other.flag,
                path.display()
            )));
        }
        checked.push((
            Output {
                flag,
                path: path.to_path_buf(),
            },
            id,
        ));
    }
    Ok(())
}

/// The folder of a file to be replaced exists, is writable, and takes its temporary name.
fn check_folder(real: &Path, refuse: &dyn Fn(String) -> Failure) -> Result<(), Failure> {
    let folder = fsutil::folder_of(real);
    if !folder.is_dir() {
        return Err(refuse(if folder.exists() {
            format!("{} is not a folder", folder.display())
        } else {
            format!("the folder {} does not exist", folder.display())
        }));
    }
    // `.NAME.PID.tmp`: a dot, a dot, up to 10 digits and `.tmp`.
    const ADDED: usize = 16;
    let name = real.file_name().map_or(0, |n| n.len());
    if name + ADDED > NAME_MAX {
        return Err(refuse(format!(
            "the name is too long ({name} bytes; gdl writes through a temporary file whose name adds up to {ADDED} bytes, so names may have at most {})",
            NAME_MAX - ADDED
        )));
    }
    let tmp = fsutil::temporary_name(real);
    // The same temporary file the write will make.
    match std::fs::File::create(&tmp) {
        Ok(_) => {
            let _ = std::fs::remove_file(&tmp);
            Ok(())
        }
        Err(e) => Err(refuse(format!("cannot write in {}: {e}", folder.display()))),
    }
}

/// Whether `path` is an existing game file: after an optional byte-order
/// mark, blank space and `//` comments, its text begins with the word `game`
/// and a name or a string, as the grammar's first line.
///
/// What the file holds decides, not its name: gdl reads a game file under
/// any name (`rules.txt`, a file without a suffix), so a `.game` suffix
/// would miss some, and a file named `.game` that holds something else (an
/// earlier output under a careless name) is not a game to keep. Neither a
/// Q-table (JSON), a CSV (`game,…`), an SVG nor a DOT file begins that way.
/// Only a regular file is read, and no further than the most a game file may
/// have.
pub(crate) fn is_game_file(path: &Path) -> bool {
    use std::io::Read;
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    if !meta.is_file() {
        return false;
    }
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::new();
    if file
        .take(crate::syntax::MAX_SOURCE_LEN as u64)
        .read_to_end(&mut head)
        .is_err()
    {
        return false;
    }
    begins_like_a_game(&head)
}

/// The text begins as a game file does (see [`is_game_file`]).
fn begins_like_a_game(text: &[u8]) -> bool {
    let text = text.strip_prefix("\u{feff}".as_bytes()).unwrap_or(text);
    let ident_char = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let rest = skip_blank(text);
    let Some(after) = rest.strip_prefix(b"game") else {
        return false;
    };
    if after.first().is_some_and(|&b| ident_char(b)) {
        return false;
    }
    match skip_blank(after).first() {
        Some(&b) => b == b'"' || b.is_ascii_alphabetic() || b == b'_',
        None => false,
    }
}

/// `text` after its leading blank space and `//` comments.
fn skip_blank(mut text: &[u8]) -> &[u8] {
    loop {
        let trimmed = text.trim_ascii_start();
        match trimmed.strip_prefix(b"//") {
            Some(comment) => {
                text = match comment.iter().position(|&b| b == b'\n') {
                    Some(end) => &comment[end..],
                    None => &[],
                };
            }
            None => return trimmed,
        }
    }
}

/// What tells two names of one file apart from two files: the device and
/// inode when the file exists, else its folder's and its own name.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Identity {
    Inode(u64, u64),
    Name(PathBuf),
}

impl Identity {
    fn of(path: &Path) -> Identity {
        if let Ok(m) = std::fs::metadata(path) {
            return Identity::Inode(m.dev(), m.ino());
        }
        let real = match fsutil::target(path) {
            Target::Replace(p) | Target::Through(p) => p,
        };
        let folder =
            std::fs::canonicalize(fsutil::folder_of(&real)).unwrap_or_else(|_| fsutil::folder_of(&real).into());
        Identity::Name(folder.join(real.file_name().unwrap_or_default()))
    }

    fn same(&self, other: &Identity) -> bool {
        self == other
    }
}

impl Output {
    /// Writes the whole file at the end of the work.
    pub fn write(&self, bytes: &[u8]) -> Result<(), Failure> {
        fsutil::write_atomic(&self.path, bytes).map_err(|e| self.failed(e))
    }

    /// Starts a file written piece by piece (a match's games as they end).
    pub fn stream(&self) -> Result<Writing, Failure> {
        Writing::start(&self.path).map_err(|e| self.failed(e))
    }

    /// The failure of a final write.
    pub fn failed(&self, e: std::io::Error) -> Failure {
        Failure {
            code: EXIT_WRITE,
            text: format!("error: cannot write {}: {e}", self.path.display()),
        }
    }
}

/// A CSV written as games end: each row flushed at once, so that what was
/// played is on disk when gdl is stopped or killed. A failed write stops
/// the rows and is reported by `finish`.
pub struct CsvStream {
    file: Writing,
    rows: u64,
    error: Option<std::io::Error>,
}

impl CsvStream {
    pub fn start(out: &Output) -> Result<CsvStream, Failure> {
        Ok(CsvStream {
            file: out.stream()?,
            rows: 0,
            error: None,
        })
    }

    /// Whether rows are still written (no write has failed).
    pub fn open(&self) -> bool {
        self.error.is_none()
    }

    /// The rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Writes `text` (one row, the header before the first) and flushes it.
    pub fn push(&mut self, text: &str) {
        use std::io::Write as _;
        match self.file.write_all(text.as_bytes()).and_then(|()| self.file.flush()) {
            Ok(()) => self.rows += 1,
            Err(e) => self.error = Some(e),
        }
    }

    /// The number of rows written, once the file is in place.
    pub fn finish(self) -> std::io::Result<u64> {
        if let Some(e) = self.error {
            return Err(e);
        }
        self.file.finish()?;
        Ok(self.rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_file_is_told_by_its_first_words() {
        for game in [
            "game Nim\n",
            "\u{feff}game Nim",
            "// Nim\n//\n\n  game \"X Nimmt!\"",
            "\r\n\tgame\r\n// the name\r\nnim_2",
            "game// name below\nNim",
        ] {
            assert!(begins_like_a_game(game.as_bytes()), "{game:?}");
        }
        for other in [
            "",
            "game",
            "game,random #1 seat,random #2 seat\n",
            "games are fun",
            "game 3",
            "{\"gdl\": \"q-table\"}",
            "<svg",
            "// game Nim",
            "/* game */ game Nim",
            "digraph game {",
        ] {
            assert!(!begins_like_a_game(other.as_bytes()), "{other:?}");
        }
    }
}
