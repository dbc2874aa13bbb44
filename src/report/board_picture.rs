//! A position as a picture, for programs that learn from pixels (Gymnasium's
//! `render_mode="rgb_array"`): the board the game's `display` block draws
//! ([`Board`]), as RGB pixels drawn with `plotters`. A grid is drawn as
//! squares with discs on them (the display's colours, else a palette), the
//! symbol written on each; pits as rounded counts; anything else as its
//! text. It is a picture for a network, not for a page: `gdl serve` draws
//! the page's own.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::board::{Board, Look, Style};

/// The side of one cell of a grid, in pixels.
pub const CELL: u32 = 32;
/// The margin around the board, in pixels.
pub const MARGIN: u32 = 4;
/// The height of one line of text.
pub const LINE: u32 = 18;

/// Discs of symbols without a colour of their own, by the symbol's number.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0x20, 0x20, 0x20),
    RGBColor(0xf0, 0xf0, 0xf0),
    RGBColor(0xd6, 0x30, 0x31),
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
];
/// The colour of a grid's squares (a chequered board's are two others).
pub const BOARD: (u8, u8, u8) = (0xe8, 0xe2, 0xd0);
const BOARD_RGB: RGBColor = RGBColor(BOARD.0, BOARD.1, BOARD.2);
const DARK_SQUARE: RGBColor = RGBColor(0xb5, 0x88, 0x63);
const LIGHT_SQUARE: RGBColor = RGBColor(0xf0, 0xd9, 0xb5);
const GRID_LINE: RGBColor = RGBColor(0x70, 0x70, 0x70);

/// A picture: `width × height` pixels, row by row from the top, three bytes
/// (red, green, blue) each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rgb {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

/// `board` drawn: `symbols` are the display's (symbol 0 is an empty cell,
/// drawn as the bare square), `look` its style and colours. `None` (a
/// game without a display) draws `text`, the position as gdl prints it.
pub fn board_rgb(board: Option<&Board>, symbols: &[String], look: &Look, text: &str) -> Rgb {
    super::plot::register_font();
    match board {
        Some(Board::Grid {
            rows,
            cols,
            shift,
            cells,
        }) => grid(*rows, *cols, *shift, cells, symbols, look),
        Some(Board::Pits {
            bottom,
            top,
            left,
            right,
        }) => pits(bottom, top.as_deref(), left.as_deref(), right.as_deref()),
        Some(b @ Board::Rows { .. }) => lines(&b.text()),
        None => lines(text),
    }
}

