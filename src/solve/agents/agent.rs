//! Agents: players that choose moves. Every command that plays games (`play`,
//! `trace`, `match`) takes its players as agent specs: `optimal`, `random`,
//! `human`, ...; each kind is one type implementing [`Agent`].

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use miette::Diagnostic;
use thiserror::Error;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::agent_kinds::kinds_text;
use super::step::Step;
use crate::error_kind::{EXIT_RUNTIME, Exits};
use crate::game::{Game, GameError, Player};
use crate::solve::{SolveError, Solver};

/// A move an agent chose, with what it saw, for traces.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice<M> {
    pub mv: M,
    /// What the agent knows about the move, e.g. `value 1` for an optimal
    /// player; `None` when it has nothing to say.
    pub note: Option<String>,
}

impl<M> Choice<M> {
    pub fn plain(mv: M) -> Self {
        Choice { mv, note: None }
    }
}

/// Why an agent could not choose.
#[derive(Debug, Error, Diagnostic)]
pub enum AgentError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Game(#[from] GameError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Solve(#[from] SolveError),
    /// A person ended the input (end of file, `quit`): not a failure.
    #[error("the game was abandoned")]
    #[diagnostic(code(gdl::agent::quit))]
    Quit,
    #[error("{0}")]
    #[diagnostic(code(gdl::agent::failed))]
    Failed(String),
}

/// An agent that fails stops the game while it is played.
impl Exits for AgentError {
    fn exit_code(&self) -> i32 {
        match self {
            AgentError::Game(g) => g.exit_code(),
            AgentError::Solve(s) => s.exit_code(),
            AgentError::Quit | AgentError::Failed(_) => EXIT_RUNTIME,
        }
    }
}

/// How an agent failed in a game that went on without it: its remaining
/// moves were drawn at random. Only external programs (`exec:`) fail so.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentFailure {
    /// `crash`, `illegal`, `timeout` or `unreadable`: the CSV's words.
    pub kind: &'static str,
    /// What happened, for the report: `answered "play(99)", which is not legal`.
    pub detail: String,
    /// The game counts as lost (`--on-agent-failure forfeit`); otherwise
    /// it counts as played (`random`).
    pub forfeit: bool,
}

/// How a choice counts in an agent's time per decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// The time `choose` took, when there was more than one move.
    Clock,
    /// An answer that took this long (an external program's, without gdl's
    /// own work around it).
    Answer(Duration),
    /// A newly started program's first answer, which includes its start-up:
    /// reported on its own line, not as a decision.
    StartUp(Duration),
    /// Not a decision: a forced move, or a move drawn for an agent that failed.
    None,
}

/// A player that chooses moves.
pub trait Agent<G: Game> {
    /// How the agent is written on the command line (`optimal`, `random`, `q:nim.q.json`).
    fn name(&self) -> String;

    /// Called before each game, so an agent can forget the last one. An agent
    /// that draws at random starts drawing from `seed` again: a game's course
    /// then depends on its own seed only, not on the games played before it,
    /// and a match can play its games on several threads with the same results.
    fn new_game(&mut self, game: &G, seed: u64) -> Result<(), AgentError> {
        let _ = (game, seed);
        Ok(())
    }

    /// Called when a game is over, with its final state and the player the
    /// agent played, so that an agent can be told the outcome. Returns how
    /// the agent failed in this game, if it did and the game went on without
    /// it (an external program that crashed, answered an illegal move or ran
    /// out of time).
    fn end_game(&mut self, game: &G, state: &G::State, player: Player) -> Result<Option<AgentFailure>, AgentError> {
        let _ = (game, state, player);
        Ok(None)
    }

    /// Called before `new_game` with the game's number in its match (from
    /// 1; a single game is game 1), for an agent that tells it to someone:
    /// an external program hears it in `start`.
    fn game_number(&mut self, number: u64) {
        let _ = number;
    }

    /// Whether the agent wants [`Agent::after_step`]: asked once a game, so
    /// that the other agents cost nothing.
    fn wants_steps(&self) -> bool {
        false
    }

    /// Called after every step of the game (every player's moves, chance,
    /// forced moves), with the state before it and after it; `seat` is the
    /// player the agent plays. An external program is told the moves it may
    /// see from these.
    fn after_step(&mut self, game: &G, seat: Player, before: &G::State, step: &Step<G::Move>, after: &G::State) {
        let _ = (game, seat, before, step, after);
    }

