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
use crate::ir::{AggOp, ArithOp, Coll, EndCond, Expr, Place, Program, Stmt};
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
    pub domains: Vec<Option<(Eval, Eval)>>,
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
                            Coll::Range { lo, hi } => Some((expr(lo), expr(hi))),
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

/// The operand of an operation: leaves, and a local plus or minus a
/// constant (`pit - 1`, the commonest index), are computed without a call.
enum Operand {
    Const(i64),
    Local(usize),
    Cell(usize),
    LocalAdd(usize, i64, Span),
    LocalSub(usize, i64, Span),
    Other(Eval),
}

impl Operand {
    fn new(e: &Expr) -> Operand {
        match e {
            Expr::Const(n) => Operand::Const(*n),
            Expr::Local(l) => Operand::Local(*l),
            Expr::Cell(c) => Operand::Cell(*c),
            Expr::Arith(ArithOp::Add, a, b, span) => match (&**a, &**b) {
                (Expr::Local(l), Expr::Const(n)) => Operand::LocalAdd(*l, *n, *span),
                _ => Operand::Other(expr(e)),
            },
            Expr::Arith(ArithOp::Sub, a, b, span) => match (&**a, &**b) {
                (Expr::Local(l), Expr::Const(n)) => Operand::LocalSub(*l, *n, *span),
                _ => Operand::Other(expr(e)),
            },
            e => Operand::Other(expr(e)),
        }
    }

    #[inline(always)]
    fn get(&self, x: &Exec, cells: &[i64], locals: &mut [i64]) -> Result<i64, GameError> {
        match self {
            Operand::Const(n) => Ok(*n),
            Operand::Local(l) => Ok(locals[*l]),
            Operand::Cell(c) => Ok(cells[*c]),
            Operand::LocalAdd(l, n, span) => locals[*l].checked_add(*n).ok_or_else(|| exec::overflow(*span)),
            Operand::LocalSub(l, n, span) => locals[*l].checked_sub(*n).ok_or_else(|| exec::overflow(*span)),
            Operand::Other(f) => f(x, cells, locals),
        }
    }
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
            let (op, span) = (*op, *span);
            let (a, b) = (Operand::new(a), Operand::new(b));
            // The operations the games use most, without a dispatch on the operator.
            match op {
                ArithOp::Add => Box::new(move |x, cells, locals| {
                    let (p, q) = (a.get(x, cells, locals)?, b.get(x, cells, locals)?);
                    p.checked_add(q).ok_or_else(|| exec::overflow(span))
                }),
                ArithOp::Sub => Box::new(move |x, cells, locals| {
                    let (p, q) = (a.get(x, cells, locals)?, b.get(x, cells, locals)?);
                    p.checked_sub(q).ok_or_else(|| exec::overflow(span))
                }),
                _ => Box::new(move |x, cells, locals| {
                    let (p, q) = (a.get(x, cells, locals)?, b.get(x, cells, locals)?);
                    arith(op, p, q, span)
                }),
            }
        }
        Expr::Cmp(op, a, b) => {
            let op = *op;
            let (a, b) = (Operand::new(a), Operand::new(b));
            Box::new(move |x, cells, locals| {
                let (p, q) = (a.get(x, cells, locals)?, b.get(x, cells, locals)?);
                Ok(i64::from(exec::compare(op, p, q)))
            })
        }
        Expr::And(a, b) => {
            let (a, b) = (Operand::new(a), Operand::new(b));
            Box::new(move |x, cells, locals| {
                Ok(i64::from(
                    a.get(x, cells, locals)? != 0 && b.get(x, cells, locals)? != 0,
                ))
            })
        }
        Expr::Or(a, b) => {
            let (a, b) = (Operand::new(a), Operand::new(b));
            Box::new(move |x, cells, locals| {
                Ok(i64::from(
                    a.get(x, cells, locals)? != 0 || b.get(x, cells, locals)? != 0,
                ))
            })
        }
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
                let len = cells[o] as usize;
                cells[o + 1..o + 1 + len]
                    .iter()
                    .try_fold(0i64, |a, &v| a.checked_add(v))
                    .ok_or_else(|| exec::sum_overflow(span))
            })
        }
        _ => fallback(e),
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
