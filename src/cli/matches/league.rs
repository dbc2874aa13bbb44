//! `gdl match` with more agents than the game has seats, or with `--field`:
//! the grader's view of a class of agents.
//!
//! ```text
//! gdl match games/xnimmt.game --players exec:a.py,exec:b.py,search          # round robin
//! gdl match games/xnimmt.game --players exec:a.py,exec:b.py --field search  # against a field
//! ```
//!
//! A round robin plays every group of as many agents as there are seats; a
//! field seats each agent of `--players` with every group of field agents
//! that fills the other seats. Each pairing is a match of `--games` games
//! with the seats rotating, all seeded alike, so every agent meets the same
//! deals. The report ranks the agents by their average (95% intervals) and
//! counts their failures; `--csv` writes every game with its agents and
//! failures, `--plot` the crosstable as a heat map beside the agents' Elo
//! ratings.
//!
//! A league is played in parts as a match is (`--shard I/N --jsonl FILE`,
//! then `gdl merge`): its games are numbered pairing after pairing, and a
//! part plays a run of them with the seats and seeds the whole league gives
//! them.

use super::MatchArgs;
use super::part::shard_range;
use super::part::{self, Header, League};
use super::report::{disambiguate, print_report};
use crate::cli::kit::agents::{BoxedAgent, make_player};
use crate::cli::kit::context::{Context, Failure};
use crate::cli::kit::csv::csv_line;
use crate::cli::kit::game_args::title;
use crate::cli::kit::output::{CsvStream, Output};
use crate::cli::kit::progress::progress_bar;
use crate::cli::kit::signals::Caught;
use crate::game::Game;
use crate::report::plot::{Format, league_file};
use crate::report::rating::{self, Crosstable};
use crate::report::standings;
use crate::report::stats::{DecisionTimes, Measure, Outcome, Tally};
use crate::runtime::Interpreted;
use crate::solve::agents::agent::{AgentSpec, PlayerSpec, parse_players};
use crate::solve::matches::tournament::{self, FailureRecord, GameRecord};

