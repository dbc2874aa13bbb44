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

/// One state's entry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Entry {
    pub(crate) score: Score,
    pub(crate) bound: Bound,
}

impl Entry {
    /// The entry for a fail-soft result `score` of a search with window
    /// `(alpha, beta)`: a result at or below alpha is only an upper bound, one
    /// at or above beta only a lower bound, anything between is exact.
    pub(crate) fn from_window(score: Score, alpha: Score, beta: Score) -> Entry {
        let bound = if score <= alpha {
            Bound::Upper
        } else if score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        Entry { score, bound }
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

    /// Records `entry`, replacing what was known: a new search is at least as
    /// informative for the window it was asked about.
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
