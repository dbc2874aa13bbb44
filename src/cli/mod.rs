//! The command line: the clap tree and [`run`], which dispatches to one
//! module per subcommand (a file, or a folder for the bigger ones). The
//! commands share the kit ([`kit`]: the context and failures, the game's
//! arguments and loading, the shared flags, the agents) and never import one
//! another. Parameters declared in a `.game` file become flags of the
//! subcommand that loads it (`--pits 4`).
//!
//! Exit codes: 0 success; 1 the rules failed at run time, or a search hit a
//! limit; 2 bad input (a usage error, a game file that does not compile, a
//! parameter out of range, a malformed position). An error's exit code comes
//! from its kind ([`kit::context::Failure::of`], docs/ERRORS.md).

mod bench;
mod check;
mod completions;
mod kit;
mod list;
mod man;
mod matches;
mod perft;
mod play;
mod rules;
mod serve;
mod solve;
mod trace;
mod train;
mod tree;

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::{Arg, ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::bundled;
use crate::compile::{self, ParamInfo};
use crate::report::diagnostic;
use crate::runtime::Engine;
use kit::context::{Context, stdout_failed};
pub use kit::game_args::start_position;
use kit::game_args::{EngineArg, GameArgs};

pub use crate::error_kind::{EXIT_INPUT, EXIT_OK, EXIT_RUNTIME};

#[derive(Parser, Debug)]
#[command(
    name = "gdl",
    version = version(),
    about = "Describe small games as text, and solve them",
    after_help = "Parameters declared in a game file become flags: `gdl solve games/nimcala.game --pits 4 --tokens 4`.\n`gdl COMMAND FILE --help` lists them."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Parse and compile a game file, and summarize it
    Check(check::CheckArgs),
    /// Solve a game exactly: its value, every optimal move, the principal line
    Solve(solve::SolveArgs),
    /// Play a game at the terminal against the computer (or watch agents play)
    Play(play::PlayArgs),
    /// One game between agents, move by move, with what each agent saw and the outcome
    Trace(trace::TraceArgs),
    /// Learn a game by Q-learning against itself, and save the Q-table
    Train(train::TrainArgs),
    /// Play many games between agents (`gdl list --agents`), seats alternating
    Match(matches::MatchArgs),
    /// Join the parts of a match played apart (`gdl match --shard I/N --jsonl FILE`) into its report, CSV and plot
    Merge(matches::merge::MergeArgs),
    /// Judge a Q-table: agreement with the exact solution, games against optimal and random
    Eval(train::eval::EvalArgs),
    /// Draw the game tree to a depth, as text or Graphviz DOT, optionally with each node's value
    Tree(tree::TreeArgs),
    /// How fast a game runs: random playouts/s, alpha-beta nodes/s, memoized solve time and table size
    Bench(bench::BenchArgs),
    /// Count the move sequences of each length from a position, to check the rules against published counts
    Perft(perft::PerftArgs),
    /// The games bundled with gdl: name, what it is, parameters
    List(list::ListArgs),
    /// Print a game's file with its comments: its rules in words and in gdl
    Rules(rules::RulesArgs),
    /// Print the completion script for a shell: `gdl completions bash`
    Completions(completions::CompletionsArgs),
    /// Print gdl's manual page (roff), or write a page per command with --out DIR
    Man(man::ManArgs),
    /// Play in the browser: a page on this machine (127.0.0.1) to pick a game, seat agents and play
    Serve(serve::ServeArgs),
}

/// gdl's version, with the commit it was built from when it was built in a
/// git checkout: `0.1.0 (commit 1a2b3c4d5e)`.
fn version() -> String {
    match env!("GDL_GIT_COMMIT") {
        "" => env!("CARGO_PKG_VERSION").to_string(),
        commit => format!("{} (commit {commit})", env!("CARGO_PKG_VERSION")),
    }
}

impl Command {
    /// The arguments every command that loads a game shares.
    fn game_args(&self) -> Option<&GameArgs> {
        Some(match self {
            Command::Check(a) => &a.game,
            Command::Solve(a) => &a.game,
            Command::Play(a) => &a.game,
            Command::Trace(a) => &a.game,
            Command::Train(a) => &a.game,
            Command::Match(a) => &a.game,
            Command::Eval(a) => &a.game,
            Command::Tree(a) => &a.game,
            Command::Bench(a) => &a.game,
            Command::Perft(a) => &a.game,
            Command::List(_)
            | Command::Rules(_)
            | Command::Completions(_)
            | Command::Man(_)
            | Command::Merge(_)
            | Command::Serve(_) => {
                return None;
            }
        })
    }
}

