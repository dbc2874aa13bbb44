//! A Q-table on disk: JSON that people can read and that stays valid across
//! builds of gdl, because it names positions and moves as gdl prints them
//! (`"[1, 3, 5, 7]; MAX to move"`, `"(3, 2)"`), never by internal numbers.
//!
//! The file records what the table is good for: the game's name, its
//! parameters, a hash of the game file's text, and how it was trained. Loading
//! checks each of them, so a table is never used for another game, other
//! parameters, or rules that have changed since.

use std::collections::HashMap;
use std::path::Path;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::file_header::{Expected, read_checked};
use super::qlearn::{QAgent, QTable};
use crate::fsutil::write_atomic;
use crate::game::{FileGame, Turn};

/// What the `format` field of every Q-table file says.
pub const FORMAT: &str = "gdl-qtable";
/// The version of the layout below; a file of another version is refused.
pub const VERSION: u32 = 1;

/// How a table was trained (the last run, and in all).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Training {
    pub alpha: f64,
    pub epsilon: f64,
    pub seed: u64,
    /// Games played in the last run.
    pub episodes: u64,
    /// Games played in all runs, `--init` included.
    pub total_episodes: u64,
    /// Whether the last run was stopped (Ctrl-C) before all its games.
    pub interrupted: bool,
}

/// The file, field by field, in the order it is written.
#[derive(Serialize, Deserialize)]
struct QFile {
    format: String,
    version: u32,
    game: String,
    /// The game file as it was named when training; for people only.
    file: String,
    /// FNV-1a (64 bits) of the game file's text, in hex: any change to the
    /// rules (or comments) makes the table refuse to load.
    source_hash: String,
    params: IndexMap<String, String>,
    players: Vec<String>,
    training: Training,
    positions: usize,
    values: usize,
    /// Position → move → value for the player to move there.
    table: IndexMap<String, IndexMap<String, f64>>,
}

crate::solve::learn::file_header::file_error! {
    /// A Q-table that cannot be loaded or saved.
    pub enum QFileError in qtable {
        noun: "Q-table",
        valid: "Q-table",
        made: "trained",
        make: "train a table",
        corrupt_help: "the file was damaged or edited; train a new table with `gdl train`",
        format_help: "`gdl train --out FILE` writes Q-tables (format \"gdl-qtable\", version 1)",
        other_game_help: "train a table for this game: gdl train FILE --out TABLE",
        changed_game_help: "train again on the file as it is now (`gdl train ... --init` cannot reuse the old table either)",
    }
}

pub use crate::game::fnv1a64;

