//! `turn`, `legal_moves` and `apply` on compiled rules with one context per
//! `Game` call.
//!
//! The general path (`Interpreted::exec`) makes a context, a frame and a
//! budget for every rule it runs, through layers that also serve the VM:
//! in connect four's random playouts that cost as many instructions as the
//! compiled rules themselves (docs/PERFORMANCE.md, "Compiled rules"). Here
//! one `Game` call makes one context and calls each compiled rule straight.
//!
//! Each path answers only the common case: a game without chance or
//! simultaneous moves, every rule it runs compiled for the state's width.
//! Anything else (a rule left to the VM, a failure, a value too wide for the
//! cells, no legal move, a turn given to nobody) answers `None`, having
//! changed nothing, and the general path answers the call from the start,
//! with its errors and their spans: so these paths can only be as right as
//! the general one, which `tests/jit.rs` holds equal to the VM.

use super::jit::{Calls, Compiled, Jit};
use super::state::{NIBBLE, State, UNKNOWN};
use super::vm::{self, Budget, Collect, First, Generator, Host, Reader, with_frame};
use super::{Cells, Interpreted, Move, Nibbles, NibblesMut, Packed, PackedMut};
use crate::game::Turn;
use crate::ir::{MAX_MOVE_ARGS, MoveBy, PREVIOUS_CELL, TURN_CELL, TURN_UNSET};

/// The most bytes of packed cells `apply` copies aside to put back when
/// compiled code hands the move back; a larger state takes the general path.
const BACKUP: usize = 128;
/// The bytes of a state held inline (`state::INLINE`, rounded up).
const SMALL: usize = 16;

impl Interpreted {
    /// Whether the paths here may answer for this game: one player moves
    /// at a time, and nothing is left to chance.
    #[inline(always)]
    fn plain(&self) -> bool {
        !(self.prog.has_chance || self.prog.has_simultaneous)
    }

    /// Who moves in `state`, whose end is not known yet; remembers the end
    /// clause that holds, as `ended` does.
    #[inline(always)]
    pub(super) fn turn_compiled(&self, jit: &Jit, state: &State) -> Option<Turn> {
        if !self.plain() || state.ended() != UNKNOWN {
            return None;
        }
        let at = with_cells!(state, |c| self.first_end_compiled(jit, c))?;
        state.remember_end(at);
        Some(match at {
            Some(_) => Turn::Terminal,
            None => Turn::Player(state.cell(TURN_CELL) as usize),
        })
    }

    /// The first end clause that holds in `cells`, as `first_end` finds it.
    fn first_end_compiled<C: Cells>(&self, jit: &Jit, cells: C) -> Option<Option<usize>> {
        let raw = cells.raw();
        let rules = jit.rules_for(&raw)?;
        let mut budget = Budget::new();
        for (i, end) in self.code.ends.iter().enumerate() {
            let holds = match end.cond {
                Some(cond) => {
                    let f = rules.func(cond.start)?;
                    let mut reader = Reader(cells);
                    let mut calls = Calls::new(jit.slow(), raw, &mut reader, &mut budget);
                    with_frame(cond.frame, |frame| calls.run(f, frame)).ok()? != 0
                }
                None => !self.any_move_compiled(jit, rules, cells, &mut budget)?,
            };
            if holds {
                return Some(Some(i));
            }
        }
        Some(None)
    }

