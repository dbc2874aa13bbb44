//! The values a rule computes, as compiled code makes them: constants and
//! bounds folded while translating (`bounds`), what a comparison on the way
//! says of a value, reads and writes of cells, arithmetic and the budget,
//! each checked as the VM checks it unless the bounds show it passes. The
//! instructions' arms in `compile` are written with these.

use cranelift_codegen::ir::condcodes::{CondCode, IntCC};
use cranelift_codegen::ir::types::{I8, I16, I32, I64};
use cranelift_codegen::ir::{Block, InstBuilder, InstructionData, Opcode, Value, ValueDef};

use super::{FIXED, FLAGS, Translator, cc};
use crate::ir::{ArithOp, CmpOp};
use crate::runtime::jit::Ctx;
use crate::runtime::jit::bounds::{Bounds, decide, given};
use crate::runtime::state::NIBBLE;
use crate::runtime::vm::{MAX_ARG_CHOICES, MAX_RANGE_SPAN};

impl Translator<'_, '_> {
    /// Goes on only where `cond` is false; else to `to`. A condition known
    /// while translating costs nothing: no test where it is false, a plain
    /// jump where it is true (what follows is then unreachable).
    pub(super) fn unless(&mut self, cond: Value, to: Block) {
        match self.known(cond) {
            Some(0) => {}
            Some(_) => {
                self.b.ins().jump(to, &[]);
                let dead = self.b.create_block();
                self.b.switch_to_block(dead);
                self.b.seal_block(dead);
            }
            None => {
                let next = self.b.create_block();
                let here = self.b.current_block();
                self.b.ins().brif(cond, to, &[], next, &[]);
                self.b.switch_to_block(next);
                // Its one predecessor is known: sealed now, so that the
                // registers' values (constants among them) flow into it.
                self.b.seal_block(next);
                self.carry_facts(here, next);
            }
        }
    }

    /// The facts of `from` hold in `to` too, which only `from` reaches.
    pub(super) fn carry_facts(&mut self, from: Option<Block>, to: Block) {
        if self.facts_block.is_some() && self.facts_block == from {
            self.facts_block = Some(to);
        }
    }

    /// Notes that `v` is within `s` in the current block and those it
    /// alone reaches.
    pub(super) fn refine(&mut self, v: Value, s: Bounds) {
        let here = self.b.current_block();
        if self.facts_block != here {
            self.facts.clear();
            self.facts_block = here;
        }
        let v = self.b.func.dfg.resolve_aliases(v);
        self.facts.push((v, s));
        // What holds of `x + k` or `x - k`, checked for overflow, holds of
        // `x` shifted back: past `board[pit - 1]`'s check, `pit >= 1`.
        if let Some((x, k)) = self.checked_offset(v)
            && let Some(sx) = s.sub(Bounds::exact(k))
        {
            let x = self.b.func.dfg.resolve_aliases(x);
            self.facts.push((x, sx));
        }
    }

    /// `(x, k)` where `v` is `x + k` for a constant `k`, computed with an
    /// overflow check (`arith`): then `v` is exactly `x + k` wherever it
    /// is used (past the check), so that its bounds say `x`'s.
    fn checked_offset(&self, v: Value) -> Option<(Value, i64)> {
        let dfg = &self.b.func.dfg;
        let ValueDef::Result(inst, 0) = dfg.value_def(v) else {
            return None;
        };
        match dfg.insts[inst] {
            InstructionData::Binary {
                opcode: Opcode::SaddOverflow,
                args: [x, y],
            } => Some((x, self.known(y)?)),
            InstructionData::Binary {
                opcode: Opcode::SsubOverflow,
                args: [x, y],
            } => Some((x, self.known(y)?.checked_neg()?)),
            _ => None,
        }
    }

    /// Notes what a comparison `x cc y` that held on the way here says of
    /// both sides.
    pub(super) fn refine_cmp(&mut self, cc: IntCC, x: Value, y: Value) {
        let (sx, sy) = (self.bounds_of(x), self.bounds_of(y));
        self.refine(x, given(cc, sx, sy));
        self.refine(y, given(cc.swap_args(), sy, sx));
    }

