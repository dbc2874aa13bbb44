//! Tabular Q-learning by self-play, for any turn-taking game of one or two
//! players (seed 004 asks for Nim; the same code learns every such game file).
//!
//! One table serves both players: a state includes the player to move, so
//! Q(s, a) is the value of move `a` in `s` *for the player who moves in `s`*.
//! After each move the learner updates
//!
//! ```text
//! Q(s, a) ← Q(s, a) + alpha · (target − Q(s, a))
//! target = u_p(s')                  if s' is terminal (p = the mover in s)
//!        = + max_a' Q(s', a')       if p moves again in s'
//!        = − max_a' Q(s', a')       if the opponent moves in s'  (negamax)
//! ```
//!
//! The minus sign is right because the games are zero-sum: what the opponent
//! expects from `s'` is exactly what the mover loses. `u_p` is the mover's
//! utility at the end (+1 / −1 in Nim, ±the last number in the 1-9 game), so
//! seed 004's rewards are the special case of a win/loss game. A move never
//! tried is worth 0, as the seed says. docs/QLEARNING.md has the details.
//!
//! Exploration is epsilon-greedy with a seeded generator; the greedy choice
//! breaks ties by taking the first best move in legal-move order, so a table
//! always plays the same way.
//!
//! A game with a canonical form (`Game::canonical`) is learned on
//! representatives: every position an episode reaches is replaced by its
//! representative before the learner looks at it, so the table holds one row
//! per class of positions, its values in the representative's legal-move
//! order. A player in another position of the class is given the move that
//! leads where the representative's greedy move leads, up to the canonical
//! form ([`QTable::greedy_move`]).

use std::sync::atomic::{AtomicBool, Ordering};

use miette::Diagnostic;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rustc_hash::FxHashMap;
use thiserror::Error;

use crate::error_kind::{EXIT_INPUT, Exits, RuntimeKind};
use crate::game::{Game, GameError, Player, Turn, no_legal_move, representative};
use crate::solve::agents::agent::{Agent, AgentError, Choice};
use crate::solve::agents::simulate::MAX_PLAYOUT_PLIES;
use crate::solve::exact::solve_error::SolveError;

/// How the learner learns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QSettings {
    /// The learning rate, in (0, 1].
    pub alpha: f64,
    /// The chance of a uniformly random move while training, in [0, 1].
    pub epsilon: f64,
    /// Seeds the generator of the exploring moves.
    pub seed: u64,
}

impl Default for QSettings {
    /// Seed 004's settings.
    fn default() -> Self {
        QSettings {
            alpha: 0.5,
            epsilon: 0.1,
            seed: 0,
        }
    }
}

impl QSettings {
    /// Whether the settings make sense; the message names the bad one.
    pub fn check(&self) -> Result<(), String> {
        if !(self.alpha > 0.0 && self.alpha <= 1.0) {
            return Err(format!(
                "--alpha must be a learning rate above 0 and at most 1, not {}",
                shown(self.alpha)
            ));
        }
        if !(0.0..=1.0).contains(&self.epsilon) {
            return Err(format!(
                "--epsilon must be a probability from 0 to 1, not {}",
                shown(self.epsilon)
            ));
        }
        Ok(())
    }
}

/// A number as the user typed it, short even when huge or tiny (1.7e308, not 309 digits).
fn shown(x: f64) -> String {
    if x == 0.0 || (1e-6..1e15).contains(&x.abs()) {
        x.to_string()
    } else {
        format!("{x:e}")
    }
}

/// Why learning stopped.
#[derive(Debug, Error, Diagnostic)]
pub enum QLearnError {
    /// The game's rules failed while being played.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Game(#[from] GameError),

    /// The game is not one Q-learning by self-play handles.
    #[error("{0}")]
    #[diagnostic(
        code(gdl::qlearn::unsupported),
        help(
            "Q-learning by self-play learns games where one player moves at a time, with one or two players; \
             play games with chance or simultaneous moves with a search agent"
        )
    )]
    Unsupported(String),

    /// A two-player game ended with utilities that do not sum to zero, so the
    /// opponent's gain is not the mover's loss and the negamax update is wrong.
    #[error("the game is not zero-sum: it ended with utilities {utilities} in {position}")]
    #[diagnostic(
        code(gdl::qlearn::not_zero_sum),
        help("the learner sees the opponent's value as minus the mover's; give every end a winner, a loser or a draw")
    )]
    NotZeroSum { utilities: String, position: String },
}

/// A game Q-learning cannot learn is bad input; the rest happens while training.
impl Exits for QLearnError {
    fn exit_code(&self) -> i32 {
        match self {
            QLearnError::Game(g) => g.exit_code(),
            QLearnError::Unsupported(_) | QLearnError::NotZeroSum { .. } => EXIT_INPUT,
        }
    }
}

