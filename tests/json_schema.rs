//! Every `--json` output validated against its schema in docs/json-schema/,
//! by the `boon` crate (JSON Schema draft 2020-12, every keyword).
//!
//! It replaced a validator of our own for the part of JSON Schema those
//! files used: boon checks the schemas themselves against the draft's
//! metaschema, and a keyword a schema may use later is checked too.

use crate::common;

use serde_json::Value;

use common::{crate_dir, gdl, scratch};

fn schema(name: &str) -> Value {
    let path = crate_dir().join("docs/json-schema").join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What `v` breaks of the schema `name` (`None`: it fits), one line per
/// error, each with where in `v` it is.
fn errors(name: &str, v: &Value) -> Option<String> {
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    let url = format!("file:///docs/json-schema/{name}.json");
    compiler.add_resource(&url, schema(name)).unwrap();
    let compiled = compiler
        .compile(&url, &mut schemas)
        .unwrap_or_else(|e| panic!("the schema {name} is not valid: {e:#}"));
    schemas.validate(v, compiled).err().map(|e| format!("{e}"))
}

fn check(name: &str, text: &str) -> Value {
    let v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}:\n{text}"));
    if let Some(errors) = errors(name, &v) {
        panic!("{name}:\n{errors}\n{text}");
    }
    v
}

fn run(args: &[&str]) -> String {
    let r = gdl(args);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.stdout
}

#[test]
fn the_validator_finds_what_does_not_fit() {
    let bad =
        serde_json::json!({"game": 3, "players": [], "seed": -1, "start": "x", "steps": [{"chance": "1"}], "extra": 1});
    let all = errors("trace", &bad).expect("it does not fit");
    for wanted in ["'/game'", "'/seed'", "'/steps/0'", "'outcome'", "'extra'"] {
        assert!(all.contains(wanted), "{wanted} not found in:\n{all}");
    }
}

#[test]
fn every_json_output_fits_its_schema() {
    for args in [
        &["solve", "games/nim.game", "--piles", "1,3,5", "--json"][..],
        &["solve", "games/select19.game", "--json", "--explain", "--stats"],
        &["solve", "games/nimcala.game", "--fast", "--json"],
        &["solve", "games/nim.game", "--depth", "3", "--json"],
        &["solve", "games/nim.game", "--piles", "1,2", "--depth", "9", "--json"],
        &["solve", "games/pig.game", "--target", "6", "--json", "--explain"],
        &["solve", "games/goofspiel.game", "--cards", "3", "--json"],
        &[
            "solve",
            "games/goofspiel.game",
            "--cards",
            "3",
            "--after",
            "turn_up(1)",
            "--json",
            "--explain",
        ],
    ] {
        check("solve", &run(args));
    }
    // Each player's optimal moves at a simultaneous node, by name (issue 23).
    let v = check(
        "solve",
        &run(&[
            "solve",
            "games/goofspiel.game",
            "--cards",
            "3",
            "--after",
            "turn_up(2)",
            "--json",
        ]),
    );
    assert!(
        v["best_moves"]["A"].is_array() && v["best_moves"]["B"].is_array(),
        "{v}"
    );
    for args in [
        &[
            "solve",
            "games/tictactoe.game",
            "--mcts",
            "20000",
            "--seed",
            "1",
            "--json",
        ][..],
        &[
            "solve",
            "games/goofspiel.game",
            "--mcts",
            "500",
            "--seed",
            "2",
            "--json",
        ],
        &[
            "solve",
            "games/connect4.game",
            "--mcts",
            "300",
            "--cutoff",
            "4",
            "--json",
        ],
    ] {
        let v = check("mcts", &run(args));
        assert!(!v["moves"].as_array().unwrap().is_empty());
        assert_eq!(v["backup"], "returns");
    }
    let v = check(
        "mcts",
        &run(&[
            "solve",
            "games/dots-and-boxes.game",
            "--mcts",
            "1000000",
            "--backup",
            "outcome",
            "--seed",
            "1",
            "--json",
        ]),
    );
    // Outcomes prove who wins: A, by a value of 1 (the exact value is 2 boxes).
    assert_eq!(
        (v["backup"].as_str(), v["value"].as_f64()),
        (Some("outcome"), Some(1.0)),
        "{v}"
    );
    for game in common::game_files() {
        let v = check("check", &run(&["check", &game, "--json"]));
        assert!(!v["players"].as_array().unwrap().is_empty());
    }
    for args in [
        &[
            "trace",
            "games/select19.game",
            "--players",
            "optimal,random",
            "--seed",
            "1",
            "--json",
        ][..],
        &[
            "trace",
            "games/xnimmt.game",
            "--players",
            "random,random",
            "--seed",
            "2",
            "--json",
        ],
        &[
            "trace",
            "games/tictactoe.game",
            "--players",
            "optimal,optimal",
            "--json",
        ],
    ] {
        let v = check("trace", &run(args));
        assert!(!v["steps"].as_array().unwrap().is_empty());
    }
    for args in [
        &["tree", "games/select19.game", "--depth", "2", "--values", "--json"][..],
        &[
            "tree",
            "games/xnimmt.game",
            "--depth",
            "1",
            "--json",
            "--force",
            "--K",
            "7",
            "--R",
            "1",
            "--N",
            "2",
            "--P",
            "2",
        ],
    ] {
        check("tree", &run(args));
    }
    for args in [
        &[
            "match",
            "games/nim.game",
            "--players",
            "optimal,random",
            "--games",
            "20",
            "--json",
        ][..],
        &[
            "match",
            "games/xnimmt.game",
            "--players",
            "greedy,random",
            "--games",
            "10",
            "--json",
        ],
    ] {
        check("match", &run(args));
    }
    let dir = scratch("json_schema", "eval", &["nim.game"]);
    let table = dir.join("q.json");
    let t = table.to_str().unwrap();
    run(&[
        "train",
        "games/nim.game",
        "--piles",
        "1,2,3",
        "--episodes",
        "300",
        "--seed",
        "1",
        "--out",
        t,
    ]);
    let v = check(
        "eval",
        &run(&[
            "eval",
            "games/nim.game",
            "--piles",
            "1,2,3",
            "--q",
            t,
            "--games",
            "20",
            "--wrong",
            "--json",
        ]),
    );
    assert!(v["wrong"].is_array());
    let log = dir.join("play.json");
    let r = common::gdl_in(
        &dir,
        &[
            "play",
            "nim.game",
            "--piles",
            "1,2",
            "--players",
            "human,optimal:first",
            "--json-log",
            "play.json",
        ],
        Some("(0, 1)\n(1, 1)\n"),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = check("trace", &std::fs::read_to_string(&log).unwrap());
    assert_eq!(v["players"][0]["agent"], "human");
}

#[test]
fn perft_json_fits_its_schema() {
    let v = check(
        "perft",
        &run(&["perft", "games/pig.game", "--depth", "3", "--divide", "--json"]),
    );
    assert_eq!(v["sequences"].as_array().unwrap().len(), 3);
    let v = check(
        "perft",
        &run(&["perft", "games/connect4.game", "--depth", "2", "--after", "4", "--json"]),
    );
    assert!(v["position"].is_string());
    // Stopped by a limit: what was finished, marked incomplete.
    let r = gdl(&[
        "perft",
        "games/connect4.game",
        "--depth",
        "9",
        "--max-nodes",
        "100",
        "--json",
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let v = check("perft", &r.stdout);
    assert_eq!(v["complete"], false);
}
