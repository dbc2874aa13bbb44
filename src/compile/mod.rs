//! Syntax tree → checked IR. Binds the parameters, lays out the state, resolves
//! every name to a slot, checks types, and reports every error of a file at once.

mod compile_kind;
mod consts;
mod display;
mod lower;
mod params;

use std::collections::HashMap;
use std::sync::Arc;

use indexmap::IndexMap;
use miette::NamedSource;

pub use crate::syntax::file_error::{FileError as CompileError, FileErrors as CompileErrors, SourceDiagnostic};
use crate::value::store_value;
pub use crate::value::{ShowValue, Value};
pub use compile_kind::CompileKind;
pub use params::{Bindings, ParamValue};

use crate::ir::{self, FIRST_VAR_CELL, Layout, Program};
use crate::syntax::ast::{self, FnDecl, Span, SyntaxTree, TypeExpr};
use consts::ConstEnv;
use lower::{Binding, Ty};

/// The most cells a state may have (8 bytes each): a state is copied at
/// every node of a search, and small games need a few dozen.
pub const MAX_STATE_CELLS: usize = 1 << 16;

/// The name of the function that estimates a position for depth-limited
/// search: `fn evaluate(p: player) -> int`, in thousandths of the payoff.
pub const EVALUATE: &str = "evaluate";

/// A parameter as the command line shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamInfo {
    pub name: String,
    /// The declared type, as written: `list<int>`.
    pub ty: String,
    /// The default, as written in the file; `None` when the parameter must be given.
    pub default: Option<String>,
    /// The valid range, as written.
    pub range: Option<String>,
    pub doc: String,
}

/// Parses and compiles a `.game` file's text with the given parameter values
/// (`("pits", "4")`), which are read in the notation of the file, as the
/// command line's flags: errors name them as flags (`--pits 99`).
pub fn load(name: &str, text: &str, bindings: &[(String, String)]) -> Result<Program, CompileErrors> {
    load_with(name, text, Bindings::Flags(bindings))
}

/// Parses and compiles a `.game` file's text with parameter values given
/// as flags or as typed values ([`Bindings`]).
pub fn load_with(name: &str, text: &str, bindings: Bindings<'_>) -> Result<Program, CompileErrors> {
    // The text as the command line reads a file: miette counts lines by `\n`
    // alone, and cannot draw a "line" of a whole file written with `\r`.
    let text = crate::syntax::source_file::normalize(text.to_string());
    let source = Arc::new(NamedSource::new(name, text.clone()));
    let file = crate::syntax::parse(&text).map_err(|e| CompileErrors::new(source.clone(), vec![e]))?;
    compile(&file, source, bindings)
}

/// The parameters a file declares, for building command-line flags.
pub fn params_of(file: &SyntaxTree, text: &str) -> Vec<ParamInfo> {
    let slice = |s: Span| text.get(s.start..s.end).unwrap_or("").to_string();
    file.params
        .iter()
        .map(|p| ParamInfo {
            name: p.name.name.clone(),
            ty: slice(p.ty.span()),
            default: p.default.as_ref().map(|d| slice(d.span)),
            range: p.range.as_ref().map(|r| slice(r.span)),
            doc: p.doc.clone(),
        })
        .collect()
}

/// Compiles a parsed file.
pub fn compile(
    file: &SyntaxTree,
    source: Arc<NamedSource<String>>,
    bindings: Bindings<'_>,
) -> Result<Program, CompileErrors> {
    let mut c = Compiler::new(file);
    let program = c.run(source.clone(), bindings);
    if c.errors.is_empty() {
        Ok(program)
    } else {
        c.errors.sort_by_key(|e| (e.span.start, e.span.end));
        Err(CompileErrors::new(source, c.errors))
    }
}

/// The signature of a user function.
#[derive(Clone, Debug)]
pub(crate) struct FnSig {
    index: usize,
    params: Vec<Ty>,
    ret: Ty,
    /// A procedure: statements that may change the state, and no value.
    is_proc: bool,
}

