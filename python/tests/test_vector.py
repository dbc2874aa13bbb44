"""gdl.VectorEnv: many games stepped together in Rust agree, step by step,
with the per-state API; finished games restart; bad input is refused."""

import numpy as np
import pytest

import gdl

# Games whose every move is a player's: the per-state API can replay the
# batch's games exactly, from the actions alone. Three men's morris and
# oware end on a repeated position, which the batch must count per game.
DETERMINISTIC = [
    ("tictactoe", {}),
    ("connect4", {"rows": 4}),
    ("nim", {}),
    ("kalah", {"pits": 4, "seeds": 3}),
    ("three-mens-morris", {}),
    ("oware", {}),
    ("breakthrough", {}),
]
# Games with chance (drawn inside the batch): checked against the state the
# batch reports, which must follow from the last one by the action and chance.
CHANCE = [("pig", {"target": 20}), ("kuhn-poker", {}), ("backgammon", {})]


def random_actions(rng, masks):
    """A uniformly random legal action in each row of `masks`."""
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def observed(game, state, player):
    return state.observation_tensor(player)


def mask_of(game, state, player):
    mask = np.zeros(game.num_distinct_actions(), bool)
    mask[game.legal_actions(state, player)] = True
    return mask


def assert_rows_match(game, states, env, obs, masks):
    for i, s in enumerate(states):
        p = game.turn(s)
        assert env.to_play[i] == p
        np.testing.assert_array_equal(obs[i], observed(game, s, p))
        np.testing.assert_array_equal(masks[i], mask_of(game, s, p))


@pytest.mark.parametrize("name,params", DETERMINISTIC)
def test_the_batch_agrees_step_by_step_with_the_per_state_api(name, params):
    game = gdl.load(name, **params)
    n, rng = 6, np.random.default_rng(3)
    env = gdl.VectorEnv(game, n, seed=5)
    obs, masks = env.reset()
    assert obs.dtype == np.float32 and obs.shape == (n, game.observation_tensor_shape()[0])
    assert masks.dtype == np.bool_ and masks.shape == (n, game.num_distinct_actions())
    states = [game.initial_state() for _ in range(n)]
    assert_rows_match(game, states, env, obs, masks)
    finished = 0
    for _ in range(150):
        actions = random_actions(rng, masks)
        obs, rewards, terminations, truncations, masks = env.step(actions)
        assert rewards.shape == (n, game.num_players) and rewards.dtype == np.float32
        assert not truncations.any()
        finals = iter(env.final_observations)
        for i, a in enumerate(actions):
            mover = game.turn(states[i])
            s = game.apply(states[i], game.action_to_move(int(a)))
            assert terminations[i] == game.is_terminal(s)
            if game.is_terminal(s):
                np.testing.assert_array_equal(rewards[i], game.returns(s))
                np.testing.assert_array_equal(next(finals), observed(game, s, mover))
                s = game.initial_state()
                finished += 1
            else:
                assert not rewards[i].any()
            states[i] = s
        assert next(finals, None) is None
        assert_rows_match(game, states, env, obs, masks)
        # The batch's own states are the per-state API's, history included.
        for i in (0, n - 1):
            assert env.state(i) == states[i]
            assert env.state(i).history() == states[i].history()
    assert finished > 0


def chance_closure(game, state, depth=4):
    """The states chance can lead to from `state` before a player moves."""
    if depth == 0 or game.turn(state) != "chance":
        return [state]
    return [t for m, _ in game.chance_outcomes(state) for t in chance_closure(game, game.apply(state, m), depth - 1)]


@pytest.mark.parametrize("name,params", CHANCE)
def test_with_chance_each_step_follows_from_the_last_by_the_action_and_chance(name, params):
    game = gdl.load(name, **params)
    n, rng = 4, np.random.default_rng(11)
    env = gdl.VectorEnv(game, n, seed=2)
    obs, masks = env.reset()
    before = [env.state(i) for i in range(n)]
    assert_rows_match(game, before, env, obs, masks)
    low, high = game.utility_range() or (-np.inf, np.inf)
    ends = 0
    for _ in range(120):
        actions = random_actions(rng, masks)
        obs, rewards, terminations, truncations, masks = env.step(actions)
        now = [env.state(i) for i in range(n)]
        assert_rows_match(game, now, env, obs, masks)
        for i, a in enumerate(actions):
            s = game.apply(before[i], game.action_to_move(int(a)))
            if terminations[i]:
                ends += 1
                # Over after the move, or after chance's moves that followed it.
                ended = [t for t in chance_closure(game, s) if game.is_terminal(t)]
                assert any(list(rewards[i]) == game.returns(t) for t in ended)
                assert low <= rewards[i].min() and rewards[i].max() <= high
                assert now[i] in chance_closure(game, game.initial_state())
            else:
                assert now[i] in chance_closure(game, s)
                assert not rewards[i].any()
        before = now
    assert ends > 0


