//! Values known before the game starts: parameters, initial states, the
//! conditions of `require`. They are computed here, once, from the syntax tree.

use std::collections::BTreeSet;

use indexmap::IndexMap;

use super::CompileError;
use super::compile_kind::CompileKind;
use crate::syntax::ast::{BinOp, Expr, ExprKind, FnDecl, Span, UnOp};
use crate::value::Value;

impl Value {
    /// How many values this holds, the elements of nested lists counted
    /// through, and a list (even empty) counting at least one: the measure of
    /// [`MAX_CONST_LEN`].
    fn weight(&self) -> u64 {
        match self {
            Value::List(items) => list_weight(items).max(1),
            Value::Set(s) => (s.len() as u64).max(1),
            _ => 1,
        }
    }

    /// The elements of a list, set or range; `None` for a single value. A
    /// range of more than `MAX_CONST_LEN` numbers is an error at `span`.
    fn elements(&self, span: Span) -> Result<Option<Vec<Value>>, CompileError> {
        Ok(match self {
            Value::List(v) => Some(v.clone()),
            Value::Set(s) => Some(s.iter().map(|&n| Value::Int(n)).collect()),
            Value::Range(lo, hi) => {
                if i128::from(*hi) - i128::from(*lo) >= i128::from(MAX_CONST_LEN) {
                    return Err(err(
                        span,
                        CompileKind::Length,
                        format!("the range {lo}..{hi} is too long to go through (at most {MAX_CONST_LEN} numbers)"),
                    ));
                }
                Some((*lo..=*hi).map(Value::Int).collect())
            }
            _ => None,
        })
    }
}

fn list_weight(items: &[Value]) -> u64 {
    items.iter().map(Value::weight).sum()
}

/// An error unless a value of `weight` is within [`MAX_CONST_LEN`].
fn within_length(weight: u64, span: Span) -> Result<(), CompileError> {
    if weight > MAX_CONST_LEN as u64 {
        return Err(err(
            span,
            CompileKind::Length,
            format!(
                "this holds more than {} values (nested lists count every element)",
                crate::digits::thousands(MAX_CONST_LEN as u64)
            ),
        ));
    }
    Ok(())
}

/// Names a constant expression may use.
pub struct ConstEnv<'a> {
    pub players: &'a IndexMap<String, usize>,
    pub params: &'a IndexMap<String, Value>,
    pub fns: &'a IndexMap<String, &'a FnDecl>,
    /// Function arguments and generator variables, innermost last.
    pub locals: Vec<(String, Value)>,
    /// Guards against a function that calls itself forever.
    pub depth: usize,
}

type R = Result<Value, CompileError>;

fn err(span: Span, kind: CompileKind, message: impl Into<String>) -> CompileError {
    CompileError::new(kind, message, span, "here")
}

fn int(v: Value, span: Span) -> Result<i64, CompileError> {
    match v {
        Value::Int(n) => Ok(n),
        other => Err(CompileError::new(
            CompileKind::TypeMismatch,
            format!("expected an int, found a {}", other.kind()),
            span,
            format!("this is a {}", other.kind()),
        )),
    }
}

fn boolean(v: Value, span: Span) -> Result<bool, CompileError> {
    match v {
        Value::Bool(b) => Ok(b),
        other => Err(CompileError::new(
            CompileKind::TypeMismatch,
            format!("expected a bool, found a {}", other.kind()),
            span,
            format!("this is a {}", other.kind()),
        )),
    }
}

fn overflow(span: Span) -> CompileError {
    err(span, CompileKind::Overflow, "arithmetic overflow")
}

/// Largest list a constant expression may build, so `[0; 1000000000]` is an error, not a hang.
/// Nested lists count every element: `[[0; 1000]; 100]` holds 100,000.
const MAX_CONST_LEN: i64 = 100_000;

/// The most steps of work one constant expression may take (a step: one
/// node of the expression evaluated, or one element copied).
pub const MAX_CONST_STEPS: u64 = 10_000_000;