pub(crate) struct Compiler<'a> {
    file: &'a SyntaxTree,
    errors: Vec<CompileError>,
    players: IndexMap<String, usize>,
    params: IndexMap<String, Value>,
    fn_decls: IndexMap<String, &'a FnDecl>,
    /// The functions defined by one expression: those a constant expression may call.
    expr_fn_decls: IndexMap<String, &'a FnDecl>,
    fn_sigs: IndexMap<String, FnSig>,
    vars: IndexMap<String, ir::Var>,
    /// The `const` lists, by name: where each lies in `const_cells`.
    consts: IndexMap<String, (usize, Layout)>,
    const_cells: Vec<i64>,
    /// Names in scope in the current function, move or end clause, innermost last.
    scopes: Vec<(String, Binding)>,
    next_local: usize,
    max_locals: usize,
    /// The next free cell of the current rule's scratch area, where its
    /// local lists and sets (`let seen: set<0..8> = {}`) live.
    scratch_next: usize,
    /// Each declared name's first declaration, so that a file of thousands
    /// of names is not checked pair by pair.
    first_declared: HashMap<&'a str, &'a ast::Ident>,
    /// Where `again` and `turn = p` put who moves next, while a move's body
    /// (or a `then` block) is lowered; and whether `again` is allowed there
    /// (only where a player moved).
    turn_target: Option<(usize, bool)>,
    /// The function or procedure whose statements are being lowered, if any.
    fn_kind: Option<lower::FnKind>,
    /// Whether the function being lowered is a part of the `display`.
    in_display: bool,
    /// Whether an `end when` condition is being lowered, where `no moves`
    /// is known (as a term under `and`, `or`, `not`, `implies`).
    in_end_cond: bool,
}

impl<'a> Compiler<'a> {
    fn new(file: &'a SyntaxTree) -> Self {
        let mut first_declared: HashMap<&'a str, &'a ast::Ident> = HashMap::new();
        let names = (file.params.iter().map(|p| &p.name))
            .chain(file.consts.iter().map(|c| &c.name))
            .chain(file.states.iter().map(|s| &s.name))
            .chain(file.fns.iter().map(|f| &f.name))
            .chain(file.players.iter());
        for name in names {
            let first = first_declared.entry(name.name.as_str()).or_insert(name);
            if name.span.start < first.span.start {
                *first = name;
            }
        }
        Compiler {
            first_declared,
            file,
            errors: Vec::new(),
            players: IndexMap::new(),
            params: IndexMap::new(),
            fn_decls: IndexMap::new(),
            expr_fn_decls: IndexMap::new(),
            fn_sigs: IndexMap::new(),
            vars: IndexMap::new(),
            consts: IndexMap::new(),
            const_cells: Vec::new(),
            scopes: Vec::new(),
            next_local: 0,
            max_locals: 0,
            scratch_next: 0,
            turn_target: None,
            fn_kind: None,
            in_display: false,
            in_end_cond: false,
        }
    }

    fn error(&mut self, e: CompileError) {
        self.errors.push(e);
    }

    fn run(&mut self, source: Arc<NamedSource<String>>, bindings: Bindings<'_>) -> Program {
        self.declare_players();
        self.declare_fns();
        let params = self.bind_params(bindings);
        self.count_players();
        if self.errors.is_empty() {
            self.bind_consts();
        }
        if self.errors.is_empty() {
            self.check_requires();
        }
        // `max moves` is a constant of the parameters: with theirs wrong, its
        // own error would only repeat them.
        let params_bound = self.errors.is_empty();
        let mut initial = vec![0; FIRST_VAR_CELL];
        initial[ir::PREVIOUS_CELL] = -1;
        if self.errors.is_empty() {
            self.layout_state(&mut initial);
        }
        let fns = self.lower_fns();
        self.in_display = false;
        let display = self.check_display();
        let invariants = (self.file.invariants.iter())
            .filter_map(|inv| {
                Some(ir::Invariant {
                    func: self.fn_sigs.get(&inv.fn_name)?.index,
                    label: inv.label.clone(),
                    span: inv.span,
                })
            })
            .collect();
        let moves = self.lower_moves();
        let ends = self.lower_ends();
        let max_moves = if params_bound { self.max_moves() } else { None };
        if self.file.moves.is_empty() {
            self.error(
                CompileError::new(
                    CompileKind::NoMoves,
                    "the game declares no moves",
                    self.file.name_span,
                    "this game",
                )
                .with_help("add a move: `move take(n in 1..3) { ... }`"),
            );
        }
        if self.file.ends.is_empty() {
            self.error(
                CompileError::new(
                    CompileKind::NoEnd,
                    "the game never ends: it has no `end when` clause",
                    self.file.name_span,
                    "this game",
                )
                .with_help("add one, e.g. `end when no moves { winner previous }`"),
            );
        }
        Program {
            name: self.file.name.clone(),
            players: self.players.keys().cloned().collect(),
            source,
            params,
            cell_count: initial.len(),
            initial,
            consts: std::mem::take(&mut self.const_cells),
            vars: self.vars.values().cloned().collect(),
            fns,
            has_chance: moves.iter().any(|m| m.by == ir::MoveBy::Chance),
            has_simultaneous: moves.iter().any(|m| m.by == ir::MoveBy::Simultaneous),
            canonical: self.fn_sigs.get(ast::CANONICAL).map(|s| s.index),
            display,
            invariants,
            moves,
            ends,
            max_moves,
        }
    }

