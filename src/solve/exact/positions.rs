//! The positions of an expectiminimax solve ([`expectimax`](super::expectimax)):
//! how one is expanded (its successors, and what the hidden-information
//! check compares), the memo table that numbers and stores them, and the
//! batches that other threads expand ahead of the thread numbering them.

use std::collections::{BTreeMap, VecDeque};
use std::hash::Hash;
use std::sync::mpsc;

use hashbrown::HashTable;

pub(super) use super::memo::hash_of;
use super::simultaneous::stage_moves;
use super::solve_error::{SolveError, SolveKind};
use super::value_iteration::{CHANCE, SIMULTANEOUS, TERMINAL};
use crate::game::{Game, GameError, Turn, no_legal_move, representative};

/// Chance probabilities must sum to 1 within this.
const PROBABILITY_SLACK: f64 = 1e-9;

/// Positions expanded on other threads: sent in numbered batches, and
/// received back in the order they were sent.
pub(super) struct Ahead<S> {
    pub(super) work: mpsc::Sender<(u64, Vec<S>)>,
    pub(super) results: mpsc::Receiver<(u64, Flat<S>)>,
    pub(super) sent: u64,
    pub(super) received: u64,
    /// Batches that came back before those sent earlier.
    pub(super) early: BTreeMap<u64, Flat<S>>,
}

impl<S> Ahead<S> {
    pub(super) fn in_flight(&self) -> bool {
        self.received < self.sent
    }

    pub(super) fn send(&mut self, batch: Vec<S>) -> Result<(), SolveError> {
        self.work.send((self.sent, batch)).map_err(|_| thread_failed())?;
        self.sent += 1;
        Ok(())
    }

    /// The next batch sent, expanded (waits for it).
    pub(super) fn next(&mut self) -> Result<Flat<S>, SolveError> {
        let want = self.received;
        while !self.early.contains_key(&want) {
            let (seq, batch) = self.results.recv().map_err(|_| thread_failed())?;
            self.early.insert(seq, batch);
        }
        self.received += 1;
        Ok(self.early.remove(&want).expect("waited for"))
    }
}

pub(super) fn thread_failed() -> SolveError {
    SolveError::Inconsistent("a thread of the solve failed (a bug in gdl)".into())
}

/// What a position is worth, and what the hidden-information check needs.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    /// NaN while the position is being searched (on the current line).
    pub(super) value: f64,
    /// Who acts: a player, or `CHANCE`, `SIMULTANEOUS`, `TERMINAL`.
    pub(super) who: u8,
    /// At a player's node, the best moves as bits of their indices (the
    /// first 64 moves).
    pub(super) best: u64,
    /// What the hidden-information check compares.
    pub(super) facts: Facts,
}

/// The memo table: the positions by number, their entries by the same
/// numbers, and a hash table of the numbers. Value iteration numbers the
/// positions as it explores them, and its table becomes the memo table
/// as it is; the threads that expand positions hash their successors, so
/// that the thread numbering them does not.
pub(super) struct Table<S> {
    pub(super) ids: HashTable<u32>,
    pub(super) states: Vec<S>,
    /// Each position's hash, for the hash table to grow without hashing again.
    pub(super) hashes: Vec<u64>,
    pub(super) entries: Vec<Entry>,
}

