"""A gdl game in the shape of an OpenSpiel game (``pyspiel``), without OpenSpiel.

Code written against OpenSpiel's Python API (``game.new_initial_state()``,
``state.legal_actions()``, ``state.apply_action(a)``, ...) runs on a gdl
game through this facade::

    from gdl import openspiel

    game = openspiel.load_game("games/nim.game", piles=[3, 2, 1])
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.returns()                                # [-1.0, 1.0]

Actions are ints, as in OpenSpiel: each distinct move of the game gets the
next free number the first time a state lists it, so within one game object
an action always means the same move (``action_to_string`` names it), and
``legal_actions`` is sorted. ``num_distinct_actions()`` counts the moves
numbered so far: gdl does not enumerate a game's moves in advance.

Player ids follow OpenSpiel: the player's index, ``CHANCE`` (-1) at a chance
node, ``SIMULTANEOUS`` (-2) when everyone moves at once, ``TERMINAL`` (-4)
at the end.
"""

from __future__ import annotations

from typing import Optional, Sequence

from . import Game as GdlGame
from . import Move
from . import load as _load

__all__ = [
    "CHANCE",
    "INVALID",
    "SIMULTANEOUS",
    "TERMINAL",
    "OpenSpielGame",
    "OpenSpielState",
    "from_game",
    "load_game",
]

# OpenSpiel's special player ids (pyspiel.PlayerId).
CHANCE = -1
SIMULTANEOUS = -2
INVALID = -3
TERMINAL = -4


class OpenSpielGame:
    """A gdl game as OpenSpiel's ``pyspiel.Game``."""

    def __init__(self, game: GdlGame):
        self.game = game
        self._ids: dict[Move, int] = {}
        self._moves: list[Move] = []

    def new_initial_state(self) -> "OpenSpielState":
        return OpenSpielState(self, self.game.initial_state(), [])

    def num_players(self) -> int:
        return self.game.num_players

    def num_distinct_actions(self) -> int:
        """The moves numbered so far (see the module's text)."""
        return len(self._moves)

    def action_id(self, move: Move) -> int:
        """The action of ``move``, numbering it if it is new."""
        found = self._ids.get(move)
        if found is None:
            found = len(self._moves)
            self._ids[move] = found
            self._moves.append(move)
        return found

    def move_of(self, action: int) -> Move:
        """The move that ``action`` numbers."""
        if not 0 <= action < len(self._moves):
            raise ValueError(f"action {action} is not a move of {self.game.name} seen so far")
        return self._moves[action]

    def __str__(self) -> str:
        return self.game.name

    def __repr__(self) -> str:
        return f"<OpenSpielGame {self.game!r}>"


class OpenSpielState:
    """A position as OpenSpiel's ``pyspiel.State``: mutable, ``clone()`` to branch."""

    def __init__(self, game: OpenSpielGame, state, history: list[int]):
        self._game = game
        self._state = state
        self._history = history

    # The position and who acts.

    def get_game(self) -> OpenSpielGame:
        return self._game

    def gdl_state(self):
        """The underlying immutable ``gdl.State``."""
        return self._state

    def current_player(self) -> int:
        turn = self._game.game.turn(self._state)
        if isinstance(turn, int):
            return turn
        return {"chance": CHANCE, "simultaneous": SIMULTANEOUS, "terminal": TERMINAL}[turn]

    def is_terminal(self) -> bool:
        return self._game.game.is_terminal(self._state)

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_simultaneous_node(self) -> bool:
        return self.current_player() == SIMULTANEOUS

    def is_player_node(self) -> bool:
        return self.current_player() >= 0

    def num_players(self) -> int:
        return self._game.num_players()

    # Moves.

    def legal_actions(self, player: Optional[int] = None) -> list[int]:
        """The legal actions, sorted; at a simultaneous node, of ``player``."""
        if self.is_terminal():
            return []
        if player is not None and player < 0:
            player = None
        if player is not None and self.current_player() not in (player, SIMULTANEOUS):
            return []
        moves = self._game.game.legal_moves(self._state, player)
        return sorted(self._game.action_id(m) for m in moves)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node: (action, probability) for every outcome."""
        outcomes = self._game.game.chance_outcomes(self._state)
        return sorted((self._game.action_id(m), p) for m, p in outcomes)

    def apply_action(self, action: int) -> None:
        """Plays ``action`` (a player's move or a chance outcome)."""
        move = self._game.move_of(action)
        self._state = self._game.game.apply(self._state, move)
        self._history.append(action)

    def apply_actions(self, actions: Sequence[int]) -> None:
        """At a simultaneous node: one action per player, at once."""
        moves = [self._game.move_of(a) for a in actions]
        self._state = self._game.game.apply_joint(self._state, moves)
        self._history.extend(actions)

    def action_to_string(self, player: int, action: int) -> str:
        """The move in the game's notation: ``(0, 1)``."""
        return str(self._game.move_of(action))

    def string_to_action(self, text: str, player: Optional[int] = None) -> int:
        """The legal action written ``text`` (``"(0, 1)"``)."""
        if player is not None and player < 0:
            player = None
        return self._game.action_id(self._game.game.parse_move(self._state, text, player))

    def history(self) -> list[int]:
        """The actions played so far, chance outcomes included."""
        return list(self._history)

    # What the players see and get.

    def information_state_string(self, player: Optional[int] = None) -> str:
        """What ``player`` (default: the one to move) sees of the position:
        gdl's observation, which hides other players' hands and the deck."""
        return self._game.game.observation(self._state, self._viewer(player))

    def observation_string(self, player: Optional[int] = None) -> str:
        return self.information_state_string(player)

    def _viewer(self, player: Optional[int]) -> int:
        if player is None:
            player = self.current_player()
        if player < 0:
            raise ValueError("name the player whose view is wanted")
        return player

    def returns(self) -> list[float]:
        """Each player's return: the game's utilities at the end, 0 before."""
        if not self.is_terminal():
            return [0.0] * self.num_players()
        return self._game.game.returns(self._state)

    def clone(self) -> "OpenSpielState":
        # gdl states are immutable: sharing one is safe.
        return OpenSpielState(self._game, self._state, list(self._history))

    def __str__(self) -> str:
        return str(self._state)

    def __repr__(self) -> str:
        return f"<OpenSpielState {self._state}>"


def load_game(path: str, **params) -> OpenSpielGame:
    """Loads a game file as an OpenSpiel-style game (``pyspiel.load_game``)."""
    return OpenSpielGame(_load(path, **params))


def from_game(game: GdlGame) -> OpenSpielGame:
    """A loaded gdl game as an OpenSpiel-style game."""
    return OpenSpielGame(game)
