//! The per-move budget of the anytime agents (`search`, `mcts`): a number
//! of units (worlds drawn, simulations) and a time limit, whichever runs
//! out first. One place for what `search:N`, `mcts:N` and `--budget-ms`
//! mean, and for when a search stops.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A flag set from outside a search (Ctrl-C, SIGTERM) that stops it in the
/// middle of a move; the agent then fails the move rather than play what
/// it found so far, which is not what its budget asked for.
#[derive(Clone, Copy, Debug)]
pub struct Interrupt(pub &'static AtomicBool);

impl Interrupt {
    pub fn is_set(self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Whether `stop` is given and set.
    pub fn came(stop: Option<Interrupt>) -> bool {
        stop.is_some_and(Interrupt::is_set)
    }
}

/// Two are the same only if they are one flag.
impl PartialEq for Interrupt {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

/// Units of work per move, as the agent spec and `--budget-ms` give them.
pub fn units(written: Option<u64>, default: u64, time: Option<Duration>) -> u64 {
    // With only a time limit, the clock alone decides.
    written.unwrap_or(if time.is_some() { u64::MAX } else { default })
}

/// Decides, unit by unit, whether one move's search goes on.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    started: Instant,
    units: u64,
    limit: Option<Duration>,
    stop: Option<Interrupt>,
}

impl Clock {
    /// Starts the clock of a search of at most `units` units and `limit`.
    pub fn start(units: u64, limit: Option<Duration>) -> Self {
        Clock {
            started: Instant::now(),
            units,
            limit,
            stop: None,
        }
    }

    /// The same clock, which `stop` also stops (after the first unit).
    pub fn stopped_by(self, stop: Option<Interrupt>) -> Self {
        Clock { stop, ..self }
    }

    /// Whether to run one more unit after `done`: always a first one (so
    /// that every move has a value), then while the count allows and one
    /// more unit, as long as the average so far, still ends within the time.
    pub fn go_on(&self, done: u64) -> bool {
        if done == 0 {
            return true;
        }
        if done >= self.units || Interrupt::came(self.stop) {
            return false;
        }
        match self.limit {
            None => true,
            Some(limit) => {
                let spent = self.started.elapsed();
                spent + spent.div_f64(done as f64) <= limit
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_or_the_clock_decides() {
        assert_eq!(units(Some(7), 200, None), 7);
        assert_eq!(units(None, 200, None), 200);
        assert_eq!(units(None, 200, Some(Duration::from_millis(5))), u64::MAX);
        assert_eq!(units(Some(7), 200, Some(Duration::from_millis(5))), 7);
        let c = Clock::start(3, None);
        assert!(c.go_on(0) && c.go_on(2) && !c.go_on(3));
        // A limit already spent still allows the first unit, and no other.
        let c = Clock::start(u64::MAX, Some(Duration::ZERO));
        std::thread::sleep(Duration::from_millis(1));
        assert!(c.go_on(0) && !c.go_on(1));
    }
}
