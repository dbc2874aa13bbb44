//! The `optimal` agent within the limits of a search: `--max-nodes` and
//! `--time-limit` per move, and its share of `--max-memory` for its memo
//! table. When a limit runs out the game stops with a message that says
//! whose search ran out, on which of its moves and where, and the command
//! exits 1: an agent that cannot prove its move does not guess one.

use crate::game::{Game, Player};
use crate::runtime::Interpreted;
use crate::solve::agent::{Agent, AgentError, AgentFailure, Choice, OptimalAgent, Ties};
use crate::solve::{SolveError, SolveOptions, Solver};

/// An [`OptimalAgent`] whose search has limits.
pub struct BudgetedOptimal<'g> {
    game: &'g Interpreted,
    opts: SolveOptions,
    ties: Ties,
    agent: OptimalAgent<'g, Interpreted>,
    /// Whether the memo table's cap (`opts.max_states`) comes from the
    /// memory limit rather than from a flag.
    memory_binds: bool,
    /// The agent's moves chosen in this game, counting the one being chosen.
    moves: usize,
    seed: u64,
}

impl<'g> BudgetedOptimal<'g> {
    pub fn new(
        game: &'g Interpreted,
        opts: SolveOptions,
        ties: Ties,
        seed: u64,
        memory_binds: bool,
    ) -> Result<Self, SolveError> {
        let agent = OptimalAgent::new(Solver::new(game, opts.clone())?, ties, seed);
        Ok(BudgetedOptimal {
            game,
            opts,
            ties,
            agent,
            memory_binds,
            moves: 0,
            seed,
        })
    }

    /// The message for a search that ran out at `state`.
    fn ran_out(
        &self,
        player: Player,
        state: &<Interpreted as Game>::State,
        what: &str,
        limit: &str,
        nodes: u64,
    ) -> String {
        let name = Agent::<Interpreted>::name(&self.agent);
        let why = match what {
            "nodes" => format!("the node limit of {limit} (--max-nodes) was reached"),
            "time" => format!("the time limit of {limit} (--time-limit) was reached"),
            _ if self.memory_binds => format!(
                "its memo table filled its share of the memory ({limit} states): {} (--max-memory)",
                crate::memory::MemoryLimit::now("playing")
            ),
            _ => format!("its memo table reached {limit} states"),
        };
        format!(
            "the search of `{name}` for {} ran out on its {} move, at `{}`: it stopped after {nodes} nodes; {why}. \
             It plays only moves it has proven, so the game stops here: raise the limit, or start from a later position (--from, --after)",
            self.game.player_name(player),
            ordinal(self.moves),
            shortened(&self.game.position(state))
        )
    }
}

/// A position as a message quotes it: a wide one cut after its first
/// [`QUOTED_CHARS`] characters.
fn shortened(position: &str) -> String {
    match position.char_indices().nth(QUOTED_CHARS) {
        Some((cut, _)) => format!("{} …", &position[..cut]),
        None => position.to_string(),
    }
}

/// The longest position a message quotes whole.
const QUOTED_CHARS: usize = 200;

/// `1st`, `2nd`, `3rd`, `4th`, ..., `11th`, `21st`.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl Agent<Interpreted> for BudgetedOptimal<'_> {
    fn name(&self) -> String {
        self.agent.name()
    }

    fn new_game(&mut self, game: &Interpreted, seed: u64) -> Result<(), AgentError> {
        self.moves = 0;
        self.seed = seed;
        self.agent.new_game(game, seed)
    }

    fn end_game(
        &mut self,
        game: &Interpreted,
        state: &<Interpreted as Game>::State,
        player: Player,
    ) -> Result<Option<AgentFailure>, AgentError> {
        self.agent.end_game(game, state, player)
    }

    fn choose(
        &mut self,
        game: &Interpreted,
        state: &<Interpreted as Game>::State,
        player: Player,
        moves: &[<Interpreted as Game>::Move],
    ) -> Result<Choice<<Interpreted as Game>::Move>, AgentError> {
        self.moves += 1;
        let mut result = self.agent.choose(game, state, player, moves);
        // A memo table kept from earlier moves and games that fills up is
        // emptied and the move searched again: only a move that needs more
        // than the whole table is out of reach.
        if let Err(AgentError::Solve(SolveError::Budget { what: "states", .. })) = &result {
            let solver = Solver::new(self.game, self.opts.clone())?;
            self.agent = OptimalAgent::new(solver, self.ties, self.seed.wrapping_add(self.moves as u64));
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
