"""The repetition rule (`end when repeated N`) in Python: a state carries the
positions of its game before it, and the move that reaches a position the
Nth time ends the game, as `gdl trace` ends it. Pickles keep the past, the
agents count it, and OpenSpiel and PettingZoo end their games by it."""

import collections
import json
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pyspiel
import pytest
from pettingzoo.test import api_test

import gdl
from gdl import openspiel
from gdl import pettingzoo as gp

HERE = Path(__file__).parent
# A token on a line of four points, worked out by hand below.
SHUTTLE = str(HERE / "games" / "shuttle.game")
LINE_AGENT = HERE / "line_agent.py"

# Three men's morris: the men placed (X on 0, 1 and 5, O on 3, 7 and 8: no
# three in a line, even a diagonal), then X and O each step a man out and
# back. Each round comes back to the position after the placing, X to move;
# its third time is the last move of the second round.
PLACE = ["place(0)", "place(8)", "place(1)", "place(7)", "place(5)", "place(3)"]
ROUND = ["step(5, 4)", "step(7, 6)", "step(4, 5)", "step(6, 7)"]
LINE = PLACE + ROUND + ROUND


def play(game, moves, state=None):
    """The states along `moves` (in the game's notation) from `state` (by
    default the start), that one first."""
    states = [state if state is not None else game.initial_state()]
    for text in moves:
        states.append(game.apply(states[-1], game.parse_move(states[-1], text)))
    return states


def cells(state):
    """The position as its cells, what the rule compares: no gdl equality."""
    return tuple(state.__reduce__()[1][1])


def alone(state):
    """The same position without its past, as a pickle of the cells alone
    (the format before states kept their past) gives it back."""
    rebuild, args = state.__reduce__()
    return rebuild(args[0], args[1])


def moves_of(traced):
    return [m["move"] for step in traced["steps"] for m in step["moves"]]


def trace_line(gdl_cli, tmp_path, game, moves, *flags):
    """`gdl trace --json` of exactly the line `moves`: every player is an
    `exec:` agent that plays it (line_agent.py)."""
    line = tmp_path / "line.txt"
    line.write_text("\n".join(moves) + "\n")
    agent = f"exec:{sys.executable} {LINE_AGENT} {line}"
    return json.loads(gdl_cli("trace", game, "--players", f"{agent},{agent}", "--json", *flags).stdout)


def after_start(game):
    """Shuttle after A's first move (its only one): the token on 1, B to move."""
    start = game.initial_state()
    return game.apply(start, game.parse_move(start, "right"))


@pytest.mark.parametrize("diagonals", [True, False])
def test_the_third_time_a_position_comes_round_ends_the_game_drawn_as_gdl_trace_ends_it(gdl_cli, tmp_path, diagonals):
    game = gdl.load("three-mens-morris", diagonals=diagonals)
    assert game.repetition == 3
    states = play(game, LINE)
    seen = collections.Counter()
    for i, s in enumerate(states):
        seen[cells(s)] += 1
        # Over on the last move, and not one move before.
        assert game.is_terminal(s) == (i == len(LINE)), (i, str(s))
        assert not game.is_terminal(alone(s))
    end = states[-1]
    assert seen[cells(end)] == 3 and max(seen.values()) == 3
    assert end == states[6] == states[10] and end.history() == states[:-1]
    assert game.turn(end) == "terminal" and game.legal_moves(end) == [] and game.legal_actions(end) == []
    assert game.returns(end) == [0.0, 0.0]
    with pytest.raises(ValueError, match="the game is over"):
        game.apply(end, game.legal_moves(alone(end))[0])
    # The command plays the same line to the same end, no move more or less.
    traced = trace_line(gdl_cli, tmp_path, "three-mens-morris", LINE, "--diagonals", str(diagonals).lower())
    assert moves_of(traced) == LINE
    assert traced["outcome"]["utilities"] == {"X": 0.0, "O": 0.0}
    assert end.raw.startswith(traced["steps"][-1]["state"] + ";")


