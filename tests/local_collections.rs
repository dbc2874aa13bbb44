//! Local lists and sets (`let seen: set<0..8> = {}`): they work as the
//! state's do, even where the state is only read (a function, an end
//! clause); each call has its own; they never enter a position; the VM and
//! compiled rules agree on them; and Hex written with them has the values
//! of Hex written with its scratch in the state (and the independent
//! solver's: the first player wins, from these opening cells).

use crate::common;
#[allow(dead_code)]
use crate::fuzzgen;

use common::snap;
use gdl::compile;
use gdl::error_kind::RuntimeKind;
use gdl::game::Game;
use gdl::report::diagnostic;
use gdl::runtime::{Engine, Interpreted};
use gdl::solve::{Algorithm, SolveOptions, solve};

const LOCALS: &str = r#"game Locals
players A, B
state board: list<int> = [3, 1, 2]
state out: list<int, 8> = []
state total: int = 0
state done: bool = false

// Each call has its own cells: the deeper call's list is not the caller's.
fn tri(n: int) -> int {
    let mine: list<int, 3> = [n, n, n]
    let below = if n > 0 then tri(n - 1) else 0
    return below + sum(mine)
}

// A function changes its own lists and sets, though not the state.
fn digest() -> int {
    let seen: set<0..9> = {}
    let order: list<int> = board
    order.sort()
    for x in order { seen.add(x) }
    seen.add(3)
    return 100 * len(seen) + 10 * order[0] + last(order)
}

move go(k in 1..2) requires digest() == 313 {
    let stack: list<int, 4> = [k]
    stack.push(5)
    stack.insert(0, 9)
    stack.remove(5)
    stack[1] += 10
    out = stack
    let t = 0
    for i in 0..<3 {
        let s: set<0..9> = {}
        s.add(i)
        t += len(s)
    }
    total = t + tri(3) + digest()
    done = k + 10 in stack and 5 not in stack
}
end when done { draw }
"#;

fn engines(text: &str) -> [Interpreted; 2] {
    let prog = compile::load("locals.game", text, &[]).unwrap_or_else(|e| panic!("{e:?}"));
    [
        Interpreted::with_engine(prog.clone(), Engine::Vm),
        Interpreted::with_engine(prog, Engine::default_for_host()),
    ]
}

#[test]
fn local_lists_and_sets_work_as_the_states_do_and_stay_out_of_the_position() {
    for game in engines(LOCALS) {
        let mut s = game.initial_state().unwrap();
        let mut moves = Vec::new();
        game.legal_moves(&s, &mut moves).unwrap();
        assert_eq!(moves.len(), 2, "the requires clause's function ran");
        game.apply(&mut s, &moves[0]).unwrap();
        // out = [9, 1 + 10]; total = 3 sets of one + tri(3) = 18 + digest = 313.
        assert_eq!(
            game.position(&s),
            "board: [3, 1, 2], out: [9, 11], total: 334, done: true; B to move",
            "{:?}",
            game.engine()
        );
        // The position holds the state variables only: 2 cells (turn,
        // previous), 4 of the board, 9 of `out`, `total`, `done`.
        assert_eq!(game.program().initial.len(), 2 + 4 + 9 + 1 + 1);
    }
}

#[test]
fn a_deep_recursion_with_local_lists_fails_as_a_recursion_not_an_abort() {
    let text = |depth: u32| {
        format!(
            "game Deep\nplayers A, B\nstate x: int = 0\n\
             fn deep(n: int) -> int {{\n    let a: list<int, 4096> = [n]\n    let b: list<int, 4096> = []\n    \
             let below = if n <= 0 then 0 else deep(n - 1)\n    return below + a[0]\n}}\n\
             move go(k in 1..1) {{ x = deep({depth}) }}\nend when x > 0 {{ draw }}\n"
        )
    };
    for game in engines(&text(100)) {
        let mut s = game.initial_state().unwrap();
        let mut moves = Vec::new();
        game.legal_moves(&s, &mut moves).unwrap();
        game.apply(&mut s, &moves[0]).unwrap();
        assert_eq!(game.position(&s), "x: 5050; B to move");
    }
    // 200 calls of 8,194 cells each pass the 2^20 cells that calls in
    // progress may hold, long before the depth of 256.
    for game in engines(&text(200)) {
        let mut s = game.initial_state().unwrap();
        let mut moves = Vec::new();
        game.legal_moves(&s, &mut moves).unwrap();
        let err = game.apply(&mut s, &moves[0]).unwrap_err();
        assert!(err.is(RuntimeKind::Recursion), "{err:?}");
        assert!(err.to_string().contains("local lists and sets"), "{err}");
    }
}

