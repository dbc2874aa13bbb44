//! `gdl completions SHELL`: the shell's completion script for gdl, printed
//! to standard output (`gdl completions bash > ~/.local/share/bash-completion/completions/gdl`).

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::Cli;
use crate::cli::kit::context::{Context, Failure};

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell
    pub shell: Shell,
}

pub fn run(args: &CompletionsArgs, ctx: &mut Context) -> Result<(), Failure> {
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "gdl", &mut buf);
    ctx.out
        .write_all(&buf)
        .map_err(|e| Failure::runtime(format!("error: {e}")))
}
