"""Many games of one game file stepped together in Rust: ``gdl.VectorEnv``.

::

    import numpy as np
    import gdl

    env = gdl.VectorEnv("connect4", 1024, seed=0)
    obs, masks = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(100):
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)   # a random legal action each
        obs, rewards, terminations, truncations, masks = env.step(actions)

Each call steps every game on every core, with Python's lock let go, and
returns numpy arrays (no Python object per game):

- ``obs``: float32 ``[n, observation_size]``, each game's
  ``observation_tensor`` for the player to move next (``env.to_play``);
- ``rewards``: float32 ``[n, players]``, 0 until a game ends, then every
  player's return;
- ``terminations``, ``truncations``: bool ``[n]`` (a game is truncated
  after ``max_steps`` moves of players, when given);
- ``masks``: bool ``[n, num_actions]``, the legal actions of the player to move.

The action of game i is for ``env.to_play[i]``; chance's moves are drawn
inside, from game i's generator (seeded from ``seed`` and i). A game that
ends is started again in the same step (Gymnasium's "same-step"
autoreset): its row of ``obs`` and ``masks`` is then the new game's start,
its ``rewards`` and ``terminations``/``truncations`` are the finished
game's, and ``env.final_observations`` holds what the player who made the
last move saw at the end, one row per finished game in the games' order
(``np.flatnonzero(terminations | truncations)``).
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

import gdl

from ._gdl import VectorEnv as _Engine

__all__ = ["VectorEnv"]


class VectorEnv:
    """``n`` games of ``game`` (a ``gdl.Game``, a bundled game's name or a
    path, with ``params``) stepped together; see the module's text. With
    ``seat``, the agent plays that seat alone: the other seats play uniformly
    random legal moves inside each step, and every row waits for ``seat``
    to move."""

    def __init__(
        self,
        game: Any,
        n: int,
        params: Optional[dict[str, Any]] = None,
        seed: int = 0,
        *,
        max_steps: Optional[int] = None,
        seat: Optional[int] = None,
        threads: Optional[int] = None,
    ):
        if isinstance(game, gdl.Game):
            if params:
                raise ValueError("parameters go with a game's name or path, not with a loaded game")
            self.game = game
        else:
            self.game = gdl.load(game, **(params or {}))
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"a VectorEnv needs at least one game: n must be an int >= 1, not {n!r}")
        self._engine = _Engine(self.game, int(n), seed, max_steps, seat, threads)
        self.num_envs = int(n)
        self.num_players = self.game.num_players
        self.num_actions = self._engine.num_actions
        self.observation_size = self._engine.observation_size
        self.seat = seat
        self.max_steps = max_steps
        #: The player to move in each game (int32 ``[n]``).
        self.to_play = np.zeros(self.num_envs, np.int32)
        #: What the player who made the last move saw at the end of each game
        #: finished by the last step (float32 ``[k, observation_size]``).
        self.final_observations = np.zeros((0, self.observation_size), np.float32)

    def _unpack(self, buf: bytearray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        n, o, p, a = self.num_envs, self.observation_size, self.num_players, self.num_actions
        obs = np.frombuffer(buf, "<f4", n * o, 0).reshape(n, o)
        at = 4 * n * o
        rewards = np.frombuffer(buf, "<f4", n * p, at).reshape(n, p)
        at += 4 * n * p
        self.to_play = np.frombuffer(buf, "<i4", n, at)
        at += 4 * n
        terminations = np.frombuffer(buf, np.bool_, n, at)
        truncations = np.frombuffer(buf, np.bool_, n, at + n)
        masks = np.frombuffer(buf, np.bool_, n * a, at + 2 * n).reshape(n, a)
        return obs, rewards, terminations, truncations, masks

    def reset(self, seed: Optional[int] = None) -> tuple[np.ndarray, np.ndarray]:
        """Starts every game again (with ``seed``, reseeding each game's
        generator as the constructor does) and returns ``(obs, masks)``."""
        obs, _, _, _, masks = self._unpack(self._engine.reset(seed))
        self.final_observations = np.zeros((0, self.observation_size), np.float32)
        return obs, masks

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Plays ``actions`` (ints, one per game, each legal for the game's
        player to move) and returns ``(obs, rewards, terminations,
        truncations, masks)``. Nothing moves when one action is wrong."""
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"step needs an array of {self.num_envs} actions (shape ({self.num_envs},)), not shape {a.shape}")
        if not np.issubdtype(a.dtype, np.integer):
            raise TypeError(f"actions must be integers, not {a.dtype}")
        buf, finals = self._engine.step(a.astype("<i8", copy=False).tobytes())
        out = self._unpack(buf)
        self.final_observations = np.frombuffer(finals, "<f4").reshape(-1, self.observation_size)
        return out

    def state(self, i: int) -> gdl.State:
        """Game i's state now (with its history under a repetition rule)."""
        return self._engine.state(i)

    def __repr__(self) -> str:
        return f"<gdl.VectorEnv {self.game.name} x {self.num_envs}>"
