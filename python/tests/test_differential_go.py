"""games/go.game against OpenSpiel's `go`, move for move: seeded random
games played in gdl's Python module and in pyspiel at once, comparing at
every step the legal moves (gdl's move `a` is OpenSpiel's action `a`, the
pass `N * N` included, in the same order), whose turn it is, whether the
game is over, and the stones on the board after each move; and at the end
the returns (+1/-1, or 0 for a draw: a superko, or an equal score with a
whole komi).

The games per board size are few by default, so that the whole file takes
a few seconds; `GDL_DIFF_GAMES=N` plays N games on each board up to 9x9
and N / 20 on the larger ones:

    GDL_DIFF_GAMES=3000 target/python-venv/bin/pytest python/tests/test_differential_go.py
"""

import os
import random

import pyspiel
import pytest

import gdl
from conftest import game_path

# (board size, games by default). 5x5 games last about 35 moves, 9x9 ones
# about 130 (a third reach the limit of 162), 19x19 ones about 600.
SIZES = [(2, 100), (3, 100), (4, 100), (5, 100), (7, 40), (9, 30), (13, 4), (19, 2)]


def games_for(n, default):
    wanted = os.environ.get("GDL_DIFF_GAMES")
    if wanted is None:
        return default
    return int(wanted) if n <= 9 else max(default, int(wanted) // 20)


def openspiel_board(state, n):
    """OpenSpiel's stones as gdl's colours (0 empty, 1 Black, 2 White), by
    action number: the tensor's planes are black, white, empty."""
    t = state.observation_tensor(0)
    return [1 if t[a] else 2 if t[n * n + a] else 0 for a in range(n * n)]


def gdl_board(game, state, n):
    """gdl's stones by action number: the point of action `a` is row
    a / n + 1, column a % n + 1 of the board with its frame."""
    board = game.value(state, "board")
    w = n + 2
    return [board[(a // n + 1) * w + a % n + 1] for a in range(n * n)]


def play_one(game, os_game, n, seed):
    rng = random.Random(seed)
    ours = game.initial_state()
    theirs = os_game.new_initial_state()
    plies = 0
    while True:
        over = game.is_terminal(ours)
        assert over == theirs.is_terminal(), f"seed {seed}, ply {plies}: game over differs"
        if over:
            break
        moves = game.legal_moves(ours)
        actions = [m.args[0] for m in moves]
        assert actions == theirs.legal_actions(), f"seed {seed}, ply {plies}: legal moves differ"
        assert game.turn(ours) == theirs.current_player()
        i = rng.randrange(len(moves))
        ours = game.apply(ours, moves[i])
        theirs.apply_action(actions[i])
        plies += 1
        assert gdl_board(game, ours, n) == openspiel_board(theirs, n), f"seed {seed}, ply {plies}: boards differ"
    assert game.returns(ours) == theirs.returns(), f"seed {seed}: returns differ"
    return plies, tuple(theirs.returns())


@pytest.mark.parametrize("n, default", SIZES)
def test_random_games_agree_with_openspiel(n, default):
    game = gdl.load(game_path("go.game"), board_size=n, komi_x2=15)
    os_game = pyspiel.load_game("go", {"board_size": n, "komi": 7.5})
    outcomes = {}
    games = games_for(n, default)
    for seed in range(games):
        _, returns = play_one(game, os_game, n, seed)
        outcomes[returns] = outcomes.get(returns, 0) + 1
    # Random games end in wins for both sides.
    assert len(outcomes) >= 2 or games < 10


@pytest.mark.parametrize("n, komi_x2, limit", [(2, 0, 8), (3, 2, 18), (4, -3, 40), (5, 12, 20), (9, 11, 60)])
def test_other_komis_and_game_lengths_agree_too(n, komi_x2, limit):
    """A whole komi (an equal score is a draw), a negative one, and limits on
    the length of the game, as OpenSpiel's `komi` and `max_game_length`."""
    game = gdl.load(game_path("go.game"), board_size=n, komi_x2=komi_x2, max_game_length=limit)
    os_game = pyspiel.load_game("go", {"board_size": n, "komi": komi_x2 / 2, "max_game_length": limit})
    outcomes = set()
    for seed in range(games_for(n, 40)):
        plies, returns = play_one(game, os_game, n, seed)
        assert plies <= limit
        outcomes.add(returns)
    if komi_x2 == 0 and n == 2:
        assert (0.0, 0.0) in outcomes  # 2x2 with no komi: equal areas happen


def test_a_board_seen_before_ends_the_game_as_a_draw():
    """OpenSpiel's superko, on 3x3: B a2, W b2, B c2, W a3, B c3, W pass,
    B b3 (taking a3), W b1, B a1, W a3 (taking a1 and a2), B a2 (taking a3)
    brings back the board as it was after W b1. Both games end there, in a
    draw."""
    moves = [3, 4, 5, 6, 8, 9, 7, 1, 0, 6, 3]
    game = gdl.load(game_path("go.game"), board_size=3)
    ours = game.initial_state()
    theirs = pyspiel.load_game("go", {"board_size": 3}).new_initial_state()
    for a in moves:
        assert not game.is_terminal(ours) and not theirs.is_terminal()
        ours = game.apply(ours, game.parse_move(ours, str(a)))
        theirs.apply_action(a)
    assert game.value(ours, "superko") and game.is_terminal(ours) and theirs.is_terminal()
    assert game.returns(ours) == theirs.returns() == [0.0, 0.0]
