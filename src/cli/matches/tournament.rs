//! `gdl match FILE --players A,B --games N --seed S [--csv FILE] [--plot FILE.svg]`:
//! many games between agents, seats rotating; the results per agent and per
//! seat, each agent's time per decision, and optionally every game as CSV and
//! the distribution of each agent's points as an SVG histogram.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;

use crate::cli::kit::agents::{
    AgentArgs, BoxedAgent, PlayersParser, failures_text, make_player, players_for, players_help,
};
use crate::cli::kit::context::{Context, Failure, stdout_failed};
use crate::cli::kit::game_args::{GameArgs, load_game, title};
use crate::cli::kit::output::{CsvStream, Output};
use crate::cli::kit::progress::progress_bar;
use crate::cli::kit::signals::Caught;
use crate::game::Game;
use crate::report::plot::{Counted, Format, histogram_file};
use crate::report::standings;
use crate::report::stats::{Measure, Outcome};
use crate::runtime::Interpreted;
use crate::solve::agents::agent::{AgentSpec, PlayerSpec};
use crate::solve::matches::tournament::{self, GameRecord, MatchResult};

#[derive(Args, Debug)]
pub struct MatchArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[arg(
        long,
        value_name = "A,B",
        value_parser = PlayersParser,
        hide_possible_values = true,
        help = players_help(
            "One agent per player, comma-separated; more agents than players: a round robin of every group that fills the seats"
        )
    )]
    pub players: String,
    /// How many games; the agents take turns in each seat
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub games: u64,
    /// Seeds every random choice (agents and chance), for a match that can be replayed
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Write every game to this CSV file: its number, each agent's seat and
    /// points (or utility), and the winners
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Draw each agent's points (or utility) per game as a histogram, in this
    /// SVG file, or PNG file (for a report or a slide) when its name ends in .png
    #[arg(long, value_name = "FILE.svg|FILE.png")]
    pub plot: Option<PathBuf>,
    /// Threads to play games on; default: one per core. The results are the
    /// same for any number (only the times per decision differ), as long as
    /// each `exec:` agent draws from its game's `seed` and carries nothing
    /// from game to game: each thread starts its own copy of the program
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub threads: Option<usize>,
    /// A fixed field: every agent of --players plays against these (one
    /// game per seat rotation, --games per pairing), and is ranked by its
    /// results against them
    #[arg(long, value_name = "A,B", value_parser = PlayersParser, hide_possible_values = true)]
    pub field: Option<String>,
    /// Print the results as one JSON object (docs/json-schema/match.json)
    #[arg(long)]
    pub json: bool,
    /// Play only part I of N (I from 0) of the match (or of the league, its
    /// pairings one after another): the same games, seats and seeds as the
    /// whole match plays there; with --jsonl, `gdl merge` makes the whole
    /// match's report of the parts
    #[arg(long, value_name = "I/N", value_parser = shard)]
    pub shard: Option<(u64, u64)>,
    /// Write every game to this file as a JSON line (the match's settings
    /// first, the agents' times last), for `gdl merge`
    #[arg(long, value_name = "FILE")]
    pub jsonl: Option<PathBuf>,
    #[command(flatten)]
    pub agents: AgentArgs,
}

