//! `FileError`: one error found in a `.game` file before it runs (by the
//! parser or the compiler), and the set of them. It belongs to no stage:
//! the parser reports with it, and the compiler re-exports it as
//! `FileError`.

use std::fmt;
use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan, NamedSource, SourceCode};

use super::ast::Span;
use crate::error_kind::{EXIT_INPUT, ErrorKind};

/// One static error: a kind (its stable code), a message, a labelled span, maybe a hint.
#[derive(Clone, Debug)]
pub struct FileError {
    /// The kind's code, e.g. `gdl::compile::unknown_name`.
    pub code: &'static str,
    /// The kind's exit code.
    pub exit_code: i32,
    pub message: String,
    pub span: Span,
    pub label: String,
    pub help: Option<String>,
    /// Further places that explain the error (e.g. where a name was first declared).
    pub notes: Vec<(Span, String)>,
}

impl FileError {
    pub fn new(kind: impl ErrorKind, message: impl Into<String>, span: Span, label: impl Into<String>) -> Self {
        FileError {
            code: kind.code(),
            exit_code: kind.exit_code(),
            message: message.into(),
            span,
            label: label.into(),
            help: None,
            notes: Vec::new(),
        }
    }

    /// Whether it is of this kind.
    pub fn is(&self, kind: impl ErrorKind) -> bool {
        self.code == kind.code()
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn with_note(mut self, span: Span, label: impl Into<String>) -> Self {
        self.notes.push((span, label.into()));
        self
    }
}

/// Every error found in one file, with the file's text so they render with context.
#[derive(Clone)]
pub struct FileErrors {
    pub source: Arc<NamedSource<String>>,
    pub errors: Vec<FileError>,
}

impl FileErrors {
    pub fn new(source: Arc<NamedSource<String>>, errors: Vec<FileError>) -> Self {
        FileErrors { source, errors }
    }

    /// The exit code gdl ends with when this file stops a command: its
    /// errors' (the highest, should their kinds differ).
    pub fn exit_code(&self) -> i32 {
        self.errors.iter().map(|e| e.exit_code).max().unwrap_or(EXIT_INPUT)
    }

    /// Each error as a diagnostic of its own, carrying the source.
    pub fn diagnostics(&self) -> impl Iterator<Item = SourceDiagnostic<'_>> {
        self.errors.iter().map(|error| SourceDiagnostic {
            error,
            source: &self.source,
        })
    }
}

impl fmt::Debug for FileErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.errors.iter().map(|e| &e.message)).finish()
    }
}

impl fmt::Display for FileErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.errors.len();
        write!(
            f,
            "could not compile `{}`: {n} error{}",
            self.source.name(),
            if n == 1 { "" } else { "s" }
        )
    }
}

impl std::error::Error for FileErrors {}

/// A `FileError` together with the file it points into.
pub struct SourceDiagnostic<'a> {
    error: &'a FileError,
    source: &'a NamedSource<String>,
}

impl fmt::Debug for SourceDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.error)
    }
}

impl fmt::Display for SourceDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.error.message)
    }
}

impl std::error::Error for SourceDiagnostic<'_> {}

impl Diagnostic for SourceDiagnostic<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.error.code))
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.error.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(self.source as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let main = LabeledSpan::new_primary_with_span(Some(self.error.label.clone()), self.error.span);
        let notes = self
            .error
            .notes
            .iter()
            .map(|(s, l)| LabeledSpan::new_with_span(Some(l.clone()), *s));
        Some(Box::new(std::iter::once(main).chain(notes)))
    }
}
