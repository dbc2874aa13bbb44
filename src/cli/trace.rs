//! `gdl trace FILE --players A,B --seed N`: one game between agents, move by
//! move: who moved, the move, what the agent saw in it (an optimal player's
//! value, a search's expectation), the state it led to, and the outcome.

use clap::Args;
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::cli::kit::agents::{
    AgentArgs, PlayersParser, begin, check_files, end_game_lines, players_for, players_help, seat_agents, stopped_at,
};
use crate::cli::kit::args::{RawArg, StartArgs};
use crate::cli::kit::context::{Context, Failure, stdout_failed};
use crate::cli::kit::game_args::{GameArgs, load_game, title};
use crate::game::Game;
use crate::report::play::outcome_text_after;
use crate::report::stats::DecisionTimes;
use crate::runtime::{Interpreted, State};
use crate::solve::agents::agent::AgentError;
use crate::solve::matches::episode::{Step, play_out};

#[derive(Args, Debug)]
pub struct TraceArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[arg(
        long,
        value_name = "A,B",
        value_parser = PlayersParser,
        hide_possible_values = true,
        help = players_help("One agent per player, in turn order")
    )]
    pub players: String,
    /// Seeds every random choice (agents and chance): the same seed, the same game
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    #[command(flatten)]
    pub start: StartArgs,
    /// Print the game as one JSON object (docs/json-schema/trace.json)
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub shown: RawArg,
    #[command(flatten)]
    pub agents: AgentArgs,
}

pub fn run(args: &TraceArgs, ctx: &mut Context) -> Result<(), Failure> {
    let game = load_game(&args.game.file, ctx)?;
    check_files(&args.game.file, &players_for(&args.players, &game)?, &args.agents, &[])?;
    crate::memory::doing("playing");
    let start = args.start.position(&game, ctx)?;
    let (specs, mut agents) = seat_agents(&args.players, &game, args.seed, &args.agents, ctx)?;
    let seats: Vec<String> = specs
        .iter()
        .enumerate()
        .map(|(p, s)| format!("{} {s}", game.player_name(p)))
        .collect();
    if args.json {
        return run_json(args, &game, start, &specs, &mut agents, ctx);
    }
    let start_lines = state_lines(&game, &start, args.shown.raw).map_err(|e| ctx.fail(&e))?;
    let out = &mut *ctx.out;
    // A reader who stops reading (`| head`) ends the game quietly.
    let io = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::BrokenPipe => AgentError::Quit,
        _ => AgentError::Failed(format!("cannot write the trace: {e}")),
    };
    write!(
        out,
        "game     {}\nplayers  {}\nseed     {}\n\nstart    {}\n",
        title(&game),
        seats.join(", "),
        args.seed,
        start_lines
    )
    .map_err(stdout_failed)?;
    let mut ply = 0;
    let mut chance: Vec<String> = Vec::new();
    let mut rng = StdRng::seed_from_u64(args.seed);
    let names: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
    let mut times = vec![DecisionTimes::default(); agents.len()];
    let result = begin(&mut agents, &game, args.seed).and_then(|mut seated| {
        play_out(&game, start, &mut seated, &mut rng, &mut times, &mut |step, state| {
            match step {
                Step::Chance(m) => {
                    chance.push(game.move_text(m));
                    // Consecutive chance moves (a deal) are shown together, once.
                    if game.turn(state)? == crate::game::Turn::Chance {
                        return Ok(());
                    }
                    writeln!(out, "   chance {}", chance.join(", ")).map_err(io)?;
                    chance.clear();
                }
                Step::Moves(played) => {
                    ply += 1;
                    let each: Vec<String> = played
                        .iter()
                        .map(|x| {
                            let who = &names[x.player];
                            let said = x.note.as_deref().map(|n| format!(": {n}")).unwrap_or_default();
                            format!(
                                "{} plays {} ({who}{said})",
                                game.player_name(x.player),
                                game.move_text(&x.mv)
                            )
                        })
                        .collect();
                    writeln!(out, "{ply:>4}. {}", each.join(", ")).map_err(io)?;
                }
            }
            writeln!(out, "         {}", state_lines(&game, state, args.shown.raw)?).map_err(io)?;
            out.flush().map_err(io)
        })
    });
    let end = match result {
        Ok(end) => {
            let (failed, forfeited) = end_game_lines(&mut agents, &game, &end).map_err(|e| ctx.fail(&e))?;
            let outcome = outcome_text_after(&game, &end, &forfeited).map_err(|e| ctx.fail(&e))?;
            failed.into_iter().chain([outcome]).collect::<Vec<_>>().join("\n")
        }
        Err(AgentError::Quit) => "the game was abandoned".to_string(),
        Err(e) => return Err(stopped_at(ply + 1, &e, ctx)),
    };
    match writeln!(ctx.out, "\n{end}") {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Failure::runtime(format!("error: {e}"))),
        _ => Ok(()),
    }
}

/// `--json`: the same game, every step an object; printed once it is over.
fn run_json(
    args: &TraceArgs,
    game: &Interpreted,
    start: State,
    specs: &[crate::solve::agents::agent::PlayerSpec],
    agents: &mut [crate::cli::kit::agents::BoxedAgent],
    ctx: &mut Context,
) -> Result<(), Failure> {
    use serde_json::{Value, json};
    let mut steps: Vec<Value> = Vec::new();
    let mut rng = StdRng::seed_from_u64(args.seed);
    let mut times = vec![DecisionTimes::default(); agents.len()];
    let start_text = game.position(&start);
    let result = begin(agents, game, args.seed).and_then(|mut seated| {
        play_out(game, start, &mut seated, &mut rng, &mut times, &mut |step, state| {
            let state_text = game.state_text(state);
            steps.push(match step {
                Step::Chance(m) => json!({"chance": game.move_text(m), "state": state_text}),
                Step::Moves(played) => json!({
                    "moves": played.iter().map(|x| json!({
                        "player": game.player_name(x.player),
                        "move": game.move_text(&x.mv),
                        "agent": specs[x.player].to_string(),
                        "note": x.note,
                    })).collect::<Vec<_>>(),
                    "state": state_text,
                }),
            });
            Ok(())
        })
    });
    let outcome = match result {
        Ok(end) => {
            // Tells exec: agents the outcome; a failure is in its move's note.
            let (_, forfeited) = end_game_lines(agents, game, &end).map_err(|e| ctx.fail(&e))?;
            crate::report::json::outcome_after(game, &end, &forfeited).map_err(|e| ctx.fail(&e))?
        }
        Err(AgentError::Quit) => Value::Null,
        Err(e) => {
            let ply = steps.iter().filter(|s| s.get("moves").is_some()).count();
            return Err(stopped_at(ply + 1, &e, ctx));
        }
    };
    let players: Vec<Value> = specs
        .iter()
        .enumerate()
        .map(|(p, s)| json!({"player": game.player_name(p), "agent": s.to_string()}))
        .collect();
    let doc = json!({
        "game": title(game),
        "players": players,
        "seed": args.seed,
        "start": start_text,
        "steps": steps,
        "outcome": outcome,
    });
    write!(ctx.out, "{}", crate::report::json::document(&doc)).map_err(|e| Failure::runtime(format!("error: {e}")))
}

/// The whole state (a trace is read by a spectator, who sees everything).
fn state_lines(game: &Interpreted, state: &State, raw: bool) -> Result<String, crate::game::GameError> {
    crate::cli::kit::shown::position_lines(game, state, None, raw, "         ")
}