    /// The value of `v` where it is a constant known while translating:
    /// constant operands fold the checks on them away (Cranelift folds
    /// arithmetic on constants, but keeps a branch on a constant condition).
    pub(super) fn known(&self, v: Value) -> Option<i64> {
        let dfg = &self.b.func.dfg;
        match dfg.value_def(dfg.resolve_aliases(v)) {
            ValueDef::Result(inst, 0) => match dfg.insts[inst] {
                InstructionData::UnaryImm {
                    opcode: Opcode::Iconst,
                    imm,
                } => Some(imm.bits()),
                _ => None,
            },
            _ => None,
        }
    }

    /// The bounds known of `v` here: exact for a constant, and narrowed by
    /// the comparisons on the way here (`facts`).
    pub(super) fn bounds_of(&self, v: Value) -> Bounds {
        if let Some(k) = self.known(v) {
            return Bounds::exact(k);
        }
        let v = self.b.func.dfg.resolve_aliases(v);
        let mut s = self.bounds.get(v);
        if self.facts_block.is_some() && self.facts_block == self.b.current_block() {
            for &(w, f) in &self.facts {
                if w == v {
                    s = s.meet(f);
                }
            }
        }
        s
    }

    /// Notes the bounds of `v`; gives `v`.
    pub(super) fn noted(&mut self, v: Value, s: Bounds) -> Value {
        self.bounds.note(v, s);
        v
    }

    /// A condition known while translating.
    pub(super) fn truth(&mut self, c: bool) -> Value {
        self.b.ins().iconst(I8, i64::from(c))
    }

    /// `x cc y`, folded where constants or bounds decide it.
    pub(super) fn icmp(&mut self, cc: IntCC, x: Value, y: Value) -> Value {
        match decide(cc, self.bounds_of(x), self.bounds_of(y)) {
            Some(c) => self.truth(c),
            None => self.b.ins().icmp(cc, x, y),
        }
    }

    pub(super) fn icmp_imm(&mut self, cc: IntCC, x: Value, imm: i64) -> Value {
        match decide(cc, self.bounds_of(x), Bounds::exact(imm)) {
            Some(c) => self.truth(c),
            None => self.b.ins().icmp_imm(cc, x, imm),
        }
    }

    /// `p or q` for conditions (0 or 1).
    pub(super) fn or_c(&mut self, p: Value, q: Value) -> Value {
        match (self.known(p), self.known(q)) {
            (Some(0), _) => q,
            (_, Some(0)) => p,
            (Some(_), _) | (_, Some(_)) => self.truth(true),
            _ => self.b.ins().bor(p, q),
        }
    }

    /// `p and q` for conditions (0 or 1).
    pub(super) fn and_c(&mut self, p: Value, q: Value) -> Value {
        match (self.known(p), self.known(q)) {
            (Some(0), _) | (_, Some(0)) => self.truth(false),
            (Some(_), _) => q,
            (_, Some(_)) => p,
            _ => self.b.ins().band(p, q),
        }
    }

    pub(super) fn select(&mut self, c: Value, x: Value, y: Value) -> Value {
        match self.known(c) {
            Some(0) => y,
            Some(_) => x,
            None => {
                let s = self.bounds_of(x).union(self.bounds_of(y));
                let v = self.b.ins().select(c, x, y);
                self.noted(v, s)
            }
        }
    }

    // The wrapping operations below note a result's bounds where no value
    // in them wraps: the result is then exact.

    pub(super) fn iadd_imm(&mut self, x: Value, imm: i64) -> Value {
        match self.known(x) {
            Some(a) => self.iconst(a.wrapping_add(imm)),
            None if imm == 0 => x,
            None => {
                let s = self.bounds_of(x).add(Bounds::exact(imm));
                let v = self.b.ins().iadd_imm(x, imm);
                self.noted(v, s.unwrap_or(Bounds::ANY))
            }
        }
    }

    pub(super) fn imul_imm(&mut self, x: Value, imm: i64) -> Value {
        match self.known(x) {
            Some(a) => self.iconst(a.wrapping_mul(imm)),
            None if imm == 1 => x,
            None => {
                let s = self.bounds_of(x).mul(Bounds::exact(imm));
                let v = self.b.ins().imul_imm(x, imm);
                self.noted(v, s.unwrap_or(Bounds::ANY))
            }
        }
    }

