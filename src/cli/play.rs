//! `gdl play FILE [--players human,optimal]`: a game at the terminal, printed
//! as seed 001's transcript is: the board after every move, each move as it
//! is written, and who won.
//!
//! ```text
//! board: [7, 5, 3, 1]
//! (0, 1)
//! board: [6, 5, 3, 1]
//! current state: board: [6, 5, 3, 1]
//! available moves: [(0, 1), (0, 2), ...]
//!
//! Your move? (0,6)
//! (0, 6)
//! board: [0, 5, 3, 1]
//! ```
//!
//! With one person playing, the board is shown as they may see it (their own
//! hand, the table, the cards revealed); never the others' hidden cards.

use std::path::{Path, PathBuf};

use clap::Args;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::json;

use crate::cli::kit::agents::{
    AgentArgs, PlayersParser, begin, check_files, end_game_lines, players_for, players_help, seat_agents, stopped_at,
};
use crate::cli::kit::args::{RawArg, StartArgs};
use crate::cli::kit::context::{Context, Failure, stdout_failed};
use crate::cli::kit::game_args::{GameArgs, load_game, title};
use crate::game::{Game, GameError, Player, Turn};
use crate::report::play::outcome_text_after;
use crate::report::stats::DecisionTimes;
use crate::runtime::{Interpreted, State};
use crate::solve::agent_builder::MoveKinds;
use crate::solve::agents::agent::{AgentError, AgentSpec, PlayerSpec, Ties};
use crate::solve::matches::episode::{Step, play_out};

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[arg(
        long,
        value_name = "A,B",
        value_parser = PlayersParser,
        hide_possible_values = true,
        help = players_help(
            "One agent per player, in turn order. Default: the computer first \
             (`optimal:first` for a game it can solve, else `search`), you (human) last; \
             `--players human,optimal` to move first"
        )
    )]
    pub players: Option<String>,
    /// Seeds the computer's choices and the deal; default: a new game every time
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub start: StartArgs,
    /// Also write the game to this file as JSON, as `trace --json` prints one
    /// (docs/json-schema/trace.json): every move, every state, the outcome
    #[arg(long, value_name = "FILE")]
    pub json_log: Option<PathBuf>,
    #[command(flatten)]
    pub shown: RawArg,
    #[command(flatten)]
    pub agents: AgentArgs,
}

