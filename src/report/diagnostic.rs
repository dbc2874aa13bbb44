//! Rendering diagnostics as people read them: with the source and a label
//! under the exact place. Plain (no colour, fixed width) when the output is
//! not a terminal, so files, pipes and snapshots get stable text.

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};

/// Renders one diagnostic; `color` for a terminal.
pub fn render(diagnostic: &dyn Diagnostic, color: bool) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .with_links(false);
    if let Some(plain) = too_wide_to_draw(diagnostic) {
        return plain;
    }
    let mut out = String::new();
    if handler.render_report(&mut out, diagnostic).is_err() {
        // Rendering only fails on a broken span; the message alone still helps.
        out = format!("error: {diagnostic}\n");
    }
    out
}

/// Labels further right than this on their line, longer than this, or on
/// lines four times this long are not drawn: miette cannot pad to such
/// widths (it panics), and nobody could read them.
const MAX_DRAWN_COLUMN: usize = 1_000;

/// A plain rendering, with the place as line and column, for a diagnostic
/// whose label lies on an enormously long line; `None` for any other.
fn too_wide_to_draw(d: &dyn Diagnostic) -> Option<String> {
    let src = d.source_code()?;
    let labels: Vec<_> = d.labels()?.collect();
    let places: Vec<(usize, usize, usize)> = labels
        .iter()
        .filter_map(|l| {
            let c = src.read_span(l.inner(), 0, 0).ok()?;
            // The lines the label is on, whole: miette would print them all.
            Some((c.line() + 1, c.column() + 1, l.len().max(c.data().len() / 4)))
        })
        .collect();
    if !places
        .iter()
        .any(|&(_, col, len)| col > MAX_DRAWN_COLUMN || len > MAX_DRAWN_COLUMN)
    {
        return None;
    }
    let mut out = String::new();
    if let Some(code) = d.code() {
        out.push_str(&format!("{code}\n\n"));
    }
    out.push_str(&format!("  × {d}\n"));
    for (label, (line, col, _)) in labels.iter().zip(&places) {
        let name = src
            .read_span(label.inner(), 0, 0)
            .ok()
            .and_then(|c| c.name().map(str::to_string))
            .unwrap_or_default();
        let what = label.label().map(|l| format!(": {l}")).unwrap_or_default();
        out.push_str(&format!(
            "  at {name}:{line}:{col}{what} (the line is too long to show)\n"
        ));
    }
    if let Some(help) = d.help() {
        out.push_str(&format!("  help: {help}\n"));
    }
    Some(out)
}

/// The most errors of one file drawn with their source. Each drawing reads
/// the file from its start to find its line, so a file of 50,000 errors
/// would take minutes; and nobody reads past the first few dozen.
pub const MAX_DRAWN_ERRORS: usize = 50;

/// Renders the errors of a compile (the first [`MAX_DRAWN_ERRORS`] of them),
/// then one line that counts them.
pub fn render_compile_errors(errors: &crate::compile::CompileErrors, color: bool) -> String {
    let mut out = String::new();
    for d in errors.diagnostics().take(MAX_DRAWN_ERRORS) {
        out.push_str(&render(&d, color));
        out.push('\n');
    }
    let hidden = errors.errors.len().saturating_sub(MAX_DRAWN_ERRORS);
    if hidden > 0 {
        out.push_str(&format!(
            "... and {hidden} more error{} (the first {MAX_DRAWN_ERRORS} are shown)\n\n",
            if hidden == 1 { "" } else { "s" }
        ));
    }
    out.push_str(&format!("error: {errors}\n"));
    out
}
