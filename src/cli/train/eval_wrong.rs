//! Seed 004's grader, made visible: where a Q-table's greedy move gives
//! away value (`gdl eval --wrong`), and whether an adversary who knows the
//! table can beat it from each seat.

use rustc_hash::FxHashMap;
use std::collections::VecDeque;

use crate::game::{Game, Player, Turn};
use crate::runtime::{Interpreted, State};
use crate::solve::learn::qlearn::QTable;
use crate::solve::{SolveError, SolveOptions, Solver};

/// The most positions looked at: as many as `eval`'s agreement count.
const MAX_POSITIONS: usize = 2_000_000;

/// A reachable position where the greedy move is not optimal.
pub(crate) struct WrongMove {
    /// Moves from the start to here, in the game's notation.
    pub path: Vec<String>,
    pub position: String,
    pub mover: String,
    pub greedy: String,
    /// The mover's utility after the greedy move, and after the best.
    pub greedy_value: f64,
    pub best_value: f64,
    /// Every optimal move.
    pub best_moves: Vec<String>,
    /// Optimal play after the greedy move: the line that exploits it.
    pub exploit: Vec<String>,
}

fn too_many(game: &Interpreted) -> SolveError {
    SolveError::Unsupported(format!(
        "{} has more than {MAX_POSITIONS} reachable positions; too many to look at one by one",
        game.name()
    ))
}

fn mover(game: &Interpreted, state: &State) -> Result<Option<Player>, SolveError> {
    match game.turn(state)? {
        Turn::Terminal => Ok(None),
        Turn::Player(p) => Ok(Some(p)),
        Turn::Chance | Turn::Simultaneous => Err(SolveError::Unsupported(format!(
            "{} has chance or simultaneous moves; the exact solver handles turn-taking games",
            game.name()
        ))),
    }
}

/// Every reachable position (nearest the start first) where the greedy move
/// of `table` is worse for its mover than the best move.
pub(crate) fn wrong_moves(
    game: &Interpreted,
    table: &QTable<Interpreted>,
    root: &State,
    opts: &SolveOptions,
) -> Result<Vec<WrongMove>, SolveError> {
    let opts = SolveOptions {
        count_states: false,
        ..opts.clone()
    };
    let mut solver = Solver::new(game, opts)?;
    let mut seen: FxHashMap<State, ()> = FxHashMap::default();
    let mut queue = VecDeque::from([(root.clone(), Vec::<String>::new())]);
    seen.insert(root.clone(), ());
    let mut moves = Vec::new();
    let mut wrong = Vec::new();
    while let Some((state, path)) = queue.pop_front() {
        let Some(p) = mover(game, &state)? else { continue };
        game.legal_moves(&state, &mut moves)?;
        let sign = if p == 0 { 1.0 } else { -1.0 };
        let explained = solver.explain(&state)?;
        let values: Vec<f64> = explained.iter().map(|m| sign * m.value + 0.0).collect();
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let g = table.greedy_move(game, &state, &moves)?.map_or(0, |(i, _)| i);
        if values.get(g).is_some_and(|v| *v < best) {
            wrong.push(WrongMove {
                path: path.clone(),
                position: game.position(&state),
                mover: game.player_name(p).to_string(),
                greedy: game.move_text(&moves[g]),
                greedy_value: values[g],
                best_value: best,
                best_moves: (0..moves.len())
                    .filter(|&i| values[i] == best)
                    .map(|i| game.move_text(&moves[i]))
                    .collect(),
                exploit: explained[g].line.iter().map(|m| game.move_text(m)).collect(),
            });
        }
        for mv in &moves {
            let mut child = state.clone();
            game.apply(&mut child, mv)?;
            if !seen.contains_key(&child) {
                if seen.len() >= MAX_POSITIONS {
                    return Err(too_many(game));
                }
                seen.insert(child.clone(), ());
                let mut longer = path.clone();
                longer.push(game.move_text(mv));
                queue.push_back((child, longer));
            }
        }
    }
    Ok(wrong)
}

/// The greedy Q agent in one seat against the best adversary.
pub(crate) struct SeatResult {
    pub seat: String,
    /// What the Q agent gets when every reply is searched against it.
    pub q_gets: f64,
    /// What optimal play gets from that seat: the game's value for it.
    pub optimal_gets: f64,
    /// The game from the start: the adversary's best line against the table.
    pub line: Vec<String>,
}

impl SeatResult {
    pub fn beatable(&self) -> bool {
        self.q_gets < self.optimal_gets
    }
}

/// For each seat, the Q agent's utility against an adversary that searches
/// every reply (knowing the table), beside the game's value for that seat.
pub(crate) fn beatable(
    game: &Interpreted,
    table: &QTable<Interpreted>,
    root: &State,
    opts: &SolveOptions,
) -> Result<Vec<SeatResult>, SolveError> {
    let opts = SolveOptions {
        count_states: false,
        ..opts.clone()
    };
    let value = Solver::new(game, opts)?.solve(root)?.value;
    let mut out = Vec::new();
    for seat in 0..game.num_players() {
        let mut memo = FxHashMap::default();
        let q_gets = against(game, table, seat, root, &mut memo)?;
        let mut line = Vec::new();
        let mut state = root.clone();
        while let Some((_, Some(mv))) = memo.get(&state).cloned() {
            line.push(game.move_text(&mv));
            game.apply(&mut state, &mv)?;
        }
        out.push(SeatResult {
            seat: game.player_name(seat).to_string(),
            q_gets,
            optimal_gets: if seat == 0 { value } else { -value } + 0.0,
            line,
        });
    }
    Ok(out)
}

type Memo = FxHashMap<State, (f64, Option<crate::runtime::Move>)>;

/// The Q agent's (in `seat`) utility from `state` when it plays greedily
/// and the other player plays to minimize it; the move taken, remembered.
fn against(
    game: &Interpreted,
    table: &QTable<Interpreted>,
    seat: Player,
    state: &State,
    memo: &mut Memo,
) -> Result<f64, SolveError> {
    if let Some((v, _)) = memo.get(state) {
        return Ok(*v);
    }
    if memo.len() >= MAX_POSITIONS {
        return Err(too_many(game));
    }
    let Some(p) = mover(game, state)? else {
        let v = game.returns(state, seat)?;
        memo.insert(state.clone(), (v, None));
        return Ok(v);
    };
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves)?;
    let candidates: Vec<usize> = if p == seat {
        vec![table.greedy_move(game, state, &moves)?.map_or(0, |(i, _)| i)]
    } else {
        (0..moves.len()).collect()
    };
    let mut best: Option<(f64, usize)> = None;
    for i in candidates {
        let mut child = state.clone();
        game.apply(&mut child, &moves[i])?;
        let v = against(game, table, seat, &child, memo)?;
        if best.is_none_or(|(b, _)| v < b) {
            best = Some((v, i));
        }
    }
    let (v, i) = best.expect("a player to move has a legal move");
    memo.insert(state.clone(), (v, Some(moves[i])));
    Ok(v)
}
