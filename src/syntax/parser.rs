//! pest parse tree → AST. No stage after this one sees a pest `Pair`.

use std::cell::Cell;
use std::sync::LazyLock;

use pest::Parser as _;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest_derive::Parser;

use super::ast::*;
use super::file_error::FileError;
use super::nesting::MAX_NESTING;
use super::syntax_kind::SyntaxKind;

#[derive(Parser)]
#[grammar = "../grammar/gdl.pest"]
struct GdlParser;

static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    PrattParser::new()
        .op(Op::infix(Rule::op_implies, Assoc::Right))
        .op(Op::infix(Rule::op_or, Assoc::Left))
        .op(Op::infix(Rule::op_and, Assoc::Left))
        .op(Op::prefix(Rule::op_not))
        .op(Op::infix(Rule::op_eq, Assoc::Left)
            | Op::infix(Rule::op_ne, Assoc::Left)
            | Op::infix(Rule::op_lt, Assoc::Left)
            | Op::infix(Rule::op_le, Assoc::Left)
            | Op::infix(Rule::op_gt, Assoc::Left)
            | Op::infix(Rule::op_ge, Assoc::Left)
            | Op::infix(Rule::op_in, Assoc::Left)
            | Op::infix(Rule::op_not_in, Assoc::Left))
        .op(Op::infix(Rule::op_range, Assoc::Left) | Op::infix(Rule::op_range_excl, Assoc::Left))
        .op(Op::infix(Rule::op_concat, Assoc::Left))
        .op(Op::infix(Rule::op_add, Assoc::Left) | Op::infix(Rule::op_sub, Assoc::Left))
        .op(Op::infix(Rule::op_mul, Assoc::Left)
            | Op::infix(Rule::op_div, Assoc::Left)
            | Op::infix(Rule::op_rem, Assoc::Left))
        .op(Op::prefix(Rule::op_neg))
        .op(Op::postfix(Rule::index))
});

