//! What a command runs with besides its arguments ([`Context`]), and how it
//! fails ([`Failure`]: the text and the exit code).

use std::io::Write;
use std::path::PathBuf;

use crate::error_kind::Exits;
use crate::error_kind::{EXIT_INPUT, EXIT_OK, EXIT_RUNTIME};
use crate::report::diagnostic;
use crate::runtime::Engine;

/// A failed command: what to print, and the exit code.
pub struct Failure {
    pub code: i32,
    pub text: String,
}

impl Failure {
    pub fn input(text: impl Into<String>) -> Self {
        Failure {
            code: EXIT_INPUT,
            text: text.into(),
        }
    }

    pub fn runtime(text: impl Into<String>) -> Self {
        Failure {
            code: EXIT_RUNTIME,
            text: text.into(),
        }
    }

    /// An error rendered, with the exit code of its kind.
    pub fn of(e: &impl Exits, color: bool) -> Self {
        Failure {
            code: e.exit_code(),
            text: diagnostic::render(e, color),
        }
    }
}

/// What a command needs besides its arguments.
pub struct Context<'w> {
    pub out: &'w mut dyn Write,
    /// Colour and terminal-only output (progress) are on.
    pub color: bool,
    /// Parameter values from the command line, in the file's notation.
    pub bindings: Vec<(String, String)>,
    /// The game file as read before the arguments were parsed (its
    /// parameters make flags), so that it is read once: a pipe or
    /// `/dev/stdin` can be read only once. `Err`: why it cannot be read.
    pub source: Option<(PathBuf, Result<String, String>)>,
    /// When the command started, for the wall time a report gives.
    pub started: std::time::Instant,
    /// What runs the rules of the games loaded (`--engine`).
    pub engine: Engine,
}

impl Context<'_> {
    /// Renders a diagnostic for this output.
    pub fn render(&self, d: &dyn miette::Diagnostic) -> String {
        diagnostic::render(d, self.color)
    }

    /// A failure told by an error: rendered for this output, with the exit
    /// code of its kind.
    pub fn fail(&self, e: &impl Exits) -> Failure {
        Failure::of(e, self.color)
    }
}

/// A failed write to standard output. A reader who stopped reading
/// (`gdl tree ... | head -1`) ends gdl silently and successfully, as `trace`
/// does; any other failure (`> /dev/full`) is an error.
pub(crate) fn stdout_failed(e: std::io::Error) -> Failure {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return Failure {
            code: EXIT_OK,
            text: String::new(),
        };
    }
    Failure::runtime(format!("error: cannot write to standard output: {e}"))
}
