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
            let _ = writeln!(s, "            {} legal moves: {}{more}", moves.len(), shown.join(", "));
        }
    }
    let _ = writeln!(s, "state size  {} cells", prog.cell_count);
    Ok(s)
}
