//! The language end to end: parameters change the game and it still keeps
//! the contract of `Game` (tests/common/conformance.rs; every game file with
//! its defaults is checked in tests/conformance.rs); the seeds' examples;
//! every broken file gives the diagnostics in snapshots/.

use crate::common;
// Parts of the language with tests of their own, in one binary with the
// rest (a test file is a binary to link).
#[path = "language/end_conditions.rs"]
mod end_conditions;
#[path = "language/invariants.rs"]
mod invariants;
use crate::native_extra;

use common::{conformance_of_file, load_game as load, snap};
use gdl::compile;
use gdl::game::{Game, Turn, all_returns};
use gdl::report::diagnostic;
use gdl::runtime::Interpreted;

#[test]
fn parameters_change_the_game_and_still_play_by_the_rules() {
    for (pits, tokens) in [(1, 1), (1, 7), (2, 3), (5, 2), (8, 10), (16, 40)] {
        let (p, t) = (pits.to_string(), tokens.to_string());
        let g = load("games/nimcala.game", &[("pits", &p), ("tokens", &t)]);
        let s = g.initial_state().unwrap();
        let mut expected = vec!["0".to_string(); pits];
        expected[0] = t.clone();
        assert_eq!(g.state_text(&s), format!("[{}]", expected.join(", ")));
        conformance_of_file(&g, 50, 2);
    }
    for piles in ["1", "0,3", "7,5,3,1", "[2, 2, 2, 2, 2, 2]"] {
        conformance_of_file(&load("games/nim.game", &[("piles", piles)]), 50, 3);
        conformance_of_file(&load("games/nim-normal.game", &[("piles", piles)]), 50, 3);
    }
}

#[test]
fn legal_moves_follow_the_seed_documents() {
    // Seed 001: the moves of board [0, 2, 3, 1].
    let nim = load("games/nim.game", &[]);
    let s = nim.parse_position("[0, 2, 3, 1]; MIN to move").unwrap();
    let mut moves = Vec::new();
    nim.legal_moves(&s, &mut moves).unwrap();
    let texts: Vec<String> = moves.iter().map(|m| nim.move_text(m)).collect();
    assert_eq!(texts, ["(1, 1)", "(1, 2)", "(2, 1)", "(2, 2)", "(2, 3)", "(3, 1)"]);

    // Seed 002: after 3 tokens from pit 1 of a 4-pit, 5-token board, five moves.
    let nimcala = load("games/nimcala.game", &[("pits", "4"), ("tokens", "5")]);
    let mut s = nimcala.initial_state().unwrap();
    let m = nimcala.parse_move(&s, "(1, 3)").unwrap();
    nimcala.apply(&mut s, &m).unwrap();
    assert_eq!(nimcala.state_text(&s), "[2, 1, 1, 1]");
    nimcala.legal_moves(&s, &mut moves).unwrap();
    let texts: Vec<String> = moves.iter().map(|m| nimcala.move_text(m)).collect();
    assert_eq!(texts, ["(1, 1)", "(1, 2)", "(2, 1)", "(3, 1)", "(4, 1)"]);
    // All five tokens from pit 1: three are sown, two leave the board.
    let mut s = nimcala.initial_state().unwrap();
    let m = nimcala.parse_move(&s, "(1, 5)").unwrap();
    nimcala.apply(&mut s, &m).unwrap();
    assert_eq!(nimcala.state_text(&s), "[0, 1, 1, 1]");

    // Seed 003: after 1, only even numbers of at least 5; after 6, anything free.
    let g = load("games/select19.game", &[]);
    let mut s = g.initial_state().unwrap();
    g.legal_moves(&s, &mut moves).unwrap();
    assert_eq!(moves.len(), 9);
    let m = g.parse_move(&s, "1").unwrap();
    g.apply(&mut s, &m).unwrap();
    g.legal_moves(&s, &mut moves).unwrap();
    let texts: Vec<String> = moves.iter().map(|m| g.move_text(m)).collect();
    assert_eq!(texts, ["6", "8"]);
    let m = g.parse_move(&s, "6").unwrap();
    g.apply(&mut s, &m).unwrap();
    g.legal_moves(&s, &mut moves).unwrap();
    let texts: Vec<String> = moves.iter().map(|m| g.move_text(m)).collect();
    assert_eq!(texts, ["2", "3", "4", "5", "7", "8", "9"]);
}

#[test]
fn the_player_who_cannot_pick_loses_the_last_number() {
    let g = load("games/select19.game", &[]);
    // B picked 3 last; A may only pick even numbers of at least 5, and none is free.
    let s = g
        .parse_position("free: {1, 2, 4, 5, 7, 9}, last: 3; A to move")
        .unwrap();
    assert_eq!(g.turn(&s).unwrap(), Turn::Terminal);
    assert_eq!(all_returns(&g, &s).unwrap(), vec![-3.0, 3.0]);
}

#[test]
fn misere_and_normal_nim_differ_only_in_who_wins_the_end() {
    let misere = load("games/nim.game", &[("piles", "1")]);
    let normal = load("games/nim-normal.game", &[("piles", "1")]);
    for g in [&misere, &normal] {
        let mut s = g.initial_state().unwrap();
        let m = g.parse_move(&s, "(0, 1)").unwrap();
        g.apply(&mut s, &m).unwrap();
        assert_eq!(g.turn(&s).unwrap(), Turn::Terminal);
    }
    let end = |g: &Interpreted| {
        let mut s = g.initial_state().unwrap();
        let m = g.parse_move(&s, "(0, 1)").unwrap();
        g.apply(&mut s, &m).unwrap();
        all_returns(g, &s).unwrap()
    };
    assert_eq!(end(&misere), vec![-1.0, 1.0]);
    assert_eq!(end(&normal), vec![1.0, -1.0]);
}

#[test]
fn broken_game_files_give_diagnostics() {
    common::snapshot_settings().bind(|| {
        insta::glob!("inputs/err/*.game", |path| {
            let text = std::fs::read_to_string(path).unwrap();
            let name = format!("tests/inputs/err/{}", path.file_name().unwrap().to_string_lossy());
            let errors = compile::load(&name, &text, &[]).expect_err("a broken file must not compile");
            // Every error carries a stable code and a span inside the file.
            for e in &errors.errors {
                assert!(e.code.starts_with("gdl::"), "{}", e.code);
                assert!(e.span.end <= text.len());
            }
            insta::assert_snapshot!(diagnostic::render_compile_errors(&errors, false));
        });
    });
}

