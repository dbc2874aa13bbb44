"""gdl's agents, called from Python: they choose legal moves, the optimal
one keeps the solved value, and specs that cannot play are refused."""

import random

import pytest

import gdl
from conftest import game_path


def play(g, agents, seed=0):
    """One game with one agent per player (chance drawn at random); the moves each chose."""
    rng = random.Random(seed)
    s = g.initial_state()
    chosen = []
    while not g.is_terminal(s):
        turn = g.turn(s)
        if turn == "chance":
            moves, probs = zip(*g.chance_outcomes(s))
            s = g.apply(s, rng.choices(moves, probs)[0])
        elif turn == "simultaneous":
            joint = [agents[p].choose(s, player=p) for p in range(g.num_players)]
            for p, m in enumerate(joint):
                assert m in g.legal_moves(s, player=p)
            chosen.extend(joint)
            s = g.apply_joint(s, joint)
        else:
            m = agents[turn].choose(s)
            assert m in g.legal_moves(s)
            chosen.append(m)
            s = g.apply(s, m)
    return s, chosen


@pytest.mark.parametrize("spec", ["optimal", "optimal:first", "random", "search:20", "greedy"])
def test_agents_choose_legal_moves_in_nim(spec):
    g = gdl.load(game_path("nim.game"), piles=[4, 3, 2])
    end, chosen = play(g, [gdl.agent(spec, g, seed=1), gdl.agent("random", g, seed=2)])
    assert chosen and g.is_terminal(end)


@pytest.mark.parametrize("spec", ["random", "search:10", "greedy"])
def test_agents_choose_legal_moves_with_chance_and_hidden_cards(spec):
    g = gdl.load(game_path("xnimmt.game"), K=20, N=4)
    end, chosen = play(g, [gdl.agent(spec, g, seed=1), gdl.agent("random", g, seed=2)])
    assert len(chosen) == 2 * 4
    assert sum(g.returns(end)) == pytest.approx(0)


def test_the_optimal_agent_wins_every_winning_position():
    g = gdl.load(game_path("nim.game"), piles=[4, 3, 2])  # xor 5: the first player wins
    assert g.solve()["winner"] == "MAX"
    for seed in range(10):
        end, _ = play(g, [gdl.agent("optimal", g, seed=seed), gdl.agent("random", g, seed=100 + seed)])
        assert g.returns(end) == [1.0, -1.0]


def test_the_optimal_agents_moves_are_the_solvers_best_moves():
    g = gdl.load(game_path("nim.game"), piles=[7, 5, 3, 1])
    optimal = gdl.agent("optimal", g, seed=4)
    s = g.parse_position("[6, 5, 3, 1]; MIN to move")
    best = g.solve(s)["best_moves"]
    assert {str(optimal.choose(s)) for _ in range(10)} <= set(best)
    assert str(gdl.agent("optimal:first", g).choose(s)) == best[0]


def test_a_seed_makes_an_agent_repeat_itself():
    g = gdl.load(game_path("tictactoe.game"))

    def game_with(seed):
        return [str(m) for m in play(g, [gdl.agent("random", g, seed=seed), gdl.agent("search:5", g, seed=seed)])[1]]

    assert game_with(9) == game_with(9)
    assert {tuple(game_with(s)) for s in range(5)} != {tuple(game_with(9))}
    agent = gdl.agent("random", g, seed=3)
    s = g.initial_state()
    first = [str(agent.choose(s)) for _ in range(5)]
    agent.reset(3)
    assert [str(agent.choose(s)) for _ in range(5)] == first


def test_a_q_table_trained_by_the_command_plays(tmp_path, gdl_cli):
    table = tmp_path / "nim.q.json"
    gdl_cli("train", game_path("nim.game"), "--piles", "3,2", "--episodes", "3000", "--out", table)
    g = gdl.load(game_path("nim.game"), piles=[3, 2])
    agent = gdl.agent(f"q:{table}", g)
    assert agent.name == f"q:{table}"
    end, chosen = play(g, [agent, gdl.agent("random", g, seed=1)])
    assert chosen
    # A table is only for the game and parameters it was trained on.
    with pytest.raises(gdl.GdlError, match="gdl::qtable::other_params"):
        gdl.agent(f"q:{table}", gdl.load(game_path("nim.game"), piles=[3, 3]))


def test_specs_that_cannot_play_are_refused_with_gdls_reasons():
    nim = gdl.load(game_path("nim.game"))
    with pytest.raises(gdl.GdlError, match="unknown player `minimax`.*optimal"):
        gdl.agent("minimax", nim)
    with pytest.raises(gdl.GdlError, match="`human` plays at the terminal"):
        gdl.agent("human", nim)
    with pytest.raises(gdl.GdlError, match="X Nimmt! has chance or simultaneous moves, and hidden information; try `search`"):
        gdl.agent("optimal", gdl.load(game_path("xnimmt.game")))
    with pytest.raises(gdl.GdlError, match="cannot read the Q-table"):
        gdl.agent("q:/no/such/table.json", nim)


def test_an_agent_is_asked_only_where_a_player_chooses():
    g = gdl.load(game_path("nim.game"), piles=[1])
    agent = gdl.agent("random", g)
    s = g.initial_state()
    with pytest.raises(ValueError, match="MAX's move here, not player 1's"):
        agent.choose(s, player=1)
    end = g.apply(s, g.legal_moves(s)[0])
    with pytest.raises(ValueError, match="game is over"):
        agent.choose(end)


@pytest.mark.parametrize("spec", ["optimal", "alphabeta:4"])
def test_searching_agents_take_the_search_limits(spec):
    """max_nodes and time_limit_ms limit each move's search, as --max-nodes and
    --time-limit do: too small a limit is an error, never a guessed move;
    an ample one changes no move."""
    g = gdl.load(game_path("nim.game"), piles=[3, 4, 5])
    s = g.initial_state()
    with pytest.raises(gdl.GdlError, match="node limit of 1"):
        gdl.agent(spec, g, max_nodes=1).choose(s)
    ample = gdl.agent(spec, g, seed=5, max_nodes=10**8, time_limit_ms=1_000_000)
    plain = gdl.agent(spec, g, seed=5)
    assert [str(ample.choose(s)) for _ in range(4)] == [str(plain.choose(s)) for _ in range(4)]
    for bad in [dict(max_nodes=0), dict(time_limit_ms=0), dict(time_limit_ms=10**13)]:
        with pytest.raises(ValueError):
            gdl.agent(spec, g, **bad)


def test_time_limit_in_seconds_is_a_deprecated_alias():
    """time_limit (seconds) still works for one release, with a
    DeprecationWarning, and is checked as before; given with time_limit_ms
    it is refused rather than one of the two ignored."""
    g = gdl.load(game_path("nim.game"), piles=[3, 4, 5])
    s = g.initial_state()
    with pytest.warns(DeprecationWarning, match="time_limit_ms"):
        old = gdl.agent("optimal", g, seed=5, time_limit=1000.0)
    assert str(old.choose(s)) == str(gdl.agent("optimal", g, seed=5, time_limit_ms=1_000_000).choose(s))
    for bad in [0.0, float("nan"), 1e20]:
        with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="seconds"):
            gdl.agent("optimal", g, time_limit=bad)
    with pytest.raises(ValueError, match="not also time_limit"):
        gdl.agent("optimal", g, time_limit_ms=5, time_limit=0.005)