pub fn run(args: &PlayArgs, ctx: &mut Context) -> Result<(), Failure> {
    let game = load_game(&args.game.file, ctx)?;
    let players = match &args.players {
        Some(p) => p.clone(),
        None => default_players(&game),
    };
    let outputs: Vec<(&'static str, &Path)> = args.json_log.iter().map(|p| ("--json-log", p.as_path())).collect();
    check_files(&args.game.file, &players_for(&players, &game)?, &args.agents, &outputs)?;
    crate::memory::doing("playing");
    let start = args.start.position(&game, ctx)?;
    let seed = args.seed.unwrap_or_else(fresh_seed);
    // The person's opponent resists as long as it can once it has lost.
    let options = AgentArgs {
        resist: true,
        ..args.agents.clone()
    };
    let (specs, mut agents) = seat_agents(&players, &game, seed, &options, ctx)?;
    let viewer = viewer(&specs, game.num_players());
    let out = &mut *ctx.out;
    let io = |e: std::io::Error| AgentError::Failed(format!("cannot write to the terminal: {e}"));
    let turn_taking = game.num_players() == 2 && !game.program().has_simultaneous;
    let start_text = game.position(&start);
    let mut log: Vec<serde_json::Value> = Vec::new();
    let public = game
        .program()
        .vars
        .iter()
        .all(|v| v.visibility == crate::ir::Visibility::Public);
    let mut chance: Vec<String> = Vec::new();
    let mut ply = 0;
    let result = (|| {
        // Before the deal there is nothing to see.
        if game.turn(&start)? != Turn::Chance {
            writeln!(out, "{}", board(&game, &start, viewer, args.shown.raw)?).map_err(io)?;
        }
        let mut rng = StdRng::seed_from_u64(seed);
        let mut seated = begin(&mut agents, &game, seed)?;
        let mut times = vec![DecisionTimes::default(); seated.len()];
        play_out(&game, start, &mut seated, &mut rng, &mut times, &mut |step, state| {
            ply += usize::from(matches!(step, Step::Moves(_)));
            log.push(match step {
                Step::Chance(m) => json!({"chance": game.move_text(m), "state": game.state_text(state)}),
                Step::Moves(played) => json!({
                    "moves": played.iter().map(|x| json!({
                        "player": game.player_name(x.player),
                        "move": game.move_text(&x.mv),
                        "agent": specs[x.player].to_string(),
                        "note": x.note,
                    })).collect::<Vec<_>>(),
                    "state": game.state_text(state),
                }),
            });
            match step {
                // Outcomes are shown as `trace` shows them (several in a row
                // together), unless the game has secrets they could tell;
                // then the deal is shown once it is over, as the player may see it.
                Step::Chance(m) if public => {
                    chance.push(game.move_text(m));
                    if game.turn(state)? == Turn::Chance {
                        return Ok(());
                    }
                    writeln!(out, "chance {}", chance.join(", ")).map_err(io)?;
                    chance.clear();
                }
                Step::Chance(_) if game.turn(state)? == Turn::Chance => return Ok(()),
                Step::Chance(_) => {}
                // Two players taking turns: the move alone, as seed 001 prints it.
                Step::Moves(played) if turn_taking => writeln!(out, "{}", game.move_text(&played[0].mv)).map_err(io)?,
                Step::Moves(played) => {
                    let each: Vec<String> = played
                        .iter()
                        .map(|x| format!("{} plays {}", game.player_name(x.player), game.move_text(&x.mv)))
                        .collect();
                    writeln!(out, "{}", each.join(", ")).map_err(io)?;
                }
            }
            // A board of many lines is not printed twice: the prompt shows it.
            let shown = board(&game, state, viewer, args.shown.raw)?;
            if !(shown.contains('\n') && asks_human(&game, state, &specs)?) {
                writeln!(out, "{shown}").map_err(io)?;
            }
            out.flush().map_err(io)
        })
    })();
    let (text, outcome) = match result {
        Ok(end) => {
            let (failed, forfeited) = end_game_lines(&mut agents, &game, &end).map_err(|e| ctx.fail(&e))?;
            let outcome = outcome_text_after(&game, &end, &forfeited).map_err(|e| ctx.fail(&e))?;
            (
                failed.into_iter().chain([outcome]).collect::<Vec<_>>().join("\n"),
                crate::report::json::outcome_after(&game, &end, &forfeited).map_err(|e| ctx.fail(&e))?,
            )
        }
        Err(AgentError::Quit) => ("game abandoned".to_string(), serde_json::Value::Null),
        Err(e) => return Err(stopped_at(ply + 1, &e, ctx)),
    };
    if let Some(path) = &args.json_log {
        let players: Vec<serde_json::Value> = specs
            .iter()
            .enumerate()
            .map(|(p, s)| json!({"player": game.player_name(p), "agent": s.to_string()}))
            .collect();
        let doc = json!({
            "game": title(&game),
            "players": players,
            "seed": seed,
            "start": start_text,
            "steps": log,
            "outcome": outcome,
        });
        crate::fsutil::write_atomic(path, crate::report::json::document(&doc).as_bytes())
            .map_err(|e| Failure::runtime(format!("error: cannot write {}: {e}", path.display())))?;
    }
    let replay = if args.seed.is_none() && seed_matters(&game, &specs) {
        format!(" (seed {seed}: --seed {seed} plays this game again)")
    } else {
        String::new()
    };
    writeln!(ctx.out, "{text}{replay}").map_err(stdout_failed)
}

/// The computer first and the person last, as seed 001's transcript seats
/// them; the computer plays the exact solution where it exists (ties to the
/// first move, so that seed 001's game comes out move for move); in card
/// games (simultaneous moves decided by scores: X Nimmt!) information-set
/// MCTS, which beat `search` and `dsearch` there (docs/XNIMMT.md); else
/// search.
fn default_players(game: &Interpreted) -> String {
    let prog = game.program();
    let computer = if game.num_players() == 2 && !prog.has_chance && !prog.has_simultaneous {
        "optimal:first"
    } else if MoveKinds::of(prog).card_game() {
        "mcts"
    } else {
        "search"
    };
    let mut seats = vec![computer; game.num_players().saturating_sub(1)];
    seats.push("human");
    seats.join(",")
}

/// Whose eyes the board is shown through: the one person playing; with
/// several, only what is public (a player number nobody has); with none,
/// everything.
fn viewer(specs: &[PlayerSpec], players: usize) -> Option<Player> {
    let humans: Vec<Player> = (0..specs.len())
        .filter(|&p| specs[p].spec == AgentSpec::Human)
        .collect();
    match humans.as_slice() {
        [] => None,
        [one] => Some(*one),
        _ => Some(players),
    }
}

/// Whether a person is asked for a move next.
fn asks_human(game: &Interpreted, state: &State, specs: &[PlayerSpec]) -> Result<bool, AgentError> {
    Ok(match game.turn(state)? {
        Turn::Player(p) => specs[p].spec == AgentSpec::Human,
        Turn::Simultaneous => specs.iter().any(|s| s.spec == AgentSpec::Human),
        Turn::Chance | Turn::Terminal => false,
    })
}

fn board(game: &Interpreted, state: &State, viewer: Option<Player>, raw: bool) -> Result<String, GameError> {
    crate::cli::kit::shown::position_lines(game, state, viewer, raw, "")
}

/// Whether another seed could have given another game.
fn seed_matters(game: &Interpreted, specs: &[PlayerSpec]) -> bool {
    let fixed = |s: &PlayerSpec| {
        matches!(
            s.spec,
            AgentSpec::Human
                | AgentSpec::QTable(_)
                | AgentSpec::AlphaZero(_)
                | AgentSpec::Optimal(Ties::First | Ties::Fast)
        )
    };
    game.program().has_chance || !specs.iter().all(fixed)
}

fn fresh_seed() -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    // Any value will do; only its difference from the last game matters.
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 % 1_000_000)
}
