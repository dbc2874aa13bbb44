//! `gdl merge FILES...`: the report, CSV and plot of a match played in parts
//! (`gdl match --shard I/N --jsonl FILE`, one part a machine or a job), as
//! the whole match on one machine would have made them.
//!
//! A part's file holds JSON lines: the match's settings first (game file,
//! its text's hash, parameters, agents, seed, games, which part), then one
//! line per game in order, then the agents' times per decision. The parts
//! must be of one match and together hold each of its games once. A
//! league's parts merge the same way into the league's report
//! (src/cli/matches/league.rs).

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use serde_json::Value;

use super::part::shard_range;
use super::part::{FORMAT, Header, League, VERSION};
use super::report::{CsvFile, Histogram, Report};
use crate::cli::kit::context::{Context, Failure};
use crate::cli::kit::game_args::load_game;
use crate::cli::kit::output::{self, Input, Output};
use crate::cli::kit::signals::Caught;
use crate::runtime::Interpreted;
use crate::solve::agents::agent::AgentFailure;
use crate::solve::matches::stats::DecisionTimes;
use crate::solve::matches::tournament;
use crate::solve::matches::tournament::{GameRecord, Tallies};

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The parts' files, written by `gdl match --shard I/N --jsonl FILE` (a match or a league), in any order
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
    /// Each game with the line of the file it was read from.
    games: Vec<Game>,
    times: Vec<DecisionTimes>,
}

/// One game of a part: its line in the file, its number (from 1), its record.
struct Game {
    line: usize,
    number: u64,
    record: GameRecord,
}

/// The longest line read: a league's schedule of many pairings is the
/// longest a part writes. Past it, the file is no part (`/dev/zero`).
const MAX_LINE: u64 = 16 << 20;

