//! `optimal` in a one-player game: the exact puzzle solver
//! ([`puzzle`](crate::solve::exact::puzzle)) asked afresh at every move.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::agent::{Agent, AgentError, AgentSpec, Choice, Ties};
use crate::game::{Game, Player};
use crate::solve::exact::puzzle::{self, PuzzleOptions};

/// `optimal` in a one-player game: solves from each position it is handed
/// and plays a first move of a shortest line to the best payoff (ties by
/// `ties`: the first, or one drawn at random); where no end can be reached,
/// any legal move, drawn the same way.
pub struct PuzzleAgent {
    opts: PuzzleOptions,
    ties: Ties,
    rng: StdRng,
}

impl PuzzleAgent {
    pub fn new(opts: PuzzleOptions, ties: Ties, seed: u64) -> Self {
        PuzzleAgent {
            opts,
            ties,
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Agent<G> for PuzzleAgent {
    fn name(&self) -> String {
        AgentSpec::Optimal(self.ties).to_string()
    }

    fn new_game(&mut self, _game: &G, seed: u64) -> Result<(), AgentError> {
        self.rng = StdRng::seed_from_u64(seed);
        Ok(())
    }

    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        _player: Player,
        moves: &[G::Move],
    ) -> Result<Choice<G::Move>, AgentError> {
        let solved = puzzle::solve(game, state, &self.opts)?;
        let pool = if solved.best_moves.is_empty() {
            moves.to_vec()
        } else {
            solved.best_moves
        };
        let pick = match self.ties {
            Ties::Random => self.rng.random_range(0..pool.len()),
            Ties::First | Ties::Fast => 0,
        };
        Ok(Choice::plain(pool[pick].clone()))
    }
}
