//! The lines of a part's file (`gdl match --shard I/N --jsonl FILE`): the
//! match's settings, one line per game, the agents' times; `gdl merge`
//! reads them back (src/cli/matches/merge.rs).

use std::time::Duration;

use serde_json::{Value, json};

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
    /// The agents, one per seat as the first game seats them.
    pub agents: Vec<String>,
    pub seed: u64,
    /// The games of the whole match.
    pub games: u64,
    /// Part I of N.
    pub shard: (u64, u64),
    /// The games of this part, numbered from 0: from, to (not included).
    pub range: (u64, u64),
    pub budget_ms: Option<u64>,
    /// Whether an external agent plays (the CSV then has failure columns).
    pub exec: bool,
}

/// What marks a part's file, on its first line.
pub const FORMAT: &str = "gdl match part";

pub fn header_line(h: &Header) -> String {
    let doc = json!({
        "format": FORMAT,
        "version": 1,
        "game": h.file,
        "source_hash": h.source_hash,
        "params": h.params,
        "agents": h.agents,
        "seed": h.seed,
        "games": h.games,
        "shard": [h.shard.0, h.shard.1],
        "range": [h.range.0, h.range.1],
        "budget_ms": h.budget_ms,
        "exec": h.exec,
    });
    format!("{doc}\n")
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
