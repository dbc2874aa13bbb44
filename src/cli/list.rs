//! `gdl list`: the games bundled with gdl, one line each: the name to give
//! any command, what the game is (the first sentence of the file's opening
//! comment), and its parameters with their defaults.

use clap::Args;

use crate::bundled::{BUNDLED_GAMES, describe};
use crate::cli::kit::context::{Context, Failure};
use crate::compile;
use crate::solve::agents::agent_kinds::AGENT_KINDS;

#[derive(Args, Debug)]
pub struct ListArgs {
    /// List the kinds of agents that `--players` takes, instead of the games
    #[arg(long)]
    pub agents: bool,
}

pub fn run(args: &ListArgs, ctx: &mut Context) -> Result<(), Failure> {
    if args.agents {
        return write!(ctx.out, "{}", agents_text()).map_err(|e| Failure::runtime(format!("error: {e}")));
    }
    let rows: Vec<[String; 3]> = BUNDLED_GAMES
        .iter()
        .map(|(name, text)| [name.to_string(), describe(text), params(text)])
        .collect();
    let width = |i: usize| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0);
    let (w0, w1) = (width(0), width(1));
    let mut s = String::new();
    for [name, what, params] in &rows {
        let line = format!("{name:<w0$}  {what:<w1$}  {params}");
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s.push_str(
        "\n`gdl rules NAME` prints a game's rules; `gdl solve NAME`, `gdl play NAME`... play it from any folder.\n",
    );
    write!(ctx.out, "{s}").map_err(|e| Failure::runtime(format!("error: {e}")))
}

/// Every kind of agent and what it plays, one a line, then how to name one.
fn agents_text() -> String {
    let width = AGENT_KINDS.iter().map(|k| k.spec.len()).max().unwrap_or(0);
    let mut s = String::new();
    for kind in AGENT_KINDS {
        s.push_str(&format!("{:<width$}  {}\n", kind.spec, kind.plays));
    }
    s.push_str(
        "\n`--players A,B` of play, trace and match takes one per player, in turn order; \
         NAME=AGENT names one in the reports: `--players me=exec:python3 me.py,random`.\n",
    );
    s
}

/// The parameters as flags with their defaults: `--pits 4 --tokens 4`.
fn params(text: &str) -> String {
    let Ok(ast) = crate::syntax::parse(text) else {
        return String::new();
    };
    compile::params_of(&ast, text)
        .iter()
        .map(|p| match &p.default {
            // A list is given on the command line as `7,5,3,1`.
            Some(d) if d.starts_with('[') => format!("--{} {}", p.name, d.trim_matches(['[', ']']).replace(' ', "")),
            Some(d) => format!("--{} {d}", p.name),
            None => format!("--{} (required)", p.name),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_description_is_the_first_sentence_of_the_opening_comment() {
        assert_eq!(
            describe("// Nim, misère play: two take turns.\ngame Nim"),
            "Nim, misère play"
        );
        assert_eq!(
            describe("// A long\n// first sentence. Then more.\ngame X"),
            "A long first sentence"
        );
        assert_eq!(describe("game \"No comment\"\nplayers A, B"), "No comment");
    }
}
