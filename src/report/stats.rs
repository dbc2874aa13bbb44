//! The statistics of a match: per agent (and per seat) how many games were
//! won, drawn and lost, and the average utility, with 95% intervals. Only
//! numbers here; `report::standings` prints them.

/// How one game went for one player: a win is the strictly highest utility
/// of the game, a draw a share of the highest, anything else a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// The outcome for the player in `seat` of a game that ended with `returns`.
pub fn outcome(returns: &[f64], seat: usize) -> Outcome {
    let mine = returns[seat];
    let best_other = returns
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != seat)
        .map(|(_, v)| *v)
        .fold(f64::NEG_INFINITY, f64::max);
    if mine > best_other {
        Outcome::Win
    } else if mine == best_other {
        Outcome::Draw
    } else {
        Outcome::Loss
    }
}

/// Games of one agent (or one agent in one seat).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Record {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Sum of the utilities, and of their squares (for the variance).
    sum: f64,
    sum_sq: f64,
}

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

impl Record {
    pub fn add(&mut self, utility: f64, outcome: Outcome) {
        self.games += 1;
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
        self.sum += utility;
        self.sum_sq += utility * utility;
    }

    /// The average utility; 0 before any game.
    pub fn mean(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.sum / self.games as f64
        }
    }

    /// Half the width of the 95% interval of the average utility (normal
    /// approximation with the sample variance); `None` below two games.
    pub fn mean_ci95(&self) -> Option<f64> {
        if self.games < 2 {
            return None;
        }
        let n = self.games as f64;
        let var = ((self.sum_sq - self.sum * self.sum / n) / (n - 1.0)).max(0.0);
        Some(Z95 * (var / n).sqrt())
    }

    /// The share of games won.
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.wins as f64 / self.games as f64
        }
    }

    /// The 95% Wilson interval of the win rate: unlike the normal
    /// approximation, it stays inside [0, 1] and is honest at 0% and 100%.
    pub fn win_rate_ci95(&self) -> Option<(f64, f64)> {
        wilson(self.wins, self.games)
    }
}

/// The 95% Wilson score interval of `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    Some(((centre - half).max(0.0), (centre + half).min(1.0)))
}

/// Every game of a match, by agent and by seat.
#[derive(Clone, Debug, PartialEq)]
pub struct Tally {
    /// The agents, as written on the command line.
    pub agents: Vec<String>,
    /// The seats: the game's players in turn order.
    pub seats: Vec<String>,
    /// `overall[agent]`.
    pub overall: Vec<Record>,
    /// `by_seat[agent][seat]`.
    pub by_seat: Vec<Vec<Record>>,
}

impl Tally {
    pub fn new(agents: Vec<String>, seats: Vec<String>) -> Self {
        let n = agents.len();
        Tally {
            overall: vec![Record::default(); n],
            by_seat: vec![vec![Record::default(); seats.len()]; n],
            agents,
            seats,
        }
    }

    /// Records a game: `seating[seat]` is the agent in each seat, `returns[seat]`
    /// the utility of each seat.
    pub fn record(&mut self, seating: &[usize], returns: &[f64]) {
        for (seat, &agent) in seating.iter().enumerate() {
            let o = outcome(returns, seat);
            self.overall[agent].add(returns[seat], o);
            self.by_seat[agent][seat].add(returns[seat], o);
        }
    }

    /// Games recorded.
    pub fn games(&self) -> u64 {
        self.overall.first().map_or(0, |r| r.games)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_compare_with_the_best_other_player() {
        assert_eq!(outcome(&[1.0, -1.0], 0), Outcome::Win);
        assert_eq!(outcome(&[1.0, -1.0], 1), Outcome::Loss);
        assert_eq!(outcome(&[0.0, 0.0], 1), Outcome::Draw);
        assert_eq!(outcome(&[3.0, 3.0, -6.0], 0), Outcome::Draw);
        assert_eq!(outcome(&[3.0, 3.0, -6.0], 2), Outcome::Loss);
    }

    #[test]
    fn intervals_match_textbook_values() {
        let mut r = Record::default();
        for i in 0..100 {
            let win = i % 2 == 0;
            r.add(
                if win { 1.0 } else { -1.0 },
                if win { Outcome::Win } else { Outcome::Loss },
            );
        }
        assert_eq!(r.mean(), 0.0);
        // sd of ±1 with mean 0 over 100 games: sqrt(100/99); 1.96·sd/10.
        let half = r.mean_ci95().unwrap();
        assert!((half - 0.19697).abs() < 1e-4, "{half}");
        // Wilson interval of 50/100: [0.4038, 0.5962].
        let (lo, hi) = r.win_rate_ci95().unwrap();
        assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4, "{lo} {hi}");
        // All won: the interval reaches 1 and is not empty.
        let (lo, hi) = wilson(20, 20).unwrap();
        assert!(hi == 1.0 && lo > 0.8 && lo < 0.9, "{lo}");
        assert_eq!(Record::default().mean_ci95(), None);
    }

    #[test]
    fn a_tally_keeps_agents_and_seats_apart() {
        let mut t = Tally::new(vec!["a".into(), "b".into()], vec!["X".into(), "Y".into()]);
        t.record(&[0, 1], &[1.0, -1.0]); // a first, wins
        t.record(&[1, 0], &[1.0, -1.0]); // b first, wins
        assert_eq!(t.games(), 2);
        assert_eq!((t.overall[0].wins, t.overall[0].losses), (1, 1));
        assert_eq!(t.by_seat[0][0].wins, 1);
        assert_eq!(t.by_seat[0][1].losses, 1);
        assert_eq!(t.by_seat[1][0].games, 1);
    }
}
