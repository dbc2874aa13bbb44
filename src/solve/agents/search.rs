//! Agents for games with hidden information, chance and simultaneous moves.
//!
//! `SearchAgent` is determinized Monte Carlo search: it draws what it cannot
//! see (`Game::sample_hidden`) consistently with what it has observed, tries
//! each of its moves in that world against the other players' simultaneous
//! choices (drawn uniformly: an expectation over what they may play), plays
//! the game out at random, and keeps the move with the best average return.
//! The same worlds and the same number of playouts serve every candidate move,
//! so their averages compare fairly. It works for any game file, any number of
//! players, and for turn-taking games too.
//!
//! `GreedyAgent` is the simple heuristic: the move with the lowest expected
//! immediate penalty (the change in its own score over one step).

use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::agent::{Agent, AgentError, Choice};
use super::move_budget::{Clock, Interrupt};
use super::simulate::{Scratch, random_playout_after, sample_chance};
use super::step::Step;
use crate::error_kind::RuntimeKind;
use crate::game::{Game, GameError, Player, Turn};

/// How much a search agent may think per move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchBudget {
    /// Worlds drawn per move (each tries every candidate move once).
    pub samples: usize,
    /// A time limit per move; the samples stop early when it is reached.
    pub time: Option<Duration>,
    /// Stops a move's search from outside (Ctrl-C); the move then fails.
    pub stop: Option<Interrupt>,
}

impl Default for SearchBudget {
    fn default() -> Self {
        SearchBudget {
            samples: 200,
            time: None,
            stop: None,
        }
    }
}

/// Plays `mine` for `player` in `state`, with every other player's
/// simultaneous choice drawn at random.
fn step_with<G: Game, R: Rng + ?Sized>(
    game: &G,
    state: &mut G::State,
    player: Player,
    mine: &G::Move,
    rng: &mut R,
    scratch: &mut Scratch<G::Move>,
) -> Result<(), GameError> {
    match game.turn(state)? {
        Turn::Simultaneous => {
            let Scratch { moves, joint, .. } = scratch;
            joint.clear();
            for p in 0..game.num_players() {
                if p == player {
                    joint.push(mine.clone());
                    continue;
                }
                game.legal_moves_of(state, p, moves)?;
                if moves.is_empty() {
                    return Err(GameError::new(
                        RuntimeKind::NoMoves,
                        format!("{} has no move at a simultaneous node", game.player_name(p)),
                    ));
                }
                joint.push(moves[rng.random_range(0..moves.len())].clone());
            }
            game.apply_joint(state, joint)
        }
        Turn::Chance => {
            let m = sample_chance(game, state, rng, scratch)?;
            game.apply(state, &m)
        }
        _ => game.apply(state, mine),
    }
}

/// Determinized Monte Carlo search with a per-move budget.
pub struct SearchAgent<S> {
    budget: SearchBudget,
    rng: StdRng,
    /// Under a repetition rule: the positions of this game before the one
    /// to move in, which each playout goes on counting.
    history: Option<Vec<S>>,
}

impl<S> SearchAgent<S> {
    pub fn new(budget: SearchBudget, seed: u64) -> Self {
        SearchAgent {
            budget,
            rng: StdRng::seed_from_u64(seed),
            history: None,
        }
    }
}

impl<G: Game> Agent<G> for SearchAgent<G::State> {
    fn name(&self) -> String {
        // As written on the command line: `search` when the clock alone decides.
        match self.budget.samples {
            usize::MAX => "search".to_string(),
            n => format!("search:{n}"),
        }
    }

    fn new_game(&mut self, game: &G, seed: u64) -> Result<(), AgentError> {
        self.rng = StdRng::seed_from_u64(seed);
        self.history = game.repetition().map(|_| Vec::new());
        Ok(())
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
        if moves.len() == 1 {
            return Ok(Choice::plain(moves[0].clone()));
        }
        // The line to the position to move in, which a playout goes on from.
        let line: Vec<G::State> = match &self.history {
            Some(h) => h.iter().cloned().chain([state.clone()]).collect(),
            None => Vec::new(),
        };
        let clock = Clock::start(self.budget.samples.max(1) as u64, self.budget.time).stopped_by(self.budget.stop);
        let mut totals = vec![0.0f64; moves.len()];
        let mut samples = 0usize;
        let mut scratch = Scratch::default();
        while clock.go_on(samples as u64) {
            let world = game.sample_hidden(state, player, &mut self.rng)?;
            for (i, mv) in moves.iter().enumerate() {
                let mut s = world.clone();
                step_with(game, &mut s, player, mv, &mut self.rng, &mut scratch)?;
                random_playout_after(game, &mut s, &line, &mut self.rng, &mut scratch)?;
                totals[i] += game.returns(&s, player)?;
            }
            samples += 1;
        }
        if Interrupt::came(self.budget.stop) {
            return Err(AgentError::Failed("the search of `search` was interrupted".into()));
        }
        let best = (0..moves.len())
            .max_by(|&a, &b| totals[a].total_cmp(&totals[b]).then(b.cmp(&a)))
            .expect("moves are not empty");
        Ok(Choice {
            mv: moves[best].clone(),
            note: Some(format!(
                "return {:.2} on average over {samples} worlds",
                totals[best] / samples as f64
            )),
        })
    }
}

/// The move with the lowest expected immediate penalty: the change in its own
/// score (`Game::running_scores`) over one step, averaged over drawn worlds and
/// the other players' random choices. Without scores, a random move.
pub struct GreedyAgent {
    samples: usize,
    rng: StdRng,
}

impl GreedyAgent {
    pub fn new(samples: usize, seed: u64) -> Self {
        GreedyAgent {
            samples: samples.max(1),
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Agent<G> for GreedyAgent {
    fn name(&self) -> String {
        "greedy".to_string()
    }

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
        let Some(before) = game.running_scores(state)? else {
            let i = self.rng.random_range(0..moves.len());
            return Ok(Choice::plain(moves[i].clone()));
        };
        if moves.len() == 1 {
            return Ok(Choice::plain(moves[0].clone()));
        }
        // Lower is better when the lowest score wins; flip the sign otherwise.
        let sign = if game.lowest_score_wins() { 1.0 } else { -1.0 };
        let mut penalty = vec![0.0f64; moves.len()];
        let mut scratch = Scratch::default();
        for _ in 0..self.samples {
            let world = game.sample_hidden(state, player, &mut self.rng)?;
            for (i, mv) in moves.iter().enumerate() {
                let mut s = world.clone();
                step_with(game, &mut s, player, mv, &mut self.rng, &mut scratch)?;
                let after = game.running_scores(&s)?.unwrap_or_else(|| before.clone());
                penalty[i] += sign * (after[player] - before[player]);
            }
        }
        let best = (0..moves.len())
            .min_by(|&a, &b| penalty[a].total_cmp(&penalty[b]).then(a.cmp(&b)))
            .expect("moves are not empty");
        Ok(Choice {
            mv: moves[best].clone(),
            note: Some(format!("expected penalty {:.2}", penalty[best] / self.samples as f64)),
        })
    }
}
