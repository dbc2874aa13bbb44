"""The few pieces of AIMA's games.py that the tests and the benchmark run.

Written for this repository after aima-python's games.py (MIT licence,
copyright 2016 aima-python contributors; the algorithm is Figure 5.7 of
Russell and Norvig's "Artificial Intelligence: A Modern Approach"), which
the course's assignment (seed 001) tells students to extend: the ``Game``
base class, ``GameState``, ``alpha_beta_search``, ``monte_carlo_tree_search``
(UCT, as games.py writes it: its playouts ask ``to_move`` of the position
they start from, finished or not) and two players. The search
visits moves in the order ``actions`` lists them and keeps the first of
equally good ones, as AIMA's does, so that a gdl game and a hand-written
one make the same choices. ``math.inf`` stands in for numpy's.
"""

import math
import random
from collections import namedtuple

GameState = namedtuple("GameState", "to_move, utility, board, moves")


class Game:
    """A game for AIMA's searches: subclasses give ``actions``, ``result``,
    ``utility`` and ``terminal_test``, and set ``initial``."""

    def actions(self, state):
        raise NotImplementedError

    def result(self, state, move):
        raise NotImplementedError

    def utility(self, state, player):
        raise NotImplementedError

    def terminal_test(self, state):
        return not self.actions(state)

    def to_move(self, state):
        return state.to_move

    def display(self, state):
        print(state)

    def play_game(self, *players):
        """Players take turns until the game ends; the value for whoever moved first."""
        state = self.initial
        while True:
            for player in players:
                state = self.result(state, player(self, state))
                if self.terminal_test(state):
                    self.display(state)
                    return self.utility(state, self.to_move(self.initial))


def alpha_beta_search(state, game):
    """The best move for the player to move in ``state``, searched to the
    end of the game with alpha-beta pruning."""
    player = game.to_move(state)

    def max_value(state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, player)
        value = -math.inf
        for a in game.actions(state):
            value = max(value, min_value(game.result(state, a), alpha, beta))
            if value >= beta:
                return value
            alpha = max(alpha, value)
        return value

    def min_value(state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, player)
        value = math.inf
        for a in game.actions(state):
            value = min(value, max_value(game.result(state, a), alpha, beta))
            if value <= alpha:
                return value
            beta = min(beta, value)
        return value

    best_score, best_action = -math.inf, None
    for a in game.actions(state):
        value = min_value(game.result(state, a), best_score, math.inf)
        if value > best_score:
            best_score, best_action = value, a
    return best_action


def alpha_beta_cutoff_search(state, game, d=4, cutoff_test=None, eval_fn=None):
    """As ``alpha_beta_search``, but cut off at depth ``d``, where the
    position is scored by ``eval_fn``: by default ``game.utility`` of the
    player to move at the root, as games.py does, on a position that may
    not be over."""
    player = game.to_move(state)

    def max_value(state, alpha, beta, depth):
        if cutoff_test(state, depth):
            return eval_fn(state)
        value = -math.inf
        for a in game.actions(state):
            value = max(value, min_value(game.result(state, a), alpha, beta, depth + 1))
            if value >= beta:
                return value
            alpha = max(alpha, value)
        return value

    def min_value(state, alpha, beta, depth):
        if cutoff_test(state, depth):
            return eval_fn(state)
        value = math.inf
        for a in game.actions(state):
            value = min(value, max_value(game.result(state, a), alpha, beta, depth + 1))
            if value <= alpha:
                return value
            beta = min(beta, value)
        return value

    cutoff_test = cutoff_test or (lambda state, depth: depth > d or game.terminal_test(state))
    eval_fn = eval_fn or (lambda state: game.utility(state, player))
    best_score, beta, best_action = -math.inf, math.inf, None
    for a in game.actions(state):
        value = min_value(game.result(state, a), best_score, beta, 1)
        if value > best_score:
            best_score, best_action = value, a
    return best_action


def alpha_beta_player(game, state):
    return alpha_beta_search(state, game)


def random_player(game, state):
    moves = game.actions(state)
    return random.choice(moves) if moves else None


class MCTNode:
    """A node of the search tree: its state, its parent, wins ``U`` and visits ``N``."""

    def __init__(self, parent=None, state=None):
        self.parent, self.state = parent, state
        self.U = self.N = 0
        self.children = {}


def ucb(n, c=1.4):
    return math.inf if n.N == 0 else n.U / n.N + c * math.sqrt(math.log(n.parent.N) / n.N)


def monte_carlo_tree_search(state, game, N=1000, rng=random):
    """UCT as games.py has it: select by UCB down to a leaf, expand it with
    every child, play out at random from one child, and count the playout's
    result for the player who moved into each node on the way back."""

    def select(n):
        while n.children:
            n = max(n.children, key=ucb)
        return n

    def expand(n):
        if not n.children and not game.terminal_test(n.state):
            n.children = {MCTNode(n, game.result(n.state, a)): a for a in game.actions(n.state)}
        return select(n)

    def simulate(state):
        # As games.py: the player to move where the playout starts, which
        # may be a finished game; the result is for the one who moved there.
        player = game.to_move(state)
        while not game.terminal_test(state):
            state = game.result(state, rng.choice(list(game.actions(state))))
        return -game.utility(state, player)

    def backprop(n, utility):
        while n is not None:
            if utility > 0:
                n.U += utility
            n.N += 1
            utility = -utility
            n = n.parent

    root = MCTNode(state=state)
    for _ in range(N):
        child = expand(select(root))
        backprop(child, simulate(child.state))
    best = max(root.children, key=lambda n: n.N)
    return root.children[best]
