//! The interpreter against hand-written Rust: each seed game natively
//! (`tests/native`) and interpreted from its `.game` file, through the same
//! algorithm code, side by side in one run.
//!
//! Run with `cargo bench --bench nodes`. It prints, for Nim, Nimcala, the
//! 1-9 game and tic-tac-toe: alpha-beta nodes per second without memo,
//! random playouts per second, the time of a memoized solve and the heap
//! bytes per memo entry; for connect four (6 × 7, too big to solve): random
//! playouts per second and alpha-beta nodes per second to a fixed depth;
//! then every Nimcala with pits <= 8 and tokens <= 10 solved with the memo;
//! then X Nimmt! search decisions per second. Every speed is the median of
//! `RUNS` runs; the ratio is interpreted speed / native speed (1.0 = as fast
//! as hand-written code). docs/PERFORMANCE.md records the figures.
//!
//! The game files run on the default engine (compiled rules where the
//! processor is supported); `cargo bench --bench nodes -- vm` runs them on
//! the VM instead.

#[path = "../tests/native/mod.rs"]
mod native;

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use gdl::game::{Game, Turn};
use gdl::runtime::{Engine, Interpreted};
use gdl::solve::agents::agent::Agent;
use gdl::solve::agents::search::{SearchAgent, SearchBudget};
use gdl::solve::agents::simulate::{Scratch, random_playout, sample_chance};
use gdl::solve::{Algorithm, SolveOptions, Solver, solve};
use native::{Connect4, Nim, Nimcala, Select19, TicTacToe};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Runs per figure; the median is reported.
const RUNS: usize = 5;

/// The shortest run: quick work is repeated until a run takes this long.
const MIN_RUN: Duration = Duration::from_millis(50);

/// Counts live heap bytes and their peak, to measure what a memo table holds.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let live = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        grew(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Runs `work` (which returns how many units it did) again and again for at
/// least `MIN_RUN`, `RUNS` times; the median of units per second.
fn rate(mut work: impl FnMut() -> u64) -> f64 {
    median(
        (0..RUNS)
            .map(|_| {
                let started = Instant::now();
                let mut units = 0;
                while units == 0 || started.elapsed() < MIN_RUN {
                    units += work();
                }
                units as f64 / started.elapsed().as_secs_f64()
            })
            .collect(),
    )
}

fn options(memo: bool) -> SolveOptions {
    SolveOptions {
        algorithm: Algorithm::AlphaBeta,
        memo,
        count_states: false,
        ..SolveOptions::default()
    }
}

/// What one game costs under each algorithm.
struct Figures {
    /// Alpha-beta without memo: nodes per solve, nodes per second.
    nodes: u64,
    nodes_per_second: f64,
    playouts_per_second: f64,
    /// Alpha-beta with memo: seconds per solve, table entries, heap bytes per entry.
    memo_seconds: f64,
    memo_entries: usize,
    bytes_per_entry: f64,
}

fn figures<G: Game>(game: &G) -> Figures {
    let root = game.initial_state().expect("the game starts");
    let (plain, memo) = (options(false), options(true));
    let nodes = solve(game, &root, &plain).expect("solves").nodes;
    let nodes_per_second = rate(|| solve(black_box(game), black_box(&root), &plain).expect("solves").nodes);

    let playouts_per_second = playouts(game);

    let memo_seconds = 1.0 / rate(|| u64::from(solve(black_box(game), &root, &memo).is_ok()));
    let (memo_entries, bytes_per_entry) = heap_per_entry(game, &root);
    Figures {
        nodes,
        nodes_per_second,
        playouts_per_second,
        memo_seconds,
        memo_entries,
        bytes_per_entry,
    }
}

/// One memoized solve of `root`, counting the heap it holds at its peak
/// (the table, mostly): its table entries, and peak heap bytes per entry.
fn heap_per_entry<G: Game>(game: &G, root: &G::State) -> (usize, f64) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let sol = solve(game, root, &options(true)).expect("solves");
    let bytes = (PEAK.load(Ordering::Relaxed) - before) as f64;
    (sol.memo_entries, bytes / sol.memo_entries as f64)
}

