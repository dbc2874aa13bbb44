//! `gdl.Game`, `gdl.State` and `gdl.Move`: a compiled game file and its
//! positions and moves, each call handed to the library's `Game` trait.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple, PyWeakrefReference};

use gdl::board::Look;
use gdl::game::{Game, Player, Turn, all_returns};
use gdl::report::board_picture;
use gdl::report::solve as report;
use gdl::runtime::encode::{self, Actions};
use gdl::runtime::{Interpreted, Move, State};
use gdl::solve::agents::budgeted::cap_memo;
use gdl::solve::{Algorithm, SolveError, SolveOptions, Watch};

use crate::convert::{json_to_py, value_to_py};
use crate::line::{self, Line};
use crate::origin::Meta;
use crate::{gdl_error, on_search_stack};

/// A game file, compiled with its parameters (`gdl.load`).
#[pyclass(frozen, weakref, name = "Game", module = "gdl")]
pub struct PyGame {
    pub(crate) game: Arc<Interpreted>,
    pub(crate) meta: Arc<Meta>,
}

/// A position, the player to move included. Immutable and hashable: a
/// state can be a dict key. `str()` is the position as gdl prints it.
///
/// In a game with the repetition rule (`end when repeated N`) a state also
/// carries the positions of its game before it (`history()`), and the move
/// that reaches a position for the Nth time ends the game. `==` and the
/// hash are the position's alone, as gdl's own tables key positions: two
/// equal states may then differ in their pasts, and one be over (reached
/// for the Nth time) where the other is not.
#[pyclass(frozen, eq, hash, name = "State", module = "gdl")]
pub struct PyState {
    pub(crate) state: State,
    /// The positions before this one, under a repetition rule; else none.
    pub(crate) past: Line,
    pub(crate) game: Arc<Interpreted>,
    pub(crate) meta: Arc<Meta>,
}

/// A move, as `legal_moves` lists it. Hashable; `str()` is the move in the
/// game's notation: `(0, 1)`.
#[pyclass(frozen, eq, hash, name = "Move", module = "gdl")]
pub struct PyMove {
    pub(crate) mv: Move,
    pub(crate) game: Arc<Interpreted>,
    pub(crate) meta: Arc<Meta>,
}

// Equal only within one loaded game: a state of another game (even of the
// same file) has other cells, and the interpreter must never see it. The
// past is not compared (see `PyState`): a position is a position, however
// it was reached, as in gdl's memo tables and OpenSpiel's observations.
impl PartialEq for PyState {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.game, &other.game) && self.state == other.state
    }
}

impl Hash for PyState {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.state.hash(h);
    }
}

impl PartialEq for PyMove {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.game, &other.game) && self.mv == other.mv
    }
}

impl Hash for PyMove {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.mv.hash(h);
    }
}

/// Warns that a name is deprecated (kept one release for old code).
pub(crate) fn deprecated(py: Python<'_>, message: &std::ffi::CStr) -> PyResult<()> {
    let category = py.get_type::<pyo3::exceptions::PyDeprecationWarning>();
    PyErr::warn(py, &category, message, 1)
}

/// Who acts, as Python reads it: the player's index, or "chance",
/// "simultaneous", "terminal".
fn turn_to_py(py: Python<'_>, turn: Turn) -> PyResult<Py<PyAny>> {
    Ok(match turn {
        Turn::Player(p) => p.into_pyobject(py)?.into_any().unbind(),
        Turn::Chance => "chance".into_pyobject(py)?.into_any().unbind(),
        Turn::Simultaneous => "simultaneous".into_pyobject(py)?.into_any().unbind(),
        Turn::Terminal => "terminal".into_pyobject(py)?.into_any().unbind(),
    })
}

impl PyGame {
    pub(crate) fn new(game: Arc<Interpreted>, meta: Arc<Meta>) -> Self {
        PyGame { game, meta }
    }

