//! Sprague–Grundy values of impartial games.
//!
//! A game is impartial when the moves from a position, and where they
//! lead, do not depend on who is to move (Nim, Kayles); under normal play
//! (whoever cannot move loses) every position then has a Grundy value, the
//! mex (minimum excluded number) of its options' values, and the player to
//! move loses exactly when it is 0. A sum of games has the XOR of their
//! values, which is what makes the values worth having.
//!
//! Positions are keyed by `Game::state_text`, the position without whose
//! turn it is. Impartiality is checked on every position reached with
//! either player to move: its moves and their results must read the same.
//! (A position reached with one player to move only cannot be compared;
//! the check covers what the search sees.) Normal play is checked at every
//! end: the player who made the last move must have won. Misère games are
//! refused: their outcome is not decided by Grundy values.

use std::hash::{Hash, Hasher};
use std::time::Instant;

use rustc_hash::{FxHashMap, FxHasher};

use super::solve_error::SolveError;
use crate::game::{Game, Player, Turn, no_legal_move};

/// The result of a Grundy solve.
#[derive(Clone, Debug, PartialEq)]
pub struct GrundySolution<M> {
    /// The root's Grundy value: 0 exactly when the player to move loses.
    pub value: u32,
    /// Each legal move at the root with the Grundy value of its result.
    pub moves: Vec<(M, u32)>,
    /// Positions valued (without whose turn it is).
    pub positions: u64,
    /// Positions seen with both players to move, and found to offer the
    /// same moves to each.
    pub checked_both_ways: u64,
    pub seconds: f64,
}

impl<M: Clone> GrundySolution<M> {
    /// The moves to a position of value 0: the winning moves (none when
    /// the value is 0).
    pub fn winning_moves(&self) -> Vec<M> {
        self.moves
            .iter()
            .filter(|(_, g)| *g == 0)
            .map(|(m, _)| m.clone())
            .collect()
    }
}

/// Computes Grundy values, keeping them between calls.
pub struct Grundy<'g, G: Game> {
    game: &'g G,
    memo: FxHashMap<String, Entry>,
    max_positions: Option<u64>,
    checked: u64,
    depth: usize,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    /// `None` while the position is being valued (on the current line).
    value: Option<u32>,
    /// A hash of the moves and the positions they lead to.
    options: u64,
    /// Bit p: seen with player p to move.
    seen_by: u8,
}

/// Grundy values of `root` and of its options (see the module's documentation).
pub fn grundy<G: Game>(
    game: &G,
    root: &G::State,
    max_positions: Option<u64>,
) -> Result<GrundySolution<G::Move>, SolveError> {
    Grundy::new(game, max_positions)?.solve(root)
}

impl<'g, G: Game> Grundy<'g, G> {
    /// Fails unless the game has two players.
    pub fn new(game: &'g G, max_positions: Option<u64>) -> Result<Self, SolveError> {
        super::line::no_repetition_rule(game, "the Sprague-Grundy solver")?;
        if game.num_players() != 2 {
            return Err(not_impartial(format!(
                "{} has {} players; Sprague-Grundy values are for two-player games",
                game.name(),
                game.num_players()
            )));
        }
        Ok(Grundy {
            game,
            memo: FxHashMap::default(),
            max_positions,
            checked: 0,
            depth: 0,
        })
    }

