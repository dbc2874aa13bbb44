//! The IR the interpreter runs: names resolved to slots, parameters folded to
//! constants, types checked. Nothing here looks up a string at run time.
//!
//! A state is a flat array of `i64` cells. Cell 0 holds the player to move and
//! cell 1 the player who moved last; the game's own variables follow, each at
//! a fixed offset with a fixed [`Layout`].

pub mod code;
mod inline;
pub mod lower_code;
mod stages;

use std::sync::Arc;

use miette::NamedSource;

pub use crate::syntax::ast::{MoveBy, Span, Visibility};
pub(crate) use inline::{reads_cell, walk};

/// The cell that holds the player to move.
pub const TURN_CELL: usize = 0;
/// The cell that holds the player who made the last move (-1 before any move).
pub const PREVIOUS_CELL: usize = 1;
/// The first cell of the game's own variables.
pub const FIRST_VAR_CELL: usize = 2;

/// A turn local's value while the body has not said who moves next.
pub const TURN_UNSET: i64 = i64::MIN;

/// At most this many arguments per move, so a move is a small `Copy` value.
pub const MAX_MOVE_ARGS: usize = 4;

/// A compiled game, its parameters bound.
#[derive(Clone, Debug)]
pub struct Program {
    pub name: String,
    pub players: Vec<String>,
    pub source: Arc<NamedSource<String>>,
    /// The parameters and the values they were bound to, for reports.
    pub params: Vec<(String, String)>,
    pub cell_count: usize,
    pub initial: Vec<i64>,
    /// The `const` values the rules read, laid out as state variables are
    /// (see [`Place::Const`]).
    pub consts: Vec<i64>,
    pub vars: Vec<Var>,
    pub fns: Vec<Function>,
    pub moves: Vec<MoveKind>,
    pub ends: Vec<End>,
    /// Whether any move is made by chance, or by all players at once.
    pub has_chance: bool,
    pub has_simultaneous: bool,
    /// The procedure of the `canonical { ... }` block, if any: it turns a
    /// position into the representative the memo table and Q-learning key by.
    pub canonical: Option<usize>,
    /// How a position is drawn (the `display` block), if the game says.
    pub display: Option<Display>,
    /// The conditions every position meets (`invariant`), in order.
    pub invariants: Vec<Invariant>,
    /// `max moves N`: no game is longer than N moves of the players (a
    /// promise of the file, which play checks).
    pub max_moves: Option<u64>,
}

impl Program {
    /// The repetition rule: how many times a position may occur (N of
    /// `end when repeated N`), and the index of its clause in `ends`.
    pub fn repetition(&self) -> Option<(u32, usize)> {
        self.ends.iter().enumerate().find_map(|(i, e)| match e.cond {
            EndCond::Repeated(n) => Some((n, i)),
            _ => None,
        })
    }
}

/// `invariant "one king each": ...`: a condition every position of the
/// game meets. The runtime checks it on positions that come from outside
/// the rules (read from text or from cells), never on those play reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invariant {
    /// The function (an index into [`Program::fns`]) that gives the condition.
    pub func: usize,
    /// The label, as written between the quotes.
    pub label: Option<String>,
    /// The whole declaration.
    pub span: Span,
}

/// A `display` block, checked: its layout, and the functions (indices into
/// [`Program::fns`]) that give its sizes and its parts. The rules never run
/// them; the runtime runs them on the VM when a position is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Display {
    pub layout: DisplayLayout,
    /// `grid(ROWS, COLS)`: the rows then the columns; `pits(N)`, `rows(N)`: N.
    pub sizes: Vec<usize>,
    /// Each part the layout knows (see [`DisplayLayout::parts`]), if given.
    pub parts: Vec<Option<usize>>,
    /// What the values 0, 1, 2, ... are drawn as; another value is drawn as its number.
    pub symbols: Vec<String>,
    /// How a page draws it: its style and the symbols' colours.
    pub look: crate::board::Look,
    /// The whole block in the file: a trained file's hash of the rules
    /// leaves it out, since how a position is drawn changes no value.
    pub span: Span,
}

impl Display {
    /// The function of the part `name`, if the display gives it.
    pub fn part(&self, name: &str) -> Option<usize> {
        let at = self.layout.parts().iter().position(|(n, _, _)| *n == name)?;
        self.parts.get(at).copied().flatten()
    }
}

/// The shapes a display can take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DisplayLayout {
    /// Rows of cells, the first row at the top: tic-tac-toe, connect four.
    Grid,
    /// A grid whose every row is shifted half a cell right of the one above: Hex.
    Rhombus,
    /// A row of pits, another above it, and a store at either end: Kalah.
    Pits,
    /// Rows of objects, each a count drawn as that many symbols: Nim.
    Rows,
    /// No board: the state's fields as each player may see them, those
    /// named by `cards` drawn as cards (Kuhn poker, X Nimmt!). The terminal
    /// shows the fields as it does without a display.
    Fields,
}