/// Q-values: for each state seen, one value per legal move, in the game's
/// legal-move order (the `Game` contract makes that order the same every time,
/// so an index names a move). A state or move never updated is worth 0.
pub struct QTable<G: Game> {
    values: FxHashMap<G::State, Vec<f64>>,
}

impl<G: Game> Clone for QTable<G> {
    fn clone(&self) -> Self {
        QTable {
            values: self.values.clone(),
        }
    }
}

impl<G: Game> Default for QTable<G> {
    fn default() -> Self {
        QTable {
            values: FxHashMap::default(),
        }
    }
}

impl<G: Game> PartialEq for QTable<G> {
    /// The same states with bit-for-bit the same values.
    fn eq(&self, other: &Self) -> bool {
        self.values.len() == other.values.len()
            && self.values.iter().all(|(s, v)| {
                other
                    .values
                    .get(s)
                    .is_some_and(|w| v.len() == w.len() && v.iter().zip(w).all(|(a, b)| a.to_bits() == b.to_bits()))
            })
    }
}

impl<G: Game> std::fmt::Debug for QTable<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "QTable({} positions, {} values)", self.positions(), self.len())
    }
}

impl<G: Game> QTable<G> {
    pub fn new() -> Self {
        Self::default()
    }

    /// How many positions have values.
    pub fn positions(&self) -> usize {
        self.values.len()
    }

    /// How many (position, move) values there are.
    pub fn len(&self) -> usize {
        self.values.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The values of the moves in `state`, in legal-move order; `None` if the
    /// state was never updated.
    pub fn get(&self, state: &G::State) -> Option<&[f64]> {
        self.values.get(state).map(Vec::as_slice)
    }

    /// Sets the values of every legal move in `state` (when loading a table).
    pub fn insert(&mut self, state: G::State, values: Vec<f64>) {
        self.values.insert(state, values);
    }

    /// Every state and its values, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&G::State, &[f64])> {
        self.values.iter().map(|(s, v)| (s, v.as_slice()))
    }

    /// The best value of any move in `state` for the player to move there: 0
    /// for a state never seen (every move is worth 0 until tried).
    pub fn best_value(&self, state: &G::State) -> f64 {
        self.values
            .get(state)
            .map_or(0.0, |v| v.iter().copied().fold(f64::NEG_INFINITY, f64::max))
    }

    /// The greedy move among `n` legal moves: the first of the best values in
    /// legal-move order, so ties always break the same way; 0 for a state
    /// never seen.
    pub fn greedy(&self, state: &G::State, n: usize) -> usize {
        self.values.get(state).map_or(0, |v| first_best(&v[..n.min(v.len())]))
    }

    /// The greedy move in `state`, a position as played (a representative or
    /// not), whose legal moves in order are `moves`: its index in `moves`
    /// and its value; `None` when the table has no values for the position.
    ///
    /// Where `state` is not its own representative, the table's row is the
    /// representative's: its greedy move is played there, and the move given
    /// is the first of `moves` that leads to a position with the same
    /// representative. A table whose row does not fit the legal moves, or a
    /// canonical form under which no move corresponds, is an error: the
    /// table was trained for other rules, or the `canonical` block merges
    /// positions that do not play alike (`SolveError::NotApplicable`).
    pub fn greedy_move(
        &self,
        game: &G,
        state: &G::State,
        moves: &[G::Move],
    ) -> Result<Option<(usize, f64)>, SolveError> {
        let rep = game.canonical(state)?.filter(|r| r != state);
        let key = rep.as_ref().unwrap_or(state);
        let Some(values) = self.values.get(key) else {
            return Ok(None);
        };
        let mut rep_moves = Vec::new();
        let key_moves = match &rep {
            None => moves,
            Some(r) => {
                game.legal_moves(r, &mut rep_moves)?;
                &rep_moves
            }
        };
        if values.len() != key_moves.len() {
            return Err(SolveError::NotApplicable {
                message: format!(
                    "the Q-table has {} values for {} but there are {} legal moves there",
                    values.len(),
                    game.state_text(key),
                    key_moves.len()
                ),
                help: "was the table trained for these rules?".into(),
            });
        }
        let g = first_best(values);
        let Some(r) = &rep else {
            return Ok(Some((g, values[g])));
        };
        let mut child = r.clone();
        game.apply(&mut child, &rep_moves[g])?;
        let target = representative(game, child)?;
        for (i, mv) in moves.iter().enumerate() {
            let mut child = state.clone();
            game.apply(&mut child, mv)?;
            if representative(game, child)? == target {
                return Ok(Some((i, values[g])));
            }
        }
        Err(SolveError::NotApplicable {
            message: format!(
                "no move in {} leads where {} leads in its representative {}",
                game.state_text(state),
                game.move_text(&rep_moves[g]),
                game.state_text(r)
            ),
            help: "the `canonical` block must map a position only to one that plays alike, move for move".into(),
        })
    }

