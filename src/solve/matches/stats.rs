//! The statistics of a match: per agent (and per seat) how many games were
//! won, drawn and lost, the average result (points or utility) with its 95%
//! interval, and the time each agent took per decision. Only numbers here;
//! `report::standings` prints them.

use std::time::Duration;

/// How one game went for one player: a win is the strictly best result of
/// the game, a draw a share of the best, anything else a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// The outcome for the player in `seat` of a game that ended with `returns`
/// (higher is better).
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

/// What a match counts per game and player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// The utility (`Game::returns`): the highest wins.
    Utility,
    /// The game's scores (`Game::scores`, X Nimmt!'s penalty points): the
    /// lowest wins when `lowest_wins`, else the highest.
    Points { lowest_wins: bool },
}

impl Measure {
    /// What the values are called in reports: `points` or `utility`.
    pub fn label(self) -> &'static str {
        match self {
            Measure::Utility => "utility",
            Measure::Points { .. } => "points",
        }
    }

    /// The outcome for the player in `seat` of a game whose values (points
    /// or utilities, one per seat) are `values`: the best value wins, a
    /// shared best is a draw.
    pub fn outcome(self, values: &[f64], seat: usize) -> Outcome {
        match self {
            Measure::Points { lowest_wins: true } => {
                let negated: Vec<f64> = values.iter().map(|v| -v).collect();
                outcome(&negated, seat)
            }
            _ => outcome(values, seat),
        }
    }
}

/// Games of one agent (or one agent in one seat).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Record {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Sum of the values (points or utilities), and of their squares (for the variance).
    sum: f64,
    sum_sq: f64,
    /// The value of the first win, draw and loss, and whether a later one
    /// differed: returns that vary in size (chips won) make the win rate a
    /// poor summary.
    first: [Option<f64>; 3],
    sized: bool,
}

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

impl Record {
    pub fn add(&mut self, value: f64, outcome: Outcome) {
        self.games += 1;
        let kind = match outcome {
            Outcome::Win => {
                self.wins += 1;
                0
            }
            Outcome::Draw => {
                self.draws += 1;
                1
            }
            Outcome::Loss => {
                self.losses += 1;
                2
            }
        };
        match self.first[kind] {
            None => self.first[kind] = Some(value),
            Some(v) => self.sized |= v != value,
        }
        self.sum += value;
        self.sum_sq += value * value;
    }

    /// The average value; 0 before any game.
    pub fn mean(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.sum / self.games as f64
        }
    }

    /// Half the width of the 95% interval of the average value (normal
    /// approximation with the sample variance); `None` below two games.
    pub fn mean_ci95(&self) -> Option<f64> {
        if self.games < 2 {
            return None;
        }
        let n = self.games as f64;
        let var = ((self.sum_sq - self.sum * self.sum / n) / (n - 1.0)).max(0.0);
        Some(Z95 * (var / n).sqrt())
    }

    /// Whether two wins (or two draws, or two losses) were worth
    /// different amounts, as in poker: then the average, not the win rate,
    /// says who did better.
    pub fn sized(&self) -> bool {
        self.sized
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

/// The time one agent took to decide: only calls with more than one legal
/// move count, since with one there is nothing to decide.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DecisionTimes {
    pub decisions: u64,
    pub total: Duration,
    pub max: Duration,
    /// The first answers of newly started external programs, which include
    /// their start-up: counted apart from the decisions.
    pub start_ups: u64,
    pub start_up_total: Duration,
    pub start_up_max: Duration,
}

impl DecisionTimes {
    pub fn add(&mut self, took: Duration) {
        self.decisions += 1;
        self.total += took;
        self.max = self.max.max(took);
    }

    /// Adds a newly started program's first answer.
    pub fn add_start_up(&mut self, took: Duration) {
        self.start_ups += 1;
        self.start_up_total += took;
        self.start_up_max = self.start_up_max.max(took);
    }

    /// Adds the decisions timed elsewhere (another thread's games).
    pub fn merge(&mut self, other: &DecisionTimes) {
        self.decisions += other.decisions;
        self.total += other.total;
        self.max = self.max.max(other.max);
        self.start_ups += other.start_ups;
        self.start_up_total += other.start_up_total;
        self.start_up_max = self.start_up_max.max(other.start_up_max);
    }

    /// The mean of the first answers with start-up; zero before any.
    pub fn start_up_mean(&self) -> Duration {
        if self.start_ups == 0 {
            Duration::ZERO
        } else {
            self.start_up_total.div_f64(self.start_ups as f64)
        }
    }

    /// The mean time per decision; zero before any.
    pub fn mean(&self) -> Duration {
        if self.decisions == 0 {
            Duration::ZERO
        } else {
            self.total.div_f64(self.decisions as f64)
        }
    }
}

