"""gdl games registered with OpenSpiel: OpenSpiel's own conformance test and
algorithms, C++ and Python, run on them unchanged."""

import random
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability, mcts, minimax

import gdl
from conftest import game_path
from gdl import openspiel
from test_basics import BUNDLED

# Parameters that keep a random game short; the others play as bundled.
SMALL = {"xnimmt": {"K": 12, "N": 3}, "pig": {"target": 20}, "kalah": {"pits": 4, "seeds": 3}}
# Games whose file declares no `max moves` and whose positions are too many
# to count: OpenSpiel needs the bound given (a generous one: a random game
# past it would fail the test with gdl's error).
GIVEN_LENGTH = {"backgammon": 5000, "checkers": 2000, "chess": 2000, "kalah": 1000, "nine-mens-morris": 5000, "pig": 2000}


@pytest.mark.parametrize("name", BUNDLED)
def test_random_sim_test_passes_on_every_bundled_game(name):
    params = dict(SMALL.get(name, {}))
    if name in GIVEN_LENGTH:
        params["max_game_length"] = GIVEN_LENGTH[name]
    game = pyspiel.load_game(openspiel.short_name(name), params)
    # OpenSpiel's conformance test (C++): clone, serialize, legal actions
    # sorted and masked, chance outcomes, returns within the utility range,
    # game length within max_game_length.
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_game_type_says_what_the_game_is():
    kinds = pyspiel.GameType
    kuhn = pyspiel.load_game("gdl_kuhn_poker").get_type()
    assert kuhn.dynamics == kinds.Dynamics.SEQUENTIAL
    assert kuhn.chance_mode == kinds.ChanceMode.EXPLICIT_STOCHASTIC
    assert kuhn.information == kinds.Information.IMPERFECT_INFORMATION
    assert kuhn.utility == kinds.Utility.ZERO_SUM
    goof = pyspiel.load_game("gdl_goofspiel").get_type()
    assert goof.dynamics == kinds.Dynamics.SIMULTANEOUS
    ttt = pyspiel.load_game("gdl_tictactoe")
    assert ttt.get_type().information == kinds.Information.PERFECT_INFORMATION
    assert ttt.get_type().chance_mode == kinds.ChanceMode.DETERMINISTIC
    # Tic-tac-toe: nine cells, nine moves at most, a win is 1.
    assert (ttt.num_distinct_actions(), ttt.max_game_length()) == (9, 9)
    assert (ttt.min_utility(), ttt.max_utility(), ttt.utility_sum()) == (-1.0, 1.0, 0.0)
    assert ttt.observation_tensor_shape() == [gdl.load("tictactoe").observation_tensor_shape()[0]]


def test_parameters_pass_to_the_game_and_survive_serialization():
    game = pyspiel.load_game("gdl_connect4", {"rows": 4, "cols": 5})
    assert game.num_distinct_actions() == 5
    state = game.new_initial_state()
    for a in [0, 1, 0]:
        state.apply_action(a)
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert str(again) == str(state) and again.history() == [0, 1, 0]


DICE = str(Path(__file__).parent / "games" / "dice-bet.game")


def test_a_game_file_of_one_s_own_registers_too():
    game = openspiel.load_game(DICE)
    assert game.get_type().short_name == "gdl_dice_bet"
    assert game.max_chance_outcomes() == game.num_distinct_actions() == 6


def test_observations_and_information_states_per_player():
    game = pyspiel.load_game("gdl_kuhn_poker")
    state = game.new_initial_state()
    state.apply_action(2)  # First gets the king
    state.apply_action(0)  # Second the jack
    state.apply_action(4)  # First bets
    assert state.observation_string(0) == "deck: ?, card: [3, ?], actions: [1]; Second to move"
    assert state.observation_string(1) == "deck: ?, card: [?, 1], actions: [1]; Second to move"
    # Perfect recall: what First saw at each step, and its own bet.
    assert state.information_state_string(0).splitlines()[-2:] == [
        "you: bet",
        "deck: ?, card: [3, ?], actions: [1]; Second to move",
    ]
    gdl_state = state.gdl_state
    np.testing.assert_array_equal(state.observation_tensor(1), gdl_state.observation_tensor(1))
    assert state.legal_actions_mask() == [0, 0, 0, 1, 1]
    child = state.child(3)  # Second folds
    assert child.is_terminal() and child.returns() == [1.0, -1.0]
    assert state.clone().history() == state.history() == [2, 0, 4]


