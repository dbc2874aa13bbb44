"""gdl games as single-agent Gymnasium environments, the other seats played
by gdl's agents.

Importing this module registers ``gdl/<game>-v0`` for every bundled game::

    import gymnasium
    import gdl.gym  # registers the games (or: gymnasium.make("gdl.gym:gdl/connect4-v0", ...))

    env = gymnasium.make("gdl/connect4-v0", opponent="mcts:200", rows=6)
    obs, info = env.reset(seed=0)
    done = False
    while not done:
        action = env.action_space.sample(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated

- the agent plays seat ``player`` (an index or a name; default 0), every
  other seat is played by ``opponent``: one spec of ``gdl.agent`` for all of
  them ("random", "greedy", "search:N", "alphabeta:D", "mcts:N", "optimal",
  "q:FILE", ...), or a list with one spec per other seat, in seat order;
- observations: ``state.observation_tensor(player)`` (float32);
- actions: ``Discrete(game.num_distinct_actions())``; the legal ones are
  ``info["action_mask"]`` (int8) and ``env.action_masks()`` (bool, as
  sb3-contrib's MaskablePPO asks);
- an action outside the mask ends the game, the agent getting the game's
  lowest utility, with a warning (as PettingZoo's classic games do; it is
  also what Gymnasium's ``check_env`` needs, since it steps with unmasked
  samples); with ``illegal_action="raise"`` it raises ValueError instead;
- rewards: 0 until the end, then the agent's return; chance's moves are
  drawn from the environment's generator (``reset(seed=...)``), which also
  seeds the opponents;
- ``max_steps``: the game is truncated after that many of the agent's moves;
- ``render_mode="ansi"``: ``render()`` returns the position as text (the
  game's display); ``"human"`` prints it; ``"rgb_array"``: a picture of the
  display, a numpy array of uint8 of the shape ``(height, width, 3)``, drawn
  in Rust (``gdl.State.render_rgb``; a game without a display is drawn as
  its text).

``gymnasium.make_vec("gdl/<game>-v0", num_envs=N, vectorization_mode="vector_entry_point")``
gives ``GdlVectorEnv``: N games stepped together in Rust (``gdl.VectorEnv``)
against uniformly random opponents, with Gymnasium's same-step autoreset.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError("gdl.gym needs Gymnasium 1.x: pip install 'gymnasium>=1.0' numpy") from e

import gdl
from gdl.vector import VectorEnv

__all__ = ["GdlEnv", "GdlVectorEnv", "register_games"]

ILLEGAL = ("raise", "lose")


def _game(game: Any, params: dict[str, Any]) -> gdl.Game:
    if isinstance(game, gdl.Game):
        if params:
            raise ValueError("parameters go with a game's name or path, not with a loaded game")
        return game
    return gdl.load(game, **params)


def _seat(game: gdl.Game, player: Union[int, str]) -> int:
    if isinstance(player, str):
        if player not in game.players:
            raise ValueError(f"{game.name} has no player {player!r}: its players are {', '.join(game.players)}")
        return game.players.index(player)
    if not 0 <= player < game.num_players:
        raise ValueError(f"player {player} does not exist: {game.name} has players 0 to {game.num_players - 1}")
    return int(player)


def _refuse_simultaneous(game: gdl.Game) -> None:
    if game.has_simultaneous:
        raise ValueError(
            f"{game.name} has simultaneous moves: a single-agent environment takes the agent's move alone; "
            "use gdl.pettingzoo.parallel_env"
        )


def _render_mode(render_mode: Optional[str]) -> Optional[str]:
    if render_mode not in (None, "ansi", "human", "rgb_array"):
        raise ValueError(f'render_mode must be None, "ansi", "human" or "rgb_array", not {render_mode!r}')
    return render_mode


class GdlEnv(gymnasium.Env):
    """One gdl game as a single-agent Gymnasium environment (see the module's text)."""

    # A board changes only when a move is made: a few frames a second shows
    # a game at a pace a person can follow (Gymnasium's recorders read it).
    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        game: Any,
        opponent: Union[str, Sequence[str]] = "random",
        player: Union[int, str] = 0,
        render_mode: Optional[str] = None,
        max_steps: Optional[int] = None,
        illegal_action: str = "lose",
        **params: Any,
    ):
        self.game = _game(game, params)
        _refuse_simultaneous(self.game)
        self.render_mode = _render_mode(render_mode)
        if illegal_action not in ILLEGAL:
            raise ValueError(f'illegal_action must be "raise" or "lose", not {illegal_action!r}')
        if max_steps is not None and max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        self.illegal_action = illegal_action
        self.max_steps = max_steps
        self.player = _seat(self.game, player)
        others = [p for p in range(self.game.num_players) if p != self.player]
        specs = [opponent] * len(others) if isinstance(opponent, str) else list(opponent)
        if len(specs) != len(others):
            raise ValueError(f"opponent needs one agent spec per other seat ({len(others)}), not {len(specs)}")
        # Built once (a Q-table is read once); reseeded on every reset.
        self.opponents = {p: gdl.agent(spec, self.game) for p, spec in zip(others, specs)}
        self._actions = self.game.num_distinct_actions()
        shape = self.game.observation_tensor_shape()
        self.observation_space = spaces.Box(-np.inf, np.inf, shape, np.float32)
        self.action_space = spaces.Discrete(self._actions)
        low, _ = self.game.utility_range() or (-1.0, 1.0)
        self._lowest = float(low)
        self.state = self.game.initial_state()
        self._steps = 0
        self._done = False

    def _settle(self) -> None:
        """Plays chance's and the opponents' moves until the agent is to move or the game is over."""
        while True:
            turn = self.game.turn(self.state)
            if turn == "chance":
                moves, probs = zip(*self.game.chance_outcomes(self.state))
                p = np.asarray(probs, dtype=np.float64)
                move = moves[int(self.np_random.choice(len(moves), p=p / p.sum()))]
            elif isinstance(turn, int) and turn != self.player:
                move = self.opponents[turn].choose(self.state, turn)
            else:
                return
            self.state = self.game.apply(self.state, move)

    def _mask(self) -> np.ndarray:
        mask = np.zeros(self._actions, np.int8)
        if self.game.turn(self.state) == self.player:
            mask[self.game.legal_actions(self.state, self.player)] = 1
        return mask

    def _obs(self) -> tuple[np.ndarray, dict[str, Any]]:
        return self.state.observation_tensor(self.player), {"action_mask": self._mask()}

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as a bool array."""
        return self._mask().astype(bool)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        for p, agent in self.opponents.items():
            agent.reset(int(self.np_random.integers(1 << 62)) + p)
        self.state = self.game.initial_state()
        self._steps = 0
        self._done = False
        self._settle()
        if self.render_mode == "human":
            self.render()
        return self._obs()

    def step(self, action: Any):
        if self._done:
            raise ValueError("the game is over: call reset() first")
        if not self.action_space.contains(action):
            raise ValueError(f"action {action!r} is not in the action space Discrete({self._actions})")
        action = int(action)
        if action not in self.game.legal_actions(self.state, self.player):
            if self.illegal_action == "raise":
                raise ValueError(f"action {action} is not legal in {self.state.raw}: see info['action_mask']")
            # The game stops here: the agent loses as badly as the rules allow.
            gymnasium.logger.warn(f"action {action} is not legal in {self.state.raw}: the game ends, the agent losing")
            obs, info = self._obs()
            self._done = True
            return obs, self._lowest, True, False, dict(info, illegal_action=True)
        self.state = self.game.apply(self.state, self.game.action_to_move(action))
        self._steps += 1
        self._settle()
        terminated = self.game.is_terminal(self.state)
        reward = float(self.game.returns(self.state)[self.player]) if terminated else 0.0
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        self._done = terminated or truncated
        if self.render_mode == "human":
            self.render()
        obs, info = self._obs()
        return obs, reward, terminated, truncated, info

    def render(self) -> Optional[Union[str, np.ndarray]]:
        if self.render_mode == "rgb_array":
            return self.state.render_rgb()
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text


class GdlVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of one gdl game stepped together in Rust
    (``gdl.VectorEnv``), the agent at seat ``player`` against uniformly
    random opponents, with same-step autoreset: a finished game's row of
    ``obs`` is the next game's start, and ``infos["final_obs"]`` (with its
    mask ``infos["_final_obs"]``) holds its last observation."""

    metadata = {"render_modes": ["ansi"], "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        game: Any,
        num_envs: int = 1,
        opponent: str = "random",
        player: Union[int, str] = 0,
        render_mode: Optional[str] = None,
        max_steps: Optional[int] = None,
        threads: Optional[int] = None,
        **params: Any,
    ):
        self.game = _game(game, params)
        _refuse_simultaneous(self.game)
        if opponent != "random":
            raise ValueError(
                f'the vector environment plays against "random" only (the other seats move inside Rust), not {opponent!r}: '
                'for another opponent use gymnasium.make_vec(..., vectorization_mode="sync") or "async"'
            )
        if render_mode not in (None, "ansi"):
            _render_mode(render_mode)
            raise ValueError(f'the vector environment renders as "ansi" only, not {render_mode!r}')
        self.render_mode = render_mode
        self.player = _seat(self.game, player)
        self.env = VectorEnv(self.game, num_envs, seat=self.player, max_steps=max_steps, threads=threads)
        self.num_envs = num_envs
        self.single_observation_space = spaces.Box(-np.inf, np.inf, (self.env.observation_size,), np.float32)
        self.single_action_space = spaces.Discrete(self.env.num_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self._masks = np.zeros((num_envs, self.env.num_actions), bool)

    def reset(self, *, seed: Optional[Union[int, list[int]]] = None, options: Optional[dict] = None):
        if isinstance(seed, list):
            raise ValueError("GdlVectorEnv takes one seed for all its games (game i's draws come from it and i)")
        super().reset(seed=seed)
        obs, self._masks = self.env.reset(seed)
        return obs, {"action_mask": self._masks}

    def step(self, actions: Any):
        obs, rewards, terminations, truncations, self._masks = self.env.step(actions)
        infos: dict[str, Any] = {"action_mask": self._masks}
        done = terminations | truncations
        if done.any():
            final = np.empty(self.num_envs, dtype=object)
            for i, row in zip(np.flatnonzero(done), self.env.final_observations):
                final[i] = row
            infos["final_obs"] = final
            infos["_final_obs"] = done
        return obs, rewards[:, self.player].copy(), terminations, truncations, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of each game now, as a bool array ``[num_envs, actions]``."""
        return self._masks

    def render(self) -> Optional[tuple[str, ...]]:
        if self.render_mode is None:
            return None
        return tuple(str(self.env.state(i)) for i in range(self.num_envs))


def register_games() -> None:
    """Registers ``gdl/<game>-v0`` with Gymnasium for every bundled game."""
    for name in gdl.list_games():
        env_id = f"gdl/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="gdl.gym:GdlEnv",
                vector_entry_point="gdl.gym:GdlVectorEnv",
                kwargs={"game": name},
            )


register_games()
