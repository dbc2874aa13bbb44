//! Who moved last enters a position only where a rule reads `previous`:
//! otherwise positions that differ in nothing else are one position to the
//! memo table (issue 26), with the same values.

use crate::common;

use std::collections::HashSet;

use gdl::game::{Game, Turn};
use gdl::runtime::Interpreted;
use gdl::solve::{self, Algorithm, SolveOptions};

/// Every state reachable from the start.
fn reachable(game: &Interpreted) -> Vec<gdl::runtime::State> {
    let mut seen = HashSet::new();
    let mut stack = vec![game.initial_state().unwrap()];
    let mut moves = Vec::new();
    while let Some(s) = stack.pop() {
        if !seen.insert(s.clone()) || game.turn(&s).unwrap() == Turn::Terminal {
            continue;
        }
        game.legal_moves(&s, &mut moves).unwrap();
        for m in &moves {
            let mut c = s.clone();
            game.apply(&mut c, m).unwrap();
            stack.push(c);
        }
    }
    seen.into_iter().collect()
}

fn full_solve(game: &Interpreted) -> solve::Solution<gdl::runtime::Move> {
    let opts = SolveOptions {
        algorithm: Algorithm::Minimax,
        memo: true,
        ..SolveOptions::default()
    };
    solve::solve(game, &game.initial_state().unwrap(), &opts).unwrap()
}

#[test]
fn positions_that_differ_only_in_who_moved_last_are_one() {
    for (file, bindings) in [
        ("games/kalah.game", &[("pits", "3"), ("seeds", "3")][..]),
        ("games/dots-and-boxes.game", &[][..]),
    ] {
        let game = common::load_game(file, bindings);
        assert!(!game.keeps_previous(), "{file} reads `previous`");
        let states = reachable(&game);
        // Each state is told apart by what the rules read: its variables and
        // whose turn it is, all of which its text shows.
        let texts: HashSet<String> = states.iter().map(|s| game.position(s)).collect();
        assert_eq!(texts.len(), states.len(), "{file}");
        let solved = full_solve(&game);
        assert_eq!(solved.states as usize, states.len(), "{file}");

        // The same rules with a function that reads `previous` (never
        // called): who moved last is kept, positions are told apart by it,
        // and every value stays the same.
        let text = std::fs::read_to_string(common::crate_dir().join(file)).unwrap();
        let text = format!("{text}\nfn last_mover() -> player = previous\n");
        let bindings: Vec<(String, String)> = bindings.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        let keeping = Interpreted::new(gdl::compile::load(file, &text, &bindings).unwrap());
        assert!(keeping.keeps_previous());
        let kept = full_solve(&keeping);
        assert!(
            kept.states > solved.states,
            "{file}: {} states, {} kept",
            solved.states,
            kept.states
        );
        assert_eq!(
            (kept.value, &kept.best_moves),
            (solved.value, &solved.best_moves),
            "{file}"
        );
    }
}

#[test]
fn a_position_read_back_is_the_position_played() {
    // `--from` gives the cell the value play leaves in it, so that a position
    // typed in finds the memo entries of the same position played.
    for (file, keeps) in [
        ("games/kalah.game", false),
        ("games/tictactoe.game", true),
        ("games/nim.game", true),
    ] {
        let game = common::load_game(file, &[]);
        assert_eq!(game.keeps_previous(), keeps, "{file}");
        let mut s = game.initial_state().unwrap();
        let mut moves = Vec::new();
        for _ in 0..3 {
            game.legal_moves(&s, &mut moves).unwrap();
            game.apply(&mut s, &moves[moves.len() / 2]).unwrap();
            let back = game.parse_position(&game.position(&s)).unwrap();
            assert_eq!(back, s, "{file}");
        }
    }
}
