//! One native function per `Game` call, for games where one player moves
//! at a time and nothing is left to chance: `turn` runs the end clauses in
//! order, `legal` every move generator, `apply` a move's body, the turn
//! passing and then the end clauses. Each compiles those rules in place,
//! one after another in one function (with the registers of each its own,
//! and the step budget and call depth shared, as the runtime shares one
//! budget through a `Game` call), so that the runtime makes one context and
//! one call per `Game` call, not one per rule (`runtime/fast.rs`): in
//! random playouts that Rust around the rules, and the rules' own entries
//! and exits, had grown to as many instructions as the rules themselves.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Block, InstBuilder, Value};
use cranelift_frontend::{FunctionBuilder, Switch, Variable};
use cranelift_module::FuncId;

use super::{Env, FLAGS, Translator};
use crate::ir::code::{Code, CondCode, Entry};
use crate::ir::{MAX_MOVE_ARGS, MoveBy, PREVIOUS_CELL, Program, TURN_CELL, TURN_UNSET};
use crate::runtime::jit::Ctx;

/// The drivers of one width (`None`: the game is not plain, or the VM
/// runs one of the rules the driver would compile in place).
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
    pub turn: Option<FuncId>,
    pub legal: Option<FuncId>,
    pub apply: Option<FuncId>,
}

impl Drivers {
    pub(super) fn slot(&mut self, kind: Kind) -> &mut Option<FuncId> {
        match kind {
            Kind::Turn => &mut self.turn,
            Kind::Legal => &mut self.legal,
            Kind::Apply { .. } => &mut self.apply,
        }
    }
}

#[derive(Clone, Copy)]
pub(super) enum Kind {
    Turn,
    Legal,
    Apply { players: i64, keeps_previous: bool },
}

impl Kind {
    pub(super) fn name(self) -> &'static str {
        match self {
            Kind::Turn => "turn",
            Kind::Legal => "legal",
            Kind::Apply { .. } => "apply",
        }
    }

    /// The rules the driver compiles in place.
    pub(super) fn parts(self, code: &Code) -> Vec<Entry> {
        let generators = code.moves.iter().map(|m| m.generate);
        let mut ends: Vec<Entry> = Vec::new();
        for e in &code.ends {
            e.cond.entries(&mut ends);
        }
        if code.ends.iter().any(|e| e.cond.asks_for_moves()) {
            ends.extend(generators.clone());
        }
        match self {
            Kind::Turn => ends,
            Kind::Legal => generators.collect(),
            Kind::Apply { .. } => code.moves.iter().map(|m| m.body).chain(ends).collect(),
        }
    }
}

/// The drivers a game has: none unless one player moves at a time and
/// nothing is left to chance.
pub(super) fn kinds(prog: &Program) -> Vec<Kind> {
    if prog.has_chance || prog.has_simultaneous || prog.moves.iter().any(|m| m.by != MoveBy::Turn) {
        return Vec::new();
    }
    let apply = Kind::Apply {
        players: prog.players.len() as i64,
        keeps_previous: crate::ir::reads_cell(prog, PREVIOUS_CELL),
    };
    vec![Kind::Turn, Kind::Legal, apply]
}

/// Makes driver `kind` in `b`; gives the functions it calls with their
/// arguments in registers.
pub(super) fn build<'a, 'b>(kind: Kind, b: &'a mut FunctionBuilder<'b>, env: Env<'a>) -> Vec<u32> {
    let code = env.code;
    let parts = kind.parts(code);
    // The driver's own registers: the move's kind and arguments for `apply`.
    let frame = match kind {
        Kind::Apply { .. } => 1 + MAX_MOVE_ARGS,
        _ => 0,
    };
    let inputs = Entry {
        start: 0,
        end: 0,
        frame,
    };
    let mut r = Translator::new(b, env, inputs, &parts, false, None);
    match kind {
        Kind::Turn => {
            let at = r.first_end();
            r.leave(at, true);
        }
        Kind::Legal => {
            for m in &code.moves {
                r.in_place(m.generate, &[]);
            }
            let zero = r.iconst(0);
            r.leave(zero, true);
        }
        Kind::Apply {
            players,
            keeps_previous,
        } => r.apply(players, keeps_previous),
    }
    r.finish()
}

