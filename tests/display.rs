//! The `display` blocks of the bundled games draw what the state holds: at
//! every position of random games, each drawn cell, pit or row is checked
//! against the state variables read directly. And the commands that show a
//! position show the board, or with `--raw` the state as `--from` reads it.

use crate::common;

use common::{gdl, load_game, snap};
use gdl::board::Board;
use gdl::game::{Game, Turn};
use gdl::runtime::{Interpreted, State};
use gdl::value::Value;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The states of `games` random games from the start.
fn positions(game: &Interpreted, games: usize, seed: u64) -> Vec<State> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut s = game.initial_state().unwrap();
        loop {
            out.push(s.clone());
            if game.turn(&s).unwrap() == Turn::Terminal {
                break;
            }
            game.legal_moves(&s, &mut moves).unwrap();
            let mv = moves[rng.random_range(0..moves.len())];
            game.apply(&mut s, &mv).unwrap();
        }
    }
    out
}

fn ints(v: Value) -> Vec<i64> {
    match v {
        Value::List(items) => items
            .into_iter()
            .map(|i| match i {
                Value::Int(n) => n,
                Value::Player(p) => p as i64,
                other => panic!("not an int: {other:?}"),
            })
            .collect(),
        other => panic!("not a list: {other:?}"),
    }
}

fn sets(v: Value) -> Vec<std::collections::BTreeSet<i64>> {
    match v {
        Value::List(items) => items
            .into_iter()
            .map(|i| match i {
                Value::Set(s) => s,
                other => panic!("not a set: {other:?}"),
            })
            .collect(),
        other => panic!("not a list: {other:?}"),
    }
}

fn grid(b: Board) -> (usize, usize, Vec<String>) {
    match b {
        Board::Grid {
            rows,
            cols,
            shift: false,
            cells,
        } => (rows, cols, cells),
        other => panic!("not a grid: {other:?}"),
    }
}

#[test]
fn tictactoe_draws_each_players_marks_where_they_are() {
    for file in ["games/tictactoe.game", "games/tictactoe-symmetric.game"] {
        let game = load_game(file, &[]);
        for s in positions(&game, 30, 1) {
            let marks = sets(game.value_of(&s, "marks").unwrap());
            let (rows, cols, cells) = grid(game.board(&s).unwrap().unwrap());
            assert_eq!((rows, cols), (3, 3));
            for (i, cell) in cells.iter().enumerate() {
                let n = i as i64 + 1;
                let want = if marks[0].contains(&n) {
                    "X"
                } else if marks[1].contains(&n) {
                    "O"
                } else {
                    "."
                };
                assert_eq!(cell, want, "{file} cell {n} in {}", game.position(&s));
            }
        }
    }
}

#[test]
fn connect_four_draws_the_columns_upright() {
    let game = load_game("games/connect4.game", &[("rows", "4"), ("cols", "5")]);
    for s in positions(&game, 20, 2) {
        let Value::List(columns) = game.value_of(&s, "columns").unwrap() else {
            panic!()
        };
        let (rows, cols, cells) = grid(game.board(&s).unwrap().unwrap());
        assert_eq!((rows, cols), (4, 5));
        for (c, column) in columns.into_iter().enumerate() {
            let discs = ints(column);
            for r in 0..rows {
                // Row 0 of the picture is the top: height rows - 1.
                let height = rows - 1 - r;
                let want = match discs.get(height) {
                    None => ".",
                    Some(0) => "X",
                    Some(_) => "O",
                };
                assert_eq!(cells[r * cols + c], want, "row {r} col {c} in {}", game.position(&s));
            }
        }
    }
}

#[test]
fn kalah_draws_norths_pits_across_from_souths_and_the_stores_at_the_ends() {
    let game = load_game("games/kalah.game", &[("pits", "4"), ("seeds", "3")]);
    for s in positions(&game, 20, 3) {
        let ring = ints(game.value_of(&s, "ring").unwrap());
        let store = ints(game.value_of(&s, "store").unwrap());
        let Some(Board::Pits {
            bottom,
            top: Some(top),
            left: Some(left),
            right: Some(right),
        }) = game.board(&s).unwrap()
        else {
            panic!("kalah draws pits with stores")
        };
        let text = |v: &[i64]| v.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(bottom, text(&ring[..4]));
        // North's first pit (ring[4]) lies across from South's last.
        let mut north: Vec<i64> = ring[4..].to_vec();
        north.reverse();
        assert_eq!(top, text(&north));
        assert_eq!((left, right), (store[1].to_string(), store[0].to_string()));
    }
}

