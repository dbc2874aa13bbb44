//! The text of a `.game` file → a typed syntax tree with spans.

pub mod ast;
mod parser;

pub use parser::parse;
