"""A gdl game as an easyAI ``TwoPlayerGame``.

easyAI's players (``AI_Player(Negamax(depth))``, ``Human_Player``) play a
gdl game of two players who take turns, without chance::

    import gdl
    from easyAI import AI_Player, Human_Player, Negamax
    from gdl.easyai import EasyAIGame

    game = EasyAIGame(gdl.load("nim", piles=[3, 2, 1]), [AI_Player(Negamax(10)), Human_Player()])
    game.play()

Moves are the game's notation (``"(0, 1)"``), as a person types them;
``scoring()`` is the game's return for the player to move once it is over
(0 before: Negamax must search to the end, or the game must give an
``evaluate`` function, which gdl's own searches read). A move that lets the
same player move again (Kalah's) is followed: ``switch_player`` asks gdl
who moves next. easyAI's Negamax assumes the players alternate, so its
values are right for games that keep to that.
"""

from __future__ import annotations

from typing import Any, Optional

try:
    from easyAI import TwoPlayerGame
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError("gdl.easyai needs easyAI: pip install easyAI") from e

import gdl

__all__ = ["EasyAIGame"]


class EasyAIGame(TwoPlayerGame):
    """A gdl game with easyAI's ``TwoPlayerGame`` methods (see the module's text)."""

    def __init__(self, game: gdl.Game, players: list, state: Optional[gdl.State] = None):
        if game.num_players != 2 or game.has_chance or game.has_simultaneous:
            raise ValueError(
                f"{game.name}: easyAI plays two players who take turns, without chance or simultaneous moves"
            )
        self.game = game
        self.players = players
        self.state = state if state is not None else game.initial_state()
        self.current_player = self.game.turn(self.state) + 1

    def possible_moves(self) -> list[str]:
        return [str(m) for m in self.game.legal_moves(self.state)]

    def make_move(self, move: Any) -> None:
        if not isinstance(move, gdl.Move):
            move = self.game.parse_move(self.state, str(move))
        self.state = self.game.apply(self.state, move)

    def is_over(self) -> bool:
        return self.game.is_terminal(self.state)

    def switch_player(self) -> None:
        turn = self.game.turn(self.state)
        # Over: the one who would move next, as easyAI's alternation has it.
        self.current_player = turn + 1 if isinstance(turn, int) else self.opponent_index

    def scoring(self) -> float:
        if not self.is_over():
            return 0.0
        return self.game.returns(self.state)[self.current_player - 1]

    def show(self) -> None:
        print(self.state)

    def ttentry(self) -> gdl.State:
        return self.state

    def ttrestore(self, entry: gdl.State) -> None:
        self.state = entry
        turn = self.game.turn(entry)
        if isinstance(turn, int):
            self.current_player = turn + 1
