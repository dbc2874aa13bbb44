//! `gdl eval FILE --q TABLE` (and `gdl train --evaluate`): how good a
//! Q-table is: in how many reachable positions its greedy move is optimal by
//! the exact solver, and how it fares against the optimal and the random
//! agent from every seat.

use std::path::PathBuf;

use clap::Args;

use super::eval_wrong::{self, SeatResult, WrongMove};
use crate::cli::kit::agents::{AgentArgs, make_agent_with};
use crate::cli::kit::args::SearchArgs;
use crate::cli::kit::context::{Context, Failure, stdout_failed};
use crate::cli::kit::game_args::{GameArgs, load_game, title};
use crate::cli::kit::limits;
use crate::game::Game;
use crate::report::solve::{number, thousands};
use crate::report::standings;
use crate::runtime::Interpreted;
use crate::solve::agents::agent::{Agent, AgentSpec, Ties};
use crate::solve::learn::qeval::{self, Agreement};
use crate::solve::learn::qlearn::{QAgent, QTable};
use crate::solve::{SolveError, SolveOptions, learn::qfile, matches::tournament};

#[derive(Args, Debug)]
pub struct EvalArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The Q-table to evaluate, as `gdl train --out` wrote it
    #[arg(long, value_name = "FILE")]
    pub q: PathBuf,
    /// Games against each opponent (half of them in each seat)
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub games: u64,
    /// Seeds the opponents' random choices
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// List every reachable position where the greedy move is not optimal:
    /// the best moves, and the line that exploits the greedy one
    #[arg(long)]
    pub wrong: bool,
    /// Print the evaluation as one JSON object (docs/json-schema/eval.json)
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub search: SearchArgs,
}

pub fn run(args: &EvalArgs, ctx: &mut Context) -> Result<(), Failure> {
    let game = load_game(&args.game.file, ctx)?;
    crate::memory::doing("evaluating the Q-table");
    let (table, training) = qfile::load(&args.q, &game).map_err(|e| ctx.fail(&e))?;
    let header = format!(
        "game        {}\ntable       {} ({} episodes; {} positions, {} values)\n",
        title(&game),
        args.q.display(),
        training.total_episodes,
        table.positions(),
        table.len()
    );
    let name = format!("q:{}", args.q.display());
    let fail = |e: SolveError| solve_failed(e, ctx);
    let root = game.initial_state().map_err(|e| ctx.fail(&e))?;
    let opts = exact_options(&args.search, &root);
    if args.json {
        let a = qeval::agreement_within(&game, &table, &root, &opts).map_err(fail)?;
        let seats = eval_wrong::beatable(&game, &table, &root, &opts).map_err(fail)?;
        let mut doc = serde_json::json!({
            "game": title(&game),
            "table": {
                "file": args.q.display().to_string(),
                "episodes": training.total_episodes,
                "positions": table.positions(),
                "values": table.len(),
            },
            "agreement": {
                "positions": a.positions,
                "optimal": a.optimal,
                "winning": a.winning,
                "winning_optimal": a.winning_optimal,
                "choice": a.choice,
                "choice_optimal": a.choice_optimal,
                "unseen": a.unseen,
            },
            "seats": seats.iter().map(seat_json).collect::<Vec<_>>(),
            "matches": matches_json(&game, &table, &name, args.games, args.seed, &args.search, ctx)?,
        });
        if args.wrong {
            let wrong = eval_wrong::wrong_moves(&game, &table, &root, &opts).map_err(fail)?;
            doc["wrong"] = wrong.iter().map(wrong_json).collect();
        }
        return write!(ctx.out, "{}", crate::report::json::document(&doc)).map_err(stdout_failed);
    }
    let mut text = report(&game, &table, &name, args.games, args.seed, &args.search, ctx)?;
    let seats = eval_wrong::beatable(&game, &table, &root, &opts).map_err(fail)?;
    text.push('\n');
    text.push_str(&beatable_text(&seats));
    if args.wrong {
        let wrong = eval_wrong::wrong_moves(&game, &table, &root, &opts).map_err(fail)?;
        text.push('\n');
        text.push_str(&wrong_text(&wrong));
    }
    write!(ctx.out, "{header}\n{text}").map_err(stdout_failed)
}

