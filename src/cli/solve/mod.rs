//! `gdl solve FILE`: the exact value of a position, every optimal move, the
//! principal line, and what the search cost.

pub(in crate::cli) mod depth;
pub(in crate::cli) mod kinds;
pub(in crate::cli) mod mcts;
pub(in crate::cli) mod puzzle;
pub(in crate::cli) mod sweep;
pub(in crate::cli) mod watch;

use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};

use crate::cli::kit::args::StartArgs;
use crate::cli::kit::context::{Context, Failure, stdout_failed};
use crate::cli::kit::exact::{Kind, endless, kind};
use crate::cli::kit::game_args::{GameArgs, load_game};
use crate::cli::kit::{limits, shown};
use crate::game::Game;
use crate::report::diagnostic;
use crate::report::solve as report;
use crate::runtime::{Interpreted, State};
use crate::solve::agents::depth_limited::DepthOptions;
use crate::solve::{self, Algorithm, SolveError, SolveOptions, Solver};

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
    #[command(flatten)]
    pub start: StartArgs,
    /// The search algorithm [default: alphabeta]; for two-player games
    /// without chance, simultaneous moves or hidden information
    #[arg(long, value_enum)]
    pub algorithm: Option<AlgorithmArg>,
    /// Search without the memo table of (state, player to move)
    #[arg(long)]
    pub no_memo: bool,
    /// Print every legal move with its value and the line that proves it
    #[arg(long)]
    pub explain: bool,
    /// Print one JSON object instead of text
    #[arg(long)]
    pub json: bool,
    /// Win as fast as possible and lose as slowly as possible (the value is the same)
    #[arg(long)]
    pub fast: bool,
    /// Show the memo table's size and hits, and the same solve with and without it side by side
    #[arg(long)]
    pub stats: bool,
    /// Stop after visiting this many nodes
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = limits::positive_count)]
    pub max_nodes: Option<u64>,
    /// Stop after this many seconds
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = limits::time_limit)]
    pub time_limit: Option<f64>,
    /// Stop when the memo table holds this many states; with --depth, the
    /// most positions its transposition table holds (cleared when full)
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = limits::positive_count)]
    pub max_states: Option<u64>,
    /// Sprague-Grundy values, for impartial normal-play games (Nim, Kayles)
    #[arg(long)]
    pub grundy: bool,
    /// Search only this many moves deep, scoring positions there by the game's
    /// `evaluate` (alpha-beta, iterative deepening, a transposition table)
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub depth: Option<u64>,
    /// With parameters given as ranges (`--pits 1..8`): write the sweep's rows
    /// as CSV to FILE, or to standard output without one
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "-")]
    pub csv: Option<String>,
    /// Monte Carlo tree search with this many simulations instead of the
    /// exact search: each root move's visits, mean return, what MCTS-Solver
    /// proved, and its line (any game: more players, chance, hidden cards)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=10_000_000_000))]
    pub mcts: Option<u64>,
    /// With --mcts: UCB1's exploration constant (returns scaled to 0..1)
    #[arg(long, value_name = "C", requires = "mcts", value_parser = exploration)]
    pub exploration: Option<f64>,
    /// With --mcts: what each simulation backs up: every player's return
    /// (returns), its outcome, +1 a win, 0 a draw, -1 a loss (outcome: the
    /// proofs then say who wins, not by how much; a score game without a
    /// declared range is proven sooner), or its own score (score)
    /// [default: returns]
    #[arg(long, value_name = "WHAT", requires = "mcts", value_enum)]
    pub backup: Option<crate::cli::kit::agents::McsBackup>,
    /// With --mcts: score playouts by the game's `evaluate` after this many moves
    #[arg(long, value_name = "MOVES", requires = "mcts", value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub cutoff: Option<u64>,
    /// Solve on this many threads [default: every core]; the answers are
    /// those of one thread. With --mcts: this many searches at once (root
    /// parallelism) [default: 1], and 1 with a seed gives the same report
    /// every time
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
    pub threads: Option<usize>,
    /// With --mcts and several --threads: one tree per thread, their root
    /// statistics added up (root), or one tree that every thread searches,
    /// with virtual loss (tree)
    #[arg(long, value_name = "HOW", requires = "mcts", value_enum, default_value_t = crate::cli::kit::agents::McsParallel::Root)]
    pub parallel: crate::cli::kit::agents::McsParallel,
    /// With --mcts: seeds the playouts
    #[arg(long, value_name = "S", requires = "mcts", default_value_t = 0)]
    pub seed: u64,
    /// CFR+ iterations, for games with hidden information
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub iterations: Option<u64>,
}