    pub(super) fn iadd(&mut self, x: Value, y: Value) -> Value {
        match (self.known(x), self.known(y)) {
            (Some(a), Some(b)) => self.iconst(a.wrapping_add(b)),
            (_, Some(b)) => self.iadd_imm(x, b),
            (Some(a), _) => self.iadd_imm(y, a),
            _ => {
                let s = self.bounds_of(x).add(self.bounds_of(y));
                let v = self.b.ins().iadd(x, y);
                self.noted(v, s.unwrap_or(Bounds::ANY))
            }
        }
    }

    pub(super) fn isub(&mut self, x: Value, y: Value) -> Value {
        match (self.known(x), self.known(y)) {
            (Some(a), Some(b)) => self.iconst(a.wrapping_sub(b)),
            (_, Some(b)) => self.iadd_imm(x, b.wrapping_neg()),
            _ => {
                let s = self.bounds_of(x).sub(self.bounds_of(y));
                let v = self.b.ins().isub(x, y);
                self.noted(v, s.unwrap_or(Bounds::ANY))
            }
        }
    }

    pub(super) fn fail_if(&mut self, cond: Value) {
        self.unless(cond, self.fail);
    }

    /// Fails unless `0 <= i < bound`, for a bound known when compiling
    /// (one unsigned comparison: a negative `i` is past any bound).
    pub(super) fn check_below(&mut self, i: Value, bound: i64) {
        let out = self.icmp_imm(IntCC::UnsignedGreaterThanOrEqual, i, bound);
        self.fail_if(out);
        // Past the check: the same index checked again (a cell read, then
        // written) needs no second test.
        if bound > 0 {
            self.refine(i, Bounds { lo: 0, hi: bound - 1 });
        }
    }

    /// Fails unless `0 <= i < len`, for a length read at run time (which
    /// may itself be negative in a state given by hand: then every index fails,
    /// as in the VM).
    pub(super) fn check_index(&mut self, i: Value, len: Value) {
        let neg = self.icmp_imm(IntCC::SignedLessThan, i, 0);
        let past = self.icmp(IntCC::SignedGreaterThanOrEqual, i, len);
        let bad = self.or_c(neg, past);
        self.fail_if(bad);
        let hi = self.bounds_of(len).hi;
        if hi > 0 {
            self.refine(i, Bounds { lo: 0, hi: hi - 1 });
        }
    }

    /// `x + y`, failing on overflow.
    pub(super) fn checked_add(&mut self, x: Value, y: Value) -> Value {
        self.arith(ArithOp::Add, x, y)
    }

    /// Checks that `i` names a cell (any failure: the VM decides).
    pub(super) fn check_cell(&mut self, i: Value) {
        self.check_below(i, self.len);
    }

    /// The address of cell `i` (checked), and for four-bit cells the shift.
    pub(super) fn addr(&mut self, i: Value) -> Value {
        self.check_cell(i);
        let off = match self.width {
            NIBBLE => self.b.ins().ushr_imm(i, 1),
            1 => i,
            w => self.imul_imm(i, i64::from(w)),
        };
        self.iadd(self.cells, off)
    }

    pub(super) fn load(&mut self, i: Value) -> Value {
        let a = self.addr(i);
        let v = match self.width {
            NIBBLE => {
                let byte = self.b.ins().uload8(I64, FLAGS, a, 0);
                let odd = self.b.ins().band_imm(i, 1);
                let shift = self.b.ins().ishl_imm(odd, 2);
                let v = self.b.ins().ushr(byte, shift);
                self.b.ins().band_imm(v, 15)
            }
            1 => self.b.ins().sload8(I64, FLAGS, a, 0),
            2 => self.b.ins().sload16(I64, FLAGS, a, 0),
            4 => self.b.ins().sload32(FLAGS, a, 0),
            _ => self.b.ins().load(I64, FLAGS, a, 0),
        };
        self.noted(v, Bounds::of_width(self.width))
    }

    pub(super) fn load_at(&mut self, cell: u32) -> Value {
        let i = self.iconst(i64::from(cell));
        self.load(i)
    }

