//! Kuhn poker (Kuhn, 1950): three cards J, Q, K; each player antes 1 and
//! is dealt one card. Player 0 passes or bets 1; then player 1 passes or
//! bets; after pass–bet player 0 passes (folds) or bets (calls). Pass–pass
//! and bet–bet go to a showdown (the higher card wins the pot); a pass
//! after a bet folds. The value for player 0 is -1/18.

use gdl::game::{Game, GameError, Player, Turn};

#[derive(Clone, Debug, Default)]
pub struct Kuhn;

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct KuhnState {
    /// The cards dealt so far: 0 = J, 1 = Q, 2 = K.
    pub cards: Vec<u8>,
    /// The bets so far: `p` for pass, `b` for bet.
    pub bets: String,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum KuhnMove {
    Deal(u8),
    Pass,
    Bet,
}

const CARDS: [&str; 3] = ["J", "Q", "K"];

impl KuhnState {
    fn over(&self) -> bool {
        matches!(self.bets.as_str(), "pp" | "bb" | "bp" | "pbp" | "pbb")
    }
}

impl Game for Kuhn {
    type State = KuhnState;
    type Move = KuhnMove;

    fn name(&self) -> &str {
        "Kuhn poker"
    }
    fn num_players(&self) -> usize {
        2
    }
    fn player_name(&self, p: Player) -> &str {
        ["first", "second"][p]
    }
    fn initial_state(&self) -> Result<KuhnState, GameError> {
        Ok(KuhnState {
            cards: Vec::new(),
            bets: String::new(),
        })
    }
    fn turn(&self, s: &KuhnState) -> Result<Turn, GameError> {
        Ok(if s.cards.len() < 2 {
            Turn::Chance
        } else if s.over() {
            Turn::Terminal
        } else {
            Turn::Player(s.bets.len() % 2)
        })
    }
    fn legal_moves(&self, s: &KuhnState, out: &mut Vec<KuhnMove>) -> Result<(), GameError> {
        out.clear();
        if s.cards.len() < 2 {
            out.extend((0..3).filter(|c| !s.cards.contains(c)).map(KuhnMove::Deal));
        } else {
            out.extend([KuhnMove::Pass, KuhnMove::Bet]);
        }
        Ok(())
    }
    fn chance_outcomes(&self, s: &KuhnState, out: &mut Vec<(KuhnMove, f64)>) -> Result<(), GameError> {
        let mut moves = Vec::new();
        self.legal_moves(s, &mut moves)?;
        let p = 1.0 / moves.len() as f64;
        out.clear();
        out.extend(moves.into_iter().map(|m| (m, p)));
        Ok(())
    }
    fn apply(&self, s: &mut KuhnState, mv: &KuhnMove) -> Result<(), GameError> {
        match mv {
            KuhnMove::Deal(c) => s.cards.push(*c),
            KuhnMove::Pass => s.bets.push('p'),
            KuhnMove::Bet => s.bets.push('b'),
        }
        Ok(())
    }
    fn returns(&self, s: &KuhnState, p: Player) -> Result<f64, GameError> {
        let high = if s.cards[0] > s.cards[1] { 1.0 } else { -1.0 };
        let v = match s.bets.as_str() {
            "pp" => high,
            "bb" | "pbb" => 2.0 * high,
            "bp" => 1.0,
            "pbp" => -1.0,
            other => panic!("not over: {other}"),
        };
        Ok(if p == 0 { v } else { -v })
    }
    fn move_text(&self, mv: &KuhnMove) -> String {
        match mv {
            KuhnMove::Deal(c) => CARDS[*c as usize].into(),
            KuhnMove::Pass => "pass".into(),
            KuhnMove::Bet => "bet".into(),
        }
    }
    fn state_text(&self, s: &KuhnState) -> String {
        let cards: Vec<&str> = s.cards.iter().map(|&c| CARDS[c as usize]).collect();
        format!("cards: [{}], bets: {}", cards.join(", "), s.bets)
    }
    fn observation(&self, s: &KuhnState, p: Player) -> String {
        let card = s.cards.get(p).map_or("?", |&c| CARDS[c as usize]);
        format!("card: {card}, bets: {}", s.bets)
    }
}