def test_a_finished_game_restarts_in_the_same_step():
    game = gdl.load("tictactoe")
    env = gdl.VectorEnv(game, 2, max_steps=None)
    env.reset()
    # Game 0: X takes the top row; game 1 plays elsewhere.
    for a0, a1 in [(0, 4), (3, 0), (1, 8), (4, 2)]:
        env.step([a0, a1])
    obs, rewards, terminations, truncations, masks = env.step([2, 6])
    assert list(terminations) == [True, False] and not truncations.any()
    assert list(rewards[0]) == [1.0, -1.0] and not rewards[1].any()
    start = game.initial_state()
    np.testing.assert_array_equal(obs[0], start.observation_tensor(0))
    assert masks[0].all() and env.to_play[0] == 0
    # What X saw at the end: its three in a row.
    final = env.final_observations
    assert final.shape == (1, game.observation_tensor_shape()[0])
    end = game.apply(game.apply(game.apply(game.apply(game.apply(start, game.action_to_move(0)), game.action_to_move(3)), game.action_to_move(1)), game.action_to_move(4)), game.action_to_move(2))
    assert game.is_terminal(end)
    np.testing.assert_array_equal(final[0], end.observation_tensor(0))
    # The next step reports nothing finished.
    env.step([0, 3])  # O does not complete its top row in game 1
    assert env.final_observations.shape[0] == 0


def test_max_steps_truncates_and_restarts():
    env = gdl.VectorEnv("connect4", 3, max_steps=4)
    obs, masks = env.reset()
    for step in range(4):
        obs, rewards, terminations, truncations, masks = env.step(np.zeros(3, int) + step % 2)
    assert truncations.all() and not terminations.any() and not rewards.any()
    assert env.final_observations.shape == (3, env.observation_size)
    assert all(env.state(i) == env.game.initial_state() for i in range(3))


def test_a_seed_gives_the_same_run_and_another_seed_another():
    def run(seed):
        env = gdl.VectorEnv("pig", 16, {"target": 20}, seed=seed)
        obs, masks = env.reset()
        rng, seen = np.random.default_rng(0), [obs.copy()]
        for _ in range(40):
            obs, rewards, *_ , masks = env.step(random_actions(rng, masks))
            seen.append(obs.copy())
            seen.append(rewards.copy())
        return np.concatenate([x.ravel() for x in seen])

    assert np.array_equal(run(4), run(4))
    assert not np.array_equal(run(4), run(5))
    # reset(seed) reseeds as the constructor does, and the threads do not matter.
    env = gdl.VectorEnv("pig", 16, {"target": 20}, seed=9, threads=1)
    first, _ = env.reset(seed=4)
    again = gdl.VectorEnv("pig", 16, {"target": 20}, seed=4, threads=3)
    np.testing.assert_array_equal(first, again.reset()[0])


def test_many_games_on_several_threads_agree_with_one_thread():
    def run(threads):
        env = gdl.VectorEnv("connect4", 300, seed=1, threads=threads)
        obs, masks = env.reset()
        rng, total = np.random.default_rng(2), []
        for _ in range(30):
            obs, rewards, terminations, _, masks = env.step(random_actions(rng, masks))
            total.append(obs.sum(axis=1) + rewards[:, 0] + terminations)
        return np.array(total)

    np.testing.assert_array_equal(run(1), run(4))


def test_arrays_are_fresh_each_step_and_writable():
    env = gdl.VectorEnv("tictactoe", 2)
    obs, masks = env.reset()
    kept = obs.copy()
    env.step([0, 0])
    np.testing.assert_array_equal(obs, kept)
    obs[:] = 0  # a user's own array
    assert masks.flags.writeable


def test_with_a_seat_the_others_move_at_random_inside():
    env = gdl.VectorEnv("tictactoe", 32, seat=1, seed=3)
    obs, masks = env.reset()
    assert (env.to_play == 1).all() and (masks.sum(axis=1) == 8).all()
    rng, ends = np.random.default_rng(0), 0
    for _ in range(20):
        obs, rewards, terminations, _, masks = env.step(random_actions(rng, masks))
        assert (env.to_play == 1).all()
        ends += terminations.sum()
        # O's return: the game ended on O's move or on X's random reply.
        assert set(rewards[terminations, 1]) <= {-1.0, 0.0, 1.0}
        assert not rewards[~terminations].any()
    assert ends > 0


