//! `gdl solve` picks the solver a game needs (expectiminimax, matrix games,
//! CFR+, `--grundy`), and `gdl train --algorithm cfr` saves a strategy: the
//! real binary, on game files.

use crate::common;

use common::{crate_dir, gdl_in};

fn gdl(args: &[&str]) -> common::Run {
    gdl_in(crate_dir(), args, None)
}

/// The value on a report's `value` line.
fn value(stdout: &str) -> f64 {
    let line = stdout.lines().find(|l| l.starts_with("value")).expect("a value line");
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn chance_without_hidden_information_is_solved_by_expectiminimax() {
    let r = gdl(&["solve", "tests/inputs/solvers/race.game", "--explain"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("expectiminimax"), "{}", r.stdout);
    // A risky roll of 1 scores nothing for either player: positions recur.
    assert!(r.stdout.contains("value iteration"), "{}", r.stdout);
    assert!(r.stdout.contains("move values"), "{}", r.stdout);
    let v = value(&r.stdout);
    assert!(v > -1.0 && v < 1.0, "{v}");
}

#[test]
fn public_simultaneous_moves_are_solved_as_matrix_games() {
    let from =
        "hands: [{1, 2, 3}, {1, 2, 3}], prizes: {1, 2}, prize: 3, points: [0, 0], round: 0, played: [0, 0]; A to move";
    let r = gdl(&[
        "solve",
        "tests/inputs/solvers/goofspiel.game",
        "--from",
        from,
        "--explain",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("strategies  A:"), "{}", r.stdout);
    assert!(r.stdout.contains("the matrix game"), "{}", r.stdout);
    assert_eq!(value(&r.stdout), 0.0, "the players are symmetric");
    let r = gdl(&["solve", "tests/inputs/solvers/goofspiel.game", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let json: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(json["algorithm"], "expectiminimax");
    assert!(json["stages"].as_u64().unwrap() > 0);
}

#[test]
fn hidden_information_is_solved_by_cfr() {
    let tiny = ["--K", "5", "--R", "1", "--N", "2", "--X", "2"];
    let mut args = vec!["solve", "games/xnimmt.game", "--iterations", "300", "--json"];
    args.extend(tiny);
    let r = gdl(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let json: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(json["algorithm"], "cfr+");
    assert_eq!(json["iterations"], 300);
    assert!(json["exploitability"].as_f64().unwrap() < 0.01, "{json}");
    // At the defaults the tree is far too big, and that is said at once.
    let r = gdl(&["solve", "games/xnimmt.game"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("hidden information") && r.stderr.contains("--max-nodes"),
        "{}",
        r.stderr
    );
}

#[test]
fn grundy_values_on_request() {
    let r = gdl(&["solve", "games/nim-normal.game", "--piles", "1,4,6", "--grundy"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("grundy      3"), "{}", r.stdout); // 1 ^ 4 ^ 6
    let r = gdl(&["solve", "games/nim.game", "--grundy"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("misère"), "{}", r.stderr);
}

#[test]
fn train_cfr_saves_a_strategy_that_loads() {
    let dir = common::scratch("cli_solvers", "train", &["xnimmt.game"]);
    let r = gdl_in(
        &dir,
        &[
            "train",
            "xnimmt.game",
            "--K",
            "5",
            "--R",
            "1",
            "--N",
            "2",
            "--X",
            "2",
            "--algorithm",
            "cfr",
            "--iterations",
            "500",
            "--out",
            "x.strategy.json",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("500 iterations"), "{}", r.stdout);
    let text = std::fs::read_to_string(dir.join("xnimmt.game")).unwrap();
    let bindings: Vec<(String, String)> = [("K", "5"), ("R", "1"), ("N", "2"), ("X", "2")]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let game = gdl::runtime::Interpreted::new(gdl::compile::load("xnimmt.game", &text, &bindings).unwrap());
    let id = gdl::solve::learn::strategy_file::GameId::of(&game);
    let file = gdl::solve::learn::strategy_file::load(&dir.join("x.strategy.json"), &id).unwrap();
    assert_eq!(file.training.iterations, 500);
    assert_eq!(file.infosets, 300);
    // The policy agent plays it.
    let r = gdl_in(
        &dir,
        &[
            "match",
            "xnimmt.game",
            "--K",
            "5",
            "--R",
            "1",
            "--N",
            "2",
            "--X",
            "2",
            "--players",
            "policy:x.strategy.json,random",
            "--games",
            "40",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("policy:x.strategy.json"), "{}", r.stdout);
}

/// A `canonical` block that is not a symmetry of the rules (one of
/// tic-tac-toe's lines broken, found by the fuzzer) makes the search
/// contradict itself; the error points at the block, not at the rules'
/// determinism.
#[test]
fn a_canonical_block_that_is_no_symmetry_is_named() {
    let r = gdl(&[
        "solve",
        "tests/inputs/solvers/asymmetric_canonical.game",
        "--algorithm",
        "minimax",
    ]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert!(r.stderr.contains("contradicted itself"), "{}", r.stderr);
    assert!(r.stderr.contains("`canonical` block a symmetry"), "{}", r.stderr);
}
