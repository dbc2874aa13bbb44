//! Ctrl-C (SIGINT) and SIGTERM, for every command ([`install`], called by
//! the `gdl` binary before a command runs).
//!
//! While a [`Caught`] is alive (`train`, `match`, an exact solve), a signal
//! sets a flag that the work polls: it stops where it is, keeps what was
//! done, and the command exits 130 (143) saying where it stopped. At any
//! other time, and at a second signal while the work winds down, gdl ends at
//! once: the process groups of the external agents it started are killed,
//! a line on standard error says what gdl was doing, the temporary files of
//! its unfinished writes are removed (every file is written through one and
//! renamed into place, so earlier files stay as they were), and it exits
//! with 128 + the signal's number.
//!
//! The handlers only set flags and wake a thread of their own through a
//! pipe; that thread does the rest, outside the handler. A signal that gdl's
//! parent ignored (as a shell does for a job in the background) is caught
//! like any other.

use std::io::Read;
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::{Mutex, Once};

use signal_hook::consts::{SIGINT, SIGTERM};

/// Set by a caught signal; the searches of agents stop by it too ([`flag`]).
static STOP: AtomicBool = AtomicBool::new(false);
/// The signal that set [`STOP`].
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// No [`Caught`] is alive: a signal ends gdl at once.
static DEFAULT: AtomicBool = AtomicBool::new(true);
/// Signals since the last [`Caught`] was made: the second one ends gdl.
static SEEN: AtomicUsize = AtomicUsize::new(0);
/// A signal that ends gdl at once, for the watching thread; 0: none.
static END: AtomicI32 = AtomicI32::new(0);
/// The process groups of the external agents running (`exec:`), which
/// gdl kills on its way out.
static GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());
/// The command whose normal end is a signal (`gdl serve`): it says it
/// stopped, without "error:", and exits 0.
static ENDS_BY_SIGNAL: Mutex<Option<&'static str>> = Mutex::new(None);

/// Says that a signal is how `command` normally ends (a server runs until
/// it is stopped): gdl then ends at once, printing "`command` stopped" and
/// exiting 0, instead of an error and 128 + the signal's number.
pub fn ends_by_signal(command: &'static str) {
    install();
    *ENDS_BY_SIGNAL.lock().unwrap_or_else(|p| p.into_inner()) = Some(command);
}

/// Installs the handlers and their thread, once.
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let Ok((mut wake, woken)) = UnixStream::pair() else {
            return;
        };
        let spawned = std::thread::Builder::new().name("gdl signals".into()).spawn(move || {
            let mut byte = [0u8; 16];
            // A read wakes it for each signal (or a few at once).
            while wake.read(&mut byte).is_ok_and(|n| n > 0) {
                let signal = END.load(Ordering::SeqCst);
                if signal != 0 {
                    end_now(signal);
                }
            }
        });
        if spawned.is_err() {
            return;
        }
        for signal in [SIGINT, SIGTERM] {
            let on_signal = move || {
                SIGNAL.store(signal, Ordering::SeqCst);
                STOP.store(true, Ordering::SeqCst);
                let earlier = SEEN.fetch_add(1, Ordering::SeqCst);
                if DEFAULT.load(Ordering::SeqCst) || earlier > 0 {
                    END.store(signal, Ordering::SeqCst);
                }
            };
            // SAFETY: the action only stores to atomics, which is
            // async-signal-safe; it runs before the pipe's wake-up, which is
            // registered after it. Registering fails only for a signal that
            // cannot be caught, which these are not.
            let _ = unsafe { signal_hook::low_level::register(signal, on_signal) };
            if let Ok(end) = woken.try_clone() {
                let _ = signal_hook::low_level::pipe::register(signal, end);
            }
        }
    });
}

