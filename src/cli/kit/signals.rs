//! Ctrl-C (SIGINT) and SIGTERM while `train` or `match` runs: the work stops
//! between two games and what was done is saved, as if it had been asked for.
//! At any other time both end gdl at once, as usual.
//!
//! The handlers are signal-hook's, installed once: each signal sets a flag
//! and records its number, and while no [`Caught`] is alive it then does what
//! the system's default would (ends gdl), which signal-hook emulates. (A
//! signal that gdl's parent ignored, as a shell does for a job in the
//! background, is caught like any other once a `Caught` has existed.)

use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use signal_hook::consts::{SIGINT, SIGTERM};

/// Set by a caught signal.
static STOP: AtomicBool = AtomicBool::new(false);
/// The signal that set [`STOP`].
static SIGNAL: AtomicUsize = AtomicUsize::new(0);
/// No [`Caught`] is alive: a signal ends gdl as the default would.
static DEFAULT: AtomicBool = AtomicBool::new(true);

/// Installs the handlers, the first time a [`Caught`] is made.
fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for signal in [SIGINT, SIGTERM] {
            // Run in the order registered: the default first, so that
            // outside a `Caught` nothing else happens. Registering fails only
            // for a signal that cannot be caught, which these are not.
            let _ = signal_hook::flag::register_conditional_default(signal, &DEFAULT);
            let _ = signal_hook::flag::register_usize(signal, &SIGNAL, signal as usize);
            let _ = signal_hook::flag::register(signal, &STOP);
        }
    });
}

/// While alive, SIGINT and SIGTERM set a flag instead of ending gdl.
pub struct Caught(());

impl Caught {
    pub fn new() -> Caught {
        install();
        STOP.store(false, Ordering::SeqCst);
        SIGNAL.store(0, Ordering::SeqCst);
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
            signal: SIGNAL.load(Ordering::SeqCst) as libc::c_int,
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