/// Parses a whole `.game` source text.
pub fn parse(source: &str) -> Result<SyntaxTree, FileError> {
    let mut pairs = GdlParser::parse(Rule::file, source).map_err(|e| syntax_error(e, source))?;
    let file = pairs.next().expect("the file rule always yields one pair");
    let cx = &Cx::new();
    let mut game = SyntaxTree::default();
    for item in file.into_inner() {
        match item.as_rule() {
            Rule::game_decl => {
                let name = item.into_inner().next().expect("game name");
                game.name_span = span(&name);
                game.name = match name.as_rule() {
                    Rule::string => unquote(name.as_str()),
                    _ => name.as_str().to_string(),
                };
            }
            Rule::players_decl => {
                let s = span(&item);
                if game.players_span.is_some() {
                    return Err(FileError::new(
                        SyntaxKind::PlayersTwice,
                        "the players are declared twice",
                        s,
                        "declared again here",
                    )
                    .with_help("list every player in one `players` line"));
                }
                game.players_span = Some(s);
                for p in item.into_inner() {
                    match p.as_rule() {
                        Rule::players_count => game.player_count = Some(expr(cx, p.into_inner().next().unwrap())),
                        _ => game.players.push(ident(p)),
                    }
                }
            }
            Rule::param_decl => {
                let s = item_span(&item);
                let mut it = item.into_inner();
                let name = ident(it.next().unwrap());
                let ty = type_expr(cx, it.next().unwrap());
                let mut default = None;
                let mut range = None;
                for part in it {
                    let value = Some(expr(cx, part.clone().into_inner().next().unwrap()));
                    match part.as_rule() {
                        Rule::param_default => default = value,
                        _ => range = value,
                    }
                }
                // `= 4 in 1..16` parses as the test `4 in (1..16)`: split it
                // into the default and the range, which is what it means here.
                if let (Some(d), None) = (&default, &range)
                    && let ExprKind::Binary(BinOp::In, value, r) = &d.kind
                {
                    range = Some((**r).clone());
                    default = Some((**value).clone());
                }
                let doc = doc_comment(source, s.start);
                game.params.push(Param {
                    name,
                    ty,
                    default,
                    range,
                    doc,
                    span: s,
                });
            }
            Rule::const_decl => {
                let s = span(&item);
                let mut it = item.into_inner();
                game.consts.push(ConstDecl {
                    name: ident(it.next().unwrap()),
                    ty: type_expr(cx, it.next().unwrap()),
                    value: expr(cx, it.next().unwrap()),
                    span: s,
                });
            }
            Rule::require_decl => {
                let s = item_span(&item);
                let mut it = item.into_inner();
                let cond = expr(cx, it.next().unwrap());
                let message = it.next().map(|p| unquote(p.as_str()));
                game.requires.push(Require { cond, message, span: s });
            }
            Rule::invariant_decl => {
                let s = item_span(&item);
                let mut it = item.into_inner().skip(1).peekable();
                let label = it.next_if(|p| p.as_rule() == Rule::string).map(|p| unquote(p.as_str()));
                let cond = expr(cx, it.next().unwrap());
                let fn_name = invariant_fn_name(game.invariants.len() + 1, label.as_deref());
                game.fns.push(FnDecl {
                    name: Ident {
                        name: fn_name.clone(),
                        span: Span::new(s.start, s.start + "invariant".len()),
                    },
                    params: Vec::new(),
                    ret: Some(TypeExpr::Bool(cond.span)),
                    body: cond.clone(),
                    block: None,
                    span: s,
                });
                game.invariants.push(Invariant {
                    label,
                    fn_name,
                    cond: cond.span,
                    span: s,
                });
            }
            Rule::state_decl => {
                let s = span(&item);
                let mut it = item.into_inner().peekable();
                let visibility = match it.next_if(|p| p.as_rule() == Rule::visibility) {
                    Some(v) if v.as_str() == "hidden" => Visibility::Hidden,
                    Some(_) => Visibility::Private,
                    None => Visibility::Public,
                };
                game.states.push(StateVar {
                    visibility,
                    name: ident(it.next().unwrap()),
                    ty: type_expr(cx, it.next().unwrap()),
                    init: expr(cx, it.next().unwrap()),
                    span: s,
                });
            }
            Rule::fn_decl => {
                let s = span(&item);
                let mut it = item.into_inner().peekable();
                let name = ident(it.next().unwrap());
                let mut params = Vec::new();
                while let Some(p) = it.next_if(|p| p.as_rule() == Rule::fn_param) {
                    let mut pi = p.into_inner();
                    params.push((ident(pi.next().unwrap()), type_expr(cx, pi.next().unwrap())));
                }
                let ret = it.next_if(|p| p.as_rule() == Rule::type_expr).map(|p| type_expr(cx, p));
                let def = it.next().unwrap();
                let (body, block) = match def.as_rule() {
                    Rule::block => {
                        let placeholder = Expr {
                            kind: ExprKind::Int(0),
                            span: span(&def),
                        };
                        (placeholder, Some(block(cx, def)))
                    }
                    _ => (expr(cx, def), None),
                };
                game.fns.push(FnDecl {
                    name,
                    params,
                    ret,
                    body,
                    block,
                    span: s,
                });
            }
            Rule::canonical_decl => {
                // A procedure under a reserved name, so that nothing can call it
                // and a second block is reported as a name declared twice.
                let s = span(&item);
                let def = item.into_inner().next().unwrap();
                let keyword = Span::new(s.start, s.start + "canonical".len());
                game.fns.push(FnDecl {
                    name: Ident {
                        name: CANONICAL.to_string(),
                        span: keyword,
                    },
                    params: Vec::new(),
                    ret: None,
                    body: Expr {
                        kind: ExprKind::Int(0),
                        span: span(&def),
                    },
                    block: Some(block(cx, def)),
                    span: s,
                });
            }
            Rule::display_decl => display_decl(cx, item, &mut game),
            Rule::move_decl => {
                let s = item_span(&item);
                let mut it = item.into_inner().peekable();
                let by = match it.next_if(|p| p.as_rule() == Rule::move_kind) {
                    Some(k) if k.as_str() == "chance" => MoveBy::Chance,
                    Some(_) => MoveBy::Simultaneous,
                    None => MoveBy::Turn,
                };
                let name = ident(it.next().unwrap());
                let mut then = None;
                let mut args = Vec::new();
                let mut requires = Vec::new();
                let mut weight = None;
                let mut body = Vec::new();
                for p in it {
                    match p.as_rule() {
                        Rule::move_arg => {
                            let mut ai = p.into_inner();
                            args.push((ident(ai.next().unwrap()), expr(cx, ai.next().unwrap())));
                        }
                        Rule::requires_clause => requires.push(expr(cx, p.into_inner().next().unwrap())),
                        Rule::weight_clause => weight = Some(expr(cx, p.into_inner().nth(1).unwrap())),
                        Rule::block => body = block(cx, p),
                        Rule::then_block => {
                            let ts = span(&p);
                            then = Some((block(cx, p.into_inner().next().unwrap()), ts));
                        }
                        r => unreachable!("move part {r:?}"),
                    }
                }
                game.moves.push(MoveDecl {
                    by,
                    then,
                    name,
                    args,
                    requires,
                    weight,
                    body,
                    span: s,
                });
            }
            Rule::end_decl => {
                let s = span(&item);
                let mut it = item.into_inner();
                let c = it.next().unwrap();
                let cond = match c.as_rule() {
                    Rule::repeated => {
                        let s = span(&c);
                        let n = c.into_inner().nth(1).expect("`repeated` has a count");
                        EndCond::Repeated(expr(cx, n), s)
                    }
                    _ => EndCond::Expr(expr(cx, c)),
                };
                let outcomes = it.map(|x| outcome(cx, x)).collect();
                game.ends.push(EndDecl {
                    cond,
                    outcomes,
                    span: s,
                });
            }
            Rule::max_moves_decl => {
                let s = item_span(&item);
                let bound = item.into_inner().nth(1).expect("`max moves` has a bound");
                game.max_moves.push((expr(cx, bound), s));
            }
            Rule::EOI => {}
            r => unreachable!("item {r:?}"),
        }
    }
    if let Some(span) = cx.refused.get() {
        return Err(too_deep(span));
    }
    Ok(game)
}

