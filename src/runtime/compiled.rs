//! The IR compiled once more, to closures: what the searches run at every node.
//!
//! Walking the IR tree cost most of an interpreted node (profiles of
//! alpha-beta on Nimcala: entering and leaving the recursive `eval` alone was
//! a third of it). Here each expression becomes a closure built for its
//! shape: the leaves of an operation (a constant, a local, a cell) are read in
//! place without a call, and a list element at a fixed cell is one closure.
//! What is rare on the hot path (function calls, aggregates over arbitrary
//! collections, pushes) falls back to the tree walker in `exec`, which stays
//! the reference; both raise the same errors at the same places.

use std::fmt;

use super::exec::{self, Exec, Items, arith, check_range, range_len};
use crate::game::GameError;
use crate::ir::{AggOp, ArithOp, CmpOp, Coll, EndCond, Expr, Place, Program, Stmt};
use crate::syntax::ast::Span;

/// An expression: its value in a state, with these locals.
pub(crate) type Eval = Box<dyn Fn(&Exec, &[i64], &mut [i64]) -> Result<i64, GameError> + Send + Sync>;

/// A statement: runs on a state, with these locals.
type Run = Box<dyn Fn(&Exec, &mut [i64], &mut [i64]) -> Result<(), GameError> + Send + Sync>;

/// A program's rules as closures, in the program's order.
pub(crate) struct Code {
    pub moves: Vec<MoveCode>,
    /// One per `end when` clause; `None` for `no moves`.
    pub ends: Vec<Option<Eval>>,
}

impl fmt::Debug for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Code { .. }")
    }
}

/// One kind of move.
pub(crate) struct MoveCode {
    /// One per argument: a range is walked from closures; other
    /// collections go through `Exec::items` on the IR.
    pub domains: Vec<Option<(Operand, Operand)>>,
    pub requires: Vec<Eval>,
    body: Vec<Run>,
}

impl MoveCode {
    /// Runs the move's body.
    pub fn run(&self, x: &Exec, cells: &mut [i64], locals: &mut [i64]) -> Result<(), GameError> {
        run_all(&self.body, x, cells, locals)
    }
}

impl Code {
    pub fn new(prog: &Program) -> Code {
        Code {
            moves: prog
                .moves
                .iter()
                .map(|m| MoveCode {
                    domains: m
                        .args
                        .iter()
                        .map(|a| match &a.domain {
                            Coll::Range { lo, hi } => Some((Operand::new(lo), Operand::new(hi))),
                            _ => None,
                        })
                        .collect(),
                    requires: m.requires.iter().map(expr).collect(),
                    body: stmts(&m.body),
                })
                .collect(),
            ends: prog
                .ends
                .iter()
                .map(|e| match &e.cond {
                    EndCond::NoMoves => None,
                    EndCond::Expr(e) => Some(expr(e)),
                })
                .collect(),
        }
    }
}

#[inline(always)]
fn run_all(body: &[Run], x: &Exec, cells: &mut [i64], locals: &mut [i64]) -> Result<(), GameError> {
    for s in body {
        s(x, cells, locals)?;
    }
    Ok(())
}

/// The operand of an operation: leaves, a local plus or minus a constant
/// (`pit - 1`, the commonest index), the sum of two locals, an element of a
/// list at a fixed cell indexed by such a local (`board[pit - 1]`), the
/// length and the plain sum of such a list, are computed without a call.
pub(crate) enum Operand {
    Const(i64),
    Local(usize),
    Cell(usize),
    LocalAdd(usize, i64, Span),
    LocalSub(usize, i64, Span),
    /// `a + b` of two locals.
    LocalsAdd(usize, usize, Span),
    /// `list[local + add]`: `index_span` is the span of an index that
    /// adds or subtracts (for its overflow), `span` the element's.
    Elem {
        base: usize,
        local: usize,
        add: Add,
        elem_size: usize,
        span: Span,
    },
    /// `len(list)` of a list at a fixed cell.
    Len(usize),
    /// `sum(list)` of a list of scalars at a fixed cell.
    Sum(usize, Span),
    Other(Eval),
}

/// What an index adds to its local: nothing, or a constant (checked).
#[derive(Clone, Copy)]
pub(crate) enum Add {
    Zero,
    Plus(i64, Span),
    Minus(i64, Span),
}

