//! Q-learning speed: training episodes per second on misère Nim, the game
//! interpreted from `games/nim.game` (without its `canonical` block) and hand-written (`tests/native`), through
//! the same learner, and how the speed changes as the game grows.
//!
//! Run with `cargo bench --bench qlearn`. Each run trains a fresh table for
//! the seed's 10,000 episodes (alpha 0.5, epsilon 0.1); each figure is the
//! median of several runs.
//!
//! Then what a `canonical` block saves a learner: misère Nim 1,3,5,7 with and
//! without games/nim.game's `canonical { board.sort() }`, the table's size and the share of
//! positions where the greedy move is optimal, after each number of episodes
//! (the median over seeds; `cargo bench --bench qlearn -- canonical` runs this part alone).

#[path = "../tests/native/mod.rs"]
mod native;

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use gdl::game::Game;
use gdl::runtime::Interpreted;
use gdl::solve::learn::qeval::agreement;
use gdl::solve::learn::qlearn::{QLearner, QSettings, QTable};
use native::Nim;

/// Runs per figure; the median is reported.
const RUNS: usize = 7;
/// Episodes per run: what seed 004 trains.
const EPISODES: u64 = 10_000;

struct Measure {
    episodes_per_second: f64,
    positions: usize,
    values: usize,
}

/// Trains `RUNS` fresh tables (seeds 0, 1, ...) and takes the median speed.
fn measure<G: Game>(game: &G) -> Measure {
    let mut rates = Vec::with_capacity(RUNS);
    let mut size = (0, 0);
    for run in 0..RUNS {
        let settings = QSettings {
            alpha: 0.5,
            epsilon: 0.1,
            seed: run as u64,
        };
        let mut learner = QLearner::new(black_box(game), settings, QTable::new()).expect("a turn-taking game");
        let started = Instant::now();
        learner
            .train(EPISODES, &AtomicBool::new(false), &mut |_| {})
            .expect("the rules run");
        rates.push(EPISODES as f64 / started.elapsed().as_secs_f64());
        size = (learner.table().positions(), learner.table().len());
    }
    rates.sort_by(f64::total_cmp);
    Measure {
        episodes_per_second: rates[RUNS / 2],
        positions: size.0,
        values: size.1,
    }
}

fn game_file(path: &str, piles: &str) -> Interpreted {
    let text = without_canonical(&std::fs::read_to_string(path).expect("the game file exists"));
    let program = gdl::compile::load(path, &text, &[("piles".to_string(), piles.to_string())]).expect("it compiles");
    Interpreted::new(program)
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

/// Reachable non-terminal positions of Nim `piles`: every smaller board,
/// with either player to move.
fn positions(piles: &[u8]) -> u64 {
    2 * piles.iter().map(|&p| u64::from(p) + 1).product::<u64>()
}

fn main() {
    if std::env::args().any(|a| a == "canonical") {
        canonical();
        return;
    }
    speeds();
    println!();
    canonical();
}

/// Seeds per figure of [`canonical`].
const SEEDS: u64 = 5;

/// Table size and greedy-optimal share against episodes, with and without
/// the piles sorted by a `canonical` block.
fn canonical() {
    let sorted_text = std::fs::read_to_string("games/nim.game").expect("the game file exists");
    let text = without_canonical(&sorted_text);
    assert_ne!(text, sorted_text, "games/nim.game sorts its rows");
    let piles = [("piles".to_string(), "1,3,5,7".to_string())];
    let plain = Interpreted::new(gdl::compile::load("nim.game", &text, &piles).expect("it compiles"));
    let sorted = Interpreted::new(gdl::compile::load("nim.game", &sorted_text, &piles).expect("it compiles"));
    println!("misère Nim [1, 3, 5, 7]: with and without `canonical {{ board.sort() }}` (median of {SEEDS} seeds)\n");
    println!(
        "{:>9} {:>22} {:>22} {:>18} {:>18}",
        "episodes", "positions, plain", "positions, canonical", "optimal, plain", "optimal, canonical"
    );
    for episodes in [1_000, 2_000, 5_000, 10_000, 20_000, 50_000] {
        let (pa, oa) = learned(&plain, episodes);
        let (pb, ob) = learned(&sorted, episodes);
        println!(
            "{episodes:>9} {pa:>22} {pb:>22} {:>17.1}% {:>17.1}%",
            oa * 100.0,
            ob * 100.0
        );
    }
    println!("\noptimal: the share of the game's reachable positions (every ordering of the piles)");
    println!("where the greedy move (carried over from the representative) is an optimal move.");
}

/// Median table positions and greedy-optimal share after `episodes`.
fn learned(game: &Interpreted, episodes: u64) -> (usize, f64) {
    let root = game.initial_state().expect("the game starts");
    let mut positions = Vec::new();
    let mut optimal = Vec::new();
    for seed in 0..SEEDS {
        let settings = QSettings {
            alpha: 0.5,
            epsilon: 0.1,
            seed,
        };
        let mut learner = QLearner::new(game, settings, QTable::new()).expect("a turn-taking game");
        learner
            .train(episodes, &AtomicBool::new(false), &mut |_| {})
            .expect("the rules run");
        let a = agreement(game, learner.table(), &root).expect("the game solves");
        positions.push(learner.table().positions());
        optimal.push(a.optimal as f64 / a.positions as f64);
    }
    positions.sort_unstable();
    optimal.sort_by(f64::total_cmp);
    (positions[positions.len() / 2], optimal[optimal.len() / 2])
}

/// Episodes per second, interpreted and native, as the game grows.
fn speeds() {
    println!("Q-learning, {EPISODES} training episodes from an empty table (median of {RUNS} runs)\n");
    println!(
        "{:<22} {:>10} {:>14} {:>14} {:>10} {:>10}",
        "misère Nim", "positions", "native ep/s", "gdl ep/s", "gdl/native", "table"
    );
    let boards: [&[u8]; 5] = [
        &[1, 3, 5],
        &[1, 3, 5, 7],
        &[1, 3, 5, 7, 9],
        &[2, 4, 6, 8, 10],
        &[3, 5, 7, 9, 11, 13],
    ];
    for piles in boards {
        let list: Vec<String> = piles.iter().map(u8::to_string).collect();
        let native = measure(&Nim::misere(piles));
        let interpreted = measure(&game_file("games/nim.game", &list.join(",")));
        println!(
            "{:<22} {:>10} {:>14.0} {:>14.0} {:>10.2} {:>10}",
            format!("[{}]", list.join(", ")),
            positions(piles),
            native.episodes_per_second,
            interpreted.episodes_per_second,
            interpreted.episodes_per_second / native.episodes_per_second,
            format!("{}/{}", interpreted.positions, interpreted.values),
        );
        assert_eq!(native.positions, interpreted.positions, "both learn the same positions");
    }
    println!("\npositions: boards no larger than the start, times two players to move (an upper bound);");
    println!("table: positions / (position, move) values in the last interpreted run's table.");
}
