#!/usr/bin/env python3
"""A test agent that keeps its own board of tic-tac-toe or connect four from
the `plies` of protocol 2 alone, and checks it against gdl at every message:
its board must equal the `view`, its legal moves must equal `moves`, and at
the end its own count of lines must agree with `returns`. It plays a random
legal move, drawn from the game's `seed`.

    python3 board_agent.py STATS

Any disagreement is written to standard error and ends the program with
status 1 (gdl reports a crash). At the end of its input it appends one line
of counts to STATS: messages checked, plies applied, and its own moves that
it never chose (forced moves, played for it)."""
import json
import random
import sys


class TicTacToe:
    LINES = [(1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9), (3, 5, 7)]

    def __init__(self, players, parameters):
        self.players = players
        self.owner = {}  # cell -> player name

    def play(self, player, move):
        cell = int(move)
        assert cell not in self.owner, f"cell {cell} is taken"
        self.owner[cell] = player

    def winner(self):
        for line in self.LINES:
            marks = {self.owner.get(c) for c in line}
            if len(marks) == 1 and None not in marks:
                return marks.pop()
        return None

    def legal(self):
        if self.winner() is not None:
            return []
        return [str(c) for c in range(1, 10) if c not in self.owner]

    def view(self):
        return {
            "free": [c for c in range(1, 10) if c not in self.owner],
            "marks": [sorted(c for c, p in self.owner.items() if p == name) for name in self.players],
        }


class ConnectFour:
    def __init__(self, players, parameters):
        self.players = players
        self.rows = parameters["rows"]
        self.cols = parameters["cols"]
        self.connect = parameters["connect"]
        self.columns = [[] for _ in range(self.cols)]
        self.last = 0

    def play(self, player, move):
        col = int(move)
        assert len(self.columns[col - 1]) < self.rows, f"column {col} is full"
        self.columns[col - 1].append(player)
        self.last = col

    def at(self, c, r):
        if 0 <= c < self.cols and 0 <= r < len(self.columns[c]):
            return self.columns[c][r]
        return None

    def winner(self):
        for c in range(self.cols):
            for r in range(len(self.columns[c])):
                p = self.columns[c][r]
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    if all(self.at(c + k * dc, r + k * dr) == p for k in range(self.connect)):
                        return p
        return None

    def legal(self):
        if self.winner() is not None:
            return []
        return [str(c + 1) for c in range(self.cols) if len(self.columns[c]) < self.rows]

    def view(self):
        return {"columns": [list(col) for col in self.columns], "last": self.last}


GAMES = {"Tic-tac-toe": TicTacToe, "Connect four": ConnectFour}


def fail(why):
    print(f"board_agent: {why}", file=sys.stderr, flush=True)
    sys.exit(1)


def main():
    stats_file = sys.argv[1]
    checked = plies = forced = 0
    board = None
    me = None
    rng = random.Random()
    answered = False  # whether our last move was our own answer
    for line in sys.stdin:
        m = json.loads(line)
        kind = m["type"]
        if kind == "start":
            if m["protocol"] < 2:
                fail(f"protocol {m['protocol']}, not 2")
            board = GAMES[m["game"]](m["players"], m["parameters"])
            me = m["player"]
            rng.seed(m["seed"])
            answered = False
        else:
            for ply in m["plies"]:
                if isinstance(ply, list) or ply["move"] is None:
                    fail(f"a ply this game cannot have: {ply}")
                if ply["player"] == me:
                    if answered:
                        answered = False
                    else:
                        forced += 1
                if ply["move"] not in board.legal():
                    fail(f"ply {ply} is not legal on my board {board.view()}")
                board.play(ply["player"], ply["move"])
                plies += 1
        if board.view() != m["view"]:
            fail(f"my board {board.view()} is not the view {m['view']} ({kind})")
        if kind == "observe":
            if board.legal() != m["moves"]:
                fail(f"my moves {board.legal()} are not gdl's {m['moves']}")
            print(json.dumps({"move": rng.choice(m["moves"])}), flush=True)
            answered = True
        elif kind == "end":
            winner = board.winner()
            if winner is None and board.legal():
                fail(f"gdl ended the game, but my board has no line and moves left: {board.legal()}")
            expected = [0.0] * len(board.players)
            if winner is not None:
                expected = [1.0 if p == winner else -1.0 for p in board.players]
            if m["returns"] != expected:
                fail(f"returns {m['returns']}, but my board says {expected}")
        checked += 1
    with open(stats_file, "a") as out:
        out.write(f"{checked} {plies} {forced}\n")


if __name__ == "__main__":
    main()