def test_cfr_finds_kuhn_poker_s_equilibrium():
    game = pyspiel.load_game("gdl_kuhn_poker")
    solver = cfr.CFRSolver(game)
    for _ in range(300):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    assert exploitability.exploitability(game, average) < 0.01
    value = expected_game_score.policy_value(game.new_initial_state(), [average] * 2)[0]
    assert value == pytest.approx(-1 / 18, abs=0.01)
    # The uniform policy's exploitability is known (11/24): the game is Kuhn's.
    uniform = exploitability.exploitability(game, policy_lib.UniformRandomPolicy(game))
    assert uniform == pytest.approx(11 / 24)


def winning_position(game):
    """X has 1 and 2, O has 4 and 5: X wins with 3 (action 2)."""
    state = game.new_initial_state()
    for cell in [1, 4, 2, 5]:
        state.apply_action(cell - 1)
    return state


def test_cpp_and_python_mcts_play_tic_tac_toe_to_the_end():
    game = pyspiel.load_game("gdl_tictactoe")
    evaluator = pyspiel.RandomRolloutEvaluator(1, 1)
    cpp = pyspiel.MCTSBot(game, evaluator, 2.0, 300, 100, True, 1, False)
    py = mcts.MCTSBot(game, 2.0, 300, mcts.RandomRolloutEvaluator(1, np.random.RandomState(2)),
                      random_state=np.random.RandomState(3), solve=True)

    # The C++ bot through step_with_policy: OpenSpiel 2.0.2's `step` lets go
    # of the GIL and then clones a Python-defined state without it, which
    # crashes on every Python game (its own python_tic_tac_toe too).
    def cpp_step(state):
        return cpp.step_with_policy(state)[1]

    # Both find the win in one.
    assert cpp_step(winning_position(game)) == 2
    assert py.step(winning_position(game)) == 2
    state = game.new_initial_state()
    steps = [cpp_step, py.step]
    while not state.is_terminal():
        state.apply_action(steps[state.current_player()](state))
    assert state.returns() in ([0.0, 0.0], [1.0, -1.0], [-1.0, 1.0])
    assert len(state.history()) >= 5


def test_minimax_agrees_with_gdl_s_solver(solve_json):
    for piles in ([3, 2, 1], [4, 1], [2, 2, 2]):
        game = pyspiel.load_game("gdl_nim", {"piles": " ".join(map(str, piles))})
        value, _ = minimax.alpha_beta_search(game)
        assert value == gdl.load("nim", piles=piles).solve()["value"]
    dice = openspiel.load_game(DICE)
    value, action = minimax.expectiminimax(dice.new_initial_state(), 10, None, 0)
    # gdl's expectiminimax is the command's (`solve()` from Python is alpha-beta's).
    solved = solve_json(DICE)
    assert value == pytest.approx(solved["value"]) == pytest.approx(0.25)
    assert [dice.new_initial_state().action_to_string(0, action)] == solved["best_moves"]


def play_random(state, rng):
    """Plays `state` to the end at random, checking each node's contract."""
    while not state.is_terminal():
        assert state.returns() == [0.0] * state.num_players()
        if state.is_chance_node():
            assert state.current_player() == openspiel.CHANCE
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            actions, probs = zip(*outcomes)
            state.apply_action(rng.choices(actions, probs)[0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(state.num_players())])
        else:
            action = rng.choice(state.legal_actions())
            text = state.action_to_string(state.current_player(), action)
            assert state.string_to_action(text) == action
            state.apply_action(action)
    assert state.current_player() == openspiel.TERMINAL
    return state.returns()


@pytest.mark.parametrize("name", ["nim", "xnimmt", "goofspiel", "select19"])
def test_random_games_end_with_returns_summing_to_zero(name):
    game = pyspiel.load_game(openspiel.short_name(name), SMALL.get(name, {}))
    rng = random.Random(11)
    for _ in range(10):
        assert sum(play_random(game.new_initial_state(), rng)) == pytest.approx(0.0)


