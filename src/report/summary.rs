//! The one-screen summary `gdl check` prints.

use std::fmt::Write as _;

use miette::SourceCode;

use crate::game::{Game, GameError, Turn};
use crate::ir::Layout;
use crate::runtime::Interpreted;

fn layout_text(l: &Layout) -> String {
    match l {
        Layout::Int => "int".into(),
        Layout::Bool => "bool".into(),
        Layout::Player => "player".into(),
        Layout::Set { lo, hi } => format!("set<{lo}..{hi}>"),
        Layout::List { elem, cap } => format!("list<{}, {cap}>", layout_text(elem)),
    }
}

/// The first line of a declaration, as written in the file.
fn first_line(game: &Interpreted, start: usize, end: usize) -> String {
    let source = &game.program().source;
    let text = source
        .read_span(&(start, end - start).into(), 0, 0)
        .ok()
        .and_then(|c| String::from_utf8(c.data().to_vec()).ok())
        .unwrap_or_default();
    let line = text.lines().next().unwrap_or("").trim();
    line.trim_end_matches('{').trim().to_string()
}

pub fn render(game: &Interpreted) -> Result<String, GameError> {
    let prog = game.program();
    let mut s = String::new();
    let _ = writeln!(s, "game        {}", prog.name);
    let _ = writeln!(
        s,
        "players     {} (in turn order; {} moves first)",
        prog.players.join(", "),
        prog.players.first().map_or("?", String::as_str)
    );
    if prog.params.is_empty() {
        let _ = writeln!(s, "parameters  none");
    }
    for (i, (name, value)) in prog.params.iter().enumerate() {
        let head = if i == 0 { "parameters" } else { "" };
        let _ = writeln!(s, "{head:<11} --{name} {value}");
    }
    for (i, v) in prog.vars.iter().enumerate() {
        let head = if i == 0 { "state" } else { "" };
        let _ = writeln!(s, "{head:<11} {}: {}", v.name, layout_text(&v.layout));
    }
    for (i, inv) in prog.invariants.iter().enumerate() {
        let head = if i == 0 { "invariants" } else { "" };
        let shown = match &inv.label {
            Some(label) => format!("\"{label}\""),
            None => first_line(game, inv.span.start, inv.span.end),
        };
        let _ = writeln!(s, "{head:<11} {shown}");
    }
    for (i, m) in prog.moves.iter().enumerate() {
        let head = if i == 0 { "moves" } else { "" };
        let _ = writeln!(s, "{head:<11} {}", first_line(game, m.span.start, m.span.end));
    }
    for (i, e) in prog.ends.iter().enumerate() {
        let head = if i == 0 { "ends" } else { "" };
        let _ = writeln!(s, "{head:<11} {}", first_line(game, e.span.start, e.span.end));
    }
    let start = game.initial_state()?;
    let _ = writeln!(s, "start       {}", game.position(&start));
    // The display, drawn, so that its author sees it at once.
    if let Some(board) = game.board(&start)? {
        for line in board.text().lines() {
            let _ = writeln!(s, "{}", format!("            {line}").trim_end());
        }
    }
    match game.turn(&start)? {
        Turn::Terminal => {
            let _ = writeln!(s, "            (the game is over before it starts)");
        }
        Turn::Chance => {
            let _ = writeln!(s, "            chance moves first");
        }
        Turn::Simultaneous | Turn::Player(_) => {
            let mut moves = Vec::new();
            game.legal_moves_of(&start, 0, &mut moves)?;
            let shown: Vec<String> = moves.iter().take(12).map(|m| game.move_text(m)).collect();
            let more = if moves.len() > 12 { ", ..." } else { "" };
            let noun = if moves.len() == 1 { "legal move" } else { "legal moves" };
            let _ = writeln!(s, "            {} {noun}: {}{more}", moves.len(), shown.join(", "));
        }
    }
    let _ = writeln!(s, "state size  {} cells", prog.cell_count);
    Ok(s)
}

/// `gdl check --json`: the summary as one object (docs/json-schema/check.json).
pub fn json(game: &Interpreted) -> Result<serde_json::Value, GameError> {
    use serde_json::json;
    let prog = game.program();
    let start = game.initial_state()?;
    let (turn, legal) = match game.turn(&start)? {
        Turn::Terminal => ("over", Vec::new()),
        Turn::Chance => ("chance", Vec::new()),
        t @ (Turn::Simultaneous | Turn::Player(_)) => {
            let mut moves = Vec::new();
            game.legal_moves_of(&start, 0, &mut moves)?;
            let kind = if t == Turn::Simultaneous {
                "simultaneous"
            } else {
                "player"
            };
            (kind, moves.iter().map(|m| game.move_text(m)).collect())
        }
    };
    let params: serde_json::Map<String, serde_json::Value> =
        prog.params.iter().map(|(n, v)| (n.clone(), json!(v))).collect();
    Ok(json!({
        "game": prog.name,
        "players": prog.players,
        "params": params,
        "state": prog.vars.iter().map(|v| json!({"name": v.name, "type": layout_text(&v.layout)})).collect::<Vec<_>>(),
        "moves": prog.moves.iter().map(|m| first_line(game, m.span.start, m.span.end)).collect::<Vec<_>>(),
        "ends": prog.ends.iter().map(|e| first_line(game, e.span.start, e.span.end)).collect::<Vec<_>>(),
        "start": game.position(&start),
        "start_turn": turn,
        "legal_moves": legal,
        "has_chance": prog.has_chance,
        "has_simultaneous": prog.has_simultaneous,
        "state_cells": prog.cell_count,
    }))
}
