//! Agents: players that choose moves. Every command that plays games (`play`,
//! `trace`, `match`) takes its players as agent specs: `optimal`, `random`,
//! `human`, ...; each kind is one type implementing [`Agent`].

use std::fmt;
use std::str::FromStr;

use miette::Diagnostic;
use thiserror::Error;

use super::SolveError;
use crate::game::{Game, GameError, Player};

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

/// A player that chooses moves.
pub trait Agent<G: Game> {
    /// How the agent is written on the command line (`optimal`, `random`, `q:nim.q.json`).
    fn name(&self) -> String;

    /// Called before each game, so an agent can forget the last one.
    fn new_game(&mut self, game: &G) -> Result<(), AgentError> {
        let _ = game;
        Ok(())
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

/// An agent as written on the command line.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    /// Plays a move of the exact solution (`optimal`).
    Optimal,
    /// Plays a uniformly random legal move (`random`).
    Random,
    /// Asks a person at the terminal (`human`).
    Human,
    /// Plays greedily by a saved Q-table (`q:FILE`).
    QTable(std::path::PathBuf),
}

impl FromStr for AgentSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        if let Some(path) = s.strip_prefix("q:") {
            return if path.is_empty() {
                Err("`q:` needs a file: q:FILE".into())
            } else {
                Ok(AgentSpec::QTable(path.into()))
            };
        }
        match s {
            "optimal" => Ok(AgentSpec::Optimal),
            "random" => Ok(AgentSpec::Random),
            "human" => Ok(AgentSpec::Human),
            other => Err(format!(
                "unknown player `{other}`; the players are: optimal, random, human, q:FILE"
            )),
        }
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Optimal => f.write_str("optimal"),
            AgentSpec::Random => f.write_str("random"),
            AgentSpec::Human => f.write_str("human"),
            AgentSpec::QTable(p) => write!(f, "q:{}", p.display()),
        }
    }
}

/// Reads `--players A,B`: one spec per player, in seat order.
pub fn parse_players(text: &str) -> Result<Vec<AgentSpec>, String> {
    text.split(',').map(str::parse).collect()
}
