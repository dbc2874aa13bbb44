"""A gdl game as an AIMA ``Game`` (the ``Game`` class of aima-python's games.py).

AIMA's searches (``alpha_beta_search``, ``minmax_decision``, the players of
``play_game``) ask a game for ``actions``, ``result``, ``utility``,
``terminal_test``, ``to_move`` and ``display``, and read ``initial``. This
adapter answers each from gdl, so a ``.game`` file plays where a course's
hand-written ``Game`` subclass would::

    import gdl
    from gdl.aima import as_aima
    from games import Game, alpha_beta_search     # AIMA's games.py

    nim = as_aima(gdl.load("games/nim.game", piles=[7, 5, 3, 1]), base=Game)
    alpha_beta_search(nim.initial, nim)           # -> (0, 1), a move of Nim

States are gdl's (immutable, hashable). Actions are plain Python values when
the game has one kind of move, as AIMA's own games write them: a tuple of the
move's arguments, ``(row, n)`` for Nim, or the number alone for a move with
one argument. A game with several kinds of move has ``gdl.Move`` objects as
actions. Players are named as the game file names them (``"MAX"``,
``"MIN"``). The adapter serves turn-taking games: AIMA's ``Game`` has no
chance or simultaneous moves, and ``as_aima`` refuses a game that has them.
``utility`` of a position that is not over (where
``alpha_beta_cutoff_search`` stops at its depth, with its default
``eval_fn``) is the game's ``evaluate`` function; a game without one says
so (give the search an ``eval_fn``). Under a repetition rule (``end when repeated
N``) a state keeps the positions before it, so ``result`` ends the game on
the move that reaches a position the Nth time.
"""

from __future__ import annotations

from typing import Any, Optional

from . import Game as GdlGame
from . import Move, State

__all__ = ["DEFAULT_CACHE_SIZE", "AimaGame", "as_aima"]

# A depth-first search asks for a state's actions, then for the result of
# each: the moves of the states on its path must be remembered to map an
# action back to gdl's move. States met again (transpositions) are answered
# from the same table while it holds them.
DEFAULT_CACHE_SIZE = 4096


class AimaGame:
    """A gdl game with the methods of AIMA's ``Game``; see the module's text."""

    def __init__(self, game: GdlGame, cache_size: int = DEFAULT_CACHE_SIZE):
        if cache_size < 1:
            raise ValueError("cache_size must be at least 1")
        if game.has_chance or game.has_simultaneous:
            kind = " and ".join(
                k for k, has in [("chance moves", game.has_chance), ("simultaneous moves", game.has_simultaneous)] if has
            )
            raise ValueError(
                f"{game.name} has {kind}, which AIMA's Game cannot describe (its players take turns, "
                "and nothing is left to chance): play it through gdl.Game, gdl.openspiel or gdl.pettingzoo"
            )
        self.game = game
        self._cache_size = cache_size
        self.initial = game.initial_state()
        # A game with one kind of move writes its moves as their arguments.
        self._plain = len(game.move_kinds) == 1
        self._repeats = game.repetition is not None
        # state -> {action: gdl.Move}, for the states whose actions were asked.
        self._moves: dict[State, dict[Any, Move]] = {}

    def _action(self, move: Move) -> Any:
        if not self._plain:
            return move
        args = move.args
        return args[0] if len(args) == 1 else args

    def _move_table(self, state: State) -> dict[Any, Move]:
        # Under a repetition rule a position reached the Nth time is over,
        # though equal (as a dict key) to the same position before it.
        if self._repeats and self.game.is_terminal(state):
            return {}
        table = self._moves.get(state)
        if table is None:
            if len(self._moves) >= self._cache_size:
                self._moves.clear()
            table = {self._action(m): m for m in self.game.legal_moves(state)}
            self._moves[state] = table
        return table

    def actions(self, state: State) -> list:
        """The legal moves, in the game's order."""
        return list(self._move_table(state))

    def result(self, state: State, move: Any) -> State:
        """The state after ``move``; an illegal move raises ValueError."""
        if isinstance(move, Move):
            return self.game.apply(state, move)
        found = self._move_table(state).get(move)
        if found is None:
            raise ValueError(f"{move!r} is not a legal move in {state}")
        return self.game.apply(state, found)

    def utility(self, state: State, player: Any) -> float:
        """The value of a finished game for ``player`` (a name such as
        ``"MAX"``, or an index): 1 for a win, -1 for a loss in Nim. Of a
        game not over, the game's ``evaluate`` function's estimate, as
        ``alpha_beta_cutoff_search`` asks at its depth limit; a game
        without one raises ValueError."""
        index = player if isinstance(player, int) else self.game.players.index(player)
        if self.game.is_terminal(state):
            return self.game.returns(state)[index]
        estimate = self.game.evaluate(state, index)
        if estimate is None:
            raise ValueError(
                f"the game is not over in {state.raw}, and {self.game.name} has no `evaluate` function to "
                "estimate it: give alpha_beta_cutoff_search an eval_fn, or search to the end"
            )
        return estimate

    def terminal_test(self, state: State) -> bool:
        return self.game.is_terminal(state)

    def to_move(self, state: State) -> Optional[str]:
        """The name of the player to move. Once the game is over, the one
        who would have moved next, as games.py's own games answer (its
        ``monte_carlo_tree_search`` asks at a finished game, and scores the
        end for that player); None only where the game names nobody."""
        turn = self.game.turn(state)
        if isinstance(turn, int):
            return self.game.players[turn]
        if turn == "terminal":
            p = self.game.turn(state, recorded=True)
            return None if p is None else self.game.players[p]
        raise ValueError(f"{turn} moves in {state}: AIMA's Game has turn-taking players only")

    def display(self, state: State) -> None:
        """Prints the position as the course's games do: ``board: [7, 5, 3, 1]``."""
        print(", ".join(f"{name}: {value}" for name, value in self.game.view(state).items()))

    def __repr__(self) -> str:
        return f"<AimaGame {self.game.name}>"


def as_aima(game: GdlGame, base: Optional[type] = None, cache_size: int = DEFAULT_CACHE_SIZE) -> AimaGame:
    """``game`` as an AIMA game. Give AIMA's ``Game`` class as ``base`` to
    get an instance of a subclass of it: ``isinstance`` holds, and methods
    the adapter does not define (``play_game``) are AIMA's own.
    ``cache_size`` is how many states' moves the adapter remembers."""
    if base is None:
        return AimaGame(game, cache_size)
    cls = type(f"Aima{base.__name__}", (AimaGame, base), {})
    return cls(game, cache_size)