def test_a_tiny_game_ends_on_its_first_repetition_with_the_values_worked_out_by_hand():
    game = gdl.load(SHUTTLE)
    assert game.repetition == 2
    start = game.initial_state()
    assert [str(m) for m in game.legal_moves(start)] == ["right"]
    s1 = after_start(game)
    assert [str(m) for m in game.legal_moves(s1)] == ["right", "left"]
    assert s1.history() == [start] and start.history() == []
    # B steps back: (0, A to move) comes back, brought back by B, who wins
    # the payoff 0 + 1.
    back = game.apply(s1, game.parse_move(s1, "left"))
    assert game.is_terminal(back) and game.returns(back) == [-1.0, 1.0]
    # Equal to the start as a position (and as a dict key), over where the
    # start is not: the past differs.
    assert back == start and hash(back) == hash(start) and {start: 1}[back] == 1
    assert not game.is_terminal(start) and back.history() == [start, s1]
    # B steps on and A back: (1, B to move) comes back, brought back by A,
    # who wins 1 + 1.
    _, s2, s3 = play(game, ["right", "left"], s1)
    assert game.returns(s3) == [2.0, -2.0] and s3 == s1
    # A steps on to 3 instead: A wins 2 by the other end.
    end = game.apply(s2, game.parse_move(s2, "right"))
    assert game.returns(end) == [2.0, -2.0] and end.history() == [start, s1, s2]


def test_solve_counts_the_positions_before_the_state(solve_json):
    game = gdl.load(SHUTTLE)
    # From the start: A's one move, then B steps back and wins 1 (the
    # value is A's). B stepping on loses 2: A steps on to 3, or back.
    report = game.solve()
    assert report["value"] == -1 and report["pv"] == ["right", "left"]
    assert solve_json(SHUTTLE)["value"] == -1
    s1 = after_start(game)
    explained = game.solve(s1, explain=True)
    assert explained["value"] == -1
    assert {e["move"]: e["value"] for e in explained["explain"]} == {"right": 2, "left": -1}
    # The same position with no past: stepping back to 0 repeats nothing,
    # and A's one move then brings (1, B to move) back: A wins 2 either way.
    fresh = game.parse_position(s1.raw)
    assert fresh == s1 and fresh.history() == []
    assert game.solve(fresh)["value"] == 2
    assert {e["move"]: e["value"] for e in game.solve(fresh, explain=True)["explain"]} == {"right": 2, "left": 2}
    assert solve_json(SHUTTLE, "--from", s1.raw)["value"] == 2


AGENTS = ["optimal", "optimal:first", "alphabeta:2", "mcts:100", "search:20", "dsearch"]


@pytest.mark.parametrize("spec", AGENTS)
def test_an_agent_one_move_from_a_repetition_sees_it_as_in_gdl_trace(gdl_cli, spec):
    game = gdl.load(SHUTTLE)
    s1 = after_start(game)
    # Stepping back repeats the start and wins at once; stepping on loses.
    for seed in range(8):
        assert str(gdl.agent(spec, game, seed=seed).choose(s1)) == "left"
    # One agent, asked about another line and then this one again, counts
    # this one's past.
    agent = gdl.agent(spec, game, seed=1)
    agent.choose(game.parse_position(s1.raw))
    assert str(agent.choose(s1)) == "left"
    # The command: A's one move, then B's agent steps back and wins.
    traced = json.loads(gdl_cli("trace", SHUTTLE, "--players", f"random,{spec}", "--json").stdout)
    assert moves_of(traced) == ["right", "left"]
    assert traced["outcome"]["utilities"] == {"A": -1.0, "B": 1.0}


@pytest.mark.parametrize("spec", AGENTS)
def test_without_its_past_the_position_is_lost_either_way_and_the_agents_may_step_on(spec):
    game = gdl.load(SHUTTLE)
    fresh = game.parse_position(after_start(game).raw)
    # Both moves lose 2: an agent plays either (the first in the game's
    # order, `right`, or one drawn), where with the past it always plays
    # `left`: the test above sees whether it counts the past.
    chosen = {str(gdl.agent(spec, game, seed=seed).choose(fresh)) for seed in range(8)}
    assert "right" in chosen
    if spec in ("optimal:first", "search:20"):
        assert chosen == {"right"}


