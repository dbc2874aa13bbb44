//! Where a click on the board plays a move. The display says how a position
//! looks, not which move a cell stands for; so each legal move is played
//! aside and the boards compared. A cell plays the one move that changes it
//! in a way no other move does (tic-tac-toe's square, Othello's new disc);
//! a grid column none of whose cells says otherwise plays the one move that
//! changes that column (connect four: a click anywhere in it); a pit plays
//! the one move that takes seeds out of it (Kalah's sowing). Where the
//! display says `click pieces`, a move that takes a piece from one cell to
//! another is played by two clicks, the piece and its target (see
//! [`piece_moves`]). Anything else is chosen from the list of moves.

use serde_json::{Value, json};

use crate::board::{Board, Click};

/// For each cell (a grid's, in row order) or pit (`bottom` and `top`), the
/// index of the move a click on it plays, or null; with `click pieces`,
/// also each move's piece, target and third cell (`pieces`); `None` when no
/// click maps to a move.
pub(super) fn targets(before: &Board, after: &[Board], click: Click) -> Option<Value> {
    match before {
        Board::Grid { rows, cols, cells, .. } => {
            let afters: Vec<&Vec<String>> = after
                .iter()
                .map(|a| match a {
                    Board::Grid { cells: c, .. } if c.len() == cells.len() => Some(c),
                    _ => None,
                })
                .collect::<Option<_>>()?;
            let pieces = match click {
                Click::Pieces => piece_moves(cells, *cols, &afters),
                Click::Cells => vec![None; afters.len()],
            };
            // A move a piece makes is played by its two clicks, never by one.
            let placed: Vec<&Vec<String>> = afters
                .iter()
                .zip(&pieces)
                .map(|(a, p)| if p.is_some() { cells } else { *a })
                .collect();
            let afters = placed;
            let mut map: Vec<Option<usize>> = (0..cells.len()).map(|i| only_change(&cells[i], &afters, i)).collect();
            // A column that one move alone changes plays that move.
            for c in 0..*cols {
                let column: Vec<usize> = (0..*rows).map(|r| r * cols + c).collect();
                let changed_by: Vec<usize> = (0..afters.len())
                    .filter(|&m| column.iter().any(|&i| afters[m][i] != cells[i]))
                    .collect();
                // Only the cells that look as the one it changes did: the
                // empty ones above a connect-four disc, not the discs.
                if let [one] = changed_by.as_slice() {
                    let blanks: Vec<&String> = column
                        .iter()
                        .filter(|&&i| afters[*one][i] != cells[i])
                        .map(|&i| &cells[i])
                        .collect();
                    for &i in &column {
                        if map[i].is_none() && blanks.contains(&&cells[i]) {
                            map[i] = Some(*one);
                        }
                    }
                }
            }
            let any = map.iter().any(Option::is_some) || pieces.iter().any(Option::is_some);
            any.then(|| {
                let pieces: Vec<Value> = pieces
                    .iter()
                    .map(|p| match p {
                        Some(p) => json!({ "from": p.from, "to": p.to, "third": p.third }),
                        None => Value::Null,
                    })
                    .collect();
                json!({ "cells": map, "pieces": pieces })
            })
        }
        Board::Pits { bottom, top, .. } => {
            let bottom_map = pit_targets(bottom, after, |a| match a {
                Board::Pits { bottom, .. } => Some(bottom),
                _ => None,
            })?;
            let top_map = match top {
                Some(top) => Some(pit_targets(top, after, |a| match a {
                    Board::Pits { top, .. } => top.as_ref(),
                    _ => None,
                })?),
                None => None,
            };
            let any = bottom_map.iter().chain(top_map.iter().flatten()).any(Option::is_some);
            any.then(|| json!({ "bottom": bottom_map, "top": top_map }))
        }
        Board::Rows { .. } => None,
    }
}

/// A move as a piece's step: the cell it leaves, the cell it lands on, and
/// a third cell that tells it from the other moves of the same step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PieceMove {
    from: usize,
    to: usize,
    third: Option<usize>,
}

