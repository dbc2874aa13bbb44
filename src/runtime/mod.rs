//! The interpreter: runs a compiled [`Program`] as a [`Game`].
//!
//! The rules run as flat code (`vm`) on a state's cells read in place at the
//! width the state is packed at (`cells`, `state`).

mod cells;
pub mod encode;
mod jit;
mod position;
mod state;
mod visibility;
mod vm;

use std::sync::Arc;

use crate::error_kind::RuntimeKind;
use crate::game::{FileGame, Game, GameError, GameId, Player, Turn, fnv1a64};
use crate::ir::code::{Code, Entry, Value};
use crate::ir::{self, MAX_MOVE_ARGS, MoveBy, Outcome, PREVIOUS_CELL, Program, TURN_CELL};
use crate::value::{ShowValue, load_value};
use cells::{Cells, Nibbles, NibblesMut, Packed, PackedMut};
pub use jit::{Engine, JitStats};
pub use position::PositionError;
pub use state::State;
use state::{
    MAX_REMEMBERED_END, NIBBLE, NOT_ENDED, NOT_ENDED_CHANCE, NOT_ENDED_PLAYER, NOT_ENDED_SIMULTANEOUS, UNKNOWN,
};
pub use visibility::Seen;
use vm::{Budget, Collect, First, Generator, Host, Reader, Sink, WideMut, with_frame};

/// Runs `$body` with `$c` bound to the cells of `$state`, read at the width
/// they are packed at: the code after is compiled once per width.
macro_rules! with_cells {
    ($state:expr, |$c:ident| $body:expr) => {{
        // Each width cuts the cells' bytes by a constant.
        let (width, len, bytes) = $state.packed_parts();
        match width {
            NIBBLE => {
                let $c = Nibbles {
                    bytes: &bytes[..len.div_ceil(2)],
                    len,
                };
                $body
            }
            1 => {
                let $c = Packed::<1>(&bytes[..len]);
                $body
            }
            2 => {
                let $c = Packed::<2>(&bytes[..len * 2]);
                $body
            }
            4 => {
                let $c = Packed::<4>(&bytes[..len * 4]);
                $body
            }
            _ => {
                let $c = Packed::<8>(&bytes[..len * 8]);
                $body
            }
        }
    }};
}

// After the macro, which they use.
mod display;
mod ends;
mod fast;
mod invariants;

/// A move's body on four-bit cells, in place (here rather than in `cells`,
/// which `vm` imports).
impl vm::Host for NibblesMut<'_> {
    #[inline(always)]
    fn get(&self, i: usize) -> i64 {
        NibblesMut::get(self, i)
    }

    #[inline(always)]
    fn set(&mut self, i: usize, v: i64) -> Result<(), GameError> {
        NibblesMut::set(self, i, v)
    }

    #[inline(always)]
    fn emit(&mut self, _: Move) -> bool {
        true
    }

    #[inline(always)]
    fn raw(&mut self) -> vm::Raw {
        vm::Raw {
            width: NIBBLE,
            len: self.len,
            ptr: self.bytes.as_mut_ptr(),
            writable: true,
        }
    }
}

/// A move: which `move` declaration, and its arguments.
///
/// `repr(C)`: compiled rules write moves straight into the caller's buffer,
/// at the offsets `jit::call` takes from this layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(C)]
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
///
/// Its rules run on one of two executors, chosen once when it is made
/// ([`Engine`]): compiled to machine code (`jit`), or on the VM (`vm`).
/// Nothing outside this module knows which: every `Game` call that compiled
/// code hands back (any run-time error among them) is run again on the VM.
#[derive(Clone, Debug)]
pub struct Interpreted {
    prog: Arc<Program>,
    /// The rules as flat code.
    code: Arc<Code>,
    /// Whether a rule reads `previous`. When none does, the cell keeps its
    /// initial value, so that positions that differ only in who moved last
    /// are one position to the memo table (Kalah 3×3: 27,104, not 35,696).
    keeps_previous: bool,
    /// One player moves at a time and nothing is left to chance: the
    /// compiled paths' first test on every `Game` call, kept here rather
    /// than read through `prog`.
    plain: bool,
    /// The rules as machine code; `None`: the VM runs them.
    jit: Option<Arc<jit::Jit>>,
    /// How a state shows as numbers to learning tools, worked out once.
    observer: Arc<encode::Observer>,
    /// The fixed numbering of the moves ([`encode::Actions`]), made on first
    /// use (it may look through the positions) and shared by every clone;
    /// `None` inside: the moves cannot be numbered.
    actions: Arc<std::sync::OnceLock<Option<encode::Actions>>>,
}

