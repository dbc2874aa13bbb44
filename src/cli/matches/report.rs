//! The report of a match, or of its parts merged (`gdl merge`): the text or
//! JSON, the CSV of its games, the plot of each agent's points; shared by
//! the match, its league and the merge.

use std::collections::BTreeMap;

use crate::cli::kit::agents::failures_text;
use crate::cli::kit::context::{Context, Failure, stdout_failed};
use crate::cli::kit::csv::csv_line;
use crate::cli::kit::game_args::title;
use crate::cli::kit::output::{CsvStream, Output};
use crate::game::Game;
use crate::report::plot::{Counted, Format, Outcomes, histogram_file, outcomes_file};
use crate::report::standings;
use crate::report::stats::{Measure, Outcome};
use crate::runtime::Interpreted;
use crate::solve::matches::tournament::{GameRecord, MatchResult};

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

/// The match's picture: where the utility only tells a win, a draw or a
/// loss, each agent's share of them as bars; where it says more (points,
/// or a payoff of several sizes), each agent's histogram of values.
fn plot(game: &Interpreted, result: &MatchResult, histogram: &Histogram, format: Format) -> Vec<u8> {
    let measure = result.tally.measure;
    let title = format!("{}: {} games", title(game), histogram.games);
    if measure == Measure::Utility && only_outcomes(&histogram.utility) {
        let agents: Vec<Outcomes> = result
            .tally
            .agents
            .iter()
            .zip(&result.tally.overall)
            .map(|(name, r)| Outcomes {
                name,
                wins: r.wins,
                draws: r.draws,
                losses: r.losses,
            })
            .collect();
        return outcomes_file(format, &title, &agents);
    }
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
    histogram_file(format, &title, x_label(measure), &series)
}

/// Whether the utilities seen are at most three values (a win, a draw and
/// a loss): then a histogram of them says no more than the outcomes do.
fn only_outcomes(utility: &[BTreeMap<u64, u64>]) -> bool {
    let values: std::collections::BTreeSet<u64> = utility.iter().flat_map(|m| m.keys().copied()).collect();
    values.len() <= 3
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
