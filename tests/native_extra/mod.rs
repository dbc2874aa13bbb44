//! Hand-written native games for the solvers of chance, simultaneous moves,
//! hidden information and impartial games (`tests/expectimax.rs`,
//! `tests/matrix.rs`, `tests/cfr.rs`, `tests/grundy.rs`), written in Rust
//! so that the solvers are checked independently of the language; the game
//! files of Pig, Goofspiel and Kuhn poker in games/ are checked against them
//! (`tests/language.rs`).
#![allow(dead_code)]

pub mod goofspiel;
pub mod kayles;
pub mod kuhn;
pub mod leduc;
pub mod one_shot;
pub mod pig;
pub mod shapley_snow;
