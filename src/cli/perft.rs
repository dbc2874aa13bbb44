//! `gdl perft FILE --depth D`: the number of move sequences of each length
//! from a position (`src/solve/perft.rs`), as move generators are checked
//! against published counts: chess from the start gives 20, 400, 8,902, ...

use std::time::Duration;

use clap::Args;
use serde_json::json;

use crate::cli::kit::args::SearchArgs;
use crate::cli::kit::context::{Context, Failure, stdout_failed};
use crate::cli::kit::game_args::{GameArgs, load_game, start_position, title};
use crate::cli::kit::signals::Caught;
use crate::report::solve::thousands;
use crate::runtime::Interpreted;
use crate::solve::perft::{self, Perft, PerftLimits, PerftStop};

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Count the sequences of 1 to D moves (chance outcomes and joint moves count as one each)
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u64).range(1..=100))]
    pub depth: u64,
    /// Also count the sequences of D moves that begin with each first move
    #[arg(long)]
    pub divide: bool,
    /// Start from this position, written as gdl prints one: "[0, 2, 3, 1]; MIN to move"
    #[arg(long, value_name = "POSITION")]
    pub from: Option<String>,
    /// Start after these moves, played from the start (or from --from) in the game's notation: "1 6", "(0, 6) (1, 2)"
    #[arg(long, value_name = "MOVES")]
    pub after: Option<String>,
    /// Print the counts as one JSON object (docs/json-schema/perft.json)
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub search: SearchArgs,
}

pub fn run(args: &PerftArgs, ctx: &mut Context) -> Result<(), Failure> {
    let game = load_game(&args.game.file, ctx)?;
    let root = start_position(&game, args.from.as_deref(), None, args.after.as_deref(), ctx)?;
    crate::memory::doing("counting move sequences");
    let depth = args.depth as usize;
    let caught = Caught::new();
    let limits = PerftLimits {
        max_nodes: args.search.max_nodes,
        time_limit: args.search.time_limit.map(Duration::from_secs_f64),
        stop: Some(caught.flag()),
    };
    let started = std::time::Instant::now();
    let counted = perft::perft(&game, &root, depth, limits);
    let divided = match (&counted, args.divide) {
        (Ok(_), true) => Some(perft::divide(&game, &root, depth, limits)),
        _ => None,
    };
    let seconds = started.elapsed().as_secs_f64();
    let (done, stop) = match counted {
        Ok(done) => (done, None),
        Err(PerftStop::Game(e, done)) => (done, Some(Failure::runtime(ctx.render(&e)))),
        Err(PerftStop::Limit { what, depth: at, done }) => {
            let why = match (what, caught.stopped()) {
                ("a signal", Some(stop)) => Failure {
                    code: stop.exit_code(),
                    text: format!("error: perft was interrupted by {} during depth {at}", stop.name()),
                },
                _ => Failure::runtime(format!(
                    "error: perft reached the limit of {what} {} during depth {at}\n\
                     help: raise {what}, or ask for a smaller --depth",
                    match what {
                        "--max-nodes" => args.search.max_nodes.map_or(String::new(), |n| n.to_string()),
                        _ => args.search.time_limit.map_or(String::new(), |t| format!("{t} s")),
                    }
                )),
            };
            (done, Some(why))
        }
    };
    let divided = match divided {
        Some(Ok(d)) => Some(d),
        Some(Err(PerftStop::Game(e, _))) => return Err(Failure::runtime(ctx.render(&e))),
        Some(Err(PerftStop::Limit { what, .. })) => {
            return Err(Failure::runtime(format!(
                "error: perft --divide reached the limit of {what}\nhelp: raise {what}, or leave out --divide"
            )));
        }
        None => None,
    };
    drop(caught);
    let position = match (&args.from, &args.after) {
        (None, None) => None,
        _ => Some(game.position(&root)),
    };
    let text = if args.json {
        json_text(
            &game,
            position.as_deref(),
            depth,
            &done,
            divided.as_deref(),
            seconds,
            stop.is_none(),
        )
    } else {
        table(&game, position.as_deref(), &done, divided.as_deref(), depth, seconds)
    };
    write!(ctx.out, "{text}").map_err(stdout_failed)?;
    match stop {
        Some(f) => Err(f),
        None => Ok(()),
    }
}

/// The report for a person: the counts by depth, then the time.
fn table(
    game: &Interpreted,
    position: Option<&str>,
    done: &Perft,
    divided: Option<&[(String, u64)]>,
    depth: usize,
    seconds: f64,
) -> String {
    let mut text = format!("game      {}\n", title(game));
    text.push_str(&format!("position  {}\n\n", position.unwrap_or("the start")));
    let width = done
        .sequences
        .iter()
        .map(|n| thousands(*n).len())
        .max()
        .unwrap_or(0)
        .max(9);
    text.push_str(&format!("depth  {:>width$}\n", "sequences"));
    for (d, n) in done.sequences.iter().enumerate() {
        text.push_str(&format!("{:>5}  {:>width$}\n", d + 1, thousands(*n)));
    }
    if let Some(moves) = divided {
        let name = moves.iter().map(|(m, _)| m.len()).max().unwrap_or(0).max(4);
        text.push_str(&format!("\nfirst move  sequences of {depth}\n"));
        for (m, n) in moves {
            text.push_str(&format!("{m:<name$}  {}\n", thousands(*n)));
        }
    }
    text.push_str(&format!(
        "\nplayed    {} positions in {seconds:.2} s ({} a second)\n",
        thousands(done.nodes),
        thousands((done.nodes as f64 / seconds.max(1e-9)) as u64)
    ));
    text
}

fn json_text(
    game: &Interpreted,
    position: Option<&str>,
    depth: usize,
    done: &Perft,
    divided: Option<&[(String, u64)]>,
    seconds: f64,
    complete: bool,
) -> String {
    let mut doc = json!({
        "game": title(game),
        "position": position,
        "depth": depth,
        "complete": complete,
        "sequences": done.sequences,
        "nodes": done.nodes,
        "seconds": seconds,
    });
    if let Some(moves) = divided {
        doc["divide"] = moves.iter().map(|(m, n)| json!({"move": m, "sequences": n})).collect();
    }
    format!("{doc:#}\n")
}
