//! `SolveError`: why a solve stopped without an answer; `SolveKind`: the
//! kinds of it, with their codes.

use std::fmt;

use miette::{Diagnostic, LabeledSpan, Severity, SourceCode};
use thiserror::Error;

use crate::error_kind::{EXIT_INPUT, EXIT_RUNTIME, ErrorKind, Exits};
use crate::game::GameError;

/// Why a solve stopped without an answer.
#[derive(Debug, Error)]
pub enum SolveError {
    /// The game's rules failed while being searched.
    #[error(transparent)]
    Game(#[from] GameError),

    /// A node, state or time limit was reached.
    #[error("the search stopped after {nodes} nodes: the {what} limit of {limit} was reached")]
    Budget {
        /// `"nodes"`, `"states"` or `"time"`.
        what: &'static str,
        /// The limit as set, e.g. `100` or `1.5s`.
        limit: String,
        /// Nodes searched when the search stopped.
        nodes: u64,
    },

    /// A position came back on the line being searched: the game can go on
    /// forever, and the exact solvers need one that always ends.
    #[error("the game can go on forever: from `{position}`, the moves {} lead back to it", .moves.join(", "))]
    Cycle {
        /// The position that repeats, with whose move it is.
        position: String,
        /// The moves from it back to it.
        moves: Vec<String>,
    },

    /// A line ran longer than the depth limit without repeating a position.
    #[error("the search went {depth} moves deep without reaching the end of the game (at `{position}`)")]
    TooDeep {
        /// The depth limit.
        depth: usize,
        /// The position where the line was cut, with whose move it is.
        position: String,
    },

    /// The game is not one these solvers handle.
    #[error("{0}")]
    Unsupported(String),

    /// This algorithm does not apply to the game; `help` says which does.
    #[error("{message}")]
    NotApplicable { message: String, help: String },

    /// The search contradicted itself: a bug in gdl, or rules that are not
    /// deterministic (the same move from the same state led to different states).
    #[error("the search contradicted itself: {0}")]
    Inconsistent(String),
}

/// The kinds of solve error, each with its stable code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SolveKind {
    Budget,
    Cycle,
    TooDeep,
    Unsupported,
    NotApplicable,
    Inconsistent,
    /// A terminal state's utility is not a number (reported as a `GameError`).
    Nan,
}

impl SolveKind {
    pub const ALL: &[SolveKind] = &[
        SolveKind::Budget,
        SolveKind::Cycle,
        SolveKind::TooDeep,
        SolveKind::Unsupported,
        SolveKind::NotApplicable,
        SolveKind::Inconsistent,
        SolveKind::Nan,
    ];
}

impl ErrorKind for SolveKind {
    fn code(self) -> &'static str {
        match self {
            SolveKind::Budget => "gdl::solve::budget",
            SolveKind::Cycle => "gdl::solve::cycle",
            SolveKind::TooDeep => "gdl::solve::too_deep",
            SolveKind::Unsupported => "gdl::solve::unsupported",
            SolveKind::NotApplicable => "gdl::solve::not_applicable",
            SolveKind::Inconsistent => "gdl::solve::inconsistent",
            SolveKind::Nan => "gdl::solve::nan",
        }
    }

    /// A game the command cannot handle is bad input; the rest happened
    /// while searching.
    fn exit_code(self) -> i32 {
        match self {
            SolveKind::Unsupported => EXIT_INPUT,
            // Found while searching (a game that is not normal-play, not
            // zero-sum, hides information), after work was done.
            SolveKind::NotApplicable => EXIT_RUNTIME,
            SolveKind::Budget | SolveKind::Cycle | SolveKind::TooDeep | SolveKind::Inconsistent | SolveKind::Nan => {
                EXIT_RUNTIME
            }
        }
    }
}

impl SolveError {
    /// Its kind; `None` for a failure of the game's rules (a `GameError`).
    pub fn kind(&self) -> Option<SolveKind> {
        Some(match self {
            SolveError::Game(_) => return None,
            SolveError::Budget { .. } => SolveKind::Budget,
            SolveError::Cycle { .. } => SolveKind::Cycle,
            SolveError::TooDeep { .. } => SolveKind::TooDeep,
            SolveError::Unsupported(_) => SolveKind::Unsupported,
            SolveError::NotApplicable { .. } => SolveKind::NotApplicable,
            SolveError::Inconsistent(_) => SolveKind::Inconsistent,
        })
    }
}

impl Exits for SolveError {
    fn exit_code(&self) -> i32 {
        match (self, self.kind()) {
            (SolveError::Game(g), _) => g.exit_code(),
            (_, Some(kind)) => kind.exit_code(),
            (_, None) => EXIT_RUNTIME,
        }
    }
}

impl Diagnostic for SolveError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        match (self, self.kind()) {
            (SolveError::Game(g), _) => g.code(),
            (_, kind) => kind.map(|k| Box::new(k.code()) as Box<dyn fmt::Display>),
        }
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let text: &'a str = match self {
            SolveError::Game(g) => return g.help(),
            SolveError::Budget { .. } => "raise the limit, turn the memo table on, or solve a smaller position",
            SolveError::Cycle { .. } => {
                "the exact solvers need a game that always ends: make every move bring the end closer \
                 (e.g. count the moves in a state variable and add `end when moves == 100 { draw }`)"
            }
            SolveError::TooDeep { .. } => {
                "check that every line of play reaches an `end when` clause; games longer than this are not small"
            }
            SolveError::Unsupported(_) => "minimax and alpha-beta solve two-player, turn-taking, zero-sum games",
            SolveError::NotApplicable { help, .. } => help,
            SolveError::Inconsistent(_) => {
                "this is a bug in gdl, or the game's rules depend on something outside the state"
            }
        };
        Some(Box::new(text))
    }

    fn severity(&self) -> Option<Severity> {
        match self {
            SolveError::Game(g) => g.severity(),
            _ => None,
        }
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        match self {
            SolveError::Game(g) => g.source_code(),
            _ => None,
        }
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        match self {
            SolveError::Game(g) => g.labels(),
            _ => None,
        }
    }
}
