//! The interpreter: runs a compiled [`Program`] as a [`Game`].

mod position;
mod visibility;
mod vm;

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use crate::compile::{ShowValue, load_value};
use crate::game::{Game, GameError, Player, Turn};
use crate::ir::code::{Code, Entry, Value};
use crate::ir::{self, MAX_MOVE_ARGS, MoveBy, Outcome, PREVIOUS_CELL, Program, TURN_CELL};
pub use position::PositionError;
pub(crate) use vm::compare;
use vm::{Budget, Generator, Reader, Writer, with_frame};

/// A position: the cells of the program's state, the player to move included.
///
/// Besides the cells, a state remembers which `end when` clause holds once
/// `turn` has found out, so that `returns` (and a second `turn`) need not
/// evaluate the end conditions again. It is derived from the cells, so
/// equality, hashing and order look at the cells alone.
pub struct State {
    cells: Box<[i64]>,
    /// `UNKNOWN`, `NOT_ENDED`, or the index of the first clause that holds.
    /// Relaxed atomics: a plain load and store, and a `&State` may be shared.
    ended: AtomicU32,
}

/// `State::ended` before `turn` has looked.
const UNKNOWN: u32 = u32::MAX;
/// `State::ended` when no `end when` clause holds.
const NOT_ENDED: u32 = u32::MAX - 1;

impl State {
    pub(super) fn new(cells: Box<[i64]>) -> State {
        State {
            cells,
            ended: AtomicU32::new(UNKNOWN),
        }
    }

    pub fn cells(&self) -> &[i64] {
        &self.cells
    }

    /// The cells, to change them: what `turn` remembered is forgotten.
    #[inline(always)]
    fn cells_mut(&mut self) -> &mut [i64] {
        *self.ended.get_mut() = UNKNOWN;
        &mut self.cells
    }
}

impl Clone for State {
    fn clone(&self) -> Self {
        State {
            cells: self.cells.clone(),
            ended: AtomicU32::new(self.ended.load(Relaxed)),
        }
    }

    /// The searches reuse one child state per level with `clone_from`: every
    /// state of a game has the same length, so this copies without allocating
    /// (and, for the few cells most games have, without a call to `memcpy`).
    #[inline(never)]
    fn clone_from(&mut self, source: &Self) {
        *self.ended.get_mut() = source.ended.load(Relaxed);
        if self.cells.len() == source.cells.len() {
            if self.cells.len() <= 8 {
                for (d, s) in self.cells.iter_mut().zip(source.cells.iter()) {
                    *d = *s;
                }
            } else {
                self.cells.copy_from_slice(&source.cells);
            }
        } else {
            self.cells = source.cells.clone();
        }
    }
}

impl PartialEq for State {
    fn eq(&self, other: &Self) -> bool {
        self.cells == other.cells
    }
}

impl Eq for State {}

impl Hash for State {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.cells.hash(h);
    }
}

impl PartialOrd for State {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for State {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.cells.cmp(&other.cells)
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("State").field("cells", &self.cells).finish()
    }
}

/// A move: which `move` declaration, and its arguments.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Move {
    pub(crate) kind: u16,
    pub(crate) args: [i64; MAX_MOVE_ARGS],
}

impl Move {
    pub fn kind(&self) -> usize {
        self.kind as usize
    }

    pub fn args(&self) -> &[i64] {
        &self.args
    }
}

/// A `.game` file, compiled, as a [`Game`].
#[derive(Clone, Debug)]
pub struct Interpreted {
    prog: Arc<Program>,
    /// The rules as flat code.
    code: Arc<Code>,
}

impl Interpreted {
    pub fn new(prog: Program) -> Self {
        let code = ir::lower_code::lower(&prog);
        Interpreted {
            prog: Arc::new(prog),
            code: Arc::new(code),
        }
    }

    pub fn program(&self) -> &Program {
        &self.prog
    }

    /// The rules as flat code.
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// Adds the source file and the position to an error from the rules.
    fn locate(&self, e: GameError, cells: &[i64]) -> GameError {
        let state = self.position_text(cells);
        e.with_source((*self.prog.source).clone()).in_state(state)
    }

