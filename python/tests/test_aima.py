"""A gdl game as an AIMA Game: AIMA's alpha_beta_search runs on it and plays
as it plays the course's hand-written GameOfNim (seed 001)."""

import random

import pytest

import gdl
from aima_games import Game, alpha_beta_player, alpha_beta_search, monte_carlo_tree_search, random_player
from conftest import game_path
from game_of_nim import GameOfNim
from gdl.aima import AimaGame, as_aima


def nim(piles):
    return gdl.load(game_path("nim.game"), piles=piles)


# Small enough for a search without a memo table to take a moment.
POSITIONS = [[3, 2, 1], [4, 3, 2], [3, 3, 1], [2, 2], [1, 1, 1], [5, 1], [4, 2, 1]]


@pytest.mark.parametrize("piles", POSITIONS)
def test_alpha_beta_picks_an_optimal_move(piles):
    g = nim(piles)
    game = as_aima(g, base=Game)
    move = alpha_beta_search(game.initial, game)
    report = g.solve()
    assert f"({move[0]}, {move[1]})" in report["best_moves"]
    # The move AIMA chose keeps the value the solver found.
    after = g.apply(game.initial, g.parse_move(game.initial, str(move)))
    assert g.solve(after)["value"] == report["value"]


@pytest.mark.parametrize("piles", POSITIONS)
def test_alpha_beta_chooses_as_it_does_on_the_hand_written_game(piles):
    ours, theirs = as_aima(nim(piles)), GameOfNim(piles)
    assert alpha_beta_search(ours.initial, ours) == alpha_beta_search(theirs.initial, theirs)


def test_both_games_agree_along_random_games():
    rng = random.Random(7)
    for _ in range(30):
        ours, theirs = as_aima(nim([4, 3, 2, 1])), GameOfNim([4, 3, 2, 1])
        a, b = ours.initial, theirs.initial
        while not theirs.terminal_test(b):
            assert not ours.terminal_test(a)
            assert ours.actions(a) == theirs.actions(b)
            assert ours.to_move(a) == theirs.to_move(b)
            move = rng.choice(theirs.actions(b))
            a, b = ours.result(a, move), theirs.result(b, move)
        assert ours.terminal_test(a)
        # At the end too: the one who would move next, as games.py's games say.
        assert ours.to_move(a) == theirs.to_move(b)
        for player in ("MAX", "MIN"):
            assert ours.utility(a, player) == theirs.utility(b, player)


def test_alpha_beta_wins_a_winning_position_against_anyone(capsys):
    random.seed(3)
    game = as_aima(nim([4, 3, 2]), base=Game)
    assert isinstance(game, Game) and isinstance(game, AimaGame)
    for _ in range(5):
        assert game.play_game(alpha_beta_player, random_player) == 1
    # AIMA's play_game shows the last position with the adapter's display.
    assert capsys.readouterr().out.splitlines()[-1] == "board: [0, 0, 0]"


def test_display_shows_the_board_as_the_seed_does(capsys):
    game = as_aima(nim([7, 5, 3, 1]))
    game.display(game.initial)
    assert capsys.readouterr().out == "board: [7, 5, 3, 1]\n"


def test_actions_of_a_game_with_one_argument_are_numbers():
    game = as_aima(gdl.load(game_path("select19.game")))
    assert game.actions(game.initial) == list(range(1, 10))
    after = game.result(game.initial, 3)
    assert game.actions(after) == [6, 8]
    assert game.to_move(after) == "B"
    with pytest.raises(ValueError, match="not a legal move"):
        game.result(after, 4)


@pytest.mark.parametrize("piles", [[3, 2, 1], [4, 1], [2, 2, 1], [5, 2]])
def test_monte_carlo_tree_search_finds_the_winning_move(piles):
    # games.py's MCTS asks to_move of finished games and scores them for
    # that player; with enough playouts it finds a winning move of Nim.
    g = nim(piles)
    report = g.solve()
    game = as_aima(g, base=Game)
    move = monte_carlo_tree_search(game.initial, game, N=2000, rng=random.Random(1))
    assert move in game.actions(game.initial)
    if report["value"] > 0:
        assert f"({move[0]}, {move[1]})" in report["best_moves"]


def test_monte_carlo_tree_search_plays_as_on_the_hand_written_game():
    ours, theirs = as_aima(nim([3, 3, 1])), GameOfNim([3, 3, 1])
    a = monte_carlo_tree_search(ours.initial, ours, N=500, rng=random.Random(4))
    b = monte_carlo_tree_search(theirs.initial, theirs, N=500, rng=random.Random(4))
    assert a == b


def test_alpha_beta_cutoff_search_scores_its_depth_limit_by_the_game_s_evaluate():
    from aima_games import alpha_beta_cutoff_search

    game = gdl.load("connect4", rows=4, cols=5)
    aima = as_aima(game, base=Game)
    state = aima.initial
    # A position that is not over is scored by the game's `evaluate`
    # (utility() once crashed on it, issue 42, item 10).
    assert not aima.terminal_test(state)
    assert aima.utility(state, "X") == game.evaluate(state, 0)
    assert alpha_beta_cutoff_search(state, aima, d=2) in aima.actions(state)
    # Three in column 1 for X, three in column 2 for O: X wins at once.
    for column in [1, 2, 1, 2, 1, 2]:
        state = aima.result(state, column)
    assert alpha_beta_cutoff_search(state, aima, d=1) == 1
    # At the end, the returns.
    won = aima.result(state, 1)
    assert aima.utility(won, "X") == 1 and game.evaluate(won, 1) == -1


def test_utility_of_a_game_without_evaluate_before_its_end_says_what_to_do():
    from aima_games import alpha_beta_cutoff_search

    aima = as_aima(nim([3, 2, 1]), base=Game)
    with pytest.raises(ValueError, match="has no `evaluate` function.*give alpha_beta_cutoff_search an eval_fn"):
        alpha_beta_cutoff_search(aima.initial, aima, d=1)
    # Searched to the end, it needs none; an eval_fn of one's own serves too.
    assert alpha_beta_cutoff_search(aima.initial, aima, d=10) == alpha_beta_search(aima.initial, aima)
    assert alpha_beta_cutoff_search(aima.initial, aima, d=1, eval_fn=lambda s: 0) in aima.actions(aima.initial)


@pytest.mark.parametrize(
    "name,kind", [("kuhn-poker", "chance moves"), ("goofspiel", "chance moves and simultaneous moves"), ("backgammon", "chance moves")]
)
def test_a_game_with_chance_or_simultaneous_moves_is_refused(name, kind):
    with pytest.raises(ValueError, match=f"has {kind}, which AIMA's Game cannot describe"):
        as_aima(gdl.load(name))
