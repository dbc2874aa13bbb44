//! `gdl train FILE --episodes N --alpha A --epsilon E --seed S --out TABLE`:
//! Q-learning by self-play, the table saved atomically; `--init` continues
//! from a saved table, `--evaluate` judges the result. Ctrl-C or SIGTERM stops
//! training between two games and saves what was learned.

pub(in crate::cli) mod alphazero;
pub(in crate::cli) mod cfr;
pub(in crate::cli) mod eval;
pub(in crate::cli) mod eval_wrong;

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, ValueEnum};

use crate::cli::kit::args::SearchArgs;
use crate::cli::kit::context::{Context, Failure, stdout_failed};
use crate::cli::kit::game_args::{GameArgs, load_game, title};
use crate::cli::kit::progress::progress_bar;
use crate::cli::kit::signals::Caught;
use crate::cli::kit::{limits, output};
use crate::game::Game;
use crate::solve::learn::qfile::{self, Training};
use crate::solve::learn::qlearn::{QLearnError, QLearner, QSettings, QTable, check_players};
use eval::report;

/// What `gdl train` learns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TrainAlgorithm {
    /// Q-learning by self-play: a Q-table (turn-taking games)
    Q,
    /// CFR+ over the whole game tree: a strategy (small games with hidden information)
    Cfr,
    /// AlphaZero-style self-play with PUCT search and a small policy/value
    /// network: a network for `az:FILE` (two-player games taken in turns)
    Alphazero,
}

#[derive(Args, Debug)]
pub struct TrainArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// What to learn
    #[arg(long, value_enum, default_value = "q")]
    pub algorithm: TrainAlgorithm,
    /// With --algorithm cfr: CFR+ iterations (default 1000); with
    /// --algorithm alphazero: rounds of self-play and learning (default 100)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub iterations: Option<u64>,
    /// With --algorithm alphazero: self-play games each iteration
    #[arg(long, value_name = "N", default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..))]
    pub games_per_iteration: u64,
    /// With --algorithm alphazero: PUCT simulations per move of self-play
    /// (and of the learning curve's games)
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub simulations: u64,
    /// With --algorithm alphazero: moves at the start of each self-play game
    /// drawn in proportion to the search's visits (temperature 1); later
    /// moves are the most visited
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub temperature_moves: usize,
    /// With --algorithm alphazero: units in each of the network's two hidden layers
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hidden: u64,
    /// With --algorithm alphazero: Adam's learning rate
    #[arg(long, value_name = "LR", default_value_t = 0.002)]
    pub learning_rate: f64,
    /// With --algorithm alphazero: PUCT's exploration constant
    #[arg(long, value_name = "C", default_value_t = 1.5)]
    pub c_puct: f64,
    /// With --algorithm alphazero: threads playing self-play games (default:
    /// every core); the network learned is the same for any number
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// With --algorithm alphazero: write the learning curve here (CSV: after
    /// each iteration, the score against `random` and `mcts:200` with 95% intervals)
    #[arg(long, value_name = "FILE")]
    pub curve: Option<PathBuf>,
    /// With --curve or --plot: games against each opponent after each
    /// evaluation (half in each seat)
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
    pub curve_games: u64,
    /// With --curve or --plot: evaluate after every N iterations (and after the last)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub curve_every: u64,
    /// With --algorithm alphazero: draw the learning curve here (FILE.svg or
    /// FILE.png): the score against `random` and `mcts:200` over training
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Training games to play against itself
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub episodes: u64,
    /// Stop training after this many seconds (between two games, or two
    /// CFR+ iterations) and save what was learned
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = limits::time_limit)]
    pub time_limit: Option<f64>,
    /// The learning rate: how far each update moves a value towards its target
    #[arg(long, value_name = "A", default_value_t = 0.5)]
    pub alpha: f64,
    /// The chance of a random move instead of the best one, while training
    #[arg(long, value_name = "E", default_value_t = 0.1)]
    pub epsilon: f64,
    /// Seeds the random moves: the same seed learns the same table
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Where to save the table (JSON)
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Continue from this saved table instead of an empty one
    #[arg(long, value_name = "FILE")]
    pub init: Option<PathBuf>,
    /// After training, compare the table with the exact solution and play it
    /// against the optimal and the random agent
    #[arg(long)]
    pub evaluate: bool,
    /// With --evaluate: games against each opponent
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub games: u64,
}

