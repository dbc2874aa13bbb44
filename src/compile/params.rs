//! Parameter values as callers give them: text from the command line
//! (`--pits 4`), or typed values from a program (`gdl::load`, Python), and
//! how each is read as a value of the declared type. An error names what the
//! caller wrote: the flag on the command line, the parameter elsewhere.

use std::collections::BTreeSet;
use std::fmt;

use super::consts::parse_flag_value;
use super::lower::{Ty, example_value};
use crate::value::Value;

/// A parameter's value as a program gives it: `ParamValue::from(4)`,
/// `vec![7, 5, 3, 1].into()`, `"MAX".into()` (a player, by name).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ParamValue {
    Int(i64),
    Bool(bool),
    /// Text in the file's notation, read as the command line reads a flag's
    /// value: a player's name (`"MAX"`), or `"7,5,3,1"` for a list.
    Text(String),
    List(Vec<ParamValue>),
    Set(BTreeSet<i64>),
}

impl ParamValue {
    fn kind(&self) -> &'static str {
        match self {
            ParamValue::Int(_) => "an int",
            ParamValue::Bool(_) => "a bool",
            ParamValue::Text(_) => "a text",
            ParamValue::List(_) => "a list",
            ParamValue::Set(_) => "a set",
        }
    }
}

/// As a `.game` file writes it (`[7, 5, 3, 1]`); text in quotes.
impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Int(n) => write!(f, "{n}"),
            ParamValue::Bool(b) => write!(f, "{b}"),
            ParamValue::Text(t) => write!(f, "{t:?}"),
            ParamValue::List(items) => {
                let items: Vec<String> = items.iter().map(ToString::to_string).collect();
                write!(f, "[{}]", items.join(", "))
            }
            ParamValue::Set(items) => {
                let items: Vec<String> = items.iter().map(ToString::to_string).collect();
                write!(f, "{{{}}}", items.join(", "))
            }
        }
    }
}

impl From<i64> for ParamValue {
    fn from(n: i64) -> Self {
        ParamValue::Int(n)
    }
}

impl From<i32> for ParamValue {
    fn from(n: i32) -> Self {
        ParamValue::Int(n.into())
    }
}

impl From<bool> for ParamValue {
    fn from(b: bool) -> Self {
        ParamValue::Bool(b)
    }
}

impl From<&str> for ParamValue {
    fn from(t: &str) -> Self {
        ParamValue::Text(t.to_string())
    }
}

impl From<String> for ParamValue {
    fn from(t: String) -> Self {
        ParamValue::Text(t)
    }
}

impl<T: Into<ParamValue>> From<Vec<T>> for ParamValue {
    fn from(items: Vec<T>) -> Self {
        ParamValue::List(items.into_iter().map(Into::into).collect())
    }
}

impl From<BTreeSet<i64>> for ParamValue {
    fn from(items: BTreeSet<i64>) -> Self {
        ParamValue::Set(items)
    }
}

/// The parameter values of one load, and who gave them.
#[derive(Clone, Copy, Debug)]
pub enum Bindings<'a> {
    /// The command line's `--NAME VALUE`, as text: errors name the flags.
    Flags(&'a [(String, String)]),
    /// A program's (the Rust API's, Python's): errors name the parameters.
    Values(&'a [(String, ParamValue)]),
}

impl<'a> Bindings<'a> {
    /// Every name given, in order (a name may come twice: the last wins).
    pub(super) fn names(&self) -> Vec<&'a str> {
        match self {
            Bindings::Flags(b) => b.iter().map(|(n, _)| n.as_str()).collect(),
            Bindings::Values(b) => b.iter().map(|(n, _)| n.as_str()).collect(),
        }
    }

    /// The value given for `name`, the last one if several.
    pub(super) fn given(&self, name: &str) -> Option<Given<'a>> {
        match self {
            Bindings::Flags(b) => b.iter().rev().find(|(n, _)| n == name).map(|(_, v)| Given::Flag(v)),
            Bindings::Values(b) => b.iter().rev().find(|(n, _)| n == name).map(|(_, v)| Given::Value(v)),
        }
    }

    /// How to give `name`, which has no default and was not given.
    pub(super) fn missing_help(&self, name: &str) -> String {
        match self {
            Bindings::Flags(_) => format!("give it on the command line: --{name} VALUE"),
            Bindings::Values(_) => format!("give it a value: {name} = VALUE"),
        }
    }
}

/// One parameter's value as given.
#[derive(Clone, Copy, Debug)]
pub(super) enum Given<'a> {
    Flag(&'a str),
    Value(&'a ParamValue),
}

impl Given<'_> {
    /// The value, read as a `ty`; `example` is a value of that type (the
    /// default, where there is one), which the command line's notation reads by.
    pub(super) fn read(&self, ty: &Ty, example: &Value, players: &[String]) -> Result<Value, String> {
        match self {
            Given::Flag(text) => parse_flag_value(text, example, players),
            Given::Value(v) => typed(v, ty, example, players),
        }
    }

    /// `message` about the value given for `name`, naming it as it was given.
    pub(super) fn bad(&self, name: &str, message: &str) -> String {
        match self {
            Given::Flag(text) => format!("--{name} {text}: {message}"),
            Given::Value(v) => format!("{name} = {v}: {message}"),
        }
    }

    /// `name`, given as `shown`, is out of `lo..hi` at `bad` (an element, for a list).
    pub(super) fn out_of_range(&self, name: &str, shown: &str, bad: &str, list: bool, (lo, hi): (i64, i64)) -> String {
        let given = match self {
            Given::Flag(_) => format!("--{name} {shown}"),
            Given::Value(_) => format!("{name} = {shown}"),
        };
        if list {
            format!("{given}: {bad} is out of range; each element must be in {lo}..{hi}")
        } else {
            format!("{given} is out of range: `{name}` must be in {lo}..{hi}")
        }
    }
}

