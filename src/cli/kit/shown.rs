//! A position as the commands show it: drawn by the game's `display` block
//! where it has one, else its state field by field. `--raw` asks for the
//! fields, which are what `--from` reads back.

use crate::board::Board;
use crate::game::{Game, GameError, Player};
use crate::report::play::view_text;
use crate::runtime::{Interpreted, State};

/// `state` as `viewer` may see it (`None`: a spectator who sees everything),
/// every line after the first starting with `indent`. A board is drawn only
/// for a game whose state is all public, or for a spectator: a display draws
/// the whole position, hidden cards included.
pub(crate) fn position_lines(
    game: &Interpreted,
    state: &State,
    viewer: Option<Player>,
    raw: bool,
    indent: &str,
) -> Result<String, GameError> {
    let fields = || view_text(&game.view(state, viewer), indent);
    if raw || !(viewer.is_none() || all_public(game)) {
        return Ok(fields());
    }
    Ok(match game.board(state)? {
        Some(board) => {
            let mut lines: Vec<String> = board.text().lines().map(str::to_string).collect();
            // What the board leaves out that decides the game: the points
            // (pits with a store show them already).
            let stores = matches!(&board, Board::Pits { left, right, .. } if left.is_some() || right.is_some());
            if !stores && let Some(scores) = game.running_scores(state)? {
                let each: Vec<String> = (0..game.num_players())
                    .map(|p| format!("{} {}", game.player_name(p), scores[p]))
                    .collect();
                lines.push(format!("points: {}", each.join(", ")));
            }
            // Every line after the first indented, and none ending in spaces.
            let mut out = String::new();
            for (i, line) in lines.iter().enumerate() {
                if i > 0 {
                    out.push('\n');
                    if !line.trim_end().is_empty() {
                        out.push_str(indent);
                    }
                }
                out.push_str(line.trim_end());
            }
            out
        }
        None => fields(),
    })
}

/// Whether every state variable is seen by everybody.
pub(crate) fn all_public(game: &Interpreted) -> bool {
    game.program()
        .vars
        .iter()
        .all(|v| v.visibility == crate::ir::Visibility::Public)
}

/// The board of a position a person typed (`--from`, `--after`), to be
/// shown under its state: `None` at the game's start, which needs no
/// picture to be recognized, or without a display.
pub(crate) fn echo(game: &Interpreted, state: &State) -> Result<Option<String>, GameError> {
    if *state == game.initial_state()? || !all_public(game) {
        return Ok(None);
    }
    Ok(game.board(state)?.map(|b| b.text()))
}
