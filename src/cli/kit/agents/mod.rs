//! Agents from their specs, for every command that plays games (`play`,
//! `trace`, `match`, `eval`); the kinds are listed once, in
//! `solve::agent_kinds::AGENT_KINDS`.

pub(in crate::cli) mod exec;
pub(in crate::cli) mod human;

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;

use crate::cli::kit::args::SearchArgs;
use crate::cli::kit::context::{Context, Failure};
use crate::cli::kit::output::Input;
use crate::game::Game;
use crate::runtime::Interpreted;
use crate::solve::agent_builder::{self, AgentBuildError, AgentOptions, MoveKinds, build_agent};
use crate::solve::agents::agent::{Agent, AgentError, AgentSpec, Labeled, PlayerSpec};
use crate::solve::agents::agent_kinds::{AGENT_KINDS, kinds_text};
use crate::solve::agents::mcts::{Backup, Parallelism, SimultaneousSelect};
use exec::{ExecAgent, ExecOptions, OnFailure};
use human::{Human, Terminal};

/// An agent of any kind for a game file.
pub type BoxedAgent<'g> = agent_builder::BoxedAgent<'g, Interpreted>;

/// The help of a `--players` flag: `intro`, then every kind of agent
/// (`AGENT_KINDS`) and how to name one.
pub fn players_help(intro: &str) -> String {
    format!(
        "{intro}. Agents: {}. NAME=AGENT gives an agent a short name for the reports (me=exec:python3 me.py); \
         `gdl list --agents` says what each plays",
        kinds_text()
    )
}

/// Reads a `--players` list as text (the command parses it against the
/// game), and offers every kind of agent to the shell completions.
#[derive(Clone, Debug)]
pub struct PlayersParser;

impl clap::builder::TypedValueParser for PlayersParser {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            AGENT_KINDS
                .iter()
                .map(|k| clap::builder::PossibleValue::new(k.spec).help(k.plays)),
        ))
    }
}

/// `--mcts-simultaneous`: how `mcts` chooses at simultaneous moves.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum McsSelect {
    #[default]
    Ucb,
    Rm,
    RmMixed,
    OthersRandom,
    OthersHalfRandom,
}

/// `--mcts-parallel` (`--parallel` of `solve --mcts`): how threads share one move's search.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum McsParallel {
    #[default]
    Root,
    Tree,
}

impl From<McsParallel> for Parallelism {
    fn from(p: McsParallel) -> Self {
        match p {
            McsParallel::Root => Parallelism::Root,
            McsParallel::Tree => Parallelism::Tree,
        }
    }
}

/// `--mcts-backup`: what `mcts` adds up from the end of each simulation.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum McsBackup {
    #[default]
    Returns,
    Outcome,
    Score,
}

impl From<McsBackup> for Backup {
    fn from(what: McsBackup) -> Backup {
        match what {
            McsBackup::Returns => Backup::Returns,
            McsBackup::Outcome => Backup::Outcome,
            McsBackup::Score => Backup::Score,
        }
    }
}

