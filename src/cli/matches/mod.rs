//! `gdl match` (`tournament`) and, with more agents than seats, its league;
//! a match played in parts (`--shard I/N`, the part files) and `gdl merge`,
//! which puts the parts back together.

pub(in crate::cli) mod league;
pub(in crate::cli) mod merge;
pub(in crate::cli) mod part;
pub(in crate::cli) mod tournament;
