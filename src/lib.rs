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
//!    `game`, `fsutil`, `memory`: foundations: the [`Game`] trait
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
//!    Q-tables and strategies, over `game::FileGame`);
//! 8. `report`: text and JSON for people;
//! 9. `load`: the library's front door, [`load`] and [`agent`];
//! 10. `cli`: the commands.
//!
//! A library user needs only what the crate root exports: [`load`] a game
//! (a file, or a bundled game by name) with typed parameter values, play it
//! through the [`Game`] trait, [`solve()`] it, or seat one of gdl's agents
//! ([`agent`]):
//!
//! ```
//! use gdl::Game;
//! let game = gdl::load("nim", &[("piles", vec![1, 2].into())]).unwrap();
//! assert_eq!(game.title(), "Nim (piles = [1, 2])");
//! let start = game.initial_state().unwrap();
//! let solution = gdl::solve(&game, &start, &Default::default()).unwrap();
//! assert_eq!(solution.value, 1.0); // misère Nim [1, 2]: the first player wins
//!
//! let error = gdl::load("nim", &[("piles", vec![3, 30].into())]).unwrap_err();
//! assert!(error.to_string().contains("piles = [3, 30]: 30 is out of range"));
//! ```
//!
//! The stage modules are public for gdl's own binary, its Python module and
//! its tests, hidden from the docs: they are no stable API.

// Errors are rare and cold here; boxing them to shrink `Result` buys nothing.
#![allow(clippy::result_large_err)]
// Every `unsafe` block says why it is sound (most are in runtime/jit/call.rs).
#![warn(clippy::undocumented_unsafe_blocks)]

// Internal (for the binary, the Python module and the tests): no stable API.
#[doc(hidden)]
pub mod board;
// Internal (for the Python module): no stable API.
#[doc(hidden)]
pub mod bundled;
// Internal (for the binary and the tests): no stable API.
#[doc(hidden)]
pub mod cli;
// Internal (for the Python module, the tests and the benchmarks): no stable API.
#[doc(hidden)]
pub mod compile;
pub(crate) mod digits;
// Internal (for the tests): no stable API.
#[doc(hidden)]
pub mod error_kind;
pub(crate) mod fsutil;
// Internal (for the Python module, the tests and the benchmarks): no stable
// API; its `Game` trait is exported at the root.
#[doc(hidden)]
pub mod game;
// Internal (for the Python module and the tests): no stable API.
#[doc(hidden)]
pub mod ir;
mod load;
// Internal (for the binary, the Python module and the tests): no stable API.
#[doc(hidden)]
pub mod memory;
// Internal (for the Python module and the tests): no stable API.
#[doc(hidden)]
pub mod report;
// Internal (for the Python module, the tests and the benchmarks): no stable API.
#[doc(hidden)]
pub mod runtime;
// Internal (for the binary, the Python module, the tests and the
// benchmarks): no stable API.
#[doc(hidden)]
pub mod solve;
// Internal (for the Python module and the tests): no stable API.
#[doc(hidden)]
pub mod syntax;
// Internal (for the tests): no stable API.
#[doc(hidden)]
pub mod value;

pub use compile::ParamValue;
pub use game::{Game, GameError, Player, Turn};
pub use load::{LoadError, agent, bundled_games, load};
pub use runtime::{Engine, Interpreted, Move, State};
pub use solve::agent_builder::{AgentBuildError, BoxedAgent};
pub use solve::agents::agent::{Agent, AgentError, Choice};
pub use solve::{MoveValue, Solution, SolveError, SolveOptions, solve};