    /// Replaces the positions of this game before the state the next
    /// `choose` gets (the first one first), which an agent that counts them
    /// for a repetition rule otherwise gathers from `after_step`: for a
    /// caller that hands the agent positions without playing the game
    /// through it step by step (the Python module). The default keeps none.
    fn set_history(&mut self, game: &G, before: &[G::State]) {
        let _ = (game, before);
    }

    /// How the last `choose` counts in the time per decision: by default
    /// the time the call took, when there was more than one move.
    fn timing(&self) -> Timing {
        Timing::Clock
    }

    /// Chooses `player`'s move in `state` from `moves`, the player's legal
    /// moves (never empty). An agent is handed the true state; one that must
    /// not see hidden information uses only `game.observation(state, player)`
    /// and `game.sample_hidden(state, player, rng)`.
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        moves: &[G::Move],
    ) -> Result<Choice<G::Move>, AgentError>;
}

/// How an optimal agent picks among equally good moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// The first in the order the game lists its moves (`optimal:first`).
    First,
    /// One drawn at random, seeded (`optimal`): games against it vary.
    Random,
    /// The fastest win or the slowest loss (seed 002's Extension A, as
    /// `gdl solve --fast`), then the first in the game's order (`optimal:fast`).
    Fast,
}

/// An agent as written on the command line.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    /// Plays a move of the exact solution (`optimal`, `optimal:first`).
    Optimal(Ties),
    /// Plays a uniformly random legal move (`random`).
    Random,
    /// Asks a person at the terminal (`human`).
    Human,
    /// Determinized Monte Carlo search (`search`, `search:N` for N worlds per move).
    Search(Option<usize>),
    /// Determinized search with an exact endgame and an adaptive model of
    /// the others (`dsearch`, `dsearch:N` for at most N worlds per move).
    Dsearch(Option<usize>),
    /// The move with the lowest immediate penalty (`greedy`).
    Greedy,
    /// Plays greedily by a saved Q-table (`q:FILE`).
    QTable(std::path::PathBuf),
    /// Plays a saved strategy (`policy:FILE`, from `gdl train --algorithm cfr`).
    Policy(std::path::PathBuf),
    /// PUCT search guided by a trained network (`az:FILE`, from `gdl train
    /// --algorithm alphazero`).
    AlphaZero(std::path::PathBuf),
    /// Monte Carlo tree search (`mcts`, `mcts:N` for N simulations per move).
    Mcts(Option<u64>),
    /// Alpha-beta to a depth limit, the game's `evaluate` at the limit (`alphabeta:D`).
    AlphaBeta(usize),
    /// An external program speaking JSON lines (`exec:COMMAND`, docs/AGENTS.md).
    Exec(String),
}

impl AgentSpec {
    /// The file the agent reads, if any.
    pub fn file(&self) -> Option<&std::path::Path> {
        match self {
            AgentSpec::QTable(p) | AgentSpec::Policy(p) | AgentSpec::AlphaZero(p) => Some(p),
            _ => None,
        }
    }
}