#[test]
fn parameter_values_are_checked_against_their_declarations() {
    let text = std::fs::read_to_string("games/nimcala.game").unwrap();
    let cases = [
        (vec![("pits", "40")], "gdl::compile::param_range"),
        (vec![("pits", "four")], "gdl::compile::bad_param"),
        (vec![("pitz", "4")], "gdl::compile::unknown_param"),
        (vec![("tokens", "0")], "gdl::compile::param_range"),
    ];
    for (bindings, code) in cases {
        let b: Vec<(String, String)> = bindings.iter().map(|(a, v)| (a.to_string(), v.to_string())).collect();
        let errors = compile::load("nimcala.game", &text, &b).expect_err("must be rejected");
        assert_eq!(errors.errors[0].code, code, "{bindings:?}");
    }
    let nim = std::fs::read_to_string("games/nim.game").unwrap();
    for (piles, code) in [
        ("7,50", "gdl::compile::param_range"),
        ("", "gdl::compile::requirement"),
        ("1,x", "gdl::compile::bad_param"),
    ] {
        let errors = compile::load("nim.game", &nim, &[("piles".into(), piles.into())]).expect_err(piles);
        assert_eq!(errors.errors[0].code, code, "{piles}");
    }
}

#[test]
fn bad_positions_are_reported_at_the_place() {
    let g = load("games/nim.game", &[]);
    for bad in [
        "[1, 2, x, 4]",
        "[1, 2",
        "[1, 2, 3, 4, 5]; MAX",
        "[1, 2]; NOBODY to move",
        "{1, 2}",
        "board: [1], extra: 3",
    ] {
        assert!(g.parse_position(bad).is_err(), "{bad} must be rejected");
    }
    assert!(g.parse_position("board: [0, 2, 3, 1]; MIN to move").is_ok());
    assert!(g.parse_position("[0,2,3,1]").is_ok());
}

#[test]
fn runtime_errors_point_at_the_rule() {
    let text = "game Broken\nplayers A, B\nstate xs: list<int> = [1, 2]\nstate n: int = 0\n\
                move step(k in 1..2) {\n    xs[n + 2] = k\n}\nend when n > 5 { draw }\n";
    let g = Interpreted::new(compile::load("broken.game", text, &[]).unwrap());
    let mut s = g.initial_state().unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&s, &mut moves).unwrap();
    let err = g.apply(&mut s, &moves[0]).unwrap_err();
    assert_eq!(err.code_str(), "gdl::runtime::index");
    assert!(err.has_span());
    snap!("runtime_index_error", diagnostic::render(&err, false));

    let stuck = "game Stuck\nplayers A, B\nstate n: int = 0\nmove step(k in 1..2) requires n < 3 { n += k }\nend when n == 100 { draw }\n";
    let g = Interpreted::new(compile::load("stuck.game", stuck, &[]).unwrap());
    let s = g.parse_position("n: 3; B to move").unwrap();
    let err = g.legal_moves(&s, &mut moves).unwrap_err();
    assert_eq!(err.code_str(), "gdl::runtime::no_moves");
    snap!("runtime_no_moves_error", diagnostic::render(&err, false));
}

/// `min` and `max` of many arguments: each argument is evaluated once (the
/// compiler once copied the running minimum twice per argument, so 26
/// arguments took minutes and gigabytes to compile).
#[test]
fn min_and_max_of_many_arguments() {
    // 40 arguments, each a state value or a constant, the extremes in the middle.
    let args: Vec<String> = (0..40)
        .map(|i| match i {
            17 => "low".to_string(),
            23 => "high".to_string(),
            i if i % 2 == 0 => "n".to_string(),
            i => (i + 1).to_string(),
        })
        .collect();
    let text = format!(
        "game Many\nplayers A, B\nstate n: int = 10\nstate low: int = -7\nstate high: int = 99\n\
         state lo: int = 0\nstate hi: int = 0\n\
         move go() {{ lo = min({a}) \n hi = max({a}) \n n = 0 }}\nend when n == 0 {{ draw }}\n",
        a = args.join(", ")
    );
    let game = Interpreted::new(compile::load("many.game", &text, &[]).unwrap());
    let mut s = game.initial_state().unwrap();
    let mut moves = Vec::new();
    game.legal_moves(&s, &mut moves).unwrap();
    game.apply(&mut s, &moves[0]).unwrap();
    let int = |name: &str| match game.value_of(&s, name) {
        Some(compile::Value::Int(v)) => v,
        other => panic!("{name}: {other:?}"),
    };
    assert_eq!((int("lo"), int("hi")), (-7, 99));
}

/// A file given as text, compiled.
fn game_of(text: &str) -> Interpreted {
    match compile::load("test.game", text, &[]) {
        Ok(p) => Interpreted::new(p),
        Err(e) => panic!("{text}\n{}", diagnostic::render_compile_errors(&e, false)),
    }
}

/// The player to move, as `Turn::Player(p)` gives it.
fn mover(g: &Interpreted, s: &gdl::runtime::State) -> usize {
    match g.turn(s).unwrap() {
        Turn::Player(p) => p,
        other => panic!("{other:?} in {}", g.position(s)),
    }
}

