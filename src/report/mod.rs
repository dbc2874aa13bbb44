//! What people read: diagnostics, summaries, solve reports.

pub mod cfr;
pub mod chance;
pub mod diagnostic;
pub mod grundy;
pub mod play;
pub mod plot;
pub mod solve;
pub mod standings;
pub mod stats;
pub mod summary;
pub mod tree;
