"""The basics a Python user meets first: the bundled games load by name,
games, states and moves pickle (for multiprocessing and vectorised
environments), the stubs match the module, and solve()'s report is typed."""

import os
import pickle
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import gdl
from conftest import GAMES, game_path

BUNDLED = sorted(p.stem for p in GAMES.glob("*.game"))
# The games that end on a repeated position (`end when repeated N`), and N,
# read from their files: their states carry the positions before them.
RULE = re.compile(r"^end when repeated (\d+)", re.M)
REPETITION = {p.stem: int(m.group(1)) for p in GAMES.glob("*.game") if (m := RULE.search(p.read_text()))}


def test_every_game_file_is_bundled_and_loads_by_name():
    assert gdl.list_games() == BUNDLED
    for name in BUNDLED:
        by_name = gdl.load(name)
        by_path = gdl.load(game_path(f"{name}.game"))
        assert by_name.name == by_path.name
        assert str(by_name.initial_state()) == str(by_path.initial_state())


def test_a_game_says_the_n_of_its_repetition_rule():
    assert {"oware", "three-mens-morris"} <= set(REPETITION)
    for name in BUNDLED:
        assert gdl.load(name).repetition == REPETITION.get(name)


def test_a_bundled_game_takes_parameters_and_a_path_wins_over_a_name(tmp_path, monkeypatch):
    assert gdl.load("nim", piles=[3, 2]).params == {"piles": "[3, 2]"}
    assert gdl.load("games/nim.game", piles=[1]).solve()["winner"] == "MIN"
    # A file called `nim` in the current folder is read, not the bundled Nim.
    (tmp_path / "nim").write_text('game "Mine"\nplayers A, B\nstate n: int = 0\nmove m() { n += 1 }\nend when n == 2 { draw }\n')
    monkeypatch.chdir(tmp_path)
    assert gdl.load("nim").name == "Mine"


def test_an_unknown_name_says_which_games_are_bundled():
    with pytest.raises(FileNotFoundError) as e:
        gdl.load("no-such-game")
    assert "no game of that name is bundled with gdl" in str(e.value)
    assert "tictactoe" in str(e.value)


def random_states(game, rng, plays=5):
    """Every state of a few random games (chance and simultaneous moves
    included), the moves played, and the moves listed."""
    states, moves = [], []
    for _ in range(plays):
        s = game.initial_state()
        states.append(s)
        while not game.is_terminal(s):
            turn = game.turn(s)
            if turn == "chance":
                ms, ps = zip(*game.chance_outcomes(s))
                m = rng.choices(ms, ps)[0]
                s = game.apply(s, m)
                moves.append(m)
            elif turn == "simultaneous":
                joint = [rng.choice(game.legal_moves(s, p)) for p in range(game.num_players)]
                moves.extend(joint)
                s = game.apply_joint(s, joint)
            else:
                m = rng.choice(game.legal_moves(s))
                moves.append(m)
                s = game.apply(s, m)
            states.append(s)
    return states, moves


@pytest.mark.parametrize("name", BUNDLED)
def test_games_states_and_moves_pickle_round_trip(name):
    game = gdl.load(name)
    states, moves = random_states(game, random.Random(3))
    back_game, back_states, back_moves = pickle.loads(pickle.dumps((game, states, moves)))
    # The game still loaded in this process is the one unpickled: its
    # states compare equal to the originals, the moves too.
    assert back_game is game
    assert back_states == states
    assert back_moves == moves
    assert [str(s) for s in back_states] == [str(s) for s in states]
    # The ends too, those of the repetition rule included: each state
    # brings the positions before it.
    assert [game.is_terminal(s) for s in back_states] == [game.is_terminal(s) for s in states]
    assert [s.history() for s in back_states] == [s.history() for s in states]
    # One game in the pickle, not one per state: each state adds its cells
    # (a few bytes each; chess has hundreds), under a repetition rule those
    # of each position before it, and little else.
    cells = max(len(s.__reduce__()[1][1]) for s in states)
    positions = sum(1 + len(s.history()) for s in states)
    assert len(pickle.dumps(states)) < len(pickle.dumps(game)) + 400 * len(states) + 4 * cells * positions


def test_a_pickled_state_plays_on_in_another_process():
    game = gdl.load("nim", piles=[3, 2, 1])
    state = game.apply(game.initial_state(), game.legal_moves(game.initial_state())[1])
    child = (
        "import pickle, sys\n"
        "game, state = pickle.load(sys.stdin.buffer)\n"
        "moves = game.legal_moves(state)\n"
        "pickle.dump((game.apply(state, moves[0]), moves, game.solve(state)['value']), sys.stdout.buffer)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", child], input=pickle.dumps((game, state)), capture_output=True, check=True
    )
    after, moves, value = pickle.loads(done.stdout)
    assert moves == game.legal_moves(state)
    assert after == game.apply(state, moves[0])
    assert value == game.solve(state)["value"]


def test_unpickling_after_the_game_is_gone_loads_it_again():
    data = pickle.dumps(gdl.load("tictactoe", engine="vm").initial_state())
    state = pickle.loads(data)
    assert str(state) == str(gdl.load("tictactoe").initial_state())


def test_a_tampered_pickle_is_refused_not_run():
    game = gdl.load("tictactoe")
    with pytest.raises(gdl.GdlError, match="not a state of Tic-tac-toe"):
        gdl._gdl._state(game, [0, 0, 5])
    cells = pickle.loads(pickle.dumps(game.initial_state())).__reduce__()[1][1]
    cells[0] = 7  # the player to move: there are two
    with pytest.raises(gdl.GdlError, match="the player to move is 7"):
        gdl._gdl._state(game, cells)
    # The number of players was let through, and the observation then
    # panicked (round four, item 4); every edge of the range is refused.
    for turn, previous in [(2, 0), (-1, 0), (0, 2), (0, -2)]:
        cells[0], cells[1] = turn, previous
        with pytest.raises(gdl.GdlError, match="is -?[0-9], where the players are numbered 0 to 1"):
            gdl._gdl._state(game, cells)
    connect4 = gdl.load("connect4")
    f, args = connect4.initial_state().__reduce__()
    tampered = list(args[1])
    tampered[0] = 2
    with pytest.raises(gdl.GdlError, match="the player to move is 2"):
        f(args[0], tampered)
    with pytest.raises(gdl.GdlError, match="takes 1 arguments, not 2"):
        gdl._gdl._move(game, 0, [1, 2])


def test_the_stubs_match_the_module(tmp_path):
    # mypy's stubtest compares _gdl.pyi with the compiled module, name by
    # name and signature by signature.
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "gdl._gdl"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=dict(os.environ, MYPY_CACHE_DIR=str(tmp_path / "mypy-cache")),
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_solve_report_has_the_keys_its_type_names():
    report = gdl.load("nim", piles=[3, 2]).solve()
    required = gdl.SolveReport.__required_keys__
    assert set(report) == set(required)
    explained = gdl.load("nim", piles=[3, 2]).solve(explain=True)
    assert set(explained) == set(required) | {"explain"}
    assert set(explained["explain"][0]) == set(gdl.ExplainedMove.__annotations__)
    assert report["winner"] == "MAX" and report["best_moves"] == ["(0, 1)"]
