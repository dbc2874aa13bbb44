#!/usr/bin/env python3
"""Simulations per second of gdl's MCTS beside OpenSpiel's C++ MCTSBot, on
connect four 6x7 from the start position, in the same run on the same
machine (docs/PERFORMANCE.md). Both use random rollouts (one per
simulation) and their solvers; OpenSpiel's uct_c = 2 on returns in -1..1 is
gdl's default exploration 1 on returns scaled to 0..1.

    cargo build --release
    pip install open_spiel
    python3 benches/mcts_openspiel.py [--gdl target/release/gdl] [--simulations 20000] [--rounds 3]
"""

import argparse
import json
import subprocess
import time

import pyspiel


def gdl_rate(gdl, simulations, seed, threads):
    out = subprocess.run(
        [gdl, "solve", "games/connect4.game", "--mcts", str(simulations), "--seed", str(seed),
         "--threads", str(threads), "--json"],
        check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    return r["simulations"] / r["seconds"]


def openspiel_rate(simulations, seed):
    game = pyspiel.load_game("connect_four")
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 10**9, True, seed, False)
    state = game.new_initial_state()
    started = time.perf_counter()
    bot.step(state)
    return simulations / (time.perf_counter() - started)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gdl", default="target/release/gdl")
    ap.add_argument("--simulations", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, nargs="*", default=[1, 2])
    a = ap.parse_args()
    for r in range(a.rounds):
        row = [f"round {r + 1}", f"openspiel {openspiel_rate(a.simulations, r + 1):,.0f}/s"]
        for t in a.threads:
            row.append(f"gdl {t} thread{'s' if t > 1 else ''} {gdl_rate(a.gdl, a.simulations, r + 1, t):,.0f}/s")
        print("  ".join(row), flush=True)


if __name__ == "__main__":
    main()