impl FromStr for AgentSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        if let Some(command) = s.strip_prefix("exec:") {
            return if command.trim().is_empty() {
                Err("`exec:` needs a command: exec:\"python3 my_agent.py\"".into())
            } else {
                Ok(AgentSpec::Exec(command.trim().to_string()))
            };
        }
        if let Some(path) = s.strip_prefix("q:") {
            return if path.is_empty() {
                Err("`q:` needs a file: q:FILE".into())
            } else {
                Ok(AgentSpec::QTable(path.into()))
            };
        }
        if let Some(path) = s.strip_prefix("policy:") {
            return if path.is_empty() {
                Err("`policy:` needs a file: policy:FILE".into())
            } else {
                Ok(AgentSpec::Policy(path.into()))
            };
        }
        if let Some(path) = s.strip_prefix("az:") {
            return if path.is_empty() {
                Err("`az:` needs a file: az:FILE".into())
            } else {
                Ok(AgentSpec::AlphaZero(path.into()))
            };
        }
        if let Some(n) = s.strip_prefix("search:") {
            return match n.parse::<usize>() {
                Ok(n) if (1..=1_000_000).contains(&n) => Ok(AgentSpec::Search(Some(n))),
                _ => Err(format!(
                    "`{s}`: the number of worlds per move in search:N is a whole number from 1 to 1000000"
                )),
            };
        }
        if let Some(n) = s.strip_prefix("dsearch:") {
            return match n.parse::<usize>() {
                Ok(n) if (1..=1_000_000).contains(&n) => Ok(AgentSpec::Dsearch(Some(n))),
                _ => Err(format!(
                    "`{s}`: the number of worlds per move in dsearch:N is a whole number from 1 to 1000000"
                )),
            };
        }
        if let Some(n) = s.strip_prefix("mcts:") {
            return match n.parse::<u64>() {
                Ok(n) if (1..=1_000_000_000).contains(&n) => Ok(AgentSpec::Mcts(Some(n))),
                _ => Err(format!(
                    "`{s}`: the number of simulations per move in mcts:N is a whole number from 1 to 1000000000"
                )),
            };
        }
        if let Some(d) = s.strip_prefix("alphabeta:") {
            return match d.parse::<usize>() {
                Ok(d) if (1..=100).contains(&d) => Ok(AgentSpec::AlphaBeta(d)),
                _ => Err(format!(
                    "`{s}`: the depth in alphabeta:D is a whole number of moves from 1 to 100"
                )),
            };
        }
        match s {
            "optimal" | "optimal:random" => Ok(AgentSpec::Optimal(Ties::Random)),
            "optimal:first" => Ok(AgentSpec::Optimal(Ties::First)),
            "optimal:fast" => Ok(AgentSpec::Optimal(Ties::Fast)),
            "random" => Ok(AgentSpec::Random),
            "human" => Ok(AgentSpec::Human),
            "search" => Ok(AgentSpec::Search(None)),
            "dsearch" => Ok(AgentSpec::Dsearch(None)),
            "mcts" => Ok(AgentSpec::Mcts(None)),
            "greedy" => Ok(AgentSpec::Greedy),
            "" => Err(format!("a player is missing; the players are: {}", kinds_text())),
            other => Err(format!("unknown player `{other}`; the players are: {}", kinds_text())),
        }
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Optimal(Ties::Random) => f.write_str("optimal"),
            AgentSpec::Optimal(Ties::First) => f.write_str("optimal:first"),
            AgentSpec::Optimal(Ties::Fast) => f.write_str("optimal:fast"),
            AgentSpec::Random => f.write_str("random"),
            AgentSpec::Human => f.write_str("human"),
            AgentSpec::Search(None) => f.write_str("search"),
            AgentSpec::Search(Some(n)) => write!(f, "search:{n}"),
            AgentSpec::Dsearch(None) => f.write_str("dsearch"),
            AgentSpec::Dsearch(Some(n)) => write!(f, "dsearch:{n}"),
            AgentSpec::Mcts(None) => f.write_str("mcts"),
            AgentSpec::Mcts(Some(n)) => write!(f, "mcts:{n}"),
            AgentSpec::Greedy => f.write_str("greedy"),
            AgentSpec::QTable(p) => write!(f, "q:{}", p.display()),
            AgentSpec::Policy(p) => write!(f, "policy:{}", p.display()),
            AgentSpec::AlphaZero(p) => write!(f, "az:{}", p.display()),
            AgentSpec::AlphaBeta(d) => write!(f, "alphabeta:{d}"),
            AgentSpec::Exec(command) => write!(f, "exec:{command}"),
        }
    }
}

/// An agent of `--players` and the name it goes by in reports: its label
/// (`os=exec:python3 os_agent.py` is `os`), else its spec as written.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSpec {
    pub label: Option<String>,
    pub spec: AgentSpec,
}

impl PlayerSpec {
    pub fn name(&self) -> String {
        self.to_string()
    }
}

/// A labelled spec is still its spec: `specs[p] == AgentSpec::Human` reads
/// through the label.
impl std::ops::Deref for PlayerSpec {
    type Target = AgentSpec;

    fn deref(&self) -> &AgentSpec {
        &self.spec
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.label {
            Some(label) => f.write_str(label),
            None => self.spec.fmt(f),
        }
    }
}

impl FromStr for PlayerSpec {
    type Err = String;

