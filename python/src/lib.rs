//! gdl from Python: `import gdl; g = gdl.load("games/nim.game", piles=[7, 5, 3, 1])`.
//!
//! A thin layer over the `gdl` crate: every rule runs in the library's
//! interpreter through its `Game` trait, every solve and agent is the
//! library's own; this crate only converts between Python and Rust. The
//! Python package around it (`python/gdl/`) adds the AIMA and OpenSpiel
//! adapters.

mod agents;
mod convert;
mod game;

use std::path::PathBuf;

use pyo3::create_exception;
use pyo3::exceptions::{PyFileNotFoundError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use gdl::report::diagnostic;
use gdl::runtime::Interpreted;
use gdl::syntax::source_file::{SourceError, read_source};

use agents::PyAgent;
use game::{PyGame, PyMove, PyState};

create_exception!(
    gdl,
    GdlError,
    PyValueError,
    "What gdl reports: a game file that does not compile, a bad parameter, a rule that fails, a solve that cannot finish. The message is gdl's diagnostic, as the command line prints it."
);

/// A diagnostic of gdl's as a Python exception, rendered as the command
/// line renders it (without colour).
pub(crate) fn gdl_error(d: &dyn miette::Diagnostic) -> PyErr {
    GdlError::new_err(diagnostic::render(d, false).trim_end().to_string())
}

/// Runs `f` on a thread with the stack gdl gives its searches: an exact
/// search recurses once per move, deeper than a Python thread's stack may allow.
pub(crate) fn on_search_stack<T: Send>(f: impl FnOnce() -> T + Send) -> PyResult<T> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("gdl-search".into())
            .stack_size(gdl::solve::SEARCH_STACK)
            .spawn_scoped(scope, f)
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start the search thread: {e}")))?;
        Ok(handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    })
}

/// Loads and compiles a game file, with its parameters as keyword
/// arguments: `gdl.load("games/nim.game", piles=[7, 5, 3, 1])`.
#[pyfunction]
#[pyo3(signature = (path, **params))]
fn load(path: PathBuf, params: Option<&Bound<'_, PyDict>>) -> PyResult<PyGame> {
    // The command line's reader: a file over 1 MiB is refused before it is
    // read, a device or a pipe read no further, a pipe without a writer
    // refused instead of waited on.
    let text = read_source(&path).map_err(|e| {
        let message = format!("cannot read {}: {e}", path.display());
        match e {
            SourceError::Missing => PyFileNotFoundError::new_err(message),
            _ => GdlError::new_err(message),
        }
    })?;
    let mut bindings = Vec::new();
    if let Some(params) = params {
        for (k, v) in params.iter() {
            let name: String = k.extract()?;
            let value = convert::param_text(&name, &v)?;
            bindings.push((name, value));
        }
    }
    let name = path.display().to_string();
    // On gdl's stack, as the command line parses: a parameter's text nests
    // as deep as gdl allows, deeper than a Python thread's stack may hold.
    match on_search_stack(|| gdl::compile::load(&name, &text, &bindings))? {
        Ok(program) => Ok(PyGame::new(Interpreted::new(program))),
        Err(errors) => Err(GdlError::new_err(
            diagnostic::render_compile_errors(&errors, false).trim_end().to_string(),
        )),
    }
}

/// One of gdl's agents for `game`: "optimal", "optimal:first", "random",
/// "search", "search:N", "alphabeta:D", "greedy" or "q:FILE" (a table `gdl
/// train` wrote). `seed` seeds whatever it draws at random; `budget_ms`
/// limits a search agent's time per move, as `--budget-ms` does;
/// `max_nodes` and `time_limit` (seconds) limit each move's search of
/// `optimal` and `alphabeta:D`, as `--max-nodes` and `--time-limit` do.
#[pyfunction]
#[pyo3(signature = (spec, game, *, seed=0, budget_ms=None, max_nodes=None, time_limit=None))]
fn agent(
    spec: &str,
    game: Bound<'_, PyGame>,
    seed: u64,
    budget_ms: Option<u64>,
    max_nodes: Option<u64>,
    time_limit: Option<f64>,
) -> PyResult<PyAgent> {
    if budget_ms == Some(0) {
        return Err(PyValueError::new_err("budget_ms must be at least 1"));
    }
    if max_nodes == Some(0) {
        return Err(PyValueError::new_err("max_nodes must be at least 1"));
    }
    // As --time-limit: read about once a millisecond, and far from where
    // adding it to the clock would overflow.
    if let Some(t) = time_limit
        && !(0.001..=1e9).contains(&t)
    {
        return Err(PyValueError::new_err(
            "time_limit must be a number of seconds from 0.001 to 1000000000",
        ));
    }
    let limits = agents::Limits {
        budget_ms,
        max_nodes,
        time_limit: time_limit.map(std::time::Duration::from_secs_f64),
    };
    agents::make(game, spec, seed, limits)
}

#[pymodule]
fn _gdl(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("GdlError", m.py().get_type::<GdlError>())?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_class::<PyMove>()?;
    m.add_class::<PyAgent>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(agent, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
