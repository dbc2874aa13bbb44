"""A gdl game as an easyAI TwoPlayerGame: easyAI's Negamax plays Nim as
gdl's solver says it should."""

import pytest
from easyAI import AI_Player, Negamax

import gdl
from gdl.easyai import EasyAIGame


@pytest.mark.parametrize("piles", [[3, 2, 1], [4, 1], [2, 2, 1], [3, 3]])
def test_negamax_chooses_an_optimal_nim_move(piles):
    g = gdl.load("nim", piles=piles)
    game = EasyAIGame(g, [AI_Player(Negamax(12)), AI_Player(Negamax(12))])
    move = game.get_move()
    report = g.solve()
    if report["value"] > 0:
        assert move in report["best_moves"]


def test_negamax_plays_nim_to_the_end_and_the_winner_is_the_solver_s():
    g = gdl.load("nim", piles=[3, 2, 2])
    game = EasyAIGame(g, [AI_Player(Negamax(12)), AI_Player(Negamax(12))])
    game.play(verbose=False)
    assert game.is_over()
    returns = g.returns(game.state)
    winner = g.players[returns.index(1.0)]
    assert winner == g.solve()["winner"]


def test_games_easyai_cannot_play_are_refused():
    with pytest.raises(ValueError, match="two players who take turns"):
        EasyAIGame(gdl.load("goofspiel"), [])
