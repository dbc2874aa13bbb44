//! One call from a game's path or name to a game to play and solve:
//! [`load`], the library's front door.

use std::fmt;
use std::path::Path;

use crate::bundled::{self, ReadError};
use crate::compile::{self, Bindings, CompileErrors, ParamValue};
use crate::ir::{Outcome, Program, Visibility};
use crate::report::diagnostic;
use crate::runtime::Interpreted;
use crate::solve::agent_builder::{AgentBuildError, AgentOptions, BoxedAgent, MoveKinds, build_agent};
use crate::solve::agents::agent::AgentSpec;

/// Loads a game: the `.game` file at `game`, or, where there is none, the
/// game of that name bundled with gdl (`"nim"`, `"nim.game"` or
/// `"games/nim.game"`, as the command line reads it; see
/// [`crate::bundled::games`]), compiled with the parameter values `params`.
///
/// Each value is typed ([`ParamValue`]: `4.into()`, `vec![7, 5].into()`,
/// `true.into()`, a player as `"MAX".into()`); errors name the parameter
/// (`pits = 99 is out of range: ...`). A parameter not given takes its
/// default.
///
/// The rules run on the engine the command line picks by default
/// ([`crate::runtime::Engine::default_for_host`]): compiled to machine code
/// where the processor is supported, else the interpreter. Both give the
/// same answers (a differential test holds them equal); the compiled one is
/// faster. [`Interpreted::on_engine`] gives the same game on the other.
///
/// Unlike the command line, `load` prints nothing: it says nothing when a
/// bundled name is read while an edited `NAME.game` lies beside it.
pub fn load(game: impl AsRef<Path>, params: &[(&str, ParamValue)]) -> Result<Interpreted, LoadError> {
    let path = game.as_ref();
    let shown = path.display().to_string();
    let text = bundled::read(path).map_err(|e| match e {
        ReadError::NotFound(e) => LoadError::NotFound {
            path: shown.clone(),
            reason: e.to_string(),
        },
        ReadError::Unreadable(e) => LoadError::Unreadable {
            path: shown.clone(),
            reason: e.to_string(),
        },
    })?;
    let bindings: Vec<(String, ParamValue)> = params.iter().map(|(n, v)| (n.to_string(), v.clone())).collect();
    let program = compile::load_with(&shown, &text, Bindings::Values(&bindings)).map_err(LoadError::Compile)?;
    Ok(Interpreted::new(program))
}

/// The names of the games bundled with gdl, which [`load`] takes as they
/// are: `nim`, `tictactoe`...
pub fn bundled_games() -> impl Iterator<Item = &'static str> {
    bundled::games().iter().map(|(name, _)| *name)
}

/// Why [`load`] gave no game.
#[derive(Debug)]
pub enum LoadError {
    /// No file at the path, and no game of that name is bundled with gdl.
    NotFound { path: String, reason: String },
    /// Something at the path that cannot be read as a game file (a file
    /// over 1 MiB, a device, a folder not named like a bundled game...).
    Unreadable { path: String, reason: String },
    /// The file does not compile with these parameters: every error of it,
    /// each with its place in the file.
    Compile(CompileErrors),
}

impl LoadError {
    /// The exit code the command line ends with for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            LoadError::Compile(errors) => errors.exit_code(),
            _ => crate::error_kind::EXIT_INPUT,
        }
    }
}

/// The message as the command line prints it, without colour: for a file
/// that does not compile, each error drawn with its lines of the file.
impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NotFound { path, reason } => write!(
                f,
                "cannot read {path}: {reason}, and no game of that name is bundled with gdl ({})",
                bundled::names()
            ),
            LoadError::Unreadable { path, reason } => write!(f, "cannot read {path}: {reason}"),
            LoadError::Compile(errors) => f.write_str(diagnostic::render_compile_errors(errors, false).trim_end()),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Compile(errors) => Some(errors),
            _ => None,
        }
    }
}

/// One of gdl's agents for `game`, from its spec as the command line's
/// `--players` writes it: `"optimal"`, `"random"`, `"mcts"`, `"search:50"`,
/// `"alphabeta:6"`, `"q:nim.q.json"`... (`gdl list --agents` lists them).
/// `seed` seeds whatever it draws at random. `human` and `exec:` agents are
/// seated by the commands only.
pub fn agent<'g>(game: &'g Interpreted, spec: &str, seed: u64) -> Result<BoxedAgent<'g, Interpreted>, AgentBuildError> {
    let spec: AgentSpec = spec.parse().map_err(AgentBuildError::Spec)?;
    build_agent(
        &spec,
        game,
        MoveKinds::of(game.program()),
        seed,
        &AgentOptions::default(),
    )
}

// Here, not in `solve`: reading a compiled program belongs above the
// algorithms, which see only the `Game` trait.
impl MoveKinds {
    /// Those of a compiled game file.
    pub fn of(program: &Program) -> Self {
        MoveKinds {
            chance: program.has_chance,
            simultaneous: program.has_simultaneous,
            hidden: program.vars.iter().any(|v| v.visibility != Visibility::Public),
            scores: program.ends.iter().any(|e| matches!(e.outcome, Outcome::Score { .. })),
            evaluates: program.fns.iter().any(|f| f.name == crate::compile::EVALUATE),
        }
    }
}
