//! Evaluation of IR expressions and statements on a state's cells.

use smallvec::SmallVec;

use crate::game::GameError;
use crate::ir::{AggOp, ArithOp, CmpOp, Coll, Expr, Place, Program, Stmt};
use crate::syntax::ast::Span;

/// Collections are copied here before a loop runs, so a loop body may change
/// the collection it goes through; up to 32 elements stay on the stack.
pub(crate) type Items = SmallVec<[i64; 32]>;

/// Locals of one function call or move: up to 16 on the stack, zeroed.
/// (A `SmallVec` showed in profiles: `resize` and moving it out of its
/// constructor cost more than the rules it served.)
pub(crate) struct Frame {
    inline: [i64; FRAME_INLINE],
    heap: Vec<i64>,
    len: usize,
}

const FRAME_INLINE: usize = 16;

impl std::ops::Deref for Frame {
    type Target = [i64];

    #[inline(always)]
    fn deref(&self) -> &[i64] {
        if self.len <= FRAME_INLINE {
            &self.inline[..self.len]
        } else {
            &self.heap
        }
    }
}

impl std::ops::DerefMut for Frame {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [i64] {
        if self.len <= FRAME_INLINE {
            &mut self.inline[..self.len]
        } else {
            &mut self.heap
        }
    }
}

/// A zeroed frame of `n` locals.
#[inline(always)]
pub(crate) fn frame(n: usize) -> Frame {
    Frame {
        inline: [0; FRAME_INLINE],
        heap: if n <= FRAME_INLINE { Vec::new() } else { vec![0; n] },
        len: n,
    }
}

/// Deepest chain of function calls before a run is declared endless.
const MAX_CALL_DEPTH: usize = 256;

pub(crate) fn compare(op: CmpOp, x: i64, y: i64) -> bool {
    match op {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::Lt => x < y,
        CmpOp::Le => x <= y,
        CmpOp::Gt => x > y,
        CmpOp::Ge => x >= y,
    }
}

/// The most loop steps and function calls one call into the rules may take
/// (one move's body, one position's legal moves, ...): nested loops over long
/// ranges, or a function that calls itself twice, would otherwise run for hours.
const MAX_STEPS: u64 = 1 << 24;

/// A range may be gone through only if it has at most 2^20 numbers.
#[inline]
pub(crate) fn check_range(lo: i64, hi: i64) -> Result<(), GameError> {
    if i128::from(hi) - i128::from(lo) >= 1 << 20 {
        return Err(GameError::new(
            "gdl::runtime::range",
            format!("the range {lo}..{hi} is too long to go through (at most 2^20 numbers)"),
        ));
    }
    Ok(())
}

/// How many numbers `lo..=hi` holds (0 if `hi < lo`), without overflowing.
pub(super) fn range_len(lo: i64, hi: i64) -> u64 {
    u64::try_from((i128::from(hi) - i128::from(lo) + 1).max(0)).unwrap_or(u64::MAX)
}

#[cold]
pub(super) fn out_of_range(i: i64, len: i64, span: Span) -> GameError {
    fault(
        "gdl::runtime::index",
        format!(
            "index {i} is out of range: the list has {len} element{}",
            if len == 1 { "" } else { "s" }
        ),
        span,
    )
    .with_help("lists are indexed from 0 to their length - 1")
}

fn fault(code: &'static str, message: String, span: Span) -> GameError {
    GameError::new(code, message).at(span.into())
}

/// Runs the rules of one program.
pub(crate) struct Exec<'p> {
    pub prog: &'p Program,
    depth: std::cell::Cell<usize>,
    /// Loop steps and calls left for this call into the rules (see `MAX_STEPS`).
    steps: std::cell::Cell<u64>,
}

impl<'p> Exec<'p> {
    pub fn new(prog: &'p Program) -> Self {
        Exec {
            prog,
            depth: std::cell::Cell::new(0),
            steps: std::cell::Cell::new(MAX_STEPS),
        }
    }

    /// Takes `n` steps from the budget of this call into the rules.
    #[inline]
    pub(super) fn spend(&self, n: u64, span: Span) -> Result<(), GameError> {
        match self.steps.get().checked_sub(n) {
            Some(left) => {
                self.steps.set(left);
                Ok(())
            }
            None => {
                let e = GameError::new(
                    "gdl::runtime::steps",
                    format!("the rules took more than {MAX_STEPS} loop steps and calls for one step of the game"),
                )
                .with_help(
                    "loops nested over long ranges, or a function that calls itself more than once, take too long",
                );
                Err(if span == Span::default() { e } else { e.at(span.into()) })
            }
        }
    }