fn outcome(cx: &Cx, p: Pair<Rule>) -> Outcome {
    let s = span(&p);
    match p.as_rule() {
        Rule::winner_outcome => Outcome::Winner(expr(cx, p.into_inner().next().unwrap())),
        Rule::loser_outcome => Outcome::Loser(expr(cx, p.into_inner().next().unwrap())),
        Rule::payoff_outcome => Outcome::Payoff(expr(cx, p.into_inner().next().unwrap())),
        Rule::draw_outcome => Outcome::Draw(s),
        Rule::score_outcome => {
            let mut it = p.into_inner();
            let lowest = it.next().unwrap().as_str() == "lowest";
            Outcome::Score {
                lowest,
                scores: expr(cx, it.next().unwrap()),
                span: s,
            }
        }
        r => unreachable!("outcome {r:?}"),
    }
}

/// A `display` block: its sizes and parts become functions of the game (see
/// [`DisplayDecl`]), the first block's only, so that a second one is
/// reported once, as such, and not as each of its parts declared twice.
fn display_decl(cx: &Cx, item: Pair<Rule>, game: &mut SyntaxTree) {
    let s = span(&item);
    let first = game.displays.is_empty();
    let mut it = item.into_inner();
    let layout = ident(it.next().unwrap());
    let int_type = |at: Span| TypeExpr::Int(at);
    let mut decl = DisplayDecl {
        layout,
        sizes: Vec::new(),
        parts: Vec::new(),
        symbols: Vec::new(),
        colours: Vec::new(),
        style: None,
        click: None,
        cards: Vec::new(),
        sides: Vec::new(),
        names: Vec::new(),
        span: s,
    };
    for p in it {
        match p.as_rule() {
            Rule::expr => {
                let size = expr(cx, p);
                decl.sizes.push(size.span);
                if first {
                    game.fns.push(FnDecl {
                        name: Ident {
                            name: display_size_name(decl.sizes.len() - 1),
                            span: size.span,
                        },
                        params: Vec::new(),
                        ret: Some(int_type(size.span)),
                        body: size,
                        block: None,
                        span: decl.sizes[decl.sizes.len() - 1],
                    });
                }
            }
            Rule::display_symbols => {
                for q in p.into_inner().filter(|q| q.as_rule() == Rule::string) {
                    decl.symbols.push((unquote(q.as_str()), span(&q)));
                }
            }
            Rule::display_colours => {
                for q in p.into_inner().filter(|q| q.as_rule() == Rule::string) {
                    decl.colours.push((unquote(q.as_str()), span(&q)));
                }
            }
            Rule::display_style => {
                let name = p.into_inner().find(|q| q.as_rule() == Rule::ident);
                decl.style = name.map(ident);
            }
            Rule::display_click => {
                let name = p.into_inner().find(|q| q.as_rule() == Rule::ident);
                decl.click = name.map(ident);
            }
            Rule::display_cards => {
                decl.cards
                    .extend(p.into_inner().filter(|q| q.as_rule() == Rule::ident).map(ident));
            }
            Rule::display_sides => {
                decl.sides
                    .extend(p.into_inner().filter(|q| q.as_rule() == Rule::ident).map(ident));
            }
            Rule::display_names => {
                let mut qs = p.into_inner().filter(|q| q.as_rule() != Rule::names_word);
                let field = ident(qs.next().unwrap());
                let names = qs.map(|q| (unquote(q.as_str()), span(&q))).collect();
                decl.names.push((field, names));
            }
            _ => {
                let part_span = span(&p);
                let mut pi = p.into_inner().peekable();
                let name = ident(pi.next().unwrap());
                let mut params = Vec::new();
                while let Some(q) = pi.next_if(|q| q.as_rule() == Rule::ident) {
                    let q = ident(q);
                    let at = q.span;
                    params.push((q, int_type(at)));
                }
                let def = pi.next().unwrap();
                let (body, block) = match def.as_rule() {
                    Rule::block => {
                        let placeholder = Expr {
                            kind: ExprKind::Int(0),
                            span: span(&def),
                        };
                        (placeholder, Some(block(cx, def)))
                    }
                    _ => (expr(cx, def), None),
                };
                decl.parts.push(DisplayPart {
                    name: name.clone(),
                    arity: params.len(),
                    span: part_span,
                });
                if first {
                    game.fns.push(FnDecl {
                        name: Ident {
                            name: display_fn_name(&name.name),
                            span: name.span,
                        },
                        params,
                        ret: Some(int_type(name.span)),
                        body,
                        block,
                        span: part_span,
                    });
                }
            }
        }
    }
    game.displays.push(decl);
}

