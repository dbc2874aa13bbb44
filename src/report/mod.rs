//! What people read: diagnostics, summaries, solve reports.

pub mod cfr;
pub mod chance;
pub mod diagnostic;
pub mod grundy;
pub mod json;
pub mod mcts;
pub mod play;
pub mod plot;
pub mod solve;
pub mod standings;
/// The numbers of a match are computed in `solve`; printed here.
pub use crate::solve::stats;
pub mod summary;
pub mod tree;