/// Catches Ctrl-C and SIGTERM for every command (`kit::signals`): the
/// `gdl` binary calls it before [`run`], so that a command stops within a
/// second, exits 130 (143), says where it stopped, and kills the external
/// agents it started.
pub fn catch_signals() {
    kit::signals::install();
}

/// Runs `gdl` with these arguments; returns the exit code.
pub fn run(args: Vec<OsString>, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let started = std::time::Instant::now();
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    // A negative value for a flag that takes a number is that flag's value,
    // refused by its own check, not an unknown argument `-1`.
    let mut cmd = Cli::command().mut_subcommands(|sc| {
        sc.mut_args(|a| {
            if a.get_action().takes_values() && a.get_long().is_some() {
                a.allow_negative_numbers(true)
            } else {
                a
            }
        })
    });
    let mut params: Vec<ParamInfo> = Vec::new();
    let mut source = None;
    // Whether the game file parsed: its parameters' flags exist only if so.
    let mut parsed = false;
    if let Some((sub, file)) = prescan(&args) {
        crate::memory::doing("reading the game file");
        // The flags of a game's parameters exist only once its file is read; a
        // file that cannot be read or parsed is reported when it is loaded.
        let read = bundled::read_game(&file);
        if read.is_ok()
            && let Some(note) = bundled::shadow_note(&file)
        {
            let _ = writeln!(err, "{note}");
        }
        if let Ok(text) = &read
            && let Ok(ast) = crate::syntax::parse(text)
        {
            params = compile::params_of(&ast, text);
            parsed = true;
        }
        source = Some((file, read));
        let mut clashes = Vec::new();
        cmd = cmd.mut_subcommand(&sub, |sc| {
            // gdl's own names, looked up once (not once per parameter: a file
            // may declare thousands).
            let mut taken: std::collections::HashSet<String> = sc
                .get_arguments()
                .flat_map(|a| [a.get_long().map(str::to_string), Some(a.get_id().to_string())])
                .flatten()
                .collect();
            taken.insert("help".into());
            let mut added = Vec::with_capacity(params.len());
            for p in &params {
                if taken.contains(&p.name) {
                    clashes.push(p.name.clone());
                    continue;
                }
                taken.insert(p.name.clone());
                added.push(param_arg(p));
            }
            sc.args(added)
        });
        if let Some(name) = clashes.first() {
            let _ = writeln!(
                err,
                "error: the game's parameter `{name}` has the name of one of gdl's own flags (--{name}); rename the parameter"
            );
            return EXIT_INPUT;
        }
    }
    let matches = match cmd.try_get_matches_from(args) {
        Ok(m) => m,
        // A flag unknown because the game file could not give its parameters:
        // the file's problem is the one to tell.
        Err(e) if e.kind() == clap::error::ErrorKind::UnknownArgument && !parsed && source.is_some() => {
            let (file, read) = source.as_ref().expect("checked");
            let why = match read {
                Err(why) => format!("error: cannot read {}: {why}\n", file.display()),
                Ok(text) => match compile::load(&file.display().to_string(), text, &[]) {
                    Err(errors) => diagnostic::render_compile_errors(&errors, color),
                    Ok(_) => String::new(),
                },
            };
            let flag = match e.get(clap::error::ContextKind::InvalidArg) {
                Some(clap::error::ContextValue::String(f)) => format!("`{f}`"),
                _ => "a flag".to_string(),
            };
            let _ = writeln!(
                err,
                "{why}note: {flag} may be one of the game's parameters; they become flags once its file can be read"
            );
            return EXIT_INPUT;
        }
        Err(e) => {
            let text = if color {
                e.render().ansi().to_string()
            } else {
                e.render().to_string()
            };
            return if e.use_stderr() {
                let _ = write!(err, "{text}");
                EXIT_INPUT
            } else {
                // Help or version: asked for, so a failure to print it is told.
                match write!(out, "{text}").and_then(|()| out.flush()) {
                    Ok(()) => EXIT_OK,
                    Err(e) => {
                        let f = stdout_failed(e);
                        let _ = write!(err, "{}", f.text);
                        f.code
                    }
                }
            };
        }
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => {
            let _ = write!(err, "{e}");
            return EXIT_INPUT;
        }
    };
    if let Some(bytes) = cli.command.game_args().and_then(|g| g.max_memory) {
        crate::memory::set_from_flag(bytes, 0);
    }
    let sub_matches = matches.subcommand().map(|(_, m)| m);
    let bindings = sub_matches.map(|m| param_values(m, &params)).unwrap_or_default();
    let engine = cli
        .command
        .game_args()
        .and_then(|g| g.engine)
        .map(EngineArg::engine)
        .unwrap_or_else(Engine::default_for_host);
    let mut ctx = Context {
        out,
        color,
        bindings,
        source,
        started,
        engine,
    };
    let result = match &cli.command {
        Command::Check(a) => check::run(a, &mut ctx),
        Command::Solve(a) => solve::run(a, &mut ctx),
        Command::Play(a) => play::run(a, &mut ctx),
        Command::Trace(a) => trace::run(a, &mut ctx),
        Command::Train(a) => train::check_flags(a, sub_matches).and_then(|()| train::run(a, &mut ctx)),
        Command::Match(a) => matches::tournament::run(a, &mut ctx),
        Command::Eval(a) => train::eval::run(a, &mut ctx),
        Command::Tree(a) => tree::run(a, &mut ctx),
        Command::Bench(a) => bench::run(a, &mut ctx),
        Command::Perft(a) => perft::run(a, &mut ctx),
        Command::List(a) => list::run(a, &mut ctx),
        Command::Rules(a) => rules::run(a, &mut ctx),
        Command::Completions(a) => completions::run(a, Cli::command(), &mut ctx),
        Command::Man(a) => man::run(a, Cli::command(), &mut ctx),
        Command::Merge(a) => matches::merge::run(a, &mut ctx),
        Command::Serve(a) => serve::run(a, &mut ctx),
    };
    // What is still buffered must reach standard output, or the run failed.
    let result = result.and_then(|()| ctx.out.flush().map_err(stdout_failed));
    match result {
        Ok(()) => EXIT_OK,
        Err(f) => {
            if !f.text.is_empty() {
                let _ = write!(err, "{}", f.text);
                if !f.text.ends_with('\n') {
                    let _ = writeln!(err);
                }
            }
            f.code
        }
    }
}

