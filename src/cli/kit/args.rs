//! Flag groups that several commands take, declared once.

use std::time::Duration;

use clap::Args;

use crate::cli::kit::context::{Context, Failure};
use crate::cli::kit::game_args::start_position;
use crate::cli::kit::limits::{positive_count, time_limit};
use crate::runtime::{Interpreted, State};
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

/// `--from`, `--first` and `--after`: where a command starts (`solve`,
/// `tree`, `play`, `trace`), read by [`StartArgs::position`].
#[derive(Args, Debug, Clone, Default)]
pub struct StartArgs {
    /// Start from this position, written as gdl prints one: "[0, 2, 3, 1]; MIN to move"
    #[arg(long, value_name = "POSITION")]
    pub from: Option<String>,
    /// Start from the game's initial position with this player to move first
    /// (`--first B`), instead of the first player of `players`
    #[arg(long, value_name = "PLAYER")]
    pub first: Option<String>,
    /// Start after these moves, played from the start (or from --from) in the game's notation: "1 6", "(0, 6) (1, 2)"
    #[arg(long, value_name = "MOVES")]
    pub after: Option<String>,
}

impl StartArgs {
    /// The position these flags start from.
    pub fn position(&self, game: &Interpreted, ctx: &Context) -> Result<State, Failure> {
        start_position(
            game,
            self.from.as_deref(),
            self.first.as_deref(),
            self.after.as_deref(),
            ctx,
        )
    }
}

/// `--raw`: positions shown as their fields (`tree`, `play`, `trace`).
#[derive(Args, Debug, Clone, Default)]
pub struct RawArg {
    /// Show each position as its state, field by field (what --from reads),
    /// rather than as the game's display draws it
    #[arg(long)]
    pub raw: bool,
}
