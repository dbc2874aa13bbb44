//! Sprague–Grundy values: Nim's are the XOR of the heaps (Bouton), Kayles'
//! are OEIS A002186, sums have the XOR of their parts' values, and value 0
//! is exactly a loss for the player to move by alpha-beta.

use crate::common;
use crate::native_extra;

use gdl::game::Game;
use gdl::solve::SolveError;
use gdl::solve::exact::grundy::{Grundy, grundy};
use native_extra::kayles::{Kayles, Partizan};
use native_extra::pig::Pig;

/// OEIS A002186, Sprague-Grundy values of Kayles, n = 0..=104 (Guy & Smith, 1956).
const KAYLES: [u32; 105] = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7, 4, 1,
    2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8,
    1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1,
];

#[test]
fn the_published_sequence_is_periodic_from_71() {
    // A002186: from n = 71 on, period 12. A check of the table itself.
    for n in 71..KAYLES.len() - 12 {
        assert_eq!(KAYLES[n], KAYLES[n + 12], "n = {n}");
    }
}

#[test]
fn nim_values_are_the_xor_of_the_heaps() {
    for piles in ["1,2,3", "3,5,7", "1,4,6,2", "2,2", "7"] {
        let game = common::load_game("games/nim-normal.game", &[("piles", piles)]);
        let root = game.initial_state().unwrap();
        let s = grundy(&game, &root, None).unwrap();
        let heaps: Vec<u32> = piles.split(',').map(|p| p.parse().unwrap()).collect();
        let xor = heaps.iter().fold(0, |a, h| a ^ h);
        assert_eq!(s.value, xor, "piles {piles}");
        // Each option: the XOR after taking n from row r.
        for (mv, g) in &s.moves {
            let text = game.move_text(mv);
            let (r, n): (usize, u32) = {
                let nums: Vec<u32> = text
                    .trim_matches(|c| c == '(' || c == ')')
                    .split(',')
                    .map(|x| x.trim().parse().unwrap())
                    .collect();
                (nums[0] as usize, nums[1])
            };
            assert_eq!(*g, xor ^ heaps[r] ^ (heaps[r] - n), "piles {piles}, move {text}");
        }
        if heaps.len() > 1 {
            assert!(
                s.checked_both_ways > 0,
                "piles {piles}: positions reached by both players were compared"
            );
        }
    }
}

#[test]
fn kayles_values_are_oeis_a002186() {
    let game = Kayles { rows: vec![] };
    let mut g = Grundy::new(&game, None).unwrap();
    for (n, &expected) in KAYLES.iter().enumerate().take(31) {
        let row = Kayles { rows: vec![n as u8] }.initial_state().unwrap();
        assert_eq!(g.value(&row).unwrap(), expected, "a row of {n}");
    }
}

#[test]
fn a_sum_has_the_xor_of_its_parts() {
    let game = Kayles { rows: vec![] };
    let mut g = Grundy::new(&game, None).unwrap();
    for rows in [vec![3, 5], vec![1, 2, 3], vec![4, 4], vec![2, 6, 9], vec![7, 11]] {
        let s = Kayles { rows: rows.clone() }.initial_state().unwrap();
        let xor = rows.iter().fold(0, |a, &r| a ^ KAYLES[r as usize]);
        assert_eq!(g.value(&s).unwrap(), xor, "rows {rows:?}");
    }
}

#[test]
fn value_zero_is_a_loss_by_alpha_beta() {
    for rows in [
        vec![1],
        vec![4],
        vec![2, 2],
        vec![1, 3],
        vec![3, 4],
        vec![8],
        vec![1, 2, 4],
    ] {
        let game = Kayles { rows: rows.clone() };
        let root = game.initial_state().unwrap();
        let s = grundy(&game, &root, None).unwrap();
        let ab = gdl::solve::solve(&game, &root, &Default::default()).unwrap();
        assert_eq!(
            s.value == 0,
            ab.value < 0.0,
            "rows {rows:?}: Grundy {} vs alpha-beta {}",
            s.value,
            ab.value
        );
        // The winning moves are alpha-beta's best moves when the mover wins.
        if s.value != 0 {
            assert_eq!(s.winning_moves(), ab.best_moves, "rows {rows:?}");
        }
    }
    for piles in ["1,2,3", "1,3,4", "2,3"] {
        let game = common::load_game("games/nim-normal.game", &[("piles", piles)]);
        let root = game.initial_state().unwrap();
        let s = grundy(&game, &root, None).unwrap();
        let ab = gdl::solve::solve(&game, &root, &Default::default()).unwrap();
        assert_eq!(s.value == 0, ab.value < 0.0, "piles {piles}");
        if s.value != 0 {
            assert_eq!(s.winning_moves(), ab.best_moves, "piles {piles}");
        }
    }
}

fn refused<G: Game>(game: &G) -> String {
    match grundy(game, &game.initial_state().unwrap(), None) {
        Err(SolveError::NotApplicable { message, .. }) => message,
        other => panic!("{other:?}"),
    }
}

#[test]
fn games_that_are_not_impartial_normal_play_are_refused() {
    let misere = common::load_game("games/nim.game", &[("piles", "1,2,3")]);
    assert!(refused(&misere).contains("misère"));
    assert!(refused(&Partizan { heap: 5 }).contains("not impartial"));
    assert!(refused(&Pig::piglet(2)).contains("chance"));
}

#[test]
fn a_budget_stops_the_search() {
    let game = Kayles { rows: vec![25] };
    let err = grundy(&game, &game.initial_state().unwrap(), Some(50)).unwrap_err();
    assert!(matches!(err, SolveError::Budget { .. }), "{err:?}");
}