def agents_play(game, specs, seed):
    """A game between gdl's agents from Python, each seeded as `gdl trace
    --seed` seeds player k's (seed + k + 1): the moves and the end."""
    agents = [gdl.agent(spec, game, seed=seed + k + 1) for k, spec in enumerate(specs)]
    state, moves = game.initial_state(), []
    while not game.is_terminal(state):
        move = agents[game.turn(state)].choose(state)
        moves.append(str(move))
        state = game.apply(state, move)
    return moves, state


# Games of three men's morris without diagonals (a draw with best play),
# each seed one where the game ends by the rule, but the last. In each but
# the optimal agents' games, an agent given the position without its past
# plays another game: the comparison sees whether the agents count it.
MATCHES = [
    (("mcts:200", "mcts:200"), 0, True),
    (("search:30", "search:30"), 1, True),
    (("alphabeta:4", "mcts:100"), 1, True),
    (("dsearch", "optimal:first"), 0, True),
    (("optimal", "dsearch"), 1, True),
    (("optimal:first", "optimal:first"), 5, True),
    (("random", "optimal"), 5, False),
]


@pytest.mark.parametrize("specs,seed,by_rule", MATCHES)
def test_agents_from_python_play_the_game_gdl_trace_plays(gdl_cli, specs, seed, by_rule):
    game = gdl.load("three-mens-morris", diagonals=False)
    moves, end = agents_play(game, specs, seed)
    traced = json.loads(
        gdl_cli(
            "trace", "three-mens-morris", "--diagonals", "false", "--players", ",".join(specs), "--seed", seed, "--json"
        ).stdout
    )
    assert moves == moves_of(traced)
    assert game.returns(end) == [traced["outcome"]["utilities"][p] for p in game.players]
    # Ended by the rule: the last position twice before on the line.
    assert (end.history().count(end) == 2) == by_rule
    if by_rule:
        assert game.returns(end) == [0.0, 0.0]


def test_random_games_of_oware_end_by_its_rule_as_gdl_trace_ends_them(gdl_cli):
    # `end when repeated 2 { winner South payoff margin() }`: the first
    # position to come back ends the game, the outcome read in it.
    game = gdl.load("oware")
    assert game.repetition == 2
    by_rule = set()
    for seed in range(8):
        moves, end = agents_play(game, ("random", "random"), seed)
        traced = json.loads(gdl_cli("trace", "oware", "--players", "random,random", "--seed", seed, "--json").stdout)
        assert moves == moves_of(traced)
        assert game.returns(end) == [traced["outcome"]["utilities"][p] for p in game.players]
        if end.history().count(end) == 1:
            by_rule.add(tuple(game.returns(end)))
        else:
            assert end.history().count(end) == 0
    # Some games end by the rule, with winners.
    assert any(r[0] != 0 for r in by_rule)


@pytest.mark.parametrize("diagonals", [True, False])
def test_random_games_end_where_a_count_of_their_positions_says(diagonals):
    game = gdl.load("three-mens-morris", diagonals=diagonals)
    rng = random.Random(11)
    by_rule = 0
    for _ in range(100):
        state = game.initial_state()
        line = [state]
        seen = collections.Counter([cells(state)])
        for _ in range(20_000):
            # Over by the other rules: the position alone says; by the
            # repetition rule: its third time on the line.
            natural = game.is_terminal(alone(state))
            third = seen[cells(state)] == 3
            assert game.is_terminal(state) == (natural or third)
            if natural or third:
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
            line.append(state)
            seen[cells(state)] += 1
        else:
            pytest.fail("a random game of three men's morris did not end")
        assert max(seen.values()) <= 3
        assert state.history() == line[:-1]
        if natural:
            assert game.returns(state) == game.returns(alone(state))
        else:
            by_rule += 1
            assert game.returns(state) == [0.0, 0.0]
    # Both ends happen: the rule is tested.
    assert 0 < by_rule < 100


