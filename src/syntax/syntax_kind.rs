//! `SyntaxKind`: the kinds of error the parser finds in a game file, each
//! with its stable code (`gdl::syntax::error`).

use crate::error_kind::{EXIT_INPUT, ErrorKind};

/// What keeps a game file from parsing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SyntaxKind {
    Error,
    PlayersTwice,
    TooDeep,
    TooLarge,
}

impl SyntaxKind {
    pub const ALL: &[SyntaxKind] = &[
        SyntaxKind::Error,
        SyntaxKind::PlayersTwice,
        SyntaxKind::TooDeep,
        SyntaxKind::TooLarge,
    ];
}

impl ErrorKind for SyntaxKind {
    fn code(self) -> &'static str {
        match self {
            SyntaxKind::Error => "gdl::syntax::error",
            SyntaxKind::PlayersTwice => "gdl::syntax::players_twice",
            SyntaxKind::TooDeep => "gdl::syntax::too_deep",
            SyntaxKind::TooLarge => "gdl::syntax::too_large",
        }
    }

    /// A file that does not parse or compile is bad input.
    fn exit_code(self) -> i32 {
        EXIT_INPUT
    }
}