    /// The state, after checking that it is one of this game's.
    pub(crate) fn own<'s>(&self, s: &'s PyState) -> PyResult<&'s State> {
        if Arc::ptr_eq(&self.game, &s.game) {
            Ok(&s.state)
        } else {
            Err(PyValueError::new_err(
                "this state belongs to another game (each gdl.load makes a game of its own)",
            ))
        }
    }

    fn own_move(&self, m: &PyMove) -> PyResult<Move> {
        if Arc::ptr_eq(&self.game, &m.game) {
            Ok(m.mv)
        } else {
            Err(PyValueError::new_err(
                "this move belongs to another game (each gdl.load makes a game of its own)",
            ))
        }
    }

    /// A state that starts a line: the start of the game, a position
    /// given as text, an old pickle's.
    pub(crate) fn wrap_state(&self, state: State) -> PyState {
        PyState {
            state,
            past: None,
            game: self.game.clone(),
            meta: self.meta.clone(),
        }
    }

    /// The state a move led to from `from`: under a repetition rule it
    /// carries `from`'s line and `from` itself, and is over when this is
    /// the Nth time its position occurs on it.
    fn after_move(&self, from: &PyState, mut next: State) -> PyResult<PyState> {
        let past = match self.game.repetition() {
            Some(_) => line::extend(&from.past, &from.state),
            None => None,
        };
        line::reach(&self.game, &past, &mut next).map_err(|e| gdl_error(&e))?;
        Ok(PyState {
            state: next,
            past,
            game: self.game.clone(),
            meta: self.meta.clone(),
        })
    }

    /// A pickled state with the positions before it (`history`, the first
    /// one first), each checked as the state is: cells that some position
    /// of the game can have, no position where the game was already over
    /// (an end, or a position occurring N times), and the state itself
    /// over when the rule says so.
    pub(crate) fn restore(&self, state: State, history: Vec<State>) -> PyResult<PyState> {
        let Some(times) = self.game.repetition() else {
            if history.is_empty() {
                return Ok(self.wrap_state(state));
            }
            return Err(crate::GdlError::new_err(format!(
                "{} has no repetition rule: its states carry no positions before them, but this one has {}",
                self.game.name(),
                history.len()
            )));
        };
        let mut seen: std::collections::HashMap<&State, usize> = std::collections::HashMap::new();
        for (i, s) in history.iter().enumerate() {
            let count = seen.entry(s).or_default();
            *count += 1;
            if *count >= times as usize {
                return Err(crate::GdlError::new_err(format!(
                    "position {i} of the state's history occurs for the {} time there, which ends the game \
                     (`end when repeated {times}`): no move was played after it",
                    gdl::game::ordinal(*count)
                )));
            }
            if self.turn_of(s)? == Turn::Terminal {
                return Err(crate::GdlError::new_err(format!(
                    "position {i} of the state's history is an end of the game: no move was played after it: {}",
                    self.game.position(s)
                )));
            }
        }
        let mut past: Line = None;
        for s in &history {
            past = line::extend(&past, s);
        }
        let mut state = state;
        if !history.is_empty() {
            line::reach(&self.game, &past, &mut state).map_err(|e| gdl_error(&e))?;
        }
        Ok(PyState {
            state,
            past,
            game: self.game.clone(),
            meta: self.meta.clone(),
        })
    }

    pub(crate) fn wrap_move(&self, mv: Move) -> PyMove {
        PyMove {
            mv,
            game: self.game.clone(),
            meta: self.meta.clone(),
        }
    }

    /// The action numbering, made on first use.
    pub(crate) fn actions(&self) -> PyResult<&Actions> {
        let game: &Interpreted = &self.game;
        let made = self
            .meta
            .actions
            .get_or_init(|| match on_search_stack(|| Actions::of(game)) {
                Ok(Ok(a)) => Ok(a),
                Ok(Err(e)) => Err(crate::render(&e)),
                Err(e) => Err(e.to_string()),
            });
        made.as_ref().map_err(|e| crate::GdlError::new_err(e.clone()))
    }

    fn action_of(&self, mv: &Move) -> PyResult<usize> {
        self.actions()?.index_of(mv).ok_or_else(|| {
            PyValueError::new_err(format!(
                "`{}` has no action number: no position reachable from the start has it",
                self.game.move_text(mv)
            ))
        })
    }

    /// What `player` sees of `state`, as a 1-D numpy array of float32.
    fn tensor<'py>(&self, py: Python<'py>, state: &State, player: usize) -> PyResult<Bound<'py, PyAny>> {
        let player = self.check_player(player)?;
        let mut out = Vec::new();
        encode::observe(&self.game, state, player, &mut out).map_err(|e| gdl_error(&e))?;
        let bytes: Vec<u8> = out.iter().flat_map(|x| x.to_le_bytes()).collect();
        py.import("numpy")?
            .getattr("frombuffer")?
            .call1((PyBytes::new(py, &bytes), "<f4"))?
            .call_method0("copy")
    }

    /// The player whose turn `state` records (`turn(s, recorded=True)`).
    fn recorded_player(&self, state: &PyState) -> PyResult<Option<usize>> {
        let cell = self.own(state)?.cells()[gdl::ir::TURN_CELL];
        Ok(usize::try_from(cell).ok().filter(|&p| p < self.game.num_players()))
    }

    pub(crate) fn turn_of(&self, state: &State) -> PyResult<Turn> {
        self.game.turn(state).map_err(|e| gdl_error(&e))
    }

    fn check_player(&self, player: usize) -> PyResult<Player> {
        if player < self.game.num_players() {
            Ok(player)
        } else {
            Err(PyValueError::new_err(format!(
                "player {player} does not exist: {} has players 0 to {}",
                self.game.name(),
                self.game.num_players() - 1
            )))
        }
    }

    /// The moves `player` (default: whoever acts) may choose from in `state`.
    pub(crate) fn moves_for(&self, state: &State, player: Option<usize>) -> PyResult<(Option<Player>, Vec<Move>)> {
        let mut out = Vec::new();
        let turn = self.turn_of(state)?;
        let player = match (player, turn) {
            (Some(p), _) => Some(self.check_player(p)?),
            (None, Turn::Player(p)) => Some(p),
            (None, Turn::Simultaneous) => {
                return Err(PyValueError::new_err(
                    "every player moves at once here: ask for one player's moves with player=P",
                ));
            }
            (None, _) => None,
        };
        match (player, turn) {
            (_, Turn::Terminal) => {}
            (Some(p), _) => self
                .game
                .legal_moves_of(state, p, &mut out)
                .map_err(|e| gdl_error(&e))?,
            (None, _) => self.game.legal_moves(state, &mut out).map_err(|e| gdl_error(&e))?,
        }
        Ok((player, out))
    }
}