#[test]
fn nim_draws_its_rows() {
    for file in ["games/nim-normal.game"] {
        let game = load_game(file, &[]);
        for s in positions(&game, 20, 4) {
            let board = ints(game.value_of(&s, "board").unwrap());
            let Some(Board::Rows { rows }) = game.board(&s).unwrap() else {
                panic!("nim draws rows")
            };
            let drawn: Vec<(String, usize)> = rows.into_iter().map(|(l, n, _)| (l, n)).collect();
            let want: Vec<(String, usize)> = board
                .iter()
                .enumerate()
                .map(|(i, &n)| (i.to_string(), n as usize))
                .collect();
            assert_eq!(drawn, want);
        }
    }
}

#[test]
fn dots_and_boxes_draws_a_line_for_each_line_taken() {
    let game = load_game("games/dots-and-boxes.game", &[("rows", "2"), ("cols", "3")]);
    let (rows, cols) = (2usize, 3usize);
    for s in positions(&game, 10, 6) {
        let Value::Set(free) = game.value_of(&s, "free").unwrap() else {
            panic!()
        };
        let (h, w, cells) = grid(game.board(&s).unwrap().unwrap());
        assert_eq!((h, w), (2 * rows + 1, 2 * cols + 1));
        let vertical = ((rows + 1) * cols) as i64;
        let mut lines = 0;
        for r in 0..h {
            for c in 0..w {
                let cell = cells[r * w + c].as_str();
                match (r % 2, c % 2) {
                    (0, 0) => assert_eq!(cell, "+"),
                    (0, 1) => {
                        let line = (r / 2 * cols + c / 2) as i64;
                        assert_eq!(cell == "-", !free.contains(&line), "line {line}");
                        lines += usize::from(cell == "-");
                    }
                    (1, 0) => {
                        let line = vertical + (r / 2 * (cols + 1) + c / 2) as i64;
                        assert_eq!(cell == "|", !free.contains(&line), "line {line}");
                        lines += usize::from(cell == "|");
                    }
                    _ => {
                        // A box whose four lines are drawn is closed.
                        let (br, bc) = ((r / 2) as i64, (c / 2) as i64);
                        let (cols, v) = (cols as i64, vertical);
                        let sides = [
                            br * cols + bc,
                            (br + 1) * cols + bc,
                            v + br * (cols + 1) + bc,
                            v + br * (cols + 1) + bc + 1,
                        ];
                        let closed = sides.iter().all(|l| !free.contains(l));
                        assert_eq!(cell, if closed { "#" } else { " " });
                    }
                }
            }
        }
        let all = vertical as usize + rows * (cols + 1);
        assert_eq!(lines, all - free.len());
    }
}

#[test]
fn a_display_error_points_into_the_display_block() {
    let text = "game Nim\nplayers MAX, MIN\nstate board: list<int> = [3, 4, 5]\n\
                move take(row in 0..<len(board), n in 1..board[row]) { board[row] -= n }\n\
                end when sum(board) == 0 { loser previous }\n\
                display rows(len(board) + 1) { row(i) = board[i] }\n";
    let game = Interpreted::new(gdl::compile::load("oob.game", text, &[]).unwrap());
    let e = game.board(&game.initial_state().unwrap()).unwrap_err();
    assert_eq!(e.code_str(), "gdl::runtime::index");
    let at = miette::Diagnostic::labels(&e)
        .and_then(|mut l| l.next())
        .expect("a place in the file");
    assert_eq!(&text[at.offset()..at.offset() + at.len()], "board[i]");
}

#[test]
fn play_trace_and_tree_show_the_board_and_raw_shows_the_state() {
    let trace = gdl(&[
        "trace",
        "games/connect4.game",
        "--rows",
        "4",
        "--cols",
        "5",
        "--players",
        "random,random",
        "--seed",
        "7",
    ]);
    assert_eq!(trace.code, 0, "{}", trace.stderr);
    snap!("display_trace_connect4", trace.stdout);
    let play = gdl(&[
        "play",
        "games/kalah.game",
        "--pits",
        "3",
        "--seeds",
        "2",
        "--players",
        "optimal:first,optimal:first",
    ]);
    assert_eq!(play.code, 0, "{}", play.stderr);
    snap!("display_play_kalah", play.stdout);
    let tree = gdl(&[
        "tree",
        "games/tictactoe.game",
        "--depth",
        "1",
        "--after",
        "5 1",
        "--values",
    ]);
    assert_eq!(tree.code, 0, "{}", tree.stderr);
    snap!("display_tree_tictactoe", tree.stdout);
    let dot = gdl(&[
        "tree",
        "games/nim-normal.game",
        "--piles",
        "2,1",
        "--depth",
        "1",
        "--format",
        "dot",
    ]);
    assert_eq!(dot.code, 0, "{}", dot.stderr);
    snap!("display_tree_nim_dot", dot.stdout);
    // A grid in DOT: a small table of cells (an HTML-like label).
    let grid = gdl(&[
        "tree",
        "games/connect4.game",
        "--rows",
        "3",
        "--cols",
        "3",
        "--connect",
        "3",
        "--depth",
        "1",
        "--format",
        "dot",
    ]);
    assert_eq!(grid.code, 0, "{}", grid.stderr);
    snap!("display_tree_connect4_dot", grid.stdout);
    let solve = gdl(&["solve", "games/tictactoe.game", "--after", "5 1 9"]);
    assert_eq!(solve.code, 0, "{}", solve.stderr);
    snap!("display_solve_after_tictactoe", solve.stdout);
    // --raw: the state as --from reads it, line for line as before displays.
    let raw = gdl(&[
        "trace",
        "games/nim-normal.game",
        "--players",
        "random,random",
        "--seed",
        "1",
        "--raw",
    ]);
    assert_eq!(raw.code, 0, "{}", raw.stderr);
    assert!(raw.stdout.contains("start    board: [7, 5, 3, 1]\n"), "{}", raw.stdout);
    assert!(!raw.stdout.contains("|"), "{}", raw.stdout);
    let tree_raw = gdl(&["tree", "games/tictactoe.game", "--depth", "0", "--raw"]);
    assert!(
        tree_raw
            .stdout
            .starts_with("start  free: {1, 2, 3, 4, 5, 6, 7, 8, 9}, marks: [{}, {}]"),
        "{}",
        tree_raw.stdout
    );
}

