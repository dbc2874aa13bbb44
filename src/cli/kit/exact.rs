//! What the exact solvers make of a game, for the commands that run them
//! (`solve`, `tree`): the solver a game needs, and a game that never ends
//! told as a diagnostic.

use crate::game::{Game, GameError};
use crate::ir::Visibility;
use crate::runtime::Interpreted;
use crate::solve::{SolveError, SolveKind};

/// Which solver a game needs, when it is not alpha-beta.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Chance or simultaneous moves, nothing hidden.
    Chance,
    /// Something hidden from a player.
    Hidden,
    /// `--grundy`.
    Grundy,
}

/// The solver `game` needs, or `None` for alpha-beta.
pub fn kind(game: &Interpreted, grundy: bool) -> Option<Kind> {
    let prog = game.program();
    if grundy {
        Some(Kind::Grundy)
    } else if prog.vars.iter().any(|v| v.visibility != Visibility::Public) {
        Some(Kind::Hidden)
    } else if prog.has_chance || prog.has_simultaneous {
        Some(Kind::Chance)
    } else {
        None
    }
}

/// A game that goes on forever (or too long) as a diagnostic pointing into
/// the file: at the first move of the cycle, or at the end clauses that never held.
pub fn endless(game: &Interpreted, e: SolveError) -> GameError {
    let prog = game.program();
    let (code, span, help) = match &e {
        SolveError::Cycle { position, moves } => {
            // Replay the cycle's first move to find its declaration.
            let kind = game
                .parse_position(position)
                .ok()
                .zip(moves.first())
                .and_then(|(s, m)| game.parse_move(&s, m).ok())
                .map(|m| m.kind());
            let span = kind.and_then(|k| prog.moves.get(k)).map(|m| m.span);
            (
                SolveKind::Cycle,
                span,
                "the exact solvers need a game that always ends: make every move bring the end closer \
                 (e.g. count the moves in a state variable and add `end when moves == 100 { draw }`)",
            )
        }
        _ => (
            SolveKind::TooDeep,
            prog.ends.first().map(|end| end.span),
            "check that every line of play reaches an `end when` clause; games this long are not small",
        ),
    };
    let mut g = GameError::new(code, e.to_string()).with_help(help);
    if let Some(span) = span {
        g = g.at(span.into()).with_source((*prog.source).clone());
    }
    g
}