    /// The Grundy value of `root` and of each option there.
    pub fn solve(&mut self, root: &G::State) -> Result<GrundySolution<G::Move>, SolveError> {
        let started = Instant::now();
        let value = self.value(root)?;
        let mut moves = Vec::new();
        if let Turn::Player(_) = self.game.turn(root)? {
            let mut legal = Vec::new();
            self.game.legal_moves(root, &mut legal)?;
            for m in legal {
                let mut child = root.clone();
                self.game.apply(&mut child, &m)?;
                let g = self.value(&child)?;
                moves.push((m, g));
            }
        }
        Ok(GrundySolution {
            value,
            moves,
            positions: self.memo.len() as u64,
            checked_both_ways: self.checked,
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    /// The Grundy value of `state`.
    pub fn value(&mut self, state: &G::State) -> Result<u32, SolveError> {
        let game = self.game;
        let mover = match game.turn(state)? {
            Turn::Terminal => return Ok(0),
            Turn::Player(p) if p < 2 => p,
            Turn::Player(p) => {
                return Err(SolveError::Inconsistent(format!(
                    "player {p} is to move in `{}`, but the game has two players",
                    game.state_text(state)
                )));
            }
            Turn::Chance | Turn::Simultaneous => {
                return Err(not_impartial(format!(
                    "{} has chance or simultaneous moves; Sprague-Grundy values are for \
                     turn-taking games without chance",
                    game.name()
                )));
            }
        };
        let key = game.state_text(state);
        if let Some(e) = self.memo.get(&key).copied() {
            if e.seen_by & (1 << mover) == 0 {
                // Seen with the other player to move: the options must be the same.
                let (options, _) = self.options(state)?;
                if options != e.options {
                    return Err(not_impartial(format!(
                        "{} is not impartial: in `{key}`, {} and {} have different moves",
                        game.name(),
                        game.player_name(0),
                        game.player_name(1)
                    )));
                }
                self.checked += 1;
                self.memo.get_mut(&key).expect("present").seen_by |= 1 << mover;
            }
            return e.value.ok_or_else(|| {
                not_impartial(format!(
                    "the position `{key}` recurs: Sprague-Grundy values here need a game that always ends"
                ))
            });
        }
        if let Some(max) = self.max_positions
            && self.memo.len() as u64 >= max
        {
            return Err(SolveError::Budget {
                what: "states",
                limit: max.to_string(),
                nodes: self.memo.len() as u64,
            });
        }
        let (options, moves) = self.options(state)?;
        self.memo.entry(key.clone()).or_insert(Entry {
            value: None,
            options,
            seen_by: 1 << mover,
        });
        self.depth += 1;
        if self.depth > crate::solve::DEFAULT_MAX_DEPTH {
            return Err(SolveError::TooDeep {
                depth: crate::solve::DEFAULT_MAX_DEPTH,
                position: key,
            });
        }
        let mut values = Vec::with_capacity(moves.len());
        for m in &moves {
            let mut child = state.clone();
            game.apply(&mut child, m)?;
            if game.turn(&child)? == Turn::Terminal {
                self.check_normal_play(&child, mover)?;
            }
            values.push(self.value(&child)?);
        }
        self.depth -= 1;
        let g = mex(&mut values);
        self.memo.get_mut(&key).expect("stored above").value = Some(g);
        Ok(g)
    }

    /// A hash of `state`'s moves and their results (as text), and the moves.
    fn options(&self, state: &G::State) -> Result<(u64, Vec<G::Move>), SolveError> {
        let game = self.game;
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves)?;
        if moves.is_empty() {
            return Err(no_legal_move(game, state).into());
        }
        let mut h = FxHasher::default();
        for m in &moves {
            let mut child = state.clone();
            game.apply(&mut child, m)?;
            game.move_text(m).hash(&mut h);
            game.state_text(&child).hash(&mut h);
        }
        Ok((h.finish(), moves))
    }

    /// Under normal play the player who made the last move wins.
    fn check_normal_play(&self, end: &G::State, mover: Player) -> Result<(), SolveError> {
        let game = self.game;
        let mine = game.returns(end, mover)?;
        let theirs = game.returns(end, 1 - mover)?;
        if mine > theirs {
            return Ok(());
        }
        let how = if mine < theirs {
            "the player who makes the last move loses (misère play), and Grundy values do not decide misère games"
        } else {
            "it can end in a draw"
        };
        Err(SolveError::NotApplicable {
            message: format!("{} is not a normal-play game: {how}", game.name()),
            help: "`gdl solve` without --grundy solves it by minimax".into(),
        })
    }
}

/// The smallest number not in `values`.
fn mex(values: &mut [u32]) -> u32 {
    values.sort_unstable();
    let mut m = 0;
    for &v in values.iter() {
        if v == m {
            m += 1;
        } else if v > m {
            break;
        }
    }
    m
}

fn not_impartial(message: String) -> SolveError {
    SolveError::NotApplicable {
        message,
        help: "Sprague-Grundy values are for two-player, turn-taking, normal-play games whose moves \
               do not depend on who moves; `gdl solve` without --grundy solves the others"
            .into(),
    }
}

#[cfg(test)]
mod tests {
    use super::mex;

    #[test]
    fn mex_is_the_smallest_missing_number() {
        assert_eq!(mex(&mut []), 0);
        assert_eq!(mex(&mut [1, 2]), 0);
        assert_eq!(mex(&mut [2, 0, 1, 1, 4]), 3);
    }
}