impl ConstEnv<'_> {
    /// The value of `e`, computed in at most [`MAX_CONST_STEPS`] steps.
    pub fn eval(&mut self, e: &Expr) -> R {
        Evaluation { env: self, steps: 0 }.eval(e)
    }
}

/// One evaluation of a constant expression, and the steps it has taken.
struct Evaluation<'e, 'a> {
    env: &'e mut ConstEnv<'a>,
    steps: u64,
}

impl Evaluation<'_, '_> {
    /// Counts `n` steps of work at `span`; past the budget, an error there.
    fn step(&mut self, n: u64, span: Span) -> Result<(), CompileError> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > MAX_CONST_STEPS {
            return Err(err(
                span,
                CompileKind::Steps,
                format!(
                    "computing this before the game starts takes more than {} steps",
                    crate::digits::thousands(MAX_CONST_STEPS)
                ),
            )
            .with_help(
                "parameters, initial values and `require` are computed once, when the game is loaded; \
                 a function that calls itself twice (as fib) takes exponential time",
            ));
        }
        Ok(())
    }

    fn eval(&mut self, e: &Expr) -> R {
        self.step(1, e.span)?;
        match &e.kind {
            ExprKind::Int(n) => Ok(Value::Int(*n)),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::Name(name) => self.name(name, e.span),
            ExprKind::NoMoves => Err(CompileError::new(
                CompileKind::NotConstant,
                "`no moves` is not known before the game starts",
                e.span,
                "known only during play",
            )
            .with_help("`no moves` is a term of an `end when` condition")),
            ExprKind::Unary(UnOp::Neg, a) => {
                let n = int(self.eval(a)?, a.span)?;
                n.checked_neg().map(Value::Int).ok_or_else(|| overflow(e.span))
            }
            ExprKind::Unary(UnOp::Not, a) => Ok(Value::Bool(!boolean(self.eval(a)?, a.span)?)),
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e.span),
            ExprKind::Index(a, i) => {
                let list = self.eval(a)?;
                let idx = int(self.eval(i)?, i.span)?;
                match list {
                    Value::List(items) => usize::try_from(idx)
                        .ok()
                        .and_then(|k| items.get(k).cloned())
                        .ok_or_else(|| {
                            err(
                                i.span,
                                CompileKind::Index,
                                format!("index {idx} is out of range for a list of length {}", items.len()),
                            )
                        }),
                    other => Err(err(
                        a.span,
                        CompileKind::TypeMismatch,
                        format!("only a list can be indexed, this is a {}", other.kind()),
                    )),
                }
            }
            ExprKind::If(c, a, b) => {
                if boolean(self.eval(c)?, c.span)? {
                    self.eval(a)
                } else {
                    self.eval(b)
                }
            }
            ExprKind::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                let mut weight = 0;
                for x in items {
                    let v = self.eval(x)?;
                    weight += v.weight();
                    within_length(weight, e.span)?;
                    out.push(v);
                }
                Ok(Value::List(out))
            }
            ExprKind::Repeat(x, n) => {
                let v = self.eval(x)?;
                let count = int(self.eval(n)?, n.span)?;
                if !(0..=MAX_CONST_LEN).contains(&count) {
                    return Err(err(
                        n.span,
                        CompileKind::Length,
                        format!("a list of length {count} is not possible (0 to {MAX_CONST_LEN})"),
                    ));
                }
                let weight = v.weight().saturating_mul(count as u64);
                within_length(weight, e.span)?;
                self.step(weight, e.span)?;
                Ok(Value::List(vec![v; count as usize]))
            }
            ExprKind::Set(items) => {
                let mut set = BTreeSet::new();
                for x in items {
                    match self.eval(x)? {
                        Value::Int(n) => {
                            set.insert(n);
                        }
                        Value::Range(lo, hi) => {
                            if i128::from(hi) - i128::from(lo) > i128::from(MAX_CONST_LEN) {
                                return Err(err(x.span, CompileKind::Length, "this range is too large for a set"));
                            }
                            set.extend(lo..=hi);
                            within_length(set.len() as u64, e.span)?;
                        }
                        other => {
                            return Err(err(
                                x.span,
                                CompileKind::TypeMismatch,
                                format!("a set holds ints, this is a {}", other.kind()),
                            ));
                        }
                    }
                }
                Ok(Value::Set(set))
            }
            ExprKind::Call(name, args) => {
                let vals: Vec<Value> = args.iter().map(|a| self.eval(a)).collect::<Result<_, _>>()?;
                self.call(&name.name, name.span, vals, args, e.span)
            }
            ExprKind::Generator {
                func,
                body,
                var,
                coll,
                filter,
            } => {
                let out = self.generate(body, var, coll, filter.as_deref(), e.span)?;
                let args = [Expr {
                    kind: ExprKind::List(Vec::new()),
                    span: e.span,
                }];
                self.call(&func.name, func.span, vec![Value::List(out)], &args, e.span)
            }
            ExprKind::Comprehension {
                set,
                body,
                var,
                coll,
                filter,
            } => {
                let out = self.generate(body, var, coll, filter.as_deref(), e.span)?;
                if !set {
                    return Ok(Value::List(out));
                }
                let mut members = BTreeSet::new();
                for v in out {
                    members.insert(int(v, body.span)?);
                }
                Ok(Value::Set(members))
            }
        }
    }

    /// The values of `body` for each `var` in `coll` that passes `filter`.
    fn generate(
        &mut self,
        body: &Expr,
        var: &crate::syntax::ast::Ident,
        coll: &Expr,
        filter: Option<&Expr>,
        span: Span,
    ) -> Result<Vec<Value>, CompileError> {
        let c = self.eval(coll)?;
        self.step(c.weight(), coll.span)?;
        let items = c.elements(coll.span)?.ok_or_else(|| {
            err(
                coll.span,
                CompileKind::TypeMismatch,
                format!("expected a list, set or range to go through, found a {}", c.kind()),
            )
        })?;
        let mut out = Vec::new();
        let mut weight = 0;
        for item in items {
            self.env.locals.push((var.name.clone(), item));
            let keep = match filter {
                Some(f) => self.eval(f).and_then(|v| boolean(v, f.span)),
                None => Ok(true),
            };
            let value = match keep {
                Ok(true) => self.eval(body).map(Some),
                Ok(false) => Ok(None),
                Err(e) => Err(e),
            };
            self.env.locals.pop();
            if let Some(v) = value? {
                weight += v.weight();
                within_length(weight, span)?;
                out.push(v);
            }
        }
        Ok(out)
    }

    fn name(&mut self, name: &str, span: Span) -> R {
        let found = match self.env.locals.iter().rev().find(|(n, _)| n == name) {
            Some((_, v)) => Some(v),
            None => self.env.params.get(name),
        };
        if let Some(v) = found {
            let v = v.clone();
            // Copying a long list is work too.
            self.step(v.weight(), span)?;
            return Ok(v);
        }
        if let Some(&p) = self.env.players.get(name) {
            return Ok(Value::Player(p));
        }
        if name.chars().all(|c| c.is_ascii_digit()) {
            return Err(err(span, CompileKind::Overflow, "this number is too large"));
        }
        Err(CompileError::new(
            CompileKind::NotConstant,
            format!("`{name}` is not known before the game starts"),
            span,
            "not a parameter",
        )
        .with_help("parameters, players and functions of them can be used here; state variables cannot"))
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, span: Span) -> R {
        use BinOp::*;
        match op {
            And | Or | Implies => {
                let x = boolean(self.eval(a)?, a.span)?;
                let short = match op {
                    And => !x,
                    Or => x,
                    _ => !x,
                };
                if short {
                    return Ok(Value::Bool(op != And));
                }
                Ok(Value::Bool(boolean(self.eval(b)?, b.span)?))
            }
            Eq | Ne => {
                let x = self.eval(a)?;
                let y = self.eval(b)?;
                self.step(x.weight().min(y.weight()), span)?;
                Ok(Value::Bool((x == y) == (op == Eq)))
            }
            In | NotIn => {
                let x = self.eval(a)?;
                let c = self.eval(b)?;
                if let (Value::Int(n), Value::Range(lo, hi)) = (&x, &c) {
                    return Ok(Value::Bool((lo <= n && n <= hi) == (op == In)));
                }
                self.step(c.weight(), b.span)?;
                let items = c.elements(b.span)?.ok_or_else(|| {
                    err(
                        b.span,
                        CompileKind::TypeMismatch,
                        format!("`in` needs a collection, found a {}", c.kind()),
                    )
                })?;
                Ok(Value::Bool(items.contains(&x) == (op == In)))
            }
            Concat => match (self.eval(a)?, self.eval(b)?) {
                (Value::List(mut x), Value::List(y)) => {
                    let weight = (list_weight(&x) + list_weight(&y)).max(1);
                    within_length(weight, span)?;
                    self.step(weight, span)?;
                    x.extend(y);
                    Ok(Value::List(x))
                }
                (x, y) => Err(err(
                    span,
                    CompileKind::TypeMismatch,
                    format!("`++` joins two lists, found a {} and a {}", x.kind(), y.kind()),
                )),
            },
            _ => {
                let x = int(self.eval(a)?, a.span)?;
                let y = int(self.eval(b)?, b.span)?;
                let v = match op {
                    Lt => return Ok(Value::Bool(x < y)),
                    Le => return Ok(Value::Bool(x <= y)),
                    Gt => return Ok(Value::Bool(x > y)),
                    Ge => return Ok(Value::Bool(x >= y)),
                    Range => return Ok(Value::Range(x, y)),
                    RangeExcl => return Ok(Value::Range(x, y.saturating_sub(1))),
                    Add => x.checked_add(y),
                    Sub => x.checked_sub(y),
                    Mul => x.checked_mul(y),
                    Div | Rem if y == 0 => {
                        return Err(err(b.span, CompileKind::DivisionByZero, "division by zero"));
                    }
                    // The smallest int divided by -1 overflows.
                    Div => x.checked_div_euclid(y),
                    Rem => x.checked_rem_euclid(y),
                    _ => unreachable!(),
                };
                v.map(Value::Int).ok_or_else(|| overflow(span))
            }
        }
    }

    fn call(&mut self, name: &str, name_span: Span, vals: Vec<Value>, args: &[Expr], span: Span) -> R {
        // Built-ins go through their arguments' elements.
        self.step(vals.iter().map(Value::weight).sum(), span)?;
        let arity = |n: usize| -> Result<(), CompileError> {
            if vals.len() == n {
                Ok(())
            } else {
                Err(super::lower::arity_error(name, n, vals.len(), span))
            }
        };
        let ints = |v: &Value, s: Span| -> Result<Vec<i64>, CompileError> {
            let items = v.elements(s)?.ok_or_else(|| {
                err(
                    s,
                    CompileKind::TypeMismatch,
                    format!("`{name}` needs a collection, found a {}", v.kind()),
                )
            })?;
            items.into_iter().map(|x| int(x, s)).collect()
        };
        match name {
            "len" | "count" => {
                arity(1)?;
                let items = vals[0].elements(args[0].span)?.ok_or_else(|| {
                    err(
                        args[0].span,
                        CompileKind::TypeMismatch,
                        format!("`{name}` needs a collection"),
                    )
                })?;
                let n = if name == "count" {
                    items.iter().filter(|v| **v != Value::Bool(false)).count()
                } else {
                    items.len()
                };
                Ok(Value::Int(n as i64))
            }
            "sum" => {
                arity(1)?;
                let xs = ints(&vals[0], args[0].span)?;
                xs.iter()
                    .try_fold(0i64, |acc, &x| acc.checked_add(x))
                    .map(Value::Int)
                    .ok_or_else(|| overflow(span))
            }
            "min" | "max" => {
                let xs = if vals.len() == 1 {
                    ints(&vals[0], args[0].span)?
                } else {
                    vals.iter()
                        .zip(args)
                        .map(|(v, a)| int(v.clone(), a.span))
                        .collect::<Result<_, _>>()?
                };
                let m = if name == "min" {
                    xs.iter().min()
                } else {
                    xs.iter().max()
                };
                m.map(|&n| Value::Int(n))
                    .ok_or_else(|| err(span, CompileKind::Empty, format!("`{name}` of nothing")))
            }
            "any" | "all" => {
                arity(1)?;
                let items = vals[0].elements(args[0].span)?.unwrap_or_default();
                let bools: Vec<bool> = items.into_iter().map(|v| boolean(v, span)).collect::<Result<_, _>>()?;
                Ok(Value::Bool(if name == "any" {
                    bools.iter().any(|b| *b)
                } else {
                    bools.iter().all(|b| *b)
                }))
            }
            "abs" => {
                arity(1)?;
                let x = int(vals[0].clone(), args[0].span)?;
                x.checked_abs().map(Value::Int).ok_or_else(|| overflow(span))
            }
            _ => {
                let Some(f) = self.env.fns.get(name).copied() else {
                    return Err(super::lower::unknown_function(name, name_span, self.env.fns.keys()));
                };
                arity(f.params.len())?;
                if self.env.depth > 64 {
                    return Err(err(
                        span,
                        CompileKind::Recursion,
                        format!("`{name}` calls itself too deeply"),
                    ));
                }
                let saved = std::mem::take(&mut self.env.locals);
                self.env.locals = f.params.iter().map(|(p, _)| p.name.clone()).zip(vals).collect();
                self.env.depth += 1;
                let result = self.eval(&f.body);
                self.env.depth -= 1;
                self.env.locals = saved;
                result
            }
        }
    }
}

