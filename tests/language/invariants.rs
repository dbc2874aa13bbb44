//! Invariants (`invariant "one king each": ...`): the rules of each game
//! file keep its own invariants at every position random play reaches, on
//! both engines alike; and a position from outside the rules that breaks
//! one is refused at each door: `--from` (and `--first`, which reads the
//! start back with another player to move), cells decoded for Python
//! (`encode::state_from_cells`), and `gdl check` for the start itself.

use crate::common::{crate_dir, gdl, gdl_in, load_game};
use gdl::game::{Game, Turn};
use gdl::runtime::{Engine, Interpreted, State, encode};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Plays `games` seeded random games of `game` (chance and simultaneous
/// moves drawn at random too), calling `visit` at every position reached,
/// the start and the ends included.
fn random_positions(game: &Interpreted, games: usize, seed: u64, mut visit: impl FnMut(&State)) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut s = game.initial_state().unwrap();
        loop {
            visit(&s);
            match game.turn(&s).unwrap() {
                Turn::Terminal => break,
                Turn::Player(_) => {
                    game.legal_moves(&s, &mut moves).unwrap();
                    let m = moves[rng.random_range(0..moves.len())];
                    game.apply(&mut s, &m).unwrap();
                }
                Turn::Chance => {
                    let mut outcomes = Vec::new();
                    game.chance_outcomes(&s, &mut outcomes).unwrap();
                    let m = outcomes[rng.random_range(0..outcomes.len())].0;
                    game.apply(&mut s, &m).unwrap();
                }
                Turn::Simultaneous => {
                    let mut joint = Vec::new();
                    for p in 0..game.num_players() {
                        game.legal_moves_of(&s, p, &mut moves).unwrap();
                        joint.push(moves[rng.random_range(0..moves.len())]);
                    }
                    game.apply_joint(&mut s, &joint).unwrap();
                }
            }
        }
    }
}

/// How many random games to play of each game file with invariants: a few
/// thousand positions each, more for the small games.
fn playouts(file: &str) -> usize {
    match file {
        "games/chess.game" => 25,
        "games/go.game" => 25,
        "games/checkers.game" => 60,
        _ => 300,
    }
}

#[test]
fn every_game_file_keeps_its_invariants_through_random_play() {
    let mut with_invariants = Vec::new();
    for file in crate::common::game_files() {
        let game = load_game(&file, &[]);
        if game.program().invariants.is_empty() {
            continue;
        }
        with_invariants.push(file.clone());
        let mut positions = 0;
        random_positions(&game, playouts(&file), 5, |s| {
            positions += 1;
            match game.broken_invariant(s) {
                Ok(None) => {}
                Ok(Some(i)) => panic!("{file}: {} breaks {}", game.position(s), game.invariant_name(i)),
                Err((i, e)) => panic!(
                    "{file}: {} fails checking {}: {e}",
                    game.position(s),
                    game.invariant_name(i)
                ),
            }
        });
        assert!(positions >= 2000, "{file}: only {positions} positions");
    }
    for file in ["chess", "checkers", "go", "tictactoe", "connect4"] {
        assert!(
            with_invariants.contains(&format!("games/{file}.game")),
            "games/{file}.game states no invariant"
        );
    }
}

/// Both engines say the same of every invariant at every position (the
/// JIT-against-VM test of tests/jit.rs compares them too, along shorter games).
#[test]
fn the_engines_agree_on_the_invariants() {
    if Engine::default_for_host() != Engine::Jit {
        return;
    }
    let mut files = crate::common::game_files();
    files.push("tests/inputs/ok/invariants.game".to_string());
    for file in files {
        let jit = load_game(&file, &[]);
        if jit.program().invariants.is_empty() {
            continue;
        }
        let vm = jit.on_engine(Engine::Vm);
        assert_eq!(jit.engine(), Engine::Jit);
        random_positions(&vm, 5, 9, |s| {
            let shown = |r: Result<Option<usize>, (usize, gdl::game::GameError)>| {
                format!("{:?}", r.map_err(|(i, e)| (i, e.to_string())))
            };
            assert_eq!(shown(jit.broken_invariant(s)), shown(vm.broken_invariant(s)), "{file}");
        });
    }
}

/// The start of chess with a second White king on d1, for the queen.
fn two_white_kings() -> String {
    let chess = load_game("games/chess.game", &[]);
    let start = chess.position(&chess.initial_state().unwrap());
    let two = start.replacen("4, 2, 3, 5, 6, 3, 2, 4", "4, 2, 3, 6, 6, 3, 2, 4", 1);
    assert_ne!(two, start);
    two
}

/// The line of chess.game where an invariant is declared.
fn line_of(needle: &str) -> usize {
    let text = std::fs::read_to_string(crate_dir().join("games/chess.game")).unwrap();
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("chess.game has no {needle}"));
    text[..at].matches('\n').count() + 1
}

