//! The text of a `.game` file → a typed syntax tree with spans.

pub mod ast;
pub mod file_error;
mod nesting;
mod parser;
pub mod source_file;
mod syntax_kind;

pub use nesting::{MAX_NESTING, MAX_SOURCE_LEN, parse};
pub use syntax_kind::SyntaxKind;