/// Heap bytes per memo entry on tables large enough that the search's own
/// buffers (a move list per ply) weigh nothing beside the table, and the
/// bytes of one table slot (state and entry) on each side.
fn memo_bytes_at_scale() {
    println!("Heap bytes per memo entry on larger tables (one solve each); ratio = interpreted / native");
    println!(
        "  {:<28} {:>10} {:>12} {:>12} {:>8} {:>12}",
        "game", "entries", "native", "interpreted", "ratio", "slot bytes"
    );
    let show = |name: &str, n: (usize, f64), i: (usize, f64), slots: (usize, usize)| {
        assert_eq!(n.0, i.0, "{name}: different memo tables");
        println!(
            "  {name:<28} {:>10} {:>12.1} {:>12.1} {:>8.3} {:>12}",
            n.0,
            n.1,
            i.1,
            i.1 / n.1,
            format!("{} / {}", slots.0, slots.1)
        );
    };
    let slots = (
        Solver::<Nim>::memo_slot_bytes(),
        Solver::<Interpreted>::memo_slot_bytes(),
    );
    for piles in [&[7u8, 5, 3, 1][..], &[3, 5, 7, 9], &[3, 5, 7, 9, 11]] {
        let list: Vec<String> = piles.iter().map(u8::to_string).collect();
        let native = Nim::misere(piles);
        let file = game_file("games/nim.game", &[("piles", &list.join(","))]);
        show(
            &format!("misère Nim [{}]", list.join(", ")),
            heap_per_entry(&native, &native.initial_state().expect("starts")),
            heap_per_entry(&file, &file.initial_state().expect("starts")),
            slots,
        );
    }
    for (pits, tokens) in [(4, 5), (6, 8), (8, 10)] {
        let native = Nimcala::new(pits, tokens);
        let (p, t) = (pits.to_string(), tokens.to_string());
        let file = game_file("games/nimcala.game", &[("pits", &p), ("tokens", &t)]);
        show(
            &format!("Nimcala {pits} pits {tokens} tokens"),
            heap_per_entry(&native, &native.initial_state().expect("starts")),
            heap_per_entry(&file, &file.initial_state().expect("starts")),
            (Solver::<Nimcala>::memo_slot_bytes(), slots.1),
        );
    }
    let file = game_file("games/select19.game", &[]);
    show(
        "1-9 selection",
        heap_per_entry(&Select19, &Select19.initial_state().expect("starts")),
        heap_per_entry(&file, &file.initial_state().expect("starts")),
        (Solver::<Select19>::memo_slot_bytes(), slots.1),
    );
    let file = game_file("games/tictactoe.game", &[]);
    show(
        "tic-tac-toe",
        heap_per_entry(&TicTacToe, &TicTacToe.initial_state().expect("starts")),
        heap_per_entry(&file, &file.initial_state().expect("starts")),
        (Solver::<TicTacToe>::memo_slot_bytes(), slots.1),
    );
    println!("  slot bytes: native / interpreted, one table slot (the state, its entry, a control byte)");
}

/// Random playouts from the start per second.
fn playouts<G: Game>(game: &G) -> f64 {
    let root = game.initial_state().expect("the game starts");
    let mut rng = SmallRng::seed_from_u64(1);
    let mut scratch = Scratch::default();
    let mut state = root.clone();
    rate(|| {
        for _ in 0..100 {
            state.clone_from(&root);
            random_playout(black_box(game), &mut state, &mut rng, &mut scratch).expect("plays out");
        }
        100
    })
}

/// Plies searched by [`depth_limited`]: positions this deep are scored 0.
const CUTOFF: usize = 7;

/// Alpha-beta without memo from the start to [`CUTOFF`] plies: the nodes of
/// one search, and nodes per second.
fn depth_limited<G: Game>(game: &G) -> (u64, f64) {
    let root = game.initial_state().expect("the game starts");
    let mut solver = Solver::new(game, options(false)).expect("two players");
    solver.set_cutoff(Some(CUTOFF));
    solver.search_root(&root).expect("searches");
    let nodes = solver.nodes();
    let nodes_per_second = rate(|| {
        solver.search_root(black_box(&root)).expect("searches");
        solver.nodes()
    });
    (nodes, nodes_per_second)
}

/// A game file compiled with these parameters.
fn game_file(path: &str, bindings: &[(&str, &str)]) -> Interpreted {
    let text = without_canonical(&std::fs::read_to_string(path).expect("run from the crate root"));
    let b: Vec<(String, String)> = bindings.iter().map(|(a, v)| (a.to_string(), v.to_string())).collect();
    let engine = if std::env::args().any(|a| a == "vm") {
        Engine::Vm
    } else {
        Engine::default_for_host()
    };
    Interpreted::with_engine(
        gdl::compile::load(path, &text, &b).expect("the game files compile"),
        engine,
    )
}

