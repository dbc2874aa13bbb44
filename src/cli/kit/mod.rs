//! The kit: what the commands share and none of them owns. A command
//! imports from here and from the library, never from another command; the
//! kit imports no command.

pub mod agents;
pub mod args;
pub mod cfr_tree;
pub mod context;
pub mod csv;
pub mod exact;
pub mod game_args;
pub mod limits;
pub mod output;
pub mod progress;
pub mod shown;
pub mod signals;
