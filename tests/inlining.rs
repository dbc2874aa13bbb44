//! The compiler inlines calls of small functions (src/ir/inline.rs). This
//! runs every game file, and thousands of generated ones, through the
//! inlined code and the code with every call kept, along the same seeded
//! random games, and compares everything the `Game` trait says at every
//! position: whose turn, the moves, chance outcomes, the position, the
//! evaluation, the canonical form, the returns, and each error's message.

use crate::common;
#[allow(dead_code)]
use crate::fuzzgen;

use fuzzgen::agree::agree;
use gdl::game::Game;
use gdl::ir::lower_code::Optimisations;
use gdl::runtime::Interpreted;

/// Each way to lower a game that leaves out some optimisation.
const LESSER: [Optimisations; 3] = [
    Optimisations::NONE,
    Optimisations {
        inline: true,
        fuse: false,
        late_requires: false,
    },
    Optimisations {
        inline: false,
        fuse: true,
        late_requires: false,
    },
];

#[test]
fn optimised_and_plain_code_agree_on_every_game_file() {
    let mut files = common::game_files();
    let ok = common::crate_dir().join("tests/inputs/ok");
    let mut extra: Vec<String> = std::fs::read_dir(&ok)
        .unwrap()
        .map(|e| format!("tests/inputs/ok/{}", e.unwrap().file_name().to_string_lossy()))
        .filter(|n| n.ends_with(".game"))
        .collect();
    extra.sort();
    files.extend(extra);
    let mut changed = [0; LESSER.len()];
    for file in &files {
        let prog = common::load_game(file, &[]).program().clone();
        let best = Interpreted::new(prog.clone());
        for (opts, changed) in LESSER.iter().zip(&mut changed) {
            let lesser = Interpreted::with_optimisations(prog.clone(), *opts);
            // A file whose code the optimisations changed must still say the same.
            if format!("{:?}", best.code().ops) != format!("{:?}", lesser.code().ops) {
                *changed += 1;
            }
            if let Err(e) = agree(&best, &lesser, 30, 200, 7, None) {
                panic!("{file}, lowered with {opts:?}: {e}");
            }
        }
    }
    // The comparison means something only if each optimisation changed some code.
    assert!(
        changed.iter().all(|&n| n >= 4),
        "the optimisations changed the code of only {changed:?} files"
    );
}

#[test]
fn optimised_and_plain_code_agree_on_generated_games() {
    let corpus = fuzzgen::corpus();
    let (mut compared, mut changed, mut nested) = (0, 0, 0);
    for i in 0..1500 {
        let case = fuzzgen::make_case(41, i, &corpus);
        let Ok(prog) = gdl::compile::load("fuzz.game", &case.text, &case.bindings) else {
            continue;
        };
        let best = Interpreted::new(prog.clone());
        let plain = Interpreted::with_optimisations(prog, Optimisations::NONE);
        if best.code().ops.len() != plain.code().ops.len() {
            changed += 1;
        }
        // A function of a player that calls another with `current`.
        if case
            .text
            .lines()
            .any(|l| l.starts_with("fn ") && l.contains("(current, "))
        {
            nested += 1;
        }
        if let Err(e) = agree(&best, &plain, 2, 40, case.seed, None) {
            panic!("case {i}:\n{}\n{e}", case.text);
        }
        compared += 1;
    }
    assert!(compared >= 300, "only {compared} generated games compiled");
    assert!(
        changed >= 30,
        "the optimisations changed the code of only {changed} generated games"
    );
    assert!(
        nested >= 20,
        "only {nested} generated games nest calls that pass `current`"
    );
}

/// Issue 23: in a move with an argument, a function that passes `current`
/// to another read a stale local once both were inlined.
#[test]
fn a_nested_call_of_current_reads_the_player_to_move() {
    let text = "game Bug\nplayers A, B\nstate x: int = 0\nstate y: int = 0\n\
                fn f(p: player) -> int = if p == A then 1 else -1\n\
                fn g(k: int) -> int = k + f(current)\n\
                move m(j in 0..0) {\n  x = f(current)\n  y = g(0)\n}\n\
                end when x == 3 { draw }\n";
    let prog = gdl::compile::load("bug.game", text, &[]).unwrap();
    for opts in [Optimisations::ALL].iter().chain(&LESSER) {
        let game = Interpreted::with_optimisations(prog.clone(), *opts);
        let mut s = game.initial_state().unwrap();
        let mut moves = Vec::new();
        let mut seen = Vec::new();
        for _ in 0..2 {
            game.legal_moves(&s, &mut moves).unwrap();
            game.apply(&mut s, &moves[0]).unwrap();
            seen.push(game.position(&s));
        }
        assert_eq!(
            seen,
            ["x: 1, y: 1; B to move", "x: -1, y: -1; A to move"],
            "lowered with {opts:?}"
        );
    }
}

/// `requires` conditions are tested as soon as the arguments they read are
/// bound (src/ir/lower_code.rs, `generate`). Against the rule before it,
/// every condition tested once all arguments are: the same moves, in the
/// same order, at every position of seeded random games where neither
/// fails (where a condition or a domain fails, the two may fail
/// differently: that is the rule's change). Every game file, the
/// fixtures, and 1,500 generated games.
#[test]
fn requires_tested_early_give_the_moves_of_requires_tested_last() {
    use rand::{Rng, SeedableRng};
    let late = Optimisations {
        late_requires: true,
        ..Optimisations::ALL
    };
    let mut programs: Vec<(String, gdl::ir::Program)> = common::game_files()
        .iter()
        .map(|f| (f.clone(), common::load_game(f, &[]).program().clone()))
        .collect();
    let corpus = fuzzgen::corpus();
    for i in 0..1500 {
        let case = fuzzgen::make_case(43, i, &corpus);
        if let Ok(prog) = gdl::compile::load("fuzz.game", &case.text, &case.bindings) {
            programs.push((case.text, prog));
        }
    }
    let (mut positions, mut changed) = (0u64, 0);
    for (name, prog) in &programs {
        let early = Interpreted::new(prog.clone());
        let last = Interpreted::with_optimisations(prog.clone(), late);
        if format!("{:?}", early.code().ops) != format!("{:?}", last.code().ops) {
            changed += 1;
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let Ok(root) = last.initial_state() else { continue };
        for _ in 0..10 {
            let mut s = root.clone();
            for _ in 0..60 {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                let (Ok(gdl::game::Turn::Player(_)), Ok(_), Ok(_)) = (
                    last.turn(&s),
                    early.legal_moves(&s, &mut a),
                    last.legal_moves(&s, &mut b),
                ) else {
                    break;
                };
                assert_eq!(a, b, "{name}\nat {}", last.position(&s));
                positions += 1;
                if b.is_empty() || last.apply(&mut s, &b[rng.random_range(0..b.len())]).is_err() {
                    break;
                }
            }
        }
    }
    assert!(positions > 20_000, "only {positions} positions compared");
    assert!(changed >= 20, "testing early changed the code of only {changed} games");
}
