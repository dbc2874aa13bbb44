//! Kinds of errors, each with its stable diagnostic code and the exit code
//! it ends gdl with; and the run-time kinds, those of [`crate::game::GameError`].
//!
//! Every stage names its kinds in one enum (`syntax::SyntaxKind`,
//! `compile::CompileKind`, [`RuntimeKind`] here, `solve::SolveKind`), so a
//! code is written once, in that enum's `code()`. docs/ERRORS.md lists every
//! code with its exit code; `tests/error_codes.rs` holds the two together.

/// Success.
pub const EXIT_OK: i32 = 0;
/// The rules failed at run time, a search stopped at a limit, the memory cap
/// was reached, or a final write failed.
pub const EXIT_RUNTIME: i32 = 1;
/// Bad input: usage, a broken game file, a bad parameter, position or file.
pub const EXIT_INPUT: i32 = 2;

/// A kind of error: its stable diagnostic code and its exit code.
pub trait ErrorKind: Copy {
    /// The stable diagnostic code, e.g. `gdl::runtime::index`.
    fn code(self) -> &'static str;
    /// The exit code gdl ends with when this error stops a command.
    fn exit_code(self) -> i32;
}

/// An error value that knows the exit code it ends gdl with (from its kind).
pub trait Exits: miette::Diagnostic {
    fn exit_code(&self) -> i32;
}

/// Why the rules failed while running, or a bug in gdl found at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuntimeKind {
    DivisionByZero,
    /// A value taken from an empty list or set.
    Empty,
    /// A playout ran too many moves without the game ending.
    Endless,
    /// More elements than a list holds.
    Full,
    Index,
    /// A player to move has no legal move, or a chance node no outcome.
    NoMoves,
    /// `turn` names nobody.
    NoPlayer,
    Overflow,
    /// A range too long to go through.
    Range,
    Recursion,
    /// A value outside a set's range.
    SetRange,
    /// Too many loop steps and calls for one step of the game.
    Steps,
    TooManyMoves,
    /// A chance move's weight is not usable.
    Weight,
    /// A bug in gdl.
    Internal,
    /// A state's cells must widen to hold a value: caught by the runtime,
    /// which redoes the step wider; never shown.
    Widen,
    /// Compiled rules met something they leave to the VM (any run-time
    /// error among them): caught by the runtime, which runs the same call
    /// again on the VM; never shown.
    Bailout,
}

impl RuntimeKind {
    pub const ALL: &[RuntimeKind] = &[
        RuntimeKind::DivisionByZero,
        RuntimeKind::Empty,
        RuntimeKind::Endless,
        RuntimeKind::Full,
        RuntimeKind::Index,
        RuntimeKind::NoMoves,
        RuntimeKind::NoPlayer,
        RuntimeKind::Overflow,
        RuntimeKind::Range,
        RuntimeKind::Recursion,
        RuntimeKind::SetRange,
        RuntimeKind::Steps,
        RuntimeKind::TooManyMoves,
        RuntimeKind::Weight,
        RuntimeKind::Internal,
        RuntimeKind::Widen,
        RuntimeKind::Bailout,
    ];
}

impl ErrorKind for RuntimeKind {
    fn code(self) -> &'static str {
        match self {
            RuntimeKind::DivisionByZero => "gdl::runtime::division_by_zero",
            RuntimeKind::Empty => "gdl::runtime::empty",
            RuntimeKind::Endless => "gdl::runtime::endless",
            RuntimeKind::Full => "gdl::runtime::full",
            RuntimeKind::Index => "gdl::runtime::index",
            RuntimeKind::NoMoves => "gdl::runtime::no_moves",
            RuntimeKind::NoPlayer => "gdl::runtime::no_player",
            RuntimeKind::Overflow => "gdl::runtime::overflow",
            RuntimeKind::Range => "gdl::runtime::range",
            RuntimeKind::Recursion => "gdl::runtime::recursion",
            RuntimeKind::SetRange => "gdl::runtime::set_range",
            RuntimeKind::Steps => "gdl::runtime::steps",
            RuntimeKind::TooManyMoves => "gdl::runtime::too_many_moves",
            RuntimeKind::Weight => "gdl::runtime::weight",
            RuntimeKind::Internal => "gdl::internal",
            RuntimeKind::Widen => "gdl::internal::widen",
            RuntimeKind::Bailout => "gdl::internal::bailout",
        }
    }

    fn exit_code(self) -> i32 {
        EXIT_RUNTIME
    }
}
