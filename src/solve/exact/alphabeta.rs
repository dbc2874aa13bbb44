//! Alpha-beta search, fail-soft, with or without the memo table.

use super::memo::{Bound, Entry, NO_MOVE};
use super::score::Score;
use super::solve_error::SolveError;
use super::solver::Solver;
use crate::game::Game;

impl<G: Game> Solver<'_, G> {
    /// The score of `state` for the window `(alpha, beta)`, fail-soft: exact
    /// when strictly inside the window, otherwise an upper bound at or below
    /// `alpha` or a lower bound at or above `beta`. A score the best (worst)
    /// a position can have is exact wherever it falls. `self.exact` says
    /// whether the result is exact.
    ///
    /// Player 0 maximizes and player 1 minimizes, whoever moved last, so a
    /// player may move several times in a row.
    ///
    /// When the result is exact, the move that gave it is the first in
    /// legal-move order whose child scores it (the principal line's move),
    /// also when the memo table had another move searched first.
    pub(in crate::solve) fn alphabeta(
        &mut self,
        state: &G::State,
        mut alpha: Score,
        mut beta: Score,
    ) -> Result<Score, SolveError> {
        self.enter(state)?;
        let (alpha0, beta0) = (alpha, beta);
        // The move the table says to search first, if any.
        let mut hint = NO_MOVE;
        // The memo table's key for `state`, once for the probe and the store.
        // Tested here: without a table, a call that returns a state through
        // memory would be made for nothing at every node.
        let key = if self.memo.is_some() {
            self.memo_key(state)?
        } else {
            None
        };
        if let Some(entry) = self.recall_at(state, key.as_ref()) {
            let s = entry.score;
            let settled = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if settled {
                self.count_hit();
                self.exact = entry.bound == Bound::Exact;
                return Ok(s);
            }
            // A bound that does not settle this window still narrows it, to
            // just past the bound, so that a move scoring the bound exactly
            // comes back exact (the principal line needs the first such move).
            match entry.bound {
                Bound::Lower => alpha = alpha.max(s.just_below()),
                _ => beta = beta.min(s.just_above()),
            }
            hint = entry.best;
        }

        let Some(maximize) = self.mover(state)? else {
            let s = self.terminal_score(state)?;
            self.remember_at(state, key.as_ref(), Entry::exact(s, NO_MOVE));
            self.clear_line();
            self.exact = true;
            return Ok(s);
        };

        if self.depth >= self.cutoff {
            self.cut = true;
            self.cut_short();
            self.clear_line();
            self.exact = true;
            return Ok(Score::terminal(0.0));
        }
        // No position with moves scores outside (bottom, top): a move that
        // reaches the mover's end of it ends the search of this position.
        let (top, bottom) = (self.top, self.bottom);
        alpha = alpha.max(bottom);
        beta = beta.min(top);
        if alpha >= beta {
            // The window lies past what this position can score.
            self.cut_short();
            self.exact = false;
            return Ok(if alpha >= top { top } else { bottom });
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
        let n = moves.len();
        let hint = if (hint as usize) < n { hint as usize } else { usize::MAX };
        let mut best = if maximize { Score::MIN } else { Score::MAX };
        let mut best_at = usize::MAX;
        // The hinted move first, then the others in legal order; `next` is
        // the next index in legal order, those below it done.
        let mut hint_done = hint == usize::MAX;
        let mut next = 0;
        loop {
            let i = if hint_done {
                if next == hint {
                    next += 1;
                }
                if next >= n {
                    break;
                }
                next += 1;
                next - 1
            } else {
                hint_done = true;
                hint
            };
            let mv = &moves[i];
            child.clone_from(state);
            self.game.apply(&mut child, mv)?;
            // A move before the hinted one, while that one is the best: its
            // window admits a tie, so that it takes the hinted move's place
            // if it scores the same.
            let before_best = best_at == hint && i < hint;
            let (a, b) = match (maximize, before_best) {
                (true, true) if best >= alpha => (best.just_below(), beta),
                (false, true) if best <= beta => (alpha, best.just_above()),
                _ => (alpha, beta),
            };
            let s = self
                .descend(&child, mv, |me, c| me.alphabeta(c, a.down(ps), b.down(ps)))?
                .up(ps);
            let exact = self.exact;
            if Score::better(maximize, s, best) || (before_best && exact && s == best) {
                best = s;
                best_at = i;
                if exact {
                    self.extend_line(mv);
                }
                if maximize {
                    alpha = alpha.max(best);
                } else {
                    beta = beta.min(best);
                }
            }
            if alpha >= beta {
                self.cut_short();
                break;
            }
        }
        self.move_bufs.push(moves);
        self.state_bufs.push(child);

        let exact = best >= top || best <= bottom || (alpha0 < best && best < beta0);
        if self.memo.is_some() {
            let bound = if exact {
                Bound::Exact
            } else if best <= alpha0 {
                Bound::Upper
            } else {
                Bound::Lower
            };
            // The best move is the first in legal order to score `best` unless
            // the search stopped at the hinted move before trying those before it.
            let first = exact && (best_at != hint || next >= hint);
            self.remember_at(
                state,
                key.as_ref(),
                Entry {
                    score: best,
                    bound,
                    first,
                    best: best_at as u32,
                },
            );
        }
        self.exact = exact;
        Ok(best)
    }
}