impl Add {
    #[inline(always)]
    fn to(self, v: i64) -> Result<i64, GameError> {
        match self {
            Add::Zero => Ok(v),
            Add::Plus(n, span) => v.checked_add(n).ok_or_else(|| exec::overflow(span)),
            Add::Minus(n, span) => v.checked_sub(n).ok_or_else(|| exec::overflow(span)),
        }
    }
}

impl Operand {
    pub(crate) fn new(e: &Expr) -> Operand {
        match e {
            Expr::Const(n) => Operand::Const(*n),
            Expr::Local(l) => Operand::Local(*l),
            Expr::Cell(c) => Operand::Cell(*c),
            Expr::Arith(ArithOp::Add, a, b, span) => match (&**a, &**b) {
                (Expr::Local(l), Expr::Const(n)) => Operand::LocalAdd(*l, *n, *span),
                (Expr::Local(l), Expr::Local(m)) => Operand::LocalsAdd(*l, *m, *span),
                _ => Operand::Other(expr(e)),
            },
            Expr::Arith(ArithOp::Sub, a, b, span) => match (&**a, &**b) {
                (Expr::Local(l), Expr::Const(n)) => Operand::LocalSub(*l, *n, *span),
                _ => Operand::Other(expr(e)),
            },
            Expr::Load(p) => match &**p {
                Place::Static(o) => Operand::Cell(*o),
                Place::Elem {
                    list,
                    index,
                    elem_size,
                    span,
                } => match (&**list, index_of(index)) {
                    (Place::Static(base), Some((local, add))) => Operand::Elem {
                        base: *base,
                        local,
                        add,
                        elem_size: *elem_size,
                        span: *span,
                    },
                    _ => Operand::Other(expr(e)),
                },
            },
            Expr::Len(c) => match &**c {
                Coll::List {
                    place: Place::Static(o),
                }
                | Coll::Indices {
                    place: Place::Static(o),
                } => Operand::Len(*o),
                _ => Operand::Other(expr(e)),
            },
            Expr::Agg {
                op: AggOp::Sum,
                var,
                coll,
                body,
                filter: None,
                span,
            } => match (&**coll, &**body) {
                (
                    Coll::List {
                        place: Place::Static(o),
                    },
                    Expr::Local(l),
                ) if l == var => Operand::Sum(*o, *span),
                _ => Operand::Other(expr(e)),
            },
            e => Operand::Other(expr(e)),
        }
    }

    #[inline(always)]
    pub(crate) fn get(&self, x: &Exec, cells: &[i64], locals: &mut [i64]) -> Result<i64, GameError> {
        match self {
            Operand::Const(n) => Ok(*n),
            Operand::Local(l) => Ok(locals[*l]),
            Operand::Cell(c) => Ok(cells[*c]),
            Operand::LocalAdd(l, n, span) => locals[*l].checked_add(*n).ok_or_else(|| exec::overflow(*span)),
            Operand::LocalSub(l, n, span) => locals[*l].checked_sub(*n).ok_or_else(|| exec::overflow(*span)),
            Operand::LocalsAdd(l, m, span) => locals[*l].checked_add(locals[*m]).ok_or_else(|| exec::overflow(*span)),
            Operand::Elem {
                base,
                local,
                add,
                elem_size,
                span,
            } => {
                let len = cells[*base];
                let i = add.to(locals[*local])?;
                if i < 0 || i >= len {
                    return Err(exec::out_of_range(i, len, *span));
                }
                Ok(cells[base + 1 + i as usize * elem_size])
            }
            Operand::Len(o) => Ok(cells[*o]),
            Operand::Sum(o, span) => sum(cells, *o, *span),
            Operand::Other(f) => f(x, cells, locals),
        }
    }
}

/// An index that is a local, plus or minus a constant: the local and what is added.
fn index_of(e: &Expr) -> Option<(usize, Add)> {
    match e {
        Expr::Local(l) => Some((*l, Add::Zero)),
        Expr::Arith(ArithOp::Add, a, b, span) => match (&**a, &**b) {
            (Expr::Local(l), Expr::Const(n)) => Some((*l, Add::Plus(*n, *span))),
            _ => None,
        },
        Expr::Arith(ArithOp::Sub, a, b, span) => match (&**a, &**b) {
            (Expr::Local(l), Expr::Const(n)) => Some((*l, Add::Minus(*n, *span))),
            _ => None,
        },
        _ => None,
    }
}

