//! The report of an expectiminimax solve (chance, simultaneous moves):
//! as text for people, as JSON for programs.

use std::fmt::Write as _;

use serde_json::json;

use super::solve::number;
use crate::game::Game;
use crate::solve::exact::expectimax::{ChanceSolution, LineEnd, Method, Root, Step};
use crate::solve::exact::simultaneous::Stage;

/// A probability as people read it: `1/3` would be nicer, `0.333` is
/// honest, and a tiny one is not `0.000` (see [`super::probability`]).
fn prob(p: f64) -> String {
    let s = super::probability(p);
    if s.contains(['e', '>']) { s } else { format!("{p:.3}") }
}

/// One step of the principal line.
fn step_text<G: Game>(game: &G, step: &Step<G::Move>) -> String {
    match step {
        Step::Move { mv, .. } => game.move_text(mv),
        Step::Chance { outcome, probability } => {
            format!("{} (chance, {})", game.move_text(outcome), prob(*probability))
        }
        Step::Joint { moves, .. } => {
            let each: Vec<String> = moves
                .iter()
                .enumerate()
                .map(|(p, m)| format!("{} {}", game.player_name(p), game.move_text(m)))
                .collect();
            format!("[{}]", each.join(", "))
        }
    }
}

fn line_text<G: Game>(game: &G, s: &ChanceSolution<G::Move>) -> String {
    if s.line.is_empty() {
        return "(none: the game is over)".into();
    }
    let steps: Vec<String> = s.line.iter().map(|st| step_text(game, st)).collect();
    let end = match s.line_end {
        LineEnd::Terminal => "",
        LineEnd::Repeats => " ... (back to a position already on the line)",
        LineEnd::Cut => " ... (cut)",
    };
    format!("{}{end}", steps.join(" "))
}

/// Each player's mixed strategy at a simultaneous node.
fn strategies<G: Game>(game: &G, stage: &Stage<G::Move>) -> Vec<String> {
    stage
        .support()
        .iter()
        .enumerate()
        .map(|(p, moves)| {
            let each: Vec<String> = moves
                .iter()
                .map(|(m, q)| format!("{} {}", game.move_text(m), prob(*q)))
                .collect();
            format!("{}: {}", game.player_name(p), each.join(", "))
        })
        .collect()
}

fn method_text<M>(s: &ChanceSolution<M>) -> String {
    let mut text = "expectiminimax with a memo table".to_string();
    if s.stages > 0 {
        text.push_str(", simultaneous moves as matrix games solved by linear programming");
    }
    if let Method::ValueIteration {
        cycles,
        sweeps,
        residual,
    } = s.method
    {
        let _ = write!(
            text,
            "; positions recur, so by value iteration, one cycle of positions after another \
             ({cycles} cycles, at most {sweeps} sweeps each, last change {residual:.1e})"
        );
    }
    text
}

/// The text report; `header` holds the game, position and player to move lines.
pub fn text<G: Game>(game: &G, header: &str, s: &ChanceSolution<G::Move>) -> String {
    let mut out = header.to_string();
    let _ = writeln!(
        out,
        "value       {} (for {}{}: the expected utility under optimal play)",
        number(s.value),
        game.player_name(0),
        if game.num_players() == 2 {
            ", the first player"
        } else {
            ""
        }
    );
    // One player: the value is all there is to say.
    if game.num_players() == 2 {
        let outcome = if s.value > 0.0 {
            format!("{} is favoured", game.player_name(0))
        } else if s.value < 0.0 {
            format!("{} is favoured", game.player_name(1))
        } else {
            "even".to_string()
        };
        let _ = writeln!(out, "outcome     {outcome}");
    }
    match &s.root {
        Root::Simultaneous(stage) => {
            for (i, line) in strategies(game, stage).into_iter().enumerate() {
                let _ = writeln!(out, "{}{line}", if i == 0 { "strategies  " } else { "            " });
            }
        }
        Root::Chance { .. } => {
            let _ = writeln!(out, "best moves  (none: chance moves here)");
        }
        _ => {
            let best: Vec<String> = s.best_moves().iter().map(|m| game.move_text(m)).collect();
            let best = if best.is_empty() {
                "(none: the game is over)".to_string()
            } else {
                best.join(", ")
            };
            let _ = writeln!(out, "best moves  {best}");
        }
    }
    let _ = writeln!(out, "line        {}", line_text(game, s));
    if s.line.iter().any(|st| !matches!(st, Step::Move { .. })) {
        let _ = writeln!(
            out,
            "            (chance: the most likely outcome, the first of equally likely ones; \
             simultaneous: each player's most likely move)"
        );
    }
    let _ = writeln!(out, "nodes       {}", s.nodes);
    let _ = writeln!(out, "states      {}", s.states);
    if s.stages > 0 {
        let _ = writeln!(out, "stages      {} matrix games", s.stages);
    }
    let _ = writeln!(out, "search      {}", method_text(s));
    let _ = writeln!(out, "time        {:.3} s", s.seconds);
    out
}

