//! `gdl serve`: a page in the browser where a person picks a game, sets its
//! parameters, seats agents and plays, the board drawn from the game's
//! `display`. The page and its script are compiled into gdl (no build step,
//! nothing fetched from the network); the page talks to a small JSON API
//! (`api.rs`), and each game runs on a thread of its own (`session.rs`).
//!
//! The server reads game files but never writes a file. It listens on
//! 127.0.0.1 unless told otherwise, and refuses requests that name another
//! host (or no host, or two) or come from another site's page, so that a web
//! page elsewhere cannot drive it. It speaks a small HTTP/1.1 of its own
//! (`http.rs`): one request per connection, a head of at most 32 KiB, a body
//! of at most 64 KiB (a larger one is refused unread), no chunked bodies, and
//! 10 seconds to send the request; each connection is answered on a thread
//! of its own, at most [`MAX_CONNECTIONS`] at once, so that a bad or slow
//! request neither stops the server nor keeps others waiting.

mod api;
mod api_error;
mod clicks;
mod fields;
mod http;
mod session;

use std::net::{IpAddr, TcpListener};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use clap::Args;

use crate::cli::kit::agents::AgentArgs;
use crate::cli::kit::context::{Context, Failure, stdout_failed};

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on; the default is this machine only
    #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// The port to listen on; 0 picks a free one (the URL is printed)
    #[arg(long, value_name = "PORT", default_value_t = 8080)]
    pub port: u16,
    /// The most games kept at once; a new game beyond them drops the one
    /// left alone the longest
    #[arg(long, value_name = "N", default_value_t = 16, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000))]
    pub max_games: usize,
    /// Let the page seat `exec:` agents: any program on this machine, run
    /// as you. Off by default, since whoever can reach the page could run
    /// one
    #[arg(long)]
    pub allow_exec: bool,
    /// Seeds each game's agents and chance; default: a new seed per game
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub agents: AgentArgs,
}

/// Connections answered at once, each on a thread of its own: one slow move
/// (an agent thinking) leaves the others free to serve the page. A connection
/// beyond them is answered 503 at once.
const MAX_CONNECTIONS: usize = 64;

pub fn run(args: &ServeArgs, ctx: &mut Context) -> Result<(), Failure> {
    let listener = TcpListener::bind((args.host, args.port))
        .map_err(|e| Failure::runtime(format!("error: cannot listen on {}:{}: {e}", args.host, args.port)))?;
    let port = listener.local_addr().map_or(args.port, |a| a.port());
    let shown_host = match args.host {
        IpAddr::V6(h) => format!("[{h}]"),
        IpAddr::V4(h) => h.to_string(),
    };
    // Ctrl-C or SIGTERM is how a server ends: not an error.
    crate::cli::kit::signals::ends_by_signal("gdl serve");
    writeln!(ctx.out, "gdl serve: http://{shown_host}:{port}/  (Ctrl-C stops it)").map_err(stdout_failed)?;
    ctx.out.flush().map_err(stdout_failed)?;
    let app = Arc::new(api::App::new(args, port, ctx.engine));
    let busy = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(stream) => stream,
            // Out of file descriptors, or a connection reset before it was
            // taken: wait a moment rather than spin.
            Err(_) => {
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
        };
        let Some(slot) = Slot::take(&busy) else {
            app.turn_away(stream);
            continue;
        };
        let app = Arc::clone(&app);
        // A thread that panics ends alone, giving back its slot; a thread
        // that cannot start drops its connection.
        let _ = std::thread::Builder::new().name("gdl serve".into()).spawn(move || {
            let _slot = slot;
            app.answer(stream);
        });
    }
    Ok(())
}

/// One of the [`MAX_CONNECTIONS`] answered at once, given back when dropped.
struct Slot(Arc<AtomicUsize>);

impl Slot {
    fn take(busy: &Arc<AtomicUsize>) -> Option<Slot> {
        busy.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
            (n < MAX_CONNECTIONS).then_some(n + 1)
        })
        .ok()
        .map(|_| Slot(Arc::clone(busy)))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_that_panics_gives_back_its_slot() {
        let busy = Arc::new(AtomicUsize::new(0));
        let slots: Vec<Slot> = (0..MAX_CONNECTIONS).map(|_| Slot::take(&busy).unwrap()).collect();
        assert!(Slot::take(&busy).is_none(), "one more than the cap");
        drop(slots);
        let slot = Slot::take(&busy).unwrap();
        let ended = std::thread::spawn(move || {
            let _slot = slot;
            panic!("a bug while answering");
        })
        .join();
        assert!(ended.is_err());
        assert_eq!(busy.load(Ordering::Acquire), 0);
    }
}
