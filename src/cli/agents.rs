//! Agents from their specs (`optimal`, `random`, `q:FILE`) for `match` and
//! `eval`.
//!
//! `q:FILE` is built here from the Q-table file, which is checked against the
//! game. The optimal and random agents below are minimal stand-ins, kept
//! private, until the shared agent factory of `solve::agent` exists.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{Context, Failure};
use crate::game::{Game, Player};
use crate::runtime::Interpreted;
use crate::solve::agent::{Agent, AgentError, AgentSpec, Choice};
use crate::solve::{SolveOptions, Solver, qfile};

/// The agent `spec` for `game`; `seed` seeds whatever it draws at random.
pub fn make_agent<'g>(
    spec: &AgentSpec,
    game: &'g Interpreted,
    seed: u64,
    ctx: &Context,
) -> Result<Box<dyn Agent<Interpreted> + 'g>, Failure> {
    match spec {
        AgentSpec::QTable(path) => {
            let agent = qfile::load_agent(path, game).map_err(|e| Failure::input(ctx.render(&e)))?;
            Ok(Box::new(agent))
        }
        AgentSpec::Optimal => {
            let prog = game.program();
            if prog.has_chance || prog.has_simultaneous {
                return Err(Failure::input(format!(
                    "error: `optimal` plays turn-taking games without chance; {} has {} moves",
                    game.name(),
                    if prog.has_chance { "chance" } else { "simultaneous" }
                )));
            }
            let solver = Solver::new(
                game,
                SolveOptions {
                    count_states: false,
                    ..SolveOptions::default()
                },
            )
            .map_err(|e| Failure::input(ctx.render(&e)))?;
            Ok(Box::new(Optimal {
                solver,
                rng: StdRng::seed_from_u64(seed),
            }))
        }
        AgentSpec::Random => Ok(Box::new(Random {
            rng: StdRng::seed_from_u64(seed),
        })),
        AgentSpec::Human => Err(Failure::input(
            "error: `human` cannot sit in a match of many games; use `gdl play` to play yourself",
        )),
    }
}

/// One of the optimal moves, drawn uniformly, so that games against it cover
/// more than one line.
struct Optimal<'g> {
    solver: Solver<'g, Interpreted>,
    rng: StdRng,
}

impl Agent<Interpreted> for Optimal<'_> {
    fn name(&self) -> String {
        "optimal".into()
    }

    fn choose(
        &mut self,
        _game: &Interpreted,
        state: &<Interpreted as Game>::State,
        player: Player,
        moves: &[<Interpreted as Game>::Move],
    ) -> Result<Choice<<Interpreted as Game>::Move>, AgentError> {
        let sign = if player == 0 { 1.0 } else { -1.0 };
        let values: Vec<f64> = self.solver.explain(state)?.iter().map(|m| sign * m.value).collect();
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let optimal: Vec<usize> = (0..values.len()).filter(|&i| values[i] == best).collect();
        let i = optimal[self.rng.random_range(0..optimal.len())];
        Ok(Choice {
            mv: moves[i],
            note: Some(format!("value {}", sign * best)),
        })
    }
}

/// A uniformly random legal move.
struct Random {
    rng: StdRng,
}

impl<G: Game> Agent<G> for Random {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(
        &mut self,
        _game: &G,
        _state: &G::State,
        _player: Player,
        moves: &[G::Move],
    ) -> Result<Choice<G::Move>, AgentError> {
        Ok(Choice::plain(moves[self.rng.random_range(0..moves.len())].clone()))
    }
}
