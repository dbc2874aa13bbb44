//! Tree IR → flat code ([`Code`]): every rule of a [`Program`] as one run of
//! instructions over a frame of registers. Over 1,200 lines and kept whole, on
//! purpose: one `Builder`, each fused shape beside the general one it
//! replaces (see below).
//!
//! The code does what the tree says in the order the tree says it, error for
//! error: operands left to right, a place's list before its index, `and` and
//! `or` stopping early, a `for` loop's range fixed before its first step and
//! other collections copied before the body may change them. Conditions
//! become compare-and-branch instructions; a few shapes the seed games run at
//! every node (`list[local ± c]`, `sum(list)`, `x % 2 == 0`) get instructions
//! of their own.
//!
//! One file, though long: every statement and expression shape has its arm
//! in one `Builder`, and the fused shapes sit beside the general ones they
//! replace (`Optimisations::fuse` switches between them).

use super::code::{Code, CondCode, EndCode, Entry, Label, MoveCode, Op, OpSpans, Reg, SetRange, Value};
use super::{AggOp, ArithOp, CmpOp, Coll, Cond, EndCond, Expr, FillTarget, Outcome, Piece, Place, Program, Span, Stmt};

/// Which optimisations lowering makes. Each changes the code, never what
/// it computes: tests/inlining.rs and the library fuzzer hold every
/// combination to the same answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Optimisations {
    /// Calls of small functions become their bodies (src/ir/inline.rs).
    pub inline: bool,
    /// Shapes the seed games run at every node (`list[local ± c]`, constant
    /// operands, `sum(list)`, `x % m == c`, a last argument over a range)
    /// get instructions of their own.
    pub fuse: bool,
    /// Not an optimisation, but the language's rule before it changed
    /// (for a test): every condition of a move's `requires` tested once all
    /// the arguments are bound, not as soon as the ones it reads are. The
    /// two give the same moves wherever the rules do not fail; where a
    /// condition or a domain fails, the rule now says which fails first.
    pub late_requires: bool,
}

impl Optimisations {
    pub const ALL: Optimisations = Optimisations {
        inline: true,
        fuse: true,
        late_requires: false,
    };
    pub const NONE: Optimisations = Optimisations {
        inline: false,
        fuse: false,
        late_requires: false,
    };
}

/// Lowers every rule of `prog`, with every optimisation.
pub fn lower(prog: &Program) -> Code {
    lower_with(prog, Optimisations::ALL)
}

/// Lowers every rule of `prog` with the optimisations `opts`.
pub fn lower_with(prog: &Program, opts: Optimisations) -> Code {
    // Where each `requires` condition is tested is read from the rules as
    // written: inlining can hide that a condition reads an argument (a
    // function that ignores its parameter), and the place decides which of
    // two failures a position meets first, which no optimisation may change.
    if opts.inline {
        lower_inlined(&super::inline::inline_calls(prog), prog, opts)
    } else {
        lower_inlined(prog, prog, opts)
    }
}

/// Lowers `prog`, whose calls were inlined or are kept as they are; `written`
/// is the program before inlining, whose moves place the `requires`
/// conditions (`staged_conditions`).
fn lower_inlined(prog: &Program, written: &Program, opts: Optimisations) -> Code {
    let mut b = Builder {
        code: Code::default(),
        fuse: opts.fuse,
        late_requires: opts.late_requires,
        next: 0,
        max: 0,
        scratch: None,
    };
    b.code.consts = prog.consts.clone();
    b.code.move_names = prog.moves.iter().map(|m| m.name.clone()).collect();
    b.code.fn_names = prog.fns.iter().map(|f| f.name.clone()).collect();
    b.code.fns = prog
        .fns
        .iter()
        .map(|f| {
            b.entry(format!("fn {}", f.name), f.locals.max(f.params), |b| match &f.block {
                Some(block) => b.block_rule(block),
                None => {
                    let r = b.operand(&f.body);
                    b.op(Op::Ret { src: r });
                }
            })
        })
        .collect();
    b.code.moves = prog
        .moves
        .iter()
        .enumerate()
        .map(|(k, m)| {
            let generate = b.entry(format!("move {} (legal moves)", m.name), m.locals, |b| {
                b.generate(k, m, &written.moves[k])
            });
            let body = b.entry(format!("move {}", m.name), m.locals, |b| b.block_rule(&m.body));
            let then = (!m.then.is_empty())
                .then(|| b.entry(format!("move {} (then)", m.name), m.locals, |b| b.block_rule(&m.then)));
            let weight = m.weight.as_ref().map(|(w, _)| {
                b.entry(format!("move {} (weight)", m.name), m.locals, |b| {
                    let r = b.operand(w);
                    b.op(Op::Ret { src: r });
                })
            });
            // Room for every argument, whatever the rule uses: arguments are
            // copied in and out four at a time.
            let room = |e: Entry| Entry {
                frame: e.frame.max(super::MAX_MOVE_ARGS),
                ..e
            };
            MoveCode {
                generate: room(generate),
                body: room(body),
                then,
                weight: weight.map(room),
            }
        })
        .collect();
    b.code.ends = prog
        .ends
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let value = |b: &mut Builder, what: &str, x: &Expr| {
                b.entry(format!("end {} ({what})", i + 1), e.locals, |b| {
                    let r = b.operand(x);
                    b.op(Op::Ret { src: r });
                })
            };
            let cond = match &e.cond {
                EndCond::When(Cond::NoMoves) => {
                    // Nothing to run: the moves' own code decides.
                    let at = b.here();
                    b.code
                        .headers
                        .push((at, format!("end {} (when no moves: the moves' code)", i + 1)));
                    CondCode::NoMoves
                }
                EndCond::When(Cond::Expr(x)) => CondCode::Entry(value(&mut b, "when", x)),
                // `no moves` among other terms: each expression term a rule
                // of its own, under a heading that says how they combine.
                EndCond::When(c) => {
                    let at = b.here();
                    let shape = cond_shape(c, &mut 0);
                    let shape = match c {
                        Cond::And(..) | Cond::Or(..) => shape[1..shape.len() - 1].to_string(),
                        _ => shape,
                    };
                    b.code.headers.push((
                        at,
                        format!(
                            "end {} (when {shape}; the [terms] below, no moves the moves' code)",
                            i + 1
                        ),
                    ));
                    let mut term = 0;
                    cond_code(c, &mut |x| {
                        term += 1;
                        value(&mut b, &format!("when, term [{term}]"), x)
                    })
                }
                // The history decides, not the position: never true here.
                EndCond::Repeated(_) => {
                    CondCode::Entry(value(&mut b, "when repeated: kept by the algorithms", &Expr::Const(0)))
                }
            };
            // A constant or a cell (`previous`, `last`) needs no code.
            let leaf = |b: &mut Builder, what: &str, x: &Expr| {
                let (v, shown) = match x {
                    Expr::Const(n) => (Value::Const(*n), n.to_string()),
                    Expr::Cell(c) => (Value::Cell(cell(*c)), format!("cell[{c}]")),
                    _ => return Value::Code(value(b, what, x)),
                };
                let at = b.here();
                b.code.headers.push((at, format!("end {} ({what}) = {shown}", i + 1)));
                v
            };
            let (player, payoff, scores) = match &e.outcome {
                Outcome::Winner { player, payoff } | Outcome::Loser { player, payoff } => (
                    Some(leaf(&mut b, "player", player)),
                    payoff.as_ref().map(|x| leaf(&mut b, "payoff", x)),
                    None,
                ),
                Outcome::Draw => (None, None, None),
                Outcome::Score { scores, .. } => (
                    None,
                    None,
                    Some(b.entry(format!("end {} (scores)", i + 1), e.locals, |b| {
                        let r = b.place_reg(scores);
                        b.op(Op::Ret { src: r });
                    })),
                ),
            };
            EndCode {
                cond,
                player,
                payoff,
                scores,
            }
        })
        .collect();
    // The executor relies on these without checking again.
    for entry in b.code.entries() {
        if let Err(e) = b.code.check(entry) {
            panic!("the flat code of a rule is malformed (a bug in gdl): {e}");
        }
    }
    b.code
}

