//! What the files that outlive a run share (Q-tables, `qfile`; strategies,
//! `strategy_file`; networks, `alphazero::file`): the header that says which
//! game, parameters and rules a file is for, the checks made on it when a
//! file is read, and the shape of their errors ([`file_error!`]: the same
//! cases, each kind of file in its own words and codes, its own advice).

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

impl<'a> Expected<'a> {
    /// What a file of `format` and `version` must say to be for the game `id`.
    pub(crate) fn of(format: &'a str, version: u32, id: &'a crate::game::GameId) -> Self {
        Expected {
            format,
            version,
            game: &id.game,
            params: &id.params,
            source_hash: &id.source_hash,
        }
    }
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

/// The error of a file that outlives a run (a Q-table, a strategy, a
/// network): the same seven cases for every kind of file, in its own words
/// and with its own diagnostic codes (`gdl::NS::unreadable`...), a kind's
/// own cases after them (`extra`), its exit codes (a file that cannot be
/// written fails after the work: `EXIT_RUNTIME`; any other is bad input),
/// and `from_header`, the error of a header that does not fit.
macro_rules! file_error {
    (
        $(#[$meta:meta])*
        pub enum $name:ident in $ns:ident {
            noun: $noun:literal,
            valid: $valid:literal,
            made: $made:literal,
            make: $make:literal,
            corrupt_help: $corrupt_help:literal,
            format_help: $format_help:literal,
            other_game_help: $other_game_help:literal,
            changed_game_help: $changed_game_help:literal,
            $($extra:tt)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, thiserror::Error, miette::Diagnostic)]
        pub enum $name {
            #[error("cannot read the {noun} {path}: {reason}", noun = $noun)]
            #[diagnostic(code(gdl::$ns::unreadable))]
            Unreadable { path: String, reason: String },

            #[error("cannot write the {noun} {path}: {reason}", noun = $noun)]
            #[diagnostic(code(gdl::$ns::unwritable))]
            Unwritable { path: String, reason: String },

            #[error("{path} is not a valid {valid}: {reason}", valid = $valid)]
            #[diagnostic(code(gdl::$ns::corrupt), help($corrupt_help))]
            Corrupt {
                path: String,
                reason: String,
                #[source_code]
                src: Option<miette::NamedSource<String>>,
                #[label("here")]
                at: Option<miette::SourceSpan>,
            },

            #[error("{path} is not a gdl {valid}: {reason}", valid = $valid)]
            #[diagnostic(code(gdl::$ns::format), help($format_help))]
            Format { path: String, reason: String },

            #[error("{path} was {made} for the game `{theirs}`, not `{ours}`", made = $made)]
            #[diagnostic(code(gdl::$ns::other_game), help($other_game_help))]
            OtherGame { path: String, theirs: String, ours: String },

            #[error("{path} was {made} with other parameters: {theirs}; this game has {ours}", made = $made)]
            #[diagnostic(code(gdl::$ns::other_params), help("{help}"))]
            OtherParams {
                path: String,
                theirs: String,
                ours: String,
                help: String,
            },

            #[error(
                "{path} was {made} on another version of the rules of `{game}`: the game file has changed since",
                made = $made
            )]
            #[diagnostic(code(gdl::$ns::changed_game), help($changed_game_help))]
            ChangedGame { path: String, game: String },

            $($extra)*
        }

        /// A file that cannot be read or does not fit is bad input; one that cannot
        /// be written fails after the work.
        impl $crate::error_kind::Exits for $name {
            fn exit_code(&self) -> i32 {
                match self {
                    $name::Unwritable { .. } => $crate::error_kind::EXIT_RUNTIME,
                    _ => $crate::error_kind::EXIT_INPUT,
                }
            }
        }

        impl $name {
            /// The file `path` is damaged: `reason`, with no place in it to show.
            pub(crate) fn corrupt(path: &str, reason: String) -> Self {
                $name::Corrupt {
                    path: path.to_string(),
                    reason,
                    src: None,
                    at: None,
                }
            }

            /// The error of the file `path`, whose header does not fit the game `id`.
            pub(crate) fn from_header(
                e: $crate::solve::learn::file_header::HeaderError,
                path: &str,
                id: &$crate::game::GameId,
            ) -> Self {
                use $crate::solve::learn::file_header::{HeaderError, other_params_help};
                use $crate::solve::learn::qfile::params_text;
                let path = path.to_string();
                match e {
                    HeaderError::Unreadable(reason) => $name::Unreadable { path, reason },
                    HeaderError::BrokenJson { reason, src, at } => $name::Corrupt {
                        path,
                        reason,
                        src: Some(src),
                        at: Some(at),
                    },
                    HeaderError::Format(reason) => $name::Format { path, reason },
                    HeaderError::Corrupt(reason) => $name::corrupt(&path, reason),
                    HeaderError::OtherGame(theirs) => $name::OtherGame {
                        path,
                        theirs,
                        ours: id.game.clone(),
                    },
                    HeaderError::OtherParams(theirs) => $name::OtherParams {
                        path,
                        theirs: params_text(&theirs),
                        ours: params_text(&id.params),
                        help: other_params_help(&theirs, $made, $make),
                    },
                    HeaderError::ChangedGame => $name::ChangedGame {
                        path,
                        game: id.game.clone(),
                    },
                }
            }
        }
    };
}
pub(crate) use file_error;
