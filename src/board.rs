//! A position as its game's `display` block draws it: symbols laid out on a
//! grid, in pits, or in rows of objects. The runtime fills one in from the
//! display's functions ([`crate::game::Game::board`]); this file turns it
//! into text for the terminal, and `gdl serve` into a picture on its page.
//!
//! It sits beside `game` at the bottom of the stages: a [`Board`] is plain
//! data that any `Game` may give and any report may draw.

/// A position, drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Board {
    /// `rows × cols` symbols, row by row, the first row at the top. With
    /// `shift`, every row starts half a cell right of the one above (Hex).
    Grid {
        rows: usize,
        cols: usize,
        shift: bool,
        cells: Vec<String>,
    },
    /// A row of pits at the bottom, optionally another above it (the
    /// opponent's, as seen across the board), and a store at either end.
    Pits {
        bottom: Vec<String>,
        top: Option<Vec<String>>,
        left: Option<String>,
        right: Option<String>,
    },
    /// Rows of objects: each its label, how many, and the symbol drawn for one.
    Rows { rows: Vec<(String, usize, String)> },
}

/// How a page or picture draws a grid, beyond its symbols: the display's
/// `style` and `colours`. The terminal's text ignores it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Look {
    pub style: Style,
    /// A colour for each symbol, in the order of `symbols` (CSS: a name or
    /// `#rrggbb`); an empty one, or a symbol past the list, takes the page's
    /// own colour.
    pub colours: Vec<String>,
    /// What a click on a cell chooses.
    pub click: Click,
    /// The state fields drawn as cards (`cards hands, rows`).
    pub cards: Vec<String>,
    /// The state fields declared `per player`: one entry per player, shown
    /// with the players' names.
    pub each: Vec<String>,
    /// The names of the values 0, 1, ... of a field (`names actions "pass",
    /// "bet"`), by field.
    pub names: Vec<(String, Vec<String>)>,
    /// The player who owns each side (`sides R, B`): on a rhombus the first
    /// joins the top and bottom rows, the second the left and right
    /// columns; of pits the first owns the bottom row and the right store.
    pub sides: Vec<usize>,
}

/// What a click on a grid's cell means on the page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Click {
    /// The cell a move marks: tic-tac-toe's square, connect four's column.
    #[default]
    Cells,
    /// A piece, then the cell it moves to (and, where moves still differ,
    /// a cell a third click picks, as an Amazon's arrow): chess, checkers.
    Pieces,
}

impl Click {
    pub const ALL: &[Click] = &[Click::Cells, Click::Pieces];

    pub fn name(self) -> &'static str {
        match self {
            Click::Cells => "cells",
            Click::Pieces => "pieces",
        }
    }
}

/// What a grid's cells are drawn as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Style {
    /// Discs with their symbol on them, on plain squares: connect four, Othello.
    #[default]
    Discs,
    /// The symbols themselves, large, in their colours: tic-tac-toe's X and O.
    Marks,
    /// Discs on the dark and light squares of a chequered board: checkers.
    Checkered,
    /// A chequered board whose symbols are the letters of a FEN (`K Q R B N
    /// P` for White, lower case for Black), drawn as chess pieces.
    Chess,
    /// Stones on the intersections of lines, with the star points: Go.
    Go,
    /// Backgammon's points: each column of the top half a triangle pointing
    /// down, of the bottom half one pointing up, the checkers stacked on them.
    Points,
    /// Hexagons, each row half a cell right of the one above: Hex's rhombus.
    Hex,
    /// Dots and the lines between them: a grid whose even rows and columns
    /// meet at dots, the cells between two dots edges, the rest boxes
    /// (dots and boxes).
    Dots,
}

