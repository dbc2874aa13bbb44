//! `gdl solve` for the games alpha-beta does not solve: chance or
//! simultaneous moves with nothing hidden (expectiminimax, matrix games by
//! linear programming), hidden information (CFR+, iterative), and, on
//! request, impartial games (`--grundy`, Sprague-Grundy values).

use std::time::{Duration, Instant};

use super::SolveArgs;
use crate::cli::kit::cfr_tree::cfr_tree;
use crate::cli::kit::context::{Context, Failure, stdout_failed};
use crate::cli::kit::exact::Kind;
use crate::game::Game;
use crate::report;
use crate::report::cfr::CfrRun;
use crate::runtime::{Interpreted, State};
use crate::solve::SolveError;
use crate::solve::exact::expectimax::{self, ChanceOptions};
use crate::solve::exact::grundy;
use crate::solve::learn::best_response::exploitability;
use crate::solve::learn::cfr::CfrPlus;

/// CFR+ iterations when `--iterations` is not given.
pub const CFR_ITERATIONS: u64 = 1000;

/// The lines every report starts with: game, position, who acts.
pub(in crate::cli) fn header(game: &Interpreted, root: &State) -> String {
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
        // Whose turn it is matters to what chance does (Pig's die), and
        // `--from` names it: `; A to move`.
        Ok(crate::game::Turn::Chance) => match game.position(root).rsplit_once("; ") {
            Some((_, turn)) => format!("chance, in {}'s turn", turn.trim_end_matches(" to move")),
            None => "chance".to_string(),
        },
        Ok(crate::game::Turn::Simultaneous) => "both players at once".to_string(),
        Ok(crate::game::Turn::Terminal) => "nobody: the game is over".to_string(),
        Err(_) => "?".to_string(),
    };
    out.push_str(&format!("to move     {who}\n"));
    out
}

/// The flags of `gdl solve` that `kind`'s solver does not use, as the
/// user wrote them: refused, rather than ignored in silence.
fn unused_flags(kind: Kind, args: &SolveArgs) -> Vec<&'static str> {
    let mut unused = Vec::new();
    let mut check = |given: bool, flag: &'static str| {
        if given {
            unused.push(flag);
        }
    };
    check(args.algorithm.is_some(), "--algorithm");
    check(args.no_memo, "--no-memo");
    check(args.fast, "--fast");
    check(args.stats, "--stats");
    check(args.depth.is_some(), "--depth");
    check(kind != Kind::Hidden && args.iterations.is_some(), "--iterations");
    check(kind != Kind::Chance && args.explain, "--explain");
    check(kind == Kind::Grundy && args.time_limit.is_some(), "--time-limit");
    check(kind == Kind::Hidden && args.max_states.is_some(), "--max-states");
    check(kind != Kind::Hidden && args.max_nodes.is_some(), "--max-nodes");
    unused
}

/// What solves `kind`, in words, for the message that refuses a flag.
fn solver_words(kind: Kind, game: &Interpreted) -> String {
    let prog = game.program();
    match kind {
        Kind::Chance if prog.has_simultaneous && prog.has_chance => format!(
            "{} has chance and simultaneous moves, which gdl solves by expectiminimax with a memo table and matrix games",
            game.name()
        ),
        Kind::Chance if prog.has_simultaneous => format!(
            "{} has simultaneous moves, which gdl solves by expectiminimax with a memo table and matrix games",
            game.name()
        ),
        Kind::Chance => format!(
            "{} has chance moves, which gdl solves by expectiminimax with a memo table",
            game.name()
        ),
        Kind::Hidden => format!(
            "{} has hidden information, which gdl solves by CFR+ (--iterations, --max-nodes, --time-limit)",
            game.name()
        ),
        Kind::Grundy => "--grundy computes Sprague-Grundy values with a memo table (--max-states)".to_string(),
    }
}

pub fn run(kind: Kind, args: &SolveArgs, game: &Interpreted, root: &State, ctx: &mut Context) -> Result<(), Failure> {
    let unused = unused_flags(kind, args);
    if !unused.is_empty() {
        return Err(Failure::input(format!(
            "error: {} {} not apply here: {}",
            unused.join(", "),
            if unused.len() == 1 { "does" } else { "do" },
            solver_words(kind, game)
        )));
    }
    let fail = |e: SolveError| ctx.fail(&e);
    let io = stdout_failed;
    let time_limit = args.time_limit.map(Duration::from_secs_f64);
    let text = match kind {
        Kind::Chance => {
            let started = Instant::now();
            let (solved, stop) = super::watch::watched(|watch| {
                let opts = ChanceOptions {
                    max_states: args.max_states,
                    time_limit,
                    watch: Some(watch),
                    ..ChanceOptions::default()
                };
                // Every core unless --threads says otherwise, as for the other
                // exact solves: Pig to 100 took 4.8 s on one thread and 2.7 s
                // on two (2 idle cores), with the same values bit for bit.
                expectimax::solve_threads(game, root, &opts, super::exact_threads(args))
            });
            let s = match solved {
                // Expectiminimax has no partial answer to give: it says so.
                Err(SolveError::Budget { what, nodes, .. }) if what == crate::solve::STOPPED => {
                    let (name, code) = stop.map_or(("Ctrl-C", 130), |s| (s.name(), s.exit_code()));
                    return Err(Failure {
                        code,
                        text: format!(
                            "the search was interrupted by {name} after {} nodes, {:.1} s; expectiminimax \
                             has no value before it is done",
                            crate::report::solve::thousands(nodes),
                            started.elapsed().as_secs_f64()
                        ),
                    });
                }
                other => other.map_err(fail)?,
            };
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
            let tree = cfr_tree(game, root, args.max_nodes, true, ctx)?;
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
