//! A strategy on disk: JSON that people can read and that stays valid across
//! builds of gdl, written by CFR training and read by a `policy:FILE` agent.
//!
//! Each information set is named as a player knows it (see
//! [`infotree`](super::infotree)): the observations at its decisions and
//! the moves it made there, as gdl prints them, ending with what it sees
//! now; each move has a probability. Like a Q-table (`qfile`), the file
//! records the game's name, its parameters and a hash of the game file's
//! text, and loading checks them, so that a strategy is never used for
//! another game, other parameters, or rules that have changed since.

use std::path::Path;

use indexmap::IndexMap;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::file_header::{Expected, read_checked};
use super::infotree::{InfoTree, Strategy};
use crate::fsutil::write_atomic;

/// What the `format` field of every strategy file says.
pub const FORMAT: &str = "gdl-strategy";
/// The version of the layout below; a file of another version is refused.
pub const VERSION: u32 = 1;
/// Probabilities of an information set must sum to 1 within this.
const SUM_SLACK: f64 = 1e-6;

pub use crate::game::GameId;

/// How a strategy was computed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Training {
    /// `cfr+`.
    pub algorithm: String,
    pub iterations: u64,
    /// Player 0's expected utility when both play the strategy.
    pub value: f64,
    /// Its exploitability (half the NashConv), measured by exact best responses.
    pub exploitability: f64,
    pub seconds: f64,
}

/// One information set and its move probabilities.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InfoSetEntry {
    /// The player's name.
    pub player: String,
    /// Observation, move, observation, ..., observation.
    pub history: Vec<String>,
    /// Move → probability, in legal-move order.
    pub moves: IndexMap<String, f64>,
}

/// The file, field by field, in the order it is written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StrategyFile {
    pub format: String,
    pub version: u32,
    pub game: String,
    pub file: String,
    pub source_hash: String,
    pub params: IndexMap<String, String>,
    pub players: Vec<String>,
    pub training: Training,
    pub infosets: usize,
    pub strategy: Vec<InfoSetEntry>,
}

crate::solve::learn::file_header::file_error! {
    /// A strategy file that cannot be loaded or saved.
    pub enum StrategyFileError in strategy {
        noun: "strategy",
        valid: "strategy",
        made: "computed",
        make: "compute a strategy",
        corrupt_help: "the file was damaged or edited; compute a new one with `gdl train --algorithm cfr`",
        format_help: "`gdl train --algorithm cfr --out FILE` writes strategies (format \"gdl-strategy\", version 1)",
        other_game_help: "compute a strategy for this game: gdl train FILE --algorithm cfr --out STRATEGY",
        changed_game_help: "compute the strategy again on the file as it is now",
    }
}

/// The file for `strategy` on `tree`, with moves written by `move_text`.
pub fn to_file<M>(
    tree: &InfoTree<M>,
    strategy: &Strategy,
    id: &GameId,
    training: Training,
    move_text: impl Fn(&M) -> String,
) -> StrategyFile {
    let strategy: Vec<InfoSetEntry> = tree
        .infosets
        .iter()
        .map(|set| InfoSetEntry {
            player: id.players[set.player].clone(),
            history: set.history.clone(),
            moves: set
                .moves
                .iter()
                .zip(strategy.of(set))
                .map(|(m, p)| (move_text(m), *p))
                .collect(),
        })
        .collect();
    StrategyFile {
        format: FORMAT.into(),
        version: VERSION,
        game: id.game.clone(),
        file: id.file.clone(),
        source_hash: id.source_hash.clone(),
        params: id.params.iter().cloned().collect(),
        players: id.players.clone(),
        training,
        infosets: strategy.len(),
        strategy,
    }
}

/// Writes `file` to `path`, atomically.
pub fn save(path: &Path, file: &StrategyFile) -> Result<(), StrategyFileError> {
    let unwritable = |reason: String| StrategyFileError::Unwritable {
        path: path.display().to_string(),
        reason,
    };
    let mut text = serde_json::to_string_pretty(file).map_err(|e| unwritable(e.to_string()))?;
    text.push('\n');
    write_atomic(path, text.as_bytes()).map_err(|e| unwritable(e.to_string()))
}

