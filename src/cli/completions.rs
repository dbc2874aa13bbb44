//! `gdl completions SHELL`: the shell's completion script for gdl, printed
//! to standard output (`gdl completions bash > ~/.local/share/bash-completion/completions/gdl`).

use clap::Args;
use clap_complete::Shell;

use crate::cli::kit::context::{Context, Failure};

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell
    pub shell: Shell,
}

/// `cli`: gdl's whole command tree, which the dispatcher holds.
pub fn run(args: &CompletionsArgs, mut cli: clap::Command, ctx: &mut Context) -> Result<(), Failure> {
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut cli, "gdl", &mut buf);
    ctx.out
        .write_all(&buf)
        .map_err(|e| Failure::runtime(format!("error: {e}")))
}
