//! The `optimal` agent within the limits of a search: `--max-nodes` and
//! `--time-limit` per move, and its share of `--max-memory` for its memo
//! table. When a limit runs out the game stops with a message that says
//! whose search ran out, on which of its moves and where, and the command
//! exits 1: an agent that cannot prove its move does not guess one.
//!
//! Built by [`build_agent`](crate::solve::agent_builder::build_agent), for gdl's
//! commands and the Python module alike.

use super::agent::{Agent, AgentError, AgentFailure, Choice, OptimalAgent, Ties};
use super::step::Step;
use crate::game::{FileGame, Game, Player};
use crate::memory;
use crate::solve::{SolveError, SolveOptions, Solver};

/// An [`OptimalAgent`] whose search has limits.
pub struct BudgetedOptimal<'g, G: Game> {
    game: &'g G,
    opts: SolveOptions,
    ties: Ties,
    agent: OptimalAgent<'g, G>,
    /// Whether the memo table's cap (`opts.max_states`) comes from the
    /// memory limit rather than from a flag.
    memory_binds: bool,
    /// The agent's moves chosen in this game, counting the one being chosen.
    moves: usize,
    seed: u64,
    /// See [`OptimalAgent::resisting`].
    resist: bool,
    /// For a game with a repetition rule: the positions of this game before
    /// the one to move in, which the search needs (its values depend on them).
    history: Option<Vec<G::State>>,
}

impl<'g, G: FileGame> BudgetedOptimal<'g, G> {
    pub fn new(game: &'g G, opts: SolveOptions, ties: Ties, seed: u64, memory_binds: bool) -> Result<Self, SolveError> {
        let agent = OptimalAgent::new(Solver::new(game, opts.clone())?, ties, seed);
        Ok(BudgetedOptimal {
            game,
            opts,
            ties,
            agent,
            memory_binds,
            moves: 0,
            seed,
            resist: false,
            history: game.repetition().map(|_| Vec::new()),
        })
    }

    /// Plays the slowest loss when lost (see [`OptimalAgent::resisting`]);
    /// the search must prefer short lines (`SolveOptions::prefer_short`).
    pub fn resisting(mut self, resist: bool) -> Self {
        self.resist = resist;
        self.agent = self.agent.resisting(resist);
        self
    }

    /// The message for a search that ran out at `state`.
    fn ran_out(&self, player: Player, state: &G::State, what: &str, limit: &str, nodes: u64) -> String {
        let name = Agent::<G>::name(&self.agent);
        let why = match what {
            "nodes" => format!("the node limit of {limit} (--max-nodes) was reached"),
            "time" => format!("the time limit of {limit} (--time-limit) was reached"),
            _ if self.memory_binds => format!(
                "its memo table filled its share of the memory ({limit} states): {} (--max-memory)",
                memory::MemoryLimit::now("playing")
            ),
            _ => format!("its memo table reached {limit} states"),
        };
        format!(
            "the search of `{name}` for {} ran out on its {} move, at `{}`: it stopped after {nodes} nodes; {why}. \
             It plays only moves it has proven, so the game stops here: raise the limit, or start from a later position (--from, --after)",
            self.game.player_name(player),
            crate::game::ordinal(self.moves),
            shortened(&self.game.position(state))
        )
    }
}

/// A position as a message quotes it: a wide one cut after its first
/// [`QUOTED_CHARS`] characters.
pub(crate) fn shortened(position: &str) -> String {
    match position.char_indices().nth(QUOTED_CHARS) {
        Some((cut, _)) => format!("{} …", &position[..cut]),
        None => position.to_string(),
    }
}

/// The longest position a message quotes whole.
const QUOTED_CHARS: usize = 200;

impl<G: FileGame> Agent<G> for BudgetedOptimal<'_, G> {
    fn name(&self) -> String {
        self.agent.name()
    }

    fn new_game(&mut self, game: &G, seed: u64) -> Result<(), AgentError> {
        self.moves = 0;
        self.seed = seed;
        if let Some(h) = &mut self.history {
            h.clear();
        }
        self.agent.new_game(game, seed)
    }

    fn end_game(&mut self, game: &G, state: &G::State, player: Player) -> Result<Option<AgentFailure>, AgentError> {
        self.agent.end_game(game, state, player)
    }

    /// Under a repetition rule the agent keeps the game's positions.
    fn wants_steps(&self) -> bool {
        self.history.is_some()
    }

    fn after_step(&mut self, _game: &G, _seat: Player, before: &G::State, _step: &Step<G::Move>, _after: &G::State) {
        if let Some(h) = &mut self.history {
            h.push(before.clone());
        }
    }

    fn set_history(&mut self, _game: &G, before: &[G::State]) {
        crate::solve::agents::agent::replace_history(&mut self.history, before);
    }

    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        moves: &[G::Move],
    ) -> Result<Choice<G::Move>, AgentError> {
        self.moves += 1;
        if let Some(h) = &self.history {
            self.agent.set_history(h);
        }
        let mut result = self.agent.choose(game, state, player, moves);
        // A memo table kept from earlier moves and games that fills up is
        // emptied and the move searched again: only a move that needs more
        // than the whole table is out of reach.
        if let Err(AgentError::Solve(SolveError::Budget { what: "states", .. })) = &result {
            let solver = Solver::new(self.game, self.opts.clone())?;
            self.agent =
                OptimalAgent::new(solver, self.ties, self.seed.wrapping_add(self.moves as u64)).resisting(self.resist);
            if let Some(h) = &self.history {
                self.agent.set_history(h);
            }
            result = self.agent.choose(game, state, player, moves);
        }
        result.map_err(|e| match e {
            AgentError::Solve(SolveError::Budget { what, limit, nodes }) => {
                AgentError::Failed(self.ran_out(player, state, what, &limit, nodes))
            }
            other => other,
        })
    }
}

/// The most states a memo table of the exact solver may hold, so that it
/// never grows past its share (`1 / share`) of the memory left under the
/// soft limit; `None` when memory is not counted (nothing to keep under).
///
/// The solver checks its table's size as it enters a node, but stores a
/// node's entry as it leaves it, so a table can pass the limit by as many
/// entries as the search is deep (`max_depth`): that many are kept free, so
/// that the table never has to grow once more.
pub fn memo_states_within_memory<G: Game>(root: &G::State, share: usize, max_depth: usize) -> Option<u64> {
    if !memory::counting() {
        return None;
    }
    let left = memory::headroom();
    if left == usize::MAX {
        return None;
    }
    // What a state owns on the heap, measured rather than assumed (in the
    // allocator's blocks): a copy of the root, as the memo table keeps one per entry.
    let before = memory::live();
    let copy = std::hint::black_box(root.clone());
    let owned = memory::live().saturating_sub(before);
    drop(copy);
    // Some for the rest of the search: its buffers, the line, the report.
    let budget = (left - left / 16) / share.max(1);
    let entries = memory::table_entries_within(budget, Solver::<G>::memo_slot_bytes(), owned);
    let margin = max_depth.saturating_add(1);
    Some(entries.saturating_sub(margin).max(entries / 2).max(1) as u64)
}

/// The memo table's cap for `opts`: the tighter of `max_states` (if any)
/// and the memory's share; and whether the memory's is the one that binds.
pub fn cap_memo<G: Game>(opts: &mut SolveOptions, root: &G::State, share: usize) -> bool {
    if !opts.memo {
        return false;
    }
    match memo_states_within_memory::<G>(root, share, opts.max_depth) {
        Some(m) if opts.max_states.is_none_or(|s| m < s) => {
            opts.max_states = Some(m);
            true
        }
        _ => false,
    }
}
