//! Hand-written native games for the solvers of chance, simultaneous moves,
//! hidden information and impartial games (`tests/expectimax.rs`,
//! `tests/matrix.rs`, `tests/cfr.rs`, `tests/grundy.rs`). The language
//! cannot yet state weighted chance or a player who moves twice in a row, so
//! these games are written in Rust.
#![allow(dead_code)]

pub mod goofspiel;
pub mod kayles;
pub mod kuhn;
pub mod leduc;
pub mod one_shot;
pub mod pig;
pub mod shapley_snow;
