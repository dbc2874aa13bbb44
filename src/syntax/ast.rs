//! The typed syntax tree of a `.game` file. Every node keeps its byte span.

use std::fmt;

/// A byte range in the source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> Self {
        (s.start, s.end - s.start).into()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// The name a `canonical { ... }` block is kept under among the procedures
/// (a keyword, so no other declaration or call can use it).
pub const CANONICAL: &str = "canonical";

/// The names a `display` block's parts are kept under among the functions:
/// `display cell`, `display size 0` (a space, so no declaration or call can
/// use them).
pub const DISPLAY_PREFIX: &str = "display ";

/// The function name a display part is kept under.
pub fn display_fn_name(part: &str) -> String {
    format!("{DISPLAY_PREFIX}{part}")
}

/// The function name of a display's `i`-th size (`grid(ROWS, COLS)`).
pub fn display_size_name(i: usize) -> String {
    format!("{DISPLAY_PREFIX}size {i}")
}

/// The names the invariants are kept under among the functions, in the
/// order they are declared: `invariant 1`, or with its label `invariant 1
/// "one king each"` (a space, so no declaration or call can use them).
pub const INVARIANT_PREFIX: &str = "invariant ";

/// The function name the `n`-th invariant (from 1) is kept under.
pub fn invariant_fn_name(n: usize, label: Option<&str>) -> String {
    match label {
        Some(label) => format!("{INVARIANT_PREFIX}{n} \"{label}\""),
        None => format!("{INVARIANT_PREFIX}{n}"),
    }
}

/// A whole `.game` file as parsed: its declarations, with their spans.
#[derive(Clone, Debug, Default)]
pub struct SyntaxTree {
    pub name: String,
    pub name_span: Span,
    pub players: Vec<Ident>,
    /// `players count P`: the expression giving the number of players.
    pub player_count: Option<Expr>,
    pub players_span: Option<Span>,
    pub params: Vec<Param>,
    pub consts: Vec<ConstDecl>,
    pub requires: Vec<Require>,
    /// The invariants, in order; each condition is also a function of
    /// [`SyntaxTree::fns`] (named by [`invariant_fn_name`]), checked and
    /// lowered as functions are, which may not change the state.
    pub invariants: Vec<Invariant>,
    pub states: Vec<StateVar>,
    pub fns: Vec<FnDecl>,
    pub moves: Vec<MoveDecl>,
    pub ends: Vec<EndDecl>,
    /// The `display` blocks (a game has at most one; the compiler says so).
    pub displays: Vec<DisplayDecl>,
    /// `max moves N`: each bound and the whole declaration (a game has at
    /// most one; the compiler says so).
    pub max_moves: Vec<(Expr, Span)>,
}

