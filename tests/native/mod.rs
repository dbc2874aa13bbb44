//! Hand-written native games, shared by `tests/solvers.rs` and
//! `benches/nodes.rs` (`#[path = "../tests/native/mod.rs"] mod native;`).
//!
//! Each uses the notation of its `.game` file, so that answers can be
//! compared with the interpreter's move for move.
#![allow(dead_code)]

use std::fmt::Write as _;

use gdl::game::{Game, GameError, Player, Turn};

/// The most piles (pits) a native board holds.
pub const MAX_CELLS: usize = 12;

/// A row of small counts, stored inline so that a state is `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    cells: [u8; MAX_CELLS],
    len: u8,
}

impl Board {
    pub fn new(cells: &[u8]) -> Self {
        assert!(cells.len() <= MAX_CELLS, "at most {MAX_CELLS} cells");
        let mut b = Board {
            cells: [0; MAX_CELLS],
            len: cells.len() as u8,
        };
        b.cells[..cells.len()].copy_from_slice(cells);
        b
    }

    pub fn cells(&self) -> &[u8] {
        &self.cells[..self.len as usize]
    }

    fn cells_mut(&mut self) -> &mut [u8] {
        &mut self.cells[..self.len as usize]
    }

    fn is_empty(&self) -> bool {
        self.cells().iter().all(|&c| c == 0)
    }

    /// `[7, 5, 3, 1]`: as gdl prints a state that is one list.
    fn text(&self) -> String {
        let cells: Vec<String> = self.cells().iter().map(u8::to_string).collect();
        format!("[{}]", cells.join(", "))
    }
}

/// A position of a game played on a [`Board`]: the board and the player to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BoardState {
    pub board: Board,
    pub to_move: u8,
}

/// A move `(index, count)` on a board, written `(0, 1)`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Take {
    pub index: u8,
    pub count: u8,
}

fn pair_text(a: u8, b: u8) -> String {
    format!("({a}, {b})")
}

fn other(p: u8) -> u8 {
    1 - p
}

/// Nim (seed 001): take `n >= 1` objects from one row, `(row, n)` with rows
/// counted from 0. Misère by default: whoever takes the last object loses.
#[derive(Clone, Debug)]
pub struct Nim {
    pub piles: Vec<u8>,
    pub misere: bool,
}

impl Nim {
    pub fn misere(piles: &[u8]) -> Self {
        Nim {
            piles: piles.to_vec(),
            misere: true,
        }
    }

    pub fn normal(piles: &[u8]) -> Self {
        Nim {
            piles: piles.to_vec(),
            misere: false,
        }
    }

    /// Any position: `piles` with `to_move` (0 or 1) to move.
    pub fn state(piles: &[u8], to_move: u8) -> BoardState {
        BoardState {
            board: Board::new(piles),
            to_move,
        }
    }
}

impl Game for Nim {
    type State = BoardState;
    type Move = Take;

    fn name(&self) -> &str {
        if self.misere { "Nim" } else { "Nim (normal play)" }
    }

    fn num_players(&self) -> usize {
        2
    }

    fn player_name(&self, p: Player) -> &str {
        ["MAX", "MIN"][p]
    }

    fn initial_state(&self) -> Result<BoardState, GameError> {
        Ok(Nim::state(&self.piles, 0))
    }

    fn turn(&self, s: &BoardState) -> Result<Turn, GameError> {
        Ok(if s.board.is_empty() {
            Turn::Terminal
        } else {
            Turn::Player(s.to_move as Player)
        })
    }

    fn legal_moves(&self, s: &BoardState, out: &mut Vec<Take>) -> Result<(), GameError> {
        out.clear();
        for (row, &n) in s.board.cells().iter().enumerate() {
            out.extend((1..=n).map(|count| Take {
                index: row as u8,
                count,
            }));
        }
        Ok(())
    }

    fn apply(&self, s: &mut BoardState, mv: &Take) -> Result<(), GameError> {
        s.board.cells_mut()[mv.index as usize] -= mv.count;
        s.to_move = other(s.to_move);
        Ok(())
    }

