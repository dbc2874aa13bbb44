//! `gdl match` (`tournament`) and, with more agents than seats, its league;
//! a match played in parts (`--shard I/N`, the part files) and `gdl merge`,
//! which puts the parts back together.

pub(in crate::cli) mod league;
pub(in crate::cli) mod merge;
pub(in crate::cli) mod part;
pub(in crate::cli) mod report;
pub(in crate::cli) mod tournament;

use std::path::PathBuf;

use clap::Args;

use crate::cli::kit::agents::{AgentArgs, PlayersParser, players_help};
use crate::cli::kit::game_args::GameArgs;

#[derive(Args, Debug)]
pub struct MatchArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[arg(
        long,
        value_name = "A,B",
        value_parser = PlayersParser,
        hide_possible_values = true,
        help = players_help(
            "One agent per player, comma-separated; more agents than players: a round robin of every group that fills the seats"
        )
    )]
    pub players: String,
    /// How many games; the agents take turns in each seat
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub games: u64,
    /// Seeds every random choice (agents and chance), for a match that can be replayed
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Write every game to this CSV file: its number, each agent's seat and
    /// points (or utility), and the winners
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Draw each agent's points (or utility) per game as a histogram, in this
    /// SVG file, or PNG file (for a report or a slide) when its name ends in .png
    #[arg(long, value_name = "FILE.svg|FILE.png")]
    pub plot: Option<PathBuf>,
    /// Threads to play games on; default: one per core. The results are the
    /// same for any number (only the times per decision differ), as long as
    /// each `exec:` agent draws from its game's `seed` and carries nothing
    /// from game to game: each thread starts its own copy of the program
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub threads: Option<usize>,
    /// A fixed field: every agent of --players plays against these (one
    /// game per seat rotation, --games per pairing), and is ranked by its
    /// results against them
    #[arg(long, value_name = "A,B", value_parser = PlayersParser, hide_possible_values = true)]
    pub field: Option<String>,
    /// Print the results as one JSON object (docs/json-schema/match.json)
    #[arg(long)]
    pub json: bool,
    /// Play only part I of N (I from 0) of the match (or of the league, its
    /// pairings one after another): the same games, seats and seeds as the
    /// whole match plays there; with --jsonl, `gdl merge` makes the whole
    /// match's report of the parts
    #[arg(long, value_name = "I/N", value_parser = shard)]
    pub shard: Option<(u64, u64)>,
    /// Write every game to this file as a JSON line (the match's settings
    /// first, the agents' times last), for `gdl merge`
    #[arg(long, value_name = "FILE")]
    pub jsonl: Option<PathBuf>,
    #[command(flatten)]
    pub agents: AgentArgs,
}

/// `--shard I/N`: part I (from 0) of N.
fn shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || "a part and the number of parts, I/N, with I from 0 to N - 1 (`--shard 0/4`)".to_string();
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n) = (
        i.trim().parse::<u64>().map_err(|_| bad())?,
        n.trim().parse::<u64>().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}
