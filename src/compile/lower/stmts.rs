//! Statements of rules and functions: blocks, `let`, assignment (to a
//! cell, a list element, a whole list or set), `return`, procedure calls,
//! methods on collections, and who moves next, each checked and lowered.

use super::*;

impl Compiler<'_> {
    pub(super) fn stmts(&mut self, body: &[ast::Stmt]) -> Vec<Stmt> {
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

    pub(super) fn stmt(&mut self, s: &ast::Stmt) -> Option<Stmt> {
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
    pub(super) fn let_typed(
        &mut self,
        name: &ast::Ident,
        t: &ast::TypeExpr,
        value: &ast::Expr,
        span: Span,
    ) -> Option<Stmt> {
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
    pub(super) fn local_layout(
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
    pub(super) fn peek_layout(&self, e: &ast::Expr) -> Option<Layout> {
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
    pub(super) fn is_local_place(&self, e: &ast::Expr) -> bool {
        match &e.kind {
            ExprKind::Name(n) => matches!(
                self.scopes.iter().rev().find(|(m, _)| m == n),
                Some((_, Binding::Alias(p, _))) if p.is_local()
            ),
            ExprKind::Index(list, _) => self.is_local_place(list),
            _ => false,
        }
    }

    pub(super) fn return_stmt(&mut self, value: Option<&ast::Expr>, span: Span) -> Option<Stmt> {
        match (self.fn_kind.clone(), value) {
            // A result type already refused (a list): the value's errors only.
            (Some(FnKind::Function(Ty::Error)), Some(v)) => {
                let _ = self.expr(v);
                None
            }
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
    pub(super) fn proc_call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Option<Stmt> {
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
    pub(super) fn may_change_state(&mut self, span: Span) -> bool {
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
    pub(super) fn set_turn(&mut self, op: Option<ArithOp>, value: &ast::Expr, span: Span) -> Option<Stmt> {
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

    pub(super) fn assign(
        &mut self,
        place: &ast::Expr,
        op: Option<BinOp>,
        value: &ast::Expr,
        span: Span,
    ) -> Option<Stmt> {
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
    pub(super) fn assign_whole(
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
}
