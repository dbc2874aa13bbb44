//! Lowering of the rules (functions, moves, end clauses) to IR, with type checks.
//!
//! One file, though long: name resolution and type checking of every
//! construct in methods of one `Compiler`, whose scopes and errors each arm shares.

use std::fmt;

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
                let ret = f.ret.as_ref().map(|t| self.ty_of(t));
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
                ast::EndCond::NoMoves(_) => ir::EndCond::NoMoves,
                ast::EndCond::Expr(x) => ir::EndCond::Expr(self.scalar_of(x, &Ty::Bool)),
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

    fn stmts(&mut self, body: &[ast::Stmt]) -> Vec<Stmt> {
        // A statement after `return` never runs: most often a value meant for
        // `return` that was written on the next line.
        if let Some(i) = body.iter().position(|s| matches!(s, ast::Stmt::Return { .. }))
            && let Some(next) = body.get(i + 1)
        {
            let help = match &body[i] {
                ast::Stmt::Return { value: None, .. } => {
                    "a value to return starts on the line of `return`, and this block returns none: \
                     to run this line, drop the `return` before it"
                }
                _ => "remove it, or move it before the `return`",
            };
            self.error(
                CompileError::new(
                    CompileKind::Return,
                    "this statement never runs: the `return` before it ends the block",
                    stmt_span(next),
                    "never runs",
                )
                .with_note(stmt_span(&body[i]), "the block ends here")
                .with_help(help),
            );
        }
        self.scoped(|c| body.iter().filter_map(|s| c.stmt(s)).collect())
    }

    fn stmt(&mut self, s: &ast::Stmt) -> Option<Stmt> {
        match s {
            ast::Stmt::Let {
                name,
                ty: Some(t),
                value,
                span,
            } => self.let_typed(name, t, value, *span),
            ast::Stmt::Let { name, value, .. } => {
                if is_built_syntax(value) || matches!(self.peek_layout(value), Some(l) if !l.is_scalar()) {
                    self.error(
                        CompileError::new(
                            CompileKind::LocalType,
                            format!("the local list or set `{}` needs its type", name.name),
                            name.span,
                            "no type",
                        )
                        .with_help(format!(
                            "write it: `let {0}: list<int, 8> = ...` (a list and its capacity) or `let {0}: set<0..8> = ...`",
                            name.name
                        )),
                    );
                    return None;
                }
                let (e, ty) = self.scalar(value);
                if !ty.is_scalar() {
                    return None;
                }
                let l = self.alloc_local();
                self.scopes.push((name.name.clone(), Binding::Local(l, ty)));
                Some(Stmt::SetLocal {
                    local: l,
                    op: None,
                    value: e,
                    span: value.span,
                })
            }
            ast::Stmt::Assign { place, op, value, span } => self.assign(place, *op, value, *span),
            ast::Stmt::If {
                cond, then, otherwise, ..
            } => {
                let cond = self.scalar_of(cond, &Ty::Bool);
                let then = self.stmts(then);
                let otherwise = self.stmts(otherwise);
                Some(Stmt::If { cond, then, otherwise })
            }
            ast::Stmt::For { var, coll, body, .. } => {
                let (coll, elem) = self.coll(coll)?;
                self.scoped(|c| {
                    let l = c.bind_elem(var, elem);
                    let body = c.stmts(body);
                    Some(Stmt::For { var: l, coll, body })
                })
            }
            ast::Stmt::Call {
                target,
                method,
                args,
                span,
            } => self.method(target, method, args, *span),
            ast::Stmt::While { cond, body, span } => {
                let cond = self.scalar_of(cond, &Ty::Bool);
                let body = self.stmts(body);
                Some(Stmt::While {
                    cond,
                    body,
                    span: *span,
                })
            }
            ast::Stmt::Return { value, span } => self.return_stmt(value.as_ref(), *span),
            ast::Stmt::ProcCall { name, args, span } => self.proc_call(name, args, *span),
            ast::Stmt::Again(span) => match self.turn_target {
                Some((local, true)) => Some(Stmt::SetLocal {
                    local,
                    op: None,
                    value: ir::Expr::Cell(ir::TURN_CELL),
                    span: *span,
                }),
                Some((_, false)) => {
                    self.error(
                        CompileError::new(
                            CompileKind::Turn,
                            "`again` gives the player who moved another move, but no player moves here",
                            *span,
                            "not a player's move",
                        )
                        .with_help(
                            "chance and a simultaneous move's `then` block say who moves next with `turn = PLAYER`",
                        ),
                    );
                    None
                }
                None => {
                    self.error(turn_outside(*span, "again"));
                    None
                }
            },
        }
    }

    /// `let NAME: TYPE = value`: a scalar of that type, or a local list or
    /// set whose cells live in the rule's scratch area, for one run of the rule.
    fn let_typed(&mut self, name: &ast::Ident, t: &ast::TypeExpr, value: &ast::Expr, span: Span) -> Option<Stmt> {
        let ty = self.ty_of(t);
        if ty.is_scalar() {
            let e = self.scalar_of(value, &ty);
            let l = self.alloc_local();
            self.scopes.push((name.name.clone(), Binding::Local(l, ty)));
            return Some(Stmt::SetLocal {
                local: l,
                op: None,
                value: e,
                span: value.span,
            });
        }
        if let ast::TypeExpr::PerPlayer(_, s) = t {
            self.error(
                CompileError::new(
                    CompileKind::LocalType,
                    format!("the local `{}` cannot be `per player`", name.name),
                    *s,
                    "per player",
                )
                .with_help(format!(
                    "a list with one entry per player does: `let {}: list<int, {}> = [0; {}]`",
                    name.name,
                    self.players.len(),
                    self.players.len()
                )),
            );
            return None;
        }
        let layout = match self.local_layout(name, t, value) {
            Ok(l) => l,
            Err(e) => {
                self.error(e);
                return None;
            }
        };
        let size = layout.checked_size().unwrap_or(usize::MAX);
        let offset = self.scratch_next;
        if size > MAX_LOCAL_CELLS - offset.min(MAX_LOCAL_CELLS) {
            let before = if offset > 0 {
                format!(", and the ones before it take {offset}")
            } else {
                String::new()
            };
            self.error(
                CompileError::new(
                    CompileKind::LocalSize,
                    format!(
                        "`{}` needs {} cells{before}; the local lists and sets of a rule may take at most {MAX_LOCAL_CELLS}",
                        name.name,
                        if size == usize::MAX { "more than 2^64".to_string() } else { size.to_string() }
                    ),
                    t.span(),
                    "too large",
                )
                .with_help("a list's capacity multiplies its elements' cells: make them smaller"),
            );
            return None;
        }
        let l = self.alloc_local();
        // The initial value is computed before the name is in scope.
        let init = self.assign_whole(Place::Local(l), layout.clone(), None, value, span)?;
        self.scratch_next = offset + size;
        self.scopes
            .push((name.name.clone(), Binding::Alias(Place::Local(l), layout)));
        Some(Stmt::LocalColl {
            local: l,
            offset,
            size,
            init: Box::new(init),
        })
    }

    /// The layout of a local list or set of type `t`: as written, each list
    /// with its capacity; or, without capacities, the layout of the whole
    /// list or set it starts as a copy of (`let b: list<int> = board`).
    fn local_layout(
        &mut self,
        name: &ast::Ident,
        t: &ast::TypeExpr,
        value: &ast::Expr,
    ) -> Result<Layout, CompileError> {
        fn capacities(t: &ast::TypeExpr) -> (bool, bool) {
            match t {
                ast::TypeExpr::List { elem, capacity, .. } => {
                    let (all, any) = capacities(elem);
                    (all && capacity.is_some(), any || capacity.is_some())
                }
                ast::TypeExpr::PerPlayer(inner, _) => capacities(inner),
                _ => (true, false),
            }
        }
        let (all, any) = capacities(t);
        if all {
            return self.layout_of(t, &[]);
        }
        let want = self.ty_of(t);
        match self.peek_layout(value) {
            Some(l) if !any && ty_of_layout(&l).matches(&want) => Ok(l),
            Some(l) if !any && !l.is_scalar() => Err(CompileError::new(
                CompileKind::TypeMismatch,
                format!(
                    "`{}` is a {want}, but starts as {}",
                    name.name,
                    article(&ty_of_layout(&l))
                ),
                value.span,
                format!("this is {}", article(&ty_of_layout(&l))),
            )),
            _ => Err(CompileError::new(
                CompileKind::LocalType,
                format!("the local list `{}` needs its capacity", name.name),
                t.span(),
                "how many elements?",
            )
            .with_help(format!(
                "write the most it will hold: `let {}: list<int, 8> = ...`; each list inside a list needs one too",
                name.name
            ))),
        }
    }

    /// The layout of `e` if it names a variable, a constant or a local
    /// list or set, without lowering it (so without reporting anything).
    fn peek_layout(&self, e: &ast::Expr) -> Option<Layout> {
        let ExprKind::Name(n) = &e.kind else { return None };
        if let Some((_, b)) = self.scopes.iter().rev().find(|(m, _)| m == n) {
            return match b {
                Binding::Alias(_, l) => Some(l.clone()),
                Binding::Local(..) => None,
            };
        }
        if let Some((_, l)) = self.consts.get(n) {
            return Some(l.clone());
        }
        self.vars.get(n).map(|v| v.layout.clone())
    }

    /// Whether `e` is (an element of) a local list or set: a function may
    /// change those, as they are no part of the position.
    fn is_local_place(&self, e: &ast::Expr) -> bool {
        match &e.kind {
            ExprKind::Name(n) => matches!(
                self.scopes.iter().rev().find(|(m, _)| m == n),
                Some((_, Binding::Alias(p, _))) if p.is_local()
            ),
            ExprKind::Index(list, _) => self.is_local_place(list),
            _ => false,
        }
    }

    fn return_stmt(&mut self, value: Option<&ast::Expr>, span: Span) -> Option<Stmt> {
        match (self.fn_kind.clone(), value) {
            (Some(FnKind::Function(ty)), Some(v)) => Some(Stmt::Return(Some(self.scalar_of(v, &ty)))),
            (Some(FnKind::Procedure), None) => Some(Stmt::Return(None)),
            (Some(FnKind::Function(ty)), None) => {
                self.error(CompileError::new(
                    CompileKind::Return,
                    format!("this function returns {}: `return` needs a value", article(&ty)),
                    span,
                    "no value",
                ));
                None
            }
            (Some(FnKind::Procedure), Some(v)) => {
                self.error(
                    CompileError::new(
                        CompileKind::Return,
                        "a procedure has no value to return",
                        v.span,
                        "a value",
                    )
                    .with_help("give the function a result type (`-> int`) to return a value"),
                );
                None
            }
            (None, _) => {
                self.error(CompileError::new(
                    CompileKind::Return,
                    "`return` ends a function or a procedure, and this is neither",
                    span,
                    "not in a function",
                ));
                None
            }
        }
    }

    /// `name(args)` as a statement: a procedure.
    fn proc_call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Option<Stmt> {
        let Some(sig) = self.fn_sigs.get(&name.name).cloned() else {
            let known: Vec<String> = self.fn_sigs.keys().cloned().collect();
            self.error(unknown_function(&name.name, name.span, known.iter()));
            return None;
        };
        if !sig.is_proc {
            self.error(
                CompileError::new(
                    CompileKind::Procedure,
                    format!("`{}` is a function: it has a value and changes nothing", name.name),
                    span,
                    "its value is thrown away",
                )
                .with_help(format!("use its value: `let x = {}(...)`", name.name)),
            );
            return None;
        }
        if !self.may_change_state(span) {
            return None;
        }
        if args.len() != sig.params.len() {
            self.error(arity_error(&name.name, sig.params.len(), args.len(), span));
            return None;
        }
        let args = args
            .iter()
            .zip(&sig.params)
            .map(|(a, t)| self.scalar_of(a, t))
            .collect();
        Some(Stmt::Call {
            func: sig.index,
            args,
            span,
        })
    }

    /// Whether statements here may change the state: not in a function,
    /// which the rules call while they only read the position.
    fn may_change_state(&mut self, span: Span) -> bool {
        if let Some(FnKind::Function(_)) = self.fn_kind {
            if self.in_display {
                self.error(
                    CompileError::new(
                        CompileKind::NotAssignable,
                        "a display cannot change the state",
                        span,
                        "changes the state",
                    )
                    .with_help("a display only reads the position: compute into a `let` and return it"),
                );
                return false;
            }
            self.error(
                CompileError::new(
                    CompileKind::NotAssignable,
                    "a function cannot change the state",
                    span,
                    "changes the state",
                )
                .with_help("a procedure (`fn name(...) { ... }`, no result type) may; run it as a statement"),
            );
            return false;
        }
        true
    }

    /// `turn = p`: who moves after this move.
    fn set_turn(&mut self, op: Option<ArithOp>, value: &ast::Expr, span: Span) -> Option<Stmt> {
        let Some((local, _)) = self.turn_target else {
            self.error(turn_outside(span, "turn = PLAYER"));
            return None;
        };
        if op.is_some() {
            self.error(
                CompileError::new(
                    CompileKind::Turn,
                    "`turn` is a player: it can only be set with `=`",
                    span,
                    "not a number",
                )
                .with_help("write `turn = next(current)`, or `again`"),
            );
            return None;
        }
        let value = self.scalar_of(value, &Ty::Player);
        Some(Stmt::SetLocal {
            local,
            op: None,
            value,
            span,
        })
    }

    fn assign(&mut self, place: &ast::Expr, op: Option<BinOp>, value: &ast::Expr, span: Span) -> Option<Stmt> {
        let op = op.and_then(arith);
        if let ExprKind::Name(name) = &place.kind
            && name == "turn"
        {
            return self.set_turn(op, value, span);
        }
        if let ExprKind::Name(name) = &place.kind {
            if let Some((_, Binding::Local(l, ty))) = self.scopes.iter().rev().find(|(n, _)| n == name).cloned() {
                let want = if op.is_some() { Ty::Int } else { ty.clone() };
                if op.is_some() && !ty.matches(&Ty::Int) {
                    self.error(mismatch(place.span, "an int", &ty));
                }
                let value = self.scalar_of(value, &want);
                return Some(Stmt::SetLocal {
                    local: l,
                    op,
                    value,
                    span,
                });
            }
            let bound = self.scopes.iter().any(|(n, _)| n == name);
            if !bound && self.file.consts.iter().any(|c| &c.name.name == name) {
                self.error(constant_changed(place.span));
                return None;
            }
            if !bound
                && (["current", "previous"].contains(&name.as_str())
                    || self.params.contains_key(name)
                    || self.players.contains_key(name))
            {
                self.error(
                    CompileError::new(
                        CompileKind::NotAssignable,
                        format!("`{name}` cannot be changed"),
                        place.span,
                        "not a state variable",
                    )
                    .with_help("only state variables (`state ...`) and `let` names can be assigned"),
                );
                return None;
            }
        }
        if !self.is_local_place(place) && !self.may_change_state(place.span) {
            return None;
        }
        match self.expr(place) {
            Typed::Scalar(ir::Expr::Load(p), _) if p.is_const() => {
                self.error(constant_changed(place.span));
                None
            }
            Typed::Place(p, _) if p.is_const() => {
                self.error(constant_changed(place.span));
                None
            }
            Typed::Scalar(ir::Expr::Cell(off), ty) => {
                let want = if op.is_some() { Ty::Int } else { ty.clone() };
                if op.is_some() && !ty.matches(&Ty::Int) {
                    self.error(mismatch(place.span, "an int", &ty));
                }
                let value = self.scalar_of(value, &want);
                Some(Stmt::Store {
                    place: Place::Static(off),
                    op,
                    value,
                    span,
                })
            }
            Typed::Scalar(ir::Expr::Load(p), ty) => {
                let want = if op.is_some() { Ty::Int } else { ty.clone() };
                if op.is_some() && !ty.matches(&Ty::Int) {
                    self.error(mismatch(place.span, "an int", &ty));
                }
                let value = self.scalar_of(value, &want);
                Some(Stmt::Store {
                    place: *p,
                    op,
                    value,
                    span,
                })
            }
            Typed::Error => None,
            Typed::Place(p, layout) => self.assign_whole(p, layout, op, value, span),
            _ => {
                self.error(CompileError::new(
                    CompileKind::NotAssignable,
                    "this cannot be assigned to",
                    place.span,
                    "not a state variable",
                ));
                None
            }
        }
    }

    /// `list = [...]`, `set = {...}`, `rows = other_rows`: a whole list or set.
    fn assign_whole(
        &mut self,
        place: Place,
        layout: Layout,
        op: Option<ArithOp>,
        value: &ast::Expr,
        span: Span,
    ) -> Option<Stmt> {
        if op.is_some() {
            self.error(
                CompileError::new(
                    CompileKind::NotAssignable,
                    "a whole list or set can only be replaced, with `=`",
                    value.span,
                    "a list or set",
                )
                .with_help("`l = l ++ [x]`, or `l.push(x)`, adds to a list"),
            );
            return None;
        }
        match &layout {
            Layout::Set { lo, hi } => {
                let built = self.built(value)?;
                if !built.elem.matches(&Ty::Int) {
                    self.error(mismatch(value.span, "ints for a set", &built.elem));
                }
                Some(Stmt::Fill {
                    place,
                    target: ir::FillTarget::Set { lo: *lo, hi: *hi },
                    pieces: built.pieces,
                    span,
                })
            }
            Layout::List { elem, cap } if elem.is_scalar() => {
                let built = self.built(value)?;
                let want = ty_of_layout(elem);
                if !built.elem.matches(&want) {
                    self.error(mismatch(value.span, &format!("{want}s"), &built.elem));
                }
                Some(Stmt::Fill {
                    place,
                    target: ir::FillTarget::List { cap: *cap },
                    pieces: built.pieces,
                    span,
                })
            }
            Layout::List { .. } => {
                if let ExprKind::List(items) = &value.kind
                    && items.is_empty()
                {
                    return Some(Stmt::Clear {
                        words: layout.size(),
                        is_set: false,
                        place,
                    });
                }
                let typed = if is_built_syntax(value) {
                    Typed::Scalar(ir::Expr::Const(0), Ty::Error)
                } else {
                    self.expr(value)
                };
                match typed {
                    Typed::Place(src, l) if l == layout => Some(Stmt::CopyList {
                        dst: place,
                        src,
                        size: layout.size(),
                    }),
                    Typed::Error => None,
                    _ => {
                        self.error(
                            CompileError::new(
                                CompileKind::TypeMismatch,
                                "a list of lists can be assigned another of the same type, or `[]`",
                                value.span,
                                "not a list of lists of the same type",
                            )
                            .with_help("build it row by row: `rows[i] = [...]`"),
                        );
                        None
                    }
                }
            }
            _ => None,
        }
    }

    /// A list or set written in a rule (`[a, b]`, `[x; n]`, `a ++ b`, `{...}`,
    /// `[e for x in c]`), or any list of scalars, set, range or literal list
    /// taken whole.
    fn built(&mut self, e: &ast::Expr) -> Option<Built> {
        let unify = |c: &mut Self, t: &mut Ty, ti: &Ty, span: Span| {
            if !ti.matches(t) {
                c.error(mismatch(span, &article(t), ti));
            }
            if *t == Ty::Error {
                *t = ti.clone();
            }
        };
        match &e.kind {
            ExprKind::List(items) => {
                let mut elem = Ty::Error;
                let mut pieces = Vec::new();
                for item in items {
                    let (x, ti) = self.scalar(item);
                    unify(self, &mut elem, &ti, item.span);
                    pieces.push(ir::Piece::One(x));
                }
                Some(Built {
                    pieces,
                    elem,
                    set: false,
                })
            }
            ExprKind::Repeat(x, n) => {
                let (value, elem) = self.scalar(x);
                let times = self.scalar_of(n, &Ty::Int);
                Some(Built {
                    pieces: vec![ir::Piece::Repeat { value, times }],
                    elem,
                    set: false,
                })
            }
            ExprKind::Binary(BinOp::Concat, a, b) => {
                let (a, b) = (self.built(a), self.built(b));
                let (mut a, b) = (a?, b?);
                if a.set || b.set {
                    self.error(
                        mismatch(e.span, "two lists", &Ty::Set)
                            .with_help("`++` joins lists; a set is built with `{...}`"),
                    );
                }
                let mut elem = a.elem.clone();
                unify(self, &mut elem, &b.elem, e.span);
                a.pieces.extend(b.pieces);
                Some(Built {
                    pieces: a.pieces,
                    elem,
                    set: false,
                })
            }
            ExprKind::Set(items) => {
                let mut pieces = Vec::new();
                for item in items {
                    match &item.kind {
                        ExprKind::Binary(BinOp::Range | BinOp::RangeExcl, ..) => match self.expr(item) {
                            Typed::Range(lo, hi) => pieces.push(ir::Piece::All(Coll::Range { lo, hi })),
                            _ => return None,
                        },
                        _ => pieces.push(ir::Piece::One(self.scalar_of(item, &Ty::Int))),
                    }
                }
                Some(Built {
                    pieces,
                    elem: Ty::Int,
                    set: true,
                })
            }
            ExprKind::Comprehension {
                set,
                body,
                var,
                coll,
                filter,
            } => {
                let (c, elem) = self.coll(coll)?;
                self.scoped(|this| {
                    let l = this.bind_elem(var, elem);
                    let filter = filter.as_ref().map(|f| this.scalar_of(f, &Ty::Bool));
                    let (b, tb) = this.scalar(body);
                    if *set && !tb.matches(&Ty::Int) {
                        this.error(mismatch(body.span, "an int for a set", &tb));
                    }
                    Some(Built {
                        pieces: vec![ir::Piece::Gen {
                            var: l,
                            coll: c,
                            body: b,
                            filter,
                        }],
                        elem: if *set { Ty::Int } else { tb },
                        set: *set,
                    })
                })
            }
            _ => {
                let typed = self.expr(e);
                self.built_of(typed, e.span)
            }
        }
    }

    /// A list of scalars, set, range or literal list, taken whole.
    fn built_of(&mut self, typed: Typed, span: Span) -> Option<Built> {
        let (coll, elem, set) = match typed {
            Typed::Place(place, Layout::List { elem, .. }) if elem.is_scalar() => {
                (Coll::List { place }, ty_of_layout(&elem), false)
            }
            Typed::Place(place, Layout::Set { lo, hi }) => (Coll::Set { place, lo, hi }, Ty::Int, true),
            Typed::Range(lo, hi) => (Coll::Range { lo, hi }, Ty::Int, false),
            Typed::Literal(items, t) => (Coll::Literal(items), t, false),
            Typed::Error => return None,
            Typed::Place(_, layout) => {
                self.error(
                    mismatch(span, "a list of single values or a set", &ty_of_layout(&layout))
                        .with_help("lists of lists are compared and built row by row"),
                );
                return None;
            }
            Typed::Scalar(_, t) => {
                self.error(mismatch(span, "a list or a set", &t));
                return None;
            }
        };
        Some(Built {
            pieces: vec![ir::Piece::All(coll)],
            elem,
            set,
        })
    }

    /// An operand of a comparison.
    fn value(&mut self, e: &ast::Expr) -> Val {
        if is_built_syntax(e) {
            return self.built(e).map_or(Val::Error, Val::Coll);
        }
        match self.expr(e) {
            Typed::Scalar(x, t) => Val::Scalar(x, t),
            Typed::Error => Val::Error,
            other => self.built_of(other, e.span).map_or(Val::Error, Val::Coll),
        }
    }

    /// `a op b`: two ints (any `op`), two bools or players (`==`, `!=`), or
    /// two lists or two sets (compared element by element).
    fn compare(&mut self, op: CmpOp, a: &ast::Expr, b: &ast::Expr, span: Span) -> Typed {
        let order = !matches!(op, CmpOp::Eq | CmpOp::Ne);
        let mismatched = |c: &mut Self, ta: &Ty, tb: &Ty| {
            c.error(
                CompileError::new(
                    CompileKind::TypeMismatch,
                    format!("cannot compare {} with {}", article(ta), article(tb)),
                    span,
                    "compared here",
                )
                .with_note(a.span, format!("this is {}", article(ta)))
                .with_note(b.span, format!("this is {}", article(tb))),
            );
        };
        match (self.value(a), self.value(b)) {
            (Val::Scalar(x, tx), Val::Scalar(y, ty)) => {
                if order {
                    for (t, e) in [(&tx, a), (&ty, b)] {
                        if !t.matches(&Ty::Int) {
                            self.error(mismatch(e.span, "an int", t));
                        }
                    }
                } else if !tx.matches(&ty) {
                    mismatched(self, &tx, &ty);
                }
                Typed::Scalar(fold_cmp(op, x, y), Ty::Bool)
            }
            (Val::Coll(x), Val::Coll(y)) => {
                let kind = |b: &Built| {
                    if b.set {
                        Ty::Set
                    } else {
                        Ty::List(Box::new(b.elem.clone()))
                    }
                };
                if x.set != y.set || !x.elem.matches(&y.elem) {
                    mismatched(self, &kind(&x), &kind(&y));
                }
                Typed::Scalar(
                    ir::Expr::CollCmp {
                        op,
                        a: x.pieces,
                        b: y.pieces,
                        sets: x.set,
                    },
                    Ty::Bool,
                )
            }
            (Val::Error, _) | (_, Val::Error) => Typed::Scalar(ir::Expr::Const(0), Ty::Bool),
            (Val::Scalar(_, t), Val::Coll(c)) => {
                let coll = if c.set { Ty::Set } else { Ty::List(Box::new(c.elem)) };
                mismatched(self, &t, &coll);
                Typed::Scalar(ir::Expr::Const(0), Ty::Bool)
            }
            (Val::Coll(c), Val::Scalar(_, t)) => {
                let coll = if c.set { Ty::Set } else { Ty::List(Box::new(c.elem)) };
                mismatched(self, &coll, &t);
                Typed::Scalar(ir::Expr::Const(0), Ty::Bool)
            }
        }
    }

    fn method(&mut self, target: &ast::Expr, method: &ast::Ident, args: &[ast::Expr], span: Span) -> Option<Stmt> {
        if !self.is_local_place(target) && !self.may_change_state(target.span) {
            return None;
        }
        let (place, layout) = match self.expr(target) {
            Typed::Place(p, _) if p.is_const() => {
                self.error(constant_changed(target.span));
                return None;
            }
            Typed::Place(p, l) => (p, l),
            Typed::Error => return None,
            _ => {
                self.error(CompileError::new(
                    CompileKind::Method,
                    format!("`.{}` needs a list or a set of the state", method.name),
                    target.span,
                    "not a list or set",
                ));
                return None;
            }
        };
        let want_args: &[usize] = match method.name.as_str() {
            "clear" | "sort" => &[0],
            "pop" => &[0, 1],
            "insert" => &[2],
            _ => &[1],
        };
        let known = match layout {
            Layout::Set { .. } => ["add", "remove", "clear"].contains(&method.name.as_str()),
            _ => ["push", "pop", "insert", "remove", "sort", "clear"].contains(&method.name.as_str()),
        };
        if !known {
            let help = match layout {
                Layout::Set { .. } => "a set has .add(x), .remove(x) and .clear()",
                _ => "a list has .push(x), .pop(), .pop(i), .insert(i, x), .remove(x), .sort() and .clear()",
            };
            self.error(
                CompileError::new(
                    CompileKind::Method,
                    format!("there is no method `.{}` here", method.name),
                    method.span,
                    "unknown method",
                )
                .with_help(help),
            );
            return None;
        }
        if !want_args.contains(&args.len()) {
            self.error(arity_error(
                &method.name,
                want_args[want_args.len() - 1],
                args.len(),
                span,
            ));
            return None;
        }
        let scalars = matches!(&layout, Layout::List { elem, .. } if elem.is_scalar());
        if matches!(method.name.as_str(), "push" | "insert" | "remove" | "sort")
            && matches!(layout, Layout::List { .. })
            && !scalars
        {
            self.error(CompileError::new(
                CompileKind::Method,
                format!("`.{}` works on lists of ints, bools or players", method.name),
                target.span,
                "a list of lists",
            ));
            return None;
        }
        match (method.name.as_str(), &layout) {
            ("clear", _) => Some(Stmt::Clear {
                words: layout.size(),
                is_set: matches!(layout, Layout::Set { .. }),
                place,
            }),
            ("add" | "remove", Layout::Set { lo, hi }) => {
                let value = self.scalar_of(&args[0], &Ty::Int);
                let (lo, hi) = (*lo, *hi);
                Some(if method.name == "add" {
                    Stmt::SetAdd {
                        set: place,
                        lo,
                        hi,
                        value,
                        span,
                    }
                } else {
                    Stmt::SetRemove {
                        set: place,
                        lo,
                        hi,
                        value,
                        span,
                    }
                })
            }
            ("pop", Layout::List { elem, .. }) => Some(Stmt::Pop {
                list: place,
                index: args.first().map(|i| self.scalar_of(i, &Ty::Int)),
                elem_size: elem.size(),
                span,
            }),
            ("remove", Layout::List { elem, .. }) => Some(Stmt::ListRemove {
                list: place,
                value: self.scalar_of(&args[0], &ty_of_layout(elem)),
            }),
            ("insert", Layout::List { elem, cap }) => Some(Stmt::Insert {
                list: place,
                index: self.scalar_of(&args[0], &Ty::Int),
                value: self.scalar_of(&args[1], &ty_of_layout(elem)),
                cap: *cap,
                span,
            }),
            ("sort", Layout::List { .. }) => Some(Stmt::Sort { list: place }),
            ("push", Layout::List { elem, cap }) => {
                let value = self.scalar_of(&args[0], &ty_of_layout(elem));
                Some(Stmt::Push {
                    list: place,
                    cap: *cap,
                    value,
                    span,
                })
            }
            _ => None,
        }
    }

    // ------------------------------------------------------------ expressions

    /// Lowers `e`, which must be a scalar of type `want`.
    fn scalar_of(&mut self, e: &ast::Expr, want: &Ty) -> ir::Expr {
        let (x, ty) = self.scalar(e);
        if !ty.matches(want) {
            self.error(mismatch(e.span, &article(want), &ty));
        }
        x
    }

    /// Lowers `e`, which must be an int, bool or player.
    fn scalar(&mut self, e: &ast::Expr) -> (ir::Expr, Ty) {
        match self.expr(e) {
            Typed::Scalar(x, t) => (x, t),
            Typed::Error => (ir::Expr::Const(0), Ty::Error),
            Typed::Place(_, l) => {
                let t = ty_of_layout(&l);
                self.error(mismatch(e.span, "a single value", &t));
                (ir::Expr::Const(0), Ty::Error)
            }
            Typed::Range(..) => {
                self.error(mismatch(e.span, "a single value", &Ty::Range));
                (ir::Expr::Const(0), Ty::Error)
            }
            Typed::Literal(_, t) => {
                self.error(mismatch(e.span, "a single value", &Ty::List(Box::new(t))));
                (ir::Expr::Const(0), Ty::Error)
            }
        }
    }

    /// Lowers `e` as something to iterate over.
    fn coll(&mut self, e: &ast::Expr) -> Option<(Coll, Elem)> {
        match self.expr(e) {
            Typed::Range(lo, hi) => Some((Coll::Range { lo, hi }, Elem::Scalar(Ty::Int))),
            Typed::Literal(items, t) => Some((Coll::Literal(items), Elem::Scalar(t))),
            Typed::Place(place, Layout::Set { lo, hi }) => Some((Coll::Set { place, lo, hi }, Elem::Scalar(Ty::Int))),
            Typed::Place(place, Layout::List { elem, .. }) => {
                if elem.is_scalar() {
                    Some((Coll::List { place }, Elem::Scalar(ty_of_layout(&elem))))
                } else {
                    Some((Coll::Indices { place: place.clone() }, Elem::Alias(place, *elem)))
                }
            }
            Typed::Error => None,
            Typed::Scalar(_, t) => {
                self.error(
                    mismatch(e.span, "a range, list or set", &t)
                        .with_help("write a range as `1..9` (both ends included) or `0..<n` (n excluded)"),
                );
                None
            }
            Typed::Place(..) => None,
        }
    }

    /// The element `index` of the list at `list`, laid out as `elem`.
    fn elem_place(&self, list: Place, index: ir::Expr, elem: &Layout, span: Span) -> Place {
        Place::Elem {
            list: Box::new(list),
            index,
            elem_size: elem.size(),
            span,
        }
    }

    fn expr(&mut self, e: &ast::Expr) -> Typed {
        match &e.kind {
            ExprKind::Int(n) => Typed::Scalar(ir::Expr::Const(*n), Ty::Int),
            ExprKind::Bool(b) => Typed::Scalar(ir::Expr::Const(i64::from(*b)), Ty::Bool),
            ExprKind::Name(name) => self.name(name, e.span),
            ExprKind::Unary(op, a) => {
                let (want, x) = match op {
                    UnOp::Neg => (Ty::Int, self.scalar_of(a, &Ty::Int)),
                    UnOp::Not => (Ty::Bool, self.scalar_of(a, &Ty::Bool)),
                };
                let out = match (op, x) {
                    (UnOp::Neg, ir::Expr::Const(n)) if n != i64::MIN => ir::Expr::Const(-n),
                    (UnOp::Not, ir::Expr::Const(n)) => ir::Expr::Const(i64::from(n == 0)),
                    (UnOp::Neg, x) => ir::Expr::Neg(Box::new(x)),
                    (UnOp::Not, x) => ir::Expr::Not(Box::new(x)),
                };
                Typed::Scalar(out, want)
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e.span),
            ExprKind::Index(list, index) => self.index(list, index, e.span),
            ExprKind::If(c, a, b) => {
                let c = self.scalar_of(c, &Ty::Bool);
                let (x, tx) = self.scalar(a);
                let (y, ty) = self.scalar(b);
                if !tx.matches(&ty) {
                    self.error(
                        CompileError::new(
                            CompileKind::TypeMismatch,
                            format!("the two branches differ: {} and {}", article(&tx), article(&ty)),
                            b.span,
                            format!("this is {}", article(&ty)),
                        )
                        .with_note(a.span, format!("this is {}", article(&tx))),
                    );
                }
                let t = if tx == Ty::Error { ty } else { tx };
                Typed::Scalar(ir::Expr::If(Box::new(c), Box::new(x), Box::new(y)), t)
            }
            ExprKind::List(items) => {
                let mut out = Vec::new();
                let mut t = Ty::Error;
                for item in items {
                    let (x, ti) = self.scalar(item);
                    if !ti.matches(&t) {
                        self.error(mismatch(item.span, &article(&t), &ti));
                    }
                    if t == Ty::Error {
                        t = ti;
                    }
                    out.push(x);
                }
                Typed::Literal(out, t)
            }
            ExprKind::Repeat(..) | ExprKind::Set(..) | ExprKind::Comprehension { .. } => {
                self.error(built_not_here(e.span));
                Typed::Error
            }
            ExprKind::Call(name, args) => self.call(name, args, e.span),
            ExprKind::Generator {
                func,
                body,
                var,
                coll,
                filter,
            } => self.generator(func, body, var, coll, filter.as_deref(), e.span),
        }
    }

    fn name(&mut self, name: &str, span: Span) -> Typed {
        if let Some((_, b)) = self.scopes.iter().rev().find(|(n, _)| n == name) {
            return match b.clone() {
                Binding::Local(l, t) => Typed::Scalar(ir::Expr::Local(l), t),
                Binding::Alias(p, l) => Typed::Place(p, l),
            };
        }
        if let Some((offset, layout)) = self.consts.get(name) {
            return Typed::Place(Place::Const(*offset), layout.clone());
        }
        if let Some(v) = self.vars.get(name) {
            return if v.layout.is_scalar() {
                Typed::Scalar(ir::Expr::Cell(v.offset), ty_of_layout(&v.layout))
            } else {
                Typed::Place(Place::Static(v.offset), v.layout.clone())
            };
        }
        if let Some(v) = self.params.get(name).cloned() {
            return match v {
                Value::Int(n) => Typed::Scalar(ir::Expr::Const(n), Ty::Int),
                Value::Bool(b) => Typed::Scalar(ir::Expr::Const(i64::from(b)), Ty::Bool),
                Value::Player(p) => Typed::Scalar(ir::Expr::Const(p as i64), Ty::Player),
                Value::Range(lo, hi) => Typed::Range(ir::Expr::Const(lo), ir::Expr::Const(hi)),
                Value::Set(items) => Typed::Literal(items.iter().map(|&n| ir::Expr::Const(n)).collect(), Ty::Int),
                Value::List(items) => {
                    let mut t = Ty::Int;
                    let mut out = Vec::new();
                    for item in items {
                        match item {
                            Value::Int(n) => out.push(ir::Expr::Const(n)),
                            Value::Bool(b) => {
                                t = Ty::Bool;
                                out.push(ir::Expr::Const(i64::from(b)));
                            }
                            Value::Player(p) => {
                                t = Ty::Player;
                                out.push(ir::Expr::Const(p as i64));
                            }
                            _ => {
                                self.error(CompileError::new(
                                    CompileKind::NotHere,
                                    format!("the parameter `{name}` is a list of lists; rules can only use it through a state variable"),
                                    span,
                                    "used here",
                                ));
                                return Typed::Error;
                            }
                        }
                    }
                    Typed::Literal(out, t)
                }
            };
        }
        if let Some(&p) = self.players.get(name) {
            return Typed::Scalar(ir::Expr::Const(p as i64), Ty::Player);
        }
        match name {
            "current" => return Typed::Scalar(ir::Expr::Cell(ir::TURN_CELL), Ty::Player),
            "previous" => return Typed::Scalar(ir::Expr::Cell(ir::PREVIOUS_CELL), Ty::Player),
            "players" => {
                let all = (0..self.players.len()).map(|p| ir::Expr::Const(p as i64)).collect();
                return Typed::Literal(all, Ty::Player);
            }
            "turn" => {
                self.error(
                    CompileError::new(
                        CompileKind::Turn,
                        "`turn` can only be set, in a move's body: `turn = PLAYER`",
                        span,
                        "read here",
                    )
                    .with_help("the player making the move is `current`"),
                );
                return Typed::Error;
            }
            "me" => {
                self.error(
                    CompileError::new(
                        CompileKind::Me,
                        "`me` is only known inside a simultaneous move",
                        span,
                        "not in a simultaneous move",
                    )
                    .with_help("`me` is the player choosing a `simultaneous move`; elsewhere use `current`"),
                );
                return Typed::Error;
            }
            _ => {}
        }
        if name.chars().all(|c| c.is_ascii_digit()) {
            self.error(CompileError::new(
                CompileKind::Overflow,
                "this number is too large",
                span,
                "too large",
            ));
            return Typed::Error;
        }
        let known: Vec<&str> = self
            .scopes
            .iter()
            .map(|(n, _)| n.as_str())
            .chain(self.vars.keys().map(String::as_str))
            .chain(self.params.keys().map(String::as_str))
            .chain(self.players.keys().map(String::as_str))
            .chain(["current", "previous"])
            .collect();
        if self.file.states.iter().any(|s| s.name.name == name) || self.file.params.iter().any(|p| p.name.name == name)
        {
            // Declared, but its declaration failed and was reported already.
            return Typed::Error;
        }
        let mut err = CompileError::new(
            CompileKind::UnknownName,
            format!("unknown name `{name}`"),
            span,
            "not declared",
        );
        if let Some(best) = closest(name, known.iter().copied()) {
            err = err.with_help(format!("did you mean `{best}`?"));
        }
        self.error(err);
        Typed::Error
    }

    fn index(&mut self, list: &ast::Expr, index: &ast::Expr, span: Span) -> Typed {
        let base = self.expr(list);
        let (i, ti) = self.scalar(index);
        if !(ti.matches(&Ty::Int) || ti == Ty::Player) {
            self.error(mismatch(index.span, "an int", &ti));
        }
        match base {
            Typed::Place(p, Layout::List { elem, .. }) => {
                let place = self.elem_place(p, i, &elem, span);
                if elem.is_scalar() {
                    Typed::Scalar(ir::Expr::Load(Box::new(place)), ty_of_layout(&elem))
                } else {
                    Typed::Place(place, *elem)
                }
            }
            Typed::Literal(items, t) => match i {
                ir::Expr::Const(k) if k >= 0 && (k as usize) < items.len() => {
                    Typed::Scalar(items.into_iter().nth(k as usize).unwrap(), t)
                }
                _ => {
                    self.error(CompileError::new(
                        CompileKind::NotHere,
                        "a parameter list can only be indexed by a constant in range; copy it into a state variable to index it freely",
                        span,
                        "here",
                    ));
                    Typed::Error
                }
            },
            Typed::Error => Typed::Error,
            Typed::Place(_, l) => {
                self.error(
                    mismatch(list.span, "a list", &ty_of_layout(&l))
                        .with_help("sets have no order; test membership with `x in set`"),
                );
                Typed::Error
            }
            Typed::Scalar(_, t) => {
                self.error(mismatch(list.span, "a list", &t));
                Typed::Error
            }
            Typed::Range(..) => {
                self.error(mismatch(list.span, "a list", &Ty::Range));
                Typed::Error
            }
        }
    }

    fn binary(&mut self, op: BinOp, a: &ast::Expr, b: &ast::Expr, span: Span) -> Typed {
        use BinOp::*;
        match op {
            Range | RangeExcl => {
                let lo = self.scalar_of(a, &Ty::Int);
                let hi = self.scalar_of(b, &Ty::Int);
                let hi = if op == RangeExcl {
                    fold_arith(ArithOp::Sub, hi, ir::Expr::Const(1), span)
                } else {
                    hi
                };
                Typed::Range(lo, hi)
            }
            In | NotIn => {
                let (x, tx) = self.scalar(a);
                let Some((coll, elem)) = self.coll(b) else {
                    return Typed::Error;
                };
                if let Elem::Scalar(te) = &elem
                    && !tx.matches(te)
                {
                    self.error(mismatch(a.span, &article(te), &tx));
                }
                let test = ir::Expr::Contains(Box::new(coll), Box::new(x));
                Typed::Scalar(if op == In { test } else { ir::Expr::Not(Box::new(test)) }, Ty::Bool)
            }
            And | Or | Implies => {
                let x = self.scalar_of(a, &Ty::Bool);
                let y = self.scalar_of(b, &Ty::Bool);
                let e = match op {
                    And => ir::Expr::And(Box::new(x), Box::new(y)),
                    Or => ir::Expr::Or(Box::new(x), Box::new(y)),
                    _ => ir::Expr::Or(Box::new(ir::Expr::Not(Box::new(x))), Box::new(y)),
                };
                Typed::Scalar(e, Ty::Bool)
            }
            Eq | Ne | Lt | Le | Gt | Ge => {
                let cmp = match op {
                    Eq => CmpOp::Eq,
                    Ne => CmpOp::Ne,
                    Lt => CmpOp::Lt,
                    Le => CmpOp::Le,
                    Gt => CmpOp::Gt,
                    _ => CmpOp::Ge,
                };
                self.compare(cmp, a, b, span)
            }
            Concat => {
                self.error(built_not_here(span));
                Typed::Error
            }
            Add | Sub | Mul | Div | Rem => {
                let x = self.scalar_of(a, &Ty::Int);
                let y = self.scalar_of(b, &Ty::Int);
                Typed::Scalar(fold_arith(arith(op).unwrap(), x, y, span), Ty::Int)
            }
        }
    }

    fn call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Typed {
        let n = name.name.as_str();
        let one = |c: &mut Self| -> bool {
            if args.len() == 1 {
                true
            } else {
                c.error(arity_error(n, 1, args.len(), span));
                false
            }
        };
        match n {
            "len" => {
                if !one(self) {
                    return Typed::Error;
                }
                match self.coll(&args[0]) {
                    Some((coll, _)) => Typed::Scalar(ir::Expr::Len(Box::new(coll)), Ty::Int),
                    None => Typed::Error,
                }
            }
            "sum" | "count" | "any" | "all" | "min" | "max" if args.len() == 1 => {
                let Some((coll, elem)) = self.coll(&args[0]) else {
                    return Typed::Error;
                };
                let op = agg_op(n);
                let var = self.alloc_local();
                let ty = match elem {
                    Elem::Scalar(t) => t,
                    Elem::Alias(..) => {
                        self.error(mismatch(
                            args[0].span,
                            "a collection of single values",
                            &Ty::List(Box::new(Ty::List(Box::new(Ty::Int)))),
                        ));
                        Ty::Error
                    }
                };
                let want = match op {
                    AggOp::Any | AggOp::All => Ty::Bool,
                    AggOp::Count => ty.clone(),
                    _ => Ty::Int,
                };
                if !ty.matches(&want) {
                    self.error(mismatch(
                        args[0].span,
                        &format!("a collection of {want}s"),
                        &Ty::List(Box::new(ty.clone())),
                    ));
                }
                self.next_local -= 1;
                // `count` of bools counts the true ones, as in a constant; of anything else, every element.
                let counts_all = ty != Ty::Bool;
                Typed::Scalar(
                    ir::Expr::Agg {
                        op,
                        var,
                        coll: Box::new(coll),
                        body: Box::new(if op == AggOp::Count && counts_all {
                            ir::Expr::Const(1)
                        } else {
                            ir::Expr::Local(var)
                        }),
                        filter: None,
                        span,
                    },
                    if matches!(op, AggOp::Any | AggOp::All) {
                        Ty::Bool
                    } else {
                        Ty::Int
                    },
                )
            }
            "min" | "max" if args.len() >= 2 => {
                let mut items = args.iter().map(|a| self.scalar_of(a, &Ty::Int)).collect::<Vec<_>>();
                let mut acc = items.remove(0);
                // min(a, b, c) = min(min(a, b), c): each argument appears once
                // (an `if` per step would copy the running minimum twice).
                let cmp = if n == "min" { CmpOp::Le } else { CmpOp::Ge };
                for x in items {
                    acc = ir::Expr::Pick(cmp, Box::new(acc), Box::new(x));
                }
                Typed::Scalar(acc, Ty::Int)
            }
            "last" => {
                if !one(self) {
                    return Typed::Error;
                }
                match self.expr(&args[0]) {
                    Typed::Place(place, Layout::List { elem, .. }) if elem.is_scalar() => {
                        let len = ir::Expr::Len(Box::new(Coll::List { place: place.clone() }));
                        let index = ir::Expr::Arith(ArithOp::Sub, Box::new(len), Box::new(ir::Expr::Const(1)), span);
                        let at = self.elem_place(place, index, &elem, span);
                        Typed::Scalar(ir::Expr::Load(Box::new(at)), ty_of_layout(&elem))
                    }
                    Typed::Error => Typed::Error,
                    _ => {
                        self.error(CompileError::new(
                            CompileKind::TypeMismatch,
                            "`last` needs a list of the state",
                            args[0].span,
                            "not a list",
                        ));
                        Typed::Error
                    }
                }
            }
            "abs" => {
                if !one(self) {
                    return Typed::Error;
                }
                let x = self.scalar_of(&args[0], &Ty::Int);
                let neg = ir::Expr::Cmp(CmpOp::Lt, Box::new(x.clone()), Box::new(ir::Expr::Const(0)));
                Typed::Scalar(
                    ir::Expr::If(Box::new(neg), Box::new(ir::Expr::Neg(Box::new(x.clone()))), Box::new(x)),
                    Ty::Int,
                )
            }
            "next" => {
                if !one(self) {
                    return Typed::Error;
                }
                let p = self.scalar_of(&args[0], &Ty::Player);
                let count = self.players.len().max(1) as i64;
                let succ = fold_arith(ArithOp::Add, p, ir::Expr::Const(1), span);
                Typed::Scalar(fold_arith(ArithOp::Rem, succ, ir::Expr::Const(count), span), Ty::Player)
            }
            "sum" | "count" | "any" | "all" | "min" | "max" => {
                self.error(arity_error(n, 1, args.len(), span));
                Typed::Error
            }
            _ => {
                let Some(sig) = self.fn_sigs.get(n).cloned() else {
                    let known: Vec<String> = self.fn_sigs.keys().cloned().collect();
                    self.error(unknown_function(n, name.span, known.iter()));
                    return Typed::Error;
                };
                if sig.is_proc {
                    self.error(
                        CompileError::new(
                            CompileKind::Procedure,
                            format!("`{n}` is a procedure: it changes the state and has no value"),
                            span,
                            "used as a value",
                        )
                        .with_help(format!("run it as a statement: `{n}(...)`")),
                    );
                    return Typed::Error;
                }
                if args.len() != sig.params.len() {
                    self.error(arity_error(n, sig.params.len(), args.len(), span));
                    return Typed::Error;
                }
                let args = args
                    .iter()
                    .zip(&sig.params)
                    .map(|(a, t)| self.scalar_of(a, t))
                    .collect();
                Typed::Scalar(
                    ir::Expr::Call {
                        func: sig.index,
                        args,
                        span,
                    },
                    sig.ret,
                )
            }
        }
    }

    fn generator(
        &mut self,
        func: &ast::Ident,
        body: &ast::Expr,
        var: &ast::Ident,
        coll: &ast::Expr,
        filter: Option<&ast::Expr>,
        span: Span,
    ) -> Typed {
        let n = func.name.as_str();
        if !["sum", "count", "any", "all", "min", "max"].contains(&n) {
            self.error(
                CompileError::new(
                    CompileKind::Generator,
                    format!("`{n}(... for ...)` is not an aggregate"),
                    func.span,
                    "not sum, count, min, max, any or all",
                )
                .with_help("a generator works with sum, count, min, max, any and all"),
            );
            return Typed::Error;
        }
        let Some((c, elem)) = self.coll(coll) else {
            return Typed::Error;
        };
        let op = agg_op(n);
        self.scoped(|this| {
            let l = this.bind_elem(var, elem);
            let filter = filter.map(|f| Box::new(this.scalar_of(f, &Ty::Bool)));
            let (b, tb) = this.scalar(body);
            let (b, want) = match op {
                AggOp::Any | AggOp::All => (b, Ty::Bool),
                // count(x for x in c if p) counts the elements that pass; a bool body is a filter too.
                AggOp::Count if tb == Ty::Bool => (b, Ty::Bool),
                AggOp::Count => (ir::Expr::Const(1), tb.clone()),
                _ => (b, Ty::Int),
            };
            if !tb.matches(&want) {
                this.error(mismatch(body.span, &article(&want), &tb));
            }
            Typed::Scalar(
                ir::Expr::Agg {
                    op,
                    var: l,
                    coll: Box::new(c),
                    body: Box::new(b),
                    filter,
                    span,
                },
                if matches!(op, AggOp::Any | AggOp::All) {
                    Ty::Bool
                } else {
                    Ty::Int
                },
            )
        })
    }
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
