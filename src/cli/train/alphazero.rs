//! `gdl train FILE --algorithm alphazero --out NET`: AlphaZero-style
//! self-play (`solve::learn::alphazero`), one line per iteration, the
//! network saved atomically after each iteration and at the end; `--curve`
//! writes the learning curve (results against `random` and `mcts` after
//! each iteration) as CSV. Ctrl-C, SIGTERM or the time limit stops between
//! two games and saves what was learned by the last full iteration.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::TrainArgs;
use crate::cli::kit::context::{Context, Failure, stdout_failed};
use crate::cli::kit::game_args::{load_game, title};
use crate::cli::kit::signals::Caught;
use crate::cli::kit::{limits, output};
use crate::game::Game;
use crate::report::plot;
use crate::runtime::Interpreted;
use crate::solve::agent_builder::MoveKinds;
use crate::solve::agent_builder::alphazero_unsuited;
use crate::solve::agents::agent::{Agent, RandomAgent};
use crate::solve::agents::mcts::{MctsAgent, MctsConfig};
use crate::solve::learn::alphazero::agent::AzAgent;
use crate::solve::learn::alphazero::file::{self, AzTraining};
use crate::solve::learn::alphazero::net::Net;
use crate::solve::learn::alphazero::train::{AzSettings, Trainer, network_shape};
use crate::solve::matches::stats::wilson;
use crate::solve::matches::tournament::play_match;

/// Iterations when `--iterations` is not given: with the other defaults
/// (50 games, 200 simulations, 2 moves drawn), tic-tac-toe in about 35 s
/// on one core, after which it drew 200 of 200 games against `optimal`
/// for seeds 1, 2 and 3 (with 100 simulations, or 4 moves drawn, it lost
/// 39 and 51 of 100 as O).
pub const DEFAULT_ITERATIONS: u64 = 100;

/// Simulations per move of the `mcts` opponent of the learning curve.
const CURVE_MCTS: u64 = 200;