impl DisplayLayout {
    pub const ALL: &[DisplayLayout] = &[
        DisplayLayout::Grid,
        DisplayLayout::Rhombus,
        DisplayLayout::Pits,
        DisplayLayout::Rows,
        DisplayLayout::Fields,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DisplayLayout::Grid => "grid",
            DisplayLayout::Rhombus => "rhombus",
            DisplayLayout::Pits => "pits",
            DisplayLayout::Rows => "rows",
            DisplayLayout::Fields => "fields",
        }
    }

    /// What goes in the parentheses: `grid(ROWS, COLS)`.
    pub fn sizes(self) -> &'static [&'static str] {
        match self {
            DisplayLayout::Grid | DisplayLayout::Rhombus => &["ROWS", "COLS"],
            DisplayLayout::Pits => &["PITS"],
            DisplayLayout::Rows => &["ROWS"],
            DisplayLayout::Fields => &[],
        }
    }

    /// The parts it draws: each name, how many arguments it takes, whether it
    /// must be given.
    pub fn parts(self) -> &'static [(&'static str, usize, bool)] {
        match self {
            // `line`: how many in a row win, for the page to mark the line.
            // `plays(r, c)`: the move a click on the cell plays, written as
            // that number (Lights Out's press of one light changes several).
            DisplayLayout::Grid => &[("cell", 2, true), ("line", 0, false), ("plays", 2, false)],
            DisplayLayout::Rhombus => &[("cell", 2, true), ("plays", 2, false)],
            DisplayLayout::Pits => &[
                ("bottom", 1, true),
                ("top", 1, false),
                ("left", 0, false),
                ("right", 0, false),
            ],
            DisplayLayout::Rows => &[("row", 1, true), ("label", 1, false)],
            DisplayLayout::Fields => &[],
        }
    }

    /// How each part is written, for messages: `cell(r, c)`.
    pub fn part_example(name: &str, arity: usize) -> String {
        match arity {
            0 => name.to_string(),
            1 => format!("{name}(i)"),
            _ => format!("{name}(r, c)"),
        }
    }
}

/// A state variable: where it lives and how it is laid out.
#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub offset: usize,
    pub layout: Layout,
    pub visibility: Visibility,
}

/// How a value is stored in cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    Int,
    Bool,
    Player,
    /// A bitset of the numbers `lo..=hi`, 64 to a cell.
    Set {
        lo: i64,
        hi: i64,
    },
    /// A length cell, then room for `cap` elements.
    List {
        elem: Box<Layout>,
        cap: usize,
    },
}

impl Place {
    /// Whether this is (an element of) a constant.
    pub fn is_const(&self) -> bool {
        match self {
            Place::Static(_) | Place::Local(_) => false,
            Place::Const(_) => true,
            Place::Elem { list, .. } => list.is_const(),
        }
    }

    /// Whether this is (an element of) a local list or set, which even a
    /// function may change: it is no part of the position.
    pub fn is_local(&self) -> bool {
        match self {
            Place::Local(_) => true,
            Place::Static(_) | Place::Const(_) => false,
            Place::Elem { list, .. } => list.is_local(),
        }
    }
}

impl Layout {
    /// How many cells a value of this layout takes, or `None` past `usize`
    /// (nested lists and `per player` multiply).
    pub fn checked_size(&self) -> Option<usize> {
        match self {
            Layout::List { elem, cap } => cap.checked_mul(elem.checked_size()?)?.checked_add(1),
            _ => Some(self.size()),
        }
    }

    /// How many cells a value of this layout takes.
    pub fn size(&self) -> usize {
        match self {
            Layout::Int | Layout::Bool | Layout::Player => 1,
            Layout::Set { lo, hi } => set_words(*lo, *hi),
            Layout::List { elem, cap } => 1 + cap * elem.size(),
        }
    }

    pub fn is_scalar(&self) -> bool {
        matches!(self, Layout::Int | Layout::Bool | Layout::Player)
    }
}

/// Cells needed for a bitset over `lo..=hi`.
pub fn set_words(lo: i64, hi: i64) -> usize {
    if hi < lo { 1 } else { ((hi - lo) as usize / 64) + 1 }
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub params: usize,
    pub locals: usize,
    pub body: Expr,
    /// The statements of a function or procedure written with a block
    /// (then `body` is unused): a function's end in `Stmt::Return`.
    pub block: Option<Vec<Stmt>>,
}

