//! Learning and the files it writes: Q-learning and its Q-table files, CFR+
//! over an enumerated information-set tree with its strategy files, the exact
//! best response that measures a strategy, and the agents that play what was
//! learned.

pub mod alphazero;
pub mod best_response;
pub mod cfr;
pub(in crate::solve) mod file_header;
pub mod infotree;
pub mod policy_agent;
pub mod qeval;
pub mod qfile;
pub mod qlearn;
pub mod strategy_file;
