//! Many games between agents, every agent in every seat in turn: game `g`
//! seats agent `(seat + g) mod n` in seat `seat`, so with two agents they
//! alternate who moves first and each sits first in half the games.
//!
//! Each game is kept ([`GameRecord`]), so a report can list the games or draw
//! their points; each agent's time per decision is measured around its
//! `choose` calls that had more than one legal move.
//!
//! The games are played one after the other: the agents keep their random
//! generators (and the optimal agent its memo table) from game to game, so
//! a game's course depends on the ones before it, and playing them on several
//! threads would change the results.

use std::time::Instant;

use rand::Rng;

use super::agent::{Agent, AgentError};
use super::simulate::{MAX_PLAYOUT_PLIES, Scratch, sample_chance};
use crate::game::{Game, GameError, Turn, all_returns};
use crate::report::stats::{DecisionTimes, Measure, Tally};

/// One game of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// `seating[seat]`: the agent in each seat.
    pub seating: Vec<usize>,
    /// Every seat's utility (`Game::returns`).
    pub returns: Vec<f64>,
    /// Every seat's final score, for games decided by points (`Game::scores`).
    pub scores: Option<Vec<f64>>,
}

impl GameRecord {
    /// Every seat's points or utility, as `measure` says.
    pub fn values(&self, measure: Measure) -> &[f64] {
        match (measure, &self.scores) {
            (Measure::Points { .. }, Some(s)) => s,
            _ => &self.returns,
        }
    }

    /// The seat `agent` sat in.
    pub fn seat_of(&self, agent: usize) -> usize {
        self.seating.iter().position(|&a| a == agent).unwrap_or(0)
    }
}

/// Everything a match found.
#[derive(Clone, Debug)]
pub struct MatchResult {
    /// Wins, draws, losses and averages, per agent and per seat.
    pub tally: Tally,
    /// Every game, in the order played (when asked for).
    pub games: Vec<GameRecord>,
    /// `times[agent]`: how long each agent took per decision.
    pub times: Vec<DecisionTimes>,
}

/// Agent of each seat in game `g` of a match of `n` agents.
pub fn seating(n: usize, g: u64) -> Vec<usize> {
    (0..n).map(|seat| (seat + (g % n as u64) as usize) % n).collect()
}

