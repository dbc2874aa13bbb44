"""The rules as Python sees them agree with Nim's definition, with Bouton's
theorem, and with `gdl solve --json` on every position of a small Nim."""

from functools import reduce
from operator import xor

import pytest

import gdl
from conftest import game_path

PILES = [3, 2, 2]


def every_state(g):
    """Every position reachable from the start, each once."""
    seen, todo = set(), [g.initial_state()]
    while todo:
        s = todo.pop()
        if s in seen:
            continue
        seen.add(s)
        todo.extend(g.apply(s, m) for m in g.legal_moves(s))
    return seen


def bouton_misere_wins(board):
    """Whether the player to move wins misère Nim (Bouton): with every pile
    at most 1, when an even number of piles is left; else when the xor is not 0."""
    if max(board) <= 1:
        return sum(board) % 2 == 0
    return reduce(xor, board) != 0


@pytest.fixture(scope="module")
def nim():
    return gdl.load(game_path("nim.game"), piles=PILES)


def test_every_position_has_nims_moves_and_turns(nim):
    states = every_state(nim)
    # (3+1)(2+1)(2+1) boards, each reached with either player to move, but
    # for the start (MAX only) and the boards one move away (MIN only).
    boards = {tuple(nim.value(s, "board")) for s in states}
    assert len(boards) == 4 * 3 * 3
    for s in states:
        board = nim.value(s, "board")
        moves = nim.legal_moves(s)
        assert [m.args for m in moves] == [(r, n) for r, pile in enumerate(board) for n in range(1, pile + 1)]
        assert [str(m) for m in moves] == [f"({r}, {n})" for r, n in (m.args for m in moves)]
        assert nim.is_terminal(s) == (sum(board) == 0)
        turn = nim.turn(s)
        with pytest.warns(DeprecationWarning, match="use Game.turn"):
            assert turn == nim.to_move(s)
        # The recorded player: the same as `turn` until the end, and then
        # the one who would have moved next (the player after the last mover).
        recorded = nim.turn(s, recorded=True)
        with pytest.warns(DeprecationWarning, match="recorded=True"):
            assert nim.next_player(s) == recorded
        assert recorded == turn if turn != "terminal" else recorded in (0, 1)
        if sum(board) == 0:
            assert turn == "terminal"
        else:
            assert turn in (0, 1)
            assert s.raw.endswith(f"; {nim.players[turn]} to move")


def test_states_are_values(nim):
    s = nim.initial_state()
    m = nim.legal_moves(s)[0]
    a, b = nim.apply(s, m), nim.apply(s, m)
    assert a is not b and a == b and hash(a) == hash(b)
    assert a != s
    assert len({a: 1, b: 2}) == 1
    assert nim.apply(s, m) != nim.apply(s, nim.legal_moves(s)[1])
    assert s.raw == "[3, 2, 2]; MAX to move"  # apply left the state as it was
    assert m == nim.legal_moves(s)[0] and hash(m) == hash(nim.legal_moves(s)[0])
    other = gdl.load(game_path("nim.game"), piles=PILES)
    assert other.initial_state() != s  # another load is another game
    with pytest.raises(ValueError, match="another game"):
        other.legal_moves(s)


def test_returns_at_the_end_punish_who_took_the_last_object(nim):
    for s in every_state(nim):
        if not nim.is_terminal(s):
            with pytest.raises(ValueError, match="not over"):
                nim.returns(s)
            continue
        # The position says who is to move: the player who did not take last.
        winner = 0 if s.raw.endswith("MAX to move") else 1
        returns = nim.returns(s)
        assert returns[winner] == 1 and returns[1 - winner] == -1


def test_solved_values_follow_boutons_theorem(nim):
    for s in every_state(nim):
        if nim.is_terminal(s):
            continue
        mover = nim.turn(s)
        value = nim.solve(s)["value"]  # for MAX
        mover_wins = (value if mover == 0 else -value) > 0
        assert mover_wins == bouton_misere_wins(nim.value(s, "board")), str(s)


def test_every_position_solves_as_the_command_solves_it(nim, solve_json):
    start = nim.initial_state()
    for s in sorted(every_state(nim), key=str):
        # The command reads a position as gdl prints it; the start is the
        # file's own (nobody has moved yet, which the text does not tell).
        where = [] if s == start else ["--from", s.raw]
        cli = solve_json(game_path("nim.game"), "--piles", "3,2,2", *where)
        ours = nim.solve(s)
        for d in (cli, ours):
            del d["seconds"], d["wall_seconds"]
        assert ours == cli, str(s)


def test_illegal_moves_are_refused(nim):
    s = nim.initial_state()
    after = nim.apply(s, nim.parse_move(s, "(0, 3)"))
    with pytest.raises(ValueError, match=r"`\(0, 3\)` is not a legal move"):
        nim.apply(after, nim.legal_moves(s)[2])
    with pytest.raises(gdl.GdlError, match="not a legal move"):
        nim.parse_move(after, "(0, 1)")
    end = nim.parse_position("[0, 0, 0]; MAX to move")
    with pytest.raises(ValueError, match="over"):
        nim.apply(end, nim.legal_moves(s)[0])


def test_moves_read_as_people_type_them(nim):
    s = nim.initial_state()
    for text in ["(1, 2)", "(1,2)", " 1, 2 ", "( 1 , 2 )"]:
        assert str(nim.parse_move(s, text)) == "(1, 2)"
    assert nim.parse_position(str(nim.apply(s, nim.parse_move(s, "1,2")))) == nim.apply(s, nim.parse_move(s, "1,2"))


def test_the_view_of_a_position():
    g = gdl.load(game_path("select19.game"))
    s = g.initial_state()
    assert g.view(s) == {"free": "{1, 2, 3, 4, 5, 6, 7, 8, 9}", "last": "0"}
    assert g.value(s, "free") == frozenset(range(1, 10))
    s = g.apply(s, g.parse_move(s, "3"))
    assert g.value(s, "last") == 3
    assert [m.args for m in g.legal_moves(s)] == [(6,), (8,)]
    assert g.observation(s, 0) == g.observation(s, 1)
    with pytest.raises(ValueError, match="no state variable `board`"):
        g.value(s, "board")
    with pytest.raises(ValueError, match="player 2 does not exist"):
        g.observation(s, 2)
