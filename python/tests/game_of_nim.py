"""``GameOfNim`` as seed 001 (programming project 2) asks students to write
it: misère Nim as an AIMA ``Game``, the state a ``GameState`` whose board is
the list of pile sizes, an action ``(row, n)``, the valid moves generated
with each state, utility +1 when MAX wins and -1 when MIN wins."""

from aima_games import Game, GameState


def _moves(board):
    return [(r, n) for r, pile in enumerate(board) for n in range(1, pile + 1)]


class GameOfNim(Game):
    def __init__(self, board=(3, 1)):
        board = list(board)
        self.initial = GameState(to_move="MAX", utility=0, board=board, moves=_moves(board))

    def actions(self, state):
        return state.moves

    def result(self, state, move):
        if move not in state.moves:
            return state  # an illegal move changes nothing, as in AIMA's TicTacToe
        r, n = move
        board = list(state.board)
        board[r] -= n
        to_move = "MIN" if state.to_move == "MAX" else "MAX"
        # Misère: whoever took the last object lost, so the player to move won.
        utility = 0 if sum(board) else (1 if to_move == "MAX" else -1)
        return GameState(to_move=to_move, utility=utility, board=board, moves=_moves(board))

    def utility(self, state, player):
        return state.utility if player == "MAX" else -state.utility

    def terminal_test(self, state):
        return len(state.moves) == 0

    def display(self, state):
        print("board:", state.board)