/// The plain sum of the list whose length cell is `o`.
#[inline(always)]
fn sum(cells: &[i64], o: usize, span: Span) -> Result<i64, GameError> {
    let len = cells[o] as usize;
    let mut total = 0i64;
    for &v in &cells[o + 1..o + 1 + len] {
        total = match total.checked_add(v) {
            Some(t) => t,
            None => return Err(exec::sum_overflow(span)),
        };
    }
    Ok(total)
}

/// Where a value lives, as `Place`, with its index compiled.
enum Loc {
    Static(usize),
    /// An element of a list at a fixed cell (`board[pit - 1]`).
    StaticElem {
        base: usize,
        index: Operand,
        elem_size: usize,
        span: Span,
    },
    Elem {
        list: Box<Loc>,
        index: Operand,
        elem_size: usize,
        span: Span,
    },
}

impl Loc {
    fn new(p: &Place) -> Loc {
        match p {
            Place::Static(o) => Loc::Static(*o),
            Place::Elem {
                list,
                index,
                elem_size,
                span,
            } if matches!(**list, Place::Static(_)) => {
                let Place::Static(base) = **list else { unreachable!() };
                Loc::StaticElem {
                    base,
                    index: Operand::new(index),
                    elem_size: *elem_size,
                    span: *span,
                }
            }
            Place::Elem {
                list,
                index,
                elem_size,
                span,
            } => Loc::Elem {
                list: Box::new(Loc::new(list)),
                index: Operand::new(index),
                elem_size: *elem_size,
                span: *span,
            },
        }
    }

    /// The cell where the place starts, as `Exec::offset` finds it.
    #[inline(always)]
    fn offset(&self, x: &Exec, cells: &[i64], locals: &mut [i64]) -> Result<usize, GameError> {
        match self {
            Loc::Static(o) => Ok(*o),
            Loc::StaticElem {
                base,
                index,
                elem_size,
                span,
            } => element(*base, index, *elem_size, *span, x, cells, locals),
            loc => loc.nested_offset(x, cells, locals),
        }
    }

    /// A place inside a place inside a place: recursion, out of line.
    #[inline(never)]
    fn nested_offset(&self, x: &Exec, cells: &[i64], locals: &mut [i64]) -> Result<usize, GameError> {
        match self {
            Loc::Static(o) => Ok(*o),
            Loc::StaticElem {
                base,
                index,
                elem_size,
                span,
            } => element(*base, index, *elem_size, *span, x, cells, locals),
            Loc::Elem {
                list,
                index,
                elem_size,
                span,
            } => {
                let base = list.nested_offset(x, cells, locals)?;
                element(base, index, *elem_size, *span, x, cells, locals)
            }
        }
    }
}

/// The cell of element `index` of the list whose length cell is `base`.
#[inline(always)]
fn element(
    base: usize,
    index: &Operand,
    elem_size: usize,
    span: Span,
    x: &Exec,
    cells: &[i64],
    locals: &mut [i64],
) -> Result<usize, GameError> {
    let len = cells[base];
    let i = index.get(x, cells, locals)?;
    if i < 0 || i >= len {
        return Err(exec::out_of_range(i, len, span));
    }
    Ok(base + 1 + i as usize * elem_size)
}

