//! `gdl train FILE --algorithm cfr --iterations N --out STRATEGY`: CFR+ over
//! the whole game tree of a small game with hidden information, the average
//! strategy saved atomically as a strategy file (`solve::strategy_file`).

use std::time::Instant;

use super::TrainArgs;
use crate::cli::kit::cfr_tree::cfr_tree;
use crate::cli::kit::context::{Context, Failure, stdout_failed};
use crate::cli::kit::game_args::{load_game, title};
use crate::cli::kit::progress::progress_bar;
use crate::cli::kit::signals::Caught;
use crate::cli::kit::{limits, output};
use crate::game::Game;
use crate::solve::learn::best_response::exploitability;
use crate::solve::learn::cfr::CfrPlus;
use crate::solve::learn::strategy_file::{self, GameId, Training};

pub fn run(args: &TrainArgs, ctx: &mut Context) -> Result<(), Failure> {
    let game = load_game(&args.game.file, ctx)?;
    let iterations = args.iterations.unwrap_or(1000);
    // Found before training, not after it, so no training is wasted.
    output::check(&[("--out", &args.out)], &[output::Input::game(&args.game.file)])?;
    let root = game.initial_state().map_err(|e| ctx.fail(&e))?;
    let started = Instant::now();
    let tree = cfr_tree(&game, &root, None, false, ctx)?;
    let mut cfr = CfrPlus::new(&tree);
    // One iteration at a time: Ctrl-C, SIGTERM or the time limit stops
    // between two, and the average strategy so far is saved.
    let caught = Caught::new();
    let bar = progress_bar(iterations, "CFR+ iterations", " (Ctrl-C saves and stops)");
    let mut time_up = false;
    while cfr.iterations() < iterations && caught.stopped().is_none() {
        if args.time_limit.is_some_and(|t| started.elapsed().as_secs_f64() >= t) {
            time_up = true;
            break;
        }
        cfr.run(1);
        if let Some(b) = &bar {
            b.set_position(cfr.iterations());
        }
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let stop = caught.stopped().filter(|_| cfr.iterations() < iterations);
    let strategy = cfr.average();
    let e = exploitability(&tree, &strategy);
    let seconds = started.elapsed().as_secs_f64();
    let training = Training {
        algorithm: "cfr+".into(),
        iterations: cfr.iterations(),
        value: e.value,
        exploitability: e.exploitability,
        seconds,
    };
    let file = strategy_file::to_file(&tree, &strategy, &GameId::of(&game), training, |m| game.move_text(m));
    let saved = strategy_file::save(&args.out, &file);
    drop(caught);
    saved.map_err(|e| Failure {
        code: output::EXIT_WRITE,
        text: ctx.render(&e),
    })?;
    let done = cfr.iterations();
    let why = match stop {
        Some(stop) => Some(format!("interrupted by {}", stop.name())),
        None if time_up => Some(format!(
            "at the time limit of {} s",
            limits::plain(args.time_limit.unwrap_or_default())
        )),
        None => None,
    };
    let stopped = why.map_or(String::new(), |why| {
        format!("stopped     {why}, after {done} of {} iterations\n", iterations)
    });
    let text = format!(
        "game        {}\n\
         algorithm   CFR+, {done} iterations over {} nodes and {} information sets\n\
         {stopped}\
         value       {:.6} (for {}, the first player)\n\
         exploitable {:.6} (half the gain of the two best responses; 0 at an equilibrium)\n\
         time        {seconds:.3} s\n\
         saved       {}\n",
        title(&game),
        tree.len(),
        tree.infosets.len(),
        e.value,
        game.player_name(0),
        e.exploitability,
        args.out.display()
    );
    write!(ctx.out, "{text}").map_err(stdout_failed)?;
    if let Some(stop) = stop {
        return Err(Failure {
            code: stop.exit_code(),
            text: format!(
                "training was interrupted after {done} of {} iterations; the average strategy so far is saved in {}",
                iterations,
                args.out.display()
            ),
        });
    }
    Ok(())
}
