//! The progress bar of a long run (`train`, `match`), drawn only where a
//! person watches.

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