    fn declare_players(&mut self) {
        for p in &self.file.players {
            if let Some(&first) = self.players.get(&p.name) {
                let first_span = self.file.players[first].span;
                self.error(
                    CompileError::new(
                        CompileKind::Duplicate,
                        format!("the player `{}` is declared twice", p.name),
                        p.span,
                        "again here",
                    )
                    .with_note(first_span, "first here"),
                );
            } else if lower::RESERVED_NAMES.contains(&p.name.as_str()) {
                self.error(CompileError::new(
                    CompileKind::Reserved,
                    format!("`{}` is a built-in name", p.name),
                    p.span,
                    "choose another name",
                ));
            } else {
                self.players.insert(p.name.clone(), self.players.len());
            }
        }
        if self.file.players.is_empty() && self.file.player_count.is_none() {
            self.error(
                CompileError::new(
                    CompileKind::NoPlayers,
                    "the game declares no players",
                    self.file.name_span,
                    "this game",
                )
                .with_help("add a line such as `players MAX, MIN`"),
            );
        }
    }

    /// `players count P`: names the players P1, P2, ... once the parameters are known.
    fn count_players(&mut self) {
        let Some(count) = &self.file.player_count else {
            return;
        };
        match self.eval_const(count) {
            Ok(Value::Int(n)) if (1..=64).contains(&n) => {
                for i in 1..=n {
                    self.players.insert(format!("P{i}"), self.players.len());
                }
            }
            Ok(Value::Int(n)) => self.error(CompileError::new(
                CompileKind::Players,
                format!("a game has 1 to 64 players, not {n}"),
                count.span,
                "the number of players",
            )),
            Ok(other) => self.error(CompileError::new(
                CompileKind::TypeMismatch,
                format!("the number of players must be an int, found a {}", other.kind()),
                count.span,
                "not an int",
            )),
            Err(e) => self.error(e),
        }
    }

    fn declare_fns(&mut self) {
        for f in &self.file.fns {
            if self.check_new_name(&f.name) {
                let params: Vec<Ty> = f.params.iter().map(|(_, t)| self.ty_of(t)).collect();
                let mut ret = f.ret.as_ref().map_or(Ty::Error, |t| self.ty_of(t));
                // A function's result is one value: said once, at its type,
                // rather than at each `return` and each use.
                if let Some(t) = &f.ret
                    && matches!(ret, Ty::List(_) | Ty::Set)
                {
                    self.error(
                        CompileError::new(
                            CompileKind::TypeMismatch,
                            format!("a function returns an int, a bool or a player, not a {ret}"),
                            t.span(),
                            "a collection",
                        )
                        .with_help(
                            "to draw a move's argument from the cells a function picks, draw it from a \
                             range and test the function in `requires`: `t in 0..<N * N requires \
                             reaches(f, t)` (docs/LANGUAGE.md, \"What finding the legal moves costs\")",
                        ),
                    );
                    ret = Ty::Error;
                }
                // The search reads `evaluate` by its name (`Game::evaluate`).
                if f.name.name == EVALUATE && (params != [Ty::Player] || ret != Ty::Int) {
                    self.error(
                        CompileError::new(
                            CompileKind::Evaluate,
                            "`evaluate` must take one player and return an int",
                            f.span,
                            "an evaluation has this form: fn evaluate(p: player) -> int",
                        )
                        .with_help(
                            "it estimates p's payoff in a position that is not over, in thousandths \
                             (1000: as good as a win of 1)",
                        ),
                    );
                }
                self.fn_sigs.insert(
                    f.name.name.clone(),
                    FnSig {
                        index: self.fn_sigs.len(),
                        params,
                        ret,
                        is_proc: f.ret.is_none(),
                    },
                );
                self.fn_decls.insert(f.name.name.clone(), f);
                if f.block.is_none() {
                    self.expr_fn_decls.insert(f.name.name.clone(), f);
                }
            }
        }
    }

