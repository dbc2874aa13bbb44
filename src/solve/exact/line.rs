//! The repetition rule in the exact search (`end when repeated N`): the
//! positions of the line being searched, how often each occurs on it, and
//! what the memo table may keep.
//!
//! A position's value then depends on the history. The search keeps the
//! current line (the positions before the root that the caller gave, the
//! root, and each position down to the node being searched); reaching a
//! position that already occurs N − 1 times on the line ends the game there
//! with the rule's outcome.
//!
//! What the memo keeps: every position of a searched subtree that is met
//! again on the line (a repetition, whether or not it ends the game) notes
//! the shallowest line index it occurs at, and a node's `low` is the least
//! of these over its subtree. A node at line index `d` whose subtree was
//! searched in full (no cutoff anywhere below it) and whose `low` is
//! greater than `d` lies on no cycle of the game: a full search from a
//! position on a cycle follows that cycle back to it (or meets a position
//! above it first). A position on no cycle has the same value whatever
//! line led to it, because no line through it can meet any of the positions
//! after it again; it is stored as before. Every other result depends on
//! the line (or, after a cutoff, may: a pruned move may lead back up) and
//! is not stored. Entries stored are therefore valid in every context, and
//! probing the table needs no history. The rule's own ends are never stored.
//!
//! Storing whenever the subtree met nothing above the node (`low >= d`)
//! would not do: `low == d` means the node itself came back, so it lies on
//! a cycle, and a line that enters it from elsewhere on that cycle ends
//! sooner. Nor would counting only the repetitions that ended the game, nor
//! a search cut short by alpha-beta, whose pruned moves may lead back up.

use rustc_hash::FxHashMap;
use std::hash::Hash;

use super::score::Score;
use super::solve_error::SolveError;
use super::solver::Solver;
use crate::game::Game;

/// The line searched, for a game with a repetition rule.
pub(in crate::solve) struct Line<S> {
    /// N of `end when repeated N`.
    times: u32,
    /// Positions before the root, oldest first (a game in progress).
    before: Vec<S>,
    /// The line, root-most first (after `before`).
    states: Vec<S>,
    /// For each position on the line: how often it occurs, and the index of
    /// its first occurrence (the shallowest: the last to be popped).
    counts: FxHashMap<S, (u32, usize)>,
    /// The shallowest line index met again in the subtree being searched.
    pub(in crate::solve) low: usize,
    /// Whether every node of that subtree searched all of its moves.
    pub(in crate::solve) complete: bool,
}

/// What reaching a position does under the rule.
pub(in crate::solve) enum Reached {
    /// Its Nth occurrence: the game ends.
    Ends,
    /// The game goes on; the position is now on the line.
    Goes,
}

impl<S: Clone + Eq + Hash> Line<S> {
    pub(in crate::solve) fn new(times: u32) -> Self {
        Line {
            times,
            before: Vec::new(),
            states: Vec::new(),
            counts: FxHashMap::default(),
            low: usize::MAX,
            complete: true,
        }
    }

    /// Starts a search at `root`, after the positions given with `set_before`.
    pub(in crate::solve) fn restart(&mut self, root: &S) {
        self.states.clear();
        self.counts.clear();
        for s in std::mem::take(&mut self.before) {
            self.push(s.clone());
            self.before.push(s);
        }
        self.push(root.clone());
        self.low = usize::MAX;
        self.complete = true;
    }

    fn push(&mut self, s: S) {
        let at = self.states.len();
        self.counts.entry(s.clone()).or_insert((0, at)).0 += 1;
        self.states.push(s);
    }

    pub(in crate::solve) fn pop(&mut self) {
        if let Some(s) = self.states.pop()
            && let Some(c) = self.counts.get_mut(&s)
        {
            c.0 -= 1;
            if c.0 == 0 {
                self.counts.remove(&s);
            }
        }
    }

