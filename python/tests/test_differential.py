"""Differential tests against OpenSpiel: random games of the board games in
games/ that follow OpenSpiel's implementation of the same name (chess,
checkers, othello, breakthrough, amazons, gomoku), played in gdl and in pyspiel at
once, the same move chosen in both. At every step the legal moves (mapped
between gdl's moves and OpenSpiel's actions by the tables below, not by
gdl's own numbering), whether the game is over and the player to move must
agree; at the end, the returns.

Where OpenSpiel splits one turn into several actions (Amazons: from, to,
arrow), the test follows the split: gdl's whole turns, grouped by their
first parts, give the actions OpenSpiel must offer at each sub-step, the
same player moving throughout. Checkers' multi-jumps need no grouping: gdl
plays them as OpenSpiel does, one jump a move, the same player moving again.

Each game is played on OpenSpiel's default board (gdl's default too), and
Amazons, Breakthrough and Checkers on a few other boards both take. The
default numbers of games (`default_games`: 40 of chess to 200 of checkers)
keep the file to about 5 s on the 2-core development machine (30 s
while other work loaded it). More, and other seeds:

    GDL_DIFF_GAMES=10000 pytest -q python/tests/test_differential.py

plays 10,000 games of each (seeds 0 to 9,999: 26 minutes for the five
default boards on the 2-core development machine while other work ran,
chess 15 of them and 10×10 Amazons 9; the other boards add about 6, most
of it 8×8 Amazons); GDL_DIFF_SEED=S starts the seeds at S, and GDL_DIFF_ENGINE=vm
plays gdl's rules in the interpreter rather than the compiled code. A
failure names the game, the seed and the moves played, in gdl's notation
and as OpenSpiel's actions, and shows both positions; `play(name, seed)`
replays one game.
"""

import os
import random
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Tuple

import pyspiel
import pytest
from pyspiel import chess as os_chess

import gdl
from conftest import game_path


@dataclass(frozen=True)
class Pair:
    """One game in both: how a gdl move reads as OpenSpiel's actions."""

    gdl_file: str
    openspiel: str
    # gdl's player index -> OpenSpiel's player number.
    players: Tuple[int, ...]
    # A gdl move's arguments -> the key of each OpenSpiel action of its turn.
    gdl_keys: Callable[[tuple], tuple]
    # OpenSpiel's state and one of its legal actions -> that action's key.
    # Keys are what the two sides are compared by.
    openspiel_key: Callable[[object, int], object] = lambda state, action: action
    gdl_params: Dict[str, object] = field(default_factory=dict)
    openspiel_params: Dict[str, object] = field(default_factory=dict)
    # Whether OpenSpiel's legal actions come in gdl's order (each group's
    # first keys in the order gdl lists them), as the game file says.
    ordered: bool = True
    # Games played by default: the slow ones fewer.
    default_games: int = 20