    pub(super) fn store(&mut self, i: Value, v: Value) {
        let ro = self.icmp_imm(IntCC::Equal, self.writable, 0);
        self.fail_if(ro);
        let a = self.addr(i);
        // A value whose bounds fit the width needs no test that it fits: the
        // player who moved, a turn passed on (`(p + 1) % 2`), a cell copied.
        let (s, w) = (self.bounds_of(v), Bounds::of_width(self.width));
        let fits = s.lo >= w.lo && s.hi <= w.hi;
        let narrow = |r: &mut Self, ty| {
            let n = r.b.ins().ireduce(ty, v);
            if !fits {
                let back = r.b.ins().sextend(I64, n);
                let bad = r.b.ins().icmp(IntCC::NotEqual, back, v);
                r.unless(bad, r.widen);
            }
            n
        };
        match self.width {
            NIBBLE => {
                let bad = self.icmp_imm(IntCC::UnsignedGreaterThan, v, 15);
                self.unless(bad, self.widen);
                let byte = self.b.ins().uload8(I64, FLAGS, a, 0);
                let odd = self.b.ins().band_imm(i, 1);
                let shift = self.b.ins().ishl_imm(odd, 2);
                let fifteen = self.iconst(15);
                let mask = self.b.ins().ishl(fifteen, shift);
                let keep = self.b.ins().bnot(mask);
                let kept = self.b.ins().band(byte, keep);
                let put = self.b.ins().ishl(v, shift);
                let new = self.b.ins().bor(kept, put);
                self.b.ins().istore8(FLAGS, new, a, 0);
            }
            1 => {
                let n = narrow(self, I8);
                self.b.ins().store(FLAGS, n, a, 0);
            }
            2 => {
                let n = narrow(self, I16);
                self.b.ins().store(FLAGS, n, a, 0);
            }
            4 => {
                let n = narrow(self, I32);
                self.b.ins().store(FLAGS, n, a, 0);
            }
            _ => {
                self.b.ins().store(FLAGS, v, a, 0);
            }
        }
    }

    pub(super) fn store_at(&mut self, cell: u32, v: Value) {
        let i = self.iconst(i64::from(cell));
        self.store(i, v);
    }

    /// `x op y`, checked as the VM checks it.
    pub(super) fn arith(&mut self, op: ArithOp, x: Value, y: Value) -> Value {
        match op {
            ArithOp::Add | ArithOp::Sub | ArithOp::Mul => {
                // Folded where the operands make it exact: both known (an
                // overflow then fails outright), or adding 0, or times 1.
                let v = match (op, self.known(x), self.known(y)) {
                    (_, Some(a), Some(b)) => match op {
                        ArithOp::Add => a.checked_add(b),
                        ArithOp::Sub => a.checked_sub(b),
                        _ => a.checked_mul(b),
                    }
                    .map_or(Err(()), |v| Ok(Some(v))),
                    (ArithOp::Add | ArithOp::Sub, _, Some(0)) | (ArithOp::Mul, _, Some(1)) => return x,
                    (ArithOp::Add, Some(0), _) | (ArithOp::Mul, Some(1), _) => return y,
                    _ => Ok(None),
                };
                match v {
                    Ok(Some(v)) => return self.iconst(v),
                    Err(()) => {
                        let yes = self.truth(true);
                        self.fail_if(yes);
                        return self.iconst(0);
                    }
                    Ok(None) => {}
                }
                // No overflow to check where the bounds rule it out.
                let (sx, sy) = (self.bounds_of(x), self.bounds_of(y));
                if let Some(s) = match op {
                    ArithOp::Add => sx.add(sy),
                    ArithOp::Sub => sx.sub(sy),
                    _ => sx.mul(sy),
                } {
                    let v = match op {
                        ArithOp::Add => self.b.ins().iadd(x, y),
                        ArithOp::Sub => self.b.ins().isub(x, y),
                        _ => self.b.ins().imul(x, y),
                    };
                    return self.noted(v, s);
                }
                let (v, of) = match op {
                    ArithOp::Add => self.b.ins().sadd_overflow(x, y),
                    ArithOp::Sub => self.b.ins().ssub_overflow(x, y),
                    _ => self.b.ins().smul_overflow(x, y),
                };
                self.fail_if(of);
                self.noted(v, sx.checked(op, sy))
            }
            ArithOp::Div | ArithOp::Rem if self.known(y).is_some_and(|m| m > 0 && m & (m - 1) == 0) => {
                // By a power of two, Euclid's quotient and remainder are a
                // shift and a mask in two's complement (`last % 2 == 0` in
                // the 1-9 game): no division, no sign to correct.
                let m = self.known(y).unwrap_or(1);
                let sx = self.bounds_of(x);
                if op == ArithOp::Rem {
                    self.rem_power_of_two(x, m)
                } else {
                    let k = i64::from(m.trailing_zeros());
                    let v = self.b.ins().sshr_imm(x, k);
                    self.noted(
                        v,
                        Bounds {
                            lo: sx.lo >> k,
                            hi: sx.hi >> k,
                        },
                    )
                }
            }
            ArithOp::Div | ArithOp::Rem => {
                let zero = self.icmp_imm(IntCC::Equal, y, 0);
                self.fail_if(zero);
                let min = self.icmp_imm(IntCC::Equal, x, i64::MIN);
                let minus = self.icmp_imm(IntCC::Equal, y, -1);
                let both = self.and_c(min, minus);
                self.fail_if(both);
                let r = self.b.ins().srem(x, y);
                let neg = self.icmp_imm(IntCC::SignedLessThan, r, 0);
                let ypos = self.icmp_imm(IntCC::SignedGreaterThan, y, 0);
                if op == ArithOp::Div {
                    let q = self.b.ins().sdiv(x, y);
                    let m1 = self.iconst(-1);
                    let p1 = self.iconst(1);
                    let step = self.select(ypos, m1, p1);
                    let zero = self.iconst(0);
                    let adj = self.select(neg, step, zero);
                    self.iadd(q, adj)
                } else {
                    let plus = self.iadd(r, y);
                    let minus = self.isub(r, y);
                    let fixed = self.select(ypos, plus, minus);
                    self.select(neg, fixed, r)
                }
            }
        }
    }