/// Ends gdl for `signal`, from the watching thread: the agents' groups
/// killed, the unfinished writes removed, a line saying what gdl was doing.
fn end_now(signal: i32) -> ! {
    kill_groups();
    crate::fsutil::remove_unfinished();
    let stop = Stop { signal };
    let normal = *ENDS_BY_SIGNAL.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(command) = normal {
        let line = format!("{command} stopped ({})\n", stop.name());
        // SAFETY: as below.
        unsafe {
            libc::write(2, line.as_ptr().cast(), line.len());
            libc::_exit(0)
        }
    }
    let activity = crate::memory::activity();
    let doing = if activity.is_empty() {
        String::new()
    } else {
        format!(" while {activity}")
    };
    let line = format!("error: gdl was stopped by {}{doing}\n", stop.name());
    // SAFETY: write(2) of a buffer this function owns to standard error,
    // without Rust's lock on it (the command's thread may hold it), then
    // _exit(2): nothing of the command runs after it.
    unsafe {
        libc::write(2, line.as_ptr().cast(), line.len());
        libc::_exit(stop.exit_code())
    }
}

/// Kills the process group of every external agent still running.
fn kill_groups() {
    let groups = GROUPS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    for &group in groups.iter() {
        // SAFETY: kill(2) with a negative id signals the process group an
        // agent leads (see `own_group`); one with no member left answers ESRCH.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
}

/// Records the process group `group` of an external agent, for gdl to
/// kill on its way out; [`disown_group`] when gdl has ended it.
pub fn own_group(group: i32) {
    GROUPS.lock().unwrap_or_else(|p| p.into_inner()).push(group);
}

/// Forgets the process group `group` (see [`own_group`]).
pub fn disown_group(group: i32) {
    let mut groups = GROUPS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(i) = groups.iter().position(|&g| g == group) {
        groups.swap_remove(i);
    }
}

/// Whether a signal came that the work should stop for, a [`Caught`]
/// being alive (without one, gdl is ending at once).
pub fn stopping() -> bool {
    STOP.load(Ordering::SeqCst) && !DEFAULT.load(Ordering::SeqCst)
}

/// The flag a signal sets, for the searches of agents to stop by
/// (`AgentOptions::stop`): what they were doing is then not used.
pub fn flag() -> &'static AtomicBool {
    &STOP
}

/// While alive, SIGINT and SIGTERM set a flag instead of ending gdl; a
/// second signal still ends it.
pub struct Caught(());

impl Caught {
    pub fn new() -> Caught {
        install();
        STOP.store(false, Ordering::SeqCst);
        SIGNAL.store(0, Ordering::SeqCst);
        SEEN.store(0, Ordering::SeqCst);
        DEFAULT.store(false, Ordering::SeqCst);
        Caught(())
    }

    /// The flag the work polls between two games.
    pub fn flag(&self) -> &'static AtomicBool {
        &STOP
    }

    /// Whether a signal came, and its conventional exit code (128 + its number).
    pub fn stopped(&self) -> Option<Stop> {
        STOP.load(Ordering::SeqCst).then(|| Stop {
            signal: SIGNAL.load(Ordering::SeqCst),
        })
    }
}

impl Drop for Caught {
    fn drop(&mut self) {
        DEFAULT.store(true, Ordering::SeqCst);
    }
}
/// A signal that stopped the work.
#[derive(Clone, Copy, Debug)]
pub struct Stop {
    signal: libc::c_int,
}

impl Stop {
    /// 130 for Ctrl-C, 143 for SIGTERM, as shells report them.
    pub fn exit_code(self) -> i32 {
        128 + self.signal
    }

    /// The failure of a match or league (`what`) this signal stopped after
    /// `played` of `total` games: the report, and the CSV if there is one,
    /// cover the games played.
    pub fn games_failure(self, what: &str, played: u64, total: u64, csv: bool) -> crate::cli::kit::context::Failure {
        crate::cli::kit::context::Failure {
            code: self.exit_code(),
            text: format!(
                "the {what} was interrupted by {} after {played} of {total} games; the report covers those{}",
                self.name(),
                if csv { ", and so does the CSV" } else { "" }
            ),
        }
    }

    /// The failure of other work this signal stopped, `text` saying where.
    pub fn failure(self, text: &str) -> crate::cli::kit::context::Failure {
        crate::cli::kit::context::Failure {
            code: self.exit_code(),
            text: format!("error: {text}"),
        }
    }

    /// How the user reads it.
    pub fn name(self) -> &'static str {
        if self.signal == SIGTERM { "SIGTERM" } else { "Ctrl-C" }
    }
}
