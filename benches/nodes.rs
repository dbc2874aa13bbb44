//! Nodes per second and time to solve, native games side by side with the
//! same games interpreted from their `.game` files, through the same solver
//! code, in the same run.
//!
//! Run with `cargo bench --bench nodes`. Each figure is the median of several
//! runs; the last column is interpreted speed / native speed (1.0 = as fast
//! as hand-written Rust).

#[path = "../tests/native/mod.rs"]
mod native;

use std::hint::black_box;
use std::time::{Duration, Instant};

use gdl::game::Game;
use gdl::runtime::Interpreted;
use gdl::solve::{Algorithm, SolveOptions, solve};
use native::{Nim, Nimcala, Select19};

/// Runs per figure; the median is reported.
const RUNS: usize = 7;

/// The shortest run: tiny solves are repeated until a run takes this long.
const MIN_RUN: Duration = Duration::from_millis(20);

/// The median of `RUNS` solves of one position.
#[derive(Clone, Copy, Debug)]
struct Measure {
    /// Nodes per solve (the same every run: the search is deterministic).
    nodes: u64,
    /// Median seconds per solve.
    seconds: f64,
}

impl Measure {
    fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.seconds
    }
}

/// Solves `root` `runs` times and takes the median time. A run repeats the
/// solve until it has taken at least `MIN_RUN` (a small position solves in
/// microseconds) and counts the time per solve.
fn measure<G: Game>(game: &G, root: &G::State, opts: &SolveOptions, runs: usize) -> Measure {
    let mut times = Vec::with_capacity(runs);
    let mut nodes = 0;
    for _ in 0..runs {
        let started = Instant::now();
        let mut solves = 0u32;
        while solves == 0 || started.elapsed() < MIN_RUN {
            let sol = solve(black_box(game), black_box(root), opts).expect("the benchmark positions solve");
            nodes = sol.nodes;
            solves += 1;
        }
        times.push(started.elapsed().as_secs_f64() / f64::from(solves));
    }
    times.sort_by(f64::total_cmp);
    Measure {
        nodes,
        seconds: times[times.len() / 2],
    }
}

/// One line of a table: a position and search, natively and (when available) interpreted.
struct Row {
    name: String,
    native: Measure,
    interpreted: Option<Measure>,
}

/// What a table shows of each measure.
#[derive(Clone, Copy)]
enum Show {
    NodesPerSecond,
    Seconds,
}

fn cell(m: Option<Measure>, show: Show) -> String {
    match (m, show) {
        (None, _) => "-".to_string(),
        (Some(m), Show::NodesPerSecond) => format!("{:.2}M", m.nodes_per_second() / 1e6),
        (Some(m), Show::Seconds) if m.seconds < 0.1 => format!("{:.3}ms", m.seconds * 1e3),
        (Some(m), Show::Seconds) => format!("{:.3}s", m.seconds),
    }
}

fn print_table(title: &str, show: Show, rows: &[Row]) {
    let what = match show {
        Show::NodesPerSecond => "nodes/s",
        Show::Seconds => "time",
    };
    println!("{title}");
    println!(
        "  {:<44} {:>12} {:>16} {:>20} {:>13}",
        "position",
        "nodes",
        format!("native {what}"),
        format!("interpreted {what}"),
        "interp/native"
    );
    for row in rows {
        // interpreted / native speed: 1.0 is as fast as hand-written code.
        let ratio = row
            .interpreted
            .map_or("-".to_string(), |i| format!("{:.3}", row.native.seconds / i.seconds));
        println!(
            "  {:<44} {:>12} {:>16} {:>20} {:>13}",
            row.name,
            row.native.nodes,
            cell(Some(row.native), show),
            cell(row.interpreted, show),
            ratio
        );
    }
    println!();
}

fn options(algorithm: Algorithm, memo: bool) -> SolveOptions {
    SolveOptions {
        algorithm,
        memo,
        count_states: false,
        ..SolveOptions::default()
    }
}

fn row<G: Game>(name: &str, game: &G, interpreted: &Interpreted, opts: &SolveOptions) -> Row {
    let root = game.initial_state().expect("native games start");
    let iroot = interpreted.initial_state().expect("the game files start");
    let native = measure(game, &root, opts, RUNS);
    let interp = measure(interpreted, &iroot, opts, RUNS);
    // Both must have searched the same tree, or the comparison means nothing.
    assert_eq!(
        native.nodes, interp.nodes,
        "{name}: native and interpreted searched different trees"
    );
    Row {
        name: name.to_string(),
        native,
        interpreted: Some(interp),
    }
}

/// A game file compiled with these parameters.
fn game_file(path: &str, bindings: &[(&str, &str)]) -> Interpreted {
    let text = std::fs::read_to_string(path).expect("run from the crate root");
    let b: Vec<(String, String)> = bindings.iter().map(|(a, v)| (a.to_string(), v.to_string())).collect();
    Interpreted::new(gdl::compile::load(path, &text, &b).expect("the game files compile"))
}

fn main() {
    let nim = Nim::misere(&[7, 5, 3, 1]);
    let nim_file = game_file("games/nim.game", &[("piles", "7,5,3,1")]);
    let nimcala44 = game_file("games/nimcala.game", &[("pits", "4"), ("tokens", "4")]);
    let nimcala45 = game_file("games/nimcala.game", &[("pits", "4"), ("tokens", "5")]);
    let select19 = game_file("games/select19.game", &[]);
    let alphabeta = options(Algorithm::AlphaBeta, false);
    let alphabeta_memo = options(Algorithm::AlphaBeta, true);
    let minimax_memo = options(Algorithm::Minimax, true);

    print_table(
        &format!("Nodes per second, alpha-beta without memo (median of {RUNS} runs)"),
        Show::NodesPerSecond,
        &[
            row("misère Nim [7, 5, 3, 1]", &nim, &nim_file, &alphabeta),
            row("Nimcala 4 pits 4 tokens", &Nimcala::new(4, 4), &nimcala44, &alphabeta),
            row("1-9 selection", &Select19, &select19, &alphabeta),
        ],
    );

    print_table(
        &format!("Time to solve misère Nim [7, 5, 3, 1] (median of {RUNS} runs)"),
        Show::Seconds,
        &[
            row("alpha-beta, no memo", &nim, &nim_file, &alphabeta),
            row("alpha-beta, memo", &nim, &nim_file, &alphabeta_memo),
            row("minimax, memo", &nim, &nim_file, &minimax_memo),
            row(
                "alpha-beta, memo, prefer short",
                &nim,
                &nim_file,
                &SolveOptions {
                    prefer_short: true,
                    ..alphabeta_memo.clone()
                },
            ),
        ],
    );

    print_table(
        &format!("Time to solve Nimcala 4 pits 5 tokens (median of {RUNS} runs)"),
        Show::Seconds,
        &[
            row("alpha-beta, no memo", &Nimcala::new(4, 5), &nimcala45, &alphabeta),
            row("alpha-beta, memo", &Nimcala::new(4, 5), &nimcala45, &alphabeta_memo),
            row("minimax, memo", &Nimcala::new(4, 5), &nimcala45, &minimax_memo),
        ],
    );
}