/// Options of the agents, shared by the commands that take `--players`.
#[derive(Args, Debug, Clone, Default)]
pub struct AgentArgs {
    /// Time limit per move of `search`, `dsearch`, `mcts` and `az:FILE` agents, in
    /// milliseconds; with `search:N` or `mcts:N` the search stops at whichever comes first
    #[arg(long = "budget-ms", value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub budget_ms: Option<u64>,
    /// Time limit per move of `exec:` agents (external programs), in
    /// milliseconds [default: 10000]; a program's first answer may take 10 s
    /// more, to start
    #[arg(long = "move-time-ms", value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub move_time_ms: Option<u64>,
    /// What an `exec:` agent that crashes, answers an illegal move or runs
    /// out of time gets: it loses the game (forfeit), its moves are drawn at
    /// random and the game counts (random), or everything stops (abort)
    #[arg(long = "on-agent-failure", value_name = "WHAT", value_enum, default_value_t = OnFailure::Forfeit)]
    pub on_failure: OnFailure,
    /// Append the standard error of `exec:` agents to this file; default:
    /// gdl's own standard error
    #[arg(long = "agent-stderr", value_name = "FILE")]
    pub agent_stderr: Option<std::path::PathBuf>,
    /// Threads for each move of an `mcts` agent (see --mcts-parallel); with
    /// 1, a seed plays the same games every time
    #[arg(long = "search-threads", value_name = "N", default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
    pub search_threads: usize,
    /// With --search-threads above 1: one tree per thread, their root
    /// statistics added up (root), or one tree that every thread searches,
    /// with virtual loss (tree)
    #[arg(long = "mcts-parallel", value_name = "HOW", value_enum, default_value_t = McsParallel::Root)]
    pub mcts_parallel: McsParallel,
    /// How `mcts` agents choose at simultaneous moves: decoupled UCB1 (ucb);
    /// regret matching, playing the most visited move (rm); regret matching,
    /// playing a move drawn from the average strategy (rm-mixed); UCB1 for
    /// itself against the others drawn at random (others-random); or the
    /// others half the time by UCB1, half the time at random
    /// (others-half-random). Default: others-half-random in games decided
    /// by scores (X Nimmt!, Goofspiel), else ucb
    #[arg(long = "mcts-simultaneous", value_name = "HOW", value_enum)]
    pub mcts_simultaneous: Option<McsSelect>,
    /// What `mcts` agents back up from the end of each simulation: every
    /// player's return (returns), or its outcome, +1 for a win, 0 for a
    /// draw, -1 for a loss (outcome: plays to win, not for the margin), or
    /// its own score where the game ends on scores (score: few points of its
    /// own, not a margin over the others). Default: score in games of
    /// simultaneous moves decided by scores, else returns
    #[arg(long = "mcts-backup", value_name = "WHAT", value_enum)]
    pub mcts_backup: Option<McsBackup>,
    /// With `--mcts-backup score`: B points more for a win and B fewer for
    /// a loss, in the score's units. Default: 4 where score is the default,
    /// else 0
    #[arg(long = "mcts-win-bonus", value_name = "B", value_parser = win_bonus)]
    pub mcts_win_bonus: Option<f64>,
    /// UCB1's exploration constant of `mcts` agents, for returns scaled to 0..1
    #[arg(long = "mcts-exploration", value_name = "C", default_value_t = 1.0, value_parser = exploration)]
    pub mcts_exploration: f64,
    /// Playouts of `mcts` agents stop after M random moves, where the
    /// game's `evaluate` scores the position (games without one play to
    /// the end); 0: always to the end
    #[arg(long = "mcts-cutoff", value_name = "M", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=1_000_000))]
    pub mcts_cutoff: Option<usize>,
    /// Implicit minimax backups of `mcts` agents: the weight A (0 to 1) of
    /// each move's heuristic minimax value, the game's `evaluate` at the
    /// tree's leaves, beside its mean return (two players, perfect
    /// information, a game with `evaluate`); 0: off
    #[arg(long = "mcts-minimax", value_name = "A", value_parser = minimax_weight)]
    pub mcts_minimax: Option<f64>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// How many `optimal` agents share the memory limit (one per seat and
    /// thread), so that their memo tables together stay under it.
    #[arg(skip)]
    pub optimal_agents: usize,
    /// `optimal` agents play the slowest loss when lost (`gdl play`).
    #[arg(skip)]
    pub resist: bool,
}

impl AgentArgs {
    /// How `exec:` agents are run.
    pub fn exec_options(&self) -> ExecOptions {
        ExecOptions {
            move_time: self.move_time_ms.map(Duration::from_millis),
            on_failure: self.on_failure,
            stderr: self.agent_stderr.clone(),
        }
    }

