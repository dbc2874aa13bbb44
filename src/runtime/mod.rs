//! The interpreter: runs a compiled [`Program`] as a [`Game`].

mod compiled;
mod exec;
mod position;
mod visibility;

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use crate::compile::{ShowValue, load_value};
use crate::game::{Game, GameError, Player, Turn};
use crate::ir::{self, MAX_MOVE_ARGS, MoveBy, Outcome, PREVIOUS_CELL, Program, TURN_CELL};
use compiled::Code;
pub(crate) use exec::compare;
use exec::{Exec, Items};
pub use position::PositionError;

/// The most combinations of arguments one kind of move may try in one position.
const MAX_ARG_CHOICES: u64 = 1 << 16;

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
    kind: u16,
    args: [i64; MAX_MOVE_ARGS],
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
    /// The rules the searches run at every node, compiled to closures.
    code: Arc<Code>,
}

impl Interpreted {
    pub fn new(prog: Program) -> Self {
        let code = Code::new(&prog);
        Interpreted {
            prog: Arc::new(prog),
            code: Arc::new(code),
        }
    }

    pub fn program(&self) -> &Program {
        &self.prog
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

    /// The state field by field (`board`, `[7, 5, 3, 1]`) as `viewer` may see
    /// it: hidden fields left out, other players' private entries as `?`;
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

    /// Calls `found` with each legal move of kind `k`; stops early when it returns true.
    fn moves_of_kind<F: FnMut(Move) -> bool>(
        &self,
        exec: &Exec,
        k: usize,
        me: Player,
        cells: &[i64],
        found: &mut F,
    ) -> Result<bool, GameError> {
        let mk = &self.prog.moves[k];
        let mut frame = exec::frame(mk.locals);
        if let Some(l) = mk.me_local {
            frame[l] = me as i64;
        }
        // An error without a place of its own points at the move.
        self.args_from(exec, k, 0, cells, &mut frame, &mut 0, found)
            .map_err(|e| e.at(mk.span.into()))
    }

    /// Calls `found` with each legal move made `by`, for player `me`; stops early when it returns true.
    fn moves_by<F: FnMut(Move) -> bool>(
        &self,
        exec: &Exec,
        by: MoveBy,
        me: Player,
        cells: &[i64],
        found: &mut F,
    ) -> Result<bool, GameError> {
        for (k, mk) in self.prog.moves.iter().enumerate() {
            if mk.by == by && self.moves_of_kind(exec, k, me, cells, found)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn any_move_by(&self, exec: &Exec, by: MoveBy, me: Player, cells: &[i64]) -> Result<bool, GameError> {
        self.moves_by(exec, by, me, cells, &mut |_| true)
    }

    /// Who acts, assuming the game is not over: chance while a chance move is
    /// legal, then everyone at once while a simultaneous move is, else the player to move.
    fn actor(&self, exec: &Exec, cells: &[i64]) -> Result<Turn, GameError> {
        if self.prog.has_chance && self.any_move_by(exec, MoveBy::Chance, 0, cells)? {
            return Ok(Turn::Chance);
        }
        if self.prog.has_simultaneous && self.any_move_by(exec, MoveBy::Simultaneous, 0, cells)? {
            return Ok(Turn::Simultaneous);
        }
        Ok(Turn::Player(cells[TURN_CELL] as usize))
    }

    #[allow(clippy::too_many_arguments)]
    fn args_from<F: FnMut(Move) -> bool>(
        &self,
        exec: &Exec,
        k: usize,
        arg: usize,
        cells: &[i64],
        frame: &mut [i64],
        tried: &mut u64,
        found: &mut F,
    ) -> Result<bool, GameError> {
        let mk = &self.prog.moves[k];
        if arg == mk.args.len() {
            return self.emit(exec, k, cells, frame, tried, found);
        }
        let a = &mk.args[arg];
        // The last argument completes a move at each value: no call per value.
        let last = arg + 1 == mk.args.len();
        // A range is walked directly; other collections are copied first.
        if let Some((lo, hi)) = &self.code.moves[k].domains[arg] {
            let lo = lo.get(exec, cells, frame)?;
            let hi = hi.get(exec, cells, frame)?;
            exec::check_range(lo, hi).map_err(|e| e.at(mk.span.into()))?;
            for v in lo..=hi {
                frame[a.local] = v;
                let stop = if last {
                    self.emit(exec, k, cells, frame, tried, found)?
                } else {
                    self.args_from(exec, k, arg + 1, cells, frame, tried, found)?
                };
                if stop {
                    return Ok(true);
                }
            }
            return Ok(false);
        }
        let mut items = Items::new();
        exec.items(&a.domain, cells, frame, &mut items)?;
        for &v in items.iter() {
            frame[a.local] = v;
            let stop = if last {
                self.emit(exec, k, cells, frame, tried, found)?
            } else {
                self.args_from(exec, k, arg + 1, cells, frame, tried, found)?
            };
            if stop {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Offers the move of kind `k` whose arguments are in `frame`, if its
    /// `requires` hold; true when `found` says to stop.
    #[inline(always)]
    fn emit<F: FnMut(Move) -> bool>(
        &self,
        exec: &Exec,
        k: usize,
        cells: &[i64],
        frame: &mut [i64],
        tried: &mut u64,
        found: &mut F,
    ) -> Result<bool, GameError> {
        let mk = &self.prog.moves[k];
        // Arguments that multiply out to millions of choices would make
        // every position take minutes: stop with an error instead.
        *tried += 1;
        if *tried > MAX_ARG_CHOICES {
            return Err(too_many_moves(mk));
        }
        for r in &self.code.moves[k].requires {
            if r(exec, cells, frame)? == 0 {
                return Ok(false);
            }
        }
        let mut args = [0; MAX_MOVE_ARGS];
        let n = mk.args.len();
        args[..n].copy_from_slice(&frame[..n]);
        Ok(found(Move { kind: k as u16, args }))
    }

    /// Whether anyone can move: the player to move, chance, or (at once) everyone.
    fn has_move(&self, exec: &Exec, cells: &[i64]) -> Result<bool, GameError> {
        let current = cells[TURN_CELL] as usize;
        Ok(self.any_move_by(exec, MoveBy::Turn, current, cells)?
            || (self.prog.has_chance && self.any_move_by(exec, MoveBy::Chance, 0, cells)?)
            || (self.prog.has_simultaneous && self.any_move_by(exec, MoveBy::Simultaneous, 0, cells)?))
    }

    /// The first end clause that holds, if any: remembered in the state, so
    /// that it is evaluated once per position.
    #[inline(always)]
    fn ended(&self, exec: &Exec, state: &State) -> Result<Option<&ir::End>, GameError> {
        let known = state.ended.load(Relaxed);
        let at = match known {
            NOT_ENDED => None,
            UNKNOWN => {
                let at = self.first_end(exec, &state.cells)?;
                state.ended.store(at.map_or(NOT_ENDED, |i| i as u32), Relaxed);
                at
            }
            i => Some(i as usize),
        };
        Ok(at.map(|i| &self.prog.ends[i]))
    }

    /// The index of the first end clause that holds in `cells`, if any.
    fn first_end(&self, exec: &Exec, cells: &[i64]) -> Result<Option<usize>, GameError> {
        for (i, (end, code)) in self.prog.ends.iter().zip(&self.code.ends).enumerate() {
            let holds = match code {
                None => !self.has_move(exec, cells)?,
                Some(cond) if end.locals == 0 => cond(exec, cells, &mut []).map_err(|e| e.at(end.span.into()))? != 0,
                Some(cond) => {
                    let mut frame = exec::frame(end.locals);
                    cond(exec, cells, &mut frame).map_err(|e| e.at(end.span.into()))? != 0
                }
            };
            if holds {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// The values of a per-player score list.
    fn score_values(&self, exec: &Exec, scores: &ir::Place, cells: &[i64]) -> Result<Vec<f64>, GameError> {
        let mut frame = exec::frame(0);
        let o = exec
            .offset(scores, cells, &mut frame)
            .map_err(|e| self.locate(e, cells))?;
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
}

#[cold]
fn too_many_moves(mk: &ir::MoveKind) -> GameError {
    GameError::new(
        "gdl::runtime::too_many_moves",
        format!(
            "move `{}` has more than {MAX_ARG_CHOICES} choices of arguments in this position",
            mk.name
        ),
    )
    .at(mk.span.into())
    .with_help("narrow the collections its arguments are drawn from")
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
        let exec = Exec::new(&self.prog);
        let turn = match self.ended(&exec, state) {
            Ok(Some(_)) => Ok(Turn::Terminal),
            Ok(None) => self.actor(&exec, &state.cells),
            Err(e) => Err(e),
        };
        turn.map_err(|e| self.locate(e, &state.cells))
    }

    // Out of line: inlined, its locals would grow every frame of a recursive search.
    #[inline(never)]
    fn legal_moves(&self, state: &State, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.clear();
        let exec = Exec::new(&self.prog);
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
        self.moves_by(&exec, by, current, &state.cells, &mut |m| {
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
        let exec = Exec::new(&self.prog);
        let mk = &self.prog.moves[mv.kind as usize];
        if mk.by == MoveBy::Simultaneous {
            return Err(GameError::new(
                "gdl::internal",
                "a simultaneous move was applied alone (a bug in gdl: use apply_joint)",
            ));
        }
        let mut frame = exec::frame(mk.locals);
        frame[..mk.args.len()].copy_from_slice(&mv.args[..mk.args.len()]);
        let cells = state.cells_mut();
        let mover = cells[TURN_CELL];
        if let Err(e) = self.code.moves[mv.kind as usize].run(&exec, cells, &mut frame) {
            return Err(self.locate(e.at(mk.span.into()), cells));
        }
        // Chance does not take a turn.
        if mk.by == MoveBy::Turn {
            cells[PREVIOUS_CELL] = mover;
            cells[TURN_CELL] = (mover + 1) % self.prog.players.len() as i64;
        }
        Ok(())
    }

    fn legal_moves_of(&self, state: &State, player: Player, out: &mut Vec<Move>) -> Result<(), GameError> {
        match self.turn(state)? {
            Turn::Simultaneous => {
                out.clear();
                let exec = Exec::new(&self.prog);
                self.moves_by(&exec, MoveBy::Simultaneous, player, &state.cells, &mut |m| {
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
        let exec = Exec::new(&self.prog);
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
        let mut last_kind = None;
        // Each player's body in turn order, then the `then` block once.
        for (p, mv) in moves.iter().enumerate() {
            let mk = &self.prog.moves[mv.kind as usize];
            let mut frame = exec::frame(mk.locals);
            frame[..mk.args.len()].copy_from_slice(&mv.args[..mk.args.len()]);
            if let Some(l) = mk.me_local {
                frame[l] = p as i64;
            }
            if let Err(e) = exec.exec_all(&mk.body, cells, &mut frame) {
                return Err(self.locate(e.at(mk.span.into()), cells));
            }
            last_kind = Some(mk);
        }
        if let Some(mk) = last_kind {
            let mut frame = exec::frame(mk.locals);
            if let Err(e) = exec.exec_all(&mk.then, cells, &mut frame) {
                return Err(self.locate(e.at(mk.span.into()), cells));
            }
        }
        Ok(())
    }

    fn chance_outcomes(&self, state: &State, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        out.clear();
        let exec = Exec::new(&self.prog);
        self.moves_by(&exec, MoveBy::Chance, 0, &state.cells, &mut |m| {
            out.push((m, 0.0));
            false
        })
        .map_err(|e| self.locate(e, &state.cells))?;
        let p = 1.0 / out.len().max(1) as f64;
        for o in out.iter_mut() {
            o.1 = p;
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
        let exec = Exec::new(&self.prog);
        match self.ended(&exec, state).map_err(|e| self.locate(e, &state.cells))? {
            Some(ir::End {
                outcome: Outcome::Score { scores, .. },
                ..
            }) => Ok(Some(self.score_values(&exec, scores, &state.cells)?)),
            _ => Ok(None),
        }
    }

    fn running_scores(&self, state: &State) -> Result<Option<Vec<f64>>, GameError> {
        let exec = Exec::new(&self.prog);
        match self.prog.ends.iter().find_map(|e| match &e.outcome {
            Outcome::Score { scores, .. } => Some(scores),
            _ => None,
        }) {
            Some(scores) => Ok(Some(self.score_values(&exec, scores, &state.cells)?)),
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
        let exec = Exec::new(&self.prog);
        let cells = &state.cells;
        let end = match self.ended(&exec, state) {
            Ok(Some(end)) => end,
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
        let mut frame = exec::frame(end.locals);
        let mut eval = |e: &ir::Expr| {
            exec.eval(e, cells, &mut frame)
                .map_err(|err| self.locate(err.at(end.span.into()), cells))
        };
        let (who, payoff, wins) = match &end.outcome {
            Outcome::Draw => return Ok(0.0),
            Outcome::Score { lowest, scores } => {
                // Zero-sum: a player's margin over the others' average score.
                let values = self.score_values(&exec, scores, cells)?;
                let n = values.len();
                if n < 2 {
                    return Ok(0.0);
                }
                let others = (values.iter().sum::<f64>() - values[player]) / (n - 1) as f64;
                let margin = values[player] - others;
                return Ok(if *lowest { -margin } else { margin });
            }
            Outcome::Winner { player, payoff } => (eval(player)?, payoff.as_ref().map(&mut eval).transpose()?, true),
            Outcome::Loser { player, payoff } => (eval(player)?, payoff.as_ref().map(&mut eval).transpose()?, false),
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

    fn state_text(&self, state: &State) -> String {
        self.cells_text(&state.cells)
    }
}
