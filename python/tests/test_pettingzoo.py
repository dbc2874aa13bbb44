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
            seen.append(env.game.value(env.gdl_state, "prize"))
            actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents}
            obs, rewards, term, trunc, _ = env.step(actions)
        return seen, rewards

    first, rewards = prizes(7)
    assert prizes(7)[0] == first
    assert any(prizes(seed)[0] != first for seed in range(8, 12))
    assert sorted(first) == [1, 2, 3, 4, 5]
    # Both bid their lowest card each round: every round ties, nobody scores.
    assert rewards == {"A": 0.0, "B": 0.0}


def test_state_is_what_the_players_see_and_the_position_is_gdl_state():
    # `state` was the gdl.State, hiding AECEnv.state() (issue 42, item 10).
    from pettingzoo.test.state_test import test_parallel_env, test_state_space

    env = gp.env("kuhn-poker")
    env.reset(seed=3)
    test_state_space(env)
    for agent in env.agent_iter():
        whole = env.state()
        assert env.state_space.contains(whole)
        each = [env.gdl_state.observation_tensor(p) for p in range(2)]
        assert np.array_equal(whole, np.concatenate(each))
        observation, _, termination, truncation, _ = env.last()
        mask = observation["action_mask"]
        env.step(None if termination or truncation else int(np.flatnonzero(mask)[0]))
    assert isinstance(env.gdl_state, gdl.State)
    # Between them the players see both private cards: each player's own
    # card is in their part of the state, and the parts differ.
    first, second = np.split(env.state(), 2)
    assert not np.array_equal(first, second)
    test_parallel_env(gp.parallel_env("goofspiel", cards=4))


def test_the_action_space_counts_the_players_moves_not_chance_s():
    goof = gp.env("goofspiel", cards=4)
    game = goof.game
    # gdl numbers chance's four prize cards and the players' four bids.
    assert game.num_distinct_actions() == 8
    assert [goof.action_space(a).n for a in goof.possible_agents] == [4, 4]
    assert [game.action_to_move(a).by_chance for a in goof.gdl_actions] == [False] * 4
    # Every action of the space is legal at the start, and is the bid it names.
    observations, _ = goof.reset(seed=0)
    for agent in goof.agents:
        assert observations[agent]["action_mask"].tolist() == [1, 1, 1, 1]
    bids = {a: 3 for a in goof.agents}
    goof.step(bids)
    assert game.value(goof.gdl_state, "hands") == [frozenset({1, 2, 3})] * 2
    # An AEC game with chance (Kuhn poker's deal) keeps only the players' moves too.
    kuhn = gp.env("kuhn-poker")
    moves = [kuhn.game.action_to_move(a) for a in range(kuhn.game.num_distinct_actions())]
    assert kuhn.action_space("First").n == sum(not m.by_chance for m in moves) < len(moves)
    api_test(kuhn, num_cycles=50)


def test_aec_to_parallel_refuses_a_game_of_turns_and_says_what_to_use():
    from pettingzoo.utils.conversions import aec_to_parallel, turn_based_aec_to_parallel

    with pytest.raises(ValueError, match="game of turns.*parallel_env.*turn_based_aec_to_parallel"):
        aec_to_parallel(gp.aec_env("connect4"))
    # Both ways it names work, to the end of a game.
    ways = [gp.parallel_env("connect4", rows=4, cols=5), turn_based_aec_to_parallel(gp.aec_env("connect4", rows=4, cols=5))]
    for parallel in ways:
        observations, _ = parallel.reset(seed=1)
        rewards = {}
        while parallel.agents:
            # The first legal action of whoever is to move; the others' are ignored.
            masks = {a: observations[a]["action_mask"] for a in parallel.agents}
            actions = {a: int(np.flatnonzero(m)[0]) if m.any() else 0 for a, m in masks.items()}
            observations, rewards, _, _, _ = parallel.step(actions)
        assert sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_rgb_array_is_a_picture_of_the_position():
    for make in [gp.env, gp.aec_env, gp.parallel_env]:
        with pytest.raises(ValueError, match='render_mode must be None, "ansi", "human" or "rgb_array", not \'rgb\''):
            make("connect4", render_mode="rgb")
    env = gp.env("connect4", render_mode="rgb_array")
    env.reset(seed=0)
    start = env.render()
    assert start.dtype == np.uint8 and start.ndim == 3 and start.shape[2] == 3
    env.step(3)
    assert env.render().shape == start.shape and not np.array_equal(env.render(), start)
    goof = gp.parallel_env("goofspiel", render_mode="rgb_array")
    goof.reset(seed=0)
    assert goof.render().dtype == np.uint8
    assert gp.env("connect4", render_mode="ansi").render().count("\n") >= 6
