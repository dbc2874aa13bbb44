//! `gdl man`: gdl's manual page in roff, printed (`gdl man | man -l -`), or
//! with `--out DIR` one page per command written there (gdl.1, gdl-solve.1...).

use std::path::PathBuf;

use clap::Args;

use crate::cli::kit::context::{Context, Failure};
use crate::cli::kit::output;

#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write gdl.1 and a page per command (gdl-solve.1, ...) into this folder
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// `cmd`: gdl's whole command tree, which the dispatcher holds.
pub fn run(args: &ManArgs, cmd: clap::Command, ctx: &mut Context) -> Result<(), Failure> {
    match &args.out {
        Some(dir) => {
            if !dir.is_dir() {
                return Err(Failure::input(format!(
                    "error: --out {}: not a folder; make it first",
                    dir.display()
                )));
            }
            // Every page is checked first, then written as every output is
            // (through a temporary file): a page is whole or not there.
            let pages = pages(cmd)?;
            let outputs: Vec<(&'static str, PathBuf)> =
                pages.iter().map(|(name, _)| ("--out", dir.join(name))).collect();
            let refs: Vec<(&'static str, &std::path::Path)> = outputs.iter().map(|(f, p)| (*f, p.as_path())).collect();
            output::check(&refs, &[])?;
            for ((_, path), (_, roff)) in outputs.iter().zip(&pages) {
                output::Output {
                    flag: "--out",
                    path: path.clone(),
                }
                .write(roff)?;
            }
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

/// Each manual page, as `clap_mangen::generate_to` makes them: its file
/// name (`gdl.1`, `gdl-solve.1`) and its roff.
fn pages(cmd: clap::Command) -> Result<Vec<(String, Vec<u8>)>, Failure> {
    fn add(cmd: clap::Command, pages: &mut Vec<(String, Vec<u8>)>) -> Result<(), Failure> {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned() {
            add(sub, pages)?;
        }
        let man = clap_mangen::Man::new(cmd);
        let mut roff = Vec::new();
        man.render(&mut roff)
            .map_err(|e| Failure::runtime(format!("error: {e}")))?;
        pages.push((man.get_filename(), roff));
        Ok(())
    }
    let mut cmd = cmd.disable_help_subcommand(true);
    cmd.build();
    let mut pages = Vec::new();
    add(cmd, &mut pages)?;
    Ok(pages)
}
