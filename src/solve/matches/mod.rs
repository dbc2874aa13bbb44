//! Games between agents: one game step by step (`episode`), many with seats
//! rotating (`tournament`), and their statistics.

pub mod episode;
pub mod stats;
pub mod tournament;