    /// The value of `e`. Leaves are read here, inlined into the caller: the
    /// entry and exit of the recursive `eval_node` (saving registers) showed
    /// in profiles as a third of its cost, and most expressions are leaves.
    #[inline(always)]
    pub fn eval(&self, e: &Expr, cells: &[i64], locals: &mut [i64]) -> Result<i64, GameError> {
        match e {
            Expr::Const(n) => Ok(*n),
            Expr::Local(l) => Ok(locals[*l]),
            Expr::Cell(c) => Ok(cells[*c]),
            _ => self.eval_node(e, cells, locals),
        }
    }

    /// The common inner expressions; the rest in `eval_rare`, so that this
    /// function stays small.
    fn eval_node(&self, e: &Expr, cells: &[i64], locals: &mut [i64]) -> Result<i64, GameError> {
        Ok(match e {
            Expr::Const(n) => *n,
            Expr::Local(l) => locals[*l],
            Expr::Cell(c) => cells[*c],
            Expr::Load(p) => cells[self.offset(p, cells, locals)?],
            Expr::Arith(op, a, b, span) => {
                let x = self.eval(a, cells, locals)?;
                let y = self.eval(b, cells, locals)?;
                arith(*op, x, y, *span)?
            }
            Expr::Cmp(op, a, b) => {
                let x = self.eval(a, cells, locals)?;
                let y = self.eval(b, cells, locals)?;
                i64::from(compare(*op, x, y))
            }
            Expr::And(a, b) => i64::from(self.eval(a, cells, locals)? != 0 && self.eval(b, cells, locals)? != 0),
            Expr::Or(a, b) => i64::from(self.eval(a, cells, locals)? != 0 || self.eval(b, cells, locals)? != 0),
            Expr::Not(a) => i64::from(self.eval(a, cells, locals)? == 0),
            Expr::If(c, a, b) => {
                if self.eval(c, cells, locals)? != 0 {
                    self.eval(a, cells, locals)?
                } else {
                    self.eval(b, cells, locals)?
                }
            }
            Expr::Pick(op, a, b) => {
                let x = self.eval(a, cells, locals)?;
                let y = self.eval(b, cells, locals)?;
                if compare(*op, x, y) { x } else { y }
            }
            _ => self.eval_rare(e, cells, locals)?,
        })
    }