fn span(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    Span::new(s.start(), s.end())
}

/// A declaration's span without the blank lines and comments that an optional
/// trailing part (`in 1..9`, `then { }`) skipped over before it failed to match.
fn item_span(p: &Pair<Rule>) -> Span {
    let end = p
        .clone()
        .into_inner()
        .last()
        .map_or(p.as_span().end(), |last| last.as_span().end());
    Span::new(p.as_span().start(), end)
}

fn ident(p: Pair<Rule>) -> Ident {
    Ident {
        name: p.as_str().to_string(),
        span: span(&p),
    }
}

fn unquote(s: &str) -> String {
    s.trim_matches('"').to_string()
}

/// The `///` lines directly above byte `start`, joined.
fn doc_comment(source: &str, start: usize) -> String {
    let before = &source[..start];
    let mut lines: Vec<&str> = Vec::new();
    for line in before.lines().rev().skip(usize::from(!before.ends_with('\n'))) {
        match line.trim().strip_prefix("///") {
            Some(doc) => lines.push(doc.trim()),
            None => break,
        }
    }
    lines.reverse();
    lines.join(" ")
}

fn type_expr(cx: &Cx, p: Pair<Rule>) -> TypeExpr {
    let s = span(&p);
    let built = if cx.enter(s) {
        type_inner(cx, p)
    } else {
        TypeExpr::Int(s)
    };
    cx.leave();
    built
}

fn type_inner(cx: &Cx, p: Pair<Rule>) -> TypeExpr {
    let inner = p.into_inner().next().expect("a type");
    let s = span(&inner);
    match inner.as_rule() {
        Rule::int_type => TypeExpr::Int(s),
        Rule::bool_type => TypeExpr::Bool(s),
        Rule::player_type => TypeExpr::Player(s),
        Rule::list_type => {
            let mut it = inner.into_inner();
            let elem = Box::new(type_expr(cx, it.next().unwrap()));
            let capacity = it.next().map(|x| expr(cx, x));
            TypeExpr::List {
                elem,
                capacity,
                span: s,
            }
        }
        Rule::set_type => TypeExpr::Set {
            range: expr(cx, inner.into_inner().next().unwrap()),
            span: s,
        },
        Rule::per_player_type => TypeExpr::PerPlayer(Box::new(type_expr(cx, inner.into_inner().next().unwrap())), s),
        r => unreachable!("type {r:?}"),
    }
}

fn block(cx: &Cx, p: Pair<Rule>) -> Vec<Stmt> {
    p.into_inner().map(|x| stmt(cx, x)).collect()
}

fn stmt(cx: &Cx, p: Pair<Rule>) -> Stmt {
    let s = span(&p);
    let built = if cx.enter(s) {
        stmt_inner(cx, p)
    } else {
        Stmt::Let {
            name: Ident {
                name: "_".into(),
                span: s,
            },
            ty: None,
            value: leaf(s),
            span: s,
        }
    };
    cx.leave();
    built
}

