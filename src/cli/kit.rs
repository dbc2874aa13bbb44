//! What several commands share and none of them owns: a game's title as
//! the reports head it, and the progress bar of a long run. A command
//! imports these from here, never from another command.

use crate::game::Game;
use crate::runtime::Interpreted;

/// The game's name with its parameters: `Nim (piles = [1, 3, 5, 7])`.
pub fn title(game: &Interpreted) -> String {
    let params = &game.program().params;
    if params.is_empty() {
        return game.name().to_string();
    }
    let list: Vec<String> = params.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    format!("{} ({})", game.name(), list.join(", "))
}

/// A bar of `len` steps of `unit` on standard error when it is a terminal
/// (never in a pipe or a file); `tail` follows the time left.
pub fn progress_bar(len: u64, unit: &str, tail: &str) -> Option<indicatif::ProgressBar> {
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template(&format!("{{wide_bar}} {{pos}}/{{len}} {unit}, {{eta}} left{tail}"))
    {
        bar.set_style(style);
    }
    Some(bar)
}
