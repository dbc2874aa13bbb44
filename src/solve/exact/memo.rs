//! The memo (transposition) table: what is known about each state searched.

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHasher};

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

/// An entry as the table keeps it: 16 bytes instead of 24. A distance to the
/// end fits an `i32` and a move index a `u16` in any game small enough to
/// solve; an entry that does not fit is not kept (see [`Memo::store`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Packed {
    value: f64,
    key: i32,
    /// `u16::MAX`: no move, or one whose index does not fit.
    best: u16,
    bound: Bound,
    first: bool,
}

/// `Packed::key` of an entry being searched by one thread of a parallel
/// solve ([`Packed::PENDING`]); never a real distance (see [`Packed::pack`]).
const PENDING_KEY: i32 = i32::MIN;

impl Packed {
    /// A position that a thread of a parallel solve is searching: the others
    /// search elsewhere first. Never returned by [`Memo::get`].
    pub(crate) const PENDING: Packed = Packed {
        value: 0.0,
        key: PENDING_KEY,
        best: u16::MAX,
        bound: Bound::Exact,
        first: false,
    };

    pub(crate) fn is_pending(&self) -> bool {
        self.key == PENDING_KEY
    }

    pub(crate) fn pack(e: Entry) -> Option<Packed> {
        let key = i32::try_from(e.score.key).ok().filter(|&k| k != PENDING_KEY)?;
        let best = u16::try_from(e.best).ok().filter(|&b| b != u16::MAX);
        Some(Packed {
            value: e.score.value,
            key,
            best: best.unwrap_or(u16::MAX),
            bound: e.bound,
            // The principal line needs the move itself.
            first: e.first && (best.is_some() || e.best == NO_MOVE),
        })
    }

