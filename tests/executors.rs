//! The flat-code executor against the executors it replaces (the tree walker
//! and the closures, `gdl::runtime::reference`): every game file in games/,
//! the run-time error inputs, the fuzz regressions and a few hundred
//! generated programs are run through both, and every position reached must
//! give the same answers: whose turn, the legal moves in order, the chance
//! outcomes, the state after each move, the returns, the scores, what each
//! player sees, and every error (code, message, position and span).
//! Small games are enumerated in full; the others are played out at random,
//! seeded.

mod fuzzgen;

use std::collections::HashSet;
use std::fmt::Debug;

use gdl::game::{Game, GameError, Turn};
use gdl::runtime::reference::Reference;
use gdl::runtime::{Interpreted, Move, State};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Both executors of one program.
struct Pair {
    name: String,
    new: Interpreted,
    old: Reference,
}

impl Pair {
    fn load(name: &str, text: &str, bindings: &[(String, String)]) -> Option<Pair> {
        let prog = gdl::compile::load(name, text, bindings).ok()?;
        Some(Pair {
            name: name.to_string(),
            new: Interpreted::new(prog.clone()),
            old: Reference::new(prog),
        })
    }

    fn file(path: &str, bindings: &[(&str, &str)]) -> Pair {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let b: Vec<(String, String)> = bindings.iter().map(|(a, v)| (a.to_string(), v.to_string())).collect();
        let name = format!("{path} {bindings:?}");
        Pair::load(&name, &text, &b).unwrap_or_else(|| panic!("{path} compiles"))
    }
}

/// An answer, errors as their full rendering (code, message, position, the
/// span drawn under the source).
fn answer<T>(r: Result<T, GameError>) -> Result<T, String> {
    r.map_err(|e| {
        format!(
            "{} | {} | {}",
            e.code_str(),
            e,
            gdl::report::diagnostic::render(&e, false)
        )
    })
}

fn same<T: PartialEq + Debug>(pair: &Pair, what: &str, at: &str, new: T, old: T) {
    assert_eq!(new, old, "{}: {what} differ in {at}", pair.name);
}

/// Compares everything asked of one position (each side on its own copy of
/// it: a state remembers what `turn` found). Returns the turn, if any.
fn compare_position(pair: &Pair, a: &State, b: &State) -> Option<Turn> {
    assert_eq!(a, b, "{}: the states differ", pair.name);
    let at = pair.new.position(a);
    let turn = answer(pair.new.turn(a));
    same(pair, "turns", &at, &turn, &answer(pair.old.turn(b)));
    for p in 0..pair.new.num_players() {
        same(
            pair,
            "observations",
            &at,
            pair.new.observation(a, p),
            pair.old.observation(b, p),
        );
    }
    same(
        pair,
        "running scores",
        &at,
        answer(pair.new.running_scores(a)),
        answer(pair.old.running_scores(b)),
    );
    let mut ma = Vec::new();
    let mut mb = Vec::new();
    let la = answer(pair.new.legal_moves(a, &mut ma)).map(|_| ma.clone());
    let lb = answer(pair.old.legal_moves(b, &mut mb)).map(|_| mb.clone());
    same(pair, "legal moves", &at, la, lb);
    match turn {
        Ok(Turn::Terminal) => {
            for p in 0..pair.new.num_players() {
                same(
                    pair,
                    "returns",
                    &at,
                    answer(pair.new.returns(a, p)),
                    answer(pair.old.returns(b, p)),
                );
            }
            same(
                pair,
                "scores",
                &at,
                answer(pair.new.scores(a)),
                answer(pair.old.scores(b)),
            );
        }
        Ok(Turn::Chance) => {
            let mut oa = Vec::new();
            let mut ob = Vec::new();
            let ca = answer(pair.new.chance_outcomes(a, &mut oa)).map(|_| oa.clone());
            let cb = answer(pair.old.chance_outcomes(b, &mut ob)).map(|_| ob.clone());
            same(pair, "chance outcomes", &at, ca, cb);
        }
        Ok(Turn::Simultaneous) => {
            for p in 0..pair.new.num_players() {
                let ra = answer(pair.new.legal_moves_of(a, p, &mut ma)).map(|_| ma.clone());
                let rb = answer(pair.old.legal_moves_of(b, p, &mut mb)).map(|_| mb.clone());
                same(pair, "a player's moves", &at, ra, rb);
            }
        }
        Ok(Turn::Player(_)) | Err(_) => {}
    }
    turn.ok()
}

/// What can be played in a position: single moves, or joint moves at a
/// simultaneous node (at most `cap` of them, the first in order).
fn choices(pair: &Pair, s: &State, turn: Turn, cap: usize) -> Vec<Vec<Move>> {
    let mut moves = Vec::new();
    match turn {
        Turn::Terminal => Vec::new(),
        Turn::Chance => {
            let mut outcomes = Vec::new();
            match pair.new.chance_outcomes(s, &mut outcomes) {
                Ok(()) => outcomes.iter().map(|(m, _)| vec![*m]).collect(),
                Err(_) => Vec::new(),
            }
        }
        Turn::Player(_) => match pair.new.legal_moves(s, &mut moves) {
            Ok(()) => moves.iter().map(|m| vec![*m]).collect(),
            Err(_) => Vec::new(),
        },
        Turn::Simultaneous => {
            let mut joint: Vec<Vec<Move>> = vec![Vec::new()];
            for p in 0..pair.new.num_players() {
                if pair.new.legal_moves_of(s, p, &mut moves).is_err() || moves.is_empty() {
                    return Vec::new();
                }
                joint = joint
                    .into_iter()
                    .flat_map(|j| {
                        moves.iter().map(move |m| {
                            let mut j = j.clone();
                            j.push(*m);
                            j
                        })
                    })
                    .take(cap)
                    .collect();
            }
            joint
        }
    }
}

