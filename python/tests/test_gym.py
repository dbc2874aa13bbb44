"""gdl games as single-agent Gymnasium environments (gdl.gym): Gymnasium's
own check_env on every bundled game it applies to, gdl's agents as the
other seats, masks, rendering, and the vector entry backed by gdl.VectorEnv."""

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gdl
import gdl.gym as gg
from test_basics import BUNDLED

SMALL = {"xnimmt": {"K": 12, "N": 3}, "pig": {"target": 20}, "kalah": {"pits": 4, "seeds": 3}}
# A single agent moves alone: games where the players move at once are
# refused (PettingZoo's parallel_env serves them).
SIMULTANEOUS = sorted(name for name in BUNDLED if gdl.load(name, **SMALL.get(name, {})).has_simultaneous)
TURNS = [name for name in BUNDLED if name not in SIMULTANEOUS]


def test_only_the_games_with_simultaneous_moves_are_left_out_and_they_are_refused():
    assert SIMULTANEOUS == ["goofspiel", "xnimmt"]
    for name in SIMULTANEOUS:
        with pytest.raises(ValueError, match="simultaneous moves: .*parallel_env"):
            gymnasium.make(f"gdl/{name}-v0", **SMALL.get(name, {}))


@pytest.mark.parametrize("name", TURNS)
def test_gymnasium_s_check_env_passes(name):
    # check_env steps with unmasked samples of the action space: an illegal
    # one must end the game, not raise.
    env = gymnasium.make(f"gdl/{name}-v0", **SMALL.get(name, {}))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    env.close()
    # What check_env warns of is the environment's to fix, except the
    # illegal actions it samples on purpose (they end the game, as said) and
    # the unbounded Box: a game's numbers (scores, counts) have no declared
    # bound for the observation to give.
    expected = ("is not legal in", "space minimum value is -infinity", "space maximum value is infinity")
    told = [str(w.message) for w in caught if not any(e in str(w.message) for e in expected)]
    assert told == [], told


def play(env, seed, rng):
    obs, info = env.reset(seed=seed)
    total, moves = 0.0, []
    while True:
        mask = info["action_mask"]
        assert np.array_equal(mask.astype(bool), env.unwrapped.action_masks())
        action = int(rng.choice(np.flatnonzero(mask)))
        moves.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        if terminated or truncated:
            return total, moves


def test_a_random_agent_never_beats_optimal_at_tic_tac_toe_from_either_seat():
    rng = np.random.default_rng(0)
    for player in ("X", "O"):
        env = gymnasium.make("gdl/tictactoe-v0", opponent="optimal", player=player)
        results = [play(env, seed, rng)[0] for seed in range(15)]
        assert max(results) <= 0.0 and min(results) == -1.0


def test_the_opponent_moves_first_when_the_agent_sits_second():
    env = gymnasium.make("gdl/tictactoe-v0", opponent="random", player=1, render_mode="ansi")
    obs, info = env.reset(seed=3)
    assert info["action_mask"].sum() == 8
    assert env.unwrapped.game.turn(env.unwrapped.state) == 1
    np.testing.assert_array_equal(obs, env.unwrapped.state.observation_tensor(1))
    assert env.render() == str(env.unwrapped.state)


def test_a_seed_replays_the_same_games_against_mcts():
    env = gymnasium.make("gdl/connect4-v0", opponent="mcts:30", rows=5, cols=5)
    first = play(env, 7, np.random.default_rng(1))
    assert play(env, 7, np.random.default_rng(1)) == first


def test_one_opponent_per_seat_and_chance_from_the_seed():
    env = gymnasium.make("gdl/pig-v0", opponent=["greedy"], target=20)
    runs = [play(env, 5, np.random.default_rng(0)) for _ in range(2)]
    assert runs[0] == runs[1]
    with pytest.raises(ValueError, match="one agent spec per other seat"):
        gymnasium.make("gdl/tictactoe-v0", opponent=["random", "random"])
    with pytest.raises(gdl.GdlError):
        gymnasium.make("gdl/tictactoe-v0", opponent="no-such-agent")


