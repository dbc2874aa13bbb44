"""How long `gdl.load` takes, per engine: the first load of a game (its
rules compiled) and the loads after it in the same process (the compiled
rules taken from the module's cache: issue 42, item 8).

    python python/bench/load.py [--game xnimmt] [--loads 2000]

Prints, per engine: the first load's time, and the mean of --loads loads
after it, in milliseconds.
"""

import argparse
import time

import gdl


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="xnimmt")
    parser.add_argument("--loads", type=int, default=2000)
    args = parser.parse_args()
    for engine in ["jit", "vm"]:
        started = time.perf_counter()
        gdl.load(args.game, engine=engine)
        first = time.perf_counter() - started
        started = time.perf_counter()
        for _ in range(args.loads):
            gdl.load(args.game, engine=engine)
        each = (time.perf_counter() - started) / args.loads
        print(f"{engine}: first load {first * 1e3:.1f} ms, then {each * 1e3:.3f} ms a load over {args.loads} loads")


if __name__ == "__main__":
    main()
