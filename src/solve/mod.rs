//! Algorithms, generic over [`Game`](crate::game::Game).
//!
//! [`solve`] finds the value of a position for a two-player, turn-taking,
//! zero-sum game (player 0 maximizes its utility, player 1 minimizes it),
//! every optimal move and the principal line; [`explain`] gives every legal
//! move its exact value. Both run minimax or alpha-beta, with or without a
//! memo table, as [`SolveOptions`] says.
//!
//! One file per algorithm: `minimax`, `alphabeta`, `memo` (the transposition
//! table); `solver` holds what they share and the search at the root.
//!
//! The game graph must be acyclic (a position cannot recur in one game).
//! A line longer than `SolveOptions::max_depth` stops the search with
//! `SolveError::Cycle` (when a position repeated on it) or
//! `SolveError::TooDeep`, never with a stack overflow, on a thread with
//! [`SEARCH_STACK`] of stack (the `gdl` command and `gdl match` run their
//! searches on such threads). With a depth cutoff
//! (`Solver::set_cutoff`, used by iterative deepening when a budget runs out)
//! positions at the cutoff are scored 0, and the result is not proven.

pub mod agent;
pub mod agent_builder;
pub mod agent_kinds;
mod alphabeta;
pub mod best_response;
pub mod budgeted;
pub mod cfr;
pub mod depth_limited;
pub mod determinized;
pub mod episode;
pub mod expectimax;
pub mod expectimax_agent;
mod file_header;
pub mod grundy;
pub mod infotree;
pub mod matrix;
pub mod mcts;
mod memo;
mod minimax;
pub mod move_budget;
mod options;
pub mod parallel;
pub mod policy_agent;
pub mod puzzle;
pub mod qeval;
pub mod qfile;
pub mod qlearn;
mod score;
pub mod search;
pub mod simulate;
pub mod simultaneous;
mod solution;
mod solve_error;
mod solver;
pub mod stats;
pub mod step;
pub mod strategy_file;
pub mod tournament;

pub use options::{Algorithm, DEFAULT_MAX_DEPTH, SEARCH_STACK, STOPPED, SolveOptions, Watch};
pub use solution::{MoveValue, Solution};
pub use solve_error::{SolveError, SolveKind};
pub use solver::{Solver, explain, solve};