pub fn run(args: &TrainArgs, ctx: &mut Context) -> Result<(), Failure> {
    let game = load_game(&args.game.file, ctx)?;
    crate::memory::doing("training");
    let prog = game.program();
    if let Some(why) = alphazero_unsuited(game.name(), game.num_players(), MoveKinds::of(prog)) {
        return Err(Failure::input(format!("error: {why}")));
    }
    if let Some(n) = game.repetition() {
        return Err(Failure::input(format!(
            "error: {} ends a game by its rule `end when repeated {n}`, whose history AlphaZero-style search does not keep; try `mcts`",
            game.name()
        )));
    }
    let settings = settings(args)?;
    network_shape(&game, &settings.hidden).map_err(|why| Failure::input(format!("error: {why}")))?;
    let mut outputs = vec![("--out", args.out.as_path())];
    if let Some(curve) = &args.curve {
        outputs.push(("--curve", curve.as_path()));
    }
    let plot_format = match &args.plot {
        Some(plot) => {
            outputs.push(("--plot", plot.as_path()));
            Some(plot::Format::check(plot).map_err(Failure::input)?)
        }
        None => None,
    };
    output::check(&outputs, &[output::Input::game(&args.game.file)])?;
    let (init, before) = match &args.init {
        Some(path) => {
            let (net, training) = file::load(path, &game).map_err(|e| ctx.fail(&e))?;
            (Some(net), Some(training))
        }
        None => (None, None),
    };
    let hidden_of_init = init.as_ref().map(|n: &Net| n.shape().hidden.clone());
    let settings = AzSettings {
        hidden: hidden_of_init.unwrap_or(settings.hidden),
        ..settings
    };
    let mut trainer =
        Trainer::new(&game, settings.clone(), init).map_err(|why| Failure::input(format!("error: {why}")))?;
    let iterations = args.iterations.unwrap_or(DEFAULT_ITERATIONS);
    let evaluates = args.curve.is_some() || args.plot.is_some();
    let mut curve = evaluates.then(|| {
        String::from("iteration,games,positions,seconds,policy_loss,value_loss,random_score,random_low,random_high,mcts_score,mcts_low,mcts_high\n")
    });
    // The learning curve's points, for the picture: against random, against mcts.
    let mut points: [Vec<plot::CurvePoint>; 2] = [Vec::new(), Vec::new()];

    let io = stdout_failed;
    writeln!(
        ctx.out,
        "game        {}\nnetwork     {} inputs, hidden {:?}, {} actions ({} parameters)\nself-play   {} games an iteration, {} simulations a move, {} thread{} (Ctrl-C saves and stops)",
        title(&game),
        trainer.net().shape().inputs,
        trainer.net().shape().hidden,
        trainer.net().shape().actions,
        trainer.net().params().len(),
        settings.games,
        settings.simulations,
        settings.threads,
        if settings.threads == 1 { "" } else { "s" }
    )
    .map_err(io)?;
    // Caught until the last save is done, so that a second Ctrl-C cannot cut it short.
    let caught = Caught::new();
    let started = Instant::now();
    let time_up = || args.time_limit.is_some_and(|t| started.elapsed().as_secs_f64() >= t);
    let stop = || caught.flag().load(Ordering::SeqCst) || time_up();
    let training = |trainer: &Trainer<'_, Interpreted>, interrupted: bool| AzTraining {
        iterations: before.as_ref().map_or(0, |b| b.iterations) + trainer.iterations,
        games: before.as_ref().map_or(0, |b| b.games) + trainer.games,
        positions: before.as_ref().map_or(0, |b| b.positions) + trainer.samples,
        games_per_iteration: settings.games,
        simulations: settings.simulations,
        c_puct: settings.c_puct,
        learning_rate: settings.learning_rate,
        seed: settings.seed,
        seconds: before.as_ref().map_or(0.0, |b| b.seconds) + started.elapsed().as_secs_f64(),
        interrupted,
    };
    let unwritable = |e: &dyn miette::Diagnostic, color: bool| Failure {
        code: output::EXIT_WRITE,
        text: crate::report::diagnostic::render(e, color),
    };
    while trainer.iterations < iterations {
        let Some(stats) = trainer.iteration(&stop).map_err(|e| ctx.fail(&e))? else {
            break;
        };
        // Saved after every iteration: a crash or a kill loses one at most.
        file::save(&args.out, &game, trainer.net(), &training(&trainer, true))
            .map_err(|e| unwritable(&e, ctx.color))?;
        let [w, d, l] = stats.first_player;
        let mut line = format!(
            "iteration {:>4}  {} games, {} positions, {} steps  loss policy {:.3} value {:.3}  {} first: {w}-{d}-{l}  {:.0} s",
            trainer.iterations,
            stats.games,
            stats.samples,
            stats.steps,
            stats.policy_loss,
            stats.value_loss,
            game.player_name(0),
            started.elapsed().as_secs_f64()
        );
        let last = trainer.iterations >= iterations;
        if let Some(csv) = curve
            .as_mut()
            .filter(|_| last || trainer.iterations % args.curve_every == 0)
        {
            let net = trainer.net().clone();
            let vs_random = score_against(
                &game,
                &net,
                settings.simulations,
                Box::new(RandomAgent::new(args.seed)),
                args.curve_games,
                args.seed,
            )?;
            let mcts = MctsAgent::new(
                format!("mcts:{CURVE_MCTS}"),
                MctsConfig {
                    simulations: CURVE_MCTS,
                    ..MctsConfig::default()
                },
                args.seed,
            );
            let vs_mcts = score_against(
                &game,
                &net,
                settings.simulations,
                Box::new(mcts),
                args.curve_games,
                args.seed,
            )?;
            line.push_str(&format!(
                "  against random {:.0}%, mcts:{CURVE_MCTS} {:.0}%",
                100.0 * vs_random.0,
                100.0 * vs_mcts.0
            ));
            csv.push_str(&format!(
                "{},{},{},{:.1},{:.4},{:.4},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3}\n",
                trainer.iterations,
                trainer.games,
                trainer.samples,
                started.elapsed().as_secs_f64(),
                stats.policy_loss,
                stats.value_loss,
                vs_random.0,
                vs_random.1,
                vs_random.2,
                vs_mcts.0,
                vs_mcts.1,
                vs_mcts.2
            ));
            if let Some(path) = &args.curve {
                crate::fsutil::write_atomic(path, csv.as_bytes())
                    .map_err(|e| Failure::runtime(format!("error: cannot write {}: {e}", path.display())))?;
            }
            for (series, (score, low, high)) in points.iter_mut().zip([vs_random, vs_mcts]) {
                series.push(plot::CurvePoint {
                    x: trainer.iterations as f64,
                    score,
                    low,
                    high,
                });
            }
            // Drawn again at each point, so that a stopped run keeps its picture.
            if let (Some(path), Some(format)) = (&args.plot, plot_format) {
                let mcts_name = format!("mcts:{CURVE_MCTS}");
                let series = [
                    plot::CurveSeries {
                        name: "random",
                        points: &points[0],
                    },
                    plot::CurveSeries {
                        name: &mcts_name,
                        points: &points[1],
                    },
                ];
                let title = format!(
                    "{}: AlphaZero-style training, {} games a point",
                    title(&game),
                    args.curve_games
                );
                let bytes = plot::learning_curve_file(format, &title, "iteration", &series);
                crate::fsutil::write_atomic(path, &bytes)
                    .map_err(|e| Failure::runtime(format!("error: cannot write {}: {e}", path.display())))?;
            }
        }
        writeln!(ctx.out, "{line}").map_err(io)?;
        ctx.out.flush().map_err(io)?;
    }
    let done = trainer.iterations;
    let interrupted = done < iterations;
    file::save(&args.out, &game, trainer.net(), &training(&trainer, interrupted))
        .map_err(|e| unwritable(&e, ctx.color))?;
    let stopped = caught.stopped().filter(|_| interrupted);
    drop(caught);
    let why = match stopped {
        Some(s) => Some(format!("interrupted by {}", s.name())),
        None if interrupted && time_up() => Some(format!(
            "at the time limit of {} s",
            limits::plain(args.time_limit.unwrap_or_default())
        )),
        None => None,
    };
    let seconds = started.elapsed().as_secs_f64();
    let mut text = String::new();
    if let Some(why) = why {
        text.push_str(&format!(
            "stopped     {why}, after {done} of {iterations} iterations (the last one unfinished is not learned)\n"
        ));
    }
    text.push_str(&format!(
        "trained     {done} iterations, {} games, {} positions in {seconds:.1} s\nsaved       {}\n",
        trainer.games,
        trainer.samples,
        args.out.display()
    ));
    write!(ctx.out, "{text}").map_err(io)?;
    if let Some(stop) = stopped {
        return Err(Failure {
            code: stop.exit_code(),
            text: format!(
                "training was interrupted after {done} of {iterations} iterations; what was learned is saved in {}",
                args.out.display()
            ),
        });
    }
    Ok(())
}

