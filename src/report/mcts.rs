//! The report of `gdl solve --mcts N`: what Monte Carlo tree search found at
//! the root, move by move, the way chess engines report a search; as text
//! for people and as JSON for programs (docs/json-schema/mcts.json).

use std::fmt::Write as _;

use serde_json::json;

use super::solve::{number, thousands, winner_text};
use crate::game::Game;
use crate::solve::agents::mcts::{Backup, MctsResult, RootMove};

/// What was asked and how it went, besides the result.
pub struct Header<'a> {
    pub game: &'a str,
    pub params: &'a [(String, String)],
    pub position: String,
    pub to_move: String,
    /// Who chooses at the root: a player's name, or `all players at once`.
    pub mover: String,
    /// Whether all players move at once at the root (its lines start with
    /// the joint move).
    pub simultaneous: bool,
    /// Chance's moves drawn before the position, if it started with chance.
    pub drawn: Vec<String>,
    pub exploration: f64,
    pub cutoff: Option<usize>,
    /// What each simulation backed up.
    pub backup: Backup,
    pub threads: usize,
    pub seed: u64,
    pub seconds: f64,
    /// Why the search stopped: `proven`, `simulations`, `time`.
    pub stopped: &'static str,
}

/// What `stopped` means, in words.
fn stopped_text(stopped: &str) -> &'static str {
    match stopped {
        "proven" => "the value was proven",
        "time" => "the time limit",
        _ => "the simulations asked for",
    }
}

/// Player 0's value after a move as the bounds tell it: proven, one side
/// known, or nothing.
fn bound_text<M>(m: &RootMove<M>, range: (f64, f64)) -> String {
    if let Some(v) = m.proven() {
        number(v)
    } else if m.lo > range.0 && m.lo.is_finite() {
        format!(">= {}", number(m.lo))
    } else if m.hi < range.1 && m.hi.is_finite() {
        format!("<= {}", number(m.hi))
    } else {
        "-".to_string()
    }
}

/// The moves in the order the report lists them: most visited first, then
/// the game's order.
fn order<M>(r: &MctsResult<M>) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..r.moves.len()).collect();
    idx.sort_by(|&a, &b| r.moves[b].visits.cmp(&r.moves[a].visits).then(a.cmp(&b)));
    idx
}