def iccf(square: int) -> str:
    """An ICCF square (file digit, rank digit: 52 is e2) as 'e2'."""
    return "abcdefgh"[square // 10 - 1] + str(square % 10)


def chess_keys(args: tuple) -> tuple:
    # (from, to, promotion) -> long algebraic notation, as OpenSpiel writes
    # its moves (castling as the king's two-square move: e1g1).
    frm, to, promotion = args
    return (iccf(frm) + iccf(to) + ("", "q", "r", "b", "n")[promotion],)


def chess_action(state, action: int) -> str:
    return os_chess.action_to_move(action, state.board()).to_lan()


def checkers_keys(args: tuple) -> tuple:
    # (from, dir, capture) -> OpenSpiel's (4 * from + dir) * 2 + capture.
    frm, direction, capture = args
    return ((4 * frm + direction) * 2 + int(capture),)


def breakthrough_keys(args: tuple) -> tuple:
    # (from, dir, capture) -> OpenSpiel's (6 * from + dir) * 2 + capture.
    frm, direction, capture = args
    return ((6 * frm + direction) * 2 + int(capture),)


def othello_keys(size: int) -> Callable[[tuple], tuple]:
    # place(cell) -> cell; pass -> size * size.
    return lambda args: (args[0] if args else size * size,)


def amazons_keys(args: tuple) -> tuple:
    # (from, to, arrow) -> OpenSpiel's three actions, each a cell.
    return tuple(args)


# gdl's Amazons board side: the file's default, checked below to be
# OpenSpiel's default board_size.
AMAZONS_SIZE = 10

GAMES = {
    "chess": Pair("chess.game", "chess", players=(1, 0), gdl_keys=chess_keys, openspiel_key=chess_action,
                  ordered=False, default_games=40),
    "checkers": Pair("checkers.game", "checkers", players=(0, 1), gdl_keys=checkers_keys, default_games=200),
    "othello": Pair("othello.game", "othello", players=(0, 1), gdl_keys=othello_keys(8), default_games=100),
    "breakthrough": Pair("breakthrough.game", "breakthrough", players=(0, 1), gdl_keys=breakthrough_keys,
                         default_games=200),
    "amazons": Pair("amazons.game", "amazons", players=(0, 1), gdl_keys=amazons_keys,
                    gdl_params={"size": AMAZONS_SIZE}, openspiel_params={"board_size": AMAZONS_SIZE},
                    default_games=20),
    "gomoku": Pair("gomoku.game", "gomoku", players=(0, 1), gdl_keys=lambda args: args, default_games=40),
}

# The same rules on other boards that both sides take: smaller Amazons
# boards (OpenSpiel places the amazons as gdl does), Breakthrough with one
# row of pawns each, Checkers on an odd, a narrow and a larger board (not
# a wider one: OpenSpiel's checkers keeps the jumping piece as
# row * rows + column, which checkers.game's header explains).
VARIANTS = {
    "amazons-8x8": Pair("amazons.game", "amazons", players=(0, 1), gdl_keys=amazons_keys,
                        gdl_params={"size": 8}, openspiel_params={"board_size": 8}, default_games=20),
    "amazons-6x6": Pair("amazons.game", "amazons", players=(0, 1), gdl_keys=amazons_keys,
                        gdl_params={"size": 6}, openspiel_params={"board_size": 6}, default_games=50),
    "breakthrough-5x3": Pair("breakthrough.game", "breakthrough", players=(0, 1), gdl_keys=breakthrough_keys,
                             gdl_params={"rows": 5, "columns": 3}, openspiel_params={"rows": 5, "columns": 3},
                             default_games=100),
    "breakthrough-6x5": Pair("breakthrough.game", "breakthrough", players=(0, 1), gdl_keys=breakthrough_keys,
                             gdl_params={"rows": 6, "columns": 5}, openspiel_params={"rows": 6, "columns": 5},
                             default_games=100),
    "checkers-7x7": Pair("checkers.game", "checkers", players=(0, 1), gdl_keys=checkers_keys,
                         gdl_params={"rows": 7, "columns": 7}, openspiel_params={"rows": 7, "columns": 7},
                         default_games=100),
    "checkers-8x6": Pair("checkers.game", "checkers", players=(0, 1), gdl_keys=checkers_keys,
                         gdl_params={"rows": 8, "columns": 6}, openspiel_params={"rows": 8, "columns": 6},
                         default_games=100),
    "checkers-10x10": Pair("checkers.game", "checkers", players=(0, 1), gdl_keys=checkers_keys,
                           gdl_params={"rows": 10, "columns": 10}, openspiel_params={"rows": 10, "columns": 10},
                           default_games=50),
    "gomoku-9x9": Pair("gomoku.game", "gomoku", players=(0, 1), gdl_keys=lambda args: args,
                       gdl_params={"size": 9}, openspiel_params={"size": 9}, default_games=100),
    "gomoku-7x7-connect-4": Pair("gomoku.game", "gomoku", players=(0, 1), gdl_keys=lambda args: args,
                                 gdl_params={"size": 7, "connect": 4}, openspiel_params={"size": 7, "connect": 4},
                                 default_games=100),
}


def games_to_play(pair: Pair) -> int:
    return int(os.environ.get("GDL_DIFF_GAMES", pair.default_games))


def first_seed() -> int:
    return int(os.environ.get("GDL_DIFF_SEED", 0))


PAIRS = {**GAMES, **VARIANTS}

_loaded: Dict[str, tuple] = {}


def load(name: str):
    if name not in _loaded:
        pair = PAIRS[name]
        engine = os.environ.get("GDL_DIFF_ENGINE") or None
        ours = gdl.load(game_path(pair.gdl_file), engine=engine, **pair.gdl_params)
        theirs = pyspiel.load_game(pair.openspiel, pair.openspiel_params)
        _loaded[name] = (ours, theirs)
    return _loaded[name]


class Difference(AssertionError):
    pass


def play(name: str, seed: int) -> int:
    """Plays one random game (the moves drawn from `random.Random(seed)`)
    in both, comparing as it goes; raises `Difference` at the first
    disagreement. Returns the number of gdl moves played."""
    pair = PAIRS[name]
    ours, theirs = load(name)
    rng = random.Random(seed)
    s = ours.initial_state()
    t = theirs.new_initial_state()
    played: List[str] = []

    def differ(what: str) -> Difference:
        return Difference(
            f"{name}, seed {seed}, after {len(played)} moves: {what}\n"
            f"gdl moves: {played}\nOpenSpiel actions: {t.history()}\n"
            f"gdl position: {s}\nOpenSpiel position:\n{t}"
        )

    while True:
        over = ours.is_terminal(s)
        if over != t.is_terminal():
            raise differ(f"gdl says the game is {'' if over else 'not '}over, OpenSpiel the opposite")
        if over:
            ours_returns = ours.returns(s)
            theirs_returns = t.returns()
            mapped = [theirs_returns[pair.players[i]] for i in range(len(pair.players))]
            if [float(x) for x in ours_returns] != [float(x) for x in mapped]:
                raise differ(f"returns differ: gdl {ours_returns}, OpenSpiel {mapped} (in gdl's player order)")
            return len(played)
        mover = ours.turn(s)
        if not isinstance(mover, int):
            raise differ(f"gdl's turn is {mover!r}")
        moves = ours.legal_moves(s)
        if not moves:
            raise differ("gdl has no legal move, yet says the game is not over")
        keys = [pair.gdl_keys(m.args) for m in moves]
        chosen = rng.randrange(len(moves))
        # One OpenSpiel action per part of the turn.
        for part in range(len(keys[chosen])):
            if t.is_terminal():
                raise differ(f"OpenSpiel's game ended in the middle of a turn (part {part})")
            if t.current_player() != pair.players[mover]:
                raise differ(
                    f"player to move: gdl {ours.players[mover]} (OpenSpiel's {pair.players[mover]}), "
                    f"OpenSpiel {t.current_player()}" + (f", at part {part} of the turn" if part else "")
                )
            prefix = keys[chosen][:part]
            expected: List[object] = []
            for k in keys:
                if k[:part] == prefix and (not expected or expected[-1] != k[part]):
                    expected.append(k[part])
            actions = t.legal_actions()
            by_key = {pair.openspiel_key(t, a): a for a in actions}
            offered = [pair.openspiel_key(t, a) for a in actions]
            if len(by_key) != len(actions):
                raise differ(f"OpenSpiel's actions {actions} share keys: {offered}")
            if len(set(expected)) != len(expected):
                raise differ(f"gdl's moves map to one action more than once at part {part}: {expected}")
            if set(expected) != set(by_key):
                only_ours = sorted(set(expected) - set(by_key), key=str)
                only_theirs = sorted(set(by_key) - set(expected), key=str)
                raise differ(
                    f"legal moves differ at part {part} of the turn (after {prefix}): "
                    f"only gdl has {only_ours}, only OpenSpiel has "
                    f"{[(k, t.action_to_string(by_key[k])) for k in only_theirs]}"
                )
            if pair.ordered and expected != offered:
                raise differ(f"legal moves in another order at part {part}: gdl {expected}, OpenSpiel {offered}")
            t.apply_action(by_key[keys[chosen][part]])
        played.append(str(moves[chosen]))
        s = ours.apply(s, moves[chosen])


def test_amazons_sizes_agree():
    # The board sizes compared are each side's default.
    assert gdl.load(game_path("amazons.game")).params["size"] == str(AMAZONS_SIZE)
    assert pyspiel.load_game("amazons").get_parameters()["board_size"] == AMAZONS_SIZE


@pytest.mark.parametrize("name", list(GAMES))
def test_random_games_agree_with_openspiel(name):
    start = first_seed()
    for seed in range(start, start + games_to_play(GAMES[name])):
        play(name, seed)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_other_boards_agree_with_openspiel(name):
    start = first_seed()
    for seed in range(start, start + games_to_play(VARIANTS[name])):
        play(name, seed)
