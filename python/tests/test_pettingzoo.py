"""gdl games as PettingZoo environments: PettingZoo's own API tests on every
bundled game, and what an agent sees and gets."""

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test

import gdl
from gdl import pettingzoo as gp
from test_basics import BUNDLED

SMALL = {"xnimmt": {"K": 12, "N": 3}, "pig": {"target": 20}, "kalah": {"pits": 4, "seeds": 3}}


@pytest.mark.parametrize("name", BUNDLED)
def test_pettingzoo_s_api_test_passes_on_every_bundled_game(name):
    env = gp.env(name, **SMALL.get(name, {}))
    if gdl.load(name).has_simultaneous:
        assert isinstance(env, gp.GdlParallelEnv)
        parallel_api_test(env, num_cycles=200)
        # (parallel_seed_test steps with actions drawn without the masks,
        # which a game refuses: the Parallel games' seeding is checked below.)
    else:
        assert isinstance(env, gp.GdlAECEnv)
        api_test(env, num_cycles=200)
        seed_test(lambda: gp.env(name, **SMALL.get(name, {})), num_cycles=50)


def test_connect_four_as_an_aec_environment():
    env = gp.env("connect4", rows=6, render_mode="ansi")
    env.reset(seed=1)
    assert env.agents == ["X", "O"] and env.agent_selection == "X"
    assert env.action_space("X").n == 7
    obs, reward, term, trunc, _ = env.last()
    assert list(obs["action_mask"]) == [1] * 7 and reward == 0 and not term and not trunc
    # X drops four discs in column 1, O in column 2: X wins on its fourth.
    for action in [0, 1, 0, 1, 0, 1, 0]:
        env.step(action)
    assert all(env.terminations.values())
    assert env.rewards == {"X": 1.0, "O": -1.0}
    assert "O to move" in env.render() or "nobody" in env.render()
    # The others' mask is empty while one moves.
    env.reset()
    assert not env.observe("O")["action_mask"].any()


def test_an_illegal_action_is_refused():
    env = gp.env("tictactoe")
    env.reset()
    env.step(4)
    with pytest.raises(ValueError, match="not legal"):
        env.step(4)


def test_goofspiel_is_a_parallel_environment_with_chance_drawn_from_the_seed():
    def prizes(seed):
        env = gp.env("goofspiel", cards=5)
        obs, _ = env.reset(seed=seed)
        seen = []
        while env.agents:
            seen.append(env.game.value(env.state, "prize"))
            actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents}
            obs, rewards, term, trunc, _ = env.step(actions)
        return seen, rewards

    first, rewards = prizes(7)
    assert prizes(7)[0] == first
    assert any(prizes(seed)[0] != first for seed in range(8, 12))
    assert sorted(first) == [1, 2, 3, 4, 5]
    # Both bid their lowest card each round: every round ties, nobody scores.
    assert rewards == {"A": 0.0, "B": 0.0}
