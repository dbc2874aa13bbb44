"""The types of what ``gdl.Game.solve()`` returns: a dict with the keys of
``gdl solve --json``, typed for editors and type checkers.

    >>> report = gdl.load("nim", piles=[3, 2]).solve()
    >>> report["value"], report["winner"], report["best_moves"]
    (1.0, 'MAX', ['(0, 1)'])
"""

from __future__ import annotations

from typing import Optional, TypedDict

__all__ = ["ExplainedMove", "SolveReport"]


class ExplainedMove(TypedDict):
    """One legal move of the solved position (``solve(explain=True)``)."""

    move: str
    """The move in the game's notation: ``(0, 1)``."""
    value: float
    """The position's value after it, for the player to move before it."""
    line: list[str]
    """The best play after it, move by move."""


class _SolveReport(TypedDict):
    game: str
    """The game's name, as its file declares it."""
    params: dict[str, str]
    """The parameters and their values, as gdl prints them."""
    position: str
    """The position solved, without whose move it is."""
    to_move: str
    """The name of the player to move there."""
    value: float
    """The value for the first player with best play: 1 a win, -1 a loss, 0 a draw (or the payoff)."""
    winner: Optional[str]
    """The name of the player who wins with best play; None for a draw."""
    best_moves: list[str]
    """Every move that keeps the value, in the game's notation."""
    pv: list[str]
    """The principal line: best play to the end."""
    length: int
    """How many moves the principal line has."""
    fast: bool
    """Whether wins were preferred fast and losses slow."""
    nodes: int
    """Positions the search visited."""
    states: int
    """Distinct positions among them."""
    memo_entries: int
    memo_hits: int
    search: str
    """The algorithm and its options, in words."""
    seconds: float
    """The search's time."""
    wall_seconds: float
    """The call's time."""


class SolveReport(_SolveReport, total=False):
    """What ``gdl.Game.solve()`` returns (a plain dict at run time)."""

    explain: list[ExplainedMove]
    """Only with ``explain=True``: every legal move with its value."""
