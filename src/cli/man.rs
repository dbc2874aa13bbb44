//! `gdl man`: gdl's manual page in roff, printed (`gdl man | man -l -`), or
//! with `--out DIR` one page per command written there (gdl.1, gdl-solve.1...).

use std::path::PathBuf;

use clap::{Args, CommandFactory};

use super::{Cli, Context, Failure};

#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write gdl.1 and a page per command (gdl-solve.1, ...) into this folder
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

pub fn run(args: &ManArgs, ctx: &mut Context) -> Result<(), Failure> {
    let cmd = Cli::command();
    match &args.out {
        Some(dir) => {
            if !dir.is_dir() {
                return Err(Failure::input(format!(
                    "error: --out {}: not a folder; make it first",
                    dir.display()
                )));
            }
            clap_mangen::generate_to(cmd, dir)
                .map_err(|e| Failure::runtime(format!("error: cannot write in {}: {e}", dir.display())))?;
            writeln!(ctx.out, "wrote the manual pages to {}", dir.display())
                .map_err(|e| Failure::runtime(format!("error: {e}")))
        }
        None => {
            let mut buf = Vec::new();
            clap_mangen::Man::new(cmd)
                .render(&mut buf)
                .map_err(|e| Failure::runtime(format!("error: {e}")))?;
            ctx.out
                .write_all(&buf)
                .map_err(|e| Failure::runtime(format!("error: {e}")))
        }
    }
}