/// `again` keeps the turn, `turn = p` hands it to anyone, in a move, a
/// chance move or a simultaneous move's `then` block; `previous` is always
/// the player who moved last.
#[test]
fn a_move_may_say_who_moves_next() {
    let g = game_of(
        "game Turns\nplayers A, B, C\nstate n: int = 0\nstate rolled: bool = false\n\
         move step(k in 1..3) requires not rolled {\n n += 1\n if k == 1 { again }\n if k == 2 { turn = C }\n if k == 3 { rolled = true }\n}\n\
         chance move die(d in 1..2) requires rolled {\n rolled = false\n if d == 2 { turn = previous }\n}\n\
         end when n == 10 { draw }\n",
    );
    let mut s = g.initial_state().unwrap();
    let play = |s: &mut gdl::runtime::State, text: &str| {
        let m = g.parse_move(s, text).unwrap();
        g.apply(s, &m).unwrap();
    };
    play(&mut s, "1");
    assert_eq!(mover(&g, &s), 0, "again: A moves again");
    assert_eq!(g.value_of(&s, "n"), Some(compile::Value::Int(1)));
    play(&mut s, "2");
    assert_eq!(mover(&g, &s), 2, "turn = C");
    play(&mut s, "3");
    // C rolled: chance acts, then B (after C) moves unless chance hands the turn back.
    assert_eq!(g.turn(&s).unwrap(), Turn::Chance);
    let mut after_one = s.clone();
    play(&mut after_one, "die(1)");
    assert_eq!(mover(&g, &after_one), 0, "chance does not take a turn: A follows C");
    play(&mut s, "die(2)");
    assert_eq!(mover(&g, &s), 2, "turn = previous gives C another move");

    // A simultaneous move's `then` block names who moves next.
    let sim = game_of(
        "game Bids\nplayers A, B\nstate bid: per player int = 0\nstate done: bool = false\n\
         simultaneous move offer(x in 1..2) requires not done { bid[me] = x } then {\n if bid[A] < bid[B] { turn = B }\n done = true\n}\n\
         move finish() requires done { done = false\n bid[A] = 0\n bid[B] = 0 }\n\
         end when bid[A] == 3 { draw }\n",
    );
    for (a, b, who) in [(1, 2, 1), (2, 1, 0), (1, 1, 0)] {
        let mut s = sim.initial_state().unwrap();
        let mut moves = Vec::new();
        sim.legal_moves_of(&s, 0, &mut moves).unwrap();
        let joint = [moves[a - 1], moves[b - 1]];
        sim.apply_joint(&mut s, &joint).unwrap();
        assert_eq!(mover(&sim, &s), who, "bids {a}, {b}");
    }

    // `turn = previous` before anyone has moved names nobody.
    let nobody = game_of(
        "game Nobody\nplayers A, B\nstate n: int = 0\nmove go() { n += 1\n turn = previous }\nend when n == 2 { draw }\n",
    );
    let mut s = nobody.initial_state().unwrap();
    let mut moves = Vec::new();
    nobody.legal_moves(&s, &mut moves).unwrap();
    let err = nobody.apply(&mut s, &moves[0]).unwrap_err();
    assert_eq!(err.code_str(), "gdl::runtime::no_player");
}

/// The value of a take-away game with extra turns, by every search, against
/// a brute force written here: from a heap of `n`, take 1, 2 or 3; taking 2
/// gives another move; whoever takes the last object wins.
#[test]
fn extra_turns_are_solved_right() {
    // win[n][again]: whether the player to move wins from a heap of n.
    fn wins(n: i64) -> bool {
        (1..=3.min(n)).any(|k| {
            let left = n - k;
            if left == 0 {
                true
            } else if k == 2 {
                wins(left)
            } else {
                !wins(left)
            }
        })
    }
    for heap in 1..=14 {
        let g = game_of(&format!(
            "game Take\nplayers A, B\nstate heap: int = {heap}\n\
             move take(k in 1..3) requires k <= heap {{\n heap -= k\n if k == 2 {{ again }}\n}}\n\
             end when heap == 0 {{ winner previous }}\n"
        ));
        let root = g.initial_state().unwrap();
        for (algorithm, memo) in [
            (gdl::solve::Algorithm::Minimax, false),
            (gdl::solve::Algorithm::AlphaBeta, false),
            (gdl::solve::Algorithm::AlphaBeta, true),
            (gdl::solve::Algorithm::Minimax, true),
        ] {
            let opts = gdl::solve::SolveOptions {
                algorithm,
                memo,
                ..gdl::solve::SolveOptions::default()
            };
            let value = gdl::solve::solve(&g, &root, &opts).unwrap().value;
            assert_eq!(value > 0.0, wins(heap), "heap {heap}, {algorithm:?}, memo {memo}");
        }
        conformance_of_file(&g, 20, heap as u64);
    }
}

/// `weight` makes some chance outcomes likelier: the sum of two dice, each
/// outcome's probability its weight over the sum of the weights; outcomes
/// of weight 0 cannot happen; a negative weight, or none above 0, is an error.
#[test]
fn weighted_chance_gives_exact_probabilities() {
    let g = game_of(
        "game Dice\nplayers A, B\nstate total: int = 0\nstate rolling: bool = true\n\
         chance move dice(sum in 1..12) requires rolling weight 6 - abs(sum - 7) {\n total += sum\n rolling = false\n}\n\
         move stop() { rolling = true }\nend when total > 0 and not rolling { winner A payoff total }\n",
    );
    let s = g.initial_state().unwrap();
    assert_eq!(g.turn(&s).unwrap(), Turn::Chance);
    let mut outcomes = Vec::new();
    g.chance_outcomes(&s, &mut outcomes).unwrap();
    let shown: Vec<(String, f64)> = outcomes.iter().map(|(m, p)| (g.move_text(m), *p)).collect();
    let expected: Vec<(String, f64)> = (2..=12)
        .map(|sum: i64| (format!("dice({sum})"), (6 - (sum - 7).abs()) as f64 / 36.0))
        .collect();
    assert_eq!(shown, expected, "dice(1) has weight 0 and is left out");

    // Drawn by the seeded playouts, the sums come out about as often as they should.
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(5);
    let mut scratch = gdl::solve::agents::simulate::Scratch::default();
    let mut sevens = 0;
    for _ in 0..3600 {
        let m = gdl::solve::agents::simulate::sample_chance(&g, &s, &mut rng, &mut scratch).unwrap();
        sevens += usize::from(g.move_text(&m) == "dice(7)");
    }
    assert!((500..=700).contains(&sevens), "{sevens} sevens in 3600 rolls");

    for (weight, message) in [("x - 2", "weight -1"), ("0 * x", "weight 0")] {
        let bad = game_of(&format!(
            "game Bad\nplayers A, B\nstate n: int = 0\n\
             chance move c(x in 1..2) requires n == 0 weight {weight} {{ n += x }}\n\
             move m() {{ n += 1 }}\nend when n > 2 {{ draw }}\n"
        ));
        let err = bad
            .chance_outcomes(&bad.initial_state().unwrap(), &mut outcomes)
            .unwrap_err();
        assert_eq!(err.code_str(), "gdl::runtime::weight", "{weight}");
        assert!(err.message().contains(message), "{weight}: {}", err.message());
        assert!(err.has_span());
    }
}