fn stmt_inner(cx: &Cx, p: Pair<Rule>) -> Stmt {
    let s = span(&p);
    let rule = p.as_rule();
    let mut it = p.into_inner();
    match rule {
        Rule::let_stmt => {
            let name = ident(it.next().unwrap());
            let mut next = it.next().unwrap();
            let ty = if next.as_rule() == Rule::type_expr {
                let t = type_expr(cx, next);
                next = it.next().unwrap();
                Some(t)
            } else {
                None
            };
            Stmt::Let {
                name,
                ty,
                value: expr(cx, next),
                span: s,
            }
        }
        Rule::assign_stmt => {
            let place_expr = place(cx, it.next().unwrap());
            let op = match it.next().unwrap().as_str() {
                "+=" => Some(BinOp::Add),
                "-=" => Some(BinOp::Sub),
                "*=" => Some(BinOp::Mul),
                "/=" => Some(BinOp::Div),
                "%=" => Some(BinOp::Rem),
                _ => None,
            };
            Stmt::Assign {
                place: place_expr,
                op,
                value: expr(cx, it.next().unwrap()),
                span: s,
            }
        }
        Rule::if_stmt => {
            let cond = expr(cx, it.next().unwrap());
            let then = block(cx, it.next().unwrap());
            let otherwise = match it.next() {
                None => Vec::new(),
                Some(e) if e.as_rule() == Rule::if_stmt => vec![stmt(cx, e)],
                Some(e) => block(cx, e),
            };
            Stmt::If {
                cond,
                then,
                otherwise,
                span: s,
            }
        }
        Rule::for_stmt => Stmt::For {
            var: ident(it.next().unwrap()),
            coll: expr(cx, it.next().unwrap()),
            body: block(cx, it.next().unwrap()),
            span: s,
        },
        Rule::again_stmt => Stmt::Again(s),
        Rule::while_stmt => Stmt::While {
            cond: expr(cx, it.next().unwrap()),
            body: block(cx, it.next().unwrap()),
            span: s,
        },
        Rule::return_stmt => Stmt::Return {
            value: it.nth(1).map(|x| expr(cx, x)),
            span: s,
        },
        Rule::proc_call => Stmt::ProcCall {
            name: ident(it.next().unwrap()),
            args: it.map(|x| expr(cx, x)).collect(),
            span: s,
        },
        Rule::call_stmt => Stmt::Call {
            target: place(cx, it.next().unwrap()),
            method: ident(it.next().unwrap()),
            args: it.map(|x| expr(cx, x)).collect(),
            span: s,
        },
        r => unreachable!("statement {r:?}"),
    }
}

/// `a[i][j]` as an expression tree of indexes.
fn place(cx: &Cx, p: Pair<Rule>) -> Expr {
    let whole = span(&p);
    let mut it = p.into_inner();
    let first = ident(it.next().unwrap());
    let mut e = Expr {
        span: first.span,
        kind: ExprKind::Name(first.name),
    };
    let mut height = 1;
    for index in it {
        let (i, h) = expr_h(cx, index);
        height = height.max(h) + 1;
        if !cx.fits(height, whole) {
            return leaf(whole);
        }
        let s = e.span.to(i.span).to(Span::new(i.span.end, i.span.end + 1));
        e = Expr {
            kind: ExprKind::Index(Box::new(e), Box::new(i)),
            span: s,
        };
    }
    e
}

fn expr(cx: &Cx, p: Pair<Rule>) -> Expr {
    expr_h(cx, p).0
}

/// An expression and its height (the most nodes on a path down from it).
fn expr_h(cx: &Cx, p: Pair<Rule>) -> (Expr, usize) {
    let s = span(&p);
    let built = if cx.enter(s) {
        pratt(cx, p.into_inner(), s)
    } else {
        (leaf(s), 1)
    };
    cx.leave();
    built
}

/// What stands in for a part of the tree too deep to build; the parse fails.
fn leaf(span: Span) -> Expr {
    Expr {
        kind: ExprKind::Int(0),
        span,
    }
}