/// Plays `choice` on both sides; compares the results and the states after.
/// `None` when the move failed (on both sides alike).
fn play(pair: &Pair, a: &State, b: &State, turn: Turn, choice: &[Move]) -> Option<(State, State)> {
    let (mut a, mut b) = (a.clone(), b.clone());
    let at = format!("{} after {:?}", pair.new.position(&a), choice);
    let (ra, rb) = if turn == Turn::Simultaneous {
        (
            answer(pair.new.apply_joint(&mut a, choice)),
            answer(pair.old.apply_joint(&mut b, choice)),
        )
    } else {
        (
            answer(pair.new.apply(&mut a, &choice[0])),
            answer(pair.old.apply(&mut b, &choice[0])),
        )
    };
    same(pair, "results of a move", &at, &ra, &rb);
    same(pair, "states after a move", &at, &a, &b);
    ra.ok().map(|_| (a, b))
}

/// Every position reachable from the start, up to `limit` of them.
fn enumerate(pair: &Pair, limit: usize) -> usize {
    let (Ok(a), Ok(b)) = (pair.new.initial_state(), pair.old.initial_state()) else {
        panic!("{}: no initial state", pair.name);
    };
    let mut seen = HashSet::new();
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        if seen.len() >= limit {
            break;
        }
        if !seen.insert(a.clone()) {
            continue;
        }
        let Some(turn) = compare_position(pair, &a, &b) else {
            continue;
        };
        for choice in choices(pair, &a, turn, 64) {
            if let Some(next) = play(pair, &a, &b, turn, &choice) {
                stack.push(next);
            }
        }
    }
    seen.len()
}

/// `games` seeded random playouts of at most `plies` moves each.
fn playouts(pair: &Pair, games: usize, plies: usize, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..games {
        let (Ok(mut a), Ok(mut b)) = (pair.new.initial_state(), pair.old.initial_state()) else {
            return;
        };
        for _ in 0..plies {
            let Some(turn) = compare_position(pair, &a, &b) else {
                break;
            };
            let options = choices(pair, &a, turn, 4096);
            if options.is_empty() {
                break;
            }
            let choice = &options[rng.random_range(0..options.len())];
            match play(pair, &a, &b, turn, choice) {
                Some((x, y)) => (a, b) = (x, y),
                None => break,
            }
        }
    }
}

#[test]
fn small_games_are_the_same_everywhere() {
    for (path, bindings, limit) in [
        ("games/nim.game", &[("piles", "3,2,2")][..], 10_000),
        ("games/nim-normal.game", &[("piles", "2,3")], 10_000),
        ("games/nimcala.game", &[("pits", "4"), ("tokens", "5")], 10_000),
        ("games/select19.game", &[], 10_000),
        (
            "games/xnimmt.game",
            &[("P", "2"), ("K", "7"), ("R", "1"), ("N", "2"), ("X", "2")],
            20_000,
        ),
        (
            "games/xnimmt.game",
            &[("P", "3"), ("K", "11"), ("R", "2"), ("N", "2")],
            20_000,
        ),
    ] {
        let pair = Pair::file(path, bindings);
        let n = enumerate(&pair, limit);
        assert!(n > 10, "{path}: only {n} positions");
    }
}

#[test]
fn game_files_play_out_the_same() {
    let files = files_in("games");
    assert!(files.len() >= 5);
    for (i, path) in files.iter().enumerate() {
        let pair = Pair::file(path, &[]);
        playouts(&pair, 30, 500, i as u64);
    }
    let pair = Pair::file("games/nimcala.game", &[("pits", "8"), ("tokens", "12")]);
    playouts(&pair, 30, 500, 7);
    let pair = Pair::file("games/xnimmt.game", &[("P", "4"), ("K", "60"), ("R", "4"), ("N", "8")]);
    playouts(&pair, 5, 500, 8);
}

/// The files of `dir`, sorted.
fn files_in(dir: &str) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".game"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_construct_runs_the_same() {
    let files = files_in("tests/inputs/ok");
    assert!(files.len() >= 3);
    for (i, path) in files.iter().enumerate() {
        let pair = Pair::file(path, &[]);
        let n = enumerate(&pair, 3_000);
        assert!(n > 10, "{path}: only {n} positions");
        playouts(&pair, 100, 200, i as u64);
    }
}

#[test]
fn run_time_errors_are_the_same() {
    for dir in ["tests/inputs/runtime", "tests/inputs/fuzz"] {
        for path in files_in(dir) {
            let text = std::fs::read_to_string(&path).unwrap();
            if let Some(pair) = Pair::load(&path, &text, &[]) {
                playouts(&pair, 2, 200, 1);
            }
        }
    }
}

#[test]
fn generated_programs_run_the_same() {
    let corpus = fuzzgen::corpus();
    let mut compiled = 0;
    for i in 0..400 {
        let case = fuzzgen::make_case(12, i, &corpus);
        // Generated programs may take their full step budget per call: the
        // same budget on both sides, so a few plies each.
        let Some(pair) = Pair::load("fuzz.game", &case.text, &case.bindings) else {
            continue;
        };
        compiled += 1;
        playouts(&pair, 2, 40, case.seed);
    }
    assert!(compiled >= 100, "only {compiled} of 400 generated programs compiled");
}
