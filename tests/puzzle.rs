//! One-player games: the breadth-first solver against brute force, and
//! `gdl solve` on them.

use crate::common;

use gdl::game::{Game, Turn};
use gdl::runtime::Interpreted;
use gdl::solve::exact::puzzle::{self, PuzzleOptions};

fn load(text: &str, bindings: &[(&str, &str)]) -> Interpreted {
    let bindings: Vec<(String, String)> = bindings.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    Interpreted::new(gdl::compile::load("puzzle.game", text, &bindings).unwrap())
}

/// Lights Out's fewest presses, by brute force: pressing is a toggle and
/// order does not matter, so a solution is a set of lights; the smallest
/// sets that turn every light off, as bit masks.
fn lights_out_smallest(n: usize) -> (usize, Vec<u32>) {
    let cells = n * n;
    let mut best = (usize::MAX, Vec::new());
    for set in 0u32..(1 << cells) {
        let mut lit = vec![true; cells];
        for i in (0..cells).filter(|i| set >> i & 1 == 1) {
            let (r, c) = (i / n, i % n);
            lit[i] ^= true;
            if r > 0 {
                lit[i - n] ^= true;
            }
            if r + 1 < n {
                lit[i + n] ^= true;
            }
            if c > 0 {
                lit[i - 1] ^= true;
            }
            if c + 1 < n {
                lit[i + 1] ^= true;
            }
        }
        if lit.iter().all(|l| !l) {
            let k = set.count_ones() as usize;
            if k < best.0 {
                best = (k, Vec::new());
            }
            if k == best.0 {
                best.1.push(set);
            }
        }
    }
    best
}

#[test]
fn lights_out_takes_the_fewest_presses_brute_force_finds() {
    let text = std::fs::read_to_string(common::crate_dir().join("tests/inputs/ok/lights-out.game")).unwrap();
    for n in 1..=3usize {
        let game = load(&text, &[("n", &n.to_string())]);
        let root = game.initial_state().unwrap();
        let s = puzzle::solve(&game, &root, &PuzzleOptions::default()).unwrap();
        let (fewest, sets) = lights_out_smallest(n);
        assert_eq!(s.value, Some(1.0), "n = {n}");
        assert_eq!(s.line.len(), fewest, "n = {n}");
        // Every light is reachable: 2^(n*n) positions.
        assert_eq!(s.states, 1 << (n * n), "n = {n}");
        // The best first presses are the lights in some smallest set.
        let firsts: Vec<String> = (0..n * n)
            .filter(|i| sets.iter().any(|set| set >> i & 1 == 1))
            .map(|i| format!("({}, {})", i / n, i % n))
            .collect();
        let best: Vec<String> = s.best_moves.iter().map(|m| game.move_text(m)).collect();
        assert_eq!(best, firsts, "n = {n}");
        // The line, played, turns every light off.
        let mut x = root.clone();
        for m in &s.line {
            game.apply(&mut x, m).unwrap();
        }
        assert_eq!(game.turn(&x).unwrap(), Turn::Terminal);
        assert_eq!(game.returns(&x, 0).unwrap(), 1.0);
    }
}

/// The best payoff and the fewest moves to it, by trying every line.
fn brute(game: &Interpreted, s: &gdl::runtime::State, depth: usize) -> Option<(f64, usize)> {
    if game.turn(s).unwrap() == Turn::Terminal {
        return Some((game.returns(s, 0).unwrap(), 0));
    }
    if depth == 0 {
        return None;
    }
    let mut moves = Vec::new();
    game.legal_moves(s, &mut moves).unwrap();
    let mut best: Option<(f64, usize)> = None;
    for m in &moves {
        let mut c = s.clone();
        game.apply(&mut c, m).unwrap();
        if let Some((v, k)) = brute(game, &c, depth - 1) {
            let better = match best {
                None => true,
                Some((bv, bk)) => v > bv || (v == bv && k + 1 < bk),
            };
            if better {
                best = Some((v, k + 1));
            }
        }
    }
    best
}

#[test]
fn a_payoff_puzzle_reaches_the_best_payoff_by_the_shortest_line() {
    // Steps of 1, 2 or 3 up to at least `goal`; the payoff is where you
    // land, less a penalty for landing on a multiple of 4.
    let text = "game Steps\nplayers P\nparam goal: int = 9 in 1..20\nstate x: int = 0\n\
                move step(k in 1..3) { x += k }\n\
                end when x >= goal { winner P payoff x - (if x % 4 == 0 then 10 else 0) }\n";
    for goal in 1..=12 {
        let game = load(text, &[("goal", &goal.to_string())]);
        let root = game.initial_state().unwrap();
        let s = puzzle::solve(&game, &root, &PuzzleOptions::default()).unwrap();
        let (value, length) = brute(&game, &root, 20).unwrap();
        assert_eq!((s.value, s.line.len()), (Some(value), length), "goal {goal}");
        for (m, after) in &s.moves {
            let mut c = root.clone();
            game.apply(&mut c, m).unwrap();
            let from_there = brute(&game, &c, 20).filter(|&(v, _)| v == value).map(|(_, k)| k);
            // A move that reaches the best payoff from there only by a longer
            // way still reaches it: the distance is to the best payoff.
            assert_eq!(*after, from_there, "goal {goal}, move {}", game.move_text(m));
        }
    }
}

#[test]
fn a_puzzle_with_no_end_in_reach_says_so_and_limits_hold() {
    let text = "game Loop\nplayers P\nstate x: int = 0\nmove turn(k in 0..1) { x = (x + k) % 3 }\nend when x == 7 { winner P }\n";
    let game = load(text, &[]);
    let root = game.initial_state().unwrap();
    let s = puzzle::solve(&game, &root, &PuzzleOptions::default()).unwrap();
    assert_eq!((s.value, s.states), (None, 3));
    let lights = std::fs::read_to_string(common::crate_dir().join("tests/inputs/ok/lights-out.game")).unwrap();
    let game = load(&lights, &[("n", "4")]);
    let opts = PuzzleOptions {
        max_states: Some(1000),
        ..PuzzleOptions::default()
    };
    let e = puzzle::solve(&game, &game.initial_state().unwrap(), &opts).unwrap_err();
    assert!(e.to_string().contains("states limit of 1000"), "{e}");
}

#[test]
fn gdl_solves_and_traces_a_one_player_game() {
    let file = common::crate_dir().join("tests/inputs/ok/lights-out.game");
    let file = file.to_str().unwrap();
    let run = common::gdl(&["solve", file, "--explain"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    common::snapshot_settings().bind(|| insta::assert_snapshot!("solve_lights_out", run.stdout));
    let run = common::gdl(&["trace", file, "--players", "random", "--seed", "3"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.trim_end().ends_with("P won the game"), "{}", run.stdout);
    // `optimal` alone plays a shortest line: five presses.
    let run = common::gdl(&["trace", file, "--players", "optimal", "--seed", "5"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let plies = run.stdout.lines().filter(|l| l.contains(" P plays ")).count();
    assert_eq!(plies, 5, "{}", run.stdout);
    assert!(run.stdout.trim_end().ends_with("P won the game"), "{}", run.stdout);
}
