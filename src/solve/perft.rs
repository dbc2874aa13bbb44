//! Perft: how many move sequences of each length lead from a position, as
//! chess programmers count them to check a move generator against published
//! figures. Every legal move is one step; at a chance node every outcome is
//! one (whatever its probability), at a simultaneous node every joint move
//! (one move per player). A sequence stops where the game ends, the
//! repetition rule's end included (`end when repeated N`: the line's
//! positions are kept, as a play loop keeps them).
//!
//! Depth after depth (iterative deepening), so that a search stopped by a
//! limit still gives every depth it finished. Depth first within a depth:
//! the memory it holds grows with the depth alone. The last step of each depth
//! is counted, not played (bulk counting): a sequence of length d is a move
//! available at the end of one of length d − 1.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::{Game, GameError, Player, Turn};

/// How far a count may go.
#[derive(Clone, Copy, Debug, Default)]
pub struct PerftLimits<'a> {
    /// Positions played, over all depths.
    pub max_nodes: Option<u64>,
    pub time_limit: Option<Duration>,
    /// Set from outside (Ctrl-C) to stop.
    pub stop: Option<&'a AtomicBool>,
}

/// The counts of the depths finished.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Perft {
    /// `sequences[d - 1]`: the move sequences of length d.
    pub sequences: Vec<u64>,
    /// Positions played (moves applied) for all of them.
    pub nodes: u64,
}

/// Why a count stopped before the depth asked for.
#[derive(Debug)]
pub enum PerftStop {
    /// The rules failed in a position (with what was finished before).
    Game(GameError, Perft),
    /// A limit, named as a user sets it, was reached during depth `depth`.
    Limit {
        what: &'static str,
        depth: usize,
        done: Perft,
    },
}

/// Counts the move sequences of length 1 to `depth` from `root`.
pub fn perft<G: Game>(game: &G, root: &G::State, depth: usize, limits: PerftLimits) -> Result<Perft, PerftStop> {
    let mut counter = Counter::new(game, limits);
    let mut done = Perft::default();
    for d in 1..=depth {
        let mut history = vec![root.clone()];
        match counter.count(root, d, &mut history) {
            Ok(n) => {
                done.sequences.push(n);
                done.nodes = counter.nodes;
            }
            Err(Halt::Game(e)) => return Err(PerftStop::Game(e, done)),
            Err(Halt::Limit(what)) => return Err(PerftStop::Limit { what, depth: d, done }),
        }
    }
    Ok(done)
}

/// The sequences of length `depth` that begin with each move of `root` (a
/// "divide", to find which move a generator gets wrong): each first step
/// as `Game::move_text` (or, at a chance or simultaneous root, the
/// outcome or the joint move) with its count.
pub fn divide<G: Game>(
    game: &G,
    root: &G::State,
    depth: usize,
    limits: PerftLimits,
) -> Result<Vec<(String, u64)>, PerftStop> {
    let mut counter = Counter::new(game, limits);
    let halt = |h: Halt| match h {
        Halt::Game(e) => PerftStop::Game(e, Perft::default()),
        Halt::Limit(what) => PerftStop::Limit {
            what,
            depth,
            done: Perft::default(),
        },
    };
    let steps = counter.steps(root).map_err(halt)?;
    let mut out = Vec::with_capacity(steps.len());
    for (text, next) in steps {
        let mut history = vec![root.clone()];
        let n = counter
            .after(next, depth.saturating_sub(1), &mut history)
            .map_err(halt)?;
        out.push((text, n));
    }
    Ok(out)
}

enum Halt {
    Game(GameError),
    Limit(&'static str),
}

impl From<GameError> for Halt {
    fn from(e: GameError) -> Self {
        Halt::Game(e)
    }
}

/// How often the clock and the stop flag are read, in positions.
const CHECK_EVERY: u64 = 4096;

struct Counter<'g, 'l, G: Game> {
    game: &'g G,
    limits: PerftLimits<'l>,
    started: Instant,
    nodes: u64,
    repeated: Option<u32>,
    /// One buffer of moves per depth, reused.
    moves: Vec<Vec<G::Move>>,
}

impl<'g, 'l, G: Game> Counter<'g, 'l, G> {
    fn new(game: &'g G, limits: PerftLimits<'l>) -> Self {
        Counter {
            game,
            limits,
            started: Instant::now(),
            nodes: 0,
            repeated: game.repetition(),
            moves: Vec::new(),
        }
    }