/// The game file's text without a one-line `canonical { ... }` block (Nim's
/// rows sorted): the hand-written games keep every position apart, so both
/// sides search and learn the same positions.
fn without_canonical(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("canonical {"))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn speed(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2}M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1}k", x / 1e3)
    } else {
        format!("{x:.1}")
    }
}

fn time(s: f64) -> String {
    if s < 0.1 {
        format!("{:.3}ms", s * 1e3)
    } else {
        format!("{s:.3}s")
    }
}

fn row(game: &str, what: &str, native: String, interpreted: String, ratio: f64) {
    println!("  {game:<28} {what:<30} {native:>12} {interpreted:>12} {ratio:>8.3}");
}

/// A sweep of solves: total seconds, the slowest's seconds, its pits and tokens.
type Sweep = (f64, f64, (usize, usize));

/// Every Nimcala with pits <= 8 and tokens <= 10, solved with the memo once each.
fn nimcala_sweep(solve_one: impl Fn(usize, usize) -> f64) -> Sweep {
    let mut total = 0.0;
    let mut slowest = (0.0, (0, 0));
    for pits in 1..=8 {
        for tokens in 1..=10 {
            let s = solve_one(pits, tokens);
            total += s;
            if s > slowest.0 {
                slowest = (s, (pits, tokens));
            }
        }
    }
    (total, slowest.0, slowest.1)
}

fn timed(f: impl FnOnce()) -> f64 {
    let started = Instant::now();
    f();
    started.elapsed().as_secs_f64()
}

/// Search decisions per second in X Nimmt! (2 players, the defaults): player
/// 0 decides with a 20-world search agent at every turn of random games.
fn xnimmt_decisions(game: &Interpreted) -> f64 {
    let mut rng = SmallRng::seed_from_u64(3);
    let mut agent = SearchAgent::new(
        SearchBudget {
            samples: 20,
            time: None,
            stop: None,
        },
        5,
    );
    let mut scratch = Scratch::default();
    let (mut moves, mut joint) = (Vec::new(), Vec::new());
    rate(|| {
        let mut decisions = 0;
        let mut s = game.initial_state().expect("starts");
        loop {
            match game.turn(&s).expect("turn") {
                Turn::Terminal => return decisions,
                Turn::Chance => {
                    let m = sample_chance(game, &s, &mut rng, &mut scratch).expect("chance");
                    game.apply(&mut s, &m).expect("applies");
                }
                Turn::Simultaneous => {
                    joint.clear();
                    for p in 0..game.num_players() {
                        game.legal_moves_of(&s, p, &mut moves).expect("moves");
                        joint.push(if p == 0 {
                            decisions += 1;
                            agent.choose(game, &s, p, &moves).expect("chooses").mv
                        } else {
                            moves[rng.random_range(0..moves.len())]
                        });
                    }
                    game.apply_joint(&mut s, &joint).expect("applies");
                }
                Turn::Player(p) => {
                    game.legal_moves(&s, &mut moves).expect("moves");
                    let mv = agent.choose(game, &s, p, &moves).expect("chooses").mv;
                    decisions += 1;
                    game.apply(&mut s, &mv).expect("applies");
                }
            }
        }
    })
}

