//! Kayles (Dudeney; Guy & Smith): rows of pins; a move knocks down one pin
//! or two adjacent pins, which may split a row in two. Normal play: whoever
//! knocks down the last pin wins. Its Grundy values are OEIS A002186.
//!
//! Also `Partizan`, a game that is not impartial: from a heap, the first
//! player may take 1 object, the second 1 or 2.

use gdl::game::{Game, GameError, Player, Turn};

#[derive(Clone, Debug)]
pub struct Kayles {
    pub rows: Vec<u8>,
}

/// The rows, sorted (their order does not matter), and who moves.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct KaylesState {
    pub rows: Vec<u8>,
    pub to_move: u8,
}

/// Knock `count` pins from the row at `row` (in the sorted order), leaving
/// `left` pins to their left.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Knock {
    pub row: u8,
    pub count: u8,
    pub left: u8,
}

fn normalized(mut rows: Vec<u8>) -> Vec<u8> {
    rows.retain(|&r| r > 0);
    rows.sort_unstable();
    rows
}

impl Game for Kayles {
    type State = KaylesState;
    type Move = Knock;

    fn name(&self) -> &str {
        "Kayles"
    }
    fn num_players(&self) -> usize {
        2
    }
    fn player_name(&self, p: Player) -> &str {
        ["A", "B"][p]
    }
    fn initial_state(&self) -> Result<KaylesState, GameError> {
        Ok(KaylesState {
            rows: normalized(self.rows.clone()),
            to_move: 0,
        })
    }
    fn turn(&self, s: &KaylesState) -> Result<Turn, GameError> {
        Ok(if s.rows.is_empty() {
            Turn::Terminal
        } else {
            Turn::Player(s.to_move as usize)
        })
    }
    fn legal_moves(&self, s: &KaylesState, out: &mut Vec<Knock>) -> Result<(), GameError> {
        out.clear();
        for (i, &len) in s.rows.iter().enumerate() {
            // A row equal to the one before gives the same positions.
            if i > 0 && s.rows[i - 1] == len {
                continue;
            }
            for count in 1..=len.min(2) {
                // Splits (a, b) and (b, a) lead to the same position.
                for left in 0..=(len - count) / 2 {
                    out.push(Knock {
                        row: i as u8,
                        count,
                        left,
                    });
                }
            }
        }
        Ok(())
    }
    fn apply(&self, s: &mut KaylesState, mv: &Knock) -> Result<(), GameError> {
        let len = s.rows[mv.row as usize];
        let right = len - mv.count - mv.left;
        let mut rows = s.rows.clone();
        rows[mv.row as usize] = mv.left;
        rows.push(right);
        s.rows = normalized(rows);
        s.to_move = 1 - s.to_move;
        Ok(())
    }
    fn returns(&self, s: &KaylesState, p: Player) -> Result<f64, GameError> {
        // The player to move at the end could not move: the other knocked
        // down the last pin and wins.
        Ok(if p == s.to_move as usize { -1.0 } else { 1.0 })
    }
    fn move_text(&self, mv: &Knock) -> String {
        format!("({}, {}, {})", mv.row, mv.count, mv.left)
    }
    fn state_text(&self, s: &KaylesState) -> String {
        let rows: Vec<String> = s.rows.iter().map(u8::to_string).collect();
        format!("rows: [{}]", rows.join(", "))
    }
}

/// A heap of objects; the first player takes exactly 1, the second 1 or 2.
/// Whoever takes the last object wins. Not impartial.
#[derive(Clone, Debug)]
pub struct Partizan {
    pub heap: u8,
}

impl Game for Partizan {
    type State = (u8, u8);
    type Move = u8;

    fn name(&self) -> &str {
        "Partizan"
    }
    fn num_players(&self) -> usize {
        2
    }
    fn player_name(&self, p: Player) -> &str {
        ["A", "B"][p]
    }
    fn initial_state(&self) -> Result<(u8, u8), GameError> {
        Ok((self.heap, 0))
    }
    fn turn(&self, s: &(u8, u8)) -> Result<Turn, GameError> {
        Ok(if s.0 == 0 {
            Turn::Terminal
        } else {
            Turn::Player(s.1 as usize)
        })
    }
    fn legal_moves(&self, s: &(u8, u8), out: &mut Vec<u8>) -> Result<(), GameError> {
        out.clear();
        let most = if s.1 == 0 { 1 } else { 2 };
        out.extend(1..=most.min(s.0));
        Ok(())
    }
    fn apply(&self, s: &mut (u8, u8), mv: &u8) -> Result<(), GameError> {
        s.0 -= mv;
        s.1 = 1 - s.1;
        Ok(())
    }
    fn returns(&self, s: &(u8, u8), p: Player) -> Result<f64, GameError> {
        Ok(if p == s.1 as usize { -1.0 } else { 1.0 })
    }
    fn move_text(&self, mv: &u8) -> String {
        mv.to_string()
    }
    fn state_text(&self, s: &(u8, u8)) -> String {
        format!("heap: {}", s.0)
    }
}