@pytest.mark.parametrize(
    "actions,error,match",
    [
        ([0, 1], ValueError, r"array of 3 actions"),
        ([[0, 1, 2]], ValueError, r"array of 3 actions"),
        ([0, 1, 2, 3], ValueError, r"array of 3 actions"),
        ([0.0, 1.0, 2.0], TypeError, r"integers"),
        ([0, 1, 7], ValueError, r"action 7 is not legal in game 2"),
        ([0, -1, 0], ValueError, r"action -1 is not legal in game 1"),
        ([0, 1, 2**40], ValueError, r"is not legal in game 2"),
    ],
)
def test_bad_actions_are_refused_and_nothing_moves(actions, error, match):
    env = gdl.VectorEnv("connect4", 3, {"cols": 7})
    env.reset()
    env.step([6, 6, 6])
    env.step([6, 6, 6])
    before = [env.state(i) for i in range(3)]
    with pytest.raises(error, match=match):
        env.step(actions)
    assert [env.state(i) for i in range(3)] == before


def test_an_action_into_a_full_column_is_refused():
    env = gdl.VectorEnv("connect4", 2, {"rows": 4})
    env.reset()
    for _ in range(4):
        env.step([0, 1])
    with pytest.raises(ValueError, match=r"action 0 is not legal in game 0 of the batch, where X is to move: its legal actions are 1, 2, 3, 4, 5, 6$"):
        env.step([0, 0])


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="at least one game"):
        gdl.VectorEnv("tictactoe", 0)
    with pytest.raises(ValueError, match="at least one game"):
        gdl.VectorEnv("tictactoe", -3)
    with pytest.raises(FileNotFoundError, match="no game of that name is bundled"):
        gdl.VectorEnv("no-such-game", 4)
    with pytest.raises(gdl.GdlError, match="simultaneous moves"):
        gdl.VectorEnv("goofspiel", 4)
    with pytest.raises(ValueError, match="parameters go with"):
        gdl.VectorEnv(gdl.load("nim"), 4, {"piles": [1, 2]})
    with pytest.raises(ValueError, match="max_steps must be at least 1"):
        gdl.VectorEnv("nim", 4, max_steps=0)
    with pytest.raises(ValueError, match="seat 2 does not exist"):
        gdl.VectorEnv("nim", 4, seat=2)
    with pytest.raises(ValueError, match="smaller n"):
        gdl.VectorEnv("go", 1 << 40)
    with pytest.raises(IndexError):
        gdl.VectorEnv("nim", 2).state(2)


SMALL = {"pig": {"target": 20}, "kalah": {"pits": 4, "seeds": 3}}


def test_every_bundled_game_that_takes_turns_is_observed_as_the_per_state_api_observes():
    # Every layout the games use (ints, bools, players, sets, lists, private
    # entries, hidden variables), written by the batch's own encoder.
    from test_basics import BUNDLED

    rng = np.random.default_rng(0)
    for name in BUNDLED:
        game = gdl.load(name, **SMALL.get(name, {}))
        if game.has_simultaneous:
            continue
        env = gdl.VectorEnv(game, 3, seed=1)
        obs, masks = env.reset()
        for _ in range(25):
            for i in range(3):
                s = env.state(i)
                np.testing.assert_array_equal(obs[i], s.observation_tensor(int(env.to_play[i])), err_msg=name)
                np.testing.assert_array_equal(masks[i], mask_of(game, s, int(env.to_play[i])), err_msg=name)
            obs, _, _, _, masks = env.step(random_actions(rng, masks))


def test_the_examples_of_the_batched_games_section_of_python_md_run():
    # Run here rather than marked for test_docs.py: that file counts the
    # page's marked examples, which other sections add to.
    from conftest import ROOT
    import re

    doc = (ROOT / "docs" / "PYTHON.md").read_text()
    section = doc[doc.index("## Batched games and Gymnasium") :]
    section = section[: section.index("\n## ", 1)]
    examples = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(examples) == 2
    batch = {}
    exec(compile(examples[0], "docs/PYTHON.md", "exec"), batch)
    assert batch["obs"].shape == (1024, 138) and batch["masks"].shape == (1024, 7)
    assert batch["env"].to_play.shape == (1024,)
    gym = {}
    exec(compile(examples[1], "docs/PYTHON.md", "exec"), gym)
    assert gym["terminated"] or gym["truncated"]
