//! `gdl serve`: a page in the browser where a person picks a game, sets its
//! parameters, seats agents and plays, the board drawn from the game's
//! `display`. The page and its script are compiled into gdl (no build step,
//! nothing fetched from the network); the page talks to a small JSON API
//! (`api.rs`), and each game runs on a thread of its own (`session.rs`).
//!
//! The server reads game files but never writes a file. It listens on
//! 127.0.0.1 unless told otherwise, and refuses requests that name another
//! host or come from another site's page, so that a web page elsewhere
//! cannot drive it.

mod api;
mod api_error;
mod clicks;
mod session;

use std::net::IpAddr;
use std::sync::Arc;

use clap::Args;

use super::agents::AgentArgs;
use super::{Context, Failure};

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

/// Threads answering requests: one slow move (an agent thinking) leaves the
/// others free to serve the page.
const WORKERS: usize = 4;

pub fn run(args: &ServeArgs, ctx: &mut Context) -> Result<(), Failure> {
    let server = tiny_http::Server::http((args.host, args.port))
        .map_err(|e| Failure::runtime(format!("error: cannot listen on {}:{}: {e}", args.host, args.port)))?;
    let port = server.server_addr().to_ip().map_or(args.port, |a| a.port());
    let shown_host = match args.host {
        IpAddr::V6(h) => format!("[{h}]"),
        IpAddr::V4(h) => h.to_string(),
    };
    writeln!(ctx.out, "gdl serve: http://{shown_host}:{port}/  (Ctrl-C stops it)").map_err(super::stdout_failed)?;
    ctx.out.flush().map_err(super::stdout_failed)?;
    let app = Arc::new(api::App::new(args, port, ctx.engine));
    let server = Arc::new(server);
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let (server, app) = (Arc::clone(&server), Arc::clone(&app));
            std::thread::spawn(move || {
                while let Ok(request) = server.recv() {
                    app.answer(request);
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    Ok(())
}
