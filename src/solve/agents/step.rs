//! One step of a game as it is played: what `play_out` hands its caller
//! after each step, and what an agent that keeps its own model of the game
//! is shown (`Agent::after_step`).

use crate::game::Player;

/// One step of a game.
#[derive(Clone, Debug, PartialEq)]
pub enum Step<M> {
    /// Chance moved (a card was dealt, a die thrown).
    Chance(M),
    /// Players moved: one entry at a turn, one per player at a simultaneous
    /// node, each with what its agent said about the move.
    Moves(Vec<Played<M>>),
}

/// A player's move and its agent's note.
#[derive(Clone, Debug, PartialEq)]
pub struct Played<M> {
    pub player: Player,
    pub mv: M,
    pub note: Option<String>,
}
