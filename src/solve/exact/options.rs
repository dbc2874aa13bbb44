//! `SolveOptions`: which search to run and within what limits.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Duration;

/// The search algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Algorithm {
    /// Plain minimax: every node of the tree (or of the graph, with the memo table).
    Minimax,
    /// Alpha-beta: the same value, pruning branches that cannot change it.
    #[default]
    AlphaBeta,
}

/// How to solve a position.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveOptions {
    /// Minimax or alpha-beta.
    pub algorithm: Algorithm,
    /// Keep a transposition table keyed by the state (which includes the player to move).
    pub memo: bool,
    /// Among equal outcomes, win as fast as possible and lose as slowly as
    /// possible (seed Extension A). Draws carry no preference. The reported
    /// value stays the game's own utility.
    pub prefer_short: bool,
    /// Count the distinct states visited. With the memo table this is free
    /// (its size); without it a set of state hashes is kept, which costs
    /// time, so benchmarks turn it off.
    pub count_states: bool,
    /// Stop with [`SolveError::Budget`](crate::solve::SolveError::Budget) after this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop with [`SolveError::Budget`](crate::solve::SolveError::Budget) after this long
    /// (the clock is read every few thousand nodes).
    pub time_limit: Option<Duration>,
    /// Stop with [`SolveError::Budget`](crate::solve::SolveError::Budget) when the
    /// memo table holds this many states.
    pub max_states: Option<u64>,
    /// The longest line searched. A game whose lines run longer (or that can
    /// go on forever) stops with [`SolveError::Cycle`](crate::solve::SolveError::Cycle)
    /// or [`SolveError::TooDeep`](crate::solve::SolveError::TooDeep) instead of
    /// overflowing the stack.
    pub max_depth: usize,
    /// Where the search publishes its progress while it runs, and where
    /// another thread may ask it to stop (Ctrl-C); see [`Watch`].
    pub watch: Option<Arc<Watch>>,
    /// Under a repetition rule, search every line with its history instead
    /// of valuing the position graph: far slower, and the reference that
    /// the graph's values are tested against.
    pub search_lines: bool,
}

/// What a search shows of itself while it runs, for a progress line drawn
/// by another thread, and a flag that thread may set to stop it. The search
/// publishes and looks about once a millisecond (when it reads the clock),
/// so watching costs nothing measurable.
#[derive(Debug, Default)]
pub struct Watch {
    /// Nodes searched so far by the current call.
    pub nodes: AtomicU64,
    /// Positions in the memo table (or seen, without it).
    pub states: AtomicU64,
    /// Set by the watcher: the search stops with
    /// [`SolveError::Budget`](crate::solve::SolveError::Budget) of `what` [`STOPPED`].
    pub stop: AtomicBool,
    /// A flag set from outside the search (Ctrl-C, SIGTERM), which stops
    /// it as [`Watch::stop`] does; shared by every search it should stop.
    pub interrupt: Option<&'static AtomicBool>,
}

impl Watch {
    /// A watch that `interrupt` stops.
    pub fn stopped_by(interrupt: &'static AtomicBool) -> Watch {
        Watch {
            interrupt: Some(interrupt),
            ..Watch::default()
        }
    }

    /// Whether the search should stop.
    pub fn stopped(&self) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        self.stop.load(Relaxed) || self.interrupt.as_ref().is_some_and(|i| i.load(Relaxed))
    }
}

/// The `what` of the budget error of a search stopped through its [`Watch`].
pub const STOPPED: &str = "stop";

/// Two watches are the same only if they are one (options compare equal
/// when they would watch the same search).
impl PartialEq for Watch {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

/// The default [`SolveOptions::max_depth`]: far longer than any small game.
pub const DEFAULT_MAX_DEPTH: usize = 5_000;

/// Stack for a thread that runs searches as deep as [`DEFAULT_MAX_DEPTH`]:
/// a search recurses once per ply, a few hundred bytes a ply in release
/// builds and several times that in debug builds, which can be more than
/// the 2 MiB a spawned thread gets. Only the pages touched are committed.
pub const SEARCH_STACK: usize = 64 << 20;

impl Default for SolveOptions {
    /// Alpha-beta with the memo table, no preference by length, states
    /// counted, no limits.
    fn default() -> Self {
        SolveOptions {
            algorithm: Algorithm::AlphaBeta,
            memo: true,
            prefer_short: false,
            count_states: true,
            max_nodes: None,
            time_limit: None,
            max_states: None,
            max_depth: DEFAULT_MAX_DEPTH,
            watch: None,
            search_lines: false,
        }
    }
}
