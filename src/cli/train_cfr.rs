//! `gdl train FILE --algorithm cfr --iterations N --out STRATEGY`: CFR+ over
//! the whole game tree of a small game with hidden information, the average
//! strategy saved atomically as a strategy file (`solve::strategy_file`).

use std::time::Instant;

use super::solve_kinds::cfr_tree;
use super::train::TrainArgs;
use super::{Context, Failure, load_game};
use crate::game::Game;
use crate::solve::best_response::exploitability;
use crate::solve::cfr::CfrPlus;
use crate::solve::strategy_file::{self, GameId, Training};

pub fn run(args: &TrainArgs, ctx: &mut Context) -> Result<(), Failure> {
    let game = load_game(&args.game.file, ctx)?;
    // Found before training, not after it, so no training is wasted.
    super::output::check(&[("--out", &args.out)], &[&args.game.file])?;
    let root = game.initial_state().map_err(|e| ctx.fail(&e))?;
    let started = Instant::now();
    let tree = cfr_tree(&game, &root, None, ctx)?;
    let mut cfr = CfrPlus::new(&tree);
    cfr.run(args.iterations);
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
    strategy_file::save(&args.out, &file).map_err(|e| Failure {
        code: super::output::EXIT_WRITE,
        text: ctx.render(&e),
    })?;
    let text = format!(
        "game        {}\n\
         algorithm   CFR+, {} iterations over {} nodes and {} information sets\n\
         value       {:.6} (for {}, the first player)\n\
         exploitable {:.6} (half the gain of the two best responses; 0 at an equilibrium)\n\
         time        {seconds:.3} s\n\
         saved       {}\n",
        super::eval::title(&game),
        cfr.iterations(),
        tree.len(),
        tree.infosets.len(),
        e.value,
        game.player_name(0),
        e.exploitability,
        args.out.display()
    );
    write!(ctx.out, "{text}").map_err(super::stdout_failed)
}
