//! Many games between agents, every agent in every seat in turn: game `g`
//! seats agent `(seat + g) mod n` in seat `seat`, so with two agents they
//! alternate who moves first and each sits first in half the games.

use rand::Rng;

use super::agent::{Agent, AgentError};
use super::simulate::{MAX_PLAYOUT_PLIES, Scratch, sample_chance};
use crate::game::{Game, GameError, Turn, all_returns};
use crate::report::stats::Tally;

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
    for agent in agents.iter_mut() {
        agent.new_game(game)?;
    }
    let mut state = game.initial_state()?;
    let mut scratch = Scratch::default();
    let mut moves = Vec::new();
    for _ in 0..MAX_PLAYOUT_PLIES {
        match game.turn(&state)? {
            Turn::Terminal => return Ok(all_returns(game, &state)?),
            Turn::Chance => {
                let m = sample_chance(game, &state, rng, &mut scratch)?;
                game.apply(&mut state, &m)?;
            }
            Turn::Player(p) => {
                game.legal_moves(&state, &mut moves)?;
                let mv = ask(game, agents, seating, &state, p, &moves)?;
                game.apply(&mut state, &mv)?;
            }
            Turn::Simultaneous => {
                let mut joint = Vec::with_capacity(seating.len());
                for p in 0..game.num_players() {
                    game.legal_moves_of(&state, p, &mut moves)?;
                    joint.push(ask(game, agents, seating, &state, p, &moves)?);
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

/// Asks player `p`'s agent for a move, and checks that it is legal.
fn ask<G: Game>(
    game: &G,
    agents: &mut [Box<dyn Agent<G> + '_>],
    seating: &[usize],
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
    let choice = agent.choose(game, state, p, moves)?;
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
    let n = game.num_players();
    if agents.len() != n {
        return Err(AgentError::Failed(format!(
            "{} has {n} players, but {} agents were given",
            game.name(),
            agents.len()
        )));
    }
    let names = agents.iter().map(|a| a.name()).collect();
    let seats = (0..n).map(|p| game.player_name(p).to_string()).collect();
    let mut tally = Tally::new(names, seats);
    for g in 0..games {
        let seats = seating(n, g);
        let returns = play_game(game, agents, &seats, rng)?;
        tally.record(&seats, &returns);
        after_game(g + 1);
    }
    Ok(tally)
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