/// A `const` is read by the rules without living in the state: indexed by
/// computed values, gone through, tested with `in`, summed; nested lists
/// too. Out of range is the usual run-time error, pointing at the rule.
#[test]
fn constants_are_read_in_the_rules() {
    let g = game_of(
        "game Tables\nplayers A, B\nparam base: int = 10\n\
         const rows: list<list<int>> = [[1, 2, 3], [4, 5], [6]]\n\
         const primes: list<int> = [2, 3, 5, 7]\nconst odd: set<0..9> = {1, 3, 5}\n\
         const total: int = sum(primes) + base\n\
         state acc: int = 0\nstate picks: list<int, 4> = []\n\
         move pick(r in 0..<len(rows), i in 0..2) requires i < len(rows[r]) {\n\
          acc += rows[r][i] * primes[r]\n\
          for row in rows { if rows[r][i] in row { picks.push(last(row)) } }\n\
          if rows[r][i] in odd { acc += total }\n\
          acc += sum(x for x in primes if x > rows[r][i])\n\
         }\n\
         move bad(k in 3..3) { acc += primes[k + 1] }\n\
         end when len(picks) > 0 { draw }\n",
    );
    assert_eq!(g.state_text(&g.initial_state().unwrap()), "acc: 0, picks: []");
    let after = |text: &str| {
        let mut s = g.initial_state().unwrap();
        let m = g.parse_move(&s, text).unwrap();
        g.apply(&mut s, &m).map(|_| g.state_text(&s))
    };
    // rows[1][0] = 4: 4 * 3, no odd bonus, primes above 4: 5 + 7.
    assert_eq!(after("pick(1, 0)").unwrap(), "acc: 24, picks: [5]");
    // rows[0][2] = 3: 3 * 2, odd: + 27, primes above 3: 12.
    assert_eq!(after("pick(0, 2)").unwrap(), "acc: 45, picks: [3]");
    let mut moves = Vec::new();
    g.legal_moves(&g.initial_state().unwrap(), &mut moves).unwrap();
    assert_eq!(moves.len(), 7, "3 + 2 + 1 picks, and bad");
    let err = after("bad(3)").unwrap_err();
    assert_eq!(err.code_str(), "gdl::runtime::index");
    assert!(err.has_span());
}

/// `while`, functions written with statements, and procedures: a function
/// returns from inside its loops, a procedure changes the state of the move
/// that runs it, and an endless `while` stops at the step budget.
#[test]
fn loops_functions_and_procedures() {
    let g = game_of(
        "game Steps\nplayers A, B\nstate pits: list<int> = [3, 0, 2, 5]\nstate total: int = 0\n\
         fn collatz(n: int) -> int {\n let steps = 0\n let x = n\n while x != 1 {\n  if x % 2 == 0 { x = x / 2 } else { x = 3 * x + 1 }\n  steps += 1\n }\n return steps\n}\n\
         fn first_from(i: int, k: int) -> int {\n for j in i..<len(pits) { if pits[j] >= k { return j } }\n return -1\n}\n\
         fn fact(n: int) -> int {\n if n <= 1 { return 1 } else { return n * fact(n - 1) }\n}\n\
         fn sow(i: int) {\n let hand = pits[i]\n pits[i] = 0\n let j = i\n while hand > 0 {\n  j = (j + 1) % len(pits)\n  pits[j] += 1\n  hand -= 1\n }\n}\n\
         move go(k in 1..5) requires first_from(0, k) >= 0 {\n sow(first_from(0, k))\n total = collatz(27) + fact(5)\n}\n\
         move forever() requires total == 999 { while true { total += 1 } }\n\
         end when total > 0 { draw }\n",
    );
    let mut s = g.initial_state().unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&s, &mut moves).unwrap();
    let texts: Vec<String> = moves.iter().map(|m| g.move_text(m)).collect();
    assert_eq!(texts, ["go(1)", "go(2)", "go(3)", "go(4)", "go(5)"]);
    // go(4): the first pit holding 4 or more is pit 3 (5 seeds), sown round.
    g.apply(&mut s, &moves[3]).unwrap();
    assert_eq!(g.state_text(&s), "pits: [5, 1, 3, 1], total: 231");

    let stuck = g.parse_position("pits: [0, 0, 0, 0], total: 999").unwrap();
    g.legal_moves(&stuck, &mut moves).unwrap();
    let mut s = stuck.clone();
    let err = g.apply(&mut s, &moves[0]).unwrap_err();
    assert_eq!(err.code_str(), "gdl::runtime::steps");
    assert!(err.has_span());
}

/// Whole lists and sets in the rules: built (`[x; n]`, `++`, `{...}`,
/// comprehensions), assigned, compared element by element; list methods.
/// The values are computed before the target changes, so a list may be
/// rebuilt from itself.
#[test]
fn lists_and_sets_are_built_assigned_and_compared() {
    let g = game_of(
        "game Coll\nplayers A, B\nconst sym: list<int> = [2, 1, 0, 5, 4, 3]\n\
         state board: list<int, 6> = [3, 1, 4, 1, 5, 9]\nstate row: list<int, 8> = []\n\
         state free: set<1..9> = {1..9}\nstate rows: list<list<int, 3>> = [[1], [2, 3], []]\n\
         state copy: list<list<int, 3>> = [[], [], []]\nstate flag: bool = false\nstate n: int = 0\n\
         move go(k in 0..3) requires n == 0 {\n\
          row = [k; 3] ++ [7] ++ [x * 2 for x in board if x > 3]\n\
          board = [board[sym[i]] for i in 0..<6]\n\
          free = {x + 1 for x in row if x < 9}\n\
          copy = rows\n rows[2] = [9, 9]\n\
          flag = row == [k, k, k, 7, 8, 10, 18] and free != {} and board < [9] and {3, 1, 1} == {1, 3}\n\
          row.insert(1, 42)\n row.remove(k)\n row.pop()\n row.pop(0)\n board.sort()\n rows.pop()\n\
          n = 1\n}\n\
         move bad(k in 0..4) requires n == 1 {\n\
          if k == 0 { row = [1; 9] }\n if k == 1 { free = {0} }\n if k == 2 { row = []\n row.pop() }\n\
          if k == 3 { row.insert(9, 1) }\n if k == 4 { row.pop(8) }\n}\n\
         end when n == 2 { draw }\n",
    );
    let mut s = g.initial_state().unwrap();
    let m = g.parse_move(&s, "go(0)").unwrap();
    g.apply(&mut s, &m).unwrap();
    assert_eq!(
        g.state_text(&s),
        "board: [1, 1, 3, 4, 5, 9], row: [0, 0, 7, 8, 10], free: {1, 8, 9}, rows: [[1], [2, 3]], \
         copy: [[1], [2, 3], []], flag: true, n: 1"
    );
    for (k, code) in [
        (0, "gdl::runtime::full"),
        (1, "gdl::runtime::set_range"),
        (2, "gdl::runtime::empty"),
        (3, "gdl::runtime::index"),
        (4, "gdl::runtime::index"),
    ] {
        let mut t = s.clone();
        let m = g.parse_move(&t, &format!("bad({k})")).unwrap();
        let err = g.apply(&mut t, &m).unwrap_err();
        assert_eq!(err.code_str(), code, "bad({k}): {err}");
        assert!(err.has_span(), "bad({k})");
    }
}