#[test]
fn from_refuses_a_chess_position_with_two_white_kings() {
    let position = two_white_kings();
    let line = line_of("invariant \"one king each\"");
    for (command, args) in [
        ("play", &["play", "games/chess.game", "--from", &position][..]),
        (
            "solve",
            &["solve", "games/chess.game", "--from", &position, "--depth", "1"],
        ),
    ] {
        let r = gdl(args);
        assert_eq!(r.code, 2, "{command}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{command}: {}", r.stdout);
        assert!(
            r.stderr.contains(&format!(
                "the position breaks the invariant \"one king each\" (games/chess.game line {line})"
            )),
            "{command}: {}",
            r.stderr
        );
        assert!(r.stderr.contains("gdl::position"), "{}", r.stderr);
    }
    // The same position, read in the library, says the same.
    let chess = load_game("games/chess.game", &[]);
    let e = chess.parse_position(&position).unwrap_err().to_string();
    assert!(e.contains("\"one king each\""), "{e}");
}

#[test]
fn from_names_the_first_invariant_a_position_breaks() {
    let chess = load_game("games/chess.game", &[]);
    let start = chess.position(&chess.initial_state().unwrap());
    let cases = [
        // The king is not where `kings` says.
        ("kings: [51, 58]", "kings: [52, 58]", "`kings` holds the kings' squares"),
        // The side to move is in check, and `check` says not.
        (
            "0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1",
            "0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 7, 1, 1",
            "`check` says whether the side to move is in check",
        ),
        // A pawn on White's first rank.
        (
            "4, 2, 3, 5, 6, 3, 2, 4",
            "4, 7, 3, 5, 6, 3, 2, 4",
            "no pawn on the first or last rank",
        ),
        (
            "ep: -1",
            "ep: 33",
            "the en passant square is empty, behind a pawn that just stepped two",
        ),
        ("past: []", "past: [1]", "`past` holds whole moves"),
    ];
    for (from, to, label) in cases {
        let text = start.replacen(from, to, 1);
        assert_ne!(text, start, "{from}");
        let e = chess.parse_position(&text).unwrap_err().to_string();
        assert!(
            e.contains(&format!("the position breaks the invariant \"{label}\"")),
            "{e}"
        );
    }
    // Black to move, with White in check: the side not to move is attacked.
    let text = start
        .replacen("1, 1, 1, 1, 1, 1, 1, 1, 4", "1, 1, 1, 1, 1, 7, 1, 1, 4", 1)
        .replace("White to move", "Black to move");
    let e = chess.parse_position(&text).unwrap_err().to_string();
    assert!(e.contains("\"the side not to move is not in check\""), "{e}");
    // The start itself, and the start with Black to move (`--first`), are fine.
    assert!(chess.parse_position(&start).is_ok());
    assert!(
        chess
            .parse_position(&start.replace("White to move", "Black to move"))
            .is_ok()
    );
}

#[test]
fn cells_that_break_an_invariant_are_refused() {
    for engine in [Engine::Jit, Engine::Vm] {
        let chess = load_game("games/chess.game", &[]).on_engine(engine);
        let start = chess.initial_state().unwrap();
        let mut cells = start.cells().to_vec();
        assert!(encode::state_from_cells(&chess, &cells).is_ok());
        // The queen's square (d1, board index 59) holds a second White king.
        let board = chess.program().vars[0].offset;
        assert_eq!(cells[board + 1 + 59], 5);
        cells[board + 1 + 59] = 6;
        let e = encode::state_from_cells(&chess, &cells).unwrap_err().to_string();
        let line = line_of("invariant \"one king each\"");
        assert_eq!(
            e,
            format!(
                "not a state of Chess: the position breaks the invariant \"one king each\" (games/chess.game line {line})"
            )
        );
    }
}

/// A game whose start breaks its own invariant: `gdl check` says so, and
/// points at the invariant; other commands play it (they do not look).
#[test]
fn check_refuses_a_start_that_breaks_an_invariant() {
    let dir = crate::common::scratch("invariants", "start", &[]);
    std::fs::write(
        dir.join("start.game"),
        "game Start\nplayers A, B\nstate n: int = 7\ninvariant \"at most five\": n <= 5\n\
         move take(k in 1..2) requires k <= n { n -= k }\nend when n == 0 { winner previous }\n",
    )
    .unwrap();
    let r = gdl_in(&dir, &["check", "start.game"], None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stdout.is_empty());
    // From tests/language/, the snapshots are two folders up.
    let mut settings = crate::common::snapshot_settings();
    settings.set_snapshot_path("../../snapshots");
    settings.bind(|| insta::assert_snapshot!("check_start_breaks_invariant", r.stderr));
    // Read back with `--from`, the same start is refused too.
    let r = gdl_in(&dir, &["solve", "start.game", "--from", "n: 7; A to move"], None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("the position breaks the invariant \"at most five\" (start.game line 4)"),
        "{}",
        r.stderr
    );
}

/// An invariant whose rule fails at run time is reported as such, with
/// the invariant named.
#[test]
fn an_invariant_that_fails_says_which() {
    let text = "game T\nplayers A, B\nstate l: list<int, 3> = [1]\ninvariant \"second\": l[1] > 0\n\
                move m(x in 0..1) requires len(l) < 3 { l.push(x) }\nend when len(l) == 3 { draw }\n";
    let game = Interpreted::new(gdl::compile::load("t.game", text, &[]).unwrap());
    let e = game.parse_position("l: [1, 2]; A to move").map(|_| ());
    assert!(e.is_ok(), "{e:?}");
    let e = game.parse_position("l: [1]; A to move").unwrap_err().to_string();
    assert!(
        e.starts_with("checking the invariant \"second\" (t.game line 4) failed:"),
        "{e}"
    );
    assert!(e.contains("index"), "{e}");
}
