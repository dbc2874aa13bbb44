//! `gdl solve` for the games alpha-beta does not solve: chance or
//! simultaneous moves with nothing hidden (expectiminimax, matrix games by
//! linear programming), hidden information (CFR+, iterative), and, on
//! request, impartial games (`--grundy`, Sprague-Grundy values).

use std::time::{Duration, Instant};

use super::solve::SolveArgs;
use super::{Context, Failure};
use crate::game::Game;
use crate::ir::Visibility;
use crate::report;
use crate::report::cfr::CfrRun;
use crate::runtime::{Interpreted, State};
use crate::solve::SolveError;
use crate::solve::best_response::exploitability;
use crate::solve::cfr::CfrPlus;
use crate::solve::expectimax::{self, ChanceOptions};
use crate::solve::grundy;
use crate::solve::infotree::{InfoTree, size_lower_bound};

/// The default limit on CFR's game tree, in nodes: the interpreter builds a
/// few tens of thousands a second, so this is a minute or so at most.
pub const CFR_MAX_NODES: u64 = 1_000_000;
/// CFR+ iterations when `--iterations` is not given.
pub const CFR_ITERATIONS: u64 = 1000;

/// Which solver a game needs, when it is not alpha-beta.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Chance or simultaneous moves, nothing hidden.
    Chance,
    /// Something hidden from a player.
    Hidden,
    /// `--grundy`.
    Grundy,
}

/// The solver `game` needs, or `None` for alpha-beta.
pub fn kind(game: &Interpreted, grundy: bool) -> Option<Kind> {
    let prog = game.program();
    if grundy {
        Some(Kind::Grundy)
    } else if prog.vars.iter().any(|v| v.visibility != Visibility::Public) {
        Some(Kind::Hidden)
    } else if prog.has_chance || prog.has_simultaneous {
        Some(Kind::Chance)
    } else {
        None
    }
}

/// The lines every report starts with: game, position, who acts.
pub(super) fn header(game: &Interpreted, root: &State) -> String {
    let params: Vec<String> = game
        .program()
        .params
        .iter()
        .map(|(n, v)| format!("{n} = {v}"))
        .collect();
    let mut out = if params.is_empty() {
        format!("game        {}\n", game.name())
    } else {
        format!("game        {} ({})\n", game.name(), params.join(", "))
    };
    let position = game.position(root);
    let (state, _) = position.rsplit_once("; ").unwrap_or((&position, ""));
    out.push_str(&format!("position    {state}\n"));
    let who = match game.turn(root) {
        Ok(crate::game::Turn::Player(p)) => game.player_name(p).to_string(),
        Ok(crate::game::Turn::Chance) => "chance".to_string(),
        Ok(crate::game::Turn::Simultaneous) => "both players at once".to_string(),
        Ok(crate::game::Turn::Terminal) => "nobody: the game is over".to_string(),
        Err(_) => "?".to_string(),
    };
    out.push_str(&format!("to move     {who}\n"));
    out
}

pub fn run(kind: Kind, args: &SolveArgs, game: &Interpreted, root: &State, ctx: &mut Context) -> Result<(), Failure> {
    let fail = |e: SolveError| ctx.fail(&e);
    let io = super::stdout_failed;
    let time_limit = args.time_limit.map(Duration::from_secs_f64);
    let text = match kind {
        Kind::Chance => {
            let opts = ChanceOptions {
                max_states: args.max_states,
                time_limit,
                ..ChanceOptions::default()
            };
            let s = expectimax::solve(game, root, &opts).map_err(fail)?;
            if args.json {
                report::chance::json(game, &s, args.explain).to_string()
            } else {
                let mut text = report::chance::text(game, &header(game, root), &s);
                if args.explain {
                    text.push('\n');
                    text.push_str(&report::chance::explain_text(game, &s));
                }
                text
            }
        }
        Kind::Grundy => {
            let s = grundy::grundy(game, root, args.max_states).map_err(fail)?;
            if args.json {
                report::grundy::json(game, &s).to_string()
            } else {
                report::grundy::text(game, &header(game, root), &s)
            }
        }
        Kind::Hidden => {
            let started = Instant::now();
            let tree = cfr_tree(game, root, args.max_nodes, ctx)?;
            let iterations = args.iterations.unwrap_or(CFR_ITERATIONS);
            let mut cfr = CfrPlus::new(&tree);
            let mut stopped_early = false;
            // In steps, so that a time limit can stop it between two: each
            // twice the last until one takes 10 ms, whatever the count asked
            // for (a hundredth of 10^12 iterations is hours).
            let mut step = 1u64;
            while cfr.iterations() < iterations {
                if time_limit.is_some_and(|t| started.elapsed() >= t) {
                    stopped_early = true;
                    break;
                }
                let took = Instant::now();
                cfr.run(step.min(iterations - cfr.iterations()));
                if took.elapsed() < Duration::from_millis(10) {
                    step = step.saturating_mul(2);
                }
            }
            let strategy = cfr.average();
            let e = exploitability(&tree, &strategy);
            let run = CfrRun {
                iterations: cfr.iterations(),
                seconds: started.elapsed().as_secs_f64(),
                stopped_early,
            };
            if args.json {
                report::cfr::json(game, &tree, &strategy, &e, &run).to_string()
            } else {
                report::cfr::text(game, &header(game, root), &tree, &strategy, &e, &run)
            }
        }
    };
    write!(ctx.out, "{text}").map_err(io)?;
    if args.json {
        writeln!(ctx.out).map_err(io)?;
    }
    Ok(())
}

/// The game tree for CFR, refused at once when even one line of play shows
/// that it is beyond `max_nodes` (default [`CFR_MAX_NODES`]).
pub fn cfr_tree(
    game: &Interpreted,
    root: &State,
    max_nodes: Option<u64>,
    ctx: &Context,
) -> Result<InfoTree<<Interpreted as Game>::Move>, Failure> {
    let limit = max_nodes.unwrap_or(CFR_MAX_NODES);
    let too_big = |what: String| {
        Failure::runtime(format!(
            "error: {} has hidden information, which CFR solves over its whole game tree, and {what}\n\
             help: solve a smaller configuration, or raise --max-nodes (memory grows with it)",
            game.name()
        ))
    };
    let bound = size_lower_bound(game, root).map_err(|e| ctx.fail(&e))?;
    if bound > limit as f64 {
        return Err(too_big(format!(
            "one line of play alone shows more than {bound:.2e} ends, beyond the limit of {limit} nodes"
        )));
    }
    InfoTree::build(game, root, limit).map_err(|e| match e {
        SolveError::Budget { limit, .. } => too_big(format!("the tree has more than {limit} nodes")),
        e => ctx.fail(&e),
    })
}