#[derive(Clone, Debug)]
pub struct MoveKind {
    pub by: MoveBy,
    pub name: String,
    pub span: Span,
    /// For a simultaneous move: the local that holds the player choosing (`me`).
    pub me_local: Option<usize>,
    /// For a simultaneous move: runs once, after every player's body.
    pub then: Vec<Stmt>,
    /// The local where the body's `again` or `turn = p` puts who moves
    /// next (`None` when the body never says); the runtime starts it at
    /// [`TURN_UNSET`].
    pub turn_local: Option<usize>,
    /// The same for a simultaneous move's `then` block.
    pub then_turn_local: Option<usize>,
    pub args: Vec<MoveArg>,
    pub requires: Vec<Expr>,
    /// A chance move's weight, of its arguments (`None`: 1), and where it is written.
    pub weight: Option<(Expr, Span)>,
    pub body: Vec<Stmt>,
    pub locals: usize,
}

#[derive(Clone, Debug)]
pub struct MoveArg {
    pub name: String,
    /// Arguments take the first locals, in order.
    pub local: usize,
    pub domain: Coll,
    pub layout: Layout,
}

#[derive(Clone, Debug)]
pub struct End {
    pub cond: EndCond,
    pub outcome: Outcome,
    pub locals: usize,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum EndCond {
    /// `end when COND`.
    When(Cond),
    /// `repeated N`: never holds by itself; the algorithms keep the history
    /// and end the game with this clause's outcome ([`Program::repetition`]).
    Repeated(u32),
}

/// An end clause's condition: an expression, or `no moves`, or the two
/// combined with `and`, `or` and `not` (`implies` as `not a or b`). The
/// terms are tried left to right, `and` and `or` stopping as soon as they
/// know, so `no moves` costs a search for a legal move only when it is
/// reached.
#[derive(Clone, Debug)]
pub enum Cond {
    /// A bool without `no moves` in it.
    Expr(Expr),
    /// Nobody can move: the player to move has no legal move, and no chance
    /// or simultaneous move is legal.
    NoMoves,
    Not(Box<Cond>),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
}

impl Cond {
    /// Each expression term, in order.
    pub fn exprs_mut(&mut self, f: &mut impl FnMut(&mut Expr)) {
        match self {
            Cond::Expr(e) => f(e),
            Cond::NoMoves => {}
            Cond::Not(a) => a.exprs_mut(f),
            Cond::And(a, b) | Cond::Or(a, b) => {
                a.exprs_mut(f);
                b.exprs_mut(f);
            }
        }
    }
}

#[derive(Clone, Debug)]
pub enum Outcome {
    Winner {
        player: Expr,
        payoff: Option<Expr>,
    },
    Loser {
        player: Expr,
        payoff: Option<Expr>,
    },
    Draw,
    /// A score per player (a `per player int`) decides: the lowest wins, or the highest.
    Score {
        lowest: bool,
        scores: Place,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// Whether `x op y` holds: what the executor runs and the compiler folds.
#[inline(always)]
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggOp {
    Sum,
    Count,
    Min,
    Max,
    Any,
    All,
}

/// An expression whose value fits a cell: an int, a bool (0 or 1), a player.
#[derive(Clone, Debug)]
pub enum Expr {
    Const(i64),
    Local(usize),
    Cell(usize),
    Load(Box<Place>),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Arith(ArithOp, Box<Expr>, Box<Expr>, Span),
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `a` if `a OP b` holds, else `b`, each evaluated once: `min(a, b)` is
    /// `Pick(Le, a, b)`, `max(a, b)` is `Pick(Ge, a, b)`.
    Pick(CmpOp, Box<Expr>, Box<Expr>),
    Len(Box<Coll>),
    /// `op(body for var in coll if filter)`; `var` is a local.
    Agg {
        op: AggOp,
        var: usize,
        coll: Box<Coll>,
        body: Box<Expr>,
        filter: Option<Box<Expr>>,
        span: Span,
    },
    Contains(Box<Coll>, Box<Expr>),
    /// Two lists (or two sets: `sets`) compared element by element, the
    /// first difference deciding (a shorter list that is a start of the
    /// other is less).
    CollCmp {
        op: CmpOp,
        a: Vec<Piece>,
        b: Vec<Piece>,
        sets: bool,
    },
    Call {
        func: usize,
        args: Vec<Expr>,
        span: Span,
    },
    /// `body` with `value` in the local `local` (made by inlining a call:
    /// an argument evaluated once, before the body).
    Let {
        local: usize,
        value: Box<Expr>,
        body: Box<Expr>,
    },
}

/// Something to iterate over or test membership in.
#[derive(Clone, Debug)]
pub enum Coll {
    /// `lo..=hi`
    Range {
        lo: Expr,
        hi: Expr,
    },
    /// The values of a list of scalars.
    List {
        place: Place,
    },
    /// The indexes `0..len` of a list (iterating a list of lists binds the index).
    Indices {
        place: Place,
    },
    Set {
        place: Place,
        lo: i64,
        hi: i64,
    },
    /// A literal list of values.
    Literal(Vec<Expr>),
}

/// Where a value lives in the state, or in the constants.
#[derive(Clone, Debug)]
pub enum Place {
    Static(usize),
    /// A list of the constants, laid out at this offset of [`Program::consts`];
    /// it and its elements are read only.
    Const(usize),
    /// A local list or set (`let seen: set<0..8> = {}`): its cells lie in the
    /// scratch area of the call that runs the rule, never in the state; the
    /// local holds the address of its first cell (see [`Stmt::LocalColl`]).
    Local(usize),
    /// Element `index` of the list whose length cell is at `list`.
    Elem {
        list: Box<Place>,
        index: Expr,
        elem_size: usize,
        span: Span,
    },
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Store {
        place: Place,
        op: Option<ArithOp>,
        value: Expr,
        span: Span,
    },
    SetLocal {
        local: usize,
        op: Option<ArithOp>,
        value: Expr,
        span: Span,
    },
    If {
        cond: Expr,
        then: Vec<Stmt>,
        otherwise: Vec<Stmt>,
    },
    For {
        var: usize,
        coll: Coll,
        body: Vec<Stmt>,
    },
    SetAdd {
        set: Place,
        lo: i64,
        hi: i64,
        value: Expr,
        span: Span,
    },
    SetRemove {
        set: Place,
        lo: i64,
        hi: i64,
        value: Expr,
        span: Span,
    },
    Push {
        list: Place,
        cap: usize,
        value: Expr,
        span: Span,
    },
    /// Empties a list (sets its length to 0) or a set (clears its words).
    Clear {
        place: Place,
        words: usize,
        is_set: bool,
    },
    /// Runs `body` while `cond` holds, each round a step of the budget.
    While {
        cond: Expr,
        body: Vec<Stmt>,
        span: Span,
    },
    /// Ends a function with a value, or a procedure.
    Return(Option<Expr>),
    /// Runs the procedure `func`.
    Call {
        func: usize,
        args: Vec<Expr>,
        span: Span,
    },
    /// `list = [...]`, `set = {...}`: the pieces are all computed first,
    /// then they replace the list's elements or the set's members.
    Fill {
        place: Place,
        target: FillTarget,
        pieces: Vec<Piece>,
        span: Span,
    },
    /// `rows = other_rows`: a whole list of lists, copied cell by cell from a
    /// list of the same layout (in the state or the constants).
    CopyList {
        dst: Place,
        src: Place,
        size: usize,
    },
    /// `list.pop()` (the last element) or `list.pop(i)`.
    Pop {
        list: Place,
        index: Option<Expr>,
        elem_size: usize,
        span: Span,
    },
    /// `list.remove(x)`: the first element equal to `x`, if any.
    ListRemove {
        list: Place,
        value: Expr,
    },
    /// `list.insert(i, x)`: `x` before element `i` (at the end when `i` is the length).
    Insert {
        list: Place,
        index: Expr,
        value: Expr,
        cap: usize,
        span: Span,
    },
    /// `list.sort()`: ascending.
    Sort {
        list: Place,
    },
    /// `let seen: set<0..8> = {}`: the local `local` gets the address of
    /// `size` cells at `offset` of the rule's scratch area, then `init` (a
    /// `Fill`, `Clear` or `CopyList` of `Place::Local(local)`) gives them
    /// their first value, each time the statement runs.
    LocalColl {
        local: usize,
        offset: usize,
        size: usize,
        init: Box<Stmt>,
    },
}

/// The scratch cells a rule's local lists and sets take (each `let` its own
/// cells, however its blocks nest): 0 for a rule without any.
pub fn scratch_size(body: &[Stmt]) -> usize {
    body.iter()
        .map(|s| match s {
            Stmt::LocalColl { offset, size, .. } => offset + size,
            Stmt::If { then, otherwise, .. } => scratch_size(then).max(scratch_size(otherwise)),
            Stmt::For { body, .. } | Stmt::While { body, .. } => scratch_size(body),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

/// What a `Stmt::Fill` fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FillTarget {
    /// A list of scalars holding at most `cap`.
    List { cap: usize },
    /// A set of `lo..=hi`.
    Set { lo: i64, hi: i64 },
}

/// A run of the values of a list or set being built, in order.
#[derive(Clone, Debug)]
pub enum Piece {
    One(Expr),
    /// Every element of a collection.
    All(Coll),
    /// `[value; times]`
    Repeat {
        value: Expr,
        times: Expr,
    },
    /// `[body for var in coll if filter]`; `var` is a local.
    Gen {
        var: usize,
        coll: Coll,
        body: Expr,
        filter: Option<Expr>,
    },
}