    /// `NAME=SPEC` labels the agent; an `=` after the spec's first `:`
    /// (`exec:env A=1 ./a`) belongs to the spec.
    fn from_str(s: &str) -> Result<Self, String> {
        match s.split_once('=') {
            Some((label, spec)) if !label.contains(':') => {
                let label = label.trim();
                if label.is_empty() {
                    return Err(format!("`{}`: the name before `=` is empty (NAME=AGENT)", s.trim()));
                }
                Ok(PlayerSpec {
                    label: Some(label.to_string()),
                    spec: spec.parse()?,
                })
            }
            _ => Ok(PlayerSpec {
                label: None,
                spec: s.parse()?,
            }),
        }
    }
}

/// Reads `--players A,B`: one spec per player, in seat order, each with
/// its label if it has one (`fast=optimal:fast`).
pub fn parse_players(text: &str) -> Result<Vec<PlayerSpec>, String> {
    text.split(',').map(str::parse).collect()
}

/// An agent that goes by a label in every report.
pub struct Labeled<'a, G: Game> {
    label: String,
    inner: Box<dyn Agent<G> + Send + 'a>,
}

impl<'a, G: Game> Labeled<'a, G> {
    pub fn new(label: String, inner: Box<dyn Agent<G> + Send + 'a>) -> Self {
        Labeled { label, inner }
    }
}

impl<G: Game> Agent<G> for Labeled<'_, G> {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn new_game(&mut self, game: &G, seed: u64) -> Result<(), AgentError> {
        self.inner.new_game(game, seed)
    }

    fn end_game(&mut self, game: &G, state: &G::State, player: Player) -> Result<Option<AgentFailure>, AgentError> {
        self.inner.end_game(game, state, player)
    }

    fn game_number(&mut self, number: u64) {
        self.inner.game_number(number);
    }

    fn wants_steps(&self) -> bool {
        self.inner.wants_steps()
    }

    fn after_step(&mut self, game: &G, seat: Player, before: &G::State, step: &Step<G::Move>, after: &G::State) {
        self.inner.after_step(game, seat, before, step, after);
    }

    fn set_history(&mut self, game: &G, before: &[G::State]) {
        self.inner.set_history(game, before);
    }

    fn timing(&self) -> Timing {
        self.inner.timing()
    }

    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        moves: &[G::Move],
    ) -> Result<Choice<G::Move>, AgentError> {
        self.inner.choose(game, state, player, moves)
    }
}

/// A move of the exact solution (two players taking turns, the first
/// maximizing); among equally good ones the first or one
/// drawn at random, so that games against it cover more than one line.
pub struct OptimalAgent<'g, G: Game> {
    solver: Solver<'g, G>,
    ties: Ties,
    rng: StdRng,
    resist: bool,
}

impl<'g, G: Game> OptimalAgent<'g, G> {
    /// The positions of the game before the one the next `choose` gets, for
    /// a game with a repetition rule ([`Solver::set_history`]).
    pub fn set_history(&mut self, before: &[G::State]) {
        self.solver.set_history(before);
    }

    pub fn new(solver: Solver<'g, G>, ties: Ties, seed: u64) -> Self {
        OptimalAgent {
            solver,
            ties,
            rng: StdRng::seed_from_u64(seed),
            resist: false,
        }
    }

    /// In a lost position, plays the slowest loss (as `optimal:fast` does),
    /// not any losing move: a person's opponent in `gdl play` resists as long
    /// as it can, rather than, say, eating Chomp's poisoned square at once.
    /// Winning and drawn positions are played as `ties` says. The lengths
    /// are right only if the solver prefers short lines
    /// (`SolveOptions::prefer_short`).
    pub fn resisting(mut self, resist: bool) -> Self {
        self.resist = resist;
        self
    }
}

