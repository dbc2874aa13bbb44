//! `Solution` and `MoveValue`: what a solve reports.

/// The result of solving one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution<M> {
    /// Player 0's utility under optimal play (the game's own utility, also
    /// when `prefer_short` is on).
    pub value: f64,
    /// Every optimal move at the root, in legal-move order. Empty when the
    /// root is terminal. With `prefer_short`, "optimal" includes the length
    /// preference: only the fastest wins (slowest losses) are listed.
    pub best_moves: Vec<M>,
    /// The principal line: from the root, at each position the first optimal
    /// move, down to a terminal state worth `value`.
    pub pv: Vec<M>,
    /// Plies of `pv`: the length of the game under optimal play.
    pub length: usize,
    /// Calls of the search, one per position visited, however the call ended:
    /// searched, answered from the memo table, terminal, or outside the
    /// window. The principal line comes from the search itself and costs no
    /// nodes, unless the table cannot name a step of it (then that step's
    /// moves are searched again, and counted).
    pub nodes: u64,
    /// Distinct states visited; 0 when neither the memo table nor
    /// `count_states` was on.
    pub states: u64,
    /// Entries in the memo table at the end (0 without it).
    pub memo_entries: usize,
    /// Positions answered from the memo table without searching them.
    pub memo_hits: u64,
    /// Wall-clock time of the whole solve.
    pub seconds: f64,
    /// Whether the values come from retrograde analysis of the position
    /// graph (a game with the repetition rule) rather than a search; then
    /// `nodes` and `states` count the positions of the graph.
    pub by_graph: bool,
}

/// One legal move at the root with its exact value, from
/// [`explain`](crate::solve::explain).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveValue<M> {
    /// The move.
    pub mv: M,
    /// Player 0's utility if this move is played and both sides then play optimally.
    pub value: f64,
    /// The line after `mv` that proves `value`: optimal play from the
    /// position `mv` leads to, down to the end of the game. For a losing
    /// move it is the refutation.
    pub line: Vec<M>,
}