/// The subcommand and the game file, found before the real parse so that the
/// file's parameters can become flags. The file is the first argument after the
/// subcommand that is not a flag or a flag's value.
fn prescan(args: &[OsString]) -> Option<(String, PathBuf)> {
    let cmd = Cli::command();
    let mut it = args.iter().skip(1).map(|a| a.to_string_lossy().into_owned());
    let sub = it.find(|a| !a.starts_with('-'))?;
    let sc = cmd.find_subcommand(&sub)?;
    // Only a command that loads a game takes its parameters as flags.
    if !sc.get_arguments().any(|a| a.get_id() == "file") {
        return None;
    }
    let mut rest = it.peekable();
    while let Some(a) = rest.next() {
        if a == "--" {
            return rest.next().map(|f| (sub.clone(), PathBuf::from(f)));
        }
        if let Some(flag) = a.strip_prefix("--") {
            if flag.contains('=') {
                continue;
            }
            // A flag gdl knows to be a switch takes no value; any other flag
            // (gdl's own or a game parameter's) is followed by its value.
            let is_switch = sc
                .get_arguments()
                .any(|x| x.get_long() == Some(flag) && !x.get_action().takes_values());
            if !is_switch {
                rest.next();
            }
            continue;
        }
        if a.starts_with('-') && a.len() > 1 {
            continue;
        }
        return Some((sub.clone(), PathBuf::from(a)));
    }
    None
}

fn param_id(name: &str) -> String {
    format!("param:{name}")
}

fn param_arg(p: &ParamInfo) -> Arg {
    let mut help = if p.doc.is_empty() {
        format!("The game's parameter `{}` ({})", p.name, p.ty)
    } else {
        p.doc.clone()
    };
    match &p.default {
        Some(d) => help.push_str(&format!(" [default: {d}]")),
        None => help.push_str(" [required]"),
    }
    if let Some(r) = &p.range {
        help.push_str(&format!(" [range: {r}]"));
    }
    Arg::new(param_id(&p.name))
        .long(p.name.clone())
        .value_name(p.ty.to_uppercase())
        .allow_hyphen_values(true)
        .help(help)
        .help_heading("Game parameters (from the file)")
}

fn param_values(m: &ArgMatches, params: &[ParamInfo]) -> Vec<(String, String)> {
    params
        .iter()
        .filter_map(|p| {
            m.try_get_one::<String>(&param_id(&p.name))
                .ok()
                .flatten()
                .map(|v| (p.name.clone(), v.clone()))
        })
        .collect()
}
