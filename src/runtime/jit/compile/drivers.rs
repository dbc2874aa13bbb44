//! One native function per `Game` call, for games where one player moves
//! at a time and nothing is left to chance: `turn` runs the end clauses in
//! order, `legal` every move generator, `apply` a move's body, the turn
//! passing and then the end clauses. Each calls the rules compiled beside
//! it, with their frames on the machine stack, and stops at the first
//! failure (recorded in the context by the rule that failed), so that the
//! runtime makes one context and one call per `Game` call, not one per rule
//! (`runtime/fast.rs`): in random playouts that Rust around the rules had
//! grown to more instructions than the rules themselves.

use std::collections::HashMap;

use cranelift_codegen::Context;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{
    Block, FuncRef, InstBuilder, Signature, StackSlot, StackSlotData, StackSlotKind, UserFuncName, Value,
};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch};
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Linkage, Module};

use super::super::super::state::NIBBLE;
use super::super::super::vm::STOPPED;
use super::super::{Ctx, FAIL};
use super::FLAGS;
use crate::ir::code::{Code, Entry};
use crate::ir::{MAX_MOVE_ARGS, MoveBy, PREVIOUS_CELL, Program, TURN_CELL, TURN_UNSET};

/// A driver, and the rules it calls (by where they start): it may be used
/// only where every one of them is compiled.
pub(in crate::runtime::jit) struct Driver {
    pub id: FuncId,
    pub calls: Vec<u32>,
}

/// The drivers of one width (`None`: the game is not plain, or a rule is
/// not compiled as a rule of its own).
///
/// Each takes `(ctx, frame) -> value`, as a rule does:
/// - `turn` gives the index of the first end clause that holds, or the
///   number of clauses where none does (its host stops a generator at the
///   first move, for `end when no moves`);
/// - `legal` gives 0, the moves in the host's buffer;
/// - `apply`, `frame[0]` the move's kind and then its `MAX_MOVE_ARGS`
///   arguments, plays it and passes the turn as `play` does, then gives
///   what `turn` would give of the new state, or -1 where an end clause
///   failed (the move stays played; `turn` finds the failure again on its
///   own, with a budget of its own).
#[derive(Default)]
pub(in crate::runtime::jit) struct Drivers {
    pub turn: Option<Driver>,
    pub legal: Option<Driver>,
    pub apply: Option<Driver>,
}

