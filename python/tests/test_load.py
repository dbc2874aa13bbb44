"""Loading games: parameters from Python values, and errors that carry gdl's diagnostics."""

import pytest

import gdl
from conftest import game_path


def test_a_game_loads_with_its_defaults():
    g = gdl.load(game_path("nim.game"))
    assert g.name == "Nim"
    assert g.players == ["MAX", "MIN"]
    assert g.num_players == 2
    assert g.params == {"piles": "[7, 5, 3, 1]"}
    assert g.move_kinds == ["take"]
    assert not g.has_chance and not g.has_simultaneous
    assert str(g.initial_state()) == "[7, 5, 3, 1]; MAX to move"
    assert g.initial_state().raw == "[7, 5, 3, 1]; MAX to move"


@pytest.mark.parametrize("piles", [[3, 2, 1], (3, 2, 1), "3,2,1", "[3, 2, 1]"])
def test_a_list_parameter_is_given_as_python_values_or_as_the_flag_text(piles):
    g = gdl.load(game_path("nim.game"), piles=piles)
    assert g.params == {"piles": "[3, 2, 1]"}
    assert g.value(g.initial_state(), "board") == [3, 2, 1]


def test_int_parameters_and_paths():
    from pathlib import Path

    g = gdl.load(Path(game_path("nimcala.game")), pits=3, tokens=5)
    assert g.params == {"pits": "3", "tokens": "5"}
    assert g.value(g.initial_state(), "board") == [5, 0, 0]


def test_a_missing_file_is_file_not_found():
    with pytest.raises(FileNotFoundError, match="cannot read .*no-such.game"):
        gdl.load(game_path("no-such.game"))


def test_a_folder_is_refused():
    with pytest.raises(gdl.GdlError, match="it is a directory"):
        gdl.load(game_path(""))


def test_a_folder_named_like_a_bundled_game_loads_the_bundled_game(tmp_path, monkeypatch):
    # Someone's own `chess/` beside their script: `gdl.load("chess")` and
    # `import gdl.openspiel` (which loads every bundled game) still work.
    (tmp_path / "chess").mkdir()
    monkeypatch.chdir(tmp_path)
    assert gdl.load("chess").name == "Chess"
    with pytest.raises(gdl.GdlError, match="it is a directory"):
        gdl.load(str(tmp_path))


def test_a_broken_game_file_raises_the_diagnostic_the_command_prints(tmp_path, gdl_cli):
    broken = tmp_path / "broken.game"
    broken.write_text("game Broken\nplayers A, B\nstate n: int = 3\nmove take(k in 1..n) { n -= }\n")
    with pytest.raises(gdl.GdlError) as caught:
        gdl.load(str(broken))
    message = str(caught.value)
    assert "broken.game:4:" in message  # points at the line
    cli = gdl_cli("check", str(broken), check=False)
    assert cli.returncode == 2
    assert cli.stderr.strip() == message


def test_a_parameter_out_of_range_names_the_parameter_where_the_command_names_its_flag(gdl_cli):
    path = game_path("nim.game")
    with pytest.raises(gdl.GdlError) as caught:
        gdl.load(path, piles=[3, 30])
    message = str(caught.value)
    assert "piles = [3, 30]: 30 is out of range; each element must be in 0..20" in message
    cli = gdl_cli("solve", path, "--piles", "3,30", check=False)
    assert cli.returncode == 2
    # The command's diagnostic (code, place, label), but for how the value was given.
    assert cli.stderr.strip() == message.replace("piles = [3, 30]:", "--piles [3, 30]:")


def test_a_value_of_another_type_or_a_missing_one_names_the_parameter(tmp_path):
    with pytest.raises(gdl.GdlError, match="pits = true: expected an int, found a bool"):
        gdl.load(game_path("nimcala.game"), pits=True)
    with pytest.raises(gdl.GdlError, match='piles = "3,x": `x` is not a whole number'):
        gdl.load(game_path("nim.game"), piles="3,x")
    needs = tmp_path / "needs.game"
    needs.write_text(
        "game T\nplayers A, B\nparam size: int in 1..9\nstate n: int = size\n"
        "move m() { n -= 1 }\nend when n == 0 { winner previous }\n"
    )
    with pytest.raises(gdl.GdlError, match="give it a value: size = VALUE"):
        gdl.load(str(needs))
    assert gdl.load(str(needs), size=2).params == {"size": "2"}