pub fn run(args: &MatchArgs, game: &Interpreted, listed: Vec<PlayerSpec>, ctx: &mut Context) -> Result<(), Failure> {
    let n = game.num_players();
    if args.json {
        return Err(Failure::input(
            "error: --json reports a match of one agent per seat; for a round robin or a --field, use --csv",
        ));
    }
    if args.games == 0 {
        return Err(Failure::input("error: --games must be at least 1"));
    }
    let field = match &args.field {
        Some(f) => parse_players(f).map_err(|e| Failure::input(format!("error: --field: {e}")))?,
        None => Vec::new(),
    };
    if listed.iter().chain(&field).any(|p| p.spec == AgentSpec::Human) {
        return Err(Failure::input(
            "error: `human` cannot sit in a match of many games; use `gdl play` to play yourself",
        ));
    }
    let candidates = listed.len();
    let pairings: Vec<Vec<usize>> = if args.field.is_some() {
        if field.len() + 1 < n {
            return Err(Failure::input(format!(
                "error: --field names {} agent{}, but {} has {n} players: the field must fill the {} other seat{}",
                field.len(),
                if field.len() == 1 { "" } else { "s" },
                game.name(),
                n - 1,
                if n == 2 { "" } else { "s" }
            )));
        }
        let mut all = Vec::new();
        for c in 0..candidates {
            for others in combinations(field.len(), n - 1) {
                let mut p = vec![c];
                p.extend(others.iter().map(|f| candidates + f));
                all.push(p);
            }
        }
        all
    } else {
        combinations(candidates, n)
    };
    if let Some(plot) = &args.plot {
        crate::report::plot::Format::check(plot).map_err(Failure::input)?;
    }
    let specs: Vec<PlayerSpec> = listed.into_iter().chain(field).collect();
    let outputs: Vec<(&'static str, &std::path::Path)> =
        [("--csv", &args.csv), ("--plot", &args.plot), ("--jsonl", &args.jsonl)]
            .into_iter()
            .filter_map(|(flag, p)| p.as_deref().map(|p| (flag, p)))
            .collect();
    crate::cli::kit::agents::check_files(&args.game.file, &specs, &args.agents, &outputs)?;
    let mut names: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
    disambiguate(&mut names);
    let seats: Vec<String> = (0..n).map(|p| game.player_name(p).to_string()).collect();
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |t| t.get()))
        .max(1);

    // The league's games are numbered through its schedule, pairing after
    // pairing; a part plays a run of them, cut as a match's parts are.
    let schedule = League {
        candidates,
        field: args.field.is_some(),
        pairings,
        games: args.games,
    };
    let total = args.games * schedule.pairings.len() as u64;
    let range = args.shard.map_or(0..total, |part| shard_range(total, part));
    let bar = progress_bar(range.end - range.start, "games", "");
    // Each game is counted and written as it ends: the league keeps totals,
    // not games, and an interrupted league keeps what was played.
    let mut totals = Totals::new(names.clone(), seats, game.lowest_score_wins());
    let csv_out = args.csv.as_ref().map(|path| Output {
        flag: "--csv",
        path: path.clone(),
    });
    let mut csv_file = match &csv_out {
        Some(out) => Some(CsvFile::start(out, names.clone())?),
        None => None,
    };
    let jsonl_out = args.jsonl.as_ref().map(|path| Output {
        flag: "--jsonl",
        path: path.clone(),
    });
    let mut jsonl = match &jsonl_out {
        Some(out) => {
            let mut lines = CsvStream::start(out)?;
            lines.push(&part::header_line(&Header {
                file: args.game.file.display().to_string(),
                source_hash: crate::game::FileGame::id(game).source_hash,
                params: ctx.bindings.clone(),
                agents: names.clone(),
                players: specs.iter().map(part::spec_text).collect(),
                seed: args.seed,
                games: total,
                shard: args.shard.unwrap_or((0, 1)),
                range: (range.start, range.end),
                budget_ms: None,
                exec: specs.iter().any(|s| matches!(s.spec, AgentSpec::Exec(_))),
                league: Some(schedule.clone()),
                settings: part::settings(&args.agents, ctx.engine, &specs),
            }));
            Some(lines)
        }
        None => None,
    };
    let mut times = vec![DecisionTimes::default(); specs.len()];
    let mut failures: Vec<FailureRecord> = Vec::new();
    let agent_args = crate::cli::kit::agents::AgentArgs {
        optimal_agents: threads * n,
        ..args.agents.clone()
    };
    let caught = Caught::new();
    let mut failed_match = None;
    for (i, pairing) in schedule.pairings.iter().enumerate() {
        if caught.stopped().is_some() {
            break;
        }
        // This pairing's games in the part, numbered within the pairing.
        let from = i as u64 * args.games;
        let games = range.start.max(from) - from..range.end.min(from + args.games).saturating_sub(from);
        if games.is_empty() {
            continue;
        }
        let threads = threads.min(usize::try_from(games.end - games.start).unwrap_or(usize::MAX));
        let mut sets: Vec<Vec<BoxedAgent<'_>>> = Vec::with_capacity(threads);
        for _ in 0..threads {
            let mut set = Vec::with_capacity(n);
            for &a in pairing {
                set.push(make_player(&specs[a], game, args.seed, &agent_args, None, ctx)?);
            }
            sets.push(set);
        }
        let before = totals.games;
        let played = tournament::run_match(
            game,
            sets,
            games.clone(),
            args.seed,
            caught.flag(),
            &mut |done, record| {
                let mut record = record.clone();
                for a in record.seating.iter_mut() {
                    *a = pairing[*a];
                }
                let measure = totals.add(&record);
                let number = games.start + done;
                if let Some(f) = &mut csv_file {
                    f.row(game, measure, i, number, &record);
                }
                if let Some(lines) = &mut jsonl {
                    lines.push(&part::record_line(from + number, &record));
                }
                if let Some(b) = &bar {
                    b.set_position(before + done);
                }
            },
        );
        let result = match played {
            Ok(r) => r,
            Err(e) => {
                failed_match = Some((pairing, e));
                break;
            }
        };
        for (k, t) in result.times.iter().enumerate() {
            times[pairing[k]].merge(t);
        }
        for f in result.failures {
            failures.push(FailureRecord {
                game: from + f.game,
                agent: pairing[f.agent],
                ..f
            });
        }
    }
    let stop = caught.stopped();
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    // Closed (renamed into place) first: a stopped league keeps what was played.
    let csv_written = csv_file.map(CsvFile::finish);
    let jsonl_written = jsonl.map(|mut lines| {
        lines.push(&part::times_line(&times));
        lines.finish()
    });
    drop(caught);
    if let Some((pairing, e)) = failed_match {
        let names: Vec<String> = pairing.iter().map(|&a| specs[a].to_string()).collect();
        return Err(Failure::runtime(format!(
            "error: the league stopped in the match {}\n{}",
            names.join(" vs "),
            ctx.render(&e)
        )));
    }
    let played = totals.games;
    let stop = stop.filter(|_| played < range.end - range.start);
    let report = Report {
        names: &names,
        schedule: &schedule,
        seed: args.seed,
        part: args.shard.map(|part| (part, range.clone())),
        totals,
        times: &times,
        failures: &failures,
        csv: csv_out.as_ref().zip(csv_written),
        plot: args.plot.as_deref(),
    };
    let printed = report.print(game, ctx);
    if let (Some(out), Some(Err(e))) = (&jsonl_out, jsonl_written) {
        return Err(out.failed(e));
    }
    printed?;
    if let Some(stop) = stop {
        return Err(stop.games_failure("league", played, range.end - range.start, args.csv.is_some()));
    }
    Ok(())
}

