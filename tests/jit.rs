//! The compiled rules (`Engine::Jit`) against the VM (`Engine::Vm`), the
//! reference: every game file, and hundreds of generated ones, played along
//! the same seeded random games on both, comparing everything the `Game`
//! trait says at every position: whose turn, the legal moves in order (also
//! per player), the next states, chance outcomes, returns, evaluation, the
//! canonical form, observations, scores, and each error's code, message,
//! span and help.

use crate::common;
#[allow(dead_code)]
use crate::fuzzgen;

use gdl::game::{Game, GameError, Turn};
use gdl::runtime::{Engine, Interpreted, State};
use gdl::value::Value;
use miette::Diagnostic;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// An error as everything a user sees of it.
fn shown(e: GameError) -> String {
    let spans: Vec<(usize, usize)> = e
        .labels()
        .map(|l| l.map(|s| (s.offset(), s.len())).collect())
        .unwrap_or_default();
    let help = e.help().map(|h| h.to_string());
    format!("{} [{}] at {spans:?} help {help:?}", e, e.code_str())
}

/// What the game says about one position.
fn describe(game: &Interpreted, s: &State) -> String {
    let mut out = String::new();
    let mut line = |what: &str, v: String| out.push_str(&format!("{what}: {v}\n"));
    line("position", game.position(s));
    line("turn", format!("{:?}", game.turn(s).map_err(shown)));
    let mut moves = Vec::new();
    line(
        "moves",
        format!("{:?} {moves:?}", game.legal_moves(s, &mut moves).map_err(shown)),
    );
    for m in &moves {
        let mut next = s.clone();
        let r = game.apply(&mut next, m).map_err(shown);
        line("after", format!("{} {r:?} {}", game.move_text(m), game.position(&next)));
    }
    for p in 0..game.num_players() {
        let mut mine = Vec::new();
        let r = game.legal_moves_of(s, p, &mut mine).map_err(shown);
        line("moves of", format!("{p} {r:?} {mine:?}"));
        line("evaluate", format!("{p} {:?}", game.evaluate(s, p).map_err(shown)));
        line("returns", format!("{p} {:?}", game.returns(s, p).map_err(shown)));
        line("observation", format!("{p} {}", game.observation(s, p)));
    }
    let mut outcomes = Vec::new();
    let r = game.chance_outcomes(s, &mut outcomes).map_err(shown);
    line("chance", format!("{r:?} {outcomes:?}"));
    let canonical = game.canonical(s).map(|c| c.map(|c| game.position(&c)));
    line("canonical", format!("{:?}", canonical.map_err(shown)));
    line("scores", format!("{:?}", game.scores(s).map_err(shown)));
    line("running", format!("{:?}", game.running_scores(s).map_err(shown)));
    let invariants = game.broken_invariant(s).map_err(|(i, e)| (i, shown(e)));
    line("invariants", format!("{invariants:?}"));
    out
}