pub fn run(args: &MergeArgs, ctx: &mut Context) -> Result<(), Failure> {
    if let Some(plot) = &args.plot {
        crate::report::plot::Format::check(plot).map_err(Failure::input)?;
    }
    let outputs: Vec<(&'static str, &Path)> = [("--csv", &args.csv), ("--plot", &args.plot)]
        .into_iter()
        .filter_map(|(flag, p)| p.as_deref().map(|p| (flag, p)))
        .collect();
    let inputs: Vec<Input> = args
        .files
        .iter()
        .map(|f| Input::new("a part being merged", f))
        .collect();
    output::check(&outputs, &inputs)?;
    let caught = Caught::new();
    let mut parts = Vec::with_capacity(args.files.len());
    for path in &args.files {
        let part = read_part(path, &caught)?;
        parts.push((path, part));
    }
    drop(caught);
    let (first_path, first) = &parts[0];
    let whole = first.header.clone();
    for (path, part) in &parts[1..] {
        if let Some((what, here, there)) = difference(&whole, &part.header) {
            let (a, b) = (first_path.display(), path.display());
            return Err(Failure::input(format!(
                "error: {a} and {b} are parts of different matches: {what} is {here} in {a}, {there} in {b}"
            )));
        }
    }
    for (path, part) in &parts {
        let h = &part.header;
        let total = match &h.league {
            Some(l) => l.games * l.pairings.len() as u64,
            None => h.games,
        };
        let range = shard_range(h.games, h.shard);
        if total != h.games || (range.start, range.end) != h.range {
            return Err(Failure::input(format!(
                "error: {}: line 1: part {} of {} of {} games plays games {} to {}, not {} to {}",
                path.display(),
                h.shard.0,
                h.shard.1,
                h.games,
                range.start + 1,
                range.end,
                h.range.0 + 1,
                h.range.1
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
        for (k, g) in part.games.iter().enumerate() {
            if g.number != part.header.range.0 + k as u64 + 1 {
                return Err(Failure::input(format!(
                    "error: {}: line {}: game {} is out of place",
                    path.display(),
                    g.line,
                    g.number
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
    let game = load_game(Path::new(&whole.file), ctx)?;
    let hash = crate::game::FileGame::id(&game).source_hash;
    if hash != whole.source_hash {
        return Err(Failure::input(format!(
            "error: {} has changed since the match was played: merge with the rules it was played by",
            whole.file
        )));
    }
    let n = crate::game::Game::num_players(&game);
    if whole.league.is_none() && whole.agents.len() != n {
        return Err(Failure::input(format!(
            "error: the parts seat {} agents, and {} has {n} players",
            whole.agents.len(),
            whole.file,
        )));
    }
    for (path, part) in &parts {
        for g in &part.games {
            check_game(&game, &whole, g).map_err(|why| {
                Failure::input(format!(
                    "error: {}: line {}: game {}: {why}",
                    path.display(),
                    g.line,
                    g.number
                ))
            })?;
        }
    }
    if whole.league.is_some() {
        if args.json {
            return Err(Failure::input(
                "error: --json reports a match of one agent per seat; for a league's parts, use --csv",
            ));
        }
        let games: Vec<(u64, GameRecord)> = parts
            .iter()
            .flat_map(|(_, p)| p.games.iter().map(|g| (g.number, g.record.clone())))
            .collect();
        let mut times = vec![DecisionTimes::default(); whole.agents.len()];
        for (_, part) in &parts {
            for (all, mine) in times.iter_mut().zip(&part.times) {
                all.merge(mine);
            }
        }
        return super::league::merge(
            &game,
            &whole,
            games.iter(),
            times,
            args.csv.as_deref(),
            args.plot.as_deref(),
            ctx,
        );
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
        for g in &part.games {
            if let Some(f) = &mut csv_file {
                f.row(&game, g.number, &g.record);
            }
            if let Some(h) = &mut histogram {
                h.add(&g.record);
            }
            tallies.record(&g.record);
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

/// What makes part `b` of another match than part `a`: the first setting in
/// which they differ, named as a user sets it, with its value in each. The
/// part's number and its games may differ; everything else must not.
fn difference(a: &Header, b: &Header) -> Option<(String, String, String)> {
    let (da, db) = (super::part::header_doc(a), super::part::header_doc(b));
    let what = |key: &str| match key {
        "game" => "the game file".to_string(),
        "source_hash" => "the game file's text".to_string(),
        "params" => "the game's parameters".to_string(),
        "agents" => "the agents".to_string(),
        "players" => "--players".to_string(),
        "seed" => "--seed".to_string(),
        "games" => "--games".to_string(),
        "budget_ms" => "--budget-ms".to_string(),
        "exec" => "whether an exec: agent plays".to_string(),
        "league" => "the league's schedule".to_string(),
        other => other.to_string(),
    };
    let shown = |v: Option<&Value>| match v {
        None | Some(Value::Null) => "not given".to_string(),
        Some(v) => v.to_string(),
    };
    if a.shard.1 != b.shard.1 {
        let parts = |h: &Header| format!("{} parts", h.shard.1);
        return Some(("the number of parts".into(), parts(a), parts(b)));
    }
    let keys = |d: &Value| {
        d.as_object()
            .map(|o| o.keys().cloned().collect::<Vec<_>>())
            .unwrap_or_default()
    };
    let mut all = keys(&da);
    all.extend(keys(&db));
    for key in all
        .iter()
        .filter(|k| !["shard", "range", "settings"].contains(&k.as_str()))
    {
        if da.get(key) != db.get(key) {
            return Some((what(key), shown(da.get(key)), shown(db.get(key))));
        }
    }
    let settings: std::collections::BTreeSet<&String> = a.settings.keys().chain(b.settings.keys()).collect();
    for key in settings {
        let (x, y) = (a.settings.get(key), b.settings.get(key));
        if x != y {
            let key = if key.starts_with("the file") {
                format!("the contents of {}", &key["the ".len()..])
            } else {
                key.clone()
            };
            return Some((key, shown(x), shown(y)));
        }
    }
    None
}

/// Checks one game of a part against the match: the seats its number gives
/// its agents, returns and scores that are numbers, and returns inside the
/// range the game's rules allow (where the rules fix one).
fn check_game(game: &Interpreted, header: &Header, g: &Game) -> Result<(), String> {
    use crate::game::Game as _;
    let n = game.num_players();
    let r = &g.record;
    if r.seating.len() != n || r.returns.len() != n {
        return Err(format!(
            "it seats {} agents, and {} has {n} players",
            r.seating.len(),
            header.file
        ));
    }
    let k = g.number - 1;
    let expected: Vec<usize> = match &header.league {
        None => tournament::seating(n, k),
        Some(l) => {
            let pairing = l
                .pairings
                .get((k / l.games.max(1)) as usize)
                .ok_or("it is past the league's schedule")?;
            if pairing.len() != n {
                return Err(format!(
                    "its pairing seats {} agents, and the game has {n} players",
                    pairing.len()
                ));
            }
            tournament::seating(n, k % l.games)
                .iter()
                .map(|&s| pairing[s])
                .collect()
        }
    };
    if r.seating != expected {
        return Err(format!(
            "its seats are {:?}, and the match seats its agents {:?} in this game",
            r.seating, expected
        ));
    }
    if let Some(bad) = r
        .returns
        .iter()
        .chain(r.scores.iter().flatten())
        .find(|x| !x.is_finite())
    {
        return Err(format!("{bad} is not a number a game ends with"));
    }
    if let Some((low, high)) = game.utility_range() {
        // Returns are written as the game gives them; a margin for the last digit.
        let slack = 1e-9 * low.abs().max(high.abs()).max(1.0);
        if let Some(bad) = r.returns.iter().find(|&&x| x < low - slack || x > high + slack) {
            return Err(format!(
                "a return of {bad} is outside what {} gives, {low} to {high}",
                game.name()
            ));
        }
    }
    if let Some(scores) = &r.scores
        && scores.len() != n
    {
        return Err(format!("it has {} scores for {n} players", scores.len()));
    }
    Ok(())
}

/// Reads one part's file, a line at a time, none longer than [`MAX_LINE`].
fn read_part(path: &Path, caught: &Caught) -> Result<Part, Failure> {
    let failed = |why: String| Failure::input(format!("error: {}: {why}", path.display()));
    let file =
        std::fs::File::open(path).map_err(|e| Failure::input(format!("error: cannot read {}: {e}", path.display())))?;
    let mut reader = BufReader::new(file);
    let mut header = None;
    let mut games = Vec::new();
    let mut times = None;
    let mut buf = Vec::new();
    let mut line_no = 0usize;
    loop {
        if let Some(stop) = caught.stopped() {
            return Err(stop.failure(&format!(
                "the merge was interrupted by {} while reading {}; no file was written",
                stop.name(),
                path.display()
            )));
        }
        buf.clear();
        let read = (&mut reader)
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| Failure::input(format!("error: cannot read {}: {e}", path.display())))?;
        if read == 0 {
            break;
        }
        line_no += 1;
        if buf.len() as u64 > MAX_LINE {
            return Err(failed(format!(
                "line {line_no} is longer than {} MiB: not a part of a match",
                MAX_LINE >> 20
            )));
        }
        let Ok(line) = std::str::from_utf8(&buf) else {
            return Err(failed(format!("line {line_no} is not text: not a part of a match")));
        };
        if line.trim().is_empty() {
            continue;
        }
        let at = |why: String| failed(format!("line {line_no}: {why}"));
        let doc: Value = serde_json::from_str(line).map_err(|e| at(e.to_string()))?;
        let Some(h) = &header else {
            if doc["format"] != FORMAT {
                return Err(failed(
                    "not a part of a match (write one with `gdl match --shard I/N --jsonl FILE`)".into(),
                ));
            }
            if doc["version"] != VERSION {
                return Err(at(format!(
                    "a part of format version {}, which records too little of how its agents played to be \
                     merged safely; play it again with this gdl",
                    doc["version"]
                )));
            }
            header = Some(header_of(&doc).ok_or_else(|| at("the match's settings are incomplete".into()))?);
            continue;
        };
        if times.is_some() {
            return Err(at("a game after the agents' times".into()));
        }
        if let Some(t) = doc.get("times") {
            let t = times_of(t).ok_or_else(|| at("the times are incomplete".into()))?;
            if t.len() != h.agents.len() {
                return Err(at("the agents' times do not match its agents".into()));
            }
            times = Some(t);
            continue;
        }
        let (number, record) = record_of(&doc).ok_or_else(|| at("not a game of the match".into()))?;
        games.push(Game {
            line: line_no,
            number,
            record,
        });
    }
    let header = header.ok_or_else(|| failed("the file is empty".into()))?;
    let times =
        times.ok_or_else(|| failed("the agents' times are missing at the end: was the part interrupted?".into()))?;
    Ok(Part { header, games, times })
}

fn header_of(v: &Value) -> Option<Header> {
    let pair = |v: &Value| Some((v.get(0)?.as_u64()?, v.get(1)?.as_u64()?));
    let params = v["params"]
        .as_array()?
        .iter()
        .map(|p| Some((p.get(0)?.as_str()?.to_string(), p.get(1)?.as_str()?.to_string())))
        .collect::<Option<Vec<_>>>()?;
    let texts = |v: &Value| {
        v.as_array()?
            .iter()
            .map(|a| a.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
    };
    let agents = texts(&v["agents"])?;
    let players = texts(&v["players"])?;
    let h = Header {
        file: v["game"].as_str()?.to_string(),
        source_hash: v["source_hash"].as_str()?.to_string(),
        params,
        agents,
        players,
        seed: v["seed"].as_u64()?,
        games: v["games"].as_u64()?,
        shard: pair(&v["shard"])?,
        range: pair(&v["range"])?,
        budget_ms: match &v["budget_ms"] {
            Value::Null => None,
            b => Some(b.as_u64()?),
        },
        exec: v["exec"].as_bool()?,
        league: match v.get("league") {
            None | Some(Value::Null) => None,
            Some(l) => Some(league_of(l)?),
        },
        settings: v["settings"].as_object()?.clone(),
    };
    let fits =
        h.range.0 <= h.range.1 && h.range.1 <= h.games && h.shard.0 < h.shard.1 && h.players.len() == h.agents.len();
    fits.then_some(h)
}

fn league_of(v: &Value) -> Option<League> {
    let index = |a: &Value| a.as_u64().and_then(|a| usize::try_from(a).ok());
    Some(League {
        candidates: index(&v["candidates"])?,
        field: v["field"].as_bool()?,
        pairings: v["pairings"]
            .as_array()?
            .iter()
            .map(|p| p.as_array()?.iter().map(index).collect::<Option<Vec<_>>>())
            .collect::<Option<Vec<_>>>()?,
        games: v["games"].as_u64()?,
    })
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
    // The agents' numbers are checked against the match's (or league's) agents by the caller.
    let n = record.seating.len();
    let fits =
        record.returns.len() == n && record.failures.len() == n && record.scores.as_ref().is_none_or(|s| s.len() == n);
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
