"""OpenSpiel's C++ algorithms on a gdl game (each step a round trip into
Python) beside the same jobs done by gdl's own solvers, in one run: the
table of docs/PYTHON.md.

    GDL_BIN=target/release/gdl python python/bench/openspiel_vs_gdl.py [--seconds S]

- CFR+ on Kuhn poker: iterations per second and the exploitability
  reached, for OpenSpiel's C++ ``CFRPlusSolver`` on ``gdl_kuhn_poker`` and
  on OpenSpiel's native ``kuhn_poker``, and for ``gdl train --algorithm
  cfr`` (CFR+ too; its time includes building the game tree);
- MCTS on connect four (6x7) from the start, random rollouts to the end:
  simulations per second of OpenSpiel's C++ ``MCTSBot`` on ``gdl_connect4``
  and on the native ``connect_four``, of OpenSpiel's Python ``MCTSBot`` on
  ``gdl_connect4``, and of gdl's MCTS on one thread (``gdl solve --mcts``,
  ten times the simulations, with ``--cutoff 0`` and as shipped).
  Tic-tac-toe is left out: both MCTS-Solvers prove its value within a
  thousand simulations and stop.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import tempfile
import time

import pyspiel
from open_spiel.python.algorithms import mcts

import gdl
import gdl.openspiel  # noqa: F401 - registers gdl_<game>


def cfr_openspiel(game, seconds):
    solver = pyspiel.CFRPlusSolver(game)
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        solver.evaluate_and_update_policy()
        done += 1
    rate = done / (time.perf_counter() - started)
    return rate, done, pyspiel.exploitability(game, solver.average_policy())


def cfr_gdl(gdl_bin, iterations):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "kuhn.strategy")
        run = subprocess.run(
            [gdl_bin, "train", "kuhn-poker", "--algorithm", "cfr", "--iterations", str(iterations), "--out", out],
            capture_output=True,
            text=True,
            check=True,
        )
    seconds = float(re.search(r"time\s+([\d.]+) s", run.stdout).group(1))
    exploitable = float(re.search(r"exploitable\s+([\d.]+)", run.stdout).group(1))
    return iterations / seconds, iterations, exploitable


def mcts_cpp(game, sims):
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, sims, 1_000_000, True, 0, False)
    state = game.new_initial_state()
    started = time.perf_counter()
    bot.step_with_policy(state)
    return sims / (time.perf_counter() - started)


def mcts_python(game, sims):
    bot = mcts.MCTSBot(game, 2.0, sims, mcts.RandomRolloutEvaluator(1))
    state = game.new_initial_state()
    started = time.perf_counter()
    bot.step(state)
    return sims / (time.perf_counter() - started)


def mcts_gdl_cli(gdl_bin, sims, extra):
    """gdl's MCTS on one thread, as ``gdl solve --mcts`` reports its rate."""
    run = subprocess.run(
        [gdl_bin, "solve", "connect4", "--mcts", str(sims), "--threads", "1", *extra],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(re.search(r"\(([\d,]+) simulations/s\)", run.stdout).group(1).replace(",", ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10.0, help="time for each OpenSpiel CFR+ run")
    ap.add_argument("--iterations", type=int, default=100_000, help="gdl's CFR+ iterations")
    ap.add_argument("--sims", type=int, default=2000, help="MCTS simulations of one search")
    args = ap.parse_args()
    gdl_bin = os.environ.get("GDL_BIN", "gdl")
    load = os.getloadavg()[0]
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average {load:.2f} at the start"
    )
    print()
    print("| CFR+ on Kuhn poker | iterations/s | iterations | exploitability |")
    print("|---|---:|---:|---:|")
    rows = [
        ("OpenSpiel C++ `CFRPlusSolver` on `gdl_kuhn_poker`", lambda: cfr_openspiel(pyspiel.load_game("gdl_kuhn_poker"), args.seconds)),
        ("OpenSpiel C++ `CFRPlusSolver` on native `kuhn_poker`", lambda: cfr_openspiel(pyspiel.load_game("kuhn_poker"), args.seconds)),
        ("`gdl train kuhn-poker --algorithm cfr`", lambda: cfr_gdl(gdl_bin, args.iterations)),
    ]
    for label, run in rows:
        rate, done, exploitable = run()
        print(f"| {label} | {rate:,.0f} | {done:,} | {exploitable:.2g} |", flush=True)
    print()
    print(f"| MCTS on connect four 6x7, one search of {args.sims} simulations from the start | simulations/s |")
    print("|---|---:|")
    rows = [
        ("OpenSpiel C++ `MCTSBot` on `gdl_connect4`", lambda: mcts_cpp(gdl.openspiel.load_game("connect4"), args.sims)),
        ("OpenSpiel C++ `MCTSBot` on native `connect_four`", lambda: mcts_cpp(pyspiel.load_game("connect_four"), args.sims)),
        ("OpenSpiel Python `MCTSBot` on `gdl_connect4`", lambda: mcts_python(gdl.openspiel.load_game("connect4"), args.sims)),
        (
            "`gdl solve connect4 --mcts N --cutoff 0 --threads 1` (random playouts to the end)",
            lambda: mcts_gdl_cli(gdl_bin, 10 * args.sims, ["--cutoff", "0"]),
        ),
        (
            "`gdl solve connect4 --mcts N --threads 1` (as shipped: playouts cut after 8 moves, the file's `evaluate`)",
            lambda: mcts_gdl_cli(gdl_bin, 10 * args.sims, []),
        ),
    ]
    for label, run in rows:
        print(f"| {label} | {run():,.0f} |", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
