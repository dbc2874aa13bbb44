//! gdl: a game-description language and a solver for small games.
//!
//! A game is a text file; gdl parses it, compiles it to an IR and runs generic
//! algorithms on it:
//!
//! ```text
//! .game ──syntax::parse──▶ AST ──compile──▶ IR ──runtime──▶ impl Game ──solve──▶ report
//! ```
//!
//! The modules are stages, and a stage imports only from the stages before
//! it (`tests/layering.rs` fails on an import against this order), bottom
//! first:
//!
//! 0. `error_kind`: the kinds of error, with their diagnostic codes and
//!    exit codes; `digits`: numbers as people read them (`8,339,730`);
//! 1. `board`: a position as a game's `display` block draws it, and its text;
//!    `game`, `fsutil`, `memory`: foundations: the [`game::Game`] trait
//!    every algorithm sees, atomic file writes, the memory guard;
//! 2. `syntax`: text to syntax tree, and the error a game file's problems
//!    are reported with (`syntax::file_error`, the compiler's too);
//! 3. `ir`: the compiled program and its flat code; `bundled`: the games of
//!    games/ compiled into gdl, read by name (by the command line and the
//!    Python module);
//! 4. `value`: run-time values and their layout in a state's cells;
//! 5. `compile`: syntax tree to IR;
//! 6. `runtime`: the interpreter, the IR run as a `Game`;
//! 7. `solve`: the algorithms, over any `Game` (files that outlive a run,
//!    Q-tables and strategies, over [`game::FileGame`]);
//! 8. `report`: text and JSON for people;
//! 9. `cli`: the commands.
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
// Every `unsafe` block says why it is sound (most are in runtime/jit/call.rs).
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod board;
pub mod bundled;
pub mod cli;
pub mod compile;
pub mod digits;
pub mod error_kind;
pub mod fsutil;
pub mod game;
pub mod ir;
pub mod memory;
pub mod report;
pub mod runtime;
pub mod solve;
pub mod syntax;
pub mod value;
