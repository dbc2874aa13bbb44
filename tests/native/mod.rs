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

    /// `board: [7, 5, 3, 1]`
    fn text(&self) -> String {
        let cells: Vec<String> = self.cells().iter().map(u8::to_string).collect();
        format!("board: [{}]", cells.join(", "))
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