/// The report as text; `best` is the index of the move the search would play.
pub fn text<G: Game>(game: &G, h: &Header, r: &MctsResult<G::Move>, best: usize, range: (f64, f64)) -> String {
    let mut out = String::new();
    let params: Vec<String> = h.params.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    if params.is_empty() {
        let _ = writeln!(out, "game        {}", h.game);
    } else {
        let _ = writeln!(out, "game        {} ({})", h.game, params.join(", "));
    }
    if !h.drawn.is_empty() {
        let _ = writeln!(out, "drawn       {} (chance, with the seed)", h.drawn.join(" "));
    }
    let _ = writeln!(out, "position    {}", h.position);
    let _ = writeln!(out, "to move     {}", h.to_move);
    let b = &r.moves[best];
    match r.proven() {
        Some(v) => {
            let _ = writeln!(
                out,
                "value       {} (for {}, the first player), proven",
                number(v),
                game.player_name(0)
            );
            let _ = writeln!(out, "outcome     {} under optimal play", winner_text(game, v));
        }
        None => {
            let _ = writeln!(
                out,
                "value       {:.3} ({}'s mean return after the best move; NOT PROVEN)",
                b.mean(),
                h.mover
            );
        }
    }
    let _ = writeln!(out, "best move   {}", game.move_text(&b.mv));
    if h.simultaneous && !b.line.is_empty() {
        // The line starts with the joint move, the best move in it.
        let _ = writeln!(out, "line        {}", b.line.join(" "));
    } else if !b.line.is_empty() {
        let _ = writeln!(out, "line        {} {}", game.move_text(&b.mv), b.line.join(" "));
    }
    let _ = writeln!(
        out,
        "simulations {} (stopped: {})",
        thousands(r.simulations),
        stopped_text(h.stopped)
    );
    let _ = writeln!(
        out,
        "tree        {} nodes{}",
        thousands(r.nodes as u64),
        if r.full { ", full: it stopped growing" } else { "" }
    );
    let playouts = match h.cutoff {
        Some(c) => format!("random playouts scored by `evaluate` after {c} moves"),
        None => "random playouts".to_string(),
    };
    let backed = match h.backup {
        Backup::Returns => "",
        Backup::Outcome => ", outcomes backed up (+1 a win, 0 a draw, -1 a loss)",
        Backup::Score => ", own scores backed up (returns where the game has no scores)",
    };
    let _ = writeln!(
        out,
        "search      Monte Carlo tree search: UCT (exploration {}), {playouts}{backed}{}, {} thread{}, seed {}",
        number(h.exploration),
        if r.solving { ", MCTS-Solver" } else { "" },
        h.threads,
        if h.threads == 1 { "" } else { "s" },
        h.seed
    );
    let rate = if h.seconds > 0.0 {
        r.simulations as f64 / h.seconds
    } else {
        0.0
    };
    let _ = writeln!(
        out,
        "time        {:.3} s ({} simulations/s)",
        h.seconds,
        thousands(rate as u64)
    );
    let _ = writeln!(out);
    let rows: Vec<[String; 5]> = order(r)
        .into_iter()
        .map(|i| {
            let m = &r.moves[i];
            [
                game.move_text(&m.mv),
                thousands(m.visits),
                format!("{:.3}", m.mean()),
                bound_text(m, range),
                format!("{}{}", m.line.join(" "), if i == best { "  best" } else { "" }),
            ]
        })
        .collect();
    let heads = [
        "move".to_string(),
        "visits".to_string(),
        format!("mean {}", h.mover),
        "proven".to_string(),
        "line after the move".to_string(),
    ];
    let widths: Vec<usize> = (0..4)
        .map(|c| {
            rows.iter()
                .map(|r| r[c].chars().count())
                .chain([heads[c].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut row = |cells: &[String; 5]| {
        let _ = writeln!(
            out,
            "{:<w0$}  {:>w1$}  {:>w2$}  {:>w3$}  {}",
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            cells[4],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3]
        );
    };
    row(&heads);
    for cells in &rows {
        row(cells);
    }
    out.lines().map(str::trim_end).collect::<Vec<_>>().join("\n") + "\n"
}

/// The report as JSON (docs/json-schema/mcts.json).
pub fn json<G: Game>(game: &G, h: &Header, r: &MctsResult<G::Move>, best: usize) -> serde_json::Value {
    let finite = |x: f64| if x.is_finite() { json!(x) } else { json!(null) };
    let moves: Vec<serde_json::Value> = order(r)
        .into_iter()
        .map(|i| {
            let m = &r.moves[i];
            json!({
                "move": game.move_text(&m.mv),
                "visits": m.visits,
                "mean": m.mean(),
                "proven": m.proven(),
                "lower": finite(m.lo),
                "upper": finite(m.hi),
                "line": m.line,
                "best": i == best,
            })
        })
        .collect();
    let params: serde_json::Map<String, serde_json::Value> =
        h.params.iter().map(|(n, v)| (n.clone(), json!(v))).collect();
    json!({
        "game": h.game,
        "params": params,
        "drawn": h.drawn,
        "position": h.position,
        "to_move": h.to_move,
        "value": r.proven(),
        "proven": r.proven().is_some(),
        "best_move": game.move_text(&r.moves[best].mv),
        "simulations": r.simulations,
        "nodes": r.nodes,
        "full": r.full,
        "stopped": h.stopped,
        "solver": r.solving,
        "exploration": h.exploration,
        "cutoff": h.cutoff,
        "backup": h.backup.name(),
        "threads": h.threads,
        "seed": h.seed,
        "seconds": h.seconds,
        "moves": moves,
    })
}
