"""gdl from Python: game files compiled and run by gdl's Rust library.

    >>> import gdl
    >>> g = gdl.load("nim", piles=[7, 5, 3, 1])      # a bundled game, or a path
    >>> s = g.initial_state()
    >>> g.legal_moves(s)[:3]
    [<gdl.Move (0, 1)>, <gdl.Move (0, 2)>, <gdl.Move (0, 3)>]
    >>> g.solve()["winner"]
    'MIN'

``gdl.openspiel`` registers the games with OpenSpiel, ``gdl.pettingzoo``
makes them PettingZoo environments, ``gdl.aima`` AIMA games and
``gdl.easyai`` easyAI games; ``gdl.VectorEnv`` steps many games at
once in Rust and ``gdl.gym`` makes them Gymnasium environments. docs/PYTHON.md in the repository has the whole API.
"""

from ._gdl import (
    Agent,
    GdlError,
    Game,
    Move,
    State,
    __version__,
    agent,
    list_games,
    load,
    max_memory,
    set_max_memory,
)
from .report import ExplainedMove, SolveReport
from .vector import VectorEnv

__all__ = [
    "Agent",
    "ExplainedMove",
    "GdlError",
    "Game",
    "Move",
    "SolveReport",
    "State",
    "VectorEnv",
    "agent",
    "list_games",
    "load",
    "max_memory",
    "set_max_memory",
    "__version__",
]
