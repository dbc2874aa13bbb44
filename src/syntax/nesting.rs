//! Guards against files nested far deeper than any game: the parser and every
//! later pass recurse once per level of nesting, so a file of 100,000 `(` or
//! a chain of 10,000 `+` would overflow the stack. pest stops before its stack
//! runs out, the step from its parse tree to the syntax tree refuses to build
//! anything much deeper than a game may be (`parser::Cx`), and a syntax tree
//! nested deeper than [`MAX_NESTING`] is refused with an error before any
//! other pass sees it. [`super::parse`] parses large files on a thread of
//! their own with a generous stack, or, where the system cannot give one (an
//! address-space limit), on the caller's: the guards hold on any stack.

use super::ast::*;
use super::file_error::FileError;

/// The deepest nesting of expressions, statements and types in a file. Each
/// operator counts as a level: `1 + 1 + 1` is three levels deep.
pub const MAX_NESTING: usize = 200;

/// Parses, then checks the nesting; an over-deep tree is dropped on this thread.
pub(super) fn checked(source: &str) -> Result<SyntaxTree, FileError> {
    let file = super::parser::parse(source)?;
    match too_deep(&file) {
        None => Ok(file),
        Some(span) => Err(super::parser::too_deep(span)),
    }
}

/// The place where the nesting first goes past `MAX_NESTING`, if it does.
/// The walk stops there, so it never recurses deeper than the limit itself.
fn too_deep(file: &SyntaxTree) -> Option<Span> {
    let mut w = Walk { found: None };
    if let Some(e) = &file.player_count {
        w.expr(e, 0);
    }
    for p in &file.params {
        w.ty(&p.ty, 0);
        for e in p.default.iter().chain(&p.range) {
            w.expr(e, 0);
        }
    }
    for c in &file.consts {
        w.ty(&c.ty, 0);
        w.expr(&c.value, 0);
    }
    for r in &file.requires {
        w.expr(&r.cond, 0);
    }
    for s in &file.states {
        w.ty(&s.ty, 0);
        w.expr(&s.init, 0);
    }
    for f in &file.fns {
        for (_, t) in &f.params {
            w.ty(t, 0);
        }
        if let Some(ret) = &f.ret {
            w.ty(ret, 0);
        }
        w.expr(&f.body, 0);
        if let Some(block) = &f.block {
            w.block(block, 0);
        }
    }
    for m in &file.moves {
        for (_, e) in &m.args {
            w.expr(e, 0);
        }
        for e in m.requires.iter().chain(&m.weight) {
            w.expr(e, 0);
        }
        w.block(&m.body, 0);
        if let Some((then, _)) = &m.then {
            w.block(then, 0);
        }
    }
    for end in &file.ends {
        let (EndCond::Expr(e) | EndCond::Repeated(e, _)) = &end.cond;
        w.expr(e, 0);
        for o in &end.outcomes {
            match o {
                Outcome::Winner(e) | Outcome::Loser(e) | Outcome::Payoff(e) => w.expr(e, 0),
                Outcome::Score { scores, .. } => w.expr(scores, 0),
                Outcome::Draw(_) => {}
            }
        }
    }
    w.found
}

struct Walk {
    found: Option<Span>,
}

impl Walk {
    /// Whether to go on into a node at `depth` spanning `span`.
    fn enter(&mut self, depth: usize, span: Span) -> bool {
        if self.found.is_some() {
            return false;
        }
        if depth > MAX_NESTING {
            self.found = Some(span);
            return false;
        }
        true
    }

    fn ty(&mut self, t: &TypeExpr, depth: usize) {
        if !self.enter(depth, t.span()) {
            return;
        }
        match t {
            TypeExpr::Int(_) | TypeExpr::Bool(_) | TypeExpr::Player(_) => {}
            TypeExpr::List { elem, capacity, .. } => {
                self.ty(elem, depth + 1);
                if let Some(c) = capacity {
                    self.expr(c, depth + 1);
                }
            }
            TypeExpr::Set { range, .. } => self.expr(range, depth + 1),
            TypeExpr::PerPlayer(inner, _) => self.ty(inner, depth + 1),
        }
    }

    fn block(&mut self, stmts: &[Stmt], depth: usize) {
        for s in stmts {
            self.stmt(s, depth);
        }
    }

    fn stmt(&mut self, s: &Stmt, depth: usize) {
        let span = match s {
            Stmt::Let { span, .. }
            | Stmt::Assign { span, .. }
            | Stmt::If { span, .. }
            | Stmt::For { span, .. }
            | Stmt::Call { span, .. } => *span,
            Stmt::Again(span) => *span,
            Stmt::While { span, .. } | Stmt::Return { span, .. } | Stmt::ProcCall { span, .. } => *span,
        };
        if !self.enter(depth, span) {
            return;
        }
        let d = depth + 1;
        match s {
            Stmt::Let { ty, value, .. } => {
                if let Some(t) = ty {
                    self.ty(t, d);
                }
                self.expr(value, d);
            }
            Stmt::Assign { place, value, .. } => {
                self.expr(place, d);
                self.expr(value, d);
            }
            Stmt::If {
                cond, then, otherwise, ..
            } => {
                self.expr(cond, d);
                self.block(then, d);
                self.block(otherwise, d);
            }
            Stmt::For { coll, body, .. } => {
                self.expr(coll, d);
                self.block(body, d);
            }
            Stmt::Call { target, args, .. } => {
                self.expr(target, d);
                for a in args {
                    self.expr(a, d);
                }
            }
            Stmt::Again(_) => {}
            Stmt::While { cond, body, .. } => {
                self.expr(cond, d);
                self.block(body, d);
            }
            Stmt::Return { value, .. } => {
                if let Some(v) = value {
                    self.expr(v, d);
                }
            }
            Stmt::ProcCall { args, .. } => {
                for a in args {
                    self.expr(a, d);
                }
            }
        }
    }

    fn expr(&mut self, e: &Expr, depth: usize) {
        if !self.enter(depth, e.span) {
            return;
        }
        let d = depth + 1;
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Name(_) | ExprKind::NoMoves => {}
            ExprKind::Unary(_, a) => self.expr(a, d),
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) | ExprKind::Repeat(a, b) => {
                self.expr(a, d);
                self.expr(b, d);
            }
            ExprKind::Call(_, args) | ExprKind::List(args) | ExprKind::Set(args) => {
                for a in args {
                    self.expr(a, d);
                }
            }
            ExprKind::Generator { body, coll, filter, .. } | ExprKind::Comprehension { body, coll, filter, .. } => {
                self.expr(body, d);
                self.expr(coll, d);
                if let Some(f) = filter {
                    self.expr(f, d);
                }
            }
            ExprKind::If(c, a, b) => {
                self.expr(c, d);
                self.expr(a, d);
                self.expr(b, d);
            }
        }
    }
}
