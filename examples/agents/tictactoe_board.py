#!/usr/bin/env python3
"""A tic-tac-toe agent that keeps its own board from the moves gdl tells it
(`plies`, protocol 2), never reading the view: it wins when it can, blocks
when it must, else plays a random cell drawn from the game's seed.

    gdl match tictactoe --players "exec:python3 examples/agents/tictactoe_board.py",random
"""
import json
import random
import sys

LINES = [(1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9), (3, 5, 7)]


def completing(board, player):
    """The free cells that would give `player` three in a line."""
    return [c for line in LINES for c in line
            if c not in board and sum(board.get(d) == player for d in line) == 2]


rng = random.Random()
for text in sys.stdin:
    m = json.loads(text)
    if m["type"] == "start":
        rng.seed(m["seed"])  # the game's own seed: the same games on any --threads
        me, other = m["player"], [p for p in m["players"] if p != m["player"]][0]
        board = {}  # cell -> the player who marked it
        continue
    for ply in m["plies"]:  # every move since our last message, ours and forced ones too
        board[int(ply["move"])] = ply["player"]
    if m["type"] == "observe":
        free = [c for c in range(1, 10) if c not in board]
        assert [str(c) for c in free] == m["moves"], "my board disagrees with gdl"
        cell = (completing(board, me) or completing(board, other) or [rng.choice(free)])[0]
        print(json.dumps({"move": str(cell)}), flush=True)
