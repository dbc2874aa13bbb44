//! The lines of a part's file (`gdl match --shard I/N --jsonl FILE`): the
//! match's settings, one line per game, the agents' times; `gdl merge`
//! reads them back (src/cli/matches/merge.rs).
//!
//! A league's parts (more agents than seats, or `--field`) have the same
//! lines: its games are numbered through the whole schedule (pairing after
//! pairing), each game's seating names the league's agents, and the first
//! line adds the schedule (`League`).

use std::time::Duration;

use clap::ValueEnum;
use serde_json::{Map, Value, json};

use crate::cli::kit::agents::AgentArgs;
use crate::runtime::Engine;
use crate::solve::agents::agent::{AgentSpec, PlayerSpec};
use crate::solve::matches::stats::DecisionTimes;
use crate::solve::matches::tournament::GameRecord;

/// The settings a part's file starts with.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The game file as `gdl match` was given it.
    pub file: String,
    /// The hash of its text (`GameId::source_hash`).
    pub source_hash: String,
    pub params: Vec<(String, String)>,
    /// The agents, one per seat as the first game seats them; in a league,
    /// every agent (those of `--players`, then the field).
    pub agents: Vec<String>,
    /// The same agents as `--players` (and `--field`) gave them, options and
    /// all: a name in `agents` may be a label (`me=exec:./a.py` is `me`).
    pub players: Vec<String>,
    pub seed: u64,
    /// The games of the whole match (of a league: of all its pairings).
    pub games: u64,
    /// Part I of N.
    pub shard: (u64, u64),
    /// The games of this part, numbered from 0: from, to (not included).
    pub range: (u64, u64),
    pub budget_ms: Option<u64>,
    /// Whether an external agent plays (the CSV then has failure columns).
    pub exec: bool,
    /// A league's schedule; none for a match of one group of agents.
    pub league: Option<League>,
    /// Everything else that decides how a seat plays ([`settings`]), keyed
    /// by what a user sets it with: parts that differ in any of it are not
    /// one match.
    pub settings: Map<String, Value>,
}

/// The schedule of a league: its pairings, each a match of `games` games.
/// Game k (from 0) of the whole league is game `k % games` of pairing `k / games`.
#[derive(Clone, Debug, PartialEq)]
pub struct League {
    /// How many agents came from `--players` (the rest are the field).
    pub candidates: usize,
    /// Whether the rest are a `--field` (not a round robin).
    pub field: bool,
    /// The agents of each pairing, one per seat as its first game seats them.
    pub pairings: Vec<Vec<usize>>,
    /// The games of each pairing.
    pub games: u64,
}

/// What marks a part's file, on its first line.
pub const FORMAT: &str = "gdl match part";

/// The version of the format. Version 1 recorded no settings besides a
/// search budget, so its parts could not be told apart: `gdl merge` refuses them.
pub const VERSION: u64 = 2;

/// Everything besides the game, its parameters and the agents' specs that
/// decides how a seat plays: gdl's version, the engine, every agent option,
/// and the contents of the files the agents read (a Q-table, a strategy, an
/// `exec:` agent's script). Keyed by the flag that sets each (or by what
/// the file is), so that `gdl merge` can name the one that differs. Left
/// out: `--threads` (the games are the same on any number), `--agent-stderr`
/// (where errors go), and `--max-memory`, whose default differs between
/// machines and which stops an agent rather than changing its play.
pub fn settings(agents: &AgentArgs, engine: Engine, specs: &[PlayerSpec]) -> Map<String, Value> {
    fn name(v: &impl ValueEnum) -> Value {
        v.to_possible_value().map_or(Value::Null, |p| p.get_name().into())
    }
    let mut s = Map::new();
    s.insert("gdl".into(), env!("CARGO_PKG_VERSION").into());
    s.insert("--engine".into(), engine.name().into());
    s.insert("--budget-ms".into(), json!(agents.budget_ms));
    s.insert("--move-time-ms".into(), json!(agents.move_time_ms));
    s.insert("--on-agent-failure".into(), name(&agents.on_failure));
    s.insert("--search-threads".into(), json!(agents.search_threads));
    s.insert("--mcts-parallel".into(), name(&agents.mcts_parallel));
    s.insert(
        "--mcts-simultaneous".into(),
        agents.mcts_simultaneous.as_ref().map_or(Value::Null, name),
    );
    s.insert(
        "--mcts-backup".into(),
        agents.mcts_backup.as_ref().map_or(Value::Null, name),
    );
    s.insert("--mcts-win-bonus".into(), json!(agents.mcts_win_bonus));
    s.insert("--mcts-exploration".into(), json!(agents.mcts_exploration));
    s.insert("--mcts-cutoff".into(), json!(agents.mcts_cutoff));
    s.insert("--mcts-minimax".into(), json!(agents.mcts_minimax));
    s.insert("--max-nodes".into(), json!(agents.search.max_nodes));
    s.insert("--time-limit".into(), json!(agents.search.time_limit));
    for (what, path) in agent_files(specs) {
        let hash = std::fs::read(&path)
            .ok()
            .map(|bytes| format!("{:016x}", crate::game::fnv1a64(&bytes)));
        s.insert(what, json!(hash));
    }
    s
}

