//! Who beat whom in a league, and the ratings that explain it: the
//! crosstable of head-to-head scores and Elo ratings fitted to it by
//! maximum likelihood, as chess-engine tournaments report them (BayesElo,
//! Ordo).
//!
//! Two agents meet whenever they sit in the same game: the one with the
//! better result (points or utility) scores 1, a tie scores half a point
//! each. In a two-player game that is the game's win, draw or loss; in a
//! game of more players every pair at the table is one comparison (so the
//! comparisons of one game are not independent, and the intervals are
//! somewhat narrower than they should be).

use super::standings::table;
use crate::report::stats::{Measure, Outcome};

/// The head-to-head results of every pair of agents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crosstable {
    pub agents: Vec<String>,
    /// `wins[a][b]`: the games in which `a` did better than `b`.
    pub wins: Vec<Vec<u64>>,
    /// `draws[a][b]` (= `draws[b][a]`): the games in which they tied.
    pub draws: Vec<Vec<u64>>,
}

impl Crosstable {
    pub fn new(agents: Vec<String>) -> Self {
        let k = agents.len();
        Crosstable {
            agents,
            wins: vec![vec![0; k]; k],
            draws: vec![vec![0; k]; k],
        }
    }

    /// Counts a game: `seating[seat]` is each seat's agent, `values[seat]`
    /// its points or utility, compared as `measure` says.
    pub fn record(&mut self, measure: Measure, seating: &[usize], values: &[f64]) {
        for s in 0..seating.len() {
            for t in s + 1..seating.len() {
                let (a, b) = (seating[s], seating[t]);
                if a == b {
                    continue;
                }
                match measure.outcome(&[values[s], values[t]], 0) {
                    Outcome::Win => self.wins[a][b] += 1,
                    Outcome::Loss => self.wins[b][a] += 1,
                    Outcome::Draw => {
                        self.draws[a][b] += 1;
                        self.draws[b][a] += 1;
                    }
                }
            }
        }
    }

    /// The games `a` and `b` met in.
    pub fn games(&self, a: usize, b: usize) -> u64 {
        self.wins[a][b] + self.wins[b][a] + self.draws[a][b]
    }

    /// `a`'s score against `b` (a win 1, a draw ½), counted in points.
    pub fn points(&self, a: usize, b: usize) -> f64 {
        self.wins[a][b] as f64 + self.draws[a][b] as f64 / 2.0
    }

    /// `a`'s share of the points against `b` with its 95% interval (Wilson's,
    /// with a draw as half a win: a little wide when there are draws, and
    /// never claiming certainty at 0% or 100%); `None` if they never met.
    pub fn score(&self, a: usize, b: usize) -> Option<(f64, f64, f64)> {
        let n = self.games(a, b);
        if n == 0 {
            return None;
        }
        let share = self.points(a, b) / n as f64;
        let (lo, hi) = wilson_of_share(share, n);
        Some((share, lo, hi))
    }
}

/// Wilson's 95% interval of a share of `n` trials (the share need not be a
/// whole number of them).
fn wilson_of_share(share: f64, n: u64) -> (f64, f64) {
    // `wilson` takes whole counts; the formula is the same for a share.
    let z = 1.959_963_984_540_054f64;
    let nf = n as f64;
    let z2 = z * z;
    let centre = (share + z2 / (2.0 * nf)) / (1.0 + z2 / nf);
    let half = z * (share * (1.0 - share) / nf + z2 / (4.0 * nf * nf)).sqrt() / (1.0 + z2 / nf);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Elo ratings fitted to a crosstable.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Each agent's rating, the agents' mean 0; `None` for an agent with no games.
    pub elo: Vec<Option<f64>>,
    /// Half the width of each rating's 95% interval (from the Fisher information).
    pub half: Vec<Option<f64>>,
    /// Whether one virtual draw between every two agents was added, because
    /// an agent (or a group) won or lost every game against the others and
    /// its rating would otherwise be infinite.
    pub prior: bool,
    /// The players at a table, where more than two: the intervals were
    /// widened for it ([`Ratings::at_tables_of`]).
    pub table: Option<usize>,
}

impl Ratings {
    /// The ratings of a league whose games seat `players` agents at a
    /// table. Each game counts as a meeting of every two agents at it, and
    /// the `players - 1` meetings of one agent in one game share one result
    /// (first at the table beats everyone): counted as independent, they
    /// would make the intervals too narrow. They are widened by
    /// `√(players - 1)`, the factor for meetings that always agree, so
    /// that they never claim more than the games show.
    pub fn at_tables_of(mut self, players: usize) -> Ratings {
        if players > 2 {
            let factor = ((players - 1) as f64).sqrt();
            for h in self.half.iter_mut().flatten() {
                *h *= factor;
            }
            self.table = Some(players);
        }
        self
    }
}