/// Makes the drivers of a plain game, calling the rules `ids` of the
/// module, which have the signature `sig`.
#[allow(clippy::too_many_arguments)]
pub(super) fn drivers(
    module: &mut JITModule,
    ctx: &mut Context,
    fctx: &mut FunctionBuilderContext,
    sig: &Signature,
    ids: &HashMap<u32, FuncId>,
    code: &Code,
    prog: &Program,
    width: u8,
    len: usize,
) -> Result<Drivers, String> {
    if prog.has_chance || prog.has_simultaneous || prog.moves.iter().any(|m| m.by != MoveBy::Turn) {
        return Ok(Drivers::default());
    }
    // One frame on the stack for every callee, as large as the largest.
    let words = code
        .ends
        .iter()
        .filter_map(|e| e.cond)
        .chain(code.moves.iter().flat_map(|m| [m.generate, m.body]))
        .map(|e| e.frame)
        .max()
        .unwrap_or(0)
        .max(MAX_MOVE_ARGS + 1);
    let compiled = |e: &Entry| ids.contains_key(&e.start);
    let generators: Vec<Entry> = code.moves.iter().map(|m| m.generate).collect();
    let mut make = |name: &str, needs: &[Entry], build: &dyn Fn(&mut Make) -> Option<()>| {
        if !needs.iter().all(compiled) {
            return Ok::<_, String>(None);
        }
        let id = module
            .declare_function(name, Linkage::Local, sig)
            .map_err(|e| e.to_string())?;
        ctx.func.signature = sig.clone();
        ctx.func.name = UserFuncName::user(1, id.as_u32());
        let made = {
            let mut b = FunctionBuilder::new(&mut ctx.func, fctx);
            let mut m = Make::new(&mut b, module, ids, words, width);
            let done = build(&mut m);
            // Last, so that the entry block comes first.
            m.b.switch_to_block(m.returns);
            let zero = m.b.ins().iconst(I64, 0);
            m.b.ins().return_(&[zero]);
            let calls = m.calls;
            b.seal_all_blocks();
            b.finalize();
            done.map(|()| calls)
        };
        let calls = made.ok_or("a driver calls a rule without a function of its own")?;
        module.define_function(id, ctx).map_err(|e| format!("{e:?}"))?;
        module.clear_context(ctx);
        Ok(Some(Driver { id, calls }))
    };

    let mut ends: Vec<Entry> = code.ends.iter().filter_map(|e| e.cond).collect();
    if code.ends.iter().any(|e| e.cond.is_none()) {
        ends.extend(&generators);
    }
    let turn = make("turn", &ends, &|m| {
        let at = m.first_end(code)?;
        m.b.ins().return_(&[at]);
        Some(())
    })?;
    let legal = make("legal", &generators, &|m| {
        for mc in &code.moves {
            m.call(mc.generate, &[])?;
        }
        let zero = m.b.ins().iconst(I64, 0);
        m.b.ins().return_(&[zero]);
        Some(())
    })?;
    // The turn passes as `play` passes it; the values written are players,
    // which fit cells of every width while there are at most 15.
    let players = prog.players.len() as i64;
    let keeps_previous = crate::ir::reads_cell(prog, PREVIOUS_CELL);
    let passes = players <= 15 && [TURN_CELL, PREVIOUS_CELL].iter().all(|&c| c < len);
    let mut plays: Vec<Entry> = code.moves.iter().map(|m| m.body).collect();
    plays.extend(&ends);
    let apply = match passes {
        true => make("apply", &plays, &|m| {
            let kind = m.input(0);
            let args: Vec<Value> = (0..MAX_MOVE_ARGS).map(|i| m.input(1 + i)).collect();
            let mover = m.load_cell(TURN_CELL);
            let pass = m.b.create_block();
            let said = m.b.append_block_param(pass, I64);
            let unknown = m.b.create_block();
            let arms: Vec<Block> = (0..code.moves.len()).map(|_| m.b.create_block()).collect();
            let mut switch = Switch::new();
            for (k, &arm) in arms.iter().enumerate() {
                switch.set_entry(k as u128, arm);
            }
            switch.emit(m.b, kind, unknown);
            for (k, mc) in code.moves.iter().enumerate() {
                m.b.switch_to_block(arms[k]);
                let turn_local = prog.moves[k].turn_local;
                let unset = m.b.ins().iconst(I64, TURN_UNSET);
                let mut set: Vec<(usize, Value)> = args.iter().copied().enumerate().collect();
                set.extend(turn_local.map(|l| (l, unset)));
                m.call(mc.body, &set)?;
                let said = match turn_local {
                    Some(l) => m.b.ins().stack_load(I64, m.slot, (l * 8) as i32),
                    None => unset,
                };
                m.b.ins().jump(pass, &[said.into()]);
            }
            // A kind the game does not have: the general path says so.
            m.b.switch_to_block(unknown);
            let fail = m.b.ins().iconst(I64, FAIL);
            m.b.ins().store(FLAGS, fail, m.ctx, Ctx::FAIL);
            m.b.ins().jump(m.failed, &[]);

            m.b.switch_to_block(pass);
            // A turn cell out of range (no game makes one) is the general path's to judge.
            let odd = m.b.ins().icmp_imm(IntCC::UnsignedGreaterThanOrEqual, mover, players);
            let fine = m.b.create_block();
            m.b.ins().brif(odd, unknown, &[], fine, &[]);
            m.b.switch_to_block(fine);
            if keeps_previous {
                m.store_cell(PREVIOUS_CELL, mover);
            }
            let one = m.b.ins().iadd_imm(mover, 1);
            let wraps = m.b.ins().icmp_imm(IntCC::Equal, one, players);
            let zero = m.b.ins().iconst(I64, 0);
            let next = m.b.ins().select(wraps, zero, one);
            // `again` or `turn = p`: a player, or the general path says why not.
            let named = m.b.ins().icmp_imm(IntCC::NotEqual, said, TURN_UNSET);
            let bad = m.b.ins().icmp_imm(IntCC::UnsignedGreaterThanOrEqual, said, players);
            let (check, fails, ok) = (m.b.create_block(), m.b.create_block(), m.b.create_block());
            let to = m.b.append_block_param(ok, I64);
            m.b.ins().brif(named, check, &[], ok, &[next.into()]);
            m.b.switch_to_block(check);
            m.b.ins().brif(bad, fails, &[], ok, &[said.into()]);
            m.b.switch_to_block(fails);
            let fail = m.b.ins().iconst(I64, FAIL);
            m.b.ins().store(FLAGS, fail, m.ctx, Ctx::FAIL);
            m.b.ins().jump(m.failed, &[]);
            // The move is played: where an end clause fails, the state's
            // end is left unknown, for `turn` to find out on its own.
            let unknown_end = m.b.create_block();
            m.b.switch_to_block(unknown_end);
            let zero = m.b.ins().iconst(I64, 0);
            m.b.ins().store(FLAGS, zero, m.ctx, Ctx::FAIL);
            let none = m.b.ins().iconst(I64, -1);
            m.b.ins().return_(&[none]);
            m.b.switch_to_block(ok);
            m.store_cell(TURN_CELL, to);
            m.failed = unknown_end;
            let at = m.first_end(code)?;
            m.b.ins().return_(&[at]);
            Some(())
        })?,
        false => None,
    };
    Ok(Drivers { turn, legal, apply })
}