/// A typed value read as a `ty`. Text inside it reads in the command line's
/// notation, by `example`. The recursion follows `ty`, which a file nests
/// only as deep as its parser allows.
fn typed(v: &ParamValue, ty: &Ty, example: &Value, players: &[String]) -> Result<Value, String> {
    match (v, ty) {
        (ParamValue::Text(text), _) => parse_flag_value(text, example, players),
        (ParamValue::Int(n), Ty::Int) => Ok(Value::Int(*n)),
        (ParamValue::Bool(b), Ty::Bool) => Ok(Value::Bool(*b)),
        (ParamValue::Set(items), Ty::Set) => Ok(Value::Set(items.clone())),
        // A list of numbers is a set's members, as `{1, 5}` in a file.
        (ParamValue::List(items), Ty::Set) => items
            .iter()
            .map(|item| match item {
                ParamValue::Int(n) => Ok(*n),
                other => Err(format!("a set holds ints, not {}", other.kind())),
            })
            .collect::<Result<BTreeSet<i64>, _>>()
            .map(Value::Set),
        (ParamValue::List(items), Ty::List(elem)) => {
            let first = match example {
                Value::List(examples) => examples.first().cloned(),
                _ => None,
            };
            let example = first.unwrap_or_else(|| example_value(elem));
            items
                .iter()
                .map(|item| typed(item, elem, &example, players))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::List)
        }
        (v, Ty::Player) => Err(format!(
            "expected a player's name ({}), found {}",
            players.join(", "),
            v.kind()
        )),
        (v, ty) => Err(format!("expected {}, found {}", with_article(ty), v.kind())),
    }
}

fn with_article(ty: &Ty) -> String {
    match ty {
        Ty::Int => "an int".into(),
        other => format!("a {other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn players() -> Vec<String> {
        vec!["MAX".into(), "MIN".into()]
    }

    #[test]
    fn typed_values_read_as_their_declared_types() {
        let list = Ty::List(Box::new(Ty::Int));
        let read = |v: ParamValue, ty: &Ty| typed(&v, ty, &example_value(ty), &players());
        assert_eq!(read(4.into(), &Ty::Int), Ok(Value::Int(4)));
        assert_eq!(read(true.into(), &Ty::Bool), Ok(Value::Bool(true)));
        assert_eq!(read("MIN".into(), &Ty::Player), Ok(Value::Player(1)));
        assert_eq!(
            read(vec![7, 5].into(), &list),
            Ok(Value::List(vec![Value::Int(7), Value::Int(5)]))
        );
        // Text inside a list reads as the command line reads it.
        assert_eq!(read(vec!["3"].into(), &list), Ok(Value::List(vec![Value::Int(3)])));
        assert_eq!(read(vec![5, 1].into(), &Ty::Set), Ok(Value::Set([1, 5].into())));
        let nested = Ty::List(Box::new(list.clone()));
        assert_eq!(
            read(vec![vec![1], vec![]].into(), &nested),
            Ok(Value::List(vec![Value::List(vec![Value::Int(1)]), Value::List(vec![])]))
        );
    }

    #[test]
    fn a_value_of_another_type_says_what_was_expected() {
        let read = |v: ParamValue, ty: &Ty| typed(&v, ty, &example_value(ty), &players());
        assert_eq!(read(true.into(), &Ty::Int), Err("expected an int, found a bool".into()));
        assert_eq!(
            read(vec![1].into(), &Ty::Bool),
            Err("expected a bool, found a list".into())
        );
        assert_eq!(
            read(0.into(), &Ty::Player),
            Err("expected a player's name (MAX, MIN), found an int".into())
        );
        assert_eq!(read("x".into(), &Ty::Int), Err("`x` is not a whole number".into()));
    }

    #[test]
    fn errors_name_the_flag_or_the_parameter_as_given() {
        let value = ParamValue::from(vec![3, 30]);
        assert_eq!(Given::Flag("3,30").bad("piles", "why"), "--piles 3,30: why");
        assert_eq!(Given::Value(&value).bad("piles", "why"), "piles = [3, 30]: why");
        assert_eq!(
            Given::Value(&ParamValue::from(99)).out_of_range("pits", "99", "99", false, (1, 10)),
            "pits = 99 is out of range: `pits` must be in 1..10"
        );
        assert_eq!(
            Given::Flag("99").out_of_range("pits", "99", "99", false, (1, 10)),
            "--pits 99 is out of range: `pits` must be in 1..10"
        );
    }
}