/// How a condition's terms combine, for the listing: `[1] and no moves`,
/// the expression terms numbered in order from `*next + 1`.
fn cond_shape(c: &Cond, next: &mut usize) -> String {
    match c {
        Cond::Expr(_) => {
            *next += 1;
            format!("[{next}]")
        }
        Cond::NoMoves => "no moves".to_string(),
        Cond::Not(a) => format!("not {}", cond_shape(a, next)),
        Cond::And(a, b) => format!("({} and {})", cond_shape(a, next), cond_shape(b, next)),
        Cond::Or(a, b) => format!("({} or {})", cond_shape(a, next), cond_shape(b, next)),
    }
}

/// A condition as flat code, each expression term lowered by `term`, in order.
fn cond_code(c: &Cond, term: &mut impl FnMut(&Expr) -> Entry) -> CondCode {
    match c {
        Cond::Expr(x) => CondCode::Entry(term(x)),
        Cond::NoMoves => CondCode::NoMoves,
        Cond::Not(a) => CondCode::Not(Box::new(cond_code(a, term))),
        Cond::And(a, b) => CondCode::And(Box::new(cond_code(a, term)), Box::new(cond_code(b, term))),
        Cond::Or(a, b) => CondCode::Or(Box::new(cond_code(a, term)), Box::new(cond_code(b, term))),
    }
}

struct Builder {
    code: Code,
    /// Whether the shapes that have instructions of their own get them;
    /// off, every expression takes the general path (tests compare the two).
    fuse: bool,
    /// `Optimisations::late_requires`.
    late_requires: bool,
    /// The next free register, and the most the current rule has used.
    next: usize,
    max: usize,
    /// The register that holds the address of the current rule's scratch
    /// area, where its local lists and sets live (if it has any).
    scratch: Option<Reg>,
}

/// Where a place is: a fixed cell, or a register holding a cell index.
#[derive(Clone, Copy)]
enum At {
    Cell(u32),
    Reg(Reg),
}

/// The element of a list of scalars at a fixed cell, at a local plus a constant.
struct FixedElem {
    list: u32,
    index: Reg,
    add: i32,
    /// The span of the element (out of range) and of the index sum (overflow).
    span: Span,
    index_span: Span,
}

fn reg(n: usize) -> Reg {
    Reg::try_from(n).expect("a rule needs fewer than 65,536 registers")
}

fn cell(n: usize) -> u32 {
    u32::try_from(n).expect("a state has fewer than 2^32 cells")
}

fn const_i32(e: &Expr) -> Option<i32> {
    match e {
        Expr::Const(n) => i32::try_from(*n).ok(),
        _ => None,
    }
}

/// `x % m` with a constant `m > 0`, which cannot fail: `x` and `m`.
fn rem_by_const(e: &Expr) -> Option<(&Expr, i32)> {
    match e {
        Expr::Arith(ArithOp::Rem, x, m, _) => match const_i32(m) {
            Some(m) if m > 0 => Some((&**x, m)),
            _ => None,
        },
        _ => None,
    }
}

/// `a op b` is `b flip(op) a`.
fn flip(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        op => op,
    }
}

/// `not (a op b)` is `a negate(op) b`.
fn negate(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Ge => CmpOp::Lt,
    }
}

impl Builder {
    // ------------------------------------------------------------ plumbing

    /// Lowers one rule whose first `locals` registers are its locals.
    fn entry(&mut self, name: String, locals: usize, f: impl FnOnce(&mut Self)) -> Entry {
        let start = self.here();
        self.code.headers.push((start, name));
        self.next = locals;
        self.max = locals;
        f(self);
        Entry {
            start,
            end: self.here(),
            frame: self.max,
        }
    }

    fn here(&self) -> Label {
        Label::try_from(self.code.ops.len()).expect("fewer than 2^32 instructions")
    }

    fn op(&mut self, op: Op) -> Label {
        self.op_at(op, Span::default())
    }

    fn op_at(&mut self, op: Op, span: Span) -> Label {
        self.op_spans(
            op,
            OpSpans {
                at: span,
                ..OpSpans::default()
            },
        )
    }

    fn op_spans(&mut self, op: Op, spans: OpSpans) -> Label {
        let at = self.here();
        self.code.ops.push(op);
        self.code.spans.push(spans);
        at
    }

    /// Points the jump at `site` to `to`.
    fn patch(&mut self, site: Label, to: Label) {
        match &mut self.code.ops[site as usize] {
            Op::Jump { to: t }
            | Op::JumpIfZero { to: t, .. }
            | Op::JumpIfNonZero { to: t, .. }
            | Op::JumpUnless { to: t, .. }
            | Op::JumpUnlessI { to: t, .. }
            | Op::JumpUnlessCellI { to: t, .. }
            | Op::JumpUnlessRemI { to: t, .. }
            | Op::JumpUnlessCellRemI { to: t, .. }
            | Op::RangeInit { to: t, .. }
            | Op::RangeNext { to: t, .. }
            | Op::CountNext { to: t, .. }
            | Op::ListNext { to: t, .. }
            | Op::SetNext { to: t, .. }
            | Op::ItemsNext { to: t, .. }
            | Op::ConstListNext { to: t, .. } => *t = to,
            other => unreachable!("not a jump: {other}"),
        }
    }

    fn patch_all(&mut self, sites: Vec<Label>, to: Label) {
        for s in sites {
            self.patch(s, to);
        }
    }

    /// A fresh register, free again after `release`.
    fn tmp(&mut self) -> Reg {
        let r = self.next;
        self.next += 1;
        self.max = self.max.max(self.next);
        reg(r)
    }

    fn mark(&self) -> usize {
        self.next
    }

    fn release(&mut self, mark: usize) {
        self.next = mark;
    }