/// One driver being made.
struct Make<'a, 'b> {
    b: &'a mut FunctionBuilder<'b>,
    ctx: Value,
    frame: Value,
    /// The callees' frame.
    slot: StackSlot,
    /// Where a failed callee goes (first `returns`).
    failed: Block,
    /// Returns 0, a failure recorded.
    returns: Block,
    cells: Value,
    width: u8,
    refs: HashMap<u32, FuncRef>,
    module: &'a mut JITModule,
    ids: &'a HashMap<u32, FuncId>,
    calls: Vec<u32>,
}

impl<'a, 'b> Make<'a, 'b> {
    fn new(
        b: &'a mut FunctionBuilder<'b>,
        module: &'a mut JITModule,
        ids: &'a HashMap<u32, FuncId>,
        words: usize,
        width: u8,
    ) -> Make<'a, 'b> {
        let top = b.create_block();
        b.append_block_params_for_function_params(top);
        b.switch_to_block(top);
        let (ctx, frame) = (b.block_params(top)[0], b.block_params(top)[1]);
        let slot = b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            (words.max(1) * 8) as u32,
            3,
        ));
        let failed = b.create_block();
        let cells = b.ins().load(I64, FLAGS, ctx, Ctx::CELLS);
        Make {
            b,
            ctx,
            frame,
            slot,
            failed,
            returns: failed,
            cells,
            width,
            refs: HashMap::new(),
            module,
            ids,
            calls: Vec::new(),
        }
    }

    /// The index of the first end clause that holds, or the number of
    /// clauses where none does.
    fn first_end(&mut self, code: &Code) -> Option<Value> {
        let join = self.b.create_block();
        let at = self.b.append_block_param(join, I64);
        for (i, end) in code.ends.iter().enumerate() {
            let holds = match end.cond {
                Some(cond) => self.call(cond, &[])?,
                // `end when no moves`: no generator finds one (the host
                // stops each at its first move).
                None => {
                    let after = self.b.create_block();
                    let holds = self.b.append_block_param(after, I64);
                    let (no, yes) = (self.b.ins().iconst(I64, 0), self.b.ins().iconst(I64, 1));
                    for mc in &code.moves {
                        let v = self.call(mc.generate, &[])?;
                        let found = self.b.ins().icmp_imm(IntCC::Equal, v, STOPPED);
                        let next = self.b.create_block();
                        self.b.ins().brif(found, after, &[no.into()], next, &[]);
                        self.b.switch_to_block(next);
                    }
                    self.b.ins().jump(after, &[yes.into()]);
                    self.b.switch_to_block(after);
                    holds
                }
            };
            let next = self.b.create_block();
            let i = self.b.ins().iconst(I64, i as i64);
            self.b.ins().brif(holds, join, &[i.into()], next, &[]);
            self.b.switch_to_block(next);
        }
        let none = self.b.ins().iconst(I64, code.ends.len() as i64);
        self.b.ins().jump(join, &[none.into()]);
        self.b.switch_to_block(join);
        Some(at)
    }

    /// The address of cell `i` (below the state's length), and for
    /// four-bit cells the shift.
    fn cell_at(&mut self, i: usize) -> (Value, i64) {
        match self.width {
            NIBBLE => (self.b.ins().iadd_imm(self.cells, (i / 2) as i64), (i % 2 * 4) as i64),
            w => (self.b.ins().iadd_imm(self.cells, (i * w as usize) as i64), 0),
        }
    }

    fn load_cell(&mut self, i: usize) -> Value {
        let (a, shift) = self.cell_at(i);
        match self.width {
            NIBBLE => {
                let byte = self.b.ins().uload8(I64, FLAGS, a, 0);
                let v = self.b.ins().ushr_imm(byte, shift);
                self.b.ins().band_imm(v, 15)
            }
            1 => self.b.ins().sload8(I64, FLAGS, a, 0),
            2 => self.b.ins().sload16(I64, FLAGS, a, 0),
            4 => self.b.ins().sload32(FLAGS, a, 0),
            _ => self.b.ins().load(I64, FLAGS, a, 0),
        }
    }

    /// Stores `v`, a value that fits the width (a player, at most 15).
    fn store_cell(&mut self, i: usize, v: Value) {
        let (a, shift) = self.cell_at(i);
        match self.width {
            NIBBLE => {
                let byte = self.b.ins().uload8(I64, FLAGS, a, 0);
                let kept = self.b.ins().band_imm(byte, !(15 << shift));
                let put = self.b.ins().ishl_imm(v, shift);
                let new = self.b.ins().bor(kept, put);
                self.b.ins().istore8(FLAGS, new, a, 0);
            }
            1 => {
                self.b.ins().istore8(FLAGS, v, a, 0);
            }
            2 => {
                self.b.ins().istore16(FLAGS, v, a, 0);
            }
            4 => {
                self.b.ins().istore32(FLAGS, v, a, 0);
            }
            _ => {
                self.b.ins().store(FLAGS, v, a, 0);
            }
        }
    }

    /// Word `i` of the driver's frame.
    fn input(&mut self, i: usize) -> Value {
        self.b.ins().load(I64, FLAGS, self.frame, (i * 8) as i32)
    }

    /// Calls the rule at `e` with a zeroed frame but for the registers
    /// `set`; its value, after returning where it failed. `None` where the
    /// rule has no function of its own (it is compiled only in place).
    fn call(&mut self, e: Entry, set: &[(usize, Value)]) -> Option<Value> {
        let id = *self.ids.get(&e.start)?;
        let f = match self.refs.get(&e.start) {
            Some(&f) => f,
            None => {
                let f = self.module.declare_func_in_func(id, self.b.func);
                // As in `compile`: called through an absolute address.
                self.b.func.dfg.ext_funcs[f].colocated = false;
                self.refs.insert(e.start, f);
                f
            }
        };
        let zero = self.b.ins().iconst(I64, 0);
        let words = set.iter().map(|&(i, _)| i + 1).max().unwrap_or(0).max(e.frame);
        for i in 0..words {
            let v = set.iter().rev().find(|&&(j, _)| j == i).map_or(zero, |&(_, v)| v);
            self.b.ins().stack_store(v, self.slot, (i * 8) as i32);
        }
        let p = self.b.ins().stack_addr(I64, self.slot, 0);
        let call = self.b.ins().call(f, &[self.ctx, p]);
        let v = self.b.inst_results(call)[0];
        let failed = self.b.ins().load(I64, FLAGS, self.ctx, Ctx::FAIL);
        let ok = self.b.create_block();
        self.b.ins().brif(failed, self.failed, &[], ok, &[]);
        self.b.switch_to_block(ok);
        self.calls.push(e.start);
        Some(v)
    }
}
