//! The value of a matrix game by Shapley–Snow, independently of linear
//! programming: every matrix game has an optimal row strategy that makes a
//! square set of columns indifferent (a basic solution), so the best
//! guarantee among those solutions is the value.

// Indices read like the algebra here.
#[allow(clippy::needless_range_loop)]
/// Solves `a x = b` in place by Gaussian elimination; `None` if singular.
fn linear_solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() < 1e-12 {
            return None;
        }
        a.swap(c, p);
        b.swap(c, p);
        for r in 0..n {
            if r != c {
                let f = a[r][c] / a[c][c];
                for k in c..n {
                    a[r][k] -= f * a[c][k];
                }
                b[r] -= f * b[c];
            }
        }
    }
    Some((0..n).map(|i| b[i] / a[i][i]).collect())
}

fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    (0u32..1 << n)
        .filter(|m| m.count_ones() as usize == k)
        .map(|m| (0..n).filter(|i| m & (1 << i) != 0).collect())
        .collect()
}

/// The value of a matrix game by Shapley–Snow: the best guarantee among
/// the row strategies that make some square set of columns indifferent.
pub fn shapley_snow(m: &[Vec<f64>]) -> f64 {
    let (rows, cols) = (m.len(), m[0].len());
    let mut best = f64::NEG_INFINITY;
    for k in 1..=rows.min(cols) {
        for r in subsets(rows, k) {
            for c in subsets(cols, k) {
                // Unknowns x_r (k of them) and v: x·A[., j] - v = 0 for j in c, sum x = 1.
                let mut a = Vec::new();
                let mut b = Vec::new();
                for &j in &c {
                    let mut row: Vec<f64> = r.iter().map(|&i| m[i][j]).collect();
                    row.push(-1.0);
                    a.push(row);
                    b.push(0.0);
                }
                let mut ones = vec![1.0; k];
                ones.push(0.0);
                a.push(ones);
                b.push(1.0);
                let Some(sol) = linear_solve(a, b) else { continue };
                if sol[..k].iter().any(|&x| x < -1e-12) {
                    continue;
                }
                let guarantee = (0..cols)
                    .map(|j| r.iter().zip(&sol).map(|(&i, x)| x * m[i][j]).sum::<f64>())
                    .fold(f64::INFINITY, f64::min);
                best = best.max(guarantee);
            }
        }
    }
    best
}