/// games/nim.game and games/nimcala.game have no display on purpose: their
/// transcript and traces are the seeds' (tests/desk.rs, tests/play.rs), the
/// fields of the state.
#[test]
fn the_seed_games_keep_their_transcripts() {
    for file in ["games/nim.game", "games/nimcala.game"] {
        let game = load_game(file, &[]);
        assert!(game.board(&game.initial_state().unwrap()).unwrap().is_none());
    }
}

#[test]
fn a_game_with_hidden_state_is_shown_to_a_player_as_before() {
    // Kuhn poker has no display: play shows the fields a player may see.
    let play = gdl(&[
        "trace",
        "games/kuhn-poker.game",
        "--players",
        "random,random",
        "--seed",
        "2",
    ]);
    assert_eq!(play.code, 0, "{}", play.stderr);
    assert!(play.stdout.contains("start    "), "{}", play.stdout);
}

/// A display's `style`, `colours` and `click` are checked where they are
/// written: a style the page does not know, one for another layout, a
/// colour that is not one, more colours than symbols, a click it lacks.
#[test]
fn a_displays_look_is_checked_where_it_is_written() {
    let game = |display: &str| {
        format!(
            "game Nim\nplayers MAX, MIN\nstate board: list<int> = [3, 4, 5]\n\
             move take(row in 0..<len(board), n in 1..board[row]) {{ board[row] -= n }}\n\
             end when sum(board) == 0 {{ loser previous }}\n{display}\n"
        )
    };
    let cases = [
        (
            "unknown_style",
            "display grid(1, 3) { cell(r, c) = board[c]\n    style hexes }",
        ),
        (
            "style_for_a_grid",
            "display rows(3) { row(i) = board[i]\n    style chess }",
        ),
        (
            "not_a_colour",
            "display grid(1, 3) { cell(r, c) = board[c]\n    symbols \".\", \"X\"\n    colours \"\", \"red;\" }",
        ),
        (
            "too_many_colours",
            "display grid(1, 3) { cell(r, c) = board[c]\n    symbols \".\", \"X\"\n    colours \"\", \"red\", \"blue\" }",
        ),
        (
            "unknown_click",
            "display grid(1, 3) { cell(r, c) = board[c]\n    click arrows }",
        ),
        (
            "click_for_a_grid",
            "display rows(3) { row(i) = board[i]\n    click pieces }",
        ),
    ];
    snap!("display_look_errors", errors_of("look.game", &cases, game));
    // A good one compiles, and keeps what it says.
    let text = game(
        "display grid(1, 3) { cell(r, c) = board[c]\n    symbols \".\", \"X\"\n    colours \"\", \"#c0392b\"\n    style marks\n    click pieces }",
    );
    let program = gdl::compile::load("look.game", &text, &[]).unwrap();
    let look = &program.display.as_ref().unwrap().look;
    assert_eq!(look.style, gdl::board::Style::Marks);
    assert_eq!(look.click, gdl::board::Click::Pieces);
    assert_eq!(look.colours, ["", "#c0392b"]);
}