    /// The values the table holds for `state`'s class (see [`Self::greedy_move`]).
    pub fn get_class(&self, game: &G, state: &G::State) -> Result<Option<&[f64]>, GameError> {
        Ok(match game.canonical(state)? {
            Some(rep) => self.get(&rep),
            None => self.get(state),
        })
    }

    /// Moves `Q(state, i)` a step `alpha` towards `target`.
    fn update(&mut self, state: &G::State, n: usize, i: usize, alpha: f64, target: f64) {
        let values = match self.values.get_mut(state) {
            Some(v) => v,
            None => self.values.entry(state.clone()).or_insert_with(|| vec![0.0; n]),
        };
        values[i] += alpha * (target - values[i]);
    }
}

/// The index of the first largest value (0 for an empty slice).
fn first_best(values: &[f64]) -> usize {
    let mut best = 0;
    for (i, v) in values.iter().enumerate() {
        if *v > values[best] {
            best = i;
        }
    }
    best
}

/// Whether Q-learning by self-play handles this many players.
pub fn check_players<G: Game>(game: &G) -> Result<(), QLearnError> {
    if let Some(n) = game.repetition() {
        // Its table is keyed by position alone, which the rule makes too little.
        return Err(QLearnError::Unsupported(format!(
            "{} has the rule `end when repeated {n}`: a position's value depends on the positions before it, \
             which a Q-table keyed by position cannot tell apart",
            game.name()
        )));
    }
    match game.num_players() {
        1 | 2 => Ok(()),
        n => Err(QLearnError::Unsupported(format!(
            "{} has {n} players; Q-learning by self-play here learns games of one or two players \
             (the opponent's value is minus the mover's)",
            game.name()
        ))),
    }
}

/// The player to move in `state`, `None` at the end; an error at a chance or
/// simultaneous node.
fn mover_in<G: Game>(game: &G, state: &G::State) -> Result<Option<Player>, QLearnError> {
    match game.turn(state)? {
        Turn::Player(p) => Ok(Some(p)),
        Turn::Terminal => Ok(None),
        Turn::Chance | Turn::Simultaneous => Err(QLearnError::Unsupported(format!(
            "{} has chance or simultaneous moves; Q-learning by self-play learns turn-taking games \
             (reached in {})",
            game.name(),
            game.state_text(state)
        ))),
    }
}

/// Fills `out` with the legal moves of a state where someone moves; no move
/// there is an error in the rules.
fn moves_in<G: Game>(game: &G, state: &G::State, out: &mut Vec<G::Move>) -> Result<(), QLearnError> {
    game.legal_moves(state, out)?;
    if out.is_empty() {
        return Err(no_legal_move(game, state).into());
    }
    Ok(())
}

/// Learns a [`QTable`] by playing `game` against itself.
pub struct QLearner<'g, G: Game> {
    game: &'g G,
    settings: QSettings,
    table: QTable<G>,
    rng: StdRng,
    moves: Vec<G::Move>,
    next_moves: Vec<G::Move>,
}

impl<'g, G: Game> QLearner<'g, G> {
    /// A learner starting from `table` (empty for a fresh start).
    pub fn new(game: &'g G, settings: QSettings, table: QTable<G>) -> Result<Self, QLearnError> {
        check_players(game)?;
        settings.check().map_err(QLearnError::Unsupported)?;
        Ok(QLearner {
            game,
            settings,
            table,
            rng: StdRng::seed_from_u64(settings.seed),
            moves: Vec::new(),
            next_moves: Vec::new(),
        })
    }

    pub fn table(&self) -> &QTable<G> {
        &self.table
    }

    pub fn into_table(self) -> QTable<G> {
        self.table
    }

    /// Plays `episodes` games, or fewer if `stop` becomes true (checked
    /// between games, so a game is never half learned); calls `progress`
    /// with the number of games played every 256 games. Returns the number of
    /// games played.
    pub fn train(
        &mut self,
        episodes: u64,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(u64),
    ) -> Result<u64, QLearnError> {
        for done in 0..episodes {
            if stop.load(Ordering::Relaxed) {
                return Ok(done);
            }
            self.episode()?;
            // Every episode: the caller may stop at a memory limit, and one
            // episode of wide states can take megabytes.
            progress(done + 1);
        }
        progress(episodes);
        Ok(episodes)
    }

