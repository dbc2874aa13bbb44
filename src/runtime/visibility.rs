//! What each player sees (`hidden` and `private` state), and determinization:
//! drawing at random everything a player cannot see.

use rand::seq::SliceRandom;

use super::Interpreted;
use crate::ir::{Layout, TURN_CELL, Visibility};
use crate::value::{ShowValue, Value, load_value};

/// The cells a player cannot see: a hidden variable, or another player's entry
/// of a private one. Each is `(offset, layout)`.
fn unseen(game: &Interpreted, player: usize) -> Vec<(usize, &Layout)> {
    let mut out = Vec::new();
    for v in &game.program().vars {
        match (v.visibility, &v.layout) {
            (Visibility::Hidden, layout) => out.push((v.offset, layout)),
            (Visibility::Private, Layout::List { elem, cap }) => {
                for p in (0..*cap).filter(|&p| p != player) {
                    out.push((v.offset + 1 + p * elem.size(), &**elem));
                }
            }
            _ => {}
        }
    }
    out
}

/// The position as `player` sees it: what they cannot see is `?`.
pub(super) fn observation(game: &Interpreted, cells: &[i64], player: usize) -> String {
    let prog = game.program();
    let parts: Vec<String> = prog
        .vars
        .iter()
        .map(|v| format!("{}: {}", v.name, shown(game, cells, v, Some(player))))
        .collect();
    let who = prog
        .players
        .get(cells[TURN_CELL] as usize)
        .map_or("nobody", String::as_str);
    format!("{}; {who} to move", parts.join(", "))
}

/// The state field by field, as `viewer` sees it, for people to read: hidden
/// fields are left out and other players' private entries are `?`. `None`
/// sees everything (a spectator of a trace).
pub(super) fn view(game: &Interpreted, cells: &[i64], viewer: Option<usize>) -> Vec<(String, String)> {
    game.program()
        .vars
        .iter()
        .filter(|v| viewer.is_none() || v.visibility != Visibility::Hidden)
        .map(|v| (v.name.clone(), shown(game, cells, v, viewer)))
        .collect()
}

/// One variable's value as `viewer` may see it (`None`: everything).
fn shown(game: &Interpreted, cells: &[i64], v: &crate::ir::Var, viewer: Option<usize>) -> String {
    let players = &game.program().players;
    let value = |l: &Layout, at: usize| ShowValue(&load_value(l, &cells[at..at + l.size()]), players).to_string();
    let Some(player) = viewer else {
        return value(&v.layout, v.offset);
    };
    match (v.visibility, &v.layout) {
        (Visibility::Public, l) => value(l, v.offset),
        (Visibility::Hidden, _) => "?".to_string(),
        (Visibility::Private, Layout::List { elem, cap }) => {
            let entries: Vec<String> = (0..*cap)
                .map(|p| {
                    if p == player {
                        value(elem, v.offset + 1 + p * elem.size())
                    } else {
                        "?".to_string()
                    }
                })
                .collect();
            format!("[{}]", entries.join(", "))
        }
        (Visibility::Private, _) => "?".to_string(),
    }
}

/// A copy of `cells` in which every set or list `player` cannot see holds a
/// random draw from the elements of all of them together, each keeping its
/// size: the cards in the deck and in the other hands, dealt again; so does
/// an unseen `int` holding a card (a value a set among them could hold).
pub(super) fn sample_hidden(game: &Interpreted, cells: &[i64], player: usize, rng: &mut dyn rand::RngCore) -> Vec<i64> {
    let slots = unseen(game, player);
    // A card held in an `int` (Kuhn poker's) is dealt again with the others
    // when its value is one a set of them could hold; any other value (0
    // for "none dealt yet") is no card and stays.
    let ranges: Vec<(i64, i64)> = slots
        .iter()
        .filter_map(|(_, l)| match l {
            Layout::Set { lo, hi } => Some((*lo, *hi)),
            _ => None,
        })
        .collect();
    let is_card = |n: i64| ranges.iter().any(|&(lo, hi)| lo <= n && n <= hi);
    let mut pool = Vec::new();
    let mut sizes = Vec::new();
    for &(offset, layout) in &slots {
        let items = match load_value(layout, &cells[offset..offset + layout.size()]) {
            Value::Set(s) => s.into_iter().collect::<Vec<_>>(),
            Value::Int(n) if *layout == Layout::Int && is_card(n) => vec![n],
            Value::List(items) => items
                .into_iter()
                .filter_map(|v| if let Value::Int(n) = v { Some(n) } else { None })
                .collect(),
            _ => Vec::new(),
        };
        sizes.push(items.len());
        pool.extend(items);
    }
    pool.shuffle(rng);
    let mut out = cells.to_vec();
    let mut next = 0;
    for (&(offset, layout), &size) in slots.iter().zip(&sizes) {
        let drawn = &pool[next..next + size];
        next += size;
        let value = match layout {
            Layout::Set { .. } => Value::Set(drawn.iter().copied().collect()),
            Layout::List { elem, .. } if **elem == Layout::Int => {
                Value::List(drawn.iter().map(|&n| Value::Int(n)).collect())
            }
            Layout::Int if size == 1 => Value::Int(drawn[0]),
            _ => continue,
        };
        // Elements outside a set's range cannot be dealt into it: keep the truth.
        if crate::value::store_value(layout, &value, &mut out[offset..offset + layout.size()]).is_err() {
            return cells.to_vec();
        }
    }
    out
}
