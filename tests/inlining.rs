//! The compiler inlines calls of small functions (src/ir/inline.rs). This
//! runs every game file, and thousands of generated ones, through the
//! inlined code and the code with every call kept, along the same seeded
//! random games, and compares everything the `Game` trait says at every
//! position: whose turn, the moves, chance outcomes, the position, the
//! evaluation, the canonical form, the returns, and each error's message.

mod common;
#[allow(dead_code)]
mod fuzzgen;

use gdl::game::{Game, Turn};
use gdl::runtime::{Interpreted, State};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// What the game says about one position, errors as their messages.
fn describe(game: &Interpreted, s: &State) -> String {
    let mut out = String::new();
    let mut line = |what: &str, v: String| out.push_str(&format!("{what}: {v}\n"));
    line("position", game.position(s));
    line("turn", format!("{:?}", game.turn(s).map_err(|e| e.to_string())));
    let mut moves = Vec::new();
    line(
        "moves",
        format!(
            "{:?} {moves:?}",
            game.legal_moves(s, &mut moves).map_err(|e| e.to_string())
        ),
    );
    for p in 0..game.num_players() {
        let mut mine = Vec::new();
        let r = game.legal_moves_of(s, p, &mut mine).map_err(|e| e.to_string());
        line("moves of", format!("{p} {r:?} {mine:?}"));
        line(
            "evaluate",
            format!("{p} {:?}", game.evaluate(s, p).map_err(|e| e.to_string())),
        );
        line(
            "returns",
            format!("{p} {:?}", game.returns(s, p).map_err(|e| e.to_string())),
        );
    }
    let mut outcomes = Vec::new();
    let r = game.chance_outcomes(s, &mut outcomes).map_err(|e| e.to_string());
    line("chance", format!("{r:?} {outcomes:?}"));
    let canonical = game.canonical(s).map(|c| c.map(|c| game.position(&c)));
    line("canonical", format!("{:?}", canonical.map_err(|e| e.to_string())));
    line("scores", format!("{:?}", game.scores(s).map_err(|e| e.to_string())));
    out
}

/// Plays `games` seeded random games of at most `plies` moves on both, and
/// fails at the first position where they differ.
fn agree(name: &str, inlined: &Interpreted, plain: &Interpreted, games: usize, plies: usize, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let (a, b) = (inlined.initial_state(), plain.initial_state());
    assert_eq!(
        a.as_ref().map(|s| inlined.position(s)).map_err(|e| e.to_string()),
        b.as_ref().map(|s| plain.position(s)).map_err(|e| e.to_string()),
        "{name}: the initial state"
    );
    let (Ok(root_a), Ok(root_b)) = (a, b) else { return };
    for _ in 0..games {
        let (mut x, mut y) = (root_a.clone(), root_b.clone());
        for ply in 0..plies {
            let (dx, dy) = (describe(inlined, &x), describe(plain, &y));
            assert_eq!(dx, dy, "{name}: ply {ply}");
            let step = match inlined.turn(&x) {
                Ok(Turn::Player(_)) => {
                    let mut moves = Vec::new();
                    inlined
                        .legal_moves(&x, &mut moves)
                        .ok()
                        .filter(|_| !moves.is_empty())
                        .map(|_| {
                            let m = moves[rng.random_range(0..moves.len())];
                            (
                                inlined.apply(&mut x, &m).map_err(|e| e.to_string()),
                                plain.apply(&mut y, &m).map_err(|e| e.to_string()),
                            )
                        })
                }
                Ok(Turn::Chance) => {
                    let mut outcomes = Vec::new();
                    inlined
                        .chance_outcomes(&x, &mut outcomes)
                        .ok()
                        .filter(|_| !outcomes.is_empty())
                        .map(|_| {
                            let m = outcomes[rng.random_range(0..outcomes.len())].0;
                            (
                                inlined.apply(&mut x, &m).map_err(|e| e.to_string()),
                                plain.apply(&mut y, &m).map_err(|e| e.to_string()),
                            )
                        })
                }
                Ok(Turn::Simultaneous) => {
                    let mut joint = Vec::new();
                    for p in 0..inlined.num_players() {
                        let mut moves = Vec::new();
                        if inlined.legal_moves_of(&x, p, &mut moves).is_err() || moves.is_empty() {
                            break;
                        }
                        joint.push(moves[rng.random_range(0..moves.len())]);
                    }
                    (joint.len() == inlined.num_players()).then(|| {
                        (
                            inlined.apply_joint(&mut x, &joint).map_err(|e| e.to_string()),
                            plain.apply_joint(&mut y, &joint).map_err(|e| e.to_string()),
                        )
                    })
                }
                Ok(Turn::Terminal) | Err(_) => None,
            };
            match step {
                Some((ra, rb)) => {
                    assert_eq!(ra, rb, "{name}: ply {ply}, applying the move");
                    if ra.is_err() {
                        break;
                    }
                }
                None => break,
            }
        }
    }
}

#[test]
fn inlined_and_plain_code_agree_on_every_game_file() {
    let mut files = common::game_files();
    let ok = common::crate_dir().join("tests/inputs/ok");
    let mut extra: Vec<String> = std::fs::read_dir(&ok)
        .unwrap()
        .map(|e| format!("tests/inputs/ok/{}", e.unwrap().file_name().to_string_lossy()))
        .filter(|n| n.ends_with(".game"))
        .collect();
    extra.sort();
    files.extend(extra);
    let mut with_calls = 0;
    for file in &files {
        let prog = common::load_game(file, &[]).program().clone();
        let inlined = Interpreted::new(prog.clone());
        let plain = Interpreted::without_inlining(prog);
        // A file whose code inlining changed must still say the same.
        if inlined.code().ops.len() != plain.code().ops.len() {
            with_calls += 1;
        }
        agree(file, &inlined, &plain, 30, 200, 7);
    }
    // The comparison means something only if inlining changed some code.
    assert!(with_calls >= 4, "inlining changed the code of only {with_calls} files");
}

#[test]
fn inlined_and_plain_code_agree_on_generated_games() {
    let corpus = fuzzgen::corpus();
    let (mut compared, mut changed) = (0, 0);
    for i in 0..1500 {
        let case = fuzzgen::make_case(41, i, &corpus);
        let Ok(prog) = gdl::compile::load("fuzz.game", &case.text, &case.bindings) else {
            continue;
        };
        let inlined = Interpreted::new(prog.clone());
        let plain = Interpreted::without_inlining(prog);
        if inlined.code().ops.len() != plain.code().ops.len() {
            changed += 1;
        }
        agree(
            &format!("case {i}:\n{}\n", case.text),
            &inlined,
            &plain,
            2,
            40,
            case.seed,
        );
        compared += 1;
    }
    assert!(compared >= 300, "only {compared} generated games compiled");
    assert!(
        changed >= 30,
        "inlining changed the code of only {changed} generated games"
    );
}
