//! Expressions: names, operators, indexing, calls of functions and
//! built-ins, aggregates and comprehensions, and the lists and sets built
//! in place, each typed and lowered, constants folded.

use super::*;

impl Compiler<'_> {
    /// A list or set written in a rule (`[a, b]`, `[x; n]`, `a ++ b`, `{...}`,
    /// `[e for x in c]`), or any list of scalars, set, range or literal list
    /// taken whole.
    pub(super) fn built(&mut self, e: &ast::Expr) -> Option<Built> {
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
    pub(super) fn built_of(&mut self, typed: Typed, span: Span) -> Option<Built> {
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
    pub(super) fn value(&mut self, e: &ast::Expr) -> Val {
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
    pub(super) fn compare(&mut self, op: CmpOp, a: &ast::Expr, b: &ast::Expr, span: Span) -> Typed {
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

    pub(super) fn method(
        &mut self,
        target: &ast::Expr,
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Stmt> {
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
    pub(super) fn scalar_of(&mut self, e: &ast::Expr, want: &Ty) -> ir::Expr {
        let (x, ty) = self.scalar(e);
        if !ty.matches(want) {
            self.error(mismatch(e.span, &article(want), &ty));
        }
        x
    }

    /// Lowers `e`, which must be an int, bool or player.
    pub(super) fn scalar(&mut self, e: &ast::Expr) -> (ir::Expr, Ty) {
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
    pub(super) fn coll(&mut self, e: &ast::Expr) -> Option<(Coll, Elem)> {
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
            Typed::Error | Typed::Scalar(_, Ty::Error) => None,
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
    pub(super) fn elem_place(&self, list: Place, index: ir::Expr, elem: &Layout, span: Span) -> Place {
        Place::Elem {
            list: Box::new(list),
            index,
            elem_size: elem.size(),
            span,
        }
    }

    pub(super) fn expr(&mut self, e: &ast::Expr) -> Typed {
        match &e.kind {
            ExprKind::Int(n) => Typed::Scalar(ir::Expr::Const(*n), Ty::Int),
            ExprKind::Bool(b) => Typed::Scalar(ir::Expr::Const(i64::from(*b)), Ty::Bool),
            ExprKind::Name(name) => self.name(name, e.span),
            ExprKind::NoMoves => {
                let error = if self.in_end_cond {
                    CompileError::new(
                        CompileKind::NotHere,
                        "`no moves` combines with other conditions only by `and`, `or`, `not` and `implies`",
                        e.span,
                        "not a term of the condition here",
                    )
                    .with_help("write it as a term of its own: `end when started and no moves { ... }`")
                } else {
                    CompileError::new(
                        CompileKind::NotHere,
                        "`no moves` is known only in an `end when` condition",
                        e.span,
                        "not in an `end when` condition",
                    )
                    .with_help(
                        "the legal moves are found after the end conditions, so no other rule can ask \
                         for them; write the test as a function of the position",
                    )
                };
                self.error(error);
                Typed::Error
            }
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

    pub(super) fn name(&mut self, name: &str, span: Span) -> Typed {
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

    pub(super) fn index(&mut self, list: &ast::Expr, index: &ast::Expr, span: Span) -> Typed {
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

    pub(super) fn binary(&mut self, op: BinOp, a: &ast::Expr, b: &ast::Expr, span: Span) -> Typed {
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

    pub(super) fn call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Typed {
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

    pub(super) fn generator(
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
            let filter_expr = filter;
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
            if op == AggOp::Count && tb == Ty::Bool {
                this.check_count_filter(body, var, filter_expr);
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

    /// `count(p for p in pegs if not p)` reads as "the pegs that are not
    /// set", but a bool body counts only its trues, so it is always 0. Where
    /// the body is the bare element and the filter is something else, the two
    /// readings differ: refuse it and show both ways to say it.
    fn check_count_filter(&mut self, body: &ast::Expr, var: &ast::Ident, filter: Option<&ast::Expr>) {
        let Some(filter) = filter else { return };
        let bare = |e: &ast::Expr| matches!(&e.kind, ast::ExprKind::Name(n) if *n == var.name);
        if !bare(body) || bare(filter) {
            return;
        }
        let v = &var.name;
        self.error(
            CompileError::new(
                CompileKind::Generator,
                "a `count` of bools with an `if` counts the elements that pass the `if` and are also `true`",
                body.span,
                format!("`{v}` is a bool, so it is a condition too"),
            )
            .with_help(format!(
                "to count the elements the `if` keeps, write `count(1 for {v} in ... if ...)`; \
                 to count the true ones among them, write `count({v} and ... for {v} in ...)`"
            )),
        );
    }
}
