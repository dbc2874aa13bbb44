//! Run-time values and their layout in a state's cells: what the compiler
//! computes before the game starts, what a position's text is read into,
//! and what the interpreter shows. Below both compile and runtime, so that
//! neither imports the other for them.

use std::collections::BTreeSet;
use std::fmt;

use crate::ir::Layout;

/// A value: a parameter or constant the compiler computed, or a state
/// variable read back from the cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Player(usize),
    List(Vec<Value>),
    Set(BTreeSet<i64>),
    /// `lo..=hi`
    Range(i64, i64),
}

impl Value {
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Int(_) => "int",
            Value::Bool(_) => "bool",
            Value::Player(_) => "player",
            Value::List(_) => "list",
            Value::Set(_) => "set",
            Value::Range(..) => "range",
        }
    }
}

/// Writes a value as a `.game` file (and the command line) would: `[7, 5, 3, 1]`.
pub struct ShowValue<'a>(pub &'a Value, pub &'a [String]);

impl fmt::Display for ShowValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Value::Int(n) => write!(f, "{n}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Player(p) => match self.1.get(*p) {
                Some(name) => f.write_str(name),
                None => write!(f, "player {p}"),
            },
            Value::List(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}", ShowValue(v, self.1))?;
                }
                f.write_str("]")
            }
            Value::Set(items) => {
                f.write_str("{")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("}")
            }
            Value::Range(lo, hi) => write!(f, "{lo}..{hi}"),
        }
    }
}

/// Writes `value` into `cells` laid out as `layout`.
pub(crate) fn store_value(layout: &Layout, value: &Value, cells: &mut [i64]) -> Result<(), String> {
    match (layout, value) {
        (Layout::Int, Value::Int(n)) => cells[0] = *n,
        (Layout::Bool, Value::Bool(b)) => cells[0] = i64::from(*b),
        (Layout::Player, Value::Player(p)) => cells[0] = *p as i64,
        (Layout::Set { lo, hi }, Value::Set(items)) => {
            cells[..layout.size()].fill(0);
            for &n in items {
                if n < *lo || n > *hi {
                    return Err(format!("{n} is outside the set's range {lo}..{hi}"));
                }
                let bit = (n - lo) as usize;
                cells[bit / 64] |= 1 << (bit % 64);
            }
        }
        (Layout::List { elem, cap }, Value::List(items)) => {
            if items.len() > *cap {
                return Err(format!(
                    "{} elements do not fit in a list of at most {cap}",
                    items.len()
                ));
            }
            cells[..layout.size()].fill(0);
            cells[0] = items.len() as i64;
            let size = elem.size();
            for (i, item) in items.iter().enumerate() {
                store_value(elem, item, &mut cells[1 + i * size..1 + (i + 1) * size])?;
            }
        }
        (_, v) => return Err(format!("a {} where a {layout:?} was expected", v.kind())),
    }
    Ok(())
}

/// Reads a value laid out as `layout` from `cells`.
pub(crate) fn load_value(layout: &Layout, cells: &[i64]) -> Value {
    match layout {
        Layout::Int => Value::Int(cells[0]),
        Layout::Bool => Value::Bool(cells[0] != 0),
        Layout::Player => Value::Player(cells[0].max(0) as usize),
        Layout::Set { lo, hi } => {
            let mut set = BTreeSet::new();
            for n in *lo..=*hi {
                let bit = (n - lo) as usize;
                if cells[bit / 64] >> (bit % 64) & 1 == 1 {
                    set.insert(n);
                }
            }
            Value::Set(set)
        }
        Layout::List { elem, cap } => {
            let len = (cells[0].max(0) as usize).min(*cap);
            let size = elem.size();
            Value::List(
                (0..len)
                    .map(|i| load_value(elem, &cells[1 + i * size..1 + (i + 1) * size]))
                    .collect(),
            )
        }
    }
}