def test_a_pickled_state_ends_the_game_on_the_same_move():
    game = gdl.load("three-mens-morris")
    states = play(game, LINE)
    last = LINE[-1]
    back = pickle.loads(pickle.dumps(states[-2]))
    assert back == states[-2] and back.history() == states[:-2]
    after = game.apply(back, game.parse_move(back, last))
    assert game.is_terminal(after) and game.returns(after) == [0.0, 0.0]
    # The end pickled is over too.
    assert game.is_terminal(pickle.loads(pickle.dumps(states[-1])))
    # A pickle of the cells alone, as the module wrote before it kept the
    # past, still loads: its line starts there, and goes on.
    rebuild, (g, state_cells, history) = states[-2].__reduce__()
    assert [tuple(h) for h in history] == [cells(s) for s in states[:-2]]
    old = rebuild(g, state_cells)
    assert old == states[-2] and old.history() == []
    assert not game.is_terminal(game.apply(old, game.parse_move(old, last)))
    # In another process, where the game is compiled again.
    child = (
        "import pickle, sys\n"
        "game, state, last = pickle.load(sys.stdin.buffer)\n"
        "after = game.apply(state, game.parse_move(state, last))\n"
        "print(game.is_terminal(state), game.is_terminal(after), game.returns(after), len(after.history()))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", child],
        input=pickle.dumps((game, states[-2], last)),
        capture_output=True,
        check=True,
    )
    assert done.stdout.decode().split() == ["False", "True", "[0.0,", "0.0]", str(len(LINE))]


def test_a_tampered_history_is_refused_with_gdl_error_never_a_panic():
    game = gdl.load("three-mens-morris")
    states = play(game, LINE)
    rebuild, (g, state_cells, history) = states[-2].__reduce__()
    bad = [list(h) for h in history]
    bad[3][0] = 7  # the player to move: there are two
    with pytest.raises(gdl.GdlError, match="(?s)position 3 of the state's history.*the player to move is 7"):
        rebuild(g, state_cells, bad)
    bad = [list(h) for h in history]
    bad[5] = bad[5][:-1]
    with pytest.raises(gdl.GdlError, match="position 5 of the state's history"):
        rebuild(g, state_cells, bad)
    # The position after the placing a third time before the state: the
    # game ended there.
    with pytest.raises(gdl.GdlError, match="position 13 of the state's history occurs for the 3rd time"):
        rebuild(g, state_cells, history + [history[6]])
    # A won game in the history: no move follows an end.
    won = play(game, ["place(0)", "place(3)", "place(1)", "place(4)", "place(2)"])[-1]
    assert game.is_terminal(won)
    with pytest.raises(gdl.GdlError, match="an end of the game"):
        rebuild(g, state_cells, history + [list(cells(won))])
    with pytest.raises(TypeError):
        rebuild(g, state_cells, [None])
    # A game without the rule keeps no past.
    nim = gdl.load("nim")
    rebuild, (ng, nim_cells) = nim.initial_state().__reduce__()
    with pytest.raises(gdl.GdlError, match="no repetition rule"):
        rebuild(ng, nim_cells, [nim_cells])
    assert rebuild(ng, nim_cells, []) == nim.initial_state()


def test_a_game_without_the_rule_keeps_no_past():
    game = gdl.load("nim", piles=[3, 2])
    assert game.repetition is None
    state = play(game, ["(0, 1)", "(1, 1)"])[-1]
    assert state.history() == []
    # Pickled as before: its game and its cells.
    assert len(state.__reduce__()[1]) == 2


def spiel_line(state, moves):
    for text in moves:
        state.apply_action(state.gdl.move_to_action(state.gdl.parse_move(state.gdl_state, text)))


@pytest.mark.parametrize("diagonals", [True, False])
def test_openspiel_keeps_the_past_through_clone_and_serialization(diagonals):
    game = openspiel.load_game("three-mens-morris", diagonals=diagonals)
    state = game.new_initial_state()
    spiel_line(state, LINE[:-1])
    assert not state.is_terminal()
    copies = [
        state.clone(),
        game.deserialize_state(state.serialize()),
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
    ]
    for copy in copies:
        assert copy.history() == state.history() and not copy.is_terminal()
        spiel_line(copy, LINE[-1:])
        assert copy.is_terminal() and copy.returns() == [0.0, 0.0]
        assert copy.legal_actions() == []
    # The original is not moved by its copies.
    assert not state.is_terminal()
    # At most twice each position before the move that ends the game.
    assert game.max_game_length() == state.gdl.explore()["positions"] * 2
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_a_pettingzoo_game_terminates_on_the_third_repetition():
    env = gp.env("three-mens-morris")
    api_test(env, num_cycles=200)
    env.reset(seed=0)
    game = env.game
    for text in LINE:
        assert not any(env.terminations.values())
        # The environment's action: gdl's, among the players' (env.gdl_actions).
        env.step(env.gdl_actions.index(game.move_to_action(game.parse_move(env.gdl_state, text))))
    assert all(env.terminations.values())
    assert env.rewards == {"X": 0.0, "O": 0.0}