def test_a_file_named_like_a_bundled_game_registers_under_a_name_of_its_own(tmp_path):
    # A user's own tictactoe.game once clashed with the bundled game's
    # gdl_tictactoe (issue 42, item 10).
    mine = tmp_path / "tictactoe.game"
    mine.write_text('game "Mine"\nplayers A, B\nstate n: int = 0\nmove m() { n += 1 }\nend when n == 2 { draw }\n')
    game = openspiel.load_game(str(mine))
    name = game.get_type().short_name
    assert name.startswith("gdl_tictactoe_") and name != "gdl_tictactoe"
    assert game.num_distinct_actions() == 1
    assert pyspiel.load_game("gdl_tictactoe").num_distinct_actions() == 9
    # The same file again, by another spelling of its path: the same name.
    assert openspiel.register(str(tmp_path / "." / "tictactoe.game")) == name
    assert openspiel.registered()[name] == str(mine)
    # Another file of the same name: another name.
    other = tmp_path / "other"
    other.mkdir()
    (other / "tictactoe.game").write_text(mine.read_text())
    assert openspiel.register(str(other / "tictactoe.game")) not in (name, "gdl_tictactoe")
    # A name given that another game has is refused.
    with pytest.raises(ValueError, match="gdl_nim is already registered for nim"):
        openspiel.register(str(mine), name="gdl_nim")


def test_a_folder_named_like_a_bundled_game_leaves_the_bundled_game_registered(tmp_path, monkeypatch):
    # A `chess/` where the process runs once stopped `import gdl.openspiel`
    # ("it is a directory"): the bundled game's name is not a file.
    (tmp_path / "chess").mkdir()
    monkeypatch.chdir(tmp_path)
    assert openspiel.register("chess") == "gdl_chess"
    assert openspiel.registered()["gdl_chess"] == "chess"


def test_the_checkout_s_nim_registers_in_a_fresh_interpreter_under_the_same_name_each_time():
    import subprocess
    import sys

    code = (
        "import pyspiel\n"
        "from gdl import openspiel\n"
        f"game = openspiel.load_game({game_path('nim.game')!r})\n"
        "state = game.new_initial_state()\n"
        "state.apply_action(state.legal_actions()[0])\n"
        "print(pyspiel.serialize_game_and_state(game, state))\n"
    )
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True) for _ in range(2)]
    for done in runs:
        assert done.returncode == 0, done.stderr
    assert runs[0].stdout == runs[1].stdout
    # What one process wrote loads in another once the file is registered.
    openspiel.register(game_path("nim.game"))
    _, state = pyspiel.deserialize_game_and_state(runs[0].stdout)
    assert state.history() == [0]


def test_undo_action_restores_the_state_before_exactly():
    game = pyspiel.load_game("gdl_kuhn_poker")
    state = game.new_initial_state()
    for a in [2, 0, 3]:  # deals, then First passes
        state.apply_action(a)
    before = (str(state), state.history(), state.information_state_string(1), state.legal_actions())
    state.apply_action(4)  # Second bets
    assert state.history() == [2, 0, 3, 4]
    # Only the last action, by its player, is taken back.
    with pytest.raises(ValueError, match="the last step was player 1 action 4, not player 0 action 4"):
        state.undo_action(0, 4)
    state.undo_action(1, 4)
    assert (str(state), state.history(), state.information_state_string(1), state.legal_actions()) == before
    assert state.move_number() == 3 and state.current_player() == 1
    # Chance's deals undo too, back to the start, and no further.
    for player, action in [(0, 3), (openspiel.CHANCE, 0), (openspiel.CHANCE, 2)]:
        state.undo_action(player, action)
    assert state.is_initial_state() and state.history() == [] and state.is_chance_node()
    with pytest.raises(ValueError, match="no action to undo"):
        state.undo_action(openspiel.CHANCE, 2)
    # After an undo, a clone and a serialized copy are the state as it is now.
    state.apply_action(1)
    state.apply_action(2)
    state.apply_action(4)
    state.undo_action(0, 4)
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    for copy in (state.clone(), again):
        assert copy.history() == [1, 2] and str(copy) == str(state) and copy.current_player() == 0