/// The value of Kalah for the player to move, counting only the seeds still
/// to be stored, by plain negamax over a board laid out as printed boards
/// are (South's pits, South's store, North's pits, North's store), written
/// from the rules independently of games/kalah.game.
fn kalah_by_hand(pits: usize, seeds: i64) -> i64 {
    use std::collections::HashMap;
    fn value(n: usize, board: &[i64], south: bool, memo: &mut HashMap<(Vec<i64>, bool), i64>) -> i64 {
        if let Some(&v) = memo.get(&(board.to_vec(), south)) {
            return v;
        }
        let (first, own_store, their_store) = if south {
            (0, n, 2 * n + 1)
        } else {
            (n + 1, 2 * n + 1, n)
        };
        let mut best = i64::MIN;
        for pit in first..first + n {
            if board[pit] == 0 {
                continue;
            }
            let mut b = board.to_vec();
            let mut hand = b[pit];
            b[pit] = 0;
            let mut at = pit;
            while hand > 0 {
                at = (at + 1) % (2 * n + 2);
                if at != their_store {
                    b[at] += 1;
                    hand -= 1;
                }
            }
            if at >= first && at < first + n && b[at] == 1 && b[2 * n - at] > 0 {
                b[own_store] += 1 + b[2 * n - at];
                b[at] = 0;
                b[2 * n - at] = 0;
            }
            let side = |b: &[i64], s: usize| b[s..s + n].iter().sum::<i64>();
            let over = side(&b, 0) == 0 || side(&b, n + 1) == 0;
            if over {
                b[n] += side(&b, 0);
                b[2 * n + 1] += side(&b, n + 1);
            }
            let gain = b[own_store] - b[their_store];
            b[n] = 0;
            b[2 * n + 1] = 0;
            let v = if over {
                gain
            } else if at == own_store {
                gain + value(n, &b, south, memo)
            } else {
                gain - value(n, &b, !south, memo)
            };
            best = best.max(v);
        }
        memo.insert((board.to_vec(), south), best);
        best
    }
    let mut board = vec![seeds; 2 * pits + 2];
    board[pits] = 0;
    board[2 * pits + 1] = 0;
    value(pits, &board, true, &mut HashMap::new())
}

/// games/kalah.game solved by alpha-beta with the memo table, against
/// `kalah_by_hand`; the value is South's store minus North's.
#[test]
fn kalah_is_solved_as_a_search_written_from_the_rules() {
    for (pits, seeds) in [(1, 1), (1, 3), (2, 1), (2, 2), (3, 1), (3, 2), (3, 3), (4, 2)] {
        let g = load(
            "games/kalah.game",
            &[("pits", &pits.to_string()), ("seeds", &seeds.to_string())],
        );
        let root = g.initial_state().unwrap();
        let opts = gdl::solve::SolveOptions::default();
        let value = gdl::solve::solve(&g, &root, &opts).unwrap().value;
        assert_eq!(value, kalah_by_hand(pits, seeds) as f64, "{pits} pits, {seeds} seeds");
        // With one pit and one seed every game is a draw, which the contract's
        // check of varied outcomes would refuse.
        if pits > 1 {
            conformance_of_file(&g, 30, pits as u64 * 10 + seeds as u64);
        }
    }
    // A sowing that ends in the own store moves again; one that ends in an
    // empty own pit captures the seeds across.
    let g = load("games/kalah.game", &[("pits", "3"), ("seeds", "3")]);
    let mut s = g.initial_state().unwrap();
    let m = g.parse_move(&s, "1").unwrap();
    g.apply(&mut s, &m).unwrap();
    assert_eq!(g.position(&s), "ring: [0, 4, 4, 3, 3, 3], store: [1, 0]; South to move");
    let mut s = g
        .parse_position("ring: [1, 0, 2, 3, 3, 3], store: [0, 0]; South to move")
        .unwrap();
    let m = g.parse_move(&s, "1").unwrap();
    g.apply(&mut s, &m).unwrap();
    assert_eq!(g.position(&s), "ring: [0, 0, 2, 3, 0, 3], store: [4, 0]; North to move");
}

/// Dots and Boxes by negamax over the set of lines drawn: a line that
/// closes boxes scores them and moves again. The value counts boxes still
/// to be closed.
fn dots_and_boxes_by_hand(rows: usize, cols: usize) -> i64 {
    // Each box as the bits of its four lines.
    let horizontal = (rows + 1) * cols;
    let lines = horizontal + rows * (cols + 1);
    let boxes: Vec<u32> = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .map(|(r, c)| {
            let v = horizontal + r * (cols + 1) + c;
            1 << (r * cols + c) | 1 << ((r + 1) * cols + c) | 1 << v | 1 << (v + 1)
        })
        .collect();
    fn value(drawn: u32, all: u32, boxes: &[u32], memo: &mut std::collections::HashMap<u32, i64>) -> i64 {
        if drawn == all {
            return 0;
        }
        if let Some(&v) = memo.get(&drawn) {
            return v;
        }
        let mut best = i64::MIN;
        for line in (0..32).filter(|l| all & !drawn & 1 << l != 0) {
            let after = drawn | 1 << line;
            let closed = boxes.iter().filter(|&&b| b & 1 << line != 0 && after & b == b).count() as i64;
            let v = if closed > 0 {
                closed + value(after, all, boxes, memo)
            } else {
                -value(after, all, boxes, memo)
            };
            best = best.max(v);
        }
        memo.insert(drawn, best);
        best
    }
    value(0, (1u32 << lines) - 1, &boxes, &mut std::collections::HashMap::new())
}