fn pratt(cx: &Cx, pairs: Pairs<Rule>, whole: Span) -> (Expr, usize) {
    // The Pratt parser recurses once per prefix operator in a row and per
    // `implies` (which groups to the right): too many, and it is not run.
    let (mut run, mut longest, mut implies) = (0usize, 0usize, 0usize);
    for q in pairs.clone() {
        match q.as_rule() {
            Rule::op_neg | Rule::op_not => {
                run += 1;
                longest = longest.max(run);
            }
            Rule::op_implies => {
                implies += 1;
                run = 0;
            }
            _ => run = 0,
        }
    }
    if !cx.fits(longest.max(implies), whole) {
        return (leaf(whole), 1);
    }
    // Each operator adds a level above its operands.
    let node = |kind: ExprKind, span: Span, height: usize| {
        if cx.fits(height, span) {
            (Expr { kind, span }, height)
        } else {
            (leaf(span), 1)
        }
    };
    PRATT
        .map_primary(|x| primary(cx, x))
        .map_prefix(|op, (e, h)| {
            let s = span(&op).to(e.span);
            let op = if op.as_rule() == Rule::op_neg {
                UnOp::Neg
            } else {
                UnOp::Not
            };
            node(ExprKind::Unary(op, Box::new(e)), s, h + 1)
        })
        .map_postfix(|(e, h), op| {
            let s = e.span.to(span(&op));
            let (i, hi) = expr_h(cx, op.into_inner().next().unwrap());
            node(ExprKind::Index(Box::new(e), Box::new(i)), s, h.max(hi) + 1)
        })
        .map_infix(|(a, ha), op, (b, hb)| {
            let op = match op.as_rule() {
                Rule::op_implies => BinOp::Implies,
                Rule::op_or => BinOp::Or,
                Rule::op_and => BinOp::And,
                Rule::op_eq => BinOp::Eq,
                Rule::op_ne => BinOp::Ne,
                Rule::op_lt => BinOp::Lt,
                Rule::op_le => BinOp::Le,
                Rule::op_gt => BinOp::Gt,
                Rule::op_ge => BinOp::Ge,
                Rule::op_in => BinOp::In,
                Rule::op_not_in => BinOp::NotIn,
                Rule::op_range => BinOp::Range,
                Rule::op_range_excl => BinOp::RangeExcl,
                Rule::op_concat => BinOp::Concat,
                Rule::op_add => BinOp::Add,
                Rule::op_sub => BinOp::Sub,
                Rule::op_mul => BinOp::Mul,
                Rule::op_div => BinOp::Div,
                Rule::op_rem => BinOp::Rem,
                r => unreachable!("operator {r:?}"),
            };
            let s = a.span.to(b.span);
            node(ExprKind::Binary(op, Box::new(a), Box::new(b)), s, ha.max(hb) + 1)
        })
        .parse(pairs)
}

fn primary(cx: &Cx, p: Pair<Rule>) -> (Expr, usize) {
    let s = span(&p);
    // The tallest part below this one.
    let mut below = 0;
    let mut sub = |x: Pair<Rule>| {
        let (e, h) = expr_h(cx, x);
        below = below.max(h);
        e
    };
    let kind = match p.as_rule() {
        Rule::expr => return expr_h(cx, p),
        Rule::int => match p.as_str().parse::<i64>() {
            Ok(n) => ExprKind::Int(n),
            // Too large for a number: the compiler reports it (`Name` of digits).
            Err(_) => ExprKind::Name(p.as_str().to_string()),
        },
        Rule::boolean => ExprKind::Bool(p.as_str() == "true"),
        Rule::no_moves => ExprKind::NoMoves,
        Rule::ident => ExprKind::Name(p.as_str().to_string()),
        Rule::if_expr => {
            let mut it = p.into_inner();
            let c = sub(it.next().unwrap());
            let a = sub(it.next().unwrap());
            let b = sub(it.next().unwrap());
            ExprKind::If(Box::new(c), Box::new(a), Box::new(b))
        }
        Rule::call => {
            let mut it = p.into_inner();
            let name = ident(it.next().unwrap());
            let rest: Vec<Pair<Rule>> = it.collect();
            match rest.get(1).map(|p| p.as_rule()) {
                Some(Rule::generator) => {
                    let mut rest = rest.into_iter();
                    let body = Box::new(sub(rest.next().unwrap()));
                    let mut g = rest.next().unwrap().into_inner();
                    let var = ident(g.next().unwrap());
                    let coll = Box::new(sub(g.next().unwrap()));
                    let filter = g.next().map(|f| Box::new(sub(f)));
                    ExprKind::Generator {
                        func: name,
                        body,
                        var,
                        coll,
                        filter,
                    }
                }
                _ => ExprKind::Call(name, rest.into_iter().map(&mut sub).collect()),
            }
        }
        Rule::list_lit | Rule::set_lit => {
            let set = p.as_rule() == Rule::set_lit;
            let items: Vec<Pair<Rule>> = p.into_inner().collect();
            match items.get(1).map(|p| p.as_rule()) {
                Some(Rule::list_repeat) => {
                    let mut it = items.into_iter();
                    let e = sub(it.next().unwrap());
                    let n = sub(it.next().unwrap().into_inner().next().unwrap());
                    ExprKind::Repeat(Box::new(e), Box::new(n))
                }
                Some(Rule::generator) => {
                    let mut it = items.into_iter();
                    let body = Box::new(sub(it.next().unwrap()));
                    let mut g = it.next().unwrap().into_inner();
                    let var = ident(g.next().unwrap());
                    let coll = Box::new(sub(g.next().unwrap()));
                    let filter = g.next().map(|f| Box::new(sub(f)));
                    ExprKind::Comprehension {
                        set,
                        body,
                        var,
                        coll,
                        filter,
                    }
                }
                _ if set => ExprKind::Set(items.into_iter().map(&mut sub).collect()),
                _ => ExprKind::List(items.into_iter().map(&mut sub).collect()),
            }
        }
        r => unreachable!("primary {r:?}"),
    };
    let height = below + 1;
    if cx.fits(height, s) {
        (Expr { kind, span: s }, height)
    } else {
        (leaf(s), 1)
    }
}