    #[inline(never)]
    fn eval_rare(&self, e: &Expr, cells: &[i64], locals: &mut [i64]) -> Result<i64, GameError> {
        Ok(match e {
            Expr::Const(_)
            | Expr::Local(_)
            | Expr::Cell(_)
            | Expr::Load(_)
            | Expr::Arith(..)
            | Expr::Cmp(..)
            | Expr::And(..)
            | Expr::Or(..)
            | Expr::Not(_)
            | Expr::If(..)
            | Expr::Pick(..) => self.eval(e, cells, locals)?,
            Expr::Neg(a) => {
                let x = self.eval(a, cells, locals)?;
                x.checked_neg()
                    .ok_or_else(|| GameError::new("gdl::runtime::overflow", "arithmetic overflow"))?
            }
            Expr::Len(c) => self.len(c, cells, locals)?,
            Expr::Agg {
                op,
                var,
                coll,
                body,
                filter,
                span,
            } => {
                // The plain sum of a list of the state, as in `sum(board)`: no loop machinery.
                if let (AggOp::Sum, Coll::List { place }, None, Expr::Local(l)) = (op, &**coll, filter, &**body)
                    && l == var
                {
                    let o = self.offset(place, cells, locals)?;
                    let len = cells[o] as usize;
                    return cells[o + 1..o + 1 + len]
                        .iter()
                        .try_fold(0i64, |a, &x| a.checked_add(x))
                        .ok_or_else(|| sum_overflow(*span));
                }
                let mut acc: Option<i64> = None;
                let mut decided = None;
                self.each(coll, cells, locals, |v, locals| {
                    locals[*var] = v;
                    if let Some(f) = filter
                        && self.eval(f, cells, locals)? == 0
                    {
                        return Ok(false);
                    }
                    let x = self.eval(body, cells, locals)?;
                    acc = Some(match (op, acc) {
                        (AggOp::Any, _) if x != 0 => {
                            decided = Some(1);
                            return Ok(true);
                        }
                        (AggOp::All, _) if x == 0 => {
                            decided = Some(0);
                            return Ok(true);
                        }
                        (AggOp::Any, _) => 0,
                        (AggOp::All, _) => 1,
                        (AggOp::Sum, a) => a.unwrap_or(0).checked_add(x).ok_or_else(|| sum_overflow(*span))?,
                        (AggOp::Count, a) => a.unwrap_or(0) + i64::from(x != 0),
                        (AggOp::Min, a) => a.map_or(x, |a| a.min(x)),
                        (AggOp::Max, a) => a.map_or(x, |a| a.max(x)),
                    });
                    Ok(false)
                })?;
                if let Some(v) = decided {
                    return Ok(v);
                }
                match (op, acc) {
                    (AggOp::All, None) => 1,
                    (AggOp::Any | AggOp::Sum | AggOp::Count, None) => 0,
                    (AggOp::Min | AggOp::Max, None) => {
                        let name = if *op == AggOp::Min { "min" } else { "max" };
                        return Err(fault(
                            "gdl::runtime::empty",
                            format!("`{name}` of an empty collection"),
                            *span,
                        ));
                    }
                    (_, Some(v)) => v,
                }
            }
            Expr::Contains(c, x) => {
                let x = self.eval(x, cells, locals)?;
                i64::from(self.contains(c, x, cells, locals)?)
            }
            Expr::Call { func, args, span } => {
                let f = &self.prog.fns[*func];
                let mut frame = frame(f.locals.max(args.len()));
                for (slot, a) in frame.iter_mut().zip(args) {
                    *slot = self.eval(a, cells, locals)?;
                }
                let depth = self.depth.get();
                if depth >= MAX_CALL_DEPTH {
                    return Err(fault(
                        "gdl::runtime::recursion",
                        format!(
                            "`{}` called itself {MAX_CALL_DEPTH} times deep: it does not stop",
                            f.name
                        ),
                        *span,
                    )
                    .with_help("a function that calls itself needs a case that does not"));
                }
                self.spend(1, *span)?;
                self.depth.set(depth + 1);
                let v = self.eval(&f.body, cells, &mut frame);
                self.depth.set(depth);
                v?
            }
        })
    }

    /// The cell where a place starts, checking every index against its list's length.
    #[inline]
    pub fn offset(&self, p: &Place, cells: &[i64], locals: &mut [i64]) -> Result<usize, GameError> {
        match p {
            Place::Static(o) => Ok(*o),
            Place::Elem {
                list,
                index,
                elem_size,
                span,
            } => {
                // Most lists are state variables at a fixed cell: no recursion for those.
                let base = match &**list {
                    Place::Static(o) => *o,
                    list => self.offset(list, cells, locals)?,
                };
                let len = cells[base];
                let i = self.eval(index, cells, locals)?;
                if i < 0 || i >= len {
                    return Err(out_of_range(i, len, *span));
                }
                Ok(base + 1 + i as usize * elem_size)
            }
        }
    }

    fn len(&self, c: &Coll, cells: &[i64], locals: &mut [i64]) -> Result<i64, GameError> {
        Ok(match c {
            Coll::Range { lo, hi } => {
                let lo = self.eval(lo, cells, locals)?;
                let hi = self.eval(hi, cells, locals)?;
                i64::try_from((i128::from(hi) - i128::from(lo) + 1).max(0)).map_err(|_| {
                    GameError::new(
                        "gdl::runtime::overflow",
                        format!("the range {lo}..{hi} has more than 2^63 numbers"),
                    )
                })?
            }
            Coll::List { place } | Coll::Indices { place } => cells[self.offset(place, cells, locals)?],
            Coll::Set { place, lo, hi } => {
                let o = self.offset(place, cells, locals)?;
                let words = crate::ir::set_words(*lo, *hi);
                cells[o..o + words]
                    .iter()
                    .map(|w| i64::from(w.count_ones() as u8))
                    .sum()
            }
            Coll::Literal(items) => items.len() as i64,
        })
    }