#[test]
fn dots_and_boxes_is_solved_as_a_search_written_from_the_rules() {
    for (rows, cols) in [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2)] {
        let g = load(
            "games/dots-and-boxes.game",
            &[("rows", &rows.to_string()), ("cols", &cols.to_string())],
        );
        let root = g.initial_state().unwrap();
        let value = gdl::solve::solve(&g, &root, &gdl::solve::SolveOptions::default())
            .unwrap()
            .value;
        assert_eq!(value, dots_and_boxes_by_hand(rows, cols) as f64, "{rows} × {cols}");
        conformance_of_file(&g, 30, (rows * 10 + cols) as u64);
    }
    // Closing a box scores it and draws again.
    let g = load("games/dots-and-boxes.game", &[("rows", "1"), ("cols", "2")]);
    let mut s = g
        .parse_position("free: {1, 3, 5, 6}, boxes: [0, 0]; B to move")
        .unwrap();
    let m = g.parse_move(&s, "5").unwrap();
    g.apply(&mut s, &m).unwrap();
    assert_eq!(g.position(&s), "free: {1, 3, 6}, boxes: [0, 1]; B to move");
}

/// games/pig.game by expectiminimax (value iteration: a bust returns to an
/// earlier position) against the native Pig of tests/native_extra, which
/// tests/expectimax.rs checks against a value iteration written from the
/// rules.
#[test]
fn pig_agrees_with_the_native_pig() {
    use gdl::solve::exact::expectimax::{ChanceOptions, solve};
    for target in [1, 2, 5, 9] {
        let g = load("games/pig.game", &[("target", &target.to_string())]);
        let native = native_extra::pig::Pig::dice(target);
        let positions = [(0, 0, 0), (0, 3, 0), (2, 0, 2), (target - 1, target - 1, 0)];
        for (me, other, total) in positions.into_iter().filter(|&(a, b, t)| a.max(b) + t < target) {
            let s = g
                .parse_position(&format!(
                    "score: [{me}, {other}], total: {total}, rolling: false; A to move"
                ))
                .unwrap();
            let ours = solve(&g, &s, &ChanceOptions::default()).unwrap().value;
            let theirs = solve(
                &native,
                &native.position(me, other, total, 0),
                &ChanceOptions::default(),
            )
            .unwrap()
            .value;
            assert!(
                (ours - theirs).abs() < 1e-9,
                "target {target}, ({me}, {other}, {total}): {ours} vs {theirs}"
            );
        }
        conformance_of_file(&g, 30, target as u64);
    }
    // A 1 loses the turn's points and the turn.
    let g = load("games/pig.game", &[]);
    let mut s = g
        .parse_position("score: [10, 20], total: 7, rolling: true; A to move")
        .unwrap();
    assert_eq!(g.turn(&s).unwrap(), Turn::Chance);
    let m = g.parse_move(&s, "die(1)").unwrap();
    g.apply(&mut s, &m).unwrap();
    assert_eq!(g.position(&s), "score: [10, 20], total: 0, rolling: false; B to move");
}

/// games/goofspiel.game (public bids, random prizes, the value the
/// difference in points) against the native Goofspiel, solved by
/// expectiminimax with a matrix game at each round, from positions that
/// favour one player.
#[test]
fn goofspiel_agrees_with_the_native_goofspiel() {
    use gdl::solve::exact::expectimax::{ChanceOptions, solve};
    use native_extra::goofspiel::{Goofspiel, Prizes};
    let set = |cs: &[u8]| {
        format!(
            "{{{}}}",
            cs.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", ")
        )
    };
    // Cards, the two hands, the prizes left, the points so far.
    type Case<'a> = (u8, [&'a [u8]; 2], &'a [u8], [u8; 2]);
    let cases: [Case; 5] = [
        (1, [&[1], &[1]], &[1], [0, 0]),
        (3, [&[1, 2, 3], &[1, 2, 3]], &[1, 2, 3], [0, 0]),
        (3, [&[1, 3], &[2, 3]], &[2, 3], [0, 1]),
        (4, [&[2, 4], &[1, 3]], &[1, 4], [2, 0]),
        (4, [&[1, 2, 4], &[1, 3, 4]], &[2, 3, 4], [0, 0]),
    ];
    for (cards, hands, deck, points) in cases {
        let g = load("games/goofspiel.game", &[("cards", &cards.to_string())]);
        let s = g
            .parse_position(&format!(
                "deck: {}, hands: [{}, {}], points: [{}, {}], prize: 0, bids: [0, 0]; A to move",
                set(deck),
                set(hands[0]),
                set(hands[1]),
                points[0],
                points[1]
            ))
            .unwrap();
        let ours = solve(&g, &s, &ChanceOptions::default()).unwrap().value;
        let mut native = Goofspiel::new(cards, Prizes::Random, false);
        native.point_difference = true;
        let theirs = solve(
            &native,
            &native.position(hands, deck, points),
            &ChanceOptions::default(),
        )
        .unwrap()
        .value;
        assert!(
            (ours - theirs).abs() < 1e-9,
            "{cards} cards, {hands:?}: {ours} vs {theirs}"
        );
    }
    conformance_of_file(&load("games/goofspiel.game", &[("cards", "3")]), 30, 7);
}

/// games/kuhn-poker.game by CFR+: the value −1/18 for First, and the same
/// twelve information sets as the native Kuhn poker.
#[test]
fn kuhn_poker_is_worth_minus_one_eighteenth() {
    use gdl::solve::learn::best_response::exploitability;
    use gdl::solve::learn::cfr::CfrPlus;
    use gdl::solve::learn::infotree::{DEFAULT_MAX_NODES, InfoTree};
    let g = load("games/kuhn-poker.game", &[]);
    let tree = InfoTree::build(&g, &g.initial_state().unwrap(), DEFAULT_MAX_NODES).unwrap();
    let native = native_extra::kuhn::Kuhn;
    let native_tree = InfoTree::build(&native, &native.initial_state().unwrap(), DEFAULT_MAX_NODES).unwrap();
    assert_eq!(tree.infosets.len(), native_tree.infosets.len());
    assert_eq!(tree.decisions, native_tree.decisions);
    let mut cfr = CfrPlus::new(&tree);
    cfr.run(2000);
    let e = exploitability(&tree, &cfr.average());
    assert!(e.exploitability < 1e-3, "{e:?}");
    assert!((e.value + 1.0 / 18.0).abs() < 1e-3, "{e:?}");
}