    fn set(&mut self, lo: i64, hi: i64) -> u32 {
        let words = u32::try_from(super::set_words(lo, hi)).expect("a set fits the state");
        let s = SetRange { lo, hi, words };
        match self.code.sets.iter().position(|x| *x == s) {
            Some(i) => i as u32,
            None => {
                self.code.sets.push(s);
                (self.code.sets.len() - 1) as u32
            }
        }
    }

    // ------------------------------------------------------------ moves

    /// Move generation, fused: a loop per argument over its domain, and
    /// each condition of `requires` tested as soon as the arguments it
    /// reads are bound, before the loops of the later ones: Amazons'
    /// `m(f, t, a)` with a condition on `f` alone tries `t` and `a` only
    /// for the queens of the player to move. The conditions keep their
    /// order (one is moved up only as far as every condition before it),
    /// so that one is tested only where those before it hold, as in a
    /// single `and`. Each legal move is emitted innermost.
    fn generate(&mut self, k: usize, m: &super::MoveKind, written: &super::MoveKind) {
        let kind = u16::try_from(k).expect("fewer than 65,536 kinds of move");
        let counter = self.tmp();
        self.op(Op::Const { dst: counter, value: 0 });
        let tests = super::stages::staged_conditions(m, written, !self.late_requires);
        self.args_from(kind, m, 0, counter, &tests);
        self.op(Op::Halt);
    }

    /// The code for arguments `i..` of move `m`, the first `i` bound: the
    /// conditions of `tests` whose stage is `i`, then argument `i`'s loop.
    fn args_from(&mut self, kind: u16, m: &super::MoveKind, i: usize, counter: Reg, tests: &[(usize, Expr)]) {
        let mut fails = Vec::new();
        let last_stage = m.args.len();
        if i == last_stage {
            self.op(Op::Choice { counter, kind });
        }
        for (_, r) in tests.iter().filter(|(stage, _)| *stage == i) {
            fails.extend(self.jump_if(r, false));
        }
        if i == last_stage {
            self.op(Op::Emit {
                kind,
                n: m.args.len() as u16,
            });
            let next = self.here();
            self.patch_all(fails, next);
            return;
        }
        let a = &m.args[i];
        let var = reg(a.local);
        let mark = self.mark();
        let last = i + 1 == m.args.len();
        let tested_last = tests.iter().any(|(stage, _)| *stage == last_stage);
        match &a.domain {
            // The last argument over a range, without conditions on it: one
            // instruction emits every move.
            Coll::Range { lo, hi } if last && !tested_last && self.fuse => {
                self.expr_into(lo, var);
                let hi = self.operand(hi);
                self.op(Op::EmitRange {
                    kind,
                    n: m.args.len() as u16,
                    var,
                    hi,
                    counter,
                });
            }
            // A range is gone through in place; its ends were evaluated before the first step.
            // Its length is taken from the step budget: nested arguments whose
            // last domain is empty (`a in 1..<1048576, b in 8..a, c in []`)
            // make no move to count, and once went through 5 * 10^11 steps.
            Coll::Range { lo, hi } => {
                self.expr_into(lo, var);
                let hi = self.operand(hi);
                let init = self.op(Op::RangeInit {
                    var,
                    hi,
                    spend: true,
                    to: 0,
                });
                let body = self.here();
                self.args_from(kind, m, i + 1, counter, tests);
                self.op(Op::RangeNext { var, hi, to: body });
                let end = self.here();
                self.patch(init, end);
            }
            // The state does not change while moves are generated: no copy is needed.
            Coll::List { .. } | Coll::Indices { .. } | Coll::Set { .. } => {
                self.each(&a.domain, var, &mut |b, _| b.args_from(kind, m, i + 1, counter, tests));
            }
            // Literal elements are all evaluated first, as the tree walker did.
            Coll::Literal(_) => self.items_loop(&a.domain, var, |b| b.args_from(kind, m, i + 1, counter, tests)),
        }
        self.release(mark);
        let next = self.here();
        self.patch_all(fails, next);
    }

    // ------------------------------------------------------------ statements

    /// A rule made of statements: its scratch area first, if its local
    /// lists and sets need one, then the statements.
    fn block_rule(&mut self, body: &[Stmt]) {
        let size = super::scratch_size(body);
        self.scratch = (size > 0).then(|| {
            let base = self.tmp();
            let size = u32::try_from(size).expect("a rule's local lists and sets fit a state");
            self.op(Op::ScratchEnter { dst: base, size });
            self.code.scratch = true;
            base
        });
        self.stmts(body);
        self.scratch = None;
        self.op(Op::Halt);
    }

