//! `gdl tree FILE --depth D`: the game tree to depth D, as indented text or
//! Graphviz DOT, optionally with each node's exact value.

mod graphviz;

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::cli::kit::args::{RawArg, SearchArgs, StartArgs};
use crate::cli::kit::context::{Context, Failure, stdout_failed};
use crate::cli::kit::exact::{Kind, endless, kind};
use crate::cli::kit::game_args::{GameArgs, load_game};
use crate::cli::kit::limits;
use crate::cli::kit::output;
use crate::cli::kit::shown;
use crate::game::Game;
use crate::report::solve::thousands;
use crate::report::tree::TreeError;
use crate::report::{diagnostic, tree as report};
use crate::runtime::Interpreted;
use crate::solve::exact::expectimax::{ChanceOptions, ChanceValuer};
use crate::solve::{SolveError, SolveOptions, Solver};

/// The most nodes drawn without `--force`.
pub const MAX_NODES: u64 = 2_000;
/// The most nodes drawn even with `--force`: counting stops here, so that a
/// depth far too large answers at once instead of running out of memory.
pub const MAX_FORCED_NODES: u64 = 1_000_000;
/// The deepest tree: deeper ones are not trees a person reads.
const MAX_DEPTH: u32 = 1_000;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Format {
    /// An indented tree for the terminal
    Text,
    /// Graphviz DOT (`dot -Tsvg tree.dot > tree.svg`)
    Dot,
    /// SVG, drawn by Graphviz's `dot` (which must be installed)
    Svg,
}

/// `--layout` of a drawn tree.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LayoutArg {
    /// Left to right when a level has more than 8 nodes, else top down
    Auto,
    /// The root at the top
    Tb,
    /// The root at the left: wide trees fit a page
    Lr,
}

#[derive(Args, Debug)]
pub struct TreeArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// How many moves deep to draw the tree (0: the start alone)
    #[arg(long, value_name = "D", allow_negative_numbers = true,
          value_parser = clap::value_parser!(u32).range(0..=MAX_DEPTH as i64))]
    pub depth: u32,
    /// Give each node its exact value for the first player, and mark optimal moves with *
    #[arg(long)]
    pub values: bool,
    /// Text for the terminal, Graphviz DOT, or SVG drawn by Graphviz (a picture shows at most 64 positions, the rest cut into "… N more" nodes)
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// How DOT and SVG lay the tree out
    #[arg(long, value_enum, default_value = "auto")]
    pub layout: LayoutArg,
    /// Print the tree as one JSON object (docs/json-schema/tree.json)
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub start: StartArgs,
    #[command(flatten)]
    pub shown: RawArg,
    /// Draw a tree of more than 2,000 nodes (at most 1,000,000), and draw DOT and SVG whole rather than cut to a page of 64 positions
    #[arg(long)]
    pub force: bool,
    /// Write the tree to this file instead of standard output
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
}

