//! `gdl match FILE --players A,B --games N --seed S [--csv FILE] [--plot FILE.svg]`:
//! many games between agents, seats rotating; the results per agent and per
//! seat, each agent's time per decision, and optionally every game as CSV and
//! the distribution of each agent's points as an SVG histogram.

use super::MatchArgs;
use super::part::shard_range;
use super::report::{CsvFile, Histogram, Report, disambiguate};
use crate::cli::kit::agents::{AgentArgs, BoxedAgent, make_player, players_for};
use crate::cli::kit::context::{Context, Failure};
use crate::cli::kit::game_args::load_game;
use crate::cli::kit::output::Output;
use crate::cli::kit::progress::progress_bar;
use crate::cli::kit::signals::Caught;
use crate::game::Game;
use crate::runtime::Interpreted;
use crate::solve::agents::agent::{AgentSpec, PlayerSpec};
use crate::solve::matches::tournament::{self};

pub fn run(args: &MatchArgs, ctx: &mut Context) -> Result<(), Failure> {
    let game = load_game(&args.game.file, ctx)?;
    crate::memory::doing("playing the match");
    if args.shard.is_some() && args.jsonl.is_none() {
        return Err(Failure::input(
            "error: --shard plays part of a match: write its games with --jsonl FILE, for `gdl merge` to join",
        ));
    }
    // More agents than seats, or a field: a league of many matches.
    let listed = crate::solve::agents::agent::parse_players(&args.players)
        .map_err(|e| Failure::input(format!("error: --players: {e}")))?;
    if args.field.is_some() || listed.len() > game.num_players() {
        return super::league::run(args, &game, listed, ctx);
    }
    let specs = players_for(&args.players, &game)?;
    let n = specs.len();
    if args.games == 0 {
        return Err(Failure::input("error: --games must be at least 1"));
    }
    // Found before the match, not after it, so that no match is wasted.
    if let Some(plot) = &args.plot {
        crate::report::plot::Format::check(plot).map_err(Failure::input)?;
    }
    let outputs: Vec<(&'static str, &std::path::Path)> =
        [("--csv", &args.csv), ("--plot", &args.plot), ("--jsonl", &args.jsonl)]
            .into_iter()
            .filter_map(|(flag, p)| p.as_deref().map(|p| (flag, p)))
            .collect();
    crate::cli::kit::agents::check_files(&args.game.file, &specs, &args.agents, &outputs)?;
    let range = match args.shard {
        Some(part) => shard_range(args.games, part),
        None => 0..args.games,
    };
    let csv_out = args.csv.as_ref().map(|path| Output {
        flag: "--csv",
        path: path.clone(),
    });
    // One set of agents per thread. Every game seeds each agent (and chance)
    // from the match's seed and the game's number, so adding a random agent
    // does not change what another one does, and the threads do not change
    // the results.
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |t| t.get()))
        .min(usize::try_from(range.end - range.start).unwrap_or(usize::MAX))
        .max(1);
    let agent_args = AgentArgs {
        optimal_agents: threads * specs.iter().filter(|s| matches!(s.spec, AgentSpec::Optimal(_))).count(),
        ..args.agents.clone()
    };
    let mut sets: Vec<Vec<BoxedAgent<'_>>> = Vec::with_capacity(threads);
    for _ in 0..threads {
        let mut set = Vec::with_capacity(n);
        for spec in &specs {
            // No terminal: a person cannot sit through a match of many games.
            set.push(make_player(spec, &game, args.seed, &agent_args, None, ctx)?);
        }
        sets.push(set);
    }
    let bar = progress_bar(range.end - range.start, "games", "");
    // Every game is written as it ends, so that an interrupted match keeps
    // what was played; the histogram needs them all at the end.
    let names: Vec<String> = sets[0].iter().map(|a| a.name()).collect();
    let exec = specs.iter().any(|s| matches!(s.spec, AgentSpec::Exec(_)));
    let mut csv_file = match &csv_out {
        Some(out) => {
            let mut names = names.clone();
            disambiguate(&mut names);
            Some(CsvFile::start(out, names, exec)?)
        }
        None => None,
    };
    let caught = Caught::new();
    let mut played_games = 0;
    let mut histogram = args.plot.as_ref().map(|_| Histogram::new(n));
    let mut jsonl = args.jsonl.as_ref().map(|_| {
        let mut names = names.clone();
        disambiguate(&mut names);
        vec![shard_header(&game, args, ctx, &names, &specs, range.clone())]
    });
    let played = tournament::run_match(
        &game,
        sets,
        range.clone(),
        args.seed,
        caught.flag(),
        &mut |done, record| {
            played_games = done;
            if let Some(f) = &mut csv_file {
                f.row(&game, range.start + done, record);
            }
            if let Some(h) = &mut histogram {
                h.add(record);
            }
            if let Some(lines) = &mut jsonl {
                lines.push(super::part::record_line(range.start + done, record));
            }
            if let Some(b) = &bar {
                b.set_position(done);
            }
        },
    );
    let stop = caught.stopped();
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    // Closed (renamed into place) before anything else: an interrupted
    // match keeps what was played, a failed one too.
    let csv_written = csv_file.map(CsvFile::finish);
    drop(caught);
    // The games before the one that failed were all played (they are
    // handed out in order, and a thread finishes the game it started).
    let result = played.map_err(|e| {
        Failure::runtime(format!(
            "error: the match stopped in game {} of {}, after {played_games} played\n{}",
            range.start + played_games + 1,
            args.games,
            ctx.render(&e)
        ))
    })?;
    let stop = stop.filter(|_| played_games < range.end - range.start);
    let jsonl_failed = match (&args.jsonl, jsonl) {
        (Some(path), Some(mut lines)) => {
            lines.push(super::part::times_line(&result.times));
            let out = Output {
                flag: "--jsonl",
                path: path.clone(),
            };
            out.write(lines.concat().as_bytes()).err()
        }
        _ => None,
    };
    let csv_written = csv_out.as_ref().zip(csv_written);
    let report = Report {
        games: args.games,
        first_game: range.start,
        played: played_games,
        seed: args.seed,
        budget_ms: args.agents.budget_ms.filter(|_| searching(&specs, args)),
        result,
        csv: csv_written,
        plot: args
            .plot
            .as_deref()
            .map(|p| (p, histogram.unwrap_or_else(|| Histogram::new(n)))),
        json: args.json,
    };
    let done = report.print(&game, ctx);
    if let Some(f) = jsonl_failed {
        return Err(f);
    }
    done?;
    if let Some(stop) = stop {
        return Err(stop.games_failure("match", played_games, range.end - range.start, args.csv.is_some()));
    }
    Ok(())
}

