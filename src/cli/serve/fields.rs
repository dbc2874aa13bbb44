//! A display of fields (`display fields()`) as the page gets it: each state
//! field as the viewer may see it, its value as JSON for the cards the page
//! draws, and as the text it shows otherwise: values named where the
//! display names them (`names actions "pass", "bet"`: `pass, bet`), a field
//! `per player` as each player's name and entry (`First 4, Second 2`).

use serde_json::{Value, json};

use crate::game::Player;
use crate::ir;
use crate::runtime::{Interpreted, Seen, State};
use crate::value::Value as V;

/// The state's fields as `viewer` sees them (`None`: all of them): each its
/// name, whether it is drawn as cards, whether it holds one entry per
/// player, its value as JSON (a number, a list; another player's private
/// entry `null`), the names of its values if the display gives them
/// (`names`), and the text the page shows for it (a card's value by its
/// symbol).
pub(super) fn fields_json(game: &Interpreted, state: &State, viewer: Option<Player>, d: &ir::Display) -> Value {
    let players = &game.program().players;
    let list: Vec<Value> = game
        .seen(state, viewer)
        .into_iter()
        .map(|(name, seen)| {
            let cards = d.look.cards.contains(&name);
            let own = d.look.names.iter().find(|(f, _)| *f == name).map(|(_, n)| n.as_slice());
            // A card's value is named by the symbols unless the field names its own.
            let names = own.or((cards && !d.symbols.is_empty()).then_some(d.symbols.as_slice()));
            // A private field is seen entry by entry; a public one declared
            // `per player` is one entry per player too.
            let entries: Vec<Option<V>> = match seen {
                Seen::Each(items) => items,
                Seen::Whole(V::List(items)) if d.look.each.contains(&name) => items.into_iter().map(Some).collect(),
                Seen::Whole(v) => {
                    let text = text(&v, names, players, true);
                    return json!({"name": name, "cards": cards, "each": false, "value": json_of(&v, players),
                                  "names": own, "text": text});
                }
            };
            let value: Vec<Value> = entries
                .iter()
                .map(|x| x.as_ref().map_or(Value::Null, |x| json_of(x, players)))
                .collect();
            let text: Vec<String> = entries
                .iter()
                .enumerate()
                .map(|(p, x)| {
                    let who = players.get(p).cloned().unwrap_or_else(|| p.to_string());
                    // Another player's private entry, as the cards draw it face down.
                    let what = x.as_ref().map_or("?".to_string(), |x| text(x, names, players, false));
                    format!("{who} {what}")
                })
                .collect();
            json!({"name": name, "cards": cards, "each": true, "value": value, "names": own,
                   "text": text.join(", ")})
        })
        .collect();
    json!({"fields": list, "symbols": d.symbols, "players": players})
}

/// A value as JSON: a number, a list; a player by name.
fn json_of(v: &V, players: &[String]) -> Value {
    match v {
        V::Int(n) => json!(n),
        V::Bool(b) => json!(b),
        V::Player(p) => json!(players.get(*p).cloned().unwrap_or_else(|| p.to_string())),
        V::List(items) => Value::Array(items.iter().map(|x| json_of(x, players)).collect()),
        V::Set(items) => json!(items),
        V::Range(lo, hi) => json!(format!("{lo}..{hi}")),
    }
}

/// A value as the page shows it: an int by its name where `names` has one
/// (else its number), a player by name; at the `top`, a list or set as its
/// elements (`pass, bet`, an empty one `—`), inside another in brackets.
fn text(v: &V, names: Option<&[String]>, players: &[String], top: bool) -> String {
    let int = |n: i64| {
        usize::try_from(n)
            .ok()
            .and_then(|i| names?.get(i).cloned())
            .unwrap_or_else(|| n.to_string())
    };
    let (items, open, close): (Vec<String>, _, _) = match v {
        V::Int(n) => return int(*n),
        V::Bool(b) => return b.to_string(),
        V::Player(p) => return players.get(*p).cloned().unwrap_or_else(|| p.to_string()),
        V::Range(lo, hi) => return format!("{lo}..{hi}"),
        V::List(items) => (items.iter().map(|x| text(x, names, players, false)).collect(), "[", "]"),
        V::Set(items) => (items.iter().map(|&n| int(n)).collect(), "{", "}"),
    };
    match (top, items.is_empty()) {
        (true, true) => "—".to_string(),
        (true, false) => items.join(", "),
        (false, _) => format!("{open}{}{close}", items.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn values_are_shown_by_their_names_and_the_rest_as_numbers() {
        let players = names(&["First", "Second"]);
        let said = names(&["pass", "bet"]);
        let actions = V::List(vec![V::Int(0), V::Int(1), V::Int(0)]);
        assert_eq!(text(&actions, Some(&said), &players, true), "pass, bet, pass");
        // A value past the names, or below 0, keeps its number.
        let odd = V::List(vec![V::Int(2), V::Int(-1)]);
        assert_eq!(text(&odd, Some(&said), &players, true), "2, -1");
        assert_eq!(text(&actions, None, &players, true), "0, 1, 0");
        assert_eq!(text(&V::List(vec![]), Some(&said), &players, true), "—");
        let nested = V::List(vec![V::List(vec![V::Int(1)]), V::Set([0, 1].into())]);
        assert_eq!(text(&nested, Some(&said), &players, true), "[bet], {pass, bet}");
        assert_eq!(text(&V::Player(1), None, &players, true), "Second");
    }

    #[test]
    fn a_card_is_named_by_its_symbol_and_a_field_by_its_own_names() {
        let text = "game G\nplayers A, B\nstate top: int = 2\nstate said: per player int = 1\n\
                    state calls: list<int, 3> = [1, 0]\nmove go() { top = 1 }\nend when top == 1 { winner A }\n\
                    display fields() {\n cards top\n symbols \"\", \"J\", \"Q\"\n names said \"no\", \"yes\"\n}\n";
        let game = Interpreted::new(crate::compile::load("g.game", text, &[]).unwrap());
        let d = game.program().display.clone().unwrap();
        let json = fields_json(&game, &game.initial_state().unwrap(), None, &d);
        let field = |n: &str| {
            json["fields"]
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["name"] == n)
                .unwrap()
                .clone()
        };
        assert_eq!(field("top")["text"], "Q");
        // The symbols are the cards', not names the field gives itself.
        assert!(field("top")["names"].is_null());
        assert_eq!(field("said")["text"], "A yes, B yes");
        assert_eq!(field("said")["names"], json!(["no", "yes"]));
        assert_eq!(field("calls")["text"], "1, 0");
    }
}
