//! Leduc poker as OpenSpiel plays it (Southey et al., 2005): six cards,
//! two each of J, Q, K; antes of 1; a private card each, a betting round
//! (raises of 2, at most two), one public card, a second round (raises of
//! 4). A pair with the public card wins, then the higher card. Player 0
//! starts both rounds; folding is allowed only against a bet.

use gdl::game::{Game, GameError, Player, Turn};

#[derive(Clone, Debug, Default)]
pub struct Leduc;

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct LeducState {
    /// Private cards dealt so far (0..6; rank = card / 2).
    pub private: Vec<u8>,
    pub public: Option<u8>,
    pub round: u8,
    pub stakes: u8,
    pub ante: [u8; 2],
    pub raises: u8,
    pub calls: u8,
    pub to_move: u8,
    pub folded: Option<u8>,
    /// Each round's actions: `f`, `c`, `r`.
    pub history: [String; 2],
    /// Waiting for the public card.
    pub dealing_public: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum LeducMove {
    Fold,
    Call,
    Raise,
    Deal(u8),
}

const RANKS: [&str; 3] = ["J", "Q", "K"];

fn card_text(c: u8) -> String {
    format!("{}{}", RANKS[(c / 2) as usize], c % 2 + 1)
}

impl LeducState {
    fn over(&self) -> bool {
        self.folded.is_some() || self.round == 3
    }

    fn rank(&self, p: usize) -> u32 {
        let public = self.public.expect("a showdown has the public card") as u32;
        let mine = self.private[p] as u32;
        let (lo, hi) = (public.min(mine), public.max(mine));
        if lo % 2 == 0 && hi == lo + 1 {
            36 + lo
        } else {
            (hi / 2) * 6 + lo / 2
        }
    }
}

impl Game for Leduc {
    type State = LeducState;
    type Move = LeducMove;

    fn name(&self) -> &str {
        "Leduc poker"
    }
    fn num_players(&self) -> usize {
        2
    }
    fn player_name(&self, p: Player) -> &str {
        ["first", "second"][p]
    }
    fn initial_state(&self) -> Result<LeducState, GameError> {
        Ok(LeducState {
            private: Vec::new(),
            public: None,
            round: 1,
            stakes: 1,
            ante: [1, 1],
            raises: 0,
            calls: 0,
            to_move: 0,
            folded: None,
            history: [String::new(), String::new()],
            dealing_public: false,
        })
    }
    fn turn(&self, s: &LeducState) -> Result<Turn, GameError> {
        Ok(if s.over() {
            Turn::Terminal
        } else if s.private.len() < 2 || s.dealing_public {
            Turn::Chance
        } else {
            Turn::Player(s.to_move as usize)
        })
    }
    fn legal_moves(&self, s: &LeducState, out: &mut Vec<LeducMove>) -> Result<(), GameError> {
        out.clear();
        if s.private.len() < 2 || s.dealing_public {
            out.extend((0..6).filter(|c| !s.private.contains(c)).map(LeducMove::Deal));
            return Ok(());
        }
        if s.stakes > s.ante[s.to_move as usize] {
            out.push(LeducMove::Fold);
        }
        out.push(LeducMove::Call);
        if s.raises < 2 {
            out.push(LeducMove::Raise);
        }
        Ok(())
    }
    fn chance_outcomes(&self, s: &LeducState, out: &mut Vec<(LeducMove, f64)>) -> Result<(), GameError> {
        let mut moves = Vec::new();
        self.legal_moves(s, &mut moves)?;
        let p = 1.0 / moves.len() as f64;
        out.clear();
        out.extend(moves.into_iter().map(|m| (m, p)));
        Ok(())
    }
    fn apply(&self, s: &mut LeducState, mv: &LeducMove) -> Result<(), GameError> {
        let me = s.to_move as usize;
        let round = (s.round - 1) as usize;
        match *mv {
            LeducMove::Deal(c) => {
                if s.dealing_public {
                    s.public = Some(c);
                    s.dealing_public = false;
                    s.to_move = 0;
                } else {
                    s.private.push(c);
                }
            }
            LeducMove::Fold => {
                s.history[round].push('f');
                s.folded = Some(s.to_move);
            }
            LeducMove::Call => {
                s.history[round].push('c');
                s.ante[me] = s.stakes;
                s.calls += 1;
                let ready = (s.raises == 0 && s.calls == 2) || (s.raises > 0 && s.calls == 1);
                if ready {
                    s.round += 1;
                    s.raises = 0;
                    s.calls = 0;
                    s.dealing_public = s.round == 2;
                } else {
                    s.to_move = 1 - s.to_move;
                }
            }
            LeducMove::Raise => {
                s.history[round].push('r');
                let amount = if s.round == 1 { 2 } else { 4 };
                s.stakes += amount;
                s.ante[me] = s.stakes;
                s.raises += 1;
                s.calls = 0;
                s.to_move = 1 - s.to_move;
            }
        }
        Ok(())
    }
    fn returns(&self, s: &LeducState, p: Player) -> Result<f64, GameError> {
        let v = match s.folded {
            Some(0) => -(s.ante[0] as f64),
            Some(_) => s.ante[1] as f64,
            None => match s.rank(0).cmp(&s.rank(1)) {
                std::cmp::Ordering::Greater => s.ante[1] as f64,
                std::cmp::Ordering::Less => -(s.ante[0] as f64),
                std::cmp::Ordering::Equal => 0.0,
            },
        };
        Ok(if p == 0 { v } else { -v })
    }
    fn move_text(&self, mv: &LeducMove) -> String {
        match mv {
            LeducMove::Fold => "fold".into(),
            LeducMove::Call => "call".into(),
            LeducMove::Raise => "raise".into(),
            LeducMove::Deal(c) => card_text(*c),
        }
    }
    fn state_text(&self, s: &LeducState) -> String {
        let private: Vec<String> = s.private.iter().map(|&c| card_text(c)).collect();
        format!(
            "private: [{}], public: {}, bets: {}/{}",
            private.join(", "),
            s.public.map_or("-".into(), card_text),
            s.history[0],
            s.history[1]
        )
    }
    fn observation(&self, s: &LeducState, p: Player) -> String {
        format!(
            "card: {}, public: {}, bets: {}/{}",
            s.private.get(p).map_or("?".into(), |&c| card_text(c)),
            s.public.map_or("-".into(), card_text),
            s.history[0],
            s.history[1]
        )
    }
}