/// `cards`, `sides`, the `fields()` layout and `style hex` are checked
/// where they are written: a field that is not one, or holds no numbers, or
/// is named twice; sides on a grid, of a stranger, or of one player; hexagons
/// on a square grid; a size for fields, which have none.
#[test]
fn cards_and_sides_are_checked_where_they_are_written() {
    let game = |display: &str| {
        format!(
            "game Nim\nplayers MAX, MIN\nstate board: list<int> = [3, 4, 5]\nstate over: bool = false\n\
             move take(row in 0..<len(board), n in 1..board[row]) {{ board[row] -= n }}\n\
             end when sum(board) == 0 {{ loser previous }}\n{display}\n"
        )
    };
    let cases = [
        ("no_such_field", "display fields() { cards hand }"),
        ("not_numbers", "display fields() { cards over }"),
        ("named_twice", "display fields() { cards board, board }"),
        ("fields_have_no_size", "display fields(3) { cards board }"),
        (
            "sides_on_a_grid",
            "display grid(1, 3) { cell(r, c) = board[c]\n    sides MAX, MIN }",
        ),
        (
            "sides_of_a_stranger",
            "display pits(3) { bottom(i) = board[i]\n    sides MAX, NOBODY }",
        ),
        ("one_side", "display pits(3) { bottom(i) = board[i]\n    sides MAX }"),
        (
            "hexagons_on_a_grid",
            "display grid(1, 3) { cell(r, c) = board[c]\n    style hex }",
        ),
    ];
    snap!("display_cards_sides_errors", errors_of("look.game", &cases, game));
    // Good ones compile, and keep what they say.
    let fields = gdl::compile::load(
        "look.game",
        &game("display fields() { cards board\n symbols \"\", \"A\" }"),
        &[],
    )
    .unwrap();
    let d = fields.display.as_ref().unwrap();
    assert_eq!(d.layout, gdl::ir::DisplayLayout::Fields);
    assert_eq!(d.look.cards, ["board"]);
    let pits = gdl::compile::load(
        "look.game",
        &game("display pits(3) { bottom(i) = board[i]\n sides MIN, MAX }"),
        &[],
    )
    .unwrap();
    assert_eq!(pits.display.as_ref().unwrap().look.sides, [1, 0]);
    // A display of fields draws no board: the terminal shows the fields.
    let game = Interpreted::new(fields);
    assert!(game.board(&game.initial_state().unwrap()).unwrap().is_none());
}

/// Each case's display in `game`'s file, compiled, and the errors rendered
/// one after another under the case's name: one snapshot for a family.
fn errors_of(file: &str, cases: &[(&str, &str)], game: impl Fn(&str) -> String) -> String {
    let mut all = String::new();
    for (name, display) in cases {
        let e = gdl::compile::load(file, &game(display), &[]).expect_err(name);
        all += &format!(
            "== {name}\n{}\n",
            gdl::report::diagnostic::render_compile_errors(&e, false)
        );
    }
    all
}

/// `names` is checked where it is written: a field that is not one, holds
/// no ints, or is named twice; a set with a value past the names, or below
/// 0, which no name can name; names on a grid, whose page shows no fields.
#[test]
fn names_are_checked_where_they_are_written() {
    let game = |display: &str| {
        format!(
            "game Calls\nplayers A, B\nstate actions: list<int, 3> = []\nstate over: bool = false\n\
             state deck: set<1..3> = {{1..3}}\nstate low: set<-1..1> = {{}}\nstate points: per player int = 0\n\
             move pass() {{ actions.push(0) }}\nmove bet() {{ actions.push(1) }}\n\
             end when len(actions) == 3 {{ winner A }}\n{display}\n"
        )
    };
    let cases = [
        ("no_such_field", "display fields() { names calls \"pass\", \"bet\" }"),
        ("not_ints", "display fields() { names over \"no\", \"yes\" }"),
        (
            "named_twice",
            "display fields() { names actions \"pass\", \"bet\"\n    names actions \"p\", \"b\" }",
        ),
        (
            "a_card_with_no_name",
            "display fields() { names deck \"\", \"J\", \"Q\" }",
        ),
        ("below_zero", "display fields() { names low \"a\", \"b\" }"),
        (
            "names_on_a_grid",
            "display grid(1, 3) { cell(r, c) = actions[c]\n    names actions \"pass\", \"bet\" }",
        ),
    ];
    snap!("display_names_errors", errors_of("names.game", &cases, game));
    // A good one compiles, and keeps what it says; the type says which
    // fields hold one entry per player.
    let good = gdl::compile::load(
        "names.game",
        &game("display fields() { names actions \"pass\", \"bet\"\n    names deck \"\", \"J\", \"Q\", \"K\" }"),
        &[],
    )
    .unwrap();
    let look = &good.display.as_ref().unwrap().look;
    let owned = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        look.names,
        [
            ("actions".to_string(), owned(&["pass", "bet"])),
            ("deck".to_string(), owned(&["", "J", "Q", "K"]))
        ]
    );
    assert_eq!(look.each, ["points"]);
}