def test_undo_takes_back_a_simultaneous_step_whole():
    game = pyspiel.load_game("gdl_goofspiel")
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_simultaneous_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    before = str(state)
    joint = [state.legal_actions(p)[0] for p in range(game.num_players())]
    state.apply_actions(joint)
    with pytest.raises(ValueError, match="the last step was"):
        state.undo_action(0, joint[0])
    state.undo_action(openspiel.SIMULTANEOUS, joint[1])
    assert str(state) == before and state.is_simultaneous_node()


def all_histories(state, out):
    """Every non-terminal state below `state`, chance's included."""
    out.append(state)
    if not state.is_terminal():
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            actions = state.legal_actions()
        for a in actions:
            all_histories(state.child(a), out)
    return out


def test_kuhn_s_information_states_partition_the_histories_as_openspiel_s_own_kuhn():
    ours = pyspiel.load_game("gdl_kuhn_poker")
    native = pyspiel.load_game("kuhn_poker")
    size = ours.information_state_tensor_size()
    assert ours.information_state_tensor_shape() == [size]
    # gdl's actions: deal(1..3) are 0..2 (as OpenSpiel's cards), pass 3 and bet 4 (0 and 1 there).
    to_native = {3: 0, 4: 1}
    decisions = [s for s in all_histories(ours.new_initial_state(), []) if s.is_player_node()]
    assert len(decisions) == 6 * 4  # 6 deals, then 4 betting sequences that wait on a player
    for player in range(2):
        by_ours, by_tensor, by_native = {}, {}, {}
        for state in decisions:
            mine = native.new_initial_state()
            for a in state.history():
                mine.apply_action(to_native.get(a, a) if len(mine.history()) >= 2 else a)
            key = tuple(state.history())
            by_ours.setdefault(state.information_state_string(player), set()).add(key)
            tensor = state.information_state_tensor(player)
            assert len(tensor) == size
            by_tensor.setdefault(tuple(tensor), set()).add(key)
            by_native.setdefault(mine.information_state_string(player), set()).add(key)
        # The same sets of histories a player cannot tell apart: 12 each
        # (6 where the player is to move, 6 where the other is).
        partition = sorted(map(sorted, by_native.values()))
        assert len(partition) == 12
        assert sorted(map(sorted, by_ours.values())) == partition
        assert sorted(map(sorted, by_tensor.values())) == partition
        # At the player's own decisions: 6 information states, as OpenSpiel's.
        own = {state.information_state_string(player) for state in decisions if state.current_player() == player}
        assert len(own) == 6


def test_the_information_state_tensor_of_a_game_without_secrets_is_the_observation():
    game = pyspiel.load_game("gdl_tictactoe")
    state = game.new_initial_state()
    state.apply_action(4)
    assert game.information_state_tensor_shape() == game.observation_tensor_shape()
    assert state.information_state_tensor(1) == state.observation_tensor(1)


def test_goofspiel_s_information_state_tensor_tells_apart_what_the_player_saw():
    game = pyspiel.load_game("gdl_goofspiel")
    rng = random.Random(5)
    seen = {}
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            for p in range(2):
                tensor = tuple(state.information_state_tensor(p))
                assert len(tensor) == game.information_state_tensor_size()
                text = state.information_state_string(p)
                # Equal tensors exactly where the strings are equal.
                assert seen.setdefault(("t", p, tensor), text) == text
                assert seen.setdefault(("s", p, text), tensor) == tensor
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(2)])


def test_max_game_length_is_the_game_file_s_own_where_it_declares_one():
    # Go declares OpenSpiel's parameter, twice the points of the board: it
    # was shadowed by the estimate (648, four times the longest random game).
    go = pyspiel.load_game("gdl_go")
    assert go.max_game_length() == 162
    small = pyspiel.load_game("gdl_go", {"board_size": 5})
    assert small.max_game_length() == 50 == 2 * 5 * 5
    # Given, it reaches the rules: the game ends there.
    short = pyspiel.load_game("gdl_go", {"board_size": 5, "max_game_length": 6})
    assert short.max_game_length() == 6 and short.gdl.params["max_game_length"] == "6"
    assert len(play_random_history(short, random.Random(1))) == 6
    pyspiel.random_sim_test(short, num_sims=2, serialize=True, verbose=False)
    assert go.max_game_length_source == "declared"


