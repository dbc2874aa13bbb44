//! Alpha-beta search, fail-soft, with or without the memo table.

use super::memo::{Bound, Entry};
use super::score::Score;
use super::solve_error::SolveError;
use super::solver::Solver;
use crate::game::Game;

impl<G: Game> Solver<'_, G> {
    /// The score of `state` for the window `(alpha, beta)`, fail-soft: exact
    /// when strictly inside the window, otherwise an upper bound at or below
    /// `alpha` or a lower bound at or above `beta`.
    ///
    /// Player 0 maximizes and player 1 minimizes, whoever moved last, so a
    /// player may move several times in a row.
    pub(super) fn alphabeta(
        &mut self,
        state: &G::State,
        mut alpha: Score,
        mut beta: Score,
    ) -> Result<Score, SolveError> {
        self.enter(state)?;
        let (alpha0, beta0) = (alpha, beta);
        if let Some(memo) = &mut self.memo
            && let Some(entry) = memo.get(state)
        {
            let s = entry.score;
            match entry.bound {
                Bound::Exact => {
                    memo.hits += 1;
                    return Ok(s);
                }
                Bound::Lower if s >= beta => {
                    memo.hits += 1;
                    return Ok(s);
                }
                Bound::Upper if s <= alpha => {
                    memo.hits += 1;
                    return Ok(s);
                }
                // A bound that does not settle this window still narrows it.
                // The result is classified against the caller's window: if it
                // lands on the narrowed edge it equals the bound, hence exact.
                Bound::Lower => alpha = if s > alpha { s } else { alpha },
                Bound::Upper => beta = if s < beta { s } else { beta },
            }
        }

        let Some(maximize) = self.mover(state)? else {
            let s = self.terminal_score(state)?;
            if let Some(memo) = &mut self.memo {
                memo.store(
                    state,
                    Entry {
                        score: s,
                        bound: Bound::Exact,
                    },
                );
            }
            return Ok(s);
        };

        if self.depth >= self.cutoff {
            self.cut = true;
            return Ok(Score::terminal(0.0));
        }
        let ps = self.opts.prefer_short;
        let mut moves = self.move_bufs.pop().unwrap_or_default();
        self.fill_moves(state, &mut moves)?;
        let mut child = match self.state_bufs.pop() {
            Some(mut c) => {
                c.clone_from(state);
                c
            }
            None => state.clone(),
        };
        let mut best = if maximize { Score::MIN } else { Score::MAX };
        for mv in &moves {
            child.clone_from(state);
            self.game.apply(&mut child, mv)?;
            let (a, b) = (alpha.down(ps), beta.down(ps));
            let s = self.descend(&child, mv, |me, c| me.alphabeta(c, a, b))?.up(ps);
            if maximize {
                if s > best {
                    best = s;
                    if best > alpha {
                        alpha = best;
                    }
                }
            } else if s < best {
                best = s;
                if best < beta {
                    beta = best;
                }
            }
            if alpha >= beta {
                break;
            }
        }
        self.move_bufs.push(moves);
        self.state_bufs.push(child);

        if let Some(memo) = &mut self.memo {
            memo.store(state, Entry::from_window(best, alpha0, beta0));
        }
        Ok(best)
    }
}