pub fn run(args: &SolveArgs, ctx: &mut Context) -> Result<(), Failure> {
    if args.no_memo && args.max_states.is_some() {
        // Found by the command-line fuzzer: the limit was silently ignored,
        // and the search ran without one.
        return Err(Failure::input(
            "error: --max-states limits the memo table, and --no-memo searches without one; limit the search with --max-nodes or --time-limit",
        ));
    }
    if sweep::is_sweep(ctx) {
        return sweep::run(args, ctx);
    }
    if args.csv.is_some() {
        return Err(Failure::input(
            "error: --csv writes a sweep's rows: give a parameter as a range (`--pits 1..8`)",
        ));
    }
    let game = load_game(&args.game.file, ctx)?;
    if let Some(simulations) = args.mcts {
        if args.explain || args.stats || args.grundy || args.depth.is_some() || args.iterations.is_some() {
            return Err(Failure::input(
                "error: --mcts is a search of its own: it takes no --explain, --stats, --grundy, --depth or --iterations (its report lists every move)",
            ));
        }
        let root = args.start.position(&game, ctx)?;
        let mcts_args = mcts::MctsArgs {
            simulations,
            exploration: args
                .exploration
                .unwrap_or(crate::solve::agents::mcts::MctsConfig::default().exploration),
            cutoff: args.cutoff.map(|c| c as usize),
            backup: args.backup.map(Into::into).unwrap_or_default(),
            threads: args.threads.unwrap_or(1),
            parallel: args.parallel.into(),
            seed: args.seed,
            time_limit: args.time_limit,
            json: args.json,
        };
        return mcts::run(&mcts_args, &game, &root, ctx);
    }
    if game.num_players() > 2 {
        return Err(Failure::input(format!(
            "error: `gdl solve` solves games of one or two players; {} has {} players\n  help: play it with `gdl match` or `gdl trace`, with agents that search (search, dsearch)",
            game.name(),
            game.num_players()
        )));
    }
    let root = args.start.position(&game, ctx)?;
    if game.num_players() == 1 && kind(&game, args.grundy) == Some(Kind::Chance) && !game.program().has_simultaneous {
        // Chance and one player: the best expected payoff, by expectimax.
        crate::memory::doing("solving");
        return kinds::run(Kind::Chance, args, &game, &root, ctx);
    }
    if game.num_players() == 1 {
        if args.depth.is_some()
            || args.grundy
            || args.iterations.is_some()
            || args.no_memo
            || args.fast
            || args.algorithm.is_some()
        {
            return Err(Failure::input(format!(
                "error: {} is a one-player game, solved breadth-first for the shortest line to the best payoff; \
                 --depth, --grundy, --iterations, --no-memo, --fast and --algorithm do not apply to it",
                game.name()
            )));
        }
        let opts = solve::exact::puzzle::PuzzleOptions {
            max_states: args.max_states,
            time_limit: args.time_limit.map(Duration::from_secs_f64),
        };
        let output = puzzle::Output {
            json: args.json,
            explain: args.explain,
        };
        return puzzle::run(&game, &root, &opts, output, ctx);
    }
    // What the memory limit's message says gdl was doing.
    crate::memory::doing("solving");
    if let Some(kind) = kind(&game, args.grundy) {
        return kinds::run(kind, args, &game, &root, ctx);
    }
    let time_limit = args.time_limit.map(Duration::from_secs_f64);
    if let Some(depth) = args.depth {
        let unused: Vec<&str> = [
            (args.algorithm.is_some(), "--algorithm"),
            (args.no_memo, "--no-memo"),
            (args.fast, "--fast"),
            (args.stats, "--stats"),
            (args.explain, "--explain"),
        ]
        .into_iter()
        .filter_map(|(given, flag)| given.then_some(flag))
        .collect();
        if !unused.is_empty() {
            return Err(Failure::input(format!(
                "error: {} {} not apply to --depth, which searches by alpha-beta with a transposition table \
                 and reports every root move's value",
                unused.join(", "),
                if unused.len() == 1 { "does" } else { "do" }
            )));
        }
        let opts = DepthOptions {
            max_depth: Some(depth as usize),
            time_limit,
            max_nodes: args.max_nodes,
            max_states: args.max_states,
            stop: None,
        };
        if args.json {
            let value = depth::search_json(&game, &root, &opts).map_err(|e| Failure::of(&e, ctx.color))?;
            return writeln!(ctx.out, "{}", serde_json::to_string_pretty(&value).unwrap_or_default())
                .map_err(stdout_failed);
        }
        let text = depth::search_and_report(&game, &root, &opts).map_err(|e| Failure::of(&e, ctx.color))?;
        let position = game.position(&root);
        write!(ctx.out, "game        {}\nposition    {position}\n{text}", game.name())
            .map_err(|e| Failure::runtime(format!("error: {e}")))?;
        return Ok(());
    }
    let mut opts = SolveOptions {
        algorithm: match args.algorithm {
            Some(AlgorithmArg::Minimax) => Algorithm::Minimax,
            Some(AlgorithmArg::Alphabeta) | None => Algorithm::AlphaBeta,
        },
        memo: !args.no_memo,
        prefer_short: args.fast,
        max_nodes: args.max_nodes,
        // --time-limit bounds the whole command: three quarters for the exact
        // search, the rest for iterative deepening should the search stop.
        time_limit: time_limit.map(|t| t.mul_f64(0.75)),
        max_states: args.max_states,
        ..SolveOptions::default()
    };
    // The memo table stops before the memory limit, with the partial answer below.
    let memory_binds = limits::cap_memo(&mut opts, &root, 1);
    crate::memory::doing("solving");
    let color = ctx.color;
    let fail = |e: SolveError| match e {
        SolveError::Cycle { .. } | SolveError::TooDeep { .. } => {
            Failure::runtime(diagnostic::render(&endless(&game, e), color))
        }
        other => Failure::of(&other, color),
    };
    let started = Instant::now();
    // Nothing after the search needs its memo table unless --stats or
    // --explain runs another: then it is left to the process's exit, which
    // hands the memory back at once, rather than freed entry by entry
    // (seconds for a table of millions of positions).
    let table_unused = !args.stats && !args.explain;
    let threads = exact_threads(args);
    // On several threads --explain reads the table the threads filled.
    let mut explained = None;
    let (solved, stop) = watch::watched(|watch| {
        let opts = SolveOptions {
            watch: Some(watch),
            ..opts.clone()
        };
        // Without --threads, a moment on one thread first: most solves end
        // in it, with one thread's counts of nodes and states, the same in
        // every run; the threads take over the solves that go on.
        let quick = if threads > 1 && args.threads.is_none() && opts.memo && opts.max_nodes.is_none() {
            let first = SolveOptions {
                max_nodes: Some(ONE_THREAD_FIRST),
                ..opts.clone()
            };
            let mut one = Solver::new(&game, first)?;
            match one.solve(&root) {
                Err(SolveError::Budget { what: "nodes", .. }) => None,
                done => Some((one, done)),
            }
        } else {
            None
        };
        let (solver, solved) = match quick {
            Some(done) => done,
            None => {
                let mut solver = solve::exact::parallel::solver(&game, &root, &opts, threads)?;
                let solved = solver.solve(&root);
                if threads > 1 && args.explain && solved.is_ok() {
                    explained = Some(solver.explain(&root));
                }
                (solver, solved)
            }
        };
        // After a limit the table is freed: the depth-limited search that
        // follows needs the memory. After Ctrl-C a prompt answer matters more.
        let forget = match &solved {
            Ok(_) => table_unused,
            Err(SolveError::Budget { what, .. }) => *what == solve::STOPPED,
            Err(_) => false,
        };
        if forget {
            std::mem::forget(solver);
        }
        solved
    });
    let solution = match solved {
        Ok(s) => s,
        Err(SolveError::Budget { what, nodes, .. }) if what == solve::STOPPED => {
            // The flag is set only by a caught signal, so `stop` is there.
            let (name, code) = stop.map_or(("Ctrl-C", 130), |s| (s.name(), s.exit_code()));
            let mut text = format!(
                "the search was interrupted by {name} after {} nodes, {:.1} s\n",
                report::thousands(nodes),
                started.elapsed().as_secs_f64()
            );
            text.push_str(&fallback(
                &game,
                &root,
                &opts,
                Some(Instant::now() + INTERRUPTED_SEARCH),
                "for a second",
            ));
            return Err(Failure { code, text });
        }
        Err(SolveError::Budget { what, limit, nodes }) => {
            // The limit as the user gave it, and the exact search's share.
            let limit = match (what, args.time_limit) {
                ("time", Some(t)) => format!("{t}s (three quarters of it, {limit}, for the exact search)"),
                _ => limit,
            };
            let mut text = if what == "states" && memory_binds {
                let mut t = diagnostic::render(&crate::memory::MemoryLimit::now("solving"), color);
                t.push_str(&format!(
                    "\nthe memo table held {} states after {} nodes\n",
                    report::thousands(limit.parse::<u64>().unwrap_or(0)),
                    report::thousands(nodes)
                ));
                t
            } else {
                diagnostic::render(&SolveError::Budget { what, limit, nodes }, color)
            };
            text.push('\n');
            text.push_str(&fallback(
                &game,
                &root,
                &opts,
                time_limit.map(|t| started + t),
                "within the same limits",
            ));
            return Err(Failure::runtime(text));
        }
        Err(e) => return Err(fail(e)),
    };
    let method = if solution.by_graph {
        format!(
            "retrograde analysis of every position reachable (`end when repeated {}`){}",
            game.repetition().unwrap_or(0),
            if args.fast {
                ", preferring fast wins and slow losses"
            } else {
                ""
            }
        )
    } else {
        format!(
            "{}{}{}",
            match args.algorithm {
                Some(AlgorithmArg::Minimax) => "minimax",
                Some(AlgorithmArg::Alphabeta) | None => "alpha-beta",
            },
            if args.no_memo {
                " without memo"
            } else {
                " with a memo table of (state, player to move)"
            },
            if args.fast {
                ", preferring fast wins and slow losses"
            } else {
                ""
            }
        )
    };
    let stats = if args.stats {
        Some(stats(&game, &root, &opts, &solution).map_err(fail)?)
    } else {
        None
    };
    let position = game.position(&root);
    let (state_part, turn_part) = position.rsplit_once("; ").unwrap_or((&position, ""));
    let board = shown::echo(&game, &root).map_err(|e| ctx.fail(&e))?;
    let header = report::Header {
        game: game.name(),
        params: &game.program().params,
        position: state_part.to_string(),
        to_move: turn_part.trim_end_matches(" to move").to_string(),
        board,
        method,
        fast: args.fast,
        wall_seconds: ctx.started.elapsed().as_secs_f64(),
    };
    let io = stdout_failed;
    if args.json {
        let mut value = report::json(&game, &header, &solution);
        if args.explain {
            let moves = match explained.take() {
                Some(moves) => moves,
                None => solve::explain(&game, &root, &opts),
            }
            .map_err(fail)?;
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
        if let Some(st) = &stats {
            value["stats"] = report::stats_json(st);
        }
        writeln!(ctx.out, "{}", serde_json::to_string_pretty(&value).unwrap_or_default()).map_err(io)?;
    } else {
        write!(ctx.out, "{}", report::text(&game, &header, &solution)).map_err(io)?;
        if args.explain {
            let moves = match explained.take() {
                Some(moves) => moves,
                None => solve::explain(&game, &root, &opts),
            }
            .map_err(fail)?;
            writeln!(ctx.out).map_err(io)?;
            write!(ctx.out, "{}", report::explain_text(&game, &solution.best_moves, &moves)).map_err(io)?;
        }
        if let Some(st) = &stats {
            writeln!(ctx.out).map_err(io)?;
            write!(ctx.out, "{}", report::stats_text(st)).map_err(io)?;
        }
    }
    Ok(())
}

/// Without `--threads`, the nodes an exact solve searches on one thread
/// before the threads take over: a fraction of a second.
const ONE_THREAD_FIRST: u64 = 1_000_000;

/// The threads of an exact solve: `--threads`, or every core.
pub(super) fn exact_threads(args: &SolveArgs) -> usize {
    args.threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |t| t.get()))
}

