//! `gdl solve` for one-player games: the best payoff the player can reach,
//! every first move of a shortest line to it, and that line.

use std::time::{Duration, Instant};

use crate::cli::kit::context::{Context, Failure, stdout_failed};
use crate::game::Game;
use crate::report;
use crate::runtime::{Interpreted, State};
use crate::solve::exact::puzzle::{self, PuzzleOptions, PuzzleSolution};

/// What `gdl solve` prints: JSON or text, with every root move (`explain`).
pub struct Output {
    pub json: bool,
    pub explain: bool,
}

pub fn run(
    game: &Interpreted,
    root: &State,
    opts: &PuzzleOptions,
    output: Output,
    ctx: &mut Context,
) -> Result<(), Failure> {
    crate::memory::doing("solving");
    let started = Instant::now();
    let solution = puzzle::solve(game, root, opts).map_err(|e| Failure::of(&e, ctx.color))?;
    let took = started.elapsed();
    let io = stdout_failed;
    if output.json {
        let value = json(game, root, &solution, took);
        writeln!(ctx.out, "{}", serde_json::to_string_pretty(&value).unwrap_or_default()).map_err(io)?;
    } else {
        write!(ctx.out, "{}", text(game, root, &solution, output.explain, took)).map_err(io)?;
    }
    Ok(())
}

fn moves_text(game: &Interpreted, moves: &[crate::runtime::Move]) -> String {
    moves.iter().map(|m| game.move_text(m)).collect::<Vec<_>>().join(" ")
}

fn text(
    game: &Interpreted,
    root: &State,
    s: &PuzzleSolution<crate::runtime::Move>,
    explain: bool,
    took: Duration,
) -> String {
    let mut out = super::kinds::header(game, root);
    match s.value {
        None => out.push_str("value       none: no end of the game can be reached from here\n"),
        Some(v) => {
            out.push_str(&format!(
                "value       {v} (the best payoff {} can reach)\n",
                game.player_name(0)
            ));
            let best: Vec<String> = s.best_moves.iter().map(|m| game.move_text(m)).collect();
            if !best.is_empty() {
                out.push_str(&format!("best moves  {}\n", best.join(", ")));
            }
            out.push_str(&format!("line        {}\n", moves_text(game, &s.line)));
            out.push_str(&format!(
                "length      {} moves (the fewest that reach it)\n",
                s.line.len()
            ));
        }
    }
    out.push_str(&format!("nodes       {}\n", report::solve::thousands(s.nodes)));
    out.push_str(&format!("states      {}\n", report::solve::thousands(s.states)));
    out.push_str("search      breadth-first over every reachable position, then back from the best ends\n");
    out.push_str(&format!("time        {:.3} s\n", took.as_secs_f64()));
    if explain && !s.moves.is_empty() {
        out.push_str("\nmove        moves after it to the best payoff\n");
        for (m, d) in &s.moves {
            let after = d.map_or("cannot reach it".to_string(), |d| d.to_string());
            out.push_str(&format!("{:<11} {after}\n", game.move_text(m)));
        }
    }
    out
}

fn json(
    game: &Interpreted,
    root: &State,
    s: &PuzzleSolution<crate::runtime::Move>,
    took: Duration,
) -> serde_json::Value {
    let names = |ms: &[crate::runtime::Move]| ms.iter().map(|m| game.move_text(m)).collect::<Vec<_>>();
    let position = game.position(root);
    let (state, to_move) = position.rsplit_once("; ").unwrap_or((&position, ""));
    let params: serde_json::Map<String, serde_json::Value> = game
        .program()
        .params
        .iter()
        .map(|(n, v)| (n.clone(), serde_json::json!(v)))
        .collect();
    serde_json::json!({
        "game": game.name(),
        "params": params,
        "position": state,
        "to_move": to_move.trim_end_matches(" to move"),
        "value": s.value,
        "best_moves": names(&s.best_moves),
        "pv": names(&s.line),
        "length": s.line.len(),
        "moves": s.moves.iter().map(|(m, d)| serde_json::json!({"move": game.move_text(m), "moves_to_best": d})).collect::<Vec<_>>(),
        "nodes": s.nodes,
        "states": s.states,
        "search": "breadth-first",
        "seconds": took.as_secs_f64(),
    })
}
