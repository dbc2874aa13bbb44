//! The report of `gdl solve`: as text for people, as JSON for programs.

use std::fmt::Write as _;

use serde_json::json;

use crate::game::Game;
use crate::solve::{MoveValue, Solution};

/// A utility as people write it: `1`, `-3`, `0.5`.
pub fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:.3}")
    }
}

/// A count with thousands separated: `8,339,730`.
pub use crate::digits::thousands;

/// Who wins with this value for the first player, in a two-player zero-sum game.
pub fn winner_text<G: Game>(game: &G, value: f64) -> String {
    if value > 0.0 {
        format!("{} wins", game.player_name(0))
    } else if value < 0.0 {
        format!("{} wins", game.player_name(1))
    } else {
        "draw".to_string()
    }
}

fn line_text<G: Game>(game: &G, line: &[G::Move]) -> String {
    if line.is_empty() {
        "(none: the game is over)".to_string()
    } else {
        line.iter().map(|m| game.move_text(m)).collect::<Vec<_>>().join(" ")
    }
}

/// What was asked: the game, its parameters, the position and how it was searched.
pub struct Header<'a> {
    pub game: &'a str,
    pub params: &'a [(String, String)],
    pub position: String,
    pub to_move: String,
    /// The position as the game's display draws it, where a person asked
    /// for a position other than the start (`--from`, `--after`).
    pub board: Option<String>,
    pub method: String,
    /// Whether the search preferred short wins and long losses (`--fast`).
    pub fast: bool,
    /// Seconds since the command started: reading and compiling the game,
    /// the search, and what came between.
    pub wall_seconds: f64,
}

pub fn text<G: Game>(game: &G, h: &Header, s: &Solution<G::Move>) -> String {
    let mut out = String::new();
    let params: Vec<String> = h.params.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    if params.is_empty() {
        let _ = writeln!(out, "game        {}", h.game);
    } else {
        let _ = writeln!(out, "game        {} ({})", h.game, params.join(", "));
    }
    let _ = writeln!(out, "position    {}", h.position);
    if let Some(b) = &h.board {
        for line in b.lines() {
            let _ = writeln!(out, "{}", format!("            {line}").trim_end());
        }
    }
    let _ = writeln!(out, "to move     {}", h.to_move);
    let _ = writeln!(
        out,
        "value       {} (for {}, the first player)",
        number(s.value),
        game.player_name(0)
    );
    let _ = writeln!(out, "outcome     {} under optimal play", winner_text(game, s.value));
    let best: Vec<String> = s.best_moves.iter().map(|m| game.move_text(m)).collect();
    let _ = writeln!(
        out,
        "best moves  {}",
        if best.is_empty() {
            "(none: the game is over)".to_string()
        } else {
            best.join(", ")
        }
    );
    let _ = writeln!(out, "line        {}", line_text(game, &s.pv));
    let _ = writeln!(out, "length      {}", length_text(game, h, s));
    let _ = writeln!(out, "nodes       {}", s.nodes);
    let _ = writeln!(out, "states      {}", s.states);
    let _ = writeln!(out, "search      {}", h.method);
    let _ = writeln!(
        out,
        "time        {:.3} s for the search, {:.1} s in all",
        s.seconds, h.wall_seconds
    );
    out
}

/// The length of the principal line, and with `--fast` what kind of play it is the length of.
fn length_text<G: Game>(game: &G, h: &Header, s: &Solution<G::Move>) -> String {
    let n = s.pv.len();
    let moves = format!("{n} move{}", if n == 1 { "" } else { "s" });
    if !h.fast {
        return moves;
    }
    let (winner, loser) = if s.value > 0.0 {
        (game.player_name(0), game.player_name(1))
    } else if s.value < 0.0 {
        (game.player_name(1), game.player_name(0))
    } else {
        return format!("{moves} (a draw: --fast prefers no length)");
    };
    format!("{moves}, {winner} winning as fast as it can, {loser} holding out as long as it can")
}

pub fn json<G: Game>(game: &G, h: &Header, s: &Solution<G::Move>) -> serde_json::Value {
    let moves = |ms: &[G::Move]| ms.iter().map(|m| game.move_text(m)).collect::<Vec<_>>();
    let params: serde_json::Map<String, serde_json::Value> =
        h.params.iter().map(|(n, v)| (n.clone(), json!(v))).collect();
    json!({
        "game": h.game,
        "params": params,
        "position": h.position,
        "to_move": h.to_move,
        "value": s.value,
        "winner": if s.value > 0.0 { json!(game.player_name(0)) } else if s.value < 0.0 { json!(game.player_name(1)) } else { json!(null) },
        "best_moves": moves(&s.best_moves),
        "pv": moves(&s.pv),
        "length": s.pv.len(),
        "fast": h.fast,
        "nodes": s.nodes,
        "states": s.states,
        "memo_entries": s.memo_entries,
        "memo_hits": s.memo_hits,
        "search": h.method,
        "seconds": s.seconds,
        "wall_seconds": h.wall_seconds,
    })
}