impl<S: Hash + Eq> Table<S> {
    pub(super) fn new() -> Self {
        Table {
            ids: HashTable::new(),
            states: Vec::new(),
            hashes: Vec::new(),
            entries: Vec::new(),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.states.len()
    }

    pub(super) fn find(&self, hash: u64, state: &S) -> Option<usize> {
        self.ids
            .find(hash, |&i| self.states[i as usize] == *state)
            .map(|&i| i as usize)
    }

    pub(super) fn get(&self, state: &S) -> Option<&Entry> {
        self.find(hash_of(state), state).map(|i| &self.entries[i])
    }

    pub(super) fn get_mut(&mut self, state: &S) -> Option<&mut Entry> {
        self.find(hash_of(state), state).map(|i| &mut self.entries[i])
    }

    /// The number of `state` (whose hash is `hash`), numbered now if it is new.
    pub(super) fn number(&mut self, hash: u64, state: S) -> Option<u32> {
        if let Some(i) = self.find(hash, &state) {
            return Some(i as u32);
        }
        let id = u32::try_from(self.states.len()).ok()?;
        let hashes = &self.hashes;
        self.ids.insert_unique(hash, id, |&i| hashes[i as usize]);
        self.states.push(state);
        self.hashes.push(hash);
        Some(id)
    }

    /// Adds a position not in the table.
    pub(super) fn insert(&mut self, state: S, entry: Entry) {
        let id = self.number(hash_of(&state), state).expect("fewer than 2^32 positions") as usize;
        debug_assert_eq!(id, self.entries.len());
        self.entries.push(entry);
    }
}

/// A position's successors, and how its value follows from theirs.
pub(super) enum Node<S> {
    Terminal(f64),
    /// Player 0 (maximizes) or 1 (minimizes) moves; the children in
    /// legal-move order.
    Player {
        player: u8,
        children: Vec<S>,
    },
    Chance {
        children: Vec<S>,
        probs: Vec<f64>,
    },
    /// Children row by row (player 0's move, then player 1's).
    Simultaneous {
        rows: usize,
        cols: usize,
        children: Vec<S>,
    },
}

impl<S> Node<S> {
    /// Who acts, the children, a chance node's probabilities, a
    /// simultaneous node's rows, a terminal position's value.
    pub(super) fn into_parts(self) -> (u8, Vec<S>, Vec<f64>, usize, f64) {
        let who = who(&self);
        match self {
            Node::Terminal(v) => (who, Vec::new(), Vec::new(), 0, v),
            Node::Player { children, .. } => (who, children, Vec::new(), 0, 0.0),
            Node::Chance { children, probs } => (who, children, probs, 0, 0.0),
            Node::Simultaneous { rows, children, .. } => (who, children, Vec::new(), rows, 0.0),
        }
    }

    pub(super) fn children(&self) -> &[S] {
        match self {
            Node::Terminal(_) => &[],
            Node::Player { children, .. } | Node::Chance { children, .. } | Node::Simultaneous { children, .. } => {
                children
            }
        }
    }
}

/// What the hidden-information check compares of a position: a hash of
/// each player's legal moves and, where asked for, of what each player who
/// acts there sees (`Game::observation`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Facts {
    pub(super) moves: [u64; 2],
    pub(super) seen: Option<[u64; 2]>,
}

/// A position's successors and its [`Facts`], or why not.
pub(super) type Expanded<S> = Result<(Node<S>, Facts), SolveError>;

/// Positions expanded one after another, flattened: each one's successors
/// follow the last one's in `children`, with their hashes, and a chance
/// node's probabilities in `probs`. A thread that expands positions for
/// another hands it a few large buffers (freed by a thread that did not
/// allocate them) instead of a few small ones per position.
pub(super) struct Flat<S> {
    pub(super) heads: VecDeque<Head>,
    pub(super) children: VecDeque<S>,
    pub(super) hashes: VecDeque<u64>,
    pub(super) probs: VecDeque<f64>,
    /// Why the position after the last head could not be expanded.
    pub(super) error: Option<SolveError>,
}

impl<S> Default for Flat<S> {
    fn default() -> Self {
        Flat {
            heads: VecDeque::new(),
            children: VecDeque::new(),
            hashes: VecDeque::new(),
            probs: VecDeque::new(),
            error: None,
        }
    }
}

/// One position of a [`Flat`].
pub(super) struct Head {
    pub(super) who: u8,
    pub(super) children: usize,
    pub(super) rows: usize,
    pub(super) terminal: f64,
    pub(super) facts: Facts,
}

