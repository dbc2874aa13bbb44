//! The interpreter's answers against independent ones: the hand-written native
//! games (tests/native) and Bouton's closed form for Nim. Every search
//! (minimax, alpha-beta, with and without memo) must give the same answers.

use crate::common;
use crate::native;

use std::collections::HashSet;

use gdl::game::{Game, Turn};
use gdl::runtime::{Interpreted, State};
use gdl::solve::{Algorithm, SolveOptions, solve};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use common::load_game as load;

fn configs() -> Vec<SolveOptions> {
    let mut out = Vec::new();
    for algorithm in [Algorithm::Minimax, Algorithm::AlphaBeta] {
        for memo in [false, true] {
            out.push(SolveOptions {
                algorithm,
                memo,
                ..SolveOptions::default()
            });
        }
    }
    out
}

/// Value and optimal moves (as text) of a position.
fn answer<G: Game>(game: &G, s: &G::State, opts: &SolveOptions) -> (f64, Vec<String>) {
    let sol = solve(game, s, opts).unwrap_or_else(|e| panic!("{}: {e}", game.state_text(s)));
    (sol.value, sol.best_moves.iter().map(|m| game.move_text(m)).collect())
}

/// Checks that a position is the same in both games: whose turn it is, the
/// returns at the end, the legal moves (as text, in order). Returns each
/// child, reached by the same move in both.
fn same_rules<N: Game>(interp: &Interpreted, native: &N, is: &State, ns: &N::State) -> Vec<(State, N::State)> {
    let where_ = || interp.position(is);
    let turn = interp.turn(is).unwrap();
    assert_eq!(turn, native.turn(ns).unwrap(), "{}", where_());
    assert_eq!(interp.state_text(is), native.state_text(ns));
    if turn == Turn::Terminal {
        for p in 0..2 {
            assert_eq!(
                interp.returns(is, p).unwrap(),
                native.returns(ns, p).unwrap(),
                "{}",
                where_()
            );
        }
        return Vec::new();
    }
    let (mut im, mut nm) = (Vec::new(), Vec::new());
    interp.legal_moves(is, &mut im).unwrap();
    native.legal_moves(ns, &mut nm).unwrap();
    let it: Vec<String> = im.iter().map(|m| interp.move_text(m)).collect();
    let nt: Vec<String> = nm.iter().map(|m| native.move_text(m)).collect();
    assert_eq!(it, nt, "legal moves differ in {}", where_());
    im.iter()
        .zip(&nm)
        .map(|(a, b)| {
            let (mut ic, mut nc) = (is.clone(), ns.clone());
            interp.apply(&mut ic, a).unwrap();
            native.apply(&mut nc, b).unwrap();
            (ic, nc)
        })
        .collect()
}

/// Walks every position reachable in both games at once, by the same moves
/// (at most `limit`), and checks that each has the same rules and, with
/// `answers`, the same answers under every search. Returns how many
/// positions it saw.
fn agree<N: Game>(interp: &Interpreted, native: &N, limit: usize, answers: bool) -> usize {
    let mut seen = HashSet::new();
    let mut stack = vec![(interp.initial_state().unwrap(), native.initial_state().unwrap())];
    let all = configs();
    while let Some((is, ns)) = stack.pop() {
        if !seen.insert(is.clone()) || seen.len() > limit {
            continue;
        }
        let children = same_rules(interp, native, &is, &ns);
        if answers && !children.is_empty() {
            let expected = answer(native, &ns, &SolveOptions::default());
            for opts in &all {
                assert_eq!(
                    answer(interp, &is, opts),
                    expected,
                    "{} with {opts:?}",
                    interp.position(&is)
                );
            }
        }
        stack.extend(children);
    }
    seen.len()
}

#[test]
fn nim_files_agree_with_native_nim_everywhere() {
    let n = agree(
        &load("games/nim.game", &[("piles", "3,3,2")]),
        &native::Nim::misere(&[3, 3, 2]),
        100_000,
        true,
    );
    assert!(n > 80, "{n}");
    agree(
        &load("games/nim-normal.game", &[("piles", "1,2,3")]),
        &native::Nim::normal(&[1, 2, 3]),
        100_000,
        true,
    );
}

