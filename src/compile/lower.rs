//! Lowering of the rules (functions, moves, end clauses) to IR, with type checks.
//!
//! Methods of one `Compiler`, whose scopes and errors every construct
//! shares, in three files by what they lower: here the items (functions,
//! moves, end clauses) and the types and frames they share; statements in
//! [`stmts`]; expressions in [`exprs`].

use std::fmt;

mod exprs;
mod stmts;

use super::compile_kind::CompileKind;
use super::{CompileError, Compiler, Value};
use crate::ir::{self, AggOp, ArithOp, CmpOp, Coll, Layout, Place, Stmt};
use crate::syntax::ast::{self, BinOp, ExprKind, Span, UnOp};

/// The most cells the local lists and sets of one rule may take together,
/// as many as a position: a call's scratch area is zeroed when it starts.
pub const MAX_LOCAL_CELLS: usize = super::MAX_STATE_CELLS;

/// Names the language defines; a declaration may not reuse them.
pub const BUILTINS: &[&str] = &[
    "current", "previous", "players", "me", "len", "sum", "count", "min", "max", "any", "all", "abs", "next", "last",
];

/// Names no parameter, state variable, function or player may take: they
/// mean something in the rules (`turn = p` says who moves next).
pub const RESERVED_NAMES: &[&str] = &["current", "previous", "players", "me", "turn"];

/// What kind of function's statements are being lowered.
#[derive(Clone, Debug)]
pub enum FnKind {
    /// A function with a value of this type: it may not change the state.
    Function(Ty),
    /// A procedure: it may change the state, and has no value.
    Procedure,
}

/// Whether every way through `body` ends in a `return`.
fn always_returns(body: &[ast::Stmt]) -> bool {
    body.iter().any(|s| match s {
        ast::Stmt::Return { .. } => true,
        ast::Stmt::If { then, otherwise, .. } => always_returns(then) && always_returns(otherwise),
        _ => false,
    })
}

/// Where a statement stands in the file.
fn stmt_span(s: &ast::Stmt) -> Span {
    match s {
        ast::Stmt::Let { span, .. }
        | ast::Stmt::Assign { span, .. }
        | ast::Stmt::If { span, .. }
        | ast::Stmt::For { span, .. }
        | ast::Stmt::While { span, .. }
        | ast::Stmt::Return { span, .. }
        | ast::Stmt::ProcCall { span, .. }
        | ast::Stmt::Call { span, .. }
        | ast::Stmt::Again(span) => *span,
    }
}

/// Whether `body` says who moves next (`again`, `turn = p`) anywhere.
fn sets_turn(body: &[ast::Stmt]) -> bool {
    body.iter().any(|s| match s {
        ast::Stmt::Again(_) => true,
        ast::Stmt::Assign { place, .. } => matches!(&place.kind, ExprKind::Name(n) if n == "turn"),
        ast::Stmt::If { then, otherwise, .. } => sets_turn(then) || sets_turn(otherwise),
        ast::Stmt::For { body, .. } | ast::Stmt::While { body, .. } => sets_turn(body),
        _ => false,
    })
}

/// The static type of an expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    Int,
    Bool,
    Player,
    List(Box<Ty>),
    Set,
    Range,
    /// An expression already reported as wrong; it matches anything, so one
    /// mistake gives one error.
    Error,
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Int => f.write_str("int"),
            Ty::Bool => f.write_str("bool"),
            Ty::Player => f.write_str("player"),
            Ty::List(t) => write!(f, "list<{t}>"),
            Ty::Set => f.write_str("set"),
            Ty::Range => f.write_str("range"),
            Ty::Error => f.write_str("?"),
        }
    }
}

impl Ty {
    fn matches(&self, other: &Ty) -> bool {
        match (self, other) {
            (Ty::Error, _) | (_, Ty::Error) => true,
            (Ty::List(a), Ty::List(b)) => a.matches(b),
            (a, b) => a == b,
        }
    }