/// The Elo scale: a difference of `d` means an expected score of
/// `1 / (1 + 10^(-d/400))`.
fn expected(d: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-d / 400.0))
}

/// Fits Elo ratings by maximum likelihood to `games[a][b]` meetings in which
/// `a` scored `points[a][b]` (a draw half a point): the ratings that make
/// the observed scores most likely under the Elo model, anchored so that
/// their mean is 0. When no finite fit exists (someone won, or lost, every
/// meeting against the rest), one virtual draw is added between every two
/// agents that played, as BayesElo's prior does.
pub fn fit(games: &[Vec<f64>], points: &[Vec<f64>]) -> Ratings {
    let k = games.len();
    let played: Vec<usize> = (0..k).filter(|&a| games[a].iter().any(|&n| n > 0.0)).collect();
    let m = played.len();
    let mut n = vec![vec![0.0; m]; m];
    let mut s = vec![vec![0.0; m]; m];
    for (i, &a) in played.iter().enumerate() {
        for (j, &b) in played.iter().enumerate() {
            n[i][j] = games[a][b];
            s[i][j] = points[a][b];
        }
    }
    let prior = !strongly_connected(&s);
    if prior {
        for i in 0..m {
            for j in 0..m {
                if i != j {
                    n[i][j] += 1.0;
                    s[i][j] += 0.5;
                }
            }
        }
    }
    let c = std::f64::consts::LN_10 / 400.0;
    let mut r = vec![0.0; m];
    // Newton's method on the log-likelihood, which is concave; the step is
    // capped so that a poor start cannot overshoot far.
    for _ in 0..200 {
        let (grad, lap) = slope(&n, &s, &r, c);
        let inv = pseudo_inverse(&lap);
        let step: Vec<f64> = (0..m)
            .map(|i| (0..m).map(|j| inv[i][j] * grad[j]).sum::<f64>() / (c * c))
            .collect();
        let largest = step.iter().fold(0.0f64, |x, v| x.max(v.abs()));
        let scale = if largest > 400.0 { 400.0 / largest } else { 1.0 };
        for (ri, di) in r.iter_mut().zip(&step) {
            *ri += di * scale;
        }
        let mean = r.iter().sum::<f64>() / m.max(1) as f64;
        r.iter_mut().for_each(|x| *x -= mean);
        if largest < 1e-10 {
            break;
        }
    }
    let (_, lap) = slope(&n, &s, &r, c);
    let cov = pseudo_inverse(&lap);
    let z = 1.959_963_984_540_054;
    let mut elo = vec![None; k];
    let mut half = vec![None; k];
    for (i, &a) in played.iter().enumerate() {
        elo[a] = Some(r[i]);
        half[a] = Some(z * (cov[i][i].max(0.0)).sqrt() / c);
    }
    Ratings {
        elo,
        half,
        prior,
        table: None,
    }
}

/// The log-likelihood's gradient (over `c`) and the weighted Laplacian
/// whose `c²` multiple is its Fisher information, at ratings `r`.
fn slope(n: &[Vec<f64>], s: &[Vec<f64>], r: &[f64], c: f64) -> (Vec<f64>, Vec<Vec<f64>>) {
    let m = r.len();
    let mut grad = vec![0.0; m];
    let mut lap = vec![vec![0.0; m]; m];
    for i in 0..m {
        for j in 0..m {
            if i == j || n[i][j] == 0.0 {
                continue;
            }
            let p = expected(r[i] - r[j]);
            grad[i] += c * (s[i][j] - n[i][j] * p);
            let w = n[i][j] * p * (1.0 - p);
            lap[i][i] += w;
            lap[i][j] -= w;
        }
    }
    (grad, lap)
}

/// The pseudo-inverse of a connected graph's Laplacian `l`: the inverse on
/// the ratings that sum to 0, which is how the mean is anchored.
/// (`l + J/m` is invertible and its inverse is `l⁺ + J/m`.)
fn pseudo_inverse(l: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let m = l.len();
    let j = 1.0 / m as f64;
    let mut a: Vec<Vec<f64>> = l.iter().map(|row| row.iter().map(|x| x + j).collect()).collect();
    let mut inv: Vec<Vec<f64>> = (0..m)
        .map(|i| (0..m).map(|k| f64::from(u8::from(i == k))).collect())
        .collect();
    // Gauss–Jordan with partial pivoting: the matrices have an agent a row.
    for col in 0..m {
        let pivot = (col..m)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        if d.abs() < 1e-300 {
            continue;
        }
        for k in 0..m {
            a[col][k] /= d;
            inv[col][k] /= d;
        }
        for row in 0..m {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    for k in 0..m {
                        a[row][k] -= f * a[col][k];
                        inv[row][k] -= f * inv[col][k];
                    }
                }
            }
        }
    }
    for row in &mut inv {
        for x in row.iter_mut() {
            *x -= j;
        }
    }
    inv
}