/// The flags that only some algorithms read, and which: a flag given for
/// an algorithm that ignores it is refused rather than silently dropped
/// (`--episodes 50` with AlphaZero would otherwise train for 100 iterations).
const ALGORITHM_FLAGS: &[(&str, &[TrainAlgorithm])] = {
    use TrainAlgorithm::{Alphazero as A, Cfr as C, Q};
    &[
        ("iterations", &[C, A]),
        ("games_per_iteration", &[A]),
        ("simulations", &[A]),
        ("temperature_moves", &[A]),
        ("hidden", &[A]),
        ("learning_rate", &[A]),
        ("c_puct", &[A]),
        ("threads", &[A]),
        ("curve", &[A]),
        ("curve_games", &[A]),
        ("curve_every", &[A]),
        ("plot", &[A]),
        ("episodes", &[Q]),
        ("alpha", &[Q]),
        ("epsilon", &[Q]),
        ("seed", &[Q, A]),
        ("init", &[Q, A]),
        ("evaluate", &[Q]),
        ("games", &[Q]),
    ]
};

/// Refuses a flag given on the command line that `args.algorithm` does not read.
pub fn check_flags(args: &TrainArgs, matches: Option<&clap::ArgMatches>) -> Result<(), Failure> {
    let Some(m) = matches else { return Ok(()) };
    let name = |a: TrainAlgorithm| {
        a.to_possible_value()
            .map(|v| v.get_name().to_string())
            .unwrap_or_default()
    };
    for (id, readers) in ALGORITHM_FLAGS {
        let given = m.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
        if given && !readers.contains(&args.algorithm) {
            let flag = id.replace('_', "-");
            let used_by: Vec<String> = readers.iter().map(|&a| format!("--algorithm {}", name(a))).collect();
            return Err(Failure::input(format!(
                "error: --{flag} is read by {}, not by --algorithm {}; leave it out",
                used_by.join(" and "),
                name(args.algorithm)
            )));
        }
    }
    Ok(())
}