def test_an_illegal_action_raises_or_loses():
    env = gymnasium.make("gdl/tictactoe-v0", illegal_action="raise")
    env.reset(seed=0)
    env.step(4)
    with pytest.raises(ValueError, match="not legal"):
        env.step(4)
    with pytest.raises(ValueError, match="not in the action space"):
        env.step(9)
    losing = gymnasium.make("gdl/tictactoe-v0")
    losing.reset(seed=0)
    losing.step(4)
    obs, reward, terminated, truncated, info = losing.step(4)
    assert terminated and reward == -1.0 and info["illegal_action"]
    with pytest.raises(ValueError, match="call reset"):
        losing.unwrapped.step(0)


def test_render_modes():
    with pytest.raises(ValueError, match='render_mode must be .*"rgb_array", not \'rgb\''):
        gymnasium.make("gdl/tictactoe-v0", render_mode="rgb")
    env = gymnasium.make("gdl/connect4-v0", render_mode="ansi")
    env.reset(seed=0)
    assert "X to move" in env.render()


def test_rgb_array_is_a_picture_of_the_board_that_changes_with_it():
    env = gymnasium.make("gdl/connect4-v0", render_mode="rgb_array", opponent="greedy")
    env.reset(seed=0)
    start = env.render()
    assert start.dtype == np.uint8 and start.ndim == 3 and start.shape[2] == 3
    # A picture of 6 rows and 7 columns of square cells, a margin around.
    height, width, _ = start.shape
    assert (width - 8) * 6 == (height - 8) * 7
    env.step(3)
    after = env.render()
    assert after.shape == start.shape and not np.array_equal(after, start)
    # The same position draws the same picture.
    env.reset(seed=0)
    assert np.array_equal(env.render(), start)


@pytest.mark.parametrize("name", ["tictactoe", "kalah", "nim", "chess", "backgammon"])
def test_check_env_passes_with_rgb_array_on_every_kind_of_display(name):
    # A grid (tic-tac-toe, chess), pits (Kalah), no display (Nim, drawn as
    # text), and a game with chance (backgammon): check_env renders each.
    env = gymnasium.make(f"gdl/{name}-v0", render_mode="rgb_array", **SMALL.get(name, {}))
    check_env(env.unwrapped)
    frame = env.unwrapped.render()
    assert frame.dtype == np.uint8 and frame.shape[2] == 3 and frame.shape[0] > 0 and frame.shape[1] > 0
    assert frame.min() < frame.max()  # something is drawn
    env.close()


def test_pictures_of_different_positions_differ():
    game = gdl.load("tictactoe")
    state = game.initial_state()
    pictures = [state.render_rgb()]
    for action in [4, 0, 8]:
        state = game.apply(state, game.action_to_move(action))
        pictures.append(state.render_rgb())
    keys = {p.tobytes() for p in pictures}
    assert len(keys) == len(pictures)
    assert len({p.shape for p in pictures}) == 1


def test_max_steps_truncates():
    env = gymnasium.make("gdl/nim-v0", max_steps=1, piles=[5, 5, 5])
    env.reset(seed=0)
    _, reward, terminated, truncated, _ = env.step(0)
    assert truncated and not terminated and reward == 0.0


def test_the_vector_entry_is_gdl_s_vector_env_against_random():
    env = gymnasium.make_vec("gdl/tictactoe-v0", num_envs=16, vectorization_mode="vector_entry_point", player="O")
    assert isinstance(env, gg.GdlVectorEnv) and isinstance(env, gymnasium.vector.VectorEnv)
    obs, info = env.reset(seed=2)
    assert obs.shape == (16, 33) and env.observation_space.shape == (16, 33)
    assert (info["action_mask"].sum(axis=1) == 8).all()
    rng, finished = np.random.default_rng(0), 0
    for _ in range(12):
        masks = env.action_masks()
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        obs, rewards, terminations, truncations, infos = env.step(actions)
        assert rewards.shape == (16,) and set(rewards) <= {-1.0, 0.0, 1.0}
        assert not rewards[~terminations].any()
        if terminations.any():
            finished += terminations.sum()
            assert (infos["_final_obs"] == terminations).all()
            for i in np.flatnonzero(terminations):
                # The final observation is O's, of a finished board; the row is a new game's.
                assert infos["final_obs"][i][1] == 1.0
                assert (infos["action_mask"][i].sum()) == 8
    assert finished > 0
    with pytest.raises(ValueError, match='"random" only'):
        gymnasium.make_vec("gdl/tictactoe-v0", num_envs=2, vectorization_mode="vector_entry_point", opponent="mcts:10")