/// `gdl merge` of a league's parts: the report, CSV and plot of the whole
/// league, from its games in order (`games`: each with its number in the
/// whole schedule, from 1) and the parts' times added up.
pub(in crate::cli) fn merge<'a>(
    game: &Interpreted,
    header: &Header,
    games: impl Iterator<Item = &'a (u64, GameRecord)>,
    times: Vec<DecisionTimes>,
    csv: Option<&std::path::Path>,
    plot: Option<&std::path::Path>,
    ctx: &mut Context,
) -> Result<(), Failure> {
    let Some(schedule) = &header.league else {
        return Err(Failure::input("error: not the parts of a league (a bug in gdl)"));
    };
    let n = game.num_players();
    let agents = header.agents.len();
    let fits = schedule.games > 0
        && schedule.candidates <= agents
        && schedule.pairings.len() as u64 * schedule.games == header.games
        && schedule
            .pairings
            .iter()
            .all(|p| p.len() == n && p.iter().all(|&a| a < agents));
    if !fits {
        return Err(Failure::input(format!(
            "error: the parts' schedule does not fit {} agents in the {n} seats of {}",
            agents, header.file
        )));
    }
    let seats: Vec<String> = (0..n).map(|p| game.player_name(p).to_string()).collect();
    let mut totals = Totals::new(header.agents.clone(), seats, game.lowest_score_wins());
    let csv_out = csv.map(|path| Output {
        flag: "--csv",
        path: path.to_path_buf(),
    });
    let mut csv_file = match &csv_out {
        Some(out) => Some(CsvFile::start(out, header.agents.clone())?),
        None => None,
    };
    let mut failures = Vec::new();
    for (number, record) in games {
        let k = number - 1;
        // `gdl merge` checked its seats against the schedule (`check_game`).
        let (i, g) = ((k / schedule.games) as usize, k % schedule.games);
        for (seat, failure) in record.failures.iter().enumerate() {
            if let Some(f) = failure {
                failures.push(FailureRecord {
                    game: k,
                    agent: record.seating[seat],
                    seat,
                    failure: f.clone(),
                });
            }
        }
        let measure = totals.add(record);
        if let Some(f) = &mut csv_file {
            f.row(game, measure, i, g + 1, record);
        }
    }
    let csv_written = csv_file.map(CsvFile::finish);
    Report {
        names: &header.agents,
        schedule,
        seed: header.seed,
        part: None,
        totals,
        times: &times,
        failures: &failures,
        csv: csv_out.as_ref().zip(csv_written),
        plot,
    }
    .print(game, ctx)
}