    fn stmts(&mut self, body: &[Stmt]) {
        for s in body {
            let mark = self.mark();
            self.stmt(s);
            self.release(mark);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Store { place, op, value, span } => {
                // `board[pit - 1] -= count`: one instruction, when the value
                // cannot fail (it is computed after the element is found).
                if let Some(e) = self.fixed_elem(place)
                    && matches!(value, Expr::Const(_) | Expr::Local(_) | Expr::Cell(_))
                {
                    let spans = OpSpans {
                        at: e.span,
                        index: e.index_span,
                        store: *span,
                    };
                    match (*op, self.imm(value)) {
                        (Some(op), Some(imm)) => self.op_spans(
                            Op::StoreElemSI {
                                op,
                                list: e.list,
                                index: e.index,
                                add: e.add,
                                imm,
                            },
                            spans,
                        ),
                        (op, _) => {
                            let src = self.operand(value);
                            self.op_spans(
                                Op::StoreElemS {
                                    op,
                                    list: e.list,
                                    index: e.index,
                                    add: e.add,
                                    src,
                                },
                                spans,
                            )
                        }
                    };
                    return;
                }
                let at = self.place(place);
                let src = self.operand(value);
                match (at, op) {
                    (At::Cell(cell), None) => self.op(Op::StoreCell { cell, src }),
                    (At::Reg(addr), None) => self.op(Op::Store { addr, src }),
                    (At::Cell(cell), Some(op)) => self.op_at(Op::StoreArithCell { op: *op, cell, src }, *span),
                    (At::Reg(addr), Some(op)) => self.op_at(Op::StoreArith { op: *op, addr, src }, *span),
                };
            }
            Stmt::SetLocal { local, op, value, span } => {
                let l = reg(*local);
                match op {
                    // A leaf is read in one instruction, straight into the local.
                    None if matches!(value, Expr::Const(_) | Expr::Cell(_) | Expr::Local(_)) => {
                        self.expr_into(value, l);
                    }
                    None => {
                        let t = self.operand(value);
                        self.op(Op::Copy { dst: l, src: t });
                    }
                    Some(op) => match self.imm(value) {
                        Some(imm) => {
                            self.op_at(
                                Op::ArithI {
                                    op: *op,
                                    dst: l,
                                    a: l,
                                    imm,
                                },
                                *span,
                            );
                        }
                        None => {
                            let b = self.operand(value);
                            self.op_at(
                                Op::Arith {
                                    op: *op,
                                    dst: l,
                                    a: l,
                                    b,
                                },
                                *span,
                            );
                        }
                    },
                }
            }
            Stmt::If { cond, then, otherwise } => {
                let skip = self.jump_if(cond, false);
                self.stmts(then);
                if otherwise.is_empty() {
                    let end = self.here();
                    self.patch_all(skip, end);
                } else {
                    let over = self.op(Op::Jump { to: 0 });
                    let other = self.here();
                    self.patch_all(skip, other);
                    self.stmts(otherwise);
                    let end = self.here();
                    self.patch(over, end);
                }
            }
            Stmt::For { var, coll, body } => {
                let var = reg(*var);
                match coll {
                    // A range's ends are fixed before the first step; the body may
                    // change the loop variable, so a hidden counter goes through it.
                    Coll::Range { lo, hi } => {
                        let counter = self.tmp();
                        self.expr_into(lo, counter);
                        let h = self.tmp();
                        self.expr_into(hi, h);
                        let init = self.op(Op::RangeInit {
                            var: counter,
                            hi: h,
                            spend: true,
                            to: 0,
                        });
                        let top = self.here();
                        self.op(Op::Copy { dst: var, src: counter });
                        self.stmts(body);
                        self.op(Op::RangeNext {
                            var: counter,
                            hi: h,
                            to: top,
                        });
                        let end = self.here();
                        self.patch(init, end);
                    }
                    // A constant cannot change: gone through in place.
                    Coll::List { place } | Coll::Indices { place } if place.is_const() => {
                        self.each(coll, var, &mut |b, _| b.stmts(body));
                    }
                    // Other collections are copied first: the body may change them.
                    coll => self.items_loop(coll, var, |b| b.stmts(body)),
                }
            }
            Stmt::SetAdd {
                set,
                lo,
                hi,
                value,
                span,
            }
            | Stmt::SetRemove {
                set,
                lo,
                hi,
                value,
                span,
            } => {
                let addr = self.place_reg(set);
                let x = self.operand(value);
                let set = self.set(*lo, *hi);
                let op = if matches!(s, Stmt::SetAdd { .. }) {
                    Op::SetAdd { addr, x, set }
                } else {
                    Op::SetRemove { addr, x, set }
                };
                self.op_at(op, *span);
            }
            Stmt::Push { list, cap, value, span } => {
                let addr = self.place_reg(list);
                let x = self.operand(value);
                let cap = u32::try_from(*cap).expect("a list's capacity fits the state");
                self.op_at(Op::Push { addr, x, cap }, *span);
            }
            Stmt::Clear { place, words, .. } => {
                let addr = self.place_reg(place);
                let words = u32::try_from(*words).expect("a value fits the state");
                self.op(Op::Clear { addr, words });
            }
            Stmt::While { cond, body, span } => {
                let top = self.here();
                let done = self.jump_if(cond, false);
                self.op_at(Op::Step, *span);
                self.stmts(body);
                self.op(Op::Jump { to: top });
                let end = self.here();
                self.patch_all(done, end);
            }
            Stmt::Return(Some(value)) => {
                let src = self.operand(value);
                self.op(Op::Ret { src });
            }
            Stmt::Return(None) => {
                self.op(Op::Halt);
            }
            Stmt::Fill {
                place,
                target,
                pieces,
                span,
            } => {
                let mark = self.tmp();
                self.op(Op::ItemsMark { dst: mark });
                self.push_pieces(pieces);
                let addr = self.place_reg(place);
                match *target {
                    FillTarget::List { cap } => {
                        let cap = u32::try_from(cap).expect("a list's capacity fits the state");
                        self.op_at(Op::ListFromItems { addr, mark, cap }, *span);
                    }
                    FillTarget::Set { lo, hi } => {
                        let set = self.set(lo, hi);
                        self.op_at(Op::SetFromItems { addr, mark, set }, *span);
                    }
                }
            }
            Stmt::CopyList { dst, src, size } => {
                let n = u32::try_from(*size).expect("a list fits the state");
                let dst = self.place_reg(dst);
                if src.is_const() {
                    let src = self.const_addr(src);
                    self.op(Op::CopyConst { dst, src, n });
                } else {
                    let src = self.place_reg(src);
                    self.op(Op::CopyCells { dst, src, n });
                }
            }
            Stmt::Pop {
                list,
                index,
                elem_size,
                span,
            } => {
                let addr = self.place_reg(list);
                let size = u32::try_from(*elem_size).expect("an element fits the state");
                match index {
                    None => self.op_at(Op::Pop { addr, size }, *span),
                    Some(i) => {
                        let index = self.operand(i);
                        self.op_at(Op::RemoveAt { addr, index, size }, *span)
                    }
                };
            }
            Stmt::ListRemove { list, value } => {
                let addr = self.place_reg(list);
                let x = self.operand(value);
                self.op(Op::ListRemove { addr, x });
            }
            Stmt::Insert {
                list,
                index,
                value,
                cap,
                span,
            } => {
                let addr = self.place_reg(list);
                let index = self.operand(index);
                let x = self.operand(value);
                let cap = u32::try_from(*cap).expect("a list's capacity fits the state");
                self.op_at(Op::Insert { addr, index, x, cap }, *span);
            }
            Stmt::Sort { list } => {
                let addr = self.place_reg(list);
                self.op(Op::Sort { addr });
            }
            Stmt::LocalColl {
                local, offset, init, ..
            } => {
                let base = self
                    .scratch
                    .expect("a rule with a local list or set has a scratch area");
                let offset = i32::try_from(*offset).expect("a rule's local lists and sets fit a state");
                self.op(Op::ArithI {
                    op: ArithOp::Add,
                    dst: reg(*local),
                    a: base,
                    imm: offset,
                });
                self.stmt(init);
            }
            Stmt::Call { func, args, span } => {
                let dst = self.tmp();
                let first = self.next;
                let regs: Vec<Reg> = args.iter().map(|_| self.tmp()).collect();
                for (a, &r) in args.iter().zip(&regs) {
                    self.expr_into(a, r);
                }
                self.op_at(
                    Op::Call {
                        dst,
                        func: u16::try_from(*func).expect("fewer than 65,536 functions"),
                        args: reg(first),
                        n: args.len() as u16,
                    },
                    *span,
                );
            }
        }
    }

