//! The exact solvers on several threads against one thread: the same value,
//! best moves, principal line and `--explain` answers on every game in
//! games/ small enough to solve here; `states` counts positions reached,
//! never more than one thread's minimax stores (every reachable position).

use crate::common;

use gdl::game::Game;
use gdl::runtime::Interpreted;
use gdl::solve::exact::expectimax::{self, ChanceOptions};
use gdl::solve::{Algorithm, SolveError, SolveOptions, exact::parallel, explain, solve};

use common::load_game as load;

/// Every two-player game of games/ without chance or hidden cards, at sizes
/// a test solves in moments (the bundled sizes where they are small).
fn turn_taking() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    vec![
        ("games/nim.game", vec![]),
        ("games/nim-normal.game", vec![]),
        ("games/nimcala.game", vec![("pits", "6"), ("tokens", "6")]),
        ("games/kalah.game", vec![("pits", "3"), ("seeds", "2")]),
        ("games/tictactoe.game", vec![]),
        ("games/tictactoe-symmetric.game", vec![]),
        ("games/select19.game", vec![]),
        ("games/dots-and-boxes.game", vec![("rows", "1"), ("cols", "2")]),
        (
            "games/connect4.game",
            vec![("rows", "3"), ("cols", "4"), ("connect", "3")],
        ),
    ]
}

/// The root's moves: each is stored by the threads.
fn many_explained_len(game: &Interpreted, root: &<Interpreted as Game>::State) -> u64 {
    let mut moves = Vec::new();
    game.legal_moves(root, &mut moves).unwrap();
    moves.len() as u64
}

fn texts(game: &Interpreted, moves: &[<Interpreted as Game>::Move]) -> Vec<String> {
    moves.iter().map(|m| game.move_text(m)).collect()
}

#[test]
fn threads_answer_as_one_thread_does() {
    for (file, params) in turn_taking() {
        let game = load(file, &params);
        let root = game.initial_state().unwrap();
        for prefer_short in [false, true] {
            let opts = SolveOptions {
                prefer_short,
                ..SolveOptions::default()
            };
            let one = solve(&game, &root, &opts).unwrap();
            let minimax = solve(
                &game,
                &root,
                &SolveOptions {
                    algorithm: Algorithm::Minimax,
                    ..opts.clone()
                },
            )
            .unwrap();
            let explained = explain(&game, &root, &opts).unwrap();
            for threads in [2, 3, 8] {
                let what = format!("{file} {params:?}, fast {prefer_short}, {threads} threads");
                let mut solver = parallel::solver(&game, &root, &opts, threads).unwrap();
                let many = solver.solve(&root).unwrap();
                assert_eq!(many.value, one.value, "{what}");
                assert_eq!(texts(&game, &many.best_moves), texts(&game, &one.best_moves), "{what}");
                assert_eq!(texts(&game, &many.pv), texts(&game, &one.pv), "{what}");
                // Every position stored was reached: no more than minimax stores,
                // and at least the root and its children.
                assert!(
                    many.states <= minimax.states,
                    "{what}: {} > {}",
                    many.states,
                    minimax.states
                );
                assert!(many.states > many_explained_len(&game, &root), "{what}");
                assert!(many.nodes >= many.states, "{what}");
                let many_explained = solver.explain(&root).unwrap();
                assert_eq!(many_explained.len(), explained.len(), "{what}");
                for (a, b) in many_explained.iter().zip(&explained) {
                    assert_eq!(
                        (game.move_text(&a.mv), a.value, texts(&game, &a.line)),
                        (game.move_text(&b.mv), b.value, texts(&game, &b.line)),
                        "{what}"
                    );
                }
                // A fresh solver's explain (the filled table read from the start) agrees too.
                let again = parallel::explain(&game, &root, &opts, threads).unwrap();
                assert_eq!(again.len(), explained.len(), "{what}");
            }
        }
    }
}

