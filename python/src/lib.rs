//! gdl from Python: `import gdl; g = gdl.load("games/nim.game", piles=[7, 5, 3, 1])`.
//!
//! A thin layer over the `gdl` crate: every rule runs in the library's
//! interpreter through its `Game` trait, every solve and agent is the
//! library's own; this crate only converts between Python and Rust. The
//! Python package around it (`python/gdl/`) adds the AIMA and OpenSpiel
//! adapters.

// Every `unsafe` block says why it holds, as in the library.
#![warn(clippy::undocumented_unsafe_blocks)]

mod agents;
mod convert;
mod game;
mod guard;
mod line;
mod origin;
mod vector;

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::create_exception;
use pyo3::exceptions::{PyFileNotFoundError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use gdl::bundled::ReadError;
use gdl::compile::Bindings;
use gdl::report::diagnostic;
use gdl::runtime::{Engine, Interpreted, encode};

use agents::PyAgent;
use game::{PyGame, PyMove, PyState};
use origin::{Meta, Origin};

/// The heap of gdl's Rust code is counted and capped, as the command's is
/// (`gdl::memory`; see `guard`): a solve stops at the cap with a GdlError.
#[global_allocator]
static ALLOCATOR: gdl::memory::Counting = gdl::memory::Counting;

create_exception!(
    gdl,
    GdlError,
    PyValueError,
    "What gdl reports: a game file that does not compile, a bad parameter, a rule that fails, a solve that cannot finish. The message is gdl's diagnostic, as the command line prints it."
);

/// A diagnostic of gdl's as a Python exception, rendered as the command
/// line renders it (without colour).
pub(crate) fn gdl_error(d: &dyn miette::Diagnostic) -> PyErr {
    GdlError::new_err(render(d))
}

/// A diagnostic as the command line renders it, without colour.
pub(crate) fn render(d: &dyn miette::Diagnostic) -> String {
    diagnostic::render(d, false).trim_end().to_string()
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
/// arguments: `gdl.load("games/nim.game", piles=[7, 5, 3, 1])`. A name that
/// is no file is a game bundled with gdl, as on the command line:
/// `gdl.load("nim")` (`gdl.list_games()` names them). `engine` picks what
/// runs the rules: "jit" (compiled to machine code; the default where the
/// processor is supported) or "vm" (the interpreter, the reference).
#[pyfunction]
#[pyo3(signature = (path, engine=None, **params))]
fn load(
    py: Python<'_>,
    path: PathBuf,
    engine: Option<&str>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyGame>> {
    let engine = engine_of(engine)?;
    // The command line's reader: a file over 1 MiB is refused before it is
    // read, a device or a pipe read no further, a pipe without a writer
    // refused instead of waited on; nothing there, or a folder named like a
    // game (`chess/` in the current folder), which is no game file: the
    // bundled game, as on the command line.
    let text = gdl::bundled::read(&path).map_err(|e| match e {
        ReadError::NotFound(e) => PyFileNotFoundError::new_err(format!(
            "cannot read {}: {e}, and no game of that name is bundled with gdl ({})",
            path.display(),
            gdl::bundled::names()
        )),
        ReadError::Unreadable(e) => GdlError::new_err(format!("cannot read {}: {e}", path.display())),
    })?;
    let mut bindings = Vec::new();
    if let Some(params) = params {
        for (k, v) in params.iter() {
            let name: String = k.extract()?;
            let value = convert::param_value(&name, &v)?;
            bindings.push((name, value));
        }
    }
    let origin = Origin {
        name: path.display().to_string(),
        text,
        bindings,
        engine: engine_name(engine).to_string(),
    };
    compile(py, origin, engine)
}

fn engine_of(engine: Option<&str>) -> PyResult<Engine> {
    match engine {
        None => Ok(Engine::default_for_host()),
        Some(e) => Engine::parse(e)
            .ok_or_else(|| PyValueError::new_err(format!("engine must be \"jit\" or \"vm\", not {e:?}"))),
    }
}

fn engine_name(engine: Engine) -> &'static str {
    match engine {
        Engine::Jit => "jit",
        Engine::Vm => "vm",
    }
}

/// Compiles the game `origin` describes, and remembers it as the live game
/// of that origin (see `origin`).
fn compile(py: Python<'_>, origin: Origin, engine: Engine) -> PyResult<Py<PyGame>> {
    let (rules, actions) = match origin::cached(&origin) {
        Some(compiled) => compiled,
        None => {
            guard::arm_memory(false);
            // On gdl's stack, as the command line parses: a parameter's text nests
            // as deep as gdl allows, deeper than a Python thread's stack may hold.
            let compiled = on_search_stack(|| {
                let bindings = Bindings::Values(&origin.bindings);
                gdl::compile::load_with(&origin.name, &origin.text, bindings)
            })?;
            match compiled {
                Ok(program) => {
                    let compiled = (Interpreted::with_engine(program, engine), Default::default());
                    origin::cache_compiled(&origin, &compiled);
                    compiled
                }
                Err(errors) => {
                    return Err(GdlError::new_err(
                        diagnostic::render_compile_errors(&errors, false).trim_end().to_string(),
                    ));
                }
            }
        }
    };
    let game = Arc::new(rules);
    let meta = Meta::new(origin, actions);
    origin::remember(&game, &meta);
    game::python_game(py, &game, &meta)
}

/// The names of the games bundled with gdl, which `load` takes as they are:
/// `gdl.load("nim")`.
#[pyfunction]
fn list_games() -> Vec<&'static str> {
    gdl::bundled::games().iter().map(|(n, _)| *n).collect()
}

/// Unpickles a game: the one of the same text, parameters and engine still
/// loaded in this process, else that game compiled again.
#[pyfunction]
fn _load_text(
    py: Python<'_>,
    name: String,
    text: String,
    bindings: Vec<(String, Bound<'_, PyAny>)>,
    engine: String,
) -> PyResult<Py<PyGame>> {
    // Typed values (a pickle made before they were, text: read as before).
    let bindings = (bindings.iter())
        .map(|(name, value)| Ok((name.clone(), convert::param_value(name, value)?)))
        .collect::<PyResult<Vec<_>>>()?;
    let origin = Origin {
        name,
        text,
        bindings,
        engine,
    };
    if let Some((game, meta)) = origin::find(&origin) {
        return game::python_game(py, &game, &meta);
    }
    let engine = engine_of(Some(&origin.engine))?;
    compile(py, origin, engine)
}

/// Unpickles a state: its game, its cells and, under a repetition rule,
/// the cells of the positions before it, the first one first (a pickle
/// without them starts a line, as one made before the module kept them).
#[pyfunction]
#[pyo3(signature = (game, cells, history=None))]
fn _state(game: &PyGame, cells: Vec<i64>, history: Option<Vec<Vec<i64>>>) -> PyResult<PyState> {
    let state = encode::state_from_cells(&game.game, &cells).map_err(|e| gdl_error(&e))?;
    let history = history
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(i, cells)| {
            encode::state_from_cells(&game.game, cells)
                .map_err(|e| GdlError::new_err(format!("position {i} of the state's history: {}", render(&e))))
        })
        .collect::<PyResult<Vec<_>>>()?;
    game.restore(state, history)
}

/// Unpickles a move: its game, its kind (an index) and its arguments.
#[pyfunction]
fn _move(game: &PyGame, kind: usize, args: Vec<i64>) -> PyResult<PyMove> {
    let mv = encode::move_of(game.game.program(), kind, &args).map_err(|e| gdl_error(&e))?;
    Ok(game.wrap_move(mv))
}

/// Caps the memory gdl's Rust code may take, as `--max-memory` does on the
/// command line: `size` in bytes or as text ("512M", "2G"); None: the
/// default, 3/4 of the memory available and no more than an address-space
/// limit (`ulimit -v`) leaves. A solve that reaches the cap stops with a
/// GdlError that names the limit.
#[pyfunction]
#[pyo3(signature = (size))]
fn set_max_memory(size: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
    guard::set_max_memory(size)
}

/// The memory cap now: (bytes or None, where it comes from).
#[pyfunction]
fn max_memory() -> (Option<usize>, &'static str) {
    guard::max_memory()
}

/// One of gdl's agents for `game`: "optimal", "optimal:first", "random",
/// "search", "search:N", "alphabeta:D", "greedy" or "q:FILE" (a table `gdl
/// train` wrote). `seed` seeds whatever it draws at random; `budget_ms`
/// limits a search agent's time per move, as `--budget-ms` does;
/// `max_nodes` and `time_limit_ms` limit each move's search of `optimal`
/// and `alphabeta:D`, as `--max-nodes` and `--time-limit` do. Times are in
/// milliseconds, as the command line's `--budget-ms` and `--move-time-ms`;
/// `time_limit` (seconds) is the deprecated old name.
#[pyfunction]
#[pyo3(signature = (spec, game, *, seed=0, budget_ms=None, max_nodes=None, time_limit_ms=None, time_limit=None))]
// One argument per keyword of the Python signature.
#[allow(clippy::too_many_arguments)]
fn agent(
    py: Python<'_>,
    spec: &str,
    game: Bound<'_, PyGame>,
    seed: u64,
    budget_ms: Option<u64>,
    max_nodes: Option<u64>,
    time_limit_ms: Option<u64>,
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
    const MAX_TIME_LIMIT_MS: u64 = 1_000_000_000_000;
    let time_limit = match (time_limit_ms, time_limit) {
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err(
                "give time_limit_ms, not also time_limit (its deprecated form, in seconds)",
            ));
        }
        (Some(ms), None) => {
            if !(1..=MAX_TIME_LIMIT_MS).contains(&ms) {
                return Err(PyValueError::new_err(
                    "time_limit_ms must be a number of milliseconds from 1 to 1000000000000",
                ));
            }
            Some(std::time::Duration::from_millis(ms))
        }
        (None, Some(t)) => {
            game::deprecated(
                py,
                c"agent(time_limit=SECONDS) is deprecated; use time_limit_ms=MILLISECONDS, as budget_ms",
            )?;
            if !(0.001..=1e9).contains(&t) {
                return Err(PyValueError::new_err(
                    "time_limit must be a number of seconds from 0.001 to 1000000000",
                ));
            }
            Some(std::time::Duration::from_secs_f64(t))
        }
        (None, None) => None,
    };
    let limits = agents::Limits {
        budget_ms,
        max_nodes,
        time_limit,
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
    m.add_class::<vector::PyVectorEnv>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(agent, m)?)?;
    m.add_function(wrap_pyfunction!(list_games, m)?)?;
    m.add_function(wrap_pyfunction!(_load_text, m)?)?;
    m.add_function(wrap_pyfunction!(_state, m)?)?;
    m.add_function(wrap_pyfunction!(_move, m)?)?;
    m.add_function(wrap_pyfunction!(set_max_memory, m)?)?;
    m.add_function(wrap_pyfunction!(max_memory, m)?)?;
    guard::arm_memory(true);
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
