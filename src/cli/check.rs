//! `gdl check FILE`: compile a game and print a one-screen summary, or with
//! `--ir` the numbered listing of the code its rules compiled to.

use clap::Args;

use crate::cli::kit::context::{Context, Failure, stdout_failed};
use crate::cli::kit::game_args::{GameArgs, load_game};
use crate::compile::{CompileError, CompileErrors, CompileKind};
use crate::game::Game;
use crate::report::{diagnostic, summary};
use crate::runtime::Interpreted;

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Print the instructions each rule compiled to, numbered, instead of the summary
    #[arg(long)]
    pub ir: bool,
    /// Print the summary as one JSON object (docs/json-schema/check.json)
    #[arg(long, conflicts_with = "ir")]
    pub json: bool,
    /// Also print how long loading the file and compiling its rules to machine code took
    #[arg(long, conflicts_with_all = ["ir", "json"])]
    pub timings: bool,
}

pub fn run(args: &CheckArgs, ctx: &mut Context) -> Result<(), Failure> {
    let started = std::time::Instant::now();
    let game = load_game(&args.game.file, ctx)?;
    let loaded = started.elapsed();
    start_keeps_invariants(&game, ctx)?;
    let text = if args.json {
        let value = summary::json(&game).map_err(|e| ctx.fail(&e))?;
        format!("{}\n", serde_json::to_string_pretty(&value).unwrap_or_default())
    } else if args.ir {
        game.code().listing(&game.program().source.inner().clone())
    } else {
        let mut text = summary::render(&game).map_err(|e| ctx.fail(&e))?;
        if args.timings {
            // Off by default: a time in the summary would differ from run to run.
            let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
            let engine = match game.jit_stats() {
                Some(j) => format!(
                    "jit: {} rules compiled to machine code in {:.1} ms",
                    j.rules,
                    ms(j.compile_time)
                ),
                None => "vm: the rules run on the interpreter".to_string(),
            };
            text.push_str(&format!(
                "engine      {engine}\nloaded in   {:.1} ms (parse, check, lower, compile)\n",
                ms(loaded)
            ));
        }
        text
    };
    write!(ctx.out, "{text}").map_err(stdout_failed)?;
    Ok(())
}

/// A game whose start breaks one of its own invariants is a mistake in the
/// file: reported as a compile error, pointing at the invariant.
fn start_keeps_invariants(game: &Interpreted, ctx: &Context) -> Result<(), Failure> {
    let start = game.initial_state().map_err(|e| ctx.fail(&e))?;
    let broken = match game.broken_invariant(&start) {
        Ok(None) => return Ok(()),
        Ok(Some(i)) => i,
        Err((_, e)) => return Err(ctx.fail(&e)),
    };
    let prog = game.program();
    let invariant = &prog.invariants[broken];
    let name = match &invariant.label {
        Some(label) => format!("the invariant \"{label}\""),
        None => "this invariant".to_string(),
    };
    let error = CompileError::new(
        CompileKind::Invariant,
        format!("the start position breaks {name}"),
        invariant.span,
        "false at the start",
    )
    .with_help(format!(
        "the start is `{}`: the rules must begin in a position the game allows",
        game.position(&start)
    ));
    let errors = CompileErrors::new(prog.source.clone(), vec![error]);
    let mut text = String::new();
    for d in errors.diagnostics() {
        text.push_str(&diagnostic::render(&d, ctx.color));
    }
    text.push_str(&format!(
        "\nerror: `{}` starts in a position that its own invariants refuse\n",
        prog.source.name()
    ));
    Err(Failure {
        code: errors.exit_code(),
        text,
    })
}
