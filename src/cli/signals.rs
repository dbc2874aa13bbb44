//! Ctrl-C (SIGINT) and SIGTERM while `train` or `match` runs: the work stops
//! between two games and what was done is saved, as if it had been asked for.
//! At any other time both end gdl at once, as usual.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// Set by a caught signal.
static STOP: AtomicBool = AtomicBool::new(false);
/// The signal that set [`STOP`].
static SIGNAL: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(signal: libc::c_int) {
    // Only atomic stores: all a signal handler may safely do.
    SIGNAL.store(signal, Ordering::SeqCst);
    STOP.store(true, Ordering::SeqCst);
}

/// While alive, SIGINT and SIGTERM set a flag instead of ending gdl.
pub struct Caught {
    previous: [(libc::c_int, libc::sigaction); 2],
}

impl Caught {
    pub fn new() -> Caught {
        STOP.store(false, Ordering::SeqCst);
        SIGNAL.store(0, Ordering::SeqCst);
        let previous = [libc::SIGINT, libc::SIGTERM].map(|signal| {
            // SAFETY: a zeroed sigaction is valid; the handler only stores atomics.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                let mut old: libc::sigaction = std::mem::zeroed();
                libc::sigaction(signal, &action, &mut old);
                (signal, old)
            }
        });
        Caught { previous }
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
        for (signal, old) in &self.previous {
            // SAFETY: restores the action saved in `new`.
            unsafe {
                libc::sigaction(*signal, old, std::ptr::null_mut());
            }
        }
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
    pub fn games_failure(self, what: &str, played: u64, total: u64, csv: bool) -> super::Failure {
        super::Failure {
            code: self.exit_code(),
            text: format!(
                "the {what} was interrupted by {} after {played} of {total} games; the report covers those{}",
                self.name(),
                if csv { ", and so does the CSV" } else { "" }
            ),
        }
    }

    /// How the user reads it.
    pub fn name(self) -> &'static str {
        if self.signal == libc::SIGTERM {
            "SIGTERM"
        } else {
            "Ctrl-C"
        }
    }
}
