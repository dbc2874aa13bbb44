//! Simultaneous moves with perfect information: each node where both players
//! choose at once is a zero-sum matrix game over the values of what follows
//! (backward induction), solved exactly by [`matrix::solve`].
//!
//! The search itself is [`expectimax`](super::expectimax)'s, which hands its
//! simultaneous nodes to [`solve_stage`].

use super::matrix::{self, Matrix, MatrixSolution};
use super::solve_error::SolveError;
use crate::game::{Game, Player};

/// One simultaneous node: both players' moves, the value of each pair of
/// them for player 0, and the optimal mixed strategies.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage<M> {
    /// Player 0's moves (the rows), in legal-move order.
    pub row_moves: Vec<M>,
    /// Player 1's moves (the columns).
    pub col_moves: Vec<M>,
    /// Player 0's value after each pair of moves, under optimal play after it.
    pub payoff: Matrix,
    /// The value of the node and each player's optimal mixed strategy.
    pub solution: MatrixSolution,
}

impl<M: Clone> Stage<M> {
    /// Each player's moves played with positive probability, with their
    /// probabilities: `[player 0's, player 1's]`.
    pub fn support(&self) -> [Vec<(M, f64)>; 2] {
        let pick = |moves: &[M], probs: &[f64]| {
            moves
                .iter()
                .zip(probs)
                .filter(|(_, p)| **p > 1e-9)
                .map(|(m, p)| (m.clone(), *p))
                .collect()
        };
        [
            pick(&self.row_moves, &self.solution.row),
            pick(&self.col_moves, &self.solution.col),
        ]
    }
}

/// Both players' moves at a simultaneous node of a two-player game; each
/// must have at least one.
pub(crate) fn stage_moves<G: Game>(game: &G, state: &G::State) -> Result<[Vec<G::Move>; 2], SolveError> {
    let mut out = [Vec::new(), Vec::new()];
    for (p, moves) in out.iter_mut().enumerate() {
        game.legal_moves_of(state, p as Player, moves)?;
        if moves.is_empty() {
            return Err(SolveError::Inconsistent(format!(
                "at a simultaneous move in `{}`, {} has no legal move",
                game.state_text(state),
                game.player_name(p)
            )));
        }
    }
    Ok(out)
}

/// Solves the matrix game of a simultaneous node.
pub(crate) fn solve_stage(payoff: &Matrix) -> Result<MatrixSolution, SolveError> {
    matrix::solve(payoff).map_err(|e| {
        SolveError::Inconsistent(format!(
            "a {}×{} matrix game could not be solved: {}",
            payoff.rows(),
            payoff.cols(),
            e.0
        ))
    })
}