    /// Whether the player to move has a legal move (`end when no moves`).
    fn any_move_compiled<C: Cells>(&self, jit: &Jit, rules: &Compiled, cells: C, budget: &mut Budget) -> Option<bool> {
        let current = cells.get(TURN_CELL);
        let mut host = Generator { cells, sink: First };
        let mut calls = Calls::new(jit.slow(), cells.raw(), &mut host, budget);
        for (k, mk) in self.prog.moves.iter().enumerate() {
            let entry = self.code.moves[k].generate;
            let f = rules.func(entry.start)?;
            let found = with_frame(entry.frame, |frame| {
                if let Some(l) = mk.me_local {
                    frame[l] = current;
                }
                calls.run(f, frame)
            })
            .ok()?;
            if found == vm::STOPPED {
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
        if !self.plain() {
            return None;
        }
        out.clear();
        let done = with_cells!(state, |c| self.moves_compiled(jit, c, out));
        if done.is_none() || out.is_empty() {
            out.clear();
            return None;
        }
        Some(())
    }

    fn moves_compiled<C: Cells>(&self, jit: &Jit, cells: C, out: &mut Vec<Move>) -> Option<()> {
        let raw = cells.raw();
        let rules = jit.rules_for(&raw)?;
        let current = cells.get(TURN_CELL);
        let mut budget = Budget::new();
        let mut host = Generator {
            cells,
            sink: Collect(out),
        };
        let mut calls = Calls::new(jit.slow(), raw, &mut host, &mut budget);
        for (k, mk) in self.prog.moves.iter().enumerate() {
            let entry = self.code.moves[k].generate;
            let f = rules.func(entry.start)?;
            with_frame(entry.frame, |frame| {
                if let Some(l) = mk.me_local {
                    frame[l] = current;
                }
                calls.run(f, frame)
            })
            .ok()?;
        }
        Some(())
    }

    /// Plays `mv` on `state` in place; `None` leaves `state` as it was.
    #[inline(always)]
    pub(super) fn apply_compiled(&self, jit: &Jit, state: &mut State, mv: &Move) -> Option<()> {
        if !self.plain() {
            return None;
        }
        let len = state.len();
        let (width, bytes) = state.packed_mut();
        // The bytes to put back if compiled code hands the move back: a
        // small state's without zeroing a large buffer first.
        let n = bytes.len();
        let done = if n <= SMALL {
            let mut backup = [0u8; SMALL];
            backup[..n].copy_from_slice(bytes);
            let done = self.play_width(jit, width, len, bytes, mv);
            if done.is_none() {
                state.packed_mut().1.copy_from_slice(&backup[..n]);
            }
            done
        } else if n <= BACKUP {
            let mut backup = [0u8; BACKUP];
            backup[..n].copy_from_slice(bytes);
            let done = self.play_width(jit, width, len, bytes, mv);
            if done.is_none() {
                state.packed_mut().1.copy_from_slice(&backup[..n]);
            }
            done
        } else {
            None
        };
        // Where it was handed back nothing else was touched: `changed` was
        // not called.
        if done.is_some() {
            state.changed();
        }
        done
    }

    #[inline(always)]
    fn play_width(&self, jit: &Jit, width: u8, len: usize, bytes: &mut [u8], mv: &Move) -> Option<()> {
        match width {
            NIBBLE => self.play_compiled(jit, &mut NibblesMut { bytes, len }, mv),
            1 => self.play_compiled(jit, &mut PackedMut::<1>(bytes), mv),
            2 => self.play_compiled(jit, &mut PackedMut::<2>(bytes), mv),
            4 => self.play_compiled(jit, &mut PackedMut::<4>(bytes), mv),
            _ => self.play_compiled(jit, &mut PackedMut::<8>(bytes), mv),
        }
    }

    /// `play` on compiled rules: the move's body, then the turn passes.
    #[inline(always)]
    fn play_compiled<H: Host>(&self, jit: &Jit, host: &mut H, mv: &Move) -> Option<()> {
        let k = mv.kind as usize;
        let mk = &self.prog.moves[k];
        let entry = self.code.moves[k].body;
        let raw = host.raw();
        let f = jit.rules_for(&raw)?.func(entry.start)?;
        let mover = host.get(TURN_CELL);
        let said = with_frame(entry.frame, |frame| {
            frame[..MAX_MOVE_ARGS].copy_from_slice(&mv.args);
            if let Some(l) = mk.turn_local {
                frame[l] = TURN_UNSET;
            }
            let mut budget = Budget::new();
            Calls::new(jit.slow(), raw, host, &mut budget).run(f, frame).ok()?;
            Some(mk.turn_local.map_or(TURN_UNSET, |l| frame[l]))
        })?;
        let players = self.prog.players.len() as i64;
        if mk.by == MoveBy::Turn {
            if self.keeps_previous {
                host.set(PREVIOUS_CELL, mover).ok()?;
            }
            host.set(TURN_CELL, (mover + 1) % players).ok()?;
        }
        if said != TURN_UNSET {
            if !(0..players).contains(&said) {
                return None;
            }
            host.set(TURN_CELL, said).ok()?;
        }
        Some(())
    }
}
