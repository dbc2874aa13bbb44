//! Random play to the end of a game, through every kind of node: the building
//! block of Monte Carlo evaluation.

use rand::Rng;

use crate::error_kind::RuntimeKind;
use crate::game::{Game, GameError, Repetitions, Turn};

/// Longest game a playout follows before calling the rules endless.
pub const MAX_PLAYOUT_PLIES: usize = 100_000;

/// Buffers reused across steps, so a playout allocates nothing per step.
pub struct Scratch<M> {
    pub(crate) moves: Vec<M>,
    pub(crate) joint: Vec<M>,
    pub(crate) outcomes: Vec<(M, f64)>,
}

impl<M> Default for Scratch<M> {
    fn default() -> Self {
        Scratch {
            moves: Vec::new(),
            joint: Vec::new(),
            outcomes: Vec::new(),
        }
    }
}

/// Samples a chance outcome by its probability.
pub fn sample_chance<G: Game, R: Rng + ?Sized>(
    game: &G,
    state: &G::State,
    rng: &mut R,
    scratch: &mut Scratch<G::Move>,
) -> Result<G::Move, GameError> {
    game.chance_outcomes(state, &mut scratch.outcomes)?;
    if scratch.outcomes.is_empty() {
        return Err(
            GameError::new(RuntimeKind::NoMoves, "a chance node with no outcome").in_state(game.state_text(state))
        );
    }
    let mut x: f64 = rng.random();
    for (m, p) in &scratch.outcomes {
        if x < *p {
            return Ok(m.clone());
        }
        x -= p;
    }
    Ok(scratch.outcomes.last().map(|(m, _)| m.clone()).expect("not empty"))
}

/// Plays one step at random; false when the game is already over.
pub fn random_step<G: Game, R: Rng + ?Sized>(
    game: &G,
    state: &mut G::State,
    rng: &mut R,
    scratch: &mut Scratch<G::Move>,
) -> Result<bool, GameError> {
    match game.turn(state)? {
        Turn::Terminal => return Ok(false),
        Turn::Chance => {
            let m = sample_chance(game, state, rng, scratch)?;
            game.apply(state, &m)?;
        }
        Turn::Player(_) => {
            game.legal_moves(state, &mut scratch.moves)?;
            let m = scratch.moves[rng.random_range(0..scratch.moves.len())].clone();
            game.apply(state, &m)?;
        }
        Turn::Simultaneous => {
            scratch.joint.clear();
            for p in 0..game.num_players() {
                game.legal_moves_of(state, p, &mut scratch.moves)?;
                if scratch.moves.is_empty() {
                    return Err(GameError::new(
                        RuntimeKind::NoMoves,
                        format!("{} has no move at a simultaneous node", game.player_name(p)),
                    )
                    .in_state(game.state_text(state)));
                }
                scratch
                    .joint
                    .push(scratch.moves[rng.random_range(0..scratch.moves.len())].clone());
            }
            game.apply_joint(state, &scratch.joint)?;
        }
    }
    Ok(true)
}

/// Plays at most `limit` moves at random, many a call where the game can
/// (`Game::play_random_moves`), a step where it stopped, and again; once
/// it plays none, a step at a time as for any game. True when a step found
/// the game over; false after `limit` moves.
pub fn play_at_random<G: Game, R: Rng + ?Sized>(
    game: &G,
    state: &mut G::State,
    rng: &mut R,
    scratch: &mut Scratch<G::Move>,
    limit: usize,
) -> Result<bool, GameError> {
    let mut plies = 0;
    loop {
        let mut pick = |n: usize| rng.random_range(0..n);
        let played = game.play_random_moves(state, &mut scratch.moves, &mut pick, limit - plies)?;
        plies += played;
        if played == 0 || plies >= limit {
            break;
        }
        if !random_step(game, state, rng, scratch)? {
            return Ok(true);
        }
        plies += 1;
    }
    for _ in plies..limit {
        if !random_step(game, state, rng, scratch)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Plays at random until the game ends.
pub fn random_playout<G: Game, R: Rng + ?Sized>(
    game: &G,
    state: &mut G::State,
    rng: &mut R,
    scratch: &mut Scratch<G::Move>,
) -> Result<(), GameError> {
    random_playout_after(game, state, &[], rng, scratch)
}

/// Plays at random until the game ends, from `state` reached by `line`: the
/// game's positions before it, which a repetition rule goes on counting
/// (empty: the game starts at `state`).
pub fn random_playout_after<G: Game, R: Rng + ?Sized>(
    game: &G,
    state: &mut G::State,
    line: &[G::State],
    rng: &mut R,
    scratch: &mut Scratch<G::Move>,
) -> Result<(), GameError> {
    match Repetitions::of(game) {
        None => {
            if play_at_random(game, state, rng, scratch, MAX_PLAYOUT_PLIES)? {
                return Ok(());
            }
        }
        // A repetition rule needs each position of the playout.
        Some(mut seen) => {
            seen.resume(line);
            seen.after_move(game, state)?;
            if game.turn(state)? == Turn::Terminal {
                return Ok(());
            }
            for _ in 0..MAX_PLAYOUT_PLIES {
                if !random_step(game, state, rng, scratch)? {
                    return Ok(());
                }
                seen.after_move(game, state)?;
            }
        }
    }
    Err(GameError::new(
        RuntimeKind::Endless,
        format!("a game ran {MAX_PLAYOUT_PLIES} moves without ending"),
    )
    .in_state(game.state_text(state))
    .with_help("check that every `end when` clause can become true"))
}