/// `gdl check` of each new game file, as its reader sees it.
#[test]
fn new_game_files_check() {
    for name in [
        "kalah",
        "dots-and-boxes",
        "pig",
        "goofspiel",
        "kuhn-poker",
        "tictactoe-symmetric",
    ] {
        let r = common::gdl(&["check", &format!("games/{name}.game")]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        snap!(format!("check_{name}"), r.stdout);
    }
}

/// The same game with and without its `canonical` block: the same value,
/// best moves and length of the principal line, from fewer memo table entries.
fn solved_with_and_without(plain: &Interpreted, canonical: &Interpreted, root: &str) -> (u64, u64) {
    use gdl::solve::{Algorithm, SolveOptions, solve};
    let mut states = (0, 0);
    for algorithm in [Algorithm::AlphaBeta, Algorithm::Minimax] {
        let opts = SolveOptions {
            algorithm,
            ..SolveOptions::default()
        };
        let a = solve(plain, &plain.parse_position(root).unwrap(), &opts).unwrap();
        let b = solve(canonical, &canonical.parse_position(root).unwrap(), &opts).unwrap();
        assert_eq!(a.value, b.value, "{root}, {algorithm:?}");
        assert_eq!(a.length, b.length, "{root}, {algorithm:?}");
        // The root's best moves are those of the position asked about, not
        // of its representative.
        assert_eq!(a.best_moves, b.best_moves, "{root}, {algorithm:?}");
        assert!(b.states <= a.states, "{root}: {} > {}", b.states, a.states);
        states = (a.states, b.states);
    }
    states
}

/// `canonical { ... }` maps a position to the representative of its class:
/// Nim's piles sorted, tic-tac-toe's least image under the board's eight
/// symmetries. The memo table keeps one entry per class; values and lines
/// stay those of the game without it.
#[test]
fn canonical_positions_share_one_memo_entry() {
    let sorted = game_of(&std::fs::read_to_string("games/nim.game").unwrap());
    let plain = game_of(&common::nim_text_without_canonical("games/nim.game"));
    for piles in [
        "[7, 5, 3, 1]",
        "[1, 2, 3]",
        "[4, 4, 1]",
        "[0, 6, 2, 5]",
        "[5, 1, 4]",
        "[7, 2, 2, 5]",
    ] {
        let root = format!("{piles}; MAX to move");
        let (a, b) = solved_with_and_without(&plain, &sorted, &root);
        if piles == "[7, 5, 3, 1]" {
            // (8·6·4·2 positions) against the multisets of four piles
            // at most 7, 5, 3, 1, per player to move.
            assert!(b * 2 < a, "{a} states, {b} sorted");
        }
    }
    // The representative is the state as the block leaves it.
    let s = sorted.parse_position("[3, 0, 2]; MIN to move").unwrap();
    let rep = sorted.canonical(&s).unwrap().unwrap();
    assert_eq!(sorted.position(&rep), "[0, 2, 3]; MIN to move");
    assert_eq!(plain.canonical(&s).unwrap(), None);

    let ttt = load("games/tictactoe.game", &[]);
    let sym = load("games/tictactoe-symmetric.game", &[]);
    for root in [
        "free: {1, 2, 3, 4, 5, 6, 7, 8, 9}, marks: [{}, {}]; X to move",
        "free: {2, 3, 4, 6, 7, 8, 9}, marks: [{1}, {5}]; X to move",
        "free: {1, 2, 4, 6, 7, 8}, marks: [{3, 9}, {5}]; O to move",
    ] {
        solved_with_and_without(&ttt, &sym, root);
    }
    // The eight images of a position share its representative.
    let images = [
        "free: {2, 3, 4, 5, 7, 8, 9}, marks: [{1}, {6}]; O to move",
        "free: {1, 2, 4, 5, 6, 7, 9}, marks: [{3}, {8}]; O to move",
        "free: {1, 2, 3, 5, 6, 7, 8}, marks: [{9}, {4}]; O to move",
        "free: {1, 3, 4, 5, 6, 8, 9}, marks: [{7}, {2}]; O to move",
    ];
    let reps: Vec<String> = images
        .iter()
        .map(|p| sym.position(&sym.canonical(&sym.parse_position(p).unwrap()).unwrap().unwrap()))
        .collect();
    assert!(reps.iter().all(|r| *r == reps[0]), "{reps:?}");
}

/// The new constructs misused at run time: each error names its rule and
/// the position (snapshots `runtime_new_*`).
#[test]
fn new_constructs_fail_at_run_time_with_a_diagnostic() {
    let cases = [
        (
            "weights_all_zero",
            "game W\nplayers A, B\nstate n: int = 0\n\
             chance move coin(x in 1..2) requires n == 0 weight n {\n n += x\n}\n\
             move go() { n = 0 }\nend when n > 0 { draw }\n",
            "gdl::runtime::weight",
        ),
        (
            "weight_negative",
            "game W\nplayers A, B\nstate n: int = 0\n\
             chance move coin(x in 1..2) requires n == 0 weight x - 2 {\n n += x\n}\n\
             move go() { n = 0 }\nend when n > 0 { draw }\n",
            "gdl::runtime::weight",
        ),
        (
            "while_forever",
            "game Loop\nplayers A, B\nstate n: int = 0\n\
             move go() {\n while n >= 0 { n = (n + 1) % 5 }\n}\nend when n > 9 { draw }\n",
            "gdl::runtime::steps",
        ),
        (
            "pop_empty",
            "game Pop\nplayers A, B\nstate xs: list<int, 3> = []\n\
             move go() { xs.pop() }\nend when len(xs) > 2 { draw }\n",
            "gdl::runtime::empty",
        ),
    ];
    for (name, text, code) in cases {
        let g = game_of(text);
        let mut s = g.initial_state().unwrap();
        let err = match g.turn(&s).unwrap() {
            Turn::Chance => {
                let mut outcomes = Vec::new();
                g.chance_outcomes(&s, &mut outcomes).unwrap_err()
            }
            _ => {
                let m = g.parse_move(&s, "go").unwrap();
                g.apply(&mut s, &m).unwrap_err()
            }
        };
        assert_eq!(err.code_str(), code, "{name}: {err}");
        assert!(err.has_span(), "{name}");
        snap!(format!("runtime_new_{name}"), diagnostic::render(&err, false));
    }
    // A canonical block that fails stops the solver with its error.
    let g = game_of(
        "game C\nplayers A, B\nstate xs: list<int> = [2, 1]\n\
         move take(i in 0..1) requires xs[i] > 0 { xs[i] -= 1 }\n\
         canonical { xs[len(xs)] = 0 }\nend when sum(xs) == 0 { loser previous }\n",
    );
    let root = g.initial_state().unwrap();
    let err = g.canonical(&root).unwrap_err();
    assert_eq!(err.code_str(), "gdl::runtime::index");
    assert!(gdl::solve::solve(&g, &root, &gdl::solve::SolveOptions::default()).is_err());
    snap!("runtime_new_canonical_fails", diagnostic::render(&err, false));
}

/// `--from` reads the values as the language writes them: a set as a range
/// (`{0..24}`, `{1, 3..<5}`), a list of copies (`[0; 4]`); each is the
/// position written out element by element (issue 23).
#[test]
fn positions_read_ranges_and_copies_as_the_language_writes_them() {
    let g = game_of(
        "game Board\nplayers A, B\nstate free: set<0..30> = {0..24}\nstate marks: list<int> = [0; 4]\n\
         move take(c in free) { free.remove(c) }\nend when len(free) == 0 { draw }\n",
    );
    let same = |short: &str, long: &str| {
        let a = g.parse_position(short).unwrap_or_else(|e| panic!("{short}: {e}"));
        let b = g.parse_position(long).unwrap_or_else(|e| panic!("{long}: {e}"));
        assert_eq!(g.position(&a), g.position(&b), "{short}");
    };
    let all: Vec<String> = (0..=24).map(|n| n.to_string()).collect();
    same(
        "free: {0..24}, marks: [0; 4]; A to move",
        &format!("free: {{{}}}, marks: [0, 0, 0, 0]; A to move", all.join(", ")),
    );
    same(
        "free: {1, 3..<5, 7 .. 8}, marks: [2; 3]; B to move",
        "free: {1, 3, 4, 7, 8}, marks: [2, 2, 2]; B to move",
    );
    assert_eq!(
        g.position(&g.parse_position("{0..24}, [0; 4]; A to move").unwrap()),
        g.position(&g.initial_state().unwrap())
    );
    for bad in [
        "free: {0..99}, marks: [0; 4]; A to move",
        "free: {0..x}, marks: [0; 4]; A to move",
        "free: {}, marks: [0; -1]; A to move",
        "free: {}, marks: [0; 9999999]; A to move",
        "free: {0..9223372036854775807}, marks: []; A to move",
    ] {
        assert!(g.parse_position(bad).is_err(), "{bad} must be refused");
    }
}

/// `; chance to move`, as `solve` reports a chance node, is read when only
/// one player's turn has chance move there; where chance moves in anyone's
/// turn (Pig), the message names both ways to write it (issue 23).
#[test]
fn chance_to_move_is_read_where_it_says_whose_turn_it_is() {
    let g = game_of(
        "game Deal\nplayers A, B\nstate dealt: int = 0\nstate total: int = 0\n\
         chance move deal(c in 1..3) requires dealt == 0 and current == A { dealt = c }\n\
         move add(k in 1..2) requires dealt > 0 { total += k }\nend when total >= 3 { winner previous }\n",
    );
    let chance = g.parse_position("dealt: 0, total: 1; chance to move").unwrap();
    assert_eq!(g.turn(&chance).unwrap(), Turn::Chance);
    assert_eq!(
        g.position(&chance),
        g.position(&g.parse_position("dealt: 0, total: 1; A to move").unwrap())
    );
    let err = g.parse_position("dealt: 2, total: 1; chance to move").unwrap_err();
    assert!(
        err.to_string().contains("chance does not move in this position"),
        "{err}"
    );

    let pig = load("games/pig.game", &[]);
    let err = pig
        .parse_position("score: [0, 0], total: 0, rolling: true; chance to move")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(
            "`score: [0, 0], total: 0, rolling: true; A to move` or `score: [0, 0], total: 0, rolling: true; B to move`"
        ),
        "{err}"
    );
}

