"""games/nine-mens-morris.game against OpenSpiel's `nine_mens_morris`,
move for move: seeded random games played in both at once, comparing at
every step the player to move, the legal moves, whether the game is over,
the board and OpenSpiel's counters (turns, men to place, men left, a
removal due), and at the end the returns.

gdl's `point(P)` is OpenSpiel's action P ("Point P"), `go(FROM, TO)` its
action 24 + 24 * FROM + TO ("Move FROM -> TO"); gdl numbers them the same.

Half the games are played by a player that mostly picks the move leaving
the opponent the fewest moves: uniformly random games almost never end
with a player blocked, these often do. The test counts how each game ended
and checks that every ending and flying were seen; a removal of a man in
a mill (all the opponent's men being in mills), rare in these games, is
also played on purpose.

    GDL_DIFF_GAMES=5000 pytest python/tests/test_differential_morris.py

plays 5,000 games (seeds 0 to 4,999; GDL_DIFF_SEED=S starts them at S, and
GDL_DIFF_ENGINE=vm plays gdl's rules in the interpreter rather than the
compiled code, as python/tests/test_differential.py takes them).
"""

import os
import random
from collections import Counter

import pyspiel
import pytest

import gdl
from conftest import game_path

GAMES = int(os.environ.get("GDL_DIFF_GAMES", "400"))
FIRST_SEED = int(os.environ.get("GDL_DIFF_SEED", "0"))
ENGINE = os.environ.get("GDL_DIFF_ENGINE")

# The 16 lines, from OpenSpiel's drawing of the board (written out here, not
# taken from the game file, so that the file's tables are checked too).
LINES = [
    (0, 1, 2), (3, 4, 5), (6, 7, 8), (9, 10, 11), (12, 13, 14), (15, 16, 17), (18, 19, 20), (21, 22, 23),
    (0, 9, 21), (3, 10, 18), (6, 11, 15), (1, 4, 7), (16, 19, 22), (8, 12, 17), (5, 13, 20), (2, 14, 23),
]
# Where OpenSpiel's `ToString` draws each point: row, column (16 characters a row).
COORDS = [(0, 0), (0, 7), (0, 14), (2, 2), (2, 7), (2, 12), (4, 4), (4, 7), (4, 10), (6, 0), (6, 2), (6, 4),
          (6, 10), (6, 12), (6, 14), (8, 4), (8, 7), (8, 10), (10, 2), (10, 7), (10, 12), (12, 0), (12, 7), (12, 14)]


def openspiel_action(move):
    """OpenSpiel's number of a gdl move, worked out from its arguments."""
    if move.kind == "point":
        (p,) = move.args
        return p
    assert move.kind == "go", move
    frm, to = move.args
    return 24 + 24 * frm + to


def in_mill(men, x):
    return any(x in line and all(y in men for y in line) for line in LINES)


def openspiel_fields(t):
    """OpenSpiel's state, read from its text: the board (`W`, `B`, `.` by
    point), turns, men to place, men left, whether a removal is due."""
    text = str(t)
    board = "".join(text[16 * r + c] for r, c in COORDS)
    number = lambda key: [int(x) for x in text.split(key)[1].split("\n")[0].split()]  # noqa: E731
    return board, number("Turn number: ")[0], number("Men to deploy: "), number("Num men: "), "Capture time" in text


