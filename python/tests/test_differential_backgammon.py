"""games/backgammon.game against OpenSpiel's `backgammon`, move for move:
seeded random games played in gdl's Python module and in pyspiel at once,
the same chance outcomes and the same moves chosen in both. At every step
it compares the chance outcomes and their probabilities, or the player to
move and the legal moves (gdl's moves mapped to OpenSpiel's action
numbers by `action` below, not by gdl's own numbering), whether the game
is over, the checkers (each point, the bars, the borne-off counts) and
the dice; at the end, the returns. Besides the default game, short games
under a small `max_player_turns` (draws at the turn limit) and the other
two scoring types are played.

A few hundred games run by default (10 to 20 seconds); more, and other
seeds:

    GDL_DIFF_GAMES=2000 target/python-venv/bin/pytest python/tests/test_differential_backgammon.py

plays that many games of each kind (seeds from 0; GDL_DIFF_SEED=S starts
them at S, and GDL_DIFF_ENGINE=vm plays gdl's rules in the interpreter
rather than the compiled code). A failure names the seed and the moves
played so far, in gdl's notation and as OpenSpiel's actions.
"""

import math
import os
import random
from collections import defaultdict

import pyspiel
import pytest

import gdl
from conftest import game_path

# OpenSpiel's chance outcomes: outcome k is the roll (a, b) = ROLLS[k]
# (kChanceOutcomeValues in open_spiel/games/backgammon/backgammon.cc).
ROLLS = [(1, 2), (2, 1), (1, 3), (3, 1), (1, 4), (4, 1), (1, 5), (5, 1), (1, 6), (6, 1),
         (2, 3), (3, 2), (2, 4), (4, 2), (2, 5), (5, 2), (2, 6), (6, 2), (3, 4), (4, 3),
         (3, 5), (5, 3), (3, 6), (6, 3), (4, 5), (5, 4), (4, 6), (6, 4), (5, 6), (6, 5),
         (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)]
OUTCOME = {roll: k for k, roll in enumerate(ROLLS)}

# (gdl parameters, OpenSpiel parameters, games by default).
KINDS = {
    "default": ({}, {}, 120),
    # Short games: about two in three end in a draw at the turn limit.
    "turn-limit": ({"max_player_turns": 70}, {"max_player_turns": 70}, 80),
    "gammons": ({"scoring": 1}, {"scoring_type": "enable_gammons"}, 30),
    "full": ({"scoring": 2}, {"scoring_type": "full_scoring"}, 30),
}


def games_for(default):
    return int(os.environ.get("GDL_DIFF_GAMES", default))


def first_seed():
    return int(os.environ.get("GDL_DIFF_SEED", 0))


def position(player, point):
    """OpenSpiel's board position of `player`'s point `point` (in the
    player's own numbering, 25 the bar), as an action digit: X's point p
    is position 24 - p, O's p - 1, the bar 24."""
    if point == 25:
        return 24
    return 24 - point if player == 0 else point - 1


def action(move, player, lo, hi):
    """OpenSpiel's action for a gdl move of `player` with the dice lo <= hi
    (CheckerMovesToSpielMove): the first half-move's position, plus 26
    times the second's (25 for a pass), plus 676 unless the first half-move
    uses the larger die."""
    if move.kind == "start":
        x, o = move.args
        return OUTCOME[(o, x)]
    if move.kind == "roll":
        return OUTCOME[tuple(move.args)]
    if move.kind == "pass":
        return 25 * 26 + 25 + 676
    if move.kind == "single":
        d, f = move.args
        return position(player, f) + 26 * 25 + (0 if d == hi else 676)
    d, f1, f2 = move.args
    return position(player, f1) + 26 * position(player, f2) + (0 if d == hi else 676)


def openspiel_checkers(state):
    """OpenSpiel's checkers from its observation tensor (Tesauro's
    encoding): each player's count on positions 0..23, then bar and
    borne-off counts of X and O, and the two dice."""
    t = state.observation_tensor(0)

    def count(v):
        return int(v[0] + 2 * v[1] + 3 * v[2] + (v[3] + 3 if v[3] > 0 else 0))

    x = [count(t[4 * i:4 * i + 4]) for i in range(24)]
    o = [count(t[96 + 4 * i:96 + 4 * i + 4]) for i in range(24)]
    return x, o, (int(t[192]), int(t[193]), int(t[195]), int(t[196])), (int(t[198]), int(t[199]))


def gdl_checkers(game, s):
    """The same from gdl's state: X's point p is position 24 - p, O's p - 1."""
    pts = game.value(s, "pts")
    x = [pts[0][24 - pos] for pos in range(24)]
    o = [pts[1][pos + 1] for pos in range(24)]
    return x, o, (pts[0][25], pts[0][0], pts[1][25], pts[1][0])


_loaded = {}