    /// Plays one game against itself from the initial state, updating the
    /// value of every move as soon as it is played.
    pub fn episode(&mut self) -> Result<(), QLearnError> {
        let game = self.game;
        // Played on representatives: see the module's documentation.
        let mut state = representative(game, game.initial_state()?)?;
        let Some(mut mover) = mover_in(game, &state)? else {
            return Ok(());
        };
        moves_in(game, &state, &mut self.moves)?;
        let mut next = state.clone();
        for _ in 0..MAX_PLAYOUT_PLIES {
            let n = self.moves.len();
            let i = self.explore(&state, n);
            next.clone_from(&state);
            game.apply(&mut next, &self.moves[i])?;
            if let Some(rep) = game.canonical(&next)? {
                next = rep;
            }
            let next_mover = mover_in(game, &next)?;
            let target = match next_mover {
                None => self.reward(&next, mover)?,
                Some(p) => {
                    moves_in(game, &next, &mut self.next_moves)?;
                    let best = self.table.best_value(&next);
                    if p == mover { best } else { -best }
                }
            };
            self.table.update(&state, n, i, self.settings.alpha, target);
            let Some(p) = next_mover else {
                return Ok(());
            };
            mover = p;
            std::mem::swap(&mut state, &mut next);
            std::mem::swap(&mut self.moves, &mut self.next_moves);
        }
        // The rules let a game run on without end.
        Err(GameError::new(
            RuntimeKind::Endless,
            format!(
                "a training game ran {MAX_PLAYOUT_PLIES} moves without ending (in {})",
                game.state_text(&state)
            ),
        )
        .with_help("check that every `end when` clause can become true")
        .into())
    }

    /// Epsilon-greedy: a uniformly random move with probability epsilon,
    /// else the greedy one.
    fn explore(&mut self, state: &G::State, n: usize) -> usize {
        if self.settings.epsilon > 0.0 && self.rng.random::<f64>() < self.settings.epsilon {
            self.rng.random_range(0..n)
        } else {
            self.table.greedy(state, n)
        }
    }

    /// The mover's utility at the end; checks that the game is zero-sum,
    /// which the negamax update relies on.
    fn reward(&self, end: &G::State, mover: Player) -> Result<f64, QLearnError> {
        let game = self.game;
        let mine = game.returns(end, mover)?;
        let other = if game.num_players() == 2 {
            Some(game.returns(end, 1 - mover)?)
        } else {
            None
        };
        let finite = mine.is_finite() && other.is_none_or(f64::is_finite);
        let zero_sum = other.is_none_or(|o| (mine + o).abs() <= 1e-9 * mine.abs().max(1.0));
        if !finite || !zero_sum {
            return Err(QLearnError::NotZeroSum {
                utilities: match other {
                    Some(o) if mover == 0 => format!("{mine} and {o}"),
                    Some(o) => format!("{o} and {mine}"),
                    None => mine.to_string(),
                },
                position: game.state_text(end),
            });
        }
        Ok(mine)
    }
}

/// Plays greedily by a Q-table (`q:FILE`): in every position the first move
/// of highest value; in a position the table never saw, the first legal move.
pub struct QAgent<G: Game> {
    name: String,
    table: QTable<G>,
}

impl<G: Game> QAgent<G> {
    /// An agent named `name` (as written on the command line) playing `table`.
    pub fn new(name: impl Into<String>, table: QTable<G>) -> Self {
        QAgent {
            name: name.into(),
            table,
        }
    }

    pub fn table(&self) -> &QTable<G> {
        &self.table
    }
}

impl<G: Game> Agent<G> for QAgent<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        _player: Player,
        moves: &[G::Move],
    ) -> Result<Choice<G::Move>, AgentError> {
        match self.table.greedy_move(game, state, moves)? {
            None => Ok(Choice {
                mv: moves[0].clone(),
                note: Some("a position the table never saw: the first legal move".into()),
            }),
            Some((i, value)) => Ok(Choice {
                mv: moves[i].clone(),
                note: Some(format!("Q = {value:.3}")),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_break_to_the_first_move() {
        assert_eq!(first_best(&[0.0, 0.5, 0.5, -1.0]), 1);
        assert_eq!(first_best(&[-1.0, -1.0]), 0);
        assert_eq!(first_best(&[]), 0);
    }

    #[test]
    fn settings_are_checked() {
        let ok = QSettings::default();
        assert!(ok.check().is_ok());
        for (alpha, epsilon) in [(0.0, 0.1), (1.5, 0.1), (f64::NAN, 0.1), (0.5, -0.1), (0.5, 1.1)] {
            let s = QSettings {
                alpha,
                epsilon,
                seed: 0,
            };
            assert!(s.check().is_err(), "{s:?}");
        }
    }
}
