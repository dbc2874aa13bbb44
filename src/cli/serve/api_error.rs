//! What the API answers instead of a success.

use crate::error_kind::EXIT_INPUT;

/// An answer that is not a success: an HTTP status and what the command
/// line would print.
#[derive(Debug)]
pub(super) struct ApiError {
    pub status: u16,
    pub message: String,
}

impl ApiError {
    pub fn new(status: u16, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// A command-line failure: bad input (exit code 2) is 400, a failure
    /// while playing (exit code 1) is 422.
    pub fn of(f: crate::cli::kit::context::Failure) -> Self {
        let status = if f.code == EXIT_INPUT { 400 } else { 422 };
        ApiError::new(status, f.text.trim_end().to_string())
    }
}
