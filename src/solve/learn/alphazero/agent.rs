//! The `az:FILE` agent: PUCT search guided by a trained network, playing
//! the most visited move. It draws nothing at random, so a position always
//! gets the same move for the same budget in simulations.

use std::path::Path;
use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::StdRng;

use super::file::{self, AzFileError};
use super::net::Net;
use super::puct::{Puct, PuctConfig};
use crate::game::{FileGame, Game, Player};
use crate::solve::agents::agent::{Agent, AgentError, Choice};
use crate::solve::agents::move_budget::{self, Clock};

/// Simulations per move of `az:FILE` without a time limit.
pub const DEFAULT_SIMULATIONS: u64 = 400;

pub struct AzAgent {
    name: String,
    net: Net,
    simulations: u64,
    time: Option<Duration>,
    c_puct: f32,
}

impl AzAgent {
    /// An agent of `net` that searches `simulations` per move, or until
    /// `time` runs out (whichever comes first; with a time alone, the time).
    pub fn new(name: String, net: Net, simulations: Option<u64>, time: Option<Duration>) -> Self {
        AzAgent {
            name,
            net,
            simulations: move_budget::units(simulations, DEFAULT_SIMULATIONS, time),
            time,
            c_puct: PuctConfig::default().c_puct,
        }
    }
}

/// Loads the agent `az:FILE` for `game`, searching with `time` per move
/// when one is given.
pub fn load_agent<G: FileGame>(path: &Path, game: &G, time: Option<Duration>) -> Result<AzAgent, AzFileError> {
    let (net, _) = file::load(path, game)?;
    Ok(AzAgent::new(format!("az:{}", path.display()), net, None, time))
}

impl<G: Game> Agent<G> for AzAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        _player: Player,
        moves: &[G::Move],
    ) -> Result<Choice<G::Move>, AgentError> {
        if moves.len() == 1 {
            return Ok(Choice::plain(moves[0].clone()));
        }
        let config = PuctConfig {
            c_puct: self.c_puct,
            noise: None,
        };
        let mut search = Puct::new(game, &self.net, config);
        // Without noise the search draws nothing; the generator is unused.
        let mut rng = StdRng::seed_from_u64(0);
        let stats = search.search(state, &Clock::start(self.simulations, self.time), &mut rng)?;
        let best = &stats.moves[stats.best()];
        let mv = moves.iter().find(|m| **m == best.0).cloned().ok_or_else(|| {
            AgentError::Failed(format!(
                "{}: the search chose {}, which is not among the legal moves it was given",
                self.name,
                game.move_text(&best.0)
            ))
        })?;
        Ok(Choice {
            mv,
            note: Some(format!(
                "value {:.3}, {} of {} simulations",
                stats.best_value, best.2, stats.simulations
            )),
        })
    }
}