impl Style {
    pub const ALL: &[Style] = &[
        Style::Discs,
        Style::Marks,
        Style::Checkered,
        Style::Chess,
        Style::Go,
        Style::Points,
        Style::Hex,
        Style::Dots,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Style::Discs => "discs",
            Style::Marks => "marks",
            Style::Checkered => "checkered",
            Style::Chess => "chess",
            Style::Go => "go",
            Style::Points => "points",
            Style::Hex => "hex",
            Style::Dots => "dots",
        }
    }

    /// Whether it draws a display laid out as a grid, or as a rhombus (Hex's
    /// shifted rows: discs, marks and hexagons only); any layout takes the
    /// plain discs.
    pub fn fits(self, grid: bool, rhombus: bool) -> bool {
        match self {
            Style::Discs => true,
            Style::Marks => grid || rhombus,
            Style::Hex => rhombus,
            _ => grid,
        }
    }

    pub fn named(name: &str) -> Option<Style> {
        Style::ALL.iter().copied().find(|s| s.name() == name)
    }
}

/// Whether `colour` is one a page may put in an attribute as it is: a CSS
/// colour name (letters only) or a hex colour (`#rgb`, `#rrggbb`, with
/// alpha). Anything else is refused where the display is checked.
pub fn is_colour(colour: &str) -> bool {
    let name = !colour.is_empty() && colour.len() <= 24 && colour.bytes().all(|b| b.is_ascii_alphabetic());
    let hex = colour
        .strip_prefix('#')
        .is_some_and(|h| matches!(h.len(), 3 | 4 | 6 | 8) && h.bytes().all(|b| b.is_ascii_hexdigit()));
    name || hex
}

/// The most symbols a row of objects shows before it gives the count alone.
const MAX_OBJECTS: usize = 40;

impl Board {
    /// The board as lines of text, without trailing spaces.
    pub fn text(&self) -> String {
        let lines = match self {
            Board::Grid {
                rows,
                cols,
                shift,
                cells,
            } => {
                let w = widest(cells.iter());
                (0..*rows)
                    .map(|r| {
                        let indent = if *shift {
                            " ".repeat(r * (w + 1) / 2)
                        } else {
                            String::new()
                        };
                        let row: Vec<String> = (0..*cols).map(|c| pad(&cells[r * cols + c], w)).collect();
                        format!("{indent}{}", row.join(" "))
                    })
                    .collect::<Vec<_>>()
            }
            Board::Pits {
                bottom,
                top,
                left,
                right,
            } => {
                let w = widest(bottom.iter().chain(top.iter().flatten()));
                let row = |pits: &[String]| pits.iter().map(|p| format!("{p:>w$}")).collect::<Vec<_>>().join(" ");
                let lw = left.as_deref().map_or(0, |l| l.chars().count() + 1);
                let indent = " ".repeat(lw);
                let mut lines = Vec::new();
                if let Some(top) = top {
                    lines.push(format!("{indent}{}", row(top)));
                }
                if left.is_some() || right.is_some() {
                    let inner = row(bottom)
                        .chars()
                        .count()
                        .max(top.as_ref().map_or(0, |t| row(t).chars().count()));
                    let l = left.as_deref().unwrap_or("");
                    let r = right.as_deref().unwrap_or("");
                    lines.push(format!("{l:<lw$}{}{r}", " ".repeat(inner + usize::from(!r.is_empty()))));
                }
                lines.push(format!("{indent}{}", row(bottom)));
                lines
            }
            Board::Rows { rows } => {
                let w = widest(rows.iter().map(|(l, _, _)| l));
                rows.iter()
                    .map(|(label, n, symbol)| {
                        let objects = match *n {
                            0 => String::new(),
                            n if n <= MAX_OBJECTS => format!("{} ", symbol.repeat(n)),
                            _ => "… ".to_string(),
                        };
                        format!("{label:>w$}: {objects}({n})")
                    })
                    .collect()
            }
        };
        lines.iter().map(|l| l.trim_end()).collect::<Vec<_>>().join("\n")
    }
}