    /// Pushes the values of a list or set being built to the item stack, in order.
    fn push_pieces(&mut self, pieces: &[Piece]) {
        for piece in pieces {
            let mark = self.mark();
            match piece {
                Piece::One(e) => {
                    let x = self.operand(e);
                    self.op(Op::ItemsPush { x });
                }
                Piece::All(coll) => {
                    let var = self.tmp();
                    self.each(coll, var, &mut |b, _| {
                        b.op(Op::ItemsPush { x: var });
                    });
                }
                // `times` copies, counted by a range of 1..=times (checked to be short enough).
                Piece::Repeat { value, times } => {
                    let x = self.operand(value);
                    let counter = self.tmp();
                    self.op(Op::Const { dst: counter, value: 1 });
                    let hi = self.tmp();
                    self.expr_into(times, hi);
                    let init = self.op(Op::RangeInit {
                        var: counter,
                        hi,
                        spend: true,
                        to: 0,
                    });
                    let top = self.op(Op::ItemsPush { x });
                    self.op(Op::RangeNext {
                        var: counter,
                        hi,
                        to: top,
                    });
                    let end = self.here();
                    self.patch(init, end);
                }
                Piece::Gen {
                    var,
                    coll,
                    body,
                    filter,
                } => {
                    self.each(coll, reg(*var), &mut |b, next| {
                        if let Some(f) = filter {
                            next.extend(b.jump_if(f, false));
                        }
                        let m = b.mark();
                        let x = b.operand(body);
                        b.op(Op::ItemsPush { x });
                        b.release(m);
                    });
                }
            }
            self.release(mark);
        }
    }

    /// Goes through the items of `coll`, copied to the item stack first, with
    /// `var` bound to each in turn.
    fn items_loop(&mut self, coll: &Coll, var: Reg, body: impl FnOnce(&mut Self)) {
        let mark = self.tmp();
        self.op(Op::ItemsMark { dst: mark });
        match coll {
            Coll::Range { lo, hi } => {
                // Not reached (ranges are gone through in place), but kept exact.
                let counter = self.tmp();
                self.expr_into(lo, counter);
                let h = self.operand(hi);
                let init = self.op(Op::RangeInit {
                    var: counter,
                    hi: h,
                    spend: true,
                    to: 0,
                });
                let top = self.here();
                self.op(Op::ItemsPush { x: counter });
                self.op(Op::RangeNext {
                    var: counter,
                    hi: h,
                    to: top,
                });
                let end = self.here();
                self.patch(init, end);
            }
            Coll::List { place } => {
                let addr = self.place_reg(place);
                self.op(Op::ItemsList { addr });
            }
            Coll::Indices { place } => {
                let addr = self.place_reg(place);
                self.op(Op::ItemsIndices { addr });
            }
            Coll::Set { place, lo, hi } => {
                let addr = self.place_reg(place);
                let set = self.set(*lo, *hi);
                self.op(Op::ItemsSet { addr, set });
            }
            Coll::Literal(items) => {
                for e in items {
                    let m = self.mark();
                    let x = self.operand(e);
                    self.op(Op::ItemsPush { x });
                    self.release(m);
                }
            }
        }
        let idx = self.tmp();
        self.op(Op::Copy { dst: idx, src: mark });
        let top = self.op(Op::ItemsNext { var, idx, to: 0 });
        body(self);
        self.op(Op::Jump { to: top });
        let end = self.here();
        self.patch(top, end);
        self.op(Op::ItemsDrop { mark });
    }

    /// Lowers a loop's body after its `top` instruction (which steps to the
    /// next element and jumps past the loop when there is none): the body's
    /// jumps to the next element and the jump back go to `top`.
    fn loop_body(&mut self, top: Label, body: &mut dyn FnMut(&mut Self, &mut Vec<Label>)) {
        let mut next = Vec::new();
        body(self, &mut next);
        self.op(Op::Jump { to: top });
        self.patch_all(next, top);
        let end = self.here();
        self.patch(top, end);
    }

    /// Goes through `coll` in place (for expressions and move generation,
    /// which cannot change the state), lowering `body` once with `var` bound;
    /// the body pushes the jumps that go on to the next element. Literal
    /// lists are unrolled, each element evaluated when its turn comes.
    fn each(&mut self, coll: &Coll, var: Reg, body: &mut dyn FnMut(&mut Self, &mut Vec<Label>)) {
        let mark = self.mark();
        match coll {
            Coll::Range { lo, hi } => {
                self.expr_into(lo, var);
                let hi = self.operand(hi);
                let init = self.op(Op::RangeInit {
                    var,
                    hi,
                    spend: true,
                    to: 0,
                });
                let top = self.here();
                let mut next = Vec::new();
                body(self, &mut next);
                let step = self.op(Op::RangeNext { var, hi, to: top });
                self.patch_all(next, step);
                let end = self.here();
                self.patch(init, end);
            }
            Coll::List { place } if place.is_const() => {
                let addr = self.const_addr(place);
                let idx = self.tmp();
                self.op(Op::Const { dst: idx, value: 0 });
                let top = self.op(Op::ConstListNext { var, idx, addr, to: 0 });
                self.loop_body(top, body);
            }
            Coll::List { place } => {
                let addr = self.place_reg(place);
                let idx = self.tmp();
                self.op(Op::Const { dst: idx, value: 0 });
                let top = self.op(Op::ListNext { var, idx, addr, to: 0 });
                self.loop_body(top, body);
            }
            Coll::Indices { place } => {
                // The length: a constant list's from its block, else from the state.
                let limit = if place.is_const() {
                    let addr = self.const_addr(place);
                    let limit = self.tmp();
                    self.op(Op::LoadConst { dst: limit, addr });
                    limit
                } else {
                    let addr = self.place_reg(place);
                    let limit = self.tmp();
                    self.op(Op::Load { dst: limit, addr });
                    limit
                };
                let idx = self.tmp();
                self.op(Op::Const { dst: idx, value: 0 });
                let top = self.op(Op::CountNext { var, idx, limit, to: 0 });
                self.loop_body(top, body);
            }
            Coll::Set { place, lo, hi } => {
                let addr = self.place_reg(place);
                let set = self.set(*lo, *hi);
                let state = self.tmp();
                let word = self.tmp();
                debug_assert_eq!(word, state + 1);
                self.op(Op::Const { dst: state, value: 0 });
                self.op(Op::Const { dst: word, value: -1 });
                let top = self.op(Op::SetNext {
                    var,
                    state,
                    addr,
                    set,
                    to: 0,
                });
                self.loop_body(top, body);
            }
            Coll::Literal(items) => {
                for e in items {
                    let m = self.mark();
                    self.expr_into(e, var);
                    let mut next = Vec::new();
                    body(self, &mut next);
                    let after = self.here();
                    self.patch_all(next, after);
                    self.release(m);
                }
            }
        }
        self.release(mark);
    }

    // ------------------------------------------------------------ places

    /// `e` as an immediate operand, where fused instructions are on.
    fn imm(&self, e: &Expr) -> Option<i32> {
        if self.fuse { const_i32(e) } else { None }
    }