/// The files an agent's play depends on: a `q:` or `policy:` table, and each
/// word of an `exec:` command that names a file (its script, a program given
/// by its path; not a program found in `PATH`, which may be another build of
/// the same interpreter on another machine).
fn agent_files(specs: &[PlayerSpec]) -> Vec<(String, std::path::PathBuf)> {
    let mut files = Vec::new();
    for p in specs {
        let full = spec_text(p);
        match &p.spec {
            AgentSpec::QTable(path) | AgentSpec::Policy(path) | AgentSpec::AlphaZero(path) => {
                files.push((format!("the file of {full}"), path.clone()));
            }
            AgentSpec::Exec(command) => {
                let words = crate::cli::kit::agents::exec::split_command(command).unwrap_or_default();
                for (k, word) in words.iter().enumerate() {
                    let named = k > 0 || word.contains('/');
                    if named && std::path::Path::new(word).is_file() {
                        files.push((format!("the file {word} of {full}"), word.into()));
                    }
                }
            }
            _ => {}
        }
    }
    files
}

/// An agent as `--players` gave it: its label, if any, and its spec.
pub fn spec_text(p: &PlayerSpec) -> String {
    match &p.label {
        Some(label) => format!("{label}={}", p.spec),
        None => p.spec.to_string(),
    }
}

/// The header as the JSON object of the first line.
pub fn header_doc(h: &Header) -> Value {
    let mut doc = json!({
        "format": FORMAT,
        "version": VERSION,
        "game": h.file,
        "source_hash": h.source_hash,
        "params": h.params,
        "agents": h.agents,
        "players": h.players,
        "seed": h.seed,
        "games": h.games,
        "shard": [h.shard.0, h.shard.1],
        "range": [h.range.0, h.range.1],
        "budget_ms": h.budget_ms,
        "exec": h.exec,
        "settings": h.settings,
    });
    if let Some(l) = &h.league {
        doc["league"] = json!({
            "candidates": l.candidates,
            "field": l.field,
            "pairings": l.pairings,
            "games": l.games,
        });
    }
    doc
}

pub fn header_line(h: &Header) -> String {
    format!("{}\n", header_doc(h))
}

/// Game `number` (counted from 1) as a line.
pub fn record_line(number: u64, r: &GameRecord) -> String {
    let failures: Vec<Value> = r
        .failures
        .iter()
        .map(|f| match f {
            None => Value::Null,
            Some(f) => json!({"kind": f.kind, "detail": f.detail, "forfeit": f.forfeit}),
        })
        .collect();
    let doc = json!({
        "game": number,
        "seating": r.seating,
        "returns": r.returns,
        "scores": r.scores,
        "failures": failures,
    });
    format!("{doc}\n")
}

/// The agents' times per decision, the last line.
pub fn times_line(times: &[DecisionTimes]) -> String {
    let nanos = |d: Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
    let each: Vec<Value> = times
        .iter()
        .map(|t| {
            json!({
                "decisions": t.decisions,
                "total_ns": nanos(t.total),
                "max_ns": nanos(t.max),
                "start_ups": t.start_ups,
                "start_up_total_ns": nanos(t.start_up_total),
                "start_up_max_ns": nanos(t.start_up_max),
            })
        })
        .collect();
    format!("{}\n", json!({ "times": each }))
}

/// The games (numbered from 0) that part `i` of `n` of a match of `games` plays:
/// the match cut into `n` runs of consecutive games, as even as they come.
pub fn shard_range(games: u64, (i, n): (u64, u64)) -> std::ops::Range<u64> {
    let at = |k: u64| (u128::from(games) * u128::from(k) / u128::from(n)) as u64;
    at(i)..at(i + 1)
}