/// Every game of a match, by agent and by seat.
#[derive(Clone, Debug, PartialEq)]
pub struct Tally {
    /// The agents, as written on the command line.
    pub agents: Vec<String>,
    /// The seats: the game's players in turn order.
    pub seats: Vec<String>,
    /// What the records count: points or utility.
    pub measure: Measure,
    /// `overall[agent]`.
    pub overall: Vec<Record>,
    /// `by_seat[agent][seat]`.
    pub by_seat: Vec<Vec<Record>>,
}

impl Tally {
    pub fn new(agents: Vec<String>, seats: Vec<String>, measure: Measure) -> Self {
        let n = agents.len();
        Tally {
            overall: vec![Record::default(); n],
            by_seat: vec![vec![Record::default(); seats.len()]; n],
            agents,
            seats,
            measure,
        }
    }

    /// Records a game: `seating[seat]` is the agent in each seat, `values[seat]`
    /// the points or utility of each seat, as `measure` says.
    pub fn record(&mut self, seating: &[usize], values: &[f64]) {
        for (seat, &agent) in seating.iter().enumerate() {
            let o = self.measure.outcome(values, seat);
            self.overall[agent].add(values[seat], o);
            self.by_seat[agent][seat].add(values[seat], o);
        }
    }

    /// Whether the utilities vary in size between games of the same outcome
    /// (chips in poker): the report then leads with the average.
    pub fn sized(&self) -> bool {
        self.measure == Measure::Utility && self.overall.iter().any(Record::sized)
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
    fn wins_of_different_sizes_are_told_apart_from_outcomes() {
        let mut outcomes = Tally::new(
            vec!["a".into(), "b".into()],
            vec!["X".into(), "O".into()],
            Measure::Utility,
        );
        outcomes.record(&[0, 1], &[1.0, -1.0]);
        outcomes.record(&[1, 0], &[0.0, 0.0]);
        outcomes.record(&[1, 0], &[1.0, -1.0]);
        assert!(!outcomes.sized());
        // Kuhn poker: a win of one chip, then a win of two.
        let mut chips = outcomes.clone();
        chips.record(&[0, 1], &[2.0, -2.0]);
        assert!(chips.sized() && chips.overall[0].sized() && chips.overall[1].sized());
        // Points are always reported by their average.
        let mut points = Tally::new(
            vec!["a".into()],
            vec!["X".into()],
            Measure::Points { lowest_wins: true },
        );
        points.record(&[0], &[3.0]);
        points.record(&[0], &[5.0]);
        assert!(!points.sized());
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
        let mut t = Tally::new(
            vec!["a".into(), "b".into()],
            vec!["X".into(), "Y".into()],
            Measure::Utility,
        );
        t.record(&[0, 1], &[1.0, -1.0]); // a first, wins
        t.record(&[1, 0], &[1.0, -1.0]); // b first, wins
        assert_eq!(t.games(), 2);
        assert_eq!((t.overall[0].wins, t.overall[0].losses), (1, 1));
        assert_eq!(t.by_seat[0][0].wins, 1);
        assert_eq!(t.by_seat[0][1].losses, 1);
        assert_eq!(t.by_seat[1][0].games, 1);
    }

    #[test]
    fn the_fewest_points_win_when_the_game_says_so() {
        let fewest = Measure::Points { lowest_wins: true };
        assert_eq!(fewest.outcome(&[3.0, 9.0], 0), Outcome::Win);
        assert_eq!(fewest.outcome(&[3.0, 9.0], 1), Outcome::Loss);
        // Equal fewest: a draw for both, a loss for the third.
        assert_eq!(fewest.outcome(&[4.0, 4.0, 2.0], 2), Outcome::Win);
        assert_eq!(fewest.outcome(&[4.0, 2.0, 2.0], 1), Outcome::Draw);
        assert_eq!(fewest.outcome(&[4.0, 2.0, 2.0], 0), Outcome::Loss);
        let most = Measure::Points { lowest_wins: false };
        assert_eq!(most.outcome(&[3.0, 9.0], 1), Outcome::Win);

        let mut t = Tally::new(vec!["a".into(), "b".into()], vec!["X".into(), "Y".into()], fewest);
        t.record(&[0, 1], &[5.0, 11.0]);
        t.record(&[1, 0], &[7.0, 7.0]);
        assert_eq!((t.overall[0].wins, t.overall[0].draws, t.overall[0].losses), (1, 1, 0));
        assert_eq!(t.overall[0].mean(), 6.0);
        assert_eq!(t.overall[1].mean(), 9.0);
    }

    #[test]
    fn decision_times_keep_mean_and_max() {
        let mut d = DecisionTimes::default();
        assert_eq!(d.mean(), Duration::ZERO);
        d.add(Duration::from_millis(2));
        d.add(Duration::from_millis(6));
        assert_eq!(d.decisions, 2);
        assert_eq!(d.mean(), Duration::from_millis(4));
        assert_eq!(d.max, Duration::from_millis(6));
    }
}