impl Translator<'_, '_> {
    /// The rule `e` compiled in place, its registers fresh variables, 0 but
    /// for `set`: its value (0 where it halts), and its registers after.
    /// Any failure inside leaves the driver (through `fail`, `widen` or
    /// `failed`, as they are when it is compiled).
    fn in_place(&mut self, e: Entry, set: &[(usize, Value)]) -> (Value, Vec<Variable>) {
        let vars: Vec<Variable> = (0..e.frame).map(|_| self.b.declare_var(I64)).collect();
        for (i, &var) in vars.iter().enumerate() {
            // The last value given for a register wins, as stores into a frame do.
            let x = match set.iter().rev().find(|&&(j, _)| j == i) {
                Some(&(_, v)) => v,
                None => self.iconst(0),
            };
            self.b.def_var(var, x);
        }
        let (after, result) = (self.b.create_block(), self.b.declare_var(I64));
        let regs = std::mem::replace(&mut self.regs, vars);
        let ret_to = self.ret_to.replace((after, result));
        // Each rule as much compiled in place as on its own.
        let inlined = std::mem::replace(&mut self.inlined, 0);
        self.inlining.push(e.start);
        self.body(e.start as usize, e.end as usize);
        self.inlining.pop();
        self.inlined = inlined;
        self.ret_to = ret_to;
        let vars = std::mem::replace(&mut self.regs, regs);
        self.b.switch_to_block(after);
        self.b.seal_block(after);
        (self.b.use_var(result), vars)
    }

    /// The index of the first end clause that holds, or the number of
    /// clauses where none does.
    fn first_end(&mut self) -> Value {
        let code = self.code;
        let join = self.b.create_block();
        let at = self.b.append_block_param(join, I64);
        for (i, end) in code.ends.iter().enumerate() {
            let holds = self.holds(&end.cond);
            let next = self.b.create_block();
            let i = self.iconst(i as i64);
            self.b.ins().brif(holds, join, &[i.into()], next, &[]);
            self.b.switch_to_block(next);
            self.b.seal_block(next);
        }
        let none = self.iconst(code.ends.len() as i64);
        self.b.ins().jump(join, &[none.into()]);
        self.b.switch_to_block(join);
        self.b.seal_block(join);
        at
    }

    /// Whether an end clause's condition holds (non-zero), its terms tried
    /// left to right, `and` and `or` stopping as soon as they know.
    fn holds(&mut self, cond: &CondCode) -> Value {
        match cond {
            CondCode::Entry(entry) => self.in_place(*entry, &[]).0,
            // No generator finds a move (the host says to stop at the first
            // move each makes).
            CondCode::NoMoves => {
                let code = self.code;
                let (moved, after) = (self.b.create_block(), self.b.create_block());
                let holds = self.b.append_block_param(after, I64);
                let stopped = std::mem::replace(&mut self.stopped, moved);
                for m in &code.moves {
                    self.in_place(m.generate, &[]);
                }
                self.stopped = stopped;
                let yes = self.iconst(1);
                self.b.ins().jump(after, &[yes.into()]);
                self.b.switch_to_block(moved);
                self.b.seal_block(moved);
                let no = self.iconst(0);
                self.b.ins().jump(after, &[no.into()]);
                self.b.switch_to_block(after);
                self.b.seal_block(after);
                holds
            }
            CondCode::Not(a) => {
                let a = self.holds(a);
                let not = self.b.ins().icmp_imm(IntCC::Equal, a, 0);
                self.b.ins().uextend(I64, not)
            }
            // The second term only where the first leaves it open: false
            // after `and` (true after `or`) goes straight on with that value.
            CondCode::And(a, b) | CondCode::Or(a, b) => {
                let is_and = matches!(cond, CondCode::And(..));
                let first = self.holds(a);
                let (second, after) = (self.b.create_block(), self.b.create_block());
                let holds = self.b.append_block_param(after, I64);
                let known = self.iconst(i64::from(!is_and));
                if is_and {
                    self.b.ins().brif(first, second, &[], after, &[known.into()]);
                } else {
                    self.b.ins().brif(first, after, &[known.into()], second, &[]);
                }
                self.b.switch_to_block(second);
                self.b.seal_block(second);
                let other = self.holds(b);
                self.b.ins().jump(after, &[other.into()]);
                self.b.switch_to_block(after);
                self.b.seal_block(after);
                holds
            }
        }
    }