#[pymethods]
impl PyGame {
    /// The game's name, as its file declares it.
    #[getter]
    fn name(&self) -> &str {
        self.game.name()
    }

    /// The players' names, in turn order; a player is named by its index.
    #[getter]
    fn players(&self) -> Vec<String> {
        (0..self.game.num_players())
            .map(|p| self.game.player_name(p).to_string())
            .collect()
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.game.num_players()
    }

    /// The parameters and the values they are bound to, as gdl prints them.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (k, v) in &self.game.program().params {
            dict.set_item(k, v)?;
        }
        Ok(dict)
    }

    /// The names of the game's kinds of move (its `move` declarations), in order.
    #[getter]
    fn move_kinds(&self) -> Vec<String> {
        self.game.program().moves.iter().map(|m| m.name.clone()).collect()
    }

    /// Whether some moves are made by chance.
    #[getter]
    fn has_chance(&self) -> bool {
        self.game.program().has_chance
    }

    /// Whether the players sometimes move at once.
    #[getter]
    fn has_simultaneous(&self) -> bool {
        self.game.program().has_simultaneous
    }

    /// Whether some player cannot see the whole state (`hidden` or `private` state).
    #[getter]
    fn has_hidden(&self) -> bool {
        encode::has_hidden(self.game.program())
    }

    /// Whether the returns at every end sum to zero.
    #[getter]
    fn zero_sum(&self) -> bool {
        encode::zero_sum(self.game.program())
    }

    /// N of the game's repetition rule (`end when repeated N`: the move
    /// that reaches a position for the Nth time ends the game); None
    /// without one.
    #[getter]
    fn repetition(&self) -> Option<u32> {
        self.game.repetition()
    }

    /// N of the game file's `max moves N` (no game is longer than N moves
    /// of the players; play past it is an error); None without one.
    #[getter]
    fn max_moves(&self) -> Option<u64> {
        self.game.max_moves()
    }

    /// The lowest and highest return a player can get, when the rules say
    /// so before any play (a winner's payoff); None when play decides (scores).
    fn utility_range(&self) -> Option<(f64, f64)> {
        self.game.utility_range()
    }

    /// Looks through every position reachable from the start: a dict of
    /// `positions`, `longest` (the most moves of players in one game; None
    /// when a position can recur), `min_utility` and `max_utility` (of any
    /// player at any end); None when there are more than `max_positions`.
    // The default is encode::MAX_EXPLORED, written out so that the
    // signature Python shows (and stubtest reads) has the number.
    #[pyo3(signature = (max_positions = 200_000))]
    fn explore<'py>(&self, py: Python<'py>, max_positions: usize) -> PyResult<Option<Bound<'py, PyDict>>> {
        let game: &Interpreted = &self.game;
        let found = py
            .detach(|| on_search_stack(|| encode::explore(game, max_positions)))?
            .map_err(|e| gdl_error(&e))?;
        let Some(e) = found else { return Ok(None) };
        let dict = PyDict::new(py);
        dict.set_item("positions", e.positions)?;
        dict.set_item("longest", e.longest)?;
        dict.set_item("min_utility", e.utility.map(|u| u.0))?;
        dict.set_item("max_utility", e.utility.map(|u| u.1))?;
        Ok(Some(dict))
    }

    /// How many moves the game can ever make (chance outcomes included),
    /// numbered 0.. in the game's order: OpenSpiel's actions. Raises
    /// GdlError when they cannot be numbered.
    fn num_distinct_actions(&self) -> PyResult<usize> {
        Ok(self.actions()?.len())
    }

    /// The move numbered `action`.
    fn action_to_move(&self, action: usize) -> PyResult<PyMove> {
        let actions = self.actions()?;
        let mv = actions
            .get(action)
            .ok_or_else(|| PyIndexError::new_err(format!("action {action} is not one of 0..{}", actions.len())))?;
        Ok(self.wrap_move(mv))
    }

    /// The number of `move` (see `num_distinct_actions`).
    fn move_to_action(&self, r#move: &PyMove) -> PyResult<usize> {
        let mv = self.own_move(r#move)?;
        self.action_of(&mv)
    }

    /// The numbers of the legal moves in `state`, ascending; at a
    /// simultaneous node give `player`.
    #[pyo3(signature = (state, player=None))]
    fn legal_actions(&self, state: &PyState, player: Option<usize>) -> PyResult<Vec<usize>> {
        let (_, moves) = self.moves_for(self.own(state)?, player)?;
        moves.iter().map(|m| self.action_of(m)).collect()
    }

    /// The shape of `observation_tensor`'s arrays: `(n,)`.
    fn observation_tensor_shape(&self) -> (usize,) {
        (encode::observation_size(self.game.program()),)
    }

    /// What `player` sees of `state` as a numpy array (see docs/PYTHON.md
    /// for the encoding); the same as `state.observation_tensor(player)`.
    fn observation_tensor<'py>(&self, py: Python<'py>, state: &PyState, player: usize) -> PyResult<Bound<'py, PyAny>> {
        self.tensor(py, self.own(state)?, player)
    }

    // The rules never change: a copy is the game itself (OpenSpiel's
    // states deep-copy what they hold).
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let o = &self.meta.origin;
        let bindings = (o.bindings.iter())
            .map(|(name, value)| Ok((name.as_str(), crate::convert::param_to_py(py, value)?)))
            .collect::<PyResult<Vec<_>>>()?;
        let args = (o.name.as_str(), o.text.as_str(), bindings, o.engine.as_str());
        Ok((py.import("gdl._gdl")?.getattr("_load_text")?, args.into_pyobject(py)?))
    }

    fn initial_state(&self) -> PyResult<PyState> {
        let s = self.game.initial_state().map_err(|e| gdl_error(&e))?;
        Ok(self.wrap_state(s))
    }

    /// Who acts in `state`: the player's index, or "chance", "simultaneous",
    /// "terminal". With `recorded=True`, the player whose turn the state
    /// records instead, even at a chance node and once the game is over
    /// (then the one who would have moved next: AIMA's `to_move` at the
    /// end); None where it names nobody.
    #[pyo3(signature = (state, *, recorded=false))]
    fn turn(&self, py: Python<'_>, state: &PyState, recorded: bool) -> PyResult<Py<PyAny>> {
        if recorded {
            let player = self.recorded_player(state)?;
            return Ok(player.into_pyobject(py)?.into_any().unbind());
        }
        turn_to_py(py, self.turn_of(self.own(state)?)?)
    }

    /// Deprecated: `turn(state, recorded=True)`.
    fn next_player(&self, py: Python<'_>, state: &PyState) -> PyResult<Option<usize>> {
        deprecated(
            py,
            c"Game.next_player(s) is deprecated; use Game.turn(s, recorded=True)",
        )?;
        self.recorded_player(state)
    }

    /// Deprecated: `turn(state)`, the same answer.
    fn to_move(&self, py: Python<'_>, state: &PyState) -> PyResult<Py<PyAny>> {
        deprecated(py, c"Game.to_move(s) is deprecated; use Game.turn(s), the same answer")?;
        self.turn(py, state, false)
    }

    fn is_terminal(&self, state: &PyState) -> PyResult<bool> {
        Ok(self.turn_of(self.own(state)?)? == Turn::Terminal)
    }

    /// The legal moves in `state`, in the game's order; at a simultaneous
    /// node give `player`. Empty when the game is over.
    #[pyo3(signature = (state, player=None))]
    fn legal_moves(&self, state: &PyState, player: Option<usize>) -> PyResult<Vec<PyMove>> {
        let (_, moves) = self.moves_for(self.own(state)?, player)?;
        Ok(moves.into_iter().map(|m| self.wrap_move(m)).collect())
    }

    /// At a chance node: each outcome (a move) with its probability.
    fn chance_outcomes(&self, state: &PyState) -> PyResult<Vec<(PyMove, f64)>> {
        let s = self.own(state)?;
        if self.turn_of(s)? != Turn::Chance {
            return Err(PyValueError::new_err("this is not a chance node"));
        }
        let mut out = Vec::new();
        self.game.chance_outcomes(s, &mut out).map_err(|e| gdl_error(&e))?;
        Ok(out.into_iter().map(|(m, p)| (self.wrap_move(m), p)).collect())
    }

    /// The state after `move`, which must be legal in `state` (a player's
    /// move, or a chance outcome). `state` itself is unchanged.
    fn apply(&self, state: &PyState, r#move: &PyMove) -> PyResult<PyState> {
        let s = self.own(state)?;
        let mv = self.own_move(r#move)?;
        match self.turn_of(s)? {
            Turn::Terminal => return Err(PyValueError::new_err("the game is over: no move can be played")),
            Turn::Simultaneous => {
                return Err(PyValueError::new_err(
                    "every player moves at once here: use apply_joint(state, [one move per player])",
                ));
            }
            Turn::Player(_) | Turn::Chance => {}
        }
        let mut legal = Vec::new();
        self.game.legal_moves(s, &mut legal).map_err(|e| gdl_error(&e))?;
        if !legal.contains(&mv) {
            return Err(PyValueError::new_err(format!(
                "`{}` is not a legal move in {}",
                self.game.move_text(&mv),
                self.game.position(s)
            )));
        }
        let mut next = s.clone();
        self.game.apply(&mut next, &mv).map_err(|e| gdl_error(&e))?;
        self.after_move(state, next)
    }

    /// At a simultaneous node: the state after every player's move at once,
    /// `moves[p]` being player p's.
    fn apply_joint(&self, state: &PyState, moves: Vec<PyRef<'_, PyMove>>) -> PyResult<PyState> {
        let s = self.own(state)?;
        if self.turn_of(s)? != Turn::Simultaneous {
            return Err(PyValueError::new_err("this is not a simultaneous node: use apply"));
        }
        let n = self.game.num_players();
        if moves.len() != n {
            return Err(PyValueError::new_err(format!(
                "apply_joint needs one move per player: {n}, not {}",
                moves.len()
            )));
        }
        let mut joint = Vec::with_capacity(n);
        let mut legal = Vec::new();
        for (p, m) in moves.iter().enumerate() {
            let mv = self.own_move(m)?;
            self.game.legal_moves_of(s, p, &mut legal).map_err(|e| gdl_error(&e))?;
            if !legal.contains(&mv) {
                return Err(PyValueError::new_err(format!(
                    "`{}` is not a legal move of {} in {}",
                    self.game.move_text(&mv),
                    self.game.player_name(p),
                    self.game.position(s)
                )));
            }
            joint.push(mv);
        }
        let mut next = s.clone();
        self.game.apply_joint(&mut next, &joint).map_err(|e| gdl_error(&e))?;
        self.after_move(state, next)
    }

    /// The utility of a finished game for each player, in player order.
    fn returns(&self, state: &PyState) -> PyResult<Vec<f64>> {
        let s = self.own(state)?;
        if self.turn_of(s)? != Turn::Terminal {
            return Err(PyValueError::new_err(format!(
                "the game is not over in {}: returns are known at the end",
                self.game.position(s)
            )));
        }
        all_returns(&*self.game, s).map_err(|e| gdl_error(&e))
    }

    /// The game's estimate of `player`'s return in `state` (its `evaluate`
    /// function, which searches that stop before the end use); None where
    /// the game has none. At the end of a game, the returns themselves.
    fn evaluate(&self, state: &PyState, player: usize) -> PyResult<Option<f64>> {
        let s = self.own(state)?;
        let player = self.check_player(player)?;
        if self.turn_of(s)? == Turn::Terminal {
            return self.game.returns(s, player).map(Some).map_err(|e| gdl_error(&e));
        }
        self.game.evaluate(s, player).map_err(|e| gdl_error(&e))
    }

    /// The final scores of a game decided by points (X Nimmt!), else None.
    fn scores(&self, state: &PyState) -> PyResult<Option<Vec<f64>>> {
        let s = self.own(state)?;
        if self.turn_of(s)? == Turn::Terminal {
            self.game.scores(s).map_err(|e| gdl_error(&e))
        } else {
            self.game.running_scores(s).map_err(|e| gdl_error(&e))
        }
    }

    /// What `player` sees of `state`, as text: equal for two states exactly
    /// when the player cannot tell them apart.
    fn observation(&self, state: &PyState, player: usize) -> PyResult<String> {
        let s = self.own(state)?;
        Ok(self.game.observation(s, self.check_player(player)?))
    }

    /// The state field by field as `player` may see it (hidden fields left
    /// out, others' private entries as `?`); everything when player is None.
    #[pyo3(signature = (state, player=None))]
    fn view<'py>(&self, py: Python<'py>, state: &PyState, player: Option<usize>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.own(state)?;
        let viewer = player.map(|p| self.check_player(p)).transpose()?;
        let dict = PyDict::new(py);
        for (name, value) in self.game.view(s, viewer) {
            dict.set_item(name, value)?;
        }
        Ok(dict)
    }

    /// The value of the state variable `name`: an int, a bool, a player's
    /// index, a list, a frozenset. Sees everything, hidden or not.
    fn value(&self, py: Python<'_>, state: &PyState, name: &str) -> PyResult<Py<PyAny>> {
        let s = self.own(state)?;
        match self.game.value_of(s, name) {
            Some(v) => value_to_py(py, &v),
            None => {
                let names: Vec<&str> = self.game.program().vars.iter().map(|v| v.name.as_str()).collect();
                Err(PyValueError::new_err(format!(
                    "{} has no state variable `{name}`; it has: {}",
                    self.game.name(),
                    names.join(", ")
                )))
            }
        }
    }

    /// The legal move written `text` in the game's notation (`"(0, 1)"`,
    /// spaces and brackets forgiven); at a simultaneous node give `player`.
    #[pyo3(signature = (state, text, player=None))]
    fn parse_move(&self, state: &PyState, text: &str, player: Option<usize>) -> PyResult<PyMove> {
        let s = self.own(state)?;
        let player = player.map(|p| self.check_player(p)).transpose()?;
        let parsed = on_search_stack(|| match player {
            Some(p) => self.game.parse_move_of(s, p, text),
            None => self.game.parse_move(s, text),
        })?;
        parsed.map(|m| self.wrap_move(m)).map_err(crate::GdlError::new_err)
    }

    /// The position written as gdl prints one: `"[0, 2, 3, 1]; MIN to move"`.
    fn parse_position(&self, text: &str) -> PyResult<PyState> {
        // On gdl's stack, as the command line reads `--from`: a million `[`
        // is refused there, where it would overflow a Python thread's stack.
        let s = on_search_stack(|| self.game.parse_position(text).map_err(Box::new))?.map_err(|e| gdl_error(&*e))?;
        Ok(self.wrap_state(s))
    }

    /// Solves `state` (default: the start) exactly and returns what
    /// `gdl solve --json` prints: value, winner, best_moves, pv, length,
    /// nodes, states, ... With explain=True, every move's value too. With
    /// threads=N (N > 1) the memo table is filled on N threads, with the
    /// same answers; `states` then counts every reachable position and
    /// `nodes` all threads' work (as `gdl solve --threads N`). Under a
    /// repetition rule the search counts the positions of `state`'s
    /// history too.
    #[pyo3(signature = (state=None, *, algorithm="alphabeta", memo=true, fast=false, explain=false, max_nodes=None, threads=1))]
    #[allow(clippy::too_many_arguments)]
    fn solve(
        &self,
        py: Python<'_>,
        state: Option<&PyState>,
        algorithm: &str,
        memo: bool,
        fast: bool,
        explain: bool,
        max_nodes: Option<u64>,
        threads: usize,
    ) -> PyResult<Py<PyAny>> {
        if threads == 0 {
            return Err(PyValueError::new_err("threads must be at least 1"));
        }
        let root = match state {
            Some(s) => self.own(s)?.clone(),
            None => self.game.initial_state().map_err(|e| gdl_error(&e))?,
        };
        // The positions before the root, which a repetition rule counts.
        let before = state.map(|s| line::oldest_first(&s.past)).unwrap_or_default();
        let (algorithm, algorithm_text) = match algorithm {
            "alphabeta" => (Algorithm::AlphaBeta, "alpha-beta"),
            "minimax" => (Algorithm::Minimax, "minimax"),
            other => {
                return Err(PyValueError::new_err(format!(
                    "algorithm `{other}`: choose \"alphabeta\" or \"minimax\""
                )));
            }
        };
        if max_nodes == Some(0) {
            return Err(PyValueError::new_err("max_nodes must be at least 1"));
        }
        // Watched: a Python signal handler that raises stops the search.
        let watch = Arc::new(Watch::default());
        let mut opts = SolveOptions {
            algorithm,
            memo,
            prefer_short: fast,
            max_nodes,
            watch: Some(watch.clone()),
            ..SolveOptions::default()
        };
        let game: &Interpreted = &self.game;
        let started = std::time::Instant::now();
        // The memory guard as `gdl solve` has it: the memo table stops at
        // its share of the cap, with a message that names the limit.
        crate::guard::arm_memory(false);
        let memory_binds = cap_memo::<Interpreted>(&mut opts, &root, 1);
        let solved = crate::guard::interruptible(py, &watch.stop, || {
            {
                let mut solver = gdl::solve::exact::parallel::solver(game, &root, &opts, threads)?;
                solver.set_history(&before);
                let solution = solver.solve(&root)?;
                let moves = match (explain, threads) {
                    (false, _) => None,
                    // One thread: a fresh search, as `gdl solve --explain`
                    // makes; it knows no positions before the root.
                    (true, 1) if before.is_empty() => Some(gdl::solve::explain(game, &root, &opts)?),
                    (true, _) => Some(solver.explain(&root)?),
                };
                Ok::<_, gdl::solve::SolveError>((solution, moves))
            }
        })?;
        let (solution, moves) = solved.map_err(|e| match e {
            SolveError::Budget {
                what: "states",
                limit,
                nodes,
            } if memory_binds => crate::guard::memory_stop(&limit, nodes),
            e => gdl_error(&e),
        })?;
        // The same header `gdl solve` fills in, so that the keys and the
        // texts are the command's.
        let method = format!(
            "{algorithm_text}{}{}",
            if memo {
                " with a memo table of (state, player to move)"
            } else {
                " without memo"
            },
            if fast {
                ", preferring fast wins and slow losses"
            } else {
                ""
            }
        );
        let position = game.position(&root);
        let (state_part, turn_part) = position.rsplit_once("; ").unwrap_or((&position, ""));
        let header = report::Header {
            game: game.name(),
            params: &game.program().params,
            position: state_part.to_string(),
            to_move: turn_part.trim_end_matches(" to move").to_string(),
            // The JSON has no picture.
            board: None,
            method,
            fast,
            // What the command calls "in all": here, this call.
            wall_seconds: started.elapsed().as_secs_f64(),
        };
        let mut value = report::json(game, &header, &solution);
        if let Some(moves) = moves {
            value["explain"] = moves
                .iter()
                .map(|m| {
                    serde_json::json!({
                        "move": game.move_text(&m.mv),
                        "value": m.value,
                        "line": m.line.iter().map(|x| game.move_text(x)).collect::<Vec<_>>(),
                    })
                })
                .collect();
        }
        json_to_py(py, &value)
    }

    fn __repr__(&self) -> String {
        let params: Vec<String> = self
            .game
            .program()
            .params
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect();
        if params.is_empty() {
            format!("<gdl.Game {}>", self.game.name())
        } else {
            format!("<gdl.Game {} ({})>", self.game.name(), params.join(", "))
        }
    }
}