/// `display grid(3, 3) { cell(r, c) = ...; symbols ".", "X", "O" }`: how a
/// position is drawn. Its sizes and parts are also functions in
/// [`SyntaxTree::fns`] (named by [`display_fn_name`] and [`display_size_name`]),
/// so that they are checked and lowered as functions are, which may not
/// change the state.
#[derive(Clone, Debug)]
pub struct DisplayDecl {
    /// `grid`, `rhombus`, `pits` or `rows`, as written.
    pub layout: Ident,
    /// The sizes in parentheses, where each was written.
    pub sizes: Vec<Span>,
    /// Each part's name, how many arguments it takes, and where it stands.
    pub parts: Vec<DisplayPart>,
    /// What the values 0, 1, 2, ... are drawn as, and where each was written.
    pub symbols: Vec<(String, Span)>,
    /// The colour each symbol is drawn in, and where each was written.
    pub colours: Vec<(String, Span)>,
    /// `style NAME`, as written.
    pub style: Option<Ident>,
    /// `click NAME`, as written.
    pub click: Option<Ident>,
    /// `cards FIELD, FIELD`: the state fields drawn as cards.
    pub cards: Vec<Ident>,
    /// `sides PLAYER, PLAYER`: who owns each side of the board.
    pub sides: Vec<Ident>,
    /// `names FIELD "a", "b"`: each a field and the names of its values 0,
    /// 1, ..., each where it was written.
    pub names: Vec<(Ident, Vec<(String, Span)>)>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct DisplayPart {
    pub name: Ident,
    pub arity: usize,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: Ident,
    pub ty: TypeExpr,
    pub default: Option<Expr>,
    pub range: Option<Expr>,
    /// The `///` comment lines right above the declaration.
    pub doc: String,
    pub span: Span,
}

/// `const lines: list<list<int>> = [...]`: a value the rules read.
#[derive(Clone, Debug)]
pub struct ConstDecl {
    pub name: Ident,
    pub ty: TypeExpr,
    pub value: Expr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Require {
    pub cond: Expr,
    pub message: Option<String>,
    pub span: Span,
}

/// `invariant "one king each": ...`: a condition every position meets.
#[derive(Clone, Debug)]
pub struct Invariant {
    /// The label, as written between the quotes.
    pub label: Option<String>,
    /// The name of the function that holds its condition.
    pub fn_name: String,
    /// The condition's span.
    pub cond: Span,
    pub span: Span,
}

/// Who may see a state variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Visibility {
    #[default]
    Public,
    /// Seen by nobody (a shuffled deck).
    Hidden,
    /// A per-player value, each entry seen by its own player only (a hand).
    Private,
}

/// Who makes a kind of move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MoveBy {
    /// The player to move; then the turn passes on.
    #[default]
    Turn,
    /// Chance, among the legal moves, by their weights (uniformly without).
    Chance,
    /// Every player at once, in secret.
    Simultaneous,
}

