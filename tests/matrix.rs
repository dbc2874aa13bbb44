//! Matrix games by linear programming: published solutions, the minimax
//! inequalities, and an independent exact method (Shapley–Snow).

use crate::native_extra;

use gdl::solve::exact::matrix::{self, Matrix};
use native_extra::shapley_snow::shapley_snow;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-7
}

fn assert_probs(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    assert!(got.iter().zip(want).all(|(g, w)| close(*g, *w)), "{got:?} != {want:?}");
}

#[test]
fn published_small_games() {
    // Odd-or-even (Ferguson, Game Theory, part II, §1.1): value 1/12,
    // both players show one finger with probability 7/12.
    let m = Matrix::from_rows(&[vec![-2.0, 3.0], vec![3.0, -4.0]]);
    let s = matrix::solve(&m).unwrap();
    assert!(close(s.value, 1.0 / 12.0), "{s:?}");
    assert_probs(&s.row, &[7.0 / 12.0, 5.0 / 12.0]);
    assert_probs(&s.col, &[7.0 / 12.0, 5.0 / 12.0]);

    // The 2×4 game Ferguson solves graphically (part II, §2.3): value
    // 17/7, rows (5/7, 2/7), columns (0, 5/7, 2/7, 0). By hand: the row
    // player's lines 1 + 2p and 6 - 5p cross at p = 5/7.
    let m = Matrix::from_rows(&[vec![2.0, 3.0, 1.0, 5.0], vec![4.0, 1.0, 6.0, 0.0]]);
    let s = matrix::solve(&m).unwrap();
    assert!(close(s.value, 17.0 / 7.0), "{s:?}");
    assert_probs(&s.row, &[5.0 / 7.0, 2.0 / 7.0]);
    assert_probs(&s.col, &[0.0, 5.0 / 7.0, 2.0 / 7.0, 0.0]);

    // A 3×3 game solved by the principle of indifference (Ferguson, part
    // II, §3.4): (1/4, 1/2, 1/4) for both, value 0.
    let m = Matrix::from_rows(&[vec![0.0, 1.0, -2.0], vec![1.0, -2.0, 3.0], vec![-2.0, 3.0, -4.0]]);
    let s = matrix::solve(&m).unwrap();
    assert!(close(s.value, 0.0), "{s:?}");
    assert_probs(&s.row, &[0.25, 0.5, 0.25]);
    assert_probs(&s.col, &[0.25, 0.5, 0.25]);
}

#[test]
fn random_matrices_meet_the_minimax_inequalities_and_agree_with_shapley_snow() {
    let mut rng = StdRng::seed_from_u64(16);
    for case in 0..300 {
        let rows = rng.random_range(1..=4);
        let cols = rng.random_range(1..=4);
        // Small integers make ties and degenerate games common.
        let cells: Vec<Vec<f64>> = (0..rows)
            .map(|_| (0..cols).map(|_| rng.random_range(-3..=3) as f64).collect())
            .collect();
        let m = Matrix::from_rows(&cells);
        let s = matrix::solve(&m).unwrap_or_else(|e| panic!("case {case} {cells:?}: {e:?}"));
        assert!(s.violation(&m) < 1e-7, "case {case} {cells:?}: {s:?}");
        for probs in [&s.row, &s.col] {
            assert!(probs.iter().all(|&p| p >= 0.0) && close(probs.iter().sum(), 1.0));
        }
        let expected = shapley_snow(&cells);
        assert!(
            close(s.value, expected),
            "case {case} {cells:?}: {} vs {expected}",
            s.value
        );
    }
}
