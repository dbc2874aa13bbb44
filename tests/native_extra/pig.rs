//! Pig and Piglet (Neller & Presser, "Optimal Play of the Dice Game Pig",
//! 2004): on your turn, roll as often as you like; a bust loses the turn's
//! points and the turn, any other roll adds to the turn total; holding banks
//! the turn total (holding at 0 passes). The first to reach `goal` wins: the
//! game ends as soon as the score plus the turn total reaches it (holding
//! then is the only sensible move).

use gdl::game::{Game, GameError, Player, Turn};

#[derive(Clone, Debug)]
pub struct Pig {
    pub goal: u8,
    /// What each face of the die adds, equally likely; 0 is a bust. Pig's
    /// die is `[0, 2, 3, 4, 5, 6]`, Piglet's coin `[0, 1]`.
    pub faces: Vec<u8>,
    /// End the game after this many turns (the higher score wins, a tie is
    /// a draw): an acyclic variant, small enough to enumerate.
    pub max_turns: Option<u8>,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PigState {
    pub scores: [u8; 2],
    pub turn_total: u8,
    pub to_move: u8,
    /// The die is in the air: chance acts.
    pub rolling: bool,
    /// Turns ended so far.
    pub turns: u8,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PigMove {
    Roll,
    Hold,
    /// The die shows the face worth this much (0: bust).
    Face(u8),
}

impl Pig {
    pub fn piglet(goal: u8) -> Self {
        Pig {
            goal,
            faces: vec![0, 1],
            max_turns: None,
        }
    }

    pub fn dice(goal: u8) -> Self {
        Pig {
            goal,
            faces: vec![0, 2, 3, 4, 5, 6],
            max_turns: None,
        }
    }

    /// The position where the player to move has `me`, the other `other`,
    /// and `turn_total` on this turn.
    pub fn position(&self, me: u8, other: u8, turn_total: u8, to_move: u8) -> PigState {
        let mut scores = [0; 2];
        scores[to_move as usize] = me;
        scores[1 - to_move as usize] = other;
        PigState {
            scores,
            turn_total,
            to_move,
            rolling: false,
            turns: 0,
        }
    }

    fn winner(&self, s: &PigState) -> Option<u8> {
        (0..2).find(|&p| s.scores[p as usize] >= self.goal)
    }

    fn end_turn(&self, s: &mut PigState) {
        s.turn_total = 0;
        s.to_move = 1 - s.to_move;
        // Counted only when it ends the game: otherwise positions recur.
        if self.max_turns.is_some() {
            s.turns += 1;
        }
    }
}

impl Game for Pig {
    type State = PigState;
    type Move = PigMove;

    fn name(&self) -> &str {
        "Pig"
    }
    fn num_players(&self) -> usize {
        2
    }
    fn player_name(&self, p: Player) -> &str {
        ["A", "B"][p]
    }
    fn initial_state(&self) -> Result<PigState, GameError> {
        Ok(self.position(0, 0, 0, 0))
    }
    fn turn(&self, s: &PigState) -> Result<Turn, GameError> {
        if self.winner(s).is_some() || self.max_turns.is_some_and(|t| s.turns >= t) {
            Ok(Turn::Terminal)
        } else if s.rolling {
            Ok(Turn::Chance)
        } else {
            Ok(Turn::Player(s.to_move as usize))
        }
    }
    fn legal_moves(&self, s: &PigState, out: &mut Vec<PigMove>) -> Result<(), GameError> {
        out.clear();
        if s.rolling {
            out.extend(self.faces.iter().map(|&f| PigMove::Face(f)));
        } else {
            out.extend([PigMove::Roll, PigMove::Hold]);
        }
        Ok(())
    }
    fn chance_outcomes(&self, _: &PigState, out: &mut Vec<(PigMove, f64)>) -> Result<(), GameError> {
        out.clear();
        let p = 1.0 / self.faces.len() as f64;
        out.extend(self.faces.iter().map(|&f| (PigMove::Face(f), p)));
        Ok(())
    }
    fn apply(&self, s: &mut PigState, mv: &PigMove) -> Result<(), GameError> {
        match *mv {
            PigMove::Roll => s.rolling = true,
            PigMove::Hold => {
                s.scores[s.to_move as usize] += s.turn_total;
                self.end_turn(s);
            }
            PigMove::Face(0) => {
                s.rolling = false;
                self.end_turn(s);
            }
            PigMove::Face(f) => {
                s.rolling = false;
                s.turn_total += f;
                let me = s.to_move as usize;
                if s.scores[me] + s.turn_total >= self.goal {
                    s.scores[me] += s.turn_total;
                    s.turn_total = 0;
                }
            }
        }
        Ok(())
    }
    fn returns(&self, s: &PigState, p: Player) -> Result<f64, GameError> {
        let lead = match self.winner(s) {
            Some(w) => {
                if w == 0 {
                    1.0
                } else {
                    -1.0
                }
            }
            None => super::goofspiel::sign(s.scores[0] as f64 - s.scores[1] as f64),
        };
        Ok(if p == 0 { lead } else { -lead })
    }
    fn move_text(&self, mv: &PigMove) -> String {
        match mv {
            PigMove::Roll => "roll".into(),
            PigMove::Hold => "hold".into(),
            PigMove::Face(0) => "bust".into(),
            PigMove::Face(f) => format!("+{f}"),
        }
    }
    fn state_text(&self, s: &PigState) -> String {
        let turns = match self.max_turns {
            Some(_) => format!(", turns: {}", s.turns),
            None => String::new(),
        };
        format!(
            "scores: [{}, {}], turn: {}{}{turns}",
            s.scores[0],
            s.scores[1],
            s.turn_total,
            if s.rolling { ", rolling" } else { "" }
        )
    }
}
