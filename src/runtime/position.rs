//! Reading a position typed by a person (`--from "[0, 2, 3, 1]; MIN to move"`),
//! in exactly the notation gdl prints positions in.

use std::collections::BTreeSet;

use miette::{Diagnostic, NamedSource, SourceSpan};
use thiserror::Error;

use super::{Interpreted, State};
use crate::error_kind::{EXIT_INPUT, Exits};
use crate::ir::{Layout, PREVIOUS_CELL, TURN_CELL};
use crate::value::{Value, store_value};

/// A position that could not be read, pointing at the place in the text.
#[derive(Debug, Error, Diagnostic)]
#[error("{message}")]
#[diagnostic(code(gdl::position))]
pub struct PositionError {
    message: String,
    #[source_code]
    text: NamedSource<String>,
    #[label("{label}")]
    span: SourceSpan,
    label: String,
    #[help]
    help: Option<String>,
}

/// A position typed by a person (`--from`) is input.
impl Exits for PositionError {
    fn exit_code(&self) -> i32 {
        EXIT_INPUT
    }
}

/// The longest list of copies (`[0; n]`) or range in a set a position may
/// write: a whole state holds at most this many cells.
const MAX_REPEAT: i64 = 1 << 16;

struct Reader<'t> {
    text: &'t str,
    pos: usize,
    /// Lists and sets open around the value being read.
    depth: usize,
}

/// The deepest a position's lists may nest: as deep as a type in a game
/// file may (`syntax::MAX_NESTING`). A million `[` (from Python, where no
/// command line bounds the text) is refused here, not followed until the
/// stack runs out.
const DEEPEST: usize = 200;

type R<T> = Result<T, (usize, usize, String)>;

