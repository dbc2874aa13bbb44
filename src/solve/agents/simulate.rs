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

/// Plays at random until the game ends.
pub fn random_playout<G: Game, R: Rng + ?Sized>(
    game: &G,
    state: &mut G::State,
    rng: &mut R,
    scratch: &mut Scratch<G::Move>,
) -> Result<(), GameError> {
    // A repetition rule needs the playout's positions: one buffer per
    // playout, none for a game without the rule.
    let mut seen = Repetitions::of(game);
    if let Some(seen) = &mut seen {
        seen.restart(state);
    }
    let mut plies = 0;
    // Many moves at once where the game can (a repetition rule needs each
    // position seen), a step where it stopped, and again; once it plays
    // none, a step at a time as for any game.
    if seen.is_none() {
        loop {
            let mut pick = |n: usize| rng.random_range(0..n);
            let played = game.play_random_moves(state, &mut scratch.moves, &mut pick, MAX_PLAYOUT_PLIES - plies)?;
            plies += played;
            if played == 0 || plies >= MAX_PLAYOUT_PLIES {
                break;
            }
            if !random_step(game, state, rng, scratch)? {
                return Ok(());
            }
            plies += 1;
        }
    }
    for _ in plies..MAX_PLAYOUT_PLIES {
        if !random_step(game, state, rng, scratch)? {
            return Ok(());
        }
        if let Some(seen) = &mut seen {
            seen.after_move(game, state)?;
        }
    }
    Err(GameError::new(
        RuntimeKind::Endless,
        format!("a game ran {MAX_PLAYOUT_PLIES} moves without ending"),
    )
    .in_state(game.state_text(state))
    .with_help("check that every `end when` clause can become true"))
}
