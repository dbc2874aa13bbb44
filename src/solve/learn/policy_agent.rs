//! The `policy:FILE` agent: plays a saved strategy (`gdl train --algorithm
//! cfr`), drawing each move with the strategy's probabilities.
//!
//! It finds its information set as the strategy names it (see
//! [`infotree`](super::infotree)): the observations it had at its own
//! earlier decisions in this game, the moves it made there, and what it
//! observes now. It sees nothing else of the state.

use std::path::Path;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::strategy_file::{self, GameId, Policy, StrategyFileError};
use crate::game::{Game, Player};
use crate::solve::agents::agent::{Agent, AgentError, Choice};

pub struct PolicyAgent {
    name: String,
    policy: Policy,
    /// Each seat's history in the current game: observation, move, ...
    histories: Vec<Vec<String>>,
    rng: StdRng,
}

impl PolicyAgent {
    pub fn new(name: String, policy: Policy, seed: u64) -> Self {
        PolicyAgent {
            name,
            policy,
            histories: Vec::new(),
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

/// Loads the agent `policy:FILE` for `game`.
pub fn load_agent<G: crate::game::FileGame>(
    path: &Path,
    game: &G,
    seed: u64,
) -> Result<PolicyAgent, StrategyFileError> {
    let file = strategy_file::load(path, &GameId::of(game))?;
    Ok(PolicyAgent::new(
        format!("policy:{}", path.display()),
        Policy::new(&file),
        seed,
    ))
}

impl<G: Game> Agent<G> for PolicyAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, game: &G, seed: u64) -> Result<(), AgentError> {
        self.histories = vec![Vec::new(); game.num_players()];
        self.rng = StdRng::seed_from_u64(seed);
        Ok(())
    }

    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        moves: &[G::Move],
    ) -> Result<Choice<G::Move>, AgentError> {
        if self.histories.len() <= player {
            self.histories.resize(player + 1, Vec::new());
        }
        let history = &mut self.histories[player];
        history.push(game.observation(state, player));
        let Some(probs) = self.policy.get(player, history) else {
            return Err(AgentError::Failed(format!(
                "{}: the strategy has no information set for what {} sees now ({}); \
                 it was computed from the start of the game with these parameters",
                self.name,
                game.player_name(player),
                history.last().map_or("", String::as_str)
            )));
        };
        let texts: Vec<String> = moves.iter().map(|m| game.move_text(m)).collect();
        let mut draw = self.rng.random::<f64>();
        let mut pick = None;
        for (m, p) in probs {
            let Some(i) = texts.iter().position(|t| t == m) else {
                return Err(AgentError::Failed(format!(
                    "{}: the strategy plays `{m}`, which is not a legal move here",
                    self.name
                )));
            };
            if draw < *p && pick.is_none() {
                pick = Some(i);
            }
            draw -= p;
        }
        // Rounding can leave the draw just above the last probability.
        let i = pick.unwrap_or_else(|| {
            let last = probs.iter().rposition(|(_, p)| *p > 0.0).unwrap_or(0);
            texts.iter().position(|t| *t == probs[last].0).unwrap_or(0)
        });
        let p = probs.iter().find(|(m, _)| *m == texts[i]).map_or(0.0, |(_, p)| *p);
        history.push(texts[i].clone());
        Ok(Choice {
            mv: moves[i].clone(),
            note: Some(format!("probability {p:.3}")),
        })
    }
}