    fn contains(&self, c: &Coll, x: i64, cells: &[i64], locals: &mut [i64]) -> Result<bool, GameError> {
        Ok(match c {
            Coll::Range { lo, hi } => self.eval(lo, cells, locals)? <= x && x <= self.eval(hi, cells, locals)?,
            Coll::Set { place, lo, hi } => {
                if x < *lo || x > *hi {
                    return Ok(false);
                }
                let o = self.offset(place, cells, locals)?;
                let bit = (x - lo) as usize;
                cells[o + bit / 64] >> (bit % 64) & 1 == 1
            }
            Coll::List { place } => {
                let o = self.offset(place, cells, locals)?;
                let len = cells[o] as usize;
                cells[o + 1..o + 1 + len].contains(&x)
            }
            Coll::Indices { place } => {
                let o = self.offset(place, cells, locals)?;
                0 <= x && x < cells[o]
            }
            Coll::Literal(items) => {
                for e in items {
                    if self.eval(e, cells, locals)? == x {
                        return Ok(true);
                    }
                }
                false
            }
        })
    }

    /// Calls `f` with each element of `c`, in order, without copying the
    /// collection (the state cannot change while an expression is evaluated);
    /// stops when `f` returns true.
    fn each<F>(&self, c: &Coll, cells: &[i64], locals: &mut [i64], mut f: F) -> Result<(), GameError>
    where
        F: FnMut(i64, &mut [i64]) -> Result<bool, GameError>,
    {
        match c {
            Coll::Range { lo, hi } => {
                let lo = self.eval(lo, cells, locals)?;
                let hi = self.eval(hi, cells, locals)?;
                check_range(lo, hi)?;
                self.spend(range_len(lo, hi), Span::default())?;
                for v in lo..=hi {
                    if f(v, locals)? {
                        break;
                    }
                }
            }
            Coll::List { place } => {
                let o = self.offset(place, cells, locals)?;
                for &v in &cells[o + 1..o + 1 + cells[o] as usize] {
                    if f(v, locals)? {
                        break;
                    }
                }
            }
            Coll::Indices { place } => {
                let o = self.offset(place, cells, locals)?;
                for v in 0..cells[o] {
                    if f(v, locals)? {
                        break;
                    }
                }
            }
            Coll::Set { place, lo, hi } => {
                let o = self.offset(place, cells, locals)?;
                let words = crate::ir::set_words(*lo, *hi);
                for (w, &word) in cells[o..o + words].iter().enumerate() {
                    let mut bits = word as u64;
                    while bits != 0 {
                        let b = bits.trailing_zeros() as i64;
                        if f(lo + w as i64 * 64 + b, locals)? {
                            return Ok(());
                        }
                        bits &= bits - 1;
                    }
                }
            }
            Coll::Literal(items) => {
                for e in items {
                    let v = self.eval(e, cells, locals)?;
                    if f(v, locals)? {
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    /// Copies the elements of `c`, in order, into `out`.
    pub fn items(&self, c: &Coll, cells: &[i64], locals: &mut [i64], out: &mut Items) -> Result<(), GameError> {
        out.clear();
        match c {
            Coll::Range { lo, hi } => {
                let lo = self.eval(lo, cells, locals)?;
                let hi = self.eval(hi, cells, locals)?;
                check_range(lo, hi)?;
                self.spend(range_len(lo, hi), Span::default())?;
                out.extend(lo..=hi);
            }
            Coll::List { place } => {
                let o = self.offset(place, cells, locals)?;
                let len = cells[o] as usize;
                out.extend_from_slice(&cells[o + 1..o + 1 + len]);
            }
            Coll::Indices { place } => {
                let o = self.offset(place, cells, locals)?;
                out.extend(0..cells[o]);
            }
            Coll::Set { place, lo, hi } => {
                let o = self.offset(place, cells, locals)?;
                let words = crate::ir::set_words(*lo, *hi);
                for (w, &word) in cells[o..o + words].iter().enumerate() {
                    let mut bits = word as u64;
                    while bits != 0 {
                        let b = bits.trailing_zeros() as i64;
                        out.push(lo + w as i64 * 64 + b);
                        bits &= bits - 1;
                    }
                }
            }
            Coll::Literal(items) => {
                for e in items {
                    let v = self.eval(e, cells, locals)?;
                    out.push(v);
                }
            }
        }
        Ok(())
    }

    pub fn exec_all(&self, body: &[Stmt], cells: &mut [i64], locals: &mut [i64]) -> Result<(), GameError> {
        for s in body {
            self.exec(s, cells, locals)?;
        }
        Ok(())
    }

    pub(super) fn exec(&self, s: &Stmt, cells: &mut [i64], locals: &mut [i64]) -> Result<(), GameError> {
        match s {
            Stmt::Store { place, op, value, span } => {
                let o = self.offset(place, cells, locals)?;
                let v = self.eval(value, cells, locals)?;
                cells[o] = match op {
                    None => v,
                    Some(op) => arith(*op, cells[o], v, *span)?,
                };
            }
            Stmt::SetLocal { local, op, value, span } => {
                let v = self.eval(value, cells, locals)?;
                locals[*local] = match op {
                    None => v,
                    Some(op) => arith(*op, locals[*local], v, *span)?,
                };
            }
            Stmt::If { cond, then, otherwise } => {
                if self.eval(cond, cells, locals)? != 0 {
                    self.exec_all(then, cells, locals)?;
                } else {
                    self.exec_all(otherwise, cells, locals)?;
                }
            }
            Stmt::For { var, coll, body } => {
                // A range's ends are fixed before the first step: no copy needed.
                if let Coll::Range { lo, hi } = coll {
                    let lo = self.eval(lo, cells, locals)?;
                    let hi = self.eval(hi, cells, locals)?;
                    check_range(lo, hi)?;
                    self.spend(range_len(lo, hi), Span::default())?;
                    for v in lo..=hi {
                        locals[*var] = v;
                        self.exec_all(body, cells, locals)?;
                    }
                    return Ok(());
                }
                let mut items = Items::new();
                self.items(coll, cells, locals, &mut items)?;
                for &v in items.iter() {
                    locals[*var] = v;
                    self.exec_all(body, cells, locals)?;
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
                let o = self.offset(set, cells, locals)?;
                let x = self.eval(value, cells, locals)?;
                if x < *lo || x > *hi {
                    return Err(outside_set(x, *lo, *hi, *span));
                }
                let bit = (x - lo) as usize;
                let mask = 1i64 << (bit % 64);
                if matches!(s, Stmt::SetAdd { .. }) {
                    cells[o + bit / 64] |= mask;
                } else {
                    cells[o + bit / 64] &= !mask;
                }
            }
            Stmt::Push { list, cap, value, span } => {
                let o = self.offset(list, cells, locals)?;
                let v = self.eval(value, cells, locals)?;
                let len = cells[o] as usize;
                if len >= *cap {
                    return Err(fault(
                        "gdl::runtime::full",
                        format!("the list is full: it holds at most {cap} elements"),
                        *span,
                    )
                    .with_help("give the list a larger capacity in its type: `list<int, N>`"));
                }
                cells[o + 1 + len] = v;
                cells[o] = len as i64 + 1;
            }
            Stmt::Clear { place, words, is_set } => {
                let o = self.offset(place, cells, locals)?;
                if *is_set {
                    cells[o..o + words].fill(0);
                } else {
                    // Elements past the length are zeroed too, so equal lists are equal states.
                    cells[o..o + words].fill(0);
                }
            }
        }
        Ok(())
    }
}

#[inline]
pub(super) fn arith(op: ArithOp, x: i64, y: i64, span: Span) -> Result<i64, GameError> {
    let v = match op {
        ArithOp::Add => x.checked_add(y),
        ArithOp::Sub => x.checked_sub(y),
        ArithOp::Mul => x.checked_mul(y),
        ArithOp::Div | ArithOp::Rem if y == 0 => return Err(division_by_zero(span)),
        ArithOp::Div => x.checked_div_euclid(y),
        ArithOp::Rem => x.checked_rem_euclid(y),
    };
    v.ok_or_else(|| overflow(span))
}

#[cold]
fn division_by_zero(span: Span) -> GameError {
    fault("gdl::runtime::division_by_zero", "division by zero".into(), span)
}

#[cold]
pub(super) fn overflow(span: Span) -> GameError {
    fault("gdl::runtime::overflow", "arithmetic overflow".into(), span)
}

#[cold]
pub(super) fn sum_overflow(span: Span) -> GameError {
    fault("gdl::runtime::overflow", "arithmetic overflow in a sum".into(), span)
}

#[cold]
pub(super) fn outside_set(x: i64, lo: i64, hi: i64, span: Span) -> GameError {
    fault(
        "gdl::runtime::set_range",
        format!("{x} is outside this set's range {lo}..{hi}"),
        span,
    )
}
