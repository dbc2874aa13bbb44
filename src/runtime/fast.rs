//! `turn`, `legal_moves`, `legal_moves_of`, `apply` and `apply_joint` on
//! compiled rules with one context per `Game` call.
//!
//! The general path (`Interpreted::exec`) makes a context, a frame and a
//! budget for every rule it runs, through layers that also serve the VM:
//! in connect four's random playouts that cost as many instructions as the
//! compiled rules themselves (docs/perf-log.md, "Compiled rules"). Here
//! one `Game` call makes one context and calls each compiled rule straight,
//! or, in a game where one player moves at a time, one compiled driver that
//! calls them all (`jit/compile/drivers.rs`). `apply`'s driver also runs
//! the end clauses of the state it made, so that the `turn` that follows
//! finds the answer remembered in the state.
//!
//! Each path answers only the common case: every rule it runs compiled for
//! the state's width, a player's move alone (`apply`) in a game without
//! chance or simultaneous moves. Anything else (a rule left to the VM, a
//! failure, a value too wide for the cells, no legal move, a turn given to
//! nobody) answers `None`, having changed nothing, and the general path
//! answers the call from the start, with its errors and their spans: so
//! these paths can only be as right as the general one, which
//! `tests/jit.rs` holds equal to the VM.

use super::jit::{Calls, Compiled, Jit, Rule};
use super::state::{NIBBLE, NOT_ENDED, NOT_ENDED_CHANCE, NOT_ENDED_PLAYER, NOT_ENDED_SIMULTANEOUS, State, UNKNOWN};
use super::vm::{self, Budget, Collect, First, Generator, Host, Reader, with_frame};
use super::{Cells, Interpreted, Move, Nibbles, NibblesMut, Packed, PackedMut};
use crate::game::{GameError, Turn};
use crate::ir::code::{CondCode, Entry};
use crate::ir::{MAX_MOVE_ARGS, MoveBy, MoveKind, PREVIOUS_CELL, TURN_CELL, TURN_UNSET};

/// Runs `$f` on the packed cells of `$state` in place, as a host of their
/// width (`$host`): where it answers `None` the bytes are put back as they
/// were (nothing else was touched: `changed` is called only after a
/// success).
macro_rules! in_place {
    ($state:expr, |$host:ident| $f:expr) => {{
        let state: &mut State = $state;
        // A small state's 12 bytes are copied aside whole, in two loads (a
        // call to `memcpy` was 22 instructions of an alpha-beta node).
        let inline = state.inline_bytes();
        let (width, len, bytes) = state.packed_parts_mut();
        // Each width cuts the cells' bytes by a constant.
        macro_rules! on_width {
            () => {
                match width {
                    NIBBLE => {
                        let $host = &mut NibblesMut {
                            bytes: &mut bytes[..len.div_ceil(2)],
                            len,
                        };
                        $f
                    }
                    1 => {
                        let $host = &mut PackedMut::<1>(&mut bytes[..len]);
                        $f
                    }
                    2 => {
                        let $host = &mut PackedMut::<2>(&mut bytes[..len * 2]);
                        $f
                    }
                    4 => {
                        let $host = &mut PackedMut::<4>(&mut bytes[..len * 4]);
                        $f
                    }
                    _ => {
                        let $host = &mut PackedMut::<8>(&mut bytes[..len * 8]);
                        $f
                    }
                }
            };
        }
        // A larger one (its bytes exactly the cells') without zeroing a
        // buffer of `BACKUP` bytes first; past `BACKUP` bytes (Go's board,
        // nine men's morris) on the heap, which costs far less than the
        // general path's unpacking of every cell.
        let backup = match inline {
            Some(_) => smallvec::SmallVec::<[u8; BACKUP]>::new(),
            None => smallvec::SmallVec::from_slice(bytes),
        };
        let done = on_width!();
        match (done.is_some(), inline) {
            (true, _) => state.changed(),
            (false, Some(saved)) => state.set_inline_bytes(saved),
            (false, None) => state.packed_mut().1.copy_from_slice(&backup),
        }
        done
    }};
}

/// The most bytes of packed cells `apply` copies aside on the stack, to put
/// back when compiled code hands the move back; a larger state's go to the heap.
const BACKUP: usize = 128;

