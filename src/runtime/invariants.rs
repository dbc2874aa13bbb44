//! A game's invariants (`invariant "one king each": COND`): which one a
//! position breaks. The doors through which positions enter from outside
//! the rules ask here (`Interpreted::parse_position`, `encode::state_from_cells`),
//! as does `gdl check` for the start; positions reached by play are not
//! checked, which would cost every move a run of every invariant.

use super::*;

impl Interpreted {
    /// The first invariant `state` breaks (an index into
    /// [`Program::invariants`]), or `None` where it keeps them all. They run
    /// as the rules run, compiled or on the VM; a run-time error in one is
    /// returned with the place in the file and the position, and which one.
    pub fn broken_invariant(&self, state: &State) -> Result<Option<usize>, (usize, GameError)> {
        for i in 0..self.prog.invariants.len() {
            if !self.or_vm(|g| g.invariant_holds(i, state)).map_err(|e| (i, e))? {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    fn invariant_holds(&self, i: usize, state: &State) -> Result<bool, GameError> {
        let invariant = &self.prog.invariants[i];
        let entry = self.code.fns[invariant.func];
        let mut budget = Budget::new();
        let holds = with_cells!(state, |c| with_frame(entry.frame, |frame| {
            self.exec(entry, &mut Reader(c), frame, &mut budget)
        }))
        .map_err(|e| self.locate(e.at(invariant.span.into()), &state.cells()))?;
        Ok(holds != 0)
    }

    /// Invariant `i` as a message names it: `the invariant "one king each"
    /// (games/chess.game line 12)`, or `the invariant at games/chess.game
    /// line 12` without a label.
    pub fn invariant_name(&self, i: usize) -> String {
        let invariant = &self.prog.invariants[i];
        let file = self.prog.source.name();
        let text = self.prog.source.inner();
        let line = text[..invariant.span.start.min(text.len())].matches('\n').count() + 1;
        match &invariant.label {
            Some(label) => format!("the invariant \"{label}\" ({file} line {line})"),
            None => format!("the invariant at {file} line {line}"),
        }
    }

    /// What is wrong with a position from outside the rules, as far as the
    /// invariants tell: the one it breaks, or the error that checking one met.
    pub(super) fn invariants_refuse(&self, state: &State) -> Option<String> {
        match self.broken_invariant(state) {
            Ok(None) => None,
            Ok(Some(i)) => Some(format!("the position breaks {}", self.invariant_name(i))),
            Err((i, e)) => Some(format!("checking {} failed: {e}", self.invariant_name(i))),
        }
    }
}
