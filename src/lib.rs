//! gdl: a game-description language and a solver for small games.
//!
//! A game is a text file; gdl parses it, compiles it to an IR and runs generic
//! algorithms on it:
//!
//! ```text
//! .game ──syntax::parse──▶ AST ──compile──▶ IR ──runtime──▶ impl Game ──solve──▶ report
//! ```
//!
//! ```
//! use gdl::game::Game;
//! let text = std::fs::read_to_string("games/nim.game").unwrap();
//! let program = gdl::compile::load("nim.game", &text, &[("piles".into(), "1,2".into())]).unwrap();
//! let game = gdl::runtime::Interpreted::new(program);
//! let start = game.initial_state().unwrap();
//! let solution = gdl::solve::solve(&game, &start, &Default::default()).unwrap();
//! assert_eq!(solution.value, 1.0); // misère Nim [1, 2]: the first player wins
//! ```

// Errors are rare and cold here; boxing them to shrink `Result` buys nothing.
#![allow(clippy::result_large_err)]

pub mod cli;
pub mod compile;
pub mod fsutil;
pub mod game;
pub mod ir;
pub mod memory;
pub mod report;
pub mod runtime;
pub mod solve;
pub mod syntax;
