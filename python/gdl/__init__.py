"""gdl from Python: game files compiled and run by gdl's Rust library.

    >>> import gdl
    >>> g = gdl.load("games/nim.game", piles=[7, 5, 3, 1])
    >>> s = g.initial_state()
    >>> g.legal_moves(s)[:3]
    [<gdl.Move (0, 1)>, <gdl.Move (0, 2)>, <gdl.Move (0, 3)>]
    >>> g.solve()["winner"]
    'MIN'

``gdl.aima`` makes a game an AIMA ``Game``; ``gdl.openspiel`` gives it
OpenSpiel's shape. docs/PYTHON.md in the repository has the whole API.
"""

from ._gdl import Agent, GdlError, Game, Move, State, __version__, agent, load

__all__ = ["Agent", "GdlError", "Game", "Move", "State", "agent", "load", "__version__"]