impl Reader<'_> {
    fn skip_ws(&mut self) {
        while self.text[self.pos..].starts_with(char::is_whitespace) {
            self.pos += self.text[self.pos..].chars().next().map_or(1, char::len_utf8);
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.text[self.pos..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// Eats `s` (after white space) if the text goes on with it.
    fn eat_str(&mut self, s: &str) -> bool {
        self.skip_ws();
        if self.text[self.pos..].starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// A whole number, for a count or the end of a range.
    fn int(&mut self, players: &[String]) -> R<i64> {
        self.skip_ws();
        let start = self.pos;
        match self.value(players)? {
            Value::Int(n) => Ok(n),
            other => Err((start, self.pos, format!("expected a number, found a {}", other.kind()))),
        }
    }

    fn word(&mut self) -> &str {
        self.skip_ws();
        let start = self.pos;
        let rest = &self.text[start..];
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(rest.len());
        self.pos += len;
        &self.text[start..start + len]
    }

    /// A value: a number, `true`/`false`, a player, `[...]` or `{...}`.
    fn value(&mut self, players: &[String]) -> R<Value> {
        let start = {
            self.skip_ws();
            self.pos
        };
        if self.text[self.pos..].starts_with(['[', '{']) {
            if self.depth == DEEPEST {
                return Err((start, start + 1, format!("lists nest more than {DEEPEST} deep here")));
            }
            self.depth += 1;
            let v = self.collection(players, start);
            self.depth -= 1;
            return v;
        }
        self.scalar(players, start)
    }

    /// A list `[...]` or a set `{...}`, which begins at `start`.
    fn collection(&mut self, players: &[String], start: usize) -> R<Value> {
        if self.eat('[') {
            let mut items = Vec::new();
            if !self.eat(']') {
                loop {
                    items.push(self.value(players)?);
                    // `[0; 5]`, as the language writes a list of copies.
                    if items.len() == 1 && self.eat(';') {
                        let at = self.pos;
                        let n = self.int(players)?;
                        if !(0..=MAX_REPEAT).contains(&n) {
                            return Err((at, self.pos, format!("a list of {n} copies: at most {MAX_REPEAT}")));
                        }
                        items = vec![items[0].clone(); n as usize];
                        if !self.eat(']') {
                            return Err((self.pos, self.pos + 1, "expected `]`".into()));
                        }
                        break;
                    }
                    if self.eat(']') {
                        break;
                    }
                    if !self.eat(',') {
                        return Err((self.pos, self.pos + 1, "expected `,` or `]`".into()));
                    }
                }
            }
            return Ok(Value::List(items));
        }
        if self.eat('{') {
            let mut items = BTreeSet::new();
            if !self.eat('}') {
                loop {
                    let at = {
                        self.skip_ws();
                        self.pos
                    };
                    match self.value(players)? {
                        // `{0..24}` and `{1, 5..<9}`, as the language writes ranges.
                        Value::Int(lo) if self.text[self.pos..].trim_start().starts_with("..") => {
                            let exclusive = self.eat_str("..<") || !self.eat_str("..");
                            let hi = self.int(players)?;
                            let hi = if exclusive { hi.saturating_sub(1) } else { hi };
                            if hi >= lo && hi.abs_diff(lo) >= MAX_REPEAT as u64 {
                                return Err((at, self.pos, format!("the range {lo}..{hi} is too long for a set")));
                            }
                            items.extend(lo..=hi);
                        }
                        Value::Int(n) => {
                            items.insert(n);
                        }
                        _ => return Err((start, self.pos, "a set holds numbers".into())),
                    }
                    if self.eat('}') {
                        break;
                    }
                    if !self.eat(',') {
                        return Err((self.pos, self.pos + 1, "expected `,` or `}`".into()));
                    }
                }
            }
            return Ok(Value::Set(items));
        }
        Err((start, start + 1, "expected `[` or `{`".into()))
    }

    /// A number, `true`/`false` or a player, which begins at `start`.
    fn scalar(&mut self, players: &[String], start: usize) -> R<Value> {
        let w = self.word().to_string();
        let end = self.pos;
        if w.is_empty() {
            return Err((start, start + 1, "expected a value".into()));
        }
        if let Ok(n) = w.parse::<i64>() {
            return Ok(Value::Int(n));
        }
        match w.as_str() {
            "true" => return Ok(Value::Bool(true)),
            "false" => return Ok(Value::Bool(false)),
            _ => {}
        }
        if let Some(p) = players.iter().position(|p| *p == w) {
            return Ok(Value::Player(p));
        }
        Err((start, end, format!("`{w}` is not a value")))
    }
}

pub(super) fn parse(game: &Interpreted, text: &str) -> Result<State, PositionError> {
    let prog = game.program();
    let example = game.position(&game.initial_state_cells());
    let fail = |(start, end, message): (usize, usize, String)| {
        let end = end.max(start).min(text.len());
        let start = start.min(end);
        PositionError {
            label: "here".into(),
            message,
            text: NamedSource::new("--from", text.to_string()),
            span: (start, end - start).into(),
            help: Some(format!("write a position as gdl prints one, e.g. `{example}`")),
        }
    };
    let (state_part, turn_part) = match text.rfind(';') {
        Some(i) => (&text[..i], Some((i + 1, &text[i + 1..]))),
        None => (text, None),
    };
    let players = &prog.players;
    let mut cells = prog.initial.clone();
    // `chance to move`, as `solve` reports a chance node: whose turn it is
    // is found once the values are read.
    let mut chance_at = None;
    let turn = match turn_part {
        None => 0,
        Some((offset, t)) => {
            // `MIN to move`, however spaced: the words split on any white space.
            let words: Vec<&str> = t.split_whitespace().collect();
            let name = match words.as_slice() {
                [name @ .., "to", "move"] if !name.is_empty() => name.last().copied().filter(|_| name.len() == 1),
                [name] => Some(*name),
                _ => None,
            }
            .unwrap_or(t.trim());
            match players.iter().position(|p| p == name) {
                Some(p) => p,
                None if name == "chance" => {
                    chance_at = Some((offset + t.find(name).unwrap_or(0), offset + t.len()));
                    0
                }
                None => {
                    let at = offset + t.find(name).unwrap_or(0);
                    return Err(fail((
                        at,
                        at + name.len().max(1),
                        format!("`{name}` is not a player; the players are {}", players.join(", ")),
                    )));
                }
            }
        }
    };
    cells[TURN_CELL] = turn as i64;
    // As play leaves it: the player before, where a rule reads it.
    cells[PREVIOUS_CELL] = if game.keeps_previous() {
        ((turn + players.len() - 1) % players.len()) as i64
    } else {
        prog.initial[PREVIOUS_CELL]
    };

    let mut r = Reader {
        text: state_part,
        pos: 0,
        depth: 0,
    };
    let mut given: Vec<Option<Value>> = vec![None; prog.vars.len()];
    let mut next_var = 0;
    loop {
        if r.peek().is_none() {
            break;
        }
        let before = r.pos;
        // `name: value` or just `value`, in declaration order.
        let w = r.word().to_string();
        let index = if !w.is_empty() && r.eat(':') {
            match prog.vars.iter().position(|v| v.name == w) {
                Some(i) => i,
                None => {
                    let names: Vec<&str> = prog.vars.iter().map(|v| v.name.as_str()).collect();
                    return Err(fail((
                        before,
                        r.pos,
                        format!("the state has no `{w}`; it has {}", names.join(", ")),
                    )));
                }
            }
        } else {
            r.pos = before;
            next_var
        };
        if index >= prog.vars.len() {
            return Err(fail((
                before,
                state_part.len(),
                "more values than the state has".into(),
            )));
        }
        let start = {
            r.skip_ws();
            r.pos
        };
        let value = r.value(players).map_err(fail)?;
        let var = &prog.vars[index];
        let slot = &mut cells[var.offset..var.offset + var.layout.size()];
        let ok = fits(&var.layout, &value);
        if let Err(msg) = ok.and_then(|_| store_value(&var.layout, &value, slot)) {
            return Err(fail((start, r.pos, format!("`{}`: {msg}", var.name))));
        }
        given[index] = Some(value);
        next_var = index + 1;
        if r.peek().is_some() && !r.eat(',') {
            return Err(fail((r.pos, r.pos + 1, "expected `,` between values".into())));
        }
    }
    if let Some(missing) = given.iter().position(Option::is_none) {
        return Err(fail((
            0,
            state_part.len(),
            format!("the position does not give `{}`", prog.vars[missing].name),
        )));
    }
    let state = match chance_at {
        None => State::new(&cells),
        Some(at) => chance_turn(game, &cells, text, at).map_err(fail)?,
    };
    // Read right, the position must still be one the game can be in.
    match game.invariants_refuse(&state) {
        None => Ok(state),
        Some(message) => Err(PositionError {
            message,
            text: NamedSource::new("--from", text.to_string()),
            span: (0, text.len()).into(),
            label: "this position".into(),
            help: Some(format!(
                "a position gdl reads must be one that {} can be in: its invariants say which",
                prog.name
            )),
        }),
    }
}

/// The position `cells` with chance to move: the turn cell is whose turn it
/// is, which a position says by naming the player (`; A to move`, chance
/// moving where its move is legal). `chance to move` is read when exactly
/// one player's turn has chance move there.
fn chance_turn(game: &Interpreted, cells: &[i64], text: &str, at: (usize, usize)) -> R<State> {
    use crate::game::{Game, Turn};
    let players = &game.program().players;
    let with_turn = |p: usize| {
        let mut c = cells.to_vec();
        c[TURN_CELL] = p as i64;
        if game.keeps_previous() {
            c[PREVIOUS_CELL] = ((p + players.len() - 1) % players.len()) as i64;
        }
        State::new(&c)
    };
    let turns: Vec<usize> = (0..players.len())
        .filter(|&p| game.turn(&with_turn(p)).is_ok_and(|t| t == Turn::Chance))
        .collect();
    let (state_part, _) = text.rsplit_once(';').unwrap_or((text, ""));
    match turns.as_slice() {
        [p] => Ok(with_turn(*p)),
        [] => Err((
            at.0,
            at.1,
            "chance does not move in this position: no chance move is legal".into(),
        )),
        several => {
            let ways: Vec<String> = several
                .iter()
                .map(|&p| format!("`{}; {} to move`", state_part.trim(), players[p]))
                .collect();
            Err((
                at.0,
                at.1,
                format!(
                    "chance moves here in any player's turn, and what it does depends on whose turn it is: \
                     name the player whose turn it is, {}",
                    ways.join(" or ")
                ),
            ))
        }
    }
}

/// Checks the kinds of a value against a layout, with a message a person can act on.
fn fits(layout: &Layout, v: &Value) -> Result<(), String> {
    match (layout, v) {
        (Layout::Int, Value::Int(_)) | (Layout::Bool, Value::Bool(_)) | (Layout::Player, Value::Player(_)) => Ok(()),
        (Layout::Set { .. }, Value::Set(_)) => Ok(()),
        (Layout::List { elem, .. }, Value::List(items)) => items.iter().try_for_each(|i| fits(elem, i)),
        (Layout::Int, _) => Err(format!("expected a number, found a {}", v.kind())),
        (Layout::Bool, _) => Err(format!("expected true or false, found a {}", v.kind())),
        (Layout::Player, _) => Err(format!("expected a player, found a {}", v.kind())),
        (Layout::Set { .. }, _) => Err(format!("expected a set like {{1, 2}}, found a {}", v.kind())),
        (Layout::List { .. }, _) => Err(format!("expected a list like [1, 2], found a {}", v.kind())),
    }
}

impl Interpreted {
    fn initial_state_cells(&self) -> State {
        State::new(&self.program().initial)
    }
}
