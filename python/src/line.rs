//! The repetition rule (`end when repeated N`) in Python: a state of a game
//! with the rule carries the positions its game went through before it, so
//! that the move that reaches a position for the Nth time ends the game, as
//! `gdl play` ends it (`gdl::game::Repetitions`).
//!
//! The positions are a list shared between states, the latest first: a move
//! adds one node for the position it left, and every state after it points
//! at that node. A line of a thousand moves keeps a thousand positions
//! however many states of it are alive, and `apply` copies none of them.

use std::sync::Arc;

use gdl::game::{Game, GameError, RuntimeKind};
use gdl::runtime::{Interpreted, State};

/// One position of a game's past, and the positions before it.
pub(crate) struct Past {
    pub(crate) state: State,
    pub(crate) before: Line,
}

/// The positions before a state, the latest first; `None`: none (the state
/// starts its game, or its game has no repetition rule).
pub(crate) type Line = Option<Arc<Past>>;

// A long line dropped node by node would recurse once per position, deeper
// than a thread's stack may go: each node whose last owner this was is
// unlinked in a loop instead.
impl Drop for Past {
    fn drop(&mut self) {
        let mut next = self.before.take();
        while let Some(node) = next {
            match Arc::try_unwrap(node) {
                Ok(mut node) => next = node.before.take(),
                // Another state still holds the rest of the line.
                Err(_) => break,
            }
        }
    }
}

/// The positions of `line`, the latest first.
pub(crate) fn positions(line: &Line) -> impl Iterator<Item = &Past> {
    let mut at = line.as_deref();
    std::iter::from_fn(move || {
        let node = at?;
        at = node.before.as_deref();
        Some(node)
    })
}

/// The line of the state after a move from `state`, whose own line is `line`.
pub(crate) fn extend(line: &Line, state: &State) -> Line {
    Some(Arc::new(Past {
        state: state.clone(),
        before: line.clone(),
    }))
}

/// How often `state` occurs on `line`.
pub(crate) fn occurrences(line: &Line, state: &State) -> usize {
    positions(line).filter(|p| p.state == *state).count()
}

/// Ends the game in `state`, which a move has just reached after the
/// positions of `line`, when this is its Nth occurrence under the game's
/// repetition rule: `turn` then says it is over, and `returns` gives the
/// rule's outcome. Nothing without the rule.
pub(crate) fn reach(game: &Interpreted, line: &Line, state: &mut State) -> Result<(), GameError> {
    let Some(times) = game.repetition() else {
        return Ok(());
    };
    if occurrences(line, state) + 1 >= times as usize && !game.end_by_repetition(state) {
        return Err(GameError::new(
            RuntimeKind::Internal,
            format!(
                "{} cannot end a game by its rule `end when repeated {times}` here (a bug in gdl)",
                game.name()
            ),
        ));
    }
    Ok(())
}

/// The positions of `line`, the first one first, as the library's agents
/// and solver take a game's past.
pub(crate) fn oldest_first(line: &Line) -> Vec<State> {
    let mut out: Vec<State> = positions(line).map(|p| p.state.clone()).collect();
    out.reverse();
    out
}
