//! Plain minimax, with or without the memo table.

use super::memo::{Bound, Entry, NO_MOVE};
use super::score::Score;
use super::solve_error::SolveError;
use super::solver::Solver;
use crate::game::Game;

impl<G: Game> Solver<'_, G> {
    /// The exact score of `state`: the best child's for the player to move.
    ///
    /// Player 0 maximizes and player 1 minimizes, whoever moved last, so a
    /// player may move several times in a row. With the memo table every
    /// state is searched once; every entry is exact, its move the first in
    /// legal order to score it.
    pub(in crate::solve) fn minimax(&mut self, state: &G::State) -> Result<Score, SolveError> {
        self.enter(state)?;
        self.exact = true;
        // The memo table's key for `state`, once for the probe and the store
        // (no call without a table: it returns a state through memory).
        let key = if self.memo.is_some() {
            self.memo_key(state)?
        } else {
            None
        };
        if let Some(entry) = self.recall_at(state, key.as_ref())
            && entry.bound == Bound::Exact
        {
            self.count_hit();
            return Ok(entry.score);
        }

        let (best, best_at) = match self.mover(state)? {
            None => {
                self.clear_line();
                (self.terminal_score(state)?, NO_MOVE)
            }
            Some(_) if self.depth >= self.cutoff => {
                self.cut = true;
                self.cut_short();
                self.clear_line();
                (Score::terminal(0.0), NO_MOVE)
            }
            Some(maximize) => {
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
                let mut best_at = NO_MOVE;
                for (i, mv) in moves.iter().enumerate() {
                    child.clone_from(state);
                    self.game.apply(&mut child, mv)?;
                    let s = self.descend(&child, mv, |me, c| me.minimax(c))?.up(ps);
                    if Score::better(maximize, s, best) {
                        best = s;
                        best_at = i as u32;
                        self.extend_line(mv);
                    }
                }
                self.move_bufs.push(moves);
                self.state_bufs.push(child);
                (best, best_at)
            }
        };

        self.remember_at(state, key.as_ref(), Entry::exact(best, best_at));
        self.exact = true;
        Ok(best)
    }
}
