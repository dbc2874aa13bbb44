//! `gdl check FILE`: compile a game and print a one-screen summary, or with
//! `--ir` the numbered listing of the code its rules compiled to.

use clap::Args;

use super::{Context, Failure, GameArgs, load_game};
use crate::report::summary;

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
}

pub fn run(args: &CheckArgs, ctx: &mut Context) -> Result<(), Failure> {
    let game = load_game(&args.game.file, ctx)?;
    let text = if args.json {
        let value = summary::json(&game).map_err(|e| ctx.fail(&e))?;
        format!("{}\n", serde_json::to_string_pretty(&value).unwrap_or_default())
    } else if args.ir {
        game.code().listing(&game.program().source.inner().clone())
    } else {
        summary::render(&game).map_err(|e| ctx.fail(&e))?
    };
    write!(ctx.out, "{text}").map_err(super::stdout_failed)?;
    Ok(())
}
