//! The game a command loads: its arguments ([`GameArgs`]), the file read
//! and compiled ([`load_game`]), its title as the reports head it, and where
//! the command starts: the game's initial state (with `--first`, another
//! player moving first), a position typed with `--from`, and the moves of
//! `--after` played from there.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use crate::bundled;
use crate::cli::kit::context::{Context, Failure};
use crate::compile;
use crate::game::{Game, Turn};
use crate::report::diagnostic;
use crate::runtime::{Engine, Interpreted, State};

/// What every command that loads a game takes.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// The .game file, or the name of a bundled game (`gdl list`)
    pub file: PathBuf,
    /// Stop before holding more than this much memory (512M, 2G); default:
    /// 3/4 of the memory available
    #[arg(long, value_name = "SIZE", allow_hyphen_values = true, value_parser = crate::memory::parse_size)]
    pub max_memory: Option<usize>,
    /// What runs the rules: `jit` (compiled to machine code when the game
    /// loads; the default where the processor is supported) or `vm` (the
    /// interpreter, the reference)
    #[arg(long, value_name = "ENGINE", value_enum)]
    pub engine: Option<EngineArg>,
}

/// `--engine`. (Its values carry no doc comments: clap would list them in
/// the help, which names them in the flag's own text.)
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineArg {
    Jit,
    Vm,
}

impl EngineArg {
    pub fn engine(self) -> Engine {
        match self {
            EngineArg::Jit => Engine::Jit,
            EngineArg::Vm => Engine::Vm,
        }
    }
}

/// Reads and compiles a game file with the parameters given on the command line.
pub fn load_game(file: &Path, ctx: &Context) -> Result<Interpreted, Failure> {
    crate::memory::doing("reading the game file");
    let read = match &ctx.source {
        Some((read_as, read)) if read_as == file => read.clone(),
        _ => bundled::read_game(file),
    };
    let text = read.map_err(|why| Failure::input(format!("error: cannot read {}: {why}", file.display())))?;
    let name = file.display().to_string();
    crate::memory::doing("compiling the game");
    match compile::load(&name, &text, &ctx.bindings) {
        Ok(p) => Ok(Interpreted::with_engine(p, ctx.engine)),
        Err(errors) => Err(Failure {
            code: errors.exit_code(),
            text: diagnostic::render_compile_errors(&errors, ctx.color),
        }),
    }
}

/// The game's name with its parameters: `Nim (piles = [1, 3, 5, 7])`.
pub fn title(game: &Interpreted) -> String {
    game.title()
}

/// The starting position: `--from` if given, else the game's initial state
/// (with `first` to move, if given); then every move of `--after`, in the
/// game's notation (`"1 6"`, `"(0, 6) (1, 2)"`), each checked to be legal
/// where it is played.
pub fn start_position(
    game: &Interpreted,
    from: Option<&str>,
    first: Option<&str>,
    after: Option<&str>,
    ctx: &Context,
) -> Result<State, Failure> {
    let mut state = match (from, first) {
        (Some(_), Some(_)) => {
            return Err(Failure::input(
                "error: --from and --first both say who moves: the position's `; PLAYER to move` does, so drop --first",
            ));
        }
        (Some(text), None) => {
            // A position that cannot be read says why first.
            let state = game.parse_position(text).map_err(|e| ctx.fail(&e))?;
            says_whose_move(game, text)?;
            state
        }
        (None, Some(name)) => first_to_move(game, name, ctx)?,
        (None, None) => game.initial_state().map_err(|e| ctx.fail(&e))?,
    };
    let Some(after) = after else {
        return Ok(state);
    };
    for (i, typed) in split_moves(after).iter().enumerate() {
        let fail = |why: String| Failure::input(format!("error: --after {after:?}, move {} (`{typed}`): {why}", i + 1));
        let turn = game.turn(&state).map_err(|e| ctx.fail(&e))?;
        match turn {
            Turn::Terminal => return Err(fail("the game is already over".into())),
            Turn::Simultaneous => {
                return Err(fail(
                    "everyone moves at once here; --after takes the moves of games where players take turns".into(),
                ));
            }
            Turn::Player(_) | Turn::Chance => {}
        }
        let mv = game.parse_move(&state, typed).map_err(|why| {
            let mut legal = Vec::new();
            let listed = match game.legal_moves(&state, &mut legal) {
                Ok(()) => legal.iter().map(|m| game.move_text(m)).collect::<Vec<_>>().join(", "),
                Err(_) => String::new(),
            };
            fail(format!(
                "{why} ({}); the legal moves are {listed}",
                game.position(&state)
            ))
        })?;
        game.apply(&mut state, &mv).map_err(|e| ctx.fail(&e))?;
    }
    Ok(state)
}

/// The initial state with `name` to move first: the initial position as gdl
/// prints it, read back with another player to move.
fn first_to_move(game: &Interpreted, name: &str, ctx: &Context) -> Result<State, Failure> {
    let players = &game.program().players;
    if !players.iter().any(|p| p == name) {
        return Err(Failure::input(format!(
            "error: --first {name}: `{name}` is not a player of {}; the players are {}",
            game.name(),
            players.join(", ")
        )));
    }
    let initial = game.initial_state().map_err(|e| ctx.fail(&e))?;
    let position = game.position(&initial);
    let (cells, _) = position.rsplit_once("; ").unwrap_or((&position, ""));
    game.parse_position(&format!("{cells}; {name} to move"))
        .map_err(|e| ctx.fail(&e))
}

/// Refuses a position that does not say whose move it is: the first player
/// assumed in silence is a wrong answer for half the positions a person types.
fn says_whose_move(game: &Interpreted, text: &str) -> Result<(), Failure> {
    let players = &game.program().players;
    if players.len() < 2 || text.contains(';') {
        return Ok(());
    }
    let endings: Vec<String> = players.iter().map(|p| format!("`; {p} to move`")).collect();
    Err(Failure::input(format!(
        "error: --from {text:?} does not say whose move it is: end it with {} (the players are {})",
        or_list(&endings),
        players.join(", ")
    )))
}

fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The moves of `--after`, split at spaces, commas or semicolons outside
/// brackets: `"1 6"` is two moves, `"(0, 6) (1,2)"` too.
fn split_moves(text: &str) -> Vec<String> {
    let mut moves = Vec::new();
    let mut depth = 0i32;
    let mut current = String::new();
    for c in text.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
        if depth <= 0 && (c.is_whitespace() || c == ',' || c == ';') {
            if !current.is_empty() {
                moves.push(std::mem::take(&mut current));
            }
        } else {
            current.push(c);
        }
    }
    if !current.is_empty() {
        moves.push(current);
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_split_outside_brackets() {
        assert_eq!(split_moves("1 6"), ["1", "6"]);
        assert_eq!(split_moves(" (0, 6) (1,2), 3"), ["(0, 6)", "(1,2)", "3"]);
        assert!(split_moves("  ").is_empty());
    }
}