pub fn run(args: &TreeArgs, ctx: &mut Context) -> Result<(), Failure> {
    if let Some(out) = &args.out {
        output::check(&[("--out", out)], &[output::Input::game(&args.game.file)])?;
    }
    if matches!(args.format, Format::Svg) && !args.json {
        graphviz::check().map_err(|why| Failure::input(format!("error: {why}")))?;
    }
    let game = load_game(&args.game.file, ctx)?;
    let root = args.start.position(&game, ctx)?;
    let depth = args.depth as usize;
    if args.values && game.num_players() != 2 {
        return Err(Failure::input(format!(
            "error: --values needs a two-player game (the exact solver's); {} has {} players\n\
             help: draw the tree without --values",
            game.name(),
            game.num_players()
        )));
    }
    let cap = if args.force { MAX_FORCED_NODES } else { MAX_NODES };
    crate::memory::doing("building the tree");
    let color = ctx.color;
    // What stopped the count or the tree, as the user reads it.
    let memory_binds = std::cell::Cell::new(false);
    let fail = |e: TreeError| match e {
        TreeError::Memory(m) => Failure::of(&m, color),
        TreeError::Solve(SolveError::Unsupported(why)) => Failure::input(format!(
            "error: --values needs the exact solver, which cannot solve this game: {why}\n\
             help: draw the tree without --values"
        )),
        TreeError::Solve(e @ (SolveError::Cycle { .. } | SolveError::TooDeep { .. })) => {
            Failure::runtime(diagnostic::render(&endless(&game, e), color))
        }
        TreeError::Solve(SolveError::Budget { what: "states", .. }) if memory_binds.get() => Failure::runtime(
            diagnostic::render(&crate::memory::MemoryLimit::now("building the tree"), color),
        ),
        TreeError::Solve(other) => Failure::of(&other, color),
    };
    let size = report::count(&game, &root, depth, MAX_FORCED_NODES).map_err(&fail)?;
    let total = size.as_ref().map(|per_depth| per_depth.iter().sum::<u64>());
    match total {
        None => {
            return Err(Failure::input(format!(
                "error: the tree to depth {depth} has more than {} nodes, too many to draw even with --force\n\
                 help: lower --depth, or start deeper in the game with --from",
                thousands(MAX_FORCED_NODES)
            )));
        }
        Some(n) if n > cap => {
            return Err(Failure::input(format!(
                "error: the tree to depth {depth} has {} nodes; gdl draws at most {} without --force\n\
                 help: add --force to draw it anyway, lower --depth, or start deeper in the game with --from",
                thousands(n),
                thousands(MAX_NODES)
            )));
        }
        Some(_) => {}
    }
    // Games with chance or simultaneous moves get expectiminimax values, as
    // in `gdl solve`; a game with hidden information has none to show.
    let chance_game = match kind(&game, false) {
        Some(Kind::Hidden) if args.values => {
            return Err(Failure::input(format!(
                "error: --values cannot value {}: it hides information from a player, and a position's value \
                 depends on what the players believe (gdl solve uses CFR for it)\n\
                 help: draw the tree without --values",
                game.name()
            )));
        }
        kind => kind.is_some(),
    };
    let mut exact = if args.values && !chance_game {
        let mut opts = SolveOptions {
            count_states: false,
            ..SolveOptions::default()
        };
        args.search.apply(&mut opts);
        // The values' memo table takes at most half of the memory left; the tree the rest.
        memory_binds.set(limits::cap_memo(&mut opts, &root, 2));
        Some(Solver::new(&game, opts).map_err(|e| Failure::input(format!("error: {e}")))?)
    } else {
        None
    };
    let mut chance = if args.values && chance_game {
        let mut solve_opts = SolveOptions::default();
        args.search.apply(&mut solve_opts);
        let opts = ChanceOptions {
            max_states: solve_opts.max_states,
            time_limit: solve_opts.time_limit,
            ..ChanceOptions::default()
        };
        Some(ChanceValuer::new(&game, &opts).map_err(|e| fail(TreeError::Solve(e)))?)
    } else {
        None
    };
    let values: Option<&mut dyn report::NodeValues<Interpreted>> = match (exact.as_mut(), chance.as_mut()) {
        (Some(s), _) => Some(s),
        (None, Some(c)) => Some(c),
        (None, None) => None,
    };
    let mut tree = report::build(&game, &root, depth, values).map_err(|e| {
        let memory = matches!(e, TreeError::Memory(_));
        let mut f = fail(e);
        if let (true, Some(n)) = (memory, total) {
            f.text
                .push_str(&format!("\nthe tree to depth {depth} has {} nodes\n", thousands(n)));
        }
        f
    })?;
    if args.shown.raw || !shown::all_public(&game) {
        for n in &mut tree.nodes {
            n.board = None;
        }
    }
    tree.hidden = !shown::all_public(&game);
    // A picture is cut to a page unless --force asks for all of it.
    let page = if args.force { usize::MAX } else { report::PAGE_NODES };
    drop(exact);
    let layout = match args.layout {
        LayoutArg::Auto => report::Layout::Auto,
        LayoutArg::Tb => report::Layout::TopDown,
        LayoutArg::Lr => report::Layout::LeftRight,
    };
    let write = |out: &mut dyn std::io::Write| match args.format {
        _ if args.json => out.write_all(crate::report::json::document(&report::json(&tree)).as_bytes()),
        Format::Text => report::write_text(&tree, out),
        Format::Dot => report::write_dot_page(&tree, layout, page, out),
        Format::Svg => {
            let mut dot = Vec::new();
            report::write_dot_page(&tree, layout, page, &mut dot)?;
            out.write_all(&graphviz::svg(&dot)?)
        }
    };
    match &args.out {
        Some(path) => {
            let out = output::Output {
                flag: "--out",
                path: path.clone(),
            };
            let mut file = out.stream()?;
            write(&mut file).and_then(|()| file.finish()).map_err(|e| out.failed(e))
        }
        None => {
            let mut out = std::io::BufWriter::new(&mut *ctx.out);
            write(&mut out)
                .and_then(|()| std::io::Write::flush(&mut out))
                .map_err(stdout_failed)
        }
    }
}