/// Compiles an expression.
pub(crate) fn expr(e: &Expr) -> Eval {
    match e {
        Expr::Const(n) => {
            let n = *n;
            Box::new(move |_, _, _| Ok(n))
        }
        Expr::Local(l) => {
            let l = *l;
            Box::new(move |_, _, locals| Ok(locals[l]))
        }
        Expr::Cell(c) => {
            let c = *c;
            Box::new(move |_, cells, _| Ok(cells[c]))
        }
        Expr::Load(p) => match Loc::new(p) {
            Loc::Static(o) => Box::new(move |_, cells, _| Ok(cells[o])),
            loc => Box::new(move |x, cells, locals| Ok(cells[loc.offset(x, cells, locals)?])),
        },
        Expr::Not(a) => {
            let a = Operand::new(a);
            Box::new(move |x, cells, locals| Ok(i64::from(a.get(x, cells, locals)? == 0)))
        }
        Expr::Arith(op, a, b, span) => {
            let span = *span;
            // The operations the games use most, without a dispatch on the operator.
            match *op {
                ArithOp::Add => binary(AddOp(span), a, b),
                ArithOp::Sub => binary(SubOp(span), a, b),
                op => binary(ArithOpK(op, span), a, b),
            }
        }
        Expr::Cmp(op, a, b) => match op {
            CmpOp::Eq => binary(CmpK::<{ EQ }>, a, b),
            CmpOp::Ne => binary(CmpK::<{ NE }>, a, b),
            CmpOp::Lt => binary(CmpK::<{ LT }>, a, b),
            CmpOp::Le => binary(CmpK::<{ LE }>, a, b),
            CmpOp::Gt => binary(CmpK::<{ GT }>, a, b),
            CmpOp::Ge => binary(CmpK::<{ GE }>, a, b),
        },
        Expr::And(a, b) => binary(AndOp, a, b),
        Expr::Or(a, b) => binary(OrOp, a, b),
        Expr::Pick(op, a, b) => binary(PickOp(*op), a, b),
        Expr::If(c, a, b) => {
            let (c, a, b) = (Operand::new(c), Operand::new(a), Operand::new(b));
            Box::new(move |x, cells, locals| {
                if c.get(x, cells, locals)? != 0 {
                    a.get(x, cells, locals)
                } else {
                    b.get(x, cells, locals)
                }
            })
        }
        Expr::Len(c) => match &**c {
            Coll::List { place } | Coll::Indices { place } => {
                let loc = Loc::new(place);
                Box::new(move |x, cells, locals| Ok(cells[loc.offset(x, cells, locals)?]))
            }
            _ => fallback(e),
        },
        // `sum(board)`: the plain sum of a list of scalars.
        Expr::Agg {
            op: AggOp::Sum,
            var,
            coll,
            body,
            filter: None,
            span,
        } if matches!((&**coll, &**body), (Coll::List { .. }, Expr::Local(l)) if l == var) => {
            let Coll::List { place } = &**coll else { unreachable!() };
            let (loc, span) = (Loc::new(place), *span);
            Box::new(move |x, cells, locals| {
                let o = loc.offset(x, cells, locals)?;
                sum(cells, o, span)
            })
        }
        _ => fallback(e),
    }
}

/// A value read by a closure: each kind its own type, so that a closure
/// built for its operands' kinds reads them without a dispatch.
trait Get: Send + Sync + 'static {
    fn get(&self, x: &Exec, cells: &[i64], locals: &mut [i64]) -> Result<i64, GameError>;
}

struct ConstK(i64);
struct LocalK(usize);
struct CellK(usize);
struct CallK(Eval);

impl Get for ConstK {
    #[inline(always)]
    fn get(&self, _: &Exec, _: &[i64], _: &mut [i64]) -> Result<i64, GameError> {
        Ok(self.0)
    }
}

impl Get for LocalK {
    #[inline(always)]
    fn get(&self, _: &Exec, _: &[i64], locals: &mut [i64]) -> Result<i64, GameError> {
        Ok(locals[self.0])
    }
}

impl Get for CellK {
    #[inline(always)]
    fn get(&self, _: &Exec, cells: &[i64], _: &mut [i64]) -> Result<i64, GameError> {
        Ok(cells[self.0])
    }
}

impl Get for CallK {
    #[inline(always)]
    fn get(&self, x: &Exec, cells: &[i64], locals: &mut [i64]) -> Result<i64, GameError> {
        (self.0)(x, cells, locals)
    }
}

impl Get for Operand {
    #[inline(always)]
    fn get(&self, x: &Exec, cells: &[i64], locals: &mut [i64]) -> Result<i64, GameError> {
        Operand::get(self, x, cells, locals)
    }
}

/// An operation on two operands, evaluated left to right (`and` and `or`
/// stop early, as the tree walker does).
trait BinOp: Copy + Send + Sync + 'static {
    fn run<A: Get, B: Get>(self, a: &A, b: &B, x: &Exec, cells: &[i64], locals: &mut [i64]) -> Result<i64, GameError>;
}

#[derive(Clone, Copy)]
struct AddOp(Span);
#[derive(Clone, Copy)]
struct SubOp(Span);
#[derive(Clone, Copy)]
struct ArithOpK(ArithOp, Span);
#[derive(Clone, Copy)]
struct CmpK<const OP: u8>;
#[derive(Clone, Copy)]
struct AndOp;
#[derive(Clone, Copy)]
struct OrOp;
/// `a` if `a OP b`, else `b`: `min` and `max`.
#[derive(Clone, Copy)]
struct PickOp(CmpOp);