    fn returns(&self, s: &BoardState, player: Player) -> Result<f64, GameError> {
        // The player to move did not take the last object.
        let winner = if self.misere { s.to_move } else { other(s.to_move) };
        Ok(if player == winner as Player { 1.0 } else { -1.0 })
    }

    fn move_text(&self, mv: &Take) -> String {
        pair_text(mv.index, mv.count)
    }

    fn state_text(&self, s: &BoardState) -> String {
        s.board.text()
    }

    /// A win or a loss, as the `.game` file's end clause without a payoff declares.
    fn utility_range(&self) -> Option<(f64, f64)> {
        Some((-1.0, 1.0))
    }
}

/// Nimcala (seed 002): `pits` pits, `tokens` tokens all in pit 1. A move
/// `(pit, count)`, pits counted from 1, picks up `count` tokens from one pit
/// and sows one into each following pit; tokens past the last pit leave the
/// board. Whoever removes the last token from the board wins.
#[derive(Clone, Debug)]
pub struct Nimcala {
    pub pits: usize,
    pub tokens: u8,
}

impl Nimcala {
    pub fn new(pits: usize, tokens: u8) -> Self {
        assert!((1..=MAX_CELLS).contains(&pits));
        Nimcala { pits, tokens }
    }

    /// Any position: pit contents (pit 1 first) with `to_move` to move.
    pub fn state(pits: &[u8], to_move: u8) -> BoardState {
        BoardState {
            board: Board::new(pits),
            to_move,
        }
    }
}

impl Game for Nimcala {
    type State = BoardState;
    type Move = Take;

    fn name(&self) -> &str {
        "Nimcala"
    }

    fn num_players(&self) -> usize {
        2
    }

    fn player_name(&self, p: Player) -> &str {
        ["MAX", "MIN"][p]
    }

    fn initial_state(&self) -> Result<BoardState, GameError> {
        let mut pits = vec![0; self.pits];
        pits[0] = self.tokens;
        Ok(Nimcala::state(&pits, 0))
    }

    fn turn(&self, s: &BoardState) -> Result<Turn, GameError> {
        Ok(if s.board.is_empty() {
            Turn::Terminal
        } else {
            Turn::Player(s.to_move as Player)
        })
    }

    fn legal_moves(&self, s: &BoardState, out: &mut Vec<Take>) -> Result<(), GameError> {
        out.clear();
        for (i, &n) in s.board.cells().iter().enumerate() {
            out.extend((1..=n).map(|count| Take {
                index: i as u8 + 1,
                count,
            }));
        }
        Ok(())
    }

    fn apply(&self, s: &mut BoardState, mv: &Take) -> Result<(), GameError> {
        let cells = s.board.cells_mut();
        let from = mv.index as usize - 1;
        cells[from] -= mv.count;
        for pit in (from + 1..cells.len()).take(mv.count as usize) {
            cells[pit] += 1;
        }
        s.to_move = other(s.to_move);
        Ok(())
    }

    fn returns(&self, s: &BoardState, player: Player) -> Result<f64, GameError> {
        // The player who emptied the board moved last: not the one to move.
        Ok(if player == s.to_move as Player { -1.0 } else { 1.0 })
    }

    fn move_text(&self, mv: &Take) -> String {
        pair_text(mv.index, mv.count)
    }

    fn state_text(&self, s: &BoardState) -> String {
        s.board.text()
    }

    /// A win or a loss, as the `.game` file's end clause without a payoff declares.
    fn utility_range(&self) -> Option<(f64, f64)> {
        Some((-1.0, 1.0))
    }
}

/// The 1-9 selection game (seed 003): players A and B pick numbers 1..=9,
/// each once. After a pick below 5 the next must be at least 5; after an odd
/// pick the next must be even. The player who cannot pick loses; the winner
/// gains the last number picked, the loser loses it.
#[derive(Clone, Debug, Default)]
pub struct Select19;