/// What a league's report says: of a whole league, of one part, or of the
/// parts merged.
struct Report<'a> {
    /// Every agent, those of `--players` first.
    names: &'a [String],
    schedule: &'a League,
    seed: u64,
    /// The part played (I of N) and its games, numbered from 0 through the league.
    part: Option<((u64, u64), std::ops::Range<u64>)>,
    totals: Totals,
    times: &'a [DecisionTimes],
    failures: &'a [FailureRecord],
    /// The CSV file, and how many games were written to it.
    csv: Option<(&'a Output, std::io::Result<u64>)>,
    plot: Option<&'a std::path::Path>,
}

impl Report<'_> {
    /// Prints the report; fails when a file could not be written (after printing).
    fn print(self, game: &Interpreted, ctx: &mut Context) -> Result<(), Failure> {
        let Report {
            names,
            schedule,
            seed,
            part,
            totals,
            times,
            failures,
            csv,
            plot,
        } = self;
        let played = totals.games;
        let (tally, crosstable) = totals.finish();
        let ratings = crosstable.ratings().at_tables_of(game.num_players());
        let candidates = schedule.candidates;
        let how = if schedule.field {
            format!(
                "each of {candidates} agent{} against the field ({})",
                if candidates == 1 { "" } else { "s" },
                names[candidates..].join(", ")
            )
        } else {
            format!("a round robin of {candidates} agents, {} a game", game.num_players())
        };
        let pairings = schedule.pairings.len();
        let mut text = format!(
            "game     {}\nleague   {how}: {} pairing{} of {} games, {} games in all, seed {}\n",
            title(game),
            pairings,
            if pairings == 1 { "" } else { "s" },
            schedule.games,
            played,
            seed
        );
        if let Some(((i, n), games)) = part {
            text.push_str(&format!(
                "part     {i} of {n} (from 0): games {} to {} of the league's {}\n",
                games.start + 1,
                games.end,
                pairings as u64 * schedule.games
            ));
        }
        text.push_str(&format!(
            "\nranking\n{}\n{}\n{}\ntime per decision (a decision: a move chosen from more than one)\n{}",
            ranking(&tally, candidates, schedule.field, failures),
            rating::text(&crosstable, &ratings, game.num_players()),
            standings::text(&tally),
            standings::times_text(names, times)
        ));
        text.push_str(&crate::cli::kit::agents::failures_text(names, game, failures));
        let mut failed = None;
        let mut files = Vec::new();
        if let Some((out, written)) = csv {
            match written {
                Ok(rows) => files.push(format!("csv      {} ({rows} games)", out.path.display())),
                Err(e) => failed = Some(out.failed(e)),
            }
        }
        if let Some(path) = plot {
            let out = Output {
                flag: "--plot",
                path: path.to_path_buf(),
            };
            let picture = league_file(
                Format::of(path).unwrap_or(Format::Svg),
                &format!("{}: {played} games", title(game)),
                &crosstable,
                &ratings,
            );
            match out.write(&picture) {
                Ok(()) => files.push(format!("plot     {}", path.display())),
                Err(f) => failed = failed.or(Some(f)),
            }
        }
        print_report(ctx, text, &files, failed)
    }
}

/// What the report and the plot need of a league's games, counted as they
/// end: its size grows with the agents, never with the number of games. The first game decides whether points or
/// utility are counted (a game without points counts its utility).
struct Totals {
    names: Vec<String>,
    seats: Vec<String>,
    lowest_wins: bool,
    tally: Option<Tally>,
    /// Who beat whom, for the ratings and the plot.
    crosstable: Crosstable,
    games: u64,
}

impl Totals {
    fn new(names: Vec<String>, seats: Vec<String>, lowest_wins: bool) -> Self {
        Totals {
            lowest_wins,
            crosstable: Crosstable::new(names.clone()),
            names,
            seats,
            tally: None,
            games: 0,
        }
    }

    /// Counts a game whose seating names the league's agents; the measure counted.
    fn add(&mut self, record: &GameRecord) -> Measure {
        let tally = self.tally.get_or_insert_with(|| {
            let measure = match record.scores {
                Some(_) => Measure::Points {
                    lowest_wins: self.lowest_wins,
                },
                None => Measure::Utility,
            };
            Tally::new(self.names.clone(), self.seats.clone(), measure)
        });
        let values = record.values(tally.measure);
        tally.record(&record.seating, values);
        self.crosstable.record(tally.measure, &record.seating, values);
        self.games += 1;
        tally.measure
    }

