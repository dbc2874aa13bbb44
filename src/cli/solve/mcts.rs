//! `gdl solve FILE --mcts N`: Monte Carlo tree search from a position, for
//! games past exact reach (and any number of players, chance, simultaneous
//! moves and hidden cards): each root move's visits, mean return, what
//! MCTS-Solver proved, and its line.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::cli::kit::context::{Context, Failure, stdout_failed};
use crate::game::{Game, Turn};
use crate::report::mcts as report;
use crate::runtime::{Interpreted, State};
use crate::solve::agents::mcts::{self, MctsConfig};
use crate::solve::agents::simulate::{Scratch, sample_chance};

/// What `--mcts` takes from the command line.
pub struct MctsArgs {
    pub simulations: u64,
    pub exploration: f64,
    pub cutoff: Option<usize>,
    pub backup: mcts::Backup,
    pub threads: usize,
    pub parallel: mcts::Parallelism,
    pub seed: u64,
    pub time_limit: Option<f64>,
    pub json: bool,
}

pub fn run(args: &MctsArgs, game: &Interpreted, root: &State, ctx: &mut Context) -> Result<(), Failure> {
    let mut rng = StdRng::seed_from_u64(args.seed);
    // Chance acts first (a deal, a card turned up): its outcomes are drawn
    // with the seed, and the search starts where a player chooses.
    let mut root = root.clone();
    let mut drawn = Vec::new();
    let mut scratch = Scratch::default();
    while game.turn(&root).map_err(|e| ctx.fail(&e))? == Turn::Chance {
        let mv = sample_chance(game, &root, &mut rng, &mut scratch).map_err(|e| ctx.fail(&e))?;
        drawn.push(game.move_text(&mv));
        game.apply(&mut root, &mv).map_err(|e| ctx.fail(&e))?;
    }
    let root = &root;
    let turn = game.turn(root).map_err(|e| ctx.fail(&e))?;
    let (player, mover) = match turn {
        Turn::Player(p) => (p, game.player_name(p).to_string()),
        // At a simultaneous node the report is the first player's choice.
        Turn::Simultaneous => (0, game.player_name(0).to_string()),
        Turn::Chance => unreachable!("chance was drawn above"),
        Turn::Terminal => {
            return Err(Failure::input(
                "error: the game is over in this position: there is nothing to search",
            ));
        }
    };
    let cfg = MctsConfig {
        simulations: args.simulations,
        time: args.time_limit.map(Duration::from_secs_f64),
        exploration: args.exploration,
        cutoff: args.cutoff,
        backup: args.backup,
        threads: args.threads,
        parallel: args.parallel,
        ..MctsConfig::default()
    };
    crate::memory::doing("searching");
    let started = Instant::now();
    let result =
        mcts::search(game, root, &[], player, &cfg, &mut rng, &mut None).map_err(|e| Failure::of(&e, ctx.color))?;
    let seconds = started.elapsed().as_secs_f64();
    if result.moves.is_empty() {
        return Err(Failure::runtime("error: the search visited no move (a bug in gdl)"));
    }
    let best = result.best(&mut rng);
    let stopped = if result.proven().is_some() {
        "proven"
    } else if result.simulations < args.simulations {
        "time"
    } else {
        "simulations"
    };
    let position = game.position(root);
    let (state_part, turn_part) = position.rsplit_once("; ").unwrap_or((&position, ""));
    let header = report::Header {
        game: game.name(),
        params: &game.program().params,
        position: state_part.to_string(),
        to_move: turn_part.trim_end_matches(" to move").to_string(),
        mover,
        simultaneous: turn == Turn::Simultaneous,
        drawn,
        exploration: args.exploration,
        cutoff: args.cutoff,
        backup: args.backup,
        threads: args.threads,
        seed: args.seed,
        seconds,
        stopped,
    };
    let io = stdout_failed;
    if args.json {
        let value = report::json(game, &header, &result, best);
        writeln!(ctx.out, "{}", serde_json::to_string_pretty(&value).unwrap_or_default()).map_err(io)?;
    } else {
        let range = game.utility_range().unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
        write!(ctx.out, "{}", report::text(game, &header, &result, best, range)).map_err(io)?;
    }
    Ok(())
}
