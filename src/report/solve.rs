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
    pub method: String,
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
    let _ = writeln!(out, "length      {} moves", s.pv.len());
    let _ = writeln!(out, "nodes       {}", s.nodes);
    let _ = writeln!(out, "states      {}", s.states);
    let _ = writeln!(out, "search      {}", h.method);
    let _ = writeln!(out, "time        {:.3} s", s.seconds);
    out
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
        "nodes": s.nodes,
        "states": s.states,
        "memo_entries": s.memo_entries,
        "memo_hits": s.memo_hits,
        "search": h.method,
        "seconds": s.seconds,
    })
}

/// `--explain`: every legal move, its value, and the line that proves it.
pub fn explain_text<G: Game>(game: &G, root_value: f64, moves: &[MoveValue<G::Move>]) -> String {
    let mut out = String::new();
    let width = moves
        .iter()
        .map(|m| game.move_text(&m.mv).len())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(out, "{:<width$}  {:>5}  line after the move", "move", "value");
    for m in moves {
        let mark = if m.value == root_value { "  best" } else { "" };
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