/// `--explain`: every choice at the root with its value.
pub fn explain_text<G: Game>(game: &G, s: &ChanceSolution<G::Move>) -> String {
    let mut out = String::new();
    match &s.root {
        Root::Terminal => out.push_str("the game is over: there is nothing to explain\n"),
        Root::Player { moves, best, .. } => {
            let _ = writeln!(out, "move values (for {}):", game.player_name(0));
            for m in moves {
                let mark = if best.contains(&m.mv) { "  best" } else { "" };
                let _ = writeln!(out, "  {:<12} {}{mark}", game.move_text(&m.mv), number(m.value));
            }
        }
        Root::Chance { outcomes } => {
            let _ = writeln!(out, "chance outcomes (probability, value for {}):", game.player_name(0));
            for o in outcomes {
                let _ = writeln!(
                    out,
                    "  {:<12} {}  {}",
                    game.move_text(&o.mv),
                    prob(o.probability.unwrap_or(0.0)),
                    number(o.value)
                );
            }
        }
        Root::Simultaneous(stage) => {
            let _ = writeln!(
                out,
                "the matrix game ({} chooses a row, {} a column; values for {}):",
                game.player_name(0),
                game.player_name(1),
                game.player_name(0)
            );
            let cols: Vec<String> = stage
                .col_moves
                .iter()
                .map(|m| format!("{:>8}", game.move_text(m)))
                .collect();
            let _ = writeln!(out, "  {:<8}{}", "", cols.join(""));
            for (i, m) in stage.row_moves.iter().enumerate() {
                let cells: Vec<String> = (0..stage.col_moves.len())
                    .map(|j| format!("{:>8}", number(stage.payoff.at(i, j))))
                    .collect();
                let _ = writeln!(out, "  {:<8}{}", game.move_text(m), cells.join(""));
            }
        }
    }
    out
}

pub fn json<G: Game>(game: &G, s: &ChanceSolution<G::Move>, explain: bool) -> serde_json::Value {
    let step = |st: &Step<G::Move>| match st {
        Step::Move { player, mv } => json!({"player": game.player_name(*player), "move": game.move_text(mv)}),
        Step::Chance { outcome, probability } => {
            json!({"chance": game.move_text(outcome), "probability": probability})
        }
        Step::Joint { moves, probabilities } => json!({
            "moves": moves.iter().map(|m| game.move_text(m)).collect::<Vec<_>>(),
            "probabilities": probabilities,
        }),
    };
    let mut v = json!({
        "game": game.name(),
        "algorithm": "expectiminimax",
        "value": s.value,
        "best_moves": s.best_moves().iter().map(|m| game.move_text(m)).collect::<Vec<_>>(),
        "line": s.line.iter().map(step).collect::<Vec<_>>(),
        "line_end": format!("{:?}", s.line_end).to_lowercase(),
        "nodes": s.nodes,
        "states": s.states,
        "stages": s.stages,
        "value_iteration": matches!(s.method, Method::ValueIteration { .. }),
        "seconds": s.seconds,
    });
    if let Root::Simultaneous(stage) = &s.root {
        // Each player's own optimal moves (those its mixed strategy plays),
        // by name: one list of both would not say whose each move is.
        v["best_moves"] = stage
            .support()
            .iter()
            .enumerate()
            .map(|(p, moves)| {
                let names: Vec<String> = moves.iter().map(|(m, _)| game.move_text(m)).collect();
                (game.player_name(p).to_string(), json!(names))
            })
            .collect::<serde_json::Map<_, _>>()
            .into();
        let strategy = |moves: &[G::Move], probs: &[f64]| -> serde_json::Map<String, serde_json::Value> {
            moves
                .iter()
                .zip(probs)
                .map(|(m, p)| (game.move_text(m), json!(p)))
                .collect()
        };
        v["strategies"] = json!([
            strategy(&stage.row_moves, &stage.solution.row),
            strategy(&stage.col_moves, &stage.solution.col),
        ]);
    }
    if explain {
        v["explain"] = match &s.root {
            Root::Player { moves, .. } | Root::Chance { outcomes: moves } => moves
                .iter()
                .map(|m| json!({"move": game.move_text(&m.mv), "value": m.value, "probability": m.probability}))
                .collect(),
            Root::Simultaneous(stage) => json!({
                "rows": stage.row_moves.iter().map(|m| game.move_text(m)).collect::<Vec<_>>(),
                "columns": stage.col_moves.iter().map(|m| game.move_text(m)).collect::<Vec<_>>(),
                "payoff": (0..stage.row_moves.len())
                    .map(|i| (0..stage.col_moves.len()).map(|j| stage.payoff.at(i, j)).collect::<Vec<_>>())
                    .collect::<Vec<_>>(),
            }),
            Root::Terminal => json!([]),
        };
    }
    v
}
