//! gdl: a game-description language and a solver for small games.
//!
//! A game is a text file; gdl parses it, compiles it to an IR and runs generic
//! algorithms on it:
//!
//! ```text
//! .game ──syntax::parse──▶ AST ──compile──▶ IR ──runtime──▶ impl Game ──solve──▶ report
//! ```

pub mod game;
pub mod solve;
