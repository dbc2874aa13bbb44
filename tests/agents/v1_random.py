#!/usr/bin/env python3
"""Protocol version 1, as docs/AGENTS.md gave it: the example agent before
version 2, kept to show that it still plays unchanged.

A complete gdl agent: plays a random legal move (docs/AGENTS.md).

    gdl match games/xnimmt.game --players "exec:python3 examples/agents/random_xnimmt.py",search

gdl writes one JSON object per line on our standard input and reads our
answers, one per line, from our standard output. Anything for people goes to
standard error.
"""
import json
import random
import sys


def main():
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "start":
            # A new game: which seat we play, and the game's parameters.
            rng.seed(message["seat"])
        elif kind == "observe":
            # Our turn: what we may see, and the legal moves as gdl writes them.
            move = rng.choice(message["moves"])
            print(json.dumps({"move": move}), flush=True)
        elif kind == "end":
            # The game is over; another `start` may follow.
            print(f"random agent: {message['outcome']}", file=sys.stderr)


if __name__ == "__main__":
    main()