pub(crate) fn params_text(params: &[(String, String)]) -> String {
    if params.is_empty() {
        return "no parameters".into();
    }
    params
        .iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes `table` for `game` to `path`, atomically. Positions are written in
/// the order of their states, moves in legal-move order, so the same table
/// always gives the same bytes.
pub fn save<G: FileGame>(path: &Path, game: &G, table: &QTable<G>, training: &Training) -> Result<(), QFileError>
where
    G::State: Ord,
{
    let unwritable = |reason: String| QFileError::Unwritable {
        path: path.display().to_string(),
        reason,
    };
    let mut states: Vec<_> = table.iter().collect();
    states.sort_by(|a, b| a.0.cmp(b.0));
    let initial = game
        .initial_state()
        .map_err(|e| unwritable(format!("the rules failed: {e}")))?;
    let mut rows: IndexMap<String, IndexMap<String, f64>> = IndexMap::with_capacity(states.len());
    let mut moves = Vec::new();
    for (state, values) in states {
        game.legal_moves(state, &mut moves)
            .map_err(|e| unwritable(format!("the rules failed: {e}")))?;
        let row: IndexMap<String, f64> = moves.iter().zip(values).map(|(m, v)| (game.move_text(m), *v)).collect();
        let text = game.position(state);
        // Two states print alike only when one is the start (where nobody has
        // moved yet) and the other the same board later; the start wins.
        if !rows.contains_key(&text) || *state == initial {
            rows.insert(text, row);
        }
    }
    let values: usize = rows.values().map(IndexMap::len).sum();
    let id = game.id();
    let file = QFile {
        format: FORMAT.into(),
        version: VERSION,
        game: id.game,
        file: id.file,
        source_hash: id.source_hash,
        params: id.params.into_iter().collect(),
        players: id.players,
        training: training.clone(),
        positions: rows.len(),
        values,
        table: rows,
    };
    let mut text = serde_json::to_string_pretty(&file).map_err(|e| unwritable(e.to_string()))?;
    text.push('\n');
    write_atomic(path, text.as_bytes()).map_err(|e| unwritable(e.to_string()))
}

/// The largest value a table may hold: far beyond any game's utility, far
/// below where learning's arithmetic would overflow.
pub const MAX_VALUE: f64 = 1e15;

/// Reads a Q-table for `game` from `path`, checking that it was made for this
/// game, these parameters and these rules.
pub fn load<G: FileGame>(path: &Path, game: &G) -> Result<(QTable<G>, Training), QFileError> {
    let shown = path.display().to_string();
    let unreadable = |reason: String| QFileError::Unreadable {
        path: shown.clone(),
        reason,
    };
    // Parsed, a table takes several times its size: one too large for the
    // memory limit is refused before it is read.
    if let Ok(m) = std::fs::metadata(path)
        && m.is_file()
        && !crate::memory::fits(usize::try_from(m.len()).unwrap_or(usize::MAX).saturating_mul(6))
    {
        return Err(unreadable(format!(
            "it holds {}, too much to read within the memory limit ({}); raise --max-memory",
            crate::memory::Size(usize::try_from(m.len()).unwrap_or(usize::MAX)),
            crate::memory::limit_text()
        )));
    }
    let corrupt = |reason: String| QFileError::corrupt(&shown, reason);
    let prog = game.id();
    let expected = Expected::of(FORMAT, VERSION, &prog);
    let file: QFile = read_checked(path, &expected).map_err(|e| QFileError::from_header(e, &shown, &prog))?;
    // A position's text does not tell who moved last, so the start (where
    // nobody has) reads back as a state where the last player moved; it is
    // mapped back to the real start.
    let initial = game
        .initial_state()
        .map_err(|e| corrupt(format!("the rules failed: {e}")))?;
    let start_as_read = game.parse_position(&game.position(&initial)).ok();
    let mut table = QTable::new();
    let mut moves = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for (position, row) in file.table {
        let state = game
            .parse_position(&position)
            .map_err(|e| corrupt(format!("`{position}` is not a position of {}: {e}", prog.game)))?;
        let state = if start_as_read.as_ref() == Some(&state) {
            initial.clone()
        } else {
            state
        };
        let playing = matches!(game.turn(&state), Ok(Turn::Player(_)));
        if !playing {
            return Err(corrupt(format!("in `{position}` nobody has a move to choose")));
        }
        if table.get(&state).is_some() {
            return Err(corrupt(format!("the position `{position}` is in the table twice")));
        }
        game.legal_moves(&state, &mut moves)
            .map_err(|e| corrupt(format!("the rules failed in `{position}`: {e}")))?;
        index.clear();
        index.extend(moves.iter().enumerate().map(|(i, m)| (game.move_text(m), i)));
        let mut values = vec![0.0; moves.len()];
        for (mv, q) in row {
            let Some(&i) = index.get(&mv) else {
                return Err(corrupt(format!("`{mv}` is not a legal move in `{position}`")));
            };
            // Learning adds and subtracts values: far beyond any utility they
            // would overflow to infinity, which JSON cannot even write.
            if q.is_nan() || q.abs() > MAX_VALUE {
                return Err(corrupt(format!(
                    "the value {q:?} of `{mv}` in `{position}` is beyond ±{MAX_VALUE:e}, the values a table may hold"
                )));
            }
            values[i] = q;
        }
        table.insert(state, values);
    }
    if table.positions() != file.positions || table.len() != file.values {
        return Err(corrupt(format!(
            "it says it holds {} positions and {} values, but holds {} and {}",
            file.positions,
            file.values,
            table.positions(),
            table.len()
        )));
    }
    Ok((table, file.training))
}

/// Loads the agent `q:FILE` for `game`.
pub fn load_agent<G: FileGame>(path: &Path, game: &G) -> Result<QAgent<G>, QFileError> {
    let (table, _) = load(path, game)?;
    Ok(QAgent::new(format!("q:{}", path.display()), table))
}

/// A parameter value as a flag takes it: `[1, 3, 5, 7]` is written `1,3,5,7`.
pub(crate) fn flag_value(v: &str) -> String {
    let inner = v.strip_prefix('[').and_then(|s| s.strip_suffix(']')).unwrap_or(v);
    inner.replace(' ', "")
}

/// The byte offset of a 1-based line and column.
pub(crate) fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + column.saturating_sub(1)).min(text.len())
}

/// serde_json ends its messages with " at line L column C"; the label shows that.
pub(crate) fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_is_the_published_function() {
        // Test vectors of FNV-1a 64.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn flag_values_drop_brackets_and_spaces() {
        assert_eq!(flag_value("[1, 3, 5, 7]"), "1,3,5,7");
        assert_eq!(flag_value("4"), "4");
    }

    #[test]
    fn offsets_count_lines_from_one() {
        let text = "ab\ncde\nf";
        assert_eq!(offset_of(text, 1, 1), 0);
        assert_eq!(offset_of(text, 2, 2), 4);
        assert_eq!(offset_of(text, 9, 9), text.len());
    }
}
