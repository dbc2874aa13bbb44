//! The limits of a search, as every command that searches takes them:
//! the memo table's share of the memory limit (`--max-memory`, for every
//! command, in `GameArgs`).

use crate::memory;
use crate::runtime::{Interpreted, State};
use crate::solve::{SolveOptions, Solver};

/// The most states a memo table of the exact solver may hold, so that it
/// never grows past its share (`1 / share`) of the memory left under the
/// soft limit; `None` when memory is not counted (nothing to keep under).
///
/// The solver checks its table's size as it enters a node, but stores a
/// node's entry as it leaves it, so a table can pass the limit by as many
/// entries as the search is deep (`max_depth`): that many are kept free, so
/// that the table never has to grow once more.
pub fn memo_states_within_memory(root: &State, share: usize, max_depth: usize) -> Option<u64> {
    if !memory::counting() {
        return None;
    }
    let left = memory::headroom();
    if left == usize::MAX {
        return None;
    }
    // What a state owns on the heap, measured rather than assumed: a copy
    // of the root, as the memo table keeps one per entry.
    let before = memory::live();
    let copy = std::hint::black_box(root.clone());
    let owned = memory::live().saturating_sub(before);
    drop(copy);
    // Some for the rest of the search: its buffers, the line, the report.
    let budget = (left - left / 16) / share.max(1);
    let entries = memory::table_entries_within(
        budget,
        Solver::<Interpreted>::memo_slot_bytes(),
        memory::block_bytes(owned),
    );
    let margin = max_depth.saturating_add(1);
    Some(entries.saturating_sub(margin).max(entries / 2).max(1) as u64)
}

/// The memo table's cap for `opts`: the tighter of `--max-states` (if any)
/// and the memory's; and whether the memory's is the one that binds.
pub fn cap_memo(opts: &mut SolveOptions, root: &State, share: usize) -> bool {
    if !opts.memo {
        return false;
    }
    match memo_states_within_memory(root, share, opts.max_depth) {
        Some(m) if opts.max_states.is_none_or(|s| m < s) => {
            opts.max_states = Some(m);
            true
        }
        _ => false,
    }
}