impl Interpreted {
    /// Whether the paths here may answer for this game: one player moves
    /// at a time, and nothing is left to chance.
    #[inline(always)]
    pub(super) fn plain(&self) -> bool {
        self.plain
    }

    /// Who moves in `state`, whose end is not known yet; remembers the end
    /// clause that holds, as `ended` does.
    #[inline(always)]
    pub(super) fn turn_compiled(&self, jit: &Jit, state: &State) -> Option<Turn> {
        if state.ended() != UNKNOWN {
            return None;
        }
        let (at, actor) = with_cells!(state, |c| self.ended_and_actor(jit, c))?;
        state.remember_end(at);
        if at.is_some() {
            return Some(Turn::Terminal);
        }
        // Remembered, where finding out ran move rules (as `turn_in` does).
        match actor {
            Turn::Chance => state.set_ended(NOT_ENDED_CHANCE),
            Turn::Simultaneous => state.set_ended(NOT_ENDED_SIMULTANEOUS),
            _ if !self.plain() => state.set_ended(NOT_ENDED_PLAYER),
            _ => {}
        }
        Some(actor)
    }

    /// The first end clause that holds in `cells` (as `first_end` finds
    /// it), and who acts if none does (as `actor` finds out).
    fn ended_and_actor<C: Cells>(&self, jit: &Jit, cells: C) -> Option<(Option<usize>, Turn)> {
        let raw = cells.raw();
        let rules = jit.rules_for(&raw)?;
        let mut budget = Budget::new();
        if let Some(f) = rules.turn {
            // Every end clause in one call; the host stops a generator at
            // its first move, for `end when no moves`.
            let mut host = Generator { cells, sink: First };
            let mut calls = Calls::new(jit.slow(), raw, &mut host, &mut budget);
            // SAFETY: a driver of `rules_for(&raw)`, whose frame is one register.
            let done = unsafe { calls.run(f, &mut [0]) };
            jit.count(&done);
            let at = done.ok()? as usize;
            return Some(match at < self.code.ends.len() {
                true => (Some(at), Turn::Terminal),
                false => (None, Turn::Player(cells.get(TURN_CELL) as usize)),
            });
        }
        let any = |by, me, budget: &mut Budget| self.any_move_compiled(jit, rules, cells, budget, by, me);
        for (i, end) in self.code.ends.iter().enumerate() {
            if self.holds_compiled(jit, rules, cells, &mut budget, &end.cond)? {
                return Some((Some(i), Turn::Terminal));
            }
        }
        let actor = if self.prog.has_chance && any(MoveBy::Chance, 0, &mut budget)? {
            Turn::Chance
        } else if self.prog.has_simultaneous && any(MoveBy::Simultaneous, 0, &mut budget)? {
            Turn::Simultaneous
        } else {
            Turn::Player(cells.get(TURN_CELL) as usize)
        };
        Some((None, actor))
    }

    /// Whether an end clause's condition holds, as `holds` finds out, on
    /// compiled rules; `None` where one hands the call back.
    fn holds_compiled<C: Cells>(
        &self,
        jit: &Jit,
        rules: &Compiled,
        cells: C,
        budget: &mut Budget,
        cond: &CondCode,
    ) -> Option<bool> {
        Some(match cond {
            CondCode::Entry(entry) => {
                let f = rules.func(entry.start)?;
                let mut reader = Reader(cells);
                let mut calls = Calls::new(jit.slow(), cells.raw(), &mut reader, budget);
                // SAFETY: a rule of `rules_for(&cells.raw())`, on a frame of its size.
                with_frame(entry.frame, |frame| unsafe { calls.run(f, frame) }).ok()? != 0
            }
            // Nobody can move, as `has_move` finds out.
            CondCode::NoMoves => {
                let mut any = |by, me| self.any_move_compiled(jit, rules, cells, budget, by, me);
                !(any(MoveBy::Turn, cells.get(TURN_CELL))?
                    || (self.prog.has_chance && any(MoveBy::Chance, 0)?)
                    || (self.prog.has_simultaneous && any(MoveBy::Simultaneous, 0)?))
            }
            CondCode::Not(a) => !self.holds_compiled(jit, rules, cells, budget, a)?,
            CondCode::And(a, b) => {
                self.holds_compiled(jit, rules, cells, budget, a)?
                    && self.holds_compiled(jit, rules, cells, budget, b)?
            }
            CondCode::Or(a, b) => {
                self.holds_compiled(jit, rules, cells, budget, a)?
                    || self.holds_compiled(jit, rules, cells, budget, b)?
            }
        })
    }