    /// The options of the agents the library builds: `optimal` and
    /// `alphabeta:D` keep to the solver's limits (--max-nodes, --time-limit)
    /// move by move, and `optimal` to its share of --max-memory.
    pub fn agent_options(&self) -> AgentOptions {
        AgentOptions {
            search_time: self.budget_ms.map(Duration::from_millis),
            max_nodes: self.search.max_nodes,
            time_limit: self.search.time_limit.map(Duration::from_secs_f64),
            memory_share: self.optimal_agents.max(1),
            resist: self.resist,
            search_threads: self.search_threads,
            mcts_simultaneous: self.mcts_simultaneous.map(|how| match how {
                McsSelect::Rm => SimultaneousSelect::RegretMatching,
                McsSelect::RmMixed => SimultaneousSelect::RegretMatchingMixed,
                McsSelect::Ucb => SimultaneousSelect::Ucb,
                McsSelect::OthersRandom => SimultaneousSelect::OthersRandom,
                McsSelect::OthersHalfRandom => SimultaneousSelect::OthersHalfRandom,
            }),
            mcts_backup: self.mcts_backup.map(Into::into),
            mcts_exploration: self.mcts_exploration,
            mcts_cutoff: self.mcts_cutoff,
            mcts_minimax: self.mcts_minimax,
            mcts_win_bonus: self.mcts_win_bonus,
            mcts_parallel: self.mcts_parallel.into(),
            stop: Some(crate::cli::kit::signals::flag()),
        }
    }
}

/// A win bonus: finite and not below 0.
fn win_bonus(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(b) if b.is_finite() && b >= 0.0 => Ok(b),
        _ => Err(format!("`{s}` is not a win bonus: a number of points, 0 or more")),
    }
}

/// An exploration constant: finite and above 0.
/// An implicit minimax weight: from 0 to 1.
fn minimax_weight(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(a) if (0.0..=1.0).contains(&a) => Ok(a),
        _ => Err(format!("`{s}` is not a weight: a number from 0 to 1")),
    }
}

fn exploration(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(c) if c.is_finite() && c > 0.0 => Ok(c),
        _ => Err(format!("`{s}` is not an exploration constant: a number above 0")),
    }
}

/// Every file the agents of `specs` read: a `q:` or `policy:` table, and
/// for an `exec:` agent its program (looked up in `PATH` as the system
/// would) and every word of its command that names an existing file (its
/// script, its configuration). None of them may be an output.
pub fn agent_inputs(specs: &[PlayerSpec]) -> Vec<Input> {
    let mut files = Vec::new();
    for PlayerSpec { spec, .. } in specs {
        match spec {
            AgentSpec::QTable(path) => files.push(Input::new(format!("the Q-table of {spec}"), path)),
            AgentSpec::Policy(path) => files.push(Input::new(format!("the strategy of {spec}"), path)),
            AgentSpec::AlphaZero(path) => files.push(Input::new(format!("the network of {spec}"), path)),
            AgentSpec::Exec(command) => {
                // A command that does not split is refused when the agent starts.
                let Ok(argv) = exec::split_command(command) else {
                    continue;
                };
                let mut words = argv.iter();
                if let Some(program) = words.next().and_then(|p| program_path(p)) {
                    files.push(Input::new(format!("the program of {spec}"), &program));
                }
                for word in words.map(Path::new).filter(|p| p.is_file()) {
                    files.push(Input::new(format!("a file named in {spec}"), word));
                }
            }
            _ => {}
        }
    }
    files
}

/// The file a command's first word runs: itself when it names a path, else
/// the first match in `PATH`.
fn program_path(word: &str) -> Option<PathBuf> {
    if word.contains('/') {
        return Some(PathBuf::from(word));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(word))
        .find(|p| p.is_file())
}

