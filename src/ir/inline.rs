//! Inlining, before the tree IR is lowered: a call of a small function
//! written as one expression that calls no function itself (tic-tac-toe's
//! `line`, connect four's `has`) becomes the function's body, its
//! parameters replaced by the arguments. Board games call such functions
//! several times a node, and a call is a frame to zero, arguments to copy
//! and a nested run of the executor, where the body is a few instructions.
//!
//! Nothing observable changes, error for error: arguments are still
//! evaluated once, in order, before the body (an argument that is not a
//! constant or a local is bound to a fresh local first), and the body keeps
//! its spans. Only the call's step of the budget and its level of the call
//! depth are no longer spent, so a rule that ran out of steps through calls
//! runs out a little later.
//!
//! After the substitution a few shapes with constant operands fold
//! (`1 >= 1`, `true and x`), so `line(p, 1, 2, 3)` tests three fixed cells.

use std::collections::HashMap;

use super::{ArithOp, Coll, Expr, Piece, Place, Program, Stmt, compare};

/// A body larger than this (in expression nodes) stays a call: inlining it at
/// every call site would grow the code more than the call costs.
const MAX_BODY: usize = 200;

/// Inlining never gives a rule more locals than this (registers are `u16`,
/// and a frame is zeroed on entry).
const MAX_LOCALS: usize = 1024;

/// `prog` with its calls of small leaf functions replaced by their bodies.
pub(crate) fn inline_calls(prog: &Program) -> Program {
    let mut prog = prog.clone();
    for f in &mut prog.fns {
        f.locals = f.locals.max(f.params);
    }
    let firsts: Vec<usize> = prog.fns.iter().map(|f| f.locals).collect();
    // Functions first, until no call is left to inline among them: a function
    // whose calls were all inlined becomes a leaf that its callers inline in
    // the next round. Each round inlines at least one call, and an inlined
    // body has no calls, so the rounds end.
    loop {
        let leaves = leaves(&prog);
        let mut changed = false;
        for (f, &first) in prog.fns.iter_mut().zip(&firsts).filter(|(f, _)| f.block.is_none()) {
            let mut rule = Rule::new(first, f.locals, &leaves);
            rule.expr(&mut f.body);
            changed |= rule.changed;
            f.locals = rule.most;
        }
        if !changed {
            break;
        }
    }
    let leaves = leaves(&prog);
    for f in &mut prog.fns {
        if let Some(block) = &mut f.block {
            let mut rule = Rule::new(f.locals, f.locals, &leaves);
            for s in block {
                each_stmt_expr(s, &mut |e| rule.expr(e));
            }
            f.locals = rule.most;
        }
    }
    for m in &mut prog.moves {
        let mut rule = Rule::new(m.locals, m.locals, &leaves);
        for a in &mut m.args {
            each_coll_expr(&mut a.domain, &mut |e| rule.expr(e));
        }
        m.requires.iter_mut().for_each(|e| rule.expr(e));
        if let Some((w, _)) = &mut m.weight {
            rule.expr(w);
        }
        for s in m.body.iter_mut().chain(&mut m.then) {
            each_stmt_expr(s, &mut |e| rule.expr(e));
        }
        m.locals = rule.most;
    }
    for end in &mut prog.ends {
        let mut rule = Rule::new(end.locals, end.locals, &leaves);
        if let super::EndCond::When(c) = &mut end.cond {
            c.exprs_mut(&mut |e| rule.expr(e));
        }
        if let super::Outcome::Winner { player, payoff } | super::Outcome::Loser { player, payoff } = &mut end.outcome {
            rule.expr(player);
            if let Some(p) = payoff {
                rule.expr(p);
            }
        }
        end.locals = rule.most;
    }
    prog
}

/// Whether any rule of `prog` reads the cell `cell` by itself (as `previous`
/// reads [`super::PREVIOUS_CELL`]); variables' cells are read through places.
pub(crate) fn reads_cell(prog: &Program, cell: usize) -> bool {
    let mut prog = prog.clone();
    let mut found = false;
    let mut look = |e: &mut Expr| walk(e, &mut |e| found |= matches!(e, Expr::Cell(c) if *c == cell));
    for f in &mut prog.fns {
        match &mut f.block {
            Some(block) => block.iter_mut().for_each(|s| each_stmt_expr(s, &mut look)),
            None => look(&mut f.body),
        }
    }
    for m in &mut prog.moves {
        for a in &mut m.args {
            each_coll_expr(&mut a.domain, &mut look);
        }
        m.requires.iter_mut().for_each(&mut look);
        if let Some((w, _)) = &mut m.weight {
            look(w);
        }
        for s in m.body.iter_mut().chain(&mut m.then) {
            each_stmt_expr(s, &mut look);
        }
    }
    for end in &mut prog.ends {
        if let super::EndCond::When(c) = &mut end.cond {
            c.exprs_mut(&mut look);
        }
        if let super::Outcome::Winner { player, payoff } | super::Outcome::Loser { player, payoff } = &mut end.outcome {
            look(player);
            if let Some(p) = payoff {
                look(p);
            }
        }
    }
    found
}