/// Plays `games` seeded random games of at most `plies` moves on both, and
/// fails at the first position where they differ.
fn agree(name: &str, jit: &Interpreted, vm: &Interpreted, games: usize, plies: usize, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let (a, b) = (jit.initial_state(), vm.initial_state());
    let (Ok(root_a), Ok(root_b)) = (a, b) else { return };
    for _ in 0..games {
        let (mut x, mut y) = (root_a.clone(), root_b.clone());
        for ply in 0..plies {
            let (dx, dy) = (describe(jit, &x), describe(vm, &y));
            assert_eq!(dx, dy, "{name}: ply {ply}");
            assert_eq!(x, y, "{name}: ply {ply}, the states");
            let step = match vm.turn(&y) {
                Ok(Turn::Player(_)) => {
                    let mut moves = Vec::new();
                    vm.legal_moves(&y, &mut moves)
                        .ok()
                        .filter(|_| !moves.is_empty())
                        .map(|_| {
                            let m = moves[rng.random_range(0..moves.len())];
                            (
                                jit.apply(&mut x, &m).map_err(shown),
                                vm.apply(&mut y, &m).map_err(shown),
                            )
                        })
                }
                Ok(Turn::Chance) => {
                    let mut outcomes = Vec::new();
                    vm.chance_outcomes(&y, &mut outcomes)
                        .ok()
                        .filter(|_| !outcomes.is_empty())
                        .map(|_| {
                            let m = outcomes[rng.random_range(0..outcomes.len())].0;
                            (
                                jit.apply(&mut x, &m).map_err(shown),
                                vm.apply(&mut y, &m).map_err(shown),
                            )
                        })
                }
                Ok(Turn::Simultaneous) => {
                    let mut joint = Vec::new();
                    for p in 0..vm.num_players() {
                        let mut moves = Vec::new();
                        if vm.legal_moves_of(&y, p, &mut moves).is_err() || moves.is_empty() {
                            break;
                        }
                        joint.push(moves[rng.random_range(0..moves.len())]);
                    }
                    (joint.len() == vm.num_players()).then(|| {
                        (
                            jit.apply_joint(&mut x, &joint).map_err(shown),
                            vm.apply_joint(&mut y, &joint).map_err(shown),
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

/// Random playouts from the start on both (compiled ones play many moves
/// a call, `play_random_moves`): the same end, or the same error, and the
/// generator left at the same draw.
fn playouts_agree(name: &str, jit: &Interpreted, vm: &Interpreted, seed: u64) {
    let (Ok(start), Ok(_)) = (jit.initial_state(), vm.initial_state()) else {
        return;
    };
    let ends: Vec<Vec<String>> = [jit, vm]
        .iter()
        .map(|game| {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut scratch = gdl::solve::agents::simulate::Scratch::default();
            let mut ends = Vec::new();
            for _ in 0..3 {
                let mut s = start.clone();
                let r = gdl::solve::agents::simulate::random_playout(*game, &mut s, &mut rng, &mut scratch);
                ends.push(format!("{:?} {}", r.map_err(shown), game.position(&s)));
            }
            ends.push(format!("next draw {}", rng.random::<u64>()));
            ends
        })
        .collect();
    assert_eq!(ends[0], ends[1], "{name}: random playouts");
}

fn both(prog: gdl::ir::Program) -> (Interpreted, Interpreted) {
    let jit = Interpreted::with_engine(prog.clone(), Engine::Jit);
    let vm = Interpreted::with_engine(prog, Engine::Vm);
    assert_eq!(vm.engine(), Engine::Vm);
    (jit, vm)
}

/// Both executors of the game written `text`.
fn both_of(name: &str, text: &str) -> (Interpreted, Interpreted) {
    both(gdl::compile::load(name, text, &[]).unwrap_or_else(|e| panic!("{name}: {e:?}")))
}

/// The start of `game` and its legal moves there.
fn start(game: &Interpreted) -> (State, Vec<gdl::runtime::Move>) {
    let s = game.initial_state().unwrap();
    let mut moves = Vec::new();
    game.legal_moves(&s, &mut moves).unwrap();
    (s, moves)
}

#[test]
fn compiled_rules_agree_with_the_vm_on_every_game_file() {
    if Engine::default_for_host() != Engine::Jit {
        return;
    }
    let mut files = common::game_files();
    let ok = common::crate_dir().join("tests/inputs/ok");
    let mut extra: Vec<String> = std::fs::read_dir(&ok)
        .unwrap()
        .map(|e| format!("tests/inputs/ok/{}", e.unwrap().file_name().to_string_lossy()))
        .filter(|n| n.ends_with(".game"))
        .collect();
    extra.sort();
    files.extend(extra);
    for file in &files {
        let prog = common::load_game(file, &[]).program().clone();
        let (jit, vm) = both(prog);
        assert_eq!(jit.engine(), Engine::Jit, "{file}");
        agree(file, &jit, &vm, 20, 200, 7);
    }
}

#[test]
fn compiled_rules_agree_with_the_vm_on_generated_games() {
    if Engine::default_for_host() != Engine::Jit {
        return;
    }
    let corpus = fuzzgen::corpus();
    let mut compared = 0;
    let mut failed = 0;
    for i in 0..1500 {
        let case = fuzzgen::make_case(43, i, &corpus);
        let Ok(prog) = gdl::compile::load("fuzz.game", &case.text, &case.bindings) else {
            continue;
        };
        let (jit, vm) = both(prog);
        let name = format!("case {i}:\n{}\n", case.text);
        agree(&name, &jit, &vm, 3, 40, case.seed);
        playouts_agree(&name, &jit, &vm, case.seed);
        compared += 1;
        if let Ok(s) = vm.initial_state() {
            failed += usize::from(vm.turn(&s).is_err());
        }
    }
    assert!(compared >= 300, "only {compared} generated games compiled");
    // The errors are compared too: some games must fail at once.
    assert!(failed >= 5, "only {failed} generated games failed at the start");
}

/// The bundled games run whole on compiled code: random playouts (who
/// moves, the moves, each move played, the returns) hand nothing back to
/// the VM, and end where the VM's do.
#[test]
fn bundled_games_play_out_without_the_vm() {
    if Engine::default_for_host() != Engine::Jit {
        return;
    }
    for file in common::game_files() {
        let prog = common::load_game(&file, &[]).program().clone();
        let (jit, vm) = both(prog);
        let mut ends = (Vec::new(), Vec::new());
        for (game, ends) in [(&jit, &mut ends.0), (&vm, &mut ends.1)] {
            let mut rng = StdRng::seed_from_u64(11);
            let mut scratch = gdl::solve::agents::simulate::Scratch::default();
            for _ in 0..30 {
                let mut s = game.initial_state().unwrap();
                gdl::solve::agents::simulate::random_playout(game, &mut s, &mut rng, &mut scratch)
                    .unwrap_or_else(|e| panic!("{file}: {e}"));
                ends.push(game.position(&s));
            }
            // The compiled playout loop (`play_random_moves`) draws what
            // the VM's steps draw, no more and no less.
            ends.push(format!("next draw {}", rng.random::<u64>()));
        }
        assert_eq!(ends.0, ends.1, "{file}");
        let stats = jit.jit_stats().expect("compiled");
        assert!(stats.rules > 0, "{file}: {stats:?}");
        // One driver per `Game` call where one player moves at a time (but
        // for those whose rules the VM runs: Hex's local set makes its end
        // test one); their failures count as calls handed back, too.
        let plain = !(jit.program().has_chance || jit.program().has_simultaneous);
        let benchmarked = ["connect4", "nim", "nimcala", "select19", "tictactoe"];
        let expected = match plain {
            false => 0..=0,
            true if benchmarked.iter().any(|g| file.ends_with(&format!("/{g}.game"))) => 3..=3,
            true => 1..=3,
        };
        assert!(expected.contains(&stats.drivers), "{file}: {stats:?}");
        assert_eq!(stats.bailouts, 0, "{file}: compiled code handed calls back to the VM");
    }
}

/// A move whose value outgrows the state's packed cells, alone and at a
/// simultaneous round: the one-context paths on compiled rules hand it
/// back untouched, and the general path plays it on wider cells, as the
/// VM does.
#[test]
fn moves_that_widen_the_cells_give_the_vms_states() {
    if Engine::default_for_host() != Engine::Jit {
        return;
    }
    let alone = r#"
game "Widen"
players A, B
state n: int = 100
state moves: int = 0
move add(k in 1..2) {
    n += 100 * k
    moves += 1
}
end when moves == 3 { draw }
"#;
    let together = r#"
game "Widen together"
players A, B
state n: int = 100
state rounds: int = 0
simultaneous move bid(k in 1..3) { n += 50 * k } then { rounds += 1 }
end when rounds == 2 { draw }
"#;
    for (name, text) in [("alone", alone), ("together", together)] {
        let (jit, vm) = both_of(name, text);
        agree(name, &jit, &vm, 20, 10, 5);
        // The first move from n = 100 leaves n past a byte's 127 on both.
        let mut s = jit.initial_state().unwrap();
        match jit.turn(&s).unwrap() {
            Turn::Player(_) => {
                let mut moves = Vec::new();
                jit.legal_moves(&s, &mut moves).unwrap();
                jit.apply(&mut s, moves.last().unwrap()).unwrap();
                assert_eq!(jit.value_of(&s, "n"), Some(Value::Int(300)), "{name}");
            }
            Turn::Simultaneous => {
                let mut joint = Vec::new();
                for p in 0..2 {
                    let mut moves = Vec::new();
                    jit.legal_moves_of(&s, p, &mut moves).unwrap();
                    joint.push(*moves.last().unwrap());
                }
                jit.apply_joint(&mut s, &joint).unwrap();
                assert_eq!(jit.value_of(&s, "n"), Some(Value::Int(400)), "{name}");
                assert_eq!(jit.value_of(&s, "rounds"), Some(Value::Int(1)), "{name}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}

/// Limits reached inside functions compiled into their caller: the step
/// taken for such a call is checked later than the VM checks it, and the
/// call depth once on entering a rule, with room for the calls compiled
/// into it. The answers and errors stay the VM's: a rule out of steps
/// fails (the VM then says why), and recursion a little short of the
/// VM's limit is handed to the VM, which completes it.
#[test]
fn limits_reached_inside_functions_compiled_in_place_give_the_vms_answers() {
    if Engine::default_for_host() != Engine::Jit {
        return;
    }
    // Each number costs its loop step and 21 calls (functions with
    // statements stay calls in the flat code, and are compiled in place): a
    // million of them take 22 million steps, past the 16.8 million a move
    // may take.
    let steps = |n: u32| {
        format!(
            r#"
game "Steps"
players A, B
state x: int = 1
fn g(k: int) -> int {{ return k % 7 + 1 }}
fn h(k: int) -> int {{ return g(g(g(g(k)))) }}
fn f(k: int) -> int {{ return h(h(h(h(k)))) }}
move m() {{ x += sum(f(i) for i in 0..<{n}) % 5 }}
end when x >= 3 {{ winner previous }}
"#
        )
    };
    // `deep(d)` calls itself `d` times deep, on top of the move's own call.
    let depth = |d: u32| {
        format!(
            r#"
game "Depth"
players A, B
state x: int = 1
fn one(k: int) -> int = k + 1
fn deep(n: int) -> int = if n <= 0 then 0 else one(deep(n - 1))
move m() {{ x += deep({d}) }}
end when x >= 1000 {{ winner previous }}
"#
        )
    };
    let cases = [
        ("steps, within the budget", steps(100_000), Ok(())),
        ("steps, out of them", steps(1_000_000), Err("steps")),
        ("depth, well within", depth(100), Ok(())),
        ("depth, just within", depth(253), Ok(())),
        ("depth, too deep", depth(300), Err("called itself")),
    ];
    for (name, text, want) in cases {
        let (jit, vm) = both_of(name, &text);
        agree(name, &jit, &vm, 1, 3, 1);
        let (mut s, moves) = start(&jit);
        let got = jit.apply(&mut s, &moves[0]).map_err(shown);
        match (want, got) {
            (Ok(()), Ok(())) => {}
            (Err(what), Err(e)) => assert!(e.contains(what), "{name}: {e}"),
            (want, got) => panic!("{name}: wanted {want:?}, got {got:?}"),
        }
    }
}

/// What a comparison says of a value holds on the path it was made on, and
/// nowhere else: an index tested on one branch is checked on the other.
#[test]
fn bounds_learned_on_a_branch_stay_on_it() {
    if Engine::default_for_host() != Engine::Jit {
        return;
    }
    let text = r#"
game "Branches"
players A, B
state board: list<int, 3> = [5, 6, 7]
state k: int = -2
state total: int = 0
fn inside(i: int) -> int = if i in 0..<3 then board[i] else 0
fn outside(i: int) -> int = if i >= 0 and i < 3 then 1 else board[i]
move step(d in 1..2) {
    total += inside(k) + inside(k + 1)
    k += d
}
move peek() {
    total += outside(k)
    k += 1
}
end when k >= 4 { draw }
"#;
    let (jit, vm) = both_of("branches", text);
    agree("branches", &jit, &vm, 40, 10, 3);
    // `peek` from k = -2 indexes the board at -2 on the branch where the
    // test failed: an error, on both.
    let (mut s, moves) = start(&jit);
    let peek = *moves.last().unwrap();
    let e = jit.apply(&mut s, &peek).map_err(shown).unwrap_err();
    assert!(e.contains("gdl::runtime::index"), "{e}");
}

/// Past `board[k - 1]`'s check the translator knows `k >= 1` (the check
/// holds of `k - 1`, so of `k` shifted back): `k + 2` and `board[k - 2]`
/// then lean on it. Moves whose `k - 1` is out of range fail as on the VM,
/// and those that pass read the same cells.
#[test]
fn bounds_learned_through_an_offset_give_the_vms_answers() {
    let text = r#"
game "Offsets"
players A, B
state board: list<int, 4> = [1, 2, 3, 4]
state t: int = 0
move at(k in -2..6) {
    board[k - 1] += 1
    t += 1
    if k >= 2 { board[k - 2] += k + 2 }
}
end when t == 4 { draw }
"#;
    let (jit, vm) = both_of("offsets", text);
    agree("offsets", &jit, &vm, 60, 6, 11);
    let (mut s, moves) = start(&jit);
    // k = -2, -1 and 0 index the board below 0, k = 5 and 6 past its end.
    let failing: Vec<String> = moves
        .iter()
        .filter(|m| jit.apply(&mut s.clone(), m).is_err())
        .map(|m| jit.move_text(m))
        .collect();
    assert_eq!(failing.len(), 5, "{failing:?}");
    let ok = moves.iter().find(|m| jit.move_text(m).contains('3')).unwrap();
    jit.apply(&mut s, ok).unwrap();
    // k = 3: board[2] += 1, board[1] += 5.
    assert_eq!(&s.cells()[s.cells().len() - 5..s.cells().len() - 1], &[1, 7, 4, 4]);
}

/// `sum` over a list checks its cells once, before its loop, and adds
/// without overflow checks where cells are at most four bytes: sums of
/// small values, of values that need eight-byte cells, and one that
/// overflows, each as the VM says (value or error, span included).
#[test]
fn sums_of_lists_of_every_width_give_the_vms_answers() {
    let text = r#"
game "Sums"
players A, B
state xs: list<int, 3> = [1, 2, 3]
state t: int = 0
move grow(k in 0..2) {
    xs[k] = xs[k] * 100 + 7
    t += 1
}
move big(k in 0..2) {
    xs[k] = 5000000000000000000
    t += 1
}
move drop() requires len(xs) > 1 {
    xs.pop()
    t += 1
}
end when sum(xs) > 9000000000000000000 { draw }
end when t == 8 { draw }
"#;
    let (jit, vm) = both_of("sums", text);
    agree("sums", &jit, &vm, 300, 9, 5);
    // Two piles of 5e18 add past i64::MAX: `turn` fails on both alike.
    let (mut s, moves) = start(&jit);
    let mut on_vm = s.clone();
    for name in ["grow(2)", "big(0)", "big(1)"] {
        let m = moves.iter().find(|m| jit.move_text(m) == name).unwrap();
        assert_eq!(
            jit.apply(&mut s, m).map_err(shown),
            vm.apply(&mut on_vm, m).map_err(shown)
        );
    }
    let turn = jit.turn(&s).map_err(shown);
    assert_eq!(turn, vm.turn(&on_vm).map_err(shown));
    assert!(turn.as_ref().is_err_and(|e| e.contains("overflow")), "{turn:?}");
}

/// `apply` on compiled rules passes the turn and runs the end clauses of
/// the state it made in one call: an end clause that fails leaves the move
/// played and fails `turn`, with the VM's error.
#[test]
fn division_by_powers_of_two_rounds_down_as_on_the_vm() {
    // Compiled as a shift and a mask: Euclid's quotient and remainder,
    // negative numbers included (-27 / 4 == -7, -27 % 4 == 1).
    let text = r#"
game "Powers of two"
players A, B
state n: int = 0
state t: int = 0
state r: list<int> = [0, 0, 0, 0, 0, 0]
move step(d in -9..9) {
    n += d * 3
    t += 1
    r[0] = n % 4
    r[1] = n / 4
    r[2] = n % 1
    r[3] = n / 1
    r[4] = n % 2
    r[5] = n / 8
}
end when t == 5 { winner A payoff n % 8 }
"#;
    let (jit, vm) = both_of("powers", text);
    agree("powers", &jit, &vm, 60, 6, 9);
    let (mut s, legal) = start(&jit);
    // The first move in order: d = -9.
    assert!(jit.move_text(&legal[0]).contains("-9"), "{}", jit.move_text(&legal[0]));
    jit.apply(&mut s, &legal[0]).unwrap();
    // n = -27: -27 % 4 == 1, -27 / 4 == -7, -27 % 2 == 1, -27 / 8 == -4.
    assert_eq!(&s.cells()[s.cells().len() - 6..], &[1, -7, 0, -27, 1, -4]);
}

#[test]
fn the_end_clauses_after_a_move_fail_as_on_the_vm() {
    if Engine::default_for_host() != Engine::Jit {
        return;
    }
    let text = r#"
game "Late failures"
players A, B
state n: int = 4
move take(k in 1..2) requires k <= n { n -= k }
move stay() requires n == 3 {
    n -= 1
    again
}
end when 12 / n == 12 { draw }
end when no moves { draw }
"#;
    let (jit, vm) = both_of("late", text);
    agree("late", &jit, &vm, 40, 10, 5);
    let play = |game: &Interpreted, moves: &[&str]| {
        let mut s = game.initial_state().unwrap();
        for m in moves {
            let mut legal = Vec::new();
            game.legal_moves(&s, &mut legal).unwrap();
            let mv = *legal.iter().find(|x| game.move_text(x) == *m).unwrap();
            game.apply(&mut s, &mv).map_err(shown)?;
        }
        game.turn(&s).map_err(shown)
    };
    for line in [
        &["take(2)", "take(2)"][..],
        &["take(1)", "stay"],
        &["take(1)", "take(2)"],
    ] {
        assert_eq!(play(&jit, line), play(&vm, line), "{line:?}");
    }
    // 12 / 0 in the first end clause, after the move was played.
    let e = play(&jit, &["take(2)", "take(2)"]).unwrap_err();
    assert!(e.contains("division"), "{e}");
    // `again`: A moves twice.
    assert_eq!(play(&jit, &["take(1)", "stay"]), Ok(Turn::Player(1)));
    assert_eq!(play(&jit, &["take(1)", "take(2)"]), Ok(Turn::Terminal));
}

/// MCTS's playouts run many moves at once on compiled rules
/// (`play_random_moves`), stopping at the cutoff where `evaluate` scores
/// the position: the same search as the VM's steps, visit for visit and
/// return for return, with and without a cutoff.
#[test]
fn mcts_playouts_at_once_search_as_the_vms_steps() {
    use gdl::solve::agents::mcts::{MctsConfig, search};
    if Engine::default_for_host() != Engine::Jit {
        return;
    }
    let prog = common::load_game("games/connect4.game", &[]).program().clone();
    let (jit, vm) = both(prog);
    for cutoff in [None, Some(3), Some(8)] {
        let cfg = MctsConfig {
            simulations: 400,
            cutoff,
            ..MctsConfig::default()
        };
        let runs: Vec<Vec<(String, u64, f64)>> = [&jit, &vm]
            .iter()
            .map(|game| {
                let root = game.initial_state().unwrap();
                let r = search(*game, &root, &[], 0, &cfg, &mut StdRng::seed_from_u64(3), &mut None).unwrap();
                r.moves
                    .iter()
                    .map(|m| (game.move_text(&m.mv), m.visits, m.total))
                    .collect()
            })
            .collect();
        assert_eq!(runs[0], runs[1], "cutoff {cutoff:?}");
        assert_eq!(runs[0].iter().map(|m| m.1).sum::<u64>(), 400);
    }
}

#[test]
fn a_file_of_many_move_kinds_compiles_in_little_memory_and_agrees() {
    // 2,000 move kinds once made one `legal` driver of 10,000 instructions,
    // which took Cranelift 840 MB; past 1,000 each rule is called on its own.
    use std::fmt::Write;
    let mut text = String::from("game \"Many\"\nplayers A, B\nstate x: int = 0\n");
    for i in 0..2000 {
        writeln!(text, "move m{i}() requires x % 2000 == {i} {{ x += 1 }}").unwrap();
    }
    text.push_str("end when x >= 2000 { draw }\n");
    let (jit, vm) = both_of("many", &text);
    agree("many", &jit, &vm, 1, 300, 1);
    let dir = common::scratch("jit", "many_move_kinds", &[]);
    std::fs::write(dir.join("many.game"), &text).unwrap();
    let args = [
        "trace",
        "many.game",
        "--players",
        "random,random",
        "--max-memory",
        "300M",
    ];
    let r = common::gdl_in(&dir, &args, None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("2000. B plays m1999"),
        "{}",
        &r.stdout[r.stdout.len().saturating_sub(300)..]
    );
}