fn main() {
    // `cargo bench --bench nodes -- memo`: the memo bytes alone.
    if std::env::args().any(|a| a == "memo") {
        memo_bytes_at_scale();
        return;
    }
    let games: [(&str, Figures, Figures); 4] = [
        (
            "misère Nim [7, 5, 3, 1]",
            figures(&Nim::misere(&[7, 5, 3, 1])),
            figures(&game_file("games/nim.game", &[("piles", "7,5,3,1")])),
        ),
        (
            "Nimcala 4 pits 5 tokens",
            figures(&Nimcala::new(4, 5)),
            figures(&game_file("games/nimcala.game", &[("pits", "4"), ("tokens", "5")])),
        ),
        (
            "1-9 selection",
            figures(&Select19),
            figures(&game_file("games/select19.game", &[])),
        ),
        (
            "tic-tac-toe",
            figures(&TicTacToe),
            figures(&game_file("games/tictactoe.game", &[])),
        ),
    ];
    let connect4 = (Connect4::standard(), game_file("games/connect4.game", &[]));
    let connect4_playouts = (playouts(&connect4.0), playouts(&connect4.1));
    let connect4_search = (depth_limited(&connect4.0), depth_limited(&connect4.1));

    println!("Native and interpreted, medians of {RUNS} runs; ratio = interpreted speed / native speed");
    println!(
        "  {:<28} {:<30} {:>12} {:>12} {:>8}",
        "game", "figure", "native", "interpreted", "ratio"
    );
    for (name, n, i) in &games {
        // Both must have searched the same tree, or the comparison means nothing.
        assert_eq!(
            n.nodes, i.nodes,
            "{name}: native and interpreted searched different trees"
        );
        assert_eq!(n.memo_entries, i.memo_entries, "{name}: different memo tables");
        row(
            name,
            &format!("alpha-beta nodes/s ({} nodes)", n.nodes),
            speed(n.nodes_per_second),
            speed(i.nodes_per_second),
            i.nodes_per_second / n.nodes_per_second,
        );
        row(
            name,
            "random playouts/s",
            speed(n.playouts_per_second),
            speed(i.playouts_per_second),
            i.playouts_per_second / n.playouts_per_second,
        );
        row(
            name,
            &format!("memo solve time ({} entries)", n.memo_entries),
            time(n.memo_seconds),
            time(i.memo_seconds),
            n.memo_seconds / i.memo_seconds,
        );
        row(
            name,
            "heap bytes per memo entry",
            format!("{:.0}", n.bytes_per_entry),
            format!("{:.0}", i.bytes_per_entry),
            n.bytes_per_entry / i.bytes_per_entry,
        );
    }
    let name = "connect four 6×7";
    let ((native_nodes, native_speed), (nodes, interpreted_speed)) = connect4_search;
    assert_eq!(
        native_nodes, nodes,
        "{name}: native and interpreted searched different trees"
    );
    row(
        name,
        &format!("alpha-beta nodes/s ({nodes} nodes, {CUTOFF} plies)"),
        speed(native_speed),
        speed(interpreted_speed),
        interpreted_speed / native_speed,
    );
    row(
        name,
        "random playouts/s",
        speed(connect4_playouts.0),
        speed(connect4_playouts.1),
        connect4_playouts.1 / connect4_playouts.0,
    );
    println!();
    memo_bytes_at_scale();
    println!();

    let memo = options(true);
    let files: Vec<Vec<Interpreted>> = (1..=8)
        .map(|pits| {
            (1..=10)
                .map(|tokens| {
                    let (p, t) = (pits.to_string(), tokens.to_string());
                    game_file("games/nimcala.game", &[("pits", &p), ("tokens", &t)])
                })
                .collect()
        })
        .collect();
    let sweeps: Vec<_> = (0..RUNS)
        .map(|_| {
            let native = nimcala_sweep(|p, t| {
                let g = Nimcala::new(p, t as u8);
                let root = g.initial_state().expect("starts");
                timed(|| {
                    solve(&g, &root, &memo).expect("solves");
                })
            });
            let interpreted = nimcala_sweep(|p, t| {
                let g = &files[p - 1][t - 1];
                let root = g.initial_state().expect("starts");
                timed(|| {
                    solve(g, &root, &memo).expect("solves");
                })
            });
            (native, interpreted)
        })
        .collect();
    let total = |f: fn(&(Sweep, Sweep)) -> f64| median(sweeps.iter().map(f).collect());
    let slowest = sweeps[0].1.2;
    println!("Nimcala, every pits <= 8 and tokens <= 10 (80 games), alpha-beta with memo, medians of {RUNS} sweeps");
    let (nt, it) = (total(|s| s.0.0), total(|s| s.1.0));
    let (ns, is) = (total(|s| s.0.1), total(|s| s.1.1));
    row("all 80", "total solve time", time(nt), time(it), nt / it);
    row(
        &format!("slowest ({} pits {} tokens)", slowest.0, slowest.1),
        "solve time",
        time(ns),
        time(is),
        ns / is,
    );
    println!();

    let xnimmt = game_file("games/xnimmt.game", &[]);
    println!("X Nimmt! (2 players, defaults), search agent with 20 worlds per decision, median of {RUNS} runs");
    println!(
        "  interpreted: {} decisions/s; native: none (X Nimmt! exists only as games/xnimmt.game)",
        speed(xnimmt_decisions(&xnimmt))
    );
}