#[test]
fn nimcala_file_agrees_with_native_nimcala_everywhere() {
    for pits in 1..=4usize {
        for tokens in 1..=4u8 {
            let g = load(
                "games/nimcala.game",
                &[("pits", &pits.to_string()), ("tokens", &tokens.to_string())],
            );
            agree(&g, &native::Nimcala::new(pits, tokens), 100_000, true);
        }
    }
}

/// Twelve pits make 14 cells, packed four bits a cell while no pit holds
/// more than 15 tokens. With 17 tokens the game starts wider (a byte a cell,
/// on the heap), narrows to four bits as the first pit empties, and widens
/// again where a pit fills past 15.
#[test]
fn nimcala_file_agrees_with_native_nimcala_on_twelve_pits() {
    let g = load("games/nimcala.game", &[("pits", "12"), ("tokens", "17")]);
    let n = agree(&g, &native::Nimcala::new(12, 17), 20_000, false);
    assert!(n > 10_000, "{n}");
    // The memoized solve, whose table keys four-bit states.
    let g = load("games/nimcala.game", &[("pits", "12"), ("tokens", "7")]);
    let native = native::Nimcala::new(12, 7);
    let opts = SolveOptions::default();
    assert_eq!(
        answer(&g, &g.initial_state().unwrap(), &opts),
        answer(&native, &native.initial_state().unwrap(), &opts)
    );
}

#[test]
fn select19_file_agrees_with_native_select19() {
    // The whole game: every reachable position.
    let n = agree(&load("games/select19.game", &[]), &native::Select19, 100_000, true);
    assert!(n > 1_000, "{n}");
}

#[test]
fn tictactoe_file_agrees_with_native_tictactoe_everywhere() {
    // The rules at every position: tic-tac-toe has 5,478 of them.
    let n = agree(&load("games/tictactoe.game", &[]), &native::TicTacToe, 100_000, false);
    assert_eq!(n, 5_478);
}

#[test]
fn connect4_file_agrees_with_native_connect4_in_random_games() {
    let mut rng = StdRng::seed_from_u64(4);
    let mut plies = 0;
    for (rows, cols, connect, games) in [
        (6, 7, 4, 300),
        (4, 5, 3, 200),
        (1, 1, 1, 2),
        (2, 9, 5, 50),
        (7, 8, 4, 50),
    ] {
        let (r, c, k) = (rows.to_string(), cols.to_string(), connect.to_string());
        let interp = load("games/connect4.game", &[("rows", &r), ("cols", &c), ("connect", &k)]);
        let native = native::Connect4::new(rows, cols, connect);
        for _ in 0..games {
            let (mut is, mut ns) = (interp.initial_state().unwrap(), native.initial_state().unwrap());
            loop {
                let mut children = same_rules(&interp, &native, &is, &ns);
                if children.is_empty() {
                    break;
                }
                (is, ns) = children.swap_remove(rng.random_range(0..children.len()));
                plies += 1;
            }
        }
    }
    assert!(plies > 10_000, "{plies}");
}

/// Tic-tac-toe is a draw: every search, interpreted and native, says so,
/// and that every first move keeps the draw.
#[test]
fn tictactoe_is_a_draw_and_every_first_move_keeps_it() {
    let interp = load("games/tictactoe.game", &[]);
    let native = native::TicTacToe;
    let all: Vec<String> = (1..=9).map(|c| c.to_string()).collect();
    // Minimax without the memo table searches the whole tree: it is left to
    // the positions below.
    let searches = configs()
        .into_iter()
        .filter(|o| o.memo || o.algorithm == Algorithm::AlphaBeta);
    for opts in searches {
        let i = answer(&interp, &interp.initial_state().unwrap(), &opts);
        let n = answer(&native, &native.initial_state().unwrap(), &opts);
        assert_eq!(i, (0.0, all.clone()), "{opts:?}");
        assert_eq!(n, i, "{opts:?}");
    }
}