/// A position of the 1-9 game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SelectState {
    /// Bit `n` set when `n` is still free (bits 1..=9).
    pub free: u16,
    /// The last pick, 0 before the first.
    pub last: u8,
    pub to_move: u8,
}

impl Select19 {
    pub const ALL_FREE: u16 = 0b11_1111_1110;

    /// Whether `x` may follow `last`.
    pub fn allowed(last: u8, x: u8) -> bool {
        last == 0 || ((last >= 5 || x >= 5) && (last.is_multiple_of(2) || x.is_multiple_of(2)))
    }
}

impl Game for Select19 {
    type State = SelectState;
    type Move = u8;

    fn name(&self) -> &str {
        "1-9 selection"
    }

    fn num_players(&self) -> usize {
        2
    }

    fn player_name(&self, p: Player) -> &str {
        ["A", "B"][p]
    }

    fn initial_state(&self) -> Result<SelectState, GameError> {
        Ok(SelectState {
            free: Self::ALL_FREE,
            last: 0,
            to_move: 0,
        })
    }

    fn turn(&self, s: &SelectState) -> Result<Turn, GameError> {
        let any = (1..=9).any(|x| s.free & (1 << x) != 0 && Self::allowed(s.last, x));
        Ok(if any {
            Turn::Player(s.to_move as Player)
        } else {
            Turn::Terminal
        })
    }

    fn legal_moves(&self, s: &SelectState, out: &mut Vec<u8>) -> Result<(), GameError> {
        out.clear();
        out.extend((1..=9).filter(|&x| s.free & (1 << x) != 0 && Self::allowed(s.last, x)));
        Ok(())
    }

    fn apply(&self, s: &mut SelectState, mv: &u8) -> Result<(), GameError> {
        s.free &= !(1 << mv);
        s.last = *mv;
        s.to_move = other(s.to_move);
        Ok(())
    }

    fn returns(&self, s: &SelectState, player: Player) -> Result<f64, GameError> {
        let winner = other(s.to_move) as Player;
        let x = f64::from(s.last);
        Ok(if player == winner { x } else { -x })
    }

    fn move_text(&self, mv: &u8) -> String {
        mv.to_string()
    }

    fn state_text(&self, s: &SelectState) -> String {
        let mut text = String::from("free: {");
        for (i, x) in (1..=9).filter(|&x| s.free & (1 << x) != 0).enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            let _ = write!(text, "{x}");
        }
        let _ = write!(text, "}}, last: {}", s.last);
        text
    }
}

/// The players of the board games, as their files name them.
const X_AND_O: [&str; 2] = ["X", "O"];

/// `{1, 5, 9}`: the members of a set of cells, smallest first.
fn set_text(cells: impl Iterator<Item = u8>) -> String {
    let cells: Vec<String> = cells.map(|c| c.to_string()).collect();
    format!("{{{}}}", cells.join(", "))
}

/// Tic-tac-toe: X and O mark free cells of a 3×3 board, numbered 1 to 9 row
/// by row; three in a row, a column or a diagonal win, a full board without
/// such a line is a draw. A move is its cell: `5`.
#[derive(Clone, Debug, Default)]
pub struct TicTacToe;

/// A position of tic-tac-toe: each player's marks, bit `n` for cell `n`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct TicTacToeState {
    pub marks: [u16; 2],
    pub to_move: u8,
}

impl TicTacToe {
    /// Every cell, bits 1..=9.
    const FULL: u16 = 0b11_1111_1110;

    /// The rows, columns and diagonals.
    const LINES: [u16; 8] = {
        const fn cells(a: u16, b: u16, c: u16) -> u16 {
            (1 << a) | (1 << b) | (1 << c)
        }
        [
            cells(1, 2, 3),
            cells(4, 5, 6),
            cells(7, 8, 9),
            cells(1, 4, 7),
            cells(2, 5, 8),
            cells(3, 6, 9),
            cells(1, 5, 9),
            cells(3, 5, 7),
        ]
    };

    fn won(marks: u16) -> bool {
        Self::LINES.iter().any(|&line| line & !marks == 0)
    }