/// Plays one game from the initial state: `agents[seating[p]]` plays for
/// player `p`; chance is drawn from `rng`. Returns every player's utility.
pub fn play_game<G: Game, R: Rng + ?Sized>(
    game: &G,
    agents: &mut [Box<dyn Agent<G> + '_>],
    seating: &[usize],
    rng: &mut R,
) -> Result<Vec<f64>, AgentError> {
    let mut times = vec![DecisionTimes::default(); agents.len()];
    play_timed(game, agents, seating, rng, &mut times).map(|r| r.returns)
}

/// [`play_game`], adding each decision's time to `times[agent]` and keeping
/// the scores too.
pub fn play_timed<G: Game, R: Rng + ?Sized>(
    game: &G,
    agents: &mut [Box<dyn Agent<G> + '_>],
    seating: &[usize],
    rng: &mut R,
    times: &mut [DecisionTimes],
) -> Result<GameRecord, AgentError> {
    for agent in agents.iter_mut() {
        agent.new_game(game)?;
    }
    let mut state = game.initial_state()?;
    let mut scratch = Scratch::default();
    let mut moves = Vec::new();
    for _ in 0..MAX_PLAYOUT_PLIES {
        match game.turn(&state)? {
            Turn::Terminal => {
                return Ok(GameRecord {
                    seating: seating.to_vec(),
                    returns: all_returns(game, &state)?,
                    scores: game.scores(&state)?,
                });
            }
            Turn::Chance => {
                let m = sample_chance(game, &state, rng, &mut scratch)?;
                game.apply(&mut state, &m)?;
            }
            Turn::Player(p) => {
                game.legal_moves(&state, &mut moves)?;
                let mv = ask(game, agents, seating, times, &state, p, &moves)?;
                game.apply(&mut state, &mv)?;
            }
            Turn::Simultaneous => {
                let mut joint = Vec::with_capacity(seating.len());
                for p in 0..game.num_players() {
                    game.legal_moves_of(&state, p, &mut moves)?;
                    joint.push(ask(game, agents, seating, times, &state, p, &moves)?);
                }
                game.apply_joint(&mut state, &joint)?;
            }
        }
    }
    Err(GameError::new(
        "gdl::runtime::endless",
        format!("a game ran {MAX_PLAYOUT_PLIES} moves without ending"),
    )
    .in_state(game.state_text(&state))
    .into())
}

/// Asks player `p`'s agent for a move, and checks that it is legal. The
/// time it took counts as a decision when there was more than one move.
fn ask<G: Game>(
    game: &G,
    agents: &mut [Box<dyn Agent<G> + '_>],
    seating: &[usize],
    times: &mut [DecisionTimes],
    state: &G::State,
    p: usize,
    moves: &[G::Move],
) -> Result<G::Move, AgentError> {
    if moves.is_empty() {
        return Err(GameError::new(
            "gdl::runtime::no_moves",
            format!("{} has no legal move, but the game is not over", game.player_name(p)),
        )
        .in_state(game.state_text(state))
        .into());
    }
    let agent = &mut agents[seating[p]];
    let started = Instant::now();
    let choice = agent.choose(game, state, p, moves)?;
    if moves.len() > 1 {
        times[seating[p]].add(started.elapsed());
    }
    if !moves.contains(&choice.mv) {
        return Err(AgentError::Failed(format!(
            "{} chose {}, which is not a legal move in {} (a bug in the agent)",
            agent.name(),
            game.move_text(&choice.mv),
            game.state_text(state)
        )));
    }
    Ok(choice.mv)
}

/// Plays `games` games between `agents` (one per player, rotating seats) and
/// tallies them; `after_game` is called with the number played so far.
pub fn play_match<G: Game, R: Rng + ?Sized>(
    game: &G,
    agents: &mut [Box<dyn Agent<G> + '_>],
    games: u64,
    rng: &mut R,
    after_game: &mut dyn FnMut(u64),
) -> Result<Tally, AgentError> {
    run_match(game, agents, games, rng, false, after_game).map(|m| m.tally)
}

/// [`play_match`], with each agent's decision times, and every game when
/// `keep_games` (a long match without them needs no memory per game). The
/// tally counts points when every game ended with scores (`Game::scores`),
/// else utility.
pub fn run_match<G: Game, R: Rng + ?Sized>(
    game: &G,
    agents: &mut [Box<dyn Agent<G> + '_>],
    games: u64,
    rng: &mut R,
    keep_games: bool,
    after_game: &mut dyn FnMut(u64),
) -> Result<MatchResult, AgentError> {
    let n = game.num_players();
    if agents.len() != n {
        return Err(AgentError::Failed(format!(
            "{} has {n} players, but {} agents were given",
            game.name(),
            agents.len()
        )));
    }
    let names: Vec<String> = agents.iter().map(|a| a.name()).collect();
    let seats: Vec<String> = (0..n).map(|p| game.player_name(p).to_string()).collect();
    // Both are kept until the end shows whether every game had scores.
    let mut utility = Tally::new(names.clone(), seats.clone(), Measure::Utility);
    let lowest_wins = game.lowest_score_wins();
    let mut points = Tally::new(names, seats, Measure::Points { lowest_wins });
    let mut all_scored = true;
    let mut times = vec![DecisionTimes::default(); n];
    let mut records = Vec::new();
    for g in 0..games {
        let record = play_timed(game, agents, &seating(n, g), rng, &mut times)?;
        utility.record(&record.seating, &record.returns);
        match &record.scores {
            Some(scores) => points.record(&record.seating, scores),
            None => all_scored = false,
        }
        if keep_games {
            records.push(record);
        }
        after_game(g + 1);
    }
    Ok(MatchResult {
        tally: if all_scored && games > 0 { points } else { utility },
        games: records,
        times,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_rotate() {
        assert_eq!(seating(2, 0), vec![0, 1]);
        assert_eq!(seating(2, 1), vec![1, 0]);
        assert_eq!(seating(3, 1), vec![1, 2, 0]);
        assert_eq!(seating(3, 5), vec![2, 0, 1]);
    }
}
