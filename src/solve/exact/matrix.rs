//! Zero-sum matrix games, solved exactly by linear programming.
//!
//! The row player (player 0) maximizes, the column player minimizes. Each
//! player's optimal mixed strategy is the solution of a linear program
//! (von Neumann's minimax theorem); the LP solver is `microlp`, a pure-Rust
//! simplex. A solution is checked before it is returned: the row strategy
//! must guarantee the value against every column, and the column strategy
//! must hold every row to it ([`MatrixSolution::violation`]).

use microlp::{ComparisonOp, OptimizationDirection, Problem};

/// How far a solution may miss the minimax inequalities: the LP solver
/// works in floating point, to about 1e-7 of the payoffs' scale.
pub const TOLERANCE: f64 = 1e-6;

/// A payoff matrix for the row player, row by row.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    cells: Vec<f64>,
}

impl Matrix {
    /// A `rows` × `cols` matrix from its cells, row by row.
    pub fn new(rows: usize, cols: usize, cells: Vec<f64>) -> Self {
        assert_eq!(
            cells.len(),
            rows * cols,
            "a {rows}×{cols} matrix has {} cells",
            rows * cols
        );
        Matrix { rows, cols, cells }
    }

    /// A matrix from its rows (all of one length).
    pub fn from_rows(rows: &[Vec<f64>]) -> Self {
        let cols = rows.first().map_or(0, Vec::len);
        assert!(rows.iter().all(|r| r.len() == cols), "rows of different lengths");
        Matrix::new(rows.len(), cols, rows.concat())
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The payoff to the row player when row `i` meets column `j`.
    pub fn at(&self, i: usize, j: usize) -> f64 {
        self.cells[i * self.cols + j]
    }

    /// The row player's expected payoff of each column against `row`.
    pub fn against_row(&self, row: &[f64]) -> Vec<f64> {
        (0..self.cols)
            .map(|j| (0..self.rows).map(|i| row[i] * self.at(i, j)).sum())
            .collect()
    }

    /// The row player's expected payoff of each row against `col`.
    pub fn against_col(&self, col: &[f64]) -> Vec<f64> {
        (0..self.rows)
            .map(|i| (0..self.cols).map(|j| col[j] * self.at(i, j)).sum())
            .collect()
    }
}

/// An optimal pair of mixed strategies and the value of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixSolution {
    /// The row player's expected payoff when both play optimally.
    pub value: f64,
    /// The row player's probabilities, one per row; they sum to 1.
    pub row: Vec<f64>,
    /// The column player's probabilities, one per column.
    pub col: Vec<f64>,
}

impl MatrixSolution {
    /// How far the strategies are from proving `value`: the most that a
    /// column gains against `row`, or a row against `col`, beyond it. Zero
    /// (up to rounding) for an exact solution.
    pub fn violation(&self, m: &Matrix) -> f64 {
        let worst_col = m.against_row(&self.row).into_iter().fold(f64::INFINITY, f64::min);
        let best_row = m.against_col(&self.col).into_iter().fold(f64::NEG_INFINITY, f64::max);
        (self.value - worst_col).max(best_row - self.value).max(0.0)
    }
}

/// Why a matrix game could not be solved.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixError(pub String);

/// Solves the zero-sum game `m`. A game with a saddle point (a pure
/// equilibrium, as every one-row or one-column game has) is answered
/// without the LP solver; the others by two linear programs, one per player.
pub fn solve(m: &Matrix) -> Result<MatrixSolution, MatrixError> {
    if m.rows == 0 || m.cols == 0 {
        return Err(MatrixError(format!("a {}×{} game has no strategies", m.rows, m.cols)));
    }
    if let Some(&bad) = m.cells.iter().find(|v| !v.is_finite()) {
        return Err(MatrixError(format!("a payoff is {bad}")));
    }
    if let Some(s) = saddle_point(m) {
        return Ok(s);
    }
    // Payoffs that differ only by rounding noise (1e-15 against 1) would
    // stretch the LP's coefficients past what a simplex solves reliably.
    let scale = m.cells.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    let clean = Matrix::new(
        m.rows,
        m.cols,
        m.cells
            .iter()
            .map(|&v| if v.abs() < scale * 1e-12 { 0.0 } else { v })
            .collect(),
    );
    let (v_row, row) = maximin(&clean)?;
    let transposed = Matrix::new(
        m.cols,
        m.rows,
        (0..m.cols * m.rows)
            .map(|k| -clean.at(k % m.rows, k / m.rows))
            .collect(),
    );
    let (v_col, col) = maximin(&transposed)?;
    let v_col = -v_col;
    let solution = MatrixSolution {
        value: (v_row + v_col) / 2.0,
        row,
        col,
    };
    let tolerance = TOLERANCE * scale.max(1.0);
    if (v_row - v_col).abs() > tolerance || solution.violation(m) > tolerance {
        return Err(MatrixError(format!(
            "the linear programs disagree: {v_row} for the rows, {v_col} for the columns"
        )));
    }
    Ok(solution)
}