    pub(super) fn cmp(&mut self, op: CmpOp, x: Value, y: Value) -> Value {
        self.icmp(cc(op), x, y)
    }

    pub(super) fn cmp_imm(&mut self, op: CmpOp, x: Value, imm: i32) -> Value {
        self.icmp_imm(cc(op), x, i64::from(imm))
    }

    pub(super) fn bool64(&mut self, c: Value) -> Value {
        if let Some(k) = self.known(c) {
            return self.iconst(i64::from(k != 0));
        }
        let v = self.b.ins().uextend(I64, c);
        self.noted(v, Bounds::BOOL)
    }

    /// `x % m` (Euclidean) for `m` a power of two: a mask, negative `x`
    /// included (two's complement).
    fn rem_power_of_two(&mut self, x: Value, m: i64) -> Value {
        let v = self.b.ins().band_imm(x, m - 1);
        self.noted(v, Bounds { lo: 0, hi: m - 1 })
    }

    /// `x % m` (Euclidean) for a constant `m > 0`.
    pub(super) fn rem_pos(&mut self, x: Value, m: i32) -> Value {
        if m & (m - 1) == 0 {
            return self.rem_power_of_two(x, i64::from(m));
        }
        let r = self.b.ins().srem_imm(x, i64::from(m));
        let neg = self.icmp_imm(IntCC::SignedLessThan, r, 0);
        let plus = self.iadd_imm(r, i64::from(m));
        self.select(neg, plus, r)
    }

    /// Takes `n` steps from the budget.
    pub(super) fn spend(&mut self, n: Value) {
        let s = self.b.use_var(self.steps);
        let short = self.icmp(IntCC::SignedLessThan, s, n);
        self.fail_if(short);
        let left = self.isub(s, n);
        self.b.def_var(self.steps, left);
    }

    /// Takes a step for a call compiled in place without checking that
    /// the budget had it: the count may go below 0 (it starts at
    /// `MAX_STEPS`, far from overflow), and the next step checked (a loop's
    /// step, a call made) or the return to the runtime fails then. A rule
    /// out of steps runs on at most to the end of the range it goes
    /// through, whose steps were taken before it started.
    pub(super) fn spend_unchecked(&mut self) {
        let s = self.b.use_var(self.steps);
        let left = self.iadd_imm(s, -1);
        self.b.def_var(self.steps, left);
    }

