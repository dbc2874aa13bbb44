//! What the `--json` outputs share (docs/json-schema/): a finished game's
//! outcome, and printing one object.

use serde_json::{Value, json};

use crate::game::{Game, GameError, Player};
use crate::report::play::{outcome_text_after, settled};

/// Whether the first of two scores is the better.
type Better = fn(f64, f64) -> bool;

/// How a game ended: each player's utility (and points, for a game with
/// scores), the winners, and the sentence `trace` prints.
pub fn outcome<G: Game>(game: &G, state: &G::State) -> Result<Value, GameError> {
    outcome_after(game, state, &[])
}

/// [`outcome`] of a game that the players in `forfeited` forfeited: they
/// come last, as in `match` (see [`settled`]).
pub fn outcome_after<G: Game>(game: &G, state: &G::State, forfeited: &[Player]) -> Result<Value, GameError> {
    let n = game.num_players();
    let by_player = |values: &[f64]| -> serde_json::Map<String, Value> {
        (0..n)
            .map(|p| (game.player_name(p).to_string(), json!(values[p])))
            .collect()
    };
    let (returns, scores) = settled(game, state, forfeited)?;
    // Who won, as `outcome_text` decides it: by points if the game keeps
    // them, else by utility; everyone best is a draw, and no winner.
    let (decisive, better): (&[f64], Better) = match &scores {
        Some(s) if game.lowest_score_wins() => (s, |a, b| a < b),
        Some(s) => (s, |a, b| a > b),
        None => (&returns, |a, b| a > b),
    };
    let best = decisive[1..]
        .iter()
        .fold(decisive[0], |b, &s| if better(s, b) { s } else { b });
    let mut winners: Vec<&str> = (0..n)
        .filter(|&p| decisive[p] == best)
        .map(|p| game.player_name(p))
        .collect();
    if winners.len() == n {
        winners.clear();
    }
    let points = scores.as_deref().map(by_player);
    let text = outcome_text_after(game, state, forfeited)?;
    Ok(json!({
        "utilities": by_player(&returns),
        "points": points,
        "winners": winners,
        "text": text,
    }))
}

/// One JSON document, pretty-printed, with a final line break.
pub fn document(value: &Value) -> String {
    format!("{}\n", serde_json::to_string_pretty(value).unwrap_or_default())
}
