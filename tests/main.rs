//! Every integration test of gdl in one crate, one module per file, as
//! casey/just does: the shared helpers (`common`, the native games, the
//! random game generator) are compiled once, and one binary is linked
//! instead of one per file. `cargo test --test main cli::` runs a file's tests.
//! memory_count.rs and memory_guard.rs stay binaries of their own: each
//! installs gdl's counting allocator as its global allocator.

mod common;
mod fuzzgen;
mod native;
mod native_extra;

mod agent_builder;
mod agent_kinds;
mod agents_exec;
mod agents_protocol;
mod agreement;
mod alphazero;
mod api;
mod bench_cli;
mod board_picture;
mod cfr;
mod cli;
mod cli_fuzz;
mod cli_solvers;
mod conformance;
mod coursework;
mod depth_limited;
mod desk;
mod display;
mod error_codes;
mod expectimax;
mod files_and_limits;
mod fuzz;
mod grundy;
mod inlining;
mod ir;
mod jit;
mod json_schema;
mod language;
mod layering;
mod local_collections;
#[path = "match.rs"]
mod matches;
mod matrix;
mod max_moves;
mod mcts;
mod optimal_chance;
mod parallel;
mod perft;
mod play;
mod properties;
mod puzzle;
mod qlearn;
mod repetition;
mod reports;
mod serve;
mod signals;
mod simultaneous;
mod solvers;
mod sweep;
mod unread_cells;
mod xnimmt;