    /// Whether a move made `by` is legal for player `me`.
    fn any_move_compiled<C: Cells>(
        &self,
        jit: &Jit,
        rules: &Compiled,
        cells: C,
        budget: &mut Budget,
        by: MoveBy,
        me: i64,
    ) -> Option<bool> {
        let mut host = Generator { cells, sink: First };
        let mut calls = Calls::new(jit.slow(), cells.raw(), &mut host, budget);
        // SAFETY: the callers' `rules` are `rules_for(&cells.raw())`.
        unsafe { self.generate(&mut calls, rules, by, me) }
    }

    /// Runs the move generators of the moves made `by`, for player `me`, in
    /// declaration order: true where the host's sink said to stop.
    ///
    /// # Safety
    ///
    /// `rules` are compiled for the cells `calls` was made on (both from
    /// one `raw`, the rules by `rules_for`).
    unsafe fn generate<H: Host>(
        &self,
        calls: &mut Calls<'_, H>,
        rules: &Compiled,
        by: MoveBy,
        me: i64,
    ) -> Option<bool> {
        for (k, mk) in self.prog.moves.iter().enumerate() {
            if mk.by != by {
                continue;
            }
            let entry = self.code.moves[k].generate;
            let f = rules.func(entry.start)?;
            let done = with_frame(entry.frame, |frame| {
                if let Some(l) = mk.me_local {
                    frame[l] = me;
                }
                // SAFETY: `rules` and `calls` are of the same cells (this
                // function's precondition), and the frame is the rule's size.
                unsafe { calls.run(f, frame) }
            })
            .ok()?;
            if done == vm::STOPPED {
                return Some(true);
            }
        }
        Some(false)
    }

    /// The legal moves in `state` into `out`, in the general path's order;
    /// `None` (with `out` cleared) where there are none, for the general
    /// path to say why.
    #[inline(always)]
    pub(super) fn legal_moves_compiled(&self, jit: &Jit, state: &State, out: &mut Vec<Move>) -> Option<()> {
        let by = if self.plain() {
            // The driver, called from here rather than through `moves_compiled`.
            out.clear();
            let done = with_cells!(state, |c| self.legal_driven(jit, c, out));
            if let Some(found) = done {
                return found.then_some(());
            }
            MoveBy::Turn
        } else {
            match self.turn_of(jit, state)? {
                Turn::Chance => MoveBy::Chance,
                Turn::Simultaneous => MoveBy::Simultaneous,
                _ => MoveBy::Turn,
            }
        };
        self.moves_into(jit, state, out, by, None)
    }

    /// The moves by the legal driver into `out` (empty): `Some(false)`
    /// where it failed or found none (`out` cleared), `None` where the
    /// width has no driver.
    #[inline(always)]
    fn legal_driven<C: Cells>(&self, jit: &Jit, cells: C, out: &mut Vec<Move>) -> Option<bool> {
        let raw = cells.raw();
        let f = jit.rules_for(&raw)?.legal?;
        let mut budget = Budget::new();
        let mut host = Generator {
            cells,
            sink: Collect(&mut *out),
        };
        // SAFETY: a driver of `rules_for(&raw)`, whose frame is one register.
        let done = unsafe { Calls::new(jit.slow(), raw, &mut host, &mut budget).run(f, &mut [0]) };
        jit.count(&done);
        if done.is_err() || out.is_empty() {
            out.clear();
            return Some(false);
        }
        Some(true)
    }

    /// The legal moves of `player` at a simultaneous node, as
    /// `legal_moves_of` gives them; `None` elsewhere.
    pub(super) fn legal_moves_of_compiled(
        &self,
        jit: &Jit,
        state: &State,
        player: usize,
        out: &mut Vec<Move>,
    ) -> Option<()> {
        match self.turn_of(jit, state)? {
            Turn::Simultaneous => self.moves_into(jit, state, out, MoveBy::Simultaneous, Some(player as i64)),
            _ => None,
        }
    }

    /// Who acts in `state`, where the state remembers it or compiled rules
    /// find out.
    #[inline(always)]
    fn turn_of(&self, jit: &Jit, state: &State) -> Option<Turn> {
        self.known_turn(state).or_else(|| self.turn_compiled(jit, state))
    }

