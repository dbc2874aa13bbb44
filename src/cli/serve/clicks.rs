//! Where a click on the board plays a move. The display says how a position
//! looks, not which move a cell stands for; so each legal move is played
//! aside and the boards compared. A cell plays the one move that changes it
//! in a way no other move does (tic-tac-toe's square, Othello's new disc);
//! a grid column none of whose cells says otherwise plays the one move that
//! changes that column (connect four: a click anywhere in it); a pit plays
//! the one move that takes seeds out of it (Kalah's sowing). Anything else
//! is chosen from the list of moves.

use serde_json::{Value, json};

use crate::board::Board;

/// For each cell (a grid's, in row order) or pit (`bottom` and `top`), the
/// index of the move a click on it plays, or null; `None` when no click
/// maps to a move.
pub(super) fn targets(before: &Board, after: &[Board]) -> Option<Value> {
    match before {
        Board::Grid { rows, cols, cells, .. } => {
            let afters: Vec<&Vec<String>> = after
                .iter()
                .map(|a| match a {
                    Board::Grid { cells: c, .. } if c.len() == cells.len() => Some(c),
                    _ => None,
                })
                .collect::<Option<_>>()?;
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
            map.iter().any(Option::is_some).then(|| json!({ "cells": map }))
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
        let map = targets(&before, &after).unwrap();
        // The O is no move's, though one move alone changes its column.
        assert_eq!(cells(&map), [None, Some(0), Some(1), Some(2)]);
    }

    #[test]
    fn a_column_plays_the_one_move_that_drops_into_it() {
        // Connect four, 2 rows x 2 columns: column 0 has a disc at the bottom.
        let before = grid(2, 2, "..O.");
        let after = [grid(2, 2, "X.O."), grid(2, 2, "..OX")];
        let map = targets(&before, &after).unwrap();
        assert_eq!(cells(&map), [Some(0), Some(1), None, Some(1)]);
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
        let map = targets(&before, &after).unwrap();
        assert_eq!(map["bottom"], json!([0, 1]));
        assert_eq!(map["top"], json!([null, null]));
    }

    #[test]
    fn rows_of_objects_are_chosen_from_the_list() {
        let before = Board::Rows {
            rows: vec![("0".into(), 2, "|".into())],
        };
        assert!(targets(&before, std::slice::from_ref(&before)).is_none());
    }
}