    /// `apply`'s driver: the body of the move of kind `frame[0]`, the turn
    /// passed as `play` passes it (each cell written and checked as the
    /// rules write them), then the end clauses.
    fn apply(&mut self, players: i64, keeps_previous: bool) {
        let code = self.code;
        // The runtime plays moves on cells it lends for writing: checked
        // once here, not at every store.
        let read_only = self.icmp_imm(IntCC::Equal, self.writable, 0);
        self.fail_if(read_only);
        self.writable = self.iconst(1);
        let kind = self.get(0);
        let args: Vec<Value> = (0..MAX_MOVE_ARGS).map(|i| self.get(1 + i as u16)).collect();
        let mover = self.load_at(TURN_CELL as u32);
        let pass = self.b.create_block();
        // Who a body said moves next, where some body can say it.
        let says = self.slow.prog.moves.iter().any(|m| m.turn_local.is_some());
        let said = says.then(|| self.b.append_block_param(pass, I64));
        let arms: Vec<Block> = code.moves.iter().map(|_| self.b.create_block()).collect();
        let mut switch = Switch::new();
        for (k, &arm) in arms.iter().enumerate() {
            switch.set_entry(k as u128, arm);
        }
        // A kind the game does not have: the general path says so.
        switch.emit(self.b, kind, self.fail);
        for (k, m) in code.moves.iter().enumerate() {
            self.b.switch_to_block(arms[k]);
            self.b.seal_block(arms[k]);
            let turn_local = self.slow.prog.moves[k].turn_local;
            let unset = self.iconst(TURN_UNSET);
            let mut set: Vec<(usize, Value)> = args.iter().copied().enumerate().collect();
            set.extend(turn_local.map(|l| (l, unset)));
            let (_, regs) = self.in_place(m.body, &set);
            let said = match turn_local {
                Some(l) => self.b.use_var(regs[l]),
                None => unset,
            };
            let said: Vec<_> = says.then_some(said.into()).into_iter().collect();
            self.b.ins().jump(pass, &said);
        }
        self.b.switch_to_block(pass);
        self.b.seal_block(pass);
        // A body out of steps fails here, as on leaving a rule of its own
        // (`spend_unchecked`), not in the end clauses below.
        self.steps_left();
        if keeps_previous {
            self.store_at(PREVIOUS_CELL as u32, mover);
        }
        // As `play` computes it (wrapping, as Rust's release build does).
        let one = self.b.ins().iadd_imm(mover, 1);
        let next = self.b.ins().srem_imm(one, players);
        self.store_at(TURN_CELL as u32, next);
        // `again` or `turn = p`: a player, or the general path says why not.
        if let Some(said) = said {
            let (check, give, done) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
            let named = self.b.ins().icmp_imm(IntCC::NotEqual, said, TURN_UNSET);
            self.b.ins().brif(named, check, &[], done, &[]);
            self.b.switch_to_block(check);
            self.b.seal_block(check);
            let bad = self.b.ins().icmp_imm(IntCC::UnsignedGreaterThanOrEqual, said, players);
            self.b.ins().brif(bad, self.fail, &[], give, &[]);
            self.b.switch_to_block(give);
            self.b.seal_block(give);
            self.store_at(TURN_CELL as u32, said);
            self.b.ins().jump(done, &[]);
            self.b.switch_to_block(done);
            self.b.seal_block(done);
        }
        // The move is played: where an end clause fails, the state's end is
        // left unknown, for `turn` to find out on its own; and the clauses
        // only read the cells, as they do on their own.
        let unknown = self.b.create_block();
        let kept = (self.fail, self.widen, self.failed, self.writable);
        (self.fail, self.widen, self.failed) = (unknown, unknown, unknown);
        self.writable = self.iconst(0);
        let at = self.first_end();
        self.leave(at, true);
        (self.fail, self.widen, self.failed, self.writable) = kept;
        self.b.switch_to_block(unknown);
        self.b.seal_block(unknown);
        let zero = self.iconst(0);
        self.b.ins().store(FLAGS, zero, self.ctx, Ctx::FAIL);
        let none = self.iconst(-1);
        self.leave(none, false);
    }
}
