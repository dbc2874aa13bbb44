//! What each player sees (`hidden` and `private` state), and determinization:
//! drawing at random everything a player cannot see.

use std::fmt;

use rand::seq::SliceRandom;

use super::Interpreted;
use crate::ir::{Layout, TURN_CELL, Visibility};
use smallvec::SmallVec;

use crate::value::{ShowValue, load_value};

/// The cells a player cannot see: a hidden variable, or another player's entry
/// of a private one. Each is `(offset, layout)`.
fn unseen<'g>(game: &'g Interpreted, player: usize, out: &mut impl Extend<(usize, &'g Layout)>) {
    for v in &game.program().vars {
        match (v.visibility, &v.layout) {
            (Visibility::Hidden, layout) => out.extend([(v.offset, layout)]),
            (Visibility::Private, Layout::List { elem, cap }) => {
                for p in (0..*cap).filter(|&p| p != player) {
                    out.extend([(v.offset + 1 + p * elem.size(), &**elem)]);
                }
            }
            _ => {}
        }
    }
}

/// The position as `player` sees it: what they cannot see is `?`.
pub(super) fn observation(game: &Interpreted, cells: &[i64], player: usize) -> String {
    let mut text = String::new();
    write_observation(game, cells, player, &mut text);
    text
}

/// A hash of [`observation`]'s text, written into the hasher without the
/// text being built (value iteration observes every position it explores).
pub(super) fn observation_hash(game: &Interpreted, cells: &[i64], player: usize) -> u64 {
    use std::hash::{Hash, Hasher};
    /// Hashes what is written, as `[u8]::hash` hashes the whole text.
    struct Writer {
        hasher: rustc_hash::FxHasher,
        len: usize,
    }
    impl fmt::Write for Writer {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.hasher.write(s.as_bytes());
            self.len += s.len();
            Ok(())
        }
    }
    let mut w = Writer {
        hasher: rustc_hash::FxHasher::default(),
        len: 0,
    };
    write_observation(game, cells, player, &mut w);
    // The length last: two texts whose bytes run together alike still differ.
    w.len.hash(&mut w.hasher);
    w.hasher.finish()
}

