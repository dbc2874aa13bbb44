//! Simultaneous-move games with perfect information, solved by backward
//! induction over matrix games: one-shot games with known solutions, and
//! small Goofspiel against a backward induction written here whose stages
//! are solved by Shapley–Snow instead of linear programming.

use crate::native_extra;

use gdl::game::{Game, Turn};
use gdl::solve::SolveError;
use gdl::solve::exact::expectimax::{self, ChanceOptions, Root};
use native_extra::goofspiel::{GoofState, Goofspiel, Prizes};
use native_extra::one_shot::OneShot;
use native_extra::shapley_snow::shapley_snow;
use rustc_hash::FxHashMap;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-7
}

fn assert_probs(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    assert!(got.iter().zip(want).all(|(g, w)| close(*g, *w)), "{got:?} != {want:?}");
}

#[test]
fn rock_paper_scissors_and_matching_pennies_as_games() {
    for (game, n) in [(OneShot::rock_paper_scissors(), 3), (OneShot::matching_pennies(), 2)] {
        let s = expectimax::solve(&game, &game.initial_state().unwrap(), &ChanceOptions::default()).unwrap();
        assert!(close(s.value, 0.0), "{}: {}", game.name, s.value);
        let Root::Simultaneous(stage) = &s.root else {
            panic!("{:?}", s.root)
        };
        let uniform = vec![1.0 / n as f64; n];
        assert_probs(&stage.solution.row, &uniform);
        assert_probs(&stage.solution.col, &uniform);
        assert_eq!(s.stages, 1);
    }
}

/// Goofspiel's value by backward induction written here, each stage solved
/// by Shapley–Snow instead of linear programming.
fn goofspiel_by_hand(g: &Goofspiel, s: &GoofState, memo: &mut FxHashMap<GoofState, f64>) -> f64 {
    if let Some(&v) = memo.get(s) {
        return v;
    }
    let v = match g.turn(s).unwrap() {
        Turn::Terminal => g.returns(s, 0).unwrap(),
        Turn::Chance => {
            let mut outcomes = Vec::new();
            g.chance_outcomes(s, &mut outcomes).unwrap();
            outcomes
                .iter()
                .map(|(m, p)| {
                    let mut c = *s;
                    g.apply(&mut c, m).unwrap();
                    p * goofspiel_by_hand(g, &c, memo)
                })
                .sum()
        }
        Turn::Simultaneous => {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            g.legal_moves_of(s, 0, &mut a).unwrap();
            g.legal_moves_of(s, 1, &mut b).unwrap();
            let payoff: Vec<Vec<f64>> = a
                .iter()
                .map(|x| {
                    b.iter()
                        .map(|y| {
                            let mut c = *s;
                            g.apply_joint(&mut c, &[*x, *y]).unwrap();
                            goofspiel_by_hand(g, &c, memo)
                        })
                        .collect()
                })
                .collect();
            shapley_snow(&payoff)
        }
        Turn::Player(_) => unreachable!(),
    };
    memo.insert(*s, v);
    v
}

#[test]
fn small_goofspiel_agrees_with_an_independent_backward_induction() {
    let mut games = vec![
        Goofspiel::new(3, Prizes::Ascending, false),
        Goofspiel::new(3, Prizes::Random, false),
        Goofspiel::new(4, Prizes::Ascending, false),
    ];
    let mut by_points = Goofspiel::new(3, Prizes::Random, false);
    by_points.point_difference = true;
    games.push(by_points);
    for g in &games {
        let mut memo = FxHashMap::default();
        let root = g.initial_state().unwrap();
        let s = expectimax::solve(g, &root, &ChanceOptions::default()).unwrap();
        // The players are symmetric: the game is fair.
        assert!(close(s.value, 0.0), "{g:?}: {}", s.value);
        assert!(close(goofspiel_by_hand(g, &root, &mut memo), 0.0));
        assert!(s.stages > 1, "{s:?}");
        // Asymmetric positions, where the value is not 0.
        let positions = [
            g.position([&[1, 3], &[2, 3]], &[1, 2], [0, 0]),
            g.position([&[1, 2], &[2, 3]], &[2, 3], [1, 0]),
            g.position([&[1, 2, 3], &[1, 2, 3]], &[1, 2, 3], [0, 2]),
        ];
        for p in positions {
            let s = expectimax::solve(g, &p, &ChanceOptions::default()).unwrap();
            let expected = goofspiel_by_hand(g, &p, &mut memo);
            assert!(
                close(s.value, expected),
                "{g:?} from {}: {} vs {expected}",
                g.state_text(&p),
                s.value
            );
            if let Root::Simultaneous(stage) = &s.root {
                assert!(stage.solution.violation(&stage.payoff) < 1e-7);
            }
        }
    }
}

#[test]
fn goofspiel_with_hidden_bids_is_refused() {
    let g = Goofspiel::new(3, Prizes::Ascending, true);
    let err = expectimax::solve(&g, &g.initial_state().unwrap(), &ChanceOptions::default()).unwrap_err();
    assert!(matches!(err, SolveError::NotApplicable { .. }), "{err:?}");
}