/// The builder's guard. pest returns a parse tree as deep as the file
/// nests, and every step from it to the syntax tree recurses once per level
/// (as does dropping the tree): past [`MAX_BUILD`] levels of recursion, or
/// an expression that tall, or too little stack left, the part is not built
/// and the parse fails with `gdl::syntax::too_deep`. Anything refused here
/// is deeper than [`MAX_NESTING`], so the check that follows the parse
/// would refuse it too.
pub(super) struct Cx {
    depth: Cell<usize>,
    refused: Cell<Option<Span>>,
}

/// The deepest recursion of the builder, and the tallest expression it builds.
const MAX_BUILD: usize = 4 * MAX_NESTING;

/// Stack the builder leaves unused, for what runs after it.
const MIN_STACK_LEFT: usize = 256 << 10;

impl Cx {
    fn new() -> Self {
        Cx {
            depth: Cell::new(0),
            refused: Cell::new(None),
        }
    }

    /// One level deeper, at `span`; `false` when it is one too many (the
    /// caller builds a stand-in, and calls `leave` all the same).
    fn enter(&self, span: Span) -> bool {
        let depth = self.depth.get() + 1;
        self.depth.set(depth);
        let low = stacker::remaining_stack().is_some_and(|left| left < MIN_STACK_LEFT);
        if depth > MAX_BUILD || low || self.refused.get().is_some() {
            self.refuse(span);
            return false;
        }
        true
    }

    fn leave(&self) {
        self.depth.set(self.depth.get() - 1);
    }

    /// Whether a part `height` levels tall may be built at `span`.
    fn fits(&self, height: usize, span: Span) -> bool {
        if height > MAX_BUILD {
            self.refuse(span);
            return false;
        }
        true
    }

    fn refuse(&self, span: Span) {
        if self.refused.get().is_none() {
            self.refused.set(Some(span));
        }
    }
}

/// The error for a file nested too deeply, at `span`.
pub(super) fn too_deep(span: Span) -> FileError {
    FileError::new(
        SyntaxKind::TooDeep,
        format!("this is nested more than {MAX_NESTING} levels deep"),
        span,
        "too deep",
    )
    .with_help(
        "split the expression with `let`, or into functions; every operator counts as a level, \
         so a sum of hundreds of terms is too deep too",
    )
}

/// Turns pest's error into our diagnostic, with the expected tokens in words.
fn syntax_error(e: pest::error::Error<Rule>, source: &str) -> FileError {
    use pest::error::{ErrorVariant, InputLocation};
    let (start, end) = match e.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((a, b)) => (a, b),
    };
    let expected = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut words: Vec<&str> = positives.iter().filter_map(|r| rule_name(*r)).collect();
            words.sort_unstable();
            words.dedup();
            words
        }
        ErrorVariant::CustomError { .. } => Vec::new(),
    };
    // pest's own guard: it stops before the stack runs out.
    if let ErrorVariant::CustomError { message } = &e.variant
        && message.contains("stack limit")
    {
        return too_deep(Span::new(start, start));
    }
    let message = if expected.is_empty() {
        "syntax error".to_string()
    } else {
        format!("syntax error: expected {}", join_or(&expected))
    };
    let error = FileError::new(SyntaxKind::Error, message, Span::new(start, end), "here");
    if expected.contains(&"a name")
        && let Some(word) = reserved_word_at(source, start)
    {
        return FileError::new(
            SyntaxKind::Error,
            format!("syntax error: `{word}` is a reserved word, not a name"),
            Span::new(start, start + word.len()),
            "a name is expected here",
        )
        .with_help(format!("choose another name, such as `{word}_`"));
    }
    if after_bare_return(source, start) {
        return error.with_help(
            "the line before ends with `return`, which returns nothing there: \
             start the value on the line of `return` (`return n + 1`)",
        );
    }
    error
}

/// The words gdl keeps for itself (grammar/gdl.pest's `keyword`).
const RESERVED: &[&str] = &[
    "game",
    "param",
    "const",
    "require",
    "requires",
    "state",
    "fn",
    "move",
    "end",
    "when",
    "winner",
    "loser",
    "draw",
    "payoff",
    "let",
    "if",
    "then",
    "else",
    "for",
    "in",
    "and",
    "or",
    "not",
    "implies",
    "true",
    "false",
    "again",
    "while",
    "return",
    "canonical",
];

