"""`game.solve()` reports what `gdl solve --json` reports, key for key."""

import pytest

import gdl
from conftest import game_path


def without_time(report):
    report = dict(report)
    seconds = report.pop("seconds")
    assert 0 <= seconds <= report.pop("wall_seconds")
    return report


@pytest.mark.parametrize(
    "file, params, flags",
    [
        ("nim.game", {"piles": [7, 5, 3, 1]}, ["--piles", "7,5,3,1"]),
        ("nim-normal.game", {"piles": [4, 3]}, ["--piles", "4,3"]),
        ("nimcala.game", {"pits": 4, "tokens": 4}, ["--pits", "4", "--tokens", "4"]),
        ("select19.game", {}, []),
        ("tictactoe.game", {}, []),
    ],
)
def test_solve_is_the_commands_solve(file, params, flags, solve_json):
    g = gdl.load(game_path(file), **params)
    assert without_time(g.solve()) == without_time(solve_json(game_path(file), *flags))


def test_misere_nim_7531_is_lost_by_the_first_player(solve_json):
    report = gdl.load(game_path("nim.game"), piles=[7, 5, 3, 1]).solve()
    assert report["value"] == -1.0 and report["winner"] == "MIN"


@pytest.mark.parametrize(
    "options, flags",
    [
        ({"explain": True}, ["--explain"]),
        ({"fast": True}, ["--fast"]),
        ({"memo": False}, ["--no-memo"]),
        ({"algorithm": "minimax", "memo": False}, ["--algorithm", "minimax", "--no-memo"]),
    ],
)
def test_solve_options_are_the_commands_flags(options, flags, solve_json):
    g = gdl.load(game_path("nim.game"), piles=[3, 2, 1])
    ours = without_time(g.solve(**options))
    cli = without_time(solve_json(game_path("nim.game"), "--piles", "3,2,1", *flags))
    assert ours == cli
    if options.get("explain"):
        assert [e["move"] for e in ours["explain"]] == [str(m) for m in g.legal_moves(g.initial_state())]


def test_solve_from_a_position(solve_json):
    g = gdl.load(game_path("nim.game"))
    s = g.parse_position("[0, 2, 3, 1]; MIN to move")
    assert without_time(g.solve(s)) == without_time(
        solve_json(game_path("nim.game"), "--from", "[0, 2, 3, 1]; MIN to move")
    )


def test_a_solve_that_cannot_finish_raises_gdls_diagnostic():
    g = gdl.load(game_path("nim.game"))
    with pytest.raises(gdl.GdlError, match="limit of 10 was reached"):
        g.solve(max_nodes=10)
    with pytest.raises(gdl.GdlError, match="need exactly two"):
        gdl.load(game_path("xnimmt.game"), P=3, K=30).solve()
    with pytest.raises(ValueError, match="alphabeta"):
        g.solve(algorithm="negamax")