    /// A move reached `s`: notes a repetition in `low`, and either ends the
    /// game or puts `s` on the line (then `pop` it after its search).
    pub(in crate::solve) fn reach(&mut self, s: &S) -> Reached {
        if let Some(&(n, first)) = self.counts.get(s) {
            self.low = self.low.min(first);
            if n + 1 >= self.times {
                return Reached::Ends;
            }
        }
        self.push(s.clone());
        Reached::Goes
    }

    /// N of `end when repeated N`.
    pub(in crate::solve) fn times(&self) -> u32 {
        self.times
    }

    /// Each position on the line, with how often it occurs there.
    pub(in crate::solve) fn counts(&self) -> impl Iterator<Item = (&S, u32)> {
        self.counts.iter().map(|(s, &(n, _))| (s, n))
    }

    /// How often `s` occurs on the line.
    pub(in crate::solve) fn count(&self, s: &S) -> u32 {
        self.counts.get(s).map_or(0, |&(n, _)| n)
    }

    /// Whether a move reaching `s` now would end the game (changes nothing).
    pub(in crate::solve) fn would_end(&self, s: &S) -> bool {
        self.counts.get(s).is_some_and(|&(n, _)| n + 1 >= self.times)
    }

    /// Whether the result of the node last on the line holds on every line
    /// (see the module's note): its subtree was searched in full and met no
    /// position at or above it.
    pub(in crate::solve) fn storable(&self) -> bool {
        self.complete && self.low >= self.states.len()
    }
}

/// The error of a solver that does not keep the history a repetition rule
/// needs (`what`: the solver), for a game that has one; `Ok` otherwise.
pub fn no_repetition_rule<G: Game>(game: &G, what: &str) -> Result<(), SolveError> {
    match game.repetition() {
        None => Ok(()),
        Some(n) => Err(SolveError::Unsupported(format!(
            "{what} does not handle {}'s rule `end when repeated {n}` (a position's value depends on the \
             positions before it); alpha-beta and minimax do, for two players taking turns",
            game.name()
        ))),
    }
}

impl<G: Game> Solver<'_, G> {
    /// The positions played before the root of the next searches (a game in
    /// progress), oldest first, for the repetition rule; nothing without one.
    pub fn set_history(&mut self, before: &[G::State]) {
        if let Some(line) = &mut self.rep {
            line.before = before.to_vec();
        }
    }

    /// `descend` under the repetition rule: the child ends the game, or is
    /// searched with itself on the line; `low` and `complete` gather the
    /// child's subtree into the parent's.
    pub(in crate::solve) fn descend_on_line(
        &mut self,
        child: &G::State,
        search: impl FnOnce(&mut Self, &G::State) -> Result<Score, SolveError>,
    ) -> Result<Score, SolveError> {
        let line = self.rep.as_mut().expect("a repetition rule");
        let (low, complete) = (line.low, line.complete);
        line.low = usize::MAX;
        line.complete = true;
        let r = match line.reach(child) {
            Reached::Ends => {
                self.clear_line();
                self.exact = true;
                self.repetition_score(child)
            }
            Reached::Goes => {
                let r = search(self, child);
                self.rep.as_mut().expect("a repetition rule").pop();
                r
            }
        };
        let line = self.rep.as_mut().expect("a repetition rule");
        line.low = line.low.min(low);
        line.complete &= complete;
        r
    }

    /// Notes that the node being searched left moves unsearched (a cutoff):
    /// its result may depend on the line.
    #[inline]
    pub(in crate::solve) fn cut_short(&mut self) {
        if let Some(line) = &mut self.rep {
            line.complete = false;
        }
    }

    /// Whether a move reaching `state` now ends the game by repetition.
    pub(in crate::solve) fn repeats(&self, state: &G::State) -> bool {
        self.rep.as_ref().is_some_and(|l| l.would_end(state))
    }

    /// The score when a move reaches `state` for the Nth time.
    pub(in crate::solve) fn repetition_score(&self, state: &G::State) -> Result<Score, SolveError> {
        let value = self.game.repetition_returns(state, 0)?;
        self.checked_score(state, value)
    }
}