    /// Sequences of length `depth` (at least 1) from `state`, the last of
    /// `history`.
    fn count(&mut self, state: &G::State, depth: usize, history: &mut Vec<G::State>) -> Result<u64, Halt> {
        let game = self.game;
        match game.turn(state)? {
            Turn::Terminal => Ok(0),
            Turn::Player(_) => {
                let mut moves = self.buffer(depth);
                game.legal_moves(state, &mut moves)?;
                let total = if depth == 1 {
                    Ok(moves.len() as u64)
                } else {
                    let mut total = 0;
                    let mut result = Ok(());
                    for mv in &moves {
                        let mut next = state.clone();
                        if let Err(e) = game.apply(&mut next, mv) {
                            result = Err(e.into());
                            break;
                        }
                        match self.after(next, depth - 1, history) {
                            Ok(n) => total += n,
                            Err(h) => {
                                result = Err(h);
                                break;
                            }
                        }
                    }
                    result.map(|()| total)
                };
                self.moves[depth - 1] = moves;
                total
            }
            Turn::Chance | Turn::Simultaneous => {
                let steps = self.steps(state)?;
                if depth == 1 {
                    return Ok(steps.len() as u64);
                }
                let mut total = 0;
                for (_, next) in steps {
                    total += self.after(next, depth - 1, history)?;
                }
                Ok(total)
            }
        }
    }

    /// Sequences of length `depth` from `next`, which a step just reached
    /// from the last of `history`; `depth` 0 counts the step itself.
    fn after(&mut self, next: G::State, depth: usize, history: &mut Vec<G::State>) -> Result<u64, Halt> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.check()?;
        }
        if let Some(limit) = self.limits.max_nodes
            && self.nodes > limit
        {
            return Err(Halt::Limit("--max-nodes"));
        }
        if depth == 0 {
            return Ok(1);
        }
        let Some(times) = self.repeated else {
            return self.count(&next, depth, history);
        };
        // The rule ends the game when a move reaches a position for the Nth time.
        let seen = history.iter().filter(|s| **s == next).count();
        if seen + 1 >= times as usize {
            return Ok(0);
        }
        history.push(next.clone());
        let n = self.count(&next, depth, history);
        history.pop();
        n
    }

    /// Every step from `state` (a player's move, a chance outcome, a joint
    /// move): its text and the state it reaches.
    fn steps(&mut self, state: &G::State) -> Result<Vec<(String, G::State)>, Halt> {
        let game = self.game;
        let mut out = Vec::new();
        match game.turn(state)? {
            Turn::Terminal => {}
            Turn::Player(_) => {
                let mut moves = Vec::new();
                game.legal_moves(state, &mut moves)?;
                for mv in moves {
                    let mut next = state.clone();
                    game.apply(&mut next, &mv)?;
                    out.push((game.move_text(&mv), next));
                }
            }
            Turn::Chance => {
                let mut outcomes = Vec::new();
                game.chance_outcomes(state, &mut outcomes)?;
                for (mv, _) in outcomes {
                    let mut next = state.clone();
                    game.apply(&mut next, &mv)?;
                    out.push((game.move_text(&mv), next));
                }
            }
            Turn::Simultaneous => {
                let n = game.num_players();
                let mut each = Vec::with_capacity(n);
                for p in 0..n {
                    let mut moves = Vec::new();
                    game.legal_moves_of(state, p as Player, &mut moves)?;
                    if moves.is_empty() {
                        return Err(Halt::Game(GameError::new(
                            crate::game::RuntimeKind::Internal,
                            format!(
                                "at a simultaneous move in `{}`, {} has no legal move",
                                game.state_text(state),
                                game.player_name(p)
                            ),
                        )));
                    }
                    each.push(moves);
                }
                let mut pick = vec![0usize; n];
                loop {
                    let joint: Vec<G::Move> = (0..n).map(|p| each[p][pick[p]].clone()).collect();
                    let mut next = state.clone();
                    game.apply_joint(&mut next, &joint)?;
                    let text = joint.iter().map(|m| game.move_text(m)).collect::<Vec<_>>().join(" ");
                    out.push((format!("({text})"), next));
                    // The next joint move, the last player's choice turning fastest.
                    let mut p = n;
                    loop {
                        if p == 0 {
                            return Ok(out);
                        }
                        p -= 1;
                        pick[p] += 1;
                        if pick[p] < each[p].len() {
                            break;
                        }
                        pick[p] = 0;
                    }
                }
            }
        }
        Ok(out)
    }

    /// The move buffer of a depth, taken out while it is used.
    fn buffer(&mut self, depth: usize) -> Vec<G::Move> {
        if self.moves.len() < depth {
            self.moves.resize_with(depth, Vec::new);
        }
        std::mem::take(&mut self.moves[depth - 1])
    }

    fn check(&self) -> Result<(), Halt> {
        if self.limits.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(Halt::Limit("a signal"));
        }
        if let Some(t) = self.limits.time_limit
            && self.started.elapsed() >= t
        {
            return Err(Halt::Limit("--time-limit"));
        }
        Ok(())
    }
}