    /// The winner of a position, if there is one: only the last mover can
    /// have made a line.
    fn winner(s: &TicTacToeState) -> Option<Player> {
        let last_mover = other(s.to_move);
        Self::won(s.marks[last_mover as usize]).then_some(last_mover as Player)
    }

    /// Any position: the cells of X and O, and the player to move.
    pub fn state(x: &[u8], o: &[u8], to_move: u8) -> TicTacToeState {
        let bits = |cells: &[u8]| cells.iter().fold(0, |b, &c| b | 1 << c);
        TicTacToeState {
            marks: [bits(x), bits(o)],
            to_move,
        }
    }
}

impl Game for TicTacToe {
    type State = TicTacToeState;
    type Move = u8;

    fn name(&self) -> &str {
        "Tic-tac-toe"
    }

    fn num_players(&self) -> usize {
        2
    }

    fn player_name(&self, p: Player) -> &str {
        X_AND_O[p]
    }

    fn initial_state(&self) -> Result<TicTacToeState, GameError> {
        Ok(TicTacToe::state(&[], &[], 0))
    }

    fn turn(&self, s: &TicTacToeState) -> Result<Turn, GameError> {
        let full = s.marks[0] | s.marks[1] == Self::FULL;
        Ok(if full || Self::winner(s).is_some() {
            Turn::Terminal
        } else {
            Turn::Player(s.to_move as Player)
        })
    }

    fn legal_moves(&self, s: &TicTacToeState, out: &mut Vec<u8>) -> Result<(), GameError> {
        out.clear();
        let taken = s.marks[0] | s.marks[1];
        out.extend((1..=9).filter(|&c| taken & (1 << c) == 0));
        Ok(())
    }

    fn apply(&self, s: &mut TicTacToeState, mv: &u8) -> Result<(), GameError> {
        s.marks[s.to_move as usize] |= 1 << mv;
        s.to_move = other(s.to_move);
        Ok(())
    }

    fn returns(&self, s: &TicTacToeState, player: Player) -> Result<f64, GameError> {
        Ok(match Self::winner(s) {
            None => 0.0,
            Some(w) if w == player => 1.0,
            Some(_) => -1.0,
        })
    }

    fn move_text(&self, mv: &u8) -> String {
        mv.to_string()
    }

    /// `free: {2, 3, 4, 6, 7, 8, 9}, marks: [{5}, {1}]`, as the file's state reads.
    fn state_text(&self, s: &TicTacToeState) -> String {
        let cells = |bits: u16| set_text((1..=9).filter(move |&c| bits & (1 << c) != 0));
        let free = Self::FULL & !(s.marks[0] | s.marks[1]);
        format!(
            "free: {}, marks: [{}, {}]",
            cells(free),
            cells(s.marks[0]),
            cells(s.marks[1])
        )
    }
}

/// Connect four: X and O drop discs into the columns of an upright board of
/// `rows` × `cols`; `connect` discs of one player in a line (across, up and
/// down, diagonal) win, a full board without one is a draw. A move is its
/// column, counted from 1: `4`.
///
/// Bitboards: column `c` is bits `c * (rows + 1) ..`, bottom first, with one
/// empty bit on top of each column, so that no line runs from one column
/// into the next. Boards with `(rows + 1) * cols <= 64`.
#[derive(Clone, Debug)]
pub struct Connect4 {
    rows: u32,
    cols: u32,
    connect: u32,
    /// The bottom cell of every column.
    bottoms: u64,
    /// Every cell of the board.
    board: u64,
}

/// A position of connect four.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Connect4State {
    /// Each player's discs.
    pub discs: [u64; 2],
    /// The column of the last disc, from 1; 0 before the first (the file keeps it too).
    pub last: u8,
    pub to_move: u8,
}

impl Connect4 {
    pub fn new(rows: u32, cols: u32, connect: u32) -> Self {
        assert!(rows >= 1 && cols >= 1 && connect >= 1);
        assert!((rows + 1) * cols <= 64, "the board does not fit a bitboard");
        let bottoms = (0..cols).fold(0, |b, c| b | 1 << (c * (rows + 1)));
        let column = (1 << rows) - 1;
        Connect4 {
            rows,
            cols,
            connect,
            bottoms,
            board: bottoms * column,
        }
    }

