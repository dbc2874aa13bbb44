//! Values between Python and gdl: parameters in, JSON reports and state
//! variables out.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple};

use gdl::compile::{ParamValue, Value};

/// A parameter's value as gdl's typed value: an int, a bool, a list
/// (or tuple) of them, a set of ints. A string is text in the notation
/// `gdl --NAME VALUE` reads (a player's name, `"7,5,3,1"`), so
/// `piles="7,5,3,1"` works too.
pub(crate) fn param_value(name: &str, value: &Bound<'_, PyAny>) -> PyResult<ParamValue> {
    nested_value(name, value, 0)
}

/// The deepest nesting of lists a parameter's value may have: as deep as a
/// game file's expressions may be. A list that contains itself is refused
/// here instead of followed until the stack runs out.
const DEEPEST_PARAMETER: usize = gdl::syntax::MAX_NESTING;

fn nested_value(name: &str, value: &Bound<'_, PyAny>, depth: usize) -> PyResult<ParamValue> {
    if depth > DEEPEST_PARAMETER {
        return Err(PyValueError::new_err(format!(
            "parameter `{name}`: its lists nest more than {DEEPEST_PARAMETER} deep (does a list contain itself?)"
        )));
    }
    // bool before int: a Python bool is an int.
    if value.is_instance_of::<PyBool>() {
        return Ok(ParamValue::Bool(value.extract()?));
    }
    if value.is_instance_of::<PyInt>() {
        return Ok(ParamValue::Int(value.extract()?));
    }
    if value.is_instance_of::<PyString>() {
        return Ok(ParamValue::Text(value.extract()?));
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        return value
            .try_iter()?
            .map(|item| nested_value(name, &item?, depth + 1))
            .collect::<PyResult<Vec<_>>>()
            .map(ParamValue::List);
    }
    if value.is_instance_of::<PySet>() || value.is_instance_of::<PyFrozenSet>() {
        return value
            .try_iter()?
            .map(|item| item?.extract::<i64>())
            .collect::<PyResult<_>>()
            .map(ParamValue::Set);
    }
    Err(PyTypeError::new_err(format!(
        "parameter `{name}`: a {} cannot be a gdl parameter; give an int, a bool, a str, or a list of ints",
        value.get_type().name()?
    )))
}

/// A parameter's value as Python objects, as [`param_value`] reads them
/// back: a pickled game keeps its parameters so.
pub(crate) fn param_to_py(py: Python<'_>, v: &ParamValue) -> PyResult<Py<PyAny>> {
    Ok(match v {
        ParamValue::Int(n) => n.into_pyobject(py)?.into_any().unbind(),
        ParamValue::Bool(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
        ParamValue::Text(t) => t.into_pyobject(py)?.into_any().unbind(),
        ParamValue::List(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(param_to_py(py, item)?)?;
            }
            list.into_any().unbind()
        }
        ParamValue::Set(items) => PyFrozenSet::new(py, items.iter())?.into_any().unbind(),
    })
}

/// A JSON value as Python objects: what `json.loads` would give.
pub(crate) fn json_to_py(py: Python<'_>, v: &serde_json::Value) -> PyResult<Py<PyAny>> {
    use serde_json::Value as J;
    Ok(match v {
        J::Null => py.None(),
        J::Bool(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
        J::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any().unbind()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any().unbind()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any().unbind()
            }
        }
        J::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        J::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any().unbind()
        }
        J::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map {
                dict.set_item(k, json_to_py(py, item)?)?;
            }
            dict.into_any().unbind()
        }
    })
}

/// A state variable's value: ints, bools, players (as their index), lists,
/// sets (as frozensets) and ranges.
pub(crate) fn value_to_py(py: Python<'_>, v: &Value) -> PyResult<Py<PyAny>> {
    Ok(match v {
        Value::Int(n) => n.into_pyobject(py)?.into_any().unbind(),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
        Value::Player(p) => p.into_pyobject(py)?.into_any().unbind(),
        Value::List(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(value_to_py(py, item)?)?;
            }
            list.into_any().unbind()
        }
        Value::Set(items) => PyFrozenSet::new(py, items.iter())?.into_any().unbind(),
        Value::Range(lo, hi) => py
            .import("builtins")?
            .getattr("range")?
            .call1((*lo, hi.saturating_add(1)))?
            .unbind(),
    })
}
