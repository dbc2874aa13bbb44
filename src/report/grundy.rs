//! The report of `gdl solve --grundy`.

use std::fmt::Write as _;

use serde_json::json;

use crate::game::Game;
use crate::solve::exact::grundy::GrundySolution;

pub fn text<G: Game>(game: &G, header: &str, s: &GrundySolution<G::Move>) -> String {
    let mut out = header.to_string();
    let _ = writeln!(out, "grundy      {}", s.value);
    let _ = writeln!(
        out,
        "outcome     {}",
        if s.moves.is_empty() {
            "the game is over: the player to move has lost".to_string()
        } else if s.value == 0 {
            "the player to move loses under optimal play".to_string()
        } else {
            "the player to move wins under optimal play".to_string()
        }
    );
    let winning: Vec<String> = s.winning_moves().iter().map(|m| game.move_text(m)).collect();
    let _ = writeln!(
        out,
        "best moves  {}",
        if winning.is_empty() {
            "(none wins: every move leads to a position of value > 0)".to_string()
        } else {
            format!("{} (to value 0)", winning.join(", "))
        }
    );
    let options: Vec<String> = s
        .moves
        .iter()
        .map(|(m, g)| format!("{} → {g}", game.move_text(m)))
        .collect();
    if !options.is_empty() {
        let _ = writeln!(out, "options     {}", options.join(", "));
    }
    let _ = writeln!(out, "positions   {}", s.positions);
    let _ = writeln!(
        out,
        "impartial   checked on {} positions reached with either player to move",
        s.checked_both_ways
    );
    let _ = writeln!(
        out,
        "search      Sprague-Grundy values (mex of the options), memo by position"
    );
    let _ = writeln!(out, "time        {:.3} s", s.seconds);
    out
}

pub fn json<G: Game>(game: &G, s: &GrundySolution<G::Move>) -> serde_json::Value {
    json!({
        "game": game.name(),
        "algorithm": "sprague-grundy",
        "grundy": s.value,
        "to_move_wins": s.value != 0,
        "best_moves": s.winning_moves().iter().map(|m| game.move_text(m)).collect::<Vec<_>>(),
        "options": s.moves.iter().map(|(m, g)| json!({"move": game.move_text(m), "grundy": g})).collect::<Vec<_>>(),
        "positions": s.positions,
        "checked_both_ways": s.checked_both_ways,
        "seconds": s.seconds,
    })
}
