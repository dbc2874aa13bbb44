//! `gdl perft`: the move sequences of each length from a position, against
//! the counts published for tic-tac-toe and connect four, on both engines,
//! with chance, simultaneous moves and the repetition rule, and stopped by
//! its limits with the depths it finished.

use crate::common;

use serde_json::Value;

use common::{gdl, gdl_in, scratch};

/// The sequences of each length, from `gdl perft ... --json`.
fn counts(args: &[&str]) -> Vec<u64> {
    let mut all = vec!["perft"];
    all.extend_from_slice(args);
    all.push("--json");
    let r = gdl(&all);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["complete"], true, "{}", r.stdout);
    v["sequences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect()
}

/// Tic-tac-toe's games by length (OEIS A008907's partial products, the
/// counts every tic-tac-toe enumeration gives), and connect four's to
/// depth 8, where no game ends before ply 7.
#[test]
fn tic_tac_toe_and_connect_four_give_the_published_counts() {
    assert_eq!(
        counts(&["tictactoe", "--depth", "9"]),
        [9, 72, 504, 3_024, 15_120, 54_720, 148_176, 200_448, 127_872]
    );
    assert_eq!(
        counts(&["connect4", "--depth", "8"]),
        [7, 49, 343, 2_401, 16_807, 117_649, 823_536, 5_673_234]
    );
    // The longest game of tic-tac-toe has nine moves.
    assert_eq!(counts(&["tictactoe", "--depth", "10"])[9], 0);
}

/// The compiled rules and the interpreter count the same sequences, in
/// games of every kind: turns, chance (Pig), simultaneous moves
/// (Goofspiel), captures and the repetition rule (Oware).
#[test]
fn both_engines_count_alike() {
    for (game, depth, params) in [
        ("connect4", "6", vec![]),
        ("kalah", "6", vec!["--pits", "4", "--seeds", "3"]),
        ("pig", "6", vec!["--target", "10"]),
        ("goofspiel", "3", vec![]),
        ("oware", "7", vec!["--pits", "3", "--seeds", "2"]),
        ("xnimmt", "2", vec!["--K", "12", "--N", "3"]),
    ] {
        let mut args = vec![game, "--depth", depth];
        args.extend(params.iter().copied());
        let jit = counts(&[args.as_slice(), &["--engine", "jit"]].concat());
        let vm = counts(&[args.as_slice(), &["--engine", "vm"]].concat());
        assert_eq!(jit, vm, "{args:?}");
        assert!(jit.iter().any(|&n| n > 0), "{args:?}: {jit:?}");
    }
}

/// A chance node's outcomes count one step each: Pig's first player rolls
/// (six faces) or holds, and after a hold the other player does the same.
#[test]
fn chance_outcomes_and_joint_moves_are_steps() {
    assert_eq!(counts(&["pig", "--depth", "2"]), [2, 6 + 2]);
    // Goofspiel with 4 cards: the prize is turned (4 outcomes), then each
    // player bids one of 4 cards at once (16 joint moves).
    let goof = counts(&["goofspiel", "--cards", "4", "--depth", "2"]);
    assert_eq!(goof, [4, 4 * 16]);
}

/// `--divide` splits the last count by first move, and its parts add up.
#[test]
fn divide_adds_up_to_the_count() {
    let r = gdl(&["perft", "connect4", "--depth", "5", "--divide", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let parts: Vec<(String, u64)> = v["divide"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["move"].as_str().unwrap().to_string(),
                d["sequences"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(parts.len(), 7);
    assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), 16_807);
    // From each first move, the rest is perft 4 of the position after it.
    let after = counts(&["connect4", "--depth", "4", "--after", &parts[3].0]);
    assert_eq!(after[3], parts[3].1);
}

/// `end when repeated 3`: the line's positions are kept, and a move that
/// reaches a position for the third time ends the sequence.
#[test]
fn the_repetition_rule_ends_sequences() {
    let dir = scratch("perft", "repetition", &[]);
    std::fs::write(
        dir.join("toggle.game"),
        "game Toggle\nplayers A, B\nstate x: int = 0\nmove flip() { x = 1 - x }\nend when repeated 3 { draw }\n",
    )
    .unwrap();
    let r = gdl_in(&dir, &["perft", "toggle.game", "--depth", "6", "--json"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    // The start recurs after moves 2 and 4: the fourth move ends the game.
    assert_eq!(v["sequences"], serde_json::json!([1, 1, 1, 1, 0, 0]));
}

/// A limit stops the count with the depths it finished, exit 1, and says
/// which limit; a depth of 0 is refused before anything is counted.
#[test]
fn limits_stop_the_count_with_the_depths_finished() {
    let r = gdl(&["perft", "connect4", "--depth", "12", "--max-nodes", "1000"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("perft reached the limit of --max-nodes 1000 during depth 5"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("    4      2,401\n"), "{}", r.stdout);
    assert!(!r.stdout.contains("    5 "), "{}", r.stdout);
    let r = gdl(&["perft", "connect4", "--depth", "12", "--time-limit", "0.05", "--json"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["complete"], false);
    assert!(r.stderr.contains("--time-limit 0.05 s"), "{}", r.stderr);
    let r = gdl(&["perft", "connect4", "--depth", "0"]);
    assert_eq!(r.code, 2, "{}", r.stdout);
}

/// Othello from the start: the published counts (the table's depth 10
/// differs: it ends a game by two passes, OpenSpiel's rules as soon as
/// neither player can place a disc; games/othello.game says so).
#[test]
fn othello_gives_the_published_counts() {
    assert_eq!(
        counts(&["othello", "--depth", "8"]),
        [4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216]
    );
}

/// Amazons written plainly, its conditions tested as their arguments are
/// chosen, lists the moves of the same game written with the hand idiom
/// that emptied later ranges.
#[test]
fn amazons_plain_and_by_the_hand_idiom_list_the_same_moves() {
    let dir = common::crate_dir().join("tests/inputs/ok");
    let plain = dir.join("amazons-plain.game");
    let idiom = dir.join("amazons-idiom.game");
    for engine in ["jit", "vm"] {
        let a = counts(&[plain.to_str().unwrap(), "--depth", "3", "--engine", engine]);
        let b = counts(&[idiom.to_str().unwrap(), "--depth", "3", "--engine", engine]);
        assert_eq!(a, b, "{engine}");
        assert_eq!(a[0], 360, "{engine}");
    }
}

/// Chess from the start and from "Kiwipete" (castling, en passant,
/// promotions and pins all at once): the published counts.
#[test]
fn chess_gives_the_published_counts() {
    assert_eq!(counts(&["chess", "--depth", "4"]), [20, 400, 8_902, 197_281]);
    let kiwipete = "board: [10, 0, 0, 0, 12, 0, 0, 10, 7, 0, 7, 7, 11, 7, 9, 0, 9, 8, 0, 0, 7, 8, 7, 0, 0, 0, 0, 1, \
                    2, 0, 0, 0, 0, 7, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 5, 0, 7, 1, 1, 1, 3, 3, 1, 1, 1, 4, 0, 0, 0, \
                    6, 0, 0, 4], castle: [11, 18, 81, 88], ep: -1, kings: [51, 58], check: false, past: []; \
                    White to move";
    assert_eq!(
        counts(&["chess", "--depth", "3", "--from", kiwipete]),
        [48, 2_039, 97_862]
    );
}
