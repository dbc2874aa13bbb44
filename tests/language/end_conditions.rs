//! `no moves` as a term of an `end when` condition (`end when started and
//! no moves { ... }`): the values `gdl solve` finds against a hand-worked
//! answer, and the order the terms are tried in, on both engines: `no moves`
//! looks for a legal move only where the condition reaches it.

use crate::common::gdl;
use gdl::game::{Game, Turn};
use gdl::runtime::{Engine, Interpreted};

const FILE: &str = "tests/inputs/ok/no-moves-combined.game";

/// tests/inputs/ok/no-moves-combined.game, worked by hand (its header says
/// how): A's forced first move leaves n - 1 tokens, a loss for the player
/// to move when they are a multiple of 3; no tokens, or more than 15, draw.
fn by_hand(n: i64) -> f64 {
    match n {
        0 | 16.. => 0.0,
        _ if (n - 1) % 3 == 0 => 1.0,
        _ => -1.0,
    }
}

#[test]
fn solve_values_match_the_hand_worked_answer() {
    for n in 0..=20 {
        let arg = n.to_string();
        let r = gdl(&["solve", FILE, "--n", &arg, "--json"]);
        assert_eq!(r.code, 0, "n = {n}: {}", r.stderr);
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(v["value"], by_hand(n), "n = {n}: {}", r.stdout);
    }
}

/// Both engines of the game written `text`.
fn both(text: &str) -> [Interpreted; 2] {
    let prog = gdl::compile::load("t.game", text, &[]).unwrap_or_else(|e| panic!("{e:?}"));
    [Engine::Jit, Engine::Vm].map(|e| Interpreted::with_engine(prog.clone(), e))
}

/// A move whose legal moves cannot be found (its range divides by zero)
/// shows whether a condition looked for one.
#[test]
fn no_moves_is_looked_for_only_where_the_condition_reaches_it() {
    let text = "game T\nplayers A, B\nstate started: bool = false\nstate d: int = 0\nstate z: int = 0\n\
                move m(k in 1..10 / z) { started = true }\n\
                end when started and no moves { loser current }\n\
                end when not (d < 3 implies no moves) { winner A }\n\
                end when d > 5 or no moves { draw }\n";
    for game in both(text) {
        let engine = game.engine();
        let at = |position: &str| game.parse_position(position).unwrap();
        // Not started: the first clause stops there; `d < 3` is false, so
        // `implies` holds without looking; `d > 5` holds: a draw, and no
        // move was looked for.
        let s = at("started: false, d: 7, z: 0; A to move");
        assert_eq!(game.turn(&s).unwrap(), Turn::Terminal, "{engine:?}");
        assert_eq!(
            game.returns(&s, 0).unwrap(),
            0.0,
            "{engine:?}: the third clause, a draw"
        );
        // `d > 5` is false: `or` looks for a move, and fails.
        let s = at("started: false, d: 4, z: 0; A to move");
        let e = game.turn(&s).unwrap_err().to_string();
        assert!(e.contains("by zero"), "{engine:?}: {e}");
        // `d < 3`: `implies` looks.
        let s = at("started: false, d: 1, z: 0; A to move");
        let e = game.turn(&s).unwrap_err().to_string();
        assert!(e.contains("by zero"), "{engine:?}: {e}");
        // Once started, the first clause looks.
        let s = at("started: true, d: 7, z: 0; A to move");
        let e = game.turn(&s).unwrap_err().to_string();
        assert!(e.contains("by zero"), "{engine:?}: {e}");
    }
}

/// `not`, `or` and `implies` around `no moves`, on positions where it holds
/// and where it does not.
#[test]
fn no_moves_combines_with_not_or_and_implies() {
    let text = "game T\nplayers A, B\nstate n: int = 2\nstate flag: bool = false\n\
                move take(k in 1..n) { n -= k }\n\
                end when flag and not no moves { winner A }\n\
                end when n == 1 implies no moves { winner B }\n\
                end when no moves or flag { draw }\n";
    for game in both(text) {
        let engine = game.engine();
        let outcome = |position: &str| {
            let s = game.parse_position(position).unwrap();
            match game.turn(&s).unwrap() {
                Turn::Terminal => Some(game.returns(&s, 0).unwrap()),
                _ => None,
            }
        };
        // flag, and A could move: the first clause.
        assert_eq!(outcome("n: 2, flag: true; A to move"), Some(1.0), "{engine:?}");
        // n is not 1, so `implies` holds: the second clause.
        assert_eq!(outcome("n: 2, flag: false; A to move"), Some(-1.0), "{engine:?}");
        assert_eq!(outcome("n: 0, flag: true; A to move"), Some(-1.0), "{engine:?}");
        // n is 1 and a move is legal: no clause holds, the game goes on.
        assert_eq!(outcome("n: 1, flag: false; A to move"), None, "{engine:?}");
    }
}