/// Whether every agent scored against every other through some chain (`a`
/// took points from `b`, who took points from `c`, ...): exactly when the
/// maximum-likelihood ratings are finite.
fn strongly_connected(s: &[Vec<f64>]) -> bool {
    let m = s.len();
    if m <= 1 {
        return true;
    }
    let reach = |forward: bool| {
        let mut seen = vec![false; m];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for j in 0..m {
                let edge = if forward { s[i][j] > 0.0 } else { s[j][i] > 0.0 };
                if edge && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen.into_iter().all(|x| x)
    };
    reach(true) && reach(false)
}

impl Crosstable {
    /// The Elo ratings of the crosstable's agents: see [`fit`].
    pub fn ratings(&self) -> Ratings {
        let k = self.agents.len();
        let games: Vec<Vec<f64>> = (0..k)
            .map(|a| (0..k).map(|b| self.games(a, b) as f64).collect())
            .collect();
        let points: Vec<Vec<f64>> = (0..k).map(|a| (0..k).map(|b| self.points(a, b)).collect()).collect();
        fit(&games, &points)
    }

    /// Each agent's meetings and share of the points over all of them.
    pub fn total(&self, a: usize) -> (u64, f64) {
        let k = self.agents.len();
        let games: u64 = (0..k).map(|b| self.games(a, b)).sum();
        let points: f64 = (0..k).map(|b| self.points(a, b)).sum();
        (games, if games == 0 { 0.0 } else { points / games as f64 })
    }
}

/// The ratings as a table, best first, with a line saying how they were
/// fitted and what they are measured from.
pub fn text(table_of: &Crosstable, ratings: &Ratings, players: usize) -> String {
    let k = table_of.agents.len();
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (
            ratings.elo[a].unwrap_or(f64::NEG_INFINITY),
            ratings.elo[b].unwrap_or(f64::NEG_INFINITY),
        );
        y.total_cmp(&x)
    });
    let (meetings, column) = if players == 2 {
        ("games", "games")
    } else {
        ("meetings (two agents at one table)", "meetings")
    };
    let mut rows = vec![vec![
        "agent".to_string(),
        "Elo (95%)".to_string(),
        column.to_string(),
        "score".to_string(),
    ]];
    for &a in &order {
        let (games, share) = table_of.total(a);
        let elo = match (ratings.elo[a], ratings.half[a]) {
            (Some(e), Some(h)) => format!("{:+.0} ± {:.0}", e + 0.0, h),
            _ => "-".to_string(),
        };
        rows.push(vec![
            table_of.agents[a].clone(),
            elo,
            games.to_string(),
            format!("{:.1}%", 100.0 * share),
        ]);
    }
    let mut out =
        format!("Elo ratings by maximum likelihood from all {meetings} (a draw half a point), the agents' mean 0\n");
    out.push_str(&table(&rows, &[false, true, true, true]));
    if let Some(players) = ratings.table {
        out.push_str(&format!(
            "(the intervals are widened by √{}: an agent's {} meetings at one table share one result)\n",
            players - 1,
            players - 1
        ));
    }
    if ratings.prior {
        out.push_str(
            "(an agent won or lost every game against the others: one virtual draw between every two agents \
             keeps the ratings finite)\n",
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::stats::wilson;

    /// Two agents, one scoring `share` of `n` games against the other.
    fn pair(n: f64, share: f64) -> Ratings {
        fit(
            &[vec![0.0, n], vec![n, 0.0]],
            &[vec![0.0, n * share], vec![n * (1.0 - share), 0.0]],
        )
    }

    #[test]
    fn a_75_percent_score_is_400_log10_3_elo() {
        let r = pair(100.0, 0.75);
        let (a, b) = (r.elo[0].unwrap(), r.elo[1].unwrap());
        assert!((a - b - 400.0 * 3f64.log10()).abs() < 1e-6, "{a} {b}");
        assert!((a - 190.848_501_887).abs() > 1.0, "the mean, not one agent, is 0");
        assert!((a + b).abs() < 1e-9);
        assert!(!r.prior);
        // The difference's standard error is 400 / (ln 10 · √(n p (1 − p))),
        // and each rating carries half of it.
        let se_diff = 400.0 / (std::f64::consts::LN_10 * (100.0f64 * 0.75 * 0.25).sqrt());
        let expected_half = 1.959_963_984_540_054 * se_diff / 2.0;
        assert!((r.half[0].unwrap() - expected_half).abs() < 1e-6, "{:?}", r.half);
        assert!((expected_half - 39.3).abs() < 0.1);
    }

    #[test]
    fn a_transitive_set_is_recovered() {
        // Scores exactly as the Elo model expects for ratings -100, 0, +250.
        let truth = [-100.0, 0.0, 250.0];
        let n = 400.0;
        let games = vec![vec![0.0, n, n], vec![n, 0.0, n], vec![n, n, 0.0]];
        let points: Vec<Vec<f64>> = (0..3)
            .map(|a| {
                (0..3)
                    .map(|b| if a == b { 0.0 } else { n * expected(truth[a] - truth[b]) })
                    .collect()
            })
            .collect();
        let r = fit(&games, &points);
        let mean = truth.iter().sum::<f64>() / 3.0;
        for (elo, t) in r.elo.iter().zip(truth) {
            assert!((elo.unwrap() - (t - mean)).abs() < 1e-6, "{:?}", r.elo);
        }
        // More games, narrower intervals: four times the games, half the width.
        let more: Vec<Vec<f64>> = games.iter().map(|row| row.iter().map(|x| 4.0 * x).collect()).collect();
        let more_points: Vec<Vec<f64>> = points.iter().map(|row| row.iter().map(|x| 4.0 * x).collect()).collect();
        let r4 = fit(&more, &more_points);
        for a in 0..3 {
            assert!((r4.half[a].unwrap() * 2.0 - r.half[a].unwrap()).abs() < 1e-6);
        }
    }

    #[test]
    fn a_chain_that_never_met_end_to_end_still_rates_through_the_middle() {
        // A beats B 75%, B beats C 75%, A and C never meet: A is 2·190.85 above C.
        let n = 40.0;
        let games = vec![vec![0.0, n, 0.0], vec![n, 0.0, n], vec![0.0, n, 0.0]];
        let points = vec![vec![0.0, 30.0, 0.0], vec![10.0, 0.0, 30.0], vec![0.0, 10.0, 0.0]];
        let r = fit(&games, &points);
        let d = r.elo[0].unwrap() - r.elo[2].unwrap();
        assert!((d - 800.0 * 3f64.log10()).abs() < 1e-6, "{d}");
        assert!(r.elo[1].unwrap().abs() < 1e-9);
    }

    #[test]
    fn a_clean_sweep_gets_a_finite_rating_from_one_virtual_draw() {
        let r = pair(10.0, 1.0);
        assert!(r.prior);
        // 10.5 of 11 points: the score the fit must explain.
        let d = r.elo[0].unwrap() - r.elo[1].unwrap();
        assert!((expected(d) - 10.5 / 11.0).abs() < 1e-9, "{d}");
        assert!(r.half[0].unwrap().is_finite());
    }

    #[test]
    fn the_intervals_of_tables_of_three_are_widened_by_root_two() {
        let two = pair(40.0, 0.75);
        let three = pair(40.0, 0.75).at_tables_of(3);
        assert_eq!(three.elo, two.elo);
        for (w, n) in three.half.iter().zip(&two.half) {
            assert!((w.unwrap() - n.unwrap() * 2f64.sqrt()).abs() < 1e-9);
        }
        assert_eq!(three.table, Some(3));
        assert_eq!(pair(40.0, 0.75).at_tables_of(2), two);
    }

    #[test]
    fn an_agent_with_no_games_has_no_rating() {
        let games = vec![vec![0.0, 10.0, 0.0], vec![10.0, 0.0, 0.0], vec![0.0; 3]];
        let points = vec![vec![0.0, 5.0, 0.0], vec![5.0, 0.0, 0.0], vec![0.0; 3]];
        let r = fit(&games, &points);
        assert_eq!(r.elo[2], None);
        assert_eq!(r.elo[0], Some(0.0));
    }

    #[test]
    fn the_crosstable_counts_every_pair_at_a_table() {
        let mut t = Crosstable::new(vec!["a".into(), "b".into(), "c".into()]);
        let fewest = Measure::Points { lowest_wins: true };
        // a 3 points, b 5, c 3: a and c beat b, and draw with each other.
        t.record(fewest, &[0, 1, 2], &[3.0, 5.0, 3.0]);
        t.record(Measure::Utility, &[1, 0], &[1.0, -1.0]);
        assert_eq!(t.wins[0][1], 1);
        assert_eq!(t.wins[1][0], 1);
        assert_eq!(t.wins[2][1], 1);
        assert_eq!((t.draws[0][2], t.draws[2][0]), (1, 1));
        assert_eq!(t.games(0, 1), 2);
        assert_eq!(t.points(0, 2), 0.5);
        let (share, lo, hi) = t.score(2, 1).unwrap();
        assert_eq!(share, 1.0);
        assert!(lo > 0.0 && lo < 0.5 && hi == 1.0, "{lo} {hi}");
        assert_eq!(t.score(1, 1), None);
    }

    #[test]
    fn the_interval_of_a_whole_share_is_wilson_s() {
        let (lo, hi) = wilson_of_share(0.3, 50);
        assert_eq!(Some((lo, hi)), wilson(15, 50));
    }
}
