//! `max moves N`: a game file's promise that no game is longer than N moves
//! of the players. Each bundled declaration is checked against every
//! position where gdl can look through them; a broken promise is an error
//! wherever play meets it; and a malformed declaration does not compile.

use crate::common;
use gdl::game::Game;
use gdl::runtime::encode;

/// Parameter values, as `common::load_game` takes them.
type Params = &'static [(&'static str, &'static str)];

/// Each bundled game that declares `max moves`, with parameters small enough
/// to look through, and whether the bound is the longest game exactly.
const SMALL: &[(&str, Params, bool)] = &[
    // Four in a line cannot fit in three rows, across four columns it can:
    // the board can fill with no line, and then the game is as long as it can be.
    ("connect4", &[("rows", "3"), ("cols", "4")], true),
    ("tictactoe", &[], true),
    ("tictactoe-symmetric", &[], true),
    ("gomoku", &[("size", "3"), ("connect", "3")], true),
    ("hex", &[("N", "3")], true),
    ("dots-and-boxes", &[("rows", "1"), ("cols", "2")], true),
    ("goofspiel", &[("cards", "3")], true),
    ("nim", &[("piles", "[3, 2]")], true),
    ("nim-normal", &[("piles", "[3, 2]")], true),
    ("select19", &[], false),
    ("kuhn-poker", &[], true),
    ("xnimmt", &[("K", "6"), ("R", "1"), ("N", "2"), ("X", "2")], true),
    ("breakthrough", &[("rows", "3"), ("columns", "2")], false),
    ("go", &[("board_size", "2"), ("max_game_length", "6")], true),
];

/// Too many positions at any size: checked by random games instead.
const PLAYED: &[(&str, &[&str])] = &[("othello", &["--size", "4"]), ("amazons", &["--size", "6"])];

fn declared(file: &str) -> bool {
    std::fs::read_to_string(common::crate_dir().join(file))
        .unwrap()
        .lines()
        .any(|l| l.starts_with("max moves "))
}

#[test]
fn every_bundled_declaration_holds_in_every_position_gdl_can_count() {
    for &(name, params, exact) in SMALL {
        let file = format!("games/{name}.game");
        let game = common::load_game(&file, params);
        let bound = game
            .max_moves()
            .unwrap_or_else(|| panic!("{name} declares no `max moves`"));
        // `explore` itself refuses a declaration that a game breaks.
        let found = encode::explore(&game, 200_000)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .unwrap_or_else(|| panic!("{name} {params:?}: too many positions to look through"));
        let longest = found.longest.unwrap_or_else(|| panic!("{name}: positions recur")) as u64;
        assert!(
            longest <= bound,
            "{name}: a game of {longest} moves, `max moves {bound}`"
        );
        if exact {
            assert_eq!(longest, bound, "{name}: the bound is the longest game");
        }
    }
    // Every bundled file that declares one is covered, here or below.
    for file in common::game_files() {
        let name = file.trim_start_matches("games/").trim_end_matches(".game");
        let covered = SMALL.iter().any(|s| s.0 == name) || PLAYED.iter().any(|p| p.0 == name);
        assert_eq!(declared(&file), covered, "{file}: declared and covered differ");
    }
}

#[test]
fn random_games_of_the_largest_games_keep_their_declaration() {
    for &(name, params) in PLAYED {
        let file = format!("games/{name}.game");
        let mut args = vec!["match", file.as_str(), "--players", "random,random", "--games", "6"];
        args.extend_from_slice(params);
        let run = common::gdl(&args);
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
    }
}

/// A pile of three taken one at a time, which promises two moves: every
/// game makes three.
const LIAR: &str = "game Liar\nplayers A, B\nstate left: int = 3\n\
                    move take() { left -= 1 }\n\
                    end when left == 0 { loser previous }\nmax moves 2\n";

#[test]
fn a_broken_promise_is_an_error_where_the_positions_show_it_and_where_play_meets_it() {
    let program = gdl::compile::load("liar.game", LIAR, &[]).expect("it compiles");
    let game = gdl::runtime::Interpreted::new(program);
    assert_eq!(game.max_moves(), Some(2));
    let err = encode::explore(&game, 1000).expect_err("a game of three moves exists");
    assert_eq!(err.code_str(), "gdl::runtime::endless");
    assert!(err.message().contains("declares `max moves 2`"), "{}", err.message());

    let dir = common::scratch("max_moves", "liar", &[]);
    std::fs::write(dir.join("liar.game"), LIAR).unwrap();
    // The third move breaks the promise.
    let run = common::gdl_in(
        &dir,
        &["match", "liar.game", "--players", "random,random", "--games", "1"],
        None,
    );
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("Liar declares `max moves 2`, but a game has made 2 moves and is not over"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("gdl::runtime::endless"), "{}", run.stderr);
    // A file that keeps it plays as ever.
    std::fs::write(dir.join("honest.game"), LIAR.replace("max moves 2", "max moves 3")).unwrap();
    let run = common::gdl_in(
        &dir,
        &["match", "honest.game", "--players", "random,random", "--games", "1"],
        None,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
}

fn compile_error(text: &str) -> String {
    match gdl::compile::load("bad.game", text, &[]) {
        Ok(_) => panic!("compiled:\n{text}"),
        Err(e) => gdl::report::diagnostic::render_compile_errors(&e, false),
    }
}

#[test]
fn a_bound_that_is_not_a_count_of_moves_does_not_compile() {
    let base = "game G\nplayers A, B\nparam n: int = 3\nstate left: int = n\n\
                move take(k in 1..left) { left -= k }\nend when left == 0 { loser previous }\n";
    // A bound of the parameters compiles; each of these does not.
    let good = gdl::compile::load("good.game", &format!("{base}max moves n * 2\n"), &[]).expect("it compiles");
    assert_eq!(good.max_moves, Some(6));
    let cases = [
        ("max moves 0\n", "`max moves 0`: a game lasts at least one move"),
        ("max moves n - 4\n", "`max moves -1`: a game lasts at least one move"),
        ("max moves n > 1\n", "`max moves` takes a number of moves, found a bool"),
        ("max moves 3\nmax moves 4\n", "`max moves` is declared twice"),
        ("max moves left\n", "left"),
    ];
    for (decl, message) in cases {
        let text = compile_error(&format!("{base}{decl}"));
        assert!(text.contains(message), "{decl}: {text}");
        if !decl.contains("left") {
            assert!(text.contains("gdl::compile::max_moves"), "{decl}: {text}");
        }
    }
    // Neither word is reserved: a state named `moves` and a call of `max` stay names.
    let names = "game G\nplayers A, B\nstate moves: int = 0\n\
                 move m() { moves = max(moves, 0) + 1 }\nend when moves == 4 { draw }\nmax moves 4\n";
    let program = gdl::compile::load("names.game", names, &[]).expect("it compiles");
    assert_eq!(program.max_moves, Some(4));
}
