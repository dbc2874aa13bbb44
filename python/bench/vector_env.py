"""Steps per second of gdl.VectorEnv with random legal actions, beside the
PettingZoo environment's, in one run.

    python python/bench/vector_env.py [--seconds S] [--threads T]

For tic-tac-toe and connect four (6x7) it prints, for n = 1, 64 and 1024
games in a batch, the steps per second (one step: one move in one game,
chance's draws and resets included) of

- ``VectorEnv.step`` with the actions drawn in numpy from the masks (what a
  learner pays: the arrays made and read back);
- the same with the actions drawn once and replayed where legal (the
  engine alone, almost: the actions cost no numpy per step);

then the PettingZoo AEC environment's steps per second (one ``env.step``
with a random legal action from the mask), and the ratio.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import gdl
from gdl import pettingzoo as gp

GAMES = [("tictactoe", {}), ("connect4", {"rows": 6, "cols": 7})]


def vector_steps(name, params, n, seconds, threads, draw=True):
    env = gdl.VectorEnv(name, n, params, seed=1, threads=threads)
    obs, masks = env.reset()
    rng = np.random.default_rng(0)
    steps, started = 0, time.perf_counter()
    # Without drawing: the first legal action of each row (argmax of the mask).
    while True:
        for _ in range(20):
            if draw:
                actions = (rng.random(masks.shape) * masks).argmax(axis=1)
            else:
                actions = masks.argmax(axis=1)
            obs, rewards, terminations, truncations, masks = env.step(actions)
        steps += 20 * n
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return steps / elapsed


def pettingzoo_steps(name, params, seconds):
    env = gp.env(name, **params)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    steps, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(200):
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                if not env.agents:
                    env.reset()
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - started)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    ap.add_argument("--threads", type=int, default=None, help="threads of the VectorEnv (default: every core)")
    args = ap.parse_args()
    print("| game | path | n | steps/s |")
    print("|---|---|---|---|")
    for name, params in GAMES:
        pz = pettingzoo_steps(name, params, args.seconds)
        best = 0.0
        for n in (1, 64, 1024):
            for draw in (True, False):
                s = vector_steps(name, params, n, args.seconds, args.threads, draw)
                best = max(best, s) if draw else best
                path = "VectorEnv, actions drawn in numpy" if draw else "VectorEnv, first legal action"
                print(f"| {name} | {path} | {n} | {s:,.0f} |", flush=True)
        print(f"| {name} | PettingZoo AEC env | 1 | {pz:,.0f} |")
        print(f"| {name} | VectorEnv (drawn, best n) ÷ PettingZoo | | {best / pz:,.0f}x |", flush=True)


if __name__ == "__main__":
    main()