/// The run's settings from the flags.
fn settings(args: &TrainArgs) -> Result<AzSettings, Failure> {
    let bad = |flag: &str, why: &str| Failure::input(format!("error: {flag}: {why}"));
    if !(args.learning_rate.is_finite() && args.learning_rate > 0.0 && args.learning_rate <= 1.0) {
        return Err(bad("--learning-rate", "a number above 0, at most 1"));
    }
    if !(args.c_puct.is_finite() && args.c_puct > 0.0) {
        return Err(bad("--c-puct", "a number above 0"));
    }
    Ok(AzSettings {
        hidden: vec![args.hidden as usize; 2],
        games: args.games_per_iteration,
        simulations: args.simulations,
        c_puct: args.c_puct as f32,
        explore_moves: args.temperature_moves,
        learning_rate: args.learning_rate as f32,
        seed: args.seed,
        threads: args.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |n| n as usize,
        ),
        ..AzSettings::default()
    })
}

/// The network's score against `opponent` (a win 1, a draw ½) over `games`
/// games, half in each seat, with its 95% interval (of the wins and half
/// the draws, counted as Wilson's successes).
fn score_against(
    game: &Interpreted,
    net: &Net,
    simulations: u64,
    opponent: Box<dyn Agent<Interpreted> + '_>,
    games: u64,
    seed: u64,
) -> Result<(f64, f64, f64), Failure> {
    let az = AzAgent::new("az".into(), net.clone(), Some(simulations), None::<Duration>);
    let mut agents: Vec<Box<dyn Agent<Interpreted> + '_>> = vec![Box::new(az), opponent];
    let tally = play_match(game, &mut agents, games, seed, &mut |_| {})
        .map_err(|e| Failure::runtime(format!("error: the learning curve's games failed: {e}")))?;
    let r = &tally.overall[0];
    let points = r.wins as f64 + r.draws as f64 / 2.0;
    let score = if r.games == 0 { 0.0 } else { points / r.games as f64 };
    let (low, high) = wilson(points.round() as u64, r.games).unwrap_or((0.0, 1.0));
    Ok((score, low, high))
}