/// Each move's piece step, where it has one. A step leaves a cell (empty,
/// or with an arrow shot back into it) and fills another with the symbol
/// that stood there (a capture empties
/// more, castling moves two pieces: the piece rarer on the board, the
/// king, is the one clicked). A move that empties one cell and fills one
/// with another symbol is the piece becoming another (a promotion). Moves
/// of one step are told apart by a third click on a cell that only one of
/// them changes (an Amazon's arrow), else chosen from a short list.
fn piece_moves(before: &[String], cols: usize, afters: &[&Vec<String>]) -> Vec<Option<PieceMove>> {
    let blank = |s: &str| matches!(s.trim(), "" | "." | "_" | "-" | "+" | "·");
    let count = |sym: &str| before.iter().filter(|s| *s == sym).count();
    let distance = |a: usize, b: usize| (a / cols).abs_diff(b / cols).max((a % cols).abs_diff(b % cols));
    let steps: Vec<Option<(usize, usize)>> = afters
        .iter()
        .map(|after| {
            let changed: Vec<usize> = (0..before.len()).filter(|&i| after[i] != before[i]).collect();
            let left: Vec<usize> = changed.iter().copied().filter(|&i| !blank(&before[i])).collect();
            let filled: Vec<usize> = changed.iter().copied().filter(|&i| !blank(&after[i])).collect();
            let same = left
                .iter()
                .flat_map(|&f| filled.iter().map(move |&t| (f, t)))
                .filter(|&(f, t)| before[f] == after[t])
                .min_by_key(|&(f, t)| (count(&before[f]), std::cmp::Reverse(distance(f, t))));
            same.or(match (left.as_slice(), filled.as_slice()) {
                // A piece that becomes another: from the farthest cell it
                // left (a capture on the way leaves one nearer).
                (_, [t]) if !left.is_empty() && blank(&before[*t]) || left.len() == 1 => left
                    .iter()
                    .copied()
                    .max_by_key(|&f| distance(f, filled[0]))
                    .map(|f| (f, filled[0])),
                _ => None,
            })
        })
        .collect();
    (0..afters.len())
        .map(|m| {
            let (from, to) = steps[m]?;
            let others: Vec<usize> = (0..afters.len()).filter(|&k| k != m && steps[k] == steps[m]).collect();
            // The piece's own cell counts: an arrow may be shot back into it.
            let third = (0..before.len()).find(|&i| {
                i != to
                    && afters[m][i] != before[i]
                    && !blank(&afters[m][i])
                    && others.iter().all(|&k| afters[k][i] != afters[m][i])
            });
            Some(PieceMove {
                from,
                to,
                third: if others.is_empty() { None } else { third },
            })
        })
        .collect()
}

/// The one move whose cell `i` differs from `before`, in a way no other
/// move's does.
fn only_change(before: &str, afters: &[&Vec<String>], i: usize) -> Option<usize> {
    let mut found = None;
    for (m, a) in afters.iter().enumerate() {
        let v = &a[i];
        if v == before || afters.iter().enumerate().any(|(k, b)| k != m && &b[i] == v) {
            continue;
        }
        if found.is_some() {
            return None;
        }
        found = Some(m);
    }
    found
}