impl<S: Hash> Flat<S> {
    /// Expands `state` onto the end; false (and the error kept) if it fails.
    pub(super) fn push<G: Game<State = S>>(&mut self, game: &G, state: &S, observe: bool) -> bool {
        match expand_state(game, state, observe) {
            Ok((node, facts)) => {
                let (who, children, probs, rows, terminal) = node.into_parts();
                self.heads.push_back(Head {
                    who,
                    children: children.len(),
                    rows,
                    terminal,
                    facts,
                });
                self.hashes.extend(children.iter().map(hash_of));
                self.children.extend(children);
                self.probs.extend(probs);
                true
            }
            Err(e) => {
                self.error = Some(e);
                false
            }
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.heads.is_empty() && self.error.is_none()
    }

    /// The first position's head (its successors are the first in
    /// `children`), or the error met in its place.
    pub(super) fn pop(&mut self) -> Option<Result<Head, SolveError>> {
        match self.heads.pop_front() {
            Some(head) => Some(Ok(head)),
            None => self.error.take().map(Err),
        }
    }
}

/// Positions value iteration sends to another thread to expand at once.
pub(super) const BATCH: usize = 2048;

/// A position's kind and successors, checked, and a hash of each player's
/// legal moves, for the solve and for value iteration's exploration.
pub(super) fn expand_state<G: Game>(game: &G, state: &G::State, observe: bool) -> Expanded<G::State> {
    let mut fingerprint = [0u64; 2];
    let node = match game.turn(state)? {
        Turn::Terminal => {
            let v = game.returns(state, 0)?;
            if v.is_nan() {
                return Err(GameError::new(SolveKind::Nan, "the game's utility is not a number")
                    .in_state(game.state_text(state))
                    .into());
            }
            Node::Terminal(v)
        }
        Turn::Player(p) if p < 2 => {
            let mut moves = Vec::new();
            game.legal_moves(state, &mut moves)?;
            if moves.is_empty() {
                return Err(no_legal_move(game, state).into());
            }
            fingerprint[p] = hash_of(&moves);
            let children = moves
                .iter()
                .map(|m| {
                    let mut c = state.clone();
                    game.apply(&mut c, m)?;
                    representative(game, c)
                })
                .collect::<Result<_, _>>()?;
            Node::Player {
                player: p as u8,
                children,
            }
        }
        Turn::Player(p) => {
            return Err(SolveError::Inconsistent(format!(
                "player {p} is to move in `{}`, but the game has two players",
                game.state_text(state)
            )));
        }
        Turn::Chance => {
            let mut outcomes = Vec::new();
            game.chance_outcomes(state, &mut outcomes)?;
            check_probabilities(game, state, &outcomes)?;
            let mut children = Vec::with_capacity(outcomes.len());
            let mut probs = Vec::with_capacity(outcomes.len());
            for (m, p) in &outcomes {
                let mut c = state.clone();
                game.apply(&mut c, m)?;
                children.push(representative(game, c)?);
                probs.push(*p);
            }
            Node::Chance { children, probs }
        }
        Turn::Simultaneous => {
            let [rows, cols] = stage_moves(game, state)?;
            fingerprint = [hash_of(&rows), hash_of(&cols)];
            let mut children = Vec::with_capacity(rows.len() * cols.len());
            for a in &rows {
                for b in &cols {
                    let mut c = state.clone();
                    game.apply_joint(&mut c, &[a.clone(), b.clone()])?;
                    children.push(representative(game, c)?);
                }
            }
            Node::Simultaneous {
                rows: rows.len(),
                cols: cols.len(),
                children,
            }
        }
    };
    let seen = observe.then(|| observed(game, state, who(&node)));
    Ok((
        node,
        Facts {
            moves: fingerprint,
            seen,
        },
    ))
}

/// A hash of what each player who acts at a position sees of it (0 for the others).
pub(super) fn observed<G: Game>(game: &G, state: &G::State, who: u8) -> [u64; 2] {
    let mut seen = [0; 2];
    for &p in viewers(who) {
        seen[p] = game.observation_hash(state, p);
    }
    seen
}

/// The players who choose at a position where `who` acts.
pub(super) fn viewers(who: u8) -> &'static [usize] {
    match who {
        0 => &[0],
        1 => &[1],
        SIMULTANEOUS => &[0, 1],
        _ => &[],
    }
}

pub(super) fn who<S>(node: &Node<S>) -> u8 {
    match node {
        Node::Terminal(_) => TERMINAL,
        Node::Player { player, .. } => *player,
        Node::Chance { .. } => CHANCE,
        Node::Simultaneous { .. } => SIMULTANEOUS,
    }
}

/// Chance outcomes must be probabilities that sum to 1.
pub(crate) fn check_probabilities<G: Game>(
    game: &G,
    state: &G::State,
    outcomes: &[(G::Move, f64)],
) -> Result<(), SolveError> {
    let total: f64 = outcomes.iter().map(|o| o.1).sum();
    let bad = outcomes.iter().find(|o| !(o.1 >= 0.0 && o.1 <= 1.0));
    if outcomes.is_empty() || bad.is_some() || (total - 1.0).abs() > PROBABILITY_SLACK {
        return Err(SolveError::Inconsistent(format!(
            "the chance outcomes in `{}` are not probabilities that sum to 1 (they sum to {total})",
            game.state_text(state)
        )));
    }
    Ok(())
}