def gdl_fields(ours, s):
    men = ours.value(s, "men")
    board = "".join("W" if x in men[0] else "B" if x in men[1] else "." for x in range(24))
    clock = ours.value(s, "clock")
    placed = min(18, clock // 2 + clock % 2)
    hand = [9 - (placed + 1) // 2, 9 - placed // 2]
    return board, clock // 2, hand, [hand[i] + len(men[i]) for i in range(2)], clock % 2 == 1


@pytest.fixture(scope="module")
def games():
    return gdl.load(game_path("nine-mens-morris.game"), engine=ENGINE), pyspiel.load_game("nine_mens_morris")


def test_the_numbering_is_openspiel_s(games):
    ours, theirs = games
    assert ours.num_distinct_actions() == theirs.num_distinct_actions() == 600
    state = theirs.new_initial_state()
    for action in range(600):
        move = ours.action_to_move(action)
        assert openspiel_action(move) == action
        text = state.action_to_string(0, action)
        assert text.replace("Point ", "point(").replace("Move ", "go(").replace(" -> ", ", ") + ")" == str(move)


def blocker(t, actions, rng):
    """Mostly the action leaving the opponent the fewest moves (a win
    first, a removal's extra move last), else a random one."""
    if rng.random() < 0.5:
        return rng.randrange(len(actions))
    best, picks = None, []
    for i, a in enumerate(actions):
        child = t.child(a)
        score = -1 if child.is_terminal() else 99 if child.current_player() == t.current_player() \
            else len(child.legal_actions())
        if best is None or score < best:
            best, picks = score, [i]
        elif score == best:
            picks.append(i)
    return rng.choice(picks)


def play(ours, theirs, seed, seen):
    """One game in both; the number of moves played. `seen` counts what
    happened."""
    rng = random.Random(seed)
    s, t = ours.initial_state(), theirs.new_initial_state()
    plies = 0
    while True:
        where = f"seed {seed}, ply {plies}:\n{s}\n{t}"
        assert ours.is_terminal(s) == t.is_terminal(), where
        fields = openspiel_fields(t)
        assert gdl_fields(ours, s) == fields, where
        if t.is_terminal():
            break
        assert ours.turn(s) == t.current_player(), where
        moves = ours.legal_moves(s)
        actions = [openspiel_action(m) for m in moves]
        assert actions == t.legal_actions(), where
        assert ours.legal_actions(s) == actions, where
        board, _, hand, _, removing = fields
        me = "WB"[t.current_player()]
        if removing:
            theirs_on = {x for x in range(24) if board[x] == "WB"[1 - t.current_player()]}
            if any(in_mill(theirs_on, x) for x in actions):
                seen["removal of a man in a mill"] += 1
        elif hand[t.current_player()] == 0 and board.count(me) == 3:
            seen["flying"] += 1
        i = blocker(t, actions, rng) if seed % 2 else rng.randrange(len(actions))
        s = ours.apply(s, moves[i])
        t.apply_action(actions[i])
        plies += 1
    assert ours.returns(s) == t.returns(), where
    _, turns, _, left, _ = fields
    if min(left) <= 2:
        seen["down to two men"] += 1
    elif turns < 200:
        seen["blocked"] += 1
    else:
        seen["200 turns"] += 1
    return plies


def test_random_games_agree_move_for_move(games):
    ours, theirs = games
    seen = Counter()
    plies = sum(play(ours, theirs, seed, seen) for seed in range(FIRST_SEED, FIRST_SEED + GAMES))
    print(f"{GAMES} games, {plies} moves: {dict(seen)}")
    assert plies > GAMES * 20
    if GAMES >= 200:
        for what in ["blocked", "down to two men", "200 turns", "flying"]:
            assert seen[what] > 0, (what, seen)


@pytest.mark.parametrize(
    "actions, removable",
    [
        # Black's mill 0-1-2 takes White's 23; White's mill 9-10-11 may
        # then take any of Black's men, all three in a mill.
        ([9, 0, 10, 1, 23, 2, 23, 11], [0, 1, 2]),
        # The same with a fourth Black man, on 5, not in a mill: only it.
        ([9, 0, 10, 1, 23, 2, 23, 20, 5, 11], [5]),
    ],
)
def test_a_man_in_a_mill_is_removed_only_when_all_are(games, actions, removable):
    ours, theirs = games
    s, t = ours.initial_state(), theirs.new_initial_state()
    for a in actions:
        s = ours.apply(s, ours.action_to_move(a))
        t.apply_action(a)
    assert t.legal_actions() == ours.legal_actions(s) == removable
