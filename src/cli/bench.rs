//! `gdl bench FILE`: how fast the interpreter plays and searches a game:
//! random playouts per second, alpha-beta nodes per second without the memo
//! table, and the time and table size of a memoized solve, each within a
//! time budget.

use std::time::{Duration, Instant};

use clap::Args;
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::cli::kit::context::{Context, Failure, stdout_failed};
use crate::cli::kit::game_args::{GameArgs, load_game, title};
use crate::cli::kit::limits;
use crate::game::Game;
use crate::runtime::Interpreted;
use crate::solve::agents::simulate::{Scratch, random_playout};
use crate::solve::{Algorithm, SolveError, SolveOptions, solve};

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Seconds to spend on each figure (playouts, alpha-beta, the memoized solve)
    #[arg(long, value_name = "SECONDS", default_value_t = 1.0, allow_negative_numbers = true, value_parser = positive_seconds)]
    pub seconds: f64,
    /// Seed of the random playouts
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// `--seconds`: from a millisecond to about eleven days per figure.
fn positive_seconds(text: &str) -> Result<f64, String> {
    limits::seconds(text, limits::MIN_SECONDS, 1e6)
}

pub fn run(args: &BenchArgs, ctx: &mut Context) -> Result<(), Failure> {
    let game = load_game(&args.game.file, ctx)?;
    crate::memory::doing("measuring");
    let budget = Duration::from_secs_f64(args.seconds);
    let fail = |e: &dyn miette::Diagnostic| Failure::runtime(ctx.render(e));
    let root = game.initial_state().map_err(|e| fail(&e))?;

    let mut lines = vec![("game", title(&game))];
    lines.push((
        "engine",
        match game.jit_stats() {
            Some(j) => format!(
                "jit: {} rules compiled to machine code in {:.1} ms",
                j.rules,
                j.compile_time.as_secs_f64() * 1e3
            ),
            None => "vm: the rules run on the interpreter".to_string(),
        },
    ));
    let (playouts, seconds) = playouts(&game, budget, args.seed).map_err(|e| fail(&e))?;
    lines.push((
        "playouts",
        format!(
            "{:.0} random playouts/s ({playouts} playouts in {seconds:.2} s)",
            playouts as f64 / seconds
        ),
    ));

    // The exact solver takes two players taking turns; say why a game is skipped.
    let prog = game.program();
    let unsolvable = if prog.has_chance || prog.has_simultaneous {
        Some("skipped: the game has chance or simultaneous moves; the exact solver needs turns".to_string())
    } else if game.num_players() != 2 {
        Some(format!(
            "skipped: the game has {} players; the exact solver needs two",
            game.num_players()
        ))
    } else {
        None
    };
    match &unsolvable {
        Some(why) => lines.push(("alpha-beta", why.clone())),
        None => {
            let (nodes, seconds, finished) = alphabeta(&game, &root, budget).map_err(|e| fail(&e))?;
            let how = if finished {
                "solved"
            } else {
                "stopped at the time budget"
            };
            lines.push((
                "alpha-beta",
                format!(
                    "{:.0} nodes/s without memo ({nodes} nodes in {seconds:.2} s, {how})",
                    nodes as f64 / seconds
                ),
            ));
        }
    }
    match unsolvable {
        Some(why) => lines.push(("memo solve", why)),
        None => {
            let opts = SolveOptions {
                algorithm: Algorithm::AlphaBeta,
                memo: true,
                time_limit: Some(budget),
                ..SolveOptions::default()
            };
            let started = Instant::now();
            let text = match solve(&game, &root, &opts) {
                Ok(sol) => format!(
                    "{:.3} ms, {} table entries (alpha-beta with memo: {} nodes, value {})",
                    started.elapsed().as_secs_f64() * 1e3,
                    sol.memo_entries,
                    sol.nodes,
                    sol.value
                ),
                Err(SolveError::Budget { nodes, .. }) => format!(
                    "skipped: not solved within {} s ({nodes} nodes); give more --seconds",
                    args.seconds
                ),
                Err(e) => return Err(fail(&e)),
            };
            lines.push(("memo solve", text));
        }
    }

    let text: String = lines.iter().map(|(k, v)| format!("{k:<11} {v}\n")).collect();
    write!(ctx.out, "{text}").map_err(stdout_failed)
}

/// Random playouts from the start for `budget`: how many, in how many seconds.
fn playouts(game: &Interpreted, budget: Duration, seed: u64) -> Result<(u64, f64), crate::game::GameError> {
    let root = game.initial_state()?;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut scratch = Scratch::default();
    let mut state = root.clone();
    let started = Instant::now();
    let mut n = 0u64;
    while n == 0 || started.elapsed() < budget {
        state.clone_from(&root);
        random_playout(game, &mut state, &mut rng, &mut scratch)?;
        n += 1;
    }
    Ok((n, started.elapsed().as_secs_f64()))
}

/// Alpha-beta without memo from `root`, repeated until `budget` is spent (or
/// stopped by it): nodes searched, seconds, and whether a solve finished.
fn alphabeta(
    game: &Interpreted,
    root: &crate::runtime::State,
    budget: Duration,
) -> Result<(u64, f64, bool), SolveError> {
    let started = Instant::now();
    let (mut nodes, mut finished) = (0u64, false);
    loop {
        let left = budget.saturating_sub(started.elapsed());
        if left.is_zero() {
            break;
        }
        let opts = SolveOptions {
            algorithm: Algorithm::AlphaBeta,
            memo: false,
            count_states: false,
            time_limit: Some(left),
            ..SolveOptions::default()
        };
        match solve(game, root, &opts) {
            Ok(sol) => {
                nodes += sol.nodes;
                finished = true;
            }
            Err(SolveError::Budget { nodes: n, .. }) => {
                nodes += n;
                break;
            }
            Err(e) => return Err(e),
        }
    }
    Ok((nodes, started.elapsed().as_secs_f64(), finished))
}
