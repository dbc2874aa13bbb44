//! CFR's game tree within its limit, as `solve` and `train` build it.

use crate::cli::kit::context::{Context, Failure};
use crate::game::Game;
use crate::runtime::{Interpreted, State};
use crate::solve::SolveError;
use crate::solve::learn::infotree::{InfoTree, size_lower_bound};

/// The default limit on CFR's game tree, in nodes: the interpreter builds a
/// few tens of thousands a second, so this is a minute or so at most.
pub const CFR_MAX_NODES: u64 = 1_000_000;

/// The game tree for CFR, refused at once when even one line of play shows
/// that it is beyond `max_nodes` (default [`CFR_MAX_NODES`]). `flag`: the
/// command takes `--max-nodes` (`gdl train` does not), which the help names.
pub fn cfr_tree(
    game: &Interpreted,
    root: &State,
    max_nodes: Option<u64>,
    flag: bool,
    ctx: &Context,
) -> Result<InfoTree<<Interpreted as Game>::Move>, Failure> {
    let limit = max_nodes.unwrap_or(CFR_MAX_NODES);
    let too_big = |what: String| {
        Failure::runtime(format!(
            "error: {} has hidden information, which CFR solves over its whole game tree, and {what}\n\
             help: {}",
            game.name(),
            if flag {
                "solve a smaller configuration, or raise --max-nodes (memory grows with it)"
            } else {
                "train on a smaller configuration"
            }
        ))
    };
    let bound = size_lower_bound(game, root).map_err(|e| ctx.fail(&e))?;
    if bound > limit as f64 {
        return Err(too_big(format!(
            "one line of play alone shows more than {bound:.0} nodes, beyond the limit of {limit}"
        )));
    }
    InfoTree::build(game, root, limit).map_err(|e| match e {
        SolveError::Budget { limit, .. } => too_big(format!("the tree has more than {limit} nodes")),
        e => ctx.fail(&e),
    })
}