#[pymethods]
impl PyState {
    /// The board where the game's `display` draws one, then whose move it
    /// is; else the position as `gdl --from` reads it (`raw`).
    fn __str__(&self) -> String {
        let position = self.game.position(&self.state);
        match self.game.board(&self.state) {
            Ok(Some(board)) => {
                let whose = position.rsplit_once("; ").map_or("", |(_, w)| w);
                format!("{}\n{whose}", board.text())
            }
            _ => position,
        }
    }

    /// The position as gdl prints it and `--from` reads it: `[7, 5, 3, 1]; MAX to move`.
    #[getter]
    fn raw(&self) -> String {
        self.game.position(&self.state)
    }

    fn __repr__(&self) -> String {
        format!("<gdl.State {}>", self.game.position(&self.state))
    }

    /// The position as a picture: a numpy array of uint8, of the shape
    /// `(height, width, 3)` (RGB): the board the game's `display` draws,
    /// else the position's text. Gymnasium's `render_mode="rgb_array"`.
    fn render_rgb<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let board = self.game.board(&self.state).map_err(|e| gdl_error(&e))?;
        let plain = Look::default();
        let (symbols, look) = match &self.game.program().display {
            Some(d) => (d.symbols.as_slice(), &d.look),
            None => (&[][..], &plain),
        };
        let text = self.game.position(&self.state);
        let picture = py.detach(|| board_picture::board_rgb(board.as_ref(), symbols, look, &text));
        py.import("numpy")?
            .getattr("frombuffer")?
            .call1((PyBytes::new(py, &picture.pixels), "u1"))?
            .call_method1("reshape", ((picture.height as usize, picture.width as usize, 3usize),))?
            .call_method0("copy")
    }

    /// What `player` sees of this state as a numpy array of float32, of the
    /// shape `game.observation_tensor_shape()`.
    fn observation_tensor<'py>(&self, py: Python<'py>, player: usize) -> PyResult<Bound<'py, PyAny>> {
        self.python_game(py)?.get().tensor(py, &self.state, player)
    }

    /// The number of `move` in the game's action numbering.
    fn move_to_action(&self, py: Python<'_>, r#move: &PyMove) -> PyResult<usize> {
        self.python_game(py)?.get().move_to_action(r#move)
    }

    /// The positions of the game before this state, the first one first,
    /// under a repetition rule (`end when repeated N`), which counts them;
    /// each one a state with its own history. Empty for the start of a
    /// game (or a position from `parse_position`), and for every state of
    /// a game without the rule, whose states keep no past.
    fn history(&self) -> Vec<PyState> {
        let mut out: Vec<PyState> = line::positions(&self.past)
            .map(|p| PyState {
                state: p.state.clone(),
                past: p.before.clone(),
                game: self.game.clone(),
                meta: self.meta.clone(),
            })
            .collect();
        out.reverse();
        out
    }

    // Pickled as its game, its cells and, under a repetition rule, the
    // cells of every position before it (as `_state` reads them back), so
    // that an unpickled state ends the game on the same move as this one.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rebuild = py.import("gdl._gdl")?.getattr("_state")?;
        let game = self.python_game(py)?;
        if self.game.repetition().is_none() {
            // The format of states without a past, as before the rule was kept.
            return Ok((rebuild, (game, self.state.cells()).into_pyobject(py)?));
        }
        let mut history: Vec<Vec<i64>> = line::positions(&self.past).map(|p| p.state.cells()).collect();
        history.reverse();
        Ok((rebuild, (game, self.state.cells(), history).into_pyobject(py)?))
    }

    // Immutable: a copy is the state itself.
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }
}

