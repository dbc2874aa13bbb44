//! The contract of `Game` (tests/common/conformance.rs), checked on every
//! game file in games/ and on every native game of tests/native.

use crate::common;
use crate::native;

use common::{conformance_of_file, conformance_of_native, game_files, load_game};
use native::{Connect4, Nim, Nimcala, Select19, TicTacToe};

#[test]
fn every_game_file_keeps_the_contract() {
    let files = game_files();
    for expected in ["games/nim.game", "games/tictactoe.game", "games/connect4.game"] {
        assert!(files.iter().any(|f| f == expected), "{expected} not in {files:?}");
    }
    for f in &files {
        let game = load_game(f, &[]);
        conformance_of_file(&game, plays_for(&game), 1);
    }
}

/// Random games enough to check about [`MOVES`] legal moves of `game`
/// (from 10 to 300 games), as a random game of it lists them: each
/// position's moves are listed, and some read back, in every check, and
/// the board games of the field last hundreds of moves (chess) or list
/// thousands at a time (Amazons).
fn plays_for(game: &gdl::runtime::Interpreted) -> usize {
    use gdl::game::{Game, Turn};
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(0);
    let mut scratch = gdl::solve::agents::simulate::Scratch::default();
    let mut s = game.initial_state().unwrap();
    let mut seen = gdl::game::Repetitions::of(game);
    if let Some(seen) = &mut seen {
        seen.restart(&s);
    }
    let (mut listed, mut moves) = (1usize, Vec::new());
    for _ in 0..10_000 {
        if let Ok(Turn::Player(_)) = game.turn(&s) {
            game.legal_moves(&s, &mut moves).unwrap();
            listed += moves.len();
        }
        if !gdl::solve::agents::simulate::random_step(game, &mut s, &mut rng, &mut scratch).unwrap() {
            break;
        }
        if let Some(seen) = &mut seen {
            seen.after_move(game, &mut s).unwrap();
        }
    }
    (MOVES / listed).clamp(10, 300)
}

/// About how many legal moves a game file's random games list.
const MOVES: usize = 500_000;

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
