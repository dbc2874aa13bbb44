//! The games of games/, compiled into `gdl` (the table is written by
//! build.rs): `gdl solve nim` works in any folder, and after `cargo install`.
//! A path that exists always wins over a bundled name.

use std::path::Path;

use crate::syntax::source_file::{SourceError, read_source};

include!(concat!(env!("OUT_DIR"), "/bundled_games.rs"));

/// The bundled game a command-line name means (or `gdl.load`'s, from Python): `nim`, `nim.game`, or
/// `games/nim.game` (the README's commands, run outside the checkout).
pub fn bundled(path: &Path) -> Option<(&'static str, &'static str)> {
    let text = path.to_str()?;
    let name = text.strip_prefix("games/").unwrap_or(text);
    let name = name.strip_suffix(".game").unwrap_or(name);
    BUNDLED_GAMES.iter().copied().find(|(n, _)| *n == name)
}

/// A note when `path` was read as a bundled game while a different file
/// `NAME.game` lies in the current folder: `gdl solve nim` beside an edited
/// `nim.game` solves the bundled Nim, and says so.
pub(crate) fn shadow_note(path: &Path) -> Option<String> {
    if path.is_dir() {
        let (name, _) = bundled(path)?;
        return Some(format!(
            "note: {} here is a folder, not a game file; gdl read the game `{name}` bundled with it",
            path.display()
        ));
    }
    if path.exists() {
        return None;
    }
    let (name, text) = bundled(path)?;
    let spelled = path.to_str()?;
    if spelled.ends_with(".game") {
        return None;
    }
    let beside = format!("{spelled}.game");
    let here = Path::new(&beside);
    if !here.is_file() || read_source(here).is_ok_and(|t| t == text) {
        return None;
    }
    let which = if name == spelled {
        "the game".to_string()
    } else {
        format!("the game `{name}`")
    };
    Some(format!(
        "note: `{spelled}` is {which} bundled with gdl; {beside} in this folder differs and was not read (to use the file, name it: {beside})"
    ))
}

/// Every bundled game: (name, the file's text), sorted by name. The Python
/// package loads them by name, as the command line does.
pub fn games() -> &'static [(&'static str, &'static str)] {
    BUNDLED_GAMES
}

/// The names of the bundled games, comma-separated.
pub fn names() -> String {
    let names: Vec<&str> = BUNDLED_GAMES.iter().map(|(n, _)| *n).collect();
    names.join(", ")
}

/// Why [`read`] found no game.
#[derive(Debug)]
pub enum ReadError {
    /// Nothing at the path, and no game of that name is bundled.
    NotFound(SourceError),
    /// Something at the path that cannot be read as a game file.
    Unreadable(SourceError),
}

/// Reads a game: the file at `path` if there is one, else the bundled game
/// of that name (also where `path` is a folder named like a bundled game:
/// `chess/` of someone's own work is no game file).
pub fn read(path: &Path) -> Result<String, ReadError> {
    let e = match read_source(path) {
        Ok(text) => return Ok(text),
        Err(e) => e,
    };
    match (e, bundled(path)) {
        (SourceError::Missing | SourceError::Directory, Some((_, text))) => Ok(text.to_string()),
        (e @ SourceError::Missing, None) => Err(ReadError::NotFound(e)),
        (e, _) => Err(ReadError::Unreadable(e)),
    }
}

/// [`read`], for the command line: `Err` says why neither a file nor a
/// bundled game exists, naming the bundled games.
pub(crate) fn read_game(path: &Path) -> Result<String, String> {
    read(path).map_err(|e| match e {
        ReadError::NotFound(e) => format!(
            "{e}, and no game of that name is bundled with gdl ({}; `gdl list` describes them)",
            names()
        ),
        ReadError::Unreadable(e) => e.to_string(),
    })
}

/// The first sentence of the comment that opens the file (up to `.` or `:`
/// outside parentheses, so that "(H. W. Kuhn, 1950)" stays whole), else the
/// game's name.
pub(crate) fn describe(text: &str) -> String {
    let comment: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| l.starts_with("//"))
        .map(|l| l.trim_start_matches('/').trim())
        .collect();
    let joined = comment.join(" ");
    let mut depth = 0i32;
    let mut end = joined.len();
    let bytes = joined.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'.' | b':' if depth <= 0 && bytes.get(i + 1).is_none_or(|n| *n == b' ') => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    let first = joined[..end].trim_end_matches(['.', ':']).trim();
    if !first.is_empty() {
        return first.to_string();
    }
    crate::syntax::parse(text).map(|ast| ast.name).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_of_games_is_bundled_under_its_name() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "game"))
            .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        let bundled: Vec<&str> = BUNDLED_GAMES.iter().map(|(n, _)| *n).collect();
        assert_eq!(bundled, on_disk);
        for (name, text) in BUNDLED_GAMES {
            let file = std::fs::read_to_string(dir.join(format!("{name}.game"))).unwrap();
            assert_eq!(*text, file, "{name}");
        }
    }

    #[test]
    fn names_resolve_with_or_without_folder_and_extension() {
        for spelled in ["nim", "nim.game", "games/nim.game"] {
            assert_eq!(bundled(Path::new(spelled)).map(|(n, _)| n), Some("nim"), "{spelled}");
        }
        assert!(bundled(Path::new("other/nim.game")).is_none());
        assert!(bundled(Path::new("nope")).is_none());
    }
}