#[pymethods]
impl PyMove {
    /// The name of the `move` declaration this move comes from (`take`).
    #[getter]
    fn kind(&self) -> String {
        self.game.program().moves[self.mv.kind()].name.clone()
    }

    /// The move's arguments, as a tuple of ints: `(0, 1)` for `take(0, 1)`.
    #[getter]
    fn args<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let n = self.game.program().moves[self.mv.kind()].args.len();
        PyTuple::new(py, &self.mv.args()[..n])
    }

    /// Whether chance makes this move (its declaration is a `chance move`):
    /// no player ever chooses it.
    #[getter]
    fn by_chance(&self) -> bool {
        self.game.program().moves[self.mv.kind()].by == gdl::syntax::ast::MoveBy::Chance
    }

    fn __str__(&self) -> String {
        self.game.move_text(&self.mv)
    }

    fn __repr__(&self) -> String {
        format!("<gdl.Move {}>", self.game.move_text(&self.mv))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let game = python_game(py, &self.game, &self.meta)?;
        let n = self.game.program().moves[self.mv.kind()].args.len();
        let args = (game, self.mv.kind(), self.mv.args()[..n].to_vec());
        Ok((py.import("gdl._gdl")?.getattr("_move")?, args.into_pyobject(py)?))
    }

    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }
}

impl PyState {
    fn python_game(&self, py: Python<'_>) -> PyResult<Py<PyGame>> {
        python_game(py, &self.game, &self.meta)
    }
}

/// The Python `Game` of these rules: the one alive, else a new one, which
/// is remembered (weakly) for next time.
pub(crate) fn python_game(py: Python<'_>, game: &Arc<Interpreted>, meta: &Arc<Meta>) -> PyResult<Py<PyGame>> {
    let mut slot = meta.object.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(weak) = slot.as_ref() {
        let alive = weak.bind(py).call0()?;
        if !alive.is_none() {
            return Ok(alive.cast_into::<PyGame>()?.unbind());
        }
    }
    let made = Py::new(py, PyGame::new(game.clone(), meta.clone()))?;
    *slot = Some(PyWeakrefReference::new(made.bind(py))?.into_any().unbind());
    Ok(made)
}
