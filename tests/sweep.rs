//! `gdl solve FILE --pits 1..3 --tokens 1..4`: a sweep over parameter
//! ranges, one exact solve per combination, as a table or as CSV.

use crate::common;

use common::{crate_dir, gdl_in, load_game, snap};
use gdl::game::Game;
use gdl::solve::{SolveOptions, solve};

#[test]
fn a_sweep_prints_one_row_per_combination() {
    let r = gdl_in(
        crate_dir(),
        &["solve", "games/nimcala.game", "--pits", "1..3", "--tokens", "1..4"],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    snap!("sweep_nimcala_3_4", r.stdout);
    // Each row is the exact solve of its combination.
    for line in r.stdout.lines().skip(1) {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let (pits, tokens) = (cols[0], cols[1]);
        let game = load_game("games/nimcala.game", &[("pits", pits), ("tokens", tokens)]);
        let sol = solve(&game, &game.initial_state().unwrap(), &SolveOptions::default()).unwrap();
        assert_eq!(cols[3], sol.value.to_string(), "{line}");
        let winner = if sol.value > 0.0 { "MAX" } else { "MIN" };
        assert_eq!(cols[2], winner, "{line}");
    }
    assert_eq!(r.stdout.lines().count(), 1 + 3 * 4);
}

#[test]
fn a_combination_past_a_limit_gets_a_row_that_says_so() {
    let r = gdl_in(
        crate_dir(),
        &[
            "solve",
            "games/nimcala.game",
            "--pits",
            "1..4",
            "--tokens",
            "4",
            "--max-nodes",
            "100",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    snap!("sweep_nimcala_limits", r.stdout);
    // Pits 4 needs more nodes than the limit; the others are solved.
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(lines[4].contains("(stopped: nodes limit 100)"), "{}", r.stdout);
    assert!(lines[1].contains("MAX") && lines[2].contains("MIN"), "{}", r.stdout);
}

#[test]
fn csv_to_standard_output_or_a_file() {
    let r = gdl_in(
        crate_dir(),
        &[
            "solve",
            "games/nimcala.game",
            "--pits",
            "1..2",
            "--tokens",
            "2..3",
            "--csv",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "pits,tokens,winner,value,best_first_moves,states,seconds");
    assert_eq!(lines.len(), 5);
    assert!(lines[3].starts_with("2,2,MIN,-1,\"(1, 1) (1, 2)\",7,"), "{}", lines[3]);
    let dir = common::scratch("sweep", "csv", &[]);
    let path = dir.join("sweep.csv");
    let r = gdl_in(
        crate_dir(),
        &[
            "solve",
            "games/nimcala.game",
            "--pits",
            "1..2",
            "--tokens",
            "2..3",
            "--csv",
            path.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let written = std::fs::read_to_string(&path).unwrap();
    let strip = |t: &str| {
        t.lines()
            .map(|l| l.rsplit_once(',').unwrap().0.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&written), strip(&lines.join("\n")));
}

#[test]
fn a_range_that_goes_down_or_csv_without_a_sweep_is_refused() {
    let r = gdl_in(crate_dir(), &["solve", "games/nimcala.game", "--pits", "3..1"], None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("goes up"), "{}", r.stderr);
    let r = gdl_in(crate_dir(), &["solve", "games/nimcala.game", "--csv"], None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("range"), "{}", r.stderr);
}