fn write_observation(game: &Interpreted, cells: &[i64], player: usize, out: &mut impl fmt::Write) {
    let prog = game.program();
    for (i, v) in prog.vars.iter().enumerate() {
        let sep = if i == 0 { "" } else { ", " };
        let _ = write!(out, "{sep}{}: ", v.name);
        write_shown(game, cells, v, Some(player), out);
    }
    let who = prog
        .players
        .get(cells[TURN_CELL] as usize)
        .map_or("nobody", String::as_str);
    let _ = write!(out, "; {who} to move");
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

/// A field's value as a player may see it: whole, or (a private field)
/// each player's entry, `None` where it is another's.
#[derive(Clone, Debug, PartialEq)]
pub enum Seen {
    Whole(crate::value::Value),
    Each(Vec<Option<crate::value::Value>>),
}

/// The state field by field as `viewer` sees it, as values (for the page):
/// hidden fields left out; `None` sees everything.
pub(super) fn seen(game: &Interpreted, cells: &[i64], viewer: Option<usize>) -> Vec<(String, Seen)> {
    let load = |l: &Layout, at: usize| load_value(l, &cells[at..at + l.size()]);
    game.program()
        .vars
        .iter()
        .filter(|v| viewer.is_none() || v.visibility != Visibility::Hidden)
        .filter_map(|v| {
            let value = match (viewer, v.visibility, &v.layout) {
                (None, ..) | (_, Visibility::Public, _) => Seen::Whole(load(&v.layout, v.offset)),
                (Some(me), Visibility::Private, Layout::List { elem, cap }) => Seen::Each(
                    (0..*cap)
                        .map(|p| (p == me).then(|| load(elem, v.offset + 1 + p * elem.size())))
                        .collect(),
                ),
                _ => return None,
            };
            Some((v.name.clone(), value))
        })
        .collect()
}

/// One variable's value as `viewer` may see it (`None`: everything).
fn shown(game: &Interpreted, cells: &[i64], v: &crate::ir::Var, viewer: Option<usize>) -> String {
    let mut text = String::new();
    write_shown(game, cells, v, viewer, &mut text);
    text
}

fn write_shown(
    game: &Interpreted,
    cells: &[i64],
    v: &crate::ir::Var,
    viewer: Option<usize>,
    out: &mut impl fmt::Write,
) {
    let players = &game.program().players;
    let value = |l: &Layout, at: usize, out: &mut dyn fmt::Write| {
        let _ = write!(out, "{}", ShowValue(&load_value(l, &cells[at..at + l.size()]), players));
    };
    let Some(player) = viewer else {
        return value(&v.layout, v.offset, out);
    };
    match (v.visibility, &v.layout) {
        (Visibility::Public, l) => value(l, v.offset, out),
        (Visibility::Private, Layout::List { elem, cap }) => {
            let _ = out.write_str("[");
            for p in 0..*cap {
                if p > 0 {
                    let _ = out.write_str(", ");
                }
                if p == player {
                    value(elem, v.offset + 1 + p * elem.size(), out);
                } else {
                    let _ = out.write_str("?");
                }
            }
            let _ = out.write_str("]");
        }
        (Visibility::Hidden | Visibility::Private, _) => {
            let _ = out.write_str("?");
        }
    }
}

/// A copy of `cells` in which every set or list `player` cannot see holds a
/// random draw from the elements of all of them together, each keeping its
/// size: the cards in the deck and in the other hands, dealt again; so does
/// an unseen `int` holding a card (a value a set among them could hold).
///
/// Determinized searches call this once per simulation, so it works on the
/// cells in place, with the pool on the stack: no `Value`s, no sets built
/// (those were 15% of an X Nimmt! MCTS decision). The draw is the same as
/// loading each value and shuffling their elements, ascending, in order.
pub(super) fn sample_hidden(game: &Interpreted, cells: &mut [i64], player: usize, rng: &mut dyn rand::RngCore) {
    type Stack<T> = SmallVec<[T; 64]>;
    let mut slots: SmallVec<[(usize, &Layout); 16]> = SmallVec::new();
    unseen(game, player, &mut slots);
    // A card held in an `int` (Kuhn poker's) is dealt again with the others
    // when its value is one a set of them could hold; any other value (0
    // for "none dealt yet") is no card and stays.
    let is_card = |n: i64| {
        slots
            .iter()
            .any(|(_, l)| matches!(l, Layout::Set { lo, hi } if *lo <= n && n <= *hi))
    };
    let mut pool: Stack<i64> = SmallVec::new();
    let mut sizes: SmallVec<[usize; 16]> = SmallVec::new();
    for &(offset, layout) in &slots {
        let before = pool.len();
        let at = &cells[offset..offset + layout.size()];
        match layout {
            Layout::Set { lo, hi } => {
                for n in *lo..=*hi {
                    let bit = (n - lo) as usize;
                    if at[bit / 64] >> (bit % 64) & 1 == 1 {
                        pool.push(n);
                    }
                }
            }
            Layout::Int if is_card(at[0]) => pool.push(at[0]),
            // Only a list of `int`s holds cards.
            Layout::List { elem, cap } if **elem == Layout::Int => {
                let len = (at[0].max(0) as usize).min(*cap);
                pool.extend_from_slice(&at[1..1 + len]);
            }
            _ => {}
        }
        sizes.push(pool.len() - before);
    }
    pool.shuffle(rng);
    let original: Stack<i64> = SmallVec::from_slice(cells);
    let mut next = 0;
    for (&(offset, layout), &size) in slots.iter().zip(&sizes) {
        let drawn = &pool[next..next + size];
        next += size;
        let at = &mut cells[offset..offset + layout.size()];
        match layout {
            Layout::Set { lo, hi } => {
                // Elements outside a set's range cannot be dealt into it: keep the truth.
                if drawn.iter().any(|n| n < lo || n > hi) {
                    cells.copy_from_slice(&original);
                    return;
                }
                at.fill(0);
                for &n in drawn {
                    let bit = (n - lo) as usize;
                    at[bit / 64] |= 1 << (bit % 64);
                }
            }
            Layout::List { elem, .. } if **elem == Layout::Int => {
                at.fill(0);
                at[0] = size as i64;
                at[1..1 + size].copy_from_slice(drawn);
            }
            Layout::Int if size == 1 => at[0] = drawn[0],
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    use rand::seq::{IndexedRandom, SliceRandom};

    use super::*;
    use crate::game::{Game, Turn};
    use crate::value::{Value, store_value};

    /// The draw as it was first written, through `Value`s: load each unseen
    /// value, shuffle all their elements, store them back by size.
    fn by_values(game: &Interpreted, cells: &[i64], player: usize, rng: &mut dyn rand::RngCore) -> Vec<i64> {
        let mut slots = Vec::new();
        unseen(game, player, &mut slots);
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
            if store_value(layout, &value, &mut out[offset..offset + layout.size()]).is_err() {
                return cells.to_vec();
            }
        }
        out
    }

    fn load(file: &str, bindings: &[(&str, &str)]) -> Interpreted {
        let path = format!("{}/games/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let b: Vec<(String, String)> = bindings.iter().map(|(a, v)| (a.to_string(), v.to_string())).collect();
        Interpreted::new(crate::compile::load(&path, &text, &b).unwrap())
    }

    #[test]
    fn the_draw_in_place_is_the_draw_through_values() {
        // Sets (X Nimmt!'s deck and hands), cards in `int`s (Kuhn poker),
        // three players: at every position of random games, for every
        // player, the same seed draws the same world both ways.
        let games = [
            load("xnimmt.game", &[]),
            load("xnimmt.game", &[("P", "3"), ("K", "18")]),
            load("kuhn-poker.game", &[]),
        ];
        let mut rng = StdRng::seed_from_u64(7);
        let mut moves = Vec::new();
        for game in &games {
            for _ in 0..20 {
                let mut s = game.initial_state().unwrap();
                loop {
                    let cells = s.cells();
                    for p in 0..game.num_players() {
                        let seed = rand::Rng::random::<u64>(&mut rng);
                        let want = by_values(game, &cells, p, &mut StdRng::seed_from_u64(seed));
                        let mut got = cells.clone();
                        sample_hidden(game, &mut got, p, &mut StdRng::seed_from_u64(seed));
                        assert_eq!(got, want, "{}", game.position(&s));
                    }
                    match game.turn(&s).unwrap() {
                        Turn::Terminal => break,
                        Turn::Simultaneous => {
                            let mut joint = Vec::new();
                            for p in 0..game.num_players() {
                                game.legal_moves_of(&s, p, &mut moves).unwrap();
                                joint.push(*moves.choose(&mut rng).unwrap());
                            }
                            game.apply_joint(&mut s, &joint).unwrap();
                        }
                        Turn::Chance => {
                            let mut outcomes = Vec::new();
                            game.chance_outcomes(&s, &mut outcomes).unwrap();
                            let mv = outcomes.choose(&mut rng).unwrap().0;
                            game.apply(&mut s, &mv).unwrap();
                        }
                        Turn::Player(_) => {
                            game.legal_moves(&s, &mut moves).unwrap();
                            let mv = *moves.choose(&mut rng).unwrap();
                            game.apply(&mut s, &mv).unwrap();
                        }
                    }
                }
            }
        }
    }
}
