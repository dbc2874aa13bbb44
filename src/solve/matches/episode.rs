//! One game between agents, move by move, for `gdl play`, `gdl trace` and
//! every game of `gdl match`: each step is handed to the caller as it
//! happens, so it can be printed before the next agent thinks (a person at the
//! terminal sees the board).

use std::time::Instant;

use rand::Rng;

use super::stats::DecisionTimes;
use crate::error_kind::RuntimeKind;
use crate::game::{Game, GameError, MaxMoves, Player, Repetitions, Turn};
use crate::solve::agents::agent::{Agent, AgentError, Timing};
use crate::solve::agents::simulate::{MAX_PLAYOUT_PLIES, Scratch, sample_chance};
pub use crate::solve::agents::step::{Played, Step};

/// What `play_out` calls after each step, with the state it led to.
pub type AfterStep<'a, G> = dyn FnMut(&Step<<G as Game>::Move>, &<G as Game>::State) -> Result<(), AgentError> + 'a;

/// The agents of a game, by player.
pub type Seated<'s, 'a, G> = [&'s mut (dyn Agent<G> + 'a)];

/// Plays from `state` to the end: `agents[p]` plays for player `p`, chance is
/// drawn from `rng`. `times[p]` gets the time of each of player `p`'s
/// decisions (a choice among more than one move). `after` sees each step and
/// the state it led to. Returns the final state. The caller starts the
/// agents' game (`Agent::new_game`).
pub fn play_out<G: Game, R: Rng + ?Sized>(
    game: &G,
    mut state: G::State,
    agents: &mut Seated<'_, '_, G>,
    rng: &mut R,
    times: &mut [DecisionTimes],
    after: &mut AfterStep<'_, G>,
) -> Result<G::State, AgentError> {
    if agents.len() != game.num_players() || times.len() != agents.len() {
        return Err(AgentError::Failed(format!(
            "{} has {} players, but {} agents were given",
            game.name(),
            game.num_players(),
            agents.len()
        )));
    }
    let mut scratch = Scratch::default();
    let mut moves = Vec::new();
    // Only an agent that keeps its own model of the game (an external
    // program) is shown every step; the others cost no copy of the state.
    let watching: Vec<bool> = agents.iter().map(|a| a.wants_steps()).collect();
    let watched = watching.contains(&true);
    // The positions so far, for a repetition rule (`end when repeated N`).
    let mut seen = Repetitions::of(game);
    if let Some(seen) = &mut seen {
        seen.restart(&state);
    }
    // The file's `max moves N`, counted from here (a game from a given
    // position has made at least as many).
    let mut bound = MaxMoves::of(game);
    for _ in 0..MAX_PLAYOUT_PLIES {
        let before = watched.then(|| state.clone());
        let step = match game.turn(&state)? {
            Turn::Terminal => return Ok(state),
            Turn::Chance => {
                let m = sample_chance(game, &state, rng, &mut scratch)?;
                game.apply(&mut state, &m)?;
                Step::Chance(m)
            }
            Turn::Player(p) => {
                if let Some(bound) = &mut bound {
                    bound.count(game, &state)?;
                }
                game.legal_moves(&state, &mut moves)?;
                let played = ask(game, &mut *agents[p], &mut times[p], &state, p, &moves)?;
                game.apply(&mut state, &played.mv)?;
                Step::Moves(vec![played])
            }
            Turn::Simultaneous => {
                if let Some(bound) = &mut bound {
                    bound.count(game, &state)?;
                }
                // Every player chooses before any choice is revealed.
                let mut all = Vec::with_capacity(game.num_players());
                for (p, (agent, took)) in agents.iter_mut().zip(times.iter_mut()).enumerate() {
                    game.legal_moves_of(&state, p, &mut moves)?;
                    all.push(ask(game, &mut **agent, took, &state, p, &moves)?);
                }
                let joint: Vec<G::Move> = all.iter().map(|x| x.mv.clone()).collect();
                game.apply_joint(&mut state, &joint)?;
                Step::Moves(all)
            }
        };
        if let Some(seen) = &mut seen {
            seen.after_move(game, &mut state)?;
        }
        if let Some(before) = &before {
            for (p, agent) in agents.iter_mut().enumerate() {
                if watching[p] {
                    agent.after_step(game, p, before, &step, &state);
                }
            }
        }
        after(&step, &state)?;
    }
    Err(GameError::new(
        RuntimeKind::Endless,
        format!("a game ran {MAX_PLAYOUT_PLIES} moves without ending"),
    )
    .in_state(game.state_text(&state))
    .into())
}

/// Asks `agent` for player `p`'s move, and checks that it is legal; the time
/// it took counts as a decision when there was more than one move.
fn ask<G: Game>(
    game: &G,
    agent: &mut (dyn Agent<G> + '_),
    took: &mut DecisionTimes,
    state: &G::State,
    p: Player,
    moves: &[G::Move],
) -> Result<Played<G::Move>, AgentError> {
    if moves.is_empty() {
        return Err(GameError::new(
            RuntimeKind::NoMoves,
            format!("{} has no legal move, but the game is not over", game.player_name(p)),
        )
        .in_state(game.state_text(state))
        .into());
    }
    let started = Instant::now();
    let choice = agent.choose(game, state, p, moves)?;
    match agent.timing() {
        Timing::Clock if moves.len() > 1 => took.add(started.elapsed()),
        Timing::Clock | Timing::None => {}
        Timing::Answer(d) => took.add(d),
        Timing::StartUp(d) => took.add_start_up(d),
    }
    if !moves.contains(&choice.mv) {
        return Err(AgentError::Failed(format!(
            "{} chose {}, which is not a legal move in {} (a bug in the agent)",
            agent.name(),
            game.move_text(&choice.mv),
            game.state_text(state)
        )));
    }
    Ok(Played {
        player: p,
        mv: choice.mv,
        note: choice.note,
    })
}