/// Inlining in the expressions of one rule (a function, a move, an end clause).
struct Rule<'a> {
    /// The rule's locals before inlining: the slots from here on are the
    /// inlined calls', shared among them.
    first: usize,
    /// A fresh local, never used in the rule before.
    next: usize,
    /// The locals the rule needs.
    most: usize,
    leaves: &'a [Option<Leaf>],
    changed: bool,
}

impl<'a> Rule<'a> {
    fn new(first: usize, locals: usize, leaves: &'a [Option<Leaf>]) -> Self {
        Rule {
            first,
            next: locals,
            most: locals,
            leaves,
            changed: false,
        }
    }

    fn expr(&mut self, e: &mut Expr) {
        if inline_in(e, &mut self.next, self.leaves) {
            self.changed = true;
            self.most = self.most.max(pack_locals(e, self.first));
            self.next = self.next.max(self.most);
        }
    }
}

/// A function that can be inlined: its body, and how many of its locals
/// are parameters.
struct Leaf {
    body: Expr,
    params: usize,
    /// Its locals past the parameters (the variables of its aggregates).
    extra: usize,
}

fn leaves(prog: &Program) -> Vec<Option<Leaf>> {
    prog.fns
        .iter()
        .map(|f| {
            let mut body = f.body.clone();
            let (mut size, mut calls, mut odd_var) = (0, false, false);
            walk(&mut body, &mut |e| {
                size += 1;
                match e {
                    Expr::Call { .. } => calls = true,
                    Expr::Agg { var, .. } => odd_var |= *var < f.params,
                    Expr::CollCmp { a, b, .. } => {
                        odd_var |= a
                            .iter()
                            .chain(b.iter())
                            .any(|p| matches!(p, Piece::Gen { var, .. } if *var < f.params));
                    }
                    _ => {}
                }
            });
            (f.block.is_none() && !calls && !odd_var && size <= MAX_BODY).then(|| Leaf {
                body,
                params: f.params,
                extra: f.locals.saturating_sub(f.params),
            })
        })
        .collect()
}

/// Inlines the leaf calls in `e`, giving the rule that holds it the locals
/// they need; whether any was inlined.
fn inline_in(e: &mut Expr, locals: &mut usize, leaves: &[Option<Leaf>]) -> bool {
    let mut changed = false;
    walk(e, &mut |e| {
        let Expr::Call { func, args, .. } = e else { return };
        let Some(leaf) = &leaves[*func] else { return };
        let binds = args.iter().filter(|a| !trivial(a)).count();
        if *locals + binds + leaf.extra > MAX_LOCALS {
            return;
        }
        let args = std::mem::take(args);
        *e = instantiate(leaf, args, locals);
        changed = true;
    });
    if changed {
        walk(e, &mut fold);
    }
    changed
}

/// Gives the locals that inlining made (`first` and up, each bound by one
/// `Let`, aggregate or generator) the lowest slots from `first` that are
/// free where they are bound, so that the calls of a rule share their slots
/// instead of each widening its frame; returns the locals `e` then needs.
fn pack_locals(e: &mut Expr, first: usize) -> usize {
    let mut packer = Packer {
        first,
        slots: HashMap::new(),
        most: first,
    };
    packer.expr(e, first);
    packer.most
}

struct Packer {
    first: usize,
    slots: HashMap<usize, usize>,
    most: usize,
}

impl Packer {
    /// Binds the fresh local `l` to the slot `top`, free from here on.
    fn bind(&mut self, l: &mut usize, top: usize) {
        self.slots.insert(*l, top);
        *l = top;
        self.most = self.most.max(top + 1);
    }

    /// An aggregate or generator whose variable inlining made: the variable
    /// takes `top`, free again after it.
    fn generator(&mut self, var: &mut usize, coll: &mut Coll, body: &mut Expr, filter: Option<&mut Expr>, top: usize) {
        self.bind(var, top);
        each_coll_expr(coll, &mut |e| self.expr(e, top + 1));
        self.expr(body, top + 1);
        if let Some(x) = filter {
            self.expr(x, top + 1);
        }
    }

