//! `gdl rules GAME`: a game's file as written, comments and all: the rules
//! in words (the opening comment) and in gdl.

use std::path::PathBuf;

use clap::Args;

use crate::bundled;
use crate::cli::kit::context::{Context, Failure};

#[derive(Args, Debug)]
pub struct RulesArgs {
    /// A bundled game's name (`gdl list`) or a .game file
    pub game: PathBuf,
}

pub fn run(args: &RulesArgs, ctx: &mut Context) -> Result<(), Failure> {
    let text = bundled::read_game(&args.game)
        .map_err(|why| Failure::input(format!("error: cannot read {}: {why}", args.game.display())))?;
    write!(ctx.out, "{text}").map_err(|e| Failure::runtime(format!("error: {e}")))
}