/// Reads a strategy for the game `id` from `path`, checking that it was
/// made for this game, these parameters and these rules, and that every
/// information set's probabilities are probabilities.
pub fn load(path: &Path, id: &GameId) -> Result<StrategyFile, StrategyFileError> {
    let shown = path.display().to_string();
    let corrupt = |reason: String| StrategyFileError::corrupt(&shown, reason);
    let expected = Expected::of(FORMAT, VERSION, id);
    let file: StrategyFile =
        read_checked(path, &expected).map_err(|e| StrategyFileError::from_header(e, &shown, id))?;
    if file.players != id.players {
        return Err(corrupt(format!(
            "it names the players {}, but the game has {}",
            file.players.join(", "),
            id.players.join(", ")
        )));
    }
    check_entries(&file).map_err(corrupt)?;
    Ok(file)
}

/// Every information set once, for a known player, with probabilities.
fn check_entries(file: &StrategyFile) -> Result<(), String> {
    if file.infosets != file.strategy.len() {
        return Err(format!(
            "it says it holds {} information sets, but holds {}",
            file.infosets,
            file.strategy.len()
        ));
    }
    let mut seen = FxHashMap::default();
    for (k, e) in file.strategy.iter().enumerate() {
        let at = || format!("information set {} ({})", k + 1, e.player);
        if !file.players.contains(&e.player) {
            return Err(format!("{}: `{}` is not a player of the game", at(), e.player));
        }
        if e.history.len() % 2 == 0 {
            return Err(format!(
                "{}: a history alternates observations and moves and ends with an observation",
                at()
            ));
        }
        if e.moves.is_empty() {
            return Err(format!("{}: it has no moves", at()));
        }
        if let Some((m, p)) = e.moves.iter().find(|(_, p)| !(p.is_finite() && **p >= 0.0)) {
            return Err(format!("{}: the move `{m}` has probability {p}", at()));
        }
        let total: f64 = e.moves.values().sum();
        if (total - 1.0).abs() > SUM_SLACK {
            return Err(format!("{}: its probabilities add up to {total}, not 1", at()));
        }
        if seen.insert((&e.player, &e.history), k).is_some() {
            return Err(format!("{}: it is in the file twice", at()));
        }
    }
    Ok(())
}

/// A player and what it knows: an information set's name.
type InfoSetKey = (usize, Vec<String>);

/// A loaded strategy, to look information sets up by what a player knows.
#[derive(Clone, Debug)]
pub struct Policy {
    players: Vec<String>,
    sets: FxHashMap<InfoSetKey, Vec<(String, f64)>>,
}

impl Policy {
    pub fn new(file: &StrategyFile) -> Self {
        let sets = file
            .strategy
            .iter()
            .map(|e| {
                let p = file.players.iter().position(|n| *n == e.player).unwrap_or(0);
                let moves = e.moves.iter().map(|(m, p)| (m.clone(), *p)).collect();
                ((p, e.history.clone()), moves)
            })
            .collect();
        Policy {
            players: file.players.clone(),
            sets,
        }
    }

    /// The moves and their probabilities in `player`'s information set
    /// `history` (observations and own moves, ending with an observation).
    pub fn get(&self, player: usize, history: &[String]) -> Option<&[(String, f64)]> {
        self.sets.get(&(player, history.to_vec())).map(Vec::as_slice)
    }

    /// The strategy on `tree`: every information set must be in the file,
    /// with the same moves.
    pub fn strategy_for<M>(&self, tree: &InfoTree<M>, move_text: impl Fn(&M) -> String) -> Result<Strategy, String> {
        let mut missing = None;
        let strategy = tree.strategy(|set| {
            let texts: Vec<String> = set.moves.iter().map(&move_text).collect();
            match self.get(set.player, &set.history) {
                Some(moves) if moves.iter().map(|(m, _)| m).eq(texts.iter()) => moves.iter().map(|(_, p)| *p).collect(),
                found => {
                    if missing.is_none() {
                        let name = self.players.get(set.player).map_or("?", String::as_str);
                        missing = Some(match found {
                            None => format!("{name}'s information set `{}` is not in it", set.history.join(" | ")),
                            Some(_) => format!(
                                "{name}'s information set `{}` has other moves than {}",
                                set.history.join(" | "),
                                texts.join(", ")
                            ),
                        });
                    }
                    vec![1.0 / texts.len() as f64; texts.len()]
                }
            }
        });
        match missing {
            Some(m) => Err(m),
            None => Ok(strategy),
        }
    }
}
