"""What comes into the module from outside (a pickle, OpenSpiel's
deserialize_state, a position's text) is checked before the rules see it:
whatever one field is changed to, the result is a clean Python exception
(gdl.GdlError, ValueError, ...) or a state that every method answers for,
never a Rust panic (pyo3's PanicException, which is no Exception: an
``except Exception`` does not catch it). Issue 42, item 4."""

import pickle
import random

import pyspiel
import pytest

import gdl
from gdl import openspiel
from test_basics import random_states

# Each kind of state: a list (nim), a board (connect four), private cards
# and chance (Kuhn poker), sets and simultaneous moves (Goofspiel), lists
# of lists and scores (X Nimmt!), dice (backgammon), the repetition rule,
# whose pickles carry the positions before (oware), a large board (chess).
GAMES = {
    "nim": {},
    "connect4": {"rows": 4, "cols": 5},
    "kuhn-poker": {},
    "goofspiel": {"cards": 4},
    "xnimmt": {"K": 12, "N": 3},
    "backgammon": {},
    "oware": {},
    "chess": {},
}

# What a field is changed to: next to its value, the edges of the ranges
# the runtime relies on, and numbers no field can hold.
EDGES = [-1, 0, 1, 2, 3, 7, 64, 255, 2**31 - 1, -(2**31), 2**32, 2**62, 2**63 - 1, -(2**63)]


def is_clean(error: BaseException) -> bool:
    return isinstance(error, Exception) and type(error).__name__ != "PanicException"


def exercise(game, state):
    """Every question a caller may ask of a state: none may panic."""
    str(state), repr(state), state.raw, state.history()
    turn = game.turn(state)
    game.is_terminal(state), game.turn(state, recorded=True), game.scores(state)
    for p in range(game.num_players):
        state.observation_tensor(p)
        game.observation(state, p)
        game.view(state, p)
        game.evaluate(state, p)
    game.view(state)
    for name in game.view(state):
        game.value(state, name)
    pickle.loads(pickle.dumps(state))
    if turn == "terminal":
        game.returns(state)
    elif turn == "chance":
        move = game.chance_outcomes(state)[0][0]
        game.apply(state, move)
    elif turn == "simultaneous":
        game.apply_joint(state, [game.legal_moves(state, p)[0] for p in range(game.num_players)])
    else:
        moves = game.legal_moves(state)
        game.legal_actions(state)
        if moves:
            game.apply(state, moves[0])


def try_clean(what, call):
    """Runs `call`: it may raise, but only an Exception; returns its result or None."""
    try:
        return call()
    except BaseException as e:  # noqa: B036 - a PanicException is what this looks for
        assert is_clean(e), f"{what}: {type(e).__name__}: {e}"
        return None


def samples(states, rng, count):
    """The start, the end and a few states between."""
    inner = states[1:-1]
    return [states[0], states[-1], *rng.sample(inner, min(count, len(inner)))]


@pytest.mark.parametrize("name", GAMES)
def test_every_field_of_a_pickled_state_changed_gives_an_exception_or_a_state_that_works(name):
    game = gdl.load(name, **GAMES[name])
    rng = random.Random(42)
    states, _ = random_states(game, rng, plays=2)
    refused = accepted = 0
    for state in samples(states, rng, 2):
        rebuild, args = state.__reduce__()
        cells = list(args[1])
        history = args[2] if len(args) > 2 else None
        # Every cell of a small state; a sample of a large one's (chess has hundreds).
        where = range(len(cells)) if len(cells) <= 64 else sorted(rng.sample(range(len(cells)), 64))
        for i in where:
            for value in {cells[i] + 1, cells[i] - 1, game.num_players, *EDGES}:
                tampered = cells[:i] + [value] + cells[i + 1 :]
                extra = () if history is None else (history,)
                made = try_clean(f"cell {i} = {value}", lambda: rebuild(args[0], tampered, *extra))
                if made is None:
                    refused += 1
                    continue
                accepted += 1
                try_clean(f"cell {i} = {value}: {made.raw}", lambda: exercise(game, made))
        # The list of cells a cell longer or shorter, or of another type.
        for wrong in [cells[:-1], cells + [0], [], [str(c) for c in cells], None]:
            assert try_clean("cells", lambda: rebuild(args[0], wrong)) is None
        if history:
            # A position of the history changed, dropped or added to.
            for h in range(len(history)):
                for value in [-1, 2**62, game.num_players]:
                    past = [list(p) for p in history]
                    past[h][0] = value
                    try_clean(f"history {h}", lambda: rebuild(args[0], cells, past))
                try_clean("history", lambda: rebuild(args[0], cells, [history[h][:-1]]))
            try_clean("history", lambda: rebuild(args[0], cells, history + [cells]))
    # The test looked at both kinds: changes refused, and states that were
    # let in (a value still of its type) and then worked.
    assert refused > 0 and accepted > 0, (refused, accepted)


@pytest.mark.parametrize("name", GAMES)
def test_a_pickled_move_with_any_arguments_gives_an_exception_or_a_move_that_works(name):
    game = gdl.load(name, **GAMES[name])
    state = game.initial_state()
    for kind in range(len(game.move_kinds)):
        for args in [[], [0], [-1], [2**63 - 1], [0, 0], [-(2**63), 2**62], [7] * 6, [1] * 9]:
            move = try_clean(f"move {kind} {args}", lambda: gdl._gdl._move(game, kind, args))
            if move is None:
                continue
            str(move), repr(move), move.kind, move.args, move.by_chance, hash(move)
            pickle.loads(pickle.dumps(move))
            try_clean(str(move), lambda: game.move_to_action(move))
            try_clean(str(move), lambda: game.apply(state, move))
    for kind in [-1, len(game.move_kinds), 2**63]:
        assert try_clean("kind", lambda: gdl._gdl._move(game, kind, [])) is None


@pytest.mark.parametrize("name", GAMES)
def test_a_position_s_text_changed_gives_an_exception_or_a_state_that_works(name):
    game = gdl.load(name, **GAMES[name])
    rng = random.Random(7)
    states, _ = random_states(game, rng, plays=1)
    for state in samples(states, rng, 2):
        text = state.raw
        numbers = [i for i, c in enumerate(text) if c.isdigit()]
        for i in rng.sample(numbers, min(12, len(numbers))):
            for put in ["9", "99999999999", "-1", "", "[", "true"]:
                changed = text[:i] + put + text[i + 1 :]
                made = try_clean(changed, lambda: game.parse_position(changed))
                if made is not None:
                    try_clean(changed, lambda: exercise(game, made))


@pytest.mark.parametrize("name", ["tictactoe", "kuhn_poker", "goofspiel", "oware"])
def test_openspiel_s_deserialize_state_refuses_what_is_no_state(name):
    game = pyspiel.load_game(openspiel.short_name(name))
    state = game.new_initial_state()
    good = game.deserialize_state(state.serialize())
    assert str(good) == str(state)
    for text in ["999999", "-5", "0\n0\n0\n0\n0\n0\n0\n0\n0\n0\n0", "x", str(2**70)]:
        made = try_clean(text, lambda: game.deserialize_state(text))
        if made is not None:
            try_clean(text, lambda: (str(made), made.legal_actions(), made.is_terminal(), made.returns()))