/// For each pit of a row, the one move that leaves fewer in it (the pit
/// sown from); `None` when a board after a move has no such row.
fn pit_targets<'b>(
    before: &[String],
    after: &'b [Board],
    row: impl Fn(&'b Board) -> Option<&'b Vec<String>>,
) -> Option<Vec<Option<usize>>> {
    let rows: Vec<&Vec<String>> = after.iter().map(row).collect::<Option<_>>()?;
    if rows.iter().any(|r| r.len() != before.len()) {
        return None;
    }
    Some(
        (0..before.len())
            .map(|i| {
                let was: i64 = before[i].trim().parse().ok()?;
                let fewer: Vec<usize> = (0..rows.len())
                    .filter(|&m| rows[m][i].trim().parse::<i64>().is_ok_and(|n| n < was))
                    .collect();
                match fewer.as_slice() {
                    [one] => Some(*one),
                    _ => None,
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: usize, cols: usize, cells: &str) -> Board {
        Board::Grid {
            rows,
            cols,
            shift: false,
            cells: cells.chars().map(|c| c.to_string()).collect(),
        }
    }

    fn cells(v: &Value) -> Vec<Option<usize>> {
        serde_json::from_value(v["cells"].clone()).unwrap()
    }

    #[test]
    fn a_square_plays_the_move_that_marks_it() {
        // X to move on a 2x2 board with one O: three moves, one per empty square.
        let before = grid(2, 2, "O...");
        let after = [grid(2, 2, "OX.."), grid(2, 2, "O.X."), grid(2, 2, "O..X")];
        let map = targets(&before, &after, Click::Cells).unwrap();
        // The O is no move's, though one move alone changes its column.
        assert_eq!(cells(&map), [None, Some(0), Some(1), Some(2)]);
    }

    #[test]
    fn a_column_plays_the_one_move_that_drops_into_it() {
        // Connect four, 2 rows x 2 columns: column 0 has a disc at the bottom.
        let before = grid(2, 2, "..O.");
        let after = [grid(2, 2, "X.O."), grid(2, 2, "..OX")];
        let map = targets(&before, &after, Click::Cells).unwrap();
        assert_eq!(cells(&map), [Some(0), Some(1), None, Some(1)]);
    }

    fn pieces(v: &Value) -> Vec<Option<(usize, usize, Option<usize>)>> {
        v["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (!p.is_null()).then(|| {
                    let cell = |k: &str| p[k].as_u64().map(|n| n as usize);
                    (cell("from").unwrap(), cell("to").unwrap(), cell("third"))
                })
            })
            .collect()
    }

    #[test]
    fn a_piece_is_clicked_then_its_target_and_never_the_target_alone() {
        // A rook on a 1x4 row, and an enemy pawn at the end: moves a1-b1, a1-c1, a1xd1.
        let before = grid(1, 4, "R..p");
        let after = [grid(1, 4, ".R.p"), grid(1, 4, "..Rp"), grid(1, 4, "...R")];
        let map = targets(&before, &after, Click::Pieces).unwrap();
        assert_eq!(
            pieces(&map),
            [Some((0, 1, None)), Some((0, 2, None)), Some((0, 3, None))]
        );
        assert_eq!(cells(&map), [None; 4]);
    }

    #[test]
    fn castling_is_the_kings_step_and_a_promotion_is_chosen_from_a_list() {
        // K..R on a 2x4 board with a pawn about to promote on the second row.
        let before = grid(2, 4, "K..R.P..");
        let after = [
            grid(2, 4, ".RK..P.."), // castling: the king goes two, the rook over it
            grid(2, 4, "K.R..P.."), // a plain rook move
            grid(2, 4, "KQ.R...."), // the pawn promotes to a queen
            grid(2, 4, "KN.R...."), // or to a knight
        ];
        let map = targets(&before, &after, Click::Pieces).unwrap();
        assert_eq!(
            pieces(&map),
            [
                Some((0, 2, None)),
                Some((3, 2, None)),
                Some((5, 1, None)),
                Some((5, 1, None))
            ]
        );
    }

    #[test]
    fn an_arrow_is_a_third_click() {
        // Amazons on a 1x4 row: the queen goes to 1 and shoots to 0 or 2, or goes to 2 and shoots to 1.
        let before = grid(1, 4, "Q...");
        let after = [grid(1, 4, "#Q.."), grid(1, 4, ".Q#."), grid(1, 4, ".#Q.")];
        let map = targets(&before, &after, Click::Pieces).unwrap();
        assert_eq!(
            pieces(&map),
            [Some((0, 1, Some(0))), Some((0, 1, Some(2))), Some((0, 2, None))]
        );
    }

    #[test]
    fn a_pit_plays_the_move_that_sows_from_it() {
        let pits = |b: &[&str], t: &[&str]| Board::Pits {
            bottom: b.iter().map(|s| s.to_string()).collect(),
            top: Some(t.iter().map(|s| s.to_string()).collect()),
            left: Some("0".into()),
            right: Some("0".into()),
        };
        let before = pits(&["2", "2"], &["2", "2"]);
        // Sowing pit 0 fills pit 1 and the store; sowing pit 1, the store and a top pit.
        let after = [pits(&["0", "3"], &["2", "2"]), pits(&["2", "0"], &["2", "3"])];
        let map = targets(&before, &after, Click::Cells).unwrap();
        assert_eq!(map["bottom"], json!([0, 1]));
        assert_eq!(map["top"], json!([null, null]));
    }

    #[test]
    fn rows_of_objects_are_chosen_from_the_list() {
        let before = Board::Rows {
            rows: vec![("0".into(), 2, "|".into())],
        };
        assert!(targets(&before, std::slice::from_ref(&before), Click::Cells).is_none());
    }
}