/// The reserved word that starts at byte `at`, if one does (a whole word).
fn reserved_word_at(source: &str, at: usize) -> Option<&'static str> {
    let rest = source.get(at..)?;
    let len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    RESERVED.iter().copied().find(|w| *w == &rest[..len])
}

/// Whether the line holding byte `at` comes right after a line that ends
/// with the word `return` (a value meant for it, written on the next line).
fn after_bare_return(source: &str, at: usize) -> bool {
    let Some(line_start) = source.get(..at).and_then(|s| s.rfind('\n')) else {
        return false;
    };
    let before = source[..line_start].trim_end();
    before
        .strip_suffix("return")
        .is_some_and(|rest| !rest.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
}

fn join_or(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// What a rule is called in an error message; `None` for rules too small to name.
fn rule_name(r: Rule) -> Option<&'static str> {
    Some(match r {
        Rule::EOI => "end of file",
        Rule::game_decl => "`game NAME`",
        Rule::players_decl => "`players`",
        Rule::param_decl => "`param`",
        Rule::const_decl => "`const`",
        Rule::require_decl => "`require`",
        Rule::invariant_decl | Rule::invariant_word => "`invariant`",
        // An item's optional first word is what pest reports trying at the
        // start of an item: named after the item, so `mvoe` lists `move`.
        Rule::state_decl | Rule::visibility => "`state`",
        Rule::fn_decl => "`fn`",
        Rule::move_decl | Rule::move_kind => "`move`",
        Rule::canonical_decl => "`canonical`",
        Rule::display_decl => "`display`",
        Rule::display_fn => "a display part (`cell(r, c) = ...`)",
        Rule::display_symbols | Rule::symbols_word => "`symbols`",
        Rule::display_colours | Rule::colours_word => "`colours`",
        Rule::display_style | Rule::style_word => "`style`",
        Rule::display_click | Rule::click_word => "`click`",
        Rule::display_cards | Rule::cards_word => "`cards`",
        Rule::display_sides | Rule::sides_word => "`sides`",
        Rule::display_names | Rule::names_word => "`names`",
        Rule::end_decl => "`end when`",
        Rule::max_moves_decl | Rule::max_moves_word => "`max moves`",
        Rule::type_expr => "a type (int, bool, player, list<...>, set<...>)",
        Rule::expr | Rule::if_expr | Rule::call | Rule::list_lit | Rule::set_lit | Rule::int => "an expression",
        Rule::ident => "a name",
        Rule::string => "a \"string\"",
        Rule::block => "`{`",
        Rule::stmt
        | Rule::let_stmt
        | Rule::if_stmt
        | Rule::for_stmt
        | Rule::again_stmt
        | Rule::while_stmt
        | Rule::return_stmt
        | Rule::return_word
        | Rule::return_value_word
        | Rule::proc_call
        | Rule::assign_stmt
        | Rule::call_stmt => "a statement",
        Rule::assign_op => "`=`",
        Rule::outcome
        | Rule::winner_outcome
        | Rule::loser_outcome
        | Rule::draw_outcome
        | Rule::payoff_outcome
        | Rule::score_outcome => "an outcome (winner, loser, draw, payoff, lowest ... wins)",
        Rule::then_block => "`then`",
        Rule::requires_clause => "`requires`",
        Rule::weight_clause | Rule::weight_word => "`weight`",
        Rule::param_default => "`=`",
        Rule::param_range => "`in`",
        Rule::move_arg => "a move argument (`x in ...`)",
        Rule::no_moves => "`no moves`",
        Rule::repeated | Rule::repeated_word => "`repeated`",
        Rule::generator => "`for`",
        Rule::infix | Rule::op_add | Rule::op_and | Rule::op_or | Rule::op_eq => "an operator",
        Rule::index => "`[`",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    /// The words the error message calls reserved are the grammar's keywords.
    #[test]
    fn the_reserved_words_are_the_grammar_s() {
        let grammar = include_str!("../../grammar/gdl.pest");
        let rule = grammar
            .split("keyword = @{")
            .nth(1)
            .and_then(|r| r.split('}').next())
            .expect("the grammar has a keyword rule");
        let mut keywords: Vec<&str> = rule.split('"').skip(1).step_by(2).collect();
        let mut reserved = super::RESERVED.to_vec();
        keywords.sort_unstable();
        reserved.sort_unstable();
        assert_eq!(keywords, reserved);
    }
}
