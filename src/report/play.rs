//! How a game being played reads: the state field by field, and who won.

use crate::game::{Game, GameError, Player, all_returns};
use crate::solve::matches::tournament::forfeit;

/// Fields as `name: value`: on one line when they fit in [`LINE`] characters,
/// else one per line, every line after the first starting with `indent`.
pub fn view_text(fields: &[(String, String)], indent: &str) -> String {
    let each: Vec<String> = fields.iter().map(|(name, value)| format!("{name}: {value}")).collect();
    let line = each.join(", ");
    if line.chars().count() <= LINE {
        line
    } else {
        each.join(&format!("\n{indent}"))
    }
}

/// The longest state shown on one line.
const LINE: usize = 80;

/// The end of a finished game in words: `MAX won the game`; for a game of
/// points each player's points first; a utility other than ±1 is given.
pub fn outcome_text<G: Game>(game: &G, state: &G::State) -> Result<String, GameError> {
    outcome_text_after(game, state, &[])
}

/// Each player's utility and points (for a game with scores) at the end of
/// a game in which the players in `forfeited` forfeited it: they come last,
/// as a match scores them ([`forfeit`]).
pub fn settled<G: Game>(
    game: &G,
    state: &G::State,
    forfeited: &[Player],
) -> Result<(Vec<f64>, Option<Vec<f64>>), GameError> {
    let mut returns = all_returns(game, state)?;
    let mut scores = game.scores(state)?;
    for &p in forfeited {
        forfeit(game, p, &mut returns, scores.as_deref_mut());
    }
    Ok((returns, scores))
}

/// [`outcome_text`] of a game that the players in `forfeited` forfeited
/// (an `exec:` agent that failed): the outcome counts the forfeit, as
/// `match` does, and says so.
pub fn outcome_text_after<G: Game>(game: &G, state: &G::State, forfeited: &[Player]) -> Result<String, GameError> {
    let n = game.num_players();
    let name = |p: usize| game.player_name(p).to_string();
    let mut out = String::new();
    let (returns, scores) = settled(game, state, forfeited)?;
    let forfeit_note = if forfeited.is_empty() {
        String::new()
    } else {
        let names: Vec<String> = forfeited.iter().map(|&p| name(p)).collect();
        format!(" ({} forfeited)", names.join(" and "))
    };
    if n == 1 {
        // Alone, the player wins or loses by the sign of its utility.
        let r = returns[0];
        if r.abs() != 1.0 {
            out.push_str(&format!("utility: {} {r}\n", name(0)));
        }
        out.push_str(&match r {
            r if r > 0.0 => format!("{} won the game", name(0)),
            r if r < 0.0 => format!("{} lost the game", name(0)),
            _ => "the game ended even".to_string(),
        });
        out.push_str(&forfeit_note);
        return Ok(out);
    }
    let winners: Vec<usize> = if let Some(scores) = scores {
        let points: Vec<String> = (0..n).map(|p| format!("{} {}", name(p), scores[p])).collect();
        out.push_str(&format!("points: {}\n", points.join(", ")));
        let better = |a: f64, b: f64| if game.lowest_score_wins() { a < b } else { a > b };
        let best = (0..n)
            .map(|p| scores[p])
            .fold(scores[0], |b, s| if better(s, b) { s } else { b });
        (0..n).filter(|&p| scores[p] == best).collect()
    } else {
        let best = returns.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let winners: Vec<usize> = (0..n).filter(|&p| returns[p] == best).collect();
        if winners.len() < n && returns.iter().any(|r| r.abs() != 1.0) {
            let each: Vec<String> = (0..n).map(|p| format!("{} {}", name(p), returns[p])).collect();
            out.push_str(&format!("utility: {}\n", each.join(", ")));
        }
        winners
    };
    match winners.len() {
        k if k == n => out.push_str("the game is a draw"),
        1 => out.push_str(&format!("{} won the game", name(winners[0]))),
        _ => {
            let names: Vec<String> = winners.iter().map(|&p| name(p)).collect();
            out.push_str(&format!("{} share the win", names.join(" and ")));
        }
    }
    out.push_str(&forfeit_note);
    Ok(out)
}
