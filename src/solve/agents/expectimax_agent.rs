//! `optimal` in two-player games with chance or simultaneous moves: each
//! move from expectiminimax's values ([`expectimax`](crate::solve::exact::expectimax)),
//! one memo table kept for the whole match. At a player's turn it plays a
//! move of the best expected value (ties as `optimal`, `optimal:first` say);
//! at a simultaneous turn it draws its move from its optimal mixed strategy
//! of the matrix game there.
//!
//! The agent sees the whole state, so it is refused for games with hidden
//! information (the solver's check that positions alike to a player call for
//! the same play, run over every position reachable from the start).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::agent::{Agent, AgentError, AgentSpec, Choice, Ties};
use crate::game::{Game, Player};
use crate::solve::SolveError;
use crate::solve::exact::expectimax::{ChanceOptions, ChanceValuer, Root};

/// Plays by expectiminimax's values.
pub struct ExpectimaxAgent<'g, G: Game> {
    valuer: ChanceValuer<'g, G>,
    ties: Ties,
    rng: StdRng,
}

impl<'g, G: Game> ExpectimaxAgent<'g, G> {
    /// Solves the game from its start (every position reachable from it, so
    /// that each later move is a look-up) and checks that no player would
    /// have to tell apart positions it cannot see apart.
    pub fn new(game: &'g G, opts: &ChanceOptions, ties: Ties, seed: u64) -> Result<Self, SolveError> {
        let mut valuer = ChanceValuer::new(game, opts)?;
        let root = game.initial_state()?;
        valuer.value_and_best(&root)?;
        valuer.check_hidden()?;
        Ok(ExpectimaxAgent {
            valuer,
            ties,
            rng: StdRng::seed_from_u64(seed),
        })
    }
}

impl<G: Game> Agent<G> for ExpectimaxAgent<'_, G> {
    fn name(&self) -> String {
        AgentSpec::Optimal(self.ties).to_string()
    }

    // The memo table is kept from game to game: it changes no answer.
    fn new_game(&mut self, _game: &G, seed: u64) -> Result<(), AgentError> {
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
        let (value, _) = self.valuer.value_and_best(state)?;
        let note = format!("expected value {} for {}", round(value), game.player_name(0));
        let mv = match self.valuer.root(state)? {
            Root::Player { best, .. } => {
                // `best` is in the game's order: `optimal:first` takes the first.
                let best: Vec<&G::Move> = best.iter().filter(|m| moves.contains(m)).collect();
                match (best.is_empty(), self.ties) {
                    (true, _) => return Err(no_move(game, player)),
                    (false, Ties::Random) => best[self.rng.random_range(0..best.len())].clone(),
                    (false, _) => best[0].clone(),
                }
            }
            Root::Simultaneous(stage) => {
                let mine = &stage.support()[player.min(1)];
                let mut x: f64 = self.rng.random::<f64>() * mine.iter().map(|(_, p)| p).sum::<f64>();
                let mut pick = mine.last().map(|(m, _)| m.clone());
                for (m, p) in mine {
                    if x < *p {
                        pick = Some(m.clone());
                        break;
                    }
                    x -= p;
                }
                pick.ok_or_else(|| no_move(game, player))?
            }
            Root::Chance { .. } | Root::Terminal => return Err(no_move(game, player)),
        };
        Ok(Choice { mv, note: Some(note) })
    }
}

/// A value as a note shows it: 4 decimals at most, no `-0`.
fn round(v: f64) -> f64 {
    (v * 1e4).round() / 1e4 + 0.0
}

fn no_move<G: Game>(game: &G, player: Player) -> AgentError {
    AgentError::Solve(SolveError::Inconsistent(format!(
        "expectiminimax found no move for {} here; this is a bug in gdl",
        game.player_name(player)
    )))
}
