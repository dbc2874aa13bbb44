//! `gdl solve FILE`: the exact value of a position, every optimal move, the
//! principal line, and what the search cost.

use std::time::Duration;

use clap::{Args, ValueEnum};

use super::{Context, Failure, GameArgs, load_game, start_position};
use crate::game::Game;
use crate::report::diagnostic;
use crate::report::solve as report;
use crate::solve::{self, Algorithm, SolveError, SolveOptions};

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum AlgorithmArg {
    /// Plain minimax: every move of every position
    Minimax,
    /// Alpha-beta pruning
    Alphabeta,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Start from this position, written as gdl prints one: "[0, 2, 3, 1]; MIN to move"
    #[arg(long, value_name = "POSITION")]
    pub from: Option<String>,
    /// The search algorithm
    #[arg(long, value_enum, default_value = "alphabeta")]
    pub algorithm: AlgorithmArg,
    /// Search without the memo table of (state, player to move)
    #[arg(long)]
    pub no_memo: bool,
    /// Print every legal move with its value and the line that proves it
    #[arg(long)]
    pub explain: bool,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
    /// Stop after visiting this many nodes
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Stop after this many seconds
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
}

pub fn run(args: &SolveArgs, ctx: &mut Context) -> Result<(), Failure> {
    let game = load_game(&args.game.file, ctx)?;
    if game.num_players() != 2 {
        return Err(Failure::input(format!(
            "error: `gdl solve` solves two-player games; {} has {} players",
            game.name(),
            game.num_players()
        )));
    }
    let root = start_position(&game, args.from.as_deref(), ctx)?;
    let time_limit = match args.time_limit {
        Some(t) if !(t > 0.0 && t.is_finite()) => {
            return Err(Failure::input(format!(
                "error: --time-limit must be a positive number of seconds, not {t}"
            )));
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None => None,
    };
    let opts = SolveOptions {
        algorithm: match args.algorithm {
            AlgorithmArg::Minimax => Algorithm::Minimax,
            AlgorithmArg::Alphabeta => Algorithm::AlphaBeta,
        },
        memo: !args.no_memo,
        max_nodes: args.max_nodes,
        time_limit,
        ..SolveOptions::default()
    };
    let color = ctx.color;
    let fail = |e: SolveError| match e {
        SolveError::Game(g) => Failure::runtime(diagnostic::render(&g, color)),
        other => Failure::runtime(diagnostic::render(&other, color)),
    };
    let solution = solve::solve(&game, &root, &opts).map_err(fail)?;
    let method = format!(
        "{}{}",
        match args.algorithm {
            AlgorithmArg::Minimax => "minimax",
            AlgorithmArg::Alphabeta => "alpha-beta",
        },
        if args.no_memo {
            " without memo"
        } else {
            " with a memo table of (state, player to move)"
        }
    );
    let position = game.position(&root);
    let (state_part, turn_part) = position.rsplit_once("; ").unwrap_or((&position, ""));
    let header = report::Header {
        game: game.name(),
        params: &game.program().params,
        position: state_part.to_string(),
        to_move: turn_part.trim_end_matches(" to move").to_string(),
        method,
    };
    let io = |e: std::io::Error| Failure::runtime(format!("error: {e}"));
    if args.json {
        let mut value = report::json(&game, &header, &solution);
        if args.explain {
            let moves = solve::explain(&game, &root, &opts).map_err(fail)?;
            value["explain"] = moves
                .iter()
                .map(|m| {
                    serde_json::json!({
                        "move": game.move_text(&m.mv),
                        "value": m.value,
                        "line": m.line.iter().map(|x| game.move_text(x)).collect::<Vec<_>>(),
                    })
                })
                .collect();
        }
        writeln!(ctx.out, "{}", serde_json::to_string_pretty(&value).unwrap_or_default()).map_err(io)?;
    } else {
        write!(ctx.out, "{}", report::text(&game, &header, &solution)).map_err(io)?;
        if args.explain {
            let moves = solve::explain(&game, &root, &opts).map_err(fail)?;
            writeln!(ctx.out).map_err(io)?;
            write!(ctx.out, "{}", report::explain_text(&game, solution.value, &moves)).map_err(io)?;
        }
    }
    Ok(())
}
