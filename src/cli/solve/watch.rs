//! What `gdl solve` shows of an exact search (alpha-beta, expectiminimax)
//! while it runs, and how a person stops one. On a terminal, a search that
//! runs past a second draws a progress line on standard error (nodes,
//! positions stored, rate, memory), erased when it ends. Ctrl-C (or SIGTERM)
//! during the search stops it where it is; `gdl solve` then prints the best
//! answer it can find within a second (alpha-beta's iterative deepening,
//! marked NOT PROVEN; expectiminimax has none) and exits 130 (143). A second
//! Ctrl-C ends gdl at once, as usual.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::kit::signals::{Caught, Stop};
use crate::report::solve::thousands;
use crate::solve::Watch;

/// How long a search runs before its progress line appears.
const QUIET_FOR: Duration = Duration::from_secs(1);
/// How often the line is redrawn, and the signal flag looked at.
const TICK: Duration = Duration::from_millis(100);

/// Runs `work` (a search given the [`Watch`] to publish into and to stop
/// by) with Ctrl-C and SIGTERM caught, and a progress line on a terminal;
/// returns what it returned, and the signal that stopped it, if one did.
/// When this returns the signals are no longer caught: a second Ctrl-C
/// during what follows ends gdl.
pub fn watched<T>(work: impl FnOnce(Arc<Watch>) -> T) -> (T, Option<Stop>) {
    let caught = Caught::new();
    let flag = caught.flag();
    let watch = Arc::new(Watch::default());
    let terminal = std::io::stderr().is_terminal();
    let (done, ticks) = mpsc::channel::<()>();
    let result = std::thread::scope(|s| {
        let seen = Arc::clone(&watch);
        s.spawn(move || {
            let started = Instant::now();
            let mut bar: Option<ProgressBar> = None;
            // Ends when `done` is dropped: the search is over.
            while let Err(mpsc::RecvTimeoutError::Timeout) = ticks.recv_timeout(TICK) {
                if flag.load(Relaxed) {
                    seen.stop.store(true, Relaxed);
                }
                if terminal && started.elapsed() >= QUIET_FOR {
                    let bar = bar.get_or_insert_with(spinner);
                    bar.set_message(line(&seen, started.elapsed()));
                }
            }
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
        });
        let result = work(Arc::clone(&watch));
        drop(done);
        result
    });
    let stop = caught.stopped();
    (result, stop)
}

fn spinner() -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    // `wide_msg`: cut to the terminal's width, so that the line never wraps.
    bar.set_style(
        ProgressStyle::with_template("{spinner} {wide_msg}").unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(TICK);
    bar
}

/// `solving: 12,345,678 nodes, 4,567,890 positions stored, 1.2 M nodes/s, 1.4 GiB in use, 10 s (Ctrl-C: stop, best answer so far)`.
fn line(watch: &Watch, elapsed: Duration) -> String {
    let nodes = watch.nodes.load(Relaxed);
    let states = watch.states.load(Relaxed);
    let rate = nodes as f64 / elapsed.as_secs_f64().max(1e-3);
    format!(
        "solving: {} nodes, {} positions stored, {} nodes/s, {} in use, {} s (Ctrl-C: stop, best answer so far)",
        thousands(nodes),
        thousands(states),
        short(rate),
        bytes(crate::memory::live()),
        elapsed.as_secs()
    )
}

/// `950`, `12.3 k`, `1.2 M`: a rate as a person glances at it.
fn short(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.1} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1} k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

/// `512 MiB`, `1.4 GiB`.
fn bytes(n: usize) -> String {
    const MIB: f64 = (1u64 << 20) as f64;
    let mib = n as f64 / MIB;
    if mib >= 1024.0 {
        format!("{:.1} GiB", mib / 1024.0)
    } else {
        format!("{mib:.0} MiB")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_reads_as_counts_rate_and_memory() {
        let watch = Watch::default();
        watch.nodes.store(3_000_000, Relaxed);
        watch.states.store(1_234_567, Relaxed);
        let text = line(&watch, Duration::from_secs(2));
        assert!(
            text.starts_with("solving: 3,000,000 nodes, 1,234,567 positions stored, 1.5 M nodes/s, "),
            "{text}"
        );
        assert!(
            text.ends_with(" in use, 2 s (Ctrl-C: stop, best answer so far)"),
            "{text}"
        );
        assert_eq!(short(12_345.0), "12.3 k");
        assert_eq!(short(950.0), "950");
        assert_eq!(bytes(3 << 29), "1.5 GiB");
        assert_eq!(bytes(512 << 20), "512 MiB");
    }
}
