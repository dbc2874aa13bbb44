//! Agents: the `Agent` trait and the players that search while they play
//! (`optimal` within limits, `alphabeta:D`, `search`, `dsearch`, `mcts`), with
//! the random playouts and per-move budgets they share.

pub mod agent;
pub mod agent_kinds;
pub mod budgeted;
pub mod depth_limited;
pub mod determinized;
pub mod expectimax_agent;
pub mod mcts;
pub mod move_budget;
pub mod puzzle_agent;
pub mod search;
pub mod simulate;
pub mod step;
