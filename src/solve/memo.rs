//! The memo (transposition) table: what is known about each state searched.

use std::hash::Hash;

use rustc_hash::FxHashMap;

use super::score::Score;

/// How a stored score relates to the state's true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this (the search failed high: score >= beta).
    Lower,
    /// The true score is at most this (the search failed low: score <= alpha).
    Upper,
}

/// `Entry::best` of a state without moves.
pub(crate) const NO_MOVE: u32 = u32::MAX;

/// One state's entry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Entry {
    pub(crate) score: Score,
    pub(crate) bound: Bound,
    /// Whether `best` is the first move, in legal-move order, whose child
    /// scores `score`: only for exact entries whose earlier moves were all
    /// searched. The principal line follows these moves.
    pub(crate) first: bool,
    /// The index, in legal-move order, of the move that gave `score`
    /// ([`NO_MOVE`] at a terminal state); searched first when the state is
    /// searched again with another window.
    pub(crate) best: u32,
}

impl Entry {
    /// The entry of a terminal state, or of a state whose exact score came
    /// from its first best move in legal order.
    pub(crate) fn exact(score: Score, best: u32) -> Entry {
        Entry {
            score,
            bound: Bound::Exact,
            first: true,
            best,
        }
    }
}

/// A transposition table keyed by the state itself (which includes the
/// player to move), so two positions never share an entry.
///
/// Scores are stored relative to the state (a distance to the end counts from
/// the state, not from the root), so an entry is valid wherever the state recurs.
#[derive(Debug)]
pub(crate) struct Memo<S> {
    table: FxHashMap<S, Entry>,
    /// Probes answered without a search.
    pub(crate) hits: u64,
}

impl<S: Eq + Hash + Clone> Memo<S> {
    pub(crate) fn new() -> Self {
        Memo {
            table: FxHashMap::default(),
            hits: 0,
        }
    }

    pub(crate) fn get(&self, state: &S) -> Option<Entry> {
        self.table.get(state).copied()
    }

    /// Records `entry`, replacing what was known: a state is searched again
    /// only when its entry did not settle the window asked about, and the new
    /// search answers that window.
    pub(crate) fn store(&mut self, state: &S, entry: Entry) {
        if let Some(slot) = self.table.get_mut(state) {
            *slot = entry;
        } else {
            self.table.insert(state.clone(), entry);
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.table.len()
    }
}