    /// The usual board: 6 rows, 7 columns, four in a line.
    pub fn standard() -> Self {
        Self::new(6, 7, 4)
    }

    fn column_cells(&self, col: u32) -> u64 {
        ((1 << self.rows) - 1) << (col * (self.rows + 1))
    }

    fn top_cell(&self, col: u32) -> u64 {
        1 << (col * (self.rows + 1) + self.rows - 1)
    }

    /// Whether `discs` hold `connect` in a line. Each direction is a shift:
    /// up 1, across rows + 1, and the diagonals rows and rows + 2.
    fn has_line(&self, discs: u64) -> bool {
        let h = self.rows + 1;
        [1, h, h - 1, h + 1].into_iter().any(|shift| {
            let mut line = discs;
            for i in 1..self.connect {
                line &= discs.checked_shr(shift * i).unwrap_or(0);
            }
            line != 0
        })
    }

    /// The player who has a line: only the last mover can.
    fn winner(&self, s: &Connect4State) -> Option<Player> {
        let last_mover = other(s.to_move);
        self.has_line(s.discs[last_mover as usize])
            .then_some(last_mover as Player)
    }
}

impl Game for Connect4 {
    type State = Connect4State;
    type Move = u8;

    fn name(&self) -> &str {
        "Connect four"
    }

    fn num_players(&self) -> usize {
        2
    }

    fn player_name(&self, p: Player) -> &str {
        X_AND_O[p]
    }

    fn initial_state(&self) -> Result<Connect4State, GameError> {
        Ok(Connect4State {
            discs: [0, 0],
            last: 0,
            to_move: 0,
        })
    }

    fn turn(&self, s: &Connect4State) -> Result<Turn, GameError> {
        let full = s.discs[0] | s.discs[1] == self.board;
        Ok(if self.winner(s).is_some() || full {
            Turn::Terminal
        } else {
            Turn::Player(s.to_move as Player)
        })
    }

    fn legal_moves(&self, s: &Connect4State, out: &mut Vec<u8>) -> Result<(), GameError> {
        out.clear();
        let taken = s.discs[0] | s.discs[1];
        out.extend(
            (0..self.cols)
                .filter(|&c| taken & self.top_cell(c) == 0)
                .map(|c| c as u8 + 1),
        );
        Ok(())
    }

    fn apply(&self, s: &mut Connect4State, mv: &u8) -> Result<(), GameError> {
        let col = u32::from(*mv) - 1;
        let cells = self.column_cells(col);
        let taken = (s.discs[0] | s.discs[1]) & cells;
        // The lowest free cell of the column: one past its discs.
        let disc = (taken + (self.bottoms & cells)) & cells & !taken;
        s.discs[s.to_move as usize] |= disc;
        s.last = *mv;
        s.to_move = other(s.to_move);
        Ok(())
    }

    fn returns(&self, s: &Connect4State, player: Player) -> Result<f64, GameError> {
        Ok(match self.winner(s) {
            None => 0.0,
            Some(w) if w == player => 1.0,
            Some(_) => -1.0,
        })
    }

    fn move_text(&self, mv: &u8) -> String {
        mv.to_string()
    }

    /// `columns: [[X, O], [], ...], last: 1`, as the file's state reads.
    fn state_text(&self, s: &Connect4State) -> String {
        let columns: Vec<String> = (0..self.cols)
            .map(|c| {
                let discs: Vec<&str> = (0..self.rows)
                    .map(|r| 1u64 << (c * (self.rows + 1) + r))
                    .map_while(|cell| (0..2).find(|&p| s.discs[p] & cell != 0).map(|p| X_AND_O[p]))
                    .collect();
                format!("[{}]", discs.join(", "))
            })
            .collect();
        format!("columns: [{}], last: {}", columns.join(", "), s.last)
    }
}
