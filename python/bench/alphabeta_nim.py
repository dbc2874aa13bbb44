"""AIMA's alpha_beta_search (seed 001) on misère Nim, two ways: on gdl's
games/nim.game through the AIMA adapter, and on the course's hand-written
Python GameOfNim. Both visit the same tree in the same order (the moves are
listed alike), so the times compare the games' rules alone: gdl's
interpreter reached from Python, against plain Python.

    python python/bench/alphabeta_nim.py [--repeat 5] [--piles 4,3,2 ...]

Prints, per position: the nodes searched; the median time over --repeat
runs of GameOfNim, of gdl through the adapter (which remembers the moves
of 4096 states, so a position met again costs no call of gdl's), and of gdl
through an adapter that remembers the last state's moves only ("gdl, 1"),
each with its ratio to GameOfNim's time (the three alternate, run after
run, so the machine's load falls on all alike); and for
scale gdl's own solver in Rust, alpha-beta without and with its memo table,
with its own node counts (its move ordering and pruning differ from AIMA's).
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

DEFAULT_POSITIONS = ["3,2,1", "4,3,2", "4,3,2,1", "5,4,3,1", "5,4,3,2"]


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
    parser.add_argument(
        "--only",
        choices=["GameOfNim", "gdl", "gdl1", "setup"],
        help="run one search once and print nothing, to count its instructions under"
        " valgrind --tool=callgrind (`setup` loads everything and searches nothing)",
    )
    args = parser.parse_args()
    if args.only:
        return only(args.only, args.piles)

    print(f"python {sys.version.split()[0]}, gdl {gdl.__version__}, {args.repeat} runs each, median")
    header = (
        f"{'piles':<10} {'nodes':>9} {'GameOfNim':>10} {'gdl':>9} {'ratio':>6} {'gdl, 1':>9} {'ratio':>6}"
        f" {'gdl solve':>10} {'nodes':>9} {'+memo':>8} {'nodes':>6}"
    )
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

        py_times, gdl_times, bare_times = [], [], []
        for _ in range(args.repeat):
            # Fresh adapters each run: their tables of moves start empty.
            fresh, bare = as_aima(g, base=Game), as_aima(g, base=Game, cache_size=1)
            gdl_times.append(timed(lambda: alpha_beta_search(fresh.initial, fresh))[0])
            py_times.append(timed(lambda: alpha_beta_search(theirs.initial, theirs))[0])
            bare_times.append(timed(lambda: alpha_beta_search(bare.initial, bare))[0])
        plain = [g.solve(memo=False) for _ in range(args.repeat)]
        memo = [g.solve() for _ in range(args.repeat)]
        solve_plain = statistics.median(r["seconds"] for r in plain)
        solve_memo = statistics.median(r["seconds"] for r in memo)
        t_py, t_gdl, t_bare = (statistics.median(t) for t in (py_times, gdl_times, bare_times))
        print(
            f"{text:<10} {counted_ours.nodes:>9,} {t_py:>9.3f}s {t_gdl:>8.3f}s {t_gdl / t_py:>6.2f}"
            f" {t_bare:>8.3f}s {t_bare / t_py:>6.2f}"
            f" {solve_plain:>9.4f}s {plain[0]['nodes']:>9,} {solve_memo:>7.4f}s {memo[0]['nodes']:>6,}"
        )


def only(variant, positions):
    for text in positions:
        piles = [int(x) for x in text.split(",")]
        g = gdl.load(ROOT / "games" / "nim.game", piles=piles)
        game = {
            "GameOfNim": GameOfNim(piles),
            "gdl": as_aima(g, base=Game),
            "gdl1": as_aima(g, base=Game, cache_size=1),
            "setup": None,
        }[variant]
        if game is not None:
            alpha_beta_search(game.initial, game)


if __name__ == "__main__":
    main()