    fn is_scalar(&self) -> bool {
        matches!(self, Ty::Int | Ty::Bool | Ty::Player | Ty::Error)
    }
}

fn ty_of_layout(l: &Layout) -> Ty {
    match l {
        Layout::Int => Ty::Int,
        Layout::Bool => Ty::Bool,
        Layout::Player => Ty::Player,
        Layout::Set { .. } => Ty::Set,
        Layout::List { elem, .. } => Ty::List(Box::new(ty_of_layout(elem))),
    }
}

pub(super) fn value_has_type(v: &Value, t: &Ty) -> bool {
    match (v, t) {
        (Value::Int(_), Ty::Int) | (Value::Bool(_), Ty::Bool) | (Value::Player(_), Ty::Player) => true,
        (Value::Set(_), Ty::Set) => true,
        (Value::List(items), Ty::List(elem)) => items.iter().all(|i| value_has_type(i, elem)),
        _ => false,
    }
}

/// A value of type `t`, used to read a parameter given on the command line that has no default.
pub(super) fn example_value(t: &Ty) -> Value {
    match t {
        Ty::Bool => Value::Bool(false),
        Ty::Player => Value::Player(0),
        Ty::List(elem) => Value::List(vec![example_value(elem)]),
        Ty::Set => Value::Set(Default::default()),
        _ => Value::Int(0),
    }
}

/// What a name stands for inside a rule.
#[derive(Clone, Debug)]
pub enum Binding {
    Local(usize, Ty),
    /// A loop over a list of lists binds its variable to an element in place.
    Alias(Place, Layout),
}

/// A lowered expression and what kind of thing it is.
enum Typed {
    Scalar(ir::Expr, Ty),
    /// A list or set in the state.
    Place(Place, Layout),
    Range(ir::Expr, ir::Expr),
    /// A list of scalars known by value (a parameter, a literal).
    Literal(Vec<ir::Expr>, Ty),
    Error,
}

/// A list or set being built in a rule (assigned whole, or compared): its
/// values in order, their type, and whether it is a set.
struct Built {
    pieces: Vec<ir::Piece>,
    elem: Ty,
    set: bool,
}

/// An operand of a comparison: one value, or a whole list or set.
enum Val {
    Scalar(ir::Expr, Ty),
    Coll(Built),
    Error,
}

/// Whether `e` is written as a list or set being built.
fn is_built_syntax(e: &ast::Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::List(_)
            | ExprKind::Repeat(..)
            | ExprKind::Set(_)
            | ExprKind::Comprehension { .. }
            | ExprKind::Binary(BinOp::Concat, ..)
    )
}

/// What iterating a collection binds its variable to.
enum Elem {
    Scalar(Ty),
    Alias(Place, Layout),
}

pub(super) fn arity_error(name: &str, want: usize, got: usize, span: Span) -> CompileError {
    CompileError::new(
        CompileKind::Arity,
        format!(
            "`{name}` takes {want} argument{}, but {got} {} given",
            if want == 1 { "" } else { "s" },
            if got == 1 { "was" } else { "were" }
        ),
        span,
        format!("{got} given"),
    )
}

pub(super) fn unknown_function<'k>(name: &str, span: Span, known: impl Iterator<Item = &'k String>) -> CompileError {
    let mut candidates: Vec<&str> = known.map(String::as_str).collect();
    candidates.extend(["len", "sum", "count", "min", "max", "any", "all", "abs", "next", "last"]);
    let e = CompileError::new(
        CompileKind::UnknownFunction,
        format!("there is no function `{name}`"),
        span,
        "unknown function",
    );
    match closest(name, candidates.into_iter()) {
        Some(best) => e.with_help(format!("did you mean `{best}`?")),
        None => e,
    }
}

