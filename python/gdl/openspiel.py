"""gdl games as OpenSpiel games: registered with ``pyspiel.register_game``.

Importing this module registers every game bundled with gdl under the name
``gdl_<name>`` (``gdl_tictactoe``, ``gdl_kuhn_poker``, ...), as a
Python-defined OpenSpiel game (``pyspiel.Game`` / ``pyspiel.State``
subclasses, as OpenSpiel's own ``python_kuhn_poker``), so OpenSpiel's
algorithms run on it unchanged, C++ and Python alike::

    import pyspiel
    import gdl.openspiel

    game = pyspiel.load_game("gdl_connect4", {"rows": 4, "cols": 5})
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])

``register(path)`` registers a game file of your own (under ``gdl_<stem>``,
or with a hash of its path added where a bundled game or another file has
that name); ``load_game(name_or_path, **params)`` does both. The game's parameters are OpenSpiel's: an int, a
bool, or the text of a list, its elements apart by spaces
(``{"piles": "[3 2 1]"}``: OpenSpiel's game strings split at commas).

What OpenSpiel sees:

- actions: every move the game can ever make, numbered densely in the
  game's order (``gdl.Game.num_distinct_actions``); chance outcomes are
  numbered in the same space, so ``max_chance_outcomes`` is the same number;
- ``GameType``: dynamics simultaneous when some move is, else sequential;
  chance explicit when some move is by chance; information imperfect when
  some state is ``hidden`` or ``private`` or moves are simultaneous; utility
  zero-sum for two players or scores, else general-sum; rewards at the end;
- ``GameInfo``: ``max_game_length`` is never guessed. It is the game
  file's ``max moves N`` where it declares one (connect four's
  ``rows * cols``); else counted, where gdl can look through every position
  (up to 200,000; under a repetition rule ``end when repeated N`` a game is
  no longer than N - 1 times the number of positions); else the parameter
  ``max_game_length`` given; else loading the game is refused, with an
  error that says to give it. A given one wins over the others
  (``GdlSpielGame.max_game_length_source`` says which it is: "declared",
  "counted" or "given"); a game file's own parameter of that name (go's)
  goes to the rules, whose ``max moves`` it is. A state that would make a
  move past it raises RuntimeError: the bound was wrong. The utility range
  is exact where gdl can look through every position, else the rules'
  range of payoffs, else (scores) four times the widest of 200 random games;
- the repetition rule: a state keeps the positions before it (``gdl.State``
  does), so the move that reaches a position the Nth time ends the game in
  OpenSpiel too; ``clone`` keeps them, and ``serialize`` (the actions from
  the start) rebuilds them;
- ``observation_string``: gdl's observation (what the player sees now);
  ``information_state_string`` and ``information_state_tensor``: what the
  player saw before each move and their own moves, then what they see now
  (perfect recall; the tensor is the observation tensor where nothing is
  hidden); ``observation_tensor``: gdl's observation tensor
  (``gdl.State.observation_tensor``);
- ``undo_action`` and ``resample_from_infostate`` (for Python's
  ``ISMCTSBot``), from Python: OpenSpiel's C++ does not reach a Python
  game's.
"""

from __future__ import annotations

import hashlib
import os
import random
import re
from typing import Any, Optional

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError(
        "gdl.openspiel needs OpenSpiel: pip install open_spiel (wheels for Linux and macOS)"
    ) from e

import numpy as np

import gdl

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "INVALID",
    "GdlSpielGame",
    "GdlSpielState",
    "load_game",
    "register",
    "registered",
    "short_name",
]

CHANCE = int(pyspiel.PlayerId.CHANCE)
SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
INVALID = int(pyspiel.PlayerId.INVALID)

# Positions looked through to find the longest game and the utility range.
EXPLORE_LIMIT = 200_000
# Random games played to estimate the longest game where the positions are too many.
ESTIMATE_GAMES = 200
# Random draws `resample_from_infostate` makes before it gives up.
RESAMPLE_TRIES = 10_000

# short name -> the path or bundled name it loads.
_registered: dict[str, str] = {}