#[test]
fn a_full_local_list_fails_where_it_is_pushed() {
    let text = "game Full\nplayers A, B\nstate x: int = 0\n\
                move go(k in 1..3) {\n    let l: list<int, 2> = []\n    for i in 1..k { l.push(i) }\n    x = sum(l)\n}\n\
                end when x > 0 { draw }\n";
    for game in engines(text) {
        let mut moves = Vec::new();
        let s = game.initial_state().unwrap();
        game.legal_moves(&s, &mut moves).unwrap();
        let mut ok = s.clone();
        game.apply(&mut ok, &moves[1]).unwrap();
        assert_eq!(game.position(&ok), "x: 3; B to move");
        let mut s = s;
        let err = game.apply(&mut s, &moves[2]).unwrap_err();
        assert!(err.is(RuntimeKind::Full), "{err:?}");
        snap!("runtime_local_list_full", diagnostic::render(&err, false));
    }
}

fn hex(file: &str, n: &str) -> Interpreted {
    common::load_game(file, &[("N", n)])
}

/// games/hex.game searches with local collections in a function; the same
/// game with its search's scratch in the state has the same values, best
/// moves and lines, from smaller positions. The best moves are those an
/// independent solver (a plain minimax over the same board in Python)
/// found: every cell but the acute corners on 2×2, and the short diagonal
/// with the two cells beside the centre on 3×3.
#[test]
fn hex_with_local_collections_solves_as_hex_with_scratch_state() {
    for (n, best) in [("1", vec![0]), ("2", vec![1, 2]), ("3", vec![2, 3, 4, 5, 6])] {
        let local = hex("games/hex.game", n);
        let state = hex("tests/inputs/ok/hex-state-scratch.game", n);
        for algorithm in [Algorithm::AlphaBeta, Algorithm::Minimax] {
            let opts = SolveOptions {
                algorithm,
                ..SolveOptions::default()
            };
            let a = solve(&local, &local.initial_state().unwrap(), &opts).unwrap();
            let b = solve(&state, &state.initial_state().unwrap(), &opts).unwrap();
            assert_eq!(a.value, 1.0, "N = {n}: the first player wins");
            assert_eq!(a.value, b.value, "N = {n}");
            assert_eq!(a.length, b.length, "N = {n}");
            assert_eq!(a.best_moves, b.best_moves, "N = {n}");
            let cells: Vec<i64> = a.best_moves.iter().map(|m| m.args()[0]).collect();
            assert_eq!(cells, best, "N = {n}");
            // The scratch was a function of the board, so no more states,
            // but every one of them carried it.
            assert!(a.states <= b.states, "N = {n}: {} > {}", a.states, b.states);
        }
        let cells = |g: &Interpreted| g.program().initial.len();
        let n: usize = n.parse().unwrap();
        assert_eq!(cells(&local), 2 + 1 + n * n);
        assert!(cells(&local) < cells(&state));
    }
}

/// The fuzzer's generated games declare local lists and sets (in move
/// bodies, procedures, functions written with statements): those that
/// compile play alike on the VM, on compiled rules, and with the IR's
/// optimisations off.
#[test]
fn generated_games_with_local_collections_agree_on_every_engine() {
    use gdl::ir::lower_code::Optimisations;
    let corpus = fuzzgen::corpus();
    let mut compared = 0;
    for i in 0..3000 {
        let case = fuzzgen::make_case(47, i, &corpus);
        let local = case.text.contains(": set<") && case.text.contains("let s") || case.text.contains("let seen: set<");
        if !local {
            continue;
        }
        let Ok(prog) = compile::load("fuzz.game", &case.text, &case.bindings) else {
            continue;
        };
        let vm = Interpreted::with_engine(prog.clone(), Engine::Vm);
        let jit = Interpreted::with_engine(prog.clone(), Engine::default_for_host());
        let plain = Interpreted::with_optimisations(prog, Optimisations::NONE);
        for other in [&jit, &plain] {
            if let Err(e) = fuzzgen::agree::agree(&vm, other, 3, 40, case.seed, None) {
                panic!("case {i}:\n{}\n{e}", case.text);
            }
        }
        compared += 1;
    }
    assert!(
        compared >= 60,
        "only {compared} generated games with local collections compiled"
    );
}