/// The candidate nearest to `name` by edit distance, if near enough to suggest.
fn closest<'c>(name: &str, candidates: impl Iterator<Item = &'c str>) -> Option<&'c str> {
    candidates
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, c)| *d <= (name.len().max(c.len()) / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

fn mismatch(span: Span, want: &str, found: &Ty) -> CompileError {
    CompileError::new(
        CompileKind::TypeMismatch,
        format!("expected {want}, found {}", article(found)),
        span,
        format!("this is {}", article(found)),
    )
}

fn article(t: &Ty) -> String {
    match t {
        Ty::Int => "an int".into(),
        other => format!("a {other}"),
    }
}

fn arith(op: BinOp) -> Option<ArithOp> {
    Some(match op {
        BinOp::Add => ArithOp::Add,
        BinOp::Sub => ArithOp::Sub,
        BinOp::Mul => ArithOp::Mul,
        BinOp::Div => ArithOp::Div,
        BinOp::Rem => ArithOp::Rem,
        _ => return None,
    })
}

impl Compiler<'_> {
    // ------------------------------------------------------------ frames

    fn begin_frame(&mut self) {
        self.scopes.clear();
        self.next_local = 0;
        self.max_locals = 0;
        self.scratch_next = 0;
    }

    fn alloc_local(&mut self) -> usize {
        let l = self.next_local;
        self.next_local += 1;
        self.max_locals = self.max_locals.max(self.next_local);
        l
    }

    /// Runs `f` in a nested scope: names and locals declared inside are dropped after.
    /// A new local for a loop's or a generator's variable `var`, bound to its
    /// element: the value itself, or (for a list element) an alias of its place.
    fn bind_elem(&mut self, var: &ast::Ident, elem: Elem) -> usize {
        let l = self.alloc_local();
        let binding = match elem {
            Elem::Scalar(t) => Binding::Local(l, t),
            Elem::Alias(list, layout) => {
                Binding::Alias(self.elem_place(list, ir::Expr::Local(l), &layout, var.span), layout)
            }
        };
        self.scopes.push((var.name.clone(), binding));
        l
    }

    fn scoped<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let (names, locals, scratch) = (self.scopes.len(), self.next_local, self.scratch_next);
        let out = f(self);
        self.scopes.truncate(names);
        self.next_local = locals;
        // A block's local lists and sets are gone after it: the next block reuses their cells.
        self.scratch_next = scratch;
        out
    }

    // ------------------------------------------------------------ items

    pub(super) fn lower_fns(&mut self) -> Vec<ir::Function> {
        let decls: Vec<_> = self.fn_decls.values().copied().collect();
        decls
            .into_iter()
            .map(|f| {
                self.begin_frame();
                self.in_display = f.name.name.starts_with(ast::DISPLAY_PREFIX);
                for (name, t) in &f.params {
                    let ty = self.ty_of(t);
                    if !ty.is_scalar() {
                        self.error(CompileError::new(
                            CompileKind::FnParam,
                            "function arguments must be int, bool or player",
                            t.span(),
                            "not a scalar type",
                        ));
                    }
                    let l = self.alloc_local();
                    self.scopes.push((name.name.clone(), Binding::Local(l, ty)));
                }
                // A collection as the result is refused where functions are
                // declared; the body is checked as if its type were unknown.
                let ret = f.ret.as_ref().map(|t| match self.ty_of(t) {
                    Ty::List(_) | Ty::Set => Ty::Error,
                    t => t,
                });
                let (body, block) = match (&f.block, &ret) {
                    (Some(block), ret) => {
                        self.fn_kind = Some(match ret {
                            Some(t) => FnKind::Function(t.clone()),
                            None => FnKind::Procedure,
                        });
                        let stmts = self.stmts(block);
                        self.fn_kind = None;
                        if ret.is_some() && !always_returns(block) {
                            self.error(
                                CompileError::new(
                                    CompileKind::NoReturn,
                                    format!("`{}` may reach its end without returning a value", f.name.name),
                                    f.name.span,
                                    "not every way through it returns",
                                )
                                .with_help("end it with `return VALUE`, or every branch of its last `if`"),
                            );
                        }
                        (ir::Expr::Const(0), Some(stmts))
                    }
                    // An invariant says what the mismatch means for it.
                    (None, Some(ret)) if f.name.name.starts_with(ast::INVARIANT_PREFIX) => {
                        let (x, ty) = self.scalar(&f.body);
                        if !ty.matches(ret) {
                            self.error(mismatch(f.body.span, &article(ret), &ty).with_help(
                                "an invariant is a condition every position keeps: a bool, such as `n <= 5`",
                            ));
                        }
                        (x, None)
                    }
                    // A result type already refused (a collection): nothing
                    // more to say of its body.
                    (None, Some(Ty::Error)) => (ir::Expr::Const(0), None),
                    (None, Some(ret)) => (self.scalar_of(&f.body, ret), None),
                    (None, None) => {
                        self.error(
                            CompileError::new(
                                CompileKind::NoReturn,
                                format!("`{}` is defined by an expression but has no result type", f.name.name),
                                f.name.span,
                                "no `-> TYPE`",
                            )
                            .with_help("write its type: `fn f(x: int) -> int = ...`"),
                        );
                        (ir::Expr::Const(0), None)
                    }
                };
                ir::Function {
                    name: f.name.name.clone(),
                    params: f.params.len(),
                    locals: self.max_locals,
                    body,
                    block,
                }
            })
            .collect()
    }

    pub(super) fn lower_moves(&mut self) -> Vec<ir::MoveKind> {
        let file = self.file;
        let mut seen: Vec<&ast::Ident> = Vec::new();
        let mut out = Vec::new();
        for m in &file.moves {
            if let Some(first) = seen.iter().find(|s| s.name == m.name.name) {
                self.error(
                    CompileError::new(
                        CompileKind::Duplicate,
                        format!("the move `{}` is declared twice", m.name.name),
                        m.name.span,
                        "again here",
                    )
                    .with_note(first.span, "first here"),
                );
            }
            seen.push(&m.name);
            if m.args.len() > ir::MAX_MOVE_ARGS {
                self.error(CompileError::new(
                    CompileKind::MoveArgs,
                    format!("a move takes at most {} arguments", ir::MAX_MOVE_ARGS),
                    m.name.span,
                    format!("{} arguments", m.args.len()),
                ));
                continue;
            }
            self.begin_frame();
            // Arguments take the first locals, in order, before any other.
            let arg_locals: Vec<usize> = m.args.iter().map(|_| self.alloc_local()).collect();
            let me_local = (m.by == ast::MoveBy::Simultaneous).then(|| {
                let l = self.alloc_local();
                self.scopes.push(("me".to_string(), Binding::Local(l, Ty::Player)));
                l
            });
            let mut args = Vec::new();
            for ((name, domain), &local) in m.args.iter().zip(&arg_locals) {
                let (coll, elem) = match self.coll(domain) {
                    Some(c) => c,
                    None => (Coll::Literal(Vec::new()), Elem::Scalar(Ty::Error)),
                };
                let ty = match elem {
                    Elem::Scalar(t) => t,
                    Elem::Alias(..) => {
                        self.error(CompileError::new(
                            CompileKind::MoveArgs,
                            "a move argument must be drawn from numbers, players or bools, not lists",
                            domain.span,
                            "a list of lists",
                        ));
                        Ty::Error
                    }
                };
                let layout = match ty {
                    Ty::Bool => Layout::Bool,
                    Ty::Player => Layout::Player,
                    _ => Layout::Int,
                };
                self.scopes.push((name.name.clone(), Binding::Local(local, ty)));
                args.push(ir::MoveArg {
                    name: name.name.clone(),
                    local,
                    domain: coll,
                    layout,
                });
            }
            let requires = m.requires.iter().map(|r| self.scalar_of(r, &Ty::Bool)).collect();
            let weight = m.weight.as_ref().and_then(|w| self.weight(w, m.by));
            // A simultaneous move's body runs once per player: who moves next
            // is said once, in its `then` block.
            let turn_local = (m.by != ast::MoveBy::Simultaneous && sets_turn(&m.body)).then(|| self.alloc_local());
            self.turn_target = turn_local.map(|l| (l, m.by == ast::MoveBy::Turn));
            let body = self.stmts(&m.body);
            self.turn_target = None;
            let mut then_turn_local = None;
            let then = match (&m.then, m.by) {
                (Some((block, _)), ast::MoveBy::Simultaneous) => {
                    // Runs once for all players: no argument and no `me` is in scope.
                    let saved = std::mem::take(&mut self.scopes);
                    then_turn_local = sets_turn(block).then(|| self.alloc_local());
                    self.turn_target = then_turn_local.map(|l| (l, false));
                    let then = self.stmts(block);
                    self.turn_target = None;
                    self.scopes = saved;
                    then
                }
                (Some((_, span)), _) => {
                    self.error(CompileError::new(
                        CompileKind::Then,
                        "only a simultaneous move has a `then` block",
                        *span,
                        "runs after every player's move",
                    ));
                    Vec::new()
                }
                (None, _) => Vec::new(),
            };
            if m.by == ast::MoveBy::Simultaneous
                && file.moves.iter().filter(|x| x.by == ast::MoveBy::Simultaneous).count() > 1
            {
                self.error(
                    CompileError::new(
                        CompileKind::Simultaneous,
                        "a game has at most one simultaneous move",
                        m.name.span,
                        "a second one",
                    )
                    .with_help("give the one move an argument that tells the choices apart"),
                );
            }
            out.push(ir::MoveKind {
                by: m.by,
                me_local,
                then,
                turn_local,
                then_turn_local,
                name: m.name.name.clone(),
                span: m.span,
                args,
                requires,
                weight,
                body,
                locals: self.max_locals,
            });
        }
        out
    }

    /// A chance move's `weight`: an int, not negative when it is a constant.
    fn weight(&mut self, w: &ast::Expr, by: ast::MoveBy) -> Option<(ir::Expr, Span)> {
        if by != ast::MoveBy::Chance {
            self.error(
                CompileError::new(
                    CompileKind::Weight,
                    "only a chance move has a weight",
                    w.span,
                    "a player chooses this move",
                )
                .with_help("a player chooses; write `chance move` for a move chance makes"),
            );
            return None;
        }
        let e = self.scalar_of(w, &Ty::Int);
        match e {
            ir::Expr::Const(n) if n < 0 => {
                self.error(CompileError::new(
                    CompileKind::Weight,
                    format!("a weight cannot be negative, and this one is {n}"),
                    w.span,
                    "negative",
                ));
                None
            }
            ir::Expr::Const(0) => {
                self.error(
                    CompileError::new(
                        CompileKind::Weight,
                        "a weight of 0: this move would never happen",
                        w.span,
                        "always 0",
                    )
                    .with_help("remove the move, or give it a weight above 0"),
                );
                None
            }
            e => Some((e, w.span)),
        }
    }

    pub(super) fn lower_ends(&mut self) -> Vec<ir::End> {
        let file = self.file;
        let mut out = Vec::new();
        let mut repeated: Option<Span> = None;
        for e in &file.ends {
            self.begin_frame();
            let cond = match &e.cond {
                ast::EndCond::Expr(x) => ir::EndCond::When(self.end_cond(x)),
                ast::EndCond::Repeated(x, span) => {
                    match repeated {
                        Some(first) => self.error(repetition_twice(*span, first)),
                        None => repeated = Some(*span),
                    }
                    ir::EndCond::Repeated(self.repetition_count(x))
                }
            };
            let mut result: Option<(usize, Span)> = None;
            let mut player = None;
            let mut payoff = None;
            let mut score = None;
            for (i, o) in e.outcomes.iter().enumerate() {
                let span = match o {
                    ast::Outcome::Winner(x) | ast::Outcome::Loser(x) | ast::Outcome::Payoff(x) => x.span,
                    ast::Outcome::Draw(s) | ast::Outcome::Score { span: s, .. } => *s,
                };
                match o {
                    ast::Outcome::Payoff(x) => {
                        if payoff.is_some() {
                            self.error(CompileError::new(
                                CompileKind::Outcome,
                                "the payoff is given twice",
                                span,
                                "again here",
                            ));
                        }
                        payoff = Some(self.scalar_of(x, &Ty::Int));
                        continue;
                    }
                    ast::Outcome::Winner(x) | ast::Outcome::Loser(x) => {
                        player = Some(self.scalar_of(x, &Ty::Player));
                    }
                    ast::Outcome::Draw(_) => {}
                    ast::Outcome::Score { scores, .. } => {
                        score = self.score_place(scores);
                    }
                }
                if let Some((_, first)) = result {
                    self.error(
                        CompileError::new(
                            CompileKind::Outcome,
                            "an end clause has one result: a winner, a loser, or a draw",
                            span,
                            "a second result",
                        )
                        .with_note(first, "the first"),
                    );
                }
                result = Some((i, span));
            }
            if let (Some((i, span)), Some(_)) = (result, &payoff)
                && matches!(e.outcomes[i], ast::Outcome::Draw(_) | ast::Outcome::Score { .. })
            {
                self.error(CompileError::new(
                    CompileKind::Outcome,
                    "a payoff goes with a winner or a loser; this outcome has none",
                    span,
                    "this outcome",
                ));
            }
            let outcome = match result.map(|(i, _)| &e.outcomes[i]) {
                Some(ast::Outcome::Winner(_)) => ir::Outcome::Winner {
                    player: player.unwrap_or(ir::Expr::Const(0)),
                    payoff,
                },
                Some(ast::Outcome::Loser(_)) => ir::Outcome::Loser {
                    player: player.unwrap_or(ir::Expr::Const(0)),
                    payoff,
                },
                Some(ast::Outcome::Score { lowest, .. }) => match score {
                    Some(place) => ir::Outcome::Score {
                        lowest: *lowest,
                        scores: place,
                    },
                    None => ir::Outcome::Draw,
                },
                Some(_) => ir::Outcome::Draw,
                None => {
                    self.error(
                        CompileError::new(
                            CompileKind::Outcome,
                            "this end clause does not say who won",
                            e.span,
                            "no outcome",
                        )
                        .with_help("add `winner PLAYER`, `loser PLAYER` or `draw` inside the braces"),
                    );
                    ir::Outcome::Draw
                }
            };
            out.push(ir::End {
                cond,
                outcome,
                locals: self.max_locals,
                span: e.span,
            });
        }
        out
    }

    /// An `end when` condition: a bool, in which `no moves` may be a term
    /// under `and`, `or`, `not` and `implies` (anywhere else, lowering the
    /// expression says it cannot be there).
    fn end_cond(&mut self, x: &ast::Expr) -> ir::Cond {
        use ast::{BinOp, ExprKind, UnOp};
        if !mentions_no_moves(x) {
            return ir::Cond::Expr(self.scalar_of(x, &Ty::Bool));
        }
        let mut both = |a, b| (Box::new(self.end_cond(a)), Box::new(self.end_cond(b)));
        match &x.kind {
            ExprKind::NoMoves => ir::Cond::NoMoves,
            ExprKind::Unary(UnOp::Not, a) => ir::Cond::Not(Box::new(self.end_cond(a))),
            ExprKind::Binary(BinOp::And, a, b) => {
                let (a, b) = both(a, b);
                ir::Cond::And(a, b)
            }
            ExprKind::Binary(BinOp::Or, a, b) => {
                let (a, b) = both(a, b);
                ir::Cond::Or(a, b)
            }
            // `a implies b` is `not a or b`, `a` tried first.
            ExprKind::Binary(BinOp::Implies, a, b) => {
                let (a, b) = both(a, b);
                ir::Cond::Or(Box::new(ir::Cond::Not(a)), b)
            }
            _ => {
                self.in_end_cond = true;
                let x = self.scalar_of(x, &Ty::Bool);
                self.in_end_cond = false;
                ir::Cond::Expr(x)
            }
        }
    }

    /// N of `end when repeated N`: a constant from 2 up (a position occurs
    /// once when it is reached, so N = 1 would end every game at once).
    fn repetition_count(&mut self, x: &ast::Expr) -> u32 {
        let n = match self.eval_const(x) {
            Ok(Value::Int(n)) => n,
            Ok(_) => {
                self.error(
                    CompileError::new(
                        CompileKind::Repetition,
                        "`repeated` takes a count",
                        x.span,
                        "not an int",
                    )
                    .with_help("write how many times a position may occur, e.g. `end when repeated 3 { draw }`"),
                );
                return 2;
            }
            Err(e) => {
                self.error(e);
                return 2;
            }
        };
        if !(2..=i64::from(u16::MAX)).contains(&n) {
            self.error(
                CompileError::new(
                    CompileKind::Repetition,
                    format!("`repeated {n}`: the count must be at least 2 (and at most {})", u16::MAX),
                    x.span,
                    "this count",
                )
                .with_help(
                    "a position occurs once when it is first reached: `repeated 2` ends the game the first time a position comes back",
                ),
            );
            return 2;
        }
        n as u32
    }

    /// N of `max moves N`: a constant int from 1 up, declared once.
    pub(super) fn max_moves(&mut self) -> Option<u64> {
        let file = self.file;
        let (bound, _) = file.max_moves.first()?;
        if let Some((_, again)) = file.max_moves.get(1) {
            self.error(
                CompileError::new(
                    CompileKind::MaxMoves,
                    "`max moves` is declared twice",
                    *again,
                    "again here",
                )
                .with_note(file.max_moves[0].1, "first here")
                .with_help("keep one: the longest a game can be"),
            );
        }
        let n = match self.eval_const(bound) {
            Ok(Value::Int(n)) => n,
            Ok(other) => {
                self.error(
                    CompileError::new(
                        CompileKind::MaxMoves,
                        format!("`max moves` takes a number of moves, found a {}", other.kind()),
                        bound.span,
                        "not an int",
                    )
                    .with_help("write the most moves a game can last, e.g. `max moves rows * cols`"),
                );
                return None;
            }
            Err(e) => {
                self.error(e);
                return None;
            }
        };
        if n < 1 {
            self.error(
                CompileError::new(
                    CompileKind::MaxMoves,
                    format!("`max moves {n}`: a game lasts at least one move"),
                    bound.span,
                    "this bound",
                )
                .with_help("write the most moves a game can last, from 1 up"),
            );
            return None;
        }
        Some(n as u64)
    }

    /// The `per player int` that a `lowest ... wins` clause ranks by.
    fn score_place(&mut self, e: &ast::Expr) -> Option<Place> {
        let players = self.players.len();
        match self.expr(e) {
            Typed::Place(place, Layout::List { elem, cap })
                if *elem == Layout::Int && cap == players && !place.is_const() =>
            {
                Some(place)
            }
            Typed::Error => None,
            _ => {
                self.error(
                    CompileError::new(
                        CompileKind::Score,
                        "a score outcome needs one int per player",
                        e.span,
                        "not a `per player int`",
                    )
                    .with_help("declare it as `state points: per player int = 0`"),
                );
                None
            }
        }
    }

    // ------------------------------------------------------------ statements
}