def load(kind):
    if kind not in _loaded:
        ours, theirs, _ = KINDS[kind]
        engine = os.environ.get("GDL_DIFF_ENGINE") or None
        _loaded[kind] = (gdl.load(game_path("backgammon.game"), engine=engine, **ours),
                         pyspiel.load_game("backgammon", theirs))
    return _loaded[kind]


class Difference(AssertionError):
    pass


def play_one(kind, seed):
    """Plays one random game in both, comparing as it goes; returns the
    number of steps (chance outcomes and actions) and the returns."""
    game, os_game = load(kind)
    rng = random.Random(seed)
    s = game.initial_state()
    t = os_game.new_initial_state()
    played = []

    def differ(what):
        return Difference(f"{kind}, seed {seed}, after {len(played)} steps: {what}\n"
                          f"gdl moves: {played}\nOpenSpiel actions: {t.history()}\n"
                          f"gdl position:\n{s}\nOpenSpiel position:\n{t}")

    while True:
        over = game.is_terminal(s)
        if over != t.is_terminal():
            raise differ(f"gdl says the game is {'' if over else 'not '}over, OpenSpiel the opposite")
        x, o, counts, dice = openspiel_checkers(t)
        if gdl_checkers(game, s) != (x, o, counts):
            raise differ(f"checkers differ: gdl {gdl_checkers(game, s)}, OpenSpiel {(x, o, counts)}")
        if over:
            ours = [float(r) for r in game.returns(s)]
            if ours != list(t.returns()):
                raise differ(f"returns differ: gdl {ours}, OpenSpiel {t.returns()}")
            return len(played), ours
        if game.turn(s) == "chance":
            if not t.is_chance_node():
                raise differ(f"gdl has chance to move, OpenSpiel player {t.current_player()}")
            ours = defaultdict(float)
            moves = {}
            for m, p in game.chance_outcomes(s):
                ours[action(m, None, 0, 0)] += p
                moves[action(m, None, 0, 0)] = m
            theirs = dict(t.chance_outcomes())
            if set(ours) != set(theirs) or any(not math.isclose(ours[a], theirs[a]) for a in theirs):
                raise differ(f"chance outcomes differ: gdl {sorted(ours.items())}, OpenSpiel {sorted(theirs.items())}")
            a = rng.choice(sorted(theirs))
        else:
            mover = game.turn(s)
            if t.current_player() != mover:
                raise differ(f"player to move: gdl {mover}, OpenSpiel {t.current_player()}")
            lo, hi = game.value(s, "lo"), game.value(s, "hi")
            if (lo, hi) != dice:
                raise differ(f"dice differ: gdl {(lo, hi)}, OpenSpiel {dice}")
            moves = {}
            for m in game.legal_moves(s):
                a = action(m, mover, lo, hi)
                if a in moves:
                    raise differ(f"gdl's moves {moves[a]} and {m} are both OpenSpiel's action {a}")
                moves[a] = m
            theirs = t.legal_actions()
            if sorted(moves) != theirs:
                only_ours = sorted(set(moves) - set(theirs))
                only_theirs = sorted(set(theirs) - set(moves))
                raise differ(f"legal moves differ: only gdl has {[str(moves[a]) for a in only_ours]} "
                             f"(actions {only_ours}), only OpenSpiel has "
                             f"{[t.action_to_string(a) for a in only_theirs]}")
            a = rng.choice(theirs)
        played.append(str(moves[a]))
        s = game.apply(s, moves[a])
        t.apply_action(a)


@pytest.mark.parametrize("kind", list(KINDS))
def test_random_games_agree_with_openspiel(kind):
    start = first_seed()
    outcomes = defaultdict(int)
    for seed in range(start, start + games_for(KINDS[kind][2])):
        _, returns = play_one(kind, seed)
        outcomes[tuple(returns)] += 1
    if kind == "turn-limit":
        # The turn limit was reached, and so was a win, in some games.
        assert outcomes[(0.0, 0.0)] > 0 and len(outcomes) > 1, outcomes


def gdl_perft(game, state, depth):
    """test_perft.openspiel_perft's count, in gdl's Python module: chance
    outcomes are steps as moves are."""
    counts = [0] * depth

    def walk(s, d):
        if game.is_terminal(s):
            return
        if game.turn(s) == "chance":
            moves = [m for m, _ in game.chance_outcomes(s)]
        else:
            moves = game.legal_moves(s)
        counts[d] += len(moves)
        if d + 1 < depth:
            for m in moves:
                walk(game.apply(s, m), d + 1)

    walk(state, 0)
    return counts


def test_perft_counts_are_openspiel_s():
    # 30 openings, 758 first actions, 27,288 rolls after them (`gdl perft
    # --depth 5` goes on with 665,634 and 23,099,580, as OpenSpiel does).
    from test_perft import openspiel_perft

    game, os_game = load("default")
    ours = gdl_perft(game, game.initial_state(), 3)
    assert ours == openspiel_perft(os_game.new_initial_state(), 3) == [30, 758, 27288]