const EQ: u8 = 0;
const NE: u8 = 1;
const LT: u8 = 2;
const LE: u8 = 3;
const GT: u8 = 4;
const GE: u8 = 5;

impl BinOp for AddOp {
    #[inline(always)]
    fn run<A: Get, B: Get>(self, a: &A, b: &B, x: &Exec, cells: &[i64], locals: &mut [i64]) -> Result<i64, GameError> {
        let (p, q) = (a.get(x, cells, locals)?, b.get(x, cells, locals)?);
        p.checked_add(q).ok_or_else(|| exec::overflow(self.0))
    }
}

impl BinOp for SubOp {
    #[inline(always)]
    fn run<A: Get, B: Get>(self, a: &A, b: &B, x: &Exec, cells: &[i64], locals: &mut [i64]) -> Result<i64, GameError> {
        let (p, q) = (a.get(x, cells, locals)?, b.get(x, cells, locals)?);
        p.checked_sub(q).ok_or_else(|| exec::overflow(self.0))
    }
}

impl BinOp for ArithOpK {
    #[inline(always)]
    fn run<A: Get, B: Get>(self, a: &A, b: &B, x: &Exec, cells: &[i64], locals: &mut [i64]) -> Result<i64, GameError> {
        let (p, q) = (a.get(x, cells, locals)?, b.get(x, cells, locals)?);
        arith(self.0, p, q, self.1)
    }
}

impl<const OP: u8> BinOp for CmpK<OP> {
    #[inline(always)]
    fn run<A: Get, B: Get>(self, a: &A, b: &B, x: &Exec, cells: &[i64], locals: &mut [i64]) -> Result<i64, GameError> {
        let (p, q) = (a.get(x, cells, locals)?, b.get(x, cells, locals)?);
        Ok(i64::from(match OP {
            EQ => p == q,
            NE => p != q,
            LT => p < q,
            LE => p <= q,
            GT => p > q,
            _ => p >= q,
        }))
    }
}

impl BinOp for AndOp {
    #[inline(always)]
    fn run<A: Get, B: Get>(self, a: &A, b: &B, x: &Exec, cells: &[i64], locals: &mut [i64]) -> Result<i64, GameError> {
        Ok(i64::from(
            a.get(x, cells, locals)? != 0 && b.get(x, cells, locals)? != 0,
        ))
    }
}

impl BinOp for OrOp {
    #[inline(always)]
    fn run<A: Get, B: Get>(self, a: &A, b: &B, x: &Exec, cells: &[i64], locals: &mut [i64]) -> Result<i64, GameError> {
        Ok(i64::from(
            a.get(x, cells, locals)? != 0 || b.get(x, cells, locals)? != 0,
        ))
    }
}

impl BinOp for PickOp {
    #[inline(always)]
    fn run<A: Get, B: Get>(self, a: &A, b: &B, x: &Exec, cells: &[i64], locals: &mut [i64]) -> Result<i64, GameError> {
        let (u, v) = (a.get(x, cells, locals)?, b.get(x, cells, locals)?);
        Ok(if exec::compare(self.0, u, v) { u } else { v })
    }
}

/// `op(a, b)` as a closure built for the kinds of `a` and `b`: constants,
/// locals, cells and nested expressions are read without a dispatch; the
/// other operands (`pit - 1`, `board[row]`, ...) through `Operand`.
fn binary<O: BinOp>(op: O, a: &Expr, b: &Expr) -> Eval {
    fn with_b<O: BinOp, A: Get>(op: O, a: A, b: &Expr) -> Eval {
        match kind(b) {
            Kind::Const(n) => pair(op, a, ConstK(n)),
            Kind::Local(l) => pair(op, a, LocalK(l)),
            Kind::Cell(c) => pair(op, a, CellK(c)),
            Kind::Call(f) => pair(op, a, CallK(f)),
            Kind::Operand(o) => pair(op, a, o),
        }
    }
    fn pair<O: BinOp, A: Get, B: Get>(op: O, a: A, b: B) -> Eval {
        Box::new(move |x, cells, locals| op.run(&a, &b, x, cells, locals))
    }
    match kind(a) {
        Kind::Const(n) => with_b(op, ConstK(n), b),
        Kind::Local(l) => with_b(op, LocalK(l), b),
        Kind::Cell(c) => with_b(op, CellK(c), b),
        Kind::Call(f) => with_b(op, CallK(f), b),
        Kind::Operand(o) => with_b(op, o, b),
    }
}

