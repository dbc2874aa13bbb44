"""The examples of docs/PYTHON.md marked `<!-- test -->` run as written."""

import contextlib
import io
import os
import re
import sys

import pytest

import aima_games
from conftest import ROOT

DOC = (ROOT / "docs" / "PYTHON.md").read_text()
EXAMPLES = re.findall(r"<!-- test -->\n```python\n(.*?)```", DOC, re.S)


def run(code):
    out = io.StringIO()
    namespace = {"__name__": "docs_example"}
    cwd = os.getcwd()
    # AIMA's module is games.py; the tests carry its pieces as aima_games.
    sys.modules.setdefault("games", aima_games)
    try:
        os.chdir(ROOT)
        with contextlib.redirect_stdout(out):
            exec(compile(code, "docs/PYTHON.md", "exec"), namespace)
    finally:
        os.chdir(cwd)
    return namespace, out.getvalue()


def test_the_page_has_its_examples():
    assert len(EXAMPLES) == 6


def example(word):
    return next(e for e in EXAMPLES if word in e)


def test_the_numpy_policy_learns_to_beat_random_play():
    ns, out = run(example("W[:]"))
    assert "before training" in out
    assert ns["after"] > ns["before"] + 0.1


def test_the_gymnasium_learner_beats_random_play_after_training():
    ns, out = run(example("Q[obs.tobytes(), a] +="))
    assert "before training" in out
    assert ns["after"] > ns["before"] + 0.1 and ns["after"] > 0.8


def test_the_batched_random_games_favour_the_first_player():
    ns, out = run(example("VectorEnv(\"tictactoe\", 256"))
    assert ns["steps"] == 256 * 200 and ns["finished"] > 256 * 200 // 9
    assert ns["totals"].sum() == pytest.approx(0.0)
    assert ns["totals"][0] > ns["totals"][1]
    assert "moves a second" in out


def test_the_openspiel_example():
    ns, out = run(example("gdl_kuhn_poker"))
    lines = out.splitlines()
    assert float(lines[0]) < 0.01
    assert ns["state"].is_terminal()


def test_the_pettingzoo_example():
    ns, out = run(example("gp.env(\"goofspiel\""))
    assert not ns["goof"].agents and set(ns["rewards"]) == {"A", "B"}
    assert sum(ns["rewards"].values()) == pytest.approx(0.0)


def test_the_easyai_example():
    ns, out = run(example("EasyAIGame"))
    assert out.startswith("[0, 0, 0]")
    assert ns["game"].game.returns(ns["game"].state) == [1.0, -1.0]


def test_each_adapter_has_one_section():
    # A second "OpenSpiel" section once described a facade that does not
    # exist, with an example that raised (issue 42, item 10).
    for adapter in ["OpenSpiel", "PettingZoo", "AIMA", "easyAI"]:
        assert DOC.count(f"\n## {adapter}: ") == 1, adapter