def test_parameters_are_typed_values_a_pickle_keeps(tmp_path):
    import pickle

    rows = tmp_path / "rows.game"
    rows.write_text(
        "game Rows\nplayers A, B\nparam rows: list<list<int>> = []\nparam first: player = A\n"
        "state n: int = len(rows)\nmove m() { n -= 1 }\nend when n <= 0 { winner previous }\n"
    )
    g = gdl.load(str(rows), rows=[[1, 2], []], first="B")
    assert g.params == {"rows": "[[1, 2], []]", "first": "B"}
    again = pickle.loads(pickle.dumps(g))
    assert again is g
    assert pickle.loads(pickle.dumps(g.initial_state())) == g.initial_state()


def test_a_parameter_the_game_does_not_have_is_named():
    with pytest.raises(gdl.GdlError, match="no parameter `pits`"):
        gdl.load(game_path("nim.game"), pits=3)


def test_a_rule_that_fails_at_run_time_raises_with_the_position(tmp_path):
    bad = tmp_path / "bad.game"
    bad.write_text(
        "game Bad\nplayers A, B\nstate board: list<int> = [1, 2]\nstate i: int = 0\n"
        "move step() { i += 1 }\n"
        "end when board[i] == 9 { draw }\n"
    )
    g = gdl.load(str(bad))
    s = g.apply(g.initial_state(), g.legal_moves(g.initial_state())[0])
    s = g.apply(s, g.legal_moves(s)[0])
    with pytest.raises(gdl.GdlError, match="gdl::runtime") as caught:
        g.is_terminal(s)
    assert "i: 2" in str(caught.value)


def test_a_value_that_is_no_parameter_is_a_type_error():
    with pytest.raises(TypeError, match="parameter `piles`"):
        gdl.load(game_path("nim.game"), piles={"a": 1})


def test_gdl_error_is_a_value_error():
    assert issubclass(gdl.GdlError, ValueError)


def test_a_list_that_contains_itself_is_refused_not_followed():
    piles = [1, 2]
    piles.append(piles)
    with pytest.raises(ValueError, match="nest more than 200 deep"):
        gdl.load(game_path("nim.game"), piles=piles)


def test_a_position_of_a_million_brackets_is_refused_not_a_crash():
    g = gdl.load(game_path("nim.game"))
    with pytest.raises(gdl.GdlError, match="lists nest more than 200 deep"):
        g.parse_position("[" * 1_000_000)


def test_a_game_file_is_checked_before_it_is_read_as_the_command_line_does(tmp_path):
    import os

    big = tmp_path / "big.game"
    with open(big, "wb") as f:
        f.truncate(3 << 30)  # sparse: 3 GB that take no disk
    with pytest.raises(gdl.GdlError, match="3,221,225,472 bytes"):
        gdl.load(str(big))
    with pytest.raises(gdl.GdlError, match="goes on past 1,048,576 bytes"):
        gdl.load("/dev/zero")
    fifo = tmp_path / "nobody-writes.game"
    os.mkfifo(fifo)
    with pytest.raises(gdl.GdlError, match="named pipe"):
        gdl.load(str(fifo))


def test_a_q_table_must_be_a_file(tmp_path):
    g = gdl.load(game_path("nim.game"))
    with pytest.raises(gdl.GdlError, match="it is a device"):
        gdl.agent("q:/dev/zero", g)


def test_a_game_loaded_again_is_a_game_of_its_own_with_the_same_rules(tmp_path):
    # The second load takes its compiled rules from the module's cache
    # (issue 42, item 8; python/bench/load.py measures it): still a game
    # of its own, whose states the first one refuses.
    first, second = gdl.load("xnimmt"), gdl.load("xnimmt")
    assert first is not second
    with pytest.raises(ValueError, match="belongs to another game"):
        first.legal_moves(second.initial_state())
    assert str(first.initial_state()) == str(second.initial_state())
    assert first.num_distinct_actions() == second.num_distinct_actions()
    # The cache is keyed by the text, the parameters and the engine: a file
    # changed under the same name is compiled again.
    path = tmp_path / "count.game"
    game = 'game "Count"\nplayers A, B\nstate n: int = 0\nmove m() {{ n += 1 }}\nend when n == {} {{ draw }}\n'
    path.write_text(game.format(2))
    assert gdl.load(str(path)).explore(100)["positions"] == 3
    path.write_text(game.format(4))
    assert gdl.load(str(path)).explore(100)["positions"] == 5
    assert gdl.load("nim", piles=[1]).num_distinct_actions() == 1
    assert gdl.load("nim", piles=[2]).num_distinct_actions() == 2
    assert gdl.load("nim", piles=[2], engine="vm").num_distinct_actions() == 2