    /// The tally (utility, with no game played) and the crosstable.
    fn finish(self) -> (Tally, Crosstable) {
        let tally = self
            .tally
            .unwrap_or_else(|| Tally::new(self.names, self.seats, Measure::Utility));
        (tally, self.crosstable)
    }
}

/// Every group of `k` of the numbers `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut pick = Vec::with_capacity(k);
    fn go(start: usize, n: usize, k: usize, pick: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if pick.len() == k {
            out.push(pick.clone());
            return;
        }
        for i in start..n {
            pick.push(i);
            go(i + 1, n, k, pick, out);
            pick.pop();
        }
    }
    if k <= n {
        go(0, n, k, &mut pick, &mut out);
    }
    out
}

/// The agents from best to worst average (points: the fewest first when
/// they win), with their win rate, average and failures.
fn ranking(tally: &Tally, candidates: usize, field: bool, failures: &[FailureRecord]) -> String {
    let lowest_first = matches!(tally.measure, Measure::Points { lowest_wins: true });
    let mut order: Vec<usize> = (0..tally.agents.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (tally.overall[a].mean(), tally.overall[b].mean());
        let c = x.total_cmp(&y);
        if lowest_first { c } else { c.reverse() }
    });
    let average = match tally.measure {
        Measure::Utility => "avg utility (95%)",
        Measure::Points { .. } => "avg points (95%)",
    };
    let mut rows = vec![
        ["rank", "agent", "games", "win rate (95%)", average, "failures"]
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
    ];
    for (rank, &a) in order.iter().enumerate() {
        let r = &tally.overall[a];
        let cells = match tally.measure {
            Measure::Utility => standings::row("", "", r),
            Measure::Points { .. } => standings::points_row("", "", r),
        };
        let name = if field && a >= candidates {
            format!("{} (field)", tally.agents[a])
        } else {
            tally.agents[a].clone()
        };
        rows.push(vec![
            (rank + 1).to_string(),
            name,
            r.games.to_string(),
            cells[6].clone(),
            cells[7].clone(),
            failures.iter().filter(|f| f.agent == a).count().to_string(),
        ]);
    }
    standings::table(&rows, &[true, false, true, false, false, true])
}

/// The league's CSV, written a game at a time: one line per game, with its
/// pairing and number in it (from 1), each seat's agent, points (or utility)
/// and failure (empty, `crash`, `illegal`, `timeout`, `unreadable`), and the
/// winners.
struct CsvFile {
    csv: CsvStream,
    names: Vec<String>,
}

impl CsvFile {
    fn start(out: &Output, names: Vec<String>) -> Result<CsvFile, Failure> {
        Ok(CsvFile {
            csv: CsvStream::start(out)?,
            names,
        })
    }

    fn row(&mut self, game: &Interpreted, measure: Measure, pairing: usize, number: u64, r: &GameRecord) {
        if !self.csv.open() {
            return;
        }
        let mut text = String::new();
        if self.csv.rows() == 0 {
            text.push_str(&csv_header(game, measure));
        }
        let values = r.values(measure);
        let mut cells = vec![(pairing + 1).to_string(), number.to_string()];
        let mut best = Vec::new();
        for (seat, &a) in r.seating.iter().enumerate() {
            cells.push(self.names[a].clone());
            // `+ 0.0` writes -0 as 0.
            cells.push((values[seat] + 0.0).to_string());
            cells.push(
                r.failures
                    .get(seat)
                    .and_then(|f| f.as_ref())
                    .map_or("", |f| f.kind)
                    .to_string(),
            );
            if measure.outcome(values, seat) != Outcome::Loss {
                best.push(self.names[a].as_str());
            }
        }
        cells.push(best.join(";"));
        text.push_str(&csv_line(&cells));
        self.csv.push(&text);
    }

    /// The number of games written, once the file is in place.
    fn finish(self) -> std::io::Result<u64> {
        self.csv.finish()
    }
}