    /// The moves made `by` for `me` (the player to move where `None`) into `out`.
    #[inline(always)]
    fn moves_into(&self, jit: &Jit, state: &State, out: &mut Vec<Move>, by: MoveBy, me: Option<i64>) -> Option<()> {
        out.clear();
        let done = with_cells!(state, |c| self.moves_compiled(jit, c, out, by, me));
        if done.is_none() || out.is_empty() {
            out.clear();
            return None;
        }
        Some(())
    }

    fn moves_compiled<C: Cells>(
        &self,
        jit: &Jit,
        cells: C,
        out: &mut Vec<Move>,
        by: MoveBy,
        me: Option<i64>,
    ) -> Option<()> {
        let raw = cells.raw();
        let rules = jit.rules_for(&raw)?;
        let me = me.unwrap_or_else(|| cells.get(TURN_CELL));
        let mut budget = Budget::new();
        let mut host = Generator {
            cells,
            sink: Collect(out),
        };
        let mut calls = Calls::new(jit.slow(), raw, &mut host, &mut budget);
        // `Collect` never says to stop.
        // SAFETY: `rules` are `rules_for(&raw)`, the cells of `calls`.
        unsafe { self.generate(&mut calls, rules, by, me) }.map(|_| ())
    }

    /// Plays `mv` on `state` in place; `None` leaves `state` as it was.
    #[inline(always)]
    pub(super) fn apply_compiled(&self, jit: &Jit, state: &mut State, mv: &Move) -> Option<()> {
        if !self.plain() {
            return None;
        }
        let end = in_place!(state, |host| self.play_compiled(jit, host, mv))?;
        // What the driver found of the end, after `changed` forgot it.
        if let Ok(at) = usize::try_from(end) {
            state.remember_end((at < self.code.ends.len()).then_some(at));
        }
        Some(())
    }

    /// `play_random_moves` on compiled rules, in a game where one player
    /// moves at a time: each move as `turn`, `legal_moves` and `apply`
    /// would play it, without their calls' own work (the dispatch, the
    /// checks of the engine and of the game's kind, the results passed
    /// back). Stops before a draw where the general path must answer;
    /// a move drawn that compiled code hands back is played by it.
    pub(super) fn play_random_compiled(
        &self,
        jit: &Jit,
        state: &mut State,
        moves: &mut Vec<Move>,
        pick: &mut dyn FnMut(usize) -> usize,
        plies: usize,
    ) -> Result<usize, GameError> {
        let mut played = 0;
        while played < plies {
            // A player's turn: remembered by the move before (its driver
            // runs the end clauses), else found as `turn` finds it. Not
            // `turn_of`, which also reads whose turn it is: 5% of a playout.
            match state.ended() {
                NOT_ENDED => {}
                UNKNOWN => match self.turn_compiled(jit, state) {
                    Some(Turn::Player(_)) => {}
                    _ => return Ok(played),
                },
                _ => return Ok(played),
            }
            moves.clear();
            if with_cells!(state, |c| self.legal_driven(jit, c, moves)) != Some(true) {
                moves.clear();
                return Ok(played);
            }
            let mv = moves[pick(moves.len())];
            if self.apply_compiled(jit, state, &mv).is_none() {
                self.apply_once(state, &mv)?;
            }
            played += 1;
        }
        Ok(played)
    }

    /// Plays one move per player, then the `then` block, on `state` in
    /// place, as `apply_joint_to` does on unpacked cells; `None` leaves
    /// `state` as it was.
    pub(super) fn apply_joint_compiled(&self, jit: &Jit, state: &mut State, moves: &[Move]) -> Option<()> {
        if moves.len() != self.prog.players.len() {
            return None;
        }
        in_place!(state, |host| self.joint_compiled(jit, host, moves))
    }

