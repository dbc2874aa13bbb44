//! The report of a CFR+ solve: the value and exploitability of the average
//! strategy, and the strategy itself where it is short enough to read.

use std::fmt::Write as _;

use serde_json::json;

use super::solve::number;
use crate::game::Game;
use crate::solve::learn::best_response::Exploitability;
use crate::solve::learn::infotree::{InfoTree, Strategy};

/// Information sets printed in full; a longer strategy goes to a file.
pub const SHOWN: usize = 24;

/// What a CFR run did.
pub struct CfrRun {
    pub iterations: u64,
    pub seconds: f64,
    /// Whether it stopped at the time limit before all its iterations.
    pub stopped_early: bool,
}

/// An information set as one line: the player, its own moves so far, what
/// it sees now.
fn infoset_text<G: Game>(game: &G, player: usize, history: &[String]) -> String {
    let own: Vec<&str> = history.iter().skip(1).step_by(2).map(String::as_str).collect();
    let seen = history.last().map_or("", String::as_str);
    if own.is_empty() {
        format!("{} sees {seen}", game.player_name(player))
    } else {
        format!("{} after {} sees {seen}", game.player_name(player), own.join(", "))
    }
}

pub fn text<G: Game>(
    game: &G,
    header: &str,
    tree: &InfoTree<G::Move>,
    strategy: &Strategy,
    e: &Exploitability,
    run: &CfrRun,
) -> String {
    let mut out = header.to_string();
    let _ = writeln!(
        out,
        "value       {} (for {}, the first player: the average strategy's expected utility)",
        number(e.value),
        game.player_name(0)
    );
    let _ = writeln!(
        out,
        "exploitable {:.6} (half the gain of the two best responses; 0 at an equilibrium)",
        e.exploitability
    );
    let _ = writeln!(
        out,
        "bounds      the game's value lies in [{}, {}]",
        number(-e.best_responses[1] + 2.0 * tree_shift(e)),
        number(e.best_responses[0])
    );
    let _ = writeln!(
        out,
        "iterations  {}{}",
        run.iterations,
        if run.stopped_early {
            " (stopped at the time limit)"
        } else {
            ""
        }
    );
    let _ = writeln!(
        out,
        "tree        {} nodes, {} information sets ({} for {}, {} for {})",
        tree.len(),
        tree.infosets.len(),
        tree.infosets.iter().filter(|s| s.player == 0).count(),
        game.player_name(0),
        tree.infosets.iter().filter(|s| s.player == 1).count(),
        game.player_name(1)
    );
    let _ = writeln!(
        out,
        "search      CFR+ over the whole tree; iterative: more --iterations bring the average strategy closer to an equilibrium"
    );
    let _ = writeln!(out, "time        {:.3} s", run.seconds);
    let _ = writeln!(out);
    let _ = writeln!(out, "strategy (the average; moves with probability 0 left out):");
    for set in tree.infosets.iter().take(SHOWN) {
        let probs: Vec<String> = set
            .moves
            .iter()
            .zip(strategy.of(set))
            .filter(|(_, p)| **p > 0.0005)
            .map(|(m, p)| format!("{} {p:.3}", game.move_text(m)))
            .collect();
        let _ = writeln!(
            out,
            "  {}: {}",
            infoset_text(game, set.player, &set.history),
            probs.join(", ")
        );
    }
    if tree.infosets.len() > SHOWN {
        let _ = writeln!(
            out,
            "  ... and {} more information sets: `gdl train --algorithm cfr --out FILE` saves them all",
            tree.infosets.len() - SHOWN
        );
    }
    out
}

/// Half the constant sum of the returns, for the bound on player 1's side.
fn tree_shift(e: &Exploitability) -> f64 {
    // best_responses[0] + best_responses[1] = nash_conv + 2 × shift.
    (e.best_responses[0] + e.best_responses[1] - e.nash_conv) / 2.0
}

pub fn json<G: Game>(
    game: &G,
    tree: &InfoTree<G::Move>,
    strategy: &Strategy,
    e: &Exploitability,
    run: &CfrRun,
) -> serde_json::Value {
    json!({
        "game": game.name(),
        "algorithm": "cfr+",
        "value": e.value,
        "exploitability": e.exploitability,
        "nash_conv": e.nash_conv,
        "best_responses": e.best_responses,
        "iterations": run.iterations,
        "stopped_early": run.stopped_early,
        "nodes": tree.len(),
        "information_sets": tree.infosets.len(),
        "seconds": run.seconds,
        "strategy": tree.infosets.iter().map(|set| json!({
            "player": game.player_name(set.player),
            "history": set.history,
            "moves": set.moves.iter().zip(strategy.of(set)).map(|(m, p)| (game.move_text(m), json!(p))).collect::<serde_json::Map<_, _>>(),
        })).collect::<Vec<_>>(),
    })
}