    /// `list[local ± c]` of a list of scalars at a fixed cell, if `p` is one.
    fn fixed_elem(&self, p: &Place) -> Option<FixedElem> {
        if !self.fuse {
            return None;
        }
        let Place::Elem {
            list,
            index,
            elem_size: 1,
            span,
        } = p
        else {
            return None;
        };
        let Place::Static(base) = **list else {
            return None;
        };
        let (index, add, index_span) = match index {
            Expr::Local(l) => (reg(*l), 0, Span::default()),
            Expr::Arith(op @ (ArithOp::Add | ArithOp::Sub), a, b, s) => match (&**a, self.imm(b)) {
                (Expr::Local(l), Some(n)) if n != i32::MIN => (reg(*l), if *op == ArithOp::Add { n } else { -n }, *s),
                _ => return None,
            },
            _ => return None,
        };
        Some(FixedElem {
            list: cell(base),
            index,
            add,
            span: *span,
            index_span,
        })
    }

    /// Computes where `p` is.
    fn place(&mut self, p: &Place) -> At {
        match p {
            Place::Static(o) => At::Cell(cell(*o)),
            Place::Const(_) => unreachable!("a constant is read with const_addr"),
            Place::Local(l) => {
                // A copy: the local keeps the address for the rest of the rule.
                let r = self.tmp();
                self.op(Op::Copy { dst: r, src: reg(*l) });
                At::Reg(r)
            }
            Place::Elem {
                list,
                index,
                elem_size,
                span,
            } => {
                let base = self.place(list);
                let i = self.operand(index);
                let dst = self.tmp();
                let size = u32::try_from(*elem_size).expect("an element fits the state");
                match base {
                    At::Cell(list) => self.op_at(
                        Op::ElemAddrS {
                            dst,
                            list,
                            index: i,
                            size,
                        },
                        *span,
                    ),
                    At::Reg(list) => self.op_at(
                        Op::ElemAddr {
                            dst,
                            list,
                            index: i,
                            size,
                        },
                        *span,
                    ),
                };
                At::Reg(dst)
            }
        }
    }

    /// Computes where the constant `p` is in the constants, into a register.
    fn const_addr(&mut self, p: &Place) -> Reg {
        match p {
            Place::Const(o) => {
                let r = self.tmp();
                self.op(Op::Const {
                    dst: r,
                    value: *o as i64,
                });
                r
            }
            Place::Elem {
                list,
                index,
                elem_size,
                span,
            } => {
                let base = self.const_addr(list);
                let i = self.operand(index);
                let dst = self.tmp();
                let size = u32::try_from(*elem_size).expect("an element fits the constants");
                self.op_at(
                    Op::ConstElemAddr {
                        dst,
                        list: base,
                        index: i,
                        size,
                    },
                    *span,
                );
                dst
            }
            Place::Static(_) | Place::Local(_) => unreachable!("a place of the state is not a constant"),
        }
    }

    /// Computes where `p` is, into a register.
    fn place_reg(&mut self, p: &Place) -> Reg {
        match self.place(p) {
            At::Reg(r) => r,
            At::Cell(c) => {
                let r = self.tmp();
                self.op(Op::Const {
                    dst: r,
                    value: i64::from(c),
                });
                r
            }
        }
    }

    // ------------------------------------------------------------ expressions

    /// The register holding the value of `e`: a local's own, or a fresh one.
    fn operand(&mut self, e: &Expr) -> Reg {
        match e {
            Expr::Local(l) => reg(*l),
            _ => {
                let r = self.tmp();
                self.expr_into(e, r);
                r
            }
        }
    }

    /// Lowers `e` so that its value ends in `dst`. `dst` is written last (or,
    /// for conditionals, in each branch's last instruction), so it may be a
    /// local that `e` reads.
    fn expr_into(&mut self, e: &Expr, dst: Reg) {
        let mark = self.mark();
        match e {
            Expr::Const(value) => {
                self.op(Op::Const { dst, value: *value });
            }
            Expr::Local(l) => {
                if reg(*l) != dst {
                    self.op(Op::Copy { dst, src: reg(*l) });
                }
            }
            Expr::Cell(c) => {
                self.op(Op::LoadCell { dst, cell: cell(*c) });
            }
            Expr::Load(p) if p.is_const() => {
                let addr = self.const_addr(p);
                self.op(Op::LoadConst { dst, addr });
            }
            Expr::Load(p) => {
                if let Some(f) = self.fixed_elem(p) {
                    self.op_spans(
                        Op::LoadElemS {
                            dst,
                            list: f.list,
                            index: f.index,
                            add: f.add,
                        },
                        OpSpans {
                            at: f.span,
                            index: f.index_span,
                            store: Span::default(),
                        },
                    );
                } else {
                    match self.place(p) {
                        At::Cell(cell) => self.op(Op::LoadCell { dst, cell }),
                        At::Reg(addr) => self.op(Op::Load { dst, addr }),
                    };
                }
            }
            Expr::Neg(a) => {
                let src = self.operand(a);
                self.op(Op::Neg { dst, src });
            }
            Expr::Not(a) => {
                let src = self.operand(a);
                self.op(Op::Not { dst, src });
            }
            Expr::Arith(op, a, b, span) => {
                let commutes = matches!(op, ArithOp::Add | ArithOp::Mul);
                match (self.imm(a), self.imm(b)) {
                    (_, Some(imm)) => {
                        let a = self.operand(a);
                        self.op_at(Op::ArithI { op: *op, dst, a, imm }, *span);
                    }
                    (Some(imm), None) if commutes => {
                        let b = self.operand(b);
                        self.op_at(
                            Op::ArithI {
                                op: *op,
                                dst,
                                a: b,
                                imm,
                            },
                            *span,
                        );
                    }
                    _ => {
                        let a = self.operand(a);
                        let b = self.operand(b);
                        self.op_at(Op::Arith { op: *op, dst, a, b }, *span);
                    }
                }
            }
            Expr::Cmp(op, a, b) => match (self.imm(a), self.imm(b), &**a) {
                (_, Some(imm), Expr::Cell(c)) => {
                    self.op(Op::CellCmpI {
                        op: *op,
                        dst,
                        cell: cell(*c),
                        imm,
                    });
                }
                (_, Some(imm), _) => {
                    let a = self.operand(a);
                    self.op(Op::CmpI { op: *op, dst, a, imm });
                }
                (Some(imm), None, _) => {
                    let b = self.operand(b);
                    self.op(Op::CmpI {
                        op: flip(*op),
                        dst,
                        a: b,
                        imm,
                    });
                }
                _ => {
                    let a = self.operand(a);
                    let b = self.operand(b);
                    self.op(Op::Cmp { op: *op, dst, a, b });
                }
            },
            Expr::And(..) | Expr::Or(..) => {
                let fails = self.jump_if(e, false);
                self.op(Op::Const { dst, value: 1 });
                let over = self.op(Op::Jump { to: 0 });
                let f = self.here();
                self.patch_all(fails, f);
                self.op(Op::Const { dst, value: 0 });
                let end = self.here();
                self.patch(over, end);
            }
            Expr::If(c, a, b) => {
                let skip = self.jump_if(c, false);
                self.expr_into(a, dst);
                let over = self.op(Op::Jump { to: 0 });
                let other = self.here();
                self.patch_all(skip, other);
                self.expr_into(b, dst);
                let end = self.here();
                self.patch(over, end);
            }
            Expr::Pick(op, a, b) => {
                let a = self.operand(a);
                let b = self.operand(b);
                self.op(Op::Pick { op: *op, dst, a, b });
            }
            Expr::Len(c) => match &**c {
                Coll::Range { lo, hi } => {
                    let lo = self.operand(lo);
                    let hi = self.operand(hi);
                    self.op(Op::RangeLen { dst, lo, hi });
                }
                Coll::List { place } | Coll::Indices { place } if place.is_const() => {
                    let addr = self.const_addr(place);
                    self.op(Op::LoadConst { dst, addr });
                }
                Coll::List { place } | Coll::Indices { place } => match self.place(place) {
                    At::Cell(cell) => {
                        self.op(Op::LoadCell { dst, cell });
                    }
                    At::Reg(addr) => {
                        self.op(Op::Load { dst, addr });
                    }
                },
                Coll::Set { place, lo, hi } => {
                    let addr = self.place_reg(place);
                    let set = self.set(*lo, *hi);
                    self.op(Op::SetCount { dst, addr, set });
                }
                Coll::Literal(items) => {
                    self.op(Op::Const {
                        dst,
                        value: items.len() as i64,
                    });
                }
            },
            Expr::Agg {
                op,
                var,
                coll,
                body,
                filter,
                span,
            } => self.aggregate(*op, reg(*var), coll, body, filter.as_deref(), *span, dst),
            Expr::Contains(c, x) => self.contains(c, x, dst),
            Expr::CollCmp { op, a, b, sets } => {
                let ma = self.tmp();
                self.op(Op::ItemsMark { dst: ma });
                self.push_pieces(a);
                let mb = self.tmp();
                self.op(Op::ItemsMark { dst: mb });
                self.push_pieces(b);
                self.op(Op::ItemsCmp {
                    op: *op,
                    dst,
                    a: ma,
                    b: mb,
                    sets: *sets,
                });
            }
            Expr::Let { local, value, body } => {
                self.expr_into(value, reg(*local));
                self.expr_into(body, dst);
            }
            Expr::Call { func, args, span } => {
                let first = self.next;
                let regs: Vec<Reg> = args.iter().map(|_| self.tmp()).collect();
                for (a, &r) in args.iter().zip(&regs) {
                    self.expr_into(a, r);
                }
                self.op_at(
                    Op::Call {
                        dst,
                        func: u16::try_from(*func).expect("fewer than 65,536 functions"),
                        args: reg(first),
                        n: args.len() as u16,
                    },
                    *span,
                );
            }
        }
        self.release(mark);
    }