/// An operand sorted by how a closure reads it.
enum Kind {
    Const(i64),
    Local(usize),
    Cell(usize),
    /// A nested expression: its own closure.
    Call(Eval),
    /// The other shapes `Operand` reads in place.
    Operand(Operand),
}

fn kind(e: &Expr) -> Kind {
    match Operand::new(e) {
        Operand::Const(n) => Kind::Const(n),
        Operand::Local(l) => Kind::Local(l),
        Operand::Cell(c) => Kind::Cell(c),
        Operand::Other(f) => Kind::Call(f),
        o => Kind::Operand(o),
    }
}

/// An expression left to the tree walker.
fn fallback(e: &Expr) -> Eval {
    let e = e.clone();
    Box::new(move |x, cells, locals| x.eval(&e, cells, locals))
}

fn stmts(body: &[Stmt]) -> Vec<Run> {
    body.iter().map(stmt).collect()
}

fn stmt(s: &Stmt) -> Run {
    match s {
        Stmt::Store { place, op, value, span } => {
            let (loc, value, span) = (Loc::new(place), Operand::new(value), *span);
            match *op {
                None => Box::new(move |x, cells, locals| {
                    let o = loc.offset(x, cells, locals)?;
                    cells[o] = value.get(x, cells, locals)?;
                    Ok(())
                }),
                Some(op) => Box::new(move |x, cells, locals| {
                    let o = loc.offset(x, cells, locals)?;
                    let v = value.get(x, cells, locals)?;
                    cells[o] = arith(op, cells[o], v, span)?;
                    Ok(())
                }),
            }
        }
        Stmt::SetLocal { local, op, value, span } => {
            let (local, op, value, span) = (*local, *op, Operand::new(value), *span);
            Box::new(move |x, cells, locals| {
                let v = value.get(x, cells, locals)?;
                locals[local] = match op {
                    None => v,
                    Some(op) => arith(op, locals[local], v, span)?,
                };
                Ok(())
            })
        }
        Stmt::If { cond, then, otherwise } => {
            let (cond, then, otherwise) = (Operand::new(cond), stmts(then), stmts(otherwise));
            Box::new(move |x, cells, locals| {
                if cond.get(x, cells, locals)? != 0 {
                    run_all(&then, x, cells, locals)
                } else {
                    run_all(&otherwise, x, cells, locals)
                }
            })
        }
        Stmt::For { var, coll, body } => {
            let (var, body) = (*var, stmts(body));
            match coll {
                // A range's ends are fixed before the first step: no copy needed.
                Coll::Range { lo, hi } => {
                    let (lo, hi) = (Operand::new(lo), Operand::new(hi));
                    Box::new(move |x, cells, locals| {
                        let lo = lo.get(x, cells, locals)?;
                        let hi = hi.get(x, cells, locals)?;
                        check_range(lo, hi)?;
                        x.spend(range_len(lo, hi), Span::default())?;
                        for v in lo..=hi {
                            locals[var] = v;
                            run_all(&body, x, cells, locals)?;
                        }
                        Ok(())
                    })
                }
                // Other collections are copied first: the body may change them.
                coll => {
                    let coll = coll.clone();
                    Box::new(move |x, cells, locals| {
                        let mut items = Items::new();
                        x.items(&coll, cells, locals, &mut items)?;
                        for &v in items.iter() {
                            locals[var] = v;
                            run_all(&body, x, cells, locals)?;
                        }
                        Ok(())
                    })
                }
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
            let add = matches!(s, Stmt::SetAdd { .. });
            let (loc, lo, hi, value, span) = (Loc::new(set), *lo, *hi, Operand::new(value), *span);
            Box::new(move |x, cells, locals| {
                let o = loc.offset(x, cells, locals)?;
                let v = value.get(x, cells, locals)?;
                if v < lo || v > hi {
                    return Err(exec::outside_set(v, lo, hi, span));
                }
                let bit = (v - lo) as usize;
                let mask = 1i64 << (bit % 64);
                if add {
                    cells[o + bit / 64] |= mask;
                } else {
                    cells[o + bit / 64] &= !mask;
                }
                Ok(())
            })
        }
        Stmt::Push { .. } | Stmt::Clear { .. } => {
            let s = s.clone();
            Box::new(move |x, cells, locals| x.exec(&s, cells, locals))
        }
    }
}
