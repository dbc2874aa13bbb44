//! Algorithms, generic over [`Game`](crate::game::Game).
//!
//! [`solve`] finds the value of a position for a two-player, turn-taking,
//! zero-sum game (player 0 maximizes its utility, player 1 minimizes it),
//! every optimal move and the principal line; [`explain`] gives every legal
//! move its exact value. Both run minimax or alpha-beta, with or without a
//! memo table, as [`SolveOptions`] says.
//!
//! The folders, by concern, each importing only the ones before it:
//! - `exact/`: the solvers. One file per algorithm: `minimax`, `alphabeta`,
//!   `memo` (the transposition table); `solver` holds what they share and the
//!   search at the root;
//! - `agents/`: the `Agent` trait and the agents that search as they play,
//!   MCTS among them (`agents/mcts/`);
//! - `learn/`: Q-learning and CFR, the files they write, and the agents that
//!   play what they learned;
//! - `matches/`: games between agents and their statistics;
//! - `perft`: the move sequences of each length from a position.
//!
//! `agent_builder` builds any agent from its spec, so it alone may import
//! every folder.
//!
//! The game graph must be acyclic (a position cannot recur in one game).
//! A line longer than `SolveOptions::max_depth` stops the search with
//! `SolveError::Cycle` (when a position repeated on it) or
//! `SolveError::TooDeep`, never with a stack overflow, on a thread with
//! [`SEARCH_STACK`] of stack (the `gdl` command and `gdl match` run their
//! searches on such threads). With a depth cutoff
//! (`Solver::set_cutoff`, used by iterative deepening when a budget runs out)
//! positions at the cutoff are scored 0, and the result is not proven.

pub mod agent_builder;
pub mod agents;
pub mod exact;
pub mod learn;
pub mod matches;
pub mod perft;

pub use exact::options::{Algorithm, DEFAULT_MAX_DEPTH, SEARCH_STACK, STOPPED, SolveOptions, Watch};
pub use exact::solution::{MoveValue, Solution};
pub use exact::solve_error::{SolveError, SolveKind};
pub use exact::solver::{Solver, explain, solve};