    #[allow(clippy::too_many_arguments)]
    fn aggregate(
        &mut self,
        op: AggOp,
        var: Reg,
        coll: &Coll,
        body: &Expr,
        filter: Option<&Expr>,
        span: Span,
        dst: Reg,
    ) {
        // The plain sum of a list: one instruction.
        if let (AggOp::Sum, Coll::List { place }, None, Expr::Local(l)) = (op, coll, filter, body)
            && self.fuse
            && reg(*l) == var
            && !place.is_const()
        {
            match self.place(place) {
                At::Cell(list) => self.op_at(Op::SumListS { dst, list }, span),
                At::Reg(addr) => self.op_at(Op::SumList { dst, addr }, span),
            };
            return;
        }
        let acc = self.tmp();
        let found = self.tmp();
        let initial = match op {
            AggOp::All => 1,
            _ => 0,
        };
        self.op(Op::Const {
            dst: acc,
            value: initial,
        });
        if matches!(op, AggOp::Min | AggOp::Max) {
            self.op(Op::Const { dst: found, value: 0 });
        }
        // `any` and `all` stop at the first element that decides them.
        let mut decided = Vec::new();
        self.each(coll, var, &mut |b, next| {
            if let Some(f) = filter {
                next.extend(b.jump_if(f, false));
            }
            let m = b.mark();
            let x = b.operand(body);
            match op {
                AggOp::Sum => {
                    b.op_at(Op::SumAdd { acc, x }, span);
                }
                AggOp::Count => {
                    b.op(Op::CountAdd { acc, x });
                }
                AggOp::Min => {
                    b.op(Op::PickAcc {
                        op: CmpOp::Lt,
                        acc,
                        found,
                        x,
                    });
                }
                AggOp::Max => {
                    b.op(Op::PickAcc {
                        op: CmpOp::Gt,
                        acc,
                        found,
                        x,
                    });
                }
                AggOp::Any => {
                    decided.push(b.op(Op::JumpIfNonZero { x, to: 0 }));
                }
                AggOp::All => {
                    decided.push(b.op(Op::JumpIfZero { x, to: 0 }));
                }
            }
            b.release(m);
        });
        match op {
            AggOp::Min | AggOp::Max => {
                self.op_at(
                    Op::NeedFound {
                        found,
                        max: op == AggOp::Max,
                    },
                    span,
                );
                self.op(Op::Copy { dst, src: acc });
            }
            AggOp::Any | AggOp::All => {
                // Went through everything: `any` is false, `all` true.
                self.op(Op::Copy { dst, src: acc });
                let over = self.op(Op::Jump { to: 0 });
                let d = self.here();
                self.patch_all(decided, d);
                self.op(Op::Const {
                    dst,
                    value: i64::from(op == AggOp::Any),
                });
                let end = self.here();
                self.patch(over, end);
            }
            _ => {
                self.op(Op::Copy { dst, src: acc });
            }
        }
    }