def short_name(name: str) -> str:
    """OpenSpiel's name for a game file or bundled game: ``gdl_kuhn_poker``."""
    stem = name.replace("\\", "/").rsplit("/", 1)[-1]
    if stem.endswith(".game"):
        stem = stem[: -len(".game")]
    return "gdl_" + "".join(c if c.isalnum() else "_" for c in stem)


def registered() -> dict[str, str]:
    """The gdl games registered so far: OpenSpiel's name -> what it loads."""
    return dict(_registered)


def _param_value(text: str) -> Any:
    """A gdl parameter's value (as ``gdl.Game.params`` prints it) as an
    OpenSpiel parameter: an int, a bool, else the text, a list's elements
    apart by spaces (``[7 5 3 1]``): OpenSpiel's game strings
    (``gdl_nim(piles=[7 5 3 1])``, what ``serialize`` writes) split at commas."""
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        return re.sub(r",\s*", " ", text)


def _gdl_value(value: Any) -> Any:
    """An OpenSpiel parameter's value as ``gdl.load`` takes it: a list's
    text with spaces between its elements gets its commas back."""
    if isinstance(value, str):
        return re.sub(r"(?<=[\w\]])\s+(?=[\w\[-])", ", ", value.strip())
    return value


def _game_type(name: str, source: str, game: gdl.Game) -> "pyspiel.GameType":
    dynamics = pyspiel.GameType.Dynamics
    chance = pyspiel.GameType.ChanceMode
    info = pyspiel.GameType.Information
    utility = pyspiel.GameType.Utility
    params = {k: _param_value(v) for k, v in game.params.items()}
    # 0: found by gdl (see the module's text), or where the game file
    # declares a parameter of that name (go), the file's own default.
    params["max_game_length"] = 0
    return pyspiel.GameType(
        short_name=name,
        long_name=f"{game.name} (gdl: {source})",
        dynamics=dynamics.SIMULTANEOUS if game.has_simultaneous else dynamics.SEQUENTIAL,
        chance_mode=chance.EXPLICIT_STOCHASTIC if game.has_chance else chance.DETERMINISTIC,
        information=(
            info.IMPERFECT_INFORMATION
            if game.has_hidden or game.has_simultaneous
            else info.PERFECT_INFORMATION
        ),
        utility=utility.ZERO_SUM if game.zero_sum else utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.num_players,
        min_num_players=game.num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _source(path: str) -> str:
    """What ``register`` loads for ``path``: a file by its absolute path
    (so that it loads wherever the process runs later), else a bundled
    game's name, as ``gdl.load`` tells the two apart (a folder named like
    a bundled game, such as a ``chess/`` where the process runs, is not a
    file: the name stays the bundled game's)."""
    return os.path.abspath(path) if os.path.isfile(path) else path


def register(path: str, name: Optional[str] = None) -> str:
    """Registers the game file ``path`` (or a bundled game's name) with
    OpenSpiel, as ``name``; returns the name. Registering the same game
    again does nothing and returns the name it has.

    Without ``name``: ``short_name(path)`` (``gdl_tictactoe``), unless a
    bundled game or another file has it; then the name and a hash of the
    file's absolute path (``gdl_tictactoe_1a2b3c4d``), the same in every
    process, so that a game string written by ``serialize`` loads again
    after the file is registered in a fresh interpreter."""
    source = _source(path)
    if name is None:
        for known, loads in _registered.items():
            if loads == source:
                return known
        name = short_name(path)
        if name in _registered:
            digest = hashlib.sha256(source.encode()).hexdigest()[:8]
            name = f"{name}_{digest}"
    if _registered.get(name) == source:
        return name
    if name in _registered:
        raise ValueError(f"{name} is already registered for {_registered[name]}")
    probe = gdl.load(source, engine="vm")
    game_type = _game_type(name, source, probe)

    declares_length = "max_game_length" in probe.params

    class Registered(GdlSpielGame):
        def __init__(self, params: Optional[dict] = None):
            super().__init__(game_type, source, params or {}, declares_length)

    Registered.__name__ = Registered.__qualname__ = f"GdlSpielGame_{name}"
    pyspiel.register_game(game_type, Registered)
    _registered[name] = source
    return name


def load_game(path: str, **params: Any) -> "pyspiel.Game":
    """Registers the game file (or bundled game) ``path`` if need be and
    loads it with ``params``, as ``pyspiel.load_game`` does."""
    return pyspiel.load_game(register(path), params)


def _facts(game: gdl.Game, max_game_length: int, name: str) -> tuple[int, str, float, float]:
    """The longest game, where that number comes from (see
    ``GdlSpielGame.max_game_length_source``), and the utility range
    OpenSpiel's GameInfo needs. The length is never guessed: the game
    file's ``max moves``, else counted through every position, else the
    ``max_game_length`` given, else refused."""
    explored = game.explore(EXPLORE_LIMIT)
    longest, source = None, None
    if game.max_moves is not None:
        # The file's promise; `explore` above has checked it where it could,
        # and play checks it move by move.
        longest, source = game.max_moves, "declared"
    elif explored and explored["longest"] is not None:
        longest, source = explored["longest"], "counted"
    elif explored and game.repetition:
        # Positions recur, but under `end when repeated N` each comes at
        # most N - 1 times before the move that ends the game.
        longest, source = explored["positions"] * (game.repetition - 1), "counted"
    if max_game_length > 0:
        longest, source = max_game_length, "given"
    if longest is None:
        why = "positions recur" if explored else f"it has more than {EXPLORE_LIMIT:,} positions"
        raise ValueError(
            f"{name}: the longest game of {game.name} is not known: its file declares no `max moves N`, "
            f"and gdl cannot count it ({why}). Give it: "
            f"pyspiel.load_game({name!r}, {{'max_game_length': N}}), N the most moves a game can last "
            "(play past it stops with an error); or declare `max moves N` in the game file"
        )
    rules = game.utility_range()
    if explored and explored["min_utility"] is not None:
        low, high = explored["min_utility"], explored["max_utility"]
    elif rules:
        low, high = rules
    else:
        # Scores, too many positions to look through: a margin four times as
        # wide as the widest of random games (OpenSpiel checks returns against it).
        rng = random.Random(0)
        seen = [r for _ in range(ESTIMATE_GAMES) for r in _random_game(game, rng, longest)]
        widest = max([abs(r) for r in seen] + [1.0])
        low, high = -4 * widest, 4 * widest
    if low >= high:  # OpenSpiel wants min < max: a game of draws only
        low, high = low - 1, high + 1
    return int(longest), source, float(low), float(high)


def _random_game(game: gdl.Game, rng: random.Random, longest: int) -> list[float]:
    """The returns of a random game; none for one cut at ``longest`` moves."""
    state, length = game.initial_state(), 0
    while length <= longest:
        turn = game.turn(state)
        if turn == "terminal":
            return game.returns(state)
        if turn == "chance":
            moves, probs = zip(*game.chance_outcomes(state))
            state = game.apply(state, rng.choices(moves, probs)[0])
            continue
        if turn == "simultaneous":
            joint = [rng.choice(game.legal_moves(state, p)) for p in range(game.num_players)]
            state = game.apply_joint(state, joint)
        else:
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        length += 1
    return []


# (path, parameters) -> the loaded game and its facts. OpenSpiel loads a
# game again for every state it deserializes (random_sim_test does, often):
# the rules are compiled and looked through once.
_loaded: dict[tuple, tuple[gdl.Game, int, str, float, float]] = {}


def _load(path: str, params: dict, max_game_length: int, name: str) -> tuple[gdl.Game, int, str, float, float]:
    key = (path, tuple(sorted((k, str(v)) for k, v in params.items())), max_game_length)
    found = _loaded.get(key)
    if found is None:
        game = gdl.load(path, **{k: _gdl_value(v) for k, v in params.items()})
        found = (game, *_facts(game, max_game_length, name))
        if len(_loaded) >= 64:
            _loaded.clear()
        _loaded[key] = found
    return found


class GdlSpielGame(pyspiel.Game):
    """A gdl game as a ``pyspiel.Game`` (see the module's text)."""

    def __init__(self, game_type: "pyspiel.GameType", path: str, params: dict, declares_length: bool = False):
        params = dict(params)
        max_game_length = int(params.pop("max_game_length", 0))
        if declares_length:
            # The game's own parameter: the game ends there by its rules.
            if max_game_length > 0:
                params["max_game_length"] = max_game_length
            max_game_length = 0
        game, longest, source, low, high = _load(path, params, max_game_length, game_type.short_name)
        actions = game.num_distinct_actions()
        info = pyspiel.GameInfo(
            num_distinct_actions=actions,
            max_chance_outcomes=actions if game.has_chance else 0,
            num_players=game.num_players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if game.zero_sum else None,
            max_game_length=longest,
        )
        given = dict(params)
        if max_game_length:
            given["max_game_length"] = max_game_length
        super().__init__(game_type, info, given)
        self.gdl = game
        # Where max_game_length comes from: "declared" (the file's `max
        # moves`), "counted" (looked through every position) or "given"
        # (the parameter). Never an estimate.
        self.max_game_length_source = source

    def new_initial_state(self) -> "GdlSpielState":
        return GdlSpielState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """OpenSpiel's observer for ``iig_obs_type`` (``pyspiel.IIGObservationType``;
        None: the default observation): public information alone
        (``private_info=NONE``), with the player's own (``SINGLE_PLAYER``,
        the default) or every player's (``ALL_PLAYERS``), or the private
        part alone (``public_info=False``); with ``perfect_recall`` the
        information state (public and the player's own)."""
        if params:
            raise ValueError(f"gdl's observations take no parameters; got {params}")
        private = pyspiel.PrivateInfoType
        if iig_obs_type is None:
            public, own, perfect_recall = True, private.SINGLE_PLAYER, False
        else:
            public, own = bool(iig_obs_type.public_info), iig_obs_type.private_info
            perfect_recall = bool(iig_obs_type.perfect_recall)
        if perfect_recall and not (public and own == private.SINGLE_PLAYER):
            raise ValueError(
                "gdl offers perfect recall as the information state (public information and the player's own, "
                f"public_info=True, private_info=SINGLE_PLAYER), not public_info={public}, private_info={own}"
            )
        if perfect_recall:
            return _Observer(self.gdl, True, self.max_game_length())
        if public and own == private.SINGLE_PLAYER:
            return _Observer(self.gdl, False, self.max_game_length())
        return _PartialObserver(self.gdl, public, own)


class GdlSpielState(pyspiel.State):
    """A position of a gdl game as a ``pyspiel.State``: ``gdl_state`` is the
    (immutable) ``gdl.State``; ``steps`` what happened since the start."""

    def __init__(self, game: GdlSpielGame):
        super().__init__(game)
        self.gdl = game.gdl
        self.gdl_state = self.gdl.initial_state()
        # One entry per step: (the state before it, {player: move}), for
        # the perfect-recall information state.
        self.steps: list[tuple[gdl.State, dict[int, gdl.Move]]] = []
        # The (player, action) pairs of each step, for `undo_action`.
        self.actions: list[list[tuple[int, int]]] = []
        # Steps of players (chance's left out), against max_game_length.
        self.moves_made = 0
        self._longest = game.max_game_length()
        self._longest_source = game.max_game_length_source
        self._short_name = game.get_type().short_name

    def current_player(self) -> int:
        turn = self.gdl.turn(self.gdl_state)
        if isinstance(turn, int):
            return turn
        return {"chance": CHANCE, "simultaneous": SIMULTANEOUS, "terminal": TERMINAL}[turn]

    def _legal_actions(self, player: int) -> list[int]:
        turn = self.gdl.turn(self.gdl_state)
        if turn == "terminal" or (isinstance(turn, int) and turn != player):
            return []
        return self.gdl.legal_actions(self.gdl_state, player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self.gdl.chance_outcomes(self.gdl_state)
        return sorted((self.gdl.move_to_action(m), p) for m, p in outcomes)

    def _check_length(self) -> None:
        """Refuses a step of the players past max_game_length: the bound
        was wrong, and OpenSpiel sizes its buffers by it."""
        if self.moves_made >= self._longest:
            source = self._longest_source
            whose = {
                "declared": "its game file's `max moves`",
                "counted": "counted through every position",
                "given": "the max_game_length given",
            }[source]
            raise RuntimeError(
                f"{self._short_name}: the game has made {self.moves_made} moves and is not over, "
                f"but max_game_length is {self._longest} ({whose}): "
                + ("fix `max moves` in the game file" if source == "declared" else "give a larger max_game_length")
            )

    def _apply_action(self, action: int) -> None:
        move = self.gdl.action_to_move(action)
        turn = self.gdl.turn(self.gdl_state)
        if isinstance(turn, int):
            self._check_length()
        after = self.gdl.apply(self.gdl_state, move)
        self.steps.append((self.gdl_state, {turn: move} if isinstance(turn, int) else {}))
        self.actions.append([(turn if isinstance(turn, int) else CHANCE, action)])
        self.gdl_state = after
        if isinstance(turn, int):
            self.moves_made += 1

    def _apply_actions(self, actions: list[int]) -> None:
        moves = [self.gdl.action_to_move(a) for a in actions]
        self._check_length()
        after = self.gdl.apply_joint(self.gdl_state, moves)
        self.steps.append((self.gdl_state, dict(enumerate(moves))))
        self.actions.append(list(enumerate(actions)))
        self.gdl_state = after
        self.moves_made += 1

    def undo_action(self, player: int, action: int) -> None:
        """Takes back the last action, which must be ``action`` by
        ``player`` (OpenSpiel's ``UndoAction``): the state is again the
        one before it, exactly (gdl's states are values: the one before
        each step is kept). A simultaneous step is taken back whole:
        ``player`` ``SIMULTANEOUS`` and ``action`` any of its actions."""
        if not self.steps:
            raise ValueError("undo_action: no action to undo: this is the initial state")
        last = self.actions[-1]
        whole = player == SIMULTANEOUS and len(last) > 1 and any(a == action for _, a in last)
        if not whole and last != [(player, action)]:
            done = ", ".join(f"player {p} action {a}" for p, a in last)
            raise ValueError(f"undo_action: the last step was {done}, not player {player} action {action}")
        self.gdl_state = self.steps.pop()[0]
        if self.actions.pop()[0][0] != CHANCE:
            self.moves_made -= 1

    # OpenSpiel keeps the actions applied in the C++ side of a state, which
    # a Python game cannot take back: the history is read from `actions`.
    def history(self) -> list[int]:
        return [a for step in self.actions for _, a in step]

    def history_str(self) -> str:
        return ", ".join(map(str, self.history()))

    def move_number(self) -> int:
        return len(self.actions)

    def is_initial_state(self) -> bool:
        return not self.actions

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.gdl.action_to_move(action))

    def is_terminal(self) -> bool:
        return self.gdl.is_terminal(self.gdl_state)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.gdl.num_players
        return self.gdl.returns(self.gdl_state)

    def rewards(self) -> list[float]:
        return self.returns()

    def _decisions(self):
        """The steps where some player moved (chance's steps left out):
        the state before each and the moves made."""
        for (before, moves), step in zip(self.steps, self.actions):
            if step[0][0] != CHANCE:
                yield before, moves

    def information_state(self, player: int) -> str:
        """What ``player`` saw before each move since the start (what
        chance did shows in the next one), with their own moves, then what
        they see now."""
        lines = []
        for before, moves in self._decisions():
            lines.append(self.gdl.observation(before, player))
            if player in moves:
                lines.append(f"you: {moves[player]}")
        lines.append(self.gdl.observation(self.gdl_state, player))
        return "\n".join(lines)

    def information_state_tensor_into(self, player: int, out: np.ndarray) -> None:
        """Fills ``out`` (``_Observer``'s layout) with ``player``'s
        information state: per move since the start a 1, the observation
        before it and ``player``'s own action one-hot, then the observation
        now."""
        game = self.gdl
        size = game.observation_tensor_shape()[0]
        actions = game.num_distinct_actions()
        width = 1 + size + actions
        out[:] = 0.0
        for t, (before, moves) in enumerate(self._decisions()):
            if (t + 1) * width + size > len(out):
                raise ValueError(
                    f"the information-state tensor holds {(len(out) - size) // width} moves "
                    f"(max_game_length), and this game has made more: give a larger max_game_length"
                )
            at = t * width
            out[at] = 1.0
            out[at + 1 : at + 1 + size] = game.observation_tensor(before, player)
            if player in moves:
                out[at + 1 + size + game.move_to_action(moves[player])] = 1.0
        out[len(out) - size :] = game.observation_tensor(self.gdl_state, player)

    def resample_from_infostate(self, player: int, sampler: Any = None) -> "GdlSpielState":
        """A state ``player`` cannot tell from this one (the same
        information state), for ISMCTS: chance's outcomes drawn by their
        probabilities and the other players' moves at random, a draw
        seen to differ from what ``player`` saw thrown away. ``sampler``
        (OpenSpiel's: a callable giving a number in [0, 1)) seeds it.
        Python's ``ISMCTSBot`` calls it; OpenSpiel's C++ one cannot reach a
        Python game's method and stops with OpenSpiel's own error."""
        seed = int(sampler() * 2**32) if callable(sampler) else random.getrandbits(32)
        rng = random.Random(seed)
        game = self.gdl
        # What the player saw after each step, and their own moves.
        after = [game.observation(state, player) for state, _ in self.steps[1:]]
        after.append(game.observation(self.gdl_state, player))
        for _ in range(RESAMPLE_TRIES):
            sample = self._draw_like(player, after, rng)
            if sample is not None:
                return sample
        raise RuntimeError(
            f"resample_from_infostate: no state like this one for player {player} "
            f"in {RESAMPLE_TRIES} random draws"
        )

    def _draw_like(self, player: int, after: list[str], rng: random.Random) -> Optional["GdlSpielState"]:
        """One random walk along this state's steps, each step (chance's
        by its probabilities, the other players' at random, ``player``'s
        own as made) one after which ``player`` sees what they saw after
        that step here; None where no such step is left."""
        game = self.gdl
        state = self.get_game().new_initial_state()
        for (before, moves), seen in zip(self.steps, after):
            turn, real = game.turn(state.gdl_state), game.turn(before)
            # The same kind of step (who of the others moves may differ).
            others = isinstance(turn, int) and isinstance(real, int) and player not in (turn, real)
            if turn != real and not others:
                return None
            if turn == "chance":
                outcomes = game.chance_outcomes(state.gdl_state)
                # Outcomes in a random order drawn by their probabilities.
                order = sorted(outcomes, key=lambda o: rng.random() ** (1.0 / max(o[1], 1e-12)), reverse=True)
                tries = [[game.move_to_action(m)] for m, _ in order]
            elif turn == "simultaneous":
                choices = [
                    [game.move_to_action(moves[p])] if p == player else game.legal_actions(state.gdl_state, p)
                    for p in range(game.num_players)
                ]
                tries = [[rng.choice(c) for c in choices] for _ in range(64)]
            elif turn == player:
                tries = [[game.move_to_action(moves[player])]]
            elif isinstance(turn, int):
                legal = game.legal_actions(state.gdl_state, turn)
                tries = [[a] for a in rng.sample(legal, len(legal))]
            else:  # the end here, a move there
                return None
            for joint in tries:
                child = state.clone()
                if turn == "simultaneous":
                    child.apply_actions(joint)
                else:
                    child.apply_action(joint[0])
                if game.observation(child.gdl_state, player) == seen:
                    state = child
                    break
            else:
                return None
        return state

    def __str__(self) -> str:
        return str(self.gdl_state)


def information_state_tensor_size(game: gdl.Game, max_game_length: int) -> int:
    """The length of the information-state tensor: the observation tensor
    where nothing is hidden (the position is all a player needs), else per
    move a flag, the observation before it and the player's own action,
    then the observation now."""
    size = game.observation_tensor_shape()[0]
    if not (game.has_hidden or game.has_simultaneous):
        return size
    return max_game_length * (1 + size + game.num_distinct_actions()) + size


class _Observer:
    """OpenSpiel's observer of a gdl game: ``tensor`` (the observation
    tensor, or with perfect recall the information-state tensor) and
    ``string_from``."""

    def __init__(self, game: gdl.Game, perfect_recall: bool, max_game_length: int):
        self._game = game
        self._perfect_recall = perfect_recall
        self._history = perfect_recall and (game.has_hidden or game.has_simultaneous)
        if perfect_recall:
            size = information_state_tensor_size(game, max_game_length)
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"info_state": self.tensor}
        else:
            self.tensor = np.zeros(game.observation_tensor_shape(), np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: GdlSpielState, player: int) -> None:
        if self._history:
            state.information_state_tensor_into(player, self.tensor)
        else:
            self.tensor[:] = state.gdl_state.observation_tensor(player)

    def string_from(self, state: GdlSpielState, player: int) -> str:
        if self._perfect_recall:
            return state.information_state(player)
        return self._game.observation(state.gdl_state, player)


