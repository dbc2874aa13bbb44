//! Monte Carlo tree search (UCT), generic over [`Game`](crate::game::Game):
//! a strong, anytime player for the games past exact reach.
//!
//! Each simulation walks down the tree from the root choosing children by
//! UCB1, expands one leaf (its children are created, unvisited, and one of
//! them is played), plays the game out at random from there (or to a cutoff
//! where the game's `evaluate` scores it), and adds every player's return
//! to each node on the way back (max^n: each node's mover maximizes its own
//! mean, so games of more than two players and of scores work).
//!
//! - **Chance** nodes draw an outcome by its probability; their value is the
//!   average of what follows, as drawn.
//! - **Simultaneous** nodes are searched by decoupled UCT (Lanctot, Lisý &
//!   Winands 2013) by default: each player chooses its own move by UCB1
//!   over its own statistics at the node, and the joint move leads to the
//!   child. SM-MCTS with regret matching is the other choice: each player
//!   keeps, for each of its moves, a cumulative regret and a cumulative
//!   strategy, and draws its move from the regret-matching distribution
//!   (mixed with a little uniform exploration); it approaches an
//!   equilibrium, where decoupled UCT need not, but against the players
//!   measured (random, greedy: docs/SOLVERS.md) it won less.
//! - **Hidden information**: each simulation starts from a world drawn
//!   consistently with what the searching player has seen
//!   (`Game::sample_hidden`), and the tree is keyed by moves, so one tree
//!   gathers every world (single-observer information-set MCTS, Cowling,
//!   Powley & Whitehouse 2012): a child is chosen only among the moves legal
//!   in the world at hand, and UCB1 counts how often it was available.
//! - **MCTS-Solver** with score bounds (Winands, Björnsson & Saito 2008;
//!   Cazenave & Saffidine 2010), for two-player zero-sum games with perfect
//!   information: each node keeps bounds on player 0's return, exact at the
//!   ends of the game and combined by max and min above them; a child that
//!   cannot change its parent's value is never sampled again, and a root
//!   whose bounds meet is proven, which stops the search.
//!
//! The tree is an arena of nodes (a `Vec` with indices); a simulation
//! allocates nothing once the buffers have grown. A tree that reaches its
//! cap (nodes, or the memory limit) stops growing and goes on searching
//! from its leaves.

mod agent;
mod tree;

pub use agent::{MctsAgent, search};
pub use tree::{MctsResult, RootMove, Search};

/// How each player chooses its move at a simultaneous node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SimultaneousSelect {
    /// Decoupled UCT: UCB1 over each player's own statistics. The default:
    /// it beat random and greedy players more often than regret matching
    /// did (Goofspiel, X Nimmt!; docs/SOLVERS.md).
    #[default]
    Ucb,
    /// Regret matching; the final move is the most visited.
    RegretMatching,
    /// Regret matching; the final move is drawn from the average strategy
    /// (a mixed strategy, as the equilibrium of a matrix game may need).
    RegretMatchingMixed,
    /// The searching player by UCB1, the others drawn uniformly at random:
    /// a best response to players who choose at random, not a search for an
    /// equilibrium (what `search` assumes of the others, in a tree).
    OthersRandom,
    /// Each other player half the time by UCB1 over its own statistics (a
    /// player who searches, as `Ucb` takes it), half the time uniformly at
    /// random: a model between the two, for opponents who are neither
    /// (X Nimmt!'s `greedy` and `random` both: docs/XNIMMT.md).
    OthersHalfRandom,
}

/// How several threads search one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Parallelism {
    /// Root parallelism: one tree per thread, with its own seed and its
    /// share of the simulations; their statistics at the root are added up.
    #[default]
    Root,
    /// Tree parallelism: one tree, searched by every thread under a lock,
    /// the playouts outside it, with virtual loss.
    Tree,
}

/// What a simulation adds up at the nodes it passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Backup {
    /// Every player's return, as the game defines it (a point difference,
    /// a payoff).
    #[default]
    Returns,
    /// Every player's outcome: +1 for the highest return, 0 for one tied
    /// with the highest, -1 otherwise (for two players, the sign of the
    /// return). What "wins N% of the games" counts, where the return is a
    /// margin of points (Goofspiel); the game's `evaluate` at a cutoff is
    /// still backed up as it is.
    Outcome,
    /// Every player's own score where the game ends on scores (`lowest S
    /// wins`, `highest S wins`; the sign reversed for the lowest), not the
    /// margin over the others that its return is: a search for few points
    /// of one's own, what "collects N points a game" counts (X Nimmt!).
    /// Games without scores back up their returns.
    Score,
}

impl Backup {
    /// As `--mcts-backup` and `--backup` take it, and reports print it.
    pub fn name(self) -> &'static str {
        match self {
            Backup::Returns => "returns",
            Backup::Outcome => "outcome",
            Backup::Score => "score",
        }
    }
}

/// Regret matching's uniform exploration at simultaneous nodes (Lanctot,
/// Lisý & Winands tune it between 0.025 and 0.3 for Goofspiel).
pub const REGRET_EXPLORATION: f64 = 0.1;

use std::time::Duration;

/// How MCTS searches one move.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Simulations per move; `u64::MAX` when the clock alone decides.
    pub simulations: u64,
    /// A time limit per move, on top of `simulations`.
    pub time: Option<Duration>,
    /// UCB1's exploration constant, for returns scaled to 0..1 by the
    /// lowest and highest return seen in the search.
    pub exploration: f64,
    /// Moves of a playout after which the game's `evaluate` scores the
    /// position (`None`: play to the end; a game without `evaluate` always does).
    pub cutoff: Option<usize>,
    /// MCTS-Solver's proofs, where the game allows them.
    pub solver: bool,
    /// Threads that search one move, as `parallel` says.
    pub threads: usize,
    /// How the threads share the work.
    pub parallel: Parallelism,
    /// Keep the part of the tree below the new position from one move to
    /// the next of the same game (one thread, perfect information only).
    pub reuse: bool,
    /// The most nodes the tree holds; the memory limit may stop it sooner.
    pub max_nodes: usize,
    /// How players choose at simultaneous nodes.
    pub simultaneous: SimultaneousSelect,
    /// What a simulation backs up from the end of the game.
    pub backup: Backup,
    /// With [`Backup::Score`], added to a winner's score and taken from a
    /// loser's (0 to a draw), in the score's units: few points of one's
    /// own, and the win too.
    pub win_bonus: f64,
    /// Implicit minimax backups (Lanctot, Winands, Pepels & Sturtevant
    /// 2014): the weight α of each child's heuristic minimax value (the
    /// game's `evaluate` at the leaves of the tree, combined by max and min)
    /// beside its mean return in UCB1's first term. 0: off; it applies to
    /// two-player games of perfect information that have `evaluate`.
    pub minimax: f64,
    /// Stops a move's search from outside (Ctrl-C); the move then fails.
    pub stop: Option<crate::solve::agents::move_budget::Interrupt>,
}

/// Simulations per move of `mcts` without a number.
pub const DEFAULT_SIMULATIONS: u64 = 2000;

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            simulations: DEFAULT_SIMULATIONS,
            time: None,
            exploration: 1.0,
            cutoff: None,
            solver: true,
            threads: 1,
            parallel: Parallelism::default(),
            reuse: true,
            max_nodes: (1 << 31) - 1,
            simultaneous: SimultaneousSelect::default(),
            backup: Backup::default(),
            win_bonus: 0.0,
            minimax: 0.0,
            stop: None,
        }
    }
}
