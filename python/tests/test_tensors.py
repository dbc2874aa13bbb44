"""Observation tensors and the fixed action numbering that OpenSpiel and
PettingZoo see, checked on every bundled game."""

import random

import numpy as np
import pytest

import gdl
from test_basics import BUNDLED, random_states


@pytest.mark.parametrize("name", BUNDLED)
def test_actions_number_every_legal_move_in_the_game_s_order(name):
    game = gdl.load(name)
    n = game.num_distinct_actions()
    states, _ = random_states(game, random.Random(5))
    for s in states:
        turn = game.turn(s)
        players = range(game.num_players) if turn == "simultaneous" else [None]
        for p in players:
            moves = game.legal_moves(s, p)
            actions = game.legal_actions(s, p)
            assert actions == sorted(actions) and all(0 <= a < n for a in actions)
            assert [game.action_to_move(a) for a in actions] == moves
            assert [s.move_to_action(m) for m in moves] == actions
        if turn == "chance":
            outcomes = [game.move_to_action(m) for m, _ in game.chance_outcomes(s)]
            assert outcomes == game.legal_actions(s)


@pytest.mark.parametrize("name", BUNDLED)
def test_tensors_have_the_game_s_shape_for_every_player(name):
    game = gdl.load(name)
    shape = game.observation_tensor_shape()
    states, _ = random_states(game, random.Random(6), plays=2)
    for s in states:
        for p in range(game.num_players):
            t = s.observation_tensor(p)
            assert t.shape == shape and t.dtype == np.float32
            # Who views, one-hot, first.
            assert list(t[: game.num_players]) == [float(q == p) for q in range(game.num_players)]
            np.testing.assert_array_equal(t, game.observation_tensor(s, p))


def test_connect_four_numbers_its_columns():
    game = gdl.load("connect4", rows=6)
    assert game.num_distinct_actions() == 7
    assert [str(game.action_to_move(a)) for a in range(7)] == ["1", "2", "3", "4", "5", "6", "7"]
    with pytest.raises(IndexError):
        game.action_to_move(7)


def test_kuhn_poker_numbers_chance_and_players_in_one_space():
    game = gdl.load("kuhn-poker")
    moves = [game.action_to_move(a) for a in range(game.num_distinct_actions())]
    assert [(m.kind, m.args) for m in moves] == [
        ("deal", (1,)),
        ("deal", (2,)),
        ("deal", (3,)),
        ("pass", ()),
        ("bet", ()),
    ]


def test_nim_s_moves_depend_on_play_and_are_found_by_looking_through_it():
    game = gdl.load("nim", piles=[2, 1])
    assert [str(game.action_to_move(a)) for a in range(game.num_distinct_actions())] == [
        "(0, 1)",
        "(0, 2)",
        "(1, 1)",
    ]


def test_a_game_whose_moves_cannot_be_numbered_says_why():
    game = gdl.load("nim", piles=[20] * 6)
    with pytest.raises(gdl.GdlError) as e:
        game.num_distinct_actions()
    message = str(e.value)
    assert "cannot be numbered" in message and "`n` of `take`" in message
    assert "gdl::encode" in message


def test_tic_tac_toe_s_tensor_is_its_board():
    game = gdl.load("tictactoe")
    s = game.initial_state()
    for cell in ["5", "1"]:
        s = game.apply(s, game.parse_move(s, cell))
    t = s.observation_tensor(0)
    # viewer (2), to move (2), free cells (9), then each player's marks:
    # a presence bit and 9 cells.
    assert list(t[2:4]) == [1, 0]  # X to move
    free = t[4:13]
    assert [i + 1 for i in range(9) if free[i] == 0] == [1, 5]
    x_marks, o_marks = t[14:23], t[24:33]
    assert [i + 1 for i in range(9) if x_marks[i]] == [5]
    assert [i + 1 for i in range(9) if o_marks[i]] == [1]


def test_a_hidden_card_is_absent_from_the_other_player_s_tensor():
    game = gdl.load("kuhn-poker")

    def dealt(first, second):
        s = game.initial_state()
        for c in [first, second]:
            s = game.apply(s, game.parse_move(s, f"deal({c})"))
        return s

    a, b = dealt(1, 2), dealt(1, 3)
    # First sees the same in both (its own jack); Second sees its own card.
    np.testing.assert_array_equal(a.observation_tensor(0), b.observation_tensor(0))
    assert not np.array_equal(a.observation_tensor(1), b.observation_tensor(1))
    # And First's card is in First's tensor.
    assert not np.array_equal(dealt(2, 3).observation_tensor(0), b.observation_tensor(0))
