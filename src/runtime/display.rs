//! A position drawn by the game's `display` block: its sizes and parts are
//! functions of the position, run here on the VM (the compiled code never
//! runs them: drawing is rare, and the JIT stays what the rules need).

use super::{Interpreted, State};
use crate::board::Board;
use crate::error_kind::RuntimeKind;
use crate::game::GameError;
use crate::ir::DisplayLayout;
use crate::ir::code::Entry;

use super::cells::{Cells, Nibbles, Packed};
use super::state::NIBBLE;
use super::vm::{self, Budget, Reader, with_frame};

/// The most cells a display draws: a size past it is a mistake in the file,
/// not a board anybody could read.
const MAX_CELLS: i64 = 10_000;

impl Interpreted {
    /// The position as the game's `display` block draws it, if it has one.
    pub(super) fn board_of(&self, state: &State) -> Result<Option<Board>, GameError> {
        // A display of fields draws no board: the fields are the position.
        if self
            .prog
            .display
            .as_ref()
            .is_none_or(|d| d.layout == DisplayLayout::Fields)
        {
            return Ok(None);
        }
        let cells = state.cells();
        with_cells!(state, |c| self.draw(c, &cells)).map(Some)
    }

    /// How many in a row win, where a grid's display says (`line = 4`).
    pub(super) fn line_of(&self, state: &State) -> Result<Option<usize>, GameError> {
        let Some(d) = self.prog.display.as_ref().filter(|d| d.layout == DisplayLayout::Grid) else {
            return Ok(None);
        };
        let Some(f) = d.part("line") else {
            return Ok(None);
        };
        let cells = state.cells();
        let entry: Entry = self.code.fns[f];
        let n = with_cells!(state, |c| with_frame(entry.frame, |frame| {
            vm::run(&self.code, &self.prog, entry, &mut Reader(c), frame, &mut Budget::new())
        }))
        .map_err(|e| self.locate(e, &cells))?;
        Ok(usize::try_from(n).ok().filter(|&n| n >= 2))
    }

    /// For each cell of a grid or rhombus whose display says what a click
    /// plays (`plays(r, c)`), row by row, the number of the move it plays.
    pub(super) fn plays_of(&self, state: &State) -> Result<Option<Vec<i64>>, GameError> {
        let Some(d) = self.prog.display.as_ref() else {
            return Ok(None);
        };
        let Some(f) = d.part("plays") else {
            return Ok(None);
        };
        let cells = state.cells();
        let mut budget = Budget::new();
        let mut call = |f: usize, args: &[i64]| -> Result<i64, GameError> {
            let entry: Entry = self.code.fns[f];
            with_cells!(state, |c| with_frame(entry.frame.max(args.len()), |frame| {
                frame[..args.len()].copy_from_slice(args);
                vm::run(&self.code, &self.prog, entry, &mut Reader(c), frame, &mut budget)
            }))
            .map_err(|e| self.locate(e, &cells))
        };
        let (rows, cols) = (call(d.sizes[0], &[])?, call(d.sizes[1], &[])?);
        let mut out = Vec::new();
        for r in 0..rows.min(MAX_CELLS) {
            for c in 0..cols.min(MAX_CELLS) {
                out.push(call(f, &[r, c])?);
            }
        }
        Ok(Some(out))
    }

    fn draw<C: Cells>(&self, c: C, cells: &[i64]) -> Result<Board, GameError> {
        let d = self.prog.display.as_ref().expect("drawn only with a display");
        // One budget for the whole drawing, shared by the parts' calls.
        let budget = std::cell::RefCell::new(Budget::new());
        let call = |f: usize, args: &[i64]| -> Result<i64, GameError> {
            let entry: Entry = self.code.fns[f];
            with_frame(entry.frame.max(args.len()), |frame| {
                frame[..args.len()].copy_from_slice(args);
                vm::run(
                    &self.code,
                    &self.prog,
                    entry,
                    &mut Reader(c),
                    frame,
                    &mut budget.borrow_mut(),
                )
            })
            .map_err(|e| self.locate(e, cells))
        };
        let mut sizes = Vec::new();
        for &f in &d.sizes {
            let n = call(f, &[])?;
            if !(0..=MAX_CELLS).contains(&n) {
                let e = GameError::new(
                    RuntimeKind::Index,
                    format!("a display size is 0 to {MAX_CELLS}, not {n}"),
                );
                return Err(self.locate(e, cells));
            }
            sizes.push(n);
        }
        if sizes.iter().product::<i64>() > MAX_CELLS {
            let e = GameError::new(
                RuntimeKind::Index,
                format!(
                    "a display draws at most {MAX_CELLS} cells, not {}",
                    sizes.iter().product::<i64>()
                ),
            );
            return Err(self.locate(e, cells));
        }
        let symbol = |v: i64| match usize::try_from(v).ok().and_then(|i| d.symbols.get(i)) {
            Some(s) => s.clone(),
            None => v.to_string(),
        };
        let row = |f: Option<usize>, n: i64| -> Result<Option<Vec<String>>, GameError> {
            let Some(f) = f else { return Ok(None) };
            (0..n)
                .map(|i| call(f, &[i]).map(symbol))
                .collect::<Result<_, _>>()
                .map(Some)
        };
        Ok(match d.layout {
            DisplayLayout::Grid | DisplayLayout::Rhombus => {
                let (rows, cols) = (sizes[0], sizes[1]);
                let f = d.parts[0].expect("a checked grid has its cell");
                let mut cells_drawn = Vec::new();
                for r in 0..rows {
                    for c in 0..cols {
                        cells_drawn.push(symbol(call(f, &[r, c])?));
                    }
                }
                Board::Grid {
                    rows: rows as usize,
                    cols: cols as usize,
                    shift: d.layout == DisplayLayout::Rhombus,
                    cells: cells_drawn,
                }
            }
            DisplayLayout::Pits => {
                let n = sizes[0];
                let bottom = row(d.parts[0], n)?.unwrap_or_default();
                let top = row(d.parts[1], n)?;
                let store = |f: Option<usize>| f.map(|f| call(f, &[]).map(|v| v.to_string())).transpose();
                let left = store(d.parts[2])?;
                let right = store(d.parts[3])?;
                Board::Pits {
                    bottom,
                    top,
                    left,
                    right,
                }
            }
            DisplayLayout::Fields => unreachable!("a display of fields draws no board"),
            DisplayLayout::Rows => {
                let n = sizes[0];
                let one = d.symbols.first().cloned().unwrap_or_else(|| "|".to_string());
                let f = d.parts[0].expect("a checked rows display has its row");
                let mut rows = Vec::new();
                for i in 0..n {
                    let count = call(f, &[i])?;
                    let label = match d.parts[1] {
                        Some(l) => call(l, &[i])?.to_string(),
                        None => i.to_string(),
                    };
                    rows.push((label, count.max(0) as usize, one.clone()));
                }
                Board::Rows { rows }
            }
        })
    }
}
