"""The OpenSpiel-style facade plays games to the end, chance and
simultaneous moves included."""

import random

import pytest

from conftest import game_path
from gdl import openspiel

GAMES = [
    ("nim.game", {"piles": [4, 3, 2, 1]}),
    ("nimcala.game", {"pits": 4, "tokens": 5}),
    ("select19.game", {}),
    ("tictactoe.game", {}),
    ("connect4.game", {"rows": 4, "cols": 5}),
    ("xnimmt.game", {"K": 20, "N": 4}),
]


def play_random(state, rng):
    """Plays `state` to the end at random, checking each node's contract."""
    while not state.is_terminal():
        assert state.returns() == [0.0] * state.num_players()
        player = state.current_player()
        if state.is_chance_node():
            assert player == openspiel.CHANCE
            outcomes = state.chance_outcomes()
            assert outcomes and sum(p for _, p in outcomes) == pytest.approx(1.0)
            actions, probs = zip(*outcomes)
            state.apply_action(rng.choices(actions, probs)[0])
        elif state.is_simultaneous_node():
            assert player == openspiel.SIMULTANEOUS
            joint = []
            for p in range(state.num_players()):
                legal = state.legal_actions(p)
                assert legal == sorted(legal) and legal
                joint.append(rng.choice(legal))
            state.apply_actions(joint)
        else:
            assert 0 <= player < state.num_players()
            legal = state.legal_actions()
            assert legal == sorted(legal) and len(set(legal)) == len(legal)
            action = rng.choice(legal)
            text = state.action_to_string(player, action)
            assert state.string_to_action(text) == action
            state.apply_action(action)
    assert state.current_player() == openspiel.TERMINAL
    assert state.legal_actions() == []
    return state.returns()


@pytest.mark.parametrize("file, params", GAMES)
def test_random_games_end_with_returns_summing_to_zero(file, params):
    game = openspiel.load_game(game_path(file), **params)
    rng = random.Random(11)
    for _ in range(20):
        returns = play_random(game.new_initial_state(), rng)
        assert len(returns) == game.num_players()
        assert sum(returns) == pytest.approx(0.0)
    assert game.num_distinct_actions() > 0


def test_an_action_means_the_same_move_in_every_state():
    game = openspiel.load_game(game_path("nim.game"), piles=[3, 3])
    seen = {}
    rng = random.Random(5)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            for a in state.legal_actions():
                assert seen.setdefault(a, state.action_to_string(0, a)) == state.action_to_string(0, a)
            state.apply_action(rng.choice(state.legal_actions()))
    assert sorted(seen.values()) == sorted(f"({r}, {n})" for r in range(2) for n in range(1, 4))


def test_clone_branches_without_touching_the_original():
    game = openspiel.load_game(game_path("tictactoe.game"))
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[4])
    branch = state.clone()
    branch.apply_action(branch.legal_actions()[0])
    assert len(state.history()) == 1 and len(branch.history()) == 2
    assert str(state) != str(branch)
    assert state.current_player() == 1 and branch.current_player() == 0


def test_an_illegal_action_is_refused():
    game = openspiel.load_game(game_path("nim.game"), piles=[2, 1])
    state = game.new_initial_state()
    taken = state.legal_actions()[1]  # (0, 2)
    state.apply_action(taken)
    with pytest.raises(ValueError, match="not a legal move"):
        state.apply_action(taken)
    with pytest.raises(ValueError, match="not a move of Nim"):
        state.apply_action(99)


def test_information_states_hide_the_other_hand():
    game = openspiel.load_game(game_path("xnimmt.game"))
    state = game.new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(actions, probs)[0])
    assert state.is_simultaneous_node()
    mine, theirs = state.information_state_string(0), state.information_state_string(1)
    assert mine != theirs
    assert "?" in mine  # the other player's hand is hidden