pub fn run(args: &TrainArgs, ctx: &mut Context) -> Result<(), Failure> {
    match args.algorithm {
        TrainAlgorithm::Cfr => return cfr::run(args, ctx),
        TrainAlgorithm::Alphazero => return alphazero::run(args, ctx),
        TrainAlgorithm::Q => {}
    }
    let game = load_game(&args.game.file, ctx)?;
    crate::memory::doing("training");
    let prog = game.program();
    if prog.has_chance || prog.has_simultaneous {
        let e = QLearnError::Unsupported(format!(
            "{} has {} moves; Q-learning by self-play learns turn-taking games",
            game.name(),
            match (prog.has_chance, prog.has_simultaneous) {
                (true, true) => "chance and simultaneous",
                (true, false) => "chance",
                _ => "simultaneous",
            }
        ));
        return Err(ctx.fail(&e));
    }
    check_players(&game).map_err(|e| ctx.fail(&e))?;
    let settings = QSettings {
        alpha: args.alpha,
        epsilon: args.epsilon,
        seed: args.seed,
    };
    settings.check().map_err(|e| Failure::input(format!("error: {e}")))?;
    // Found before training, not after it, so no training is wasted.
    // --init may name --out: the table is read whole before it is replaced.
    output::check(&[("--out", &args.out)], &[output::Input::game(&args.game.file)])?;
    let (table, before) = match &args.init {
        Some(path) => {
            let (t, training) = qfile::load(path, &game).map_err(|e| ctx.fail(&e))?;
            (t, training.total_episodes)
        }
        None => (QTable::new(), 0),
    };
    let mut learner = QLearner::new(&game, settings, table).map_err(|e| ctx.fail(&e))?;

    let bar = progress_bar(args.episodes, "episodes", " (Ctrl-C saves and stops)");
    // Ctrl-C or SIGTERM stops training between two games, and what was
    // learned is saved; caught until the save is done, so that a second one
    // cannot cut the save short.
    let caught = Caught::new();
    // The table stops growing at an eighth of the memory limit, so that the
    // save (positions as text, rows, then the JSON: several times the
    // table, for wide states) has room.
    let memory_full = std::cell::Cell::new(false);
    let time_up = std::cell::Cell::new(false);
    let started = Instant::now();
    let result = learner.train(args.episodes, caught.flag(), &mut |done| {
        if let Some(b) = &bar {
            b.set_position(done);
        }
        if crate::memory::limit().is_some_and(|cap| crate::memory::live() > cap / 8) {
            memory_full.set(true);
            caught.flag().store(true, std::sync::atomic::Ordering::SeqCst);
        }
        if args.time_limit.is_some_and(|t| started.elapsed().as_secs_f64() >= t) {
            time_up.set(true);
            caught.flag().store(true, std::sync::atomic::Ordering::SeqCst);
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let done = match result {
        Ok(done) => done,
        Err(e) => return Err(ctx.fail(&e)),
    };
    let memory_full = memory_full.get() && done < args.episodes;
    let time_up = time_up.get() && done < args.episodes && !memory_full;
    let stop = caught
        .stopped()
        .filter(|_| done < args.episodes && !memory_full && !time_up);
    let interrupted = stop.is_some() || memory_full || time_up;
    let training = Training {
        alpha: args.alpha,
        epsilon: args.epsilon,
        seed: args.seed,
        episodes: done,
        total_episodes: before + done,
        interrupted,
    };
    let table = learner.into_table();
    crate::memory::doing("saving the Q-table");
    let saved = qfile::save(&args.out, &game, &table, &training);
    drop(caught);
    saved.map_err(|e| Failure {
        code: output::EXIT_WRITE,
        text: ctx.render(&e),
    })?;

    let rate = if seconds > 0.0 { done as f64 / seconds } else { 0.0 };
    let mut text = format!("game        {}\n", title(&game));
    if let Some(init) = &args.init {
        text.push_str(&format!(
            "continued   from {} ({before} episodes before)\n",
            init.display()
        ));
    }
    text.push_str(&format!(
        "episodes    {done}{} (alpha {}, epsilon {}, seed {})\n",
        match stop {
            Some(stop) => format!(" of {}: interrupted by {}", args.episodes, stop.name()),
            None if memory_full => format!(" of {}: stopped at the memory limit", args.episodes),
            None if time_up => format!(
                " of {}: stopped at the time limit of {} s",
                args.episodes,
                limits::plain(args.time_limit.unwrap_or_default())
            ),
            None => String::new(),
        },
        args.alpha,
        args.epsilon,
        args.seed
    ));
    text.push_str(&format!(
        "table       {} positions, {} values\ntime        {seconds:.3} s ({rate:.0} episodes/s)\nsaved       {}\n",
        table.positions(),
        table.len(),
        args.out.display()
    ));
    let io = stdout_failed;
    write!(ctx.out, "{text}").map_err(io)?;
    if memory_full {
        return Err(ctx.fail(&MemoryFull {
            limit: crate::memory::MemoryLimit::now("training"),
            done,
            episodes: args.episodes,
            saved: args.out.display().to_string(),
        }));
    }
    if let Some(stop) = stop {
        return Err(Failure {
            code: stop.exit_code(),
            text: format!(
                "training was interrupted after {done} of {} episodes; what was learned is saved in {}",
                args.episodes,
                args.out.display()
            ),
        });
    }
    if args.evaluate {
        let name = format!("q:{}", args.out.display());
        let eval = report(&game, &table, &name, args.games, args.seed, &SearchArgs::default(), ctx)?;
        write!(ctx.out, "\n{eval}").map_err(io)?;
    }
    Ok(())
}

/// Training stopped where its table may grow no more (an eighth of the
/// memory limit), with what was learned saved: the memory guard's stop,
/// told as training's.
#[derive(Debug)]
struct MemoryFull {
    limit: crate::memory::MemoryLimit,
    done: u64,
    episodes: u64,
    saved: String,
}

impl std::fmt::Display for MemoryFull {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "training stopped after {} of {} episodes, at an eighth of the memory limit of {} (the rest is room to save the table); what was learned is saved in {}",
            self.done,
            self.episodes,
            crate::memory::Size(self.limit.limit),
            self.saved
        )
    }
}

impl std::error::Error for MemoryFull {}

impl miette::Diagnostic for MemoryFull {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.limit.code()
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new(
            "give gdl more with --max-memory SIZE (e.g. --max-memory 4G), or train fewer episodes; \
             --init continues from the saved table",
        ))
    }
}

impl crate::error_kind::Exits for MemoryFull {
    fn exit_code(&self) -> i32 {
        self.limit.exit_code()
    }
}
