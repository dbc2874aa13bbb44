//! A position as a picture (`gdl::report::board_picture`): what Gymnasium's
//! `render_mode="rgb_array"` returns, from the board a display draws.

use gdl::board::{Board, Look};
use gdl::game::Game;
use gdl::report::board_picture::{BOARD, CELL, LINE, MARGIN, Rgb, board_rgb, parse_colour};

use crate::common;

fn tictactoe(cells: &[&str]) -> Board {
    Board::Grid {
        rows: 3,
        cols: 3,
        shift: false,
        cells: cells.iter().map(|s| s.to_string()).collect(),
    }
}

fn at(p: &Rgb, x: u32, y: u32) -> (u8, u8, u8) {
    let i = ((y * p.width + x) * 3) as usize;
    (p.pixels[i], p.pixels[i + 1], p.pixels[i + 2])
}

#[test]
fn a_grid_is_its_cells_and_a_mark_changes_it() {
    let symbols: Vec<String> = [".", "X", "O"].map(String::from).to_vec();
    let look = Look::default();
    let empty = board_rgb(Some(&tictactoe(&["."; 9])), &symbols, &look, "");
    let side = 2 * MARGIN + 3 * CELL;
    assert_eq!((empty.width, empty.height), (side, side));
    assert_eq!(empty.pixels.len(), (side * side * 3) as usize);
    let mut one = ["."; 9];
    one[4] = "X";
    let marked = board_rgb(Some(&tictactoe(&one)), &symbols, &look, "");
    assert_ne!(empty.pixels, marked.pixels);
    // Left of the centre cell's middle: the bare square on the empty board,
    // the disc (not the square, not the symbol's ink) where X is.
    let (x, y) = (MARGIN + CELL + 6, MARGIN + CELL + CELL / 2);
    assert_eq!(at(&empty, x, y), BOARD);
    assert_ne!(at(&marked, x, y), BOARD);
    // The other cells are as they were.
    let (x0, y0) = (MARGIN + CELL / 2, MARGIN + CELL / 2);
    assert_eq!(at(&marked, x0, y0), at(&empty, x0, y0));
}

#[test]
fn the_display_s_colours_paint_the_discs() {
    let game = common::load_game("games/connect4.game", &[("rows", "4"), ("cols", "4")]);
    let mut state = game.initial_state().unwrap();
    let mut moves = Vec::new();
    game.legal_moves(&state, &mut moves).unwrap();
    game.apply(&mut state, &moves[0]).unwrap();
    let display = game.program().display.as_ref().expect("connect four has a display");
    let board = game.board(&state).unwrap();
    let picture = board_rgb(board.as_ref(), &display.symbols, &display.look, "");
    assert_eq!(
        (picture.width, picture.height),
        (2 * MARGIN + 4 * CELL, 2 * MARGIN + 4 * CELL)
    );
    // X's disc, bottom left, in X's colour (#d63031), left of its symbol.
    let (x, y) = (MARGIN + 6, MARGIN + 3 * CELL + CELL / 2);
    assert_eq!(at(&picture, x, y), (0xd6, 0x30, 0x31));
}

#[test]
fn colours_are_read_as_the_display_writes_them() {
    let rgb = |c: &str| parse_colour(c).map(|c| (c.0, c.1, c.2));
    assert_eq!(rgb("#d63031"), Some((0xd6, 0x30, 0x31)));
    assert_eq!(rgb("#fff"), Some((255, 255, 255)));
    assert_eq!(rgb("#f9c80eff"), Some((0xf9, 0xc8, 0x0e)));
    assert_eq!(rgb("Black"), Some((0, 0, 0)));
    assert_eq!(rgb("#12"), None);
    assert_eq!(rgb("chartreuse"), None);
}

#[test]
fn text_is_drawn_where_there_is_no_board_and_pits_as_pits() {
    let picture = board_rgb(None, &[], &Look::default(), "[7, 5, 3, 1]; MAX to move");
    assert_eq!(picture.height, 2 * MARGIN + LINE);
    assert!(picture.pixels.iter().any(|&b| b < 128), "some text is drawn");
    let game = common::load_game("games/kalah.game", &[("pits", "3"), ("seeds", "2")]);
    let state = game.initial_state().unwrap();
    let board = game.board(&state).unwrap();
    assert!(matches!(board, Some(Board::Pits { .. })));
    let pits = board_rgb(board.as_ref(), &[], &Look::default(), "");
    // Three pits a row and a store at either end, two rows.
    assert_eq!(
        (pits.width, pits.height),
        (2 * MARGIN + 5 * CELL, 2 * MARGIN + 2 * CELL)
    );
}