def test_max_game_length_is_declared_counted_given_or_refused_never_guessed(tmp_path):
    # Declared: connect four's `max moves rows * cols` (once estimated 168).
    c4 = pyspiel.load_game("gdl_connect4")
    assert (c4.max_game_length(), c4.max_game_length_source) == (42, "declared")
    assert pyspiel.load_game("gdl_connect4", {"rows": 4, "cols": 5}).max_game_length() == 20
    # Counted: a file without the declaration, few enough positions.
    plain = tmp_path / "countdown.game"
    plain.write_text(
        "game Countdown\nplayers A, B\nstate left: int = 5\n"
        "move take(n in 1..2) requires n <= left { left -= n }\nend when left == 0 { loser previous }\n"
    )
    counted = openspiel.load_game(str(plain))
    assert (counted.max_game_length(), counted.max_game_length_source) == (5, "counted")
    # Refused: too many positions (and they recur), nothing declared or given.
    with pytest.raises(Exception, match=r"gdl_pig: the longest game of Pig is not known.*'max_game_length': N"):
        pyspiel.load_game("gdl_pig")
    # Given: the user's bound, which wins over the others.
    pig = pyspiel.load_game("gdl_pig", {"target": 20, "max_game_length": 1000})
    assert (pig.max_game_length(), pig.max_game_length_source) == (1000, "given")
    assert pyspiel.load_game("gdl_connect4", {"max_game_length": 50}).max_game_length_source == "given"


def test_a_move_past_max_game_length_is_an_error_not_a_longer_game(tmp_path):
    short = pyspiel.load_game("gdl_tictactoe", {"max_game_length": 3})
    state = short.new_initial_state()
    for action in [0, 1, 2]:
        state.apply_action(action)
    with pytest.raises(Exception, match="made 3 moves and is not over, but max_game_length is 3 .*given.*larger"):
        state.apply_action(3)
    # Taken back, the move counts no more.
    state.undo_action(0, 2)
    state.apply_action(2)
    # A file whose promise is wrong: refused where the positions show it.
    liar = tmp_path / "liar.game"
    liar.write_text(
        "game Liar\nplayers A, B\nstate left: int = 3\nmove take() { left -= 1 }\n"
        "end when left == 0 { loser previous }\nmax moves 2\n"
    )
    with pytest.raises(gdl.GdlError, match="declares `max moves 2`, but a game has made 2 moves"):
        openspiel.load_game(str(liar))
    # And in play, where they are too many to look through (VectorEnv).
    env = gdl.VectorEnv(gdl.load(str(liar)), 2)
    env.reset()
    for _ in range(2):
        env.step(np.zeros(2, np.int64))
    with pytest.raises(gdl.GdlError, match="declares `max moves 2`"):
        env.step(np.zeros(2, np.int64))


def play_random_history(game, rng):
    """The actions of a random game of a game without chance."""
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state.history()


def test_resample_from_infostate_draws_every_state_the_player_cannot_tell_apart_and_no_other():
    game = pyspiel.load_game("gdl_kuhn_poker")
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    states = [s for s in all_histories(game.new_initial_state(), []) if s.is_player_node()]
    for state in states:
        player = state.current_player()
        mine = state.information_state_string(player)
        like = {tuple(s.history()) for s in states if s.information_state_string(player) == mine}
        drawn = {tuple(state.resample_from_infostate(player, sampler).history()) for _ in range(40)}
        # Two cards the other may hold, both drawn (a miss: 2 / 2**40).
        assert drawn == like and len(like) == 2


