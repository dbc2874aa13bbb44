"""AIMA's alpha_beta_search (seed 001) on misère Nim, two ways: on gdl's
games/nim.game through the AIMA adapter, and on the course's hand-written
Python GameOfNim. Both visit the same tree in the same order (the moves are
listed alike), so the times compare the games' rules alone: gdl's
interpreter reached from Python, against plain Python.

    python python/bench/alphabeta_nim.py [--repeat 5] [--piles 4,3,2 ...]

Prints, per position: the nodes searched, the median time of each over
--repeat runs (the two alternate, run after run, so the machine's load
falls on both alike), their ratio, and for scale gdl's own solver in Rust
(alpha-beta without and with its memo table).
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent / "tests"))

import gdl  # noqa: E402
from aima_games import Game, alpha_beta_search  # noqa: E402
from game_of_nim import GameOfNim  # noqa: E402
from gdl.aima import as_aima  # noqa: E402

DEFAULT_POSITIONS = ["3,2,1", "4,3,2", "4,3,2,1", "5,4,3,1"]


class Counting:
    """Counts the positions a search reaches (calls of `result`, plus the root)."""

    def __init__(self, game):
        self.game, self.nodes = game, 1
        self.initial = game.initial

    def __getattr__(self, name):
        return getattr(self.game, name)

    def result(self, state, move):
        self.nodes += 1
        return self.game.result(state, move)


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--piles", nargs="*", default=DEFAULT_POSITIONS, help="positions, as 7,5,3,1")
    args = parser.parse_args()

    print(f"python {sys.version.split()[0]}, gdl {gdl.__version__}, {args.repeat} runs each, median")
    header = f"{'piles':<12} {'nodes':>10} {'GameOfNim':>11} {'gdl+adapter':>12} {'ratio':>6} {'gdl solve':>10} {'+memo':>8}"
    print(header)
    print("-" * len(header))
    for text in args.piles:
        piles = [int(x) for x in text.split(",")]
        g = gdl.load(ROOT / "games" / "nim.game", piles=piles)
        ours, theirs = as_aima(g, base=Game), GameOfNim(piles)

        counted_ours, counted_theirs = Counting(ours), Counting(theirs)
        move = alpha_beta_search(counted_ours.initial, counted_ours)
        assert move == alpha_beta_search(counted_theirs.initial, counted_theirs)
        assert counted_ours.nodes == counted_theirs.nodes, "the two searches visited different trees"

        py_times, gdl_times = [], []
        for _ in range(args.repeat):
            # A fresh adapter each run: its cache of moves starts empty.
            fresh = as_aima(g, base=Game)
            gdl_times.append(timed(lambda: alpha_beta_search(fresh.initial, fresh))[0])
            py_times.append(timed(lambda: alpha_beta_search(theirs.initial, theirs))[0])
        solve_plain = statistics.median(g.solve(memo=False)["seconds"] for _ in range(args.repeat))
        solve_memo = statistics.median(g.solve()["seconds"] for _ in range(args.repeat))
        t_py, t_gdl = statistics.median(py_times), statistics.median(gdl_times)
        print(
            f"{text:<12} {counted_ours.nodes:>10,} {t_py:>10.3f}s {t_gdl:>11.3f}s {t_gdl / t_py:>6.2f}"
            f" {solve_plain:>9.4f}s {solve_memo:>7.4f}s"
        )


if __name__ == "__main__":
    main()