#[derive(Clone, Debug)]
pub struct StateVar {
    pub visibility: Visibility,
    pub name: Ident,
    pub ty: TypeExpr,
    pub init: Expr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct FnDecl {
    pub name: Ident,
    pub params: Vec<(Ident, TypeExpr)>,
    /// The result's type; `None` for a procedure.
    pub ret: Option<TypeExpr>,
    /// The defining expression (for a function given by statements, a
    /// placeholder `0` spanning them, which a constant expression never runs).
    pub body: Expr,
    /// The statements of a function or procedure written with a block.
    pub block: Option<Vec<Stmt>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct MoveDecl {
    pub by: MoveBy,
    pub name: Ident,
    /// Each argument and the collection it is drawn from.
    pub args: Vec<(Ident, Expr)>,
    pub requires: Vec<Expr>,
    /// A chance move's `weight`: how likely each choice is, relative to the others.
    pub weight: Option<Expr>,
    pub body: Vec<Stmt>,
    /// A simultaneous move's `then` block: runs once, after every player's body.
    pub then: Option<(Vec<Stmt>, Span)>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct EndDecl {
    pub cond: EndCond,
    pub outcomes: Vec<Outcome>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum EndCond {
    /// A bool, in which `no moves` ([`ExprKind::NoMoves`]) may be a term.
    Expr(Expr),
    /// `repeated N`: a move reached a position for the Nth time; the span is
    /// the whole condition.
    Repeated(Expr, Span),
}

#[derive(Clone, Debug)]
pub enum Outcome {
    Winner(Expr),
    Loser(Expr),
    Draw(Span),
    Payoff(Expr),
    /// `lowest points wins` (`lowest` true) or `highest points wins`.
    Score {
        lowest: bool,
        scores: Expr,
        span: Span,
    },
}

#[derive(Clone, Debug)]
pub enum TypeExpr {
    Int(Span),
    Bool(Span),
    Player(Span),
    List {
        elem: Box<TypeExpr>,
        capacity: Option<Expr>,
        span: Span,
    },
    Set {
        range: Expr,
        span: Span,
    },
    /// `per player T`
    PerPlayer(Box<TypeExpr>, Span),
}

impl TypeExpr {
    pub fn span(&self) -> Span {
        match self {
            TypeExpr::Int(s) | TypeExpr::Bool(s) | TypeExpr::Player(s) => *s,
            TypeExpr::List { span, .. } | TypeExpr::Set { span, .. } | TypeExpr::PerPlayer(_, span) => *span,
        }
    }
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Let {
        name: Ident,
        /// The written type: needed for a local list or set.
        ty: Option<TypeExpr>,
        value: Expr,
        span: Span,
    },
    Assign {
        place: Expr,
        op: Option<BinOp>,
        value: Expr,
        span: Span,
    },
    If {
        cond: Expr,
        then: Vec<Stmt>,
        otherwise: Vec<Stmt>,
        span: Span,
    },
    For {
        var: Ident,
        coll: Expr,
        body: Vec<Stmt>,
        span: Span,
    },
    /// `again`: the player who moved moves again.
    Again(Span),
    While {
        cond: Expr,
        body: Vec<Stmt>,
        span: Span,
    },
    /// `return x`, or `return` in a procedure.
    Return {
        value: Option<Expr>,
        span: Span,
    },
    /// `sow(pit)`: a procedure run as a statement.
    ProcCall {
        name: Ident,
        args: Vec<Expr>,
        span: Span,
    },
    /// `target.method(args)`
    Call {
        target: Expr,
        method: Ident,
        args: Vec<Expr>,
        span: Span,
    },
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Implies,
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    Range,
    RangeExcl,
    Concat,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Implies => "implies",
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::In => "in",
            BinOp::NotIn => "not in",
            BinOp::Range => "..",
            BinOp::RangeExcl => "..<",
            BinOp::Concat => "++",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    Name(String),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Call(Ident, Vec<Expr>),
    /// `sum(body for var in coll if filter)`
    Generator {
        func: Ident,
        body: Box<Expr>,
        var: Ident,
        coll: Box<Expr>,
        filter: Option<Box<Expr>>,
    },
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `no moves`: nobody can move; a term of an `end when` condition only.
    NoMoves,
    List(Vec<Expr>),
    Repeat(Box<Expr>, Box<Expr>),
    Set(Vec<Expr>),
    /// `[body for var in coll if filter]`, or with braces a set.
    Comprehension {
        set: bool,
        body: Box<Expr>,
        var: Ident,
        coll: Box<Expr>,
        filter: Option<Box<Expr>>,
    },
}

/// S-expressions, for snapshots of the parser's output.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn list(f: &mut fmt::Formatter<'_>, open: &str, items: &[Expr], close: &str) -> fmt::Result {
            f.write_str(open)?;
            for (i, e) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{e}")?;
            }
            f.write_str(close)
        }
        match &self.kind {
            ExprKind::Int(n) => write!(f, "{n}"),
            ExprKind::Bool(b) => write!(f, "{b}"),
            ExprKind::Name(n) => f.write_str(n),
            ExprKind::Unary(UnOp::Neg, e) => write!(f, "(- {e})"),
            ExprKind::Unary(UnOp::Not, e) => write!(f, "(not {e})"),
            ExprKind::Binary(op, a, b) => write!(f, "({} {a} {b})", op.symbol()),
            ExprKind::Index(a, i) => write!(f, "(index {a} {i})"),
            ExprKind::Call(name, args) => {
                write!(f, "({}", name.name)?;
                for a in args {
                    write!(f, " {a}")?;
                }
                f.write_str(")")
            }
            ExprKind::Generator {
                func,
                body,
                var,
                coll,
                filter,
            } => {
                write!(f, "({} {body} for {} in {coll}", func.name, var.name)?;
                if let Some(c) = filter {
                    write!(f, " if {c}")?;
                }
                f.write_str(")")
            }
            ExprKind::If(c, a, b) => write!(f, "(if {c} {a} {b})"),
            ExprKind::NoMoves => f.write_str("no-moves"),
            ExprKind::List(items) => list(f, "[", items, "]"),
            ExprKind::Repeat(e, n) => write!(f, "[{e}; {n}]"),
            ExprKind::Set(items) => list(f, "{", items, "}"),
            ExprKind::Comprehension {
                set,
                body,
                var,
                coll,
                filter,
            } => {
                let (open, close) = if *set { ("{", "}") } else { ("[", "]") };
                write!(f, "{open}{body} for {} in {coll}", var.name)?;
                if let Some(c) = filter {
                    write!(f, " if {c}")?;
                }
                f.write_str(close)
            }
        }
    }
}
