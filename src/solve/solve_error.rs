//! `SolveError`: why a solve stopped without an answer.

use miette::Diagnostic;
use thiserror::Error;

use crate::game::GameError;

/// Why a solve stopped without an answer.
#[derive(Debug, Error, Diagnostic)]
pub enum SolveError {
    /// The game's rules failed while being searched.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Game(#[from] GameError),

    /// A node, state or time limit was reached.
    #[error("the search stopped after {nodes} nodes: the {what} limit of {limit} was reached")]
    #[diagnostic(
        code(gdl::solve::budget),
        help("raise the limit, turn the memo table on, or solve a smaller position")
    )]
    Budget {
        /// `"nodes"`, `"states"` or `"time"`.
        what: &'static str,
        /// The limit as set, e.g. `100` or `1.5s`.
        limit: String,
        /// Nodes searched when the search stopped.
        nodes: u64,
    },

    /// A position came back on the line being searched: the game can go on
    /// forever, and the exact solvers need one that always ends.
    #[error("the game can go on forever: from `{position}`, the moves {} lead back to it", .moves.join(", "))]
    #[diagnostic(
        code(gdl::solve::cycle),
        help(
            "the exact solvers need a game that always ends: make every move bring the end closer \
             (e.g. count the moves in a state variable and add `end when moves == 100 {{ draw }}`)"
        )
    )]
    Cycle {
        /// The position that repeats, with whose move it is.
        position: String,
        /// The moves from it back to it.
        moves: Vec<String>,
    },

    /// A line ran longer than the depth limit without repeating a position.
    #[error("the search went {depth} moves deep without reaching the end of the game (at `{position}`)")]
    #[diagnostic(
        code(gdl::solve::too_deep),
        help("check that every line of play reaches an `end when` clause; games longer than this are not small")
    )]
    TooDeep {
        /// The depth limit.
        depth: usize,
        /// The position where the line was cut, with whose move it is.
        position: String,
    },

    /// The game is not one these solvers handle.
    #[error("{0}")]
    #[diagnostic(
        code(gdl::solve::unsupported),
        help("minimax and alpha-beta solve two-player, turn-taking, zero-sum games")
    )]
    Unsupported(String),

    /// This algorithm does not apply to the game; `help` says which does.
    #[error("{message}")]
    #[diagnostic(code(gdl::solve::not_applicable), help("{help}"))]
    NotApplicable { message: String, help: String },

    /// The search contradicted itself: a bug in gdl, or rules that are not
    /// deterministic (the same move from the same state led to different states).
    #[error("the search contradicted itself: {0}")]
    #[diagnostic(
        code(gdl::solve::inconsistent),
        help("this is a bug in gdl, or the game's rules depend on something outside the state")
    )]
    Inconsistent(String),
}