/// `--shard I/N`: part I (from 0) of N.
fn shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || "a part and the number of parts, I/N, with I from 0 to N - 1 (`--shard 0/4`)".to_string();
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n) = (
        i.trim().parse::<u64>().map_err(|_| bad())?,
        n.trim().parse::<u64>().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The games (numbered from 0) that part `i` of `n` of a match of `games` plays:
/// the match cut into `n` runs of consecutive games, as even as they come.
pub fn shard_range(games: u64, (i, n): (u64, u64)) -> std::ops::Range<u64> {
    let at = |k: u64| (u128::from(games) * u128::from(k) / u128::from(n)) as u64;
    at(i)..at(i + 1)
}

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

/// What the report of a match (or of its parts merged) says.
pub(in crate::cli) struct Report<'a> {
    /// The games of the whole match.
    pub games: u64,
    /// The number (from 0) of the first game played here.
    pub first_game: u64,
    /// The games played here.
    pub played: u64,
    pub seed: u64,
    /// The budget per move of the search agents, if any plays.
    pub budget_ms: Option<u64>,
    pub result: MatchResult,
    /// The CSV file, and how many games were written to it.
    pub csv: Option<(&'a Output, std::io::Result<u64>)>,
    /// The plot's file and its histogram.
    pub plot: Option<(&'a std::path::Path, Histogram)>,
    pub json: bool,
}

impl Report<'_> {
    /// Prints the report; fails when a file could not be written (after printing).
    pub(in crate::cli) fn print(self, game: &Interpreted, ctx: &mut Context) -> Result<(), Failure> {
        let Report {
            games,
            first_game,
            played,
            seed,
            budget_ms,
            mut result,
            csv,
            plot,
            json,
        } = self;
        let n = result.tally.agents.len();
        disambiguate(&mut result.tally.agents);
        // Game g seats agent g mod n first; an interrupted match counts only the games played.
        let first_counts: Vec<u64> = (0..n)
            .map(|k| {
                (first_game..first_game + played)
                    .filter(|g| g % n as u64 == k as u64)
                    .count() as u64
            })
            .collect();
        let first = (0..n)
            .map(|k| format!("{} with {} first", first_counts[k], result.tally.agents[k]))
            .collect::<Vec<_>>()
            .join(", ");
        let mut text = format!(
            "game     {}\ngames    {} ({first}), seed {}\n",
            title(game),
            played,
            seed
        );
        if let Some(ms) = budget_ms {
            text.push_str(&format!(
                "budget   {ms} ms per move of each search, dsearch and mcts agent\n"
            ));
        }
        text.push_str(&format!(
            "\n{}\ntime per decision (a decision: a move chosen from more than one)\n{}",
            standings::text(&result.tally),
            standings::times_text(&result.tally.agents, &result.times)
        ));
        text.push_str(&failures_text(&result.tally.agents, game, &result.failures));
        // The report is printed even when a file cannot be written: the games
        // were played, and their results are worth having.
        let mut failed = None;
        let mut files = Vec::new();
        if let Some((out, written)) = csv {
            match written {
                Ok(rows) => files.push(format!("csv      {} ({rows} games)", out.path.display())),
                Err(e) => failed = Some(out.failed(e)),
            }
        }
        if let Some((path, histogram)) = plot {
            let out = Output {
                flag: "--plot",
                path: path.to_path_buf(),
            };
            match out.write(&histogram.picture(game, &result, path)) {
                Ok(()) => files.push(format!("plot     {}", path.display())),
                Err(f) => failed = failed.or(Some(f)),
            }
        }
        if json {
            let first: serde_json::Map<String, serde_json::Value> = (0..n)
                .map(|k| (result.tally.agents[k].clone(), serde_json::json!(first_counts[k])))
                .collect();
            let mut doc = crate::report::standings::json(&result.tally, &result.times);
            doc["game"] = serde_json::json!(title(game));
            doc["games"] = serde_json::json!(games);
            doc["seed"] = serde_json::json!(seed);
            doc["first"] = serde_json::json!(first);
            doc["budget_ms"] = serde_json::json!(budget_ms);
            doc["files"] = serde_json::json!(files);
            if !result.failures.is_empty() {
                let failures: Vec<serde_json::Value> = result
                    .failures
                    .iter()
                    .map(|f| {
                        serde_json::json!({
                            "game": f.game + 1,
                            "agent": result.tally.agents[f.agent],
                            "seat": game.player_name(f.seat),
                            "kind": f.failure.kind,
                            "detail": f.failure.detail,
                            "forfeit": f.failure.forfeit,
                        })
                    })
                    .collect();
                doc["failures"] = serde_json::json!(failures);
            }
            text = crate::report::json::document(&doc);
        }
        // The JSON document lists the files itself.
        print_report(ctx, text, if json { &[] } else { &files }, failed)
    }
}

/// The CSV of a match, written a game at a time. Its columns count points
/// or utility as the first game does (the measure of the match's tally
/// whenever the games agree on it).
pub(in crate::cli) struct CsvFile {
    csv: CsvStream,
    names: Vec<String>,
    /// With an external agent, each agent has a failure column.
    failures: bool,
    measure: Option<Measure>,
}

impl CsvFile {
    pub(in crate::cli) fn start(out: &Output, names: Vec<String>, failures: bool) -> Result<CsvFile, Failure> {
        Ok(CsvFile {
            csv: CsvStream::start(out)?,
            names,
            failures,
            measure: None,
        })
    }

    pub(in crate::cli) fn row(&mut self, game: &Interpreted, number: u64, record: &GameRecord) {
        if !self.csv.open() {
            return;
        }
        let measure = *self.measure.get_or_insert(match record.scores {
            Some(_) => Measure::Points {
                lowest_wins: game.lowest_score_wins(),
            },
            None => Measure::Utility,
        });
        let mut text = String::new();
        if self.csv.rows() == 0 {
            text.push_str(&csv_header(&self.names, measure, self.failures));
        }
        text.push_str(&csv_row(game, &self.names, measure, self.failures, number, record));
        self.csv.push(&text);
    }

    /// The number of games written, once the file is in place.
    pub(in crate::cli) fn finish(self) -> std::io::Result<u64> {
        self.csv.finish()
    }
}

/// The CSV's header: the game's number, each agent's seat and points (or
/// utility), and the agents with the best result (one: a win; several: a draw).
/// With an external agent (`failures`), each agent also has a failure
/// column: empty, or `crash`, `illegal`, `timeout`, `unreadable`.
fn csv_header(names: &[String], measure: Measure, failures: bool) -> String {
    let label = measure.label();
    let mut header = vec!["game".to_string()];
    for name in names {
        header.push(format!("{name} seat"));
        header.push(format!("{name} {label}"));
        if failures {
            header.push(format!("{name} failure"));
        }
    }
    header.push("winners".into());
    csv_line(&header)
}

/// One game's line (its number counted from 1).
fn csv_row(
    game: &Interpreted,
    names: &[String],
    measure: Measure,
    failures: bool,
    number: u64,
    r: &GameRecord,
) -> String {
    let values = r.values(measure);
    let mut cells = vec![number.to_string()];
    let mut best = Vec::new();
    for (a, name) in names.iter().enumerate() {
        let seat = r.seat_of(a);
        cells.push(game.player_name(seat).to_string());
        // `+ 0.0` writes -0 as 0.
        cells.push((values[seat] + 0.0).to_string());
        if failures {
            let failure = r.failures.get(seat).and_then(|f| f.as_ref());
            cells.push(failure.map_or("", |f| f.kind).to_string());
        }
        if measure.outcome(values, seat) != Outcome::Loss {
            best.push(name.as_str());
        }
    }
    cells.push(best.join(";"));
    csv_line(&cells)
}

/// A CSV line, quoting the cells that need it (RFC 4180).
pub(in crate::cli) fn csv_line(cells: &[String]) -> String {
    let quoted: Vec<String> = cells
        .iter()
        .map(|c| {
            if c.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", c.replace('"', "\"\""))
            } else {
                c.clone()
            }
        })
        .collect();
    format!("{}\n", quoted.join(","))
}