/// A list or set written where it cannot be: outside an assignment or a comparison.
fn built_not_here(span: Span) -> CompileError {
    CompileError::new(
        CompileKind::NotHere,
        "a list or set built here has nowhere to go",
        span,
        "built here",
    )
    .with_help("in a rule, a list or set is built to be assigned (`row = [...]`) or compared (`row == [...]`)")
}

/// A change to a `const`.
fn repetition_twice(span: Span, first: Span) -> CompileError {
    CompileError::new(
        CompileKind::Repetition,
        "the game has two repetition rules",
        span,
        "a second `end when repeated`",
    )
    .with_note(first, "the first")
    .with_help("keep one: a game ends at the first count of repetitions it names")
}

fn constant_changed(span: Span) -> CompileError {
    CompileError::new(
        CompileKind::NotAssignable,
        "a constant cannot be changed",
        span,
        "a `const`",
    )
    .with_help("declare it as a `state` variable to change it during the game")
}

/// `again` or `turn = p` where no move is being made.
fn turn_outside(span: Span, what: &str) -> CompileError {
    CompileError::new(
        CompileKind::Turn,
        format!("`{what}` says who moves next, so it belongs in a move's body"),
        span,
        "not in a move",
    )
    .with_help(if what == "again" {
        "write it in the body of a player's `move`: only a player who moved can move again"
    } else {
        "write it in the body of a `move` (or a simultaneous move's `then` block)"
    })
}

