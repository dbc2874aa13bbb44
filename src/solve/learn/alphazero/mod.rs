//! AlphaZero-style learning for two-player games taken in turns: a small
//! policy/value network ([`net`]) guides PUCT search ([`puct`]), plays
//! itself and learns from the games ([`train`]); the network is saved
//! ([`file`]) and played by the `az:FILE` agent ([`agent`]). It all runs on
//! the CPU.

pub mod agent;
pub mod file;
pub mod net;
pub mod puct;
pub mod train;