/// Each agent's points (or utility) per game, as one histogram.
/// What `--plot` draws, kept as the games end: how many games gave each
/// agent each value, as points and as utility (which one the report uses is
/// known only at the end). Its size is the number of distinct values, not of
/// games, so a match of any length keeps only that.
pub(in crate::cli) struct Histogram {
    /// `[agent]`: value (as its bits) -> games.
    points: Vec<BTreeMap<u64, u64>>,
    utility: Vec<BTreeMap<u64, u64>>,
    games: u64,
}

impl Histogram {
    pub(in crate::cli) fn new(agents: usize) -> Self {
        Histogram {
            points: vec![BTreeMap::new(); agents],
            utility: vec![BTreeMap::new(); agents],
            games: 0,
        }
    }

    pub(in crate::cli) fn add(&mut self, record: &GameRecord) {
        self.games += 1;
        for a in 0..self.utility.len() {
            let seat = record.seat_of(a);
            *self.utility[a].entry(record.returns[seat].to_bits()).or_default() += 1;
            if let Some(scores) = &record.scores {
                *self.points[a].entry(scores[seat].to_bits()).or_default() += 1;
            }
        }
    }

    /// The histogram as the file `path` names it (SVG or PNG).
    fn picture(&self, game: &Interpreted, result: &MatchResult, path: &std::path::Path) -> Vec<u8> {
        plot(game, result, self, Format::of(path).unwrap_or(Format::Svg))
    }
}

fn plot(game: &Interpreted, result: &MatchResult, histogram: &Histogram, format: Format) -> Vec<u8> {
    let measure = result.tally.measure;
    let by_value = match measure {
        Measure::Points { .. } => &histogram.points,
        Measure::Utility => &histogram.utility,
    };
    let counts: Vec<Vec<(f64, u64)>> = by_value
        .iter()
        .map(|m| m.iter().map(|(&bits, &n)| (f64::from_bits(bits), n)).collect())
        .collect();
    let series: Vec<Counted> = result
        .tally
        .agents
        .iter()
        .zip(&counts)
        .map(|(name, c)| Counted { name, counts: c })
        .collect();
    histogram_file(
        format,
        &format!("{}: {} games", title(game), histogram.games),
        x_label(measure),
        &series,
    )
}

/// The x axis of a histogram of points or utility per game.
pub(in crate::cli) fn x_label(measure: Measure) -> &'static str {
    match measure {
        Measure::Points { lowest_wins: true } => "points per game (the fewest win)",
        Measure::Points { lowest_wins: false } => "points per game (the most win)",
        Measure::Utility => "utility per game",
    }
}

/// Numbers agents that share a name (`random #1`, `random #2`), so that every
/// row of the table says whose it is.
pub(in crate::cli) fn disambiguate(names: &mut [String]) {
    let copy = names.to_vec();
    for (i, name) in names.iter_mut().enumerate() {
        if copy.iter().filter(|n| **n == copy[i]).count() > 1 {
            name.push_str(&format!(" #{}", i + 1));
        }
    }
}

/// Prints a report with a line for each file written under it, then
/// returns the first failure to write one, if any.
pub(super) fn print_report(
    ctx: &mut Context,
    mut text: String,
    files: &[String],
    failed: Option<Failure>,
) -> Result<(), Failure> {
    if !files.is_empty() {
        text.push('\n');
        for f in files {
            text.push_str(f);
            text.push('\n');
        }
    }
    write!(ctx.out, "{text}").map_err(stdout_failed)?;
    match failed {
        Some(f) => Err(f),
        None => Ok(()),
    }
}
