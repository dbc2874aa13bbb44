//! Every `--json` output validated against its schema in docs/json-schema/.
//!
//! The validator is a small one, for the part of JSON Schema those files
//! use (type, enum, properties, required, additionalProperties, items,
//! anyOf, minimum, local $ref): the `jsonschema` crate would add about a
//! hundred crates to the tests' build, minutes on a two-core machine, and
//! a schema keyword outside this part is refused, so none goes unchecked.

mod common;

use serde_json::Value;

use common::{crate_dir, gdl, scratch};

fn schema(name: &str) -> Value {
    let path = crate_dir().join("docs/json-schema").join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn type_matches(want: &str, v: &Value) -> bool {
    match want {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_u64() || v.is_i64(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        other => panic!("unknown type {other} in a schema"),
    }
}

/// The errors of `v` against `s` (empty: valid), each with its JSON path.
fn validate(root: &Value, s: &Value, v: &Value, at: &str, errors: &mut Vec<String>) {
    let s = s.as_object().expect("a schema is an object");
    for key in s.keys() {
        let known = [
            "$schema",
            "title",
            "description",
            "type",
            "enum",
            "properties",
            "required",
            "additionalProperties",
            "items",
            "anyOf",
            "minimum",
            "$ref",
            "$defs",
        ];
        assert!(
            known.contains(&key.as_str()),
            "keyword `{key}` is not checked by this validator"
        );
    }
    if let Some(r) = s.get("$ref") {
        let path = r.as_str().unwrap().strip_prefix("#/").expect("a local $ref");
        let target = path.split('/').fold(root, |node, part| &node[part]);
        assert!(!target.is_null(), "$ref {r} leads nowhere");
        validate(root, target, v, at, errors);
    }
    if let Some(t) = s.get("type") {
        let ok = match t {
            Value::String(one) => type_matches(one, v),
            Value::Array(any) => any.iter().any(|x| type_matches(x.as_str().unwrap(), v)),
            _ => panic!("bad type {t}"),
        };
        if !ok {
            errors.push(format!("{at}: {v} is not of type {t}"));
            return;
        }
    }
    if let Some(Value::Array(options)) = s.get("enum")
        && !options.contains(v)
    {
        errors.push(format!("{at}: {v} is not one of {options:?}"));
    }
    if let (Some(min), Some(n)) = (s.get("minimum").and_then(Value::as_f64), v.as_f64())
        && n < min
    {
        errors.push(format!("{at}: {n} is below {min}"));
    }
    if let Some(Value::Array(options)) = s.get("anyOf") {
        let fits = options.iter().any(|o| {
            let mut e = Vec::new();
            validate(root, o, v, at, &mut e);
            e.is_empty()
        });
        if !fits {
            errors.push(format!("{at}: {v} fits none of anyOf"));
        }
    }
    if let Value::Object(fields) = v {
        let props = s.get("properties").and_then(Value::as_object);
        if let Some(Value::Array(required)) = s.get("required") {
            for r in required {
                if !fields.contains_key(r.as_str().unwrap()) {
                    errors.push(format!("{at}: `{}` is missing", r.as_str().unwrap()));
                }
            }
        }
        for (k, x) in fields {
            let here = format!("{at}.{k}");
            match props.and_then(|p| p.get(k)) {
                Some(sub) => validate(root, sub, x, &here, errors),
                None => match s.get("additionalProperties") {
                    Some(Value::Bool(false)) => errors.push(format!("{here}: not in the schema")),
                    Some(sub @ Value::Object(_)) => validate(root, sub, x, &here, errors),
                    _ => {}
                },
            }
        }
    }
    if let (Value::Array(items), Some(sub)) = (v, s.get("items")) {
        for (i, x) in items.iter().enumerate() {
            validate(root, sub, x, &format!("{at}[{i}]"), errors);
        }
    }
}

fn check(name: &str, text: &str) -> Value {
    let v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}:\n{text}"));
    let s = schema(name);
    let mut errors = Vec::new();
    validate(&s, &s, &v, "$", &mut errors);
    assert!(errors.is_empty(), "{name}:\n{}\n{text}", errors.join("\n"));
    v
}

fn run(args: &[&str]) -> String {
    let r = gdl(args);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.stdout
}

#[test]
fn the_validator_finds_what_does_not_fit() {
    let s = schema("trace");
    let mut errors = Vec::new();
    let bad =
        serde_json::json!({"game": 3, "players": [], "seed": -1, "start": "x", "steps": [{"chance": "1"}], "extra": 1});
    validate(&s, &s, &bad, "$", &mut errors);
    let all = errors.join("\n");
    for wanted in ["$.game", "$.seed", "$.steps[0]", "`outcome` is missing", "$.extra"] {
        assert!(all.contains(wanted), "{wanted} not found in:\n{all}");
    }
}

#[test]
fn every_json_output_fits_its_schema() {
    for args in [
        &["solve", "games/nim.game", "--piles", "1,3,5", "--json"][..],
        &["solve", "games/select19.game", "--json", "--explain", "--stats"],
        &["solve", "games/nimcala.game", "--fast", "--json"],
    ] {
        check("solve", &run(args));
    }
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
    }
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