    /// `e`, where the slots from `top` on are free.
    fn expr(&mut self, e: &mut Expr, top: usize) {
        match e {
            // Every local from `first` on is bound above its uses.
            Expr::Local(l) if *l >= self.first => *l = self.slots.get(l).copied().unwrap_or(*l),
            Expr::Let { local, value, body } => {
                self.expr(value, top);
                self.bind(local, top);
                self.expr(body, top + 1);
            }
            Expr::Agg {
                var,
                coll,
                body,
                filter,
                ..
            } if *var >= self.first => self.generator(var, coll, body, filter.as_deref_mut(), top),
            Expr::CollCmp { a, b, .. } => {
                for p in a.iter_mut().chain(b.iter_mut()) {
                    match p {
                        Piece::Gen {
                            var,
                            coll,
                            body,
                            filter,
                        } if *var >= self.first => self.generator(var, coll, body, filter.as_mut(), top),
                        p => each_piece_expr(p, &mut |e| self.expr(e, top)),
                    }
                }
            }
            e => each_child(e, &mut |c| self.expr(c, top)),
        }
    }
}

/// An argument that can stand for its parameter wherever the body reads it:
/// reading it again costs nothing and cannot fail.
fn trivial(e: &Expr) -> bool {
    matches!(e, Expr::Const(_) | Expr::Local(_))
}

/// The leaf's body with its parameters replaced by `args` and its other
/// locals moved past the caller's, wrapped in the bindings of the arguments
/// that are not trivial, in order.
fn instantiate(leaf: &Leaf, args: Vec<Expr>, locals: &mut usize) -> Expr {
    let mut params = Vec::with_capacity(args.len());
    let mut binds = Vec::new();
    for a in args {
        if trivial(&a) {
            params.push(a);
        } else {
            let l = *locals;
            *locals += 1;
            params.push(Expr::Local(l));
            binds.push((l, a));
        }
    }
    let base = *locals;
    *locals += leaf.extra;
    let moved = |l: usize| base + (l - leaf.params);
    let mut body = leaf.body.clone();
    walk(&mut body, &mut |e| match e {
        Expr::Local(l) if *l < leaf.params => *e = params[*l].clone(),
        Expr::Local(l) => *l = moved(*l),
        // A leaf that inlined calls itself binds their arguments with `Let`:
        // its binder moves with the reads of it, or they read another slot.
        Expr::Let { local, .. } => *local = moved(*local),
        Expr::Agg { var, .. } => *var = moved(*var),
        Expr::CollCmp { a, b, .. } => {
            for p in a.iter_mut().chain(b.iter_mut()) {
                if let Piece::Gen { var, .. } = p {
                    *var = moved(*var);
                }
            }
        }
        _ => {}
    });
    binds.into_iter().rev().fold(body, |body, (local, value)| Expr::Let {
        local,
        value: Box::new(value),
        body: Box::new(body),
    })
}

/// Folds `e` when its operands are constants and the result cannot fail.
fn fold(e: &mut Expr) {
    let c = |x: &Expr| match x {
        Expr::Const(n) => Some(*n),
        _ => None,
    };
    let folded = match e {
        Expr::Not(a) => c(a).map(|a| i64::from(a == 0)),
        Expr::Cmp(op, a, b) => c(a).zip(c(b)).map(|(a, b)| i64::from(compare(*op, a, b))),
        Expr::Arith(op, a, b, _) => c(a).zip(c(b)).and_then(|(a, b)| match op {
            ArithOp::Add => a.checked_add(b),
            ArithOp::Sub => a.checked_sub(b),
            ArithOp::Mul => a.checked_mul(b),
            // Floor-style, as the language defines them (`-7 / 2` is -4,
            // `-7 % 2` is 1) and the executors compute them.
            ArithOp::Div => a.checked_div_euclid(b),
            ArithOp::Rem => a.checked_rem_euclid(b),
        }),
        // `a` decides alone only when it is a constant: a later operand that
        // is constant still leaves `a` to run (and perhaps fail).
        Expr::And(a, b) => match c(a) {
            Some(0) => Some(0),
            Some(_) => {
                *e = std::mem::replace(&mut **b, Expr::Const(0));
                None
            }
            None => None,
        },
        Expr::Or(a, b) => match c(a) {
            Some(0) => {
                *e = std::mem::replace(&mut **b, Expr::Const(0));
                None
            }
            Some(_) => Some(1),
            None => None,
        },
        Expr::If(cond, a, b) => match c(cond) {
            Some(k) => {
                let taken = if k != 0 { a } else { b };
                *e = std::mem::replace(&mut **taken, Expr::Const(0));
                None
            }
            None => None,
        },
        Expr::Contains(coll, x) => match (&**coll, c(x)) {
            (Coll::Set { lo, hi, .. }, Some(x)) if x < *lo || x > *hi => Some(0),
            (Coll::Range { lo, hi }, Some(x)) => c(lo).zip(c(hi)).map(|(lo, hi)| i64::from(lo <= x && x <= hi)),
            _ => None,
        },
        _ => None,
    };
    if let Some(n) = folded {
        *e = Expr::Const(n);
    }
}