    /// The steps left, failing where the budget ran out (see
    /// `spend_unchecked`): for what leaves them in the budget.
    pub(super) fn steps_left(&mut self) -> Value {
        let s = self.b.use_var(self.steps);
        if self.calls_any {
            let out = self.icmp_imm(IntCC::SignedLessThan, s, 0);
            self.fail_if(out);
        }
        s
    }

    /// The cell of element `i` of the list whose length cell is `list`
    /// (whose length is `len`), after checking `0 <= i < len`.
    pub(super) fn element(&mut self, list: Value, len: Value, i: Value, size: u32) -> Value {
        self.check_index(i, len);
        let off = self.imul_imm(i, i64::from(size));
        let base = self.iadd_imm(list, 1);
        self.iadd(base, off)
    }

    /// Fails unless `lo..=hi` is short enough to go through (at most 2^20).
    pub(super) fn check_range(&mut self, lo: Value, hi: Value) {
        if let (Some(l), Some(h)) = (self.known(lo), self.known(hi)) {
            let too_long = match h.checked_sub(l) {
                None => h > l,
                Some(d) => d >= MAX_RANGE_SPAN,
            };
            let c = self.truth(too_long);
            self.fail_if(c);
            return;
        }
        // Only the longest it can be matters (an empty range is short):
        // `min(pit + count, pits)` from `pit + 1` is short, however low
        // its end can be.
        let longest = i128::from(self.bounds_of(hi).hi) - i128::from(self.bounds_of(lo).lo);
        if longest < i128::from(MAX_RANGE_SPAN) {
            return;
        }
        let (d, of) = self.b.ins().ssub_overflow(hi, lo);
        let long = self
            .b
            .ins()
            .icmp_imm(IntCC::SignedGreaterThanOrEqual, d, MAX_RANGE_SPAN);
        let up = self.icmp(IntCC::SignedGreaterThan, hi, lo);
        let too_long = self.select(of, up, long);
        self.fail_if(too_long);
    }

    pub(super) fn consts_ptr(&mut self) -> Value {
        self.b.ins().load(I64, FIXED, self.ctx, Ctx::CONSTS)
    }

    /// `consts[i]`, checked.
    pub(super) fn load_const(&mut self, i: Value) -> Value {
        self.check_below(i, self.code.consts.len() as i64);
        let p = self.consts_ptr();
        let off = self.imul_imm(i, 8);
        let a = self.iadd(p, off);
        self.b.ins().load(I64, FLAGS, a, 0)
    }

    /// The cell of element `index + add` (the sum checked) of the list of
    /// scalars whose length cell is `list`, checked as `element` does.
    pub(super) fn static_element(&mut self, list: u32, index: u16, add: i32) -> Value {
        let x = self.get(index);
        let a = self.iconst(i64::from(add));
        let i = self.checked_add(x, a);
        let l = self.iconst(i64::from(list));
        let len = self.load(l);
        self.element(l, len, i, 1)
    }

    /// One step of a loop over the list (of the state, or of the constants)
    /// whose length cell is in register `addr`: to `to` when index `idx` is
    /// past its end, else element `idx` into `var`, and `idx` one on.
    pub(super) fn next_element(&mut self, var: u16, idx: u16, addr: u16, to: Block, consts: bool) {
        let (i, o) = (self.get(idx), self.get(addr));
        let len = if consts { self.load_const(o) } else { self.load(o) };
        let done = self.icmp(IntCC::SignedGreaterThanOrEqual, i, len);
        self.branch(done, to);
        let base = self.iadd_imm(o, 1);
        let at = self.iadd(base, i);
        let v = if consts { self.load_const(at) } else { self.load(at) };
        self.set(var, v);
        let n = self.iadd_imm(i, 1);
        self.set(idx, n);
    }

    /// Counts one more choice of a move's arguments in `c`: fails past `MAX_ARG_CHOICES`.
    pub(super) fn count_choice(&mut self, c: Value) -> Value {
        let c1 = self.iadd_imm(c, 1);
        let many = self.icmp_imm(IntCC::SignedGreaterThan, c1, MAX_ARG_CHOICES);
        self.fail_if(many);
        c1
    }
}