impl Interpreted {
    /// The game on the default engine ([`Engine::default_for_host`]).
    pub fn new(prog: Program) -> Self {
        Self::with_engine(prog, Engine::default_for_host())
    }

    /// The game with its rules run by `engine`.
    pub fn with_engine(prog: Program, engine: Engine) -> Self {
        let code = ir::lower_code::lower(&prog);
        Self::from_code(prog, code, engine)
    }

    /// The game run from code lowered with only the optimisations `opts`
    /// (on the default engine): the same answers as [`Interpreted::new`],
    /// checked by tests/inlining.rs and the library fuzzer.
    pub fn with_optimisations(prog: Program, opts: ir::lower_code::Optimisations) -> Self {
        let code = ir::lower_code::lower_with(&prog, opts);
        Self::from_code(prog, code, Engine::default_for_host())
    }

    fn from_code(prog: Program, code: Code, engine: Engine) -> Self {
        let keeps_previous = ir::reads_cell(&prog, PREVIOUS_CELL);
        let prog = Arc::new(prog);
        let jit = match engine {
            Engine::Jit if Engine::default_for_host() == Engine::Jit => {
                let width = State::new(&prog.initial).packed().0;
                Some(Arc::new(jit::Jit::new(&code, prog.clone(), width)))
            }
            _ => None,
        };
        Interpreted {
            plain: !(prog.has_chance || prog.has_simultaneous),
            observer: Arc::new(encode::Observer::of(&prog)),
            prog,
            keeps_previous,
            code: Arc::new(code),
            jit,
            actions: Arc::default(),
        }
    }

    /// How a state shows as numbers ([`encode::observe`]).
    pub fn observer(&self) -> &encode::Observer {
        &self.observer
    }

    /// Whether the state keeps who moved last: some rule reads `previous`.
    pub fn keeps_previous(&self) -> bool {
        self.keeps_previous
    }

    /// The same game on `engine`.
    pub fn on_engine(&self, engine: Engine) -> Self {
        match engine {
            Engine::Vm => self.vm(),
            Engine::Jit => Self::from_code((*self.prog).clone(), (*self.code).clone(), engine),
        }
    }

    /// The players' names, in turn order (`P1`, `P2`... for `players count N`).
    pub fn players(&self) -> &[String] {
        &self.prog.players
    }

    /// Every parameter with the value it was bound to, written as a `.game`
    /// file writes it: `("piles", "[1, 3, 5, 7]")`.
    pub fn params(&self) -> &[(String, String)] {
        &self.prog.params
    }

    /// The game's name with its parameters, as reports head it:
    /// `Nim (piles = [1, 3, 5, 7])`.
    pub fn title(&self) -> String {
        if self.prog.params.is_empty() {
            return self.prog.name.clone();
        }
        let list: Vec<String> = self.prog.params.iter().map(|(k, v)| format!("{k} = {v}")).collect();
        format!("{} ({})", self.prog.name, list.join(", "))
    }

    /// Which engine runs the rules.
    pub fn engine(&self) -> Engine {
        if self.jit.is_some() { Engine::Jit } else { Engine::Vm }
    }

    /// For compiled rules: what compiling them cost, and how often they
    /// handed a call back to the VM.
    pub fn jit_stats(&self) -> Option<JitStats> {
        self.jit.as_ref().map(|j| j.stats())
    }

    /// The same game on the VM, to run a call again that compiled code handed back.
    #[cold]
    fn vm(&self) -> Self {
        Interpreted {
            prog: self.prog.clone(),
            code: self.code.clone(),
            keeps_previous: self.keeps_previous,
            plain: self.plain,
            jit: None,
            observer: self.observer.clone(),
            actions: self.actions.clone(),
        }
    }

    /// `f` on this game, and again on the VM if compiled code handed it back.
    #[inline(always)]
    fn or_vm<T>(&self, mut f: impl FnMut(&Self) -> Result<T, GameError>) -> Result<T, GameError> {
        match f(self) {
            Err(e) if e.is(RuntimeKind::Bailout) => f(&self.vm()),
            done => done,
        }
    }

    /// Runs the rule at `entry` on `host`: compiled where it is, else on the VM.
    #[inline(always)]
    fn exec<H: Host>(
        &self,
        entry: Entry,
        host: &mut H,
        regs: &mut [i64],
        budget: &mut Budget,
    ) -> Result<i64, GameError> {
        if let Some(jit) = &self.jit
            && let Some(done) = jit.run(entry, host, regs, budget)
        {
            return done;
        }
        vm::run(&self.code, &self.prog, entry, host, regs, budget)
    }

    pub fn program(&self) -> &Program {
        &self.prog
    }

