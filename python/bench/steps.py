"""Steps per second of every way to play a gdl game from Python, beside
OpenSpiel's native games, in one run: the table of docs/PERFORMANCE.md.

    python python/bench/steps.py [--seconds S] [--threads T] [--n N]

For tic-tac-toe, connect four (6x7) and Kuhn poker it plays random games
(uniformly random legal actions, chance by its probabilities) through

- gdl's own Python API (``gdl.load``, ``legal_actions``, ``apply``);
- the PettingZoo AEC environment (``gdl.pettingzoo.env``);
- the Gymnasium single-agent environment (``gymnasium.make("gdl/<game>-v0")``,
  gdl's random agent as the opponent: one ``env.step`` is the agent's move
  and the opponent's reply, both counted);
- the vectorised environment (``gdl.VectorEnv``, N games a call, the
  actions drawn in numpy from the masks);
- OpenSpiel's native C++ game from a Python loop (``tic_tac_toe``,
  ``connect_four``, ``kuhn_poker``);
- the ``gdl_`` game registered with OpenSpiel, from the same loop.

One step is one move of a player: chance's draws are played (and paid
for) but not counted, and the start of each new game is paid for too.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time

import gymnasium
import numpy as np
import pyspiel

import gdl
import gdl.gym  # noqa: F401 - registers gdl/<game>-v0
import gdl.openspiel  # noqa: F401 - registers gdl_<game>
# The PettingZoo loop is vector_env.py's, so the two benchmarks measure the same thing.
from vector_env import pettingzoo_steps as pettingzoo

# (gdl's name, its parameters, OpenSpiel's native name)
GAMES = [
    ("tictactoe", {}, "tic_tac_toe"),
    ("connect4", {"rows": 6, "cols": 7}, "connect_four"),
    ("kuhn-poker", {}, "kuhn_poker"),
]


def timed(seconds, batch):
    """Calls ``batch()`` (which returns the steps it made) until ``seconds``
    have passed; steps per second."""
    steps, started = 0, time.perf_counter()
    while True:
        steps += batch()
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return steps / elapsed


def gdl_api(name, params, seconds):
    game = gdl.load(name, **params)
    rng = random.Random(0)

    def batch():
        steps = 0
        for _ in range(20):
            state = game.initial_state()
            while True:
                turn = game.turn(state)
                if turn == "terminal":
                    break
                if turn == "chance":
                    moves, probs = zip(*game.chance_outcomes(state))
                    state = game.apply(state, rng.choices(moves, probs)[0])
                    continue
                state = game.apply(state, rng.choice(game.legal_moves(state)))
                steps += 1
        return steps

    return timed(seconds, batch)


class Counting:
    """An opponent that counts its moves (the steps an ``env.step`` makes
    beside the agent's own)."""

    def __init__(self, agent):
        self.agent, self.moves = agent, 0

    def choose(self, state, player):
        self.moves += 1
        return self.agent.choose(state, player)

    def reset(self, seed):
        self.agent.reset(seed)


def gym_single(name, params, seconds):
    env = gymnasium.make(f"gdl/{name}-v0", opponent="random", **params).unwrapped
    env.opponents = {p: Counting(a) for p, a in env.opponents.items()}
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=1)

    def batch():
        nonlocal info
        before = sum(a.moves for a in env.opponents.values())
        for _ in range(100):
            _, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            if term or trunc:
                _, info = env.reset()
        return 100 + sum(a.moves for a in env.opponents.values()) - before

    return timed(seconds, batch)


def vector(name, params, seconds, n, threads):
    env = gdl.VectorEnv(name, n, params, seed=1, threads=threads)
    _, masks = env.reset()
    rng = np.random.default_rng(0)

    def batch():
        nonlocal masks
        for _ in range(20):
            actions = (rng.random(masks.shape) * masks).argmax(axis=1)
            _, _, _, _, masks = env.step(actions)
        return 20 * n

    return timed(seconds, batch)


def spiel(game, seconds):
    rng = random.Random(0)

    def batch():
        steps = 0
        for _ in range(20):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes())
                    state.apply_action(rng.choices(actions, probs)[0])
                    continue
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps

    return timed(seconds, batch)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    ap.add_argument("--threads", type=int, default=None, help="threads of the VectorEnv (default: every core)")
    ap.add_argument("--n", type=int, default=1024, help="games in the VectorEnv's batch")
    args = ap.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"open_spiel {getattr(pyspiel, '__version__', '?')}, load average {load:.2f} at the start"
    )
    paths = [
        ("gdl's Python API (`gdl.load`)", lambda g, p, o: gdl_api(g, p, args.seconds)),
        ("PettingZoo AEC env", lambda g, p, o: pettingzoo(g, p, args.seconds)),
        ("Gymnasium env (random opponent)", lambda g, p, o: gym_single(g, p, args.seconds)),
        (f"VectorEnv, n = {args.n}", lambda g, p, o: vector(g, p, args.seconds, args.n, args.threads)),
        ("OpenSpiel's native C++ game, Python loop", lambda g, p, o: spiel(pyspiel.load_game(o), args.seconds)),
        (
            "`gdl_` game through pyspiel, Python loop",
            lambda g, p, o: spiel(gdl.openspiel.load_game(g, **p), args.seconds),
        ),
    ]
    names = [g for g, _, _ in GAMES]
    print("| path, steps/s | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for label, run in paths:
        cells = [f"{run(g, p, o):,.0f}" for g, p, o in GAMES]
        print(f"| {label} | " + " | ".join(cells) + " |", flush=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.2f} at the end")


if __name__ == "__main__":
    main()
