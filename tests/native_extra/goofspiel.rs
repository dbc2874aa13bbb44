//! Goofspiel: each player holds the cards 1..n; each round a prize card is
//! turned up, both players bid one of their cards at once, and the higher
//! bid wins the prize's points (a tie discards it). After n rounds the
//! higher total wins (+1, -1, or 0 for a tie), or, with `point_difference`,
//! the difference in points is paid.
//!
//! With public bids, both bids are shown after each round (perfect
//! information); with hidden bids, a player sees only its own cards, the
//! prizes and the points (OpenSpiel's imperfect-information Goofspiel).

use gdl::game::{Game, GameError, Player, Turn};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prizes {
    /// Prize k in round k.
    Ascending,
    /// Drawn at random from those left.
    Random,
}

#[derive(Clone, Debug)]
pub struct Goofspiel {
    pub cards: u8,
    pub prizes: Prizes,
    pub hidden_bids: bool,
    pub point_difference: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct GoofState {
    /// Cards still held, as bits (bit k: card k + 1).
    pub hands: [u16; 2],
    /// Prizes not yet turned up.
    pub deck: u16,
    /// The prize on the table (0: none, chance turns one up).
    pub prize: u8,
    pub points: [u8; 2],
    pub round: u8,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GoofMove {
    Bid(u8),
    Prize(u8),
}

fn cards_of(bits: u16) -> Vec<u8> {
    (0..16).filter(|k| bits & (1 << k) != 0).map(|k| k + 1).collect()
}

fn list(bits: u16) -> String {
    let c: Vec<String> = cards_of(bits).iter().map(u8::to_string).collect();
    format!("{{{}}}", c.join(", "))
}

impl Goofspiel {
    pub fn new(cards: u8, prizes: Prizes, hidden_bids: bool) -> Self {
        Goofspiel {
            cards,
            prizes,
            hidden_bids,
            point_difference: false,
        }
    }

    /// A position: the hands, the prizes still to come, the points.
    pub fn position(&self, hands: [&[u8]; 2], deck: &[u8], points: [u8; 2]) -> GoofState {
        let bits = |cs: &[u8]| cs.iter().fold(0u16, |b, c| b | 1 << (c - 1));
        let mut s = GoofState {
            hands: [bits(hands[0]), bits(hands[1])],
            deck: bits(deck),
            prize: 0,
            points,
            round: self.cards - hands[0].len() as u8,
        };
        self.turn_up(&mut s);
        s
    }

    /// With prizes in order, the next one is on the table at once.
    fn turn_up(&self, s: &mut GoofState) {
        if self.prizes == Prizes::Ascending && s.deck != 0 {
            let k = s.deck.trailing_zeros() as u8;
            s.deck &= !(1 << k);
            s.prize = k + 1;
        }
    }
}

impl Game for Goofspiel {
    type State = GoofState;
    type Move = GoofMove;

    fn name(&self) -> &str {
        "Goofspiel"
    }
    fn num_players(&self) -> usize {
        2
    }
    fn player_name(&self, p: Player) -> &str {
        ["A", "B"][p]
    }
    fn initial_state(&self) -> Result<GoofState, GameError> {
        let all: Vec<u8> = (1..=self.cards).collect();
        Ok(self.position([&all, &all], &all, [0, 0]))
    }
    fn turn(&self, s: &GoofState) -> Result<Turn, GameError> {
        Ok(if s.prize != 0 {
            Turn::Simultaneous
        } else if s.hands[0] == 0 {
            Turn::Terminal
        } else {
            Turn::Chance
        })
    }
    fn legal_moves(&self, s: &GoofState, out: &mut Vec<GoofMove>) -> Result<(), GameError> {
        out.clear();
        if s.prize == 0 {
            out.extend(cards_of(s.deck).into_iter().map(GoofMove::Prize));
        }
        Ok(())
    }
    fn legal_moves_of(&self, s: &GoofState, p: Player, out: &mut Vec<GoofMove>) -> Result<(), GameError> {
        out.clear();
        if s.prize != 0 {
            out.extend(cards_of(s.hands[p]).into_iter().map(GoofMove::Bid));
        }
        Ok(())
    }
    fn chance_outcomes(&self, s: &GoofState, out: &mut Vec<(GoofMove, f64)>) -> Result<(), GameError> {
        out.clear();
        let left = cards_of(s.deck);
        let p = 1.0 / left.len() as f64;
        out.extend(left.into_iter().map(|c| (GoofMove::Prize(c), p)));
        Ok(())
    }
    fn apply(&self, s: &mut GoofState, mv: &GoofMove) -> Result<(), GameError> {
        match *mv {
            GoofMove::Prize(c) => {
                s.deck &= !(1 << (c - 1));
                s.prize = c;
                Ok(())
            }
            GoofMove::Bid(_) => Err(GameError::new(
                gdl::error_kind::RuntimeKind::Internal,
                "bids are made at once",
            )),
        }
    }
    fn apply_joint(&self, s: &mut GoofState, moves: &[GoofMove]) -> Result<(), GameError> {
        let bid = |m: &GoofMove| match m {
            GoofMove::Bid(c) => *c,
            GoofMove::Prize(_) => 0,
        };
        let (a, b) = (bid(&moves[0]), bid(&moves[1]));
        s.hands[0] &= !(1 << (a - 1));
        s.hands[1] &= !(1 << (b - 1));
        if a > b {
            s.points[0] += s.prize;
        } else if b > a {
            s.points[1] += s.prize;
        }
        s.prize = 0;
        s.round += 1;
        self.turn_up(s);
        Ok(())
    }
    fn returns(&self, s: &GoofState, p: Player) -> Result<f64, GameError> {
        let d = s.points[0] as f64 - s.points[1] as f64;
        // Not `signum`, which makes 0 a win.
        let v = if self.point_difference { d } else { sign(d) };
        Ok(if p == 0 { v } else { -v })
    }
    fn move_text(&self, mv: &GoofMove) -> String {
        match mv {
            GoofMove::Bid(c) => c.to_string(),
            GoofMove::Prize(c) => format!("prize {c}"),
        }
    }
    fn state_text(&self, s: &GoofState) -> String {
        format!(
            "hands: [{}, {}], prize: {}, deck: {}, points: [{}, {}], round: {}",
            list(s.hands[0]),
            list(s.hands[1]),
            s.prize,
            list(s.deck),
            s.points[0],
            s.points[1],
            s.round
        )
    }
    fn observation(&self, s: &GoofState, p: Player) -> String {
        if !self.hidden_bids {
            return self.state_text(s);
        }
        format!(
            "hand: {}, prize: {}, deck: {}, points: [{}, {}], round: {}",
            list(s.hands[p]),
            s.prize,
            list(s.deck),
            s.points[0],
            s.points[1],
            s.round
        )
    }
}

/// +1, -1, or 0 for a tie.
pub fn sign(d: f64) -> f64 {
    if d > 0.0 {
        1.0
    } else if d < 0.0 {
        -1.0
    } else {
        0.0
    }
}
