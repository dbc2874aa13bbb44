//! `gdl.agent(spec, game)`: gdl's agents (`optimal`, `search`, `random`,
//! `greedy`, `q:FILE`, ...: every kind but `human` and `exec:`) choosing
//! moves for Python code, built by the library's `build_agent`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use gdl::game::{Game, Turn};
use gdl::runtime::Interpreted;
use gdl::solve::agent_builder::{AgentBuildError, AgentOptions, MoveKinds, build_agent};
use gdl::solve::agents::agent::AgentSpec;

use crate::game::{PyGame, PyMove, PyState};
use crate::line;
use crate::{GdlError, gdl_error, on_search_stack};

type BoxedAgent = gdl::solve::agent_builder::BoxedAgent<'static, Interpreted>;

/// An agent of gdl's, seated in one game (`gdl.agent`).
#[pyclass(frozen, name = "Agent", module = "gdl")]
pub struct PyAgent {
    // Declared before `game`, so dropped before it: the agent may borrow it.
    agent: Mutex<BoxedAgent>,
    spec: AgentSpec,
    game: Py<PyGame>,
    interpreted: Arc<Interpreted>,
}

/// The limits of an agent's searches, as `gdl.agent` takes them.
pub(crate) struct Limits {
    pub budget_ms: Option<u64>,
    pub max_nodes: Option<u64>,
    pub time_limit: Option<Duration>,
}

/// Builds the agent `spec` for `game`, drawing at random from `seed`.
pub(crate) fn make(game: Bound<'_, PyGame>, spec: &str, seed: u64, limits: Limits) -> PyResult<PyAgent> {
    let spec: AgentSpec = spec.parse().map_err(GdlError::new_err)?;
    let interpreted = game.get().game.clone();
    // SAFETY: the agent borrows the game it plays for as long as it lives;
    // `interpreted` keeps that game alive at the same address (it is behind
    // an Arc) for the whole life of `PyAgent`, and the agent is dropped first
    // (fields drop in declaration order). Nothing else is given the 'static
    // reference.
    let g: &'static Interpreted = unsafe { &*Arc::as_ptr(&interpreted) };
    let agent: BoxedAgent = match &spec {
        AgentSpec::Exec(_) => {
            return Err(GdlError::new_err(
                "`exec:` agents are programs that gdl's commands run (docs/AGENTS.md); from Python, call your own code directly",
            ));
        }
        AgentSpec::Human => {
            return Err(GdlError::new_err(
                "`human` plays at the terminal (`gdl play`); from Python, ask the person yourself and read the move with game.parse_move",
            ));
        }
        _ => {
            let kinds = MoveKinds::of(g.program());
            let options = AgentOptions {
                search_time: limits.budget_ms.map(Duration::from_millis),
                max_nodes: limits.max_nodes,
                time_limit: limits.time_limit,
                memory_share: 1,
                ..AgentOptions::default()
            };
            build_agent(&spec, g, kinds, seed, &options).map_err(|e| match e {
                AgentBuildError::Unsuited(why) => GdlError::new_err(why),
                e => gdl_error(&e),
            })?
        }
    };
    let mut agent = agent;
    agent.new_game(g, seed).map_err(|e| gdl_error(&e))?;
    Ok(PyAgent {
        agent: Mutex::new(agent),
        spec,
        game: game.unbind(),
        interpreted,
    })
}

#[pymethods]
impl PyAgent {
    /// The agent as gdl's `--players` writes it: `optimal`, `search:50`, `q:nim.q.json`.
    #[getter]
    fn name(&self) -> String {
        self.spec.to_string()
    }

    /// The game the agent plays.
    #[getter]
    fn game(&self, py: Python<'_>) -> Py<PyGame> {
        self.game.clone_ref(py)
    }

    /// Starts a new game: an agent that draws at random draws from `seed` again.
    fn reset(&self, py: Python<'_>, seed: u64) -> PyResult<()> {
        py.detach(|| {
            let mut agent = self.lock()?;
            agent.new_game(&self.interpreted, seed).map_err(|e| gdl_error(&e))
        })
    }

    /// The agent's move in `state` (for `player` at a simultaneous node).
    #[pyo3(signature = (state, player=None))]
    fn choose(&self, py: Python<'_>, state: &PyState, player: Option<usize>) -> PyResult<PyMove> {
        let game = self.game.get();
        let s = game.own(state)?;
        match game.turn_of(s)? {
            Turn::Terminal => return Err(PyValueError::new_err("the game is over: there is no move to choose")),
            Turn::Chance => {
                return Err(PyValueError::new_err(
                    "chance moves here, not a player: draw from game.chance_outcomes",
                ));
            }
            Turn::Player(p) if player.is_some_and(|q| q != p) => {
                return Err(PyValueError::new_err(format!(
                    "it is {}'s move here, not player {}'s",
                    self.interpreted.player_name(p),
                    player.unwrap_or_default()
                )));
            }
            _ => {}
        }
        let (player, moves) = game.moves_for(s, player)?;
        let Some(player) = player else {
            return Err(PyValueError::new_err("no player chooses here"));
        };
        if moves.is_empty() {
            return Err(PyValueError::new_err(format!(
                "{} has no move to choose here",
                self.interpreted.player_name(player)
            )));
        }
        let g: &Interpreted = &self.interpreted;
        // Under a repetition rule the agent counts the positions before the
        // state as `gdl play` tells them: the state's own, whatever the
        // agent was asked before.
        let history = g.repetition().map(|_| line::oldest_first(&state.past));
        let deep = matches!(self.spec, AgentSpec::Optimal(_) | AgentSpec::AlphaBeta(_));
        if deep {
            // The memo table's share of the cap, as of the process now.
            crate::guard::arm_memory(false);
        }
        // The lock is taken and released without the GIL: a thread holding
        // the GIL never waits for a thread that is waiting for it.
        let choice = py.detach(|| {
            let mut agent = self.lock()?;
            let agent: &mut BoxedAgent = &mut agent;
            if let Some(before) = &history {
                agent.set_history(g, before);
            }
            if deep {
                // The exact search recurses once per move of the game, and
                // alpha-beta once per ply.
                on_search_stack(|| agent.choose(g, s, player, &moves))
            } else {
                Ok(agent.choose(g, s, player, &moves))
            }
        })?;
        let choice = choice.map_err(|e| gdl_error(&e))?;
        Ok(game.wrap_move(choice.mv))
    }

    fn __repr__(&self) -> String {
        format!("<gdl.Agent {} for {}>", self.spec, self.interpreted.name())
    }
}

impl PyAgent {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, BoxedAgent>> {
        self.agent
            .lock()
            .map_err(|_| PyRuntimeError::new_err("this agent failed in an earlier call and cannot be used again"))
    }
}