class _PartialObserver:
    """An observation with other information than a player's own view:
    public information alone, every player's private information with it,
    or the private alone (``make_py_observer``). A number of the tensor
    (or an entry of the state's fields, in the string) is public where
    every player sees the same there, and private where they differ (one
    sees their own entry of a ``private`` variable, the others zeros). The
    first numbers, which player views, are kept: the observation is still
    someone's."""

    def __init__(self, game: gdl.Game, public: bool, private: "pyspiel.PrivateInfoType"):
        self._game = game
        self._public = public
        self._private = private
        self.tensor = np.zeros(game.observation_tensor_shape(), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: GdlSpielState, player: int) -> None:
        game, n = self._game, self._game.num_players
        seen = np.stack([state.gdl_state.observation_tensor(p) for p in range(n)])
        shared = np.all(seen == seen[0], axis=0)
        out = np.where(shared, seen[0], 0.0) if self._public else np.zeros_like(seen[0])
        if self._private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            out = np.where(shared, out, seen[player])
        elif self._private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            # A private number is its owner's: the others see 0 there.
            out = np.where(shared, out, seen.sum(axis=0))
        out[:n] = seen[player][:n]
        self.tensor[:] = out

    def string_from(self, state: GdlSpielState, player: int) -> str:
        game = self._game
        views = [game.view(state.gdl_state, p) for p in range(game.num_players)]
        lines = [f"viewer: {game.players[player]}"]
        turn = game.turn(state.gdl_state)
        if self._public:
            lines.append(f"to move: {game.players[turn] if isinstance(turn, int) else turn}")
        for name in views[0]:
            value = self._merge([_parse(str(v[name])) for v in views], player)
            if value is not _NOTHING:
                lines.append(f"{name}: {_show(value)}")
        return "\n".join(lines)

    def _merge(self, values: list, player: int) -> Any:
        """The value of one field (or entry, parsed by ``_parse``) as this
        observation sees it; ``_NOTHING`` where it shows nothing of it."""
        if all(v == values[0] for v in values):
            return values[0] if self._public else _NOTHING
        first = values[0]
        if all(isinstance(v, tuple) and v[0] == first[0] and len(v[1]) == len(first[1]) for v in values):
            merged = [self._merge(list(entry), player) for entry in zip(*(v[1] for v in values))]
            if all(m is _NOTHING for m in merged):
                return _NOTHING
            return (first[0], ["?" if m is _NOTHING else m for m in merged])
        if self._private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return values[player]
        if self._private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            # The entry a player sees as their own: the others see "?".
            known = [v for v in values if v != "?"]
            return known[0] if len(known) == 1 else values
        return "?" if self._public else _NOTHING


# What a partial observation shows of a field it leaves out.
_NOTHING = object()

_CLOSE = {"[": "]", "{": "}", "(": ")"}


def _parse(text: str) -> Any:
    """A field's value as gdl writes it (``[1, ?]``, ``{2, 3}``) as
    ``(bracket, [elements])``, nested; anything else as its text."""
    text = text.strip()
    if len(text) < 2 or _CLOSE.get(text[0]) != text[-1]:
        return text
    inner, items, depth, start = text[1:-1], [], 0, 0
    for i, c in enumerate(inner):
        if c in _CLOSE:
            depth += 1
        elif c in _CLOSE.values():
            depth -= 1
        elif c == "," and depth == 0:
            items.append(inner[start:i])
            start = i + 1
    if inner.strip():
        items.append(inner[start:])
    return (text[0], [_parse(item) for item in items])


def _show(value: Any) -> str:
    """``_parse``'s value written again."""
    if isinstance(value, tuple):
        return value[0] + ", ".join(_show(v) for v in value[1]) + _CLOSE[value[0]]
    if isinstance(value, list):  # several players' entries that differ
        return "/".join(_show(v) for v in value)
    return str(value)


for _name in gdl.list_games():
    register(_name)
