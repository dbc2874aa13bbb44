"""gdl games as PettingZoo environments.

``env(name_or_path, **params)`` loads a game (a bundled game's name, or a
``.game`` file) and returns a PettingZoo environment: an AEC environment
(``GdlAECEnv``, players taking turns) or, for a game where the players move
at once, a Parallel one (``GdlParallelEnv``)::

    from gdl import pettingzoo as gp

    env = gp.env("connect4", rows=6)
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else env.action_space(agent).sample(mask)
        env.step(action)

- agents: the players' names (``"X"``, ``"O"``);
- actions: ``Discrete(game.num_distinct_actions())``, gdl's numbering of
  every move of the game (``gdl.Game.action_to_move``);
- observations: ``{"observation": state.observation_tensor(player),
  "action_mask": int8 array, 1 for each legal action}`` (the mask is all
  zeros for a player who is not to move);
- rewards: 0 until the end, then each player's return (the game's utility);
- chance: the environment draws chance's moves itself, from the seed given
  to ``reset``;
- ``render()``: the position as text (``render_mode="ansi"`` returns it,
  ``"human"`` prints it).
"""

from __future__ import annotations

from typing import Any, Optional

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError("gdl.pettingzoo needs PettingZoo: pip install pettingzoo numpy") from e

import gdl

__all__ = ["GdlAECEnv", "GdlParallelEnv", "aec_env", "env", "parallel_env"]


class _Common:
    """What the AEC and Parallel environments share: the spaces, the
    observations, chance's moves and rendering."""

    game: gdl.Game
    state: gdl.State
    render_mode: Optional[str]

    def _setup(self, game: gdl.Game, render_mode: Optional[str]) -> None:
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f'render_mode must be None, "ansi" or "human", not {render_mode!r}')
        self.game = game
        self.render_mode = render_mode
        self.possible_agents = list(game.players)
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self._actions = game.num_distinct_actions()
        shape = game.observation_tensor_shape()
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (self._actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._action_spaces = {a: spaces.Discrete(self._actions) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.state = game.initial_state()

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def _seed(self, seed: Optional[int]) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            for i, a in enumerate(self.possible_agents):
                self._action_spaces[a].seed(seed + i)

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self._index[agent]
        mask = np.zeros(self._actions, np.int8)
        turn = self.game.turn(self.state)
        if turn == player or turn == "simultaneous":
            mask[self.game.legal_actions(self.state, player)] = 1
        return {"observation": self.state.observation_tensor(player), "action_mask": mask}

    def _settle(self) -> None:
        """Plays chance's moves, drawn from the environment's generator."""
        while self.game.turn(self.state) == "chance":
            moves, probs = zip(*self.game.chance_outcomes(self.state))
            p = np.asarray(probs, dtype=np.float64)
            pick = self._rng.choice(len(moves), p=p / p.sum())
            self.state = self.game.apply(self.state, moves[pick])

    def _move(self, player: int, action: Any) -> gdl.Move:
        action = int(action)
        if action not in self.game.legal_actions(self.state, player):
            raise ValueError(f"action {action} is not legal for {self.possible_agents[player]} in {self.state}")
        return self.game.action_to_move(action)

    def render(self) -> Optional[str]:
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class GdlAECEnv(_Common, AECEnv):
    """A gdl game as a PettingZoo AEC environment (see the module's text)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "gdl", "is_parallelizable": False}

    def __init__(self, game: gdl.Game, render_mode: Optional[str] = None):
        AECEnv.__init__(self)
        self._setup(game, render_mode)
        self.metadata = dict(self.metadata, name=f"gdl_{game.name}")
        self.agents = self.possible_agents[:]
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._observe(agent)

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        self._seed(seed)
        self.state = self.game.initial_state()
        self._settle()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.turn(self.state)]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        player = self._index[agent]
        self._cumulative_rewards[agent] = 0.0
        self.state = self.game.apply(self.state, self._move(player, action))
        self._settle()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        turn = self.game.turn(self.state)
        if turn == "terminal":
            for a, r in zip(self.possible_agents, self.game.returns(self.state)):
                self.rewards[a] = float(r)
            self.terminations = dict.fromkeys(self.agents, True)
            # Each player steps once more (with None) to leave: the next one first.
            self.agent_selection = self.possible_agents[(player + 1) % len(self.possible_agents)]
        else:
            self.agent_selection = self.possible_agents[turn]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()


class GdlParallelEnv(_Common, ParallelEnv):
    """A gdl game whose players move at once, as a PettingZoo Parallel
    environment: ``step`` takes every live player's action; at a node where
    one player moves alone, the others' actions are ignored."""

    metadata = {"render_modes": ["ansi", "human"], "name": "gdl"}

    def __init__(self, game: gdl.Game, render_mode: Optional[str] = None):
        self._setup(game, render_mode)
        self.metadata = dict(self.metadata, name=f"gdl_{game.name}")
        self.agents = self.possible_agents[:]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        self._seed(seed)
        self.state = self.game.initial_state()
        self._settle()
        self.agents = self.possible_agents[:]
        return {a: self._observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]):
        turn = self.game.turn(self.state)
        if turn == "simultaneous":
            joint = [self._move(p, actions[a]) for p, a in enumerate(self.possible_agents)]
            self.state = self.game.apply_joint(self.state, joint)
        elif isinstance(turn, int):
            self.state = self.game.apply(self.state, self._move(turn, actions[self.possible_agents[turn]]))
        self._settle()
        live = self.agents
        over = self.game.is_terminal(self.state)
        returns = self.game.returns(self.state) if over else [0.0] * len(self.possible_agents)
        observations = {a: self._observe(a) for a in live}
        rewards = {a: float(returns[self._index[a]]) for a in live}
        terminations = dict.fromkeys(live, over)
        truncations = dict.fromkeys(live, False)
        infos: dict[str, dict] = {a: {} for a in live}
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos


def _load(game: Any, params: dict[str, Any]) -> gdl.Game:
    if isinstance(game, gdl.Game):
        if params:
            raise ValueError("parameters go with a game's name or path, not with a loaded game")
        return game
    return gdl.load(game, **params)


def aec_env(game: Any, render_mode: Optional[str] = None, **params: Any) -> GdlAECEnv:
    """The game (a loaded ``gdl.Game``, a bundled game's name or a path) as an AEC environment."""
    g = _load(game, params)
    if g.has_simultaneous:
        raise ValueError(f"{g.name} has simultaneous moves: use parallel_env (or env)")
    return GdlAECEnv(g, render_mode)


def parallel_env(game: Any, render_mode: Optional[str] = None, **params: Any) -> GdlParallelEnv:
    """The game as a Parallel environment."""
    return GdlParallelEnv(_load(game, params), render_mode)


def env(game: Any, render_mode: Optional[str] = None, **params: Any):
    """The game as a PettingZoo environment: a Parallel one when its players
    move at once, else an AEC one."""
    g = _load(game, params)
    if g.has_simultaneous:
        return GdlParallelEnv(g, render_mode)
    return GdlAECEnv(g, render_mode)