    fn position_text(&self, cells: &[i64]) -> String {
        let turn = cells[TURN_CELL];
        let who = self.prog.players.get(turn as usize).map_or("nobody", String::as_str);
        format!("{}; {who} to move", self.cells_text(cells))
    }

    fn cells_text(&self, cells: &[i64]) -> String {
        let parts: Vec<String> = self
            .prog
            .vars
            .iter()
            .map(|v| {
                let value = load_value(&v.layout, &cells[v.offset..v.offset + v.layout.size()]);
                let shown = ShowValue(&value, &self.prog.players).to_string();
                // A lone list or set is the whole board: `[7, 5, 3, 1]`, as the seeds write it.
                if self.prog.vars.len() == 1 && !v.layout.is_scalar() {
                    shown
                } else {
                    format!("{}: {shown}", v.name)
                }
            })
            .collect();
        parts.join(", ")
    }

    /// The state field by field (`board`, `[7, 5, 3, 1]`) as `viewer` may
    /// see it: hidden fields left out, other players' private entries as `?`;
    /// `None` sees everything.
    pub fn view(&self, state: &State, viewer: Option<Player>) -> Vec<(String, String)> {
        visibility::view(self, &state.cells, viewer)
    }

    /// The value of the state variable `name`, if there is one.
    pub fn value_of(&self, state: &State, name: &str) -> Option<crate::compile::Value> {
        let v = self.prog.vars.iter().find(|v| v.name == name)?;
        Some(load_value(
            &v.layout,
            &state.cells[v.offset..v.offset + v.layout.size()],
        ))
    }

    /// A position as `--from` reads it and solve prints it: the state, then whose move.
    pub fn position(&self, state: &State) -> String {
        self.position_text(&state.cells)
    }

    /// Reads a position written as gdl prints one (see `position`).
    pub fn parse_position(&self, text: &str) -> Result<State, PositionError> {
        position::parse(self, text)
    }

    /// Runs the rule at `entry` on cells it only reads, with a zeroed frame.
    #[inline(always)]
    fn eval(&self, entry: Entry, cells: &[i64], budget: &mut Budget) -> Result<i64, GameError> {
        with_frame(entry.frame, |frame| {
            vm::run(&self.code, &self.prog, entry, &mut Reader(cells), frame, budget)
        })
    }

    /// Calls `found` with each legal move of kind `k`; stops early when it returns true.
    #[inline(always)]
    fn moves_of_kind<F: FnMut(Move) -> bool>(
        &self,
        budget: &mut Budget,
        k: usize,
        me: Player,
        cells: &[i64],
        found: F,
    ) -> Result<bool, GameError> {
        let mk = &self.prog.moves[k];
        let entry = self.code.moves[k].generate;
        let run = with_frame(entry.frame, |frame| {
            if let Some(l) = mk.me_local {
                frame[l] = me as i64;
            }
            let mut host = Generator { cells, found };
            vm::run(&self.code, &self.prog, entry, &mut host, frame, budget)
        });
        match run {
            Ok(v) => Ok(v == vm::STOPPED),
            // An error without a place of its own points at the move.
            Err(e) => Err(e.at(mk.span.into())),
        }
    }