/// How long `gdl solve` searches to a depth limit after Ctrl-C stopped the
/// exact search, for the best answer it can give.
const INTERRUPTED_SEARCH: Duration = Duration::from_secs(1);

/// The most nodes the run without the memo table that `--stats` adds may
/// search when no limit was given: without the table a search can take
/// exponentially longer, and the comparison should not hang the command.
const STATS_MAX_NODES: u64 = 100_000_000;

/// `--stats`: the solve that was not run (without the table if the solve
/// used it, with it otherwise), and both side by side.
fn stats(
    game: &Interpreted,
    root: &State,
    opts: &SolveOptions,
    done: &solve::Solution<<Interpreted as Game>::Move>,
) -> Result<report::Stats, SolveError> {
    let mut other = opts.clone();
    other.memo = !opts.memo;
    // States are counted for free with the table; without it counting them costs time.
    other.count_states = false;
    if !other.memo && other.max_nodes.is_none() && other.time_limit.is_none() {
        other.max_nodes = Some(STATS_MAX_NODES);
    }
    let started = Instant::now();
    let (again, stopped) = match solve::solve(game, root, &other) {
        Ok(s) => (Some(s), None),
        Err(SolveError::Budget { what, limit, nodes }) => {
            let run = report::Run {
                nodes,
                seconds: started.elapsed().as_secs_f64(),
                stopped: Some(format!("{limit} {what}")),
            };
            (None, Some(run))
        }
        Err(e) => return Err(e),
    };
    let run_of = |s: &solve::Solution<_>| report::Run {
        nodes: s.nodes,
        seconds: s.seconds,
        stopped: None,
    };
    let other_run = match (stopped, &again) {
        (Some(run), _) => run,
        (None, Some(s)) => run_of(s),
        (None, None) => unreachable!("a solve either finishes or stops"),
    };
    let (with_memo, without_memo, memo_run) = if opts.memo {
        (run_of(done), other_run, Some(done))
    } else {
        (other_run, run_of(done), again.as_ref())
    };
    let entries = memo_run.map_or(0, |s| s.memo_entries as u64);
    let cells = root.cells().len() as u64;
    // hashbrown keeps at most 7/8 of its buckets full, in a power of two of them.
    let buckets = if entries == 0 {
        0
    } else {
        (entries * 8 / 7 + 1).next_power_of_two()
    };
    let memo_bytes = buckets * Solver::<Interpreted>::memo_slot_bytes() as u64 + entries * cells * 8;
    Ok(report::Stats {
        memo_entries: entries as usize,
        memo_bytes,
        memo_hits: memo_run.map_or(0, |s| s.memo_hits),
        with_memo,
        without_memo,
    })
}

/// After a search stopped at a limit: the depth-limited search within the
/// same node limit and until `deadline`, positions at the limit scored by
/// the game's evaluation, what it proved kept apart from what it guessed.
fn fallback(game: &Interpreted, root: &State, opts: &SolveOptions, deadline: Option<Instant>, within: &str) -> String {
    // Without the memo table a state limit means nothing: ten nodes per state instead.
    let max_nodes = opts.max_nodes.or(opts.max_states.map(|s| s.saturating_mul(10)));
    let time_limit = deadline.map(|d| d.saturating_duration_since(Instant::now()));
    let depth_opts = DepthOptions {
        max_depth: None,
        time_limit,
        max_nodes,
        max_states: opts.max_states,
        stop: None,
    };
    match depth::search_and_report(game, root, &depth_opts) {
        Ok(text) => format!("searched again to a depth limit, {within}:\n{text}"),
        Err(e) => format!("searched again to a depth limit, which failed too: {e}\n"),
    }
}

/// `--exploration`: a number from 0 to 100.
fn exploration(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(c) if (0.0..=100.0).contains(&c) => Ok(c),
        _ => Err("a number from 0 to 100".to_string()),
    }
}
