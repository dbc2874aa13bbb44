//! The text of a `.game` file → a typed syntax tree with spans.

pub mod ast;
pub mod file_error;
mod nesting;
mod parser;
pub mod source_file;
mod syntax_kind;

pub use nesting::MAX_NESTING;
pub use syntax_kind::SyntaxKind;

use ast::{Span, SyntaxTree};
use file_error::FileError;

/// The largest game file gdl reads, in bytes.
pub const MAX_SOURCE_LEN: usize = 1 << 20;

/// The parser's stack: room for every file gdl accepts, with pest's guard
/// ending deeper ones. Only the part that is used takes memory, but all of it
/// takes address space, so it is no larger than that.
const PARSE_STACK: usize = 64 << 20;

/// Parses `source`, refusing files that are too large or nested too deeply.
pub fn parse(source: &str) -> Result<SyntaxTree, FileError> {
    if source.len() > MAX_SOURCE_LEN {
        return Err(FileError::new(
            SyntaxKind::TooLarge,
            format!(
                "this file has {} bytes; a game file may have at most {} (1 MiB)",
                source.len(),
                MAX_SOURCE_LEN
            ),
            Span::new(0, 0),
            "the file starts here",
        )
        .with_help("is this the right file? a game's rules fit in a few kilobytes"));
    }
    let readable = same_length_text(source);
    let source: &str = &readable;
    // Small files cannot nest deeply enough to need the large stack.
    if source.len() < 2_000 {
        return nesting::checked(source);
    }
    let parsed = std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("gdl-parse".into())
            .stack_size(PARSE_STACK)
            .spawn_scoped(s, || nesting::checked(source))
            .ok()
            .map(|h| h.join())
    });
    match parsed {
        Some(Ok(result)) => result,
        Some(Err(panic)) => std::panic::resume_unwind(panic),
        // No thread could be made: parse here.
        None => nesting::checked(source),
    }
}

/// `source` as the parser reads it, byte for byte as long, so that every span
/// holds for the original too: a byte-order mark as three spaces, a lone
/// carriage return as a newline. (Files gdl reads itself are cleaned by
/// `source_file::read_source`; this is for text handed to `parse`.)
fn same_length_text(source: &str) -> std::borrow::Cow<'_, str> {
    let bom = source.starts_with('\u{feff}');
    let bytes = source.as_bytes();
    let lone_cr = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    if !bom && !(0..bytes.len()).any(lone_cr) {
        return std::borrow::Cow::Borrowed(source);
    }
    let mut out: Vec<u8> = bytes.to_vec();
    if bom {
        out[..3].copy_from_slice(b"   ");
    }
    for (i, b) in out.iter_mut().enumerate() {
        if bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n') {
            *b = b'\n';
        }
    }
    // ASCII replaced ASCII, and the mark's three bytes three spaces.
    std::borrow::Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| source.to_string()))
}