/// Whether an adversary who knows the table beats it, seat by seat.
fn beatable_text(seats: &[SeatResult]) -> String {
    let mut out = String::from("against an adversary that searches every reply (it knows the table):\n");
    for s in seats {
        let verdict = if s.beatable() {
            format!(
                "beatable: it gets {}, optimal play {}; the game: {}",
                number(s.q_gets),
                number(s.optimal_gets),
                s.line.join(" ")
            )
        } else {
            format!("not beatable: it gets {}, as optimal play does", number(s.q_gets))
        };
        out.push_str(&format!("  as {}  {verdict}\n", s.seat));
    }
    out
}

fn wrong_text(wrong: &[WrongMove]) -> String {
    if wrong.is_empty() {
        return "the greedy move is optimal in every reachable position\n".to_string();
    }
    let mut out = format!(
        "the {} reachable position{} where the greedy move is not optimal (nearest the start first):\n",
        wrong.len(),
        if wrong.len() == 1 { "" } else { "s" }
    );
    for w in wrong {
        let after = if w.path.is_empty() {
            "the start".to_string()
        } else {
            format!("after {}", w.path.join(" "))
        };
        let verb = if w.best_moves.len() == 1 { "gets" } else { "get" };
        let punished = if w.exploit.is_empty() {
            "nothing: the game is over".to_string()
        } else {
            w.exploit.join(" ")
        };
        out.push_str(&format!(
            "\n  {after}: {}\n    greedy {} gets {} for {}; {} {verb} {}\n    punished by {punished}\n",
            w.position,
            w.greedy,
            number(w.greedy_value),
            w.mover,
            w.best_moves.join(", "),
            number(w.best_value),
        ));
    }
    out
}

fn seat_json(s: &SeatResult) -> serde_json::Value {
    serde_json::json!({
        "seat": s.seat,
        "q_gets": s.q_gets,
        "optimal_gets": s.optimal_gets,
        "beatable": s.beatable(),
        "line": s.line,
    })
}

fn wrong_json(w: &WrongMove) -> serde_json::Value {
    serde_json::json!({
        "after": w.path,
        "position": w.position,
        "mover": w.mover,
        "greedy": w.greedy,
        "greedy_value": w.greedy_value,
        "best_value": w.best_value,
        "best_moves": w.best_moves,
        "exploit": w.exploit,
    })
}

/// The matches of [`report`], as JSON records per opponent and seat.
fn matches_json(
    game: &Interpreted,
    table: &QTable<Interpreted>,
    name: &str,
    games: u64,
    seed: u64,
    search: &SearchArgs,
    ctx: &Context,
) -> Result<serde_json::Value, Failure> {
    let mut out = Vec::new();
    for (k, opponent) in [AgentSpec::Optimal(Ties::Random), AgentSpec::Random].iter().enumerate() {
        let mut agents: Vec<Box<dyn Agent<Interpreted> + '_>> = vec![
            Box::new(QAgent::new(name, table.clone())),
            opponent_agent(opponent, game, seed.wrapping_add(k as u64 + 1), search, ctx)?,
        ];
        let tally = tournament::play_match(game, &mut agents, games, seed.wrapping_add(k as u64), &mut |_| {})
            .map_err(|e| ctx.fail(&e))?;
        for (s, seat) in tally.seats.iter().enumerate() {
            let r = &tally.by_seat[0][s];
            out.push(serde_json::json!({
                "opponent": opponent.to_string(),
                "seat": seat,
                "games": r.games,
                "wins": r.wins,
                "draws": r.draws,
                "losses": r.losses,
                "mean": r.mean(),
            }));
        }
    }
    Ok(serde_json::Value::Array(out))
}

/// The evaluation of `table` as text: agreement, then the matches.
pub fn report(
    game: &Interpreted,
    table: &QTable<Interpreted>,
    name: &str,
    games: u64,
    seed: u64,
    search: &SearchArgs,
    ctx: &Context,
) -> Result<String, Failure> {
    let fail = |e: SolveError| solve_failed(e, ctx);
    let root = game.initial_state().map_err(|e| ctx.fail(&e))?;
    let a = qeval::agreement_within(game, table, &root, &exact_options(search, &root)).map_err(fail)?;
    let mut out = agreement_text(&a);
    out.push('\n');
    out.push_str(&format!(
        "the greedy Q agent against optimal and random play, {games} games each, seed {seed}:\n"
    ));
    let mut rows: Vec<Vec<String>> = vec![
        [
            "opponent",
            "Q agent",
            "games",
            "wins",
            "draws",
            "losses",
            "win rate (95%)",
            "avg utility (95%)",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
    ];
    for (k, opponent) in [AgentSpec::Optimal(Ties::Random), AgentSpec::Random].iter().enumerate() {
        let mut agents: Vec<Box<dyn Agent<Interpreted> + '_>> = vec![
            Box::new(QAgent::new(name, table.clone())),
            opponent_agent(opponent, game, seed.wrapping_add(k as u64 + 1), search, ctx)?,
        ];
        // Each opponent plays its own seeded series of games.
        let tally = tournament::play_match(game, &mut agents, games, seed.wrapping_add(k as u64), &mut |_| {})
            .map_err(|e| ctx.fail(&e))?;
        for (s, seat) in tally.seats.iter().enumerate() {
            let r = &tally.by_seat[0][s];
            let mut row = standings::row(&opponent.to_string(), &format!("as {seat}"), r);
            if s > 0 {
                row[0].clear();
            }
            rows.push(row);
        }
    }
    out.push_str(&standings::table(
        &rows,
        &[false, false, true, true, true, true, false, false],
    ));
    Ok(out)
}

