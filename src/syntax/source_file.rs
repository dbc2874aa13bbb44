//! Reading a game file: once, never more than the largest file gdl accepts,
//! and as text whatever its line endings.
//!
//! The size is checked before reading (a 3 GB file is refused at once), and
//! what is read is bounded too, so `/dev/zero`, a pipe or `/dev/stdin` are
//! read once and stop at the limit. A UTF-8 byte-order mark is dropped, and
//! lone carriage returns (old Mac line endings) become newlines.

use std::fmt;
use std::path::Path;

use super::MAX_SOURCE_LEN;

/// Why a game file cannot be read, in words that finish "cannot read FILE: ".
#[derive(Debug)]
pub enum SourceError {
    Missing,
    Directory,
    /// More than [`MAX_SOURCE_LEN`] bytes (`None`: a stream, cut at the limit).
    TooLarge(Option<u64>),
    /// A named pipe that nothing wrote to.
    NoWriter,
    /// Not UTF-8: the first bad byte, by line and column (from 1).
    NotText {
        line: usize,
        column: usize,
    },
    Io(std::io::Error),
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceError::Missing => f.write_str("there is no such file"),
            SourceError::Directory => f.write_str("it is a directory, not a .game file"),
            SourceError::TooLarge(Some(n)) => write!(
                f,
                "it has {} bytes, and a game file may have at most {} (1 MiB); is this the right file? \
                 a game's rules fit in a few kilobytes",
                crate::digits::thousands(*n),
                crate::digits::thousands(MAX_SOURCE_LEN as u64)
            ),
            SourceError::TooLarge(None) => write!(
                f,
                "it goes on past {} bytes (1 MiB), the most a game file may have",
                crate::digits::thousands(MAX_SOURCE_LEN as u64)
            ),
            SourceError::NoWriter => write!(
                f,
                "it is a named pipe, and nothing wrote to it within {} s; start the program that writes it first",
                crate::fsutil::PIPE_WAIT.as_secs()
            ),
            SourceError::NotText { line, column } => write!(
                f,
                "it is not a text file: the byte at line {line}, column {column} is not UTF-8"
            ),
            SourceError::Io(e) if e.kind() == std::io::ErrorKind::PermissionDenied => f.write_str("permission denied"),
            SourceError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// The text of the game file at `path`, read once, ready to parse.
pub fn read_source(path: &Path) -> Result<String, SourceError> {
    use crate::fsutil::{ReadError, Streams, read_bounded};
    let bytes = read_bounded(path, MAX_SOURCE_LEN as u64, Streams::Allowed).map_err(|e| match e {
        ReadError::Missing => SourceError::Missing,
        ReadError::Directory => SourceError::Directory,
        ReadError::TooLarge(n) => SourceError::TooLarge(n),
        ReadError::NoWriter => SourceError::NoWriter,
        ReadError::NotAFile(what) => SourceError::Io(std::io::Error::other(format!("it is {what}"))),
        ReadError::Io(e) => SourceError::Io(e),
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&good[line_start..]).chars().count() + 1;
        SourceError::NotText { line, column }
    })?;
    Ok(normalize(text))
}

/// The text without a byte-order mark, with lone carriage returns as newlines.
pub fn normalize(text: String) -> String {
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    };
    if !text.contains('\r') {
        return text;
    }
    // `\r\n` stays as it is; a `\r` on its own ends a line.
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() != Some(&'\n') {
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_endings_and_the_byte_order_mark() {
        assert_eq!(normalize("\u{feff}game X\r\n".into()), "game X\r\n");
        assert_eq!(normalize("a\rb\r\nc\r".into()), "a\nb\r\nc\n");
        assert_eq!(normalize("plain\n".into()), "plain\n");
    }

    #[test]
    fn devices_are_read_once_and_no_further_than_the_limit() {
        match read_source(Path::new("/dev/zero")) {
            Err(SourceError::TooLarge(None)) => {}
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            read_source(Path::new("/no/such/file.game")),
            Err(SourceError::Missing)
        ));
    }
}
