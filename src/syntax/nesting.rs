//! Guards against files nested far deeper than any game: the parser and every
//! later pass recurse once per level of nesting, so a file of 100,000 `(` or
//! a chain of 10,000 `+` would overflow the stack. pest stops before its stack
//! runs out, the step from its parse tree to the syntax tree refuses to build
//! anything much deeper than a game may be (`parser::Cx`), and a syntax tree
//! nested deeper than [`MAX_NESTING`] is refused with an error before any
//! other pass sees it. Large files are parsed on a thread of their own with
//! a generous stack, or, where the system cannot give one (an address-space
//! limit), on the caller's: the guards hold on any stack.

use super::ast::*;
use super::file_error::FileError;
use super::syntax_kind::SyntaxKind;

/// The largest game file gdl reads, in bytes.
pub const MAX_SOURCE_LEN: usize = 1 << 20;

/// The deepest nesting of expressions, statements and types in a file. Each
/// operator counts as a level: `1 + 1 + 1` is three levels deep.
pub const MAX_NESTING: usize = 200;

/// The parser's stack: room for every file gdl accepts, with pest's guard
/// ending deeper ones. Only the part that is used takes memory, but all of it
/// takes address space, so it is no larger than that.
const PARSE_STACK: usize = 64 << 20;

/// Parses `source`, refusing files that are too large or nested too deeply.
pub fn parse(source: &str) -> Result<GameFile, FileError> {
    if source.len() > MAX_SOURCE_LEN {
        return Err(FileError::new(
            SyntaxKind::TooLarge,
            format!(
                "this file has {} bytes; a game file may have at most {} (1 MiB)",
                source.len(),
                MAX_SOURCE_LEN
            ),
            Span::new(0, 0),
            "the file starts here",
        )
        .with_help("is this the right file? a game's rules fit in a few kilobytes"));
    }
    let readable = same_length_text(source);
    let source: &str = &readable;
    // Small files cannot nest deeply enough to need the large stack.
    if source.len() < 2_000 {
        return checked(source);
    }
    let parsed = std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("gdl-parse".into())
            .stack_size(PARSE_STACK)
            .spawn_scoped(s, || checked(source))
            .ok()
            .map(|h| h.join())
    });
    match parsed {
        Some(Ok(result)) => result,
        Some(Err(panic)) => std::panic::resume_unwind(panic),
        // No thread could be made: parse here.
        None => checked(source),
    }
}

/// `source` as the parser reads it, byte for byte as long, so that every span
/// holds for the original too: a byte-order mark as three spaces, a lone
/// carriage return as a newline. (Files gdl reads itself are cleaned by
/// `source_file::read_source`; this is for text handed to `parse`.)
fn same_length_text(source: &str) -> std::borrow::Cow<'_, str> {
    let bom = source.starts_with('\u{feff}');
    let bytes = source.as_bytes();
    let lone_cr = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    if !bom && !(0..bytes.len()).any(lone_cr) {
        return std::borrow::Cow::Borrowed(source);
    }
    let mut out: Vec<u8> = bytes.to_vec();
    if bom {
        out[..3].copy_from_slice(b"   ");
    }
    for (i, b) in out.iter_mut().enumerate() {
        if bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n') {
            *b = b'\n';
        }
    }
    // ASCII replaced ASCII, and the mark's three bytes three spaces.
    std::borrow::Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| source.to_string()))
}

/// Parses, then checks the nesting; an over-deep tree is dropped on this thread.
fn checked(source: &str) -> Result<GameFile, FileError> {
    let file = super::parser::parse(source)?;
    match too_deep(&file) {
        None => Ok(file),
        Some(span) => Err(super::parser::too_deep(span)),
    }
}

/// The place where the nesting first goes past `MAX_NESTING`, if it does.
/// The walk stops there, so it never recurses deeper than the limit itself.
fn too_deep(file: &GameFile) -> Option<Span> {
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
