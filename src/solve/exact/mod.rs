//! Exact solvers: alpha-beta and minimax over a memo table (one thread or
//! several), expectiminimax for chance and simultaneous moves, matrix games,
//! Sprague–Grundy values, one-player puzzles. What every solve reports
//! (`Solution`, `SolveError`) lives here too.

pub(in crate::solve) mod alphabeta;
pub mod expectimax;
pub mod grundy;
pub(in crate::solve) mod line;
pub mod matrix;
pub(in crate::solve) mod memo;
pub(in crate::solve) mod minimax;
pub(in crate::solve) mod options;
pub mod parallel;
mod positions;
pub mod puzzle;
mod retrograde;
pub(in crate::solve) mod score;
pub mod simultaneous;
pub(in crate::solve) mod solution;
pub(in crate::solve) mod solve_error;
pub(in crate::solve) mod solver;
mod value_iteration;
