//! The contract of `Game` (tests/common/conformance.rs), checked on every
//! game file in games/ and on every native game of tests/native.

mod common;
mod native;

use common::{conformance_of_file, conformance_of_native, game_files, load_game};
use native::{Connect4, Nim, Nimcala, Select19, TicTacToe};

#[test]
fn every_game_file_keeps_the_contract() {
    let files = game_files();
    for expected in ["games/nim.game", "games/tictactoe.game", "games/connect4.game"] {
        assert!(files.iter().any(|f| f == expected), "{expected} not in {files:?}");
    }
    for f in &files {
        conformance_of_file(&load_game(f, &[]), 300, 1);
    }
}

#[test]
fn every_native_game_keeps_the_contract() {
    for piles in [&[7, 5, 3, 1][..], &[1], &[0, 3], &[2, 2, 2, 2, 2, 2]] {
        conformance_of_native(&Nim::misere(piles), 100, 2);
        conformance_of_native(&Nim::normal(piles), 100, 2);
    }
    for (pits, tokens) in [(1, 1), (4, 4), (5, 2), (8, 10), (12, 40)] {
        conformance_of_native(&Nimcala::new(pits, tokens), 100, 3);
    }
    conformance_of_native(&Select19, 300, 4);
    conformance_of_native(&TicTacToe, 300, 5);
    for (rows, cols, connect) in [(6, 7, 4), (4, 5, 3), (1, 1, 1), (2, 9, 5), (7, 8, 4)] {
        conformance_of_native(&Connect4::new(rows, cols, connect), 100, 6);
    }
}
