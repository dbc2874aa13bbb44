//! `gdl match FILE --players A,B --games N --seed S`: many games between
//! agents, seats rotating, and the results per agent and per seat.

use clap::Args;
use rand::SeedableRng;
use rand::rngs::StdRng;

use super::agents::make_agent;
use super::eval::title;
use super::{Context, Failure, GameArgs, load_game};
use crate::game::Game;
use crate::report::standings;
use crate::runtime::Interpreted;
use crate::solve::agent::{Agent, parse_players};
use crate::solve::tournament;

#[derive(Args, Debug)]
pub struct MatchArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// One agent per player, comma-separated: optimal, random, q:FILE
    #[arg(long, value_name = "A,B")]
    pub players: String,
    /// How many games; the agents take turns in each seat
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub games: u64,
    /// Seeds every random choice (agents and chance), for a match that can be replayed
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
}

pub fn run(args: &MatchArgs, ctx: &mut Context) -> Result<(), Failure> {
    let game = load_game(&args.game.file, ctx)?;
    let specs = parse_players(&args.players).map_err(|e| Failure::input(format!("error: --players: {e}")))?;
    let n = game.num_players();
    if specs.len() != n {
        return Err(Failure::input(format!(
            "error: --players names {} agents, but {} has {n} players ({})",
            specs.len(),
            game.name(),
            (0..n).map(|p| game.player_name(p)).collect::<Vec<_>>().join(", ")
        )));
    }
    if args.games == 0 {
        return Err(Failure::input("error: --games must be at least 1"));
    }
    let mut agents: Vec<Box<dyn Agent<Interpreted> + '_>> = Vec::with_capacity(n);
    for (k, spec) in specs.iter().enumerate() {
        // Each agent draws from its own generator, so adding a random agent
        // does not change what another one does.
        agents.push(make_agent(spec, &game, args.seed.wrapping_add(k as u64 + 1), ctx)?);
    }
    let mut rng = StdRng::seed_from_u64(args.seed);
    let mut tally = tournament::play_match(&game, &mut agents, args.games, &mut rng, &mut |_| {})
        .map_err(|e| Failure::runtime(ctx.render(&e)))?;
    disambiguate(&mut tally.agents);
    let first = (0..n)
        .map(|k| {
            let g = (0..args.games).filter(|g| tournament::seating(n, *g)[0] == k).count();
            format!("{g} with {} first", tally.agents[k])
        })
        .collect::<Vec<_>>()
        .join(", ");
    let text = format!(
        "game     {}\ngames    {} ({first}), seed {}\n\n{}",
        title(&game),
        args.games,
        args.seed,
        standings::text(&tally)
    );
    write!(ctx.out, "{text}").map_err(|e| Failure::runtime(format!("error: {e}")))
}

/// Numbers agents that share a name (`random #1`, `random #2`), so that every
/// row of the table says whose it is.
fn disambiguate(names: &mut [String]) {
    let copy = names.to_vec();
    for (i, name) in names.iter_mut().enumerate() {
        if copy.iter().filter(|n| **n == copy[i]).count() > 1 {
            name.push_str(&format!(" #{}", i + 1));
        }
    }
}