/// Reads a parameter's value from the command line, in the same notation as
/// the file: `4`, `true`, `7,5,3,1` or `[7, 5, 3, 1]`.
pub fn parse_flag_value(text: &str, example: &Value, players: &[String]) -> Result<Value, String> {
    let t = text.trim();
    match example {
        Value::Int(_) => t
            .parse::<i64>()
            .map(Value::Int)
            .map_err(|_| format!("`{t}` is not a whole number")),
        Value::Bool(_) => match t {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(format!("`{t}` is not true or false")),
        },
        Value::Player(_) => players
            .iter()
            .position(|p| p == t)
            .map(Value::Player)
            .ok_or_else(|| format!("`{t}` is not a player ({})", players.join(", "))),
        Value::List(items) => {
            let inner = t
                .strip_prefix('[')
                .and_then(|s| s.strip_suffix(']'))
                .unwrap_or(t)
                .trim();
            if inner.is_empty() {
                return Ok(Value::List(Vec::new()));
            }
            let elem = items.first().cloned().unwrap_or(Value::Int(0));
            if !matches!(elem, Value::Int(_) | Value::Bool(_) | Value::Player(_)) {
                return Err("only lists of numbers can be given on the command line".into());
            }
            inner
                .split(',')
                .map(|part| parse_flag_value(part, &elem, players))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::List)
        }
        Value::Set(_) => {
            let inner = t
                .strip_prefix('{')
                .and_then(|s| s.strip_suffix('}'))
                .unwrap_or(t)
                .trim();
            if inner.is_empty() {
                return Ok(Value::Set(BTreeSet::new()));
            }
            inner
                .split(',')
                .map(|p| {
                    p.trim()
                        .parse::<i64>()
                        .map_err(|_| format!("`{}` is not a whole number", p.trim()))
                })
                .collect::<Result<BTreeSet<_>, _>>()
                .map(Value::Set)
        }
        Value::Range(..) => Err("a range cannot be given on the command line".into()),
    }
}
