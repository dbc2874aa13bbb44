//! What people read: diagnostics, summaries, solve reports.

pub mod board_picture;
pub mod cfr;
pub mod chance;
pub mod diagnostic;
pub mod grundy;
pub mod json;
pub mod mcts;
pub mod play;
pub mod plot;
pub mod rating;
pub mod solve;
pub mod standings;
/// The numbers of a match are computed in `solve`; printed here.
pub use crate::solve::matches::stats;
pub mod summary;
pub mod tree;

/// A probability with as few digits as it needs, at most three (`0.5`,
/// `0.333`); one too small for three digits in scientific notation
/// (`5.4e-20`), so that a possible outcome never reads as `0`; and one
/// just short of certain as `> 0.999`, so that it never reads as `1`.
pub fn probability(p: f64) -> String {
    let s = format!("{p:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    match s {
        "0" if p > 0.0 => format!("{p:.1e}"),
        "1" if p < 1.0 => "> 0.999".to_string(),
        _ => s.to_string(),
    }
}