/// The CSV's header: each seat's agent, points (or utility) and failure.
fn csv_header(game: &Interpreted, measure: Measure) -> String {
    let mut header = vec!["pairing".to_string(), "game".to_string()];
    for p in 0..game.num_players() {
        let seat = game.player_name(p);
        header.push(format!("{seat} agent"));
        header.push(format!("{seat} {}", measure.label()));
        header.push(format!("{seat} failure"));
    }
    header.push("winners".into());
    csv_line(&header)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(seating: [usize; 2], returns: [f64; 2], scores: Option<[f64; 2]>) -> GameRecord {
        GameRecord {
            seating: seating.to_vec(),
            returns: returns.to_vec(),
            scores: scores.map(|s| s.to_vec()),
            failures: vec![None, None],
        }
    }

    /// The totals of a league agree with a tally of every game kept, and
    /// with a crosstable counted from them.
    #[test]
    fn totals_count_every_game_without_keeping_it() {
        let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let seats: Vec<String> = ["P1", "P2"].map(String::from).to_vec();
        let games: Vec<GameRecord> = (0..3000u32)
            .map(|g| {
                let pairing = [[0, 1], [0, 2], [1, 2]][(g / 1000) as usize];
                let seating = if g % 2 == 0 { pairing } else { [pairing[1], pairing[0]] };
                let p1 = f64::from(g % 7);
                let p2 = f64::from(g % 5);
                let win = if p1 < p2 { [1.0, -1.0] } else { [-1.0, 1.0] };
                record(seating, win, Some([p1, p2]))
            })
            .collect();
        let mut totals = Totals::new(names.clone(), seats.clone(), true);
        for g in &games {
            assert_eq!(totals.add(g), Measure::Points { lowest_wins: true });
        }
        assert_eq!(totals.games, 3000);
        let (tally, crosstable) = totals.finish();
        let mut kept = Tally::new(names, seats, Measure::Points { lowest_wins: true });
        for g in &games {
            kept.record(&g.seating, g.scores.as_deref().unwrap());
        }
        assert_eq!(tally, kept);
        // Each pair met in its 1000 games; the fewest points won.
        for (a, b) in [(0, 1), (0, 2), (1, 2)] {
            assert_eq!(crosstable.games(a, b), 1000);
            let ours = |g: &GameRecord, who: usize| {
                let seat = g.seating.iter().position(|&x| x == who).unwrap();
                g.scores.as_ref().unwrap()[seat]
            };
            let met = || {
                games
                    .iter()
                    .filter(|g| g.seating.contains(&a) && g.seating.contains(&b))
            };
            let wins = met().filter(|g| ours(g, a) < ours(g, b)).count() as u64;
            let draws = met().filter(|g| ours(g, a) == ours(g, b)).count() as u64;
            assert_eq!((crosstable.wins[a][b], crosstable.draws[a][b]), (wins, draws));
        }
    }

    /// The first game decides the measure; a later game without points counts its utility.
    #[test]
    fn totals_count_utility_when_the_first_game_has_no_points() {
        let names: Vec<String> = ["a", "b"].map(String::from).to_vec();
        let seats: Vec<String> = ["P1", "P2"].map(String::from).to_vec();
        let mut totals = Totals::new(names, seats, false);
        assert_eq!(totals.add(&record([0, 1], [1.0, -1.0], None)), Measure::Utility);
        assert_eq!(
            totals.add(&record([1, 0], [0.0, 0.0], Some([5.0, 5.0]))),
            Measure::Utility
        );
        let (tally, crosstable) = totals.finish();
        assert_eq!(tally.overall[0].games, 2);
        // Counted by utility too: a won the first game, the second was a draw.
        assert_eq!(
            (crosstable.wins[0][1], crosstable.draws[0][1], crosstable.wins[1][0]),
            (1, 1, 0)
        );
        assert_eq!(tally.overall[0].mean(), 0.5);
        let (empty, _) = Totals::new(vec!["a".into()], vec!["P1".into()], false).finish();
        assert_eq!(empty.measure, Measure::Utility);
    }

    #[test]
    fn combinations_are_every_group_once() {
        assert_eq!(combinations(3, 2), vec![vec![0, 1], vec![0, 2], vec![1, 2]]);
        assert_eq!(combinations(4, 3).len(), 4);
        assert_eq!(combinations(2, 3), Vec::<Vec<usize>>::new());
        assert_eq!(combinations(3, 1), vec![vec![0], vec![1], vec![2]]);
    }
}
