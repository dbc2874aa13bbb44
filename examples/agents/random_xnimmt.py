#!/usr/bin/env python3
"""A complete gdl agent: plays a random legal move (docs/AGENTS.md).

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
            # A new game: which seat we play, the game's parameters, and its
            # seed: drawing from it alone, the agent plays the same games
            # whichever thread of a match plays them.
            rng.seed(message["seed"])
        elif kind == "observe":
            # Our turn: what we may see, and the legal moves as gdl writes them.
            move = rng.choice(message["moves"])
            print(json.dumps({"move": move}), flush=True)
        elif kind == "end":
            # The game is over; another `start` may follow.
            print(f"random agent: {message['outcome']}", file=sys.stderr)


if __name__ == "__main__":
    main()