/// Checks every file a command that seats the agents of `specs` writes:
/// `outputs` (`--csv`, `--plot`, `--json-log`) and `--agent-stderr`, against
/// each other and against everything it reads (the game file, the agents'
/// files, see [`agent_inputs`]), before any agent starts.
pub fn check_files(
    game_file: &Path,
    specs: &[PlayerSpec],
    options: &AgentArgs,
    outputs: &[(&'static str, &Path)],
) -> Result<(), Failure> {
    let mut all = outputs.to_vec();
    if let Some(path) = &options.agent_stderr {
        all.push(("--agent-stderr", path));
    }
    let mut inputs = vec![Input::game(game_file)];
    inputs.extend(agent_inputs(specs));
    crate::cli::kit::output::check(&all, &inputs)
}

/// The agent `player` for `game`, going by its label if it has one;
/// `terminal` is where a `human` plays (none: a human cannot sit at this
/// command).
pub fn make_player<'g>(
    player: &PlayerSpec,
    game: &'g Interpreted,
    seed: u64,
    options: &AgentArgs,
    terminal: Option<Terminal<'g>>,
    ctx: &Context,
) -> Result<BoxedAgent<'g>, Failure> {
    let agent = make_agent_with(&player.spec, game, seed, options, terminal, ctx)?;
    Ok(match &player.label {
        Some(label) => Box::new(Labeled::new(label.clone(), agent)),
        None => agent,
    })
}

/// The agent `spec` for `game`, unlabeled.
pub fn make_agent_with<'g>(
    spec: &AgentSpec,
    game: &'g Interpreted,
    seed: u64,
    options: &AgentArgs,
    terminal: Option<Terminal<'g>>,
    ctx: &Context,
) -> Result<BoxedAgent<'g>, Failure> {
    match spec {
        AgentSpec::Exec(command) => match ExecAgent::start(command, options.exec_options(), seed) {
            Ok(agent) => Ok(Box::new(agent)),
            Err(why) => Err(Failure::input(format!("error: exec:{command}: {why}"))),
        },
        AgentSpec::Human => match terminal {
            Some(t) => Ok(Box::new(Human::new(t))),
            None => Err(Failure::input(
                "error: `human` cannot sit in a match of many games; use `gdl play` to play yourself",
            )),
        },
        _ => {
            let kinds = MoveKinds::of(game.program());
            build_agent(spec, game, kinds, seed, &options.agent_options()).map_err(|e| match e {
                AgentBuildError::Unsuited(why) => Failure::input(format!("error: {why}")),
                e => ctx.fail(&e),
            })
        }
    }
}

