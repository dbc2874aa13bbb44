//! `gdl solve --depth D`, and what `gdl solve` says when the exact search
//! stops at a limit: a depth-limited alpha-beta with the game's evaluation
//! (`src/solve/agents/depth_limited.rs`), reported so that what is proven and what
//! is guessed are told apart.

use std::time::Instant;

use crate::game::Game;
use crate::report::solve::thousands;
use crate::runtime::{Interpreted, State};
use crate::solve::SolveError;
use crate::solve::agents::depth_limited::{self, DepthOptions, DepthResult};

/// Runs the depth-limited search within `opts` (whatever is left of the
/// limits) and reports it.
pub(in crate::cli) fn search_and_report(
    game: &Interpreted,
    root: &State,
    opts: &DepthOptions,
) -> Result<String, SolveError> {
    let started = Instant::now();
    let found = depth_limited::search(game, root, opts)?;
    Ok(report(game, &found, started.elapsed().as_secs_f64()))
}

/// `gdl solve --depth D --json`: the depth-limited search as one object
/// (docs/json-schema/solve.json), what it proved kept apart from what it
/// guessed, as the text report does.
pub(in crate::cli) fn search_json(
    game: &Interpreted,
    root: &State,
    opts: &DepthOptions,
) -> Result<serde_json::Value, SolveError> {
    use serde_json::json;
    let started = Instant::now();
    let r = depth_limited::search(game, root, opts)?;
    let seconds = started.elapsed().as_secs_f64();
    let position = game.position(root);
    let (state, turn) = position.rsplit_once("; ").unwrap_or((&position, ""));
    let params: serde_json::Map<String, serde_json::Value> = game
        .program()
        .params
        .iter()
        .map(|(n, v)| (n.clone(), json!(v)))
        .collect();
    let moves = |ms: &[crate::runtime::Move]| ms.iter().map(|m| game.move_text(m)).collect::<Vec<_>>();
    Ok(json!({
        "game": game.name(),
        "params": params,
        "position": state,
        "to_move": turn.trim_end_matches(" to move"),
        "value": r.value,
        "proven": r.proven,
        "best_moves": moves(&r.best_moves),
        "depth": r.depth,
        "stopped": r.stopped,
        "moves": r.moves.iter().map(|m| json!({
            "move": game.move_text(&m.mv),
            "value": m.value,
            "proven": m.proven,
        })).collect::<Vec<_>>(),
        "nodes": r.nodes,
        "evaluations": r.evaluations,
        "evaluate": r.has_evaluation,
        "search": "alpha-beta to a depth limit, iterative deepening, a transposition table",
        "seconds": seconds,
    }))
}

/// `v` for player 0 as words: who it favours, when it is a win or a loss.
fn outcome(game: &Interpreted, v: f64) -> String {
    let range = game.utility_range();
    let shown = number(v);
    match range {
        Some((_, hi)) if v == hi && hi > 0.0 => format!("{shown} ({} wins)", game.player_name(0)),
        Some((lo, _)) if v == lo && lo < 0.0 => format!("{shown} ({} wins)", game.player_name(1)),
        _ if v == 0.0 && range.is_some() => format!("{shown} (a draw)"),
        _ => shown,
    }
}

/// A proven value in words.
fn verdict(game: &Interpreted, v: f64) -> String {
    match game.utility_range() {
        Some((_, hi)) if v == hi && hi > 0.0 => format!("{} wins", game.player_name(0)),
        Some((lo, _)) if v == lo && lo < 0.0 => format!("{} wins", game.player_name(1)),
        _ if v == 0.0 => "a draw".into(),
        _ if v > 0.0 => format!("{} is ahead", game.player_name(0)),
        _ => format!("{} is ahead", game.player_name(1)),
    }
}

fn number(v: f64) -> String {
    let t = format!("{v:.3}");
    let t = t.trim_end_matches('0').trim_end_matches('.');
    if t == "-0" { "0".into() } else { t.into() }
}

/// The report of a depth-limited search.
pub(in crate::cli) fn report(game: &Interpreted, r: &DepthResult<crate::runtime::Move>, seconds: f64) -> String {
    let mut out = String::new();
    let first = game.player_name(0);
    let plies = |d: usize| format!("{d} move{}", if d == 1 { "" } else { "s" });
    if r.depth == 0 && !r.proven {
        out.push_str(&format!(
            "depth       the search did not complete depth 1 within the limits ({} nodes)\n",
            thousands(r.nodes)
        ));
        return out;
    }
    let why = match r.stopped {
        Some("time") => "; the next stopped at the time limit",
        Some("nodes") => "; the next stopped at the node limit",
        Some("depth") => "; the depth asked for",
        _ => "",
    };
    if r.proven {
        out.push_str(&format!("value       {} (for {first}, proven)\n", number(r.value)));
        out.push_str(&format!("outcome     {}\n", verdict(game, r.value)));
    } else {
        out.push_str(&format!(
            "value       {} (for {first}: the evaluation's best guess, NOT PROVEN)\n",
            number(r.value)
        ));
    }
    let best: Vec<String> = r.best_moves.iter().map(|m| game.move_text(m)).collect();
    out.push_str(&format!("best moves  {}\n", best.join(", ")));
    out.push_str(&format!(
        "depth       {}, the last depth completed{why}\n",
        plies(r.depth)
    ));
    if !r.proven {
        let proven: Vec<String> = r
            .moves
            .iter()
            .filter(|m| m.proven)
            .map(|m| format!("{} {}", game.move_text(&m.mv), outcome(game, m.value)))
            .collect();
        out.push_str(&format!(
            "proven      {}\n",
            if proven.is_empty() {
                "no move yet".to_string()
            } else {
                proven.join(", ")
            }
        ));
        // Moves with the same estimate together, the first player's best first.
        let mut values: Vec<f64> = r.moves.iter().filter(|m| !m.proven).map(|m| m.value).collect();
        values.sort_by(|a, b| b.total_cmp(a));
        values.dedup();
        let guessed: Vec<String> = values
            .iter()
            .map(|&v| {
                let moves: Vec<String> = r
                    .moves
                    .iter()
                    .filter(|m| !m.proven && m.value == v)
                    .map(|m| game.move_text(&m.mv))
                    .collect();
                format!("{}: {}", number(v), moves.join(", "))
            })
            .collect();
        out.push_str(&format!("guessed     {}\n", guessed.join("; ")));
    }
    out.push_str(&format!(
        "search      alpha-beta to a depth limit, iterative deepening, a transposition table; {}\n",
        if r.has_evaluation {
            "positions at the limit scored by the game's `evaluate`"
        } else {
            "the game has no `evaluate`, so positions at the limit scored 0"
        }
    ));
    out.push_str(&format!(
        "nodes       {} ({} positions evaluated)\n",
        thousands(r.nodes),
        thousands(r.evaluations)
    ));
    out.push_str(&format!("time        {seconds:.3} s\n"));
    out
}