/// Whether an agent that `--budget-ms` bounds plays (the report then gives the budget per move).
fn searching(specs: &[PlayerSpec], args: &MatchArgs) -> bool {
    args.agents.budget_ms.is_some()
        && specs.iter().any(|s| {
            matches!(
                s.spec,
                AgentSpec::Search(_) | AgentSpec::Dsearch(_) | AgentSpec::Mcts(_)
            )
        })
}

/// The first line of a part's `--jsonl` file: what `gdl merge` checks the
/// parts against one another by, and loads the game by.
fn shard_header(
    game: &Interpreted,
    args: &MatchArgs,
    ctx: &Context,
    names: &[String],
    specs: &[PlayerSpec],
    range: std::ops::Range<u64>,
) -> String {
    super::part::header_line(&super::part::Header {
        file: args.game.file.display().to_string(),
        source_hash: crate::game::FileGame::id(game).source_hash,
        params: ctx.bindings.clone(),
        agents: names.to_vec(),
        players: specs.iter().map(super::part::spec_text).collect(),
        seed: args.seed,
        games: args.games,
        shard: args.shard.unwrap_or((0, 1)),
        range: (range.start, range.end),
        budget_ms: args.agents.budget_ms.filter(|_| searching(specs, args)),
        exec: specs.iter().any(|s| matches!(s.spec, AgentSpec::Exec(_))),
        league: None,
        settings: super::part::settings(&args.agents, ctx.engine, specs),
    })
}
