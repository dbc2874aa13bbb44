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

    /// A node or time limit was reached.
    #[error("the search stopped after {nodes} nodes: the {what} limit of {limit} was reached")]
    #[diagnostic(
        code(gdl::solve::budget),
        help("raise the limit, turn the memo table on, or solve a smaller position")
    )]
    Budget {
        /// `"nodes"` or `"time"`.
        what: &'static str,
        /// The limit as set, e.g. `100` or `1.5s`.
        limit: String,
        /// Nodes searched when the search stopped.
        nodes: u64,
    },

    /// The game is not one these solvers handle.
    #[error("{0}")]
    #[diagnostic(
        code(gdl::solve::unsupported),
        help("minimax and alpha-beta solve two-player, turn-taking, zero-sum games")
    )]
    Unsupported(String),

    /// The search contradicted itself: a bug in gdl, or rules that are not
    /// deterministic (the same move from the same state led to different states).
    #[error("the search contradicted itself: {0}")]
    #[diagnostic(
        code(gdl::solve::inconsistent),
        help("this is a bug in gdl, or the game's rules depend on something outside the state")
    )]
    Inconsistent(String),
}
