//! Depth-limited alpha-beta with the game's `evaluate`
//! (`src/solve/agents/depth_limited.rs`): at full depth it agrees with the exact
//! solve; at a limit it keeps what it proved apart from what it guessed;
//! `gdl solve --depth`, the fallback after a limit, and `alphabeta:D`.

use crate::common;

use gdl::game::{Game, Turn};
use gdl::runtime::Interpreted;
use gdl::solve::agents::depth_limited::{DepthOptions, search};
use gdl::solve::{SolveOptions, explain, solve};

use common::{crate_dir, gdl_in, load_game, snap};

/// Positions reachable from the start, breadth first, at most `most`.
fn positions(game: &Interpreted, most: usize) -> Vec<gdl::runtime::State> {
    let mut out = vec![game.initial_state().unwrap()];
    let mut i = 0;
    let mut moves = Vec::new();
    while i < out.len() && out.len() < most {
        let s = out[i].clone();
        i += 1;
        if game.turn(&s).unwrap() == Turn::Terminal {
            continue;
        }
        game.legal_moves(&s, &mut moves).unwrap();
        for m in &moves {
            let mut c = s.clone();
            game.apply(&mut c, m).unwrap();
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out.truncate(most);
    out
}

/// Without a depth limit the search goes on until its answer is proven:
/// the exact solve's value and best moves, and every move it calls proven
/// has the value `explain` gives it.
fn agrees_with_the_exact_solve(game: &Interpreted, most: usize) -> usize {
    let mut checked = 0;
    for s in positions(game, most) {
        let exact = solve(game, &s, &SolveOptions::default()).unwrap();
        let found = search(game, &s, &DepthOptions::default()).unwrap();
        let what = game.state_text(&s);
        assert!(found.proven, "{what}");
        assert_eq!(found.value, exact.value, "{what}");
        if game.turn(&s).unwrap() == Turn::Terminal {
            continue;
        }
        assert_eq!(found.best_moves, exact.best_moves, "{what}");
        let values = explain(game, &s, &SolveOptions::default()).unwrap();
        for (m, e) in found.moves.iter().zip(&values) {
            assert_eq!(m.mv, e.mv);
            if m.proven {
                assert_eq!(m.value, e.value, "{what} {}", game.move_text(&m.mv));
            }
        }
        checked += 1;
    }
    checked
}

#[test]
fn at_full_depth_it_agrees_with_the_exact_solve() {
    let mut checked = 0;
    for pits in 1..=4 {
        for tokens in 1..=4 {
            let (p, t) = (pits.to_string(), tokens.to_string());
            checked +=
                agrees_with_the_exact_solve(&load_game("games/nimcala.game", &[("pits", &p), ("tokens", &t)]), 60);
        }
    }
    let connect = load_game("games/connect4.game", &[("rows", "3"), ("cols", "4"), ("connect", "3")]);
    checked += agrees_with_the_exact_solve(&connect, 40);
    // Without an evaluation (estimates 0) and without a utility range (the
    // payoff is the last number picked): proven only where nothing was cut.
    checked += agrees_with_the_exact_solve(&load_game("games/nim.game", &[("piles", "1,2,3")]), 40);
    checked += agrees_with_the_exact_solve(&load_game("games/select19.game", &[]), 12);
    assert!(checked > 300, "{checked}");
}

#[test]
fn at_a_depth_limit_proven_moves_are_exact_and_the_rest_are_guesses() {
    // Every position of Nimcala 4 pits 5 tokens, two moves deep: some moves
    // are proven (a win in one, a move that lets the opponent win at once),
    // the others not.
    let game = load_game("games/nimcala.game", &[("pits", "4"), ("tokens", "5")]);
    let mut proven_some = 0;
    let mut guessed_some = 0;
    for s in positions(&game, 1000) {
        if game.turn(&s).unwrap() == Turn::Terminal {
            continue;
        }
        let opts = DepthOptions {
            max_depth: Some(2),
            ..DepthOptions::default()
        };
        let found = search(&game, &s, &opts).unwrap();
        let exact = explain(&game, &s, &SolveOptions::default()).unwrap();
        for (m, e) in found.moves.iter().zip(&exact) {
            if m.proven {
                assert_eq!(m.value, e.value, "{}", game.state_text(&s));
                proven_some += 1;
            } else {
                // An estimate lies strictly inside the utility range.
                assert!(m.value > -1.0 && m.value < 1.0, "{}", m.value);
                guessed_some += 1;
            }
        }
        assert!(found.depth <= 2);
        if found.proven {
            let sol = solve(&game, &s, &SolveOptions::default()).unwrap();
            assert_eq!(found.value, sol.value, "{}", game.state_text(&s));
        }
        if found.moves.iter().any(|m| !m.proven) {
            assert_eq!(found.stopped, Some("depth"));
        }
    }
    assert!(proven_some > 50 && guessed_some > 50, "{proven_some} {guessed_some}");
}

#[test]
fn a_node_limit_stops_deepening_and_says_how_deep_it_got() {
    let game = load_game("games/nimcala.game", &[("pits", "16"), ("tokens", "40")]);
    let opts = DepthOptions {
        max_nodes: Some(20_000),
        ..DepthOptions::default()
    };
    let found = search(&game, &game.initial_state().unwrap(), &opts).unwrap();
    assert!(!found.proven);
    assert_eq!(found.stopped, Some("nodes"));
    assert!(found.depth >= 1);
    assert_eq!(found.nodes, 20_000);
    assert_eq!(found.moves.len(), 40);
    assert!(found.has_evaluation);
}

#[test]
fn the_evaluation_comes_from_the_game_file() {
    let game = load_game("games/connect4.game", &[]);
    let start = game.initial_state().unwrap();
    assert_eq!(game.evaluate(&start, 0).unwrap(), Some(0.0));
    let mut moves = Vec::new();
    game.legal_moves(&start, &mut moves).unwrap();
    // A disc in the middle column opens more lines than one at the edge.
    let after = |i: usize| {
        let mut s = start.clone();
        game.apply(&mut s, &moves[i]).unwrap();
        s
    };
    let (middle, edge) = (after(3), after(0));
    let x_middle = game.evaluate(&middle, 0).unwrap().unwrap();
    assert!(x_middle > game.evaluate(&edge, 0).unwrap().unwrap() && x_middle > 0.0);
    assert_eq!(game.evaluate(&middle, 1).unwrap(), Some(-x_middle));
    // A game without `evaluate` gives none.
    let nim = load_game("games/nim.game", &[]);
    assert_eq!(nim.evaluate(&nim.initial_state().unwrap(), 0).unwrap(), None);
}

#[test]
fn an_evaluate_of_another_form_is_refused() {
    let r = gdl_in(crate_dir(), &["check", "tests/inputs/solvers/bad_evaluate.game"], None);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("gdl::compile::evaluate"), "{}", r.stderr);
}

#[test]
fn solve_with_a_depth_limit() {
    let r = gdl_in(
        crate_dir(),
        &[
            "solve",
            "games/connect4.game",
            "--rows",
            "4",
            "--cols",
            "4",
            "--connect",
            "3",
            "--depth",
            "3",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    snap!("depth_limited_connect4", r.stdout);
    let r = gdl_in(
        crate_dir(),
        &[
            "solve",
            "games/connect4.game",
            "--rows",
            "4",
            "--cols",
            "4",
            "--connect",
            "3",
            "--depth",
            "40",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    snap!("depth_limited_connect4_proven", r.stdout);
}

#[test]
fn a_solve_stopped_by_a_limit_says_what_it_knows() {
    // Nimcala 16 pits 40 tokens is far too big: the exact search stops at
    // the node limit, and the depth-limited search within the same limit
    // reports the depth it reached, what is proven (nothing yet) and its
    // guesses, never "value 0, every move best". (A time limit does the same,
    // with a depth that depends on the machine.)
    let r = gdl_in(
        crate_dir(),
        &[
            "solve",
            "games/nimcala.game",
            "--pits",
            "16",
            "--tokens",
            "40",
            "--max-nodes",
            "20000",
        ],
        None,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    snap!("depth_limited_nimcala_16_40", r.stderr);
    // Two moves ahead, (15, 1) is proven to lose (MIN then takes both
    // tokens from pit 16); (16, 1) is decided one move later.
    let r = gdl_in(
        crate_dir(),
        &[
            "solve",
            "games/nimcala.game",
            "--pits",
            "16",
            "--tokens",
            "40",
            "--from",
            "[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1]; MAX to move",
            "--depth",
            "2",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    snap!("depth_limited_nimcala_endgame", r.stdout);
}

#[test]
fn the_alphabeta_agent_beats_random() {
    let r = gdl_in(
        crate_dir(),
        &[
            "match",
            "games/connect4.game",
            "--rows",
            "4",
            "--cols",
            "5",
            "--connect",
            "3",
            "--players",
            "alphabeta:3,random",
            "--games",
            "20",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let line = r.stdout.lines().find(|l| l.starts_with("alphabeta:3  all")).unwrap();
    let wins: u32 = line.split_whitespace().nth(3).unwrap().parse().unwrap();
    assert!(wins >= 14, "{line}");
    let bad = gdl_in(
        crate_dir(),
        &["match", "games/nim.game", "--players", "alphabeta:0,random"],
        None,
    );
    assert_ne!(bad.code, 0);
    assert!(bad.stderr.contains("alphabeta:D"), "{}", bad.stderr);
}
