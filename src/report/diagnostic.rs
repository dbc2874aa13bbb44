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
    let mut out = String::new();
    if handler.render_report(&mut out, diagnostic).is_err() {
        // Rendering only fails on a broken span; the message alone still helps.
        out = format!("error: {diagnostic}\n");
    }
    out
}

/// Renders every error of a compile, then one line that counts them.
pub fn render_compile_errors(errors: &crate::compile::CompileErrors, color: bool) -> String {
    let mut out = String::new();
    for d in errors.diagnostics() {
        out.push_str(&render(&d, color));
        out.push('\n');
    }
    out.push_str(&format!("error: {errors}\n"));
    out
}