    /// `play` on compiled rules: the move's body, then the turn passes.
    /// Gives the end clause that holds after it (as `ended_and_actor`
    /// gives it: the number of clauses for none), where the apply driver
    /// found out, else -1.
    #[inline(always)]
    fn play_compiled<H: Host>(&self, jit: &Jit, host: &mut H, mv: &Move) -> Option<i64> {
        let k = mv.kind as usize;
        let mk = self.prog.moves.get(k)?;
        let raw = host.raw();
        let rules = jit.rules_for(&raw)?;
        if let Some(f) = rules.apply {
            let mut frame = [0; MAX_MOVE_ARGS + 1];
            frame[0] = k as i64;
            frame[1..].copy_from_slice(&mv.args);
            let mut budget = Budget::new();
            // SAFETY: `apply`'s driver of `rules_for(&raw)`, on its frame of
            // the move's kind and arguments.
            let done = unsafe { Calls::new(jit.slow(), raw, host, &mut budget).run(f, &mut frame) };
            jit.count(&done);
            return done.ok();
        }
        let entry = self.code.moves[k].body;
        let mover = host.get(TURN_CELL);
        // SAFETY: the rule at `entry`, of `rules_for(&raw)`, `host`'s cells.
        let said = unsafe { self.play_rule(jit, rules.func(entry.start)?, entry, mk, host, mv) }?;
        if mk.by == MoveBy::Turn {
            if self.keeps_previous {
                host.set(PREVIOUS_CELL, mover).ok()?;
            }
            host.set(TURN_CELL, (mover + 1) % self.prog.players.len() as i64).ok()?;
        }
        self.give_turn(host, said).map(|()| -1)
    }

    /// A move's body on its own, without a driver: who it said moves next.
    ///
    /// # Safety
    ///
    /// `f` is the rule at `entry`, compiled for `host`'s cells (`rules_for`).
    unsafe fn play_rule<H: Host>(
        &self,
        jit: &Jit,
        f: Rule,
        entry: Entry,
        mk: &MoveKind,
        host: &mut H,
        mv: &Move,
    ) -> Option<i64> {
        let raw = host.raw();
        with_frame(entry.frame, |frame| {
            frame[..MAX_MOVE_ARGS].copy_from_slice(&mv.args);
            if let Some(l) = mk.turn_local {
                frame[l] = TURN_UNSET;
            }
            let mut budget = Budget::new();
            // SAFETY: `f` is compiled for these cells (this function's
            // precondition), on a frame of its size.
            unsafe { Calls::new(jit.slow(), raw, host, &mut budget).run(f, frame) }.ok()?;
            Some(mk.turn_local.map_or(TURN_UNSET, |l| frame[l]))
        })
    }

    /// `apply_joint_to` on compiled rules, with one context for every
    /// player's body and the `then` block.
    fn joint_compiled<H: Host>(&self, jit: &Jit, host: &mut H, moves: &[Move]) -> Option<()> {
        let raw = host.raw();
        let rules = jit.rules_for(&raw)?;
        let mut budget = Budget::new();
        let mut calls = Calls::new(jit.slow(), raw, host, &mut budget);
        let mut last_kind = None;
        for (p, mv) in moves.iter().enumerate() {
            let k = mv.kind as usize;
            let mk = &self.prog.moves[k];
            let entry = self.code.moves[k].body;
            let f = rules.func(entry.start)?;
            with_frame(entry.frame, |frame| {
                frame[..MAX_MOVE_ARGS].copy_from_slice(&mv.args);
                if let Some(l) = mk.me_local {
                    frame[l] = p as i64;
                }
                // SAFETY: a rule of `rules_for(&raw)`, on a frame of its size.
                unsafe { calls.run(f, frame) }
            })
            .ok()?;
            last_kind = Some(k);
        }
        let mut said = TURN_UNSET;
        if let Some(k) = last_kind
            && let Some(entry) = self.code.moves[k].then
        {
            let mk = &self.prog.moves[k];
            let f = rules.func(entry.start)?;
            said = with_frame(entry.frame, |frame| {
                if let Some(l) = mk.then_turn_local {
                    frame[l] = TURN_UNSET;
                }
                // SAFETY: a rule of `rules_for(&raw)`, on a frame of its size.
                unsafe { calls.run(f, frame) }.ok()?;
                Some(mk.then_turn_local.map_or(TURN_UNSET, |l| frame[l]))
            })?;
        }
        self.give_turn(host, said)
    }

    /// Gives the turn to the player a move's `again` or `turn = p` named,
    /// if it did, as `pass_turn` does; `None` where it names nobody.
    #[inline(always)]
    fn give_turn<H: Host>(&self, host: &mut H, said: i64) -> Option<()> {
        if said == TURN_UNSET {
            return Some(());
        }
        if !(0..self.prog.players.len() as i64).contains(&said) {
            return None;
        }
        host.set(TURN_CELL, said).ok()
    }
}
