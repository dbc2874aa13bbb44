//! Properties on random small games: `.game` files written by a seeded
//! generator (subtraction games, some with an extra move, Nim and misère Nim with random rows, a
//! counting race), each checked for
//! - minimax = alpha-beta = memoized alpha-beta = memoized minimax (value, best
//!   moves and principal line, with and without a preference for short wins);
//! - every position gdl prints reads back as the same position;
//! - a seeded random game, written down as move texts, replays to the same end.

use gdl::compile;
use gdl::game::{Game, Turn, all_returns};
use gdl::runtime::Interpreted;
use gdl::solve::{self, Algorithm, SolveOptions};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

/// A small random game file.
fn random_game(rng: &mut StdRng) -> String {
    let end = if rng.random_bool(0.5) { "winner" } else { "loser" };
    match rng.random_range(0..3) {
        0 => {
            // A subtraction game: take one of a set of amounts from a heap.
            let heap = rng.random_range(0..=14);
            let mut takes: Vec<i64> = (1..=4).filter(|_| rng.random_bool(0.6)).collect();
            if takes.is_empty() {
                takes.push(1);
            }
            // Sometimes one amount gives another move.
            let again = match takes.choose(rng) {
                Some(k) if rng.random_bool(0.4) => format!("\n if n == {k} {{ again }}"),
                _ => String::new(),
            };
            let takes: Vec<String> = takes.iter().map(i64::to_string).collect();
            format!(
                "game Subtract\nplayers L, R\nstate heap: int = {heap}\n\
                 move take(n in [{}]) requires n <= heap {{ heap -= n{again} }}\n\
                 end when no moves {{ {end} current }}\n",
                takes.join(", ")
            )
        }
        1 => {
            // Nim with random rows, normal or misère.
            // At least one object: at the empty board nobody has moved, and
            // `previous` names nobody.
            let mut rows: Vec<i64> = (0..rng.random_range(1..=3)).map(|_| rng.random_range(0..=3)).collect();
            rows[0] = rows[0].max(1);
            let rows: Vec<String> = rows.iter().map(i64::to_string).collect();
            format!(
                "game Nim\nplayers MAX, MIN\nstate board: list<int> = [{}]\n\
                 move take(row in 0..<len(board), n in 1..board[row]) {{ board[row] -= n }}\n\
                 end when sum(board) == 0 {{ {end} previous }}\n",
                rows.join(", ")
            )
        }
        _ => {
            // A race to a target, adding 1..k; the payoff is the number of moves left unused.
            let target = rng.random_range(1..=12);
            let k = rng.random_range(1..=3);
            format!(
                "game Race\nplayers A, B\nstate total: int = 0\nstate moves: int = 0\n\
                 move add(n in 1..{k}) requires total + n <= {target} {{ total += n\n moves += 1 }}\n\
                 end when total == {target} {{ {end} previous payoff {target} - moves + 1 }}\n"
            )
        }
    }
}

fn load(text: &str) -> Interpreted {
    match compile::load("random.game", text, &[]) {
        Ok(p) => Interpreted::new(p),
        Err(e) => panic!("{text}\n{}", gdl::report::diagnostic::render_compile_errors(&e, false)),
    }
}

#[test]
fn all_searches_agree_on_random_small_games() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut ranged = 0;
    for _ in 0..500 {
        let text = random_game(&mut rng);
        let game = load(&text);
        // Games without a payoff declare their utilities -1..1, and the
        // searches stop at a move that reaches the best; the race's payoff
        // depends on play, and they search on.
        ranged += usize::from(game.utility_range().is_some());
        let root = game.initial_state().unwrap();
        for prefer_short in [false, true] {
            let mut answers = Vec::new();
            for (algorithm, memo) in [
                (Algorithm::Minimax, false),
                (Algorithm::AlphaBeta, false),
                (Algorithm::AlphaBeta, true),
                (Algorithm::Minimax, true),
            ] {
                let opts = SolveOptions {
                    algorithm,
                    memo,
                    prefer_short,
                    ..SolveOptions::default()
                };
                let s = solve::solve(&game, &root, &opts).unwrap_or_else(|e| panic!("{text}\n{e}"));
                answers.push((s.value, s.best_moves, s.pv));
            }
            for a in &answers[1..] {
                assert_eq!(a.0, answers[0].0, "values differ:\n{text}");
                assert_eq!(a.1, answers[0].1, "best moves differ:\n{text}");
                // The principal line, too: at each position the first move
                // in legal order that keeps the value.
                assert_eq!(a.2, answers[0].2, "principal lines differ:\n{text}");
            }
        }
    }
    assert!(
        ranged > 100 && ranged < 450,
        "{ranged} of 500 games declare their range"
    );
}