    /// Calls `found` with each legal move made `by`, for player `me`; stops early when it returns true.
    fn moves_by<F: FnMut(Move) -> bool>(
        &self,
        budget: &mut Budget,
        by: MoveBy,
        me: Player,
        cells: &[i64],
        mut found: F,
    ) -> Result<bool, GameError> {
        for (k, mk) in self.prog.moves.iter().enumerate() {
            if mk.by == by && self.moves_of_kind(budget, k, me, cells, &mut found)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn any_move_by(&self, budget: &mut Budget, by: MoveBy, me: Player, cells: &[i64]) -> Result<bool, GameError> {
        self.moves_by(budget, by, me, cells, |_| true)
    }

    /// Who acts, assuming the game is not over: chance while a chance move is
    /// legal, then everyone at once while a simultaneous move is, else the player to move.
    fn actor(&self, budget: &mut Budget, cells: &[i64]) -> Result<Turn, GameError> {
        if self.prog.has_chance && self.any_move_by(budget, MoveBy::Chance, 0, cells)? {
            return Ok(Turn::Chance);
        }
        if self.prog.has_simultaneous && self.any_move_by(budget, MoveBy::Simultaneous, 0, cells)? {
            return Ok(Turn::Simultaneous);
        }
        Ok(Turn::Player(cells[TURN_CELL] as usize))
    }

    /// Whether anyone can move: the player to move, chance, or (at once) everyone.
    fn has_move(&self, budget: &mut Budget, cells: &[i64]) -> Result<bool, GameError> {
        let current = cells[TURN_CELL] as usize;
        Ok(self.any_move_by(budget, MoveBy::Turn, current, cells)?
            || (self.prog.has_chance && self.any_move_by(budget, MoveBy::Chance, 0, cells)?)
            || (self.prog.has_simultaneous && self.any_move_by(budget, MoveBy::Simultaneous, 0, cells)?))
    }

    /// The first end clause that holds, if any: remembered in the state, so
    /// that it is evaluated once per position.
    #[inline(always)]
    fn ended(&self, budget: &mut Budget, state: &State) -> Result<Option<usize>, GameError> {
        match state.ended.load(Relaxed) {
            NOT_ENDED => Ok(None),
            UNKNOWN => {
                let at = self.first_end(budget, &state.cells)?;
                state.ended.store(at.map_or(NOT_ENDED, |i| i as u32), Relaxed);
                Ok(at)
            }
            i => Ok(Some(i as usize)),
        }
    }

    /// The index of the first end clause that holds in `cells`, if any.
    fn first_end(&self, budget: &mut Budget, cells: &[i64]) -> Result<Option<usize>, GameError> {
        for (i, (end, code)) in self.prog.ends.iter().zip(&self.code.ends).enumerate() {
            let holds = match code.cond {
                None => !self.has_move(budget, cells)?,
                Some(cond) => self.eval(cond, cells, budget).map_err(|e| e.at(end.span.into()))? != 0,
            };
            if holds {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// The values of the score list of end clause `end`.
    fn score_values(&self, budget: &mut Budget, end: usize, cells: &[i64]) -> Result<Vec<f64>, GameError> {
        let Some(entry) = self.code.ends[end].scores else {
            return Ok(Vec::new());
        };
        let o = self.eval(entry, cells, budget).map_err(|e| self.locate(e, cells))? as usize;
        let n = cells[o] as usize;
        Ok(cells[o + 1..o + 1 + n].iter().map(|&v| v as f64).collect())
    }

    fn show_arg(&self, layout: &ir::Layout, v: i64) -> String {
        match layout {
            ir::Layout::Player => self
                .prog
                .players
                .get(v as usize)
                .cloned()
                .unwrap_or_else(|| v.to_string()),
            ir::Layout::Bool => (v != 0).to_string(),
            _ => v.to_string(),
        }
    }

    /// The weight of chance move `mv` (1 without a `weight`); a negative one is an error.
    fn weight(&self, mv: &Move, cells: &[i64], budget: &mut Budget) -> Result<i64, GameError> {
        let mk = &self.prog.moves[mv.kind as usize];
        let (Some(entry), Some((_, span))) = (self.code.moves[mv.kind as usize].weight, &mk.weight) else {
            return Ok(1);
        };
        let w = with_frame(entry.frame, |frame| {
            frame[..MAX_MOVE_ARGS].copy_from_slice(&mv.args);
            vm::run(&self.code, &self.prog, entry, &mut Reader(cells), frame, budget)
        })
        .map_err(|e| e.at((*span).into()))?;
        if w < 0 {
            return Err(GameError::new(
                "gdl::runtime::weight",
                format!(
                    "the chance move {} has weight {w}; a weight cannot be negative",
                    self.move_text(mv)
                ),
            )
            .at((*span).into()));
        }
        Ok(w)
    }

    /// Gives the turn to the player a move's `again` or `turn = p` named, if it did.
    fn pass_turn(&self, said: i64, span: crate::syntax::ast::Span, cells: &mut [i64]) -> Result<(), GameError> {
        if said == ir::TURN_UNSET {
            return Ok(());
        }
        if said < 0 || said as usize >= self.prog.players.len() {
            let e = GameError::new(
                "gdl::runtime::no_player",
                "`turn` names no player: nobody has moved yet, so `previous` is nobody",
            )
            .at(span.into());
            return Err(self.locate(e, cells));
        }
        cells[TURN_CELL] = said;
        Ok(())
    }
}

impl Game for Interpreted {
    type State = State;
    type Move = Move;

    fn name(&self) -> &str {
        &self.prog.name
    }

    fn num_players(&self) -> usize {
        self.prog.players.len()
    }

    fn player_name(&self, p: Player) -> &str {
        self.prog.players.get(p).map_or("?", String::as_str)
    }

    fn initial_state(&self) -> Result<State, GameError> {
        Ok(State::new(self.prog.initial.clone().into_boxed_slice()))
    }

    // Out of line: inlined, its locals would grow every frame of a recursive search.
    #[inline(never)]
    fn turn(&self, state: &State) -> Result<Turn, GameError> {
        let mut budget = Budget::new();
        let turn = match self.ended(&mut budget, state) {
            Ok(Some(_)) => Ok(Turn::Terminal),
            Ok(None) => self.actor(&mut budget, &state.cells),
            Err(e) => Err(e),
        };
        turn.map_err(|e| self.locate(e, &state.cells))
    }

    // Out of line: inlined, its locals would grow every frame of a recursive search.
    #[inline(never)]
    fn legal_moves(&self, state: &State, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.clear();
        let current = state.cells[TURN_CELL] as usize;
        // Only a game with chance or simultaneous moves needs to ask who acts.
        let by = if !(self.prog.has_chance || self.prog.has_simultaneous) {
            MoveBy::Turn
        } else {
            match self.turn(state)? {
                Turn::Chance => MoveBy::Chance,
                Turn::Simultaneous => MoveBy::Simultaneous,
                _ => MoveBy::Turn,
            }
        };
        let mut budget = Budget::new();
        self.moves_by(&mut budget, by, current, &state.cells, |m| {
            out.push(m);
            false
        })
        .map_err(|e| self.locate(e, &state.cells))?;
        if out.is_empty() && matches!(self.turn(state)?, Turn::Player(_)) {
            let who = self.player_name(state.cells[TURN_CELL] as usize).to_string();
            let span = self
                .prog
                .moves
                .first()
                .map_or(crate::syntax::ast::Span::default(), |m| m.span);
            return Err(self
                .locate(
                    GameError::new(
                        "gdl::runtime::no_moves",
                        format!("{who} has no legal move, but no `end when` clause says the game is over"),
                    )
                    .at(span.into()),
                    &state.cells,
                )
                .with_help("add `end when no moves { ... }`, or make the end condition cover this position"));
        }
        Ok(())
    }

    // Out of line: inlined, its locals would grow every frame of a recursive search.
    #[inline(never)]
    fn apply(&self, state: &mut State, mv: &Move) -> Result<(), GameError> {
        let mk = &self.prog.moves[mv.kind as usize];
        if mk.by == MoveBy::Simultaneous {
            return Err(GameError::new(
                "gdl::internal",
                "a simultaneous move was applied alone (a bug in gdl: use apply_joint)",
            ));
        }
        let entry = self.code.moves[mv.kind as usize].body;
        let cells = state.cells_mut();
        let mover = cells[TURN_CELL];
        let run = with_frame(entry.frame, |frame| {
            frame[..MAX_MOVE_ARGS].copy_from_slice(&mv.args);
            if let Some(l) = mk.turn_local {
                frame[l] = ir::TURN_UNSET;
            }
            let mut budget = Budget::new();
            vm::run(&self.code, &self.prog, entry, &mut Writer(cells), frame, &mut budget)
                .map(|_| mk.turn_local.map_or(ir::TURN_UNSET, |l| frame[l]))
        });
        let said = match run {
            Ok(said) => said,
            Err(e) => return Err(self.locate(e.at(mk.span.into()), cells)),
        };
        // Chance does not take a turn, but may say who moves next.
        if mk.by == MoveBy::Turn {
            cells[PREVIOUS_CELL] = mover;
            cells[TURN_CELL] = (mover + 1) % self.prog.players.len() as i64;
        }
        self.pass_turn(said, mk.span, cells)
    }

    fn legal_moves_of(&self, state: &State, player: Player, out: &mut Vec<Move>) -> Result<(), GameError> {
        match self.turn(state)? {
            Turn::Simultaneous => {
                out.clear();
                let mut budget = Budget::new();
                self.moves_by(&mut budget, MoveBy::Simultaneous, player, &state.cells, |m| {
                    out.push(m);
                    false
                })
                .map_err(|e| self.locate(e, &state.cells))?;
                Ok(())
            }
            Turn::Player(p) if p == player => self.legal_moves(state, out),
            _ => {
                out.clear();
                Ok(())
            }
        }
    }

    fn apply_joint(&self, state: &mut State, moves: &[Move]) -> Result<(), GameError> {
        if moves.len() != self.prog.players.len() {
            return Err(GameError::new(
                "gdl::internal",
                format!(
                    "{} moves for {} players (a bug in gdl)",
                    moves.len(),
                    self.prog.players.len()
                ),
            ));
        }
        let cells = state.cells_mut();
        let mut budget = Budget::new();
        let mut last_kind = None;
        // Each player's body in turn order, then the `then` block once.
        for (p, mv) in moves.iter().enumerate() {
            let mk = &self.prog.moves[mv.kind as usize];
            let entry = self.code.moves[mv.kind as usize].body;
            let run = with_frame(entry.frame, |frame| {
                frame[..MAX_MOVE_ARGS].copy_from_slice(&mv.args);
                if let Some(l) = mk.me_local {
                    frame[l] = p as i64;
                }
                vm::run(&self.code, &self.prog, entry, &mut Writer(cells), frame, &mut budget)
            });
            if let Err(e) = run {
                return Err(self.locate(e.at(mk.span.into()), cells));
            }
            last_kind = Some(mv.kind as usize);
        }
        if let Some(k) = last_kind
            && let Some(entry) = self.code.moves[k].then
        {
            let mk = &self.prog.moves[k];
            let run = with_frame(entry.frame, |frame| {
                if let Some(l) = mk.then_turn_local {
                    frame[l] = ir::TURN_UNSET;
                }
                vm::run(&self.code, &self.prog, entry, &mut Writer(cells), frame, &mut budget)
                    .map(|_| mk.then_turn_local.map_or(ir::TURN_UNSET, |l| frame[l]))
            });
            return match run {
                Ok(said) => self.pass_turn(said, mk.span, cells),
                Err(e) => Err(self.locate(e.at(mk.span.into()), cells)),
            };
        }
        Ok(())
    }

    fn chance_outcomes(&self, state: &State, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        out.clear();
        let mut budget = Budget::new();
        self.moves_by(&mut budget, MoveBy::Chance, 0, &state.cells, |m| {
            out.push((m, 1.0));
            false
        })
        .map_err(|e| self.locate(e, &state.cells))?;
        if !self.code.moves.iter().any(|m| m.weight.is_some()) {
            let p = 1.0 / out.len().max(1) as f64;
            for o in out.iter_mut() {
                o.1 = p;
            }
            return Ok(());
        }
        // Weights are exact integers: each outcome's probability is its
        // weight over their sum; an outcome of weight 0 cannot happen.
        let mut total: i128 = 0;
        for o in out.iter_mut() {
            let w = self
                .weight(&o.0, &state.cells, &mut budget)
                .map_err(|e| self.locate(e, &state.cells))?;
            total += i128::from(w);
            o.1 = w as f64;
        }
        if total == 0 && !out.is_empty() {
            let span = self.prog.moves[out[0].0.kind as usize].span;
            return Err(self.locate(
                GameError::new("gdl::runtime::weight", "every chance outcome here has weight 0")
                    .at(span.into())
                    .with_help("a chance move is legal only where something can happen: add a `requires`"),
                &state.cells,
            ));
        }
        out.retain(|o| o.1 > 0.0);
        let total = total as f64;
        for o in out.iter_mut() {
            o.1 /= total;
        }
        Ok(())
    }

    fn observation(&self, state: &State, player: Player) -> String {
        visibility::observation(self, &state.cells, player)
    }

    fn sample_hidden(&self, state: &State, player: Player, rng: &mut dyn rand::RngCore) -> Result<State, GameError> {
        Ok(State::new(
            visibility::sample_hidden(self, &state.cells, player, rng).into_boxed_slice(),
        ))
    }

    fn scores(&self, state: &State) -> Result<Option<Vec<f64>>, GameError> {
        let mut budget = Budget::new();
        match self
            .ended(&mut budget, state)
            .map_err(|e| self.locate(e, &state.cells))?
        {
            Some(i) if matches!(self.prog.ends[i].outcome, Outcome::Score { .. }) => {
                Ok(Some(self.score_values(&mut budget, i, &state.cells)?))
            }
            _ => Ok(None),
        }
    }

    fn running_scores(&self, state: &State) -> Result<Option<Vec<f64>>, GameError> {
        let mut budget = Budget::new();
        match self
            .prog
            .ends
            .iter()
            .position(|e| matches!(e.outcome, Outcome::Score { .. }))
        {
            Some(i) => Ok(Some(self.score_values(&mut budget, i, &state.cells)?)),
            None => Ok(None),
        }
    }

    fn lowest_score_wins(&self) -> bool {
        self.prog
            .ends
            .iter()
            .any(|e| matches!(e.outcome, Outcome::Score { lowest: true, .. }))
    }

    // Out of line: inlined, its locals would grow every frame of a recursive search.
    #[inline(never)]
    fn returns(&self, state: &State, player: Player) -> Result<f64, GameError> {
        let mut budget = Budget::new();
        let cells = &state.cells;
        let i = match self.ended(&mut budget, state) {
            Ok(Some(i)) => i,
            Ok(None) => {
                return Err(self.locate(
                    GameError::new(
                        "gdl::internal",
                        "the returns of an unfinished game were asked for (a bug in gdl)",
                    ),
                    cells,
                ));
            }
            Err(e) => return Err(self.locate(e, cells)),
        };
        let end = &self.prog.ends[i];
        let code = &self.code.ends[i];
        let mut eval = |value: Value| match value {
            Value::Const(n) => Ok(n),
            Value::Cell(c) => Ok(cells[c as usize]),
            Value::Code(entry) => self
                .eval(entry, cells, &mut budget)
                .map_err(|err| self.locate(err.at(end.span.into()), cells)),
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
                    "gdl::runtime::no_player",
                    "the outcome names no player: nobody has moved yet, so `previous` is nobody",
                )
                .at(end.span.into()),
                cells,
            ));
        }
        let v = payoff.unwrap_or(1) as f64;
        let is_named = who as usize == player;
        Ok(if is_named == wins { v } else { -v })
    }

    fn utility_range(&self) -> Option<(f64, f64)> {
        // A winner gains the payoff (1 without one) and the others lose it: known
        // when every end names no payoff or a constant one. Scores depend on play.
        if self.prog.ends.is_empty() {
            return None;
        }
        let mut most = 0i64;
        for end in &self.prog.ends {
            let payoff = match &end.outcome {
                Outcome::Draw => 0,
                Outcome::Winner { payoff, .. } | Outcome::Loser { payoff, .. } => match payoff {
                    None => 1,
                    Some(ir::Expr::Const(c)) => c.checked_abs()?,
                    Some(_) => return None,
                },
                Outcome::Score { .. } => return None,
            };
            most = most.max(payoff);
        }
        let most = most as f64;
        Some((-most, most))
    }

    fn move_text(&self, mv: &Move) -> String {
        let mk = &self.prog.moves[mv.kind as usize];
        let args: Vec<String> = mk
            .args
            .iter()
            .zip(mv.args)
            .map(|(a, v)| self.show_arg(&a.layout, v))
            .collect();
        // The name is shown where it tells moves apart: among several kinds made by
        // the same hand, and always for chance (`deal(5)`).
        let same_hand = self.prog.moves.iter().filter(|m| m.by == mk.by).count();
        if same_hand > 1 || mk.by == MoveBy::Chance {
            if args.is_empty() {
                mk.name.clone()
            } else {
                format!("{}({})", mk.name, args.join(", "))
            }
        } else {
            match args.len() {
                0 => mk.name.clone(),
                1 => args[0].clone(),
                _ => format!("({})", args.join(", ")),
            }
        }
    }

    fn move_text_named(&self, mv: &Move) -> String {
        let mk = &self.prog.moves[mv.kind as usize];
        let args: Vec<String> = mk
            .args
            .iter()
            .zip(mv.args)
            .map(|(a, v)| self.show_arg(&a.layout, v))
            .collect();
        format!("{}({})", mk.name, args.join(", "))
    }

    fn state_text(&self, state: &State) -> String {
        self.cells_text(&state.cells)
    }
}