impl<G: Game> Agent<G> for OptimalAgent<'_, G> {
    fn name(&self) -> String {
        AgentSpec::Optimal(self.ties).to_string()
    }

    // The memo table is kept from game to game: it changes no answer.
    fn new_game(&mut self, _game: &G, seed: u64) -> Result<(), AgentError> {
        self.rng = StdRng::seed_from_u64(seed);
        Ok(())
    }

    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        moves: &[G::Move],
    ) -> Result<Choice<G::Move>, AgentError> {
        // Values are the first player's; the second player minimizes them.
        let sign = if player == 0 { 1.0 } else { -1.0 };
        let explained = self.solver.explain(state)?;
        let values: Vec<f64> = explained.iter().map(|m| sign * m.value).collect();
        // `+ 0.0` turns the -0 of a negated draw into 0.
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max) + 0.0;
        let mut optimal: Vec<usize> = (0..values.len()).filter(|&i| values[i] == best).collect();
        let slowest_loss = self.resist && best < 0.0;
        if (self.ties == Ties::Fast && best != 0.0) || slowest_loss {
            // The solver prefers short wins, so each line is the fast line:
            // its length says how soon the game ends after the move.
            let length = |i: &usize| explained[*i].line.len();
            let want = if best > 0.0 {
                optimal.iter().map(length).min()
            } else {
                optimal.iter().map(length).max()
            };
            optimal.retain(|i| Some(length(i)) == want);
        }
        let i = match self.ties {
            _ if slowest_loss => optimal[0],
            Ties::First | Ties::Fast => optimal[0],
            Ties::Random => optimal[self.rng.random_range(0..optimal.len())],
        };
        // The value as the mover sees it: a lost position reads negative.
        let mut note = format!("value {best} for {}", game.player_name(player));
        if self.ties == Ties::Fast || slowest_loss {
            note.push_str(&format!(", {} more moves", explained[i].line.len()));
        }
        Ok(Choice {
            mv: moves[i].clone(),
            note: Some(note),
        })
    }
}

/// A uniformly random legal move.
pub struct RandomAgent {
    rng: StdRng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn new_game(&mut self, _game: &G, seed: u64) -> Result<(), AgentError> {
        self.rng = StdRng::seed_from_u64(seed);
        Ok(())
    }

    fn choose(
        &mut self,
        _game: &G,
        _state: &G::State,
        _player: Player,
        moves: &[G::Move],
    ) -> Result<Choice<G::Move>, AgentError> {
        Ok(Choice::plain(moves[self.rng.random_range(0..moves.len())].clone()))
    }
}

/// `Agent::set_history` for an agent that keeps the positions of its game
/// (`None`: it keeps none, the game having no repetition rule).
pub(crate) fn replace_history<S: Clone>(history: &mut Option<Vec<S>>, before: &[S]) {
    if let Some(h) = history {
        h.clear();
        h.extend_from_slice(before);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_back_as_written() {
        for text in [
            "optimal",
            "optimal:first",
            "optimal:fast",
            "random",
            "human",
            "search",
            "search:50",
            "dsearch",
            "dsearch:40",
            "mcts",
            "mcts:2000",
            "alphabeta:4",
            "greedy",
            "q:t.json",
            "exec:python3 my_agent.py",
        ] {
            let spec: AgentSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
        }
        assert_eq!("optimal:random".parse(), Ok(AgentSpec::Optimal(Ties::Random)));
        let specs: Vec<AgentSpec> = parse_players(" search:3 ,random")
            .unwrap()
            .into_iter()
            .map(|p| p.spec)
            .collect();
        assert_eq!(specs, vec![AgentSpec::Search(Some(3)), AgentSpec::Random]);
    }

    #[test]
    fn a_label_names_an_agent() {
        let players = parse_players("os=exec:env A=1 python3 a.py, exec:env B=2 ./b,fast = optimal:fast").unwrap();
        assert_eq!(players[0].label.as_deref(), Some("os"));
        assert_eq!(players[0].spec, AgentSpec::Exec("env A=1 python3 a.py".into()));
        assert_eq!(players[0].to_string(), "os");
        // The `=` of the command is not a label: it comes after `exec:`.
        assert_eq!(players[1].label, None);
        assert_eq!(players[1].to_string(), "exec:env B=2 ./b");
        assert_eq!(players[2].label.as_deref(), Some("fast"));
        assert_eq!(*players[2], AgentSpec::Optimal(Ties::Fast));
        assert!(parse_players("=random").unwrap_err().contains("empty"));
        assert!(
            parse_players("x=nobody")
                .unwrap_err()
                .contains("unknown player `nobody`")
        );
    }

    #[test]
    fn bad_specs_say_what_is_allowed() {
        for bad in [
            "search:0",
            "search:x",
            "dsearch:0",
            "mcts:0",
            "mcts:many",
            "q:",
            "minimax",
            "",
            "exec: ",
        ] {
            let e = bad.parse::<AgentSpec>().unwrap_err();
            assert!(
                e.contains("search:N") || e.contains("mcts:N") || e.contains("q:FILE") || e.contains("exec:"),
                "{bad}: {e}"
            );
        }
    }
}