fn agg_op(name: &str) -> AggOp {
    match name {
        "sum" => AggOp::Sum,
        "count" | "len" => AggOp::Count,
        "min" => AggOp::Min,
        "max" => AggOp::Max,
        "any" => AggOp::Any,
        _ => AggOp::All,
    }
}

/// `a op b`, computed now when both are constants and it cannot fail.
fn fold_arith(op: ArithOp, a: ir::Expr, b: ir::Expr, span: Span) -> ir::Expr {
    if let (ir::Expr::Const(x), ir::Expr::Const(y)) = (&a, &b) {
        let v = match op {
            ArithOp::Add => x.checked_add(*y),
            ArithOp::Sub => x.checked_sub(*y),
            ArithOp::Mul => x.checked_mul(*y),
            // `MIN / -1` and `MIN % -1` overflow: left to run time, which
            // reports them (found by the fuzzer, seed 13 case 120277).
            ArithOp::Div => x.checked_div_euclid(*y),
            ArithOp::Rem => x.checked_rem_euclid(*y),
        };
        if let Some(v) = v {
            return ir::Expr::Const(v);
        }
    }
    ir::Expr::Arith(op, Box::new(a), Box::new(b), span)
}

fn fold_cmp(op: CmpOp, a: ir::Expr, b: ir::Expr) -> ir::Expr {
    if let (ir::Expr::Const(x), ir::Expr::Const(y)) = (&a, &b) {
        return ir::Expr::Const(i64::from(ir::compare(op, *x, *y)));
    }
    ir::Expr::Cmp(op, Box::new(a), Box::new(b))
}

/// Whether `no moves` is a part of `e`.
fn mentions_no_moves(e: &ast::Expr) -> bool {
    use ast::ExprKind::*;
    match &e.kind {
        NoMoves => true,
        Int(_) | Bool(_) | Name(_) => false,
        Unary(_, a) => mentions_no_moves(a),
        Binary(_, a, b) | Index(a, b) | Repeat(a, b) => mentions_no_moves(a) || mentions_no_moves(b),
        Call(_, args) | List(args) | Set(args) => args.iter().any(mentions_no_moves),
        Generator { body, coll, filter, .. } | Comprehension { body, coll, filter, .. } => {
            mentions_no_moves(body) || mentions_no_moves(coll) || filter.as_deref().is_some_and(mentions_no_moves)
        }
        If(c, a, b) => mentions_no_moves(c) || mentions_no_moves(a) || mentions_no_moves(b),
    }
}
