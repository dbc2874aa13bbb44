//! What Q-table files (`qfile`) and strategy files (`strategy_file`) share:
//! the header that says which game, parameters and rules a file is for, and
//! the checks made on it when a file is read. Each file type turns a
//! [`HeaderError`] into its own diagnostic, with its own advice.

use std::path::Path;

use indexmap::IndexMap;
use miette::{NamedSource, SourceSpan};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::qfile::{flag_value, offset_of, strip_position};

/// What a file must say about itself to be used here.
pub(crate) struct Expected<'a> {
    /// The `format` field: `gdl-qtable`, `gdl-strategy`.
    pub format: &'a str,
    pub version: u32,
    pub game: &'a str,
    pub params: &'a [(String, String)],
    pub source_hash: &'a str,
}

/// Why a file's header does not fit.
#[derive(Debug)]
pub(crate) enum HeaderError {
    Unreadable(String),
    /// Not JSON at all: the parser's reason and where it stopped.
    BrokenJson {
        reason: String,
        src: NamedSource<String>,
        at: SourceSpan,
    },
    /// Another kind of file, or another version of this one.
    Format(String),
    Corrupt(String),
    OtherGame(String),
    OtherParams(Vec<(String, String)>),
    ChangedGame,
}

/// The fields every file starts with. Read from the text, never through a
/// `serde_json::Value`, whose objects sort their keys: the parameters'
/// order is part of what is compared.
#[derive(Deserialize)]
struct Header {
    game: String,
    source_hash: String,
    params: IndexMap<String, String>,
}

/// Reads `path` as a file of the kind `expected` describes, checks its
/// format, version, game, parameters and rules, then reads all of it as `T`.
pub(crate) fn read_checked<T: DeserializeOwned>(path: &Path, expected: &Expected<'_>) -> Result<T, HeaderError> {
    let shown = path.display().to_string();
    let text = read_text(path)?;
    // First as any JSON, so that a file that is not of this kind at all is
    // told apart from a damaged one.
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        let at = offset_of(&text, e.line(), e.column());
        HeaderError::BrokenJson {
            reason: format!("broken JSON: {}", strip_position(&e.to_string())),
            src: NamedSource::new(&shown, text.clone()),
            at: SourceSpan::new(at.into(), 0),
        }
    })?;
    let format = value.get("format").and_then(|f| f.as_str());
    if format != Some(expected.format) {
        return Err(HeaderError::Format(match format {
            Some(f) => format!("its format is \"{f}\""),
            None => format!("it has no \"format\": \"{}\" field", expected.format),
        }));
    }
    match value.get("version").and_then(|v| v.as_u64()) {
        Some(v) if v == u64::from(expected.version) => {}
        Some(v) => {
            return Err(HeaderError::Format(format!(
                "it is version {v} of the format; this gdl reads version {}",
                expected.version
            )));
        }
        None => {
            return Err(HeaderError::Corrupt(
                "the \"version\" field is missing or not a number".into(),
            ));
        }
    }
    drop(value);
    let header: Header =
        serde_json::from_str(&text).map_err(|e| HeaderError::Corrupt(strip_position(&e.to_string())))?;
    if header.game != expected.game {
        return Err(HeaderError::OtherGame(header.game));
    }
    let theirs: Vec<(String, String)> = header.params.into_iter().collect();
    if theirs != expected.params {
        return Err(HeaderError::OtherParams(theirs));
    }
    if header.source_hash != expected.source_hash {
        return Err(HeaderError::ChangedGame);
    }
    serde_json::from_str(&text).map_err(|e| HeaderError::Corrupt(strip_position(&e.to_string())))
}

/// The text of a table or strategy file: a regular file, refused before a
/// byte is read when its parsed form (several times its size) would not fit
/// in the memory gdl may use, so that `/dev/zero` or a huge file named by
/// mistake costs nothing. The command line checks this against its cap
/// first; the library in another program (Python) has no cap, and takes
/// the memory available.
fn read_text(path: &Path) -> Result<String, HeaderError> {
    use crate::fsutil::{ReadError, Streams, read_bounded};
    let memory = crate::memory::limit()
        .or_else(|| crate::memory::default_limit(0).map(|(bytes, _)| bytes))
        .unwrap_or(usize::MAX);
    let most = (memory / 6) as u64;
    let bytes = read_bounded(path, most, Streams::Refused).map_err(|e| {
        HeaderError::Unreadable(match e {
            ReadError::Missing => "there is no such file".into(),
            ReadError::Directory => "it is a folder, not a file".into(),
            ReadError::TooLarge(Some(n)) => format!(
                "it holds {}, too much to read within the memory gdl may use ({})",
                crate::memory::Size(n as usize),
                crate::memory::Size(memory)
            ),
            ReadError::TooLarge(None) | ReadError::NoWriter => "it is not a regular file".into(),
            ReadError::NotAFile(what) => format!("it is {what}, not a file that gdl wrote"),
            ReadError::Io(e) => e.to_string(),
        })
    })?;
    String::from_utf8(bytes).map_err(|_| HeaderError::Unreadable("it is not a text file (not UTF-8)".into()))
}

/// Advice for a file made with other parameters: the flags that load it, or
/// `make` (`train a table`) with these.
pub(crate) fn other_params_help(theirs: &[(String, String)], made: &str, make: &str) -> String {
    if theirs.is_empty() {
        return format!("{make} with these parameters");
    }
    format!(
        "load it with the parameters it was {made} with ({}), or {make} with these",
        theirs
            .iter()
            .map(|(k, v)| format!("--{k} {}", flag_value(v)))
            .collect::<Vec<_>>()
            .join(" ")
    )
}