    /// Reports a name declared twice; true when `name` is new.
    fn check_new_name(&mut self, name: &ast::Ident) -> bool {
        let previous = self
            .first_declared
            .get(name.name.as_str())
            .filter(|first| first.span.start < name.span.start);
        match previous {
            Some(first) => {
                let first = first.span;
                let what = match name.name.strip_prefix(ast::DISPLAY_PREFIX) {
                    Some(part) => format!("the display's `{part}`"),
                    None => format!("`{}`", name.name),
                };
                self.error(
                    CompileError::new(
                        CompileKind::Duplicate,
                        format!("{what} is declared twice"),
                        name.span,
                        "declared again here",
                    )
                    .with_note(first, "first declared here"),
                );
                false
            }
            // Variables may not hide `current` and `previous`; functions may not hide the built-in functions.
            None if lower::RESERVED_NAMES.contains(&name.name.as_str())
                || (self.file.fns.iter().any(|f| f.name.span == name.span)
                    && lower::BUILTINS.contains(&name.name.as_str())) =>
            {
                self.error(CompileError::new(
                    CompileKind::Reserved,
                    format!("`{}` is a built-in name", name.name),
                    name.span,
                    "choose another name",
                ));
                false
            }
            None => true,
        }
    }

    fn const_env(&self) -> ConstEnv<'_> {
        ConstEnv {
            players: &self.players,
            params: &self.params,
            fns: &self.expr_fn_decls,
            locals: Vec::new(),
            depth: 0,
        }
    }

    fn eval_const(&self, e: &ast::Expr) -> Result<Value, CompileError> {
        self.const_env().eval(e).map_err(|err| {
            // A function written with statements runs only during play.
            let block_fn = self.file.fns.iter().find(|f| {
                f.block.is_some()
                    && err.is(CompileKind::UnknownFunction)
                    && err.message == format!("there is no function `{}`", f.name.name)
            });
            match block_fn {
                Some(f) => CompileError::new(
                    CompileKind::NotConstant,
                    format!(
                        "`{}` is written with statements: it runs only during the game",
                        f.name.name
                    ),
                    err.span,
                    "called here",
                )
                .with_help(
                    "a constant expression may call functions defined by one expression (`fn f(x: int) -> int = ...`)",
                ),
                None => err,
            }
        })
    }

    /// Binds each parameter to its value as given or its default, and checks
    /// it against the declared type and range.
    fn bind_params(&mut self, bindings: Bindings<'_>) -> Vec<(String, String)> {
        let players: Vec<String> = self.players.keys().cloned().collect();
        for name in bindings.names() {
            if !self.file.params.iter().any(|p| p.name.name == name) {
                let known: Vec<&str> = self.file.params.iter().map(|p| p.name.name.as_str()).collect();
                let help = if known.is_empty() {
                    "this game has no parameters".to_string()
                } else {
                    format!("its parameters are: {}", known.join(", "))
                };
                self.error(
                    CompileError::new(
                        CompileKind::UnknownParam,
                        format!("the game has no parameter `{name}`"),
                        self.file.name_span,
                        "in this game",
                    )
                    .with_help(help),
                );
            }
        }
        let mut shown = Vec::new();
        for p in &self.file.params {
            if !self.check_new_name(&p.name) {
                continue;
            }
            let ty = self.ty_of(&p.ty);
            let default = match &p.default {
                Some(d) => match self.eval_const(d) {
                    Ok(v) => Some(v),
                    Err(e) => {
                        self.error(e);
                        continue;
                    }
                },
                None => None,
            };
            let given = bindings.given(&p.name.name);
            let value = match (given, &default) {
                (Some(given), _) => {
                    let example = default.clone().unwrap_or_else(|| lower::example_value(&ty));
                    match given.read(&ty, &example, &players) {
                        Ok(v) => v,
                        Err(msg) => {
                            self.error(CompileError::new(
                                CompileKind::BadParam,
                                given.bad(&p.name.name, &msg),
                                p.name.span.to(p.ty.span()),
                                format!("`{}` is declared here as {}", p.name.name, ty),
                            ));
                            continue;
                        }
                    }
                }
                (None, Some(v)) => v.clone(),
                (None, None) => {
                    self.error(
                        CompileError::new(
                            CompileKind::MissingParam,
                            format!("the parameter `{}` has no default and was not given", p.name.name),
                            p.name.span.to(p.ty.span()),
                            "declared here",
                        )
                        .with_help(bindings.missing_help(&p.name.name)),
                    );
                    continue;
                }
            };
            if !lower::value_has_type(&value, &ty) {
                let where_ = if given.is_some() { "given" } else { "default" };
                self.error(CompileError::new(
                    CompileKind::TypeMismatch,
                    format!(
                        "the {where_} value of `{}` is a {}, but its type is {ty}",
                        p.name.name,
                        value.kind()
                    ),
                    p.default.as_ref().map_or(p.span, |d| d.span),
                    format!("expected {ty}"),
                ));
                continue;
            }
            let checkable = ty == Ty::Int || ty == Ty::List(Box::new(Ty::Int));
            if let (Some(range), false) = (&p.range, checkable) {
                self.error(CompileError::new(
                    CompileKind::ParamRange,
                    format!("a range checks an int or a list of ints; `{}` is {ty}", p.name.name),
                    range.span,
                    "not checked",
                ));
                continue;
            }
            if let Some(range) = &p.range {
                match self.eval_const(range) {
                    Ok(Value::Range(lo, hi)) => {
                        let bad = match &value {
                            Value::Int(n) => (*n < lo || *n > hi).then(|| n.to_string()),
                            Value::List(items) => items.iter().find_map(|v| match v {
                                Value::Int(n) if *n < lo || *n > hi => Some(n.to_string()),
                                _ => None,
                            }),
                            _ => None,
                        };
                        if let Some(bad) = bad {
                            let shown_value = ShowValue(&value, &players).to_string();
                            let msg = match given {
                                Some(given) => given.out_of_range(
                                    &p.name.name,
                                    &shown_value,
                                    &bad,
                                    matches!(value, Value::List(_)),
                                    (lo, hi),
                                ),
                                None => format!(
                                    "the default of `{}` ({bad}) is outside its range {lo}..{hi}",
                                    p.name.name
                                ),
                            };
                            self.error(CompileError::new(
                                CompileKind::ParamRange,
                                msg,
                                range.span,
                                format!("valid values: {lo}..{hi}"),
                            ));
                            continue;
                        }
                    }
                    Ok(other) => self.error(CompileError::new(
                        CompileKind::TypeMismatch,
                        format!(
                            "a parameter's range must be a range like 1..9, found a {}",
                            other.kind()
                        ),
                        range.span,
                        "not a range",
                    )),
                    Err(e) => self.error(e),
                }
            }
            shown.push((p.name.name.clone(), ShowValue(&value, &players).to_string()));
            self.params.insert(p.name.name.clone(), value);
        }
        shown
    }

    /// Computes each `const`, checks it against its type, and lays out the
    /// lists among them for the rules to read. A constant is seen by the
    /// constant expressions after it (`[0; len(lines)]`) as a parameter is.
    fn bind_consts(&mut self) {
        for c in &self.file.consts {
            if !self.check_new_name(&c.name) {
                continue;
            }
            let value = match self.eval_const(&c.value) {
                Ok(v) => v,
                Err(e) => {
                    self.error(e);
                    continue;
                }
            };
            if let TypeExpr::PerPlayer(inner, _) = &c.ty {
                // `ty_of` reads `per player T` as a list, a type the file never wrote.
                self.error(
                    CompileError::new(
                        CompileKind::TypeMismatch,
                        format!(
                            "a constant cannot be `per player`: `{}` would be the same for everyone",
                            c.name.name
                        ),
                        c.ty.span(),
                        "per player",
                    )
                    .with_help(format!(
                        "write `const {}: {} = ...` for one value, a list with one value per player, \
                         or a `state` if it changes",
                        c.name.name,
                        self.ty_of(inner)
                    )),
                );
                continue;
            }
            let ty = self.ty_of(&c.ty);
            if !lower::value_has_type(&value, &ty) {
                self.error(CompileError::new(
                    CompileKind::TypeMismatch,
                    format!(
                        "the value of `{}` is a {}, but its type is {ty}",
                        c.name.name,
                        value.kind()
                    ),
                    c.value.span,
                    format!("expected {ty}"),
                ));
                continue;
            }
            if let Value::List(_) = value {
                let layout = match self.layout_of(&c.ty, &[&value]) {
                    Ok(l) => l,
                    Err(e) => {
                        self.error(e);
                        continue;
                    }
                };
                let offset = self.const_cells.len();
                let size = layout.checked_size();
                if size.is_none_or(|n| n > MAX_STATE_CELLS - offset) {
                    // Say what it needs: a list of 65,536 numbers takes one cell more, for its length.
                    let needs = size.map_or("more than 2^64".to_string(), |n| n.to_string());
                    let before = if offset > 0 {
                        format!(" (the constants before it take {offset})")
                    } else {
                        String::new()
                    };
                    self.error(
                        CompileError::new(
                            CompileKind::StateSize,
                            format!(
                                "`{}` needs {needs} cells, but the constants together may take at most {MAX_STATE_CELLS}{before}, as a state may",
                                c.name.name
                            ),
                            c.ty.span(),
                            "too large",
                        )
                        .with_help("a list takes one cell for its length and one for each element: make it shorter"),
                    );
                    continue;
                }
                self.const_cells.resize(offset + layout.size(), 0);
                if let Err(msg) = store_value(&layout, &value, &mut self.const_cells[offset..]) {
                    self.error(CompileError::new(
                        CompileKind::InitialValue,
                        format!("the value of `{}` does not fit its type: {msg}", c.name.name),
                        c.value.span,
                        "this value",
                    ));
                    continue;
                }
                self.consts.insert(c.name.name.clone(), (offset, layout));
            }
            self.params.insert(c.name.name.clone(), value);
        }
    }

    fn check_requires(&mut self) {
        for r in &self.file.requires {
            match self.eval_const(&r.cond) {
                Ok(Value::Bool(true)) => {}
                Ok(Value::Bool(false)) => {
                    let values: Vec<String> = self
                        .params
                        .iter()
                        .filter(|(n, _)| !self.file.consts.iter().any(|c| &c.name.name == *n))
                        .map(|(n, v)| {
                            let players: Vec<String> = self.players.keys().cloned().collect();
                            format!("{n} = {}", ShowValue(v, &players))
                        })
                        .collect();
                    let message = match &r.message {
                        Some(m) => format!("invalid parameters: {m}"),
                        None => "invalid parameters: a requirement does not hold".to_string(),
                    };
                    self.error(
                        CompileError::new(CompileKind::Requirement, message, r.cond.span, "this does not hold")
                            .with_help(format!("the parameters are {}", values.join(", "))),
                    );
                }
                Ok(other) => self.error(CompileError::new(
                    CompileKind::TypeMismatch,
                    format!("`require` needs a bool, found a {}", other.kind()),
                    r.cond.span,
                    "not a bool",
                )),
                Err(e) => self.error(e),
            }
        }
    }

    /// Gives every state variable its cells and writes its initial value.
    fn layout_state(&mut self, cells: &mut Vec<i64>) {
        for s in &self.file.states {
            if !self.check_new_name(&s.name) {
                continue;
            }
            let value = match self.eval_const(&s.init) {
                Ok(v) => v,
                Err(e) => {
                    self.error(e);
                    continue;
                }
            };
            let ty = self.ty_of(&s.ty);
            // A per-player variable starts with one value for everyone, or
            // with a list of one value per player, in turn order. A value
            // that reads both ways (`[[], []]` for `per player list<list<int>>`)
            // is the one value for everyone.
            let (checked, first, value) = match &s.ty {
                TypeExpr::PerPlayer(inner, _) => {
                    let checked = self.ty_of(inner);
                    match &value {
                        Value::List(entries)
                            if !lower::value_has_type(&value, &checked)
                                && entries.iter().all(|e| lower::value_has_type(e, &checked)) =>
                        {
                            if entries.len() != self.players.len() {
                                self.error(self.per_player_count(s, entries.len()));
                                continue;
                            }
                            (checked, entries.first().cloned().unwrap_or(Value::Int(0)), value)
                        }
                        _ => {
                            let copies = Value::List(vec![value.clone(); self.players.len()]);
                            (checked, value, copies)
                        }
                    }
                }
                _ => (ty.clone(), value.clone(), value),
            };
            if !lower::value_has_type(&first, &checked) {
                let shown = if matches!(s.ty, TypeExpr::PerPlayer(..)) {
                    format!("per player {checked}")
                } else {
                    checked.to_string()
                };
                let mut e = CompileError::new(
                    CompileKind::TypeMismatch,
                    format!(
                        "the initial value of `{}` is a {}, but its type is {shown}",
                        s.name.name,
                        first.kind()
                    ),
                    s.init.span,
                    format!("expected {checked}"),
                );
                if matches!((&s.ty, &first), (TypeExpr::PerPlayer(..), Value::List(_))) {
                    e = e.with_help(format!(
                        "a list starts each player with a value of their own: every entry must be of type {checked}"
                    ));
                }
                self.error(e);
                continue;
            }
            if s.visibility == ast::Visibility::Private && !matches!(s.ty, TypeExpr::PerPlayer(..)) {
                self.error(
                    CompileError::new(
                        CompileKind::Private,
                        format!("`{}` is private, but not per player: whose would it be?", s.name.name),
                        s.ty.span(),
                        "not `per player ...`",
                    )
                    .with_help(
                        "write `private state hands: per player set<1..K> = {}`, or `hidden` for what nobody sees",
                    ),
                );
                continue;
            }
            let layout = match self.layout_of(&s.ty, &[&value]) {
                Ok(l) => l,
                Err(e) => {
                    self.error(e);
                    continue;
                }
            };
            let offset = cells.len();
            let size = layout.checked_size();
            if size.is_none_or(|n| n > MAX_STATE_CELLS - offset) {
                let needs = size.map_or("more than 2^64".to_string(), |n| n.to_string());
                self.error(
                    CompileError::new(
                        CompileKind::StateSize,
                        format!(
                            "`{}` needs {needs} cells; a whole state may hold at most {MAX_STATE_CELLS}",
                            s.name.name
                        ),
                        s.ty.span(),
                        "too large",
                    )
                    .with_help("a list's capacity and each `per player` multiply the cells: make them smaller"),
                );
                continue;
            }
            cells.resize(offset + layout.size(), 0);
            if let Err(msg) = store_value(&layout, &value, &mut cells[offset..]) {
                self.error(CompileError::new(
                    CompileKind::InitialValue,
                    format!("the initial value of `{}` does not fit its type: {msg}", s.name.name),
                    s.init.span,
                    "this value",
                ));
                continue;
            }
            self.vars.insert(
                s.name.name.clone(),
                ir::Var {
                    name: s.name.name.clone(),
                    offset,
                    layout,
                    visibility: s.visibility,
                },
            );
        }
    }

    /// The layout that holds every one of `values` with type `t`.
    /// A list of initial values of the per-player variable `s`, with `given`
    /// entries for another number of players.
    fn per_player_count(&self, s: &ast::StateVar, given: usize) -> CompileError {
        let n = self.players.len();
        let names: Vec<&str> = self.players.keys().map(String::as_str).collect();
        let entries = if given == 1 { "entry" } else { "entries" };
        let mut e = CompileError::new(
            CompileKind::InitialValue,
            format!(
                "`{}` starts with one value per player, but the list has {given} {entries} for {n} player{}",
                s.name.name,
                if n == 1 { "" } else { "s" },
            ),
            s.init.span,
            format!("{given} {entries}"),
        )
        .with_help(format!(
            "give one value for each player, in turn order ({}), or one value that every player starts with",
            names.join(", ")
        ));
        if let Some(players) = self.file.players_span {
            e = e.with_note(players, "the players");
        }
        e
    }

    fn layout_of(&self, t: &TypeExpr, values: &[&Value]) -> Result<Layout, CompileError> {
        Ok(match t {
            TypeExpr::Int(_) => Layout::Int,
            TypeExpr::Bool(_) => Layout::Bool,
            TypeExpr::Player(_) => Layout::Player,
            TypeExpr::PerPlayer(inner, _) => {
                let items: Vec<&Value> = values
                    .iter()
                    .flat_map(|v| match v {
                        Value::List(items) => items.iter().collect::<Vec<_>>(),
                        _ => Vec::new(),
                    })
                    .collect();
                Layout::List {
                    elem: Box::new(self.layout_of(inner, &items)?),
                    cap: self.players.len(),
                }
            }
            TypeExpr::Set { range, .. } => match self.eval_const(range)? {
                Value::Range(lo, hi) if i128::from(hi) - i128::from(lo) <= 4096 => Layout::Set { lo, hi },
                Value::Range(..) => {
                    return Err(CompileError::new(
                        CompileKind::SetRange,
                        "a set's range `lo..hi` may be at most 4096 wide (hi - lo)",
                        range.span,
                        "too wide",
                    ));
                }
                other => {
                    return Err(CompileError::new(
                        CompileKind::TypeMismatch,
                        format!("a set type needs a range such as `set<1..9>`, found a {}", other.kind()),
                        range.span,
                        "not a range",
                    ));
                }
            },
            TypeExpr::List { elem, capacity, .. } => {
                let items: Vec<&Value> = values
                    .iter()
                    .flat_map(|v| match v {
                        Value::List(items) => items.iter().collect::<Vec<_>>(),
                        _ => Vec::new(),
                    })
                    .collect();
                let longest = values
                    .iter()
                    .map(|v| match v {
                        Value::List(items) => items.len(),
                        _ => 0,
                    })
                    .max()
                    .unwrap_or(0);
                let cap = match capacity {
                    None => longest,
                    Some(c) => match self.eval_const(c)? {
                        Value::Int(n) if (0..=4096).contains(&n) && n as usize >= longest => n as usize,
                        Value::Int(n) if (0..=4096).contains(&n) => {
                            return Err(CompileError::new(
                                CompileKind::Capacity,
                                format!("this list holds at most {n} elements, but starts with {longest}"),
                                c.span,
                                "capacity",
                            ));
                        }
                        Value::Int(n) => {
                            return Err(CompileError::new(
                                CompileKind::Capacity,
                                format!("a list's capacity must be 0 to 4096, not {n}"),
                                c.span,
                                "capacity",
                            ));
                        }
                        other => {
                            return Err(CompileError::new(
                                CompileKind::TypeMismatch,
                                format!("a list's capacity must be an int, found a {}", other.kind()),
                                c.span,
                                "not an int",
                            ));
                        }
                    },
                };
                Layout::List {
                    elem: Box::new(self.layout_of(elem, &items)?),
                    cap,
                }
            }
        })
    }

    fn ty_of(&self, t: &TypeExpr) -> Ty {
        match t {
            TypeExpr::Int(_) => Ty::Int,
            TypeExpr::Bool(_) => Ty::Bool,
            TypeExpr::Player(_) => Ty::Player,
            TypeExpr::List { elem, .. } => Ty::List(Box::new(self.ty_of(elem))),
            TypeExpr::Set { .. } => Ty::Set,
            TypeExpr::PerPlayer(inner, _) => Ty::List(Box::new(self.ty_of(inner))),
        }
    }
}