/// Positions after two and three moves, by every search, interpreted and
/// native; among them the theory's: an edge answer to the centre loses,
/// a corner answer holds the draw.
#[test]
fn tictactoe_positions_by_every_search() {
    let interp = load("games/tictactoe.game", &[]);
    let native = native::TicTacToe;
    let cases: [(&str, Option<f64>); 6] = [
        ("free: {1, 3, 4, 6, 7, 8, 9}, marks: [{5}, {2}]; X to move", Some(1.0)),
        ("free: {2, 3, 4, 6, 7, 8, 9}, marks: [{5}, {1}]; X to move", Some(0.0)),
        ("free: {2, 3, 4, 5, 6, 7, 8}, marks: [{1}, {9}]; X to move", None),
        ("free: {2, 3, 4, 6, 7, 8}, marks: [{1, 5}, {9}]; O to move", None),
        ("free: {1, 3, 4, 5, 7, 9}, marks: [{2, 6}, {8}]; O to move", None),
        ("free: {2, 3, 4, 6, 7, 8}, marks: [{5, 9}, {1}]; O to move", None),
    ];
    for (text, theory) in cases {
        let is = interp.parse_position(text).unwrap();
        let ns = native_position(&native, text);
        let expected = answer(&native, &ns, &SolveOptions::default());
        if let Some(v) = theory {
            assert_eq!(expected.0, v, "{text}");
        }
        for opts in configs() {
            assert_eq!(answer(&interp, &is, &opts), expected, "{text} with {opts:?}");
            assert_eq!(answer(&native, &ns, &opts), expected, "{text} with {opts:?}");
        }
    }
}

/// The native tic-tac-toe position written `text` as the file prints it.
fn native_position(game: &native::TicTacToe, text: &str) -> native::TicTacToeState {
    let cells = |set: &str| -> Vec<u8> { set.split(", ").filter_map(|c| c.trim().parse().ok()).collect() };
    let marks = text.split("marks: [{").nth(1).unwrap();
    let (x, rest) = marks.split_once("}, {").unwrap();
    let (o, rest) = rest.split_once("}]").unwrap();
    let to_move = if rest.contains("X to move") { 0 } else { 1 };
    let s = native::TicTacToe::state(&cells(x), &cells(o), to_move);
    assert_eq!(game.state_text(&s), text.split(';').next().unwrap(), "{text}");
    s
}

/// Bouton: in normal Nim the mover wins iff the nim-sum is not 0; in misère
/// Nim the same, except when no pile exceeds 1, where the mover wins iff the
/// number of non-empty piles is even.
fn bouton(piles: &[i64], misere: bool) -> bool {
    let xor = piles.iter().fold(0, |a, &p| a ^ p);
    if misere && piles.iter().all(|&p| p <= 1) {
        piles.iter().filter(|&&p| p == 1).count() % 2 == 0
    } else {
        xor != 0
    }
}

#[test]
fn nim_files_agree_with_bouton_on_every_position_up_to_4_piles_of_5() {
    for (file, misere) in [("games/nim.game", true), ("games/nim-normal.game", false)] {
        for k in 1..=4usize {
            let game = load(file, &[("piles", &vec!["5"; k].join(","))]);
            let mut piles = vec![0i64; k];
            loop {
                for (mover, name) in [(0, "MAX"), (1, "MIN")] {
                    let text: Vec<String> = piles.iter().map(i64::to_string).collect();
                    let s = game
                        .parse_position(&format!("[{}]; {name} to move", text.join(", ")))
                        .unwrap();
                    if piles.iter().all(|&p| p == 0) {
                        // Over already: the player who took the last object moved before `name`.
                        assert_eq!(game.turn(&s).unwrap(), Turn::Terminal);
                        continue;
                    }
                    let value = solve(&game, &s, &SolveOptions::default()).unwrap().value;
                    let mover_wins = if mover == 0 { value > 0.0 } else { value < 0.0 };
                    assert_eq!(mover_wins, bouton(&piles, misere), "{file} {piles:?}, {name} to move");
                }
                // Next position, like an odometer.
                let mut i = 0;
                while i < k && piles[i] == 5 {
                    piles[i] = 0;
                    i += 1;
                }
                if i == k {
                    break;
                }
                piles[i] += 1;
            }
        }
    }
}