/// `--explain`: every legal move, its value, and the line that proves it;
/// `best` (the solve's best moves) are marked, so that with `--fast` only the
/// fastest wins are.
pub fn explain_text<G: Game>(game: &G, best: &[G::Move], moves: &[MoveValue<G::Move>]) -> String {
    let mut out = String::new();
    let width = moves
        .iter()
        .map(|m| game.move_text(&m.mv).len())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(out, "{:<width$}  {:>5}  line after the move", "move", "value");
    for m in moves {
        let mark = if best.contains(&m.mv) { "  best" } else { "" };
        let _ = writeln!(
            out,
            "{:<width$}  {:>5}  {}{mark}",
            game.move_text(&m.mv),
            number(m.value),
            line_text(game, &m.line)
        );
    }
    out
}

/// One run of the same solve, for `--stats`.
#[derive(Clone, Debug)]
pub struct Run {
    pub nodes: u64,
    pub seconds: f64,
    /// The limit that stopped the run before it finished (`100000000 nodes`).
    pub stopped: Option<String>,
}

/// `--stats` (seed Extension B): what the memo table held and what it saved.
#[derive(Clone, Debug)]
pub struct Stats {
    pub memo_entries: usize,
    /// An estimate of the table's memory: its slots and the states' cells.
    pub memo_bytes: u64,
    /// Positions answered from the table without a search.
    pub memo_hits: u64,
    pub with_memo: Run,
    pub without_memo: Run,
}

impl Stats {
    /// The share of the nodes of the run with the table that the table answered.
    pub fn hit_rate(&self) -> f64 {
        if self.with_memo.nodes == 0 {
            0.0
        } else {
            self.memo_hits as f64 / self.with_memo.nodes as f64
        }
    }
}

/// Bytes as people read them: `812 B`, `61.4 KiB`, `3.2 MiB`.
fn bytes_text(b: u64) -> String {
    match b {
        0..1024 => format!("{b} B"),
        1024..1_048_576 => format!("{:.1} KiB", b as f64 / 1024.0),
        _ => format!("{:.1} MiB", b as f64 / 1_048_576.0),
    }
}

/// `--stats` as text: the table's size and hits, then both runs side by side.
pub fn stats_text(st: &Stats) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "memo table  {} entries (a state and its value each), about {}",
        thousands(st.memo_entries as u64),
        bytes_text(st.memo_bytes)
    );
    let _ = writeln!(
        out,
        "memo hits   {} ({:.1}% of the {} nodes searched were answered from the table)",
        thousands(st.memo_hits),
        100.0 * st.hit_rate(),
        thousands(st.with_memo.nodes)
    );
    let _ = writeln!(out);
    let nodes = |r: &Run| match &r.stopped {
        None => thousands(r.nodes),
        Some(_) => format!("{}+", thousands(r.nodes)),
    };
    let time = |r: &Run| match &r.stopped {
        None => format!("{:.3} s", r.seconds),
        Some(_) => format!("{:.3} s+", r.seconds),
    };
    let rows = [
        ("", "with the table".to_string(), "without it".to_string()),
        ("nodes", nodes(&st.with_memo), nodes(&st.without_memo)),
        ("time", time(&st.with_memo), time(&st.without_memo)),
    ];
    let w1 = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    let w2 = rows.iter().map(|r| r.2.len()).max().unwrap_or(0);
    for (name, a, b) in rows {
        let _ = writeln!(out, "{name:<10}  {a:>w1$}  {b:>w2$}");
    }
    for (which, r) in [("with", &st.with_memo), ("without", &st.without_memo)] {
        if let Some(limit) = &r.stopped {
            let _ = writeln!(
                out,
                "+: the search {which} the table stopped at its limit of {limit}, unfinished"
            );
        }
    }
    if st.without_memo.stopped.is_none() && st.with_memo.nodes > 0 {
        let _ = writeln!(
            out,
            "without the table the search visits {:.1} times as many nodes",
            st.without_memo.nodes as f64 / st.with_memo.nodes as f64
        );
    }
    out
}

/// `--stats` in `--json`.
pub fn stats_json(st: &Stats) -> serde_json::Value {
    let run = |r: &Run| {
        json!({
            "nodes": r.nodes,
            "seconds": r.seconds,
            "stopped": r.stopped,
        })
    };
    json!({
        "memo_entries": st.memo_entries,
        "memo_bytes": st.memo_bytes,
        "memo_hits": st.memo_hits,
        "hit_rate": st.hit_rate(),
        "with_memo": run(&st.with_memo),
        "without_memo": run(&st.without_memo),
    })
}

#[cfg(test)]
mod thousands_tests {}