/// Calls `f` on every expression in `e`, inner ones first, then on `e`.
pub(crate) fn walk(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    each_child(e, &mut |c| walk(c, f));
    f(e);
}

/// Calls `f` on each expression directly inside `e`.
fn each_child(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    match e {
        Expr::Const(_) | Expr::Local(_) | Expr::Cell(_) => {}
        Expr::Load(p) => each_place_expr(p, f),
        Expr::Neg(a) | Expr::Not(a) => f(a),
        Expr::Arith(_, a, b, _) | Expr::Cmp(_, a, b) | Expr::And(a, b) | Expr::Or(a, b) | Expr::Pick(_, a, b) => {
            f(a);
            f(b);
        }
        Expr::If(c, a, b) => {
            f(c);
            f(a);
            f(b);
        }
        Expr::Len(c) => each_coll_expr(c, f),
        Expr::Agg { coll, body, filter, .. } => {
            each_coll_expr(coll, f);
            f(body);
            if let Some(x) = filter {
                f(x);
            }
        }
        Expr::Contains(c, x) => {
            each_coll_expr(c, f);
            f(x);
        }
        Expr::CollCmp { a, b, .. } => {
            for p in a.iter_mut().chain(b.iter_mut()) {
                each_piece_expr(p, f);
            }
        }
        Expr::Call { args, .. } => args.iter_mut().for_each(f),
        Expr::Let { value, body, .. } => {
            f(value);
            f(body);
        }
    }
}

fn each_place_expr(p: &mut Place, f: &mut dyn FnMut(&mut Expr)) {
    match p {
        Place::Static(_) | Place::Const(_) | Place::Local(_) => {}
        Place::Elem { list, index, .. } => {
            each_place_expr(list, f);
            f(index);
        }
    }
}

fn each_coll_expr(c: &mut Coll, f: &mut dyn FnMut(&mut Expr)) {
    match c {
        Coll::Range { lo, hi } => {
            f(lo);
            f(hi);
        }
        Coll::List { place } | Coll::Indices { place } | Coll::Set { place, .. } => each_place_expr(place, f),
        Coll::Literal(items) => items.iter_mut().for_each(f),
    }
}

fn each_piece_expr(p: &mut Piece, f: &mut dyn FnMut(&mut Expr)) {
    match p {
        Piece::One(e) => f(e),
        Piece::All(c) => each_coll_expr(c, f),
        Piece::Repeat { value, times } => {
            f(value);
            f(times);
        }
        Piece::Gen { coll, body, filter, .. } => {
            each_coll_expr(coll, f);
            f(body);
            if let Some(x) = filter {
                f(x);
            }
        }
    }
}

/// Calls `f` on each outermost expression of `s` and of the statements inside it.
fn each_stmt_expr(s: &mut Stmt, g: &mut dyn FnMut(&mut Expr)) {
    match s {
        Stmt::Store { place, value, .. } => {
            each_place_expr(place, g);
            g(value);
        }
        Stmt::SetLocal { value, .. } => g(value),
        Stmt::If { cond, then, otherwise } => {
            g(cond);
            for s in then.iter_mut().chain(otherwise.iter_mut()) {
                each_stmt_expr(s, g);
            }
        }
        Stmt::For { coll, body, .. } => {
            each_coll_expr(coll, g);
            for s in body {
                each_stmt_expr(s, g);
            }
        }
        Stmt::While { cond, body, .. } => {
            g(cond);
            for s in body {
                each_stmt_expr(s, g);
            }
        }
        Stmt::SetAdd { set, value, .. } | Stmt::SetRemove { set, value, .. } => {
            each_place_expr(set, g);
            g(value);
        }
        Stmt::Push { list, value, .. } | Stmt::ListRemove { list, value } => {
            each_place_expr(list, g);
            g(value);
        }
        Stmt::Clear { place, .. } => each_place_expr(place, g),
        Stmt::Return(e) => {
            if let Some(e) = e {
                g(e);
            }
        }
        Stmt::Call { args, .. } => args.iter_mut().for_each(g),
        Stmt::Fill { place, pieces, .. } => {
            each_place_expr(place, g);
            for p in pieces {
                each_piece_expr(p, g);
            }
        }
        Stmt::CopyList { dst, src, .. } => {
            each_place_expr(dst, g);
            each_place_expr(src, g);
        }
        Stmt::Pop { list, index, .. } => {
            each_place_expr(list, g);
            if let Some(i) = index {
                g(i);
            }
        }
        Stmt::Insert { list, index, value, .. } => {
            each_place_expr(list, g);
            g(index);
            g(value);
        }
        Stmt::Sort { list } => each_place_expr(list, g),
        Stmt::LocalColl { init, .. } => each_stmt_expr(init, g),
    }
}
