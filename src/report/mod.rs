//! What people read: diagnostics, summaries, solve reports.

pub mod diagnostic;
pub mod solve;
pub mod summary;
