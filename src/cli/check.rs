//! `gdl check FILE`: compile a game and print a one-screen summary.

use super::{Context, Failure, GameArgs, load_game};
use crate::report::summary;

pub fn run(args: &GameArgs, ctx: &mut Context) -> Result<(), Failure> {
    let game = load_game(&args.file, ctx)?;
    let text = summary::render(&game).map_err(|e| Failure::runtime(ctx.render(&e)))?;
    write!(ctx.out, "{text}").map_err(|e| Failure::runtime(format!("error: {e}")))?;
    Ok(())
}
