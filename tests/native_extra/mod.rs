//! Helpers and hand-written native games for the solvers of chance,
//! simultaneous moves, hidden information and impartial games. The language
//! cannot yet state weighted chance or a player who moves twice in a row, so
//! these games are written in Rust.
#![allow(dead_code)]

pub mod shapley_snow;
