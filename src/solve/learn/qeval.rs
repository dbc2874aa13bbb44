//! How good a learned Q-table really is: in how many reachable positions its
//! greedy move is optimal by the exact solver.
//!
//! "Reachable" means reachable from the start under any play, whether or not
//! training ever went there: a position the table never saw is judged by the
//! move the Q agent would play there (the first legal one).

use rustc_hash::FxHashSet;

use super::qlearn::QTable;
use crate::game::{Game, Turn};
use crate::solve::{SolveError, SolveOptions, Solver};

/// The most positions an evaluation visits; beyond that it stops with an error.
pub const MAX_EVAL_POSITIONS: usize = 2_000_000;

/// Greedy moves against the exact solution, position by position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Agreement {
    /// Reachable positions where someone moves.
    pub positions: usize,
    /// ... where the greedy move is optimal.
    pub optimal: usize,
    /// Positions where the player to move has a winning move (one of positive
    /// utility for them).
    pub winning: usize,
    /// ... where the greedy move is optimal (so it wins).
    pub winning_optimal: usize,
    /// Positions where some move is not optimal: where the choice matters.
    pub choice: usize,
    /// ... where the greedy move is optimal.
    pub choice_optimal: usize,
    /// Reachable positions the table has no values for.
    pub unseen: usize,
}

/// Compares the greedy move of `table` with the exact solution in every
/// position reachable from `root` (a two-player, turn-taking, zero-sum game).
pub fn agreement<G: Game>(game: &G, table: &QTable<G>, root: &G::State) -> Result<Agreement, SolveError> {
    agreement_within(game, table, root, &SolveOptions::default())
}

/// [`agreement`], each position solved within `opts`' limits.
pub fn agreement_within<G: Game>(
    game: &G,
    table: &QTable<G>,
    root: &G::State,
    opts: &SolveOptions,
) -> Result<Agreement, SolveError> {
    let opts = SolveOptions {
        count_states: false,
        ..opts.clone()
    };
    // One solver for every position, so its memo table is shared.
    let mut solver = Solver::new(game, opts)?;
    let mut seen: FxHashSet<G::State> = FxHashSet::default();
    let mut stack = vec![root.clone()];
    seen.insert(root.clone());
    let mut moves = Vec::new();
    let mut out = Agreement::default();
    while let Some(state) = stack.pop() {
        let mover = match game.turn(&state)? {
            Turn::Terminal => continue,
            Turn::Player(p) => p,
            Turn::Chance | Turn::Simultaneous => {
                return Err(SolveError::Unsupported(format!(
                    "{} has chance or simultaneous moves; the exact solver handles turn-taking games",
                    game.name()
                )));
            }
        };
        game.legal_moves(&state, &mut moves)?;
        for mv in &moves {
            let mut child = state.clone();
            game.apply(&mut child, mv)?;
            if !seen.contains(&child) {
                if seen.len() >= MAX_EVAL_POSITIONS {
                    return Err(SolveError::Unsupported(format!(
                        "{} has more than {MAX_EVAL_POSITIONS} reachable positions; too many to compare one by one",
                        game.name()
                    )));
                }
                seen.insert(child.clone());
                stack.push(child);
            }
        }
        // The solver's values are player 0's utility; player 1 prefers them low.
        let sign = if mover == 0 { 1.0 } else { -1.0 };
        let values: Vec<f64> = solver.explain(&state)?.iter().map(|m| sign * m.value).collect();
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let worst = values.iter().copied().fold(f64::INFINITY, f64::min);
        let greedy = table.greedy_move(game, &state, &moves)?.map_or(0, |(i, _)| i);
        let good = values.get(greedy).is_some_and(|v| *v == best);
        out.positions += 1;
        out.optimal += usize::from(good);
        if best > 0.0 {
            out.winning += 1;
            out.winning_optimal += usize::from(good);
        }
        if worst < best {
            out.choice += 1;
            out.choice_optimal += usize::from(good);
        }
        out.unseen += usize::from(table.get_class(game, &state)?.is_none());
    }
    Ok(out)
}