@pytest.mark.parametrize("name", ["kuhn_poker", "xnimmt"])
def test_a_resampled_state_has_the_player_s_information_state(name):
    game = pyspiel.load_game(openspiel.short_name(name), SMALL.get(name, {}))
    rng = random.Random(8)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            for player in range(game.num_players()):
                other = state.resample_from_infostate(player, sampler)
                assert other.information_state_string(player) == state.information_state_string(player)
                assert other.information_state_tensor(player) == state.information_state_tensor(player)
            if state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def test_python_s_ismcts_plays_kuhn_poker_to_the_end():
    from open_spiel.python.algorithms import ismcts

    game = pyspiel.load_game("gdl_kuhn_poker")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [ismcts.ISMCTSBot(game, evaluator, 1.5, 100, random_state=np.random.RandomState(i)) for i in range(2)]
    rng = np.random.RandomState(4)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                action = int(bots[state.current_player()].step(state))
                assert action in state.legal_actions()
                state.apply_action(action)
        assert state.returns()[0] in (-2.0, -1.0, 1.0, 2.0) and sum(state.returns()) == 0.0


def iig(public, private, perfect_recall=False):
    return pyspiel.IIGObservationType(perfect_recall=perfect_recall, public_info=public, private_info=private)


def test_observation_parameters_split_kuhn_into_public_private_and_every_player_s():
    from open_spiel.python.observation import make_observation

    private = pyspiel.PrivateInfoType
    game = pyspiel.load_game("gdl_kuhn_poker")
    kinds = {
        "public": make_observation(game, iig(True, private.NONE)),
        "own": make_observation(game, iig(True, private.SINGLE_PLAYER)),
        "all": make_observation(game, iig(True, private.ALL_PLAYERS)),
        "private": make_observation(game, iig(False, private.SINGLE_PLAYER)),
    }
    states = [s for s in all_histories(game.new_initial_state(), []) if s.is_player_node()]
    for player in range(2):
        seen = {kind: {} for kind in kinds}
        for state in states:
            deal, betting = tuple(state.history()[:2]), tuple(state.history()[2:])
            # What each kind of observation may depend on, and nothing else.
            keys = {"public": betting, "own": (deal[player], betting), "all": (deal, betting), "private": deal[player]}
            for kind, obs in kinds.items():
                obs.set_from(state, player)
                shown = (obs.tensor.tobytes(), obs.string_from(state, player))
                # The same key, the same observation; a new key, a new one.
                assert seen[kind].setdefault(keys[kind], shown) == shown, (kind, state.history())
            # The player's own view is OpenSpiel's default observation.
            kinds["own"].set_from(state, player)
            assert np.array_equal(kinds["own"].tensor, state.observation_tensor(player))
            assert kinds["own"].string_from(state, player) == state.observation_string(player)
        # Before the cards show: betting lines 4, cards 3, deals 6.
        assert {kind: len(set(v.values())) for kind, v in seen.items()} == {
            "public": 4,
            "own": 12,
            "all": 24,
            "private": 3,
        }
    state = game.new_initial_state()
    for a in [0, 2]:  # the cards dealt
        state.apply_action(a)
    state.apply_action(state.legal_actions()[0])
    public = kinds["public"].string_from(state, 1)
    everything = kinds["all"].string_from(state, 1)
    # The public observation shows neither card, every player's both.
    assert "viewer: Second" in public and "?" in public and "?" not in everything
    with pytest.raises(ValueError, match="perfect recall as the information state"):
        make_observation(game, iig(True, private.NONE, perfect_recall=True))


def test_observation_parameters_on_a_perfect_information_game_all_show_the_board():
    from open_spiel.python.observation import make_observation

    private = pyspiel.PrivateInfoType
    game = pyspiel.load_game("gdl_connect4", {"rows": 4, "cols": 4})
    state = game.new_initial_state()
    for a in [0, 1, 1, 3]:
        state.apply_action(a)
    tensors = {}
    for kind in (private.NONE, private.SINGLE_PLAYER, private.ALL_PLAYERS):
        obs = make_observation(game, iig(True, kind))
        obs.set_from(state, 0)
        tensors[kind] = obs.tensor.copy()
    # Nothing is private: every kind is the whole position.
    assert all(np.array_equal(t, state.observation_tensor(0)) for t in tensors.values())
    private_only = make_observation(game, iig(False, private.SINGLE_PLAYER))
    private_only.set_from(state, 0)
    # Nothing but which player views.
    assert private_only.tensor.sum() == 1.0 and private_only.tensor[0] == 1.0
    info = make_observation(game, iig(True, private.SINGLE_PLAYER, perfect_recall=True))
    info.set_from(state, 1)
    assert np.array_equal(info.tensor, state.information_state_tensor(1))
