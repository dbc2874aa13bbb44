//! The end of a game: which `end when` clause holds (remembered in the
//! state), the scores it names, and each player's return.

use super::*;
use crate::ir::code::CondCode;

impl Interpreted {
    /// The first end clause that holds in `state` (whose cells are `cells`),
    /// if any: remembered in the state, so that it is evaluated once per position.
    #[inline(always)]
    pub(super) fn ended<C: Cells>(
        &self,
        budget: &mut Budget,
        state: &State,
        cells: C,
    ) -> Result<Option<usize>, GameError> {
        match state.ended() {
            NOT_ENDED | NOT_ENDED_CHANCE | NOT_ENDED_SIMULTANEOUS | NOT_ENDED_PLAYER => Ok(None),
            UNKNOWN => {
                let at = self.first_end(budget, cells)?;
                state.remember_end(at);
                Ok(at)
            }
            i => Ok(Some(i as usize)),
        }
    }

    /// The index of the first end clause that holds in `cells`, if any.
    pub(super) fn first_end<C: Cells>(&self, budget: &mut Budget, cells: C) -> Result<Option<usize>, GameError> {
        for (i, (end, code)) in self.prog.ends.iter().zip(&self.code.ends).enumerate() {
            if self.holds(&code.cond, budget, cells, end.span)? {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// Whether the condition `cond` of the end clause at `span` holds: its
    /// terms tried left to right, `and` and `or` stopping as soon as they
    /// know, `no moves` a search for a legal move.
    fn holds<C: Cells>(
        &self,
        cond: &CondCode,
        budget: &mut Budget,
        cells: C,
        span: ir::Span,
    ) -> Result<bool, GameError> {
        Ok(match cond {
            CondCode::Entry(entry) => self.eval(*entry, cells, budget).map_err(|e| e.at(span.into()))? != 0,
            CondCode::NoMoves => !self.has_move(budget, cells)?,
            CondCode::Not(a) => !self.holds(a, budget, cells, span)?,
            CondCode::And(a, b) => self.holds(a, budget, cells, span)? && self.holds(b, budget, cells, span)?,
            CondCode::Or(a, b) => self.holds(a, budget, cells, span)? || self.holds(b, budget, cells, span)?,
        })
    }

    /// The values of the score list of end clause `end`.
    pub(super) fn score_values<C: Cells>(
        &self,
        budget: &mut Budget,
        end: usize,
        cells: C,
    ) -> Result<Vec<f64>, GameError> {
        let Some(entry) = self.code.ends[end].scores else {
            return Ok(Vec::new());
        };
        let o = self
            .eval(entry, cells, budget)
            .map_err(|e| self.locate(e, &cells.to_vec()))? as usize;
        let n = cells.get(o) as usize;
        Ok((o + 1..o + 1 + n).map(|i| cells.get(i) as f64).collect())
    }

    /// The utility of the terminal `state`, whose cells are `cells`, for `player`.
    pub(super) fn returns_in<C: Cells>(&self, state: &State, cells: C, player: Player) -> Result<f64, GameError> {
        let mut budget = Budget::new();
        let i = match self.ended(&mut budget, state, cells) {
            Ok(Some(i)) => i,
            Ok(None) => {
                return Err(self.locate(
                    GameError::new(
                        RuntimeKind::Internal,
                        "the returns of an unfinished game were asked for (a bug in gdl)",
                    ),
                    &cells.to_vec(),
                ));
            }
            Err(e) => return Err(self.locate(e, &cells.to_vec())),
        };
        self.outcome_in(i, cells, player)
    }

    /// The return of a state that remembers its end clause, where that
    /// clause is a draw or names its player by a cell or a constant, with
    /// a constant payoff or none (`loser previous`, `winner current`):
    /// nothing to run, where the general way (`returns_once`) costs about
    /// 185 instructions for Nim's `loser previous`, once per player at the
    /// end of every playout and at every leaf of a search. `None` sends the
    /// call the general way, which also reports what is wrong.
    #[inline]
    pub(super) fn plain_outcome(&self, state: &State, player: Player) -> Option<f64> {
        let i = state.ended() as usize;
        if i > MAX_REMEMBERED_END {
            return None;
        }
        let code = self.code.ends.get(i)?;
        let read = |value: Value| match value {
            Value::Const(n) => Some(n),
            Value::Cell(c) => Some(state.cell(c as usize)),
            Value::Code(_) => None,
        };
        let (who, wins) = match self.prog.ends.get(i)?.outcome {
            Outcome::Draw => return Some(0.0),
            Outcome::Winner { .. } => (read(code.player?)?, true),
            Outcome::Loser { .. } => (read(code.player?)?, false),
            Outcome::Score { .. } => return None,
        };
        let payoff = match code.payoff {
            None => 1,
            Some(v) => read(v)?,
        };
        if who < 0 || who as usize >= self.prog.players.len() {
            return None;
        }
        Some(utility(who as usize == player, wins, payoff))
    }

    /// The utility for `player` of end clause `i`'s outcome, read in `cells`.
    pub(super) fn outcome_in<C: Cells>(&self, i: usize, cells: C, player: Player) -> Result<f64, GameError> {
        let mut budget = Budget::new();
        let end = &self.prog.ends[i];
        let code = &self.code.ends[i];
        let mut eval = |value: Value| match value {
            Value::Const(n) => Ok(n),
            Value::Cell(c) => Ok(cells.get(c as usize)),
            Value::Code(entry) => self
                .eval(entry, cells, &mut budget)
                .map_err(|err| self.locate(err.at(end.span.into()), &cells.to_vec())),
        };
        let (who, payoff, wins) = match &end.outcome {
            Outcome::Draw => return Ok(0.0),
            Outcome::Score { lowest, .. } => {
                // Zero-sum: a player's margin over the others' average score.
                let values = self.score_values(&mut Budget::new(), i, cells)?;
                let n = values.len();
                if n < 2 {
                    return Ok(0.0);
                }
                let others = (values.iter().sum::<f64>() - values[player]) / (n - 1) as f64;
                let margin = values[player] - others;
                return Ok(if *lowest { -margin } else { margin });
            }
            Outcome::Winner { .. } => (
                eval(code.player.expect("a winner has a player"))?,
                code.payoff.map(&mut eval).transpose()?,
                true,
            ),
            Outcome::Loser { .. } => (
                eval(code.player.expect("a loser has a player"))?,
                code.payoff.map(&mut eval).transpose()?,
                false,
            ),
        };
        if who < 0 || who as usize >= self.prog.players.len() {
            return Err(self.locate(
                GameError::new(
                    RuntimeKind::NoPlayer,
                    "the outcome names no player: nobody has moved yet, so `previous` is nobody",
                )
                .at(end.span.into()),
                &cells.to_vec(),
            ));
        }
        Ok(utility(who as usize == player, wins, payoff.unwrap_or(1)))
    }
}

/// A player's utility where an outcome names a winner (`wins`) or a loser
/// with `payoff`: the named player gains it or loses it, the others the
/// reverse.
fn utility(named: bool, wins: bool, payoff: i64) -> f64 {
    let v = payoff as f64;
    if named == wins { v } else { -v }
}