impl Board {
    /// The board on one line, for a column of a table (a text tree): a
    /// grid's rows separated by `/`, as FEN writes a chess board; pits as
    /// the top row after the left store, then the bottom row before the
    /// right store; rows of objects as their counts.
    pub fn compact(&self) -> String {
        match self {
            Board::Grid { cols, cells, .. } => {
                let narrow = cells.iter().all(|c| c.chars().count() == 1);
                let joiner = if narrow { "" } else { " " };
                cells
                    .chunks((*cols).max(1))
                    .map(|row| row.join(joiner))
                    .collect::<Vec<_>>()
                    .join("/")
            }
            Board::Pits {
                bottom,
                top,
                left,
                right,
            } => {
                let mut parts = Vec::new();
                if let Some(l) = left {
                    parts.push(format!("({l})"));
                }
                if let Some(t) = top {
                    parts.push(format!("{} /", t.join(" ")));
                }
                parts.push(bottom.join(" "));
                if let Some(r) = right {
                    parts.push(format!("({r})"));
                }
                parts.join(" ")
            }
            Board::Rows { rows } => rows.iter().map(|(_, n, _)| n.to_string()).collect::<Vec<_>>().join(" "),
        }
    }
}

/// The most characters any of `items` takes.
fn widest<'a>(items: impl Iterator<Item = &'a String>) -> usize {
    items.map(|s| s.chars().count()).max().unwrap_or(1).max(1)
}

/// `s` centred in `w` characters, a space to spare on the right.
fn pad(s: &str, w: usize) -> String {
    let n = s.chars().count();
    let left = (w.saturating_sub(n)) / 2;
    let right = w.saturating_sub(n) - left;
    format!("{}{s}{}", " ".repeat(left), " ".repeat(right))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn colours_are_names_or_hex_and_nothing_an_attribute_could_break_on() {
        for good in ["red", "DarkSlateGray", "#fff", "#c0392b", "#c0392b80"] {
            assert!(is_colour(good), "{good}");
        }
        for bad in ["", "#ggg", "#12345", "red;", "rgb(1,2,3)", "\"red", "url(#x)"] {
            assert!(!is_colour(bad), "{bad}");
        }
    }

    #[test]
    fn every_style_is_found_by_its_name() {
        for &s in Style::ALL {
            assert_eq!(Style::named(s.name()), Some(s));
        }
        assert_eq!(Style::named("hexes"), None);
    }

    #[test]
    fn a_grid_is_its_rows_of_symbols() {
        let b = Board::Grid {
            rows: 2,
            cols: 3,
            shift: false,
            cells: strings(&["X", ".", "O", ".", "X", "."]),
        };
        assert_eq!(b.text(), "X . O\n. X .");
    }

    #[test]
    fn a_compact_board_fits_one_line() {
        let grid = Board::Grid {
            rows: 2,
            cols: 2,
            shift: false,
            cells: strings(&["X", ".", ".", "O"]),
        };
        assert_eq!(grid.compact(), "X./.O");
        let pits = Board::Pits {
            bottom: strings(&["1", "2"]),
            top: Some(strings(&["3", "4"])),
            left: Some("5".into()),
            right: Some("6".into()),
        };
        assert_eq!(pits.compact(), "(5) 3 4 / 1 2 (6)");
    }

    #[test]
    fn a_rhombus_shifts_each_row_by_half_a_cell() {
        let b = Board::Grid {
            rows: 3,
            cols: 2,
            shift: true,
            cells: strings(&["a", "b", "c", "d", "e", "f"]),
        };
        assert_eq!(b.text(), "a b\n c d\n  e f");
    }

    #[test]
    fn pits_have_stores_at_their_ends_and_numbers_line_up() {
        let b = Board::Pits {
            bottom: strings(&["4", "10", "0"]),
            top: Some(strings(&["1", "2", "3"])),
            left: Some("12".into()),
            right: Some("3".into()),
        };
        assert_eq!(b.text(), "    1  2  3\n12          3\n    4 10  0");
    }

    #[test]
    fn rows_of_objects_show_their_count_and_long_rows_only_that() {
        let b = Board::Rows {
            rows: vec![
                ("0".into(), 3, "|".into()),
                ("1".into(), 0, "|".into()),
                ("2".into(), 41, "|".into()),
            ],
        };
        assert_eq!(b.text(), "0: ||| (3)\n1: (0)\n2: … (41)");
    }
}