#[test]
fn positions_read_back_and_seeded_games_replay() {
    let mut rng = StdRng::seed_from_u64(11);
    let mut moves = Vec::new();
    for round in 0..500 {
        let text = random_game(&mut rng);
        let game = load(&text);
        // A seeded random game, written down as text.
        let mut play = StdRng::seed_from_u64(round);
        let mut s = game.initial_state().unwrap();
        let mut written = Vec::new();
        while let Turn::Player(_) = game.turn(&s).unwrap() {
            let printed = game.position(&s);
            let back = game
                .parse_position(&printed)
                .unwrap_or_else(|e| panic!("{text}\n{printed}: {e}"));
            assert_eq!(game.position(&back), printed, "{text}");
            assert_eq!(game.turn(&back).unwrap(), game.turn(&s).unwrap(), "{text}\n{printed}");
            game.legal_moves(&s, &mut moves).unwrap();
            let m = *moves.choose(&mut play).unwrap();
            written.push(game.move_text(&m));
            game.apply(&mut s, &m).unwrap();
        }
        let end = game.position(&s);
        let returns = all_returns(&game, &s).unwrap();
        // Replayed from the text alone, the game reaches the same end.
        let mut r = game.initial_state().unwrap();
        for t in &written {
            let m = game.parse_move(&r, t).unwrap_or_else(|e| panic!("{text}\n{t}: {e}"));
            game.apply(&mut r, &m).unwrap();
        }
        assert_eq!(game.position(&r), end, "{text}\n{written:?}");
        assert_eq!(all_returns(&game, &r).unwrap(), returns);
    }
}

/// A game longer than the depth limit stops with `TooDeep`, and one that can
/// go back and forth with `Cycle`, for every search: never a stack overflow
/// on a thread with the stack `gdl` gives its searches.
#[test]
fn endless_and_overlong_games_stop_with_an_error() {
    let worker = std::thread::Builder::new().stack_size(solve::SEARCH_STACK);
    worker.spawn(endless_and_overlong).unwrap().join().unwrap();
}

fn endless_and_overlong() {
    let long = load(
        "game Long\nplayers A, B\nstate n: int = 100000\nmove tick() { n -= 1 }\nend when n == 0 { winner previous }\n",
    );
    let cycle = load(
        "game Cycle\nplayers A, B\nstate pos: int = 0\nmove left() requires pos > -2 { pos -= 1 }\n\
         move right() requires pos < 2 { pos += 1 }\nend when pos == 5 { winner previous }\n",
    );
    for (algorithm, memo) in [(Algorithm::Minimax, false), (Algorithm::AlphaBeta, true)] {
        let opts = SolveOptions {
            algorithm,
            memo,
            ..SolveOptions::default()
        };
        let e = solve::solve(&long, &long.initial_state().unwrap(), &opts).unwrap_err();
        assert!(
            matches!(
                e,
                solve::SolveError::TooDeep {
                    depth: solve::DEFAULT_MAX_DEPTH,
                    ..
                }
            ),
            "{e}"
        );
        let e = solve::solve(&cycle, &cycle.initial_state().unwrap(), &opts).unwrap_err();
        match e {
            solve::SolveError::Cycle { moves, .. } => assert_eq!(moves.len() % 2, 0, "{moves:?}"),
            other => panic!("{other}"),
        }
    }
}

/// A move that makes a cell outgrow the state's width is played again on
/// unpacked cells from the position before it: the cells it changed first
/// (`xs[0]`) change once, on small states (inline) and large ones (20 cells).
#[test]
fn a_move_that_outgrows_the_cells_width_is_played_once() {
    for size in [4, 20] {
        let text = format!(
            "game Widen\nplayers A, B\nstate xs: list<int> = [0; {size}]\n\
             move bump(i in 1..3) {{\n xs[0] += 1\n xs[i] = xs[i] * 100 + 100\n}}\n\
             end when xs[0] == 9 {{ draw }}\n"
        );
        let game = Interpreted::new(compile::load("widen.game", &text, &[]).expect("compiles"));
        let mut state = game.initial_state().unwrap();
        let mut expected = vec![0i64; size];
        let mut moves = Vec::new();
        // Pit 1 four times (100, 10100, 1010100, 101010100: widths 1, 2, 4, 4), then pit 3.
        for pick in [0, 0, 0, 0, 2, 2] {
            game.legal_moves(&state, &mut moves).unwrap();
            game.apply(&mut state, &moves[pick]).unwrap();
            expected[0] += 1;
            expected[pick + 1] = expected[pick + 1] * 100 + 100;
            let cells: Vec<String> = expected.iter().map(i64::to_string).collect();
            assert_eq!(game.state_text(&state), format!("[{}]", cells.join(", ")));
            // The same cells, packed from scratch, are the same state.
            assert!(game.parse_position(&game.position(&state)).unwrap() == state);
        }
    }
}
