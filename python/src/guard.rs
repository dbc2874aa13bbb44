//! What the command line gives its long calls, given to Python's: the
//! memory guard of `gdl::memory` (a solve that would pass the cap stops
//! with a `GdlError` that names the limit, instead of the process aborting
//! when the system refuses an allocation), and a way to be stopped (Ctrl-C,
//! an alarm's handler: Python's signal handlers run while Rust searches).

use std::sync::atomic::AtomicBool;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use gdl::memory::{self, Source};
use gdl::report::solve::thousands;
use gdl::solve::SEARCH_STACK;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// The cap `set_max_memory` chose, in bytes; 0: the default.
static CHOSEN: AtomicUsize = AtomicUsize::new(0);

/// When the cap was last worked out, and the process's limits then.
struct Armed {
    at: Instant,
    limits: [libc::rlim_t; 2],
}

fn last_armed() -> &'static Mutex<Option<Armed>> {
    static LAST: OnceLock<Mutex<Option<Armed>>> = OnceLock::new();
    LAST.get_or_init(Default::default)
}

/// The cap is worked out again at most this often (it reads /proc, about
/// 0.1 ms), unless the process's limits have changed since.
const REARM_EVERY: Duration = Duration::from_secs(1);

/// The address-space and data limits of the process now (a system call
/// each, far cheaper than working the cap out).
fn process_limits() -> [libc::rlim_t; 2] {
    [libc::RLIMIT_AS, libc::RLIMIT_DATA].map(|resource| {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the struct we pass.
        if unsafe { libc::getrlimit(resource, &mut lim) } == 0 {
            lim.rlim_cur
        } else {
            libc::RLIM_INFINITY
        }
    })
}

/// Sets the cap before a long call: the one `set_max_memory` chose, else
/// the command line's default (3/4 of the memory available, no more than
/// an address-space or data limit leaves) for the process as it is now.
/// Unlike the command's, the process here already holds the interpreter
/// and whatever it loaded, and gdl's own heap may hold games and tables
/// that Python keeps: what is left of a limit is counted from now, and
/// gdl's live heap is added back, since the cap is compared with it.
/// Without `force`, a cap worked out less than a second ago under the same
/// limits stands.
pub(crate) fn arm_memory(force: bool) {
    let limits = process_limits();
    let mut last = last_armed().lock().unwrap_or_else(|e| e.into_inner());
    if !force
        && let Some(armed) = last.as_ref()
        && armed.limits == limits
        && armed.at.elapsed() < REARM_EVERY
    {
        return;
    }
    *last = Some(Armed {
        at: Instant::now(),
        limits,
    });
    let live = memory::live();
    let room = memory::rlimit_room(SEARCH_STACK).map(|r| r.saturating_add(live));
    match CHOSEN.load(Relaxed) {
        0 => {
            let available = memory::available_memory().map(|a| (a.saturating_add(live) / 4 * 3, Source::Available));
            let rlimited = room.map(|r| (r, Source::Rlimit));
            let cap = match (available, rlimited) {
                (Some(a), Some(r)) => Some(if r.0 < a.0 { r } else { a }),
                (a, r) => a.or(r),
            };
            match cap {
                Some((bytes, source)) => memory::set_limit(Some(bytes.max(memory::MIN_LIMIT)), source),
                None => memory::set_limit(None, Source::None),
            }
        }
        // As --max-memory: no more than a limit of the process leaves.
        chosen => match room {
            Some(room) if room < chosen => memory::set_limit(Some(room), Source::Rlimit),
            _ => memory::set_limit(Some(chosen), Source::Flag),
        },
    }
}

/// `gdl.set_max_memory`: `size` in bytes (an int) or as `--max-memory`
/// writes it (`"512M"`, `"2G"`); None goes back to the default.
pub(crate) fn set_max_memory(size: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
    let bytes = match size {
        None => 0,
        Some(s) => {
            let bytes = if let Ok(n) = s.extract::<u64>() {
                usize::try_from(n).unwrap_or(usize::MAX)
            } else if let Ok(text) = s.extract::<String>() {
                memory::parse_size(&text).map_err(pyo3::exceptions::PyValueError::new_err)?
            } else {
                return Err(pyo3::exceptions::PyTypeError::new_err(
                    "the memory limit is a number of bytes or a size such as \"512M\" or \"2G\"",
                ));
            };
            if bytes < memory::MIN_LIMIT {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "{bytes} bytes is too little: gdl needs at least {}",
                    memory::Size(memory::MIN_LIMIT)
                )));
            }
            bytes
        }
    };
    CHOSEN.store(bytes, Relaxed);
    arm_memory(true);
    Ok(())
}

/// `gdl.max_memory`: the cap now, in bytes (None: none), and where it comes
/// from, as the messages of a stop say it.
pub(crate) fn max_memory() -> (Option<usize>, &'static str) {
    arm_memory(true);
    let source = match memory::source() {
        Source::None => "none",
        Source::Flag => "set_max_memory",
        Source::Available => "3/4 of the memory available",
        Source::Rlimit => "what the process's address-space limit leaves",
    };
    (memory::limit(), source)
}

/// How often the waiting thread runs Python's signal handlers.
const SIGNAL_EVERY: Duration = Duration::from_millis(20);

/// Runs `f` on a thread with the stack gdl gives its searches, under the
/// memory guard, while this thread waits with the GIL released and runs
/// Python's signal handlers every few milliseconds. A handler that raises
/// (Ctrl-C's KeyboardInterrupt, an alarm's exception) sets `stop`, which
/// `f`'s search polls about once a millisecond; the exception is raised
/// once `f` has returned, whatever `f` returned.
pub(crate) fn interruptible<T: Send>(py: Python<'_>, stop: &AtomicBool, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    arm_memory(false);
    let waiting = std::thread::current();
    // Set when `f` has returned: the thread itself ends a moment later,
    // and a wait for that would be a wait of up to SIGNAL_EVERY.
    let returned = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("gdl-search".into())
            .stack_size(SEARCH_STACK)
            .spawn_scoped(scope, || {
                let out = f();
                returned.store(true, Release);
                waiting.unpark();
                out
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start the search thread: {e}")))?;
        let mut raised = None;
        while !returned.load(Acquire) {
            // Woken when `f` returns; a wake-up for another reason only
            // checks the signals sooner.
            py.detach(|| std::thread::park_timeout(SIGNAL_EVERY));
            if raised.is_none()
                && !returned.load(Acquire)
                && let Err(e) = py.check_signals()
            {
                stop.store(true, Relaxed);
                raised = Some(e);
            }
        }
        let out = handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        match raised {
            Some(e) => Err(e),
            None => Ok(out),
        }
    })
}

/// The error of a solve whose memo table filled the memory's share: which
/// limit, where it comes from, and what to do, said for Python.
pub(crate) fn memory_stop(states: &str, nodes: u64) -> PyErr {
    let stop = memory::MemoryLimit::now("solving").to_string();
    let states = states.parse::<u64>().map_or_else(|_| states.to_string(), thousands);
    crate::GdlError::new_err(format!(
        "{}: the memo table held {states} states after {} nodes\n\
         help: give gdl more with gdl.set_max_memory(SIZE) (e.g. gdl.set_max_memory(\"4G\")), \
         or solve a smaller position (max_nodes= bounds the search instead)",
        stop.replace("set by --max-memory", "set by gdl.set_max_memory"),
        thousands(nodes)
    ))
}