/// `per player` state that starts with a value of its own for each player
/// (tests/inputs/ok/per-player-start.game), worked by hand.
#[test]
fn per_player_state_starts_with_one_value_per_player() {
    let g = load("tests/inputs/ok/per-player-start.game", &[]);
    let mut s = g.initial_state().unwrap();
    assert_eq!(
        g.position(&s),
        "hand: [{1, 4, 6}, {2, 3, 5}], points: [0, 2], played: [0, 0]; A to move"
    );
    let texts = |s: &gdl::runtime::State| {
        let mut moves = Vec::new();
        g.legal_moves(s, &mut moves).unwrap();
        moves.iter().map(|m| g.move_text(m)).collect::<Vec<_>>()
    };
    assert_eq!(texts(&s), ["1", "4", "6"]);
    // A plays 1, which takes 2 out of B's hand.
    let m = g.parse_move(&s, "1").unwrap();
    g.apply(&mut s, &m).unwrap();
    assert_eq!(texts(&s), ["3", "5"]);
    assert_eq!(
        g.position(&s),
        "hand: [{4, 6}, {3, 5}], points: [1, 2], played: [1, 0]; B to move"
    );
    // Solved: A plays 4 (which takes B's 5), and wins 11 to 7.
    let solved = gdl::solve::solve(&g, &g.initial_state().unwrap(), &Default::default()).unwrap();
    assert_eq!(solved.value, 4.0);
    assert_eq!(
        solved.best_moves.iter().map(|m| g.move_text(m)).collect::<Vec<_>>(),
        ["4"]
    );
}
