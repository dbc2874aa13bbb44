//! `gdl merge FILES...`: the report, CSV and plot of a match played in parts
//! (`gdl match --shard I/N --jsonl FILE`, one part a machine or a job), as
//! the whole match on one machine would have made them.
//!
//! A part's file holds JSON lines: the match's settings first (game file,
//! its text's hash, parameters, agents, seed, games, which part), then one
//! line per game in order, then the agents' times per decision. The parts
//! must be of one match and together hold each of its games once.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use serde_json::Value;

use super::part::{FORMAT, Header};
use super::tournament::{CsvFile, Histogram, Report};
use crate::cli::output::Output;
use crate::cli::{Context, Failure, load_game};
use crate::solve::agents::agent::AgentFailure;
use crate::solve::matches::stats::DecisionTimes;
use crate::solve::matches::tournament::{GameRecord, Tallies};

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The parts' files, written by `gdl match --shard I/N --jsonl FILE`, in any order
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Write every game to this CSV file, as `gdl match --csv` does
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Draw each agent's points (or utility) per game as a histogram, in this
    /// SVG file, or PNG file (for a report or a slide) when its name ends in .png
    #[arg(long, value_name = "FILE.svg|FILE.png")]
    pub plot: Option<PathBuf>,
    /// Print the results as one JSON object (docs/json-schema/match.json)
    #[arg(long)]
    pub json: bool,
}

/// One part's file, read.
struct Part {
    header: Header,
    games: Vec<(u64, GameRecord)>,
    times: Vec<DecisionTimes>,
}

pub fn run(args: &MergeArgs, ctx: &mut Context) -> Result<(), Failure> {
    if let Some(plot) = &args.plot {
        crate::report::plot::Format::check(plot).map_err(Failure::input)?;
    }
    let mut parts = Vec::with_capacity(args.files.len());
    for path in &args.files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Failure::input(format!("error: cannot read {}: {e}", path.display())))?;
        let part = read_part(&text).map_err(|why| Failure::input(format!("error: {}: {why}", path.display())))?;
        parts.push((path, part));
    }
    let (first_path, first) = &parts[0];
    let whole = first.header.clone();
    for (path, part) in &parts[1..] {
        let h = &part.header;
        let same = Header {
            shard: whole.shard,
            range: whole.range,
            ..h.clone()
        };
        if same != whole || h.shard.1 != whole.shard.1 {
            return Err(Failure::input(format!(
                "error: {} and {} are parts of different matches (game, parameters, agents, seed, games or parts differ)",
                first_path.display(),
                path.display()
            )));
        }
    }
    // Every game once: the parts in order, each game where its part says.
    parts.sort_by_key(|(_, p)| p.header.range.0);
    let mut expected = 0u64;
    for (path, part) in &parts {
        if part.header.range.0 != expected {
            return Err(Failure::input(format!(
                "error: games {} to {} of {} are missing{}: merge every part of the match",
                expected + 1,
                part.header.range.0.max(expected + 1),
                whole.games,
                if part.header.range.0 < expected {
                    format!(" or {} repeats a part", path.display())
                } else {
                    String::new()
                }
            )));
        }
        let played = part.games.len() as u64;
        let wanted = part.header.range.1 - part.header.range.0;
        if played != wanted {
            return Err(Failure::input(format!(
                "error: {} holds {played} of its part's {wanted} games (was it interrupted?): play the part again",
                path.display()
            )));
        }
        for (k, (number, _)) in part.games.iter().enumerate() {
            if *number != part.header.range.0 + k as u64 + 1 {
                return Err(Failure::input(format!(
                    "error: {}: game {number} is out of place",
                    path.display()
                )));
            }
        }
        expected = part.header.range.1;
    }
    if expected != whole.games {
        return Err(Failure::input(format!(
            "error: games {} to {} of {} are missing: merge every part of the match",
            expected + 1,
            whole.games,
            whole.games
        )));
    }

    ctx.bindings = whole.params.clone();
    let game = load_game(std::path::Path::new(&whole.file), ctx)?;
    let hash = crate::game::FileGame::id(&game).source_hash;
    if hash != whole.source_hash {
        return Err(Failure::input(format!(
            "error: {} has changed since the match was played: merge with the rules it was played by",
            whole.file
        )));
    }
    let n = whole.agents.len();
    if n != crate::game::Game::num_players(&game) {
        return Err(Failure::input(format!(
            "error: the parts seat {n} agents, and {} has {} players",
            whole.file,
            crate::game::Game::num_players(&game)
        )));
    }
    let csv_out = args.csv.as_ref().map(|path| Output {
        flag: "--csv",
        path: path.clone(),
    });
    let mut csv_file = match &csv_out {
        Some(out) => Some(CsvFile::start(out, whole.agents.clone(), whole.exec)?),
        None => None,
    };
    let mut histogram = args.plot.as_ref().map(|_| Histogram::new(n));
    let mut tallies = Tallies::new(&game, whole.agents.clone(), 0);
    let mut times = vec![DecisionTimes::default(); n];
    for (_, part) in &parts {
        for (number, record) in &part.games {
            if record.seating.len() != n || record.returns.len() != n {
                return Err(Failure::input(format!("error: game {number} does not seat {n} agents")));
            }
            if let Some(f) = &mut csv_file {
                f.row(&game, *number, record);
            }
            if let Some(h) = &mut histogram {
                h.add(record);
            }
            tallies.record(record);
        }
        for (all, mine) in times.iter_mut().zip(&part.times) {
            all.merge(mine);
        }
    }
    let result = tallies.finish(whole.games, times);
    let csv_written = csv_file.map(CsvFile::finish);
    let report = Report {
        games: whole.games,
        first_game: 0,
        played: whole.games,
        seed: whole.seed,
        budget_ms: whole.budget_ms,
        result,
        csv: csv_out.as_ref().zip(csv_written),
        plot: args
            .plot
            .as_deref()
            .map(|p| (p, histogram.unwrap_or_else(|| Histogram::new(n)))),
        json: args.json,
    };
    report.print(&game, ctx)
}