/// A pure equilibrium, if the game has one: the first row whose minimum is
/// the largest, when that minimum equals the smallest column maximum.
fn saddle_point(m: &Matrix) -> Option<MatrixSolution> {
    let (mut best_row, mut maximin) = (0, f64::NEG_INFINITY);
    for i in 0..m.rows {
        let low = (0..m.cols).map(|j| m.at(i, j)).fold(f64::INFINITY, f64::min);
        if low > maximin {
            (best_row, maximin) = (i, low);
        }
    }
    let (mut best_col, mut minimax) = (0, f64::INFINITY);
    for j in 0..m.cols {
        let high = (0..m.rows).map(|i| m.at(i, j)).fold(f64::NEG_INFINITY, f64::max);
        if high < minimax {
            (best_col, minimax) = (j, high);
        }
    }
    (maximin == minimax).then(|| MatrixSolution {
        value: maximin,
        row: unit(m.rows, best_row),
        col: unit(m.cols, best_col),
    })
}

fn unit(n: usize, at: usize) -> Vec<f64> {
    let mut v = vec![0.0; n];
    v[at] = 1.0;
    v
}

/// The row player's LP: maximize v subject to x·A[.,j] >= v for every
/// column j, x >= 0, sum x = 1.
fn maximin(m: &Matrix) -> Result<(f64, Vec<f64>), MatrixError> {
    let mut lp = Problem::new(OptimizationDirection::Maximize);
    let xs: Vec<_> = (0..m.rows).map(|_| lp.add_var(0.0, (0.0, 1.0))).collect();
    let v = lp.add_var(1.0, (f64::NEG_INFINITY, f64::INFINITY));
    for j in 0..m.cols {
        let mut terms: Vec<_> = xs.iter().enumerate().map(|(i, &x)| (x, m.at(i, j))).collect();
        terms.push((v, -1.0));
        lp.add_constraint(terms.as_slice(), ComparisonOp::Ge, 0.0);
    }
    let ones: Vec<_> = xs.iter().map(|&x| (x, 1.0)).collect();
    lp.add_constraint(ones.as_slice(), ComparisonOp::Eq, 1.0);
    let outcome = lp
        .solve()
        .map_err(|e| MatrixError(format!("the LP solver failed: {e}")))?;
    let solution = outcome
        .into_solution()
        .map_err(|_| MatrixError("the LP solver stopped before an answer".into()))?;
    let mut probs: Vec<f64> = xs.iter().map(|&x| solution.var_value(x).max(0.0)).collect();
    let total: f64 = probs.iter().sum();
    if total.is_nan() || total <= 0.0 {
        return Err(MatrixError("the LP solver returned no strategy".into()));
    }
    for p in &mut probs {
        *p /= total;
    }
    // The value the strategy guarantees, rather than the LP's v: the same
    // up to rounding, and the one the strategy proves.
    let guaranteed = m.against_row(&probs).into_iter().fold(f64::INFINITY, f64::min);
    Ok((guaranteed, probs))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-7
    }

    #[test]
    fn a_saddle_point_needs_no_lp() {
        let m = Matrix::from_rows(&[vec![3.0, 1.0], vec![4.0, 2.0]]);
        let s = solve(&m).unwrap();
        assert_eq!(s.value, 2.0);
        assert_eq!(s.row, vec![0.0, 1.0]);
        assert_eq!(s.col, vec![0.0, 1.0]);
    }

    #[test]
    fn rock_paper_scissors_is_uniform_with_value_zero() {
        let m = Matrix::from_rows(&[vec![0.0, -1.0, 1.0], vec![1.0, 0.0, -1.0], vec![-1.0, 1.0, 0.0]]);
        let s = solve(&m).unwrap();
        assert!(close(s.value, 0.0), "{s:?}");
        for p in s.row.iter().chain(&s.col) {
            assert!(close(*p, 1.0 / 3.0), "{s:?}");
        }
    }

    #[test]
    fn bad_payoffs_are_refused() {
        assert!(solve(&Matrix::new(1, 1, vec![f64::NAN])).is_err());
        assert!(solve(&Matrix::new(0, 0, vec![])).is_err());
    }
}