    /// The fixed numbering of the moves, made once per game; `None` when
    /// they cannot be numbered ([`encode::Actions::of`] says why).
    pub fn numbered_actions(&self) -> Option<&encode::Actions> {
        self.actions.get_or_init(|| encode::Actions::of(self).ok()).as_ref()
    }

    /// The rules as flat code.
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// Adds the source file and the position to an error from the rules.
    #[cold]
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
        visibility::view(self, &state.cells(), viewer)
    }

    /// [`Interpreted::view`] as values: what a page draws.
    pub fn seen(&self, state: &State, viewer: Option<Player>) -> Vec<(String, visibility::Seen)> {
        visibility::seen(self, &state.cells(), viewer)
    }

    /// How many in a row win, where the display's grid says (`line = 3`).
    pub fn display_line(&self, state: &State) -> Result<Option<usize>, GameError> {
        self.line_of(state)
    }

    /// For each cell of the display's grid, the number of the move a click
    /// on it plays, where the display says (`plays(r, c) = ...`).
    pub fn display_plays(&self, state: &State) -> Result<Option<Vec<i64>>, GameError> {
        self.plays_of(state)
    }

    /// The value of the state variable `name`, if there is one.
    pub fn value_of(&self, state: &State, name: &str) -> Option<crate::value::Value> {
        let v = self.prog.vars.iter().find(|v| v.name == name)?;
        let cells = state.cells();
        Some(load_value(&v.layout, &cells[v.offset..v.offset + v.layout.size()]))
    }

    /// A position as `--from` reads it and solve prints it: the state, then whose move.
    pub fn position(&self, state: &State) -> String {
        self.position_text(&state.cells())
    }

    /// Reads a position written as gdl prints one (see `position`).
    pub fn parse_position(&self, text: &str) -> Result<State, PositionError> {
        position::parse(self, text)
    }

    /// Runs the rule at `entry` on cells it only reads.
    #[inline(always)]
    fn eval<C: Cells>(&self, entry: Entry, cells: C, budget: &mut Budget) -> Result<i64, GameError> {
        with_frame(entry.frame, |frame| self.exec(entry, &mut Reader(cells), frame, budget))
    }

    /// Gives `sink` each legal move of kind `k`; true when it said to stop.
    #[inline(always)]
    fn moves_of_kind<C: Cells, S: Sink>(
        &self,
        budget: &mut Budget,
        k: usize,
        me: Player,
        cells: C,
        sink: S,
    ) -> Result<bool, GameError> {
        let mk = &self.prog.moves[k];
        let entry = self.code.moves[k].generate;
        let run = with_frame(entry.frame, |frame| {
            if let Some(l) = mk.me_local {
                frame[l] = me as i64;
            }
            let mut host = Generator { cells, sink };
            self.exec(entry, &mut host, frame, budget)
        });
        match run {
            Ok(v) => Ok(v == vm::STOPPED),
            // An error without a place of its own points at the move.
            Err(e) => Err(e.at(mk.span.into())),
        }
    }

    /// Gives `sink` each legal move made `by`, for player `me`; true when it said to stop.
    fn moves_by<C: Cells, S: Sink>(
        &self,
        budget: &mut Budget,
        by: MoveBy,
        me: Player,
        cells: C,
        mut sink: S,
    ) -> Result<bool, GameError> {
        for (k, mk) in self.prog.moves.iter().enumerate() {
            if mk.by == by && self.moves_of_kind(budget, k, me, cells, &mut sink)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn any_move_by<C: Cells>(&self, budget: &mut Budget, by: MoveBy, me: Player, cells: C) -> Result<bool, GameError> {
        self.moves_by(budget, by, me, cells, First)
    }

    /// Who acts, assuming the game is not over: chance while a chance move is
    /// legal, then everyone at once while a simultaneous move is, else the player to move.
    fn actor<C: Cells>(&self, budget: &mut Budget, cells: C) -> Result<Turn, GameError> {
        if self.prog.has_chance && self.any_move_by(budget, MoveBy::Chance, 0, cells)? {
            return Ok(Turn::Chance);
        }
        if self.prog.has_simultaneous && self.any_move_by(budget, MoveBy::Simultaneous, 0, cells)? {
            return Ok(Turn::Simultaneous);
        }
        Ok(Turn::Player(cells.get(TURN_CELL) as usize))
    }

    /// Whether anyone can move: the player to move, chance, or (at once) everyone.
    fn has_move<C: Cells>(&self, budget: &mut Budget, cells: C) -> Result<bool, GameError> {
        let current = cells.get(TURN_CELL) as usize;
        Ok(self.any_move_by(budget, MoveBy::Turn, current, cells)?
            || (self.prog.has_chance && self.any_move_by(budget, MoveBy::Chance, 0, cells)?)
            || (self.prog.has_simultaneous && self.any_move_by(budget, MoveBy::Simultaneous, 0, cells)?))
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
    fn weight<C: Cells>(&self, mv: &Move, cells: C, budget: &mut Budget) -> Result<i64, GameError> {
        let mk = &self.prog.moves[mv.kind as usize];
        let (Some(entry), Some((_, span))) = (self.code.moves[mv.kind as usize].weight, &mk.weight) else {
            return Ok(1);
        };
        let w = with_frame(entry.frame, |frame| {
            frame[..MAX_MOVE_ARGS].copy_from_slice(&mv.args);
            self.exec(entry, &mut Reader(cells), frame, budget)
        })
        .map_err(|e| e.at((*span).into()))?;
        if w < 0 {
            return Err(GameError::new(
                RuntimeKind::Weight,
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
    fn pass_turn<H: Host>(
        &self,
        said: i64,
        span: crate::syntax::ast::Span,
        host: &mut H,
        unpack: impl Fn(&H) -> Vec<i64>,
    ) -> Result<(), GameError> {
        if said == ir::TURN_UNSET {
            return Ok(());
        }
        if said < 0 || said as usize >= self.prog.players.len() {
            let e = GameError::new(
                RuntimeKind::NoPlayer,
                "`turn` names no player: nobody has moved yet, so `previous` is nobody",
            )
            .at(span.into());
            return Err(self.locate(e, &unpack(host)));
        }
        host.set(TURN_CELL, said)
    }

    /// Who acts in `state`, whose cells are `cells`.
    fn turn_in<C: Cells>(&self, state: &State, cells: C) -> Result<Turn, GameError> {
        let mut budget = Budget::new();
        let turn = match self.ended(&mut budget, state, cells) {
            Ok(Some(_)) => Ok(Turn::Terminal),
            Ok(None) => {
                let actor = self.actor(&mut budget, cells);
                // Remembered, where finding out ran move rules.
                if !self.plain() {
                    match actor {
                        Ok(Turn::Chance) => state.set_ended(NOT_ENDED_CHANCE),
                        Ok(Turn::Simultaneous) => state.set_ended(NOT_ENDED_SIMULTANEOUS),
                        Ok(Turn::Player(_)) => state.set_ended(NOT_ENDED_PLAYER),
                        _ => {}
                    }
                }
                actor
            }
            Err(e) => Err(e),
        };
        turn.map_err(|e| self.locate(e, &cells.to_vec()))
    }

    /// The legal moves in `state`, whose cells are `cells`.
    fn legal_moves_in<C: Cells>(&self, state: &State, cells: C, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.clear();
        let current = cells.get(TURN_CELL) as usize;
        // Only a game with chance or simultaneous moves needs to ask who acts.
        let by = if self.plain() {
            MoveBy::Turn
        } else {
            match self.turn(state)? {
                Turn::Chance => MoveBy::Chance,
                Turn::Simultaneous => MoveBy::Simultaneous,
                _ => MoveBy::Turn,
            }
        };
        let mut budget = Budget::new();
        self.moves_by(&mut budget, by, current, cells, Collect(out))
            .map_err(|e| self.locate(e, &cells.to_vec()))?;
        if out.is_empty() && matches!(self.turn(state)?, Turn::Player(_)) {
            return Err(self.no_moves(&cells.to_vec()));
        }
        Ok(())
    }

    #[cold]
    fn no_moves(&self, cells: &[i64]) -> GameError {
        let who = self.player_name(cells[TURN_CELL] as usize).to_string();
        let span = self
            .prog
            .moves
            .first()
            .map_or(crate::syntax::ast::Span::default(), |m| m.span);
        self.locate(
            GameError::new(
                RuntimeKind::NoMoves,
                format!("{who} has no legal move, but no `end when` clause says the game is over"),
            )
            .at(span.into()),
            cells,
        )
        .with_help("add `end when no moves { ... }`, or make the end condition cover this position")
    }

    /// Plays `mv` on the cells behind `host`: its body, then the turn passes.
    #[inline(always)]
    fn play<H: Host>(&self, host: &mut H, mv: &Move, unpack: impl Fn(&H) -> Vec<i64>) -> Result<(), GameError> {
        let mk = &self.prog.moves[mv.kind as usize];
        let entry = self.code.moves[mv.kind as usize].body;
        let mover = host.get(TURN_CELL);
        let run = with_frame(entry.frame, |frame| {
            frame[..MAX_MOVE_ARGS].copy_from_slice(&mv.args);
            if let Some(l) = mk.turn_local {
                frame[l] = ir::TURN_UNSET;
            }
            self.exec(entry, host, frame, &mut Budget::new())
                .map(|_| mk.turn_local.map_or(ir::TURN_UNSET, |l| frame[l]))
        });
        let said = match run {
            Ok(said) => said,
            Err(e) if e.is(RuntimeKind::Widen) => return Err(e),
            Err(e) => return Err(self.locate(e.at(mk.span.into()), &unpack(host))),
        };
        // Chance does not take a turn, but may say who moves next.
        if mk.by == MoveBy::Turn {
            if self.keeps_previous {
                host.set(PREVIOUS_CELL, mover)?;
            }
            host.set(TURN_CELL, (mover + 1) % self.prog.players.len() as i64)?;
        }
        self.pass_turn(said, mk.span, host, unpack)
    }

    /// Plays `mv` on the packed cells of a small state in place; a value too
    /// wide for them is reported as `RuntimeKind::Widen`.
    #[inline(always)]
    fn play_packed(&self, state: &mut State, mv: &Move) -> Result<(), GameError> {
        let result = {
            let len = state.len();
            let (width, bytes) = state.packed_mut();
            match width {
                NIBBLE => self.play(&mut NibblesMut { bytes, len }, mv, |h| h.to_vec()),
                1 => self.play(&mut PackedMut::<1>(bytes), mv, |h| h.to_vec()),
                2 => self.play(&mut PackedMut::<2>(bytes), mv, |h| h.to_vec()),
                4 => self.play(&mut PackedMut::<4>(bytes), mv, |h| h.to_vec()),
                _ => self.play(&mut PackedMut::<8>(bytes), mv, |h| h.to_vec()),
            }
        };
        state.changed();
        result
    }

    /// Plays one move per player on `cells`, then the `then` block.
    fn apply_joint_to(&self, cells: &mut [i64], moves: &[Move]) -> Result<(), GameError> {
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
                self.exec(entry, &mut WideMut(cells), frame, &mut budget)
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
                self.exec(entry, &mut WideMut(cells), frame, &mut budget)
                    .map(|_| mk.then_turn_local.map_or(ir::TURN_UNSET, |l| frame[l]))
            });
            return match run {
                Ok(said) => self.pass_turn(said, mk.span, &mut WideMut(cells), |h| h.0.to_vec()),
                Err(e) => Err(self.locate(e.at(mk.span.into()), cells)),
            };
        }
        Ok(())
    }
}

/// The `Game` calls that run rules, once: compiled code may hand them back
/// (`RuntimeKind::Bailout`), and the `Game` methods run them again on the VM.
impl Interpreted {
    // Out of line: inlined, its locals would grow every frame of a recursive search.
    #[inline(never)]
    fn turn_once(&self, state: &State) -> Result<Turn, GameError> {
        if let Some(turn) = self.known_turn(state) {
            return Ok(turn);
        }
        with_cells!(state, |c| self.turn_in(state, c))
    }

    // Out of line: inlined, its locals would grow every frame of a recursive search.
    #[inline(never)]
    fn turn_out_of_line(&self, state: &State) -> Result<Turn, GameError> {
        if let Some(turn) = self.known_turn(state) {
            return Ok(turn);
        }
        // One context for the whole call, where the rules are compiled (`fast`).
        if let Some(jit) = &self.jit
            && let Some(turn) = self.turn_compiled(jit, state)
        {
            return Ok(turn);
        }
        self.or_vm(|g| g.turn_once(state))
    }

    /// Who acts, where the state remembers it: no need to look at the cells.
    #[inline(always)]
    fn known_turn(&self, state: &State) -> Option<Turn> {
        match state.ended() {
            UNKNOWN => None,
            NOT_ENDED if self.plain() => Some(Turn::Player(state.turn_cell() as usize)),
            NOT_ENDED => None,
            NOT_ENDED_CHANCE => Some(Turn::Chance),
            NOT_ENDED_SIMULTANEOUS => Some(Turn::Simultaneous),
            NOT_ENDED_PLAYER => Some(Turn::Player(state.cell(TURN_CELL) as usize)),
            _ => Some(Turn::Terminal),
        }
    }

    // Out of line: inlined, its locals would grow every frame of a recursive search.
    #[inline(never)]
    fn legal_moves_once(&self, state: &State, out: &mut Vec<Move>) -> Result<(), GameError> {
        with_cells!(state, |c| self.legal_moves_in(state, c, out))
    }

    #[inline(never)]
    fn canonical_out_of_line(&self, state: &State) -> Result<Option<State>, GameError> {
        self.or_vm(|g| g.canonical_once(state))
    }

    fn canonical_once(&self, state: &State) -> Result<Option<State>, GameError> {
        let Some(f) = self.prog.canonical else {
            return Ok(None);
        };
        let entry = self.code.fns[f];
        let mut rep = state.clone();
        rep.update(|cells| {
            with_frame(entry.frame, |frame| {
                self.exec(entry, &mut WideMut(cells), frame, &mut Budget::new())
            })
            .map(|_| ())
            .map_err(|e| self.locate(e, cells))
        })?;
        Ok(Some(rep))
    }

    fn legal_moves_of_once(&self, state: &State, player: Player, out: &mut Vec<Move>) -> Result<(), GameError> {
        match self.turn(state)? {
            Turn::Simultaneous => with_cells!(state, |c| {
                out.clear();
                let mut budget = Budget::new();
                self.moves_by(&mut budget, MoveBy::Simultaneous, player, c, Collect(out))
                    .map_err(|e| self.locate(e, &c.to_vec()))?;
                Ok(())
            }),
            Turn::Player(p) if p == player => self.legal_moves(state, out),
            _ => {
                out.clear();
                Ok(())
            }
        }
    }

    fn chance_outcomes_once(&self, state: &State, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        out.clear();
        let mut moves = Vec::new();
        with_cells!(state, |c| {
            let mut budget = Budget::new();
            self.moves_by(&mut budget, MoveBy::Chance, 0, c, Collect(&mut moves))
                .map_err(|e| self.locate(e, &c.to_vec()))?;
            if !self.code.moves.iter().any(|m| m.weight.is_some()) {
                let p = 1.0 / moves.len().max(1) as f64;
                out.extend(moves.into_iter().map(|m| (m, p)));
                return Ok(());
            }
            // Weights are exact integers: each outcome's probability is its
            // weight over their sum; an outcome of weight 0 cannot happen.
            let mut total: i128 = 0;
            for m in moves {
                let w = self
                    .weight(&m, c, &mut budget)
                    .map_err(|e| self.locate(e, &c.to_vec()))?;
                total += i128::from(w);
                out.push((m, w as f64));
            }
            if total == 0 && !out.is_empty() {
                let span = self.prog.moves[out[0].0.kind as usize].span;
                return Err(self.locate(
                    GameError::new(RuntimeKind::Weight, "every chance outcome here has weight 0")
                        .at(span.into())
                        .with_help("a chance move is legal only where something can happen: add a `requires`"),
                    &c.to_vec(),
                ));
            }
            out.retain(|o| o.1 > 0.0);
            let total = total as f64;
            for o in out.iter_mut() {
                o.1 /= total;
            }
            Ok(())
        })
    }

    fn scores_once(&self, state: &State) -> Result<Option<Vec<f64>>, GameError> {
        with_cells!(state, |c| {
            let mut budget = Budget::new();
            match self
                .ended(&mut budget, state, c)
                .map_err(|e| self.locate(e, &c.to_vec()))?
            {
                Some(i) if matches!(self.prog.ends[i].outcome, Outcome::Score { .. }) => {
                    Ok(Some(self.score_values(&mut budget, i, c)?))
                }
                _ => Ok(None),
            }
        })
    }

    fn running_scores_once(&self, state: &State) -> Result<Option<Vec<f64>>, GameError> {
        let mut budget = Budget::new();
        match self
            .prog
            .ends
            .iter()
            .position(|e| matches!(e.outcome, Outcome::Score { .. }))
        {
            Some(i) => Ok(Some(with_cells!(state, |c| self.score_values(&mut budget, i, c))?)),
            None => Ok(None),
        }
    }

    // Out of line: inlined, its locals would grow every frame of a recursive search.
    #[inline(never)]
    fn returns_once(&self, state: &State, player: Player) -> Result<f64, GameError> {
        with_cells!(state, |c| self.returns_in(state, c, player))
    }

    fn repetition_returns_once(&self, state: &State, player: Player) -> Result<f64, GameError> {
        let Some((_, i)) = self.prog.repetition() else {
            return Err(GameError::new(
                RuntimeKind::Internal,
                "this game has no repetition rule (a bug in gdl)",
            ));
        };
        with_cells!(state, |c| self.outcome_in(i, c, player))
    }

    fn evaluate_once(&self, state: &State, player: Player) -> Result<Option<f64>, GameError> {
        // `fn evaluate(p: player) -> int`, checked when compiled; in thousandths.
        let Some(f) = self.prog.fns.iter().position(|f| f.name == crate::compile::EVALUATE) else {
            return Ok(None);
        };
        let entry = self.code.fns[f];
        let mut budget = Budget::new();
        let v = with_cells!(state, |c| with_frame(entry.frame, |frame| {
            frame[0] = player as i64;
            self.exec(entry, &mut Reader(c), frame, &mut budget)
        }))
        .map_err(|e| self.locate(e, &state.cells()))?;
        Ok(Some(v as f64 / 1000.0))
    }

    // Out of line: inlined, its locals would grow every frame of a recursive search.
    #[inline(never)]
    fn apply_once(&self, state: &mut State, mv: &Move) -> Result<(), GameError> {
        if self.prog.moves[mv.kind as usize].by == MoveBy::Simultaneous {
            return Err(GameError::new(
                RuntimeKind::Internal,
                "a simultaneous move was applied alone (a bug in gdl: use apply_joint)",
            ));
        }
        // In place on the packed cells, unless a value outgrows their width:
        // then again from the start, on unpacked cells. A large state keeps
        // a copy of its bytes to start again from (on the stack up to 512
        // bytes), which costs less than unpacking it into a heap buffer.
        // A move that compiled code hands back is played again on the VM,
        // from the state as it was.
        let mut backup = state::Backup::new();
        if state.is_inline() {
            let before = state.clone();
            match self.play_packed(state, mv) {
                Err(e) if e.is(RuntimeKind::Widen) => *state = before,
                Err(e) if e.is(RuntimeKind::Bailout) => {
                    *state = before;
                    return self.vm().apply_once(state, mv);
                }
                done => return done,
            }
        } else if state.backup_into(&mut backup) {
            match self.play_packed(state, mv) {
                Err(e) if e.is(RuntimeKind::Widen) => state.restore(&backup),
                Err(e) if e.is(RuntimeKind::Bailout) => {
                    state.restore(&backup);
                    return self.vm().apply_once(state, mv);
                }
                done => return done,
            }
        }
        let done = state.update_unless(
            |cells| {
                let unpack = |h: &WideMut| h.0.to_vec();
                self.play(&mut WideMut(cells), mv, unpack)
            },
            is_bailout,
        );
        match done {
            Err(e) if e.is(RuntimeKind::Bailout) => self.vm().apply_once(state, mv),
            done => done,
        }
    }

    fn apply_joint_once(&self, state: &mut State, moves: &[Move]) -> Result<(), GameError> {
        if moves.len() != self.prog.players.len() {
            return Err(GameError::new(
                RuntimeKind::Internal,
                format!(
                    "{} moves for {} players (a bug in gdl)",
                    moves.len(),
                    self.prog.players.len()
                ),
            ));
        }
        // Compiled code that hands the moves back leaves the state as it was.
        match state.update_unless(|cells| self.apply_joint_to(cells, moves), is_bailout) {
            Err(e) if e.is(RuntimeKind::Bailout) => self.vm().apply_joint_once(state, moves),
            done => done,
        }
    }
}

/// Whether compiled code handed a call back to the VM: the state it was
/// given must then be left as it was.
fn is_bailout<T>(done: &Result<T, GameError>) -> bool {
    matches!(done, Err(e) if e.is(RuntimeKind::Bailout))
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
        Ok(State::new(&self.prog.initial))
    }

    /// Inlined into the searches for the common case, a game going on that
    /// the state remembers (`apply` found it out) in which one player moves
    /// at a time: a byte compared and a cell read.
    #[inline]
    fn turn(&self, state: &State) -> Result<Turn, GameError> {
        if state.ended() == NOT_ENDED && self.plain() {
            return Ok(Turn::Player(state.turn_cell() as usize));
        }
        self.turn_out_of_line(state)
    }

    // Out of line: inlined, its locals would grow every frame of a recursive search.
    #[inline(never)]
    fn legal_moves(&self, state: &State, out: &mut Vec<Move>) -> Result<(), GameError> {
        if let Some(jit) = &self.jit
            && self.legal_moves_compiled(jit, state, out).is_some()
        {
            return Ok(());
        }
        self.or_vm(|g| g.legal_moves_once(state, out))
    }

    // Out of line: inlined, its locals would grow every frame of a recursive search.
    #[inline(never)]
    fn apply(&self, state: &mut State, mv: &Move) -> Result<(), GameError> {
        if let Some(jit) = &self.jit
            && self.apply_compiled(jit, state, mv).is_some()
        {
            return Ok(());
        }
        self.apply_once(state, mv)
    }

    fn play_random_moves(
        &self,
        state: &mut State,
        moves: &mut Vec<Move>,
        pick: &mut dyn FnMut(usize) -> usize,
        plies: usize,
    ) -> Result<usize, GameError> {
        match &self.jit {
            Some(jit) if self.plain() => self.play_random_compiled(jit, state, moves, pick, plies),
            _ => Ok(0),
        }
    }

    #[inline]
    fn canonical(&self, state: &State) -> Result<Option<State>, GameError> {
        // Answered here for a game without a `canonical` block: a memoized
        // search asks at every node.
        if self.prog.canonical.is_none() {
            return Ok(None);
        }
        self.canonical_out_of_line(state)
    }

    fn legal_moves_of(&self, state: &State, player: Player, out: &mut Vec<Move>) -> Result<(), GameError> {
        if let Some(jit) = &self.jit
            && self.legal_moves_of_compiled(jit, state, player, out).is_some()
        {
            return Ok(());
        }
        self.or_vm(|g| g.legal_moves_of_once(state, player, out))
    }

    fn apply_joint(&self, state: &mut State, moves: &[Move]) -> Result<(), GameError> {
        if let Some(jit) = &self.jit
            && self.apply_joint_compiled(jit, state, moves).is_some()
        {
            return Ok(());
        }
        self.apply_joint_once(state, moves)
    }

    fn chance_outcomes(&self, state: &State, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        self.or_vm(|g| g.chance_outcomes_once(state, out))
    }

    fn observation(&self, state: &State, player: Player) -> String {
        visibility::observation(self, &state.cells(), player)
    }

    fn observation_hash(&self, state: &State, player: Player) -> u64 {
        visibility::observation_hash(self, &state.cells(), player)
    }

    fn observation_size(&self) -> Option<usize> {
        Some(encode::observation_size(&self.prog))
    }

    fn observe_tensor(&self, state: &State, player: Player, out: &mut Vec<f32>) -> Result<bool, GameError> {
        encode::observe(self, state, player, out)?;
        Ok(true)
    }

    fn action_count(&self) -> Option<usize> {
        self.numbered_actions().map(encode::Actions::len)
    }

    fn action_index(&self, mv: &Move) -> Option<usize> {
        self.numbered_actions()?.index_of(mv)
    }

    fn sample_hidden(&self, state: &State, player: Player, rng: &mut dyn rand::RngCore) -> Result<State, GameError> {
        let mut cells: smallvec::SmallVec<[i64; 64]> = smallvec::SmallVec::from_elem(0, state.len());
        state.unpack_into(&mut cells);
        visibility::sample_hidden(self, &mut cells, player, rng);
        Ok(State::new(&cells))
    }

    fn scores(&self, state: &State) -> Result<Option<Vec<f64>>, GameError> {
        self.or_vm(|g| g.scores_once(state))
    }

    fn running_scores(&self, state: &State) -> Result<Option<Vec<f64>>, GameError> {
        self.or_vm(|g| g.running_scores_once(state))
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
        if let Some(v) = self.plain_outcome(state, player) {
            return Ok(v);
        }
        self.or_vm(|g| g.returns_once(state, player))
    }

    fn evaluate(&self, state: &State, player: Player) -> Result<Option<f64>, GameError> {
        self.or_vm(|g| g.evaluate_once(state, player))
    }

    fn repetition(&self) -> Option<u32> {
        self.prog.repetition().map(|(n, _)| n)
    }

    fn max_moves(&self) -> Option<u64> {
        self.prog.max_moves
    }

    fn repetition_returns(&self, state: &State, player: Player) -> Result<f64, GameError> {
        self.or_vm(|g| g.repetition_returns_once(state, player))
    }

    fn end_by_repetition(&self, state: &mut State) -> bool {
        match self.prog.repetition() {
            // The clause the state remembers as holding is the rule's own.
            Some((_, i)) if i <= MAX_REMEMBERED_END => {
                state.set_ended(i as u8);
                true
            }
            _ => false,
        }
    }

    fn board(&self, state: &State) -> Result<Option<crate::board::Board>, GameError> {
        self.board_of(state)
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
        self.cells_text(&state.cells())
    }
}

impl Interpreted {
    /// The game file's text without its `display` block: what a trained
    /// file's or a match part's hash covers, so that redrawing a board
    /// keeps the Q-tables, strategies and networks trained on the rules.
    fn rules_text(&self) -> String {
        let text = self.prog.source.inner();
        match &self.prog.display {
            Some(d)
                if d.span.end <= text.len()
                    && text.is_char_boundary(d.span.start)
                    && text.is_char_boundary(d.span.end) =>
            {
                format!("{}{}", &text[..d.span.start], &text[d.span.end..])
            }
            _ => text.clone(),
        }
    }
}

impl FileGame for Interpreted {
    fn id(&self) -> GameId {
        GameId {
            game: self.prog.name.clone(),
            file: self.prog.source.name().to_string(),
            source_hash: format!("{:016x}", fnv1a64(self.rules_text().as_bytes())),
            params: self.prog.params.clone(),
            players: self.prog.players.clone(),
        }
    }

    fn position(&self, state: &State) -> String {
        Interpreted::position(self, state)
    }

    fn parse_position(&self, text: &str) -> Result<State, String> {
        Interpreted::parse_position(self, text).map_err(|e| e.to_string())
    }
}
