//! The interpreter's answers against independent ones: the hand-written native
//! games (tests/native) and Bouton's closed form for Nim. Every search
//! (minimax, alpha-beta, with and without memo) must give the same answers.

mod common;
mod native;

use std::collections::HashSet;

use gdl::game::{Game, Turn};
use gdl::runtime::Interpreted;
use gdl::solve::{Algorithm, SolveOptions, solve};

use common::load_game as load;

fn configs() -> Vec<SolveOptions> {
    let mut out = Vec::new();
    for algorithm in [Algorithm::Minimax, Algorithm::AlphaBeta] {
        for memo in [false, true] {
            out.push(SolveOptions {
                algorithm,
                memo,
                ..SolveOptions::default()
            });
        }
    }
    out
}

/// Value and optimal moves (as text) of a position.
fn answer<G: Game>(game: &G, s: &G::State, opts: &SolveOptions) -> (f64, Vec<String>) {
    let sol = solve(game, s, opts).unwrap_or_else(|e| panic!("{}: {e}", game.state_text(s)));
    (sol.value, sol.best_moves.iter().map(|m| game.move_text(m)).collect())
}

/// Walks every position reachable in both games at once, by the same moves,
/// and checks that each has the same legal moves and the same answers.
fn agree<N: Game>(interp: &Interpreted, native: &N, limit: usize) -> usize {
    let mut seen = HashSet::new();
    let mut stack = vec![(interp.initial_state().unwrap(), native.initial_state().unwrap())];
    let (mut im, mut nm) = (Vec::new(), Vec::new());
    let all = configs();
    while let Some((is, ns)) = stack.pop() {
        if !seen.insert(is.clone()) || seen.len() > limit {
            continue;
        }
        let it = interp.turn(&is).unwrap();
        assert_eq!(it, native.turn(&ns).unwrap(), "{}", interp.position(&is));
        if it == Turn::Terminal {
            for p in 0..2 {
                assert_eq!(interp.returns(&is, p).unwrap(), native.returns(&ns, p).unwrap());
            }
            continue;
        }
        interp.legal_moves(&is, &mut im).unwrap();
        native.legal_moves(&ns, &mut nm).unwrap();
        let it: Vec<String> = im.iter().map(|m| interp.move_text(m)).collect();
        let nt: Vec<String> = nm.iter().map(|m| native.move_text(m)).collect();
        assert_eq!(it, nt, "legal moves differ in {}", interp.position(&is));
        let expected = answer(native, &ns, &SolveOptions::default());
        for opts in &all {
            assert_eq!(
                answer(interp, &is, opts),
                expected,
                "{} with {opts:?}",
                interp.position(&is)
            );
        }
        for (a, b) in im.clone().iter().zip(nm.clone()) {
            let (mut ic, mut nc) = (is.clone(), ns.clone());
            interp.apply(&mut ic, a).unwrap();
            native.apply(&mut nc, &b).unwrap();
            stack.push((ic, nc));
        }
    }
    seen.len()
}

#[test]
fn nim_files_agree_with_native_nim_everywhere() {
    let n = agree(
        &load("games/nim.game", &[("piles", "3,3,2")]),
        &native::Nim::misere(&[3, 3, 2]),
        100_000,
    );
    assert!(n > 80, "{n}");
    agree(
        &load("games/nim-normal.game", &[("piles", "1,2,3")]),
        &native::Nim::normal(&[1, 2, 3]),
        100_000,
    );
}

#[test]
fn nimcala_file_agrees_with_native_nimcala_everywhere() {
    for pits in 1..=4usize {
        for tokens in 1..=4u8 {
            let g = load(
                "games/nimcala.game",
                &[("pits", &pits.to_string()), ("tokens", &tokens.to_string())],
            );
            agree(&g, &native::Nimcala::new(pits, tokens), 100_000);
        }
    }
}

#[test]
fn select19_file_agrees_with_native_select19() {
    // The whole game: every reachable position.
    let n = agree(&load("games/select19.game", &[]), &native::Select19, 100_000);
    assert!(n > 1_000, "{n}");
}

/// Bouton: in normal Nim the mover wins iff the nim-sum is not 0; in misère
/// Nim the same, except when no pile exceeds 1, where the mover wins iff the
/// number of non-empty piles is even.
fn bouton(piles: &[i64], misere: bool) -> bool {
    let xor = piles.iter().fold(0, |a, &p| a ^ p);
    if misere && piles.iter().all(|&p| p <= 1) {
        piles.iter().filter(|&&p| p == 1).count() % 2 == 0
    } else {
        xor != 0
    }
}

#[test]
fn nim_files_agree_with_bouton_on_every_position_up_to_4_piles_of_5() {
    for (file, misere) in [("games/nim.game", true), ("games/nim-normal.game", false)] {
        for k in 1..=4usize {
            let game = load(file, &[("piles", &vec!["5"; k].join(","))]);
            let mut piles = vec![0i64; k];
            loop {
                for (mover, name) in [(0, "MAX"), (1, "MIN")] {
                    let text: Vec<String> = piles.iter().map(i64::to_string).collect();
                    let s = game
                        .parse_position(&format!("[{}]; {name} to move", text.join(", ")))
                        .unwrap();
                    if piles.iter().all(|&p| p == 0) {
                        // Over already: the player who took the last object moved before `name`.
                        assert_eq!(game.turn(&s).unwrap(), Turn::Terminal);
                        continue;
                    }
                    let value = solve(&game, &s, &SolveOptions::default()).unwrap().value;
                    let mover_wins = if mover == 0 { value > 0.0 } else { value < 0.0 };
                    assert_eq!(mover_wins, bouton(&piles, misere), "{file} {piles:?}, {name} to move");
                }
                // Next position, like an odometer.
                let mut i = 0;
                while i < k && piles[i] == 5 {
                    piles[i] = 0;
                    i += 1;
                }
                if i == k {
                    break;
                }
                piles[i] += 1;
            }
        }
    }
}