    pub(crate) fn unpack(self) -> Entry {
        Entry {
            score: Score {
                value: self.value,
                key: i64::from(self.key),
            },
            bound: self.bound,
            first: self.first,
            best: if self.best == u16::MAX {
                NO_MOVE
            } else {
                u32::from(self.best)
            },
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
    table: FxHashMap<S, Packed>,
    /// The table of a parallel solve, in the shards its threads filled
    /// ([`shard_of`] says which holds a state); `table` is then empty.
    /// Kept as they are: merging millions of entries into one map would
    /// cost a second on one thread.
    shards: Vec<FxHashMap<S, Packed>>,
    /// Probes answered without a search.
    pub(crate) hits: u64,
}

/// How many shards a parallel solve's table has: enough that threads
/// seldom wait on one another's lock, few enough that each grows as one
/// table would (memory per position stays that of one table).
pub(crate) const SHARDS: usize = 256;

/// The shard of the parallel table that holds `state`.
#[inline]
pub(crate) fn shard_of<S: Hash>(state: &S) -> usize {
    shard_of_hash(hash_of(state))
}

/// The hash [`shard_of`] picks a shard by.
#[inline]
pub(crate) fn hash_of<S: Hash + ?Sized>(state: &S) -> u64 {
    let mut h = FxHasher::default();
    state.hash(&mut h);
    h.finish()
}

/// The shard of a state whose [`hash_of`] is `hash`.
#[inline]
pub(crate) fn shard_of_hash(hash: u64) -> usize {
    // Mixed first: FxHash's bits depend on its input's low bits alone up
    // to their own position, and a game's states often differ only in
    // their later cells. Unmixed, bits 40 to 47 put half of Nimcala 10/10's
    // positions in 5 of 256 shards, and 16 threads spent two thirds of
    // their time waiting on those shards' locks. Mixed, the shard is still
    // no function of the low bits alone, which pick a bucket inside it,
    // nor of the top 7, hashbrown's tag for a bucket (shared by a whole
    // shard, it would make a probe compare the state with every full
    // bucket it passes instead of those whose tag matches).
    (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize % SHARDS
}

impl<S: Eq + Hash + Clone> Memo<S> {
    pub(crate) fn new() -> Self {
        Memo {
            table: FxHashMap::default(),
            shards: Vec::new(),
            hits: 0,
        }
    }

    /// The table a parallel solve filled, shard by shard (see [`shard_of`]).
    pub(crate) fn from_shards(shards: Vec<FxHashMap<S, Packed>>) -> Self {
        debug_assert_eq!(shards.len(), SHARDS);
        Memo {
            table: FxHashMap::default(),
            shards,
            hits: 0,
        }
    }

    #[inline]
    fn map(&self, state: &S) -> &FxHashMap<S, Packed> {
        if self.shards.is_empty() {
            &self.table
        } else {
            &self.shards[shard_of(state)]
        }
    }

    #[inline]
    fn map_mut(&mut self, state: &S) -> &mut FxHashMap<S, Packed> {
        if self.shards.is_empty() {
            &mut self.table
        } else {
            &mut self.shards[shard_of(state)]
        }
    }

    pub(crate) fn get(&self, state: &S) -> Option<Entry> {
        self.map(state)
            .get(state)
            .filter(|p| !p.is_pending())
            .map(|p| p.unpack())
    }

    /// Records `entry`, replacing what was known: a state is searched again
    /// only when its entry did not settle the window asked about, and the new
    /// search answers that window. An entry too large to pack is dropped (and
    /// the state searched again when it recurs).
    pub(crate) fn store(&mut self, state: &S, entry: Entry) {
        let table = self.map_mut(state);
        let Some(packed) = Packed::pack(entry) else {
            table.remove(state);
            return;
        };
        if let Some(slot) = table.get_mut(state) {
            *slot = packed;
        } else {
            table.insert(state.clone(), packed);
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.table.len() + self.shards.iter().map(FxHashMap::len).sum::<usize>()
    }

    /// Bytes one table slot takes, besides what the state owns on the heap:
    /// the state and its entry side by side, and the hash table's control byte.
    pub(crate) fn slot_bytes() -> usize {
        std::mem::size_of::<(S, Packed)>() + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_pack_into_16_bytes_and_back() {
        assert_eq!(std::mem::size_of::<Packed>(), 16);
        let mut memo = Memo::new();
        let entries = [
            Entry::exact(Score::terminal(-1.0), NO_MOVE),
            Entry {
                score: Score { value: 0.5, key: -40 },
                bound: Bound::Lower,
                first: false,
                best: 7,
            },
            Entry {
                score: Score { value: 9.0, key: 3 },
                bound: Bound::Upper,
                first: true,
                best: 65_534,
            },
        ];
        for (i, e) in entries.iter().enumerate() {
            memo.store(&i, *e);
            assert_eq!(memo.get(&i), Some(*e));
        }
        // A move index past u16: kept without its move, which the line then cannot follow.
        memo.store(&9, Entry::exact(Score::terminal(1.0), 70_000));
        let e = memo.get(&9).unwrap();
        assert_eq!((e.best, e.first, e.score), (NO_MOVE, false, Score::terminal(1.0)));
        // A distance past i32: not kept.
        memo.store(
            &0,
            Entry::exact(
                Score {
                    value: 1.0,
                    key: i64::from(i32::MIN) - 1,
                },
                3,
            ),
        );
        assert_eq!((memo.get(&0), memo.len()), (None, 3));
    }

    /// Keys hashed as a game's states are (two words, the second ending in
    /// the cells' count and width) that differ only in their later bytes
    /// still fill the shards evenly: no shard holds twice its share.
    #[test]
    fn states_that_differ_only_in_later_bytes_spread_over_every_shard() {
        #[derive(Hash)]
        struct Cells(u64, u64);
        let n = 64 * SHARDS as u64;
        for shift in [16, 24, 40] {
            let mut counts = vec![0u64; SHARDS];
            for i in 0..n {
                counts[shard_of(&Cells(0x0302_0100, i << shift | 12 << 8 | 1))] += 1;
            }
            let most = *counts.iter().max().unwrap();
            assert!(
                most < 2 * 64,
                "{most} of {n} keys in one shard (cells from bit {shift})"
            );
        }
    }
}
