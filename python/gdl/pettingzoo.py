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
- actions: ``Discrete(K)``, K the number of moves the players can make:
  gdl's numbering of every move of the game (``gdl.Game.action_to_move``)
  without chance's moves, which no player makes; action ``i`` of the
  environment is gdl's action ``env.gdl_actions[i]``;
- observations: ``{"observation": state.observation_tensor(player),
  "action_mask": int8 array, 1 for each legal action}`` (the mask is all
  zeros for a player who is not to move);
- ``state()``: every player's observation tensor, one after the other, in
  player order (``state_space``): what the players see between them; a
  ``hidden`` variable, which nobody sees, is not in it. The position itself
  is ``env.gdl_state`` (a ``gdl.State``);
- rewards: 0 until the end, then each player's return (the game's utility);
- chance: the environment draws chance's moves itself, from the seed given
  to ``reset``;
- ``render()``: the position as text (``render_mode="ansi"`` returns it,
  ``"human"`` prints it), or as a picture (``"rgb_array"``: a numpy array of
  uint8, ``(height, width, 3)``, ``gdl.State.render_rgb``).

A game where players take turns is an AEC environment; PettingZoo's
``aec_to_parallel`` would step every player once per cycle, each choosing
before seeing the others' moves, which a game of turns is not, so it is
refused with a ValueError that says what to use instead:
``parallel_env(game)`` (gdl's own, where the players not to move are
ignored) or PettingZoo's ``turn_based_aec_to_parallel(env)``.
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


RENDER_MODES = ["ansi", "human", "rgb_array"]


def _check_render_mode(render_mode: Optional[str]) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f'render_mode must be None, "ansi", "human" or "rgb_array", not {render_mode!r}')


class _TurnsMetadata(dict):
    """An AEC environment's metadata. PettingZoo's ``aec_to_parallel`` asks
    it (with an ``assert``, which ``python -O`` skips) whether the
    environment may be stepped once per player per cycle, each player
    choosing before it sees the others' moves: in a game of turns that is
    not the game, so the question is answered with the refusal itself."""

    def get(self, key: Any, default: Any = None) -> Any:
        if key == "is_parallelizable":
            raise ValueError(
                f"{self.get('name')} is a game of turns: PettingZoo's aec_to_parallel would make every "
                "player choose at once, before seeing the others' moves. Use gdl.pettingzoo.parallel_env "
                "(the players not to move are ignored) or pettingzoo.utils.conversions.turn_based_aec_to_parallel"
            )
        return super().get(key, default)


class _Common:
    """What the AEC and Parallel environments share: the spaces, the
    observations, chance's moves and rendering."""

    game: gdl.Game
    gdl_state: gdl.State
    render_mode: Optional[str]

    def _setup(self, game: gdl.Game, render_mode: Optional[str]) -> None:
        _check_render_mode(render_mode)
        self.game = game
        self.render_mode = render_mode
        self.possible_agents = list(game.players)
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        # The players' actions: gdl's numbering without chance's moves.
        self.gdl_actions = [
            a for a in range(game.num_distinct_actions()) if not game.action_to_move(a).by_chance
        ]
        self._env_action = {a: i for i, a in enumerate(self.gdl_actions)}
        self._actions = len(self.gdl_actions)
        shape = game.observation_tensor_shape()
        self.state_space = spaces.Box(
            -np.inf, np.inf, (shape[0] * len(self.possible_agents),), np.float32
        )
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
        self.gdl_state = game.initial_state()

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def _seed(self, seed: Optional[int]) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            for i, a in enumerate(self.possible_agents):
                self._action_spaces[a].seed(seed + i)

    def state(self) -> np.ndarray:
        """Every player's observation tensor, in player order (see the module's text)."""
        return np.concatenate(
            [self.gdl_state.observation_tensor(p) for p in range(len(self.possible_agents))]
        )

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self._index[agent]
        mask = np.zeros(self._actions, np.int8)
        turn = self.game.turn(self.gdl_state)
        if turn == player or turn == "simultaneous":
            mask[[self._env_action[a] for a in self.game.legal_actions(self.gdl_state, player)]] = 1
        return {"observation": self.gdl_state.observation_tensor(player), "action_mask": mask}

    def _settle(self) -> None:
        """Plays chance's moves, drawn from the environment's generator."""
        while self.game.turn(self.gdl_state) == "chance":
            moves, probs = zip(*self.game.chance_outcomes(self.gdl_state))
            p = np.asarray(probs, dtype=np.float64)
            pick = self._rng.choice(len(moves), p=p / p.sum())
            self.gdl_state = self.game.apply(self.gdl_state, moves[pick])

    def _move(self, player: int, action: Any) -> gdl.Move:
        action = int(action)
        legal = self.game.legal_actions(self.gdl_state, player)
        if not 0 <= action < self._actions or self.gdl_actions[action] not in legal:
            raise ValueError(
                f"action {action} is not legal for {self.possible_agents[player]} in {self.gdl_state}"
            )
        return self.game.action_to_move(self.gdl_actions[action])

    def render(self) -> Optional[Any]:
        if self.render_mode == "rgb_array":
            return self.gdl_state.render_rgb()
        text = str(self.gdl_state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class GdlAECEnv(_Common, AECEnv):
    """A gdl game as a PettingZoo AEC environment (see the module's text)."""

    metadata = {"render_modes": RENDER_MODES, "name": "gdl", "is_parallelizable": False}

    def __init__(self, game: gdl.Game, render_mode: Optional[str] = None):
        AECEnv.__init__(self)
        self._setup(game, render_mode)
        self.metadata = _TurnsMetadata(self.metadata, name=f"gdl_{game.name}")
        self.agents = self.possible_agents[:]
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._observe(agent)

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        self._seed(seed)
        self.gdl_state = self.game.initial_state()
        self._settle()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.turn(self.gdl_state)]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        player = self._index[agent]
        self._cumulative_rewards[agent] = 0.0
        self.gdl_state = self.game.apply(self.gdl_state, self._move(player, action))
        self._settle()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        turn = self.game.turn(self.gdl_state)
        if turn == "terminal":
            for a, r in zip(self.possible_agents, self.game.returns(self.gdl_state)):
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

    metadata = {"render_modes": RENDER_MODES, "name": "gdl"}

    def __init__(self, game: gdl.Game, render_mode: Optional[str] = None):
        self._setup(game, render_mode)
        self.metadata = dict(self.metadata, name=f"gdl_{game.name}")
        self.agents = self.possible_agents[:]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        self._seed(seed)
        self.gdl_state = self.game.initial_state()
        self._settle()
        self.agents = self.possible_agents[:]
        return {a: self._observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]):
        turn = self.game.turn(self.gdl_state)
        if turn == "simultaneous":
            joint = [self._move(p, actions[a]) for p, a in enumerate(self.possible_agents)]
            self.gdl_state = self.game.apply_joint(self.gdl_state, joint)
        elif isinstance(turn, int):
            self.gdl_state = self.game.apply(self.gdl_state, self._move(turn, actions[self.possible_agents[turn]]))
        self._settle()
        live = self.agents
        over = self.game.is_terminal(self.gdl_state)
        returns = self.game.returns(self.gdl_state) if over else [0.0] * len(self.possible_agents)
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