fn read_part(text: &str) -> Result<Part, String> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().ok_or("the file is empty")?;
    let head: Value = serde_json::from_str(first).map_err(|e| format!("line 1: {e}"))?;
    if head["format"] != FORMAT {
        return Err("not a part of a match (write one with `gdl match --shard I/N --jsonl FILE`)".into());
    }
    let header = header_of(&head).ok_or("line 1: the match's settings are incomplete")?;
    let mut games = Vec::new();
    let mut times = None;
    for (i, line) in lines.enumerate() {
        let doc: Value = serde_json::from_str(line).map_err(|e| format!("line {}: {e}", i + 2))?;
        if times.is_some() {
            return Err(format!("line {}: a game after the agents' times", i + 2));
        }
        if let Some(t) = doc.get("times") {
            times = Some(times_of(t).ok_or(format!("line {}: the times are incomplete", i + 2))?);
            continue;
        }
        games.push(record_of(&doc).ok_or(format!("line {}: not a game of the match", i + 2))?);
    }
    let times = times.ok_or("the agents' times are missing at the end: was the part interrupted?")?;
    if times.len() != header.agents.len() {
        return Err("the agents' times do not match its agents".into());
    }
    Ok(Part { header, games, times })
}

fn header_of(v: &Value) -> Option<Header> {
    let pair = |v: &Value| Some((v.get(0)?.as_u64()?, v.get(1)?.as_u64()?));
    let params = v["params"]
        .as_array()?
        .iter()
        .map(|p| Some((p.get(0)?.as_str()?.to_string(), p.get(1)?.as_str()?.to_string())))
        .collect::<Option<Vec<_>>>()?;
    let agents = v["agents"]
        .as_array()?
        .iter()
        .map(|a| a.as_str().map(str::to_string))
        .collect::<Option<Vec<_>>>()?;
    let h = Header {
        file: v["game"].as_str()?.to_string(),
        source_hash: v["source_hash"].as_str()?.to_string(),
        params,
        agents,
        seed: v["seed"].as_u64()?,
        games: v["games"].as_u64()?,
        shard: pair(&v["shard"])?,
        range: pair(&v["range"])?,
        budget_ms: match &v["budget_ms"] {
            Value::Null => None,
            b => Some(b.as_u64()?),
        },
        exec: v["exec"].as_bool()?,
    };
    (h.range.0 <= h.range.1 && h.range.1 <= h.games && h.shard.0 < h.shard.1).then_some(h)
}

fn floats(v: &Value) -> Option<Vec<f64>> {
    v.as_array()?.iter().map(Value::as_f64).collect()
}

fn record_of(v: &Value) -> Option<(u64, GameRecord)> {
    let number = v["game"].as_u64()?;
    let seating = v["seating"]
        .as_array()?
        .iter()
        .map(|a| a.as_u64().and_then(|a| usize::try_from(a).ok()))
        .collect::<Option<Vec<_>>>()?;
    let failures = v["failures"]
        .as_array()?
        .iter()
        .map(|f| match f {
            Value::Null => Some(None),
            f => Some(Some(AgentFailure {
                kind: failure_kind(f["kind"].as_str()?)?,
                detail: f["detail"].as_str()?.to_string(),
                forfeit: f["forfeit"].as_bool()?,
            })),
        })
        .collect::<Option<Vec<_>>>()?;
    let record = GameRecord {
        returns: floats(&v["returns"])?,
        scores: match &v["scores"] {
            Value::Null => None,
            s => Some(floats(s)?),
        },
        failures,
        seating,
    };
    let n = record.seating.len();
    let fits = record.seating.iter().all(|&a| a < n)
        && record.failures.len() == n
        && record.scores.as_ref().is_none_or(|s| s.len() == n);
    fits.then_some((number, record))
}

/// The failure kinds the CSV names (`AgentFailure::kind`).
fn failure_kind(kind: &str) -> Option<&'static str> {
    ["crash", "illegal", "timeout", "unreadable"]
        .into_iter()
        .find(|k| *k == kind)
}

fn times_of(v: &Value) -> Option<Vec<DecisionTimes>> {
    v.as_array()?
        .iter()
        .map(|t| {
            let ns = |k: &str| t[k].as_u64().map(Duration::from_nanos);
            Some(DecisionTimes {
                decisions: t["decisions"].as_u64()?,
                total: ns("total_ns")?,
                max: ns("max_ns")?,
                start_ups: t["start_ups"].as_u64()?,
                start_up_total: ns("start_up_total_ns")?,
                start_up_max: ns("start_up_max_ns")?,
            })
        })
        .collect()
}