    fn contains(&mut self, c: &Coll, x: &Expr, dst: Reg) {
        // A constant inside a set's range is a fixed bit (inlining makes them).
        if let (Coll::Set { place, lo, hi }, Expr::Const(v)) = (c, x)
            && lo <= v
            && v <= hi
            && let Ok(bit) = u32::try_from(v - lo)
        {
            let addr = self.place_reg(place);
            self.op(Op::SetHasI { dst, addr, bit });
            return;
        }
        let x = self.operand(x);
        match c {
            // `lo <= x and x <= hi`: `hi` only if needed.
            Coll::Range { lo, hi } => {
                let no = self.jump_unless_bound(CmpOp::Ge, x, lo);
                match self.imm(hi) {
                    Some(imm) => self.op(Op::CmpI {
                        op: CmpOp::Le,
                        dst,
                        a: x,
                        imm,
                    }),
                    None => {
                        let hi = self.operand(hi);
                        self.op(Op::Cmp {
                            op: CmpOp::Le,
                            dst,
                            a: x,
                            b: hi,
                        })
                    }
                };
                let over = self.op(Op::Jump { to: 0 });
                let f = self.here();
                self.patch(no, f);
                self.op(Op::Const { dst, value: 0 });
                let end = self.here();
                self.patch(over, end);
            }
            // Outside the set's range, the set is not even looked at.
            Coll::Set { place, lo, hi } => {
                let mut no = Vec::new();
                for (op, bound) in [(CmpOp::Ge, *lo), (CmpOp::Le, *hi)] {
                    match i32::try_from(bound) {
                        Ok(imm) => no.push(self.op(Op::JumpUnlessI { op, a: x, imm, to: 0 })),
                        Err(_) => {
                            let b = self.tmp();
                            self.op(Op::Const { dst: b, value: bound });
                            no.push(self.op(Op::JumpUnless { op, a: x, b, to: 0 }));
                        }
                    }
                }
                let addr = self.place_reg(place);
                let set = self.set(*lo, *hi);
                self.op(Op::SetHas { dst, addr, x, set });
                let over = self.op(Op::Jump { to: 0 });
                let f = self.here();
                self.patch_all(no, f);
                self.op(Op::Const { dst, value: 0 });
                let end = self.here();
                self.patch(over, end);
            }
            Coll::List { place } if place.is_const() => {
                let addr = self.const_addr(place);
                self.op(Op::ConstListHas { dst, addr, x });
            }
            // `0 <= x < len`, the length read only when `x` is not negative.
            Coll::Indices { place } if place.is_const() => {
                let no = self.op(Op::JumpUnlessI {
                    op: CmpOp::Ge,
                    a: x,
                    imm: 0,
                    to: 0,
                });
                let addr = self.const_addr(place);
                let len = self.tmp();
                self.op(Op::LoadConst { dst: len, addr });
                self.op(Op::Cmp {
                    op: CmpOp::Lt,
                    dst,
                    a: x,
                    b: len,
                });
                let over = self.op(Op::Jump { to: 0 });
                let f = self.here();
                self.patch(no, f);
                self.op(Op::Const { dst, value: 0 });
                let end = self.here();
                self.patch(over, end);
            }
            Coll::List { place } => {
                let addr = self.place_reg(place);
                self.op(Op::ListHas { dst, addr, x });
            }
            Coll::Indices { place } => {
                let addr = self.place_reg(place);
                self.op(Op::IndexIn { dst, addr, x });
            }
            // Element by element, up to the first equal one.
            Coll::Literal(items) => {
                let mut yes = Vec::new();
                for e in items {
                    let m = self.mark();
                    let v = self.operand(e);
                    let no = self.op(Op::JumpUnless {
                        op: CmpOp::Eq,
                        a: v,
                        b: x,
                        to: 0,
                    });
                    yes.push(self.op(Op::Jump { to: 0 }));
                    let after = self.here();
                    self.patch(no, after);
                    self.release(m);
                }
                self.op(Op::Const { dst, value: 0 });
                let over = self.op(Op::Jump { to: 0 });
                let t = self.here();
                self.patch_all(yes, t);
                self.op(Op::Const { dst, value: 1 });
                let end = self.here();
                self.patch(over, end);
            }
        }
    }

    /// Lowers the condition `e` as jumps taken when its truth is `want`;
    /// returns the jumps, to be pointed at their target. Otherwise control
    /// falls through.
    fn jump_if(&mut self, e: &Expr, want: bool) -> Vec<Label> {
        let mark = self.mark();
        let sites = match e {
            Expr::Const(n) => {
                if (*n != 0) == want {
                    vec![self.op(Op::Jump { to: 0 })]
                } else {
                    Vec::new()
                }
            }
            Expr::Not(a) => self.jump_if(a, !want),
            Expr::And(a, b) if !want => {
                let mut sites = self.jump_if(a, false);
                sites.extend(self.jump_if(b, false));
                sites
            }
            Expr::And(a, b) => {
                let fails = self.jump_if(a, false);
                let sites = self.jump_if(b, true);
                let here = self.here();
                self.patch_all(fails, here);
                sites
            }
            Expr::Or(a, b) if want => {
                let mut sites = self.jump_if(a, true);
                sites.extend(self.jump_if(b, true));
                sites
            }
            Expr::Or(a, b) => {
                let holds = self.jump_if(a, true);
                let sites = self.jump_if(b, false);
                let here = self.here();
                self.patch_all(holds, here);
                sites
            }
            // An inlined call's arguments, then its body as a condition.
            Expr::Let { local, value, body } => {
                self.expr_into(value, reg(*local));
                self.jump_if(body, want)
            }
            // `x in lo..=hi` as two jumps, not a truth value to test: in the
            // order and on the condition `contains` evaluates it (`x`, `lo`,
            // and `hi` only where `lo <= x`).
            Expr::Contains(c, x) if matches!(&**c, Coll::Range { .. }) => {
                let Coll::Range { lo, hi } = &**c else { unreachable!() };
                let x = self.operand(x);
                let below = self.jump_unless_bound(CmpOp::Ge, x, lo);
                if want {
                    let inside = self.jump_unless_bound(CmpOp::Gt, x, hi);
                    let here = self.here();
                    self.patch(below, here);
                    vec![inside]
                } else {
                    vec![below, self.jump_unless_bound(CmpOp::Le, x, hi)]
                }
            }
            Expr::Cmp(op, a, b) => {
                // Jump unless `a op' b`, where op' holds exactly when the jump should not be taken.
                let op = if want { negate(*op) } else { *op };
                vec![self.compare_jump(op, a, b)]
            }
            _ => {
                let x = self.operand(e);
                vec![if want {
                    self.op(Op::JumpIfNonZero { x, to: 0 })
                } else {
                    self.op(Op::JumpIfZero { x, to: 0 })
                }]
            }
        };
        self.release(mark);
        sites
    }

    /// A jump taken unless `x op bound`.
    fn jump_unless_bound(&mut self, op: CmpOp, x: Reg, bound: &Expr) -> Label {
        match self.imm(bound) {
            Some(imm) => self.op(Op::JumpUnlessI { op, a: x, imm, to: 0 }),
            None => {
                let b = self.operand(bound);
                self.op(Op::JumpUnless { op, a: x, b, to: 0 })
            }
        }
    }

    /// A jump taken unless `a op b`.
    fn compare_jump(&mut self, op: CmpOp, a: &Expr, b: &Expr) -> Label {
        match (self.imm(a), self.imm(b)) {
            (_, Some(imm)) => match (a, rem_by_const(a)) {
                (Expr::Cell(c), _) => self.op(Op::JumpUnlessCellI {
                    op,
                    cell: cell(*c),
                    imm,
                    to: 0,
                }),
                (_, Some((Expr::Cell(c), m))) => self.op(Op::JumpUnlessCellRemI {
                    op,
                    cell: cell(*c),
                    m,
                    imm,
                    to: 0,
                }),
                (_, Some((x, m))) => {
                    let a = self.operand(x);
                    self.op(Op::JumpUnlessRemI { op, a, m, imm, to: 0 })
                }
                _ => {
                    let a = self.operand(a);
                    self.op(Op::JumpUnlessI { op, a, imm, to: 0 })
                }
            },
            (Some(_), None) => self.compare_jump(flip(op), b, a),
            _ => {
                let a = self.operand(a);
                let b = self.operand(b);
                self.op(Op::JumpUnless { op, a, b, to: 0 })
            }
        }
    }
}
