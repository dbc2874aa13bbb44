"""`gdl perft` against OpenSpiel's own games, played through its Python API:
the number of move sequences of each length from the start, counted by a
second implementation of the same rules (issue 43: an independent source
for the counts, not gdl itself)."""

import json

import pyspiel
import pytest


def openspiel_perft(state, depth):
    """The sequences of length 1 to `depth` from `state`: every legal action
    (or chance outcome) is one step, and a sequence stops at a terminal
    state. Depth first, the last step counted, not played."""
    counts = [0] * depth

    def walk(s, d):
        if s.is_terminal():
            return
        actions = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        counts[d] += len(actions)
        if d + 1 == depth:
            return
        for a in actions:
            child = s.child(a)
            walk(child, d + 1)

    walk(state, 0)
    return counts


@pytest.mark.parametrize(
    "gdl_game, openspiel_game, params, depth",
    [
        ("tictactoe", "tic_tac_toe", {}, 9),
        ("connect4", "connect_four", {}, 6),
        ("othello", "othello", {}, 6),
        ("breakthrough", "breakthrough", {}, 4),
        ("checkers", "checkers", {}, 6),
        ("nine-mens-morris", "nine_mens_morris", {}, 3),
        ("go", "go", {"board_size": 5}, 3),
        ("backgammon", "backgammon", {}, 3),
    ],
)
def test_perft_counts_are_openspiel_s(gdl_cli, gdl_game, openspiel_game, params, depth):
    flags = [x for name, value in params.items() for x in (f"--{name}", value)]
    ours = json.loads(gdl_cli("perft", gdl_game, *flags, "--depth", depth, "--json").stdout)
    theirs = openspiel_perft(pyspiel.load_game(openspiel_game, params).new_initial_state(), depth)
    assert ours["complete"]
    assert ours["sequences"] == theirs