/// The agents as a game takes them (`solve::episode::play_out`), each started
/// on a new game: agent `k` draws from `seed + k + 1`, as `seat_agents` seeds it.
pub fn begin<'s, 'g>(
    agents: &'s mut [BoxedAgent<'g>],
    game: &Interpreted,
    seed: u64,
) -> Result<Vec<&'s mut (dyn Agent<Interpreted> + 'g)>, AgentError> {
    let mut seated = Vec::with_capacity(agents.len());
    for (k, agent) in agents.iter_mut().enumerate() {
        agent.game_number(1);
        agent.new_game(game, seed.wrapping_add(k as u64 + 1))?;
        seated.push(&mut **agent as &mut (dyn Agent<Interpreted> + 'g));
    }
    Ok(seated)
}

/// Ends a game of `play` or `trace` for every agent (agent `p` played
/// player `p`): one line for each agent that failed in it, saying how, and
/// what the failure costs; and the players who forfeited the game by it,
/// whom the outcome must count as losers, as `match` does.
pub fn end_game_lines(
    agents: &mut [BoxedAgent<'_>],
    game: &Interpreted,
    end: &crate::runtime::State,
) -> Result<(Vec<String>, Vec<crate::game::Player>), AgentError> {
    let mut lines = Vec::new();
    let mut forfeited = Vec::new();
    for (p, agent) in agents.iter_mut().enumerate() {
        if let Some(f) = agent.end_game(game, end, p)? {
            lines.push(failure_line(&agent.name(), game.player_name(p), &f));
            if f.forfeit {
                forfeited.push(p);
            }
        }
    }
    Ok((lines, forfeited))
}

/// A failure as the reports tell it:
/// `exec:./crash.sh (P1) failed: it exited with status 1 before answering; it forfeits the game`.
pub fn failure_line(agent: &str, player: &str, f: &crate::solve::agents::agent::AgentFailure) -> String {
    let cost = if f.forfeit {
        "it forfeits the game"
    } else {
        "the game counts as played, with random moves for it"
    };
    format!("{agent} ({player}) failed ({}): it {}; {cost}", f.kind, f.detail)
}

/// The failures of a match's agents: a count per agent, then one line per
/// failure (the first [`FAILURES_LISTED`]); empty when no agent failed.
pub fn failures_text(
    agents: &[String],
    game: &Interpreted,
    failures: &[crate::solve::matches::tournament::FailureRecord],
) -> String {
    if failures.is_empty() {
        return String::new();
    }
    let mut counts = Vec::new();
    for (a, name) in agents.iter().enumerate() {
        let mine: Vec<&str> = failures
            .iter()
            .filter(|f| f.agent == a)
            .map(|f| f.failure.kind)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let mut kinds: Vec<String> = Vec::new();
        for kind in ["crash", "illegal", "timeout", "unreadable"] {
            let k = mine.iter().filter(|m| **m == kind).count();
            if k > 0 {
                kinds.push(format!("{k} {kind}"));
            }
        }
        counts.push(format!(
            "  {name}: failed in {} game{} ({})",
            mine.len(),
            if mine.len() == 1 { "" } else { "s" },
            kinds.join(", ")
        ));
    }
    let mut out = format!("\nfailures\n{}\n", counts.join("\n"));
    for f in failures.iter().take(FAILURES_LISTED) {
        out.push_str(&format!(
            "  game {}: {}\n",
            f.game + 1,
            failure_line(&agents[f.agent], game.player_name(f.seat), &f.failure)
        ));
    }
    if failures.len() > FAILURES_LISTED {
        out.push_str(&format!(
            "  ... and {} more (the CSV has every game)\n",
            failures.len() - FAILURES_LISTED
        ));
    }
    out
}

/// The failures a match report lists one by one.
const FAILURES_LISTED: usize = 20;

/// Reads `--players A,B`: one agent per player of `game`, in seat order.
pub fn players_for(players: &str, game: &Interpreted) -> Result<Vec<PlayerSpec>, Failure> {
    let specs = crate::solve::agents::agent::parse_players(players)
        .map_err(|e| Failure::input(format!("error: --players: {e}")))?;
    let n = game.num_players();
    if specs.len() != n {
        return Err(Failure::input(format!(
            "error: --players names {} agent{}, but {} has {n} players ({})",
            specs.len(),
            if specs.len() == 1 { "" } else { "s" },
            game.name(),
            (0..n).map(|p| game.player_name(p)).collect::<Vec<_>>().join(", ")
        )));
    }
    Ok(specs)
}

/// One agent per player from `--players`, checked against the game: agent
/// `k` plays player `k` and draws from its own generator (seeded from `seed`
/// and `k`), so that changing one agent does not change what another does.
/// A `human` plays at the terminal.
pub fn seat_agents<'g>(
    players: &str,
    game: &'g Interpreted,
    seed: u64,
    options: &AgentArgs,
    ctx: &Context,
) -> Result<(Vec<PlayerSpec>, Vec<BoxedAgent<'g>>), Failure> {
    let specs = players_for(players, game)?;
    let n = specs.len();
    let options = &AgentArgs {
        optimal_agents: specs.iter().filter(|s| matches!(s.spec, AgentSpec::Optimal(_))).count(),
        ..options.clone()
    };
    let mut agents = Vec::with_capacity(n);
    for (k, spec) in specs.iter().enumerate() {
        let terminal = (**spec == AgentSpec::Human).then(Terminal::stdio);
        agents.push(make_player(
            spec,
            game,
            seed.wrapping_add(k as u64 + 1),
            options,
            terminal,
            ctx,
        )?);
    }
    Ok((specs, agents))
}

/// A game that stopped at move `ply` (the moves numbered as the trace
/// numbers them) because an agent or the rules failed.
pub(crate) fn stopped_at(ply: usize, e: &AgentError, ctx: &Context) -> Failure {
    Failure::runtime(format!("error: the game stopped at move {ply}\n{}", ctx.render(e)))
}
