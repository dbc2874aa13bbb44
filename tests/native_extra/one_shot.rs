//! A matrix game played once: both players choose at once, then the game
//! ends with the row player winning the matrix entry (the column player
//! loses it). Rock-paper-scissors, matching pennies, any small matrix.

use gdl::game::{Game, GameError, Player, Turn};

#[derive(Clone, Debug)]
pub struct OneShot {
    pub name: String,
    pub rows: Vec<String>,
    pub cols: Vec<String>,
    /// Payoff to the row player, row by row.
    pub payoff: Vec<Vec<f64>>,
}

/// The choices made, once made.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct OneShotState(pub Option<(u8, u8)>);

impl OneShot {
    pub fn new(name: &str, payoff: Vec<Vec<f64>>) -> Self {
        let rows = (0..payoff.len()).map(|i| format!("r{i}")).collect();
        let cols = (0..payoff[0].len()).map(|j| format!("c{j}")).collect();
        OneShot {
            name: name.into(),
            rows,
            cols,
            payoff,
        }
    }

    pub fn rock_paper_scissors() -> Self {
        let mut g = OneShot::new(
            "rock-paper-scissors",
            vec![vec![0.0, -1.0, 1.0], vec![1.0, 0.0, -1.0], vec![-1.0, 1.0, 0.0]],
        );
        let names: Vec<String> = ["rock", "paper", "scissors"].map(String::from).to_vec();
        g.rows = names.clone();
        g.cols = names;
        g
    }

    pub fn matching_pennies() -> Self {
        let mut g = OneShot::new("matching pennies", vec![vec![1.0, -1.0], vec![-1.0, 1.0]]);
        g.rows = vec!["heads".into(), "tails".into()];
        g.cols = g.rows.clone();
        g
    }
}

impl Game for OneShot {
    type State = OneShotState;
    /// (player, index of the choice)
    type Move = (u8, u8);

    fn name(&self) -> &str {
        &self.name
    }
    fn num_players(&self) -> usize {
        2
    }
    fn player_name(&self, p: Player) -> &str {
        ["Row", "Column"][p]
    }
    fn initial_state(&self) -> Result<OneShotState, GameError> {
        Ok(OneShotState(None))
    }
    fn turn(&self, s: &OneShotState) -> Result<Turn, GameError> {
        Ok(if s.0.is_some() {
            Turn::Terminal
        } else {
            Turn::Simultaneous
        })
    }
    fn legal_moves(&self, s: &OneShotState, out: &mut Vec<(u8, u8)>) -> Result<(), GameError> {
        self.legal_moves_of(s, 0, out)
    }
    fn legal_moves_of(&self, s: &OneShotState, p: Player, out: &mut Vec<(u8, u8)>) -> Result<(), GameError> {
        out.clear();
        if s.0.is_none() {
            let n = if p == 0 { self.rows.len() } else { self.cols.len() };
            out.extend((0..n as u8).map(|i| (p as u8, i)));
        }
        Ok(())
    }
    fn apply(&self, _: &mut OneShotState, _: &(u8, u8)) -> Result<(), GameError> {
        Err(GameError::new(
            gdl::error_kind::RuntimeKind::Internal,
            "both players move at once",
        ))
    }
    fn apply_joint(&self, s: &mut OneShotState, moves: &[(u8, u8)]) -> Result<(), GameError> {
        s.0 = Some((moves[0].1, moves[1].1));
        Ok(())
    }
    fn returns(&self, s: &OneShotState, p: Player) -> Result<f64, GameError> {
        let (i, j) = s.0.expect("terminal");
        let v = self.payoff[i as usize][j as usize];
        Ok(if p == 0 { v } else { -v })
    }
    fn move_text(&self, mv: &(u8, u8)) -> String {
        if mv.0 == 0 {
            self.rows[mv.1 as usize].clone()
        } else {
            self.cols[mv.1 as usize].clone()
        }
    }
    fn state_text(&self, s: &OneShotState) -> String {
        match s.0 {
            None => "choosing".into(),
            Some((i, j)) => format!("{} against {}", self.rows[i as usize], self.cols[j as usize]),
        }
    }
}