/// The exact solver's options for the comparisons of `eval`: `--max-nodes`
/// and `--time-limit` per position solved, and the memory limit.
fn exact_options(search: &SearchArgs, root: &crate::runtime::State) -> SolveOptions {
    let mut opts = SolveOptions::default();
    search.apply(&mut opts);
    limits::cap_memo(&mut opts, root, 1);
    opts
}

/// A failed exact solve of `eval`: a game the solver cannot take is bad
/// input; a limit reached says which part of the evaluation it stopped.
fn solve_failed(e: SolveError, ctx: &Context) -> Failure {
    match e {
        SolveError::Budget { what, limit, nodes } => ctx.fail(&OutOfReach {
            budget: SolveError::Budget { what, limit, nodes },
        }),
        other => ctx.fail(&other),
    }
}

/// The exact solution a table is compared with, stopped by a limit: the
/// solver's stop, with eval's own help (eval has no memo table to turn on,
/// and solves every reachable position, not one).
#[derive(Debug)]
struct OutOfReach {
    /// A [`SolveError::Budget`].
    budget: SolveError,
}

impl std::fmt::Display for OutOfReach {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let SolveError::Budget { what, limit, nodes } = &self.budget else {
            return write!(f, "{}", self.budget);
        };
        let why = match *what {
            "nodes" => format!("the node limit of {limit} (--max-nodes)"),
            "time" => format!("the time limit of {limit} (--time-limit)"),
            _ => format!("its memo table's share of the memory ({limit} states; --max-memory)"),
        };
        write!(
            f,
            "the exact solution the table is compared with is out of reach: the solver stopped after {} nodes, at {why}",
            thousands(*nodes)
        )
    }
}

impl std::error::Error for OutOfReach {}

impl miette::Diagnostic for OutOfReach {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.budget.code()
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        let flag = match &self.budget {
            SolveError::Budget { what: "nodes", .. } => "--max-nodes",
            SolveError::Budget { what: "time", .. } => "--time-limit",
            _ => "--max-memory",
        };
        Some(Box::new(format!(
            "eval judges the table's move in every position reachable from the start, solving each \
             within the limits: raise {flag}, or evaluate on smaller parameters of the game"
        )))
    }
}

impl crate::error_kind::Exits for OutOfReach {
    fn exit_code(&self) -> i32 {
        self.budget.exit_code()
    }
}

/// An opponent of the Q agent; an `optimal` one searches within `search`.
fn opponent_agent<'g>(
    spec: &AgentSpec,
    game: &'g Interpreted,
    seed: u64,
    search: &SearchArgs,
    ctx: &Context,
) -> Result<Box<dyn Agent<Interpreted> + 'g>, Failure> {
    let options = AgentArgs {
        search: search.clone(),
        ..AgentArgs::default()
    };
    Ok(make_agent_with(spec, game, seed, &options, None, ctx)?)
}

fn agreement_text(a: &Agreement) -> String {
    let w = a.positions.to_string().len();
    let line = |what: &str, k: usize, n: usize| {
        let pct = if n == 0 {
            "-".to_string()
        } else {
            format!("{:.1}%", 100.0 * k as f64 / n as f64)
        };
        vec![format!("  {what}"), format!("{k:>w$} of {n:>w$}"), pct]
    };
    let rows = vec![
        line("in all reachable positions", a.optimal, a.positions),
        line("where a winning move exists", a.winning_optimal, a.winning),
        line("where the choice matters", a.choice_optimal, a.choice),
    ];
    format!(
        "the greedy move is optimal, by the exact solver:\n{}  (the table never saw {} of the {} positions)\n",
        standings::table(&rows, &[false, false, true]),
        a.unseen,
        a.positions
    )
}