def test_aima_s_alpha_beta_plays_the_repetition_through_the_adapter():
    import aima_games
    from gdl.aima import as_aima

    game = gdl.load(SHUTTLE)
    aima = as_aima(game, base=aima_games.Game)
    s1 = after_start(game)
    # AIMA's own search, on states that carry their past: B steps back.
    assert str(aima_games.alpha_beta_search(s1, aima)) == "left"
    # The adapter's table of moves, filled for the start, does not answer
    # for the equal position that the repetition ended.
    assert [str(m) for m in aima.actions(game.initial_state())] == ["right"]
    back = aima.result(s1, game.parse_move(s1, "left"))
    assert back == game.initial_state() and aima.terminal_test(back)
    assert aima.actions(back) == [] and aima.utility(back, "B") == 1


DRIFT = str(HERE / "games" / "drift.game")


def drift_line(game, steps):
    """The states along `steps` (an int n: chance's drift(n); a pair: the
    players' show(a) and show(b) at once), the start first."""
    states = [game.initial_state()]
    for step in steps:
        s = states[-1]
        if isinstance(step, tuple):
            joint = [next(m for m in game.legal_moves(s, p) if m.args == (n,)) for p, n in enumerate(step)]
            states.append(game.apply_joint(s, joint))
        else:
            assert game.turn(s) == "chance"
            states.append(game.apply(s, next(m for m, _ in game.chance_outcomes(s) if m.args == (step,))))
    return states


@pytest.mark.parametrize(
    "steps,returns",
    [
        # Chance stays, the players step 3: back at the start.
        ([0, (1, 2)], [1.0, -1.0]),
        # Chance's own move comes back to (0, chance has moved).
        ([0, (1, 1), 1], [1.0, -1.0]),
        # (1, moved), (2, not), (0, moved), then (2, not) again: payoff 3.
        ([1, (2, 2), 1, (1, 1)], [3.0, -3.0]),
    ],
)
def test_chance_and_simultaneous_moves_end_the_game_on_a_repetition_worked_out_by_hand(steps, returns):
    game = gdl.load(DRIFT)
    states = drift_line(game, steps)
    assert [game.is_terminal(s) for s in states] == [False] * len(steps) + [True]
    assert game.returns(states[-1]) == returns
    assert states[-1].history() == states[:-1]
    assert pickle.loads(pickle.dumps(states[-1])).history() == states[:-1]


def test_drift_in_openspiel_and_pettingzoo_parallel_ends_by_the_rule():
    from pettingzoo.test import parallel_api_test

    pyspiel.random_sim_test(openspiel.load_game(DRIFT), num_sims=10, serialize=True, verbose=False)
    parallel_api_test(gp.parallel_env(DRIFT), num_cycles=100)
    env = gp.parallel_env(DRIFT)
    for seed in range(10):
        env.reset(seed=seed)
        rng = random.Random(seed)
        rewards = {}
        for _ in range(10):
            if not env.agents:
                break
            legal = {a: env.game.legal_actions(env.gdl_state, p) for p, a in enumerate(env.agents)}
            actions = {a: env.gdl_actions.index(rng.choice(legal[a])) for a in env.agents}
            _, rewards, terminations, _, _ = env.step(actions)
        # Six positions: a repetition within seven steps ends every game, A
        # the winner.
        assert env.agents == [] and all(terminations.values())
        assert rewards["A"] > 0 and rewards["A"] == -rewards["B"] == env.game.returns(env.gdl_state)[0]
