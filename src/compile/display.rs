//! The `display` block checked: its layout, sizes and parts against what
//! the layout takes, and how a page draws it (`style`, `colours`, `click`).
//! Methods of the one `Compiler`, kept apart from the rules' checks.

use super::{CompileError, CompileKind, Compiler};
use crate::board::{Click, Look, Style, is_colour};
use crate::ir;
use crate::syntax::ast;

impl Compiler<'_> {
    /// The `display` block, checked against its layout: the sizes it takes,
    /// the parts it knows and needs. Its functions were lowered with the others.
    pub(super) fn check_display(&mut self) -> Option<ir::Display> {
        let file = self.file;
        let first = file.displays.first()?;
        for again in &file.displays[1..] {
            self.error(
                CompileError::new(
                    CompileKind::Display,
                    "the game has two displays",
                    again.layout.span,
                    "a second display",
                )
                .with_note(first.layout.span, "the first display")
                .with_help("a game is drawn one way: keep one `display` block"),
            );
        }
        let layouts = || {
            ir::DisplayLayout::ALL
                .iter()
                .map(|l| format!("{}({})", l.name(), l.sizes().join(", ")))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let Some(&layout) = ir::DisplayLayout::ALL.iter().find(|l| l.name() == first.layout.name) else {
            self.error(
                CompileError::new(
                    CompileKind::Display,
                    format!("there is no display layout `{}`", first.layout.name),
                    first.layout.span,
                    "not a layout",
                )
                .with_help(format!("a display is one of: {}", layouts())),
            );
            return None;
        };
        let mut ok = true;
        let want = layout.sizes();
        if first.sizes.len() != want.len() {
            ok = false;
            let at = first
                .sizes
                .first()
                .map_or(first.layout.span, |s| s.to(*first.sizes.last().unwrap()));
            self.error(
                CompileError::new(
                    CompileKind::Display,
                    format!(
                        "a {} display takes {} size{}, not {}",
                        layout.name(),
                        want.len(),
                        if want.len() == 1 { "" } else { "s" },
                        first.sizes.len()
                    ),
                    at,
                    "the sizes",
                )
                .with_help(format!("write it {}({})", layout.name(), want.join(", "))),
            );
        }
        let known = layout.parts();
        let all_parts = || {
            known
                .iter()
                .map(|(n, a, _)| ir::DisplayLayout::part_example(n, *a))
                .collect::<Vec<_>>()
                .join(", ")
        };
        for part in &first.parts {
            match known.iter().find(|(n, _, _)| *n == part.name.name) {
                None => {
                    ok = false;
                    self.error(
                        CompileError::new(
                            CompileKind::Display,
                            format!("a {} display has no part `{}`", layout.name(), part.name.name),
                            part.name.span,
                            "not a part of this layout",
                        )
                        .with_help(format!("its parts are: {}", all_parts())),
                    );
                }
                Some((n, arity, _)) if *arity != part.arity => {
                    ok = false;
                    self.error(
                        CompileError::new(
                            CompileKind::Display,
                            format!(
                                "the display's `{n}` takes {arity} argument{}, not {}",
                                if *arity == 1 { "" } else { "s" },
                                part.arity
                            ),
                            part.name.span,
                            "here",
                        )
                        .with_help(format!("write it {}", ir::DisplayLayout::part_example(n, *arity))),
                    );
                }
                Some(_) => {}
            }
        }
        for (n, arity, needed) in known {
            if *needed && !first.parts.iter().any(|p| p.name.name == *n) {
                ok = false;
                self.error(
                    CompileError::new(
                        CompileKind::Display,
                        format!("a {} display needs its `{n}`", layout.name()),
                        first.layout.span,
                        format!("no `{n}` in this display"),
                    )
                    .with_help(format!(
                        "add `{} = ...`: an int, drawn as its symbol",
                        ir::DisplayLayout::part_example(n, *arity)
                    )),
                );
            }
        }
        let look = self.display_look(first, layout);
        if !ok {
            return None;
        }
        let look = look?;
        let index = |name: &str| self.fn_sigs.get(name).map(|s| s.index);
        Some(ir::Display {
            layout,
            sizes: (0..want.len())
                .map(|i| index(&ast::display_size_name(i)))
                .collect::<Option<Vec<_>>>()?,
            parts: known.iter().map(|(n, _, _)| index(&ast::display_fn_name(n))).collect(),
            symbols: first.symbols.iter().map(|(s, _)| s.clone()).collect(),
            look,
            span: first.span,
        })
    }

    /// The display's `style` and `colours`, checked: a style the page knows,
    /// on a layout it fits (a grid's), and a colour for at most each symbol.
    fn display_look(&mut self, d: &ast::DisplayDecl, layout: ir::DisplayLayout) -> Option<Look> {
        let mut ok = true;
        let mut look = Look::default();
        if let Some(name) = &d.style {
            match Style::named(&name.name) {
                Some(style) if style.fits(layout == ir::DisplayLayout::Grid, layout == ir::DisplayLayout::Rhombus) => {
                    look.style = style
                }
                Some(style) => {
                    ok = false;
                    let draws = if style == Style::Hex { "rhombus" } else { "grid" };
                    self.error(
                        CompileError::new(
                            CompileKind::Display,
                            format!(
                                "the style `{}` draws a {draws}, not a {} display",
                                name.name,
                                layout.name()
                            ),
                            name.span,
                            "not for this layout",
                        )
                        .with_help(format!("write the display {draws}(ROWS, COLS), or leave the style out")),
                    );
                }
                None => {
                    ok = false;
                    let styles: Vec<&str> = Style::ALL.iter().map(|s| s.name()).collect();
                    self.error(
                        CompileError::new(
                            CompileKind::Display,
                            format!("there is no display style `{}`", name.name),
                            name.span,
                            "not a style",
                        )
                        .with_help(format!("a style is one of: {}", styles.join(", "))),
                    );
                }
            }
        }
        if let Some(name) = &d.click {
            match Click::ALL.iter().find(|c| c.name() == name.name) {
                Some(&click) if layout == ir::DisplayLayout::Grid || click == Click::Cells => look.click = click,
                found => {
                    ok = false;
                    let clicks: Vec<&str> = Click::ALL.iter().map(|c| c.name()).collect();
                    let (message, label, help) = match found {
                        Some(_) => (
                            format!("`click {}` is for a grid, not a {} display", name.name, layout.name()),
                            "not for this layout",
                            "write the display grid(ROWS, COLS), or leave the click out".to_string(),
                        ),
                        None => (
                            format!("there is no `click {}`", name.name),
                            "not a kind of click",
                            format!("a click is one of: {}", clicks.join(", ")),
                        ),
                    };
                    self.error(CompileError::new(CompileKind::Display, message, name.span, label).with_help(help));
                }
            }
        }
        if d.colours.len() > d.symbols.len().max(1) {
            ok = false;
            let (_, at) = &d.colours[d.symbols.len().max(1)];
            self.error(
                CompileError::new(
                    CompileKind::Display,
                    format!(
                        "the display has {} colours for {} symbols",
                        d.colours.len(),
                        d.symbols.len()
                    ),
                    *at,
                    "a colour for no symbol",
                )
                .with_help("give one colour for each symbol, in the order of `symbols`"),
            );
        }
        for (colour, at) in &d.colours {
            if !colour.is_empty() && !is_colour(colour) {
                ok = false;
                self.error(
                    CompileError::new(
                        CompileKind::Display,
                        format!("`{colour}` is not a colour"),
                        *at,
                        "not a colour",
                    )
                    .with_help("write a colour name (\"red\"), a hex colour (\"#c0392b\"), or \"\" for the page's own"),
                );
            }
        }
        look.colours = d.colours.iter().map(|(c, _)| c.clone()).collect();
        ok &= self.display_cards(d, &mut look);
        ok &= self.display_sides(d, layout, &mut look);
        ok &= self.display_names(d, layout, &mut look);
        // The type says which fields hold one entry per player.
        look.each = self
            .file
            .states
            .iter()
            .filter(|v| matches!(v.ty, ast::TypeExpr::PerPlayer(..)))
            .map(|v| v.name.name.clone())
            .collect();
        ok.then_some(look)
    }

    /// `cards FIELD, ...`: each a state field of numbers (an int, a set, a
    /// list, one per player), named once.
    fn display_cards(&mut self, d: &ast::DisplayDecl, look: &mut Look) -> bool {
        if self.vars.is_empty() && !self.errors.is_empty() {
            // An earlier error (a parameter's `require`) stopped the state's
            // layout: its fields are unknown, not missing.
            return false;
        }
        let mut ok = true;
        for (k, name) in d.cards.iter().enumerate() {
            let numbers = |l: &ir::Layout| -> bool {
                fn of(l: &ir::Layout) -> bool {
                    match l {
                        ir::Layout::Int | ir::Layout::Set { .. } => true,
                        ir::Layout::List { elem, .. } => of(elem),
                        _ => false,
                    }
                }
                of(l)
            };
            let (message, label, help) = match self.vars.get(&name.name) {
                None => {
                    let fields: Vec<&str> = self.vars.keys().map(String::as_str).collect();
                    (
                        format!("the display's `cards` names `{}`, which is no state field", name.name),
                        "not a state field",
                        format!("the state's fields are: {}", fields.join(", ")),
                    )
                }
                Some(v) if !numbers(&v.layout) => (
                    format!("`{}` holds no numbers to draw as cards", name.name),
                    "not numbers",
                    "name a field that is an int, a set or a list of them (one per player, too)".to_string(),
                ),
                Some(_) if d.cards[..k].iter().any(|c| c.name == name.name) => (
                    format!("the display's `cards` names `{}` twice", name.name),
                    "again",
                    "name each field once".to_string(),
                ),
                Some(_) => {
                    look.cards.push(name.name.clone());
                    continue;
                }
            };
            ok = false;
            self.error(CompileError::new(CompileKind::Display, message, name.span, label).with_help(help));
        }
        ok
    }

    /// `sides A, B`: two players, on a rhombus or pits, the board's sides.
    fn display_sides(&mut self, d: &ast::DisplayDecl, layout: ir::DisplayLayout, look: &mut Look) -> bool {
        let Some(first) = d.sides.first() else {
            return true;
        };
        let players: Vec<String> = self.players.keys().cloned().collect();
        let fits = matches!(layout, ir::DisplayLayout::Rhombus | ir::DisplayLayout::Pits);
        let problem = if !fits {
            Some((
                format!("`sides` is for a rhombus or pits, not a {} display", layout.name()),
                first.span,
                "not for this layout",
                "leave `sides` out: a grid's players are told apart by their colours".to_string(),
            ))
        } else if let Some(stranger) = d.sides.iter().find(|s| !self.players.contains_key(&s.name)) {
            Some((
                format!("`{}` is not a player of this game", stranger.name),
                stranger.span,
                "not a player",
                format!("the players are: {}", players.join(", ")),
            ))
        } else if d.sides.len() != 2 || d.sides[0].name == d.sides[1].name {
            let last = d.sides.last().unwrap_or(first);
            Some((
                format!("`sides` names two players, one for each side, not {}", d.sides.len()),
                first.span.to(last.span),
                "the sides",
                match layout {
                    ir::DisplayLayout::Rhombus => {
                        "write `sides A, B`: A joins the top and bottom rows, B the left and right columns".to_string()
                    }
                    _ => "write `sides A, B`: A owns the bottom row and the right store, B the others".to_string(),
                },
            ))
        } else {
            None
        };
        match problem {
            Some((message, at, label, help)) => {
                self.error(CompileError::new(CompileKind::Display, message, at, label).with_help(help));
                false
            }
            None => {
                look.sides = d.sides.iter().map(|s| self.players[&s.name]).collect();
                true
            }
        }
    }

    /// `names FIELD "a", "b", ...`: on a display of fields, a state field of
    /// ints (an int, a set, a list, one per player), named once, whose
    /// values 0, 1, ... the names name; a set's every value among them.
    fn display_names(&mut self, d: &ast::DisplayDecl, layout: ir::DisplayLayout, look: &mut Look) -> bool {
        let Some((first, _)) = d.names.first() else {
            return true;
        };
        if layout != ir::DisplayLayout::Fields {
            self.error(
                CompileError::new(
                    CompileKind::Display,
                    format!("`names` is for a fields() display, not a {} display", layout.name()),
                    first.span,
                    "not for this layout",
                )
                .with_help("the page shows the state's fields only where there is no board: leave `names` out"),
            );
            return false;
        }
        if self.vars.is_empty() && !self.errors.is_empty() {
            // As for `cards`: the state's layout was stopped by an earlier error.
            return false;
        }
        /// The range of a set among a layout of ints (`Some(None)`: ints
        /// of no declared range), `None` where it holds something else.
        fn ints(l: &ir::Layout) -> Option<Option<(i64, i64)>> {
            match l {
                ir::Layout::Int => Some(None),
                ir::Layout::Set { lo, hi } => Some(Some((*lo, *hi))),
                ir::Layout::List { elem, .. } => ints(elem),
                _ => None,
            }
        }
        let mut ok = true;
        for (k, (field, names)) in d.names.iter().enumerate() {
            let all = names
                .first()
                .map_or(field.span, |(_, at)| at.to(names[names.len() - 1].1));
            let (message, at, label, help) = match self.vars.get(&field.name).map(|v| ints(&v.layout)) {
                None => {
                    let fields: Vec<&str> = self.vars.keys().map(String::as_str).collect();
                    (
                        format!("the display's `names` names `{}`, which is no state field", field.name),
                        field.span,
                        "not a state field".to_string(),
                        format!("the state's fields are: {}", fields.join(", ")),
                    )
                }
                Some(None) => (
                    format!("`{}` holds no ints to name", field.name),
                    field.span,
                    "not ints".to_string(),
                    "name the values of a field that is an int, a set or a list of them (one per player, too)"
                        .to_string(),
                ),
                Some(_) if d.names[..k].iter().any(|(f, _)| f.name == field.name) => (
                    format!("the display names the values of `{}` twice", field.name),
                    field.span,
                    "again".to_string(),
                    "give each field one `names`".to_string(),
                ),
                Some(Some(Some((lo, hi)))) if lo < 0 || hi >= names.len() as i64 => (
                    format!(
                        "`{}` holds {lo}..{hi}, but `names` names only the values 0..{}",
                        field.name,
                        names.len() - 1
                    ),
                    all,
                    format!("no name for {}", if lo < 0 { lo } else { hi }),
                    if lo < 0 {
                        "the names are for the values 0, 1, ...: a set of them cannot hold a negative value".to_string()
                    } else {
                        format!("give a name to each value from 0 to {hi}, in order (\"\" for one the set never holds)")
                    },
                ),
                Some(_) => {
                    look.names
                        .push((field.name.clone(), names.iter().map(|(n, _)| n.clone()).collect()));
                    continue;
                }
            };
            ok = false;
            self.error(CompileError::new(CompileKind::Display, message, at, label).with_help(help));
        }
        ok
    }
}