#[test]
fn positions_below_the_root_answer_alike() {
    // `--from`/`--after`: a position deep in the game, where most of the
    // table is out of reach.
    let game = load("games/nimcala.game", &[("pits", "5"), ("tokens", "7")]);
    let mut state = game.initial_state().unwrap();
    let mut moves = Vec::new();
    let opts = SolveOptions::default();
    for step in 0..4 {
        game.legal_moves(&state, &mut moves).unwrap();
        let one = solve(&game, &state, &opts).unwrap();
        let many = parallel::solve(&game, &state, &opts, 2).unwrap();
        assert_eq!(
            (many.value, texts(&game, &many.best_moves), texts(&game, &many.pv)),
            (one.value, texts(&game, &one.best_moves), texts(&game, &one.pv)),
            "step {step}"
        );
        let mv = moves[moves.len() / 2];
        game.apply(&mut state, &mv).unwrap();
    }
}

#[test]
fn what_threads_cannot_do_one_thread_reports() {
    // A cap on the table that one thread solves within: the threads solve
    // within it too, or give way to one thread; the same answer either way.
    let game = load("games/nimcala.game", &[("pits", "6"), ("tokens", "6")]);
    let root = game.initial_state().unwrap();
    let one = solve(&game, &root, &SolveOptions::default()).unwrap();
    let capped = SolveOptions {
        max_states: Some(one.states + 1),
        ..SolveOptions::default()
    };
    for _ in 0..5 {
        let many = parallel::solve(&game, &root, &capped, 2).unwrap();
        assert_eq!(
            (many.value, texts(&game, &many.best_moves), texts(&game, &many.pv)),
            (one.value, texts(&game, &one.best_moves), texts(&game, &one.pv))
        );
        assert!(many.states <= one.states, "{} > {}", many.states, one.states);
    }
    // A cap too small for either: the same budget error.
    let tiny = SolveOptions {
        max_states: Some(50),
        ..SolveOptions::default()
    };
    let (a, b) = (
        solve(&game, &root, &tiny).unwrap_err(),
        parallel::solve(&game, &root, &tiny, 2).unwrap_err(),
    );
    assert!(matches!(a, SolveError::Budget { what: "states", .. }), "{a}");
    assert_eq!(a.to_string(), b.to_string());
    // A game with chance: refused alike.
    let pig = load("games/pig.game", &[("target", "5")]);
    let root = pig.initial_state().unwrap();
    let (a, b) = (
        solve(&pig, &root, &SolveOptions::default()).unwrap_err(),
        parallel::solve(&pig, &root, &SolveOptions::default(), 2).unwrap_err(),
    );
    assert_eq!(a.to_string(), b.to_string());
}

#[test]
fn value_iteration_explores_on_threads_and_sweeps_as_one() {
    // Pig's positions recur: value iteration, whose exploration the threads share.
    for target in ["6", "15"] {
        let game = load("games/pig.game", &[("target", target)]);
        let root = game.initial_state().unwrap();
        let opts = ChanceOptions::default();
        let mut one = expectimax::solve(&game, &root, &opts).unwrap();
        assert!(
            matches!(one.method, expectimax::Method::ValueIteration { .. }),
            "{target}"
        );
        for threads in [2, 5] {
            let mut many = expectimax::solve_threads(&game, &root, &opts, threads).unwrap();
            many.seconds = 0.0;
            one.seconds = 0.0;
            // Bit for bit: the values, every choice's, the line, the counts.
            assert_eq!(many, one, "target {target}, {threads} threads");
        }
    }
    // Without cycles (backward induction) the threads have nothing to do, and agree.
    let game = load("games/goofspiel.game", &[("cards", "3")]);
    let root = game.initial_state().unwrap();
    let mut one = expectimax::solve(&game, &root, &ChanceOptions::default()).unwrap();
    let mut many = expectimax::solve_threads(&game, &root, &ChanceOptions::default(), 2).unwrap();
    (one.seconds, many.seconds) = (0.0, 0.0);
    assert_eq!(many, one);
}