/// Draws on a white canvas of `width × height` with `draw`.
fn canvas(width: u32, height: u32, draw: impl FnOnce(&DrawingArea<BitMapBackend<'_>, Shift>)) -> Rgb {
    let (width, height) = (width.max(1), height.max(1));
    let mut pixels = vec![0u8; (width * height * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, (width, height)).into_drawing_area();
        let _ = root.fill(&WHITE);
        draw(&root);
        let _ = root.present();
    }
    Rgb { width, height, pixels }
}

fn grid(rows: usize, cols: usize, shift: bool, cells: &[String], symbols: &[String], look: &Look) -> Rgb {
    let (rows_u, cols_u) = (rows as u32, cols as u32);
    // A rhombus's last row starts (rows - 1) half cells to the right.
    let extra = if shift { rows_u.saturating_sub(1) * CELL / 2 } else { 0 };
    let width = 2 * MARGIN + cols_u * CELL + extra;
    let height = 2 * MARGIN + rows_u * CELL;
    canvas(width, height, |root| {
        for r in 0..rows {
            for c in 0..cols {
                let x = (MARGIN + c as u32 * CELL + if shift { r as u32 * CELL / 2 } else { 0 }) as i32;
                let y = (MARGIN + r as u32 * CELL) as i32;
                let square = match look.style {
                    Style::Checkered | Style::Chess if (r + c) % 2 == 1 => DARK_SQUARE,
                    Style::Checkered | Style::Chess => LIGHT_SQUARE,
                    _ => BOARD_RGB,
                };
                let corner = (x + CELL as i32 - 1, y + CELL as i32 - 1);
                let _ = root.draw(&Rectangle::new([(x, y), corner], square.filled()));
                let _ = root.draw(&Rectangle::new([(x, y), corner], GRID_LINE));
                let Some(symbol) = cells.get(r * cols + c) else {
                    continue;
                };
                let number = symbols.iter().position(|s| s == symbol);
                if number == Some(0) || symbol.trim().is_empty() || symbol == "." {
                    continue;
                }
                let centre = (x + CELL as i32 / 2, y + CELL as i32 / 2);
                let colour = number
                    .and_then(|n| look.colours.get(n))
                    .and_then(|c| parse_colour(c))
                    .unwrap_or(PALETTE[number.unwrap_or(symbol.len()) % PALETTE.len()]);
                let _ = root.draw(&Circle::new(centre, CELL as i32 * 2 / 5, colour.filled()));
                let ink = if luminance(colour) > 140.0 { BLACK } else { WHITE };
                let _ = root.draw(&Text::new(symbol.clone(), centre, centred(CELL * 9 / 20, ink)));
            }
        }
    })
}

fn pits(bottom: &[String], top: Option<&[String]>, left: Option<&str>, right: Option<&str>) -> Rgb {
    let n = bottom.len().max(top.map_or(0, <[String]>::len)) as u32;
    let width = 2 * MARGIN + (n + 2) * CELL;
    let height = 2 * MARGIN + 2 * CELL;
    canvas(width, height, |root| {
        let _ = root.draw(&Rectangle::new(
            [(0, 0), (width as i32 - 1, height as i32 - 1)],
            BOARD_RGB.filled(),
        ));
        let pit = |text: &str, x: u32, y: u32| {
            let centre = (
                (MARGIN + x) as i32 + CELL as i32 / 2,
                (MARGIN + y) as i32 + CELL as i32 / 2,
            );
            let _ = root.draw(&Circle::new(centre, CELL as i32 * 2 / 5, DARK_SQUARE.filled()));
            let _ = root.draw(&Text::new(text.to_string(), centre, centred(CELL * 9 / 20, WHITE)));
        };
        for (i, s) in bottom.iter().enumerate() {
            pit(s, (i as u32 + 1) * CELL, CELL);
        }
        for (i, s) in top.unwrap_or_default().iter().enumerate() {
            pit(s, (i as u32 + 1) * CELL, 0);
        }
        // The stores, each as tall as both rows.
        for (s, x) in [(left, 0), (right, (n + 1) * CELL)] {
            let Some(s) = s else { continue };
            let (x0, y0) = ((MARGIN + x + 2) as i32, (MARGIN + 2) as i32);
            let (x1, y1) = (x0 + CELL as i32 - 4, y0 + 2 * CELL as i32 - 4);
            let _ = root.draw(&Rectangle::new([(x0, y0), (x1, y1)], DARK_SQUARE.filled()));
            let _ = root.draw(&Text::new(
                s.to_string(),
                ((x0 + x1) / 2, (y0 + y1) / 2),
                centred(CELL * 9 / 20, WHITE),
            ));
        }
    })
}

/// Lines of text, one under another.
fn lines(text: &str) -> Rgb {
    let rows: Vec<&str> = text.lines().collect();
    let longest = rows.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
    // DejaVu Sans at 14 px: about 9 px a character, wide ones included.
    let width = 2 * MARGIN + 9 * longest.max(1);
    let height = 2 * MARGIN + LINE * rows.len().max(1) as u32;
    canvas(width, height, |root| {
        let style = ("sans-serif", 14).into_font().color(&BLACK);
        for (i, l) in rows.iter().enumerate() {
            let _ = root.draw(&Text::new(
                l.to_string(),
                (MARGIN as i32, (MARGIN + i as u32 * LINE) as i32),
                style.clone(),
            ));
        }
    })
}

fn centred(size: u32, colour: RGBColor) -> TextStyle<'static> {
    ("sans-serif", size)
        .into_font()
        .color(&colour)
        .pos(Pos::new(HPos::Center, VPos::Center))
}

fn luminance(c: RGBColor) -> f64 {
    0.299 * f64::from(c.0) + 0.587 * f64::from(c.1) + 0.114 * f64::from(c.2)
}

/// A display's colour (`#rgb`, `#rrggbb`, with or without alpha, or a
/// common CSS name); `None` for one this picture does not know, which then
/// takes the palette's.
pub fn parse_colour(colour: &str) -> Option<RGBColor> {
    if let Some(hex) = colour.strip_prefix('#') {
        let digit = |i: usize| u8::from_str_radix(hex.get(i..i + 1)?, 16).ok();
        let pair = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
        return match hex.len() {
            3 | 4 => Some(RGBColor(digit(0)? * 17, digit(1)? * 17, digit(2)? * 17)),
            6 | 8 => Some(RGBColor(pair(0)?, pair(2)?, pair(4)?)),
            _ => None,
        };
    }
    let (r, g, b) = match colour.to_ascii_lowercase().as_str() {
        "black" => (0, 0, 0),
        "white" => (255, 255, 255),
        "red" => (255, 0, 0),
        "green" => (0, 128, 0),
        "blue" => (0, 0, 255),
        "yellow" => (255, 255, 0),
        "orange" => (255, 165, 0),
        "purple" => (128, 0, 128),
        "gray" | "grey" => (128, 128, 128),
        "brown" => (165, 42, 42),
        _ => return None,
    };
    Some(RGBColor(r, g, b))
}
