//! Flag groups that several commands take, declared once.

use std::time::Duration;

use clap::Args;

use crate::cli::kit::limits::{positive_count, time_limit};
use crate::solve::SolveOptions;

/// `--max-nodes` and `--time-limit` of the exact solver, for the commands
/// whose agents or values use it (`tree`, `eval`, `play`, `trace`, `match`).
#[derive(Args, Debug, Clone, Default)]
pub struct SearchArgs {
    /// Stop the exact solver after visiting this many nodes (per move, for
    /// an `optimal` player)
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = positive_count)]
    pub max_nodes: Option<u64>,
    /// Stop the exact solver after this many seconds (per move, for an
    /// `optimal` player)
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = time_limit)]
    pub time_limit: Option<f64>,
}

impl SearchArgs {
    /// `opts` with these limits.
    pub fn apply(&self, opts: &mut SolveOptions) {
        if self.max_nodes.is_some() {
            opts.max_nodes = self.max_nodes;
        }
        if let Some(t) = self.time_limit {
            opts.time_limit = Some(Duration::from_secs_f64(t));
        }
    }
}
