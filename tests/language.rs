//! The language end to end: parameters change the game and it still keeps
//! the contract of `Game` (tests/common/conformance.rs; every game file with
//! its defaults is checked in tests/conformance.rs); the seeds' examples;
//! every broken file gives the diagnostics in snapshots/.

mod common;

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
    let mut scratch = gdl::solve::simulate::Scratch::default();
    let mut sevens = 0;
    for _ in 0..3600 {
        let m = gdl::solve::simulate::sample_chance(&g, &s, &mut rng, &mut scratch).unwrap();
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
